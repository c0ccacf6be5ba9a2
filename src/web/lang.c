/*
 * web/lang.c: the language of a page, from the reader's choice or browser.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "web/lang.h"

/* Read a q value ("q=0.5") at p; 1000 for 1, 0..1000 in thousandths. */
static int
read_q(const char *p, size_t n)
{
	int	q = 0, scale = 1000;
	size_t	i = 2;

	if (n < 3 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '=')
		return 1000;
	if (p[i] == '1')
		return 1000;
	if (p[i] != '0')
		return 0;
	for (i++; i < n && p[i] != '.'; i++)
		;
	for (i++; i < n && p[i] >= '0' && p[i] <= '9' && scale > 1; i++) {
		scale /= 10;
		q += (p[i] - '0') * scale;
	}
	return q;
}

/* Tell whether a language range (n bytes at p) is French. */
static bool
is_french(const char *p, size_t n)
{
	return n >= 2 && strncasecmp(p, "fr", 2) == 0 &&
	    (n == 2 || p[2] == '-');
}

/* Choose a language for a reader. */
enum chess_lang
web_lang(const char *choice, const char *accept)
{
	enum chess_lang	best = CHESS_LANG_EN;
	int		best_q = -1, q;
	size_t		n, r;
	const char	*semi;

	if (choice != NULL && strcmp(choice, "fr") == 0)
		return CHESS_LANG_FR;
	if (choice != NULL && strcmp(choice, "en") == 0)
		return CHESS_LANG_EN;
	if (accept == NULL)
		return CHESS_LANG_EN;
	while (*accept != '\0') {
		accept += strspn(accept, " \t,");
		n = strcspn(accept, ",");
		if (n == 0)
			break;
		r = strcspn(accept, ";, \t");
		if (r > n)
			r = n;
		q = 1000;
		semi = memchr(accept, ';', n);
		if (semi != NULL) {
			semi++;
			semi += strspn(semi, " \t");
			q = read_q(semi, n - (size_t)(semi - accept));
		}
		/* The first range of the highest q wins. */
		if (q > 0 && q > best_q) {
			best_q = q;
			best = is_french(accept, r) ? CHESS_LANG_FR :
			    CHESS_LANG_EN;
		}
		accept += n;
	}
	return best;
}

/* Name a language. */
const char *
web_lang_name(enum chess_lang lang)
{
	return lang == CHESS_LANG_FR ? "fr" : "en";
}
