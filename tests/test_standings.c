/*
 * tests/test_standings.c: tests of standings, tie-breaks and crosstables.
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
 * Small events whose every value is worked out by hand in the comments:
 * counting of unfinished, annulled and forfeited games; Sonneborn-Berger,
 * number of wins and Koya in the caller's order; direct encounter in a
 * group of four, with a game between tied players unfinished or annulled,
 * and across the two cycles of a double round robin; shared places; the
 * crosstable and its depth; errors; the largest event. Points and
 * tie-breaks are in the module's units: half points (points, direct
 * encounter, Koya), quarter points (SB).
 */

#include "testutil.h"

#include <stdbool.h>

#include "event/standings.h"

#define W	STANDINGS_WHITE_WINS
#define B	STANDINGS_BLACK_WINS
#define D	STANDINGS_DRAW
#define U	STANDINGS_UNFINISHED
#define X	STANDINGS_ANNULLED
#define WW	STANDINGS_WHITE_WITHDREW
#define BW	STANDINGS_BLACK_WITHDREW

/* Run standings_compute() with the tie-breaks given, expecting success. */
static void
compute(unsigned n, const struct standings_game *g, size_t ng,
    unsigned max_games, struct standings_row *rows, size_t ntb, ...)
{
	struct standings_rules	rules;
	va_list			ap;
	size_t			i, err = 99;

	memset(&rules, 0, sizeof rules);
	rules.ntiebreaks = ntb;
	rules.max_games = max_games;
	va_start(ap, ntb);
	for (i = 0; i < ntb; i++)
		rules.tiebreaks[i] = (enum standings_tiebreak)va_arg(ap, int);
	va_end(ap);
	assert_int_equal(standings_compute(n, g, ng, &rules, rows, &err),
	    STANDINGS_OK);
}

/* Check the order of players and their places ("first-last"). */
static void
check_order(const struct standings_row *rows, unsigned n,
    const unsigned *players, const char *const *places)
{
	char		buf[32];
	unsigned	i;

	for (i = 0; i < n; i++) {
		assert_int_equal(rows[i].player, players[i]);
		if (rows[i].place == rows[i].place_last)
			snprintf(buf, sizeof buf, "%u", rows[i].place);
		else
			snprintf(buf, sizeof buf, "%u-%u", rows[i].place,
			    rows[i].place_last);
		assert_string_equal(buf, places[i]);
	}
}

/* Find the row of player p. */
static const struct standings_row *
row_of(const struct standings_row *rows, unsigned n, unsigned p)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		if (rows[i].player == p)
			return &rows[i];
	fail_msg("player %u not in the standings", p);
	return NULL;
}

/*
 * Four players, a double round robin under way (the list order is the
 * crosstable's slot order):
 *	0-1 1-0, 1-0 draw, 0-2 black (2) withdrew, 2-3 annulled,
 *	3-2 unfinished, 1-3 0-1, 0-3 white (0) withdrew.
 * By hand:
 *	P0: win, draw, forfeit win, forfeit loss: 1 + 1/2 + 1 + 0 = 2.5
 *	    (5 half points); played 2 (the forfeits are not played).
 *	P1: loss, draw, loss: 0.5 (1); played 3.
 *	P2: forfeit loss; annulled and unfinished count nowhere: 0; played 0.
 *	P3: win over P1, forfeit win over P0: 2 (4); played 1; unfinished 1.
 *	Order by points: P0 2.5, P3 2, P1 0.5, P2 0.
 *	Wins, forfeits included: P0 2, P1 0, P2 0, P3 2.
 *	SB in quarter points (own half points x the opponent's):
 *	    P0: 2x1 (win over P1) + 1x1 (draw with P1) + 2x0 (P2) + 0 = 3;
 *	    P1: 0 + 1x5 (draw with P0) + 0 = 5;
 *	    P2: 0;
 *	    P3: 2x1 (P1) + 2x5 (forfeit win over P0) = 12.
 *	Koya, max_games from the list: P0 has 4 games that are not annulled
 *	    (P1 3, P2 2, P3 3), so the line is 4/2 = 2 points: P0 (2.5) and
 *	    P3 (2) reach it. P0 scored 0 against P3; P3 1 (2) against P0;
 *	    P1 1/2 (1) against P0, 0 against P3; P2 0.
 *	Koya with max_games 6 (the full double round robin): the line is 3
 *	    points, nobody reaches it, all 0.
 */
