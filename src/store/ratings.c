/*
 * store/ratings.c: ratings and their history.
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

#include <string.h>

#include "store/store_int.h"

/* Read a rating row of rating-get and rating-list. */
static int
store_rating_read(struct store *s, struct db_stmt *st, struct store_rating *r)
{
	memset(r, 0, sizeof *r);
	r->player_id = db_column_int64(st, 0);
	r->rating = db_column_double(st, 2);
	r->rd = db_column_double(st, 3);
	r->volatility = db_column_double(st, 4);
	r->games = db_column_int(st, 5);
	r->updated = db_column_int64(st, 6);
	if (store_col_text(st, 1, r->name, sizeof r->name) != 0) {
		store_seterr(s, "rating of player %lld: bad stored name",
		    (long long)r->player_id);
		return -1;
	}
	return 0;
}

/* Read a row of RATING_HISTORY_SELECT. */
static int
store_rating_entry_read(struct store *s, struct db_stmt *st,
    struct store_rating_entry *e)
{
	memset(e, 0, sizeof *e);
	e->player_id = db_column_int64(st, 0);
	e->game_id = db_column_int64(st, 1);
	e->opponent_id = db_column_int64(st, 2);
	e->score = db_column_double(st, 4);
	e->at = db_column_int64(st, 5);
	e->rating_before = db_column_double(st, 6);
	e->rd_before = db_column_double(st, 7);
	e->rating = db_column_double(st, 8);
	e->rd = db_column_double(st, 9);
	e->volatility = db_column_double(st, 10);
	if (store_col_text(st, 3, e->opponent, sizeof e->opponent) != 0) {
		store_seterr(s, "rating history of game %lld: bad stored name",
		    (long long)e->game_id);
		return -1;
	}
	return 0;
}

/* Load a player's rating. */
enum store_status
store_rating_get(struct store *s, int64_t player_id, struct store_rating *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_RATING_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	status = store_step_one(s, st, "get a rating", NULL);
	if (status == STORE_OK && store_rating_read(s, st, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}

/* Store a player's rating. */
enum store_status
store_rating_set(struct store *s, const struct store_rating *r)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_RATING_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, r->player_id);
	db_bind_double(st, 2, r->rating);
	db_bind_double(st, 3, r->rd);
	db_bind_double(st, 4, r->volatility);
	db_bind_int(st, 5, r->games);
	db_bind_int64(st, 6, r->updated);
	/* A player's rating is in the PGN of their games. */
	s->ratings_written = true;
	return store_exec_stmt(s, st, "store a rating");
}

/* Tell whether a rating was written through this handle since the last
 * call, and forget it. */
bool
store_ratings_written(struct store *s)
{
	bool	written = s->ratings_written;

	s->ratings_written = false;
	return written;
}

/* List the rated players, best first. */
enum store_status
store_rating_list(struct store *s, store_rating_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_rating	 r;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_RATING_LIST)) == NULL)
		return STORE_ERROR;
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_rating_read(s, st, &r) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &r) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list the ratings");
}

/* Add one entry of a player's rating history. */
enum store_status
store_rating_history_add(struct store *s, const struct store_rating_entry *e)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_RATING_HISTORY_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, e->player_id);
	db_bind_int64(st, 2, e->game_id);
	db_bind_int64(st, 3, e->opponent_id);
	db_bind_double(st, 4, e->score);
	db_bind_int64(st, 5, e->at);
	db_bind_double(st, 6, e->rating_before);
	db_bind_double(st, 7, e->rd_before);
	db_bind_double(st, 8, e->rating);
	db_bind_double(st, 9, e->rd);
	db_bind_double(st, 10, e->volatility);
	return store_exec_stmt(s, st, "record a rated game");
}

/* List a player's rating history. */
enum store_status
store_rating_history_list(struct store *s, int64_t player_id,
    store_rating_entry_cb cb, void *arg)
{
	struct db_stmt			*st;
	struct store_rating_entry	 e;
	enum store_status		 status = STORE_OK;
	int				 rc;

	if ((st = store_stmt(s, ST_RATING_HISTORY_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_rating_entry_read(s, st, &e) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &e) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list a rating history");
}

/* Load the entry of one player's rated game. */
enum store_status
store_rating_history_get(struct store *s, int64_t game_id, int64_t player_id,
    struct store_rating_entry *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_RATING_HISTORY_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int64(st, 2, player_id);
	status = store_step_one(s, st, "get a rated game", NULL);
	if (status == STORE_OK && store_rating_entry_read(s, st, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}
