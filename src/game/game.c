/*
 * game/game.c: the correspondence game state machine.
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
 * The correspondence game state machine: moves, draw offers, claims,
 * resignations, clocks and results on top of the rules core. No I/O: the
 * time of every event comes from the caller. The reasons of refusals are
 * written in the language of the action (English, or French with its
 * typography: a space before ':' and ';').
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"

/* Longest time we accept in a time control: ten years. */
#define TC_LIMIT	((int64_t)3650 * GAME_DAY)

/* Most moves per period in an "N moves in D days" control. */
#define TC_MOVES_MAX	1000

static const char *const color_names[2] = { "White", "Black" };

/* French sides, after "aux", "des" or "les": "c'est aux Blancs de jouer". */
static const char *const fr_sides[2] = { "Blancs", "Noirs" };

static const char *const result_names[] = {
	[GAME_RESULT_NONE] = "*",
	[GAME_RESULT_WHITE] = "1-0",
	[GAME_RESULT_BLACK] = "0-1",
	[GAME_RESULT_DRAW] = "1/2-1/2",
};

static const char *const termination_names[] = {
	[GAME_TERM_NONE] = "",
	[GAME_TERM_CHECKMATE] = "checkmate",
	[GAME_TERM_RESIGNATION] = "resignation",
	[GAME_TERM_AGREEMENT] = "agreement",
	[GAME_TERM_STALEMATE] = "stalemate",
	[GAME_TERM_INSUFFICIENT] = "insufficient-material",
	[GAME_TERM_THREEFOLD] = "threefold-repetition",
	[GAME_TERM_FIFTY] = "fifty-moves",
	[GAME_TERM_FIVEFOLD] = "fivefold-repetition",
	[GAME_TERM_SEVENTYFIVE] = "seventy-five-moves",
	[GAME_TERM_TIMEOUT] = "timeout",
	[GAME_TERM_TIMEOUT_DRAW] = "timeout-insufficient",
	[GAME_TERM_ABORTED] = "aborted",
	[GAME_TERM_ADJUDICATED] = "adjudication",
};

static const char *const refusal_codes[] = {
	[GAME_OK] = "ok",
	[GAME_EOVER] = "game-over",
	[GAME_ETURN] = "not-your-turn",
	[GAME_EILLEGAL] = "illegal-move",
	[GAME_EAMBIGUOUS] = "ambiguous-move",
	[GAME_ESYNTAX] = "bad-move",
	[GAME_ELATE] = "late-move",
	[GAME_ENO_OFFER] = "no-draw-offer",
	[GAME_EBAD_CLAIM] = "bad-claim",
	[GAME_EDRAW_RULE] = "draw-rule",
	[GAME_ENOMEM] = "internal",
};

/* Terminations for people, by enum chess_lang. */
static const char *const termination_texts[][2] = {
	[GAME_TERM_NONE] = { "", "" },
	[GAME_TERM_CHECKMATE] = { "checkmate", "échec et mat" },
	[GAME_TERM_RESIGNATION] = { "resignation", "abandon" },
	[GAME_TERM_AGREEMENT] = { "draw by agreement",
	    "nulle par accord mutuel" },
	[GAME_TERM_STALEMATE] = { "stalemate", "pat" },
	[GAME_TERM_INSUFFICIENT] = { "insufficient material",
	    "matériel insuffisant" },
	[GAME_TERM_THREEFOLD] = { "threefold repetition",
	    "triple répétition" },
	[GAME_TERM_FIFTY] = { "fifty-move rule",
	    "règle des cinquante coups" },
	[GAME_TERM_FIVEFOLD] = { "fivefold repetition",
	    "quintuple répétition" },
	[GAME_TERM_SEVENTYFIVE] = { "seventy-five-move rule",
	    "règle des soixante-quinze coups" },
	[GAME_TERM_TIMEOUT] = { "loss on time", "perte au temps" },
	[GAME_TERM_TIMEOUT_DRAW] = { "time out, but the opponent cannot mate",
	    "temps dépassé, mais l'adversaire ne peut pas mater" },
	[GAME_TERM_ABORTED] = { "aborted by the club's admin",
	    "annulée par l'administrateur du club" },
	[GAME_TERM_ADJUDICATED] = { "adjudicated by the club's admin",
	    "arbitrée par l'administrateur du club" },
};

static const char *const policy_names[] = {
	[GAME_POLICY_AUTO] = "auto",
	[GAME_POLICY_CLAIM] = "claim",
};

static void	why_set(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/* Write a reason to `why`, when the caller gave a buffer. */
static void
why_set(char *why, size_t whysize, const char *fmt, ...)
{
	va_list	ap;

	if (why == NULL || whysize == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whysize, fmt, ap);
	va_end(ap);
}

/* --- time controls -------------------------------------------------- */

/*
 * Parse a duration, digits then a unit (d, h or s), at *sp; advance *sp.
 * Returns 0, -1 when malformed, -2 when too long.
 */
static int
tc_duration(const char **sp, int64_t *out)
{
	const char	*s = *sp;
	int64_t		 n = 0, unit;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > TC_LIMIT)
			return -2;
		n = n * 10 + (*s - '0');
	}
	switch (*s) {
	case 'd':
		unit = GAME_DAY;
		break;
	case 'h':
		unit = 3600;
		break;
	case 's':
		unit = 1;
		break;
	default:
		return -1;
	}
	if (n > TC_LIMIT / unit)
		return -2;
	*out = n * unit;
	*sp = s + 1;
	return 0;
}

