/*
 * web/board_words.h: a position told in words, for people who cannot see
 * the board.
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
 * The <desc> of the SVG board and the text beside it on the web pages, for
 * screen readers and for anyone reading the page as text:
 *
 *   White: King g1, Queen d1, Rooks a1 f1, Pawns f2 g2 h2. Black: King g8,
 *   Rook e8, Pawns f7 g7 h7. White to move. White is in check.
 *
 *   Blancs : Roi g1, Dame d1, Tours a1 f1, Pions f2 g2 h2. Noirs : Roi g8,
 *   Tour e8, Pions f7 g7 h7. Trait aux Blancs. Les Blancs sont en échec.
 *
 * Pieces in the order king, queen, rooks, bishops, knights, pawns; squares
 * file by file (a2 b3 c2). The last sentence, when there is one, says check,
 * checkmate or stalemate. UTF-8, plain text: escape it for HTML or XML.
 * Pure: no I/O, no allocation, no state; safe from any thread.
 */

#ifndef CORRCHESS_WEB_BOARD_WORDS_H
#define CORRCHESS_WEB_BOARD_WORDS_H

#include <stddef.h>

#include "chess/chess.h"

/* Room for the words of any position, in either language, with the NUL. */
#define BOARD_WORDS_MAX		512

/*
 * Write the position in words in `lang` to buf, like snprintf: at most
 * size - 1 bytes and a NUL (when size > 0), never a partial UTF-8
 * character. Returns the length of the whole text; a result >= size means
 * it was cut. buf may be NULL when size is 0.
 */
size_t board_words(const struct chess_position *, enum chess_lang lang,
    char *buf, size_t size);

#endif /* CORRCHESS_WEB_BOARD_WORDS_H */
