/*
 * client/verify.h: a game's record checked: chain, signatures and moves.
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
 * What `corrchess verify` checks, offline, as doc/signatures.md says, from
 * a game's records (its JSON export, GET /api/v1/games/ID/records) or its
 * PGN (the proofs in its comments, sig/proof.h):
 *  - the creation record, when the game has one (sig/creation.h): the
 *    server's signature, its hash, the head of the chain; the players, their
 *    colours, the start position and the signed tags of a PGN compared
 *    with it; without one (an older game) a line says the colours are
 *    unsigned;
 *  - the chain: each record's hash recomputed from the one before, its
 *    statement and its signature bytes, and compared with the hash given;
 *  - each signature: a player's against that player's keys as the export
 *    lists them; an attested or admin record against the server's key;
 *  - each statement is for this game;
 *  - from a PGN, the moves: every move of the movetext has its record,
 *    whose statement names that move at that ply (in English or French
 *    letters, any notation; for a conditional move, one of its lines'
 *    moves).
 * Each record gets a line: its ply, who signed it with which key, OK; the
 * first that fails gets FAIL and why, and the check stops there.
 */

#ifndef CORRCHESS_CLIENT_VERIFY_H
#define CORRCHESS_CLIENT_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "chess/pgn.h"
#include "sig/sig.h"

/* A record as an export gives it. */
struct verify_record {
	int64_t			seq;
	uint32_t		ply;
	char			kind[SIG_PROOF_KIND_SIZE];
	char			door[SIG_PROOF_DOOR_SIZE];	/* "signed",
					   "xfcc", "mail-token", "admin",
					   "none" */
	bool			has_statement;
	struct sig_statement	st;
	struct sig_signature	sg;
	bool			has_hash;
	uint8_t			hash[SIG_HASH_BYTES];
	bool			has_prev;
	uint8_t			prev[SIG_HASH_BYTES];
	char			san[16];	/* the export's, or "" */
	char			date[32];	/* the export's, or "" */
};

/* A game's record and the keys to check it with. */
struct verify_game {
	uint64_t		 id;
	struct sig_proof_key	*keys;		/* players' keys */
	size_t			 nkeys, keycap;
	bool			 has_server;
	uint8_t			 server[SIG_PUBKEY_BYTES];
	/* The game's creation record, the head of its chain (none in a game
	 * created before corrchess 0.2.0). */
	bool			 has_creation;
	struct sig_creation	 creation;
	uint8_t			 creation_sig[SIG_SIGNATURE_BYTES];
	bool			 has_creation_hash;
	uint8_t			 creation_hash[SIG_HASH_BYTES];
	struct verify_record	*recs;
	size_t			 nrecs, reccap;
	const struct chess_pgn_game *pg;	/* the PGN's moves, or NULL */
};

/* Fill `vg` from a records export ({"records": [...], "keys": [...],
 * "server_key": ...}); 0, or -1 with why. */
int verify_from_json(const json_t *obj, uint64_t id, struct verify_game *vg,
    char *why, size_t whysize);

/* Fill `vg` from a PGN game read with its comments (borrowed: it must
 * outlive `vg`); 0, or -1 with why. */
int verify_from_pgn(const struct chess_pgn_game *pg, struct verify_game *vg,
    char *why, size_t whysize);

/* Check the game, printing a line per record and the summary to `out`;
 * 0 when every record holds, -1 at the first that does not. */
int verify_run(const struct verify_game *vg, FILE *out);

/*
 * Check the game against the server's key `pk` that the verifier was
 * given (--server-key) rather than the one the export names: 0 when the
 * export names none or the same one (vg's is then `pk`), else -1 with
 * the two fingerprints in `why`.
 */
int verify_server_pin(struct verify_game *vg,
    const uint8_t pk[SIG_PUBKEY_BYTES], char *why, size_t whysize);

/* Release what `vg` holds; a zeroed struct is fine. */
void verify_game_free(struct verify_game *vg);

#endif /* CORRCHESS_CLIENT_VERIFY_H */
