/*
 * tests/test_position.c: tests of positions, FEN and perft.
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
 * Tests of the rules core's heart: perft suites, legal move lists, FEN in
 * and out, Chess960 start positions, Zobrist keys and the position
 * invariant. Perft depths whose expected count exceeds PERFT_SHALLOW_MAX
 * run only with CORRCHESS_PERFT_DEEP=1 (make check-deep).
 */

#include "testutil.h"

#include "chess/chess.h"

/* Largest perft count checked by make check; the rest in check-deep. */
#define PERFT_SHALLOW_MAX	5000000
#define WALK_DEPTH		2	/* plies of the invariant walk */

static int	deep;

/* Counters over all suites, printed at the end. */
static unsigned	perft_positions, perft_runs, perft_skipped;

/* Write the UCI of m, castling as king takes rook. */
static void
uci(chess_move m, char buf[6])
{
	int	from = CHESS_MOVE_FROM(m), to = CHESS_MOVE_TO(m);

	buf[0] = (char)('a' + CHESS_FILE(from));
	buf[1] = (char)('1' + CHESS_RANK(from));
	buf[2] = (char)('a' + CHESS_FILE(to));
	buf[3] = (char)('1' + CHESS_RANK(to));
	buf[4] = '\0';
	if (CHESS_MOVE_KIND(m) == CHESS_MOVE_PROMOTION) {
		buf[4] = "nbrq"[CHESS_MOVE_PROM(m) - CHESS_KNIGHT];
		buf[5] = '\0';
	}
}

/* Walk the tree `depth` plies, checking the invariant after each make. */
static uint64_t
walk(const struct chess_position *pos, int depth, const char *fen)
{
	struct chess_position	next;
	chess_move		moves[CHESS_MAX_MOVES];
	const char		*why;
	uint64_t		nodes = 0;
	int			i, n;

	n = chess_legal_moves(pos, moves);
	assert_int_equal(n, chess_legal_count(pos));
	if (depth == 1)
		return (uint64_t)n;
	for (i = 0; i < n; i++) {
		assert_true(chess_move_is_legal(pos, moves[i]));
		next = *pos;
		chess_position_make(&next, moves[i]);
		if ((why = chess_position_invalid(&next)) != NULL) {
			char	u[6];

			uci(moves[i], u);
			fail_msg("%s after %s: %s", fen, u, why);
		}
		nodes += walk(&next, depth - 1, fen);
	}
	return nodes;
}

/* Check one perft expectation, or skip it when too deep for make check. */
static void
check_perft(const char *name, const struct chess_position *pos, int depth,
    uint64_t expected)
{
	uint64_t	got;

	if (!deep && expected > PERFT_SHALLOW_MAX) {
		perft_skipped++;
		return;
	}
	got = chess_perft(pos, depth);
	if (got != expected)
		fail_msg("%s: perft %d = %llu, expected %llu", name, depth,
		    (unsigned long long)got, (unsigned long long)expected);
	perft_runs++;
}

/* chess_move_is_legal() accepts exactly the generated moves, out of all
 * 65536 move codes. */
static void
check_is_legal(const struct chess_position *pos, const char *fen)
{
	chess_move	moves[CHESS_MAX_MOVES];
	uint8_t		listed[65536 / 8];
	int		i, n, m;
	bool		in_list;

	memset(listed, 0, sizeof listed);
	n = chess_legal_moves(pos, moves);
	for (i = 0; i < n; i++)
		listed[moves[i] >> 3] |= (uint8_t)(1 << (moves[i] & 7));
	for (m = 0; m < 65536; m++) {
		in_list = (listed[m >> 3] >> (m & 7)) & 1;
		if (chess_move_is_legal(pos, (chess_move)m) != in_list)
			fail_msg("%s: move code 0x%04x: is_legal %d, listed %d",
			    fen, m, !in_list, in_list);
	}
}

/* Parse a suite FEN and run the invariant walk over it. */
static void
setup_suite_position(struct chess_position *pos, const char *fen)
{
	enum chess_error	e;
	const char		*why;

	e = chess_fen_parse(pos, fen, 0);
	if (e != CHESS_OK)
		fail_msg("%s: %s", fen, chess_strerror(e));
	if ((why = chess_position_invalid(pos)) != NULL)
		fail_msg("%s: %s", fen, why);
	if (chess_legal_count(pos) > 0)
		walk(pos, WALK_DEPTH, fen);
	/* Every position of the small suites, every 4th of the big one. */
	if (perft_positions < 200 || perft_positions % 4 == 0)
		check_is_legal(pos, fen);
	perft_positions++;
}

