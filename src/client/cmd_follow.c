/*
 * client/cmd_follow.c: corrchess follow: a game's or a player's live events, in words.
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
 * `corrchess follow GAME` reads GET /api/v1/games/GAME/stream (NDJSON)
 * and prints a line for the game as it stands, then one for each event
 * as the server commits it, in English or French; it ends by itself when
 * the game ends. `--player NAME` follows every game of a player and ends
 * only on Ctrl-C. The lines are read as they come (libcurl's write
 * callback); the keep-alive newlines are skipped.
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "chess/chess.h"
#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_follow.h"
#include "client/cmd_game.h"
#include "game/game.h"
#include "game/render.h"
#include "util/buf.h"
#include "util/french.h"

/* The longest line of the stream kept (a game's first line is its JSON,
 * moves included). */
#define FOLLOW_LINE_MAX	(1024 * 1024)

enum { OPT_FOLLOW_PLAYER = 1, OPT_FOLLOW_LANG };

/* The command's options. */
struct follow_opts {
	struct cli_conf	 cf;
	const char	*player;	/* --player NAME */
	const char	*lang;		/* --lang */
};

/* A stream being read. */
struct follow {
	CURL		*curl;
	enum chess_lang	 lang;
	bool		 player;	/* a player's stream */
	struct buf	 line;		/* the line being read */
	struct buf	 body;		/* an error answer */
	long		 status;
	bool		 over;		/* the game ended: stop */
	bool		 bad;		/* a line that is not an event */
};

/* The English or the French text; a conditional of two literals, so
 * that printf's format check sees both. */
#define TR(f, en, fr)	((f)->lang == CHESS_LANG_FR ? (fr) : (en))

static volatile sig_atomic_t	follow_interrupted;

/* Note Ctrl-C; the transfer ends at its next progress call. */
static void
follow_sigint(int sig)
{
	(void)sig;
	follow_interrupted = 1;
}


/* The player of a colour ("white"/"black") in an event or a game. */
static const char *
follow_player_of(const json_t *j, const char *color)
{
	if (color == NULL)
		return NULL;
	if (strcmp(color, "white") == 0)
		return cli_http_json_str(j, "white");
	if (strcmp(color, "black") == 0)
		return cli_http_json_str(j, "black");
	return NULL;
}

/* A colour's name for people. */
static const char *
follow_color(const struct follow *f, const char *color)
{
	if (color != NULL && strcmp(color, "white") == 0)
		return TR(f, "White", "Blancs");
	return TR(f, "Black", "Noirs");
}

/* A termination's API name for people ("checkmate" / "échec et mat"). */
static const char *
follow_termination(const struct follow *f, const char *name)
{
	int	t;

	if (name == NULL || name[0] == '\0')
		return NULL;
	for (t = GAME_TERM_NONE + 1; t <= GAME_TERM_LAST; t++)
		if (strcmp(game_termination_name(t), name) == 0)
			return game_termination_text(t, f->lang);
	return name;
}

/* Print "; NAME to move" in the follow's language. */
static void
follow_print_to_move(const struct follow *f, const char *who)
{
	if (f->lang == CHESS_LANG_FR)
		printf(" ; au tour %s%s", french_de(who), who);
	else
		printf("; %s to move", who);
}

/* Print whose move it is after an event, or how the game ended. */
static void
follow_print_turn(const struct follow *f, const json_t *j)
{
	const char	*turn = cli_http_json_str(j, "turn");
	const char	*who = follow_player_of(j, turn);
	const char	*iso = cli_http_json_str(j, "deadline");
	json_int_t	 n;
	int64_t		 dl = 0;
	char		 t[96];

	if (who == NULL)
		return;
	follow_print_to_move(f, who);
	/* An event gives the deadline in seconds, the game as an ISO time. */
	if (cli_http_json_int(j, "deadline", &n))
		dl = (int64_t)n;
	else if (iso != NULL && cmd_game_parse_time(iso, &dl) != 0)
		dl = 0;
	if (dl > 0) {
		render_time_lang(dl, f->lang, t, sizeof t);
		printf(TR(f, ", by %s", ", avant le %s"), t);
	}
}

