/*
 * service/event_notices.c: the mails of an event: its start, a withdrawal, its end.
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
 * Each runs in the writer, in the transaction of the change it tells of,
 * and reads the event through the writer's store, so what it says is what
 * commits: at the start, every player's games as created; after a
 * withdrawal, the adjusted games; at the end, the final standings. The
 * games' own notices (new game, moves, the end of each) go as for any
 * game. A player without an address gets none. Every mail of one event to
 * one player is in one thread, rooted at the start's Message-ID
 * "event-NAME.PLAYER@DOMAIN" (an event's name is never reused).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"

/* Fill a notice's event with the rules its games share. */
static void
event_notice_rules(struct service *svc, const struct service_event *ev,
    enum notice_event_what what, struct notice_event *ne)
{
	const struct store_event	*e = &ev->e;

	memset(ne, 0, sizeof *ne);
	ne->what = what;
	ne->name = e->name;
	ne->title = e->title;
	ne->format = e->format;
	ne->games = e->games;
	ne->nplayers = (int)ev->nplayers;
	ne->time_control = e->time_control;
	ne->variant = e->variant;
	ne->chess960 = e->chess960;
	ne->chess960_pairing = e->chess960_pairing;
	ne->fen = e->fen[0] != '\0' ? e->fen : NULL;
	ne->policy = e->policy;
	ne->rated = e->rated;
	ne->draw_min_move = e->draw_min_move;
	ne->draw_offer_every = e->draw_offer_every;
	ne->leave_days = e->leave_days >= 0 ? e->leave_days :
	    svc->leave_days;
	ne->withdrawal = e->withdrawal;
}

/*
 * Gather into `v` (room for every game of the event) the games of
 * player `me`, all of them or only those against `against` (when not 0),
 * from me's side; returns how many.
 */
static size_t
event_notice_games(const struct service_event *ev, int64_t me,
    int64_t against, struct notice_event_game *v)
{
	const struct store_event_game	*g;
	size_t				 i, n = 0;
	bool				 white;

	for (i = 0; i < ev->ngames; i++) {
		g = &ev->games[i];
		if (g->white != me && g->black != me)
			continue;
		white = g->white == me;
		if (against != 0 && (white ? g->black : g->white) != against)
			continue;
		v[n].game_id = g->game_id;
		v[n].round = g->round;
		v[n].color = white ? CHESS_WHITE : CHESS_BLACK;
		v[n].opponent = white ? g->black_name : g->white_name;
		v[n].result = g->result;
		v[n].adjusted = g->adjusted;
		n++;
	}
	return n;
}

/* Queue an event's notice to one of its players, in their thread of the
 * event's mails; none without an address. */
static int
event_notice_queue(struct service *svc, const struct service_event *ev,
    const struct store_event_player *p, const struct notice_event *ne,
    int64_t now)
{
	struct notice	n;
	char		root[NOTICE_ID_SIZE];

	if (p->email[0] == '\0')
		return 0;
	notify_start(&n, NOTICE_EVENT, p->email, p->name,
	    strcmp(p->lang, "fr") == 0 ? CHESS_LANG_FR : CHESS_LANG_EN);
	n.event = ne;
	snprintf(root, sizeof root, "event-%s.%s@%s", ev->e.name, p->name,
	    svc->mail_domain);
	n.thread_root = root;
	if (ne->what == NOTICE_EVENT_START)
		n.message_id = root;
	return notify_queue(svc, svc->wstore, &n, now);
}

/* Read an event in the writer for its notices; NULL games when it has
 * none. -1 when it cannot be read. */
static int
event_notice_read(struct service *svc, const char *name,
    struct service_event *ev, struct notice_event_game **games)
{
	struct service_error	err;

	*games = NULL;
	if (event_read(svc, svc->wstore, name, ev, &err) != 0)
		return -1;
	if ((*games = calloc(ev->ngames + 1, sizeof **games)) == NULL) {
		service_event_free(ev);
		return -1;
	}
	return 0;
}

/*
 * Queue to the players of an event their games: at the start every
 * player all of theirs; after the withdrawal of player `withdrawn`, each
 * player still in it those against the one who left, as they stand now.
 */
static int
event_notify_games(struct service *svc, const char *name,
    enum notice_event_what what, int64_t withdrawn, int64_t now)
{
	struct service_event		 ev;
	struct notice_event		 ne;
	struct notice_event_game	*mine;
	const struct store_event_player	*p;
	size_t				 i;
	int				 rc = 0;

	if (!svc->mail)
		return 0;
	if (event_notice_read(svc, name, &ev, &mine) != 0)
		return -1;
	event_notice_rules(svc, &ev, what, &ne);
	ne.mine = mine;
	for (i = 0; i < ev.nplayers; i++)
		if (ev.players[i].player_id == withdrawn)
			ne.withdrawn = ev.players[i].name;
	for (i = 0; i < ev.nplayers && rc == 0; i++) {
		p = &ev.players[i];
		if (what == NOTICE_EVENT_WITHDRAWAL && (p->player_id ==
		    withdrawn || p->withdrawn != 0))
			continue;
		ne.nmine = event_notice_games(&ev, p->player_id, withdrawn,
		    mine);
		if (ne.nmine > 0)
			rc = event_notice_queue(svc, &ev, p, &ne, now);
	}
	free(mine);
	service_event_free(&ev);
	return rc;
}

/* Queue to every player of a started event its rules and their games. */
int
event_notify_start(struct service *svc, const char *name, int64_t now)
{
	return event_notify_games(svc, name, NOTICE_EVENT_START, 0, now);
}

/* Queue to every player still in the event what became of their games
 * with `withdrawn` (the player's id). */
int
event_notify_withdrawal(struct service *svc, const char *name,
    int64_t withdrawn, int64_t now)
{
	return event_notify_games(svc, name, NOTICE_EVENT_WITHDRAWAL,
	    withdrawn, now);
}

/* Queue to every player of a finished event the final standings and
 * their own result. */
int
event_notify_end(struct service *svc, const char *name, int64_t now)
{
	struct service_event		 ev;
	struct notice_event		 ne;
	struct notice_event_game	*mine;
	struct crosstable_player	*pl = NULL;
	struct crosstable		 ct;
	size_t				 i, k;
	int				 rc = 0;

	if (!svc->mail)
		return 0;
	if (event_notice_read(svc, name, &ev, &mine) != 0)
		return -1;
	if (service_event_crosstable(&ev, &ct, &pl) != 0) {
		rc = -1;
		goto out;
	}
	event_notice_rules(svc, &ev, NOTICE_EVENT_END, &ne);
	ne.standings = &ct;
	for (i = 0; i < ev.nplayers && rc == 0; i++) {
		ne.own = NULL;
		for (k = 0; k < ev.nplayers; k++)
			if (ev.rows[k].player == i)
				ne.own = &ev.rows[k];
		rc = event_notice_queue(svc, &ev, &ev.players[i], &ne, now);
	}
 out:
	free(pl);
	free(mine);
	service_event_free(&ev);
	return rc;
}
