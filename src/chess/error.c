/*
 * chess/error.c: the rules core's error texts.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "chess/chess.h"

/* Describe a rules-core error for a person. */
const char *
chess_strerror(enum chess_error err)
{
	switch (err) {
	case CHESS_OK:
		return "no error";
	case CHESS_EFEN_FIELDS:
		return "FEN needs 4 to 6 space-separated fields (placement, side, castling, en passant, halfmove clock, move number)";
	case CHESS_EFEN_RANKS:
		return "FEN placement must have 8 ranks separated by '/'";
	case CHESS_EFEN_RANK:
		return "a FEN rank does not describe exactly 8 squares";
	case CHESS_EFEN_PIECE:
		return "unknown piece letter in FEN (use PNBRQK / pnbrqk and digits 1-8)";
	case CHESS_EFEN_KINGS:
		return "each side must have exactly one king";
	case CHESS_EFEN_PAWNS:
		return "pawns cannot stand on the first or last rank";
	case CHESS_EFEN_SIDE:
		return "side to move must be 'w' or 'b'";
	case CHESS_EFEN_CHECK:
		return "the side not to move is in check";
	case CHESS_EFEN_CASTLING:
		return "castling rights do not match the king and rooks on the board";
	case CHESS_EFEN_EP:
		return "impossible en-passant square";
	case CHESS_EFEN_HALFMOVE:
		return "halfmove clock must be a number from 0 to 9999";
	case CHESS_EFEN_FULLMOVE:
		return "move number must be a number from 1 to 9999";
	case CHESS_EMOVE_SYNTAX:
		return "not a move (try SAN like Nf3, or e2e4, e2-e4, 5254)";
	case CHESS_EMOVE_ILLEGAL:
		return "illegal move";
	case CHESS_EMOVE_AMBIGUOUS:
		return "ambiguous move";
	case CHESS_E960_NUMBER:
		return "Chess960 start position number must be from 0 to 959";
	}
	return "unknown error";
}
