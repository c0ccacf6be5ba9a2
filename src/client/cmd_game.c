/*
 * client/cmd_game.c: corrchess move, act, show and games.
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
 * The player's game commands: `corrchess move`, `act`, `show` and `games`.
 * They talk to corrchessd only over its REST API, read its JSON warily (a
 * missing or odd member is reported, never trusted) and render boards
 * themselves from the FEN.
 */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <sodium.h>

#include "chess/chess.h"
#include "util/buf.h"
#include "util/french.h"
#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cli_keys.h"
#include "client/cmd_game.h"
#include "game/conditional.h"
#include "game/game.h"
#include "game/render.h"
#include "sig/sig.h"

/* What a game command was given: the settings, then its own options. */
struct cmd_game_opts {
	struct cli_conf	 cf;
	bool		 ascii;
	bool		 flip;
	bool		 offer_draw;
	bool		 show;		/* conditional: --show */
	bool		 cancel;	/* conditional: --cancel */
	const char	*status;	/* games: "ongoing" or "finished" */
	const char	*filter;	/* games: --player */
	const char	*lang;		/* show: --lang en|fr */
	const char	*message;	/* move, act: --message */
};

/* Option ids of the game commands' own options. */
enum {
	OPT_ASCII, OPT_FLIP, OPT_OFFER_DRAW, OPT_STATUS, OPT_FILTER,
	OPT_SHOW, OPT_CANCEL, OPT_LANG, OPT_MESSAGE,
};

/* The game a command acts on, read from the server's JSON. */
struct cmd_game_info {
	uint64_t	 id;
	const char	*white;
	const char	*black;
	const char	*status;	/* "ongoing", "finished" */
	const char	*turn;		/* "white", "black" */
	const char	*draw_offer;	/* "white", "black" or NULL */
	uint64_t	 ply;
};

/* How to print a game. */
#define CMD_GAME_FULL	0x1	/* players, clocks and every move */
#define CMD_GAME_ASCII	0x2	/* letters, not chess symbols */
#define CMD_GAME_FLIP	0x4	/* Black at the bottom */

/* Take one of the game commands' own options. */
static int
cmd_game_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cmd_game_opts	*o = ctx;

	switch (id) {
	case OPT_FILTER:
		o->filter = arg;
		break;
	case OPT_ASCII:
		o->ascii = true;
		break;
	case OPT_FLIP:
		o->flip = true;
		break;
	case OPT_OFFER_DRAW:
		o->offer_draw = true;
		break;
	case OPT_SHOW:
		o->show = true;
		break;
	case OPT_CANCEL:
		o->cancel = true;
		break;
	case OPT_LANG:
		return cli_lang_option(self, arg, &o->lang);
	case OPT_MESSAGE:
		o->message = arg;
		break;
	case OPT_STATUS:
		if (strcmp(arg, "ongoing") != 0 &&
		    strcmp(arg, "finished") != 0)
			return cli_usage(self, "--status %s: "
			    "\"ongoing\" or \"finished\"", arg);
		o->status = arg;
		break;
	default:
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* Read the settings and the options of a game command; CLI_EXIT_OK with
 * *indp the first operand, CLI_HELPED, or an exit status. */
static int
cmd_game_options(const struct cli_cmd *self, int argc, char **argv,
    const struct cli_option *opts, struct cmd_game_opts *o, int *indp)
{
	memset(o, 0, sizeof *o);
	return cli_conf_options(self, argc, argv, opts, &o->cf,
	    cmd_game_option, o, indp);
}

/*
 * The language a game is printed in: --lang, else the configuration's
 * "lang =", else English. (The player's language on the server is for
 * the server's mail and answers; reading it takes the admin token.)
 */
static enum chess_lang
cmd_game_lang(const struct cmd_game_opts *o)
{
	const char	*lang = o->lang != NULL ? o->lang : o->cf.lang;

	return lang != NULL && strcmp(lang, "fr") == 0 ? CHESS_LANG_FR :
	    CHESS_LANG_EN;
}

/* Parse a game number operand. */
static int
cmd_game_id(const char *s, uint64_t *id)
{
	if (cli_conf_number(s, SIG_GAME_MAX, id) == -1 || *id == 0)
		return -1;
	return 0;
}

/* Print a transport error or the server's refusal. */
static void
cmd_game_refused(const struct cli_cmd *self, const struct cli_http_reply *r)
{
	char	msg[CLI_ERR_SIZE];

	cli_http_reply_error(r, msg, sizeof msg);
	cli_error(self, "%s", msg);
}

/* Check that JSON is a game and take the members a command needs. */
static int
cmd_game_read(const json_t *j, struct cmd_game_info *g, char *err,
    size_t errsize)
{
	json_int_t	 v;
	const char	*missing = NULL;

	memset(g, 0, sizeof *g);
	if (!json_is_object(j)) {
		snprintf(err, errsize, "the server's answer is not a game");
		return -1;
	}
	/* Name the first member that is wrong. */
	if (!cli_http_json_int(j, "id", &v) || v <= 0)
		missing = "id";
	else
		g->id = (uint64_t)v;
	if (!cli_http_json_int(j, "ply", &v) || v < 0 ||
	    (uint64_t)v > SIG_PLY_MAX)
		missing = missing ? missing : "ply";
	else
		g->ply = (uint64_t)v;
	if ((g->white = cli_http_json_str(j, "white")) == NULL)
		missing = missing ? missing : "white";
	if ((g->black = cli_http_json_str(j, "black")) == NULL)
		missing = missing ? missing : "black";
	if ((g->status = cli_http_json_str(j, "status")) == NULL)
		missing = missing ? missing : "status";
	if ((g->turn = cli_http_json_str(j, "turn")) == NULL ||
	    (strcmp(g->turn, "white") != 0 && strcmp(g->turn, "black") != 0))
		missing = missing ? missing : "turn";
	g->draw_offer = cli_http_json_str(j, "draw_offer");
	if (missing != NULL) {
		snprintf(err, errsize, "the server's answer is not a game it "
		    "could have sent: \"%s\" missing or wrong", missing);
		return -1;
	}
	return 0;
}

/* GET a game; CLI_EXIT_OK with *jp (caller frees), or an exit status
 * after printing why. */
static int
cmd_game_fetch(const struct cli_cmd *self, const char *server, uint64_t id,
    json_t **jp)
{
	struct cli_http_reply	r;
	char			path[64], err[CLI_ERR_SIZE];

	*jp = NULL;
	snprintf(path, sizeof path, "/api/v1/games/%llu",
	    (unsigned long long)id);
	if (cli_http_request(server, "GET", path, NULL, 0, NULL, &r, err,
	    sizeof err) == -1) {
		cli_error(self, "%s", err);
		return CLI_EXIT_FAIL;
	}
	if (r.status != 200) {
		cmd_game_refused(self, &r);
		cli_http_reply_free(&r);
		return CLI_EXIT_FAIL;
	}
	if (!json_is_object(r.json)) {
		cli_error(self, "the server at %s did not answer with a game "
		    "(HTTP %ld, %s)", server, r.status, r.json == NULL ?
		    "not JSON" : "not a JSON object");
		cli_http_reply_free(&r);
		return CLI_EXIT_FAIL;
	}
	*jp = json_incref(r.json);
	cli_http_reply_free(&r);
	return CLI_EXIT_OK;
}

/* "White" or "Black" for a colour name. */
static const char *
cmd_game_side(const char *color)
{
	return strcmp(color, "white") == 0 ? "White" : "Black";
}

/* Parse an ISO 8601 UTC time "YYYY-MM-DDTHH:MM:SSZ"; 0 or -1. */
int
cmd_game_parse_time(const char *s, int64_t *t)
{
	struct tm	tm;
	char		z = '\0';
	int		n = 0;

	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z, &n) != 7 ||
	    z != 'Z' || s[n] != '\0')
		return -1;
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*t = (int64_t)timegm(&tm);
	return 0;
}

