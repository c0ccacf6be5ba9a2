/*
 * util/text.c: free text from outside checked for what cannot be shown.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "util/text.h"

/* Decode one UTF-8 character at s (shortest form, no surrogates): its
 * length, or 0 when the bytes are not one. */
static size_t
utf8_next(const unsigned char *s, uint32_t *cp)
{
	size_t	 n, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
	    c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Tell whether bytes are valid UTF-8. */
bool
text_utf8_valid(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, n;
	uint32_t		 c;

	while (i < len) {
		n = p[i] < 0x80 ? 1 : p[i] < 0xe0 ? 2 : p[i] < 0xf0 ? 3 : 4;
		if (n > len - i || utf8_next(p + i, &c) != n)
			return false;
		i += n;
	}
	return true;
}

/* Check a text for invalid UTF-8, controls and bidirectional controls. */
enum text_fault
text_check(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 c;
	size_t			 n;

	while (*p != '\0') {
		if ((n = utf8_next(p, &c)) == 0)
			return TEXT_UTF8;
		p += n;
		if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 ||
		    c == 0x2029)
			return TEXT_CONTROL;
		if (c == 0x061c || c == 0x200e || c == 0x200f ||
		    (c >= 0x202a && c <= 0x202e) ||
		    (c >= 0x2066 && c <= 0x2069))
			return TEXT_BIDI;
	}
	return TEXT_OK;
}

/* Name a fault for a person. */
const char *
text_fault_name(enum text_fault f)
{
	switch (f) {
	case TEXT_OK:
		return "no fault";
	case TEXT_UTF8:
		return "bytes that are not UTF-8";
	case TEXT_CONTROL:
		return "a control character (a tab, a line break, ...)";
	case TEXT_BIDI:
		return "a bidirectional control character (U+202E and its kin), "
		    "which would show the text otherwise than it is";
	}
	return "unknown fault";
}
