/*
 * chess/fen.c: FEN in and out.
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
 * FEN in and out. The reader trusts nothing: it reads at most
 * FEN_INPUT_MAX bytes, checks every field and says which one is wrong, and
 * accepts the castling field as "-", X-FEN (KQkq, or a file letter for an
 * inner rook) or Shredder-FEN (HAha).
 */

#include <stdio.h>
#include <string.h>

#include "chess/bitboard.h"

/* Longest FEN text we read (a FEN is under 100 bytes; spaces allowed). */
#define FEN_INPUT_MAX	256

/* Field bounds inside the input. */
struct fen_field {
	const char	*s;
	size_t		 len;
};

/* Map a FEN piece letter to a piece code, or -1. */
static int
piece_from_letter(char c)
{
	static const char	letters[] = "pnbrqk";
	const char		*p;
	int			 color = CHESS_WHITE;

	if (c >= 'A' && c <= 'Z') {
		c = (char)(c - 'A' + 'a');
	} else
		color = CHESS_BLACK;
	if (c == '\0' || (p = strchr(letters, c)) == NULL)
		return -1;
	return CHESS_PIECE(color, (int)(p - letters));
}

/* Parse the placement field into pos. */
static enum chess_error
parse_placement(struct chess_position *pos, const struct fen_field *f)
{
	size_t	i;
	int	rank = 7, file = 0, piece, digit = 0, sq;

	for (i = 0; i < f->len; i++) {
		char	c = f->s[i];

		if (c == '/') {
			if (file != 8)
				return CHESS_EFEN_RANK;
			if (--rank < 0)
				return CHESS_EFEN_RANKS;
			file = 0;
			digit = 0;
			continue;
		}
		if (c >= '1' && c <= '8') {
			if (digit)	/* "44": two counts in a row */
				return CHESS_EFEN_RANK;
			file += c - '0';
			if (file > 8)
				return CHESS_EFEN_RANK;
			digit = 1;
			continue;
		}
		digit = 0;
		if ((piece = piece_from_letter(c)) < 0)
			return CHESS_EFEN_PIECE;
		if (file >= 8)
			return CHESS_EFEN_RANK;
		sq = CHESS_SQ(file, rank);
		pos->board[sq] = (uint8_t)piece;
		pos->pieces[CHESS_PIECE_TYPE(piece)] |= BB(sq);
		pos->colors[CHESS_PIECE_COLOR(piece)] |= BB(sq);
		file++;
	}
	if (rank != 0)
		return CHESS_EFEN_RANKS;
	if (file != 8)
		return CHESS_EFEN_RANK;
	return CHESS_OK;
}

/* Parse the castling field: "-", X-FEN or Shredder-FEN. */
static enum chess_error
parse_castling(struct chess_position *pos, const struct fen_field *f,
    bool *needs960)
{
	size_t		i;
	int		color, ksq, rsq, file, backrank;
	chess_bb	rooks, side;
	char		c;

	if (f->len == 1 && f->s[0] == '-')
		return CHESS_OK;
	if (f->len == 0 || f->len > 4)
		return CHESS_EFEN_CASTLING;
	for (i = 0; i < f->len; i++) {
		c = f->s[i];
		if (c >= 'A' && c <= 'Z') {
			color = CHESS_WHITE;
			c = (char)(c - 'A' + 'a');
		} else
			color = CHESS_BLACK;
		backrank = color == CHESS_WHITE ? 0 : 7;
		ksq = chess_position_king(pos, color);
		if (ksq == CHESS_SQ_NONE || CHESS_RANK(ksq) != backrank)
			return CHESS_EFEN_CASTLING;
		rooks = pos->pieces[CHESS_ROOK] & pos->colors[color] &
		    (BB_RANK_1 << (8 * backrank));
		if (c == 'k') {
			rooks &= ~(BB(ksq) | (BB(ksq) - 1));
			if (rooks == 0)
				return CHESS_EFEN_CASTLING;
			rsq = bb_msb(rooks);
		} else if (c == 'q') {
			rooks &= BB(ksq) - 1;
			if (rooks == 0)
				return CHESS_EFEN_CASTLING;
			rsq = bb_lsb(rooks);
		} else if (c >= 'a' && c <= 'h') {
			file = c - 'a';
			rsq = CHESS_SQ(file, backrank);
			if (!(rooks & BB(rsq)))
				return CHESS_EFEN_CASTLING;
		} else
			return CHESS_EFEN_CASTLING;

		/* One right per side of the king, each named once. */
		side = rsq > ksq ? ~(BB(ksq) | (BB(ksq) - 1)) : BB(ksq) - 1;
		if (pos->castling & side & (BB_RANK_1 << (8 * backrank)))
			return CHESS_EFEN_CASTLING;
		pos->castling |= BB(rsq);
		if (CHESS_FILE(ksq) != 4 || (CHESS_FILE(rsq) != 0 &&
		    CHESS_FILE(rsq) != 7))
			*needs960 = true;
	}
	return CHESS_OK;
}

