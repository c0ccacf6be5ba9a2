/*
 * fuzz/fuzz_agent.c: fuzz target: ssh-agent's answers.
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
 * libFuzzer target: any bytes as what the client reads from the agent's
 * socket (sig/agent.h): the length before a message, an identities answer
 * and a sign answer. The readers must never crash or read out of bounds;
 * what they accept must be consistent with the bytes: a key found is in
 * them, a count no larger than they can hold, a signature copied from
 * them.
 */

#define _GNU_SOURCE	/* memmem */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The key looked for: alice's of tests/data/sig/alice.pub, which the
 * seeds' identities answers hold. */
static const uint8_t alice[SIG_PUBKEY_BYTES] = {
	0x55, 0x03, 0x2e, 0xc2, 0xbe, 0xe8, 0x73, 0x70, 0x22, 0x22, 0x72, 0x4e,
	0x99, 0x6c, 0x3c, 0x04, 0xb8, 0xf3, 0x74, 0x42, 0xb7, 0xfb, 0xf5, 0x16,
	0x94, 0x45, 0x4d, 0xe7, 0x60, 0xfa, 0x23, 0xae
};

/* Read data as each of the agent's answers. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t sig[SIG_SIGNATURE_BYTES];
	enum sig_error err;
	size_t n, nkeys;
	int found;

	if (size >= 4 && sig_agent_msglen(data, &n, &err) == 0 &&
	    (n == 0 || n > SIG_AGENT_MSG_MAX))
		abort();

	if (sig_agent_idanswer(data, size, alice, &found, &nkeys, &err) == 0) {
		if (nkeys > size / 8 || (found && (nkeys == 0 ||
		    memmem(data, size, alice, sizeof alice) == NULL)))
			abort();
	} else if (found || err == SIG_OK)
		abort();

	if (sig_agent_signanswer(data, size, sig, &err) == 0) {
		if (memmem(data, size, sig, sizeof sig) == NULL)
			abort();
	} else if (err == SIG_OK)
		abort();
	return 0;
}
