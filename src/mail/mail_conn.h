/*
 * mail/mail_conn.h: an IMAP connection libcurl logs in and we drive.
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
 * What libcurl 7.88 cannot do over its own IMAP requests (IDLE; a FETCH
 * whose answer holds literals) goes over a connection of this kind:
 * libcurl connects and logs in with the TLS and the login of a struct
 * mail_imap (CURLOPT_CONNECT_ONLY), then the caller sends its commands
 * with mail_conn_send() and reads the answer bytes with mail_conn_fill()
 * into the connection's buffer (curl_easy_recv() is non-blocking: poll(2)
 * waits, after libcurl had its chance to hand over bytes its TLS layer
 * holds). Private to src/mail; one struct mail_conn from one thread.
 */

#ifndef CORRCHESS_MAIL_CONN_H
#define CORRCHESS_MAIL_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <curl/curl.h>

#include "mail/mail_imap_int.h"

struct mail_conn {
	struct mail_imap	*imap;		/* borrowed */
	const char		*what;		/* "IDLE", "FETCH": errors */
	CURL			*curl;		/* NULL: not connected */
	curl_socket_t		 sock;
	char			*buf;		/* bytes received ... */
	size_t			 off;		/* ... from here */
	size_t			 len;		/* ... to here */
	size_t			 cap;
	size_t			 limit;		/* most bytes held at once */
	unsigned		 tag;		/* last command's tag number */
	unsigned long		 connections;
	char			 errbuf[CURL_ERROR_SIZE];
	char			 line[IMAP_LINE_SIZE];	/* login's last */
};

/*
 * Set up c for imap's server (borrowed; it must outlive c); what names the
 * connection in errors; limit bounds the bytes held unread. Connects
 * nothing.
 */
void	mail_conn_init(struct mail_conn *c, struct mail_imap *imap,
	    const char *what, size_t limit);

/* Connect and log in. MAIL_IMAP_OK, or an error with a reason in err. */
enum mail_imap_err mail_conn_open(struct mail_conn *c, char *err,
	    size_t errsize);

/*
 * Close the connection, first sending goodbye (may be NULL) without
 * waiting for an answer (a second at most). c may be opened again.
 */
void	mail_conn_close(struct mail_conn *c, const char *goodbye);

/* Close the connection and free its buffer; c is then unusable. */
void	mail_conn_free(struct mail_conn *c);

/* Send the n bytes of s before the deadline dl. */
enum mail_imap_err mail_conn_send(struct mail_conn *c, const char *s,
	    size_t n, const struct timespec *dl, char *err, size_t errsize);

/*
 * Receive more bytes into the buffer (c->buf + c->off up to c->len),
 * waiting until dl at most. *got false: the deadline passed first. An
 * error when the server closed, the connection broke or the unread bytes
 * reached the limit.
 */
enum mail_imap_err mail_conn_fill(struct mail_conn *c,
	    const struct timespec *dl, bool *got, char *err, size_t errsize);

/* Drop the first n unread bytes. */
void	mail_conn_consume(struct mail_conn *c, size_t n);

/* Set *dl to ms milliseconds from now (monotonic clock). */
void	mail_conn_deadline(struct timespec *dl, long long ms);

/* Return the milliseconds from now to dl, 0 when past. */
int	mail_conn_ms_left(const struct timespec *dl);

#endif /* CORRCHESS_MAIL_CONN_H */
