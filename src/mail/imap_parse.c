/*
 * mail/imap_parse.c: IMAP answers read from bytes: framing, FETCH items.
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
 * See imap_parse.h. The grammar is RFC 3501's (section 9), read with a
 * cursor that never passes its end: every function below checks the
 * cursor before it reads a byte, and a literal's size before it skips it.
 */

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/imap_parse.h"

/* Deepest nesting of parenthesised lists (BODYSTRUCTURE needs a few). */
#define IMAP_PARSE_MAX_DEPTH	32
/* Digits of a literal's size: more is not a size anyone sends. */
#define IMAP_PARSE_MAX_DIGITS	19

/* Bytes still to read. */
struct cur {
	const char	*p;
	const char	*end;
};

/*
 * Tell whether the line s (n bytes, without its line end) ends with a
 * literal's announcement {N} or {N+}: 1 with *size set, 0 when it does not,
 * -1 when the size is too long to be one.
 */
static int
literal_at_end(const char *s, size_t n, uint64_t *size)
{
	size_t		i, d;
	uint64_t	v = 0;

	if (n < 3 || s[n - 1] != '}')
		return 0;
	i = n - 1;
	if (s[i - 1] == '+')
		i--;
	for (d = i; d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'; d--)
		;
	if (d == i || d == 0 || s[d - 1] != '{')
		return 0;
	if (i - d > IMAP_PARSE_MAX_DIGITS)
		return -1;
	for (; d < i; d++)
		v = v * 10 + (uint64_t)(s[d] - '0');
	*size = v;
	return 1;
}

/* Find the end of the first whole response in buf. */
enum imap_parse_status
imap_parse_frame(const char *buf, size_t len, size_t max_literal,
    size_t *resp_len)
{
	const char	*nl;
	size_t		 pos = 0, start, eol, end;
	uint64_t	 lit;
	int		 r;

	for (;;) {
		start = pos;
		nl = pos < len ? memchr(buf + pos, '\n', len - pos) : NULL;
		if (nl == NULL)
			return len - start > IMAP_PARSE_MAX_LINE ?
			    IMAP_PARSE_EBAD : IMAP_PARSE_MORE;
		eol = (size_t)(nl - buf);
		if (eol - start > IMAP_PARSE_MAX_LINE)
			return IMAP_PARSE_EBAD;
		end = eol;
		if (end > start && buf[end - 1] == '\r')
			end--;
		r = literal_at_end(buf + start, end - start, &lit);
		if (r < 0 || (r == 1 && lit > max_literal))
			return IMAP_PARSE_EBAD;
		if (r == 0) {
			*resp_len = eol + 1;
			return IMAP_PARSE_OK;
		}
		/* The literal's bytes, then the rest of the response. */
		pos = eol + 1;
		if (len - pos < lit)
			return IMAP_PARSE_MORE;
		pos += (size_t)lit;
	}
}

/* Tell whether the next byte is ch. */
static bool
at(const struct cur *c, char ch)
{
	return c->p < c->end && *c->p == ch;
}

/* Take the byte ch; -1 when it is not next. */
static int
eat(struct cur *c, char ch)
{
	if (!at(c, ch))
		return -1;
	c->p++;
	return 0;
}

/* Take the word w (any case); -1 when it is not next. */
static int
eat_word(struct cur *c, const char *w)
{
	size_t	n = strlen(w);

	if ((size_t)(c->end - c->p) < n || strncasecmp(c->p, w, n) != 0)
		return -1;
	c->p += n;
	return 0;
}

/* Read a decimal number of at most max; -1 when there is none or larger. */
static int
number(struct cur *c, uint64_t max, uint64_t *v)
{
	uint64_t	x = 0;
	int		d;

	if (c->p >= c->end || *c->p < '0' || *c->p > '9')
		return -1;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		d = *c->p - '0';
		if (x > (max - (uint64_t)d) / 10)
			return -1;
		x = x * 10 + (uint64_t)d;
		c->p++;
	}
	*v = x;
	return 0;
}