/* Run an EPD suite: "FEN ;id ... ;D1 20 ;D2 400 ...". */
static void
run_epd(const char *file)
{
	struct chess_position	 pos;
	char			*text, *cursor, *line, *semi, *op;
	unsigned long long	 count;
	int			 depth;

	text = cursor = test_read_data(file, NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (*line == '#' || *line == '\0')
			continue;
		semi = strchr(line, ';');
		assert_non_null(semi);
		*semi = '\0';
		setup_suite_position(&pos, line);
		for (op = strtok(semi + 1, ";"); op != NULL;
		    op = strtok(NULL, ";")) {
			if (sscanf(op, " D%d %llu", &depth, &count) == 2)
				check_perft(line, &pos, depth, count);
		}
	}
	free(text);
}

/* Run a .perft suite: "id NAME", "epd FEN", "perft DEPTH COUNT" lines. */
static void
run_perft_file(const char *file)
{
	struct chess_position	 pos;
	char			*text, *cursor, *line, name[128] = "";
	unsigned long long	 count;
	int			 depth, have = 0;

	text = cursor = test_read_data(file, NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (strncmp(line, "id ", 3) == 0) {
			snprintf(name, sizeof name, "%s: %s", file, line + 3);
			have = 0;
		} else if (strncmp(line, "epd ", 4) == 0) {
			setup_suite_position(&pos, line + 4);
			have = 1;
		} else if (sscanf(line, "perft %d %llu", &depth, &count) == 2) {
			assert_true(have);
			check_perft(name, &pos, depth, count);
		}
	}
	free(text);
}

/* The CPW positions and the Sedlak list (EPD). */
static void
test_perft_cpw_sedlak(void **state)
{
	(void)state;
	run_epd("perft/cpw-and-sedlak.epd");
}

/* The classic 127-position perft suite (EPD). */
static void
test_perft_sunfish(void **state)
{
	(void)state;
	run_epd("perft/sunfish-perft.epd");
}

/* Tricky positions: X-FEN castling, pins through e.p., impossible checks. */
static void
test_perft_tricky(void **state)
{
	(void)state;
	run_perft_file("perft/shakmaty-tricky.perft");
	run_perft_file("perft/python-chess-tricky.perft");
}

/* 960 Chess960 positions with Shredder-FEN castling fields. */
static void
test_perft_chess960(void **state)
{
	(void)state;
	run_perft_file("perft/shakmaty-chess960.perft");
	print_message("perft: %u positions, %u counts checked, %u deeper "
	    "counts left to make check-deep\n", perft_positions, perft_runs,
	    perft_skipped);
}

/* Compare a sorted, space-separated move list with our moves. */
static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Check one position of a movelist file. For the standard-variant file,
 * castling is compared as the king's destination (the file lists both
 * e1h1 and e1g1); `extra` is a move the file lists that is not legal.
 */
