/*
 * mail/mail_conn.c: an IMAP connection libcurl logs in and we drive.
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

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "util/errbuf.h"
#include "mail/mail_conn.h"

/* Set up a connection. */
void
mail_conn_init(struct mail_conn *c, struct mail_imap *imap, const char *what,
    size_t limit)
{
	memset(c, 0, sizeof *c);
	c->imap = imap;
	c->what = what;
	c->sock = CURL_SOCKET_BAD;
	c->limit = limit;
}

/* Return the milliseconds from now to dl, 0 when past. */
int
mail_conn_ms_left(const struct timespec *dl)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(dl->tv_sec - now.tv_sec) * 1000 +
	    (dl->tv_nsec - now.tv_nsec) / 1000000;
	if (ms < 0)
		return 0;
	return ms > 0x7fffffff ? 0x7fffffff : (int)ms;
}

/* Set dl to ms milliseconds from now. */
void
mail_conn_deadline(struct timespec *dl, long long ms)
{
	clock_gettime(CLOCK_MONOTONIC, dl);
	dl->tv_sec += (time_t)(ms / 1000);
	dl->tv_nsec += (long)(ms % 1000) * 1000000;
	if (dl->tv_nsec >= 1000000000) {
		dl->tv_sec++;
		dl->tv_nsec -= 1000000000;
	}
}

/* Keep the server's last line of the login (for error messages). */
static int
conn_debug(CURL *curl, curl_infotype type, char *data, size_t size,
    void *arg)
{
	struct mail_conn	*c = arg;

	(void)curl;
	if (type == CURLINFO_HEADER_IN)
		mail_curl_line(c->line, sizeof c->line, data, size);
	return 0;
}

/* Wait until the socket is ready for events or the deadline passes. */
static int
conn_poll(struct mail_conn *c, short events, const struct timespec *dl)
{
	struct pollfd	pfd;

	pfd.fd = (int)c->sock;
	pfd.events = events;
	pfd.revents = 0;
	return poll(&pfd, 1, mail_conn_ms_left(dl));
}

/* Connect and log in. */
enum mail_imap_err
mail_conn_open(struct mail_conn *c, char *err, size_t errsize)
{
	struct mail_imap	*imap = c->imap;
	char			 url[1024];
	curl_socket_t		 sock = CURL_SOCKET_BAD;
	CURLcode		 rc;
	enum mail_imap_err	 e;

	mail_conn_close(c, NULL);
	if ((c->curl = curl_easy_init()) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		return MAIL_IMAP_ENOMEM;
	}
	c->errbuf[0] = '\0';
	c->line[0] = '\0';
	snprintf(url, sizeof url, "%s/", imap->base);
	rc = mail_curl_setup(c->curl, &imap->co, c->errbuf, conn_debug, c);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c->curl, CURLOPT_URL, url);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c->curl, CURLOPT_CONNECT_ONLY, 1L);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(c->curl);
	if (rc == CURLE_OK)
		rc = curl_easy_getinfo(c->curl, CURLINFO_ACTIVESOCKET, &sock);
	if (rc == CURLE_OK && sock == CURL_SOCKET_BAD)
		rc = CURLE_COULDNT_CONNECT;
	if (rc != CURLE_OK) {
		e = mail_imap_map_error(rc);
		errbuf_set(err, errsize, "%s: %s: %s: %s%s%s", imap->base,
		    c->what, mail_imap_strerror(e), c->errbuf[0] != '\0' ?
		    c->errbuf : curl_easy_strerror(rc),
		    c->line[0] != '\0' ? "; server said: " : "", c->line);
		mail_conn_close(c, NULL);
		return e;
	}
	c->sock = sock;
	c->connections++;
	return MAIL_IMAP_OK;
}

