/*
 * tests/test_store.c: tests of the store on a real SQLite file.
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
 * The store, on real SQLite: in-memory databases and files in a temporary
 * directory, two handles on one file from two threads. With
 * CORRCHESS_TEST_PG set (tests/store-pg.sh), the same tests on PostgreSQL,
 * each in a schema of its own, and the engine's own tests.
 */

#include "config.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include <sqlite3.h>

#include "testutil.h"
#include "testpg.h"
#include "store/store.h"

#define START_FEN \
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* A temporary directory per test that needs files. */
struct tmpdir {
	char	dir[256];
	char	db[512];
};

/* Make a temporary directory and a database path in it (on PostgreSQL,
 * a new schema). */
static void
tmp_make(struct tmpdir *t)
{
	char	file[300];

	test_mkdtemp(t->dir, sizeof t->dir, "test_store");
	snprintf(file, sizeof file, "%s/corrchess.db", t->dir);
	test_db_fresh(t->db, sizeof t->db, file);
}

/* Return a new empty database: ":memory:" on SQLite. Valid until the
 * next call. */
static const char *
mem_db(void)
{
	static char	buf[512];

	return test_db_fresh(buf, sizeof buf, ":memory:");
}

/* Remove the temporary directory and every file in it. */
static void
tmp_remove(struct tmpdir *t)
{
	test_rmdir(t->dir);
}

/* Open a store or fail the test. */
static struct store *
open_or_fail(const char *path, const struct store_options *opts)
{
	struct store	*s;
	char		 err[256];

	s = store_open_with(path, opts, err, sizeof err);
	if (s == NULL)
		fail_msg("store_open %s: %s", path, err);
	return s;
}

/* Add a player or fail the test; return its id. */
static int64_t
add_player(struct store *s, const char *name)
{
	struct store_player	p;

	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "%s", name);
	snprintf(p.email, sizeof p.email, "%s@example.org", name);
	snprintf(p.lang, sizeof p.lang, "en");
	p.created = 1700000000;
	if (store_player_create(s, &p) != STORE_OK)
		fail_msg("add player %s: %s", name, store_errmsg(s));
	assert_true(p.id > 0);
	return p.id;
}

/* Fill a new standard game between two players. */
static void
fill_game(struct store_game *g, int64_t white, int64_t black)
{
	memset(g, 0, sizeof *g);
	g->white = white;
	g->black = black;
	snprintf(g->variant, sizeof g->variant, "standard");
	g->chess960 = -1;
	snprintf(g->start_fen, sizeof g->start_fen, "%s", START_FEN);
	snprintf(g->time_control, sizeof g->time_control, "3d/move");
	snprintf(g->policy, sizeof g->policy, "claim");
	snprintf(g->event, sizeof g->event, "Club championship");
	snprintf(g->site, sizeof g->site, "corrchess");
	snprintf(g->round, sizeof g->round, "1");
	g->created = 1700000100;
	snprintf(g->status, sizeof g->status, "ongoing");
	snprintf(g->result, sizeof g->result, "*");
	g->ply = 0;
	snprintf(g->fen, sizeof g->fen, "%s", START_FEN);
	g->turn = 0;
	g->draw_offer = -1;
	g->deadline = 1700000100 + 3 * 86400;
	memset(g->head, 0xab, sizeof g->head);
	g->updated = g->created;
}

/* Add a game or fail the test; return its id. */
static int64_t
add_game(struct store *s, int64_t white, int64_t black)
{
	struct store_game	g;

	fill_game(&g, white, black);
	if (store_game_create(s, &g) != STORE_OK)
		fail_msg("add game: %s", store_errmsg(s));
	assert_true(g.id > 0);
	return g.id;
}

/* Fill an action; the hashes are derived from seq so each is distinct. */
static void
fill_action(struct store_action *a, int64_t game, int64_t seq,
    int64_t player, const char *move, char *statement, char *signature)
{
	memset(a, 0, sizeof *a);
	a->game_id = game;
	a->seq = seq;
	a->ply = (int)seq - 1;
	a->player_id = player;
	snprintf(a->kind, sizeof a->kind, "move");
	snprintf(a->move, sizeof a->move, "%s", move);
	snprintf(a->san, sizeof a->san, "%s", move);
	a->statement = statement;
	a->signature = signature;
	a->at = 1700000200 + seq;
	memset(a->prev_hash, (int)(seq - 1), sizeof a->prev_hash);
	memset(a->hash, (int)seq, sizeof a->hash);
	a->prev_hash[0] = 0xfe;
	a->hash[31] = 0x01;
	snprintf(a->source, sizeof a->source, "http");
}

/*
 * In one transaction: players alice and bob, a game between them and
 * alice's 1. e4 (filled in *a); the game's id, bob's in *bobp.
 */
static int64_t
add_first_move(struct store *s, struct store_action *a, int64_t *bobp)
{
	int64_t	 alice, game;

	assert_int_equal(store_begin(s), STORE_OK);
	alice = add_player(s, "alice");
	*bobp = add_player(s, "bob");
	game = add_game(s, alice, *bobp);
	fill_action(a, game, 1, alice, "e4", NULL, NULL);
	assert_int_equal(store_action_append(s, a), STORE_OK);
	assert_int_equal(store_commit(s), STORE_OK);
	return game;
}

/* Collectors for the listing callbacks. */
struct players_seen {
	int	n;
	char	names[8][STORE_NAME_SIZE];
};

static int
collect_player(void *arg, const struct store_player *p)
{
	struct players_seen	*c = arg;

	if (c->n < 8)
		snprintf(c->names[c->n], STORE_NAME_SIZE, "%s", p->name);
	c->n++;
	return 0;
}

struct keys_seen {
	int			n;
	struct store_key	keys[8];
};

static int
collect_key(void *arg, const struct store_key *k)
{
	struct keys_seen	*c = arg;

	if (c->n < 8)
		c->keys[c->n] = *k;
	c->n++;
	return 0;
}

struct games_seen {
	int	n;
	int64_t	ids[16];
	int	stop_after;	/* 0: never */
};

static int
collect_game(void *arg, const struct store_game *g)
{
	struct games_seen	*c = arg;

	if (c->n < 16)
		c->ids[c->n] = g->id;
	c->n++;
	return c->stop_after > 0 && c->n >= c->stop_after;
}

/* List the games `f` selects into `seen`, emptied first; the listing must
 * succeed. */
static void
list_games(struct store *s, const struct store_game_filter *f,
    struct games_seen *seen)
{
	memset(seen, 0, sizeof *seen);
	assert_int_equal(store_game_list(s, f, collect_game, seen), STORE_OK);
}

struct actions_seen {
	int			n;
	struct store_action	a[8];
	char			statements[8][128];
	bool			null_statement[8];
};

static int
collect_action(void *arg, const struct store_action *a)
{
	struct actions_seen	*c = arg;

	if (c->n < 8) {
		c->a[c->n] = *a;
		c->null_statement[c->n] = a->statement == NULL;
		snprintf(c->statements[c->n], sizeof c->statements[c->n],
		    "%s", a->statement != NULL ? a->statement : "");
		c->a[c->n].statement = NULL;
		c->a[c->n].signature = NULL;
	}
	c->n++;
	return 0;
}

/* A new in-memory store opens at the latest schema; closing NULL is fine. */
static void
test_open_memory(void **state)
{
	struct store	*s;
	char		 err[256];

	(void)state;
	s = store_open(mem_db(), err, sizeof err);
	assert_non_null(s);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_integrity_check(s), STORE_OK);
	store_close(s);
	store_close(NULL);
}

/* A game's creation record: stored, read back, none for another game. */
static void
test_game_creation(void **state)
{
	struct store		*s;
	struct store_creation	 c, got;
	char			 err[256];
	int64_t			 a, b, g1, g2;

	(void)state;
	s = store_open(mem_db(), err, sizeof err);
	assert_non_null(s);
	a = add_player(s, "alice");
	b = add_player(s, "bob");
	g1 = add_game(s, a, b);
	g2 = add_game(s, b, a);
	memset(&c, 0, sizeof c);
	snprintf(c.record, sizeof c.record, "corrchess-game-v1\ngame: %lld\n",
	    (long long)g1);
	memset(c.signature, 0xa5, sizeof c.signature);
	memset(c.hash, 0x5a, sizeof c.hash);
	assert_int_equal(store_game_creation_set(s, g1, &c), STORE_OK);
	assert_int_equal(store_game_creation_get(s, g1, &got), STORE_OK);
	assert_string_equal(got.record, c.record);
	assert_memory_equal(got.signature, c.signature, sizeof c.signature);
	assert_memory_equal(got.hash, c.hash, sizeof c.hash);
	assert_int_equal(store_game_creation_get(s, g2, &got), STORE_NOTFOUND);
	/* One per game. */
	assert_int_not_equal(store_game_creation_set(s, g1, &c), STORE_OK);
	store_close(s);
}

/* Opening a path that cannot be created fails with a reason. */
static void
test_open_failure(void **state)
{
	char	err[256] = "";

	(void)state;
	assert_null(store_open("/nonexistent-dir/x/corrchess.db", err,
	    sizeof err));
	assert_non_null(strstr(err, "/nonexistent-dir/x/corrchess.db"));
}

/* "full" and "normal" parse; anything else does not. */
static void
test_sync_parse(void **state)
{
	enum store_sync	sync = STORE_SYNC_NORMAL;

	(void)state;
	assert_int_equal(store_sync_parse("full", &sync), 0);
	assert_int_equal(sync, STORE_SYNC_FULL);
	assert_int_equal(store_sync_parse("normal", &sync), 0);
	assert_int_equal(sync, STORE_SYNC_NORMAL);
	assert_int_equal(store_sync_parse("off", &sync), -1);
	assert_string_equal(store_status_name(STORE_EXISTS), "exists");
}

