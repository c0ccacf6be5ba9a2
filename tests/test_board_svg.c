/*
 * tests/test_board_svg.c: tests of the SVG board and the position in words.
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
 * The pieces are read back from the SVG's own markers (data-piece,
 * data-square, x, y), the words compared exactly, every output checked
 * with xmllint --noout when xmllint (libxml2-utils) is installed.
 */

#include <sys/wait.h>

#include "testutil.h"

#include "chess/chess.h"
#include "web/board_svg.h"
#include "web/board_words.h"

#define START_FEN \
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE_FEN \
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define FOOLS_MATE_FEN \
	"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
#define CHECK_FEN	"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
#define STALEMATE_FEN	"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
#define PAWNS_FEN	"4k3/8/8/8/8/1P6/P1P5/4K3 w - - 0 1"
/* Every square taken: the longest words and the most pieces. */
#define FULL_FEN \
	"rnbqkbnr/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/" \
	"RNBQKBNR b - - 0 1"

/* Positions drawn by the tests that read pieces back. */
static const char *const fens[] = {
	START_FEN, KIWIPETE_FEN, FOOLS_MATE_FEN, CHECK_FEN, STALEMATE_FEN,
	PAWNS_FEN, FULL_FEN,
	"8/2P5/8/8/3k4/8/5p2/2K5 b - - 0 60",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
};

static char	svg[BOARD_SVG_MAX];

/* Parse a FEN the test relies on. */
static void
parse_fen(struct chess_position *pos, const char *fen)
{
	enum chess_error	e = chess_fen_parse(pos, fen, 0);

	if (e != CHESS_OK)
		fail_msg("%s: %s", fen, chess_strerror(e));
}

/* Draw `fen` with `opts` into svg; returns the length. */
static size_t
draw(const char *fen, const struct board_svg_opts *opts)
{
	struct chess_position	pos;
	size_t			n;

	parse_fen(&pos, fen);
	n = board_svg(&pos, opts, svg, sizeof svg);
	assert_true(n < sizeof svg);
	assert_int_equal(strlen(svg), n);
	return n;
}

