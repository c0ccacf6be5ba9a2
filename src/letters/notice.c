/*
 * letters/notice.c: the notices corrchessd mails to players, in English and French.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "util/buf.h"
#include "chess/chess.h"
#include "letters/mail_parse.h"
#include "letters/mail_reply.h"
#include "letters/notice.h"
#include "letters/notice_texts.h"
#include "game/game.h"
#include "game/render.h"

/* Columns of the move list. */
#define MOVES_WIDTH		72

static const char *const kind_names[NOTICE_KIND_COUNT] = {
	"new-game", "moved", "draw-offered", "draw-accepted", "draw-declined",
	"claim", "game-over", "reminder", "refused", "howto", "leave",
	"digest", "conditional", "account", "email-code", "event",
};

/* What a notice is about, worked out once. */
struct ctx {
	const struct notice	*n;
	const struct texts	*tx;
	enum chess_lang		 lang;
	int			 rcpt;		/* recipient colour, or -1 */
	bool			 game;		/* a game is known */
	bool			 over;		/* it has a result */
	struct chess_position	 start;
	struct chess_position	 pos;		/* current */
	char			(*san)[CHESS_SAN_MAX];	/* recipient's lang */
	char			 last[CHESS_SAN_MAX + 16];	/* "17. Nf3" */
	int			 last_mover;
};

/* Write a reason, and a detail when not NULL, into a caller buffer. */
static int
fail(char *err, size_t errsize, const char *why, const char *detail)
{
	if (err != NULL && errsize > 0)
		snprintf(err, errsize, "%s%s%s", why, detail != NULL ? ": " : "",
		    detail != NULL ? detail : "");
	return -1;
}

/*
 * Append a text template, each "%s" in it replaced by the next string
 * argument (the fixed texts are templates, not printf formats: they come
 * from a table and take only strings).
 */
static void
vput(struct buf *b, const char *tmpl, va_list ap)
{
	const char *p, *arg;

	while ((p = strstr(tmpl, "%s")) != NULL) {
		buf_add(b, tmpl, (size_t)(p - tmpl));
		arg = va_arg(ap, const char *);
		buf_adds(b, arg != NULL ? arg : "");
		tmpl = p + 2;
	}
	buf_adds(b, tmpl);
}

/* Append a template filled with strings (see vput()). */
static void
put(struct buf *b, const char *tmpl, ...)
{
	va_list ap;

	va_start(ap, tmpl);
	vput(b, tmpl, ap);
	va_end(ap);
}

/* True if [p, e) starts with a French unit of time as a word: "j", "h",
 * "min" or "s" ("2 j 3 h", "5 h 12 min"). */
static bool
time_unit(const char *p, const char *e)
{
	static const char *const units[] = { "j", "h", "min", "s" };
	size_t	i, n;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		n = strlen(units[i]);
		if ((size_t)(e - p) >= n && memcmp(p, units[i], n) == 0 &&
		    (p + n == e || strchr(" ),.;:", p[n]) != NULL))
			return true;
	}
	return false;
}

/* True if a line [s, e) may break at the space at w: not inside French
 * punctuation ("« move »", "partie : ..."), nor between a number and its
 * unit ("2 j"). */
static bool
breakable(const char *s, const char *w, const char *e)
{
	if (w + 1 < e && strchr(":;!?", w[1]) != NULL)
		return false;
	if (w > s && w[-1] >= '0' && w[-1] <= '9' && time_unit(w + 1, e))
		return false;
	if (w + 2 < e && memcmp(w + 1, "\u00bb", 2) == 0)
		return false;
	if (w - 2 >= s && memcmp(w - 2, "\u00ab", 2) == 0)
		return false;
	return true;
}

/* Append text with each line wrapped at MOVES_WIDTH columns (UTF-8
 * characters counted), breaking at spaces. */
static void
wrap_add(struct buf *b, const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *eol, *w, *brk;
	size_t		 col;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		/* Cut the line [p, eol) into pieces of at most the width. */
		while (p < eol) {
			brk = NULL;
			col = 0;
			for (w = p; w < eol; w++) {
				if (*w == ' ' && breakable(p, w, eol))
					brk = w;
				if (((unsigned char)*w & 0xc0) != 0x80)
					col++;
				if (col > MOVES_WIDTH && brk != NULL)
					break;
			}
			if (w == eol || brk == NULL) {
				buf_add(b, p, (size_t)(eol - p));
				p = eol;
				break;
			}
			buf_add(b, p, (size_t)(brk - p));
			buf_add(b, "\n", 1);
			p = brk + 1;
		}
		if (eol < end) {
			buf_add(b, "\n", 1);
			p = eol + 1;
		}
	}
}

/* Append a template filled with strings, as wrapped prose. */
static void
prose(struct buf *b, const char *tmpl, ...)
{
	struct buf	t = { 0 };
	va_list		ap;

	va_start(ap, tmpl);
	vput(&t, tmpl, ap);
	va_end(ap);
	if (t.failed)
		b->failed = true;
	else if (t.data != NULL)
		wrap_add(b, t.data, t.len);
	buf_free(&t);
}

/* The name of a kind. */
const char *
notice_kind_name(enum notice_kind k)
{
	if ((unsigned)k >= NOTICE_KIND_COUNT)
		return "unknown";
	return kind_names[k];
}

/* Write a game's thread root id for one player. */
int
notice_thread_root(int64_t game_id, int color, const char *domain,
    char *buf, size_t size)
{
	return snprintf(buf, size, "game-%" PRId64 ".%s@%s", game_id,
	    color == CHESS_BLACK ? "black" : "white",
	    domain != NULL ? domain : "localhost");
}

/* A termination (its game_termination_name()) for people, or the name
 * itself when unknown. */
static const char *
termination_text(const char *name, enum chess_lang lang)
{
	enum game_termination	t;

	if (name == NULL || *name == '\0')
		return "?";
	if ((t = game_termination_parse(name)) != GAME_TERM_NONE)
		return game_termination_text(t, lang);
	return name;
}