static void
check_movelist(const char *fen, char *list, bool king_dest,
    const char *extra)
{
	struct chess_position	 pos;
	chess_move		 moves[CHESS_MAX_MOVES];
	char			 ours[CHESS_MAX_MOVES][6];
	char			*theirs[CHESS_MAX_MOVES * 2], *tok, *save;
	char			*op[CHESS_MAX_MOVES];
	char			*tp[CHESS_MAX_MOVES * 2];
	int			 n, i, nt = 0, no = 0, k, from, to;
	enum chess_error	 e;

	e = chess_fen_parse(&pos, fen, 0);
	if (e != CHESS_OK)
		fail_msg("%s: %s", fen, chess_strerror(e));
	n = chess_legal_moves(&pos, moves);
	for (i = 0; i < n; i++) {
		if (king_dest &&
		    CHESS_MOVE_KIND(moves[i]) == CHESS_MOVE_CASTLE) {
			from = CHESS_MOVE_FROM(moves[i]);
			to = (from & 56) |
			    (CHESS_MOVE_TO(moves[i]) > from ? 6 : 2);
			moves[i] = (chess_move)CHESS_MOVE_MAKE(from, to,
			    CHESS_MOVE_NORMAL, CHESS_KNIGHT);
		}
		uci(moves[i], ours[i]);
		op[no++] = ours[i];
	}
	for (tok = strtok_r(list, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if (*tok == '\0')
			continue;
		assert_true(nt < CHESS_MAX_MOVES * 2);
		if (king_dest && strlen(tok) == 4) {
			from = CHESS_SQ(tok[0] - 'a', tok[1] - '1');
			to = CHESS_SQ(tok[2] - 'a', tok[3] - '1');
			if (from >= 0 && from < 64 && to >= 0 && to < 64 &&
			    pos.board[from] ==
			    CHESS_PIECE(pos.side, CHESS_KING) &&
			    pos.board[to] ==
			    CHESS_PIECE(pos.side, CHESS_ROOK)) {
				tok[2] = to > from ? 'g' : 'c';
			}
		}
		if (extra != NULL && strcmp(tok, extra) == 0)
			continue;
		theirs[nt++] = tok;
	}
	for (i = 0; i < nt; i++)
		tp[i] = theirs[i];
	qsort(op, (size_t)no, sizeof op[0], compare_strings);
	qsort(tp, (size_t)nt, sizeof tp[0], compare_strings);
	/* Drop the duplicates of the standard file (castling twice). */
	for (i = 0, k = 0; i < nt; i++)
		if (k == 0 || strcmp(tp[k - 1], tp[i]) != 0)
			tp[k++] = tp[i];
	nt = k;
	if (nt != no)
		fail_msg("%s: %d moves, expected %d", fen, no, nt);
	for (i = 0; i < no; i++)
		if (strcmp(op[i], tp[i]) != 0)
			fail_msg("%s: move %s, expected %s", fen, op[i], tp[i]);
}

/* Run a movelist file: a FEN line, then its legal moves in UCI. */
static int
run_movelist(const char *file, bool king_dest)
{
	char	*text, *cursor, *fen, *list;
	int	 count = 0;

	text = cursor = test_read_data(file, NULL);
	while ((fen = test_next_line(&cursor)) != NULL) {
		if (*fen == '\0')
			continue;
		list = test_next_line(&cursor);
		if (list == NULL)
			list = fen + strlen(fen);
		/*
		 * In `4rrk1/... w Ff -` the standard-variant listing adds the
		 * queenside castling g1c1 although the rook on e1 blocks the
		 * castling rook's way to d1; perft (42) does not count it.
		 */
		check_movelist(fen, list, king_dest,
		    king_dest && strncmp(fen, "4rrk1/", 6) == 0 ? "g1c1" :
		    NULL);
		count++;
	}
	free(text);
	return count;
}

/* Run a "FEN<TAB>uci=SAN uci=SAN ..." file (moves made with chessops). */
static int
run_legal_san(const char *file)
{
	char	*text, *cursor, *line, *tab, *p;
	int	 count = 0;
	bool	 blank;

	text = cursor = test_read_data(file, NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (*line == '\0')
			continue;
		tab = strchr(line, '\t');
		assert_non_null(tab);
		*tab = '\0';
		/* Keep the UCI of each "uci=SAN" token: blank out the SAN. */
		for (p = tab + 1, blank = false; *p != '\0'; p++) {
			if (*p == '=')
				blank = true;
			else if (*p == ' ')
				blank = false;
			if (blank)
				*p = ' ';
		}
		check_movelist(line, tab + 1, false, NULL);
		count++;
	}
	free(text);
	return count;
}

/* Legal move sets equal scalachess' snapshots. */
static void
test_movelists(void **state)
{
	int	n;

	(void)state;
	n = run_movelist("movelists/scalachess-moveorder-random.txt", false);
	n += run_movelist("movelists/scalachess-moveorder-chess960.txt", false);
	n += run_movelist("movelists/scalachess-moveorder-tricky.txt", true);
	/* The SAN files of notation's tests, made with chessops. */
	n += run_legal_san("notation/legal-san-standard.tsv");
	n += run_legal_san("notation/legal-san-chess960.tsv");
	assert_true(n > 15000);
	print_message("movelists: %d positions\n", n);
}

/* Each FEN fault has its own error. */
static void
test_fen_errors(void **state)
{
	static const struct {
		const char		*fen;
		enum chess_error	 error;
	} cases[] = {
		{ "", CHESS_EFEN_FIELDS },
		{ "8/8/8/8/8/8/8/K6k w", CHESS_EFEN_FIELDS },
		{ "8/8/8/8/8/8/8/K6k w - - 0 1 x", CHESS_EFEN_FIELDS },
		{ "8/8/8/8/8/8/K6k w - - 0 1", CHESS_EFEN_RANKS },
		{ "8/8/8/8/8/8/8/8/K6k w - - 0 1", CHESS_EFEN_RANKS },
		{ "7/8/8/8/8/8/8/K6k w - - 0 1", CHESS_EFEN_RANK },
		{ "8/8/8/8/8/8/8/K7k w - - 0 1", CHESS_EFEN_RANK },
		{ "44/8/8/8/8/8/8/K6k w - - 0 1", CHESS_EFEN_RANK },
		{ "8/8/8/8/8/8/8/K5xk w - - 0 1", CHESS_EFEN_PIECE },
		{ "8/8/8/8/8/8/8/K6K w - - 0 1", CHESS_EFEN_KINGS },
		{ "8/8/8/8/8/8/8/7k w - - 0 1", CHESS_EFEN_KINGS },
		{ "k7/8/8/8/8/8/8/K5kk w - - 0 1", CHESS_EFEN_KINGS },
		{ "P7/8/8/8/8/8/8/K6k w - - 0 1", CHESS_EFEN_PAWNS },
		{ "8/8/8/8/8/8/8/K5pk w - - 0 1", CHESS_EFEN_PAWNS },
		{ "8/8/8/8/8/8/8/K6k x - - 0 1", CHESS_EFEN_SIDE },
		{ "8/8/8/8/8/8/8/K6k W - - 0 1", CHESS_EFEN_SIDE },
		{ "k6R/8/8/8/8/8/8/K7 w - - 0 1", CHESS_EFEN_CHECK },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KH - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w B - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w K - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
		    CHESS_EFEN_CASTLING },
		{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
		    CHESS_EFEN_EP },
		{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1",
		    CHESS_EFEN_EP },
		{ "rnbqkbnr/pppppppp/8/8/4P3/4P3/PPP2PPP/RNBQKBNR b KQkq e3 0 1",
		    CHESS_EFEN_EP },
		{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3x 0 1",
		    CHESS_EFEN_EP },
		{ "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq i3 0 1",
		    CHESS_EFEN_EP },
		{ "8/8/8/8/8/8/8/K6k w - - x 1", CHESS_EFEN_HALFMOVE },
		{ "8/8/8/8/8/8/8/K6k w - - -1 1", CHESS_EFEN_HALFMOVE },
		{ "8/8/8/8/8/8/8/K6k w - - 99999999999 1", CHESS_EFEN_HALFMOVE },
		{ "8/8/8/8/8/8/8/K6k w - - 0 0", CHESS_EFEN_FULLMOVE },
		{ "8/8/8/8/8/8/8/K6k w - - 0 1x", CHESS_EFEN_FULLMOVE },
		{ "8/8/8/8/8/8/8/K6k w - - 0 70000", CHESS_EFEN_FULLMOVE },
	};
	struct chess_position	pos;
	char			long_fen[600];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum chess_error e = chess_fen_parse(&pos, cases[i].fen, 0);

		if (e != cases[i].error)
			fail_msg("\"%s\": got %d (%s), expected %d (%s)",
			    cases[i].fen, e, chess_strerror(e), cases[i].error,
			    chess_strerror(cases[i].error));
	}

	/* Overlong input is refused before it is read to its end. */
	memset(long_fen, ' ', sizeof long_fen);
	memcpy(long_fen, "8/8/8/8/8/8/8/K6k w - - 0 1", 27);
	long_fen[sizeof long_fen - 1] = '\0';
	assert_int_equal(chess_fen_parse(&pos, long_fen, 0), CHESS_EFEN_FIELDS);
	assert_int_equal(chess_fen_parse(&pos, NULL, 0), CHESS_EFEN_FIELDS);

	/* The counters may be missing. */
	assert_int_equal(chess_fen_parse(&pos, "8/8/8/8/8/8/8/K6k w - -", 0),
	    CHESS_OK);
	assert_int_equal(pos.halfmove, 0);
	assert_int_equal(pos.fullmove, 1);
	assert_int_equal(chess_fen_parse(&pos, "8/8/8/8/8/8/8/K6k b - - 7", 0),
	    CHESS_OK);
	assert_int_equal(pos.halfmove, 7);
	assert_int_equal(pos.fullmove, 1);
}