/* Number of times `needle` occurs in `s`. */
static int
count(const char *s, const char *needle)
{
	int	n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* The value of attribute `name` of the element starting at `elem` (up to
 * its '>'), copied to out; false when the element has none. */
static bool
attr(const char *elem, const char *name, char *out, size_t size)
{
	const char	*end = strchr(elem, '>'), *p, *q;
	char		 key[64];

	snprintf(key, sizeof key, " %s=\"", name);
	p = strstr(elem, key);
	if (p == NULL || end == NULL || p > end)
		return false;
	p += strlen(key);
	if ((q = strchr(p, '"')) == NULL || q > end)
		return false;
	snprintf(out, size, "%.*s", (int)(q - p), p);
	return true;
}

/* An attribute that must be there, as a number. */
static int
attr_int(const char *elem, const char *name)
{
	char	val[32];

	if (!attr(elem, name, val, sizeof val))
		fail_msg("no %s in %.60s", name, elem);
	return atoi(val);
}

/* Square number of a name such as "e4", or -1. */
static int
square_of(const char *name)
{
	if (strlen(name) != 2 || name[0] < 'a' || name[0] > 'h' ||
	    name[1] < '1' || name[1] > '8')
		return -1;
	return CHESS_SQ(name[0] - 'a', name[1] - '1');
}

/* Expected top-left corner of a square. */
static void
corner(int sq, bool flip, int *x, int *y)
{
	*x = 100 * (flip ? 7 - CHESS_FILE(sq) : CHESS_FILE(sq));
	*y = 100 * (flip ? CHESS_RANK(sq) : 7 - CHESS_RANK(sq));
}

/*
 * Read the pieces back from an interactive SVG: every <use class="cc-piece">
 * gives its FEN letter and square, must stand at that square's corner and
 * point at the matching definition. Returns the count; board[] gets the
 * letters ('.' for empty).
 */
static int
read_pieces(const char *s, bool flip, char board[64])
{
	const char	*p;
	char		 letter[8], sqname[8], href[16], want[16];
	int		 n = 0, sq, x, y;

	memset(board, '.', 64);
	for (p = s; (p = strstr(p, "<use class=\"cc-piece\"")) != NULL; p++) {
		assert_true(attr(p, "data-piece", letter, sizeof letter));
		assert_true(attr(p, "data-square", sqname, sizeof sqname));
		assert_true(attr(p, "href", href, sizeof href));
		assert_int_equal(strlen(letter), 1);
		assert_non_null(strchr("PNBRQKpnbrqk", letter[0]));
		sq = square_of(sqname);
		assert_true(sq >= 0);
		assert_int_equal(board[sq], '.');
		board[sq] = letter[0];
		snprintf(want, sizeof want, "#cc-%c", letter[0] | 0x20);
		assert_string_equal(href, want);
		corner(sq, flip, &x, &y);
		assert_int_equal(attr_int(p, "x"), x);
		assert_int_equal(attr_int(p, "y"), y);
		/* The piece sits in its side's group. */
		n++;
	}
	return n;
}

/* The FEN letters of a position's pieces by square. */
static int
expected_pieces(const struct chess_position *pos, char board[64])
{
	static const char	letters[2][7] = { "PNBRQK", "pnbrqk" };
	int			sq, n = 0, p;

	for (sq = 0; sq < 64; sq++) {
		p = pos->board[sq];
		board[sq] = p == CHESS_EMPTY ? '.' :
		    letters[CHESS_PIECE_COLOR(p)][CHESS_PIECE_TYPE(p)];
		n += p != CHESS_EMPTY;
	}
	return n;
}

/* The start position: 32 pieces on their squares, 64 squares. */
static void
test_start(void **state)
{
	struct board_svg_opts	opts = { .interactive = true };
	char			got[64];
	const char		*black;

	(void)state;
	draw(START_FEN, &opts);
	assert_int_equal(read_pieces(svg, false, got), 32);
	assert_memory_equal(got,
	    "RNBQKBNR" "PPPPPPPP" "........" "........"
	    "........" "........" "pppppppp" "rnbqkbnr", 64);
	assert_int_equal(count(svg, "<rect class=\"cc-sq\""), 64);
	assert_int_equal(count(svg, "data-square=\""), 64 + 32);
	assert_non_null(strstr(svg, " data-orientation=\"white\""));
	/* White's pieces come before the black group, Black's after it. */
	black = strstr(svg, "<g class=\"cc-black\"");
	assert_non_null(black);
	assert_int_equal(count(black, "data-piece=\"P\""), 0);
	assert_int_equal(count(black, "data-piece=\"p\""), 8);
	/* Each kind of piece drawn once, used many times. */
	assert_int_equal(count(svg, "<g id=\"cc-"), 6);
	assert_int_equal(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"",
	    39), 0);
	assert_int_equal(count(svg, "<svg"), 1);
	assert_int_equal(strcmp(svg + strlen(svg) - 7, "</svg>\n"), 0);
}

/* Every test position, both ways up: the right pieces on the right squares,
 * and only the kinds on the board defined. */
static void
test_positions(void **state)
{
	struct board_svg_opts	opts = { .interactive = true };
	struct chess_position	pos;
	char			got[64], want[64], id[16];
	size_t			i;
	int			flip, n, type;

	(void)state;
	for (i = 0; i < sizeof fens / sizeof fens[0]; i++) {
		parse_fen(&pos, fens[i]);
		n = expected_pieces(&pos, want);
		for (flip = 0; flip < 2; flip++) {
			opts.flip = flip;
			draw(fens[i], &opts);
			assert_int_equal(read_pieces(svg, flip, got), n);
			assert_memory_equal(got, want, 64);
			for (type = 0; type < 6; type++) {
				snprintf(id, sizeof id, "<g id=\"cc-%c\">",
				    "pnbrqk"[type]);
				assert_int_equal(count(svg, id),
				    memchr(want, "PNBRQK"[type], 64) != NULL ||
				    memchr(want, "pnbrqk"[type], 64) != NULL);
			}
		}
	}
}

