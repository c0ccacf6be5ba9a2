/*
 * service/conditional.c: conditional moves: recorded, answered in the
 * writer, ended.
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
 * A player waiting for the opponent signs a tree of lines (game/
 * conditional.h). It is kept apart from the record, where the opponent
 * cannot read it. When the opponent's move is committed, the writer looks
 * for the owner's answer in the same transaction and plays it through the
 * same game_apply() as any move: the record of the answer carries the
 * conditional's own statement and signature (so the chain shows that the
 * owner signed it in advance) and links to the conditional. A draw offer
 * with the opponent's move, a move no line has, or the end of the game
 * ends the conditional; so does the owner's own move when it leaves the
 * lines.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/conditional.h"
#include "service/service_int.h"

/* Copy a stored conditional for the owner's answer (and count its lines
 * left after the game's moves). NULL when out of memory. */
static struct service_conditional *
cond_view(const struct store_conditional *sc, const struct game_cond *gc,
    const struct cached *c)
{
	struct service_conditional	*v;
	size_t				 n;

	if ((v = calloc(1, sizeof *v)) == NULL)
		return NULL;
	v->id = sc->id;
	v->ply = sc->ply;
	v->played = sc->played;
	snprintf(v->status, sizeof v->status, "%s", sc->status);
	snprintf(v->reason, sizeof v->reason, "%s", sc->reason);
	if ((v->lines = strdup(sc->lines != NULL ? sc->lines : "")) == NULL) {
		free(v);
		return NULL;
	}
	n = c->state.chess.nply - (size_t)sc->ply;
	if (gc != NULL && strcmp(sc->status, "active") == 0)
		v->left = game_cond_left(gc, (const char (*)[CHESS_SAN_MAX])
		    c->san + sc->ply, n);
	return v;
}

/* Free an owner's view of a conditional; NULL is fine. */
void
service_conditional_free(struct service_conditional *v)
{
	if (v == NULL)
		return;
	free(v->lines);
	free(v);
}

/* Queue the owner's notice about their conditional (mail only). */
static int
cond_notify(struct service *svc, const struct store_game *row,
    const struct cached *c, int owner, enum notice_cond_event ev,
    const char *lines, const char *played, const char *reason, int64_t now)
{
	struct notice	n;

	if (!svc->mail)
		return 0;
	memset(&n, 0, sizeof n);
	n.kind = NOTICE_CONDITIONAL;
	n.actor = !owner;
	n.cond_event = ev;
	n.cond_lines = lines;
	n.cond_played = played;
	n.cond_reason = reason;
	/* The opponent's move that was answered may carry a message. */
	if (ev == NOTICE_COND_PLAYED)
		n.message = notify_message(c, !owner, 2);
	return notify_game_to(svc, row, c, &n, owner, now);
}

/* Read the player's active conditional: 1 found, 0 none, -1 store error. */
static int
cond_active(struct service *svc, int64_t game_id, int64_t player_id,
    struct store_conditional *sc, struct game_cond *gc)
{
	enum store_status	ss;

	ss = store_conditional_active(svc->wstore, game_id, player_id, sc);
	if (ss == STORE_NOTFOUND)
		return 0;
	if (ss != STORE_OK)
		return -1;
	if (game_cond_read(gc, sc->lines) != 0) {
		/* A stored tree we cannot read answers nothing. */
		memset(gc, 0, sizeof *gc);
	}
	return 1;
}

/*
 * Record, cancel or show a conditional (the statement's action), for the
 * player of colour `color`. The owner's view of it goes to *out.
 */
