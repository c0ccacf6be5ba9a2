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
#include "letters/notice_event.h"
#include "letters/notice_texts.h"
#include "game/game.h"
#include "game/render.h"

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
			notice_texts_put(b, "%s%s",
			    strncmp(n->answered_subject, "Re:", 3) == 0 ? "" :
			    tx->refused_subject_re, n->answered_subject);
		else {
			buf_adds(b, "[corrchess] ");
			buf_adds(b, fmt);
		}
		return;
	}
	if (n->kind == NOTICE_EVENT) {
		notice_event_subject(c->n->event, c->tx, b);
		return;
	}
	if (c->game) {
		snprintf(id, sizeof id, "%" PRId64, n->game_id);
		notice_texts_put(b, tx->subject_game, id, pname(c, CHESS_WHITE),
		    pname(c, CHESS_BLACK));
	} else
		buf_adds(b, "[corrchess] ");
	switch (n->kind) {
	case NOTICE_NEW_GAME:
		notice_texts_put(b, fmt, tx->color[c->rcpt >= 0 ? c->rcpt : 0]);
		break;
	case NOTICE_MOVED:
	case NOTICE_DRAW_OFFERED:
		notice_texts_put(b, fmt, c->last[0] != '\0' ? c->last : "-");
		break;
	case NOTICE_GAME_OVER:
		notice_texts_put(b, fmt, n->result != NULL ? n->result : "*",
		    termination_text(n->termination, c->lang));
		break;
	case NOTICE_REMINDER:
		duration(c, n->deadline - n->date, t, sizeof t);
		notice_texts_put(b, fmt, t);
		break;
	case NOTICE_LEAVE:
		notice_texts_put(b, fmt, pname(c, actor(c)));
		break;
	case NOTICE_DIGEST:
		snprintf(id, sizeof id, "%zu", n->ndigest);
		if (n->ndigest == 1)
			buf_adds(b, tx->subject_digest_one);
		else
			notice_texts_put(b, fmt, id);
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
	notice_texts_wrap(b, s, strlen(s));
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
		notice_texts_prose(b, tx->intro_refused_code, what, reason);
	else
		notice_texts_prose(b, tx->intro_refused, reason);
	if (!has_stop(reason))
		buf_adds(b, ".");
}

