/*
 * tests/test_history.c: tests of a game's history and end states.
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
 * Tests of game history and end states: every status from hand-made
 * positions and move sequences, the order in which they are reported,
 * repetition with castling rights and e.p. squares, mating material, and
 * the events of real games (data/events/game-events.tsv, computed with
 * chessops and checked with python-chess) replayed from data/pgn.
 */

#include "testutil.h"

#include "chess/chess.h"
#include "chess/pgn.h"

/* Start `g` from `fen`. */
static void
game_from_fen(struct chess_game *g, const char *fen)
{
	struct chess_position	pos;
	enum chess_error	e;

	e = chess_fen_parse(&pos, fen, 0);
	if (e != CHESS_OK)
		fail_msg("FEN %s: %s", fen, chess_strerror(e));
	assert_int_equal(chess_game_init(g, &pos), 0);
}

/* Play one move given in SAN. */
static void
play1(struct chess_game *g, const char *san)
{
	chess_move		m;
	char			why[128];
	enum chess_error	e;

	e = chess_move_parse(&g->pos, san, CHESS_LANG_EN, &m, why, sizeof why);
	if (e != CHESS_OK)
		fail_msg("move %s: %s %s", san, chess_strerror(e), why);
	assert_int_equal(chess_game_push(g, m), 0);
}

/* Play `times` times the space-separated SAN moves of `moves`. */
static void
play(struct chess_game *g, const char *moves, int times)
{
	char	buf[256], *tok, *save;

	while (times-- > 0) {
		snprintf(buf, sizeof buf, "%s", moves);
		for (tok = strtok_r(buf, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save))
			play1(g, tok);
	}
}

/* The status of the position reached by `fen`. */
static enum chess_status
fen_status(const char *fen)
{
	struct chess_game	g;
	enum chess_status	st;

	game_from_fen(&g, fen);
	st = chess_game_status(&g);
	chess_game_free(&g);
	return st;
}

#define assert_status(got, want) do {					\
	enum chess_status got_ = (got), want_ = (want);			\
	if (got_ != want_)						\
		fail_msg("status %s, expected %s",			\
		    chess_status_name(got_), chess_status_name(want_));	\
} while (0)

/* Every status has its documented name. */
static void
test_status_names(void **state)
{
	(void)state;
	assert_string_equal(chess_status_name(CHESS_ONGOING), "ongoing");
	assert_string_equal(chess_status_name(CHESS_CHECKMATE), "checkmate");
	assert_string_equal(chess_status_name(CHESS_STALEMATE), "stalemate");
	assert_string_equal(chess_status_name(CHESS_INSUFFICIENT),
	    "insufficient-material");
	assert_string_equal(chess_status_name(CHESS_FIVEFOLD),
	    "fivefold-repetition");
	assert_string_equal(chess_status_name(CHESS_SEVENTYFIVE),
	    "seventy-five-moves");
	assert_string_equal(chess_status_name(CHESS_THREEFOLD),
	    "threefold-repetition");
	assert_string_equal(chess_status_name(CHESS_FIFTY), "fifty-moves");
}

/* Checkmate by a move sequence and from FENs. */
static void
test_checkmate(void **state)
{
	struct chess_game	g;
	struct chess_position	start;

	(void)state;
	chess_position_start(&start);
	assert_int_equal(chess_game_init(&g, &start), 0);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "f3 e5 g4", 1);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "Qh4#", 1);
	assert_int_equal(g.nply, 4);
	assert_status(chess_game_status(&g), CHESS_CHECKMATE);
	chess_game_free(&g);

	/* Back-rank mate; a check that can be parried is not mate. */
	assert_status(fen_status("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
	    CHESS_CHECKMATE);
	assert_status(fen_status("3R2k1/5pp1/8/8/8/8/8/6K1 b - - 0 1"),
	    CHESS_ONGOING);
}

/* Stalemate from a FEN and after a move. */
static void
test_stalemate(void **state)
{
	struct chess_game	g;

	(void)state;
	assert_status(fen_status("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
	    CHESS_STALEMATE);
	game_from_fen(&g, "k7/2K5/8/8/8/8/8/1Q6 w - - 0 1");
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "Qb6", 1);
	assert_status(chess_game_status(&g), CHESS_STALEMATE);
	chess_game_free(&g);
}

