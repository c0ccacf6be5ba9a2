/*
 * service/players.c: players and their keys.
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
#include <unistd.h>

#include "letters/address.h"
#include "service/service_int.h"
#include "sig/wire.h"

/* Pick a player's language, of their mail and of their moves. */
enum chess_lang
player_lang(const struct store_player *p)
{
	return strcmp(p->lang, "fr") == 0 ? CHESS_LANG_FR : CHESS_LANG_EN;
}

/* Collect keys into a service_player. */
static int
collect_key(void *arg, const struct store_key *k)
{
	struct service_player	*sp = arg;
	struct store_key	*p;

	if ((p = realloc(sp->keys, (sp->nkeys + 1) * sizeof *p)) == NULL)
		return -1;
	sp->keys = p;
	sp->keys[sp->nkeys++] = *k;
	return 0;
}

/* Find a player by name with handle `st`: 404 when there is none. */
static int
player_find(struct store *st, const char *name, struct store_player *p,
    struct service_error *err)
{
	enum store_status	ss;

	ss = store_player_get_by_name(st, name, p);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	if (ss != STORE_OK)
		return service_store_fail(err, st, "read the player");
	return 0;
}

/* Read a player and their keys with handle `st`. */
int
player_read(struct store *st, const char *name, struct service_player *out,
    struct service_error *err)
{
	memset(out, 0, sizeof *out);
	if (player_find(st, name, &out->p, err) != 0)
		return -1;
	if (store_key_list(st, out->p.id, collect_key, out) != STORE_OK) {
		service_player_free(out);
		return service_store_fail(err, st, "read the player's keys");
	}
	return 0;
}

/* Release a player's keys. */
void
service_player_free(struct service_player *sp)
{
	if (sp == NULL)
		return;
	free(sp->keys);
	sp->keys = NULL;
	sp->nkeys = 0;
}

/* Check a language code. */
int
player_lang_check(const char *lang, struct service_error *err)
{
	if (strcmp(lang, "en") == 0 || strcmp(lang, "fr") == 0)
		return 0;
	return service_fail(err, 400, "bad-language",
	    "language must be \"en\" or \"fr\"");
}

/* Check an e-mail address ("" for none): one bare addr-spec, which is
 * also the SMTP envelope of the player's mail. */
int
player_email_check(const char *email, struct service_error *err)
{
	char	why[128];

	if (email[0] == '\0')
		return 0;
	if (strlen(email) >= STORE_EMAIL_SIZE)
		return service_fail(err, 400, "bad-email",
		    "\"%.60s...\" is too long for an e-mail address", email);
	if (mail_address_check(email, why, sizeof why) != 0)
		return service_fail(err, 400, "bad-email",
		    "\"%.60s\" is not one e-mail address: %s", email, why);
	return 0;
}

/* Copy an address in lower case: addresses are compared with mail
 * senders. */
void
player_email_copy(char dst[STORE_EMAIL_SIZE], const char *email)
{
	size_t	i;

	snprintf(dst, STORE_EMAIL_SIZE, "%s", email);
	for (i = 0; dst[i] != '\0'; i++)
		dst[i] = (char)tolower((unsigned char)dst[i]);
}

/*
 * Refuse a key that cannot be read, in `lang`, saying what was given when
 * it is recognisably not a public key: a private key (an OpenSSH private
 * key file, or 64 bytes of base64) or a fingerprint.
 */
static int
key_refusal(const char *text, enum sig_error se, enum chess_lang lang,
    struct service_error *err)
{
	bool		 fr = lang == CHESS_LANG_FR;
	uint8_t		 raw[96];
	size_t		 n = strspn(text, " \t\r\n"), len;
	const char	*s = text + n;

