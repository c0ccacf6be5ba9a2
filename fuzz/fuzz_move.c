/*
 * fuzz/fuzz_move.c: fuzz target: move notation.
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
 * libFuzzer target: chess_move_parse() on any text, against fixed
 * positions (standard and Chess960, castling, en passant, promotion, many
 * ambiguities) in English and in French. A move that parses must be legal,
 * and its SAN (English and the input's language), UCI and ICCF forms must
 * parse back to the same move. A rejected move's reason must fit its buffer.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *fuzz_fens[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"R6R/3k4/8/1N3N2/8/8/8/K6R w - - 0 1",
	"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
	"2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - - 0 1",
	/* Chess960 */
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
	"2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1",
	"4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff - 0 1",
};

#define FUZZ_NPOS	(sizeof fuzz_fens / sizeof fuzz_fens[0])

static struct chess_position fuzz_pos[FUZZ_NPOS];

/* Stop with a message: libFuzzer records the input as a crash. */
static void
fuzz_fail(const char *what, const struct chess_position *pos,
    const char *text, const char *form)
{
	char	fen[CHESS_FEN_MAX];

	chess_fen_write(pos, fen, sizeof fen);
	fprintf(stderr, "fuzz_move: %s\n  position: %s\n  input: %s\n"
	    "  form: %s\n", what, fen, text, form);
	abort();
}

/* Parse the fixed positions once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t	i;

	(void)argc;
	(void)argv;
	chess_init();
	for (i = 0; i < FUZZ_NPOS; i++) {
		if (chess_fen_parse(&fuzz_pos[i], fuzz_fens[i],
		    i >= 7 ? CHESS_FEN_960 : 0) != CHESS_OK) {
			fprintf(stderr, "fuzz_move: bad fixed FEN %s\n",
			    fuzz_fens[i]);
			abort();
		}
	}
	return 0;
}

/* Check that `form` (a rendering of m) parses back to m. */
static void
fuzz_back(const struct chess_position *pos, const char *text,
    const char *form, enum chess_lang lang, chess_move m)
{
	chess_move	back = CHESS_MOVE_NONE;
	char		why[256];

	if (chess_move_parse(pos, form, lang, &back, why, sizeof why) !=
	    CHESS_OK)
		fuzz_fail("a written form of the move does not parse", pos,
		    text, form);
	if (back != m)
		fuzz_fail("a written form parses to another move", pos, text,
		    form);
}

/* Parse one text in one position and language. */
static void
fuzz_move_one(const struct chess_position *pos, const char *text,
    enum chess_lang lang)
{
	chess_move		m = CHESS_MOVE_NONE, moves[CHESS_MAX_MOVES];
	char			why[64], form[CHESS_SAN_MAX + 8];
	size_t			len;
	enum chess_error	err;
	int			n, i, found;

	/* A short reason buffer: the reason must be cut, not overflow. */
	memset(why, 'x', sizeof why);
	err = chess_move_parse(pos, text, lang, &m, why, 16);
	if (err != CHESS_OK) {
		if (memchr(why, '\0', 16) == NULL)
			fuzz_fail("reason not terminated in its buffer", pos,
			    text, "");
		if (why[16] != 'x')
			fuzz_fail("reason written past its buffer", pos, text,
			    "");
		return;
	}

	if (!chess_move_is_legal(pos, m))
		fuzz_fail("parsed move is not legal", pos, text, "");
	n = chess_legal_moves(pos, moves);
	for (i = 0, found = 0; i < n; i++)
		found |= moves[i] == m;
	if (!found)
		fuzz_fail("parsed move is not generated", pos, text, "");

	len = chess_move_san(pos, m, CHESS_LANG_EN, form, sizeof form);
	if (len == 0 || len >= CHESS_SAN_MAX)
		fuzz_fail("SAN length", pos, text, form);
	fuzz_back(pos, text, form, CHESS_LANG_EN, m);
	chess_move_san(pos, m, lang, form, sizeof form);
	fuzz_back(pos, text, form, lang, m);
	chess_move_uci(pos, m, form, sizeof form);
	fuzz_back(pos, text, form, lang, m);
	/* ICCF writes castling as the king's move, which in Chess960 can be
	 * the same digits as a plain king move. */
	if (!(pos->chess960 && CHESS_MOVE_KIND(m) == CHESS_MOVE_CASTLE)) {
		chess_move_iccf(pos, m, form, sizeof form);
		fuzz_back(pos, text, form, lang, m);
	}
}

/* Parse the input as a move in every fixed position, in both languages. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*text;
	size_t	 i;

	if (size > 256)
		return 0;
	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (i = 0; i < FUZZ_NPOS; i++) {
		fuzz_move_one(&fuzz_pos[i], text, CHESS_LANG_EN);
		fuzz_move_one(&fuzz_pos[i], text, CHESS_LANG_FR);
	}
	free(text);
	return 0;
}
