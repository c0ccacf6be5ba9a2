/*
 * game/game.h: the correspondence game state machine.
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
 * The game state machine: one correspondence game's moves, draw offers,
 * claims, resignations, clocks and result, on top of the rules core. Pure
 * code: no I/O, no SQL, no signatures; time is passed in by the caller
 * (seconds since the epoch, from one clock function tests can move).
 *
 * A game is rebuilt by replaying its accepted actions in order with
 * game_apply(); the same call checks and applies a new action. A refused
 * action leaves the game unchanged.
 */

#ifndef CORRCHESS_GAME_H
#define CORRCHESS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"

/* Seconds per day. */
#define GAME_DAY		86400

/*
 * Correspondence time controls. Text forms (game_tc_parse/game_tc_format):
 *   "none"           no clock
 *   "3d/move"        D days per move; each move's clock starts afresh
 *   "10/50d"         N moves in D days (ICCF): every N moves add D days,
 *                    unused time carries over
 *   "30d+1d"         B days, plus I days after each move (Fischer)
 * Days may carry an "h" unit instead ("12h/move") for short test games,
 * or "s" (seconds). Every time must be above zero (a Fischer increment may
 * be zero) and at most 3650 days; N is 1..1000. game_tc_format() writes
 * each time in its largest exact unit ("48h/move" -> "2d/move").
 */
enum game_tc_kind {
	GAME_TC_NONE = 0,
	GAME_TC_PER_MOVE,
	GAME_TC_MOVES_IN,
	GAME_TC_FISCHER,
};

struct game_tc {
	enum game_tc_kind	kind;
	int64_t			base;	/* seconds: per move, per period, or base */
	int64_t			inc;	/* seconds: Fischer increment */
	int			moves;	/* moves per period (GAME_TC_MOVES_IN) */
};

/* Longest time-control text we write, with its NUL. */
#define GAME_TC_MAX		32

/* Parse a time control; 0, or -1 with a reason in `why`. */
int game_tc_parse(struct game_tc *, const char *text, char *why,
    size_t whysize);

/* Write the canonical text of a time control ("10/50d"): for the API, the
 * store and game_tc_parse(). */
size_t game_tc_format(const struct game_tc *, char *buf, size_t size);

/* Longest time-control text for people we write, with its NUL. */
#define GAME_TC_TEXT_MAX	64

/*
 * Write a time control for people, in `lang` (UTF-8), each time in its
 * largest exact unit: "3 days per move" / "3 jours par coup", "10 moves in
 * 50 days" / "10 coups en 50 jours", "30 days + 1 day per move" / "30 jours
 * + 1 jour par coup", "30 days for the whole game" / "30 jours pour toute
 * la partie" (no increment), "no clock" / "sans pendule". Returns the
 * length (snprintf).
 */
size_t game_tc_text(const struct game_tc *, enum chess_lang lang, char *buf,
    size_t size);

/* Draw adjudication policy. */
enum game_policy {
	GAME_POLICY_AUTO = 0,	/* threefold and fifty moves end the game */
	GAME_POLICY_CLAIM,	/* FIDE: they must be claimed */
};

/* How a game ended. game_termination_name() gives the API text. */
enum game_termination {
	GAME_TERM_NONE = 0,		/* "" (ongoing) */
	GAME_TERM_CHECKMATE,		/* "checkmate" */
	GAME_TERM_RESIGNATION,		/* "resignation" */
	GAME_TERM_AGREEMENT,		/* "agreement" */
	GAME_TERM_STALEMATE,		/* "stalemate" */
	GAME_TERM_INSUFFICIENT,		/* "insufficient-material" */
	GAME_TERM_THREEFOLD,		/* "threefold-repetition" */
	GAME_TERM_FIFTY,		/* "fifty-moves" */
	GAME_TERM_FIVEFOLD,		/* "fivefold-repetition" */
	GAME_TERM_SEVENTYFIVE,		/* "seventy-five-moves" */
	GAME_TERM_TIMEOUT,		/* "timeout": loss on time */
	GAME_TERM_TIMEOUT_DRAW,		/* "timeout-insufficient": flag fell,
					   opponent cannot mate (FIDE 6.9) */
	GAME_TERM_ABORTED,		/* "aborted": by the club admin; no
					   result ("*") */
	GAME_TERM_ADJUDICATED,		/* "adjudication": the club admin
					   gave the result */
};
#define GAME_TERM_LAST		GAME_TERM_ADJUDICATED

