/*
 * fuzz/fuzz_etag.c: fuzz target: If-None-Match headers.
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
 * libFuzzer target: http_etag_matches() on any header text (every client
 * of a game's answers may send one). It must never read past the text, and
 * a header that names the tag, strong or weak, after what was fuzzed must
 * match it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Read one header. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char	 tag[] = "\"0123456789abcdef0123456789abcdef\"";
	char			*s;

	if ((s = malloc(size + sizeof tag + 4)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)http_etag_matches(s, tag);
	/* Cut at the first NUL, then name the tag after a comma. */
	snprintf(s + strlen(s), sizeof tag + 4, ", W/%s", tag);
	if (!http_etag_matches(s, tag))
		abort();
	free(s);
	return 0;
}
