/*
 * tests/test_conf.c: tests of the configuration table and parser.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Tests of the configuration table and parser (src/daemon/conf.c). */

#include "testutil.h"

#include <stdbool.h>

#include "daemon/conf.h"

/* Load text into a fresh default configuration; return the result. */
static int
load(struct conf *c, const char *text, char *err, size_t errsize)
{
	char	why[CONF_ERR_SIZE];

	assert_int_equal(conf_init(c, why, sizeof why), 0);
	err[0] = '\0';
	return conf_load_buffer(c, "test.conf", text, strlen(text), err,
	    errsize);
}

/* Expect text to fail with exactly the error expected. */
static void
expect_error(const char *text, const char *expected)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	assert_int_equal(load(&c, text, err, sizeof err), -1);
	assert_string_equal(err, expected);
	conf_free(&c);
}

/* Every default is the documented one. */
static void
test_defaults(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	assert_string_equal(c.server.listen, "127.0.0.1");
	assert_int_equal(c.server.port, 8080);
	assert_string_equal(c.server.state_directory, "/var/lib/corrchessd");
	assert_string_equal(c.server.admin_token_file, "");
	assert_int_equal(c.server.max_body_size, 64 * 1024);
	assert_int_equal(c.server.max_header_size, 8 * 1024);
	assert_int_equal(c.server.max_connections, 10000);
	assert_int_equal(c.server.connection_timeout, 30);
	assert_int_equal(c.server.request_timeout, 10);
	assert_int_equal(c.server.threads, 0);	/* one a core */
	assert_int_equal(c.storage.synchronous, CONF_SYNC_FULL);
	assert_int_equal(c.log.level, 6);
	assert_false(c.log.requests);
	conf_free(&c);
}

/* A file that sets every key, with comments, blank lines and spaces. */
static void
test_load_every_key(void **state)
{
	const char *text =
	    "# comment\n"
	    "; another comment\n"
	    "\n"
	    "[server]\n"
	    "  listen   =   ::1  \n"
	    "port=0\n"
	    "state_directory = ./state dir\n"
	    "admin_token_file = /etc/corrchess/token\n"
	    "max_body_size = 1M\n"
	    "max_header_size = 16KiB\n"
	    "max_connections = 10\n"
	    "connection_timeout = 2m\n"
	    "threads = 4\n"
	    "[ storage ]\n"
	    "synchronous = normal\n"
	    "[log]\n"
	    "level = debug\n"
	    "requests = yes\n";
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(load(&c, text, err, sizeof err), 0);
	assert_string_equal(c.server.listen, "::1");
	assert_int_equal(c.server.port, 0);
	assert_string_equal(c.server.state_directory, "./state dir");
	assert_string_equal(c.server.admin_token_file, "/etc/corrchess/token");
	assert_int_equal(c.server.max_body_size, 1024 * 1024);
	assert_int_equal(c.server.max_header_size, 16 * 1024);
	assert_int_equal(c.server.max_connections, 10);
	assert_int_equal(c.server.connection_timeout, 120);
	assert_int_equal(c.server.threads, 4);
	assert_int_equal(c.storage.synchronous, CONF_SYNC_NORMAL);
	assert_int_equal(c.log.level, 7);
	assert_true(c.log.requests);
	conf_free(&c);
}

/* CRLF line ends, a byte order mark and a last line without '\n'. */
static void
test_load_crlf_bom(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(load(&c, "\xef\xbb\xbf[server]\r\nport = 9\r\n"
	    "threads = 3", err, sizeof err), 0);
	assert_int_equal(c.server.port, 9);
	assert_int_equal(c.server.threads, 3);
	conf_free(&c);
}

/* Parse text as a value of section.name; return 0 or -1 and the error. */
static int
parse(const char *section, const char *name, const char *text,
    union conf_value *v, char *err)
{
	const struct conf_key *k = conf_find(section, name);

	assert_non_null(k);
	err[0] = '\0';
	return conf_parse_value(k, text, v, err, CONF_ERR_SIZE);
}