/* Parse a position from a FEN member; 0 or -1. */
static int
cmd_game_position(const json_t *j, const char *key,
    struct chess_position *pos)
{
	const char	*fen = cli_http_json_str(j, key);
	json_t		*c960 = json_object_get(j, "chess960");
	unsigned	 flags = json_is_integer(c960) ? CHESS_FEN_960 : 0;

	if (fen == NULL || strlen(fen) >= CHESS_FEN_MAX)
		return -1;
	return chess_fen_parse(pos, fen, flags) == CHESS_OK ? 0 : -1;
}

/* Write move i (from 0) after `start`: "N. SAN" for White, "N... SAN"
 * for Black when `first` of a line, else the SAN alone. */
static void
cmd_game_move_text(struct buf *b, const struct chess_position *start,
    size_t i, const char *san, bool first)
{
	size_t	n = i + (start->side == CHESS_BLACK);
	size_t	number = start->fullmove + n / 2;

	if (n % 2 == 0)
		buf_addf(b, "%zu. %s", number, san);
	else if (first)
		buf_addf(b, "%zu... %s", number, san);
	else
		buf_addf(b, "%s", san);
}

/* "White"/"Blancs" or "Black"/"Noirs" for a colour name, in `lang`. */
static const char *
cmd_game_side_lang(const char *color, enum chess_lang lang)
{
	if (lang == CHESS_LANG_FR)
		return strcmp(color, "white") == 0 ? "Blancs" : "Noirs";
	return cmd_game_side(color);
}

