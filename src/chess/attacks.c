/*
 * chess/attacks.c: attack tables (magic bitboards) and chess_init().
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
 * Attack tables: leapers by lookup, sliders by "fancy" magic bitboards. The
 * magic numbers are fixed (see below); chess_init() fills the tables once,
 * under pthread_once().
 */

#include <pthread.h>
#include <string.h>

#include "chess/bitboard.h"

chess_bb		bb_knight[64];
chess_bb		bb_king[64];
chess_bb		bb_pawn[2][64];
chess_bb		bb_rook_empty[64];
chess_bb		bb_bishop_empty[64];
chess_bb		bb_between[64][64];
chess_bb		bb_line[64][64];
struct bb_magic		bb_rook_magic[64];
struct bb_magic		bb_bishop_magic[64];

/* Shared attack tables: the sums of 2^bits over all squares. */
static chess_bb		rook_table[0x19000];
static chess_bb		bishop_table[0x1480];

static pthread_once_t	init_once = PTHREAD_ONCE_INIT;

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 },
    { -1, -1 } };

/* Walk the four rays of a slider from sq, stopping at occupied squares. */
static chess_bb
slide(const int dirs[4][2], int sq, chess_bb occupied)
{
	chess_bb	b = 0;
	int		d, f, r;

	for (d = 0; d < 4; d++) {
		f = CHESS_FILE(sq) + dirs[d][0];
		r = CHESS_RANK(sq) + dirs[d][1];
		while (f >= 0 && f < 8 && r >= 0 && r < 8) {
			b |= BB(CHESS_SQ(f, r));
			if (occupied & BB(CHESS_SQ(f, r)))
				break;
			f += dirs[d][0];
			r += dirs[d][1];
		}
	}
	return b;
}

/*
 * Magic multipliers, found once by the classic seeded search (sparse
 * xorshift64* numbers, seeds 728, 10316, 55013, 32803, 12281, 15100, 16645,
 * 255 by rank, as Stockfish does) and kept here so that start-up only fills
 * the tables; perft over the test suites checks every one of them.
 */
static const uint64_t rook_magics[64] = {
	0x0a80004000801220ULL, 0x8040004010002008ULL, 0x2080200010008008ULL,
	0x1100100008210004ULL, 0xc200209084020008ULL, 0x2100010004000208ULL,
	0x0400081000822421ULL, 0x0200010422048844ULL, 0x0800800080400024ULL,
	0x0001402000401000ULL, 0x3000801000802001ULL, 0x4400800800100083ULL,
	0x0904802402480080ULL, 0x4040800400020080ULL, 0x0018808042000100ULL,
	0x4040800080004100ULL, 0x0040048001458024ULL, 0x00a0004000205000ULL,
	0x3100808010002000ULL, 0x4825010010000820ULL, 0x5004808008000401ULL,
	0x2024818004000a00ULL, 0x0005808002000100ULL, 0x2100060004806104ULL,
	0x0080400880008421ULL, 0x4062220600410280ULL, 0x010a004a00108022ULL,
	0x0000100080080080ULL, 0x0021000500080010ULL, 0x0044000202001008ULL,
	0x0000100400080102ULL, 0xc020128200040545ULL, 0x0080002000400040ULL,
	0x0000804000802004ULL, 0x0000120022004080ULL, 0x010a386103001001ULL,
	0x9010080080800400ULL, 0x8440020080800400ULL, 0x0004228824001001ULL,
	0x000000490a000084ULL, 0x0080002000504000ULL, 0x200020005000c000ULL,
	0x0012088020420010ULL, 0x0010010080080800ULL, 0x0085001008010004ULL,
	0x0002000204008080ULL, 0x0040413002040008ULL, 0x0000304081020004ULL,
	0x0080204000800080ULL, 0x3008804000290100ULL, 0x1010100080200080ULL,
	0x2008100208028080ULL, 0x5000850800910100ULL, 0x8402019004680200ULL,
	0x0120911028020400ULL, 0x0000008044010200ULL, 0x0020850200244012ULL,
	0x0020850200244012ULL, 0x0000102001040841ULL, 0x140900040a100021ULL,
	0x000200282410a102ULL, 0x000200282410a102ULL, 0x000200282410a102ULL,
	0x4048240043802106ULL,
};