/* Integers: decimal, within the row's limits. */
static void
test_type_int(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("server", "port", "65535", &v, err), 0);
	assert_int_equal(v.n, 65535);
	assert_int_equal(parse("server", "port", "65536", &v, err), -1);
	assert_string_equal(err, "'65536' is out of range (0 to 65535)");
	assert_int_equal(parse("server", "port", "-1", &v, err), -1);
	assert_string_equal(err, "'-1' is out of range (0 to 65535)");
	assert_int_equal(parse("server", "port", "80a", &v, err), -1);
	assert_string_equal(err, "'80a' is not an integer");
	assert_int_equal(parse("server", "port", "+80", &v, err), -1);
	assert_int_equal(parse("server", "port", "99999999999999999999", &v,
	    err), -1);
	assert_string_equal(err, "'99999999999999999999' is too large");
	assert_int_equal(parse("server", "port", "", &v, err), -1);
	assert_string_equal(err, "empty value");
}

/* Sizes: bytes, or K, M, G (KiB, MiB, GiB) in any case. */
static void
test_type_size(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("server", "max_body_size", "2048", &v, err), 0);
	assert_int_equal(v.n, 2048);
	assert_int_equal(parse("server", "max_body_size", "64k", &v, err), 0);
	assert_int_equal(v.n, 65536);
	assert_int_equal(parse("server", "max_body_size", "3 MiB", &v, err),
	    0);
	assert_int_equal(v.n, 3 * 1024 * 1024);
	assert_int_equal(parse("server", "max_body_size", "1G", &v, err), 0);
	assert_int_equal(v.n, 1024LL * 1024 * 1024);
	assert_int_equal(parse("server", "max_body_size", "2G", &v, err), -1);
	assert_string_equal(err, "'2G' is out of range (1K to 1G)");
	assert_int_equal(parse("server", "max_body_size", "100", &v, err), -1);
	assert_string_equal(err, "'100' is out of range (1K to 1G)");
	assert_int_equal(parse("server", "max_body_size", "64Q", &v, err), -1);
	assert_string_equal(err,
	    "'64Q' is not a size (a number of bytes, with K, M or G)");
	assert_int_equal(parse("server", "max_body_size",
	    "9999999999999999G", &v, err), -1);
	assert_string_equal(err, "'9999999999999999G' is too large");
}

/* Durations: seconds, or s, m, h, d. */
static void
test_type_duration(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("server", "connection_timeout", "45", &v, err),
	    0);
	assert_int_equal(v.n, 45);
	assert_int_equal(parse("server", "connection_timeout", "45s", &v,
	    err), 0);
	assert_int_equal(v.n, 45);
	assert_int_equal(parse("server", "connection_timeout", "5m", &v, err),
	    0);
	assert_int_equal(v.n, 300);
	assert_int_equal(parse("server", "connection_timeout", "1h", &v, err),
	    0);
	assert_int_equal(v.n, 3600);
	assert_int_equal(parse("server", "connection_timeout", "1d", &v, err),
	    -1);
	assert_string_equal(err, "'1d' is out of range (1s to 1h)");
	assert_int_equal(parse("server", "connection_timeout", "0", &v, err),
	    -1);
	assert_int_equal(parse("server", "connection_timeout", "5 minutes",
	    &v, err), -1);
	assert_string_equal(err,
	    "'5 minutes' is not a duration (a number with s, m, h or d)");
}

/* Decimals: at most six places, kept in millionths. */
static void
test_type_decimal(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("ratings", "tau", "0.5", &v, err), 0);
	assert_int_equal(v.n, 500000);
	assert_int_equal(parse("ratings", "tau", "1", &v, err), 0);
	assert_int_equal(v.n, 1000000);
	assert_int_equal(parse("ratings", "volatility", "0.000001", &v, err),
	    -1);
	assert_string_equal(err, "'0.000001' is out of range (0.001 to 1)");
	assert_int_equal(parse("ratings", "volatility", "0.06", &v, err), 0);
	assert_int_equal(v.n, 60000);
	assert_int_equal(parse("ratings", "tau", "0.1234567", &v, err), -1);
	assert_string_equal(err, "'0.1234567' is not a decimal number (0.06)");
	assert_int_equal(parse("ratings", "tau", "0.", &v, err), -1);
	assert_int_equal(parse("ratings", "tau", ".5", &v, err), -1);
	assert_int_equal(parse("ratings", "tau", "0.5x", &v, err), -1);
	assert_int_equal(parse("ratings", "tau", "3", &v, err), -1);
	assert_string_equal(err, "'3' is out of range (0.1 to 2)");
}