/* Parse a plain count at *sp; advance *sp. Returns 0, -1 or -2 as above. */
static int
tc_count(const char **sp, int *out)
{
	const char	*s = *sp;
	int		 n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > TC_MOVES_MAX)
			return -2;
		n = n * 10 + (*s - '0');
	}
	if (n > TC_MOVES_MAX)
		return -2;
	*out = n;
	*sp = s;
	return 0;
}

/* Parse a time control; 0, or -1 with a reason in `why`. */
int
game_tc_parse(struct game_tc *tc, const char *text, char *why,
    size_t whysize)
{
	struct game_tc	 t;
	const char	*s = text;
	int		 r = -1;

	memset(&t, 0, sizeof t);
	if (text == NULL || *text == '\0') {
		why_set(why, whysize, "empty time control");
		return -1;
	}
	if (strcmp(text, "none") == 0) {
		*tc = t;
		return 0;
	}

	for (s = text; *s >= '0' && *s <= '9'; s++)
		continue;
	if (*s == '/' && s != text) {
		/* N/Dd: N moves in D days. */
		s = text;
		t.kind = GAME_TC_MOVES_IN;
		if ((r = tc_count(&s, &t.moves)) == 0) {
			s++;
			r = tc_duration(&s, &t.base);
		}
	} else {
		/* Dd/move or Bd+Id. */
		s = text;
		if ((r = tc_duration(&s, &t.base)) == 0) {
			if (strcmp(s, "/move") == 0) {
				t.kind = GAME_TC_PER_MOVE;
				s += strlen(s);
			} else if (*s == '+') {
				s++;
				t.kind = GAME_TC_FISCHER;
				r = tc_duration(&s, &t.inc);
			} else
				r = -1;
		}
	}
	if (r == 0 && *s != '\0')
		r = -1;
	if (r == -2) {
		why_set(why, whysize, "time control \"%.40s\" is too long: at most "
		    "%lld days and %d moves per period", text,
		    (long long)(TC_LIMIT / GAME_DAY), TC_MOVES_MAX);
		return -1;
	}
	if (r == -1) {
		why_set(why, whysize, "\"%.40s\" is not a time control: write "
		    "none, 3d/move (days per move), 10/50d (moves in days) or "
		    "30d+1d (days plus days per move)", text);
		return -1;
	}
	if (t.base <= 0) {
		why_set(why, whysize, "time control \"%.40s\" gives no time: "
		    "it needs more than zero days", text);
		return -1;
	}
	if (t.kind == GAME_TC_MOVES_IN && t.moves <= 0) {
		why_set(why, whysize, "time control \"%.40s\" needs at least "
		    "one move per period", text);
		return -1;
	}
	*tc = t;
	return 0;
}

/* Write a duration in its largest exact unit. */
static int
tc_duration_format(int64_t secs, char *buf, size_t size)
{
	if (secs % GAME_DAY == 0)
		return snprintf(buf, size, "%lldd", (long long)(secs / GAME_DAY));
	if (secs % 3600 == 0)
		return snprintf(buf, size, "%lldh", (long long)(secs / 3600));
	return snprintf(buf, size, "%llds", (long long)secs);
}

/* Write the canonical text of a time control. */
size_t
game_tc_format(const struct game_tc *tc, char *buf, size_t size)
{
	char	b[GAME_TC_MAX], i[GAME_TC_MAX];
	int	n;

	switch (tc->kind) {
	case GAME_TC_PER_MOVE:
		tc_duration_format(tc->base, b, sizeof b);
		n = snprintf(buf, size, "%s/move", b);
		break;
	case GAME_TC_MOVES_IN:
		tc_duration_format(tc->base, b, sizeof b);
		n = snprintf(buf, size, "%d/%s", tc->moves, b);
		break;
	case GAME_TC_FISCHER:
		tc_duration_format(tc->base, b, sizeof b);
		tc_duration_format(tc->inc, i, sizeof i);
		n = snprintf(buf, size, "%s+%s", b, i);
		break;
	default:
		n = snprintf(buf, size, "none");
		break;
	}
	if (n < 0)
		return 0;
	return (size_t)n;
}

/* Write a duration for people in its largest exact unit: "3 days",
 * "1 jour", "12 heures". */
