/*
 * client/cmd_mail.c: corrchess mail-move: a move as a ready mail.
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
 * corrchess mail-move: a move as a ready mail for the server's move
 * mailbox. The game is read from the server (its ply, its players, whose
 * move it is), the statement for its current ply is signed, and the whole
 * message is printed (headers, a blank line, the signed statement) for
 * sendmail -t or a mail client.
 */

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cli_keys.h"
#include "client/cmd_mail.h"
#include "sig/sig.h"

/* Option ids of mail-move's own options. */
enum { OPT_SSH, OPT_TO, OPT_FROM, OPT_OFFER_DRAW, OPT_MESSAGE, OPT_LANG };

/* What mail-move was given. */
struct cmd_mail_opts {
	struct cli_conf	 cf;
	const char	*to;		/* the move mailbox, or NULL */
	const char	*from;		/* the player's address, or NULL */
	const char	*message;	/* to the opponent, or NULL */
	const char	*lang;		/* --lang, or NULL */
	enum sig_form	 form;
	bool		 offer_draw;
};

/* The game as the server sent it: what the mail needs. */
struct cmd_mail_game {
	json_int_t	 ply;
	const char	*white;
	const char	*black;
	const char	*status;
	const char	*turn;
};

/* Tell whether an address is one line of printable ASCII, no <>. */
static bool
cmd_mail_address_ok(const char *s)
{
	const unsigned char	*p;

	if (*s == '\0')
		return false;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '<' || *p == '>')
			return false;
	}
	return true;
}

/* Read the members of a game answer, or say which is missing. */
static int
cmd_mail_game_read(const json_t *j, struct cmd_mail_game *g, char *err,
    size_t errsize)
{
	const char	*missing = NULL;

	memset(g, 0, sizeof *g);
	if (!cli_http_json_int(j, "ply", &g->ply) || g->ply < 0 ||
	    (uint64_t)g->ply > SIG_PLY_MAX)
		missing = "ply";
	else if ((g->white = cli_http_json_str(j, "white")) == NULL)
		missing = "white";
	else if ((g->black = cli_http_json_str(j, "black")) == NULL)
		missing = "black";
	else if ((g->status = cli_http_json_str(j, "status")) == NULL)
		missing = "status";
	else if ((g->turn = cli_http_json_str(j, "turn")) == NULL ||
	    (strcmp(g->turn, "white") != 0 && strcmp(g->turn, "black") != 0))
		missing = "turn";
	if (missing != NULL) {
		snprintf(err, errsize, "the server's answer is not a game: "
		    "\"%s\" missing or wrong", missing);
		return -1;
	}
	return 0;
}

/* Tell whether mail-move speaks French: --lang, else "lang =". */
static bool
cmd_mail_fr(const struct cmd_mail_opts *o)
{
	const char	*lang = o->lang != NULL ? o->lang : o->cf.lang;

	return lang != NULL && strcmp(lang, "fr") == 0;
}

/* Check that the player may move now, saying why not in French when `fr`;
 * the player's colour in *colorp. */
static int
cmd_mail_check(const struct cmd_mail_game *g, uint64_t id, const char *player,
    bool fr, const char **colorp, char *err, size_t errsize)
{
	const char	*color;

	if (strcmp(g->status, "ongoing") != 0) {
		snprintf(err, errsize, fr ? "la partie %llu est finie" :
		    "game %llu is over", (unsigned long long)id);
		return -1;
	}
	if (strcmp(player, g->white) != 0 && strcmp(player, g->black) != 0) {
		snprintf(err, errsize, fr ? "%s ne joue pas dans la partie "
		    "%llu (%s c. %s)" : "%s does not play in game %llu (%s v "
		    "%s)", player, (unsigned long long)id, g->white, g->black);
		return -1;
	}
	/* A player on both sides (a test game) is always on the move. */
	if (strcmp(g->white, g->black) == 0)
		color = g->turn;
	else
		color = strcmp(player, g->white) == 0 ? "white" : "black";
	if (strcmp(color, g->turn) != 0) {
		if (fr)
			snprintf(err, errsize, "ce n'est pas à %s de jouer "
			    "dans la partie %llu", player,
			    (unsigned long long)id);
		else
			snprintf(err, errsize, "it is not %s's move in game "
			    "%llu", player, (unsigned long long)id);
		return -1;
	}
	*colorp = color;
	return 0;
}

