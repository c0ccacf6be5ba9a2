/*
 * web/board_svg.h: the board as SVG, drawn on the server.
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
 * One SVG document for GET /api/v1/games/{id}/board.svg and for the web
 * pages (inline or as <img>): no XML declaration, so it can be pasted into
 * HTML as it is; UTF-8; no script, no external reference, no style element
 * (a strict CSP allows it inline). The viewBox is 0 0 800 800, a square is
 * 100 units; width and height come from the size option.
 *
 * Accessible: role="img", lang, a <title> ("Chess position, White to move")
 * and a <desc> with the position in words (board_words()).
 *
 * Pieces are drawn once in <defs> (#cc-p #cc-n #cc-b #cc-r #cc-q #cc-k,
 * only the kinds on the board) and placed with <use>; they take their
 * colours from the group around them: fill for the body, stroke for the
 * outline, color (currentColor) for the inner details.
 *
 * Every colour is a presentation attribute, so a page stylesheet overrides
 * it. The classes:
 *
 *   svg.cc-board	the root
 *   .cc-light .cc-dark	the light and dark squares (fill)
 *   .cc-sq		each square's <rect> (interactive only)
 *   .cc-last		the two squares of the last move (fill, fill-opacity)
 *   .cc-check		the glow under the king in check (fill: a gradient,
 *			#cc-glow)
 *   .cc-coord		the coordinates (font-family, font-size)
 *   .cc-on-light .cc-on-dark   coordinates on a light or dark square (fill)
 *   .cc-pieces		all pieces (stroke-width)
 *   .cc-white .cc-black	the pieces of a side (fill, stroke, color)
 *   .cc-piece		each piece's <use> (interactive only)
 *
 * With the interactive option, for the page's script: the root has
 * data-orientation="white" or "black"; each square is a
 * <rect class="cc-sq" data-square="e4">; each piece is a
 * <use class="cc-piece" data-piece="N" data-square="f3"> (data-piece: the
 * FEN letter, upper case for White). Without it the squares are one
 * rectangle and one path, and the pieces bare <use> elements: a smaller
 * picture for lists and mail.
 *
 * The ids (cc-p ... cc-k, cc-glow) are the same in every board: two boards
 * inline on one page share the same definitions, which is harmless.
 */

#ifndef CORRCHESS_WEB_BOARD_SVG_H
#define CORRCHESS_WEB_BOARD_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

#define BOARD_SVG_SIZE		360	/* default width and height, px */
#define BOARD_SVG_SIZE_MIN	16
#define BOARD_SVG_SIZE_MAX	2048

/* Room for any board with any options, with the NUL (the start position,
 * interactive with coordinates, takes about 11 KB). */
#define BOARD_SVG_MAX		24576

/*
 * What to draw. A zeroed struct is a valid choice: White at the bottom,
 * BOARD_SVG_SIZE, no marks, no coordinates, English.
 */
struct board_svg_opts {
	bool		flip;		/* Black at the bottom */
	bool		coords;		/* files and ranks along the edges
					   (legible from about 200 px) */
	bool		check;		/* mark the side to move's king, if in
					   check */
	bool		interactive;	/* per-square rects, data- attributes */
	unsigned	size;		/* px, 0 = default; clamped to
					   BOARD_SVG_SIZE_MIN..MAX */
	uint8_t		last_from;	/* last move's squares, highlighted; */
	uint8_t		last_to;	/* none when equal or either > 63 */
	enum chess_lang	lang;		/* of the title and description */
};

/*
 * Write the SVG of `pos` to buf, like snprintf: at most size - 1 bytes and
 * a NUL (when size > 0). Returns the length of the whole document; a result
 * >= size means it was cut (BOARD_SVG_MAX is always enough). buf may be NULL
 * when size is 0, to learn the length. `opts` may be NULL (defaults). Pieces
 * are read from pos->board; a square holding no valid piece code is drawn
 * empty. Pure: no I/O, no allocation, no state; safe from any thread.
 */
size_t board_svg(const struct chess_position *, const struct board_svg_opts *,
    char *buf, size_t size);

/*
 * Set the last move's squares from a move of the rules core. Castling
 * (encoded king takes own rook) shows the king's start and its destination
 * (the g or c file), or the rook's square when the king does not move
 * (Chess960). CHESS_MOVE_NONE clears them.
 */
void board_svg_last_move(struct board_svg_opts *, chess_move m);

#endif /* CORRCHESS_WEB_BOARD_SVG_H */
