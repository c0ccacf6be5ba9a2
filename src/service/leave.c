/*
 * service/leave.c: a player's leave: the year's allowance, taking leave.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "service/service_int.h"

/* Count the days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t		era;
	unsigned	yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* Write the date (UTC) of a time as YYYY-MM-DD. */
static void
date_format(int64_t t, char *buf, size_t size)
{
	int64_t		z, era, y;
	unsigned	doe, yoe, doy, mp, d, m;

	z = (t >= 0 ? t : t - GAME_DAY + 1) / GAME_DAY + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	snprintf(buf, size, "%04" PRId64 "-%02u-%02u", y + (m <= 2), m, d);
}

/* Find 00:00 UTC of a date. */
static int64_t
date_start(const struct sig_date *d)
{
	return days_from_civil(d->year, d->month, d->day) * GAME_DAY;
}

/* Measure the seconds of [a1, b1) inside [a2, b2). */
static int64_t
overlap(int64_t a1, int64_t b1, int64_t a2, int64_t b2)
{
	int64_t	a = a1 > a2 ? a1 : a2, b = b1 < b2 ? b1 : b2;

	return b > a ? b - a : 0;
}

/* A player's leaves, gathered. */
struct leave_list {
	struct store_leave	*l;
	size_t			 n, cap;
};

/* Keep one leave. */
static int
leave_collect(void *arg, const struct store_leave *l)
{
	struct leave_list	*ll = arg;
	struct store_leave	*p;

	if ((p = service_grow(ll->l, &ll->cap, ll->n, sizeof *p, 16)) == NULL)
		return -1;
	ll->l = p;
	ll->l[ll->n++] = *l;
	return 0;
}

/* Tell the opponent of `color` in a game that `color` is on leave from
 * `from` to `to`. */
static int
notify_leave(struct service *svc, const struct store_game *row,
    const struct cached *c, int color, const struct sig_date *from,
    const struct sig_date *to, int64_t now)
{
	struct notice	n;
	char		d1[16], d2[16];

	if (!svc->mail || (color != CHESS_WHITE && color != CHESS_BLACK))
		return 0;
	memset(&n, 0, sizeof n);
	snprintf(d1, sizeof d1, "%04u-%02u-%02u", from->year % 10000,
	    from->month % 100, from->day % 100);
	snprintf(d2, sizeof d2, "%04u-%02u-%02u", to->year % 10000,
	    to->month % 100, to->day % 100);
	n.kind = NOTICE_LEAVE;
	n.actor = color;
	n.leave_from = d1;
	n.leave_to = d2;
	return notify_game_to(svc, row, c, &n, !color, now);
}

/*
 * Find with handle `st` the leave allowance that binds a player whose
 * ongoing games are `games`: each game's is its event's when the event
 * sets one, else the server's (also when there is no game); the smallest
 * binds. `whose` gets "the server's" or "event NAME's", in `lang`.
 */
static int
leave_allowance(struct service *svc, struct store *st,
    const struct id_list *games, int *days, enum chess_lang lang,
    char *whose, size_t size, struct service_error *err)
{
	struct store_event	e;
	size_t			i;
	bool			server = games->n == 0;

	*days = -1;
	for (i = 0; i < games->n; i++) {
		switch (store_event_get_by_game(st, games->ids[i], &e, NULL)) {
		case STORE_OK:
			if (e.leave_days < 0)
				break;
			if (*days < 0 || e.leave_days < *days) {
				*days = e.leave_days;
				snprintf(whose, size, lang == CHESS_LANG_FR ?
				    "celui du tournoi %s" : "event %s's",
				    e.name);
			}
			continue;
		case STORE_NOTFOUND:
			break;
		default:
			return service_store_fail(err, st,
			    "read your games' events");
		}
		server = true;
	}
	if (server && (*days < 0 || svc->leave_days <= *days)) {
		*days = svc->leave_days;
		snprintf(whose, size, lang == CHESS_LANG_FR ?
		    "celui du serveur" : "the server's");
	}
	return 0;
}

/* Read what player `player_id` has taken of this year's leave, and the
 * allowance that binds them (leave_allowance()). */
