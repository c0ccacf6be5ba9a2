/*
 * store/actions.c: the record: each accepted action, chained by hash.
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
 * Appended only: (game_id, seq) is the key, so that of two writers that
 * both read seq N, the second fails with STORE_EXISTS whatever the engine.
 * The statement and signature are kept verbatim.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

static const char *const store_sources[] = { "http", "mail", "xfcc",
    "admin", "clock", NULL };
static const char *const store_attested[] = { "", "xfcc", "mail-token",
    NULL };

/*
 * Read an action row of ACTION_SELECT; statement and signature point into
 * the statement's row (valid until the next step or reset).
 */
static int
store_action_read(struct store *s, struct db_stmt *st, struct store_action *a)
{
	memset(a, 0, sizeof *a);
	a->game_id = db_column_int64(st, 0);
	a->seq = db_column_int64(st, 1);
	a->ply = db_column_int(st, 2);
	a->player_id = store_col_opt_int(st, 3, 0);
	a->key_id = store_col_opt_int(st, 4, 0);
	a->at = db_column_int64(st, 10);
	if (store_col_text(st, 5, a->kind, sizeof a->kind) != 0 ||
	    store_col_text(st, 6, a->move, sizeof a->move) != 0 ||
	    store_col_text(st, 7, a->san, sizeof a->san) != 0 ||
	    store_col_blob(st, 11, a->prev_hash, sizeof a->prev_hash) != 0 ||
	    store_col_blob(st, 12, a->hash, sizeof a->hash) != 0 ||
	    store_col_text(st, 13, a->source, sizeof a->source) != 0 ||
	    store_col_text(st, 14, a->attested, sizeof a->attested) != 0) {
		store_seterr(s, "game %lld action %lld: bad stored field",
		    (long long)a->game_id, (long long)a->seq);
		return -1;
	}
	a->conditional_id = store_col_opt_int(st, 15, 0);
	a->statement = (char *)db_column_text(st, 8);
	a->signature = (char *)db_column_text(st, 9);
	return 0;
}

/* Append a record to a game. */
enum store_status
store_action_append(struct store *s, const struct store_action *a)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, a->kind, sizeof a->kind, "action kind") != 0 ||
	    store_fits(s, a->move, sizeof a->move, "move") != 0 ||
	    store_fits(s, a->san, sizeof a->san, "SAN") != 0 ||
	    store_oneof(s, a->source, store_sources, "source") != 0 ||
	    store_oneof(s, a->attested, store_attested, "attestation") != 0)
		return STORE_ERROR;
	if (a->kind[0] == '\0') {
		store_seterr(s, "action without kind");
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_ACTION_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, a->game_id);
	db_bind_int64(st, 2, a->seq);
	db_bind_int(st, 3, a->ply);
	store_bind_opt_int(st, 4, a->player_id, 0);
	store_bind_opt_int(st, 5, a->key_id, 0);
	db_bind_text(st, 6, a->kind);
	store_bind_opt_text(st, 7, a->move);
	store_bind_opt_text(st, 8, a->san);
	if (a->statement != NULL)
		db_bind_text(st, 9, a->statement);
	if (a->signature != NULL)
		db_bind_text(st, 10, a->signature);
	db_bind_int64(st, 11, a->at);
	db_bind_blob(st, 12, a->prev_hash, sizeof a->prev_hash);
	db_bind_blob(st, 13, a->hash, sizeof a->hash);
	db_bind_text(st, 14, a->source);
	status = store_exec_ahead(s, st, "append action");
	if (status == STORE_OK && a->attested[0] != '\0') {
		if ((st = store_stmt(s, ST_ACTION_ATTESTED)) == NULL)
			return STORE_ERROR;
		db_bind_int64(st, 1, a->game_id);
		db_bind_int64(st, 2, a->seq);
		db_bind_text(st, 3, a->attested);
		status = store_exec_ahead(s, st, "mark the action attested");
		if (status != STORE_OK)
			return status;
	}
	if (status == STORE_EXISTS)
		store_seterr(s, "game %lld has an action %lld already",
		    (long long)a->game_id, (long long)a->seq);
	else if (status == STORE_NOTFOUND)
		store_seterr(s, "no such game, player or key");
	if (status != STORE_OK || a->conditional_id == 0)
		return status;
	/* The move was signed in advance: link it to its conditional. */
	if ((st = store_stmt(s, ST_ACTION_COND)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, a->game_id);
	db_bind_int64(st, 2, a->seq);
	db_bind_int64(st, 3, a->conditional_id);
	status = store_exec_ahead(s, st, "link a move to its conditional");
	if (status == STORE_NOTFOUND)
		store_seterr(s, "no such conditional");
	return status;
}

/* Call back for each record of a game in seq order. */
enum store_status
store_action_list(struct store *s, int64_t game_id, store_action_cb cb,
    void *arg)
{
	struct db_stmt		*st;
	struct store_action	 a;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_ACTION_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_action_read(s, st, &a) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &a) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list actions");
}

/* Copy a borrowed text into a malloc'd one (NULL stays NULL). */
static int
store_action_dup(const char *text, char **out)
{
	*out = NULL;
	if (text == NULL)
		return 0;
	if ((*out = strdup(text)) == NULL)
		return -1;
	return 0;
}

/* Load one record with malloc'd texts. */
enum store_status
store_action_get(struct store *s, int64_t game_id, int64_t seq,
    struct store_action *out)
{
	struct db_stmt		*st;
	struct store_action	 a;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_ACTION_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int64(st, 2, seq);
	status = store_step_one(s, st, "get action", "no such action");
	if (status == STORE_OK) {
		if (store_action_read(s, st, &a) != 0)
			status = STORE_ERROR;
		else {
			*out = a;
			if (store_action_dup(a.statement,
			    &out->statement) != 0 ||
			    store_action_dup(a.signature,
			    &out->signature) != 0) {
				store_action_clear(out);
				store_seterr(s, "out of memory");
				status = STORE_ERROR;
			}
		}
	}
	store_done(st);
	return status;
}

/* Free the texts of a loaded record. */
void
store_action_clear(struct store_action *a)
{
	if (a == NULL)
		return;
	free(a->statement);
	free(a->signature);
	a->statement = NULL;
	a->signature = NULL;
}
