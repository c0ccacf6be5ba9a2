/*
 * chess/zobrist.c: the Zobrist keys of positions.
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
 * Zobrist keys: one random 64-bit number per (piece, square), castling
 * rook square, en-passant square and side to move, from a fixed seed so
 * that keys are the same in every run. Filled once by chess_init().
 */

#include "chess/bitboard.h"

uint64_t	zobrist_piece[16][64];
uint64_t	zobrist_castling[64];
uint64_t	zobrist_ep[64];
uint64_t	zobrist_side;

/* Return the next number of a splitmix64 generator. */
static uint64_t
splitmix(uint64_t *s)
{
	uint64_t	z;

	z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fill the Zobrist tables from a fixed seed (the same keys every run). */
void
chess_zobrist_init(void)
{
	uint64_t	s = 0x636f727263686573ULL;	/* "corrches" */
	int		p, sq;

	for (p = 0; p < 16; p++)
		for (sq = 0; sq < 64; sq++)
			zobrist_piece[p][sq] = splitmix(&s);
	for (sq = 0; sq < 64; sq++)
		zobrist_castling[sq] = splitmix(&s);
	for (sq = 0; sq < 64; sq++)
		zobrist_ep[sq] = splitmix(&s);
	zobrist_side = splitmix(&s);
}

