/*
 * tests/test_game.c: tests of the game state machine.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Unit tests of the correspondence game state machine (src/game/game.c). */

#include "testutil.h"

#include "game/conditional.h"
#include "game/game.h"

/* An arbitrary creation time: 2026-01-01 00:00:00 UTC. */
#define T0	((int64_t)1767225600)
#define DAY	((int64_t)GAME_DAY)
#define HOUR	((int64_t)3600)

#define W	CHESS_WHITE
#define B	CHESS_BLACK

/* Start a game from `fen` (NULL: the standard start) with a time control
 * text and a policy. */
static void
start(struct game *g, const char *fen, const char *tc, enum game_policy pol)
{
	struct game_params	p;
	char			why[256];

	chess_init();
	memset(&p, 0, sizeof p);
	if (fen == NULL)
		chess_position_start(&p.start);
	else
		assert_int_equal(chess_fen_parse(&p.start, fen, 0), CHESS_OK);
	if (game_tc_parse(&p.tc, tc, why, sizeof why) != 0)
		fail_msg("tc %s: %s", tc, why);
	p.policy = pol;
	p.created = T0;
	assert_int_equal(game_init(g, &p), 0);
}

/* Apply one action; return the refusal and leave the reason in `why`. */
static enum game_refusal
act(struct game *g, enum game_action_kind kind, int color, const char *move,
    bool offer, int64_t at, char *why, size_t whysize)
{
	struct game_action	a;

	memset(&a, 0, sizeof a);
	a.kind = kind;
	a.color = color;
	a.move = move;
	a.offer_draw = offer;
	a.lang = CHESS_LANG_EN;
	a.at = at;
	return game_apply(g, &a, why, whysize);
}

/* Play a move that must be accepted. */
static void
move_ok(struct game *g, const char *move, int64_t at)
{
	char	why[256] = "";

	if (act(g, GAME_ACT_MOVE, game_turn(g), move, false, at, why,
	    sizeof why) != GAME_OK)
		fail_msg("move %s refused: %s", move, why);
}

/* Play a list of moves (NULL-terminated), one hour apart from `at`. */
static int64_t
moves_ok(struct game *g, const char *const *moves, int64_t at)
{
	for (; *moves != NULL; moves++, at += HOUR)
		move_ok(g, *moves, at);
	return at;
}

/* What a refused action must leave unchanged. */
struct snap {
	char		fen[CHESS_FEN_MAX];
	size_t		nply;
	enum game_result result;
	enum game_termination term;
	int		offer;
	int64_t		turn_start;
	int64_t		remaining[2];
	int64_t		ended;
};

/* Take a snapshot of a game. */
static void
snap_take(const struct game *g, struct snap *s)
{
	memset(s, 0, sizeof *s);
	chess_fen_write(&g->chess.pos, s->fen, sizeof s->fen);
	s->nply = g->chess.nply;
	s->result = g->result;
	s->term = g->termination;
	s->offer = g->draw_offer;
	s->turn_start = g->turn_start;
	s->remaining[0] = g->remaining[0];
	s->remaining[1] = g->remaining[1];
	s->ended = g->ended;
}

/* Assert a game still matches its snapshot. */
static void
snap_check(const struct game *g, const struct snap *s)
{
	struct snap	now;

	snap_take(g, &now);
	assert_string_equal(now.fen, s->fen);
	assert_int_equal(now.nply, s->nply);
	assert_int_equal(now.result, s->result);
	assert_int_equal(now.term, s->term);
	assert_int_equal(now.offer, s->offer);
	assert_int_equal(now.turn_start, s->turn_start);
	assert_int_equal(now.remaining[0], s->remaining[0]);
	assert_int_equal(now.remaining[1], s->remaining[1]);
	assert_int_equal(now.ended, s->ended);
}

/* Apply an action that must be refused with `want`, changing nothing;
 * the reason must contain `needle` when it is not NULL. */
static void
refused(struct game *g, enum game_action_kind kind, int color,
    const char *move, bool offer, int64_t at, enum game_refusal want,
    const char *needle)
{
	struct snap	s;
	char		why[256] = "";
	enum game_refusal r;

	snap_take(g, &s);
	r = act(g, kind, color, move, offer, at, why, sizeof why);
	if (r != want)
		fail_msg("want %s, got %s (%s)", game_refusal_code(want),
		    game_refusal_code(r), why);
	assert_true(why[0] != '\0');
	if (needle != NULL && strstr(why, needle) == NULL)
		fail_msg("reason \"%s\" lacks \"%s\"", why, needle);
	snap_check(g, &s);
}

/* Assert a game ended with this result and termination. */
static void
ended(const struct game *g, enum game_result r, enum game_termination t)
{
	assert_false(game_ongoing(g));
	if (g->result != r || g->termination != t)
		fail_msg("want %s %s, got %s %s", game_result_name(r),
		    game_termination_name(t), game_result_name(g->result),
		    game_termination_name(g->termination));
}

/* Knight shuffles returning to the start position every four plies. */
static const char *const shuffle[] = {
	"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8",
	"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", NULL
};

/* Play the first `n` plies of the knight shuffle. */
static void
shuffle_n(struct game *g, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		move_ok(g, shuffle[i], T0 + (int64_t)(i + 1) * HOUR);
}

/* --- automatic ends ------------------------------------------------- */

static void
test_checkmate(void **state)
{
	static const char *const fool[] = { "f3", "e5", "g4", "Qh4#", NULL };
	struct game	g;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	assert_true(game_ongoing(&g));
	moves_ok(&g, fool, T0 + HOUR);
	ended(&g, GAME_RESULT_BLACK, GAME_TERM_CHECKMATE);
	assert_int_equal(game_ply(&g), 4);
	assert_int_equal(g.ended, T0 + 4 * HOUR);
	assert_string_equal(game_termination_pgn(g.termination), "normal");
	refused(&g, GAME_ACT_MOVE, W, "e4", false, T0 + DAY, GAME_EOVER,
	    "the game is over (0-1, checkmate)");
	game_free(&g);
}

static void
test_stalemate(void **state)
{
	struct game	g;

	(void)state;
	start(&g, "k7/8/8/8/3Q4/8/8/7K w - - 0 1", "none",
	    GAME_POLICY_CLAIM);
	move_ok(&g, "Qb6", T0 + HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_STALEMATE);
	game_free(&g);
}

static void
test_dead_position(void **state)
{
	struct game	g;

	(void)state;
	/* K v K+P: the king takes the last pawn. */
	start(&g, "7k/8/8/8/8/8/4p3/4K3 w - - 0 1", "none",
	    GAME_POLICY_CLAIM);
	assert_true(game_ongoing(&g));
	move_ok(&g, "Kxe2", T0 + HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_INSUFFICIENT);
	game_free(&g);

	/* K+N v K after Nxf3. */
	start(&g, "7k/8/8/8/8/5p2/8/4K1N1 w - - 0 1", "none",
	    GAME_POLICY_AUTO);
	move_ok(&g, "Nxf3", T0 + HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_INSUFFICIENT);
	game_free(&g);
}

static void
test_fivefold(void **state)
{
	struct game	g;

	(void)state;
	/* Under the claim policy threefold does not end the game... */
	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	shuffle_n(&g, 8);
	assert_true(game_ongoing(&g));
	assert_int_equal(chess_game_repetitions(&g.chess), 3);
	game_free(&g);

	/* ...but the fifth occurrence does (ply 16). */
	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	shuffle_n(&g, 15);
	assert_true(game_ongoing(&g));
	move_ok(&g, "Ng8", T0 + 16 * HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_FIVEFOLD);
	assert_int_equal(game_ply(&g), 16);
	game_free(&g);
}

static void
test_seventy_five(void **state)
{
	struct game	g;

	(void)state;
	/* The 150th half-move without capture or pawn move draws. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 149 100", "none",
	    GAME_POLICY_CLAIM);
	assert_true(game_ongoing(&g));
	move_ok(&g, "Ra2", T0 + HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_SEVENTYFIVE);
	game_free(&g);

	/* Unless that move mates: checkmate takes precedence (FIDE 9.6.2). */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 149 100", "none",
	    GAME_POLICY_CLAIM);
	move_ok(&g, "Ra8", T0 + HOUR);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_CHECKMATE);
	game_free(&g);
}

