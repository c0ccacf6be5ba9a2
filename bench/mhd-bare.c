/*
 * bench/mhd-bare.c: a bare libmicrohttpd server, the peer of bench/http.
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
 * The peer of the HTTP benchmark: a bare libmicrohttpd server, in the
 * threading mode of src/http/ (a pool of threads, each with its own epoll
 * loop), answering every request with the same JSON object of SIZE bytes
 * (1 KB by default; bench/http also asks for the size of a game page).
 * What corrchessd's GET figures are compared with.
 *
 * usage: bench/mhd-bare [THREADS [SIZE]]
 * Listens on 127.0.0.1, a free port, printed as "port N" on standard output;
 * runs until SIGTERM or SIGINT.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#define BODY_SIZE	1024
#define BODY_SIZE_MAX	(1024 * 1024)

static char			 body[BODY_SIZE_MAX + 1];
static size_t			 body_size = BODY_SIZE;
static volatile sig_atomic_t	 stop;

/* Note a signal to stop. */
static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Fill the answer: a JSON object of body_size bytes, game-like. */
static void
body_fill(void)
{
	size_t	n;

	n = (size_t)snprintf(body, sizeof body, "{\"id\":42,\"white\":\"alice\","
	    "\"black\":\"bob\",\"variant\":\"standard\",\"status\":\"ongoing\","
	    "\"result\":\"*\",\"ply\":16,\"fen\":\"r1bqkb1r/pppp1ppp/2n2n2/"
	    "4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\",\"moves\":[");
	while (n < body_size - 8) {
		memcpy(body + n, "\"Nf3\",", 6);
		n += 6;
	}
	memcpy(body + n - 1, "]", 1);
	while (n < body_size - 1)
		body[n++] = ' ';
	body[n++] = '}';
	body[n] = '\0';
}

/* Answer every request with the fixed body. */
static enum MHD_Result
answer(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;

	(void)cls;
	(void)url;
	(void)method;
	(void)version;
	(void)upload;
	if (*con_cls == NULL) {
		*con_cls = c;
		return MHD_YES;
	}
	if (*upload_size != 0) {
		*upload_size = 0;
		return MHD_YES;
	}
	r = MHD_create_response_from_buffer(body_size, body,
	    MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof sin;
	struct MHD_Daemon	*d;
	unsigned		 threads = 2;
	int			 fd, one = 1;

	if (argc > 1)
		threads = (unsigned)strtoul(argv[1], NULL, 10);
	if (threads == 0)
		threads = 1;
	if (argc > 2)
		body_size = (size_t)strtoul(argv[2], NULL, 10);
	if (body_size < 256 || body_size > BODY_SIZE_MAX)
		body_size = BODY_SIZE;
	body_fill();
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		perror("mhd-bare: socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(fd, 1024) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		perror("mhd-bare: listen");
		return 1;
	}
	d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC |
	    MHD_USE_ERROR_LOG, 0, NULL, NULL, answer, NULL,
	    MHD_OPTION_LISTEN_SOCKET, fd,
	    MHD_OPTION_THREAD_POOL_SIZE, threads,
	    MHD_OPTION_CONNECTION_LIMIT, 256u,
	    MHD_OPTION_CONNECTION_TIMEOUT, 30u,
	    MHD_OPTION_END);
	if (d == NULL) {
		fprintf(stderr, "mhd-bare: libmicrohttpd failed to start\n");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("port %u\n", (unsigned)ntohs(sin.sin_port));
	fflush(stdout);
	while (!stop)
		pause();
	MHD_stop_daemon(d);
	close(fd);
	return 0;
}
