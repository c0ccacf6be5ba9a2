/*
 * chess/bitboard.h: the rules core's internal bit tricks and tables.
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
 * Internal to the rules core: bit tricks, the attack and key tables built by
 * chess_init(), and a few helpers shared by attacks.c, position.c,
 * movegen.c and fen.c. Not part of the public interface (see chess.h).
 */

#ifndef CORRCHESS_BITBOARD_H
#define CORRCHESS_BITBOARD_H

#include "chess/chess.h"

#define BB(sq)		((chess_bb)1 << (sq))
#define BB_FILE_A	0x0101010101010101ULL
#define BB_FILE_H	0x8080808080808080ULL
#define BB_RANK_1	0x00000000000000ffULL
#define BB_RANK_8	0xff00000000000000ULL

#if defined(__GNUC__)
#define BB_INLINE	static inline __attribute__((always_inline))
#else
#define BB_INLINE	static inline
#endif

/* Number of set bits. */
BB_INLINE int
bb_count(chess_bb b)
{
	return __builtin_popcountll(b);
}

/* Index of the lowest set bit; b must not be 0. */
BB_INLINE int
bb_lsb(chess_bb b)
{
	return __builtin_ctzll(b);
}

/* Index of the highest set bit; b must not be 0. */
BB_INLINE int
bb_msb(chess_bb b)
{
	return 63 - __builtin_clzll(b);
}

/* Remove the lowest set bit of *b and return its index. */
BB_INLINE int
bb_pop(chess_bb *b)
{
	int	sq = bb_lsb(*b);

	*b &= *b - 1;
	return sq;
}

/* True if more than one bit is set. */
BB_INLINE int
bb_several(chess_bb b)
{
	return (b & (b - 1)) != 0;
}

/* Shift every square one rank towards the opponent of `color`. */
BB_INLINE chess_bb
bb_forward(chess_bb b, int color)
{
	return color == CHESS_WHITE ? b << 8 : b >> 8;
}

/* A sliding piece's table entry ("fancy" magic bitboards). */
struct bb_magic {
	chess_bb	 mask;		/* relevant occupancy */
	chess_bb	 magic;
	const chess_bb	*attacks;	/* by the magic product */
	unsigned	 shift;
};

/*
 * Tables filled once by chess_init(); read-only afterwards. bb_pawn: the
 * squares a pawn attacks; bb_*_empty: slider moves on an empty board;
 * bb_between: the squares strictly between two squares on a line;
 * bb_line: the whole line through both.
 */
extern chess_bb		bb_knight[64];
extern chess_bb		bb_king[64];
extern chess_bb		bb_pawn[2][64];
extern chess_bb		bb_rook_empty[64];
extern chess_bb		bb_bishop_empty[64];
extern chess_bb		bb_between[64][64];
extern chess_bb		bb_line[64][64];
extern struct bb_magic	bb_rook_magic[64];
extern struct bb_magic	bb_bishop_magic[64];

/* Zobrist keys: by piece code (colour << 3 | type), square. */
extern uint64_t		zobrist_piece[16][64];
extern uint64_t		zobrist_castling[64];	/* by rook square */
extern uint64_t		zobrist_ep[64];
extern uint64_t		zobrist_side;		/* black to move */

/* Rook attacks from sq with the given occupancy. */
BB_INLINE chess_bb
bb_rook_attacks(int sq, chess_bb occupied)
{
	const struct bb_magic	*m = &bb_rook_magic[sq];

	return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}

/* Bishop attacks from sq with the given occupancy. */
BB_INLINE chess_bb
bb_bishop_attacks(int sq, chess_bb occupied)
{
	const struct bb_magic	*m = &bb_bishop_magic[sq];

	return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}

/* Pieces of colour `by` attacking sq, sliders stopped by `occupied`. */
BB_INLINE chess_bb
bb_attackers(const struct chess_position *pos, int by, int sq,
    chess_bb occupied)
{
	chess_bb	them = pos->colors[by];
	chess_bb	rq = pos->pieces[CHESS_ROOK] | pos->pieces[CHESS_QUEEN];
	chess_bb	bq = pos->pieces[CHESS_BISHOP] |
			    pos->pieces[CHESS_QUEEN];

	return them & ((bb_pawn[by ^ 1][sq] & pos->pieces[CHESS_PAWN]) |
	    (bb_knight[sq] & pos->pieces[CHESS_KNIGHT]) |
	    (bb_king[sq] & pos->pieces[CHESS_KING]) |
	    (bb_rook_attacks(sq, occupied) & rq) |
	    (bb_bishop_attacks(sq, occupied) & bq));
}

/* Build the Zobrist tables (zobrist.c); called by chess_init(). */
void	chess_zobrist_init(void);

/* True if the side to move can capture en passant on `ep` legally. */
bool	chess_position_ep_legal(const struct chess_position *, int ep);

#endif /* CORRCHESS_BITBOARD_H */
