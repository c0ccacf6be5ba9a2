/*
 * tests/test_spell.c: tests of the closest-name suggestions.
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
 * The typos a club admin made (a missing underscore, two letters swapped,
 * a longer word for a short name), a word unlike any name, and the
 * sentence spell_unknown() writes with and without a suggestion.
 */

#include "testutil.h"

#include "util/spell.h"

static const char *const game_names[] = { "white", "black", "variant",
    "fen", "time_control", "policy", "event", "site", "round", "chess960" };
static const char *const player_names[] = { "name", "email", "lang",
    "digest", "keys", "key" };

#define N(a)	(sizeof (a) / sizeof (a)[0])

/* The typos of the first week find their names. */
static void
test_typos(void **state)
{
	(void)state;
	assert_string_equal(spell_closest("timecontrol", game_names,
	    N(game_names)), "time_control");
	assert_string_equal(spell_closest("emial", player_names,
	    N(player_names)), "email");
	assert_string_equal(spell_closest("language", player_names,
	    N(player_names)), "lang");
	assert_string_equal(spell_closest("Variant", game_names,
	    N(game_names)), "variant");
	assert_string_equal(spell_closest("chess-960", game_names,
	    N(game_names)), "chess960");
}

/* A word unlike every name gets no suggestion. */
static void
test_none(void **state)
{
	(void)state;
	assert_null(spell_closest("colour", game_names, N(game_names)));
	assert_null(spell_closest("x", game_names, N(game_names)));
	assert_null(spell_closest("", game_names, N(game_names)));
	assert_null(spell_closest("timecontrol", NULL, 0));
}

/* The sentences, with and without a suggestion. */
static void
test_sentence(void **state)
{
	char	buf[128];

	(void)state;
	assert_int_equal(spell_unknown(buf, sizeof buf, "member",
	    "timecontrol", game_names, N(game_names)), -1);
	assert_string_equal(buf,
	    "unknown member timecontrol; did you mean time_control?");
	spell_unknown(buf, sizeof buf, "query parameter", "colour",
	    game_names, N(game_names));
	assert_string_equal(buf, "unknown query parameter colour");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typos),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_sentence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
