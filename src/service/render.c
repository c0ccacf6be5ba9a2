/*
 * service/render.c: games' answers kept as rendered bytes for readers.
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
 * A front door renders a game (JSON, text, the web page) from what
 * service_game_get() gives; the bytes are a function of the game's row
 * (its record head included), of the service's second when the game has a
 * running clock, and of the players as kept (their doors in the JSON,
 * their ratings in the PGN's Elo tags).
 * They are kept here, one slot a game and kind, and served again without
 * reading the store while they hold:
 *
 * - The row: on SQLite, every write of a game's row goes through this
 *   server's writer, which drops the game's slots after each commit that
 *   wrote it (store_games_written(), before the actions' answers): the
 *   bytes are served without reading the store. On PostgreSQL another
 *   server may write the game, and its notice (listen.c) is heard only
 *   after that server answered: a client that moved through it and reads
 *   through this one at once would get the game as it was. There the row
 *   is read (one read) and compared with the one the bytes were made
 *   from; the notice only drops the bytes sooner.
 * - The second: kept with the bytes, unless the game has no clock or is
 *   over (nothing in its answers then moves with time).
 * - The players: the generation of what the bytes show of them
 *   (svc->shown_gen, signers.c), which every change of a player, a key,
 *   doors or a rating ends, here or on another server (heard by the
 *   listener); on PostgreSQL only while the listener is connected, and
 *   for bytes made within its current connection: a notice sent while it
 *   is away is never heard.
 *
 * A reader that finds nothing takes a ticket first (the slot's epoch,
 * which every drop of the slot advances, and the generations), reads and
 * renders, and keeps its bytes only if the ticket still holds: bytes
 * rendered from a read that raced a change are never kept.
 *
 * The bytes are counted references (struct service_bytes), with the
 * entity tag the front door made of them: the slot holds one reference,
 * and service_render_share() gives a reader another, so the bytes are
 * handed to libmicrohttpd as they are kept, without a copy, and outlive
 * their slot when a change or another game drops it meanwhile.
 */

#include "config.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service.h"
#include "service/service_int.h"

/* Kept bytes and the references on them. */
struct service_bytes {
	atomic_size_t	refs;
	size_t		len;
	char		tag[SERVICE_RENDER_TAG_SIZE];	/* "" : none */
	char		data[];
};

/* The slot of a game's rendering of a kind: games one after the other
 * take slots an odd stride apart, so that one kind of SERVICE_RENDER_SLOTS
 * games in a row (a power of two) fills every slot once. */
static struct render_slot *
render_slot(struct service *svc, int64_t id, enum service_render kind)
{
	return &svc->renders[((uint64_t)id * (SERVICE_RENDER_KINDS | 1) +
	    (uint64_t)kind) % SERVICE_RENDER_SLOTS];
}

