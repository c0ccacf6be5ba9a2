/*
 * tests/test_service.c: tests of the service on a real SQLite file.
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
 * The service on a real SQLite file in a temporary directory, with a clock
 * the tests move: every refusal of a signed action with its status and
 * code, player/game/key administration errors, a game surviving a restart
 * with its hash chain, group commit from several threads, two threads
 * racing with the same statement, the metrics of actions and games, and
 * the API's JSON bodies turned into service parameters.
 */

#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#include <sodium.h>
#include <sqlite3.h>

#include "testutil.h"
#include "testpg.h"

#include "api/api_json.h"
#include "util/metrics.h"
#include "service/service.h"
#include "service/service_int.h"

#define T0		INT64_C(1780000000)	/* 2026-05-28 */
#define HOUR		INT64_C(3600)

/* Keys of the fixture. */
enum {
	K_ALICE,	/* alice's, registered as an OpenSSH line */
	K_BOB,		/* bob's, registered as raw base64 */
	K_CAROL,	/* carol's: a player of no game below */
	K_ALICE2,	/* alice's second key, added by some tests */
	K_STRANGER,	/* nobody's */
	K_COUNT
};

struct fx {
	char		 dir[256];
	char		 db[512];
	struct service	*svc;
	_Atomic int64_t	 now;
	uint8_t		 pk[K_COUNT][SIG_PUBKEY_BYTES];
	uint8_t		 sk[K_COUNT][SIG_SECKEY_BYTES];
	int64_t		 key_id[K_COUNT];
	uint8_t		 server_pk[SIG_PUBKEY_BYTES];
	uint8_t		 server_sk[SIG_SECKEY_BYTES];
};

/* The clock the service reads. */
static int64_t
fx_clock(void *arg)
{
	struct fx	*fx = arg;

	return atomic_load(&fx->now);
}

/* Open the service on the fixture's database or fail the test. */
static void
fx_open(struct fx *fx, enum store_sync sync)
{
	struct service_config	cfg;
	char			err[256];

	memset(&cfg, 0, sizeof cfg);
	cfg.db_path = fx->db;
	cfg.sync = sync;
	cfg.now = fx_clock;
	cfg.now_arg = fx;
	cfg.server_sk = fx->server_sk;
	fx->svc = service_open(&cfg, err, sizeof err);
	if (fx->svc == NULL)
		fail_msg("service_open: %s", err);
}

/* An OpenSSH public key line of key k. */
static void
ssh_line(struct fx *fx, int k, char *buf, size_t size)
{
	assert_int_equal(sig_pubkey_format(fx->pk[k], "test key", buf, size),
	    0);
}

/* Create a player with one key or fail; the key's id is kept. */
static void
player_make(struct fx *fx, const char *name, const char *lang, int k,
    bool raw)
{
	struct service_player	 sp;
	struct service_error	 err;
	char			 key[256];
	const char		*keys[1] = { key };

	if (raw)
		sodium_bin2base64(key, sizeof key, fx->pk[k], SIG_PUBKEY_BYTES,
		    sodium_base64_VARIANT_ORIGINAL);
	else
		ssh_line(fx, k, key, sizeof key);
	if (service_player_create(fx->svc, name, NULL, lang, keys, 1, &sp,
	    &err) != 0)
		fail_msg("player %s: %s %s", name, err.code, err.message);
	assert_int_equal(sp.nkeys, 1);
	assert_memory_equal(sp.keys[0].pubkey, fx->pk[k], SIG_PUBKEY_BYTES);
	fx->key_id[k] = sp.keys[0].id;
	service_player_free(&sp);
}

/* Make the fixture: a temporary directory, the service, three players. */
static int
setup(void **state)
{
	struct fx	*fx;
	int		 k;

	fx = calloc(1, sizeof *fx);
	assert_non_null(fx);
	test_mkdtemp(fx->dir, sizeof fx->dir, "test_service");
	test_db_in(fx->db, sizeof fx->db, fx->dir);
	atomic_store(&fx->now, T0);
	for (k = 0; k < K_COUNT; k++)
		assert_int_equal(sig_keypair(fx->pk[k], fx->sk[k]), 0);
	assert_int_equal(sig_keypair(fx->server_pk, fx->server_sk), 0);
	fx_open(fx, STORE_SYNC_NORMAL);
	player_make(fx, "alice", "en", K_ALICE, false);
	player_make(fx, "bob", "en", K_BOB, true);
	player_make(fx, "carol", "fr", K_CAROL, false);
	*state = fx;
	return 0;
}

/* Close the service and remove the directory with every file in it. */
static int
teardown(void **state)
{
	struct fx	*fx = *state;

	service_close(fx->svc);
	test_rmdir(fx->dir);
	free(fx);
	return 0;
}

/* Create a game, rated (1), unrated (0) or as the server's default (-1),
 * or fail; returns its id. */
static int64_t
game_create(struct fx *fx, const char *white, const char *black,
    const char *tc, const char *fen, int rated)
{
	struct service_game_params	gp;
	struct service_game		g;
	struct service_error		err;
	int64_t				id;

	memset(&gp, 0, sizeof gp);
	gp.white = white;
	gp.black = black;
	gp.chess960 = -1;
	gp.time_control = tc;
	gp.fen = fen;
	gp.rated = rated;
	if (service_game_create(fx->svc, &gp, &g, &err) != 0)
		fail_msg("game %s v %s: %s %s", white, black, err.code,
		    err.message);
	id = g.row.id;
	assert_true(id > 0);
	assert_int_equal(game_ply(&g.state), 0);
	service_game_free(&g);
	return id;
}

/* Create a game (unrated) or fail; returns its id. */
static int64_t
game_make(struct fx *fx, const char *white, const char *black,
    const char *tc, const char *fen)
{
	return game_create(fx, white, black, tc, fen, 0);
}

/* Write a signed statement into buf (SIG_SIGNED_SIZE) or fail. */
static void
sign(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, int k, enum sig_form form, char *buf, size_t size)
{
	struct sig_statement	st;
	enum sig_error		e;

	memset(&st, 0, sizeof st);
	st.game = (uint64_t)game;
	st.ply = ply;
	snprintf(st.player, sizeof st.player, "%s", player);
	if (sig_action_parse(action, strlen(action), &st.action, &e) != 0 ||
	    sig_statement_build(&st, &e) != 0 ||
	    sig_statement_sign(&st, fx->sk[k], form, buf, size, &e) != 0)
		fail_msg("signing \"%s\": %s", action, sig_strerror(e));
}

/* Sign and submit an action for `game` through the URL of `url_game`. */
static int
submit(struct fx *fx, int64_t url_game, int64_t game, uint32_t ply,
    const char *player, const char *action, int k, enum sig_form form,
    struct service_error *err)
{
	char	buf[SIG_SIGNED_SIZE];

	sign(fx, game, ply, player, action, k, form, buf, sizeof buf);
	memset(err, 0, sizeof *err);
	return service_submit(fx->svc, url_game, buf, strlen(buf), "http",
	    NULL, err);
}

/* Keep the first record's prev_hash. */
static int
first_prev(void *arg, const struct store_action *a)
{
	memcpy(arg, a->prev_hash, STORE_HASH_LEN);
	return 1;
}

/* A new game's creation record: the server's signature over its bytes,
 * which say what the game is; its hash is the row's head, and the first
 * record chains to it; the PGN carries it. */
static void
test_creation_record(void **state)
{
	struct fx		*fx = *state;
	static const uint8_t	 zero[SIG_HASH_BYTES];
	struct store_creation	 sc;
	struct sig_creation	 c;
	struct service_game	 g;
	struct service_error	 err;
	uint8_t			 h[SIG_HASH_BYTES], prev[STORE_HASH_LEN];
	char			 why[256], want[64], *pgn;
	int64_t			 id;

	id = game_make(fx, "alice", "bob", "3d/move", NULL);
	assert_int_equal(service_game_creation(fx->svc, id, &sc, &err), 1);
	assert_int_equal(sig_creation_parse((const uint8_t *)sc.record,
	    strlen(sc.record), &c, why, sizeof why), 0);
	assert_int_equal(c.game, (uint64_t)id);
	assert_string_equal(c.white, "alice");
	assert_string_equal(c.black, "bob");
	assert_string_equal(c.variant, "standard");
	assert_string_equal(c.start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	    " w KQkq - 0 1");
	assert_string_equal(c.time_control, "3d/move");
	assert_string_equal(c.policy, "auto");
	assert_string_equal(c.auth, "signed");
	assert_int_equal(sig_verify(c.canon, c.canon_len, sc.signature,
	    fx->server_pk), 0);
	sig_record_hash(zero, c.canon, c.canon_len, sc.signature,
	    sizeof sc.signature, h);
	assert_memory_equal(h, sc.hash, SIG_HASH_BYTES);
	assert_int_equal(service_game_get(fx->svc, id, &g, &err), 0);
	assert_memory_equal(g.row.head, sc.hash, STORE_HASH_LEN);
	service_game_free(&g);

	assert_int_equal(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), 0);
	assert_int_equal(service_game_records(fx->svc, id, first_prev, prev,
	    &err), 0);
	assert_memory_equal(prev, sc.hash, STORE_HASH_LEN);

	pgn = service_game_pgn(fx->svc, id, NULL, &err);
	assert_non_null(pgn);
	snprintf(want, sizeof want, "corrchess-game-v1%%0Agame:%%20%lld%%0A",
	    (long long)id);
	assert_non_null(strstr(pgn, "[%ccgame"));
	assert_non_null(strstr(pgn, want));
	free(pgn);
	assert_int_equal(service_game_creation(fx->svc, id + 1000, &sc, &err),
	    -1);
	assert_int_equal(err.status, 404);
}

/* Submit an action that must be accepted. */
static void
play(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, int k, enum sig_form form)
{
	struct service_error	err;

	if (submit(fx, game, game, ply, player, action, k, form, &err) != 0)
		fail_msg("game %" PRId64 " ply %u %s \"%s\" refused: %u %s: %s",
		    game, ply, player, action, err.status, err.code,
		    err.message);
}

/* Check a refusal: rc -1, its status, its code and a message. */
static void
assert_refused(int rc, const struct service_error *err, unsigned status,
    const char *code)
{
	if (rc != -1 || err->status != status || strcmp(err->code, code) != 0)
		fail_msg("expected %u %s, got rc %d: %u %s: %s", status, code,
		    rc, err->status, err->code, err->message);
	assert_true(err->message[0] != '\0');
}

/* Read a game's state or fail. */
static void
game_read(struct fx *fx, int64_t id, struct service_game *g)
{
	struct service_error	err;

	if (service_game_get(fx->svc, id, g, &err) != 0)
		fail_msg("game %" PRId64 ": %s %s", id, err.code, err.message);
}

