/*
 * service/live.c: live events, kept with the batch, handed on after commit.
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
 * The writer notes an event where a record is appended (record_append),
 * a game created or a reminder threshold passed; the events wait in
 * svc->live, writer-only. A job that is undone takes its events back
 * (the writer truncates to where the job began); after the batch commits
 * they go to the events hook, and a failed commit drops them.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"

/* Note one event of a game in its state `g` at `now` into a list. */
void
live_note_to(struct live_list *l, enum service_live_kind kind,
    const struct store_game *row, const struct game *g, int by,
    const char *san, int64_t now)
{
	struct service_live	*e;
	int			 c;

	if ((e = service_grow(l->v, &l->cap, l->n, sizeof *e, 16)) == NULL)
		return;		/* out of memory: the event is lost */
	l->v = e;
	e = &l->v[l->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->game_id = row->id;
	e->white = row->white;
	e->black = row->black;
	snprintf(e->white_name, sizeof e->white_name, "%s", row->white_name);
	snprintf(e->black_name, sizeof e->black_name, "%s", row->black_name);
	e->ply = (int)game_ply(g);
	e->ongoing = game_ongoing(g);
	e->turn = game_turn(g);
	e->by = by;
	if (san != NULL)
		snprintf(e->san, sizeof e->san, "%s", san);
	snprintf(e->fen, sizeof e->fen, "%s", row->fen);
	snprintf(e->result, sizeof e->result, "%s",
	    game_result_name(g->result));
	snprintf(e->termination, sizeof e->termination, "%s",
	    game_termination_name(g->termination));
	for (c = 0; c < 2; c++)
		e->clock[c] = game_time_left(g, c, now);
	e->deadline = e->ongoing ? game_deadline(g) : 0;
	e->at = now;
}

/* Note one event of a game in the writer's batch. */
void
live_note(struct service *svc, enum service_live_kind kind,
    const struct store_game *row, const struct game *g, int by,
    const char *san, int64_t now)
{
	if (svc->events_cb != NULL)
		live_note_to(&svc->live, kind, row, g, by, san, now);
}

/*
 * Note the events of a record just appended into a list: a move (and the
 * offer it carries), a declined offer, a leave's clocks, the message sent
 * with it, and the end when the record ended the game `g` (`was_ongoing`
 * before it). Each carries the record's seq.
 */
void
live_record_to(struct live_list *l, const struct store_game *row,
    const struct game *g, const struct store_action *a, bool was_ongoing,
    int64_t now)
{
	int	by = row_color(row, a->player_id);
	size_t	n = l->n, i;
	char	text[SIG_MESSAGE_MAX + 1];

	if (strcmp(a->kind, "move") == 0 || strcmp(a->kind,
	    "move-offer-draw") == 0 || strcmp(a->kind, "conditional-move") ==
	    0 || (strcmp(a->kind, "claim-draw") == 0 && a->san[0] != '\0')) {
		live_note_to(l, SERVICE_LIVE_MOVE, row, g, by, a->san, now);
		if (l->n > n)
			l->v[n].conditional = strcmp(a->kind,
			    "conditional-move") == 0;
		if (strcmp(a->kind, "move-offer-draw") == 0)
			live_note_to(l, SERVICE_LIVE_OFFER, row, g, by, NULL,
			    now);
	} else if (strcmp(a->kind, "decline-draw") == 0)
		live_note_to(l, SERVICE_LIVE_DECLINE, row, g, by, NULL, now);
	else if (strcmp(a->kind, "leave") == 0)
		live_note_to(l, SERVICE_LIVE_CLOCK, row, g, by, NULL, now);
	/* The message sent with the action, as the game's JSON has it. */
	if (record_message(a, text, sizeof text)) {
		i = l->n;
		live_note_to(l, SERVICE_LIVE_MESSAGE, row, g, by, NULL, now);
		if (l->n > i) {
			snprintf(l->v[i].action, sizeof l->v[i].action, "%s",
			    a->kind);
			snprintf(l->v[i].text, sizeof l->v[i].text, "%s", text);
		}
	}
	if (was_ongoing && !game_ongoing(g))
		live_note_to(l, SERVICE_LIVE_END, row, g, by, NULL, now);
	for (i = n; i < l->n; i++)
		l->v[i].seq = a->seq;
}

/* Note the events of a record the writer just appended. */
void
live_record(struct service *svc, const struct store_game *row,
    const struct cached *c, const struct store_action *a, bool was_ongoing,
    int64_t now)
{
	if (svc->events_cb != NULL)
		live_record_to(&svc->live, row, &c->state, a, was_ongoing,
		    now);
}

/* Hand the committed batch's events on, and forget them. */
void
live_publish(struct service *svc)
{
	if (svc->events_cb != NULL && svc->live.n > 0)
		svc->events_cb(svc->events_arg, svc->live.v, svc->live.n);
	svc->live.n = 0;
}
