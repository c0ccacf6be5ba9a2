/*
 * tests/test_french.c: tests of French elision before a name.
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
 * Names with a vowel, an accented vowel, a y or an h take "d'"; names with
 * a consonant (Ç included), a digit or nothing take "de ".
 */

#include "testutil.h"

#include "util/french.h"

/* A vowel, accented or not, y and h elide. */
static void
test_elides(void **state)
{
	(void)state;
	assert_string_equal(french_de("alice"), "d'");
	assert_string_equal(french_de("Alice"), "d'");
	assert_string_equal(french_de("eve"), "d'");
	assert_string_equal(french_de("ivan"), "d'");
	assert_string_equal(french_de("oscar"), "d'");
	assert_string_equal(french_de("ursula"), "d'");
	assert_string_equal(french_de("yves"), "d'");
	assert_string_equal(french_de("hugo"), "d'");
	assert_string_equal(french_de("\xc3\xa9lodie"), "d'");	/* élodie */
	assert_string_equal(french_de("\xc3\x89mile"), "d'");	/* Émile */
	assert_string_equal(french_de("\xc3\x80nge"), "d'");	/* Ànge */
	assert_string_equal(french_de("\xc5\x93il"), "d'");	/* œil */
}

/* Consonants, digits, an empty name and NULL do not. */
static void
test_keeps(void **state)
{
	(void)state;
	assert_string_equal(french_de("bob"), "de ");
	assert_string_equal(french_de("Bob"), "de ");
	assert_string_equal(french_de("zoe"), "de ");
	assert_string_equal(french_de("\xc3\xa7" "a"), "de ");	/* ça */
	assert_string_equal(french_de("\xc3\xb1" "o"), "de ");	/* ño */
	assert_string_equal(french_de("42"), "de ");
	assert_string_equal(french_de(""), "de ");
	assert_string_equal(french_de(NULL), "de ");
	assert_false(french_elides("bob"));
	assert_true(french_elides("alice"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elides),
		cmocka_unit_test(test_keeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
