/*
 * event/berger.h: pairings of round robins (FIDE Berger tables) and matches.
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
 * Players are known here only by their start numbers, 1 to n, drawn by the
 * event; the caller maps them to people. The whole schedule is computed at
 * once into a caller's array: berger_count() says how many entries it needs.
 * No allocation, no global state; every function is safe on any thread.
 */

#ifndef CORRCHESS_EVENT_BERGER_H
#define CORRCHESS_EVENT_BERGER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The shape of an event's schedule. The values are stable (they may be
 * stored). A knockout, paired round by round from results, will take the
 * next value and a function of its own; these three are known in advance.
 */
enum berger_format {
	BERGER_ROUND_ROBIN = 1,		/* everyone meets everyone once */
	BERGER_DOUBLE_ROUND_ROBIN = 2,	/* twice, colours reversed */
	BERGER_MATCH = 3,		/* two players, N games */
};

/* Bounds of what berger_schedule() accepts. */
#define BERGER_MIN_PLAYERS	3	/* two players play a match */
#define BERGER_MAX_PLAYERS	1000
#define BERGER_MAX_GAMES	1000	/* games of a match */

/* The black "player" of a bye: the white player sits the round out. */
#define BERGER_BYE		0u

/*
 * Flags of a schedule.
 * BERGER_SWAP_LAST_TWO: in a double round robin, play the last two rounds
 * of the first cycle in reverse order (the FIDE recommendation, so that
 * nobody has the same colour three times running at the turn); the second
 * cycle keeps the table order.
 */
#define BERGER_SWAP_LAST_TWO	0x1u

/* What to schedule. */
struct berger_event {
	enum berger_format	format;
	unsigned		players;	/* round robins: 3 to 1000 */
	unsigned		games;		/* matches: 1 to 1000 */
	unsigned		flags;		/* BERGER_SWAP_LAST_TWO */
};

/*
 * One game of the schedule (or one bye). Rounds count from 1 through both
 * cycles of a double round robin; boards count from 1 within a round, in
 * the order of the FIDE table. white and black are start numbers; for a
 * bye (odd number of players: the extra number n+1 of the table), white is
 * the player who sits out and black is BERGER_BYE.
 */
struct berger_pairing {
	unsigned	round;
	unsigned	board;
	unsigned	white;
	unsigned	black;
};

/* Errors of this module; berger_strerror() describes each. */
enum berger_error {
	BERGER_OK = 0,
	BERGER_EFORMAT,		/* unknown format */
	BERGER_EPLAYERS,	/* number of players out of bounds */
	BERGER_EGAMES,		/* number of games of a match out of bounds */
	BERGER_EFLAGS,		/* unknown flag, or a flag the format ignores */
	BERGER_ESPACE,		/* the caller's array is too small */
};

/* Describe an error for a person (a constant string). */
const char	*berger_strerror(enum berger_error);

/* Count the rounds of the event; 0 when the event is invalid. */
unsigned	 berger_rounds(const struct berger_event *);

/* Count the entries (games and byes) of the schedule; 0 when invalid. */
size_t		 berger_count(const struct berger_event *);

/*
 * Write the schedule of the event into out[0..cap-1], in round order, each
 * round in board order, and set *n to the number of entries written. On
 * BERGER_ESPACE nothing is written and *n is the number needed. On other
 * errors *n is 0.
 */
enum berger_error berger_schedule(const struct berger_event *,
		    struct berger_pairing *out, size_t cap, size_t *n);

/* Write the pairings of a (double) round robin of `players`, as above. */
enum berger_error berger_pairings(unsigned players, bool double_rr,
		    struct berger_pairing *out, size_t cap, size_t *n);

/*
 * Write the schedule of a match of `games` games between start numbers 1
 * and 2: one game a round, 1 white in odd rounds, 2 white in even ones.
 */
enum berger_error berger_match(unsigned games, struct berger_pairing *out,
		    size_t cap, size_t *n);

#endif /* CORRCHESS_EVENT_BERGER_H */
