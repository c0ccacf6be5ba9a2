/*
 * letters/notice.h: the notices corrchessd mails to players, in English and French.
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
 * The mails the daemon sends to players: complete RFC 5322 messages, built
 * with GMime, in the recipient's language (English or French). Pure: the
 * caller fills a struct notice from the game and hands the bytes to the
 * outbox; nothing here reads the store or the network.
 *
 * A notice is multipart/mixed: a text/plain; charset=utf-8 part (7bit when
 * it is ASCII, quoted-printable otherwise) and, when the caller gives one,
 * the game's PGN as an application/x-chess-pgn attachment. Headers carry
 * From, To, Reply-To, Subject (RFC 2047-encoded when not ASCII), Date,
 * Message-ID, In-Reply-To and References, MIME-Version, Content-Language,
 * Auto-Submitted (RFC 3834, so vacation responders keep quiet) and
 * X-Corrchess-Game (X-Corrchess-Event, the event's name, on an event's
 * notice).
 *
 * The text shows the board from the recipient's side (ASCII, safe in any
 * mail reader), the last move, who is to move, the clocks and the deadline,
 * the whole move list, and, when it is the recipient's turn, a ready
 * statement to fill in, sign and send back. Everything is in the
 * recipient's language: the moves and the board's letters (French: R D T F
 * C P, with a line that says so), the time control in words
 * (game_tc_text()), durations ("2 j 3 h"), terminations.
 *
 * THREADS. Every mail of one game to one player belongs to one thread: its
 * root id is notice_thread_root() ("game-42.white@DOMAIN"), which the
 * new-game notice takes as its own Message-ID; every later notice gets a
 * fresh Message-ID ("game-42.p17.RANDOM@DOMAIN") and points at the root
 * with In-Reply-To and References. A reply to a player's mail (refusal,
 * how-to) points at that mail too. The root is per recipient, not per
 * game, so that no two messages ever share a Message-ID.
 * mail_thread_game() (mail_parse.h) reads the game back from these ids.
 *
 * Threads of the program: notice_compose() may be called from several
 * threads at once.
 */

#ifndef CORRCHESS_NOTICE_H
#define CORRCHESS_NOTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/chess.h"
#include "event/crosstable.h"

/* Size of a Message-ID (without <>) notice.c writes, with its NUL. */
#define NOTICE_ID_SIZE		256

enum notice_kind {
	NOTICE_NEW_GAME = 0,	/* a game was created */
	NOTICE_MOVED,		/* the opponent moved */
	NOTICE_DRAW_OFFERED,	/* the opponent moved and offers a draw */
	NOTICE_DRAW_ACCEPTED,	/* a draw offer was accepted: game drawn */
	NOTICE_DRAW_DECLINED,	/* a draw offer was declined */
	NOTICE_CLAIM,		/* a draw claim held: game drawn */
	NOTICE_GAME_OVER,	/* any other end: result and termination */
	NOTICE_REMINDER,	/* your move; the deadline comes closer */
	NOTICE_REFUSED,		/* reply: the player's action was refused */
	NOTICE_HOWTO,		/* reply: no statement found in the mail */
	NOTICE_LEAVE,		/* the opponent (actor) takes leave */
	NOTICE_DIGEST,		/* daily: the games where it is your move */
	NOTICE_CONDITIONAL,	/* your conditional moves: recorded, ... */
	NOTICE_ACCOUNT,		/* your own signed statement changed your
				   account (recipient -1, no game) */
	NOTICE_EMAIL_CODE,	/* to a new address: the code that confirms
				   it (recipient -1, no game) */
	NOTICE_EVENT,		/* an event started, lost a player or
				   ended (recipient -1, no game; `event`) */
};
#define NOTICE_KIND_COUNT	16

/* What a NOTICE_EVENT tells a player of the event. */
enum notice_event_what {
	NOTICE_EVENT_START = 0,	/* the rules and the player's games */
	NOTICE_EVENT_WITHDRAWAL,	/* a player withdrew: what became of
					   the recipient's games with them */
	NOTICE_EVENT_END,	/* the final standings and the player's own
				   result */
};

/* One of the recipient's games in an event. */
struct notice_event_game {
	int64_t		 game_id;
	int		 round;
	int		 color;		/* the recipient's: CHESS_WHITE, ... */
	const char	*opponent;	/* login name */
	const char	*result;	/* "1-0" "0-1" "1/2-1/2" "*" */
	const char	*adjusted;	/* "annulled", "white-withdrew",
					   "black-withdrew", or "" */
};

