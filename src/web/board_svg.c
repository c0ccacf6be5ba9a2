/*
 * web/board_svg.c: the board as SVG, drawn on the server.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "web/board_svg.h"
#include "web/board_words.h"

#define SQ_UNITS	100	/* a square in viewBox units */

/* Default colours; a page stylesheet overrides them by class. */
#define COLOR_LIGHT	"#ecdab9"
#define COLOR_DARK	"#ae8a68"
#define COLOR_ON_LIGHT	"#8a6446"	/* coordinates on a light square */
#define COLOR_ON_DARK	"#f6ead4"
#define COLOR_LAST	"#d8cf3a"
#define COLOR_WHITE	"fill=\"#fff\" stroke=\"#1a1a1a\" color=\"#1a1a1a\""
#define COLOR_BLACK	"fill=\"#333\" stroke=\"#000\" color=\"#e8e8e8\""

/*
 * The pieces, drawn for corrchess in a 100 x 100 square: a plinth, a body,
 * the piece's head. Shapes take fill and stroke from the <use>; details in
 * currentColor. By piece type: pawn, knight, bishop, rook, queen, king.
 */
static const char	 piece_ids[6] = { 'p', 'n', 'b', 'r', 'q', 'k' };
static const char	*piece_shapes[6] = {
	/* Pawn: a ball on a collar over a flared foot. */
	"<path d=\"M30 84c0-14 10-20 13-30h14c3 10 13 16 13 30z\"/>"
	"<rect x=\"37\" y=\"48\" width=\"26\" height=\"7\" rx=\"3\"/>"
	"<circle cx=\"50\" cy=\"35\" r=\"12\"/>",
	/* Knight: a horse's head facing left, eye and mane. */
	"<path d=\"M72 84c6-22 0-50-16-62l-2-9-7 8c-10 2-18 10-23 26"
	"-3 6-2 10 3 11l14-5c5 0 5 6-1 12-6 7-9 13-10 19z\"/>"
	"<circle cx=\"42\" cy=\"33\" r=\"3\" fill=\"currentColor\""
	" stroke=\"none\"/>"
	"<path d=\"M62 28c6 10 8 24 6 40\" fill=\"none\""
	" stroke=\"currentColor\"/>",
	/* Bishop: a mitre with its cut, a bead on top. */
	"<path d=\"M32 84c2-9 8-11 9-16h18c1 5 7 7 9 16z\"/>"
	"<rect x=\"37\" y=\"62\" width=\"26\" height=\"7\" rx=\"3\"/>"
	"<path d=\"M50 22c-12 9-18 22-12 40h24c6-18 0-31-12-40z\"/>"
	"<circle cx=\"50\" cy=\"18\" r=\"5\"/>"
	"<path d=\"M44 44l11-12\" fill=\"none\" stroke=\"currentColor\"/>",
	/* Rook: a tower with three merlons. */
	"<path d=\"M31 82l4-36h30l4 36z\"/>"
	"<rect x=\"29\" y=\"40\" width=\"42\" height=\"7\" rx=\"2\"/>"
	"<path d=\"M29 22h10v7h6v-7h10v7h6v-7h10v18h-42z\"/>"
	"<path d=\"M35 47h30\" fill=\"none\" stroke=\"currentColor\"/>",
	/* Queen: a crown of five points, each with a ball. */
	"<path d=\"M30 84c2-12 6-20 6-26l-12-26 16 16 4-24 6 22 6-22 4 24"
	" 16-16-12 26c0 6 4 14 6 26z\"/>"
	"<circle cx=\"24\" cy=\"30\" r=\"4\"/>"
	"<circle cx=\"40\" cy=\"22\" r=\"4\"/>"
	"<circle cx=\"50\" cy=\"20\" r=\"4\"/>"
	"<circle cx=\"60\" cy=\"22\" r=\"4\"/>"
	"<circle cx=\"76\" cy=\"30\" r=\"4\"/>"
	"<path d=\"M36 60h28\" fill=\"none\" stroke=\"currentColor\"/>",
	/* King: a domed head under a cross. */
	"<path d=\"M30 84c2-14 8-22 9-34h22c1 12 7 20 9 34z\"/>"
	"<rect x=\"35\" y=\"44\" width=\"30\" height=\"7\" rx=\"3\"/>"
	"<path d=\"M36 44c-6-10 0-18 14-18s20 8 14 18z\"/>"
	"<path d=\"M47 6h6v6h6v6h-6v8h-6v-8h-6v-6h6z\"/>",
};

