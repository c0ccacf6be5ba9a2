/*
 * tests/jget.c: the integration scripts' JSON reader (tests/lib.sh's jget).
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
 * usage: jget PATH FILE
 *
 * Print the value at PATH of the JSON document in FILE, so that no script
 * reads JSON with sed or grep (a pattern for "ply" also matches a nested
 * object's "ply"). PATH is keys and list indexes joined by dots from the
 * top: "error.code", "games.0.id", "records.-1.hash" (from the end);
 * "*" stands for every member of a list, each value printed on a line of
 * its own ("games.*.id"); an empty PATH is the whole document.
 *
 * A string is printed as it is, a number, true, false or null as JSON, a
 * list of those on one line with spaces between ("e4 e5 Nf3"), anything
 * else as compact JSON; each value ends with a newline. A FILE that is not
 * one document is read as one document a line (NDJSON), each in turn.
 * Exit status 1, with nothing printed, when FILE is not JSON or PATH is
 * not in it; 2 for a usage error.
 *
 * Written in C on jansson (the daemon's own JSON library) rather than
 * Python: a script reads hundreds of values, and on a loaded machine a
 * Python start costs a hundred times more than this program's.
 */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* Print a string, number, boolean or null. */
static void
print_scalar(const json_t *v)
{
	char	*s;

	if (json_is_string(v)) {
		fwrite(json_string_value(v), 1, json_string_length(v), stdout);
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (s != NULL)
		fputs(s, stdout);
	free(s);
}

/* Print a value as the usage says, and a newline. */
static void
print_value(const json_t *v)
{
	size_t	 i;
	json_t	*x;
	bool	 flat = json_is_array(v);
	char	*s;

	json_array_foreach(v, i, x)
		if (json_is_array(x) || json_is_object(x))
			flat = false;
	if (flat) {
		json_array_foreach(v, i, x) {
			if (i > 0)
				putchar(' ');
			print_scalar(x);
		}
	} else if (json_is_array(v) || json_is_object(v)) {
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		if (s != NULL)
			fputs(s, stdout);
		free(s);
	} else {
		print_scalar(v);
	}
	putchar('\n');
}

/* True if s is a list index: digits, perhaps after a minus. */
static bool
is_index(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Print the values at the path's steps from v; return how many. */
static size_t
walk(const json_t *v, char **steps, size_t nsteps)
{
	const json_t	*w = NULL;
	json_t		*x;
	size_t		 i, n = 0;
	long		 k;

	if (nsteps == 0) {
		print_value(v);
		return 1;
	}
	if (strcmp(steps[0], "*") == 0 && json_is_array(v)) {
		json_array_foreach(v, i, x)
			n += walk(x, steps + 1, nsteps - 1);
		return n;
	}
	if (json_is_object(v)) {
		w = json_object_get(v, steps[0]);
	} else if (json_is_array(v) && is_index(steps[0])) {
		k = strtol(steps[0], NULL, 10);
		if (k < 0)
			k += (long)json_array_size(v);
		if (k >= 0)
			w = json_array_get(v, (size_t)k);
	}
	return w != NULL ? walk(w, steps + 1, nsteps - 1) : 0;
}

/* Read a whole file into a buffer the caller frees; NULL on failure. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	char	*data = NULL, *p;
	size_t	 cap = 0, n = 0, got;

	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	for (;;) {
		if (n + 4096 > cap) {
			cap = cap * 2 + 8192;
			p = realloc(data, cap);
			if (p == NULL) {
				free(data);
				fclose(f);
				return NULL;
			}
			data = p;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return data;
}

/* Print PATH of the document d; return how many values were printed. */
static size_t
lookup(const json_t *d, const char *path)
{
	char	*copy, *p, **steps;
	size_t	 n = 0, nsteps = 0;

	copy = strdup(path);
	steps = calloc(strlen(path) + 1, sizeof *steps);
	if (copy == NULL || steps == NULL)
		goto out;
	for (p = copy; *copy != '\0'; p++) {
		steps[nsteps++] = p;
		p = strchr(p, '.');
		if (p == NULL)
			break;
		*p = '\0';
	}
	n = walk(d, steps, nsteps);
out:
	free(steps);
	free(copy);
	return n;
}

/* Print what the arguments ask for. */
int
main(int argc, char **argv)
{
	json_error_t	 jerr;
	json_t		*d;
	char		*data, *line, *end;
	size_t		 len, found = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: jget PATH FILE\n");
		return 2;
	}
	data = slurp(argv[2], &len);
	if (data == NULL)
		return 1;
	d = json_loadb(data, len, JSON_DECODE_ANY, &jerr);
	if (d != NULL) {
		found = lookup(d, argv[1]);
		json_decref(d);
		goto out;
	}
	/* Not one document: one a line, every line one. */
	for (line = data; line < data + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(data + len - line));
		if (end == NULL)
			end = data + len;
		if (strspn(line, " \t\r") >= (size_t)(end - line))
			continue;
		d = json_loadb(line, (size_t)(end - line), JSON_DECODE_ANY,
		    &jerr);
		if (d == NULL) {
			found = 0;
			break;
		}
		found += lookup(d, argv[1]);
		json_decref(d);
	}
out:
	free(data);
	return found > 0 ? 0 : 1;
}
