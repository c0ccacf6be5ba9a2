/*
 * chess/notation.c: move notation read (SAN, UCI, long algebraic, ICCF) and written.
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
 * Move notation: reading what people type, writing SAN, UCI and ICCF.
 *
 * Parsing reads the text once into a pattern (piece type, what is known of
 * the origin square, target square, promotion piece, castling side) and
 * keeps the legal moves of the position that fit it, the way Stockfish's
 * UCI parser compares against each legal move; nothing is rendered per legal
 * move. One fit is the move; several make the text ambiguous; none make it
 * illegal, and only then do we look for the reason, with the attack tables.
 *
 * The legal moves that fit are found in two ways, with one answer. First
 * from the pattern itself (quick_match()): the pieces that can reach the
 * target square, each kept only if our king is safe after its move, or the
 * one move that both squares or a castling name. When that finds exactly
 * one move, it is the move. Otherwise (none, several, a promotion without
 * its piece, a king move that may be castling) the pattern is matched
 * against the full legal move list, which also gives the reasons. This is
 * the only move reader: PGN import uses it too. Building with
 * -DNOTATION_CHECK_LEGAL compares every quick answer with the full list
 * and each king-safety test with chess_move_is_legal(), and aborts on a
 * difference.
 *
 * What we accept, and the choices made for the lenient forms:
 *
 * - SAN with English (K Q R B N) or French (R D T F C) capital piece letters,
 *   by `lang`; pawns have no letter, or `P` in both languages. Lowercase
 *   piece letters are not taken (b is a file).
 * - The capture sign `x` (or `X`, `:`, `-`) is optional and not checked:
 *   "Nxe5" with e5 empty is Ne5. For a pawn it does decide between a push and
 *   a capture when no origin file is given: "e4" is a push, "xe4" a capture.
 * - Check and mate marks (`+`, `#`, `++`), annotation marks (`!`, `?`, `!!`,
 *   `?!`, ...) and an en-passant mark (`e.p.`, `ep`, with or without a space)
 *   at the end are read and ignored: people get them wrong, and the move is
 *   clear without them. So "Nf3#" is Nf3 even when it does not mate.
 * - Promotion as `=Q`, `Q`, `(Q)`, `/Q`, in either case. Letters of `lang`
 *   first, then the English ones that mean nothing else in `lang`: in
 *   French `e8=D`, `e8=T`, `e8=F`, `e8=C`, and also Q (queen), N (knight),
 *   B (bishop). A French R is the king: `e8=R` is refused, and the reason
 *   says that a rook is T. Only UCI's lowercase rook (`e7e8r`: both squares,
 *   nothing between them, no `=`) stays a rook in French, because UCI is
 *   English whatever the player's language. A promotion without its piece
 *   is ambiguous, never a queen by default.
 * - Castling as O-O, 0-0, o-o (and O-O-O ...) in both languages.
 * - Two squares, with or without a piece letter and a sign between them:
 *   long algebraic (e2-e4, Ng1-f3, Ng1f3, e7xd8=Q), UCI (e2e4, e7e8q). Here a
 *   king taking its own castling rook is castling (e1h1, any position), and
 *   in positions that are not Chess960 so is the king moving two files along
 *   the first rank (e1g1, e1c1). In Chess960 positions e1g1 is only ever a
 *   king step, as UCI requires.
 * - ICCF numeric: four digits 1-8 (file then rank, from then to), a fifth
 *   1-4 for the promotion piece (1 Q, 2 R, 3 B, 4 N). Castling is the king's
 *   move to the g or c file (5171, 5131; in Chess960 too), or king takes own
 *   rook. In Chess960 the king's destination can also be a plain king step
 *   (king f1, rook h1: 6171): the text then means the step, the only way to
 *   write it, and castling is written king takes rook (6181), which is what
 *   chess_move_iccf() writes in that case.
 * - Surrounding white space is ignored; text longer than NOTATION_TEXT_MAX
 *   after trimming is refused, and at most NOTATION_SCAN_MAX bytes are read.
 *
 * The reasons are written in `lang`: English, or French with its chess
 * words (roi, dame, tour, fou, cavalier, pion; les Blancs, les Noirs;
 * petit and grand roque) and its typography (a space before ":" and ";").
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/bitboard.h"
#include "chess/chess.h"

#define NOTATION_TEXT_MAX	32	/* longest move text after trimming */
#define NOTATION_SCAN_MAX	256	/* bytes we read at most */

/* What the text says about the move. */
enum pattern_form {
	FORM_SAN,		/* piece letter or pawn, partial origin */
	FORM_COORD,		/* both squares given: UCI, long algebraic */
	FORM_ICCF,		/* numeric */
	FORM_CASTLE		/* O-O, O-O-O */
};

enum castle_side { CASTLE_NONE = 0, CASTLE_KING, CASTLE_QUEEN };

struct pattern {
	int	form;
	int	piece;		/* piece type, -1 for any (coordinates) */
	int	from_file;	/* -1 when not given */
	int	from_rank;	/* -1 when not given */
	int	to;		/* target square */
	int	promo;		/* promotion piece type, -1 when not given */
	int	castle;		/* enum castle_side, for FORM_CASTLE */
	int	capture;	/* capture sign written */
	int	promo_letter;	/* the promotion letter as written, or 0 */
};

/* A sentence being built in the caller's buffer, in `lang`. */
struct why {
	char		*buf;
	size_t		 size;
	size_t		 len;
	enum chess_lang	 lang;
};

static const char *const color_names[2] = { "white", "black" };
static const char *const piece_names[6] = {
	"pawn", "knight", "bishop", "rook", "queen", "king"
};

/* French words: the sides as subjects, the pieces, and what agrees with
 * their gender (la tour, la dame; le pion, le cavalier, le fou, le roi). */
static const char *const fr_sides[2] = { "les Blancs", "les Noirs" };
static const char *const fr_pieces[6] = {
	"pion", "cavalier", "fou", "tour", "dame", "roi"
};

/* True for the French pieces whose name is feminine. */
static int
fr_feminine(int type)
{
	return type == CHESS_ROOK || type == CHESS_QUEEN;
}

/* "le" or "la" before a French piece name. */
static const char *
fr_the(int type)
{
	return fr_feminine(type) ? "la" : "le";
}

/* "blanc", "blanche", "noir" or "noire", agreeing with a piece. */
static const char *
fr_color(int color, int type)
{
	static const char *const adj[2][2] = {
		{ "blanc", "blanche" }, { "noir", "noire" }
	};

	return adj[color != CHESS_WHITE][fr_feminine(type)];
}

/* Piece letters by language and type; pawns have none. */
static const char piece_letters[2][6] = {
	{ 0, 'N', 'B', 'R', 'Q', 'K' },
	{ 0, 'C', 'F', 'T', 'D', 'R' },
};

