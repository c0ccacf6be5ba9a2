/*
 * service/rebuild.c: games rebuilt from their stored records; their caches.
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

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "service/service_int.h"

/* The players' messages of a game, as they are read from its records
 * (v NULL: none kept). */
struct msgs {
	struct service_message	**v;
	size_t			 *n, *cap;
};

/* Where a rebuild writes: the state, the SAN list, the messages, the
 * records counted. */
struct rebuild {
	const struct store_game	 *row;
	struct game		 *state;
	char			(**san)[CHESS_SAN_MAX];
	size_t			 *sancap;
	struct msgs		  msgs;
	int64_t			  nrec;
	struct service_error	 *err;
	int			  rc;
	/* Records whose live events are noted (live_replay()), or NULL. */
	struct live_list	 *live;
	int64_t			  first, last;
};

/* Make room for one more SAN entry. */
static int
san_reserve(char (**san)[CHESS_SAN_MAX], size_t *cap, size_t n)
{
	char	(*p)[CHESS_SAN_MAX];

	if ((p = service_grow(*san, cap, n, sizeof *p, 128)) == NULL)
		return -1;
	*san = p;
	return 0;
}

/*
 * Read the message of record `a` into `out`, when its statement has one
 * (a conditional's answer carries the conditional's statement, which has
 * none; a record of the server's has no player).
 */
bool
record_message(const struct store_action *a, char *out, size_t size)
{
	return a->statement != NULL && a->player_id != 0 &&
	    sig_statement_message(a->statement, strlen(a->statement), out,
	    size) > 0;
}

/*
 * Note the message of record `a` of `row`'s game, when it has one. 0, or
 * -1 when out of memory.
 */
static int
msgs_note(struct msgs *m, const struct store_game *row,
    const struct store_action *a)
{
	struct service_message	 one, *p;

	if (m->v == NULL || !record_message(a, one.text, sizeof one.text))
		return 0;
	if ((p = service_grow(*m->v, m->cap, *m->n + 1, sizeof *p, 8)) ==
	    NULL)
		return -1;
	*m->v = p;
	one.seq = a->seq;
	one.ply = a->ply;
	one.color = row_color(row, a->player_id);
	snprintf(one.kind, sizeof one.kind, "%s", a->kind);
	p[(*m->n)++] = one;
	return 0;
}

/* Find the colour `player_id` plays in `row`, or -1. */
int
row_color(const struct store_game *row, int64_t player_id)
{
	if (player_id == row->white)
		return CHESS_WHITE;
	if (player_id == row->black)
		return CHESS_BLACK;
	return -1;
}

/* Map a stored action kind to a game action kind; 0 if not a player's. */
enum game_action_kind
kind_parse(const char *kind, bool *offer)
{
	*offer = false;
	if (strcmp(kind, "move") == 0 ||
	    strcmp(kind, "conditional-move") == 0)
		return GAME_ACT_MOVE;
	if (strcmp(kind, "move-offer-draw") == 0) {
		*offer = true;
		return GAME_ACT_MOVE;
	}
	if (strcmp(kind, "accept-draw") == 0)
		return GAME_ACT_ACCEPT_DRAW;
	if (strcmp(kind, "decline-draw") == 0)
		return GAME_ACT_DECLINE_DRAW;
	if (strcmp(kind, "resign") == 0)
		return GAME_ACT_RESIGN;
	if (strcmp(kind, "claim-draw") == 0)
		return GAME_ACT_CLAIM_DRAW;
	return 0;
}

/*
 * Apply `a` to `g`, appending the SAN of a move it plays. GAME_OK or the
 * refusal, as game_apply().
 */
enum game_refusal
apply_recording_san(struct game *g, const struct game_action *a,
    char (**san)[CHESS_SAN_MAX], size_t *sancap, char *why, size_t whysize)
{
	struct chess_position	before = g->chess.pos;
	size_t			ply = g->chess.nply;
	enum game_refusal	rc;

	if (san_reserve(san, sancap, ply + 1) != 0)
		return GAME_ENOMEM;
	rc = game_apply(g, a, why, whysize);
	if (g->chess.nply > ply)
		chess_move_san(&before, g->chess.moves[ply], CHESS_LANG_EN,
		    (*san)[ply], CHESS_SAN_MAX);
	return rc;
}