static void
test_start_position_over(void **state)
{
	struct game	g;

	(void)state;
	/* A start position that is mate is over at creation. */
	start(&g, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "3d/move",
	    GAME_POLICY_AUTO);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_CHECKMATE);
	assert_int_equal(g.ended, T0);
	assert_int_equal(game_deadline(&g), 0);
	refused(&g, GAME_ACT_MOVE, B, "Kxg7", false, T0 + HOUR, GAME_EOVER,
	    "1-0, checkmate");
	game_free(&g);

	/* Fifty moves at the start: drawn under auto, claimable otherwise. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 100 60", "none",
	    GAME_POLICY_AUTO);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_FIFTY);
	game_free(&g);
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 100 60", "none",
	    GAME_POLICY_CLAIM);
	assert_true(game_ongoing(&g));
	game_free(&g);
}

/* --- threefold and fifty ------------------------------------------- */

static void
test_threefold_auto(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	shuffle_n(&g, 7);
	assert_true(game_ongoing(&g));
	move_ok(&g, "Ng8", T0 + 8 * HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_THREEFOLD);
	assert_int_equal(game_ply(&g), 8);
	game_free(&g);
}

static void
test_threefold_claim(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	shuffle_n(&g, 4);

	/* The start position has occurred twice: a wrong claim. */
	refused(&g, GAME_ACT_CLAIM_DRAW, W, NULL, false, T0 + 5 * HOUR,
	    GAME_EBAD_CLAIM,
	    "no threefold repetition: the position has occurred twice");
	assert_true(game_ongoing(&g));
	game_free(&g);

	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	shuffle_n(&g, 8);
	assert_true(game_ongoing(&g));
	/* Only the player to move may claim. */
	refused(&g, GAME_ACT_CLAIM_DRAW, B, NULL, false, T0 + 9 * HOUR,
	    GAME_ETURN, "it is White's move");
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, W, NULL, false,
	    T0 + 9 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_THREEFOLD);
	assert_int_equal(game_ply(&g), 8);
	assert_int_equal(g.ended, T0 + 9 * HOUR);
	game_free(&g);
}

static void
test_threefold_claim_with_move(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	shuffle_n(&g, 3);

	/* After Ng8 the start position would occur only twice. */
	refused(&g, GAME_ACT_CLAIM_DRAW, B, "Ng8", false, T0 + 4 * HOUR,
	    GAME_EBAD_CLAIM, "after Ng8, no threefold repetition: the "
	    "position would have occurred twice");
	assert_int_equal(game_ply(&g), 3);
	assert_int_equal(game_turn(&g), B);

	/* The game goes on: the same move may still be played. */
	move_ok(&g, "Ng8", T0 + 4 * HOUR);
	move_ok(&g, "Nf3", T0 + 5 * HOUR);
	move_ok(&g, "Nf6", T0 + 6 * HOUR);
	move_ok(&g, "Ng1", T0 + 7 * HOUR);

	/* An illegal intended move is refused as such. */
	refused(&g, GAME_ACT_CLAIM_DRAW, B, "Ng5", false, T0 + 8 * HOUR,
	    GAME_EILLEGAL, NULL);

	/* Now Ng8 makes the third occurrence: the claim holds, and the
	 * move is recorded. */
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, B, "Ng8", false,
	    T0 + 8 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_THREEFOLD);
	assert_int_equal(game_ply(&g), 8);
	assert_int_equal(game_turn(&g), W);
	assert_int_equal(g.chess.pos.key, g.chess.keys[0]);
	game_free(&g);
}

static void
test_fifty_auto(void **state)
{
	struct game	g;

	(void)state;
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 99 60", "none",
	    GAME_POLICY_AUTO);
	assert_true(game_ongoing(&g));
	move_ok(&g, "Ra2", T0 + HOUR);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_FIFTY);
	game_free(&g);

	/* Mate on the hundredth half-move is mate. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 99 60", "none",
	    GAME_POLICY_AUTO);
	move_ok(&g, "Ra8#", T0 + HOUR);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_CHECKMATE);
	game_free(&g);
}

static void
test_fifty_claim(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	/* Reached by a move: the game goes on until the claim. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 98 60", "none",
	    GAME_POLICY_CLAIM);
	refused(&g, GAME_ACT_CLAIM_DRAW, W, NULL, false, T0 + HOUR,
	    GAME_EBAD_CLAIM, "98 half-moves without a capture or pawn move");
	move_ok(&g, "Ra2", T0 + HOUR);
	assert_true(game_ongoing(&g));
	refused(&g, GAME_ACT_CLAIM_DRAW, B, NULL, false, T0 + 2 * HOUR,
	    GAME_EBAD_CLAIM, "99 half-moves");
	move_ok(&g, "Kg8", T0 + 2 * HOUR);
	assert_true(game_ongoing(&g));
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, W, NULL, false,
	    T0 + 3 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_FIFTY);
	assert_int_equal(game_ply(&g), 2);
	game_free(&g);

	/* With an intended move: judged after it; the move is recorded. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 99 60", "none",
	    GAME_POLICY_CLAIM);
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, W, "Ra2", false,
	    T0 + HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_FIFTY);
	assert_int_equal(game_ply(&g), 1);
	assert_int_equal(game_turn(&g), B);
	game_free(&g);

	/* A claim whose intended move mates: the mate stands. */
	start(&g, "7k/8/6K1/8/8/8/8/R7 w - - 60 60", "none",
	    GAME_POLICY_CLAIM);
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, W, "Ra8", false,
	    T0 + HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_CHECKMATE);
	assert_int_equal(game_ply(&g), 1);
	game_free(&g);

	/* An intended capture resets the count: a wrong claim. */
	start(&g, "7k/8/6K1/8/8/8/8/R6r w - - 99 60", "none",
	    GAME_POLICY_CLAIM);
	refused(&g, GAME_ACT_CLAIM_DRAW, W, "Rxh1", false, T0 + HOUR,
	    GAME_EBAD_CLAIM, "after Rxh1");
	assert_int_equal(game_ply(&g), 0);
	game_free(&g);
}

/* --- draw offers, resignation, turns -------------------------------- */

static void
test_draw_offer_accepted(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "3d/move", GAME_POLICY_AUTO);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "e4", true, T0 + HOUR,
	    why, sizeof why), GAME_OK);
	assert_int_equal(g.draw_offer, W);
	assert_true(game_ongoing(&g));

	/* The offer is White's: White cannot accept it. */
	refused(&g, GAME_ACT_ACCEPT_DRAW, W, NULL, false, T0 + 2 * HOUR,
	    GAME_ENO_OFFER, "your own");
	assert_int_equal(act(&g, GAME_ACT_ACCEPT_DRAW, B, NULL, false,
	    T0 + 2 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT);
	assert_int_equal(g.draw_offer, -1);
	assert_int_equal(g.ended, T0 + 2 * HOUR);
	assert_int_equal(game_ply(&g), 1);
	game_free(&g);
}

static void
test_draw_offer_declined(void **state)
{
	struct game	g;
	char		why[256];
	int64_t		deadline;

	(void)state;
	start(&g, NULL, "3d/move", GAME_POLICY_AUTO);
	refused(&g, GAME_ACT_ACCEPT_DRAW, B, NULL, false, T0,
	    GAME_ENO_OFFER, "no draw offer to accept");
	refused(&g, GAME_ACT_DECLINE_DRAW, W, NULL, false, T0,
	    GAME_ENO_OFFER, "no draw offer to decline");

	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "d4", true, T0 + HOUR,
	    why, sizeof why), GAME_OK);
	deadline = game_deadline(&g);
	assert_int_equal(deadline, T0 + HOUR + 3 * DAY);

	/* Declining neither stops nor switches the clock. */
	assert_int_equal(act(&g, GAME_ACT_DECLINE_DRAW, B, NULL, false,
	    T0 + DAY, why, sizeof why), GAME_OK);
	assert_int_equal(g.draw_offer, -1);
	assert_true(game_ongoing(&g));
	assert_int_equal(game_turn(&g), B);
	assert_int_equal(game_ply(&g), 1);
	assert_int_equal(game_deadline(&g), deadline);
	refused(&g, GAME_ACT_ACCEPT_DRAW, B, NULL, false, T0 + DAY,
	    GAME_ENO_OFFER, "no draw offer to accept");
	move_ok(&g, "d5", T0 + DAY + HOUR);
	assert_true(game_ongoing(&g));
	game_free(&g);
}

/* The ICCF draw rules: no offer before move 3, one a player per 3 moves;
 * a claim is no offer and stays free. */