/* Parse fen, write it back and compare with want. */
static void
assert_fen_round(const char *fen, unsigned flags, const char *want)
{
	struct chess_position	pos;
	char			buf[CHESS_FEN_MAX];
	enum chess_error	e;

	e = chess_fen_parse(&pos, fen, flags);
	if (e != CHESS_OK)
		fail_msg("%s: %s", fen, chess_strerror(e));
	assert_null(chess_position_invalid(&pos));
	chess_fen_write(&pos, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("%s: wrote %s, expected %s", fen, buf, want);
}

/* Number of times c occurs in the first len bytes of s. */
static int
count_char(const char *s, size_t len, char c)
{
	int	n = 0;

	while (len-- > 0)
		if (*s++ == c)
			n++;
	return n;
}

/*
 * For a Chess960 game written with X-FEN castling (KQkq), check that our
 * Shredder-FEN text differs only in the castling field and reads back as
 * the same rights.
 */
static void
assert_same_but_castling(const struct chess_position *pos, const char *ours,
    const char *theirs, size_t len)
{
	struct chess_position	back;
	const char		*a, *b;
	int			i;

	assert_int_equal(chess_fen_parse(&back, ours, 0), CHESS_OK);
	assert_true(back.castling == pos->castling);
	assert_true(back.key == pos->key);
	/* Fields 1, 2, 4 and 5 are equal text. */
	for (a = ours, b = theirs, i = 0; i < 5; i++) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " ");

		if (i != 2 && (la != lb || strncmp(a, b, la) != 0))
			fail_msg("wrote %s, read %.*s", ours, (int)len, theirs);
		a += la + (a[la] == ' ');
		b += lb + (b[lb] == ' ');
	}
}

