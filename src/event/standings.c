/*
 * event/standings.c: standings, tie-breaks and crosstables of an event.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <stdint.h>
#include <string.h>

#include "event/standings.h"

/* Describe an error for a person. */
const char *
standings_strerror(enum standings_error err)
{
	switch (err) {
	case STANDINGS_OK:
		return "no error";
	case STANDINGS_EPLAYERS:
		return "standings need 1 to 1000 players";
	case STANDINGS_EPLAYER:
		return "a game names a player who is not in the event";
	case STANDINGS_ESELF:
		return "a game has the same player with white and black";
	case STANDINGS_ERESULT:
		return "a game has an unknown result";
	case STANDINGS_ETIEBREAK:
		return "unknown or repeated tie-break, or more than 4";
	case STANDINGS_EDEPTH:
		return "two players have more games than the crosstable has room for";
	case STANDINGS_ESPACE:
		return "the crosstable does not fit in the space given";
	}
	return "unknown standings error";
}

/* Give the units per point of a tie-break's values. */
unsigned
standings_tiebreak_scale(enum standings_tiebreak tb)
{
	switch (tb) {
	case STANDINGS_TB_DIRECT:
	case STANDINGS_TB_KOYA:
		return 2;
	case STANDINGS_TB_WINS:
		return 1;
	case STANDINGS_TB_SB:
		return 4;
	}
	return 0;
}

/* Check the players and games, naming the first bad game. */
static enum standings_error
standings_check(unsigned nplayers, const struct standings_game *games,
    size_t ngames, size_t *errgame)
{
	size_t	i;

	if (nplayers < 1 || nplayers > STANDINGS_MAX_PLAYERS)
		return STANDINGS_EPLAYERS;
	for (i = 0; i < ngames; i++) {
		if (errgame != NULL)
			*errgame = i;
		if (games[i].white >= nplayers || games[i].black >= nplayers)
			return STANDINGS_EPLAYER;
		if (games[i].white == games[i].black)
			return STANDINGS_ESELF;
		switch (games[i].result) {
		case STANDINGS_UNFINISHED:
		case STANDINGS_WHITE_WINS:
		case STANDINGS_BLACK_WINS:
		case STANDINGS_DRAW:
		case STANDINGS_ANNULLED:
		case STANDINGS_WHITE_WITHDREW:
		case STANDINGS_BLACK_WITHDREW:
			break;
		default:
			return STANDINGS_ERESULT;
		}
	}
	if (errgame != NULL)
		*errgame = 0;
	return STANDINGS_OK;
}

/* Check the tie-breaks of the rules: known, at most once each. */
static enum standings_error
standings_rules_check(const struct standings_rules *rules)
{
	size_t	i, j;

	if (rules->ntiebreaks > STANDINGS_MAX_TIEBREAKS)
		return STANDINGS_ETIEBREAK;
	for (i = 0; i < rules->ntiebreaks; i++) {
		if (standings_tiebreak_scale(rules->tiebreaks[i]) == 0)
			return STANDINGS_ETIEBREAK;
		for (j = 0; j < i; j++)
			if (rules->tiebreaks[j] == rules->tiebreaks[i])
				return STANDINGS_ETIEBREAK;
	}
	return STANDINGS_OK;
}

/*
 * Give the half points a counted game gives white and black; false for a game
 * that counts nowhere (unfinished, annulled).
 */
static bool
standings_score(enum standings_result r, unsigned *w2, unsigned *b2)
{
	switch (r) {
	case STANDINGS_WHITE_WINS:
	case STANDINGS_BLACK_WITHDREW:
		*w2 = 2;
		*b2 = 0;
		return true;
	case STANDINGS_BLACK_WINS:
	case STANDINGS_WHITE_WITHDREW:
		*w2 = 0;
		*b2 = 2;
		return true;
	case STANDINGS_DRAW:
		*w2 = *b2 = 1;
		return true;
	default:
		return false;
	}
}

