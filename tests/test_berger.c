/*
 * tests/test_berger.c: tests of the Berger pairings and match schedules.
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
 * Every round robin of 3 to 16 players against the FIDE tables stored in
 * data/berger (transcribed from the published text, not computed by the
 * code under test), byes included; the double round robin, with and
 * without the FIDE swap of the first cycle's last two rounds; that every
 * pair meets once (twice) and nobody plays twice a round, also for larger
 * tables; colour balance; matches; errors and the caller's buffer size.
 */

#include "testutil.h"

#include <stdbool.h>

#include "event/berger.h"

#define TABLE_MAX	16	/* the largest published table */

/* A published table: pairs[round-1][board-1] = { white, black }. */
struct table {
	unsigned	size;		/* even number of the table */
	unsigned	rounds;
	unsigned	pairs[TABLE_MAX - 1][TABLE_MAX / 2][2];
};

/* Read data/berger/table-NN.txt into *t; fails the test on bad data. */
static void
table_read(unsigned size, struct table *t)
{
	char		 name[64], *buf, *cur, *line, *p, *end;
	size_t		 len;
	unsigned long	 round, w, b;
	unsigned	 board;

	memset(t, 0, sizeof *t);
	t->size = size;
	snprintf(name, sizeof name, "berger/table-%02u.txt", size);
	buf = test_read_data(name, &len);
	cur = buf;
	while ((line = test_next_line(&cur)) != NULL) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		round = strtoul(line, &end, 10);
		assert_true(end != line && *end == ':');
		assert_int_equal(round, t->rounds + 1);
		assert_true(round <= size - 1);
		p = end + 1;
		for (board = 0; *p != '\0'; board++) {
			assert_true(board < size / 2);
			w = strtoul(p, &end, 10);
			assert_true(end != p && *end == '-');
			p = end + 1;
			b = strtoul(p, &end, 10);
			assert_true(end != p);
			assert_true(w >= 1 && w <= size && b >= 1 && b <= size);
			t->pairs[round - 1][board][0] = (unsigned)w;
			t->pairs[round - 1][board][1] = (unsigned)b;
			p = end;
			while (*p == ' ')
				p++;
		}
		assert_int_equal(board, size / 2);
		t->rounds++;
	}
	assert_int_equal(t->rounds, size - 1);
	free(buf);
}

/* Check one schedule entry against the table's pair (w, b) for `players`. */
static void
check_entry(const struct berger_pairing *p, unsigned round, unsigned board,
    unsigned w, unsigned b, unsigned players)
{
	assert_int_equal(p->round, round);
	assert_int_equal(p->board, board);
	if (w > players) {
		/* The table's extra number is the bye: b sits out. */
		assert_int_equal(p->white, b);
		assert_int_equal(p->black, BERGER_BYE);
	} else if (b > players) {
		assert_int_equal(p->white, w);
		assert_int_equal(p->black, BERGER_BYE);
	} else {
		assert_int_equal(p->white, w);
		assert_int_equal(p->black, b);
	}
}

/* Every single round robin of 3 to 16 players is the published table. */
static void
test_single_tables(void **state)
{
	struct berger_pairing	out[TABLE_MAX / 2 * (TABLE_MAX - 1)];
	struct table		t;
	unsigned		players, r, k;
	size_t			n;

	(void)state;
	for (players = 3; players <= TABLE_MAX; players++) {
		table_read(players + (players & 1), &t);
		assert_int_equal(berger_pairings(players, false, out,
		    sizeof out / sizeof out[0], &n), BERGER_OK);
		assert_int_equal(n, (size_t)t.rounds * (t.size / 2));
		for (r = 0; r < t.rounds; r++)
			for (k = 0; k < t.size / 2; k++)
				check_entry(&out[r * (t.size / 2) + k], r + 1,
				    k + 1, t.pairs[r][k][0], t.pairs[r][k][1],
				    players);
	}
}