/* Tell whether ch may be in an atom (RFC 3501 ATOM-CHAR, and ']'). */
static bool
atom_char(char ch)
{
	unsigned char	u = (unsigned char)ch;

	return u > 0x20 && u < 0x7f && ch != '(' && ch != ')' && ch != '{' &&
	    ch != '"' && ch != '%' && ch != '*' && ch != '\\';
}

/* Take the line end (CRLF, or a bare LF) that must end the response. */
static int
eat_end(struct cur *c)
{
	if (at(c, '\r'))
		c->p++;
	if (eat(c, '\n') != 0)
		return -1;
	return c->p == c->end ? 0 : -1;
}

/*
 * Read a literal {N}CRLF and its N bytes; *s and *n tell where they are.
 * -1 when it is not one or its bytes are not all there.
 */
static int
literal(struct cur *c, const char **s, size_t *n)
{
	uint64_t	size;

	if (at(c, '~'))
		c->p++;
	if (eat(c, '{') != 0 || number(c, UINT64_MAX, &size) != 0)
		return -1;
	if (at(c, '+'))
		c->p++;
	if (eat(c, '}') != 0)
		return -1;
	if (at(c, '\r'))
		c->p++;
	if (eat(c, '\n') != 0 || size > (uint64_t)(c->end - c->p))
		return -1;
	*s = c->p;
	*n = (size_t)size;
	c->p += (size_t)size;
	return 0;
}

/*
 * Read a quoted string; *s and *n tell where its inside is, *escaped
 * whether it holds a backslash escape (then it is not the bytes as
 * they are). -1 when it does not end on its line.
 */
static int
quoted(struct cur *c, const char **s, size_t *n, bool *escaped)
{
	const char	*start;

	*escaped = false;
	if (eat(c, '"') != 0)
		return -1;
	start = c->p;
	for (;;) {
		if (c->p >= c->end || *c->p == '\r' || *c->p == '\n')
			return -1;
		if (*c->p == '"')
			break;
		if (*c->p == '\\') {
			*escaped = true;
			c->p++;
			if (c->p >= c->end || (*c->p != '\\' && *c->p != '"'))
				return -1;
		}
		c->p++;
	}
	*s = start;
	*n = (size_t)(c->p - start);
	c->p++;
	return 0;
}

/* Read one value of any kind (atom, number, NIL, string, list); skip it. */
static int
skip_value(struct cur *c, int depth)
{
	const char	*s;
	size_t		 n;
	bool		 esc;

	if (depth > IMAP_PARSE_MAX_DEPTH || c->p >= c->end)
		return -1;
	switch (*c->p) {
	case '"':
		return quoted(c, &s, &n, &esc);
	case '{':
	case '~':
		return literal(c, &s, &n);
	case '(':
		c->p++;
		if (at(c, ')')) {
			c->p++;
			return 0;
		}
		for (;;) {
			if (skip_value(c, depth + 1) != 0)
				return -1;
			if (at(c, ')')) {
				c->p++;
				return 0;
			}
			if (eat(c, ' ') != 0)
				return -1;
		}
	default:
		/* An atom (NIL and numbers are atoms here); \Seen flags too. */
		if (*c->p == '\\')
			c->p++;
		s = c->p;
		while (c->p < c->end && (atom_char(*c->p) || *c->p == '*'))
			c->p++;
		return c->p == s ? -1 : 0;
	}
}

/*
 * Read an item's name: an atom, then a section [...] and a partial <n>
 * when there are. *whole tells whether it names the whole message
 * (BODY[], BODY.PEEK[], RFC822); *origin is the partial's start.
 */
