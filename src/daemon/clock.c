/*
 * daemon/clock.c: the clock thread: flags that fell, reminders.
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

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/clock.h"
#include "util/log.h"

/* Seconds between a follower's asks for the lead of the clock. */
#define CLOCK_FOLLOW	2

struct clock {
	struct service		*svc;
	int64_t			 interval;
	int64_t			 reminders[SERVICE_REMINDERS_MAX];
	size_t			 nreminders;
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	pthread_cond_t		 wake;
	bool			 stopping;
	uint64_t		 ticks;
};

/* One tick: end the games on time, then queue the daily digests, the
 * summaries of held refusals and the reminders due; false when another
 * server leads the clock. */
static bool
clock_tick(struct clock *c)
{
	struct service_error	err;
	size_t			n = 0;

	if (!service_lead(c->svc, SERVICE_LEAD_CLOCK))
		return false;
	memset(&err, 0, sizeof err);
	if (service_clock_tick(c->svc, &n, &err) != 0)
		log_warnx("clock: ending games on time: %s", err.message);
	if (n > 0)
		log_info("clock: %zu game%s ended on time", n,
		    n == 1 ? "" : "s");
	memset(&err, 0, sizeof err);
	if (service_clock_digest(c->svc, &n, &err) != 0)
		log_warnx("clock: digests: %s", err.message);
	if (n > 0)
		log_info("clock: %zu digest%s queued", n, n == 1 ? "" : "s");
	memset(&err, 0, sizeof err);
	if (service_clock_summaries(c->svc, &n, &err) != 0)
		log_warnx("clock: summaries of refusals: %s", err.message);
	if (n > 0)
		log_info("clock: %zu summar%s of refusals queued", n,
		    n == 1 ? "y" : "ies");
	if (c->nreminders == 0)
		return true;
	memset(&err, 0, sizeof err);
	if (service_clock_remind(c->svc, c->reminders, c->nreminders, &n,
	    &err) != 0)
		log_warnx("clock: reminders: %s", err.message);
	if (n > 0)
		log_info("clock: %zu reminder%s queued", n, n == 1 ? "" : "s");
	return true;
}

/* The clock thread: tick, then sleep `interval` or until stopped. */
static void *
clock_main(void *arg)
{
	struct clock	*c = arg;
	struct timespec	 until;
	bool		 led;

	pthread_mutex_lock(&c->lock);
	while (!c->stopping) {
		pthread_mutex_unlock(&c->lock);
		led = clock_tick(c);
		pthread_mutex_lock(&c->lock);
		c->ticks++;
		clock_gettime(CLOCK_MONOTONIC, &until);
		/* A follower asks again soon, to take over within seconds. */
		until.tv_sec += (time_t)(led || c->interval < CLOCK_FOLLOW ?
		    c->interval : CLOCK_FOLLOW);
		while (!c->stopping && pthread_cond_timedwait(&c->wake,
		    &c->lock, &until) == 0)
			;
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* Start the clock thread. */
struct clock *
clock_start(struct service *svc, const struct clock_options *opts,
    char *err, size_t errsize)
{
	static const int64_t	 defaults[] = { 3 * GAME_DAY, GAME_DAY };
	struct clock		*c;
	pthread_condattr_t	 ca;
	const int64_t		*r = defaults;
	size_t			 nr = sizeof defaults / sizeof defaults[0];
	size_t			 i;

	if (opts != NULL && opts->reminders != NULL) {
		r = opts->reminders;
		nr = opts->nreminders;
	}
	if (nr > SERVICE_REMINDERS_MAX) {
		snprintf(err, errsize, "at most %d reminders",
		    SERVICE_REMINDERS_MAX);
		return NULL;
	}
	for (i = 0; i < nr; i++)
		if (r[i] <= 0) {
			snprintf(err, errsize, "a reminder must come some "
			    "time before the deadline");
			return NULL;
		}
	if (opts != NULL && opts->interval < 0) {
		snprintf(err, errsize, "the clock interval must be positive");
		return NULL;
	}
	if ((c = calloc(1, sizeof *c)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	c->svc = svc;
	c->interval = opts != NULL && opts->interval > 0 ? opts->interval :
	    CLOCK_INTERVAL_DEFAULT;
	memcpy(c->reminders, r, nr * sizeof *r);
	c->nreminders = nr;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&c->thread, NULL, clock_main, c) != 0) {
		snprintf(err, errsize, "cannot start the clock thread");
		pthread_mutex_destroy(&c->lock);
		pthread_cond_destroy(&c->wake);
		free(c);
		return NULL;
	}
	return c;
}

/* Stop the clock thread. */
void
clock_stop(struct clock *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	c->stopping = true;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->wake);
	free(c);
}

/* Ticks completed so far. */
uint64_t
clock_ticks(struct clock *c)
{
	uint64_t	n;

	pthread_mutex_lock(&c->lock);
	n = c->ticks;
	pthread_mutex_unlock(&c->lock);
	return n;
}