enum game_result {
	GAME_RESULT_NONE = 0,	/* "*" */
	GAME_RESULT_WHITE,	/* "1-0" */
	GAME_RESULT_BLACK,	/* "0-1" */
	GAME_RESULT_DRAW,	/* "1/2-1/2" */
};

/* Player actions, as signed statements name them. */
enum game_action_kind {
	GAME_ACT_MOVE = 1,	/* move MOVE [offer-draw] */
	GAME_ACT_ACCEPT_DRAW,	/* accept-draw */
	GAME_ACT_DECLINE_DRAW,	/* decline-draw */
	GAME_ACT_RESIGN,	/* resign */
	GAME_ACT_CLAIM_DRAW,	/* claim-draw [MOVE] */
	GAME_ACT_ABORT,		/* the admin ends the game without result */
	GAME_ACT_ADJUDICATE,	/* the admin gives the result */
};

struct game_action {
	enum game_action_kind	 kind;
	int			 color;		/* who acts */
	const char		*move;		/* move text, or NULL */
	bool			 offer_draw;	/* with GAME_ACT_MOVE */
	int			 result;	/* GAME_ACT_ADJUDICATE: an enum
						   game_result other than
						   GAME_RESULT_NONE */
	enum chess_lang		 lang;		/* language of the move text
						   and of the refusal's
						   sentence */
	int64_t			 at;		/* when (seconds since epoch) */
};

/* Why an action is refused. Each has its own API error code. */
enum game_refusal {
	GAME_OK = 0,
	GAME_EOVER,		/* "game-over": the game has ended */
	GAME_ETURN,		/* "not-your-turn" */
	GAME_EILLEGAL,		/* "illegal-move" (why: the rules core's reason) */
	GAME_EAMBIGUOUS,	/* "ambiguous-move" */
	GAME_ESYNTAX,		/* "bad-move" (not a move in any notation) */
	GAME_ELATE,		/* "late-move": the flag fell; the game was ended */
	GAME_ENO_OFFER,		/* "no-draw-offer": nothing to accept/decline */
	GAME_EBAD_CLAIM,	/* "bad-claim": the claim does not hold */
	GAME_EDRAW_RULE,	/* "draw-rule": the game's draw rules refuse
				   the offer (too early, too soon again) */
	GAME_ENOMEM,		/* "internal" */
};

struct game_params {
	struct chess_position	start;
	struct game_tc		tc;
	enum game_policy	policy;
	int64_t			created;	/* the clock starts here */
	/* ICCF draw rules: no draw offer with a move numbered below
	 * draw_min_move; a player's offers at least draw_offer_every moves
	 * apart. 0: no such rule. */
	int			draw_min_move;
	int			draw_offer_every;
};

/* A leave: a player's clock stands still from `from` to `to` (seconds
 * since the epoch, `to` excluded). */
struct game_leave {
	int64_t	from;
	int64_t	to;
};

/*
 * The state of one game. Rebuilt from its parameters, its players' leaves
 * and its accepted actions; owns its chess_game and leaves (free with
 * game_free()).
 */
struct game {
	struct game_params	params;
	struct chess_game	chess;
	enum game_result	result;
	enum game_termination	termination;
	int			draw_offer;	/* colour that offers, or -1 */
	unsigned		offer_move[2];	/* per colour, the move number
						   of its last draw offer, or 0 */
	int64_t			turn_start;	/* when the side to move got the move */
	int64_t			remaining[2];	/* seconds left at turn_start */
	int64_t			ended;		/* when it ended, or 0 */
	struct game_leave	*leaves[2];	/* per colour, ordered, apart */
	size_t			 nleaves[2];
};

/*
 * Start a game. A start position that is already over by the rules
 * (checkmate, stalemate, dead position; and under GAME_POLICY_AUTO fifty
 * moves) ends the game at once, at `created`. 0, or -1 when out of memory.
 */
int game_init(struct game *, const struct game_params *);

/* Release a game. Accepts a zeroed struct. */
void game_free(struct game *);