	len = strcspn(s, " \t\r\n");
	if (strstr(text, "PRIVATE KEY-----") != NULL ||
	    (len > 64 && s[len] == '\0' && wire_b64_decode(s, len, raw,
	    sizeof raw, &n) == 0 && n == 64))
		return service_fail(err, 400, "bad-key", "%s", fr ?
		    "c'est une clé privée : donnez le fichier .pub (sa ligne "
		    "« ssh-ed25519 AAAA... commentaire »), et gardez la clé "
		    "privée pour vous" :
		    "this is a private key: give the .pub file (its one line "
		    "\"ssh-ed25519 AAAA... comment\"), and keep the private "
		    "key to yourself");
	if (strncmp(s, "SHA256:", 7) == 0 || strncmp(s, "MD5:", 4) == 0)
		return service_fail(err, 400, "bad-key", "%s", fr ?
		    "c'est l'empreinte d'une clé, pas la clé : donnez le "
		    "fichier .pub (sa ligne « ssh-ed25519 AAAA... "
		    "commentaire »)" :
		    "this is a key's fingerprint, not the key: give the .pub "
		    "file (its one line \"ssh-ed25519 AAAA... comment\")");
	if (se == SIG_EKEY_LEN || se == SIG_EKEY_FORMAT)
		return service_fail(err, 400, "bad-key", fr ?
		    "impossible de lire la clé publique « %.60s » : donnez la "
		    "ligne du fichier .pub « ssh-ed25519 AAAA... "
		    "commentaire », ou une clé publique Ed25519 de 32 octets "
		    "en base64 (44 caractères)" :
		    "cannot read the public key \"%.60s\": give the .pub "
		    "file's one line \"ssh-ed25519 AAAA... comment\", or an "
		    "Ed25519 public key of 32 bytes in base64 (44 "
		    "characters)", text);
	return service_fail(err, 400, "bad-key", fr ?
	    "impossible de lire la clé « %.60s » : %s (donnez une ligne "
	    "OpenSSH « ssh-ed25519 AAAA... commentaire » ou 32 octets en "
	    "base64)" :
	    "cannot read the key \"%.60s\": %s (give an OpenSSH line "
	    "\"ssh-ed25519 AAAA... comment\" or 32 bytes in base64)", text,
	    sig_strerror_lang(se, lang));
}

/* Add one key to player `id`, inside the caller's transaction; a
 * refusal in `lang`. */
int
key_insert(struct store *st, int64_t player_id, const char *text,
    int64_t now, enum chess_lang lang, struct store_key *out,
    struct service_error *err)
{
	bool			fr = lang == CHESS_LANG_FR;
	struct store_key	k;
	enum sig_error		se;
	enum store_status	ss;
	const char		*comment;
	char			 owner[STORE_NAME_SIZE];

	memset(&k, 0, sizeof k);
	if (sig_pubkey_parse(text, k.pubkey, &se) != 0)
		return key_refusal(text, se, lang, err);
	/* The comment of an OpenSSH line: the text after the second word. */
	comment = "";
	if (strncmp(text, "ssh-ed25519 ", 12) == 0 &&
	    (comment = strchr(text + 12, ' ')) != NULL)
		comment++;
	else
		comment = "";
	snprintf(k.comment, sizeof k.comment, "%s", comment);
	k.player_id = player_id;
	k.added = now;
	/* A key is one player's: with it another could sign as them. */
	ss = store_key_owner(st, k.pubkey, player_id, owner);
	if (ss == STORE_OK)
		return service_fail(err, 409, "key-in-use", fr ?
		    "cette clé est enregistrée pour un autre joueur (%s) : "
		    "une clé est à un seul joueur ; faites une nouvelle clé "
		    "avec corrchess keygen ou ssh-keygen -t ed25519" :
		    "this key is registered for another player (%s): a key "
		    "belongs to one player; make a new key with "
		    "corrchess keygen or ssh-keygen -t ed25519", owner);
	if (ss != STORE_NOTFOUND)
		return service_store_fail(err, st, "check the key's player");
	ss = store_key_add(st, &k);
	if (ss == STORE_EXISTS)
		return service_fail(err, 409, "key-exists", "%s", fr ?
		    "cette clé est déjà enregistrée" :
		    "this key is registered already");
	if (ss != STORE_OK)
		return service_store_fail(err, st, "add the key");
	if (out != NULL)
		*out = k;
	return 0;
}

