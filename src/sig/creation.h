/*
 * sig/creation.h: a game's creation record: what the game is, its bytes.
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
 * Part of sig/sig.h, which includes this header (implemented in
 * sig/creation.c); the conventions are sig/sig.h's, but a refusal's reason
 * is a sentence written to `why`.
 *
 * THE CREATION RECORD. The server writes it in the transaction that
 * creates a game, signs it with its own key (raw Ed25519) and makes it the
 * head of the game's chain: its hash is sig_record_hash() of 32 zero bytes,
 * these bytes and the 64 signature bytes, and the game's first action
 * chains to it. Lines in this order, each ending with LF, the last too:
 *
 *	corrchess-game-v1\n
 *	game: 42\n
 *	white: alice\n
 *	black: bob\n
 *	variant: standard\n			standard | chess960
 *	start: FEN\n				the start position
 *	time-control: 3d/move\n			as the game's JSON gives it
 *	draw-policy: auto\n			auto | claim
 *	draw-min-move: 0\n			the draw rules (0: none)
 *	draw-offer-every: 0\n
 *	rated: no\n				yes | no
 *	auth: signed\n				signed | signed-or-attested
 *	event: Club championship\n		only when the game has one
 *	round: 3\n				only when the game has one
 *
 * The first line differs from a statement's ("corrchess-v1"), so no
 * statement the server signs can pass for a creation record, nor one for
 * a statement. The parser accepts only these exact bytes: it reads the
 * fields, writes them again and compares.
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_CREATION_H
#define CORRCHESS_SIG_CREATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIG_CREATION_MAGIC	"corrchess-game-v1"
#define SIG_CREATION_MAX	1024	/* bytes of a creation record */
#define SIG_CREATION_FEN_MAX	127	/* bytes of the start FEN */
#define SIG_CREATION_TC_MAX	31	/* bytes of the time control */
#define SIG_CREATION_TAG_MAX	127	/* bytes of the event, the round */

/* The fields of a creation record, and its bytes once built or read. */
struct sig_creation {
	uint64_t	game;
	char		white[SIG_PLAYER_MAX + 1];
	char		black[SIG_PLAYER_MAX + 1];
	char		variant[16];
	char		start[SIG_CREATION_FEN_MAX + 1];
	char		time_control[SIG_CREATION_TC_MAX + 1];
	char		policy[8];
	uint32_t	draw_min_move;
	uint32_t	draw_offer_every;
	bool		rated;
	char		auth[24];
	char		event[SIG_CREATION_TAG_MAX + 1];	/* "": none */
	char		round[SIG_CREATION_TAG_MAX + 1];	/* "": none */

	uint8_t		canon[SIG_CREATION_MAX];
	size_t		canon_len;
};

/*
 * Check the fields of `c` and write its bytes into c->canon. 0, or -1
 * with the field at fault in `why`.
 */
int sig_creation_build(struct sig_creation *c, char *why, size_t whysize);

/*
 * Read a creation record from `len` bytes: the fields into `c`, the bytes
 * into c->canon. 0, or -1 with the reason in `why` when they are not a
 * creation record's exact bytes.
 */
int sig_creation_parse(const uint8_t *bytes, size_t len,
    struct sig_creation *c, char *why, size_t whysize);

#endif /* CORRCHESS_SIG_CREATION_H */
