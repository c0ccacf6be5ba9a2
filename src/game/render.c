/*
 * game/render.c: text for people: board diagrams, durations, dates.
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

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game/render.h"

/* Append to a bounded buffer, keeping the count of what was wanted. */
static void
put(char *buf, size_t size, size_t *o, const char *s)
{
	size_t	n = strlen(s);

	if (*o < size) {
		size_t room = size - *o - 1 < n ? size - *o - 1 : n;

		memcpy(buf + *o, s, room);
		buf[*o + room] = '\0';
	}
	*o += n;
}

/* Write a board diagram. */
size_t
render_board(const struct chess_position *pos, bool unicode, bool flip,
    char *buf, size_t size)
{
	static const char	*glyphs[2][6] = {
		{ "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654" },
		{ "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a" },
	};
	static const char	 letters[2][7] = { "PNBRQK", "pnbrqk" };
	char			 cell[8];
	size_t			 o = 0;
	int			 r, f, rank, file, p;

	if (size > 0)
		buf[0] = '\0';
	for (r = 0; r < 8; r++) {
		rank = flip ? r : 7 - r;
		snprintf(cell, sizeof cell, "%d ", rank + 1);
		put(buf, size, &o, cell);
		for (f = 0; f < 8; f++) {
			file = flip ? 7 - f : f;
			p = pos->board[CHESS_SQ(file, rank)];
			if (p == CHESS_EMPTY)
				snprintf(cell, sizeof cell, "%s",
				    unicode ? "\u00b7" : ".");
			else if (unicode)
				snprintf(cell, sizeof cell, "%s",
				    glyphs[CHESS_PIECE_COLOR(p)][CHESS_PIECE_TYPE(p)]);
			else
				snprintf(cell, sizeof cell, "%c",
				    letters[CHESS_PIECE_COLOR(p)][CHESS_PIECE_TYPE(p)]);
			put(buf, size, &o, cell);
			put(buf, size, &o, f < 7 ? " " : "\n");
		}
	}
	put(buf, size, &o, flip ? "  h g f e d c b a\n" :
	    "  a b c d e f g h\n");
	return o;
}

/* Write a duration for people. */
size_t
render_duration(int64_t s, char *buf, size_t size)
{
	int64_t	d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60;
	int	n;

	if (s < 0)
		s = 0;
	if (d > 0)
		n = h > 0 ? snprintf(buf, size, "%lldd %lldh", (long long)d,
		    (long long)h) : snprintf(buf, size, "%lldd", (long long)d);
	else if (h > 0)
		n = snprintf(buf, size, "%lldh %lldm", (long long)h,
		    (long long)m);
	else if (m > 0)
		n = snprintf(buf, size, "%lldm", (long long)m);
	else
		n = snprintf(buf, size, "%llds", (long long)s);
	return n < 0 ? 0 : (size_t)n;
}

/* Write a UTC time as ISO 8601. */
size_t
render_time(int64_t t, char *buf, size_t size)
{
	struct tm	tm;
	time_t		tt = (time_t)t;

	if (gmtime_r(&tt, &tm) == NULL)
		return (size_t)snprintf(buf, size, "?");
	return strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