/* Print the game's first line: where it stands. */
static void
follow_print_game(struct follow *f, const json_t *j)
{
	const char	*white = cli_http_json_str(j, "white");
	const char	*black = cli_http_json_str(j, "black");
	const char	*status = cli_http_json_str(j, "status");
	const char	*result = cli_http_json_str(j, "result");
	const char	*term;
	json_int_t	 id = 0, ply = 0;

	cli_http_json_int(j, "id", &id);
	cli_http_json_int(j, "ply", &ply);
	printf(TR(f, "Game %lld: %s v %s, ply %lld", "Partie %lld : %s – %s, "
	    "demi-coup %lld"), (long long)id, white != NULL ? white : "?",
	    black != NULL ? black : "?", (long long)ply);
	if (status != NULL && strcmp(status, "ongoing") != 0) {
		term = follow_termination(f, cli_http_json_str(j,
		    "termination"));
		printf(TR(f, "; over: %s", " ; terminée : %s"), result != NULL ?
		    result : status);
		if (term != NULL)
			printf(", %s", term);
		f->over = true;
	} else
		follow_print_turn(f, j);
	printf("\n");
}

/* Print one event of a stream. */
static void
follow_print_event(struct follow *f, const json_t *j, const char *type)
{
	const char	*by = follow_player_of(j, cli_http_json_str(j, "by"));
	const char	*bycolor = cli_http_json_str(j, "by");
	const char	*san = cli_http_json_str(j, "san");
	const char	*term;
	json_t		*v;
	json_int_t	 id = 0, ply = 0, warning = 0, left;
	char		 m[CHESS_SAN_MAX + 8], d[64];

	cli_http_json_int(j, "game", &id);
	cli_http_json_int(j, "ply", &ply);
	printf(TR(f, "Game %lld", "Partie %lld"), (long long)id);
	if (strcmp(type, "start") == 0) {
		printf(TR(f, " started: %s v %s", " : début, %s – %s"),
		    cli_http_json_str(j, "white"), cli_http_json_str(j,
		    "black"));
		follow_print_turn(f, j);
	} else if (strcmp(type, "move") == 0 && san != NULL) {
		chess_san_text_lang(san, f->lang, m, sizeof m);
		printf(TR(f, ", ply %lld: %s (%s) played %s", ", demi-coup "
		    "%lld : %s (%s) a joué %s"), (long long)ply, by != NULL ?
		    by : "?", follow_color(f, bycolor), m);
		if ((v = json_object_get(j, "conditional")) != NULL &&
		    json_is_true(v))
			printf("%s", TR(f, " (a conditional move)",
			    " (coup conditionnel)"));
		follow_print_turn(f, j);
	} else if (strcmp(type, "offer") == 0)
		printf(TR(f, ": %s offers a draw", " : %s propose la nulle"),
		    by != NULL ? by : "?");
	else if (strcmp(type, "message") == 0)
		printf(TR(f, ": %s writes: %s", " : %s écrit : %s"), by != NULL ?
		    by : "?", cli_http_json_str(j, "text") != NULL ?
		    cli_http_json_str(j, "text") : "");
	else if (strcmp(type, "decline") == 0)
		printf(TR(f, ": %s declines the draw", " : %s refuse la nulle"),
		    by != NULL ? by : "?");
	else if (strcmp(type, "end") == 0) {
		term = follow_termination(f, cli_http_json_str(j,
		    "termination"));
		printf(TR(f, " is over: %s", " terminée : %s"),
		    cli_http_json_str(j, "result") != NULL ?
		    cli_http_json_str(j, "result") : "?");
		if (term != NULL)
			printf(", %s", term);
		if (!f->player)
			f->over = true;
	} else if (strcmp(type, "clock") == 0) {
		printf("%s", TR(f, ": clocks", " : pendules"));
		if ((v = json_object_get(j, "clocks")) != NULL) {
			if (cli_http_json_int(v, "white", &left)) {
				render_duration_lang((int64_t)left, f->lang, d,
				    sizeof d);
				printf(TR(f, " White %s", " Blancs %s"), d);
			}
			if (cli_http_json_int(v, "black", &left)) {
				render_duration_lang((int64_t)left, f->lang, d,
				    sizeof d);
				printf(TR(f, ", Black %s", ", Noirs %s"), d);
			}
		}
		if (cli_http_json_int(j, "warning", &warning) && warning > 0) {
			render_duration_lang((int64_t)warning, f->lang, d,
			    sizeof d);
			printf(TR(f, " (less than %s left)",
			    " (moins de %s restant)"), d);
		}
		follow_print_turn(f, j);
	} else
		printf(": %s", type);
	printf("\n");
}

