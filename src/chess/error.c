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

/* Describe a rules-core error for a person, in English. */
const char *
chess_strerror(enum chess_error err)
{
	return chess_strerror_lang(err, CHESS_LANG_EN);
}

/* Describe a rules-core error for a person, in `lang`. */
const char *
chess_strerror_lang(enum chess_error err, enum chess_lang lang)
{
	int	fr = lang == CHESS_LANG_FR;

	switch (err) {
	case CHESS_OK:
		return fr ? "pas d'erreur" : "no error";
	case CHESS_EFEN_FIELDS:
		return fr ?
		    "une FEN a de 4 à 6 champs séparés par des espaces "
		    "(placement, trait, roques, prise en passant, "
		    "demi-coups, numéro du coup)" :
		    "FEN needs 4 to 6 space-separated fields (placement, "
		    "side, castling, en passant, halfmove clock, move number)";
	case CHESS_EFEN_RANKS:
		return fr ?
		    "le placement d'une FEN a 8 rangées séparées par « / »" :
		    "FEN placement must have 8 ranks separated by '/'";
	case CHESS_EFEN_RANK:
		return fr ?
		    "une rangée de la FEN ne décrit pas exactement 8 cases" :
		    "a FEN rank does not describe exactly 8 squares";
	case CHESS_EFEN_PIECE:
		return fr ?
		    "lettre de pièce inconnue dans la FEN (une FEN s'écrit "
		    "avec les lettres anglaises PNBRQK / pnbrqk et les "
		    "chiffres 1 à 8)" :
		    "unknown piece letter in FEN (use PNBRQK / pnbrqk and "
		    "digits 1-8)";
	case CHESS_EFEN_KINGS:
		return fr ? "chaque camp doit avoir exactement un roi" :
		    "each side must have exactly one king";
	case CHESS_EFEN_PAWNS:
		return fr ?
		    "un pion ne peut pas se trouver sur la première ou la "
		    "dernière rangée" :
		    "pawns cannot stand on the first or last rank";
	case CHESS_EFEN_SIDE:
		return fr ? "le trait s'écrit « w » (Blancs) ou « b » (Noirs)" :
		    "side to move must be 'w' or 'b'";
	case CHESS_EFEN_CHECK:
		return fr ? "le camp qui n'a pas le trait est en échec" :
		    "the side not to move is in check";
	case CHESS_EFEN_CASTLING:
		return fr ?
		    "les droits de roque ne correspondent pas au roi et aux "
		    "tours de l'échiquier" :
		    "castling rights do not match the king and rooks on the "
		    "board";
	case CHESS_EFEN_EP:
		return fr ? "case de prise en passant impossible" :
		    "impossible en-passant square";
	case CHESS_EFEN_HALFMOVE:
		return fr ?
		    "le compteur de demi-coups doit être un nombre de 0 à "
		    "9999" :
		    "halfmove clock must be a number from 0 to 9999";
	case CHESS_EFEN_FULLMOVE:
		return fr ?
		    "le numéro du coup doit être un nombre de 1 à 9999" :
		    "move number must be a number from 1 to 9999";
	case CHESS_EMOVE_SYNTAX:
		return fr ?
		    "ce n'est pas un coup (essayez la notation algébrique : "
		    "Cf3, e2e4, e2-e4, 5254)" :
		    "not a move (try SAN like Nf3, or e2e4, e2-e4, 5254)";
	case CHESS_EMOVE_ILLEGAL:
		return fr ? "coup illégal" : "illegal move";
	case CHESS_EMOVE_AMBIGUOUS:
		return fr ? "coup ambigu" : "ambiguous move";
	case CHESS_E960_NUMBER:
		return fr ?
		    "le numéro d'une position de départ Chess960 va de 0 à "
		    "959" :
		    "Chess960 start position number must be from 0 to 959";
	}
	return fr ? "erreur inconnue" : "unknown error";
}
