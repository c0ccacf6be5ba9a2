/*
 * store/doors.c: doors beside the signature: players' doors, games' and events' rules.
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
 * Which doors a player opened (Xfcc with a password, replies by mail with
 * a single-use token) and which games accept actions the server attests.
 * Both live in tables of their own, one row per player or game, so that a
 * player or game without a row keeps today's rule: signed by the player.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "store/store_int.h"

static const char *const store_auths[] = { "signed", "signed-or-attested",
    NULL };

/* Load a player's doors. */
enum store_status
store_doors_get(struct store *s, int64_t player_id, struct store_doors *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	out->player_id = player_id;
	if ((st = store_stmt(s, ST_DOORS_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	status = store_step_one(s, st, "get doors", "no doors");
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	else if (status == STORE_OK) {
		out->xfcc = db_column_int(st, 1) != 0;
		out->mail_token = db_column_int(st, 2) != 0;
		if (store_col_text(st, 3, out->xfcc_hash,
		    sizeof out->xfcc_hash) != 0) {
			store_seterr(s, "player %lld: stored password hash too "
			    "long", (long long)player_id);
			status = STORE_ERROR;
		}
	}
	store_done(st);
	return status;
}

/* Store a player's doors. */
enum store_status
store_doors_set(struct store *s, const struct store_doors *d)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, d->xfcc_hash, sizeof d->xfcc_hash,
	    "password hash") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_DOORS_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, d->player_id);
	db_bind_int(st, 2, d->xfcc ? 1 : 0);
	db_bind_int(st, 3, d->mail_token ? 1 : 0);
	db_bind_text(st, 4, d->xfcc_hash);
	/* Kept beside the players by the service: a change of them. */
	s->players_written = true;
	status = store_exec_stmt(s, st, "set doors");
	if (status == STORE_NOTFOUND)
		store_seterr(s, "no such player");
	return status;
}

/* Load the auth rule of a game or an event; `dflt` when none is stored. */
static enum store_status
auth_get(struct store *s, enum stmt_id which, int64_t id,
    const char *dflt, char auth[STORE_AUTH_SIZE], const char *what)
{
	struct db_stmt		*st;
	enum store_status	 status;

	snprintf(auth, STORE_AUTH_SIZE, "%s", dflt);
	if ((st = store_stmt(s, which)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	status = store_step_one(s, st, "get the auth rule", "no auth");
	if (status == STORE_NOTFOUND)
		status = STORE_OK;
	else if (status == STORE_OK &&
	    store_col_text(st, 0, auth, STORE_AUTH_SIZE) != 0) {
		store_seterr(s, "%s %lld: stored auth too long", what,
		    (long long)id);
		status = STORE_ERROR;
	}
	store_done(st);
	return status;
}

/* Store the auth rule of a game or an event. */
static enum store_status
auth_set(struct store *s, enum stmt_id which, int64_t id,
    const char *auth, const char *what)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_oneof(s, auth, store_auths, "auth") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, which)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_text(st, 2, auth);
	status = store_exec_stmt(s, st, "set the auth rule");
	if (status == STORE_NOTFOUND)
		store_seterr(s, "no such %s", what);
	return status;
}

/* Load a game's auth rule. */
enum store_status
store_game_auth_get(struct store *s, int64_t game_id,
    char auth[STORE_AUTH_SIZE])
{
	return auth_get(s, ST_GAME_AUTH_GET, game_id, "signed", auth, "game");
}

/* Store a game's auth rule. */
enum store_status
store_game_auth_set(struct store *s, int64_t game_id, const char *auth)
{
	return auth_set(s, ST_GAME_AUTH_SET, game_id, auth, "game");
}

/* Load an event's auth rule. */
enum store_status
store_event_auth_get(struct store *s, int64_t event_id,
    char auth[STORE_AUTH_SIZE])
{
	return auth_get(s, ST_EVENT_AUTH_GET, event_id, "", auth, "event");
}

/* Store an event's auth rule. */
enum store_status
store_event_auth_set(struct store *s, int64_t event_id, const char *auth)
{
	return auth_set(s, ST_EVENT_AUTH_SET, event_id, auth, "event");
}

/* Record a token of replies by mail. */
enum store_status
store_mail_token_add(struct store *s, struct store_mail_token *t)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_MAIL_TOKEN_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_blob(st, 1, t->token_hash, STORE_HASH_LEN);
	db_bind_int64(st, 2, t->game_id);
	db_bind_int64(st, 3, t->player_id);
	db_bind_int(st, 4, t->ply);
	db_bind_int64(st, 5, t->created);
	db_bind_int64(st, 6, t->expires);
	return store_exec_insert(s, st, "record a mail token", &t->id);
}

/* Find a token of replies by mail by its hash. */
enum store_status
store_mail_token_find(struct store *s,
    const uint8_t token_hash[STORE_HASH_LEN], struct store_mail_token *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_MAIL_TOKEN_FIND)) == NULL)
		return STORE_ERROR;
	db_bind_blob(st, 1, token_hash, STORE_HASH_LEN);
	status = store_step_one(s, st, "find a mail token", "no such token");
	if (status == STORE_OK) {
		memset(out, 0, sizeof *out);
		out->id = db_column_int64(st, 0);
		memcpy(out->token_hash, token_hash, STORE_HASH_LEN);
		out->game_id = db_column_int64(st, 1);
		out->player_id = db_column_int64(st, 2);
		out->ply = db_column_int(st, 3);
		out->created = db_column_int64(st, 4);
		out->expires = db_column_int64(st, 5);
		out->used = db_column_int64(st, 6);
	}
	store_done(st);
	return status;
}

/* Mark a token of replies by mail used. */
enum store_status
store_mail_token_use(struct store *s, int64_t id, int64_t at)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_MAIL_TOKEN_USE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, at);
	return store_exec_change(s, st, "use a mail token",
	    "the token is used already");
}
