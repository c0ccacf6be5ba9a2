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

#include "service/service_int.h"

/* The language of a player's mail. */
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

/* Read a player and their keys with handle `st`. */
int
player_read(struct store *st, const char *name, struct service_player *out,
    struct service_error *err)
{
	enum store_status	ss;

	memset(out, 0, sizeof *out);
	ss = store_player_get_by_name(st, name, &out->p);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	if (ss != STORE_OK)
		return service_store_fail(err, st, "read the player");
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
static bool
lang_valid(const char *lang)
{
	return strcmp(lang, "en") == 0 || strcmp(lang, "fr") == 0;
}

/* Add one key to player `id`, inside the caller's transaction. */
static int
key_insert(struct store *st, int64_t player_id, const char *text,
    int64_t now, struct store_key *out, struct service_error *err)
{
	struct store_key	k;
	enum sig_error		se;
	enum store_status	ss;
	const char		*comment;

	memset(&k, 0, sizeof k);
	if (sig_pubkey_parse(text, k.pubkey, &se) != 0)
		return service_fail(err, 400, "bad-key",
		    "cannot read the key \"%.60s\": %s (give an OpenSSH line "
		    "\"ssh-ed25519 AAAA... comment\" or 32 bytes in base64)",
		    text, sig_strerror(se));
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
	ss = store_key_add(st, &k);
	if (ss == STORE_EXISTS)
		return service_fail(err, 409, "key-exists",
		    "this key is registered already");
	if (ss != STORE_OK)
		return service_store_fail(err, st, "add the key");
	if (out != NULL)
		*out = k;
	return 0;
}

/* Create a player with their keys. */
int
service_player_create(struct service *svc, const char *name,
    const char *email, const char *lang, const char *const *keys,
    size_t nkeys, struct service_player *out, struct service_error *err)
{
	struct store		*st = NULL;
	struct store_player	 p;
	enum store_status	 ss;
	int64_t			 now = service_now(svc);
	size_t			 i;
	int			 rc = -1;

	if (name == NULL || !store_name_valid(name))
		return service_fail(err, 400, "bad-player-name",
		    "a player name is 1 to 32 characters from a-z 0-9 _ . -");
	if (lang == NULL)
		lang = "en";
	if (!lang_valid(lang))
		return service_fail(err, 400, "bad-language",
		    "language must be \"en\" or \"fr\"");
	if (email == NULL)
		email = "";
	if (strlen(email) >= sizeof p.email || strchr(email, '\n') != NULL ||
	    (email[0] != '\0' && strchr(email, '@') == NULL))
		return service_fail(err, 400, "bad-email",
		    "\"%.60s\" is not an e-mail address", email);
	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "%s", name);
	snprintf(p.email, sizeof p.email, "%s", email);
	/* Addresses are compared with mail senders: keep them lower case. */
	for (i = 0; p.email[i] != '\0'; i++)
		p.email[i] = (char)tolower((unsigned char)p.email[i]);
	snprintf(p.lang, sizeof p.lang, "%s", lang);
	p.created = now;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_begin(st) != STORE_OK) {
		service_store_fail(err, st, "start a transaction");
		goto out;
	}
	ss = store_player_create(st, &p);
	if (ss == STORE_EXISTS) {
		service_fail(err, 409, "player-exists",
		    "there is a player \"%s\" already", name);
		goto rollback;
	}
	if (ss != STORE_OK) {
		service_store_fail(err, st, "create the player");
		goto rollback;
	}
	for (i = 0; i < nkeys; i++)
		if (key_insert(st, p.id, keys[i], now, NULL, err) != 0)
			goto rollback;
	if (store_commit(st) != STORE_OK) {
		service_store_fail(err, st, "commit the player");
		goto rollback;
	}
	rc = out != NULL ? player_read(st, name, out, err) : 0;
	goto out;
 rollback:
	store_rollback(st);
 out:
	pool_put(svc, st);
	return rc;
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
	struct store		*st;
	struct store_player	 p;
	enum store_status	 ss;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_player_get_by_name(st, name, &p);
	if (ss == STORE_NOTFOUND)
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	else if (ss != STORE_OK)
		service_store_fail(err, st, "read the player");
	else
		rc = key_insert(st, p.id, key, service_now(svc), out, err);
	pool_put(svc, st);
	return rc;
}

/* Revoke a player's key: statements it signs are refused from now on. */
int
service_key_revoke(struct service *svc, const char *name, int64_t key_id,
    struct service_error *err)
{
	struct store		*st;
	struct service_player	 sp;
	size_t			 i;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (player_read(st, name, &sp, err) != 0)
		goto out;
	for (i = 0; i < sp.nkeys; i++)
		if (sp.keys[i].id == key_id)
			break;
	if (i == sp.nkeys)
		service_fail(err, 404, "no-such-key",
		    "player \"%s\" has no key %" PRId64, name, key_id);
	else if (store_key_revoke(st, key_id, service_now(svc)) != STORE_OK)
		service_store_fail(err, st, "revoke the key");
	else
		rc = 0;
	service_player_free(&sp);
 out:
	pool_put(svc, st);
	return rc;
}

/* Change a player's address, language or digest (NULL: unchanged). */
int
service_player_set(struct service *svc, const char *name, const char *email,
    const char *lang, const char *digest, struct service_player *out,
    struct service_error *err)
{
	struct store		*st;
	struct store_player	 p;
	enum store_status	 ss;
	size_t			 i;
	int			 rc = -1;

	if (lang != NULL && !lang_valid(lang))
		return service_fail(err, 400, "bad-language",
		    "language must be \"en\" or \"fr\"");
	if (digest != NULL && strcmp(digest, "none") != 0 &&
	    strcmp(digest, "daily") != 0)
		return service_fail(err, 400, "bad-digest",
		    "digest must be \"none\" or \"daily\"");
	if (email != NULL && (strlen(email) >= sizeof p.email ||
	    strchr(email, '\n') != NULL || (email[0] != '\0' &&
	    strchr(email, '@') == NULL)))
		return service_fail(err, 400, "bad-email",
		    "\"%.60s\" is not an e-mail address", email);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_begin(st) != STORE_OK) {
		service_store_fail(err, st, "start a transaction");
		goto out;
	}
	ss = store_player_get_by_name(st, name, &p);
	if (ss == STORE_NOTFOUND) {
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
		goto rollback;
	}
	if (ss != STORE_OK) {
		service_store_fail(err, st, "read the player");
		goto rollback;
	}
	if (email != NULL) {
		snprintf(p.email, sizeof p.email, "%s", email);
		for (i = 0; p.email[i] != '\0'; i++)
			p.email[i] = (char)tolower((unsigned char)p.email[i]);
	}
	if (lang != NULL)
		snprintf(p.lang, sizeof p.lang, "%s", lang);
	if (digest != NULL)
		snprintf(p.digest, sizeof p.digest, "%s", digest);
	if (store_player_update(st, &p) != STORE_OK) {
		service_store_fail(err, st, "update the player");
		goto rollback;
	}
	if (store_commit(st) != STORE_OK) {
		service_store_fail(err, st, "commit the player");
		goto rollback;
	}
	rc = out != NULL ? player_read(st, name, out, err) : 0;
	goto out;
 rollback:
	store_rollback(st);
 out:
	pool_put(svc, st);
	return rc;
}
