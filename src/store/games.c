/*
 * store/games.c: games and their listings, their creation records; the
 * reminders sent.
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
 * A game row holds its parameters (fixed at creation) and its current
 * state, so that listings need no replay; the names of its players come
 * with every read (GAME_SELECT joins them).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

static const char *const store_variants[] = { "standard", "chess960", NULL };
static const char *const store_policies[] = { "auto", "claim", NULL };

/* Read a game row of GAME_SELECT. */
static int
store_game_read(struct store *s, struct db_stmt *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = db_column_int64(st, 0);
	g->white = db_column_int64(st, 1);
	g->black = db_column_int64(st, 2);
	g->chess960 = (int)store_col_opt_int(st, 6, -1);
	g->created = db_column_int64(st, 13);
	g->ply = db_column_int(st, 17);
	g->turn = db_column_int(st, 19);
	g->draw_offer = (int)store_col_opt_int(st, 20, -1);
	g->deadline = store_col_opt_int(st, 21, 0);
	g->updated = db_column_int64(st, 23);
	if (store_col_text(st, 3, g->white_name, sizeof g->white_name) != 0 ||
	    store_col_text(st, 4, g->black_name, sizeof g->black_name) != 0 ||
	    store_col_text(st, 5, g->variant, sizeof g->variant) != 0 ||
	    store_col_text(st, 7, g->start_fen, sizeof g->start_fen) != 0 ||
	    store_col_text(st, 8, g->time_control,
	    sizeof g->time_control) != 0 ||
	    store_col_text(st, 9, g->policy, sizeof g->policy) != 0 ||
	    store_col_text(st, 10, g->event, sizeof g->event) != 0 ||
	    store_col_text(st, 11, g->site, sizeof g->site) != 0 ||
	    store_col_text(st, 12, g->round, sizeof g->round) != 0 ||
	    store_col_text(st, 14, g->status, sizeof g->status) != 0 ||
	    store_col_text(st, 15, g->result, sizeof g->result) != 0 ||
	    store_col_text(st, 16, g->termination,
	    sizeof g->termination) != 0 ||
	    store_col_text(st, 18, g->fen, sizeof g->fen) != 0 ||
	    store_col_blob(st, 22, g->head, sizeof g->head) != 0) {
		store_seterr(s, "game %lld: bad stored field", (long long)g->id);
		return -1;
	}
	return 0;
}

/* Check the state fields of a game before writing them. */
static int
store_game_check_state(struct store *s, const struct store_game *g)
{
	if (store_fits(s, g->status, sizeof g->status, "status") != 0 ||
	    store_fits(s, g->result, sizeof g->result, "result") != 0 ||
	    store_fits(s, g->termination, sizeof g->termination,
	    "termination") != 0 ||
	    store_fits(s, g->fen, sizeof g->fen, "FEN") != 0)
		return -1;
	if (g->draw_offer < -1 || g->draw_offer > 1) {
		store_seterr(s, "bad draw offer %d", g->draw_offer);
		return -1;
	}
	return 0;
}

/* Check the parameters of a new game. */
static int
store_game_check_params(struct store *s, const struct store_game *g)
{
	if (store_oneof(s, g->variant, store_variants, "variant") != 0 ||
	    store_oneof(s, g->policy, store_policies, "policy") != 0 ||
	    store_fits(s, g->start_fen, sizeof g->start_fen,
	    "start FEN") != 0 ||
	    store_fits(s, g->time_control, sizeof g->time_control,
	    "time control") != 0 ||
	    store_fits(s, g->event, sizeof g->event, "event") != 0 ||
	    store_fits(s, g->site, sizeof g->site, "site") != 0 ||
	    store_fits(s, g->round, sizeof g->round, "round") != 0)
		return -1;
	if ((strcmp(g->variant, "chess960") == 0) !=
	    (g->chess960 >= 0 && g->chess960 <= 959)) {
		store_seterr(s, "chess960 number %d does not fit variant %s",
		    g->chess960, g->variant);
		return -1;
	}
	return 0;
}

/* Bind the state fields a move changes at ?first...: ply, FEN, turn,
 * offer, deadline, head, time. */
