/*
 * service/actions.c: signed actions: parsed, verified, then applied.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"
#include "util/french.h"

/* Most keys tried to name the signer of a raw signature by another key. */
#define SIGNER_KEYS_MAX	4096

/* The players of the server, for signer_find(). */
struct signer_players {
	int64_t		*ids;
	size_t		 n, cap;
};

/* Collect a player's id. */
static int
signer_collect(void *arg, const struct store_player *p)
{
	struct signer_players	*sp = arg;
	int64_t			*ids;

	if (sp->n == sp->cap) {
		sp->cap = sp->cap ? sp->cap * 2 : 64;
		if ((ids = realloc(sp->ids, sp->cap * sizeof *ids)) == NULL)
			return -1;
		sp->ids = ids;
	}
	sp->ids[sp->n++] = p->id;
	return 0;
}

/* The keys of one player, for signer_find(). */
struct signer_keys {
	const struct sig_statement	*st;
	const struct sig_signature	*sg;
	size_t				*tried;
	bool				 found;
	uint8_t				 pubkey[SIG_PUBKEY_BYTES];
};

/* Note the key when it made the signature. */
static int
signer_try(void *arg, const struct store_key *k)
{
	struct signer_keys	*sk = arg;
	const uint8_t		(*one)[SIG_PUBKEY_BYTES] =
				    (const uint8_t (*)[SIG_PUBKEY_BYTES])k->pubkey;

	if (sk->found || ++*sk->tried > SIGNER_KEYS_MAX)
		return 0;
	if (sig_signature_verify(sk->st, sk->sg, one, 1, NULL, NULL) == 0) {
		sk->found = true;
		memcpy(sk->pubkey, k->pubkey, SIG_PUBKEY_BYTES);
	}
	return 0;
}

/*
 * Find the registered key that made a signature none of the statement's
 * player's keys made: the key an SSH signature carries, or for a raw one
 * the server's keys tried in turn. Its fingerprint into `fp` and its
 * player's name into `name`; 0, or -1 when no registered key made it.
 */
static int
signer_find(struct store *rs, const struct sig_statement *st,
    const struct sig_signature *sg, char fp[SIG_FINGERPRINT_SIZE],
    char name[STORE_NAME_SIZE])
{
	struct signer_players	 players = { 0 };
	struct signer_keys	 sk = { st, sg, NULL, false, { 0 } };
	struct store_key	 k;
	struct store_player	 p;
	size_t			 tried = 0, i;
	int			 rc = -1;

	sk.tried = &tried;
	if (sg->form == SIG_FORM_SSHSIG) {
		if (store_key_find(rs, sg->ssh.pubkey, &k, &p) != STORE_OK)
			return -1;
		signer_try(&sk, &k);
		if (!sk.found)
			return -1;
		sig_pubkey_fingerprint(sk.pubkey, fp);
		snprintf(name, STORE_NAME_SIZE, "%s", p.name);
		return 0;
	}
	if (store_player_list(rs, 0, 0, signer_collect, &players) !=
	    STORE_OK)
		goto out;
	for (i = 0; i < players.n && !sk.found && tried <= SIGNER_KEYS_MAX;
	    i++) {
		if (store_key_list(rs, players.ids[i], signer_try, &sk) !=
		    STORE_OK)
			goto out;
		if (sk.found && store_player_get(rs, players.ids[i], &p) ==
		    STORE_OK) {
			sig_pubkey_fingerprint(sk.pubkey, fp);
			snprintf(name, STORE_NAME_SIZE, "%s", p.name);
			rc = 0;
		}
	}
 out:
	free(players.ids);
	return rc;
}