/* Add one game to the counts of its player's row, from that side. */
static void
standings_count(struct standings_row *row, enum standings_result r,
    bool white)
{
	switch (r) {
	case STANDINGS_UNFINISHED:
		row->unfinished++;
		return;
	case STANDINGS_ANNULLED:
		return;
	case STANDINGS_DRAW:
		row->played++;
		row->draws++;
		row->points2 += 1;
		return;
	case STANDINGS_WHITE_WINS:
	case STANDINGS_BLACK_WINS:
		row->played++;
		if ((r == STANDINGS_WHITE_WINS) == white) {
			row->wins++;
			row->points2 += 2;
		} else
			row->losses++;
		return;
	case STANDINGS_WHITE_WITHDREW:
	case STANDINGS_BLACK_WITHDREW:
		if ((r == STANDINGS_BLACK_WITHDREW) == white) {
			row->forfeit_wins++;
			row->points2 += 2;
		} else
			row->forfeit_losses++;
		return;
	}
}

/* Tell whether two rows are level on points and the first `ntb` tie-breaks. */
static bool
standings_level(const struct standings_row *a, const struct standings_row *b,
    size_t ntb)
{
	size_t	i;

	if (a->points2 != b->points2)
		return false;
	for (i = 0; i < ntb; i++)
		if (a->tb[i] != b->tb[i])
			return false;
	return true;
}

/*
 * Sort rows[lo..hi-1] by tie-break t (or by points when t is -1), highest
 * first, keeping the order of equal rows: an insertion sort, as the rows
 * are few and no memory is to be taken.
 */
static void
standings_sort(struct standings_row *rows, size_t lo, size_t hi, int t)
{
	struct standings_row	tmp;
	unsigned long		key;
	size_t			i, j;

	for (i = lo + 1; i < hi; i++) {
		tmp = rows[i];
		key = t < 0 ? tmp.points2 : tmp.tb[t];
		for (j = i; j > lo; j--) {
			if ((t < 0 ? rows[j - 1].points2 : rows[j - 1].tb[t]) >=
			    key)
				break;
			rows[j] = rows[j - 1];
		}
		rows[j] = tmp;
	}
}

/*
 * Direct encounter (tie-break t) for the tied rows[lo..hi-1]; pos[p] is
 * the row of player p. Points among the group when all have met, else 0.
 */
static void
standings_direct(struct standings_row *rows, size_t lo, size_t hi, int t,
    const unsigned *pos, const struct standings_game *games, size_t ngames)
{
	unsigned char	met[STANDINGS_MAX_PLAYERS / 8 + 1];
	unsigned	w2, b2, pw, pb, other, count;
	bool		complete = hi - lo > 1;
	size_t		i, g;

	for (i = lo; i < hi; i++)
		rows[i].tb[t] = 0;
	/* The points of the games inside the group. */
	for (g = 0; g < ngames && complete; g++) {
		pw = pos[games[g].white];
		pb = pos[games[g].black];
		if (pw < lo || pw >= hi || pb < lo || pb >= hi)
			continue;
		if (games[g].result == STANDINGS_UNFINISHED)
			complete = false;
		else if (standings_score(games[g].result, &w2, &b2)) {
			rows[pw].tb[t] += w2;
			rows[pb].tb[t] += b2;
		}
	}
	/* Has every member met every other? */
	for (i = lo; i < hi && complete; i++) {
		memset(met, 0, (hi - lo) / 8 + 1);
		count = 0;
		for (g = 0; g < ngames; g++) {
			if (!standings_score(games[g].result, &w2, &b2))
				continue;
			if (games[g].white == rows[i].player)
				other = pos[games[g].black];
			else if (games[g].black == rows[i].player)
				other = pos[games[g].white];
			else
				continue;
			if (other < lo || other >= hi)
				continue;
			other -= (unsigned)lo;
			if (!(met[other / 8] & (1u << (other % 8)))) {
				met[other / 8] |=
				    (unsigned char)(1u << (other % 8));
				count++;
			}
		}
		if (count != hi - lo - 1)
			complete = false;
	}
	if (!complete)
		for (i = lo; i < hi; i++)
			rows[i].tb[t] = 0;
}

