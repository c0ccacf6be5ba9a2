/*
 * service/clock.c: the clock: games ended on time, reminders, daily digests.
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
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "service/service_int.h"

/* Games looked at per listing of the clock. */
#define SERVICE_CLOCK_BATCH	512
/* Listings per call when every one comes back full. */
#define SERVICE_CLOCK_ROUNDS	8

/*
 * Queue one job of `kind` per game (per player for JOB_DIGEST) of `l` at
 * once and wait for them all; count in *changed those that changed
 * something. A game deleted meanwhile is passed over; any other failure is
 * logged, and the first one reported (-1) after every job ran.
 */
static int
clock_jobs(struct service *svc, enum job_kind kind, const struct id_list *l,
    const int64_t *thresholds, size_t nthresholds, size_t *changed,
    struct service_error *err)
{
	struct job		*jobs = NULL;
	struct service_error	*errs = NULL;
	size_t			 i;
	int			 rc = 0;

	if (l->n == 0)
		return 0;
	if ((jobs = calloc(l->n, sizeof *jobs)) == NULL ||
	    (errs = calloc(l->n, sizeof *errs)) == NULL) {
		rc = service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		jobs[i].kind = kind;
		if (kind == JOB_DIGEST || kind == JOB_SUMMARY)
			jobs[i].u.digest.player_id = l->ids[i];
		else
			jobs[i].game_id = l->ids[i];
		if (kind == JOB_REMIND) {
			jobs[i].u.remind.thresholds = thresholds;
			jobs[i].u.remind.nthresholds = nthresholds;
		}
		jobs[i].err = &errs[i];
	}
	if (writer_submit_all(svc, jobs, l->n) != 0) {
		rc = -1;
		if (err != NULL)
			*err = errs[0];
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		if (jobs[i].rc == 0) {
			*changed += jobs[i].changed;
			continue;
		}
		if (errs[i].status == 404)
			continue;
		log_warnx("clock: %s %" PRId64 ": %s", kind == JOB_DIGEST ||
		    kind == JOB_SUMMARY ? "player" : "game", l->ids[i],
		    errs[i].message);
		if (rc == 0 && err != NULL)
			*err = errs[i];
		rc = -1;
	}
 out:
	free(jobs);
	free(errs);
	return rc;
}

/* End every game whose flag fell. */
int
service_clock_tick(struct service *svc, size_t *ended,
    struct service_error *err)
{
	struct store		*st = NULL;
	struct id_list		 l;
	enum store_status	 ss;
	size_t			 n = 0, before;
	int			 round, rc = 0;

	memset(&l, 0, sizeof l);
	for (round = 0; round < SERVICE_CLOCK_ROUNDS && rc == 0; round++) {
		if ((st = pool_get(svc, err)) == NULL) {
			rc = -1;
			break;
		}
		l.n = l.listed = 0;
		ss = store_game_list_due(st, service_now(svc),
		    SERVICE_CLOCK_BATCH, id_collect, &l);
		if (ss != STORE_OK)
			rc = service_store_fail(err, st, "list the games due");
		else if (l.n < l.listed)
			rc = service_fail(err, 500, "internal",
			    "out of memory");
		pool_put(svc, st);
		if (rc != 0)
			break;
		before = n;
		rc = clock_jobs(svc, JOB_FLAG, &l, NULL, 0, &n, err);
		if (l.listed < SERVICE_CLOCK_BATCH || n == before)
			break;
	}
	free(l.ids);
	if (ended != NULL)
		*ended = n;
	return rc;
}

/* Order thresholds, nearest first. */
static int
threshold_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The thresholds games are listed by: the server's and the players'. */
struct listing_thresholds {
	int64_t	th[SERVICE_REMINDERS_MAX * 4];
	size_t	n;
};

