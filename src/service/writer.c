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
#include <stdio.h>
#include <string.h>

#include "service/service_int.h"

/* Run a game job (an action or a flag) inside the writer's transaction. */
int
job_game(struct service *svc, struct job *j, int64_t now)
{
	struct store_game	 row;
	struct cached		*c;
	int			 rc = -1;

	if (row_get(svc->wstore, j->game_id, &row, j->err) != 0)
		return -1;
	if ((c = cache_get(svc, &row, j->err)) == NULL)
		return -1;
	if (j->kind != JOB_FLAG && j->kind != JOB_REMIND)
		return job_action(svc, j, &row, c, now);
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

/* Do a job's work; -1 with j->err set when it failed or was refused. */
static int
job_work(struct service *svc, struct job *j, int64_t now)
{
	switch (j->kind) {
	case JOB_ACTION:
	case JOB_FLAG:
	case JOB_REMIND:
		return job_game(svc, j, now);
	case JOB_MAIL:
		return job_mail(svc, j, now);
	case JOB_DIGEST:
		return job_digest(svc, j, now);
	case JOB_PLAYER_CREATE:
		return job_player_create(svc, j, now);
	case JOB_PLAYER_SET:
		return job_player_set(svc, j, now);
	case JOB_KEY_ADD:
		return job_key_add(svc, j, now);
	case JOB_KEY_REVOKE:
		return job_key_revoke(svc, j, now);
	case JOB_GAME_CREATE:
		return job_game_create(svc, j, now);
	case JOB_OUTBOX:
		return job_outbox(svc, j, now);
	}
	return service_fail(j->err, 500, "internal", "unknown job %d",
	    (int)j->kind);
}

/*
 * Whether the work of a job that failed is undone. A refused action may
 * still have written (the flag fell), and a refused mail is recorded with
 * its answer: that stays unless the store failed (or the game is gone).
 * Every other job is all or nothing.
 */
static bool
job_undone(const struct job *j)
{
	switch (j->kind) {
	case JOB_ACTION:
	case JOB_FLAG:
	case JOB_REMIND:
		return j->err->status == 500 || j->err->status == 404;
	case JOB_MAIL:
		return j->err->status == 500;
	default:
		return true;
	}
}

/* What the writer could not do when a job's transaction did not commit. */
static const char *
job_commit_what(const struct job *j)
{
	switch (j->kind) {
	case JOB_PLAYER_CREATE:
	case JOB_PLAYER_SET:
		return "commit the player";
	case JOB_KEY_ADD:
		return "add the key";
	case JOB_KEY_REVOKE:
		return "revoke the key";
	case JOB_GAME_CREATE:
		return "create the game";
	case JOB_DIGEST:
		return "commit the digest";
	case JOB_OUTBOX:
		return j->u.outbox.sent ? "mark a mail sent" :
		    "note a failed mail";
	default:
		return "commit the action";
	}
}

/* Run one job inside the writer's transaction, in its own savepoint. */
static void
job_run(struct service *svc, struct job *j, int64_t now)
{
	int	rc;

	if (store_savepoint(svc->wstore) != STORE_OK) {
		j->rc = service_store_fail(j->err, svc->wstore,
		    "start the action");
		return;
	}
	rc = job_work(svc, j, now);
	/* The cache is checked against the stored head, so undone work is
	 * never trusted; the slot is emptied all the same. */
	if (rc != 0 && job_undone(j)) {
		store_rollback_to(svc->wstore);
		cache_forget(svc, j->game_id);
	} else if (store_release(svc->wstore) != STORE_OK) {
		rc = service_store_fail(j->err, svc->wstore,
		    "record the action");
		cache_forget(svc, j->game_id);
	}
	j->rc = rc;
}

/* Run a batch in one transaction; every job gets its result. */
static void
batch_run(struct service *svc, struct job *batch)
{
	struct job	*j;
	int64_t		 now = service_now(svc);
	size_t		 n = 0;

	if (store_begin(svc->wstore) != STORE_OK) {
		for (j = batch; j != NULL; j = j->next)
			j->rc = service_store_fail(j->err, svc->wstore,
			    "start a transaction");
		return;
	}
	for (j = batch; j != NULL; j = j->next, n++)
		job_run(svc, j, now);
	if (store_commit(svc->wstore) != STORE_OK) {
		service_store_fail(NULL, svc->wstore, "commit");
		store_rollback(svc->wstore);
		for (j = batch; j != NULL; j = j->next) {
			j->rc = service_store_fail(j->err, svc->wstore,
			    job_commit_what(j));
			cache_forget(svc, j->game_id);
		}
	}
	service_count_batch(n);
}

/* The writer thread: take waiting jobs, commit them together. */
static void *
writer_main(void *arg)
{
	struct service	*svc = arg;
	struct job	*batch, *j, *last;
	int		 n;

	pthread_mutex_lock(&svc->lock);
	for (;;) {
		while (svc->head == NULL && !svc->stopping)
			pthread_cond_wait(&svc->work, &svc->lock);
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
		for (j = batch; j != NULL; j = j->next)
			j->done = true;
		pthread_cond_broadcast(&svc->done);
	}
	pthread_mutex_unlock(&svc->lock);
	return NULL;
}

/* Queue a job and wait until its transaction committed (or failed); a job
 * without an error to fill fails into one of its own. */
int
writer_submit(struct service *svc, struct job *j)
{
	struct service_error	local;
	int			rc;

	if (j->err == NULL)
		j->err = &local;
	j->next = NULL;
	j->done = false;
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		rc = service_fail(j->err, 503, "stopping",
		    "the server is stopping; try again in a moment");
		goto out;
	}
	if (svc->tail != NULL)
		svc->tail->next = j;
	else
		svc->head = j;
	svc->tail = j;
	pthread_cond_signal(&svc->work);
	while (!j->done)
		pthread_cond_wait(&svc->done, &svc->lock);
	pthread_mutex_unlock(&svc->lock);
	rc = j->rc;
 out:
	if (j->err == &local)
		j->err = NULL;
	return rc;
}

/*
 * Queue `n` jobs at once, so that the writer may commit them together, and
 * wait until every one is done. -1 when the service is stopping (every job
 * gets the error); otherwise 0, each job holding its own result.
 */
int
writer_submit_all(struct service *svc, struct job *jobs, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		for (i = 0; i < n; i++)
			jobs[i].rc = service_fail(jobs[i].err, 503, "stopping",
			    "the server is stopping; try again in a moment");
		return -1;
	}
	for (i = 0; i < n; i++) {
		jobs[i].next = NULL;
		jobs[i].done = false;
		if (svc->tail != NULL)
			svc->tail->next = &jobs[i];
		else
			svc->head = &jobs[i];
		svc->tail = &jobs[i];
	}
	pthread_cond_signal(&svc->work);
	for (i = 0; i < n; i++)
		while (!jobs[i].done)
			pthread_cond_wait(&svc->done, &svc->lock);
	pthread_mutex_unlock(&svc->lock);
	return 0;
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
