/*
 * sig/statement.c: the signed statement: found, checked, built and signed.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sig/sig.h"
#include "sig/wire.h"
#include "util/text.h"

static const char *field_names[4] = { "game", "ply", "player", "action" };

/* Parse a decimal without sign or leading zero, up to `max`. */
static int
parse_decimal(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (n == 0 || (s[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (x > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* Check a player name: [a-z0-9_.-]{1,SIG_PLAYER_MAX}. */
static int
player_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > SIG_PLAYER_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '.' || s[i] == '-'))
			return 0;
	}
	return 1;
}

/* Parse a calendar date YYYY-MM-DD (proleptic Gregorian, year >= 1). */
static int
parse_date(const char *s, size_t n, struct sig_date *d)
{
	static const uint8_t mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int y, m, dd, max;
	size_t i;

	if (n != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return -1;
	y = (unsigned)(s[0] - '0') * 1000 + (unsigned)(s[1] - '0') * 100 +
	    (unsigned)(s[2] - '0') * 10 + (unsigned)(s[3] - '0');
	m = (unsigned)(s[5] - '0') * 10 + (unsigned)(s[6] - '0');
	dd = (unsigned)(s[8] - '0') * 10 + (unsigned)(s[9] - '0');
	if (y == 0 || m < 1 || m > 12 || dd < 1)
		return -1;
	max = mdays[m - 1];
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		max = 29;
	if (dd > max)
		return -1;
	d->year = (uint16_t)y;
	d->month = (uint8_t)m;
	d->day = (uint8_t)dd;
	return 0;
}

/* Compare two dates. */
static int
date_cmp(const struct sig_date *a, const struct sig_date *b)
{
	if (a->year != b->year)
		return a->year < b->year ? -1 : 1;
	if (a->month != b->month)
		return a->month < b->month ? -1 : 1;
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
	return 0;
}

/* Check move text (words of printable ASCII, one space apart) and copy. */
static int
move_copy(const char *s, size_t n, char out[SIG_MOVE_MAX + 1])
{
	size_t i;

	if (n == 0 || n > SIG_MOVE_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/*
 * Check a conditional's lines (moves one space apart, lines ended by ';'
 * and one space, printable ASCII, none empty) and copy them.
 */
static int
lines_copy(const char *s, size_t n, char out[SIG_LINES_MAX + 1])
{
	size_t	i;

	if (n == 0)
		return -1;
	if (n > SIG_LINES_MAX)
		return 1;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -1;
		/* A space between two words; ';' ends a word, then a space. */
		if (s[i] == ' ' && (i == 0 || i + 1 == n || s[i + 1] == ' ' ||
		    s[i + 1] == ';'))
			return -1;
		if (s[i] == ';' && (i == 0 || i + 1 == n || s[i + 1] != ' ' ||
		    s[i - 1] == ' '))
			return -1;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/*
 * Check an admin action's reason (UTF-8 text, no control characters, no
 * space at either end) and copy it.
 */
static int
reason_copy(const char *s, size_t n, char out[SIG_REASON_MAX + 1])
{
	size_t	i;

	if (n == 0 || n > SIG_REASON_MAX || s[0] == ' ' || s[n - 1] == ' ')
		return -1;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/* Check words of printable ASCII, one space apart, and copy them. */
static int
words_copy(const char *s, size_t n, char *out, size_t max)
{
	size_t	i;

	if (n == 0 || n > max)
		return -1;
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -1;
		if (s[i] == ' ' && (i == 0 || i + 1 == n || s[i + 1] == ' '))
			return -1;
	}
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/* Parse "abort REASON" or "adjudicate RESULT REASON". */
static int
admin_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err)
{
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2" };
	size_t	i, n;

	if (wire_line_starts(text, len, "abort ")) {
		a->kind = SIG_ACT_ABORT;
		text += 6;
		len -= 6;
	} else {
		a->kind = SIG_ACT_ADJUDICATE;
		text += 11;
		len -= 11;
		for (i = 0; i < sizeof results / sizeof results[0]; i++) {
			n = strlen(results[i]);
			if (len > n && memcmp(text, results[i], n) == 0 &&
			    text[n] == ' ')
				break;
		}
		if (i == sizeof results / sizeof results[0])
			return sig_fail(err, SIG_ERESULT);
		snprintf(a->result, sizeof a->result, "%s", results[i]);
		text += n + 1;
		len -= n + 1;
	}
	if (len > SIG_REASON_MAX)
		return sig_fail(err, SIG_ETOOLONG);
	if (reason_copy(text, len, a->reason) != 0)
		return sig_fail(err, SIG_EREASON);
	return sig_ok(err);
}

/*
 * Parse a player's own action (add-key, revoke-key, set, email,
 * confirm-email, show-settings): 0, -1 on error, 1 when the text is none
 * of them.
 */
static int
players_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err)
{
	static const struct {
		const char		*word;
		enum sig_action_kind	 kind;
		size_t			 max;	/* value bytes; 0: no value */
		int			 one;	/* one word only */
	} acts[] = {
		{ "add-key", SIG_ACT_ADD_KEY, SIG_VALUE_MAX, 0 },
		{ "revoke-key", SIG_ACT_REVOKE_KEY, SIG_VALUE_MAX, 1 },
		{ "set", SIG_ACT_SET, SIG_VALUE_MAX, 0 },
		{ "email", SIG_ACT_EMAIL, SIG_VALUE_MAX, 1 },
		{ "confirm-email", SIG_ACT_CONFIRM_EMAIL, SIG_VALUE_MAX, 1 },
		{ "show-settings", SIG_ACT_SHOW_SETTINGS, 0, 0 },
	};
	const char	*v;
	size_t		 i, wl, vl, nl;

	wl = 0;
	while (wl < len && text[wl] != ' ')
		wl++;
	for (i = 0; i < sizeof acts / sizeof acts[0]; i++)
		if (wire_line_is(text, wl, acts[i].word))
			break;
	if (i == sizeof acts / sizeof acts[0])
		return 1;
	a->kind = acts[i].kind;
	if (acts[i].max == 0)
		return wl == len ? sig_ok(err) : sig_fail(err,
		    SIG_EACTION_ARGS);
	if (wl + 1 >= len)
		return sig_fail(err, SIG_EACTION_ARGS);
	v = text + wl + 1;
	vl = len - wl - 1;
	if (a->kind == SIG_ACT_SET) {
		/* The setting's name: [a-z0-9-]{1,SIG_SETTING_MAX}. */
		for (nl = 0; nl < vl && v[nl] != ' '; nl++)
			if (!((v[nl] >= 'a' && v[nl] <= 'z') ||
			    (v[nl] >= '0' && v[nl] <= '9') || v[nl] == '-'))
				return sig_fail(err, SIG_EACTION_ARGS);
		if (nl == 0 || nl > SIG_SETTING_MAX || nl + 1 >= vl)
			return sig_fail(err, SIG_EACTION_ARGS);
		memcpy(a->setting, v, nl);
		a->setting[nl] = '\0';
		v += nl + 1;
		vl -= nl + 1;
	}
	if (vl > acts[i].max)
		return sig_fail(err, SIG_ETOOLONG);
	if (acts[i].one && memchr(v, ' ', vl) != NULL)
		return sig_fail(err, SIG_EACTION_ARGS);
	if (words_copy(v, vl, a->value, acts[i].max) != 0)
		return sig_fail(err, SIG_EACTION_ARGS);
	return sig_ok(err);
}

/* Parse an action value. */
int
sig_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err)
{
	const char *w[8], *rest, *e = text + len;
	size_t wl[8], nw = 0, i, restlen, p = 0, q;
	int rc;

	memset(a, 0, sizeof *a);
	if (len > SIG_ACTION_MAX)
		return sig_fail(err, SIG_ETOOLONG);
	if (len == 0)
		return sig_fail(err, SIG_EACTION);
	if (wire_line_starts(text, len, "conditional ")) {
		a->kind = SIG_ACT_CONDITIONAL;
		if ((rc = lines_copy(text + 12, len - 12, a->lines)) != 0)
			return sig_fail(err, rc > 0 ? SIG_ETOOLONG :
			    SIG_ELINES);
		return sig_ok(err);
	}
	if (wire_line_starts(text, len, "abort ") ||
	    wire_line_starts(text, len, "adjudicate "))
		return admin_action_parse(text, len, a, err);
	if ((rc = players_action_parse(text, len, a, err)) <= 0)
		return rc;
	if (len > SIG_SHORT_ACTION_MAX)
		return sig_fail(err, SIG_ETOOLONG);

	/* Split into words: one space apart, none empty. */
	for (;;) {
		q = p;
		while (q < len && text[q] != ' ')
			q++;
		if (q == p)
			return sig_fail(err, SIG_EACTION_ARGS);
		if (nw == sizeof w / sizeof w[0]) {
			if (wire_line_starts(text, len, "move ") ||
			    wire_line_starts(text, len, "claim-draw "))
				return sig_fail(err, SIG_EMOVE);
			return sig_fail(err, SIG_EACTION_ARGS);
		}
		w[nw] = text + p;
		wl[nw++] = q - p;
		if (q == len)
			break;
		p = q + 1;
	}
	rest = nw > 1 ? w[1] : e;
	restlen = (size_t)(e - rest);

	if (wire_line_is(w[0], wl[0], "move")) {
		if (nw < 2)
			return sig_fail(err, SIG_EACTION_ARGS);
		a->kind = SIG_ACT_MOVE;
		if (nw > 2 &&
		    wire_line_is(w[nw - 1], wl[nw - 1], "offer-draw")) {
			a->kind = SIG_ACT_MOVE_OFFER_DRAW;
			restlen = (size_t)(w[nw - 1] - 1 - rest);
		}
		if (move_copy(rest, restlen, a->move) != 0)
			return sig_fail(err, SIG_EMOVE);
	} else if (wire_line_is(w[0], wl[0], "accept-draw") ||
	    wire_line_is(w[0], wl[0], "decline-draw") ||
	    wire_line_is(w[0], wl[0], "resign")) {
		if (nw != 1)
			return sig_fail(err, SIG_EACTION_ARGS);
		a->kind = w[0][0] == 'a' ? SIG_ACT_ACCEPT_DRAW :
		    w[0][0] == 'd' ? SIG_ACT_DECLINE_DRAW : SIG_ACT_RESIGN;
	} else if (wire_line_is(w[0], wl[0], "claim-draw")) {
		a->kind = SIG_ACT_CLAIM_DRAW;
		if (nw > 1 && move_copy(rest, restlen, a->move) != 0)
			return sig_fail(err, SIG_EMOVE);
	} else if (wire_line_is(w[0], wl[0], "conditional")) {
		return sig_fail(err, SIG_ELINES);
	} else if (wire_line_is(w[0], wl[0], "abort")) {
		return sig_fail(err, SIG_EREASON);
	} else if (wire_line_is(w[0], wl[0], "adjudicate")) {
		return sig_fail(err, SIG_ERESULT);
	} else if (wire_line_is(w[0], wl[0], "cancel-conditional") ||
	    wire_line_is(w[0], wl[0], "show-conditional")) {
		if (nw != 1)
			return sig_fail(err, SIG_EACTION_ARGS);
		a->kind = w[0][0] == 'c' ? SIG_ACT_CANCEL_CONDITIONAL :
		    SIG_ACT_SHOW_CONDITIONAL;
	} else if (wire_line_is(w[0], wl[0], "leave")) {
		a->kind = SIG_ACT_LEAVE;
		if (nw != 3)
			return sig_fail(err, SIG_EACTION_ARGS);
		if (parse_date(w[1], wl[1], &a->from) != 0 ||
		    parse_date(w[2], wl[2], &a->to) != 0 ||
		    date_cmp(&a->from, &a->to) > 0)
			return sig_fail(err, SIG_EDATE);
	} else
		return sig_fail(err, SIG_EACTION);
	for (i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 ||
		    (unsigned char)text[i] > 0x7e)
			return sig_fail(err, SIG_EACTION_ARGS);
	return sig_ok(err);
}

/* Write an action's text into buf. */
static int
action_format(const struct sig_action *a, char *buf, size_t size)
{
	int n = -1;

	switch (a->kind) {
	case SIG_ACT_MOVE:
		n = snprintf(buf, size, "move %s", a->move);
		break;
	case SIG_ACT_MOVE_OFFER_DRAW:
		n = snprintf(buf, size, "move %s offer-draw", a->move);
		break;
	case SIG_ACT_ACCEPT_DRAW:
		n = snprintf(buf, size, "accept-draw");
		break;
	case SIG_ACT_DECLINE_DRAW:
		n = snprintf(buf, size, "decline-draw");
		break;
	case SIG_ACT_RESIGN:
		n = snprintf(buf, size, "resign");
		break;
	case SIG_ACT_CLAIM_DRAW:
		if (a->move[0] == '\0')
			n = snprintf(buf, size, "claim-draw");
		else
			n = snprintf(buf, size, "claim-draw %s", a->move);
		break;
	case SIG_ACT_LEAVE:
		n = snprintf(buf, size, "leave %04u-%02u-%02u %04u-%02u-%02u",
		    a->from.year, a->from.month, a->from.day,
		    a->to.year, a->to.month, a->to.day);
		break;
	case SIG_ACT_CONDITIONAL:
		n = snprintf(buf, size, "conditional %s", a->lines);
		break;
	case SIG_ACT_CANCEL_CONDITIONAL:
		n = snprintf(buf, size, "cancel-conditional");
		break;
	case SIG_ACT_SHOW_CONDITIONAL:
		n = snprintf(buf, size, "show-conditional");
		break;
	case SIG_ACT_ABORT:
		n = snprintf(buf, size, "abort %s", a->reason);
		break;
	case SIG_ACT_ADJUDICATE:
		n = snprintf(buf, size, "adjudicate %s %s", a->result,
		    a->reason);
		break;
	case SIG_ACT_ADD_KEY:
		n = snprintf(buf, size, "add-key %s", a->value);
		break;
	case SIG_ACT_REVOKE_KEY:
		n = snprintf(buf, size, "revoke-key %s", a->value);
		break;
	case SIG_ACT_SET:
		n = snprintf(buf, size, "set %s %s", a->setting, a->value);
		break;
	case SIG_ACT_EMAIL:
		n = snprintf(buf, size, "email %s", a->value);
		break;
	case SIG_ACT_CONFIRM_EMAIL:
		n = snprintf(buf, size, "confirm-email %s", a->value);
		break;
	case SIG_ACT_SHOW_SETTINGS:
		n = snprintf(buf, size, "show-settings");
		break;
	}
	if (n < 0 || (size_t)n >= size)
		return -1;
	return n;
}

/* Check a message's text as the "message:" line takes it. */
enum sig_error
sig_message_check(const char *text)
{
	size_t	n = strlen(text);

	if (n > SIG_MESSAGE_MAX)
		return SIG_EMESSAGE_LONG;
	if (n == 0 || text[0] == ' ' || text[n - 1] == ' ')
		return SIG_EMESSAGE_EMPTY;
	switch (text_check(text)) {
	case TEXT_OK:
		return SIG_OK;
	case TEXT_UTF8:
		return SIG_EMESSAGE_UTF8;
	default:
		return SIG_EMESSAGE_CONTROL;
	}
}

/* Copy the message line's text of canonical statement bytes. */
size_t
sig_statement_message(const char *canon, size_t len, char *out, size_t size)
{
	static const char	 tag[] = "\nmessage: ";
	const char		*m, *e;
	size_t			 n;

	if (size > 0)
		out[0] = '\0';
	if ((m = memmem(canon, len, tag, sizeof tag - 1)) == NULL)
		return 0;
	m += sizeof tag - 1;
	if ((e = memchr(m, '\n', len - (size_t)(m - canon))) == NULL)
		return 0;
	n = (size_t)(e - m);
	if (n + 1 > size)
		return 0;
	memcpy(out, m, n);
	out[n] = '\0';
	return n;
}

/* Build a statement's canonical bytes from its fields. */
int
sig_statement_build(struct sig_statement *st, enum sig_error *err)
{
	char action[SIG_ACTION_MAX + 16], canon[SIG_STATEMENT_MAX + 1];
	struct sig_action check;
	size_t plen, mlen;
	int n, has_move;
	enum sig_error me;

	if (st->game > SIG_GAME_MAX)
		return sig_fail(err, SIG_EGAME);
	if ((st->game == 0) != SIG_ACT_IS_PLAYERS(st->action.kind))
		return sig_fail(err, SIG_EPLAYER_GAME);
	plen = strnlen(st->player, sizeof st->player);
	if (plen == sizeof st->player || !player_ok(st->player, plen))
		return sig_fail(err, SIG_EPLAYER);
	if (st->action.kind > SIG_ACT_LAST)
		return sig_fail(err, SIG_EACTION);
	if (memchr(st->action.value, '\0', sizeof st->action.value) == NULL ||
	    memchr(st->action.setting, '\0', sizeof st->action.setting) ==
	    NULL)
		return sig_fail(err, SIG_ETOOLONG);
	if (st->action.kind == SIG_ACT_CONDITIONAL &&
	    memchr(st->action.lines, '\0', sizeof st->action.lines) == NULL)
		return sig_fail(err, SIG_ETOOLONG);
	if ((st->action.kind == SIG_ACT_ABORT ||
	    st->action.kind == SIG_ACT_ADJUDICATE) &&
	    (memchr(st->action.reason, '\0', sizeof st->action.reason) ==
	    NULL || memchr(st->action.result, '\0',
	    sizeof st->action.result) == NULL))
		return sig_fail(err, SIG_EREASON);
	has_move = st->action.kind == SIG_ACT_MOVE ||
	    st->action.kind == SIG_ACT_MOVE_OFFER_DRAW ||
	    st->action.kind == SIG_ACT_CLAIM_DRAW;
	if (has_move && memchr(st->action.move, '\0',
	    sizeof st->action.move) == NULL)
		return sig_fail(err, SIG_EMOVE);
	n = action_format(&st->action, action, sizeof action);
	if (n < 0)
		return sig_fail(err, SIG_EMOVE);
	/* Reading the text back must give the same action. */
	if (sig_action_parse(action, (size_t)n, &check, err) != 0)
		return -1;
	if (check.kind != st->action.kind ||
	    (has_move && strcmp(check.move, st->action.move) != 0) ||
	    strcmp(check.lines, st->action.lines) != 0 ||
	    strcmp(check.setting, st->action.setting) != 0 ||
	    strcmp(check.value, st->action.value) != 0)
		return sig_fail(err, SIG_EMOVE);

	mlen = strnlen(st->message, sizeof st->message);
	if (mlen == sizeof st->message)
		return sig_fail(err, SIG_EMESSAGE_LONG);
	if (mlen > 0 && !SIG_ACT_TAKES_MESSAGE(st->action.kind))
		return sig_fail(err, SIG_EMESSAGE_ACTION);
	if (mlen > 0 && (me = sig_message_check(st->message)) != SIG_OK)
		return sig_fail(err, me);

	n = snprintf(canon, sizeof canon,
	    SIG_HEADER "\ngame: %" PRIu64 "\nply: %" PRIu32 "\nplayer: %s\n"
	    "action: %s\n%s%s%s", st->game, st->ply, st->player, action,
	    mlen > 0 ? "message: " : "", st->message, mlen > 0 ? "\n" : "");
	if (n < 0 || (size_t)n >= sizeof canon)
		return sig_fail(err, SIG_ETOOLONG);
	memcpy(st->canon, canon, (size_t)n);
	st->canon_len = (size_t)n;
	return sig_ok(err);
}

/* Parse one field line's value into st; `field` is its index. */
static int
field_value(struct sig_statement *st, int field, const char *v, size_t n,
    enum sig_error *err)
{
	uint64_t x;

	switch (field) {
	case 0:
		if (parse_decimal(v, n, SIG_GAME_MAX, &x) != 0)
			return sig_fail(err, SIG_EGAME);
		st->game = x;
		break;
	case 1:
		if (parse_decimal(v, n, SIG_PLY_MAX, &x) != 0)
			return sig_fail(err, SIG_EPLY);
		st->ply = (uint32_t)x;
		break;
	case 2:
		if (!player_ok(v, n))
			return sig_fail(err, SIG_EPLAYER);
		memcpy(st->player, v, n);
		st->player[n] = '\0';
		break;
	case 3:
		return sig_action_parse(v, n, &st->action, err);
	}
	return sig_ok(err);
}

/* Index of a field name (exact), or -1. */
static int
field_index(const char *s, size_t n)
{
	int i;

	for (i = 0; i < 4; i++)
		if (wire_line_is(s, n, field_names[i]))
			return i;
	return -1;
}

/* True if the line starts a signature (or is where one should be). */
static int
is_signature_line(const char *l, size_t n)
{
	return wire_line_starts(l, n, "signature:") ||
	    wire_line_is(l, n, SIG_SSHSIG_BEGIN);
}

/* Classify a line that stands where a field should: why is it wrong? */
static enum sig_error
field_line_error(const char *l, size_t n, int expect, int seen[4])
{
	const char *colon;
	size_t i, nl;
	int f;

	colon = memchr(l, ':', n);
	if (colon == NULL || l[0] == ' ' || l[0] == '\t')
		return SIG_ESYNTAX;
	nl = (size_t)(colon - l);
	if (nl == 0)
		return SIG_ESYNTAX;
	for (i = 0; i < nl; i++)
		if (!((l[i] >= 'a' && l[i] <= 'z') || l[i] == '-' ||
		    l[i] == '_'))
			break;
	f = field_index(l, nl);
	if (i < nl) {
		/* Upper case or odd characters in the name. */
		for (i = 0; i < 4; i++)
			if (strlen(field_names[i]) == nl &&
			    strncasecmp(l, field_names[i], nl) == 0)
				return SIG_ESYNTAX;
		return SIG_EFIELD_UNKNOWN;
	}
	if (f < 0)
		return SIG_EFIELD_UNKNOWN;
	if (seen[f])
		return SIG_EFIELD_DUP;
	if (f != expect)
		return SIG_EFIELD_ORDER;
	return SIG_ESYNTAX;
}

/* True if a line end keeps to the statement's: the same kind, or the end
 * of the text. */
static int
eol_same(enum wire_eol first, enum wire_eol e)
{
	return e == WIRE_EOL_NONE || e == first;
}

/* Cut the blanks at the start of a line. */
static void
skip_blanks(const char **l, size_t *n)
{
	while (*n > 0 && (**l == ' ' || **l == '\t')) {
		(*l)++;
		(*n)--;
	}
}

/*
 * Parse the raw signature line `l` ("signature: BASE64"): exactly 88
 * characters of padded base64, 64 bytes. Write its text back into sg.
 */
static int
rawsig_parse(const char *l, size_t n, struct sig_signature *sg,
    enum sig_error *err)
{
	uint8_t bin[SIG_SIGNATURE_BYTES + 3];
	size_t len, i;

	l += 10;
	n -= 10;
	if (n == 0 || *l != ' ')
		return sig_fail(err, n == 0 ? SIG_ESIGLEN : SIG_ESYNTAX);
	l++;
	n--;
	for (i = 0; i < n; i++)
		if (!wire_is_b64char((unsigned char)l[i]))
			return sig_fail(err, SIG_EBASE64);
	if (n != sodium_base64_ENCODED_LEN(SIG_SIGNATURE_BYTES, B64) - 1)
		return sig_fail(err, n >= 85 && n <= 87 ? SIG_ESIGFORM :
		    SIG_ESIGLEN);
	if (wire_b64_decode_padded(l, n, bin, sizeof bin, &len) != 0)
		return sig_fail(err, SIG_ESIGFORM);
	if (len != SIG_SIGNATURE_BYTES)
		return sig_fail(err, SIG_ESIGLEN);
	memcpy(sg->raw, bin, SIG_SIGNATURE_BYTES);
	sg->form = SIG_FORM_RAW;
	if (sig_rawsig_format(sg->raw, sg->text, sizeof sg->text) != 0)
		return sig_fail(err, SIG_ESPACE);
	sg->text_len = strlen(sg->text);
	return sig_ok(err);
}

/*
 * Parse the SSH SIGNATURE block whose BEGIN line `it` has just read: take
 * its lines through the END line, each ending as `first` does, parse
 * them, and write the block back into sg from the blob parsed. A fault
 * is that of the BEGIN line, but for a line end (*linep is its line).
 */
static int
sshsig_block_parse(struct wire_lines *it, enum wire_eol first,
    struct sig_signature *sg, unsigned int *linep, enum sig_error *err)
{
	char armor[8192];
	const char *l;
	size_t n, o = 0;

	o = (size_t)snprintf(armor, sizeof armor, "%s\n", SIG_SSHSIG_BEGIN);
	for (;;) {
		if (!wire_lines_next(it, &l, &n))
			break;
		if (!eol_same(first, it->eol)) {
			*linep = it->lineno;
			return sig_fail(err, SIG_ELINE_ENDS);
		}
		skip_blanks(&l, &n);
		if (n + 2 > sizeof armor - o)
			return sig_fail(err, SIG_ESSHSIG);
		memcpy(armor + o, l, n);
		o += n;
		armor[o++] = '\n';
		if (wire_line_starts(l, n, "-----"))
			break;
	}
	if (sig_sshsig_parse_armor(armor, o, &sg->ssh, NULL, err) != 0)
		return -1;
	sg->form = SIG_FORM_SSHSIG;
	if (wire_armor_write(SIG_SSHSIG_BEGIN, SIG_SSHSIG_END, sg->ssh.blob,
	    sg->ssh.blob_len, sg->text, sizeof sg->text) != 0)
		return sig_fail(err, SIG_ESPACE);
	sg->text_len = strlen(sg->text);
	return sig_ok(err);
}

/* Read the "message: TEXT" line `l` into st->message. */
static int
message_line(struct sig_statement *st, const char *l, size_t n,
    enum sig_error *err)
{
	enum sig_error	me;

	l += 8;
	n -= 8;
	if (n == 0)
		return sig_fail(err, SIG_EMESSAGE_EMPTY);
	if (*l != ' ')
		return sig_fail(err, SIG_ESYNTAX);
	l++;
	n--;
	if (n > SIG_MESSAGE_MAX)
		return sig_fail(err, SIG_EMESSAGE_LONG);
	if (memchr(l, '\0', n) != NULL)
		return sig_fail(err, SIG_EMESSAGE_CONTROL);
	memcpy(st->message, l, n);
	st->message[n] = '\0';
	if (!SIG_ACT_TAKES_MESSAGE(st->action.kind))
		return sig_fail(err, SIG_EMESSAGE_ACTION);
	if ((me = sig_message_check(st->message)) != SIG_OK)
		return sig_fail(err, me);
	return sig_ok(err);
}

/* Find and parse the first statement in a text, and its signature. */
int
sig_statement_parse(const char *text, size_t len, struct sig_statement *st,
    struct sig_signature *sg, enum sig_error *err)
{
	struct wire_lines it;
	enum wire_eol first;
	const char *l, *colon;
	size_t n, i;
	int field, more, seen[4] = { 0, 0, 0, 0 };

	memset(st, 0, sizeof *st);
	if (sg != NULL)
		memset(sg, 0, sizeof *sg);
	wire_lines_init(&it, text, len);

	/* The header line. */
	for (;;) {
		if (!wire_lines_next(&it, &l, &n))
			return sig_fail(err, SIG_ENOHEADER);
		if (wire_line_is(l, n, SIG_HEADER))
			break;
		if (wire_line_starts(l, n, "corrchess-v") && n > 11) {
			for (i = 11; i < n; i++)
				if (l[i] < '0' || l[i] > '9')
					break;
			if (i == n) {
				st->line = it.lineno;
				return sig_fail(err, SIG_EVERSION);
			}
		}
	}

	/* The four fields, in order, their lines ending as the header's. */
	first = it.eol;
	for (field = 0; field < 4; field++) {
		if (!wire_lines_next(&it, &l, &n) || n == 0 ||
		    is_signature_line(l, n)) {
			st->line = it.lineno;
			return sig_fail(err, SIG_EFIELD_MISSING);
		}
		st->line = it.lineno;
		if (!eol_same(first, it.eol))
			return sig_fail(err, SIG_ELINE_ENDS);
		colon = memchr(l, ':', n);
		if (colon == NULL || (size_t)(colon - l) !=
		    strlen(field_names[field]) ||
		    memcmp(l, field_names[field], (size_t)(colon - l)) != 0)
			return sig_fail(err,
			    field_line_error(l, n, field, seen));
		i = (size_t)(colon - l) + 1;
		if (i < n && l[i] != ' ')
			return sig_fail(err, SIG_ESYNTAX);
		i = i < n ? i + 1 : n;
		seen[field] = 1;
		if (field_value(st, field, l + i, n - i, err) != 0)
			return -1;
	}

	/* A message may follow the action, on a line of its own. */
	more = wire_lines_next(&it, &l, &n);
	if (more && wire_line_starts(l, n, "message:")) {
		st->line = it.lineno;
		if (!eol_same(first, it.eol))
			return sig_fail(err, SIG_ELINE_ENDS);
		if (message_line(st, l, n, err) != 0)
			return -1;
		more = wire_lines_next(&it, &l, &n);
	}

	/* The statement ends here: a blank line, a signature or the end. */
	if (more && n > 0 && !is_signature_line(l, n)) {
		st->line = it.lineno;
		return sig_fail(err, field_line_error(l, n, 4, seen));
	}
	if (sg != NULL && !eol_same(first, it.eol)) {
		st->line = it.lineno;
		return sig_fail(err, SIG_ELINE_ENDS);
	}
	if (sig_statement_build(st, err) != 0)
		return -1;

	if (sg == NULL) {
		st->line = 0;
		return sig_ok(err);
	}

	/* The signature, after blank lines if any. */
	while (n == 0) {
		if (!wire_lines_next(&it, &l, &n)) {
			st->line = it.lineno;
			return sig_fail(err, SIG_ENOSIG);
		}
		if (!eol_same(first, it.eol)) {
			st->line = it.lineno;
			return sig_fail(err, SIG_ELINE_ENDS);
		}
	}
	st->line = it.lineno;
	if (!is_signature_line(l, n))
		return sig_fail(err, SIG_ENOSIG);
	if (wire_line_starts(l, n, "signature:")) {
		if (rawsig_parse(l, n, sg, err) != 0)
			return -1;
	} else if (sshsig_block_parse(&it, first, sg, &st->line, err) != 0)
		return -1;

	/* What follows is ignored, but not a second signature, nor lines
	 * that end otherwise: what is verified is all there is. */
	while (wire_lines_next(&it, &l, &n)) {
		st->line = it.lineno;
		if (!eol_same(first, it.eol))
			return sig_fail(err, SIG_ELINE_ENDS);
		skip_blanks(&l, &n);
		if (is_signature_line(l, n))
			return sig_fail(err, SIG_ESIG_TWICE);
	}
	st->line = 0;
	return sig_ok(err);
}

_Static_assert(SIG_TBS_MAX >= SIG_SSHSIG_TBS_MAX,
    "an SSHSIG's signed data fits the statement's");

/* Write the bytes a signature of `form` covers. */
int
sig_statement_tbs(const struct sig_statement *st, enum sig_form form,
    uint8_t *out, size_t size, size_t *lenp, enum sig_error *err)
{
	if (st->canon_len == 0 || st->canon_len > SIG_STATEMENT_MAX)
		return sig_fail(err, SIG_EFIELD_MISSING);
	switch (form) {
	case SIG_FORM_RAW:
		if (size < st->canon_len)
			return sig_fail(err, SIG_ESPACE);
		memcpy(out, st->canon, st->canon_len);
		*lenp = st->canon_len;
		return sig_ok(err);
	case SIG_FORM_SSHSIG:
		return sig_sshsig_tbs(st->canon, st->canon_len, SIG_NAMESPACE,
		    out, size, lenp, err);
	default:
		return sig_fail(err, SIG_ENOSIG);
	}
}

/* Write a statement with a signature made over its sig_statement_tbs(). */
int
sig_statement_signed(const struct sig_statement *st, enum sig_form form,
    const uint8_t pk[SIG_PUBKEY_BYTES], const uint8_t sig[SIG_SIGNATURE_BYTES],
    char *buf, size_t size, enum sig_error *err)
{
	if (st->canon_len == 0 || st->canon_len > SIG_STATEMENT_MAX)
		return sig_fail(err, SIG_EFIELD_MISSING);
	if (size < st->canon_len + 1)
		return sig_fail(err, SIG_ESPACE);
	memcpy(buf, st->canon, st->canon_len);
	switch (form) {
	case SIG_FORM_RAW:
		if (sig_rawsig_format(sig, buf + st->canon_len,
		    size - st->canon_len) != 0)
			return sig_fail(err, SIG_ESPACE);
		break;
	case SIG_FORM_SSHSIG:
		if (sig_sshsig_format(pk, SIG_NAMESPACE, sig,
		    buf + st->canon_len, size - st->canon_len, err) != 0)
			return -1;
		break;
	default:
		return sig_fail(err, SIG_ENOSIG);
	}
	return sig_ok(err);
}

/* Sign a statement and write it with its signature. */
int
sig_statement_sign(const struct sig_statement *st,
    const uint8_t sk[SIG_SECKEY_BYTES], enum sig_form form, char *buf,
    size_t size, enum sig_error *err)
{
	uint8_t tbs[SIG_TBS_MAX], sig[SIG_SIGNATURE_BYTES];
	size_t n;

	if (sig_statement_tbs(st, form, tbs, sizeof tbs, &n, err) != 0)
		return -1;
	if (sig_sign(tbs, n, sk, sig) != 0)
		return sig_fail(err, SIG_ECRYPTO);
	return sig_statement_signed(st, form, sk + SIG_SEED_BYTES, sig, buf,
	    size, err);
}
