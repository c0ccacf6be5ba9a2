/*
 * letters/notice_event.c: an event's notices: its start, a withdrawal, its end.
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
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "chess/chess.h"
#include "event/crosstable.h"
#include "letters/notice.h"
#include "letters/notice_event.h"
#include "letters/notice_texts.h"

/* An event's title, or its name. */
static const char *
event_title(const struct notice_event *e)
{
	return e->title != NULL && *e->title != '\0' ? e->title : e->name;
}

/* Write the subject of an event's notice. */
void
notice_event_subject(const struct notice_event *e, const struct texts *tx,
    struct buf *b)
{
	char				 num[24];

	notice_texts_put(b, tx->subject_event, event_title(e));
	snprintf(num, sizeof num, "%zu", e->nmine);
	notice_texts_put(b, tx->subject_event_what[e->what], e->what ==
	    NOTICE_EVENT_WITHDRAWAL ? e->withdrawn : num);
}

/* Write the opening of an event's notice. */
void
notice_event_intro(const struct notice_event *e, const struct texts *tx,
    struct buf *b)
{
	struct buf			 f = { 0 };
	char				 num[24];
	int				 k;

	switch (e->what) {
	case NOTICE_EVENT_START:
		k = strcmp(e->format, "match") == 0 ? 2 :
		    strcmp(e->format, "double-round-robin") == 0 ? 1 : 0;
		snprintf(num, sizeof num, "%d", k == 2 ? e->games :
		    e->nplayers);
		notice_texts_put(&f, tx->event_format[k], num);
		notice_texts_prose(b, tx->event_intro[e->what], event_title(e),
		    e->name, f.data != NULL ? f.data : "");
		buf_free(&f);
		break;
	case NOTICE_EVENT_WITHDRAWAL:
		notice_texts_prose(b, tx->event_intro[e->what], e->withdrawn,
		    event_title(e), e->name);
		break;
	case NOTICE_EVENT_END:
		notice_texts_prose(b, tx->event_intro[e->what], event_title(e),
		    e->name);
		break;
	}
}

/* Write the rules an event's games share. */
static void
event_rules(const struct notice_event *e, const struct texts *tx,
    enum chess_lang lang, struct buf *b)
{
	char				 t[128], num[24];

	buf_adds(b, tx->event_rules);
	buf_adds(b, "\n");
	notice_texts_tc(lang, e->time_control != NULL ? e->time_control :
	    "none", t, sizeof t);
	notice_texts_put(b, tx->tc_line, t);
	buf_adds(b, "\n");
	snprintf(num, sizeof num, "%d", e->chess960);
	if (e->fen != NULL && *e->fen != '\0')
		notice_texts_put(b, tx->event_variant[3], e->fen);
	else if (e->variant == NULL || strcmp(e->variant, "chess960") != 0)
		buf_adds(b, tx->event_variant[0]);
	else
		notice_texts_put(b, tx->event_variant[e->chess960_pairing ||
		    e->chess960 < 0 ? 2 : 1], num);
	buf_adds(b, "\n");
	if (e->draw_min_move > 0) {
		snprintf(num, sizeof num, "%d", e->draw_min_move);
		notice_texts_prose(b, tx->event_draw_min, num);
		buf_adds(b, "\n");
	}
	if (e->draw_offer_every > 0) {
		snprintf(num, sizeof num, "%d", e->draw_offer_every);
		notice_texts_prose(b, tx->event_draw_every, num);
		buf_adds(b, "\n");
	}
	if (e->draw_min_move <= 0 && e->draw_offer_every <= 0) {
		notice_texts_prose(b, tx->event_draw_none);
		buf_adds(b, "\n");
	}
	notice_texts_prose(b, tx->event_policy[e->policy != NULL &&
	    strcmp(e->policy, "claim") == 0]);
	buf_adds(b, "\n");
	snprintf(num, sizeof num, "%d", e->leave_days);
	notice_texts_put(b, tx->event_leave, num);
	buf_adds(b, "\n");
	buf_adds(b, tx->event_rated[e->rated]);
	buf_adds(b, "\n");
	notice_texts_prose(b, tx->event_withdrawal[e->withdrawal != NULL &&
	    strcmp(e->withdrawal, "annul") == 0]);
	buf_adds(b, "\n\n");
}

/* Write one of the recipient's games of an event: its round, id,
 * colour and opponent, and (after a withdrawal) what became of it. */
static void
event_game(const struct notice_event *e, const struct texts *tx,
    struct buf *b, const struct notice_event_game *g)
{
	const char		*color = tx->color[g->color == CHESS_BLACK];
	const char		*opp = g->opponent != NULL ? g->opponent : "?";
	struct buf		 o = { 0 };
	char			 round[24], id[24];

	snprintf(round, sizeof round, "%d", g->round);
	snprintf(id, sizeof id, "%" PRId64, g->game_id);
	if (e->what != NOTICE_EVENT_WITHDRAWAL) {
		notice_texts_put(b, tx->event_game, round, id, color, opp);
		buf_adds(b, "\n");
		return;
	}
	if (g->adjusted != NULL && strcmp(g->adjusted, "annulled") == 0)
		buf_adds(&o, tx->event_outcome[0]);
	else if (g->adjusted != NULL && *g->adjusted != '\0')
		buf_adds(&o, tx->event_outcome[1]);
	else
		notice_texts_put(&o, tx->event_outcome[2],
		    g->result != NULL ? g->result : "*");
	notice_texts_prose(b, tx->event_outcome_game, round, id, color, opp,
	    o.data != NULL ? o.data : "");
	buf_adds(b, "\n");
	buf_free(&o);
}

/* Write the body of an event's notice: the rules and the games at the
 * start, the games with the withdrawn player, the standings at the end. */
void
notice_event_body(const struct notice_event *e, const struct texts *tx,
    enum chess_lang lang, struct buf *b)
{
	struct crosstable		 ct;
	char				 pts[24], games[24], place[48];
	size_t				 i;

	if (e->what == NOTICE_EVENT_START) {
		event_rules(e, tx, lang, b);
		snprintf(games, sizeof games, "%zu", e->nmine);
		notice_texts_put(b, tx->event_games, games);
		buf_adds(b, "\n");
	} else if (e->what == NOTICE_EVENT_WITHDRAWAL) {
		notice_texts_prose(b, tx->event_withdrawal[e->withdrawal !=
		    NULL && strcmp(e->withdrawal, "annul") == 0]);
		buf_adds(b, "\n\n");
	}
	if (e->what != NOTICE_EVENT_END) {
		for (i = 0; i < e->nmine; i++)
			event_game(e, tx, b, &e->mine[i]);
		buf_adds(b, "\n");
		if (e->what == NOTICE_EVENT_START) {
			notice_texts_prose(b, tx->event_play, e->name);
			buf_adds(b, "\n\n");
		}
		return;
	}
	if (e->own != NULL) {
		crosstable_points(e->own->points2, false, pts, sizeof pts);
		snprintf(games, sizeof games, "%u", e->own->played);
		if (e->own->place_last > e->own->place)
			snprintf(place, sizeof place, "%u-%u", e->own->place,
			    e->own->place_last);
		else
			snprintf(place, sizeof place, "%u", e->own->place);
		notice_texts_prose(b, tx->event_result, pts, games, place);
		buf_adds(b, "\n\n");
	}
	if (e->standings != NULL) {
		buf_adds(b, tx->event_standings);
		buf_adds(b, "\n\n");
		/* Drawn as it is: its columns must not be wrapped. */
		ct = *e->standings;
		ct.lang = lang;
		crosstable_text(&ct, b);
		buf_adds(b, "\n");
	}
}
