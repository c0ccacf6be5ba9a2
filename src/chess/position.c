/*
 * chess/position.c: positions: set-up, making a move, the consistency check.
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
 * Positions: set-up (standard and Chess960), making a move in place with
 * an incrementally updated Zobrist key (keys in zobrist.c), and the
 * consistency check.
 */

#include <string.h>

#include "chess/bitboard.h"

/* Put a piece on an empty square (no key update). */
static inline void
put_piece(struct chess_position *pos, int piece, int sq)
{
	pos->board[sq] = (uint8_t)piece;
	pos->pieces[CHESS_PIECE_TYPE(piece)] |= BB(sq);
	pos->colors[CHESS_PIECE_COLOR(piece)] |= BB(sq);
}

/* Set up a back rank array (files a..h) with pawns, white to move. */
static void
setup_array(struct chess_position *pos, const int back[8], bool chess960)
{
	int	f;

	chess_init();
	memset(pos, 0, sizeof *pos);
	memset(pos->board, CHESS_EMPTY, sizeof pos->board);
	for (f = 0; f < 8; f++) {
		put_piece(pos, CHESS_PIECE(CHESS_WHITE, back[f]),
		    CHESS_SQ(f, 0));
		put_piece(pos, CHESS_PIECE(CHESS_WHITE, CHESS_PAWN),
		    CHESS_SQ(f, 1));
		put_piece(pos, CHESS_PIECE(CHESS_BLACK, CHESS_PAWN),
		    CHESS_SQ(f, 6));
		put_piece(pos, CHESS_PIECE(CHESS_BLACK, back[f]),
		    CHESS_SQ(f, 7));
	}
	pos->castling = pos->pieces[CHESS_ROOK];
	pos->side = CHESS_WHITE;
	pos->ep = CHESS_SQ_NONE;
	pos->halfmove = 0;
	pos->fullmove = 1;
	pos->chess960 = chess960;
	pos->key = chess_position_key(pos);
}

/* Set up the standard starting position. */
void
chess_position_start(struct chess_position *pos)
{
	static const int back[8] = { CHESS_ROOK, CHESS_KNIGHT, CHESS_BISHOP,
	    CHESS_QUEEN, CHESS_KING, CHESS_BISHOP, CHESS_KNIGHT, CHESS_ROOK };

	setup_array(pos, back, false);
}

/* Set up Chess960 start position `number` (Scharnagl numbering). */
enum chess_error
chess_position_960(struct chess_position *pos, int number)
{
	/* Knight placements among the five squares left after B, B, Q. */
	static const int knights[10][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 },
	    { 0, 4 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 },
	    { 3, 4 } };
	static const int rkr[3] = { CHESS_ROOK, CHESS_KING, CHESS_ROOK };
	int	back[8], n, f, i, k, empty;

	if (number < 0 || number > 959)
		return CHESS_E960_NUMBER;
	for (f = 0; f < 8; f++)
		back[f] = -1;
	n = number;
	back[(n % 4) * 2 + 1] = CHESS_BISHOP;	/* light square: b d f h */
	n /= 4;
	back[(n % 4) * 2] = CHESS_BISHOP;	/* dark square: a c e g */
	n /= 4;
	k = n % 6;				/* queen on the k-th empty */
	n /= 6;
	for (f = 0, empty = 0; f < 8; f++) {
		if (back[f] != -1)
			continue;
		if (empty++ == k) {
			back[f] = CHESS_QUEEN;
			break;
		}
	}
	for (f = 0, empty = 0; f < 8; f++) {
		if (back[f] != -1)
			continue;
		if (empty == knights[n][0] || empty == knights[n][1])
			back[f] = CHESS_KNIGHT;
		empty++;
	}
	for (f = 0, i = 0; f < 8; f++)
		if (back[f] == -1)
			back[f] = rkr[i++];
	setup_array(pos, back, true);
	return CHESS_OK;
}

/* The Zobrist key computed from scratch. */
uint64_t
chess_position_key(const struct chess_position *pos)
{
	uint64_t	key = 0;
	chess_bb	b;
	int		sq;

	for (sq = 0; sq < 64; sq++)
		if (pos->board[sq] != CHESS_EMPTY)
			key ^= zobrist_piece[pos->board[sq] & 15][sq];
	for (b = pos->castling; b != 0;)
		key ^= zobrist_castling[bb_pop(&b)];
	if (pos->ep < 64)
		key ^= zobrist_ep[pos->ep];
	if (pos->side == CHESS_BLACK)
		key ^= zobrist_side;
	return key;
}

/* Square of `color`'s king. */
int
chess_position_king(const struct chess_position *pos, int color)
{
	chess_bb	k = pos->pieces[CHESS_KING] & pos->colors[color & 1];

	return k != 0 ? bb_lsb(k) : CHESS_SQ_NONE;
}

