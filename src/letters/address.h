/*
 * letters/address.h: one e-mail address, read with GMime's parser.
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
 * A player's address is where notices go, and the SMTP envelope
 * recipient: it must be one bare addr-spec (RFC 5322 local-part@domain),
 * nothing else. "a@b.c, victim@x" (a list), "foo <a@b.c>" (a display
 * name), "undisclosed:victim@x;" (a group), comments, quoted local
 * parts, white space, control and bidirectional characters are refused.
 */

#ifndef CORRCHESS_LETTERS_ADDRESS_H
#define CORRCHESS_LETTERS_ADDRESS_H

#include <stddef.h>

/*
 * Check that `text` is exactly one addr-spec, as GMime's address parser
 * reads it and writing it back gives the same text. 0, or -1 with a
 * sentence for a person in `why` (when not NULL). Thread-safe.
 */
int mail_address_check(const char *text, char *why, size_t whysize);

#endif /* CORRCHESS_LETTERS_ADDRESS_H */