static void why_add(struct why *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

/* Append to a sentence, truncating at the buffer's end. */
static void
why_add(struct why *w, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (w->buf == NULL || w->size == 0 || w->len >= w->size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, w->size - w->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	w->len += (size_t)n;
	if (w->len > w->size - 1)
		w->len = w->size - 1;
}

/* Write a square's name ("e4") and its NUL to `s`. */
static void
square_name(int sq, char s[3])
{
	s[0] = (char)('a' + CHESS_FILE(sq));
	s[1] = (char)('1' + CHESS_RANK(sq));
	s[2] = '\0';
}

/* True for the ASCII white space people leave around a move. */
static int
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');	/* \t \n \v \f \r */
}

/* The piece type of a capital piece letter in `lang` ('P' for a pawn in
 * both), or -1. */
static int
piece_from_letter(int c, enum chess_lang lang)
{
	/* piece_letters[] the other way round, type + 1 by letter (one
	 * lookup, not a search: this is on every move's path). */
	static const unsigned char	types[2][26] = {
		{
			['N' - 'A'] = CHESS_KNIGHT + 1,
			['B' - 'A'] = CHESS_BISHOP + 1,
			['R' - 'A'] = CHESS_ROOK + 1,
			['Q' - 'A'] = CHESS_QUEEN + 1,
			['K' - 'A'] = CHESS_KING + 1,
			['P' - 'A'] = CHESS_PAWN + 1,
		}, {
			['C' - 'A'] = CHESS_KNIGHT + 1,
			['F' - 'A'] = CHESS_BISHOP + 1,
			['T' - 'A'] = CHESS_ROOK + 1,
			['D' - 'A'] = CHESS_QUEEN + 1,
			['R' - 'A'] = CHESS_KING + 1,
			['P' - 'A'] = CHESS_PAWN + 1,
		}
	};

	return types[lang][c - 'A'] - 1;
}

/* The promotion piece of a letter in either case: `lang`'s letters first
 * (so a French R is the king), then English ones; CHESS_KING for a king,
 * -1 when not a piece letter. */
static int
promo_from_letter(int c, enum chess_lang lang)
{
	int	t;

	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	for (t = CHESS_KNIGHT; t <= CHESS_KING; t++) {
		if (piece_letters[lang][t] == c)
			return t;
	}
	for (t = CHESS_KNIGHT; t <= CHESS_KING; t++) {
		if (piece_letters[CHESS_LANG_EN][t] == c)
			return t;
	}
	return -1;
}

/* True if s[0..n) ends with an en-passant mark ("e.p.", "e.p", "ep.",
 * "ep", any case) that follows a move; *np is set to where the mark starts. */
static int
strip_ep(const char *s, size_t *np)
{
	size_t	n = *np;
	int	c;

	if (n > 0 && s[n - 1] == '.')
		n--;
	if (n == 0 || (s[n - 1] != 'p' && s[n - 1] != 'P'))
		return 0;
	n--;
	if (n > 0 && s[n - 1] == '.')
		n--;
	if (n == 0 || (s[n - 1] != 'e' && s[n - 1] != 'E'))
		return 0;
	n--;
	while (n > 0 && is_space((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return 0;
	c = (unsigned char)s[n - 1];
	if (!(c >= '1' && c <= '8') && c != '+' && c != '#' && c != '!' &&
	    c != '?')
		return 0;
	*np = n;
	return 1;
}

/* Parse castling text (O-O, 0-0, o-o, and the long forms). */
static int
parse_castle(const char *s, size_t n, struct pattern *p)
{
	size_t	i;

	if ((s[0] != 'O' && s[0] != 'o' && s[0] != '0') || (n != 3 && n != 5))
		return 0;
	for (i = 1; i < n; i++) {
		if (i % 2 == 1) {
			if (s[i] != '-')
				return 0;
		} else if (s[i] != 'O' && s[i] != 'o' && s[i] != '0')
			return 0;
	}
	p->form = FORM_CASTLE;
	p->castle = n == 3 ? CASTLE_KING : CASTLE_QUEEN;
	return 1;
}

/* Parse ICCF numeric text (5254, 57581). */
static int
parse_iccf(const char *s, size_t n, struct pattern *p)
{
	size_t	i;

	if (s[0] < '1' || s[0] > '8' || (n != 4 && n != 5))
		return 0;
	for (i = 1; i < 4; i++) {
		if (s[i] < '1' || s[i] > '8')
			return 0;
	}
	if (n == 5 && (s[4] < '1' || s[4] > '4'))
		return 0;
	p->form = FORM_ICCF;
	p->piece = -1;
	p->from_file = s[0] - '1';
	p->from_rank = s[1] - '1';
	p->to = CHESS_SQ(s[2] - '1', s[3] - '1');
	if (n == 5)
		p->promo = CHESS_QUEEN - (s[4] - '1');
	return 1;
}

/* Parse SAN, long algebraic or UCI: [piece] [file] [rank] [sign] square
 * [promotion]. */
static int
parse_algebraic(const char *s, size_t n, enum chess_lang lang,
    struct pattern *p)
{
	size_t	i = 0, j = n;
	int	c, sep = 0, sign = 0;

	/* The piece letter, if any. */
	if (n > 0 && s[0] >= 'A' && s[0] <= 'Z') {
		if ((p->piece = piece_from_letter(s[0], lang)) == -1)
			return 0;
		i = 1;
	}

	/* The promotion piece, read from the end. */
	if (j >= 3 && s[j - 1] == ')' && s[j - 3] == '(') {
		p->promo_letter = (unsigned char)s[j - 2];
		if ((p->promo = promo_from_letter(s[j - 2], lang)) == -1)
			return 0;
		j -= 3;
		sep = 1;
	} else if (j > i) {
		c = (unsigned char)s[j - 1];
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
			p->promo_letter = c;
			if ((p->promo = promo_from_letter(c, lang)) == -1)
				return 0;
			j--;
			if (j > i && (s[j - 1] == '=' || s[j - 1] == '/')) {
				j--;
				sep = 1;
			}
		}
	}

	/* The target square. */
	if (j < i + 2 || s[j - 2] < 'a' || s[j - 2] > 'h' ||
	    s[j - 1] < '1' || s[j - 1] > '8')
		return 0;
	p->to = CHESS_SQ(s[j - 2] - 'a', s[j - 1] - '1');
	j -= 2;

	/* The sign between origin and target. */
	if (j > i && (s[j - 1] == 'x' || s[j - 1] == 'X' || s[j - 1] == ':' ||
	    s[j - 1] == '-')) {
		p->capture = s[j - 1] != '-';
		j--;
		sign = 1;
	}

	/* What is left is the origin: file, rank, both or nothing. */
	if (j > i && s[j - 1] >= '1' && s[j - 1] <= '8') {
		p->from_rank = s[j - 1] - '1';
		j--;
	}
	if (j > i && s[j - 1] >= 'a' && s[j - 1] <= 'h') {
		p->from_file = s[j - 1] - 'a';
		j--;
	}
	if (j != i)
		return 0;

	if (p->from_file != -1 && p->from_rank != -1)
		p->form = FORM_COORD;
	else if (p->piece == -1)
		p->piece = CHESS_PAWN;

	/* UCI's lowercase r (e7e8r) is a rook in any language; any other
	 * French R stays the king, refused with its reason. */
	if (p->promo == CHESS_KING && p->promo_letter == 'r' && !sep &&
	    !sign && p->form == FORM_COORD && p->piece == -1)
		p->promo = CHESS_ROOK;
	return 1;
}

/*
 * Read `text` into a pattern. Returns CHESS_OK or CHESS_EMOVE_SYNTAX; *lenp
 * and *startp give the trimmed text, for messages.
 */
static enum chess_error
parse_text(const char *text, enum chess_lang lang, struct pattern *p,
    size_t *startp, size_t *lenp)
{
	const char	*s;
	size_t		 n, len;
	int		 more;

	memset(p, 0, sizeof *p);
	p->piece = p->from_file = p->from_rank = p->to = p->promo = -1;
	*startp = *lenp = 0;
	if (text == NULL)
		return CHESS_EMOVE_SYNTAX;

	/* Never read further than NOTATION_SCAN_MAX bytes. */
	for (len = 0; len < NOTATION_SCAN_MAX && text[len] != '\0'; len++)
		;
	if (len == NOTATION_SCAN_MAX) {
		*lenp = len;
		return CHESS_EMOVE_SYNTAX;
	}
	s = text;
	while (len > 0 && is_space((unsigned char)s[0])) {
		s++;
		len--;
	}
	while (len > 0 && is_space((unsigned char)s[len - 1]))
		len--;
	*startp = (size_t)(s - text);
	*lenp = len;
	if (len == 0 || len > NOTATION_TEXT_MAX)
		return CHESS_EMOVE_SYNTAX;

	/* Marks at the end: annotations, check, mate, en passant. */
	n = len;
	do {
		more = 0;
		while (n > 0 && (s[n - 1] == '!' || s[n - 1] == '?' ||
		    s[n - 1] == '+' || s[n - 1] == '#' ||
		    is_space((unsigned char)s[n - 1]))) {
			n--;
			more = 1;
		}
		if (strip_ep(s, &n))
			more = 1;
	} while (more && n > 0);
	if (n == 0)
		return CHESS_EMOVE_SYNTAX;

	if (parse_castle(s, n, p) || parse_iccf(s, n, p) ||
	    parse_algebraic(s, n, lang, p))
		return CHESS_OK;
	return CHESS_EMOVE_SYNTAX;
}

/* The castling side of a castling move (king takes own rook). */
static int
castle_side(chess_move m)
{
	return CHESS_FILE(CHESS_MOVE_TO(m)) > CHESS_FILE(CHESS_MOVE_FROM(m)) ?
	    CASTLE_KING : CASTLE_QUEEN;
}

/* Where the king of a castling move lands. */
static int
castle_king_to(chess_move m)
{
	return CHESS_SQ(castle_side(m) == CASTLE_KING ? 6 : 2,
	    CHESS_RANK(CHESS_MOVE_FROM(m)));
}

/* True if legal move `m` fits the pattern. */
static int
pattern_fits(const struct chess_position *pos, const struct pattern *p,
    chess_move m)
{
	int	from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);
	int	kind = CHESS_MOVE_KIND(m), type, kto, d;

	if (p->form == FORM_CASTLE)
		return kind == CHESS_MOVE_CASTLE && castle_side(m) == p->castle;
	/* The target first: it rules out most moves. */
	if (to != p->to && kind != CHESS_MOVE_CASTLE)
		return 0;
	if (p->from_file != -1 && CHESS_FILE(from) != p->from_file)
		return 0;
	if (p->from_rank != -1 && CHESS_RANK(from) != p->from_rank)
		return 0;
	type = CHESS_PIECE_TYPE(pos->board[from]);
	if (p->piece != -1 && type != p->piece)
		return 0;

	if (kind == CHESS_MOVE_CASTLE) {
		if (p->form == FORM_SAN || p->promo != -1)
			return 0;
		if (to == p->to)
			return 1;
		kto = castle_king_to(m);
		if (kto != p->to)
			return 0;
		if (p->form == FORM_ICCF)
			return 1;
		d = CHESS_FILE(kto) - CHESS_FILE(from);
		return !pos->chess960 && (d >= 2 || d <= -2);
	}
	if (kind == CHESS_MOVE_PROMOTION) {
		if (p->promo != -1 && CHESS_MOVE_PROM(m) != p->promo)
			return 0;
	} else if (p->promo != -1)
		return 0;
	/* A pawn without origin file: "e4" pushes, "xe4" captures. */
	if (p->form == FORM_SAN && type == CHESS_PAWN && p->from_file == -1 &&
	    (CHESS_FILE(from) != CHESS_FILE(to)) != (p->capture != 0))
		return 0;
	return 1;
}

/* Write the SAN of `m`, given the legal moves of the position, to s (at
 * least CHESS_SAN_MAX bytes); returns the length. */
static size_t
san_write(const struct chess_position *pos, chess_move m,
    enum chess_lang lang, const chess_move *moves, int nmoves, char *s)
{
	struct chess_position	 next;
	int			 from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);
	int			 kind = CHESS_MOVE_KIND(m), type, i, o;
	int			 clash = 0, same_file = 0, same_rank = 0;
	size_t			 n = 0;

	if (m == CHESS_MOVE_NONE || pos->board[from] == CHESS_EMPTY) {
		memcpy(s, "--", 3);
		return 2;
	}
	type = CHESS_PIECE_TYPE(pos->board[from]);

	if (kind == CHESS_MOVE_CASTLE) {
		memcpy(s, "O-O", 3);
		n = 3;
		if (castle_side(m) == CASTLE_QUEEN) {
			memcpy(s + n, "-O", 2);
			n += 2;
		}
	} else if (type == CHESS_PAWN) {
		if (CHESS_FILE(from) != CHESS_FILE(to)) {
			s[n++] = (char)('a' + CHESS_FILE(from));
			s[n++] = 'x';
		}
		square_name(to, s + n);
		n += 2;
		if (kind == CHESS_MOVE_PROMOTION) {
			s[n++] = '=';
			s[n++] = piece_letters[lang][CHESS_MOVE_PROM(m)];
		}
	} else {
		s[n++] = piece_letters[lang][type];
		/* Disambiguate: file first, then rank, then both (PGN 8.2.3). */
		for (i = 0; i < nmoves; i++) {
			o = CHESS_MOVE_FROM(moves[i]);
			if (o == from || CHESS_MOVE_TO(moves[i]) != to ||
			    CHESS_MOVE_KIND(moves[i]) == CHESS_MOVE_CASTLE ||
			    pos->board[o] != pos->board[from])
				continue;
			clash = 1;
			if (CHESS_FILE(o) == CHESS_FILE(from))
				same_file = 1;
			if (CHESS_RANK(o) == CHESS_RANK(from))
				same_rank = 1;
		}
		if (clash && (!same_file || same_rank))
			s[n++] = (char)('a' + CHESS_FILE(from));
		if (clash && same_file)
			s[n++] = (char)('1' + CHESS_RANK(from));
		if (pos->board[to] != CHESS_EMPTY)
			s[n++] = 'x';
		square_name(to, s + n);
		n += 2;
	}

	next = *pos;
	chess_position_make(&next, m);
	if (chess_position_in_check(&next))
		s[n++] = chess_legal_count(&next) == 0 ? '#' : '+';
	s[n] = '\0';
	return n;
}

/* Copy `src` (length n) to a caller buffer, truncating; returns n. */
static size_t
copy_out(const char *src, size_t n, char *buf, size_t size)
{
	size_t	k;

	if (buf != NULL && size > 0) {
		k = n < size - 1 ? n : size - 1;
		memcpy(buf, src, k);
		buf[k] = '\0';
	}
	return n;
}

/* Write the SAN of legal move `m`, with check (+) and mate (#) marks, in
 * `lang`'s piece letters. Returns the full length, as snprintf does. */
size_t
chess_move_san(const struct chess_position *pos, chess_move m,
    enum chess_lang lang, char *buf, size_t size)
{
	chess_move	moves[CHESS_MAX_MOVES];
	char		s[CHESS_SAN_MAX];
	int		n = 0;

	if (lang != CHESS_LANG_FR)
		lang = CHESS_LANG_EN;
	if (CHESS_MOVE_KIND(m) != CHESS_MOVE_CASTLE &&
	    pos->board[CHESS_MOVE_FROM(m)] != CHESS_EMPTY &&
	    CHESS_PIECE_TYPE(pos->board[CHESS_MOVE_FROM(m)]) != CHESS_PAWN &&
	    CHESS_PIECE_TYPE(pos->board[CHESS_MOVE_FROM(m)]) != CHESS_KING)
		n = chess_legal_moves(pos, moves);
	return copy_out(s, san_write(pos, m, lang, moves, n, s), buf, size);
}

/* Write English SAN text (one move or several, with spaces and ';') in
 * `lang`'s piece letters. Returns the full length, as snprintf does. */
size_t
chess_san_text_lang(const char *text, enum chess_lang lang, char *buf,
    size_t size)
{
	static const char	en[] = "KQRBN", fr[] = "RDTFC";
	const char		*p;
	size_t			 i, n = strlen(text);

	for (i = 0; buf != NULL && i < n && i + 1 < size; i++) {
		/* SAN's only capitals are piece letters (and castling's O). */
		p = lang == CHESS_LANG_FR && text[i] != '\0' ?
		    strchr(en, text[i]) : NULL;
		buf[i] = p != NULL ? fr[p - en] : text[i];
	}
	if (buf != NULL && size > 0)
		buf[i] = '\0';
	return n;
}

/* Write the SAN of every legal move, the list given once for all. */
void
chess_moves_san(const struct chess_position *pos, const chess_move *moves,
    int n, enum chess_lang lang, char (*san)[CHESS_SAN_MAX])
{
	int	i;

	if (lang != CHESS_LANG_FR)
		lang = CHESS_LANG_EN;
	for (i = 0; i < n; i++)
		san_write(pos, moves[i], lang, moves, n, san[i]);
}

/* Write the UCI of `m`: castling as e1g1, or as king-takes-rook when
 * pos->chess960 (or when the king moves less than two files). */
size_t
chess_move_uci(const struct chess_position *pos, chess_move m, char *buf,
    size_t size)
{
	static const char	promo[6] = { 0, 'n', 'b', 'r', 'q', 0 };
	char			s[8];
	int			from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);
	int			kto, d;
	size_t			n = 4;

	if (m == CHESS_MOVE_NONE)
		return copy_out("0000", 4, buf, size);
	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_CASTLE && !pos->chess960) {
		kto = castle_king_to(m);
		d = CHESS_FILE(kto) - CHESS_FILE(from);
		if (d >= 2 || d <= -2)
			to = kto;
	}
	square_name(from, s);
	square_name(to, s + 2);
	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_PROMOTION)
		s[n++] = promo[CHESS_MOVE_PROM(m)];
	return copy_out(s, n, buf, size);
}