/* Add a player's own thresholds to the listing's (those that fit). */
static int
own_thresholds(void *arg, const char *reminders)
{
	struct listing_thresholds	*lt = arg;
	int64_t				 own[SERVICE_REMINDERS_MAX];
	size_t				 n, i, k;

	if (self_reminders_parse(reminders, own, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		for (k = 0; k < lt->n && lt->th[k] != own[i]; k++)
			;
		if (k == lt->n && lt->n < sizeof lt->th / sizeof lt->th[0])
			lt->th[lt->n++] = own[i];
	}
	return 0;
}

/* Remind the side to move of every game whose deadline comes near. */
int
service_clock_remind(struct service *svc, const int64_t *thresholds,
    size_t nthresholds, size_t *sent, struct service_error *err)
{
	struct store		*st = NULL;
	struct id_list		 l;
	enum store_status	 ss = STORE_OK;
	int64_t			 th[SERVICE_REMINDERS_MAX], now;
	struct listing_thresholds lt;
	size_t			 i, n = 0, nth = 0, before;
	int			 round, rc = 0;
	bool			 full;

	memset(&l, 0, sizeof l);
	if (sent != NULL)
		*sent = 0;
	if (!svc->mail)
		return 0;
	for (i = 0; i < nthresholds; i++) {
		if (thresholds[i] <= 0)
			continue;
		if (nth == SERVICE_REMINDERS_MAX)
			return service_fail(err, 400, "bad-reminders",
			    "at most %d reminder thresholds",
			    SERVICE_REMINDERS_MAX);
		th[nth++] = thresholds[i];
	}
	qsort(th, nth, sizeof th[0], threshold_cmp);
	for (i = 1, n = nth > 0; i < nth; i++)
		if (th[i] != th[n - 1])
			th[n++] = th[i];
	nth = n;
	n = 0;
	/* Games are listed by the players' own thresholds too. */
	memcpy(lt.th, th, nth * sizeof th[0]);
	lt.n = nth;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_settings_reminders(st, own_thresholds, &lt) != STORE_OK)
		rc = service_store_fail(err, st, "list the players' reminders");
	pool_put(svc, st);
	for (round = 0; round < SERVICE_CLOCK_ROUNDS && lt.n > 0 && rc == 0;
	    round++) {
		if ((st = pool_get(svc, err)) == NULL) {
			rc = -1;
			break;
		}
		now = service_now(svc);
		l.n = 0;
		full = false;
		for (i = 0; i < lt.n && ss == STORE_OK; i++) {
			l.listed = 0;
			ss = store_game_list_remind(st, now, lt.th[i],
			    SERVICE_CLOCK_BATCH, id_collect, &l);
			full |= l.listed == SERVICE_CLOCK_BATCH;
		}
		if (ss != STORE_OK)
			rc = service_store_fail(err, st,
			    "list the games to remind");
		pool_put(svc, st);
		if (rc != 0)
			break;
		before = n;
		rc = clock_jobs(svc, JOB_REMIND, &l, th, nth, &n, err);
		if (rc != 0 || !full || n == before)
			break;
	}
	free(l.ids);
	if (sent != NULL)
		*sent = n;
	return rc;
}

/*
 * In the writer: remind the side to move that its deadline comes near,
 * once per move and threshold: the nearest threshold its thinking time
 * left (leave days do not count) has passed is taken, its row and those of
 * the farther thresholds are written with the notice, so a reminder that
 * was missed (the server was down) is not sent after a nearer one. No
 * notice goes for a threshold the move began inside of (a "1d/move" game
 * would otherwise be reminded at every move), nor to a player without an
 * address; it is recorded all the same, so the game is not listed again.
 */
int
job_remind(struct service *svc, struct job *j, struct store_game *row,
    struct cached *c, int64_t now)
{
	const struct job_remind	*r = &j->u.remind;
	const struct game	*g = &c->state;
	struct store_player	 p;
	struct store_settings	 set;
	enum store_status	 ss;
	int64_t			 deadline, left, at_start, t;
	int64_t			 own[SERVICE_REMINDERS_MAX];
	const int64_t		*th = r->thresholds;
	size_t			 i, k, nth = r->nthresholds;
	int			 turn, ply;
	bool			 send, off = false;

