/*
 * bench/filldb.c: fill a database with many games for bench/rss.
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
 * Fill a fresh corrchessd database with many stored games, for the memory
 * and scaling figures (bench/rss): players with keys, finished games (a few
 * moves, then a resignation) and ongoing ones (a few moves), each record
 * signed by its player and chained by hash as the daemon writes it.
 *
 * usage: bench/filldb DB FINISHED ONGOING PGN...
 *
 * The moves are the openings of the PGN's games; 1000 players (f0 ... f999)
 * play them in pairs.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "game/game.h"
#include "sig/sig.h"
#include "store/store.h"

#define NPLAYERS	1000
#define GAMES_PER_TX	2000
#define OPENING_MAX	24

struct opening {
	size_t		 nply;
	char		 san[OPENING_MAX][CHESS_SAN_MAX];
};

struct fplayer {
	int64_t		 id;
	int64_t		 key_id;
	char		 name[STORE_NAME_SIZE];
	uint8_t		 sk[SIG_SECKEY_BYTES];
};

/* Read a whole file into a malloc'd buffer; NULL with errno on failure. */
static char *
slurp(const char *path, size_t *lenp)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (buf = malloc((size_t)n + 1)) ==
	    NULL) {
		fclose(f);
		return NULL;
	}
	*lenp = fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

/* Add the openings of a PGN file's standard games; -1 on error. */
static int
read_openings(const char *path, struct opening **ops, size_t *nops,
    size_t *cap)
{
	struct chess_pgn_reader	 r;
	struct chess_pgn_game	 g;
	struct chess_position	 pos, start;
	struct opening		*o, *no;
	char			*buf;
	size_t			 len, i;
	int			 rc;

	if ((buf = slurp(path, &len)) == NULL) {
		fprintf(stderr, "filldb: %s: %s\n", path, strerror(errno));
		return -1;
	}
	chess_position_start(&start);
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&r, buf, len);
	while ((rc = chess_pgn_next(&r, &g, NULL, 0)) != 0) {
		if (rc < 0 || g.game.nply < OPENING_MAX ||
		    chess_position_key(&g.game.start) !=
		    chess_position_key(&start) || g.game.start.chess960)
			continue;
		if (*nops == *cap) {
			*cap = *cap * 2 + 64;
			if ((no = realloc(*ops, *cap * sizeof **ops)) == NULL) {
				rc = -1;
				break;
			}
			*ops = no;
		}
		o = &(*ops)[(*nops)++];
		o->nply = OPENING_MAX;
		pos = g.game.start;
		for (i = 0; i < OPENING_MAX; i++) {
			chess_move_san(&pos, g.game.moves[i], CHESS_LANG_EN,
			    o->san[i], CHESS_SAN_MAX);
			chess_position_make(&pos, g.game.moves[i]);
		}
	}
	chess_pgn_game_free(&g);
	free(buf);
	return rc < 0 ? -1 : 0;
}

