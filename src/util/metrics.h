/*
 * util/metrics.h: process-wide counters and gauges for /metrics.
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
 * Process-wide metrics served by GET /metrics in the Prometheus text
 * format. A module registers its metrics once at start-up and keeps the
 * handle; updates are atomic and may come from any thread.
 *
 *	static struct metric *sent;
 *	sent = metrics_counter("corrchess_mail_sent_total",
 *	    "Mails handed to the SMTP server.");
 *	...
 *	metrics_inc(sent);
 *
 * A name may carry fixed labels, as in
 * "corrchess_mail_sent_total{result=\"retry\"}"; rows of one family
 * (the name before '{') share one HELP and TYPE line, given by the first
 * row registered. Handles live until metrics_reset() (tests only).
 */

#ifndef CORRCHESS_METRICS_H
#define CORRCHESS_METRICS_H

#include <stdint.h>
#include <stdio.h>

struct metric;

/* Register a counter (only goes up). NULL when out of memory. */
struct metric	*metrics_counter(const char *name, const char *help);

/* Register a gauge (set to any value). NULL when out of memory. */
struct metric	*metrics_gauge(const char *name, const char *help);

/*
 * Register a gauge whose value fn(arg) computes when /metrics is read, on
 * an HTTP thread: fn must be thread-safe and quick. NULL when out of
 * memory.
 */
struct metric	*metrics_gauge_fn(const char *name, const char *help,
		    int64_t (*fn)(void *), void *arg);

/* Add n to a counter; accepts NULL (does nothing). */
void	metrics_add(struct metric *m, uint64_t n);
/* Add one to a counter; accepts NULL. */
void	metrics_inc(struct metric *m);
/* Set a gauge; accepts NULL. */
void	metrics_set(struct metric *m, int64_t value);

/* Write every registered metric to fp in the Prometheus text format. */
void	metrics_write(FILE *fp);

/* Forget every metric (tests only: no other thread may use one). */
void	metrics_reset(void);

#endif /* CORRCHESS_METRICS_H */