/* "White wins", "Black wins" or "draw" for a result. */
static const char *
winner_text(const struct texts *tx, const char *result)
{
	if (result != NULL && strcmp(result, "1-0") == 0)
		return tx->winner[0];
	if (result != NULL && strcmp(result, "0-1") == 0)
		return tx->winner[1];
	if (result != NULL && strcmp(result, "1/2-1/2") == 0)
		return tx->winner[2];
	return tx->winner[3];
}

/* Write a duration in the recipient's language ("2d 3h", "2 j 3 h"). */
static void
duration(const struct ctx *c, int64_t seconds, char *buf, size_t size)
{
	render_duration_lang(seconds, c->lang, buf, size);
}

/* Write the time control (game_tc_format() text) in the recipient's
 * language ("10 coups en 50 jours"), or as given when it does not parse. */
static void
time_control(const struct ctx *c, const char *text, char *buf, size_t size)
{
	struct game_tc	tc;

	if (game_tc_parse(&tc, text, NULL, 0) == 0)
		game_tc_text(&tc, c->lang, buf, size);
	else
		snprintf(buf, size, "%s", text);
}

/* A player's login name ("?" when missing). */
static const char *
pname(const struct ctx *c, int color)
{
	const char *s = c->n->players[color].name;

	return s != NULL && *s != '\0' ? s : "?";
}

/* The move number and dots of ply i: "17." or "17...". */
static void
move_number(const struct ctx *c, size_t i, char *buf, size_t size)
{
	unsigned	side = (c->start.side + i) % 2;
	unsigned long	num = c->start.fullmove + (c->start.side + i) / 2;

	snprintf(buf, size, "%lu%s", num, side == CHESS_WHITE ? "." : "...");
}

/* Replay the moves and set up the positions and texts. */
static int
setup(struct ctx *c, char *err, size_t errsize)
{
	const struct notice	*n = c->n;
	chess_move		 m;
	size_t			 i;
	char			 num[24];

	chess_init();
	/* An aborted game is over without a result. */
	c->over = (n->result != NULL && *n->result != '\0' &&
	    strcmp(n->result, "*") != 0) || (n->termination != NULL &&
	    *n->termination != '\0');
	c->game = n->game_id > 0;
	c->last_mover = -1;
	if (!c->game)
		return 0;
	if (n->start_fen != NULL && *n->start_fen != '\0') {
		if (chess_fen_parse(&c->start, n->start_fen,
		    n->chess960 ? CHESS_FEN_960 : 0) != CHESS_OK)
			return fail(err, errsize, "start FEN does not parse",
			    n->start_fen);
	} else
		chess_position_start(&c->start);
	c->pos = c->start;
	if (n->nply > 0 && (n->san == NULL ||
	    (c->san = calloc(n->nply, sizeof *c->san)) == NULL))
		return fail(err, errsize, n->san == NULL ?
		    "moves missing" : "out of memory", NULL);
	for (i = 0; i < n->nply; i++) {
		if (n->san[i] == NULL || chess_move_parse(&c->pos, n->san[i],
		    CHESS_LANG_EN, &m, NULL, 0) != CHESS_OK)
			return fail(err, errsize, "move does not replay",
			    n->san[i] != NULL ? n->san[i] : "(null)");
		chess_move_san(&c->pos, m, c->lang, c->san[i],
		    sizeof c->san[i]);
		c->last_mover = c->pos.side;
		chess_position_make(&c->pos, m);
	}
	if (n->nply > 0) {
		move_number(c, n->nply - 1, num, sizeof num);
		snprintf(c->last, sizeof c->last, "%s %s", num,
		    c->san[n->nply - 1]);
	}
	if (n->fen != NULL && *n->fen != '\0' && chess_fen_parse(&c->pos,
	    n->fen, n->chess960 ? CHESS_FEN_960 : 0) != CHESS_OK)
		return fail(err, errsize, "FEN does not parse", n->fen);
	return 0;
}

/* The colour whose action a notice reports. */
static int
actor(const struct ctx *c)
{
	if (c->n->actor == CHESS_WHITE || c->n->actor == CHESS_BLACK)
		return c->n->actor;
	if (c->rcpt >= 0)
		return !c->rcpt;
	return c->last_mover >= 0 ? c->last_mover : CHESS_WHITE;
}

/* An event's title, or its name. */
static const char *
event_title(const struct notice_event *e)
{
	return e->title != NULL && *e->title != '\0' ? e->title : e->name;
}

/* Write the subject of an event's notice. */
static void
event_subject(const struct ctx *c, struct buf *b)
{
	const struct notice_event	*e = c->n->event;
	char				 num[24];

	put(b, c->tx->subject_event, event_title(e));
	snprintf(num, sizeof num, "%zu", e->nmine);
	put(b, c->tx->subject_event_what[e->what], e->what ==
	    NOTICE_EVENT_WITHDRAWAL ? e->withdrawn : num);
}

/* Write the subject. */
static void
subject(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	char			 id[24], t[64];
	const char		*fmt = tx->subject_kind[n->kind];

	if (n->kind == NOTICE_HOWTO && !c->game) {
		if (n->answered_subject != NULL && *n->answered_subject != '\0')
			put(b, "%s%s", strncmp(n->answered_subject, "Re:",
			    3) == 0 ? "" : tx->refused_subject_re,
			    n->answered_subject);
		else {
			buf_adds(b, "[corrchess] ");
			buf_adds(b, fmt);
		}
		return;
	}
	if (n->kind == NOTICE_EVENT) {
		event_subject(c, b);
		return;
	}
	if (c->game) {
		snprintf(id, sizeof id, "%" PRId64, n->game_id);
		put(b, tx->subject_game, id, pname(c, CHESS_WHITE),
		    pname(c, CHESS_BLACK));
	} else
		buf_adds(b, "[corrchess] ");
	switch (n->kind) {
	case NOTICE_NEW_GAME:
		put(b, fmt, tx->color[c->rcpt >= 0 ? c->rcpt : 0]);
		break;
	case NOTICE_MOVED:
	case NOTICE_DRAW_OFFERED:
		put(b, fmt, c->last[0] != '\0' ? c->last : "-");
		break;
	case NOTICE_GAME_OVER:
		put(b, fmt, n->result != NULL ? n->result : "*",
		    termination_text(n->termination, c->lang));
		break;
	case NOTICE_REMINDER:
		duration(c, n->deadline - n->date, t, sizeof t);
		put(b, fmt, t);
		break;
	case NOTICE_LEAVE:
		put(b, fmt, pname(c, actor(c)));
		break;
	case NOTICE_DIGEST:
		snprintf(id, sizeof id, "%zu", n->ndigest);
		if (n->ndigest == 1)
			buf_adds(b, tx->subject_digest_one);
		else
			put(b, fmt, id);
		break;
	default:
		buf_adds(b, fmt);
		break;
	}
}

