/*
 * letters/mail_parse.c: a player's mail read: sender, thread, the signed statement.
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

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "util/buf.h"
#include "letters/mail_parse.h"
#include "sig/sig.h"

/* Deepest MIME nesting walked (deeper parts are not read). */
#define WALK_DEPTH_MAX		32
/* Most text taken from the body parts, and from one attachment. */
#define BODY_TEXT_MAX		(1024 * 1024)
#define ATTACH_TEXT_MAX		(64 * 1024)
/* Most attachments read. */
#define ATTACH_MAX		16
/* Most "corrchess-v1" lines tried, and signatures paired with one. */
#define CANDIDATES_MAX		64
#define PAIRINGS_MAX		16
/* Longest base64 re-joined inside an SSH SIGNATURE block. */
#define ARMOR_B64_MAX		4096
/* Base64 characters of a raw Ed25519 signature. */
#define RAWSIG_B64_LEN		88

static const char armor_begin[] = "-----BEGIN SSH SIGNATURE-----";
static const char armor_end[] = "-----END SSH SIGNATURE-----";

/* A line of a text: [s, e), without its LF. */
struct line {
	const char	*s;
	const char	*e;
};

/* Text gathered from the parts of a mail. */
struct collect {
	struct buf	body;
	struct buf	attach;
	size_t		nattach;
};

/* --- small text helpers -------------------------------------------- */

/* Take the next line of [*p, end); false at the end. */
static bool
next_line(const char **p, const char *end, struct line *l)
{
	const char *nl;

	if (*p >= end)
		return false;
	l->s = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	l->e = nl != NULL ? nl : end;
	*p = nl != NULL ? nl + 1 : end;
	return true;
}

/* Skip spaces and tabs at the start of [s, e). */
static const char *
skip_blank(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Drop spaces and tabs at the end of [s, e). */
static const char *
trim_end(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

/* True if [s, e) is exactly the C string `str`. */
static bool
span_is(const char *s, const char *e, const char *str)
{
	size_t n = strlen(str);

	return (size_t)(e - s) == n && memcmp(s, str, n) == 0;
}

/* True if [s, e) starts with the C string `str`. */
static bool
span_starts(const char *s, const char *e, const char *str)
{
	size_t n = strlen(str);

	return (size_t)(e - s) >= n && memcmp(s, str, n) == 0;
}

/* Find the C string `str` in [s, e), or NULL. */
static const char *
span_find(const char *s, const char *e, const char *str)
{
	size_t n = strlen(str);

	for (; (size_t)(e - s) >= n; s++)
		if (*s == *str && memcmp(s, str, n) == 0)
			return s;
	return NULL;
}

/* True for a character of standard base64 (padding included). */
static bool
is_b64(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
}

/* True if [s, e) is not empty and only base64. */
static bool
span_b64(const char *s, const char *e)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (!is_b64((unsigned char)*s))
			return false;
	return true;
}

/* Take a buffer's text, NUL-terminated even when empty (NULL when out of
 * memory). */
static char *
take(struct buf *b, size_t *lenp)
{
	char	*t;
	size_t	 n = 0;

	if ((t = buf_take(b, &n)) != NULL && n == 0)
		t[0] = '\0';
	if (lenp != NULL)
		*lenp = n;
	return t;
}

/* Write a reason into a caller buffer. */
static int
fail(char *err, size_t errsize, const char *why)
{
	if (err != NULL && errsize > 0)
		snprintf(err, errsize, "%s", why);
	return -1;
}

/* A malloc'd copy of a C string (NULL: ""), or NULL when out of memory. */
static char *
dup_or_empty(const char *s)
{
	return strdup(s != NULL ? s : "");
}

/* --- line ends, format=flowed, quotes -------------------------------- */

/* Append a text with CRLF and lone CR turned into LF. */
static void
add_lf(struct buf *b, const char *s, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\r')
			continue;
		buf_add(b, s + start, i - start);
		buf_add(b, "\n", 1);
		if (i + 1 < n && s[i + 1] == '\n')
			i++;
		start = i + 1;
	}
	buf_add(b, s + start, n - start);
}

/*
 * Join the soft line breaks of a format=flowed text (RFC 3676; LF line
 * ends): a line ending in a space continues on the next line of the same
 * quote depth. Space-stuffing is undone; with DelSp=yes the space before
 * a soft break is dropped. The signature separator "-- " stays a line.
 * Quoted lines are copied as they are (the caller drops them).
 */
static void
flowed_decode(struct buf *b, const char *t, size_t n, bool delsp)
{
	const char	*p = t, *end = t + n, *s, *e;
	struct line	 l;
	bool		 open = false;

	while (next_line(&p, end, &l)) {
		s = l.s;
		e = l.e;
		if (s < e && *s == '>') {
			if (open)
				buf_add(b, "\n", 1);
			open = false;
			buf_add(b, s, (size_t)(e - s));
			buf_add(b, "\n", 1);
			continue;
		}
		if (span_is(s, e, "-- ")) {
			if (open)
				buf_add(b, "\n", 1);
			open = false;
			buf_add(b, "-- \n", 4);
			continue;
		}
		if (s < e && *s == ' ')
			s++;
		if (s < e && e[-1] == ' ') {
			if (delsp)
				e--;
			buf_add(b, s, (size_t)(e - s));
			open = true;
			continue;
		}
		buf_add(b, s, (size_t)(e - s));
		buf_add(b, "\n", 1);
		open = false;
	}
	if (open)
		buf_add(b, "\n", 1);
}

