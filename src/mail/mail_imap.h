/*
 * mail/mail_imap.h: mail in: an IMAP mailbox polled by UID (libcurl).
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
 * Mail in: an IMAP mailbox polled by UID with libcurl. Transport only: the
 * bytes of each new message go to a callback; parsing them and recording
 * what was done is the caller's work.
 *
 * One struct mail_imap holds two connections to the server, each logged in
 * once and kept from poll to poll: the poll's own, which libcurl opens
 * and this client drives (mail_conn.h: libcurl cannot read the literals
 * of a FETCH answer to a custom request), and libcurl's, for the other
 * commands. Not thread-safe: use one struct mail_imap from one thread at
 * a time.
 *
 * A poll, in IMAP terms, on its own connection:
 *   SELECT mailbox                  (every poll: the session then sees new
 *                                   mail, and UIDVALIDITY and UIDNEXT are
 *                                   read; no new UID: the poll ends here)
 *   UID FETCH n:* (UID RFC822.SIZE BODY[]<0.max>)
 *                                   (n = last UID seen + 1; every new
 *                                   message in one answer, each one's
 *                                   first max_message_size bytes, read as
 *                                   it comes and handed to the callback in
 *                                   ascending UID order)
 * Fetching sets \Seen on the server (BODY[], not BODY.PEEK[]): "unseen"
 * records nothing. The caller records (UIDVALIDITY, UID) with the effect
 * of each message in one transaction and then calls mail_imap_move() to
 * file the message away (UID MOVE on libcurl's connection, creating the
 * folder when missing; where the server has no MOVE, the message is
 * flagged \Seen and stays). A crash between commit and move leaves the
 * message in the mailbox; the next poll fetches it again and the caller
 * finds its (UIDVALIDITY, UID) or Message-ID already recorded.
 *
 * When the mailbox's UIDVALIDITY differs from the one the caller passes,
 * its UIDs are no longer comparable: the poll fetches every message from
 * UID 1 (dedupe by Message-ID then).
 *
 * Folder names are written with '/' between levels ("corrchess/processed")
 * and translated to the server's hierarchy separator (Dovecot's Maildir++
 * uses '.'); they must be printable ASCII (no modified UTF-7 here).
 */

#ifndef CORRCHESS_MAIL_IMAP_H
#define CORRCHESS_MAIL_IMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any error text from the mail modules. */
#define MAIL_ERR_SIZE	512

/* STARTTLS on imap:// and smtp:// URLs (imaps:// and smtps:// always TLS). */
enum mail_starttls {
	MAIL_STARTTLS_NONE,	/* never: plain text (loopback tests only) */
	MAIL_STARTTLS_TRY,	/* when the server offers it */
	MAIL_STARTTLS_REQUIRED,	/* fail when the server does not offer it */
};

/* Errors of the IMAP client; MAIL_IMAP_OK is 0. */
enum mail_imap_err {
	MAIL_IMAP_OK = 0,
	MAIL_IMAP_ECONNECT,	/* server down, refused, unreachable, gone */
	MAIL_IMAP_ELOGIN,	/* user or password refused */
	MAIL_IMAP_ETLS,		/* TLS failed: handshake, certificate,
				 * STARTTLS required but not offered */
	MAIL_IMAP_ETIMEOUT,	/* no answer in time */
	MAIL_IMAP_EPROTO,	/* the server refused a command (NO, BAD) or
				 * answered something unexpected */
	MAIL_IMAP_ECONFIG,	/* bad URL, mailbox or folder name */
	MAIL_IMAP_ENOMEM,
	MAIL_IMAP_ENOIDLE,	/* the server does not offer IDLE (mail_idle.h) */
};

/* How to reach the mailbox. Strings are copied by mail_imap_create(). */
struct mail_imap_options {
	const char		*url;		/* imap://host[:port] or
						 * imaps://host[:port]; a
						 * path is ignored */
	const char		*user;
	const char		*password;
	const char		*mailbox;	/* NULL or "": INBOX */
	enum mail_starttls	 starttls;	/* imap:// only */
	bool			 tls_verify;	/* false: accept any
						 * certificate (tests; logged
						 * as a warning) */
	const char		*ca_file;	/* NULL or "": system CAs */
	long			 connect_timeout; /* seconds; 0: 30 */
	long			 timeout;	/* seconds per command or
						 * message; 0: 120 */
	size_t			 max_message_size; /* bytes; 0: 16 MiB */
};

