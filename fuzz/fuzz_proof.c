/*
 * fuzz/fuzz_proof.c: fuzz target: the proofs in a PGN's comments.
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
 * libFuzzer target: any bytes as a comment's text (sig_proof_parse(), as
 * `corrchess verify FILE` reads a PGN), and as a PGN whose comments are
 * kept. The parser must never crash or read out of bounds; a proof it
 * accepts, written back by sig_proof_format(), must read again to the
 * same parts.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/pgn.h"
#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check that two proofs hold the same parts. */
static void
same(const struct sig_proof *a, const struct sig_proof *b)
{
	if (a->has_date != b->has_date || a->has_record != b->has_record ||
	    a->has_statement != b->has_statement ||
	    a->siglen != b->siglen || a->has_hash != b->has_hash ||
	    a->nkeys != b->nkeys || a->has_server != b->has_server ||
	    a->has_creation != b->has_creation)
		abort();
	if (a->has_creation && (a->creation_len != b->creation_len ||
	    memcmp(a->creation, b->creation, a->creation_len) != 0))
		abort();
	if (a->has_statement && (a->st.canon_len != b->st.canon_len ||
	    memcmp(a->st.canon, b->st.canon, a->st.canon_len) != 0))
		abort();
	if (memcmp(a->sig, b->sig, a->siglen) != 0 ||
	    (a->has_hash && memcmp(a->hash, b->hash, sizeof a->hash) != 0))
		abort();
	if (a->has_record && (a->seq != b->seq || a->ply != b->ply ||
	    strcmp(a->kind, b->kind) != 0 || strcmp(a->door, b->door) != 0 ||
	    strcmp(a->fp, b->fp) != 0))
		abort();
}

/* Parse data as a comment, write it back, parse again; and as a PGN. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sig_proof	p, q;
	static char		text[SIG_PROOF_SIZE];
	struct sig_signature	sg;
	struct chess_pgn_reader	rd;
	struct chess_pgn_game	g;
	char			why[256];
	size_t			i;

	if (sig_init() != 0)
		abort();
	if (sig_proof_parse((const char *)data, size, &p, why,
	    sizeof why) == 0) {
		if (sig_proof_format(&p, text, sizeof text) == 0) {
			if (sig_proof_parse(text, strlen(text), &q, why,
			    sizeof why) != 0)
				abort();
			same(&p, &q);
		}
		(void)sig_proof_signature(&p, &sg, NULL);
	} else if (why[0] == '\0')
		abort();

	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&rd, (const char *)data, size);
	rd.keep_comments = 1;
	for (i = 0; i < 8 && chess_pgn_next(&rd, &g, why, sizeof why) != 0;
	    i++)
		if (g.ncomments > 0 && (g.comments[0].text == NULL ||
		    g.comments[g.ncomments - 1].ply > g.game.nply))
			abort();
	chess_pgn_game_free(&g);
	return 0;
}