/*
 * Append a text (LF line ends) without its quoted lines; for a body, stop
 * at the signature separator "-- " or an Outlook-style "-----Original
 * Message-----" line (what follows is the mail replied to).
 */
static void
drop_quotes(struct buf *b, const char *t, size_t n, bool body)
{
	const char	*p = t, *end = t + n, *s;
	struct line	 l;

	while (next_line(&p, end, &l)) {
		if (body && (span_is(l.s, l.e, "-- ") ||
		    span_is(skip_blank(l.s, l.e), trim_end(l.s, l.e),
		    "-----Original Message-----")))
			break;
		s = skip_blank(l.s, l.e);
		if (s < l.e && *s == '>')
			continue;
		buf_add(b, l.s, (size_t)(l.e - l.s));
		buf_add(b, "\n", 1);
	}
}

/* --- repairing signatures ------------------------------------------ */

/*
 * Re-join an SSH SIGNATURE block that starts on line `first` (which holds
 * the BEGIN marker at `mark`): collect the base64 between the markers,
 * whatever the line breaks and blanks, and write the block again in lines
 * of 70. Text before BEGIN and after END on their lines becomes lines of
 * its own. Returns the position after the lines used, or NULL (nothing
 * written) when the block is not base64 up to an END marker.
 */
static const char *
armor_rejoin(struct buf *b, const struct line *first, const char *mark,
    const char *end)
{
	char		 b64[ARMOR_B64_MAX];
	size_t		 nb = 0, i;
	const char	*q, *stop, *p, *after = NULL, *e;
	struct line	 l;

	l = *first;
	q = mark + strlen(armor_begin);
	p = first->e < end ? first->e + 1 : end;
	for (;;) {
		stop = span_find(q, l.e, armor_end);
		e = stop != NULL ? stop : l.e;
		for (; q < e; q++) {
			if (*q == ' ' || *q == '\t')
				continue;
			if (!is_b64((unsigned char)*q) || nb == sizeof b64)
				return NULL;
			b64[nb++] = *q;
		}
		if (stop != NULL) {
			after = stop + strlen(armor_end);
			break;
		}
		if (!next_line(&p, end, &l))
			return NULL;
		q = l.s;
	}
	if (nb == 0)
		return NULL;

	/* Text joined before BEGIN, the block, text joined after END. */
	q = trim_end(first->s, mark);
	if (skip_blank(first->s, q) < q) {
		buf_add(b, first->s, (size_t)(q - first->s));
		buf_add(b, "\n", 1);
	}
	buf_adds(b, armor_begin);
	buf_add(b, "\n", 1);
	for (i = 0; i < nb; i += 70) {
		buf_add(b, b64 + i, nb - i < 70 ? nb - i : 70);
		buf_add(b, "\n", 1);
	}
	buf_adds(b, armor_end);
	buf_add(b, "\n", 1);
	q = skip_blank(after, l.e);
	if (q < l.e) {
		buf_add(b, q, (size_t)(l.e - q));
		buf_add(b, "\n", 1);
	}
	return p;
}

/*
 * Join a "signature:" line (at `s` on line `first`) with the base64 that a
 * client moved to the next lines, when that makes exactly one raw
 * signature; write it as "signature: BASE64". Returns the position after
 * the lines used, or NULL (nothing written) when it does not.
 */
static const char *
rawsig_rejoin(struct buf *b, const struct line *first, const char *s,
    const char *end)
{
	char		 b64[RAWSIG_B64_LEN];
	size_t		 nb = 0;
	const char	*q, *e, *p, *save;
	struct line	 l;

	/* The rest of the first line: base64 words, or nothing. */
	e = trim_end(s, first->e);
	for (q = s + strlen("signature:"); q < e; q++) {
		if (*q == ' ' || *q == '\t')
			continue;
		if (!is_b64((unsigned char)*q) || nb == sizeof b64)
			return NULL;
		b64[nb++] = *q;
	}
	/* Whole lines of base64 after it, until the signature is complete. */
	p = first->e < end ? first->e + 1 : end;
	while (nb < sizeof b64) {
		save = p;
		if (!next_line(&p, end, &l))
			return NULL;
		q = skip_blank(l.s, l.e);
		e = trim_end(q, l.e);
		if (!span_b64(q, e) || (size_t)(e - q) > sizeof b64 - nb) {
			p = save;
			break;
		}
		memcpy(b64 + nb, q, (size_t)(e - q));
		nb += (size_t)(e - q);
	}
	if (nb != sizeof b64)
		return NULL;
	buf_adds(b, "signature: ");
	buf_add(b, b64, nb);
	buf_add(b, "\n", 1);
	return p;
}

/* Append a text (LF line ends) with its signatures repaired. */
static void
repair_signatures(struct buf *b, const char *t, size_t n)
{
	const char	*p = t, *end = t + n, *s, *mark, *next;
	struct line	 l;

	while (next_line(&p, end, &l)) {
		s = skip_blank(l.s, l.e);
		next = NULL;
		if ((mark = span_find(l.s, l.e, armor_begin)) != NULL)
			next = armor_rejoin(b, &l, mark, end);
		else if (span_starts(s, l.e, "signature:"))
			next = rawsig_rejoin(b, &l, s, end);
		if (next != NULL) {
			p = next;
			continue;
		}
		buf_add(b, l.s, (size_t)(l.e - l.s));
		buf_add(b, "\n", 1);
	}
}

