/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * PGN import and export (pgn.c). Import replays every move against the rules
 * core; comments, NAGs, recursive variations and move-number indications are
 * read and skipped. Export writes the seven-tag roster first, then the other
 * tags, then movetext wrapped at 80 columns, then the result.
 */

#ifndef CORRCHESS_PGN_H
#define CORRCHESS_PGN_H

#include <stddef.h>

#include "chess/chess.h"

struct chess_pgn_tag {
	char	*name;
	char	*value;		/* unescaped */
};

/*
 * One game. chess_pgn_next() fills it, reusing its memory from one game to
 * the next; chess_pgn_game_free() releases it. A zeroed struct is a valid
 * empty game.
 */
struct chess_pgn_game {
	struct chess_pgn_tag	*tags;
	size_t			 ntags;
	size_t			 tagcap;
	struct chess_game	 game;		/* start position and moves */
	char			 result[8];	/* "1-0" "0-1" "1/2-1/2" "*" */
	unsigned long		 line;		/* input line where it began */
};

/* A reader over a PGN text held in memory (BOM and CRLF allowed). The
 * buffer is borrowed and must outlive the reader. */
struct chess_pgn_reader {
	const char	*buf;
	size_t		 len;
	size_t		 off;
	unsigned long	 line;		/* current line, from 1 */
};

/* Start reading `len` bytes at `buf`. */
void chess_pgn_reader_init(struct chess_pgn_reader *, const char *buf,
    size_t len);

/*
 * Read and replay the next game into `g`. Returns 1 when a game was read, 0
 * at the end of the input, and -1 when the game is malformed or a move is
 * illegal: then `err` (when not NULL) names the line, the ply and the move
 * text, and the reader has skipped to the next game, so reading can go on.
 */
int chess_pgn_next(struct chess_pgn_reader *, struct chess_pgn_game *g,
    char *err, size_t errsize);

/* Release a game's memory; the struct is left zeroed. */
void chess_pgn_game_free(struct chess_pgn_game *);

/* The value of tag `name`, or NULL. Valid until `g` changes. */
const char *chess_pgn_tag(const struct chess_pgn_game *g, const char *name);

/* Set (add or replace) a tag. Returns 0, or -1 when out of memory. */
int chess_pgn_set_tag(struct chess_pgn_game *g, const char *name,
    const char *value);

/*
 * Write `g` as PGN: seven-tag roster (with "?" for missing ones), then the
 * other tags, SetUp/FEN when the game does not start from the standard
 * position, movetext wrapped at 80 columns, the result. Returns a malloc'd
 * NUL-terminated string (caller frees) and its length in *lenp, or NULL when
 * out of memory.
 */
char *chess_pgn_write(const struct chess_pgn_game *g, size_t *lenp);

#endif /* CORRCHESS_PGN_H */