static void
test_draw_rules(void **state)
{
	static const char *const opening[] = { "e4", "e5", NULL };
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	g.params.draw_min_move = 3;
	g.params.draw_offer_every = 3;
	refused(&g, GAME_ACT_MOVE, W, "e4", true, T0, GAME_EDRAW_RULE,
	    "no draw offer before move 3 in this game");
	moves_ok(&g, opening, T0);
	refused(&g, GAME_ACT_MOVE, W, "Nf3", true, T0 + DAY, GAME_EDRAW_RULE,
	    "this is move 2");
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "Nf3", false, T0 + DAY,
	    why, sizeof why), GAME_OK);
	move_ok(&g, "Nc6", T0 + DAY);
	/* Move 3: White offers, Black declines by moving, and offers too:
	 * each player's count is their own. */
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "Bc4", true, T0 + DAY,
	    why, sizeof why), GAME_OK);
	assert_int_equal(g.offer_move[W], 3);
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "Bc5", true, T0 + DAY,
	    why, sizeof why), GAME_OK);
	assert_int_equal(g.draw_offer, B);
	refused(&g, GAME_ACT_MOVE, W, "d3", true, T0 + DAY, GAME_EDRAW_RULE,
	    "your last was with move 3, the next may come with move 6");
	move_ok(&g, "d3", T0 + DAY);
	refused(&g, GAME_ACT_MOVE, B, "d6", true, T0 + DAY, GAME_EDRAW_RULE,
	    "the next may come with move 6");
	move_ok(&g, "d6", T0 + DAY);
	move_ok(&g, "c3", T0 + DAY);
	move_ok(&g, "Nf6", T0 + DAY);
	move_ok(&g, "O-O", T0 + DAY);
	/* Move 6, three after Black's last: allowed, and declined. */
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "O-O", true, T0 + DAY,
	    why, sizeof why), GAME_OK);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "h3", true, T0 + DAY,
	    why, sizeof why), GAME_OK);
	assert_int_equal(g.offer_move[W], 7);
	/* Accepting is no offer of one's own. */
	assert_int_equal(act(&g, GAME_ACT_ACCEPT_DRAW, B, NULL, false,
	    T0 + DAY, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT);
	game_free(&g);
}

/* The draw rules' refusals in French. */
static void
test_draw_rules_fr(void **state)
{
	struct game		g;
	struct game_action	a;
	char			why[256];

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	g.params.draw_min_move = 20;
	memset(&a, 0, sizeof a);
	a.kind = GAME_ACT_MOVE;
	a.color = W;
	a.move = "e4";
	a.offer_draw = true;
	a.lang = CHESS_LANG_FR;
	a.at = T0;
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_EDRAW_RULE);
	assert_non_null(strstr(why, "pas de proposition de nulle avant le "
	    "coup 20"));
	assert_string_equal(game_refusal_code(GAME_EDRAW_RULE), "draw-rule");
	game_free(&g);
}

static void
test_draw_offer_implicit_decline(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "e4", true, T0 + HOUR,
	    why, sizeof why), GAME_OK);
	move_ok(&g, "e5", T0 + 2 * HOUR);
	assert_int_equal(g.draw_offer, -1);
	refused(&g, GAME_ACT_ACCEPT_DRAW, W, NULL, false, T0 + 3 * HOUR,
	    GAME_ENO_OFFER, NULL);

	/* A counter-offer with the reply stands in its turn. */
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "Nf3", true,
	    T0 + 3 * HOUR, why, sizeof why), GAME_OK);
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "Nc6", true,
	    T0 + 4 * HOUR, why, sizeof why), GAME_OK);
	assert_int_equal(g.draw_offer, B);
	refused(&g, GAME_ACT_ACCEPT_DRAW, B, NULL, false, T0 + 5 * HOUR,
	    GAME_ENO_OFFER, "it awaits White's answer");
	assert_int_equal(act(&g, GAME_ACT_ACCEPT_DRAW, W, NULL, false,
	    T0 + 5 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT);
	game_free(&g);
}

static void
test_offer_wrong_side(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	refused(&g, GAME_ACT_MOVE, B, "e5", true, T0 + HOUR, GAME_ETURN,
	    "it is White's move");
	assert_int_equal(g.draw_offer, -1);
	game_free(&g);
}

/* The admin ends a game: aborted without a result, or adjudicated. */
static void
test_admin_end(void **state)
{
	struct game		g;
	struct game_action	a;
	char			why[256];

	(void)state;
	start(&g, NULL, "3d/move", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0 + HOUR);
	memset(&a, 0, sizeof a);
	a.kind = GAME_ACT_ABORT;
	a.color = -1;
	a.at = T0 + 2 * HOUR;
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_NONE, GAME_TERM_ABORTED);
	assert_int_equal(game_deadline(&g), 0);
	assert_string_equal(game_termination_pgn(g.termination), "abandoned");
	refused(&g, GAME_ACT_MOVE, B, "e5", false, T0 + DAY, GAME_EOVER,
	    "the game is over (*, aborted)");
	game_free(&g);

	start(&g, NULL, "none", GAME_POLICY_AUTO);
	a.kind = GAME_ACT_ADJUDICATE;
	a.result = GAME_RESULT_NONE;
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_ESYNTAX);
	assert_true(game_ongoing(&g));
	a.result = GAME_RESULT_BLACK;
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_BLACK, GAME_TERM_ADJUDICATED);
	assert_string_equal(game_termination_name(g.termination),
	    "adjudication");
	assert_string_equal(game_termination_pgn(g.termination),
	    "adjudication");
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_EOVER);
	assert_int_equal(game_result_parse("1/2-1/2"), GAME_RESULT_DRAW);
	assert_int_equal(game_result_parse("*"), GAME_RESULT_NONE);
	game_free(&g);
}

static void
test_resign(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	/* White resigns on White's turn. */
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	assert_int_equal(act(&g, GAME_ACT_RESIGN, W, NULL, false, T0 + HOUR,
	    why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_BLACK, GAME_TERM_RESIGNATION);
	assert_int_equal(g.ended, T0 + HOUR);
	refused(&g, GAME_ACT_RESIGN, B, NULL, false, T0 + DAY, GAME_EOVER,
	    "the game is over (0-1, resignation)");
	game_free(&g);

	/* Black resigns on White's turn, with an offer standing. */
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0 + HOUR);
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "e5", true, T0 + 2 * HOUR,
	    why, sizeof why), GAME_OK);
	assert_int_equal(act(&g, GAME_ACT_RESIGN, B, NULL, false,
	    T0 + 3 * HOUR, why, sizeof why), GAME_OK);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_RESIGNATION);
	assert_int_equal(g.draw_offer, -1);
	refused(&g, GAME_ACT_ACCEPT_DRAW, W, NULL, false, T0 + DAY,
	    GAME_EOVER, "1-0, resignation");
	game_free(&g);
}

static void
test_turn_and_moves(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	refused(&g, GAME_ACT_MOVE, B, "e5", false, T0, GAME_ETURN,
	    "it is White's move");
	refused(&g, GAME_ACT_MOVE, W, "e5", false, T0, GAME_EILLEGAL, NULL);
	refused(&g, GAME_ACT_MOVE, W, "zz9", false, T0, GAME_ESYNTAX, NULL);
	refused(&g, GAME_ACT_MOVE, W, NULL, false, T0, GAME_ESYNTAX,
	    "no move given");
	refused(&g, GAME_ACT_CLAIM_DRAW, B, NULL, false, T0, GAME_ETURN,
	    "only the player to move may claim");
	move_ok(&g, "e4", T0 + HOUR);
	refused(&g, GAME_ACT_MOVE, W, "d4", false, T0 + HOUR, GAME_ETURN,
	    "it is Black's move");
	game_free(&g);

	/* Every notation the rules core reads, and French letters. */
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	move_ok(&g, "e2-e4", T0 + HOUR);
	move_ok(&g, "e7e5", T0 + 2 * HOUR);
	move_ok(&g, "7163", T0 + 3 * HOUR);	/* ICCF: Ng1-f3 */
	{
		struct game_action	a;
		char			why[256];

		memset(&a, 0, sizeof a);
		a.kind = GAME_ACT_MOVE;
		a.color = B;
		a.move = "Cc6";		/* French: cavalier */
		a.lang = CHESS_LANG_FR;
		a.at = T0 + 4 * HOUR;
		assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_OK);
	}
	assert_int_equal(game_ply(&g), 4);
	game_free(&g);

	/* Two knights reach d2: ambiguous. */
	start(&g, "4k3/8/8/8/8/8/P7/1N2KN2 w - - 0 1", "none",
	    GAME_POLICY_AUTO);
	refused(&g, GAME_ACT_MOVE, W, "Nd2", false, T0, GAME_EAMBIGUOUS, NULL);
	move_ok(&g, "Nbd2", T0 + HOUR);
	game_free(&g);
}

/* --- clocks --------------------------------------------------------- */

