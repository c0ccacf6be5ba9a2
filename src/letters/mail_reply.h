/*
 * letters/mail_reply.h: a reply without a key read: its token and its action.
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
 * A player whose mail-token door is open answers a notice without a key:
 * the notice carries a line "corrchess-token: TOKEN", which the reply
 * keeps (quoted or not), and the reply's own text says the action on its
 * first line ("Nf3", "Cf3", "e4 offer-draw", "resign", ...); the lines
 * below it are a message to the opponent. Pure: text in, text out.
 */

#ifndef CORRCHESS_MAIL_REPLY_H
#define CORRCHESS_MAIL_REPLY_H

#include <stddef.h>

/* The line of a notice that carries a token, before the token. */
#define MAIL_TOKEN_TAG		"corrchess-token:"
/* A token's characters (base64url) are at most this many, with the NUL. */
#define MAIL_TOKEN_SIZE		64
/* An action line is at most this many bytes, with the NUL. */
#define MAIL_REPLY_ACTION_SIZE	128
/* A reply's message is read up to this many bytes, with the NUL (twice
 * what a statement takes: a longer one is refused, not cut). */
#define MAIL_REPLY_MESSAGE_SIZE	1001

/*
 * Find the first token line in `len` bytes of a mail's text, quoted or
 * not ("> > corrchess-token: TOKEN"): the token, 16 to MAIL_TOKEN_SIZE - 1
 * characters of base64url, into `token`. 0 when found, else -1 (token "").
 */
int mail_reply_token(const char *text, size_t len,
    char token[MAIL_TOKEN_SIZE]);

/*
 * The action of a reply: its first non-blank line in the reply's own
 * (cleaned) text that is not a token line, nor quoted with a tab (as
 * s-nail quotes), nor ends with ':' (a quote's attribution line), trimmed;
 * a line that
 * does not start with an action's word (move, resign, accept-draw,
 * decline-draw, claim-draw) is a move: "move " is put before it. 0, or -1
 * when there is no such line or it does not fit (action "").
 */
int mail_reply_action(const char *text, size_t len,
    char action[MAIL_REPLY_ACTION_SIZE]);

/*
 * The message of a reply: the lines of its own text below the action's,
 * up to the first line quoted with a tab, a token line or a quote's
 * attribution (ending with ':'), joined by one space, blank lines
 * skipped, controls made spaces ("" when there is none). 0, or -1 when
 * it is longer than the buffer (what fits is kept).
 */
int mail_reply_message(const char *text, size_t len,
    char message[MAIL_REPLY_MESSAGE_SIZE]);

#endif /* CORRCHESS_MAIL_REPLY_H */