static void
store_game_bind_play(struct db_stmt *st, int first, const struct store_game *g)
{
	db_bind_int(st, first, g->ply);
	db_bind_text(st, first + 1, g->fen);
	db_bind_int(st, first + 2, g->turn);
	store_bind_opt_int(st, first + 3, g->draw_offer, -1);
	store_bind_opt_int(st, first + 4, g->deadline, 0);
	db_bind_blob(st, first + 5, g->head, sizeof g->head);
	db_bind_int64(st, first + 6, g->updated);
}

/* Bind the state fields shared by insert and update at ?first... */
static void
store_game_bind_state(struct db_stmt *st, int first, const struct store_game *g)
{
	db_bind_text(st, first, g->status);
	db_bind_text(st, first + 1, g->result);
	db_bind_text(st, first + 2, g->termination);
	store_game_bind_play(st, first + 3, g);
}

/* Note that game `id`'s row was written through the handle. */
static void
game_written(struct store *s, int64_t id)
{
	if (s->games_many || (s->ngames_written > 0 &&
	    s->games_written[s->ngames_written - 1] == id))
		return;
	if (s->ngames_written == STORE_GAMES_WRITTEN_MAX) {
		s->games_many = true;
		return;
	}
	s->games_written[s->ngames_written++] = id;
}

/* Call cb for every game written since the last call, and forget them. */
void
store_games_written(struct store *s, void (*cb)(void *, int64_t), void *arg)
{
	size_t	i;

	if (s->games_many)
		cb(arg, 0);
	else
		for (i = 0; i < s->ngames_written; i++)
			cb(arg, s->games_written[i]);
	s->ngames_written = 0;
	s->games_many = false;
}

/* Add a game. */
enum store_status
store_game_create(struct store *s, struct store_game *g)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (store_game_check_params(s, g) != 0 ||
	    store_game_check_state(s, g) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_GAME_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, g->white);
	db_bind_int64(st, 2, g->black);
	db_bind_text(st, 3, g->variant);
	store_bind_opt_int(st, 4, g->chess960, -1);
	db_bind_text(st, 5, g->start_fen);
	db_bind_text(st, 6, g->time_control);
	db_bind_text(st, 7, g->policy);
	db_bind_text(st, 8, g->event);
	db_bind_text(st, 9, g->site);
	db_bind_text(st, 10, g->round);
	db_bind_int64(st, 11, g->created);
	store_game_bind_state(st, 12, g);
	status = store_exec_insert(s, st, "add game", &g->id);
	if (status == STORE_NOTFOUND)
		store_seterr(s, "no such player");
	else if (status == STORE_OK)
		game_written(s, g->id);
	return status;
}

/* Load a game with its players' names. */
enum store_status
store_game_get(struct store *s, int64_t id, struct store_game *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_GAME_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	status = store_step_one(s, st, "get game", "no such game");
	if (status == STORE_OK && store_game_read(s, st, out) != 0)
		status = STORE_ERROR;
	store_done(st);
	return status;
}

/* Load a game, its conditionals' presence and a key (store.h). */
enum store_status
store_game_get_action(struct store *s, int64_t id, int64_t key_id,
    struct store_game *out, bool *conditionals, struct store_key *key)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(key, 0, sizeof *key);
	*conditionals = false;
	if ((st = store_stmt(s, ST_GAME_GET_ACTION)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, key_id);
	status = store_step_one(s, st, "get game", "no such game");
	if (status == STORE_OK && store_game_read(s, st, out) != 0)
		status = STORE_ERROR;
	if (status == STORE_OK) {
		*conditionals = db_column_int64(st, 24) > 0;
		key->id = store_col_opt_int(st, 25, 0);
		key->player_id = store_col_opt_int(st, 26, 0);
		key->revoked = store_col_opt_int(st, 27, 0);
	}
	store_done(st);
	return status;
}