static const struct standings_game mixed[] = {
	{ 0, 1, W }, { 1, 0, D }, { 0, 2, BW }, { 2, 3, X }, { 3, 2, U },
	{ 1, 3, B }, { 0, 3, WW },
};

/* Count every kind of result; check the tie-breaks' values. */
static void
test_counts(void **state)
{
	static const unsigned		order[] = { 0, 3, 1, 2 };
	static const char *const	places[] = { "1", "2", "3", "4" };
	struct standings_row		rows[4];
	const struct standings_row	*r;

	(void)state;
	compute(4, mixed, 7, 0, rows, 3, STANDINGS_TB_WINS, STANDINGS_TB_SB,
	    STANDINGS_TB_KOYA);
	check_order(rows, 4, order, places);

	r = row_of(rows, 4, 0);
	assert_int_equal(r->points2, 5);
	assert_int_equal(r->played, 2);
	assert_int_equal(r->wins, 1);
	assert_int_equal(r->draws, 1);
	assert_int_equal(r->losses, 0);
	assert_int_equal(r->forfeit_wins, 1);
	assert_int_equal(r->forfeit_losses, 1);
	assert_int_equal(r->unfinished, 0);
	assert_int_equal(r->tb[0], 2);
	assert_int_equal(r->tb[1], 3);
	assert_int_equal(r->tb[2], 0);

	r = row_of(rows, 4, 1);
	assert_int_equal(r->points2, 1);
	assert_int_equal(r->played, 3);
	assert_int_equal(r->wins, 0);
	assert_int_equal(r->draws, 1);
	assert_int_equal(r->losses, 2);
	assert_int_equal(r->tb[0], 0);
	assert_int_equal(r->tb[1], 5);
	assert_int_equal(r->tb[2], 1);

	r = row_of(rows, 4, 2);
	assert_int_equal(r->points2, 0);
	assert_int_equal(r->played, 0);
	assert_int_equal(r->forfeit_losses, 1);
	assert_int_equal(r->unfinished, 1);
	assert_int_equal(r->tb[0], 0);
	assert_int_equal(r->tb[1], 0);
	assert_int_equal(r->tb[2], 0);

	r = row_of(rows, 4, 3);
	assert_int_equal(r->points2, 4);
	assert_int_equal(r->played, 1);
	assert_int_equal(r->wins, 1);
	assert_int_equal(r->losses, 0);
	assert_int_equal(r->forfeit_wins, 1);
	assert_int_equal(r->unfinished, 1);
	assert_int_equal(r->tb[0], 2);
	assert_int_equal(r->tb[1], 12);
	assert_int_equal(r->tb[2], 2);

	/* Koya against the whole double round robin: nobody on the line. */
	compute(4, mixed, 7, 6, rows, 1, STANDINGS_TB_KOYA);
	check_order(rows, 4, order, places);
	assert_int_equal(row_of(rows, 4, 0)->tb[0], 0);
	assert_int_equal(row_of(rows, 4, 1)->tb[0], 0);
	assert_int_equal(row_of(rows, 4, 3)->tb[0], 0);

	/* Points only, with NULL rules. */
	assert_int_equal(standings_compute(4, mixed, 7, NULL, rows, NULL),
	    STANDINGS_OK);
	check_order(rows, 4, order, places);

	assert_int_equal(standings_tiebreak_scale(STANDINGS_TB_DIRECT), 2);
	assert_int_equal(standings_tiebreak_scale(STANDINGS_TB_WINS), 1);
	assert_int_equal(standings_tiebreak_scale(STANDINGS_TB_SB), 4);
	assert_int_equal(standings_tiebreak_scale(STANDINGS_TB_KOYA), 2);
	assert_int_equal(standings_tiebreak_scale(
	    (enum standings_tiebreak)0), 0);
}

