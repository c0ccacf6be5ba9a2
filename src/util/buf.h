/*
 * util/buf.h: a growing text buffer.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* A growing text buffer for building answers, PGN and mail. */

#ifndef CORRCHESS_BUF_H
#define CORRCHESS_BUF_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Starts zeroed. After a failed allocation `failed` is set, later appends
 * do nothing and `data` stays as it was; the caller checks `failed` once at
 * the end. `data` is NUL-terminated once anything was added. Free `data`.
 */
struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
	bool	 failed;
};

/* Make room for `n` more bytes (and the NUL) at once, so that appends up
 * to that size do not reallocate; false when the allocation failed. */
bool buf_reserve(struct buf *, size_t n);

/* Append `n` bytes. */
void buf_add(struct buf *, const char *s, size_t n);

/* Append a NUL-terminated string. */
void buf_adds(struct buf *, const char *s);

/* Append printf-formatted text. */
void buf_addf(struct buf *, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/* Take the text (caller frees), or NULL if an allocation failed; the buffer
 * is left empty. */
char *buf_take(struct buf *, size_t *lenp);

/* Release the buffer. */
void buf_free(struct buf *);

#endif /* CORRCHESS_BUF_H */