/* Append a paragraph ending with a blank line. */
static void
para(struct buf *b, const char *s)
{
	wrap_add(b, s, strlen(s));
	buf_adds(b, "\n\n");
}

/* True if a sentence ends with its own full stop (or ! ? »). */
static bool
has_stop(const char *s)
{
	size_t	n = strlen(s);

	return n > 0 && (strchr(".!?", s[n - 1]) != NULL ||
	    (n >= 2 && memcmp(s + n - 2, "\u00bb", 2) == 0));
}

/*
 * Write why the player's action was refused: the service's sentence as it
 * is given (in French when the service has it in French), after what was
 * refused in the recipient's words when the code is known; the code alone
 * when there is no sentence.
 */
static void
refused(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	const char		*what = NULL, *reason = n->reason;

	if (c->lang == CHESS_LANG_FR && n->reason_code != NULL)
		what = notice_texts_refusal_fr(n->reason_code);
	if (reason == NULL || *reason == '\0') {
		reason = what != NULL ? what : n->reason_code != NULL &&
		    *n->reason_code != '\0' ? n->reason_code :
		    tx->refused_unknown;
		what = NULL;
	}
	if (what != NULL && tx->intro_refused_code != NULL)
		prose(b, tx->intro_refused_code, what, reason);
	else
		prose(b, tx->intro_refused, reason);
	if (!has_stop(reason))
		buf_adds(b, ".");
}

/* Write what happened to the recipient's conditional moves. */
static void
cond_intro(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	char			 pair[2 * CHESS_SAN_MAX + 2], *sp;

	if ((unsigned)n->cond_event > NOTICE_COND_PLAYED)
		return;
	if (n->cond_event != NOTICE_COND_PLAYED) {
		prose(b, tx->intro_cond[n->cond_event],
		    n->cond_lines != NULL ? n->cond_lines : "-");
		return;
	}
	/* "e5 Nf3": the opponent's move, then the answer. */
	snprintf(pair, sizeof pair, "%s", n->cond_played != NULL ?
	    n->cond_played : "- -");
	if ((sp = strchr(pair, ' ')) == NULL)
		sp = pair + strlen(pair);
	else
		*sp++ = '\0';
	prose(b, tx->intro_cond[NOTICE_COND_PLAYED], pname(c, actor(c)), pair,
	    sp);
	buf_adds(b, "\n");
	if (n->cond_lines != NULL && n->cond_lines[0] != '\0')
		prose(b, tx->cond_left, n->cond_lines);
	else
		prose(b, tx->cond_none_left);
}

/* Write the opening of an event's notice. */
static void
event_intro(const struct ctx *c, struct buf *b)
{
	const struct notice_event	*e = c->n->event;
	const struct texts		*tx = c->tx;
	struct buf			 f = { 0 };
	char				 num[24];
	int				 k;

	switch (e->what) {
	case NOTICE_EVENT_START:
		k = strcmp(e->format, "match") == 0 ? 2 :
		    strcmp(e->format, "double-round-robin") == 0 ? 1 : 0;
		snprintf(num, sizeof num, "%d", k == 2 ? e->games :
		    e->nplayers);
		put(&f, tx->event_format[k], num);
		prose(b, tx->event_intro[e->what], event_title(e), e->name,
		    f.data != NULL ? f.data : "");
		buf_free(&f);
		break;
	case NOTICE_EVENT_WITHDRAWAL:
		prose(b, tx->event_intro[e->what], e->withdrawn,
		    event_title(e), e->name);
		break;
	case NOTICE_EVENT_END:
		prose(b, tx->event_intro[e->what], event_title(e), e->name);
		break;
	}
}

