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
 * A front door renders a game (JSON, text) from what service_game_get()
 * gives; the bytes are a function of the game's row (its record head
 * included) and of the service's second. They are kept here, one slot a
 * game and kind, with a copy of the row and the second they were made
 * for: a reader reads the row (one SQLite read) and takes the bytes when
 * the row and the second are the same, instead of copying the cached
 * view and rendering it again. A row read by another instance after a
 * change is a different row: the bytes are never served for it.
 *
 * The bytes are counted references (struct service_bytes): the slot holds
 * one, and service_render_share() gives a reader another, so a web page is
 * handed to libmicrohttpd as it is kept, without a copy, and outlives its
 * slot when a change or another game drops it meanwhile.
 */

#include "config.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "service/service.h"
#include "service/service_int.h"

/* Kept bytes and the references on them. */
struct service_bytes {
	atomic_size_t	refs;
	size_t		len;
	char		data[];
};

/* The slot of a game's rendering of a kind. */
static struct render_slot *
render_slot(struct service *svc, int64_t id, enum service_render kind)
{
	return &svc->renders[((uint64_t)id * SERVICE_RENDER_KINDS +
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

/* Read a game's row and take a reference on its kept bytes of a kind. */
static int
render_take(struct service *svc, int64_t id, enum service_render kind,
    struct store_game *rowp, struct service_bytes **bytes,
    struct service_error *err)
{
	struct store_game	 row;
	struct render_slot	*s;
	struct store		*st;
	int64_t			 now = service_now(svc);
	int			 rc;

	*bytes = NULL;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	memset(&row, 0, sizeof row);
	rc = row_get(st, id, &row, err);
	pool_put(svc, st);
	if (rc != 0)
		return -1;
	s = render_slot(svc, id, kind);
	pthread_mutex_lock(&svc->render_lock);
	if (s->bytes != NULL && s->kind == kind && s->now == now &&
	    memcmp(&s->row, &row, sizeof row) == 0) {
		atomic_fetch_add(&s->bytes->refs, 1);
		*bytes = s->bytes;
	}
	pthread_mutex_unlock(&svc->render_lock);
	*rowp = row;
	return *bytes != NULL;
}

/* Look a game's rendered answer up: a copy. */
int
service_render_get(struct service *svc, int64_t id, enum service_render kind,
    struct store_game *rowp, char **bytes, size_t *len,
    struct service_error *err)
{
	struct service_bytes	*b;
	int			 rc;

	*bytes = NULL;
	*len = 0;
	if ((rc = render_take(svc, id, kind, rowp, &b, err)) != 1)
		return rc;
	if ((*bytes = malloc(b->len)) != NULL) {
		memcpy(*bytes, b->data, b->len);
		*len = b->len;
	}
	bytes_unref(b);
	return *bytes != NULL;
}

/* Look a game's rendered answer up: a reference. */
int
service_render_share(struct service *svc, int64_t id,
    enum service_render kind, struct store_game *rowp, const char **data,
    size_t *len, struct service_error *err)
{
	struct service_bytes	*b;
	int			 rc;

	*data = NULL;
	*len = 0;
	if ((rc = render_take(svc, id, kind, rowp, &b, err)) != 1)
		return rc;
	*data = b->data;
	*len = b->len;
	return 1;
}

/* Keep the bytes rendered from g. */
void
service_render_put(struct service *svc, const struct service_game *g,
    enum service_render kind, const char *bytes, size_t len)
{
	struct render_slot	*s = render_slot(svc, g->row.id, kind);
	struct service_bytes	*b, *old;

	if ((b = malloc(sizeof *b + len)) == NULL)
		return;
	atomic_init(&b->refs, 1);
	b->len = len;
	memcpy(b->data, bytes, len);
	pthread_mutex_lock(&svc->render_lock);
	old = s->bytes;
	s->bytes = b;
	s->kind = kind;
	s->now = g->now;
	s->row = g->row;
	pthread_mutex_unlock(&svc->render_lock);
	bytes_unref(old);
}

/* Drop a game's kept bytes of every kind. */
void
render_forget(struct service *svc, int64_t id)
{
	struct service_bytes	*old[SERVICE_RENDER_KINDS];
	struct render_slot	*s;
	int			 k;

	pthread_mutex_lock(&svc->render_lock);
	for (k = 0; k < SERVICE_RENDER_KINDS; k++) {
		s = render_slot(svc, id, (enum service_render)k);
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
