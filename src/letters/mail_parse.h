/*
 * letters/mail_parse.h: a player's mail read: sender, thread, the signed statement.
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
 * Reading a player's mail: raw RFC 5322 bytes in, the sender, the thread
 * ids and the signed statement (if any) out. Pure: no network, no files.
 * MIME is parsed with GMime.
 *
 * The text searched for a statement is built like this:
 *  1. The body: the text/plain part (multipart trees walked in order,
 *     multipart/alternative takes its text/plain child, else its HTML one),
 *     or an HTML body turned into text (tags dropped, entities decoded,
 *     <br>, <p>, <div> ... as line breaks, <blockquote> as quoted lines).
 *     Transfer encodings and charsets are decoded to UTF-8;
 *     format=flowed (RFC 3676) soft breaks are joined.
 *  2. Quoted lines (first non-blank character '>') are dropped, and in a
 *     body everything from the signature separator line "-- " (or an
 *     Outlook "-----Original Message-----" line) on. HTML no-break spaces
 *     read as spaces.
 *     Attached messages (message/rfc822) are not read.
 *  3. The text of attachments follows the body: text parts (any text
 *     subtype) and parts named *.txt or *.sig (move.txt and move.txt.sig,
 *     as ssh-keygen writes them, whatever type the client gave them).
 *  4. What mail clients do to long lines is undone, and only that: the
 *     base64 inside an "SSH SIGNATURE" block is re-joined and laid out
 *     again in lines of 70 (clients join or split those lines), and a
 *     "signature:" line broken after the colon or inside its base64 is
 *     joined again. The statement's own five lines are never changed.
 * Then every line "corrchess-v1" is tried in order with
 * sig_statement_parse(): the first statement whose signature parses is
 * taken (a ready-to-fill statement from a notice that was not quoted
 * comes before the player's own when the reply is written below it).
 *
 * Threads: any number of calls may run at once (GMime is initialised once,
 * on first use, by mail_gmime_init()).
 */

#ifndef CORRCHESS_MAIL_PARSE_H
#define CORRCHESS_MAIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "letters/mail_reply.h"
#include "sig/sig.h"

/* Largest raw mail mail_parse() reads (larger is refused). */
#define MAIL_PARSE_MAX		(16 * 1024 * 1024)

/* What the text holds. */
enum mail_found {
	MAIL_NO_STATEMENT = 0,	/* no "corrchess-v1" line anywhere */
	MAIL_STATEMENT,		/* a statement and its signature parse */
	MAIL_BAD_STATEMENT,	/* a "corrchess-v1" line, but no statement
				   with a signature parses after it */
};

/*
 * A parsed mail. Every string is NUL-terminated, malloc'd, owned by the
 * struct and released by mail_message_free(); a missing header is "" (never
 * NULL after a successful mail_parse()). Message ids are written without
 * their angle brackets.
 */
struct mail_message {
	char		*from;		/* bare address of From ("" if none) */
	char		*from_name;	/* its display name, decoded, or "" */
	char		*reply_to;	/* bare address of Reply-To, or "" */
	char		*message_id;	/* Message-ID */
	char		*in_reply_to;	/* first id of In-Reply-To */
	char		**references;	/* References, oldest first */
	size_t		 nreferences;
	char		*subject;	/* decoded (RFC 2047) UTF-8 */
	bool		 automatic;	/* an automatic mail (bounce, vacation
					   reply, list): never answer it */

	char		*text;		/* the cleaned text that was searched */
	size_t		 text_len;

	enum mail_found	 found;
	/*
	 * MAIL_STATEMENT: the statement and its signature, LF line ends,
	 * ready for service_submit(). MAIL_BAD_STATEMENT: the text from the
	 * first "corrchess-v1" line to the end, so that service_submit()
	 * names the fault; `error` and `error_line` (a line of `statement`,
	 * from 1, or 0) say what sig_statement_parse() found. NULL for
	 * MAIL_NO_STATEMENT.
	 */
	char		*statement;
	size_t		 statement_len;
	enum sig_error	 error;
	unsigned int	 error_line;

	/*
	 * A reply without a key (mail_reply.h), when no statement with a
	 * signature was found: the first token line of the body, quoted or
	 * not ("" when none), and the action on the first line of the
	 * cleaned text ("" when none).
	 */
	char		 token[MAIL_TOKEN_SIZE];
	char		 reply_action[MAIL_REPLY_ACTION_SIZE];
	char		 reply_message[MAIL_REPLY_MESSAGE_SIZE];	/* the
					   lines below the action, or "" */
};

/*
 * Initialise GMime for the process, once, whatever the thread: mail_parse()
 * and notice_compose() call it; call it too before using GMime elsewhere.
 */
void mail_gmime_init(void);

/*
 * Parse `len` bytes of a raw mail (CRLF or LF line ends) into `m`
 * (overwritten; free with mail_message_free() after success). Returns 0
 * when the bytes are a mail, whether or not a statement is in it; -1 when
 * they are not one (no header at all, or larger than MAIL_PARSE_MAX) or
 * memory ran out, with a sentence in `err` (when not NULL) and nothing
 * left to free.
 */
int mail_parse(const char *raw, size_t len, struct mail_message *m,
    char *err, size_t errsize);

/* Release a parsed mail's strings. Accepts a zeroed struct. */
void mail_message_free(struct mail_message *m);

/*
 * The game a reply belongs to, from its thread: the first id of
 * In-Reply-To and References (newest first) of the form
 * "game-N@DOMAIN" or "game-N.ANYTHING@DOMAIN" (as notice.c writes them),
 * `domain` compared without case. 0 when none.
 */
int64_t mail_thread_game(const struct mail_message *m, const char *domain);

/*
 * Clean a plain text the way a mail body is cleaned (quoted lines and the
 * part below "-- " dropped, signature lines repaired; steps 2 and 4 above)
 * and find the statement in it: fills m->text, m->found, m->statement,
 * m->error, m->error_line (the other fields are left as they are). For
 * texts that do not come as a mail. 0, or -1 when memory ran out.
 */
int mail_find_statement(const char *text, size_t len, struct mail_message *m);

/*
 * Turn an HTML text into plain text (step 1 above), NUL-terminated and
 * malloc'd, or NULL when memory ran out.
 */
char *mail_html_to_text(const char *html, size_t len, size_t *lenp);

#endif /* CORRCHESS_MAIL_PARSE_H */
