/*
 * mail/imap_parse.h: IMAP answers read from bytes: framing, FETCH items.
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
 * The bytes an IMAP server sends, read without trusting them (RFC 3501
 * section 9): no I/O, no allocation. A response is one line, or several
 * when a line ends with a literal's announcement {n} (or {n+}, ~{n}): the
 * n bytes that follow belong to it, whatever they hold, and the response
 * goes on after them to the next CRLF. imap_parse_frame() says where the
 * first whole response in a buffer ends; imap_parse_fetch() reads one
 * untagged FETCH response ("* 7 FETCH (UID 12 RFC822.SIZE 345
 * BODY[]<0> {345}\r\n...)") into what the poller needs. Every length is
 * checked against the bytes given; nothing is read past them.
 */

#ifndef CORRCHESS_IMAP_PARSE_H
#define CORRCHESS_IMAP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line (without its literals) a response may have. */
#define IMAP_PARSE_MAX_LINE	(64u * 1024)

/* What imap_parse_frame() found. */
enum imap_parse_status {
	IMAP_PARSE_OK = 0,	/* a whole response */
	IMAP_PARSE_MORE,	/* not all there yet: read more */
	IMAP_PARSE_EBAD,	/* not an answer to read: a line longer than
				 * IMAP_PARSE_MAX_LINE, a literal larger
				 * than allowed or a bad announcement */
};

/*
 * Find the end of the first response in buf (len bytes): its lines, the
 * literals they announce (each at most max_literal bytes) and its last
 * line end. IMAP_PARSE_OK with *resp_len set, IMAP_PARSE_MORE when buf
 * holds less than one response, or IMAP_PARSE_EBAD.
 */
enum imap_parse_status imap_parse_frame(const char *buf, size_t len,
	    size_t max_literal, size_t *resp_len);

/* One untagged FETCH response, as read by imap_parse_fetch(). */
struct imap_fetch {
	uint32_t	 seq;		/* message sequence number */
	uint32_t	 uid;		/* 0: no UID item */
	bool		 has_size;
	uint64_t	 size;		/* RFC822.SIZE */
	bool		 has_body;	/* a BODY[] item (whole message) */
	const char	*body;		/* its bytes, borrowed from the
					 * response (NULL for NIL) */
	size_t		 body_len;
	uint32_t	 body_origin;	/* <n> of a partial fetch, else 0 */
};

/*
 * Read resp (resp_len bytes, one whole response as framed by
 * imap_parse_frame()) as an untagged FETCH response into f. Returns 0,
 * 1 when resp is some other response (tagged, a continuation, another
 * untagged one), or -1 when it is a FETCH response that does not parse.
 * f->body points into resp.
 */
int	imap_parse_fetch(const char *resp, size_t resp_len,
	    struct imap_fetch *f);

/*
 * Read resp (one response) as a tagged status answer "TAG OK|NO|BAD ...".
 * Returns 1 when its tag is tag (*ok tells OK), 0 when it is not tagged
 * with tag.
 */
int	imap_parse_tagged(const char *resp, size_t resp_len, const char *tag,
	    bool *ok);

/*
 * Read an untagged OK line's response code with a number, "* OK [name n]"
 * (UIDVALIDITY, UIDNEXT), into *v. Returns 0, or -1 when resp is not one.
 */
int	imap_parse_code(const char *resp, size_t resp_len, const char *name,
	    uint32_t *v);

#endif /* CORRCHESS_IMAP_PARSE_H */