/* Player names follow [a-z0-9_.-]{1,32}. */
static void
test_name_valid(void **state)
{
	(void)state;
	assert_true(store_name_valid("alice"));
	assert_true(store_name_valid("j.doe-2_x"));
	assert_true(store_name_valid("abcdefghijabcdefghijabcdefghij12"));
	assert_false(store_name_valid("abcdefghijabcdefghijabcdefghij123"));
	assert_false(store_name_valid(""));
	assert_false(store_name_valid("Alice"));
	assert_false(store_name_valid("a b"));
	assert_false(store_name_valid("al'ice"));
}

/* Players: create, get by id and name, update, list in name order. */
static void
test_player_records(void **state)
{
	struct store		*s;
	struct store_player	 p, q;
	struct players_seen	 seen;
	int64_t			 bob;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	bob = add_player(s, "bob");
	add_player(s, "alice");
	add_player(s, "carol");

	assert_int_equal(store_player_get(s, bob, &p), STORE_OK);
	assert_int_equal(p.id, bob);
	assert_string_equal(p.name, "bob");
	assert_string_equal(p.email, "bob@example.org");
	assert_string_equal(p.lang, "en");
	assert_int_equal(p.created, 1700000000);

	assert_int_equal(store_player_get_by_name(s, "bob", &q), STORE_OK);
	assert_int_equal(q.id, bob);

	snprintf(p.lang, sizeof p.lang, "fr");
	snprintf(p.email, sizeof p.email, "robert@example.fr");
	assert_int_equal(store_player_update(s, &p), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "bob", &q), STORE_OK);
	assert_string_equal(q.lang, "fr");
	assert_string_equal(q.email, "robert@example.fr");

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_player_list(s, 0, 0, collect_player, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 3);
	assert_string_equal(seen.names[0], "alice");
	assert_string_equal(seen.names[1], "bob");
	assert_string_equal(seen.names[2], "carol");

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_player_list(s, 1, 1, collect_player, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.names[0], "bob");
	store_close(s);
}

/* Duplicate names, bad fields and missing players. */
static void
test_player_errors(void **state)
{
	struct store		*s;
	struct store_player	 p;
	struct players_seen	 seen;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	add_player(s, "alice");

	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "alice");
	snprintf(p.lang, sizeof p.lang, "fr");
	assert_int_equal(store_player_create(s, &p), STORE_EXISTS);
	assert_non_null(strstr(store_errmsg(s), "alice"));

	snprintf(p.name, sizeof p.name, "Alice");
	assert_int_equal(store_player_create(s, &p), STORE_ERROR);
	snprintf(p.name, sizeof p.name, "dave");
	snprintf(p.lang, sizeof p.lang, "de");
	assert_int_equal(store_player_create(s, &p), STORE_ERROR);

	assert_int_equal(store_player_get_by_name(s, "dave", &p),
	    STORE_NOTFOUND);
	assert_int_equal(store_player_get(s, 999, &p), STORE_NOTFOUND);
	memset(&p, 0, sizeof p);
	p.id = 999;
	snprintf(p.lang, sizeof p.lang, "en");
	assert_int_equal(store_player_update(s, &p), STORE_NOTFOUND);

	/* Nothing but alice was stored. */
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_player_list(s, 0, 0, collect_player, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	store_close(s);
}

/* Keys: add, list, duplicates, revoke, find by public key. */
/* Invitations: found by their hash with the player's name, used once. */
static void
test_invitations(void **state)
{
	struct store		*s;
	struct store_invitation	 inv, got;
	uint8_t			 other[STORE_HASH_LEN];
	int64_t			 alice;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	memset(&inv, 0, sizeof inv);
	inv.player_id = alice;
	memset(inv.token_hash, 0x5a, sizeof inv.token_hash);
	inv.token_hash[3] = 0x00;	/* a NUL byte must survive */
	inv.created = 1700000000;
	inv.expires = 1700604800;
	assert_int_equal(store_invitation_add(s, &inv), STORE_OK);
	assert_true(inv.id > 0);
	assert_int_equal(store_invitation_add(s, &inv), STORE_EXISTS);
	memset(other, 0x5a, sizeof other);
	assert_int_equal(store_invitation_find(s, other, &got), STORE_NOTFOUND);
	assert_int_equal(store_invitation_find(s, inv.token_hash, &got),
	    STORE_OK);
	assert_int_equal(got.id, inv.id);
	assert_int_equal(got.player_id, alice);
	assert_string_equal(got.player_name, "alice");
	assert_int_equal(got.expires, 1700604800);
	assert_int_equal(got.used, 0);
	assert_int_equal(got.key_id, 0);
	assert_int_equal(store_invitation_use(s, inv.id, 1700000100, 0),
	    STORE_OK);
	assert_int_equal(store_invitation_use(s, inv.id, 1700000200, 0),
	    STORE_NOTFOUND);
	assert_int_equal(store_invitation_find(s, inv.token_hash, &got),
	    STORE_OK);
	assert_int_equal(got.used, 1700000100);
	inv.player_id = 999;
	inv.token_hash[0] = 0x01;
	assert_int_equal(store_invitation_add(s, &inv), STORE_NOTFOUND);
	store_close(s);
}

static void
test_keys(void **state)
{
	struct store		*s;
	struct store_key	 k1, k2, k3, k;
	struct store_player	 p;
	struct keys_seen	 seen;
	int64_t			 alice, bob;
	uint8_t			 unknown[STORE_PUBKEY_LEN];

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");

	memset(&k1, 0, sizeof k1);
	k1.player_id = alice;
	memset(k1.pubkey, 0x11, sizeof k1.pubkey);
	snprintf(k1.comment, sizeof k1.comment, "alice@laptop");
	k1.added = 1700000010;
	assert_int_equal(store_key_add(s, &k1), STORE_OK);
	k2 = k1;
	memset(k2.pubkey, 0x22, sizeof k2.pubkey);
	k2.pubkey[0] = 0x00;	/* a NUL byte must survive */
	snprintf(k2.comment, sizeof k2.comment, "alice@phone");
	assert_int_equal(store_key_add(s, &k2), STORE_OK);
	assert_true(k2.id != k1.id);

	/* The same key twice for a player, or once for another: refused. */
	k = k1;
	assert_int_equal(store_key_add(s, &k), STORE_EXISTS);
	k3 = k1;
	k3.player_id = bob;
	assert_int_equal(store_key_add(s, &k3), STORE_ERROR);
	memset(k3.pubkey, 0x55, sizeof k3.pubkey);
	assert_int_equal(store_key_add(s, &k3), STORE_OK);
	k.player_id = 999;
	memset(k.pubkey, 0x33, sizeof k.pubkey);
	assert_int_equal(store_key_add(s, &k), STORE_NOTFOUND);

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_key_list(s, alice, collect_key, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.keys[0].id, k1.id);
	assert_memory_equal(seen.keys[0].pubkey, k1.pubkey, STORE_PUBKEY_LEN);
	assert_string_equal(seen.keys[0].comment, "alice@laptop");
	assert_int_equal(seen.keys[0].added, 1700000010);
	assert_int_equal(seen.keys[0].revoked, 0);
	assert_memory_equal(seen.keys[1].pubkey, k2.pubkey, STORE_PUBKEY_LEN);

	/* Revoke, twice: the first time stays. */
	assert_int_equal(store_key_revoke(s, k2.id, 1700000500), STORE_OK);
	assert_int_equal(store_key_revoke(s, k2.id, 1700000600), STORE_OK);
	assert_int_equal(store_key_revoke(s, 999, 1700000600),
	    STORE_NOTFOUND);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_key_list(s, alice, collect_key, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.keys[0].revoked, 0);
	assert_int_equal(seen.keys[1].revoked, 1700000500);

	/* Find: the revoked key still names its player. */
	assert_int_equal(store_key_find(s, k2.pubkey, &k, &p), STORE_OK);
	assert_int_equal(k.id, k2.id);
	assert_int_equal(k.revoked, 1700000500);
	assert_string_equal(p.name, "alice");
	assert_int_equal(store_key_find(s, k2.pubkey, NULL, NULL), STORE_OK);

	/* Revoked, a key stays its player's: bob cannot take it. */
	assert_int_equal(store_key_revoke(s, k1.id, 1700000700), STORE_OK);
	assert_int_equal(store_key_find(s, k1.pubkey, &k, &p), STORE_OK);
	assert_int_equal(k.id, k1.id);
	assert_int_equal(p.id, alice);
	k3 = k1;
	k3.player_id = bob;
	assert_int_equal(store_key_add(s, &k3), STORE_ERROR);

	memset(unknown, 0x44, sizeof unknown);
	assert_int_equal(store_key_find(s, unknown, &k, &p), STORE_NOTFOUND);
	store_close(s);
}

