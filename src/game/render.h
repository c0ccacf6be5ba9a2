/*
 * game/render.h: text for people: board diagrams, durations, dates.
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
 * Text for people: a board diagram, durations, dates. Used by the HTTP
 * text/plain answers, the client and the mail notices. Writes into caller
 * buffers; no I/O.
 */

#ifndef CORRCHESS_RENDER_H
#define CORRCHESS_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

/* Enough for any board diagram render_board() writes. */
#define RENDER_BOARD_MAX	2048

/*
 * Write a board diagram, rank 8 at the top (or rank 1 when `flip`), files
 * a-h under it; Unicode chess symbols, or ASCII letters (PNBRQK for White,
 * pnbrqk for Black, '.' for an empty square). Returns the length.
 */
size_t render_board(const struct chess_position *, bool unicode, bool flip,
    char *buf, size_t size);

/* The same, with the ASCII letters of `lang`: in French PCFTDR for White,
 * pcftdr for Black (R is the king). The Unicode symbols are the same in
 * every language. */
size_t render_board_lang(const struct chess_position *, bool unicode,
    bool flip, enum chess_lang lang, char *buf, size_t size);

/* The key to those letters in one line, in `lang` (UTF-8, constant):
 * "R roi, D dame, T tour, F fou, C cavalier, P pion ; majuscules :
 * Blancs". */
const char *render_board_key(enum chess_lang lang);

/* Write a duration for people: "2d 3h", "5h 12m", "40s". */
size_t render_duration(int64_t seconds, char *buf, size_t size);

/* The same in `lang`: in French "2 j 3 h", "5 h 12 min", "40 s". */
size_t render_duration_lang(int64_t seconds, enum chess_lang lang,
    char *buf, size_t size);

/* Write a UTC time as ISO 8601 ("2026-11-29T13:54:00Z"). */
size_t render_time(int64_t t, char *buf, size_t size);

/* Write a UTC time in words, to the minute, in `lang`: "Wednesday
 * 20 January 2027, 22:48 UTC", "mercredi 20 janvier 2027, 22:48 UTC".
 * Returns the length. */
size_t render_time_lang(int64_t t, enum chess_lang lang, char *buf,
    size_t size);

#endif /* CORRCHESS_RENDER_H */