/* Write the kind's opening lines. */
static void
intro(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	char			 t[64], d[64];

	switch (n->kind) {
	case NOTICE_NEW_GAME:
		prose(b, tx->intro_new, tx->color[c->rcpt >= 0 ?
		    c->rcpt : 0]);
		break;
	case NOTICE_MOVED:
		prose(b, tx->intro_moved, pname(c, actor(c)),
		    c->last[0] != '\0' ? c->last : "-");
		break;
	case NOTICE_DRAW_OFFERED:
		prose(b, tx->intro_offered, pname(c, actor(c)),
		    c->last[0] != '\0' ? c->last : "-");
		buf_adds(b, "\n");
		prose(b, tx->offer_howto);
		break;
	case NOTICE_DRAW_ACCEPTED:
		prose(b, tx->intro_accepted, pname(c, actor(c)));
		break;
	case NOTICE_DRAW_DECLINED:
		prose(b, tx->intro_declined, pname(c, actor(c)));
		break;
	case NOTICE_CLAIM:
		prose(b, tx->intro_claim, pname(c, actor(c)),
		    termination_text(n->termination, c->lang));
		break;
	case NOTICE_GAME_OVER:
		prose(b, tx->intro_over, n->result != NULL ? n->result :
		    "*", winner_text(tx, n->result),
		    termination_text(n->termination, c->lang));
		if (n->admin_reason != NULL) {
			buf_adds(b, "\n");
			prose(b, tx->admin_reason, n->admin_reason);
		}
		break;
	case NOTICE_REMINDER:
		render_time(n->deadline, t, sizeof t);
		duration(c, n->deadline - n->date, d, sizeof d);
		prose(b, tx->intro_reminder, t, d);
		break;
	case NOTICE_REFUSED:
		refused(c, b);
		break;
	case NOTICE_HOWTO:
		buf_adds(b, tx->intro_howto);
		break;
	case NOTICE_DIGEST:
		prose(b, tx->intro_digest);
		break;
	case NOTICE_CONDITIONAL:
		cond_intro(c, b);
		break;
	case NOTICE_LEAVE:
		prose(b, tx->intro_leave, pname(c, actor(c)),
		    n->leave_from != NULL ? n->leave_from : "?",
		    n->leave_to != NULL ? n->leave_to : "?");
		break;
	case NOTICE_ACCOUNT:
		prose(b, tx->intro_account, n->account_action != NULL ?
		    n->account_action : "?");
		break;
	case NOTICE_EVENT:
		event_intro(c, b);
		break;
	case NOTICE_EMAIL_CODE:
		render_time(n->deadline, t, sizeof t);
		prose(b, tx->intro_email_code, n->to_name != NULL ?
		    n->to_name : "?", n->account_action != NULL ?
		    n->account_action : "?", t);
		break;
	}
	if (n->message != NULL && n->message[0] != '\0' && n->game_id != 0) {
		buf_adds(b, "\n\n");
		prose(b, tx->message, pname(c, actor(c)), n->message);
	}
	buf_adds(b, "\n\n");
}

/* Write the move list, wrapped. */
static void
move_list(const struct ctx *c, struct buf *b)
{
	char	num[24], tok[64];
	size_t	i, col = 0, n;

	for (i = 0; i < c->n->nply; i++) {
		move_number(c, i, num, sizeof num);
		if ((c->start.side + i) % 2 == CHESS_WHITE || i == 0)
			snprintf(tok, sizeof tok, "%s %s", num, c->san[i]);
		else
			snprintf(tok, sizeof tok, "%s", c->san[i]);
		n = strlen(tok);
		if (col > 0 && col + 1 + n > MOVES_WIDTH) {
			buf_adds(b, "\n");
			col = 0;
		} else if (col > 0) {
			buf_adds(b, " ");
			col++;
		}
		buf_adds(b, tok);
		col += n;
	}
	if (c->n->result != NULL && c->over) {
		if (col > 0 && col + 1 + strlen(c->n->result) > MOVES_WIDTH)
			buf_adds(b, "\n");
		else if (col > 0)
			buf_adds(b, " ");
		buf_adds(b, c->n->result);
	}
	buf_adds(b, "\n\n");
}

/* Append to a clock's time the moves to the ICCF control (`tmpl` with one
 * "%d"), when there are some. */
static void
to_control(char *buf, size_t size, const char *tmpl, int moves)
{
	const char	*at = strstr(tmpl, "%d");
	size_t		 n = strlen(buf);

	if (moves <= 0 || at == NULL)
		return;
	snprintf(buf + n, size - n, "%.*s%d%s", (int)(at - tmpl), tmpl, moves,
	    at + 2);
}

/* Write the game's state: players, board, move, clocks, moves. */
static void
state(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	char			 id[24], board[RENDER_BOARD_MAX], t[64], d[64];
	char			 d2[64], tc[GAME_TC_TEXT_MAX];
	const char		*p, *q;
	int			 side = c->pos.side;

	snprintf(id, sizeof id, "%" PRId64, n->game_id);
	put(b, tx->game_line, id, pname(c, CHESS_WHITE),
	    tx->color[CHESS_WHITE], pname(c, CHESS_BLACK),
	    tx->color[CHESS_BLACK]);
	buf_adds(b, "\n");
	if (n->time_control != NULL && *n->time_control != '\0') {
		time_control(c, n->time_control, tc, sizeof tc);
		put(b, tx->tc_line, tc);
		buf_adds(b, "\n");
	}
	if (n->start_fen != NULL && *n->start_fen != '\0') {
		put(b, tx->start_line, n->start_fen);
		buf_adds(b, "\n");
	}
	buf_adds(b, "\n");

	/* The board, indented, from the recipient's side. */
	render_board_lang(&c->pos, false, c->rcpt == CHESS_BLACK, c->lang,
	    board, sizeof board);
	for (p = board; *p != '\0'; p = q) {
		q = strchr(p, '\n');
		q = q != NULL ? q + 1 : p + strlen(p);
		buf_adds(b, "    ");
		buf_add(b, p, (size_t)(q - p));
	}
	if (tx->board_key)
		put(b, "    %s\n", render_board_key(c->lang));
	buf_adds(b, "\n");

	if (c->last[0] != '\0')
		put(b, tx->last_move, c->last, pname(c, c->last_mover));
	else
		buf_adds(b, tx->no_move);
	buf_adds(b, "\n");
	if (c->over) {
		put(b, tx->result_line, n->result,
		    winner_text(tx, n->result),
		    termination_text(n->termination, c->lang));
		buf_adds(b, "\n");
	} else {
		snprintf(id, sizeof id, "%u", (unsigned)c->pos.fullmove);
		put(b, tx->to_move, pname(c, side), tx->color[side], id);
		buf_adds(b, "\n");
		if (n->draw_offer == CHESS_WHITE ||
		    n->draw_offer == CHESS_BLACK) {
			put(b, tx->offer_pending,
			    pname(c, n->draw_offer));
			buf_adds(b, "\n");
		}
	}
	if (n->clock[0] >= 0 || n->clock[1] >= 0) {
		duration(c, n->clock[0] >= 0 ? n->clock[0] : 0, d,
		    sizeof d);
		duration(c, n->clock[1] >= 0 ? n->clock[1] : 0, d2,
		    sizeof d2);
		to_control(d, sizeof d, tx->to_control, n->to_control[0]);
		to_control(d2, sizeof d2, tx->to_control, n->to_control[1]);
		put(b, tx->clocks, tx->color[CHESS_WHITE],
		    pname(c, CHESS_WHITE), n->clock[0] >= 0 ? d : "-",
		    tx->color[CHESS_BLACK], pname(c, CHESS_BLACK),
		    n->clock[1] >= 0 ? d2 : "-");
		buf_adds(b, "\n");
	}
	if (!c->over && n->deadline > 0) {
		render_time(n->deadline, t, sizeof t);
		if (n->deadline > n->date) {
			duration(c, n->deadline - n->date, d, sizeof d);
			put(b, tx->deadline, pname(c, side), t, d);
		} else
			put(b, tx->deadline_past, pname(c, side), t);
		buf_adds(b, "\n");
	}
	buf_adds(b, "\n");

	if (n->nply > 0) {
		buf_adds(b, tx->moves);
		buf_adds(b, "\n");
		move_list(c, b);
	}
}

