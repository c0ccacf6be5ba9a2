/*
 * tests/test_pgn.c: tests of PGN import and export.
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
 * Tests of PGN import and export: every file under data/pgn replays (games
 * and plies counted per file) or fails with the expected error; every move
 * of data/events/replay-vectors.tsv is checked (SAN, UCI, position after);
 * tag escapes; comments, NAGs, variations and the other import oddities;
 * errors naming line, ply and move, and the reader going on after them;
 * the export against a hand-checked golden file; game -> PGN -> game round
 * trips; and malformed input that must neither crash nor loop.
 */

#include "testutil.h"

#include "chess/chess.h"
#include "chess/pgn.h"

/* Counts of reading a whole text. */
struct pgn_counts {
	int	games;		/* returns of 1 or -1 */
	int	failed;		/* returns of -1 */
	long	plies;		/* plies of all games, failed ones included */
	char	err[256];	/* the first error */
};

/* Read every game of `buf`, checking that each call makes progress. */
static void
read_all(const char *buf, size_t len, struct pgn_counts *c)
{
	struct chess_pgn_reader	rd;
	struct chess_pgn_game	g;
	char			err[256];
	size_t			off;
	int			r;

	memset(c, 0, sizeof *c);
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&rd, buf, len);
	for (;;) {
		off = rd.off;
		r = chess_pgn_next(&rd, &g, err, sizeof err);
		assert_true(r == 1 || r == 0 || r == -1);
		assert_true(rd.off <= len);
		if (r == 0)
			break;
		assert_true(rd.off > off);
		c->games++;
		c->plies += (long)g.game.nply;
		if (r == -1) {
			assert_true(err[0] != '\0');
			if (c->failed++ == 0)
				snprintf(c->err, sizeof c->err, "%s", err);
		}
	}
	chess_pgn_game_free(&g);
}

/*
 * Every file: games, failed games, plies. Counts of files listed in
 * game-events.tsv are that file's (chessops); the others were counted with
 * chessops 0.15.1 by hand on this machine, less what we refuse on purpose.
 */
static const struct file_case {
	const char	*file;
	int		 br;
	int		 games, failed;
	long		 plies;
	const char	*error;		/* in the first error */
} file_cases[] = {
	/* Raw, its "<br />" separators are not PGN. */
	{ "chess.js/0.pgn", 0, 1, 1, 0, "unexpected character '<'" },
	{ "chess.js/0.pgn", 1, 1, 0, 77, NULL },
	{ "chess.js/1.pgn", 0, 1, 0, 81, NULL },
	{ "chess.js/2.pgn", 0, 1, 0, 4, NULL },
	{ "chess.js/3.pgn", 0, 1, 0, 4, NULL },
	{ "chess.js/benchmark.pgn", 0, 100, 0, 6193, NULL },
	/* Antichess is not chess: refused (chessops: 3 games, 15 plies). */
	{ "chessops/headers-and-moves-on-the-same-line.pgn", 0, 3, 3, 0,
	    "unsupported variant \"Antichess\"" },
	{ "chessops/leading-whitespace.pgn", 0, 4, 0, 20, NULL },
	{ "chessops/pathological-headers.pgn", 0, 1, 0, 0, NULL },
	{ "mliebelt/32games.pgn", 0, 32, 0, 2069, NULL },
	{ "mliebelt/benko.pgn", 0, 2, 0, 150, NULL },
	{ "mliebelt/lichess_mliebelt_2024-01-03.pgn", 0, 8, 0, 604, NULL },
	{ "mliebelt/sampleGames.pgn", 0, 9, 0, 537, NULL },
	{ "mliebelt/twic-01-232games.pgn", 0, 232, 0, 19777, NULL },
	/* 41... Z0 is a ChessBase null move: refused at ply 82. */
	{ "python-chess/anastasian-lewis.pgn", 0, 1, 1, 81,
	    "line 20 (game from line 1): ply 82 (41... Z0): null moves are "
	    "not supported" },
	{ "python-chess/chessbase-empty-line.pgn", 0, 1, 0, 134, NULL },
	{ "python-chess/cutechess-fischerrandom.pgn", 0, 4, 0, 396, NULL },
	{ "python-chess/kasparov-deep-blue-1997.pgn", 0, 6, 0, 519, NULL },
	{ "python-chess/molinari-bordais-1979.pgn", 0, 1, 0, 10, NULL },
	{ "python-chess/nepomniachtchi-liren-game1.pgn", 0, 1, 0, 97, NULL },
	{ "python-chess/stockfish-learning.pgn", 0, 1, 0, 154, NULL },
	/* UCI movetext is accepted (113 moves in the file). */
	{ "python-chess/uci-moves.pgn", 0, 1, 0, 113, NULL },
	{ "python-chess/utf8-bom.pgn", 0, 2, 0, 0, NULL },
	/* The crazyhouse game (42 plies for chessops) is refused. */
	{ "scalachess/pgn-render-pgns.txt", 0, 15, 1, 982,
	    "unsupported variant \"Crazyhouse\"" },
	{ "scalachess/pgn-render-wcc2023.txt", 0, 3, 0, 216, NULL },
	{ "shakmaty-bench/lichess_db_1000k.pgn", 0, 438, 0, 28538, NULL },
	{ "shakmaty-bench/twic1599_1000k.pgn", 0, 1110, 0, 101487, NULL },
};