/* Replay one stored record. */
static int
rebuild_apply(struct rebuild *rb, const struct store_action *a)
{
	struct game_action	 ga;
	enum game_refusal	 rc;
	char			 why[256];
	bool			 offer;

	rb->nrec++;
	if (strcmp(a->kind, "flag") == 0) {
		game_check_time(rb->state, a->at);
		return 0;
	}
	/* The leave itself comes from the leaves table (leaves_load()):
	 * it stops the clocks of games created after it too. */
	if (strcmp(a->kind, "leave") == 0)
		return 0;
	memset(&ga, 0, sizeof ga);
	/* The admin's: the result is the statement's (kept in `move`). */
	if (strcmp(a->kind, "abort") == 0 ||
	    strcmp(a->kind, "adjudicate") == 0) {
		ga.kind = a->kind[1] == 'b' ? GAME_ACT_ABORT :
		    GAME_ACT_ADJUDICATE;
		ga.result = game_result_parse(a->move);
		ga.color = -1;
		ga.at = a->at;
		rc = game_apply(rb->state, &ga, why, sizeof why);
		if (rc == GAME_OK)
			return 0;
		goto bad;
	}
	if ((ga.kind = kind_parse(a->kind, &offer)) == 0)
		goto bad;
	ga.offer_draw = offer;
	ga.color = row_color(rb->row, a->player_id);
	ga.move = a->san[0] != '\0' ? a->san : NULL;
	ga.lang = CHESS_LANG_EN;
	ga.at = a->at;
	rc = apply_recording_san(rb->state, &ga, rb->san, rb->sancap, why,
	    sizeof why);
	if (rc == GAME_OK) {
		if (msgs_note(&rb->msgs, rb->row, a) == 0)
			return 0;
		rb->rc = service_fail(rb->err, 500, "internal",
		    "out of memory");
		return -1;
	}
	log_warnx("game %" PRId64 ": record %" PRId64 " (%s %s) does not "
	    "replay: %s", a->game_id, a->seq, a->kind, a->san, why);
 bad:
	rb->rc = service_fail(rb->err, 500, "internal",
	    "the stored record of game %" PRId64 " does not replay", a->game_id);
	return -1;
}

/* Replay one stored record, noting its live events when asked. */
static int
rebuild_one(void *arg, const struct store_action *a)
{
	struct rebuild		*rb = arg;
	struct store_game	 row;
	bool			 was_ongoing = game_ongoing(rb->state);

	if (rebuild_apply(rb, a) != 0)
		return -1;
	if (rb->live != NULL && a->seq >= rb->first && a->seq <= rb->last) {
		/* The row as the writer had it after this record. */
		row = *rb->row;
		row_update_state(&row, rb->state, a->at, a->hash);
		live_record_to(rb->live, &row, rb->state, a, was_ongoing,
		    a->at);
	}
	return 0;
}

/* Fill game parameters from a stored row. */
static int
row_params(const struct store_game *row, struct game_params *gp,
    struct service_error *err)
{
	char		why[128];
	unsigned	flags = 0;

	memset(gp, 0, sizeof *gp);
	if (strcmp(row->variant, "chess960") == 0)
		flags |= CHESS_FEN_960;
	if (chess_fen_parse(&gp->start, row->start_fen, flags) != CHESS_OK ||
	    game_tc_parse(&gp->tc, row->time_control, why, sizeof why) != 0 ||
	    game_policy_parse(row->policy, &gp->policy) != 0)
		return service_fail(err, 500, "internal",
		    "game %" PRId64 " is stored with bad parameters", row->id);
	gp->created = row->created;
	return 0;
}

/* Where a player's leaves go: a game and a colour. */
struct leave_load {
	struct game	*g;
	int		 color;
	int		 rc;
};

/* Stop one colour's clock for one leave. */
static int
leave_one(void *arg, const struct store_leave *l)
{
	struct leave_load	*ll = arg;

	if (game_leave_add(ll->g, ll->color, l->start, l->until) != 0) {
		ll->rc = -1;
		return -1;
	}
	return 0;
}

/* Stop a game's clocks for its players' leaves (those ending after the
 * game began). */
int
leaves_load(struct store *st, const struct store_game *row, struct game *g,
    struct service_error *err)
{
	struct leave_load	ll;
	int			c;

