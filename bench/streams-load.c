/*
 * bench/streams-load.c: many open event streams, and how fast a move reaches them.
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
 * bench/streams PORT GAME N PID BODY...: open N streams of GAME on
 * 127.0.0.1:PORT (one epoll loop), wait until every one has its first
 * line, print corrchessd's (PID) VmRSS before and after and the bytes per
 * stream; wait for a keep-alive on every stream (so that the moves come
 * after one); then post each signed statement BODY in turn and time until
 * every stream has read the move's line: from the POST sent, and from its
 * answer (the commit is between the two). Prints p50, p99 and the
 * slowest of every delivery, and corrchessd's CPU time over the moves
 * (user and system, from /proc; a figure the machine's load barely
 * moves) for each delivery. Its one check: every stream has every move
 * (read from the chunks' data), else it says how many did not and why,
 * and exits 1.
 */

#include "config.h"

#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * One stream: how many move lines it has read, where its line begins,
 * and where it is in the chunked framing. The answer is chunked: a chunk
 * may end in the middle of an event's line (libmicrohttpd hands on as
 * much as fits in its write buffer), so the lines are read from the
 * chunks' data, never from the raw bytes.
 */
enum chunk_state { CH_SIZE, CH_EXT, CH_DATA, CH_DATA_CR, CH_DATA_LF };

struct conn {
	int		 fd;
	int		 moves;
	char		 head[16];	/* the start of the line being read */
	size_t		 nhead;
	enum chunk_state ch;
	size_t		 chunk;		/* data bytes left in this chunk */
	bool		 first;		/* the game's line is in */
	bool		 sse_move;	/* SSE: a move's data line comes next */
	bool		 ended;		/* the server closed it */
	bool		 bad;		/* the framing is broken */
	int		 hdr;		/* of the header's "\r\n\r\n" seen */
	int		 kas;		/* keep-alives read */
};

/* Counts over all streams: chunks that ended inside a line, closes. */
static long	n_split;
/* The streams are SSE (else NDJSON). */
static bool	sse;