/* Print one line of the stream; an empty line is a keep-alive. */
static void
follow_line(struct follow *f, const char *line, size_t len)
{
	json_t		*j;
	json_error_t	 jerr;
	const char	*type;

	if (len == 0)
		return;
	if ((j = json_loadb(line, len, 0, &jerr)) == NULL ||
	    (type = cli_http_json_str(j, "type")) == NULL) {
		f->bad = true;
		json_decref(j);
		return;
	}
	if (strcmp(type, "game") == 0)
		follow_print_game(f, j);
	else if (strcmp(type, "player") == 0 && f->lang == CHESS_LANG_FR)
		printf("Les parties %s%s, en direct.\n",
		    french_de(cli_http_json_str(j, "player")),
		    cli_http_json_str(j, "player"));
	else if (strcmp(type, "player") == 0)
		printf("Following %s's games.\n",
		    cli_http_json_str(j, "player"));
	else
		follow_print_event(f, j, type);
	fflush(stdout);
	json_decref(j);
}

/* libcurl: take the bytes that came, line by line. */
static size_t
follow_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct follow	*f = arg;
	size_t		 n = size * nmemb, i, start = 0;

	if (f->status == 0)
		curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &f->status);
	if (f->status != 200) {
		/* An error answer: keep it for its reason. */
		if (f->body.len + n > FOLLOW_LINE_MAX)
			return 0;
		buf_add(&f->body, data, n);
		return n;
	}
	for (i = 0; i < n && !f->over; i++) {
		if (data[i] != '\n')
			continue;
		buf_add(&f->line, data + start, i - start);
		follow_line(f, f->line.data != NULL ? f->line.data : "",
		    f->line.len);
		f->line.len = 0;
		start = i + 1;
	}
	if (f->over)
		return 0;	/* the game ended: stop reading */
	if (f->line.len + (n - start) > FOLLOW_LINE_MAX || f->bad)
		return 0;
	buf_add(&f->line, data + start, n - start);
	return n;
}

/* libcurl: stop when Ctrl-C was pressed. */
static int
follow_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	(void)arg; (void)dt; (void)dn; (void)ut; (void)un;
	return follow_interrupted ? 1 : 0;
}

/* Take the command's own options. */
static int
follow_option(const struct cli_cmd *self, int id, const char *arg, void *ctx)
{
	struct follow_opts	*o = ctx;

	(void)self;
	if (id == OPT_FOLLOW_PLAYER)
		o->player = arg;
	else if (id == OPT_FOLLOW_LANG)
		o->lang = arg;
	return CLI_EXIT_OK;
}

