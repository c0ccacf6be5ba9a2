/*
 * mail/mail_idle.h: mail in: waiting for new mail with IMAP IDLE.
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
 * Mail in, the push half: a second IMAP connection that sits in IDLE
 * (RFC 2177) on the move mailbox and says when the server announces new
 * mail (an untagged EXISTS or RECENT), so that the poller (mail_imap.h)
 * fetches it at once instead of at its next poll. It fetches nothing
 * itself. libcurl has no IDLE: libcurl connects and logs in
 * (CURLOPT_CONNECT_ONLY, with the same TLS and login as mail_imap), then
 * this file speaks the commands over curl_easy_send()/curl_easy_recv():
 *
 *   t1 CAPABILITY              (no IDLE listed: MAIL_IMAP_ENOIDLE)
 *   t2 LIST "" ""              (the hierarchy separator)
 *   t3 SELECT mailbox
 *   t4 IDLE                    ("+ idling"; then the server's untagged
 *                              EXISTS/RECENT lines wake the waiter)
 *   DONE, t5 IDLE              (every 25 minutes, under RFC 2177's 29)
 *
 * A wait right after a (re)connection reports new mail once, whatever
 * the server said: mail that came while no IDLE was listening is fetched
 * by the poll that follows. The capabilities are the poller's session's
 * (mail_imap_poll() learns them on its first poll). Not thread-safe: one
 * struct mail_idle from one thread.
 */

#ifndef CORRCHESS_MAIL_IDLE_H
#define CORRCHESS_MAIL_IDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/mail_imap.h"

struct mail_idle;

/*
 * Make an IDLE client for the mailbox of imap, with its URL, login and
 * TLS settings; connects nothing yet. imap is borrowed: it must outlive
 * the client and be used from the same thread. Returns the client (free
 * with mail_idle_free()), or NULL when out of memory.
 */
struct mail_idle *mail_idle_create(struct mail_imap *imap);

/* Leave IDLE, log out, close the connection and free idle; accepts NULL. */
void	mail_idle_free(struct mail_idle *idle);

/*
 * Wait at most timeout_ms milliseconds for the server to announce new
 * mail in the mailbox, connecting and entering IDLE first when needed.
 * *newmail tells whether mail came (or may have come: the first wait on
 * a new connection). Returns MAIL_IMAP_OK, MAIL_IMAP_ENOIDLE when the
 * server does not offer IDLE (poll instead), or another error with a
 * reason in err (the connection is closed; the next wait reconnects).
 */
enum mail_imap_err mail_idle_wait(struct mail_idle *idle, int timeout_ms,
	    bool *newmail, char *err, size_t errsize);

/* Number of connections (each with one login) made so far. */
unsigned long	mail_idle_connections(const struct mail_idle *idle);

#endif /* CORRCHESS_MAIL_IDLE_H */
