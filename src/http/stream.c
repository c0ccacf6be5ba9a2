/*
 * http/stream.c: answers that stay open: bytes pushed as they come.
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
 * A stream is an answer of unknown length (chunked) whose bytes come from
 * a buffer that other threads fill. When the buffer is empty the reader
 * suspends the connection inside libmicrohttpd, which then costs no
 * thread and no polling; a push resumes it. The buffer grows as needed up
 * to the stream's bound, and a push past the bound ends the stream (what
 * was pushed before still goes): a client that does not read cannot make
 * the server hold more than the bound for it.
 *
 * libmicrohttpd does not watch a suspended connection's socket, so a
 * client that leaves is noticed only when a push has to be sent:
 * http_stream_probe() asks the socket itself (poll(2): the peer's end of
 * the stream, a reset) and ends the stream at once, without a push; the
 * keep-alives call it.
 *
 * Two references: the answer's (dropped when libmicrohttpd frees it, the
 * connection gone) and the caller's (http_stream_release()). The server
 * keeps a list of its streams, to end them all when it stops: a suspended
 * connection must be resumed before libmicrohttpd stops.
 */

#include "config.h"

#include <sys/socket.h>

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "http/http_int.h"

/* The buffer's first size; it goes back to none when drained. */
#define STREAM_BUF_MIN	1024

struct http_stream {
	struct http_stream	*prev, *next;	/* the server's list */
	struct http_server	*srv;
	struct MHD_Connection	*conn;
	int			 fd;		/* its socket, or -1 */
	pthread_mutex_t		 lock;
	char			*buf;
	size_t			 off, len, cap, max;
	bool			 suspended;	/* the reader suspended it */
	bool			 ended;		/* no more bytes will come */
	bool			 gone;		/* the answer is freed */
	int			 refs;
};

/* Drop a reference; the last one frees the stream. */
static void
stream_unref(struct http_stream *s)
{
	int	refs;

	pthread_mutex_lock(&s->lock);
	refs = --s->refs;
	pthread_mutex_unlock(&s->lock);
	if (refs > 0)
		return;
	pthread_mutex_destroy(&s->lock);
	free(s->buf);
	free(s);
}

/* Take a stream off its server's list (once). */
static void
stream_unlist(struct http_stream *s)
{
	struct http_server	*srv = s->srv;

	pthread_mutex_lock(&srv->slock);
	if (s->prev != NULL || srv->shead == s) {
		if (s->prev != NULL)
			s->prev->next = s->next;
		else
			srv->shead = s->next;
		if (s->next != NULL)
			s->next->prev = s->prev;
		s->prev = s->next = NULL;
		srv->nstreams--;
	}
	pthread_mutex_unlock(&srv->slock);
}

/*
 * Give libmicrohttpd the next bytes; with none, suspend the connection
 * until a push (or the end) resumes it.
 */
static ssize_t
stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct http_stream	*s = cls;
	size_t			 n;

	(void)pos;
	pthread_mutex_lock(&s->lock);
	if (s->len > 0) {
		n = s->len < max ? s->len : max;
		memcpy(out, s->buf + s->off, n);
		s->off += n;
		s->len -= n;
		if (s->len == 0) {
			/* Drained: a quiet stream holds no buffer. */
			free(s->buf);
			s->buf = NULL;
			s->off = s->cap = 0;
		}
		pthread_mutex_unlock(&s->lock);
		return (ssize_t)n;
	}
	if (s->ended) {
		pthread_mutex_unlock(&s->lock);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	s->suspended = true;
	MHD_suspend_connection(s->conn);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* libmicrohttpd freed the answer: the connection is gone. */
static void
stream_free(void *cls)
{
	struct http_stream	*s = cls;

	pthread_mutex_lock(&s->lock);
	s->gone = true;
	s->ended = true;
	pthread_mutex_unlock(&s->lock);
	stream_unlist(s);
	stream_unref(s);
}

/* Resume the connection when the reader suspended it; the caller holds
 * s->lock, which is released here. */
static void
stream_wake_unlock(struct http_stream *s)
{
	bool	wake = s->suspended && !s->gone;

	s->suspended = false;
	pthread_mutex_unlock(&s->lock);
	if (wake)
		MHD_resume_connection(s->conn);
}

/* Append bytes; the caller holds s->lock. -1 past the bound. */
static int
stream_append(struct http_stream *s, const void *data, size_t len)
{
	size_t	cap;
	char	*p;

	if (s->len + len > s->max)
		return -1;
	if (s->off + s->len + len > s->cap) {
		if (s->off > 0 && s->len > 0)
			memmove(s->buf, s->buf + s->off, s->len);
		s->off = 0;
		for (cap = s->cap ? s->cap : STREAM_BUF_MIN; cap < s->len + len;
		    cap *= 2)
			;
		if (cap > s->max)
			cap = s->max;
		if (cap > s->cap) {
			if ((p = realloc(s->buf, cap)) == NULL)
				return -1;
			s->buf = p;
			s->cap = cap;
		}
	}
	memcpy(s->buf + s->off + s->len, data, len);
	s->len += len;
	return 0;
}

/*
 * Bound the kernel's send buffer of a stream's socket by the stream's own
 * bound: left to autotuning it grows to megabytes, which a reader that
 * does not read would hold in the kernel before the bound here is ever
 * reached (a stream's events are small; it needs no large window).
 */
static void
stream_sndbuf(int fd, size_t max)
{
	int	n = max < (1 << 20) ? (int)max : 1 << 20;

	if (fd != -1 && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &n, sizeof n) ==
	    -1)
		log_warn("http: a stream's send buffer");
}

