/*
 * tests/test_verify.c: tests of a game's record checked offline.
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
 * Tests of src/client/verify.c on games written here with real keys and
 * signatures: alice (White) plays 1. e4, bob resigns before he signed any
 * move, so his colour is what the creation record says, or in an older
 * game what the PGN's tags say. The PGN comes from the same proof writer
 * the server uses (sig_proof_format()).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdbool.h>

#include <jansson.h>
#include <sodium.h>

#include "chess/pgn.h"
#include "client/verify.h"
#include "sig/sig.h"
#include "testutil.h"

#define GAME	7

/* The keys: the server's, alice's, bob's, and another server's. */
struct keys {
	uint8_t	server_pk[SIG_PUBKEY_BYTES], server_sk[SIG_SECKEY_BYTES];
	uint8_t	rogue_pk[SIG_PUBKEY_BYTES], rogue_sk[SIG_SECKEY_BYTES];
	uint8_t	alice_pk[SIG_PUBKEY_BYTES], alice_sk[SIG_SECKEY_BYTES];
	uint8_t	bob_pk[SIG_PUBKEY_BYTES], bob_sk[SIG_SECKEY_BYTES];
};
static struct keys K;

/* How a test game is written. */
struct shape {
	bool		 creation;	/* with a creation record */
	bool		 rogue;		/* signed by another server's key */
	const char	*white, *black;	/* the PGN's tags */
	const char	*result;
};

/* Append a comment of the proof `p`. */
static void
add_comment(char *pgn, size_t size, const struct sig_proof *p)
{
	char	*text = malloc(SIG_PROOF_SIZE);

	assert_non_null(text);
	assert_int_equal(sig_proof_format(p, text, SIG_PROOF_SIZE), 0);
	snprintf(pgn + strlen(pgn), size - strlen(pgn), " {%s}", text);
	free(text);
}

/* Write the creation record of the test game into `c`, its signature and
 * hash. */
static void
creation_make(struct sig_creation *c, bool rogue,
    uint8_t sig[SIG_SIGNATURE_BYTES], uint8_t hash[SIG_HASH_BYTES])
{
	static const uint8_t	zero[SIG_HASH_BYTES];
	char			why[160];

	memset(c, 0, sizeof *c);
	c->game = GAME;
	strcpy(c->white, "alice");
	strcpy(c->black, "bob");
	strcpy(c->variant, "standard");
	strcpy(c->start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - "
	    "0 1");
	strcpy(c->time_control, "none");
	strcpy(c->policy, "auto");
	strcpy(c->auth, "signed");
	assert_int_equal(sig_creation_build(c, why, sizeof why), 0);
	assert_int_equal(sig_sign(c->canon, c->canon_len, rogue ? K.rogue_sk :
	    K.server_sk, sig), 0);
	sig_record_hash(zero, c->canon, c->canon_len, sig, SIG_SIGNATURE_BYTES,
	    hash);
}

/* Sign a statement as a record after `prev`, into the proof `p`. */
static void
record_make(struct sig_proof *p, int64_t seq, uint32_t ply,
    const char *player, const char *action, const char *kind,
    const uint8_t sk[SIG_SECKEY_BYTES], uint8_t prev[SIG_HASH_BYTES])
{
	struct sig_signature	sg;
	char			text[SIG_SIGNED_SIZE];
	uint8_t			sig[SIG_SIGNATURE_BYTES];
	char			b64[sodium_base64_ENCODED_LEN(SIG_SIGNATURE_BYTES,
				    sodium_base64_VARIANT_ORIGINAL)];
	int			n;

	memset(p, 0, sizeof *p);
	n = snprintf(text, sizeof text, "corrchess-v1\ngame: %d\nply: %u\n"
	    "player: %s\naction: %s\n", GAME, ply, player, action);
	assert_int_equal(sig_sign((const uint8_t *)text, (size_t)n, sk, sig),
	    0);
	sodium_bin2base64(b64, sizeof b64, sig, sizeof sig,
	    sodium_base64_VARIANT_ORIGINAL);
	snprintf(text + n, sizeof text - (size_t)n, "signature: %s\n", b64);
	assert_int_equal(sig_statement_parse(text, strlen(text), &p->st, &sg,
	    NULL), 0);
	p->has_record = p->has_statement = true;
	p->seq = seq;
	p->ply = ply;
	snprintf(p->kind, sizeof p->kind, "%s", kind);
	snprintf(p->door, sizeof p->door, "signed");
	snprintf(p->fp, sizeof p->fp, "-");
	memcpy(p->sig, sig, sizeof sig);
	p->siglen = sizeof sig;
	sig_record_hash(prev, p->st.canon, p->st.canon_len, sig, sizeof sig,
	    p->hash);
	p->has_hash = true;
	memcpy(prev, p->hash, SIG_HASH_BYTES);
}

