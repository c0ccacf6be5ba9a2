/*
 * store/conditionals.c: conditional moves, kept apart from the record.
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
 * A player's conditional for a game stays here, where no public listing
 * reads, until a move of it is played; the record of that move names it
 * (actions.conditional_id). At most one is active per player and game
 * (a partial unique index), so a second writer that raced the first fails
 * with STORE_EXISTS.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

static const char *const cond_sources[] = { "http", "mail", NULL };
static const char *const cond_ends[] = { "replaced", "cancelled", "ended",
    NULL };

/* Add an active conditional. */
enum store_status
store_conditional_add(struct store *s, struct store_conditional *c)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_oneof(s, c->source, cond_sources, "source") != 0)
		return STORE_ERROR;
	if (c->lines == NULL || c->statement == NULL || c->signature == NULL) {
		store_seterr(s, "conditional without lines or signature");
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_COND_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, c->game_id);
	db_bind_int64(st, 2, c->player_id);
	store_bind_opt_int(st, 3, c->key_id, 0);
	db_bind_int(st, 4, c->ply);
	db_bind_text(st, 5, c->lines);
	db_bind_text(st, 6, c->statement);
	db_bind_text(st, 7, c->signature);
	db_bind_text(st, 8, c->source);
	db_bind_int64(st, 9, c->created);
	status = store_exec_insert(s, st, "record a conditional", &c->id);
	if (status == STORE_EXISTS)
		store_seterr(s, "the player has an active conditional in game "
		    "%lld already", (long long)c->game_id);
	return status;
}

/* Copy a text column into a malloc'd string ("" for NULL). */
static char *
col_dup(struct db_stmt *st, int col)
{
	const char	*t = db_column_text(st, col);

	return strdup(t != NULL ? t : "");
}

/* Load the player's active conditional in a game. */
enum store_status
store_conditional_active(struct store *s, int64_t game_id, int64_t player_id,
    struct store_conditional *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_COND_ACTIVE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int64(st, 2, player_id);
	status = store_step_one(s, st, "get the conditional", NULL);
	if (status == STORE_OK) {
		out->id = db_column_int64(st, 0);
		out->game_id = db_column_int64(st, 1);
		out->player_id = db_column_int64(st, 2);
		out->key_id = store_col_opt_int(st, 3, 0);
		out->ply = db_column_int(st, 4);
		out->created = db_column_int64(st, 9);
		out->ended = store_col_opt_int(st, 12, 0);
		out->played = db_column_int(st, 13);
		out->lines = col_dup(st, 5);
		out->statement = col_dup(st, 6);
		out->signature = col_dup(st, 7);
		if (store_col_text(st, 8, out->source,
		    sizeof out->source) != 0 ||
		    store_col_text(st, 10, out->status,
		    sizeof out->status) != 0 ||
		    store_col_text(st, 11, out->reason,
		    sizeof out->reason) != 0) {
			store_seterr(s, "conditional %lld: bad stored field",
			    (long long)out->id);
			status = STORE_ERROR;
		} else if (out->lines == NULL || out->statement == NULL ||
		    out->signature == NULL) {
			store_seterr(s, "out of memory");
			status = STORE_ERROR;
		}
		if (status != STORE_OK)
			store_conditional_clear(out);
	}
	store_done(st);
	return status;
}

/* Count one more move of an active conditional played. */
enum store_status
store_conditional_played(struct store *s, int64_t id)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_COND_PLAYED)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	return store_exec_change(s, st, "count a conditional move",
	    "no such active conditional");
}

/* End an active conditional. */
enum store_status
store_conditional_end(struct store *s, int64_t id, const char *status,
    const char *reason, int64_t at)
{
	struct db_stmt	*st;

	if (store_oneof(s, status, cond_ends, "conditional status") != 0 ||
	    store_fits(s, reason, STORE_COND_REASON_SIZE, "reason") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_COND_END)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_text(st, 2, status);
	db_bind_text(st, 3, reason);
	db_bind_int64(st, 4, at);
	return store_exec_change(s, st, "end a conditional",
	    "no such active conditional");
}

/* End every active conditional a revoked key signed. */
enum store_status
store_conditional_end_by_key(struct store *s, int64_t key_id,
    const char *reason, int64_t at, int64_t *n)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (n != NULL)
		*n = 0;
	if (store_fits(s, reason, STORE_COND_REASON_SIZE, "reason") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_COND_END_BY_KEY)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, key_id);
	db_bind_text(st, 2, reason);
	db_bind_int64(st, 3, at);
	status = store_exec_stmt(s, st, "end the key's conditionals");
	if (status == STORE_OK && n != NULL)
		*n = db_changes(s->db);
	return status;
}

/* Free a loaded conditional's texts. */
void
store_conditional_clear(struct store_conditional *c)
{
	if (c == NULL)
		return;
	free(c->lines);
	free(c->statement);
	free(c->signature);
	c->lines = c->statement = c->signature = NULL;
}