/* Read several games for actions in one statement (store.h). */
enum store_status
store_game_get_actions(struct store *s, struct store_game_action *v,
    size_t n)
{
	struct db_stmt		*st;
	enum store_status	 status = STORE_OK;
	char			*pairs;
	size_t			 i, len, size;
	int64_t			 at;
	int			 rc;

	if (n == 0)
		return STORE_OK;
	/* ",[id,key]" with two numbers of at most 20 characters. */
	size = n * 45 + 3;
	if ((pairs = malloc(size)) == NULL) {
		store_seterr(s, "out of memory");
		return STORE_ERROR;
	}
	len = 1;
	pairs[0] = '[';
	for (i = 0; i < n; i++) {
		v[i].status = STORE_NOTFOUND;
		v[i].conditionals = false;
		memset(&v[i].key, 0, sizeof v[i].key);
		len += (size_t)snprintf(pairs + len, size - len, "%s[%lld,%lld]",
		    i > 0 ? "," : "", (long long)v[i].id,
		    (long long)v[i].key_id);
	}
	snprintf(pairs + len, size - len, "]");
	if ((st = store_stmt(s, ST_GAME_GET_ACTIONS)) == NULL) {
		free(pairs);
		return STORE_ERROR;
	}
	db_bind_text(st, 1, pairs);
	while ((rc = db_step(st)) == DB_ROW) {
		at = db_column_int64(st, 28) - 1;
		if (at < 0 || (size_t)at >= n || store_game_read(s, st,
		    &v[at].row) != 0) {
			store_seterr(s, "get games: a row out of place");
			status = STORE_ERROR;
			break;
		}
		v[at].status = STORE_OK;
		v[at].conditionals = db_column_int64(st, 24) > 0;
		v[at].key.id = store_col_opt_int(st, 25, 0);
		v[at].key.player_id = store_col_opt_int(st, 26, 0);
		v[at].key.revoked = store_col_opt_int(st, 27, 0);
	}
	status = store_rows_done(s, st, rc, status, "get games");
	free(pairs);
	return status;
}

/* Tell whether a game was written since store_games_written() (store.h). */
bool
store_game_written(struct store *s, int64_t id)
{
	size_t	i;

	if (s->games_many)
		return true;
	for (i = 0; i < s->ngames_written; i++)
		if (s->games_written[i] == id)
			return true;
	return false;
}

/* Store a game's state fields: all of them, or with `play` those a move
 * changes. */
static enum store_status
game_update(struct store *s, const struct store_game *g, bool play)
{
	struct db_stmt	*st;

	if (store_game_check_state(s, g) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, play ? ST_GAME_UPDATE_PLAY :
	    ST_GAME_UPDATE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, g->id);
	if (play)
		store_game_bind_play(st, 2, g);
	else
		store_game_bind_state(st, 2, g);
	game_written(s, g->id);
	/* Sent ahead, the game was read under its lock: it is there. */
	if (s->ahead)
		return store_exec_ahead(s, st, "update game");
	return store_exec_change(s, st, "update game", "no such game");
}

/* Store a game's state fields. */
enum store_status
store_game_update(struct store *s, const struct store_game *g)
{
	return game_update(s, g, false);
}

/* Store the state fields of a game whose status, result and termination
 * are those stored (store.h). */
enum store_status
store_game_update_play(struct store *s, const struct store_game *g)
{
	return game_update(s, g, true);
}

/* Step a game listing, calling cb for each row. */
static enum store_status
store_game_rows(struct store *s, struct db_stmt *st, store_game_cb cb,
    void *arg)
{
	struct store_game	g;
	enum store_status	status = STORE_OK;
	int			rc;

	while ((rc = db_step(st)) == DB_ROW) {
		if (store_game_read(s, st, &g) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &g) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list games");
}

/* List games, newest first, filtered by player and status. */
enum store_status
store_game_list(struct store *s, const struct store_game_filter *f,
    store_game_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_player	 p;
	enum store_status	 status;
	enum stmt_id		 id;

	if (f->player != NULL) {
		status = store_player_get_by_name(s, f->player, &p);
		if (status != STORE_OK)
			return status;
		id = f->status != NULL ? ST_GAME_LIST_PLAYER_STATUS :
		    ST_GAME_LIST_PLAYER;
	} else
		id = f->status != NULL ? ST_GAME_LIST_STATUS : ST_GAME_LIST;

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, f->limit > 0 ? f->limit : INT64_MAX);
	db_bind_int64(st, 2, f->offset > 0 ? f->offset : 0);
	if (f->status != NULL)
		db_bind_text(st, 3, f->status);
	if (f->player != NULL)
		db_bind_int64(st, 4, p.id);
	return store_game_rows(s, st, cb, arg);
}

