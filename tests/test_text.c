/*
 * tests/test_text.c: tests of the free-text checks.
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
 * Plain text in any script passes; controls (C0, DEL, C1, the Unicode
 * line and paragraph separators), every bidirectional control and bytes
 * that are not UTF-8 are refused, each with its own reason.
 */

#include "testutil.h"

#include "util/text.h"

/* Text a club writes is kept. */
static void
test_plain(void **state)
{
	(void)state;
	assert_int_equal(text_check(""), TEXT_OK);
	assert_int_equal(text_check("Club championship 2026"), TEXT_OK);
	assert_int_equal(text_check("Championnat d'été, ronde 3"), TEXT_OK);
	assert_int_equal(text_check("Москва — שחמט — 国际象棋 ♔"), TEXT_OK);
	assert_int_equal(text_check("\xf0\x9f\x8f\x86"), TEXT_OK); /* U+1F3C6 */
}

/* Controls and separators are refused. */
static void
test_controls(void **state)
{
	(void)state;
	assert_int_equal(text_check("a\tb"), TEXT_CONTROL);
	assert_int_equal(text_check("a\rb"), TEXT_CONTROL);
	assert_int_equal(text_check("a\x1b[31mb"), TEXT_CONTROL);
	assert_int_equal(text_check("a\x7f"), TEXT_CONTROL);
	assert_int_equal(text_check("a\xc2\x85"), TEXT_CONTROL); /* U+0085 */
	assert_int_equal(text_check("a\xe2\x80\xa8"), TEXT_CONTROL);
	assert_int_equal(text_check("a\xe2\x80\xa9"), TEXT_CONTROL);
}

/* Every bidirectional control is refused. */
static void
test_bidi(void **state)
{
	static const char *const bidi[] = {
		"\xd8\x9c",				/* U+061C */
		"\xe2\x80\x8e", "\xe2\x80\x8f",		/* U+200E, U+200F */
		"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac",
		"\xe2\x80\xad", "\xe2\x80\xae",		/* U+202A..U+202E */
		"\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8",
		"\xe2\x81\xa9",				/* U+2066..U+2069 */
	};
	char	buf[32];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
		snprintf(buf, sizeof buf, "round %s1", bidi[i]);
		assert_int_equal(text_check(buf), TEXT_BIDI);
	}
	/* Their neighbours are ordinary characters. */
	assert_int_equal(text_check("\xe2\x80\x8d"), TEXT_OK);	/* U+200D */
	assert_int_equal(text_check("\xe2\x80\xaf"), TEXT_OK);	/* U+202F */
	assert_int_equal(text_check("\xe2\x81\xa5"), TEXT_OK);	/* U+2065 */
}

/* Bytes that are not UTF-8, overlong forms and surrogates are refused. */
static void
test_utf8(void **state)
{
	(void)state;
	assert_int_equal(text_check("\xff"), TEXT_UTF8);
	assert_int_equal(text_check("\xc3"), TEXT_UTF8);
	assert_int_equal(text_check("\xc0\xaf"), TEXT_UTF8);
	assert_int_equal(text_check("\xe0\x80\xaf"), TEXT_UTF8);
	assert_int_equal(text_check("\xed\xa0\x80"), TEXT_UTF8);
	assert_int_equal(text_check("\xf4\x90\x80\x80"), TEXT_UTF8);
	assert_string_not_equal(text_fault_name(TEXT_UTF8),
	    text_fault_name(TEXT_BIDI));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
