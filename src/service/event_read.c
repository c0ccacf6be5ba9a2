/*
 * service/event_read.c: events read: their players and games, standings
 * and crosstable computed from them, listings, the event's PGN.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"
#include "util/buf.h"

/* Add an event's player to a list. */
static int
player_collect(void *arg, const struct store_event_player *ep)
{
	struct player_list		*l = arg;
	struct store_event_player	*p;

	if ((p = service_grow(l->v, &l->cap, l->n, sizeof *p, 16)) == NULL) {
		l->failed = true;
		return -1;
	}
	l->v = p;
	l->v[l->n++] = *ep;
	return 0;
}

/* Add an event's game to a list. */
static int
game_collect(void *arg, const struct store_event_game *eg)
{
	struct game_list	*l = arg;
	struct store_event_game	*p;

	if ((p = service_grow(l->v, &l->cap, l->n, sizeof *p, 32)) == NULL) {
		l->failed = true;
		return -1;
	}
	l->v = p;
	l->v[l->n++] = *eg;
	return 0;
}

/* Read an event's players and games from `st` into lists (either may be
 * NULL); -1 with the store's failure in `err`. */
int
event_lists(struct store *st, int64_t event_id, struct player_list *pl,
    struct game_list *gl, struct service_error *err)
{
	if (pl != NULL && store_event_player_list(st, event_id,
	    player_collect, pl) != STORE_OK)
		return service_store_fail(err, st, "read the event's players");
	if (gl != NULL && store_event_game_list(st, event_id, game_collect,
	    gl) != STORE_OK)
		return service_store_fail(err, st, "read the event's games");
	if ((pl != NULL && pl->failed) || (gl != NULL && gl->failed))
		return service_fail(err, 500, "internal", "out of memory");
	return 0;
}

/* Release an event read with service_event_get(). */
void
service_event_free(struct service_event *ev)
{
	if (ev == NULL)
		return;
	free(ev->players);
	free(ev->games);
	free(ev->rows);
	free(ev->grid);
	memset(ev, 0, sizeof *ev);
}

/* Give a game's result as the standings count it. */
static enum standings_result
game_standing(const struct store_event_game *g)
{
	if (strcmp(g->adjusted, "annulled") == 0)
		return STANDINGS_ANNULLED;
	if (strcmp(g->adjusted, "white-withdrew") == 0)
		return STANDINGS_WHITE_WITHDREW;
	if (strcmp(g->adjusted, "black-withdrew") == 0)
		return STANDINGS_BLACK_WITHDREW;
	if (strcmp(g->result, "1-0") == 0)
		return STANDINGS_WHITE_WINS;
	if (strcmp(g->result, "0-1") == 0)
		return STANDINGS_BLACK_WINS;
	if (strcmp(g->result, "1/2-1/2") == 0)
		return STANDINGS_DRAW;
	return STANDINGS_UNFINISHED;
}

/* Find a player's index among an event's players; -1 when absent. */
static int
player_index(const struct service_event *ev, int64_t player_id)
{
	size_t	i;

	for (i = 0; i < ev->nplayers; i++)
		if (ev->players[i].player_id == player_id)
			return (int)i;
	return -1;
}

/* Compute an event's standings and crosstable from its games. */
static int
event_standings(struct service_event *ev, struct service_error *err)
{
	struct standings_game	*sg = NULL;
	enum standings_error	 se;
	size_t			 i, cells;
	unsigned		 n = (unsigned)ev->nplayers;
	int			 w, b, rc = -1;

	if (service_event_tiebreaks(ev->e.tiebreaks, &ev->rules, err) != 0)
		return -1;
	if (strcmp(ev->e.format, "match") == 0)
		ev->rules.max_games = (unsigned)ev->e.games;
	else if (n > 1)
		ev->rules.max_games = (n - 1) * (strcmp(ev->e.format,
		    "double-round-robin") == 0 ? 2 : 1);
	if (n == 0)
		return 0;
	if ((ev->rows = calloc(n, sizeof *ev->rows)) == NULL ||
	    (sg = calloc(ev->ngames + 1, sizeof *sg)) == NULL)
		goto nomem;
	for (i = 0; i < ev->ngames; i++) {
		w = player_index(ev, ev->games[i].white);
		b = player_index(ev, ev->games[i].black);
		if (w < 0 || b < 0)
			goto broken;
		sg[i].white = (unsigned)w;
		sg[i].black = (unsigned)b;
		sg[i].result = game_standing(&ev->games[i]);
	}
	if ((se = standings_compute(n, sg, ev->ngames, &ev->rules, ev->rows,
	    NULL)) != STANDINGS_OK ||
	    (se = standings_crosstable_depth(n, sg, ev->ngames, &ev->depth,
	    NULL)) != STANDINGS_OK)
		goto bad;
	cells = (size_t)n * n * (ev->depth > 0 ? ev->depth : 1);
	if ((ev->grid = calloc(cells, sizeof *ev->grid)) == NULL)
		goto nomem;
	if (ev->depth > 0 && (se = standings_crosstable(n, sg, ev->ngames,
	    ev->depth, ev->grid, cells, NULL)) != STANDINGS_OK)
		goto bad;
	rc = 0;
	goto out;
 nomem:
	service_fail(err, 500, "internal", "out of memory");
	goto out;
 broken:
	service_fail(err, 500, "internal", "event %s lists a game of a "
	    "player who is not in it", ev->e.name);
	goto out;
 bad:
	service_fail(err, 500, "internal", "the standings of %s cannot be "
	    "computed: %s", ev->e.name, standings_strerror(se));
 out:
	free(sg);
	return rc;
}

