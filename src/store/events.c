/*
 * store/events.c: events, their players and their games.
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
 * An event row holds its rules and its status; its players and games are
 * rows of their own, read with the names and states they point to.
 */

#include "config.h"

#include <string.h>

#include "store/store_int.h"

static const char *const store_formats[] = { "round-robin",
    "double-round-robin", "match", NULL };
static const char *const store_withdrawals[] = { "lose", "annul", NULL };
static const char *const store_event_statuses[] = { "created", "started",
    "finished", NULL };
static const char *const store_adjustments[] = { "", "annulled",
    "white-withdrew", "black-withdrew", NULL };

/* Read an event row of EVENT_SELECT (the first 22 columns). */
static int
store_event_read(struct store *s, struct db_stmt *st, struct store_event *e)
{
	memset(e, 0, sizeof *e);
	e->id = db_column_int64(st, 0);
	e->games = db_column_int(st, 5);
	e->chess960 = (int)store_col_opt_int(st, 7, -1);
	e->chess960_pairing = db_column_int(st, 8) != 0;
	e->rated = db_column_int(st, 12) != 0;
	e->created = db_column_int64(st, 16);
	e->started = db_column_int64(st, 17);
	e->finished = db_column_int64(st, 18);
	e->draw_min_move = db_column_int(st, 19);
	e->draw_offer_every = db_column_int(st, 20);
	e->leave_days = (int)store_col_opt_int(st, 21, -1);
	if (store_col_text(st, 1, e->name, sizeof e->name) != 0 ||
	    store_col_text(st, 2, e->title, sizeof e->title) != 0 ||
	    store_col_text(st, 3, e->site, sizeof e->site) != 0 ||
	    store_col_text(st, 4, e->format, sizeof e->format) != 0 ||
	    store_col_text(st, 6, e->variant, sizeof e->variant) != 0 ||
	    store_col_text(st, 9, e->fen, sizeof e->fen) != 0 ||
	    store_col_text(st, 10, e->time_control,
	    sizeof e->time_control) != 0 ||
	    store_col_text(st, 11, e->policy, sizeof e->policy) != 0 ||
	    store_col_text(st, 13, e->tiebreaks, sizeof e->tiebreaks) != 0 ||
	    store_col_text(st, 14, e->withdrawal,
	    sizeof e->withdrawal) != 0 ||
	    store_col_text(st, 15, e->status, sizeof e->status) != 0) {
		store_seterr(s, "event %lld: bad stored field",
		    (long long)e->id);
		return -1;
	}
	return 0;
}

/* Check an event's fields before writing them. */
static int
store_event_check(struct store *s, const struct store_event *e)
{
	if (store_oneof(s, e->format, store_formats, "format") != 0 ||
	    store_oneof(s, e->withdrawal, store_withdrawals,
	    "withdrawal rule") != 0 ||
	    store_oneof(s, e->status, store_event_statuses, "status") != 0 ||
	    store_fits(s, e->title, sizeof e->title, "title") != 0 ||
	    store_fits(s, e->site, sizeof e->site, "site") != 0 ||
	    store_fits(s, e->variant, sizeof e->variant, "variant") != 0 ||
	    store_fits(s, e->fen, sizeof e->fen, "FEN") != 0 ||
	    store_fits(s, e->time_control, sizeof e->time_control,
	    "time control") != 0 ||
	    store_fits(s, e->policy, sizeof e->policy, "policy") != 0 ||
	    store_fits(s, e->tiebreaks, sizeof e->tiebreaks,
	    "tie-breaks") != 0)
		return -1;
	if (e->draw_min_move < 0 || e->draw_offer_every < 0 ||
	    e->leave_days < -1 || e->leave_days > 366) {
		store_seterr(s, "event %s: bad draw rule or leave allowance",
		    e->name);
		return -1;
	}
	return 0;
}

