/*
 * sig/statement.h: the signed statement of an action: fields, text, signing.
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
 * Part of sig/sig.h, which includes this header (implemented in
 * sig/statement.c); the conventions are sig/sig.h's.
 *
 * THE STATEMENT
 *
 * The signed bytes of an action are exactly its canonical statement, five
 * lines, UTF-8 (in practice ASCII), each line ending with one LF -- the last
 * line too, so the canonical bytes end with "\n":
 *
 *	corrchess-v1\n
 *	game: 42\n
 *	ply: 16\n
 *	player: alice\n
 *	action: move Nf3\n
 *
 * A file holding these five lines, as any editor writes it, is what
 * `ssh-keygen -Y sign -n corrchess -f KEY FILE` signs, so both signature
 * forms cover the same bytes.
 *
 * Field rules (checked strictly, so the text a player signs is always the
 * canonical text; nothing is rewritten before signing):
 *  - the fields come in this order, written "name: value" (one colon, one
 *    space), names in lower case;
 *  - game: a decimal from 1 to SIG_GAME_MAX, no sign, no leading zero;
 *  - ply: half-moves already played, a decimal from 0 to SIG_PLY_MAX, no
 *    leading zero;
 *  - player: 1 to SIG_PLAYER_MAX characters from [a-z0-9_.-]; lower case
 *    only (an upper-case letter is an error, never folded, because folding
 *    would change the signed bytes);
 *  - action: one of
 *	move MOVE
 *	move MOVE offer-draw
 *	accept-draw
 *	decline-draw
 *	resign
 *	claim-draw
 *	claim-draw MOVE
 *	leave YYYY-MM-DD YYYY-MM-DD	(first and last day, first <= last)
 *	conditional LINE; LINE; ...	(conditional moves, see below)
 *	cancel-conditional
 *	show-conditional
 *	abort REASON			(the club admin's, signed by the
 *	adjudicate RESULT REASON	 server: see below)
 *    and a player's own actions, signed with "game: 0" (below):
 *	add-key KEY			(an OpenSSH line or raw base64)
 *	revoke-key KEYREF		(SHA256:fingerprint, or the key's id)
 *	set NAME VALUE			(a setting; the names are the
 *					 service's, service/self.c)
 *	email ADDRESS			(asks for a change of address)
 *	confirm-email CODE		(the code mailed to the new address)
 *	show-settings			(a signed read)
 *    words separated by one space. MOVE is one or more words of printable
 *    ASCII ("exd6 e.p." is two words), at most SIG_MOVE_MAX bytes; whether
 *    it is a legal move is for the rules core to say.
 *
 * Conditional moves: each LINE is moves one space apart, the opponent's
 * first, then the player's answer, then the opponent's, ... ("e5 Nf3 Nc6
 * Bb5"); lines are separated by a semicolon ending the line's last move
 * and one space ("e5 Nf3; d5 exd5"). Lines that begin alike form a tree.
 * Here only the shape is checked (printable ASCII, one space apart, no
 * empty line, at most SIG_LINES_MAX bytes); the moves and the tree are
 * the game's to check (game/conditional.h).
 *
 * Admin actions: abort and adjudicate end a game by the club admin's
 * decision. Their statement names the player "admin" and is signed with
 * the server's key (never a player's); RESULT is 1-0, 0-1 or 1/2-1/2;
 * REASON is 1 to SIG_REASON_MAX bytes of UTF-8 text without control
 * characters, not starting or ending with a space.
 * A player's own actions are not a game's: their statement says "game: 0"
 * and its ply counts the player's own actions accepted so far (a replayed
 * statement is stale, as in a game). "game: 0" with a game's action, and
 * a player's action with a game number, are refused (SIG_EPLAYER_GAME).
 * KEY and VALUE are words of printable ASCII, at most SIG_VALUE_MAX
 * bytes; NAME is 1 to SIG_SETTING_MAX characters from [a-z0-9-].
 *
 * A message to the opponent may follow the action, on a sixth line:
 *
 *	message: Thank you for the game!\n
 *
 * only after a game's move, draw offer, draw answer, claim or
 * resignation (SIG_EMESSAGE_ACTION); 1 to SIG_MESSAGE_MAX bytes of UTF-8
 * (SIG_EMESSAGE_LONG, SIG_EMESSAGE_UTF8) without control characters or
 * bidirectional controls (SIG_EMESSAGE_CONTROL), not starting or ending
 * with a space (SIG_EMESSAGE_EMPTY). It is signed with the rest; a
 * statement without it is the five lines above, as before.
 *
 * Finding a statement in a text (HTTP body, e-mail part): CRLF and lone CR
 * line ends become LF, spaces and tabs at the end of each line are dropped,
 * then the first line "corrchess-v1" starts the statement; the four field
 * lines must follow it directly. Blank lines may separate the statement
 * from its signature (its two forms: sig/sig.h); text before the statement
 * and after the signature is ignored. "> " quoting is not removed here
 * (the mail layer does that).
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_STATEMENT_H
#define CORRCHESS_SIG_STATEMENT_H

#include <stddef.h>
#include <stdint.h>

#define SIG_HEADER		"corrchess-v1"	/* first statement line */

