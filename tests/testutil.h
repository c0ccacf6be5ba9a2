/*
 * tests/testutil.h: helpers shared by the cmocka test programs.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Helpers shared by the unit tests: finding test data, reading files,
 * splitting lines and fields, temporary directories. */

#ifndef CORRCHESS_TESTUTIL_H
#define CORRCHESS_TESTUTIL_H

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#ifndef TEST_SRCDIR
#define TEST_SRCDIR "tests"
#endif

/* Path of a file under tests/data, in a caller buffer. */
static inline const char *
test_data_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/data/%s", TEST_SRCDIR, name);
	return buf;
}

/* Read a whole file under tests/data into a NUL-terminated malloc'd buffer;
 * fails the test when it cannot. */
static inline char *
test_read_data(const char *name, size_t *lenp)
{
	char path[1024];
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	f = fopen(test_data_path(path, sizeof path, name), "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* Read a file under data/pgn; with `br`, "<br />" becomes a newline (as in
 * chess.js's tests of its 0.pgn). */
static inline char *
test_read_pgn(const char *file, size_t *lenp, int br)
{
	char	path[256], *buf, *src, *dst;
	size_t	len;

	snprintf(path, sizeof path, "pgn/%s", file);
	buf = test_read_data(path, &len);
	if (br) {
		for (src = dst = buf; *src != '\0';) {
			if (strncmp(src, "<br />", 6) == 0) {
				*dst++ = '\n';
				src += 6;
			} else
				*dst++ = *src++;
		}
		*dst = '\0';
		len = dst - buf;
	}
	*lenp = len;
	return buf;
}

/* Next line of a text buffer (modified in place), without its CR LF or LF;
 * NULL at the end. */
static inline char *
test_next_line(char **cursor)
{
	char	*line = *cursor, *end;
	size_t	 len;

	if (line == NULL || *line == '\0')
		return NULL;
	end = strchr(line, '\n');
	if (end != NULL) {
		*end = '\0';
		*cursor = end + 1;
	} else
		*cursor = line + strlen(line);
	len = strlen(line);
	if (len > 0 && line[len - 1] == '\r')
		line[len - 1] = '\0';
	return line;
}

/* Split a line at tabs (in place) into at most `max` fields; returns their
 * count. */
static inline int
test_split_tabs(char *line, char **fields, int max)
{
	int	n = 0;

	while (n < max) {
		fields[n++] = line;
		if ((line = strchr(line, '\t')) == NULL)
			break;
		*line++ = '\0';
	}
	return n;
}

/* Make a new directory $TMPDIR/NAME.XXXXXX (/tmp/NAME.XXXXXX without
 * TMPDIR) in a caller buffer; fails the test when it cannot. */
static inline void
test_mkdtemp(char *buf, size_t size, const char *name)
{
	const char	*base = getenv("TMPDIR");

	snprintf(buf, size, "%s/%s.XXXXXX",
	    base != NULL && *base != '\0' ? base : "/tmp", name);
	assert_non_null(mkdtemp(buf));
}

/* Remove a directory and the files in it (not subdirectories). */
static inline void
test_rmdir(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[1024];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

#endif /* CORRCHESS_TESTUTIL_H */