/* Bind the fields an update changes, from ?2 on, in the insert's order. */
static void
store_event_bind(struct db_stmt *st, int first, const struct store_event *e)
{
	db_bind_text(st, first, e->title);
	db_bind_text(st, first + 1, e->site);
	db_bind_text(st, first + 2, e->format);
	db_bind_int(st, first + 3, e->games);
	db_bind_text(st, first + 4, e->variant);
	store_bind_opt_int(st, first + 5, e->chess960, -1);
	db_bind_int(st, first + 6, e->chess960_pairing ? 1 : 0);
	db_bind_text(st, first + 7, e->fen);
	db_bind_text(st, first + 8, e->time_control);
	db_bind_text(st, first + 9, e->policy);
	db_bind_int(st, first + 10, e->rated ? 1 : 0);
	db_bind_text(st, first + 11, e->tiebreaks);
	db_bind_text(st, first + 12, e->withdrawal);
	db_bind_text(st, first + 13, e->status);
}

/* Bind the draw rules and the leave allowance, from `first` on. */
static void
store_event_bind_draws(struct db_stmt *st, int first, const struct store_event *e)
{
	db_bind_int(st, first, e->draw_min_move);
	db_bind_int(st, first + 1, e->draw_offer_every);
	store_bind_opt_int(st, first + 2, e->leave_days, -1);
}

/* Add an event. */
enum store_status
store_event_create(struct store *s, struct store_event *e)
{
	struct db_stmt	*st;

	if (!store_name_valid(e->name)) {
		store_seterr(s, "bad event name");
		return STORE_ERROR;
	}
	if (store_event_check(s, e) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_EVENT_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, e->name);
	store_event_bind(st, 2, e);
	db_bind_int64(st, 16, e->created);
	db_bind_int64(st, 17, e->started);
	db_bind_int64(st, 18, e->finished);
	store_event_bind_draws(st, 19, e);
	return store_exec_insert(s, st, "add event", &e->id);
}

/* Load an event by name. */
enum store_status
store_event_get_by_name(struct store *s, const char *name,
    struct store_event *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_EVENT_BY_NAME)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, name);
	status = store_step_one(s, st, "get event", "no such event");
	if (status == STORE_OK && store_event_read(s, st, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}

/* Load the event of a game and the game's place in it. */
enum store_status
store_event_get_by_game(struct store *s, int64_t game_id,
    struct store_event *out, struct store_event_game *eg)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_EVENT_BY_GAME)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	status = store_step_one(s, st, "get a game's event", NULL);
	if (status == STORE_OK && store_event_read(s, st, out) != 0)
		status = STORE_ERROR;
	if (status == STORE_OK && eg != NULL) {
		memset(eg, 0, sizeof *eg);
		eg->event_id = out->id;
		eg->game_id = game_id;
		eg->round = db_column_int(st, 22);
		eg->board = db_column_int(st, 23);
		if (store_col_text(st, 24, eg->adjusted,
		    sizeof eg->adjusted) != 0) {
			store_seterr(s, "game %lld: bad stored adjustment",
			    (long long)game_id);
			status = STORE_ERROR;
		}
	}
	store_done(st);
	return status;
}

/* List events, newest first. */
enum store_status
store_event_list(struct store *s, store_event_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_event	 e;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_EVENT_LIST)) == NULL)
		return STORE_ERROR;
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_event_read(s, st, &e) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &e) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list events");
}

/* Store an event's rules, status and times. */
enum store_status
store_event_update(struct store *s, const struct store_event *e)
{
	struct db_stmt	*st;

	if (store_event_check(s, e) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_EVENT_UPDATE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, e->id);
	store_event_bind(st, 2, e);
	db_bind_int64(st, 16, e->started);
	db_bind_int64(st, 17, e->finished);
	store_event_bind_draws(st, 18, e);
	return store_exec_change(s, st, "update event", "no such event");
}

/* Add a player to an event. */
enum store_status
store_event_player_add(struct store *s, int64_t event_id, int64_t player_id,
    int64_t added)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_EVENT_PLAYER_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, event_id);
	db_bind_int64(st, 2, player_id);
	db_bind_int64(st, 3, added);
	return store_exec_stmt(s, st, "add a player to an event");
}