/* Games: create, get with names, update state, get again. */
static void
test_game_records(void **state)
{
	struct store		*s;
	struct store_game	 g, h;
	int64_t			 alice, bob;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");

	fill_game(&g, alice, bob);
	assert_int_equal(store_game_create(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, g.id, &h), STORE_OK);
	assert_int_equal(h.id, g.id);
	assert_int_equal(h.white, alice);
	assert_int_equal(h.black, bob);
	assert_string_equal(h.white_name, "alice");
	assert_string_equal(h.black_name, "bob");
	assert_string_equal(h.variant, "standard");
	assert_int_equal(h.chess960, -1);
	assert_string_equal(h.start_fen, START_FEN);
	assert_string_equal(h.time_control, "3d/move");
	assert_string_equal(h.policy, "claim");
	assert_string_equal(h.event, "Club championship");
	assert_string_equal(h.site, "corrchess");
	assert_string_equal(h.round, "1");
	assert_int_equal(h.created, 1700000100);
	assert_string_equal(h.status, "ongoing");
	assert_string_equal(h.result, "*");
	assert_string_equal(h.termination, "");
	assert_int_equal(h.ply, 0);
	assert_int_equal(h.turn, 0);
	assert_int_equal(h.draw_offer, -1);
	assert_int_equal(h.deadline, g.deadline);
	assert_memory_equal(h.head, g.head, STORE_HASH_LEN);

	/* A move with a draw offer, then the game ends. */
	h.ply = 1;
	snprintf(h.fen, sizeof h.fen,
	    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	h.turn = 1;
	h.draw_offer = 0;
	memset(h.head, 0x5a, sizeof h.head);
	h.updated = 1700000300;
	assert_int_equal(store_game_update(s, &h), STORE_OK);
	assert_int_equal(store_game_get(s, g.id, &g), STORE_OK);
	assert_int_equal(g.ply, 1);
	assert_int_equal(g.turn, 1);
	assert_int_equal(g.draw_offer, 0);
	assert_string_equal(g.fen, h.fen);
	assert_memory_equal(g.head, h.head, STORE_HASH_LEN);
	assert_int_equal(g.updated, 1700000300);

	snprintf(g.status, sizeof g.status, "finished");
	snprintf(g.result, sizeof g.result, "1/2-1/2");
	snprintf(g.termination, sizeof g.termination, "agreement");
	g.draw_offer = -1;
	g.deadline = 0;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, g.id, &h), STORE_OK);
	assert_string_equal(h.status, "finished");
	assert_string_equal(h.result, "1/2-1/2");
	assert_string_equal(h.termination, "agreement");
	assert_int_equal(h.draw_offer, -1);
	assert_int_equal(h.deadline, 0);

	/* Chess960 keeps its number. */
	fill_game(&g, bob, alice);
	snprintf(g.variant, sizeof g.variant, "chess960");
	g.chess960 = 518;
	assert_int_equal(store_game_create(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, g.id, &h), STORE_OK);
	assert_string_equal(h.variant, "chess960");
	assert_int_equal(h.chess960, 518);
	assert_string_equal(h.white_name, "bob");
	store_close(s);
}

/* Bad games are refused and leave nothing behind. */
static void
test_game_errors(void **state)
{
	struct store		*s;
	struct store_game	 g;
	struct games_seen	 seen;
	struct store_game_filter f;
	int64_t			 alice, bob;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");

	fill_game(&g, alice, 999);
	assert_int_equal(store_game_create(s, &g), STORE_NOTFOUND);
	fill_game(&g, alice, bob);
	g.chess960 = 12;	/* but variant standard */
	assert_int_equal(store_game_create(s, &g), STORE_ERROR);
	fill_game(&g, alice, bob);
	snprintf(g.variant, sizeof g.variant, "atomic");
	assert_int_equal(store_game_create(s, &g), STORE_ERROR);
	fill_game(&g, alice, bob);
	snprintf(g.status, sizeof g.status, "paused");	/* CHECK constraint */
	assert_int_equal(store_game_create(s, &g), STORE_ERROR);
	fill_game(&g, alice, bob);
	memset(g.event, 'x', sizeof g.event);		/* no NUL: too long */
	assert_int_equal(store_game_create(s, &g), STORE_ERROR);
	assert_non_null(strstr(store_errmsg(s), "event"));

	memset(&seen, 0, sizeof seen);
	memset(&f, 0, sizeof f);
	assert_int_equal(store_game_list(s, &f, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 0);

	assert_int_equal(store_game_get(s, 1, &g), STORE_NOTFOUND);
	fill_game(&g, alice, bob);
	g.id = 42;
	assert_int_equal(store_game_update(s, &g), STORE_NOTFOUND);
	store_close(s);
}

/* Game listings by player and status, newest first, with limit/offset. */
static void
test_game_list(void **state)
{
	struct store		*s;
	struct store_game	 g;
	struct store_game_filter f;
	struct games_seen	 seen;
	int64_t			 alice, bob, carol, id[4], self;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	carol = add_player(s, "carol");
	id[0] = add_game(s, alice, bob);
	id[1] = add_game(s, bob, carol);
	id[2] = add_game(s, carol, alice);
	id[3] = add_game(s, alice, carol);
	assert_int_equal(store_game_get(s, id[2], &g), STORE_OK);
	snprintf(g.status, sizeof g.status, "finished");
	snprintf(g.result, sizeof g.result, "0-1");
	assert_int_equal(store_game_update(s, &g), STORE_OK);

	memset(&f, 0, sizeof f);
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 4);
	assert_int_equal(seen.ids[0], id[3]);
	assert_int_equal(seen.ids[3], id[0]);

	f.player = "alice";
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.ids[0], id[3]);
	assert_int_equal(seen.ids[1], id[2]);
	assert_int_equal(seen.ids[2], id[0]);

	f.status = "ongoing";
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.ids[0], id[3]);
	assert_int_equal(seen.ids[1], id[0]);

	/* A game a player has with himself is listed once. */
	self = add_game(s, bob, bob);
	f.player = "bob";
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.ids[0], self);
	assert_int_equal(seen.ids[1], id[1]);
	assert_int_equal(seen.ids[2], id[0]);
	f.status = NULL;
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.ids[0], self);

	f.player = NULL;
	f.status = "finished";
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ids[0], id[2]);

	f.status = NULL;
	f.limit = 2;
	f.offset = 1;
	list_games(s, &f, &seen);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.ids[0], id[3]);
	assert_int_equal(seen.ids[1], id[2]);

	/* The callback stops the listing. */
	memset(&f, 0, sizeof f);
	memset(&seen, 0, sizeof seen);
	seen.stop_after = 1;
	assert_int_equal(store_game_list(s, &f, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);

	f.player = "nobody";
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_game_list(s, &f, collect_game, &seen),
	    STORE_NOTFOUND);
	assert_int_equal(seen.n, 0);
	store_close(s);
}

/* Due games: ongoing, deadline passed, earliest first. */
static void
test_game_due(void **state)
{
	struct store		*s;
	struct store_game	 g;
	struct games_seen	 seen;
	int64_t			 alice, bob, id[4];
	int			 i;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	for (i = 0; i < 4; i++)
		id[i] = add_game(s, alice, bob);
	/* Deadlines 300, 100, none, 200 (finished). */
	assert_int_equal(store_game_get(s, id[0], &g), STORE_OK);
	g.deadline = 300;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, id[1], &g), STORE_OK);
	g.deadline = 100;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, id[2], &g), STORE_OK);
	g.deadline = 0;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	assert_int_equal(store_game_get(s, id[3], &g), STORE_OK);
	g.deadline = 200;
	snprintf(g.status, sizeof g.status, "finished");
	assert_int_equal(store_game_update(s, &g), STORE_OK);

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_game_list_due(s, 1000, 0, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.ids[0], id[1]);
	assert_int_equal(seen.ids[1], id[0]);

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_game_list_due(s, 299, 0, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ids[0], id[1]);
	store_close(s);
}

/* The record: seq order, hashes and texts round trip, duplicates refused. */
static void
test_actions(void **state)
{
	struct store		*s;
	struct store_action	 a, b;
	struct actions_seen	 seen;
	int64_t			 alice, bob, game;
	char			 st1[] = "corrchess-v1\ngame: 1\nply: 0\n"
				     "player: alice\naction: move e4\n";
	char			 sig1[] = "signature: AAAA+/==";
	char			 st2[] = "corrchess-v1\ngame: 1\nply: 1\n"
				     "player: bob\naction: move e5\n";
	char			 sig2[] = "-----BEGIN SSH SIGNATURE-----\n"
				     "U1NIU0lH\n-----END SSH SIGNATURE-----\n";
	uint8_t			 h1[STORE_HASH_LEN];

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	game = add_game(s, alice, bob);

	/* Appended out of order, listed in seq order. */
	fill_action(&a, game, 2, bob, "e5", st2, sig2);
	snprintf(a.source, sizeof a.source, "mail");
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	fill_action(&a, game, 1, alice, "e2-e4", st1, sig1);
	snprintf(a.san, sizeof a.san, "e4");
	memcpy(h1, a.hash, sizeof h1);
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	fill_action(&a, game, 3, 0, "", NULL, NULL);
	snprintf(a.kind, sizeof a.kind, "timeout");
	snprintf(a.source, sizeof a.source, "admin");
	assert_int_equal(store_action_append(s, &a), STORE_OK);

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_action_list(s, game, collect_action, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.a[0].seq, 1);
	assert_int_equal(seen.a[1].seq, 2);
	assert_int_equal(seen.a[2].seq, 3);
	assert_string_equal(seen.statements[0], st1);
	assert_string_equal(seen.statements[1], st2);
	assert_true(seen.null_statement[2]);
	assert_string_equal(seen.a[0].move, "e2-e4");
	assert_string_equal(seen.a[0].san, "e4");
	assert_string_equal(seen.a[0].kind, "move");
	assert_string_equal(seen.a[0].source, "http");
	assert_string_equal(seen.a[1].source, "mail");
	assert_int_equal(seen.a[0].player_id, alice);
	assert_int_equal(seen.a[1].player_id, bob);
	assert_int_equal(seen.a[2].player_id, 0);
	assert_int_equal(seen.a[2].key_id, 0);
	assert_string_equal(seen.a[2].kind, "timeout");
	assert_string_equal(seen.a[2].move, "");
	assert_int_equal(seen.a[1].ply, 1);
	assert_int_equal(seen.a[1].at, 1700000202);
	assert_memory_equal(seen.a[0].hash, h1, STORE_HASH_LEN);
	fill_action(&b, game, 2, bob, "e5", NULL, NULL);
	assert_memory_equal(seen.a[1].prev_hash, b.prev_hash, STORE_HASH_LEN);
	assert_memory_equal(seen.a[1].hash, b.hash, STORE_HASH_LEN);

	/* One record with its own copies of the texts. */
	assert_int_equal(store_action_get(s, game, 2, &b), STORE_OK);
	assert_string_equal(b.statement, st2);
	assert_string_equal(b.signature, sig2);
	assert_int_equal(b.seq, 2);
	store_action_clear(&b);
	assert_null(b.statement);
	store_action_clear(NULL);
	assert_int_equal(store_action_get(s, game, 9, &b), STORE_NOTFOUND);

	/* A second append at a taken seq: a stale writer. */
	fill_action(&a, game, 2, alice, "d4", st1, sig1);
	assert_int_equal(store_action_append(s, &a), STORE_EXISTS);
	fill_action(&a, 999, 1, alice, "d4", st1, sig1);
	assert_int_equal(store_action_append(s, &a), STORE_NOTFOUND);
	fill_action(&a, game, 4, alice, "d4", st1, sig1);
	snprintf(a.source, sizeof a.source, "fax");
	assert_int_equal(store_action_append(s, &a), STORE_ERROR);

	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_action_list(s, game, collect_action, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 3);
	assert_string_equal(seen.a[1].move, "e5");
	store_close(s);
}