/*
 * Six players A..F (0..5), a single round robin:
 *	A-B 1/2  A-C 1-0  A-D 1/2  A-E 1/2  A-F 0-1
 *	B-C 1-0  B-D 1-0  B-E 0-1  B-F 0-1
 *	C-D 0-1  C-E 1/2  C-F 0-1
 *	D-E 1/2  D-F 1/2
 *	E-F 0-1
 * Points: A 1/2+1+1/2+1/2+0 = 2.5; B 1/2+1+1+0+0 = 2.5; C 0+0+0+1/2+0 =
 * 0.5; D 1/2+0+1+1/2+1/2 = 2.5; E 1/2+1+1/2+1/2+0 = 2.5; F 1+1+1+1/2+1 =
 * 4.5 (total 15 = the 15 games). A, B, D and E are level on 2.5.
 * Wins: A 1 (C), B 2 (C, D), C 0, D 1 (C), E 1 (B), F 4.
 * SB: A = C 0.5 + (B 2.5 + D 2.5 + E 2.5)/2 = 4.25 (17 quarters);
 *     B = C 0.5 + D 2.5 + A 2.5/2 = 4.25 (17);
 *     C = E 2.5/2 = 1.25 (5);
 *     D = C 0.5 + (A 2.5 + E 2.5 + F 4.5)/2 = 5.25 (21);
 *     E = B 2.5 + (A 2.5 + C 0.5 + D 2.5)/2 = 5.25 (21);
 *     F = A + B + C + E = 8 + D 2.5/2 = 9.25 (37).
 * Koya: 5 games, line 2.5: everyone but C. Points against A, B, D, E, F:
 *     A 1/2+1/2+1/2+0 = 1.5 (3); B 1/2+1+0+0 = 1.5 (3); C 1/2 (1, vs E);
 *     D 1/2+0+1/2+1/2 = 1.5 (3); E 1/2+1+1/2+0 = 2 (4); F 3.5 (7).
 * Direct encounter among A, B, D, E (all have met): A-B 1/2, A-D 1/2,
 *     A-E 1/2, B-D 1-0, B-E 0-1, D-E 1/2: A 1.5 (3), B 1.5 (3), D 1 (2),
 *     E 2 (4).
 */
static const struct standings_game six[] = {
	{ 0, 1, D }, { 0, 2, W }, { 0, 3, D }, { 0, 4, D }, { 0, 5, B },
	{ 1, 2, W }, { 1, 3, W }, { 1, 4, B }, { 1, 5, B },
	{ 2, 3, B }, { 2, 4, D }, { 2, 5, B },
	{ 3, 4, D }, { 3, 5, D },
	{ 4, 5, B },
};

/*
 * SB, then wins, then Koya: F; then D and E (SB 5.25) before A and B
 * (4.25); D and E have one win each, Koya puts E (2) before D (1.5); A and
 * B: B has two wins, A one. So F E D B A C, no shared place.
 */
static void
test_sb_wins_koya(void **state)
{
	static const unsigned		order[] = { 5, 4, 3, 1, 0, 2 };
	static const char *const	places[] = { "1", "2", "3", "4", "5",
					    "6" };
	static const unsigned long	sb[] = { 37, 21, 21, 17, 17, 5 };
	static const unsigned long	wins[] = { 4, 1, 1, 2, 1, 0 };
	static const unsigned long	koya[] = { 7, 4, 3, 3, 3, 1 };
	static const unsigned		points[] = { 9, 5, 5, 5, 5, 1 };
	struct standings_row		rows[6];
	unsigned			i;

	(void)state;
	compute(6, six, 15, 0, rows, 3, STANDINGS_TB_SB, STANDINGS_TB_WINS,
	    STANDINGS_TB_KOYA);
	check_order(rows, 6, order, places);
	for (i = 0; i < 6; i++) {
		assert_int_equal(rows[i].points2, points[i]);
		assert_int_equal(rows[i].played, 5);
		assert_int_equal(rows[i].tb[0], sb[i]);
		assert_int_equal(rows[i].tb[1], wins[i]);
		assert_int_equal(rows[i].tb[2], koya[i]);
	}

	/*
	 * Wins first: B (2) above A, D, E (1 each); among these SB puts D
	 * and E (21) above A (17); Koya: E before D. F B E D A C.
	 */
	{
		static const unsigned	order2[] = { 5, 1, 4, 3, 0, 2 };

		compute(6, six, 15, 0, rows, 3, STANDINGS_TB_WINS,
		    STANDINGS_TB_SB, STANDINGS_TB_KOYA);
		check_order(rows, 6, order2, places);
	}
}

