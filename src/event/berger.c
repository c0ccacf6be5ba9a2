/*
 * event/berger.c: round-robin pairings by the FIDE Berger tables, matches.
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
 * The Berger tables (FIDE Handbook C.05, Annex 1) for an even number N of
 * players (an odd number gets the bye as number N) follow one rule. Write
 * the numbers 1 to N-1 in a row s[0..N-2]; round 1 has s = 1, 2, ..., N-1.
 * Board 1 pairs s[0] with N: s[0] has white in odd rounds, N in even ones.
 * Board k (2 <= k <= N/2) pairs s[k-1] (white) with s[N-k] (black). Each
 * round adds N/2 to every number of the row, modulo N-1 (in 1..N-1):
 *
 *	s_r[i] = (i + (r-1) N/2) mod (N-1) + 1
 *
 * For N = 6, round 2 has s = 4 5 1 2 3: 6-4, 5-3, 1-2, as in the table.
 * The tests compare this with the published tables for 3 to 16 players.
 */

#include "event/berger.h"

/* Describe an error for a person. */
const char *
berger_strerror(enum berger_error err)
{
	switch (err) {
	case BERGER_OK:
		return "no error";
	case BERGER_EFORMAT:
		return "unknown event format (round robin, double round robin or match)";
	case BERGER_EPLAYERS:
		return "a round robin needs 3 to 1000 players";
	case BERGER_EGAMES:
		return "a match needs 1 to 1000 games";
	case BERGER_EFLAGS:
		return "unknown schedule option, or one this format does not take";
	case BERGER_ESPACE:
		return "the schedule does not fit in the space given";
	}
	return "unknown schedule error";
}

/* Check an event; the table size (even) goes to *table when asked. */
static enum berger_error
berger_check(const struct berger_event *ev, unsigned *table)
{
	unsigned	allowed = 0;

	switch (ev->format) {
	case BERGER_DOUBLE_ROUND_ROBIN:
		allowed = BERGER_SWAP_LAST_TWO;
		/* FALLTHROUGH */
	case BERGER_ROUND_ROBIN:
		if (ev->players < BERGER_MIN_PLAYERS ||
		    ev->players > BERGER_MAX_PLAYERS)
			return BERGER_EPLAYERS;
		if (table != NULL)
			*table = ev->players + (ev->players & 1u);
		break;
	case BERGER_MATCH:
		if (ev->games < 1 || ev->games > BERGER_MAX_GAMES)
			return BERGER_EGAMES;
		if (table != NULL)
			*table = 2;
		break;
	default:
		return BERGER_EFORMAT;
	}
	if ((ev->flags & ~allowed) != 0)
		return BERGER_EFLAGS;
	return BERGER_OK;
}

/* Count the rounds of the event; 0 when the event is invalid. */
unsigned
berger_rounds(const struct berger_event *ev)
{
	unsigned	table;

	if (berger_check(ev, &table) != BERGER_OK)
		return 0;
	switch (ev->format) {
	case BERGER_ROUND_ROBIN:
		return table - 1;
	case BERGER_DOUBLE_ROUND_ROBIN:
		return 2 * (table - 1);
	default:
		return ev->games;
	}
}

/* Count the entries (games and byes) of the schedule; 0 when invalid. */
size_t
berger_count(const struct berger_event *ev)
{
	unsigned	table;

	if (berger_check(ev, &table) != BERGER_OK)
		return 0;
	return (size_t)berger_rounds(ev) * (table / 2);
}

/* Give the number at place i of round r's row (r from 1), table size t. */
static unsigned
berger_row(unsigned t, unsigned r, unsigned i)
{
	return (i + (r - 1) * (t / 2)) % (t - 1) + 1;
}

/*
 * Write round r of the table of size t (r in 1..t-1) as round `round` of
 * the schedule, colours reversed when asked, byes marked for `players`.
 */
static void
berger_round(unsigned t, unsigned players, unsigned r, unsigned round,
    bool reverse, struct berger_pairing *out)
{
	unsigned	k, w, b, tmp;

	for (k = 1; k <= t / 2; k++) {
		if (k == 1) {
			w = berger_row(t, r, 0);
			b = t;
			if (r % 2 == 0) {
				b = w;
				w = t;
			}
		} else {
			w = berger_row(t, r, k - 1);
			b = berger_row(t, r, t - k);
		}
		if (reverse) {
			tmp = w;
			w = b;
			b = tmp;
		}
		/* The number past the last player is the bye. */
		if (w > players) {
			w = b;
			b = BERGER_BYE;
		} else if (b > players)
			b = BERGER_BYE;
		out[k - 1].round = round;
		out[k - 1].board = k;
		out[k - 1].white = w;
		out[k - 1].black = b;
	}
}

/* Write the schedule of the event into the caller's array. */
enum berger_error
berger_schedule(const struct berger_event *ev, struct berger_pairing *out,
    size_t cap, size_t *n)
{
	enum berger_error	err;
	unsigned		t = 0, r, src, cycle = 0, half;
	size_t			need;

	*n = 0;
	if ((err = berger_check(ev, &t)) != BERGER_OK)
		return err;
	need = berger_count(ev);
	if (cap < need || out == NULL) {
		*n = need;
		return BERGER_ESPACE;
	}

	if (ev->format == BERGER_MATCH) {
		for (r = 1; r <= ev->games; r++) {
			out[r - 1].round = r;
			out[r - 1].board = 1;
			out[r - 1].white = r % 2 ? 1 : 2;
			out[r - 1].black = r % 2 ? 2 : 1;
		}
		*n = need;
		return BERGER_OK;
	}

	half = t / 2;
	for (r = 1; r <= berger_rounds(ev); r++) {
		cycle = (r - 1) / (t - 1);
		src = (r - 1) % (t - 1) + 1;
		/* The FIDE swap of the first cycle's last two rounds. */
		if (cycle == 0 && (ev->flags & BERGER_SWAP_LAST_TWO) && t > 2) {
			if (src == t - 2)
				src = t - 1;
			else if (src == t - 1)
				src = t - 2;
		}
		berger_round(t, ev->players, src, r, cycle == 1,
		    out + (size_t)(r - 1) * half);
	}
	*n = need;
	return BERGER_OK;
}

/* Write the pairings of a (double) round robin of `players`. */
enum berger_error
berger_pairings(unsigned players, bool double_rr, struct berger_pairing *out,
    size_t cap, size_t *n)
{
	struct berger_event	ev = {
		.format = double_rr ? BERGER_DOUBLE_ROUND_ROBIN :
		    BERGER_ROUND_ROBIN,
		.players = players,
	};

	return berger_schedule(&ev, out, cap, n);
}

/* Write the schedule of a match of `games` games. */
enum berger_error
berger_match(unsigned games, struct berger_pairing *out, size_t cap,
    size_t *n)
{
	struct berger_event	ev = {
		.format = BERGER_MATCH,
		.games = games,
	};

	return berger_schedule(&ev, out, cap, n);
}