/* Flip reverses the squares, the pieces, the coordinates. */
static void
test_flip(void **state)
{
	struct board_svg_opts	opts = { .interactive = true, .coords = true };
	const char		*p;
	int			flip, sq, x, y, seen;
	char			name[8];

	(void)state;
	for (flip = 0; flip < 2; flip++) {
		opts.flip = flip;
		draw(START_FEN, &opts);
		assert_non_null(strstr(svg, flip ?
		    " data-orientation=\"black\"" :
		    " data-orientation=\"white\""));
		/* Every square's rect at its corner. */
		seen = 0;
		for (p = svg; (p = strstr(p, "<rect class=\"cc-sq\"")) != NULL;
		    p++) {
			assert_true(attr(p, "data-square", name, sizeof name));
			sq = square_of(name);
			assert_true(sq >= 0);
			corner(sq, flip, &x, &y);
			assert_int_equal(attr_int(p, "x"), x);
			assert_int_equal(attr_int(p, "y"), y);
			seen++;
		}
		assert_int_equal(seen, 64);
		/* a1 bottom left, or top right upside down. */
		assert_non_null(strstr(svg, flip ?
		    "data-square=\"a1\" x=\"700\" y=\"0\"" :
		    "data-square=\"a1\" x=\"0\" y=\"700\""));
		assert_non_null(strstr(svg, flip ?
		    "data-square=\"h8\" x=\"0\" y=\"700\"" :
		    "data-square=\"h8\" x=\"700\" y=\"0\""));
		/* The file letters run a..h, or h..a; ranks 8..1, or 1..8. */
		assert_non_null(strstr(svg, flip ?
		    "<text x=\"96\" y=\"795\" text-anchor=\"end\">h</text>" :
		    "<text x=\"96\" y=\"795\" text-anchor=\"end\">a</text>"));
		assert_non_null(strstr(svg, flip ?
		    "<text x=\"796\" y=\"795\" text-anchor=\"end\">a</text>" :
		    "<text x=\"796\" y=\"795\" text-anchor=\"end\">h</text>"));
		assert_non_null(strstr(svg, flip ?
		    "<text x=\"4\" y=\"22\">1</text>" :
		    "<text x=\"4\" y=\"22\">8</text>"));
		assert_non_null(strstr(svg, flip ?
		    "<text x=\"4\" y=\"722\">8</text>" :
		    "<text x=\"4\" y=\"722\">1</text>"));
		assert_int_equal(count(svg, "<text "), 16);
	}
}

/* Coordinates only when asked, each in the other squares' colour. */
static void
test_coords(void **state)
{
	struct board_svg_opts	opts = { 0 };
	const char		*light, *dark;

	(void)state;
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-coord"));
	assert_null(strstr(svg, "<text"));
	opts.coords = true;
	draw(START_FEN, &opts);
	light = strstr(svg, "<g class=\"cc-on-light\"");
	dark = strstr(svg, "<g class=\"cc-on-dark\"");
	assert_non_null(light);
	assert_non_null(dark);
	assert_true(light < dark);
	/* a1 is dark, so "a" and "1" are drawn in the light colour; a8 is
	 * light, so "8" in the dark one. */
	assert_non_null(strstr(dark, ">a</text>"));
	assert_non_null(strstr(dark, ">1</text>"));
	assert_non_null(strstr(light, ">8</text>"));
	assert_true(strstr(light, ">8</text>") < dark);
	assert_non_null(strstr(light, ">b</text>"));
	assert_true(strstr(light, ">b</text>") < dark);
}

/* Count the marks of class `cls` and check each sits on one of the
 * squares `a` or `b`. */