/* Print the mail: headers, then the signed statement. */
static void
cmd_mail_print(const struct cmd_mail_opts *o, uint64_t id,
    const struct cmd_mail_game *g, const char *color, const char *move,
    const char *signed_text)
{
	const char	*domain, *at;
	char		 date[64], rnd[17];
	unsigned char	 bytes[8];
	time_t		 now = time(NULL);
	struct tm	 tm;

	if (o->from != NULL)
		printf("From: %s\n", o->from);
	if (o->to != NULL)
		printf("To: %s\n", o->to);
	/* As the server's notices of the game say it (in French with
	 * --lang fr or "lang = fr"). */
	if (cmd_mail_fr(o))
		printf("Subject: [corrchess] Partie %llu, %s c. %s : coup %s\n",
		    (unsigned long long)id, g->white, g->black, move);
	else
		printf("Subject: [corrchess] Game %llu, %s v %s: move %s\n",
		    (unsigned long long)id, g->white, g->black, move);
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
	printf("Date: %s\n", date);
	/* A fresh id: the server sets aside a Message-ID it has seen. */
	randombytes_buf(bytes, sizeof bytes);
	sodium_bin2hex(rnd, sizeof rnd, bytes, sizeof bytes);
	at = o->from != NULL ? strrchr(o->from, '@') : NULL;
	printf("Message-ID: <corrchess.%llu.%llu.%s@%s>\n",
	    (unsigned long long)id, (unsigned long long)g->ply, rnd,
	    at != NULL && at[1] != '\0' ? at + 1 : "localhost");
	/* The server's thread of this game for this player: its notices
	 * come from the move mailbox's domain. */
	at = o->to != NULL ? strrchr(o->to, '@') : NULL;
	if (at != NULL && at[1] != '\0') {
		domain = at + 1;
		printf("In-Reply-To: <game-%llu.%s@%s>\n",
		    (unsigned long long)id, color, domain);
		printf("References: <game-%llu.%s@%s>\n",
		    (unsigned long long)id, color, domain);
	}
	printf("MIME-Version: 1.0\n");
	printf("Content-Type: text/plain; charset=utf-8\n");
	printf("Content-Transfer-Encoding: 7bit\n");
	printf("\n%s", signed_text);
}

/* Read the game, sign the move for its ply and print the mail. */
static int
cmd_mail_make(const struct cli_cmd *self, struct cmd_mail_opts *o,
    uint64_t id, const char *move)
{
	struct cli_http_reply	 r = { 0 };
	struct cmd_mail_game	 g;
	struct sig_statement	 st;
	struct cli_signer	 sg;
	const char		*color;
	char			 err[CLI_ERR_SIZE], keypath[4096], path[64];
	char			 signed_text[SIG_SIGNED_SIZE];
	char			*action = NULL;
	int			 rc = CLI_EXIT_FAIL;

	memset(&sg, 0, sizeof sg);
	/* The key first: no need to ask the server when we cannot sign. */
	if (cli_keys_path(o->cf.key, keypath, sizeof keypath, err,
	    sizeof err) == -1 ||
	    cli_keys_open(keypath, &sg, err, sizeof err) == -1)
		goto fail;
	if (asprintf(&action, "move %s%s", move, o->offer_draw ?
	    " offer-draw" : "") == -1) {
		action = NULL;
		snprintf(err, sizeof err, "out of memory");
		goto fail;
	}
	snprintf(path, sizeof path, "/api/v1/games/%llu",
	    (unsigned long long)id);
	if (cli_http_request(o->cf.server, "GET", path, NULL, 0, NULL, &r,
	    err, sizeof err) == -1)
		goto fail;
	if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		goto fail;
	}
	if (!json_is_object(r.json)) {
		snprintf(err, sizeof err, "the server at %s did not answer "
		    "with a game (HTTP %ld)", o->cf.server, r.status);
		goto fail;
	}
	if (cmd_mail_game_read(r.json, &g, err, sizeof err) == -1 ||
	    cmd_mail_check(&g, id, o->cf.player, cmd_mail_fr(o), &color, err,
	    sizeof err) == -1 ||
	    cli_keys_statement(&st, id, (uint64_t)g.ply, o->cf.player, action,
	    o->message, err, sizeof err) == -1 ||
	    cli_keys_sign(&sg, &st, o->form, signed_text,
	    sizeof signed_text, err, sizeof err) == -1)
		goto fail;
	cmd_mail_print(o, id, &g, color, move, signed_text);
	if (fflush(stdout) != 0) {
		snprintf(err, sizeof err, "cannot write the mail");
		goto fail;
	}
	rc = CLI_EXIT_OK;
	goto out;