/* Remove a player from an event. */
enum store_status
store_event_player_remove(struct store *s, int64_t event_id,
    int64_t player_id)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_EVENT_PLAYER_DELETE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, event_id);
	db_bind_int64(st, 2, player_id);
	return store_exec_change(s, st, "remove a player from an event",
	    "not a player of the event");
}

/* Store a player's start number and withdrawal in an event. */
enum store_status
store_event_player_set(struct store *s, const struct store_event_player *ep)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_EVENT_PLAYER_UPDATE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, ep->event_id);
	db_bind_int64(st, 2, ep->player_id);
	db_bind_int(st, 3, ep->seed);
	db_bind_int64(st, 4, ep->withdrawn);
	return store_exec_change(s, st, "update an event's player",
	    "not a player of the event");
}

/* List an event's players. */
enum store_status
store_event_player_list(struct store *s, int64_t event_id,
    store_event_player_cb cb, void *arg)
{
	struct db_stmt			*st;
	struct store_event_player	 ep;
	enum store_status		 status = STORE_OK;
	int				 rc;

	if ((st = store_stmt(s, ST_EVENT_PLAYER_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, event_id);
	while ((rc = db_step(st)) == DB_ROW) {
		memset(&ep, 0, sizeof ep);
		ep.event_id = db_column_int64(st, 0);
		ep.player_id = db_column_int64(st, 1);
		ep.seed = db_column_int(st, 5);
		ep.added = db_column_int64(st, 6);
		ep.withdrawn = db_column_int64(st, 7);
		if (store_col_text(st, 2, ep.name, sizeof ep.name) != 0 ||
		    store_col_text(st, 3, ep.email, sizeof ep.email) != 0 ||
		    store_col_text(st, 4, ep.lang, sizeof ep.lang) != 0) {
			store_seterr(s, "event %lld: bad stored player",
			    (long long)event_id);
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &ep) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list an event's players");
}

/* Add a game to an event. */
enum store_status
store_event_game_add(struct store *s, const struct store_event_game *eg)
{
	struct db_stmt	*st;

	if (store_oneof(s, eg->adjusted, store_adjustments,
	    "adjustment") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_EVENT_GAME_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, eg->game_id);
	db_bind_int64(st, 2, eg->event_id);
	db_bind_int(st, 3, eg->round);
	db_bind_int(st, 4, eg->board);
	db_bind_text(st, 5, eg->adjusted);
	return store_exec_stmt(s, st, "add a game to an event");
}

/* Store what a withdrawal made of an event's game. */
enum store_status
store_event_game_adjust(struct store *s, int64_t game_id,
    const char *adjusted)
{
	struct db_stmt	*st;

	if (store_oneof(s, adjusted, store_adjustments, "adjustment") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_EVENT_GAME_ADJUST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_text(st, 2, adjusted);
	return store_exec_change(s, st, "adjust an event's game",
	    "not a game of an event");
}

/* List an event's games with their state. */
enum store_status
store_event_game_list(struct store *s, int64_t event_id,
    store_event_game_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_event_game	 eg;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_EVENT_GAME_LIST)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, event_id);
	while ((rc = db_step(st)) == DB_ROW) {
		memset(&eg, 0, sizeof eg);
		eg.event_id = db_column_int64(st, 0);
		eg.game_id = db_column_int64(st, 1);
		eg.round = db_column_int(st, 2);
		eg.board = db_column_int(st, 3);
		eg.white = db_column_int64(st, 5);
		eg.black = db_column_int64(st, 6);
		if (store_col_text(st, 4, eg.adjusted,
		    sizeof eg.adjusted) != 0 ||
		    store_col_text(st, 7, eg.white_name,
		    sizeof eg.white_name) != 0 ||
		    store_col_text(st, 8, eg.black_name,
		    sizeof eg.black_name) != 0 ||
		    store_col_text(st, 9, eg.status, sizeof eg.status) != 0 ||
		    store_col_text(st, 10, eg.result, sizeof eg.result) != 0 ||
		    store_col_text(st, 11, eg.termination,
		    sizeof eg.termination) != 0) {
			store_seterr(s, "event %lld: bad stored game",
			    (long long)event_id);
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &eg) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list an event's games");
}