int
job_conditional(struct service *svc, const struct job_statement *s,
    struct service_error *err, struct store_game *row, struct cached *c,
    int color, int64_t now, struct service_conditional **out)
{
	const struct sig_action		*act = &s->st->action;
	struct store_conditional	 sc, old;
	struct game_cond		*gc = NULL, *oldc = NULL;
	char				 why[384], *lines = NULL;
	size_t				 size = 4 * SIG_LINES_MAX;
	int				 found, rc = -1;
	bool				 mail = strcmp(s->source, "mail") == 0;

	memset(&old, 0, sizeof old);
	if ((gc = calloc(1, sizeof *gc)) == NULL ||
	    (oldc = calloc(1, sizeof *oldc)) == NULL ||
	    (lines = malloc(size)) == NULL) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	if ((found = cond_active(svc, row->id, s->player_id, &old,
	    oldc)) < 0) {
		service_store_fail(err, svc->wstore, "read the conditional");
		goto out;
	}

	switch (act->kind) {
	case SIG_ACT_CONDITIONAL:
		why[0] = '\0';
		if (game_cond_check(&c->state, color, act->lines, s->lang, gc,
		    why, sizeof why) != 0) {
			service_fail(err, 422, "bad-conditional", "%s", why);
			goto out;
		}
		if (game_cond_format(gc, lines, size) >= size) {
			service_fail(err, 422, "bad-conditional",
			    s->lang == CHESS_LANG_FR ? "les lignes sont trop "
			    "longues une fois écrites en entier" :
			    "the lines are too long once written out");
			goto out;
		}
		if (found && store_conditional_end(svc->wstore, old.id,
		    "replaced", "replaced by a new conditional", now) !=
		    STORE_OK) {
			service_store_fail(err, svc->wstore,
			    "replace the conditional");
			goto out;
		}
		memset(&sc, 0, sizeof sc);
		sc.game_id = row->id;
		sc.player_id = s->player_id;
		sc.key_id = s->key_id;
		sc.ply = (int)game_ply(&c->state);
		sc.lines = lines;
		sc.statement = (char *)s->canon;
		sc.signature = (char *)s->sigtext;
		snprintf(sc.source, sizeof sc.source, "%s", s->source);
		sc.created = now;
		snprintf(sc.status, sizeof sc.status, "active");
		if (store_conditional_add(svc->wstore, &sc) != STORE_OK) {
			service_store_fail(err, svc->wstore,
			    "record the conditional");
			goto out;
		}
		if (mail && cond_notify(svc, row, c, color,
		    NOTICE_COND_RECORDED, lines, NULL, NULL, now) != 0) {
			service_store_fail(err, svc->wstore,
			    "queue the notice");
			goto out;
		}
		if (out != NULL)
			*out = cond_view(&sc, gc, c);
		break;
	case SIG_ACT_CANCEL_CONDITIONAL:
		if (!found) {
			service_fail(err, 409, "no-conditional",
			    s->lang == CHESS_LANG_FR ? "%s n'a pas de coups "
			    "conditionnels en attente dans la partie %" PRId64 :
			    "%s has no conditional moves waiting in game %"
			    PRId64, s->st->player, row->id);
			goto out;
		}
		if (store_conditional_end(svc->wstore, old.id, "cancelled",
		    "cancelled by the player", now) != STORE_OK) {
			service_store_fail(err, svc->wstore,
			    "cancel the conditional");
			goto out;
		}
		if (mail && cond_notify(svc, row, c, color,
		    NOTICE_COND_CANCELLED, old.lines, NULL, NULL, now) != 0) {
			service_store_fail(err, svc->wstore,
			    "queue the notice");
			goto out;
		}
		snprintf(old.status, sizeof old.status, "cancelled");
		snprintf(old.reason, sizeof old.reason,
		    "cancelled by the player");
		if (out != NULL)
			*out = cond_view(&old, NULL, c);
		break;
	default:	/* SIG_ACT_SHOW_CONDITIONAL: a read, signed */
		if (!found) {
			service_fail(err, 404, "no-conditional",
			    s->lang == CHESS_LANG_FR ? "%s n'a pas de coups "
			    "conditionnels en attente dans la partie %" PRId64 :
			    "%s has no conditional moves waiting in game %"
			    PRId64, s->st->player, row->id);
			goto out;
		}
		if (mail && cond_notify(svc, row, c, color,
		    NOTICE_COND_SHOWN, old.lines, NULL, NULL, now) != 0) {
			service_store_fail(err, svc->wstore,
			    "queue the notice");
			goto out;
		}
		if (out != NULL)
			*out = cond_view(&old, oldc, c);
		break;
	}
	rc = 0;
 out:
	store_conditional_clear(&old);
	free(gc);
	free(oldc);
	free(lines);
	return rc;
}