int
service_player_leave(struct service *svc, int64_t player_id,
    struct service_leave_year *out, struct service_error *err)
{
	struct store			*st;
	struct store_player		 p;
	struct store_game_filter	 f;
	struct leave_list		 ll;
	struct id_list			 games;
	struct tm			 tm;
	time_t				 t = (time_t)service_now(svc);
	int64_t				 ys, ye, taken = 0;
	size_t				 i;
	char				 whose[64];
	int				 rc = -1, allowance;

	memset(out, 0, sizeof *out);
	memset(&ll, 0, sizeof ll);
	memset(&games, 0, sizeof games);
	if (gmtime_r(&t, &tm) == NULL)
		return service_fail(err, 500, "internal", "the date is out of "
		    "range");
	out->year = tm.tm_year + 1900;
	ys = days_from_civil(out->year, 1, 1) * GAME_DAY;
	ye = days_from_civil((int64_t)out->year + 1, 1, 1) * GAME_DAY;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_leave_list(st, player_id, ys, leave_collect, &ll) !=
	    STORE_OK) {
		service_store_fail(err, st, "read the player's leaves");
		goto out;
	}
	for (i = 0; i < ll.n; i++)
		taken += overlap(ll.l[i].start, ll.l[i].until, ys, ye);
	/* The allowance of their ongoing games. */
	if (store_player_get(st, player_id, &p) != STORE_OK) {
		service_store_fail(err, st, "read the player");
		goto out;
	}
	memset(&f, 0, sizeof f);
	f.player = p.name;
	f.status = "ongoing";
	if (store_game_list(st, &f, id_collect, &games) != STORE_OK ||
	    games.n < games.listed) {
		service_store_fail(err, st, "list the player's games");
		goto out;
	}
	if (leave_allowance(svc, st, &games, &allowance, CHESS_LANG_EN, whose,
	    sizeof whose, err) != 0)
		goto out;
	out->allowance_days = allowance;
	out->taken_days = taken / GAME_DAY;
	out->left_days = out->allowance_days - out->taken_days;
	if (out->left_days < 0)
		out->left_days = 0;
	rc = 0;
 out:
	free(ll.l);
	free(games.ids);
	pool_put(svc, st);
	return rc;
}

/*
 * In the writer: take a leave. Check it (it begins after today, UTC; it
 * overlaps no other leave of the player; with the others it stays within
 * the allowance of each calendar year it touches: leave_allowance()),
 * record it, and append
 * its statement to the record of each of the player's ongoing games, whose
 * deadlines move on by the leave days they would fall after.
 */
int
job_leave(struct service *svc, const struct job_statement *s,
    struct service_error *err, struct store_game *row, int64_t now)
{
	const struct sig_statement	*st = s->st;
	const struct sig_date		*from = &st->action.from;
	const struct sig_date		*to = &st->action.to;
	struct leave_list		 ll;
	struct id_list			 games;
	struct store_game_filter	 f;
	struct store_leave		 nl;
	struct store_game		 g;
	struct store_action		 a;
	struct cached			*c;
	const uint8_t			*sigbytes;
	enum store_status		 ss;
	int64_t				 start, until, today, ys, ye, taken;
	size_t				 i, siglen;
	unsigned			 y;
	char				 d1[48], d2[48], whose[64];
	bool				 fr = s->lang == CHESS_LANG_FR;
	int				 rc = -1, allowance;

