/*
 * util/text.h: free text from outside checked for what cannot be shown.
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
 * Free-text fields (a game's event, site and round; e-mail addresses) are
 * shown in PGN, mail headers, web pages and terminals. A control character
 * there breaks lines or formats, and a bidirectional control (U+202E
 * RIGHT-TO-LEFT OVERRIDE and its kin) makes the text read otherwise than it
 * is stored: both are refused where the text comes in.
 */

#ifndef CORRCHESS_TEXT_H
#define CORRCHESS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Why a text is refused. */
enum text_fault {
	TEXT_OK = 0,
	TEXT_UTF8,		/* not valid UTF-8 */
	TEXT_CONTROL,		/* a C0 or C1 control, DEL, or U+2028/U+2029 */
	TEXT_BIDI,		/* a bidirectional control: U+061C, U+200E,
				   U+200F, U+202A..U+202E, U+2066..U+2069 */
};

/* Check a NUL-terminated text; TEXT_OK when it may be kept and shown. */
enum text_fault	 text_check(const char *s);

/* Tell whether `len` bytes (NUL not needed) are valid UTF-8. */
bool		 text_utf8_valid(const char *s, size_t len);

/* A sentence for a fault, for a person ("a control character"). */
const char	*text_fault_name(enum text_fault);

#endif /* CORRCHESS_TEXT_H */
