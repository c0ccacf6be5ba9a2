/*
 * service/signers.c: players and their keys kept for checking statements.
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
 * Every signed statement names its player, whose keys verify it: reading
 * the player and their keys was two SQLite reads a move. They are kept
 * here, one slot a name, with the generation of the players they were read
 * in. The writer starts a new generation after committing a batch in which
 * its store handle wrote a player or a key (store_players_written(), set
 * by the store's own writes, whatever job made them), so a slot of an
 * older generation is never used. A reader takes the generation before
 * it reads the store: a slot made from a read that raced a change carries
 * the older generation and is read again next time.
 *
 * What this may serve late is what a read just before the change gave. It
 * is no risk to revocation: the writer checks the signing key inside the
 * transaction that applies the action (actions.c, key_still_valid()). A
 * key added by another process sharing the database (none today) is found
 * by signers_refresh(), which the verifier calls before refusing a
 * signature the kept keys do not verify.
 *
 * A rating is not kept here, so its change (every rated game's end)
 * starts no generation of the players: it only ends the games' rendered
 * bytes, whose PGN tags show ratings (svc->shown_gen, render.c). Each
 * end used to have every player's next move read the player, their keys
 * and their doors again.
 *
 * The doors each player opened (service/doors.c) are kept beside them the
 * same way, in slots of their own: every game's JSON and every move's
 * answer shows both players' doors, which was two SQLite reads each. A
 * change of a player's doors is a write of players (store_doors_set()
 * says so), so it starts a new generation too, here and, through the
 * notice of listen.c, on every other server sharing the database; there
 * they are kept only while the listener is connected.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"

/* One player's kept copy. */
struct signer_slot {
	uint64_t		gen;	/* 0: empty */
	struct service_player	sp;
};

/* One player's kept doors. */
struct door_slot {
	uint64_t		gen;	/* 0: empty */
	char			name[STORE_NAME_SIZE];
	struct service_doors	d;
};

/* Hash a player's name (FNV-1a) into a slot's index. */
static size_t
name_index(const char *name)
{
	uint64_t	h = 14695981039346656037ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return (size_t)(h % SERVICE_SIGNER_SLOTS);
}

/* The slot of a player's name. */
static struct signer_slot *
signer_slot(struct service *svc, const char *name)
{
	return &svc->signers[name_index(name)];
}

/* Copy a player and their keys; -1 when out of memory. */
static int
signer_copy(struct service_player *dst, const struct service_player *src)
{
	dst->p = src->p;
	dst->nkeys = src->nkeys;
	dst->keys = NULL;
	if (src->nkeys == 0)
		return 0;
	if ((dst->keys = malloc(src->nkeys * sizeof *dst->keys)) == NULL) {
		dst->nkeys = 0;
		return -1;
	}
	memcpy(dst->keys, src->keys, src->nkeys * sizeof *dst->keys);
	return 0;
}

/* Keep a player read in generation `gen`, unless a newer one began. */
static void
signer_put(struct service *svc, const struct service_player *sp,
    uint64_t gen)
{
	struct signer_slot	*s = signer_slot(svc, sp->p.name);
	struct service_player	 copy;

	if (signer_copy(&copy, sp) != 0)
		return;
	pthread_mutex_lock(&svc->signer_lock);
	if (gen == svc->signer_gen) {
		service_player_free(&s->sp);
		s->sp = copy;
		s->gen = gen;
		copy.keys = NULL;
	}
	pthread_mutex_unlock(&svc->signer_lock);
	free(copy.keys);
}

/*
 * Give player `name` and their keys into *out (free with
 * service_player_free()): the kept copy when it is of the current
 * generation, else read with handle `rs` and kept. As player_read().
 */
int
signers_get(struct service *svc, struct store *rs, const char *name,
    struct service_player *out, struct service_error *err)
{
	struct signer_slot	*s = signer_slot(svc, name);
	uint64_t		 gen;
	int			 rc = 1;

	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&svc->signer_lock);
	gen = svc->signer_gen;
	if (s->gen == gen && strcmp(s->sp.p.name, name) == 0)
		rc = signer_copy(out, &s->sp);
	pthread_mutex_unlock(&svc->signer_lock);
	if (rc == 0)
		return 0;
	if (player_read(rs, name, out, err) != 0)
		return -1;
	signer_put(svc, out, gen);
	return 0;
}