/* Write whose move it is, or how the game ended, in `lang`. */
static void
cmd_game_state(struct buf *b, const json_t *j,
    const struct cmd_game_info *g, enum chess_lang lang)
{
	const char	*result = cli_http_json_str(j, "result");
	const char	*term = cli_http_json_str(j, "termination");
	enum game_termination t = game_termination_parse(term);
	bool		 fr = lang == CHESS_LANG_FR;

	if (strcmp(g->status, "ongoing") == 0) {
		buf_addf(b, fr ? "Au trait : %s, %s (ply %llu)" :
		    "%s to move: %s (ply %llu)",
		    cmd_game_side_lang(g->turn, lang),
		    strcmp(g->turn, "white") == 0 ? g->white : g->black,
		    (unsigned long long)g->ply);
		if (g->draw_offer != NULL)
			buf_addf(b, fr ? " ; %s propose la nulle" :
			    "; %s offers a draw",
			    strcmp(g->draw_offer, "white") == 0 ? g->white :
			    g->black);
		buf_adds(b, "\n");
		return;
	}
	buf_addf(b, fr ? "Partie terminée : %s" : "Game over: %s",
	    result != NULL ? result : "?");
	if (term != NULL && term[0] != '\0')
		buf_addf(b, " (%s)", fr && t != GAME_TERM_NONE ?
		    game_termination_text(t, lang) : term);
	if (result != NULL && strcmp(result, "1-0") == 0)
		buf_addf(b, fr ? ", %s (Blancs) gagne" : ", %s (White) wins",
		    g->white);
	else if (result != NULL && strcmp(result, "0-1") == 0)
		buf_addf(b, fr ? ", %s (Noirs) gagne" : ", %s (Black) wins",
		    g->black);
	else if (result != NULL && strcmp(result, "1/2-1/2") == 0)
		buf_adds(b, fr ? ", nulle" : ", a draw");
	buf_adds(b, "\n");
}

/* Write the clocks and the deadline, when the game has them, in `lang`. */
static void
cmd_game_clocks(struct buf *b, const json_t *j, enum chess_lang lang)
{
	json_t		*clocks = json_object_get(j, "clocks");
	json_t		*tocontrol = json_object_get(j, "moves_to_control");
	const char	*dl = cli_http_json_str(j, "deadline");
	static const char *const colors[] = { "white", "black" };
	char		 t[96];
	json_int_t	 left, n;
	int64_t		 at, now;
	size_t		 i;
	bool		 fr = lang == CHESS_LANG_FR;

	for (i = 0; i < 2 && json_is_object(clocks); i++) {
		if (!cli_http_json_int(clocks, colors[i], &left))
			continue;
		render_duration_lang(left > 0 ? (int64_t)left : 0, lang, t,
		    sizeof t);
		buf_addf(b, fr ? "Pendule des %s : il reste %s" :
		    "%s clock: %s left", cmd_game_side_lang(colors[i], lang),
		    t);
		if (json_is_object(tocontrol) && cli_http_json_int(tocontrol,
		    colors[i], &n) && n > 0)
			buf_addf(b, fr ? ", %lld coup%s jusqu'au contrôle" :
			    ", %lld move%s to the control", (long long)n,
			    n == 1 ? "" : "s");
		buf_adds(b, "\n");
	}
	if (dl == NULL)
		return;
	if (cmd_game_parse_time(dl, &at) == -1) {
		buf_addf(b, fr ? "Délai : %.64s\n" : "Deadline: %.64s\n", dl);
		return;
	}
	/* English keeps its ISO 8601 time. */
	if (fr)
		render_time_lang(at, lang, t, sizeof t);
	else
		render_time(at, t, sizeof t);
	buf_addf(b, fr ? "Délai : %s" : "Deadline: %s", t);
	now = (int64_t)time(NULL);
	if (at > now) {
		render_duration_lang(at - now, lang, t, sizeof t);
		buf_addf(b, fr ? " (dans %s)\n" : " (in %s)\n", t);
	} else
		buf_adds(b, fr ? " (dépassé)\n" : " (passed)\n");
}

/* Say a Chess960 game as such, with its starting position's number. */
static void
cmd_game_variant(struct buf *b, const json_t *j, enum chess_lang lang)
{
	const char	*variant = cli_http_json_str(j, "variant");
	json_int_t	 n;

	if (variant == NULL || strcmp(variant, "chess960") != 0)
		return;
	if (cli_http_json_int(j, "chess960", &n))
		buf_addf(b, lang == CHESS_LANG_FR ? "Chess960, position de "
		    "départ %lld\n" : "Chess960, starting position %lld\n",
		    (long long)n);
	else
		buf_adds(b, "Chess960\n");
}

/*
 * Write the server's SAN (English) of the move played from `pos` in
 * `lang`'s letters, and make it there; the text as it came when it does
 * not replay (pos is then left as it was).
 */
static void
cmd_game_san(struct chess_position *pos, bool *ok, const char *san,
    enum chess_lang lang, char *buf, size_t size)
{
	chess_move	m;

	if (*ok && chess_move_parse(pos, san, CHESS_LANG_EN, &m, NULL, 0) ==
	    CHESS_OK) {
		chess_move_san(pos, m, lang, buf, size);
		chess_position_make(pos, m);
		return;
	}
	*ok = false;
	snprintf(buf, size, "%s", san);
}

/*
 * Write the messages of a game's JSON, a line each ("Messages:" first),
 * or only those of the last action (ply `last` - 1 or later, a move's
 * or an answer's at the current ply) when `last` is not 0; in French
 * when `fr` (the moves as the server names them, in English SAN).
 */