/*
 * The event of a NOTICE_EVENT: its name, its rules as stored (the
 * texts of struct store_event), the recipient's games and, at the end,
 * the standings. Borrowed for the call.
 */
struct notice_event {
	enum notice_event_what		 what;
	const char			*name;		/* "club-2026" */
	const char			*title;		/* or NULL: the name */
	const char			*format;	/* "round-robin",
							   "double-round-robin",
							   "match" */
	int				 games;		/* of a match */
	int				 nplayers;
	const char			*time_control;	/* "3d/move" */
	const char			*variant;	/* "standard",
							   "chess960" */
	int				 chess960;	/* the event's start
							   number, or -1 */
	bool				 chess960_pairing;
	const char			*fen;		/* thematic, or NULL */
	const char			*policy;	/* "auto", "claim" */
	bool				 rated;
	int				 draw_min_move;		/* 0: none */
	int				 draw_offer_every;	/* 0: none */
	int				 leave_days;	/* the event's or the
							   server's */
	const char			*withdrawal;	/* "lose", "annul" */
	/* START: every game of the recipient; WITHDRAWAL: those with the
	 * withdrawn player, as they stand after it; END: every game. */
	const struct notice_event_game	*mine;
	size_t				 nmine;
	const char			*withdrawn;	/* WITHDRAWAL: who */
	/* END: the standings, drawn in the recipient's language (its lang
	 * is set by notice_compose()), and the recipient's row. */
	const struct crosstable		*standings;
	const struct standings_row	*own;
};

/* What a NOTICE_CONDITIONAL tells its owner. */
enum notice_cond_event {
	NOTICE_COND_RECORDED = 0,	/* your conditional is recorded */
	NOTICE_COND_CANCELLED,		/* ... cancelled, as you asked */
	NOTICE_COND_SHOWN,		/* ... as it stands, as you asked */
	NOTICE_COND_PLAYED,		/* one of its moves was played */
};

/* One game of a digest, where it is the recipient's move. */
struct notice_digest_game {
	int64_t			 game_id;
	const char		*white;		/* login names */
	const char		*black;
	bool			 chess960;
	const char		*start_fen;	/* NULL: the standard start */
	const char *const	*san;		/* SAN (English) of each move */
	size_t			 nply;
	int64_t			 deadline;	/* 0: none */
	int64_t			 time_left;	/* seconds, or -1: no clock */
};

/* One player of the game. */
struct notice_player {
	const char	*name;		/* login name ("alice") */
	const char	*full_name;	/* display name (UTF-8), or NULL */
	const char	*email;		/* address, or NULL */
	enum chess_lang	 lang;		/* language of this player's mail */
};

/*
 * What a notice says. Strings are UTF-8, NUL-terminated, borrowed for the
 * call; NULL where the comment allows it. Times are seconds since the
 * epoch.
 */
struct notice {
	enum notice_kind	 kind;

	/* Sender and thread. */
	const char		*from;		/* "corrchess <chess@club.example>" */
	const char		*reply_to;	/* address for replies, or NULL */
	const char		*domain;	/* of Message-IDs: "club.example" */
	int64_t			 date;		/* Date header */
	const char		*message_id;	/* NULL: a fresh one (the thread
						   root for NOTICE_NEW_GAME) */
	const char		*thread_root;	/* NULL: notice_thread_root() */
	const char		*answered_id;	/* Message-ID of the player's mail
						   a refusal or how-to answers,
						   or NULL */
	const char		*answered_subject; /* its subject, or NULL */

	/*
	 * The recipient: a player of the game (recipient is CHESS_WHITE or
	 * CHESS_BLACK), or -1 for an address that is not one (a how-to reply
	 * to a stranger): then to_email, to_name and to_lang.
	 */
	int			 recipient;
	const char		*to_email;
	const char		*to_name;
	enum chess_lang		 to_lang;