/* End an active conditional with a reason; -1 on store failure. */
static int
cond_end(struct service *svc, const struct store_conditional *sc,
    const char *reason, int64_t now)
{
	char	r[STORE_COND_REASON_SIZE];

	snprintf(r, sizeof r, "%s", reason);
	return store_conditional_end(svc->wstore, sc->id, "ended", r, now) ==
	    STORE_OK ? 0 : -1;
}

/* End both players' active conditionals of a finished game. */
int
cond_game_over(struct service *svc, const struct store_game *row,
    int64_t now)
{
	struct store_conditional	sc;
	enum store_status		ss;
	int				i;

	for (i = 0; i < 2; i++) {
		ss = store_conditional_active(svc->wstore, row->id,
		    i == 0 ? row->white : row->black, &sc);
		if (ss == STORE_NOTFOUND)
			continue;
		if (ss != STORE_OK)
			return -1;
		ss = store_conditional_end(svc->wstore, sc.id, "ended",
		    "the game ended", now);
		store_conditional_clear(&sc);
		if (ss != STORE_OK)
			return -1;
	}
	return 0;
}

/* Play the owner's answer from their conditional and record it. */
static int
cond_play(struct service *svc, struct store_game *row, struct cached *c,
    const struct store_conditional *sc, int owner, const char *reply,
    char *why, size_t whysize, int64_t now)
{
	struct game_action	 ga;
	struct store_action	 a;
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum game_refusal	 rc;
	enum sig_error		 se;
	const uint8_t		*sigbytes;
	size_t			 siglen, ply = game_ply(&c->state);
	char			*text;
	int			 ret = -1;

	memset(&ga, 0, sizeof ga);
	ga.kind = GAME_ACT_MOVE;
	ga.color = owner;
	ga.move = reply;
	ga.lang = CHESS_LANG_EN;
	ga.at = now;
	rc = apply_recording_san(&c->state, &ga, &c->san, &c->sancap, why,
	    whysize);
	if (rc != GAME_OK)
		return 1;

	/* The signature bytes that enter the chain: the conditional's. */
	if (asprintf(&text, "%s%s", sc->statement, sc->signature) < 0)
		return -1;
	if (sig_statement_parse(text, strlen(text), &st, &sg, &se) != 0) {
		snprintf(why, whysize, "its stored signature does not read: %s",
		    sig_strerror(se));
		goto out;
	}
	sigbytes = sig_signature_bytes(&sg, &siglen);

	memset(&a, 0, sizeof a);
	a.ply = (int)ply;
	a.player_id = owner == CHESS_WHITE ? row->white : row->black;
	a.key_id = sc->key_id;
	snprintf(a.kind, sizeof a.kind, "conditional-move");
	snprintf(a.move, sizeof a.move, "%s", reply);
	snprintf(a.san, sizeof a.san, "%s", c->san[ply]);
	a.statement = sc->statement;
	a.signature = sc->signature;
	snprintf(a.source, sizeof a.source, "%s", sc->source);
	a.conditional_id = sc->id;
	if (record_append(svc, row, c, &a, sigbytes, siglen, now) != 0 ||
	    store_conditional_played(svc->wstore, sc->id) != STORE_OK)
		goto out;
	ret = 0;
 out:
	free(text);
	return ret;
}

/*
 * After an accepted action of colour `actor` (recorded, not yet
 * notified): end conditionals that no longer fit, and play the answer of
 * the actor's opponent when their conditional has one. *answered tells
 * whether a move was played (the pair's notices are then the caller's:
 * see job_action()). `conditionals` false: the game has none active (read
 * with its row in this transaction), so there is nothing to look up.
 * -1 on store failure.
 */
