/*
 * daemon/sdnotify.h: the systemd glue: notify, watchdog, socket activation.
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
 * The systemd glue of corrchessd, all of it: the service manager's
 * notification protocol (sd_notify(3): one datagram of "KEY=VALUE" lines
 * to the AF_UNIX socket named by $NOTIFY_SOCKET, an '@' first meaning the
 * abstract namespace), the watchdog interval ($WATCHDOG_USEC, for
 * $WATCHDOG_PID) and socket activation ($LISTEN_FDS sockets from fd 3,
 * for $LISTEN_PID). Written by hand, without libsystemd: each function is
 * a no-op when the variables are unset, as they are outside systemd.
 */

#ifndef CORRCHESS_SDNOTIFY_H
#define CORRCHESS_SDNOTIFY_H

#include <stddef.h>
#include <stdint.h>

/* The first file descriptor passed by socket activation. */
#define SDNOTIFY_LISTEN_FDS_START	3

/*
 * Send state ("READY=1", "STOPPING=1", "WATCHDOG=1", "STATUS=...", several
 * separated by newlines) to $NOTIFY_SOCKET. Returns 1 when sent, 0 when
 * NOTIFY_SOCKET is unset (nothing to do), -1 with a reason in err.
 */
int	sdnotify(const char *state, char *err, size_t errsize);

/*
 * The watchdog interval the manager asks for, in microseconds: 0 when
 * WATCHDOG_USEC is unset, invalid or meant for another process
 * (WATCHDOG_PID set to another pid).
 */
uint64_t sdnotify_watchdog_usec(void);

/*
 * The number of sockets passed by socket activation (fds 3, 4, ...): 0
 * when LISTEN_FDS is unset or LISTEN_PID names another process; -1 with a
 * reason in err when the values are malformed. Unsets LISTEN_PID,
 * LISTEN_FDS and LISTEN_FDNAMES so children do not inherit them, and marks
 * the passed descriptors close-on-exec.
 */
int	sdnotify_listen_fds(char *err, size_t errsize);

#endif /* CORRCHESS_SDNOTIFY_H */
