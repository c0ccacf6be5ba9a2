/*
 * daemon/sdnotify.c: the systemd glue: notify, watchdog, socket activation.
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

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/sdnotify.h"

/* Parse a decimal number without sign into *n; 0, or -1 when malformed. */
static int
sdnotify_parse(const char *s, unsigned long long *n)
{
	char	*end;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*n = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

/* Tell whether the variable name is unset or holds our own pid. */
static int
sdnotify_for_us(const char *name)
{
	const char		*v = getenv(name);
	unsigned long long	 pid;

	if (v == NULL)
		return 1;
	return sdnotify_parse(v, &pid) == 0 &&
	    pid == (unsigned long long)getpid();
}

/* Send state to the notification socket. */
int
sdnotify(const char *state, char *err, size_t errsize)
{
	struct sockaddr_un	 sun;
	const char		*path = getenv("NOTIFY_SOCKET");
	socklen_t		 len;
	size_t			 n;
	int			 fd = -1, rc = -1;

	if (path == NULL || *path == '\0')
		return 0;
	n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || n < 2 ||
	    n >= sizeof sun.sun_path) {
		snprintf(err, errsize, "NOTIFY_SOCKET %.64s: not a socket "
		    "path", path);
		return -1;
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, n);
	if (path[0] == '@') {
		/* Abstract namespace: a NUL first, no NUL at the end. */
		sun.sun_path[0] = '\0';
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	} else
		len = (socklen_t)sizeof sun;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(err, errsize, "notify socket: %s", strerror(errno));
		goto out;
	}
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL,
	    (struct sockaddr *)&sun, len) == -1) {
		snprintf(err, errsize, "notify %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 1;
out:
	if (fd != -1)
		close(fd);
	return rc;
}

/* The watchdog interval asked for, in microseconds; 0 for none. */
uint64_t
sdnotify_watchdog_usec(void)
{
	unsigned long long	usec;

	if (sdnotify_parse(getenv("WATCHDOG_USEC"), &usec) != 0 ||
	    !sdnotify_for_us("WATCHDOG_PID"))
		return 0;
	return (uint64_t)usec;
}

/* Count the sockets passed by socket activation. */
int
sdnotify_listen_fds(char *err, size_t errsize)
{
	const char		*fds = getenv("LISTEN_FDS");
	const char		*pid = getenv("LISTEN_PID");
	unsigned long long	 n, p;
	int			 i, flags, rc = -1;

	if (fds == NULL)
		return 0;
	if (pid == NULL || sdnotify_parse(pid, &p) != 0) {
		snprintf(err, errsize, "LISTEN_FDS without a valid LISTEN_PID");
		goto out;
	}
	if (p != (unsigned long long)getpid()) {
		rc = 0;
		goto out;
	}
	if (sdnotify_parse(fds, &n) != 0 ||
	    n > (unsigned long long)(INT_MAX - SDNOTIFY_LISTEN_FDS_START)) {
		snprintf(err, errsize, "LISTEN_FDS=%.32s: not a count", fds);
		goto out;
	}
	for (i = 0; i < (int)n; i++) {
		int fd = SDNOTIFY_LISTEN_FDS_START + i;

		if ((flags = fcntl(fd, F_GETFD)) == -1) {
			snprintf(err, errsize, "LISTEN_FDS: fd %d: %s", fd,
			    strerror(errno));
			goto out;
		}
		fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
	}
	rc = (int)n;
out:
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return rc;
}
