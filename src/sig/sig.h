/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * Signed actions: player keys, statements, raw Ed25519 signatures, OpenSSH
 * SSHSIG signatures and the hash chain of a game's record. libsodium only.
 *
 * Conventions (libsodium's): the caller owns every buffer; fixed sizes are
 * given by the SIG_*_BYTES / SIG_*_MAX macros; functions return 0 on success
 * and -1 on failure, and write the reason to `*err` when `err` is not NULL
 * (sig_strerror() turns it into a sentence for a person). Nothing here keeps
 * state: every function may be called from several threads at once, after
 * one call of sig_init().
 *
 * THE STATEMENT
 *
 * The signed bytes of an action are exactly its canonical statement, five
 * lines, UTF-8 (in practice ASCII), each line ending with one LF -- the last
 * line too, so the canonical bytes end with "\n":
 *
 *	corrchess-v1\n
 *	game: 42\n
 *	ply: 16\n
 *	player: alice\n
 *	action: move Nf3\n
 *
 * A file holding these five lines, as any editor writes it, is what
 * `ssh-keygen -Y sign -n corrchess -f KEY FILE` signs, so both signature
 * forms cover the same bytes.
 *
 * Field rules (checked strictly, so the text a player signs is always the
 * canonical text; nothing is rewritten before signing):
 *  - the fields come in this order, written "name: value" (one colon, one
 *    space), names in lower case;
 *  - game: a decimal from 1 to SIG_GAME_MAX, no sign, no leading zero;
 *  - ply: half-moves already played, a decimal from 0 to SIG_PLY_MAX, no
 *    leading zero;
 *  - player: 1 to SIG_PLAYER_MAX characters from [a-z0-9_.-]; lower case
 *    only (an upper-case letter is an error, never folded, because folding
 *    would change the signed bytes);
 *  - action: one of
 *	move MOVE
 *	move MOVE offer-draw
 *	accept-draw
 *	decline-draw
 *	resign
 *	claim-draw
 *	claim-draw MOVE
 *	leave YYYY-MM-DD YYYY-MM-DD	(first and last day, first <= last)
 *    words separated by one space. MOVE is one or more words of printable
 *    ASCII ("exd6 e.p." is two words), at most SIG_MOVE_MAX bytes; whether
 *    it is a legal move is for the rules core to say.
 *
 * Finding a statement in a text (HTTP body, e-mail part): CRLF and lone CR
 * line ends become LF, spaces and tabs at the end of each line are dropped,
 * then the first line "corrchess-v1" starts the statement; the four field
 * lines must follow it directly. Blank lines may separate the statement
 * from its signature; text before the statement and after the signature is
 * ignored. "> " quoting is not removed here (the mail layer does that).
 *
 * THE SIGNATURE, in one of two forms, after the statement:
 *  1. a line "signature: BASE64": a raw Ed25519 signature (64 bytes, standard
 *     base64 with padding, 88 characters) over the canonical bytes;
 *  2. an OpenSSH signature block "-----BEGIN SSH SIGNATURE-----" ...
 *     "-----END SSH SIGNATURE-----" (OpenSSH's PROTOCOL.sshsig) made with
 *     namespace "corrchess" over the canonical bytes, Ed25519 keys only,
 *     hash "sha512" or "sha256".
 *
 * THE RECORD CHAIN
 *
 * Each accepted action is kept with a record hash chaining it to the one
 * before (the previous record hash of the same game):
 *
 *	record_hash = BLAKE2b-256(prev_hash || be64(len(S)) || S
 *	                                    || be64(len(G)) || G)
 *
 * BLAKE2b with a 32-byte output, no key; be64 is an unsigned 64-bit length
 * in big-endian byte order; S is the canonical statement bytes (with the
 * final LF); G is the binary signature: the 64 raw Ed25519 bytes for the
 * first form, or the whole decoded SSHSIG blob (from "SSHSIG" to the end,
 * i.e. the base64 between the armor lines, decoded) for the second. The
 * first record's prev_hash is 32 zero bytes (SIG_HASH_BYTES); every
 * statement carries its game id, so the chain is bound to its game without
 * a game-specific genesis.
 */

#ifndef CORRCHESS_SIG_H
#define CORRCHESS_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIG_PUBKEY_BYTES	32	/* Ed25519 public key */
#define SIG_SECKEY_BYTES	64	/* libsodium secret key: seed || pk */
#define SIG_SEED_BYTES		32	/* Ed25519 seed (RFC 8032 secret key) */
#define SIG_SIGNATURE_BYTES	64	/* Ed25519 signature */
#define SIG_HASH_BYTES		32	/* record hash */

#define SIG_NAMESPACE		"corrchess"	/* SSHSIG namespace */
#define SIG_HEADER		"corrchess-v1"	/* first statement line */

#define SIG_GAME_MAX		UINT64_C(9223372036854775807)	/* INT64_MAX */
#define SIG_PLY_MAX		UINT32_C(4294967295)
#define SIG_PLAYER_MAX		32	/* bytes of a player name, no NUL */
#define SIG_MOVE_MAX		32	/* bytes of a move text, no NUL */
#define SIG_ACTION_MAX		64	/* bytes of an action value, no NUL */
#define SIG_STATEMENT_MAX	256	/* canonical statement bytes (longest: 153) */

/* Buffer sizes with the NUL. */
#define SIG_FINGERPRINT_SIZE	51	/* "SHA256:" + 43 base64 + NUL */
#define SIG_PUBKEY_LINE_SIZE	81	/* "ssh-ed25519 " + 68 base64 + NUL */
#define SIG_RAWSIG_LINE_SIZE	101	/* "signature: " + 88 + "\n" + NUL */

#define SIG_SSHSIG_MAX		512	/* bytes of a binary SSHSIG blob */
#define SIG_SSHSIG_NS_MAX	64	/* bytes of its namespace */
#define SIG_SSHSIG_ARMOR_SIZE	1024	/* armored SSHSIG text with NUL */

/* A whole signed statement, as sig_statement_sign() writes it. */
#define SIG_SIGNED_SIZE		(SIG_STATEMENT_MAX + SIG_SSHSIG_ARMOR_SIZE)

/* Largest key file sig_seckey_read() reads. */
#define SIG_KEYFILE_MAX		16384

enum sig_error {
	SIG_OK = 0,
	/* finding and reading a statement */
	SIG_ENOHEADER,		/* no "corrchess-v1" line */
	SIG_EVERSION,		/* "corrchess-vN" with N != 1 */
	SIG_ESYNTAX,		/* a line that is not "field: value" */
	SIG_EFIELD_UNKNOWN,	/* unknown field name */
	SIG_EFIELD_DUP,		/* field given twice */
	SIG_EFIELD_ORDER,	/* fields not in canonical order */
	SIG_EFIELD_MISSING,	/* statement ends before all four fields */
	SIG_EGAME,		/* game is not a decimal 1..SIG_GAME_MAX */
	SIG_EPLY,		/* ply is not a decimal 0..SIG_PLY_MAX */
	SIG_EPLAYER,		/* player name not [a-z0-9_.-]{1,32} */
	SIG_EACTION,		/* unknown action word */
	SIG_EACTION_ARGS,	/* action with missing or extra words */
	SIG_EMOVE,		/* move text empty, too long or not printable */
	SIG_EDATE,		/* leave dates malformed, impossible or reversed */
	SIG_ETOOLONG,		/* statement longer than SIG_STATEMENT_MAX */
	/* the signature */
	SIG_ENOSIG,		/* no signature after the statement */
	SIG_EBASE64,		/* invalid base64 */
	SIG_ESIGLEN,		/* raw signature not 64 bytes */
	SIG_EARMOR,		/* SSH SIGNATURE block without its END line */
	SIG_ESSHSIG,		/* SSHSIG blob malformed or truncated */
	SIG_ESSHSIG_VERSION,	/* SSHSIG version not 1 */
	SIG_ESSHSIG_HASH,	/* hash algorithm not sha512 or sha256 */
	SIG_ENAMESPACE,		/* SSHSIG namespace not "corrchess" */
	SIG_EBADSIG,		/* signature does not verify */
	SIG_EKEY_MISMATCH,	/* SSHSIG made by a key not given */
	/* keys */
	SIG_EKEY_TYPE,		/* not an Ed25519 key */
	SIG_EKEY_LEN,		/* key of the wrong length */
	SIG_EKEY_FORMAT,	/* key text or file malformed */
	SIG_EKEY_ENCRYPTED,	/* private key protected by a passphrase */
	SIG_EKEY_CORRUPT,	/* private key inconsistent (check words, pk) */
	/* everything else */
	SIG_ESPACE,		/* caller's buffer too small */
	SIG_EIO,		/* file error; errno tells which */
	SIG_EEXIST,		/* key file exists already */
	SIG_ECRYPTO,		/* libsodium failed (not initialised?) */
};

/* Return a constant sentence describing an error, for a person. */
const char *sig_strerror(enum sig_error);

/* Initialise libsodium. Call once at start-up, before any other function;
 * thread-safe and idempotent. Returns 0, or -1 if libsodium cannot start. */
int sig_init(void);

/* --- public keys --------------------------------------------------- */

/*
 * Parse a public key: one OpenSSH line "ssh-ed25519 BASE64 [comment]" or raw
 * standard base64 of the 32 key bytes. Leading and trailing white space is
 * ignored. `text` is NUL-terminated.
 */
int sig_pubkey_parse(const char *text, uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err);

/* Write "ssh-ed25519 BASE64" and, if `comment` is not NULL or empty, a space
 * and the comment, NUL-terminated, into buf (SIG_PUBKEY_LINE_SIZE plus the
 * comment's length is enough). */
int sig_pubkey_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *comment,
    char *buf, size_t size);

/* Write the key's fingerprint as `ssh-keygen -l` prints it ("SHA256:" and
 * unpadded base64 of the SHA-256 of the key blob). */
void sig_pubkey_fingerprint(const uint8_t pk[SIG_PUBKEY_BYTES],
    char buf[SIG_FINGERPRINT_SIZE]);

/* --- secret keys --------------------------------------------------- */

/* Make a new random key pair. */
int sig_keypair(uint8_t pk[SIG_PUBKEY_BYTES], uint8_t sk[SIG_SECKEY_BYTES]);

/* The public half of a secret key (its last 32 bytes). */
void sig_seckey_pubkey(const uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t pk[SIG_PUBKEY_BYTES]);

/*
 * Write `sk` as an unencrypted OpenSSH private key ("openssh-key-v1", as
 * `ssh-keygen -t ed25519 -N ''` writes it) to `path`, mode 0600, and its
 * public line to `path`.pub, mode 0644. Neither file may exist (SIG_EEXIST).
 * `comment` may be NULL.
 */
int sig_seckey_write(const char *path, const uint8_t sk[SIG_SECKEY_BYTES],
    const char *comment, enum sig_error *err);

/*
 * Read a secret key from text: an unencrypted OpenSSH Ed25519 private key
 * ("-----BEGIN OPENSSH PRIVATE KEY-----"), or standard base64 of a 64-byte
 * libsodium secret key or a 32-byte seed. Encrypted keys
 * (SIG_EKEY_ENCRYPTED) and other key types (SIG_EKEY_TYPE) are refused.
 */
int sig_seckey_parse(const char *text, size_t len,
    uint8_t sk[SIG_SECKEY_BYTES], enum sig_error *err);

/* Read a secret key file (see sig_seckey_parse()). */
int sig_seckey_read(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err);

/* --- statements ---------------------------------------------------- */

enum sig_action_kind {
	SIG_ACT_MOVE = 0,	/* move MOVE */
	SIG_ACT_MOVE_OFFER_DRAW,/* move MOVE offer-draw */
	SIG_ACT_ACCEPT_DRAW,	/* accept-draw */
	SIG_ACT_DECLINE_DRAW,	/* decline-draw */
	SIG_ACT_RESIGN,		/* resign */
	SIG_ACT_CLAIM_DRAW,	/* claim-draw [MOVE]; move[0] == '\0' if none */
	SIG_ACT_LEAVE,		/* leave FROM TO */
};

struct sig_date {
	uint16_t	year;
	uint8_t		month;		/* 1..12 */
	uint8_t		day;		/* 1..31 */
};

struct sig_action {
	enum sig_action_kind	kind;
	char			move[SIG_MOVE_MAX + 1];	/* or "" */
	struct sig_date		from;	/* leave only: first day away */
	struct sig_date		to;	/* leave only: last day away */
};

/* A statement's fields and its canonical bytes (a plain value). */
struct sig_statement {
	uint64_t		game;
	uint32_t		ply;
	char			player[SIG_PLAYER_MAX + 1];
	struct sig_action	action;
	uint8_t			canon[SIG_STATEMENT_MAX];
	size_t			canon_len;
	unsigned int		line;	/* on a parse error: line number, or 0 */
};

enum sig_form {
	SIG_FORM_NONE = 0,
	SIG_FORM_RAW,		/* "signature: BASE64" */
	SIG_FORM_SSHSIG,	/* -----BEGIN SSH SIGNATURE----- */
};

enum sig_sshsig_hash {
	SIG_SSHSIG_SHA512 = 0,
	SIG_SSHSIG_SHA256,
};

/* A parsed SSHSIG blob. ns and reserved point into blob. */
struct sig_sshsig {
	uint8_t			blob[SIG_SSHSIG_MAX];	/* the whole blob */
	size_t			blob_len;
	uint8_t			pubkey[SIG_PUBKEY_BYTES]; /* signer's key */
	size_t			ns_off, ns_len;		/* namespace */
	size_t			reserved_off, reserved_len;
	enum sig_sshsig_hash	hash;
	uint8_t			sig[SIG_SIGNATURE_BYTES]; /* Ed25519 */
};

/* A signature found after a statement. */
struct sig_signature {
	enum sig_form		form;
	uint8_t			raw[SIG_SIGNATURE_BYTES]; /* SIG_FORM_RAW */
	struct sig_sshsig	ssh;			/* SIG_FORM_SSHSIG */
};

/*
 * Find the first statement in `text` (`len` bytes, NUL not needed), check
 * its fields and fill `st` (fields and canonical bytes). If `sg` is not
 * NULL, the signature after the statement is required and parsed into `sg`
 * (not verified: see sig_signature_verify()). On error, st->line is the
 * line of `text` at fault (from 1), or 0.
 */
int sig_statement_parse(const char *text, size_t len,
    struct sig_statement *st, struct sig_signature *sg, enum sig_error *err);

/*
 * Parse an action value ("move Nf3", "leave 2026-07-01 2026-07-14", ...)
 * into `a` (no leading or trailing space accepted).
 */
int sig_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err);