int
cond_after_action(struct service *svc, struct store_game *row,
    struct cached *c, int actor, enum game_action_kind kind,
    bool conditionals, int64_t now, bool *answered)
{
	struct store_conditional	 sc;
	struct game_cond		*gc = NULL;
	const char			*reply;
	char				 why[384], reason[STORE_COND_REASON_SIZE];
	char				 pair[2 * CHESS_SAN_MAX + 2];
	char				 *left = NULL;
	size_t				 n, ply;
	int				 owner, found, rc = -1, r;
	bool				 moved;

	*answered = false;
	memset(&sc, 0, sizeof sc);
	if (!conditionals)
		return 0;
	if (!game_ongoing(&c->state))
		return cond_game_over(svc, row, now);
	ply = game_ply(&c->state);
	moved = ply > 0 && (kind == GAME_ACT_MOVE ||
	    kind == GAME_ACT_CLAIM_DRAW) && game_turn(&c->state) != actor;
	if (!moved)
		return 0;
	if ((gc = calloc(1, sizeof *gc)) == NULL)
		return -1;

	/* The actor's own conditional: their move must stay in its lines. */
	if ((found = cond_active(svc, row->id, actor == CHESS_WHITE ?
	    row->white : row->black, &sc, gc)) < 0)
		goto out;
	if (found) {
		n = ply - (size_t)sc.ply;
		if (game_cond_left(gc, (const char (*)[CHESS_SAN_MAX])c->san +
		    sc.ply, n) == 0) {
			snprintf(reason, sizeof reason, "no line of it goes on "
			    "after your move %s", c->san[ply - 1]);
			if (cond_end(svc, &sc, reason, now) != 0)
				goto out;
		}
		store_conditional_clear(&sc);
	}

	/* The opponent's: their answer, if a line has one. */
	owner = !actor;
	if ((found = cond_active(svc, row->id, owner == CHESS_WHITE ?
	    row->white : row->black, &sc, gc)) <= 0) {
		rc = found;
		goto out;
	}
	n = ply - (size_t)sc.ply;
	if (c->state.draw_offer == actor) {
		if (cond_end(svc, &sc, "the opponent offers a draw with the "
		    "move: the answer is yours to choose", now) != 0)
			goto out;
		rc = 0;
		goto out;
	}
	reply = game_cond_reply(gc, (const char (*)[CHESS_SAN_MAX])c->san +
	    sc.ply, n);
	if (reply == NULL) {
		snprintf(reason, sizeof reason, "the opponent played %s, "
		    "which none of its lines has", c->san[ply - 1]);
		rc = cond_end(svc, &sc, reason, now);
		goto out;
	}
	why[0] = '\0';
	if ((r = cond_play(svc, row, c, &sc, owner, reply, why, sizeof why,
	    now)) < 0)
		goto out;
	if (r > 0) {
		snprintf(reason, sizeof reason, "its move %s could not be "
		    "played: %s", reply, why);
		rc = cond_end(svc, &sc, reason, now);
		goto out;
	}
	*answered = true;

	/* What is left of it; the end of the game ends it. */
	n = game_ply(&c->state) - (size_t)sc.ply;
	snprintf(pair, sizeof pair, "%s %s", c->san[ply - 1], c->san[ply]);
	if (!game_ongoing(&c->state)) {
		if (cond_game_over(svc, row, now) != 0)
			goto out;
	} else if (game_cond_left(gc, (const char (*)[CHESS_SAN_MAX])c->san +
	    sc.ply, n) == 0) {
		if (cond_end(svc, &sc, "every move of it was played",
		    now) != 0)
			goto out;
	} else {
		struct game_cond	*rest = gc;
		size_t			 i, k, m = 0;

		/* The lines still in play, from the position now. */
		for (i = 0; i < rest->nlines; i++) {
			for (k = 0; k < n && k < rest->len[i]; k++)
				if (strcmp(rest->san[i][k], c->san[sc.ply +
				    k]) != 0)
					break;
			if (k < n || rest->len[i] <= n)
				continue;
			for (k = n; k < rest->len[i]; k++)
				memmove(rest->san[i][k - n], rest->san[i][k],
				    CHESS_SAN_MAX);
			rest->len[m] = rest->len[i] - n;
			if (m != i)
				memcpy(rest->san[m], rest->san[i],
				    sizeof rest->san[i]);
			m++;
		}
		rest->nlines = m;
		if ((left = malloc(4 * SIG_LINES_MAX)) != NULL)
			game_cond_format(rest, left, 4 * SIG_LINES_MAX);
	}
	if (cond_notify(svc, row, c, owner, NOTICE_COND_PLAYED,
	    left, pair, NULL, now) != 0)
		goto out;
	rc = 0;
 out:
	store_conditional_clear(&sc);
	free(gc);
	free(left);
	return rc;
}
