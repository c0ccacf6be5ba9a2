/*
 * api/api_stream.c: live event streams of games and players (NDJSON, SSE).
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
 * The hub: every open stream is a subscription to one game or to one
 * player, kept in buckets by id. The writer hands it each batch's events
 * after the batch committed (api_streams_publish); each event is written
 * once as JSON and pushed to the streams of its game and of its two
 * players, framed as each stream speaks (a line of NDJSON, or an SSE
 * event). A thread pushes a keep-alive to every stream every few seconds,
 * first asking each stream's socket whether its client left: that is how
 * a stream whose client left is found and dropped, within a keep-alive.
 *
 * There is one hub per process, made by api_streams_start() before the
 * HTTP server starts and freed by api_streams_stop() after it stopped;
 * the route handlers reach it through api_stream_open().
 */

#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "api/api_stream.h"
#include "api/api_respond.h"
#include "api/api_games.h"
#include "util/log.h"
#include "util/metrics.h"

#define STREAM_BUCKETS	4096

/* One open stream. */
struct sub {
	struct sub		*next;		/* in its bucket */
	struct http_stream	*st;
	int64_t			 id;		/* the game's or player's */
	bool			 player;	/* a player's stream */
	bool			 sse;		/* text/event-stream */
};

struct api_streams {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;
	struct sub	*games[STREAM_BUCKETS];
	struct sub	*players[STREAM_BUCKETS];
	size_t		 n;
	struct http_stream **wake;	/* to wake after a fan-out's pushes */
	size_t		 nwake, wakecap;
	unsigned	 heartbeat;	/* seconds */
	size_t		 max_pending;	/* bytes a stream may hold */
	pthread_t	 thread;
	bool		 started, stop;
};

static struct api_streams	*hub;
static struct metric		*m_open, *m_events, *m_dropped;

/* The bucket of an id. */
static struct sub **
bucket(struct api_streams *h, bool player, int64_t id)
{
	return &(player ? h->players : h->games)[(uint64_t)id %
	    STREAM_BUCKETS];
}

/* One event as each kind of stream says it. */
struct frame {
	const char	*nd;		/* NDJSON: the line, "\n" included */
	size_t		 ndlen;
	const char	*sse;		/* SSE: "event: T\ndata: JSON\n\n" */
	size_t		 sselen;
};

/* The keep-alives: their lengths are the strings' own (a NUL sent after
 * the SSE comment would stick to the next event's first field name, and
 * EventSource would not see that event's type). */
#define KEEPALIVE_ND	"\n"
#define KEEPALIVE_SSE	": keep-alive\n\n"
static const struct frame keepalive = { KEEPALIVE_ND, sizeof KEEPALIVE_ND - 1,
    KEEPALIVE_SSE, sizeof KEEPALIVE_SSE - 1 };

/* Keep a stream to wake when the fan-out's pushes are done (now, when
 * the list cannot grow). The caller holds the hub's lock. */
static void
wake_later(struct api_streams *h, struct http_stream *st)
{
	struct http_stream	**v;
	size_t			  cap;

	if (h->nwake == h->wakecap) {
		cap = h->wakecap ? h->wakecap * 2 : 1024;
		if ((v = realloc(h->wake, cap * sizeof *v)) == NULL) {
			http_stream_wake(st);
			return;
		}
		h->wake = v;
		h->wakecap = cap;
	}
	h->wake[h->nwake++] = st;
}

/* Wake the streams a fan-out pushed to. The caller holds the hub's lock
 * (which keeps them from being released). */
static void
wake_all(struct api_streams *h)
{
	size_t	i;

	for (i = 0; i < h->nwake; i++)
		http_stream_wake(h->wake[i]);
	h->nwake = 0;
}

/*
 * Push frame `f` to the streams of bucket `pp` that are `id`'s (any, with
 * id -1), keeping those to wake for wake_all(); drop those that are gone
 * or too far behind. With `probe` (the keep-alives), first ask each
 * stream's socket whether its client left: libmicrohttpd would notice
 * only when a later push failed to send, two or three pushes on. The
 * caller holds the hub's lock.
 */
