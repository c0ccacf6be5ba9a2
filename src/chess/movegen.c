/*
 * chess/movegen.c: legal move generation.
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
 * Legal move generation. Every generated move is legal: the king steps only
 * to squares the opponent does not attack (tested with the king lifted off
 * the board), in check the other pieces may only capture the checker or
 * block, pinned pieces move only along their pin line, and the rare en
 * passant capture and castling are checked by playing them on a copy of the
 * occupancy. One generator serves listing and counting: in counting mode it
 * adds up target sets with popcount instead of writing moves.
 */

#include "chess/bitboard.h"

/* Append a normal move for each target square. */
BB_INLINE chess_move *
add_moves(chess_move *list, int from, chess_bb targets)
{
	while (targets != 0)
		*list++ = CHESS_MOVE_MAKE(from, bb_pop(&targets),
		    CHESS_MOVE_NORMAL, CHESS_KNIGHT);
	return list;
}

/* Append the four promotions of one pawn move. */
BB_INLINE chess_move *
add_promotions(chess_move *list, int from, int to)
{
	*list++ = CHESS_MOVE_MAKE(from, to, CHESS_MOVE_PROMOTION, CHESS_QUEEN);
	*list++ = CHESS_MOVE_MAKE(from, to, CHESS_MOVE_PROMOTION, CHESS_ROOK);
	*list++ = CHESS_MOVE_MAKE(from, to, CHESS_MOVE_PROMOTION,
	    CHESS_BISHOP);
	*list++ = CHESS_MOVE_MAKE(from, to, CHESS_MOVE_PROMOTION,
	    CHESS_KNIGHT);
	return list;
}

/* Append pawn moves to the set `to`, each from `to - delta`. */
BB_INLINE chess_move *
add_pawn_moves(chess_move *list, chess_bb to, int delta)
{
	int	sq;

	while (to != 0) {
		sq = bb_pop(&to);
		*list++ = CHESS_MOVE_MAKE(sq - delta, sq, CHESS_MOVE_NORMAL,
		    CHESS_KNIGHT);
	}
	return list;
}

/* Append pawn promotions to the set `to`, each from `to - delta`. */
BB_INLINE chess_move *
add_pawn_promotions(chess_move *list, chess_bb to, int delta)
{
	int	sq;

	while (to != 0) {
		sq = bb_pop(&to);
		list = add_promotions(list, sq - delta, sq);
	}
	return list;
}

/* True if the side to move may castle with the rook on `rsq`. */
BB_INLINE bool
castling_ok(const struct chess_position *pos, int ksq, int rsq,
    chess_bb occupied)
{
	int		us = pos->side, them = us ^ 1, kto, rto, sq;
	chess_bb	path, span, occ;

	/* King and rook end on g and f, or on c and d, of their rank. */
	kto = (ksq & 56) | (rsq > ksq ? 6 : 2);
	rto = (ksq & 56) | (rsq > ksq ? 5 : 3);

	/* Every square either piece crosses is empty but for the two. */
	path = bb_between[ksq][kto] | BB(kto);
	span = (path | bb_between[rsq][rto] | BB(rto)) & ~(BB(ksq) | BB(rsq));
	if (span & occupied)
		return false;

	/* No square of the king's path attacked once both have left their
	 * squares (a slider hidden behind the castling rook counts). */
	occ = occupied ^ BB(ksq) ^ BB(rsq);
	for (path |= BB(ksq); path != 0;) {
		sq = bb_pop(&path);
		if (bb_attackers(pos, them, sq, occ) != 0)
			return false;
	}
	return true;
}

/*
 * Generate the legal moves into `list`, or count them when `list` is NULL.
 * Inlined into each caller, so the NULL test folds away.
 */
