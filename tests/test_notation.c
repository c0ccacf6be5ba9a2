/*
 * tests/test_notation.c: tests of move notation.
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
 * Tests of move notation (notation.c): SAN, long algebraic, UCI and ICCF in
 * and out, in English and French, against every legal move of thousands of
 * positions and the plies of real games (tests/data/notation), and each
 * lenient form and each rejection with the reason given to the user.
 */

#include "testutil.h"

#include "chess/chess.h"

#define WHY_SIZE	256

/* Counters over the data-driven tests, printed at the end. */
static unsigned long	checked_positions, checked_moves, checked_plies;

/* Set up a position from FEN, failing the test when it does not parse. */
static void
setup(struct chess_position *pos, const char *fen, unsigned flags)
{
	enum chess_error	err;

	err = chess_fen_parse(pos, fen, flags);
	if (err != CHESS_OK)
		fail_msg("FEN %s: %s", fen, chess_strerror(err));
}

/* Parse `text`, failing the test (with the reason) unless it is legal. */
static chess_move
parse_ok(const struct chess_position *pos, const char *text,
    enum chess_lang lang)
{
	char			why[WHY_SIZE];
	chess_move		m;
	enum chess_error	err;

	err = chess_move_parse(pos, text, lang, &m, why, sizeof why);
	if (err != CHESS_OK)
		fail_msg("\"%s\" (%s): %s: %s", text, lang == CHESS_LANG_FR ?
		    "fr" : "en", chess_strerror(err), why);
	assert_true(chess_move_is_legal(pos, m));
	assert_string_equal(why, "");
	return m;
}

/* Assert that `text` parses, in the position of `fen`, to the move whose
 * English SAN is `san`. */
static void
expect_move(const char *fen, unsigned flags, const char *text,
    enum chess_lang lang, const char *san)
{
	struct chess_position	pos;
	char			buf[CHESS_SAN_MAX];
	chess_move		m;

	setup(&pos, fen, flags);
	m = parse_ok(&pos, text, lang);
	chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
	if (strcmp(buf, san) != 0)
		fail_msg("\"%s\" read as %s, expected %s", text, buf, san);
}

/* Assert that `text` is refused with `want` and exactly the reason `why`. */
static void
expect_error(const char *fen, unsigned flags, const char *text,
    enum chess_lang lang, enum chess_error want, const char *reason)
{
	struct chess_position	pos;
	char			why[WHY_SIZE];
	chess_move		m = 1;
	enum chess_error	err;

	setup(&pos, fen, flags);
	err = chess_move_parse(&pos, text, lang, &m, why, sizeof why);
	if (err != want)
		fail_msg("\"%s\": got \"%s\" (%s), expected \"%s\"", text,
		    chess_strerror(err), why, chess_strerror(want));
	assert_int_equal(m, CHESS_MOVE_NONE);
	if (reason != NULL && strcmp(why, reason) != 0)
		fail_msg("\"%s\": reason \"%s\", expected \"%s\"", text, why,
		    reason);
}

/* Find the legal move written in king-takes-rook UCI, or fail. */
static chess_move
find_uci(const chess_move *moves, int n, const char *uci)
{
	int	from, to, promo = -1, i;

	if (strlen(uci) < 4 || strlen(uci) > 5)
		fail_msg("bad UCI in data: %s", uci);
	from = CHESS_SQ(uci[0] - 'a', uci[1] - '1');
	to = CHESS_SQ(uci[2] - 'a', uci[3] - '1');
	if (uci[4] != '\0')
		promo = (int)(strchr("nbrq", uci[4]) - "nbrq") + CHESS_KNIGHT;
	for (i = 0; i < n; i++) {
		if (CHESS_MOVE_FROM(moves[i]) != from ||
		    CHESS_MOVE_TO(moves[i]) != to)
			continue;
		if (promo == -1 ?
		    CHESS_MOVE_KIND(moves[i]) != CHESS_MOVE_PROMOTION :
		    (CHESS_MOVE_KIND(moves[i]) == CHESS_MOVE_PROMOTION &&
		    CHESS_MOVE_PROM(moves[i]) == promo))
			return moves[i];
	}
	fail_msg("%s is not among the legal moves", uci);
	return CHESS_MOVE_NONE;
}