/* --- finding the statement ------------------------------------------ */

/*
 * Find the first signature (a "signature:" line, or an armored block
 * through its END line) starting at or after `from`; its first and last
 * line. False when none.
 */
static bool
find_signature(const char *from, const char *end, struct line *first,
    struct line *last)
{
	const char	*p = from, *s;
	struct line	 l, m;

	while (next_line(&p, end, &l)) {
		s = skip_blank(l.s, l.e);
		if (span_starts(s, l.e, "signature:")) {
			*first = *last = l;
			return true;
		}
		if (!span_is(s, trim_end(s, l.e), armor_begin))
			continue;
		*first = l;
		while (next_line(&p, end, &m)) {
			s = skip_blank(m.s, m.e);
			if (span_is(s, trim_end(s, m.e), armor_end)) {
				*last = m;
				return true;
			}
		}
		return false;
	}
	return false;
}

/* Append the lines first..last, without blanks around them, LF ends. */
static void
add_lines(struct buf *b, const struct line *first, const struct line *last)
{
	const char	*p = first->s, *s, *e;
	struct line	 l;

	while (next_line(&p, last->e, &l)) {
		s = skip_blank(l.s, l.e);
		e = trim_end(s, l.e);
		buf_add(b, s, (size_t)(e - s));
		buf_add(b, "\n", 1);
	}
}

/*
 * Build the statement text: canonical bytes, then the signature's lines.
 * Keep it in m when it parses with its signature.
 */
static int
take_statement(struct mail_message *m, const struct sig_statement *st,
    const struct line *first, const struct line *last)
{
	struct buf		 b = { 0 };
	struct sig_statement	 again;
	struct sig_signature	 sg;
	enum sig_error		 e;
	char			*text;
	size_t			 len;

	buf_add(&b, (const char *)st->canon, st->canon_len);
	add_lines(&b, first, last);
	if ((text = take(&b, &len)) == NULL)
		return -1;
	if (sig_statement_parse(text, len, &again, &sg, &e) != 0 ||
	    again.canon_len != st->canon_len ||
	    memcmp(again.canon, st->canon, st->canon_len) != 0) {
		free(text);
		return 1;
	}
	m->statement = text;
	m->statement_len = len;
	m->found = MAIL_STATEMENT;
	m->error = SIG_OK;
	m->error_line = 0;
	return 0;
}

/*
 * Refuse a text with two signatures after its first statement, as
 * sig_statement_parse() refuses a body with two: when they follow a
 * statement that parses alone, m holds that statement with both
 * signatures (MAIL_BAD_STATEMENT, SIG_ESIG_TWICE), so that the service
 * names the fault. 1 when so, 0 when not, -1 when memory ran out.
 */
static int
two_signatures(struct mail_message *m, const char *const *heads,
    size_t nheads, const char *end)
{
	struct sig_statement	 st;
	struct line		 f1, l1, f2, l2;
	struct buf		 b = { 0 };
	enum sig_error		 e;
	size_t			 i;
	int			 rc = 0;

	if (nheads == 0 || !find_signature(heads[0], end, &f1, &l1) ||
	    !find_signature(l1.e, end, &f2, &l2))
		return 0;
	/* The statement the first signature belongs to: the last one
	 * before it that parses. */
	for (i = nheads; i > 0; i--) {
		if (heads[i - 1] >= f1.s || sig_statement_parse(heads[i - 1],
		    (size_t)(end - heads[i - 1]), &st, NULL, &e) != 0)
			continue;
		buf_add(&b, (const char *)st.canon, st.canon_len);
		add_lines(&b, &f1, &l1);
		add_lines(&b, &f2, &l2);
		if ((m->statement = take(&b, &m->statement_len)) == NULL)
			return -1;
		m->found = MAIL_BAD_STATEMENT;
		m->error = SIG_ESIG_TWICE;
		m->error_line = 0;
		rc = 1;
		break;
	}
	return rc;
}

/*
 * Search the cleaned text m->text: each "corrchess-v1" line in turn with
 * the signature after it; then the first statement that parses alone with
 * a signature found elsewhere (a statement in the body, its signature in
 * an attachment, or words between the two). Two signatures after the
 * first statement are refused, whatever they sign.
 */