static const uint64_t bishop_magics[64] = {
	0x40106000a1160020ULL, 0x0020010250810120ULL, 0x2010010220280081ULL,
	0x002806004050c040ULL, 0x0002021018000000ULL, 0x2001112010000400ULL,
	0x0881010120218080ULL, 0x1030820110010500ULL, 0x0000120222042400ULL,
	0x2000020404040044ULL, 0x8000480094208000ULL, 0x0003422a02000001ULL,
	0x000a220210100040ULL, 0x8004820202226000ULL, 0x0018234854100800ULL,
	0x0100004042101040ULL, 0x0004001004082820ULL, 0x0010000810010048ULL,
	0x1014004208081300ULL, 0x2080818802044202ULL, 0x0040880c00a00100ULL,
	0x0080400200522010ULL, 0x0001000188180b04ULL, 0x0080249202020204ULL,
	0x1004400004100410ULL, 0x00013100a0022206ULL, 0x2148500001040080ULL,
	0x4241080011004300ULL, 0x4020848004002000ULL, 0x10101380d1004100ULL,
	0x0008004422020284ULL, 0x01010a1041008080ULL, 0x0808080400082121ULL,
	0x0808080400082121ULL, 0x0091128200100c00ULL, 0x0202200802010104ULL,
	0x8c0a020200440085ULL, 0x01a0008080b10040ULL, 0x0889520080122800ULL,
	0x100902022202010aULL, 0x04081a0816002000ULL, 0x0000681208005000ULL,
	0x8170840041008802ULL, 0x0a00004200810805ULL, 0x0830404408210100ULL,
	0x2602208106006102ULL, 0x1048300680802628ULL, 0x2602208106006102ULL,
	0x0602010120110040ULL, 0x0941010801043000ULL, 0x000040440a210428ULL,
	0x0008240020880021ULL, 0x0400002012048200ULL, 0x00ac102001210220ULL,
	0x0220021002009900ULL, 0x84440c080a013080ULL, 0x0001008044200440ULL,
	0x0004c04410841000ULL, 0x2000500104011130ULL, 0x1a0c010011c20229ULL,
	0x0044800112202200ULL, 0x0434804908100424ULL, 0x0300404822c08200ULL,
	0x48081010008a2a80ULL,
};

/* Fill one slider type's magic entries and its shared table. */
static void
init_magics(struct bb_magic *magics, const uint64_t *numbers,
    chess_bb *table, const int dirs[4][2])
{
	chess_bb	 edges, b;
	chess_bb	*attacks = table;
	int		 sq;
	struct bb_magic	*m;

	for (sq = 0; sq < 64; sq++) {
		m = &magics[sq];
		edges = ((BB_RANK_1 | BB_RANK_8) & ~(BB_RANK_1 <<
		    (8 * CHESS_RANK(sq)))) | ((BB_FILE_A | BB_FILE_H) &
		    ~(BB_FILE_A << CHESS_FILE(sq)));
		m->mask = slide(dirs, sq, 0) & ~edges;
		m->shift = 64 - (unsigned)bb_count(m->mask);
		m->magic = numbers[sq];
		m->attacks = attacks;

		/* Every subset of the mask (Carry-Rippler) and its attacks. */
		b = 0;
		do {
			attacks[((b & m->mask) * m->magic) >> m->shift] =
			    slide(dirs, sq, b);
			b = (b - m->mask) & m->mask;
		} while (b != 0);
		attacks += (size_t)1 << (64 - m->shift);
	}
}