/* The value of one metrics row (the whole name with its labels), or -1. */
static int64_t
metric_value(const char *name)
{
	char	*text = NULL, *p, *line;
	size_t	 len = 0, n = strlen(name);
	FILE	*f;
	int64_t	 v = -1;

	assert_non_null(f = open_memstream(&text, &len));
	metrics_write(f);
	fclose(f);
	for (line = text; line != NULL && *line != '\0'; line = p) {
		if ((p = strchr(line, '\n')) != NULL)
			p++;
		if (strncmp(line, name, n) == 0 && line[n] == ' ') {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return v;
}

/* The refused-actions row of a reason. */
static int64_t
refused(const char *code)
{
	char	name[128];

	snprintf(name, sizeof name,
	    "corrchess_actions_refused_total{reason=\"%s\"}", code);
	return metric_value(name);
}

/* --- statements submitted without waiting ---------------------------- */

/* Create a game of alice and bob with gp.rated `rated`; is it rated? */
static bool
game_rated(struct fx *fx, int rated)
{
	struct service_game_params	gp;
	struct service_game		g;
	struct service_error		err;
	bool				out;

	memset(&gp, 0, sizeof gp);
	gp.white = "alice";
	gp.black = "bob";
	gp.chess960 = -1;
	gp.rated = rated;
	if (service_game_create(fx->svc, &gp, &g, &err) != 0)
		fail_msg("game: %s %s", err.code, err.message);
	out = g.rules.rated;
	service_game_free(&g);
	return out;
}

/*
 * A game created without "rated" (-1) follows the service's default:
 * SERVICE_RATED_DEFAULT (rated, as corrchessd's [game] rated) when the
 * configuration leaves rated_default 0, not rated with -1; 1 and 0 are
 * kept whatever the default.
 */
static void
test_rated_default(void **state)
{
	struct fx		*fx = *state;
	struct service_config	 cfg;
	char			 err[256];

	assert_true(SERVICE_RATED_DEFAULT);
	assert_true(game_rated(fx, -1));
	assert_false(game_rated(fx, 0));
	assert_true(game_rated(fx, 1));

	service_close(fx->svc);
	memset(&cfg, 0, sizeof cfg);
	cfg.db_path = fx->db;
	cfg.now = fx_clock;
	cfg.now_arg = fx;
	cfg.rated_default = -1;
	if ((fx->svc = service_open(&cfg, err, sizeof err)) == NULL)
		fail_msg("service_open: %s", err);
	assert_false(game_rated(fx, -1));
	assert_false(game_rated(fx, 0));
	assert_true(game_rated(fx, 1));
}

/* The writer is done with a started statement: count it. */
static void
started_done(void *arg)
{
	sem_post(arg);
}

/*
 * service_submit_start(): refused on this thread before the writer (no
 * done call), or queued and done once on the writer's thread; its result
 * through service_submit_finish(), the same as service_submit() gives,
 * accepted or refused in the writer.
 */
static void
test_submit_start(void **state)
{
	struct fx		*fx = *state;
	struct service_action	*a[3];
	struct service_error	 err;
	struct service_game	 g;
	char			 buf[3][SIG_SIGNED_SIZE], *p;
	int64_t			 id[2];
	sem_t			 done;
	int			 i, left;

	assert_int_equal(sem_init(&done, 0, 0), 0);
	id[0] = game_make(fx, "alice", "bob", NULL, NULL);
	id[1] = game_make(fx, "bob", "carol", NULL, NULL);

	/* A bad signature: refused at once, the writer never sees it. */
	sign(fx, id[0], 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf[0],
	    sizeof buf[0]);
	assert_non_null(p = strstr(buf[0], "signature: "));
	p[11] = p[11] == 'A' ? 'B' : 'A';
	assert_refused(service_submit_start(fx->svc, id[0], buf[0],
	    strlen(buf[0]), CHESS_LANG_EN, "http", started_done, &done, &a[0],
	    &err), &err, 403, "bad-signature");
	assert_null(a[0]);
	assert_int_equal(sem_trywait(&done), -1);

	/* Two games' moves and a stale one, queued before any is done. */
	sign(fx, id[0], 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf[0],
	    sizeof buf[0]);
	sign(fx, id[1], 0, "bob", "move d4", K_BOB, SIG_FORM_SSHSIG, buf[1],
	    sizeof buf[1]);
	sign(fx, id[0], 0, "alice", "move d4", K_ALICE, SIG_FORM_RAW, buf[2],
	    sizeof buf[2]);
	for (i = 0; i < 3; i++) {
		if (service_submit_start(fx->svc, 0, buf[i], strlen(buf[i]),
		    CHESS_LANG_EN, "http", started_done, &done, &a[i],
		    &err) != 0)
			fail_msg("statement %d: %s %s", i, err.code,
			    err.message);
		assert_non_null(a[i]);
	}
	for (left = 3; left > 0; left--)
		assert_int_equal(sem_wait(&done), 0);
	assert_int_equal(sem_trywait(&done), -1);

	assert_int_equal(service_submit_finish(fx->svc, a[0], &g, &err), 0);
	assert_int_equal(g.row.id, id[0]);
	assert_int_equal(game_ply(&g.state), 1);
	assert_string_equal(g.san[0], "e4");
	service_game_free(&g);
	/* The client left: the result is only freed. */
	assert_int_equal(service_submit_finish(fx->svc, a[1], NULL, &err), 0);
	assert_refused(service_submit_finish(fx->svc, a[2], &g, &err), &err,
	    409, "stale-ply");

	game_read(fx, id[1], &g);
	assert_int_equal(game_ply(&g.state), 1);
	assert_string_equal(g.san[0], "d4");
	service_game_free(&g);
	sem_destroy(&done);
}

/* --- refusals of a statement and its signature ------------------------ */

/* Malformed, unsigned, for another game, for no game. */
static void
test_refuse_statement(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	char			 buf[SIG_SIGNED_SIZE], *p;
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);
	static const char	 garbage[] = "corrchess-v1\ngame: 1\nply: x\n";

	memset(&err, 0, sizeof err);
	assert_refused(service_submit(fx->svc, id, garbage, strlen(garbage),
	    "http", NULL, &err), &err, 400, "bad-statement");
	assert_refused(service_submit(fx->svc, id, "hello", 5, "http", NULL,
	    &err), &err, 400, "bad-statement");

	/* The statement alone, its signature cut off. */
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf,
	    sizeof buf);
	assert_non_null(p = strstr(buf, "signature:"));
	*p = '\0';
	assert_refused(service_submit(fx->svc, id, buf, strlen(buf), "http",
	    NULL, &err), &err, 400, "no-signature");

	/* A signature line that is not base64. */
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf,
	    sizeof buf);
	assert_non_null(p = strstr(buf, "signature: "));
	p[11] = '*';
	assert_refused(service_submit(fx->svc, id, buf, strlen(buf), "http",
	    NULL, &err), &err, 400, "bad-signature");

	/* Signed for this game, sent to another game's URL. */
	assert_refused(submit(fx, id + 1, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 400, "wrong-game");
	/* A game that does not exist (no URL to compare with). */
	assert_refused(submit(fx, 0, id + 41, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 404, "no-such-game");
	/* The same statement, for the game that exists, goes through. */
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
}

/* Unknown player, unknown key, revoked key, bad signature, namespace. */
static void
test_refuse_signature(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct sig_statement	 st;
	enum sig_error		 e;
	char			 buf[SIG_SIGNED_SIZE];
	char			 armor[SIG_SSHSIG_ARMOR_SIZE];
	char			 fp[SIG_FINGERPRINT_SIZE], want[512];
	char			*p;
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);

	/* A name that is no player here. */
	assert_refused(submit(fx, id, id, 0, "zed", "move e4", K_STRANGER,
	    SIG_FORM_RAW, &err), &err, 403, "unknown-player");
	/* alice's name, someone else's key: SSHSIG names its key. */
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_STRANGER,
	    SIG_FORM_SSHSIG, &err), &err, 403, "unknown-key");
	/* A raw signature names no key: it just does not verify. */
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_STRANGER,
	    SIG_FORM_RAW, &err), &err, 403, "bad-signature");
	/* bob's key is registered, but not for alice: said whose it is,
	 * for both forms (a raw signature by trying the server's keys). */
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_BOB,
	    SIG_FORM_SSHSIG, &err), &err, 403, "wrong-key");
	assert_non_null(strstr(err.message, "which is bob's: check the key "
	    "you sign with (-k)"));
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_BOB,
	    SIG_FORM_RAW, &err), &err, 403, "wrong-key");
	assert_non_null(strstr(err.message, "signed with the key SHA256:"));

	/* carol reads French: the same refusals, word for word. */
	sig_pubkey_fingerprint(fx->pk[K_BOB], fp);
	assert_refused(submit(fx, id, id, 0, "carol", "move e4", K_BOB,
	    SIG_FORM_RAW, &err), &err, 403, "wrong-key");
	snprintf(want, sizeof want, "la déclaration nomme carol mais elle "
	    "est signée avec la clé %s, qui est celle de bob : vérifiez la "
	    "clé avec laquelle vous signez (-k) et le joueur que vous nommez "
	    "(-p)", fp);
	assert_string_equal(err.message, want);
	assert_refused(submit(fx, id, id, 0, "carol", "move e4", K_STRANGER,
	    SIG_FORM_SSHSIG, &err), &err, 403, "unknown-key");
	assert_string_equal(err.message, "la déclaration est signée avec une "
	    "clé qui n'est pas enregistrée pour carol");
	assert_refused(submit(fx, id, id, 0, "carol", "move e4", K_STRANGER,
	    SIG_FORM_RAW, &err), &err, 403, "bad-signature");
	assert_string_equal(err.message, "la signature ne correspond ni à "
	    "cette déclaration ni à aucune clé de carol");
	assert_string_equal(sig_strerror_lang(SIG_ESIG_TWICE, CHESS_LANG_FR),
	    "une seconde signature suit la première : envoyez une déclaration "
	    "avec une seule signature");
	assert_string_equal(sig_strerror_lang(SIG_ESIG_TWICE, CHESS_LANG_EN),
	    sig_strerror(SIG_ESIG_TWICE));
	/* A client's key-file fault has no French: English. */
	assert_string_equal(sig_strerror_lang(SIG_EEXIST, CHESS_LANG_FR),
	    sig_strerror(SIG_EEXIST));

	/* alice's key, the statement changed after signing: d4 for e4. */
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf,
	    sizeof buf);
	assert_non_null(p = strstr(buf, "move e4"));
	p[5] = 'd';
	assert_refused(service_submit(fx->svc, id, buf, strlen(buf), "http",
	    NULL, &err), &err, 403, "bad-signature");
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_SSHSIG, buf,
	    sizeof buf);
	assert_non_null(p = strstr(buf, "move e4"));
	p[5] = 'd';
	assert_refused(service_submit(fx->svc, id, buf, strlen(buf), "http",
	    NULL, &err), &err, 403, "bad-signature");

	/* An SSH signature made for the namespace "git". */
	memset(&st, 0, sizeof st);
	st.game = (uint64_t)id;
	snprintf(st.player, sizeof st.player, "alice");
	assert_int_equal(sig_action_parse("move e4", 7, &st.action, &e), 0);
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(sig_sshsig_sign(st.canon, st.canon_len,
	    fx->sk[K_ALICE], "git", armor, sizeof armor, &e), 0);
	snprintf(buf, sizeof buf, "%.*s%s", (int)st.canon_len,
	    (const char *)st.canon, armor);
	assert_refused(service_submit(fx->svc, id, buf, strlen(buf), "http",
	    NULL, &err), &err, 403, "wrong-namespace");

	/* carol signs well, but does not play in this game. */
	assert_refused(submit(fx, id, id, 0, "carol", "move e4", K_CAROL,
	    SIG_FORM_SSHSIG, &err), &err, 403, "not-a-player");

	/* Nothing of the above moved the game. */
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_SSHSIG);
}

/* Revoking a key: its statements are refused, the other key works. */
static void
test_key_revoke(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_player	 sp;
	struct store_key	 k;
	char			 line[256];
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);
	size_t			 i;

	ssh_line(fx, K_ALICE2, line, sizeof line);
	assert_int_equal(service_key_add(fx->svc, "alice", line, &k, &err), 0);
	assert_memory_equal(k.pubkey, fx->pk[K_ALICE2], SIG_PUBKEY_BYTES);
	assert_string_equal(k.comment, "test key");
	fx->key_id[K_ALICE2] = k.id;
	/* The same key twice, a key for nobody, a key that is no key. */
	assert_refused(service_key_add(fx->svc, "alice", line, NULL, &err),
	    &err, 409, "key-exists");
	assert_refused(service_key_add(fx->svc, "zed", line, NULL, &err),
	    &err, 404, "no-such-player");
	assert_refused(service_key_add(fx->svc, "alice", "ssh-ed25519 AAAA",
	    NULL, &err), &err, 400, "bad-key");

	atomic_store(&fx->now, T0 + 100);
	assert_int_equal(service_key_revoke(fx->svc, "alice",
	    fx->key_id[K_ALICE], &err), 0);
	/* bob's key is not alice's to revoke; no key 9999. */
	assert_refused(service_key_revoke(fx->svc, "alice", fx->key_id[K_BOB],
	    &err), &err, 404, "no-such-key");
	assert_refused(service_key_revoke(fx->svc, "alice", 9999, &err),
	    &err, 404, "no-such-key");
	assert_refused(service_key_revoke(fx->svc, "zed", 1, &err), &err,
	    404, "no-such-player");

	assert_int_equal(service_player_get(fx->svc, "alice", &sp, &err), 0);
	assert_int_equal(sp.nkeys, 2);
	for (i = 0; i < sp.nkeys; i++) {
		if (sp.keys[i].id == fx->key_id[K_ALICE])
			assert_int_equal(sp.keys[i].revoked, T0 + 100);
		else
			assert_int_equal(sp.keys[i].revoked, 0);
	}
	service_player_free(&sp);

	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 403, "key-revoked");
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_SSHSIG, &err), &err, 403, "key-revoked");
	play(fx, id, 0, "alice", "move e4", K_ALICE2, SIG_FORM_RAW);
	/* Revoking again keeps the first time. */
	atomic_store(&fx->now, T0 + 200);
	assert_int_equal(service_key_revoke(fx->svc, "alice",
	    fx->key_id[K_ALICE], &err), 0);
	assert_int_equal(service_player_get(fx->svc, "alice", &sp, &err), 0);
	assert_int_equal(sp.keys[0].id, fx->key_id[K_ALICE]);
	assert_int_equal(sp.keys[0].revoked, T0 + 100);
	service_player_free(&sp);
}

/* A key is one player's: registering it for another is refused. */
static void
test_key_one_player(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_player	 sp;
	char			 line[256];
	const char		*keys[1] = { line };

	ssh_line(fx, K_BOB, line, sizeof line);
	assert_refused(service_key_add(fx->svc, "alice", line, NULL, &err),
	    &err, 409, "key-in-use");
	assert_non_null(strstr(err.message, "bob"));
	assert_refused(service_player_create(fx->svc, "dave", NULL, "en",
	    keys, 1, &sp, &err), &err, 409, "key-in-use");
	/* Nothing of dave was created. */
	assert_refused(service_player_get(fx->svc, "dave", &sp, &err), &err,
	    404, "no-such-player");
}

/* Look a game's kept bytes of `kind` up: 1, or 0 with a ticket. */
static int
share(struct fx *fx, int64_t id, enum service_render kind, const char **p,
    size_t *len, struct service_render_ticket *t)
{
	struct service_error	err;
	const char		*tag;
	int			rc;

	memset(&err, 0, sizeof err);
	rc = service_render_share(fx->svc, id, kind, p, len, &tag, t, &err);
	if (rc < 0)
		fail_msg("share game %lld: %s", (long long)id, err.message);
	if (rc == 1)
		assert_non_null(tag);
	return rc;
}

/*
 * A page's kept bytes shared with a reader: served while the game and the
 * second hold, dropped by a move (through the writer, without reading the
 * row) and, for a game with a clock, a second later; still valid in the
 * reader's hands after they are dropped or replaced; never kept from a
 * read that raced a move or a change of a player.
 */
