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

/* Write a board diagram with English letters. */
size_t
render_board(const struct chess_position *pos, bool unicode, bool flip,
    char *buf, size_t size)
{
	return render_board_lang(pos, unicode, flip, CHESS_LANG_EN, buf, size);
}

/* Write a board diagram with `lang`'s letters. */
size_t
render_board_lang(const struct chess_position *pos, bool unicode, bool flip,
    enum chess_lang lang, char *buf, size_t size)
{
	static const char	*glyphs[2][6] = {
		{ "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654" },
		{ "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a" },
	};
	/* By language, colour and type: P N B R Q K, and P C F T D R. */
	static const char	 letters[2][2][7] = {
		{ "PNBRQK", "pnbrqk" },
		{ "PCFTDR", "pcftdr" },
	};
	char			 cell[8];
	size_t			 o = 0;
	int			 r, f, rank, file, p, fr;

	fr = lang == CHESS_LANG_FR;

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
				    letters[fr][CHESS_PIECE_COLOR(p)]
				    [CHESS_PIECE_TYPE(p)]);
			put(buf, size, &o, cell);
			put(buf, size, &o, f < 7 ? " " : "\n");
		}
	}
	put(buf, size, &o, flip ? "  h g f e d c b a\n" :
	    "  a b c d e f g h\n");
	return o;
}

/* The key to the ASCII letters of render_board_lang(), in one line. */
const char *
render_board_key(enum chess_lang lang)
{
	if (lang == CHESS_LANG_FR)
		return "R roi, D dame, T tour, F fou, C cavalier, P pion ; "
		    "majuscules : Blancs";
	return "K king, Q queen, R rook, B bishop, N knight, P pawn; "
	    "capitals: White";
}

/* Write a duration for people, with English units. */
size_t
render_duration(int64_t s, char *buf, size_t size)
{
	return render_duration_lang(s, CHESS_LANG_EN, buf, size);
}

/* Write a duration for people in `lang`. */
size_t
render_duration_lang(int64_t s, enum chess_lang lang, char *buf, size_t size)
{
	/* Day, hour, minute, second: "2d 3h" or "2 j 3 h". */
	static const char *const units[2][4] = {
		{ "d", "h", "m", "s" }, { " j", " h", " min", " s" }
	};
	const char *const	*u = units[lang == CHESS_LANG_FR];
	long long		 d, h, m;
	int			 n;

	if (s < 0)
		s = 0;
	d = (long long)(s / 86400);
	h = (long long)(s % 86400 / 3600);
	m = (long long)(s % 3600 / 60);
	if (d > 0 && h > 0)
		n = snprintf(buf, size, "%lld%s %lld%s", d, u[0], h, u[1]);
	else if (d > 0)
		n = snprintf(buf, size, "%lld%s", d, u[0]);
	else if (h > 0)
		n = snprintf(buf, size, "%lld%s %lld%s", h, u[1], m, u[2]);
	else if (m > 0)
		n = snprintf(buf, size, "%lld%s", m, u[2]);
	else
		n = snprintf(buf, size, "%lld%s", (long long)s, u[3]);
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

/* Write a UTC time in words, in `lang`. */
size_t
render_time_lang(int64_t t, enum chess_lang lang, char *buf, size_t size)
{
	static const char *const day_en[7] = { "Sunday", "Monday", "Tuesday",
	    "Wednesday", "Thursday", "Friday", "Saturday" };
	static const char *const day_fr[7] = { "dimanche", "lundi", "mardi",
	    "mercredi", "jeudi", "vendredi", "samedi" };
	static const char *const mon_en[12] = { "January", "February",
	    "March", "April", "May", "June", "July", "August", "September",
	    "October", "November", "December" };
	static const char *const mon_fr[12] = { "janvier", "février", "mars",
	    "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
	    "novembre", "décembre" };
	struct tm	tm;
	time_t		tt = (time_t)t;
	bool		fr = lang == CHESS_LANG_FR;
	int		n;

	if (gmtime_r(&tt, &tm) == NULL)
		return (size_t)snprintf(buf, size, "?");
	n = snprintf(buf, size, "%s %d %s %d, %02d:%02d UTC",
	    (fr ? day_fr : day_en)[tm.tm_wday], tm.tm_mday,
	    (fr ? mon_fr : mon_en)[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
	    tm.tm_min);
	return n < 0 ? 0 : (size_t)n;
}