/* Fill the leaper, ray and line tables. */
static void
init_leapers(void)
{
	static const int knight[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 },
	    { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
	static const int king[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 },
	    { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
	int	sq, i, f, r;

	for (sq = 0; sq < 64; sq++) {
		for (i = 0; i < 8; i++) {
			f = CHESS_FILE(sq) + knight[i][0];
			r = CHESS_RANK(sq) + knight[i][1];
			if (f >= 0 && f < 8 && r >= 0 && r < 8)
				bb_knight[sq] |= BB(CHESS_SQ(f, r));
			f = CHESS_FILE(sq) + king[i][0];
			r = CHESS_RANK(sq) + king[i][1];
			if (f >= 0 && f < 8 && r >= 0 && r < 8)
				bb_king[sq] |= BB(CHESS_SQ(f, r));
		}
		f = CHESS_FILE(sq);
		r = CHESS_RANK(sq);
		if (r < 7 && f > 0)
			bb_pawn[CHESS_WHITE][sq] |= BB(sq + 7);
		if (r < 7 && f < 7)
			bb_pawn[CHESS_WHITE][sq] |= BB(sq + 9);
		if (r > 0 && f > 0)
			bb_pawn[CHESS_BLACK][sq] |= BB(sq - 9);
		if (r > 0 && f < 7)
			bb_pawn[CHESS_BLACK][sq] |= BB(sq - 7);
		bb_rook_empty[sq] = slide(rook_dirs, sq, 0);
		bb_bishop_empty[sq] = slide(bishop_dirs, sq, 0);
	}
}

/* Fill the between and line tables (needs the magics). */
static void
init_lines(void)
{
	int	a, b;

	for (a = 0; a < 64; a++) {
		for (b = 0; b < 64; b++) {
			if (a == b)
				continue;
			if (bb_rook_empty[a] & BB(b)) {
				bb_line[a][b] = (bb_rook_empty[a] &
				    bb_rook_empty[b]) | BB(a) | BB(b);
				bb_between[a][b] = bb_rook_attacks(a, BB(b)) &
				    bb_rook_attacks(b, BB(a));
			} else if (bb_bishop_empty[a] & BB(b)) {
				bb_line[a][b] = (bb_bishop_empty[a] &
				    bb_bishop_empty[b]) | BB(a) | BB(b);
				bb_between[a][b] = bb_bishop_attacks(a, BB(b)) &
				    bb_bishop_attacks(b, BB(a));
			}
		}
	}
}

/* Build every table; run once. */
static void
init_tables(void)
{
	init_leapers();
	init_magics(bb_rook_magic, rook_magics, rook_table, rook_dirs);
	init_magics(bb_bishop_magic, bishop_magics, bishop_table,
	    bishop_dirs);
	init_lines();
	chess_zobrist_init();
}

/* Build the attack and key tables, once. */
void
chess_init(void)
{
	pthread_once(&init_once, init_tables);
}

/* Squares attacked by a piece on sq, sliders stopped by `occupied`. */
chess_bb
chess_attacks(int type, int color, int sq, chess_bb occupied)
{
	if (sq < 0 || sq > 63)
		return 0;
	switch (type) {
	case CHESS_PAWN:
		return bb_pawn[color & 1][sq];
	case CHESS_KNIGHT:
		return bb_knight[sq];
	case CHESS_BISHOP:
		return bb_bishop_attacks(sq, occupied);
	case CHESS_ROOK:
		return bb_rook_attacks(sq, occupied);
	case CHESS_QUEEN:
		return bb_bishop_attacks(sq, occupied) |
		    bb_rook_attacks(sq, occupied);
	case CHESS_KING:
		return bb_king[sq];
	}
	return 0;
}

/* Pieces of `color` that attack sq, given `occupied`. */
chess_bb
chess_attackers(const struct chess_position *pos, int color, int sq,
    chess_bb occupied)
{
	if (sq < 0 || sq > 63)
		return 0;
	return bb_attackers(pos, color & 1, sq, occupied);
}
