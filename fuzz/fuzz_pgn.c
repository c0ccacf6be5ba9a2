/*
 * fuzz/fuzz_pgn.c: fuzz target: PGN import.
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
 * libFuzzer target: chess_pgn_next() over any text. Reading must always
 * move forward and end; every game read must export with chess_pgn_write()
 * and read back as one game with the same start position and moves.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"
#include "chess/pgn.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Stop with a message: libFuzzer records the input as a crash. */
static void
fuzz_fail(const char *what, const char *pgn)
{
	fprintf(stderr, "fuzz_pgn: %s\n", what);
	if (pgn != NULL)
		fprintf(stderr, "--- exported PGN ---\n%s\n---\n", pgn);
	abort();
}

/* Build the tables once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	chess_init();
	return 0;
}

/* Export a game and check that it reads back the same. */
static void
fuzz_pgn_roundtrip(const struct chess_pgn_game *g)
{
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 back;
	char			*pgn;
	char			 err[256];
	size_t			 len, i;

	memset(&back, 0, sizeof back);
	if ((pgn = chess_pgn_write(g, &len)) == NULL)
		fuzz_fail("chess_pgn_write failed", NULL);
	if (strlen(pgn) != len)
		fuzz_fail("chess_pgn_write length", pgn);

	chess_pgn_reader_init(&rd, pgn, len);
	if (chess_pgn_next(&rd, &back, err, sizeof err) != 1) {
		fprintf(stderr, "fuzz_pgn: re-read error: %s\n", err);
		fuzz_fail("exported game does not read back", pgn);
	}
	if (back.game.start.key != g->game.start.key)
		fuzz_fail("exported game starts elsewhere", pgn);
	if (back.game.nply != g->game.nply)
		fuzz_fail("exported game has another ply count", pgn);
	for (i = 0; i < g->game.nply; i++) {
		if (back.game.moves[i] != g->game.moves[i])
			fuzz_fail("exported game has other moves", pgn);
	}
	if (strcmp(back.result, g->result) != 0)
		fuzz_fail("exported game has another result", pgn);
	if (chess_pgn_next(&rd, &back, err, sizeof err) != 0)
		fuzz_fail("exported game reads as more than one game", pgn);

	chess_pgn_game_free(&back);
	free(pgn);
}

/* Read every game of the input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 g;
	char			 err[256];
	size_t			 before;
	int			 r;

	if (size > 65536)
		return 0;
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&rd, (const char *)data, size);
	for (;;) {
		before = rd.off;
		memset(err, 'x', sizeof err);
		r = chess_pgn_next(&rd, &g, err, sizeof err);
		if (r == 0)
			break;
		if (r < 0) {
			if (memchr(err, '\0', sizeof err) == NULL)
				fuzz_fail("error text not terminated", NULL);
		} else
			fuzz_pgn_roundtrip(&g);
		if (rd.off <= before)
			fuzz_fail("reader did not move forward", NULL);
		if (rd.off > size)
			fuzz_fail("reader went past the end", NULL);
	}
	chess_pgn_game_free(&g);
	return 0;
}
