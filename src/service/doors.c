/*
 * service/doors.c: doors beside the signature: the server attests actions.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * A player who cannot sign (a correspondence program speaking Xfcc, a
 * reply by mail) is known by a password or a single-use token instead. The
 * action then takes the one path of signed actions: its canonical
 * statement is written here, signed with the server's key (raw Ed25519,
 * the first form of doc/signatures.md) and queued for the writer, which
 * records it marked attested, with the door's name.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "game/render.h"
#include "service/service_int.h"
#include "util/french.h"

/* Shortest and longest Xfcc password accepted. */
#define PASSWORD_MIN	8
#define PASSWORD_MAX	128

/* Tell whether an auth rule is one of the two. */
int
service_auth_valid(const char *auth)
{
	if (auth != NULL && (strcmp(auth, "signed") == 0 ||
	    strcmp(auth, "signed-or-attested") == 0))
		return 0;
	return -1;
}

/* Give the server's public key. */
int
service_server_key(struct service *svc, uint8_t pk[SIG_PUBKEY_BYTES])
{
	if (!svc->has_server_key)
		return -1;
	sig_seckey_pubkey(svc->server_sk, pk);
	return 0;
}

/* Read a player's doors with a handle of the pool. */
static int
doors_read(struct service *svc, const char *name, struct store_player *p,
    struct store_doors *d, struct service_error *err)
{
	struct store		*st;
	enum store_status	 ss;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_player_get_by_name(st, name, p);
	if (ss == STORE_NOTFOUND)
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	else if (ss != STORE_OK)
		service_store_fail(err, st, "read the player");
	else if (store_doors_get(st, p->id, d) != STORE_OK)
		service_store_fail(err, st, "read the player's doors");
	else
		rc = 0;
	pool_put(svc, st);
	return rc;
}

/* Give a player's doors: kept, or read and kept. */
int
service_doors_get(struct service *svc, const char *name,
    struct service_doors *out, struct service_error *err)
{
	struct store_player	p;
	struct store_doors	d;
	uint64_t		gen;

	memset(out, 0, sizeof *out);
	/* Kept with the players (signers.c), a new generation at every
	 * change of them. */
	if (doors_kept(svc, name, out, &gen))
		return 0;
	if (doors_read(svc, name, &p, &d, err) != 0)
		return -1;
	out->xfcc = d.xfcc;
	out->mail_token = d.mail_token;
	out->xfcc_password = d.xfcc_hash[0] != '\0';
	sodium_memzero(&d, sizeof d);
	doors_put(svc, name, out, gen);
	return 0;
}