/* Write the ICCF numeric form of `m`: castling as the king's move, or as
 * king takes own rook when the king's move would also read as a king step. */
size_t
chess_move_iccf(const struct chess_position *pos, chess_move m, char *buf,
    size_t size)
{
	char	s[8];
	int	from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m), kto;
	size_t	n = 4;

	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_CASTLE) {
		kto = castle_king_to(m);
		if (kto == from || kto == to || !chess_move_is_legal(pos,
		    CHESS_MOVE_MAKE(from, kto, CHESS_MOVE_NORMAL, CHESS_KNIGHT)))
			to = kto;
	}
	s[0] = (char)('1' + CHESS_FILE(from));
	s[1] = (char)('1' + CHESS_RANK(from));
	s[2] = (char)('1' + CHESS_FILE(to));
	s[3] = (char)('1' + CHESS_RANK(to));
	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_PROMOTION)
		s[n++] = (char)('1' + CHESS_QUEEN - CHESS_MOVE_PROM(m));
	return copy_out(s, n, buf, size);
}

/* The squares from a to b on one rank, both included. */
static chess_bb
rank_span(int a, int b)
{
	chess_bb	bb = 0;
	int		lo = a < b ? a : b, hi = a < b ? b : a, sq;

	for (sq = lo; sq <= hi; sq++)
		bb |= (chess_bb)1 << sq;
	return bb;
}