/* Verify a statement's signature against the player's keys. */
static int
verify(struct store *rs, const struct sig_statement *st,
    const struct sig_signature *sg, const struct service_player *sp,
    int64_t *key_id, struct service_error *err)
{
	char		fp[SIG_FINGERPRINT_SIZE], name[STORE_NAME_SIZE];
	uint8_t		(*keys)[SIG_PUBKEY_BYTES] = NULL;
	int64_t		*ids = NULL;
	size_t		 n = 0, i, which;
	enum sig_error	 se, valid_se = SIG_EBADSIG;
	enum chess_lang	 lang = player_lang(&sp->p);
	bool		 fr = lang == CHESS_LANG_FR;
	int		 pass, rc = -1;

	if ((keys = calloc(sp->nkeys + 1, sizeof *keys)) == NULL ||
	    (ids = calloc(sp->nkeys + 1, sizeof *ids)) == NULL) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	/* First the valid keys, then the revoked ones, to say which. */
	for (pass = 0; pass < 2; pass++) {
		n = 0;
		for (i = 0; i < sp->nkeys; i++) {
			if ((sp->keys[i].revoked != 0) != (pass == 1))
				continue;
			memcpy(keys[n], sp->keys[i].pubkey, SIG_PUBKEY_BYTES);
			ids[n++] = sp->keys[i].id;
		}
		if (sig_signature_verify(st, sg, (const uint8_t (*)[32])keys,
		    n, &which, &se) == 0) {
			if (pass == 1) {
				if (fr)
					service_fail(err, 403, "key-revoked",
					    "la déclaration est signée avec "
					    "une clé %s%s qui a été révoquée",
					    french_de(st->player), st->player);
				else
					service_fail(err, 403, "key-revoked",
					    "the statement is signed with a "
					    "key of %s that was revoked",
					    st->player);
				goto out;
			}
			*key_id = ids[which];
			rc = 0;
			goto out;
		}
		if (se == SIG_ENAMESPACE) {
			service_fail(err, 403, "wrong-namespace", "%s",
			    sig_strerror_lang(SIG_ENAMESPACE, lang));
			goto out;
		}
		if (pass == 0 && se != SIG_EKEY_MISMATCH && se != SIG_EBADSIG) {
			service_fail(err, 400, "bad-signature", fr ?
			    "la signature est illisible : %s" :
			    "the signature cannot be read: %s",
			    sig_strerror_lang(se, lang));
			goto out;
		}
		if (pass == 0)
			valid_se = se;
	}
	/* Signed with another player's key: say whose, and what to check. */
	if (signer_find(rs, st, sg, fp, name) == 0) {
		if (fr)
			service_fail(err, 403, "wrong-key", "la déclaration "
			    "nomme %s mais elle est signée avec la clé %s, qui "
			    "est celle %s%s : vérifiez la clé avec laquelle "
			    "vous signez (-k) et le joueur que vous nommez (-p)",
			    st->player, fp, french_de(name), name);
		else
			service_fail(err, 403, "wrong-key", "the statement "
			    "names %s but is signed with the key %s, which is "
			    "%s's: check the key you sign with (-k) and the "
			    "player you name (-p)", st->player, fp, name);
	}
	/* Judge by the valid keys: an SSH signature by one of them that
	 * does not verify is a bad signature, not an unknown key. */
	else if (sg->form == SIG_FORM_SSHSIG && valid_se == SIG_EKEY_MISMATCH)
		service_fail(err, 403, "unknown-key", fr ?
		    "la déclaration est signée avec une clé qui n'est pas "
		    "enregistrée pour %s" :
		    "the statement is signed with a key that is not registered "
		    "for %s", st->player);
	else if (fr)
		service_fail(err, 403, "bad-signature",
		    "la signature ne correspond ni à cette déclaration ni à "
		    "aucune clé %s%s", french_de(st->player), st->player);
	else
		service_fail(err, 403, "bad-signature",
		    "the signature does not match this statement and any key of "
		    "%s", st->player);
 out:
	free(keys);
	free(ids);
	return rc;
}

/*
 * Refuse a statement that does not parse, in `lang`: `text` is what was
 * sent, `line` the statement's line at fault (0: none).
 */
