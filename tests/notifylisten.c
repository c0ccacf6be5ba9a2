/*
 * tests/notifylisten.c: a stand-in for systemd's notify socket in tests.
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
 * notifylisten SOCKET OUTPUT SECONDS: stand in for the service manager's
 * notification socket. Binds an AF_UNIX datagram socket at SOCKET (a name
 * starting with '@' is in the abstract namespace), then appends each
 * datagram it receives to OUTPUT followed by a newline, flushed at once,
 * until SECONDS pass or SIGTERM. Used by tests/systemd.sh.
 */

#include "config.h"

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t	stop;

/* Note SIGTERM. */
static void
on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Receive and record notification datagrams. */
int
main(int argc, char **argv)
{
	struct sockaddr_un	 sun;
	struct pollfd		 pfd;
	struct sigaction	 sa;
	socklen_t		 len;
	FILE			*out = NULL;
	char			 buf[4096];
	ssize_t			 n;
	size_t			 plen;
	time_t			 end;
	int			 fd = -1, status = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: notifylisten SOCKET OUTPUT SECONDS\n");
		return 2;
	}
	plen = strlen(argv[1]);
	if (plen < 2 || plen >= sizeof sun.sun_path) {
		fprintf(stderr, "notifylisten: bad socket name\n");
		return 2;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, argv[1], plen);
	if (argv[1][0] == '@') {
		sun.sun_path[0] = '\0';
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen);
	} else {
		unlink(argv[1]);
		len = (socklen_t)sizeof sun;
	}
	if ((out = fopen(argv[2], "a")) == NULL) {
		perror(argv[2]);
		goto out;
	}
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, len) == -1) {
		perror("notifylisten: socket");
		goto out;
	}
	/* Tell the test the socket is bound. */
	fprintf(out, "LISTENING\n");
	fflush(out);

	end = time(NULL) + atoi(argv[3]);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!stop && time(NULL) < end) {
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, sizeof buf - 1, 0);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			perror("notifylisten: recv");
			goto out;
		}
		buf[n] = '\0';
		fprintf(out, "%s\n", buf);
		fflush(out);
	}
	status = 0;
out:
	if (fd != -1)
		close(fd);
	if (argv[1][0] != '@')
		unlink(argv[1]);
	if (out != NULL)
		fclose(out);
	return status;
}