/*
 * Build a statement from st->game, st->ply, st->player and st->action:
 * check every field as the parser does and write st->canon and
 * st->canon_len.
 */
int sig_statement_build(struct sig_statement *st, enum sig_error *err);

/*
 * Sign st's canonical bytes with `sk` and write the statement followed by
 * the signature, in `form`, NUL-terminated, into buf (SIG_SIGNED_SIZE is
 * enough). SIG_FORM_SSHSIG uses namespace "corrchess" and sha512, as
 * `ssh-keygen -Y sign -n corrchess` does.
 */
int sig_statement_sign(const struct sig_statement *st,
    const uint8_t sk[SIG_SECKEY_BYTES], enum sig_form form, char *buf,
    size_t size, enum sig_error *err);

/*
 * Verify `sg` over st's canonical bytes against a player's keys; on success
 * write the index of the key that signed to *which (if not NULL). A raw
 * signature is tried against each key. An SSHSIG must have namespace
 * "corrchess" (SIG_ENAMESPACE), and its embedded key must be one of `keys`
 * (SIG_EKEY_MISMATCH) before its signature is checked (SIG_EBADSIG).
 */
int sig_signature_verify(const struct sig_statement *st,
    const struct sig_signature *sg, const uint8_t (*keys)[SIG_PUBKEY_BYTES],
    size_t nkeys, size_t *which, enum sig_error *err)
    __attribute__((warn_unused_result));

