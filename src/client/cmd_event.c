/*
 * client/cmd_event.c: corrchess event and corrchess ratings: events
 * created, run and read, and the rating list.
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
 * The admin's actions (create, add, remove, start, withdraw) are the
 * REST calls of doc/api.md with the admin token; each prints the event
 * as it then stands.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_admin.h"
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

/* How the value of a rule's option goes into the event's JSON. */
enum event_rule_type {
	RULE_STRING,
	RULE_NUMBER,	/* a decimal */
	RULE_YESNO,	/* yes or no: true or false */
	RULE_LIST,	/* names separated by commas: an array */
	RULE_960,	/* a number, or the string "per-pairing" */
	RULE_DAYS,	/* a number, or "server": null */
};

/* The options of `event create` and `event edit`, each a member of POST
 * /api/v1/events or PATCH /api/v1/events/NAME; the option's id is its
 * row. */
static const struct event_rule {
	const char		*option;
	const char		*member;
	enum event_rule_type	 type;
} event_rules[] = {
	{ "title", "title", RULE_STRING },
	{ "site", "site", RULE_STRING },
	{ "format", "format", RULE_STRING },
	{ "games", "games", RULE_NUMBER },
	{ "variant", "variant", RULE_STRING },
	{ "chess960", "chess960", RULE_960 },
	{ "fen", "fen", RULE_STRING },
	{ "time-control", "time_control", RULE_STRING },
	{ "policy", "policy", RULE_STRING },
	{ "rated", "rated", RULE_YESNO },
	{ "tiebreaks", "tiebreaks", RULE_LIST },
	{ "withdrawal", "withdrawal", RULE_STRING },
	{ "auth", "auth", RULE_STRING },
	{ "draw-min-move", "draw_min_move", RULE_NUMBER },
	{ "draw-offer-every", "draw_offer_every", RULE_NUMBER },
	{ "leave-days", "leave_days", RULE_DAYS },
};
#define EVENT_NRULES	(sizeof event_rules / sizeof event_rules[0])

/* The id of --token-file, after the rules'. */
#define OPT_EVENT_TOKEN_FILE	100

/* What the options of an admin action gathered. */
struct event_admin {
	json_t		*body;		/* the rules given */
	const char	*token_file;
};

/* Read a decimal, or -1. */
static long
event_number(const char *s)
{
	uint64_t	v;

	if (cli_conf_number(s, 1000000, &v) != 0)
		return -1;
	return (long)v;
}

/* Turn a comma-separated list into a JSON array. */
static json_t *
event_list(const char *s)
{
	json_t		*a = json_array();
	const char	*e;

	while (a != NULL && *s != '\0') {
		e = s + strcspn(s, ",");
		if (e > s)
			json_array_append_new(a, json_stringn(s,
			    (size_t)(e - s)));
		s = *e == ',' ? e + 1 : e;
	}
	return a;
}

/* Take an admin action's option: a rule, or --token-file. */
static int
cmd_event_admin_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct event_admin		*ea = ctx;
	const struct event_rule		*r;
	json_t				*v = NULL;
	long				 n;

	if (id == OPT_EVENT_TOKEN_FILE) {
		ea->token_file = arg;
		return CLI_EXIT_OK;
	}
	if (id < 0 || (size_t)id >= EVENT_NRULES)
		return CLI_EXIT_USAGE;
	r = &event_rules[id];
	switch (r->type) {
	case RULE_STRING:
		v = json_string(arg);
		break;
	case RULE_NUMBER:
		if ((n = event_number(arg)) < 0)
			return cli_usage(self, "--%s takes a number",
			    r->option);
		v = json_integer(n);
		break;
	case RULE_YESNO:
		if (strcmp(arg, "yes") != 0 && strcmp(arg, "no") != 0)
			return cli_usage(self, "--%s takes yes or no",
			    r->option);
		v = json_boolean(strcmp(arg, "yes") == 0);
		break;
	case RULE_LIST:
		v = event_list(arg);
		break;
	case RULE_960:
		n = event_number(arg);
		v = n >= 0 ? json_integer(n) : json_string(arg);
		break;
	case RULE_DAYS:
		if ((n = event_number(arg)) < 0 && strcmp(arg, "server") != 0)
			return cli_usage(self, "--%s takes a number of days "
			    "or \"server\"", r->option);
		v = n >= 0 ? json_integer(n) : json_null();
		break;
	}
	if (v == NULL || json_object_set_new(ea->body, r->member, v) != 0) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Send one admin request; 0 when the server did it, else -1 after
 * printing its reason. */