static void
cmd_game_messages(struct buf *b, const json_t *msgs, uint64_t last, bool fr)
{
	const json_t	*m;
	const char	*from, *move, *text, *kind;
	size_t		 i, shown = 0;
	json_int_t	 ply;

	for (i = 0; json_is_array(msgs) && i < json_array_size(msgs); i++) {
		m = json_array_get(msgs, i);
		from = cli_http_json_str(m, "from");
		move = cli_http_json_str(m, "move");
		kind = cli_http_json_str(m, "kind");
		text = cli_http_json_str(m, "text");
		ply = json_integer_value(json_object_get(m, "at_ply"));
		if (from == NULL || text == NULL || (last != 0 &&
		    (uint64_t)ply + 1 < last))
			continue;
		if (last == 0 && shown++ == 0)
			buf_adds(b, fr ? "Messages :\n" : "Messages:\n");
		if (last != 0 && fr)
			buf_addf(b, "Message %s", french_de(from));
		else if (last != 0)
			buf_adds(b, "Message from ");
		else
			buf_adds(b, "  ");
		buf_addf(b, fr ? "%s (%s) : %s\n" : "%s (%s): %s\n", from,
		    move != NULL ? move : kind != NULL ? kind : "?", text);
	}
}

/* Print a game: the board, whose move and the last move; with
 * CMD_GAME_FULL also the players, clocks and every move. In `lang`: its
 * words, the ASCII board's letters and the moves' letters. */
static int
cmd_game_print(const struct cli_cmd *self, const json_t *j, int flags,
    enum chess_lang lang)
{
	struct cmd_game_info	 g;
	struct chess_position	 pos, start, at;
	struct buf		 b = { 0 };
	json_t			*moves, *m;
	const char		*event, *san;
	char			 board[RENDER_BOARD_MAX], err[CLI_ERR_SIZE];
	char			 text_san[CHESS_SAN_MAX + 8];
	char			*text;
	size_t			 i, n, len;
	bool			 fr = lang == CHESS_LANG_FR, ok = true;

	if (cmd_game_read(j, &g, err, sizeof err) == -1) {
		cli_error(self, "%s", err);
		return CLI_EXIT_FAIL;
	}
	moves = json_object_get(j, "moves");
	n = json_is_array(moves) ? json_array_size(moves) : 0;
	if (cmd_game_position(j, "initial_fen", &start) == -1)
		chess_position_start(&start);
	at = start;

	if (flags & CMD_GAME_FULL) {
		event = cli_http_json_str(j, "event");
		buf_addf(&b, fr ? "Partie %llu : %s (Blancs) c. %s (Noirs)" :
		    "Game %llu: %s (White) v %s (Black)",
		    (unsigned long long)g.id, g.white, g.black);
		if (event != NULL && event[0] != '\0')
			buf_addf(&b, ", %s", event);
		buf_adds(&b, "\n");
		cmd_game_variant(&b, j, lang);
		buf_adds(&b, "\n");
	}
	if (cmd_game_position(j, "fen", &pos) == 0) {
		render_board_lang(&pos, !(flags & CMD_GAME_ASCII),
		    (flags & CMD_GAME_FLIP) != 0, lang, board, sizeof board);
		buf_addf(&b, "%s", board);
		if ((flags & CMD_GAME_ASCII) && fr)
			buf_addf(&b, "%s\n", render_board_key(lang));
		buf_adds(&b, "\n");
	} else
		buf_adds(&b, fr ? "(pas d'échiquier : le serveur n'a pas "
		    "envoyé de FEN valide)\n\n" :
		    "(no board: the server sent no valid FEN)\n\n");

	if (!(flags & CMD_GAME_FULL) && n > 0 &&
	    (san = json_string_value(json_array_get(moves, n - 1))) != NULL) {
		/* The last move's letters need the position before it. */
		for (i = 0; i + 1 < n && ok; i++)
			if ((m = json_array_get(moves, i)) == NULL ||
			    !json_is_string(m))
				ok = false;
			else
				cmd_game_san(&at, &ok, json_string_value(m),
				    lang, text_san, sizeof text_san);
		cmd_game_san(&at, &ok, san, lang, text_san, sizeof text_san);
		buf_adds(&b, fr ? "Dernier coup : " : "Last move: ");
		cmd_game_move_text(&b, &start, n - 1, text_san, true);
		buf_adds(&b, "\n");
	}
	if (!(flags & CMD_GAME_FULL))
		cmd_game_messages(&b, json_object_get(j, "messages"), g.ply,
		    fr);
	cmd_game_state(&b, j, &g, lang);
	if (flags & CMD_GAME_FULL) {
		cmd_game_clocks(&b, j, lang);
		buf_adds(&b, fr ? "Coups :" : "Moves:");
		for (i = 0; i < n; i++) {
			m = json_array_get(moves, i);
			buf_adds(&b, i > 0 && i % 12 == 0 ? "\n " : " ");
			cmd_game_san(&at, &ok, json_is_string(m) ?
			    json_string_value(m) : "?", lang, text_san,
			    sizeof text_san);
			cmd_game_move_text(&b, &start, i, text_san,
			    i == 0 || i % 12 == 0);
		}
		buf_adds(&b, n > 0 ? "\n" : fr ? " aucun pour l'instant\n" :
		    " none yet\n");
		cmd_game_messages(&b, json_object_get(j, "messages"), 0, fr);
	} else if (strcmp(g.status, "ongoing") == 0) {
		const char *dl = cli_http_json_str(j, "deadline");
		int64_t t;

		if (dl != NULL && cmd_game_parse_time(dl, &t) == 0) {
			if (fr)
				render_time_lang(t, lang, board, sizeof board);
			else
				render_time(t, board, sizeof board);
			buf_addf(&b, fr ? "Délai : %s\n" : "Deadline: %s\n",
			    board);
		}
	}
	if ((text = buf_take(&b, &len)) == NULL) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return CLI_EXIT_OK;
}