BB_INLINE int
generate(const struct chess_position *pos, chess_move *list)
{
	const int	us = pos->side, them = us ^ 1;
	const chess_bb	ours = pos->colors[us];
	const chess_bb	theirs = pos->colors[them];
	const chess_bb	occ = ours | theirs;
	const chess_bb	pawns = pos->pieces[CHESS_PAWN] & ours;
	const chess_bb	rank7 = us == CHESS_WHITE ? BB_RANK_1 << 48 :
			    BB_RANK_1 << 8;
	const chess_bb	rank3 = us == CHESS_WHITE ? BB_RANK_1 << 16 :
			    BB_RANK_1 << 40;
	const int	up = us == CHESS_WHITE ? 8 : -8;
	chess_move	*start = list;
	chess_bb	checkers, target, pinned, snipers, b, t, between;
	chess_bb	bq, rq, p, push1, push2, capl, capr;
	int		ksq, sq, n = 0, from;

	ksq = bb_lsb(pos->pieces[CHESS_KING] & ours);
	checkers = bb_attackers(pos, them, ksq, occ);

	/* King moves: to squares not attacked with the king lifted off. Few
	 * squares are free around a king, so each is tested alone. */
	t = 0;
	for (b = bb_king[ksq] & ~ours; b != 0;) {
		sq = bb_pop(&b);
		if (bb_attackers(pos, them, sq, occ ^ BB(ksq)) == 0)
			t |= BB(sq);
	}
	if (list == NULL)
		n += bb_count(t);
	else
		list = add_moves(list, ksq, t);
	if (bb_several(checkers))
		return list == NULL ? n : (int)(list - start);

	/* Other pieces must capture the checker or block. */
	if (checkers != 0)
		target = bb_between[ksq][bb_lsb(checkers)] | checkers;
	else
		target = ~ours;

	/* Our pieces that alone stand between our king and a slider. */
	pinned = 0;
	bq = (pos->pieces[CHESS_BISHOP] | pos->pieces[CHESS_QUEEN]) & theirs;
	rq = (pos->pieces[CHESS_ROOK] | pos->pieces[CHESS_QUEEN]) & theirs;
	snipers = (bb_bishop_empty[ksq] & bq) | (bb_rook_empty[ksq] & rq);
	while (snipers != 0) {
		between = bb_between[ksq][bb_pop(&snipers)] & occ;
		if (between != 0 && !bb_several(between))
			pinned |= between & ours;
	}

	/* Knights: a pinned knight never moves. */
	for (b = pos->pieces[CHESS_KNIGHT] & ours & ~pinned; b != 0;) {
		sq = bb_pop(&b);
		t = bb_knight[sq] & target;
		if (list == NULL)
			n += bb_count(t);
		else
			list = add_moves(list, sq, t);
	}

	/* Sliders: a pinned one moves along its pin line. */
	bq = (pos->pieces[CHESS_BISHOP] | pos->pieces[CHESS_QUEEN]) & ours;
	rq = (pos->pieces[CHESS_ROOK] | pos->pieces[CHESS_QUEEN]) & ours;
	for (b = bq; b != 0;) {
		sq = bb_pop(&b);
		t = bb_bishop_attacks(sq, occ) & target;
		if (pinned & BB(sq))
			t &= bb_line[ksq][sq];
		if (list == NULL)
			n += bb_count(t);
		else
			list = add_moves(list, sq, t);
	}
	for (b = rq; b != 0;) {
		sq = bb_pop(&b);
		t = bb_rook_attacks(sq, occ) & target;
		if (pinned & BB(sq))
			t &= bb_line[ksq][sq];
		if (list == NULL)
			n += bb_count(t);
		else
			list = add_moves(list, sq, t);
	}

	/* Pawns not pinned, set-wise: pushes, double steps, captures. */
	p = pawns & ~pinned;
	if (us == CHESS_WHITE) {
		push1 = (p << 8) & ~occ;
		push2 = ((push1 & rank3) << 8) & ~occ & target;
		capl = ((p & ~BB_FILE_A) << 7) & theirs & target;
		capr = ((p & ~BB_FILE_H) << 9) & theirs & target;
	} else {
		push1 = (p >> 8) & ~occ;
		push2 = ((push1 & rank3) >> 8) & ~occ & target;
		capl = ((p & ~BB_FILE_A) >> 9) & theirs & target;
		capr = ((p & ~BB_FILE_H) >> 7) & theirs & target;
	}
	push1 &= target;
	if (list == NULL) {
		n += bb_count(push1 & ~(BB_RANK_1 | BB_RANK_8)) +
		    bb_count(push2) +
		    bb_count(capl & ~(BB_RANK_1 | BB_RANK_8)) +
		    bb_count(capr & ~(BB_RANK_1 | BB_RANK_8));
		if (p & rank7)
			n += 4 * (bb_count(push1 & (BB_RANK_1 | BB_RANK_8)) +
			    bb_count(capl & (BB_RANK_1 | BB_RANK_8)) +
			    bb_count(capr & (BB_RANK_1 | BB_RANK_8)));
	} else {
		list = add_pawn_moves(list, push1 & ~(BB_RANK_1 | BB_RANK_8),
		    up);
		list = add_pawn_moves(list, push2, 2 * up);
		list = add_pawn_moves(list, capl & ~(BB_RANK_1 | BB_RANK_8),
		    us == CHESS_WHITE ? 7 : -9);
		list = add_pawn_moves(list, capr & ~(BB_RANK_1 | BB_RANK_8),
		    us == CHESS_WHITE ? 9 : -7);
		if (p & rank7) {
			list = add_pawn_promotions(list, push1 &
			    (BB_RANK_1 | BB_RANK_8), up);
			list = add_pawn_promotions(list, capl &
			    (BB_RANK_1 | BB_RANK_8),
			    us == CHESS_WHITE ? 7 : -9);
			list = add_pawn_promotions(list, capr &
			    (BB_RANK_1 | BB_RANK_8),
			    us == CHESS_WHITE ? 9 : -7);
		}
	}

	/* Pinned pawns, one by one, along their pin line. */
	for (b = pawns & pinned; b != 0;) {
		from = bb_pop(&b);
		t = BB(from + up) & ~occ;
		if (t != 0 && (BB(from) & (us == CHESS_WHITE ?
		    0x000000000000ff00ULL : 0x00ff000000000000ULL)))
			t |= BB(from + 2 * up) & ~occ;
		t |= bb_pawn[us][from] & theirs;
		t &= target & bb_line[ksq][from];
		if (BB(from) & rank7) {
			if (list == NULL)
				n += 4 * bb_count(t);
			else
				while (t != 0)
					list = add_promotions(list, from,
					    bb_pop(&t));
		} else {
			if (list == NULL)
				n += bb_count(t);
			else
				list = add_moves(list, from, t);
		}
	}

	/* En passant: rare; tried on a copy of the occupancy. */
	if (pos->ep != CHESS_SQ_NONE) {
		for (b = bb_pawn[them][pos->ep] & pawns; b != 0;) {
			from = bb_pop(&b);
			t = occ ^ BB(from) ^ BB(pos->ep ^ 8) ^ BB(pos->ep);
			if ((theirs & ~BB(pos->ep ^ 8) &
			    ((bb_pawn[us][ksq] & pos->pieces[CHESS_PAWN]) |
			    (bb_knight[ksq] & pos->pieces[CHESS_KNIGHT]) |
			    (bb_rook_attacks(ksq, t) &
			    (pos->pieces[CHESS_ROOK] |
			    pos->pieces[CHESS_QUEEN])) |
			    (bb_bishop_attacks(ksq, t) &
			    (pos->pieces[CHESS_BISHOP] |
			    pos->pieces[CHESS_QUEEN])))) != 0)
				continue;
			if (list == NULL)
				n++;
			else
				*list++ = CHESS_MOVE_MAKE(from, pos->ep,
				    CHESS_MOVE_EP, CHESS_KNIGHT);
		}
	}

	/* Castling: king takes own rook. */
	if (checkers == 0 && (pos->castling & ours) != 0) {
		for (b = pos->castling & ours; b != 0;) {
			sq = bb_pop(&b);
			if (!castling_ok(pos, ksq, sq, occ))
				continue;
			if (list == NULL)
				n++;
			else
				*list++ = CHESS_MOVE_MAKE(ksq, sq,
				    CHESS_MOVE_CASTLE, CHESS_KNIGHT);
		}
	}
	return list == NULL ? n : (int)(list - start);
}