/* FEN -> position -> FEN gives the same text (first five fields). */
static void
test_fen_round_trip(void **state)
{
	struct chess_position	 pos;
	char			*text, *cursor, *line, buf[CHESS_FEN_MAX];
	char			*end;
	int			 n = 0, spaces, skipped = 0;
	size_t			 len;
	enum chess_error	 e;

	(void)state;
	text = cursor = test_read_data("fen/scalachess-replay-mainline_fen.txt",
	    NULL);
	while ((line = test_next_line(&cursor)) != NULL) {
		if (*line == '\0')
			continue;
		/* Skip the variant games: crazyhouse (a ninth "rank", the
		 * pocket) and games without a white or black king. */
		len = strcspn(line, " ");
		if (memchr(line, 'K', len) == NULL ||
		    memchr(line, 'k', len) == NULL ||
		    count_char(line, len, '/') != 7) {
			skipped++;
			continue;
		}
		if ((e = chess_fen_parse(&pos, line, 0)) != CHESS_OK)
			fail_msg("%s: %s", line, chess_strerror(e));
		assert_null(chess_position_invalid(&pos));
		chess_fen_write(&pos, buf, sizeof buf);
		/* Compare up to the fifth space (the fullmove field). */
		for (end = line, spaces = 0; *end != '\0'; end++)
			if (*end == ' ' && ++spaces == 5)
				break;
		len = (size_t)(end - line);
		if (pos.chess960)
			assert_same_but_castling(&pos, buf, line, len);
		else if (strncmp(buf, line, len) != 0 || buf[len] != ' ')
			fail_msg("wrote %s, read %s", buf, line);
		n++;
	}
	free(text);
	assert_true(n > 2000);
	assert_true(skipped < 300);

	/* Every line of the Chess960 suite, Shredder-FEN castling, whole. */
	text = cursor = test_read_data("perft/shakmaty-chess960.perft", NULL);
	n = 0;
	while ((line = test_next_line(&cursor)) != NULL) {
		if (strncmp(line, "epd ", 4) != 0)
			continue;
		assert_fen_round(line + 4, CHESS_FEN_960, line + 4);
		n++;
	}
	free(text);
	assert_int_equal(n, 960);

	/* The start position, its key equal to chess_position_start()'s. */
	chess_position_start(&pos);
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf,
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	assert_false(pos.chess960);

	/* Short buffers are cut and terminated; the length is the whole. */
	assert_int_equal(chess_fen_write(&pos, buf, 10), 56);
	assert_string_equal(buf, "rnbqkbnr/");
}

