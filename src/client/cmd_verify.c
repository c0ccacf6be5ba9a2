/*
 * client/cmd_verify.c: corrchess verify: a game's record checked.
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
 * `corrchess verify GAME...` reads each game's record (GET
 * /api/v1/games/ID/records) and the server's key (GET /api/v1/server-key)
 * and checks, as doc/signatures.md says: every record's hash recomputed
 * from the one before, its statement and its signature bytes; every
 * record the server attested signed by the server's key over its
 * statement. It lists the attested plies, with the door. A record signed
 * by the player is checked against the chain; its signature is the
 * player's, whose keys the server does not publish.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_verify.h"
#include "sig/sig.h"
#include "util/buf.h"

/* GET a JSON object from the server; NULL (said) on failure. */
static json_t *
get_json(const struct cli_cmd *self, const char *server, const char *path)
{
	struct cli_http_reply	 r = { 0 };
	char			 err[CLI_ERR_SIZE];
	json_t			*j = NULL;

	if (cli_http_request(server, "GET", path, NULL, 0, NULL, &r, err,
	    sizeof err) == -1)
		cli_error(self, "%s", err);
	else if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		cli_error(self, "%s: %s", path, err);
	} else if (!json_is_object(r.json))
		cli_error(self, "%s: the answer is not a JSON object", path);
	else
		j = json_incref(r.json);
	cli_http_reply_free(&r);
	return j;
}

/* Read a 32-byte hash in hex; -1 when it is not one. */
static int
hash_read(const char *hex, uint8_t out[SIG_HASH_BYTES])
{
	size_t	n = 0;

	if (hex == NULL || strlen(hex) != 2 * SIG_HASH_BYTES ||
	    sodium_hex2bin(out, SIG_HASH_BYTES, hex, strlen(hex), NULL, &n,
	    NULL) != 0 || n != SIG_HASH_BYTES)
		return -1;
	return 0;
}

/* The door that let a record in without its player's signature: the
 * attested member, or "admin" for the admin's abort and adjudicate (signed
 * by the server too); NULL for a player's own. */
static const char *
record_door(const json_t *rec)
{
	const char	*kind = cli_http_json_str(rec, "kind");

	if (cli_http_json_str(rec, "attested") != NULL)
		return cli_http_json_str(rec, "attested");
	if (kind != NULL && (strcmp(kind, "abort") == 0 ||
	    strcmp(kind, "adjudicate") == 0))
		return "admin";
	return NULL;
}

/*
 * Check one record after `prev` (updated to its hash): the chain, and the
 * server's signature when it is attested. 0, or -1 with why in `why`.
 */
static int
record_check(const json_t *rec, uint8_t prev[SIG_HASH_BYTES],
    const uint8_t server_pk[SIG_PUBKEY_BYTES], bool have_key, char *why,
    size_t whysize)
{
	const char		*stmt = cli_http_json_str(rec, "statement");
	const char		*sig = cli_http_json_str(rec, "signature");
	const char		*kind = cli_http_json_str(rec, "kind");
	const char		*attested = record_door(rec);
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum sig_error		 se;
	struct buf		 b = { 0 };
	const uint8_t		*gb = NULL;
	uint8_t			 h[SIG_HASH_BYTES], want[SIG_HASH_BYTES];
	uint8_t			 back[SIG_HASH_BYTES];
	size_t			 gl = 0;
	int			 rc = -1;

	if (hash_read(cli_http_json_str(rec, "prev_hash"), back) != 0 ||
	    hash_read(cli_http_json_str(rec, "hash"), want) != 0 ||
	    kind == NULL) {
		snprintf(why, whysize, "the record is malformed");
		goto out;
	}
	if (memcmp(back, prev, SIG_HASH_BYTES) != 0) {
		snprintf(why, whysize, "prev_hash is not the hash of the "
		    "record before");
		goto out;
	}
	if (stmt != NULL) {
		buf_addf(&b, "%s%s", stmt, sig != NULL ? sig : "");
		if (b.data == NULL || sig_statement_parse(b.data, b.len, &st,
		    &sg, &se) != 0) {
			snprintf(why, whysize, "the statement or signature "
			    "cannot be read: %s", b.data == NULL ?
			    "out of memory" : sig_strerror(se));
			goto out;
		}
		gb = sig_signature_bytes(&sg, &gl);
	}
	sig_record_hash(prev, (const uint8_t *)(stmt != NULL ? stmt : kind),
	    strlen(stmt != NULL ? stmt : kind), gb, gl, h);
	if (memcmp(h, want, SIG_HASH_BYTES) != 0) {
		snprintf(why, whysize, "its hash does not match its contents");
		goto out;
	}
	if (attested != NULL) {
		if (!have_key) {
			snprintf(why, whysize, "attested, but the server "
			    "publishes no key");
			goto out;
		}
		if (stmt == NULL || sg.form != SIG_FORM_RAW ||
		    sig_verify(st.canon, st.canon_len, sg.raw,
		    server_pk) != 0) {
			snprintf(why, whysize, "attested (%s), but not signed "
			    "by the server's key", attested);
			goto out;
		}
	}
	memcpy(prev, h, SIG_HASH_BYTES);
	rc = 0;
 out:
	buf_free(&b);
	return rc;
}