/* Every file replays, or fails where and how it should. */
static void
test_files(void **state)
{
	struct pgn_counts	c;
	char			*buf;
	size_t			 i, len;
	long			 games = 0, plies = 0;

	(void)state;
	for (i = 0; i < sizeof file_cases / sizeof file_cases[0]; i++) {
		const struct file_case *fc = &file_cases[i];

		buf = test_read_pgn(fc->file, &len, fc->br);
		read_all(buf, len, &c);
		if (c.games != fc->games || c.failed != fc->failed ||
		    c.plies != fc->plies)
			fail_msg("%s: %d games, %d failed, %ld plies; expected "
			    "%d, %d, %ld (%s)", fc->file, c.games, c.failed,
			    c.plies, fc->games, fc->failed, fc->plies, c.err);
		if (fc->error != NULL && strstr(c.err, fc->error) == NULL)
			fail_msg("%s: error \"%s\", expected \"%s\"", fc->file,
			    c.err, fc->error);
		print_message("%-48s %5d games %3d refused %7ld plies\n",
		    fc->file, c.games, c.failed, c.plies);
		games += c.games;
		plies += c.plies;
		free(buf);
	}
	print_message("total: %ld games, %ld plies\n", games, plies);
}

/* Every move of replay-vectors.tsv: the move read from the PGN has the
 * expected SAN and UCI and leads to the expected position. */
static void
test_replay_vectors(void **state)
{
	char			*tsv, *cursor, *line, *f[8], *hash;
	char			*buf = NULL, file[128] = "", san[CHESS_SAN_MAX];
	char			 uci[8], err[256];
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 g;
	struct chess_position	 pos, want;
	size_t			 len;
	int			 index = -1, game, ply, rows = 0;

	(void)state;
	memset(&g, 0, sizeof g);
	tsv = test_read_data("events/replay-vectors.tsv", NULL);
	for (cursor = tsv; (line = cursor) != NULL && *line != '\0';) {
		cursor = strchr(line, '\n');
		if (cursor != NULL)
			*cursor++ = '\0';
		assert_int_equal(test_split_tabs(line, f, 8), 7);
		hash = strchr(f[0], '#');
		assert_non_null(hash);
		*hash = '\0';
		game = atoi(hash + 1);
		ply = atoi(f[1]);
		if (strcmp(f[0], file) != 0) {
			free(buf);
			buf = test_read_pgn(f[0],  &len,
			    strcmp(f[0], "chess.js/0.pgn") == 0);
			snprintf(file, sizeof file, "%s", f[0]);
			chess_pgn_reader_init(&rd, buf, len);
			index = -1;
		}
		while (index < game) {
			if (chess_pgn_next(&rd, &g, err, sizeof err) != 1)
				fail_msg("%s#%d: %s", file, game, err);
			index++;
			pos = g.game.start;
		}
		assert_true(ply >= 1 && (size_t)ply <= g.game.nply);
		assert_int_equal(chess_fen_parse(&want, f[2],
		    pos.chess960 ? CHESS_FEN_960 : 0), CHESS_OK);
		assert_true(want.key == pos.key);
		chess_move_san(&pos, g.game.moves[ply - 1], CHESS_LANG_EN, san,
		    sizeof san);
		if (strcmp(san, f[3]) != 0)
			fail_msg("%s#%d ply %d: SAN %s, expected %s", file, game,
			    ply, san, f[3]);
		chess_move_uci(&pos, g.game.moves[ply - 1], uci, sizeof uci);
		assert_string_equal(uci, pos.chess960 ? f[4] : f[5]);
		chess_position_make(&pos, g.game.moves[ply - 1]);
		assert_int_equal(chess_fen_parse(&want, f[6],
		    pos.chess960 ? CHESS_FEN_960 : 0), CHESS_OK);
		if (want.key != pos.key || want.halfmove != pos.halfmove ||
		    want.fullmove != pos.fullmove)
			fail_msg("%s#%d ply %d: position differs from %s", file,
			    game, ply, f[6]);
		rows++;
	}
	print_message("replay vectors: %d plies checked\n", rows);
	assert_int_equal(rows, 8422);
	free(buf);
	free(tsv);
	chess_pgn_game_free(&g);
}

/* Read the only game of `text`; returns chess_pgn_next()'s result. */
static int
read_one(const char *text, struct chess_pgn_game *g, char *err, size_t size)
{
	struct chess_pgn_reader	rd;

	chess_pgn_reader_init(&rd, text, strlen(text));
	return chess_pgn_next(&rd, g, err, size);
}

/* The SAN of a game's moves, space-separated. */
static void
game_sans(const struct chess_game *game, char *buf, size_t size)
{
	struct chess_position	pos = game->start;
	char			san[CHESS_SAN_MAX];
	size_t			i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < game->nply && n + CHESS_SAN_MAX + 1 < size; i++) {
		chess_move_san(&pos, game->moves[i], CHESS_LANG_EN, san,
		    sizeof san);
		n += snprintf(buf + n, size - n, "%s%s", i ? " " : "", san);
		chess_position_make(&pos, game->moves[i]);
	}
}

