/*
 * fuzz/fuzz_conditional.c: fuzz target: the lines of conditional moves.
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
 * libFuzzer target: any text as the lines of a conditional (the value
 * after "conditional " in a statement), checked by game_cond_check()
 * against a game after 1. e4, in English and in French. A tree it accepts
 * must write out (game_cond_format()) and read back (game_cond_read()) to
 * the same lines, be checked again from its SAN, and answer every prefix
 * of its own lines without reading out of bounds. A refusal's reason must
 * fit its buffer.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/conditional.h"
#include "game/game.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Stop with a message: libFuzzer records the input as a crash. */
static void
fuzz_fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz_conditional: %s\n  input: %s\n", what, text);
	abort();
}

/* Check one tree both ways and ask it for the answer to each prefix. */
static void
check_tree(const struct game *g, const char *text, enum chess_lang lang)
{
	static struct game_cond	c, back, again;
	static char		out[4 * 1024 * 16];
	char			why[384];
	size_t			i, k;

	memset(why, 'x', sizeof why);
	if (game_cond_check(g, CHESS_WHITE, text, lang, &c, why,
	    sizeof why) != 0) {
		if (memchr(why, '\0', sizeof why) == NULL)
			fuzz_fail("reason not terminated", text);
		return;
	}
	if (game_cond_format(&c, out, sizeof out) >= sizeof out)
		fuzz_fail("written lines cut", text);
	if (game_cond_read(&back, out) != 0 ||
	    memcmp(&back, &c, sizeof c) != 0)
		fuzz_fail("written lines do not read back", text);
	if (game_cond_check(g, CHESS_WHITE, out, CHESS_LANG_EN, &again, why,
	    sizeof why) != 0 || memcmp(&again, &c, sizeof c) != 0)
		fuzz_fail("the SAN lines do not check again", text);
	for (i = 0; i < c.nlines; i++)
		for (k = 1; k <= c.len[i]; k += 2)
			if (game_cond_reply(&c, (const char (*)[CHESS_SAN_MAX])
			    c.san[i], k) == NULL && k < c.len[i])
				fuzz_fail("a line does not answer itself",
				    text);
}

/* Check data as conditional lines. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct game	g;
	static bool		ready;
	struct game_params	p;
	struct game_action	a;
	char			why[256], *text;

	if (!ready) {
		chess_init();
		memset(&p, 0, sizeof p);
		chess_position_start(&p.start);
		if (game_init(&g, &p) != 0)
			abort();
		memset(&a, 0, sizeof a);
		a.kind = GAME_ACT_MOVE;
		a.color = CHESS_WHITE;
		a.move = "e4";
		if (game_apply(&g, &a, why, sizeof why) != GAME_OK)
			abort();
		ready = true;
	}
	if (size > 2048 || (text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (strlen(text) == size) {
		check_tree(&g, text, CHESS_LANG_EN);
		check_tree(&g, text, CHESS_LANG_FR);
	}
	free(text);
	return 0;
}