/* True if the side to move is in check. */
bool
chess_position_in_check(const struct chess_position *pos)
{
	int	ksq = chess_position_king(pos, pos->side);

	if (ksq == CHESS_SQ_NONE)
		return false;
	return bb_attackers(pos, pos->side ^ 1, ksq,
	    pos->colors[0] | pos->colors[1]) != 0;
}

/*
 * True if the side to move can capture en passant onto `ep` without leaving
 * its king attacked. The capture is played on a copy of the occupancy, so
 * every pin (also the horizontal one through both pawns) and every check,
 * including the double step's own, is taken into account.
 */
bool
chess_position_ep_legal(const struct chess_position *pos, int ep)
{
	int		us = pos->side, them = us ^ 1, ksq, from, capsq;
	chess_bb	cands, occ, pawns, theirs;

	if (ep < 0 || ep > 63)
		return false;
	capsq = ep ^ 8;
	pawns = pos->pieces[CHESS_PAWN];
	theirs = pos->colors[them];
	if (!(pawns & theirs & BB(capsq)) ||
	    ((pos->colors[0] | pos->colors[1]) & BB(ep)))
		return false;
	cands = bb_pawn[them][ep] & pawns & pos->colors[us];
	if (cands == 0)
		return false;
	ksq = chess_position_king(pos, us);
	if (ksq == CHESS_SQ_NONE)
		return true;
	while (cands != 0) {
		from = bb_pop(&cands);
		occ = ((pos->colors[0] | pos->colors[1]) ^ BB(from) ^
		    BB(capsq)) | BB(ep);
		if ((theirs & ~BB(capsq) & ((bb_pawn[us][ksq] & pawns) |
		    (bb_knight[ksq] & pos->pieces[CHESS_KNIGHT]) |
		    (bb_rook_attacks(ksq, occ) & (pos->pieces[CHESS_ROOK] |
		    pos->pieces[CHESS_QUEEN])) |
		    (bb_bishop_attacks(ksq, occ) & (pos->pieces[CHESS_BISHOP] |
		    pos->pieces[CHESS_QUEEN])))) == 0)
			return true;
	}
	return false;
}

/* Move a piece between squares, with its key. */
static inline void
move_piece(struct chess_position *pos, int piece, int from, int to)
{
	chess_bb	fromto = BB(from) | BB(to);

	pos->board[from] = CHESS_EMPTY;
	pos->board[to] = (uint8_t)piece;
	pos->pieces[CHESS_PIECE_TYPE(piece)] ^= fromto;
	pos->colors[CHESS_PIECE_COLOR(piece)] ^= fromto;
	pos->key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
}

/* Take a piece off its square, with its key. */
static inline void
remove_piece(struct chess_position *pos, int piece, int sq)
{
	pos->board[sq] = CHESS_EMPTY;
	pos->pieces[CHESS_PIECE_TYPE(piece)] ^= BB(sq);
	pos->colors[CHESS_PIECE_COLOR(piece)] ^= BB(sq);
	pos->key ^= zobrist_piece[piece][sq];
}

/* Put a piece on an empty square, with its key. */
static inline void
add_piece(struct chess_position *pos, int piece, int sq)
{
	put_piece(pos, piece, sq);
	pos->key ^= zobrist_piece[piece][sq];
}