/* Say why castling to `side` is not legal. */
static void
explain_castle(const struct chess_position *pos, int side, struct why *w)
{
	const char	*sidename = side == CASTLE_KING ? "kingside" : "queenside";
	const char	*fr_castle = side == CASTLE_KING ? "petit roque" :
			    "grand roque";
	int		 us = pos->side, them = !us, ksq, rsq = -1, kto, rto, sq;
	int		 step, first = 1, fr = w->lang == CHESS_LANG_FR;
	chess_bb	 occ, rooks, blocked;
	char		 name[3];

	ksq = chess_position_king(pos, us);
	rooks = pos->castling & pos->colors[us] & pos->pieces[CHESS_ROOK];
	for (sq = 0; sq < 64; sq++) {
		if (!(rooks & ((chess_bb)1 << sq)) ||
		    CHESS_RANK(sq) != CHESS_RANK(ksq))
			continue;
		if ((side == CASTLE_KING) == (CHESS_FILE(sq) > CHESS_FILE(ksq)))
			rsq = sq;
	}
	if (rsq == -1) {
		if (fr)
			why_add(w, "%s ont perdu le droit au %s", fr_sides[us],
			    fr_castle);
		else
			why_add(w, "%s has lost the right to castle %s",
			    color_names[us], sidename);
		return;
	}
	if (chess_position_in_check(pos)) {
		if (fr)
			why_add(w, "%s ne peuvent pas roquer : leur roi est en "
			    "échec", fr_sides[us]);
		else
			why_add(w, "%s cannot castle out of check",
			    color_names[us]);
		return;
	}
	kto = CHESS_SQ(side == CASTLE_KING ? 6 : 2, CHESS_RANK(ksq));
	rto = CHESS_SQ(side == CASTLE_KING ? 5 : 3, CHESS_RANK(ksq));
	occ = pos->colors[0] | pos->colors[1];
	blocked = (rank_span(ksq, kto) | rank_span(rsq, rto)) & occ &
	    ~((chess_bb)1 << ksq) & ~((chess_bb)1 << rsq);
	if (blocked != 0) {
		if (fr)
			why_add(w, "%s impossible : les cases entre le roi et "
			    "la tour ne sont pas libres (", fr_castle);
		else
			why_add(w, "cannot castle %s: the squares between king "
			    "and rook are not empty (", sidename);
		for (sq = 0; sq < 64; sq++) {
			if (!(blocked & ((chess_bb)1 << sq)))
				continue;
			square_name(sq, name);
			why_add(w, "%s%s", first ? "" : ", ", name);
			first = 0;
		}
		why_add(w, ")");
		return;
	}
	occ &= ~((chess_bb)1 << ksq) & ~((chess_bb)1 << rsq);
	step = kto > ksq ? 1 : -1;
	for (sq = ksq + step; ksq != kto && sq != kto; sq += step) {
		if (chess_attackers(pos, them, sq, occ) != 0) {
			square_name(sq, name);
			if (fr)
				why_add(w, "roque impossible : la case %s, que "
				    "le roi doit traverser, est attaquée",
				    name);
			else
				why_add(w, "cannot castle through check: %s is "
				    "attacked", name);
			return;
		}
	}
	occ |= ((chess_bb)1 << kto) | ((chess_bb)1 << rto);
	if (chess_attackers(pos, them, kto, occ) != 0) {
		square_name(kto, name);
		if (fr)
			why_add(w, "le %s mettrait le roi en échec en %s",
			    fr_castle, name);
		else
			why_add(w, "castling %s would put the king in check "
			    "on %s", sidename, name);
		return;
	}
	if (fr)
		why_add(w, "le %s n'est pas possible ici", fr_castle);
	else
		why_add(w, "castling %s is not legal here", sidename);
}

