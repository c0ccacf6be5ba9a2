/*
 * sig/sig.c: errors, raw Ed25519, a statement's signature, the record chain.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "sig/sig.h"
#include "sig/wire.h"

/* Describe an error for a person. */
const char *
sig_strerror(enum sig_error e)
{
	switch (e) {
	case SIG_OK:
		return "no error";
	case SIG_ENOHEADER:
		return "no statement found: it must start with a line 'corrchess-v1'";
	case SIG_EVERSION:
		return "unsupported statement version: this server reads 'corrchess-v1' statements";
	case SIG_ESYNTAX:
		return "malformed statement line: write 'name: value' with a lower-case name, a colon and one space (game, ply, player, action)";
	case SIG_EFIELD_UNKNOWN:
		return "unknown field in the statement: only game, ply, player, action and, after the action, message are allowed";
	case SIG_EFIELD_DUP:
		return "a statement field is given twice";
	case SIG_EFIELD_ORDER:
		return "statement fields out of order: write game, ply, player, action in that order";
	case SIG_EFIELD_MISSING:
		return "the statement is incomplete: it needs the lines game, ply, player and action, directly after 'corrchess-v1'";
	case SIG_EGAME:
		return "bad game number: write a decimal number without leading zeros (0 for your own settings and keys)";
	case SIG_EPLY:
		return "bad ply: write the number of half-moves played so far, a decimal number without leading zeros";
	case SIG_EPLAYER:
		return "bad player name: use 1 to 32 lower-case letters, digits, '_', '.' or '-'";
	case SIG_EACTION:
		return "unknown action: use move, accept-draw, decline-draw, resign, claim-draw, leave, conditional, cancel-conditional, show-conditional; with game 0: add-key, revoke-key, set, email, confirm-email or show-settings";
	case SIG_EACTION_ARGS:
		return "wrong words after the action: write 'move MOVE', 'move MOVE offer-draw', 'accept-draw', 'decline-draw', 'resign', 'claim-draw', 'claim-draw MOVE' or 'leave YYYY-MM-DD YYYY-MM-DD'; with game 0: 'add-key KEY', 'revoke-key SHA256:...', 'set NAME VALUE', 'email ADDRESS', 'confirm-email CODE', 'show-settings'; words separated by one space";
	case SIG_EMOVE:
		return "bad move text: give a move of 1 to 32 printable ASCII characters";
	case SIG_EDATE:
		return "bad leave dates: write two real dates YYYY-MM-DD, the first day away then the last, first not after last";
	case SIG_ETOOLONG:
		return "the action is too long: at most 64 characters, the move at most 32, the lines of a conditional at most 768, an admin's reason at most 200, a key, setting, address or code at most 128";
	case SIG_ERESULT:
		return "an adjudication's result is 1-0, 0-1 or 1/2-1/2";
	case SIG_EREASON:
		return "give a reason: 1 to 200 bytes of text, without control characters or spaces at either end";
	case SIG_ELINES:
		return "bad conditional lines: write 'conditional' then moves one space apart, the opponent's first, lines separated by '; ' (conditional e5 Nf3; d5 exd5)";
	case SIG_ELINE_ENDS:
		return "the statement and its signature mix line ends: end every line the same way (LF, CRLF or CR)";
	case SIG_ENOSIG:
		return "missing signature: put a line 'signature: BASE64' or an SSH SIGNATURE block (ssh-keygen -Y sign -n corrchess) right after the statement";
	case SIG_EBASE64:
		return "invalid base64 in the signature or key";
	case SIG_ESIGLEN:
		return "the signature line must hold a 64-byte Ed25519 signature (88 base64 characters)";
	case SIG_ESIGFORM:
		return "the signature line must hold 88 characters of standard base64, '=' padding included";
	case SIG_ESIG_TWICE:
		return "a second signature follows the first: send one statement with one signature";
	case SIG_EARMOR:
		return "the SSH SIGNATURE block has no '-----END SSH SIGNATURE-----' line";
	case SIG_ESSHSIG:
		return "malformed SSH signature (truncated, too long, or not made by ssh-keygen -Y sign)";
	case SIG_ESSHSIG_VERSION:
		return "unsupported SSH signature version (only version 1 is known)";
	case SIG_ESSHSIG_HASH:
		return "unsupported SSH signature hash: use sha512 or sha256";
	case SIG_ENAMESPACE:
		return "the SSH signature was made for another purpose: sign with ssh-keygen -Y sign -n corrchess";
	case SIG_EBADSIG:
		return "the signature does not match the statement and the player's keys";
	case SIG_EKEY_MISMATCH:
		return "the SSH signature was made with a key that is not registered for this player";
	case SIG_EKEY_TYPE:
		return "unsupported key type: only Ed25519 keys are accepted (ssh-keygen -t ed25519)";
	case SIG_EKEY_LEN:
		return "an Ed25519 public key is 32 bytes (44 base64 characters); a secret key 32 or 64 bytes";
	case SIG_EKEY_FORMAT:
		return "malformed key: give 'ssh-ed25519 AAAA... comment', an OpenSSH private key file, or base64";
	case SIG_EKEY_ENCRYPTED:
		return "the private key is protected by a passphrase, which corrchess does not read: hold the key in ssh-agent (ssh-add) to sign with it, or remove the passphrase (ssh-keygen -p)";
	case SIG_EKEY_CORRUPT:
		return "the private key file is damaged (its parts do not match)";
	case SIG_ESPACE:
		return "output buffer too small";
	case SIG_EIO:
		return "cannot read or write the key file";
	case SIG_EEXIST:
		return "the key file exists already; remove it first or choose another name";
	case SIG_ECRYPTO:
		return "the cryptography library failed";
	case SIG_EPLAYER_GAME:
		return "a statement about yourself (add-key, revoke-key, set, email, confirm-email, show-settings) says 'game: 0', and a game's action names its game";
	case SIG_EAGENT:
		return "ssh-agent's answer is malformed (is SSH_AUTH_SOCK an ssh-agent?)";
	case SIG_EAGENT_REFUSED:
		return "ssh-agent refused (a key added with 'ssh-add -c' needs a confirmation; a locked agent needs 'ssh-add -X')";
	case SIG_EMESSAGE_ACTION:
		return "a message goes only with a move, a draw offer or its answer, a claim or a resignation";
	case SIG_EMESSAGE_LONG:
		return "the message is too long: 500 bytes at most (about 500 letters, fewer with accents)";
	case SIG_EMESSAGE_UTF8:
		return "the message is not valid UTF-8: write it in UTF-8";
	case SIG_EMESSAGE_CONTROL:
		return "the message holds a control character (a tab, a line break, ...) or a bidirectional control: write it on one line of plain text";
	case SIG_EMESSAGE_EMPTY:
		return "the message is empty or starts or ends with a space: leave the message line out, or write the text right after 'message: '";
	}
	return "unknown error";
}