/* Tag escapes, odd brackets inside values, any order, BOM, empty lines. */
static void
test_tags(void **state)
{
	struct chess_pgn_reader	rd;
	struct chess_pgn_game	g;
	char			*buf, err[256];
	size_t			len;

	(void)state;
	memset(&g, 0, sizeof g);
	buf = test_read_pgn("chessops/pathological-headers.pgn", &len, 0);
	chess_pgn_reader_init(&rd, buf, len);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 7);
	assert_string_equal(chess_pgn_tag(&g, "A"), "b\"");
	assert_string_equal(chess_pgn_tag(&g, "B"), "b\"");
	assert_string_equal(chess_pgn_tag(&g, "C"), "A]]");
	assert_string_equal(chess_pgn_tag(&g, "D"), "A]][");
	assert_string_equal(chess_pgn_tag(&g, "E"), "\"A]][\"");
	assert_string_equal(chess_pgn_tag(&g, "F"), "\"A]][\"\\");
	assert_string_equal(chess_pgn_tag(&g, "G"), "\"]");
	assert_null(chess_pgn_tag(&g, "H"));
	assert_int_equal(g.game.nply, 0);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 0);
	free(buf);

	/* A byte order mark before the first tag. */
	buf = test_read_pgn("python-chess/utf8-bom.pgn", &len, 0);
	chess_pgn_reader_init(&rd, buf, len);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_string_equal(chess_pgn_tag(&g, "Event"), "A");
	assert_string_equal(g.result, "*");
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_string_equal(chess_pgn_tag(&g, "Event"), "B");
	assert_int_equal(g.line, 14);
	free(buf);

	/* An empty line inside the tag section. */
	buf = test_read_pgn("python-chess/chessbase-empty-line.pgn", &len, 0);
	chess_pgn_reader_init(&rd, buf, len);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_string_equal(chess_pgn_tag(&g, "Event"),
	    "AlphaZero vs. Stockfish");
	assert_string_equal(chess_pgn_tag(&g, "Date"), "2017.12.04");
	assert_string_equal(chess_pgn_tag(&g, "BlackFideId"), "deepmind");
	assert_string_equal(g.result, "0-1");
	free(buf);

	/* Set, replace, look up; a duplicate tag keeps the last value. */
	assert_int_equal(read_one("[Event \"a\"]\n[Event \"b\"]\n[X \"\"]\n"
	    "\n1. e4 *\n", &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 2);
	assert_string_equal(chess_pgn_tag(&g, "Event"), "b");
	assert_string_equal(chess_pgn_tag(&g, "X"), "");
	assert_int_equal(chess_pgn_set_tag(&g, "X", "long value here"), 0);
	assert_int_equal(chess_pgn_set_tag(&g, "Y", "y"), 0);
	assert_string_equal(chess_pgn_tag(&g, "X"), "long value here");
	assert_string_equal(chess_pgn_tag(&g, "Y"), "y");
	assert_int_equal(g.ntags, 3);
	chess_pgn_game_free(&g);
	assert_null(g.tags);
	assert_int_equal(g.ntags, 0);
	chess_pgn_game_free(&g);
}

/*
 * One game struct read again and again, as chess_pgn_next() is used: each
 * game has exactly its own tags, whatever the number and the lengths of
 * the tags of the games before it (their memory is reused).
 */
static void
test_tags_across_games(void **state)
{
	static const char	 text[] =
	    "[Event \"a rather long event name\"]\n"
	    "[Site \"somewhere far away\"]\n\n1. e4 *\n\n"
	    "[Event \"b\"]\n[Event \"c\"]\n\n1. d4 *\n\n"
	    "[Event \"an event name longer than any before it\"]\n"
	    "[Site \"s\"]\n[Round \"3\"]\n[White \"w\"]\n\n1. c4 *\n";
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 g;
	char			 err[256], name[16], value[64], *buf;
	size_t			 len, cap, k;
	int			 game, ntags, i;

	(void)state;
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&rd, text, strlen(text));
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 2);
	assert_string_equal(chess_pgn_tag(&g, "Event"),
	    "a rather long event name");
	assert_string_equal(chess_pgn_tag(&g, "Site"), "somewhere far away");
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 1);
	assert_string_equal(chess_pgn_tag(&g, "Event"), "c");
	assert_null(chess_pgn_tag(&g, "Site"));
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 4);
	assert_string_equal(chess_pgn_tag(&g, "Event"),
	    "an event name longer than any before it");
	assert_string_equal(chess_pgn_tag(&g, "Site"), "s");
	assert_string_equal(chess_pgn_tag(&g, "Round"), "3");
	assert_string_equal(chess_pgn_tag(&g, "White"), "w");

	/* Setting a tag to a value read from the game itself. */
	assert_int_equal(chess_pgn_set_tag(&g, "Site",
	    chess_pgn_tag(&g, "Site")), 0);
	assert_int_equal(chess_pgn_set_tag(&g, "Event",
	    chess_pgn_tag(&g, "Round")), 0);
	assert_string_equal(chess_pgn_tag(&g, "Site"), "s");
	assert_string_equal(chess_pgn_tag(&g, "Event"), "3");
	assert_int_equal(g.ntags, 4);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 0);

	/* Games of 1 to 40 tags and back, values growing and shrinking. */
	cap = 40 * 80 + 16;
	buf = malloc(cap);
	assert_non_null(buf);
	for (game = 0; game < 80; game++) {
		ntags = 1 + (game < 40 ? game : 79 - game);
		len = 0;
		for (i = 0; i < ntags; i++) {
			len += (size_t)snprintf(buf + len, cap - len,
			    "[T%d \"%.*s\"]\n", i, (game * 7 + i * 3) % 50,
			    "01234567890123456789012345678901234567890123456789");
		}
		len += (size_t)snprintf(buf + len, cap - len, "\n1. e4 *\n");
		chess_pgn_reader_init(&rd, buf, len);
		assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
		assert_int_equal(g.ntags, (size_t)ntags);
		for (i = 0; i < ntags; i++) {
			snprintf(name, sizeof name, "T%d", i);
			k = (size_t)((game * 7 + i * 3) % 50);
			snprintf(value, sizeof value, "%.*s", (int)k,
			    "01234567890123456789012345678901234567890123456789");
			assert_string_equal(chess_pgn_tag(&g, name), value);
		}
		snprintf(name, sizeof name, "T%d", ntags);
		assert_null(chess_pgn_tag(&g, name));
	}
	free(buf);
	chess_pgn_game_free(&g);
	assert_null(g.tags);
}

/* Comments, NAGs, variations, move numbers, suffixes, escapes: all read
 * past, leaving the same main line. */
