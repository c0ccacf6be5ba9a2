/*
 * mail/mail_smtp.h: mail out: one message at a time to SMTP (libcurl).
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
 * Mail out: one message at a time to an SMTP server with libcurl. Transport
 * only: the caller composes the RFC 5322 bytes and keeps the outbox.
 *
 * One struct mail_smtp holds one libcurl easy handle, so consecutive
 * messages go over one connection while the server keeps it open (libcurl
 * drops a connection idle for two minutes and reconnects). Not
 * thread-safe: one struct mail_smtp per thread.
 *
 * The result tells the outbox what to do:
 *   MAIL_SMTP_OK        the server took the message (250 after DATA);
 *   MAIL_SMTP_TEMPFAIL  retry later: server down or unreachable, timeout,
 *                       4xx, TLS failure, and also a refused login (a
 *                       site problem, not the message's: it will work
 *                       once the configuration is fixed);
 *   MAIL_SMTP_PERMFAIL  give up: the server answered 5xx to the sender, a
 *                       recipient or the message (with several recipients,
 *                       one refused recipient fails the whole message).
 * The reason, with the server's own reply line, comes back in err.
 */

#ifndef CORRCHESS_MAIL_SMTP_H
#define CORRCHESS_MAIL_SMTP_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/mail_imap.h"		/* enum mail_starttls, MAIL_ERR_SIZE */

enum mail_smtp_result {
	MAIL_SMTP_OK = 0,
	MAIL_SMTP_TEMPFAIL,
	MAIL_SMTP_PERMFAIL,
};

/* How to reach the server. Strings are copied by mail_smtp_create(). */
struct mail_smtp_options {
	const char		*url;		/* smtp://host[:port][/NAME]
						 * or smtps://...; NAME is
						 * the EHLO name */
	const char		*user;		/* NULL or "": no AUTH */
	const char		*password;
	enum mail_starttls	 starttls;	/* smtp:// only */
	bool			 tls_verify;	/* false: accept any
						 * certificate (tests; logged
						 * as a warning) */
	const char		*ca_file;	/* NULL or "": system CAs */
	long			 connect_timeout; /* seconds; 0: 30 */
	long			 timeout;	/* seconds per message; 0: 120 */
};

struct mail_smtp;

/*
 * Make a client from opts; connects nothing yet. Returns the client (free
 * with mail_smtp_free()), or NULL with a reason in err (no or bad URL, no
 * memory).
 */
struct mail_smtp *mail_smtp_create(const struct mail_smtp_options *opts,
	    char *err, size_t errsize);

/* Close the connection (QUIT) and free smtp; accepts NULL. */
void	mail_smtp_free(struct mail_smtp *smtp);

/*
 * Send the message data[0..len) (RFC 5322 bytes, CRLF line ends; libcurl
 * dot-stuffs it) with envelope sender from ("" for a null sender, as
 * bounces use) to the nrcpt addresses rcpt[]. *code (may be NULL) gets the
 * server's last reply code (0 when it never answered). Returns the result
 * described above, with a reason in err unless MAIL_SMTP_OK.
 */
enum mail_smtp_result mail_smtp_send(struct mail_smtp *smtp,
	    const char *from, const char *const *rcpt, size_t nrcpt,
	    const char *data, size_t len, int *code, char *err,
	    size_t errsize);

/* Number of connections opened so far (1 + reconnections). */
unsigned long	mail_smtp_connections(const struct mail_smtp *smtp);

/* Name a result ("sent", "temporary failure", "permanent failure"). */
const char *mail_smtp_strresult(enum mail_smtp_result r);

#endif /* CORRCHESS_MAIL_SMTP_H */
