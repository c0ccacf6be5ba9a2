/*
 * tests/listenfd.c: a stand-in for systemd's socket activation in tests.
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
 * listenfd PORTFILE PROGRAM [ARG...]: socket activation as systemd does
 * it, for tests/systemd.sh. Binds a TCP socket on 127.0.0.1 at a free
 * port, listens, writes the port to PORTFILE, moves the socket to fd 3,
 * sets LISTEN_FDS=1 and LISTEN_PID to its own pid (which PROGRAM keeps),
 * and executes PROGRAM. LISTENFD_PID, when set, is put in LISTEN_PID
 * instead (to test a variable meant for another process), and
 * LISTENFD_COUNT in LISTEN_FDS (fds 4 and on are copies of fd 3).
 */

#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Listen on a free loopback port, then run the program on fd 3. */
int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	FILE			*fp;
	char			 pid[32];
	const char		*v;
	int			 fd;

	if (argc < 3) {
		fprintf(stderr, "usage: listenfd PORTFILE PROGRAM [ARG...]\n");
		return 2;
	}
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(fd, 16) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		perror("listenfd: socket");
		return 1;
	}
	if ((fp = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	fprintf(fp, "%u\n", (unsigned)ntohs(sin.sin_port));
	if (fclose(fp) != 0) {
		perror(argv[1]);
		return 1;
	}
	if (fd != 3) {
		if (dup2(fd, 3) == -1) {
			perror("listenfd: dup2");
			return 1;
		}
		close(fd);
	}
	if ((v = getenv("LISTENFD_PID")) != NULL)
		snprintf(pid, sizeof pid, "%s", v);
	else
		snprintf(pid, sizeof pid, "%ld", (long)getpid());
	v = getenv("LISTENFD_COUNT");
	for (fd = 4; v != NULL && fd < 3 + atoi(v) && fd < 16; fd++) {
		if (dup2(3, fd) == -1) {
			perror("listenfd: dup2");
			return 1;
		}
	}
	if (setenv("LISTEN_PID", pid, 1) == -1 ||
	    setenv("LISTEN_FDS", v != NULL ? v : "1", 1) == -1) {
		perror("listenfd: setenv");
		return 1;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
