/*
 * util/metrics.c: process-wide counters and gauges for /metrics.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Process-wide counters and gauges for /metrics; see metrics.h. */

#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/metrics.h"

enum metric_kind {
	METRIC_COUNTER,
	METRIC_GAUGE,
	METRIC_GAUGE_FN,
};

struct metric {
	enum metric_kind	 kind;
	char			*name;
	char			*help;
	_Atomic uint64_t	 count;
	_Atomic int64_t		 value;
	int64_t			(*fn)(void *);
	void			*arg;
	struct metric		*next;
};

static pthread_mutex_t	 metrics_lock = PTHREAD_MUTEX_INITIALIZER;
static struct metric	*metrics_head;
static struct metric	*metrics_tail;

/* Register a metric of any kind. */
static struct metric *
metrics_register(enum metric_kind kind, const char *name, const char *help,
    int64_t (*fn)(void *), void *arg)
{
	struct metric	*m;

	if ((m = calloc(1, sizeof *m)) == NULL)
		return NULL;
	m->kind = kind;
	m->fn = fn;
	m->arg = arg;
	if ((m->name = strdup(name)) == NULL ||
	    (m->help = strdup(help)) == NULL) {
		free(m->name);
		free(m);
		return NULL;
	}
	pthread_mutex_lock(&metrics_lock);
	if (metrics_tail != NULL)
		metrics_tail->next = m;
	else
		metrics_head = m;
	metrics_tail = m;
	pthread_mutex_unlock(&metrics_lock);
	return m;
}

/* Register a counter. */
struct metric *
metrics_counter(const char *name, const char *help)
{
	return metrics_register(METRIC_COUNTER, name, help, NULL, NULL);
}

/* Register a gauge. */
struct metric *
metrics_gauge(const char *name, const char *help)
{
	return metrics_register(METRIC_GAUGE, name, help, NULL, NULL);
}

/* Register a computed gauge. */
struct metric *
metrics_gauge_fn(const char *name, const char *help, int64_t (*fn)(void *),
    void *arg)
{
	return metrics_register(METRIC_GAUGE_FN, name, help, fn, arg);
}

/* Add n to a counter. */
void
metrics_add(struct metric *m, uint64_t n)
{
	if (m != NULL)
		atomic_fetch_add_explicit(&m->count, n, memory_order_relaxed);
}

/* Add one to a counter. */
void
metrics_inc(struct metric *m)
{
	metrics_add(m, 1);
}

/* Set a gauge. */
void
metrics_set(struct metric *m, int64_t value)
{
	if (m != NULL)
		atomic_store_explicit(&m->value, value, memory_order_relaxed);
}

/* Length of a metric name's family (the part before '{'). */
static size_t
metrics_family_len(const char *name)
{
	return strcspn(name, "{");
}

/* Tell whether an earlier row already printed this row's family header. */
static int
metrics_family_seen(const struct metric *upto, const struct metric *m)
{
	const struct metric	*p;
	size_t			 len = metrics_family_len(m->name);

	for (p = metrics_head; p != NULL && p != upto; p = p->next) {
		if (metrics_family_len(p->name) == len &&
		    strncmp(p->name, m->name, len) == 0)
			return 1;
	}
	return 0;
}

/* Write every registered metric, families together. */
void
metrics_write(FILE *fp)
{
	const struct metric	*m, *p;
	size_t			 len;

	pthread_mutex_lock(&metrics_lock);
	for (m = metrics_head; m != NULL; m = m->next) {
		if (metrics_family_seen(m, m))
			continue;
		len = metrics_family_len(m->name);
		fprintf(fp, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)len,
		    m->name, m->help, (int)len, m->name,
		    m->kind == METRIC_COUNTER ? "counter" : "gauge");
		for (p = m; p != NULL; p = p->next) {
			if (metrics_family_len(p->name) != len ||
			    strncmp(p->name, m->name, len) != 0)
				continue;
			switch (p->kind) {
			case METRIC_COUNTER:
				fprintf(fp, "%s %llu\n", p->name,
				    (unsigned long long)atomic_load(&p->count));
				break;
			case METRIC_GAUGE:
				fprintf(fp, "%s %lld\n", p->name,
				    (long long)atomic_load(&p->value));
				break;
			case METRIC_GAUGE_FN:
				fprintf(fp, "%s %lld\n", p->name,
				    (long long)p->fn(p->arg));
				break;
			}
		}
	}
	pthread_mutex_unlock(&metrics_lock);
}

/* Forget every metric. */
void
metrics_reset(void)
{
	struct metric	*m, *next;

	pthread_mutex_lock(&metrics_lock);
	for (m = metrics_head; m != NULL; m = next) {
		next = m->next;
		free(m->name);
		free(m->help);
		free(m);
	}
	metrics_head = metrics_tail = NULL;
	pthread_mutex_unlock(&metrics_lock);
}