static int
search(struct mail_message *m)
{
	const char		*t = m->text, *end = m->text + m->text_len;
	const char		*p, *heads[CANDIDATES_MAX], *bad = NULL;
	struct sig_statement	 st, alone;
	struct sig_signature	 sg;
	struct line		 l, first, last;
	enum sig_error		 e, e2, bad_err = SIG_OK;
	unsigned int		 bad_line = 0, line;
	size_t			 nheads = 0, i, k;
	int			 rc, taken, pass;
	bool			 fields_ok, bad_fields_ok = false;

	m->found = MAIL_NO_STATEMENT;
	p = t;
	while (nheads < CANDIDATES_MAX && next_line(&p, end, &l))
		if (span_is(l.s, trim_end(l.s, l.e), SIG_HEADER))
			heads[nheads++] = l.s;
	if ((rc = two_signatures(m, heads, nheads, end)) != 0)
		return rc < 0 ? -1 : 0;

	/*
	 * A statement directly followed by its signature. When none is,
	 * the fault reported is that of the first statement whose five
	 * lines parse (its signature is wrong), else of the first one.
	 */
	for (i = 0; i < nheads; i++) {
		rc = sig_statement_parse(heads[i], (size_t)(end - heads[i]),
		    &st, &sg, &e);
		if (rc == 0 && find_signature(heads[i], end, &first, &last) &&
		    (taken = take_statement(m, &st, &first, &last)) <= 0)
			return taken;
		line = rc == 0 ? 0 : st.line;
		if (rc == 0)
			e = SIG_ENOSIG;
		fields_ok = rc == 0 || sig_statement_parse(heads[i],
		    (size_t)(end - heads[i]), &alone, NULL, &e2) == 0;
		if (bad == NULL || (fields_ok && !bad_fields_ok)) {
			bad = heads[i];
			bad_err = e;
			bad_line = line;
			bad_fields_ok = fields_ok;
		}
	}

	/* The first statement that parses alone, with a signature found
	 * elsewhere: those after it first, then those before it. */
	for (i = 0; i < nheads; i++) {
		if (sig_statement_parse(heads[i], (size_t)(end - heads[i]),
		    &st, NULL, &e) != 0)
			continue;
		k = 0;
		for (pass = 0; pass < 2; pass++) {
			p = pass == 0 ? heads[i] : t;
			while (k < PAIRINGS_MAX &&
			    find_signature(p, end, &first, &last)) {
				if (pass == 1 && first.s >= heads[i])
					break;
				k++;
				if ((taken = take_statement(m, &st, &first,
				    &last)) <= 0)
					return taken;
				p = last.e;
			}
		}
		break;
	}

	if (bad != NULL) {
		m->found = MAIL_BAD_STATEMENT;
		m->statement_len = (size_t)(end - bad);
		if ((m->statement = malloc(m->statement_len + 1)) == NULL)
			return -1;
		memcpy(m->statement, bad, m->statement_len);
		m->statement[m->statement_len] = '\0';
		m->error = bad_err;
		m->error_line = bad_line;
	}
	return 0;
}

/* Clean a body text, keep it as m->text and search it. */
static int
clean_and_search(struct mail_message *m, const char *body, size_t blen,
    const char *attach, size_t alen)
{
	struct buf	 dq = { 0 }, rep = { 0 };
	char		*t;
	size_t		 n;

	drop_quotes(&dq, body, blen, true);
	drop_quotes(&dq, attach, alen, false);
	if (dq.failed) {
		buf_free(&dq);
		return -1;
	}
	repair_signatures(&rep, dq.data != NULL ? dq.data : "", dq.len);
	buf_free(&dq);
	if ((t = take(&rep, &n)) == NULL)
		return -1;
	free(m->text);
	free(m->statement);
	m->text = t;
	m->text_len = n;
	m->statement = NULL;
	m->statement_len = 0;
	m->error = SIG_OK;
	m->error_line = 0;
	return search(m);
}

/* Find the statement in a plain text cleaned like a mail body. */
int
mail_find_statement(const char *text, size_t len, struct mail_message *m)
{
	struct buf	b = { 0 };
	int		rc;

	add_lf(&b, text, len);
	if (b.failed) {
		buf_free(&b);
		return -1;
	}
	rc = clean_and_search(m, b.data != NULL ? b.data : "", b.len, "", 0);
	buf_free(&b);
	return rc;
}

/* --- HTML to text ---------------------------------------------------- */