	for (c = 0; c < 2; c++) {
		memset(&ll, 0, sizeof ll);
		ll.g = g;
		ll.color = c;
		if (store_leave_list(st, c == CHESS_WHITE ? row->white :
		    row->black, row->created, leave_one, &ll) != STORE_OK) {
			if (ll.rc != 0)
				return service_fail(err, 500, "internal",
				    "out of memory");
			return service_store_fail(err, st,
			    "read the players' leaves");
		}
	}
	return 0;
}

/* Rebuild a game's state from its row and records, noting the live
 * events of records first..last into `live` (or NULL). */
static int
rebuild_live(struct store *st, const struct store_game *row,
    struct game *state, char (**san)[CHESS_SAN_MAX], size_t *sancap,
    struct msgs msgs, int64_t *nrec, struct service_error *err,
    struct live_list *live, int64_t first, int64_t last)
{
	struct game_params	gp;
	struct store_game_rules	gr;
	struct rebuild		rb = { row, state, san, sancap, msgs, 0, err,
				    0, live, first, last };

	game_free(state);
	if (msgs.n != NULL)
		*msgs.n = 0;
	if (row_params(row, &gp, err) != 0)
		return -1;
	if (store_game_rules_get(st, row->id, &gr) != STORE_OK)
		return service_store_fail(err, st, "read the game's rules");
	gp.draw_min_move = gr.draw_min_move;
	gp.draw_offer_every = gr.draw_offer_every;
	if (game_init(state, &gp) != 0)
		return service_fail(err, 500, "internal", "out of memory");
	if (leaves_load(st, row, state, err) != 0)
		return -1;
	if (store_action_list(st, row->id, rebuild_one, &rb) != STORE_OK) {
		if (rb.rc != 0)
			return -1;
		return service_store_fail(err, st, "read the game's record");
	}
	if (nrec != NULL)
		*nrec = rb.nrec;
	return 0;
}

/* Rebuild a game's state from its row and records, and its messages. */
static int
rebuild(struct store *st, const struct store_game *row, struct game *state,
    char (**san)[CHESS_SAN_MAX], size_t *sancap, struct msgs msgs,
    int64_t *nrec, struct service_error *err)
{
	return rebuild_live(st, row, state, san, sancap, msgs, nrec, err,
	    NULL, 0, 0);
}

/*
 * Note into `out` the live events of game `id` that another server's
 * writer noted (listen.c), read with handle `st` after its commit: those of
 * its records first..last (0, 0: none), then, when `kind` is
 * SERVICE_LIVE_START or SERVICE_LIVE_CLOCK, one of that kind at `now`
 * (a reminder's threshold `warning`).
 */
int
live_replay(struct store *st, int64_t id, int64_t first, int64_t last,
    int kind, int64_t warning, int64_t now, struct live_list *out,
    struct service_error *err)
{
	struct store_game	  row;
	struct game		  g;
	char			(*san)[CHESS_SAN_MAX] = NULL;
	size_t			  sancap = 0;
	struct msgs		  none = { NULL, NULL, NULL };
	int			  rc = -1;

	memset(&g, 0, sizeof g);
	if (row_get(st, id, &row, err) != 0)
		return -1;
	if (rebuild_live(st, &row, &g, &san, &sancap, none, NULL, err, out,
	    first, last) != 0)
		goto out;
	if (kind == SERVICE_LIVE_START)
		live_note_to(out, SERVICE_LIVE_START, &row, &g, -1, NULL,
		    row.created);
	else if (kind == SERVICE_LIVE_CLOCK) {
		live_note_to(out, SERVICE_LIVE_CLOCK, &row, &g, -1, NULL, now);
		if (out->n > 0)
			out->v[out->n - 1].warning = warning;
	}
	rc = 0;
 out:
	game_free(&g);
	free(san);
	return rc;
}

/* Copy the state into the row's state columns. */
void
row_update_state(struct store_game *row, const struct game *g, int64_t now,
    const uint8_t head[STORE_HASH_LEN])
{
	snprintf(row->status, sizeof row->status, "%s",
	    game_ongoing(g) ? "ongoing" : "finished");
	snprintf(row->result, sizeof row->result, "%s",
	    game_result_name(g->result));
	snprintf(row->termination, sizeof row->termination, "%s",
	    game_termination_name(g->termination));
	row->ply = (int)g->chess.nply;
	chess_fen_write(&g->chess.pos, row->fen, sizeof row->fen);
	row->turn = game_turn(g);
	row->draw_offer = g->draw_offer;
	row->deadline = game_deadline(g);
	memcpy(row->head, head, STORE_HASH_LEN);
	row->updated = now;
}