static void
test_tc_per_move(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	start(&g, NULL, "3d/move", GAME_POLICY_AUTO);
	assert_int_equal(game_deadline(&g), T0 + 3 * DAY);
	assert_int_equal(game_time_left(&g, W, T0 + DAY), 2 * DAY);
	assert_int_equal(game_time_left(&g, B, T0 + DAY), 3 * DAY);

	/* One second before the deadline is in time. */
	move_ok(&g, "e4", T0 + 3 * DAY - 1);
	assert_int_equal(game_time_left(&g, W, T0 + 3 * DAY), 3 * DAY);
	assert_int_equal(game_deadline(&g), T0 + 6 * DAY - 1);

	/* The clock starts afresh: Black used only an hour. */
	move_ok(&g, "e5", T0 + 3 * DAY + HOUR);
	assert_int_equal(game_deadline(&g), T0 + 6 * DAY + HOUR);
	assert_int_equal(game_time_left(&g, W, T0 + 4 * DAY + HOUR),
	    2 * DAY);

	/* A move at the deadline is late: White loses on time. */
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "Nf3", false,
	    T0 + 6 * DAY + HOUR, why, sizeof why), GAME_ELATE);
	assert_non_null(strstr(why, "White's time ran out"));
	ended(&g, GAME_RESULT_BLACK, GAME_TERM_TIMEOUT);
	assert_int_equal(g.ended, T0 + 6 * DAY + HOUR);
	assert_int_equal(game_ply(&g), 2);
	assert_int_equal(game_deadline(&g), 0);
	assert_int_equal(game_time_left(&g, W, T0 + 9 * DAY), 0);
	assert_string_equal(game_termination_pgn(g.termination),
	    "time forfeit");
	game_free(&g);
}

static void
test_tc_moves_in(void **state)
{
	struct game	g;

	(void)state;
	/* Two moves in ten days. */
	start(&g, NULL, "2/10d", GAME_POLICY_AUTO);
	assert_int_equal(game_deadline(&g), T0 + 10 * DAY);
	assert_int_equal(game_moves_to_control(&g, W), 2);
	assert_int_equal(game_moves_to_control(&g, B), 2);

	move_ok(&g, "e4", T0 + 3 * DAY);		/* White: 7d left */
	assert_int_equal(game_moves_to_control(&g, W), 1);
	assert_int_equal(game_moves_to_control(&g, B), 2);
	assert_int_equal(g.remaining[W], 7 * DAY);
	assert_int_equal(game_deadline(&g), T0 + 3 * DAY + 10 * DAY);
	move_ok(&g, "e5", T0 + 4 * DAY);		/* Black: 9d left */
	assert_int_equal(g.remaining[B], 9 * DAY);
	assert_int_equal(game_deadline(&g), T0 + 4 * DAY + 7 * DAY);

	/* White's second move completes the period: 7 - 4 + 10 = 13 days,
	 * the unused three carried over. */
	move_ok(&g, "Nf3", T0 + 8 * DAY);
	assert_int_equal(g.remaining[W], 13 * DAY);
	/* The control reached, the next period's two moves to go. */
	assert_int_equal(game_moves_to_control(&g, W), 2);
	assert_int_equal(game_moves_to_control(&g, B), 1);
	move_ok(&g, "Nc6", T0 + 8 * DAY + HOUR);	/* Black: 9d - 1h + 10d */
	assert_int_equal(g.remaining[B], 19 * DAY - HOUR);
	assert_int_equal(game_deadline(&g), T0 + 8 * DAY + HOUR + 13 * DAY);
	assert_int_equal(game_time_left(&g, W, T0 + 9 * DAY + HOUR),
	    12 * DAY);
	assert_int_equal(game_time_left(&g, B, T0 + 9 * DAY + HOUR),
	    19 * DAY - HOUR);

	/* The third move adds nothing. */
	move_ok(&g, "Bb5", T0 + 10 * DAY + HOUR);
	assert_int_equal(g.remaining[W], 11 * DAY);

	/* Black lets the 19 days minus an hour run out. */
	assert_false(game_check_time(&g, T0 + 29 * DAY - 1));
	assert_true(game_ongoing(&g));
	assert_true(game_check_time(&g, T0 + 29 * DAY));
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_TIMEOUT);
	assert_int_equal(g.ended, T0 + 29 * DAY);
	assert_false(game_check_time(&g, T0 + 40 * DAY));
	game_free(&g);
}

static void
test_tc_moves_in_black_first(void **state)
{
	struct game	g;

	(void)state;
	/* From a position with Black to move, Black's periods count
	 * Black's own moves. */
	start(&g, "4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", "2/10d",
	    GAME_POLICY_AUTO);
	move_ok(&g, "a6", T0 + DAY);
	assert_int_equal(g.remaining[B], 9 * DAY);
	assert_int_equal(game_moves_to_control(&g, B), 1);
	assert_int_equal(game_moves_to_control(&g, W), 2);
	move_ok(&g, "a3", T0 + 2 * DAY);
	assert_int_equal(g.remaining[W], 9 * DAY);
	move_ok(&g, "b6", T0 + 3 * DAY);
	assert_int_equal(g.remaining[B], 18 * DAY);
	move_ok(&g, "b3", T0 + 4 * DAY);
	assert_int_equal(g.remaining[W], 18 * DAY);
	game_free(&g);
}

static void
test_tc_clock_backwards(void **state)
{
	struct game	g;

	(void)state;
	/* A time before the turn began counts as its start: no time is
	 * charged, none is gained. */
	start(&g, NULL, "5d+1d", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0 - DAY);
	assert_int_equal(g.remaining[W], 6 * DAY);
	assert_int_equal(g.turn_start, T0);
	assert_int_equal(game_deadline(&g), T0 + 5 * DAY);
	game_free(&g);
}

static void
test_tc_fischer(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "5d+1d", GAME_POLICY_AUTO);
	assert_int_equal(game_deadline(&g), T0 + 5 * DAY);
	move_ok(&g, "e4", T0 + 2 * DAY);		/* 5 - 2 + 1 */
	assert_int_equal(g.remaining[W], 4 * DAY);
	move_ok(&g, "e5", T0 + 3 * DAY);		/* 5 - 1 + 1 */
	assert_int_equal(g.remaining[B], 5 * DAY);
	assert_int_equal(game_deadline(&g), T0 + 7 * DAY);
	move_ok(&g, "Nf3", T0 + 7 * DAY - 1);		/* 1s + 1d */
	assert_int_equal(g.remaining[W], DAY + 1);
	assert_int_equal(game_time_left(&g, W, T0 + 30 * DAY), DAY + 1);
	assert_int_equal(game_time_left(&g, B, T0 + 8 * DAY), 4 * DAY - 1);
	move_ok(&g, "Nc6", T0 + 7 * DAY);		/* 5d - 1s + 1d */
	assert_int_equal(g.remaining[B], 6 * DAY - 1);
	assert_int_equal(game_deadline(&g), T0 + 8 * DAY + 1);
	game_free(&g);
}

static void
test_tc_late_draw(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	/* White's flag falls; Black has a lone king and cannot mate. */
	start(&g, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "1d/move",
	    GAME_POLICY_AUTO);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "e4", false, T0 + 2 * DAY,
	    why, sizeof why), GAME_ELATE);
	ended(&g, GAME_RESULT_DRAW, GAME_TERM_TIMEOUT_DRAW);
	assert_int_equal(g.ended, T0 + DAY);
	assert_int_equal(game_ply(&g), 0);
	game_free(&g);

	/* Black's flag falls; White can still mate with the pawn. */
	start(&g, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "1d/move",
	    GAME_POLICY_AUTO);
	assert_true(game_check_time(&g, T0 + DAY));
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_TIMEOUT);
	game_free(&g);
}

static void
test_tc_flag_before_action(void **state)
{
	struct game	g;
	char		why[256];

	(void)state;
	/* Black resigns after White's flag fell: the flag wins. */
	start(&g, NULL, "1d/move", GAME_POLICY_AUTO);
	assert_int_equal(act(&g, GAME_ACT_RESIGN, B, NULL, false,
	    T0 + DAY + HOUR, why, sizeof why), GAME_ELATE);
	ended(&g, GAME_RESULT_BLACK, GAME_TERM_TIMEOUT);
	assert_int_equal(g.ended, T0 + DAY);
	game_free(&g);

	/* A claim or a decline does not stop the clock either. */
	start(&g, NULL, "1d/move", GAME_POLICY_CLAIM);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "e4", true, T0 + HOUR,
	    why, sizeof why), GAME_OK);
	assert_int_equal(act(&g, GAME_ACT_DECLINE_DRAW, B, NULL, false,
	    T0 + 2 * HOUR, why, sizeof why), GAME_OK);
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, B, NULL, false,
	    T0 + 3 * HOUR, why, sizeof why), GAME_EBAD_CLAIM);
	assert_int_equal(game_deadline(&g), T0 + HOUR + DAY);
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "e5", false,
	    T0 + HOUR + DAY, why, sizeof why), GAME_ELATE);
	ended(&g, GAME_RESULT_WHITE, GAME_TERM_TIMEOUT);
	game_free(&g);
}

