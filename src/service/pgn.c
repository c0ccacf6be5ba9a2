/*
 * service/pgn.c: a game exported as PGN with its signed record.
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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "util/buf.h"
#include "chess/pgn.h"
#include "service/service_int.h"

/* The signed record's comment, and the admin's words on the game's end. */
struct pgn_records {
	struct buf	rec;
	struct buf	admin;
};

/* Write the comment on an admin's record: what was done and why, from
 * its statement ("action: abort REASON"); '}' would end the comment. */
static void
admin_comment(struct buf *b, const struct store_action *a)
{
	struct sig_statement	st;
	const char		*p;

	if (a->statement == NULL || sig_statement_parse(a->statement,
	    strlen(a->statement), &st, NULL, NULL) != 0)
		return;
	buf_addf(b, "{%s by the club's admin: ", strcmp(a->kind, "abort") ==
	    0 ? "Aborted" : "Adjudicated");
	for (p = st.action.reason; *p != '\0'; p++)
		buf_addf(b, "%c", *p == '}' ? ')' : *p);
	buf_adds(b, "}\n");
}

/* Append one record of the signed record to the PGN comment. */
static int
rec_one(void *arg, const struct store_action *a)
{
	struct pgn_records	*pr = arg;
	struct buf		*r = &pr->rec;
	char			 hex[STORE_HASH_LEN * 2 + 1];

	sodium_bin2hex(hex, sizeof hex, a->hash, STORE_HASH_LEN);
	buf_addf(r, "\nrecord %" PRId64 " (%s, %s%s%s%s):\n", a->seq, a->kind,
	    a->source, a->attested[0] != '\0' ? ", attested by the server ("
	    : "", a->attested, a->attested[0] != '\0' ? ")" : "");
	if (a->statement != NULL)
		buf_adds(r, a->statement);
	if (a->signature != NULL)
		buf_adds(r, a->signature);
	buf_addf(r, "hash: %s\n", hex);
	if (strcmp(a->kind, "abort") == 0 || strcmp(a->kind, "adjudicate") == 0)
		admin_comment(&pr->admin, a);
	return r->failed || pr->admin.failed ? -1 : 0;
}

/* Add the WhiteElo (c 0) or BlackElo tag when the player has a rating. */
static int
elo_tag(struct store *st, const struct store_game *row, int c,
    struct chess_pgn_game *pg)
{
	char	num[16];
	int	elo;

	if (rating_elo(st, row, c, &elo) != 0)
		return 0;
	snprintf(num, sizeof num, "%d", elo);
	return chess_pgn_set_tag(pg, c == 0 ? "WhiteElo" : "BlackElo", num);
}

/*
 * Write the game as PGN, its signed record in a comment before the
 * result; the records are read with handle `st` (the writer's sees its own
 * work).
 */
char *
pgn_text(struct store *st, const struct store_game *row, const struct game *g,
    size_t *lenp)
{
	struct chess_pgn_game	 pg;
	struct pgn_records	 pr = { { 0 }, { 0 } };
	struct buf		 outb = { 0 };
	char			*pgn = NULL, *res = NULL;
	char			 date[16], num[32];
	size_t			 plen = 0, i, rlen;
	struct tm		 tm;
	time_t			 t;

	memset(&pg, 0, sizeof pg);
	if (store_action_list(st, row->id, rec_one, &pr) != STORE_OK)
		goto out;
	t = (time_t)row->created;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	snprintf(num, sizeof num, "%" PRId64, row->id);
	if (chess_game_init(&pg.game, &g->chess.start) != 0)
		goto out;
	for (i = 0; i < g->chess.nply; i++)
		if (chess_game_push(&pg.game, g->chess.moves[i]) != 0)
			goto out;
	snprintf(pg.result, sizeof pg.result, "%s",
	    game_result_name(g->result));
	if (chess_pgn_set_tag(&pg, "Event", row->event[0] ? row->event :
	    "corrchess game") != 0 ||
	    chess_pgn_set_tag(&pg, "Site", row->site[0] ? row->site : "?") ||
	    chess_pgn_set_tag(&pg, "Date", date) ||
	    chess_pgn_set_tag(&pg, "Round", row->round[0] ? row->round : "-") ||
	    chess_pgn_set_tag(&pg, "White", row->white_name) ||
	    chess_pgn_set_tag(&pg, "Black", row->black_name) ||
	    chess_pgn_set_tag(&pg, "Result", pg.result) ||
	    chess_pgn_set_tag(&pg, "GameId", num) != 0)
		goto out;
	if (elo_tag(st, row, 0, &pg) != 0 || elo_tag(st, row, 1, &pg) != 0)
		goto out;
	if (row->time_control[0] != '\0' &&
	    strcmp(row->time_control, "none") != 0 &&
	    chess_pgn_set_tag(&pg, "CorrespondenceTimeControl",
	    row->time_control) != 0)
		goto out;
	if (!game_ongoing(g) && chess_pgn_set_tag(&pg, "Termination",
	    game_termination_pgn(g->termination)) != 0)
		goto out;
	if ((pgn = chess_pgn_write(&pg, &plen)) == NULL || pr.rec.failed)
		goto out;
	/* Insert the record comment before the final result token. */
	rlen = strlen(pg.result);
	while (plen > 0 && (pgn[plen - 1] == '\n' || pgn[plen - 1] == ' '))
		plen--;
	if (plen < rlen)
		goto out;
	buf_add(&outb, pgn, plen - rlen);
	if (pr.admin.len > 0)
		buf_add(&outb, pr.admin.data, pr.admin.len);
	if (pr.rec.len > 0)
		buf_addf(&outb, "{corrchess signed record%s}\n", pr.rec.data);
	buf_addf(&outb, "%s\n\n", pg.result);
	res = buf_take(&outb, lenp);
 out:
	free(pgn);
	buf_free(&pr.rec);
	buf_free(&pr.admin);
	buf_free(&outb);
	chess_pgn_game_free(&pg);
	return res;
}

/* Export a game as PGN with its signed record. */
char *
service_game_pgn(struct service *svc, int64_t id, size_t *lenp,
    struct service_error *err)
{
	struct service_game	 g;
	struct store		*st;
	char			*res = NULL;

	if (service_game_get(svc, id, &g, err) != 0)
		return NULL;
	if ((st = pool_get(svc, err)) != NULL) {
		if ((res = pgn_text(st, &g.row, &g.state, lenp)) == NULL)
			service_fail(err, 500, "internal",
			    "the game cannot be exported; try again later");
		pool_put(svc, st);
	}
	service_game_free(&g);
	return res;
}