/* Append one signed record (a move when san != NULL, else a resignation). */
static int
append(struct store *st, struct store_game *row, struct game *g,
    const struct fplayer *p, int64_t seq, const char *san, int64_t at)
{
	struct sig_statement	 s;
	struct store_action	 a;
	struct game_action	 ga;
	enum sig_error		 e;
	uint8_t			 sig[SIG_SIGNATURE_BYTES];
	char			 stmt[SIG_STATEMENT_MAX + 1];
	char			 sigline[SIG_RAWSIG_LINE_SIZE], why[256];
	size_t			 ply = game_ply(g);

	memset(&s, 0, sizeof s);
	s.game = (uint64_t)row->id;
	s.ply = (uint32_t)ply;
	snprintf(s.player, sizeof s.player, "%s", p->name);
	s.action.kind = san != NULL ? SIG_ACT_MOVE : SIG_ACT_RESIGN;
	if (san != NULL)
		snprintf(s.action.move, sizeof s.action.move, "%s", san);
	if (sig_statement_build(&s, &e) != 0 ||
	    sig_sign(s.canon, s.canon_len, p->sk, sig) != 0 ||
	    sig_rawsig_format(sig, sigline, sizeof sigline) != 0) {
		fprintf(stderr, "filldb: statement: %s\n", sig_strerror(e));
		return -1;
	}
	memcpy(stmt, s.canon, s.canon_len);
	stmt[s.canon_len] = '\0';

	memset(&ga, 0, sizeof ga);
	ga.kind = san != NULL ? GAME_ACT_MOVE : GAME_ACT_RESIGN;
	ga.color = game_turn(g);
	ga.move = san;
	ga.lang = CHESS_LANG_EN;
	ga.at = at;
	if (game_apply(g, &ga, why, sizeof why) != GAME_OK) {
		fprintf(stderr, "filldb: game %" PRId64 ": %s\n", row->id, why);
		return -1;
	}

	memset(&a, 0, sizeof a);
	a.game_id = row->id;
	a.seq = seq;
	a.ply = (int)ply;
	a.player_id = p->id;
	a.key_id = p->key_id;
	snprintf(a.kind, sizeof a.kind, "%s", san != NULL ? "move" : "resign");
	if (san != NULL) {
		snprintf(a.move, sizeof a.move, "%s", san);
		snprintf(a.san, sizeof a.san, "%s", san);
	}
	a.statement = stmt;
	a.signature = sigline;
	a.at = at;
	memcpy(a.prev_hash, row->head, STORE_HASH_LEN);
	sig_record_hash(row->head, s.canon, s.canon_len, sig, sizeof sig,
	    a.hash);
	snprintf(a.source, sizeof a.source, "http");
	if (store_action_append(st, &a) != STORE_OK) {
		fprintf(stderr, "filldb: record: %s\n", store_errmsg(st));
		return -1;
	}
	memcpy(row->head, a.hash, STORE_HASH_LEN);
	return 0;
}

/* Store game i: its row, its records, its final state. */
static int
fill_game(struct store *st, int64_t i, bool finished, const struct opening *o,
    const struct fplayer *w, const struct fplayer *b, int64_t now)
{
	struct store_game	 row;
	struct game_params	 gp;
	struct game		 g;
	char			 why[128];
	size_t			 nply, k;
	int64_t			 t;
	int			 rc = -1;

	memset(&gp, 0, sizeof gp);
	chess_position_start(&gp.start);
	gp.policy = GAME_POLICY_AUTO;
	if (game_tc_parse(&gp.tc, "10d/move", why, sizeof why) != 0)
		return -1;
	/* Finished games began months ago, ongoing ones days ago. */
	gp.created = now - (finished ? 90 : 2) * GAME_DAY - i % 3600;
	if (game_init(&g, &gp) != 0)
		return -1;
	memset(&row, 0, sizeof row);
	row.white = w->id;
	row.black = b->id;
	snprintf(row.variant, sizeof row.variant, "standard");
	row.chess960 = -1;
	chess_fen_write(&gp.start, row.start_fen, sizeof row.start_fen);
	game_tc_format(&gp.tc, row.time_control, sizeof row.time_control);
	snprintf(row.policy, sizeof row.policy, "auto");
	snprintf(row.event, sizeof row.event, "Club championship");
	snprintf(row.round, sizeof row.round, "%" PRId64, i % 9 + 1);
	row.created = gp.created;
	snprintf(row.status, sizeof row.status, "ongoing");
	snprintf(row.result, sizeof row.result, "*");
	row.fen[0] = '\0';
	chess_fen_write(&g.chess.pos, row.fen, sizeof row.fen);
	row.draw_offer = -1;
	row.updated = row.created;
	if (store_game_create(st, &row) != STORE_OK) {
		fprintf(stderr, "filldb: game: %s\n", store_errmsg(st));
		goto out;
	}

	/* 4 to 12 plies, a few hours apart; finished ones end resigned. */
	nply = 4 + (size_t)(i % 9);
	t = gp.created;
	for (k = 0; k < nply && game_ongoing(&g); k++) {
		t += 3600 + k * 60;
		if (append(st, &row, &g, k & 1 ? b : w, (int64_t)k + 1,
		    o->san[k], t) != 0)
			goto out;
	}
	if (finished && game_ongoing(&g)) {
		t += 7200;
		if (append(st, &row, &g, game_turn(&g) ? b : w,
		    (int64_t)k + 1, NULL, t) != 0)
			goto out;
	}

	snprintf(row.status, sizeof row.status, "%s",
	    game_ongoing(&g) ? "ongoing" : "finished");
	snprintf(row.result, sizeof row.result, "%s",
	    game_result_name(g.result));
	snprintf(row.termination, sizeof row.termination, "%s",
	    game_termination_name(g.termination));
	row.ply = (int)g.chess.nply;
	chess_fen_write(&g.chess.pos, row.fen, sizeof row.fen);
	row.turn = game_turn(&g);
	row.draw_offer = g.draw_offer;
	row.deadline = game_deadline(&g);
	row.updated = t;
	if (store_game_update(st, &row) != STORE_OK) {
		fprintf(stderr, "filldb: game update: %s\n", store_errmsg(st));
		goto out;
	}
	rc = 0;
out:
	game_free(&g);
	return rc;
}