/* Write how to sign a statement and send it back. */
static void
sign_howto(const struct ctx *c, struct buf *b, const char *game,
    const char *ply, const char *player, const char *move)
{
	const struct texts *tx = c->tx;

	para(b, tx->sign);
	put(b, "    corrchess sign --game %s --ply %s --player %s move %s\n",
	    game, ply, player, move);
	put(b, "        (%s)\n", tx->sign_cli);
	buf_adds(b, "    ssh-keygen -Y sign -n corrchess -f ~/.ssh/id_ed25519 "
	    "move.txt\n");
	put(b, "        (%s)\n\n", tx->sign_ssh);
	para(b, tx->send);
}

/* Write the recipient's next action: a ready statement, or who is to
 * move. */
static void
next_action(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	int			 side = c->pos.side;
	char			 id[24], ply[24], t[64];

	if (c->over) {
		para(b, tx->over);
		return;
	}
	if (c->rcpt < 0)
		return;
	if (side != c->rcpt) {
		prose(b, tx->wait, pname(c, side));
		buf_adds(b, "\n\n");
		return;
	}
	if (n->reply_token != NULL) {
		render_time(n->reply_token_expires, t, sizeof t);
		prose(b, tx->reply_token, tx->example_move, tx->example_move,
		    t);
		buf_adds(b, "\n");
		prose(b, tx->reply_message);
		buf_addf(b, "\n\n    " MAIL_TOKEN_TAG " %s\n\n", n->reply_token);
	}
	prose(b, tx->ready, tx->example_move);
	buf_adds(b, "\n\n");
	buf_addf(b, "corrchess-v1\ngame: %" PRId64 "\nply: %zu\nplayer: %s\n"
	    "action: move \n\n", n->game_id, n->nply, pname(c, c->rcpt));
	prose(b, tx->other_actions);
	buf_adds(b, "\n");
	prose(b, tx->message_howto);
	buf_adds(b, "\n");
	if (n->draw_offer == !c->rcpt) {
		prose(b, tx->offer_actions);
		buf_adds(b, "\n");
	}
	buf_adds(b, "\n");
	snprintf(id, sizeof id, "%" PRId64, n->game_id);
	snprintf(ply, sizeof ply, "%zu", n->nply);
	sign_howto(c, b, id, ply, pname(c, c->rcpt), tx->example_move);
}

/* Write the last move of a digest's game, in the recipient's language,
 * and who played it; "" when none or when the moves do not replay. */
static void
digest_last(const struct ctx *c, const struct notice_digest_game *e,
    char *buf, size_t size, int *mover)
{
	struct chess_position	pos, start;
	chess_move		m;
	char			san[CHESS_SAN_MAX];
	size_t			i;
	unsigned		side;
	unsigned long		num;

	buf[0] = '\0';
	*mover = -1;
	if (e->start_fen != NULL && *e->start_fen != '\0') {
		if (chess_fen_parse(&start, e->start_fen, e->chess960 ?
		    CHESS_FEN_960 : 0) != CHESS_OK)
			return;
	} else
		chess_position_start(&start);
	pos = start;
	for (i = 0; i < e->nply; i++) {
		if (e->san == NULL || e->san[i] == NULL ||
		    chess_move_parse(&pos, e->san[i], CHESS_LANG_EN, &m, NULL,
		    0) != CHESS_OK)
			return;
		if (i + 1 == e->nply) {
			chess_move_san(&pos, m, c->lang, san, sizeof san);
			side = (start.side + i) % 2;
			num = start.fullmove + (start.side + i) / 2;
			snprintf(buf, size, "%lu%s %s", num, side ==
			    CHESS_WHITE ? "." : "...", san);
			*mover = (int)side;
		}
		chess_position_make(&pos, m);
	}
}

/* Write one game of a digest. */
static void
digest_game(const struct ctx *c, struct buf *b,
    const struct notice_digest_game *e)
{
	const struct texts	*tx = c->tx;
	char			 id[24], ply[24], last[CHESS_SAN_MAX + 24];
	char			 t[64], d[64];
	int			 mover;

	snprintf(id, sizeof id, "%" PRId64, e->game_id);
	snprintf(ply, sizeof ply, "%zu", e->nply);
	put(b, tx->game_line, id, e->white != NULL ? e->white : "?",
	    tx->color[CHESS_WHITE], e->black != NULL ? e->black : "?",
	    tx->color[CHESS_BLACK]);
	buf_adds(b, "\n");
	digest_last(c, e, last, sizeof last, &mover);
	if (last[0] != '\0') {
		put(b, tx->last_move, last, mover == CHESS_WHITE ?
		    (e->white != NULL ? e->white : "?") :
		    (e->black != NULL ? e->black : "?"));
	} else
		buf_adds(b, tx->no_move);
	buf_adds(b, "\n");
	if (e->time_left >= 0) {
		duration(c, e->time_left, d, sizeof d);
		put(b, tx->digest_left, d);
		buf_adds(b, "\n");
	}
	if (e->deadline > 0) {
		render_time(e->deadline, t, sizeof t);
		if (e->deadline > c->n->date) {
			duration(c, e->deadline - c->n->date, d, sizeof d);
			put(b, tx->digest_deadline, t, d);
		} else
			put(b, tx->digest_deadline_past, t);
		buf_adds(b, "\n");
	}
	prose(b, tx->digest_play, id, ply);
	buf_adds(b, "\n\n");
}