/* A conditional: one active per player and game, counted, ended, and the
 * move played from it linked in the record. */
static void
test_conditionals(void **state)
{
	struct store			*s;
	struct store_conditional	 c, got;
	struct store_action		 a;
	struct actions_seen		 seen;
	int64_t				 alice, bob, game;
	char				 stmt[] = "corrchess-v1\ngame: 1\nply: 1\n"
					     "player: alice\naction: "
					     "conditional e5 Nf3\n";
	char				 sig[] = "signature: AAAA";
	char				 lines[] = "e5 Nf3";

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	game = add_game(s, alice, bob);
	assert_int_equal(store_conditional_active(s, game, alice, &got),
	    STORE_NOTFOUND);

	memset(&c, 0, sizeof c);
	c.game_id = game;
	c.player_id = alice;
	c.ply = 1;
	c.lines = lines;
	c.statement = stmt;
	c.signature = sig;
	snprintf(c.source, sizeof c.source, "http");
	c.created = 1700000300;
	assert_int_equal(store_conditional_add(s, &c), STORE_OK);
	assert_true(c.id > 0);
	/* A second active one for the same player and game is refused. */
	assert_int_equal(store_conditional_add(s, &c), STORE_EXISTS);
	assert_int_equal(store_conditional_active(s, game, bob, &got),
	    STORE_NOTFOUND);

	assert_int_equal(store_conditional_active(s, game, alice, &got),
	    STORE_OK);
	assert_int_equal(got.id, c.id);
	assert_int_equal(got.ply, 1);
	assert_string_equal(got.lines, "e5 Nf3");
	assert_string_equal(got.statement, stmt);
	assert_string_equal(got.signature, sig);
	assert_string_equal(got.status, "active");
	assert_int_equal(got.played, 0);
	store_conditional_clear(&got);

	/* Its answer is played: the record links to it. */
	fill_action(&a, game, 1, alice, "Nf3", stmt, sig);
	snprintf(a.kind, sizeof a.kind, "conditional-move");
	a.conditional_id = c.id;
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	assert_int_equal(store_conditional_played(s, c.id), STORE_OK);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_action_list(s, game, collect_action, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.a[0].conditional_id, c.id);
	assert_string_equal(seen.a[0].kind, "conditional-move");

	assert_int_equal(store_conditional_active(s, game, alice, &got),
	    STORE_OK);
	assert_int_equal(got.played, 1);
	store_conditional_clear(&got);
	assert_int_equal(store_conditional_end(s, c.id, "cancelled",
	    "cancelled by the player", 1700000400), STORE_OK);
	assert_int_equal(store_conditional_end(s, c.id, "ended", "", 1),
	    STORE_NOTFOUND);
	assert_int_equal(store_conditional_end(s, c.id, "gone", "", 1),
	    STORE_ERROR);
	assert_int_equal(store_conditional_active(s, game, alice, &got),
	    STORE_NOTFOUND);
	/* Once ended, a new one may be added. */
	assert_int_equal(store_conditional_add(s, &c), STORE_OK);
	store_conditional_clear(NULL);
	assert_int_equal(store_integrity_check(s), STORE_OK);
	store_close(s);
}

/* Rollback drops what it should and keeps what was committed. */
static void
test_rollback(void **state)
{
	struct store		*s;
	struct store_player	 p;
	struct store_game	 g;
	struct store_action	 a;
	int64_t			 alice, bob, game;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	assert_int_equal(store_begin(s), STORE_OK);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	game = add_game(s, alice, bob);
	assert_int_equal(store_commit(s), STORE_OK);

	assert_int_equal(store_begin(s), STORE_OK);
	add_player(s, "carol");
	fill_action(&a, game, 1, alice, "e4", NULL, NULL);
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	g.ply = 1;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	/* A failed statement inside leaves the transaction usable. */
	assert_int_equal(store_action_append(s, &a), STORE_EXISTS);
	assert_int_equal(store_rollback(s), STORE_OK);

	assert_int_equal(store_player_get_by_name(s, "alice", &p), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "carol", &p),
	    STORE_NOTFOUND);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_int_equal(g.ply, 0);
	assert_int_equal(store_action_get(s, game, 1, &a), STORE_NOTFOUND);

	/* Commit without begin is an error, not a crash. */
	assert_int_equal(store_commit(s), STORE_ERROR);
	store_close(s);
}

/*
 * Work after a failed INSERT is kept at the commit; a failure the engine
 * reports late (PostgreSQL's pipeline) is reported by the commit at the
 * latest, and then nothing of the transaction is kept.
 */
static void
test_failure_kept(void **state)
{
	struct store		*s;
	struct store_player	 p;
	struct store_action	 a;
	enum store_status	 released, committed;
	int64_t			 bob;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	(void)add_first_move(s, &a, &bob);

	/* A job's savepoint, a failed INSERT in it, more work, the commit. */
	assert_int_equal(store_begin(s), STORE_OK);
	assert_int_equal(store_savepoint(s), STORE_OK);
	assert_int_equal(store_action_append(s, &a), STORE_EXISTS);
	add_player(s, "carol");
	assert_int_equal(store_release(s), STORE_OK);
	assert_int_equal(store_savepoint(s), STORE_OK);
	add_player(s, "dave");
	assert_int_equal(store_rollback_to(s), STORE_OK);
	assert_int_equal(store_commit(s), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "carol", &p), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "dave", &p),
	    STORE_NOTFOUND);

	/* A release without its savepoint fails, then or at the commit. */
	assert_int_equal(store_begin(s), STORE_OK);
	add_player(s, "erin");
	released = store_release(s);
	committed = store_commit(s);
	assert_false(released == STORE_OK && committed == STORE_OK);
	if (committed != STORE_OK)
		assert_int_equal(store_rollback(s), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "erin", &p),
	    committed == STORE_OK ? STORE_OK : STORE_NOTFOUND);
	/* The handle goes on. */
	assert_int_equal(store_begin(s), STORE_OK);
	add_player(s, "frank");
	assert_int_equal(store_commit(s), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "frank", &p), STORE_OK);
	store_close(s);
}

/*
 * Writes sent ahead (the writer's mode): on PostgreSQL a failed append is
 * reported by the next statement that waits, and nothing of the
 * transaction is kept, not even the work before it that went well; on
 * SQLite it fails at once and the transaction goes on. Outside a
 * transaction it fails at once on both.
 */
static void
test_writes_ahead(void **state)
{
	struct store		*s;
	struct store_player	 p;
	struct store_action	 a, b;
	struct store_game	 g;
	enum store_status	 appended, read;
	bool			 pg;
	int64_t			 bob, game;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	pg = strcmp(store_engine_name(s), "postgresql") == 0;
	store_send_writes_ahead(s, true);
	game = add_first_move(s, &a, &bob);
	/* Outside a transaction: at once, on both engines. */
	assert_int_equal(store_action_append(s, &a), STORE_EXISTS);

	/* Work that went well, a move sent ahead, the same seq again. */
	assert_int_equal(store_begin(s), STORE_OK);
	assert_int_equal(store_savepoint(s), STORE_OK);
	add_player(s, "carol");
	fill_action(&b, game, 2, bob, "e5", NULL, NULL);
	assert_int_equal(store_action_append(s, &b), STORE_OK);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	g.ply = 2;
	assert_int_equal(store_game_update_play(s, &g), STORE_OK);
	assert_int_equal(store_release(s), STORE_OK);
	assert_int_equal(store_savepoint(s), STORE_OK);
	appended = store_action_append(s, &b);
	assert_int_equal(appended, pg ? STORE_OK : STORE_EXISTS);
	/* The next statement that waits says what failed. */
	read = store_game_get(s, game, &g);
	if (pg) {
		assert_int_equal(read, STORE_EXISTS);
		assert_non_null(strstr(store_errmsg(s), "duplicate key"));
		assert_non_null(strstr(store_errmsg(s), "undone"));
		assert_false(store_in_transaction(s));
		assert_int_equal(store_commit(s), STORE_ERROR);
		assert_int_equal(store_rollback(s), STORE_OK);
	} else {
		assert_int_equal(read, STORE_OK);
		assert_int_equal(store_rollback_to(s), STORE_OK);
		assert_int_equal(store_commit(s), STORE_OK);
	}
	/* Nothing of it kept on PostgreSQL; the first job's work on SQLite. */
	assert_int_equal(store_player_get_by_name(s, "carol", &p),
	    pg ? STORE_NOTFOUND : STORE_OK);
	assert_int_equal(store_action_get(s, game, 2, &b),
	    pg ? STORE_NOTFOUND : STORE_OK);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_int_equal(g.ply, pg ? 0 : 2);

	/* A failure sent ahead and found by the commit: nothing kept. */
	assert_int_equal(store_begin(s), STORE_OK);
	add_player(s, "dave");
	fill_action(&b, game, 1, bob, "e5", NULL, NULL);
	appended = store_action_append(s, &b);
	assert_int_equal(appended, pg ? STORE_OK : STORE_EXISTS);
	if (pg)
		assert_int_not_equal(store_commit(s), STORE_OK);
	assert_int_equal(store_rollback(s), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "dave", &p),
	    STORE_NOTFOUND);
	/* The handle goes on. */
	assert_int_equal(store_begin(s), STORE_OK);
	add_player(s, "erin");
	assert_int_equal(store_commit(s), STORE_OK);
	assert_int_equal(store_player_get_by_name(s, "erin", &p), STORE_OK);
	store_close(s);
}