/* Describe a statement's or a signature's fault in French; NULL: none. */
static const char *
strerror_fr(enum sig_error e)
{
	switch (e) {
	case SIG_ENOHEADER:
		return "aucune déclaration trouvée : elle doit commencer par une ligne « corrchess-v1 »";
	case SIG_EVERSION:
		return "version de déclaration inconnue : ce serveur lit les déclarations « corrchess-v1 »";
	case SIG_ESYNTAX:
		return "ligne de déclaration mal formée : écrivez « nom: valeur », le nom en minuscules, deux-points et une espace (game, ply, player, action)";
	case SIG_EFIELD_UNKNOWN:
		return "champ inconnu dans la déclaration : seuls game, ply, player, action et, après l'action, message sont permis";
	case SIG_EFIELD_DUP:
		return "un champ de la déclaration est donné deux fois";
	case SIG_EFIELD_ORDER:
		return "champs de la déclaration dans le désordre : écrivez game, ply, player, action dans cet ordre";
	case SIG_EFIELD_MISSING:
		return "la déclaration est incomplète : il lui faut les lignes game, ply, player et action, juste après « corrchess-v1 »";
	case SIG_EGAME:
		return "numéro de partie invalide : écrivez un nombre décimal sans zéro en tête (0 pour vos réglages et vos clés)";
	case SIG_EPLY:
		return "ply invalide : écrivez le nombre de demi-coups joués jusqu'ici, un nombre décimal sans zéro en tête";
	case SIG_EPLAYER:
		return "nom de joueur invalide : de 1 à 32 lettres minuscules, chiffres, « _ », « . » ou « - »";
	case SIG_EACTION:
		return "action inconnue : move, accept-draw, decline-draw, resign, claim-draw, leave, conditional, cancel-conditional, show-conditional ; avec game 0 : add-key, revoke-key, set, email, confirm-email ou show-settings";
	case SIG_EACTION_ARGS:
		return "mots incorrects après l'action : écrivez « move COUP », « move COUP offer-draw », « accept-draw », « decline-draw », « resign », « claim-draw », « claim-draw COUP » ou « leave AAAA-MM-JJ AAAA-MM-JJ », les mots séparés par une espace";
	case SIG_EMOVE:
		return "coup illisible : donnez un coup de 1 à 32 caractères ASCII imprimables";
	case SIG_EDATE:
		return "dates de congé invalides : écrivez deux vraies dates AAAA-MM-JJ, le premier jour d'absence puis le dernier, le premier pas après le dernier";
	case SIG_ETOOLONG:
		return "l'action est trop longue : 64 caractères au plus, le coup 32 au plus, les lignes d'un coup conditionnel 768 au plus";
	case SIG_ELINES:
		return "lignes conditionnelles invalides : écrivez « conditional » puis les coups séparés par une espace, celui de l'adversaire d'abord, les lignes séparées par « ; » (conditional e5 Cf3; d5 exd5)";
	case SIG_ELINE_ENDS:
		return "la déclaration et sa signature mélangent les fins de ligne : terminez chaque ligne de la même façon (LF, CRLF ou CR)";
	case SIG_ENOSIG:
		return "signature manquante : mettez une ligne « signature: BASE64 » ou un bloc SSH SIGNATURE (ssh-keygen -Y sign -n corrchess) juste après la déclaration";
	case SIG_EBASE64:
		return "base64 invalide dans la signature ou la clé";
	case SIG_ESIGLEN:
		return "la ligne signature doit contenir une signature Ed25519 de 64 octets (88 caractères base64)";
	case SIG_ESIGFORM:
		return "la ligne signature doit contenir 88 caractères de base64 standard, bourrage « = » compris";
	case SIG_ESIG_TWICE:
		return "une seconde signature suit la première : envoyez une déclaration avec une seule signature";
	case SIG_EARMOR:
		return "le bloc SSH SIGNATURE n'a pas de ligne « -----END SSH SIGNATURE----- »";
	case SIG_ESSHSIG:
		return "signature SSH mal formée (tronquée, trop longue, ou pas faite par ssh-keygen -Y sign)";
	case SIG_ESSHSIG_VERSION:
		return "version de signature SSH inconnue (seule la version 1 est connue)";
	case SIG_ESSHSIG_HASH:
		return "empreinte de signature SSH non prise en charge : utilisez sha512 ou sha256";
	case SIG_ENAMESPACE:
		return "la signature SSH a été faite pour un autre usage : signez avec ssh-keygen -Y sign -n corrchess";
	case SIG_EBADSIG:
		return "la signature ne correspond ni à la déclaration ni aux clés du joueur";
	case SIG_EKEY_MISMATCH:
		return "la signature SSH a été faite avec une clé qui n'est pas enregistrée pour ce joueur";
	case SIG_EKEY_TYPE:
		return "type de clé non pris en charge : seules les clés Ed25519 sont acceptées (ssh-keygen -t ed25519)";
	case SIG_EPLAYER_GAME:
		return "une déclaration sur vous-même (add-key, revoke-key, set, email, confirm-email, show-settings) porte « game: 0 », et l'action d'une partie nomme sa partie";
	case SIG_EMESSAGE_ACTION:
		return "un message n'accompagne qu'un coup, une proposition de nulle ou sa réponse, une réclamation ou un abandon";
	case SIG_EMESSAGE_LONG:
		return "le message est trop long : 500 octets au plus (environ 500 lettres, moins avec des accents)";
	case SIG_EMESSAGE_UTF8:
		return "le message n'est pas en UTF-8 valide : écrivez-le en UTF-8";
	case SIG_EMESSAGE_CONTROL:
		return "le message contient un caractère de contrôle (tabulation, saut de ligne...) ou de direction du texte : écrivez-le sur une seule ligne de texte simple";
	case SIG_EMESSAGE_EMPTY:
		return "le message est vide ou commence ou finit par une espace : omettez la ligne message, ou écrivez le texte juste après « message: »";
	default:
		return NULL;
	}
}

