/*
 * game/conditional.h: conditional moves: a tree of lines checked, stored as
 * text, and answered.
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
 * A conditional is what a player who waits for the opponent's move signs in
 * advance: lines of moves from the current position, the opponent's move
 * first, then the player's answer, and so on ("e5 Nf3 Nc6 Bb5"). Lines that
 * begin alike form a tree: "e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5" branches on
 * the opponent's second move. A line may not answer an opponent's move
 * differently from another line ("e5 Nf3; e5 d4" is refused): each
 * position the opponent can reach has at most one answer.
 *
 * Pure code, like the rest of the game: the moves are checked with the
 * rules core against a copy of the game, then kept as English SAN (the
 * game's own notation: the SAN the writer records for each move), so that
 * finding the answer to a move needs no position.
 */

#ifndef CORRCHESS_GAME_CONDITIONAL_H
#define CORRCHESS_GAME_CONDITIONAL_H

#include <stddef.h>

#include "chess/chess.h"
#include "game/game.h"

#define GAME_COND_LINES_MAX	32	/* lines in one conditional */
#define GAME_COND_DEPTH_MAX	40	/* half-moves in one line */

/* A conditional's lines, each as English SAN (a plain value, ~20 KB:
 * allocate it). */
struct game_cond {
	size_t	nlines;
	size_t	len[GAME_COND_LINES_MAX];	/* half-moves of each line */
	char	san[GAME_COND_LINES_MAX][GAME_COND_DEPTH_MAX][CHESS_SAN_MAX];
};

/*
 * Check the lines a player of colour `color` signed ("e5 Nf3; d5 exd5", as
 * sig/statement.h describes them; moves in any notation the rules core
 * reads, in `lang`) against game `g` as it stands: the game goes on, the
 * opponent is to move, every move is legal where its line has it, each
 * line ends with the player's answer, no move comes after the end of the
 * game, and no opponent's move is answered twice. On success `out` holds
 * the lines in English SAN and 0 is returned; else -1 with a sentence in
 * `why` (in `lang`) that names the line and the move.
 */
int game_cond_check(const struct game *g, int color, const char *lines,
    enum chess_lang lang, struct game_cond *out, char *why, size_t whysize);

/* The word for a conditional's status as stored ("active", "replaced",
 * "cancelled", "ended") in `lang`: in French agreed with "coups"
 * ("actifs"); another word as it is. Static or borrowed from `status`. */
const char *game_cond_status_lang(const char *status, enum chess_lang lang);

/* Write a conditional's stored reason (the English the service stores)
 * in `lang`, its moves in `lang`'s letters; unknown reasons as they are.
 * Returns the full length, as snprintf does. */
size_t game_cond_reason_lang(const char *reason, enum chess_lang lang,
    char *buf, size_t size);

/* Write the lines as text, English SAN ("e5 Nf3; d5 exd5"). Returns the
 * length (snprintf: >= size when cut). */
size_t game_cond_format(const struct game_cond *, char *buf, size_t size);

/* Read the text game_cond_format() wrote. 0, or -1 when it is not such a
 * text. */
int game_cond_read(struct game_cond *, const char *text);

/*
 * The answer to the moves played since the conditional was signed
 * (`played`, SAN as the game records them, the opponent's first; `n` odd:
 * the opponent has just moved), or NULL when no line goes on from there.
 * Borrowed from `c`.
 */
const char *game_cond_reply(const struct game_cond *c,
    const char (*played)[CHESS_SAN_MAX], size_t n);

/* How many lines still go on after the moves played (`n` half-moves): they
 * follow them and have more moves. 0: the conditional is used up. */
size_t game_cond_left(const struct game_cond *c,
    const char (*played)[CHESS_SAN_MAX], size_t n);

#endif /* CORRCHESS_GAME_CONDITIONAL_H */
