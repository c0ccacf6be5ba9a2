/*
 * util/errbuf.c: error sentences written into a caller's buffer.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Error sentences written into a caller's buffer; see errbuf.h. */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/errbuf.h"

/* Write a formatted sentence into the caller's buffer; return -1. */
int
errbuf_set(char *err, size_t errsize, const char *fmt, ...)
{
	va_list	ap;

	if (err != NULL && errsize > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errsize, fmt, ap);
		va_end(ap);
	}
	return -1;
}
