/*
 * client/cmd_record.c: corrchess export: games' records from the server.
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
 * `corrchess export GAME...` prints the PGN of each game (GET
 * /api/v1/games/ID/pgn, the signed record included), one after the other
 * with a blank line between; `--player NAME` exports every game of NAME,
 * read page by page from GET /api/v1/games?player=NAME.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_game.h"
#include "client/cmd_record.h"
#include "sig/sig.h"
#include "util/buf.h"

/* Games asked for in one page of the listing (the server's largest). */
#define EXPORT_PAGE	1000

enum {
	OPT_EXPORT_PLAYER,
};

/* What export was given. */
struct export_opts {
	struct cli_conf	 cf;
	const char	*player;	/* --player */
};

/* Take export's own option. */
static int
export_option(const struct cli_cmd *self, int id, const char *arg, void *ctx)
{
	struct export_opts	*o = ctx;

	(void)self;
	if (id != OPT_EXPORT_PLAYER)
		return CLI_EXIT_USAGE;
	o->player = arg;
	return CLI_EXIT_OK;
}

/* Print the PGN of one game; 0 or -1 (said on standard error). */
static int
export_game(const struct cli_cmd *self, const char *server, uint64_t id,
    int *first)
{
	struct cli_http_reply	r = { 0 };
	char			path[64], err[CLI_ERR_SIZE];
	int			rc = -1;

	snprintf(path, sizeof path, "/api/v1/games/%llu/pgn",
	    (unsigned long long)id);
	if (cli_http_request(server, "GET", path, NULL, 0, NULL, &r, err,
	    sizeof err) == -1) {
		cli_error(self, "%s", err);
		goto out;
	}
	if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		cli_error(self, "game %llu: %s", (unsigned long long)id, err);
		goto out;
	}
	if (!*first)
		putchar('\n');
	*first = 0;
	fwrite(r.body, 1, r.len, stdout);
	if (r.len > 0 && r.body[r.len - 1] != '\n')
		putchar('\n');
	rc = 0;
out:
	cli_http_reply_free(&r);
	return rc;
}

/*
 * Collect the numbers of every game of `player`, page by page, into a
 * malloc'd array; its size in *np. NULL (said) when the listing fails.
 */
static uint64_t *
export_player_games(const struct cli_cmd *self, const char *server,
    const char *player, size_t *np)
{
	struct cli_http_reply	 r = { 0 };
	struct buf		 q = { 0 };
	uint64_t		*ids = NULL, *p;
	json_t			*games, *row;
	json_int_t		 id;
	char			 err[CLI_ERR_SIZE], *path;
	size_t			 i, n = 0, offset = 0, len;

	for (;;) {
		buf_adds(&q, "/api/v1/games?player=");
		cmd_game_query_add(&q, player);
		buf_addf(&q, "&limit=%d&offset=%zu", EXPORT_PAGE, offset);
		if ((path = buf_take(&q, &len)) == NULL) {
			cli_error(self, "out of memory");
			goto fail;
		}
		if (cli_http_request(server, "GET", path, NULL, 0, NULL, &r,
		    err, sizeof err) == -1) {
			free(path);
			cli_error(self, "%s", err);
			goto fail;
		}
		free(path);
		if (r.status != 200) {
			cli_http_reply_error(&r, err, sizeof err);
			cli_error(self, "%s", err);
			goto fail;
		}
		games = json_is_object(r.json) ? json_object_get(r.json,
		    "games") : NULL;
		if (!json_is_array(games)) {
			cli_error(self, "the server at %s did not answer with "
			    "a list of games", server);
			goto fail;
		}
		if ((p = realloc(ids, (n + json_array_size(games) + 1) *
		    sizeof *ids)) == NULL) {
			cli_error(self, "out of memory");
			goto fail;
		}
		ids = p;
		json_array_foreach(games, i, row)
			if (cli_http_json_int(row, "id", &id) && id > 0)
				ids[n++] = (uint64_t)id;
		if (json_array_size(games) < EXPORT_PAGE)
			break;
		offset += json_array_size(games);
		cli_http_reply_free(&r);
	}
	cli_http_reply_free(&r);
	*np = n;
	return ids;
fail:
	cli_http_reply_free(&r);
	free(ids);
	return NULL;
}

/* corrchess export [-s URL] [--player NAME] [GAME...] */
int
cmd_record_export(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "player", 'p', 1, OPT_EXPORT_PLAYER },
		{ NULL, 0, 0, 0 }
	};
	struct export_opts	 o;
	uint64_t		*ids = NULL, id;
	size_t			 n = 0, i;
	int			 ind, rc, started = 0, first = 1, failed = 0;

	memset(&o, 0, sizeof o);
	if ((rc = cli_conf_options(self, argc, argv, opts, &o.cf,
	    export_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	if (o.player == NULL && ind == argc) {
		rc = cli_usage(self, "give game numbers, or --player NAME");
		goto out;
	}
	if (o.player != NULL && ind != argc) {
		rc = cli_usage(self, "give game numbers or --player NAME, "
		    "not both");
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
	if (o.player != NULL) {
		if ((ids = export_player_games(self, o.cf.server, o.player,
		    &n)) == NULL) {
			rc = CLI_EXIT_FAIL;
			goto out;
		}
		if (n == 0)
			fprintf(stderr, "corrchess export: %s has no games\n",
			    o.player);
		for (i = 0; i < n; i++)
			failed |= export_game(self, o.cf.server, ids[i],
			    &first);
	} else
		for (i = (size_t)ind; i < (size_t)argc; i++) {
			cli_conf_number(argv[i], SIG_GAME_MAX, &id);
			failed |= export_game(self, o.cf.server, id, &first);
		}
	rc = failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
	if (started)
		cli_http_stop();
	free(ids);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