/* Booleans: yes/no, true/false, on/off, 1/0. */
static void
test_type_bool(void **state)
{
	static const char *const yes[] = { "yes", "TRUE", "on", "1" };
	static const char *const no[] = { "no", "False", "off", "0" };
	union conf_value	v;
	char			err[CONF_ERR_SIZE];
	size_t			i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(parse("log", "requests", yes[i], &v, err), 0);
		assert_true(v.b);
		assert_int_equal(parse("log", "requests", no[i], &v, err), 0);
		assert_false(v.b);
	}
	assert_int_equal(parse("log", "requests", "maybe", &v, err), -1);
	assert_string_equal(err, "'maybe' is not yes or no");
}

/* Addresses: IPv4 and IPv6 literals only. */
static void
test_type_addr(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("server", "listen", "0.0.0.0", &v, err), 0);
	assert_string_equal(v.s, "0.0.0.0");
	free(v.s);
	assert_int_equal(parse("server", "listen", "fe80::1", &v, err), 0);
	free(v.s);
	assert_int_equal(parse("server", "listen", "localhost", &v, err), -1);
	assert_string_equal(err,
	    "'localhost' is not an IPv4 or IPv6 address");
	assert_int_equal(parse("server", "listen", "1.2.3.256", &v, err), -1);
}

/* Paths: any text; empty only where the row allows it. */
static void
test_type_path(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("server", "state_directory", "state", &v, err),
	    0);
	assert_string_equal(v.s, "state");
	free(v.s);
	assert_int_equal(parse("server", "state_directory", "", &v, err), -1);
	assert_string_equal(err, "empty value");
	assert_int_equal(parse("server", "admin_token_file", "", &v, err), 0);
	assert_string_equal(v.s, "");
	free(v.s);
}

/* Choices: one of the row's names, and the error lists them. */
static void
test_type_choice(void **state)
{
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(parse("storage", "synchronous", "normal", &v, err),
	    0);
	assert_int_equal(v.n, CONF_SYNC_NORMAL);
	assert_int_equal(parse("storage", "synchronous", "FULL", &v, err), -1);
	assert_string_equal(err, "'FULL' is not one of: full, normal");
	assert_int_equal(parse("log", "level", "warning", &v, err), 0);
	assert_int_equal(v.n, 4);
	assert_int_equal(parse("log", "level", "verbose", &v, err), -1);
	assert_string_equal(err,
	    "'verbose' is not one of: error, warning, info, debug");
}

/* Strings (no key uses them yet): any text, even empty. */
static void
test_type_string(void **state)
{
	const struct conf_key key = { .section = "x", .name = "s",
	    .type = CONF_STRING, .def = "" };
	union conf_value	v;
	char			err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(conf_parse_value(&key, "a = b # c", &v, err,
	    sizeof err), 0);
	assert_string_equal(v.s, "a = b # c");
	free(v.s);
	assert_int_equal(conf_parse_value(&key, "", &v, err, sizeof err), 0);
	free(v.s);
	assert_int_equal(conf_parse_value(&key, "a\x01", &v, err, sizeof err),
	    -1);
	assert_string_equal(err, "control character in value");
}

