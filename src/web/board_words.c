/*
 * web/board_words.c: a position told in words, in English or French.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <string.h>

#include "web/board_words.h"

/* The words of one language. */
struct words {
	const char	*side[2];	/* "White: " */
	const char	*none;		/* a side without pieces */
	const char	*names[6][2];	/* by piece type: one, several */
	const char	*to_move[2];
	const char	*check[2];
	const char	*mate[2];
	const char	*stalemate[2];
};

static const struct words words_en = {
	{ "White: ", "Black: " },
	"no pieces",
	{
		{ "Pawn", "Pawns" }, { "Knight", "Knights" },
		{ "Bishop", "Bishops" }, { "Rook", "Rooks" },
		{ "Queen", "Queens" }, { "King", "Kings" },
	},
	{ "White to move.", "Black to move." },
	{ " White is in check.", " Black is in check." },
	{ " White is checkmated.", " Black is checkmated." },
	{ " White is stalemated.", " Black is stalemated." },
};

static const struct words words_fr = {
	{ "Blancs : ", "Noirs : " },
	"aucune pi\xc3\xa8" "ce",
	{
		{ "Pion", "Pions" }, { "Cavalier", "Cavaliers" },
		{ "Fou", "Fous" }, { "Tour", "Tours" },
		{ "Dame", "Dames" }, { "Roi", "Rois" },
	},
	{ "Trait aux Blancs.", "Trait aux Noirs." },
	{ " Les Blancs sont en \xc3\xa9" "chec.",
	    " Les Noirs sont en \xc3\xa9" "chec." },
	{ " Les Blancs sont mat.", " Les Noirs sont mat." },
	{ " Les Blancs sont pat.", " Les Noirs sont pat." },
};

/* The order pieces are told in. */
static const int told_order[6] = {
	CHESS_KING, CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP, CHESS_KNIGHT,
	CHESS_PAWN
};

/* Output so far: buf holds at most size - 1 bytes, len counts them all. */
struct text {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

/* Append `s`, keeping what fits. */
static void
put(struct text *t, const char *s)
{
	size_t	n = strlen(s), room;

	if (t->len + 1 < t->size) {
		room = t->size - 1 - t->len;
		memcpy(t->buf + t->len, s, n < room ? n : room);
	}
	t->len += n;
}

/* End the text with its NUL, without a cut UTF-8 character. */
static size_t
finish(struct text *t)
{
	size_t		end, lead, need;
	unsigned char	c;

	if (t->size == 0)
		return t->len;
	end = t->len < t->size ? t->len : t->size - 1;
	if (end < t->len && end > 0) {
		/* Cut: find the last character kept; drop it if incomplete. */
		lead = end - 1;
		while (lead > 0 && ((unsigned char)t->buf[lead] & 0xc0) == 0x80)
			lead--;
		c = (unsigned char)t->buf[lead];
		need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		if (lead + need > end)
			end = lead;
	}
	t->buf[end] = '\0';
	return t->len;
}

/* Count the pieces `piece` on the board. */
static int
count_pieces(const struct chess_position *pos, int piece)
{
	int	sq, n = 0;

	for (sq = 0; sq < 64; sq++)
		if (pos->board[sq] == piece)
			n++;
	return n;
}

/* Tell one side's pieces: "White: King g1, Rooks a1 f1. ". */
static void
tell_side(struct text *t, const struct chess_position *pos,
    const struct words *w, int color)
{
	char	sqname[4] = " a1";
	int	i, type, piece, n, file, rank, told = 0;

	put(t, w->side[color]);
	for (i = 0; i < 6; i++) {
		type = told_order[i];
		piece = CHESS_PIECE(color, type);
		if ((n = count_pieces(pos, piece)) == 0)
			continue;
		if (told++ > 0)
			put(t, ", ");
		put(t, w->names[type][n > 1]);
		for (file = 0; file < 8; file++)
			for (rank = 0; rank < 8; rank++) {
				if (pos->board[CHESS_SQ(file, rank)] != piece)
					continue;
				sqname[1] = 'a' + file;
				sqname[2] = '1' + rank;
				put(t, sqname);
			}
	}
	if (told == 0)
		put(t, w->none);
	put(t, ". ");
}

/* Write the position in words. */
size_t
board_words(const struct chess_position *pos, enum chess_lang lang,
    char *buf, size_t size)
{
	const struct words	*w = lang == CHESS_LANG_FR ? &words_fr : &words_en;
	struct text		 t = { buf, size, 0 };
	int			 side = pos->side != CHESS_WHITE;
	bool			 check, moves;

	chess_init();
	tell_side(&t, pos, w, CHESS_WHITE);
	tell_side(&t, pos, w, CHESS_BLACK);
	put(&t, w->to_move[side]);

	/* Check, mate and stalemate need the side to move's king. */
	if (chess_position_king(pos, side) != CHESS_SQ_NONE) {
		check = chess_position_in_check(pos);
		moves = chess_legal_count(pos) > 0;
		if (check)
			put(&t, moves ? w->check[side] : w->mate[side]);
		else if (!moves)
			put(&t, w->stalemate[side]);
	}
	return finish(&t);
}