/* Read an event by name from `st`, with its standings: for the readers
 * (service_event_get()) and for the writer, inside its transaction. */
int
event_read(struct service *svc, struct store *st, const char *name,
    struct service_event *out, struct service_error *err)
{
	struct player_list	 pl = { 0 };
	struct game_list	 gl = { 0 };
	int			 rc = -1;

	memset(out, 0, sizeof *out);
	switch (store_event_get_by_name(st, name, &out->e)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		service_fail(err, 404, "no-such-event",
		    "there is no event \"%s\"", name);
		goto out;
	default:
		service_store_fail(err, st, "read the event");
		goto out;
	}
	if (store_event_auth_get(st, out->e.id, out->auth) != STORE_OK) {
		service_store_fail(err, st, "read the event's auth");
		goto out;
	}
	if (out->auth[0] == '\0')
		snprintf(out->auth, sizeof out->auth, "%s", svc->auth_default);
	if (event_lists(st, out->e.id, &pl, &gl, err) != 0)
		goto out;
	out->players = pl.v;
	out->nplayers = pl.n;
	out->games = gl.v;
	out->ngames = gl.n;
	pl.v = NULL;
	gl.v = NULL;
	rc = event_standings(out, err);
 out:
	free(pl.v);
	free(gl.v);
	if (rc != 0)
		service_event_free(out);
	return rc;
}

/* Read an event with its standings. */
int
service_event_get(struct service *svc, const char *name,
    struct service_event *out, struct service_error *err)
{
	struct store	*st;
	int		 rc;

	memset(out, 0, sizeof *out);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = event_read(svc, st, name, out, err);
	pool_put(svc, st);
	return rc;
}

/* Set up the crosstable of an event read with service_event_get(); the
 * caller frees *players. -1 when out of memory. */
int
service_event_crosstable(const struct service_event *ev,
    struct crosstable *ct, struct crosstable_player **players)
{
	struct crosstable_player	*pl;
	size_t				 i;

	memset(ct, 0, sizeof *ct);
	if ((pl = calloc(ev->nplayers + 1, sizeof *pl)) == NULL)
		return -1;
	for (i = 0; i < ev->nplayers; i++) {
		pl[i].name = ev->players[i].name;
		pl[i].withdrawn = ev->players[i].withdrawn != 0;
	}
	ct->players = pl;
	ct->nplayers = (unsigned)ev->nplayers;
	ct->rules = &ev->rules;
	ct->rows = ev->rows;
	ct->grid = ev->grid;
	ct->depth = ev->depth;
	*players = pl;
	return 0;
}

/* List events, newest first. */
int
service_event_list(struct service *svc, store_event_cb cb, void *arg,
    struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_event_list(st, cb, arg) != STORE_OK)
		rc = service_store_fail(err, st, "list the events");
	pool_put(svc, st);
	return rc;
}

/* Every game of an event as PGN. */
char *
service_event_pgn(struct service *svc, const char *event, size_t *lenp,
    struct service_error *err)
{
	struct service_event	 ev;
	struct buf		 b = { 0 };
	char			*pgn, *res;
	size_t			 i, len;

	if (service_event_get(svc, event, &ev, err) != 0)
		return NULL;
	buf_adds(&b, "");
	for (i = 0; i < ev.ngames; i++) {
		if ((pgn = service_game_pgn(svc, ev.games[i].game_id, &len,
		    err)) == NULL) {
			buf_free(&b);
			service_event_free(&ev);
			return NULL;
		}
		if (i > 0)
			buf_adds(&b, "\n");
		buf_add(&b, pgn, len);
		free(pgn);
	}
	service_event_free(&ev);
	if ((res = buf_take(&b, lenp)) == NULL)
		service_fail(err, 500, "internal", "out of memory");
	return res;
}