/* Append a Unicode code point as UTF-8 (invalid ones as U+FFFD). */
static void
add_utf8(struct buf *b, unsigned long c)
{
	char	u[4];
	size_t	n;

	if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		c = 0xfffd;
	if (c < 0x80) {
		u[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | c >> 6);
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | c >> 12);
		u[1] = (char)(0x80 | (c >> 6 & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | c >> 18);
		u[1] = (char)(0x80 | (c >> 12 & 0x3f));
		u[2] = (char)(0x80 | (c >> 6 & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	buf_add(b, u, n);
}

/*
 * Decode the entity at s[0] == '&' (named, decimal or hex); its code point
 * in *cp and its length, or 0 when it is not one.
 */
static size_t
entity(const char *s, const char *e, unsigned long *cp)
{
	static const struct {
		const char	*name;
		unsigned long	 cp;
	} names[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
		{ "apos", '\'' }, { "nbsp", ' ' }, { "shy", 0xad },
		{ "eacute", 0xe9 }, { "egrave", 0xe8 }, { "agrave", 0xe0 },
		{ "ccedil", 0xe7 }, { "ecirc", 0xea }, { "ocirc", 0xf4 },
		{ "laquo", 0xab }, { "raquo", 0xbb }, { "hellip", 0x2026 },
		{ "ndash", 0x2013 }, { "mdash", 0x2014 }, { "rsquo", 0x2019 },
		{ "lsquo", 0x2018 }, { "rdquo", 0x201d }, { "ldquo", 0x201c },
		{ "copy", 0xa9 }, { "euro", 0x20ac },
	};
	const char	*q, *semi;
	unsigned long	 v = 0;
	size_t		 i, n;

	semi = memchr(s, ';', (size_t)(e - s) < 12 ? (size_t)(e - s) : 12);
	if (semi == NULL || semi - s < 2)
		return 0;
	n = (size_t)(semi - s) + 1;
	if (s[1] == '#') {
		q = s + 2;
		if (q < semi && (*q == 'x' || *q == 'X')) {
			for (q++; q < semi && isxdigit((unsigned char)*q); q++)
				v = v * 16 + (unsigned long)(isdigit(
				    (unsigned char)*q) ? *q - '0' :
				    (tolower((unsigned char)*q) - 'a' + 10));
			if (q != semi || q == s + 3)
				return 0;
		} else {
			for (; q < semi && isdigit((unsigned char)*q); q++)
				v = v * 10 + (unsigned long)(*q - '0');
			if (q != semi || q == s + 2)
				return 0;
		}
		*cp = v > 0x10ffff ? 0xfffd : v;
		return n;
	}
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (span_is(s + 1, semi, names[i].name)) {
			*cp = names[i].cp;
			return n;
		}
	return 0;
}

/* True if the tag name [s, e) is one of a NULL-terminated list. */
static bool
tag_in(const char *s, const char *e, const char *const *list)
{
	size_t n = (size_t)(e - s);

	for (; *list != NULL; list++)
		if (strlen(*list) == n && strncasecmp(s, *list, n) == 0)
			return true;
	return false;
}

/* Find "</name" (any case) from s, or e. */
static const char *
find_close(const char *s, const char *e, const char *ns, const char *ne)
{
	size_t n = (size_t)(ne - ns);

	for (; s + 2 + n <= e; s++)
		if (s[0] == '<' && s[1] == '/' &&
		    strncasecmp(s + 2, ns, n) == 0)
			return s;
	return e;
}

/* State of the HTML to text conversion. */
struct html {
	struct buf	*b;
	bool		 bol;		/* at the start of a line */
	bool		 space;		/* a blank is pending */
	int		 quote;		/* <blockquote> depth */
	int		 pre;		/* <pre> depth */
};

/* Start a new line (always). */
static void
html_newline(struct html *h)
{
	buf_add(h->b, "\n", 1);
	h->bol = true;
	h->space = false;
}

/* Emit text bytes, with the pending blank and the quote marks. */
static void
html_text(struct html *h, const char *s, size_t n)
{
	int i;

	if (h->bol) {
		for (i = 0; i < h->quote && i < 64; i++)
			buf_add(h->b, "> ", 2);
		h->space = false;
	} else if (h->space)
		buf_add(h->b, " ", 1);
	buf_add(h->b, s, n);
	h->bol = false;
	h->space = false;
}

/* Turn HTML into text. */
char *
mail_html_to_text(const char *s, size_t len, size_t *lenp)
{
	static const char *const blocks[] = { "p", "div", "tr", "li", "ul",
	    "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dl",
	    "dt", "dd", "address", "section", "article", "header", "footer",
	    "blockquote", "pre", "body", "center", "form", "fieldset", NULL };
	static const char *const skipped[] = { "script", "style", "head",
	    "title", "template", NULL };
	struct buf	 b = { 0 };
	struct html	 h = { &b, true, false, 0, 0 };
	const char	*e = s + len, *q, *ns, *ne, *gt;
	unsigned long	 cp;
	size_t		 n;
	bool		 closing;

	while (s < e) {
		if (*s == '<') {
			/* A comment, a declaration or a tag. */
			if (span_starts(s, e, "<!--")) {
				q = span_find(s + 4, e, "-->");
				s = q != NULL ? q + 3 : e;
				continue;
			}
			gt = memchr(s, '>', (size_t)(e - s));
			if (gt == NULL)
				break;
			q = s + 1;
			closing = q < gt && *q == '/';
			if (closing)
				q++;
			ns = q;
			while (q < gt && (isalnum((unsigned char)*q) ||
			    *q == ':' || *q == '-'))
				q++;
			ne = q;
			s = gt + 1;
			if (ns == ne)
				continue;
			if (!closing && tag_in(ns, ne, skipped)) {
				q = find_close(s, e, ns, ne);
				gt = memchr(q, '>', (size_t)(e - q));
				s = gt != NULL ? gt + 1 : e;
				continue;
			}
			if (tag_in(ns, ne, (const char *const[]){ "br",
			    NULL })) {
				if (h.bol && h.quote > 0)
					html_text(&h, "", 0);
				html_newline(&h);
				continue;
			}
			if (!tag_in(ns, ne, blocks))
				continue;
			if (!h.bol)
				html_newline(&h);
			if (tag_in(ns, ne, (const char *const[]){ "blockquote",
			    NULL })) {
				if (!closing)
					h.quote++;
				else if (h.quote > 0)
					h.quote--;
			} else if (tag_in(ns, ne, (const char *const[]){ "pre",
			    NULL })) {
				if (!closing)
					h.pre++;
				else if (h.pre > 0)
					h.pre--;
			}
			continue;
		}
		if (*s == '&' && (n = entity(s, e, &cp)) > 0) {
			s += n;
			if (cp == ' ' && h.pre == 0) {
				html_text(&h, " ", 1);
				continue;
			}
			html_text(&h, "", 0);
			add_utf8(&b, cp);
			continue;
		}
		if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
			if (h.pre > 0) {
				if (*s == '\n')
					html_newline(&h);
				else if (*s != '\r')
					html_text(&h, s, 1);
			} else if (!h.bol)
				h.space = true;
			s++;
			continue;
		}
		/* A no-break space (U+00A0) shows as a space. */
		if (*s == '\xc2' && s + 1 < e && s[1] == '\xa0') {
			html_text(&h, " ", 1);
			s += 2;
			continue;
		}
		/* A run of plain text. */
		for (q = s; q < e && *q != '<' && *q != '&' && *q != ' ' &&
		    *q != '\t' && *q != '\r' && *q != '\n' &&
		    !(*q == '\xc2' && q + 1 < e && q[1] == '\xa0'); q++)
			;
		if (q == s)
			q++;
		html_text(&h, s, (size_t)(q - s));
		s = q;
	}
	if (!h.bol)
		html_newline(&h);
	return take(&b, lenp);
}

/* --- the MIME walk ---------------------------------------------------- */

static GOnce gmime_once = G_ONCE_INIT;

/* Initialise GMime (called once). */
static gpointer
gmime_start(gpointer arg)
{
	(void)arg;
	g_mime_init();
	return NULL;
}

/* Initialise GMime once per process. */
void
mail_gmime_init(void)
{
	g_once(&gmime_once, gmime_start, NULL);
}

/* True if a file name ends with `ext` (any case). */
static bool
name_ends(const char *name, const char *ext)
{
	size_t n, k = strlen(ext);

	if (name == NULL)
		return false;
	n = strlen(name);
	return n >= k && strcasecmp(name + n - k, ext) == 0;
}

/* The decoded bytes of a part, valid UTF-8, at most `max` bytes. */
static char *
part_bytes(GMimePart *part, size_t max, size_t *lenp)
{
	GMimeDataWrapper	*w;
	GMimeStream		*mem;
	GByteArray		*ba;
	char			*t = NULL;
	gchar			*valid;
	size_t			 n;

	if ((w = g_mime_part_get_content(part)) == NULL)
		return NULL;
	mem = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(w, mem) >= 0) {
		ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		n = ba->len < max ? ba->len : max;
		valid = g_utf8_make_valid(n > 0 ? (const char *)ba->data : "",
		    (gssize)n);
		if (valid != NULL) {
			t = strdup(valid);
			g_free(valid);
		}
	}
	g_object_unref(mem);
	if (t != NULL)
		*lenp = strlen(t);
	return t;
}

/* The text of a text part in UTF-8, at most `max` bytes. */
static char *
part_text(GMimePart *part, size_t max, size_t *lenp)
{
	gchar	*raw, *valid;
	char	*t;
	size_t	 n;

	if (!GMIME_IS_TEXT_PART(part))
		return part_bytes(part, max, lenp);
	if ((raw = g_mime_text_part_get_text(GMIME_TEXT_PART(part))) == NULL)
		return part_bytes(part, max, lenp);
	n = strlen(raw);
	if (n > max)
		n = max;
	valid = g_utf8_make_valid(raw, (gssize)n);
	g_free(raw);
	if (valid == NULL)
		return NULL;
	t = strdup(valid);
	g_free(valid);
	if (t != NULL)
		*lenp = strlen(t);
	return t;
}

/* Append one part's text (LF ends; flowed joined; HTML as text). */
static void
add_part(struct buf *b, GMimePart *part, bool html, size_t max)
{
	GMimeObject	*o = GMIME_OBJECT(part);
	const char	*fmt, *delsp;
	struct buf	 lf = { 0 };
	char		*t, *h;
	size_t		 n, hn;

	if ((t = part_text(part, max, &n)) == NULL) {
		b->failed = true;
		return;
	}
	if (html) {
		h = mail_html_to_text(t, n, &hn);
		free(t);
		if (h == NULL) {
			b->failed = true;
			return;
		}
		t = h;
		n = hn;
	}
	add_lf(&lf, t, n);
	free(t);
	fmt = g_mime_object_get_content_type_parameter(o, "format");
	delsp = g_mime_object_get_content_type_parameter(o, "delsp");
	if (!html && fmt != NULL && strcasecmp(fmt, "flowed") == 0)
		flowed_decode(b, lf.data != NULL ? lf.data : "", lf.len,
		    delsp != NULL && strcasecmp(delsp, "yes") == 0);
	else
		buf_add(b, lf.data != NULL ? lf.data : "", lf.len);
	if (lf.failed)
		b->failed = true;
	buf_free(&lf);
	/* Parts are separated by a line end. */
	if (b->len > 0 && b->data[b->len - 1] != '\n')
		buf_add(b, "\n", 1);
}

/* True if a MIME object is of type/subtype. */
static bool
is_type(GMimeObject *o, const char *type, const char *subtype)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	return ct != NULL && g_mime_content_type_is_type(ct, type, subtype);
}