/*
 * Several games read at once read what each read alone reads: the row,
 * the active conditional, the signing key (valid, revoked or none); a
 * game that is not there is STORE_NOTFOUND, and a game asked twice is
 * answered twice.
 */
static void
test_game_get_actions(void **state)
{
	struct store			*s;
	struct store_key		 k1, k2, key;
	struct store_conditional	 c;
	struct store_game		 row;
	struct store_game_action	 v[6];
	char				 lines[] = "e4 e5", stmt[] = "s",
					 sig[] = "g";
	bool				 conds;
	int64_t				 alice, bob, g1, g2, g3;
	size_t				 i;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	g1 = add_game(s, alice, bob);
	g2 = add_game(s, bob, alice);
	g3 = add_game(s, alice, bob);
	memset(&k1, 0, sizeof k1);
	k1.player_id = alice;
	memset(k1.pubkey, 0x11, sizeof k1.pubkey);
	k1.added = 1700000010;
	assert_int_equal(store_key_add(s, &k1), STORE_OK);
	k2 = k1;
	k2.player_id = bob;
	memset(k2.pubkey, 0x22, sizeof k2.pubkey);
	assert_int_equal(store_key_add(s, &k2), STORE_OK);
	assert_int_equal(store_key_revoke(s, k2.id, 1700000500), STORE_OK);
	memset(&c, 0, sizeof c);
	c.game_id = g2;
	c.player_id = bob;
	c.ply = 0;
	c.lines = lines;
	c.statement = stmt;
	c.signature = sig;
	snprintf(c.source, sizeof c.source, "http");
	c.created = 1700000300;
	assert_int_equal(store_conditional_add(s, &c), STORE_OK);

	memset(v, 0, sizeof v);
	v[0].id = g3, v[0].key_id = k1.id;
	v[1].id = g2, v[1].key_id = k2.id;	/* revoked; a conditional */
	v[2].id = g1 + 1000, v[2].key_id = k1.id;	/* no such game */
	v[3].id = g1, v[3].key_id = 0;		/* no key */
	v[4].id = g1, v[4].key_id = k2.id + 1000;	/* no such key */
	v[5].id = g3, v[5].key_id = k2.id;	/* the same game again */
	assert_int_equal(store_game_get_actions(s, v, 6), STORE_OK);
	for (i = 0; i < 6; i++) {
		assert_int_equal(v[i].status, store_game_get_action(s,
		    v[i].id, v[i].key_id, &row, &conds, &key));
		if (v[i].status != STORE_OK)
			continue;
		assert_int_equal(v[i].row.id, row.id);
		assert_string_equal(v[i].row.white_name, row.white_name);
		assert_string_equal(v[i].row.black_name, row.black_name);
		assert_string_equal(v[i].row.fen, row.fen);
		assert_int_equal(v[i].row.ply, row.ply);
		assert_memory_equal(v[i].row.head, row.head, sizeof row.head);
		assert_int_equal(v[i].conditionals, conds);
		assert_int_equal(v[i].key.id, key.id);
		assert_int_equal(v[i].key.player_id, key.player_id);
		assert_int_equal(v[i].key.revoked, key.revoked);
	}
	/* What each read says, spelled out. */
	assert_int_equal(v[2].status, STORE_NOTFOUND);
	assert_int_equal(v[0].row.id, g3);
	assert_int_equal(v[5].row.id, g3);
	assert_int_equal(v[0].key.id, k1.id);
	assert_int_equal(v[0].key.player_id, alice);
	assert_int_equal(v[0].key.revoked, 0);
	assert_false(v[0].conditionals);
	assert_true(v[1].conditionals);
	assert_int_equal(v[1].key.revoked, 1700000500);
	assert_int_equal(v[3].key.id, 0);
	assert_int_equal(v[4].key.id, 0);
	assert_int_equal(v[5].key.player_id, bob);
	/* None asked: nothing read. */
	assert_int_equal(store_game_get_actions(s, v, 0), STORE_OK);
	store_close(s);
}

/* Put a little of everything in a store. */
static void
fill_store(struct store *s, int64_t *gamep)
{
	struct store_key	k;
	struct store_action	a;
	struct store_game	g;
	int64_t			alice, bob;
	char			st[] = "corrchess-v1\ngame: 1\nply: 0\n"
				    "player: alice\naction: move e4\n";
	char			sig[] = "signature: QUJD";

	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	memset(&k, 0, sizeof k);
	k.player_id = alice;
	memset(k.pubkey, 0x77, sizeof k.pubkey);
	k.added = 1700000001;
	assert_int_equal(store_key_add(s, &k), STORE_OK);
	*gamep = add_game(s, alice, bob);
	assert_int_equal(store_begin(s), STORE_OK);
	fill_action(&a, *gamep, 1, alice, "e4", st, sig);
	a.key_id = k.id;
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	assert_int_equal(store_game_get(s, *gamep, &g), STORE_OK);
	g.ply = 1;
	g.turn = 1;
	memcpy(g.head, a.hash, sizeof g.head);
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	assert_int_equal(store_commit(s), STORE_OK);
}

/* Check what fill_store() stored. */
static void
check_store(struct store *s, int64_t game)
{
	struct store_player	p;
	struct store_key	k;
	struct store_game	g;
	struct store_action	a;
	uint8_t			pub[STORE_PUBKEY_LEN];

	assert_int_equal(store_player_get_by_name(s, "bob", &p), STORE_OK);
	memset(pub, 0x77, sizeof pub);
	assert_int_equal(store_key_find(s, pub, &k, &p), STORE_OK);
	assert_string_equal(p.name, "alice");
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_int_equal(g.ply, 1);
	assert_int_equal(store_action_get(s, game, 1, &a), STORE_OK);
	assert_int_equal(a.key_id, k.id);
	assert_memory_equal(g.head, a.hash, STORE_HASH_LEN);
	assert_string_equal(a.signature, "signature: QUJD");
	store_action_clear(&a);
}

/*
 * Run one statement on the database at path behind the store's back;
 * true when the engine took it.
 */
static bool
raw_try(const char *path, const char *sql)
{
	sqlite3	*db;
	bool	 ok;

#ifdef HAVE_POSTGRESQL
	if (test_pg() != NULL) {
		PGconn		*c;
		PGresult	*r;

		c = PQconnectdb(path + strlen("postgresql:"));
		if (PQstatus(c) != CONNECTION_OK)
			fail_msg("PostgreSQL: %s", PQerrorMessage(c));
		PQsetNoticeProcessor(c, test_pg_quiet, NULL);
		r = PQexec(c, sql);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
		PQfinish(c);
		return ok;
	}
#endif
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	ok = sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	return ok;
}

/*
 * The rows of games and actions keep their checks on both engines
 * (PostgreSQL's as domains since schema 20): each value out of range is
 * refused and changes nothing; the values in range are taken.
 */
static void
test_row_checks(void **state)
{
	/* A statement ending in "= " is given a 2-byte blob. */
	static const char *const bad[] = {
		"UPDATE games SET chess960 = 960",
		"UPDATE games SET chess960 = -1",
		"UPDATE games SET status = 'paused'",
		"UPDATE games SET result = '2-0'",
		"UPDATE games SET ply = -1",
		"UPDATE games SET turn = 2",
		"UPDATE games SET draw_offer = -1",
		"UPDATE games SET head = ",
		"UPDATE actions SET seq = 0",
		"UPDATE actions SET ply = -1",
		"UPDATE actions SET prev_hash = ",
		"UPDATE actions SET hash = ",
	};
	static const char *const good[] = {
		"UPDATE games SET chess960 = 959",
		"UPDATE games SET chess960 = 0",
		"UPDATE games SET chess960 = NULL",
		"UPDATE games SET status = 'finished', result = '1/2-1/2'",
		"UPDATE games SET ply = 0, turn = 1, draw_offer = NULL",
		"UPDATE games SET draw_offer = 1",
		"UPDATE actions SET seq = 1, ply = 0",
	};
	struct tmpdir		 t;
	struct store		*s;
	struct store_game	 g;
	struct store_action	 a;
	const char		*blob;
	char			 sql[128];
	int64_t			 bob, game;
	size_t			 i;

	(void)state;
	tmp_make(&t);
	blob = test_pg() != NULL ? "'\\x0102'::bytea" : "x'0102'";
	s = open_or_fail(t.db, NULL);
	game = add_first_move(s, &a, &bob);

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(sql, sizeof sql, "%s%s", bad[i],
		    bad[i][strlen(bad[i]) - 1] == ' ' ? blob : "");
		if (raw_try(t.db, sql))
			fail_msg("taken: %s", sql);
	}
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_int_equal(g.chess960, -1);
	assert_string_equal(g.status, "ongoing");
	assert_string_equal(g.result, "*");
	assert_int_equal(g.ply, 0);
	assert_int_equal(store_action_get(s, game, 1, &a), STORE_OK);
	assert_int_equal(a.ply, 0);
	assert_memory_equal(a.hash + 1, "\001\001\001", 3);
	store_action_clear(&a);

	for (i = 0; i < sizeof good / sizeof good[0]; i++)
		if (!raw_try(t.db, good[i]))
			fail_msg("refused: %s", good[i]);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_string_equal(g.status, "finished");
	assert_int_equal(g.turn, 1);
	assert_int_equal(g.draw_offer, 1);
	store_close(s);
	tmp_remove(&t);
}

/* A file keeps everything across close and reopen. */
static void
test_reopen(void **state)
{
	struct tmpdir	 t;
	struct store	*s;
	int64_t		 game;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	fill_store(s, &game);
	store_close(s);

	s = open_or_fail(t.db, NULL);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	check_store(s, game);
	assert_int_equal(store_integrity_check(s), STORE_OK);
	store_close(s);
	tmp_remove(&t);
}