static void
test_movetext_skipped(void **state)
{
	static const char *const texts[] = {
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
		"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 *",
		"1. e4 1... e5 2. Nf3 2... Nc6 3. Bb5 3...a6 *",
		"1. e4! e5? 2. Nf3!? Nc6?! 3. Bb5!! a6?? *",
		"1. e4 $1 e5 $2 $14 2. Nf3 $10 Nc6 3. Bb5 $255 a6 *",
		"{A comment} 1. e4 {one (with) [brackets]} e5 2. Nf3 {two\n"
		    "lines; and a semicolon} Nc6 3. Bb5 a6 {end} *",
		"1. e4 e5 ; a rest-of-line comment { not opened\n"
		    "2. Nf3 Nc6 3. Bb5 a6 *",
		"1. e4 (1. d4 d5 (1... Nf6 2. c4 {a ) in a comment} e6) "
		    "2. c4) 1... e5 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) "
		    "2... Nc6 3. Bb5 (3. Bc4 (3. d4 ; ( in a line comment\n"
		    ") Bc5) a6 *",
		"% an escaped line\n1. e4 e5\n% another, 2. Qh5\n"
		    "2. Nf3 Nc6 3. Bb5 a6 *",
		"[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 e5\r\n2. Nf3 Nc6 "
		    "3. Bb5 a6 *\r\n",
		"[Event \"x\"] 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
		"[Event \"x\"]\n\n[Site \"y\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
		"\xef\xbb\xbf" "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
		"1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 *",
		"1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 *",
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
	};
	struct chess_pgn_game	g;
	char			err[256], sans[256];
	size_t			i;

	(void)state;
	memset(&g, 0, sizeof g);
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		if (read_one(texts[i], &g, err, sizeof err) != 1)
			fail_msg("text %zu: %s", i, err);
		game_sans(&g.game, sans, sizeof sans);
		if (strcmp(sans, "e4 e5 Nf3 Nc6 Bb5 a6") != 0)
			fail_msg("text %zu: %s", i, sans);
		assert_string_equal(g.result, "*");
	}

	/* Results; castling with zeros; "e.p."; promotion forms. */
	assert_int_equal(read_one("1. e4 e5 1-0", &g, err, sizeof err), 1);
	assert_string_equal(g.result, "1-0");
	assert_int_equal(read_one("1. e4 0-1", &g, err, sizeof err), 1);
	assert_string_equal(g.result, "0-1");
	assert_int_equal(g.game.nply, 1);
	assert_int_equal(read_one("1/2-1/2", &g, err, sizeof err), 1);
	assert_string_equal(g.result, "1/2-1/2");
	assert_int_equal(g.game.nply, 0);
	assert_int_equal(read_one("[Result \"1-0\"]\n\n1. e4 e5", &g, err,
	    sizeof err), 1);
	assert_string_equal(g.result, "1-0");
	assert_int_equal(read_one("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 0-0 "
	    "*", &g, err, sizeof err), 1);
	game_sans(&g.game, sans, sizeof sans);
	assert_string_equal(sans, "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O");
	assert_int_equal(read_one("1. e4 Nf6 2. e5 d5 3. exd6 e.p. *", &g, err,
	    sizeof err), 1);
	game_sans(&g.game, sans, sizeof sans);
	assert_string_equal(sans, "e4 Nf6 e5 d5 exd6");
	assert_int_equal(read_one("[SetUp \"1\"]\n[FEN \"8/1P2k3/8/8/8/8/1p2K3/"
	    "8 w - - 0 1\"]\n\n1. b8=Q b1N 2. Qb7+ Kd6 *", &g, err,
	    sizeof err), 1);
	game_sans(&g.game, sans, sizeof sans);
	assert_string_equal(sans, "b8=Q b1=N Qb7+ Kd6");
	assert_int_equal(read_one("[SetUp \"1\"]\n[FEN \"8/1P2k3/8/8/8/8/1p2K3/"
	    "8 w - - 0 1\"]\n\n1. b7b8r b2b1b *", &g, err, sizeof err), 1);
	game_sans(&g.game, sans, sizeof sans);
	assert_string_equal(sans, "b8=R b1=B");
	chess_pgn_game_free(&g);
}

/* Start positions: FEN with and without SetUp, Black to move, Chess960
 * variants, unsupported variants. */
static void
test_setup(void **state)
{
	struct chess_pgn_game	g;
	char			err[256], fen[CHESS_FEN_MAX];
	struct chess_pgn_reader	rd;
	char			*buf;
	size_t			len;
	int			i;

	(void)state;
	memset(&g, 0, sizeof g);
	buf = test_read_pgn("chess.js/3.pgn", &len, 0);
	chess_pgn_reader_init(&rd, buf, len);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	chess_fen_write(&g.game.start, fen, sizeof fen);
	assert_string_equal(fen, "r1bqk1nr/pppp1ppp/2n5/4p3/1bB1P3/2P2N2/"
	    "P2P1PPP/RNBQK2R b KQkq - 0 1");
	assert_int_equal(g.game.nply, 4);
	free(buf);

	/* The FEN tag counts even without SetUp, but not with SetUp "0". */
	assert_int_equal(read_one("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n"
	    "1. O-O *", &g, err, sizeof err), 1);
	assert_int_equal(g.game.nply, 1);
	assert_int_equal(read_one("[SetUp \"0\"]\n[FEN \"4k3/8/8/8/8/8/8/"
	    "4K2R w K - 0 1\"]\n1. e4 *", &g, err, sizeof err), 1);
	assert_int_equal(g.game.nply, 1);

	/* Cute Chess' Chess960 games: X-FEN castling fields. */
	buf = test_read_pgn("python-chess/cutechess-fischerrandom.pgn", &len,
	    0);
	chess_pgn_reader_init(&rd, buf, len);
	for (i = 0; i < 4; i++) {
		assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
		assert_true(g.game.start.chess960);
	}
	free(buf);

	/* Every spelling of Chess960; without a FEN, the standard array. */
	{
		static const char *const names[] = {
			"Chess960", "chess 960", "fischerandom",
			"Fischerandom", "FischerRandom", "Fischer Random",
		};
		struct chess_position	std;
		char			text[256];
		size_t			j;

		chess_position_start(&std);
		for (j = 0; j < sizeof names / sizeof names[0]; j++) {
			snprintf(text, sizeof text, "[Variant \"%s\"]\n\n"
			    "1. e4 *", names[j]);
			if (read_one(text, &g, err, sizeof err) != 1)
				fail_msg("%s: %s", names[j], err);
			assert_true(g.game.start.chess960);
			assert_true(g.game.start.key == std.key);
		}
	}
	assert_int_equal(read_one("[Variant \"Standard\"]\n\n1. e4 *", &g, err,
	    sizeof err), 1);
	assert_false(g.game.start.chess960);
	assert_int_equal(read_one("[Variant \"Atomic\"]\n\n1. e4 *", &g, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "unsupported variant \"Atomic\""));
	assert_int_equal(read_one("[Variant \"Horde\"]\n", &g, err,
	    sizeof err), -1);
	assert_int_equal(read_one("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n"
	    "1. e4 *", &g, err, sizeof err), -1);
	assert_non_null(strstr(err, "FEN tag"));
	chess_pgn_game_free(&g);
}