static int
statement_refusal(const char *text, size_t len, enum sig_error se,
    unsigned line, enum chess_lang lang, struct service_error *err)
{
	bool		 fr = lang == CHESS_LANG_FR;
	const char	*code, *why = sig_strerror_lang(se, lang);

	if (se == SIG_EKEY_TYPE)
		return service_fail(err, 400, "unsupported-key-type", "%s",
		    why);
	code = se == SIG_ENOSIG ? "no-signature" :
	    se >= SIG_EBASE64 && se <= SIG_ESSHSIG_HASH ?
	    "bad-signature" : "bad-statement";
	/* curl -d drops the line ends: the lines come joined. */
	if (memmem(text, len, SIG_HEADER "game:", sizeof SIG_HEADER + 4) !=
	    NULL)
		return service_fail(err, 400, "bad-statement", fr ?
		    "les lignes de la déclaration sont arrivées jointes en une "
		    "seule (« %sgame: ... ») : envoyez-la avec curl "
		    "--data-binary, pas -d, qui enlève les fins de ligne" :
		    "the statement's lines arrived joined into one "
		    "(\"%sgame: ...\"): send it with curl --data-binary, not "
		    "-d, which drops the line ends", SIG_HEADER);
	if (line != 0 && strcmp(code, "bad-statement") == 0)
		return service_fail(err, 400, code, fr ?
		    "ligne %u de la déclaration : %s" :
		    "line %u of the statement: %s", line, why);
	if (line != 0)
		return service_fail(err, 400, code, fr ?
		    "ligne %u du texte : %s" : "line %u of the text: %s", line,
		    why);
	return service_fail(err, 400, code, "%s", why);
}

/*
 * Find a line "player: NAME" in text that did not parse, for the language
 * of the refusal only: the name into `name` (size bytes), else "".
 */
