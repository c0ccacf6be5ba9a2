/*
 * fuzz/fuzz_address.c: fuzz target: e-mail addresses and free text.
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
 * libFuzzer target: any bytes as a player's e-mail address (GMime's
 * address parser behind mail_address_check()) and as a free-text field
 * (text_check()). Neither may crash; an address accepted is plain text,
 * one '@' outside nothing, with no list, group or name characters left.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "letters/address.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check an address and a text made of the input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s, why[128];
	int	 rc;

	if (size > 4096)
		return 0;
	if ((s = malloc(size + 1)) == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	if (text_fault_name(text_check(s)) == NULL)
		abort();
	why[0] = '\0';
	rc = mail_address_check(s, why, sizeof why);
	if (rc != 0 && why[0] == '\0')
		abort();
	if (rc == 0 && (text_check(s) != TEXT_OK ||
	    strchr(s, '@') == NULL || strpbrk(s, " ,;<>()\"\\") != NULL))
		abort();
	free(s);
	return 0;
}