/* UCI movetext (python-chess's uci-moves.pgn) is read, and written back
 * as SAN: g1f3 c7c5 e2e4 ... and e1c1 as O-O-O. */
static void
test_uci_movetext(void **state)
{
	struct chess_pgn_game	g;
	char			*buf, *out, err[256];
	size_t			len;

	(void)state;
	memset(&g, 0, sizeof g);
	buf = test_read_pgn("python-chess/uci-moves.pgn", &len, 0);
	buf[len] = '\0';
	assert_int_equal(read_one(buf, &g, err, sizeof err), 1);
	assert_int_equal(g.game.nply, 113);
	assert_string_equal(g.result, "1/2-1/2");
	out = chess_pgn_write(&g, NULL);
	assert_non_null(out);
	assert_non_null(strstr(out, "\n\n1. Nf3 c5 2. e4 d6 3. d4 cxd4 4. "
	    "Nxd4 Nf6 5. Nc3 e6 6. Be3 a6 7. g4 h6 8. Qf3\nNbd7 9. Be2 Qc7"));
	assert_non_null(strstr(out, "\n15. O-O-O Qb6 "));
	free(out);
	free(buf);
	chess_pgn_game_free(&g);
}

/* Errors name the line, the ply and the move; reading goes on. */
static void
test_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*want[3];	/* substrings of the error */
	} cases[] = {
		{ "[Event \"E1\"]\n\n1. e4 e5 2. Nf3 Nf6\n3. Bc4 Ke7 4. Qxf7 "
		    "1-0\n",
		    { "line 4 (game from line 1)", "ply 7 (4. Qxf7)",
		    "illegal" } },
		{ "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6 4. Nd5 Nd4 5. Ne5 Nxe5 *",
		    { "line 1", "ply 10 (5... Nxe5)", "" } },
		{ "1. Nf3 d5 2. d3 e5 3. Nd2 *",
		    { "ply 5 (3. Nd2)", "ambiguous", "" } },
		{ "[Event \"E\"]\n1. e4 Zz9 *",
		    { "line 2 (game from line 1)", "ply 2 (1... Zz9)", "" } },
		{ "1. e4 -- 2. d4 *",
		    { "ply 2 (1... --)", "null moves are not supported", "" } },
		{ "1. e4 e5 2. 0000 *",
		    { "ply 3 (2. 0000)", "null moves are not supported", "" } },
		{ "1. e4 @@@@ *",
		    { "ply 2 (1... @@@@)", "null moves", "" } },
		{ "1. e4 e5 2. Nf3 {not closed",
		    { "comment not closed", "", "" } },
		{ "1. e4 (1. d4 d5",
		    { "variation not closed", "", "" } },
		{ "[Event \"no end\n1. e4 *",
		    { "line 1", "value not closed", "" } },
		{ "[Event]\n1. e4 *",
		    { "malformed tag Event: no quoted value", "", "" } },
		{ "[Event \"x\"\n1. e4 *",
		    { "no closing bracket", "", "" } },
		{ "1. e4 & e5 *",
		    { "unexpected character '&'", "", "" } },
		{ "1. e4 e5 \xc2\xbd-\xc2\xbd",
		    { "line 1", "unexpected byte 0xc2", "" } },
		{ "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. " "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNN"
		    "NNNNNNNNNN *",
		    { "ply 7 (4. NNNNNNNNNNNN", "too long", "" } },
	};
	struct chess_pgn_reader	rd;
	struct chess_pgn_game	g;
	char			text[1024], err[256], sans[64];
	size_t			i, j;

	(void)state;
	memset(&g, 0, sizeof g);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* Each bad game is followed by a good one. */
		snprintf(text, sizeof text, "%s\n\n[Event \"next\"]\n\n"
		    "1. d4 d5 2. c4 *\n", cases[i].text);
		chess_pgn_reader_init(&rd, text, strlen(text));
		if (chess_pgn_next(&rd, &g, err, sizeof err) != -1)
			fail_msg("case %zu read without error", i);
		for (j = 0; j < 3; j++) {
			if (strstr(err, cases[i].want[j]) == NULL)
				fail_msg("case %zu: \"%s\" lacks \"%s\"", i,
				    err, cases[i].want[j]);
		}
		/* An open comment or variation runs to the end. */
		if (strstr(err, "not closed") != NULL &&
		    strstr(err, "value") == NULL) {
			assert_int_equal(chess_pgn_next(&rd, &g, err,
			    sizeof err), 0);
			continue;
		}
		if (chess_pgn_next(&rd, &g, err, sizeof err) != 1)
			fail_msg("case %zu: next game: %s", i, err);
		assert_string_equal(chess_pgn_tag(&g, "Event"), "next");
		game_sans(&g.game, sans, sizeof sans);
		assert_string_equal(sans, "d4 d5 c4");
		assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 0);
	}

	/* An unclosed comment after the last game is reported. */
	chess_pgn_reader_init(&rd, "1. e4 *\n{ open", 14);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 1);
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), -1);
	assert_non_null(strstr(err, "line 2 (game from line 2): comment"));
	assert_int_equal(chess_pgn_next(&rd, &g, err, sizeof err), 0);

	/* A tiny error buffer, and none at all. */
	assert_int_equal(read_one("1. e5 *", &g, err, 8), -1);
	assert_int_equal(strlen(err), 7);
	assert_int_equal(read_one("1. e5 *", &g, NULL, 0), -1);
	chess_pgn_game_free(&g);
}