/* Write the test game as PGN into a malloc'd text. */
static char *
pgn_make(const struct shape *sh)
{
	struct sig_creation	 c;
	struct sig_proof	*p = calloc(1, sizeof *p);
	uint8_t			 head[SIG_HASH_BYTES] = { 0 };
	size_t			 size = 4 * SIG_PROOF_SIZE;
	char			*pgn = malloc(size);

	assert_non_null(p);
	assert_non_null(pgn);
	snprintf(pgn, size, "[Event \"corrchess game\"]\n[Site \"?\"]\n"
	    "[Date \"2026.12.02\"]\n[Round \"-\"]\n[White \"%s\"]\n"
	    "[Black \"%s\"]\n[Result \"%s\"]\n[GameId \"%d\"]\n\n", sh->white,
	    sh->black, sh->result, GAME);
	p->nkeys = 2;
	strcpy(p->keys[0].name, "alice");
	memcpy(p->keys[0].pk, K.alice_pk, SIG_PUBKEY_BYTES);
	strcpy(p->keys[1].name, "bob");
	memcpy(p->keys[1].pk, K.bob_pk, SIG_PUBKEY_BYTES);
	p->has_server = true;
	memcpy(p->server, K.server_pk, SIG_PUBKEY_BYTES);
	add_comment(pgn, size, p);
	if (sh->creation) {
		memset(p, 0, sizeof *p);
		creation_make(&c, sh->rogue, p->sig, head);
		memcpy(p->creation, c.canon, c.canon_len);
		p->creation_len = c.canon_len;
		p->has_creation = true;
		p->siglen = SIG_SIGNATURE_BYTES;
		memcpy(p->hash, head, SIG_HASH_BYTES);
		p->has_hash = true;
		add_comment(pgn, size, p);
	}
	snprintf(pgn + strlen(pgn), size - strlen(pgn), " 1. e4");
	record_make(p, 1, 0, "alice", "move e4", "move", K.alice_sk, head);
	add_comment(pgn, size, p);
	record_make(p, 2, 1, "bob", "resign", "resign", K.bob_sk, head);
	add_comment(pgn, size, p);
	snprintf(pgn + strlen(pgn), size - strlen(pgn), " %s\n", sh->result);
	free(p);
	return pgn;
}

/* Verify a PGN text: the status, and what was printed into `out`. */
static int
verify_text(const char *pgn, char *out, size_t size)
{
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 pg;
	struct verify_game	 vg;
	char			 why[384];
	FILE			*f = fmemopen(out, size, "w");
	int			 rc;

	assert_non_null(f);
	memset(&pg, 0, sizeof pg);
	chess_pgn_reader_init(&rd, pgn, strlen(pgn));
	rd.keep_comments = 1;
	assert_int_equal(chess_pgn_next(&rd, &pg, why, sizeof why), 1);
	if (verify_from_pgn(&pg, &vg, why, sizeof why) != 0) {
		fprintf(f, "read: FAIL: %s\n", why);
		rc = -1;
	} else
		rc = verify_run(&vg, f);
	fclose(f);
	verify_game_free(&vg);
	chess_pgn_game_free(&pg);
	return rc;
}

/* A game with its creation record verifies, colours from the record. */
static void
test_creation_holds(void **state)
{
	struct shape	 sh = { true, false, "alice", "bob", "1-0" };
	char		*pgn = pgn_make(&sh), out[4096];

	(void)state;
	assert_int_equal(verify_text(pgn, out, sizeof out), 0);
	assert_non_null(strstr(out, "game 7: creation record: alice (White) "
	    "v bob (Black), standard, time control none, draw policy auto, "
	    "unrated, auth signed; the server SHA256:"));
	assert_non_null(strstr(out, "game 7: result 1-0 (bob resigned at ply "
	    "1) OK\n"));
	assert_null(strstr(out, "FAIL"));
	free(pgn);
}