/*
 * Direct encounter on the six: F; E (2 among the four); A and B (1.5
 * each) share 3-4 and stay in index order; D (1); C. Alone, F and C get 0.
 * SB and Koya after it do not part A and B (17 and 3 each): still 3-4.
 * Wins after it do: B (2) before A (1).
 */
static void
test_direct_group(void **state)
{
	static const unsigned		order[] = { 5, 4, 0, 1, 3, 2 };
	static const char *const	places[] = { "1", "2", "3-4", "3-4",
					    "5", "6" };
	static const unsigned long	de[] = { 0, 4, 3, 3, 2, 0 };
	static const unsigned		order_w[] = { 5, 4, 1, 0, 3, 2 };
	static const char *const	places_w[] = { "1", "2", "3", "4",
					    "5", "6" };
	struct standings_row		rows[6];
	unsigned			i;

	(void)state;
	compute(6, six, 15, 0, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 6, order, places);
	for (i = 0; i < 6; i++)
		assert_int_equal(rows[i].tb[0], de[i]);

	compute(6, six, 15, 0, rows, 3, STANDINGS_TB_DIRECT, STANDINGS_TB_SB,
	    STANDINGS_TB_KOYA);
	check_order(rows, 6, order, places);
	assert_int_equal(rows[2].tb[1], 17);
	assert_int_equal(rows[3].tb[1], 17);
	assert_int_equal(rows[2].tb[2], 3);
	assert_int_equal(rows[3].tb[2], 3);

	compute(6, six, 15, 0, rows, 2, STANDINGS_TB_DIRECT,
	    STANDINGS_TB_WINS);
	check_order(rows, 6, order_w, places_w);
}

/*
 * The six with A-D unfinished: A 2, B 2.5, C 0.5, D 2, E 2.5, F 4.5.
 * B and E are level and have met: E won, so E (1, i.e. 2 half points)
 * before B (0). A and D are level but their game is unfinished: direct
 * encounter gives both 0 and they share 4-5. SB then parts them:
 * A = C 0.5 + (B 2.5 + E 2.5)/2 = 3 (12); D = C 0.5 + (E 2.5 + F 4.5)/2 =
 * 4 (16): D 4th, A 5th. A and D have one unfinished game each, 4 played.
 */
static void
test_direct_unfinished(void **state)
{
	static const unsigned		order[] = { 5, 4, 1, 0, 3, 2 };
	static const char *const	places[] = { "1", "2", "3", "4-5",
					    "4-5", "6" };
	static const unsigned		order_sb[] = { 5, 4, 1, 3, 0, 2 };
	static const char *const	places_sb[] = { "1", "2", "3", "4",
					    "5", "6" };
	struct standings_game		g[15];
	struct standings_row		rows[6];

	(void)state;
	memcpy(g, six, sizeof g);
	g[2].result = U;	/* A-D */
	compute(6, g, 15, 0, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 6, order, places);
	assert_int_equal(rows[1].tb[0], 2);
	assert_int_equal(rows[2].tb[0], 0);
	assert_int_equal(rows[3].tb[0], 0);
	assert_int_equal(rows[4].tb[0], 0);
	assert_int_equal(rows[3].points2, 4);
	assert_int_equal(rows[3].unfinished, 1);
	assert_int_equal(rows[3].played, 4);

	compute(6, g, 15, 0, rows, 2, STANDINGS_TB_DIRECT, STANDINGS_TB_SB);
	check_order(rows, 6, order_sb, places_sb);
	assert_int_equal(rows[3].tb[1], 16);
	assert_int_equal(rows[4].tb[1], 12);
}