/* Microseconds on the monotonic clock. */
static double
now_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Read a process's VmRSS in kB. */
static long
rss_kb(const char *pid)
{
	char	path[64], line[256];
	long	kb = -1;
	FILE	*f;

	snprintf(path, sizeof path, "/proc/%s/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Read a process's CPU time (user and system) in ms, or -1. */
static double
cpu_ms(const char *pid)
{
	char		 path[64], line[1024], *p;
	unsigned long	 ut, st;
	FILE		*f;
	int		 ok;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	/* The fields after the command's name, ")": state is the 3rd
	 * field, utime and stime the 14th and 15th. */
	if (!ok || (p = strrchr(line, ')')) == NULL || sscanf(p + 2,
	    "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut,
	    &st) != 2)
		return -1;
	return (double)(ut + st) * 1e3 / (double)sysconf(_SC_CLK_TCK);
}

/* This process's CPU time (user and system) in ms. */
static double
self_cpu_ms(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/*
 * Start the command `profile` with corrchessd's pid after it (PROFILE,
 * such as "perf record -g -o FILE -p"), to sample the moves only; its
 * pid, or -1.
 */
static pid_t
profile_start(const char *profile, const char *pid)
{
	char	cmd[1024];
	pid_t	child;

	snprintf(cmd, sizeof cmd, "exec %s %s", profile, pid);
	if ((child = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (child > 0)
		sleep(1);	/* let it attach */
	return child;
}

/* Connect to the server on loopback. */
static int
dial(int port, bool nonblock)
{
	struct sockaddr_in	sa;
	int			fd, one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == -1) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (nonblock)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* Take one byte of a stream's data (the chunks' contents). */
static void
conn_byte(struct conn *c, char b)
{
	if (b != '\n') {
		if (c->nhead < sizeof c->head)
			c->head[c->nhead++] = b;
		return;
	}
	/* A keep-alive: an empty line (NDJSON), a comment (SSE). */
	if (sse ? c->nhead >= 12 && memcmp(c->head, ": keep-alive", 12) == 0 :
	    c->nhead == 0)
		c->kas++;
	if (c->nhead >= 14 && memcmp(c->head, "{\"type\":\"move\"", 14) == 0)
		c->moves++;
	/* SSE: "event: move", then its data line. */
	if (c->nhead >= 6 && c->sse_move && memcmp(c->head, "data: ", 6) ==
	    0) {
		c->moves++;
		c->sse_move = false;
	}
	if (c->nhead >= 11 && memcmp(c->head, "event: move", 11) == 0)
		c->sse_move = true;
	/* The game's line comes first. */
	if ((c->nhead >= 1 && c->head[0] == '{') || (c->nhead >= 7 &&
	    memcmp(c->head, "data: {", 7) == 0))
		c->first = true;
	c->nhead = 0;
}

/* Take one byte of a stream's body: the chunked framing, then data. */
static void
conn_body(struct conn *c, char b)
{
	int	d;

	switch (c->ch) {
	case CH_SIZE:
		d = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ?
		    b - 'a' + 10 : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
		if (d >= 0)
			c->chunk = c->chunk * 16 + (size_t)d;
		else if (b == '\n')
			c->ch = c->chunk > 0 ? CH_DATA : CH_DATA_CR;
		else if (b == '\r' || b == ';')
			c->ch = CH_EXT;
		else
			c->bad = true;
		break;
	case CH_EXT:
		if (b == '\n')
			c->ch = c->chunk > 0 ? CH_DATA : CH_DATA_CR;
		break;
	case CH_DATA:
		conn_byte(c, b);
		if (--c->chunk == 0) {
			c->ch = CH_DATA_CR;
			if (c->nhead > 0)
				n_split++;
		}
		break;
	case CH_DATA_CR:	/* the "\r\n" after a chunk's data */
	case CH_DATA_LF:
		if (b != (c->ch == CH_DATA_CR ? '\r' : '\n'))
			c->bad = true;
		c->ch = c->ch == CH_DATA_CR ? CH_DATA_LF : CH_SIZE;
		break;
	}
}

/*
 * Read what a stream has; count the move lines it completed. The answer's
 * header comes first (up to its blank line, kept in `hdr` state by
 * counting line ends), then the chunks.
 */
static void
conn_read(struct conn *c)
{
	char	buf[8192];
	ssize_t	n, i;

	while ((n = read(c->fd, buf, sizeof buf)) > 0) {
		for (i = 0; i < n; i++) {
			if (c->hdr < 4) {
				/* "\r\n\r\n" ends the header. */
				c->hdr = buf[i] == (c->hdr % 2 ? '\n' : '\r') ?
				    c->hdr + 1 : buf[i] == '\r' ? 1 : 0;
				continue;
			}
			conn_body(c, buf[i]);
		}
	}
	if (n == 0)
		c->ended = true;
}

/*
 * Read the streams until all `n` have their first line (with `keepalive`:
 * and a keep-alive after it) or the clock passes `until` (us); the count
 * of those that have.
 */
static int
wait_all(int ep, struct conn *conns, int n, bool keepalive, double until)
{
	struct epoll_event	evs[512];
	int			i, k, have = 0;

	while (have < n && now_us() < until) {
		k = epoll_wait(ep, evs, 512, 1000);
		for (i = 0; i < k; i++) {
			conn_read(evs[i].data.ptr);
			if (((struct conn *)evs[i].data.ptr)->ended)
				epoll_ctl(ep, EPOLL_CTL_DEL,
				    ((struct conn *)evs[i].data.ptr)->fd, NULL);
		}
		for (have = 0, i = 0; i < n; i++)
			have += conns[i].first && (!keepalive ||
			    conns[i].kas > 0);
	}
	return have;
}

/* Order doubles. */
static int
dcmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Post a statement; the status of the answer, or -1. */
static int
post(int port, const char *game, const char *body, size_t len)
{
	char	req[8192], ans[4096];
	int	fd, n, status = -1;
	ssize_t	r;
	size_t	got = 0;

	if ((fd = dial(port, false)) == -1)
		return -1;
	n = snprintf(req, sizeof req, "POST /api/v1/games/%s/actions "
	    "HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n%.*s", game, len,
	    (int)len, body);
	if (write(fd, req, (size_t)n) == n)
		while ((r = read(fd, ans + got, sizeof ans - 1 - got)) > 0)
			got += (size_t)r;
	ans[got] = '\0';
	sscanf(ans, "HTTP/1.1 %d", &status);
	close(fd);
	return status;
}

/* Open the streams, measure, move, measure. */
int
main(int argc, char **argv)
{
	struct rlimit		 rl;
	struct epoll_event	 ev, evs[512];
	struct conn		*conns;
	double			*lat_sent, *lat_ans, t0, t1, t, start;
	double			 cpu0, cpu1, self0, self1;
	pid_t			 prof = -1;
	char			 req[256], body[4096];
	long			 rss0, rss1;
	size_t			 nlat = 0, len;
	int			 port, n, i, k, ep, open_ok = 0, ready, done;
	int			 lost = 0, n_ended = 0, n_bad = 0, kas;
	FILE			*f;

	if (argc < 6) {
		fprintf(stderr, "usage: streams PORT GAME N PID BODY...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	port = atoi(argv[1]);
	n = atoi(argv[3]);
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	conns = calloc((size_t)n, sizeof *conns);
	lat_sent = calloc((size_t)n * (size_t)(argc - 5), sizeof *lat_sent);
	lat_ans = calloc((size_t)n * (size_t)(argc - 5), sizeof *lat_ans);
	if (conns == NULL || lat_sent == NULL || lat_ans == NULL)
		return 1;
	ep = epoll_create1(0);
	rss0 = rss_kb(argv[4]);
	sse = getenv("SSE") != NULL && strcmp(getenv("SSE"), "1") == 0;
	snprintf(req, sizeof req, "GET /api/v1/games/%s/stream HTTP/1.1\r\n"
	    "Host: 127.0.0.1\r\n%s\r\n", argv[2], sse ?
	    "Accept: text/event-stream\r\n" : "");
	start = now_us();
	for (i = 0; i < n; i++) {
		if ((conns[i].fd = dial(port, true)) == -1) {
			fprintf(stderr, "stream %d: %s\n", i, strerror(errno));
			break;
		}
		if (write(conns[i].fd, req, strlen(req)) < 0)
			break;
		ev.events = EPOLLIN;
		ev.data.ptr = &conns[i];
		epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
		open_ok++;
	}
	/* Every stream's first line. */
	ready = wait_all(ep, conns, open_ok, false, start + 120e6);
	rss1 = rss_kb(argv[4]);
	printf("streams open: %d of %d, ready %d, in %.1f s\n", open_ok, n,
	    ready, (now_us() - start) / 1e6);
	printf("corrchessd VmRSS: %ld kB before, %ld kB with the streams: "
	    "%.1f kB a stream\n", rss0, rss1, ready > 0 ?
	    (double)(rss1 - rss0) / ready : 0.0);

	/* A keep-alive on every stream before the moves, so that the moves
	 * come after one: what follows a keep-alive must read as well as
	 * what comes first. */
	kas = wait_all(ep, conns, open_ok, true, start + 150e6);
	printf("a keep-alive on %d streams, %.1f s after the first opened\n",
	    kas, (now_us() - start) / 1e6);

	/* Each move, to every stream. */
	if (getenv("PROFILE") != NULL && *getenv("PROFILE") != '\0')
		prof = profile_start(getenv("PROFILE"), argv[4]);
	cpu0 = cpu_ms(argv[4]);
	self0 = self_cpu_ms();
	for (k = 5; k < argc; k++) {
		if ((f = fopen(argv[k], "r")) == NULL)
			return 1;
		len = fread(body, 1, sizeof body, f);
		fclose(f);
		t0 = now_us();
		if (post(port, argv[2], body, len) != 201) {
			fprintf(stderr, "%s: not accepted\n", argv[k]);
			return 1;
		}
		t1 = now_us();
		for (done = 0; done < ready && now_us() - t0 < 30e6;) {
			int	m = epoll_wait(ep, evs, 512, 1000);

			t = now_us();
			for (i = 0; i < m; i++) {
				struct conn	*c = evs[i].data.ptr;
				int		 before = c->moves;

				conn_read(c);
				if (c->ended)
					epoll_ctl(ep, EPOLL_CTL_DEL, c->fd,
					    NULL);
				if (c->moves > before && c->moves == k - 4) {
					lat_sent[nlat] = t - t0;
					lat_ans[nlat++] = t - t1;
					done++;
				}
			}
		}
		printf("move %d: POST answered in %.1f ms, on %d streams\n",
		    k - 4, (t1 - t0) / 1e3, done);
	}
	cpu1 = cpu_ms(argv[4]);
	self1 = self_cpu_ms();
	if (prof > 0) {
		kill(prof, SIGINT);
		waitpid(prof, NULL, 0);
	}
	if (nlat > 0 && cpu0 >= 0 && cpu1 >= 0)
		printf("corrchessd CPU during the moves: %.0f ms, %.1f us a "
		    "delivery; this reader's: %.0f ms, %.1f us\n", cpu1 - cpu0,
		    (cpu1 - cpu0) * 1e3 / (double)nlat, self1 - self0,
		    (self1 - self0) * 1e3 / (double)nlat);
	if (nlat > 0) {
		qsort(lat_sent, nlat, sizeof *lat_sent, dcmp);
		qsort(lat_ans, nlat, sizeof *lat_ans, dcmp);
		printf("delivery from the POST sent:     p50 %.1f ms, p99 %.1f "
		    "ms, max %.1f ms (%zu deliveries)\n",
		    lat_sent[nlat / 2] / 1e3, lat_sent[nlat * 99 / 100] / 1e3,
		    lat_sent[nlat - 1] / 1e3, nlat);
		printf("delivery from the POST answered: p50 %.1f ms, p99 %.1f "
		    "ms, max %.1f ms (the commit lies between the two)\n",
		    lat_ans[nlat / 2] / 1e3, lat_ans[nlat * 99 / 100] / 1e3,
		    lat_ans[nlat - 1] / 1e3);
	}
	/* Every stream that was ready must have every move, in its
	 * chunks' data: say how many did not, and why. */
	for (i = 0; i < open_ok; i++) {
		if (!conns[i].first)
			continue;
		if (conns[i].moves != argc - 5)
			lost++;
		n_ended += conns[i].ended;
		n_bad += conns[i].bad;
	}
	printf("streams that missed a move: %d (closed by the server %d, "
	    "framing broken %d); chunks that ended inside a line: %ld\n",
	    lost, n_ended, n_bad, n_split);
	for (i = 0; i < open_ok; i++)
		close(conns[i].fd);
	free(conns);
	free(lat_sent);
	free(lat_ans);
	return lost > 0 || ready < open_ok || open_ok < n;
}
