/*
 * event/standings.h: standings, tie-breaks and crosstables of an event.
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
 * Everything is derived from the list of an event's games each time it is
 * asked; nothing is kept. Players are indexes 0..nplayers-1 into the
 * caller's own list. The caller gives every array; nothing is allocated
 * (a few kilobytes of stack at most).
 *
 * How results count:
 *  - 1-0, 0-1, 1/2-1/2 count everywhere.
 *  - An unfinished game ("*") counts nowhere (its player's `unfinished`
 *    says how many); a crosstable shows it as "*".
 *  - An annulled game is as if it had never been scheduled: counted
 *    nowhere, not shown in the crosstable.
 *  - A forfeit by withdrawal gives the opponent the point, and counts as
 *    that win and that loss everywhere (points, number of wins, tie-breaks,
 *    direct encounter), but it is not a game played: `played` counts the
 *    games finished over the board, and the crosstable shows "+" and "-".
 * Points are kept in half points, so no sum ever rounds.
 */

#ifndef CORRCHESS_EVENT_STANDINGS_H
#define CORRCHESS_EVENT_STANDINGS_H

#include <stdbool.h>
#include <stddef.h>

#define STANDINGS_MAX_PLAYERS	1000
#define STANDINGS_MAX_TIEBREAKS	4

/* The result of one game. The values are stable (they may be stored). */
enum standings_result {
	STANDINGS_UNFINISHED = 0,	/* "*": still being played */
	STANDINGS_WHITE_WINS = 1,	/* 1-0 */
	STANDINGS_BLACK_WINS = 2,	/* 0-1 */
	STANDINGS_DRAW = 3,		/* 1/2-1/2 */
	STANDINGS_ANNULLED = 4,		/* struck out of the event */
	STANDINGS_WHITE_WITHDREW = 5,	/* forfeit: black gets the point */
	STANDINGS_BLACK_WITHDREW = 6,	/* forfeit: white gets the point */
};

/* One game of the event: player indexes and the result. */
struct standings_game {
	unsigned		white;
	unsigned		black;
	enum standings_result	result;
};

/*
 * Tie-breaks, applied in the caller's order to players level on points and
 * on every earlier tie-break. Their values, in standings_row.tb, are in
 * units of 1/standings_tiebreak_scale(): divide to show them.
 *
 * STANDINGS_TB_DIRECT (half points): points scored against the others of
 *	the group the player is tied with, when every two of them have met
 *	(each pair has a finished game, none left unfinished between them);
 *	otherwise, or for a player tied with nobody, 0 for the whole group,
 *	which it then does not separate.
 * STANDINGS_TB_WINS (wins): number of wins, forfeit wins included
 *	(Baumbach).
 * STANDINGS_TB_SB (quarter points): Sonneborn-Berger, the final points of
 *	each beaten opponent plus half those of each opponent drawn with.
 * STANDINGS_TB_KOYA (half points): points scored against the players who
 *	finished with at least half the maximum score (Koya).
 */
enum standings_tiebreak {
	STANDINGS_TB_DIRECT = 1,
	STANDINGS_TB_WINS = 2,
	STANDINGS_TB_SB = 3,
	STANDINGS_TB_KOYA = 4,
};

/*
 * The rules of a standings table: up to STANDINGS_MAX_TIEBREAKS different
 * tie-breaks, in order (ntiebreaks 0: points only). max_games is the
 * number of games each player plays in the whole event (a round robin of
 * n: n-1, doubled: 2(n-1)), whose half is Koya's line; 0 takes the most
 * games (unfinished ones included, annulled ones not) any player has in
 * the list, which is the same once every game of the event is listed.
 */
struct standings_rules {
	enum standings_tiebreak	tiebreaks[STANDINGS_MAX_TIEBREAKS];
	size_t			ntiebreaks;
	unsigned		max_games;
};