/* One fetched message, as handed to the callback. */
struct mail_imap_message {
	uint32_t	 uidvalidity;
	uint32_t	 uid;
	const char	*data;		/* the raw RFC 5322 bytes, exactly as
					 * stored; borrowed: valid only during
					 * the callback; not NUL-terminated */
	size_t		 len;
	bool		 truncated;	/* larger than max_message_size: data
					 * holds its first max_message_size
					 * bytes only */
	uint64_t	 size;		/* the whole message's size as the
					 * server announced it (len when not
					 * truncated; 0: not announced) */
	uint64_t	 limit;		/* max_message_size */
};

/*
 * Called once per new message, in ascending UID order. Return 0 to go on
 * with the next message, non-zero to end the poll there (the poll then
 * returns MAIL_IMAP_OK). The callback may call mail_imap_move() on the
 * same handle.
 */
typedef int	(*mail_imap_cb)(const struct mail_imap_message *msg, void *arg);

/* What a poll found. */
struct mail_imap_poll_result {
	uint32_t	 uidvalidity;	/* the mailbox's, as read this poll */
	uint32_t	 uidnext;	/* the mailbox's UIDNEXT (0: unknown) */
	size_t		 found;		/* new UIDs found */
	size_t		 fetched;	/* messages handed to the callback */
	bool		 uidvalidity_changed; /* differs from the caller's
					 * (nonzero) last_uidvalidity */
};

struct mail_imap;

/*
 * Make a client from opts; connects nothing yet. Returns the client (free
 * with mail_imap_free()), or NULL with a reason in err (no or bad URL, no
 * memory).
 */
struct mail_imap *mail_imap_create(const struct mail_imap_options *opts,
	    char *err, size_t errsize);

/* Close the connection and free imap; accepts NULL. */
void	mail_imap_free(struct mail_imap *imap);

/*
 * Fetch every message of the mailbox whose UID is above last_uid (every
 * message when last_uidvalidity is 0 or differs from the mailbox's) and
 * hand each to cb. res (may be NULL) tells what was found. Returns
 * MAIL_IMAP_OK, or an error with a reason in err; messages handed to cb
 * before an error stay handed. Retry a failed poll later
 * (mail_imap_backoff_next()).
 */
enum mail_imap_err mail_imap_poll(struct mail_imap *imap,
	    uint32_t last_uidvalidity, uint32_t last_uid, mail_imap_cb cb,
	    void *arg, struct mail_imap_poll_result *res, char *err,
	    size_t errsize);

/*
 * File the message uid of the mailbox into folder ('/' between levels),
 * creating the folder when missing: UID MOVE, or where the server has no
 * MOVE, flag it \Seen and leave it. uidvalidity must be the one the
 * message was fetched under: when the mailbox's differs, nothing is moved
 * and the error is MAIL_IMAP_EPROTO. Moving a UID that is no longer there
 * is not an error.
 */
enum mail_imap_err mail_imap_move(struct mail_imap *imap,
	    uint32_t uidvalidity, uint32_t uid, const char *folder,
	    char *err, size_t errsize);

/*
 * File the messages uids[0..n-1] of the mailbox into folder at once, as
 * mail_imap_move() does one: UID MOVE with a UID set ("5,7,9:12"; a long
 * set is split over several commands), or where the server has no MOVE,
 * flag them \Seen. The order of uids does not matter; n may be 0.
 */
enum mail_imap_err mail_imap_move_set(struct mail_imap *imap,
	    uint32_t uidvalidity, const uint32_t *uids, size_t n,
	    const char *folder, char *err, size_t errsize);

/*
 * Read the mailbox's (or, when mailbox is non-NULL, that mailbox's or
 * folder's) UIDVALIDITY, UIDNEXT and message count with STATUS. Returns
 * MAIL_IMAP_OK, or an error (MAIL_IMAP_EPROTO for a missing mailbox).
 */
enum mail_imap_err mail_imap_status(struct mail_imap *imap,
	    const char *mailbox, uint32_t *uidvalidity, uint32_t *uidnext,
	    uint32_t *messages, char *err, size_t errsize);

/* Number of connections (each with one login) made so far. */
unsigned long	mail_imap_connections(const struct mail_imap *imap);

/* Name an error ("server unreachable", "login refused", ...). */
const char *mail_imap_strerror(enum mail_imap_err e);

/*
 * Next delay in seconds before retrying after a failure: 1 after a
 * success (delay 0), then doubling up to max. Use with any transport.
 */
unsigned int	mail_imap_backoff_next(unsigned int delay, unsigned int max);

#endif /* CORRCHESS_MAIL_IMAP_H */