/* Set a player's doors; the password is hashed on the caller's thread. */
int
service_doors_set(struct service *svc, const char *name, int xfcc,
    int mail_token, const char *password, struct service_error *err)
{
	char		 hash[crypto_pwhash_STRBYTES];
	struct job	 j;
	size_t		 len;
	int		 rc;

	memset(&j, 0, sizeof j);
	j.kind = JOB_DOORS_SET;
	j.err = err;
	j.u.doors_set.name = name;
	j.u.doors_set.xfcc = xfcc;
	j.u.doors_set.mail_token = mail_token;
	if (password != NULL && *password != '\0') {
		len = strlen(password);
		if (len < PASSWORD_MIN || len > PASSWORD_MAX)
			return service_fail(err, 400, "bad-password",
			    "an Xfcc password has %d to %d bytes",
			    PASSWORD_MIN, PASSWORD_MAX);
		if (crypto_pwhash_str(hash, password, len,
		    crypto_pwhash_OPSLIMIT_INTERACTIVE,
		    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
			return service_fail(err, 500, "internal",
			    "out of memory hashing the password");
		j.u.doors_set.xfcc_hash = hash;
	} else if (password != NULL)
		j.u.doors_set.xfcc_hash = "";
	rc = writer_submit(svc, &j);
	sodium_memzero(hash, sizeof hash);
	return rc;
}

/* In the writer: store a player's doors. */
int
job_doors_set(struct service *svc, struct job *j, int64_t now)
{
	struct job_doors_set	*ds = &j->u.doors_set;
	struct store_player	 p;
	struct store_doors	 d;
	enum store_status	 ss;

	(void)now;
	ss = store_player_get_by_name(svc->wstore, ds->name, &p);
	if (ss == STORE_NOTFOUND)
		return service_fail(j->err, 404, "no-such-player",
		    "there is no player \"%s\"", ds->name);
	if (ss != STORE_OK || store_doors_get(svc->wstore, p.id, &d) !=
	    STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the player's doors");
	if (ds->xfcc >= 0)
		d.xfcc = ds->xfcc != 0;
	if (ds->mail_token >= 0)
		d.mail_token = ds->mail_token != 0;
	if (ds->xfcc_hash != NULL)
		snprintf(d.xfcc_hash, sizeof d.xfcc_hash, "%s", ds->xfcc_hash);
	ss = store_doors_set(svc->wstore, &d);
	sodium_memzero(&d, sizeof d);
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "store the player's doors");
	return 0;
}

/* Find the slot of a login key, or the one to reuse (the oldest). */
static struct login_slot *
login_slot(struct service *svc, const char *key, int64_t now)
{
	struct login_slot	*s, *oldest = &svc->logins[0];
	size_t			 i;

	for (i = 0; i < SERVICE_LOGIN_SLOTS; i++) {
		s = &svc->logins[i];
		if (strcmp(s->key, key) == 0) {
			if (now - s->start >= SERVICE_LOGIN_WINDOW) {
				s->start = now;
				s->fails = 0;
			}
			return s;
		}
		if (s->start < oldest->start)
			oldest = s;
	}
	snprintf(oldest->key, sizeof oldest->key, "%s", key);
	oldest->start = now;
	oldest->fails = 0;
	return oldest;
}

/* Tell whether a login key has failed too often in its window. */
static bool
login_blocked(struct service *svc, const char *key, int64_t now)
{
	bool	blocked;

	pthread_mutex_lock(&svc->login_lock);
	blocked = login_slot(svc, key, now)->fails >= SERVICE_LOGIN_FAILS;
	pthread_mutex_unlock(&svc->login_lock);
	return blocked;
}

/* Count a failed login against a key. */
static void
login_failed(struct service *svc, const char *key, int64_t now)
{
	struct login_slot	*s;

	pthread_mutex_lock(&svc->login_lock);
	s = login_slot(svc, key, now);
	if (s->fails == 0)
		s->start = now;
	s->fails++;
	pthread_mutex_unlock(&svc->login_lock);
}

/* Check an Xfcc user name and password, rate-limited. */
int
service_xfcc_login(struct service *svc, const char *name,
    const char *password, const char *address, struct store_player *out,
    struct service_error *err)
{
	struct store_player	 p;
	struct store_doors	 d;
	struct service_error	 local;
	char			 pkey[72], akey[72];
	int64_t			 now = service_now(svc);
	bool			 good;

	memset(&d, 0, sizeof d);
	snprintf(pkey, sizeof pkey, "player %s", name != NULL ? name : "");
	snprintf(akey, sizeof akey, "address %s",
	    address != NULL ? address : "");
	if (login_blocked(svc, pkey, now) || login_blocked(svc, akey, now))
		return service_fail(err, 429, "too-many-attempts",
		    "too many failed logins for this name or address; try "
		    "again in %d minutes", SERVICE_LOGIN_WINDOW / 60);
	if (name == NULL || password == NULL ||
	    doors_read(svc, name, &p, &d, &local) != 0) {
		if (name != NULL && local.status >= 500)
			return service_fail(err, local.status, local.code,
			    "%s", local.message);
		good = false;
	} else
		good = d.xfcc && d.xfcc_hash[0] != '\0' &&
		    crypto_pwhash_str_verify(d.xfcc_hash, password,
		    strlen(password)) == 0;
	sodium_memzero(&d, sizeof d);
	if (!good) {
		login_failed(svc, pkey, now);
		login_failed(svc, akey, now);
		return service_fail(err, 401, "bad-login",
		    "unknown user name, wrong password, or the Xfcc door of "
		    "this player is shut");
	}
	if (out != NULL)
		*out = p;
	return 0;
}

/*
 * In the writer: tell whether a game takes this attested action, and
 * whether the player's door is still open (it was checked before the
 * transaction; the admin may have shut it since).
 */
int
attested_allowed(struct service *svc, const struct job_statement *s,
    const struct store_game *row, struct service_error *err)
{
	struct store_doors	d;
	char			auth[STORE_AUTH_SIZE];
	bool			open;

	if (store_game_auth_get(svc->wstore, row->id, auth) != STORE_OK ||
	    store_doors_get(svc->wstore, s->player_id, &d) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "read the game's auth and the player's doors");
	open = strcmp(s->attested, "xfcc") == 0 ? d.xfcc : d.mail_token;
	sodium_memzero(&d, sizeof d);
	if (!open)
		return service_fail(err, 403, "door-shut",
		    "%s has not opened the \"%s\" door", s->st->player,
		    s->attested);
	if (strcmp(auth, "signed-or-attested") != 0)
		return service_fail(err, 403, "signature-required",
		    "game %" PRId64 " takes only actions signed with the "
		    "player's own key", row->id);
	return 0;
}

/*
 * Write the statement of an attested action into `p`, signed with the
 * server's key, and read its player. -1 with `err` set.
 */
static int
attest_prepare(struct service *svc, int64_t game_id, const char *player,
    uint32_t ply, const char *action, const char *message,
    struct prepared *p, struct service_error *err)
{
	struct store	*rs;
	enum sig_error	 se;
	int		 rc;

	if (!svc->has_server_key)
		return service_fail(err, 500, "internal",
		    "the server has no key to attest actions with");
	if ((rs = pool_get(svc, err)) == NULL)
		return -1;
	rc = signers_get(svc, rs, player, &p->sp, err);
	pool_put(svc, rs);
	if (rc != 0)
		return rc;
	p->st.game = (uint64_t)game_id;
	p->st.ply = ply;
	snprintf(p->st.player, sizeof p->st.player, "%s", player);
	if (sig_action_parse(action, strlen(action), &p->st.action,
	    &se) != 0)
		return service_fail(err, 400, "bad-statement", "%s",
		    sig_strerror(se));
	/* The message, checked as a signed statement's is. */
	if (message != NULL && message[0] != '\0') {
		se = sig_message_check(message);
		if (se == SIG_OK && !SIG_ACT_TAKES_MESSAGE(p->st.action.kind))
			se = SIG_EMESSAGE_ACTION;
		if (se != SIG_OK)
			return service_fail(err, 400, "bad-message", "%s",
			    sig_strerror_lang(se, player_lang(&p->sp.p)));
		snprintf(p->st.message, sizeof p->st.message, "%s", message);
	}
	if (sig_statement_build(&p->st, &se) != 0)
		return service_fail(err, 400, "bad-statement", "%s",
		    sig_strerror(se));
	p->sg.form = SIG_FORM_RAW;
	if (sig_sign(p->st.canon, p->st.canon_len, svc->server_sk,
	    p->sg.raw) != 0 || sig_rawsig_format(p->sg.raw, p->sg.text,
	    sizeof p->sg.text) != 0)
		return service_fail(err, 500, "internal",
		    "cannot sign the statement");
	p->sg.text_len = strlen(p->sg.text);
	memcpy(p->canon, p->st.canon, p->st.canon_len);
	p->canon[p->st.canon_len] = '\0';
	return 0;
}

/* Write, sign and submit the statement of an attested action. */
int
service_attest(struct service *svc, const struct service_attested *in,
    struct service_game *out, struct service_error *err)
{
	struct prepared		*p = NULL;
	struct service_error	 local;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if ((p = calloc(1, sizeof *p)) == NULL)
		service_fail(err, 500, "internal", "out of memory");
	else if (attest_prepare(svc, in->game_id, in->player, in->ply,
	    in->action, in->message, p, err) != 0) {
		service_player_free(&p->sp);
		free(p);
		p = NULL;
	}
	return action_submit(svc, p, in->source, in->how, out, err);
}

/*
 * Make the job of a reply without a key: find its token (on the caller's
 * thread; the writer checks it again), check the sender, and write the
 * attested statement of the reply's action. A refusal leaves the job
 * refused, with `err` saying why (in the token's player's language, or in
 * `lang`, the sender's, for a token this server did not give); -1 only
 * for an internal failure.
 */
int
mail_token_prepare(struct service *svc, const struct service_mail_in *m,
    enum chess_lang lang, struct prepared *p, struct job *j,
    struct service_error *err)
{
	struct job_mail		*jm = &j->u.mail;
	struct store_mail_token	 t;
	struct store_player	 pl;
	struct store		*rs;
	enum store_status	 ss;
	bool			 fr;

	jm->refused = true;
	token_hash(m->token, jm->token_hash);
	if ((rs = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_mail_token_find(rs, jm->token_hash, &t);
	if (ss == STORE_OK)
		ss = store_player_get(rs, t.player_id, &pl);
	if (ss != STORE_OK && ss != STORE_NOTFOUND)
		service_store_fail(err, rs, "find the mail token");
	pool_put(svc, rs);
	if (ss == STORE_NOTFOUND) {
		service_fail(err, 403, "bad-token", lang == CHESS_LANG_FR ?
		    "le jeton de cette réponse n'a pas été donné par ce "
		    "serveur : répondez au dernier courriel de votre partie, en "
		    "gardant sa ligne « corrchess-token: »" :
		    "the token of this reply "
		    "is not one this server gave: reply to the latest mail "
		    "of your game, keeping its \"corrchess-token:\" line");
		return 0;
	}
	if (ss != STORE_OK)
		return -1;
	fr = player_lang(&pl) == CHESS_LANG_FR;
	/* From here the refusal goes to the token's player. */
	j->game_id = t.game_id;
	p->st.game = (uint64_t)t.game_id;
	snprintf(p->st.player, sizeof p->st.player, "%s", pl.name);
	jm->s.st = &p->st;
	if (strcasecmp(m->sender, pl.email) != 0) {
		if (fr)
			service_fail(err, 403, "token-wrong-sender", "cette "
			    "réponse porte le jeton %s%s pour la partie %"
			    PRId64 " mais vient %s%s, pas de l'adresse "
			    "enregistrée pour %s ; elle n'est pas jouée",
			    french_de(pl.name), pl.name, t.game_id,
			    french_de(m->sender), m->sender, pl.name);
		else
			service_fail(err, 403, "token-wrong-sender", "this "
			    "reply carries the token of %s for game %" PRId64
			    " but came from %s, not from the address registered "
			    "for %s; it is not played", pl.name, t.game_id,
			    m->sender, pl.name);
		return 0;
	}
	if (m->reply_action == NULL || *m->reply_action == '\0') {
		service_fail(err, 400, "bad-reply", fr ? "la réponse porte "
		    "un jeton mais aucun coup : écrivez votre coup seul sur la "
		    "première ligne de la réponse, au-dessus du courriel cité "
		    "(par exemple Cf3)" : "the reply carries a "
		    "token but no move: write your move alone on the first "
		    "line of the reply, above the quoted mail (for example "
		    "Nf3)");
		return 0;
	}
	if (attest_prepare(svc, t.game_id, pl.name, (uint32_t)t.ply,
	    m->reply_action, m->reply_message, p, err) != 0) {
		if (err->status >= 500)
			return -1;
		jm->s.st = &p->st;
		if (strcmp(err->code, "bad-message") == 0)
			return 0;
		service_fail(err, 400, "bad-reply", fr ? "la première ligne "
		    "de la réponse, « %.60s », n'est ni un coup ni une "
		    "action : écrivez le coup seul sur la première ligne (par "
		    "exemple Cf3, ou resign)" : "the first line of the "
		    "reply, \"%.60s\", is not a move or an action: write the "
		    "move alone on the first line (for example Nf3, or "
		    "resign)", m->reply_action);
		return 0;
	}
	action_statement(&jm->s, p, "mail");
	jm->s.key_id = 0;
	jm->s.attested = "mail-token";
	jm->has_token = true;
	jm->refused = false;
	return 0;
}

/* In the writer: check a reply's token again, in the transaction. */
int
mail_token_check(struct service *svc, struct job *j, int64_t now,
    struct store_mail_token *t)
{
	struct store_game	row;
	enum store_status	ss;
	enum chess_lang		lang = j->u.mail.s.lang;
	bool			fr = lang == CHESS_LANG_FR;
	char			when[64];

	ss = store_mail_token_find(svc->wstore, j->u.mail.token_hash, t);
	if (ss == STORE_NOTFOUND)
		return service_fail(j->err, 403, "bad-token", fr ? "le jeton "
		    "de cette réponse n'a pas été donné par ce serveur" :
		    "the token of "
		    "this reply is not one this server gave");
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the mail token");
	if (t->used != 0) {
		render_time_lang(t->used, lang, when, sizeof when);
		return service_fail(j->err, 409, "token-used", fr ? "ce jeton "
		    "a déjà servi (%s) pour votre coup au ply %d de la partie %"
		    PRId64 " ; un jeton joue un seul coup : répondez au dernier "
		    "courriel de la partie" : "this token "
		    "was used already (%s) for your move at ply %d of game %"
		    PRId64 "; a token plays one move: reply to the latest "
		    "mail of the game", when, t->ply, t->game_id);
	}
	if (now >= t->expires) {
		render_time_lang(t->expires, lang, when, sizeof when);
		return service_fail(j->err, 410, "token-expired", fr ? "ce "
		    "jeton a expiré le %s : répondez au dernier courriel de la "
		    "partie %" PRId64 ", ou signez votre coup" : "this token "
		    "expired on %s: reply to the latest mail of game %" PRId64
		    ", or sign your move", when, t->game_id);
	}
	if (row_get(svc->wstore, t->game_id, &row, j->err) != 0)
		return -1;
	if (row.ply != t->ply)
		return service_fail(j->err, 409, "token-stale", fr ? "ce jeton "
		    "était pour le ply %d de la partie %" PRId64 ", qui en est "
		    "maintenant au ply %d : répondez au dernier courriel de la "
		    "partie" : "this token "
		    "was for ply %d of game %" PRId64 ", which is now at ply "
		    "%d: reply to the latest mail of the game", t->ply,
		    t->game_id, row.ply);
	return 0;
}

/*
 * In the writer: make a token for the notice to `color`'s player of a
 * game, when that player is to move, opened the mail-token door, and the
 * game takes attested actions: the token into `buf`, its expiry into
 * *expires. 1 when made, 0 when none is due, -1 on a store failure.
 */
int
mail_token_issue(struct service *svc, struct store *st,
    const struct store_game *row, const struct game *g, int color,
    int64_t now, char *buf, size_t size, int64_t *expires)
{
	struct store_mail_token	 t;
	struct store_doors	 d;
	uint8_t			 raw[SERVICE_TOKEN_BYTES];
	char			 auth[STORE_AUTH_SIZE];
	bool			 open;

	if (!svc->has_server_key || !game_ongoing(g) ||
	    game_turn(g) != color || size < sodium_base64_ENCODED_LEN(
	    sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING))
		return 0;
	memset(&t, 0, sizeof t);
	t.player_id = color == CHESS_WHITE ? row->white : row->black;
	if (store_game_auth_get(st, row->id, auth) != STORE_OK ||
	    store_doors_get(st, t.player_id, &d) != STORE_OK)
		return -1;
	open = d.mail_token;
	sodium_memzero(&d, sizeof d);
	if (!open || strcmp(auth, "signed-or-attested") != 0)
		return 0;
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(buf, size, raw, sizeof raw,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof raw);
	token_hash(buf, t.token_hash);
	t.game_id = row->id;
	t.ply = (int)game_ply(g);
	t.created = now;
	t.expires = now + SERVICE_MAIL_TOKEN_DAYS * INT64_C(86400);
	if (store_mail_token_add(st, &t) != STORE_OK)
		return -1;
	*expires = t.expires;
	return 1;
}