/* True if a part is an attachment (by disposition or by having a name). */
static bool
is_attachment(GMimeObject *o)
{
	return GMIME_IS_PART(o) && (g_mime_part_is_attachment(GMIME_PART(o)) ||
	    g_mime_part_get_filename(GMIME_PART(o)) != NULL);
}

/* Walk a MIME tree, collecting the body text and attachment texts. */
static void
walk(GMimeObject *o, struct collect *c, int depth)
{
	GMimeMultipart	*mp;
	GMimeObject	*child, *pick;
	const char	*name;
	int		 i, n;
	bool		 att, text;

	if (o == NULL || depth > WALK_DEPTH_MAX)
		return;
	if (GMIME_IS_MESSAGE_PART(o) || GMIME_IS_MULTIPART_ENCRYPTED(o))
		return;
	if (GMIME_IS_MULTIPART_SIGNED(o)) {
		walk(g_mime_multipart_get_part(GMIME_MULTIPART(o), 0), c,
		    depth + 1);
		return;
	}
	if (GMIME_IS_MULTIPART(o)) {
		mp = GMIME_MULTIPART(o);
		n = g_mime_multipart_get_count(mp);
		if (is_type(o, "multipart", "alternative")) {
			/* text/plain, else HTML, else the first container. */
			pick = NULL;
			for (i = 0; i < n && pick == NULL; i++) {
				child = g_mime_multipart_get_part(mp, i);
				if (is_type(child, "text", "plain") &&
				    !is_attachment(child))
					pick = child;
			}
			for (i = 0; i < n && pick == NULL; i++) {
				child = g_mime_multipart_get_part(mp, i);
				if (is_type(child, "text", "html") &&
				    !is_attachment(child))
					pick = child;
			}
			for (i = 0; i < n && pick == NULL; i++) {
				child = g_mime_multipart_get_part(mp, i);
				if (GMIME_IS_MULTIPART(child))
					pick = child;
			}
			walk(pick, c, depth + 1);
			return;
		}
		for (i = 0; i < n; i++)
			walk(g_mime_multipart_get_part(mp, i), c, depth + 1);
		return;
	}
	if (!GMIME_IS_PART(o))
		return;

	att = is_attachment(o);
	name = g_mime_part_get_filename(GMIME_PART(o));
	text = is_type(o, "text", "*");
	if (!att && is_type(o, "text", "plain")) {
		if (c->body.len < BODY_TEXT_MAX)
			add_part(&c->body, GMIME_PART(o), false,
			    BODY_TEXT_MAX - c->body.len);
	} else if (!att && is_type(o, "text", "html")) {
		if (c->body.len < BODY_TEXT_MAX)
			add_part(&c->body, GMIME_PART(o), true,
			    BODY_TEXT_MAX - c->body.len);
	} else if ((text && !is_type(o, "text", "html")) ||
	    name_ends(name, ".txt") || name_ends(name, ".sig")) {
		if (c->nattach < ATTACH_MAX) {
			c->nattach++;
			add_part(&c->attach, GMIME_PART(o), false,
			    ATTACH_TEXT_MAX);
		}
	}
}