/*
 * A double round robin of X, Y, Z (0, 1, 2): X-Y 1-0, Y-X unfinished,
 * X-Z 0-1, Y-Z 1-0, Z-X unfinished, Z-Y unfinished. X 1, Y 1, Z 1, all
 * level; the return game Y-X is unfinished, so direct encounter does not
 * part them: 1-3. Once Y-X ends in a draw: X 1.5, Y 1.5, Z 1; X and Y
 * have met twice: X 1 + 1/2 = 1.5 (3), Y 1/2 (1): X first. Z's pending
 * games do not matter, they are not between X and Y.
 */
static void
test_direct_double(void **state)
{
	static const unsigned		order[] = { 0, 1, 2 };
	static const char *const	places[] = { "1-3", "1-3", "1-3" };
	static const char *const	places2[] = { "1", "2", "3" };
	struct standings_game		g[] = {
		{ 0, 1, W }, { 1, 0, U }, { 0, 2, B }, { 1, 2, W },
		{ 2, 0, U }, { 2, 1, U },
	};
	struct standings_row		rows[3];

	(void)state;
	compute(3, g, 6, 4, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 3, order, places);
	assert_int_equal(rows[0].tb[0], 0);
	assert_int_equal(rows[1].tb[0], 0);
	assert_int_equal(rows[2].tb[0], 0);
	g[1].result = D;
	compute(3, g, 6, 4, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 3, order, places2);
	assert_int_equal(rows[0].tb[0], 3);
	assert_int_equal(rows[1].tb[0], 1);
	assert_int_equal(rows[2].tb[0], 0);
}

/*
 * P, Q, R, S (0..3): P-Q 1-0, Q-R draw, P-R annulled, S-P 1-0, Q-S draw,
 * R-S draw. P 1, Q 1/2 + 1/2 = 1, R 1/2 + 1/2 = 1, S 1 + 1/2 + 1/2 = 2.
 * P, Q and R are level, but P and R have not met (their game was
 * annulled): direct encounter does not apply, 0 for all three, who share
 * 2-4, even though P beat Q (among the three, P would have 1, Q and R
 * 1/2).
 */
static void
test_direct_not_met(void **state)
{
	static const unsigned		order[] = { 3, 0, 1, 2 };
	static const char *const	places[] = { "1", "2-4", "2-4",
					    "2-4" };
	struct standings_game		g[] = {
		{ 0, 1, W }, { 1, 2, D }, { 0, 2, X }, { 3, 0, W },
		{ 1, 3, D }, { 2, 3, D },
	};
	struct standings_row		rows[4];

	(void)state;
	compute(4, g, 6, 0, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 4, order, places);
	assert_int_equal(rows[1].tb[0], 0);
	assert_int_equal(rows[2].tb[0], 0);
	assert_int_equal(rows[3].tb[0], 0);
}

/*
 * A cycle: 0-1 1-0, 0-2 draw, 0-3 0-1, 1-2 1-0, 1-3 draw, 2-3 1-0. Every
 * player 1.5 (3): one win, one draw, one loss. SB: each beat a 1.5 and
 * drew with a 1.5: 1.5 + 0.75 = 2.25 (9). Direct encounter: all met, the
 * group is everyone: 1.5 (3) each. Koya: 3 games, line 1.5, everyone on
 * it: 1.5 (3) each. Nothing parts them: all share 1-4.
 */
static void
test_all_shared(void **state)
{
	static const unsigned		order[] = { 0, 1, 2, 3 };
	static const char *const	places[] = { "1-4", "1-4", "1-4",
					    "1-4" };
	struct standings_game		g[] = {
		{ 0, 1, W }, { 0, 2, D }, { 0, 3, B }, { 1, 2, W },
		{ 1, 3, D }, { 2, 3, W },
	};
	struct standings_row		rows[4];
	unsigned			i;

	(void)state;
	compute(4, g, 6, 0, rows, 4, STANDINGS_TB_DIRECT, STANDINGS_TB_WINS,
	    STANDINGS_TB_SB, STANDINGS_TB_KOYA);
	check_order(rows, 4, order, places);
	for (i = 0; i < 4; i++) {
		assert_int_equal(rows[i].points2, 3);
		assert_int_equal(rows[i].tb[0], 3);
		assert_int_equal(rows[i].tb[1], 1);
		assert_int_equal(rows[i].tb[2], 9);
		assert_int_equal(rows[i].tb[3], 3);
	}

	/* No games at all: everyone 0, everyone shares 1-4. */
	compute(4, NULL, 0, 0, rows, 1, STANDINGS_TB_DIRECT);
	check_order(rows, 4, order, places);
}