/* True if pos has a side to move with a king (the generator needs one). */
static inline bool
playable(const struct chess_position *pos)
{
	return pos->side <= 1 &&
	    (pos->pieces[CHESS_KING] & pos->colors[pos->side]) != 0;
}

/* Write every legal move to `moves` and return their count. */
int
chess_legal_moves(const struct chess_position *pos,
    chess_move moves[CHESS_MAX_MOVES])
{
	if (!playable(pos))
		return 0;
	return generate(pos, moves);
}

/* Count the legal moves without writing them. */
int
chess_legal_count(const struct chess_position *pos)
{
	if (!playable(pos))
		return 0;
	return generate(pos, NULL);
}

/* True if a piece of ours may move from `from` to `to` as `kind` says,
 * ignoring what that does to our king. */
static bool
pseudo_legal(const struct chess_position *pos, int from, int to, int kind)
{
	const int	us = pos->side, up = us == CHESS_WHITE ? 8 : -8;
	const chess_bb	occ = pos->colors[0] | pos->colors[1];
	const chess_bb	theirs = pos->colors[us ^ 1];
	const chess_bb	last = BB_RANK_1 | BB_RANK_8;
	int		piece = pos->board[from];

	if (piece == CHESS_EMPTY || CHESS_PIECE_COLOR(piece) != us ||
	    (pos->colors[us] & BB(to)))
		return false;
	switch (CHESS_PIECE_TYPE(piece)) {
	case CHESS_PAWN:
		if (kind == CHESS_MOVE_EP)
			return to == pos->ep && (bb_pawn[us][from] & BB(to));
		if ((kind == CHESS_MOVE_PROMOTION) != ((BB(to) & last) != 0))
			return false;
		if (bb_pawn[us][from] & theirs & BB(to))
			return true;
		if (to == from + up)
			return !(occ & BB(to));
		return to == from + 2 * up &&
		    CHESS_RANK(from) == (us == CHESS_WHITE ? 1 : 6) &&
		    !(occ & (BB(to) | BB(from + up)));
	case CHESS_KNIGHT:
		return kind == CHESS_MOVE_NORMAL && (bb_knight[from] & BB(to));
	case CHESS_BISHOP:
		return kind == CHESS_MOVE_NORMAL &&
		    (bb_bishop_attacks(from, occ) & BB(to));
	case CHESS_ROOK:
		return kind == CHESS_MOVE_NORMAL &&
		    (bb_rook_attacks(from, occ) & BB(to));
	case CHESS_QUEEN:
		return kind == CHESS_MOVE_NORMAL &&
		    ((bb_bishop_attacks(from, occ) | bb_rook_attacks(from, occ)) &
		    BB(to));
	case CHESS_KING:
		return kind == CHESS_MOVE_NORMAL && (bb_king[from] & BB(to));
	}
	return false;
}

