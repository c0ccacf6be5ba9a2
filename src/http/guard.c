/*
 * http/guard.c: each request's deadline, and room kept for new addresses.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the
 * Free Software Foundation, either version 3 of the License, or (at your
 * option) any later version. See the file COPYING.
 */

/*
 * libmicrohttpd's connection timeout is an idle timeout: a client that
 * trickles a header line every few seconds keeps its connection forever,
 * and a few addresses holding many such connections shut everyone out.
 * Two guards:
 *
 *  - A deadline: every request must arrive whole (line, headers, body)
 *    within request_timeout of the connection's opening, or of the end of
 *    its previous request. Each connection is noted when libmicrohttpd
 *    opens it (MHD_OPTION_NOTIFY_CONNECTION); the access handler marks
 *    when the request is whole; a thread looks every second and shuts
 *    down the socket of a connection past its deadline (shutdown(2), not
 *    close: the descriptor stays libmicrohttpd's, which sees the end of
 *    the stream and closes the connection itself).
 *  - Room for new addresses: when the server holds more than seven
 *    eighths of max_connections, an address that already holds
 *    HTTP_GUARD_CROWD connections gets no more (the accept policy), so the
 *    last eighth stays for addresses that hold few.
 */

#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/metrics.h"
#include "http/http_int.h"

/* Connections one address may hold when the server is nearly full. */
#define HTTP_GUARD_CROWD	8

/* One open connection. */
struct http_guard_conn {
	struct http_guard_conn	*prev, *next;
	int			 fd;
	int			 family;
	uint8_t			 addr[16];	/* IPv4 or IPv6 bytes */
	time_t			 started;	/* its request's clock */
	bool			 whole;		/* the request has arrived */
	bool			 shut;		/* past its deadline, shut */
};

static struct metric	*m_deadline, *m_crowded;
static pthread_once_t	 metrics_once = PTHREAD_ONCE_INIT;

/* Register the guards' metrics, once per process. */
static void
guard_metrics_init(void)
{
	m_deadline = metrics_counter("corrchess_http_deadline_closed_total",
	    "Connections closed because a request did not arrive whole "
	    "within request_timeout");
	m_crowded = metrics_counter("corrchess_http_crowded_refused_total",
	    "Connections refused to an address holding many when the server "
	    "was nearly full");
}