static void
tc_duration_text(int64_t secs, enum chess_lang lang, char *buf, size_t size)
{
	static const char *const units[2][3][2] = {
		{ { "day", "days" }, { "hour", "hours" },
		    { "second", "seconds" } },
		{ { "jour", "jours" }, { "heure", "heures" },
		    { "seconde", "secondes" } },
	};
	int64_t	n;
	int	u, fr = lang == CHESS_LANG_FR;

	if (secs % GAME_DAY == 0) {
		n = secs / GAME_DAY;
		u = 0;
	} else if (secs % 3600 == 0) {
		n = secs / 3600;
		u = 1;
	} else {
		n = secs;
		u = 2;
	}
	/* French takes the singular below two ("0 jour"), English for one. */
	snprintf(buf, size, "%lld %s", (long long)n,
	    units[fr][u][fr ? n >= 2 : n != 1]);
}

/* Write a time control for people, in `lang`. */
size_t
game_tc_text(const struct game_tc *tc, enum chess_lang lang, char *buf,
    size_t size)
{
	char	b[GAME_TC_MAX], i[GAME_TC_MAX];
	int	n, fr = lang == CHESS_LANG_FR;

	switch (tc->kind) {
	case GAME_TC_PER_MOVE:
		tc_duration_text(tc->base, lang, b, sizeof b);
		n = snprintf(buf, size, fr ? "%s par coup" : "%s per move", b);
		break;
	case GAME_TC_MOVES_IN:
		tc_duration_text(tc->base, lang, b, sizeof b);
		if (fr)
			n = snprintf(buf, size, "%d %s en %s", tc->moves,
			    tc->moves >= 2 ? "coups" : "coup", b);
		else
			n = snprintf(buf, size, "%d %s in %s", tc->moves,
			    tc->moves != 1 ? "moves" : "move", b);
		break;
	case GAME_TC_FISCHER:
		tc_duration_text(tc->base, lang, b, sizeof b);
		if (tc->inc == 0) {
			n = snprintf(buf, size, fr ? "%s pour toute la partie" :
			    "%s for the whole game", b);
			break;
		}
		tc_duration_text(tc->inc, lang, i, sizeof i);
		n = snprintf(buf, size, fr ? "%s + %s par coup" :
		    "%s + %s per move", b, i);
		break;
	default:
		n = snprintf(buf, size, fr ? "sans pendule" : "no clock");
		break;
	}
	if (n < 0)
		return 0;
	return (size_t)n;
}

/* --- names ---------------------------------------------------------- */

/* "1-0", "0-1", "1/2-1/2" or "*". */
const char *
game_result_name(enum game_result r)
{
	if ((unsigned)r >= sizeof result_names / sizeof result_names[0])
		return "*";
	return result_names[r];
}

/* Read a result name; GAME_RESULT_NONE when it names none. */
enum game_result
game_result_parse(const char *s)
{
	int	r;

	for (r = GAME_RESULT_WHITE; r <= GAME_RESULT_DRAW; r++)
		if (s != NULL && strcmp(s, result_names[r]) == 0)
			return (enum game_result)r;
	return GAME_RESULT_NONE;
}

/* The API name of a termination; "" while ongoing. */
const char *
game_termination_name(enum game_termination t)
{
	if ((unsigned)t >= sizeof termination_names /
	    sizeof termination_names[0])
		return "";
	return termination_names[t];
}

/* Read a termination's API name; GAME_TERM_NONE when it names none. */
enum game_termination
game_termination_parse(const char *s)
{
	int	t;

	for (t = GAME_TERM_NONE + 1; t <= GAME_TERM_LAST; t++)
		if (s != NULL && strcmp(s, game_termination_name(
		    (enum game_termination)t)) == 0)
			return (enum game_termination)t;
	return GAME_TERM_NONE;
}

/* A termination for people, in `lang`; "" while ongoing. */
const char *
game_termination_text(enum game_termination t, enum chess_lang lang)
{
	if ((unsigned)t >= sizeof termination_texts /
	    sizeof termination_texts[0])
		return "";
	return termination_texts[t][lang == CHESS_LANG_FR];
}

/* The API error code of a refusal. */
const char *
game_refusal_code(enum game_refusal r)
{
	if ((unsigned)r >= sizeof refusal_codes / sizeof refusal_codes[0])
		return "internal";
	return refusal_codes[r];
}

/* "auto" or "claim". */
const char *
game_policy_name(enum game_policy p)
{
	if ((unsigned)p >= sizeof policy_names / sizeof policy_names[0])
		return "auto";
	return policy_names[p];
}

/* Parse a policy name; 0, or -1 when unknown. */
int
game_policy_parse(const char *s, enum game_policy *p)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "auto") == 0)
		*p = GAME_POLICY_AUTO;
	else if (strcmp(s, "claim") == 0)
		*p = GAME_POLICY_CLAIM;
	else
		return -1;
	return 0;
}

/* The PGN Termination tag value. */
const char *
game_termination_pgn(enum game_termination t)
{
	switch (t) {
	case GAME_TERM_NONE:
		return "unterminated";
	case GAME_TERM_TIMEOUT:
	case GAME_TERM_TIMEOUT_DRAW:
		return "time forfeit";
	case GAME_TERM_ABORTED:
		return "abandoned";
	case GAME_TERM_ADJUDICATED:
		return "adjudication";
	default:
		return "normal";
	}
}

