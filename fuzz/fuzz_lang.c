/*
 * fuzz/fuzz_lang.c: fuzz target: Accept-Language headers.
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
 * libFuzzer target: web_lang() on any header text (the web pages read it
 * from every browser). It must return English or French, never read past
 * the text, and give the reader's explicit choice precedence.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/lang.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Read one header. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*s;
	enum chess_lang	 l;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	l = web_lang(NULL, s);
	if (l != CHESS_LANG_EN && l != CHESS_LANG_FR)
		abort();
	if (web_lang("en", s) != CHESS_LANG_EN ||
	    web_lang("fr", s) != CHESS_LANG_FR)
		abort();
	free(s);
	return 0;
}