/* Each error names the file and the line. */
static void
test_errors(void **state)
{
	char	 longline[5000];

	(void)state;
	expect_error("[server]\nport = 1\n[mailx]\n",
	    "test.conf:3: unknown section [mailx]");
	expect_error("[server]\n\nportt = 1\n",
	    "test.conf:3: unknown key 'portt' in section [server]");
	expect_error("[storage]\nport = 1\n",
	    "test.conf:2: unknown key 'port' in section [storage]");
	expect_error("# top\nport = 1\n",
	    "test.conf:2: key 'port' before any [section]");
	expect_error("[server\n", "test.conf:1: missing ']' after section "
	    "name");
	expect_error("[server] x\n", "test.conf:1: text after section header");
	expect_error("[]\n", "test.conf:1: unknown section []");
	expect_error("[server]\nport 80\n",
	    "test.conf:2: expected 'key = value' or '[section]'");
	expect_error("[server]\n= 80\n", "test.conf:2: '' is not a key name");
	expect_error("[server]\nport = eighty\n",
	    "test.conf:2: port: 'eighty' is not an integer");
	expect_error("[server]\nport = 80\nlisten = ::\n[server]\nport = 81\n",
	    "test.conf:5: port already set on line 2");
	expect_error("[server]\nport = 8\x01" "0\n",
	    "test.conf:2: control character (byte 0x01) in line");
	expect_error("[server]\nport =\n", "test.conf:2: port: empty value");

	memset(longline, 'a', sizeof longline - 1);
	longline[sizeof longline - 1] = '\0';
	memcpy(longline, "[server]\n#", 10);
	expect_error(longline, "test.conf:2: line longer than 4096 bytes");
}

/* A NUL byte inside the buffer is an error, not an end of text. */
static void
test_error_nul(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];
	const char	text[] = "[server]\nport = 8\0" "0\n";

	(void)state;
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	assert_int_equal(conf_load_buffer(&c, "nul.conf", text,
	    sizeof text - 1, err, sizeof err), -1);
	assert_string_equal(err,
	    "nul.conf:2: control character (byte 0x00) in line");
	conf_free(&c);
}

/* A missing file is an error naming it. */
static void
test_missing_file(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	assert_int_equal(conf_load_file(&c, "/nonexistent/corrchessd.conf",
	    err, sizeof err), -1);
	assert_string_equal(err,
	    "/nonexistent/corrchessd.conf: No such file or directory");
	conf_free(&c);
}

/* conf_set() applies a command-line value with the key's checks. */
static void
test_set(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	assert_int_equal(conf_set(&c, "server", "state_directory", "./st",
	    err, sizeof err), 0);
	assert_string_equal(c.server.state_directory, "./st");
	assert_int_equal(conf_set(&c, "server", "port", "x", err, sizeof err),
	    -1);
	assert_string_equal(err, "server.port: 'x' is not an integer");
	assert_int_equal(conf_set(&c, "server", "nope", "1", err, sizeof err),
	    -1);
	assert_string_equal(err, "server.nope: unknown key");
	conf_free(&c);
}