#define SIG_GAME_MAX		UINT64_C(9223372036854775807)	/* INT64_MAX */
#define SIG_PLY_MAX		UINT32_C(4294967295)
#define SIG_PLAYER_MAX		32	/* bytes of a player name, no NUL */
#define SIG_MOVE_MAX		32	/* bytes of a move text, no NUL */
#define SIG_LINES_MAX		768	/* bytes of a conditional's lines */
#define SIG_REASON_MAX		200	/* bytes of an admin action's reason */
#define SIG_RESULT_MAX		7	/* "1/2-1/2" */
#define SIG_ADMIN		"admin"	/* the player of admin actions */
#define SIG_ACTION_MAX		(12 + SIG_LINES_MAX)	/* bytes of an action
					   value ("conditional " LINES) */
#define SIG_SHORT_ACTION_MAX	64	/* bytes of any other action value */
#define SIG_SETTING_MAX		32	/* bytes of a setting's name */
#define SIG_VALUE_MAX		128	/* bytes of a key, a setting's value,
					   an address or a code */
#define SIG_MESSAGE_MAX		500	/* bytes of a message to the
					   opponent */
#define SIG_STATEMENT_MAX	1024	/* canonical statement bytes
					   (longest: 883, a conditional;
					   a move with a message: 640) */

/* Bytes a statement's signature covers (sig_statement_tbs()), at most. */
#define SIG_TBS_MAX		SIG_STATEMENT_MAX

/* A whole signed statement, as sig_statement_sign() writes it. */
#define SIG_SIGNED_SIZE		(SIG_STATEMENT_MAX + SIG_SSHSIG_ARMOR_SIZE)

enum sig_action_kind {
	SIG_ACT_MOVE = 0,	/* move MOVE */
	SIG_ACT_MOVE_OFFER_DRAW,/* move MOVE offer-draw */
	SIG_ACT_ACCEPT_DRAW,	/* accept-draw */
	SIG_ACT_DECLINE_DRAW,	/* decline-draw */
	SIG_ACT_RESIGN,		/* resign */
	SIG_ACT_CLAIM_DRAW,	/* claim-draw [MOVE]; move[0] == '\0' if none */
	SIG_ACT_LEAVE,		/* leave FROM TO */
	SIG_ACT_CONDITIONAL,	/* conditional LINES */
	SIG_ACT_CANCEL_CONDITIONAL,	/* cancel-conditional */
	SIG_ACT_SHOW_CONDITIONAL,	/* show-conditional */
	SIG_ACT_ABORT,		/* abort REASON (admin) */
	SIG_ACT_ADJUDICATE,	/* adjudicate RESULT REASON (admin) */
	/* a player's own actions ("game: 0") */
	SIG_ACT_ADD_KEY,	/* add-key KEY (value) */
	SIG_ACT_REVOKE_KEY,	/* revoke-key KEYREF (value) */
	SIG_ACT_SET,		/* set NAME VALUE (setting, value) */
	SIG_ACT_EMAIL,		/* email ADDRESS (value) */
	SIG_ACT_CONFIRM_EMAIL,	/* confirm-email CODE (value) */
	SIG_ACT_SHOW_SETTINGS,	/* show-settings */
};
#define SIG_ACT_LAST		SIG_ACT_SHOW_SETTINGS

/* True for the actions a player signs about themselves ("game: 0"). */
#define SIG_ACT_IS_PLAYERS(k)	((k) >= SIG_ACT_ADD_KEY && \
				 (k) <= SIG_ACT_SHOW_SETTINGS)

struct sig_date {
	uint16_t	year;
	uint8_t		month;		/* 1..12 */
	uint8_t		day;		/* 1..31 */
};

