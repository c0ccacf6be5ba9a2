/*
 * daemon/clock.h: the clock thread: flags that fell, reminders.
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
 * The clock thread of corrchessd: every `interval` seconds it ends the
 * games whose flag fell (service_clock_tick) and reminds players whose
 * deadline comes near (service_clock_remind), so that no one has to open
 * a game for its clock to count. Time is the service's (service_now), so
 * a test clock moves it too; only the pause between ticks is real time.
 */

#ifndef CORRCHESS_CLOCK_H
#define CORRCHESS_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "service/service.h"

/* Default seconds between ticks. */
#define CLOCK_INTERVAL_DEFAULT	60

struct clock_options {
	int64_t		 interval;	/* seconds between ticks; 0: 60 */
	/* Reminder thresholds, seconds before the deadline; NULL: 3 days
	 * and 1 day. With reminders set and nreminders 0: none. */
	const int64_t	*reminders;
	size_t		 nreminders;
};

struct clock;

/*
 * Start the clock thread (`opts` may be NULL: the defaults); the first
 * tick comes at once. The options are copied. NULL with a reason.
 */
struct clock *clock_start(struct service *, const struct clock_options *,
    char *err, size_t errsize);

/* Stop the thread after the tick under way. Accepts NULL. */
void clock_stop(struct clock *);

/* Ticks completed so far (tests wait on it). */
uint64_t clock_ticks(struct clock *);

#endif /* CORRCHESS_CLOCK_H */