/* Describe an error for a person, in their language. */
const char *
sig_strerror_lang(enum sig_error e, enum chess_lang lang)
{
	const char	*fr;

	if (lang == CHESS_LANG_FR && (fr = strerror_fr(e)) != NULL)
		return fr;
	return sig_strerror(e);
}

/* Initialise libsodium. */
int
sig_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

/* --- raw Ed25519 --------------------------------------------------- */

/* Make a detached Ed25519 signature. */
int
sig_sign(const uint8_t *msg, size_t len, const uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t sig[SIG_SIGNATURE_BYTES])
{
	return crypto_sign_detached(sig, NULL, msg, len, sk) == 0 ? 0 : -1;
}

/* Verify a detached Ed25519 signature. */
int
sig_verify(const uint8_t *msg, size_t len,
    const uint8_t sig[SIG_SIGNATURE_BYTES], const uint8_t pk[SIG_PUBKEY_BYTES])
{
	return crypto_sign_verify_detached(sig, msg, len, pk) == 0 ? 0 : -1;
}

/* Format the "signature: BASE64" line. */
int
sig_rawsig_format(const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf,
    size_t size)
{
	char b64[sodium_base64_ENCODED_LEN(SIG_SIGNATURE_BYTES, B64)];
	int n;

	sodium_bin2base64(b64, sizeof b64, sig, SIG_SIGNATURE_BYTES, B64);
	n = snprintf(buf, size, "signature: %s\n", b64);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return 0;
}

