/*
 * util/buf.c: a growing text buffer.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* Make room for `n` more bytes and the NUL. */
static bool
buf_grow(struct buf *b, size_t n)
{
	size_t	 ncap;
	char	*p;

	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	ncap = b->cap != 0 ? b->cap : 256;
	while (ncap < b->len + n + 1) {
		if (ncap > ((size_t)-1) / 2) {
			b->failed = true;
			return false;
		}
		ncap *= 2;
	}
	if ((p = realloc(b->data, ncap)) == NULL) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = ncap;
	return true;
}

/* Make room for `n` more bytes at once (buf.h). */
bool
buf_reserve(struct buf *b, size_t n)
{
	return buf_grow(b, n);
}

/* Append `n` bytes. */
void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (!buf_grow(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Append a string. */
void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Append formatted text. */
void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !buf_grow(b, (size_t)n)) {
		b->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Hand the text over to the caller. */
char *
buf_take(struct buf *b, size_t *lenp)
{
	char	*p;

	if (b->failed || !buf_grow(b, 0)) {
		buf_free(b);
		return NULL;
	}
	p = b->data;
	if (lenp != NULL)
		*lenp = b->len;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

/* Release the buffer. */
void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}