/* The binary signature bytes that enter the record chain (see above):
 * a pointer into `sg` (valid as long as it is) and its length. */
const uint8_t *sig_signature_bytes(const struct sig_signature *sg,
    size_t *lenp);

/* --- raw Ed25519 --------------------------------------------------- */

/* Sign `len` bytes of `msg` (detached signature). */
int sig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], uint8_t sig[SIG_SIGNATURE_BYTES]);

/* Verify a detached signature: 0 if valid, -1 if not. */
int sig_verify(const uint8_t *msg, size_t len,
    const uint8_t sig[SIG_SIGNATURE_BYTES], const uint8_t pk[SIG_PUBKEY_BYTES])
    __attribute__((warn_unused_result));

/* Write "signature: BASE64\n" for a raw signature, NUL-terminated. */
int sig_rawsig_format(const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf,
    size_t size);

/* --- OpenSSH SSHSIG ------------------------------------------------ */

/* Parse a binary SSHSIG blob (Ed25519 only). Every length is checked. */
int sig_sshsig_parse(const uint8_t *blob, size_t len, struct sig_sshsig *ss,
    enum sig_error *err);

/*
 * Parse an armored SSHSIG: `text` starts with the BEGIN line (white space
 * before it is skipped); lines up to the END line are base64. *usedp (if not
 * NULL) is the number of bytes of text read, through the END line.
 */
