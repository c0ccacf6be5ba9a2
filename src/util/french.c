/*
 * util/french.c: French grammar for sentences that carry a name.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Elision before a name; see french.h. */

#include "config.h"

#include <stddef.h>
#include <string.h>

#include "util/french.h"

/* Tell whether a Latin-1 code point (U+00C0..U+00FF) is a vowel or y:
 * À..Æ, È..Ï, Ò..Ö, Ø..Ý and their small letters, and ÿ. */
static bool
latin1_vowel(unsigned int cp)
{
	if (cp >= 0xe0)
		cp -= 0x20;		/* small to capital; ÿ becomes ß */
	if (cp == 0xdf)
		return true;		/* ÿ */
	return (cp >= 0xc0 && cp <= 0xc6) || (cp >= 0xc8 && cp <= 0xcf) ||
	    (cp >= 0xd2 && cp <= 0xd6) || (cp >= 0xd8 && cp <= 0xdd);
}

/* Tell whether a word starts with a vowel, a y or an h. */
bool
french_elides(const char *word)
{
	const unsigned char	*u = (const unsigned char *)word;

	if (word == NULL || u[0] == '\0')
		return false;
	if (u[0] < 0x80)
		return strchr("aeiouyhAEIOUYH", u[0]) != NULL;
	/* Two-byte UTF-8 of U+00C0..U+00FF, and Œ œ (U+0152, U+0153). */
	if (u[0] == 0xc3 && (u[1] & 0xc0) == 0x80)
		return latin1_vowel(0xc0 + (u[1] & 0x3f));
	if (u[0] == 0xc5 && (u[1] == 0x92 || u[1] == 0x93))
		return true;
	return false;
}

/* "d'" before a word that elides, else "de ". */
const char *
french_de(const char *word)
{
	return french_elides(word) ? "d'" : "de ";
}
