/*
 * chess/chess.h: the rules core's public interface.
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
 * The rules core: positions, legal moves, FEN, move notation, game history
 * and end states. Pure C: no I/O, no allocation except in struct chess_game,
 * no global state that changes after chess_init().
 *
 * Files:  bitboard.h (internal)  attacks.c  zobrist.c  position.c  movegen.c
 *         fen.c  notation.c  history.c  pgn.c (see pgn.h)
 */

#ifndef CORRCHESS_CHESS_H
#define CORRCHESS_CHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t chess_bb;

/* Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63. */
#define CHESS_SQ(file, rank)	((rank) * 8 + (file))
#define CHESS_FILE(sq)		((sq) & 7)
#define CHESS_RANK(sq)		((sq) >> 3)
#define CHESS_SQ_NONE		64

enum chess_color { CHESS_WHITE = 0, CHESS_BLACK = 1 };

enum chess_piece_type {
	CHESS_PAWN = 0, CHESS_KNIGHT, CHESS_BISHOP, CHESS_ROOK, CHESS_QUEEN,
	CHESS_KING
};

/* Mailbox entries: (color << 3) | type, or CHESS_EMPTY. */
#define CHESS_PIECE(color, type)	((uint8_t)(((color) << 3) | (type)))
#define CHESS_PIECE_COLOR(p)		((p) >> 3)
#define CHESS_PIECE_TYPE(p)		((p) & 7)
#define CHESS_EMPTY			0xff

/*
 * A move, packed in 16 bits:
 *
 *   15 14 13 12 11 10  9  8  7  6  5  4  3  2  1  0
 *   [kind][prom ][      to         ][     from        ]
 *
 * kind: 0 normal, 1 promotion, 2 en passant, 3 castling.
 * prom: promotion piece minus CHESS_KNIGHT (0 N, 1 B, 2 R, 3 Q).
 * Castling is encoded as "king takes own rook": `to` is the rook's square,
 * in standard chess and Chess960 alike. 0 is never a legal move.
 */
typedef uint16_t chess_move;

#define CHESS_MOVE_NONE		((chess_move)0)
#define CHESS_MOVE_NORMAL	0
#define CHESS_MOVE_PROMOTION	1
#define CHESS_MOVE_EP		2
#define CHESS_MOVE_CASTLE	3

#define CHESS_MOVE_MAKE(from, to, kind, prom) \
	((chess_move)((from) | ((to) << 6) | (((prom) - CHESS_KNIGHT) & 3) << 12 | \
	    ((kind) << 14)))
#define CHESS_MOVE_FROM(m)	((m) & 63)
#define CHESS_MOVE_TO(m)	(((m) >> 6) & 63)
#define CHESS_MOVE_PROM(m)	((((m) >> 12) & 3) + CHESS_KNIGHT)
#define CHESS_MOVE_KIND(m)	((m) >> 14)

/*
 * Room for every legal move of any position a FEN can describe. Reachable
 * positions have at most 218, but FEN accepts any material (the perft
 * suites have one with 270). A bound: a move's target square is reached
 * from at most 16 squares (8 rays, 8 knight jumps) plus 9 for promotions,
 * and a piece has at most 27 moves, so with n pieces of the side to move
 * there are at most min(25 * (64 - n), 27 * n + 2) < 840 moves.
 */
#define CHESS_MAX_MOVES		1024

/*
 * A position: a plain value, copied freely (copy-make).
 *
 * `castling` holds the squares of the rooks that keep a castling right: a
 * right is lost when the rook or its king moves or the rook is captured. The
 * king's square is found from `pieces`/`colors`. The same representation
 * serves standard chess and Chess960.
 *
 * `ep` is the en-passant target square only when an en-passant capture is
 * legal in this position (FIDE 9.2.3); otherwise CHESS_SQ_NONE. `key` is the
 * Zobrist key of placement, side to move, castling rights and `ep`, so equal
 * keys mean "the same position" for repetition.
 */
struct chess_position {
	chess_bb	pieces[6];	/* by piece type, both colours */
	chess_bb	colors[2];	/* by colour */
	chess_bb	castling;	/* rooks with castling rights */
	uint64_t	key;		/* Zobrist key */
	uint8_t		board[64];	/* mailbox: piece code or CHESS_EMPTY */
	uint8_t		side;		/* side to move */
	uint8_t		ep;		/* legal e.p. target or CHESS_SQ_NONE */
	uint16_t	halfmove;	/* halfmove clock (fifty-move rule) */
	uint16_t	fullmove;	/* fullmove number, from 1 */
	bool		chess960;	/* write Shredder-FEN and king-takes-rook UCI */
};

/*
 * The languages of text for people: piece letters of move notation, and
 * the sentences that say why a move or a FEN is refused.
 */
enum chess_lang { CHESS_LANG_EN = 0, CHESS_LANG_FR = 1 };