static void
test_tc_none(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	assert_int_equal(game_time_left(&g, W, T0 + 1000 * DAY), -1);
	assert_int_equal(game_deadline(&g), 0);
	assert_false(game_check_time(&g, T0 + 1000 * DAY));
	move_ok(&g, "e4", T0 + 1000 * DAY);
	assert_true(game_ongoing(&g));
	game_free(&g);
}

static void
test_time_left_never_negative(void **state)
{
	struct game	g;

	(void)state;
	start(&g, NULL, "12h/move", GAME_POLICY_AUTO);
	assert_int_equal(game_time_left(&g, W, T0 - DAY), 12 * HOUR);
	assert_int_equal(game_time_left(&g, W, T0 + 11 * HOUR), HOUR);
	assert_int_equal(game_time_left(&g, W, T0 + 5 * DAY), 0);
	/* Not flagged until someone looks. */
	assert_true(game_ongoing(&g));
	game_free(&g);
}

/* --- time-control text ---------------------------------------------- */

static void
test_tc_text(void **state)
{
	static const struct {
		const char	*in, *out;
		enum game_tc_kind kind;
		int64_t		 base, inc;
		int		 moves;
	} ok[] = {
		{ "none", "none", GAME_TC_NONE, 0, 0, 0 },
		{ "3d/move", "3d/move", GAME_TC_PER_MOVE, 3 * DAY, 0, 0 },
		{ "12h/move", "12h/move", GAME_TC_PER_MOVE, 12 * HOUR, 0, 0 },
		{ "48h/move", "2d/move", GAME_TC_PER_MOVE, 2 * DAY, 0, 0 },
		{ "10/50d", "10/50d", GAME_TC_MOVES_IN, 50 * DAY, 0, 10 },
		{ "1/36h", "1/36h", GAME_TC_MOVES_IN, 36 * HOUR, 0, 1 },
		{ "30d+1d", "30d+1d", GAME_TC_FISCHER, 30 * DAY, DAY, 0 },
		{ "30d+12h", "30d+12h", GAME_TC_FISCHER, 30 * DAY, 12 * HOUR,
		  0 },
		{ "10d+0d", "10d+0d", GAME_TC_FISCHER, 10 * DAY, 0, 0 },
		{ "3650d/move", "3650d/move", GAME_TC_PER_MOVE, 3650 * DAY,
		  0, 0 },
	};
	static const char *const bad[] = {
		"", "0d/move", "0h/move", "0/50d", "10/0d", "0d+1d",
		"garbage", "3/move", "3d", "3 days", "3d/move x", "-3d/move",
		"10/50", "/50d", "30d+", "30d+1", "+1d", "3x/move", "nonee",
		"3651d/move", "99999999999999999999d/move",
		"10/99999999999999999999d", "99999999999999999999/50d",
		"1001/50d", "30d+99999999999999999999d",
	};
	struct game_tc	tc, back;
	char		buf[GAME_TC_MAX], why[256];
	size_t		i, n;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		if (game_tc_parse(&tc, ok[i].in, why, sizeof why) != 0)
			fail_msg("%s: %s", ok[i].in, why);
		assert_int_equal(tc.kind, ok[i].kind);
		assert_int_equal(tc.base, ok[i].base);
		assert_int_equal(tc.inc, ok[i].inc);
		assert_int_equal(tc.moves, ok[i].moves);
		n = game_tc_format(&tc, buf, sizeof buf);
		assert_int_equal(n, strlen(ok[i].out));
		assert_string_equal(buf, ok[i].out);
		assert_int_equal(game_tc_parse(&back, buf, why, sizeof why), 0);
		assert_int_equal(back.kind, tc.kind);
		assert_int_equal(back.base, tc.base);
		assert_int_equal(back.inc, tc.inc);
		assert_int_equal(back.moves, tc.moves);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		tc.kind = GAME_TC_FISCHER;
		if (game_tc_parse(&tc, bad[i], why, sizeof why) == 0)
			fail_msg("\"%s\" accepted", bad[i]);
		assert_true(why[0] != '\0');
		assert_int_equal(tc.kind, GAME_TC_FISCHER);	/* untouched */
	}
	assert_int_equal(game_tc_parse(&tc, "0d/move", why, sizeof why), -1);
	assert_non_null(strstr(why, "zero days"));
	assert_int_equal(game_tc_parse(&tc, "3651d/move", why, sizeof why),
	    -1);
	assert_non_null(strstr(why, "too long"));
	assert_int_equal(game_tc_parse(&tc, "3 days", why, sizeof why), -1);
	assert_non_null(strstr(why, "not a time control"));

	/* Odd seconds survive a round trip. */
	tc.kind = GAME_TC_FISCHER;
	tc.base = 90;
	tc.inc = 3600;
	tc.moves = 0;
	game_tc_format(&tc, buf, sizeof buf);
	assert_string_equal(buf, "90s+1h");
	assert_int_equal(game_tc_parse(&back, buf, why, sizeof why), 0);
	assert_int_equal(back.base, 90);
	assert_int_equal(back.inc, 3600);
}

/* --- refusals in words ---------------------------------------------- */

/* Apply an action in `lang` that must be refused with `want` and exactly
 * the sentence `text`; a refused action (not a late one) changes nothing. */
static void
refused_text(struct game *g, enum chess_lang lang,
    enum game_action_kind kind, int color, const char *move, int64_t at,
    enum game_refusal want, const char *text)
{
	struct game_action	a;
	struct snap		s;
	char			why[256] = "";
	enum game_refusal	r;

	snap_take(g, &s);
	memset(&a, 0, sizeof a);
	a.kind = kind;
	a.color = color;
	a.move = move;
	a.lang = lang;
	a.at = at;
	r = game_apply(g, &a, why, sizeof why);
	if (r != want)
		fail_msg("want %s, got %s (%s)", game_refusal_code(want),
		    game_refusal_code(r), why);
	if (strcmp(why, text) != 0)
		fail_msg("reason \"%s\", expected \"%s\"", why, text);
	if (want != GAME_ELATE)
		snap_check(g, &s);
}

/* Each refusal of the state machine, word for word, in English and in
 * French. */