/* The castling side that a king move from `from` to `to` written with
 * coordinates asks for, or CASTLE_NONE. */
static int
coord_castle_side(const struct chess_position *pos, const struct pattern *p,
    int from, int to)
{
	int	d = CHESS_FILE(to) - CHESS_FILE(from);

	if (CHESS_RANK(to) != CHESS_RANK(from) ||
	    (p->piece != -1 && p->piece != CHESS_KING))
		return CASTLE_NONE;
	if (pos->board[to] == CHESS_PIECE(pos->side, CHESS_ROOK))
		return d > 0 ? CASTLE_KING : CASTLE_QUEEN;
	if (p->form == FORM_ICCF || (!pos->chess960 && (d >= 2 || d <= -2))) {
		if (CHESS_FILE(to) == 6)
			return CASTLE_KING;
		if (CHESS_FILE(to) == 2)
			return CASTLE_QUEEN;
	}
	return CASTLE_NONE;
}

/* Pseudo-legal origins of moves by `type` to `to` for the side to move. */
static chess_bb
pseudo_origins(const struct chess_position *pos, int type, int to,
    const struct pattern *p)
{
	int		us = pos->side, fwd = us == CHESS_WHITE ? 8 : -8;
	int		sq;
	chess_bb	occ = pos->colors[0] | pos->colors[1], own, bb = 0;

	own = pos->pieces[type] & pos->colors[us];
	if (type != CHESS_PAWN)
		return chess_attacks(type, us, to, occ) & own;
	if (occ & ((chess_bb)1 << to)) {
		if (pos->colors[!us] & ((chess_bb)1 << to))
			bb = chess_attackers(pos, us, to, occ) & own;
	} else {
		if (to == pos->ep)
			bb = chess_attackers(pos, us, to, occ) & own;
		sq = to - fwd;
		if (sq >= 0 && sq < 64 && (own & ((chess_bb)1 << sq)))
			bb |= (chess_bb)1 << sq;
		else if (CHESS_RANK(to) == (us == CHESS_WHITE ? 3 : 4) &&
		    !(occ & ((chess_bb)1 << sq)) &&
		    (own & ((chess_bb)1 << (sq - fwd))))
			bb |= (chess_bb)1 << (sq - fwd);
	}
	/* The same push or capture rule as pattern_fits(). */
	if (p->form == FORM_SAN && p->from_file == -1) {
		for (sq = 0; sq < 64; sq++) {
			if ((bb & ((chess_bb)1 << sq)) &&
			    (CHESS_FILE(sq) != CHESS_FILE(to)) != (p->capture != 0))
				bb &= ~((chess_bb)1 << sq);
		}
	}
	return bb;
}

/* Say why the pseudo-legal move from `from` to `to` leaves the king in
 * check. */
static void
explain_check(const struct chess_position *pos, int from, int to,
    struct why *w)
{
	int		us = pos->side, them = !us, ksq, type;
	int		fr = w->lang == CHESS_LANG_FR;
	chess_bb	occ, gone, before, after;
	char		fname[3], tname[3];

	type = CHESS_PIECE_TYPE(pos->board[from]);
	ksq = chess_position_king(pos, us);
	occ = pos->colors[0] | pos->colors[1];
	gone = (chess_bb)1 << to;
	if (type == CHESS_PAWN && to == pos->ep &&
	    pos->board[to] == CHESS_EMPTY)
		gone = (chess_bb)1 << (to + (us == CHESS_WHITE ? -8 : 8));
	occ = (occ & ~((chess_bb)1 << from) & ~gone) | ((chess_bb)1 << to);
	square_name(from, fname);
	square_name(to, tname);
	if (type == CHESS_KING) {
		if (chess_attackers(pos, them, to, occ) & ~gone)
			why_add(w, fr ? "le roi serait en échec en %s" :
			    "the king would be in check on %s", tname);
		else
			why_add(w, fr ? "le roi en %s ne peut pas aller en %s" :
			    "the king on %s cannot move to %s", fname, tname);
		return;
	}
	after = chess_attackers(pos, them, ksq, occ) & ~gone;
	before = chess_attackers(pos, them, ksq,
	    pos->colors[0] | pos->colors[1]);
	if (after & ~before) {
		if (fr)
			why_add(w, "%s %s en %s est %s", fr_the(type),
			    fr_pieces[type], fname, fr_feminine(type) ?
			    "clouée" : "cloué");
		else
			why_add(w, "the %s on %s is pinned", piece_names[type],
			    fname);
	} else if (after != 0) {
		if (fr)
			why_add(w, "le coup laisse le roi %s en échec",
			    fr_color(us, CHESS_KING));
		else
			why_add(w, "the move leaves the %s king in check",
			    color_names[us]);
	} else if (fr)
		why_add(w, "%s %s en %s ne peut pas aller en %s",
		    fr_the(type), fr_pieces[type], fname, tname);
	else
		why_add(w, "the %s on %s cannot move to %s", piece_names[type],
		    fname, tname);
}