/* The White and Black tags swapped, the result turned with them: the
 * creation record says who plays White, so the tag fails, named. */
static void
test_creation_tags_swapped(void **state)
{
	struct shape	 sh = { true, false, "bob", "alice", "0-1" };
	char		*pgn = pgn_make(&sh), out[4096];

	(void)state;
	assert_int_equal(verify_text(pgn, out, sizeof out), -1);
	assert_non_null(strstr(out, "game 7: FAIL: the PGN's White tag says "
	    "\"bob\", but the signed creation record gives \"alice\"\n"));
	free(pgn);
	sh.white = "alice";
	sh.black = "carol";
	sh.result = "1-0";
	pgn = pgn_make(&sh);
	assert_int_equal(verify_text(pgn, out, sizeof out), -1);
	assert_non_null(strstr(out, "game 7: FAIL: the PGN's Black tag says "
	    "\"carol\", but the signed creation record gives \"bob\"\n"));
	free(pgn);
}

/* Every byte of the creation record's arguments ([%ccgame], its
 * [%ccsig], its [%cchash]) changed alone fails. */
static void
test_creation_bytes(void **state)
{
	struct shape	 sh = { true, false, "alice", "bob", "1-0" };
	char		*pgn = pgn_make(&sh), out[4096];
	char		*a = strstr(pgn, "[%ccgame"), *e, *w;
	size_t		 n = 0;

	(void)state;
	assert_non_null(a);
	e = strchr(a, '}');
	assert_non_null(e);
	for (; a < e; a = w) {
		/* The command's name, then its arguments up to ']'. */
		a += 2 + strcspn(a + 2, " ");
		w = a + strcspn(a, "]");
		for (; a < w; a++) {
			if (*a == ' ')
				continue;
			*a ^= 1;
			if (*a != ' ' && *a != ']' && *a != '}') {
				if (verify_text(pgn, out, sizeof out) != -1)
					fail_msg("byte %zu changed to %c still "
					    "verifies", (size_t)(a - pgn), *a);
				n++;
			}
			*a ^= 1;
		}
		w = strchr(w, '[') != NULL && strchr(w, '[') < e ?
		    strchr(w, '[') : e;
	}
	assert_true(n > 300);
	free(pgn);
}

/* A creation record another server signed fails; so does a key given
 * with --server-key that is not the export's. */
static void
test_creation_rogue(void **state)
{
	struct shape		 sh = { true, true, "alice", "bob", "1-0" };
	struct verify_game	 vg;
	char			*pgn = pgn_make(&sh), out[4096], why[256];

	(void)state;
	assert_int_equal(verify_text(pgn, out, sizeof out), -1);
	assert_non_null(strstr(out, "game 7: creation record (game 7): FAIL: "
	    "it is not signed by the server's key\n"));
	free(pgn);
	memset(&vg, 0, sizeof vg);
	vg.has_server = true;
	memcpy(vg.server, K.server_pk, SIG_PUBKEY_BYTES);
	assert_int_equal(verify_server_pin(&vg, K.rogue_pk, why, sizeof why),
	    -1);
	assert_non_null(strstr(why, "not the one given with --server-key"));
	assert_int_equal(verify_server_pin(&vg, K.server_pk, why, sizeof why),
	    0);
}

/* A game of before the creation record verifies as before, saying its
 * colours are unsigned; there the tags decide bob's colour, so swapped
 * tags and a turned result go unseen: the gap the record closes. */
static void
test_old_game(void **state)
{
	struct shape	 sh = { false, false, "alice", "bob", "1-0" };
	char		*pgn = pgn_make(&sh), out[4096];

	(void)state;
	assert_int_equal(verify_text(pgn, out, sizeof out), 0);
	assert_non_null(strstr(out, "game 7: no creation record (a game "
	    "created before corrchess 0.2.0): the players' colours are "
	    "unsigned; they are taken from the moves each signed, else from "
	    "the PGN's White and Black tags\n"));
	free(pgn);
	sh.white = "bob";
	sh.black = "alice";
	sh.result = "0-1";
	pgn = pgn_make(&sh);
	assert_int_equal(verify_text(pgn, out, sizeof out), 0);
	assert_non_null(strstr(out, "result 0-1 (bob resigned at ply 1) OK"));
	free(pgn);
}

