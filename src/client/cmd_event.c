/*
 * client/cmd_event.c: corrchess event and corrchess ratings: events'
 * crosstables and the rating list, read from the server.
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
 * The server draws the crosstable and the rating list as text (GET
 * /api/v1/events/NAME and /api/v1/ratings with Accept: text/plain); these
 * commands print what it sends, so curl and corrchess show the same grid.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_event.h"
#include "client/cmd_game.h"
#include "util/buf.h"

/* No option of its own: every option is the settings'. */
static int
cmd_event_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	(void)self;
	(void)id;
	(void)arg;
	(void)ctx;
	return CLI_EXIT_OK;
}

/* GET the path as `accept` and print the answer, or why there is none. */
static int
cmd_event_print(const struct cli_cmd *self, const char *server,
    const char *path, const char *accept)
{
	struct cli_http_reply	r;
	char			err[CLI_ERR_SIZE];
	int			rc = CLI_EXIT_FAIL;

	if (cli_http_start(self) == -1)
		return CLI_EXIT_FAIL;
	if (cli_http_request_as(server, NULL, "GET", path, accept, NULL, 0, NULL,
	    &r, err, sizeof err) != 0) {
		cli_error(self, "%s", err);
		goto out;
	}
	if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		cli_error(self, "%s", err);
	} else if (fwrite(r.body, 1, r.len, stdout) == r.len &&
	    fflush(stdout) == 0)
		rc = CLI_EXIT_OK;
	cli_http_reply_free(&r);
 out:
	cli_http_stop();
	return rc;
}

/* Run a read of the server with the settings' options and operands. */
static int
cmd_event_read(const struct cli_cmd *self, int argc, char **argv,
    const char *prefix, const char *suffix, int want, const char *accept)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ NULL, 0, 0, 0 }
	};
	struct cli_conf	 cf;
	struct buf	 path = { 0 };
	int		 ind, rc;

	memset(&cf, 0, sizeof cf);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_event_option, NULL, &ind)) != CLI_EXIT_OK)
		goto out;
	if (argc - ind > want || (want == 1 && suffix != NULL &&
	    argc - ind != 1)) {
		rc = cli_usage(self, argc - ind > want ? "too many operands" :
		    "name the event");
		goto out;
	}
	buf_adds(&path, prefix);
	if (argc - ind == 1) {
		buf_adds(&path, "/");
		cmd_game_query_add(&path, argv[ind]);
	}
	if (suffix != NULL)
		buf_adds(&path, suffix);
	rc = path.failed ? CLI_EXIT_FAIL : cmd_event_print(self, cf.server,
	    path.data, accept);
 out:
	buf_free(&path);
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/* corrchess event list | show NAME | pgn NAME */
int
cmd_event(const struct cli_cmd *self, int argc, char **argv)
{
	static const char	text[] = "text/plain; charset=utf-8";

	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", NULL, 0, text);
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", "", 1, text);
	if (argc >= 2 && strcmp(argv[1], "pgn") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", "/pgn", 1, "application/x-chess-pgn");
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return cli_help(self);
	return cli_usage(self, argc < 2 ? "give an action: list, show or pgn" :
	    "unknown action '%s' (list, show or pgn)", argv[1]);
}

/* corrchess ratings [NAME] */
int
cmd_event_ratings(const struct cli_cmd *self, int argc, char **argv)
{
	return cmd_event_read(self, argc, argv, "/api/v1/ratings", NULL, 1,
	    "text/plain; charset=utf-8");
}
