/*
 * service/ratings.c: Glicko-2 ratings: applied as a rated game ends,
 * listed, a player's history, the PGN's Elo tags.
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
 * The arithmetic is src/event/glicko.c's; this file decides what a rating
 * period is (one rated game, for its two players) and keeps the values.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "event/glicko.h"
#include "service/service_int.h"

/* Fill the rating settings, the defaults where `in` has zeros. */
void
ratings_defaults(struct service_ratings *out, const struct service_ratings *in)
{
	out->tau = in->tau > 0 ? in->tau : GLICKO_DEFAULT_TAU;
	out->rating = in->rating > 0 ? in->rating : GLICKO_NEW_RATING;
	out->rd = in->rd > 0 ? in->rd : GLICKO_NEW_RD;
	out->volatility = in->volatility > 0 ? in->volatility :
	    GLICKO_NEW_VOLATILITY;
	out->period = in->period > 0 ? in->period : 30 * 86400;
	out->provisional_rd = in->provisional_rd > 0 ? in->provisional_rd :
	    110;
}

/* The system constants of the service's settings. */
static struct glicko_config
ratings_config(const struct service *svc)
{
	struct glicko_config	cfg = glicko_config_default();

	cfg.tau = svc->ratings.tau;
	cfg.max_rd = svc->ratings.rd;
	return cfg;
}

/*
 * In the writer: a player's rating before a game at `now`: as stored,
 * its deviation grown for each whole period since the last rated game,
 * or a new player's.
 */
static int
rating_before(struct service *svc, int64_t player_id, int64_t now,
    struct store_rating *r)
{
	struct glicko_config	cfg = ratings_config(svc);
	struct glicko_rating	g, idle;
	int64_t			periods;

	switch (store_rating_get(svc->wstore, player_id, r)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		memset(r, 0, sizeof *r);
		r->player_id = player_id;
		r->rating = svc->ratings.rating;
		r->rd = svc->ratings.rd;
		r->volatility = svc->ratings.volatility;
		r->updated = now;
		return 0;
	default:
		return -1;
	}
	periods = now > r->updated ? (now - r->updated) /
	    svc->ratings.period : 0;
	if (periods <= 0)
		return 0;
	g.rating = r->rating;
	g.rd = r->rd;
	g.volatility = r->volatility;
	if (glicko_idle(&g, periods > 100000 ? 100000 : (unsigned)periods,
	    &cfg, &idle) != GLICKO_OK)
		return 0;
	r->rd = idle.rd;
	return 0;
}

/*
 * In the writer, in the transaction where the rated game `row` ended over
 * the board: rate it, one period for both players, from their values
 * before it.
 */
int
rating_game(struct service *svc, const struct store_game *row, int64_t now)
{
	struct glicko_config		 cfg = ratings_config(svc);
	struct store_rating		 r[2];
	struct store_rating_entry	 e;
	struct glicko_rating		 me, after[2];
	struct glicko_game		 game;
	double				 score;
	int				 c;

	if (strcmp(row->result, "1-0") == 0)
		score = 1;
	else if (strcmp(row->result, "0-1") == 0)
		score = 0;
	else if (strcmp(row->result, "1/2-1/2") == 0)
		score = 0.5;
	else
		return 0;
	if (rating_before(svc, row->white, now, &r[0]) != 0 ||
	    rating_before(svc, row->black, now, &r[1]) != 0)
		return -1;
	for (c = 0; c < 2; c++) {
		me.rating = r[c].rating;
		me.rd = r[c].rd;
		me.volatility = r[c].volatility;
		game.opp_rating = r[!c].rating;
		game.opp_rd = r[!c].rd;
		game.score = c == 0 ? score : 1 - score;
		if (glicko_update(&me, &game, 1, &cfg, &after[c], NULL) !=
		    GLICKO_OK)
			after[c] = me;
	}
	for (c = 0; c < 2; c++) {
		memset(&e, 0, sizeof e);
		e.player_id = c == 0 ? row->white : row->black;
		e.game_id = row->id;
		e.opponent_id = c == 0 ? row->black : row->white;
		e.score = c == 0 ? score : 1 - score;
		e.at = now;
		e.rating_before = r[c].rating;
		e.rd_before = r[c].rd;
		e.rating = after[c].rating;
		e.rd = after[c].rd;
		e.volatility = after[c].volatility;
		r[c].rating = after[c].rating;
		r[c].rd = after[c].rd;
		r[c].volatility = after[c].volatility;
		r[c].games++;
		r[c].updated = now;
		if (store_rating_history_add(svc->wstore, &e) != STORE_OK ||
		    store_rating_set(svc->wstore, &r[c]) != STORE_OK)
			return -1;
	}
	return 0;
}

/*
 * The Elo tag of colour `c` of a game, rounded, into *elo: the rating the
 * player had when the game was rated, else their current one. -1 when
 * they have none (or on a store failure).
 */
int
rating_elo(struct store *st, const struct store_game *row, int c, int *elo)
{
	struct store_rating_entry	e;
	struct store_rating		r;
	int64_t				id = c == 0 ? row->white : row->black;

	if (store_rating_history_get(st, row->id, id, &e) == STORE_OK) {
		*elo = (int)lround(e.rating_before);
		return 0;
	}
	if (store_rating_get(st, id, &r) == STORE_OK) {
		*elo = (int)lround(r.rating);
		return 0;
	}
	return -1;
}

/* Give the Elo of both players of a game, as its PGN tags have them. */
int
service_game_elo(struct service *svc, const struct store_game *row,
    int elo[2], struct service_error *err)
{
	struct store	*st;
	int		 c;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	for (c = 0; c < 2; c++)
		if (rating_elo(st, row, c, &elo[c]) != 0)
			elo[c] = -1;
	pool_put(svc, st);
	return 0;
}

/* What a listing of ratings walks with. */
struct rating_walk {
	const struct service	*svc;
	service_rating_cb	 cb;
	void			*arg;
};

/* Hand one rating, marked, to the caller's callback. */
static int
rating_one(void *arg, const struct store_rating *r)
{
	struct rating_walk	*w = arg;
	struct service_rating	 sr;

	sr.r = *r;
	sr.provisional = r->rd > w->svc->ratings.provisional_rd;
	return w->cb(w->arg, &sr);
}

/* List the rated players, best first. */
int
service_rating_list(struct service *svc, service_rating_cb cb, void *arg,
    struct service_error *err)
{
	struct rating_walk	 w = { svc, cb, arg };
	struct store		*st;
	int			 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_rating_list(st, rating_one, &w) != STORE_OK)
		rc = service_store_fail(err, st, "list the ratings");
	pool_put(svc, st);
	return rc;
}

/* Read a player's rating and history. */
int
service_rating_get(struct service *svc, const char *name,
    struct service_rating *out, store_rating_entry_cb cb, void *arg,
    struct service_error *err)
{
	struct store		*st;
	struct store_player	 p;
	int			 rc = -1;

	memset(out, 0, sizeof *out);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_player_get_by_name(st, name, &p) != STORE_OK) {
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
		goto out;
	}
	switch (store_rating_get(st, p.id, &out->r)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		service_fail(err, 404, "not-rated",
		    "%s has played no rated game yet", name);
		goto out;
	default:
		service_store_fail(err, st, "read the rating");
		goto out;
	}
	out->provisional = out->r.rd > svc->ratings.provisional_rd;
	if (cb != NULL && store_rating_history_list(st, p.id, cb, arg) !=
	    STORE_OK) {
		service_store_fail(err, st, "read the rating history");
		goto out;
	}
	rc = 0;
 out:
	pool_put(svc, st);
	return rc;
}