/* Say why no legal move fits the pattern. */
static void
explain_illegal(const struct chess_position *pos, const struct pattern *p,
    struct why *w)
{
	int		us = pos->side, from = -1, type, t, sq, side, nsaid = 0;
	int		last = us == CHESS_WHITE ? 7 : 0;
	int		fr = w->lang == CHESS_LANG_FR;
	chess_bb	origins = 0, mask = ~(chess_bb)0;
	char		fname[3], tname[3];

	if (p->form == FORM_CASTLE) {
		explain_castle(pos, p->castle, w);
		return;
	}
	square_name(p->to, tname);
	if (p->from_file != -1 && p->from_rank != -1)
		from = CHESS_SQ(p->from_file, p->from_rank);

	/* What is on the origin square, when the text names it. */
	type = p->piece;
	if (from != -1) {
		square_name(from, fname);
		if (pos->board[from] == CHESS_EMPTY) {
			why_add(w, fr ? "il n'y a aucune pièce en %s" :
			    "there is no piece on %s", fname);
			return;
		}
		t = CHESS_PIECE_TYPE(pos->board[from]);
		if (CHESS_PIECE_COLOR(pos->board[from]) != us) {
			if (fr)
				why_add(w, "%s %s en %s est %s, et c'est aux "
				    "%s de jouer", fr_the(t), fr_pieces[t],
				    fname, fr_color(!us, t), us == CHESS_WHITE ?
				    "Blancs" : "Noirs");
			else
				why_add(w, "the %s on %s is %s, and it is "
				    "%s's move", piece_names[t], fname,
				    color_names[!us], color_names[us]);
			return;
		}
		if (type != -1 && type != t) {
			if (fr)
				why_add(w, "il n'y a pas de %s %s en %s",
				    fr_pieces[type], fr_color(us, type), fname);
			else
				why_add(w, "there is no %s %s on %s",
				    color_names[us], piece_names[type], fname);
			return;
		}
		type = t;
		if (type == CHESS_KING && p->promo == -1 &&
		    (side = coord_castle_side(pos, p, from, p->to)) !=
		    CASTLE_NONE) {
			explain_castle(pos, side, w);
			return;
		}
	}

	/* Promotion asked where there is none. */
	if (p->promo == CHESS_KING) {
		if (fr && (p->promo_letter == 'R' || p->promo_letter == 'r'))
			why_add(w, "un pion ne peut pas être promu en roi ; en "
			    "français, R est le roi : une tour s'écrit T "
			    "(%s=T)", tname);
		else if (fr)
			why_add(w, "un pion ne peut pas être promu en roi");
		else
			why_add(w, "a pawn cannot promote to a king");
		return;
	}
	if (p->promo != -1 && type != -1 && type != CHESS_PAWN) {
		why_add(w, fr ? "seul un pion peut être promu" :
		    "only a pawn can promote");
		return;
	}
	if (p->promo != -1 && CHESS_RANK(p->to) != last) {
		if (fr)
			why_add(w, "un pion n'est promu que sur la %s rangée",
			    last == 7 ? "huitième" : "première");
		else
			why_add(w, "a pawn promotes only on the %s rank",
			    last == 7 ? "eighth" : "first");
		return;
	}

	if (pos->colors[us] & ((chess_bb)1 << p->to)) {
		t = CHESS_PIECE_TYPE(pos->board[p->to]);
		if (fr)
			why_add(w, "%s ont déjà %s %s en %s", fr_sides[us],
			    fr_feminine(t) ? "une" : "un", fr_pieces[t], tname);
		else
			why_add(w, "%s already has a %s on %s",
			    color_names[us], piece_names[t], tname);
		return;
	}

	/* The pieces that could go there if the king were not in danger. */
	if (p->from_file != -1)
		mask &= (chess_bb)0x0101010101010101ULL << p->from_file;
	if (p->from_rank != -1)
		mask &= (chess_bb)0xffULL << (8 * p->from_rank);
	for (t = CHESS_PAWN; t <= CHESS_KING; t++) {
		if (type == -1 || type == t)
			origins |= pseudo_origins(pos, t, p->to, p) & mask;
	}
	if (origins == 0) {
		if (from != -1 && fr)
			why_add(w, "%s %s en %s ne peut pas aller en %s",
			    fr_the(type), fr_pieces[type], fname, tname);
		else if (from != -1)
			why_add(w, "the %s on %s cannot move to %s",
			    piece_names[type], fname, tname);
		else if (fr) {
			why_add(w, "%s %s %s", fr_feminine(type) ? "aucune" :
			    "aucun", fr_pieces[type], fr_color(us, type));
			if (p->from_file != -1)
				why_add(w, " de la colonne %c",
				    'a' + p->from_file);
			if (p->from_rank != -1)
				why_add(w, " de la rangée %d",
				    p->from_rank + 1);
			why_add(w, " ne peut aller en %s", tname);
		} else {
			why_add(w, "no %s %s", color_names[us],
			    piece_names[type]);
			if (p->from_file != -1)
				why_add(w, " on the %c-file",
				    'a' + p->from_file);
			if (p->from_rank != -1)
				why_add(w, " on rank %d", p->from_rank + 1);
			why_add(w, " can move to %s", tname);
		}
		return;
	}
	for (sq = 0; sq < 64 && nsaid < 3; sq++) {
		if (!(origins & ((chess_bb)1 << sq)))
			continue;
		if (nsaid++ > 0)
			why_add(w, fr ? " ; " : "; ");
		explain_check(pos, sq, p->to, w);
	}
}

/* Say that the text fits several legal moves, naming them in SAN. */
static void
explain_ambiguous(const struct chess_position *pos, const char *text,
    size_t len, const chess_move *fits, int nfits, enum chess_lang lang,
    struct why *w)
{
	chess_move	sorted[CHESS_MAX_MOVES], m;
	char		san[CHESS_SAN_MAX];
	int		i, j, promos = 1;