/* Print the player's conditional moves from a server's answer, if any. */
static void
cmd_game_print_conditional(const json_t *c, enum chess_lang lang)
{
	const char	*lines, *status, *reason;
	char		*ltext = NULL, rtext[512];
	size_t		 n;
	bool		 fr = lang == CHESS_LANG_FR;

	if (!json_is_object(c))
		return;
	lines = cli_http_json_str(c, "lines");
	status = cli_http_json_str(c, "status");
	reason = cli_http_json_str(c, "reason");
	/* The server keeps English SAN and English reasons: in `lang`. */
	if (lines != NULL && (ltext = malloc((n = strlen(lines) + 1))) !=
	    NULL)
		chess_san_text_lang(lines, lang, ltext, n);
	if (reason != NULL)
		game_cond_reason_lang(reason, lang, rtext, sizeof rtext);
	printf(fr ? "\nVos coups conditionnels (%s%s%s ; %lld joués, %lld "
	    "lignes restantes) :\n  %s\n" : "\nYour conditional moves "
	    "(%s%s%s; %lld played, %lld lines left):\n  %s\n",
	    status != NULL ? game_cond_status_lang(status, lang) : "?",
	    reason == NULL ? "" : fr ? " : " : ": ",
	    reason != NULL ? rtext : "",
	    (long long)json_integer_value(json_object_get(c, "played")),
	    (long long)json_integer_value(json_object_get(c, "lines_left")),
	    ltext != NULL ? ltext : lines != NULL ? lines : "");
	free(ltext);
}

/* Does the action need the player to be the side to move? */
static bool
cmd_game_needs_turn(const struct sig_action *a)
{
	return a->kind == SIG_ACT_MOVE || a->kind == SIG_ACT_MOVE_OFFER_DRAW ||
	    a->kind == SIG_ACT_CLAIM_DRAW;
}

/* Check an action against the game as the server sent it, so a player
 * hears at once why it cannot be made (in `lang`); the server checks
 * again. */
static int
cmd_game_check(const struct cmd_game_info *g, const json_t *j,
    const char *player, const struct sig_action *a, enum chess_lang lang,
    char *err, size_t errsize)
{
	const char	*result, *term, *color, *to_move;
	bool		 fr = lang == CHESS_LANG_FR;

	if (strcmp(g->status, "ongoing") != 0) {
		result = cli_http_json_str(j, "result");
		term = cli_http_json_str(j, "termination");
		snprintf(err, errsize, fr ? "la partie %llu est terminée : "
		    "%s%s%s%s" : "game %llu is over: %s%s%s%s",
		    (unsigned long long)g->id, result ? result : "?",
		    term && term[0] ? " (" : "", term ? term : "",
		    term && term[0] ? ")" : "");
		return -1;
	}
	if (strcmp(player, g->white) != 0 && strcmp(player, g->black) != 0) {
		snprintf(err, errsize, fr ? "%s ne joue pas la partie %llu (%s "
		    "c. %s)" : "%s does not play in game %llu (%s v %s)",
		    player, (unsigned long long)g->id, g->white, g->black);
		return -1;
	}
	to_move = strcmp(g->turn, "white") == 0 ? g->white : g->black;
	/* A player on both sides (a test game) is always on the move. */
	if (strcmp(g->white, g->black) == 0)
		color = g->turn;
	else
		color = strcmp(player, g->white) == 0 ? "white" : "black";
	if (cmd_game_needs_turn(a) && strcmp(color, g->turn) != 0) {
		snprintf(err, errsize, fr ? "ce n'est pas à %s de jouer dans "
		    "la partie %llu : c'est à %s (%s)" : "it is not %s's move "
		    "in game %llu: %s (%s) is to move", player,
		    (unsigned long long)g->id, to_move,
		    cmd_game_side_lang(g->turn, lang));
		return -1;
	}
	if (a->kind == SIG_ACT_ACCEPT_DRAW || a->kind == SIG_ACT_DECLINE_DRAW) {
		if (g->draw_offer == NULL) {
			snprintf(err, errsize, fr ? "il n'y a pas de "
			    "proposition de nulle à laquelle répondre dans la "
			    "partie %llu" : "there is no draw offer to answer "
			    "in game %llu", (unsigned long long)g->id);
			return -1;
		}
		if (strcmp(g->white, g->black) != 0 &&
		    strcmp(g->draw_offer, color) == 0) {
			if (fr)
				snprintf(err, errsize, "la proposition de "
				    "nulle de la partie %llu est celle %s%s : "
				    "elle attend la réponse de l'adversaire",
				    (unsigned long long)g->id,
				    french_de(player), player);
			else
				snprintf(err, errsize, "the draw offer in "
				    "game %llu is %s's own: it awaits the "
				    "opponent's answer",
				    (unsigned long long)g->id, player);
			return -1;
		}
	}
	return 0;
}

