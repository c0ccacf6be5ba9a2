/*
 * service/listen.c: what other servers on the database committed: told at
 * each commit, heard by a listener thread (PostgreSQL's NOTIFY/LISTEN).
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
 * Several servers on one PostgreSQL database each keep players and keys,
 * games' rendered bytes and their streams' clients in memory. Each
 * writer's transaction tells the others what it changed (listen_tell(),
 * before the commit; PostgreSQL sends it at the commit, and only if it
 * commits), one line an item, after a first line naming the server:
 *
 *   corrchess 1 ORIGIN
 *   p                        players, keys or doors changed
 *   g                        ratings changed (and nothing of the above)
 *   r GAME FIRST LAST W B    records FIRST..LAST appended to GAME
 *   s GAME W B               GAME was created
 *   w GAME SECONDS W B       a reminder's threshold passed in GAME
 *
 * (W and B: the game's players' ids; a server before 0.2.0 did not send
 * them, and one that reads a line without them reads the game back. An
 * older server said p for a change of ratings too, and ignores g: there
 * the Elo tags of games kept in memory may show a rating of before until
 * the game or a player changes.)
 *
 * The listener of every other server (listen_main()) drops what it kept
 * of those players and games, and, when one of its streams follows the
 * game or one of its players (service_config.events_wanted), reads what
 * the item names from the database, after that commit, and hands its
 * streams the same events its own writer would have noted
 * (live_replay()). A game nobody follows there costs that server no read
 * at all: reading back each move another server made was most of what a
 * second server cost. A notice sent while a listener
 * is away (its connection lost) is not heard: a stream's client then
 * misses those events, as it would across a restart. The players, keys
 * and doors kept are read afresh when the listener connects again, and
 * while it is away doors and games' rendered bytes are not served from
 * memory (signers.c, render.c); games' bytes are checked against their
 * stored rows all the same.
 */

#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/log.h"
#include "util/metrics.h"
#include "service/service_int.h"

/* How long the listener waits for a notice before it looks at the
 * stopping flag, and waits before connecting again. */
#define LISTEN_WAIT_MS		250
#define LISTEN_RETRY_MS		1000

/* Other servers' games heard: read back for a stream here, or not. */
static struct metric	*m_read, *m_skipped;
static pthread_once_t	 metrics_once = PTHREAD_ONCE_INIT;

/* Register the listener's metrics, once a process. */
static void
listen_metrics_init(void)
{
	m_read = metrics_counter("corrchess_listen_games_total{read=\"yes\"}",
	    "Games another server on the database changed, by whether "
	    "this server read them back (a stream here follows them)");
	m_skipped = metrics_counter(
	    "corrchess_listen_games_total{read=\"no\"}",
	    "Games another server on the database changed, by whether "
	    "this server read them back (a stream here follows them)");
}

/* Tell whether the service tells and hears, and make the server's name
 * in its notices. */
void
listen_init(struct service *svc)
{
	uint8_t	r[8];
	size_t	i;

	svc->listen = store_target_is_pg(svc->db_path);
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
		/* Without entropy: the pid and the time tell servers apart
		 * well enough for skipping one's own notices. */
		snprintf(svc->origin, sizeof svc->origin, "%08lx%08lx",
		    (unsigned long)getpid(), (unsigned long)time(NULL));
		return;
	}
	for (i = 0; i < sizeof r; i++)
		snprintf(svc->origin + 2 * i, 3, "%02x", r[i]);
}

/* Add one item's line to a notice (after `head` bytes of its first line),
 * sending what is full first; -1 on a store failure or out of memory. */
static int
tell_line(struct service *svc, struct buf *b, size_t head, const char *line)
{
	if (b->failed)
		return -1;
	if (b->len + strlen(line) > STORE_NOTIFY_MAX && b->len > head) {
		if (store_notify(svc->wstore, b->data) != STORE_OK)
			return -1;
		b->len = head;
		b->data[b->len] = '\0';
	}
	buf_adds(b, line);
	return b->failed ? -1 : 0;
}

