/*
 * tests/test_imap_parse.c: tests of the IMAP answer parser (framing, FETCH).
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
 * src/mail/imap_parse.c on answers Dovecot 2.3.19.1 gave
 * (tests/data/imap/dovecot-*.txt: SELECT, a FETCH of three whole
 * messages, the same cut at 100 bytes, a flags update, BODYSTRUCTURE, a
 * refused SELECT) and on broken ones: a response is framed only when all
 * of it is there, literals are skipped by their size whatever they hold,
 * and nothing past the bytes given is read.
 */

#include "config.h"

#include "testutil.h"

#include <stdbool.h>

#include "mail/imap_parse.h"

/* Read tests/data/imap/NAME.txt into a malloc'd buffer. */
static char *
capture(const char *name, size_t *len)
{
	char	 path[512];
	FILE	*f;
	char	*buf;
	long	 n;

	snprintf(path, sizeof path, "%s/data/imap/%s.txt", TEST_SRCDIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/*
 * Frame every response of buf; the lengths go to lens (at most max);
 * return their number. The whole buffer must be responses.
 */
static size_t
frame_all(const char *buf, size_t len, size_t max_literal, size_t *lens,
    size_t max)
{
	size_t	off = 0, n = 0, rl;

	while (off < len) {
		assert_true(n < max);
		assert_int_equal(imap_parse_frame(buf + off, len - off,
		    max_literal, &rl), IMAP_PARSE_OK);
		assert_true(rl > 0 && rl <= len - off);
		lens[n++] = rl;
		off += rl;
	}
	return n;
}

/* The three whole messages: UID, size and bytes, braces inside kept. */
static void
test_fetch_whole(void **state)
{
	static const char	 m2[] = "From: bob@example.org\r\n"
	    "Subject: =?utf-8?q?=C3=A9chec?=\r\n\r\nA line with {5}\r\n"
	    "and a brace at the end {12}\r\n)\r\n";
	struct imap_fetch	 f;
	char			*buf;
	size_t			 len, lens[8], n, off = 0, i;
	bool			 ok;

	(void)state;
	buf = capture("dovecot-fetch", &len);
	n = frame_all(buf, len, 1u << 24, lens, 8);
	assert_int_equal(n, 4);
	for (i = 0; i < 3; i++) {
		assert_int_equal(imap_parse_fetch(buf + off, lens[i], &f), 0);
		assert_int_equal(f.seq, i + 1);
		assert_int_equal(f.uid, i + 1);
		assert_true(f.has_size && f.has_body);
		assert_int_equal(f.body_len, f.size);
		assert_int_equal(f.body_origin, 0);
		assert_true(f.body > buf + off && f.body + f.body_len <=
		    buf + off + lens[i]);
		if (i == 1) {
			assert_int_equal(f.body_len, sizeof m2 - 1);
			assert_memory_equal(f.body, m2, sizeof m2 - 1);
		}
		off += lens[i];
	}
	assert_int_equal(f.size, 43);
	/* The tagged end is no FETCH. */
	assert_int_equal(imap_parse_fetch(buf + off, lens[3], &f), 1);
	assert_int_equal(imap_parse_tagged(buf + off, lens[3], "p3", &ok), 1);
	assert_true(ok);
	assert_int_equal(imap_parse_tagged(buf + off, lens[3], "p30", &ok), 0);
	assert_int_equal(imap_parse_tagged(buf + off, lens[3], "p", &ok), 0);
	free(buf);
}

/* Every cut of the capture frames as "more", never past the cut. */
static void
test_frame_every_cut(void **state)
{
	char	*buf, *cut;
	size_t	 len, k, rl;
	enum imap_parse_status st;

	(void)state;
	buf = capture("dovecot-fetch", &len);
	for (k = 0; k < len; k++) {
		/* A copy of exactly k bytes, so ASan sees a read past it. */
		cut = malloc(k > 0 ? k : 1);
		assert_non_null(cut);
		memcpy(cut, buf, k);
		rl = 0;
		st = imap_parse_frame(cut, k, 1u << 24, &rl);
		if (st == IMAP_PARSE_OK)
			assert_true(rl <= k);
		else
			assert_int_equal(st, IMAP_PARSE_MORE);
		free(cut);
	}
	free(buf);
}

/* The same messages cut at 100 bytes: <0> and the announced size. */
static void
test_fetch_partial(void **state)
{
	static const size_t	 sizes[3] = { 192, 107, 43 };
	static const size_t	 bodies[3] = { 100, 100, 43 };
	struct imap_fetch	 f;
	char			*buf;
	size_t			 len, lens[8], n, off = 0, i;

	(void)state;
	buf = capture("dovecot-partial", &len);
	n = frame_all(buf, len, 100, lens, 8);
	assert_int_equal(n, 4);
	for (i = 0; i < 3; i++) {
		assert_int_equal(imap_parse_fetch(buf + off, lens[i], &f), 0);
		assert_int_equal(f.uid, i + 1);
		assert_int_equal(f.size, sizes[i]);
		assert_int_equal(f.body_len, bodies[i]);
		off += lens[i];
	}
	/* A literal over the limit is refused, not waited for. */
	assert_int_equal(imap_parse_frame(buf, len, 99, &n), IMAP_PARSE_EBAD);
	free(buf);
}

/* SELECT: UIDVALIDITY and UIDNEXT; a refused SELECT; flags; structure. */
static void
test_other_answers(void **state)
{
	struct imap_fetch	 f;
	char			*buf;
	size_t			 len, lens[16], n, off, i;
	uint32_t		 v, validity = 0, next = 0;
	bool			 ok;

	(void)state;
	buf = capture("dovecot-select", &len);
	n = frame_all(buf, len, 0, lens, 16);
	assert_int_equal(n, 8);
	for (i = 0, off = 0; i < n; off += lens[i++]) {
		assert_int_equal(imap_parse_fetch(buf + off, lens[i], &f), 1);
		if (imap_parse_code(buf + off, lens[i], "UIDVALIDITY", &v) == 0)
			validity = v;
		if (imap_parse_code(buf + off, lens[i], "UIDNEXT", &v) == 0)
			next = v;
	}
	assert_int_equal(validity, 1796182244u);
	assert_int_equal(next, 4);
	off -= lens[n - 1];
	assert_int_equal(imap_parse_tagged(buf + off, lens[n - 1], "p2", &ok),
	    1);
	assert_true(ok);
	free(buf);

	buf = capture("dovecot-no", &len);
	n = frame_all(buf, len, 0, lens, 16);
	assert_int_equal(n, 2);
	assert_int_equal(imap_parse_tagged(buf + lens[0], lens[1], "p7", &ok),
	    1);
	assert_false(ok);
	free(buf);

	/* FETCH answers without a body: flags, a nested BODYSTRUCTURE. */
	buf = capture("dovecot-store", &len);
	n = frame_all(buf, len, 0, lens, 16);
	assert_int_equal(imap_parse_fetch(buf, lens[0], &f), 0);
	assert_int_equal(f.uid, 2);
	assert_false(f.has_body);
	free(buf);
	buf = capture("dovecot-struct", &len);
	n = frame_all(buf, len, 0, lens, 16);
	assert_int_equal(n, 4);
	for (i = 0, off = 0; i < 3; off += lens[i++]) {
		assert_int_equal(imap_parse_fetch(buf + off, lens[i], &f), 0);
		assert_int_equal(f.uid, i + 1);
		assert_false(f.has_body || f.has_size);
	}
	free(buf);
}

/* Parse s as one response; return what imap_parse_fetch() says. */
static int
fetch_of(const char *s, struct imap_fetch *f)
{
	return imap_parse_fetch(s, strlen(s), f);
}

/* Broken answers are refused: sizes, nesting, numbers, ends. */
static void
test_broken(void **state)
{
	struct imap_fetch	 f;
	char			*big;
	size_t			 rl, i;

	(void)state;
	/* Framing. */
	assert_int_equal(imap_parse_frame("* 1 FETCH (BODY[] {5}\r\nab", 25,
	    100, &rl), IMAP_PARSE_MORE);
	assert_int_equal(imap_parse_frame("* 1 FETCH (BODY[] {101}\r\n", 25,
	    100, &rl), IMAP_PARSE_EBAD);
	assert_int_equal(imap_parse_frame("x {99999999999999999999}\r\n", 26,
	    SIZE_MAX, &rl), IMAP_PARSE_EBAD);
	assert_int_equal(imap_parse_frame("", 0, 100, &rl), IMAP_PARSE_MORE);
	big = malloc(IMAP_PARSE_MAX_LINE + 2);
	assert_non_null(big);
	memset(big, 'a', IMAP_PARSE_MAX_LINE + 2);
	assert_int_equal(imap_parse_frame(big, IMAP_PARSE_MAX_LINE + 1, 100,
	    &rl), IMAP_PARSE_EBAD);
	assert_int_equal(imap_parse_frame(big, IMAP_PARSE_MAX_LINE, 100, &rl),
	    IMAP_PARSE_MORE);
	free(big);
	/* Not a literal: no digits, or no brace. */
	assert_int_equal(imap_parse_frame("* OK {}\r\n", 9, 100, &rl),
	    IMAP_PARSE_OK);
	assert_int_equal(rl, 9);
	assert_int_equal(imap_parse_frame("* OK 12}\r\n", 10, 100, &rl),
	    IMAP_PARSE_OK);

	/* FETCH items. */
	assert_int_equal(fetch_of("* 3 EXISTS\r\n", &f), 1);
	assert_int_equal(fetch_of("p1 OK done\r\n", &f), 1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 7)\r\n", &f), 0);
	assert_int_equal(f.uid, 7);
	assert_int_equal(fetch_of("* 1 FETCH ()\r\n", &f), 0);
	assert_int_equal(fetch_of("* 1 FETCH (UID 0)\r\n", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 4294967296)\r\n", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 4294967295)\r\n", &f), 0);
	assert_int_equal(fetch_of("* 1 FETCH (UID 7\r\n", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 7)", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 7) \r\n", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH UID 7\r\n", &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (FLAGS (\\Seen)\r\n", &f), -1);
	/* A literal that claims more than there is. */
	assert_int_equal(fetch_of("* 1 FETCH (UID 2 BODY[] {50}\r\nabc)\r\n",
	    &f), -1);
	assert_int_equal(fetch_of("* 1 FETCH (UID 2 BODY[] {3}\r\nabc)\r\n",
	    &f), 0);
	assert_true(f.has_body);
	assert_int_equal(f.body_len, 3);
	assert_memory_equal(f.body, "abc", 3);
	assert_int_equal(fetch_of("* 1 FETCH (UID 2 BODY[] NIL)\r\n", &f), 0);
	assert_true(f.has_body);
	assert_null(f.body);
	assert_int_equal(fetch_of("* 1 FETCH (BODY[]<0> \"hi\" UID 9)\r\n",
	    &f), 0);
	assert_int_equal(f.body_len, 2);
	assert_int_equal(f.uid, 9);
	assert_int_equal(fetch_of("* 1 FETCH (BODY[] \"h\\\"i\")\r\n", &f),
	    -1);
	/* A section is not the whole message. */
	assert_int_equal(fetch_of("* 1 FETCH (BODY[HEADER] {2}\r\nab)\r\n",
	    &f), 0);
	assert_false(f.has_body);
	assert_int_equal(fetch_of("* 1 FETCH (BODY[HEADER {2}\r\nab)\r\n",
	    &f), -1);
	/* Nesting: 32 levels are read, 40 are not. */
	{
		char	s[200];
		size_t	n;

		for (i = 0; i < 2; i++) {
			size_t depth = i == 0 ? 32 : 40, k;

			n = (size_t)snprintf(s, sizeof s, "* 1 FETCH (X ");
			for (k = 0; k < depth; k++)
				s[n++] = '(';
			for (k = 0; k < depth; k++)
				s[n++] = ')';
			n += (size_t)snprintf(s + n, sizeof s - n, ")\r\n");
			assert_int_equal(imap_parse_fetch(s, n, &f),
			    i == 0 ? 0 : -1);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fetch_whole),
		cmocka_unit_test(test_frame_every_cut),
		cmocka_unit_test(test_fetch_partial),
		cmocka_unit_test(test_other_answers),
		cmocka_unit_test(test_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