/* The records JSON: the creation record heads the chain; left out, the
 * first record's prev_hash no longer holds. */
static void
test_json(void **state)
{
	struct sig_creation	 c;
	struct sig_proof	*p = calloc(1, sizeof *p);
	struct verify_game	 vg;
	uint8_t			 sig[SIG_SIGNATURE_BYTES], head[SIG_HASH_BYTES];
	uint8_t			 prev[SIG_HASH_BYTES];
	char			 hex[2 * SIG_HASH_BYTES + 1], hex2[sizeof hex];
	char			 b64[128], line[SIG_PUBKEY_LINE_SIZE];
	char			 rawsig[SIG_RAWSIG_LINE_SIZE], why[256];
	char			 out[2048];
	json_t			*o, *recs;
	FILE			*f;

	(void)state;
	assert_non_null(p);
	creation_make(&c, false, sig, head);
	memcpy(prev, head, sizeof prev);
	record_make(p, 1, 0, "alice", "move e4", "move", K.alice_sk, prev);
	sodium_bin2hex(hex, sizeof hex, head, sizeof head);
	sodium_bin2hex(hex2, sizeof hex2, p->hash, sizeof p->hash);
	assert_int_equal(sig_rawsig_format(p->sig, rawsig, sizeof rawsig), 0);
	recs = json_pack("[{s:I,s:i,s:s,s:s,s:s,s:s,s:s,s:s}]", "seq",
	    (json_int_t)1, "ply", 0, "kind", "move", "san", "e4",
	    "statement", (const char *)p->st.canon, "signature", rawsig,
	    "prev_hash", hex, "hash", hex2);
	assert_int_equal(sig_pubkey_format(K.alice_pk, NULL, line,
	    sizeof line), 0);
	o = json_pack("{s:o,s:[{s:s,s:s}]}", "records", recs, "keys",
	    "player", "alice", "key", line);
	assert_int_equal(sig_pubkey_format(K.server_pk, NULL, line,
	    sizeof line), 0);
	json_object_set_new(o, "server_key", json_string(line));
	sodium_bin2base64(b64, sizeof b64, sig, sizeof sig,
	    sodium_base64_VARIANT_ORIGINAL);
	json_object_set_new(o, "creation", json_pack("{s:s,s:s,s:s}",
	    "record", (const char *)c.canon, "signature", b64, "hash", hex));

	assert_int_equal(verify_from_json(o, 0, &vg, why, sizeof why), 0);
	assert_int_equal(vg.id, GAME);
	f = fmemopen(out, sizeof out, "w");
	assert_int_equal(verify_run(&vg, f), 0);
	fclose(f);
	assert_non_null(strstr(out, "game 7: creation record: alice (White) "
	    "v bob (Black)"));
	verify_game_free(&vg);

	json_object_set_new(o, "creation", json_null());
	assert_int_equal(verify_from_json(o, 0, &vg, why, sizeof why), 0);
	f = fmemopen(out, sizeof out, "w");
	assert_int_equal(verify_run(&vg, f), -1);
	fclose(f);
	assert_non_null(strstr(out, "FAIL: prev_hash is not the hash of the "
	    "record before"));
	verify_game_free(&vg);
	json_decref(o);
	free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_creation_holds),
		cmocka_unit_test(test_creation_tags_swapped),
		cmocka_unit_test(test_creation_bytes),
		cmocka_unit_test(test_creation_rogue),
		cmocka_unit_test(test_old_game),
		cmocka_unit_test(test_json),
	};

	if (sig_init() != 0 || sig_keypair(K.server_pk, K.server_sk) != 0 ||
	    sig_keypair(K.rogue_pk, K.rogue_sk) != 0 ||
	    sig_keypair(K.alice_pk, K.alice_sk) != 0 ||
	    sig_keypair(K.bob_pk, K.bob_sk) != 0)
		return 1;
	chess_init();
	return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