/* Join the texts of a cell's slots with spaces. */
static const char *
cell_text(const enum standings_mark *grid, unsigned n, unsigned depth,
    unsigned row, unsigned col, char *buf, size_t size)
{
	const enum standings_mark	*cell;
	unsigned			k;

	buf[0] = '\0';
	cell = grid + ((size_t)row * n + col) * depth;
	for (k = 0; k < depth && cell[k] != STANDINGS_MARK_NONE; k++) {
		if (k > 0)
			strncat(buf, " ", size - strlen(buf) - 1);
		strncat(buf, standings_mark_text(cell[k], false),
		    size - strlen(buf) - 1);
	}
	return buf;
}

/*
 * The crosstable of the mixed event (list order within a cell):
 *	row 0: vs 1 "1 ½", vs 2 "+", vs 3 "-"
 *	row 1: vs 0 "0 ½", vs 3 "0"
 *	row 2: vs 0 "-", vs 3 "*" (the annulled game is not shown)
 *	row 3: vs 0 "+", vs 1 "1", vs 2 "*"
 * Depth 2: players 0 and 1 have two games; 2 and 3 one once the annulled
 * one is left out.
 */
static void
test_crosstable(void **state)
{
	static const char *const	expect[4][4] = {
		{ "", "1 \xc2\xbd", "+", "-" },
		{ "0 \xc2\xbd", "", "", "0" },
		{ "-", "", "", "*" },
		{ "+", "1", "*", "" },
	};
	enum standings_mark		grid[4 * 4 * 2];
	unsigned			depth, r, c;
	char				buf[64];
	size_t				err = 99;

	(void)state;
	assert_int_equal(standings_crosstable_depth(4, mixed, 7, &depth,
	    &err), STANDINGS_OK);
	assert_int_equal(depth, 2);
	assert_int_equal(standings_crosstable(4, mixed, 7, depth, grid,
	    sizeof grid / sizeof grid[0], &err), STANDINGS_OK);
	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++)
			assert_string_equal(cell_text(grid, 4, depth, r, c,
			    buf, sizeof buf), expect[r][c]);
	assert_int_equal(grid[(0 * 4 + 1) * 2 + 0], STANDINGS_MARK_WIN);
	assert_int_equal(grid[(1 * 4 + 0) * 2 + 0], STANDINGS_MARK_LOSS);
	assert_int_equal(grid[(0 * 4 + 2) * 2 + 1], STANDINGS_MARK_NONE);

	/* Too little room: the depth, then the array. */
	assert_int_equal(standings_crosstable(4, mixed, 7, 1, grid,
	    sizeof grid / sizeof grid[0], &err), STANDINGS_EDEPTH);
	assert_int_equal(err, 1);	/* 1-0 draw, the second 0-1 game */
	assert_int_equal(standings_crosstable(4, mixed, 7, 2, grid, 31, &err),
	    STANDINGS_ESPACE);
	assert_int_equal(standings_crosstable(4, mixed, 7, 2, NULL, 32, &err),
	    STANDINGS_ESPACE);

	/* No games: depth 0, nothing to fill. */
	assert_int_equal(standings_crosstable_depth(4, NULL, 0, &depth, &err),
	    STANDINGS_OK);
	assert_int_equal(depth, 0);
	assert_int_equal(standings_crosstable(4, NULL, 0, 0, NULL, 0, &err),
	    STANDINGS_OK);

	/* The six: a single round robin, depth 1. */
	assert_int_equal(standings_crosstable_depth(6, six, 15, &depth, &err),
	    STANDINGS_OK);
	assert_int_equal(depth, 1);

	assert_string_equal(standings_mark_text(STANDINGS_MARK_DRAW, true),
	    "=");
	assert_string_equal(standings_mark_text(STANDINGS_MARK_FORFEIT_LOSS,
	    true), "-");
	assert_string_equal(standings_mark_text(STANDINGS_MARK_NONE, false),
	    "");
	assert_string_equal(standings_mark_text((enum standings_mark)42,
	    false), "?");
}