	/* By origin square, then queen, rook, bishop, knight. */
	for (i = 0; i < nfits; i++) {
		m = fits[i];
		for (j = i; j > 0 && (CHESS_MOVE_FROM(sorted[j - 1]) >
		    CHESS_MOVE_FROM(m) || (CHESS_MOVE_FROM(sorted[j - 1]) ==
		    CHESS_MOVE_FROM(m) && (sorted[j - 1] >> 12) < (m >> 12)));
		    j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = m;
	}
	fits = sorted;
	for (i = 0; i < nfits; i++) {
		if (CHESS_MOVE_KIND(fits[i]) != CHESS_MOVE_PROMOTION ||
		    CHESS_MOVE_FROM(fits[i]) != CHESS_MOVE_FROM(fits[0]) ||
		    CHESS_MOVE_TO(fits[i]) != CHESS_MOVE_TO(fits[0]))
			promos = 0;
	}
	if (lang == CHESS_LANG_FR)
		why_add(w, "%.*s %s : ", (int)len, text, promos ?
		    "ne dit pas en quelle pièce le pion est promu" :
		    "est ambigu");
	else
		why_add(w, "%.*s %s: ", (int)len, text,
		    promos ? "needs a promotion piece" : "is ambiguous");
	for (i = 0; i < nfits; i++) {
		chess_move_san(pos, fits[i], lang, san, sizeof san);
		why_add(w, "%s%s", i == 0 ? "" : i < nfits - 1 ? ", " :
		    lang == CHESS_LANG_FR ? " ou " : " or ", san);
	}
}

/*
 * True if the side to move's king, on `ksq`, is safe after the pseudo-legal
 * move of the piece on `from` to `to` (not castling; `ep` for an en-passant
 * capture): the move is played on a copy of the occupancy and the king's
 * square looked at, as chess_move_is_legal() does. A slider on a line with
 * the king attacks it when no square between them is occupied (a lookup in
 * bb_between, smaller than the magic tables and faster to reach).
 */
BB_INLINE int
king_safe(const struct chess_position *pos, int ksq, int from, int to,
    int ep)
{
	int		them = !pos->side;
	chess_bb	occ = pos->colors[0] | pos->colors[1];
	chess_bb	gone = BB(to);		/* a captured piece */
	chess_bb	enemy, sliders;

	occ = (occ & ~BB(from)) | BB(to);
	if (ep) {
		gone = BB(pos->side == CHESS_WHITE ? to - 8 : to + 8);
		occ &= ~gone;
	}
	if (from == ksq)
		ksq = to;
	enemy = pos->colors[them] & ~gone;
	if (enemy & ((bb_pawn[!them][ksq] & pos->pieces[CHESS_PAWN]) |
	    (bb_knight[ksq] & pos->pieces[CHESS_KNIGHT]) |
	    (bb_king[ksq] & pos->pieces[CHESS_KING])))
		return 0;
	sliders = enemy & ((bb_rook_empty[ksq] & (pos->pieces[CHESS_ROOK] |
	    pos->pieces[CHESS_QUEEN])) | (bb_bishop_empty[ksq] &
	    (pos->pieces[CHESS_BISHOP] | pos->pieces[CHESS_QUEEN])));
	while (sliders != 0) {
		if (!(bb_between[bb_pop(&sliders)][ksq] & occ))
			return 0;
	}
	return 1;
}

/* Count the legal moves from the squares of `origins` to `to`, each
 * pseudo-legal as `kind`/`prom`, with the king on `ksq`; *out is the last
 * one. */
BB_INLINE int
pick_legal(const struct chess_position *pos, int ksq, chess_bb origins,
    int to, int kind, int prom, chess_move *out)
{
	int	from, n = 0;

	while (origins != 0) {
		from = bb_pop(&origins);
#ifdef NOTATION_CHECK_LEGAL
		if (king_safe(pos, ksq, from, to, kind == CHESS_MOVE_EP) !=
		    chess_move_is_legal(pos, CHESS_MOVE_MAKE(from, to, kind,
		    prom)))
			abort();
#endif
		if (king_safe(pos, ksq, from, to, kind == CHESS_MOVE_EP)) {
			*out = CHESS_MOVE_MAKE(from, to, kind, prom);
			n++;
		}
	}
	return n;
}

/* The one legal move that a castling pattern fits, with the king on `ksq`,
 * or CHESS_MOVE_NONE. */
static chess_move
quick_castle(const struct chess_position *pos, const struct pattern *p,
    int ksq)
{
	chess_bb	rooks;
	chess_move	m;

	rooks = pos->castling & pos->colors[pos->side] &
	    (BB_RANK_1 << (ksq & 56));
	if (p->castle == CASTLE_KING)
		rooks &= ~(BB(ksq) - 1) & ~BB(ksq);
	else
		rooks &= BB(ksq) - 1;
	if (rooks == 0 || bb_several(rooks))
		return CHESS_MOVE_NONE;
	m = CHESS_MOVE_MAKE(ksq, bb_lsb(rooks), CHESS_MOVE_CASTLE,
	    CHESS_KNIGHT);
	return chess_move_is_legal(pos, m) ? m : CHESS_MOVE_NONE;
}

/*
 * The one legal move that a pattern with both squares fits (long
 * algebraic, UCI, ICCF), or CHESS_MOVE_NONE. A king move that could be
 * read as castling is left to the full list.
 */
static chess_move
quick_coord(const struct chess_position *pos, const struct pattern *p)
{
	int		from = CHESS_SQ(p->from_file, p->from_rank), to = p->to;
	int		us = pos->side, type, kind = CHESS_MOVE_NORMAL;
	int		prom = CHESS_KNIGHT;
	chess_move	m;

	if (!(pos->colors[us] & BB(from)) || (pos->colors[us] & BB(to)))
		return CHESS_MOVE_NONE;
	type = CHESS_PIECE_TYPE(pos->board[from]);
	if (p->piece != -1 && p->piece != type)
		return CHESS_MOVE_NONE;
	if (type == CHESS_KING && CHESS_RANK(to) == CHESS_RANK(from) &&
	    (CHESS_FILE(to) == 2 || CHESS_FILE(to) == 6))
		return CHESS_MOVE_NONE;
	if (type == CHESS_PAWN && (BB(to) & (BB_RANK_1 | BB_RANK_8))) {
		if (p->promo == -1 || p->promo == CHESS_KING)
			return CHESS_MOVE_NONE;
		kind = CHESS_MOVE_PROMOTION;
		prom = p->promo;
	} else if (p->promo != -1)
		return CHESS_MOVE_NONE;
	else if (type == CHESS_PAWN && to == pos->ep &&
	    CHESS_FILE(to) != CHESS_FILE(from))
		kind = CHESS_MOVE_EP;
	m = CHESS_MOVE_MAKE(from, to, kind, prom);
	return chess_move_is_legal(pos, m) ? m : CHESS_MOVE_NONE;
}

/* The one legal pawn move that a SAN pattern fits, from the squares of
 * `mask`, with the king on `ksq`; or CHESS_MOVE_NONE. */
static chess_move
quick_pawn(const struct chess_position *pos, const struct pattern *p,
    int ksq, chess_bb mask)
{
	int		us = pos->side, to = p->to, kind = CHESS_MOVE_NORMAL;
	int		prom = CHESS_KNIGHT, sq, n;
	chess_bb	occ = pos->colors[0] | pos->colors[1];
	chess_bb	pawns = pos->pieces[CHESS_PAWN] & pos->colors[us] & mask;
	chess_bb	push = 0, capture;
	chess_move	m = CHESS_MOVE_NONE;

	if (BB(to) & (BB_RANK_1 | BB_RANK_8)) {
		/* Without its piece a promotion fits four moves. */
		if (p->promo == -1 || p->promo == CHESS_KING)
			return CHESS_MOVE_NONE;
		kind = CHESS_MOVE_PROMOTION;
		prom = p->promo;
	} else if (p->promo != -1)
		return CHESS_MOVE_NONE;

	/* The origins: one push or double step, the captures. */
	capture = bb_pawn[!us][to] & pawns;
	if (!(occ & BB(to))) {
		sq = us == CHESS_WHITE ? to - 8 : to + 8;
		if (sq >= 0 && sq < 64 && (pawns & BB(sq)))
			push = BB(sq);
		else if (CHESS_RANK(to) == (us == CHESS_WHITE ? 3 : 4) &&
		    !(occ & BB(sq))) {
			sq = us == CHESS_WHITE ? sq - 8 : sq + 8;
			push = pawns & BB(sq);
		}
		if (to != pos->ep)
			capture = 0;
		else
			kind = CHESS_MOVE_EP;
	}
	/* "e4" pushes, "xe4" captures, unless the origin file is given. */
	if (p->from_file == -1) {
		if (p->capture)
			push = 0;
		else
			capture = 0;
	}
	n = pick_legal(pos, ksq, push, to, kind == CHESS_MOVE_EP ?
	    CHESS_MOVE_NORMAL : kind, prom, &m);
	n += pick_legal(pos, ksq, capture, to, kind, prom, &m);
	return n == 1 ? m : CHESS_MOVE_NONE;
}

/*
 * The one legal move that the pattern fits, found from the target square
 * with the attack tables and a king-safety test per candidate, or
 * CHESS_MOVE_NONE when none or several fit, or the case is left to the
 * full list (which also gives the reasons).
 */
static chess_move
quick_match(const struct chess_position *pos, const struct pattern *p)
{
	int		us = pos->side, ksq, sq;
	chess_bb	mask = ~(chess_bb)0, occ, cand, b;
	chess_move	m = CHESS_MOVE_NONE;

	/* The generator's precondition (see chess_legal_moves()). */
	if (us > 1 || !(pos->pieces[CHESS_KING] & pos->colors[us]))
		return CHESS_MOVE_NONE;
	ksq = bb_lsb(pos->pieces[CHESS_KING] & pos->colors[us]);
	if (p->form == FORM_CASTLE)
		return quick_castle(pos, p, ksq);
	if (p->form != FORM_SAN)
		return quick_coord(pos, p);
	if (pos->colors[us] & BB(p->to))
		return CHESS_MOVE_NONE;
	if (p->from_file != -1)
		mask &= BB_FILE_A << p->from_file;
	if (p->from_rank != -1)
		mask &= BB_RANK_1 << (8 * p->from_rank);
	/* Our pieces of the type that reach the target on an empty board,
	 * and of those the ones with nothing in the way. */
	cand = pos->pieces[p->piece] & pos->colors[us] & mask;
	switch (p->piece) {
	case CHESS_PAWN:
		return quick_pawn(pos, p, ksq, mask);
	case CHESS_KNIGHT:
		cand &= bb_knight[p->to];
		break;
	case CHESS_BISHOP:
		cand &= bb_bishop_empty[p->to];
		break;
	case CHESS_ROOK:
		cand &= bb_rook_empty[p->to];
		break;
	case CHESS_QUEEN:
		cand &= bb_bishop_empty[p->to] | bb_rook_empty[p->to];
		break;
	default:
		cand &= bb_king[p->to];
		break;
	}
	if (p->promo != -1)
		return CHESS_MOVE_NONE;
	occ = pos->colors[0] | pos->colors[1];
	for (b = cand; b != 0;) {
		sq = bb_pop(&b);
		if (bb_between[sq][p->to] & occ)
			cand &= ~BB(sq);
	}
	if (pick_legal(pos, ksq, cand, p->to, CHESS_MOVE_NORMAL,
	    CHESS_KNIGHT, &m) != 1)
		return CHESS_MOVE_NONE;
	return m;
}

/*
 * Keep the legal moves that fit the pattern at the front of `moves`, the
 * full list of the position, and return their count.
 */
static int
match_all(const struct chess_position *pos, const struct pattern *p,
    chess_move moves[CHESS_MAX_MOVES])
{
	int	n, i, nfits = 0;

	n = chess_legal_moves(pos, moves);
	for (i = 0; i < n; i++) {
		if (pattern_fits(pos, p, moves[i]))
			moves[nfits++] = moves[i];
	}
	/* An ICCF king destination that is also a king step is the step. */
	if (nfits == 2 && p->form == FORM_ICCF) {
		for (i = 0; i < 2; i++) {
			if (CHESS_MOVE_KIND(moves[i]) == CHESS_MOVE_CASTLE &&
			    CHESS_MOVE_TO(moves[i]) != p->to) {
				moves[0] = moves[1 - i];
				nfits = 1;
				break;
			}
		}
	}
	return nfits;
}

/*
 * Match the pattern against the full list of legal moves: the one move that
 * fits, or why none or several do. `text` (length `len`) is the trimmed
 * move text, for the message.
 */
static enum chess_error
match_list(const struct chess_position *pos, const struct pattern *p,
    const char *text, size_t len, enum chess_lang lang, chess_move *out,
    struct why *w)
{
	chess_move	moves[CHESS_MAX_MOVES];
	int		nfits;

