/*
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
 * each mail to the service, then moves it to the processed or refused
 * folder; and sends the outbox (SMTP), retrying with backoff while the
 * server is down. Nothing is lost or applied twice: the service records a
 * mail in the transaction of its effect, and a notice is marked sent only
 * after the SMTP server took it.
 */

#ifndef CORRCHESS_MAILER_H
#define CORRCHESS_MAILER_H

#include <stddef.h>

#include "daemon/conf.h"
#include "service/service.h"

struct mailer;

/* Start the mail thread with the [mail] settings. NULL with a reason. */
struct mailer *mailer_start(struct service *, const struct conf *,
    char *err, size_t errsize);

/* Stop the mail thread after the mail in hand. Accepts NULL. */
void mailer_stop(struct mailer *);

/* The bare address of a From setting ("Club <chess@club.example>"). */
size_t mailer_bare_address(const char *from, char *buf, size_t size);

#endif /* CORRCHESS_MAILER_H */