static void
test_render_shared(void **state)
{
	struct fx			*fx = *state;
	struct service_game		 g;
	struct service_error		 err;
	struct service_render_ticket	 t, t2;
	const char			*a, *b, *tag;
	size_t				 alen, blen;
	int				 i, rc = 0;
	int64_t				 rated;
	int64_t				 id = game_make(fx, "alice", "bob",
					     NULL, NULL);
	int64_t				 clocked = game_make(fx, "alice",
					     "bob", "1d/move", NULL);

	/* On PostgreSQL bytes are kept once the listener hears the other
	 * servers: a moment after the service opens. */
	for (i = 0; i < 500; i++) {
		assert_int_equal(share(fx, id, SERVICE_RENDER_PAGE_EN, &a,
		    &alen, &t), 0);
		assert_null(a);
		game_read(fx, id, &g);
		service_render_put(fx->svc, &g, SERVICE_RENDER_PAGE_EN,
		    "page one", 8, "\"1\"", &t);
		service_game_free(&g);
		if ((rc = service_render_share(fx->svc, id,
		    SERVICE_RENDER_PAGE_EN, &a, &alen, &tag, &t, &err)) != 0)
			break;
		usleep(10000);
	}
	assert_int_equal(rc, 1);
	assert_int_equal(alen, 8);
	assert_memory_equal(a, "page one", 8);
	assert_string_equal(tag, "\"1\"");
	/* Another kind is not this one. */
	assert_int_equal(share(fx, id, SERVICE_RENDER_PAGE_FR, &b, &blen, &t),
	    0);

	/* A move: the writer drops the kept bytes. */
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PAGE_EN, &b, &blen, &t),
	    0);
	game_read(fx, id, &g);
	service_render_put(fx->svc, &g, SERVICE_RENDER_PAGE_EN, "page two!", 9,
	    NULL, &t);
	service_game_free(&g);
	/* The first reader's bytes outlive their replacement. */
	assert_memory_equal(a, "page one", 8);
	service_bytes_release((void *)a);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PAGE_EN, &b, &blen, &t),
	    1);
	assert_int_equal(blen, 9);
	assert_memory_equal(b, "page two!", 9);

	/* No clock runs: a second later the same bytes. */
	atomic_fetch_add(&fx->now, 1);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PAGE_EN, &a, &alen, &t),
	    1);
	service_bytes_release((void *)a);
	assert_memory_equal(b, "page two!", 9);
	service_bytes_release((void *)b);
	service_bytes_release(NULL);

	/* A running clock: not a second later. */
	assert_int_equal(share(fx, clocked, SERVICE_RENDER_PAGE_EN, &a, &alen,
	    &t), 0);
	game_read(fx, clocked, &g);
	service_render_put(fx->svc, &g, SERVICE_RENDER_PAGE_EN, "clock", 5,
	    NULL, &t);
	service_game_free(&g);
	assert_int_equal(share(fx, clocked, SERVICE_RENDER_PAGE_EN, &a, &alen,
	    &t), 1);
	service_bytes_release((void *)a);
	atomic_fetch_add(&fx->now, 1);
	assert_int_equal(share(fx, clocked, SERVICE_RENDER_PAGE_EN, &a, &alen,
	    &t), 0);

	/* A read that raced a move: its ticket was taken before the move's
	 * commit, its bytes are not kept. */
	assert_int_equal(share(fx, id, SERVICE_RENDER_JSON, &a, &alen, &t), 0);
	game_read(fx, id, &g);
	play(fx, id, 1, "bob", "move e5", K_BOB, SIG_FORM_RAW);
	service_render_put(fx->svc, &g, SERVICE_RENDER_JSON, "stale", 5, NULL,
	    &t);
	service_game_free(&g);
	assert_int_equal(share(fx, id, SERVICE_RENDER_JSON, &a, &alen, &t2),
	    0);
	/* ... nor one that raced a change of a player (their doors are in
	 * the JSON). */
	game_read(fx, id, &g);
	assert_int_equal(service_doors_set(fx->svc, "bob", -1, 1, NULL, &err),
	    0);
	service_render_put(fx->svc, &g, SERVICE_RENDER_JSON, "stale", 5, NULL,
	    &t2);
	assert_int_equal(share(fx, id, SERVICE_RENDER_JSON, &a, &alen, &t), 0);
	/* A fresh ticket keeps them; the next change of a player drops
	 * them. */
	service_render_put(fx->svc, &g, SERVICE_RENDER_JSON, "fresh", 5, NULL,
	    &t);
	service_game_free(&g);
	assert_int_equal(share(fx, id, SERVICE_RENDER_JSON, &a, &alen, &t), 1);
	assert_memory_equal(a, "fresh", 5);
	service_bytes_release((void *)a);
	assert_int_equal(service_doors_set(fx->svc, "bob", -1, 0, NULL, &err),
	    0);
	assert_int_equal(share(fx, id, SERVICE_RENDER_JSON, &a, &alen, &t), 0);

	/* A rated game's end changes its players' ratings, which the PGN of
	 * their other games shows: the kept bytes go. */
	game_read(fx, id, &g);
	service_render_put(fx->svc, &g, SERVICE_RENDER_PGN, "pgn", 3, NULL,
	    &t);
	service_game_free(&g);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PGN, &a, &alen, &t), 1);
	service_bytes_release((void *)a);
	rated = game_create(fx, "alice", "bob", NULL, NULL, 1);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PGN, &a, &alen, &t), 1);
	service_bytes_release((void *)a);
	play(fx, rated, 0, "alice", "resign", K_ALICE, SIG_FORM_RAW);
	assert_int_equal(share(fx, id, SERVICE_RENDER_PGN, &a, &alen, &t), 0);

	/* No such game: nothing kept (on PostgreSQL the row read says 404
	 * at once); the game's read says 404. */
	rc = service_render_share(fx->svc, id + 100, SERVICE_RENDER_PAGE_EN,
	    &a, &alen, &tag, &t, &err);
	if (rc != 0) {
		assert_int_equal(rc, -1);
		assert_int_equal(err.status, 404);
	}
	assert_int_equal(service_game_get(fx->svc, id + 100, &g, &err), -1);
	assert_int_equal(err.status, 404);
}

/*
 * A key revoked after the statement's signature was checked and before
 * the writer applies it: the writer's transaction sees the revocation.
 */
static void
test_key_revoked_in_flight(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_game	 g;
	struct prepared		*p;
	struct job		 j;
	char			 buf[SIG_SIGNED_SIZE];
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);

	p = calloc(1, sizeof *p);
	assert_non_null(p);
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf,
	    sizeof buf);
	memset(&err, 0, sizeof err);
	assert_int_equal(action_prepare(fx->svc, id, buf, strlen(buf),
	    CHESS_LANG_EN, p, &err), 0);
	assert_int_equal(service_key_revoke(fx->svc, "alice",
	    fx->key_id[K_ALICE], &err), 0);
	memset(&j, 0, sizeof j);
	memset(&err, 0, sizeof err);
	j.kind = JOB_ACTION;
	j.game_id = id;
	j.err = &err;
	action_statement(&j.u.action.s, p, "http");
	assert_refused(writer_submit(fx->svc, &j), &err, 403, "key-revoked");
	game_read(fx, id, &g);
	assert_int_equal(game_ply(&g.state), 0);
	service_game_free(&g);
	service_player_free(&p->sp);
	free(p);
}

/*
 * The players and keys the verifier keeps (service/signers.c) follow every
 * change the service makes, at once: a key added signs the next move, a
 * revoked one does not, a new language reads the next move; a key another
 * process put in the database verifies too. A change of ratings alone
 * (a rated game's end) leaves them kept.
 */
static void
test_signers_kept(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_player	 sp;
	struct store_key	 k;
	struct store		*other;
	struct store_player	 pl;
	struct service_rating	 r;
	char			 line[256], why[256];
	int64_t			 rated;
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);

	/* Kept from the first move on. */
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	play(fx, id, 1, "bob", "move e5", K_BOB, SIG_FORM_RAW);
	ssh_line(fx, K_ALICE2, line, sizeof line);
	assert_int_equal(service_key_add(fx->svc, "alice", line, &k, &err), 0);
	fx->key_id[K_ALICE2] = k.id;
	play(fx, id, 2, "alice", "move Nf3", K_ALICE2, SIG_FORM_RAW);
	play(fx, id, 3, "bob", "move Nc6", K_BOB, SIG_FORM_RAW);
	assert_int_equal(service_key_revoke(fx->svc, "alice",
	    fx->key_id[K_ALICE2], &err), 0);
	assert_refused(submit(fx, id, id, 4, "alice", "move Bb5", K_ALICE2,
	    SIG_FORM_RAW, &err), &err, 403, "key-revoked");
	/* French: C is the knight, F the bishop. */
	assert_int_equal(service_player_set(fx->svc, "alice", NULL, "fr",
	    NULL, &sp, &err), 0);
	service_player_free(&sp);
	play(fx, id, 4, "alice", "move Fb5", K_ALICE, SIG_FORM_RAW);
	play(fx, id, 5, "bob", "move a6", K_BOB, SIG_FORM_RAW);

	/* bob's second key, written by another process: found when the
	 * kept keys refuse it. */
	other = store_open(fx->db, why, sizeof why);
	if (other == NULL)
		fail_msg("store_open: %s", why);
	assert_int_equal(service_player_get(fx->svc, "bob", &sp, &err), 0);
	ssh_line(fx, K_STRANGER, line, sizeof line);
	memset(&err, 0, sizeof err);
	if (key_insert(other, sp.p.id, line, T0, CHESS_LANG_EN, &k, &err) != 0)
		fail_msg("key_insert: %s", err.message);
	store_close(other);
	service_player_free(&sp);
	play(fx, id, 6, "alice", "move Fa4", K_ALICE, SIG_FORM_RAW);
	play(fx, id, 7, "bob", "move Nf6", K_STRANGER, SIG_FORM_RAW);

	/* A rated game's end changes ratings, not players: what is kept of
	 * them stays. alice's language, set back to English by another
	 * process, is not read at that end (her French Cc3 still reads)... */
	other = store_open(fx->db, why, sizeof why);
	if (other == NULL)
		fail_msg("store_open: %s", why);
	assert_int_equal(store_player_get_by_name(other, "alice", &pl),
	    STORE_OK);
	snprintf(pl.lang, sizeof pl.lang, "en");
	assert_int_equal(store_player_update(other, &pl), STORE_OK);
	store_close(other);
	rated = game_create(fx, "alice", "bob", NULL, NULL, 1);
	play(fx, rated, 0, "alice", "resign", K_ALICE, SIG_FORM_RAW);
	assert_int_equal(service_rating_get(fx->svc, "alice", &r, NULL, NULL,
	    &err), 0);
	play(fx, id, 8, "alice", "move Cc3", K_ALICE, SIG_FORM_RAW);
	/* ... but at the next change of a player the service makes. */
	assert_int_equal(service_player_set(fx->svc, "bob", NULL, "en",
	    NULL, &sp, &err), 0);
	service_player_free(&sp);
	play(fx, id, 9, "bob", "move Be7", K_BOB, SIG_FORM_RAW);
	play(fx, id, 10, "alice", "move Bb3", K_ALICE, SIG_FORM_RAW);
}

/* Count the outbox's mails to one address, by kind. */
struct outbox_count {
	const char	*recipient;
	int		 refused, howto, other;
};

/* Count one due mail. */
static int
outbox_count_one(void *arg, const struct store_outbox *o)
{
	struct outbox_count	*c = arg;

	if (strcmp(o->recipient, c->recipient) != 0)
		return 0;
	if (strcmp(o->kind, "refused") == 0)
		c->refused++;
	else if (strcmp(o->kind, "howto") == 0)
		c->howto++;
	else
		c->other++;
	return 0;
}

/* Count what the outbox holds for an address. */
static struct outbox_count
outbox_count(struct fx *fx, const char *recipient)
{
	struct outbox_count	c = { recipient, 0, 0, 0 };
	struct service_error	err;

	assert_int_equal(service_outbox_due(fx->svc, 100000, outbox_count_one,
	    &c, &err), 0);
	return c;
}

/* Mail `n` badly signed statements naming alice from a stranger. */
static void
stranger_mail(struct fx *fx, int64_t game, int first, int n)
{
	struct service_mail_in		in;
	enum service_mail_outcome	out;
	struct service_error		err;
	char				text[SIG_SIGNED_SIZE], mid[64];
	int				i;

	sign(fx, game, 0, "alice", "move e4", K_STRANGER, SIG_FORM_RAW, text,
	    sizeof text);
	for (i = first; i < first + n; i++) {
		memset(&in, 0, sizeof in);
		snprintf(mid, sizeof mid, "<flood%d@evil.example>", i);
		in.mailbox = "INBOX";
		in.uidvalidity = 1;
		in.uid = 100 + i;
		in.message_id = mid;
		in.sender = "mallory@evil.example";
		in.subject = "move";
		in.statement = text;
		in.statement_len = strlen(text);
		assert_int_equal(service_mail(fx->svc, &in, &out, &err), 0);
		assert_int_equal(out, SERVICE_MAIL_REFUSED);
	}
}

/* Open the service again with mail on (answers queued in the outbox). */
static void
fx_open_mail(struct fx *fx)
{
	struct service_config	 cfg;
	char			 why[256];

	service_close(fx->svc);
	memset(&cfg, 0, sizeof cfg);
	cfg.db_path = fx->db;
	cfg.sync = STORE_SYNC_NORMAL;
	cfg.now = fx_clock;
	cfg.now_arg = fx;
	cfg.mail = true;
	cfg.mail_from = "corrchess <chess@club.example>";
	cfg.mail_domain = "club.example";
	fx->svc = service_open(&cfg, why, sizeof why);
	if (fx->svc == NULL)
		fail_msg("service_open: %s", why);
}

/* Mail a mail over the size limit from `sender`; its refusal into err. */
static void
big_mail(struct fx *fx, int uid, const char *sender, uint64_t size,
    struct service_error *err)
{
	struct service_mail_in		in;
	enum service_mail_outcome	out;
	char				mid[64];

	memset(&in, 0, sizeof in);
	snprintf(mid, sizeof mid, "<big%d@club.example>", uid);
	in.mailbox = "INBOX";
	in.uidvalidity = 1;
	in.uid = uid;
	in.message_id = mid;
	in.sender = sender;
	in.subject = "my move";
	in.too_large = true;
	in.size = size;
	in.size_limit = 16 * 1024 * 1024;
	assert_int_equal(service_mail(fx->svc, &in, &out, err), 0);
	assert_int_equal(out, SERVICE_MAIL_REFUSED);
	assert_int_equal(err->status, 413);
	assert_string_equal(err->code, "mail-too-large");
}

/*
 * A mail over the size limit is refused with its size and the limit, in
 * the sender's language, and answered to a registered sender only.
 */