/* Get the writer's cached state of a game, rebuilt when stale. */
struct cached *
cache_get(struct service *svc, const struct store_game *row,
    struct service_error *err)
{
	struct cached	*c = &svc->cache[(uint64_t)row->id % SERVICE_CACHE_SLOTS];
	struct msgs	 m = { &c->msgs, &c->nmsgs, &c->msgcap };

	if (c->id == row->id && memcmp(c->head, row->head, STORE_HASH_LEN) == 0)
		return c;
	c->id = 0;
	if (rebuild(svc->wstore, row, &c->state, &c->san, &c->sancap, m,
	    &c->nrec, err) != 0 ||
	    game_rules_read(svc, svc->wstore, row->id, &c->rules, err) != 0)
		return NULL;
	c->id = row->id;
	memcpy(c->head, row->head, STORE_HASH_LEN);
	return c;
}

/* Empty the writer's cache slot of a game (0: none) after undone work. */
void
cache_forget(struct service *svc, int64_t id)
{
	if (id != 0)
		svc->cache[(uint64_t)id % SERVICE_CACHE_SLOTS].id = 0;
}

/* Append a record and store the game's new state; -1 on store failure. */
int
record_append(struct service *svc, struct store_game *row, struct cached *c,
    struct store_action *a, const uint8_t *sigbytes, size_t siglen,
    int64_t now)
{
	const char	*stmt = a->statement != NULL ? a->statement : a->kind;
	bool		 was_ongoing = strcmp(row->status, "ongoing") == 0;
	struct msgs	 m = { &c->msgs, &c->nmsgs, &c->msgcap };

	a->game_id = row->id;
	a->seq = c->nrec + 1;
	a->at = now;
	memcpy(a->prev_hash, row->head, STORE_HASH_LEN);
	sig_record_hash(row->head, (const uint8_t *)stmt, strlen(stmt),
	    sigbytes, siglen, a->hash);
	if (store_action_append(svc->wstore, a) != STORE_OK ||
	    msgs_note(&m, row, a) != 0)
		return -1;
	row_update_state(row, &c->state, now, a->hash);
	/* Most records leave the game going: its status stays, and so do
	 * the status's four indexes. */
	if ((was_ongoing && game_ongoing(&c->state) ?
	    store_game_update_play(svc->wstore, row) :
	    store_game_update(svc->wstore, row)) != STORE_OK)
		return -1;
	c->nrec++;
	memcpy(c->head, a->hash, STORE_HASH_LEN);
	live_record(svc, row, c, a, was_ongoing, now);
	/* The game's event (ratings, standings) hears of its end in the
	 * same transaction. */
	if (was_ongoing && strcmp(row->status, "ongoing") != 0)
		return event_game_over(svc, row, now);
	return 0;
}

/* Record that a game's flag fell: a record of its own, signed by no one. */
int
record_flag(struct service *svc, struct store_game *row, struct cached *c,
    int64_t now)
{
	struct store_action	a;

	memset(&a, 0, sizeof a);
	a.ply = (int)c->state.chess.nply;
	snprintf(a.kind, sizeof a.kind, "flag");
	snprintf(a.source, sizeof a.source, "clock");
	if (record_append(svc, row, c, &a, NULL, 0, now) != 0 ||
	    cond_game_over(svc, row, now) != 0)
		return -1;
	return notify_game(svc, svc->wstore, row, &c->state, c->san,
	    NOTICE_GAME_OVER, -1, -1, now);
}

/* Copy a game view: row, state and SAN. 0, or -1 when out of memory. */
int
view_copy(struct service_game *dst, const struct service_game *src)
{
	size_t	n = src->state.chess.nply;

	memset(dst, 0, sizeof *dst);
	dst->row = src->row;
	dst->now = src->now;
	dst->rules = src->rules;
	if (game_copy(&dst->state, &src->state) != 0)
		return -1;
	if ((dst->san = malloc((n + 1) * sizeof *dst->san)) == NULL) {
		game_free(&dst->state);
		return -1;
	}
	if (n > 0)
		memcpy(dst->san, src->san, n * sizeof *dst->san);
	if (src->nmsgs > 0) {
		if ((dst->msgs = malloc(src->nmsgs * sizeof *dst->msgs)) ==
		    NULL) {
			service_game_free(dst);
			return -1;
		}
		memcpy(dst->msgs, src->msgs, src->nmsgs * sizeof *dst->msgs);
		dst->nmsgs = src->nmsgs;
	}
	return 0;
}