static void
player_line(const char *text, size_t len, char *name, size_t size)
{
	static const char	 key[] = "\nplayer: ";
	const char		*p, *e = text + len;
	size_t			 n = 0;

	name[0] = '\0';
	if ((p = memmem(text, len, key, sizeof key - 1)) == NULL)
		return;
	for (p += sizeof key - 1; p < e && n + 1 < size && (islower(
	    (unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' ||
	    *p == '.' || *p == '-'); p++)
		name[n++] = *p;
	name[n] = '\0';
	/* Only a whole line is a name. */
	if (p < e && *p != '\n' && *p != '\r')
		name[0] = '\0';
}

/*
 * Parse a statement and check its signature against the player's keys;
 * `game_id` is the game the front door expects (0: any). On failure `err`
 * says why, in the language of the statement's player, or in `lang` (the
 * sender's, when the door knows it) before the player is known;
 * p->st.player is set when the statement parsed.
 */
int
action_prepare(struct service *svc, int64_t game_id, const char *text,
    size_t len, enum chess_lang lang, struct prepared *p,
    struct service_error *err)
{
	struct store	*rs;
	enum sig_error	 se;
	char		 who[SIG_PLAYER_MAX + 1];
	int		 rc;

	memset(&p->sp, 0, sizeof p->sp);
	p->st.player[0] = '\0';
	p->st.game = 0;
	if (sig_statement_parse(text, len, &p->st, &p->sg, &se) != 0) {
		/* The player's line parsed, or a fault before it but a
		 * player's line after it: their language (the line after
		 * the fault names nobody the answer goes to). */
		snprintf(who, sizeof who, "%s", p->st.player);
		if (who[0] == '\0')
			player_line(text, len, who, sizeof who);
		if (who[0] != '\0' && (rs = pool_get(svc, err)) != NULL) {
			if (signers_get(svc, rs, who, &p->sp, err) == 0)
				lang = player_lang(&p->sp.p);
			service_player_free(&p->sp);
			memset(&p->sp, 0, sizeof p->sp);
			pool_put(svc, rs);
		}
		memset(err, 0, sizeof *err);
		return statement_refusal(text, len, se, p->st.line, lang, err);
	}
	memcpy(p->canon, p->st.canon, p->st.canon_len);
	p->canon[p->st.canon_len] = '\0';

	if ((rs = pool_get(svc, err)) == NULL)
		return -1;
	if ((rc = signers_get(svc, rs, p->st.player, &p->sp, err)) == 0)
		lang = player_lang(&p->sp.p);
	if (game_id != 0 && (int64_t)p->st.game != game_id) {
		pool_put(svc, rs);
		return service_fail(err, 400, "wrong-game",
		    lang == CHESS_LANG_FR ? "la déclaration est pour la partie "
		    "%" PRIu64 ", pas pour la partie %" PRId64 :
		    "the statement is for game %" PRIu64 ", not game %" PRId64,
		    p->st.game, game_id);
	}
	if (rc != 0) {
		pool_put(svc, rs);
		if (err->status == 404)
			service_fail(err, 403, "unknown-player",
			    lang == CHESS_LANG_FR ? "il n'y a pas de joueur "
			    "« %s » sur ce serveur" :
			    "there is no player \"%s\" on this server",
			    p->st.player);
		return -1;
	}
	rc = verify(rs, &p->st, &p->sg, &p->sp, &p->key_id, err);
	/* Refused by the kept keys: by the stored ones too? A revoked key
	 * stays revoked, so that refusal needs no second look. */
	if (rc != 0 && err->status == 403 &&
	    strcmp(err->code, "key-revoked") != 0 &&
	    signers_refresh(svc, rs, p->st.player, &p->sp, err) == 1)
		rc = verify(rs, &p->st, &p->sg, &p->sp, &p->key_id, err);
	pool_put(svc, rs);
	return rc;
}

/* Fill a job's statement from a prepared one, which must outlive the job. */
void
action_statement(struct job_statement *s, const struct prepared *p,
    const char *source)
{
	s->st = &p->st;
	s->sg = &p->sg;
	s->canon = p->canon;
	s->sigtext = p->sg.text;
	s->player_id = p->sp.p.id;
	s->key_id = p->key_id;
	s->lang = player_lang(&p->sp.p);
	s->source = source;
}

/* Fill the job of a prepared statement, which must outlive the job. */
static void
action_job(struct job *j, const struct prepared *p, const char *source,
    const char *attested, struct service_game *out,
    struct service_error *err)
{
	memset(j, 0, sizeof *j);
	j->kind = JOB_ACTION;
	j->game_id = (int64_t)p->st.game;
	j->err = err;
	action_statement(&j->u.action.s, p, source);
	if (attested != NULL) {
		j->u.action.s.key_id = 0;
		j->u.action.s.attested = attested;
	}
	j->u.action.result = out;
}

/*
 * Take a statement's job back from the writer (`p` NULL: the caller
 * failed before it, `err` saying why): the answer into `out` (the job's
 * result; with `keep`, a copy of it into the view cache), the outcome
 * counted, the player freed (not `p` itself).
 */
static int
action_after(struct service *svc, struct job *j, struct prepared *p,
    struct service_game *out, bool keep, struct service_error *err)
{
	int	rc = -1;
	bool	accepted = false;

	if (p == NULL)
		goto out;
	if (j->rc != 0) {
		if (j->u.action.has_result)
			service_game_free(out);
		service_conditional_free(j->u.action.cond);
		goto out;
	}
	accepted = true;
	rc = 0;
	if (out != NULL && j->u.action.has_result) {
		if (keep)
			view_put(svc, out);
	} else if (out != NULL && service_game_get(svc, (int64_t)p->st.game,
	    out, err) != 0)
		rc = -1;
	if (out != NULL && rc == 0)
		out->cond = j->u.action.cond;
	else
		service_conditional_free(j->u.action.cond);
 out:
	if (accepted)
		service_count_accepted();
	else
		service_count_refused(err->code[0] != '\0' ? err->code :
		    "internal");
	if (!accepted && p != NULL)
		service_fault_lang(err, player_lang(&p->sp.p));
	if (p != NULL)
		service_player_free(&p->sp);
	return rc;
}

/*
 * Queue a prepared statement for the writer and wait for its commit;
 * `attested` names the door when the server signed it (NULL: the
 * player). Counts the outcome and frees `p` (which may be NULL when the
 * caller already failed, `err` saying why).
 */
int
action_submit(struct service *svc, struct prepared *p, const char *source,
    const char *attested, struct service_game *out, struct service_error *err)
{
	struct job	j;
	int		rc;

	memset(&j, 0, sizeof j);
	if (p != NULL) {
		action_job(&j, p, source, attested, out, err);
		j.rc = writer_submit(svc, &j);
	}
	rc = action_after(svc, &j, p, out, true, err);
	free(p);
	return rc;
}

/* Submit a signed statement without waiting for its commit (service.h). */
int
service_submit_start(struct service *svc, int64_t game_id, const char *text,
    size_t len, enum chess_lang lang, const char *source,
    void (*done)(void *), void *arg, struct service_action **out,
    struct service_error *err)
{
	struct service_action	*a;

	*out = NULL;
	memset(err, 0, sizeof *err);
	if ((a = calloc(1, sizeof *a)) == NULL)
		return service_fail(err, 500, "internal", "out of memory");
	if (action_prepare(svc, game_id, text, len, lang, &a->p, err) != 0) {
		action_after(svc, &a->j, NULL, NULL, false, err);
		service_player_free(&a->p.sp);
		free(a);
		return -1;
	}
	action_job(&a->j, &a->p, source != NULL ? source : "http", NULL,
	    &a->g, &a->err);
	a->j.done = done;
	a->j.done_arg = arg;
	*out = a;
	if (writer_queue(svc, &a->j) != 0) {
		*out = NULL;
		*err = a->err;
		action_after(svc, &a->j, &a->p, &a->g, false, err);
		free(a);
		return -1;
	}
	return 0;
}

/* Take a started statement's result and free it (service.h). */
int
service_submit_finish(struct service *svc, struct service_action *a,
    struct service_game *out, struct service_error *err)
{
	int	rc;

	memset(err, 0, sizeof *err);
	if (a->j.rc != 0)
		*err = a->err;
	rc = action_after(svc, &a->j, &a->p, &a->g, false, err);
	if (rc == 0 && out != NULL)
		*out = a->g;
	else if (rc == 0)
		service_game_keep(svc, &a->g);
	free(a);
	return rc;
}

/* Submit a signed statement, refused in English before its player. */
int
service_submit(struct service *svc, int64_t game_id, const char *text,
    size_t len, const char *source, struct service_game *out,
    struct service_error *err)
{
	return service_submit_lang(svc, game_id, text, len, CHESS_LANG_EN,
	    source, out, err);
}

/* Submit a signed statement, refused in `lang` before its player. */
int
service_submit_lang(struct service *svc, int64_t game_id, const char *text,
    size_t len, enum chess_lang lang, const char *source,
    struct service_game *out, struct service_error *err)
{
	struct prepared		*p;
	struct service_error	 local;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if ((p = calloc(1, sizeof *p)) == NULL)
		service_fail(err, 500, "internal", "out of memory");
	else if (action_prepare(svc, game_id, text, len, lang, p, err) != 0) {
		service_player_free(&p->sp);
		free(p);
		p = NULL;
	}
	return action_submit(svc, p, source != NULL ? source : "http", NULL,
	    out, err);
}

/* Give the HTTP status of a game refusal. */
static unsigned
refusal_status(enum game_refusal rc)
{
	switch (rc) {
	case GAME_EILLEGAL:
	case GAME_EAMBIGUOUS:
	case GAME_ESYNTAX:
	case GAME_EBAD_CLAIM:
		return 422;
	case GAME_ENOMEM:
		return 500;
	default:
		return 409;
	}
}

/* Name the stored kind of a statement's action. */
static const char *
action_kind_name(const struct sig_action *a)
{
	switch (a->kind) {
	case SIG_ACT_MOVE:
		return "move";
	case SIG_ACT_MOVE_OFFER_DRAW:
		return "move-offer-draw";
	case SIG_ACT_ACCEPT_DRAW:
		return "accept-draw";
	case SIG_ACT_DECLINE_DRAW:
		return "decline-draw";
	case SIG_ACT_RESIGN:
		return "resign";
	case SIG_ACT_CLAIM_DRAW:
		return "claim-draw";
	case SIG_ACT_LEAVE:
		return "leave";
	case SIG_ACT_CONDITIONAL:
		return "conditional";
	case SIG_ACT_CANCEL_CONDITIONAL:
		return "cancel-conditional";
	case SIG_ACT_SHOW_CONDITIONAL:
		return "show-conditional";
	case SIG_ACT_ABORT:
		return "abort";
	case SIG_ACT_ADJUDICATE:
		return "adjudicate";
	default:	/* a player's own actions are not a game's */
		break;
	}
	return "unknown";
}

/*
 * Check, in the transaction that applies the action, that the key that
 * signed it is still the player's and not revoked: the signature was
 * checked before the transaction, and a revocation may have committed
 * since.
 */
int
key_still_valid(struct service *svc, const struct job_statement *s,
    struct service_error *err)
{
	struct store_key	k;
	enum store_status	ss;

	ss = store_key_get(svc->wstore, s->key_id, &k);
	if (ss != STORE_OK && ss != STORE_NOTFOUND)
		return service_store_fail(err, svc->wstore, "read the key");
	if (ss == STORE_NOTFOUND)
		k.id = 0;
	return key_check(s, &k, err);
}

/* Refuse a statement whose key `k` (read in the writer's transaction; id
 * 0: there is none) is not the signer's, or was revoked. */
int
key_check(const struct job_statement *s, const struct store_key *k,
    struct service_error *err)
{
	if (k->id == 0 || k->player_id != s->player_id)
		return service_fail(err, 403, "unknown-key",
		    s->lang == CHESS_LANG_FR ? "la déclaration est signée "
		    "avec une clé qui n'est pas enregistrée pour %s" :
		    "the statement is signed with a key that is not "
		    "registered for %s", s->st->player);
	if (k->revoked != 0 && s->lang == CHESS_LANG_FR)
		return service_fail(err, 403, "key-revoked", "la déclaration "
		    "est signée avec une clé %s%s qui a été révoquée",
		    french_de(s->st->player), s->st->player);
	if (k->revoked != 0)
		return service_fail(err, 403, "key-revoked",
		    "the statement is signed with a key of %s that was "
		    "revoked", s->st->player);
	return 0;
}

/*
 * In Chess960, a king's move of two squares along its rank written in UCI
 * (e1g1) is no castling: append to `why` how castling is written there,
 * with the king taking the castling rook on that side when there is one.
 */
static void
castling_hint(const struct chess_position *pos, const char *move,
    enum chess_lang lang, char *why, size_t size)
{
	bool	french = lang == CHESS_LANG_FR;
	int	ff, fr, tf, tr, f, sq;
	size_t	n = strlen(why);
	char	rook[3] = "";

	if (!pos->chess960 || move == NULL || strlen(move) != 4)
		return;
	ff = move[0] - 'a';
	fr = move[1] - '1';
	tf = move[2] - 'a';
	tr = move[3] - '1';
	if (ff < 0 || ff > 7 || tf < 0 || tf > 7 || fr < 0 || fr > 7 ||
	    fr != tr || (ff - tf != 2 && tf - ff != 2) ||
	    pos->board[CHESS_SQ(ff, fr)] != CHESS_PIECE(pos->side, CHESS_KING))
		return;
	for (f = ff; f >= 0 && f <= 7; f += tf > ff ? 1 : -1) {
		sq = CHESS_SQ(f, fr);
		if ((pos->castling >> sq) & 1) {
			rook[0] = (char)('a' + f);
			rook[1] = (char)('1' + fr);
			break;
		}
	}
	if (rook[0] != '\0')
		snprintf(why + n, size - n, french ? " (en Chess960, le roque "
		    "s'écrit O-O ou O-O-O, ou comme le roi qui prend sa propre "
		    "tour : %.2s%s)" : " (in Chess960 castling is written "
		    "O-O or O-O-O, or as the king taking its own rook: %.2s%s)",
		    move, rook);
	else
		snprintf(why + n, size - n, french ? " (en Chess960, le roque "
		    "s'écrit O-O ou O-O-O, ou comme le roi qui prend sa propre "
		    "tour)" : " (in Chess960 castling is written "
		    "O-O or O-O-O, or as the king taking its own rook)");
}

/* Write the number and SAN of ply k ("2...Nc6", "3. Bb5"), in `lang`'s
 * letters ("2...Cc6", "3. Fb5"). */
static void
ply_text(const struct cached *c, size_t k, enum chess_lang lang, char *buf,
    size_t size)
{
	const struct chess_position	*start = &c->state.chess.start;
	struct chess_position		 pos = *start;
	size_t				 i, n;
	char				 san[CHESS_SAN_MAX];

	n = k + (start->side == CHESS_BLACK);
	snprintf(san, sizeof san, "%s", c->san[k]);
	if (lang != CHESS_LANG_EN && k < c->state.chess.nply) {
		for (i = 0; i < k; i++)
			chess_position_make(&pos, c->state.chess.moves[i]);
		chess_move_san(&pos, c->state.chess.moves[k], lang, san,
		    sizeof san);
	}
	snprintf(buf, size, "%zu%s%s", start->fullmove + n / 2,
	    n % 2 == 1 ? "..." : ". ", san);
}

/*
 * Refuse a statement for another ply than the game's, saying what the
 * signer should do: a move of theirs already accepted at that ply, or a
 * move when it is the opponent's turn, is said as such; otherwise the ply
 * to sign for.
 */
static int
stale_refusal(struct service_error *err, const struct store_game *row,
    const struct cached *c, const struct sig_statement *st, int color,
    enum chess_lang lang)
{
	bool		 fr = lang == CHESS_LANG_FR;
	size_t		 ply = game_ply(&c->state);
	int		 turn = game_turn(&c->state);
	const char	*other = turn == CHESS_WHITE ? row->white_name :
			    row->black_name;
	bool		 moving = st->action.kind == SIG_ACT_MOVE ||
			    st->action.kind == SIG_ACT_MOVE_OFFER_DRAW;
	char		 played[CHESS_SAN_MAX + 24];

	/* The mover of ply k is the start's side when k is even. */
	if (moving && st->ply < ply && (int)((c->state.chess.start.side +
	    st->ply) % 2) == color) {
		ply_text(c, st->ply, lang, played, sizeof played);
		if (color != turn)
			return service_fail(err, 409, "stale-ply", fr ?
			    "votre coup %s a déjà été accepté ; c'est à %s de "
			    "jouer" :
			    "your move %s was already accepted; it is %s's "
			    "move", played, other);
		return service_fail(err, 409, "stale-ply", fr ?
		    "votre coup %s a déjà été accepté ; c'est de nouveau à "
		    "vous de jouer : signez une déclaration pour le ply %zu" :
		    "your move %s was already accepted; it is your move "
		    "again: sign a statement for ply %zu", played, ply);
	}
	if (moving && color != turn)
		return service_fail(err, 409, "not-your-turn", fr ?
		    "ce n'est pas à vous de jouer : c'est à %s (%s, ply %zu)" :
		    "it is not your move: it is %s's move (%s, ply %zu)",
		    other, turn == CHESS_WHITE ? (fr ? "Blancs" : "White") :
		    (fr ? "Noirs" : "Black"), ply);
	return service_fail(err, 409, "stale-ply", fr ?
	    "la déclaration est pour le ply %" PRIu32 " mais la partie %"
	    PRId64 " en est au ply %zu : signez une déclaration pour le ply "
	    "%zu" :
	    "the statement is for ply %" PRIu32 " but game %" PRId64
	    " is at ply %zu: sign a statement for ply %zu", st->ply, row->id,
	    ply, ply);
}

/* Check and apply one signed action inside the writer's transaction. */
int
job_action(struct service *svc, struct job *j, struct store_game *row,
    struct cached *c, const struct action_read *ar, int64_t now)
{
	const struct job_statement	*s = j->kind == JOB_MAIL ?
					    &j->u.mail.s : &j->u.action.s;
	const struct sig_statement	*st = s->st;
	struct game_action		 ga;
	struct store_action		 a;
	enum game_refusal		 rc;
	const uint8_t			*sigbytes;
	size_t				 siglen, ply;
	char				 why[384];
	bool				 offer, answered;
	bool				 fr = s->lang == CHESS_LANG_FR;
	int				 color, rc_notify;

	if (s->attested != NULL ? attested_allowed(svc, s, row, j->err) != 0 :
	    key_check(s, &ar->key, j->err) != 0)
		return -1;
	if ((color = row_color(row, s->player_id)) == -1)
		return service_fail(j->err, 403, "not-a-player", fr ?
		    "%s ne joue pas la partie %" PRId64 " (%s c. %s)" :
		    "%s does not play in game %" PRId64 " (%s v %s)",
		    st->player, row->id, row->white_name, row->black_name);
	if (game_ongoing(&c->state) && game_check_time(&c->state, now)) {
		if (record_flag(svc, row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		if (color != game_turn(&c->state))
			goto over;
		return service_fail(j->err, 409, "late-move", fr ?
		    "votre temps est écoulé ; la partie est terminée (%s, %s)" :
		    "your time ran out; the game is over (%s, %s)",
		    game_result_name(c->state.result), fr ?
		    game_termination_text(c->state.termination, s->lang) :
		    game_termination_name(c->state.termination));
	}
	if (!game_ongoing(&c->state))
		goto over;
	ply = game_ply(&c->state);
	if (st->ply != ply)
		return stale_refusal(j->err, row, c, st, color, s->lang);
	if (st->action.kind == SIG_ACT_LEAVE)
		return job_leave(svc, s, j->err, row, now);
	if (st->action.kind == SIG_ACT_CONDITIONAL ||
	    st->action.kind == SIG_ACT_CANCEL_CONDITIONAL ||
	    st->action.kind == SIG_ACT_SHOW_CONDITIONAL)
		return job_conditional(svc, s, j->err, row, c, color, now,
		    j->kind == JOB_ACTION ? &j->u.action.cond : NULL);

	if (st->action.kind == SIG_ACT_ABORT ||
	    st->action.kind == SIG_ACT_ADJUDICATE)
		return service_fail(j->err, 403, "admin-action", fr ?
		    "%s est une action de l'administrateur du club "
		    "(corrchess admin %s), signée par le serveur, pas par un "
		    "joueur" :
		    "%s is the club admin's action (corrchess admin %s), "
		    "signed by the server, not by a player",
		    action_kind_name(&st->action),
		    action_kind_name(&st->action));
	memset(&ga, 0, sizeof ga);
	if ((ga.kind = kind_parse(action_kind_name(&st->action), &offer)) == 0)
		return service_fail(j->err, 422, "unsupported-action", fr ?
		    "l'action « %s » n'existe pas dans une partie" :
		    "the action \"%s\" is not available in a game",
		    action_kind_name(&st->action));
	ga.offer_draw = offer;
	ga.color = color;
	ga.move = st->action.move[0] != '\0' ? st->action.move : NULL;
	ga.lang = s->lang;
	ga.at = now;
	why[0] = '\0';
	rc = apply_recording_san(&c->state, &ga, &c->san, &c->sancap, why,
	    sizeof why);
	if (rc == GAME_ELATE) {
		if (record_flag(svc, row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		return service_fail(j->err, 409, "late-move", "%s", why);
	}
	if (rc == GAME_EILLEGAL)
		castling_hint(&c->state.chess.pos, ga.move, s->lang, why,
		    sizeof why);
	if (rc != GAME_OK)
		return service_fail(j->err, refusal_status(rc),
		    game_refusal_code(rc), "%s", why);

	memset(&a, 0, sizeof a);
	a.ply = (int)ply;
	a.player_id = s->player_id;
	a.key_id = s->key_id;
	snprintf(a.kind, sizeof a.kind, "%s", action_kind_name(&st->action));
	snprintf(a.move, sizeof a.move, "%s", st->action.move);
	if (game_ply(&c->state) > ply)
		snprintf(a.san, sizeof a.san, "%s", c->san[ply]);
	a.statement = (char *)s->canon;
	a.signature = (char *)s->sigtext;
	snprintf(a.source, sizeof a.source, "%s", s->source);
	snprintf(a.attested, sizeof a.attested, "%s",
	    s->attested != NULL ? s->attested : "");
	sigbytes = sig_signature_bytes(s->sg, &siglen);
	if (record_append(svc, row, c, &a, sigbytes, siglen, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "record the action");
	/* The opponent's conditional may answer at once, in this
	 * transaction: then the mover hears of the answer (one mail for
	 * the pair) and the owner of what was played. */
	if (cond_after_action(svc, row, c, color, ga.kind, ar->conditionals,
	    now, &answered) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "apply the conditional moves");
	if (answered)
		rc_notify = notify_action(svc, row, c, GAME_ACT_MOVE, false,
		    !color, now);
	else
		rc_notify = notify_action(svc, row, c, ga.kind, ga.offer_draw,
		    color, now);
	if (rc_notify != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the notices");
	/* The answer, from the writer's state: no second replay. */
	if (j->kind == JOB_ACTION && j->u.action.result != NULL) {
		struct service_game	view;

		view.row = *row;
		view.rules = c->rules;
		view.state = c->state;
		view.san = c->san;
		view.msgs = c->msgs;
		view.nmsgs = c->nmsgs;
		view.now = now;
		j->u.action.has_result = view_copy(j->u.action.result,
		    &view) == 0;
	}
	return 0;
 over:
	return service_fail(j->err, 409, "game-over", fr ?
	    "la partie %" PRId64 " est terminée (%s, %s)" :
	    "game %" PRId64 " is over (%s, %s)", row->id,
	    game_result_name(c->state.result), fr ?
	    game_termination_text(c->state.termination, s->lang) :
	    game_termination_name(c->state.termination));
}
