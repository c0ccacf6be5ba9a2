/*
 * event/crosstable.c: an event's crosstable as aligned text.
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

#include <stdio.h>
#include <string.h>

#include "event/crosstable.h"

/* Give the short name of a tie-break. */
const char *
crosstable_tiebreak_label(enum standings_tiebreak tb)
{
	switch (tb) {
	case STANDINGS_TB_DIRECT:
		return "DE";
	case STANDINGS_TB_WINS:
		return "Wins";
	case STANDINGS_TB_SB:
		return "SB";
	case STANDINGS_TB_KOYA:
		return "Koya";
	}
	return "?";
}

/* The words of the table, by language. */
struct labels {
	const char	*number, *player, *points, *games, *wins, *place;
	const char	*withdrawn;	/* after a name */
	const char	*key;		/* the line under the table */
};

static const struct labels labels_en = {
	"No", "Player", "Points", "Games", "Wins", "Place", " (w)",
	"(w) withdrew; + and - are forfeits\n",
};

static const struct labels labels_fr = {
	"N°", "Joueur", "Points", "Parties", "Gains", "Place", " (r)",
	"(r) retiré ; + et - sont des forfaits\n",
};

/* Write a value in units of 1/scale as a short decimal. */
void
crosstable_value(unsigned long v, unsigned scale, char *buf, size_t size)
{
	unsigned long	whole, frac;
	size_t		len;

	if (scale == 0)
		scale = 1;
	whole = v / scale;
	frac = (v % scale) * 100 / scale;
	if (frac == 0) {
		snprintf(buf, size, "%lu", whole);
		return;
	}
	snprintf(buf, size, "%lu.%02lu", whole, frac);
	len = strlen(buf);
	if (len > 0 && buf[len - 1] == '0')
		buf[len - 1] = '\0';
}

/* Write points in half points. */
void
crosstable_points(unsigned points2, bool ascii, char *buf, size_t size)
{
	if (ascii || points2 % 2 == 0)
		crosstable_value(points2, 2, buf, size);
	else if (points2 == 1)
		snprintf(buf, size, "½");
	else
		snprintf(buf, size, "%u½", points2 / 2);
}

/* Count the display columns of UTF-8 text (one per character). */
static size_t
width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Append `s` padded with spaces to `w` columns, on the left when `right`. */
static void
cell(struct buf *out, const char *s, size_t w, bool right)
{
	size_t	n = width(s);

	if (right)
		for (; n < w; n++)
			buf_adds(out, " ");
	buf_adds(out, s);
	if (!right)
		for (; n < w; n++)
			buf_adds(out, " ");
}

/* Write a player's name with the mark of a withdrawal. */
static void
player_name(const struct labels *lb, const struct crosstable_player *p,
    char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", p->name, p->withdrawn ? lb->withdrawn :
	    "");
}

/* Give a tie-break's column head. */
static const char *
tiebreak_head(const struct labels *lb, enum standings_tiebreak tb)
{
	return tb == STANDINGS_TB_WINS ? lb->wins :
	    crosstable_tiebreak_label(tb);
}

/* Append the crosstable. */
void
crosstable_text(const struct crosstable *ct, struct buf *out)
{
	const struct standings_row	*row;
	const enum standings_mark	*slot;
	const struct labels		*lb = ct->lang == CHESS_LANG_FR ?
					    &labels_fr : &labels_en;
	char				 name[64], num[16], text[64];
	size_t				 namew = width(lb->player), resw, i;
	size_t				 ptsw = width(lb->points) > 6 ?
					    width(lb->points) : 6;
	size_t				 gamesw = width(lb->games) > 5 ?
					    width(lb->games) : 5;
	unsigned			 depth = ct->depth > 0 ? ct->depth : 1;
	unsigned			 r, c, k, p;
	bool				 withdrawn = false;

	/* Widths: the longest name, a result cell of `depth` marks (at
	 * least the width of the largest start number). */
	for (p = 0; p < ct->nplayers; p++) {
		player_name(lb, &ct->players[p], name, sizeof name);
		if (width(name) > namew)
			namew = width(name);
		withdrawn = withdrawn || ct->players[p].withdrawn;
	}
	snprintf(num, sizeof num, "%u", ct->nplayers);
	resw = depth > strlen(num) ? depth : strlen(num);

	/* The header. */
	cell(out, lb->number, 3, true);
	buf_adds(out, "  ");
	cell(out, lb->player, namew, false);
	for (c = 0; c < ct->nplayers; c++) {
		snprintf(num, sizeof num, "%u", c + 1);
		buf_adds(out, "  ");
		cell(out, num, resw, false);
	}
	buf_adds(out, "  ");
	cell(out, lb->points, ptsw, true);
	buf_adds(out, "  ");
	cell(out, lb->games, gamesw, true);
	for (i = 0; i < ct->rules->ntiebreaks; i++) {
		buf_adds(out, "  ");
		cell(out, tiebreak_head(lb, ct->rules->tiebreaks[i]), 5, true);
	}
	buf_adds(out, "  ");
	cell(out, lb->place, 5, true);
	buf_adds(out, "\n");

	/* A row per player, in start-number order. */
	for (r = 0; r < ct->nplayers; r++) {
		row = NULL;
		for (i = 0; i < ct->nplayers; i++)
			if (ct->rows[i].player == r)
				row = &ct->rows[i];
		snprintf(num, sizeof num, "%u", r + 1);
		cell(out, num, 3, true);
		buf_adds(out, "  ");
		player_name(lb, &ct->players[r], name, sizeof name);
		cell(out, name, namew, false);
		for (c = 0; c < ct->nplayers; c++) {
			struct buf	marks = { 0 };

			buf_adds(&marks, "");
			for (k = 0; k < depth; k++) {
				if (r == c) {
					buf_adds(&marks, "x");
					continue;
				}
				if (ct->depth == 0)
					continue;
				slot = &ct->grid[((size_t)r * ct->nplayers +
				    c) * ct->depth + k];
				buf_adds(&marks, standings_mark_text(*slot,
				    ct->ascii));
			}
			buf_adds(out, "  ");
			cell(out, marks.failed || marks.data == NULL ? "?" : marks.data, resw,
			    false);
			buf_free(&marks);
		}
		if (row == NULL) {
			buf_adds(out, "\n");
			continue;
		}
		crosstable_points(row->points2, ct->ascii, text, sizeof text);
		buf_adds(out, "  ");
		cell(out, text, ptsw, true);
		snprintf(text, sizeof text, "%u", row->played);
		buf_adds(out, "  ");
		cell(out, text, gamesw, true);
		for (i = 0; i < ct->rules->ntiebreaks; i++) {
			crosstable_value(row->tb[i], standings_tiebreak_scale(
			    ct->rules->tiebreaks[i]), text, sizeof text);
			buf_adds(out, "  ");
			cell(out, text, 5, true);
		}
		if (row->place_last > row->place)
			snprintf(text, sizeof text, "%u-%u", row->place,
			    row->place_last);
		else
			snprintf(text, sizeof text, "%u", row->place);
		buf_adds(out, "  ");
		cell(out, text, 5, true);
		buf_adds(out, "\n");
	}
	if (withdrawn)
		buf_adds(out, lb->key);
}
