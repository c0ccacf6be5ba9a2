/*
 * bench/store.c: SQLite commits and lookups per second.
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
 * The store's costs: commits per second of a move's transaction (load the
 * game, append the action, update the game row) with synchronous FULL and
 * NORMAL, and point lookups per second, on a database of many games.
 * Peers measured in the same run: the raw fdatasync rate of the disk, and
 * plain SQLite committing one small row per transaction (no store code).
 *
 * usage: bench/store [DIR]   (DIR: where the temporary database goes; it
 * must be on the disk the daemon would use, not a tmpfs, default ".")
 */

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"

#define NPLAYERS	1000
#define NGAMES		20000
#define SECONDS		1.5

static const char	*fen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/* Seconds from a monotonic clock. */
static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Exit with a message. */
static void
die(const char *what, struct store *s)
{
	fprintf(stderr, "bench/store: %s: %s\n", what,
	    s != NULL ? store_errmsg(s) : "");
	exit(1);
}

/* Fill the database with players and games, in one transaction. */
static void
populate(struct store *s)
{
	struct store_player	p;
	struct store_game	g;
	int			i;

	if (store_begin(s) != STORE_OK)
		die("begin", s);
	for (i = 0; i < NPLAYERS; i++) {
		memset(&p, 0, sizeof p);
		snprintf(p.name, sizeof p.name, "player%d", i);
		snprintf(p.email, sizeof p.email, "player%d@example.org", i);
		snprintf(p.lang, sizeof p.lang, i % 3 ? "en" : "fr");
		p.created = 1700000000;
		if (store_player_create(s, &p) != STORE_OK)
			die("player", s);
	}
	for (i = 0; i < NGAMES; i++) {
		memset(&g, 0, sizeof g);
		g.white = 1 + i % NPLAYERS;
		g.black = 1 + (i * 7 + 1) % NPLAYERS;
		snprintf(g.variant, sizeof g.variant, "standard");
		g.chess960 = -1;
		snprintf(g.start_fen, sizeof g.start_fen, "%s", fen);
		snprintf(g.time_control, sizeof g.time_control, "3d/move");
		snprintf(g.policy, sizeof g.policy, "claim");
		g.created = 1700000000 + i;
		snprintf(g.status, sizeof g.status, "ongoing");
		snprintf(g.result, sizeof g.result, "*");
		snprintf(g.fen, sizeof g.fen, "%s", fen);
		g.draw_offer = -1;
		g.deadline = g.created + 3 * 86400;
		g.updated = g.created;
		if (store_game_create(s, &g) != STORE_OK)
			die("game", s);
	}
	if (store_commit(s) != STORE_OK)
		die("commit", s);
}

/* Moves per second: one transaction per move, games in turn. */
static double
bench_moves(const char *path, enum store_sync sync, long *countp)
{
	struct store_options	 opts = { sync, 0, 0 };
	struct store		*s;
	struct store_game	 g;
	struct store_action	 a;
	char			 err[256], statement[200], sig[] =
	    "signature: 3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAA==";
	double			 t0, t;
	long			 n = 0;
	int64_t			 id;

	if ((s = store_open_with(path, &opts, err, sizeof err)) == NULL) {
		fprintf(stderr, "bench/store: %s\n", err);
		exit(1);
	}
	t0 = now();
	do {
		id = 1 + n % NGAMES;
		if (store_begin(s) != STORE_OK)
			die("begin", s);
		if (store_game_get(s, id, &g) != STORE_OK)
			die("get game", s);
		memset(&a, 0, sizeof a);
		a.game_id = id;
		a.seq = g.ply + 1;
		a.ply = g.ply;
		a.player_id = g.ply % 2 ? g.black : g.white;
		snprintf(a.kind, sizeof a.kind, "move");
		snprintf(a.move, sizeof a.move, "Nf3");
		snprintf(a.san, sizeof a.san, "Nf3");
		snprintf(statement, sizeof statement, "corrchess-v1\ngame: %lld"
		    "\nply: %d\nplayer: player%lld\naction: move Nf3\n",
		    (long long)id, g.ply, (long long)a.player_id - 1);
		a.statement = statement;
		a.signature = sig;
		a.at = 1700100000 + n;
		memcpy(a.prev_hash, g.head, sizeof a.prev_hash);
		memset(a.hash, (int)(n & 0xff), sizeof a.hash);
		snprintf(a.source, sizeof a.source, "http");
		if (store_action_append(s, &a) != STORE_OK)
			die("append", s);
		g.ply++;
		g.turn = !g.turn;
		memcpy(g.head, a.hash, sizeof g.head);
		g.updated = a.at;
		if (store_game_update(s, &g) != STORE_OK)
			die("update", s);
		if (store_commit(s) != STORE_OK)
			die("commit", s);
		n++;
	} while ((t = now() - t0) < SECONDS);
	store_close(s);
	*countp = n;
	return n / t;
}

