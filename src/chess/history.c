/*
 * chess/history.c: a game's history, repetitions and end states.
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
 * Game history and end states: the moves of a game, the key of every
 * position reached (for repetition), and the FIDE end states in the order
 * chess_game_status() reports them.
 */

#include <stdlib.h>
#include <string.h>

#include "chess/bitboard.h"
#include "chess/chess.h"

#define GAME_CAP_MIN	128

/* Squares of one colour: a1 is dark. */
#define BB_DARK		0xaa55aa55aa55aa55ULL
#define BB_LIGHT	(~BB_DARK)

static const char *const status_names[] = {
	[CHESS_ONGOING] = "ongoing",
	[CHESS_CHECKMATE] = "checkmate",
	[CHESS_STALEMATE] = "stalemate",
	[CHESS_INSUFFICIENT] = "insufficient-material",
	[CHESS_FIVEFOLD] = "fivefold-repetition",
	[CHESS_SEVENTYFIVE] = "seventy-five-moves",
	[CHESS_THREEFOLD] = "threefold-repetition",
	[CHESS_FIFTY] = "fifty-moves",
};

/* Return the name of an end state. */
const char *
chess_status_name(enum chess_status status)
{
	if ((unsigned)status >= sizeof status_names / sizeof status_names[0])
		return "unknown";
	return status_names[status];
}

/*
 * Can `color` still give mate? A lone king never can. Rooks, queens or
 * pawns always might. Otherwise the side has only minor pieces, and:
 *
 * - A king and one knight mate only with the help of enemy pieces that
 *   block the mated king's flight squares and can neither capture the
 *   knight nor interpose (a knight's check cannot be blocked). Enemy
 *   pawns, knights, bishops and rooks can stand so; a queen cannot: on any
 *   flight square next to a king on the edge or in the corner she attacks
 *   every square from which the knight gives check, and in the open the
 *   king has too many flight squares for the material. So K+N cannot mate
 *   a king that has only queens.
 * - Bishops that all stand on squares of one colour (counting the
 *   opponent's bishops too) attack only that colour, so every flight
 *   square of the other colour must be blocked by an enemy piece; a rook
 *   or queen blocking there always reaches the one square of the checking
 *   diagonal next to the king, so only enemy pawns or knights (or a bishop
 *   of the other colour, excluded here) allow a mate.
 * - Anything else (two knights, bishops of both colours, knight and
 *   bishop) can mate, at least with help.
 */
bool
chess_can_mate(const struct chess_position *pos, int color)
{
	chess_bb	us = pos->colors[color];
	chess_bb	them = pos->colors[!color];
	chess_bb	kings = pos->pieces[CHESS_KING];
	chess_bb	bishops = pos->pieces[CHESS_BISHOP];

	if (us & (pos->pieces[CHESS_PAWN] | pos->pieces[CHESS_ROOK] |
	    pos->pieces[CHESS_QUEEN]))
		return true;
	if (us & pos->pieces[CHESS_KNIGHT]) {
		if (bb_count(us) > 2)
			return true;
		return (them & ~kings & ~pos->pieces[CHESS_QUEEN]) != 0;
	}
	if (us & bishops) {
		if ((bishops & BB_DARK) != 0 && (bishops & BB_LIGHT) != 0)
			return true;
		return (pos->pieces[CHESS_PAWN] | pos->pieces[CHESS_KNIGHT]) != 0;
	}
	return false;
}

/* True if neither side can ever give mate. */
bool
chess_insufficient_material(const struct chess_position *pos)
{
	return !chess_can_mate(pos, CHESS_WHITE) &&
	    !chess_can_mate(pos, CHESS_BLACK);
}

/* Start a game from `start`, allocating its arrays. */
int
chess_game_init(struct chess_game *g, const struct chess_position *start)
{
	memset(g, 0, sizeof *g);
	g->moves = malloc(GAME_CAP_MIN * sizeof *g->moves);
	g->keys = malloc((GAME_CAP_MIN + 1) * sizeof *g->keys);
	if (g->moves == NULL || g->keys == NULL) {
		free(g->moves);
		free(g->keys);
		memset(g, 0, sizeof *g);
		return -1;
	}
	g->cap = GAME_CAP_MIN;
	g->start = *start;
	g->pos = *start;
	g->keys[0] = start->key;
	return 0;
}

/* Release a game's arrays. */
void
chess_game_free(struct chess_game *g)
{
	if (g == NULL)
		return;
	free(g->moves);
	free(g->keys);
	memset(g, 0, sizeof *g);
}

/* Double the capacity of a game's arrays. */
static int
game_grow(struct chess_game *g)
{
	size_t		 cap = g->cap ? g->cap * 2 : GAME_CAP_MIN;
	chess_move	*moves;
	uint64_t	*keys;

	if (cap > ((size_t)-1 / sizeof *keys) - 1)
		return -1;
	moves = realloc(g->moves, cap * sizeof *moves);
	if (moves == NULL)
		return -1;
	g->moves = moves;
	keys = realloc(g->keys, (cap + 1) * sizeof *keys);
	if (keys == NULL)
		return -1;
	if (g->cap == 0)
		keys[0] = g->pos.key;
	g->keys = keys;
	g->cap = cap;
	return 0;
}

/* Play legal move `m` and record it. */
int
chess_game_push(struct chess_game *g, chess_move m)
{
	if (g->nply >= g->cap && game_grow(g) == -1)
		return -1;
	chess_position_make(&g->pos, m);
	g->moves[g->nply++] = m;
	g->keys[g->nply] = g->pos.key;
	return 0;
}

/*
 * Count the occurrences of the current position: only positions with the
 * same side to move (every second ply) and only back to the last move that
 * reset the halfmove clock, since no earlier position can come again.
 */
int
chess_game_repetitions(const struct chess_game *g)
{
	size_t		 back, i;
	uint64_t	 key;
	int		 n = 1;

	if (g->keys == NULL)
		return 1;
	key = g->keys[g->nply];
	back = g->pos.halfmove;
	if (back > g->nply)
		back = g->nply;
	for (i = 2; i <= back; i += 2) {
		if (g->keys[g->nply - i] == key)
			n++;
	}
	return n;
}

/* Return the first end state that holds in the current position. */
enum chess_status
chess_game_status(const struct chess_game *g)
{
	const struct chess_position	*pos = &g->pos;
	int				 reps;

	if (chess_legal_count(pos) == 0) {
		if (chess_position_in_check(pos))
			return CHESS_CHECKMATE;
		return CHESS_STALEMATE;
	}
	if (chess_insufficient_material(pos))
		return CHESS_INSUFFICIENT;
	reps = chess_game_repetitions(g);
	if (reps >= 5)
		return CHESS_FIVEFOLD;
	if (pos->halfmove >= 150)
		return CHESS_SEVENTYFIVE;
	if (reps >= 3)
		return CHESS_THREEFOLD;
	if (pos->halfmove >= 100)
		return CHESS_FIFTY;
	return CHESS_ONGOING;
}