/* Dead positions by material, and positions that only look alike. */
static void
test_insufficient(void **state)
{
	static const struct {
		const char		*fen;
		enum chess_status	 want;
	} cases[] = {
		/* K v K, K+B v K, K+N v K (either side). */
		{ "4k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_INSUFFICIENT },
		{ "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_INSUFFICIENT },
		{ "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", CHESS_INSUFFICIENT },
		{ "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", CHESS_INSUFFICIENT },
		/* Bishops all on dark squares (c1, e3, f8, h6). */
		{ "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_INSUFFICIENT },
		{ "4kb2/8/7b/8/8/4B3/8/2B1K3 w - - 0 1", CHESS_INSUFFICIENT },
		/* Bishops on both colours, knights, pawns: mate is possible. */
		{ "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_ONGOING },
		{ "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", CHESS_ONGOING },
		{ "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", CHESS_ONGOING },
		{ "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_ONGOING },
		{ "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", CHESS_ONGOING },
		{ "4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1", CHESS_ONGOING },
		/* K+N v K+Q: the knight cannot mate, the queen can. */
		{ "3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", CHESS_ONGOING },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum chess_status st = fen_status(cases[i].fen);

		if (st != cases[i].want)
			fail_msg("%s: %s, expected %s", cases[i].fen,
			    chess_status_name(st),
			    chess_status_name(cases[i].want));
	}
}

/* chess_can_mate() side by side, for white and for black. */
static void
test_can_mate(void **state)
{
	static const struct {
		const char	*what;
		const char	*fen;
		bool		 white, black;
	} cases[] = {
		{ "K v K", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false },
		{ "K+N v K", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false },
		{ "K+B v K", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false },
		{ "K+P v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false },
		{ "K+R v K", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false },
		{ "K+Q v K", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", true, false },
		{ "K+N+N v K", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", true,
		    false },
		{ "K+N+B v K", "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", true,
		    false },
		/* The queen can neither block for the knight nor avoid
		 * attacking its checking square: no mate by K+N. */
		{ "K+N v K+Q", "3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", false,
		    true },
		{ "K+N v K+R", "3rk3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true },
		{ "K+N v K+B", "3bk3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true },
		{ "K+N v K+N", "1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true },
		{ "K+N v K+P", "4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1", true, true },
		{ "K+B v K+B same colour", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
		    false, false },
		{ "K+B v K+B opposite colours",
		    "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true },
		{ "K+B v K+N", "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true,
		    true },
		{ "K+B v K+P", "4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1", true, true },
		/* A rook or queen blocking a flight square can always
		 * interpose on the bishop's diagonal. */
		{ "K+B v K+R", "3rk3/8/8/8/8/8/8/2B1K3 w - - 0 1", false,
		    true },
		{ "K+B v K+Q", "3qk3/8/8/8/8/8/8/2B1K3 w - - 0 1", false,
		    true },
		{ "K+BB same colour v K", "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1",
		    false, false },
		{ "K+BB opposite colours v K",
		    "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", true, false },
		{ "K+BB v K+B all dark", "4kb2/8/8/8/8/4B3/8/2B1K3 w - - 0 1",
		    false, false },
	};
	struct chess_position	pos;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(chess_fen_parse(&pos, cases[i].fen, 0),
		    CHESS_OK);
		if (chess_can_mate(&pos, CHESS_WHITE) != cases[i].white ||
		    chess_can_mate(&pos, CHESS_BLACK) != cases[i].black)
			fail_msg("%s: white %d black %d, expected %d %d",
			    cases[i].what, chess_can_mate(&pos, CHESS_WHITE),
			    chess_can_mate(&pos, CHESS_BLACK), cases[i].white,
			    cases[i].black);
		assert_int_equal(chess_insufficient_material(&pos),
		    !cases[i].white && !cases[i].black);
	}
}

/* The material that chess_can_mate() allows does mate, with help. */
static void
test_can_mate_shown(void **state)
{
	static const char *const mates[] = {
		/* K+N v K+R: the rook on b8 blocks, Nc7 mates. */
		"kr6/2N5/K7/8/8/8/8/8 b - - 0 1",
		/* K+B v K+P: the pawn on a7 blocks, Be4 mates. */
		"k7/p1K5/8/8/4B3/8/8/8 b - - 0 1",
		/* K+N v K+P: the pawn on h7 blocks, Nf7 mates. */
		"5K1k/5N1p/8/8/8/8/8/8 b - - 0 1",
	};
	struct chess_position	pos;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof mates / sizeof mates[0]; i++) {
		assert_status(fen_status(mates[i]), CHESS_CHECKMATE);
		assert_int_equal(chess_fen_parse(&pos, mates[i], 0), CHESS_OK);
		assert_true(chess_can_mate(&pos, CHESS_WHITE));
	}
}

/* Knights out and back: three- and fivefold repetition of the start. */
static void
test_repetition(void **state)
{
	struct chess_game	g;
	struct chess_position	start;
	static const int	want[17] = {
		1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5
	};
	int			i;

	(void)state;
	chess_position_start(&start);
	assert_int_equal(chess_game_init(&g, &start), 0);
	assert_int_equal(chess_game_repetitions(&g), 1);
	for (i = 0; i < 16; i++) {
		play1(&g, (const char *[]){ "Nf3", "Nf6", "Ng1", "Ng8" }[i % 4]);
		/* Plies 4, 8, 12, 16 reach the start again; ply 1 + 4k the
		 * position after Nf3, and so on. */
		assert_int_equal(chess_game_repetitions(&g), want[i + 1]);
	}
	/* Start position: ply 8 is its 3rd occurrence, ply 16 its 5th. */
	assert_int_equal(g.nply, 16);
	assert_status(chess_game_status(&g), CHESS_FIVEFOLD);
	chess_game_free(&g);

	assert_int_equal(chess_game_init(&g, &start), 0);
	play(&g, "Nf3 Nf6 Ng1 Ng8", 1);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "Nf3 Nf6 Ng1 Ng8", 1);
	assert_status(chess_game_status(&g), CHESS_THREEFOLD);
	play1(&g, "e4");	/* irreversible: nothing repeats across it */
	assert_int_equal(chess_game_repetitions(&g), 1);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	chess_game_free(&g);
}

/* Lost castling rights make a different position (FIDE 9.2.3). */
static void
test_repetition_castling(void **state)
{
	struct chess_game	g;
	char			fen[CHESS_FEN_MAX];

	(void)state;
	game_from_fen(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	play(&g, "Rb1 Rb8 Ra1 Ra8", 1);
	chess_fen_write(&g.pos, fen, sizeof fen);
	assert_string_equal(fen, "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 4 3");
	assert_int_equal(chess_game_repetitions(&g), 1);
	play(&g, "Rb1 Rb8 Ra1 Ra8", 1);
	assert_int_equal(chess_game_repetitions(&g), 2);
	play(&g, "Rb1 Rb8 Ra1 Ra8", 1);
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_status(chess_game_status(&g), CHESS_THREEFOLD);
	chess_game_free(&g);

	/* The same moves without the queen-side rights to lose: the start
	 * itself is repeated. */
	game_from_fen(&g, "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 0 1");
	play(&g, "Rb1 Rb8 Ra1 Ra8", 2);
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_status(chess_game_status(&g), CHESS_THREEFOLD);
	chess_game_free(&g);
}

/* An e.p. square where the capture is only pseudo-legal (the pawn is
 * pinned) does not make a different position; a legal one does. */
static void
test_repetition_en_passant(void **state)
{
	struct chess_game	g;
	char			fen[CHESS_FEN_MAX];

	(void)state;
	/* Re1 pins the e4 pawn to Ke8: exd3 e.p. is illegal. */
	game_from_fen(&g, "4k3/8/8/8/4p3/8/3P4/4RK2 w - - 0 1");
	play(&g, "d4", 1);
	chess_fen_write(&g.pos, fen, sizeof fen);
	assert_string_equal(fen, "4k3/8/8/8/3Pp3/8/8/4RK2 b - - 0 1");
	play(&g, "Kf7 Kg1 Ke8 Kf1", 1);
	assert_int_equal(chess_game_repetitions(&g), 2);
	play(&g, "Kf7 Kg1 Ke8 Kf1", 1);
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_status(chess_game_status(&g), CHESS_THREEFOLD);
	chess_game_free(&g);

	/* With the rook on a1 the capture is legal right after d4. */
	game_from_fen(&g, "4k3/8/8/8/4p3/8/3P4/R4K2 w - - 0 1");
	play(&g, "d4", 1);
	chess_fen_write(&g.pos, fen, sizeof fen);
	assert_string_equal(fen, "4k3/8/8/8/3Pp3/8/8/R4K2 b - d3 0 1");
	play(&g, "Kf7 Kg1 Ke8 Kf1", 1);
	assert_int_equal(chess_game_repetitions(&g), 1);
	play(&g, "Kf7 Kg1 Ke8 Kf1", 1);
	assert_int_equal(chess_game_repetitions(&g), 2);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "Kf7 Kg1 Ke8 Kf1", 1);
	assert_int_equal(chess_game_repetitions(&g), 3);
	chess_game_free(&g);
}

/* The fifty- and seventy-five-move rules, and a pawn move resetting. */
static void
test_fifty_seventyfive(void **state)
{
	struct chess_game	g;

	(void)state;
	game_from_fen(&g, "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 60");
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	play(&g, "Ra2", 1);
	assert_int_equal(g.pos.halfmove, 100);
	assert_status(chess_game_status(&g), CHESS_FIFTY);
	chess_game_free(&g);

	game_from_fen(&g, "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 60");
	play(&g, "e3", 1);
	assert_status(chess_game_status(&g), CHESS_ONGOING);
	chess_game_free(&g);

	game_from_fen(&g, "4k3/8/8/8/8/8/4P3/R3K3 w - - 148 60");
	play(&g, "Ra2", 1);
	assert_status(chess_game_status(&g), CHESS_FIFTY);
	play(&g, "Kd8", 1);
	assert_int_equal(g.pos.halfmove, 150);
	assert_status(chess_game_status(&g), CHESS_SEVENTYFIVE);
	chess_game_free(&g);
}

/* Checkmate or stalemate on the ply that reaches 150 halfmoves wins over
 * the seventy-five-move rule. */
static void
test_mate_beats_seventyfive(void **state)
{
	struct chess_game	g;

	(void)state;
	game_from_fen(&g, "k7/8/1K6/8/8/8/8/7R w - - 149 100");
	play(&g, "Rh8#", 1);
	assert_int_equal(g.pos.halfmove, 150);
	assert_status(chess_game_status(&g), CHESS_CHECKMATE);
	chess_game_free(&g);

	game_from_fen(&g, "k7/2K5/8/8/8/8/8/1Q6 w - - 149 100");
	play(&g, "Qb6", 1);
	assert_int_equal(g.pos.halfmove, 150);
	assert_status(chess_game_status(&g), CHESS_STALEMATE);
	chess_game_free(&g);

	/* A quiet move instead: the automatic draw. */
	game_from_fen(&g, "k7/8/1K6/8/8/8/8/7R w - - 149 100");
	play(&g, "Rh2", 1);
	assert_status(chess_game_status(&g), CHESS_SEVENTYFIVE);
	chess_game_free(&g);
}

/* The order: insufficient material, fivefold, seventy-five, threefold,
 * fifty. */
static void
test_status_order(void **state)
{
	struct chess_game	g;
	int			i;

	(void)state;
	/* Dead position repeated five times stays "insufficient". */
	game_from_fen(&g, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
	play(&g, "Bd2 Kd8 Bc1 Ke8", 4);
	assert_int_equal(chess_game_repetitions(&g), 5);
	assert_status(chess_game_status(&g), CHESS_INSUFFICIENT);
	chess_game_free(&g);

	/* From 140 halfmoves: threefold at ply 8 (148), seventy-five at
	 * ply 10 (150, also a 3rd occurrence), fivefold at ply 16. */
	game_from_fen(&g, "4k3/8/8/8/8/8/4P3/R3K3 w - - 140 60");
	for (i = 1; i <= 16; i++) {
		play1(&g, (const char *[]){ "Ra2", "Kd8", "Ra1", "Ke8" }
		    [(i - 1) % 4]);
		if (i == 8)
			assert_status(chess_game_status(&g), CHESS_THREEFOLD);
		if (i == 10) {
			assert_int_equal(chess_game_repetitions(&g), 3);
			assert_status(chess_game_status(&g),
			    CHESS_SEVENTYFIVE);
		}
	}
	assert_int_equal(chess_game_repetitions(&g), 5);
	assert_status(chess_game_status(&g), CHESS_FIVEFOLD);
	chess_game_free(&g);

	/* From 95: fifty at ply 6 (101, 2nd occurrence), threefold wins
	 * at ply 8 (103, 3rd occurrence). */
	game_from_fen(&g, "4k3/8/8/8/8/8/4P3/R3K3 w - - 95 60");
	play(&g, "Ra2 Kd8 Ra1 Ke8 Ra2 Kd8", 1);
	assert_int_equal(chess_game_repetitions(&g), 2);
	assert_status(chess_game_status(&g), CHESS_FIFTY);
	play(&g, "Ra1 Ke8", 1);
	assert_int_equal(chess_game_repetitions(&g), 3);
	assert_status(chess_game_status(&g), CHESS_THREEFOLD);
	chess_game_free(&g);
}

/* Long games grow the arrays; keys stay those of the positions. */
static void
test_growth(void **state)
{
	struct chess_game	g, zero;
	struct chess_position	pos;
	size_t			i;

	(void)state;
	chess_position_start(&pos);
	assert_int_equal(chess_game_init(&g, &pos), 0);
	play(&g, "Nf3 Nf6 Ng1 Ng8", 100);
	assert_int_equal(g.nply, 400);
	assert_true(g.cap >= 400);
	for (i = 0; i <= g.nply; i++) {
		if (i > 0)
			chess_position_make(&pos, g.moves[i - 1]);
		assert_true(g.keys[i] == pos.key);
	}
	assert_int_equal(chess_game_repetitions(&g), 101);
	chess_game_free(&g);
	assert_null(g.moves);
	memset(&zero, 0, sizeof zero);
	chess_game_free(&zero);
	chess_game_free(NULL);
}

/* One row of game-events.tsv. */
struct event_row {
	char	file[128];
	int	game, plies;
	char	result[8];
	int	first3, first5, hmc100, hmc150;	/* 0 when empty */
	char	status[32];
	int	chessjs3;	/* chess.js's 3rd occurrence, -1 for n/a */
};

/* Check one replayed game against its row. */
static void
check_events(const struct chess_pgn_game *pg, const struct event_row *row)
{
	struct chess_game	g;
	enum chess_status	st;
	size_t			i;
	int			first3 = 0, first5 = 0, h100 = 0, h150 = 0, reps;
	const char		*name;

	if ((int)pg->game.nply != row->plies)
		fail_msg("%s#%d: %zu plies, expected %d", row->file, row->game,
		    pg->game.nply, row->plies);
	assert_string_equal(pg->result, row->result);
	assert_int_equal(chess_game_init(&g, &pg->game.start), 0);
	for (i = 0; i < pg->game.nply; i++) {
		assert_int_equal(chess_game_push(&g, pg->game.moves[i]), 0);
		reps = chess_game_repetitions(&g);
		if (reps >= 3 && first3 == 0)
			first3 = (int)i + 1;
		if (reps >= 5 && first5 == 0)
			first5 = (int)i + 1;
		if (g.pos.halfmove >= 100 && h100 == 0)
			h100 = (int)i + 1;
		if (g.pos.halfmove >= 150 && h150 == 0)
			h150 = (int)i + 1;
	}
	/* chess.js agrees where it can represent the game. */
	if (row->chessjs3 >= 0)
		assert_int_equal(first3, row->chessjs3);
	if (first3 != row->first3 || first5 != row->first5 ||
	    h100 != row->hmc100 || h150 != row->hmc150)
		fail_msg("%s#%d: 3fold %d 5fold %d hmc100 %d hmc150 %d, "
		    "expected %d %d %d %d", row->file, row->game, first3,
		    first5, h100, h150, row->first3, row->first5, row->hmc100,
		    row->hmc150);

	/* The file's final status knows only checkmate, stalemate and
	 * insufficient material; the draws by rule must agree with the
	 * columns above. */
	st = chess_game_status(&g);
	name = chess_status_name(st);
	switch (st) {
	case CHESS_CHECKMATE:
	case CHESS_STALEMATE:
	case CHESS_INSUFFICIENT:
	case CHESS_ONGOING:
		if (strcmp(name, row->status) != 0)
			fail_msg("%s#%d: %s, expected %s", row->file,
			    row->game, name, row->status);
		break;
	case CHESS_FIVEFOLD:
	case CHESS_THREEFOLD:
		assert_string_equal(row->status, "ongoing");
		assert_true(row->first3 > 0);
		assert_true(st == CHESS_THREEFOLD || row->first5 > 0);
		break;
	case CHESS_SEVENTYFIVE:
	case CHESS_FIFTY:
		assert_string_equal(row->status, "ongoing");
		assert_true(row->hmc100 > 0);
		assert_true(st == CHESS_FIFTY || row->hmc150 > 0);
		break;
	}
	if (row->first5 == row->plies && row->first5 > 0)
		assert_status(st, CHESS_FIVEFOLD);
	else if (row->first3 == row->plies && row->first3 > 0 &&
	    row->hmc150 == 0)
		assert_status(st, CHESS_THREEFOLD);
	chess_game_free(&g);
}

/* Real games: first 3rd and 5th occurrence, halfmove clock 100 and 150,
 * final status, for every game of game-events.tsv. */
static void
test_game_events(void **state)
{
	char			*tsv, *cursor, *line, *f[16], err[256];
	char			*buf = NULL, file[128] = "";
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 pg;
	struct event_row	 row;
	size_t			 len;
	int			 n, index = -1, rows = 0, threefolds = 0;
	int			 fivefolds = 0, fifties = 0, r;

	(void)state;
	memset(&pg, 0, sizeof pg);
	tsv = test_read_data("events/game-events.tsv", NULL);
	cursor = strchr(tsv, '\n');
	assert_non_null(cursor);
	cursor++;
	while ((line = cursor) != NULL && *line != '\0') {
		cursor = strchr(line, '\n');
		if (cursor != NULL)
			*cursor++ = '\0';
		n = test_split_tabs(line, f, 16);
		assert_true(n >= 9);
		memset(&row, 0, sizeof row);
		snprintf(row.file, sizeof row.file, "%s", f[0]);
		row.game = atoi(f[1]);
		row.plies = atoi(f[2]);
		snprintf(row.result, sizeof row.result, "%s", f[3]);
		row.first3 = atoi(f[4]);
		row.first5 = atoi(f[5]);
		row.hmc100 = atoi(f[6]);
		row.hmc150 = atoi(f[7]);
		snprintf(row.status, sizeof row.status, "%s", f[8]);
		row.chessjs3 = n >= 10 && strcmp(f[9], "n/a") != 0 ?
		    atoi(f[9]) : -1;

		if (strcmp(row.file, file) != 0) {
			free(buf);
			/* chess.js/0.pgn has "<br />" for its newlines. */
			buf = test_read_pgn(row.file, &len,
			    strcmp(row.file, "chess.js/0.pgn") == 0);
			snprintf(file, sizeof file, "%s", row.file);
			chess_pgn_reader_init(&rd, buf, len);
			index = -1;
		}
		/* Rows list every game of a file, in order. */
		r = chess_pgn_next(&rd, &pg, err, sizeof err);
		index++;
		if (r != 1)
			fail_msg("%s#%d: %s", row.file, row.game,
			    r == 0 ? "no such game" : err);
		assert_int_equal(index, row.game);
		check_events(&pg, &row);
		rows++;
		threefolds += row.first3 > 0;
		fivefolds += row.first5 > 0;
		fifties += row.hmc100 > 0;
	}
	print_message("game-events: %d games, %d with a threefold, %d with a "
	    "fivefold repetition, %d reaching 100 halfmoves\n", rows,
	    threefolds, fivefolds, fifties);
	assert_int_equal(rows, 1942);
	free(buf);
	free(tsv);
	chess_pgn_game_free(&pg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_checkmate),
		cmocka_unit_test(test_stalemate),
		cmocka_unit_test(test_insufficient),
		cmocka_unit_test(test_can_mate),
		cmocka_unit_test(test_can_mate_shown),
		cmocka_unit_test(test_repetition),
		cmocka_unit_test(test_repetition_castling),
		cmocka_unit_test(test_repetition_en_passant),
		cmocka_unit_test(test_fifty_seventyfive),
		cmocka_unit_test(test_mate_beats_seventyfive),
		cmocka_unit_test(test_status_order),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_game_events),
	};

	chess_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