/*
 * Queue job `j`, which writes player `name`, and once it committed read
 * the player into `out` (when not NULL).
 */
static int
player_write(struct service *svc, struct job *j, const char *name,
    struct service_player *out, struct service_error *err)
{
	if (writer_submit(svc, j) != 0)
		return -1;
	return out != NULL ? service_player_get(svc, name, out, err) : 0;
}

/* Create a player with their keys. */
int
service_player_create(struct service *svc, const char *name,
    const char *email, const char *lang, const char *const *keys,
    size_t nkeys, struct service_player *out, struct service_error *err)
{
	struct store_player	 p;
	struct job		 j = { .kind = JOB_PLAYER_CREATE, .err = err,
				       .u.player_create = { .p = &p,
				       .keys = keys, .nkeys = nkeys } };

	if (name == NULL || !store_name_valid(name))
		return service_fail(err, 400, "bad-player-name",
		    "a player name is 1 to 32 characters from a-z 0-9 _ . -");
	if (lang == NULL)
		lang = "en";
	if (email == NULL)
		email = "";
	if (player_lang_check(lang, err) != 0 ||
	    player_email_check(email, err) != 0)
		return -1;
	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "%s", name);
	player_email_copy(p.email, email);
	snprintf(p.lang, sizeof p.lang, "%s", lang);
	p.created = service_now(svc);
	return player_write(svc, &j, name, out, err);
}

/* In the writer: add a player and their keys, stamped with its creation. */
int
job_player_create(struct service *svc, struct job *j, int64_t now)
{
	struct job_player_create	*pc = &j->u.player_create;
	enum store_status		 ss;
	size_t				 i;

	(void)now;
	ss = store_player_create(svc->wstore, pc->p);
	if (ss == STORE_EXISTS)
		return service_fail(j->err, 409, "player-exists",
		    "there is a player \"%s\" already", pc->p->name);
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "create the player");
	for (i = 0; i < pc->nkeys; i++)
		if (key_insert(svc->wstore, pc->p->id, pc->keys[i],
		    pc->p->created, CHESS_LANG_EN, NULL, j->err) != 0)
			return -1;
	return 0;
}

/* Read a player. */
int
service_player_get(struct service *svc, const char *name,
    struct service_player *out, struct service_error *err)
{
	struct store	*st;
	int		 rc;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = player_read(st, name, out, err);
	pool_put(svc, st);
	return rc;
}

/* List players. */
int
service_player_list(struct service *svc, store_player_cb cb, void *arg,
    struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_player_list(st, 0, 0, cb, arg) != STORE_OK)
		rc = service_store_fail(err, st, "list the players");
	pool_put(svc, st);
	return rc;
}

/* Register one more key for a player. */
int
service_key_add(struct service *svc, const char *name, const char *key,
    struct store_key *out, struct service_error *err)
{
	struct job	j = { .kind = JOB_KEY_ADD, .err = err,
			      .u.key_add = { .name = name, .key = key,
			      .out = out } };

	return writer_submit(svc, &j);
}

/* In the writer: add a key to a player. */
int
job_key_add(struct service *svc, struct job *j, int64_t now)
{
	struct job_key_add	*ka = &j->u.key_add;
	struct store_player	 p;

	if (player_find(svc->wstore, ka->name, &p, j->err) != 0)
		return -1;
	return key_insert(svc->wstore, p.id, ka->key, now, CHESS_LANG_EN,
	    ka->out, j->err);
}

/* Revoke a player's key: statements it signs are refused from now on. */
int
service_key_revoke(struct service *svc, const char *name, int64_t key_id,
    struct service_error *err)
{
	struct job	j = { .kind = JOB_KEY_REVOKE, .err = err,
			      .u.key_revoke = { .name = name,
			      .key_id = key_id } };

	return writer_submit(svc, &j);
}

