/*
 * store/players.c: players, their keys and their leaves.
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
 * A player is a name ([a-z0-9_.-]{1,32}), an address, a language and a
 * digest setting; keys are Ed25519 public keys, found by key when a
 * signature is checked, never deleted (revoked keys stay, with the time).
 */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "store/store_int.h"

static const char *const store_langs[] = { "en", "fr", NULL };
static const char *const store_digests[] = { "none", "daily", NULL };

/* Read a player from columns `c`... */
static int
store_player_read(struct store *s, struct db_stmt *st, int c,
    struct store_player *p)
{
	memset(p, 0, sizeof *p);
	p->id = db_column_int64(st, c);
	p->created = db_column_int64(st, c + 4);
	p->digest_sent = db_column_int64(st, c + 6);
	if (store_col_text(st, c + 1, p->name, sizeof p->name) != 0 ||
	    store_col_text(st, c + 2, p->email, sizeof p->email) != 0 ||
	    store_col_text(st, c + 3, p->lang, sizeof p->lang) != 0 ||
	    store_col_text(st, c + 5, p->digest, sizeof p->digest) != 0) {
		store_seterr(s, "player %lld: stored text too long",
		    (long long)p->id);
		return -1;
	}
	return 0;
}

/* Read a key from columns `c`... */
static int
store_key_read(struct store *s, struct db_stmt *st, int c, struct store_key *k)
{
	memset(k, 0, sizeof *k);
	k->id = db_column_int64(st, c);
	k->player_id = db_column_int64(st, c + 1);
	k->added = db_column_int64(st, c + 4);
	k->revoked = store_col_opt_int(st, c + 5, 0);
	if (store_col_blob(st, c + 2, k->pubkey, sizeof k->pubkey) != 0 ||
	    store_col_text(st, c + 3, k->comment, sizeof k->comment) != 0) {
		store_seterr(s, "key %lld: bad stored field", (long long)k->id);
		return -1;
	}
	return 0;
}

/* Check a player's e-mail, language and digest before writing them. */
static int
store_player_check(struct store *s, const struct store_player *p)
{
	if (store_fits(s, p->email, sizeof p->email, "email") != 0 ||
	    store_oneof(s, p->lang, store_langs, "language") != 0 ||
	    (p->digest[0] != '\0' && store_oneof(s, p->digest,
	    store_digests, "digest") != 0))
		return -1;
	return 0;
}

/* Add a player. */
enum store_status
store_player_create(struct store *s, struct store_player *p)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (!store_name_valid(p->name)) {
		store_seterr(s, "bad player name \"%.40s\"", p->name);
		return STORE_ERROR;
	}
	if (store_player_check(s, p) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_PLAYER_INSERT)) == NULL)
		return STORE_ERROR;
	s->players_written = true;
	db_bind_text(st, 1, p->name);
	db_bind_text(st, 2, p->email);
	db_bind_text(st, 3, p->lang);
	db_bind_int64(st, 4, p->created);
	status = store_exec_insert(s, st, "add player", &p->id);
	if (status == STORE_EXISTS)
		store_seterr(s, "player \"%s\" exists", p->name);
	/* A digest other than the column's default (older schemas have
	 * no column to set). */
	if (status == STORE_OK && p->digest[0] != '\0' &&
	    strcmp(p->digest, "none") != 0) {
		if ((st = store_stmt(s, ST_PLAYER_DIGEST)) == NULL)
			return STORE_ERROR;
		db_bind_int64(st, 1, p->id);
		db_bind_text(st, 2, p->digest);
		status = store_exec_stmt(s, st, "set the player's digest");
	}
	return status;
}

/* Step a statement expected to return at most one player. */
static enum store_status
store_player_one(struct store *s, struct db_stmt *st, struct store_player *out)
{
	enum store_status	status;

	status = store_step_one(s, st, "get player", "no such player");
	if (status == STORE_OK && store_player_read(s, st, 0, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}

/* Load a player by id. */
enum store_status
store_player_get(struct store *s, int64_t id, struct store_player *out)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_PLAYER_BY_ID)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	return store_player_one(s, st, out);
}

