/*
 * util/errbuf.h: error sentences written into a caller's buffer.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Error sentences written into a caller's buffer. */

#ifndef CORRCHESS_ERRBUF_H
#define CORRCHESS_ERRBUF_H

#include <stddef.h>

/* Write a formatted sentence into err (errsize bytes; NULL or 0: none) and
 * return -1. */
int	errbuf_set(char *err, size_t errsize, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 3, 4)));

#endif /* CORRCHESS_ERRBUF_H */