/* List ongoing games whose deadline has passed. */
enum store_status
store_game_list_due(struct store *s, int64_t now, int64_t limit,
    store_game_cb cb, void *arg)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_DUE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, now);
	db_bind_int64(st, 2, limit > 0 ? limit : INT64_MAX);
	return store_game_rows(s, st, cb, arg);
}

/* List ongoing games whose deadline is near and not yet reminded of. */
enum store_status
store_game_list_remind(struct store *s, int64_t now, int64_t threshold,
    int64_t limit, store_game_cb cb, void *arg)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_REMIND)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, now);
	db_bind_int64(st, 2, now + threshold);
	db_bind_int64(st, 3, threshold);
	db_bind_int64(st, 4, limit > 0 ? limit : INT64_MAX);
	return store_game_rows(s, st, cb, arg);
}

/* Count the games of one status. */
enum store_status
store_game_count(struct store *s, const char *status, int64_t *n)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_COUNT)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, status);
	return store_exec_count(s, st, "count games", n);
}

/* Record that a game's reminder at a threshold was dealt with. */
enum store_status
store_reminder_add(struct store *s, int64_t game_id, int ply,
    int64_t threshold, int64_t sent_at)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_REMINDER_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int(st, 2, ply);
	db_bind_int64(st, 3, threshold);
	store_bind_opt_int(st, 4, sent_at, 0);
	return store_exec_stmt(s, st, "record a reminder");
}

/* Look up whether a game's reminder at a threshold was dealt with. */
enum store_status
store_reminder_get(struct store *s, int64_t game_id, int ply,
    int64_t threshold, int64_t *sent_at)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_REMINDER_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int(st, 2, ply);
	db_bind_int64(st, 3, threshold);
	status = store_step_one(s, st, "look a reminder up", NULL);
	if (status == STORE_OK && sent_at != NULL)
		*sent_at = store_col_opt_int(st, 0, 0);
	store_done(st);
	return status;
}

/* Load a game's rules. */
enum store_status
store_game_rules_get(struct store *s, int64_t game_id,
    struct store_game_rules *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_GAME_RULES_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	status = store_step_one(s, st, "get the game's rules", NULL);
	if (status == STORE_OK) {
		out->rated = db_column_int(st, 0) != 0;
		out->draw_min_move = db_column_int(st, 1);
		out->draw_offer_every = db_column_int(st, 2);
	} else if (status == STORE_NOTFOUND)
		status = STORE_OK;
	store_done(st);
	return status;
}

/* Store the rules of a new game. */
enum store_status
store_game_rules_set(struct store *s, int64_t game_id,
    const struct store_game_rules *r)
{
	struct db_stmt	*st;

	if (r->draw_min_move < 0 || r->draw_offer_every < 0) {
		store_seterr(s, "game %lld: negative draw rule",
		    (long long)game_id);
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_GAME_RULES_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_int(st, 2, r->rated ? 1 : 0);
	db_bind_int(st, 3, r->draw_min_move);
	db_bind_int(st, 4, r->draw_offer_every);
	return store_exec_stmt(s, st, "store the game's rules");
}

/* Load a game's creation record. */
enum store_status
store_game_creation_get(struct store *s, int64_t game_id,
    struct store_creation *out)
{
	struct db_stmt		*st;
	enum store_status	 status;
	const char		*text;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_GAME_CREATION_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	status = store_step_one(s, st, "get the game's creation record",
	    NULL);
	if (status == STORE_OK) {
		text = db_column_text(st, 0);
		if (text == NULL || strlen(text) >= sizeof out->record ||
		    store_col_blob(st, 1, out->signature,
		    sizeof out->signature) != 0 ||
		    store_col_blob(st, 2, out->hash, sizeof out->hash) != 0) {
			store_seterr(s, "game %lld: a malformed creation "
			    "record", (long long)game_id);
			status = STORE_ERROR;
		} else
			snprintf(out->record, sizeof out->record, "%s", text);
	}
	store_done(st);
	return status;
}

/* Store the creation record of a new game. */
enum store_status
store_game_creation_set(struct store *s, int64_t game_id,
    const struct store_creation *c)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_CREATION_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, game_id);
	db_bind_text(st, 2, c->record);
	db_bind_blob(st, 3, c->signature, sizeof c->signature);
	db_bind_blob(st, 4, c->hash, sizeof c->hash);
	return store_exec_stmt(s, st, "store the game's creation record");
}
