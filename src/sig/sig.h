/*
 * sig/sig.h: signed actions (libsodium only): the module's one include.
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
 * Signed actions: player keys, statements, raw Ed25519 signatures, OpenSSH
 * SSHSIG signatures and the hash chain of a game's record. Callers include
 * this header; it includes the other parts of the module, one header per
 * file:
 *
 *	sig/sig.h	 sig/sig.c	 sizes, errors, raw Ed25519, a
 *					 statement's signature verified,
 *					 the record chain
 *	sig/key.h	 sig/key.c	 public and secret keys, key files
 *	sig/sshsig.h	 sig/sshsig.c	 OpenSSH SSHSIG blocks
 *	sig/statement.h	 sig/statement.c the statement: parse, build, sign
 *	sig/proof.h	 sig/proof.c	 a record's proof in a PGN comment
 *	sig/creation.h	 sig/creation.c	 a game's creation record
 *	sig/agent.h	 sig/agent.c	 ssh-agent's messages (no I/O)
 *	(sig/wire.h	 sig/wire.c	 encodings the files share; internal)
 *
 * Conventions (libsodium's): the caller owns every buffer; fixed sizes are
 * given by the SIG_*_BYTES / SIG_*_MAX macros; functions return 0 on success
 * and -1 on failure, and write the reason to `*err` when `err` is not NULL
 * (sig_strerror() turns it into a sentence for a person). Nothing here keeps
 * state: every function may be called from several threads at once, after
 * one call of sig_init().
 *
 * THE SIGNATURE, in one of two forms, after the statement (see
 * sig/statement.h for the statement itself):
 *  1. a line "signature: BASE64": a raw Ed25519 signature (64 bytes, standard
 *     base64 with padding, 88 characters) over the canonical bytes;
 *  2. an OpenSSH signature block "-----BEGIN SSH SIGNATURE-----" ...
 *     "-----END SSH SIGNATURE-----" (OpenSSH's PROTOCOL.sshsig) made with
 *     namespace "corrchess" over the canonical bytes, Ed25519 keys only,
 *     hash "sha512" or "sha256" (sig/sshsig.h).
 *
 * THE RECORD CHAIN
 *
 * Each accepted action is kept with a record hash chaining it to the one
 * before (the previous record hash of the same game):
 *
 *	record_hash = BLAKE2b-256(prev_hash || be64(len(S)) || S
 *	                                    || be64(len(G)) || G)
 *
 * BLAKE2b with a 32-byte output, no key; be64 is an unsigned 64-bit length
 * in big-endian byte order; S is the canonical statement bytes (with the
 * final LF); G is the binary signature: the 64 raw Ed25519 bytes for the
 * first form, or the whole decoded SSHSIG blob (from "SSHSIG" to the end,
 * i.e. the base64 between the armor lines, decoded) for the second. The
 * first record's prev_hash is 32 zero bytes (SIG_HASH_BYTES); every
 * statement carries its game id, so the chain is bound to its game without
 * a game-specific genesis. A game created since corrchess 0.2.0 starts
 * with its creation record (sig/creation.h), S its bytes and G the
 * server's 64 signature bytes; its first action chains to that.
 */

#ifndef CORRCHESS_SIG_H
#define CORRCHESS_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

#define SIG_PUBKEY_BYTES	32	/* Ed25519 public key */
#define SIG_SECKEY_BYTES	64	/* libsodium secret key: seed || pk */
#define SIG_SEED_BYTES		32	/* Ed25519 seed (RFC 8032 secret key) */
#define SIG_SIGNATURE_BYTES	64	/* Ed25519 signature */
#define SIG_HASH_BYTES		32	/* record hash */

#define SIG_NAMESPACE		"corrchess"	/* SSHSIG namespace */

/* Buffer size with the NUL: "signature: " + 88 + "\n" + NUL. */
#define SIG_RAWSIG_LINE_SIZE	101