/* Sign ACTION for the game's current ply and post it; print the new
 * position or the server's refusal. */
static int
cmd_game_submit(const struct cli_cmd *self, struct cmd_game_opts *o,
    uint64_t id, const char *action)
{
	struct cmd_game_info	 g;
	struct cli_http_reply	 r = { 0 };
	struct sig_statement	 st;
	struct sig_action	 a;
	enum sig_error		 e = SIG_OK;
	json_t			*j = NULL;
	struct cli_signer	 sg;
	char			 err[CLI_ERR_SIZE], keypath[4096];
	char			 signed_text[SIG_SIGNED_SIZE], path[80];
	int			 rc;

	memset(&sg, 0, sizeof sg);
	if (o->cf.player == NULL)
		return cli_usage(self, "no player name: give -p NAME, or set "
		    "'player =' in the configuration file");
	if (strlen(action) > SIG_ACTION_MAX ||
	    sig_action_parse(action, strlen(action), &a, &e) == -1) {
		cli_error(self, "action '%s': %s", action,
		    e != SIG_OK ? sig_strerror(e) : "too long");
		return CLI_EXIT_FAIL;
	}
	/* The key first: no need to ask the server when we cannot sign. */
	if (cli_keys_path(o->cf.key, keypath, sizeof keypath, err,
	    sizeof err) == -1)
		goto fail;
	if (cli_keys_open(keypath, &sg, err, sizeof err) == -1)
		goto fail;

	if ((rc = cmd_game_fetch(self, o->cf.server, id, &j)) !=
	    CLI_EXIT_OK)
		goto out;
	if (cmd_game_read(j, &g, err, sizeof err) == -1 ||
	    cmd_game_check(&g, j, o->cf.player, &a, cmd_game_lang(o), err,
	    sizeof err) == -1 ||
	    cli_keys_statement(&st, id, g.ply, o->cf.player, action,
	    o->message, err, sizeof err) == -1 ||
	    cli_keys_sign(&sg, &st, SIG_FORM_RAW, signed_text,
	    sizeof signed_text, err, sizeof err) == -1)
		goto fail;

	snprintf(path, sizeof path, "/api/v1/games/%llu/actions",
	    (unsigned long long)id);
	if (cli_http_request(o->cf.server, "POST", path, signed_text,
	    strlen(signed_text), "text/plain; charset=utf-8", &r, err,
	    sizeof err) == -1)
		goto fail;
	if (r.status != 200 && r.status != 201) {
		cmd_game_refused(self, &r);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (!json_is_object(r.json)) {
		/* Accepted, but the answer is unreadable: say both. */
		cli_error(self, "accepted (HTTP %ld), but the answer is not "
		    "JSON; see 'corrchess show %llu'", r.status,
		    (unsigned long long)id);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = cmd_game_print(self, r.json, (o->ascii ? CMD_GAME_ASCII : 0) |
	    (o->flip ? CMD_GAME_FLIP : 0), cmd_game_lang(o));
	cmd_game_print_conditional(json_object_get(r.json, "conditional"),
	    cmd_game_lang(o));
	goto out;
fail:
	cli_error(self, "%s", err);
	rc = CLI_EXIT_FAIL;
out:
	cli_keys_close(&sg);
	cli_http_reply_free(&r);
	json_decref(j);
	return rc;
}

/* Start the HTTP client, submit an action and stop it. */
static int
cmd_game_send(const struct cli_cmd *self, struct cmd_game_opts *o,
    uint64_t id, const char *action)
{
	int	rc;

	if (cli_http_start(self) == -1)
		return CLI_EXIT_FAIL;
	rc = cmd_game_submit(self, o, id, action);
	cli_http_stop();
	return rc;
}

/*
 * Parse options, a game number and the words of an action (`what` names
 * them in the usage error), and submit `prefix` followed by the words (and
 * " offer-draw" when asked for).
 */
static int
cmd_game_submit_words(const struct cli_cmd *self, int argc, char **argv,
    const struct cli_option *opts, const char *prefix, const char *what)
{
	struct cmd_game_opts	 o;
	uint64_t		 id;
	char			*words = NULL, *action = NULL;
	int			 ind, rc, i;

	if ((rc = cmd_game_options(self, argc, argv, opts, &o, &ind)) !=
	    CLI_EXIT_OK)
		goto out;
	if (argc - ind < 2) {
		rc = cli_usage(self, "give a game number and %s", what);
		goto out;
	}
	if (cmd_game_id(argv[ind], &id) == -1) {
		rc = cli_usage(self, "'%s' is not a game number", argv[ind]);
		goto out;
	}
	/* No move or action word starts with '-': an option given late. */
	for (i = ind + 1; i < argc; i++)
		if (argv[i][0] == '-') {
			rc = cli_usage(self, "%s: options go before the game "
			    "number (corrchess %s -m TEXT GAME ...)", argv[i],
			    self->name);
			goto out;
		}
	/* A move may be several words: "exd6 e.p.". */
	if ((words = cli_join(argc - ind - 1, argv + ind + 1)) == NULL ||
	    asprintf(&action, "%s%s%s", prefix, words, o.offer_draw ?
	    " offer-draw" : "") == -1) {
		action = NULL;
		cli_error(self, "out of memory");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = cmd_game_send(self, &o, id, action);
out:
	free(words);
	free(action);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/* corrchess move [-s URL] [-k KEY] [-p NAME] [--offer-draw] GAME MOVE */
int
cmd_game_move(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "key", 'k', 1, CLI_CONF_OPT_KEY },
		{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
		{ "offer-draw", 0, 0, OPT_OFFER_DRAW },
		{ "message", 'm', 1, OPT_MESSAGE },
		{ "ascii", 0, 0, OPT_ASCII },
		{ "flip", 0, 0, OPT_FLIP },
		{ NULL, 0, 0, 0 }
	};

	return cmd_game_submit_words(self, argc, argv, opts, "move ",
	    "a move");
}

/* corrchess act [-s URL] [-k KEY] [-p NAME] GAME ACTION... */
int
cmd_game_act(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "key", 'k', 1, CLI_CONF_OPT_KEY },
		{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
		{ "message", 'm', 1, OPT_MESSAGE },
		{ "ascii", 0, 0, OPT_ASCII },
		{ "flip", 0, 0, OPT_FLIP },
		{ NULL, 0, 0, 0 }
	};

	return cmd_game_submit_words(self, argc, argv, opts, "",
	    "an action");
}

/* corrchess conditional [-s URL] [-k KEY] [-p NAME] [--show | --cancel]
 * GAME [LINES...] */
int
cmd_game_conditional(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "key", 'k', 1, CLI_CONF_OPT_KEY },
		{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
		{ "show", 0, 0, OPT_SHOW },
		{ "cancel", 0, 0, OPT_CANCEL },
		{ "ascii", 0, 0, OPT_ASCII },
		{ "flip", 0, 0, OPT_FLIP },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_game_opts	 o;
	uint64_t		 id;
	char			*words = NULL, *action = NULL;
	int			 ind, rc, n;

	if ((rc = cmd_game_options(self, argc, argv, opts, &o, &ind)) !=
	    CLI_EXIT_OK)
		goto out;
	n = argc - ind;
	if (o.show && o.cancel) {
		rc = cli_usage(self, "--show or --cancel, not both");
		goto out;
	}
	if (n < 1 || ((o.show || o.cancel) ? n != 1 : n < 2)) {
		rc = cli_usage(self, (o.show || o.cancel) ? "give a game "
		    "number" : "give a game number and the lines, "
		    "\"e5 Nf3; d5 exd5\"");
		goto out;
	}
	if (cmd_game_id(argv[ind], &id) == -1) {
		rc = cli_usage(self, "'%s' is not a game number", argv[ind]);
		goto out;
	}
	if (o.show || o.cancel)
		action = strdup(o.show ? "show-conditional" :
		    "cancel-conditional");
	else if ((words = cli_join(n - 1, argv + ind + 1)) == NULL ||
	    asprintf(&action, "conditional %s", words) == -1)
		action = NULL;
	if (action == NULL) {
		cli_error(self, "out of memory");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = cmd_game_send(self, &o, id, action);
out:
	free(words);
	free(action);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/* corrchess show [-s URL] [--ascii] [--flip] [--lang en|fr] GAME */
int
cmd_game_show(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "ascii", 0, 0, OPT_ASCII },
		{ "flip", 0, 0, OPT_FLIP },
		{ "lang", 0, 1, OPT_LANG },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_game_opts	 o;
	uint64_t		 id;
	json_t			*j = NULL;
	int			 ind, rc;

	if ((rc = cmd_game_options(self, argc, argv, opts, &o, &ind)) !=
	    CLI_EXIT_OK)
		goto out;
	if (argc - ind != 1) {
		rc = cli_usage(self, argc == ind ? "give a game number" :
		    "too many operands");
		goto out;
	}
	if (cmd_game_id(argv[ind], &id) == -1) {
		rc = cli_usage(self, "'%s' is not a game number", argv[ind]);
		goto out;
	}
	if (cli_http_start(self) == -1) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if ((rc = cmd_game_fetch(self, o.cf.server, id, &j)) == CLI_EXIT_OK)
		rc = cmd_game_print(self, j, CMD_GAME_FULL |
		    (o.ascii ? CMD_GAME_ASCII : 0) |
		    (o.flip ? CMD_GAME_FLIP : 0), cmd_game_lang(&o));
	cli_http_stop();
out:
	json_decref(j);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/* Append s to b, percent-encoding all but RFC 3986's unreserved bytes. */
void
cmd_game_query_add(struct buf *b, const char *s)
{
	static const char	hex[] = "0123456789ABCDEF";
	unsigned char		c;
	char			enc[3];

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~')
			buf_add(b, s, 1);
		else {
			enc[0] = '%';
			enc[1] = hex[c >> 4];
			enc[2] = hex[c & 15];
			buf_add(b, enc, 3);
		}
	}
}

/* Print one row of the games list in `lang`; -1 for a row that is not a
 * game. */
static int
cmd_game_games_row(const json_t *row, int width, enum chess_lang lang)
{
	const char	*white, *black, *status, *turn, *result, *term, *dl;
	const char	*who;
	char		 players[128], t[64];
	json_int_t	 id, ply;
	int64_t		 at;
	int		 k;
	bool		 fr = lang == CHESS_LANG_FR;

	white = cli_http_json_str(row, "white");
	black = cli_http_json_str(row, "black");
	status = cli_http_json_str(row, "status");
	turn = cli_http_json_str(row, "turn");
	if (!cli_http_json_int(row, "id", &id) ||
	    !cli_http_json_int(row, "ply", &ply) || white == NULL ||
	    black == NULL || status == NULL)
		return -1;
	snprintf(players, sizeof players, "%s %s %s", white, fr ? "–" : "v",
	    black);
	/* printf pads bytes: widen by what the dash's UTF-8 adds. */
	printf("%6lld  %-*s  %s %4lld  ", (long long)id, width + (fr ? 2 : 0),
	    players, fr ? "demi-coup" : "ply", (long long)ply);
	if (strcmp(status, "ongoing") == 0) {
		who = turn == NULL ? NULL : strcmp(turn, "white") == 0 ? white :
		    strcmp(turn, "black") == 0 ? black : NULL;
		if (who != NULL && fr)
			printf("au tour %s%s", french_de(who), who);
		else if (who != NULL)
			printf("%s to move", who);
		else
			printf("%s", fr ? "en cours" : "ongoing");
		dl = cli_http_json_str(row, "deadline");
		if (dl != NULL && cmd_game_parse_time(dl, &at) == 0) {
			render_time(at, t, sizeof t);
			printf(fr ? ", échéance %s" : ", deadline %s", t);
		}
	} else {
		result = cli_http_json_str(row, "result");
		term = cli_http_json_str(row, "termination");
		printf("%s", result != NULL ? result : fr &&
		    strcmp(status, "finished") == 0 ? "terminée" : status);
		if (term != NULL && term[0] != '\0') {
			/* The API's name, in words in the reader's language. */
			for (k = GAME_TERM_NONE + 1; k <= GAME_TERM_LAST; k++)
				if (strcmp(game_termination_name(k), term) == 0)
					break;
			printf(" (%s)", k <= GAME_TERM_LAST && fr ?
			    game_termination_text(k, lang) : term);
		}
	}
	printf("\n");
	return 0;
}

/* corrchess games [-s URL] [--player NAME] [--status ongoing|finished]
 * [--lang en|fr] */
int
cmd_game_games(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "player", 'p', 1, OPT_FILTER },
		{ "status", 0, 1, OPT_STATUS },
		{ "lang", 0, 1, OPT_LANG },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_game_opts	 o;
	struct cli_http_reply	 r = { 0 };
	struct buf		 q = { 0 };
	json_t			*games, *row;
	const char		*w, *b;
	char			 err[CLI_ERR_SIZE], *path = NULL;
	size_t			 i, len;
	int			 ind, rc, width = 0, bad = 0, started = 0;

	if ((rc = cmd_game_options(self, argc, argv, opts, &o, &ind)) !=
	    CLI_EXIT_OK)
		goto out;
	if (ind != argc) {
		rc = cli_usage(self, "unexpected operand '%s'", argv[ind]);
		goto out;
	}
	buf_adds(&q, "/api/v1/games");
	if (o.filter != NULL) {
		buf_adds(&q, "?player=");
		cmd_game_query_add(&q, o.filter);
	}
	if (o.status != NULL)
		buf_addf(&q, "%cstatus=%s", o.filter != NULL ? '&' : '?',
		    o.status);
	if ((path = buf_take(&q, &len)) == NULL) {
		cli_error(self, "out of memory");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (cli_http_start(self) == -1) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	started = 1;
	if (cli_http_request(o.cf.server, "GET", path, NULL, 0, NULL, &r, err,
	    sizeof err) == -1) {
		cli_error(self, "%s", err);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (r.status != 200) {
		cmd_game_refused(self, &r);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	games = json_is_object(r.json) ? json_object_get(r.json, "games") :
	    NULL;
	if (!json_is_array(games)) {
		cli_error(self, "the server at %s did not answer with a list "
		    "of games", o.cf.server);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	json_array_foreach(games, i, row) {
		w = cli_http_json_str(row, "white");
		b = cli_http_json_str(row, "black");
		if (w != NULL && b != NULL && (int)(strlen(w) + strlen(b) + 3) >
		    width)
			width = (int)(strlen(w) + strlen(b) + 3);
	}
	if (width > 70)
		width = 70;
	json_array_foreach(games, i, row) {
		if (cmd_game_games_row(row, width, cmd_game_lang(&o)) == -1)
			bad++;
	}
	if (json_array_size(games) == 0)
		fprintf(stderr, "corrchess games: %s\n",
		    cmd_game_lang(&o) == CHESS_LANG_FR ? "aucune partie" :
		    "no games");
	if (bad > 0) {
		cli_error(self, "%d entr%s of the server's list not read "
		    "(not a game)", bad, bad == 1 ? "y" : "ies");
		rc = CLI_EXIT_FAIL;
	} else
		rc = CLI_EXIT_OK;
out:
	if (started)
		cli_http_stop();
	buf_free(&q);
	free(path);
	cli_http_reply_free(&r);
	cli_conf_free(&o.cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
