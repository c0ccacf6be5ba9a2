/*
 * tests/test_address.c: tests of the e-mail address check.
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
 * One bare addr-spec passes; what an audit registered as addresses (a
 * list, a display name, a group, CR, a tab, U+2028) and their kin are
 * refused, each with a reason.
 */

#include "testutil.h"

#include "letters/address.h"

/* Plain addresses pass. */
static void
test_good(void **state)
{
	(void)state;
	assert_int_equal(mail_address_check("alice@club.example", NULL, 0), 0);
	assert_int_equal(mail_address_check("a.b+chess@x.org", NULL, 0), 0);
	assert_int_equal(mail_address_check("a@b.c", NULL, 0), 0);
}

/* Everything but one bare addr-spec is refused. */
static void
test_bad(void **state)
{
	static const char *const bad[] = {
		"a@b.c, victim@x",
		"a@b.c,victim@x",
		"foo <a@b.c>",
		"<a@b.c>",
		"undisclosed:victim@x;",
		"a@b.c (comment)",
		"a@b.c\r",
		"a@b.c\rRCPT TO:<victim@x>",
		"a@b.c\n",
		"a\t@b.c",
		"a@b.c\xe2\x80\xa8victim@x",
		"a@b.c\xe2\x80\xae",
		"a @b.c",
		"alice",
		"@b.c",
		"a@",
		"\"a@b.c\"",
	};
	char	why[128];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		if (mail_address_check(bad[i], why, sizeof why) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_true(why[0] != '\0');
	}
	assert_int_equal(mail_address_check("foo <a@b.c>", why, sizeof why),
	    -1);
	assert_non_null(strstr(why, "without a name"));
	assert_int_equal(mail_address_check("a@b.c, v@x", why, sizeof why),
	    -1);
	assert_non_null(strstr(why, "not a list"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