static int
item_name(struct cur *c, char *name, size_t size, bool *whole,
    uint32_t *origin)
{
	const char	*s = c->p, *sec = NULL;
	size_t		 n, seclen = 0;
	uint64_t	 o;

	*whole = false;
	*origin = 0;
	while (c->p < c->end && atom_char(*c->p) && *c->p != '[' &&
	    *c->p != ']')
		c->p++;
	n = (size_t)(c->p - s);
	if (n == 0)
		return -1;
	snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), s);
	if (at(c, '[')) {
		c->p++;
		sec = c->p;
		while (c->p < c->end && *c->p != ']' && *c->p != '\r' &&
		    *c->p != '\n')
			c->p++;
		if (eat(c, ']') != 0)
			return -1;
		seclen = (size_t)(c->p - sec - 1);
		if (at(c, '<')) {
			c->p++;
			if (number(c, UINT32_MAX, &o) != 0 ||
			    eat(c, '>') != 0)
				return -1;
			*origin = (uint32_t)o;
		}
		*whole = seclen == 0 && (strcasecmp(name, "BODY") == 0 ||
		    strcasecmp(name, "BODY.PEEK") == 0 ||
		    strcasecmp(name, "BINARY") == 0);
	} else
		*whole = strcasecmp(name, "RFC822") == 0;
	return 0;
}

/* Read the value of a whole message's item (an nstring) into f. */
static int
body_value(struct cur *c, struct imap_fetch *f)
{
	const char	*s;
	size_t		 n;
	bool		 esc;

	f->has_body = true;
	f->body = NULL;
	f->body_len = 0;
	if (at(c, '"')) {
		/* An escaped quoted string is not the message's bytes. */
		if (quoted(c, &s, &n, &esc) != 0 || esc)
			return -1;
	} else if (at(c, '{') || at(c, '~')) {
		if (literal(c, &s, &n) != 0)
			return -1;
	} else {
		if (eat_word(c, "NIL") != 0)
			return -1;
		return 0;
	}
	f->body = s;
	f->body_len = n;
	return 0;
}

/* Read one untagged FETCH response. */
int
imap_parse_fetch(const char *resp, size_t resp_len, struct imap_fetch *f)
{
	struct cur	 c = { resp, resp + resp_len };
	char		 name[32];
	uint64_t	 v;
	uint32_t	 origin;
	bool		 whole;

	memset(f, 0, sizeof *f);
	if (eat_word(&c, "* ") != 0 || number(&c, UINT32_MAX, &v) != 0 ||
	    eat_word(&c, " FETCH ") != 0)
		return 1;
	f->seq = (uint32_t)v;
	if (eat(&c, '(') != 0)
		return -1;
	if (at(&c, ')'))
		goto close;
	for (;;) {
		if (item_name(&c, name, sizeof name, &whole, &origin) != 0 ||
		    eat(&c, ' ') != 0)
			return -1;
		if (whole) {
			if (body_value(&c, f) != 0)
				return -1;
			f->body_origin = origin;
		} else if (strcasecmp(name, "UID") == 0) {
			if (number(&c, UINT32_MAX, &v) != 0 || v == 0)
				return -1;
			f->uid = (uint32_t)v;
		} else if (strcasecmp(name, "RFC822.SIZE") == 0) {
			if (number(&c, INT64_MAX, &v) != 0)
				return -1;
			f->size = v;
			f->has_size = true;
		} else if (skip_value(&c, 0) != 0)
			return -1;
		if (at(&c, ')'))
			break;
		if (eat(&c, ' ') != 0)
			return -1;
	}
close:
	c.p++;
	return eat_end(&c) == 0 ? 0 : -1;
}

/* Read a tagged status answer. */
int
imap_parse_tagged(const char *resp, size_t resp_len, const char *tag,
    bool *ok)
{
	struct cur	c = { resp, resp + resp_len };

	*ok = false;
	if (eat_word(&c, tag) != 0 || eat(&c, ' ') != 0)
		return 0;
	if (eat_word(&c, "OK") == 0)
		*ok = true;
	else if (eat_word(&c, "NO") != 0 && eat_word(&c, "BAD") != 0)
		return 0;
	return at(&c, ' ') || at(&c, '\r') || at(&c, '\n') ? 1 : 0;
}

/* Read an untagged OK line's response code with a number. */
int
imap_parse_code(const char *resp, size_t resp_len, const char *name,
    uint32_t *v)
{
	struct cur	c = { resp, resp + resp_len };
	uint64_t	x;

	if (eat_word(&c, "* OK [") != 0 || eat_word(&c, name) != 0 ||
	    eat(&c, ' ') != 0 || number(&c, UINT32_MAX, &x) != 0 ||
	    eat(&c, ']') != 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}