/*
 * True if `m` is a legal move in this position: exactly when it is one of
 * chess_legal_moves(), tested directly (the move is played on a copy of
 * the occupancy and our king looked at).
 */
bool
chess_move_is_legal(const struct chess_position *pos, chess_move m)
{
	const int	from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);
	const int	kind = CHESS_MOVE_KIND(m);
	int		us, them, ksq, gone;
	chess_bb	occ;

	if (m == CHESS_MOVE_NONE || !playable(pos) || from == to)
		return false;
	/* Only promotions carry a piece; the generator writes 0 otherwise. */
	if (kind != CHESS_MOVE_PROMOTION && ((m >> 12) & 3) != 0)
		return false;
	us = pos->side;
	them = us ^ 1;
	ksq = bb_lsb(pos->pieces[CHESS_KING] & pos->colors[us]);
	occ = pos->colors[0] | pos->colors[1];

	if (kind == CHESS_MOVE_CASTLE)
		return from == ksq && (pos->castling & pos->colors[us] &
		    BB(to)) && bb_attackers(pos, them, ksq, occ) == 0 &&
		    castling_ok(pos, ksq, to, occ);
	if (!pseudo_legal(pos, from, to, kind))
		return false;
	if (from == ksq)
		return bb_attackers(pos, them, to, occ ^ BB(from)) == 0;
	gone = kind == CHESS_MOVE_EP ? to ^ 8 : to;
	occ = ((occ ^ BB(from)) & ~BB(gone)) | BB(to);
	return (bb_attackers(pos, them, ksq, occ) & ~BB(gone)) == 0;
}

/* Signature of the perft recursion, one per instruction set. */
typedef uint64_t perft_fn(const struct chess_position *, int);

/*
 * Count leaves below pos (depth >= 1), recursing through `self`. Inlined
 * into each variant below so that every call is direct and the generator
 * is compiled for that variant's instruction set.
 */
BB_INLINE uint64_t
perft_node(const struct chess_position *pos, int depth, perft_fn *self)
{
	struct chess_position	next;
	chess_move		moves[CHESS_MAX_MOVES];
	uint64_t		nodes = 0;
	int			i, n;

	if (depth == 1)
		return (uint64_t)generate(pos, NULL);
	n = generate(pos, moves);
	for (i = 0; i < n; i++) {
		next = *pos;
		chess_position_make(&next, moves[i]);
		nodes += self(&next, depth - 1);
	}
	return nodes;
}

/* Perft for any CPU. */
static uint64_t
perft_default(const struct chess_position *pos, int depth)
{
	return perft_node(pos, depth, perft_default);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_PERFT_POPCNT 1
/*
 * Perft for CPUs with POPCNT: the counting at the last ply is mostly
 * popcounts, which the portable build leaves to a library routine. Chosen
 * at run time (the build targets the baseline instruction set).
 */
__attribute__((target("popcnt"))) static uint64_t
perft_popcnt(const struct chess_position *pos, int depth)
{
	return perft_node(pos, depth, perft_popcnt);
}
#endif

/* Leaf nodes of the legal move tree `depth` plies deep. */
uint64_t
chess_perft(const struct chess_position *pos, int depth)
{
	if (depth <= 0)
		return 1;
	if (!playable(pos))
		return 0;
#ifdef HAVE_PERFT_POPCNT
	if (__builtin_cpu_supports("popcnt"))
		return perft_popcnt(pos, depth);
#endif
	return perft_default(pos, depth);
}