/* --- state ---------------------------------------------------------- */

/* True while the game has no result. */
bool
game_ongoing(const struct game *g)
{
	return g->result == GAME_RESULT_NONE && g->termination == GAME_TERM_NONE;
}

/* Side to move. */
int
game_turn(const struct game *g)
{
	return g->chess.pos.side;
}

/* Half-moves played. */
size_t
game_ply(const struct game *g)
{
	return g->chess.nply;
}

/* End the game with a result. */
static void
game_end(struct game *g, enum game_result r, enum game_termination t,
    int64_t at)
{
	g->result = r;
	g->termination = t;
	g->ended = at;
	g->draw_offer = -1;
}

/* The result of a win for `color`. */
static enum game_result
game_win(int color)
{
	return color == CHESS_WHITE ? GAME_RESULT_WHITE : GAME_RESULT_BLACK;
}

/* The termination of a rules-core end state. */
static enum game_termination
game_status_term(enum chess_status st)
{
	switch (st) {
	case CHESS_CHECKMATE:
		return GAME_TERM_CHECKMATE;
	case CHESS_STALEMATE:
		return GAME_TERM_STALEMATE;
	case CHESS_INSUFFICIENT:
		return GAME_TERM_INSUFFICIENT;
	case CHESS_FIVEFOLD:
		return GAME_TERM_FIVEFOLD;
	case CHESS_SEVENTYFIVE:
		return GAME_TERM_SEVENTYFIVE;
	case CHESS_THREEFOLD:
		return GAME_TERM_THREEFOLD;
	case CHESS_FIFTY:
		return GAME_TERM_FIFTY;
	default:
		return GAME_TERM_NONE;
	}
}

/*
 * Apply the automatic ends of the current position: checkmate, stalemate,
 * dead position, fivefold, seventy-five moves, and under the auto policy
 * threefold and fifty moves.
 */
static void
game_end_by_position(struct game *g, int64_t at)
{
	enum chess_status	st;

	st = chess_game_status(&g->chess);
	switch (st) {
	case CHESS_ONGOING:
		return;
	case CHESS_CHECKMATE:
		game_end(g, game_win(!g->chess.pos.side), GAME_TERM_CHECKMATE,
		    at);
		return;
	case CHESS_THREEFOLD:
	case CHESS_FIFTY:
		if (g->params.policy != GAME_POLICY_AUTO)
			return;
		break;
	default:
		break;
	}
	game_end(g, GAME_RESULT_DRAW, game_status_term(st), at);
}

/* Start a game. 0, or -1 when out of memory. */
int
game_init(struct game *g, const struct game_params *p)
{
	chess_init();
	memset(g, 0, sizeof *g);
	g->params = *p;
	g->draw_offer = -1;
	g->turn_start = p->created;
	if (p->tc.kind != GAME_TC_NONE)
		g->remaining[0] = g->remaining[1] = p->tc.base;
	if (chess_game_init(&g->chess, &p->start) == -1) {
		memset(&g->chess, 0, sizeof g->chess);
		return -1;
	}
	game_end_by_position(g, p->created);
	return 0;
}

/* Release a game. Accepts a zeroed struct. */
void
game_free(struct game *g)
{
	if (g == NULL)
		return;
	chess_game_free(&g->chess);
	memset(&g->chess, 0, sizeof g->chess);
	free(g->leaves[0]);
	free(g->leaves[1]);
	g->leaves[0] = g->leaves[1] = NULL;
	g->nleaves[0] = g->nleaves[1] = 0;
}

/* Copy a game into `dst`, which owns its own arrays afterwards. */
int
game_copy(struct game *dst, const struct game *src)
{
	size_t	cap = src->chess.cap > 0 ? src->chess.cap : 1;
	int	c;

	*dst = *src;
	memset(&dst->chess, 0, sizeof dst->chess);
	dst->leaves[0] = dst->leaves[1] = NULL;
	dst->chess.moves = malloc(cap * sizeof *dst->chess.moves);
	dst->chess.keys = malloc((cap + 1) * sizeof *dst->chess.keys);
	if (dst->chess.moves == NULL || dst->chess.keys == NULL)
		goto fail;
	dst->chess.start = src->chess.start;
	dst->chess.pos = src->chess.pos;
	dst->chess.nply = src->chess.nply;
	dst->chess.cap = cap;
	if (src->chess.nply > 0)
		memcpy(dst->chess.moves, src->chess.moves,
		    src->chess.nply * sizeof *dst->chess.moves);
	memcpy(dst->chess.keys, src->chess.keys,
	    (src->chess.nply + 1) * sizeof *dst->chess.keys);
	for (c = 0; c < 2; c++) {
		if (src->nleaves[c] == 0)
			continue;
		dst->leaves[c] = malloc(src->nleaves[c] * sizeof
		    *dst->leaves[c]);
		if (dst->leaves[c] == NULL)
			goto fail;
		memcpy(dst->leaves[c], src->leaves[c], src->nleaves[c] *
		    sizeof *dst->leaves[c]);
	}
	return 0;
 fail:
	game_free(dst);
	return -1;
}