/* Read the stream at `url` and print it; an exit status. */
static int
follow_run(const struct cli_cmd *self, struct follow *f, const char *url)
{
	struct sigaction	 sa, old;
	struct cli_http_reply	 r = { 0 };
	char			 cerr[CURL_ERROR_SIZE] = "", msg[CLI_ERR_SIZE];
	CURLcode		 cc;
	int			 rc = CLI_EXIT_FAIL;

	if ((f->curl = curl_easy_init()) == NULL) {
		cli_error(self, "cannot start libcurl");
		return CLI_EXIT_FAIL;
	}
	cli_http_setopt_common(f->curl, cerr);
	curl_easy_setopt(f->curl, CURLOPT_URL, url);
	curl_easy_setopt(f->curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(f->curl, CURLOPT_WRITEFUNCTION, follow_write);
	curl_easy_setopt(f->curl, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(f->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(f->curl, CURLOPT_XFERINFOFUNCTION, follow_progress);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = follow_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	cc = curl_easy_perform(f->curl);
	sigaction(SIGINT, &old, NULL);
	if (f->status != 0 && f->status != 200) {
		r.status = f->status;
		r.body = f->body.data != NULL ? f->body.data : "";
		r.len = f->body.len;
		r.json = json_loadb(r.body, r.len, 0, NULL);
		cli_http_reply_error(&r, msg, sizeof msg);
		json_decref(r.json);
		cli_error(self, "%s", msg);
	} else if (f->over || follow_interrupted)
		rc = CLI_EXIT_OK;
	else if (f->bad)
		cli_error(self, "the server sent a line that is not an event");
	else if (cc == CURLE_OK || cc == CURLE_PARTIAL_FILE)
		cli_error(self, "the server ended the stream (it stopped, or "
		    "this reader fell too far behind); run it again");
	else
		cli_error(self, "cannot reach the corrchess server at %s: %s%s",
		    url, cerr[0] != '\0' ? cerr : curl_easy_strerror(cc),
		    cli_http_tls_hint(cc));
	curl_easy_cleanup(f->curl);
	return rc;
}

/* corrchess follow [-s URL] [--lang en|fr] GAME | --player NAME */
int
cmd_follow(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "player", 'p', 1, OPT_FOLLOW_PLAYER },
		{ "lang", 0, 1, OPT_FOLLOW_LANG },
		{ NULL, 0, 0, 0 }
	};
	struct follow_opts	 o;
	struct follow		 f;
	struct buf		 url = { 0 };
	const char		*lang;
	uint64_t		 id = 0;
	int			 ind, rc;

	memset(&o, 0, sizeof o);
	memset(&f, 0, sizeof f);
	if ((rc = cli_conf_options(self, argc, argv, opts, &o.cf,
	    follow_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	if (o.player == NULL && argc - ind != 1) {
		rc = cli_usage(self, argc == ind ? "give a game number or "
		    "--player NAME" : "too many operands");
		goto out;
	}
	if (o.player != NULL && argc - ind != 0) {
		rc = cli_usage(self, "give a game number or --player NAME, "
		    "not both");
		goto out;
	}
	if (o.player == NULL && (cli_conf_number(argv[ind], UINT32_MAX,
	    &id) == -1 || id == 0)) {
		rc = cli_usage(self, "'%s' is not a game number", argv[ind]);
		goto out;
	}
	lang = o.lang != NULL ? o.lang : o.cf.lang;
	if (lang != NULL && strcmp(lang, "fr") == 0)
		f.lang = CHESS_LANG_FR;
	else if (lang != NULL && strcmp(lang, "en") != 0) {
		rc = cli_usage(self, "unknown language '%s' (en or fr)", lang);
		goto out;
	}
	f.player = o.player != NULL;
	buf_addf(&url, "%s/api/v1/", o.cf.server);
	if (o.player != NULL) {
		buf_addf(&url, "players/");
		cmd_game_query_add(&url, o.player);
		buf_addf(&url, "/stream");
	} else
		buf_addf(&url, "games/%llu/stream", (unsigned long long)id);
	if (url.failed || cli_http_start(self) == -1) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = follow_run(self, &f, url.data);
	cli_http_stop();
out:
	buf_free(&url);
	buf_free(&f.line);
	buf_free(&f.body);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
