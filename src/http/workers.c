/*
 * http/workers.c: worker threads for slow routes, on suspended connections.
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
 * A handler of an HTTP_ROUTE_SLOW route may wait (for a commit, a backup).
 * With workers, server.c suspends the request's connection and queues the
 * request here; a worker runs the handler into req->dresp, marks the
 * request answered (deferred = 2) and resumes the connection, and
 * libmicrohttpd's next call for it, on an HTTP thread, queues the answer.
 * The HTTP threads meanwhile go on serving other connections.
 */

#include "config.h"

#include <stdlib.h>

#include "http/http_int.h"
#include "util/log.h"

/* Set up the workers' queue. */
void
http_workers_init(struct http_server *srv)
{
	pthread_mutex_init(&srv->wlock, NULL);
	pthread_cond_init(&srv->wcond, NULL);
}

/* Queue a slow request for a worker, suspending its connection. */
int
http_workers_defer(struct http_server *srv, struct http_request *req)
{
	if ((req->dresp = calloc(1, sizeof *req->dresp)) == NULL)
		return -1;
	req->dresp->req = req;
	atomic_store(&req->deferred, 1);
	MHD_suspend_connection(req->conn);
	pthread_mutex_lock(&srv->wlock);
	req->wnext = NULL;
	if (srv->wtail != NULL)
		srv->wtail->wnext = req;
	else
		srv->whead = req;
	srv->wtail = req;
	pthread_cond_signal(&srv->wcond);
	pthread_mutex_unlock(&srv->wlock);
	return 0;
}

/* Run slow handlers, then wake their connections (a worker thread). */
static void *
http_workers_run(void *arg)
{
	struct http_server	*srv = arg;
	struct http_request	*req;

	pthread_mutex_lock(&srv->wlock);
	for (;;) {
		while (srv->whead == NULL && !srv->wstop)
			pthread_cond_wait(&srv->wcond, &srv->wlock);
		if ((req = srv->whead) == NULL)
			break;
		if ((srv->whead = req->wnext) == NULL)
			srv->wtail = NULL;
		pthread_mutex_unlock(&srv->wlock);
		req->croute->route->handler(req, req->dresp, srv->user);
		atomic_store(&req->deferred, 2);
		MHD_resume_connection(req->conn);
		pthread_mutex_lock(&srv->wlock);
	}
	pthread_mutex_unlock(&srv->wlock);
	return NULL;
}

/* Start up to n worker threads. */
void
http_workers_start(struct http_server *srv, unsigned n)
{
	unsigned	i;

	if (n == 0 || (srv->workers = calloc(n, sizeof *srv->workers)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (pthread_create(&srv->workers[i], NULL, http_workers_run,
		    srv) != 0)
			break;
		srv->nworkers++;
	}
	if (srv->nworkers < n)
		log_warnx("http: %u of %u worker threads started",
		    srv->nworkers, n);
}

/* Stop the workers after the requests already queued. */
void
http_workers_stop(struct http_server *srv)
{
	unsigned	i;

	if (srv->nworkers == 0)
		return;
	pthread_mutex_lock(&srv->wlock);
	srv->wstop = true;
	pthread_cond_broadcast(&srv->wcond);
	pthread_mutex_unlock(&srv->wlock);
	for (i = 0; i < srv->nworkers; i++)
		pthread_join(srv->workers[i], NULL);
	srv->nworkers = 0;
}

/* Stop the workers and free the queue. */
void
http_workers_free(struct http_server *srv)
{
	http_workers_stop(srv);
	free(srv->workers);
	srv->workers = NULL;
	pthread_mutex_destroy(&srv->wlock);
	pthread_cond_destroy(&srv->wcond);
}