static void
test_mail_too_large(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;

	fx_open_mail(fx);
	assert_int_equal(service_player_set(fx->svc, "alice",
	    "alice@club.example", NULL, NULL, NULL, &err), 0);
	assert_int_equal(service_player_set(fx->svc, "carol",
	    "carol@club.example", NULL, NULL, NULL, &err), 0);
	/* 21.45 MiB reads 21.5 MB: rounded up. */
	big_mail(fx, 1, "alice@club.example", 22492000, &err);
	assert_string_equal(err.message, "your mail is 21.5 MB; the limit is "
	    "16 MB: send the statement and its signature without "
	    "attachments");
	assert_int_equal(outbox_count(fx, "alice@club.example").refused, 1);
	/* One byte over is not "16 MB". */
	big_mail(fx, 2, "alice@club.example", 16 * 1024 * 1024 + 1, &err);
	assert_string_equal(err.message, "your mail is 16.1 MB; the limit is "
	    "16 MB: send the statement and its signature without "
	    "attachments");
	big_mail(fx, 3, "alice@club.example", 0, &err);
	assert_string_equal(err.message, "your mail is larger than the limit "
	    "of 16 MB: send the statement and its signature without "
	    "attachments");
	big_mail(fx, 4, "carol@club.example", 22492000, &err);
	assert_string_equal(err.message, "votre courriel fait 21,5 Mo ; la "
	    "limite est de 16 Mo : envoyez la déclaration et sa signature "
	    "sans pièce jointe");
	assert_int_equal(outbox_count(fx, "carol@club.example").refused, 1);
	/* A stranger is not answered. */
	big_mail(fx, 5, "mallory@evil.example", 22492000, &err);
	assert_int_equal(outbox_count(fx, "mallory@evil.example").refused, 0);
	assert_int_equal(outbox_count(fx, "mallory@evil.example").howto, 0);
}

/* Mail without a statement from `from`, as message `uid`. */
static void
howto_one(struct fx *fx, int uid, const char *from)
{
	struct service_mail_in		in;
	enum service_mail_outcome	out;
	struct service_error		err;
	char				mid[64];

	memset(&in, 0, sizeof in);
	snprintf(mid, sizeof mid, "<howto%d@example.net>", uid);
	in.mailbox = "INBOX";
	in.uidvalidity = 1;
	in.uid = uid;
	in.message_id = mid;
	in.sender = from;
	in.subject = "hello";
	assert_int_equal(service_mail(fx->svc, &in, &out, &err), 0);
	assert_int_equal(out, SERVICE_MAIL_NO_STATEMENT);
}

/* Mail without a statement from `n` addresses, first..first+n-1. */
static void
howto_mail(struct fx *fx, int first, int n)
{
	char	from[64];
	int	i;

	for (i = first; i < first + n; i++) {
		snprintf(from, sizeof from, "someone%d@example.net", i);
		howto_one(fx, 1000 + i, from);
	}
}

/* How many how-tos the outbox holds, over every address. */
static int
howto_total(struct fx *fx, int first, int n)
{
	char	to[64];
	int	i, total = 0;

	for (i = first; i < first + n; i++) {
		snprintf(to, sizeof to, "someone%d@example.net", i);
		total += outbox_count(fx, to).howto;
	}
	return total;
}

/*
 * How-to answers from many forged senders: at most MAIL_HOWTOS_PER_HOUR
 * an hour over every address, the rest counted in the metrics.
 */
static void
test_howto_cap(void **state)
{
	struct fx	*fx = *state;
	int64_t		 capped0, held0;

	fx_open_mail(fx);
	capped0 = metric_value("corrchess_mail_answers_capped_total"
	    "{kind=\"howto\"}");
	held0 = metric_value("corrchess_mail_answers_held_total"
	    "{kind=\"howto\"}");
	howto_mail(fx, 0, 35);
	assert_int_equal(howto_total(fx, 0, 35), 30);
	assert_int_equal(metric_value("corrchess_mail_answers_capped_total"
	    "{kind=\"howto\"}") - capped0, 5);
	assert_int_equal(metric_value("corrchess_mail_answers_held_total"
	    "{kind=\"howto\"}") - held0, 0);
	/* An hour later there is room again, for new addresses: one that
	 * had its how-to today is held by its own bound, counted apart. */
	atomic_store(&fx->now, T0 + HOUR + 1);
	howto_mail(fx, 200, 2);
	assert_int_equal(howto_total(fx, 200, 2), 2);
	howto_one(fx, 5000, "someone0@example.net");
	assert_int_equal(howto_total(fx, 0, 1), 1);
	assert_int_equal(metric_value("corrchess_mail_answers_held_total"
	    "{kind=\"howto\"}") - held0, 1);
	assert_int_equal(metric_value("corrchess_mail_answers_capped_total"
	    "{kind=\"howto\"}") - capped0, 5);
}

/*
 * A stranger's flood of mail naming alice: three answers an hour go to
 * alice's registered address, then one summary a day of the rest, none
 * to the stranger; the counts are in the metrics.
 */
static void
test_mail_refusal_flood(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct outbox_count	 c;
	int64_t			 id, held0, sent0, sum0;

	fx_open_mail(fx);
	assert_int_equal(service_player_set(fx->svc, "alice",
	    "alice@club.example", NULL, NULL, NULL, &err), 0);
	id = game_make(fx, "alice", "bob", NULL, NULL);
	held0 = metric_value("corrchess_mail_answers_held_total"
	    "{kind=\"refused\"}");
	sent0 = metric_value("corrchess_mail_answers_total{kind=\"refused\"}");
	sum0 = metric_value("corrchess_mail_answers_total{kind=\"summary\"}");

	stranger_mail(fx, id, 0, 50);
	c = outbox_count(fx, "alice@club.example");
	/* Three answers, then the first summary (of the fourth). */
	assert_int_equal(c.refused, MAIL_REFUSALS_PER_HOUR + 1);
	assert_int_equal(outbox_count(fx, "mallory@evil.example").refused, 0);
	assert_int_equal(metric_value("corrchess_mail_answers_total"
	    "{kind=\"refused\"}") - sent0, MAIL_REFUSALS_PER_HOUR);
	assert_int_equal(metric_value("corrchess_mail_answers_held_total"
	    "{kind=\"refused\"}") - held0, 50 - MAIL_REFUSALS_PER_HOUR);
	assert_int_equal(metric_value("corrchess_mail_answers_total"
	    "{kind=\"summary\"}") - sum0, 1);

	/* An hour later, three more answers; the summary waits a day. */
	atomic_store(&fx->now, T0 + HOUR + 1);
	stranger_mail(fx, id, 50, 10);
	c = outbox_count(fx, "alice@club.example");
	assert_int_equal(c.refused, 2 * MAIL_REFUSALS_PER_HOUR + 1);
	/* A day later: the next held refusal brings the day's summary. */
	atomic_store(&fx->now, T0 + GAME_DAY + 2 * HOUR);
	stranger_mail(fx, id, 60, MAIL_REFUSALS_PER_HOUR + 1);
	c = outbox_count(fx, "alice@club.example");
	assert_int_equal(c.refused, 3 * MAIL_REFUSALS_PER_HOUR + 2);
	assert_int_equal(metric_value("corrchess_mail_answers_total"
	    "{kind=\"summary\"}") - sum0, 2);
}

/* --- the record chain ------------------------------------------------- */

struct chain {
	uint8_t	 prev[STORE_HASH_LEN];
	int64_t	 seq;
	int	 bad;		/* first bad seq, or 0 */
	char	 san[64][STORE_SAN_SIZE];
	char	 kind[64][STORE_KIND_SIZE];
	uint8_t	 head[STORE_HASH_LEN];
};

/* Check one record against the one before and recompute its hash. */
static int
chain_one(void *arg, const struct store_action *a)
{
	struct chain		*c = arg;
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum sig_error		 e;
	const uint8_t		*sb = NULL;
	const char		*stmt = a->kind;
	uint8_t			 h[STORE_HASH_LEN];
	size_t			 sl = 0;
	char			 text[SIG_SIGNED_SIZE + 64];

	c->seq++;
	if (a->seq != c->seq || c->seq > 64 ||
	    memcmp(a->prev_hash, c->prev, STORE_HASH_LEN) != 0)
		goto bad;
	if (a->statement != NULL) {
		if (a->signature == NULL)
			goto bad;
		snprintf(text, sizeof text, "%s%s", a->statement,
		    a->signature);
		if (sig_statement_parse(text, strlen(text), &st, &sg,
		    &e) != 0 ||
		    st.canon_len != strlen(a->statement) ||
		    memcmp(st.canon, a->statement, st.canon_len) != 0)
			goto bad;
		stmt = a->statement;
		sb = sig_signature_bytes(&sg, &sl);
	}
	sig_record_hash(c->prev, (const uint8_t *)stmt, strlen(stmt), sb, sl,
	    h);
	if (memcmp(h, a->hash, STORE_HASH_LEN) != 0)
		goto bad;
	memcpy(c->prev, a->hash, STORE_HASH_LEN);
	snprintf(c->san[c->seq - 1], STORE_SAN_SIZE, "%s", a->san);
	snprintf(c->kind[c->seq - 1], STORE_KIND_SIZE, "%s", a->kind);
	return 0;
 bad:
	if (c->bad == 0)
		c->bad = (int)c->seq;
	return 0;
}

/* Walk a game's record and check its chain from its creation record;
 * returns the records. */
static int64_t
chain_check(struct fx *fx, int64_t id, struct chain *c)
{
	static const uint8_t	zero[SIG_HASH_BYTES];
	struct store_creation	sc;
	struct service_error	err;

	memset(c, 0, sizeof *c);
	assert_int_equal(service_game_creation(fx->svc, id, &sc, &err), 1);
	sig_record_hash(zero, (const uint8_t *)sc.record, strlen(sc.record),
	    sc.signature, sizeof sc.signature, c->prev);
	assert_memory_equal(c->prev, sc.hash, STORE_HASH_LEN);
	assert_int_equal(service_game_records(fx->svc, id, chain_one, c, &err),
	    0);
	if (c->bad != 0)
		fail_msg("game %" PRId64 ": record %d breaks the chain", id,
		    c->bad);
	return c->seq;
}

/* --- refusals by the game --------------------------------------------- */