/* Write what happened to the recipient's conditional moves. */
static void
cond_intro(const struct ctx *c, struct buf *b)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	char			 pair[2 * CHESS_SAN_MAX + 2], *sp, *lines = NULL;
	size_t			 len;

	if ((unsigned)n->cond_event > NOTICE_COND_PLAYED)
		return;
	/* The lines are kept in English SAN: the recipient's letters. */
	if (n->cond_lines != NULL && (lines = malloc((len =
	    strlen(n->cond_lines) + 1))) != NULL)
		chess_san_text_lang(n->cond_lines, c->lang, lines, len);
	if (n->cond_event != NOTICE_COND_PLAYED) {
		notice_texts_prose(b, tx->intro_cond[n->cond_event],
		    lines != NULL ? lines : "-");
		goto out;
	}
	/* "e5 Nf3": the opponent's move, then the answer. */
	chess_san_text_lang(n->cond_played != NULL ? n->cond_played : "- -",
	    c->lang, pair, sizeof pair);
	if ((sp = strchr(pair, ' ')) == NULL)
		sp = pair + strlen(pair);
	else
		*sp++ = '\0';
	notice_texts_prose(b, tx->intro_cond[NOTICE_COND_PLAYED],
	    pname(c, actor(c)), pair, sp);
	buf_adds(b, "\n");
	if (lines != NULL && lines[0] != '\0')
		notice_texts_prose(b, tx->cond_left, lines);
	else
		notice_texts_prose(b, tx->cond_none_left);
 out:
	free(lines);
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
		notice_texts_prose(b, tx->intro_new, tx->color[c->rcpt >= 0 ?
		    c->rcpt : 0]);
		break;
	case NOTICE_MOVED:
		notice_texts_prose(b, tx->intro_moved, pname(c, actor(c)),
		    c->last[0] != '\0' ? c->last : "-");
		break;
	case NOTICE_DRAW_OFFERED:
		notice_texts_prose(b, tx->intro_offered, pname(c, actor(c)),
		    c->last[0] != '\0' ? c->last : "-");
		buf_adds(b, "\n");
		notice_texts_prose(b, tx->offer_howto);
		break;
	case NOTICE_DRAW_ACCEPTED:
		notice_texts_prose(b, tx->intro_accepted, pname(c, actor(c)));
		break;
	case NOTICE_DRAW_DECLINED:
		notice_texts_prose(b, tx->intro_declined, pname(c, actor(c)));
		break;
	case NOTICE_CLAIM:
		notice_texts_prose(b, tx->intro_claim, pname(c, actor(c)),
		    termination_text(n->termination, c->lang));
		break;
	case NOTICE_GAME_OVER:
		notice_texts_prose(b, tx->intro_over,
		    n->result != NULL ? n->result : "*",
		    winner_text(tx, n->result),
		    termination_text(n->termination, c->lang));
		if (n->admin_reason != NULL) {
			buf_adds(b, "\n");
			notice_texts_prose(b, tx->admin_reason,
			    n->admin_reason);
		}
		break;
	case NOTICE_REMINDER:
		render_time(n->deadline, t, sizeof t);
		duration(c, n->deadline - n->date, d, sizeof d);
		notice_texts_prose(b, tx->intro_reminder, t, d);
		break;
	case NOTICE_REFUSED:
		refused(c, b);
		break;
	case NOTICE_HOWTO:
		buf_adds(b, tx->intro_howto);
		break;
	case NOTICE_DIGEST:
		notice_texts_prose(b, tx->intro_digest);
		break;
	case NOTICE_CONDITIONAL:
		cond_intro(c, b);
		break;
	case NOTICE_LEAVE:
		notice_texts_prose(b, tx->intro_leave, pname(c, actor(c)),
		    n->leave_from != NULL ? n->leave_from : "?",
		    n->leave_to != NULL ? n->leave_to : "?");
		break;
	case NOTICE_ACCOUNT:
		notice_texts_prose(b, tx->intro_account,
		    n->account_action != NULL ? n->account_action : "?");
		break;
	case NOTICE_EVENT:
		notice_event_intro(c->n->event, c->tx, b);
		break;
	case NOTICE_EMAIL_CODE:
		render_time(n->deadline, t, sizeof t);
		notice_texts_prose(b, tx->intro_email_code, n->to_name != NULL ?
		    n->to_name : "?", n->account_action != NULL ?
		    n->account_action : "?", t);
		break;
	}
	if (n->message != NULL && n->message[0] != '\0' && n->game_id != 0) {
		buf_adds(b, "\n\n");
		notice_texts_prose(b, tx->message, pname(c, actor(c)),
		    n->message);
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
		if (col > 0 && col + 1 + n > NOTICE_WIDTH) {
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
		if (col > 0 && col + 1 + strlen(c->n->result) > NOTICE_WIDTH)
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
	notice_texts_put(b, tx->game_line, id, pname(c, CHESS_WHITE),
	    tx->color[CHESS_WHITE], pname(c, CHESS_BLACK),
	    tx->color[CHESS_BLACK]);
	buf_adds(b, "\n");
	if (n->time_control != NULL && *n->time_control != '\0') {
		notice_texts_tc(c->lang, n->time_control, tc, sizeof tc);
		notice_texts_put(b, tx->tc_line, tc);
		buf_adds(b, "\n");
	}
	if (n->start_fen != NULL && *n->start_fen != '\0') {
		notice_texts_put(b, tx->start_line, n->start_fen);
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
		notice_texts_put(b, "    %s\n", render_board_key(c->lang));
	buf_adds(b, "\n");

	if (c->last[0] != '\0')
		notice_texts_put(b, tx->last_move, c->last,
		    pname(c, c->last_mover));
	else
		buf_adds(b, tx->no_move);
	buf_adds(b, "\n");
	if (c->over) {
		notice_texts_put(b, tx->result_line, n->result,
		    winner_text(tx, n->result),
		    termination_text(n->termination, c->lang));
		buf_adds(b, "\n");
	} else {
		snprintf(id, sizeof id, "%u", (unsigned)c->pos.fullmove);
		notice_texts_put(b, tx->to_move, pname(c, side),
		    tx->color[side], id);
		buf_adds(b, "\n");
		if (n->draw_offer == CHESS_WHITE ||
		    n->draw_offer == CHESS_BLACK) {
			notice_texts_put(b, tx->offer_pending,
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
		notice_texts_put(b, tx->clocks, tx->color[CHESS_WHITE],
		    pname(c, CHESS_WHITE), n->clock[0] >= 0 ? d : "-",
		    tx->color[CHESS_BLACK], pname(c, CHESS_BLACK),
		    n->clock[1] >= 0 ? d2 : "-");
		buf_adds(b, "\n");
	}
	if (!c->over && n->deadline > 0) {
		render_time(n->deadline, t, sizeof t);
		if (n->deadline > n->date) {
			duration(c, n->deadline - n->date, d, sizeof d);
			notice_texts_put(b, tx->deadline, pname(c, side), t, d);
		} else
			notice_texts_put(b, tx->deadline_past, pname(c, side),
			    t);
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
	notice_texts_put(b,
	    "    corrchess sign --game %s --ply %s --player %s move %s\n", game,
	    ply, player, move);
	notice_texts_put(b, "        (%s)\n", tx->sign_cli);
	buf_adds(b, "    ssh-keygen -Y sign -n corrchess -f ~/.ssh/id_ed25519 "
	    "move.txt\n");
	notice_texts_put(b, "        (%s)\n\n", tx->sign_ssh);
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
		notice_texts_prose(b, tx->wait, pname(c, side));
		buf_adds(b, "\n\n");
		return;
	}
	if (n->reply_token != NULL) {
		render_time(n->reply_token_expires, t, sizeof t);
		notice_texts_prose(b, tx->reply_token, tx->example_move,
		    tx->example_move, t);
		buf_adds(b, "\n");
		notice_texts_prose(b, tx->reply_message);
		buf_addf(b, "\n\n    " MAIL_TOKEN_TAG " %s\n\n", n->reply_token);
	}
	notice_texts_prose(b, tx->ready, tx->example_move);
	buf_adds(b, "\n\n");
	buf_addf(b, "corrchess-v1\ngame: %" PRId64 "\nply: %zu\nplayer: %s\n"
	    "action: move \n\n", n->game_id, n->nply, pname(c, c->rcpt));
	notice_texts_prose(b, tx->other_actions);
	buf_adds(b, "\n");
	notice_texts_prose(b, tx->message_howto);
	buf_adds(b, "\n");
	if (n->draw_offer == !c->rcpt) {
		notice_texts_prose(b, tx->offer_actions);
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
	notice_texts_put(b, tx->game_line, id,
	    e->white != NULL ? e->white : "?", tx->color[CHESS_WHITE],
	    e->black != NULL ? e->black : "?", tx->color[CHESS_BLACK]);
	buf_adds(b, "\n");
	digest_last(c, e, last, sizeof last, &mover);
	if (last[0] != '\0') {
		notice_texts_put(b, tx->last_move, last, mover == CHESS_WHITE ?
		    (e->white != NULL ? e->white : "?") :
		    (e->black != NULL ? e->black : "?"));
	} else
		buf_adds(b, tx->no_move);
	buf_adds(b, "\n");
	if (e->time_left >= 0) {
		duration(c, e->time_left, d, sizeof d);
		notice_texts_put(b, tx->digest_left, d);
		buf_adds(b, "\n");
	}
	if (e->deadline > 0) {
		render_time(e->deadline, t, sizeof t);
		if (e->deadline > c->n->date) {
			duration(c, e->deadline - c->n->date, d, sizeof d);
			notice_texts_put(b, tx->digest_deadline, t, d);
		} else
			notice_texts_put(b, tx->digest_deadline_past, t);
		buf_adds(b, "\n");
	}
	notice_texts_prose(b, tx->digest_play, id, ply);
	buf_adds(b, "\n\n");
}

/* Write the body text. */
static void
body(const struct ctx *c, struct buf *b, const char *to_name)
{
	const struct notice	*n = c->n;
	const struct texts	*tx = c->tx;
	size_t			 i;

	notice_texts_put(b, tx->hello, to_name);
	buf_adds(b, "\n\n");
	intro(c, b);
	if (c->game) {
		state(c, b);
		next_action(c, b);
	} else if (n->kind == NOTICE_DIGEST) {
		for (i = 0; i < n->ndigest; i++)
			digest_game(c, b, &n->digest[i]);
	} else if (n->kind == NOTICE_EVENT) {
		notice_event_body(c->n->event, c->tx, c->lang, b);
	} else if (n->kind == NOTICE_ACCOUNT) {
		para(b, tx->account_after);
		if (n->account_summary != NULL)
			notice_texts_put(b, "%s\n", n->account_summary);
		para(b, tx->account_warn);
	} else if (n->kind == NOTICE_EMAIL_CODE) {
		para(b, tx->email_code_sign);
		if (n->account_summary != NULL)
			notice_texts_put(b, "%s\n", n->account_summary);
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