int sig_sshsig_parse_armor(const char *text, size_t len,
    struct sig_sshsig *ss, size_t *usedp, enum sig_error *err);

/*
 * Verify an SSHSIG over `msg`: its namespace must be `ns` (SIG_ENAMESPACE),
 * and the Ed25519 signature of its embedded key (ss->pubkey; the caller
 * checks that the key belongs to the player) must cover
 * "SSHSIG" || string(ns) || string(reserved) || string(hash) ||
 * string(H(msg)).
 */
int sig_sshsig_verify(const struct sig_sshsig *ss, const uint8_t *msg,
    size_t len, const char *ns, enum sig_error *err)
    __attribute__((warn_unused_result));

/* Sign `msg` as `ssh-keygen -Y sign -n NS` does (sha512) and write the
 * armored signature, NUL-terminated, into buf (SIG_SSHSIG_ARMOR_SIZE is
 * enough for a namespace of up to SIG_SSHSIG_NS_MAX bytes). */
int sig_sshsig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], const char *ns, char *buf, size_t size,
    enum sig_error *err);

/* --- the record chain ---------------------------------------------- */

/* Write the record hash of a statement and its signature bytes after the
 * record `prev` (32 zero bytes for a game's first record). */
void sig_record_hash(const uint8_t prev[SIG_HASH_BYTES], const uint8_t *stmt,
    size_t stmt_len, const uint8_t *sig, size_t sig_len,
    uint8_t out[SIG_HASH_BYTES]);

#endif /* CORRCHESS_SIG_H */