/* Check a double round robin of `players` against the table. */
static void
check_double(unsigned players, bool swap)
{
	struct berger_pairing	out[TABLE_MAX * (TABLE_MAX - 1)];
	struct berger_event	ev = {
		.format = BERGER_DOUBLE_ROUND_ROBIN,
		.players = players,
		.flags = swap ? BERGER_SWAP_LAST_TWO : 0,
	};
	struct table		t;
	unsigned		r, k, src, half;
	size_t			n;

	table_read(players + (players & 1), &t);
	half = t.size / 2;
	assert_int_equal(berger_schedule(&ev, out, sizeof out / sizeof out[0],
	    &n), BERGER_OK);
	assert_int_equal(n, 2 * (size_t)t.rounds * half);
	assert_int_equal(berger_rounds(&ev), 2 * t.rounds);
	for (r = 0; r < t.rounds; r++) {
		/* First cycle: the table, its last two rounds swapped. */
		src = r;
		if (swap && r == t.rounds - 2)
			src = t.rounds - 1;
		else if (swap && r == t.rounds - 1)
			src = t.rounds - 2;
		for (k = 0; k < half; k++)
			check_entry(&out[r * half + k], r + 1, k + 1,
			    t.pairs[src][k][0], t.pairs[src][k][1], players);
		/* Second cycle: the table in order, colours reversed. */
		for (k = 0; k < half; k++)
			check_entry(&out[(t.rounds + r) * half + k],
			    t.rounds + r + 1, k + 1, t.pairs[r][k][1],
			    t.pairs[r][k][0], players);
	}
}

/* Double round robins repeat the table with colours reversed. */
static void
test_double_tables(void **state)
{
	unsigned	players;

	(void)state;
	for (players = 3; players <= TABLE_MAX; players++) {
		check_double(players, false);
		check_double(players, true);
	}
}

/* Find the longest run of one colour of any player (byes skipped). */
static unsigned
longest_colour_run(const struct berger_pairing *out, size_t n,
    unsigned players)
{
	unsigned	p, run, worst = 0;
	int		last, c;
	size_t		i;

	for (p = 1; p <= players; p++) {
		last = 0;
		run = 0;
		for (i = 0; i < n; i++) {
			if (out[i].black == BERGER_BYE)
				continue;
			if (out[i].white == p)
				c = 1;
			else if (out[i].black == p)
				c = -1;
			else
				continue;
			run = c == last ? run + 1 : 1;
			last = c;
			if (run > worst)
				worst = run;
		}
	}
	return worst;
}

/* The FIDE swap avoids three games running with one colour. */
static void
test_swap_avoids_three(void **state)
{
	struct berger_pairing	out[TABLE_MAX * (TABLE_MAX - 1)];
	struct berger_event	ev = { .format = BERGER_DOUBLE_ROUND_ROBIN };
	size_t			n;

	(void)state;
	for (ev.players = 4; ev.players <= TABLE_MAX; ev.players += 2) {
		ev.flags = 0;
		assert_int_equal(berger_schedule(&ev, out,
		    sizeof out / sizeof out[0], &n), BERGER_OK);
		assert_int_equal(longest_colour_run(out, n, ev.players), 3);
		ev.flags = BERGER_SWAP_LAST_TWO;
		assert_int_equal(berger_schedule(&ev, out,
		    sizeof out / sizeof out[0], &n), BERGER_OK);
		assert_int_equal(longest_colour_run(out, n, ev.players), 2);
	}
}

/*
 * Larger tables than the published ones: every pair meets exactly once a
 * cycle, once with each colour in a double round robin, everyone plays
 * (or sits out) once a round, and whites and blacks differ by at most one.
 */
static void
test_properties(void **state)
{
	static struct berger_pairing	out[100 * 99];
	static unsigned char		met[101][101];
	unsigned			seen[101], whites[101], blacks[101];
	unsigned			players, r, byes, w, b;
	size_t				n, i, per;

	(void)state;
	for (players = 3; players <= 100; players++) {
		memset(met, 0, sizeof met);
		memset(whites, 0, sizeof whites);
		memset(blacks, 0, sizeof blacks);
		assert_int_equal(berger_pairings(players, true, out,
		    sizeof out / sizeof out[0], &n), BERGER_OK);
		per = (players + 1) / 2;
		assert_int_equal(n % per, 0);
		for (r = 0; r < n / per; r++) {
			memset(seen, 0, sizeof seen);
			byes = 0;
			for (i = r * per; i < (r + 1) * per; i++) {
				w = out[i].white;
				b = out[i].black;
				assert_int_equal(out[i].round, r + 1);
				assert_true(w >= 1 && w <= players);
				assert_int_equal(seen[w]++, 0);
				if (b == BERGER_BYE) {
					byes++;
					continue;
				}
				assert_true(b >= 1 && b <= players);
				assert_int_equal(seen[b]++, 0);
				met[w][b]++;
				if (r < n / per / 2) {
					whites[w]++;
					blacks[b]++;
				}
			}
			assert_int_equal(byes, players & 1);
		}
		for (w = 1; w <= players; w++) {
			assert_true(whites[w] <= blacks[w] + 1 &&
			    blacks[w] <= whites[w] + 1);
			for (b = 1; b <= players; b++)
				if (w != b)
					assert_int_equal(met[w][b], 1);
		}
	}
}