/* Every piece stands on the same plinth. */
static const char	 plinth[] =
	"<rect x=\"24\" y=\"82\" width=\"52\" height=\"8\" rx=\"3\"/>";

/* The glow under a king in check. */
static const char	 glow[] =
	"<radialGradient id=\"cc-glow\">"
	"<stop offset=\"0\" stop-color=\"#f00\"/>"
	"<stop offset=\".5\" stop-color=\"#e00\" stop-opacity=\".7\"/>"
	"<stop offset=\"1\" stop-color=\"#e00\" stop-opacity=\"0\"/>"
	"</radialGradient>";

static const char	*titles[2][2] = {
	{ "Chess position, White to move", "Chess position, Black to move" },
	{ "Position d'\xc3\xa9" "checs, trait aux Blancs",
	    "Position d'\xc3\xa9" "checs, trait aux Noirs" },
};

/* Output so far: buf holds at most size - 1 bytes, len counts them all. */
struct out {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

/* Append `n` bytes of `s`, keeping what fits. */
static void
out_add(struct out *o, const char *s, size_t n)
{
	size_t	room;

	if (o->len + 1 < o->size) {
		room = o->size - 1 - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/* Append markup we wrote ourselves. */
static void
out_str(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* Append formatted markup (short: numbers and square names). */
static void __attribute__((__format__(__printf__, 2, 3)))
out_fmt(struct out *o, const char *fmt, ...)
{
	char	tmp[256];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_add(o, tmp, (size_t)n < sizeof tmp ? (size_t)n :
		    sizeof tmp - 1);
}

/* Append text as XML character data, escaping every markup character. */
static void
out_text(struct out *o, const char *s)
{
	const char	*run;

	for (run = s; *s != '\0'; s++) {
		const char	*ent;

		switch (*s) {
		case '&':	ent = "&amp;"; break;
		case '<':	ent = "&lt;"; break;
		case '>':	ent = "&gt;"; break;
		case '"':	ent = "&quot;"; break;
		case '\'':	ent = "&#39;"; break;
		default:
			/* Controls other than tab and newline are not XML. */
			if ((unsigned char)*s < 0x20 && *s != '\t' &&
			    *s != '\n')
				ent = "";
			else
				continue;
		}
		out_add(o, run, s - run);
		out_str(o, ent);
		run = s + 1;
	}
	out_add(o, run, s - run);
}

/* End the output with its NUL; return the whole length. */
static size_t
out_finish(struct out *o)
{
	if (o->size > 0)
		o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len;
}

/* The piece code on `sq`, or CHESS_EMPTY when it holds none or junk. */
static int
piece_on(const struct chess_position *pos, int sq)
{
	int	p = pos->board[sq];

	if (p == CHESS_EMPTY || CHESS_PIECE_COLOR(p) > CHESS_BLACK ||
	    CHESS_PIECE_TYPE(p) > CHESS_KING)
		return CHESS_EMPTY;
	return p;
}

/* Top-left corner of square `sq` in viewBox units. */
static void
square_xy(int sq, bool flip, int *x, int *y)
{
	int	col = flip ? 7 - CHESS_FILE(sq) : CHESS_FILE(sq);
	int	row = flip ? CHESS_RANK(sq) : 7 - CHESS_RANK(sq);

	*x = col * SQ_UNITS;
	*y = row * SQ_UNITS;
}

/* True for a dark square (a1 is dark). */
static bool
square_dark(int sq)
{
	return (CHESS_FILE(sq) + CHESS_RANK(sq)) % 2 == 0;
}

/* The <defs>: the glow when a king is marked, the pieces on the board. */
static void
draw_defs(struct out *o, const struct chess_position *pos, bool glowing)
{
	unsigned	used = 0;
	int		sq, p, type;

	for (sq = 0; sq < 64; sq++)
		if ((p = piece_on(pos, sq)) != CHESS_EMPTY)
			used |= 1u << CHESS_PIECE_TYPE(p);
	if (used == 0 && !glowing)
		return;
	out_str(o, "<defs>");
	if (glowing)
		out_str(o, glow);
	for (type = CHESS_PAWN; type <= CHESS_KING; type++) {
		if ((used & 1u << type) == 0)
			continue;
		out_fmt(o, "<g id=\"cc-%c\">", piece_ids[type]);
		out_str(o, piece_shapes[type]);
		out_str(o, plinth);
		out_str(o, "</g>");
	}
	out_str(o, "</defs>");
}

/* The squares: one rect per square when interactive, else two shapes. */
static void
draw_squares(struct out *o, bool flip, bool interactive)
{
	int	sq, x, y, dark;
	char	name[3];

	if (!interactive) {
		out_str(o, "<rect class=\"cc-light\" width=\"800\""
		    " height=\"800\" fill=\"" COLOR_LIGHT "\"/>");
		out_str(o, "<path class=\"cc-dark\" fill=\"" COLOR_DARK
		    "\" d=\"");
		for (sq = 0; sq < 64; sq++) {
			if (!square_dark(sq))
				continue;
			square_xy(sq, flip, &x, &y);
			out_fmt(o, "M%d %dh100v100h-100z", x, y);
		}
		out_str(o, "\"/>");
		return;
	}
	for (dark = 0; dark < 2; dark++) {
		out_str(o, dark ? "<g class=\"cc-dark\" fill=\"" COLOR_DARK
		    "\">" : "<g class=\"cc-light\" fill=\"" COLOR_LIGHT "\">");
		for (sq = 0; sq < 64; sq++) {
			if (square_dark(sq) != dark)
				continue;
			square_xy(sq, flip, &x, &y);
			name[0] = 'a' + CHESS_FILE(sq);
			name[1] = '1' + CHESS_RANK(sq);
			name[2] = '\0';
			out_fmt(o, "<rect class=\"cc-sq\" data-square=\"%s\""
			    " x=\"%d\" y=\"%d\" width=\"100\" height=\"100\"/>",
			    name, x, y);
		}
		out_str(o, "</g>");
	}
}

/* A mark over one square: the last move's or the check glow. */
static void
draw_mark(struct out *o, int sq, bool flip, const char *attrs)
{
	int	x, y;

	square_xy(sq, flip, &x, &y);
	out_fmt(o, "<rect %s x=\"%d\" y=\"%d\" width=\"100\" height=\"100\"/>",
	    attrs, x, y);
}

/*
 * The coordinates, inside the edge squares in the colour of the other
 * squares: ranks at the top left of the left column, files at the bottom
 * right of the bottom row.
 */
static void
draw_coords(struct out *o, bool flip)
{
	int	i, on_dark, sq;

	out_str(o, "<g class=\"cc-coord\" font-family=\"sans-serif\""
	    " font-size=\"22\" font-weight=\"bold\">");
	for (on_dark = 0; on_dark < 2; on_dark++) {
		out_str(o, on_dark ? "<g class=\"cc-on-dark\" fill=\""
		    COLOR_ON_DARK "\">" : "<g class=\"cc-on-light\" fill=\""
		    COLOR_ON_LIGHT "\">");
		for (i = 0; i < 8; i++) {
			/* Rank label of row i: the square in the left column. */
			sq = flip ? CHESS_SQ(7, i) : CHESS_SQ(0, 7 - i);
			if (square_dark(sq) == on_dark)
				out_fmt(o, "<text x=\"4\" y=\"%d\">%c</text>",
				    i * SQ_UNITS + 22, '1' + CHESS_RANK(sq));
			/* File label of column i: the square in the bottom row. */
			sq = flip ? CHESS_SQ(7 - i, 7) : CHESS_SQ(i, 0);
			if (square_dark(sq) == on_dark)
				out_fmt(o, "<text x=\"%d\" y=\"795\""
				    " text-anchor=\"end\">%c</text>",
				    i * SQ_UNITS + 96, 'a' + CHESS_FILE(sq));
		}
		out_str(o, "</g>");
	}
	out_str(o, "</g>");
}

/* The pieces, White's then Black's, each side in its colour group. */
static void
draw_pieces(struct out *o, const struct chess_position *pos, bool flip,
    bool interactive)
{
	static const char	 letters[2][7] = { "PNBRQK", "pnbrqk" };
	int			 color, sq, p, x, y;

	out_str(o, "<g class=\"cc-pieces\" stroke-width=\"3\""
	    " stroke-linejoin=\"round\" stroke-linecap=\"round\">");
	for (color = CHESS_WHITE; color <= CHESS_BLACK; color++) {
		out_str(o, color == CHESS_WHITE ?
		    "<g class=\"cc-white\" " COLOR_WHITE ">" :
		    "<g class=\"cc-black\" " COLOR_BLACK ">");
		for (sq = 0; sq < 64; sq++) {
			p = piece_on(pos, sq);
			if (p == CHESS_EMPTY || CHESS_PIECE_COLOR(p) != color)
				continue;
			square_xy(sq, flip, &x, &y);
			if (interactive)
				out_fmt(o, "<use class=\"cc-piece\""
				    " href=\"#cc-%c\" data-piece=\"%c\""
				    " data-square=\"%c%c\" x=\"%d\" y=\"%d\"/>",
				    piece_ids[CHESS_PIECE_TYPE(p)],
				    letters[color][CHESS_PIECE_TYPE(p)],
				    'a' + CHESS_FILE(sq), '1' + CHESS_RANK(sq),
				    x, y);
			else
				out_fmt(o, "<use href=\"#cc-%c\" x=\"%d\""
				    " y=\"%d\"/>",
				    piece_ids[CHESS_PIECE_TYPE(p)], x, y);
		}
		out_str(o, "</g>");
	}
	out_str(o, "</g>");
}

/* Write the SVG of a position. */
size_t
board_svg(const struct chess_position *pos, const struct board_svg_opts *opts,
    char *buf, size_t size)
{
	static const struct board_svg_opts	 defaults;
	struct out				 o = { buf, size, 0 };
	char					 words[BOARD_WORDS_MAX];
	unsigned				 px;
	int					 side, king = CHESS_SQ_NONE;
	bool					 fr, last;

	if (opts == NULL)
		opts = &defaults;
	chess_init();
	fr = opts->lang == CHESS_LANG_FR;
	side = pos->side != CHESS_WHITE;
	px = opts->size == 0 ? BOARD_SVG_SIZE : opts->size;
	if (px < BOARD_SVG_SIZE_MIN)
		px = BOARD_SVG_SIZE_MIN;
	if (px > BOARD_SVG_SIZE_MAX)
		px = BOARD_SVG_SIZE_MAX;
	last = opts->last_from < 64 && opts->last_to < 64 &&
	    opts->last_from != opts->last_to;
	if (opts->check && chess_position_in_check(pos))
		king = chess_position_king(pos, side);

	out_fmt(&o, "<svg xmlns=\"http://www.w3.org/2000/svg\""
	    " viewBox=\"0 0 800 800\" width=\"%u\" height=\"%u\""
	    " role=\"img\" lang=\"%s\" class=\"cc-board\"", px, px,
	    fr ? "fr" : "en");
	if (opts->interactive)
		out_fmt(&o, " data-orientation=\"%s\"",
		    opts->flip ? "black" : "white");
	out_str(&o, ">");

	out_str(&o, "<title>");
	out_text(&o, titles[fr][side]);
	out_str(&o, "</title><desc>");
	board_words(pos, fr ? CHESS_LANG_FR : CHESS_LANG_EN, words,
	    sizeof words);
	out_text(&o, words);
	out_str(&o, "</desc>");

	draw_defs(&o, pos, king != CHESS_SQ_NONE);
	draw_squares(&o, opts->flip, opts->interactive);
	if (last) {
		draw_mark(&o, opts->last_from, opts->flip, "class=\"cc-last\""
		    " fill=\"" COLOR_LAST "\" fill-opacity=\".5\"");
		draw_mark(&o, opts->last_to, opts->flip, "class=\"cc-last\""
		    " fill=\"" COLOR_LAST "\" fill-opacity=\".5\"");
	}
	if (king != CHESS_SQ_NONE)
		draw_mark(&o, king, opts->flip,
		    "class=\"cc-check\" fill=\"url(#cc-glow)\"");
	if (opts->coords)
		draw_coords(&o, opts->flip);
	draw_pieces(&o, pos, opts->flip, opts->interactive);
	out_str(&o, "</svg>\n");
	return out_finish(&o);
}

/* Set the last move's squares from a move. */
void
board_svg_last_move(struct board_svg_opts *opts, chess_move m)
{
	int	from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m), dest;

	if (m == CHESS_MOVE_NONE) {
		opts->last_from = opts->last_to = CHESS_SQ_NONE;
		return;
	}
	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_CASTLE) {
		dest = CHESS_SQ(CHESS_FILE(to) > CHESS_FILE(from) ? 6 : 2,
		    CHESS_RANK(from));
		if (dest != from)
			to = dest;
	}
	opts->last_from = from;
	opts->last_to = to;
}
