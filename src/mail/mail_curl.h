/*
 * mail/mail_curl.h: libcurl set up alike for the IMAP and SMTP clients.
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
 * What the IMAP and the SMTP client set up alike on their libcurl handles:
 * libcurl initialised once per process, the login, TLS (implicit, STARTTLS
 * or none; certificate checks), the timeouts, the error buffer and a debug
 * callback that keeps the server's last line for error messages.
 */

#ifndef CORRCHESS_MAIL_CURL_H
#define CORRCHESS_MAIL_CURL_H

#include <stddef.h>

#include <curl/curl.h>

#include "mail/mail_imap.h"		/* enum mail_starttls */

/* How a client reaches its server. The client owns the strings. */
struct mail_curl_options {
	char			*user;		/* NULL: no login */
	char			*password;	/* with user */
	char			*ca_file;	/* NULL: system CAs */
	enum mail_starttls	 starttls;	/* without tls only */
	int			 tls;		/* imaps://, smtps:// */
	int			 tls_verify;
	long			 connect_timeout; /* seconds */
	long			 timeout;	/* seconds */
};

/* Initialise libcurl once per process; return its result (thread-safe). */
CURLcode	mail_curl_init(void);

/*
 * Set on c the options of every request: login, TLS, timeouts, no
 * signals, errbuf (CURL_ERROR_SIZE bytes) for libcurl's errors, and debug
 * called with arg on every protocol line. Returns the first failure.
 */
CURLcode	mail_curl_setup(CURL *c, const struct mail_curl_options *o,
		    char *errbuf, curl_debug_callback debug, void *arg);

/*
 * Close a client's connection: clean up its handle c (may be NULL) and free
 * the strings of o, the password wiped first. o is left zeroed.
 */
void		mail_curl_close(CURL *c, struct mail_curl_options *o);

/*
 * Copy the first line of data (size bytes, without CR or LF, control
 * characters as '?') into line (linesize bytes, NUL-terminated); leave
 * line alone when data starts with a line end. Return the line's length.
 */
size_t		mail_curl_line(char *line, size_t linesize, const char *data,
		    size_t size);

#endif /* CORRCHESS_MAIL_CURL_H */