/* Matches alternate colours, 1 white first. */
static void
test_match(void **state)
{
	struct berger_pairing	out[BERGER_MAX_GAMES];
	size_t			n, i;

	(void)state;
	assert_int_equal(berger_match(1, out, 1, &n), BERGER_OK);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].white, 1);
	assert_int_equal(out[0].black, 2);
	assert_int_equal(berger_match(BERGER_MAX_GAMES, out,
	    sizeof out / sizeof out[0], &n), BERGER_OK);
	assert_int_equal(n, BERGER_MAX_GAMES);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].round, i + 1);
		assert_int_equal(out[i].board, 1);
		assert_int_equal(out[i].white, i % 2 == 0 ? 1 : 2);
		assert_int_equal(out[i].black, i % 2 == 0 ? 2 : 1);
	}
}

/* Bad events are refused with a reason; a small array gets the size. */
static void
test_errors(void **state)
{
	struct berger_pairing	out[8];
	struct berger_event	ev;
	size_t			n = 99;
	int			e;

	(void)state;
	assert_int_equal(berger_pairings(2, false, out, 8, &n),
	    BERGER_EPLAYERS);
	assert_int_equal(n, 0);
	assert_int_equal(berger_pairings(0, true, out, 8, &n),
	    BERGER_EPLAYERS);
	assert_int_equal(berger_pairings(BERGER_MAX_PLAYERS + 1, false, out, 8,
	    &n), BERGER_EPLAYERS);
	assert_int_equal(berger_match(0, out, 8, &n), BERGER_EGAMES);
	assert_int_equal(berger_match(BERGER_MAX_GAMES + 1, out, 8, &n),
	    BERGER_EGAMES);

	memset(&ev, 0, sizeof ev);
	ev.players = 4;
	assert_int_equal(berger_schedule(&ev, out, 8, &n), BERGER_EFORMAT);
	ev.format = (enum berger_format)99;
	assert_int_equal(berger_schedule(&ev, out, 8, &n), BERGER_EFORMAT);
	assert_int_equal(berger_count(&ev), 0);
	assert_int_equal(berger_rounds(&ev), 0);

	/* The swap belongs to double round robins only. */
	ev.format = BERGER_ROUND_ROBIN;
	ev.flags = BERGER_SWAP_LAST_TWO;
	assert_int_equal(berger_schedule(&ev, out, 8, &n), BERGER_EFLAGS);
	ev.format = BERGER_DOUBLE_ROUND_ROBIN;
	ev.flags = 0x80;
	assert_int_equal(berger_schedule(&ev, out, 8, &n), BERGER_EFLAGS);

	/* 5 players: 5 rounds of 3 entries (one a bye); 10 entries doubled. */
	assert_int_equal(berger_pairings(5, false, out, 8, &n), BERGER_ESPACE);
	assert_int_equal(n, 15);
	assert_int_equal(berger_pairings(5, true, NULL, 0, &n), BERGER_ESPACE);
	assert_int_equal(n, 30);
	ev.format = BERGER_ROUND_ROBIN;
	ev.players = 1000;
	ev.flags = 0;
	assert_int_equal(berger_rounds(&ev), 999);
	assert_int_equal(berger_count(&ev), 999 * 500);

	for (e = BERGER_OK; e <= BERGER_ESPACE; e++)
		assert_true(strlen(berger_strerror((enum berger_error)e)) > 0);
	assert_string_equal(berger_strerror((enum berger_error)77),
	    "unknown schedule error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_tables),
		cmocka_unit_test(test_double_tables),
		cmocka_unit_test(test_swap_avoids_three),
		cmocka_unit_test(test_properties),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