/* --- headers ---------------------------------------------------------- */

/* The first mailbox of an address list (groups searched), or NULL. */
static InternetAddressMailbox *
first_mailbox(InternetAddressList *list, int depth)
{
	InternetAddress		*a;
	InternetAddressMailbox	*mb;
	int			 i, n;

	if (list == NULL || depth > 4)
		return NULL;
	n = internet_address_list_length(list);
	for (i = 0; i < n; i++) {
		a = internet_address_list_get_address(list, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(a))
			return INTERNET_ADDRESS_MAILBOX(a);
		if (INTERNET_ADDRESS_IS_GROUP(a) && (mb = first_mailbox(
		    internet_address_group_get_members(
		    INTERNET_ADDRESS_GROUP(a)), depth + 1)) != NULL)
			return mb;
	}
	return NULL;
}

/* True if a header's value starts with one of the words (any case). */
static bool
header_is(GMimeObject *o, const char *name, const char *const *words)
{
	const char *v = g_mime_object_get_header(o, name);

	if (v == NULL)
		return false;
	while (*v == ' ' || *v == '\t')
		v++;
	for (; *words != NULL; words++)
		if (strncasecmp(v, *words, strlen(*words)) == 0)
			return true;
	return false;
}

/* True for a mail sent by a program: bounces, vacation replies, lists. */
static bool
is_automatic(GMimeMessage *msg, const char *from)
{
	GMimeObject	*o = GMIME_OBJECT(msg);
	const char	*v, *at;
	size_t		 n;

	v = g_mime_object_get_header(o, "Auto-Submitted");
	if (v != NULL && !header_is(o, "Auto-Submitted",
	    (const char *const[]){ "no", NULL }))
		return true;
	if (header_is(o, "Precedence",
	    (const char *const[]){ "bulk", "junk", "list", "auto_reply",
	    NULL }))
		return true;
	if (g_mime_object_get_header(o, "List-Id") != NULL ||
	    g_mime_object_get_header(o, "X-Autoreply") != NULL ||
	    g_mime_object_get_header(o, "X-Autorespond") != NULL)
		return true;
	if (header_is(o, "Return-Path", (const char *const[]){ "<>", NULL }))
		return true;
	if (g_mime_message_get_mime_part(msg) != NULL &&
	    is_type(g_mime_message_get_mime_part(msg), "multipart", "report"))
		return true;
	at = strchr(from, '@');
	n = at != NULL ? (size_t)(at - from) : strlen(from);
	return (n == 13 && strncasecmp(from, "mailer-daemon", n) == 0) ||
	    (n == 10 && strncasecmp(from, "postmaster", n) == 0);
}