/* The socket of a connection, or -1. */
static int
stream_fd(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	return ci != NULL ? ci->connect_fd : -1;
}

/* Answer with a stream whose first bytes are `first`. */
struct http_stream *
http_respond_stream(struct http_response *resp, unsigned status,
    const char *content_type, const void *first, size_t len, size_t max)
{
	struct http_request	*req = resp->req;
	struct http_server	*srv = req->srv;
	struct http_stream	*s;

	http_response_clear(resp);
	if ((s = calloc(1, sizeof *s)) == NULL)
		goto fail;
	pthread_mutex_init(&s->lock, NULL);
	s->srv = srv;
	s->conn = req->conn;
	s->fd = stream_fd(req->conn);
	s->max = max > len ? max : len;
	s->refs = 2;
	if (len > 0 && stream_append(s, first, len) != 0) {
		pthread_mutex_destroy(&s->lock);
		free(s->buf);
		free(s);
		goto fail;
	}
	stream_sndbuf(s->fd, s->max);
	resp->status = status;
	resp->set = 1;
	resp->stream = s;
	if ((resp->content_type = strdup(content_type)) == NULL) {
		http_response_clear(resp);
		stream_unref(s);
		goto fail;
	}
	pthread_mutex_lock(&srv->slock);
	s->next = srv->shead;
	if (s->next != NULL)
		s->next->prev = s;
	srv->shead = s;
	srv->nstreams++;
	pthread_mutex_unlock(&srv->slock);
	return s;
 fail:
	log_warnx("http: out of memory building a stream");
	http_respond_error(resp, 503, "out-of-memory",
	    "the server cannot open a stream now; try again later");
	return NULL;
}

/* Append bytes to a stream; the caller holds s->lock. */
static int
stream_push_locked(struct http_stream *s, const void *data, size_t len)
{
	if (s->ended)
		return -1;
	if (stream_append(s, data, len) != 0) {
		/* Past its bound: the reader is too slow; end it. */
		s->ended = true;
		return -1;
	}
	return 0;
}

/* Push bytes to a stream. */
int
http_stream_push(struct http_stream *s, const void *data, size_t len)
{
	int	rc;

	pthread_mutex_lock(&s->lock);
	rc = stream_push_locked(s, data, len);
	stream_wake_unlock(s);
	return rc;
}

/* Push bytes to a stream; say whether its connection needs waking. */
int
http_stream_push_later(struct http_stream *s, const void *data, size_t len)
{
	int	rc;

	pthread_mutex_lock(&s->lock);
	rc = stream_push_locked(s, data, len);
	if (rc == 0)
		rc = s->suspended && !s->gone;
	else if (s->suspended && !s->gone) {
		/* Ended: wake it now, to finish what it holds. */
		stream_wake_unlock(s);
		return -1;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/*
 * Ask a stream's socket whether its client left (the peer ended its side,
 * or reset it) and end the stream then: 0 while it stays, -1 when it
 * ended. The socket is libmicrohttpd's; it stays open while the answer
 * lives (libmicrohttpd frees the answer before it closes the socket, and
 * `gone` says so under the lock), and poll(2) only looks at it.
 */
int
http_stream_probe(struct http_stream *s)
{
	struct pollfd	pfd;

	pthread_mutex_lock(&s->lock);
	if (s->ended) {
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	pfd.fd = s->fd;
	pfd.events = POLLRDHUP;
	pfd.revents = 0;
	if (s->gone || s->fd == -1 || poll(&pfd, 1, 0) != 1 ||
	    (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	/* Gone: wake the connection so that libmicrohttpd closes it. */
	s->ended = true;
	stream_wake_unlock(s);
	return -1;
}

/* Wake a stream's connection if it sleeps. */
void
http_stream_wake(struct http_stream *s)
{
	pthread_mutex_lock(&s->lock);
	stream_wake_unlock(s);
}

/* End a stream from the caller's side and drop the caller's reference. */
void
http_stream_release(struct http_stream *s)
{
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	s->ended = true;
	stream_wake_unlock(s);
	stream_unref(s);
}

/* Count the streams open. */
unsigned
http_server_streams(struct http_server *srv)
{
	unsigned	n;

	pthread_mutex_lock(&srv->slock);
	n = srv->nstreams;
	pthread_mutex_unlock(&srv->slock);
	return n;
}

/* The response never reached libmicrohttpd: drop its reference. */
void
http_stream_unqueued(struct http_stream *s)
{
	stream_free(s);
}

/* Hand a stream's answer to libmicrohttpd (its reference with it). */
struct MHD_Response *
http_stream_response(struct http_stream *s)
{
	return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
	    stream_read, s, stream_free);
}

/* End every stream of a stopping server: their connections finish.
 * Returns how many were open. */
unsigned
http_streams_end(struct http_server *srv)
{
	struct http_stream	*s;
	unsigned		 n = 0;

	pthread_mutex_lock(&srv->slock);
	for (s = srv->shead; s != NULL; s = s->next) {
		pthread_mutex_lock(&s->lock);
		s->ended = true;
		stream_wake_unlock(s);
		n++;
	}
	pthread_mutex_unlock(&srv->slock);
	return n;
}