static int
cmd_event_send(const struct cli_cmd *self, const char *server,
    const char *token, const char *method, const char *path, json_t *body)
{
	struct cli_http_reply	 r;
	char			 err[CLI_ERR_SIZE], *text = NULL;
	int			 rc = -1;

	if (body != NULL && (text = json_dumps(body, JSON_COMPACT)) == NULL) {
		cli_error(self, "out of memory");
		return -1;
	}
	if (cli_http_request_as(server, token, method, path, NULL, text,
	    text != NULL ? strlen(text) : 0, text != NULL ?
	    "application/json" : NULL, &r, err, sizeof err) != 0) {
		cli_error(self, "%s", err);
		goto out;
	}
	if (r.status < 200 || r.status > 299) {
		cli_http_reply_error(&r, err, sizeof err);
		cli_error(self, "%s", err);
	} else
		rc = 0;
	cli_http_reply_free(&r);
 out:
	free(text);
	return rc;
}

/* Write /api/v1/events/NAME[SUFFIX[/ITEM]] into `path`. */
static void
event_path(struct buf *path, const char *name, const char *suffix,
    const char *item)
{
	buf_adds(path, "/api/v1/events/");
	cmd_game_query_add(path, name);
	if (suffix != NULL)
		buf_adds(path, suffix);
	if (item != NULL) {
		buf_adds(path, "/");
		cmd_game_query_add(path, item);
	}
}

/*
 * Run an admin action on an event: `create` (the rules from the options,
 * the players from the operands after NAME), `edit` (the rules given
 * change, before the start), `add` and `remove` (each
 * player named), `start`, `withdraw` (the players named); then print the
 * event as it stands.
 */