/* One line of the standings. */
struct standings_row {
	unsigned	player;		/* index into the caller's players */
	unsigned	place;		/* 1-based */
	unsigned	place_last;	/* place of the last one sharing it */
	unsigned	points2;	/* points, in half points */
	unsigned	played;		/* finished over the board */
	unsigned	wins;		/* over the board */
	unsigned	draws;
	unsigned	losses;
	unsigned	forfeit_wins;	/* the opponent withdrew */
	unsigned	forfeit_losses;	/* the player withdrew */
	unsigned	unfinished;	/* games still being played */
	unsigned long	tb[STANDINGS_MAX_TIEBREAKS];	/* rules' order */
};

/* One result in a crosstable, from the row player's side. */
enum standings_mark {
	STANDINGS_MARK_NONE = 0,	/* no game in this slot */
	STANDINGS_MARK_WIN,		/* "1" */
	STANDINGS_MARK_DRAW,		/* "½" */
	STANDINGS_MARK_LOSS,		/* "0" */
	STANDINGS_MARK_UNFINISHED,	/* "*" */
	STANDINGS_MARK_FORFEIT_WIN,	/* "+" */
	STANDINGS_MARK_FORFEIT_LOSS,	/* "-" */
};

/* Errors of this module; standings_strerror() describes each. */
enum standings_error {
	STANDINGS_OK = 0,
	STANDINGS_EPLAYERS,	/* number of players out of bounds */
	STANDINGS_EPLAYER,	/* a game names a player out of bounds */
	STANDINGS_ESELF,	/* a game of a player against himself */
	STANDINGS_ERESULT,	/* unknown result */
	STANDINGS_ETIEBREAK,	/* unknown, repeated or too many tie-breaks */
	STANDINGS_EDEPTH,	/* more games between two players than room */
	STANDINGS_ESPACE,	/* the caller's array is too small */
};

/* Describe an error for a person (a constant string). */
const char	*standings_strerror(enum standings_error);

/* Give the units per point of a tie-break: 2, 1, 4 or 2; 0 if unknown. */
unsigned	 standings_tiebreak_scale(enum standings_tiebreak);

/*
 * Compute the standings of nplayers players from ngames games into
 * rows[0..nplayers-1], best first: points, then the tie-breaks of the
 * rules (NULL: points only). Players level on points and every tie-break
 * share a place (place < place_last) and stay in index order. On an error
 * in a game, *errgame (when not NULL) is that game's index.
 */
enum standings_error standings_compute(unsigned nplayers,
		    const struct standings_game *games, size_t ngames,
		    const struct standings_rules *rules,
		    struct standings_row *rows, size_t *errgame);

/*
 * Find the crosstable's depth: the most games (annulled ones left out) between
 * two players, into *depth (0 with no games). Checks the games as
 * standings_compute() does.
 */
enum standings_error standings_crosstable_depth(unsigned nplayers,
		    const struct standings_game *games, size_t ngames,
		    unsigned *depth, size_t *errgame);

/*
 * Fill a crosstable of nplayers x nplayers cells of `depth` slots each:
 * the slot k of the cell (row, col) is
 *	grid[((size_t)row * nplayers + col) * depth + k]
 * and holds the k-th game (in list order) between row and col, from row's
 * side; unused slots and the diagonal are STANDINGS_MARK_NONE. `cap` is
 * the number of entries of grid: at least nplayers * nplayers * depth,
 * else STANDINGS_ESPACE. A pair with more games than depth is
 * STANDINGS_EDEPTH, *errgame the first game without room.
 */
enum standings_error standings_crosstable(unsigned nplayers,
		    const struct standings_game *games, size_t ngames,
		    unsigned depth, enum standings_mark *grid, size_t cap,
		    size_t *errgame);

/*
 * Give the text of a mark: "1", "½" (UTF-8), "0", "*", "+", "-", or ""
 * for none; with `ascii`, a draw is "=".
 */
const char	*standings_mark_text(enum standings_mark, bool ascii);

#endif /* CORRCHESS_EVENT_STANDINGS_H */