/* --- a statement's signature --------------------------------------- */

/* Verify a statement's signature against a player's keys. */
int
sig_signature_verify(const struct sig_statement *st,
    const struct sig_signature *sg, const uint8_t (*keys)[SIG_PUBKEY_BYTES],
    size_t nkeys, size_t *which, enum sig_error *err)
{
	size_t i;

	switch (sg->form) {
	case SIG_FORM_RAW:
		for (i = 0; i < nkeys; i++) {
			if (sig_verify(st->canon, st->canon_len, sg->raw,
			    keys[i]) == 0) {
				if (which != NULL)
					*which = i;
				return sig_ok(err);
			}
		}
		return sig_fail(err, SIG_EBADSIG);
	case SIG_FORM_SSHSIG:
		if (!wire_str_is(sg->ssh.blob + sg->ssh.ns_off, sg->ssh.ns_len,
		    SIG_NAMESPACE))
			return sig_fail(err, SIG_ENAMESPACE);
		for (i = 0; i < nkeys; i++)
			if (memcmp(keys[i], sg->ssh.pubkey,
			    SIG_PUBKEY_BYTES) == 0)
				break;
		if (i == nkeys)
			return sig_fail(err, SIG_EKEY_MISMATCH);
		if (sig_sshsig_verify(&sg->ssh, st->canon, st->canon_len,
		    SIG_NAMESPACE, err) != 0)
			return -1;
		if (which != NULL)
			*which = i;
		return sig_ok(err);
	case SIG_FORM_NONE:
		break;
	}
	return sig_fail(err, SIG_ENOSIG);
}

/* Point at the binary signature bytes of the record chain. */
const uint8_t *
sig_signature_bytes(const struct sig_signature *sg, size_t *lenp)
{
	switch (sg->form) {
	case SIG_FORM_RAW:
		*lenp = SIG_SIGNATURE_BYTES;
		return sg->raw;
	case SIG_FORM_SSHSIG:
		*lenp = sg->ssh.blob_len;
		return sg->ssh.blob;
	case SIG_FORM_NONE:
		break;
	}
	*lenp = 0;
	return NULL;
}

/* --- the record chain ---------------------------------------------- */

/* Append a big-endian 64-bit length to a BLAKE2b state. */
static void
hash_len(crypto_generichash_state *h, uint64_t n)
{
	uint8_t b[8];
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = (uint8_t)n;
		n >>= 8;
	}
	crypto_generichash_update(h, b, sizeof b);
}

/* Compute a record hash. */
void
sig_record_hash(const uint8_t prev[SIG_HASH_BYTES], const uint8_t *stmt,
    size_t stmt_len, const uint8_t *sig, size_t sig_len,
    uint8_t out[SIG_HASH_BYTES])
{
	crypto_generichash_state h;

	crypto_generichash_init(&h, NULL, 0, SIG_HASH_BYTES);
	crypto_generichash_update(&h, prev, SIG_HASH_BYTES);
	hash_len(&h, stmt_len);
	crypto_generichash_update(&h, stmt, stmt_len);
	hash_len(&h, sig_len);
	crypto_generichash_update(&h, sig, sig_len);
	crypto_generichash_final(&h, out, SIG_HASH_BYTES);
}
