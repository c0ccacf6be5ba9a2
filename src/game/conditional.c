/*
 * game/conditional.c: conditional moves: a tree of lines checked, stored as
 * text, and answered.
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

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "game/conditional.h"

/* Longest move word we read in a line (a move and " e.p."). */
#define WORD_MAX	48

static void	why_set(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/* Write a reason into why (when there is room for one). */
static void
why_set(char *why, size_t size, const char *fmt, ...)
{
	va_list	ap;

	if (why == NULL || size == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
}

/*
 * Take the next move of a line from *pp (up to `end`): a word, or a word
 * and " e.p.". 0 with the move in buf, 1 at the end of the line, -1 when
 * the word is too long.
 */
static int
next_word(const char **pp, const char *end, char *buf, size_t size)
{
	const char	*p = *pp, *q;
	size_t		 n;

	while (p < end && *p == ' ')
		p++;
	if (p == end)
		return 1;
	for (q = p; q < end && *q != ' '; q++)
		;
	/* "exd6 e.p." is one move. */
	if (end - q >= 5 && memcmp(q, " e.p.", 5) == 0 &&
	    (q + 5 == end || q[5] == ' '))
		q += 5;
	n = (size_t)(q - p);
	if (n >= size)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*pp = q;
	return 0;
}

/* Play one line on a copy of `g`, filling its SAN; -1 with a reason. */
static int
line_play(const struct game *g, const char *p, const char *end,
    size_t lineno, enum chess_lang lang, struct game_cond *out, char *why,
    size_t whysize)
{
	struct game		 t;
	struct game_action	 a;
	struct chess_position	 before;
	enum game_refusal	 rc;
	char			 word[WORD_MAX], reason[256];
	size_t			 k = 0, ln = out->nlines;
	bool			 fr = lang == CHESS_LANG_FR;
	int			 w, ret = -1;

	if (game_copy(&t, g) != 0) {
		why_set(why, whysize, fr ? "mémoire épuisée" :
		    "out of memory");
		return -1;
	}
	while ((w = next_word(&p, end, word, sizeof word)) == 0) {
		if (k == GAME_COND_DEPTH_MAX) {
			why_set(why, whysize, fr ? "ligne %zu : plus de %d "
			    "demi-coups" : "line %zu: more than %d half-moves",
			    lineno, GAME_COND_DEPTH_MAX);
			goto out;
		}
		if (!game_ongoing(&t)) {
			why_set(why, whysize, fr ? "ligne %zu : la partie est "
			    "finie après %s, le coup %s ne peut pas suivre" :
			    "line %zu: the game is over after %s, so %s cannot "
			    "follow", lineno, out->san[ln][k - 1], word);
			goto out;
		}
		memset(&a, 0, sizeof a);
		a.kind = GAME_ACT_MOVE;
		a.color = game_turn(&t);
		a.move = word;
		a.lang = lang;
		a.at = t.turn_start;
		before = t.chess.pos;
		if ((rc = game_apply(&t, &a, reason, sizeof reason)) !=
		    GAME_OK) {
			why_set(why, whysize, fr ? "ligne %zu, demi-coup %zu, "
			    "%s (%s) : %s" : "line %zu, half-move %zu, %s "
			    "(%s): %s", lineno, k + 1, word, k % 2 == 0 ?
			    (fr ? "adversaire" : "the opponent's") :
			    (fr ? "vous" : "yours"), reason);
			goto out;
		}
		chess_move_san(&before, t.chess.moves[t.chess.nply - 1],
		    CHESS_LANG_EN, out->san[ln][k], CHESS_SAN_MAX);
		k++;
	}
	if (w < 0) {
		why_set(why, whysize, fr ? "ligne %zu : un mot trop long" :
		    "line %zu: a word too long to be a move", lineno);
		goto out;
	}
	if (k == 0) {
		why_set(why, whysize, fr ? "ligne %zu : vide" :
		    "line %zu is empty", lineno);
		goto out;
	}
	if (k % 2 == 1 && game_ongoing(&t)) {
		why_set(why, whysize, fr ? "ligne %zu : elle finit par le "
		    "coup adverse %s ; ajoutez votre réponse" : "line %zu "
		    "ends with the opponent's move %s: add your answer",
		    lineno, out->san[ln][k - 1]);
		goto out;
	}
	out->len[ln] = k;
	out->nlines++;
	ret = 0;
 out:
	game_free(&t);
	return ret;
}

/* Refuse two lines that answer the same opponent's move differently. */
static int
lines_agree(const struct game_cond *c, enum chess_lang lang, char *why,
    size_t whysize)
{
	char	a[CHESS_SAN_MAX], x[CHESS_SAN_MAX], y[CHESS_SAN_MAX];
	size_t	i, j, d, n;
	bool	fr = lang == CHESS_LANG_FR;

	for (i = 0; i < c->nlines; i++)
		for (j = i + 1; j < c->nlines; j++) {
			n = c->len[i] < c->len[j] ? c->len[i] : c->len[j];
			for (d = 0; d < n; d++)
				if (strcmp(c->san[i][d], c->san[j][d]) != 0)
					break;
			/* They part on the opponent's move (d even), or one
			 * goes on where the other ends: a tree. */
			if (d == n || d % 2 == 0)
				continue;
			chess_san_text_lang(c->san[i][d - 1], lang, a,
			    sizeof a);
			chess_san_text_lang(c->san[i][d], lang, x, sizeof x);
			chess_san_text_lang(c->san[j][d], lang, y, sizeof y);
			why_set(why, whysize, fr ? "les lignes %zu et %zu "
			    "répondent à %s de deux façons (%s, %s) : une "
			    "seule réponse par coup" : "lines %zu and %zu "
			    "answer %s in two ways (%s, %s): give one answer "
			    "to each move", i + 1, j + 1, a, x, y);
			return -1;
		}
	return 0;
}

/* Check a player's lines against the game and keep them as SAN. */
int
game_cond_check(const struct game *g, int color, const char *lines,
    enum chess_lang lang, struct game_cond *out, char *why, size_t whysize)
{
	const char	*p = lines, *end;
	bool		 fr = lang == CHESS_LANG_FR;

	memset(out, 0, sizeof *out);
	if (!game_ongoing(g)) {
		why_set(why, whysize, fr ? "la partie est finie" :
		    "the game is over");
		return -1;
	}
	if (game_turn(g) == color) {
		why_set(why, whysize, fr ? "c'est à vous de jouer : jouez "
		    "votre coup ; des coups conditionnels attendent le coup "
		    "de l'adversaire" : "it is your move: play it; "
		    "conditional moves wait for the opponent's move");
		return -1;
	}
	for (;;) {
		if ((end = strchr(p, ';')) == NULL)
			end = p + strlen(p);
		if (out->nlines == GAME_COND_LINES_MAX) {
			why_set(why, whysize, fr ? "plus de %d lignes" :
			    "more than %d lines", GAME_COND_LINES_MAX);
			return -1;
		}
		if (line_play(g, p, end, out->nlines + 1, lang, out, why,
		    whysize) != 0)
			return -1;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return lines_agree(out, lang, why, whysize);
}

/* The word for a conditional's status in `lang`. */
const char *
game_cond_status_lang(const char *status, enum chess_lang lang)
{
	static const char *const words[][2] = {
		{ "active", "actifs" },
		{ "replaced", "remplacés" },
		{ "cancelled", "annulés" },
		{ "ended", "terminés" },
	};
	size_t	i;

	if (lang != CHESS_LANG_FR)
		return status;
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(status, words[i][0]) == 0)
			return words[i][1];
	return status;
}

/*
 * Write a conditional's stored reason (English, as service/conditional.c
 * words it: the record keeps one text) in `lang`, its moves in `lang`'s
 * letters; a reason it does not know is copied as it is. Returns the full
 * length, as snprintf does.
 */
size_t
game_cond_reason_lang(const char *reason, enum chess_lang lang, char *buf,
    size_t size)
{
	/* The English words around the move (%s), and the French ones. */
	static const char *const words[][4] = {
		{ "replaced by a new conditional", "",
		  "remplacés par de nouveaux coups conditionnels", "" },
		{ "cancelled by the player", "", "annulés par le joueur", "" },
		{ "the game ended", "", "la partie est finie", "" },
		{ "every move of it was played", "",
		  "tous leurs coups ont été joués", "" },
		{ "the opponent offers a draw with the move: the answer is "
		  "yours to choose", "", "l'adversaire propose la nulle avec "
		  "son coup : la réponse vous revient", "" },
		{ "no line of it goes on after your move ", "",
		  "aucune de leurs lignes ne continue après votre coup ", "" },
		{ "the opponent played ", ", which none of its lines has",
		  "l'adversaire a joué ", ", qu'aucune de leurs lignes ne "
		  "prévoit" },
		{ "its move ", " could not be played: ",
		  "leur coup ", " n'a pas pu être joué : " },
	};
	char		 san[CHESS_SAN_MAX], fsan[CHESS_SAN_MAX];
	const char	*p, *q;
	size_t		 i, n, pre, mid;

	if (lang != CHESS_LANG_FR)
		return (size_t)snprintf(buf, size, "%s", reason);
	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		pre = strlen(words[i][0]);
		if (strncmp(reason, words[i][0], pre) != 0)
			continue;
		p = reason + pre;
		if (words[i][0][pre - 1] != ' ') {
			/* No move in it: the whole text. */
			if (*p != '\0')
				continue;
			return (size_t)snprintf(buf, size, "%s", words[i][2]);
		}
		/* The move, up to the words after it (or the end). */
		mid = strlen(words[i][1]);
		q = mid > 0 ? strstr(p, words[i][1]) : p + strlen(p);
		if (q == NULL || (mid > 0 && words[i][1][mid - 1] != ' ' &&
		    q[mid] != '\0') || (n = (size_t)(q - p)) == 0 ||
		    n >= sizeof san)
			continue;
		memcpy(san, p, n);
		san[n] = '\0';
		chess_san_text_lang(san, lang, fsan, sizeof fsan);
		/* After "could not be played: ", the why, as it was. */
		return (size_t)snprintf(buf, size, "%s%s%s%s", words[i][2],
		    fsan, words[i][3], mid > 0 ? q + mid : "");
	}
	return (size_t)snprintf(buf, size, "%s", reason);
}

/* Write the lines as SAN text. */
size_t
game_cond_format(const struct game_cond *c, char *buf, size_t size)
{
	size_t	i, k, o = 0;
	int	n;

	if (size > 0)
		buf[0] = '\0';
	for (i = 0; i < c->nlines; i++)
		for (k = 0; k < c->len[i]; k++) {
			n = snprintf(buf + (o < size ? o : size),
			    o < size ? size - o : 0, "%s%s%s",
			    k == 0 && i > 0 ? " " : k > 0 ? " " : "",
			    c->san[i][k], k + 1 == c->len[i] &&
			    i + 1 < c->nlines ? ";" : "");
			if (n < 0)
				return size;
			o += (size_t)n;
		}
	return o;
}

/* Read lines written by game_cond_format(). */
int
game_cond_read(struct game_cond *c, const char *text)
{
	const char	*p = text, *q;
	size_t		 n;

	memset(c, 0, sizeof *c);
	while (*p != '\0') {
		for (q = p; *q != '\0' && *q != ' ' && *q != ';'; q++)
			;
		n = (size_t)(q - p);
		if (n == 0 || n >= CHESS_SAN_MAX ||
		    c->nlines == GAME_COND_LINES_MAX ||
		    c->len[c->nlines] == GAME_COND_DEPTH_MAX)
			return -1;
		memcpy(c->san[c->nlines][c->len[c->nlines]], p, n);
		c->san[c->nlines][c->len[c->nlines]++][n] = '\0';
		if (*q == ';') {
			c->nlines++;
			q++;
		}
		while (*q == ' ')
			q++;
		p = q;
	}
	if (c->nlines < GAME_COND_LINES_MAX && c->len[c->nlines] > 0)
		c->nlines++;
	return c->nlines > 0 ? 0 : -1;
}

/* True when line `i` follows the `n` moves played. */
static bool
line_follows(const struct game_cond *c, size_t i,
    const char (*played)[CHESS_SAN_MAX], size_t n)
{
	size_t	k;

	if (c->len[i] < n)
		return false;
	for (k = 0; k < n; k++)
		if (strcmp(c->san[i][k], played[k]) != 0)
			return false;
	return true;
}

/* Find the answer to the moves played since the conditional began. */
const char *
game_cond_reply(const struct game_cond *c,
    const char (*played)[CHESS_SAN_MAX], size_t n)
{
	size_t	i;

	if (n % 2 == 0)
		return NULL;
	for (i = 0; i < c->nlines; i++)
		if (c->len[i] > n && line_follows(c, i, played, n))
			return c->san[i][n];
	return NULL;
}

/* Count the lines that still go on after the moves played. */
size_t
game_cond_left(const struct game_cond *c,
    const char (*played)[CHESS_SAN_MAX], size_t n)
{
	size_t	i, left = 0;

	for (i = 0; i < c->nlines; i++)
		if (c->len[i] > n && line_follows(c, i, played, n))
			left++;
	return left;
}