/* Parse the e.p. field; keep the square only when a capture is legal. */
static enum chess_error
parse_ep(struct chess_position *pos, const struct fen_field *f)
{
	int		file, rank, sq, mover = pos->side ^ 1;
	chess_bb	occ = pos->colors[0] | pos->colors[1];

	if (f->len == 1 && f->s[0] == '-')
		return CHESS_OK;
	if (f->len != 2 || f->s[0] < 'a' || f->s[0] > 'h')
		return CHESS_EFEN_EP;
	file = f->s[0] - 'a';
	rank = f->s[1] - '1';
	if (rank != (pos->side == CHESS_WHITE ? 5 : 2))
		return CHESS_EFEN_EP;
	sq = CHESS_SQ(file, rank);

	/* The pawn that just moved stands in front; the squares it crossed
	 * are empty. */
	if (pos->board[sq - (mover == CHESS_WHITE ? -8 : 8)] !=
	    CHESS_PIECE(mover, CHESS_PAWN) ||
	    (occ & (BB(sq) | BB(mover == CHESS_WHITE ? sq - 8 : sq + 8))))
		return CHESS_EFEN_EP;
	if (chess_position_ep_legal(pos, sq))
		pos->ep = (uint8_t)sq;
	return CHESS_OK;
}

/* Parse a decimal counter in [min, max]. */
static bool
parse_counter(const struct fen_field *f, unsigned min, unsigned max,
    uint16_t *out)
{
	unsigned	v = 0;
	size_t		i;

	if (f->len == 0 || f->len > 5)
		return false;
	for (i = 0; i < f->len; i++) {
		if (f->s[i] < '0' || f->s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(f->s[i] - '0');
	}
	if (v < min || v > max)
		return false;
	*out = (uint16_t)v;
	return true;
}

/* Parse a FEN (X-FEN and Shredder-FEN castling fields accepted). */
enum chess_error
chess_fen_parse(struct chess_position *pos, const char *fen, unsigned flags)
{
	struct fen_field	 field[6];
	enum chess_error	 error;
	size_t			 len, i, nfields = 0;
	bool			 needs960 = false;
	int			 color, ksq;

	chess_init();
	memset(pos, 0, sizeof *pos);
	memset(pos->board, CHESS_EMPTY, sizeof pos->board);
	pos->ep = CHESS_SQ_NONE;
	pos->fullmove = 1;
	if (fen == NULL)
		return CHESS_EFEN_FIELDS;
	len = strnlen(fen, FEN_INPUT_MAX + 1);
	if (len > FEN_INPUT_MAX)
		return CHESS_EFEN_FIELDS;

	/* Split on blanks; leading and trailing blanks are ignored. */
	for (i = 0; i < len;) {
		if (fen[i] == ' ' || fen[i] == '\t' || fen[i] == '\n' ||
		    fen[i] == '\r') {
			i++;
			continue;
		}
		if (nfields == 6)
			return CHESS_EFEN_FIELDS;
		field[nfields].s = fen + i;
		while (i < len && fen[i] != ' ' && fen[i] != '\t' &&
		    fen[i] != '\n' && fen[i] != '\r')
			i++;
		field[nfields].len = (size_t)(fen + i - field[nfields].s);
		nfields++;
	}
	if (nfields < 4)
		return CHESS_EFEN_FIELDS;

	if ((error = parse_placement(pos, &field[0])) != CHESS_OK)
		return error;
	for (color = 0; color < 2; color++)
		if (bb_count(pos->pieces[CHESS_KING] & pos->colors[color]) != 1)
			return CHESS_EFEN_KINGS;
	if (pos->pieces[CHESS_PAWN] & (BB_RANK_1 | BB_RANK_8))
		return CHESS_EFEN_PAWNS;

	if (field[1].len != 1 || (field[1].s[0] != 'w' && field[1].s[0] != 'b'))
		return CHESS_EFEN_SIDE;
	pos->side = field[1].s[0] == 'w' ? CHESS_WHITE : CHESS_BLACK;

	if ((error = parse_castling(pos, &field[2], &needs960)) != CHESS_OK)
		return error;
	if ((error = parse_ep(pos, &field[3])) != CHESS_OK)
		return error;
	if (nfields > 4 &&
	    !parse_counter(&field[4], 0, 65535, &pos->halfmove))
		return CHESS_EFEN_HALFMOVE;
	if (nfields > 5 &&
	    !parse_counter(&field[5], 1, 65535, &pos->fullmove))
		return CHESS_EFEN_FULLMOVE;

	ksq = chess_position_king(pos, pos->side ^ 1);
	if (bb_attackers(pos, pos->side, ksq,
	    pos->colors[0] | pos->colors[1]) != 0)
		return CHESS_EFEN_CHECK;

	pos->chess960 = (flags & CHESS_FEN_960) != 0 || needs960;
	pos->key = chess_position_key(pos);
	return CHESS_OK;
}

/* Write the FEN of pos to buf; return the length (without NUL). */
size_t
chess_fen_write(const struct chess_position *pos, char *buf, size_t size)
{
	static const char	 letters[] = "PNBRQK??pnbrqk";
	char			 out[CHESS_FEN_MAX + 16];
	size_t			 n = 0;
	int			 rank, file, empty, p, color, ksq, sq;
	chess_bb		 rooks;

	for (rank = 7; rank >= 0; rank--) {
		empty = 0;
		for (file = 0; file < 8; file++) {
			p = pos->board[CHESS_SQ(file, rank)];
			if (p == CHESS_EMPTY || (p & 7) > CHESS_KING) {
				empty++;
				continue;
			}
			if (empty > 0)
				out[n++] = (char)('0' + empty);
			empty = 0;
			out[n++] = letters[p & 15];
		}
		if (empty > 0)
			out[n++] = (char)('0' + empty);
		if (rank > 0)
			out[n++] = '/';
	}
	out[n++] = ' ';
	out[n++] = pos->side == CHESS_WHITE ? 'w' : 'b';
	out[n++] = ' ';
	if (pos->castling == 0)
		out[n++] = '-';
	for (color = 0; color < 2 && pos->castling != 0; color++) {
		rooks = pos->castling & (color == CHESS_WHITE ? BB_RANK_1 :
		    BB_RANK_8);
		ksq = chess_position_king(pos, color);
		/* Kingside first, then queenside, as KQkq and HAha do. */
		while (rooks != 0) {
			sq = bb_msb(rooks);
			rooks ^= BB(sq);
			if (pos->chess960)
				out[n++] = (char)('a' + CHESS_FILE(sq));
			else
				out[n++] = sq > ksq ? 'k' : 'q';
			if (color == CHESS_WHITE)
				out[n - 1] = (char)(out[n - 1] - 'a' + 'A');
		}
	}
	out[n++] = ' ';
	if (pos->ep != CHESS_SQ_NONE && pos->ep < 64) {
		out[n++] = (char)('a' + CHESS_FILE(pos->ep));
		out[n++] = (char)('1' + CHESS_RANK(pos->ep));
	} else
		out[n++] = '-';
	out[n] = '\0';
	n += (size_t)snprintf(out + n, sizeof out - n, " %u %u",
	    (unsigned)pos->halfmove, (unsigned)pos->fullmove);
	if (size > 0) {
		if (n >= size) {
			memcpy(buf, out, size - 1);
			buf[size - 1] = '\0';
		} else
			memcpy(buf, out, n + 1);
	}
	return n;
}