/* Stop a player's clock from `from` to `to`. */
int
game_leave_add(struct game *g, int color, int64_t from, int64_t to)
{
	struct game_leave	*l, *p;
	size_t			 i, n, k;

	if (from >= to || (color != CHESS_WHITE && color != CHESS_BLACK))
		return -1;
	n = g->nleaves[color];
	if ((p = realloc(g->leaves[color], (n + 1) * sizeof *p)) == NULL)
		return -1;
	g->leaves[color] = l = p;
	/* Insert in order of start, then merge what touches. */
	for (i = n; i > 0 && l[i - 1].from > from; i--)
		l[i] = l[i - 1];
	l[i].from = from;
	l[i].to = to;
	n++;
	for (i = 0, k = 0; i < n; i++) {
		if (k > 0 && l[i].from <= l[k - 1].to) {
			if (l[i].to > l[k - 1].to)
				l[k - 1].to = l[i].to;
			continue;
		}
		l[k++] = l[i];
	}
	g->nleaves[color] = k;
	return 0;
}

/* Thinking time of `color` from `a` to `b`: the time not on leave. */
static int64_t
game_thinking(const struct game *g, int color, int64_t a, int64_t b)
{
	const struct game_leave	*l = g->leaves[color];
	int64_t			 t, from, to;
	size_t			 i;

	if (b <= a)
		return 0;
	t = b - a;
	for (i = 0; i < g->nleaves[color]; i++) {
		from = l[i].from > a ? l[i].from : a;
		to = l[i].to < b ? l[i].to : b;
		if (to > from)
			t -= to - from;
	}
	return t;
}

/* --- clock ---------------------------------------------------------- */

/* When the side to move runs out of time, or 0 without clock/when over. */
int64_t
game_deadline(const struct game *g)
{
	const struct game_leave	*l;
	int64_t			 t, budget;
	size_t			 i;
	int			 side;

	if (!game_ongoing(g) || g->params.tc.kind == GAME_TC_NONE)
		return 0;
	side = game_turn(g);
	l = g->leaves[side];
	t = g->turn_start;
	budget = g->remaining[side];
	/* Spend the time left between the leaves still to come. */
	for (i = 0; i < g->nleaves[side]; i++) {
		if (l[i].to <= t)
			continue;
		if (l[i].from >= t + budget)
			break;
		if (l[i].from > t)
			budget -= l[i].from - t;
		t = l[i].to;
	}
	return t + budget;
}

/* Tell the moves `color` has to make before the next ICCF control. */
int
game_moves_to_control(const struct game *g, int color)
{
	const struct game_tc	*tc = &g->params.tc;
	size_t			 made;

	if (tc->kind != GAME_TC_MOVES_IN || tc->moves <= 0)
		return 0;
	made = (g->chess.nply + (g->chess.start.side == color)) / 2;
	return tc->moves - (int)(made % (size_t)tc->moves);
}

/* Seconds left for `color` at `now` (never negative), or -1 without clock. */
int64_t
game_time_left(const struct game *g, int color, int64_t now)
{
	int64_t	left;

	if (g->params.tc.kind == GAME_TC_NONE)
		return -1;
	left = g->remaining[color != 0];
	if ((color != 0) != game_turn(g))
		return left;

	/* The side to move's time runs from turn_start until the end,
	 * except on leave. */
	if (!game_ongoing(g) && now > g->ended)
		now = g->ended;
	left -= game_thinking(g, color != 0, g->turn_start, now);
	return left > 0 ? left : 0;
}

/* Moves `color` has made in this game. */
static size_t
game_moves_by(const struct game *g, int color)
{
	size_t	n = g->chess.nply;

	if (color == g->chess.start.side)
		return (n + 1) / 2;
	return n / 2;
}

/* Charge the move `color` just made at `at` to its clock; switch clocks. */
static void
game_clock_move(struct game *g, int color, int64_t at)
{
	const struct game_tc	*tc = &g->params.tc;
	int64_t			 used = game_thinking(g, color, g->turn_start,
				     at);

	switch (tc->kind) {
	case GAME_TC_PER_MOVE:
		g->remaining[color] = tc->base;
		break;
	case GAME_TC_MOVES_IN:
		g->remaining[color] -= used;
		if (game_moves_by(g, color) % (size_t)tc->moves == 0)
			g->remaining[color] += tc->base;
		break;
	case GAME_TC_FISCHER:
		g->remaining[color] += tc->inc - used;
		break;
	default:
		break;
	}
	g->turn_start = at;
}

/*
 * End the game on time when the side to move's flag fell by `now`: a loss,
 * or a draw when the opponent cannot mate (FIDE 6.9). The game ends at the
 * deadline, whenever this runs. True when the game changed.
 */
