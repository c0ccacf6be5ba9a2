/*
 * web/lang.h: the language of a page, from the reader's choice or browser.
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
 * The pages and the SVG board speak English or French. The reader's own
 * choice comes first (?lang=fr, which the page's script adds for a player
 * whose key the browser holds, from the player's language); else the
 * browser's Accept-Language, read as RFC 9110 says: the language ranges
 * with the highest q win, "fr", "fr-CA" ... for French, anything else
 * (including "*") for English. Pure: no I/O, no state.
 */

#ifndef CORRCHESS_WEB_LANG_H
#define CORRCHESS_WEB_LANG_H

#include "chess/chess.h"

/*
 * The language for a reader: `choice` ("en" or "fr", else ignored; may be
 * NULL) first, then the Accept-Language header (may be NULL), English when
 * neither says.
 */
enum chess_lang web_lang(const char *choice, const char *accept_language);

/* "en" or "fr". */
const char *web_lang_name(enum chess_lang);

#endif /* CORRCHESS_WEB_LANG_H */