static int
marks_on(const char *cls, bool flip, int a, int b)
{
	char		 pat[64];
	const char	*p;
	int		 n = 0, xa, ya, xb, yb, x, y;

	snprintf(pat, sizeof pat, "<rect class=\"%s\"", cls);
	corner(a, flip, &xa, &ya);
	corner(b, flip, &xb, &yb);
	for (p = svg; (p = strstr(p, pat)) != NULL; p++) {
		x = attr_int(p, "x");
		y = attr_int(p, "y");
		assert_true((x == xa && y == ya) || (x == xb && y == yb));
		assert_int_equal(attr_int(p, "width"), 100);
		n++;
	}
	return n;
}

/* The last move: two marks when given, none otherwise. */
static void
test_last_move(void **state)
{
	struct board_svg_opts	opts = { 0 };
	int			flip, e2 = CHESS_SQ(4, 1), e4 = CHESS_SQ(4, 3);

	(void)state;
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-last"));
	for (flip = 0; flip < 2; flip++) {
		opts.flip = flip;
		opts.last_from = e2;
		opts.last_to = e4;
		draw(START_FEN, &opts);
		assert_int_equal(marks_on("cc-last", flip, e2, e4), 2);
		/* Between the squares and the pieces. */
		assert_true(strstr(svg, "cc-last") > strstr(svg, "cc-dark"));
		assert_true(strstr(svg, "cc-last") < strstr(svg, "cc-pieces"));
	}
	opts.last_from = opts.last_to = e4;
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-last"));
	opts.last_from = e2;
	opts.last_to = CHESS_SQ_NONE;
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-last"));
}