static void
bucket_push(struct api_streams *h, struct sub **pp, int64_t id,
    const struct frame *f, bool probe)
{
	struct sub	*s;
	int		 rc;

	while ((s = *pp) != NULL) {
		rc = 0;
		if (probe)
			rc = http_stream_probe(s->st);
		if (rc == 0 && (id < 0 || s->id == id))
			rc = http_stream_push_later(s->st, s->sse ? f->sse :
			    f->nd, s->sse ? f->sselen : f->ndlen);
		if (rc < 0) {
			*pp = s->next;
			http_stream_release(s->st);
			free(s);
			h->n--;
			metrics_set(m_open, (int64_t)h->n);
			metrics_inc(m_dropped);
			continue;
		}
		if (rc > 0)
			wake_later(h, s->st);
		pp = &s->next;
	}
}

/* Name an event's type, as the streams say it. */
static const char *
event_type(enum service_live_kind k)
{
	switch (k) {
	case SERVICE_LIVE_START:
		return "start";
	case SERVICE_LIVE_MOVE:
		return "move";
	case SERVICE_LIVE_OFFER:
		return "offer";
	case SERVICE_LIVE_DECLINE:
		return "decline";
	case SERVICE_LIVE_END:
		return "end";
	case SERVICE_LIVE_CLOCK:
		return "clock";
	case SERVICE_LIVE_MESSAGE:
		return "message";
	}
	return "event";
}

/* Name a colour, or NULL. */
static const char *
color_name(int c)
{
	return c == 0 ? "white" : c == 1 ? "black" : NULL;
}

