/*
 * tests/test_crosstable.c: the crosstable as text (event/crosstable.c).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "event/crosstable.h"

/* Values in units of a tie-break's scale, as short decimals. */
static void
test_values(void **state)
{
	char	buf[24];

	(void)state;
	crosstable_value(67, 4, buf, sizeof buf);
	assert_string_equal(buf, "16.75");
	crosstable_value(70, 4, buf, sizeof buf);
	assert_string_equal(buf, "17.5");
	crosstable_value(36, 4, buf, sizeof buf);
	assert_string_equal(buf, "9");
	crosstable_value(0, 2, buf, sizeof buf);
	assert_string_equal(buf, "0");
	crosstable_points(11, false, buf, sizeof buf);
	assert_string_equal(buf, "5½");
	crosstable_points(1, false, buf, sizeof buf);
	assert_string_equal(buf, "½");
	crosstable_points(11, true, buf, sizeof buf);
	assert_string_equal(buf, "5.5");
	crosstable_points(6, false, buf, sizeof buf);
	assert_string_equal(buf, "3");
}

/*
 * Three players, a single round robin: a beat b, b and c drew, c's game
 * against a is being played. The grid is aligned by display width (½ is
 * one column), the unfinished game is "*", tie-breaks in the rules'
 * order, places shared when level.
 */
static void
test_text(void **state)
{
	static const struct crosstable_player players[] = {
		{ "a", false }, { "bee", false }, { "c", true },
	};
	static const struct standings_game games[] = {
		{ 0, 1, STANDINGS_WHITE_WINS },
		{ 1, 2, STANDINGS_DRAW },
		{ 2, 0, STANDINGS_UNFINISHED },
	};
	struct standings_rules	rules = { { STANDINGS_TB_SB,
				    STANDINGS_TB_WINS }, 2, 2 };
	struct standings_row	rows[3];
	enum standings_mark	grid[9];
	struct crosstable	ct;
	struct buf		b = { 0 };
	unsigned		depth;
	char			*text;
	size_t			len;

	(void)state;
	assert_int_equal(standings_compute(3, games, 3, &rules, rows, NULL),
	    STANDINGS_OK);
	assert_int_equal(standings_crosstable_depth(3, games, 3, &depth,
	    NULL), STANDINGS_OK);
	assert_int_equal(depth, 1);
	assert_int_equal(standings_crosstable(3, games, 3, depth, grid, 9,
	    NULL), STANDINGS_OK);
	memset(&ct, 0, sizeof ct);
	ct.players = players;
	ct.nplayers = 3;
	ct.rules = &rules;
	ct.rows = rows;
	ct.grid = grid;
	ct.depth = depth;
	crosstable_text(&ct, &b);
	text = buf_take(&b, &len);
	assert_non_null(text);
	assert_string_equal(text,
	    " No  Player  1  2  3  Points  Games     SB   Wins  Place\n"
	    "  1  a       x  1  *       1      1    0.5      1      1\n"
	    "  2  bee     0  x  ½       ½      2   0.25      0    2-3\n"
	    "  3  c (w)   *  ½  x       ½      1   0.25      0    2-3\n"
	    "(w) withdrew; + and - are forfeits\n");
	free(text);
}

/* Run the tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
