/*
 * service/games.c: games: created, read, listed, their records.
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

#include <sodium.h>

#include "service/service_int.h"

/* Add a listed game's id, once. */
int
id_collect(void *arg, const struct store_game *g)
{
	struct id_list	*l = arg;
	int64_t		*p;
	size_t		 i;

	l->listed++;
	for (i = 0; i < l->n; i++)
		if (l->ids[i] == g->id)
			return 0;
	if ((p = service_grow(l->ids, &l->cap, l->n, sizeof *p, 64)) == NULL)
		return -1;
	l->ids = p;
	l->ids[l->n++] = g->id;
	return 0;
}

/* Release a game view. */
void
service_game_free(struct service_game *g)
{
	if (g == NULL)
		return;
	game_free(&g->state);
	free(g->san);
	g->san = NULL;
	free(g->msgs);
	g->msgs = NULL;
	g->nmsgs = 0;
	service_conditional_free(g->cond);
	g->cond = NULL;
}

/* Write the move a message came with. */
void
service_message_move(const struct service_game *g,
    const struct service_message *m, enum chess_lang lang, char *buf,
    size_t size)
{
	const struct chess_position	*start = &g->state.chess.start;
	struct chess_position		 pos = *start;
	char				 san[CHESS_SAN_MAX];
	size_t				 n = (size_t)m->ply +
					    (start->side == CHESS_BLACK), k;

	if (size > 0)
		buf[0] = '\0';
	if ((strcmp(m->kind, "move") != 0 &&
	    strcmp(m->kind, "move-offer-draw") != 0) || m->ply < 0 ||
	    (size_t)m->ply >= g->state.chess.nply)
		return;
	if (lang == CHESS_LANG_EN)
		snprintf(san, sizeof san, "%s", g->san[m->ply]);
	else {
		for (k = 0; k < (size_t)m->ply; k++)
			chess_position_make(&pos, g->state.chess.moves[k]);
		chess_move_san(&pos, g->state.chess.moves[m->ply], lang, san,
		    sizeof san);
	}
	snprintf(buf, size, "%zu%s%s", start->fullmove + n / 2,
	    n % 2 == 1 ? "..." : ". ", san);
}

/* Read a game; a game whose flag fell is ended (and stored) first. */
int
service_game_get(struct service *svc, int64_t id, struct service_game *out,
    struct service_error *err)
{
	struct store	*st;
	struct job	 j = { .kind = JOB_FLAG, .game_id = id, .err = err };
	int64_t		 now = service_now(svc);
	int		 rc;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = rebuild_read(svc, st, id, now, out, err);
	if (rc == 0 && game_ongoing(&out->state) &&
	    game_check_time(&out->state, now)) {
		service_game_free(out);
		if ((rc = writer_submit(svc, &j)) == 0)
			rc = rebuild_read(svc, st, id, now, out, err);
	}
	pool_put(svc, st);
	return rc;
}

/* List games. */
int
service_game_list(struct service *svc, const struct store_game_filter *f,
    store_game_cb cb, void *arg, struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	switch (store_game_list(st, f, cb, arg)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		rc = service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", f->player ? f->player : "");
		break;
	default:
		rc = service_store_fail(err, st, "list the games");
		break;
	}
	pool_put(svc, st);
	return rc;
}

/* Read a game's creation record. */
int
service_game_creation(struct service *svc, int64_t id,
    struct store_creation *out, struct service_error *err)
{
	struct store		*st;
	struct store_game	 row;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (row_get(st, id, &row, err) == 0) {
		switch (store_game_creation_get(st, id, out)) {
		case STORE_OK:
			rc = 1;
			break;
		case STORE_NOTFOUND:
			rc = 0;
			break;
		default:
			service_store_fail(err, st, "read the game's creation "
			    "record");
			break;
		}
	}
	pool_put(svc, st);
	return rc;
}

/* Walk a game's signed record in order. */
int
service_game_records(struct service *svc, int64_t id, service_record_cb cb,
    void *arg, struct service_error *err)
{
	struct store		*st;
	struct store_game	 row;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (row_get(st, id, &row, err) == 0) {
		if (store_action_list(st, id, cb, arg) == STORE_OK)
			rc = 0;
		else
			service_store_fail(err, st, "read the game's record");
	}
	pool_put(svc, st);
	return rc;
}

/*
 * Check a new game's parameters and fill its row and its state at `now`,
 * looking its players up in `st`; the caller frees *g (game_free()) on
 * success and on failure alike.
 */
int
game_prepare(struct store *st, const struct service_game_params *gp,
    int64_t now, struct store_game *row, struct game *g,
    struct service_error *err)
{
	struct store_player	 w, b;
	struct game_params	 params;
	struct game_tc		 tc;
	enum game_policy	 policy = GAME_POLICY_AUTO;
	enum chess_error	 ce;
	const char		*variant = gp->variant ? gp->variant : "standard";
	char			 why[256];
	int			 number = -1;