int
main(int argc, char **argv)
{
	struct store_options	 opts;
	struct store		*st = NULL;
	struct opening		*ops = NULL;
	struct fplayer		*pl = NULL;
	struct store_player	 p;
	struct store_key	 key;
	char			 err[256];
	size_t			 nops = 0, cap = 0;
	int64_t			 nfin, nong, i, now = (int64_t)time(NULL);
	int			 a, rc = 1;

	if (argc < 5) {
		fprintf(stderr, "usage: filldb DB FINISHED ONGOING PGN...\n");
		return 2;
	}
	nfin = strtoll(argv[2], NULL, 10);
	nong = strtoll(argv[3], NULL, 10);
	chess_init();
	if (sig_init() != 0)
		return 1;
	for (a = 4; a < argc; a++)
		if (read_openings(argv[a], &ops, &nops, &cap) != 0)
			goto out;
	if (nops == 0) {
		fprintf(stderr, "filldb: no game of %d plies in the PGN\n",
		    OPENING_MAX);
		goto out;
	}
	memset(&opts, 0, sizeof opts);
	opts.sync = STORE_SYNC_NORMAL;
	if ((st = store_open_with(argv[1], &opts, err, sizeof err)) == NULL) {
		fprintf(stderr, "filldb: %s: %s\n", argv[1], err);
		goto out;
	}
	if ((pl = calloc(NPLAYERS, sizeof *pl)) == NULL)
		goto out;

	if (store_begin(st) != STORE_OK)
		goto store;
	for (i = 0; i < NPLAYERS; i++) {
		memset(&p, 0, sizeof p);
		snprintf(p.name, sizeof p.name, "f%" PRId64, i);
		snprintf(p.email, sizeof p.email, "f%" PRId64 "@club.example",
		    i);
		snprintf(p.lang, sizeof p.lang, "%s", i % 4 ? "en" : "fr");
		p.created = now - 100 * GAME_DAY;
		memset(&key, 0, sizeof key);
		if (store_player_create(st, &p) != STORE_OK)
			goto store;
		if (sig_keypair(key.pubkey, pl[i].sk) != 0)
			goto out;
		key.player_id = p.id;
		snprintf(key.comment, sizeof key.comment, "%s@club.example",
		    p.name);
		key.added = p.created;
		if (store_key_add(st, &key) != STORE_OK)
			goto store;
		pl[i].id = p.id;
		pl[i].key_id = key.id;
		snprintf(pl[i].name, sizeof pl[i].name, "%s", p.name);
	}
	for (i = 0; i < nfin + nong; i++) {
		const struct fplayer *w = &pl[i % NPLAYERS];
		const struct fplayer *b = &pl[(i / NPLAYERS + 1 + i) %
		    NPLAYERS];

		if (w == b)
			b = &pl[(i + 1) % NPLAYERS];
		if (fill_game(st, i, i < nfin, &ops[(size_t)i % nops], w, b,
		    now) != 0)
			goto out;
		if ((i + 1) % GAMES_PER_TX == 0) {
			if (store_commit(st) != STORE_OK ||
			    store_begin(st) != STORE_OK)
				goto store;
		}
	}
	if (store_commit(st) != STORE_OK)
		goto store;
	fprintf(stderr, "filldb: %" PRId64 " finished and %" PRId64
	    " ongoing games, %d players\n", nfin, nong, NPLAYERS);
	rc = 0;
	goto out;
store:
	fprintf(stderr, "filldb: %s\n", store_errmsg(st));
out:
	store_close(st);
	free(pl);
	free(ops);
	return rc;
}
