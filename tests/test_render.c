/*
 * tests/test_render.c: tests of the board text, durations and dates.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Unit tests of the text for people (src/game/render.c), in English and
 * French. */

#include "testutil.h"

#include "game/render.h"

/* The start position, ASCII, in both languages and from both sides. */
static void
test_board_letters(void **state)
{
	struct chess_position	pos;
	char			buf[RENDER_BOARD_MAX];
	size_t			n;

	(void)state;
	chess_init();
	chess_position_start(&pos);
	n = render_board(&pos, false, false, buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf,
	    "8 r n b q k b n r\n"
	    "7 p p p p p p p p\n"
	    "6 . . . . . . . .\n"
	    "5 . . . . . . . .\n"
	    "4 . . . . . . . .\n"
	    "3 . . . . . . . .\n"
	    "2 P P P P P P P P\n"
	    "1 R N B Q K B N R\n"
	    "  a b c d e f g h\n");
	n = render_board_lang(&pos, false, false, CHESS_LANG_FR, buf,
	    sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf,
	    "8 t c f d r f c t\n"
	    "7 p p p p p p p p\n"
	    "6 . . . . . . . .\n"
	    "5 . . . . . . . .\n"
	    "4 . . . . . . . .\n"
	    "3 . . . . . . . .\n"
	    "2 P P P P P P P P\n"
	    "1 T C F D R F C T\n"
	    "  a b c d e f g h\n");
	render_board_lang(&pos, false, true, CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf,
	    "1 T C F R D F C T\n"
	    "2 P P P P P P P P\n"
	    "3 . . . . . . . .\n"
	    "4 . . . . . . . .\n"
	    "5 . . . . . . . .\n"
	    "6 . . . . . . . .\n"
	    "7 p p p p p p p p\n"
	    "8 t c f r d f c t\n"
	    "  h g f e d c b a\n");
	render_board_lang(&pos, false, false, CHESS_LANG_EN, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 R N B Q K B N R\n"));

	/* Unicode symbols do not change with the language. */
	render_board_lang(&pos, true, false, CHESS_LANG_FR, buf, sizeof buf);
	assert_non_null(strstr(buf, "1 \u2656 \u2658 \u2657 \u2655 \u2654 "
	    "\u2657 \u2658 \u2656\n"));
	n = render_board(&pos, true, false, buf, sizeof buf);
	assert_non_null(strstr(buf, "8 \u265c \u265e \u265d \u265b \u265a "
	    "\u265d \u265e \u265c\n"));

	/* A short buffer gets what fits, and the full length. */
	assert_int_equal(render_board_lang(&pos, false, false, CHESS_LANG_FR,
	    buf, 6), strlen("8 t c f d r f c t\n") * 8 + strlen("  a b c d e "
	    "f g h\n"));
	assert_string_equal(buf, "8 t c");

	assert_string_equal(render_board_key(CHESS_LANG_FR),
	    "R roi, D dame, T tour, F fou, C cavalier, P pion ; majuscules : "
	    "Blancs");
	assert_string_equal(render_board_key(CHESS_LANG_EN),
	    "K king, Q queen, R rook, B bishop, N knight, P pawn; capitals: "
	    "White");
}

/* Durations, with English and French units. */
static void
test_durations(void **state)
{
	static const struct {
		int64_t		 s;
		const char	*en;
		const char	*fr;
	} t[] = {
		{ 2 * 86400 + 3 * 3600 + 59, "2d 3h", "2 j 3 h" },
		{ 12 * 86400, "12d", "12 j" },
		{ 5 * 3600 + 12 * 60, "5h 12m", "5 h 12 min" },
		{ 3600, "1h 0m", "1 h 0 min" },
		{ 12 * 60 + 5, "12m", "12 min" },
		{ 40, "40s", "40 s" },
		{ 0, "0s", "0 s" },
		{ -5, "0s", "0 s" },
	};
	char	buf[64];
	size_t	i, n;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		n = render_duration(t[i].s, buf, sizeof buf);
		assert_string_equal(buf, t[i].en);
		assert_int_equal(n, strlen(t[i].en));
		n = render_duration_lang(t[i].s, CHESS_LANG_EN, buf,
		    sizeof buf);
		assert_string_equal(buf, t[i].en);
		n = render_duration_lang(t[i].s, CHESS_LANG_FR, buf,
		    sizeof buf);
		assert_string_equal(buf, t[i].fr);
		assert_int_equal(n, strlen(t[i].fr));
	}
}

/* Dates in ISO 8601, UTC. */
static void
test_time(void **state)
{
	char	buf[64];

	(void)state;
	render_time(INT64_C(1795000000), buf, sizeof buf);
	assert_string_equal(buf, "2026-11-18T11:06:40Z");
	render_time(0, buf, sizeof buf);
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
}

/* Dates in words, UTC, in English and French. */
static void
test_time_lang(void **state)
{
	char	buf[64];

	(void)state;
	render_time_lang(INT64_C(1795000000), CHESS_LANG_EN, buf, sizeof buf);
	assert_string_equal(buf, "Wednesday 18 November 2026, 11:06 UTC");
	render_time_lang(INT64_C(1795000000), CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "mercredi 18 novembre 2026, 11:06 UTC");
	render_time_lang(INT64_C(1800000000), CHESS_LANG_FR, buf, sizeof buf);
	assert_string_equal(buf, "vendredi 15 janvier 2027, 08:00 UTC");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_letters),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_time_lang),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