static void
test_refusal_words(void **state)
{
	struct game	g;
	const char	*en = NULL, *fr = NULL;
	int		 l;

	(void)state;
	start(&g, NULL, "none", GAME_POLICY_CLAIM);

	/* Not your turn; claims are the side to move's. */
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, B, "e5", T0,
	    GAME_ETURN, "it is White's move");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, B, "e5", T0,
	    GAME_ETURN, "c'est aux Blancs de jouer");
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_CLAIM_DRAW, B, NULL, T0,
	    GAME_ETURN, "only the player to move may claim a draw: it is "
	    "White's move");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_CLAIM_DRAW, B, NULL, T0,
	    GAME_ETURN, "seul le joueur au trait peut réclamer la nulle : "
	    "c'est aux Blancs de jouer");
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, 2, "e4", T0,
	    GAME_ETURN, "no such player colour");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, 2, "e4", T0,
	    GAME_ETURN, "couleur de joueur inconnue");

	/* The move text: none, not a move, illegal (the rules core's
	 * sentence, in the action's language). */
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, W, NULL, T0,
	    GAME_ESYNTAX, "no move given");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "", T0,
	    GAME_ESYNTAX, "aucun coup n'est indiqué");
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, W, "Xc3", T0,
	    GAME_ESYNTAX, "not a move (try SAN like Nf3, or e2e4, e2-e4, "
	    "5254)");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "Xc3", T0,
	    GAME_ESYNTAX, "ce n'est pas un coup (essayez la notation "
	    "algébrique : Cf3, e2e4, e2-e4, 5254)");
	/* A move in the other language's letters: said, with the move in
	 * the player's. */
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, W, "Cc3", T0,
	    GAME_ESYNTAX, "Cc3 is a move in French letters; your language "
	    "on this server is English: write Nc3 (or change to French: "
	    "corrchess settings lang fr)");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "Nc3", T0,
	    GAME_ESYNTAX, "Nc3 est un coup en lettres anglaises ; votre "
	    "langue sur ce serveur est le français : écrivez Cc3 (ou passez "
	    "à l'anglais : corrchess settings lang en)");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "Ce5", T0,
	    GAME_EILLEGAL, "aucun cavalier blanc ne peut aller en e5");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "Ce2", T0,
	    GAME_EILLEGAL, "les Blancs ont déjà un pion en e2");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_CLAIM_DRAW, W, "Ce5", T0,
	    GAME_EILLEGAL, "aucun cavalier blanc ne peut aller en e5");

	/* Draw offers. */
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_ACCEPT_DRAW, W, NULL, T0,
	    GAME_ENO_OFFER, "no draw offer to accept");
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_DECLINE_DRAW, W, NULL, T0,
	    GAME_ENO_OFFER, "no draw offer to decline");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_ACCEPT_DRAW, W, NULL, T0,
	    GAME_ENO_OFFER, "aucune proposition de nulle à accepter");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_DECLINE_DRAW, W, NULL, T0,
	    GAME_ENO_OFFER, "aucune proposition de nulle à refuser");
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, "e4", true, T0 + HOUR,
	    NULL, 0), GAME_OK);
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_ACCEPT_DRAW, W, NULL,
	    T0 + HOUR, GAME_ENO_OFFER, "the draw offer is your own: it awaits "
	    "Black's answer");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_ACCEPT_DRAW, W, NULL,
	    T0 + HOUR, GAME_ENO_OFFER, "la proposition de nulle est la vôtre : "
	    "elle attend la réponse des Noirs");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, W, "d4", T0 + HOUR,
	    GAME_ETURN, "c'est aux Noirs de jouer");

	/* Claims that do not hold, on the position and after a move. */
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_CLAIM_DRAW, B, NULL,
	    T0 + HOUR, GAME_EBAD_CLAIM, "no threefold repetition: the "
	    "position has occurred once; no fifty-move rule: 0 half-moves "
	    "without a capture or pawn move, 100 are needed");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_CLAIM_DRAW, B, NULL,
	    T0 + HOUR, GAME_EBAD_CLAIM, "pas de triple répétition : la "
	    "position est apparue une fois ; pas de règle des cinquante "
	    "coups : 0 demi-coup sans prise ni coup de pion, il en faut 100");
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_CLAIM_DRAW, B, "Nf6",
	    T0 + HOUR, GAME_EBAD_CLAIM, "after Nf6, no threefold repetition: "
	    "the position would have occurred once; no fifty-move rule: 1 "
	    "half-move without a capture or pawn move, 100 are needed");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_CLAIM_DRAW, B, "Cf6",
	    T0 + HOUR, GAME_EBAD_CLAIM, "après Cf6, pas de triple "
	    "répétition : la position serait apparue une fois ; pas de règle "
	    "des cinquante coups : 1 demi-coup sans prise ni coup de pion, il "
	    "en faut 100");
	moves_ok(&g, (const char *const[]){ "Nf6", "Nf3", "Ng8", "Ng1",
	    "Nf6", "Nf3", NULL }, T0 + 2 * HOUR);
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_CLAIM_DRAW, B, "Cg8",
	    T0 + 9 * HOUR, GAME_EBAD_CLAIM, "après Cg8, pas de triple "
	    "répétition : la position serait apparue deux fois ; pas de "
	    "règle des cinquante coups : 7 demi-coups sans prise ni coup de "
	    "pion, il en faut 100");

	/* Unknown action. */
	refused_text(&g, CHESS_LANG_EN, (enum game_action_kind)99, B, NULL,
	    T0 + 9 * HOUR, GAME_ESYNTAX, "unknown action");
	refused_text(&g, CHESS_LANG_FR, (enum game_action_kind)99, B, NULL,
	    T0 + 9 * HOUR, GAME_ESYNTAX, "action inconnue");

	/* Over: the termination in words in French, its API name in
	 * English. */
	assert_int_equal(act(&g, GAME_ACT_RESIGN, B, NULL, false,
	    T0 + 10 * HOUR, NULL, 0), GAME_OK);
	refused_text(&g, CHESS_LANG_EN, GAME_ACT_MOVE, B, "Ng8",
	    T0 + 10 * HOUR, GAME_EOVER, "the game is over (1-0, resignation)");
	refused_text(&g, CHESS_LANG_FR, GAME_ACT_MOVE, B, "Cg8",
	    T0 + 10 * HOUR, GAME_EOVER, "la partie est terminée (1-0, "
	    "abandon)");
	game_free(&g);

	/* Too late: the game ends on time, in either language. */
	for (l = CHESS_LANG_EN; l <= CHESS_LANG_FR; l++) {
		start(&g, NULL, "1d/move", GAME_POLICY_CLAIM);
		en = "White's time ran out: the game is over (0-1, timeout)";
		fr = "le temps des Blancs est écoulé : la partie est terminée "
		    "(0-1, perte au temps)";
		refused_text(&g, (enum chess_lang)l, GAME_ACT_MOVE, W, "e4",
		    T0 + 2 * DAY, GAME_ELATE, l == CHESS_LANG_FR ? fr : en);
		ended(&g, GAME_RESULT_BLACK, GAME_TERM_TIMEOUT);
		refused_text(&g, (enum chess_lang)l, GAME_ACT_MOVE, W, "e4",
		    T0 + 2 * DAY, GAME_EOVER, l == CHESS_LANG_FR ?
		    "la partie est terminée (0-1, perte au temps)" :
		    "the game is over (0-1, timeout)");
		game_free(&g);
	}
}

/* Time controls for people, in both languages. */
static void
test_tc_words(void **state)
{
	static const struct {
		const char	*tc;
		const char	*en;
		const char	*fr;
	} t[] = {
		{ "3d/move", "3 days per move", "3 jours par coup" },
		{ "1d/move", "1 day per move", "1 jour par coup" },
		{ "48h/move", "2 days per move", "2 jours par coup" },
		{ "12h/move", "12 hours per move", "12 heures par coup" },
		{ "1h/move", "1 hour per move", "1 heure par coup" },
		{ "1s/move", "1 second per move", "1 seconde par coup" },
		{ "10/50d", "10 moves in 50 days", "10 coups en 50 jours" },
		{ "1/3d", "1 move in 3 days", "1 coup en 3 jours" },
		{ "30d+1d", "30 days + 1 day per move",
		  "30 jours + 1 jour par coup" },
		{ "90s+1h", "90 seconds + 1 hour per move",
		  "90 secondes + 1 heure par coup" },
		{ "10d+0d", "10 days for the whole game",
		  "10 jours pour toute la partie" },
		{ "none", "no clock", "sans pendule" },
	};
	struct game_tc	tc;
	char		buf[GAME_TC_TEXT_MAX], why[256];
	size_t		i, n;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (game_tc_parse(&tc, t[i].tc, why, sizeof why) != 0)
			fail_msg("%s: %s", t[i].tc, why);
		n = game_tc_text(&tc, CHESS_LANG_EN, buf, sizeof buf);
		assert_string_equal(buf, t[i].en);
		assert_int_equal(n, strlen(t[i].en));
		n = game_tc_text(&tc, CHESS_LANG_FR, buf, sizeof buf);
		assert_string_equal(buf, t[i].fr);
		assert_int_equal(n, strlen(t[i].fr));
	}
	/* The longest fits. */
	assert_int_equal(game_tc_parse(&tc, "3650d+3650d", why, sizeof why),
	    0);
	assert_true(game_tc_text(&tc, CHESS_LANG_FR, buf, sizeof buf) <
	    GAME_TC_TEXT_MAX);
	assert_int_equal(game_tc_parse(&tc, "1000/3650d", why, sizeof why),
	    0);
	assert_true(game_tc_text(&tc, CHESS_LANG_EN, buf, sizeof buf) <
	    GAME_TC_TEXT_MAX);
	/* Terminations for people. */
	assert_string_equal(game_termination_text(GAME_TERM_CHECKMATE,
	    CHESS_LANG_FR), "échec et mat");
	assert_string_equal(game_termination_text(GAME_TERM_AGREEMENT,
	    CHESS_LANG_EN), "draw by agreement");
	assert_string_equal(game_termination_text(GAME_TERM_NONE,
	    CHESS_LANG_FR), "");
	assert_string_equal(game_termination_text((enum game_termination)99,
	    CHESS_LANG_EN), "");
}