/* An e.p. square is read after any double step, kept only when legal. */
static void
test_fen_en_passant(void **state)
{
	struct chess_position	pos;

	(void)state;
	/* 1. e4: no black pawn can take. */
	assert_fen_round(
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0,
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	/* A capture is possible: the square is kept. */
	assert_fen_round(
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0,
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
	assert_int_equal(chess_fen_parse(&pos,
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0),
	    CHESS_OK);
	assert_int_equal(pos.ep, CHESS_SQ(5, 5));
	/* Horizontal pin through both pawns: the capture would expose the
	 * king to the rook, so there is no e.p. square. */
	assert_fen_round("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 0,
	    "8/8/8/K2pP2r/8/8/8/7k w - - 0 1");
	/* The capturing pawn pinned on a diagonal: it may take along the pin
	 * line (b8-h2), not off it (a1-h8). */
	assert_fen_round("1b6/8/8/3pP3/8/8/7K/k7 w - d6 0 1", 0,
	    "1b6/8/8/3pP3/8/8/7K/k7 w - d6 0 1");
	assert_fen_round("7K/8/8/3pP3/8/8/8/b6k w - d6 0 1", 0,
	    "7K/8/8/3pP3/8/8/8/b6k w - - 0 1");
	/* The captured pawn was the only blocker of a diagonal. */
	assert_fen_round("b6k/8/8/3pP3/8/8/8/7K w - d6 0 1", 0,
	    "b6k/8/8/3pP3/8/8/8/7K w - - 0 1");
	/* The double step gives check and e.p. takes the checker. */
	assert_fen_round("8/8/8/4k3/3Pp3/8/8/K7 b - d3 0 1", 0,
	    "8/8/8/4k3/3Pp3/8/8/K7 b - d3 0 1");
}

/* The square after a double step is set by make only when legal. */
static void
test_make_en_passant(void **state)
{
	struct chess_position	pos;
	char			buf[CHESS_FEN_MAX];

	(void)state;
	assert_int_equal(chess_fen_parse(&pos,
	    "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3", 0),
	    CHESS_OK);
	chess_position_make(&pos, CHESS_MOVE_MAKE(CHESS_SQ(4, 1),
	    CHESS_SQ(4, 3), CHESS_MOVE_NORMAL, CHESS_KNIGHT));
	assert_int_equal(pos.ep, CHESS_SQ(4, 2));
	assert_null(chess_position_invalid(&pos));
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf,
	    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
	chess_position_make(&pos, CHESS_MOVE_MAKE(CHESS_SQ(3, 3),
	    CHESS_SQ(4, 2), CHESS_MOVE_EP, CHESS_KNIGHT));
	assert_null(chess_position_invalid(&pos));
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf,
	    "rnbqkbnr/ppp1pppp/8/8/8/4p3/PPPP1PPP/RNBQKBNR w KQkq - 0 4");

	/* The other side pawn: h2-h4 next to nothing leaves no square. */
	chess_position_start(&pos);
	chess_position_make(&pos, CHESS_MOVE_MAKE(CHESS_SQ(7, 1),
	    CHESS_SQ(7, 3), CHESS_MOVE_NORMAL, CHESS_KNIGHT));
	assert_int_equal(pos.ep, CHESS_SQ_NONE);
}

/* X-FEN and Shredder-FEN castling fields, read and written. */
static void
test_fen_castling(void **state)
{
	struct chess_position	pos;

	(void)state;
	/* X-FEN KQkq with the king on c1: outermost rooks, Chess960. */
	assert_int_equal(chess_fen_parse(&pos,
	    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 0),
	    CHESS_OK);
	assert_true(pos.chess960);
	assert_true(pos.castling == (((chess_bb)1 << CHESS_SQ(0, 0)) |
	    ((chess_bb)1 << CHESS_SQ(4, 0)) | ((chess_bb)1 << CHESS_SQ(0, 7)) |
	    ((chess_bb)1 << CHESS_SQ(4, 7))));
	assert_fen_round(
	    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 0,
	    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1");
	/* X-FEN file letter for an inner rook; K means the outermost. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/4K1RR w G - 0 1", 0), CHESS_OK);
	assert_true(pos.castling == (chess_bb)1 << CHESS_SQ(6, 0));
	assert_true(pos.chess960);
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/4K1RR w K - 0 1", 0), CHESS_OK);
	assert_true(pos.castling == (chess_bb)1 << CHESS_SQ(7, 0));
	assert_false(pos.chess960);
	/* Shredder-FEN in, KQkq out for a standard position. */
	assert_fen_round(
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 0,
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	/* ... and Shredder-FEN out when asked for Chess960. */
	assert_fen_round(
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	    CHESS_FEN_960,
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
	assert_fen_round("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20", 0,
	    "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20");
	assert_fen_round("r3k2r/8/8/8/8/8/8/R3K2R b - - 3 20", 0,
	    "r3k2r/8/8/8/8/8/8/R3K2R b - - 3 20");
}

/* Find a legal move by its UCI text (castling as king takes rook). */
static chess_move
find_move(const struct chess_position *pos, const char *text)
{
	chess_move	moves[CHESS_MAX_MOVES];
	char		u[6];
	int		i, n;

	n = chess_legal_moves(pos, moves);
	for (i = 0; i < n; i++) {
		uci(moves[i], u);
		if (strcmp(u, text) == 0)
			return moves[i];
	}
	return CHESS_MOVE_NONE;
}

/* Chess960 castling: hidden attacker behind the rook, crossing squares. */
static void
test_castling_960(void **state)
{
	struct chess_position	pos;
	char			buf[CHESS_FEN_MAX];
	chess_move		m;

	(void)state;
	/* Rook b1 castles queenside; the rook on a1 then attacks c1. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", 0), CHESS_OK);
	assert_int_equal(find_move(&pos, "d1b1"), CHESS_MOVE_NONE);
	/* Without the hidden attacker the same castling is legal. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", 0), CHESS_OK);
	m = find_move(&pos, "d1b1");
	assert_int_not_equal(m, CHESS_MOVE_NONE);
	assert_int_equal(CHESS_MOVE_KIND(m), CHESS_MOVE_CASTLE);
	chess_position_make(&pos, m);
	assert_null(chess_position_invalid(&pos));
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf, "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

	/* King and rook swap places: g1 king, f1 rook, queenside. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/5RK1 w F - 0 1", 0), CHESS_OK);
	m = find_move(&pos, "g1f1");
	assert_int_not_equal(m, CHESS_MOVE_NONE);
	chess_position_make(&pos, m);
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf, "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

	/* King already on its square (g1), rook h1: only the rook moves. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/6KR w H - 0 1", 0), CHESS_OK);
	m = find_move(&pos, "g1h1");
	assert_int_not_equal(m, CHESS_MOVE_NONE);
	chess_position_make(&pos, m);
	chess_fen_write(&pos, buf, sizeof buf);
	assert_string_equal(buf, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");

	/* A square the rook crosses is occupied (e1 blocks f1 -> d1). */
	assert_int_equal(chess_fen_parse(&pos,
	    "4k3/8/8/8/8/8/8/4NRK1 w F - 0 1", 0), CHESS_OK);
	assert_int_equal(find_move(&pos, "g1f1"), CHESS_MOVE_NONE);

	/* Standard castling refused through an attacked square (f1). */
	assert_int_equal(chess_fen_parse(&pos,
	    "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", 0), CHESS_OK);
	assert_int_equal(find_move(&pos, "e1h1"), CHESS_MOVE_NONE);
	/* ... allowed when only the rook's squares are attacked (b1). */
	assert_int_equal(chess_fen_parse(&pos,
	    "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 0), CHESS_OK);
	assert_int_not_equal(find_move(&pos, "e1a1"), CHESS_MOVE_NONE);
	/* ... refused in check. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1", 0), CHESS_OK);
	assert_int_equal(find_move(&pos, "e1a1"), CHESS_MOVE_NONE);
	assert_false(chess_move_is_legal(&pos, CHESS_MOVE_MAKE(CHESS_SQ(4, 0),
	    CHESS_SQ(0, 0), CHESS_MOVE_CASTLE, CHESS_KNIGHT)));
	assert_true(chess_move_is_legal(&pos, CHESS_MOVE_MAKE(CHESS_SQ(4, 0),
	    CHESS_SQ(3, 0), CHESS_MOVE_NORMAL, CHESS_KNIGHT)));
	assert_false(chess_move_is_legal(&pos, CHESS_MOVE_NONE));
	/* A pinned knight has no move; the king may not step into check. */
	assert_int_equal(chess_fen_parse(&pos,
	    "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", 0), CHESS_OK);
	assert_false(chess_move_is_legal(&pos, CHESS_MOVE_MAKE(CHESS_SQ(4, 1),
	    CHESS_SQ(2, 2), CHESS_MOVE_NORMAL, CHESS_KNIGHT)));
	assert_int_equal(chess_legal_count(&pos), 4);
}

/* Chess960 start positions by Scharnagl number. */
static void
test_chess960_numbers(void **state)
{
	static const struct {
		int		 number;
		const char	*fen;
	} known[] = {
		{ 0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1" },
		{ 1, "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w HFhf - 0 1" },
		{ 518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1" },
		{ 959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1" },
	};
	struct chess_position	pos, start;
	char			buf[CHESS_FEN_MAX], seen[960][9];
	size_t			i;
	int			n, j, f, k, bishops;

	(void)state;
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		assert_int_equal(chess_position_960(&pos, known[i].number),
		    CHESS_OK);
		assert_true(pos.chess960);
		assert_null(chess_position_invalid(&pos));
		chess_fen_write(&pos, buf, sizeof buf);
		assert_string_equal(buf, known[i].fen);
	}
	chess_position_960(&pos, 518);
	chess_position_start(&start);
	assert_true(pos.key == start.key);
	assert_int_equal(chess_position_960(&pos, -1), CHESS_E960_NUMBER);
	assert_int_equal(chess_position_960(&pos, 960), CHESS_E960_NUMBER);

	/* All 960 differ; bishops on opposite colours; king between rooks. */
	for (n = 0; n < 960; n++) {
		assert_int_equal(chess_position_960(&pos, n), CHESS_OK);
		assert_null(chess_position_invalid(&pos));
		assert_int_equal(chess_legal_count(&pos) >= 18, 1);
		for (f = 0; f < 8; f++)
			seen[n][f] = "pnbrqk"[pos.board[f] & 7];
		seen[n][8] = '\0';
		for (j = 0; j < n; j++)
			assert_string_not_equal(seen[j], seen[n]);
		bishops = 0;
		for (f = 0; f < 8; f++)
			if (seen[n][f] == 'b')
				bishops |= 1 << (f & 1);
		assert_int_equal(bishops, 3);
		k = (int)(strchr(seen[n], 'k') - seen[n]);
		assert_non_null(memchr(seen[n], 'r', (size_t)k));
		assert_non_null(strchr(seen[n] + k, 'r'));
	}
}

/* Keys: incremental equals from scratch; transpositions meet. */
static void
test_keys(void **state)
{
	static const char *const line[] = { "g1f3", "g8f6", "f3g1", "f6g8" };
	struct chess_position	pos, start, other;
	size_t			i;

	(void)state;
	chess_position_start(&start);
	assert_true(start.key == chess_position_key(&start));
	pos = start;
	for (i = 0; i < 4; i++) {
		chess_move m = find_move(&pos, line[i]);

		assert_int_not_equal(m, CHESS_MOVE_NONE);
		chess_position_make(&pos, m);
		assert_true(pos.key == chess_position_key(&pos));
		if (i < 3)
			assert_true(pos.key != start.key);
	}
	assert_true(pos.key == start.key);

	/* An e.p. square that allows no capture is not part of the key. */
	assert_int_equal(chess_fen_parse(&pos,
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0),
	    CHESS_OK);
	assert_int_equal(chess_fen_parse(&other,
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0),
	    CHESS_OK);
	assert_true(pos.key == other.key);
	/* A legal one is. */
	assert_int_equal(chess_fen_parse(&pos,
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0),
	    CHESS_OK);
	assert_int_equal(chess_fen_parse(&other,
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", 0),
	    CHESS_OK);
	assert_true(pos.key != other.key);
	/* Castling rights and side to move are. */
	assert_int_equal(chess_fen_parse(&other,
	    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Qkq f6 0 3", 0),
	    CHESS_OK);
	assert_true(pos.key != other.key);

	/* The invariant notices a stale key and a broken mailbox. */
	chess_position_start(&pos);
	assert_null(chess_position_invalid(&pos));
	pos.key ^= 1;
	assert_non_null(chess_position_invalid(&pos));
	chess_position_start(&pos);
	pos.board[CHESS_SQ(4, 3)] = CHESS_PIECE(CHESS_WHITE, CHESS_PAWN);
	assert_non_null(chess_position_invalid(&pos));
}

/* Attack queries and check detection. */
static void
test_attacks(void **state)
{
	struct chess_position	pos;
	chess_bb		occ;

	(void)state;
	chess_position_start(&pos);
	occ = pos.colors[0] | pos.colors[1];
	assert_int_equal(__builtin_popcountll(chess_attacks(CHESS_KNIGHT,
	    CHESS_WHITE, CHESS_SQ(1, 0), occ)), 3);
	assert_true(chess_attacks(CHESS_ROOK, CHESS_WHITE, CHESS_SQ(0, 0), occ)
	    == (((chess_bb)1 << CHESS_SQ(1, 0)) |
	    ((chess_bb)1 << CHESS_SQ(0, 1))));
	assert_int_equal(__builtin_popcountll(chess_attacks(CHESS_QUEEN,
	    CHESS_WHITE, CHESS_SQ(3, 3), 0)), 27);
	assert_true(chess_attacks(CHESS_PAWN, CHESS_BLACK, CHESS_SQ(0, 6), 0) ==
	    (chess_bb)1 << CHESS_SQ(1, 5));
	/* f3 is attacked by white's e2 and g2 pawns and the g1 knight. */
	assert_int_equal(__builtin_popcountll(chess_attackers(&pos, CHESS_WHITE,
	    CHESS_SQ(5, 2), occ)), 3);
	assert_false(chess_position_in_check(&pos));
	assert_int_equal(chess_position_king(&pos, CHESS_BLACK),
	    CHESS_SQ(4, 7));
	assert_int_equal(chess_fen_parse(&pos,
	    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0),
	    CHESS_OK);
	assert_true(chess_position_in_check(&pos));
	assert_int_equal(chess_legal_count(&pos), 0);

	/* A zeroed struct (no king) has no moves rather than a crash. */
	memset(&pos, 0, sizeof pos);
	assert_int_equal(chess_legal_count(&pos), 0);
	assert_int_equal(chess_perft(&pos, 3), 0);
	assert_non_null(chess_position_invalid(&pos));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attacks),
		cmocka_unit_test(test_fen_errors),
		cmocka_unit_test(test_fen_round_trip),
		cmocka_unit_test(test_fen_en_passant),
		cmocka_unit_test(test_make_en_passant),
		cmocka_unit_test(test_fen_castling),
		cmocka_unit_test(test_castling_960),
		cmocka_unit_test(test_chess960_numbers),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_movelists),
		cmocka_unit_test(test_perft_cpw_sedlak),
		cmocka_unit_test(test_perft_sunfish),
		cmocka_unit_test(test_perft_tricky),
		cmocka_unit_test(test_perft_chess960),
	};
	const char	*env = getenv("CORRCHESS_PERFT_DEEP");

	deep = env != NULL && *env != '\0' && strcmp(env, "0") != 0;
	chess_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