	/* The game; game_id 0 for none (a how-to reply with no game). */
	int64_t			 game_id;
	struct notice_player	 players[2];	/* [CHESS_WHITE], [CHESS_BLACK] */
	int			 actor;		/* who accepted, declined or
						   claimed: a colour, or -1 for
						   the recipient's opponent */
	bool			 chess960;
	const char		*start_fen;	/* NULL: the standard start */
	const char *const	*san;		/* SAN (English) of each move */
	size_t			 nply;
	const char		*fen;		/* current position; NULL: the
						   position after the moves */
	int			 draw_offer;	/* colour offering a draw, or -1 */
	const char		*result;	/* "1-0" "0-1" "1/2-1/2"; NULL or
						   "*" while the game goes on */
	const char		*termination;	/* game_termination_name() text;
						   "" or NULL while the game
						   goes on */
	const char		*time_control;	/* game_tc_format() text, as
						   "10/50d", written in words;
						   or NULL */
	int64_t			 clock[2];	/* seconds left, or -1: no clock */
	int			 to_control[2];	/* ICCF: moves to the next
						   control, or 0 */
	int64_t			 deadline;	/* side to move's, or 0: none */
	/* The recipient's single-use token for replying with their move
	 * (they are to move and their mail-token door is open), or NULL;
	 * and when it expires. Written as the line MAIL_TOKEN_TAG TOKEN. */
	const char		*reply_token;
	int64_t			 reply_token_expires;
	const char		*pgn;		/* attachment text, or NULL */
	size_t			 pgn_len;

	/*
	 * NOTICE_REFUSED: the service's sentence, quoted as it is given, so
	 * it should be in the recipient's language (the rules core's and the
	 * game's reasons are, when the action carried the player's language);
	 * and its code, which a French notice names first in French ("coup
	 * illégal"). Either may be NULL.
	 */
	const char		*reason;
	const char		*reason_code;	/* "illegal-move" ..., or NULL */

	/* NOTICE_GAME_OVER of a game the admin aborted or adjudicated: the
	 * admin's reason, as given; else NULL. */
	const char		*admin_reason;

	/* The message the actor sent with the action the notice tells of
	 * (checked text, one line), or NULL. */
	const char		*message;

	/* NOTICE_LEAVE: the first and last days ("2026-12-24"). */
	const char		*leave_from;
	const char		*leave_to;

	/* NOTICE_CONDITIONAL: what happened; the lines (English SAN, "e5
	 * Nf3; d5 exd5"): recorded, cancelled or shown, or those left after
	 * a move was played (NULL: none left); the pair just played ("e5
	 * Nf3", NOTICE_COND_PLAYED). */
	enum notice_cond_event	 cond_event;
	const char		*cond_lines;
	const char		*cond_played;
	const char		*cond_reason;

	/* NOTICE_ACCOUNT: the action as signed ("set lang fr") and the
	 * settings after it, lines "name: value". NOTICE_EMAIL_CODE: the
	 * code (account_action), the statement that confirms it, ready to
	 * sign (account_summary), and when the code expires (deadline). */
	const char		*account_action;
	const char		*account_summary;

	/* NOTICE_EVENT (recipient -1, game_id 0). */
	const struct notice_event	*event;

	/* NOTICE_DIGEST (recipient -1, game_id 0): the games, at least
	 * one. */
	const struct notice_digest_game	*digest;
	size_t			 ndigest;
};

/* A composed mail. Free with notice_mail_free(). */
struct notice_mail {
	char	*data;			/* the message, CRLF line ends, NUL */
	size_t	 len;
	char	 message_id[NOTICE_ID_SIZE];	/* its Message-ID, no <> */
	char	 to[256];		/* the recipient's bare address */
};

/*
 * Compose the mail of `n` into `out`. 0, or -1 with a sentence in `err`
 * (missing recipient address, a move of n->san that does not replay, a
 * FEN that does not parse, an unparsable From, out of memory); nothing to
 * free then.
 */
int notice_compose(const struct notice *n, struct notice_mail *out,
    char *err, size_t errsize);

/* Release a composed mail. Accepts a zeroed struct. */
void notice_mail_free(struct notice_mail *);

/* Write the thread root id of a game's mails to one player,
 * "game-ID.white@DOMAIN" (no <>). Returns the length (snprintf). */
int notice_thread_root(int64_t game_id, int color, const char *domain,
    char *buf, size_t size);

/* The kind's name: "new-game", "moved", ... (logs, tests). */
const char *notice_kind_name(enum notice_kind);

#endif /* CORRCHESS_NOTICE_H */