	nfits = match_all(pos, p, moves);
	if (nfits == 1) {
		if (out != NULL)
			*out = moves[0];
		return CHESS_OK;
	}
	if (nfits == 0) {
		if (w->buf != NULL && w->size > 0)
			explain_illegal(pos, p, w);
		return CHESS_EMOVE_ILLEGAL;
	}
	if (w->buf != NULL && w->size > 0)
		explain_ambiguous(pos, text, len, moves, nfits, lang, w);
	return CHESS_EMOVE_AMBIGUOUS;
}

#ifdef NOTATION_CHECK_LEGAL
/* Abort unless `m` is the one move of the full list that fits. */
static void
check_quick(const struct chess_position *pos, const struct pattern *p,
    chess_move m)
{
	chess_move	moves[CHESS_MAX_MOVES];

	if (match_all(pos, p, moves) != 1 || moves[0] != m)
		abort();
}
#endif

/*
 * Parse a move typed by a person, in any notation, matching it against the
 * legal moves of `pos`: first from the target square (quick_match()), else
 * against the full list, which also says why no move or several fit. See
 * the comment at the top of this file for what is accepted.
 */
enum chess_error
chess_move_parse(const struct chess_position *pos, const char *text,
    enum chess_lang lang, chess_move *out, char *why, size_t whysize)
{
	struct pattern	 p;
	struct why	 w = { why, whysize, 0, CHESS_LANG_EN };
	chess_move	 m;
	enum chess_error err;
	size_t		 start, len;

	if (out != NULL)
		*out = CHESS_MOVE_NONE;
	if (why != NULL && whysize > 0)
		why[0] = '\0';
	if (lang != CHESS_LANG_FR)
		lang = CHESS_LANG_EN;
	w.lang = lang;

	if ((err = parse_text(text, lang, &p, &start, &len)) != CHESS_OK) {
		if (len > NOTATION_TEXT_MAX)
			why_add(&w, lang == CHESS_LANG_FR ?
			    "le texte du coup est trop long" :
			    "the move text is too long");
		else
			why_add(&w, "%s", chess_strerror_lang(err, lang));
		return err;
	}
	if ((m = quick_match(pos, &p)) == CHESS_MOVE_NONE)
		return match_list(pos, &p, text + start, len, lang, out, &w);
#ifdef NOTATION_CHECK_LEGAL
	check_quick(pos, &p, m);
#endif
	if (out != NULL)
		*out = m;
	return CHESS_OK;
}