fail:
	cli_error(self, "%s", err);
out:
	cli_keys_close(&sg);
	free(action);
	cli_http_reply_free(&r);
	return rc;
}

/* Take one of mail-move's own options. */
static int
cmd_mail_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cmd_mail_opts	*o = ctx;

	switch (id) {
	case OPT_SSH:
		o->form = SIG_FORM_SSHSIG;
		break;
	case OPT_TO:
		o->to = arg;
		break;
	case OPT_FROM:
		o->from = arg;
		break;
	case OPT_OFFER_DRAW:
		o->offer_draw = true;
		break;
	case OPT_MESSAGE:
		o->message = arg;
		break;
	case OPT_LANG:
		return cli_lang_option(self, arg, &o->lang);
	default:
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* corrchess mail-move [-s URL] [-k KEY] [-p NAME] [--ssh] [--to ADDR]
 * [--from ADDR] [--offer-draw] [-m TEXT] [--lang en|fr] GAME MOVE */
int
cmd_mail_move(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "key", 'k', 1, CLI_CONF_OPT_KEY },
		{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
		{ "ssh", 0, 0, OPT_SSH },
		{ "to", 't', 1, OPT_TO },
		{ "from", 'f', 1, OPT_FROM },
		{ "offer-draw", 0, 0, OPT_OFFER_DRAW },
		{ "message", 'm', 1, OPT_MESSAGE },
		{ "lang", 0, 1, OPT_LANG },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_mail_opts	 o;
	char			*move = NULL;
	uint64_t		 id;
	int			 ind, rc;
	bool			 curl = false;

	memset(&o, 0, sizeof o);
	o.form = SIG_FORM_RAW;
	if ((rc = cli_conf_options(self, argc, argv, opts, &o.cf,
	    cmd_mail_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (argc - ind < 2) {
		rc = cli_usage(self, "give a game number and a move");
		goto out;
	}
	if (cli_conf_number(argv[ind], SIG_GAME_MAX, &id) == -1 || id == 0) {
		rc = cli_usage(self, "'%s' is not a game number", argv[ind]);
		goto out;
	}
	if (o.cf.player == NULL) {
		rc = cli_usage(self, "no player name: give -p NAME, or set "
		    "'player =' in the configuration file");
		goto out;
	}
	if ((o.to != NULL && !cmd_mail_address_ok(o.to)) ||
	    (o.from != NULL && !cmd_mail_address_ok(o.from))) {
		rc = cli_usage(self, "--to and --from take a bare address, "
		    "as chess@club.example");
		goto out;
	}
	/* A move may be several words: "exd6 e.p.". */
	if ((move = cli_join(argc - ind - 1, argv + ind + 1)) == NULL) {
		cli_error(self, "out of memory");
		goto out;
	}
	if (cli_http_start(self) == -1)
		goto out;
	curl = true;
	rc = cmd_mail_make(self, &o, id, move);
out:
	if (curl)
		cli_http_stop();
	free(move);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