/* Compute the standings into rows[0..nplayers-1], best first. */
enum standings_error
standings_compute(unsigned nplayers, const struct standings_game *games,
    size_t ngames, const struct standings_rules *rules,
    struct standings_row *rows, size_t *errgame)
{
	static const struct standings_rules	none;
	unsigned	pos[STANDINGS_MAX_PLAYERS];
	enum standings_error	err;
	unsigned	w2, b2, max_games, line, n;
	const struct standings_game *gm;
	struct standings_row *w, *b;
	size_t		i, lo, hi, t;

	if (rules == NULL)
		rules = &none;
	if ((err = standings_check(nplayers, games, ngames, errgame)) !=
	    STANDINGS_OK)
		return err;
	if ((err = standings_rules_check(rules)) != STANDINGS_OK)
		return err;

	/* Points and counts, rows in player order for now. */
	memset(rows, 0, nplayers * sizeof rows[0]);
	for (i = 0; i < nplayers; i++)
		rows[i].player = (unsigned)i;
	for (i = 0; i < ngames; i++) {
		standings_count(&rows[games[i].white], games[i].result, true);
		standings_count(&rows[games[i].black], games[i].result, false);
	}

	/* Koya's line: half the maximum score, i.e. max_games half points. */
	max_games = rules->max_games;
	if (max_games == 0)
		for (i = 0; i < nplayers; i++) {
			n = rows[i].played + rows[i].forfeit_wins +
			    rows[i].forfeit_losses + rows[i].unfinished;
			if (n > max_games)
				max_games = n;
		}
	line = max_games;

	/* The tie-breaks that do not depend on the tie. */
	for (t = 0; t < rules->ntiebreaks; t++) {
		if (rules->tiebreaks[t] == STANDINGS_TB_WINS)
			for (i = 0; i < nplayers; i++)
				rows[i].tb[t] = rows[i].wins +
				    rows[i].forfeit_wins;
		if (rules->tiebreaks[t] != STANDINGS_TB_SB &&
		    rules->tiebreaks[t] != STANDINGS_TB_KOYA)
			continue;
		for (i = 0; i < ngames; i++) {
			gm = &games[i];
			if (!standings_score(gm->result, &w2, &b2))
				continue;
			w = &rows[gm->white];
			b = &rows[gm->black];
			if (rules->tiebreaks[t] == STANDINGS_TB_SB) {
				/* Quarter points: half points x half points. */
				w->tb[t] += (unsigned long)w2 * b->points2;
				b->tb[t] += (unsigned long)b2 * w->points2;
			} else {
				if (b->points2 >= line)
					w->tb[t] += w2;
				if (w->points2 >= line)
					b->tb[t] += b2;
			}
		}
	}

	/* Points, then each tie-break inside the groups still level. */
	standings_sort(rows, 0, nplayers, -1);
	for (t = 0; t < rules->ntiebreaks; t++) {
		if (rules->tiebreaks[t] == STANDINGS_TB_DIRECT)
			for (i = 0; i < nplayers; i++)
				pos[rows[i].player] = (unsigned)i;
		for (lo = 0; lo < nplayers; lo = hi) {
			for (hi = lo + 1; hi < nplayers &&
			    standings_level(&rows[lo], &rows[hi], t); hi++)
				;
			if (rules->tiebreaks[t] == STANDINGS_TB_DIRECT)
				standings_direct(rows, lo, hi, (int)t, pos,
				    games, ngames);
			standings_sort(rows, lo, hi, (int)t);
		}
	}

	/* Shared places. */
	for (lo = 0; lo < nplayers; lo = hi) {
		for (hi = lo + 1; hi < nplayers &&
		    standings_level(&rows[lo], &rows[hi], rules->ntiebreaks);
		    hi++)
			;
		for (i = lo; i < hi; i++) {
			rows[i].place = (unsigned)lo + 1;
			rows[i].place_last = (unsigned)hi;
		}
	}
	return STANDINGS_OK;
}

