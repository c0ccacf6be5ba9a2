/*
 * mail/mailer.h: the mail threads: the mailbox polled, the outbox sent.
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
 * The mail thread of corrchessd: polls the move mailbox (IMAP) and hands
 * each mail to the service (at once when the server announces new mail
 * over IDLE, see mail_idle.h, and every poll_interval in any case), then moves it to the processed or refused
 * folder; and sends the outbox (SMTP), retrying with backoff while the
 * server is down. Nothing is lost or applied twice: the service records a
 * mail in the transaction of its effect, and a notice is marked sent only
 * after the SMTP server took it.
 */

#ifndef CORRCHESS_MAILER_H
#define CORRCHESS_MAILER_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/mail_imap.h"		/* enum mail_starttls */
#include "service/service.h"

/* One mail server, as the mailer reaches it. */
struct mailer_server {
	const char		*url;		/* NULL or "": not used */
	const char		*user;		/* SMTP: NULL or "", no login */
	const char		*password_file;	/* its first line is the
						 * password; NULL or "": none */
	enum mail_starttls	 starttls;	/* imap:// and smtp:// only */
};

/*
 * What the mailer does (corrchessd fills it from its [mail] settings).
 * The strings are borrowed: they must stay valid until mailer_stop().
 */
struct mailer_options {
	struct mailer_server	 imap;		/* the move mailbox, polled */
	struct mailer_server	 smtp;		/* where the notices go */
	const char		*mailbox;	/* the mailbox's name */
	const char		*processed_folder; /* mail applied or seen */
	const char		*refused_folder; /* mail refused */
	long long		 poll_interval;	/* seconds between polls */
	const char		*from;		/* the notices' From; the
						 * envelope sender is its bare
						 * address */
	bool			 tls_verify;	/* false: any certificate */
	const char		*ca_file;	/* NULL or "": system CAs */
};

struct mailer;

/*
 * Start the mail threads: one polls the mailbox when opts->imap.url is
 * set, one sends the outbox when opts->smtp.url is set. NULL with a reason
 * in err. Stop with mailer_stop().
 */
struct mailer *mailer_start(struct service *, const struct mailer_options *,
    char *err, size_t errsize);

/* Stop the mail threads after the mail in hand. Accepts NULL. */
void mailer_stop(struct mailer *);

/* The bare address of a From setting ("Club <chess@club.example>"). */
size_t mailer_bare_address(const char *from, char *buf, size_t size);

#endif /* CORRCHESS_MAILER_H */
