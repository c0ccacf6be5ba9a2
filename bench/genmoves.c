/*
 * bench/genmoves.c: signed move statements made ahead for the load benchmarks.
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
 * Signed statements for the HTTP benchmark (bench/http): real games from PGN
 * files, every move signed ply by ply, split among load connections.
 *
 * usage: bench/genmoves -o DIR [-c CONNS] [-g GAMES] [-f FIRST] [-p PREFIX]
 *            [-m MAXPLY] PGN...
 *        bench/genmoves -o DIR -L PLIES [-c CONNS] [-g GAMES] [-f FIRST]
 *            [-p PREFIX]
 *
 * Connection k has two players, PREFIXkw (white) and PREFIXkb (black), each
 * with a new Ed25519 key. Game i (0 <= i < GAMES) gets the id FIRST + i, is
 * played on connection i % CONNS and replays the moves of PGN game
 * i % (games read), up to MAXPLY plies (0: all) and never past the end of
 * the game by the rules (policy "auto"). With -L, no PGN: every game is a
 * line of PLIES plies of its own (long games, longer than real ones), a
 * walk from the start position that never captures, never repeats a
 * position and moves a pawn often enough to keep the fifty-move rule
 * away, so that the game stays ongoing. Written in DIR:
 *   players    name TAB public key (raw base64), one a line
 *   games      white TAB black, line i for game FIRST + i
 *   conn.K     game TAB signed statement (newlines written as the two
 *              characters \n), the plies of connection K's games in order
 *   count      the number of statements
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "game/game.h"
#include "sig/sig.h"

struct line {
	size_t		 nply;
	char		 (*san)[CHESS_SAN_MAX];
};

struct player {
	char		 name[SIG_PLAYER_MAX + 1];
	uint8_t		 sk[SIG_SECKEY_BYTES];
};

/* Print usage and exit. */
static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: genmoves -o DIR [-c CONNS] [-g GAMES] "
	    "[-f FIRST] [-p PREFIX] [-m MAXPLY] PGN...\n"
	    "       genmoves -o DIR -L PLIES [-c CONNS] [-g GAMES] "
	    "[-f FIRST] [-p PREFIX]\n");
	exit(2);
}