/* Bad input is refused with a reason, naming the game. */
static void
test_errors(void **state)
{
	struct standings_game	g[] = { { 0, 1, W }, { 1, 2, D } };
	struct standings_rules	rules;
	struct standings_row	rows[3];
	enum standings_mark	grid[9];
	unsigned		depth;
	size_t			err = 99;
	int			e;

	(void)state;
	memset(&rules, 0, sizeof rules);
	assert_int_equal(standings_compute(0, g, 0, &rules, rows, &err),
	    STANDINGS_EPLAYERS);
	assert_int_equal(standings_compute(STANDINGS_MAX_PLAYERS + 1, g, 0,
	    &rules, rows, &err), STANDINGS_EPLAYERS);
	assert_int_equal(standings_compute(2, g, 2, &rules, rows, &err),
	    STANDINGS_EPLAYER);
	assert_int_equal(err, 1);
	g[1].black = 1;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, &err),
	    STANDINGS_ESELF);
	assert_int_equal(err, 1);
	g[1].black = 2;
	g[0].result = (enum standings_result)7;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, &err),
	    STANDINGS_ERESULT);
	assert_int_equal(err, 0);
	assert_int_equal(standings_crosstable_depth(3, g, 2, &depth, &err),
	    STANDINGS_ERESULT);
	assert_int_equal(standings_crosstable(3, g, 2, 1, grid, 9, &err),
	    STANDINGS_ERESULT);
	g[0].result = W;

	rules.ntiebreaks = 5;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, &err),
	    STANDINGS_ETIEBREAK);
	rules.ntiebreaks = 2;
	rules.tiebreaks[0] = STANDINGS_TB_SB;
	rules.tiebreaks[1] = STANDINGS_TB_SB;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, &err),
	    STANDINGS_ETIEBREAK);
	rules.tiebreaks[1] = (enum standings_tiebreak)9;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, &err),
	    STANDINGS_ETIEBREAK);
	rules.tiebreaks[1] = STANDINGS_TB_KOYA;
	assert_int_equal(standings_compute(3, g, 2, &rules, rows, NULL),
	    STANDINGS_OK);

	for (e = STANDINGS_OK; e <= STANDINGS_ESPACE; e++)
		assert_true(strlen(standings_strerror(
		    (enum standings_error)e)) > 0);
	assert_string_equal(standings_strerror((enum standings_error)77),
	    "unknown standings error");
}

/*
 * The largest event: 1000 players, everyone draws everyone in a round
 * robin (499500 games): all level, direct encounter applies (all met) and
 * gives 999 half points each; all share 1-1000. Mostly a check that the
 * stack-only bookkeeping holds at the bound.
 */
static void
test_largest(void **state)
{
	struct standings_game	*g;
	struct standings_row	*rows;
	unsigned		n = STANDINGS_MAX_PLAYERS, i, j;
	size_t			k = 0;

	(void)state;
	g = calloc((size_t)n * (n - 1) / 2, sizeof g[0]);
	rows = calloc(n, sizeof rows[0]);
	assert_non_null(g);
	assert_non_null(rows);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			g[k].white = i;
			g[k].black = j;
			g[k].result = D;
			k++;
		}
	compute(n, g, k, 0, rows, 2, STANDINGS_TB_DIRECT, STANDINGS_TB_SB);
	for (i = 0; i < n; i++) {
		assert_int_equal(rows[i].player, i);
		assert_int_equal(rows[i].points2, n - 1);
		assert_int_equal(rows[i].tb[0], n - 1);
		assert_int_equal(rows[i].place, 1);
		assert_int_equal(rows[i].place_last, n);
	}
	free(g);
	free(rows);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_sb_wins_koya),
		cmocka_unit_test(test_direct_group),
		cmocka_unit_test(test_direct_unfinished),
		cmocka_unit_test(test_direct_double),
		cmocka_unit_test(test_direct_not_met),
		cmocka_unit_test(test_all_shared),
		cmocka_unit_test(test_crosstable),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_largest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
