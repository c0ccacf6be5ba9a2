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
 * `corrchess verify [-s URL] GAME|FILE...`: for a game number, its record
 * as the server exports it (GET /api/v1/games/ID/records, with the
 * players' keys and the server's); for a FILE, a records export saved
 * (JSON) or a PGN export (every game in it, read with its comments), even
 * after a PGN tool rewrote it: checked offline by client/verify.c. "-"
 * reads standard input.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "chess/pgn.h"
#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_verify.h"
#include "client/verify.h"
#include "sig/sig.h"

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

/* The server's key given with --server-key, if any. */
struct pin {
	bool	set;
	uint8_t	pk[SIG_PUBKEY_BYTES];
};

/* Check a game read from an export against the pinned key, then run the
 * check; 0 or -1. */
static int
run_pinned(const struct pin *pin, struct verify_game *vg, const char *where)
{
	char	why[256];

	if (pin->set && verify_server_pin(vg, pin->pk, why, sizeof why) != 0) {
		printf("%s: game %" PRIu64 ": FAIL: %s\n", where, vg->id, why);
		return -1;
	}
	return verify_run(vg, stdout);
}

/* Take --server-key: the key (an OpenSSH line or base64) or a file that
 * holds it (the server's server.key.pub). */
static int
server_key_opt(const struct cli_cmd *self, int id, const char *arg, void *ctx)
{
	struct pin	*pin = ctx;
	char		*text = NULL;
	size_t		 len = 0;
	int		 rc = CLI_EXIT_USAGE;

	(void)id;
	if (sig_pubkey_parse(arg, pin->pk, NULL) == 0)
		rc = CLI_EXIT_OK;
	else if (cli_read_file(arg, &text, &len) == 0 &&
	    sig_pubkey_parse(text, pin->pk, NULL) == 0)
		rc = CLI_EXIT_OK;
	else
		cli_error(self, "--server-key %s: neither a public key (an "
		    "OpenSSH line or base64) nor a file holding one", arg);
	free(text);
	pin->set = rc == CLI_EXIT_OK;
	return rc;
}

/* Verify game `id` as the server exports it; 0 or -1. */
static int
verify_server(const struct cli_cmd *self, const char *server, uint64_t id,
    const struct pin *pin)
{
	struct verify_game	 vg;
	json_t			*j, *k = NULL;
	const char		*b64;
	char			 path[64], why[256];
	size_t			 n = 0;
	int			 rc = -1;

	snprintf(path, sizeof path, "/api/v1/games/%llu/records",
	    (unsigned long long)id);
	if ((j = get_json(self, server, path)) == NULL)
		return -1;
	if (verify_from_json(j, id, &vg, why, sizeof why) != 0)
		cli_error(self, "game %llu: %s", (unsigned long long)id, why);
	else {
		/* A server of before the keys in the export. */
		if (!vg.has_server && (k = get_json(self, server,
		    "/api/v1/server-key")) != NULL &&
		    (b64 = cli_http_json_str(k, "base64")) != NULL &&
		    sodium_base642bin(vg.server, sizeof vg.server, b64,
		    strlen(b64), NULL, &n, NULL,
		    sodium_base64_VARIANT_ORIGINAL) == 0 &&
		    n == sizeof vg.server)
			vg.has_server = true;
		rc = run_pinned(pin, &vg, server);
	}
	verify_game_free(&vg);
	json_decref(k);
	json_decref(j);
	return rc;
}

/* Verify every game of a PGN text; 0 or -1. */
static int
verify_pgn(const struct cli_cmd *self, const char *path, const char *text,
    size_t len, const struct pin *pin)
{
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 pg;
	struct verify_game	 vg;
	char			 why[384];
	int			 got, rc = 0, ngames = 0;

	memset(&pg, 0, sizeof pg);
	chess_pgn_reader_init(&rd, text, len);
	rd.keep_comments = 1;
	while ((got = chess_pgn_next(&rd, &pg, why, sizeof why)) != 0) {
		ngames++;
		if (got < 0) {
			cli_error(self, "%s: %s", path, why);
			rc = -1;
			continue;
		}
		if (verify_from_pgn(&pg, &vg, why, sizeof why) != 0) {
			printf("%s: game %d: FAIL: %s\n", path, ngames, why);
			rc = -1;
		} else if (run_pinned(pin, &vg, path) != 0)
			rc = -1;
		verify_game_free(&vg);
	}
	chess_pgn_game_free(&pg);
	if (ngames == 0) {
		cli_error(self, "%s: no game in it", path);
		rc = -1;
	}
	return rc;
}

/* Verify a file: a records export (JSON) or a PGN; 0 or -1. */
static int
verify_file(const struct cli_cmd *self, const char *path,
    const struct pin *pin)
{
	struct verify_game	 vg;
	json_error_t		 je;
	json_t			*j;
	char			*text = NULL, why[256];
	size_t			 len = 0, skip;
	int			 rc = -1;

	memset(&vg, 0, sizeof vg);
	if (cli_read_file(path, &text, &len) != 0) {
		cli_error(self, "%s: %s", path, strerror(errno));
		return -1;
	}
	skip = strspn(text, " \t\r\n");
	if (skip < len && text[skip] == '{') {
		if ((j = json_loadb(text, len, 0, &je)) == NULL)
			cli_error(self, "%s: not JSON: %s (line %d)", path,
			    je.text, je.line);
		else if (verify_from_json(j, 0, &vg, why, sizeof why) != 0)
			cli_error(self, "%s: %s", path, why);
		else if (vg.nrecs == 0 && !vg.has_creation)
			printf("%s: FAIL: no records: nothing in this game was "
			    "signed yet, so there is nothing to verify\n", path);
		else
			rc = run_pinned(pin, &vg, path);
		verify_game_free(&vg);
		json_decref(j);
	} else
		rc = verify_pgn(self, path, text, len, pin);
	free(text);
	return rc;
}

/* True when `s` is a game number. */
static bool
is_game(const char *s)
{
	uint64_t	id;

	return cli_conf_number(s, SIG_GAME_MAX, &id) == 0 && id > 0;
}

/* corrchess verify [-s URL] [--server-key KEY] GAME|FILE... */
int
cmd_verify(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "server-key", 0, 1, 1 },
		{ NULL, 0, 0, 0 }
	};
	struct cli_conf	 cf;
	struct pin	 pin = { 0 };
	uint64_t	 id;
	int		 ind, rc, i, started = 0, failed = 0;

	memset(&cf, 0, sizeof cf);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf, server_key_opt,
	    &pin, &ind)) != CLI_EXIT_OK)
		goto out;
	if (ind == argc) {
		rc = cli_usage(self, "give game numbers or files");
		goto out;
	}
	for (i = ind; i < argc; i++) {
		if (!is_game(argv[i])) {
			failed |= verify_file(self, argv[i], &pin);
			continue;
		}
		if (!started && cli_http_start(self) == -1) {
			rc = CLI_EXIT_FAIL;
			goto out;
		}
		started = 1;
		cli_conf_number(argv[i], SIG_GAME_MAX, &id);
		failed |= verify_server(self, cf.server, id, &pin);
	}
	rc = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
	if (started)
		cli_http_stop();
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