	memset(row, 0, sizeof *row);
	memset(&params, 0, sizeof params);
	memset(g, 0, sizeof *g);
	memset(&tc, 0, sizeof tc);
	if (gp->white == NULL || gp->black == NULL)
		return service_fail(err, 400, "bad-game",
		    "a game needs \"white\" and \"black\" player names");
	if (strcmp(gp->white, gp->black) == 0)
		return service_fail(err, 400, "bad-game",
		    "a player cannot play against themselves");
	if (strcmp(variant, "standard") == 0 && gp->chess960 >= 0)
		return service_fail(err, 400, "bad-game",
		    "a Chess960 start number needs variant \"chess960\"");
	if (strcmp(variant, "standard") == 0) {
		if (gp->fen != NULL) {
			ce = chess_fen_parse(&params.start, gp->fen, 0);
			if (ce != CHESS_OK)
				return service_fail(err, 400, "bad-fen",
				    "bad start position: %s", chess_strerror(ce));
		} else
			chess_position_start(&params.start);
	} else if (strcmp(variant, "chess960") == 0) {
		if (gp->fen != NULL) {
			ce = chess_fen_parse(&params.start, gp->fen,
			    CHESS_FEN_960);
			if (ce != CHESS_OK)
				return service_fail(err, 400, "bad-fen",
				    "bad start position: %s", chess_strerror(ce));
		} else {
			number = gp->chess960 >= 0 ? gp->chess960 :
			    (int)randombytes_uniform(960);
			if (chess_position_960(&params.start, number) !=
			    CHESS_OK)
				return service_fail(err, 400, "bad-chess960",
				    "%s", chess_strerror(CHESS_E960_NUMBER));
		}
	} else
		return service_fail(err, 400, "bad-variant",
		    "variant must be \"standard\" or \"chess960\"");
	if (game_tc_parse(&tc, gp->time_control ? gp->time_control : "none",
	    why, sizeof why) != 0)
		return service_fail(err, 400, "bad-time-control",
		    "bad time control: %s (examples: \"3d/move\", \"10/50d\", "
		    "\"30d+1d\", \"none\")", why);
	if (gp->policy != NULL && game_policy_parse(gp->policy, &policy) != 0)
		return service_fail(err, 400, "bad-policy",
		    "policy must be \"auto\" or \"claim\"");
	if (gp->auth != NULL && service_auth_valid(gp->auth) != 0)
		return service_fail(err, 400, "bad-auth",
		    "auth must be \"signed\" or \"signed-or-attested\"");
	if (gp->draw_min_move < 0 || gp->draw_offer_every < 0)
		return service_fail(err, 400, "bad-draw-rule",
		    "the draw rules are move numbers, 0 for none");
	params.tc = tc;
	params.policy = policy;
	params.created = now;
	params.draw_min_move = gp->draw_min_move;
	params.draw_offer_every = gp->draw_offer_every;

	if (store_player_get_by_name(st, gp->white, &w) != STORE_OK)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", gp->white);
	if (store_player_get_by_name(st, gp->black, &b) != STORE_OK)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", gp->black);
	row->white = w.id;
	row->black = b.id;
	snprintf(row->variant, sizeof row->variant, "%s", variant);
	row->chess960 = number;
	chess_fen_write(&params.start, row->start_fen, sizeof row->start_fen);
	game_tc_format(&tc, row->time_control, sizeof row->time_control);
	snprintf(row->policy, sizeof row->policy, "%s",
	    game_policy_name(policy));
	if (field_copy(row->event, sizeof row->event, gp->event, "event",
	    "bad-game", err) != 0 ||
	    field_copy(row->site, sizeof row->site, gp->site, "site",
	    "bad-game", err) != 0 ||
	    field_copy(row->round, sizeof row->round, gp->round, "round",
	    "bad-game", err) != 0)
		return -1;
	row->created = now;
	snprintf(row->white_name, sizeof row->white_name, "%s", w.name);
	snprintf(row->black_name, sizeof row->black_name, "%s", b.name);
	if (game_init(g, &params) != 0)
		return service_fail(err, 500, "internal", "out of memory");
	return 0;
}

/* Create a game (admin). */
int
service_game_create(struct service *svc, const struct service_game_params *gp,
    struct service_game *out, struct service_error *err)
{
	struct store		*st = NULL;
	struct store_game	 row;
	struct game		 g;
	int64_t			 now = service_now(svc);
	struct job		 j = { .kind = JOB_GAME_CREATE, .err = err,
				       .u.game_create = { .row = &row,
				       .g = &g, .now = now,
				       .auth = gp->auth,
				       .rated = gp->rated >= 0 ? gp->rated == 1 :
				       svc->rated_default } };
	int			 rc = -1;