/* Copy `src` into `dst` (not initialised: it is overwritten), with arrays
 * of its own. 0, or -1 when out of memory (then `dst` is empty). */
int game_copy(struct game *dst, const struct game *src);

/*
 * Stop `color`'s clock from `from` to `to` (a leave): time in it is not
 * thinking time, and the deadline moves on by the part of the leave it
 * would fall after. Periods that touch or overlap are merged. Add every
 * leave before the actions of a replay; a leave must not reach back
 * before the last action (a clock never changes its past). 0, or -1 when
 * out of memory or from >= to.
 */
int game_leave_add(struct game *, int color, int64_t from, int64_t to);

/* True while the game has not ended (an aborted game has ended without a
 * result). */
bool game_ongoing(const struct game *);

/* Side to move. */
int game_turn(const struct game *);

/* Half-moves played. */
size_t game_ply(const struct game *);

/*
 * Check and apply action `a`. First the clock: when the side to move's time
 * ran out at or before a->at (only that clock runs, whoever acts: a
 * resignation after the opponent's flag fell comes too late), the game ends
 * on time (loss, or draw by FIDE 6.9) and GAME_ELATE is returned — the
 * game HAS changed then and must be stored. Otherwise a refused action
 * returns its reason (with a sentence in `why`, in a->lang, UTF-8) and
 * leaves the game unchanged; an accepted one returns GAME_OK.
 * After a move, automatic ends are applied: checkmate, stalemate, dead
 * position, fivefold, seventy-five moves, and under GAME_POLICY_AUTO
 * threefold and fifty moves.
 *
 * A claim (GAME_ACT_CLAIM_DRAW) is the side to move's: without a move it is
 * judged on the current position; with a move, on the position after it,
 * and when it holds the move is recorded and the game drawn. When that move
 * ends the game by itself (checkmate, stalemate, ...), that end stands. A
 * wrong claim is GAME_EBAD_CLAIM and changes nothing. A game ended on time
 * ends at its deadline (`ended`), whenever the flag is seen.
 *
 * The admin's actions (GAME_ACT_ABORT, GAME_ACT_ADJUDICATE; any colour)
 * end an ongoing game whoever is to move: aborted, without result, or
 * adjudicated with a->result. Whether the admin may (how many moves were
 * played) is the caller's to decide.
 */
enum game_refusal game_apply(struct game *, const struct game_action *a,
    char *why, size_t whysize);

/*
 * End the game on time when the side to move's time ran out by `now`.
 * Returns true when the game changed (and must be stored).
 */
bool game_check_time(struct game *, int64_t now);

/* Seconds left for `color` at `now` (never negative), or -1 without clock. */
int64_t game_time_left(const struct game *, int color, int64_t now);

/*
 * The moves `color` has still to make before the next control of an ICCF
 * time control ("10/50d": from 1 to 10), or 0 for another time control.
 */
int game_moves_to_control(const struct game *, int color);

/* When the side to move runs out of time, or 0 without clock/when over. */
int64_t game_deadline(const struct game *);

/* API texts. */
const char *game_result_name(enum game_result);		/* "1-0" ... "*" */
/* The result a name gives ("1-0", "0-1", "1/2-1/2"); GAME_RESULT_NONE for
 * anything else. */
enum game_result game_result_parse(const char *);
const char *game_termination_name(enum game_termination);
/* The termination an API name gives ("checkmate", "timeout", ...);
 * GAME_TERM_NONE for anything else. */
enum game_termination game_termination_parse(const char *);

/* A termination for people, in `lang` (UTF-8): "checkmate" / "échec et
 * mat", "draw by agreement" / "nulle par accord mutuel", ...; "" for
 * GAME_TERM_NONE. */
const char *game_termination_text(enum game_termination,
    enum chess_lang lang);
const char *game_refusal_code(enum game_refusal);	/* "illegal-move" */
const char *game_policy_name(enum game_policy);		/* "auto" "claim" */
int game_policy_parse(const char *, enum game_policy *);

/* PGN Termination tag value: "normal", "time forfeit", "abandoned",
 * "adjudication", or "unterminated". */
const char *game_termination_pgn(enum game_termination);

#endif /* CORRCHESS_GAME_H */