/* Assert that each way we write `m` reads back as `m`. */
static void
check_round_trips(const struct chess_position *pos, chess_move m)
{
	char	buf[CHESS_SAN_MAX], lan[CHESS_SAN_MAX + 2];
	size_t	n;

	n = chess_move_san(pos, m, CHESS_LANG_EN, buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_int_equal(parse_ok(pos, buf, CHESS_LANG_EN), m);
	chess_move_san(pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_int_equal(parse_ok(pos, buf, CHESS_LANG_FR), m);
	n = chess_move_uci(pos, m, buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_int_equal(parse_ok(pos, buf, CHESS_LANG_EN), m);
	assert_int_equal(parse_ok(pos, buf, CHESS_LANG_FR), m);
	if (CHESS_MOVE_KIND(m) != CHESS_MOVE_CASTLE) {
		/* Long algebraic: e2-e4, e7-e8q. */
		lan[0] = buf[0];
		lan[1] = buf[1];
		lan[2] = '-';
		memcpy(lan + 3, buf + 2, n - 1);
		assert_int_equal(parse_ok(pos, lan, CHESS_LANG_EN), m);
	}
	n = chess_move_iccf(pos, m, buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_int_equal(parse_ok(pos, buf, CHESS_LANG_EN), m);
}

/* Check every line of a legal-san file: FEN TAB uci=SAN ... */
static void
check_legal_san(const char *name, unsigned flags)
{
	struct chess_position	pos;
	chess_move		moves[CHESS_MAX_MOVES], m;
	char			*data, *cursor, *line, *f[2] = { NULL, NULL };
	char			*tok, *next, *eq;
	char			san[CHESS_SAN_MAX];
	char			list[CHESS_MAX_MOVES][CHESS_SAN_MAX];
	int			n, count, i;

	cursor = data = test_read_data(name, NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (*line == '\0')
			continue;
		assert_int_equal(test_split_tabs(line, f, 2), 2);
		setup(&pos, f[0], flags);
		n = chess_legal_moves(&pos, moves);
		/* The SAN of the whole list at once, as the game's JSON
		 * writes it: the same as one move's. */
		chess_moves_san(&pos, moves, n, CHESS_LANG_EN, list);
		for (i = 0; i < n; i++) {
			chess_move_san(&pos, moves[i], CHESS_LANG_EN, san,
			    sizeof san);
			assert_string_equal(list[i], san);
		}
		chess_moves_san(&pos, moves, n, CHESS_LANG_FR, list);
		for (i = 0; i < n; i++) {
			chess_move_san(&pos, moves[i], CHESS_LANG_FR, san,
			    sizeof san);
			assert_string_equal(list[i], san);
		}
		count = 0;
		for (tok = f[1]; tok != NULL && *tok != '\0'; tok = next) {
			if ((next = strchr(tok, ' ')) != NULL)
				*next++ = '\0';
			if ((eq = strchr(tok, '=')) == NULL)
				fail_msg("bad entry %s", tok);
			*eq = '\0';
			m = find_uci(moves, n, tok);
			/* King takes rook reads as castling everywhere. */
			assert_int_equal(parse_ok(&pos, tok, CHESS_LANG_EN), m);
			chess_move_san(&pos, m, CHESS_LANG_EN, san, sizeof san);
			if (strcmp(san, eq + 1) != 0)
				fail_msg("%s: %s written as %s, expected %s",
				    f[0], tok, san, eq + 1);
			assert_int_equal(parse_ok(&pos, eq + 1, CHESS_LANG_EN),
			    m);
			check_round_trips(&pos, m);
			count++;
			checked_moves++;
		}
		assert_int_equal(count, n);
		checked_positions++;
	}
	free(data);
}

/* Every legal move of 6906 standard positions, with chessops' SAN (one
 * move at a time and the whole list at once). */
static void
test_legal_san_standard(void **state)
{
	(void)state;
	check_legal_san("notation/legal-san-standard.tsv", 0);
}

/* Every legal move of 960 Chess960 positions, with chessops' SAN. */
static void
test_legal_san_chess960(void **state)
{
	(void)state;
	check_legal_san("notation/legal-san-chess960.tsv", CHESS_FEN_960);
}

/* Assert that the FEN of `pos` is the position of `fen`. */
static void
assert_same_position(const struct chess_position *pos, const char *fen,
    unsigned flags)
{
	struct chess_position	want;
	char			got[CHESS_FEN_MAX], exp[CHESS_FEN_MAX];

	setup(&want, fen, flags);
	chess_fen_write(pos, got, sizeof got);
	chess_fen_write(&want, exp, sizeof exp);
	assert_string_equal(got, exp);
	if (!(flags & CHESS_FEN_960))
		assert_string_equal(got, fen);
}

/*
 * The plies of real games (lichess, OTB, Chess960): parse the SAN and both
 * UCI styles, make the move, compare the FEN after, and write SAN and UCI.
 * Format: game TAB ply TAB FEN TAB SAN TAB UCI960 TAB UCI TAB FEN after.
 */
static void
test_replay_vectors(void **state)
{
	struct chess_position	pos;
	char			*data, *cursor, *line, *f[7];
	char			buf[CHESS_SAN_MAX];
	chess_move		m;
	unsigned		flags;

	(void)state;
	cursor = data = test_read_data("notation/replay-vectors.tsv", NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (*line == '\0')
			continue;
		assert_int_equal(test_split_tabs(line, f, 7), 7);
		flags = strstr(f[0], "fischerrandom") != NULL ?
		    CHESS_FEN_960 : 0;
		setup(&pos, f[2], flags);

		m = parse_ok(&pos, f[3], CHESS_LANG_EN);
		assert_int_equal(parse_ok(&pos, f[4], CHESS_LANG_EN), m);
		/* In Chess960, e1g1-style text is a king step, not castling. */
		if (!pos.chess960 || CHESS_MOVE_KIND(m) != CHESS_MOVE_CASTLE)
			assert_int_equal(parse_ok(&pos, f[5], CHESS_LANG_EN), m);

		chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
		assert_string_equal(buf, f[3]);
		chess_move_uci(&pos, m, buf, sizeof buf);
		assert_string_equal(buf, pos.chess960 ? f[4] : f[5]);
		check_round_trips(&pos, m);

		chess_position_make(&pos, m);
		assert_same_position(&pos, f[6], flags);
		checked_plies++;
	}
	free(data);
}

/*
 * The same move in every input form, English. Check, mate and annotation
 * marks are read and not checked against the position (people get them
 * wrong), and neither is the capture sign of a piece move: "Nf3#" and
 * "Nxf3" are Nf3 in the start position.
 */
static void
test_input_forms_english(void **state)
{
	static const char *const nf3[] = {
		"Nf3", "Ng1f3", "Ng1-f3", "Ngf3", "N1f3", "Ng1xf3", "Nxf3",
		"N:f3", "N-f3", "g1f3", "g1-f3", "7163", "Nf3+", "Nf3#",
		"Nf3!", "Nf3?", "Nf3!!", "Nf3?!", "Nf3!?", "Nf3??", "Nf3+!",
		"  Nf3", "Nf3 \t\r\n", " \tNf3 + ", NULL
	};
	static const char *const e4[] = {
		"e4", "e2e4", "e2-e4", "5254", "Pe4", "Pe2-e4", "e4!",
		" e4 ", "e4+", NULL
	};
	const char	*start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	    "w KQkq - 0 1";
	int		 i;

	(void)state;
	for (i = 0; nf3[i] != NULL; i++)
		expect_move(start, 0, nf3[i], CHESS_LANG_EN, "Nf3");
	for (i = 0; e4[i] != NULL; i++)
		expect_move(start, 0, e4[i], CHESS_LANG_EN, "e4");
	/* Lowercase piece letters are files or nothing. */
	expect_error(start, 0, "nf3", CHESS_LANG_EN, CHESS_EMOVE_SYNTAX, NULL);
	/* French letters mean nothing in English. */
	expect_error(start, 0, "Cf3", CHESS_LANG_EN, CHESS_EMOVE_SYNTAX, NULL);
}

/* The same move in every input form, French: R roi, D dame, T tour, F fou,
 * C cavalier. */
static void
test_input_forms_french(void **state)
{
	static const char *const cf3[] = {
		"Cf3", "Cg1f3", "Cg1-f3", "Cgf3", "Cxf3", "C:f3", "g1f3",
		"g1-f3", "7163", "Cf3+", "Cf3!?", NULL
	};
	const char	*start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	    "w KQkq - 0 1";
	/* King e1 and rook h1 can both go to f1; bishop c4, queen d2. */
	const char	*fen = "4k3/8/8/8/2B5/8/3Q4/4K2R w K - 0 1";
	int		 i;

	(void)state;
	for (i = 0; cf3[i] != NULL; i++)
		expect_move(start, 0, cf3[i], CHESS_LANG_FR, "Nf3");
	expect_move(start, 0, "e4", CHESS_LANG_FR, "e4");
	expect_move(start, 0, "e2-e4", CHESS_LANG_FR, "e4");
	expect_error(start, 0, "Nf3", CHESS_LANG_FR, CHESS_EMOVE_SYNTAX, NULL);

	/* R is the king in French, the rook in English. */
	expect_move(fen, 0, "Rf1", CHESS_LANG_FR, "Kf1");
	expect_move(fen, 0, "Rf1", CHESS_LANG_EN, "Rf1");
	expect_move(fen, 0, "Tf1", CHESS_LANG_FR, "Rf1");
	expect_move(fen, 0, "Th1-f1", CHESS_LANG_FR, "Rf1");
	expect_move(fen, 0, "Re1-f1", CHESS_LANG_FR, "Kf1");
	expect_move(fen, 0, "Fd3", CHESS_LANG_FR, "Bd3");
	expect_move(fen, 0, "Dd7+", CHESS_LANG_FR, "Qd7+");
	expect_move(fen, 0, "Dxd7", CHESS_LANG_FR, "Qd7+");
	expect_move(fen, 0, "O-O", CHESS_LANG_FR, "O-O");
}

/* SAN out in both languages, and UCI and ICCF out. */
static void
test_output(void **state)
{
	struct chess_position	pos;
	char			buf[CHESS_SAN_MAX];
	chess_move		m;

	(void)state;
	setup(&pos, "5r2/4P3/7k/8/8/8/8/R3K1N1 w Q - 0 1", 0);
	m = parse_ok(&pos, "e8=Q", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "e8=Q");
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "e8=D");
	chess_move_uci(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "e7e8q");
	chess_move_iccf(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "57581");

	m = parse_ok(&pos, "exf8=N", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "exf8=N");
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "exf8=C");
	chess_move_uci(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "e7f8n");
	chess_move_iccf(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "57684");

	m = parse_ok(&pos, "O-O-O", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "O-O-O");
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "O-O-O");
	chess_move_uci(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "e1c1");
	chess_move_iccf(&pos, m, buf, sizeof buf);
	assert_string_equal(buf, "5131");

	m = parse_ok(&pos, "Nf3", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "Cf3");
	m = parse_ok(&pos, "Kd2", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "Rd2");
	m = parse_ok(&pos, "Ra6", CHESS_LANG_EN);
	chess_move_san(&pos, m, CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "Ra6+");
	chess_move_san(&pos, m, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "Ta6+");

	/* A small buffer gets a truncated, terminated text; the length is
	 * the whole text's. */
	assert_int_equal(chess_move_san(&pos, m, CHESS_LANG_EN, buf, 3), 4);
	assert_string_equal(buf, "Ra");
	assert_int_equal(chess_move_uci(&pos, m, buf, 1), 4);
	assert_string_equal(buf, "");
	assert_int_equal(chess_move_iccf(&pos, m, NULL, 0), 4);
}

/* Disambiguation out (file, then rank, then both) and in. */
static void
test_disambiguation(void **state)
{
	struct chess_position	pos;
	char			buf[CHESS_SAN_MAX];
	const char		*fen = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";

	(void)state;
	setup(&pos, fen, 0);
	chess_move_san(&pos, parse_ok(&pos, "a1b2", CHESS_LANG_EN),
	    CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "Qa1b2");
	chess_move_san(&pos, parse_ok(&pos, "a3b2", CHESS_LANG_EN),
	    CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "Q3b2");
	chess_move_san(&pos, parse_ok(&pos, "c1b2", CHESS_LANG_EN),
	    CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "Dcb2");
	/* Only the queen on c1 reaches d1. */
	chess_move_san(&pos, parse_ok(&pos, "c1d1", CHESS_LANG_EN),
	    CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "Qd1");

	expect_move(fen, 0, "Qa1b2", CHESS_LANG_EN, "Qa1b2");
	expect_move(fen, 0, "Q3b2", CHESS_LANG_EN, "Q3b2");
	expect_move(fen, 0, "Qcb2", CHESS_LANG_EN, "Qcb2");
	expect_move(fen, 0, "Dcb2", CHESS_LANG_FR, "Qcb2");
	expect_error(fen, 0, "Qb2", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "Qb2 is ambiguous: Qa1b2, Qcb2 or Q3b2");
	expect_error(fen, 0, "Qab2", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "Qab2 is ambiguous: Qa1b2 or Q3b2");
	expect_error(fen, 0, "Db2", CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "Db2 est ambigu : Da1b2, Dcb2 ou D3b2");

	fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
	expect_error(fen, 0, "Nd2", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "Nd2 is ambiguous: Nbd2 or Nfd2");
	expect_error(fen, 0, " Cd2+ ", CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "Cd2+ est ambigu : Cbd2 ou Cfd2");
	expect_move(fen, 0, "Nbd2", CHESS_LANG_EN, "Nbd2");
	expect_move(fen, 0, "N3d2", CHESS_LANG_EN, "Nfd2");
	expect_move(fen, 0, "f3d2", CHESS_LANG_EN, "Nfd2");

	/* Rooks on one file: the rank decides. */
	fen = "4k3/8/8/8/8/R7/8/R3K3 w - - 0 1";
	expect_move(fen, 0, "R1a2", CHESS_LANG_EN, "R1a2");
	expect_move(fen, 0, "T3a2", CHESS_LANG_FR, "R3a2");
	expect_error(fen, 0, "Ra2", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "Ra2 is ambiguous: R1a2 or R3a2");
}

/* Pawn moves: push or capture, promotion forms, en passant marks. */
static void
test_pawns(void **state)
{
	static const char *const queen[] = {
		"e8=Q", "e8Q", "e8(Q)", "e8/Q", "e8q", "e8=q", "e7e8q",
		"e7e8Q", "e7-e8Q", "e7-e8=Q", "57581", "e8=Q+", "Pe8=Q", NULL
	};
	static const char *const ep[] = {
		"exf6", "exf6 e.p.", "exf6e.p.", "exf6 ep", "exf6ep",
		"exf6 e.p", "exf6 E.P.", "exf6+ e.p.", "exf6 e.p.+", "e5f6",
		"e5xf6", "5566", "ef6", "e:f6", NULL
	};
	const char	*promo = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
	const char	*epfen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR "
	    "w KQkq f6 0 3";
	const char	*both = "4k3/8/8/8/8/4p3/3P1P2/4K3 w - - 0 1";
	int		 i;

	(void)state;
	for (i = 0; queen[i] != NULL; i++)
		expect_move(promo, 0, queen[i], CHESS_LANG_EN, "e8=Q+");
	expect_move(promo, 0, "e8=D", CHESS_LANG_FR, "e8=Q+");
	expect_move(promo, 0, "e8D", CHESS_LANG_FR, "e8=Q+");
	expect_move(promo, 0, "e8=Q", CHESS_LANG_FR, "e8=Q+");
	expect_move(promo, 0, "e8=T", CHESS_LANG_FR, "e8=R+");
	/* UCI's lowercase r is a rook in French too; every other French R
	 * is the king (see test_french_promotion). */
	expect_move(promo, 0, "e7e8r", CHESS_LANG_FR, "e8=R+");
	expect_move(promo, 0, "e8=F", CHESS_LANG_FR, "e8=B");
	expect_move(promo, 0, "e8=C", CHESS_LANG_FR, "e8=N");
	expect_move(promo, 0, "e8=N", CHESS_LANG_EN, "e8=N");
	expect_move(promo, 0, "57584", CHESS_LANG_EN, "e8=N");
	expect_move(promo, 0, "57583", CHESS_LANG_EN, "e8=B");
	expect_move(promo, 0, "57582", CHESS_LANG_EN, "e8=R+");
	expect_move(promo, 0, "exd8=Q", CHESS_LANG_EN, "exd8=Q+");
	expect_move(promo, 0, "ed8Q", CHESS_LANG_EN, "exd8=Q+");
	expect_move(promo, 0, "e7xd8=R", CHESS_LANG_EN, "exd8=R+");
	expect_move(promo, 0, "57482", CHESS_LANG_EN, "exd8=R+");
	expect_error(promo, 0, "e8", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "e8 needs a promotion piece: e8=Q+, e8=R+, e8=B or e8=N");
	expect_error(promo, 0, "e7e8", CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "e7e8 ne dit pas en quelle pièce le pion est promu : "
	    "e8=D+, e8=T+, e8=F ou e8=C");
	expect_error(promo, 0, "e8=K", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "a pawn cannot promote to a king");
	expect_error(promo, 0, "e8=P", CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    NULL);
	expect_error(promo, 0, "57585", CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    NULL);
	expect_error(promo, 0, "Ke2=Q", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "only a pawn can promote");
	expect_error(epfen, 0, "e6=Q", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "a pawn promotes only on the eighth rank");

	for (i = 0; ep[i] != NULL; i++)
		expect_move(epfen, 0, ep[i], CHESS_LANG_EN, "exf6");
	expect_move(epfen, 0, "exf6 e.p.", CHESS_LANG_FR, "exf6");
	/* The mark is not checked: a plain move with it is still the move. */
	expect_move(epfen, 0, "d4 e.p.", CHESS_LANG_EN, "d4");

	/* A pawn without its file pushes ("e3"), or with the sign captures
	 * ("xe3"); "e3" is never read as a capture. */
	expect_error(both, 0, "e3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white pawn can move to e3");
	expect_move(both, 0, "dxe3", CHESS_LANG_EN, "dxe3");
	expect_move(both, 0, "de3", CHESS_LANG_EN, "dxe3");
	expect_move(both, 0, "d2e3", CHESS_LANG_EN, "dxe3");
	expect_move(both, 0, "d2xe3", CHESS_LANG_EN, "dxe3");
	expect_move(both, 0, "f:e3", CHESS_LANG_FR, "fxe3");
	expect_error(both, 0, "xe3", CHESS_LANG_EN, CHESS_EMOVE_AMBIGUOUS,
	    "xe3 is ambiguous: dxe3 or fxe3");
	expect_move(both, 0, "d3", CHESS_LANG_EN, "d3");
	expect_move(both, 0, "d4", CHESS_LANG_EN, "d4");
	expect_move(both, 0, "Pd4", CHESS_LANG_FR, "d4");
	expect_error(both, 0, "xd3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white pawn can move to d3");
}

/* Castling in every notation, standard chess. */
static void
test_castling_standard(void **state)
{
	static const char *const short_castle[] = {
		"O-O", "0-0", "o-o", "O-O+", "O-O!", "e1g1", "e1h1", "5171",
		"5181", "Ke1g1", "Ke1-g1", "e1-g1", NULL
	};
	static const char *const long_castle[] = {
		"O-O-O", "0-0-0", "o-o-o", "e1c1", "e1a1", "5131", "5111",
		NULL
	};
	const char	*fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
	int		 i;

	(void)state;
	for (i = 0; short_castle[i] != NULL; i++) {
		expect_move(fen, 0, short_castle[i], CHESS_LANG_EN, "O-O");
		if (short_castle[i][0] != 'K')
			expect_move(fen, 0, short_castle[i], CHESS_LANG_FR,
			    "O-O");
	}
	expect_move(fen, 0, "Re1-g1", CHESS_LANG_FR, "O-O");
	expect_move(fen, 0, "Re1h1", CHESS_LANG_FR, "O-O");
	for (i = 0; long_castle[i] != NULL; i++) {
		expect_move(fen, 0, long_castle[i], CHESS_LANG_EN, "O-O-O");
		expect_move(fen, 0, long_castle[i], CHESS_LANG_FR, "O-O-O");
	}
	expect_move("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 0, "e8g8",
	    CHESS_LANG_EN, "O-O");
	expect_move("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 0, "5878",
	    CHESS_LANG_EN, "O-O");
	expect_move("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 0, "e8a8",
	    CHESS_LANG_EN, "O-O-O");
	/* The king stepping to f1 is not castling. */
	expect_move(fen, 0, "e1f1", CHESS_LANG_EN, "Kf1");
	expect_move(fen, 0, "Kf1", CHESS_LANG_EN, "Kf1");
	expect_error(fen, 0, "Kg1", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white king can move to g1");
	expect_error(fen, 0, "O-O-O-O", CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    NULL);
}

/* Castling in every notation, Chess960: king f1, rooks b1 and h1. */
static void
test_castling_chess960(void **state)
{
	struct chess_position	pos;
	char			buf[CHESS_SAN_MAX];
	chess_move		oo, ooo;
	const char		*fen = "1r3k1r/8/8/8/8/8/8/1R3K1R w HBhb - 0 1";

	(void)state;
	setup(&pos, fen, CHESS_FEN_960);
	assert_true(pos.chess960);
	oo = parse_ok(&pos, "O-O", CHESS_LANG_EN);
	ooo = parse_ok(&pos, "O-O-O", CHESS_LANG_FR);
	assert_int_equal(CHESS_MOVE_KIND(oo), CHESS_MOVE_CASTLE);
	assert_int_equal(CHESS_MOVE_TO(oo), CHESS_SQ(7, 0));
	assert_int_equal(CHESS_MOVE_KIND(ooo), CHESS_MOVE_CASTLE);
	assert_int_equal(CHESS_MOVE_TO(ooo), CHESS_SQ(1, 0));

	assert_int_equal(parse_ok(&pos, "0-0", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "f1h1", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "Kf1h1", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "6181", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "f1b1", CHESS_LANG_EN), ooo);
	assert_int_equal(parse_ok(&pos, "6131", CHESS_LANG_EN), ooo);
	assert_int_equal(parse_ok(&pos, "6121", CHESS_LANG_EN), ooo);
	assert_int_equal(parse_ok(&pos, "0-0-0", CHESS_LANG_EN), ooo);

	chess_move_uci(&pos, oo, buf, sizeof buf);
	assert_string_equal(buf, "f1h1");
	chess_move_uci(&pos, ooo, buf, sizeof buf);
	assert_string_equal(buf, "f1b1");
	/* The king's g1 would also read as the step Kg1: ICCF names the
	 * rook's square instead. c1 is no king step. */
	chess_move_iccf(&pos, oo, buf, sizeof buf);
	assert_string_equal(buf, "6181");
	chess_move_iccf(&pos, ooo, buf, sizeof buf);
	assert_string_equal(buf, "6131");
	chess_move_san(&pos, ooo, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "O-O-O");

	/* In Chess960, f1g1 is the king's step, as UCI has it. */
	expect_move(fen, CHESS_FEN_960, "f1g1", CHESS_LANG_EN, "Kg1");
	expect_move(fen, CHESS_FEN_960, "Kg1", CHESS_LANG_EN, "Kg1");
	/* So is 6171 in ICCF; castling there is king takes rook (6181). */
	expect_move(fen, CHESS_FEN_960, "6171", CHESS_LANG_EN, "Kg1");
	expect_error(fen, CHESS_FEN_960, "f1c1", CHESS_LANG_EN,
	    CHESS_EMOVE_ILLEGAL, "the king on f1 cannot move to c1");

	/* King b1, rook a1: O-O-O puts the king on c1, also a king step. */
	fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
	setup(&pos, fen, CHESS_FEN_960);
	ooo = parse_ok(&pos, "O-O-O", CHESS_LANG_EN);
	chess_move_iccf(&pos, ooo, buf, sizeof buf);
	assert_string_equal(buf, "2111");
	chess_move_uci(&pos, ooo, buf, sizeof buf);
	assert_string_equal(buf, "b1a1");
	assert_int_equal(parse_ok(&pos, "2111", CHESS_LANG_EN), ooo);
	assert_int_equal(parse_ok(&pos, "b1a1", CHESS_LANG_EN), ooo);
	expect_move(fen, CHESS_FEN_960, "2131", CHESS_LANG_EN, "Kc1");
	expect_move(fen, CHESS_FEN_960, "b1c1", CHESS_LANG_EN, "Kc1");
	chess_position_make(&pos, ooo);
	assert_same_position(&pos,
	    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b ha - 1 1", CHESS_FEN_960);

	fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK3NNR w HAha - 0 1";
	expect_error(fen, CHESS_FEN_960, "O-O", CHESS_LANG_EN,
	    CHESS_EMOVE_ILLEGAL, "cannot castle kingside: the squares "
	    "between king and rook are not empty (f1, g1)");
	expect_error(fen, CHESS_FEN_960, "b1h1", CHESS_LANG_EN,
	    CHESS_EMOVE_ILLEGAL, "cannot castle kingside: the squares "
	    "between king and rook are not empty (f1, g1)");

	/* King g1, rook h1: the king stays, the rook jumps to f1. */
	fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1";
	setup(&pos, fen, CHESS_FEN_960);
	oo = parse_ok(&pos, "O-O", CHESS_LANG_EN);
	chess_move_iccf(&pos, oo, buf, sizeof buf);
	assert_string_equal(buf, "7171");
	chess_move_uci(&pos, oo, buf, sizeof buf);
	assert_string_equal(buf, "g1h1");
	assert_int_equal(parse_ok(&pos, "7171", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "7181", CHESS_LANG_EN), oo);
	assert_int_equal(parse_ok(&pos, "g1h1", CHESS_LANG_EN), oo);
	chess_position_make(&pos, oo);
	assert_same_position(&pos,
	    "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1", CHESS_FEN_960);
}

/* Each reason an illegal move is refused, in the words the user reads. */
static void
test_illegal_reasons(void **state)
{
	const char	*start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	    "w KQkq - 0 1";
	const char	*fen;

	(void)state;
	expect_error(start, 0, "Ne5", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white knight can move to e5");
	expect_error(start, 0, "Ce5", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "aucun cavalier blanc ne peut aller en e5");
	expect_error(start, 0, "Nbd2", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "white already has a pawn on d2");
	expect_error(start, 0, "Nfd4", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white knight on the f-file can move to d4");
	expect_error(start, 0, "R1a3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white rook on rank 1 can move to a3");
	expect_error(start, 0, "e5", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "no white pawn can move to e5");
	expect_error(start, 0, "e3e4", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "there is no piece on e3");
	expect_error(start, 0, "e7e5", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the pawn on e7 is black, and it is white's move");
	expect_error(start, 0, "Ne2-e4", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "there is no white knight on e2");
	expect_error(start, 0, "f1c4", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the bishop on f1 cannot move to c4");
	expect_error(start, 0, "6134", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the bishop on f1 cannot move to c4");

	/* Pinned piece. */
	fen = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1";
	expect_error(fen, 0, "Nf3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the knight on d2 is pinned");
	expect_error(fen, 0, "Cf3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le cavalier en d2 est cloué");
	/* En passant that would open the rank to the king. */
	fen = "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2";
	expect_error(fen, 0, "bxc6", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    NULL);

	/* The king walking into check. */
	fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
	expect_error(fen, 0, "Ke2", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the king would be in check on e2");
	expect_error(fen, 0, "Re2", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le roi serait en échec en e2");
	/* Capturing a defended piece with the king. */
	fen = "4k3/8/8/8/8/8/3r4/3rK3 w - - 0 1";
	expect_error(fen, 0, "Kxd1", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the king would be in check on d1");
	/* Stepping back along the checking line. */
	fen = "4k3/8/8/8/8/8/8/r3K3 w - - 0 1";
	expect_error(fen, 0, "Kf1", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the king would be in check on f1");

	/* In check, and the move does not answer it. */
	fen = "4k3/8/8/8/8/8/8/r3K2N w - - 0 1";
	expect_error(fen, 0, "Ng3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the move leaves the white king in check");
	expect_error(fen, 0, "h1g3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the move leaves the white king in check");

	/* Castling. */
	fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "white has lost the right to castle kingside");
	expect_error(fen, 0, "O-O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "white has lost the right to castle queenside");
	expect_error(fen, 0, "e1g1", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "white has lost the right to castle kingside");
	fen = "4k3/8/8/b7/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "white cannot castle out of check");
	fen = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "cannot castle through check: f1 is attacked");
	expect_error(fen, 0, "5171", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "cannot castle through check: f1 is attacked");
	fen = "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "0-0", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "castling kingside would put the king in check on g1");
	expect_error(start, 0, "O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "cannot castle kingside: the squares between king and rook are "
	    "not empty (f1, g1)");
	expect_error(start, 0, "e1h1", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "cannot castle kingside: the squares between king and rook are "
	    "not empty (f1, g1)");
	expect_error(start, 0, "O-O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "cannot castle queenside: the squares between king and rook are "
	    "not empty (b1, c1, d1)");
	/* Black's words. */
	fen = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "black has lost the right to castle kingside");
	expect_move(fen, 0, "O-O-O", CHESS_LANG_EN, "O-O-O");
}

/* Text that is no move at all. */
static void
test_syntax(void **state)
{
	static const char *const bad[] = {
		"", " ", "\t\n", "Nf9", "Ni3", "Zf3", "e4e", "hello", "0000",
		"Q@f8", "P@d2", "--", "Z0", "e", "4", "Nf", "N", "x", "+",
		"!!", "e.p.", "O-O-", "O--O", "OO", "e2e4e5", "e2 e4",
		"1. e4", "Nf3 Nc6", "e9", "i4", "55555", "5290", "525",
		"52545", "e4=", "e8=Q=Q", "Nbbd2", "N11d2", "(Q)", "e8(Q",
		"\xc3\xa9" "4", "e4\xff", "Ng1f3f", "xx", "exd", NULL
	};
	const char	*start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	    "w KQkq - 0 1";
	char		 text[1100];
	int		 i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		expect_error(start, 0, bad[i], CHESS_LANG_EN,
		    CHESS_EMOVE_SYNTAX, chess_strerror(CHESS_EMOVE_SYNTAX));
		expect_error(start, 0, bad[i], CHESS_LANG_FR,
		    CHESS_EMOVE_SYNTAX, "ce n'est pas un coup (essayez la "
		    "notation algébrique : Cf3, e2e4, e2-e4, 5254)");
	}

	/* Overlong text, however it is made. */
	memset(text, 'a', sizeof text - 1);
	text[sizeof text - 1] = '\0';
	expect_error(start, 0, text, CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    "the move text is too long");
	memset(text, ' ', sizeof text - 1);
	memcpy(text + sizeof text - 4, "e4", 2);
	expect_error(start, 0, text, CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    "the move text is too long");
	snprintf(text, sizeof text, "Nf3%40s", "!");
	expect_error(start, 0, text, CHESS_LANG_EN, CHESS_EMOVE_SYNTAX,
	    "the move text is too long");
	/* But surrounding white space within bounds is fine. */
	snprintf(text, sizeof text, "%100s%-100s", "Nf3", "");
	expect_move(start, 0, text, CHESS_LANG_EN, "Nf3");
}

/* Each reason of test_illegal_reasons and test_syntax, in French, word for
 * word: the player's language decides the sentence, not only the letters. */
static void
test_french_reasons(void **state)
{
	const char	*start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR "
	    "w KQkq - 0 1";
	const char	*e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
	    "b KQkq - 0 1";
	const char	*fen;
	char		 text[64];

	(void)state;
	/* Not a move: the hint uses French letters. English letters are not
	 * French piece letters. */
	expect_error(start, 0, "Nc3", CHESS_LANG_FR, CHESS_EMOVE_SYNTAX,
	    "ce n'est pas un coup (essayez la notation algébrique : Cf3, "
	    "e2e4, e2-e4, 5254)");
	snprintf(text, sizeof text, "Cf3%40s", "!");
	expect_error(start, 0, text, CHESS_LANG_FR, CHESS_EMOVE_SYNTAX,
	    "le texte du coup est trop long");

	/* No piece can go there. */
	expect_error(start, 0, "Cbd2", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ont déjà un pion en d2");
	expect_error(start, 0, "Cd1", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ont déjà une dame en d1");
	expect_error(start, 0, "Cfd4", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "aucun cavalier blanc de la colonne f ne peut aller en d4");
	expect_error(start, 0, "T1a3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "aucune tour blanche de la rangée 1 ne peut aller en a3");
	expect_error(start, 0, "e5", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "aucun pion blanc ne peut aller en e5");
	expect_error(e4, 0, "Dh3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "aucune dame noire ne peut aller en h3");

	/* What is on the square the text names. */
	expect_error(start, 0, "e3e4", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "il n'y a aucune pièce en e3");
	expect_error(start, 0, "e7e5", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le pion en e7 est noir, et c'est aux Blancs de jouer");
	expect_error(start, 0, "d8d5", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "la dame en d8 est noire, et c'est aux Blancs de jouer");
	expect_error(e4, 0, "e2e3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "il n'y a aucune pièce en e2");
	expect_error(e4, 0, "d2d3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le pion en d2 est blanc, et c'est aux Noirs de jouer");
	expect_error(start, 0, "Ce2-e4", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "il n'y a pas de cavalier blanc en e2");
	expect_error(start, 0, "De2-e4", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "il n'y a pas de dame blanche en e2");
	expect_error(start, 0, "f1c4", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le fou en f1 ne peut pas aller en c4");
	expect_error(start, 0, "Ta1a3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "la tour en a1 ne peut pas aller en a3");
	expect_error("1r3k1r/8/8/8/8/8/8/1R3K1R w HBhb - 0 1", CHESS_FEN_960,
	    "f1c1", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le roi en f1 ne peut pas aller en c1");

	/* Pins and checks. */
	fen = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1";
	expect_error(fen, 0, "Cf3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le cavalier en d2 est cloué");
	fen = "4k3/8/8/8/1b6/8/3Q4/4K3 w - - 0 1";
	expect_error(fen, 0, "Dd3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "la dame en d2 est clouée");
	fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
	expect_error(fen, 0, "Re2", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le roi serait en échec en e2");
	fen = "4k3/8/8/8/8/8/8/r3K2N w - - 0 1";
	expect_error(fen, 0, "Cg3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le coup laisse le roi blanc en échec");
	fen = "4K3/8/8/8/8/8/8/R3k2n b - - 0 1";
	expect_error(fen, 0, "Cg3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le coup laisse le roi noir en échec");
	/* Several pieces, each with its reason, French punctuation. */
	fen = "4k3/8/8/7N/8/8/8/r3K2N w - - 0 1";
	expect_error(fen, 0, "Cg3", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le coup laisse le roi blanc en échec ; le coup laisse le roi "
	    "blanc en échec");
	expect_error(fen, 0, "Ng3", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "the move leaves the white king in check; the move leaves the "
	    "white king in check");

	/* Castling: petit roque (kingside), grand roque (queenside). */
	fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ont perdu le droit au petit roque");
	expect_error(fen, 0, "O-O-O", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ont perdu le droit au grand roque");
	expect_error(fen, 0, "Re1g1", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ont perdu le droit au petit roque");
	expect_error("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", 0, "0-0",
	    CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Noirs ont perdu le droit au petit roque");
	fen = "4k3/8/8/b7/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "les Blancs ne peuvent pas roquer : leur roi est en échec");
	fen = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "O-O", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "roque impossible : la case f1, que le roi doit traverser, est "
	    "attaquée");
	fen = "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1";
	expect_error(fen, 0, "0-0", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "le petit roque mettrait le roi en échec en g1");
	expect_error(start, 0, "O-O", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "petit roque impossible : les cases entre le roi et la tour ne "
	    "sont pas libres (f1, g1)");
	expect_error(start, 0, "e1a1", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "grand roque impossible : les cases entre le roi et la tour ne "
	    "sont pas libres (b1, c1, d1)");

	/* Promotion where there is none. */
	fen = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
	expect_error(fen, 0, "e8=K", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "un pion ne peut pas être promu en roi");
	expect_error(fen, 0, "Re2=D", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "seul un pion peut être promu");
	expect_error("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq "
	    "f6 0 3", 0, "e6=D", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "un pion n'est promu que sur la huitième rangée");
	expect_error("4k3/8/8/8/3p4/8/8/4K3 b - - 0 1", 0, "d3=D",
	    CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "un pion n'est promu que sur la première rangée");

	/* Ambiguity, with the candidates in French letters. */
	fen = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
	expect_error(fen, 0, "Db2", CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "Db2 est ambigu : Da1b2, Dcb2 ou D3b2");
	expect_error(fen, 0, "Dab2", CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "Dab2 est ambigu : Da1b2 ou D3b2");
	expect_error("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", 0, "e8",
	    CHESS_LANG_FR, CHESS_EMOVE_AMBIGUOUS,
	    "e8 ne dit pas en quelle pièce le pion est promu : e8=D+, e8=T+, "
	    "e8=F ou e8=C");
}

/*
 * French promotion letters: D T F C first; Q, N and B, which mean nothing
 * else in French, as in English; R, the French king, refused with a reason
 * that names T; UCI's lowercase r still a rook.
 */
static void
test_french_promotion(void **state)
{
	static const char *const refused[] = {
		"e8=R", "e8R", "e8(R)", "e8/R", "e8=r", "e8r", "e7-e8=R",
		"e7e8R", "e7-e8r", "e7xe8=R", NULL
	};
	const char	*white = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
	const char	*black = "4k3/8/8/8/8/8/p7/4K3 b - - 0 1";
	int		 i;

	(void)state;
	for (i = 0; refused[i] != NULL; i++)
		expect_error(white, 0, refused[i], CHESS_LANG_FR,
		    CHESS_EMOVE_ILLEGAL, "un pion ne peut pas être promu en "
		    "roi ; en français, R est le roi : une tour s'écrit T "
		    "(e8=T)");
	expect_error(black, 0, "a1=R", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "un pion ne peut pas être promu en roi ; en français, R est le "
	    "roi : une tour s'écrit T (a1=T)");
	expect_error(white, 0, "exd8=R", CHESS_LANG_FR, CHESS_EMOVE_ILLEGAL,
	    "un pion ne peut pas être promu en roi ; en français, R est le "
	    "roi : une tour s'écrit T (d8=T)");
	/* In English R is a rook, K the king. */
	expect_move(white, 0, "e8=R", CHESS_LANG_EN, "e8=R+");
	expect_move(black, 0, "a1=R", CHESS_LANG_EN, "a1=R+");
	expect_error(black, 0, "a1=K", CHESS_LANG_EN, CHESS_EMOVE_ILLEGAL,
	    "a pawn cannot promote to a king");

	/* What French accepts. */
	expect_move(black, 0, "a1=T", CHESS_LANG_FR, "a1=R+");
	expect_move(black, 0, "a1T", CHESS_LANG_FR, "a1=R+");
	expect_move(black, 0, "a1=D", CHESS_LANG_FR, "a1=Q+");
	expect_move(white, 0, "e8=D", CHESS_LANG_FR, "e8=Q+");
	expect_move(white, 0, "e8=d", CHESS_LANG_FR, "e8=Q+");
	expect_move(white, 0, "e8=T", CHESS_LANG_FR, "e8=R+");
	expect_move(white, 0, "exd8=T", CHESS_LANG_FR, "exd8=R+");
	expect_move(white, 0, "e8=F", CHESS_LANG_FR, "e8=B");
	expect_move(white, 0, "e8=C", CHESS_LANG_FR, "e8=N");
	expect_move(white, 0, "e8=Q", CHESS_LANG_FR, "e8=Q+");
	expect_move(white, 0, "e8=N", CHESS_LANG_FR, "e8=N");
	expect_move(white, 0, "e8=B", CHESS_LANG_FR, "e8=B");
	expect_move(white, 0, "e7e8q", CHESS_LANG_FR, "e8=Q+");
	expect_move(white, 0, "e7e8r", CHESS_LANG_FR, "e8=R+");
	expect_move(black, 0, "a2a1r", CHESS_LANG_FR, "a1=R+");
	expect_move(white, 0, "57582", CHESS_LANG_FR, "e8=R+");
}

/* English SAN text (the server's lines) in French letters: every piece
 * letter, castling and promotion alike, the same as chess_move_san()
 * writes in French. */
static void
test_san_text_lang(void **state)
{
	const char		*fen = "r3k2r/1P6/8/8/8/8/8/R3K1NR w KQkq - 0 1";
	struct chess_position	 pos;
	chess_move		 moves[CHESS_MAX_MOVES];
	char			 en[CHESS_SAN_MAX], fr[CHESS_SAN_MAX], out[64];
	int			 i, n;

	(void)state;
	assert_int_equal(chess_san_text_lang("e5 Nf3 Nc6 Bb5; O-O-O Qxd8+; "
	    "Kf1 Rxh8#; b8=Q", CHESS_LANG_FR, out, sizeof out), 44);
	assert_string_equal(out, "e5 Cf3 Cc6 Fb5; O-O-O Dxd8+; Rf1 Txh8#; "
	    "b8=D");
	chess_san_text_lang("Nf3 Bb5", CHESS_LANG_EN, out, sizeof out);
	assert_string_equal(out, "Nf3 Bb5");
	/* Cut to the buffer, the full length returned. */
	assert_int_equal(chess_san_text_lang("Nf3 Bb5", CHESS_LANG_FR, out,
	    4), 7);
	assert_string_equal(out, "Cf3");
	/* Every legal move of a position with each piece and promotions. */
	setup(&pos, fen, 0);
	n = chess_legal_moves(&pos, moves);
	assert_true(n > 30);
	for (i = 0; i < n; i++) {
		chess_move_san(&pos, moves[i], CHESS_LANG_EN, en, sizeof en);
		chess_move_san(&pos, moves[i], CHESS_LANG_FR, fr, sizeof fr);
		chess_san_text_lang(en, CHESS_LANG_FR, out, sizeof out);
		assert_string_equal(out, fr);
	}
}

/* The error texts in both languages. */
static void
test_strerror_lang(void **state)
{
	int	e;

	(void)state;
	assert_string_equal(chess_strerror(CHESS_EMOVE_SYNTAX),
	    "not a move (try SAN like Nf3, or e2e4, e2-e4, 5254)");
	assert_string_equal(chess_strerror_lang(CHESS_EMOVE_SYNTAX,
	    CHESS_LANG_EN), chess_strerror(CHESS_EMOVE_SYNTAX));
	assert_string_equal(chess_strerror_lang(CHESS_EMOVE_SYNTAX,
	    CHESS_LANG_FR), "ce n'est pas un coup (essayez la notation "
	    "algébrique : Cf3, e2e4, e2-e4, 5254)");
	assert_string_equal(chess_strerror_lang(CHESS_EMOVE_ILLEGAL,
	    CHESS_LANG_FR), "coup illégal");
	assert_string_equal(chess_strerror_lang(CHESS_EMOVE_AMBIGUOUS,
	    CHESS_LANG_FR), "coup ambigu");
	assert_string_equal(chess_strerror_lang(CHESS_EFEN_KINGS,
	    CHESS_LANG_FR), "chaque camp doit avoir exactement un roi");
	/* Every error has a text of its own in each language. */
	for (e = CHESS_OK; e <= CHESS_E960_NUMBER; e++) {
		assert_string_not_equal(chess_strerror_lang(e, CHESS_LANG_FR),
		    chess_strerror_lang(e, CHESS_LANG_EN));
		assert_string_not_equal(chess_strerror_lang(e, CHESS_LANG_FR),
		    "erreur inconnue");
	}
	assert_string_equal(chess_strerror_lang(CHESS_E960_NUMBER + 1,
	    CHESS_LANG_FR), "erreur inconnue");
}

/* Small or absent reason buffers, and a NULL text. */
static void
test_reason_buffers(void **state)
{
	struct chess_position	pos;
	char			why[8];
	chess_move		m;

	(void)state;
	chess_position_start(&pos);
	assert_int_equal(chess_move_parse(&pos, "Ne5", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_EMOVE_ILLEGAL);
	assert_int_equal(chess_move_parse(&pos, "Ne5", CHESS_LANG_EN, &m,
	    why, sizeof why), CHESS_EMOVE_ILLEGAL);
	assert_string_equal(why, "no whit");
	assert_int_equal(chess_move_parse(&pos, "Ne5", CHESS_LANG_EN, &m,
	    why, 1), CHESS_EMOVE_ILLEGAL);
	assert_string_equal(why, "");
	assert_int_equal(chess_move_parse(&pos, NULL, CHESS_LANG_EN, &m,
	    why, sizeof why), CHESS_EMOVE_SYNTAX);
	assert_int_equal(m, CHESS_MOVE_NONE);
	assert_int_equal(chess_move_parse(&pos, "e4", CHESS_LANG_EN, &m,
	    NULL, 0), CHESS_OK);
	assert_int_equal(CHESS_MOVE_FROM(m), CHESS_SQ(4, 1));
}

/*
 * Random text from a move-like alphabet, and random bytes, in a few
 * positions: the parser must not crash, and what it accepts must be legal
 * and read back the same from its SAN.
 */
static void
test_random_text(void **state)
{
	static const char alphabet[] =
	    "abcdefgh12345678KQRBNPDTFCOo0-x:=+#!?()/ .ep";
	static const char *const fens[] = {
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w "
		    "KQkq - 0 1",
		"3rk3/4P3/8/8/8/8/8/R3K1N1 w Q - 0 1",
		"8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
	};
	struct chess_position	pos;
	char			text[24], why[WHY_SIZE], san[CHESS_SAN_MAX];
	chess_move		m, again;
	unsigned long		seed = 12345, ok = 0;
	enum chess_error	err;
	int			i, k, len;
	size_t			p;

	(void)state;
	for (i = 0; i < 200000; i++) {
		setup(&pos, fens[i % 4], 0);
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		len = (int)((seed >> 33) % (sizeof text));
		for (k = 0; k < len; k++) {
			seed = seed * 6364136223846793005ULL +
			    1442695040888963407ULL;
			if (i % 8 == 0)
				text[k] = (char)(seed >> 40);
			else
				text[k] = alphabet[(seed >> 33) %
				    (sizeof alphabet - 1)];
		}
		text[len] = '\0';
		err = chess_move_parse(&pos, text, (enum chess_lang)(i & 1),
		    &m, why, sizeof why);
		assert_true(strlen(why) < sizeof why);
		if (err != CHESS_OK) {
			assert_int_equal(m, CHESS_MOVE_NONE);
			assert_true(why[0] != '\0');
			continue;
		}
		ok++;
		assert_true(chess_move_is_legal(&pos, m));
		p = chess_move_san(&pos, m, (enum chess_lang)(i & 1), san,
		    sizeof san);
		assert_true(p > 0 && p < sizeof san);
		assert_int_equal(chess_move_parse(&pos, san,
		    (enum chess_lang)(i & 1), &again, NULL, 0), CHESS_OK);
		assert_int_equal(again, m);
	}
	assert_true(ok > 0);
}

/* Print what the data-driven tests covered. */
static int
report(void **state)
{
	(void)state;
	print_message("notation: %lu positions, %lu legal moves, %lu game "
	    "plies checked\n", checked_positions, checked_moves,
	    checked_plies);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_forms_english),
		cmocka_unit_test(test_input_forms_french),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_disambiguation),
		cmocka_unit_test(test_pawns),
		cmocka_unit_test(test_castling_standard),
		cmocka_unit_test(test_castling_chess960),
		cmocka_unit_test(test_illegal_reasons),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_french_reasons),
		cmocka_unit_test(test_french_promotion),
		cmocka_unit_test(test_san_text_lang),
		cmocka_unit_test(test_strerror_lang),
		cmocka_unit_test(test_reason_buffers),
		cmocka_unit_test(test_random_text),
		cmocka_unit_test(test_legal_san_standard),
		cmocka_unit_test(test_legal_san_chess960),
		cmocka_unit_test(test_replay_vectors),
	};

	chess_init();
	return cmocka_run_group_tests(tests, NULL, report);
}