/* Play a legal move in place. */
void
chess_position_make(struct chess_position *pos, chess_move m)
{
	int		from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);
	int		us = pos->side, piece = pos->board[from];
	int		captured, kto, rto, rook, ep;
	chess_bb	lost;
	uint64_t	key = pos->key ^ zobrist_side;

	if (pos->ep != CHESS_SQ_NONE) {
		key ^= zobrist_ep[pos->ep];
		pos->ep = CHESS_SQ_NONE;
	}

	/* Castling rights go with a moving king or rook, a captured rook. */
	if (pos->castling != 0) {
		lost = pos->castling & (BB(from) | BB(to));
		if (CHESS_PIECE_TYPE(piece) == CHESS_KING)
			lost |= pos->castling & (us == CHESS_WHITE ?
			    BB_RANK_1 : BB_RANK_8);
		pos->castling ^= lost;
		while (lost != 0)
			key ^= zobrist_castling[bb_pop(&lost)];
	}
	pos->key = key;
	pos->halfmove++;
	if (us == CHESS_BLACK)
		pos->fullmove++;

	switch (CHESS_MOVE_KIND(m)) {
	case CHESS_MOVE_NORMAL:
		captured = pos->board[to];
		if (captured != CHESS_EMPTY) {
			remove_piece(pos, captured, to);
			pos->halfmove = 0;
		}
		move_piece(pos, piece, from, to);
		if (CHESS_PIECE_TYPE(piece) == CHESS_PAWN) {
			pos->halfmove = 0;
			if ((from ^ to) == 16) {
				ep = (from + to) >> 1;
				pos->side ^= 1;
				if ((bb_pawn[us][ep] & pos->pieces[CHESS_PAWN] &
				    pos->colors[us ^ 1]) != 0 &&
				    chess_position_ep_legal(pos, ep)) {
					pos->ep = (uint8_t)ep;
					pos->key ^= zobrist_ep[ep];
				}
				return;
			}
		}
		break;
	case CHESS_MOVE_PROMOTION:
		captured = pos->board[to];
		if (captured != CHESS_EMPTY)
			remove_piece(pos, captured, to);
		remove_piece(pos, piece, from);
		add_piece(pos, CHESS_PIECE(us, CHESS_MOVE_PROM(m)), to);
		pos->halfmove = 0;
		break;
	case CHESS_MOVE_EP:
		remove_piece(pos, pos->board[to ^ 8], to ^ 8);
		move_piece(pos, piece, from, to);
		pos->halfmove = 0;
		break;
	case CHESS_MOVE_CASTLE:
		rook = pos->board[to];
		kto = (from & 56) | (to > from ? 6 : 2);
		rto = (from & 56) | (to > from ? 5 : 3);
		remove_piece(pos, piece, from);
		remove_piece(pos, rook, to);
		add_piece(pos, piece, kto);
		add_piece(pos, rook, rto);
		break;
	}
	pos->side ^= 1;
}

/* Check the position's internal consistency; NULL when consistent. */
const char *
chess_position_invalid(const struct chess_position *pos)
{
	chess_bb	all = 0, b;
	int		sq, p, t, c, ksq;

	if (pos->side > 1)
		return "side to move is neither white nor black";
	if (pos->colors[0] & pos->colors[1])
		return "a square holds pieces of both colours";
	for (t = 0; t < 6; t++) {
		if (all & pos->pieces[t])
			return "a square holds pieces of two types";
		all |= pos->pieces[t];
	}
	if (all != (pos->colors[0] | pos->colors[1]))
		return "piece and colour bitboards disagree";
	for (sq = 0; sq < 64; sq++) {
		p = pos->board[sq];
		if (p == CHESS_EMPTY) {
			if (all & BB(sq))
				return "mailbox empty where a bitboard is set";
			continue;
		}
		t = CHESS_PIECE_TYPE(p);
		c = CHESS_PIECE_COLOR(p);
		if (t > CHESS_KING || c > 1 || p != CHESS_PIECE(c, t))
			return "mailbox holds an unknown piece code";
		if (!(pos->pieces[t] & pos->colors[c] & BB(sq)))
			return "mailbox and bitboards disagree";
	}
	for (c = 0; c < 2; c++)
		if (bb_count(pos->pieces[CHESS_KING] & pos->colors[c]) != 1)
			return "not exactly one king of each colour";
	if (pos->pieces[CHESS_PAWN] & (BB_RANK_1 | BB_RANK_8))
		return "pawn on the first or last rank";
	for (b = pos->castling; b != 0;) {
		sq = bb_pop(&b);
		c = CHESS_RANK(sq) == 0 ? CHESS_WHITE : CHESS_BLACK;
		if (CHESS_RANK(sq) != 0 && CHESS_RANK(sq) != 7)
			return "castling rook not on a back rank";
		if (pos->board[sq] != CHESS_PIECE(c, CHESS_ROOK))
			return "castling right without its rook";
		ksq = chess_position_king(pos, c);
		if (CHESS_RANK(ksq) != CHESS_RANK(sq))
			return "castling right without its king on the rank";
		if (bb_count(pos->castling & (c == CHESS_WHITE ? BB_RANK_1 :
		    BB_RANK_8) & (sq > ksq ? ~(BB(ksq) - 1) : BB(ksq) - 1)) > 1)
			return "two castling rights on one side of a king";
	}
	if (pos->ep != CHESS_SQ_NONE) {
		if (pos->ep > 63)
			return "e.p. square out of range";
		if (CHESS_RANK(pos->ep) != (pos->side == CHESS_WHITE ? 5 : 2))
			return "e.p. square on the wrong rank";
		if (!chess_position_ep_legal(pos, pos->ep))
			return "e.p. square set but no legal e.p. capture";
	}
	ksq = chess_position_king(pos, pos->side ^ 1);
	if (bb_attackers(pos, pos->side, ksq, all) != 0)
		return "the side not to move is in check";
	if (pos->key != chess_position_key(pos))
		return "Zobrist key differs from the computed key";
	return NULL;
}