/* Load a player by name. */
enum store_status
store_player_get_by_name(struct store *s, const char *name,
    struct store_player *out)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_PLAYER_BY_NAME)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, name);
	return store_player_one(s, st, out);
}

/* Find the player with an e-mail address (the first registered). */
enum store_status
store_player_get_by_email(struct store *s, const char *email,
    struct store_player *out)
{
	struct db_stmt	*st;

	if (email == NULL || *email == '\0')
		return STORE_NOTFOUND;
	if ((st = store_stmt(s, ST_PLAYER_BY_EMAIL)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, email);
	return store_player_one(s, st, out);
}

/* List players in name order. */
enum store_status
store_player_list(struct store *s, int64_t limit, int64_t offset,
    store_player_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_player	 p;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_PLAYER_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, limit > 0 ? limit : INT64_MAX);
	db_bind_int64(st, 2, offset > 0 ? offset : 0);
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_player_read(s, st, 0, &p) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &p) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list players");
}

/* Store a player's e-mail and language. */
enum store_status
store_player_update(struct store *s, const struct store_player *p)
{
	struct db_stmt	*st;

	if (store_player_check(s, p) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_PLAYER_UPDATE)) == NULL)
		return STORE_ERROR;
	s->players_written = true;
	db_bind_int64(st, 1, p->id);
	db_bind_text(st, 2, p->email);
	db_bind_text(st, 3, p->lang);
	db_bind_text(st, 4, p->digest[0] != '\0' ? p->digest : "none");
	return store_exec_change(s, st, "update player", "no such player");
}

/* Record when a player's last digest was queued. */
enum store_status
store_player_digest_sent(struct store *s, int64_t id, int64_t when)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_PLAYER_DIGEST_SENT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, when);
	return store_exec_change(s, st, "record the digest",
	    "no such player");
}

/* Register a key. */
enum store_status
store_key_add(struct store *s, struct store_key *k)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, k->comment, sizeof k->comment, "key comment") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_KEY_INSERT)) == NULL)
		return STORE_ERROR;
	s->players_written = true;
	db_bind_int64(st, 1, k->player_id);
	db_bind_blob(st, 2, k->pubkey, sizeof k->pubkey);
	db_bind_text(st, 3, k->comment);
	db_bind_int64(st, 4, k->added);
	store_bind_opt_int(st, 5, k->revoked, 0);
	status = store_exec_insert(s, st, "add key", &k->id);
	if (status == STORE_EXISTS)
		store_seterr(s, "the player has this key already");
	else if (status == STORE_NOTFOUND)
		store_seterr(s, "no such player");
	return status;
}

/* Name another player who holds a public key. */
enum store_status
store_key_owner(struct store *s, const uint8_t pubkey[STORE_PUBKEY_LEN],
    int64_t player_id, char *name)
{
	struct db_stmt		*st;
	enum store_status	 status;
	const char		*t;

	if ((st = store_stmt(s, ST_KEY_OWNER)) == NULL)
		return STORE_ERROR;
	db_bind_blob(st, 1, pubkey, STORE_PUBKEY_LEN);
	db_bind_int64(st, 2, player_id);
	status = store_step_one(s, st, "find the key's player", "no other "
	    "player has the key");
	if (status == STORE_OK) {
		t = db_column_text(st, 0);
		snprintf(name, STORE_NAME_SIZE, "%s", t != NULL ?
		    (const char *)t : "");
	}
	store_done(st);
	return status;
}