/*
 * Read player `name` again with handle `rs`, for a signature that *sp (as
 * signers_get() gave it) does not verify: 1 with *sp replaced when the
 * store says otherwise (verify again), 0 when it says the same, -1 with
 * `err` set.
 */
int
signers_refresh(struct service *svc, struct store *rs, const char *name,
    struct service_player *sp, struct service_error *err)
{
	struct service_player	fresh;
	uint64_t		gen;

	pthread_mutex_lock(&svc->signer_lock);
	gen = svc->signer_gen;
	pthread_mutex_unlock(&svc->signer_lock);
	if (player_read(rs, name, &fresh, err) != 0)
		return -1;
	if (fresh.p.id == sp->p.id && fresh.nkeys == sp->nkeys &&
	    memcmp(&fresh.p, &sp->p, sizeof fresh.p) == 0 &&
	    (fresh.nkeys == 0 || memcmp(fresh.keys, sp->keys,
	    fresh.nkeys * sizeof *fresh.keys) == 0)) {
		service_player_free(&fresh);
		return 0;
	}
	signer_put(svc, &fresh, gen);
	service_player_free(sp);
	*sp = fresh;
	return 1;
}

/*
 * Give player `name`'s kept doors into *out: 1 when kept in the current
 * generation, else 0 with *gen set to the generation to keep the doors
 * read next in (doors_put()).
 */
int
doors_kept(struct service *svc, const char *name, struct service_doors *out,
    uint64_t *gen)
{
	struct door_slot	*s = &svc->doors[name_index(name)];
	int			 hit = 0;

	/* On PostgreSQL, only while the listener hears the other servers'
	 * changes (a notice sent while it is away is lost; it starts a new
	 * generation when it is back). */
	if (svc->listen && atomic_load(&svc->listen_session) % 2 == 0) {
		*gen = 0;
		return 0;
	}
	pthread_mutex_lock(&svc->signer_lock);
	*gen = svc->signer_gen;
	if (s->gen == *gen && strcmp(s->name, name) == 0) {
		*out = s->d;
		hit = 1;
	}
	pthread_mutex_unlock(&svc->signer_lock);
	return hit;
}

/* Keep a player's doors read in generation `gen`, unless a newer one
 * began meanwhile. */
void
doors_put(struct service *svc, const char *name,
    const struct service_doors *d, uint64_t gen)
{
	struct door_slot	*s = &svc->doors[name_index(name)];

	pthread_mutex_lock(&svc->signer_lock);
	if (gen == svc->signer_gen &&
	    snprintf(s->name, sizeof s->name, "%s", name) <
	    (int)sizeof s->name) {
		s->d = *d;
		s->gen = gen;
	}
	pthread_mutex_unlock(&svc->signer_lock);
}

/* Start a new generation: the writer committed a change of a player, a
 * key or doors. */
void
signers_changed(struct service *svc)
{
	pthread_mutex_lock(&svc->signer_lock);
	svc->signer_gen++;
	pthread_mutex_unlock(&svc->signer_lock);
	atomic_fetch_add(&svc->shown_gen, 1);
}

/* A rating changed (a rated game ended): the Elo tags of games' kept
 * bytes end, the players, keys and doors kept stay. */
void
ratings_changed(struct service *svc)
{
	atomic_fetch_add(&svc->shown_gen, 1);
}

/* Make the kept players' table; -1 when out of memory. */
int
signers_init(struct service *svc)
{
	if ((svc->signers = calloc(SERVICE_SIGNER_SLOTS,
	    sizeof *svc->signers)) == NULL)
		return -1;
	if ((svc->doors = calloc(SERVICE_SIGNER_SLOTS,
	    sizeof *svc->doors)) == NULL) {
		free(svc->signers);
		svc->signers = NULL;
		return -1;
	}
	svc->signer_gen = 1;
	svc->shown_gen = 1;
	pthread_mutex_init(&svc->signer_lock, NULL);
	return 0;
}

/* Free the kept players. */
void
signers_free(struct service *svc)
{
	size_t	i;

	if (svc->signers == NULL)
		return;
	for (i = 0; i < SERVICE_SIGNER_SLOTS; i++)
		service_player_free(&svc->signers[i].sp);
	free(svc->signers);
	free(svc->doors);
	svc->signers = NULL;
	svc->doors = NULL;
	pthread_mutex_destroy(&svc->signer_lock);
}