/* The second writer of the serialisation test. */
struct writer {
	const char		*path;
	int64_t			 game;
	volatile int		 started;	/* about to begin */
	volatile int		 began;		/* got the write lock */
	enum store_status	 begin_status;
	int			 ply_seen;
	enum store_status	 append_status;
	enum store_status	 commit_status;
};

static void *
second_writer(void *arg)
{
	struct writer		*w = arg;
	struct store		*s;
	struct store_game	 g;
	struct store_action	 a;

	s = open_or_fail(w->path, NULL);
	__atomic_store_n(&w->started, 1, __ATOMIC_SEQ_CST);
	w->begin_status = store_begin(s);
	__atomic_store_n(&w->began, 1, __ATOMIC_SEQ_CST);
	if (w->begin_status != STORE_OK)
		goto out;
	if (store_game_get(s, w->game, &g) != STORE_OK)
		goto out;
	w->ply_seen = g.ply;
	/* Append at the ply it saw: after the first writer, seq 2. */
	fill_action(&a, w->game, g.ply + 1, g.black, "e5", NULL, NULL);
	w->append_status = store_action_append(s, &a);
	g.ply++;
	store_game_update(s, &g);
	w->commit_status = store_commit(s);
out:
	store_close(s);
	return NULL;
}

/*
 * Two handles on one file: the second writer waits in store_begin() while
 * the first holds its transaction, then sees the first one's move.
 */
static void
test_two_writers(void **state)
{
	struct tmpdir		 t;
	struct store		*s;
	struct store_game	 g;
	struct store_action	 a;
	struct writer		 w;
	pthread_t		 th;
	int64_t			 alice, bob;
	int			 i;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	memset(&w, 0, sizeof w);
	w.path = t.db;
	w.game = add_game(s, alice, bob);
	w.ply_seen = -1;

	/* First writer: load, check ply, append, update; not committed. */
	assert_int_equal(store_begin(s), STORE_OK);
	assert_int_equal(store_game_get(s, w.game, &g), STORE_OK);
	assert_int_equal(g.ply, 0);
	fill_action(&a, w.game, 1, alice, "e4", NULL, NULL);
	assert_int_equal(store_action_append(s, &a), STORE_OK);
	g.ply = 1;
	assert_int_equal(store_game_update(s, &g), STORE_OK);

	assert_int_equal(pthread_create(&th, NULL, second_writer, &w), 0);
	while (!__atomic_load_n(&w.started, __ATOMIC_SEQ_CST))
		usleep(1000);
	/* Give it every chance to get past store_begin() if it could. */
	for (i = 0; i < 20; i++) {
		usleep(5000);
		assert_int_equal(__atomic_load_n(&w.began, __ATOMIC_SEQ_CST),
		    0);
	}
	assert_int_equal(store_commit(s), STORE_OK);
	assert_int_equal(pthread_join(th, NULL), 0);

	assert_int_equal(w.begin_status, STORE_OK);
	assert_int_equal(w.ply_seen, 1);
	assert_int_equal(w.append_status, STORE_OK);
	assert_int_equal(w.commit_status, STORE_OK);
	assert_int_equal(store_game_get(s, w.game, &g), STORE_OK);
	assert_int_equal(g.ply, 2);
	assert_int_equal(store_action_get(s, w.game, 2, &a), STORE_OK);
	assert_string_equal(a.move, "e5");
	store_action_clear(&a);
	store_close(s);
	tmp_remove(&t);
}

/* One of several writers each playing moves on the same game. */
struct mover {
	const char		*path;
	int64_t			 game;
	int			 moves;
	int			 done;
	enum store_status	 failed;	/* first failure, or STORE_OK */
	char			 why[256];
};

static void *
mover(void *arg)
{
	struct mover		*m = arg;
	struct store_options	 opts = { .sync = STORE_SYNC_NORMAL,
	    .busy_timeout_ms = 30000 };
	struct store		*s;
	struct store_game	 g;
	struct store_action	 a;
	enum store_status	 st;
	char			 err[256];

	if ((s = store_open_with(m->path, &opts, err, sizeof err)) == NULL) {
		m->failed = STORE_ERROR;
		snprintf(m->why, sizeof m->why, "%s", err);
		return NULL;
	}
	for (m->done = 0; m->done < m->moves; m->done++) {
		if ((st = store_begin(s)) != STORE_OK ||
		    (st = store_game_get(s, m->game, &g)) != STORE_OK)
			goto fail;
		fill_action(&a, m->game, g.ply + 1, g.white, "Nf3", NULL,
		    NULL);
		memcpy(a.prev_hash, g.head, sizeof a.prev_hash);
		if ((st = store_action_append(s, &a)) != STORE_OK)
			goto fail;
		g.ply++;
		memcpy(g.head, a.hash, sizeof g.head);
		if ((st = store_game_update(s, &g)) != STORE_OK ||
		    (st = store_commit(s)) != STORE_OK)
			goto fail;
	}
	store_close(s);
	return NULL;
fail:
	m->failed = st;
	snprintf(m->why, sizeof m->why, "%s", store_errmsg(s));
	store_close(s);
	return NULL;
}

/* Records that chain: each prev_hash is the hash before it. */
struct chain {
	int	n;
	int	broken;
	uint8_t	last[STORE_HASH_LEN];
};

static int
check_chain(void *arg, const struct store_action *a)
{
	struct chain	*c = arg;

	if (a->seq != c->n + 1 || a->ply != c->n ||
	    (c->n > 0 && memcmp(a->prev_hash, c->last, STORE_HASH_LEN) != 0))
		c->broken++;
	memcpy(c->last, a->hash, STORE_HASH_LEN);
	c->n++;
	return 0;
}

/*
 * Four threads, each with its own handle, play moves on one game with the
 * load-check-append-update transaction: none is lost or applied twice.
 */
static void
test_concurrent_moves(void **state)
{
	struct tmpdir		 t;
	struct store		*s;
	struct store_game	 g;
	struct mover		 m[4];
	struct chain		 c;
	pthread_t		 th[4];
	int64_t			 alice, bob, game;
	int			 i;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	alice = add_player(s, "alice");
	bob = add_player(s, "bob");
	game = add_game(s, alice, bob);
	for (i = 0; i < 4; i++) {
		memset(&m[i], 0, sizeof m[i]);
		m[i].path = t.db;
		m[i].game = game;
		m[i].moves = 40;
		assert_int_equal(pthread_create(&th[i], NULL, mover, &m[i]),
		    0);
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		if (m[i].failed != STORE_OK)
			fail_msg("writer %d after %d moves: %s: %s", i,
			    m[i].done, store_status_name(m[i].failed),
			    m[i].why);
	}
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	assert_int_equal(g.ply, 160);
	memset(&c, 0, sizeof c);
	assert_int_equal(store_action_list(s, game, check_chain, &c),
	    STORE_OK);
	assert_int_equal(c.n, 160);
	assert_int_equal(c.broken, 0);
	assert_memory_equal(g.head, c.last, STORE_HASH_LEN);
	store_close(s);
	tmp_remove(&t);
}

/* With a short busy timeout a blocked writer gets STORE_BUSY. */
static void
test_busy(void **state)
{
	struct tmpdir		 t;
	struct store		*s1, *s2;
	struct store_options	 quick = { .busy_timeout_ms = 20 };
	struct store_player	 p;

	(void)state;
	tmp_make(&t);
	s1 = open_or_fail(t.db, NULL);
	s2 = open_or_fail(t.db, &quick);
	add_player(s1, "alice");
	assert_int_equal(store_begin(s1), STORE_OK);
	add_player(s1, "bob");
	assert_int_equal(store_begin(s2), STORE_BUSY);
	/* Readers are not blocked, and see only committed data. */
	assert_int_equal(store_player_get_by_name(s2, "alice", &p), STORE_OK);
	assert_int_equal(store_player_get_by_name(s2, "bob", &p),
	    STORE_NOTFOUND);
	assert_int_equal(store_commit(s1), STORE_OK);
	assert_int_equal(store_player_get_by_name(s2, "bob", &p), STORE_OK);
	assert_int_equal(store_begin(s2), STORE_OK);
	assert_int_equal(store_rollback(s2), STORE_OK);
	store_close(s2);
	store_close(s1);
	tmp_remove(&t);
}

/* Does the database hold an index of this name? -1 on error. */
static int
has_index(const char *path, const char *name)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*st = NULL;
	int		 found = -1;

#ifdef HAVE_POSTGRESQL
	if (store_target_is_pg(path))
		return test_pg_run(path, "SELECT count(*) FROM pg_indexes "
		    "WHERE schemaname = current_schema() AND indexname = $1",
		    name) > 0;
#endif
	if (sqlite3_open(path, &db) != SQLITE_OK)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'index' AND name = ?1", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		found = sqlite3_column_int(st, 0) > 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return found;
}

/* A version 1 file is upgraded to the latest on open, keeping its data. */
static void
test_migrate_from_v1(void **state)
{
	struct tmpdir		 t;
	struct store		*s;
	struct store_options	 v1 = { .schema_version = 1 };
	struct store_game	 g;
	struct games_seen	 seen;
	int64_t			 game;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, &v1);
	assert_int_equal(store_schema_version(s), 1);
	fill_store(s, &game);
	assert_int_equal(store_game_get(s, game, &g), STORE_OK);
	g.deadline = 50;
	assert_int_equal(store_game_update(s, &g), STORE_OK);
	/* Listing due games works without the v2 index, only slower. */
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_game_list_due(s, 100, 0, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	store_close(s);
	assert_int_equal(has_index(t.db, "games_deadline"), 0);

	/* Opening an older file with an older target changes nothing. */
	s = open_or_fail(t.db, &v1);
	assert_int_equal(store_schema_version(s), 1);
	store_close(s);

	s = open_or_fail(t.db, NULL);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	check_store(s, game);
	memset(&seen, 0, sizeof seen);
	assert_int_equal(store_game_list_due(s, 100, 0, collect_game, &seen),
	    STORE_OK);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ids[0], game);
	assert_int_equal(store_integrity_check(s), STORE_OK);
	store_close(s);
	assert_int_equal(has_index(t.db, "games_deadline"), 1);

	/* Once migrated, opening again is a no-op. */
	s = open_or_fail(t.db, NULL);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	check_store(s, game);
	store_close(s);
	tmp_remove(&t);
}

