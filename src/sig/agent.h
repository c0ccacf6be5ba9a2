/*
 * sig/agent.h: the ssh-agent protocol's messages, written and read.
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
 * sig/agent.c); the conventions are sig/sig.h's. The two requests of the
 * agent protocol (draft-miller-ssh-agent) a signer needs, and their
 * answers, for Ed25519 keys only; no I/O here (the client's
 * client/cli_agent.c talks to the agent's socket).
 *
 * Every message on the socket is a uint32 length (big-endian) and that
 * many bytes, the first of which is the message type. The requests are
 * written whole, length included; the answers are read from the bytes
 * after the length ("the message"), which come from another process and
 * are checked as outside input: every length before it is read.
 *
 *	REQUEST_IDENTITIES (11)	-> IDENTITIES_ANSWER (12): uint32 nkeys,
 *				   nkeys times string(key blob)
 *				   string(comment)
 *	SIGN_REQUEST (13): string(key blob) string(data) uint32 flags
 *				-> SIGN_RESPONSE (14): string(signature),
 *				   for Ed25519 string("ssh-ed25519")
 *				   string(64 bytes): the raw Ed25519
 *				   signature of the data itself
 *	either			-> FAILURE (5): the agent refuses
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_AGENT_H
#define CORRCHESS_SIG_AGENT_H

#include <stddef.h>
#include <stdint.h>

/* Largest answer read, as OpenSSH's own client has it (256 KiB). */
#define SIG_AGENT_MSG_MAX	(256 * 1024)

/* Bytes of the identities request, length included. */
#define SIG_AGENT_IDREQ_BYTES	5

/* Bytes of a sign request for up to SIG_TBS_MAX bytes, length included. */
#define SIG_AGENT_SIGNREQ_MAX	(4 + 1 + 4 + 51 + 4 + SIG_TBS_MAX + 4)

/* Write the identities request. */
void sig_agent_idreq(uint8_t buf[SIG_AGENT_IDREQ_BYTES]);

/*
 * Write a sign request for `len` bytes of `data` with the Ed25519 key `pk`
 * into buf (SIG_AGENT_SIGNREQ_MAX is enough for len <= SIG_TBS_MAX) and
 * its length to *lenp. SIG_ESPACE if it does not fit.
 */
int sig_agent_signreq(const uint8_t pk[SIG_PUBKEY_BYTES], const uint8_t *data,
    size_t len, uint8_t *buf, size_t size, size_t *lenp, enum sig_error *err);

/*
 * Read a message's length from its first four bytes: 0, or -1 with
 * SIG_EAGENT when it is 0 or more than SIG_AGENT_MSG_MAX.
 */
int sig_agent_msglen(const uint8_t hdr[4], size_t *lenp, enum sig_error *err);

/*
 * Read an answer to the identities request: *found is 1 if `pk` is among
 * the agent's keys (Ed25519 ones; other types are counted and skipped),
 * *nkeys the number of keys it holds. SIG_EAGENT_REFUSED for FAILURE,
 * SIG_EAGENT for anything malformed.
 */
int sig_agent_idanswer(const uint8_t *msg, size_t len,
    const uint8_t pk[SIG_PUBKEY_BYTES], int *found, size_t *nkeys,
    enum sig_error *err);

/*
 * Read an answer to a sign request: the raw Ed25519 signature into sig.
 * SIG_EAGENT_REFUSED for FAILURE, SIG_EKEY_TYPE for a signature of another
 * type, SIG_EAGENT for anything malformed. The signature is not verified
 * here (sig_verify() over the data that was sent).
 */
int sig_agent_signanswer(const uint8_t *msg, size_t len,
    uint8_t sig[SIG_SIGNATURE_BYTES], enum sig_error *err);

#endif /* CORRCHESS_SIG_AGENT_H */
