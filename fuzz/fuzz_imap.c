/*
 * fuzz/fuzz_imap.c: fuzz target: IMAP answers (framing, FETCH responses).
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
 * libFuzzer target: any bytes as what an IMAP server sends the poller
 * (src/mail/imap_parse.c). The bytes are framed into responses as the
 * poller does and each is read as a FETCH, a tagged answer and a response
 * code. Nothing may be read past the bytes; a framed response lies within
 * them, and a message's body within its response.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/imap_parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Frame and read every response of data. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct imap_fetch	 f;
	char			*buf;
	size_t			 off = 0, rl;
	uint32_t		 v;
	bool			 ok;

	/* A copy of exactly size bytes: a read past them is caught. */
	if ((buf = malloc(size > 0 ? size : 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	while (off < size) {
		rl = 0;
		if (imap_parse_frame(buf + off, size - off, 4096, &rl) !=
		    IMAP_PARSE_OK) {
			/* What is left may be a response's start: read it
			 * as one anyway, it must be refused cleanly. */
			(void)imap_parse_fetch(buf + off, size - off, &f);
			break;
		}
		if (rl == 0 || rl > size - off)
			abort();
		if (imap_parse_fetch(buf + off, rl, &f) == 0 && f.body !=
		    NULL && (f.body < buf + off || f.body_len > rl ||
		    f.body + f.body_len > buf + off + rl))
			abort();
		(void)imap_parse_tagged(buf + off, rl, "p1", &ok);
		(void)imap_parse_code(buf + off, rl, "UIDVALIDITY", &v);
		off += rl;
	}
	free(buf);
	return 0;
}