/* Write the rules an event's games share. */
static void
event_rules(const struct ctx *c, struct buf *b)
{
	const struct notice_event	*e = c->n->event;
	const struct texts		*tx = c->tx;
	char				 t[128], num[24];

	buf_adds(b, tx->event_rules);
	buf_adds(b, "\n");
	time_control(c, e->time_control != NULL ? e->time_control : "none",
	    t, sizeof t);
	put(b, tx->tc_line, t);
	buf_adds(b, "\n");
	snprintf(num, sizeof num, "%d", e->chess960);
	if (e->fen != NULL && *e->fen != '\0')
		put(b, tx->event_variant[3], e->fen);
	else if (e->variant == NULL || strcmp(e->variant, "chess960") != 0)
		buf_adds(b, tx->event_variant[0]);
	else
		put(b, tx->event_variant[e->chess960_pairing ||
		    e->chess960 < 0 ? 2 : 1], num);
	buf_adds(b, "\n");
	if (e->draw_min_move > 0) {
		snprintf(num, sizeof num, "%d", e->draw_min_move);
		prose(b, tx->event_draw_min, num);
		buf_adds(b, "\n");
	}
	if (e->draw_offer_every > 0) {
		snprintf(num, sizeof num, "%d", e->draw_offer_every);
		prose(b, tx->event_draw_every, num);
		buf_adds(b, "\n");
	}
	if (e->draw_min_move <= 0 && e->draw_offer_every <= 0) {
		prose(b, tx->event_draw_none);
		buf_adds(b, "\n");
	}
	prose(b, tx->event_policy[e->policy != NULL &&
	    strcmp(e->policy, "claim") == 0]);
	buf_adds(b, "\n");
	snprintf(num, sizeof num, "%d", e->leave_days);
	put(b, tx->event_leave, num);
	buf_adds(b, "\n");
	buf_adds(b, tx->event_rated[e->rated]);
	buf_adds(b, "\n");
	prose(b, tx->event_withdrawal[e->withdrawal != NULL &&
	    strcmp(e->withdrawal, "annul") == 0]);
	buf_adds(b, "\n\n");
}

/* Write one of the recipient's games of an event: its round, id,
 * colour and opponent, and (after a withdrawal) what became of it. */
static void
event_game(const struct ctx *c, struct buf *b,
    const struct notice_event_game *g)
{
	const struct texts	*tx = c->tx;
	const char		*color = tx->color[g->color == CHESS_BLACK];
	const char		*opp = g->opponent != NULL ? g->opponent : "?";
	struct buf		 o = { 0 };
	char			 round[24], id[24];

	snprintf(round, sizeof round, "%d", g->round);
	snprintf(id, sizeof id, "%" PRId64, g->game_id);
	if (c->n->event->what != NOTICE_EVENT_WITHDRAWAL) {
		put(b, tx->event_game, round, id, color, opp);
		buf_adds(b, "\n");
		return;
	}
	if (g->adjusted != NULL && strcmp(g->adjusted, "annulled") == 0)
		buf_adds(&o, tx->event_outcome[0]);
	else if (g->adjusted != NULL && *g->adjusted != '\0')
		buf_adds(&o, tx->event_outcome[1]);
	else
		put(&o, tx->event_outcome[2], g->result != NULL ? g->result :
		    "*");
	prose(b, tx->event_outcome_game, round, id, color, opp,
	    o.data != NULL ? o.data : "");
	buf_adds(b, "\n");
	buf_free(&o);
}

/* Write the body of an event's notice: the rules and the games at the
 * start, the games with the withdrawn player, the standings at the end. */
static void
event_body(const struct ctx *c, struct buf *b)
{
	const struct notice_event	*e = c->n->event;
	const struct texts		*tx = c->tx;
	struct crosstable		 ct;
	char				 pts[24], games[24], place[48];
	size_t				 i;

	if (e->what == NOTICE_EVENT_START) {
		event_rules(c, b);
		snprintf(games, sizeof games, "%zu", e->nmine);
		put(b, tx->event_games, games);
		buf_adds(b, "\n");
	} else if (e->what == NOTICE_EVENT_WITHDRAWAL) {
		prose(b, tx->event_withdrawal[e->withdrawal != NULL &&
		    strcmp(e->withdrawal, "annul") == 0]);
		buf_adds(b, "\n\n");
	}
	if (e->what != NOTICE_EVENT_END) {
		for (i = 0; i < e->nmine; i++)
			event_game(c, b, &e->mine[i]);
		buf_adds(b, "\n");
		if (e->what == NOTICE_EVENT_START) {
			prose(b, tx->event_play, e->name);
			buf_adds(b, "\n\n");
		}
		return;
	}
	if (e->own != NULL) {
		crosstable_points(e->own->points2, false, pts, sizeof pts);
		snprintf(games, sizeof games, "%u", e->own->played);
		if (e->own->place_last > e->own->place)
			snprintf(place, sizeof place, "%u-%u", e->own->place,
			    e->own->place_last);
		else
			snprintf(place, sizeof place, "%u", e->own->place);
		prose(b, tx->event_result, pts, games, place);
		buf_adds(b, "\n\n");
	}
	if (e->standings != NULL) {
		buf_adds(b, tx->event_standings);
		buf_adds(b, "\n\n");
		/* Drawn as it is: its columns must not be wrapped. */
		ct = *e->standings;
		ct.lang = c->lang;
		crosstable_text(&ct, b);
		buf_adds(b, "\n");
	}
}