/* In the writer: revoke a key of a player. */
int
job_key_revoke(struct service *svc, struct job *j, int64_t now)
{
	struct job_key_revoke	*kr = &j->u.key_revoke;
	struct service_player	 sp;
	size_t			 i;
	int			 rc = -1;

	if (player_read(svc->wstore, kr->name, &sp, j->err) != 0)
		return -1;
	for (i = 0; i < sp.nkeys; i++)
		if (sp.keys[i].id == kr->key_id)
			break;
	if (i == sp.nkeys)
		service_fail(j->err, 404, "no-such-key",
		    "player \"%s\" has no key %" PRId64, kr->name, kr->key_id);
	else if (key_revoke_apply(svc, kr->key_id, NULL, now, j->err) == 0)
		rc = 0;
	service_player_free(&sp);
	return rc;
}

/* Change a player's address, language or digest (NULL: unchanged). */
int
service_player_set(struct service *svc, const char *name, const char *email,
    const char *lang, const char *digest, struct service_player *out,
    struct service_error *err)
{
	struct job	j = { .kind = JOB_PLAYER_SET, .err = err,
			      .u.player_set = { .name = name, .email = email,
			      .lang = lang, .digest = digest } };

	if (lang != NULL && player_lang_check(lang, err) != 0)
		return -1;
	if (digest != NULL && strcmp(digest, "none") != 0 &&
	    strcmp(digest, "daily") != 0)
		return service_fail(err, 400, "bad-digest",
		    "digest must be \"none\" or \"daily\"");
	if (email != NULL && player_email_check(email, err) != 0)
		return -1;
	return player_write(svc, &j, name, out, err);
}

/* In the writer: change a player's fields. */
int
job_player_set(struct service *svc, struct job *j, int64_t now)
{
	struct job_player_set	*ps = &j->u.player_set;
	struct store_player	 p;

	(void)now;
	if (player_find(svc->wstore, ps->name, &p, j->err) != 0)
		return -1;
	if (ps->email != NULL)
		player_email_copy(p.email, ps->email);
	if (ps->lang != NULL)
		snprintf(p.lang, sizeof p.lang, "%s", ps->lang);
	if (ps->digest != NULL)
		snprintf(p.digest, sizeof p.digest, "%s", ps->digest);
	if (store_player_update(svc->wstore, &p) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "update the player");
	return 0;
}

/* What shared_key_one() passes on. */
struct shared_keys {
	service_shared_key_cb	 cb;
	void			*arg;
};

/* Hand one shared key to the caller, by its fingerprint. */
static int
shared_key_one(void *arg, const uint8_t pubkey[STORE_PUBKEY_LEN],
    const char *players)
{
	struct shared_keys	*sk = arg;
	char			 fp[SIG_FINGERPRINT_SIZE];

	sig_pubkey_fingerprint(pubkey, fp);
	sk->cb(sk->arg, fp, players);
	return 0;
}

/* List the public keys registered for several players. */
int
service_shared_keys(struct service *svc, service_shared_key_cb cb, void *arg,
    struct service_error *err)
{
	struct shared_keys	 sk = { cb, arg };
	struct store		*rs;
	enum store_status	 ss;

	if ((rs = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_key_duplicates(rs, shared_key_one, &sk);
	if (ss != STORE_OK)
		service_store_fail(err, rs, "list the keys of several players");
	pool_put(svc, rs);
	return ss == STORE_OK ? 0 : -1;
}

/* List them from a database file, without migrating it. */
int
service_shared_keys_file(const char *path, service_shared_key_cb cb,
    void *arg, char *err, size_t errsize)
{
	/* Version 1 has the keys: an older file is read, never upgraded. */
	struct store_options	 opts = { .sync = STORE_SYNC_FULL,
	    .schema_version = 1 };
	struct shared_keys	 sk = { cb, arg };
	struct store		*st;
	enum store_status	 ss;

	if (access(path, F_OK) != 0)
		return 0;
	if ((st = store_open_with(path, &opts, err, errsize)) == NULL)
		return -1;
	ss = store_key_duplicates(st, shared_key_one, &sk);
	if (ss != STORE_OK)
		snprintf(err, errsize, "%s: %s", path, store_errmsg(st));
	store_close(st);
	return ss == STORE_OK ? 0 : -1;
}