enum sig_error {
	SIG_OK = 0,
	/* finding and reading a statement */
	SIG_ENOHEADER,		/* no "corrchess-v1" line */
	SIG_EVERSION,		/* "corrchess-vN" with N != 1 */
	SIG_ESYNTAX,		/* a line that is not "field: value" */
	SIG_EFIELD_UNKNOWN,	/* unknown field name */
	SIG_EFIELD_DUP,		/* field given twice */
	SIG_EFIELD_ORDER,	/* fields not in canonical order */
	SIG_EFIELD_MISSING,	/* statement ends before all four fields */
	SIG_EGAME,		/* game is not a decimal 1..SIG_GAME_MAX */
	SIG_EPLY,		/* ply is not a decimal 0..SIG_PLY_MAX */
	SIG_EPLAYER,		/* player name not [a-z0-9_.-]{1,32} */
	SIG_EACTION,		/* unknown action word */
	SIG_EACTION_ARGS,	/* action with missing or extra words */
	SIG_EMOVE,		/* move text empty, too long or not printable */
	SIG_EDATE,		/* leave dates malformed, impossible or reversed */
	SIG_ETOOLONG,		/* statement longer than SIG_STATEMENT_MAX */
	SIG_ELINES,		/* conditional lines malformed */
	SIG_ELINE_ENDS,		/* the statement and its signature mix
				   LF, CRLF and CR line ends */
	SIG_ERESULT,		/* adjudicate: not 1-0, 0-1 or 1/2-1/2 */
	SIG_EREASON,		/* admin reason empty, padded or with
				   control characters */
	/* the signature */
	SIG_ENOSIG,		/* no signature after the statement */
	SIG_EBASE64,		/* invalid base64 */
	SIG_ESIGLEN,		/* raw signature not 64 bytes */
	SIG_ESIGFORM,		/* raw signature not 88 characters, padded */
	SIG_ESIG_TWICE,		/* a second signature after the first */
	SIG_EARMOR,		/* SSH SIGNATURE block without its END line */
	SIG_ESSHSIG,		/* SSHSIG blob malformed or truncated */
	SIG_ESSHSIG_VERSION,	/* SSHSIG version not 1 */
	SIG_ESSHSIG_HASH,	/* hash algorithm not sha512 or sha256 */
	SIG_ENAMESPACE,		/* SSHSIG namespace not "corrchess" */
	SIG_EBADSIG,		/* signature does not verify */
	SIG_EKEY_MISMATCH,	/* SSHSIG made by a key not given */
	/* keys */
	SIG_EKEY_TYPE,		/* not an Ed25519 key */
	SIG_EKEY_LEN,		/* key of the wrong length */
	SIG_EKEY_FORMAT,	/* key text or file malformed */
	SIG_EKEY_ENCRYPTED,	/* private key protected by a passphrase */
	SIG_EKEY_CORRUPT,	/* private key inconsistent (check words, pk) */
	/* everything else */
	SIG_ESPACE,		/* caller's buffer too small */
	SIG_EIO,		/* file error; errno tells which */
	SIG_EEXIST,		/* key file exists already */
	SIG_ECRYPTO,		/* libsodium failed (not initialised?) */
	/* a statement's fields together */
	SIG_EPLAYER_GAME,	/* game 0 with a game's action, or a player's
				   own action with a game number */
	/* ssh-agent */
	SIG_EAGENT,		/* the agent's answer is malformed */
	SIG_EAGENT_REFUSED,	/* the agent answered FAILURE */
	/* the message to the opponent */
	SIG_EMESSAGE_ACTION,	/* a message with an action that takes none */
	SIG_EMESSAGE_LONG,	/* longer than SIG_MESSAGE_MAX bytes */
	SIG_EMESSAGE_UTF8,	/* not valid UTF-8 */
	SIG_EMESSAGE_CONTROL,	/* a control or bidirectional character */
	SIG_EMESSAGE_EMPTY,	/* empty, or a space at either end */
};

/* The two forms of a statement's signature. */
enum sig_form {
	SIG_FORM_NONE = 0,
	SIG_FORM_RAW,		/* "signature: BASE64" */
	SIG_FORM_SSHSIG,	/* -----BEGIN SSH SIGNATURE----- */
};

/* The other parts of the module; they need the definitions above. */
#include "sig/key.h"
#include "sig/sshsig.h"
#include "sig/statement.h"
#include "sig/creation.h"
#include "sig/proof.h"
#include "sig/agent.h"

/* Return a constant sentence describing an error, for a person. */
const char *sig_strerror(enum sig_error);

/*
 * The same sentence in a player's language: French for every fault of a
 * statement or a signature a player may send; the key-file faults of the
 * client stay in English.
 */
const char *sig_strerror_lang(enum sig_error, enum chess_lang);

/* Initialise libsodium. Call once at start-up, before any other function;
 * thread-safe and idempotent. Returns 0, or -1 if libsodium cannot start. */
int sig_init(void);

/* --- raw Ed25519 --------------------------------------------------- */

/* Sign `len` bytes of `msg` (detached signature). */
int sig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], uint8_t sig[SIG_SIGNATURE_BYTES]);

/* Verify a detached signature: 0 if valid, -1 if not. */
int sig_verify(const uint8_t *msg, size_t len,
    const uint8_t sig[SIG_SIGNATURE_BYTES], const uint8_t pk[SIG_PUBKEY_BYTES])
    __attribute__((warn_unused_result));

/* Write "signature: BASE64\n" for a raw signature, NUL-terminated. */
int sig_rawsig_format(const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf,
    size_t size);

/* --- a statement's signature --------------------------------------- */

/*
 * A signature found after a statement (sig_statement_parse()). `text` is
 * the signature written back from what was parsed, NUL-terminated, LF line
 * ends: "signature: BASE64\n" (88 characters, padded), or the armored
 * SSHSIG blob in lines of 70. It is what a server keeps: the bytes it
 * stores are the bytes it verified, however the sender laid them out.
 */
struct sig_signature {
	enum sig_form		form;
	uint8_t			raw[SIG_SIGNATURE_BYTES]; /* SIG_FORM_RAW */
	struct sig_sshsig	ssh;			/* SIG_FORM_SSHSIG */
	char			text[SIG_SSHSIG_ARMOR_SIZE];
	size_t			text_len;
};

/*
 * Verify `sg` over st's canonical bytes against a player's keys; on success
 * write the index of the key that signed to *which (if not NULL). A raw
 * signature is tried against each key. An SSHSIG must have namespace
 * "corrchess" (SIG_ENAMESPACE), and its embedded key must be one of `keys`
 * (SIG_EKEY_MISMATCH) before its signature is checked (SIG_EBADSIG).
 */
int sig_signature_verify(const struct sig_statement *st,
    const struct sig_signature *sg, const uint8_t (*keys)[SIG_PUBKEY_BYTES],
    size_t nkeys, size_t *which, enum sig_error *err)
    __attribute__((warn_unused_result));

/* The binary signature bytes that enter the record chain (see above):
 * a pointer into `sg` (valid as long as it is) and its length. */
const uint8_t *sig_signature_bytes(const struct sig_signature *sg,
    size_t *lenp);

/* --- the record chain ---------------------------------------------- */

/* Write the record hash of a statement and its signature bytes after the
 * record `prev` (32 zero bytes for a game's first record). */
void sig_record_hash(const uint8_t prev[SIG_HASH_BYTES], const uint8_t *stmt,
    size_t stmt_len, const uint8_t *sig, size_t sig_len,
    uint8_t out[SIG_HASH_BYTES]);

#endif /* CORRCHESS_SIG_H */