/* Fill the sender, ids and subject of m from the message headers. */
static int
read_headers(GMimeMessage *msg, struct mail_message *m)
{
	GMimeObject		*o = GMIME_OBJECT(msg);
	InternetAddressMailbox	*mb;
	GMimeReferences		*refs;
	const char		*v, *name;
	int			 i, n;

	mb = first_mailbox(g_mime_message_get_from(msg), 0);
	name = mb != NULL ?
	    internet_address_get_name(INTERNET_ADDRESS(mb)) : NULL;
	if ((m->from = dup_or_empty(mb != NULL ?
	    internet_address_mailbox_get_addr(mb) : NULL)) == NULL ||
	    (m->from_name = dup_or_empty(name)) == NULL)
		return -1;
	mb = first_mailbox(g_mime_message_get_reply_to(msg), 0);
	if ((m->reply_to = dup_or_empty(mb != NULL ?
	    internet_address_mailbox_get_addr(mb) : NULL)) == NULL ||
	    (m->message_id = dup_or_empty(
	    g_mime_message_get_message_id(msg))) == NULL ||
	    (m->subject = dup_or_empty(
	    g_mime_message_get_subject(msg))) == NULL)
		return -1;

	/* In-Reply-To: its first id. */
	v = g_mime_object_get_header(o, "In-Reply-To");
	refs = v != NULL ? g_mime_references_parse(NULL, v) : NULL;
	m->in_reply_to = dup_or_empty(refs != NULL &&
	    g_mime_references_length(refs) > 0 ?
	    g_mime_references_get_message_id(refs, 0) : NULL);
	if (refs != NULL)
		g_mime_references_free(refs);
	if (m->in_reply_to == NULL)
		return -1;

	/* References, in order. */
	v = g_mime_object_get_header(o, "References");
	refs = v != NULL ? g_mime_references_parse(NULL, v) : NULL;
	n = refs != NULL ? g_mime_references_length(refs) : 0;
	if (n > 0 && (m->references = calloc((size_t)n,
	    sizeof *m->references)) == NULL) {
		g_mime_references_free(refs);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((m->references[i] = dup_or_empty(
		    g_mime_references_get_message_id(refs, i))) == NULL) {
			g_mime_references_free(refs);
			return -1;
		}
		m->nreferences++;
	}
	if (refs != NULL)
		g_mime_references_free(refs);

	m->automatic = is_automatic(msg, m->from);
	return 0;
}

/* --- the entry points ------------------------------------------------- */

/* Parse a raw mail and find its statement. */
int
mail_parse(const char *raw, size_t len, struct mail_message *m, char *err,
    size_t errsize)
{
	GMimeStream	*stream = NULL;
	GMimeParser	*parser = NULL;
	GMimeMessage	*msg = NULL;
	struct collect	 c = { { 0 }, { 0 }, 0 };
	int		 rc = -1;

	memset(m, 0, sizeof *m);
	if (len > MAIL_PARSE_MAX)
		return fail(err, errsize, "mail too large");
	mail_gmime_init();

	stream = g_mime_stream_mem_new_with_buffer(raw, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, NULL);
	if (msg == NULL) {
		fail(err, errsize, "not a mail: no header");
		goto out;
	}
	if (read_headers(msg, m) != 0) {
		fail(err, errsize, "out of memory");
		goto out;
	}
	walk(g_mime_message_get_mime_part(msg), &c, 0);
	if (c.body.failed || c.attach.failed) {
		fail(err, errsize, "out of memory");
		goto out;
	}
	if (clean_and_search(m, c.body.data != NULL ? c.body.data : "",
	    c.body.len, c.attach.data != NULL ? c.attach.data : "",
	    c.attach.len) != 0) {
		fail(err, errsize, "out of memory");
		goto out;
	}
	if (m->found != MAIL_STATEMENT && mail_reply_token(c.body.data !=
	    NULL ? c.body.data : "", c.body.len, m->token) == 0) {
		mail_reply_action(m->text, m->text_len, m->reply_action);
		mail_reply_message(m->text, m->text_len, m->reply_message);
	}
	rc = 0;
out:
	if (rc != 0)
		mail_message_free(m);
	buf_free(&c.body);
	buf_free(&c.attach);
	if (msg != NULL)
		g_object_unref(msg);
	if (parser != NULL)
		g_object_unref(parser);
	if (stream != NULL)
		g_object_unref(stream);
	return rc;
}

/* Release a parsed mail. */
void
mail_message_free(struct mail_message *m)
{
	size_t i;

	if (m == NULL)
		return;
	free(m->from);
	free(m->from_name);
	free(m->reply_to);
	free(m->message_id);
	free(m->in_reply_to);
	for (i = 0; i < m->nreferences; i++)
		free(m->references[i]);
	free(m->references);
	free(m->subject);
	free(m->text);
	free(m->statement);
	memset(m, 0, sizeof *m);
}

/* The game number in a thread id "game-N[.X]@domain", or 0. */
static int64_t
id_game(const char *id, const char *domain)
{
	const char	*at, *p;
	int64_t		 g = 0;

	if (id == NULL || strncmp(id, "game-", 5) != 0 ||
	    (at = strrchr(id, '@')) == NULL ||
	    strcasecmp(at + 1, domain) != 0)
		return 0;
	for (p = id + 5; p < at && *p >= '0' && *p <= '9'; p++) {
		if (g > (INT64_MAX - 9) / 10)
			return 0;
		g = g * 10 + (*p - '0');
	}
	if (p == id + 5 || (p < at && *p != '.') || id[5] == '0')
		return 0;
	return g;
}

/* The game a reply belongs to, from its thread ids. */
int64_t
mail_thread_game(const struct mail_message *m, const char *domain)
{
	int64_t	g;
	size_t	i;

	if (domain == NULL)
		return 0;
	if ((g = id_game(m->in_reply_to, domain)) != 0)
		return g;
	for (i = m->nreferences; i > 0; i--)
		if ((g = id_game(m->references[i - 1], domain)) != 0)
			return g;
	return 0;
}
