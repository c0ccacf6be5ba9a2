/*
 * sig/agent.c: the ssh-agent protocol's messages, written and read.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "sig/sig.h"
#include "sig/wire.h"

/* Message types (draft-miller-ssh-agent, section 6.1). */
#define AGENT_FAILURE			5
#define AGENTC_REQUEST_IDENTITIES	11
#define AGENT_IDENTITIES_ANSWER		12
#define AGENTC_SIGN_REQUEST		13
#define AGENT_SIGN_RESPONSE		14
/* Failures of older agents, which OpenSSH's client still takes as such. */
#define AGENT_FAILURE_SSH2		30
#define AGENT_FAILURE_SSHCOM		102

/* True for the message types that mean "refused". */
static int
agent_is_failure(uint8_t type)
{
	return type == AGENT_FAILURE || type == AGENT_FAILURE_SSH2 ||
	    type == AGENT_FAILURE_SSHCOM;
}

/* Write the identities request. */
void
sig_agent_idreq(uint8_t buf[SIG_AGENT_IDREQ_BYTES])
{
	struct wire_wr w = { buf, SIG_AGENT_IDREQ_BYTES, 0, 0 };
	uint8_t type = AGENTC_REQUEST_IDENTITIES;

	wire_wr_u32(&w, 1);
	wire_wr_bytes(&w, &type, 1);
}

/* Write a sign request. */
int
sig_agent_signreq(const uint8_t pk[SIG_PUBKEY_BYTES], const uint8_t *data,
    size_t len, uint8_t *buf, size_t size, size_t *lenp, enum sig_error *err)
{
	struct wire_wr w = { buf, size, 0, 0 };
	uint8_t pb[PUBBLOB_LEN], type = AGENTC_SIGN_REQUEST;

	if (len > SIG_AGENT_MSG_MAX)
		return sig_fail(err, SIG_ESPACE);
	wire_pubblob(pk, pb);
	wire_wr_u32(&w, (uint32_t)(1 + 4 + sizeof pb + 4 + len + 4));
	wire_wr_bytes(&w, &type, 1);
	wire_wr_string(&w, pb, sizeof pb);
	wire_wr_string(&w, data, len);
	wire_wr_u32(&w, 0);		/* flags: none for Ed25519 */
	if (w.over)
		return sig_fail(err, SIG_ESPACE);
	*lenp = w.len;
	return sig_ok(err);
}

/* Read a message's length. */
int
sig_agent_msglen(const uint8_t hdr[4], size_t *lenp, enum sig_error *err)
{
	struct wire_rd r = { hdr, 4, 0 };
	uint32_t n;

	if (wire_rd_u32(&r, &n) != 0 || n == 0 || n > SIG_AGENT_MSG_MAX)
		return sig_fail(err, SIG_EAGENT);
	*lenp = n;
	return sig_ok(err);
}

/* Read the identities answer: is pk among the keys? */
int
sig_agent_idanswer(const uint8_t *msg, size_t len,
    const uint8_t pk[SIG_PUBKEY_BYTES], int *found, size_t *nkeys,
    enum sig_error *err)
{
	struct wire_rd r = { msg, len, 0 };
	const uint8_t *type, *blob, *comment;
	size_t bloblen, commentlen;
	uint8_t k[SIG_PUBKEY_BYTES];
	uint32_t n, i;
	int have = 0;

	*found = 0;
	*nkeys = 0;
	if (wire_rd_bytes(&r, &type, 1) != 0)
		return sig_fail(err, SIG_EAGENT);
	if (agent_is_failure(*type))
		return sig_fail(err, SIG_EAGENT_REFUSED);
	if (*type != AGENT_IDENTITIES_ANSWER || wire_rd_u32(&r, &n) != 0)
		return sig_fail(err, SIG_EAGENT);
	/* Each key takes 8 bytes at least: a count beyond that is a lie. */
	if (n > (len - r.off) / 8)
		return sig_fail(err, SIG_EAGENT);
	for (i = 0; i < n; i++) {
		if (wire_rd_string(&r, &blob, &bloblen) != 0 ||
		    wire_rd_string(&r, &comment, &commentlen) != 0)
			return sig_fail(err, SIG_EAGENT);
		if (wire_pubblob_parse(blob, bloblen, k, NULL) == 0 &&
		    memcmp(k, pk, SIG_PUBKEY_BYTES) == 0)
			have = 1;
	}
	if (r.off != r.len)
		return sig_fail(err, SIG_EAGENT);
	/* Told only of a whole answer. */
	*found = have;
	*nkeys = n;
	return sig_ok(err);
}

/* Read the sign answer: the raw Ed25519 signature. */
int
sig_agent_signanswer(const uint8_t *msg, size_t len,
    uint8_t sig[SIG_SIGNATURE_BYTES], enum sig_error *err)
{
	struct wire_rd r = { msg, len, 0 }, sr;
	const uint8_t *type, *blob, *name, *raw;
	size_t bloblen, namelen, rawlen;

	if (wire_rd_bytes(&r, &type, 1) != 0)
		return sig_fail(err, SIG_EAGENT);
	if (agent_is_failure(*type))
		return sig_fail(err, SIG_EAGENT_REFUSED);
	if (*type != AGENT_SIGN_RESPONSE ||
	    wire_rd_string(&r, &blob, &bloblen) != 0 || r.off != r.len)
		return sig_fail(err, SIG_EAGENT);
	sr = (struct wire_rd){ blob, bloblen, 0 };
	if (wire_rd_string(&sr, &name, &namelen) != 0)
		return sig_fail(err, SIG_EAGENT);
	if (!wire_str_is(name, namelen, SSH_ED25519))
		return sig_fail(err, SIG_EKEY_TYPE);
	if (wire_rd_string(&sr, &raw, &rawlen) != 0 || sr.off != sr.len ||
	    rawlen != SIG_SIGNATURE_BYTES)
		return sig_fail(err, SIG_EAGENT);
	memcpy(sig, raw, SIG_SIGNATURE_BYTES);
	return sig_ok(err);
}
