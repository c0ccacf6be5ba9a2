/*
 * client/cmd_bench.c: corrchess bench-replay: the rules core's replay speed.
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
 * `corrchess bench-replay`: the rules core's replay speed, measured the way
 * bench/replay measures chessops, so the two can be compared in one run:
 *
 *  (i)  full PGN replay: tokenise, parse every SAN, make every move;
 *  (ii) SAN parse + make alone, from SAN lists extracted beforehand.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "client/cli.h"
#include "client/cmd_bench.h"

enum {
	OPT_SECONDS = 1,
};

/* Take bench-replay's option --seconds S into the double at ctx. */
static int
bench_option(const struct cli_cmd *cmd, int id, const char *arg, void *ctx)
{
	double	*seconds = ctx;
	char	*end;

	if (id != OPT_SECONDS)
		return CLI_EXIT_USAGE;
	*seconds = strtod(arg, &end);
	if (*end != '\0' || !(*seconds >= 0 && *seconds <= 3600))
		return cli_usage(cmd, "bad --seconds '%s'", arg);
	return CLI_EXIT_OK;
}

/* One game's start and its moves as SAN, for the timed SAN runs. */
struct bench_game {
	struct chess_position	start;
	size_t			first;	/* index of its first SAN */
	size_t			nply;
};

/* Everything the timed runs read. */
struct bench_set {
	char			**bufs;		/* PGN texts, one per file */
	size_t			 *lens;
	int			  nfiles;
	struct bench_game	 *games;
	size_t			  ngames, gamecap;
	char			(*sans)[CHESS_SAN_MAX];
	size_t			  nsans, sancap;
	unsigned long		  nerrors;
};

/* Seconds on the monotonic clock. */
static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Release a bench set. */
static void
bench_set_free(struct bench_set *set)
{
	int	i;

	for (i = 0; i < set->nfiles; i++)
		free(set->bufs[i]);
	free(set->bufs);
	free(set->lens);
	free(set->games);
	free(set->sans);
	memset(set, 0, sizeof *set);
}

/* Record the start and the SAN of every move of a replayed game. */
static int
bench_set_add(struct bench_set *set, const struct chess_game *game)
{
	struct chess_position	 pos;
	struct bench_game	*bg, *ng;
	char			(*ns)[CHESS_SAN_MAX];
	size_t			 i, cap;

	if (set->ngames == set->gamecap) {
		cap = set->gamecap == 0 ? 1024 : set->gamecap * 2;
		if ((ng = realloc(set->games, cap * sizeof *ng)) == NULL)
			return -1;
		set->games = ng;
		set->gamecap = cap;
	}
	while (set->nsans + game->nply > set->sancap) {
		cap = set->sancap == 0 ? 65536 : set->sancap * 2;
		if ((ns = realloc(set->sans, cap * sizeof *ns)) == NULL)
			return -1;
		set->sans = ns;
		set->sancap = cap;
	}

	bg = &set->games[set->ngames++];
	bg->start = game->start;
	bg->first = set->nsans;
	bg->nply = game->nply;
	pos = game->start;
	for (i = 0; i < game->nply; i++) {
		chess_move_san(&pos, game->moves[i], CHESS_LANG_EN,
		    set->sans[set->nsans++], CHESS_SAN_MAX);
		chess_position_make(&pos, game->moves[i]);
	}
	return 0;
}

/* Replay every file once; count the plies of the good games. */
static uint64_t
bench_replay_pass(const struct bench_set *set, struct chess_pgn_game *g)
{
	struct chess_pgn_reader	rd;
	uint64_t		plies = 0;
	int			i, r;

	for (i = 0; i < set->nfiles; i++) {
		chess_pgn_reader_init(&rd, set->bufs[i], set->lens[i]);
		while ((r = chess_pgn_next(&rd, g, NULL, 0)) != 0) {
			if (r > 0)
				plies += g->game.nply;
		}
	}
	return plies;
}

