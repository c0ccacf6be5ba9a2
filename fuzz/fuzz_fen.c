/*
 * fuzz/fuzz_fen.c: fuzz target: FEN.
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
 * libFuzzer target: chess_fen_parse() on any text. A FEN that parses must
 * describe a consistent position, write back to a FEN that parses to the
 * same FEN and key, and its legal moves must keep the position consistent.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Stop with a message: libFuzzer records the input as a crash. */
static void
fuzz_fail(const char *what, const char *in, const char *fen)
{
	fprintf(stderr, "fuzz_fen: %s\n  input: %s\n  written: %s\n", what, in,
	    fen);
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

/* Check the round trip of one FEN under one set of flags. */
static void
fuzz_fen_one(const char *in, unsigned flags)
{
	struct chess_position	pos, again, child;
	chess_move		moves[CHESS_MAX_MOVES];
	char			fen[CHESS_FEN_MAX], fen2[CHESS_FEN_MAX];
	const char		*bad;
	size_t			len;
	int			n, i;

	if (chess_fen_parse(&pos, in, flags) != CHESS_OK)
		return;
	if ((bad = chess_position_invalid(&pos)) != NULL)
		fuzz_fail(bad, in, "");
	if (pos.key != chess_position_key(&pos))
		fuzz_fail("key differs from a fresh computation", in, "");

	len = chess_fen_write(&pos, fen, sizeof fen);
	if (len >= sizeof fen || strlen(fen) != len)
		fuzz_fail("written FEN length", in, fen);
	if (chess_fen_parse(&again, fen, pos.chess960 ? CHESS_FEN_960 : 0) !=
	    CHESS_OK)
		fuzz_fail("written FEN does not parse", in, fen);
	chess_fen_write(&again, fen2, sizeof fen2);
	if (strcmp(fen, fen2) != 0)
		fuzz_fail("FEN changes on a second round trip", fen, fen2);
	if (again.key != pos.key)
		fuzz_fail("key changes on a round trip", in, fen);

	/* The generator must cope with whatever the parser accepts. */
	n = chess_legal_moves(&pos, moves);
	if (n < 0 || n > CHESS_MAX_MOVES || n != chess_legal_count(&pos))
		fuzz_fail("legal move count", in, fen);
	for (i = 0; i < n; i++) {
		if (!chess_move_is_legal(&pos, moves[i]))
			fuzz_fail("generated move not legal", in, fen);
		child = pos;
		chess_position_make(&child, moves[i]);
		if ((bad = chess_position_invalid(&child)) != NULL)
			fuzz_fail(bad, in, fen);
	}
}

/* Parse the input as a FEN, as standard chess and as Chess960. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*in;

	if (size > 4096)
		return 0;
	if ((in = malloc(size + 1)) == NULL)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';
	fuzz_fen_one(in, 0);
	fuzz_fen_one(in, CHESS_FEN_960);
	free(in);
	return 0;
}