static bool
game_flag(struct game *g, int64_t now)
{
	int64_t	deadline;
	int	side;

	deadline = game_deadline(g);
	if (deadline == 0 || now < deadline)
		return false;
	side = game_turn(g);
	if (chess_can_mate(&g->chess.pos, !side))
		game_end(g, game_win(!side), GAME_TERM_TIMEOUT, deadline);
	else
		game_end(g, GAME_RESULT_DRAW, GAME_TERM_TIMEOUT_DRAW, deadline);
	return true;
}

/* End the game on time when the side to move's time ran out by `now`. */
bool
game_check_time(struct game *g, int64_t now)
{
	return game_flag(g, now);
}

/* --- actions -------------------------------------------------------- */

/* Describe a finished game for a refusal, in `lang`. */
static void
game_why_over(const struct game *g, enum chess_lang lang, char *why,
    size_t whysize)
{
	if (lang == CHESS_LANG_FR)
		why_set(why, whysize, "la partie est terminée (%s, %s)",
		    game_result_name(g->result),
		    game_termination_text(g->termination, lang));
	else
		why_set(why, whysize, "the game is over (%s, %s)",
		    game_result_name(g->result),
		    game_termination_name(g->termination));
}

/* Refuse for want of memory, in `lang`. */
static enum game_refusal
game_nomem(enum chess_lang lang, char *why, size_t whysize)
{
	why_set(why, whysize, lang == CHESS_LANG_FR ? "mémoire insuffisante" :
	    "out of memory");
	return GAME_ENOMEM;
}

/* Parse the move text of an action against the current position. */
static enum game_refusal
game_parse_move(const struct game *g, const struct game_action *a,
    chess_move *m, char *why, size_t whysize)
{
	enum chess_error	e;
	enum chess_lang		other;
	chess_move		m2;
	char			san[CHESS_SAN_MAX];

	if (a->move == NULL || a->move[0] == '\0') {
		why_set(why, whysize, a->lang == CHESS_LANG_FR ?
		    "aucun coup n'est indiqué" : "no move given");
		return GAME_ESYNTAX;
	}
	if (why != NULL && whysize > 0)
		why[0] = '\0';
	e = chess_move_parse(&g->chess.pos, a->move, a->lang, m, why, whysize);
	if (e == CHESS_OK)
		return GAME_OK;
	/* A move in the other language's letters (Fb5 from an English
	 * player): say so, and how to write it, rather than "not a move". */
	other = a->lang == CHESS_LANG_FR ? CHESS_LANG_EN : CHESS_LANG_FR;
	if (e != CHESS_EMOVE_ILLEGAL && e != CHESS_EMOVE_AMBIGUOUS &&
	    chess_move_parse(&g->chess.pos, a->move, other, &m2, NULL, 0) ==
	    CHESS_OK) {
		chess_move_san(&g->chess.pos, m2, a->lang, san, sizeof san);
		why_set(why, whysize, a->lang == CHESS_LANG_FR ?
		    "%.40s est un coup en lettres anglaises ; votre langue "
		    "sur ce serveur est le français : écrivez %s (ou passez "
		    "à l'anglais : corrchess settings lang en)" :
		    "%.40s is a move in French letters; your language on "
		    "this server is English: write %s (or change to French: "
		    "corrchess settings lang fr)", a->move, san);
		return GAME_ESYNTAX;
	}
	if (why != NULL && whysize > 0 && why[0] == '\0')
		why_set(why, whysize, a->lang == CHESS_LANG_FR ? "%.40s : %s" :
		    "%.40s: %s", a->move, chess_strerror_lang(e, a->lang));
	switch (e) {
	case CHESS_EMOVE_ILLEGAL:
		return GAME_EILLEGAL;
	case CHESS_EMOVE_AMBIGUOUS:
		return GAME_EAMBIGUOUS;
	default:
		return GAME_ESYNTAX;
	}
}

/* Refuse an action by the side not to move; `claim` for a draw claim. */
static enum game_refusal
game_not_turn(const struct game *g, bool claim, enum chess_lang lang,
    char *why, size_t whysize)
{
	if (lang == CHESS_LANG_FR)
		why_set(why, whysize, "%sc'est aux %s de jouer", claim ?
		    "seul le joueur au trait peut réclamer la nulle : " : "",
		    fr_sides[game_turn(g)]);
	else
		why_set(why, whysize, "%sit is %s's move", claim ?
		    "only the player to move may claim a draw: " : "",
		    color_names[game_turn(g)]);
	return GAME_ETURN;
}

/*
 * Refuse a draw offer with move number `n` that the game's draw rules do
 * not allow, naming the rule in `lang`.
 */
static enum game_refusal
game_draw_rules(const struct game *g, int color, unsigned n,
    enum chess_lang lang, char *why, size_t whysize)
{
	const struct game_params	*p = &g->params;
	unsigned			 last = g->offer_move[color];
	bool				 fr = lang == CHESS_LANG_FR;