	memset(&g, 0, sizeof g);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (game_prepare(st, gp, now, &row, &g, err) != 0 ||
	    writer_submit(svc, &j) != 0)
		goto out;
	rc = out != NULL ? rebuild_read(svc, st, row.id, now, out, err) : 0;
 out:
	game_free(&g);
	pool_put(svc, st);
	return rc;
}

/*
 * In the writer: write, sign and store the creation record of a game just
 * stored (sig/creation.h), and make its hash the head of the chain. A
 * server without a key writes none: its games verify as older ones do.
 * 0, or -1 (a store failure; a field the record refuses is a 500 too).
 */
static int
creation_insert(struct service *svc, struct store_game *row,
    const struct game *g, const char *auth, bool rated,
    struct service_error *err)
{
	static const uint8_t	 genesis[STORE_HASH_LEN];
	struct sig_creation	*c;
	struct store_creation	*sc;
	char			 why[160];
	int			 rc = -1;

	if (!svc->has_server_key)
		return 0;
	c = calloc(1, sizeof *c);
	sc = calloc(1, sizeof *sc);
	if (c == NULL || sc == NULL) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	c->game = (uint64_t)row->id;
	snprintf(c->white, sizeof c->white, "%s", row->white_name);
	snprintf(c->black, sizeof c->black, "%s", row->black_name);
	snprintf(c->variant, sizeof c->variant, "%s", row->variant);
	snprintf(c->start, sizeof c->start, "%s", row->start_fen);
	snprintf(c->time_control, sizeof c->time_control, "%s",
	    row->time_control);
	snprintf(c->policy, sizeof c->policy, "%s", row->policy);
	c->draw_min_move = (uint32_t)g->params.draw_min_move;
	c->draw_offer_every = (uint32_t)g->params.draw_offer_every;
	c->rated = rated;
	snprintf(c->auth, sizeof c->auth, "%s", auth);
	snprintf(c->event, sizeof c->event, "%s", row->event);
	snprintf(c->round, sizeof c->round, "%s", row->round);
	if (sig_creation_build(c, why, sizeof why) != 0) {
		service_fail(err, 500, "internal", "the game's creation record "
		    "cannot be written: %s", why);
		goto out;
	}
	memcpy(sc->record, c->canon, c->canon_len);
	sc->record[c->canon_len] = '\0';
	if (sig_sign(c->canon, c->canon_len, svc->server_sk,
	    sc->signature) != 0) {
		service_fail(err, 500, "internal", "the game's creation record "
		    "cannot be signed");
		goto out;
	}
	sig_record_hash(genesis, c->canon, c->canon_len, sc->signature,
	    sizeof sc->signature, sc->hash);
	memcpy(row->head, sc->hash, STORE_HASH_LEN);
	if (store_game_creation_set(svc->wstore, row->id, sc) != STORE_OK ||
	    store_game_update(svc->wstore, row) != STORE_OK) {
		service_store_fail(err, svc->wstore, "create the game");
		goto out;
	}
	rc = 0;
 out:
	free(c);
	free(sc);
	return rc;
}

/*
 * In the writer: store a new game made by game_prepare() and queue the
 * notices of it, together, with its auth rule (NULL: the server's
 * default) and its rules (rated or not; the draw rules of its state's
 * parameters); its deadline counts the leaves its players have taken. A
 * store failure is a 500 in `err`.
 */
int
game_insert(struct service *svc, struct store_game *row, struct game *g,
    const char *auth, bool rated, int64_t now, struct service_error *err)
{
	static const uint8_t	 genesis[STORE_HASH_LEN];
	struct store_game_rules	 rules = { rated, g->params.draw_min_move,
				     g->params.draw_offer_every };

	if (auth == NULL)
		auth = svc->auth_default;
	if (leaves_load(svc->wstore, row, g, err) != 0)
		return -1;
	row_update_state(row, g, now, genesis);
	if (store_game_create(svc->wstore, row) != STORE_OK ||
	    store_game_auth_set(svc->wstore, row->id, auth) != STORE_OK ||
	    store_game_rules_set(svc->wstore, row->id, &rules) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "create the game");
	if (creation_insert(svc, row, g, auth, rated, err) != 0)
		return -1;
	if (notify_game(svc, svc->wstore, row, g, NULL,
	    NOTICE_NEW_GAME, -1, -1, now) != 0)
		return service_store_fail(err, svc->wstore,
		    "create the game");
	live_note(svc, SERVICE_LIVE_START, row, g, -1, NULL, now);
	return 0;
}

/* In the writer: store a new game (game_insert()). */
int
job_game_create(struct service *svc, struct job *j, int64_t now)
{
	struct job_game_create	*gc = &j->u.game_create;

	(void)now;
	return game_insert(svc, gc->row, gc->g, gc->auth, gc->rated, gc->now,
	    j->err);
}