/* Load a key by id. */
enum store_status
store_key_get(struct store *s, int64_t key_id, struct store_key *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_KEY_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, key_id);
	status = store_step_one(s, st, "load key", "no such key");
	if (status == STORE_OK && store_key_read(s, st, 0, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}

/* List the public keys registered for several players. */
enum store_status
store_key_duplicates(struct store *s, store_key_dup_cb cb, void *arg)
{
	struct db_stmt		*st;
	uint8_t			 pk[STORE_PUBKEY_LEN];
	const char		*names;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_KEY_DUPLICATES)) == NULL)
		return STORE_ERROR;
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_col_blob(st, 0, pk, sizeof pk) != 0) {
			store_seterr(s, "a stored key of the wrong length");
			status = STORE_ERROR;
			break;
		}
		names = db_column_text(st, 1);
		if (cb(arg, pk, names != NULL ? (const char *)names : "") != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list shared keys");
}

/* List a player's keys, oldest first. */
enum store_status
store_key_list(struct store *s, int64_t player_id, store_key_cb cb,
    void *arg)
{
	struct db_stmt		*st;
	struct store_key	 k;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_KEY_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_key_read(s, st, 0, &k) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &k) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list keys");
}

/* Revoke a key, keeping the first revocation time. */
enum store_status
store_key_revoke(struct store *s, int64_t key_id, int64_t at)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_KEY_REVOKE)) == NULL)
		return STORE_ERROR;
	s->players_written = true;
	db_bind_int64(st, 1, key_id);
	db_bind_int64(st, 2, at);
	status = store_exec_stmt(s, st, "revoke key");
	if (status != STORE_OK || db_changes(s->db) > 0)
		return status;

	/* Nothing changed: revoked already, or no such key. */
	if ((st = store_stmt(s, ST_KEY_EXISTS)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, key_id);
	status = store_step_one(s, st, "revoke key", "no such key");
	store_done(st);
	return status;
}

/* Find a key and its player by public key. */
enum store_status
store_key_find(struct store *s, const uint8_t pubkey[STORE_PUBKEY_LEN],
    struct store_key *key, struct store_player *player)
{
	struct db_stmt		*st;
	struct store_key	 k;
	struct store_player	 p;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_KEY_FIND)) == NULL)
		return STORE_ERROR;
	db_bind_blob(st, 1, pubkey, STORE_PUBKEY_LEN);
	status = store_step_one(s, st, "find key", "unknown key");
	if (status == STORE_OK) {
		if (store_key_read(s, st, 0, &k) != 0 ||
		    store_player_read(s, st, 6, &p) != 0)
			status = STORE_ERROR;
		else {
			if (key != NULL)
				*key = k;
			if (player != NULL)
				*player = p;
		}
	}
	store_done(st);
	return status;
}

/* Record a leave; sets l->id. */
enum store_status
store_leave_add(struct store *s, struct store_leave *l)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_LEAVE_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, l->player_id);
	db_bind_int64(st, 2, l->start);
	db_bind_int64(st, 3, l->until);
	db_bind_int64(st, 4, l->taken);
	store_bind_opt_int(st, 5, l->game_id, 0);
	store_bind_opt_text(st, 6, l->statement);
	store_bind_opt_text(st, 7, l->signature);
	return store_exec_insert(s, st, "record a leave", &l->id);
}

/* List a player's leaves that end after `since`, in order. */
enum store_status
store_leave_list(struct store *s, int64_t player_id, int64_t since,
    store_leave_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_leave	 l;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_LEAVE_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	db_bind_int64(st, 2, since);
	while ((rc = db_step(st)) == DB_ROW) {
		memset(&l, 0, sizeof l);
		l.id = db_column_int64(st, 0);
		l.player_id = db_column_int64(st, 1);
		l.start = db_column_int64(st, 2);
		l.until = db_column_int64(st, 3);
		l.taken = db_column_int64(st, 4);
		l.game_id = store_col_opt_int(st, 5, 0);
		if (cb(arg, &l) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list leaves");
}

/* Tell whether a player or a key was written through this handle since the
 * last call, and forget it. */
bool
store_players_written(struct store *s)
{
	bool	written = s->players_written;

	s->players_written = false;
	return written;
}