/* Read a whole file into a malloc'd buffer; NULL with errno on failure. */
static char *
slurp(const char *path, size_t *lenp)
{
	FILE	*f;
	char	*buf = NULL, *nbuf;
	size_t	 len = 0, cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (len + 65536 > cap) {
			cap = cap * 2 + 65536;
			if ((nbuf = realloc(buf, cap)) == NULL) {
				free(buf);
				buf = NULL;
				goto out;
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	*lenp = len;
out:
	fclose(f);
	return buf;
}

/* Add the standard-chess games of a PGN file to the lines; -1 on error. */
static int
read_pgn(const char *path, struct line **lines, size_t *nlines, size_t *cap)
{
	struct chess_pgn_reader	 r;
	struct chess_pgn_game	 g;
	struct chess_position	 pos, start;
	struct line		*l, *nl;
	char			*buf;
	size_t			 len, i;
	int			 rc;

	if ((buf = slurp(path, &len)) == NULL) {
		fprintf(stderr, "genmoves: %s: %s\n", path, strerror(errno));
		return -1;
	}
	chess_position_start(&start);
	memset(&g, 0, sizeof g);
	chess_pgn_reader_init(&r, buf, len);
	while ((rc = chess_pgn_next(&r, &g, NULL, 0)) != 0) {
		if (rc < 0 || g.game.nply < 2 ||
		    chess_position_key(&g.game.start) !=
		    chess_position_key(&start) || g.game.start.chess960)
			continue;
		if (*nlines == *cap) {
			*cap = *cap * 2 + 64;
			nl = realloc(*lines, *cap * sizeof **lines);
			if (nl == NULL)
				goto nomem;
			*lines = nl;
		}
		l = &(*lines)[*nlines];
		l->nply = g.game.nply;
		if ((l->san = calloc(l->nply, sizeof *l->san)) == NULL)
			goto nomem;
		pos = g.game.start;
		for (i = 0; i < l->nply; i++) {
			chess_move_san(&pos, g.game.moves[i], CHESS_LANG_EN,
			    l->san[i], CHESS_SAN_MAX);
			chess_position_make(&pos, g.game.moves[i]);
		}
		(*nlines)++;
	}
	chess_pgn_game_free(&g);
	free(buf);
	return 0;
nomem:
	fprintf(stderr, "genmoves: out of memory\n");
	chess_pgn_game_free(&g);
	free(buf);
	return -1;
}

/* Write one signed statement as a line of a connection file; -1 on error. */
static int
write_statement(FILE *f, uint64_t game, uint32_t ply,
    const struct player *p, const char *san)
{
	struct sig_statement	 st;
	enum sig_error		 e;
	char			 buf[SIG_SIGNED_SIZE], *s;

	memset(&st, 0, sizeof st);
	st.game = game;
	st.ply = ply;
	snprintf(st.player, sizeof st.player, "%s", p->name);
	st.action.kind = SIG_ACT_MOVE;
	snprintf(st.action.move, sizeof st.action.move, "%s", san);
	if (sig_statement_build(&st, &e) != 0 ||
	    sig_statement_sign(&st, p->sk, SIG_FORM_RAW, buf, sizeof buf,
	    &e) != 0) {
		fprintf(stderr, "genmoves: game %" PRIu64 " ply %" PRIu32
		    ": %s\n", game, ply, sig_strerror(e));
		return -1;
	}
	fprintf(f, "%" PRIu64 "\t", game);
	for (s = buf; *s != '\0'; s++) {
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('\n', f);
	return 0;
}

/* Tell whether key is among the n keys of seen. */
static int
seen_key(const uint64_t *seen, size_t n, uint64_t key)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (seen[i] == key)
			return 1;
	return 0;
}

/*
 * Make l a line of n plies: a walk from the start position, choosing with
 * the generator state *rnd among the moves that capture nothing, reach a
 * position not seen before and leave the opponent a move; where it can,
 * one that gives no check, and a pawn move when the halfmove clock
 * reaches 60. -1 when the
 * walk is stuck before n plies, or out of memory.
 */
static int
long_line(struct line *l, size_t n, uint64_t *rnd)
{
	struct chess_position	 pos, next;
	chess_move		 moves[CHESS_MAX_MOVES], pick[CHESS_MAX_MOVES];
	uint64_t		*seen;
	size_t			 ply, nseen = 0;
	int			 nm, np, i, pass, pawn;

	l->nply = 0;
	l->san = calloc(n, sizeof *l->san);
	seen = calloc(n + 1, sizeof *seen);
	if (l->san == NULL || seen == NULL) {
		free(seen);
		return -1;
	}
	chess_position_start(&pos);
	seen[nseen++] = pos.key;
	for (ply = 0; ply < n; ply++) {
		nm = chess_legal_moves(&pos, moves);
		np = 0;
		for (pass = 0; pass < 2 && np == 0; pass++) {
			for (i = 0; i < nm; i++) {
				if (pos.board[CHESS_MOVE_TO(moves[i])] !=
				    CHESS_EMPTY ||
				    CHESS_MOVE_KIND(moves[i]) !=
				    CHESS_MOVE_NORMAL)
					continue;
				pawn = CHESS_PIECE_TYPE(pos.board[
				    CHESS_MOVE_FROM(moves[i])]) == CHESS_PAWN;
				if (pass == 0 && pawn != (pos.halfmove >= 60))
					continue;
				next = pos;
				chess_position_make(&next, moves[i]);
				if (seen_key(seen, nseen, next.key) ||
				    chess_legal_count(&next) == 0 ||
				    (pass == 0 &&
				    chess_position_in_check(&next)))
					continue;
				pick[np++] = moves[i];
			}
		}
		if (np == 0)
			break;
		*rnd = *rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		i = (int)((*rnd >> 33) % (uint64_t)np);
		chess_move_san(&pos, pick[i], CHESS_LANG_EN, l->san[ply],
		    sizeof l->san[ply]);
		chess_position_make(&pos, pick[i]);
		seen[nseen++] = pos.key;
	}
	free(seen);
	l->nply = ply;
	return ply == n ? 0 : -1;
}

/* Write game `id`'s statements to f, adding their number to *count. */
static int
play_game(FILE *f, uint64_t id, const struct line *l, size_t maxply,
    const struct player *w, const struct player *b, unsigned long *count)
{
	struct game_params	 gp;
	struct game_action	 ga;
	struct game		 g;
	char			 why[256];
	size_t			 ply, n;
	int			 rc = -1;

	memset(&gp, 0, sizeof gp);
	chess_position_start(&gp.start);
	gp.policy = GAME_POLICY_AUTO;
	if (game_init(&g, &gp) != 0)
		return -1;
	n = maxply != 0 && maxply < l->nply ? maxply : l->nply;
	for (ply = 0; ply < n && game_ongoing(&g); ply++) {
		memset(&ga, 0, sizeof ga);
		ga.kind = GAME_ACT_MOVE;
		ga.color = (int)(ply & 1);
		ga.move = l->san[ply];
		ga.lang = CHESS_LANG_EN;
		if (game_apply(&g, &ga, why, sizeof why) != GAME_OK) {
			fprintf(stderr, "genmoves: %s refused: %s\n",
			    l->san[ply], why);
			goto out;
		}
		if (write_statement(f, id, (uint32_t)ply, ply & 1 ? b : w,
		    l->san[ply]) != 0)
			goto out;
		(*count)++;
	}
	rc = 0;
out:
	game_free(&g);
	return rc;
}

int
main(int argc, char **argv)
{
	struct line	*lines = NULL;
	struct player	*players = NULL;
	const char	*dir = NULL, *prefix = "p";
	size_t		 nlines = 0, cap = 0, maxply = 0, longply = 0, i;
	uint64_t	 rnd = 0x2545f4914f6cdd1dULL;
	unsigned long	 conns = 64, ngames = 1024, first = 1, count = 0;
	char		 path[4096], pk64[SIG_PUBKEY_LINE_SIZE];
	uint8_t		 pk[SIG_PUBKEY_BYTES];
	FILE		*f = NULL, *fp = NULL, *fg = NULL, **fc = NULL;
	int		 ch, rc = 1;

	while ((ch = getopt(argc, argv, "c:f:g:L:m:o:p:")) != -1) {
		switch (ch) {
		case 'L':
			longply = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			conns = strtoul(optarg, NULL, 10);
			break;
		case 'f':
			first = strtoul(optarg, NULL, 10);
			break;
		case 'g':
			ngames = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			maxply = strtoul(optarg, NULL, 10);
			break;
		case 'o':
			dir = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (dir == NULL || (argc == 0) == (longply == 0) || conns == 0 ||
	    ngames == 0 || first == 0 || strlen(prefix) > 20)
		usage();
	chess_init();
	if (sig_init() != 0) {
		fprintf(stderr, "genmoves: libsodium failed to start\n");
		return 1;
	}
	for (i = 0; i < (size_t)argc; i++)
		if (read_pgn(argv[i], &lines, &nlines, &cap) != 0)
			goto out;
	if (longply != 0) {
		if ((lines = calloc(ngames, sizeof *lines)) == NULL)
			goto nomem;
		for (nlines = 0; nlines < ngames; nlines++)
			if (long_line(&lines[nlines], longply, &rnd) != 0) {
				fprintf(stderr, "genmoves: no walk of %zu "
				    "plies (stuck after %zu)\n", longply,
				    lines[nlines].nply);
				nlines++;
				goto out;
			}
	}
	if (nlines == 0) {
		fprintf(stderr, "genmoves: no standard game in the PGN\n");
		goto out;
	}

	/* Players: two a connection. */
	if ((players = calloc(conns * 2, sizeof *players)) == NULL ||
	    (fc = calloc(conns, sizeof *fc)) == NULL)
		goto nomem;
	snprintf(path, sizeof path, "%s/players", dir);
	if ((fp = fopen(path, "w")) == NULL)
		goto io;
	for (i = 0; i < conns * 2; i++) {
		snprintf(players[i].name, sizeof players[i].name, "%s%zu%c",
		    prefix, i / 2, i & 1 ? 'b' : 'w');
		if (sig_keypair(pk, players[i].sk) != 0)
			goto nomem;
		sig_pubkey_format(pk, NULL, pk64, sizeof pk64);
		/* "ssh-ed25519 BASE64" */
		fprintf(fp, "%s\t%s\n", players[i].name, pk64);
	}
	if (fclose(fp) != 0) {
		fp = NULL;
		goto io;
	}
	fp = NULL;

	/* Games and their statements. */
	snprintf(path, sizeof path, "%s/games", dir);
	if ((fg = fopen(path, "w")) == NULL)
		goto io;
	for (i = 0; i < conns; i++) {
		snprintf(path, sizeof path, "%s/conn.%zu", dir, i);
		if ((fc[i] = fopen(path, "w")) == NULL)
			goto io;
	}
	for (i = 0; i < ngames; i++) {
		size_t k = i % conns;

		fprintf(fg, "%s\t%s\n", players[2 * k].name,
		    players[2 * k + 1].name);
		if (play_game(fc[k], first + i, &lines[i % nlines], maxply,
		    &players[2 * k], &players[2 * k + 1], &count) != 0)
			goto out;
	}
	for (i = 0; i < conns; i++) {
		f = fc[i];
		fc[i] = NULL;
		if (fclose(f) != 0)
			goto io;
	}
	f = fg;
	fg = NULL;
	if (fclose(f) != 0)
		goto io;
	snprintf(path, sizeof path, "%s/count", dir);
	if ((f = fopen(path, "w")) == NULL)
		goto io;
	fprintf(f, "%lu\n", count);
	if (fclose(f) != 0)
		goto io;
	fprintf(stderr, "genmoves: %lu games, %lu statements, %lu "
	    "connections (%zu PGN games)\n", ngames, count, conns, nlines);
	rc = 0;
	goto out;
io:
	fprintf(stderr, "genmoves: %s: %s\n", path, strerror(errno));
	goto out;
nomem:
	fprintf(stderr, "genmoves: out of memory\n");
out:
	if (fp != NULL)
		fclose(fp);
	if (fg != NULL)
		fclose(fg);
	for (i = 0; fc != NULL && i < conns; i++)
		if (fc[i] != NULL)
			fclose(fc[i]);
	free(fc);
	free(players);
	for (i = 0; i < nlines; i++)
		free(lines[i].san);
	free(lines);
	return rc;
}