/* Limits on tag sizes and counts. */
static void
test_limits(void **state)
{
	struct chess_pgn_game	g;
	char			*text, err[256];
	size_t			n, i;

	(void)state;
	memset(&g, 0, sizeof g);
	text = malloc(65536);
	assert_non_null(text);

	/* A value of 4095 bytes is kept, 4096 is refused. */
	for (n = 4095; n <= 4096; n++) {
		memcpy(text, "[Annotator \"", 12);
		memset(text + 12, 'v', n);
		snprintf(text + 12 + n, 64, "\"]\n\n1. e4 *");
		if (n == 4095) {
			assert_int_equal(read_one(text, &g, err, sizeof err), 1);
			assert_int_equal(strlen(chess_pgn_tag(&g, "Annotator")),
			    4095);
		} else {
			assert_int_equal(read_one(text, &g, err, sizeof err),
			    -1);
			assert_non_null(strstr(err, "longer than 4095"));
		}
	}

	/* A name of 256 bytes is refused. */
	text[0] = '[';
	memset(text + 1, 'N', 256);
	snprintf(text + 257, 64, " \"v\"]\n\n1. e4 *");
	assert_int_equal(read_one(text, &g, err, sizeof err), -1);
	assert_non_null(strstr(err, "tag name longer than 255"));

	/* 256 tags are kept, the 257th is refused. */
	for (n = 0, i = 0; i < 257; i++)
		n += snprintf(text + n, 65536 - n, "[T%zu \"%zu\"]\n", i, i);
	snprintf(text + n, 65536 - n, "\n1. e4 *");
	assert_int_equal(read_one(text, &g, err, sizeof err), -1);
	assert_non_null(strstr(err, "more than 256 tags"));
	for (n = 0, i = 0; i < 256; i++)
		n += snprintf(text + n, 65536 - n, "[T%zu \"%zu\"]\n", i, i);
	snprintf(text + n, 65536 - n, "\n1. e4 *");
	assert_int_equal(read_one(text, &g, err, sizeof err), 1);
	assert_int_equal(g.ntags, 256);

	/* Deeply nested variations need no stack. */
	memset(text, '(', 30000);
	memset(text + 30000, ')', 30000);
	snprintf(text + 60000, 64, " 1. e4 *");
	assert_int_equal(read_one(text, &g, err, sizeof err), 1);
	assert_int_equal(g.game.nply, 1);
	free(text);
	chess_pgn_game_free(&g);
}

/* The export of hand-written games equals the hand-checked golden file:
 * roster first with "?" defaults, other tags in order, escapes, SetUp/FEN,
 * Variant, move numbers ("7..." when Black starts), 80 columns. */
static void
test_write_golden(void **state)
{
	struct chess_pgn_reader	rd;
	struct chess_pgn_game	g;
	char			*in, *golden, *out, *all = NULL, err[256];
	size_t			inlen, outlen, alllen = 0, i, col;
	int			r, games = 0;

	(void)state;
	memset(&g, 0, sizeof g);
	in = test_read_data("pgn/golden/input.pgn", &inlen);
	golden = test_read_data("pgn/golden/output.pgn", NULL);
	chess_pgn_reader_init(&rd, in, inlen);
	while ((r = chess_pgn_next(&rd, &g, err, sizeof err)) != 0) {
		if (r != 1)
			fail_msg("%s", err);
		out = chess_pgn_write(&g, &outlen);
		assert_non_null(out);
		assert_int_equal(strlen(out), outlen);
		all = realloc(all, alllen + outlen + 2);
		assert_non_null(all);
		if (games++ > 0)
			all[alllen++] = '\n';
		memcpy(all + alllen, out, outlen + 1);
		alllen += outlen;
		free(out);
	}
	assert_int_equal(games, 4);
	assert_string_equal(all, golden);

	/* A zeroed game is an empty game from the standard position. */
	chess_pgn_game_free(&g);
	out = chess_pgn_write(&g, &outlen);
	assert_non_null(out);
	assert_string_equal(out, "[Event \"?\"]\n[Site \"?\"]\n"
	    "[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
	    "[Black \"?\"]\n[Result \"*\"]\n\n*\n");
	free(out);
	for (i = 0, col = 0; i < alllen; i++) {
		col = all[i] == '\n' ? 0 : col + 1;
		assert_true(col <= 80);
	}
	free(all);
	free(golden);
	free(in);
	chess_pgn_game_free(&g);
}

/* Compare the tags of a game read back from its export with the
 * original's. */
static void
check_tags(const struct chess_pgn_game *a, const struct chess_pgn_game *b,
    const char *where)
{
	const char	*v;
	size_t		 i;

	for (i = 0; i < a->ntags; i++) {
		const char *name = a->tags[i].name;

		if (strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0 ||
		    strcmp(name, "Result") == 0 ||
		    (strcmp(name, "Variant") == 0 && a->game.start.chess960))
			continue;
		v = chess_pgn_tag(b, name);
		if (v == NULL || strcmp(v, a->tags[i].value) != 0)
			fail_msg("%s: tag %s \"%s\" came back as \"%s\"", where,
			    name, a->tags[i].value, v ? v : "(none)");
	}
	assert_string_equal(chess_pgn_tag(b, "Result"), a->result);
	if (a->game.start.chess960)
		assert_string_equal(chess_pgn_tag(b, "Variant"), "Chess960");
}

/* Every game of every file: write, read back, same start, moves, tags,
 * result; writing again gives the same text. */
