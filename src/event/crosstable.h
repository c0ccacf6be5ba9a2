/*
 * event/crosstable.h: an event's crosstable as aligned text.
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
 * The grid of an ICCF crosstable: one row per player in start-number
 * order, one column per opponent, each cell the results of their games
 * from the row player's side (1, ½, 0, * for a game being played, + and -
 * for forfeits, x on the diagonal), then points, games played, each
 * tie-break of the rules and the place. Columns are aligned by display
 * width, so "½" (two bytes) lines up in a terminal. Pure: the caller gives
 * what standings_compute() and standings_crosstable() made.
 */

#ifndef CORRCHESS_EVENT_CROSSTABLE_H
#define CORRCHESS_EVENT_CROSSTABLE_H

#include <stdbool.h>

#include "chess/chess.h"
#include "event/standings.h"
#include "util/buf.h"

/* One player of the table, in start-number order. */
struct crosstable_player {
	const char	*name;
	bool		 withdrawn;
};

/* What to draw. rows: nplayers rows of standings_compute(), best first;
 * grid: standings_crosstable()'s, nplayers x nplayers x depth marks
 * (unused when depth is 0). */
struct crosstable {
	const struct crosstable_player	*players;
	unsigned			 nplayers;
	const struct standings_rules	*rules;
	const struct standings_row	*rows;
	const enum standings_mark	*grid;
	unsigned			 depth;
	bool				 ascii;		/* "=" for ½ */
	enum chess_lang			 lang;		/* of the column
							   heads: English
							   (0) or French */
};

/* Give the short name of a tie-break ("DE", "Wins", "SB", "Koya"). */
const char	*crosstable_tiebreak_label(enum standings_tiebreak);

/*
 * Write a value in units of 1/scale as a decimal: "3", "3.5", "12.25".
 * `buf` of 24 bytes is enough.
 */
void		 crosstable_value(unsigned long v, unsigned scale, char *buf,
		    size_t size);

/* Write points (in half points) as "3½", "½", "3" ("3.5" with ascii). */
void		 crosstable_points(unsigned points2, bool ascii, char *buf,
		    size_t size);

/* Append the crosstable to `out` (its lines end with "\n"). */
void		 crosstable_text(const struct crosstable *, struct buf *out);

#endif /* CORRCHESS_EVENT_CROSSTABLE_H */