/*
 * In the writer, before the commit of a batch: tell the other servers what
 * it changed (its live events, `players` when players, keys or doors were
 * written, `ratings` when ratings were). Nothing on SQLite. -1 on failure
 * (the batch is then undone: the others would not hear of it).
 */
int
listen_tell(struct service *svc, bool players, bool ratings)
{
	const struct service_live	*e;
	struct buf			 b = { 0 };
	char				 line[96];
	int64_t				 game = 0, first = 0, last = 0;
	int64_t				 white = 0, black = 0;
	size_t				 i, head;
	int				 rc = -1;

	if (!svc->listen || (!players && !ratings && svc->live.n == 0))
		return 0;
	buf_addf(&b, "corrchess 1 %s\n", svc->origin);
	head = b.len;
	if (players && tell_line(svc, &b, head, "p\n") != 0)
		goto out;
	if (!players && ratings && tell_line(svc, &b, head, "g\n") != 0)
		goto out;
	for (i = 0; i <= svc->live.n; i++) {
		e = i < svc->live.n ? &svc->live.v[i] : NULL;
		/* A run of records of one game is one line. */
		if (e != NULL && e->seq != 0 && game == e->game_id &&
		    e->seq <= last + 1) {
			last = e->seq;
			continue;
		}
		if (game != 0) {
			snprintf(line, sizeof line, "r %" PRId64 " %" PRId64
			    " %" PRId64 " %" PRId64 " %" PRId64 "\n", game,
			    first, last, white, black);
			if (tell_line(svc, &b, head, line) != 0)
				goto out;
			game = 0;
		}
		if (e == NULL)
			break;
		if (e->seq != 0) {
			game = e->game_id;
			first = last = e->seq;
			white = e->white;
			black = e->black;
			continue;
		}
		if (e->kind == SERVICE_LIVE_START)
			snprintf(line, sizeof line, "s %" PRId64 " %" PRId64
			    " %" PRId64 "\n", e->game_id, e->white,
			    e->black);
		else if (e->kind == SERVICE_LIVE_CLOCK)
			snprintf(line, sizeof line, "w %" PRId64 " %" PRId64
			    " %" PRId64 " %" PRId64 "\n", e->game_id,
			    e->warning, e->white, e->black);
		else
			continue;
		if (tell_line(svc, &b, head, line) != 0)
			goto out;
	}
	if (b.failed)
		goto out;
	rc = 0;
	if (b.len > head && store_notify(svc->wstore, b.data) != STORE_OK)
		rc = -1;
 out:
	/* Out of memory: the batch commits; the others' streams miss it. */
	if (b.failed) {
		log_warnx("listen: out of memory for a notice");
		rc = 0;
	}
	buf_free(&b);
	return rc;
}

/* Hear one item: drop what is kept of it, note its events into `out`. */
static void
hear_item(struct service *svc, struct store *st, const char *line,
    struct live_list *out)
{
	struct service_error	err;
	int64_t			game, a = 0, b = 0, w = 0, bl = 0;
	int			kind = -1;
	char			c;

	if (strcmp(line, "p") == 0) {
		signers_changed(svc);
		return;
	}
	if (strcmp(line, "g") == 0) {
		ratings_changed(svc);
		return;
	}
	if (sscanf(line, "%c %" SCNd64, &c, &game) < 2 || game <= 0)
		return;
	switch (c) {
	case 'r':
		(void)sscanf(line, "%c %" SCNd64 " %" SCNd64 " %" SCNd64 " %"
		    SCNd64 " %" SCNd64, &c, &game, &a, &b, &w, &bl);
		break;
	case 's':
		kind = SERVICE_LIVE_START;
		(void)sscanf(line, "%c %" SCNd64 " %" SCNd64 " %" SCNd64, &c,
		    &game, &w, &bl);
		break;
	case 'w':
		kind = SERVICE_LIVE_CLOCK;
		/* b: the threshold */
		(void)sscanf(line, "%c %" SCNd64 " %" SCNd64 " %" SCNd64 " %"
		    SCNd64, &c, &game, &b, &w, &bl);
		break;
	default:
		return;		/* a later server's item: not ours to read */
	}
	render_forget(svc, game);
	if (svc->events_cb == NULL)
		return;
	/* Without the players' ids (an older server's line): read it. */
	if (svc->events_wanted != NULL && w > 0 && bl > 0 &&
	    !svc->events_wanted(svc->events_arg, game, w, bl)) {
		metrics_inc(m_skipped);
		return;
	}
	metrics_inc(m_read);
	memset(&err, 0, sizeof err);
	if (live_replay(st, game, kind < 0 ? a : 0, kind < 0 ? b : 0, kind,
	    kind == SERVICE_LIVE_CLOCK ? b : 0, service_now(svc), out,
	    &err) != 0)
		log_warnx("listen: game %" PRId64 ": %s", game, err.message);
}