/* Write the body text. */
static void
body(const struct ctx *c, struct buf *b, const char *to_name)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	size_t			 i;

	put(b, tx->hello, to_name);
	buf_adds(b, "\n\n");
	intro(c, b);
	if (c->game) {
		state(c, b);
		next_action(c, b);
	} else if (n->kind == NOTICE_DIGEST) {
		for (i = 0; i < n->ndigest; i++)
			digest_game(c, b, &n->digest[i]);
	} else if (n->kind == NOTICE_EVENT) {
		event_body(c, b);
	} else if (n->kind == NOTICE_ACCOUNT) {
		para(b, tx->account_after);
		if (n->account_summary != NULL)
			put(b, "%s\n", n->account_summary);
		para(b, tx->account_warn);
	} else if (n->kind == NOTICE_EMAIL_CODE) {
		para(b, tx->email_code_sign);
		if (n->account_summary != NULL)
			put(b, "%s\n", n->account_summary);
	} else if (n->kind == NOTICE_HOWTO || n->kind == NOTICE_REFUSED) {
		para(b, tx->howto_generic);
		sign_howto(c, b, tx->placeholders[0], tx->placeholders[1],
		    tx->placeholders[2], tx->placeholders[3]);
	}
	if (n->pgn != NULL)
		para(b, tx->pgn_note);
	buf_adds(b, "-- \n");
	buf_adds(b, tx->footer);
	buf_adds(b, "\n");
}

/* True if a text is all 7-bit. */
static bool
is_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* Add an address list header from text ("Name <addr>"); -1 if empty. */
static int
add_addresses(InternetAddressList *dst, const char *text)
{
	InternetAddressList *l;

	if (text == NULL || (l = internet_address_list_parse(NULL, text)) ==
	    NULL)
		return -1;
	if (internet_address_list_length(l) == 0) {
		g_object_unref(l);
		return -1;
	}
	internet_address_list_append(dst, l);
	g_object_unref(l);
	return 0;
}

/* Set a part's content to `len` bytes (copied), as they are: GMime's
 * g_mime_text_part_set_text() would convert the text to another charset. */
static int
part_content(GMimePart *part, const char *s, size_t len)
{
	GMimeStream		*stream;
	GMimeDataWrapper	*wrap;

	stream = g_mime_stream_mem_new_with_buffer(s, len);
	if (stream == NULL)
		return -1;
	wrap = g_mime_data_wrapper_new_with_stream(stream,
	    GMIME_CONTENT_ENCODING_DEFAULT);
	g_object_unref(stream);
	if (wrap == NULL)
		return -1;
	g_mime_part_set_content(part, wrap);
	g_object_unref(wrap);
	return 0;
}