/* Count the shared keys store_key_duplicates() reports; keep the names. */
struct dups {
	int	n;
	char	names[128];
};

/* Collect one shared key. */
static int
collect_dup(void *arg, const uint8_t pubkey[STORE_PUBKEY_LEN],
    const char *players)
{
	struct dups	*d = arg;

	(void)pubkey;
	d->n++;
	snprintf(d->names, sizeof d->names, "%s", players);
	return 0;
}

/*
 * A key belongs to one player: a version 6 file that has a key shared by
 * two players keeps both rows when it is upgraded, reports them, and no
 * new key is shared after.
 */
static void
test_migrate_shared_keys(void **state)
{
	struct tmpdir		 t;
	struct store		*s;
	struct store_options	 v6 = { .schema_version = 6 };
	struct store_key	 k;
	struct dups		 d;
	char			 owner[STORE_NAME_SIZE];
	int64_t			 bob, dave, carol;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, &v6);
	bob = add_player(s, "bob");
	dave = add_player(s, "dave");
	carol = add_player(s, "carol");
	memset(&k, 0, sizeof k);
	memset(k.pubkey, 0x42, sizeof k.pubkey);
	k.player_id = bob;
	k.added = 1;
	assert_int_equal(store_key_add(s, &k), STORE_OK);
	k.player_id = dave;
	assert_int_equal(store_key_add(s, &k), STORE_OK);
	store_close(s);

	s = open_or_fail(t.db, NULL);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	memset(&d, 0, sizeof d);
	assert_int_equal(store_key_duplicates(s, collect_dup, &d), STORE_OK);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.names, "bob, dave");
	assert_int_equal(store_key_owner(s, k.pubkey, bob, owner), STORE_OK);
	assert_string_equal(owner, "dave");
	assert_int_equal(store_key_owner(s, k.pubkey, carol, owner), STORE_OK);
	/* A third player cannot have it; its owners keep it. */
	k.player_id = carol;
	assert_int_equal(store_key_add(s, &k), STORE_ERROR);
	assert_non_null(strstr(store_errmsg(s), "another player"));
	k.player_id = bob;
	assert_int_equal(store_key_add(s, &k), STORE_ERROR);
	memset(k.pubkey, 0x43, sizeof k.pubkey);
	assert_int_equal(store_key_add(s, &k), STORE_OK);
	assert_int_equal(store_key_owner(s, k.pubkey, bob, owner),
	    STORE_NOTFOUND);
	assert_int_equal(store_key_get(s, k.id, &k), STORE_OK);
	assert_int_equal(k.player_id, bob);
	memset(&d, 0, sizeof d);
	assert_int_equal(store_key_duplicates(s, collect_dup, &d), STORE_OK);
	assert_int_equal(d.n, 1);
	store_close(s);
	tmp_remove(&t);
}

/* Run one SQL text on a file behind the store's back. */
static void
raw_exec(const char *path, const char *sql)
{
	sqlite3	*db = NULL;
	char	*msg = NULL;

#ifdef HAVE_POSTGRESQL
	if (store_target_is_pg(path)) {
		test_pg_run(path, sql, NULL);
		return;
	}
#endif
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(db);
}

/* A file from a newer program is refused, not downgraded. */
static void
test_newer_schema(void **state)
{
	struct tmpdir	 t;
	struct store	*s;
	char		 err[256] = "";

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	store_close(s);
	raw_exec(t.db, "UPDATE schema_version SET version = 99");
	assert_null(store_open(t.db, err, sizeof err));
	assert_non_null(strstr(err, "newer"));
	tmp_remove(&t);
}

/* The online backup is a complete database that passes integrity_check. */
static void
test_backup(void **state)
{
	struct tmpdir	 t;
	struct store	*s, *b;
	char		 path[400], tmp[420];
	int64_t		 game;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	fill_store(s, &game);
	snprintf(path, sizeof path, "%s/backup.db", t.dir);
	assert_int_equal(store_backup(s, path), STORE_OK);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	assert_int_equal(access(tmp, F_OK), -1);

	/* Inside a transaction the backup is refused. */
	assert_int_equal(store_begin(s), STORE_OK);
	assert_int_equal(store_backup(s, path), STORE_ERROR);
	assert_int_equal(store_rollback(s), STORE_OK);
	store_close(s);

	b = open_or_fail(path, NULL);
	assert_int_equal(store_integrity_check(b), STORE_OK);
	assert_int_equal(store_schema_version(b), STORE_SCHEMA_VERSION);
	check_store(b, game);
	store_close(b);

	/* From memory too. */
	s = open_or_fail(mem_db(), NULL);
	fill_store(s, &game);
	snprintf(path, sizeof path, "%s/memory.db", t.dir);
	assert_int_equal(store_backup(s, path), STORE_OK);
	store_close(s);
	b = open_or_fail(path, NULL);
	assert_int_equal(store_integrity_check(b), STORE_OK);
	check_store(b, game);
	store_close(b);
	tmp_remove(&t);
}

/* The integrity check reports a dangling reference written behind its back. */
static void
test_integrity_fault(void **state)
{
	struct tmpdir	 t;
	struct store	*s;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	add_player(s, "alice");
	store_close(s);
	raw_exec(t.db, "INSERT INTO player_keys (player_id, pubkey, added) "
	    "VALUES (77, zeroblob(32), 0)");
	s = open_or_fail(t.db, NULL);
	assert_int_equal(store_integrity_check(s), STORE_ERROR);
	assert_non_null(strstr(store_errmsg(s), "player_keys"));
	store_close(s);
	tmp_remove(&t);
}

/*
 * An action whose player or key is missing, written behind the store's
 * back, is reported by the integrity check on both engines (PostgreSQL
 * keeps neither as a foreign key since schema 21; SQLite's connection here
 * does not enforce its keys). Put right, the check passes again.
 */
static void
test_action_refs(void **state)
{
	static const struct {
		const char	*sql;
		const char	*missing;
		const char	*fix;
	} faults[] = {
		{ "UPDATE actions SET key_id = 999", "missing player_keys",
		  "UPDATE actions SET key_id = NULL" },
		{ "UPDATE actions SET player_id = 999", "missing players",
		  "UPDATE actions SET player_id = (SELECT min(id) FROM players)" },
	};
	struct tmpdir		 t;
	struct store		*s;
	struct store_action	 a;
	int64_t			 bob;
	size_t			 i;

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	(void)add_first_move(s, &a, &bob);
	assert_int_equal(store_integrity_check(s), STORE_OK);

	for (i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		raw_exec(t.db, faults[i].sql);
		assert_int_equal(store_integrity_check(s), STORE_ERROR);
		if (strstr(store_errmsg(s), faults[i].missing) == NULL)
			fail_msg("%s: %s", faults[i].sql, store_errmsg(s));
		raw_exec(t.db, faults[i].fix);
		assert_int_equal(store_integrity_check(s), STORE_OK);
	}
	store_close(s);
	tmp_remove(&t);
}

/*
 * Statements whose plan must use a given index: without statistics SQLite
 * may prefer a low-selectivity index (games by status) that saves a sort
 * but visits every ongoing game. Checked on SQLite: PostgreSQL's choice
 * among such indexes follows the statistics it gathers on its own.
 */
static const struct {
	const char	*stmt;
	const char	*index;
} required_index[] = {
	{ "player-by-name", "sqlite_autoindex_players_1" },
	{ "key-find", "player_keys_pubkey" },
	{ "game-list-status", "games_status" },
	{ "game-list-player", "games_white" },
	{ "game-list-player", "games_black" },
	{ "game-list-player-status", "games_white" },
	{ "game-list-player-status", "games_black" },
	{ "game-due", "games_deadline" },
	{ "action-list", "sqlite_autoindex_actions_1" },
	{ "action-get", "sqlite_autoindex_actions_1" },
};
#define NREQUIRED (sizeof required_index / sizeof required_index[0])

/*
 * Walks PostgreSQL takes in a new database and leaves with the first
 * statistics of the table (autovacuum's ANALYZE): until then a partial
 * index of the active conditionals costs what the lookup by primary key
 * does, and the walk is of the active ones alone.
 */
static const struct {
	const char	*stmt;
	const char	*index;
} pg_young_walk[] = {
	{ "conditional-played", "conditionals_active" },
	{ "conditional-end", "conditionals_active" },
	{ "conditional-end-by-key", "conditionals_active" },
};

struct plans {
	bool	pg;
	int	lines;
	int	bad;
	char	first_bad[256];
	bool	found[NREQUIRED];
};

static void
check_plan(void *arg, const char *name, bool indexed, const char *plan,
    bool walk)
{
	struct plans	*p = arg;
	char		 used[80];
	size_t		 i;

	p->lines++;
	for (i = 0; i < NREQUIRED && !p->pg; i++) {
		snprintf(used, sizeof used, "INDEX %s ", required_index[i].index);
		if (strcmp(name, required_index[i].stmt) == 0 &&
		    strstr(plan, used) != NULL)
			p->found[i] = true;
	}
	if (p->pg) {
		for (i = 0; i < sizeof pg_young_walk / sizeof pg_young_walk[0];
		    i++) {
			snprintf(used, sizeof used, "using %s on ",
			    pg_young_walk[i].index);
			if (strcmp(name, pg_young_walk[i].stmt) == 0 &&
			    strstr(plan, used) != NULL)
				return;
		}
	}
	/* A walk of a whole table or index costs what it walks. */
	if (indexed && walk && p->bad++ == 0)
		snprintf(p->first_bad, sizeof p->first_bad, "%s: %s", name,
		    plan);
}

