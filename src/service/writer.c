/*
 * service/writer.c: the single writer thread, its job queue and group commit.
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
#include <pthread.h>
#include <stdlib.h>

#include "util/log.h"
#include "service/service_int.h"

/*
 * Run a game job (an action, a mail's action, a flag or a reminder) inside
 * the writer's transaction.
 */
int
job_game(struct service *svc, struct job *j, int64_t now)
{
	struct store_game	 row;
	struct action_read	 ar;
	struct cached		*c;
	enum store_status	 ss;
	int			 rc = -1;

	/* A player's own statement names no game. */
	if (j->game_id == 0 && (j->kind == JOB_ACTION || j->kind == JOB_MAIL))
		return job_self(svc, j, now);
	if (j->read != NULL && !store_game_written(svc->wstore, j->game_id)) {
		/* Read with the batch's, under the game's lock, and not
		 * written since. */
		ss = j->read->status;
		row = j->read->row;
		ar.conditionals = j->read->conditionals;
		ar.key = j->read->key;
		if (ss == STORE_NOTFOUND)
			return service_fail(j->err, 404, "no-such-game",
			    "there is no game %" PRId64, j->game_id);
	} else if (j->kind == JOB_ACTION || j->kind == JOB_MAIL) {
		/* The row, the signing key and whether a conditional waits:
		 * one statement. */
		ss = store_game_get_action(svc->wstore, j->game_id,
		    j->kind == JOB_MAIL ? j->u.mail.s.key_id :
		    j->u.action.s.key_id, &row, &ar.conditionals, &ar.key);
		if (ss == STORE_NOTFOUND)
			return service_fail(j->err, 404, "no-such-game",
			    "there is no game %" PRId64, j->game_id);
		if (ss != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "read the game");
	} else if (row_get(svc->wstore, j->game_id, &row, j->err) != 0)
		return -1;
	if ((c = cache_get(svc, &row, j->err)) == NULL)
		return -1;
	if (j->kind != JOB_FLAG && j->kind != JOB_REMIND)
		return job_action(svc, j, &row, c, &ar, now);
	rc = 0;
	if (game_ongoing(&c->state) && game_check_time(&c->state, now)) {
		if (record_flag(svc, &row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		j->changed = j->kind == JOB_FLAG;
		return 0;
	}
	if (j->kind == JOB_REMIND)
		rc = job_remind(svc, j, &row, c, now);
	return rc;
}

/* When the work of a job that failed is undone. */
enum job_undo {
	UNDO_ALWAYS,		/* all or nothing */
	UNDO_STORE,		/* a refusal is recorded with its answer:
				   undo only what a store failure left */
	UNDO_STORE_GONE,	/* a refusal may follow a write (the flag
				   fell): undo a store failure, or work on a
				   game that is gone */
};

/*
 * What a job locks on PostgreSQL, where several servers write at once
 * (store_begin_games(), and the lock order in store/store_int.h): a game
 * job its game (a player's own statement, which names none, everything);
 * the outbox's and a new game's rows no one else writes; anything that
 * may touch several games, players or keys, everything. A game job that
 * ends a game takes the results lock too (event_game_over()).
 */
enum job_lock {
	LOCK_GAME,
	LOCK_NONE,
	LOCK_ALL,
};

/* How the writer runs each kind of job. */
static const struct job_type {
	int		(*run)(struct service *, struct job *, int64_t);
	enum job_undo	  undo;
	const char	 *commit;	/* what a failed commit undid */
	enum job_lock	  lock;
} job_types[] = {
	[JOB_ACTION] =		{ job_game, UNDO_STORE_GONE,
				  "commit the action", LOCK_GAME },
	[JOB_FLAG] =		{ job_game, UNDO_STORE_GONE,
				  "commit the action", LOCK_GAME },
	[JOB_MAIL] =		{ job_mail, UNDO_STORE,
				  "commit the action", LOCK_GAME },
	[JOB_REMIND] =		{ job_game, UNDO_STORE_GONE,
				  "commit the action", LOCK_GAME },
	[JOB_DIGEST] =		{ job_digest, UNDO_ALWAYS,
				  "commit the digest", LOCK_ALL },
	[JOB_SUMMARY] =		{ job_summary, UNDO_ALWAYS,
				  "commit the summary", LOCK_ALL },
	[JOB_PLAYER_CREATE] =	{ job_player_create, UNDO_ALWAYS,
				  "commit the player", LOCK_ALL },
	[JOB_PLAYER_SET] =	{ job_player_set, UNDO_ALWAYS,
				  "commit the player", LOCK_ALL },
	[JOB_KEY_ADD] =		{ job_key_add, UNDO_ALWAYS,
				  "add the key", LOCK_ALL },
	[JOB_KEY_REVOKE] =	{ job_key_revoke, UNDO_ALWAYS,
				  "revoke the key", LOCK_ALL },
	[JOB_GAME_CREATE] =	{ job_game_create, UNDO_ALWAYS,
				  "create the game", LOCK_NONE },
	[JOB_EVENT_CREATE] =	{ job_event_create, UNDO_ALWAYS,
				  "create the event", LOCK_ALL },
	[JOB_EVENT_PLAYER] =	{ job_event_player, UNDO_ALWAYS,
				  "change the event's players", LOCK_ALL },
	[JOB_EVENT_START] =	{ job_event_start, UNDO_ALWAYS,
				  "start the event", LOCK_ALL },
	[JOB_EVENT_WITHDRAW] =	{ job_event_withdraw, UNDO_ALWAYS,
				  "withdraw the player", LOCK_ALL },
	[JOB_EVENT_EDIT] =	{ job_event_edit, UNDO_ALWAYS,
				  "change the event's rules", LOCK_ALL },
	[JOB_DOORS_SET] =	{ job_doors_set, UNDO_ALWAYS,
				  "set the player's doors", LOCK_ALL },
	[JOB_INVITE] =		{ job_invite, UNDO_ALWAYS,
				  "record the invitation", LOCK_ALL },
	[JOB_ENROL] =		{ job_enrol, UNDO_ALWAYS,
				  "register the key", LOCK_ALL },
	[JOB_OUTBOX_SENT] =	{ job_outbox, UNDO_ALWAYS,
				  "mark a mail sent", LOCK_NONE },
	[JOB_ADMIN] =		{ job_admin, UNDO_STORE_GONE,
				  "commit the admin's action", LOCK_GAME },
	[JOB_OUTBOX_FAILED] =	{ job_outbox, UNDO_ALWAYS,
				  "note a failed mail", LOCK_NONE },
};
_Static_assert(sizeof job_types / sizeof job_types[0] == JOB_NKINDS,
    "a row of job_types for each job kind");

/* Tell whether the work of a job that failed is undone. */
static bool
job_undone(const struct job *j)
{
	switch (job_types[j->kind].undo) {
	case UNDO_STORE:
		return j->err->status == 500;
	case UNDO_STORE_GONE:
		return j->err->status == 500 || j->err->status == 404;
	default:
		return true;
	}
}

/* Run one job inside the writer's transaction, in its own savepoint. */
static void
job_run(struct service *svc, struct job *j, int64_t now)
{
	size_t	mark;
	int	rc;

	/* The batch's transaction was lost (undone by the engine after a
	 * failure, which was logged): a savepoint now would commit alone. */
	if (!store_in_transaction(svc->wstore)) {
		j->rc = service_fail(j->err, 500, "internal", "the server could "
		    "not %s; try again later", job_types[j->kind].commit);
		return;
	}
	if (store_savepoint(svc->wstore) != STORE_OK) {
		j->rc = service_store_fail(j->err, svc->wstore,
		    "start the action");
		return;
	}
	mark = svc->live.n;
	rc = job_types[j->kind].run(svc, j, now);
	/* Events that ended with the job's games: their standings, after
	 * the games' own notices (unless the job's work is undone). */
	if (svc->nended > 0 && (rc == 0 || !job_undone(j)) &&
	    event_notify_ended(svc, now) != 0)
		rc = service_store_fail(j->err, svc->wstore,
		    "queue the event's final standings");
	svc->nended = 0;
	/* The cache is checked against the stored head, so undone work is
	 * never trusted; the slot is emptied all the same. Its live events
	 * go with it. */
	if (rc != 0 && job_undone(j)) {
		svc->live.n = mark;
		store_rollback_to(svc->wstore);
		cache_forget(svc, j->game_id);
	} else if (store_release(svc->wstore) != STORE_OK) {
		rc = service_store_fail(j->err, svc->wstore,
		    "record the action");
		cache_forget(svc, j->game_id);
	}
	j->rc = rc;
}

/*
 * Begin the transaction of a batch: its games' locks when every job keeps
 * to its game (then *games is true), else the whole write lock.
 */
static enum store_status
batch_begin(struct service *svc, const struct job *batch, bool *games)
{
	const struct job	*j;
	enum store_status	 status;
	int64_t			*ids;
	size_t			 n = 0;

	*games = false;
	for (j = batch; j != NULL; j = j->next)
		n++;
	if ((ids = calloc(n, sizeof *ids)) == NULL)
		return store_begin(svc->wstore);
	n = 0;
	for (j = batch; j != NULL; j = j->next) {
		if (job_types[j->kind].lock == LOCK_NONE)
			continue;
		if (job_types[j->kind].lock == LOCK_ALL || j->game_id == 0)
			break;
		ids[n++] = j->game_id;
	}
	*games = j == NULL;
	status = j != NULL ? store_begin(svc->wstore) :
	    store_begin_games(svc->wstore, ids, n);
	free(ids);
	return status;
}

/*
 * Read the games of a batch's actions in one statement, under their
 * locks, before any job runs: on PostgreSQL one round trip instead of
 * one a job. Only the first action on each game is given its read (a
 * later one sees what the first wrote), and a job uses it only while no
 * job before it wrote that game (job_game()). Returns what to free; on
 * a failure, or with nothing to read, NULL: every job reads for itself.
 */
static struct store_game_action *
batch_read(struct service *svc, struct job *batch)
{
	struct store_game_action	*v;
	struct job			*j, *k;
	size_t				 n = 0;

	for (j = batch; j != NULL; j = j->next)
		n += j->kind == JOB_ACTION && j->game_id > 0;
	if (n < 2 || (v = calloc(n, sizeof *v)) == NULL)
		return NULL;
	n = 0;
	for (j = batch; j != NULL; j = j->next) {
		if (j->kind != JOB_ACTION || j->game_id <= 0)
			continue;
		for (k = batch; k != j && k->game_id != j->game_id;
		    k = k->next)
			;
		if (k != j)
			continue;
		v[n].id = j->game_id;
		v[n].key_id = j->u.action.s.key_id;
		j->read = &v[n++];
	}
	if (store_game_get_actions(svc->wstore, v, n) != STORE_OK) {
		for (j = batch; j != NULL; j = j->next)
			j->read = NULL;
		free(v);
		return NULL;
	}
	return v;
}

/* Run a batch in one transaction; every job gets its result. */
static void
batch_run(struct service *svc, struct job *batch)
{
	struct store_game_action *reads = NULL;
	struct job		*j;
	int64_t			 now = service_now(svc);
	size_t			 n = 0;
	bool			 lost, failed, players, ratings, games;

	for (j = batch; j != NULL; j = j->next)
		j->read = NULL;
	if (batch_begin(svc, batch, &games) != STORE_OK) {
		for (j = batch; j != NULL; j = j->next)
			j->rc = service_store_fail(j->err, svc->wstore,
			    "start a transaction");
		return;
	}
	if (games && svc->batch_reads)
		reads = batch_read(svc, batch);
	for (j = batch; j != NULL; j = j->next, n++) {
		job_run(svc, j, now);
		j->read = NULL;
	}
	free(reads);
	/*
	 * A failed commit is one line in the log, whatever the batch holds;
	 * a transaction already lost was logged where it failed.
	 */
	lost = !store_in_transaction(svc->wstore);
	players = store_players_written(svc->wstore);
	ratings = store_ratings_written(svc->wstore);
	/* The other servers hear of the batch at its commit (listen.c). */
	failed = lost || listen_tell(svc, players, ratings) != 0 ||
	    store_commit(svc->wstore) != STORE_OK;
	/* After the commit (or its failure): a reader that read before it
	 * kept what it read in the generation that ends here. */
	if (players)
		signers_changed(svc);
	else if (ratings)
		ratings_changed(svc);
	/* And before the answers: a reader that reads after an answer
	 * never gets the bytes of a game as it stood before (render.c). */
	store_games_written(svc->wstore, render_written, svc);
	if (failed) {
		if (!lost)
			log_warnx("store: %s; %zu request%s undone",
			    store_errmsg(svc->wstore), n, n == 1 ? "" : "s");
		store_rollback(svc->wstore);
		for (j = batch; j != NULL; j = j->next) {
			j->rc = service_fail(j->err, 500, "internal",
			    "the server could not %s; try again later",
			    job_types[j->kind].commit);
			cache_forget(svc, j->game_id);
		}
		svc->live.n = 0;
	}
	service_count_batch(n);
}

/*
 * A caller waiting for its jobs: the writer wakes each caller once, when
 * the last of its jobs is done, instead of every caller after every batch.
 */
struct job_waiter {
	pthread_cond_t	cv;
	size_t		left;	/* jobs not done yet */
};

/* Run the writer thread: take waiting jobs, commit them together. */
static void *
writer_main(void *arg)
{
	struct service	*svc = arg;
	struct job	*batch, *j, *last, *next, *later;
	int		 n;

	pthread_mutex_lock(&svc->lock);
	for (;;) {
		while (svc->head == NULL && !svc->stopping) {
			svc->idle = true;
			pthread_cond_wait(&svc->work, &svc->lock);
			svc->idle = false;
		}
		if (svc->head == NULL)
			break;
		batch = last = svc->head;
		for (n = 1; n < svc->batch_max && last->next != NULL; n++)
			last = last->next;
		svc->head = last->next;
		if (svc->head == NULL)
			svc->tail = NULL;
		last->next = NULL;
		pthread_mutex_unlock(&svc->lock);

		batch_run(svc, batch);

		pthread_mutex_lock(&svc->lock);
		/* A job belongs to its caller again once its waiter is told:
		 * read next first. Jobs no thread waits for are told below,
		 * without the lock. */
		later = NULL;
		for (j = batch; j != NULL; j = next) {
			next = j->next;
			if (j->waiter == NULL) {
				j->next = later;
				later = j;
			} else if (--j->waiter->left == 0)
				pthread_cond_signal(&j->waiter->cv);
		}
		if (later == NULL && svc->live.n == 0)
			continue;
		pthread_mutex_unlock(&svc->lock);
		for (j = later; j != NULL; j = next) {
			next = j->next;
			j->done(j->done_arg);
		}
		/* The batch's live events, once its callers are answered:
		 * a fan-out to many streams does not hold up the answers. */
		if (svc->live.n > 0)
			live_publish(svc);
		pthread_mutex_lock(&svc->lock);
	}
	pthread_mutex_unlock(&svc->lock);
	return NULL;
}

/* Append the chained jobs first..last to the queue (the lock held). */
static void
queue_locked(struct service *svc, struct job *first, struct job *last)
{
	if (svc->tail != NULL)
		svc->tail->next = first;
	else
		svc->head = first;
	svc->tail = last;
	/* A busy writer takes the jobs with its next batch. */
	if (svc->idle)
		pthread_cond_signal(&svc->work);
}

/*
 * Queue `n` jobs at once, so that the writer may commit them together, and
 * wait until every one is done. -1 when the service is stopping (every job
 * gets the error); otherwise 0, each job holding its own result.
 */
int
writer_submit_all(struct service *svc, struct job *jobs, size_t n)
{
	struct job_waiter	w;
	size_t			i;

	if (n == 0)
		return 0;
	pthread_cond_init(&w.cv, NULL);
	w.left = n;
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		pthread_cond_destroy(&w.cv);
		for (i = 0; i < n; i++)
			jobs[i].rc = service_fail(jobs[i].err, 503, "stopping",
			    "the server is stopping; try again in a moment");
		return -1;
	}
	for (i = 0; i < n; i++) {
		jobs[i].next = i + 1 < n ? &jobs[i + 1] : NULL;
		jobs[i].waiter = &w;
	}
	queue_locked(svc, &jobs[0], &jobs[n - 1]);
	while (w.left > 0)
		pthread_cond_wait(&w.cv, &svc->lock);
	pthread_mutex_unlock(&svc->lock);
	pthread_cond_destroy(&w.cv);
	return 0;
}

/*
 * Queue a job without waiting: the writer calls j->done(j->done_arg) once
 * the job's transaction committed or failed (then j->rc and j->err hold
 * its result, and the job is its caller's again). -1 when the service is
 * stopping (j->err says so; done is not called).
 */
int
writer_queue(struct service *svc, struct job *j)
{
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		j->rc = service_fail(j->err, 503, "stopping",
		    "the server is stopping; try again in a moment");
		return -1;
	}
	j->next = NULL;
	j->waiter = NULL;
	queue_locked(svc, j, j);
	pthread_mutex_unlock(&svc->lock);
	return 0;
}

/* Queue a job and wait until its transaction committed (or failed); a job
 * without an error to fill fails into one of its own. */
int
writer_submit(struct service *svc, struct job *j)
{
	struct service_error	local;

	if (j->err == NULL)
		j->err = &local;
	writer_submit_all(svc, j, 1);
	if (j->err == &local)
		j->err = NULL;
	return j->rc;
}

/* Start the writer thread. */
int
writer_start(struct service *svc)
{
	if (pthread_create(&svc->writer, NULL, writer_main, svc) != 0)
		return -1;
	svc->writer_started = true;
	return 0;
}

/* Stop the writer after the jobs already queued, and wait for it. */
void
writer_stop(struct service *svc)
{
	if (!svc->writer_started)
		return;
	pthread_mutex_lock(&svc->lock);
	svc->stopping = true;
	pthread_cond_signal(&svc->work);
	pthread_mutex_unlock(&svc->lock);
	pthread_join(svc->writer, NULL);
	svc->writer_started = false;
}
