/*
 * mail/mail_imap_int.h: what the IMAP client's files share (private).
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
 * struct mail_imap and the functions of mail_imap.c that mail_idle.c
 * uses: the IDLE connection borrows the poller's URL, login, TLS
 * settings and what its session learnt (separator, IDLE offered).
 * Callers outside src/mail see only mail_imap.h and mail_idle.h.
 */

#ifndef CORRCHESS_MAIL_IMAP_INT_H
#define CORRCHESS_MAIL_IMAP_INT_H

#include <stddef.h>

#include <curl/curl.h>

#include "mail/mail_curl.h"
#include "mail/mail_imap.h"

/* Room kept for the server's last line, shown in errors. */
#define IMAP_LINE_SIZE		256

/* A growing byte buffer with a limit. */
struct imap_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
	size_t	 limit;
	int	 over;		/* the answer went past the limit */
	int	 nomem;
};

struct mail_conn;

struct mail_imap {
	CURL			*curl;
	char			*base;		/* scheme://host[:port] */
	char			*mailbox;	/* as configured, '/' levels */
	struct mail_curl_options co;		/* user always set */
	size_t			 max_message;

	int			 session;	/* separator, caps known */
	char			 sep;		/* hierarchy separator */
	int			 has_move;
	int			 has_idle;
	unsigned long		 connections;

	struct mail_conn	*fetch;		/* the poll's SELECT and
						 * FETCH (mail_conn.h) */
	struct imap_buf		 answer;
	char			 errbuf[CURL_ERROR_SIZE];
	char			 line[IMAP_LINE_SIZE];	/* server's last */
};
/* Map a libcurl result to an error of ours. */
enum mail_imap_err mail_imap_map_error(CURLcode rc);

/*
 * Learn the hierarchy separator and the capabilities (MOVE, IDLE) over
 * imap's own connection, once per client. MAIL_IMAP_OK or an error.
 */
enum mail_imap_err mail_imap_session(struct mail_imap *imap, char *err,
	    size_t errsize);

/*
 * Write a mailbox name as an IMAP quoted string into buf (size bytes),
 * '/' turned into the server's separator. 0, or -1 with a reason.
 */
int	mail_imap_quote(const struct mail_imap *imap, const char *name,
	    char *buf, size_t size, char *err, size_t errsize);

#endif /* CORRCHESS_MAIL_IMAP_INT_H */
