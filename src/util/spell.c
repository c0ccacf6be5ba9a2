/*
 * util/spell.c: the known name closest to a mistyped one.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Suggestions for unknown names; see spell.h. */

#include "config.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "util/errbuf.h"
#include "util/spell.h"

/* Longest name compared; longer words get no suggestion. */
#define SPELL_MAX	64

/* Lower-case a byte. */
static int
lc(const char *s, size_t i)
{
	return tolower((unsigned char)s[i]);
}

/* The optimal-string-alignment distance between a and b (both shorter
 * than SPELL_MAX). */
static size_t
spell_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t	d[SPELL_MAX + 1][SPELL_MAX + 1];
	size_t	i, j, cost, v;

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			cost = lc(a, i - 1) != lc(b, j - 1);
			v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && lc(a, i - 1) == lc(b, j - 2) &&
			    lc(a, i - 2) == lc(b, j - 1) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* Find the closest known name. */
const char *
spell_closest(const char *word, const char *const *names, size_t n)
{
	const char	*best = NULL;
	size_t		 lw = strlen(word), ln, d, bestd = (size_t)-1, i, max;

	if (lw == 0 || lw >= SPELL_MAX)
		return NULL;
	/* Up to a third of the word may be wrong, at least one edit. */
	max = lw / 3 > 1 ? lw / 3 : 1;
	for (i = 0; i < n; i++) {
		ln = strlen(names[i]);
		if (ln >= SPELL_MAX)
			continue;
		if ((lw >= 3 && ln >= 3) && (strncasecmp(word, names[i],
		    ln) == 0 || strncasecmp(word, names[i], lw) == 0))
			d = 1;
		else
			d = spell_distance(word, lw, names[i], ln);
		if (d <= max && d < bestd) {
			best = names[i];
			bestd = d;
		}
	}
	return best;
}

/* Say that a name is unknown, with a suggestion. */
int
spell_unknown(char *buf, size_t size, const char *what, const char *word,
    const char *const *names, size_t n)
{
	const char	*s = spell_closest(word, names, n);

	if (s != NULL)
		return errbuf_set(buf, size, "unknown %s %s; did you mean %s?",
		    what, word, s);
	return errbuf_set(buf, size, "unknown %s %s", what, word);
}