/* Fill `out` from the view cache when it holds this row's game. */
static bool
view_get(struct service *svc, const struct store_game *row,
    struct service_game *out)
{
	struct service_game	*v = &svc->views[(uint64_t)row->id %
	    SERVICE_VIEW_SLOTS];
	bool			 hit = false;

	pthread_mutex_lock(&svc->view_lock);
	if (v->row.id == row->id && v->san != NULL &&
	    memcmp(v->row.head, row->head, STORE_HASH_LEN) == 0 &&
	    v->row.updated == row->updated)
		hit = view_copy(out, v) == 0;
	pthread_mutex_unlock(&svc->view_lock);
	if (hit)
		out->row = *row;
	return hit;
}

/* Keep a copy of a game view for later readers. */
void
view_put(struct service *svc, const struct service_game *g)
{
	struct service_game	*v = &svc->views[(uint64_t)g->row.id %
	    SERVICE_VIEW_SLOTS];
	struct service_game	 copy;

	if (view_copy(&copy, g) != 0)
		return;
	pthread_mutex_lock(&svc->view_lock);
	service_game_free(v);
	*v = copy;
	pthread_mutex_unlock(&svc->view_lock);
}

/* Keep a game view in the view cache without a copy (service.h). */
void
service_game_keep(struct service *svc, struct service_game *g)
{
	struct service_game	*v, old;

	service_conditional_free(g->cond);
	g->cond = NULL;
	if (g->row.id == 0 || g->san == NULL) {
		service_game_free(g);
		return;
	}
	v = &svc->views[(uint64_t)g->row.id % SERVICE_VIEW_SLOTS];
	pthread_mutex_lock(&svc->view_lock);
	old = *v;
	*v = *g;
	pthread_mutex_unlock(&svc->view_lock);
	service_game_free(&old);
	memset(g, 0, sizeof *g);
}

/* Read with handle `st` what game `id` keeps beside its row: rated or
 * not, its leave allowance (its event's, else the server's) and its auth
 * rule. */
int
game_rules_read(struct service *svc, struct store *st, int64_t id,
    struct service_game_rules *out, struct service_error *err)
{
	struct store_game_rules	gr;
	struct store_event	e;

	if (store_game_rules_get(st, id, &gr) != STORE_OK)
		return service_store_fail(err, st, "read the game's rules");
	if (store_game_auth_get(st, id, out->auth) != STORE_OK)
		return service_store_fail(err, st, "read the game's auth");
	out->rated = gr.rated;
	out->leave_days = svc->leave_days;
	switch (store_event_get_by_game(st, id, &e, NULL)) {
	case STORE_OK:
		if (e.leave_days >= 0)
			out->leave_days = e.leave_days;
		return 0;
	case STORE_NOTFOUND:
		return 0;
	default:
		return service_store_fail(err, st, "read the game's event");
	}
}

/* Read a game's row with handle `st`: 404 when there is none. */
int
row_get(struct store *st, int64_t id, struct store_game *row,
    struct service_error *err)
{
	enum store_status	ss;

	ss = store_game_get(st, id, row);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 404, "no-such-game",
		    "there is no game %" PRId64, id);
	if (ss != STORE_OK)
		return service_store_fail(err, st, "read the game");
	return 0;
}

/*
 * Read and rebuild a game with handle `st`, or take it from the view
 * cache. What the writer reads may not be committed yet: it is not kept
 * for readers.
 */
int
rebuild_read(struct service *svc, struct store *st, int64_t id, int64_t now,
    struct service_game *out, struct service_error *err)
{
	size_t		 cap = 0, mcap = 0;
	struct msgs	 m = { &out->msgs, &out->nmsgs, &mcap };

	memset(out, 0, sizeof *out);
	out->now = now;
	if (row_get(st, id, &out->row, err) != 0)
		return -1;
	if (view_get(svc, &out->row, out)) {
		out->now = now;
		return 0;
	}
	if (rebuild(st, &out->row, &out->state, &out->san, &cap, m, NULL,
	    err) != 0 ||
	    game_rules_read(svc, st, id, &out->rules, err) != 0) {
		service_game_free(out);
		return -1;
	}
	if (st != svc->wstore)
		view_put(svc, out);
	return 0;
}