/* Errors of every rules-core parser. chess_strerror() describes each. */
enum chess_error {
	CHESS_OK = 0,
	/* FEN */
	CHESS_EFEN_FIELDS,	/* missing or extra fields */
	CHESS_EFEN_RANKS,	/* not eight ranks */
	CHESS_EFEN_RANK,	/* a rank does not have eight squares */
	CHESS_EFEN_PIECE,	/* unknown piece letter */
	CHESS_EFEN_KINGS,	/* not exactly one king of each colour */
	CHESS_EFEN_PAWNS,	/* pawn on the first or last rank */
	CHESS_EFEN_SIDE,	/* side to move is not w or b */
	CHESS_EFEN_CHECK,	/* the side not to move is in check */
	CHESS_EFEN_CASTLING,	/* castling field malformed, or no king/rook for it */
	CHESS_EFEN_EP,		/* e.p. square malformed or impossible */
	CHESS_EFEN_HALFMOVE,	/* halfmove clock not a number in range */
	CHESS_EFEN_FULLMOVE,	/* fullmove number not a number in range */
	/* moves */
	CHESS_EMOVE_SYNTAX,	/* not a move in any notation we know */
	CHESS_EMOVE_ILLEGAL,	/* well formed, but not legal here */
	CHESS_EMOVE_AMBIGUOUS,	/* matches more than one legal move */
	/* Chess960 */
	CHESS_E960_NUMBER,	/* start position number not in 0..959 */
};

/* Return a constant, human-readable description of an error, in English. */
const char *chess_strerror(enum chess_error);

/* The same in `lang` (UTF-8; French uses French piece letters in its
 * examples: "essayez la notation algébrique : Cf3, e2e4, e2-e4, 5254"). */
const char *chess_strerror_lang(enum chess_error, enum chess_lang);

/* Build the attack tables. Idempotent and thread-safe; call before use. */
void chess_init(void);

/* --- position.c ----------------------------------------------------- */

/* Set up the standard starting position. */
void chess_position_start(struct chess_position *);

/* Set up Chess960 start position `number` (Scharnagl, 0..959; 518 is the
 * standard array); pos->chess960 is set. */
enum chess_error chess_position_960(struct chess_position *, int number);

/* Play a legal move in place. The move must come from chess_legal_moves()
 * for this position (or a parser that matched it against them). */
void chess_position_make(struct chess_position *, chess_move);

/* The Zobrist key computed from scratch (for checks: equals pos->key). */
uint64_t chess_position_key(const struct chess_position *);

/* True if the side to move is in check. */
bool chess_position_in_check(const struct chess_position *);

/* Square of `color`'s king. */
int chess_position_king(const struct chess_position *, int color);

/* Internal consistency check (mailbox vs bitboards, key, ep); for tests and
 * debug builds. Returns NULL when consistent, else what is wrong. */
const char *chess_position_invalid(const struct chess_position *);

/* --- attacks.c ------------------------------------------------------ */

/* Squares attacked by a piece of `type` and `color` on `sq`, with sliding
 * pieces stopped by `occupied`. */
chess_bb chess_attacks(int type, int color, int sq, chess_bb occupied);

/* Pieces of `color` that attack `sq`, given `occupied`. */
chess_bb chess_attackers(const struct chess_position *, int color, int sq,
    chess_bb occupied);

/* --- movegen.c ------------------------------------------------------ */

/* Write every legal move to `moves` and return their count. */
int chess_legal_moves(const struct chess_position *,
    chess_move moves[CHESS_MAX_MOVES]);

/* Count the legal moves without writing them. */
int chess_legal_count(const struct chess_position *);

/* True if `m` is a legal move in this position. */
bool chess_move_is_legal(const struct chess_position *, chess_move m);

/* Leaf nodes of the legal move tree `depth` plies deep. */
uint64_t chess_perft(const struct chess_position *, int depth);

/* --- fen.c ---------------------------------------------------------- */

/* Longest FEN we write, with its NUL. */
#define CHESS_FEN_MAX		96

#define CHESS_FEN_960		0x1	/* treat as Chess960 (pos->chess960) */

/*
 * Parse a FEN (X-FEN and Shredder-FEN castling fields accepted). The
 * halfmove and fullmove fields may be missing (default 0 and 1). An e.p.
 * square is accepted after any double step, as classic FEN writes it, but
 * kept only when an e.p. capture is legal. pos->chess960 is set when `flags`
 * has CHESS_FEN_960 or the castling rights need it. On error *pos is
 * unspecified.
 */
enum chess_error chess_fen_parse(struct chess_position *, const char *fen,
    unsigned flags);

/* Write the FEN of `pos` to buf (size >= CHESS_FEN_MAX is always enough).
 * Castling as KQkq, or as Shredder-FEN letters when pos->chess960. Returns
 * the length written (without NUL). */
size_t chess_fen_write(const struct chess_position *, char *buf, size_t size);

/* --- notation.c ----------------------------------------------------- */