/*
 * Every lookup goes by a key or a selective index, whatever the sizes: on
 * SQLite as its planner sees this database, on PostgreSQL in the generic
 * plan each prepared statement comes to reuse (whose guesses do not look
 * at the parameters: a JSON array of pairs is taken for 100 of them) in
 * a new database, whose tables have no statistics yet.
 */
static void
test_query_plans(void **state)
{
	struct store		*s;
	struct store_key	 k;
	struct plans		 p;
	char			 name[16];
	int64_t			 player[40];
	size_t			 i;

	(void)state;
	s = open_or_fail(mem_db(), NULL);
	assert_int_equal(store_begin(s), STORE_OK);
	memset(&k, 0, sizeof k);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof name, "p%zu", i);
		player[i] = add_player(s, name);
		k.player_id = player[i];
		memset(k.pubkey, (int)i + 1, sizeof k.pubkey);
		k.added = 1700000010;
		assert_int_equal(store_key_add(s, &k), STORE_OK);
	}
	for (i = 0; i < 200; i++)
		add_game(s, player[i % 40], player[(i + 1) % 40]);
	assert_int_equal(store_commit(s), STORE_OK);

	memset(&p, 0, sizeof p);
	p.pg = strcmp(store_engine_name(s), "postgresql") == 0;
	if (store_explain(s, check_plan, &p) != STORE_OK)
		fail_msg("explain: %s", store_errmsg(s));
	assert_true(p.lines > 20);
	if (p.bad != 0)
		fail_msg("%d scanning plan lines, first: %s", p.bad,
		    p.first_bad);
	for (i = 0; i < NREQUIRED && !p.pg; i++) {
		if (!p.found[i])
			fail_msg("%s does not use index %s",
			    required_index[i].stmt, required_index[i].index);
	}
	store_close(s);
}

/* Collect due outbox ids. */
static int
outbox_collect(void *arg, const struct store_outbox *o)
{
	int64_t	*ids = arg;

	assert_non_null(o->message);
	assert_int_equal(strncmp(o->message, "Subject: ", 9), 0);
	assert_string_equal(o->recipient, "bob@example.org");
	ids[++ids[0]] = o->id;
	return 0;
}

/* Mail: messages seen by place and by Message-ID, the mailbox position,
 * and the outbox's sent / retry / failed life. */
static void
test_mail(void **state)
{
	struct store		*s;
	struct store_mail_seen	 m, got;
	struct store_outbox	 o;
	int64_t			 uv, last, n, ids[8];
	int64_t			 first, second, third;

	(void)state;
	s = open_or_fail(mem_db(), NULL);

	assert_int_equal(store_mail_state_get(s, "INBOX", &uv, &last),
	    STORE_NOTFOUND);
	assert_int_equal(store_mail_state_set(s, "INBOX", 7, 12), STORE_OK);
	assert_int_equal(store_mail_state_set(s, "INBOX", 7, 15), STORE_OK);
	assert_int_equal(store_mail_state_get(s, "INBOX", &uv, &last),
	    STORE_OK);
	assert_int_equal(uv, 7);
	assert_int_equal(last, 15);

	memset(&m, 0, sizeof m);
	snprintf(m.mailbox, sizeof m.mailbox, "INBOX");
	m.uidvalidity = 7;
	m.uid = 3;
	snprintf(m.message_id, sizeof m.message_id, "<a@example.org>");
	snprintf(m.sender, sizeof m.sender, "alice@example.org");
	m.received = 100;
	snprintf(m.outcome, sizeof m.outcome, "applied");
	m.game_id = 0;
	assert_int_equal(store_mail_seen_add(s, &m), STORE_OK);
	/* The same place twice is refused. */
	assert_int_equal(store_mail_seen_add(s, &m), STORE_EXISTS);
	/* Found by place, with another Message-ID. */
	assert_int_equal(store_mail_seen_find(s, "INBOX", 7, 3, "<other@x>",
	    &got), STORE_OK);
	assert_string_equal(got.outcome, "applied");
	assert_string_equal(got.sender, "alice@example.org");
	/* Found by Message-ID at another place (a second delivery). */
	assert_int_equal(store_mail_seen_find(s, "INBOX", 7, 9,
	    "<a@example.org>", &got), STORE_OK);
	assert_int_equal(got.uid, 3);
	/* Not found: new place, new or no Message-ID. */
	assert_int_equal(store_mail_seen_find(s, "INBOX", 8, 3, "", &got),
	    STORE_NOTFOUND);
	assert_int_equal(store_mail_seen_find(s, "INBOX", 7, 4, "<b@x>",
	    NULL), STORE_NOTFOUND);

	memset(&o, 0, sizeof o);
	snprintf(o.kind, sizeof o.kind, "move");
	snprintf(o.recipient, sizeof o.recipient, "bob@example.org");
	o.message = "Subject: one\r\n\r\nbody";
	o.created = 1000;
	assert_int_equal(store_outbox_add(s, &o), STORE_OK);
	first = o.id;
	o.message = "Subject: two\r\n\r\nbody";
	assert_int_equal(store_outbox_add(s, &o), STORE_OK);
	second = o.id;
	snprintf(o.kind, sizeof o.kind, "howto");
	o.created = 2000;
	o.message = "Subject: three\r\n\r\nbody";
	assert_int_equal(store_outbox_add(s, &o), STORE_OK);
	third = o.id;

	assert_int_equal(store_outbox_pending(s, &n), STORE_OK);
	assert_int_equal(n, 3);
	ids[0] = 0;
	assert_int_equal(store_outbox_due(s, 1500, 0, outbox_collect, ids),
	    STORE_OK);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], first);
	assert_int_equal(ids[2], second);

	assert_int_equal(store_outbox_sent(s, first, 1600), STORE_OK);
	assert_int_equal(store_outbox_retry(s, second, 5000, "421 busy"),
	    STORE_OK);
	assert_int_equal(store_outbox_failed(s, third, 2100, "550 no such user"),
	    STORE_OK);
	/* Sent and failed never come back; the retry waits for its time. */
	ids[0] = 0;
	assert_int_equal(store_outbox_due(s, 4999, 0, outbox_collect, ids),
	    STORE_OK);
	assert_int_equal(ids[0], 0);
	ids[0] = 0;
	assert_int_equal(store_outbox_due(s, 5000, 0, outbox_collect, ids),
	    STORE_OK);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], second);
	assert_int_equal(store_outbox_pending(s, &n), STORE_OK);
	assert_int_equal(n, 1);
	/* A message marked sent is not sent again. */
	assert_int_equal(store_outbox_sent(s, first, 1700), STORE_OK);

	assert_int_equal(store_outbox_recent(s, "bob@example.org", "howto",
	    1500, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_outbox_recent(s, "bob@example.org", "howto",
	    2001, &n), STORE_OK);
	assert_int_equal(n, 0);
	store_close(s);
}

/* PostgreSQL: a server that cannot be reached fails with a reason that
 * does not repeat the connection string (it may hold a password). */
static void
test_pg_open_failure(void **state)
{
	char	err[512] = "";

	(void)state;
	assert_null(store_open("postgresql:host=/nonexistent-dir "
	    "password=sekrit dbname=x", err, sizeof err));
	assert_non_null(strstr(err, "PostgreSQL: "));
	assert_null(strstr(err, "sekrit"));
}

/* PostgreSQL: the backup is refused with the engine's own tools named. */
static void
test_pg_backup(void **state)
{
	struct tmpdir	 t;
	struct store	*s;
	char		 path[400];

	(void)state;
	tmp_make(&t);
	s = open_or_fail(t.db, NULL);
	snprintf(path, sizeof path, "%s/backup.db", t.dir);
	assert_int_equal(store_backup(s, path), STORE_ERROR);
	assert_non_null(strstr(store_errmsg(s), "pg_dump"));
	assert_int_equal(access(path, F_OK), -1);
	assert_string_equal(store_engine_name(s), "postgresql");
	store_close(s);
	tmp_remove(&t);
}

int
main(void)
{
	/* What every engine must answer alike. */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_memory),
		cmocka_unit_test(test_game_creation),
		cmocka_unit_test(test_invitations),
		cmocka_unit_test(test_sync_parse),
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_player_records),
		cmocka_unit_test(test_player_errors),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_mail),
		cmocka_unit_test(test_game_records),
		cmocka_unit_test(test_game_errors),
		cmocka_unit_test(test_game_list),
		cmocka_unit_test(test_game_due),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_failure_kept),
		cmocka_unit_test(test_writes_ahead),
		cmocka_unit_test(test_game_get_actions),
		cmocka_unit_test(test_row_checks),
		cmocka_unit_test(test_reopen),
		cmocka_unit_test(test_two_writers),
		cmocka_unit_test(test_concurrent_moves),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_migrate_from_v1),
		cmocka_unit_test(test_migrate_shared_keys),
		cmocka_unit_test(test_newer_schema),
		cmocka_unit_test(test_action_refs),
		cmocka_unit_test(test_query_plans),
	};
	/* SQLite's files, its online backup, its checks. */
	const struct CMUnitTest sqlite_tests[] = {
		cmocka_unit_test(test_open_failure),
		cmocka_unit_test(test_backup),
		cmocka_unit_test(test_integrity_fault),
	};
	/* PostgreSQL's connection errors and backups. */
	const struct CMUnitTest pg_tests[] = {
		cmocka_unit_test(test_pg_open_failure),
		cmocka_unit_test(test_pg_backup),
	};
	int	failed;

	if (test_pg() != NULL)
		printf("# engine: PostgreSQL (CORRCHESS_TEST_PG)\n");
	failed = cmocka_run_group_tests_name("store", tests, NULL, NULL);
	if (test_pg() != NULL)
		failed += cmocka_run_group_tests_name("store-postgresql",
		    pg_tests, NULL, NULL);
	else
		failed += cmocka_run_group_tests_name("store-sqlite",
		    sqlite_tests, NULL, NULL);
	return failed;
}