/* Read conf/corrchessd.conf from the source tree. */
static char *
read_shipped_example(size_t *len)
{
	char	 path[1024];
	FILE	*f;
	char	*buf;
	size_t	 n;

	snprintf(path, sizeof path, "%s/../conf/corrchessd.conf", TEST_SRCDIR);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	buf = malloc(1024 * 1024);
	assert_non_null(buf);
	n = fread(buf, 1, 1024 * 1024 - 1, f);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The shipped example is exactly what the table prints. */
static void
test_example_matches_table(void **state)
{
	char	*shipped, *generated = NULL;
	size_t	 shipped_len, generated_len = 0;
	FILE	*fp;

	(void)state;
	shipped = read_shipped_example(&shipped_len);
	fp = open_memstream(&generated, &generated_len);
	assert_non_null(fp);
	assert_int_equal(conf_write_example(fp), 0);
	fclose(fp);
	if (strcmp(shipped, generated) != 0)
		fail_msg("conf/corrchessd.conf differs from the table in "
		    "src/daemon/conf.c; run `make update-conf`");
	free(shipped);
	free(generated);
}

/* The example, parsed, gives the defaults, and names every key. */
static void
test_example_is_defaults(void **state)
{
	struct conf	 c, d;
	char		 err[CONF_ERR_SIZE], *text, needle[128];
	size_t		 len, i;

	(void)state;
	text = read_shipped_example(&len);
	assert_int_equal(conf_init(&d, err, sizeof err), 0);
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	/* Start from values unlike the defaults, so the file must set them. */
	assert_int_equal(conf_set(&c, "server", "port", "1", err, sizeof err),
	    0);
	assert_int_equal(conf_set(&c, "server", "listen", "::", err,
	    sizeof err), 0);
	assert_int_equal(conf_set(&c, "storage", "synchronous", "normal", err,
	    sizeof err), 0);
	if (conf_load_buffer(&c, "corrchessd.conf", text, len, err,
	    sizeof err) != 0)
		fail_msg("%s", err);
	assert_int_equal(c.server.port, d.server.port);
	assert_string_equal(c.server.listen, d.server.listen);
	assert_string_equal(c.server.state_directory,
	    d.server.state_directory);
	assert_int_equal(c.server.max_body_size, d.server.max_body_size);
	assert_int_equal(c.storage.synchronous, d.storage.synchronous);
	for (i = 0; i < conf_table_size; i++) {
		snprintf(needle, sizeof needle, "\n%s =", conf_table[i].name);
		if (strstr(text, needle) == NULL)
			fail_msg("example lacks %s", conf_table[i].name);
	}
	conf_free(&c);
	conf_free(&d);
	free(text);
}

/* Every row is sane: a known section once grouped, limits in order. */
static void
test_table_rows(void **state)
{
	size_t	i, j;

	(void)state;
	for (i = 0; i < conf_table_size; i++) {
		const struct conf_key *k = &conf_table[i];

		assert_non_null(k->help);
		assert_true(strlen(k->help) > 10);
		if (k->type == CONF_INT || k->type == CONF_SIZE ||
		    k->type == CONF_DURATION || k->type == CONF_DECIMAL)
			assert_true(k->min <= k->max);
		if (k->type == CONF_CHOICE)
			assert_non_null(k->choices);
		assert_ptr_equal(conf_find(k->section, k->name), k);
		/* Keys of one section stay together. */
		for (j = i + 2; j < conf_table_size; j++) {
			if (strcmp(conf_table[j].section, k->section) == 0)
				assert_string_equal(conf_table[j - 1].section,
				    k->section);
		}
	}
}

/* Random and mutated texts never crash the parser. */
static void
test_robust(void **state)
{
	static const char *const pieces[] = {
		"[server]", "[log]", "[", "]", "=", "port", "listen", " ",
		"\n", "\r\n", "#", "64K", "99999999999999999999999", "-",
		"\xef\xbb\xbf", "\0", "\x01", "::", "yes", "level", "debug",
		"max_body_size", "1G", "s", "requests", "[storage]"
	};
	char		 text[512], err[CONF_ERR_SIZE];
	uint32_t	 seed = 12345;
	size_t		 len, n, i, pick;
	struct conf	 c;
	int		 round;

	(void)state;
	for (round = 0; round < 20000; round++) {
		len = 0;
		seed = seed * 1103515245 + 12345;
		n = (seed >> 16) % 24;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			pick = (seed >> 16) % (sizeof pieces / sizeof pieces[0]);
			if (pieces[pick][0] == '\0') {
				if (len < sizeof text)
					text[len++] = '\0';
				continue;
			}
			if (len + strlen(pieces[pick]) >= sizeof text)
				break;
			memcpy(text + len, pieces[pick], strlen(pieces[pick]));
			len += strlen(pieces[pick]);
		}
		assert_int_equal(conf_init(&c, err, sizeof err), 0);
		if (conf_load_buffer(&c, "r.conf", text, len, err,
		    sizeof err) != 0)
			assert_memory_equal(err, "r.conf:", 7);
		conf_free(&c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_load_every_key),
		cmocka_unit_test(test_load_crlf_bom),
		cmocka_unit_test(test_type_int),
		cmocka_unit_test(test_type_size),
		cmocka_unit_test(test_type_duration),
		cmocka_unit_test(test_type_decimal),
		cmocka_unit_test(test_type_bool),
		cmocka_unit_test(test_type_addr),
		cmocka_unit_test(test_type_path),
		cmocka_unit_test(test_type_choice),
		cmocka_unit_test(test_type_string),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_nul),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_example_matches_table),
		cmocka_unit_test(test_example_is_defaults),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_robust),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
