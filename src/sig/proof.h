/*
 * sig/proof.h: a record's proof in a PGN comment: written and read.
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
 * sig/proof.c); the conventions are sig/sig.h's, but a refusal's reason is
 * a sentence written to `why`.
 *
 * THE PROOF IN A PGN. Each record of a game's chain travels in a comment
 * of its own, after the move it played (or where it stands), as
 * %-commands whose arguments hold no blank, so that PGN tools that
 * re-wrap comments (pgn-extract) keep every byte that counts:
 *
 *	[%ccsnt 2026.12.01,23:55:01]		the record's date (UTC)
 *	[%ccrec SEQ KIND PLY DOOR FP]		record SEQ of the game, its
 *						kind ("move", "flag", ...),
 *						the ply it was made at, how
 *						it was signed: "signed" (by
 *						the player), "xfcc",
 *						"mail-token", "admin" (by
 *						the server), "none"; the
 *						signing key's fingerprint
 *						or "-"
 *	[%ccst GAME PLY PLAYER ACTION]		the statement's fields; the
 *						action %-encoded (%20 for a
 *						space)
 *	[%ccmsg PIECE PIECE ...]		the statement's message,
 *						when it has one: %-encoded
 *						byte by byte (UTF-8 too), in
 *						pieces of at most 64
 *						characters, joined on reading
 *	[%ccsig BASE64 BASE64 ...]		the signature bytes G of
 *						the chain (64 raw bytes, or
 *						the SSHSIG blob), in pieces
 *						of at most 64 characters
 *	[%cchash HEX]				the record's hash
 *
 * A game's creation record (sig/creation.h), the head of its chain, is a
 * comment of its own after the keys' comment: [%ccgame PIECE ...] (its
 * bytes %-encoded, LF as %0A, in pieces of at most 64 characters, joined
 * on reading), its [%ccsig] (the server's 64 bytes) and its [%cchash].
 *
 * The first comment of the game names the keys to check with:
 *
 *	[%cckey NAME BASE64]			a key of player NAME (each
 *						of their keys, revoked ones
 *						too)
 *	[%ccserver BASE64]			the server's key
 *
 * Other %-commands ([%clk ...]) and text around them are left alone; a
 * comment without any of these has no proof. The date and the fingerprint
 * are informative: the chain covers the statement and the signature.
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_PROOF_H
#define CORRCHESS_SIG_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIG_PROOF_KEYS_MAX	32	/* keys in one comment */
#define SIG_PROOF_SIZE		8192	/* a comment sig_proof_format()
					   writes, with its NUL */
#define SIG_PROOF_KIND_SIZE	24
#define SIG_PROOF_DOOR_SIZE	16
#define SIG_PROOF_DATE_SIZE	20	/* "YYYY.MM.DD,HH:MM:SS" */

struct sig_proof_key {
	char		name[SIG_PLAYER_MAX + 1];
	uint8_t		pk[SIG_PUBKEY_BYTES];
};

/* What one comment proves: any of its parts, each with its flag. */
struct sig_proof {
	bool			has_date;
	char			date[SIG_PROOF_DATE_SIZE];

	bool			has_record;
	int64_t			seq;
	char			kind[SIG_PROOF_KIND_SIZE];
	uint32_t		ply;
	char			door[SIG_PROOF_DOOR_SIZE];
	char			fp[SIG_FINGERPRINT_SIZE];	/* or "-" */

	bool			has_statement;
	struct sig_statement	st;	/* built: canon is the signed bytes,
					   with the message when it has one */
	bool			has_message;	/* [%ccmsg] read */
	char			message[SIG_MESSAGE_MAX + 1];

	size_t			siglen;	/* 0: no signature */
	uint8_t			sig[SIG_SSHSIG_MAX];

	bool			has_hash;
	uint8_t			hash[SIG_HASH_BYTES];

	bool			has_creation;	/* [%ccgame] read */
	size_t			creation_len;
	uint8_t			creation[SIG_CREATION_MAX];

	size_t			nkeys;
	struct sig_proof_key	keys[SIG_PROOF_KEYS_MAX];
	bool			has_server;
	uint8_t			server[SIG_PUBKEY_BYTES];
};

/*
 * Read the proof in a comment's text (`len` bytes, without the braces).
 * 0 (the parts found are flagged in `p`; none for an ordinary comment),
 * or -1 with the reason in `why` when a proof command is malformed.
 */
int sig_proof_parse(const char *text, size_t len, struct sig_proof *p,
    char *why, size_t whysize);

/*
 * Write the flagged parts of `p` as a comment's text (no braces),
 * NUL-terminated, one space between commands. 0, or -1 when a part
 * cannot be written (a field with a blank, no room).
 */
int sig_proof_format(const struct sig_proof *p, char *buf, size_t size);

/*
 * The signature of a proof as sig_signature_verify() takes it: raw when
 * its 64 bytes are, else the SSHSIG blob parsed (`text` left empty).
 */
int sig_proof_signature(const struct sig_proof *p, struct sig_signature *sg,
    enum sig_error *err);

#endif /* CORRCHESS_SIG_PROOF_H */