	memset(&ll, 0, sizeof ll);
	memset(&games, 0, sizeof games);
	start = date_start(from);
	until = date_start(to) + GAME_DAY;
	today = now - (now % GAME_DAY + GAME_DAY) % GAME_DAY;
	if (start <= today) {
		service_fail(err, 409, "leave-too-soon", fr ?
		    "un congé doit commencer un jour après aujourd'hui (UTC) ; "
		    "celui-ci commence le %04u-%02u-%02u" :
		    "a leave must begin on a later day than today (UTC); this "
		    "one begins on %04u-%02u-%02u", from->year, from->month,
		    from->day);
		goto out;
	}
	ys = days_from_civil(from->year, 1, 1) * GAME_DAY;
	ss = store_leave_list(svc->wstore, s->player_id, ys, leave_collect,
	    &ll);
	if (ss != STORE_OK) {
		service_store_fail(err, svc->wstore, "read your leaves");
		goto out;
	}
	for (i = 0; i < ll.n; i++)
		if (overlap(start, until, ll.l[i].start, ll.l[i].until) > 0) {
			date_format(ll.l[i].start, d1, sizeof d1);
			date_format(ll.l[i].until - GAME_DAY, d2, sizeof d2);
			service_fail(err, 409, "leave-overlaps", fr ?
			    "ce congé chevauche celui que vous avez pris du "
			    "%s au %s ; choisissez d'autres jours" :
			    "this leave overlaps the one you took from %s to "
			    "%s; choose other days", d1, d2);
			goto out;
		}
	/* Every ongoing game of the player: its clocks and its record. */
	memset(&f, 0, sizeof f);
	f.player = st->player;
	f.status = "ongoing";
	if (store_game_list(svc->wstore, &f, id_collect, &games) !=
	    STORE_OK || games.n < games.listed) {
		service_store_fail(err, svc->wstore, "list your games");
		goto out;
	}
	if (leave_allowance(svc, svc->wstore, &games, &allowance, s->lang,
	    whose, sizeof whose, err) != 0)
		goto out;
	for (y = from->year; y <= to->year; y++) {
		ys = days_from_civil(y, 1, 1) * GAME_DAY;
		ye = days_from_civil((int64_t)y + 1, 1, 1) * GAME_DAY;
		for (taken = 0, i = 0; i < ll.n; i++)
			taken += overlap(ll.l[i].start, ll.l[i].until, ys, ye);
		if ((taken + overlap(start, until, ys, ye)) / GAME_DAY >
		    allowance) {
			service_fail(err, 409, "leave-allowance", fr ?
			    "avec ce congé, vos congés de %u atteindraient %"
			    PRId64 " jours ; le quota est de %d jours par année "
			    "civile (%s) et vous en avez pris %" PRId64 :
			    "this leave would bring your leave in %u to %" PRId64
			    " days; the allowance is %d days a calendar year "
			    "(%s) and you have taken %" PRId64, y,
			    (taken + overlap(start, until, ys, ye)) / GAME_DAY,
			    allowance, whose, taken / GAME_DAY);
			goto out;
		}
	}

	memset(&nl, 0, sizeof nl);
	nl.player_id = s->player_id;
	nl.start = start;
	nl.until = until;
	nl.taken = now;
	nl.game_id = row->id;
	nl.statement = s->canon;
	nl.signature = s->sigtext;
	if (store_leave_add(svc->wstore, &nl) != STORE_OK) {
		service_store_fail(err, svc->wstore, "record the leave");
		goto out;
	}

	sigbytes = sig_signature_bytes(s->sg, &siglen);
	for (i = 0; i < games.n; i++) {
		if (store_game_get(svc->wstore, games.ids[i], &g) != STORE_OK) {
			service_store_fail(err, svc->wstore,
			    "read a game");
			goto out;
		}
		/* The cached state does not know the leave yet. */
		cache_forget(svc, g.id);
		if ((c = cache_get(svc, &g, err)) == NULL)
			goto out;
		if (game_ongoing(&c->state) && game_check_time(&c->state,
		    now)) {
			if (record_flag(svc, &g, c, now) != 0) {
				service_store_fail(err, svc->wstore,
				    "record the end of a game on time");
				goto out;
			}
			continue;
		}
		memset(&a, 0, sizeof a);
		a.ply = (int)game_ply(&c->state);
		a.player_id = s->player_id;
		a.key_id = s->key_id;
		snprintf(a.kind, sizeof a.kind, "leave");
		a.statement = (char *)s->canon;
		a.signature = (char *)s->sigtext;
		snprintf(a.source, sizeof a.source, "%s", s->source);
		if (record_append(svc, &g, c, &a, sigbytes, siglen, now) !=
		    0) {
			service_store_fail(err, svc->wstore,
			    "record the leave in a game");
			goto out;
		}
		if (notify_leave(svc, &g, c, row_color(&g, s->player_id),
		    from, to, now) != 0) {
			service_store_fail(err, svc->wstore,
			    "queue the leave notice");
			goto out;
		}
	}
	rc = 0;
 out:
	free(ll.l);
	free(games.ids);
	return rc;
}