/* Parse and make every extracted SAN once; -1 if one fails to parse. */
static int64_t
bench_san_pass(const struct bench_set *set)
{
	struct chess_position	 pos;
	const struct bench_game	*bg;
	chess_move		 m;
	int64_t			 moves = 0;
	size_t			 i, j;

	for (i = 0; i < set->ngames; i++) {
		bg = &set->games[i];
		pos = bg->start;
		for (j = 0; j < bg->nply; j++) {
			if (chess_move_parse(&pos, set->sans[bg->first + j],
			    CHESS_LANG_EN, &m, NULL, 0) != CHESS_OK)
				return -1;
			chess_position_make(&pos, m);
		}
		moves += (int64_t)bg->nply;
	}
	return moves;
}

/* Time PGN replay and SAN parse+make over the games of PGN files. */
int
cmd_bench_replay(const struct cli_cmd *cmd, int argc, char **argv)
{
	static const struct cli_option	 options[] = {
		{ "seconds", 0, 1, OPT_SECONDS },
		{ NULL, 0, 0, 0 }
	};
	struct bench_set		 set;
	struct chess_pgn_reader		 rd;
	struct chess_pgn_game		 g;
	double				 seconds = 1.0, t0, t;
	uint64_t			 plies, total;
	int64_t				 moves, mtotal;
	unsigned long			 passes;
	int				 ind, i, r, rc;

	memset(&set, 0, sizeof set);
	memset(&g, 0, sizeof g);
	if ((rc = cli_options(cmd, argc, argv, options, bench_option,
	    &seconds, &ind)) != CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	rc = CLI_EXIT_FAIL;
	if (ind >= argc)
		return cli_usage(cmd, "missing FILE");

	set.nfiles = argc - ind;
	set.bufs = calloc((size_t)set.nfiles, sizeof *set.bufs);
	set.lens = calloc((size_t)set.nfiles, sizeof *set.lens);
	if (set.bufs == NULL || set.lens == NULL)
		goto nomem;
	for (i = 0; i < set.nfiles; i++) {
		if (cli_read_file(argv[ind + i], &set.bufs[i],
		    &set.lens[i]) != 0) {
			cli_error(cmd, "%s: %s", argv[ind + i],
			    strerror(errno));
			goto out;
		}
	}

	/* Untimed pass: extract the SAN lists, count games and errors. */
	for (i = 0; i < set.nfiles; i++) {
		chess_pgn_reader_init(&rd, set.bufs[i], set.lens[i]);
		while ((r = chess_pgn_next(&rd, &g, NULL, 0)) != 0) {
			if (r < 0)
				set.nerrors++;
			else if (bench_set_add(&set, &g.game) != 0)
				goto nomem;
		}
	}
	printf("games: %zu\n", set.ngames);
	printf("errors: %lu\n", set.nerrors);
	printf("plies: %zu\n", set.nsans);

	/* (i) Full PGN replay, repeated for at least `seconds`. */
	total = 0;
	passes = 0;
	t0 = bench_now();
	do {
		/* Every pass must replay every ply the first one saw. */
		if ((plies = bench_replay_pass(&set, &g)) != set.nsans) {
			cli_error(cmd, "a replay pass read %" PRIu64 " plies, "
			    "not %zu", plies, set.nsans);
			goto out;
		}
		total += plies;
		passes++;
		t = bench_now() - t0;
	} while (t < seconds);
	printf("replay_passes: %lu\n", passes);
	printf("replay_seconds: %.3f\n", t);
	printf("replay_plies_per_s: %.0f\n", t > 0 ? (double)total / t : 0);

	/* (ii) SAN parse + make from the extracted lists. */
	mtotal = 0;
	passes = 0;
	t0 = bench_now();
	do {
		if ((moves = bench_san_pass(&set)) < 0) {
			cli_error(cmd, "an extracted SAN did not parse back");
			goto out;
		}
		mtotal += moves;
		passes++;
		t = bench_now() - t0;
	} while (t < seconds);
	printf("san_passes: %lu\n", passes);
	printf("san_seconds: %.3f\n", t);
	printf("san_moves_per_s: %.0f\n", t > 0 ? (double)mtotal / t : 0);
	rc = CLI_EXIT_OK;
	goto out;

nomem:
	cli_error(cmd, "out of memory");
out:
	chess_pgn_game_free(&g);
	bench_set_free(&set);
	return rc;
}