/* Write an event as one line of JSON ending in "\n" (malloc'd). */
static char *
event_json(const struct service_live *e, size_t *lenp)
{
	json_t	*o;
	char	*text, *line;
	size_t	 n;

	o = json_pack("{s:s,s:I,s:s,s:s,s:i,s:s?,s:s?,s:s?,s:b}",
	    "type", event_type(e->kind), "game", (json_int_t)e->game_id,
	    "white", e->white_name, "black", e->black_name, "ply", e->ply,
	    "turn", e->ongoing ? color_name(e->turn) : NULL,
	    "by", color_name(e->by), "fen", e->fen[0] ? e->fen : NULL,
	    "ongoing", e->ongoing);
	if (o == NULL)
		return NULL;
	if (e->kind == SERVICE_LIVE_MOVE) {
		json_object_set_new(o, "san", json_string(e->san));
		json_object_set_new(o, "conditional",
		    json_boolean(e->conditional));
	}
	if (e->kind == SERVICE_LIVE_END) {
		json_object_set_new(o, "result", json_string(e->result));
		json_object_set_new(o, "termination",
		    json_string(e->termination));
	}
	if (e->kind == SERVICE_LIVE_MESSAGE) {
		json_object_set_new(o, "record", json_integer((json_int_t)
		    e->seq));
		json_object_set_new(o, "from", json_string(e->by == 0 ?
		    e->white_name : e->black_name));
		json_object_set_new(o, "kind", json_string(e->action));
		json_object_set_new(o, "text", json_string(e->text));
	}
	if (e->kind == SERVICE_LIVE_CLOCK && e->warning > 0)
		json_object_set_new(o, "warning",
		    json_integer((json_int_t)e->warning));
	if (e->clock[0] >= 0 && e->clock[1] >= 0)
		json_object_set_new(o, "clocks", json_pack("{s:I,s:I}",
		    "white", (json_int_t)e->clock[0], "black",
		    (json_int_t)e->clock[1]));
	if (e->deadline > 0)
		json_object_set_new(o, "deadline",
		    json_integer((json_int_t)e->deadline));
	json_object_set_new(o, "at", json_integer((json_int_t)e->at));
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (text == NULL)
		return NULL;
	n = strlen(text);
	if ((line = realloc(text, n + 2)) == NULL) {
		free(text);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	*lenp = n;
	return line;
}

/*
 * Fan a committed batch's events out to the streams that want them: each
 * event written once in each framing, pushed to every stream of its game
 * and of its players, then those streams woken together. An event no
 * stream follows is not written at all: this runs on the writer's thread,
 * after every commit.
 */
void
api_streams_publish(void *arg, const struct service_live *ev, size_t n)
{
	struct api_streams	*h = arg;
	struct frame		 f;
	char			*json, *sse;
	size_t			 i, len;
	int			 sselen;

	if (h == NULL)
		return;
	for (i = 0; i < n; i++) {
		/* A stream opened now starts after this event. */
		if (!api_streams_wanted(h, ev[i].game_id, ev[i].white,
		    ev[i].black))
			continue;
		if ((json = event_json(&ev[i], &len)) == NULL) {
			log_warnx("streams: out of memory writing an event");
			continue;
		}
		sselen = asprintf(&sse, "event: %s\ndata: %.*s\n\n",
		    event_type(ev[i].kind), (int)len, json);
		if (sselen < 0) {
			log_warnx("streams: out of memory writing an event");
			free(json);
			continue;
		}
		f.nd = json;
		f.ndlen = len + 1;
		f.sse = sse;
		f.sselen = (size_t)sselen;
		pthread_mutex_lock(&h->lock);
		bucket_push(h, bucket(h, false, ev[i].game_id),
		    ev[i].game_id, &f, false);
		bucket_push(h, bucket(h, true, ev[i].white), ev[i].white, &f,
		    false);
		if (ev[i].black != ev[i].white)
			bucket_push(h, bucket(h, true, ev[i].black),
			    ev[i].black, &f, false);
		wake_all(h);
		pthread_mutex_unlock(&h->lock);
		metrics_inc(m_events);
		free(sse);
		free(json);
	}
}

/* Tell whether a stream is open on `id` (a player's or a game's). */
static bool
bucket_has(struct api_streams *h, bool player, int64_t id)
{
	struct sub	*s;

	for (s = *bucket(h, player, id); s != NULL; s = s->next)
		if (s->id == id && s->player == player)
			return true;
	return false;
}

/* Tell whether any stream follows a game or one of its players. */
bool
api_streams_wanted(void *arg, int64_t game, int64_t white, int64_t black)
{
	struct api_streams	*h = arg;
	bool			 wanted;

	if (h == NULL)
		return false;
	if (white <= 0 || black <= 0)
		return true;
	pthread_mutex_lock(&h->lock);
	wanted = bucket_has(h, false, game) || bucket_has(h, true, white) ||
	    bucket_has(h, true, black);
	pthread_mutex_unlock(&h->lock);
	return wanted;
}

/* Push keep-alives every few seconds until the hub stops. */
static void *
heartbeat_main(void *arg)
{
	struct api_streams	*h = arg;
	struct timespec		 until;
	size_t			 b;

	pthread_mutex_lock(&h->lock);
	while (!h->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += h->heartbeat;
		while (!h->stop && pthread_cond_timedwait(&h->cond, &h->lock,
		    &until) == 0)
			;
		if (h->stop)
			break;
		for (b = 0; b < STREAM_BUCKETS; b++) {
			bucket_push(h, &h->games[b], -1, &keepalive, true);
			bucket_push(h, &h->players[b], -1, &keepalive, true);
		}
		wake_all(h);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Start the hub. */
struct api_streams *
api_streams_start(unsigned heartbeat, size_t max_pending)
{
	struct api_streams	*h;

	if ((h = calloc(1, sizeof *h)) == NULL)
		return NULL;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	h->heartbeat = heartbeat > 0 ? heartbeat : API_STREAM_HEARTBEAT;
	h->max_pending = max_pending > 0 ? max_pending :
	    API_STREAM_MAX_PENDING;
	if (m_open == NULL) {
		m_open = metrics_gauge("corrchess_streams_open",
		    "Event streams open (games' and players')");
		m_events = metrics_counter("corrchess_stream_events_total",
		    "Events fanned out to the streams");
		m_dropped = metrics_counter("corrchess_streams_closed_total",
		    "Streams closed: the client left, or fell too far behind");
	}
	if (pthread_create(&h->thread, NULL, heartbeat_main, h) != 0) {
		pthread_cond_destroy(&h->cond);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return NULL;
	}
	h->started = true;
	hub = h;
	return h;
}

/* Stop the hub: every stream ends. */
void
api_streams_stop(struct api_streams *h)
{
	struct sub	*s, *next;
	size_t		 b, k;

	if (h == NULL)
		return;
	pthread_mutex_lock(&h->lock);
	h->stop = true;
	pthread_cond_signal(&h->cond);
	pthread_mutex_unlock(&h->lock);
	if (h->started)
		pthread_join(h->thread, NULL);
	if (hub == h)
		hub = NULL;
	for (k = 0; k < 2; k++)
		for (b = 0; b < STREAM_BUCKETS; b++)
			for (s = (k ? h->players : h->games)[b]; s != NULL;
			    s = next) {
				next = s->next;
				http_stream_release(s->st);
				free(s);
			}
	free(h->wake);
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

/* Open a stream of a game's or a player's events. */
void
api_stream_open(struct http_request *req, struct http_response *resp,
    int64_t id, bool player, const char *first)
{
	struct api_streams	*h = hub;
	struct sub		*s, **b;
	const char		*accept = http_request_header(req, "Accept");
	char			*frame = NULL;
	size_t			 len;
	bool			 sse;

	if (h == NULL) {
		http_respond_error(resp, 503, "no-streams",
		    "this server does not serve event streams");
		return;
	}
	sse = accept != NULL && strstr(accept, "text/event-stream") != NULL;
	if (sse) {
		if (asprintf(&frame, "event: %s\ndata: %s\n\n", player ?
		    "player" : "game", first) == -1)
			frame = NULL;
	} else if (asprintf(&frame, "%s\n", first) == -1)
		frame = NULL;
	if (frame == NULL || (s = calloc(1, sizeof *s)) == NULL) {
		free(frame);
		http_respond_error(resp, 503, "out-of-memory",
		    "the server cannot open a stream now; try again later");
		return;
	}
	len = strlen(frame);
	s->st = http_respond_stream(resp, 200, sse ? "text/event-stream" :
	    "application/x-ndjson", frame, len, h->max_pending);
	free(frame);
	if (s->st == NULL) {
		free(s);
		return;
	}
	http_response_header(resp, "Cache-Control", "no-cache");
	http_response_header(resp, "X-Accel-Buffering", "no");
	s->id = id;
	s->player = player;
	s->sse = sse;
	pthread_mutex_lock(&h->lock);
	b = bucket(h, player, id);
	s->next = *b;
	*b = s;
	h->n++;
	metrics_set(m_open, (int64_t)h->n);
	pthread_mutex_unlock(&h->lock);
}

/* Open a stream whose first line is JSON object `o` (stolen). */
static void
stream_open(struct http_request *req, struct http_response *resp,
    int64_t id, bool player, json_t *o)
{
	char	*first = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	if (first == NULL) {
		http_respond_error(resp, 503, "out-of-memory",
		    "the server cannot open a stream now; try again later");
		return;
	}
	api_stream_open(req, resp, id, player, first);
	free(first);
}

/*
 * GET /api/v1/games/{id}/stream: the game (as GET /games/{id}, with
 * "type":"game"), then one line per event as it commits; NDJSON, or SSE
 * for Accept: text/event-stream.
 */
void
api_game_stream(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_game	 g;
	struct service_error	 err;
	json_t			*o;
	int64_t			 id = http_request_param_int(req, "id");

	if (api_query_refused(req, resp, ""))
		return;
	if (service_game_get(user, id, &g, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	o = api_game_json(&g);
	service_game_free(&g);
	if (o != NULL)
		json_object_set_new(o, "type", json_string("game"));
	stream_open(req, resp, id, false, o);
}

/* GET /api/v1/players/{name}/stream: the events of all the player's
 * games (started, moves, offers, ends, clocks). */
void
api_player_stream(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_player	 sp;
	struct service_error	 err;
	int64_t			 id;
	json_t			*o;

	if (api_query_refused(req, resp, ""))
		return;
	if (service_player_get(user, http_request_param(req, "name"), &sp,
	    &err) != 0) {
		api_error(resp, &err);
		return;
	}
	id = sp.p.id;
	o = json_pack("{s:s,s:s}", "type", "player", "player", sp.p.name);
	service_player_free(&sp);
	stream_open(req, resp, id, true, o);
}