/* Close the connection, saying goodbye first. */
void
mail_conn_close(struct mail_conn *c, const char *goodbye)
{
	struct timespec	dl;
	char		err[MAIL_ERR_SIZE];

	if (c->curl == NULL)
		return;
	if (goodbye != NULL) {
		mail_conn_deadline(&dl, 1000);
		(void)mail_conn_send(c, goodbye, strlen(goodbye), &dl, err,
		    sizeof err);
	}
	curl_easy_cleanup(c->curl);
	c->curl = NULL;
	c->sock = CURL_SOCKET_BAD;
	c->off = 0;
	c->len = 0;
}

/* Close and free the buffer. */
void
mail_conn_free(struct mail_conn *c)
{
	mail_conn_close(c, NULL);
	free(c->buf);
	c->buf = NULL;
	c->cap = 0;
}

/* Send bytes before the deadline. */
enum mail_imap_err
mail_conn_send(struct mail_conn *c, const char *s, size_t n,
    const struct timespec *dl, char *err, size_t errsize)
{
	size_t		sent;
	CURLcode	rc;

	while (n > 0) {
		sent = 0;
		rc = curl_easy_send(c->curl, s, n, &sent);
		if (rc == CURLE_AGAIN) {
			if (conn_poll(c, POLLOUT, dl) <= 0 &&
			    mail_conn_ms_left(dl) == 0) {
				errbuf_set(err, errsize, "%s: %s: %s while "
				    "sending", c->imap->base, c->what,
				    mail_imap_strerror(MAIL_IMAP_ETIMEOUT));
				return MAIL_IMAP_ETIMEOUT;
			}
			continue;
		}
		if (rc != CURLE_OK) {
			errbuf_set(err, errsize, "%s: %s: %s", c->imap->base,
			    c->what, curl_easy_strerror(rc));
			return MAIL_IMAP_ECONNECT;
		}
		s += sent;
		n -= sent;
	}
	return MAIL_IMAP_OK;
}

/* Make room for more bytes: move the unread ones to the front, grow. */
static int
conn_room(struct mail_conn *c)
{
	size_t	 cap;
	char	*p;

	if (c->off > 0) {
		memmove(c->buf, c->buf + c->off, c->len - c->off);
		c->len -= c->off;
		c->off = 0;
	}
	if (c->len < c->cap)
		return 0;
	if (c->cap >= c->limit)
		return -1;
	cap = c->cap == 0 ? 16384 : c->cap * 2;
	if (cap > c->limit)
		cap = c->limit;
	if ((p = realloc(c->buf, cap)) == NULL)
		return -1;
	c->buf = p;
	c->cap = cap;
	return 0;
}

/* Receive more bytes, waiting until dl at most. */
enum mail_imap_err
mail_conn_fill(struct mail_conn *c, const struct timespec *dl, bool *got,
    char *err, size_t errsize)
{
	size_t		n;
	CURLcode	rc;

	*got = false;
	if (conn_room(c) != 0) {
		if (c->cap < c->limit) {
			errbuf_set(err, errsize, "out of memory");
			return MAIL_IMAP_ENOMEM;
		}
		errbuf_set(err, errsize, "%s: %s: %s: an answer longer than "
		    "%zu bytes", c->imap->base, c->what,
		    mail_imap_strerror(MAIL_IMAP_EPROTO), c->limit);
		return MAIL_IMAP_EPROTO;
	}
	for (;;) {
		n = 0;
		rc = curl_easy_recv(c->curl, c->buf + c->len, c->cap - c->len,
		    &n);
		if (rc == CURLE_AGAIN) {
			if (mail_conn_ms_left(dl) == 0)
				return MAIL_IMAP_OK;
			conn_poll(c, POLLIN, dl);
			continue;
		}
		if (rc != CURLE_OK || n == 0) {
			errbuf_set(err, errsize, "%s: %s: %s", c->imap->base,
			    c->what, rc != CURLE_OK ? curl_easy_strerror(rc) :
			    "the server closed the connection");
			return MAIL_IMAP_ECONNECT;
		}
		c->len += n;
		*got = true;
		return MAIL_IMAP_OK;
	}
}

/* Drop the first n unread bytes. */
void
mail_conn_consume(struct mail_conn *c, size_t n)
{
	c->off += n;
	if (c->off >= c->len)
		c->off = c->len = 0;
}
