/*
 * letters/mail_reply.c: a reply without a key read: token, action, message.
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

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "letters/mail_reply.h"

/* Shortest token accepted (the server writes 22 characters). */
#define TOKEN_MIN	16

/* Tell whether c is a blank of a line. */
static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Tell whether c is a character of base64url. */
static bool
b64url(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* Take the next line of [*p, end) as [*s, *e); false at the end. */
static bool
next_line(const char **p, const char *end, const char **s, const char **e)
{
	if (*p >= end)
		return false;
	*s = *p;
	if ((*e = memchr(*p, '\n', (size_t)(end - *p))) == NULL)
		*e = end;
	*p = *e < end ? *e + 1 : end;
	return true;
}

/* Skip blanks and quote marks at the start of a line. */
static const char *
unquote(const char *s, const char *e)
{
	while (s < e && (blank(*s) || *s == '>'))
		s++;
	return s;
}

/* Tell whether the line [s, e) starts with the token tag; *after gets
 * the position after it. */
static bool
is_token_line(const char *s, const char *e, const char **after)
{
	size_t	n = sizeof MAIL_TOKEN_TAG - 1;

	if ((size_t)(e - s) < n || strncasecmp(s, MAIL_TOKEN_TAG, n) != 0)
		return false;
	*after = s + n;
	return true;
}

/* Find the first token line. */
int
mail_reply_token(const char *text, size_t len, char token[MAIL_TOKEN_SIZE])
{
	const char	*p = text, *end = text + len, *e, *s, *t;
	size_t		 n;

	token[0] = '\0';
	while (next_line(&p, end, &s, &e)) {
		s = unquote(s, e);
		if (!is_token_line(s, e, &s))
			continue;
		while (s < e && blank(*s))
			s++;
		for (t = s; t < e && b64url(*t); t++)
			;
		n = (size_t)(t - s);
		while (t < e && blank(*t))
			t++;
		if (n < TOKEN_MIN || n >= MAIL_TOKEN_SIZE || t != e)
			continue;
		memcpy(token, s, n);
		token[n] = '\0';
		return 0;
	}
	return -1;
}

/* Tell whether the word [s, e) starts an action that is not a bare move. */
static bool
action_word(const char *s, const char *e)
{
	static const char *const words[] = { "move", "resign", "accept-draw",
	    "decline-draw", "claim-draw", NULL };
	const char	*w = s;
	size_t		 i, n;

	while (w < e && !blank(*w))
		w++;
	n = (size_t)(w - s);
	for (i = 0; words[i] != NULL; i++)
		if (strlen(words[i]) == n && strncasecmp(s, words[i], n) == 0)
			return true;
	return false;
}

/*
 * Find the line of a reply's action as [*s, *e), trimmed; *p is the
 * position after it. False when there is none.
 */
static bool
action_line(const char *text, size_t len, const char **p, const char **s,
    const char **e)
{
	const char	*end = text + len, *after;

	*p = text;
	while (next_line(p, end, s, e)) {
		/* s-nail quotes with a tab: such lines are the mail quoted. */
		if (*s < *e && **s == '\t')
			continue;
		while (*s < *e && blank(**s))
			(*s)++;
		while (*e > *s && blank((*e)[-1]))
			(*e)--;
		/* Blank lines, token lines, and the quote's attribution
		 * ("alice <a@b.c> wrote:") are not the action. */
		if (*s == *e || is_token_line(*s, *e, &after) || (*e)[-1] == ':')
			continue;
		return true;
	}
	return false;
}

/* Read a reply's action from its first line. */
int
mail_reply_action(const char *text, size_t len,
    char action[MAIL_REPLY_ACTION_SIZE])
{
	const char	*p, *e, *s;
	int		 n;

	action[0] = '\0';
	if (!action_line(text, len, &p, &s, &e))
		return -1;
	n = snprintf(action, MAIL_REPLY_ACTION_SIZE, "%s%.*s",
	    action_word(s, e) ? "" : "move ", (int)(e - s), s);
	if (n < 0 || n >= MAIL_REPLY_ACTION_SIZE) {
		action[0] = '\0';
		return -1;
	}
	return 0;
}

/* Read the message of a reply: the lines below its action. */
int
mail_reply_message(const char *text, size_t len,
    char message[MAIL_REPLY_MESSAGE_SIZE])
{
	const char	*p, *e, *s, *end = text + len, *after, *c;
	size_t		 n = 0;
	int		 rc = 0;

	message[0] = '\0';
	if (!action_line(text, len, &p, &s, &e))
		return 0;
	while (next_line(&p, end, &s, &e)) {
		if (s < e && *s == '\t')
			break;
		while (s < e && blank(*s))
			s++;
		while (e > s && blank(e[-1]))
			e--;
		if (s == e)
			continue;
		if (is_token_line(s, e, &after) || e[-1] == ':')
			break;
		/* One line of text: lines joined by a space, blanks and
		 * controls inside a line a space too. */
		if (n > 0 && n + 1 < MAIL_REPLY_MESSAGE_SIZE)
			message[n++] = ' ';
		for (c = s; c < e; c++) {
			if (n + 1 >= MAIL_REPLY_MESSAGE_SIZE) {
				rc = -1;
				break;
			}
			message[n++] = (unsigned char)*c < 0x20 ? ' ' : *c;
		}
		if (rc != 0)
			break;
	}
	message[n] = '\0';
	return rc;
}