	if (p->draw_min_move > 0 && n < (unsigned)p->draw_min_move) {
		if (fr)
			why_set(why, whysize, "pas de proposition de nulle "
			    "avant le coup %d dans cette partie (règle de "
			    "nulle de l'épreuve) : ce coup est le %u",
			    p->draw_min_move, n);
		else
			why_set(why, whysize, "no draw offer before move %d "
			    "in this game (the event's draw rule): this is "
			    "move %u", p->draw_min_move, n);
		return GAME_EDRAW_RULE;
	}
	if (p->draw_offer_every > 0 && last > 0 &&
	    n < last + (unsigned)p->draw_offer_every) {
		if (fr)
			why_set(why, whysize, "une proposition de nulle par "
			    "joueur tous les %d coups dans cette partie (règle "
			    "de nulle de l'épreuve) : votre dernière était au "
			    "coup %u, la prochaine peut venir au coup %u",
			    p->draw_offer_every, last,
			    last + (unsigned)p->draw_offer_every);
		else
			why_set(why, whysize, "one draw offer per player every "
			    "%d moves in this game (the event's draw rule): "
			    "your last was with move %u, the next may come "
			    "with move %u", p->draw_offer_every, last,
			    last + (unsigned)p->draw_offer_every);
		return GAME_EDRAW_RULE;
	}
	return GAME_OK;
}

/* Play a move, with or without a draw offer. */
static enum game_refusal
game_move(struct game *g, const struct game_action *a, int64_t at,
    char *why, size_t whysize)
{
	enum game_refusal	r;
	chess_move		m;
	unsigned		n = (unsigned)g->chess.pos.fullmove;

	if (a->color != game_turn(g))
		return game_not_turn(g, false, a->lang, why, whysize);
	if (a->offer_draw && (r = game_draw_rules(g, a->color, n, a->lang,
	    why, whysize)) != GAME_OK)
		return r;
	if ((r = game_parse_move(g, a, &m, why, whysize)) != GAME_OK)
		return r;
	if (chess_game_push(&g->chess, m) == -1)
		return game_nomem(a->lang, why, whysize);
	game_clock_move(g, a->color, at);
	if (a->offer_draw)
		g->offer_move[a->color] = n;
	/* A standing offer by the opponent is declined by moving. */
	g->draw_offer = a->offer_draw ? a->color : -1;
	game_end_by_position(g, at);
	return GAME_OK;
}

/* Accept or decline the opponent's draw offer. */
static enum game_refusal
game_answer_offer(struct game *g, const struct game_action *a, int64_t at,
    char *why, size_t whysize)
{
	bool	accept = a->kind == GAME_ACT_ACCEPT_DRAW;
	bool	fr = a->lang == CHESS_LANG_FR;

	if (g->draw_offer == -1) {
		if (fr)
			why_set(why, whysize, "aucune proposition de nulle à "
			    "%s", accept ? "accepter" : "refuser");
		else
			why_set(why, whysize, "no draw offer to %s",
			    accept ? "accept" : "decline");
		return GAME_ENO_OFFER;
	}
	if (g->draw_offer == a->color) {
		if (fr)
			why_set(why, whysize, "la proposition de nulle est la "
			    "vôtre : elle attend la réponse des %s",
			    fr_sides[!a->color]);
		else
			why_set(why, whysize, "the draw offer is your own: it "
			    "awaits %s's answer", color_names[!a->color]);
		return GAME_ENO_OFFER;
	}
	if (accept)
		game_end(g, GAME_RESULT_DRAW, GAME_TERM_AGREEMENT, at);
	else
		g->draw_offer = -1;
	return GAME_OK;
}

/*
 * Write why a draw claim does not hold in the current position, in
 * `lang`; `san` is the intended move already played, or NULL.
 */
static void
game_why_claim(const struct game *g, const char *san, enum chess_lang lang,
    char *why, size_t whysize)
{
	static const char *const times[2][3] = {
		{ "never", "once", "twice" },
		{ "0 fois", "une fois", "deux fois" },
	};
	char		n[16], after[CHESS_SAN_MAX + 16];
	int		reps, fr = lang == CHESS_LANG_FR;
	unsigned	hm;

	reps = chess_game_repetitions(&g->chess);
	if (reps >= 0 && reps < 3)
		snprintf(n, sizeof n, "%s", times[fr][reps]);
	else
		snprintf(n, sizeof n, fr ? "%d fois" : "%d times", reps);
	after[0] = '\0';
	if (san != NULL)
		snprintf(after, sizeof after, fr ? "après %s, " : "after %s, ",
		    san);
	/* French counts 0 and 1 in the singular, English only 1. */
	hm = g->chess.pos.halfmove;
	if (fr)
		why_set(why, whysize, "%spas de triple répétition : la "
		    "position %s apparue %s ; pas de règle des cinquante "
		    "coups : %u %s sans prise ni coup de pion, il en faut 100",
		    after, san != NULL ? "serait" : "est", n, hm,
		    hm >= 2 ? "demi-coups" : "demi-coup");
	else
		why_set(why, whysize, "%sno threefold repetition: the position "
		    "%s occurred %s; no fifty-move rule: %u %s without a "
		    "capture or pawn move, 100 are needed", after,
		    san != NULL ? "would have" : "has", n, hm,
		    hm != 1 ? "half-moves" : "half-move");
}