static void
test_round_trip(void **state)
{
	struct chess_pgn_reader	rd, rd2;
	struct chess_pgn_game	g, h;
	char			*buf, *out, *out2, err[256], where[128];
	char			fa[CHESS_FEN_MAX], fb[CHESS_FEN_MAX];
	size_t			i, len, outlen, out2len;
	int			r, n, games = 0;

	(void)state;
	memset(&g, 0, sizeof g);
	memset(&h, 0, sizeof h);
	for (i = 0; i < sizeof file_cases / sizeof file_cases[0]; i++) {
		if (i > 0 && strcmp(file_cases[i].file,
		    file_cases[i - 1].file) == 0)
			continue;
		buf = test_read_pgn(file_cases[i].file, &len, file_cases[i].br);
		chess_pgn_reader_init(&rd, buf, len);
		for (n = 0; (r = chess_pgn_next(&rd, &g, err, sizeof err)) != 0;
		    n++) {
			if (r != 1)
				continue;
			snprintf(where, sizeof where, "%s#%d",
			    file_cases[i].file, n);
			out = chess_pgn_write(&g, &outlen);
			assert_non_null(out);
			chess_pgn_reader_init(&rd2, out, outlen);
			if (chess_pgn_next(&rd2, &h, err, sizeof err) != 1)
				fail_msg("%s: %s\n%s", where, err, out);
			assert_int_equal(chess_pgn_next(&rd2, &h, err,
			    sizeof err), 0);
			/* The reader left h as the game read. */
			chess_pgn_reader_init(&rd2, out, outlen);
			assert_int_equal(chess_pgn_next(&rd2, &h, err,
			    sizeof err), 1);
			chess_fen_write(&g.game.start, fa, sizeof fa);
			chess_fen_write(&h.game.start, fb, sizeof fb);
			assert_string_equal(fa, fb);
			assert_int_equal(g.game.start.chess960,
			    h.game.start.chess960);
			assert_int_equal(g.game.nply, h.game.nply);
			assert_memory_equal(g.game.moves, h.game.moves,
			    g.game.nply * sizeof g.game.moves[0]);
			chess_fen_write(&g.game.pos, fa, sizeof fa);
			chess_fen_write(&h.game.pos, fb, sizeof fb);
			assert_string_equal(fa, fb);
			assert_string_equal(g.result, h.result);
			check_tags(&g, &h, where);
			out2 = chess_pgn_write(&h, &out2len);
			assert_non_null(out2);
			assert_string_equal(out, out2);
			free(out);
			free(out2);
			games++;
		}
		free(buf);
	}
	print_message("round trip: %d games\n", games);
	assert_true(games > 1900);
	chess_pgn_game_free(&g);
	chess_pgn_game_free(&h);
}

/* Read "FEN + one move" and return the move read, or CHESS_MOVE_NONE. */
static chess_move
read_move(const char *fen, int chess960, const char *move,
    struct chess_pgn_game *g)
{
	char	text[256], err[256];

	snprintf(text, sizeof text, "%s[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n",
	    chess960 ? "[Variant \"Chess960\"]\n" : "", fen, move);
	if (read_one(text, g, err, sizeof err) != 1 || g->game.nply != 1)
		return CHESS_MOVE_NONE;
	return g->game.moves[0];
}

/* Every legal move of every position of some real games (and of a few
 * made for promotions, e.p., disambiguation and Chess960 castling), in
 * SAN, without check marks, and in UCI, reads back as that move. */
static void
test_every_legal_move(void **state)
{
	static const char *const files[] = {
		"mliebelt/twic-01-232games.pgn",
		"python-chess/cutechess-fischerrandom.pgn",
		"python-chess/kasparov-deep-blue-1997.pgn",
	};
	static const char *const fens[] = {
		/* Three queens that reach e4; knights on b1 and f1. */
		"2k5/8/8/8/Q6Q/8/8/1N2KN1Q w - - 0 1",
		/* Promotions, with and without capture, both sides. */
		"1n2k2r/PP4P1/8/8/8/8/pp4p1/1N2K2R w Kk - 0 1",
		"1n2k2r/PP4P1/8/8/8/8/pp4p1/1N2K2R b Kk - 0 1",
		/* E.p. capture from both sides; one that would uncover the
		 * king on its rank. */
		"4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
		"8/8/8/8/k3pP1R/8/8/4K3 b - f3 0 1",
		/* Rooks disambiguated by file and by rank. */
		"3k4/8/8/R6R/8/8/8/R3K3 w Q - 0 1",
		/* Chess960: king on b1, rooks a1 and c1 (both castlings). */
		"1r1k1r2/8/8/8/8/8/8/RKR5 w ACfb - 0 1",
	};
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 pg, one;
	struct chess_position	 pos;
	chess_move		 moves[CHESS_MAX_MOVES], got;
	char			*buf, fen[CHESS_FEN_MAX], san[CHESS_SAN_MAX];
	char			 uci[8], err[256];
	size_t			 len, f, i, k;
	int			 n, j, positions = 0, checked = 0, extra;

	(void)state;
	memset(&pg, 0, sizeof pg);
	memset(&one, 0, sizeof one);
	extra = (int)(sizeof fens / sizeof fens[0]);
	for (f = 0; f < sizeof files / sizeof files[0] + 1; f++) {
		buf = NULL;
		if (f < sizeof files / sizeof files[0]) {
			buf = test_read_pgn(files[f], &len, 0);
			chess_pgn_reader_init(&rd, buf, len);
		}
		for (;;) {
			if (buf != NULL) {
				if (chess_pgn_next(&rd, &pg, err, sizeof err) !=
				    1)
					break;
			} else {
				if (extra == 0)
					break;
				if (chess_fen_parse(&pos, fens[--extra], 0) !=
				    CHESS_OK)
					fail_msg("bad FEN %s", fens[extra]);
				chess_game_free(&pg.game);
				assert_int_equal(chess_game_init(&pg.game,
				    &pos), 0);
			}
			pos = pg.game.start;
			for (i = 0; i <= pg.game.nply; i++) {
				chess_fen_write(&pos, fen, sizeof fen);
				n = chess_legal_moves(&pos, moves);
				for (j = 0; j < n; j++) {
					chess_move_san(&pos, moves[j],
					    CHESS_LANG_EN, san, sizeof san);
					got = read_move(fen, pos.chess960, san,
					    &one);
					if (got != moves[j])
						fail_msg("%s: %s read as %04x",
						    fen, san, got);
					k = strcspn(san, "+#");
					san[k] = '\0';
					got = read_move(fen, pos.chess960, san,
					    &one);
					assert_true(got == moves[j]);
					chess_move_uci(&pos, moves[j], uci,
					    sizeof uci);
					got = read_move(fen, pos.chess960, uci,
					    &one);
					if (got != moves[j])
						fail_msg("%s: %s read as %04x",
						    fen, uci, got);
					checked++;
				}
				positions++;
				if (i < pg.game.nply)
					chess_position_make(&pos,
					    pg.game.moves[i]);
			}
			if (buf == NULL)
				chess_game_free(&pg.game);
		}
		free(buf);
	}
	print_message("every legal move: %d positions, %d moves\n",
	    positions, checked);
	chess_pgn_game_free(&pg);
	chess_pgn_game_free(&one);
}