/* Longest move text we write, with its NUL ("Qa1xb2+" ... "Nbd7xe5=Q#"). */
#define CHESS_SAN_MAX		16

/*
 * Parse a move typed by a person, in any notation: SAN (English or French
 * piece letters, by `lang`), long algebraic, UCI, ICCF numeric. The text is
 * matched against the legal moves of `pos`. On failure, when `why` is not
 * NULL, a sentence for the user is written there, in `lang` (UTF-8): the
 * candidates of an ambiguous move, in `lang`'s letters; why an illegal move
 * is illegal; for text that is no move, chess_strerror_lang().
 *
 * Promotion letters in French: D T F C, and the English letters that mean
 * nothing else in French: Q (queen), N (knight), B (bishop). R is the
 * French king, so a French "e8=R" (or e8R, e8=r ...) is refused,
 * CHESS_EMOVE_ILLEGAL, with a reason that says a rook is T ("e8=T"). The
 * one exception is UCI's lowercase rook, "e7e8r" (both squares, nothing
 * between them, no "="): UCI is English in every language. In English,
 * Q R B N and K (refused: no pawn becomes a king).
 */
enum chess_error chess_move_parse(const struct chess_position *,
    const char *text, enum chess_lang lang, chess_move *out,
    char *why, size_t whysize);

/* Write the SAN of legal move `m`, with check (+) and mate (#) marks, in
 * `lang`'s piece letters. Returns the length. */
size_t chess_move_san(const struct chess_position *, chess_move m,
    enum chess_lang lang, char *buf, size_t size);

/* Write English SAN text (a move, or moves with spaces and ';' between,
 * as the server stores them) in `lang`'s piece letters: K Q R B N are
 * R D T F C in French. Returns the full length, as snprintf does. */
size_t chess_san_text_lang(const char *text, enum chess_lang lang, char *buf,
    size_t size);

/* Write the SAN of each of the n moves `moves` (every legal move of the
 * position, as chess_legal_moves() gives them) into san[0..n-1], as
 * chess_move_san() writes one, with one move generation for all. */
void chess_moves_san(const struct chess_position *, const chess_move *moves,
    int n, enum chess_lang lang, char (*san)[CHESS_SAN_MAX]);

/* Write the UCI of `m`: castling as e1g1, or as king-takes-rook when
 * pos->chess960. Returns the length. */
size_t chess_move_uci(const struct chess_position *, chess_move m,
    char *buf, size_t size);

/* Write the ICCF numeric form of `m` (5254, 57581; castling as the king's
 * move, 5171). Returns the length. */
size_t chess_move_iccf(const struct chess_position *, chess_move m,
    char *buf, size_t size);

/* --- history.c --------------------------------------------------------- */

/* End states, in the order chess_game_status() tests them. */
enum chess_status {
	CHESS_ONGOING = 0,
	CHESS_CHECKMATE,
	CHESS_STALEMATE,
	CHESS_INSUFFICIENT,	/* dead position: neither side can mate */
	CHESS_FIVEFOLD,		/* automatic draw (FIDE 9.6.1) */
	CHESS_SEVENTYFIVE,	/* automatic draw (FIDE 9.6.2) */
	CHESS_THREEFOLD,	/* claimable draw (FIDE 9.2) */
	CHESS_FIFTY,		/* claimable draw (FIDE 9.3) */
};

/* "ongoing", "checkmate", "stalemate", "insufficient-material",
 * "fivefold-repetition", "seventy-five-moves", "threefold-repetition",
 * "fifty-moves". */
const char *chess_status_name(enum chess_status);

/* True if `color` could still checkmate by some series of legal moves
 * (FIDE 6.9, 5.1.2); a conservative material test: false only when mate
 * is impossible. */
bool chess_can_mate(const struct chess_position *, int color);

/* True if neither side can ever checkmate (dead position by material). */
bool chess_insufficient_material(const struct chess_position *);

/*
 * A game: its start, its moves and the key of every position reached, for
 * repetition. Owns its arrays; free with chess_game_free().
 */
struct chess_game {
	struct chess_position	 start;
	struct chess_position	 pos;		/* current position */
	chess_move		*moves;		/* nply moves */
	uint64_t		*keys;		/* nply + 1 keys: keys[0] = start */
	size_t			 nply;
	size_t			 cap;
};

/* Start a game from `start`. Returns 0, or -1 when out of memory. */
int chess_game_init(struct chess_game *, const struct chess_position *start);

/* Release a game's arrays. Accepts a zeroed struct. */
void chess_game_free(struct chess_game *);

/* Append legal move `m`. Returns 0, or -1 when out of memory. */
int chess_game_push(struct chess_game *, chess_move m);

/* How many times the current position has occurred (>= 1), comparing only
 * positions since the last irreversible move. */
int chess_game_repetitions(const struct chess_game *);

/* The first end state that holds for the current position. */
enum chess_status chess_game_status(const struct chess_game *);

#endif /* CORRCHESS_CHESS_H */