/* Peer: 4 KiB write + fdatasync per second in `dir`. */
static double
bench_fdatasync(const char *dir)
{
	char	path[600], page[4096];
	double	t0, t;
	long	n = 0;
	int	fd;

	snprintf(path, sizeof path, "%s/sync", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1) {
		perror(path);
		exit(1);
	}
	memset(page, 'x', sizeof page);
	t0 = now();
	do {
		if (pwrite(fd, page, sizeof page, (n % 64) * 4096) == -1 ||
		    fdatasync(fd) == -1) {
			perror(path);
			exit(1);
		}
		n++;
	} while ((t = now() - t0) < SECONDS);
	close(fd);
	unlink(path);
	return n / t;
}

/* Peer: plain SQLite, one small row inserted per commit. */
static double
bench_sqlite_row(const char *dir, const char *sync)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	char		 path[600], pragma[64];
	double		 t0, t;
	long		 n = 0;

	snprintf(path, sizeof path, "%s/plain.db", dir);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("sqlite3_open", NULL);
	snprintf(pragma, sizeof pragma, "PRAGMA synchronous = %s", sync);
	sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
	sqlite3_exec(db, pragma, NULL, NULL, NULL);
	sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY "
	    "KEY, v TEXT)", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db, "INSERT INTO t (v) VALUES ('move e4')",
	    -1, &st, NULL) != SQLITE_OK)
		die("prepare", NULL);
	t0 = now();
	do {
		if (sqlite3_step(st) != SQLITE_DONE)
			die("insert", NULL);
		sqlite3_reset(st);
		n++;
	} while ((t = now() - t0) < SECONDS);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n / t;
}

/* Game loads (with both players' names) per second, random ids. */
static double
bench_game_get(struct store *s)
{
	struct store_game	g;
	double			t0, t = 0;
	long			n = 0;
	unsigned		r = 12345;

	t0 = now();
	do {
		r = r * 1103515245 + 12345;
		if (store_game_get(s, 1 + (r >> 8) % NGAMES, &g) != STORE_OK)
			die("get game", s);
		n++;
	} while ((n & 1023) != 0 || (t = now() - t0) < SECONDS);
	return n / t;
}

/* Player loads by name per second. */
static double
bench_player_get(struct store *s)
{
	struct store_player	p;
	char			name[STORE_NAME_SIZE];
	double			t0, t = 0;
	long			n = 0;
	unsigned		r = 54321;

	t0 = now();
	do {
		r = r * 1103515245 + 12345;
		snprintf(name, sizeof name, "player%u", (r >> 8) % NPLAYERS);
		if (store_player_get_by_name(s, name, &p) != STORE_OK)
			die("get player", s);
		n++;
	} while ((n & 1023) != 0 || (t = now() - t0) < SECONDS);
	return n / t;
}

/* Remove the temporary directory and its files. */
static void
cleanup(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[1024];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	struct store	*s;
	char		 dir[512], path[600], err[256];
	double		 full, normal, games, players, sync, rowfull, rownormal;
	long		 nfull, nnormal;

	snprintf(dir, sizeof dir, "%s/bench-store.XXXXXX",
	    argc > 1 ? argv[1] : ".");
	if (mkdtemp(dir) == NULL) {
		perror(dir);
		return 1;
	}
	snprintf(path, sizeof path, "%s/corrchess.db", dir);
	if ((s = store_open(path, err, sizeof err)) == NULL) {
		fprintf(stderr, "bench/store: %s\n", err);
		return 1;
	}
	populate(s);

	full = bench_moves(path, STORE_SYNC_FULL, &nfull);
	normal = bench_moves(path, STORE_SYNC_NORMAL, &nnormal);
	games = bench_game_get(s);
	players = bench_player_get(s);
	store_close(s);
	sync = bench_fdatasync(dir);
	rowfull = bench_sqlite_row(dir, "FULL");
	rownormal = bench_sqlite_row(dir, "NORMAL");
	cleanup(dir);

	printf("store: %d players, %d games, SQLite WAL\n", NPLAYERS,
	    NGAMES);
	printf("  move transaction (get game + append action + update "
	    "game), one commit each:\n");
	printf("    synchronous=FULL    %9.0f commits/s  (%ld)\n", full,
	    nfull);
	printf("    synchronous=NORMAL  %9.0f commits/s  (%ld)  "
	    "NORMAL/FULL = %.1fx\n", normal, nnormal, normal / full);
	printf("  peers, same run:\n");
	printf("    fdatasync (4 KiB)   %9.0f /s         FULL/fdatasync = "
	    "%.2f\n", sync, full / sync);
	printf("    plain SQLite, 1 row per commit: FULL %.0f/s (store "
	    "move = %.2fx), NORMAL %.0f/s (%.2fx)\n", rowfull,
	    full / rowfull, rownormal, normal / rownormal);
	printf("  point lookups:\n");
	printf("    game by id (+2 names) %7.0f /s\n", games);
	printf("    player by name        %7.0f /s\n", players);
	return 0;
}