struct sig_action {
	enum sig_action_kind	kind;
	char			move[SIG_MOVE_MAX + 1];	/* or "" */
	struct sig_date		from;	/* leave only: first day away */
	struct sig_date		to;	/* leave only: last day away */
	char			lines[SIG_LINES_MAX + 1];	/* conditional
							   only, or "" */
	char			result[SIG_RESULT_MAX + 1];	/* adjudicate
							   only, or "" */
	char			reason[SIG_REASON_MAX + 1];	/* abort,
							   adjudicate, or "" */
	char			setting[SIG_SETTING_MAX + 1];	/* set only,
							   or "" */
	char			value[SIG_VALUE_MAX + 1];	/* a player's
							   action's
							   argument, or "" */
};

/* A statement's fields and its canonical bytes (a plain value). */
struct sig_statement {
	uint64_t		game;		/* 0: a player's own action */
	uint32_t		ply;
	char			player[SIG_PLAYER_MAX + 1];
	struct sig_action	action;
	char			message[SIG_MESSAGE_MAX + 1];	/* "": none */
	uint8_t			canon[SIG_STATEMENT_MAX];
	size_t			canon_len;
	unsigned int		line;	/* on a parse error: line number, or 0 */
};

struct sig_signature;

/*
 * Find the first statement in `text` (`len` bytes, NUL not needed), check
 * its fields and fill `st` (fields and canonical bytes). If `sg` is not
 * NULL, the signature after the statement is required and parsed into `sg`
 * (not verified: see sig_signature_verify()). On error, st->line is the
 * line of `text` at fault (from 1), or 0.
 */
int sig_statement_parse(const char *text, size_t len,
    struct sig_statement *st, struct sig_signature *sg, enum sig_error *err);

/*
 * Parse an action value ("move Nf3", "leave 2026-07-01 2026-07-14", ...)
 * into `a` (no leading or trailing space accepted).
 */
int sig_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err);

/* True for the actions a message may go with. */
#define SIG_ACT_TAKES_MESSAGE(k)	((k) <= SIG_ACT_CLAIM_DRAW)

/*
 * Check a message's text (NUL-terminated) as the statement's "message:"
 * line takes it: SIG_OK or the fault.
 */
enum sig_error sig_message_check(const char *text);

/*
 * Copy the message of canonical statement bytes `canon` (`len` bytes)
 * into out (SIG_MESSAGE_MAX + 1 bytes is enough); its length, or 0 when
 * the statement has none (or it does not fit).
 */
size_t sig_statement_message(const char *canon, size_t len, char *out,
    size_t size);

/*
 * Build a statement from st->game, st->ply, st->player, st->action and
 * st->message (may be ""):
 * check every field as the parser does and write st->canon and
 * st->canon_len.
 */
int sig_statement_build(struct sig_statement *st, enum sig_error *err);

/*
 * Signing in two steps, for a key held elsewhere (ssh-agent): write the
 * bytes an Ed25519 signature of `form` covers into out (SIG_TBS_MAX is
 * enough) and their length to *lenp: st's canonical bytes for
 * SIG_FORM_RAW, the SSHSIG's signed data (namespace "corrchess", sha512)
 * for SIG_FORM_SSHSIG.
 */
int sig_statement_tbs(const struct sig_statement *st, enum sig_form form,
    uint8_t *out, size_t size, size_t *lenp, enum sig_error *err);

/*
 * Then write the statement followed by the signature `sig` of key `pk`
 * over those bytes, in `form`, NUL-terminated, into buf (SIG_SIGNED_SIZE
 * is enough). Nothing is verified here: the caller checks sig first.
 */
int sig_statement_signed(const struct sig_statement *st, enum sig_form form,
    const uint8_t pk[SIG_PUBKEY_BYTES], const uint8_t sig[SIG_SIGNATURE_BYTES],
    char *buf, size_t size, enum sig_error *err);

/*
 * Sign st's canonical bytes with `sk` and write the statement followed by
 * the signature, in `form`, NUL-terminated, into buf (SIG_SIGNED_SIZE is
 * enough). SIG_FORM_SSHSIG uses namespace "corrchess" and sha512, as
 * `ssh-keygen -Y sign -n corrchess` does.
 */
int sig_statement_sign(const struct sig_statement *st,
    const uint8_t sk[SIG_SECKEY_BYTES], enum sig_form form, char *buf,
    size_t size, enum sig_error *err);

#endif /* CORRCHESS_SIG_STATEMENT_H */