/*
 * Claim a draw by threefold repetition or fifty moves (FIDE 9.2, 9.3), on
 * the current position or on the position after an intended move.
 */
static enum game_refusal
game_claim(struct game *g, const struct game_action *a, int64_t at,
    char *why, size_t whysize)
{
	struct chess_position	 before;
	enum chess_status	 st;
	enum game_refusal	 r;
	chess_move		 m;
	char			 san[CHESS_SAN_MAX];

	if (a->color != game_turn(g))
		return game_not_turn(g, true, a->lang, why, whysize);

	if (a->move == NULL || a->move[0] == '\0') {
		st = chess_game_status(&g->chess);
		if (st != CHESS_THREEFOLD && st != CHESS_FIFTY) {
			game_why_claim(g, NULL, a->lang, why, whysize);
			return GAME_EBAD_CLAIM;
		}
		game_end(g, GAME_RESULT_DRAW, game_status_term(st), at);
		return GAME_OK;
	}

	/* Judge the claim on the position after the intended move. */
	if ((r = game_parse_move(g, a, &m, why, whysize)) != GAME_OK)
		return r;
	before = g->chess.pos;
	chess_move_san(&before, m, a->lang, san, sizeof san);
	if (chess_game_push(&g->chess, m) == -1)
		return game_nomem(a->lang, why, whysize);
	st = chess_game_status(&g->chess);
	if (st == CHESS_ONGOING) {
		/* A wrong claim: take the intended move back. */
		game_why_claim(g, san, a->lang, why, whysize);
		g->chess.nply--;
		g->chess.pos = before;
		return GAME_EBAD_CLAIM;
	}
	game_clock_move(g, a->color, at);
	g->draw_offer = -1;
	if (st == CHESS_THREEFOLD || st == CHESS_FIFTY)
		game_end(g, GAME_RESULT_DRAW, game_status_term(st), at);
	else
		game_end_by_position(g, at);
	return GAME_OK;
}

/* Check and apply action `a`. */
enum game_refusal
game_apply(struct game *g, const struct game_action *a, char *why,
    size_t whysize)
{
	int64_t	at;
	bool	fr = a->lang == CHESS_LANG_FR;

	if (why != NULL && whysize > 0)
		why[0] = '\0';
	if (!game_ongoing(g)) {
		game_why_over(g, a->lang, why, whysize);
		return GAME_EOVER;
	}

	/* A clock never runs backwards: an earlier time counts as now. */
	at = a->at < g->turn_start ? g->turn_start : a->at;
	if (game_flag(g, at)) {
		if (fr)
			why_set(why, whysize, "le temps des %s est écoulé : la "
			    "partie est terminée (%s, %s)",
			    fr_sides[game_turn(g)],
			    game_result_name(g->result),
			    game_termination_text(g->termination, a->lang));
		else
			why_set(why, whysize, "%s's time ran out: the game is "
			    "over (%s, %s)", color_names[game_turn(g)],
			    game_result_name(g->result),
			    game_termination_name(g->termination));
		return GAME_ELATE;
	}

	if (a->kind == GAME_ACT_ABORT) {
		game_end(g, GAME_RESULT_NONE, GAME_TERM_ABORTED, at);
		return GAME_OK;
	}
	if (a->kind == GAME_ACT_ADJUDICATE) {
		if (a->result != GAME_RESULT_WHITE &&
		    a->result != GAME_RESULT_BLACK &&
		    a->result != GAME_RESULT_DRAW) {
			why_set(why, whysize, fr ? "résultat inconnu : 1-0, 0-1 "
			    "ou 1/2-1/2" : "no such result: 1-0, 0-1 or "
			    "1/2-1/2");
			return GAME_ESYNTAX;
		}
		game_end(g, (enum game_result)a->result,
		    GAME_TERM_ADJUDICATED, at);
		return GAME_OK;
	}
	if (a->color != CHESS_WHITE && a->color != CHESS_BLACK) {
		why_set(why, whysize, fr ? "couleur de joueur inconnue" :
		    "no such player colour");
		return GAME_ETURN;
	}
	switch (a->kind) {
	case GAME_ACT_MOVE:
		return game_move(g, a, at, why, whysize);
	case GAME_ACT_ACCEPT_DRAW:
	case GAME_ACT_DECLINE_DRAW:
		return game_answer_offer(g, a, at, why, whysize);
	case GAME_ACT_RESIGN:
		game_end(g, game_win(!a->color), GAME_TERM_RESIGNATION, at);
		return GAME_OK;
	case GAME_ACT_CLAIM_DRAW:
		return game_claim(g, a, at, why, whysize);
	case GAME_ACT_ABORT:
	case GAME_ACT_ADJUDICATE:
		break;		/* applied above, whoever acts */
	}
	why_set(why, whysize, fr ? "action inconnue" : "unknown action");
	return GAME_ESYNTAX;
}