/* Hear one notice of another server. */
static void
hear(struct service *svc, struct store *st, char *text)
{
	struct live_list	 out = { NULL, 0, 0 };
	char			*line, *next;
	char			 origin[sizeof svc->origin];

	if (sscanf(text, "corrchess 1 %16s", origin) != 1 ||
	    strcmp(origin, svc->origin) == 0)
		return;
	if ((line = strchr(text, '\n')) == NULL)
		return;
	for (line++; *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = line + strlen(line);
		hear_item(svc, st, line, &out);
	}
	if (out.n > 0 && svc->events_cb != NULL)
		svc->events_cb(svc->events_arg, out.v, out.n);
	free(out.v);
}

/* Tell whether the listener is asked to stop. */
static bool
listen_stopping(struct service *svc)
{
	bool	stop;

	pthread_mutex_lock(&svc->lock);
	stop = svc->listen_stop;
	pthread_mutex_unlock(&svc->lock);
	return stop;
}

/* Run the listener thread: connect, LISTEN, hear notices until stopped. */
static void *
listen_main(void *arg)
{
	struct service		*svc = arg;
	struct store_options	 opts = { .sync = svc->sync,
	    .password_file = svc->password_file };
	struct store		*st = NULL;
	char			 text[STORE_NOTIFY_MAX + 1], why[256];
	bool			 warned = false;
	int			 rc;

	while (!listen_stopping(svc)) {
		if (st == NULL) {
			if ((st = store_open_with(svc->db_path, &opts, why,
			    sizeof why)) == NULL || store_listen(st) !=
			    STORE_OK) {
				if (!warned)
					log_warnx("listen: cannot hear the "
					    "other servers: %s", st == NULL ?
					    why : store_errmsg(st));
				warned = true;
				store_close(st);
				st = NULL;
				usleep(LISTEN_RETRY_MS * 1000);
				continue;
			}
			if (warned)
				log_info("listen: hearing the other servers "
				    "again");
			warned = false;
			/* What was missed meanwhile is read afresh; what is
			 * kept from now on is heard of. */
			signers_changed(svc);
			atomic_fetch_add(&svc->listen_session, 1);
		}
		rc = store_listen_wait(st, LISTEN_WAIT_MS, text, sizeof text);
		if (rc < 0) {
			/* Nothing heard now: nothing kept of the players is
			 * served until the next connection. */
			atomic_fetch_add(&svc->listen_session, 1);
			log_warnx("listen: %s", store_errmsg(st));
			warned = true;
			store_close(st);
			st = NULL;
		} else if (rc > 0)
			hear(svc, st, text);
	}
	if (st != NULL)
		atomic_fetch_add(&svc->listen_session, 1);
	store_close(st);
	return NULL;
}

/* Start the listener (PostgreSQL only); -1 when the thread cannot start. */
int
listen_start(struct service *svc)
{
	if (!svc->listen)
		return 0;
	pthread_once(&metrics_once, listen_metrics_init);
	if (pthread_create(&svc->listener, NULL, listen_main, svc) != 0)
		return -1;
	svc->listener_started = true;
	return 0;
}

/* Stop the listener and wait for it. */
void
listen_stop(struct service *svc)
{
	if (!svc->listener_started)
		return;
	pthread_mutex_lock(&svc->lock);
	svc->listen_stop = true;
	pthread_mutex_unlock(&svc->lock);
	pthread_join(svc->listener, NULL);
	svc->listener_started = false;
}
