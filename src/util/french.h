/*
 * util/french.h: French grammar for sentences that carry a name.
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
 * French elides "de" before a vowel or a mute h: « au tour d'alice »,
 * « au tour de bob ». A sentence that puts a player's name (or an address)
 * after "de" writes "%s%s" with french_de(name), name. Names are taken to
 * start with a mute h (« d'Hélène », « d'Hugo »), as first names mostly do.
 * Pure: no I/O, no state.
 */

#ifndef CORRCHESS_FRENCH_H
#define CORRCHESS_FRENCH_H

#include <stdbool.h>

/* Tell whether a word (UTF-8; may be NULL) starts with a vowel, a y or an
 * h, accented or not, in either case. */
bool		 french_elides(const char *word);

/* "d'" before a word that elides, else "de " (static strings). */
const char	*french_de(const char *word);

#endif /* CORRCHESS_FRENCH_H */
