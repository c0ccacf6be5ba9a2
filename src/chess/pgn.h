/*
 * chess/pgn.h: PGN import and export.
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
 * PGN import and export (pgn.c). Import replays every move against the rules
 * core; comments, NAGs, recursive variations and move-number indications are
 * read and skipped. Export writes the seven-tag roster first, then the other
 * tags, then movetext wrapped at 80 columns, then the result.
 */

#ifndef CORRCHESS_PGN_H
#define CORRCHESS_PGN_H

#include <stddef.h>

#include "chess/chess.h"

/* Owned by the game: name and value share one allocation (free neither;
 * use chess_pgn_set_tag() and chess_pgn_game_free()). */
struct chess_pgn_tag {
	char	*name;
	char	*value;		/* unescaped */
};

/*
 * A {comment} of the movetext: its text between the braces, as written
 * (line ends and all), and where it stands: after `ply` moves (0: before
 * the first). Owned by the game.
 */
struct chess_pgn_comment {
	size_t	 ply;
	char	*text;
};

/* Longest comment kept, and most comments kept per game: beyond them the
 * game is refused. */
#define CHESS_PGN_COMMENT_MAX	65536
#define CHESS_PGN_COMMENTS_MAX	8192

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
	/* The movetext's comments in order (outside variations): read when
	 * the reader keeps them; written by chess_pgn_write(). Set with
	 * chess_pgn_add_comment(). */
	struct chess_pgn_comment *comments;
	size_t			 ncomments;
	size_t			 commentcap;
};

/* A reader over a PGN text held in memory (BOM and CRLF allowed). The
 * buffer is borrowed and must outlive the reader. */
struct chess_pgn_reader {
	const char	*buf;
	size_t		 len;
	size_t		 off;
	unsigned long	 line;		/* current line, from 1 */
	int		 keep_comments;	/* set after init: fill comments */
};

/* Start reading `len` bytes at `buf`. */
void chess_pgn_reader_init(struct chess_pgn_reader *, const char *buf,
    size_t len);

/*
 * Read and replay the next game into `g`. Returns 1 when a game was read, 0
 * at the end of the input, and -1 when the game is malformed or a move is
 * illegal: then `err` (when not NULL) names the line, the ply and the move
 * text, and the reader has skipped to the next game, so reading can go on.
 * After -1, `g` holds the tags and the moves read before the error.
 *
 * What is read:
 * - Tags in any order, \" and \\ escapes, empty lines between them, tags
 *   and moves on one line. Limits: names of 255 bytes, values of 4095,
 *   256 tags per game; beyond them the game is refused.
 * - FEN (used unless SetUp is "0") and Variant: "Standard", "Chess",
 *   "Normal", "From Position" are chess; "Chess960", "chess 960",
 *   "Fischerandom", "Fischer Random" are Chess960 (X-FEN or Shredder-FEN;
 *   without a FEN, the standard array as Chess960). Other variants
 *   (Crazyhouse, Antichess, ...) are refused.
 * - Movetext: SAN, and also long algebraic (Ng1-f3) and UCI (g1f3, e7e8q),
 *   which python-chess accepts too (its uci-moves.pgn); export writes SAN.
 *   Move numbers (12. 12... "1. ..."), suffixes (! ? !? ?! !! ??), NAGs
 *   ($n), {comments}, ;comments, % lines and (variations), nested to any
 *   depth, are skipped.
 * - Null moves (--, Z0, 0000, @@@@: ChessBase and engine notations) are
 *   refused with "null moves are not supported": a game holds only legal
 *   moves, and a pass has no place in a correspondence game.
 * - A game ends at its result (1-0 0-1 1/2-1/2 *), at an empty line after
 *   its movetext (as chessops reads it), at a tag after its movetext, or
 *   at the end of the input. Without a result in the movetext, a valid
 *   Result tag gives g->result. An unclosed comment or variation runs to
 *   the end of the input.
 */
int chess_pgn_next(struct chess_pgn_reader *, struct chess_pgn_game *g,
    char *err, size_t errsize);

/* Add a comment after `ply` moves (text copied; it must not hold '}').
 * 0, or -1 when out of memory or over the limits. */
int chess_pgn_add_comment(struct chess_pgn_game *g, size_t ply,
    const char *text);

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
 * position, movetext wrapped at 80 columns, the result. The Result tag
 * and the final marker are g->result (the Result tag when that is empty).
 * SetUp and FEN are made from g->game.start, never copied from the tags;
 * Chess960 games get Variant "Chess960" and a Shredder-FEN. Comments, NAGs
 * and variations are not kept on import (comments are, when the reader
 * keeps them); the game's comments are written where they stand, words
 * wrapped like moves, and a Black move after a comment gets its number
 * again ("1. e4 {...} 1... e5"). Line ends
 * are LF; no empty line follows the result. Returns a malloc'd
 * NUL-terminated string (caller frees) and its length in *lenp, or NULL when
 * out of memory.
 */
char *chess_pgn_write(const struct chess_pgn_game *g, size_t *lenp);

#endif /* CORRCHESS_PGN_H */