/* Compose a notice. */
int
notice_compose(const struct notice *n, struct notice_mail *out, char *err,
    size_t errsize)
{
	struct ctx		 c;
	struct buf		 sb = { 0 }, bb = { 0 };
	char			*subj = NULL, *text = NULL, *s = NULL;
	char			 root[NOTICE_ID_SIZE], hdr[2 * NOTICE_ID_SIZE + 8];
	char			 id[24];
	const char		*to, *to_name;
	gchar			*uuid = NULL;
	GMimeMessage		*msg = NULL;
	GMimeMultipart		*mixed = NULL;
	GMimeTextPart		*tp = NULL;
	GMimePart		*pgn = NULL;
	GMimeFormatOptions	*fo = NULL;
	GDateTime		*dt = NULL;
	size_t			 len;
	int			 rc = -1;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	c.n = n;
	if ((unsigned)n->kind >= NOTICE_KIND_COUNT)
		return fail(err, errsize, "unknown notice kind", NULL);
	if (n->domain == NULL || *n->domain == '\0')
		return fail(err, errsize, "no mail domain", NULL);

	/* The recipient. */
	c.rcpt = n->recipient == CHESS_WHITE || n->recipient == CHESS_BLACK ?
	    n->recipient : -1;
	if (c.rcpt >= 0) {
		to = n->players[c.rcpt].email;
		to_name = n->players[c.rcpt].full_name != NULL &&
		    *n->players[c.rcpt].full_name != '\0' ?
		    n->players[c.rcpt].full_name : n->players[c.rcpt].name;
		c.lang = n->players[c.rcpt].lang;
	} else {
		to = n->to_email;
		to_name = n->to_name;
		c.lang = n->to_lang;
	}
	if (c.lang != CHESS_LANG_FR)
		c.lang = CHESS_LANG_EN;
	c.tx = c.lang == CHESS_LANG_FR ? &notice_texts_fr : &notice_texts_en;
	if (to == NULL || *to == '\0' || strlen(to) >= sizeof out->to)
		return fail(err, errsize, "no address for the recipient", NULL);
	if (to_name == NULL)
		to_name = "";
	if (setup(&c, err, errsize) != 0)
		goto out;
	if (n->kind == NOTICE_DIGEST && (n->ndigest == 0 || n->digest ==
	    NULL)) {
		fail(err, errsize, "a digest needs at least one game", NULL);
		goto out;
	}
	if (n->kind == NOTICE_EVENT && (n->event == NULL ||
	    n->event->name == NULL || (unsigned)n->event->what > 2)) {
		fail(err, errsize, "an event's notice needs its event", NULL);
		goto out;
	}
	if (n->kind != NOTICE_HOWTO && n->kind != NOTICE_REFUSED &&
	    n->kind != NOTICE_DIGEST && n->kind != NOTICE_ACCOUNT &&
	    n->kind != NOTICE_EMAIL_CODE && n->kind != NOTICE_EVENT &&
	    (!c.game || c.rcpt < 0)) {
		fail(err, errsize, "this notice needs a game and one of "
		    "its players", NULL);
		goto out;
	}

	/* Thread ids. */
	if (n->thread_root != NULL && *n->thread_root != '\0')
		snprintf(root, sizeof root, "%s", n->thread_root);
	else if (c.game)
		notice_thread_root(n->game_id, c.rcpt, n->domain, root,
		    sizeof root);
	else
		root[0] = '\0';
	if (n->message_id != NULL && *n->message_id != '\0')
		snprintf(out->message_id, sizeof out->message_id, "%s",
		    n->message_id);
	else if (n->kind == NOTICE_NEW_GAME && root[0] != '\0')
		snprintf(out->message_id, sizeof out->message_id, "%s", root);
	else {
		uuid = g_uuid_string_random();
		if (c.game)
			snprintf(out->message_id, sizeof out->message_id,
			    "game-%" PRId64 ".p%zu.%s@%s", n->game_id, n->nply,
			    uuid, n->domain);
		else
			snprintf(out->message_id, sizeof out->message_id,
			    "corrchess.%s@%s", uuid, n->domain);
	}
	snprintf(out->to, sizeof out->to, "%s", to);

	/* The texts. */
	subject(&c, &sb);
	body(&c, &bb, *to_name != '\0' ? to_name : to);
	if ((subj = buf_take(&sb, NULL)) == NULL ||
	    (text = buf_take(&bb, &len)) == NULL) {
		fail(err, errsize, "out of memory", NULL);
		goto out;
	}

	/* The message. */
	mail_gmime_init();
	msg = g_mime_message_new(TRUE);
	if (add_addresses(g_mime_message_get_from(msg), n->from) != 0) {
		fail(err, errsize, "From address does not parse", n->from);
		goto out;
	}
	g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, to_name, to);
	if (n->reply_to != NULL && *n->reply_to != '\0' &&
	    add_addresses(g_mime_message_get_reply_to(msg), n->reply_to) != 0) {
		fail(err, errsize, "Reply-To address does not parse",
		    n->reply_to);
		goto out;
	}
	g_mime_message_set_subject(msg, subj, "utf-8");
	dt = g_date_time_new_from_unix_utc(n->date);
	if (dt == NULL) {
		fail(err, errsize, "date out of range", NULL);
		goto out;
	}
	g_mime_message_set_date(msg, dt);
	g_mime_message_set_message_id(msg, out->message_id);

	/* In-Reply-To and References: the root, then the mail answered. */
	if (n->answered_id != NULL && *n->answered_id != '\0') {
		snprintf(hdr, sizeof hdr, "<%s>", n->answered_id);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", hdr,
		    NULL);
		if (root[0] != '\0' && strcmp(root, n->answered_id) != 0)
			snprintf(hdr, sizeof hdr, "<%s> <%s>", root,
			    n->answered_id);
		g_mime_object_set_header(GMIME_OBJECT(msg), "References", hdr,
		    NULL);
	} else if (root[0] != '\0' && strcmp(root, out->message_id) != 0) {
		snprintf(hdr, sizeof hdr, "<%s>", root);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", hdr,
		    NULL);
		g_mime_object_set_header(GMIME_OBJECT(msg), "References", hdr,
		    NULL);
	}
	g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted",
	    n->kind == NOTICE_REFUSED || n->kind == NOTICE_HOWTO ?
	    "auto-replied" : "auto-generated", NULL);
	g_mime_object_set_header(GMIME_OBJECT(msg), "Content-Language",
	    c.tx->code, NULL);
	if (c.game) {
		snprintf(id, sizeof id, "%" PRId64, n->game_id);
		g_mime_object_set_header(GMIME_OBJECT(msg), "X-Corrchess-Game",
		    id, NULL);
	}
	if (n->kind == NOTICE_EVENT)
		g_mime_object_set_header(GMIME_OBJECT(msg),
		    "X-Corrchess-Event", n->event->name, NULL);

	/* The text part. */
	mixed = g_mime_multipart_new_with_subtype("mixed");
	tp = g_mime_text_part_new_with_subtype("plain");
	if (part_content(GMIME_PART(tp), text, len) != 0) {
		fail(err, errsize, "out of memory", NULL);
		goto out;
	}
	g_mime_text_part_set_charset(tp, "utf-8");
	g_mime_part_set_content_encoding(GMIME_PART(tp), is_ascii(text, len) ?
	    GMIME_CONTENT_ENCODING_7BIT :
	    GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	g_mime_multipart_add(mixed, GMIME_OBJECT(tp));

	/* The PGN attachment. */
	if (n->pgn != NULL) {
		pgn = g_mime_part_new_with_type("application", "x-chess-pgn");
		if (part_content(pgn, n->pgn, n->pgn_len) != 0) {
			fail(err, errsize, "out of memory", NULL);
			goto out;
		}
		g_mime_object_set_disposition(GMIME_OBJECT(pgn), "attachment");
		if (c.game)
			snprintf(id, sizeof id, "game-%" PRId64 ".pgn",
			    n->game_id);
		else
			snprintf(id, sizeof id, "game.pgn");
		g_mime_part_set_filename(pgn, id);
		g_mime_part_set_content_encoding(pgn,
		    is_ascii(n->pgn, n->pgn_len) ? GMIME_CONTENT_ENCODING_7BIT :
		    GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
		g_mime_multipart_add(mixed, GMIME_OBJECT(pgn));
	}
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(mixed));

	/* Out, with CRLF line ends as RFC 5322 wants them. */
	fo = g_mime_format_options_new();
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_DOS);
	s = g_mime_object_to_string(GMIME_OBJECT(msg), fo);
	if (s == NULL || (out->data = strdup(s)) == NULL) {
		fail(err, errsize, "out of memory", NULL);
		goto out;
	}
	out->len = strlen(out->data);
	rc = 0;
out:
	g_free(s);
	if (fo != NULL)
		g_mime_format_options_free(fo);
	if (pgn != NULL)
		g_object_unref(pgn);
	if (tp != NULL)
		g_object_unref(tp);
	if (mixed != NULL)
		g_object_unref(mixed);
	if (dt != NULL)
		g_date_time_unref(dt);
	if (msg != NULL)
		g_object_unref(msg);
	g_free(uuid);
	free(subj);
	free(text);
	buf_free(&sb);
	buf_free(&bb);
	free(c.san);
	if (rc != 0)
		memset(out, 0, sizeof *out);
	return rc;
}

/* Release a composed mail. */
void
notice_mail_free(struct notice_mail *m)
{
	if (m == NULL)
		return;
	free(m->data);
	memset(m, 0, sizeof *m);
}