/* Seconds on the monotonic clock. */
static time_t
mono_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Copy an address's bytes; 0, or -1 for a family not kept. */
static int
addr_key(const struct sockaddr *sa, int *family, uint8_t out[16])
{
	memset(out, 0, 16);
	if (sa->sa_family == AF_INET) {
		memcpy(out, &((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		memcpy(out, &((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_addr, 16);
	} else
		return -1;
	*family = sa->sa_family;
	return 0;
}

/*
 * Decide whether to take a new connection (libmicrohttpd's accept
 * policy): none once the server stops on a socket of its own (see
 * http_server_stop()), and none from an address that crowds a nearly
 * full server.
 */
mhd_result
http_guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct http_server	*srv = cls;
	struct http_guard_conn	*c;
	uint8_t			 key[16];
	unsigned		 held = 0;
	int			 family;
	bool			 take = true;

	(void)addrlen;
	if (atomic_load(&srv->refusing))
		return MHD_NO;
	if (addr_key(addr, &family, key) != 0)
		return MHD_YES;
	pthread_mutex_lock(&srv->glock);
	if (srv->gcount >= srv->opts.max_connections -
	    srv->opts.max_connections / 8) {
		for (c = srv->ghead; c != NULL && take; c = c->next)
			if (c->family == family &&
			    memcmp(c->addr, key, 16) == 0 &&
			    ++held >= HTTP_GUARD_CROWD)
				take = false;
	}
	pthread_mutex_unlock(&srv->glock);
	if (!take)
		metrics_inc(m_crowded);
	return take ? MHD_YES : MHD_NO;
}

/* Note a connection opened or closed (MHD_OPTION_NOTIFY_CONNECTION). */
void
http_guard_notify(void *cls, struct MHD_Connection *conn,
    void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	struct http_server		*srv = cls;
	struct http_guard_conn		*c = *socket_context;
	const union MHD_ConnectionInfo	*fd, *ad;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		if ((c = calloc(1, sizeof *c)) == NULL)
			return;
		fd = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CONNECTION_FD);
		ad = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		c->fd = fd != NULL ? fd->connect_fd : -1;
		if (ad == NULL || ad->client_addr == NULL ||
		    addr_key(ad->client_addr, &c->family, c->addr) != 0)
			c->family = AF_UNSPEC;
		c->started = mono_now();
		pthread_mutex_lock(&srv->glock);
		c->next = srv->ghead;
		if (srv->ghead != NULL)
			srv->ghead->prev = c;
		srv->ghead = c;
		srv->gcount++;
		pthread_mutex_unlock(&srv->glock);
		*socket_context = c;
		return;
	}
	if (c == NULL)
		return;
	/* Closed: libmicrohttpd closes the descriptor after this returns. */
	pthread_mutex_lock(&srv->glock);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		srv->ghead = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	srv->gcount--;
	pthread_mutex_unlock(&srv->glock);
	*socket_context = NULL;
	free(c);
}

/* The guard record of a connection, or NULL. */
static struct http_guard_conn *
guard_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci != NULL ? ci->socket_context : NULL;
}

/*
 * Mark a connection's request as arrived whole: its deadline is met.
 * False when the connection was shut first (its deadline, or a stop):
 * the request must then not be acted on, since its answer cannot be
 * sent. Under one lock with http_guard_shut(), so that a request is
 * either shut or acted on, never both.
 */
bool
http_guard_whole(struct http_server *srv, struct MHD_Connection *conn)
{
	struct http_guard_conn	*c = guard_of(conn);
	bool			 open;

	if (c == NULL)
		return true;
	pthread_mutex_lock(&srv->glock);
	c->whole = true;
	open = !c->shut;
	pthread_mutex_unlock(&srv->glock);
	return open;
}

/* A request ended: the connection's next request gets a new deadline. */
void
http_guard_next(struct http_server *srv, struct MHD_Connection *conn)
{
	struct http_guard_conn	*c = guard_of(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&srv->glock);
	c->whole = false;
	c->started = mono_now();
	pthread_mutex_unlock(&srv->glock);
}

/*
 * Shut connections at once, as the server stops: with all false, those
 * whose request has not arrived whole (idle between requests, or still
 * sending one): nothing was promised to them; with all true, every one
 * still open (their answers were not read in time). libmicrohttpd then
 * sees each end and closes the connection itself. Returns how many.
 */
unsigned
http_guard_shut(struct http_server *srv, bool all)
{
	struct http_guard_conn	*c;
	unsigned		 n = 0;

	pthread_mutex_lock(&srv->glock);
	for (c = srv->ghead; c != NULL; c = c->next) {
		if ((c->whole && !all) || c->shut || c->fd == -1)
			continue;
		if (shutdown(c->fd, SHUT_RDWR) == 0 || errno == ENOTCONN)
			n++;
		c->shut = true;
	}
	pthread_mutex_unlock(&srv->glock);
	return n;
}

/* The guard thread: once a second, shut connections past their
 * deadline. */
static void *
guard_main(void *arg)
{
	struct http_server	*srv = arg;
	struct http_guard_conn	*c;
	struct timespec		 until;
	time_t			 now;
	unsigned		 n;

	pthread_mutex_lock(&srv->glock);
	while (!srv->gstop) {
		now = mono_now();
		n = 0;
		for (c = srv->ghead; c != NULL; c = c->next) {
			if (c->whole || c->shut || c->fd == -1 ||
			    now - c->started < (time_t)srv->opts.request_timeout)
				continue;
			if (shutdown(c->fd, SHUT_RDWR) == 0 || errno == ENOTCONN)
				n++;
			c->shut = true;
		}
		if (n > 0) {
			metrics_add(m_deadline, n);
			log_debug("http: %u connection%s past request_timeout "
			    "closed", n, n == 1 ? "" : "s");
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&srv->gcond, &srv->glock, &until);
	}
	pthread_mutex_unlock(&srv->glock);
	return NULL;
}

/* Set up the guards' state (before libmicrohttpd starts). */
void
http_guard_init(struct http_server *srv)
{
	pthread_once(&metrics_once, guard_metrics_init);
	pthread_mutex_init(&srv->glock, NULL);
	pthread_cond_init(&srv->gcond, NULL);
}

/* Start the deadline thread; 0, or -1 with a reason. */
int
http_guard_start(struct http_server *srv, char *err, size_t errsize)
{
	int	rc;

	if (srv->opts.request_timeout == 0)
		return 0;
	if ((rc = pthread_create(&srv->gthread, NULL, guard_main, srv)) != 0) {
		snprintf(err, errsize, "request deadline thread: %s",
		    strerror(rc));
		return -1;
	}
	srv->gstarted = true;
	return 0;
}

/* Stop the deadline thread (before libmicrohttpd stops). */
void
http_guard_stop(struct http_server *srv)
{
	if (!srv->gstarted)
		return;
	pthread_mutex_lock(&srv->glock);
	srv->gstop = true;
	pthread_cond_signal(&srv->gcond);
	pthread_mutex_unlock(&srv->glock);
	pthread_join(srv->gthread, NULL);
	srv->gstarted = false;
}

/* Free the guards' state (after libmicrohttpd stopped). */
void
http_guard_free(struct http_server *srv)
{
	pthread_mutex_destroy(&srv->glock);
	pthread_cond_destroy(&srv->gcond);
}