static int
cmd_event_admin(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option	 base[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "token-file", 't', 1, OPT_EVENT_TOKEN_FILE },
	};
	struct cli_option		 opts[EVENT_NRULES + 3];
	struct event_admin		 ea = { NULL, NULL };
	struct cli_conf			 cf;
	struct buf			 path = { 0 };
	const char			*action = argv[0], *name;
	char				 err[CLI_ERR_SIZE], *token = NULL;
	json_t				*players = NULL, *one = NULL;
	size_t				 i, nopts = 0;
	int				 ind, rc, started = 0, operands;

	memset(&cf, 0, sizeof cf);
	memset(opts, 0, sizeof opts);
	opts[nopts++] = base[0];
	opts[nopts++] = base[1];
	for (i = 0; (strcmp(action, "create") == 0 ||
	    strcmp(action, "edit") == 0) && i < EVENT_NRULES; i++)
		opts[nopts++] = (struct cli_option){ event_rules[i].option, 0,
		    1, (int)i };
	if ((ea.body = json_object()) == NULL) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_event_admin_option, &ea, &ind)) != CLI_EXIT_OK)
		goto out;
	operands = argc - ind;
	if (operands < 1 || ((strcmp(action, "start") == 0 ||
	    strcmp(action, "edit") == 0) && operands != 1) ||
	    ((strcmp(action, "add") == 0 || strcmp(action, "remove") == 0 ||
	    strcmp(action, "withdraw") == 0) && operands < 2)) {
		rc = cli_usage(self, "%s: %s", action, operands < 1 ?
		    "name the event" : strcmp(action, "start") == 0 ||
		    strcmp(action, "edit") == 0 ? "name one event" :
		    "name the event and a player");
		goto out;
	}
	name = argv[ind];
	rc = CLI_EXIT_FAIL;
	if (cmd_admin_token(ea.token_file, &cf, &token, err, sizeof err) != 0) {
		cli_error(self, "%s", err);
		goto out;
	}
	if (cli_http_start(self) == -1)
		goto out;
	started = 1;
	if (strcmp(action, "create") == 0) {
		if ((players = json_array()) == NULL)
			goto oom;
		for (i = (size_t)ind + 1; i < (size_t)argc; i++)
			json_array_append_new(players, json_string(argv[i]));
		if (json_object_set_new(ea.body, "name", json_string(name)) ||
		    json_object_set(ea.body, "players", players) != 0)
			goto oom;
		if (cmd_event_send(self, cf.server, token, "POST",
		    "/api/v1/events", ea.body) != 0)
			goto out;
	} else if (strcmp(action, "edit") == 0) {
		event_path(&path, name, NULL, NULL);
		if (path.failed || cmd_event_send(self, cf.server, token,
		    "PATCH", path.data, ea.body) != 0)
			goto out;
	} else if (strcmp(action, "start") == 0) {
		/* An empty object: a POST with a body. */
		json_decref(one);
		if ((one = json_object()) == NULL)
			goto oom;
		event_path(&path, name, "/start", NULL);
		if (path.failed || cmd_event_send(self, cf.server, token,
		    "POST", path.data, one) != 0)
			goto out;
	} else
		for (i = (size_t)ind + 1; i < (size_t)argc; i++) {
			buf_free(&path);
			memset(&path, 0, sizeof path);
			json_decref(one);
			one = json_pack("{s:s}", "player", argv[i]);
			if (strcmp(action, "remove") == 0)
				event_path(&path, name, "/players", argv[i]);
			else
				event_path(&path, name, strcmp(action,
				    "add") == 0 ? "/players" : "/withdrawals",
				    NULL);
			if (one == NULL || path.failed)
				goto oom;
			if (cmd_event_send(self, cf.server, token,
			    strcmp(action, "remove") == 0 ? "DELETE" : "POST",
			    path.data, strcmp(action, "remove") == 0 ? NULL :
			    one) != 0)
				goto out;
		}
	buf_free(&path);
	memset(&path, 0, sizeof path);
	event_path(&path, name, NULL, NULL);
	if (path.failed)
		goto oom;
	rc = cmd_event_print(self, cf.server, path.data,
	    "text/plain; charset=utf-8");
	goto out;
 oom:
	cli_error(self, "out of memory");
	rc = CLI_EXIT_FAIL;
 out:
	if (started)
		cli_http_stop();
	cmd_admin_token_free(token);
	json_decref(players);
	json_decref(one);
	json_decref(ea.body);
	buf_free(&path);
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/* corrchess event ACTION ...: list | show NAME | pgn NAME, and the
 * admin's create | edit | add | remove | start | withdraw. */
int
cmd_event(const struct cli_cmd *self, int argc, char **argv)
{
	static const char	text[] = "text/plain; charset=utf-8";
	static const char *const admin[] = { "create", "edit", "add",
	    "remove", "start", "withdraw" };
	size_t			i;

	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", NULL, 0, text);
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", "", 1, text);
	if (argc >= 2 && strcmp(argv[1], "pgn") == 0)
		return cmd_event_read(self, argc - 1, argv + 1,
		    "/api/v1/events", "/pgn", 1, "application/x-chess-pgn");
	for (i = 0; argc >= 2 && i < sizeof admin / sizeof admin[0]; i++)
		if (strcmp(argv[1], admin[i]) == 0)
			return cmd_event_admin(self, argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return cli_help(self);
	return cli_usage(self, argc < 2 ? "give an action: list, show, pgn, "
	    "create, edit, add, remove, start or withdraw" : "unknown action "
	    "'%s' (list, show, pgn, create, edit, add, remove, start or "
	    "withdraw)", argv[1]);
}

/* corrchess ratings [NAME] */
int
cmd_event_ratings(const struct cli_cmd *self, int argc, char **argv)
{
	return cmd_event_read(self, argc, argv, "/api/v1/ratings", NULL, 1,
	    "text/plain; charset=utf-8");
}