/* A small deterministic generator for the malformed-input test. */
static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Read `len` bytes copied to a buffer of exactly that size (no NUL after
 * it), writing back every game read. */
static int
read_exact(const char *src, size_t len, struct chess_pgn_game *g)
{
	struct chess_pgn_reader	 rd;
	char			*buf, err[128], *out;
	size_t			 off;
	int			 r, n = 0;

	buf = malloc(len ? len : 1);
	assert_non_null(buf);
	memcpy(buf, src, len);
	chess_pgn_reader_init(&rd, buf, len);
	for (;;) {
		off = rd.off;
		r = chess_pgn_next(&rd, g, err, sizeof err);
		if (r == 0)
			break;
		assert_true(rd.off > off && rd.off <= len);
		if (r == 1) {
			out = chess_pgn_write(g, NULL);
			assert_non_null(out);
			free(out);
		}
		n++;
	}
	free(buf);
	return n;
}

/* Truncated and mutated real games neither crash nor loop, and every
 * call makes progress. */
static void
test_malformed(void **state)
{
	static const char noise[] = "[]{}()\"\\\n\r;%$!?.*-/0123456789 "
	    "abcdefghNBRQKOxZ=+#\t\xef\xbb\xbf\x80\xff";
	struct chess_pgn_game	 g;
	char			*buf, *copy;
	size_t			 len, cut, k;
	uint32_t		 seed = 12345;
	int			 round, games = 0;

	(void)state;
	memset(&g, 0, sizeof g);
	buf = test_read_pgn("python-chess/kasparov-deep-blue-1997.pgn", &len,
	    0);
	for (cut = 0; cut <= len && cut < 1500; cut++)
		games += read_exact(buf, cut, &g);
	copy = malloc(len);
	assert_non_null(copy);
	for (round = 0; round < 3000; round++) {
		memcpy(copy, buf, len);
		for (k = 0; k < 1 + lcg(&seed) % 8; k++) {
			copy[lcg(&seed) % len] = lcg(&seed) % 4 == 0 ?
			    (char)lcg(&seed) :
			    noise[lcg(&seed) % (sizeof noise - 1)];
		}
		games += read_exact(copy, len, &g);
		games += read_exact(copy + lcg(&seed) % (len - len / 3),
		    len / 3, &g);
	}
	/* A NUL byte is just an unexpected character. */
	games += read_exact("1. e4\0 e5 *", 11, &g);
	print_message("malformed input: %d games or errors\n", games);
	free(copy);
	free(buf);
	chess_pgn_game_free(&g);
}

/* Comments: read where they stand when asked, written back there, words
 * re-wrapped, a Black move numbered again after one. */
static void
test_comments(void **state)
{
	static const char in[] =
	    "[Event \"x\"]\n\n{before [%cckey a\nAAAA]} 1. e4 {one}\n"
	    "{two  words} e5 (1... c5 {in a variation}) 2. Nf3 {end} *\n";
	struct chess_pgn_reader	 r;
	struct chess_pgn_game	 g;
	char			 err[256], *out;
	size_t			 len;

	(void)state;
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&r, in, strlen(in));
	assert_int_equal(chess_pgn_next(&r, &g, err, sizeof err), 1);
	assert_int_equal(g.ncomments, 0);	/* not kept unless asked */
	chess_pgn_reader_init(&r, in, strlen(in));
	r.keep_comments = 1;
	assert_int_equal(chess_pgn_next(&r, &g, err, sizeof err), 1);
	assert_int_equal(g.ncomments, 4);
	assert_int_equal(g.comments[0].ply, 0);
	assert_string_equal(g.comments[0].text, "before [%cckey a\nAAAA]");
	assert_int_equal(g.comments[1].ply, 1);
	assert_string_equal(g.comments[1].text, "one");
	assert_int_equal(g.comments[2].ply, 1);
	assert_int_equal(g.comments[3].ply, 3);
	out = chess_pgn_write(&g, &len);
	assert_non_null(out);
	assert_non_null(strstr(out, "\n{before [%cckey a AAAA]} 1. e4 {one} "
	    "{two words} 1... e5 2. Nf3 {end} *\n"));
	free(out);
	assert_int_equal(chess_pgn_add_comment(&g, 0, "a } inside"), -1);
	chess_pgn_game_free(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_replay_vectors),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_tags_across_games),
		cmocka_unit_test(test_movetext_skipped),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_uci_movetext),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_write_golden),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_legal_move),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_comments),
	};

	chess_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