/* Verify one game's record and print what was found; 0 or -1. */
static int
verify_game(const struct cli_cmd *self, const char *server, uint64_t id,
    const uint8_t server_pk[SIG_PUBKEY_BYTES], bool have_key)
{
	json_t		*j, *recs, *rec;
	uint8_t		 prev[SIG_HASH_BYTES] = { 0 };
	char		 path[64], why[256];
	struct buf	 plies = { 0 };
	size_t		 i, n, nattested = 0;
	json_int_t	 ply;
	int		 rc = -1;

	snprintf(path, sizeof path, "/api/v1/games/%llu/records",
	    (unsigned long long)id);
	if ((j = get_json(self, server, path)) == NULL)
		return -1;
	recs = json_object_get(j, "records");
	n = json_is_array(recs) ? json_array_size(recs) : 0;
	for (i = 0; i < n; i++) {
		rec = json_array_get(recs, i);
		if (record_check(rec, prev, server_pk, have_key, why,
		    sizeof why) != 0) {
			printf("game %llu: record %zu: %s\n",
			    (unsigned long long)id, i + 1, why);
			goto out;
		}
		if (record_door(rec) != NULL) {
			cli_http_json_int(rec, "ply", &ply);
			buf_addf(&plies, "%s%lld (%s, %s)", nattested ? ", " :
			    "", (long long)ply, cli_http_json_str(rec, "san") ?
			    cli_http_json_str(rec, "san") :
			    cli_http_json_str(rec, "kind"), record_door(rec));
			nattested++;
		}
	}
	printf("game %llu: %zu records, the chain holds; %zu attested by the "
	    "server%s%s\n", (unsigned long long)id, n, nattested,
	    nattested == 0 ? "" : nattested == 1 ? " at ply " : " at plies ",
	    nattested ? plies.data : "");
	rc = 0;
 out:
	buf_free(&plies);
	json_decref(j);
	return rc;
}

/* corrchess verify [-s URL] GAME... */
int
cmd_verify(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ NULL, 0, 0, 0 }
	};
	struct cli_conf	 cf;
	json_t		*k = NULL;
	uint8_t		 pk[SIG_PUBKEY_BYTES];
	uint64_t	 id;
	const char	*b64;
	size_t		 n = 0, i;
	int		 ind, rc, started = 0, failed = 0;
	bool		 have_key = false;

	memset(&cf, 0, sizeof cf);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf, NULL, NULL,
	    &ind)) != CLI_EXIT_OK)
		goto out;
	if (ind == argc) {
		rc = cli_usage(self, "give game numbers");
		goto out;
	}
	for (i = (size_t)ind; i < (size_t)argc; i++)
		if (cli_conf_number(argv[i], SIG_GAME_MAX, &id) == -1 ||
		    id == 0) {
			rc = cli_usage(self, "'%s' is not a game number",
			    argv[i]);
			goto out;
		}
	if (cli_http_start(self) == -1) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	started = 1;
	if ((k = get_json(self, cf.server, "/api/v1/server-key")) != NULL &&
	    (b64 = cli_http_json_str(k, "base64")) != NULL &&
	    sodium_base642bin(pk, sizeof pk, b64, strlen(b64), NULL, &n, NULL,
	    sodium_base64_VARIANT_ORIGINAL) == 0 && n == sizeof pk)
		have_key = true;
	for (i = (size_t)ind; i < (size_t)argc; i++) {
		cli_conf_number(argv[i], SIG_GAME_MAX, &id);
		failed |= verify_game(self, cf.server, id, pk, have_key);
	}
	rc = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
	json_decref(k);
	if (started)
		cli_http_stop();
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