	if (!game_ongoing(g) || (deadline = game_deadline(g)) <= now)
		return 0;
	/* The player's own choice: none, or their thresholds. */
	turn = game_turn(g);
	if (store_settings_get(svc->wstore, turn == CHESS_WHITE ?
	    row->white : row->black, &set) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the reminder settings");
	if (strcmp(set.reminders, "off") == 0)
		off = true;
	else if (strcmp(set.reminders, "on") != 0 &&
	    self_reminders_parse(set.reminders, own, &nth) == 0) {
		qsort(own, nth, sizeof own[0], threshold_cmp);
		th = own;
	} else
		nth = r->nthresholds;
	/* Thinking time left: a leave does not count. */
	left = game_time_left(g, turn, now);
	for (i = 0; i < nth && left > th[i]; i++)
		;
	if (i == nth)
		return 0;
	t = th[i];
	ply = (int)game_ply(g);
	ss = store_reminder_get(svc->wstore, row->id, ply, t, NULL);
	if (ss == STORE_OK)
		return 0;
	if (ss != STORE_NOTFOUND)
		return service_store_fail(j->err, svc->wstore,
		    "look the reminders up");
	at_start = g->remaining[turn];
	send = at_start > t && !off;
	if (send) {
		ss = store_player_get(svc->wstore, turn == CHESS_WHITE ?
		    row->white : row->black, &p);
		if (ss != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "read the player to remind");
		send = p.email[0] != '\0';
	}
	if (send && notify_game(svc, svc->wstore, row, g, c->san,
	    NOTICE_REMINDER, turn, -1, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the reminder");
	for (k = i; k < nth; k++) {
		ss = store_reminder_add(svc->wstore, row->id, ply,
		    th[k], k == i && send ? now : 0);
		if (ss != STORE_OK && ss != STORE_EXISTS)
			return service_store_fail(j->err, svc->wstore,
			    "record the reminder");
	}
	/* The streams hear of a threshold passed, mail or not. */
	live_note(svc, SERVICE_LIVE_CLOCK, row, g, -1, NULL, now);
	if (svc->live.n > 0)
		svc->live.v[svc->live.n - 1].warning = t;
	j->changed = send;
	return 0;
}

/* Tell whether a player's daily digest is due at `now`. */
static bool
digest_due(struct store *st, const struct store_player *p, int64_t now)
{
	struct store_settings	set;
	int64_t			slot;

	if (strcmp(p->digest, "daily") != 0 || p->email[0] == '\0')
		return false;
	if (store_settings_get(st, p->id, &set) != STORE_OK ||
	    set.digest_hour < 0)
		return now - p->digest_sent >= GAME_DAY;
	/* At the player's hour (UTC): once after the last time it struck. */
	slot = now - (now % GAME_DAY + GAME_DAY) % GAME_DAY +
	    (int64_t)set.digest_hour * 3600;
	if (slot > now)
		slot -= GAME_DAY;
	return p->digest_sent < slot;
}

/* Players whose digest is due, gathered. */
struct digest_list {
	struct id_list	 l;
	int64_t		 now;
	struct store	*st;
};

/* Keep a player whose daily digest is due. */
static int
digest_collect(void *arg, const struct store_player *p)
{
	struct digest_list	*dl = arg;
	int64_t			*ids;

	if (!digest_due(dl->st, p, dl->now))
		return 0;
	if ((ids = service_grow(dl->l.ids, &dl->l.cap, dl->l.n, sizeof *ids,
	    16)) == NULL)
		return -1;
	dl->l.ids = ids;
	dl->l.ids[dl->l.n++] = p->id;
	return 0;
}

/*
 * In the writer: queue player `p`'s digest (the games where it is their
 * move) when there is one, and record the day's digest as done. *sent is
 * set when a mail was queued.
 */
static int
digest_one(struct service *svc, const struct store_player *p, int64_t now,
    bool *sent, struct service_error *err)
{
	struct store			*st = svc->wstore;
	struct store_game_filter	 f;
	struct id_list			 games;
	struct service_game		*g = NULL;
	struct notice_digest_game	*e = NULL;
	const char			**sanv = NULL;
	struct notice			 n;
	size_t				 i, k, ng = 0, nsan = 0, o;
	int				 color, rc = -1;

	*sent = false;
	memset(&games, 0, sizeof games);
	memset(&f, 0, sizeof f);
	f.player = p->name;
	f.status = "ongoing";
	if (store_game_list(st, &f, id_collect, &games) != STORE_OK) {
		service_store_fail(err, st, "list the player's games");
		goto out;
	}
	if (games.n > 0 && ((g = calloc(games.n, sizeof *g)) == NULL ||
	    (e = calloc(games.n, sizeof *e)) == NULL)) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	for (i = 0; i < games.n; i++) {
		if (rebuild_read(svc, st, games.ids[i], now, &g[ng], err) != 0)
			goto out;
		color = row_color(&g[ng].row, p->id);
		if (color == -1 || !game_ongoing(&g[ng].state) ||
		    game_turn(&g[ng].state) != color) {
			service_game_free(&g[ng]);
			continue;
		}
		nsan += g[ng].state.chess.nply;
		ng++;
	}
	if (ng > 0) {
		if ((sanv = calloc(nsan + 1, sizeof *sanv)) == NULL) {
			service_fail(err, 500, "internal", "out of memory");
			goto out;
		}
		for (i = 0, o = 0; i < ng; i++) {
			color = row_color(&g[i].row, p->id);
			e[i].game_id = g[i].row.id;
			e[i].white = g[i].row.white_name;
			e[i].black = g[i].row.black_name;
			e[i].chess960 = strcmp(g[i].row.variant,
			    "chess960") == 0;
			e[i].start_fen = g[i].row.start_fen;
			e[i].san = sanv + o;
			e[i].nply = g[i].state.chess.nply;
			for (k = 0; k < e[i].nply; k++)
				sanv[o++] = g[i].san[k];
			e[i].deadline = game_deadline(&g[i].state);
			e[i].time_left = game_time_left(&g[i].state, color,
			    now);
		}
		notify_start(&n, NOTICE_DIGEST, p->email, p->name,
		    player_lang(p));
		n.digest = e;
		n.ndigest = ng;
		if (notify_queue(svc, st, &n, now) != 0) {
			service_store_fail(err, st, "queue the digest");
			goto out;
		}
		*sent = true;
	}
	if (store_player_digest_sent(st, p->id, now) != STORE_OK) {
		service_store_fail(err, st, "record the digest");
		goto out;
	}
	rc = 0;
 out:
	for (i = 0; i < ng; i++)
		service_game_free(&g[i]);
	free(g);
	free(e);
	free(sanv);
	free(games.ids);
	return rc;
}

/* Queue the daily digest of each player who asked for one. */
int
service_clock_digest(struct service *svc, size_t *sent,
    struct service_error *err)
{
	struct store		*st;
	struct digest_list	 dl;
	size_t			 n = 0;
	int			 rc = 0;

	if (sent != NULL)
		*sent = 0;
	if (!svc->mail)
		return 0;
	memset(&dl, 0, sizeof dl);
	dl.now = service_now(svc);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	dl.st = st;
	if (store_player_list(st, 0, 0, digest_collect, &dl) != STORE_OK)
		rc = service_store_fail(err, st, "list the players");
	pool_put(svc, st);
	if (rc == 0)
		rc = clock_jobs(svc, JOB_DIGEST, &dl.l, NULL, 0, &n, err);
	free(dl.l.ids);
	if (sent != NULL)
		*sent = n;
	return rc;
}

/*
 * Queue the summary of the refusals held for each player whose last
 * summary is a day old: held refusals are told within a day, also when no
 * refusal comes after them.
 */
int
service_clock_summaries(struct service *svc, size_t *sent,
    struct service_error *err)
{
	struct store	*st;
	struct id_list	 l;
	size_t		 n = 0;
	int		 rc = 0;

	if (sent != NULL)
		*sent = 0;
	if (!svc->mail)
		return 0;
	memset(&l, 0, sizeof l);
	if ((l.ids = calloc(SERVICE_CLOCK_BATCH, sizeof *l.ids)) == NULL)
		return service_fail(err, 500, "internal", "out of memory");
	if ((st = pool_get(svc, err)) == NULL) {
		free(l.ids);
		return -1;
	}
	if (store_refusal_due(st, service_now(svc) - GAME_DAY, l.ids,
	    SERVICE_CLOCK_BATCH, &l.n) != STORE_OK)
		rc = service_store_fail(err, st, "list the held refusals");
	pool_put(svc, st);
	if (rc == 0)
		rc = clock_jobs(svc, JOB_SUMMARY, &l, NULL, 0, &n, err);
	free(l.ids);
	if (sent != NULL)
		*sent = n;
	return rc;
}

/* In the writer: queue a player's digest, when it is still due. */
int
job_digest(struct service *svc, struct job *j, int64_t now)
{
	struct store_player	p;
	bool			sent;

	/* Read again in the writer's transaction: still due? */
	if (store_player_get(svc->wstore, j->u.digest.player_id, &p) !=
	    STORE_OK || !digest_due(svc->wstore, &p, now))
		return 0;
	if (digest_one(svc, &p, now, &sent, j->err) != 0)
		return -1;
	j->changed = sent;
	return 0;
}