/* Drop one reference on kept bytes, freeing them with the last. */
static void
bytes_unref(struct service_bytes *b)
{
	if (b != NULL && atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

/* Give back a reader's reference, from its data pointer. */
void
service_bytes_release(void *data)
{
	if (data != NULL)
		bytes_unref((struct service_bytes *)(void *)((char *)data -
		    offsetof(struct service_bytes, data)));
}

/* Tell whether a slot holds game `id`'s bytes of `kind` for this second
 * and these players (the row aside): on PostgreSQL, only bytes made while
 * the listener that would hear of a change of the players is connected. */
static bool
render_fits(struct service *svc, const struct render_slot *s, int64_t id,
    enum service_render kind, int64_t now,
    const struct service_render_ticket *t)
{
	return s->bytes != NULL && s->row.id == id && s->kind == kind &&
	    (s->timeless || s->now == now) && s->players == t->players &&
	    s->session == t->session && (!svc->listen || t->session % 2 == 1);
}

/*
 * Look a game's rendered answer up: 1 with *data pointing at the kept
 * bytes (a reference taken), *tag at their entity tag; 0 with a ticket for
 * service_render_put(); -1 with `err` set.
 */
int
service_render_share(struct service *svc, int64_t id,
    enum service_render kind, const char **data, size_t *len,
    const char **tag, struct service_render_ticket *t,
    struct service_error *err)
{
	struct service_bytes	*b = NULL;
	struct render_slot	*s = render_slot(svc, id, kind);
	struct store_game	 row;
	struct store		*st;
	int64_t			 now = service_now(svc);
	int			 rc;

	*data = NULL;
	*len = 0;
	*tag = NULL;
	memset(t, 0, sizeof t[0]);
	t->players = atomic_load(&svc->shown_gen);
	t->session = atomic_load(&svc->listen_session);
	if (svc->listen) {
		/* Another server's commit is heard after its answer: the row
		 * read now tells whether the game is the same. */
		if ((st = pool_get(svc, err)) == NULL)
			return -1;
		memset(&row, 0, sizeof row);
		rc = row_get(st, id, &row, err);
		pool_put(svc, st);
		if (rc != 0)
			return -1;
	}
	pthread_mutex_lock(&svc->render_lock);
	t->epoch = s->epoch;
	if (render_fits(svc, s, id, kind, now, t) && (!svc->listen ||
	    memcmp(&s->row, &row, sizeof row) == 0)) {
		atomic_fetch_add(&s->bytes->refs, 1);
		b = s->bytes;
	}
	pthread_mutex_unlock(&svc->render_lock);
	if (b == NULL)
		return 0;
	*data = b->data;
	*len = b->len;
	*tag = b->tag;
	return 1;
}

/* Keep the bytes rendered from g, with their entity tag (NULL: none),
 * unless the ticket taken before g was read no longer holds. */
void
service_render_put(struct service *svc, const struct service_game *g,
    enum service_render kind, const char *bytes, size_t len,
    const char *tag, const struct service_render_ticket *t)
{
	struct render_slot	*s = render_slot(svc, g->row.id, kind);
	struct service_bytes	*b, *old = NULL;

	if ((b = malloc(sizeof *b + len)) == NULL)
		return;
	atomic_init(&b->refs, 1);
	b->len = len;
	snprintf(b->tag, sizeof b->tag, "%s", tag != NULL ? tag : "");
	memcpy(b->data, bytes, len);
	pthread_mutex_lock(&svc->render_lock);
	if (s->epoch == t->epoch &&
	    atomic_load(&svc->shown_gen) == t->players &&
	    atomic_load(&svc->listen_session) == t->session) {
		old = s->bytes;
		s->bytes = b;
		b = NULL;
		s->kind = kind;
		s->now = g->now;
		s->timeless = g->state.params.tc.kind == GAME_TC_NONE ||
		    !game_ongoing(&g->state);
		s->players = t->players;
		s->session = t->session;
		s->row = g->row;
	}
	pthread_mutex_unlock(&svc->render_lock);
	bytes_unref(old);
	free(b);
}

/* Drop a game's kept bytes of every kind (0: every game's), and end the
 * tickets of their slots. */
void
render_forget(struct service *svc, int64_t id)
{
	struct service_bytes	*old[SERVICE_RENDER_KINDS];
	struct render_slot	*s;
	size_t			 i;
	int			 k;

	if (id == 0) {
		for (i = 0; i < SERVICE_RENDER_SLOTS; i++) {
			pthread_mutex_lock(&svc->render_lock);
			s = &svc->renders[i];
			s->epoch++;
			old[0] = s->bytes;
			s->bytes = NULL;
			pthread_mutex_unlock(&svc->render_lock);
			bytes_unref(old[0]);
		}
		return;
	}
	pthread_mutex_lock(&svc->render_lock);
	for (k = 0; k < SERVICE_RENDER_KINDS; k++) {
		s = render_slot(svc, id, (enum service_render)k);
		s->epoch++;
		old[k] = NULL;
		if (s->row.id == id) {
			old[k] = s->bytes;
			s->bytes = NULL;
		}
	}
	pthread_mutex_unlock(&svc->render_lock);
	for (k = 0; k < SERVICE_RENDER_KINDS; k++)
		bytes_unref(old[k]);
}

/* The writer's callback of store_games_written(): drop a game's bytes. */
void
render_written(void *arg, int64_t id)
{
	render_forget(arg, id);
}

/* Free the kept bytes. */
void
render_free(struct service *svc)
{
	size_t	i;

	if (svc->renders == NULL)
		return;
	for (i = 0; i < SERVICE_RENDER_SLOTS; i++)
		bytes_unref(svc->renders[i].bytes);
	free(svc->renders);
	svc->renders = NULL;
}