/* Find the crosstable's depth: the most games between two players. */
enum standings_error
standings_crosstable_depth(unsigned nplayers,
    const struct standings_game *games, size_t ngames, unsigned *depth,
    size_t *errgame)
{
	unsigned		count[STANDINGS_MAX_PLAYERS];
	enum standings_error	err;
	unsigned		p, other;
	size_t			i;

	*depth = 0;
	if ((err = standings_check(nplayers, games, ngames, errgame)) !=
	    STANDINGS_OK)
		return err;
	/* One player at a time, counting the games against each other. */
	for (p = 0; p < nplayers; p++) {
		memset(count, 0, nplayers * sizeof count[0]);
		for (i = 0; i < ngames; i++) {
			if (games[i].result == STANDINGS_ANNULLED)
				continue;
			if (games[i].white == p)
				other = games[i].black;
			else if (games[i].black == p)
				other = games[i].white;
			else
				continue;
			if (++count[other] > *depth)
				*depth = count[other];
		}
	}
	return STANDINGS_OK;
}

/* Give the mark of a result from white's side, or black's. */
static enum standings_mark
standings_mark(enum standings_result r, bool white)
{
	switch (r) {
	case STANDINGS_WHITE_WINS:
		return white ? STANDINGS_MARK_WIN : STANDINGS_MARK_LOSS;
	case STANDINGS_BLACK_WINS:
		return white ? STANDINGS_MARK_LOSS : STANDINGS_MARK_WIN;
	case STANDINGS_DRAW:
		return STANDINGS_MARK_DRAW;
	case STANDINGS_WHITE_WITHDREW:
		return white ? STANDINGS_MARK_FORFEIT_LOSS :
		    STANDINGS_MARK_FORFEIT_WIN;
	case STANDINGS_BLACK_WITHDREW:
		return white ? STANDINGS_MARK_FORFEIT_WIN :
		    STANDINGS_MARK_FORFEIT_LOSS;
	case STANDINGS_UNFINISHED:
		return STANDINGS_MARK_UNFINISHED;
	default:
		return STANDINGS_MARK_NONE;
	}
}

/* Fill a crosstable of nplayers x nplayers cells of `depth` slots. */
enum standings_error
standings_crosstable(unsigned nplayers, const struct standings_game *games,
    size_t ngames, unsigned depth, enum standings_mark *grid, size_t cap,
    size_t *errgame)
{
	enum standings_error	err;
	enum standings_mark	*wcell, *bcell;
	size_t			cells, i, k;

	if ((err = standings_check(nplayers, games, ngames, errgame)) !=
	    STANDINGS_OK)
		return err;
	cells = (size_t)nplayers * nplayers;
	if (depth > 0 && (cells > SIZE_MAX / depth || cap < cells * depth ||
	    grid == NULL))
		return STANDINGS_ESPACE;
	for (i = 0; i < cells * depth; i++)
		grid[i] = STANDINGS_MARK_NONE;
	for (i = 0; i < ngames; i++) {
		if (games[i].result == STANDINGS_ANNULLED)
			continue;
		wcell = grid + ((size_t)games[i].white * nplayers +
		    games[i].black) * depth;
		bcell = grid + ((size_t)games[i].black * nplayers +
		    games[i].white) * depth;
		/* Both cells of a pair fill in step: one free slot k. */
		for (k = 0; k < depth && wcell[k] != STANDINGS_MARK_NONE; k++)
			;
		if (k == depth) {
			if (errgame != NULL)
				*errgame = i;
			return STANDINGS_EDEPTH;
		}
		wcell[k] = standings_mark(games[i].result, true);
		bcell[k] = standings_mark(games[i].result, false);
	}
	return STANDINGS_OK;
}

/* Give the text of a mark. */
const char *
standings_mark_text(enum standings_mark m, bool ascii)
{
	switch (m) {
	case STANDINGS_MARK_NONE:
		return "";
	case STANDINGS_MARK_WIN:
		return "1";
	case STANDINGS_MARK_DRAW:
		return ascii ? "=" : "\xc2\xbd";
	case STANDINGS_MARK_LOSS:
		return "0";
	case STANDINGS_MARK_UNFINISHED:
		return "*";
	case STANDINGS_MARK_FORFEIT_WIN:
		return "+";
	case STANDINGS_MARK_FORFEIT_LOSS:
		return "-";
	}
	return "?";
}