/* board_svg_last_move(): plain moves, castling, Chess960 castling. */
static void
test_last_move_of(void **state)
{
	struct board_svg_opts	opts = { 0 };
	struct chess_position	pos;
	chess_move		m;

	(void)state;
	parse_fen(&pos, KIWIPETE_FEN);
	assert_int_equal(chess_move_parse(&pos, "O-O", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_OK);
	board_svg_last_move(&opts, m);
	assert_int_equal(opts.last_from, CHESS_SQ(4, 0));
	assert_int_equal(opts.last_to, CHESS_SQ(6, 0));
	assert_int_equal(chess_move_parse(&pos, "O-O-O", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_OK);
	board_svg_last_move(&opts, m);
	assert_int_equal(opts.last_to, CHESS_SQ(2, 0));
	assert_int_equal(chess_move_parse(&pos, "Nxf7", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_OK);
	board_svg_last_move(&opts, m);
	assert_int_equal(opts.last_from, CHESS_SQ(4, 4));
	assert_int_equal(opts.last_to, CHESS_SQ(5, 6));

	/* Chess960, king already on g1: the rook's square is shown. */
	assert_int_equal(chess_fen_parse(&pos, "4k3/8/8/8/8/8/8/6KR w H - 0 1",
	    CHESS_FEN_960), CHESS_OK);
	assert_int_equal(chess_move_parse(&pos, "O-O", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_OK);
	board_svg_last_move(&opts, m);
	assert_int_equal(opts.last_from, CHESS_SQ(6, 0));
	assert_int_equal(opts.last_to, CHESS_SQ(7, 0));

	board_svg_last_move(&opts, CHESS_MOVE_NONE);
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-last"));
}

/* The check mark: only when asked and when the king is in check. */
static void
test_check(void **state)
{
	struct board_svg_opts	opts = { 0 };
	int			flip, e1 = CHESS_SQ(4, 0), e8 = CHESS_SQ(4, 7);

	(void)state;
	draw(CHECK_FEN, &opts);
	assert_null(strstr(svg, "cc-check"));
	assert_null(strstr(svg, "cc-glow"));
	opts.check = true;
	draw(START_FEN, &opts);
	assert_null(strstr(svg, "cc-check"));
	assert_null(strstr(svg, "cc-glow"));
	for (flip = 0; flip < 2; flip++) {
		opts.flip = flip;
		draw(CHECK_FEN, &opts);
		assert_int_equal(marks_on("cc-check", flip, e1, e1), 1);
		assert_int_equal(count(svg, "<radialGradient id=\"cc-glow\">"),
		    1);
		assert_int_equal(count(svg, "url(#cc-glow)"), 1);
		/* Black mated: the black king marked. */
		draw("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq"
		    " - 0 4", &opts);
		assert_int_equal(marks_on("cc-check", flip, e8, e8), 1);
	}
}

/* Without the interactive option: no per-square rects, no data- marks, the
 * same pieces as bare <use> elements. */
static void
test_plain(void **state)
{
	struct board_svg_opts	opts = { 0 };
	size_t			plain, rich;

	(void)state;
	plain = draw(START_FEN, &opts);
	assert_null(strstr(svg, "data-"));
	assert_null(strstr(svg, "cc-sq"));
	assert_null(strstr(svg, "cc-piece\""));
	assert_int_equal(count(svg, "<use href=\"#cc-"), 32);
	assert_int_equal(count(svg, "<use href=\"#cc-p\""), 16);
	assert_int_equal(count(svg, "<use href=\"#cc-k\""), 2);
	assert_non_null(strstr(svg, "<use href=\"#cc-k\" x=\"400\" y=\"700\"/>"));
	assert_non_null(strstr(svg, "<use href=\"#cc-k\" x=\"400\" y=\"0\"/>"));
	/* One dark shape of 32 squares, a1 among them. */
	assert_int_equal(count(svg, "h100v100h-100z"), 32);
	assert_non_null(strstr(svg, "M0 700h100v100h-100z"));
	opts.interactive = true;
	rich = draw(START_FEN, &opts);
	assert_true(plain < rich);
}

/* Width and height follow the size option, clamped; the viewBox stays. */
static void
test_size_option(void **state)
{
	static const struct { unsigned in, out; } sizes[] = {
		{ 0, 360 }, { 1, 16 }, { 15, 16 }, { 16, 16 }, { 64, 64 },
		{ 720, 720 }, { 2048, 2048 }, { 2049, 2048 },
		{ 4000000000u, 2048 },
	};
	struct board_svg_opts	opts = { 0 };
	char			want[64];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		opts.size = sizes[i].in;
		draw(START_FEN, &opts);
		snprintf(want, sizeof want, " width=\"%u\" height=\"%u\"",
		    sizes[i].out, sizes[i].out);
		assert_non_null(strstr(svg, want));
		assert_non_null(strstr(svg, " viewBox=\"0 0 800 800\""));
	}
	draw(START_FEN, NULL);
	assert_non_null(strstr(svg, " width=\"360\" height=\"360\""));
}

/* Sizes: the start position under 12 KB with every option, the fullest
 * board within BOARD_SVG_MAX and its words within BOARD_WORDS_MAX. */
static void
test_size_bounds(void **state)
{
	struct board_svg_opts	opts = { .interactive = true, .coords = true,
	    .check = true, .size = 2048, .last_from = 12, .last_to = 28 };
	struct chess_position	pos;
	char			words[BOARD_WORDS_MAX];
	size_t			n, worst = 0;
	int			lang;

	(void)state;
	n = draw(START_FEN, &opts);
	print_message("start position, interactive with coordinates: "
	    "%zu bytes\n", n);
	assert_true(n < 12 * 1024);
	opts.interactive = opts.coords = false;
	n = draw(START_FEN, &opts);
	print_message("start position, plain: %zu bytes\n", n);
	assert_true(n < 8 * 1024);

	opts.interactive = opts.coords = true;
	for (lang = 0; lang < 2; lang++) {
		opts.lang = lang;
		n = draw(FULL_FEN, &opts);
		worst = n > worst ? n : worst;
		n = draw(KIWIPETE_FEN, &opts);
		worst = n > worst ? n : worst;
		parse_fen(&pos, FULL_FEN);
		n = board_words(&pos, lang, words, sizeof words);
		print_message("full board in words (%s): %zu bytes\n",
		    lang ? "fr" : "en", n);
		assert_true(n < sizeof words);
	}
	print_message("largest SVG: %zu of %d bytes\n", worst, BOARD_SVG_MAX);
	assert_true(worst < BOARD_SVG_MAX);
	assert_true(worst < BOARD_SVG_MAX * 3 / 4);
}

/* The position in words, English. */
static void
test_words_en(void **state)
{
	static const struct { const char *fen, *words; } cases[] = {
		{ START_FEN,
		  "White: King e1, Queen d1, Rooks a1 h1, Bishops c1 f1, "
		  "Knights b1 g1, Pawns a2 b2 c2 d2 e2 f2 g2 h2. "
		  "Black: King e8, Queen d8, Rooks a8 h8, Bishops c8 f8, "
		  "Knights b8 g8, Pawns a7 b7 c7 d7 e7 f7 g7 h7. "
		  "White to move." },
		{ CHECK_FEN,
		  "White: King e1. Black: King e8, Rook e2. White to move. "
		  "White is in check." },
		{ FOOLS_MATE_FEN,
		  "White: King e1, Queen d1, Rooks a1 h1, Bishops c1 f1, "
		  "Knights b1 g1, Pawns a2 b2 c2 d2 e2 f3 g4 h2. "
		  "Black: King e8, Queen h4, Rooks a8 h8, Bishops c8 f8, "
		  "Knights b8 g8, Pawns a7 b7 c7 d7 e5 f7 g7 h7. "
		  "White to move. White is checkmated." },
		{ STALEMATE_FEN,
		  "White: King g6, Queen f7. Black: King h8. Black to move. "
		  "Black is stalemated." },
		{ PAWNS_FEN,
		  "White: King e1, Pawns a2 b3 c2. Black: King e8. "
		  "White to move." },
		{ "8/2P5/8/8/3k4/8/5p2/2K5 b - - 0 60",
		  "White: King c1, Pawn c7. Black: King d4, Pawn f2. "
		  "Black to move." },
	};
	struct chess_position	pos;
	char			buf[BOARD_WORDS_MAX];
	size_t			i, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		parse_fen(&pos, cases[i].fen);
		n = board_words(&pos, CHESS_LANG_EN, buf, sizeof buf);
		assert_string_equal(buf, cases[i].words);
		assert_int_equal(n, strlen(cases[i].words));
	}
}

/* The position in words, French. */
static void
test_words_fr(void **state)
{
	static const struct { const char *fen, *words; } cases[] = {
		{ START_FEN,
		  "Blancs : Roi e1, Dame d1, Tours a1 h1, Fous c1 f1, "
		  "Cavaliers b1 g1, Pions a2 b2 c2 d2 e2 f2 g2 h2. "
		  "Noirs : Roi e8, Dame d8, Tours a8 h8, Fous c8 f8, "
		  "Cavaliers b8 g8, Pions a7 b7 c7 d7 e7 f7 g7 h7. "
		  "Trait aux Blancs." },
		{ CHECK_FEN,
		  "Blancs : Roi e1. Noirs : Roi e8, Tour e2. Trait aux Blancs. "
		  "Les Blancs sont en \xc3\xa9" "chec." },
		{ FOOLS_MATE_FEN,
		  "Blancs : Roi e1, Dame d1, Tours a1 h1, Fous c1 f1, "
		  "Cavaliers b1 g1, Pions a2 b2 c2 d2 e2 f3 g4 h2. "
		  "Noirs : Roi e8, Dame h4, Tours a8 h8, Fous c8 f8, "
		  "Cavaliers b8 g8, Pions a7 b7 c7 d7 e5 f7 g7 h7. "
		  "Trait aux Blancs. Les Blancs sont mat." },
		{ STALEMATE_FEN,
		  "Blancs : Roi g6, Dame f7. Noirs : Roi h8. Trait aux Noirs. "
		  "Les Noirs sont pat." },
		{ "8/2P5/8/8/3k4/8/5p2/2K5 b - - 0 60",
		  "Blancs : Roi c1, Pion c7. Noirs : Roi d4, Pion f2. "
		  "Trait aux Noirs." },
	};
	struct chess_position	pos;
	char			buf[BOARD_WORDS_MAX];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		parse_fen(&pos, cases[i].fen);
		board_words(&pos, CHESS_LANG_FR, buf, sizeof buf);
		assert_string_equal(buf, cases[i].words);
	}
}

/* Title, description and lang in the SVG, escaped. */
static void
test_title_desc(void **state)
{
	struct board_svg_opts	opts = { 0 };
	struct chess_position	pos;
	char			words[BOARD_WORDS_MAX], want[BOARD_WORDS_MAX + 32];

	(void)state;
	parse_fen(&pos, CHECK_FEN);
	draw(CHECK_FEN, &opts);
	assert_non_null(strstr(svg, " role=\"img\""));
	assert_non_null(strstr(svg, " lang=\"en\""));
	assert_non_null(strstr(svg,
	    "><title>Chess position, White to move</title><desc>"));
	board_words(&pos, CHESS_LANG_EN, words, sizeof words);
	snprintf(want, sizeof want, "<desc>%s</desc>", words);
	assert_non_null(strstr(svg, want));

	opts.lang = CHESS_LANG_FR;
	draw(STALEMATE_FEN, &opts);
	assert_non_null(strstr(svg, " lang=\"fr\""));
	assert_non_null(strstr(svg, "<title>Position d&#39;\xc3\xa9" "checs, "
	    "trait aux Noirs</title>"));
	assert_non_null(strstr(svg, "<desc>Blancs : Roi g6, Dame f7. "
	    "Noirs : Roi h8. Trait aux Noirs. Les Noirs sont pat.</desc>"));
	/* No markup character in any text. */
	assert_null(strstr(svg, "d'"));
}

/* Squares holding no valid piece code are drawn empty. */
static void
test_junk_squares(void **state)
{
	struct board_svg_opts	opts = { .interactive = true };
	struct chess_position	pos;
	char			got[64];

	(void)state;
	parse_fen(&pos, CHECK_FEN);
	pos.board[CHESS_SQ(0, 3)] = 0x0e;	/* type 6 */
	pos.board[CHESS_SQ(1, 3)] = 0x13;	/* colour 2 */
	pos.board[CHESS_SQ(2, 3)] = 0x7f;
	assert_true(board_svg(&pos, &opts, svg, sizeof svg) < sizeof svg);
	assert_int_equal(read_pieces(svg, false, got), 3);
	assert_int_equal(got[CHESS_SQ(4, 0)], 'K');
	assert_int_equal(got[CHESS_SQ(4, 1)], 'r');
	assert_int_equal(got[CHESS_SQ(4, 7)], 'k');
}

/* True if xmllint runs here. */
static bool
have_xmllint(void)
{
	return system("xmllint --version >/dev/null 2>&1") == 0;
}

/* Every position with every option set, well-formed XML by xmllint. */
static void
test_xmllint(void **state)
{
	char			dir[512], path[600], cmd[1400];
	struct board_svg_opts	opts;
	struct chess_position	pos;
	FILE			*f;
	size_t			i, n;
	unsigned		bits;
	int			files = 0, rc;

	(void)state;
	if (!have_xmllint()) {
		print_message("xmllint not installed (libxml2-utils): "
		    "SVG well-formedness not checked\n");
		skip();
	}
	test_mkdtemp(dir, sizeof dir, "test_board_svg");
	for (i = 0; i < sizeof fens / sizeof fens[0]; i++) {
		parse_fen(&pos, fens[i]);
		for (bits = 0; bits < 32; bits++) {
			memset(&opts, 0, sizeof opts);
			opts.flip = bits & 1;
			opts.coords = bits & 2;
			opts.check = bits & 4;
			opts.interactive = bits & 8;
			opts.lang = bits & 16 ? CHESS_LANG_FR : CHESS_LANG_EN;
			opts.last_from = bits & 4 ? 12 : 0;
			opts.last_to = bits & 4 ? 28 : 0;
			n = board_svg(&pos, &opts, svg, sizeof svg);
			assert_true(n < sizeof svg);
			snprintf(path, sizeof path, "%s/%02zu-%02u.svg", dir,
			    i, bits);
			f = fopen(path, "w");
			assert_non_null(f);
			assert_int_equal(fwrite(svg, 1, n, f), n);
			assert_int_equal(fclose(f), 0);
			files++;
		}
	}
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s'/*.svg", dir);
	rc = system(cmd);
	test_rmdir(dir);
	assert_true(WIFEXITED(rc));
	assert_int_equal(WEXITSTATUS(rc), 0);
	print_message("xmllint: %d documents well-formed\n", files);
}

/* Small buffers: the length reported, the text cut, nothing written past
 * the end (a guard after the buffer, and valgrind). */
static void
test_truncation(void **state)
{
	struct board_svg_opts	opts = { .interactive = true, .coords = true,
	    .lang = CHESS_LANG_FR };
	struct chess_position	pos;
	char			full[BOARD_SVG_MAX], *buf;
	size_t			len, size, n, kept;
	const size_t		guard = 16;

	(void)state;
	parse_fen(&pos, START_FEN);
	len = board_svg(&pos, &opts, full, sizeof full);
	assert_int_equal(board_svg(&pos, &opts, NULL, 0), len);
	for (size = 1; size <= len + 2; size++) {
		/* Every size near both ends, a sample between. */
		if (size > 300 && size + 300 < len && size % 61 != 0)
			continue;
		buf = malloc(size + guard);
		assert_non_null(buf);
		memset(buf, '#', size + guard);
		n = board_svg(&pos, &opts, buf, size);
		assert_int_equal(n, len);
		kept = size - 1 < len ? size - 1 : len;
		assert_int_equal(buf[kept], '\0');
		assert_memory_equal(buf, full, kept);
		for (n = size; n < size + guard; n++)
			assert_int_equal(buf[n], '#');
		free(buf);
	}
	/* Size 0 leaves the buffer alone. */
	buf = malloc(guard);
	assert_non_null(buf);
	memset(buf, '#', guard);
	assert_int_equal(board_svg(&pos, &opts, buf, 0), len);
	assert_int_equal(buf[0], '#');
	free(buf);
}

/* Words cut short: never half an UTF-8 character, never past the end. */
static void
test_words_truncation(void **state)
{
	struct chess_position	pos;
	char			full[BOARD_WORDS_MAX], *buf;
	size_t			len, size, kept, i;
	const size_t		guard = 16;

	(void)state;
	parse_fen(&pos, CHECK_FEN);
	len = board_words(&pos, CHESS_LANG_FR, full, sizeof full);
	assert_int_equal(board_words(&pos, CHESS_LANG_FR, NULL, 0), len);
	/* "... en échec.": é is two bytes, at len - 7 and len - 6. */
	assert_int_equal((unsigned char)full[len - 7], 0xc3);
	for (size = 1; size <= len + 2; size++) {
		buf = malloc(size + guard);
		assert_non_null(buf);
		memset(buf, '#', size + guard);
		assert_int_equal(board_words(&pos, CHESS_LANG_FR, buf, size),
		    len);
		kept = strlen(buf);
		assert_true(kept < size);
		assert_memory_equal(buf, full, kept);
		if (size - 1 == len - 6)	/* would end inside é */
			assert_int_equal(kept, len - 7);
		else
			assert_int_equal(kept, size - 1 < len ? size - 1 : len);
		for (i = size; i < size + guard; i++)
			assert_int_equal(buf[i], '#');
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_flip),
		cmocka_unit_test(test_coords),
		cmocka_unit_test(test_last_move),
		cmocka_unit_test(test_last_move_of),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_size_option),
		cmocka_unit_test(test_size_bounds),
		cmocka_unit_test(test_words_en),
		cmocka_unit_test(test_words_fr),
		cmocka_unit_test(test_title_desc),
		cmocka_unit_test(test_junk_squares),
		cmocka_unit_test(test_xmllint),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_words_truncation),
	};

	chess_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