static void
test_names(void **state)
{
	enum game_policy	p;

	(void)state;
	assert_string_equal(game_result_name(GAME_RESULT_NONE), "*");
	assert_string_equal(game_result_name(GAME_RESULT_WHITE), "1-0");
	assert_string_equal(game_result_name(GAME_RESULT_BLACK), "0-1");
	assert_string_equal(game_result_name(GAME_RESULT_DRAW), "1/2-1/2");
	assert_string_equal(game_termination_name(GAME_TERM_NONE), "");
	assert_string_equal(game_termination_name(GAME_TERM_TIMEOUT_DRAW),
	    "timeout-insufficient");
	assert_string_equal(game_termination_name(GAME_TERM_INSUFFICIENT),
	    "insufficient-material");
	assert_string_equal(game_refusal_code(GAME_ETURN), "not-your-turn");
	assert_string_equal(game_refusal_code(GAME_EBAD_CLAIM), "bad-claim");
	assert_string_equal(game_refusal_code(GAME_ENOMEM), "internal");
	assert_string_equal(game_termination_pgn(GAME_TERM_NONE),
	    "unterminated");
	assert_int_equal(game_policy_parse("claim", &p), 0);
	assert_int_equal(p, GAME_POLICY_CLAIM);
	assert_string_equal(game_policy_name(p), "claim");
	assert_int_equal(game_policy_parse("auto", &p), 0);
	assert_int_equal(p, GAME_POLICY_AUTO);
	assert_int_equal(game_policy_parse("sometimes", &p), -1);
}

/* --- replay --------------------------------------------------------- */

static void
test_replay(void **state)
{
	static const struct {
		enum game_action_kind	 kind;
		int			 color;
		const char		*move;
		bool			 offer;
		int64_t			 at;
		enum game_refusal	 want;
	} script[] = {
		{ GAME_ACT_MOVE, W, "e4", false, T0 + DAY, GAME_OK },
		{ GAME_ACT_MOVE, B, "c5", true, T0 + 2 * DAY, GAME_OK },
		{ GAME_ACT_DECLINE_DRAW, W, NULL, false, T0 + 3 * DAY,
		  GAME_OK },
		{ GAME_ACT_MOVE, W, "Nf3", false, T0 + 4 * DAY, GAME_OK },
		{ GAME_ACT_MOVE, B, "d6", false, T0 + 4 * DAY + HOUR,
		  GAME_OK },
		{ GAME_ACT_MOVE, W, "d4", true, T0 + 5 * DAY, GAME_OK },
		{ GAME_ACT_MOVE, B, "cxd4", false, T0 + 9 * DAY, GAME_OK },
		{ GAME_ACT_MOVE, W, "Nxd4", false, T0 + 10 * DAY, GAME_OK },
		{ GAME_ACT_MOVE, B, "Nf6", true, T0 + 11 * DAY, GAME_OK },
		{ GAME_ACT_ACCEPT_DRAW, W, NULL, false, T0 + 12 * DAY,
		  GAME_OK },
	};
	struct game	inc, re;
	char		why[256];
	size_t		i;

	(void)state;
	/* Built incrementally, with refused actions in between. */
	start(&inc, NULL, "2/10d", GAME_POLICY_CLAIM);
	for (i = 0; i < sizeof script / sizeof script[0]; i++) {
		refused(&inc, GAME_ACT_MOVE, !game_turn(&inc), "a6", false,
		    script[i].at, GAME_ETURN, NULL);
		refused(&inc, GAME_ACT_MOVE, game_turn(&inc), "Ke3", false,
		    script[i].at, GAME_EILLEGAL, NULL);
		if (act(&inc, script[i].kind, script[i].color, script[i].move,
		    script[i].offer, script[i].at, why, sizeof why) !=
		    script[i].want)
			fail_msg("step %zu: %s", i, why);
	}
	ended(&inc, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT);

	/* Rebuilt from the accepted actions only. */
	start(&re, NULL, "2/10d", GAME_POLICY_CLAIM);
	for (i = 0; i < sizeof script / sizeof script[0]; i++)
		assert_int_equal(act(&re, script[i].kind, script[i].color,
		    script[i].move, script[i].offer, script[i].at, why,
		    sizeof why), GAME_OK);

	assert_int_equal(re.result, inc.result);
	assert_int_equal(re.termination, inc.termination);
	assert_int_equal(re.draw_offer, inc.draw_offer);
	assert_int_equal(re.turn_start, inc.turn_start);
	assert_int_equal(re.remaining[W], inc.remaining[W]);
	assert_int_equal(re.remaining[B], inc.remaining[B]);
	assert_int_equal(re.ended, inc.ended);
	assert_int_equal(re.chess.nply, inc.chess.nply);
	assert_memory_equal(re.chess.moves, inc.chess.moves,
	    inc.chess.nply * sizeof inc.chess.moves[0]);
	assert_memory_equal(re.chess.keys, inc.chess.keys,
	    (inc.chess.nply + 1) * sizeof inc.chess.keys[0]);
	assert_int_equal(re.chess.pos.key, inc.chess.pos.key);
	game_free(&inc);
	game_free(&re);
}

/* Check lines for `color` and return the refusal's sentence ("" if none). */
static int
cond_check(const struct game *g, int color, const char *lines,
    enum chess_lang lang, struct game_cond *c, char *why, size_t whysize)
{
	why[0] = '\0';
	return game_cond_check(g, color, lines, lang, c, why, whysize);
}

/* A tree of lines: checked, kept as SAN, read back, answered move by
 * move. */
static void
test_cond_tree(void **state)
{
	static const char played[4][CHESS_SAN_MAX] = { "e5", "Nf3", "Nf6",
	    "Nxe5" };
	static const char other[1][CHESS_SAN_MAX] = { "d5" };
	struct game_cond	*c = calloc(2, sizeof *c);
	struct game		 g;
	char			 why[256], text[512];

	(void)state;
	assert_non_null(c);
	start(&g, NULL, "3d/move", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0 + HOUR);
	/* White waits for Black: White's tree, moves in any notation. */
	if (cond_check(&g, W, "e5 Ng1-f3 Nc6 f1b5; e5 Nf3 Nf6 Nxe5; c5 g1f3",
	    CHESS_LANG_EN, &c[0], why, sizeof why) != 0)
		fail_msg("%s", why);
	assert_int_equal(c[0].nlines, 3);
	game_cond_format(&c[0], text, sizeof text);
	assert_string_equal(text, "e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5; c5 Nf3");
	assert_int_equal(game_cond_read(&c[1], text), 0);
	assert_memory_equal(&c[0], &c[1], sizeof c[0]);

	/* The answers: to e5 Nf3, then on each branch. */
	assert_string_equal(game_cond_reply(c, played, 1), "Nf3");
	assert_int_equal(game_cond_left(c, played, 1), 2);
	assert_string_equal(game_cond_reply(c, played, 3), "Nxe5");
	assert_int_equal(game_cond_left(c, played, 3), 1);
	assert_int_equal(game_cond_left(c, played, 4), 0);
	assert_null(game_cond_reply(c, played, 2));
	assert_null(game_cond_reply(c, other, 1));
	assert_int_equal(game_cond_left(c, other, 1), 0);

	/* French: C is the knight, F the bishop. */
	assert_int_equal(cond_check(&g, W, "e5 Cf3 Cc6 Fb5", CHESS_LANG_FR,
	    &c[1], why, sizeof why), 0);
	game_cond_format(&c[1], text, sizeof text);
	assert_string_equal(text, "e5 Nf3 Nc6 Bb5");
	/* The lines do not touch the game. */
	assert_int_equal(game_ply(&g), 1);
	game_free(&g);
	free(c);
}

/* Each refused tree names its line and its move. */
static void
test_cond_refused(void **state)
{
	static const struct {
		int		 color;
		const char	*lines;
		const char	*why;
	} bad[] = {
		{ W, "e5 Nf3; e5 d4", "lines 1 and 2 answer e5 in two ways "
		    "(Nf3, d4)" },
		{ W, "e5 Nf3 Nc6 Bb5; c5 Nf3; e5 Nf3 Nc6 Bc4",
		    "lines 1 and 3 answer Nc6 in two ways (Bb5, Bc4)" },
		{ W, "e5 Nf3 Nc6 Ke3", "line 1, half-move 4, Ke3 (yours)" },
		{ W, "e5 Nf3; e4 d4", "line 2, half-move 1, e4 (the "
		    "opponent's)" },
		{ W, "e5 Nf3 Nc6", "line 1 ends with the opponent's move Nc6: "
		    "add your answer" },
		{ W, "e5 Nf3; c5 zz9", "line 2, half-move 2, zz9" },
		{ B, "Nf3 Nf6", "it is your move" },
	};
	struct game_cond	*c = calloc(1, sizeof *c);
	struct game		 g;
	char			 why[256];
	size_t			 i;

	(void)state;
	assert_non_null(c);
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (cond_check(&g, bad[i].color, bad[i].lines, CHESS_LANG_EN,
		    c, why, sizeof why) == 0)
			fail_msg("'%s' accepted", bad[i].lines);
		if (strstr(why, bad[i].why) == NULL)
			fail_msg("'%s': '%s' does not say '%s'", bad[i].lines,
			    why, bad[i].why);
	}
	/* In French too, the moves in French letters. */
	assert_int_equal(cond_check(&g, W, "e5 Cf3; e5 d4", CHESS_LANG_FR, c,
	    why, sizeof why), -1);
	assert_non_null(strstr(why, "les lignes 1 et 2"));
	assert_int_equal(cond_check(&g, W, "e5 Cf3 Cc6 Fb5; c5 Cf3; "
	    "e5 Cf3 Cc6 Fc4", CHESS_LANG_FR, c, why, sizeof why), -1);
	if (strstr(why, "répondent à Cc6 de deux façons (Fb5, Fc4)") == NULL)
		fail_msg("'%s'", why);
	game_free(&g);
	free(c);
}

