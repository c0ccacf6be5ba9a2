/*
 * fuzz/fuzz_sshsig.c: fuzz target: OpenSSH signature blocks.
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
 * libFuzzer target: any bytes as an armored OpenSSH signature, as a binary
 * SSHSIG blob, and as a public key line. The parsers must never crash or
 * read out of bounds; what they accept must be consistent.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check a parsed SSHSIG's offsets and verify it over the input. */
static void
check(const struct sig_sshsig *ss, const uint8_t *data, size_t size)
{
	enum sig_error err;
	int r;

	if (ss->blob_len < 6 || ss->blob_len > SIG_SSHSIG_MAX ||
	    memcmp(ss->blob, "SSHSIG", 6) != 0 ||
	    ss->ns_off + ss->ns_len > ss->blob_len ||
	    ss->reserved_off + ss->reserved_len > ss->blob_len ||
	    (ss->hash != SIG_SSHSIG_SHA512 && ss->hash != SIG_SSHSIG_SHA256))
		abort();
	r = sig_sshsig_verify(ss, data, size, SIG_NAMESPACE, &err);
	if (r != 0 && err != SIG_ENAMESPACE && err != SIG_EBADSIG)
		abort();
}

/* Parse data as an SSHSIG (armored and binary) and as a public key. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sig_sshsig ss;
	enum sig_error err;
	uint8_t pk[SIG_PUBKEY_BYTES];
	size_t used;
	char *text;

	if (sig_init() != 0)
		abort();
	if (sig_sshsig_parse_armor((const char *)data, size, &ss, &used,
	    &err) == 0) {
		if (used > size)
			abort();
		check(&ss, data, size);
	} else if (err == SIG_OK)
		abort();
	if (sig_sshsig_parse(data, size, &ss, &err) == 0) {
		if (ss.blob_len != size || memcmp(ss.blob, data, size) != 0)
			abort();
		check(&ss, data, size);
	} else if (err == SIG_OK)
		abort();

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sig_pubkey_parse(text, pk, &err) != 0 && err == SIG_OK)
		abort();
	free(text);
	return 0;
}