/* Stale and future ply, turn, illegal, ambiguous, offers, claims, over. */
static void
test_refuse_game(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_game	 g;
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);
	int64_t			 amb;

	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	/* A replayed statement is for ply 0; one for ply 5 is not yet. */
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	assert_refused(submit(fx, id, id, 5, "bob", "move e5", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	/* White again at ply 1. */
	assert_refused(submit(fx, id, id, 1, "alice", "move d4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "not-your-turn");
	/* Black's king cannot go to e7 through its pawn; no such move. */
	assert_refused(submit(fx, id, id, 1, "bob", "move Ke7", K_BOB,
	    SIG_FORM_RAW, &err), &err, 422, "illegal-move");
	assert_refused(submit(fx, id, id, 1, "bob", "move Zz9", K_BOB,
	    SIG_FORM_RAW, &err), &err, 422, "bad-move");
	/* Nothing to accept or decline; no claim holds at ply 1. */
	assert_refused(submit(fx, id, id, 1, "bob", "accept-draw", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "no-draw-offer");
	assert_refused(submit(fx, id, id, 1, "bob", "decline-draw", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "no-draw-offer");
	assert_refused(submit(fx, id, id, 1, "bob", "claim-draw", K_BOB,
	    SIG_FORM_RAW, &err), &err, 422, "bad-claim");
	assert_refused(submit(fx, id, id, 1, "bob", "claim-draw e5", K_BOB,
	    SIG_FORM_RAW, &err), &err, 422, "bad-claim");
	/* A move with an offer; its maker cannot accept it. */
	play(fx, id, 1, "bob", "move e5 offer-draw", K_BOB, SIG_FORM_SSHSIG);
	assert_refused(submit(fx, id, id, 2, "bob", "accept-draw", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "no-draw-offer");
	play(fx, id, 2, "alice", "decline-draw", K_ALICE, SIG_FORM_RAW);
	game_read(fx, id, &g);
	assert_int_equal(g.state.draw_offer, -1);
	assert_int_equal(game_ply(&g.state), 2);
	service_game_free(&g);

	/* bob resigns: after that, nothing goes. */
	play(fx, id, 2, "bob", "resign", K_BOB, SIG_FORM_RAW);
	assert_refused(submit(fx, id, id, 2, "alice", "move Nf3", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "game-over");
	assert_refused(submit(fx, id, id, 2, "bob", "move Nf3", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "game-over");
	game_read(fx, id, &g);
	assert_false(game_ongoing(&g.state));
	assert_string_equal(g.row.result, "1-0");
	assert_string_equal(g.row.termination, "resignation");
	service_game_free(&g);

	/* Knights on b1 and f1 both reach d2. */
	amb = game_make(fx, "alice", "bob", NULL,
	    "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1");
	assert_refused(submit(fx, amb, amb, 0, "alice", "move Nd2", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 422, "ambiguous-move");
	play(fx, amb, 0, "alice", "move Nbd2", K_ALICE, SIG_FORM_RAW);
}

/* Sign a player's own statement for `ply`: refused, word for word. */
static void
self_refused(struct fx *fx, uint32_t ply, const char *player,
    const char *action, int k, unsigned status, const char *code,
    const char *want)
{
	struct service_error	err;
	char			buf[SIG_SIGNED_SIZE];

	sign(fx, 0, ply, player, action, k, SIG_FORM_RAW, buf, sizeof buf);
	memset(&err, 0, sizeof err);
	assert_refused(service_self_submit(fx->svc, player, buf, strlen(buf),
	    "http", NULL, &err), &err, status, code);
	assert_string_equal(err.message, want);
}

/* A French player's refusals by the service, word for word. */
static void
test_refuse_french(void **state)
{
	struct fx			*fx = *state;
	struct service_error		 err;
	struct service_mail_in		 m;
	enum service_mail_outcome	 out;
	char				 want[512], buf[SIG_SIGNED_SIZE];
	char				 key[256];
	int64_t				 id = game_make(fx, "alice", "carol",
	    NULL, NULL);
	int64_t				 other = game_make(fx, "alice",
	    "bob", NULL, NULL);
	static const char		 bad[] = "corrchess-v1\ngame: 1\n"
	    "ply: 0\nplayer: carol\naction: jump\n";
	static const char		 badply[] = "corrchess-v1\ngame: 1\n"
	    "ply: x\nplayer: carol\naction: move e5\n";

	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	assert_refused(submit(fx, id, id, 5, "carol", "move e5", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	snprintf(want, sizeof want, "la déclaration est pour le ply 5 mais la "
	    "partie %" PRId64 " en est au ply 1 : signez une déclaration pour "
	    "le ply 1", id);
	assert_string_equal(err.message, want);
	play(fx, id, 1, "carol", "move Cf6", K_CAROL, SIG_FORM_RAW);
	/* Her move named in her letters. */
	assert_refused(submit(fx, id, id, 1, "carol", "move Cf6", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	assert_string_equal(err.message, "votre coup 1...Cf6 a déjà été "
	    "accepté ; c'est à alice de jouer");
	assert_refused(submit(fx, id, id, 3, "carol", "move d5", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 409, "not-your-turn");
	assert_string_equal(err.message, "ce n'est pas à vous de jouer : "
	    "c'est à alice (Blancs, ply 2)");
	/* At the game's ply: the game's own refusal, French already. */
	assert_refused(submit(fx, id, id, 2, "carol", "move d5", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 409, "not-your-turn");
	assert_string_equal(err.message, "c'est aux Blancs de jouer");
	/* Signed with another player's key: « d'alice », « de bob ». */
	assert_refused(submit(fx, id, id, 2, "carol", "move d5", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 403, "wrong-key");
	assert_true(strncmp(err.message, "la déclaration nomme carol mais "
	    "elle est signée avec la clé SHA256:", 70) == 0);
	assert_non_null(strstr(err.message, ", qui est celle d'alice : "
	    "vérifiez la clé avec laquelle vous signez (-k) et le joueur que "
	    "vous nommez (-p)"));
	assert_refused(submit(fx, id, id, 2, "carol", "move d5", K_BOB,
	    SIG_FORM_RAW, &err), &err, 403, "wrong-key");
	assert_non_null(strstr(err.message, ", qui est celle de bob : "));
	/* The English player's sentence stays English. */
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	assert_string_equal(err.message, "your move 1. e4 was already "
	    "accepted; it is your move again: sign a statement for ply 2");
	assert_refused(submit(fx, other, id, 2, "carol", "move d5", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 400, "wrong-game");
	snprintf(want, sizeof want, "la déclaration est pour la partie %"
	    PRId64 ", pas pour la partie %" PRId64, id, other);
	assert_string_equal(err.message, want);
	assert_refused(submit(fx, other, other, 0, "carol", "move e4",
	    K_CAROL, SIG_FORM_RAW, &err), &err, 403, "not-a-player");
	snprintf(want, sizeof want, "carol ne joue pas la partie %" PRId64
	    " (alice c. bob)", other);
	assert_string_equal(err.message, want);
	/* A statement that does not parse, once its player line is read. */
	assert_refused(service_submit(fx->svc, 0, bad, strlen(bad), "http",
	    NULL, &err), &err, 400, "bad-statement");
	assert_string_equal(err.message, "ligne 5 de la déclaration : action "
	    "inconnue : move, accept-draw, decline-draw, resign, claim-draw, "
	    "leave, conditional, cancel-conditional, show-conditional ; avec "
	    "game 0 : add-key, revoke-key, set, email, confirm-email ou "
	    "show-settings");
	/* A fault before the player's line: its language all the same. */
	assert_refused(service_submit(fx->svc, 0, badply, strlen(badply),
	    "http", NULL, &err), &err, 400, "bad-statement");
	assert_string_equal(err.message, "ligne 3 de la déclaration : ply "
	    "invalide : écrivez le nombre de demi-coups joués jusqu'ici, un "
	    "nombre décimal sans zéro en tête");
	/* A leave from today (2026-05-28), and conditional moves to show. */
	assert_refused(submit(fx, id, id, 2, "carol", "leave 2026-05-28 "
	    "2026-05-30", K_CAROL, SIG_FORM_RAW, &err), &err, 409,
	    "leave-too-soon");
	assert_string_equal(err.message, "un congé doit commencer un jour "
	    "après aujourd'hui (UTC) ; celui-ci commence le 2026-05-28");
	assert_refused(submit(fx, id, id, 2, "carol", "show-conditional",
	    K_CAROL, SIG_FORM_RAW, &err), &err, 404, "no-conditional");
	snprintf(want, sizeof want, "carol n'a pas de coups conditionnels en "
	    "attente dans la partie %" PRId64, id);
	assert_string_equal(err.message, want);
	play(fx, id, 2, "alice", "resign", K_ALICE, SIG_FORM_RAW);
	assert_refused(submit(fx, id, id, 2, "carol", "move d5", K_CAROL,
	    SIG_FORM_RAW, &err), &err, 409, "game-over");
	snprintf(want, sizeof want, "la partie %" PRId64 " est terminée "
	    "(0-1, abandon)", id);
	assert_string_equal(err.message, want);

	/* By mail from carol's address: before the statement's player is
	 * known, and a token this server never gave. */
	assert_int_equal(service_player_set(fx->svc, "carol",
	    "carol@club.example", NULL, NULL, NULL, &err), 0);
	sign(fx, other, 0, "nobody", "move e4", K_CAROL, SIG_FORM_RAW, buf,
	    sizeof buf);
	memset(&m, 0, sizeof m);
	m.mailbox = "INBOX";
	m.uidvalidity = 1;
	m.uid = 1;
	m.message_id = "<fr1@club.example>";
	m.sender = "carol@club.example";
	m.subject = "coup";
	m.statement = buf;
	m.statement_len = strlen(buf);
	assert_int_equal(service_mail(fx->svc, &m, &out, &err), 0);
	assert_int_equal(out, SERVICE_MAIL_REFUSED);
	assert_string_equal(err.code, "unknown-player");
	assert_string_equal(err.message, "il n'y a pas de joueur « nobody » "
	    "sur ce serveur");
	m.uid = 2;
	m.message_id = "<fr2@club.example>";
	m.statement = NULL;
	m.statement_len = 0;
	m.token = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	m.reply_action = "d5";
	assert_int_equal(service_mail(fx->svc, &m, &out, &err), 0);
	assert_int_equal(out, SERVICE_MAIL_REFUSED);
	assert_string_equal(err.code, "bad-token");
	assert_string_equal(err.message, "le jeton de cette réponse n'a pas "
	    "été donné par ce serveur : répondez au dernier courriel de votre "
	    "partie, en gardant sa ligne « corrchess-token: »");

	/* Her own statements (game 0): settings and keys. */
	self_refused(fx, 0, "carol", "set lang de", K_CAROL, 400,
	    "bad-setting", "lang prend en ou fr, pas « de »");
	self_refused(fx, 3, "carol", "set digest daily", K_CAROL, 409,
	    "stale-ply", "la déclaration est pour le ply 3 mais carol a fait "
	    "0 déclaration sur lui-même : signez-en une pour le ply 0");
	sign(fx, 0, 0, "carol", "set digest daily", K_CAROL, SIG_FORM_RAW,
	    buf, sizeof buf);
	assert_refused(service_self_submit(fx->svc, "alice", buf, strlen(buf),
	    "http", NULL, &err), &err, 400, "wrong-player");
	assert_string_equal(err.message, "la déclaration est celle de carol, "
	    "pas d'alice");
	self_refused(fx, 0, "carol", "set xfcc-password hunter2hunter2",
	    K_CAROL, 400, "bad-setting", "xfcc-password prend la chaîne "
	    "Argon2id du mot de passe (crypto_pwhash_str de libsodium, "
	    "limites interactives), telle que `corrchess settings "
	    "xfcc-password -` la fait, ou none ; jamais le mot de passe "
	    "lui-même : la déclaration est gardée dans votre historique");
	self_refused(fx, 0, "carol", "add-key ssh-rsa AAAAB3NzaC1yc2E carol",
	    K_CAROL, 400, "bad-key", "impossible de lire la clé « ssh-rsa "
	    "AAAAB3NzaC1yc2E carol » : type de clé non pris en charge : seules "
	    "les clés Ed25519 sont acceptées (ssh-keygen -t ed25519) (donnez "
	    "une ligne OpenSSH « ssh-ed25519 AAAA... commentaire » ou 32 "
	    "octets en base64)");
	ssh_line(fx, K_ALICE, key, sizeof key);
	snprintf(want, sizeof want, "add-key %s", key);
	self_refused(fx, 0, "carol", want, K_CAROL, 409, "key-in-use",
	    "cette clé est enregistrée pour un autre joueur (alice) : une clé "
	    "est à un seul joueur ; faites une nouvelle clé avec corrchess "
	    "keygen ou ssh-keygen -t ed25519");
	self_refused(fx, 0, "carol", "revoke-key 1", K_CAROL, 404,
	    "no-such-key", "vous n'avez pas de clé 1 (donnez son empreinte "
	    "SHA256, comme ssh-keygen -l l'écrit, ou son numéro)");

	/* Server faults: the French sentence says what to do. */
	service_fail(&err, 503, "stopping", "the server is stopping");
	service_fault_lang(&err, CHESS_LANG_FR);
	assert_string_equal(err.message, "le serveur s'arrête ; réessayez "
	    "dans un instant");
	service_fail(&err, 500, "internal", "the server could not record "
	    "the action; try again later");
	service_fault_lang(&err, CHESS_LANG_FR);
	assert_string_equal(err.message, "le serveur n'a pas pu terminer "
	    "l'opération (erreur interne) ; réessayez plus tard");
	service_fault_lang(&err, CHESS_LANG_EN);
	assert_string_equal(err.message, "le serveur n'a pas pu terminer "
	    "l'opération (erreur interne) ; réessayez plus tard");
}

/* A move after the flag fell: refused, and the game ends on time, stored. */
static void
test_late_move(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_game	 g;
	struct chain		 c;
	int64_t			 id = game_make(fx, "alice", "bob", "1d/move",
	    NULL);
	int64_t			 id2 = game_make(fx, "alice", "bob", "1d/move",
	    NULL);

	atomic_store(&fx->now, T0 + HOUR);
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	play(fx, id2, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	/* bob's day ran out an hour ago. */
	atomic_store(&fx->now, T0 + 26 * HOUR);
	assert_refused(submit(fx, id, id, 1, "bob", "move e5", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "late-move");
	/* In the other game alice (not to move) acts after bob's flag fell:
	 * the game is over, not her move that is late. */
	assert_refused(submit(fx, id2, id2, 1, "alice", "resign", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "game-over");

	/* Stored so: the next service sees both games ended on time. */
	service_close(fx->svc);
	fx_open(fx, STORE_SYNC_NORMAL);
	game_read(fx, id, &g);
	assert_false(game_ongoing(&g.state));
	assert_string_equal(g.row.status, "finished");
	assert_string_equal(g.row.result, "1-0");
	assert_string_equal(g.row.termination, "timeout");
	assert_int_equal(g.row.ply, 1);
	service_game_free(&g);
	/* The move, then the clock's record of the flag, in the chain. */
	assert_int_equal(chain_check(fx, id, &c), 2);
	assert_string_equal(c.kind[0], "move");
	assert_string_equal(c.kind[1], "flag");
	game_read(fx, id2, &g);
	assert_string_equal(g.row.status, "finished");
	assert_string_equal(g.row.termination, "timeout");
	service_game_free(&g);
	assert_refused(submit(fx, id, id, 1, "bob", "move e5", K_BOB,
	    SIG_FORM_RAW, &err), &err, 409, "game-over");
}

/* Reading a game whose flag fell ends it, as a record of its own. */
static void
test_flag_on_read(void **state)
{
	struct fx		*fx = *state;
	struct service_game	 g;
	int64_t			 id = game_make(fx, "alice", "bob", "2d/move",
	    NULL);

	atomic_store(&fx->now, T0 + 49 * HOUR);
	game_read(fx, id, &g);
	assert_false(game_ongoing(&g.state));
	assert_string_equal(g.row.result, "0-1");
	assert_string_equal(g.row.termination, "timeout");
	service_game_free(&g);
}

/* --- administration --------------------------------------------------- */

/* Player creation: names, duplicates, keys, languages, e-mail. */
static void
test_player_create_errors(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct service_player	 sp;
	char			 line[256];
	const char		*keys[2];

	ssh_line(fx, K_STRANGER, line, sizeof line);
	keys[0] = line;
	keys[1] = "not a key";
	assert_refused(service_player_create(fx->svc, "Dave", NULL, NULL, keys,
	    1, NULL, &err), &err, 400, "bad-player-name");
	assert_refused(service_player_create(fx->svc, "", NULL, NULL, keys, 1,
	    NULL, &err), &err, 400, "bad-player-name");
	assert_refused(service_player_create(fx->svc, NULL, NULL, NULL, keys, 1,
	    NULL, &err), &err, 400, "bad-player-name");
	assert_refused(service_player_create(fx->svc,
	    "a234567890123456789012345678901234", NULL, NULL, keys, 1, NULL,
	    &err), &err, 400, "bad-player-name");
	assert_refused(service_player_create(fx->svc, "alice", NULL, NULL, keys,
	    1, NULL, &err), &err, 409, "player-exists");
	assert_refused(service_player_create(fx->svc, "dave", NULL, "de", keys,
	    1, NULL, &err), &err, 400, "bad-language");
	assert_refused(service_player_create(fx->svc, "dave", "dave", NULL,
	    keys, 1, NULL, &err), &err, 400, "bad-email");
	/* The second key is bad: nothing of dave is kept. */
	assert_refused(service_player_create(fx->svc, "dave", NULL, NULL, keys,
	    2, NULL, &err), &err, 400, "bad-key");
	assert_refused(service_player_get(fx->svc, "dave", &sp, &err), &err,
	    404, "no-such-player");
	/* The same key twice for one player. */
	keys[1] = line;
	assert_refused(service_player_create(fx->svc, "dave", NULL, NULL, keys,
	    2, NULL, &err), &err, 409, "key-exists");
	assert_refused(service_player_get(fx->svc, "dave", &sp, &err), &err,
	    404, "no-such-player");

	/* The duplicate did not touch alice. */
	assert_int_equal(service_player_get(fx->svc, "alice", &sp, &err), 0);
	assert_int_equal(sp.nkeys, 1);
	assert_string_equal(sp.p.lang, "en");
	service_player_free(&sp);

	assert_int_equal(service_player_create(fx->svc, "dave.d-1_", "d@x.org",
	    "fr", keys, 1, &sp, &err), 0);
	assert_string_equal(sp.p.name, "dave.d-1_");
	assert_string_equal(sp.p.email, "d@x.org");
	assert_string_equal(sp.p.lang, "fr");
	assert_int_equal(sp.p.created, T0);
	assert_int_equal(sp.nkeys, 1);
	service_player_free(&sp);
}

/* Game creation: players, time controls, positions, variants. */
static void
test_game_create_errors(void **state)
{
	struct fx			*fx = *state;
	struct service_game_params	 gp;
	struct service_game		 g;
	struct service_error		 err;

	memset(&gp, 0, sizeof gp);
	gp.chess960 = -1;
	gp.white = "alice";
	gp.black = "zed";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 404,
	    "no-such-player");
	gp.white = "zed";
	gp.black = "bob";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 404,
	    "no-such-player");
	gp.white = "alice";
	gp.black = NULL;
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-game");
	gp.black = "alice";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-game");
	gp.black = "bob";

	gp.time_control = "3 days";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-time-control");
	gp.time_control = "0d/move";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-time-control");
	gp.time_control = "3d/move";

	gp.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-fen");
	gp.fen = "8/8/8/8/8/8/8/8 w - - 0 1";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-fen");
	gp.fen = NULL;

	gp.variant = "crazyhouse";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-variant");
	gp.variant = "chess960";
	gp.chess960 = 960;
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-chess960");
	gp.policy = "never";
	gp.chess960 = 518;
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-policy");
	gp.policy = "claim";
	gp.event = "Club \"cup\"";
	assert_refused(service_game_create(fx->svc, &gp, NULL, &err), &err, 400,
	    "bad-game");
	gp.event = "Club cup";

	/* Position 518 is the standard start. */
	assert_int_equal(service_game_create(fx->svc, &gp, &g, &err), 0);
	assert_string_equal(g.row.variant, "chess960");
	assert_int_equal(g.row.chess960, 518);
	assert_true(strncmp(g.row.start_fen,
	    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ", 46) == 0);
	assert_string_equal(g.row.time_control, "3d/move");
	assert_string_equal(g.row.policy, "claim");
	assert_string_equal(g.row.event, "Club cup");
	assert_int_equal(g.row.deadline, T0 + 3 * 86400);
	service_game_free(&g);
}

/* --- persistence ----------------------------------------------------- */

/* A played game survives closing and reopening the service. */
static void
test_persistence(void **state)
{
	struct fx		*fx = *state;
	struct service_game	 g, h;
	struct service_error	 err;
	struct chain		 c1, c2;
	static const char *const moves[] = { "e4", "e5", "Nf3", "Nc6", "Bb5",
	    "a6", "Ba4", "Nf6", "O-O", "Be7" };
	static const char *const players[] = { "alice", "bob" };
	char			 action[64], fen[CHESS_FEN_MAX];
	char			*pgn;
	size_t			 i, len;
	int64_t			 id = game_make(fx, "alice", "bob", "10/50d",
	    NULL);

	for (i = 0; i < 10; i++) {
		atomic_store(&fx->now, T0 + (int64_t)(i + 1) * HOUR);
		snprintf(action, sizeof action, "move %s%s", moves[i],
		    i == 8 ? " offer-draw" : "");
		play(fx, id, (uint32_t)i, players[i % 2], action,
		    i % 2 ? K_BOB : K_ALICE,
		    i % 3 ? SIG_FORM_SSHSIG : SIG_FORM_RAW);
	}
	/* The tenth move declined white's offer. */
	game_read(fx, id, &g);
	assert_int_equal(game_ply(&g.state), 10);
	assert_int_equal(g.state.draw_offer, -1);
	for (i = 0; i < 10; i++)
		assert_string_equal(g.san[i], moves[i]);
	chess_fen_write(&g.state.chess.pos, fen, sizeof fen);
	assert_string_equal(g.row.fen, fen);
	assert_int_equal(chain_check(fx, id, &c1), 10);
	assert_memory_equal(c1.prev, g.row.head, STORE_HASH_LEN);

	service_close(fx->svc);
	fx_open(fx, STORE_SYNC_NORMAL);
	game_read(fx, id, &h);
	assert_string_equal(h.row.fen, g.row.fen);
	chess_fen_write(&h.state.chess.pos, fen, sizeof fen);
	assert_string_equal(fen, g.row.fen);
	assert_int_equal(game_ply(&h.state), 10);
	for (i = 0; i < 10; i++)
		assert_string_equal(h.san[i], moves[i]);
	assert_memory_equal(h.row.head, g.row.head, STORE_HASH_LEN);
	assert_int_equal(h.state.remaining[0], g.state.remaining[0]);
	assert_int_equal(h.state.remaining[1], g.state.remaining[1]);
	assert_int_equal(chain_check(fx, id, &c2), 10);
	assert_memory_equal(c2.prev, c1.prev, STORE_HASH_LEN);
	for (i = 0; i < 10; i++) {
		assert_string_equal(c2.san[i], moves[i]);
		assert_string_equal(c2.kind[i], i == 8 ? "move-offer-draw" :
		    "move");
	}
	service_game_free(&g);
	service_game_free(&h);

	/* The game goes on after the restart, with the right ply. */
	play(fx, id, 10, "alice", "move c3", K_ALICE, SIG_FORM_RAW);
	assert_int_equal(chain_check(fx, id, &c2), 11);
	pgn = service_game_pgn(fx->svc, id, &len, &err);
	assert_non_null(pgn);
	/* Each move with its record's proof (sig/proof.h) after it. */
	assert_non_null(strstr(pgn, "1. e4"));
	assert_non_null(strstr(pgn, "{[%ccsnt "));
	assert_non_null(strstr(pgn, " 9 bob move%20Be7]"));
	assert_non_null(strstr(pgn, "[%ccrec 11 move 10 signed"));
	assert_non_null(strstr(pgn, "[White \"alice\"]"));
	free(pgn);
}

/* The record keeps the signature that was verified, even when the text
 * holds another signature before the statement (a mail quoting an earlier
 * one): the record's hash must come out of its own texts. */
static void
test_signature_kept(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct chain		 c;
	char			 old[SIG_SIGNED_SIZE], buf[SIG_SIGNED_SIZE];
	char			 text[3 * SIG_SIGNED_SIZE];
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);
	uint32_t		 ply;
	int			 form;

	for (ply = 0; ply < 4; ply++) {
		form = ply < 2 ? SIG_FORM_RAW : SIG_FORM_SSHSIG;
		/* Another game's statement first, then this one. */
		sign(fx, id + 7, ply, ply % 2 ? "bob" : "alice", "resign",
		    ply % 2 ? K_BOB : K_ALICE, form, old, sizeof old);
		sign(fx, id, ply, ply % 2 ? "bob" : "alice",
		    ply % 2 ? (ply == 1 ? "move e5" : "move Nc6") :
		    (ply == 0 ? "move e4" : "move Nf3"),
		    ply % 2 ? K_BOB : K_ALICE, form, buf, sizeof buf);
		snprintf(text, sizeof text, "Earlier:\n%s\nNow:\n%s",
		    strstr(old, form == SIG_FORM_RAW ? "signature:" :
		    "-----BEGIN"), buf);
		assert_int_equal(service_submit(fx->svc, id, text, strlen(text),
		    "mail", NULL, &err), 0);
	}
	assert_int_equal(chain_check(fx, id, &c), 4);
}

/* --- actions the server attests --------------------------------------- */

/* Check each attested record of a game: the statement's raw signature is
 * the server's, the record names the door and no key. Returns them. */
static int
attested_count(void *arg, const struct store_action *a)
{
	struct {
		struct fx	*fx;
		int		 n, bad;
	}			*ac = arg;
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum sig_error		 e;
	char			 text[SIG_SIGNED_SIZE + 64];

	if (a->attested[0] == '\0')
		return 0;
	ac->n++;
	snprintf(text, sizeof text, "%s%s", a->statement, a->signature);
	if (strcmp(a->attested, "xfcc") != 0 || a->key_id != 0 ||
	    sig_statement_parse(text, strlen(text), &st, &sg, &e) != 0 ||
	    sg.form != SIG_FORM_RAW ||
	    sig_verify(st.canon, st.canon_len, sg.raw, ac->fx->server_pk) != 0)
		ac->bad++;
	return 0;
}

/* Attest an action through the door `how`. */
static int
attest(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, const char *how, struct service_error *err)
{
	struct service_attested	in = { .game_id = game, .ply = ply,
				       .player = player, .action = action,
				       .how = how, .source = "xfcc" };

	memset(err, 0, sizeof *err);
	return service_attest(fx->svc, &in, NULL, err);
}

/* A player who opened the Xfcc door moves in a game that allows it; the
 * record chains signed and attested records alike; shut doors and games
 * taking signatures only refuse. */
static void
test_attested(void **state)
{
	struct fx			*fx = *state;
	struct service_game_params	 gp = { .white = "alice",
					   .black = "bob", .chess960 = -1,
					   .auth = "signed-or-attested" };
	struct service_game		 g;
	struct service_error		 err;
	struct service_doors		 d;
	struct chain			 c;
	struct {
		struct fx	*fx;
		int		 n, bad;
	}				 ac = { fx, 0, 0 };
	uint8_t				 pk[SIG_PUBKEY_BYTES];
	int64_t				 id, signed_only;

	assert_int_equal(service_server_key(fx->svc, pk), 0);
	assert_memory_equal(pk, fx->server_pk, SIG_PUBKEY_BYTES);
	assert_int_equal(service_game_create(fx->svc, &gp, &g, &err), 0);
	id = g.row.id;
	service_game_free(&g);
	signed_only = game_make(fx, "alice", "bob", NULL, NULL);
	/* The auth rule is read with the game. */
	assert_int_equal(service_game_get(fx->svc, id, &g, &err), 0);
	assert_string_equal(g.rules.auth, "signed-or-attested");
	service_game_free(&g);
	assert_int_equal(service_game_get(fx->svc, signed_only, &g, &err), 0);
	assert_string_equal(g.rules.auth, "signed");
	service_game_free(&g);

	/* Shut by default; the doors read (and kept) before they open are
	 * read again after. */
	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	assert_refused(attest(fx, id, 1, "bob", "move e5", "xfcc", &err), &err,
	    403, "door-shut");
	assert_int_equal(service_doors_get(fx->svc, "bob", &d, &err), 0);
	assert_false(d.xfcc);
	assert_int_equal(service_doors_get(fx->svc, "bob", &d, &err), 0);
	assert_false(d.xfcc);
	assert_int_equal(service_doors_set(fx->svc, "bob", 1, -1, NULL, &err),
	    0);
	assert_int_equal(service_doors_get(fx->svc, "bob", &d, &err), 0);
	assert_true(d.xfcc);
	assert_false(d.mail_token);
	assert_false(d.xfcc_password);
	/* Open: applied, then the ply moved on. */
	assert_int_equal(attest(fx, id, 1, "bob", "move e5", "xfcc", &err), 0);
	assert_refused(attest(fx, id, 1, "bob", "move Nc6", "xfcc", &err),
	    &err, 409, "stale-ply");
	assert_refused(attest(fx, id, 2, "bob", "move Nc6", "xfcc", &err),
	    &err, 409, "not-your-turn");
	play(fx, id, 2, "alice", "move Nf3", K_ALICE, SIG_FORM_SSHSIG);
	assert_refused(attest(fx, id, 3, "bob", "move Ke3", "xfcc", &err),
	    &err, 422, "illegal-move");
	assert_int_equal(attest(fx, id, 3, "bob", "move Nc6", "xfcc", &err),
	    0);
	/* Another door shut, another game for signatures only. */
	assert_refused(attest(fx, id, 4, "bob", "resign", "mail-token", &err),
	    &err, 403, "door-shut");
	assert_refused(attest(fx, signed_only, 0, "bob", "resign", "xfcc",
	    &err), &err, 403, "signature-required");

	assert_int_equal(chain_check(fx, id, &c), 4);
	assert_string_equal(c.san[1], "e5");
	assert_string_equal(c.san[3], "Nc6");
	assert_int_equal(service_game_records(fx->svc, id, attested_count, &ac,
	    &err), 0);
	assert_int_equal(ac.n, 2);
	assert_int_equal(ac.bad, 0);
}

/* The Xfcc password: hashed, checked, failures limited per player. */
static void
test_xfcc_login(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	struct store_player	 p;
	struct service_doors	 d;
	int			 i;

	assert_refused(service_doors_set(fx->svc, "bob", 1, -1, "short", &err),
	    &err, 400, "bad-password");
	assert_int_equal(service_doors_set(fx->svc, "bob", -1, -1,
	    "correct horse", &err), 0);
	assert_int_equal(service_doors_get(fx->svc, "bob", &d, &err), 0);
	assert_true(d.xfcc_password);
	assert_false(d.xfcc);
	/* A password alone does not open the door. */
	assert_refused(service_xfcc_login(fx->svc, "bob", "correct horse",
	    "127.0.0.1", &p, &err), &err, 401, "bad-login");
	assert_int_equal(service_doors_set(fx->svc, "bob", 1, -1, NULL, &err),
	    0);
	assert_int_equal(service_xfcc_login(fx->svc, "bob", "correct horse",
	    "127.0.0.1", &p, &err), 0);
	assert_string_equal(p.name, "bob");
	assert_refused(service_xfcc_login(fx->svc, "nobody", "correct horse",
	    "127.0.0.2", &p, &err), &err, 401, "bad-login");
	/* Failures against bob (the shut door was the first) from several
	 * addresses: bob is shut out, even with the right password, until
	 * the window ends. */
	for (i = 2; i < SERVICE_LOGIN_FAILS; i++)
		assert_refused(service_xfcc_login(fx->svc, "bob", "wrong",
		    "127.0.0.3", &p, &err), &err, 401, "bad-login");
	assert_refused(service_xfcc_login(fx->svc, "bob", "wrong",
	    "127.0.0.4", &p, &err), &err, 401, "bad-login");
	assert_refused(service_xfcc_login(fx->svc, "bob", "correct horse",
	    "127.0.0.5", &p, &err), &err, 429, "too-many-attempts");
	/* The address that failed eight times is limited too, for anyone. */
	for (i = 8; i < SERVICE_LOGIN_FAILS; i++)
		assert_refused(service_xfcc_login(fx->svc, "alice", "x",
		    "127.0.0.3", &p, &err), &err, 401, "bad-login");
	assert_refused(service_xfcc_login(fx->svc, "alice", "x",
	    "127.0.0.3", &p, &err), &err, 429, "too-many-attempts");
	atomic_store(&fx->now, T0 + SERVICE_LOGIN_WINDOW);
	assert_int_equal(service_xfcc_login(fx->svc, "bob", "correct horse",
	    "127.0.0.5", &p, &err), 0);
}

/* --- threads ---------------------------------------------------------- */

#define GC_GAMES	8
#define GC_PLIES	16

/* Pawn moves: no capture, no repetition, no end within 16 plies. */
static const char *const gc_moves[GC_PLIES] = { "a3", "a6", "b3", "b6",
    "c3", "c6", "d3", "d6", "e3", "e6", "f3", "f6", "g3", "g6", "h3", "h6" };

struct gc_thread {
	pthread_t		 t;
	struct fx		*fx;
	int64_t			 game;
	char			 text[GC_PLIES][SIG_SIGNED_SIZE];
	int			 failed;	/* first failed ply + 1, or 0 */
	struct service_error	 err;
};

/* Play one game's moves one after the other. */
static void *
gc_main(void *arg)
{
	struct gc_thread	*t = arg;
	int			 i;

	for (i = 0; i < GC_PLIES; i++) {
		if (service_submit(t->fx->svc, t->game, t->text[i],
		    strlen(t->text[i]), "http", NULL, &t->err) != 0) {
			t->failed = i + 1;
			break;
		}
	}
	return NULL;
}

/* Eight threads, eight games at once: all moves in, each once. */
static void
test_group_commit(void **state)
{
	struct fx		*fx = *state;
	struct gc_thread	*t;
	struct chain		 c;
	struct service_game	 g;
	char			 action[32];
	int64_t			 batches0, jobs0, acc0, batches, jobs;
	int			 i, k;

	/* FULL: commits are slow enough for actions to wait together. */
	service_close(fx->svc);
	fx_open(fx, STORE_SYNC_FULL);
	assert_non_null(t = calloc(GC_GAMES, sizeof *t));
	for (i = 0; i < GC_GAMES; i++) {
		t[i].fx = fx;
		t[i].game = game_make(fx, "alice", "bob", NULL, NULL);
		for (k = 0; k < GC_PLIES; k++) {
			snprintf(action, sizeof action, "move %s", gc_moves[k]);
			sign(fx, t[i].game, (uint32_t)k,
			    k % 2 ? "bob" : "alice", action,
			    k % 2 ? K_BOB : K_ALICE,
			    (i + k) % 2 ? SIG_FORM_SSHSIG : SIG_FORM_RAW,
			    t[i].text[k], sizeof t[i].text[k]);
		}
	}
	batches0 = metric_value("corrchess_commit_batches_total");
	jobs0 = metric_value("corrchess_commit_jobs_total");
	acc0 = metric_value("corrchess_actions_accepted_total");
	for (i = 0; i < GC_GAMES; i++)
		assert_int_equal(pthread_create(&t[i].t, NULL, gc_main, &t[i]),
		    0);
	for (i = 0; i < GC_GAMES; i++)
		pthread_join(t[i].t, NULL);
	for (i = 0; i < GC_GAMES; i++)
		if (t[i].failed != 0)
			fail_msg("game %" PRId64 " ply %d: %u %s: %s",
			    t[i].game, t[i].failed - 1, t[i].err.status,
			    t[i].err.code, t[i].err.message);

	batches = metric_value("corrchess_commit_batches_total") - batches0;
	jobs = metric_value("corrchess_commit_jobs_total") - jobs0;
	print_message("group commit: %" PRId64 " actions in %" PRId64
	    " transactions\n", jobs, batches);
	assert_int_equal(jobs, GC_GAMES * GC_PLIES);
	assert_true(batches >= 1 && batches <= jobs);
	assert_int_equal(metric_value("corrchess_actions_accepted_total") -
	    acc0, GC_GAMES * GC_PLIES);

	/* Every move present exactly once, in order, in its own game. */
	for (i = 0; i < GC_GAMES; i++) {
		assert_int_equal(chain_check(fx, t[i].game, &c), GC_PLIES);
		for (k = 0; k < GC_PLIES; k++)
			assert_string_equal(c.san[k], gc_moves[k]);
		game_read(fx, t[i].game, &g);
		assert_int_equal(game_ply(&g.state), GC_PLIES);
		assert_int_equal(g.row.ply, GC_PLIES);
		assert_memory_equal(g.row.head, c.prev, STORE_HASH_LEN);
		service_game_free(&g);
	}
	free(t);
}

/* Run SQL on the fixture's database behind the service's back. */
static void
db_behind(struct fx *fx, const char *sql)
{
	sqlite3	*db;
	char	*msg = NULL;

#ifdef HAVE_POSTGRESQL
	if (test_pg() != NULL) {
		test_pg_run(fx->db, sql, NULL);
		return;
	}
#endif
	assert_int_equal(sqlite3_open(fx->db, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
	sqlite3_close(db);
}

/* Submit one game's next move once. */
static void *
wf_main(void *arg)
{
	struct gc_thread	*t = arg;

	t->failed = service_submit(t->fx->svc, t->game, t->text[2],
	    strlen(t->text[2]), "http", NULL, &t->err) != 0;
	return NULL;
}

/*
 * A write the database refuses, among moves taken together: the move is
 * answered 500 and nothing of it is kept; every move answered is
 * recorded once, every move refused is not (on PostgreSQL, where writes
 * are sent ahead, the moves committed with it are refused too); once
 * the cause is gone, the refused moves are taken.
 */
static void
test_write_refused(void **state)
{
	struct fx		*fx = *state;
	struct gc_thread	*t;
	struct chain		 c;
	struct service_game	 g;
	struct service_error	 err;
	char			 action[32], sql[400];
	bool			 pg = test_pg() != NULL;
	int			 i, k, failed = 0;

	service_close(fx->svc);
	fx_open(fx, STORE_SYNC_FULL);
	assert_non_null(t = calloc(GC_GAMES, sizeof *t));
	for (i = 0; i < GC_GAMES; i++) {
		t[i].fx = fx;
		t[i].game = game_make(fx, "alice", "bob", NULL, NULL);
		for (k = 0; k < 4; k++) {
			snprintf(action, sizeof action, "move %s", gc_moves[k]);
			sign(fx, t[i].game, (uint32_t)k,
			    k % 2 ? "bob" : "alice", action,
			    k % 2 ? K_BOB : K_ALICE, SIG_FORM_RAW,
			    t[i].text[k], sizeof t[i].text[k]);
		}
		for (k = 0; k < 2; k++)
			assert_int_equal(service_submit(fx->svc, t[i].game,
			    t[i].text[k], strlen(t[i].text[k]), "http", NULL,
			    &err), 0);
	}
	/* The first game's third move ("b3") cannot be written. */
	if (pg)
		snprintf(sql, sizeof sql, "ALTER TABLE actions ADD CONSTRAINT "
		    "test_refused CHECK (game_id <> %" PRId64 " OR "
		    "coalesce(san, '') <> 'b3') NOT VALID", t[0].game);
	else
		snprintf(sql, sizeof sql, "CREATE TRIGGER test_refused BEFORE "
		    "INSERT ON actions WHEN NEW.game_id = %" PRId64 " AND "
		    "NEW.san = 'b3' BEGIN SELECT RAISE(ABORT, 'refused by the "
		    "test'); END", t[0].game);
	db_behind(fx, sql);
	for (i = 0; i < GC_GAMES; i++)
		assert_int_equal(pthread_create(&t[i].t, NULL, wf_main, &t[i]),
		    0);
	for (i = 0; i < GC_GAMES; i++)
		pthread_join(t[i].t, NULL);
	assert_true(t[0].failed);
	assert_int_equal(t[0].err.status, 500);
	for (i = 0; i < GC_GAMES; i++) {
		if (t[i].failed) {
			failed++;
			assert_int_equal(t[i].err.status, 500);
		}
		/* Recorded exactly when answered; the game as its record. */
		assert_int_equal(chain_check(fx, t[i].game, &c),
		    t[i].failed ? 2 : 3);
		game_read(fx, t[i].game, &g);
		assert_int_equal(game_ply(&g.state), t[i].failed ? 2 : 3);
		assert_int_equal(g.row.ply, t[i].failed ? 2 : 3);
		assert_memory_equal(g.row.head, c.prev, STORE_HASH_LEN);
		service_game_free(&g);
	}
	print_message("a refused write: %d of %d moves refused\n", failed,
	    GC_GAMES);
	/* On SQLite only the refused move's own work is undone. */
	if (!pg)
		assert_int_equal(failed, 1);

	db_behind(fx, pg ? "ALTER TABLE actions DROP CONSTRAINT test_refused" :
	    "DROP TRIGGER test_refused");
	for (i = 0; i < GC_GAMES; i++) {
		if (t[i].failed)
			assert_int_equal(service_submit(fx->svc, t[i].game,
			    t[i].text[2], strlen(t[i].text[2]), "http", NULL,
			    &err), 0);
		assert_int_equal(service_submit(fx->svc, t[i].game,
		    t[i].text[3], strlen(t[i].text[3]), "http", NULL, &err),
		    0);
		assert_int_equal(chain_check(fx, t[i].game, &c), 4);
		for (k = 0; k < 4; k++)
			assert_string_equal(c.san[k], gc_moves[k]);
	}
	free(t);
}

/*
 * Several mails handled together: applied in their order, in one commit;
 * a refused one and a duplicate among them do not stop the others.
 */
static void
test_mail_many(void **state)
{
	struct fx			*fx = *state;
	struct service_mail_in		 in[6];
	enum service_mail_outcome	 out[6], one;
	struct service_error		 errs[6], err;
	struct service_game		 g;
	char				 text[4][SIG_SIGNED_SIZE];
	char				 mid[6][64];
	int64_t				 id, batches0, v = 0, last = 0;
	int				 i;

	id = game_make(fx, "alice", "bob", NULL, NULL);
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, text[0],
	    sizeof text[0]);
	/* Ply 1 only applies after ply 0 of the same batch. */
	sign(fx, id, 1, "bob", "move e5", K_BOB, SIG_FORM_SSHSIG, text[1],
	    sizeof text[1]);
	/* Signed with a key that is not alice's: refused. */
	sign(fx, id, 2, "alice", "move Nf3", K_STRANGER, SIG_FORM_RAW,
	    text[2], sizeof text[2]);
	sign(fx, id, 2, "alice", "move Nf3", K_ALICE, SIG_FORM_RAW, text[3],
	    sizeof text[3]);
	memset(in, 0, sizeof in);
	for (i = 0; i < 6; i++) {
		snprintf(mid[i], sizeof mid[i], "<m%d@example.org>", i);
		in[i].mailbox = "INBOX";
		in[i].uidvalidity = 7;
		in[i].uid = 10 + i;
		in[i].message_id = mid[i];
		in[i].sender = i % 2 ? "bob@example.org" : "alice@example.org";
		in[i].subject = "move";
		if (i < 4) {
			in[i].statement = text[i];
			in[i].statement_len = strlen(text[i]);
		}
	}
	/* Mail 4: mail 1 again under another UID (same Message-ID). */
	in[4].message_id = mid[1];
	in[4].statement = text[1];
	in[4].statement_len = strlen(text[1]);
	/* Mail 5 has no statement. */

	batches0 = metric_value("corrchess_commit_batches_total");
	assert_int_equal(service_mail_many(fx->svc, in, 6, out, errs), 0);
	assert_int_equal(metric_value("corrchess_commit_batches_total") -
	    batches0, 1);
	assert_int_equal(out[0], SERVICE_MAIL_APPLIED);
	assert_int_equal(out[1], SERVICE_MAIL_APPLIED);
	assert_int_equal(out[2], SERVICE_MAIL_REFUSED);
	assert_true(errs[2].status >= 400 && errs[2].status < 500);
	assert_true(errs[2].code[0] != '\0');
	assert_int_equal(out[3], SERVICE_MAIL_APPLIED);
	assert_int_equal(out[4], SERVICE_MAIL_DUPLICATE);
	assert_int_equal(out[5], SERVICE_MAIL_NO_STATEMENT);

	game_read(fx, id, &g);
	assert_int_equal(game_ply(&g.state), 3);
	service_game_free(&g);
	assert_int_equal(service_mail_position(fx->svc, "INBOX", &v, &last,
	    &err), 0);
	assert_int_equal(v, 7);
	assert_int_equal(last, 15);

	/* Read again (a crash before the move): each is a duplicate. */
	assert_int_equal(service_mail_many(fx->svc, in, 6, out, errs), 0);
	for (i = 0; i < 6; i++)
		assert_int_equal(out[i], SERVICE_MAIL_DUPLICATE);
	assert_int_equal(service_mail(fx->svc, &in[3], &one, &err), 0);
	assert_int_equal(one, SERVICE_MAIL_DUPLICATE);
	game_read(fx, id, &g);
	assert_int_equal(game_ply(&g.state), 3);
	service_game_free(&g);
	assert_int_equal(service_mail_many(fx->svc, in, 0, out, errs), 0);
}

struct race {
	pthread_t		 t;
	struct fx		*fx;
	pthread_barrier_t	*start;
	const char		*text;
	int			 rc;
	struct service_error	 err;
};

/* Submit one statement as soon as the other thread is ready too. */
static void *
race_main(void *arg)
{
	struct race	*r = arg;

	pthread_barrier_wait(r->start);
	r->rc = service_submit(r->fx->svc, 0, r->text, strlen(r->text), "mail",
	    NULL, &r->err);
	return NULL;
}

/* The same statement from two threads: one is taken, one is stale. */
static void
test_same_statement_race(void **state)
{
	struct fx		*fx = *state;
	struct race		 r[2];
	pthread_barrier_t	 start;
	struct chain		 c;
	struct service_game	 g;
	char			 text[SIG_SIGNED_SIZE], action[32];
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);
	int			 k, i, won, stale;

	for (k = 0; k < GC_PLIES; k++) {
		snprintf(action, sizeof action, "move %s", gc_moves[k]);
		sign(fx, id, (uint32_t)k, k % 2 ? "bob" : "alice", action,
		    k % 2 ? K_BOB : K_ALICE,
		    k % 2 ? SIG_FORM_SSHSIG : SIG_FORM_RAW, text, sizeof text);
		assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
		for (i = 0; i < 2; i++) {
			memset(&r[i], 0, sizeof r[i]);
			r[i].fx = fx;
			r[i].start = &start;
			r[i].text = text;
			assert_int_equal(pthread_create(&r[i].t, NULL,
			    race_main, &r[i]), 0);
		}
		won = stale = 0;
		for (i = 0; i < 2; i++) {
			pthread_join(r[i].t, NULL);
			if (r[i].rc == 0)
				won++;
			else if (r[i].err.status == 409 &&
			    strcmp(r[i].err.code, "stale-ply") == 0)
				stale++;
			else
				fail_msg("ply %d: %u %s: %s", k,
				    r[i].err.status, r[i].err.code,
				    r[i].err.message);
		}
		pthread_barrier_destroy(&start);
		assert_int_equal(won, 1);
		assert_int_equal(stale, 1);
	}
	assert_int_equal(chain_check(fx, id, &c), GC_PLIES);
	for (k = 0; k < GC_PLIES; k++)
		assert_string_equal(c.san[k], gc_moves[k]);
	game_read(fx, id, &g);
	assert_int_equal(game_ply(&g.state), GC_PLIES);
	assert_memory_equal(g.row.head, c.prev, STORE_HASH_LEN);
	service_game_free(&g);
}

/* --- metrics ---------------------------------------------------------- */

/* Accepted, refused by reason, and games by status. */
static void
test_metrics(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	int64_t			 acc, ill, stale, unknown, ongoing, finished;
	int64_t			 id, id2;
	char			*text = NULL;
	size_t			 len = 0;
	FILE			*f;

	ongoing = metric_value("corrchess_games{status=\"ongoing\"}");
	finished = metric_value("corrchess_games{status=\"finished\"}");
	assert_int_equal(ongoing, 0);
	assert_int_equal(finished, 0);
	id = game_make(fx, "alice", "bob", NULL, NULL);
	id2 = game_make(fx, "bob", "alice", NULL, NULL);
	assert_int_equal(metric_value("corrchess_games{status=\"ongoing\"}"),
	    2);

	acc = metric_value("corrchess_actions_accepted_total");
	ill = refused("illegal-move");
	stale = refused("stale-ply");
	assert_true(acc >= 0 && ill >= 0 && stale >= 0);
	/* Every known reason has its row before it is first seen. */
	assert_true(refused("ambiguous-move") >= 0);
	assert_true(refused("wrong-namespace") >= 0);

	play(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW);
	assert_refused(submit(fx, id, id, 1, "bob", "move e4", K_BOB,
	    SIG_FORM_RAW, &err), &err, 422, "illegal-move");
	assert_refused(submit(fx, id, id, 0, "alice", "move e4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	assert_refused(submit(fx, id, id, 0, "alice", "move d4", K_ALICE,
	    SIG_FORM_RAW, &err), &err, 409, "stale-ply");
	assert_int_equal(metric_value("corrchess_actions_accepted_total"),
	    acc + 1);
	assert_int_equal(refused("illegal-move"), ill + 1);
	assert_int_equal(refused("stale-ply"), stale + 2);
	/* The old unlabelled total is gone: one family, rows by reason. */
	assert_int_equal(metric_value("corrchess_actions_refused_total"), -1);

	/* Refusals before the game is looked at count too. */
	unknown = refused("unknown-player");
	assert_refused(submit(fx, id, id, 1, "zed", "move e5", K_STRANGER,
	    SIG_FORM_RAW, &err), &err, 403, "unknown-player");
	assert_int_equal(refused("unknown-player"), unknown + 1);

	play(fx, id2, 0, "bob", "resign", K_BOB, SIG_FORM_SSHSIG);
	assert_int_equal(metric_value("corrchess_games{status=\"ongoing\"}"),
	    1);
	assert_int_equal(metric_value("corrchess_games{status=\"finished\"}"),
	    1);
	assert_int_equal(metric_value("corrchess_actions_accepted_total"),
	    acc + 2);

	/* One HELP and TYPE line per family. */
	assert_non_null(f = open_memstream(&text, &len));
	metrics_write(f);
	fclose(f);
	assert_non_null(strstr(text,
	    "# TYPE corrchess_actions_refused_total counter\n"));
	assert_non_null(strstr(text, "# TYPE corrchess_games gauge\n"));
	assert_null(strstr(strstr(text, "# TYPE corrchess_games gauge") + 1,
	    "# TYPE corrchess_games gauge"));
	free(text);
}

/* --- the API's JSON bodies ------------------------------------------- */

/* Parse a JSON text or fail. */
static json_t *
json_or_fail(const char *text)
{
	json_error_t	 e;
	json_t		*v;

	if ((v = json_loads(text, JSON_REJECT_DUPLICATES, &e)) == NULL)
		fail_msg("%s: %s", text, e.text);
	return v;
}

/* Player bodies: members, key forms, wrong types. */
static void
test_api_json_player(void **state)
{
	static const struct {
		const char	*body;
		const char	*why;	/* NULL: accepted */
		size_t		 nkeys;
	} cases[] = {
		{ "{\"name\":\"alice\"}", NULL, 0 },
		{ "{\"name\":\"alice\",\"keys\":null,\"email\":null}", NULL,
		    0 },
		{ "{\"name\":\"alice\",\"key\":\"K1\"}", NULL, 1 },
		{ "{\"name\":\"alice\",\"keys\":\"K1\"}", NULL, 1 },
		{ "{\"name\":\"alice\",\"keys\":[\"K1\",\"K2\",\"K3\"]}", NULL,
		    3 },
		{ "{\"name\":\"alice\",\"keys\":[]}", NULL, 0 },
		{ "{}", "\"name\" must be a string", 0 },
		{ "{\"name\":7}", "\"name\" must be a string", 0 },
		{ "{\"name\":null}", "\"name\" must be a string", 0 },
		{ "{\"name\":\"a\",\"email\":[]}", "\"email\" must be a string",
		    0 },
		{ "{\"name\":\"a\",\"lang\":1}", "\"lang\" must be \"en\" or "
		    "\"fr\"", 0 },
		{ "{\"name\":\"a\",\"keys\":[\"K1\",2]}",
		    "\"keys\" must be a list of strings", 0 },
		{ "{\"name\":\"a\",\"keys\":{}}",
		    "\"keys\" must be a list of strings", 0 },
		{ "[\"alice\"]", "the body must be a JSON object", 0 },
	};
	struct api_player_params	 pp;
	json_t				*v;
	char				 why[256];
	size_t				 i, k;
	int				 rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = json_or_fail(cases[i].body);
		why[0] = '\0';
		rc = api_json_player(v, &pp, why, sizeof why);
		if (cases[i].why == NULL) {
			if (rc != API_JSON_OK)
				fail_msg("%s: %s", cases[i].body, why);
			assert_string_equal(pp.name, "alice");
			assert_null(pp.email);
			assert_int_equal(pp.nkeys, cases[i].nkeys);
			for (k = 0; k < pp.nkeys; k++) {
				assert_int_equal(pp.keys[k][0], 'K');
				assert_int_equal(pp.keys[k][1], '1' + (int)k);
			}
		} else {
			assert_int_equal(rc, API_JSON_BAD);
			assert_string_equal(why, cases[i].why);
			assert_null(pp.keys);
		}
		api_player_params_free(&pp);
		json_decref(v);
	}
}

/* Game bodies: strings, the chess960 number, wrong types. */
static void
test_api_json_game(void **state)
{
	struct service_game_params	 gp;
	json_t				*v;
	char				 why[256];

	(void)state;
	v = json_or_fail("{\"white\":\"alice\",\"black\":\"bob\","
	    "\"time_control\":\"3d/move\",\"policy\":\"claim\",\"event\":"
	    "\"Cup\",\"site\":\"Lyon\",\"round\":\"2\",\"fen\":null}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_OK);
	assert_string_equal(gp.white, "alice");
	assert_string_equal(gp.black, "bob");
	assert_string_equal(gp.time_control, "3d/move");
	assert_string_equal(gp.policy, "claim");
	assert_string_equal(gp.event, "Cup");
	assert_string_equal(gp.site, "Lyon");
	assert_string_equal(gp.round, "2");
	assert_null(gp.variant);
	assert_null(gp.fen);
	assert_int_equal(gp.chess960, -1);
	json_decref(v);

	v = json_or_fail("{\"white\":\"a\",\"black\":\"b\",\"chess960\":959}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_OK);
	assert_int_equal(gp.chess960, 959);
	assert_string_equal(gp.variant, "chess960");
	json_decref(v);

	v = json_or_fail("{\"variant\":\"standard\",\"chess960\":0}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_OK);
	assert_int_equal(gp.chess960, 0);
	assert_string_equal(gp.variant, "standard");
	json_decref(v);

	v = json_or_fail("{\"chess960\":960}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	assert_string_equal(why, "\"chess960\" must be a number from 0 to 959");
	json_decref(v);
	v = json_or_fail("{\"chess960\":-1}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	json_decref(v);
	v = json_or_fail("{\"chess960\":\"12\"}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	json_decref(v);
	v = json_or_fail("{\"chess960\":1.5}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	json_decref(v);
	v = json_or_fail("{\"white\":\"a\",\"round\":3}");
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	assert_string_equal(why, "\"round\" must be a string");
	json_decref(v);
	assert_non_null(v = json_string("alice"));
	assert_int_equal(api_json_game(v, &gp, why, sizeof why), API_JSON_BAD);
	json_decref(v);
}

/* api_json_action() of a JSON text. */
static int
json_action(const char *body, char **text, char *why)
{
	size_t	len;

	return api_json_action(body, strlen(body), "application/json", text,
	    &len, why, 256);
}

/* Action bodies: text as is, JSON joined; the joined text is accepted. */
static void
test_api_json_action(void **state)
{
	struct fx		*fx = *state;
	struct service_error	 err;
	char			 buf[SIG_SIGNED_SIZE];
	char			 body[2 * SIG_SIGNED_SIZE];
	char			*text, *sig, *p, why[256];
	size_t			 len;
	int64_t			 id = game_make(fx, "alice", "bob", NULL, NULL);

	/* Any other type: the body, copied as it is (NULs too). */
	assert_int_equal(api_json_action("a\0b", 3, "text/plain", &text, &len,
	    why, sizeof why), API_JSON_OK);
	assert_int_equal(len, 3);
	assert_memory_equal(text, "a\0b", 4);
	free(text);
	assert_int_equal(api_json_action(NULL, 0, NULL, &text, &len, why,
	    sizeof why), API_JSON_OK);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);

	/* JSON: the statement, then the bare base64 as a signature line. */
	sign(fx, id, 0, "alice", "move e4", K_ALICE, SIG_FORM_RAW, buf,
	    sizeof buf);
	assert_non_null(sig = strstr(buf, "signature: "));
	sig[-1] = '\0';
	if ((p = strchr(sig, '\n')) != NULL)
		*p = '\0';
	snprintf(body, sizeof body,
	    "{\"statement\":\"%s\",\"signature\":\"%s\"}", buf, sig + 11);
	for (p = body; (p = strchr(p, '\n')) != NULL; ) {
		memmove(p + 2, p + 1, strlen(p + 1) + 1);
		p[0] = '\\';
		p[1] = 'n';
	}
	assert_int_equal(api_json_action(body, strlen(body),
	    "Application/JSON; charset=utf-8", &text, &len, why, sizeof why),
	    API_JSON_OK);
	assert_int_equal(len, strlen(text));
	assert_non_null(strstr(text, "action: move e4\nsignature: "));
	assert_int_equal(service_submit(fx->svc, id, text, len, "http", NULL,
	    &err), 0);
	free(text);

	/* The signature line as it is, and an armored block as it is. */
	assert_int_equal(json_action("{\"statement\":\"S\\n\",\"signature\":"
	    "\"signature: X\"}", &text, why), API_JSON_OK);
	assert_string_equal(text, "S\nsignature: X\n");
	free(text);
	assert_int_equal(json_action("{\"statement\":\"S\",\"signature\":"
	    "\"-----BEGIN\"}", &text, why), API_JSON_OK);
	assert_string_equal(text, "S\n-----BEGIN\n");
	free(text);

	assert_int_equal(json_action("{\"signature\":\"x\"}", &text, why),
	    API_JSON_BAD);
	assert_string_equal(why, "\"statement\" must be a string");
	assert_null(text);
	assert_int_equal(json_action("{\"statement\":\"S\",\"signature\":5}",
	    &text, why), API_JSON_BAD);
	assert_string_equal(why, "\"signature\" must be a string");
	assert_int_equal(json_action("{\"statement\":", &text, why),
	    API_JSON_BAD);
	assert_non_null(strstr(why, "invalid JSON"));
	assert_int_equal(json_action("{\"a\":1,\"a\":2}", &text, why),
	    API_JSON_BAD);
	assert_int_equal(json_action("[]", &text, why), API_JSON_BAD);
	assert_string_equal(why, "the body must be a JSON object");
	assert_null(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_submit_start, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_creation_record, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rated_default, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_refuse_statement, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_refuse_signature, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_key_revoke, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_key_one_player, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_signers_kept, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_render_shared, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_key_revoked_in_flight,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_mail_too_large, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_howto_cap, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_mail_refusal_flood,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuse_french, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_refuse_game, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_late_move, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_flag_on_read, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_player_create_errors,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_game_create_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_persistence, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_signature_kept, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_group_commit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_write_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_same_statement_race, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_metrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attested, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_xfcc_login, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_mail_many, setup,
		    teardown),
		cmocka_unit_test(test_api_json_player),
		cmocka_unit_test(test_api_json_game),
		cmocka_unit_test_setup_teardown(test_api_json_action, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