/* A conditional's stored reasons in the reader's language, the moves in
 * its letters; an unknown one as it is. */
static void
test_cond_reason_lang(void **state)
{
	static const char *const r[][2] = {
		{ "replaced by a new conditional",
		  "remplacés par de nouveaux coups conditionnels" },
		{ "cancelled by the player", "annulés par le joueur" },
		{ "the game ended", "la partie est finie" },
		{ "every move of it was played",
		  "tous leurs coups ont été joués" },
		{ "the opponent offers a draw with the move: the answer is "
		  "yours to choose", "l'adversaire propose la nulle avec son "
		  "coup : la réponse vous revient" },
		{ "no line of it goes on after your move Nxe5",
		  "aucune de leurs lignes ne continue après votre coup Cxe5" },
		{ "the opponent played Qh5+, which none of its lines has",
		  "l'adversaire a joué Dh5+, qu'aucune de leurs lignes ne "
		  "prévoit" },
		{ "its move O-O could not be played: illegal move: the king "
		  "is in check", "leur coup O-O n'a pas pu être joué : "
		  "illegal move: the king is in check" },
		{ "the game endedX", "the game endedX" },
		{ "something new", "something new" },
	};
	char	buf[256];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof r / sizeof r[0]; i++) {
		game_cond_reason_lang(r[i][0], CHESS_LANG_FR, buf, sizeof buf);
		assert_string_equal(buf, r[i][1]);
		game_cond_reason_lang(r[i][0], CHESS_LANG_EN, buf, sizeof buf);
		assert_string_equal(buf, r[i][0]);
	}
	/* Cut to the buffer, the full length returned. */
	assert_int_equal(game_cond_reason_lang(r[1][0], CHESS_LANG_FR, buf,
	    9), strlen(r[1][1]));
	assert_string_equal(buf, "annulés");
}

/* A line may end the game with the player's answer, not go on after. */
static void
test_cond_game_end(void **state)
{
	static const char played[1][CHESS_SAN_MAX] = { "g4" };
	struct game_cond	*c = calloc(1, sizeof *c);
	struct game		 g;
	const char		*reply;
	char			 why[256];

	(void)state;
	assert_non_null(c);
	start(&g, NULL, "none", GAME_POLICY_AUTO);
	move_ok(&g, "f3", T0);
	move_ok(&g, "e5", T0);
	assert_int_equal(cond_check(&g, B, "g4 Qh4# a3 a6", CHESS_LANG_EN, c,
	    why, sizeof why), -1);
	assert_non_null(strstr(why, "line 1: the game is over after Qh4#, "
	    "so a3 cannot follow"));
	if (cond_check(&g, B, "g4 Qh4#; d4 Bb4+", CHESS_LANG_EN, c, why,
	    sizeof why) != 0)
		fail_msg("%s", why);
	/* White plays into it: the answer mates. */
	move_ok(&g, "g4", T0 + HOUR);
	reply = game_cond_reply(c, played, 1);
	assert_string_equal(reply, "Qh4#");
	move_ok(&g, reply, T0 + HOUR);
	assert_int_equal(g.termination, GAME_TERM_CHECKMATE);
	assert_int_equal(g.result, GAME_RESULT_BLACK);
	game_free(&g);
	free(c);
}

/* A claim or a fallen flag ends the game: the answer cannot be played. */
static void
test_cond_claim_timeout(void **state)
{
	static const char *const dance[] = { "Nf3", "Nf6", "Ng1", "Ng8",
	    "Nf3", "Nf6", "Ng1", NULL };
	static const char claimed[1][CHESS_SAN_MAX] = { "Ng8" };
	static const char late[1][CHESS_SAN_MAX] = { "e5" };
	struct game_cond	*c = calloc(1, sizeof *c);
	struct game		 g;
	const char		*reply;
	char			 why[256];

	(void)state;
	assert_non_null(c);
	/* Black claims the threefold with the move White's line expects. */
	start(&g, NULL, "none", GAME_POLICY_CLAIM);
	moves_ok(&g, dance, T0);
	assert_int_equal(cond_check(&g, W, "Ng8 Nf3", CHESS_LANG_EN, c, why,
	    sizeof why), 0);
	assert_int_equal(act(&g, GAME_ACT_CLAIM_DRAW, B, "Ng8", false,
	    T0 + DAY, why, sizeof why), GAME_OK);
	assert_int_equal(g.termination, GAME_TERM_THREEFOLD);
	reply = game_cond_reply(c, claimed, 1);
	assert_string_equal(reply, "Nf3");
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, reply, false, T0 + DAY,
	    why, sizeof why), GAME_EOVER);
	game_free(&g);

	/* Black's move comes after Black's flag fell. */
	start(&g, NULL, "1d/move", GAME_POLICY_AUTO);
	move_ok(&g, "e4", T0);
	assert_int_equal(cond_check(&g, W, "e5 Nf3", CHESS_LANG_EN, c, why,
	    sizeof why), 0);
	assert_int_equal(act(&g, GAME_ACT_MOVE, B, "e5", false, T0 + 2 * DAY,
	    why, sizeof why), GAME_ELATE);
	reply = game_cond_reply(c, late, 1);
	assert_int_equal(act(&g, GAME_ACT_MOVE, W, reply, false, T0 + 2 * DAY,
	    why, sizeof why), GAME_EOVER);
	assert_int_equal(g.termination, GAME_TERM_TIMEOUT);
	/* And a finished game takes no conditional. */
	assert_int_equal(cond_check(&g, W, "e5 Nf3", CHESS_LANG_EN, c, why,
	    sizeof why), -1);
	assert_string_equal(why, "the game is over");
	game_free(&g);
	free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checkmate),
		cmocka_unit_test(test_stalemate),
		cmocka_unit_test(test_dead_position),
		cmocka_unit_test(test_fivefold),
		cmocka_unit_test(test_seventy_five),
		cmocka_unit_test(test_start_position_over),
		cmocka_unit_test(test_threefold_auto),
		cmocka_unit_test(test_threefold_claim),
		cmocka_unit_test(test_threefold_claim_with_move),
		cmocka_unit_test(test_fifty_auto),
		cmocka_unit_test(test_fifty_claim),
		cmocka_unit_test(test_draw_offer_accepted),
		cmocka_unit_test(test_draw_offer_declined),
		cmocka_unit_test(test_draw_rules),
		cmocka_unit_test(test_draw_rules_fr),
		cmocka_unit_test(test_draw_offer_implicit_decline),
		cmocka_unit_test(test_offer_wrong_side),
		cmocka_unit_test(test_resign),
		cmocka_unit_test(test_admin_end),
		cmocka_unit_test(test_turn_and_moves),
		cmocka_unit_test(test_tc_per_move),
		cmocka_unit_test(test_tc_moves_in),
		cmocka_unit_test(test_tc_moves_in_black_first),
		cmocka_unit_test(test_tc_clock_backwards),
		cmocka_unit_test(test_tc_fischer),
		cmocka_unit_test(test_tc_late_draw),
		cmocka_unit_test(test_tc_flag_before_action),
		cmocka_unit_test(test_tc_none),
		cmocka_unit_test(test_time_left_never_negative),
		cmocka_unit_test(test_tc_text),
		cmocka_unit_test(test_tc_words),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_refusal_words),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_cond_tree),
		cmocka_unit_test(test_cond_refused),
		cmocka_unit_test(test_cond_reason_lang),
		cmocka_unit_test(test_cond_game_end),
		cmocka_unit_test(test_cond_claim_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
