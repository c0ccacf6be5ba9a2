/*
 * fuzz/fuzz_creation.c: fuzz target: a game's creation record.
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
 * libFuzzer target: any bytes as a creation record (sig_creation_parse(),
 * as `corrchess verify` reads one from a PGN's [%ccgame] or a records
 * JSON). The parser must never crash or read out of bounds; a record it
 * accepts must be written back by sig_creation_build() to the same bytes,
 * and a refusal must say why.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Parse, build again, compare. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sig_creation	c, d;
	char				why[256];

	why[0] = '\0';
	if (sig_creation_parse(data, size, &c, why, sizeof why) != 0) {
		if (why[0] == '\0')
			abort();
		return 0;
	}
	if (c.canon_len != size || memcmp(c.canon, data, size) != 0)
		abort();
	d = c;
	if (sig_creation_build(&d, why, sizeof why) != 0 ||
	    d.canon_len != size || memcmp(d.canon, data, size) != 0)
		abort();
	return 0;
}
