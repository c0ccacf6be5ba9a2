/*
 * letters/notice_texts.h: the fixed texts of the notices, one table a language.
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
 * Private to src/letters: notice.c composes a notice from these tables;
 * notice_texts.c holds them. A new text is a field here and a line in
 * each language's table.
 */

#ifndef CORRCHESS_NOTICE_TEXTS_H
#define CORRCHESS_NOTICE_TEXTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"
#include "chess/chess.h"
#include "letters/notice.h"

/*
 * The fixed texts of one language. Each format takes its arguments in the
 * same order in every language (the comment says which).
 */
struct texts {
	const char	*code;		/* Content-Language */
	const char	*color[2];	/* "White" "Black" */
	const char	*subject_game;	/* id, white, black */
	const char	*subject_kind[NOTICE_KIND_COUNT];
	const char	*hello;		/* name */
	const char	*intro_new;	/* colour */
	const char	*intro_moved;	/* who, move */
	const char	*intro_offered;	/* who, move */
	const char	*offer_howto;
	const char	*intro_accepted;/* who */
	const char	*intro_declined;/* who */
	const char	*intro_claim;	/* who, termination */
	const char	*intro_over;	/* result, winner, termination */
	const char	*admin_reason;	/* the admin's reason */
	const char	*message;	/* who, the message */
	const char	*message_howto;	/* with a signed statement */
	const char	*reply_message;	/* with a reply without a key */
	const char	*intro_reminder;/* time, duration */
	const char	*intro_refused;	/* reason */
	const char	*intro_refused_code; /* what was refused, reason */
	const char	*refused_unknown;	/* neither reason nor code */
	const char	*intro_howto;
	const char	*intro_leave;	/* who, from, to */
	const char	*intro_account;	/* the action */
	const char	*account_after;
	const char	*account_warn;
	const char	*intro_email_code;	/* player, code, time */
	const char	*email_code_sign;
	const char	*intro_cond[4];	/* lines, by notice_cond_event;
					   PLAYED: who, move, answer */
	const char	*cond_left;	/* lines */
	const char	*cond_none_left;
	const char	*subject_digest_one;
	const char	*intro_digest;
	const char	*digest_deadline;	/* time, duration */
	const char	*digest_deadline_past;	/* time */
	const char	*digest_left;	/* duration */
	const char	*digest_play;	/* game, ply */
	const char	*game_line;	/* id, white, colour, black, colour */
	const char	*tc_line;	/* time control */
	bool		 board_key;	/* say what the board's letters are */
	const char	*start_line;	/* FEN */
	const char	*last_move;	/* move, who */
	const char	*no_move;
	const char	*to_move;	/* who, colour, move number */
	const char	*offer_pending;	/* who */
	const char	*result_line;	/* result, winner, termination */
	const char	*clocks;	/* c1, n1, t1, c2, n2, t2 */
	const char	*to_control;	/* moves (ICCF), after a time */
	const char	*deadline;	/* who, time, duration */
	const char	*deadline_past;	/* who, time */
	const char	*moves;
	const char	*ready;		/* example move */
	const char	*other_actions;
	const char	*reply_token;	/* example move, expiry time */
	const char	*offer_actions;
	const char	*sign;
	const char	*sign_cli;
	const char	*sign_ssh;
	const char	*placeholders[4];	/* game, ply, player, move */
	const char	*send;
	const char	*wait;		/* who */
	const char	*over;
	const char	*howto_generic;
	const char	*pgn_note;
	const char	*footer;
	const char	*example_move;
	const char	*winner[4];	/* white wins, black wins, draw, no
					   result */
	const char	*refused_subject_re;

	/* NOTICE_EVENT, by enum notice_event_what where there are three. */
	const char	*subject_event;	/* title */
	const char	*subject_event_what[3];	/* START: games; WITHDRAWAL:
						   who; END: none */
	const char	*event_intro[3];	/* START: title, name, format;
						   WITHDRAWAL: who, title, name;
						   END: title, name */
	const char	*event_format[3];	/* round robin, double: players;
						   match: games */
	const char	*event_rules;
	const char	*event_variant[4];	/* standard; Chess960: number;
						   Chess960 per pairing;
						   thematic: FEN */
	const char	*event_draw_min;	/* move */
	const char	*event_draw_every;	/* moves */
	const char	*event_draw_none;
	const char	*event_policy[2];	/* auto, claim */
	const char	*event_leave;	/* days */
	const char	*event_rated[2];	/* no, yes */
	const char	*event_withdrawal[2];	/* lose, annul */
	const char	*event_games;	/* count */
	const char	*event_game;	/* round, game, colour, opponent */
	const char	*event_play;	/* event name */
	const char	*event_outcome_game;	/* round, game, colour,
						   opponent, outcome */
	const char	*event_outcome[3];	/* annulled, won by default,
						   stands: result */
	const char	*event_result;	/* points, games, place */
	const char	*event_standings;
};

/* Columns a notice's prose and move list are wrapped at. */
#define NOTICE_WIDTH		72

extern const struct texts notice_texts_en;
extern const struct texts notice_texts_fr;

/* What a service refusal code refused, in French; NULL for an unknown
 * code. */
const char	*notice_texts_refusal_fr(const char *code);

/* Append a text template, each "%s" in it replaced by the next string
 * argument (a NULL one by nothing). The texts are templates, not printf
 * formats: they come from a table and take only strings. */
void	notice_texts_put(struct buf *, const char *tmpl, ...);

/* Append a filled template (as notice_texts_put()) as prose, wrapped. */
void	notice_texts_prose(struct buf *, const char *tmpl, ...);

/* Append text with each line wrapped at NOTICE_WIDTH columns (UTF-8
 * characters counted), breaking at spaces but not inside French
 * punctuation nor between a number and its unit. */
void	notice_texts_wrap(struct buf *, const char *text, size_t len);

/* Write a time control (game_tc_format() text) in a language ("10 coups
 * en 50 jours"), or as given when it does not parse. */
void	notice_texts_tc(enum chess_lang, const char *text, char *buf,
	    size_t size);

#endif /* CORRCHESS_NOTICE_TEXTS_H */
