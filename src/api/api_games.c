/*
 * api/api_games.c: the REST handlers of games: create, list, read (JSON,
 * text, PGN, SVG, records), act, and the admin's abort and adjudicate.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <sodium.h>

#include "api/api_games.h"
#include "api/api_messages.h"
#include "api/api_json.h"
#include "api/api_players.h"
#include "api/api_respond.h"
#include "util/buf.h"
#include "http/http.h"
#include "game/conditional.h"
#include "game/render.h"
#include "service/service.h"
#include "web/board_svg.h"

/* "white" or "black". */
static const char *
color_name(int c)
{
	return c == CHESS_WHITE ? "white" : "black";
}

/* The statement the player to move signs next (without the action). */
static void
next_statement(const struct service_game *g, char *buf, size_t size)
{
	int	turn = game_turn(&g->state);

	snprintf(buf, size, "corrchess-v1\ngame: %" PRId64 "\nply: %zu\n"
	    "player: %s\naction: ", g->row.id, game_ply(&g->state),
	    turn == CHESS_WHITE ? g->row.white_name : g->row.black_name);
}

/*
 * Append s (UTF-8) to b as a JSON string as jansson's JSON_ENSURE_ASCII
 * writes it: ASCII written here, its quotes, backslashes and control
 * bytes escaped; a string with other bytes handed to jansson whole (the
 * \u escapes of UTF-8). An invalid string is written null.
 */
static void
json_string_add(struct buf *b, const char *s)
{
	const char	*run, *p;
	json_t		*v;
	char		*text;

	for (p = s; *p != '\0' && (unsigned char)*p < 0x80; p++)
		;
	if (*p != '\0') {
		v = json_string(s);
		text = v != NULL ? json_dumps(v, JSON_ENCODE_ANY |
		    JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
		buf_adds(b, text != NULL ? text : "null");
		free(text);
		json_decref(v);
		return;
	}
	buf_add(b, "\"", 1);
	while (*s != '\0') {
		for (run = s; *s != '\0' && *s != '"' && *s != '\\' &&
		    (unsigned char)*s >= 0x20; s++)
			;
		buf_add(b, run, (size_t)(s - run));
		if (*s == '\0')
			break;
		switch (*s) {
		case '"':
			buf_add(b, "\\\"", 2);
			break;
		case '\\':
			buf_add(b, "\\\\", 2);
			break;
		case '\n':
			buf_add(b, "\\n", 2);
			break;
		case '\t':
			buf_add(b, "\\t", 2);
			break;
		case '\r':
			buf_add(b, "\\r", 2);
			break;
		case '\b':
			buf_add(b, "\\b", 2);
			break;
		case '\f':
			buf_add(b, "\\f", 2);
			break;
		default:
			buf_addf(b, "\\u%04X", (unsigned char)*s);
		}
		s++;
	}
	buf_add(b, "\"", 1);
}

/* Append `,"name":` (no printf: a game's JSON has some thirty of them). */
static void
json_name_add(struct buf *b, const char *name)
{
	buf_add(b, ",\"", 2);
	buf_adds(b, name);
	buf_add(b, "\":", 2);
}

/* Append an integer in decimal. */
static void
json_int_add(struct buf *b, int64_t v)
{
	char		 t[24], *p = t + sizeof t;
	uint64_t	 u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(t + sizeof t - p));
}

/* Append `,"name":` and a string (NULL: null). */
static void
json_member_str(struct buf *b, const char *name, const char *v)
{
	json_name_add(b, name);
	if (v != NULL)
		json_string_add(b, v);
	else
		buf_add(b, "null", 4);
}

/* Append `,"name":` and an integer. */
static void
json_member_int(struct buf *b, const char *name, int64_t v)
{
	json_name_add(b, name);
	json_int_add(b, v);
}

/* Append `,"name":` and a JSON value, written by jansson (NULL: null). */
static void
json_member_value(struct buf *b, const char *name, json_t *v)
{
	char	*text;

	json_name_add(b, name);
	text = v != NULL ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT |
	    JSON_ENSURE_ASCII) : NULL;
	if (text == NULL && v != NULL)
		b->failed = true;
	buf_adds(b, text != NULL ? text : "null");
	free(text);
	json_decref(v);
}

/*
 * Append the game's move list, "moves":[...], and while it is ongoing
 * its legal moves, "legal_moves":[{"uci":...,"san":...},...] (UCI and
 * English SAN, for a client that offers them: the web page highlights the
 * destinations), written straight from the SAN the service keeps and one
 * move generation: no JSON value per move, so that a move's answer costs
 * about the same at ply 400 as at ply 20.
 */
static void
game_lists_add(struct buf *b, const struct service_game *g)
{
	const struct chess_position *pos = &g->state.chess.pos;
	chess_move	 moves[CHESS_MAX_MOVES];
	char		 san[CHESS_MAX_MOVES][CHESS_SAN_MAX], uci[8];
	size_t		 i, nply;
	int		 k, n;

	/* The move list, the part that grows with the game: room made once
	 * (a SAN, its quotes and comma), so that no SAN reallocates. */
	nply = g->state.chess.nply;
	if (!buf_reserve(b, nply * (CHESS_SAN_MAX + 3) + 16))
		return;
	buf_adds(b, ",\"moves\":[");
	for (i = 0; i < nply; i++) {
		if (i > 0)
			buf_add(b, ",", 1);
		json_string_add(b, g->san[i]);
	}
	buf_add(b, "]", 1);
	if (!game_ongoing(&g->state))
		return;
	n = chess_legal_moves(pos, moves);
	chess_moves_san(pos, moves, n, CHESS_LANG_EN, san);
	buf_reserve(b, (size_t)n * (sizeof uci + CHESS_SAN_MAX + 24) + 32);
	buf_adds(b, ",\"legal_moves\":[");
	for (k = 0; k < n; k++) {
		chess_move_uci(pos, moves[k], uci, sizeof uci);
		buf_adds(b, k > 0 ? ",{\"uci\":" : "{\"uci\":");
		json_string_add(b, uci);
		buf_adds(b, ",\"san\":");
		json_string_add(b, san[k]);
		buf_add(b, "}", 1);
	}
	buf_add(b, "]", 1);
}

/*
 * Append the JSON members of a game but its lists (game_lists_add()
 * writes them), from its opening brace: written here, not built as
 * jansson values and dumped (one move's answer, on the HTTP thread), in
 * the order and form jansson gave them.
 */
static void
game_json_members(struct buf *b, const struct service_game *g)
{
	char		 fen[CHESS_FEN_MAX], start[CHESS_FEN_MAX];
	char		 created[32], deadline[32], stmt[256];
	int64_t		 dl = game_deadline(&g->state);

	chess_fen_write(&g->state.chess.pos, fen, sizeof fen);
	chess_fen_write(&g->state.chess.start, start, sizeof start);
	render_time(g->row.created, created, sizeof created);
	if (dl != 0)
		render_time(dl, deadline, sizeof deadline);
	buf_adds(b, "{\"id\":");
	json_int_add(b, g->row.id);
	json_member_str(b, "white", g->row.white_name);
	json_member_str(b, "black", g->row.black_name);
	json_member_str(b, "variant", g->row.variant);
	json_member_str(b, "initial_fen", start);
	json_member_str(b, "fen", fen);
	json_member_int(b, "ply", (int64_t)game_ply(&g->state));
	json_member_str(b, "turn", color_name(game_turn(&g->state)));
	json_member_str(b, "status", game_ongoing(&g->state) ? "ongoing" :
	    "finished");
	json_member_str(b, "result", game_result_name(g->state.result));
	json_member_str(b, "termination",
	    game_termination_name(g->state.termination));
	json_member_str(b, "time_control", g->row.time_control);
	json_member_str(b, "policy", g->row.policy);
	json_member_str(b, "created", created);
	if (g->row.chess960 >= 0)
		json_member_int(b, "chess960", g->row.chess960);
	else
		buf_adds(b, ",\"chess960\":null");
	json_member_str(b, "draw_offer", g->state.draw_offer >= 0 ?
	    color_name(g->state.draw_offer) : NULL);
	if (g->state.params.tc.kind != GAME_TC_NONE) {
		buf_adds(b, ",\"clocks\":{\"white\":");
		json_int_add(b, game_time_left(&g->state, CHESS_WHITE, g->now));
		buf_adds(b, ",\"black\":");
		json_int_add(b, game_time_left(&g->state, CHESS_BLACK, g->now));
		buf_add(b, "}", 1);
	} else
		buf_adds(b, ",\"clocks\":null");
	if (g->state.params.tc.kind == GAME_TC_MOVES_IN) {
		buf_adds(b, ",\"moves_to_control\":{\"white\":");
		json_int_add(b, game_moves_to_control(&g->state, CHESS_WHITE));
		buf_adds(b, ",\"black\":");
		json_int_add(b, game_moves_to_control(&g->state, CHESS_BLACK));
		buf_add(b, "}", 1);
	} else
		buf_adds(b, ",\"moves_to_control\":null");
	json_member_str(b, "deadline", dl != 0 && game_ongoing(&g->state) ?
	    deadline : NULL);
	buf_adds(b, g->rules.rated ? ",\"rated\":true" : ",\"rated\":false");
	json_member_int(b, "draw_min_move", g->state.params.draw_min_move);
	json_member_int(b, "draw_offer_every",
	    g->state.params.draw_offer_every);
	json_member_int(b, "leave_days", g->rules.leave_days);
	json_member_str(b, "event", g->row.event);
	json_member_str(b, "site", g->row.site);
	json_member_str(b, "round", g->row.round);
	if (g->nmsgs == 0)
		buf_adds(b, ",\"messages\":[]");
	else
		json_member_value(b, "messages", api_messages_json(g));
	if (game_ongoing(&g->state)) {
		next_statement(g, stmt, sizeof stmt);
		json_member_str(b, "next_statement", stmt);
	}
	if (g->cond != NULL)
		json_member_value(b, "conditional", json_pack(
		    "{s:I,s:i,s:s,s:s,s:s?,s:i,s:I}", "id",
		    (json_int_t)g->cond->id, "ply", g->cond->ply,
		    "lines", g->cond->lines, "status", g->cond->status,
		    "reason", g->cond->reason[0] ? g->cond->reason : NULL,
		    "played", g->cond->played,
		    "lines_left", (json_int_t)g->cond->left));
}

/* The JSON text of a game without its closing brace. */
char *
api_game_json_open(const struct service_game *g, size_t *lenp)
{
	struct buf	 b = { 0 };

	game_json_members(&b, g);
	game_lists_add(&b, g);
	return buf_take(&b, lenp);
}

/* The JSON of a game. */
json_t *
api_game_json(const struct service_game *g)
{
	json_t	*o;
	char	*text;
	size_t	 len;

	if ((text = api_game_json_open(g, &len)) == NULL)
		return NULL;
	/* The closing brace in the room of the terminating NUL. */
	text[len] = '}';
	o = json_loadb(text, len + 1, 0, NULL);
	free(text);
	return o;
}

/*
 * The text/plain summary of a game for curl users, in `lang`: the board's
 * figures, the moves in that language's letters; malloc'd.
 */
static char *
game_text(const struct service_game *g, enum chess_lang lang, size_t *lenp)
{
	static const char *const	 colors[2][2] = {
					    { "White", "Black" },
					    { "Blancs", "Noirs" } };
	const struct chess_game		*cg = &g->state.chess;
	const char *const		*color = colors[lang == CHESS_LANG_FR];
	struct chess_position		 pos = cg->start;
	struct buf			 b = { 0 };
	char				 board[RENDER_BOARD_MAX];
	char				 fen[CHESS_FEN_MAX], t[96];
	char				 stmt[256], san[CHESS_SAN_MAX];
	char				*lines, reason[512];
	size_t				 i, n;
	bool				 fr = lang == CHESS_LANG_FR;
	int				 c, turn = game_turn(&g->state);

	buf_addf(&b, fr ? "Partie %" PRId64 " : %s (Blancs) c. %s (Noirs)"
	    "%s%s\n" : "Game %" PRId64 ": %s (White) v %s (Black)%s%s\n",
	    g->row.id, g->row.white_name, g->row.black_name,
	    g->row.event[0] ? ", " : "", g->row.event);
	if (g->row.chess960 >= 0)
		buf_addf(&b, fr ? "Chess960, position de départ %d\n" :
		    "Chess960, starting position %d\n", g->row.chess960);
	else if (cg->start.chess960)
		buf_adds(&b, "Chess960\n");
	buf_adds(&b, "\n");
	render_board_lang(&cg->pos, true, false, lang, board, sizeof board);
	buf_adds(&b, board);
	if (game_ongoing(&g->state))
		buf_addf(&b, fr ? "\nAu trait : %s (ply %zu)%s\n" :
		    "\n%s to move (ply %zu)%s\n", color[turn],
		    game_ply(&g->state), g->state.draw_offer < 0 ? "" : fr ?
		    ", une nulle est proposée" : ", a draw is offered");
	else
		buf_addf(&b, fr ? "\nPartie terminée : %s (%s)\n" :
		    "\nGame over: %s (%s)\n", game_result_name(g->state.result),
		    fr ? game_termination_text(g->state.termination, lang) :
		    game_termination_name(g->state.termination));
	if (g->state.params.tc.kind != GAME_TC_NONE) {
		for (c = 0; c < 2; c++) {
			render_duration_lang(game_time_left(&g->state, c,
			    g->now), lang, t, sizeof t);
			buf_addf(&b, fr ? "Pendule des %s : il reste %s" :
			    "%s clock: %s left", color[c], t);
			if ((n = (size_t)game_moves_to_control(&g->state,
			    c)) > 0)
				buf_addf(&b, fr ? ", %zu coup%s jusqu'au "
				    "contrôle" : ", %zu move%s to the control",
				    n, n == 1 ? "" : "s");
			buf_adds(&b, "\n");
		}
		if (game_ongoing(&g->state)) {
			/* English keeps its ISO 8601 time. */
			if (fr)
				render_time_lang(game_deadline(&g->state),
				    lang, t, sizeof t);
			else
				render_time(game_deadline(&g->state), t,
				    sizeof t);
			buf_addf(&b, fr ? "Délai : %s\n" : "Deadline: %s\n", t);
		}
	}
	chess_fen_write(&cg->pos, fen, sizeof fen);
	buf_addf(&b, fr ? "FEN : %s\nCoups :" : "FEN: %s\nMoves:", fen);
	for (i = 0; i < cg->nply; i++) {
		n = i + (cg->start.side == CHESS_BLACK);
		if (i == 0 && n % 2 == 1)
			buf_addf(&b, " %u...", cg->start.fullmove);
		else if (n % 2 == 0)
			buf_addf(&b, " %zu.", cg->start.fullmove + n / 2);
		chess_move_san(&pos, cg->moves[i], lang, san, sizeof san);
		buf_addf(&b, " %s", san);
		chess_position_make(&pos, cg->moves[i]);
	}
	buf_adds(&b, "\n");
	api_messages_text(&b, g, lang);
	if (g->cond != NULL) {
		buf_addf(&b, fr ? "\nVos coups conditionnels (%s" :
		    "\nYour conditional moves (%s",
		    game_cond_status_lang(g->cond->status, lang));
		if (g->cond->reason[0] != '\0') {
			game_cond_reason_lang(g->cond->reason, lang, reason,
			    sizeof reason);
			buf_addf(&b, fr ? " : %s" : ": %s", reason);
		}
		buf_addf(&b, fr ? " ; %d joués, %zu lignes restantes) :\n"
		    "  " : "; %d played, %zu lines left):\n  ",
		    g->cond->played, g->cond->left);
		/* Stored in English SAN: the reader's letters. */
		n = strlen(g->cond->lines) + 1;
		if ((lines = malloc(n)) != NULL) {
			chess_san_text_lang(g->cond->lines, lang, lines, n);
			buf_adds(&b, lines);
			free(lines);
		}
		buf_adds(&b, "\n");
	}
	if (game_ongoing(&g->state)) {
		next_statement(g, stmt, sizeof stmt);
		buf_addf(&b, fr ? "\nProchaine déclaration à signer :\n%s"
		    "move ...\n" : "\nNext statement to sign:\n%smove ...\n",
		    stmt);
	}
	return buf_take(&b, lenp);
}

/* Append a game's auth rule and the doors its players opened: what each
 * side may use to act in it. */
static int
game_doors_add(struct service *svc, const struct service_game *g,
    struct buf *b, struct service_error *err)
{
	struct service_doors	 d[2];
	int			 c;

	if (service_doors_get(svc, g->row.white_name, &d[0], err) != 0 ||
	    service_doors_get(svc, g->row.black_name, &d[1], err) != 0)
		return -1;
	json_member_str(b, "auth", g->rules.auth);
	buf_adds(b, ",\"doors\":{");
	for (c = 0; c < 2; c++) {
		if (strcmp(g->rules.auth, "signed") == 0)
			d[c].xfcc = d[c].mail_token = false;
		buf_adds(b, c > 0 ? ",\"black\":[\"signed\"" :
		    "\"white\":[\"signed\"");
		if (d[c].xfcc)
			buf_adds(b, ",\"xfcc\"");
		if (d[c].mail_token)
			buf_adds(b, ",\"mail-token\"");
		buf_add(b, "]", 1);
	}
	buf_add(b, "}", 1);
	return 0;
}

static char	*render_game(struct service *, const struct service_game *,
		    enum service_render, size_t *, struct service_error *);

/* The kind of answer a request of a game asks for: JSON, or text in the
 * reader's language. */
static enum service_render
game_kind(struct http_request *req)
{
	if (!http_request_wants_text(req))
		return SERVICE_RENDER_JSON;
	return api_reader_lang(req) == CHESS_LANG_FR ?
	    SERVICE_RENDER_TEXT_FR : SERVICE_RENDER_TEXT;
}

/* Answer a game, as JSON or text. */
static void
respond_game(struct http_request *req, struct http_response *resp,
    unsigned status, const struct service_game *g, struct service *svc)
{
	struct service_error	 err;
	enum service_render	 kind;
	char			*out;
	size_t			 len;

	kind = game_kind(req);
	if ((out = render_game(svc, g, kind, &len, &err)) == NULL) {
		api_error(resp, &err);
		return;
	}
	/* Given, not copied: libmicrohttpd frees it once sent. */
	http_respond_shared(resp, status, kind == SERVICE_RENDER_JSON ?
	    "application/json" : "text/plain; charset=utf-8", out, len, free);
	if (kind != SERVICE_RENDER_JSON)
		http_response_header(resp, "Vary", "Accept-Language");
}

/* POST /api/v1/games {white, black, variant, chess960, fen, time_control,
 * policy, event, site, round} */
void
api_game_create(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_game_params	 gp;
	struct service_game		 g;
	struct service_error		 err;
	json_t				*body;
	char				 why[256];
	int				 rc;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	if ((rc = api_json_game(body, &gp, why, sizeof why)) != API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (service_game_create(user, &gp, &g, &err) != 0)
		api_error(resp, &err);
	else {
		respond_game(req, resp, 201, &g, user);
		service_game_free(&g);
	}
	json_decref(body);
}

/* Add a game row to the listing. */
static int
game_collect(void *arg, const struct store_game *g)
{
	json_t	*o;
	char	 dl[32];

	if (g->deadline != 0)
		render_time(g->deadline, dl, sizeof dl);
	o = json_pack("{s:I,s:s,s:s,s:s,s:I,s:s,s:s,s:s,s:s,s:s?}",
	    "id", (json_int_t)g->id, "white", g->white_name,
	    "black", g->black_name, "variant", g->variant,
	    "ply", (json_int_t)g->ply, "turn", color_name(g->turn),
	    "status", g->status, "result", g->result,
	    "termination", g->termination,
	    "deadline", g->deadline != 0 && strcmp(g->status, "ongoing") == 0 ?
	    dl : NULL);
	return json_array_append_new(arg, o);
}

/* Read a query argument that counts things: 0, or -1 if malformed. */
static int
query_count(struct http_request *req, const char *name, int64_t *out)
{
	const char	*s = http_request_query(req, name);
	char		*end;
	long long	 v;

	if (s == NULL)
		return 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0 || v > 1000000000)
		return -1;
	*out = v;
	return 0;
}

/* GET /api/v1/games?player=NAME&status=ongoing|finished&limit=&offset= */
void
api_game_list(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct store_game_filter	 f;
	struct service_error		 err;
	json_t				*a, *o;
	size_t				 i;
	struct buf			 b = { 0 };
	char				*text;
	size_t				 len;

	if (api_query_refused(req, resp, "player status limit offset"))
		return;
	memset(&f, 0, sizeof f);
	f.player = http_request_query(req, "player");
	f.status = http_request_query(req, "status");
	if (f.status != NULL && strcmp(f.status, "ongoing") != 0 &&
	    strcmp(f.status, "finished") != 0) {
		http_respond_error(resp, 400, "bad-request",
		    "status must be \"ongoing\" or \"finished\"");
		return;
	}
	/* Pages of 100 games by default, 1000 at most. */
	f.limit = 100;
	if (query_count(req, "limit", &f.limit) != 0 ||
	    query_count(req, "offset", &f.offset) != 0 || f.limit > 1000) {
		http_respond_error(resp, 400, "bad-request",
		    "limit (1 to 1000, default 100) and offset must be "
		    "positive numbers");
		return;
	}
	if (f.limit == 0)
		f.limit = 100;
	a = json_array();
	if (service_game_list(user, &f, game_collect, a, &err) != 0) {
		json_decref(a);
		api_error(resp, &err);
		return;
	}
	if (!http_request_wants_text(req)) {
		http_respond_json(resp, 200, json_pack("{s:o}", "games", a));
		return;
	}
	buf_adds(&b, "");
	json_array_foreach(a, i, o) {
		const char *st = json_string_value(json_object_get(o,
		    "status"));
		const char *turn = json_string_value(json_object_get(o,
		    "turn"));
		const char *w = json_string_value(json_object_get(o, "white"));
		const char *bl = json_string_value(json_object_get(o, "black"));

		buf_addf(&b, "%6" JSON_INTEGER_FORMAT "  %s v %s  ply %"
		    JSON_INTEGER_FORMAT "  ",
		    json_integer_value(json_object_get(o, "id")), w, bl,
		    json_integer_value(json_object_get(o, "ply")));
		if (strcmp(st, "ongoing") == 0)
			buf_addf(&b, "%s to move\n",
			    strcmp(turn, "white") == 0 ? w : bl);
		else
			buf_addf(&b, "%s\n", json_string_value(
			    json_object_get(o, "result")));
	}
	json_decref(a);
	if ((text = buf_take(&b, &len)) == NULL)
		http_respond_error(resp, 500, "internal", "out of memory");
	else
		http_respond_data(resp, 200, "text/plain; charset=utf-8", text,
		    len);
	free(text);
}

/* Say that a render ran out of memory. */
static void
render_nomem(struct service_error *err)
{
	err->status = 500;
	snprintf(err->code, sizeof err->code, "internal");
	snprintf(err->message, sizeof err->message, "out of memory");
}

/*
 * The whole JSON of a game: its members and lists, the auth rule and the
 * players' doors (kept with the players, service/signers.c), the closing
 * brace and a newline, as http_respond_json() writes it. NULL with err
 * set.
 */
static char *
game_json_whole(struct service *svc, const struct service_game *g,
    size_t *lenp, struct service_error *err)
{
	struct buf	 b = { 0 };
	char		*out;

	game_json_members(&b, g);
	game_lists_add(&b, g);
	if (game_doors_add(svc, g, &b, err) != 0) {
		buf_free(&b);
		return NULL;
	}
	buf_add(&b, "}\n", 2);
	if ((out = buf_take(&b, lenp)) == NULL)
		render_nomem(err);
	return out;
}

/*
 * Render a game for keeping: its text, or its whole JSON (its players'
 * doors included: the kept bytes go with the players' generation). NULL
 * with err set.
 */
static char *
render_game(struct service *svc, const struct service_game *g,
    enum service_render kind, size_t *lenp, struct service_error *err)
{
	char	*out;

	if (kind == SERVICE_RENDER_JSON)
		return game_json_whole(svc, g, lenp, err);
	out = game_text(g, kind == SERVICE_RENDER_TEXT_FR ? CHESS_LANG_FR :
	    CHESS_LANG_EN, lenp);
	if (out == NULL)
		render_nomem(err);
	return out;
}

/* Answer with a game's rendered bytes, given, not copied: kept ones
 * (`release` service_bytes_release()) or malloc'd (`release` free()). */
static void
respond_rendered(struct http_response *resp, enum service_render kind,
    const char *bytes, size_t len, const char *tag, void (*release)(void *))
{
	const char	*type = kind == SERVICE_RENDER_JSON ?
			    "application/json" : "text/plain; charset=utf-8";

	http_respond_shared(resp, 200, type, bytes, len, release);
	http_response_set_etag(resp, tag);
	if (kind != SERVICE_RENDER_JSON)
		http_response_header(resp, "Vary", "Accept-Language");
}

/*
 * GET /api/v1/games/{id}: the bytes the service keeps for the game as it
 * stands, sent as they are kept with the tag made of them; else rendered
 * now and kept.
 */
void
api_game_get(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_render_ticket	 t;
	struct service_game		 g;
	struct service_error		 err;
	enum service_render		 kind;
	const char			*kept, *tag;
	char				*out, etag[HTTP_ETAG_SIZE];
	size_t				 len = 0;
	int64_t				 id = http_request_param_int(req,
					     "id");
	int				 rc;

	if (api_query_refused(req, resp, "lang"))
		return;
	kind = game_kind(req);
	if ((rc = service_render_share(user, id, kind, &kept, &len, &tag, &t,
	    &err)) < 0) {
		api_error(resp, &err);
		return;
	}
	if (rc == 1) {
		respond_rendered(resp, kind, kept, len, tag,
		    service_bytes_release);
		return;
	}
	if (service_game_get(user, id, &g, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	if ((out = render_game(user, &g, kind, &len, &err)) == NULL) {
		service_game_free(&g);
		api_error(resp, &err);
		return;
	}
	http_etag_make(out, len, etag);
	service_render_put(user, &g, kind, out, len, etag, &t);
	service_game_free(&g);
	respond_rendered(resp, kind, out, len, etag, free);
}

/* GET /api/v1/games/{id}/pgn: kept as the game's JSON is. */
void
api_game_pgn(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_render_ticket	 t;
	struct service_game		 g;
	struct service_error		 err;
	const char			*kept, *tag;
	char				*pgn, etag[HTTP_ETAG_SIZE];
	size_t				 len;
	int64_t				 id = http_request_param_int(req,
					     "id");
	int				 rc;

	if (api_query_refused(req, resp, ""))
		return;
	if ((rc = service_render_share(user, id, SERVICE_RENDER_PGN, &kept,
	    &len, &tag, &t, &err)) < 0) {
		api_error(resp, &err);
		return;
	}
	if (rc == 1) {
		http_respond_shared(resp, 200, "application/x-chess-pgn", kept,
		    len, service_bytes_release);
		http_response_set_etag(resp, tag);
		return;
	}
	if (service_game_get(user, id, &g, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	if ((pgn = service_game_pgn_of(user, &g, &len, &err)) != NULL) {
		http_etag_make(pgn, len, etag);
		service_render_put(user, &g, SERVICE_RENDER_PGN, pgn, len,
		    etag, &t);
	}
	service_game_free(&g);
	api_pgn(resp, pgn, len, &err);
	free(pgn);
}

/* Read a 0/1 query flag: 0 or 1, or -1 when malformed. */
static int
query_flag(struct http_request *req, const char *name)
{
	const char	*s = http_request_query(req, name);

	if (s == NULL || strcmp(s, "0") == 0)
		return 0;
	if (*s == '\0' || strcmp(s, "1") == 0)
		return 1;
	return -1;
}

/*
 * GET /api/v1/games/{id}/board.svg?flip=1&size=N&coords=0&lang=fr: the
 * position as SVG, the last move and a check marked, for forums, mails
 * and other sites.
 */
void
api_game_board(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct board_svg_opts	 o;
	struct service_game	 g;
	struct service_error	 err;
	const char		*size = http_request_query(req, "size");
	char			*svg, *end;
	long			 v = BOARD_SVG_SIZE;
	size_t			 len;
	int			 flip, coords;

	if (api_query_refused(req, resp, "flip size coords lang"))
		return;
	memset(&o, 0, sizeof o);
	flip = query_flag(req, "flip");
	coords = http_request_query(req, "coords") != NULL ?
	    query_flag(req, "coords") : 1;
	if (size != NULL)
		v = strtol(size, &end, 10);
	if (flip < 0 || coords < 0 || (size != NULL && (*size == '\0' ||
	    *end != '\0' || v < BOARD_SVG_SIZE_MIN ||
	    v > BOARD_SVG_SIZE_MAX))) {
		http_respond_error(resp, 400, "bad-request", "flip and coords "
		    "are 0 or 1, size a number of pixels from %d to %d",
		    BOARD_SVG_SIZE_MIN, BOARD_SVG_SIZE_MAX);
		return;
	}
	if (service_game_get(user, http_request_param_int(req, "id"), &g,
	    &err) != 0) {
		api_error(resp, &err);
		return;
	}
	o.flip = flip == 1;
	/* Coordinates are legible from about 200 px. */
	o.coords = coords == 1 && v >= 200;
	o.check = true;
	o.size = (unsigned)v;
	o.lang = api_reader_lang(req);
	board_svg_last_move(&o, g.state.chess.nply > 0 ?
	    g.state.chess.moves[g.state.chess.nply - 1] : CHESS_MOVE_NONE);
	if ((svg = malloc(BOARD_SVG_MAX)) == NULL) {
		service_game_free(&g);
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	len = board_svg(&g.state.chess.pos, &o, svg, BOARD_SVG_MAX);
	service_game_free(&g);
	http_respond_data(resp, 200, "image/svg+xml; charset=utf-8", svg,
	    len < BOARD_SVG_MAX ? len : BOARD_SVG_MAX - 1);
	http_response_header(resp, "Vary", "Accept-Language");
	http_response_header(resp, "X-Content-Type-Options", "nosniff");
	free(svg);
}

/* Add one record to a JSON array. */
static int
record_collect(void *arg, const struct store_action *a)
{
	char	prev[STORE_HASH_LEN * 2 + 1], hash[STORE_HASH_LEN * 2 + 1];
	char	at[32];

	sodium_bin2hex(prev, sizeof prev, a->prev_hash, STORE_HASH_LEN);
	sodium_bin2hex(hash, sizeof hash, a->hash, STORE_HASH_LEN);
	render_time(a->at, at, sizeof at);
	return json_array_append_new(arg, json_pack(
	    "{s:I,s:i,s:s,s:s?,s:s?,s:s?,s:s?,s:s,s:s,s:s,s:s,s:s?}",
	    "seq", (json_int_t)a->seq, "ply", a->ply, "kind", a->kind,
	    "san", a->san[0] ? a->san : NULL, "move", a->move[0] ? a->move :
	    NULL, "statement", a->statement, "signature", a->signature,
	    "at", at, "source", a->source, "prev_hash", prev, "hash", hash,
	    "attested", a->attested[0] ? a->attested : NULL));
}

/* Add the game's creation record to `o` as "creation": its bytes, the
 * server's signature in base64 and its hash; null when it has none. */
static int
record_creation(struct service *svc, int64_t id, json_t *o,
    struct service_error *err)
{
	struct store_creation	 c, *sc = &c;
	char			 hash[STORE_HASH_LEN * 2 + 1];
	char			 b64[sodium_base64_ENCODED_LEN(
				     STORE_SIGNATURE_LEN,
				     sodium_base64_VARIANT_ORIGINAL)];
	int			 got;

	if ((got = service_game_creation(svc, id, sc, err)) < 0)
		return -1;
	if (got == 0)
		json_object_set_new(o, "creation", json_null());
	else {
		sodium_bin2hex(hash, sizeof hash, sc->hash, STORE_HASH_LEN);
		sodium_bin2base64(b64, sizeof b64, sc->signature,
		    STORE_SIGNATURE_LEN, sodium_base64_VARIANT_ORIGINAL);
		json_object_set_new(o, "creation", json_pack("{s:s,s:s,s:s}",
		    "record", sc->record, "signature", b64, "hash", hash));
	}
	return 0;
}

/* Add the keys a game's record is checked with to `o`: both players'
 * (revoked ones too), each with its player, and the server's. */
static int
record_keys(struct service *svc, int64_t id, json_t *o,
    struct service_error *err)
{
	struct service_game	 g;
	struct service_player	 sp;
	const char		*names[2];
	uint8_t			 pk[SIG_PUBKEY_BYTES];
	char			 line[SIG_PUBKEY_LINE_SIZE + 32];
	json_t			*a = json_array(), *k;
	size_t			 c, i;

	if (service_game_get(svc, id, &g, err) != 0) {
		json_decref(a);
		return -1;
	}
	names[0] = g.row.white_name;
	names[1] = g.row.black_name;
	for (c = 0; c < 2; c++) {
		if (service_player_get(svc, names[c], &sp, err) != 0) {
			service_game_free(&g);
			json_decref(a);
			return -1;
		}
		for (i = 0; i < sp.nkeys; i++) {
			k = api_key_json(&sp.keys[i]);
			json_object_set_new(k, "player", json_string(names[c]));
			json_array_append_new(a, k);
		}
		service_player_free(&sp);
	}
	service_game_free(&g);
	json_object_set_new(o, "keys", a);
	if (service_server_key(svc, pk) == 0 &&
	    sig_pubkey_format(pk, "corrchessd", line, sizeof line) == 0) {
		line[strcspn(line, "\n")] = '\0';
		json_object_set_new(o, "server_key", json_string(line));
	}
	return 0;
}

/*
 * GET /api/v1/games/{id}/records: the signed record, with its hash chain
 * and the keys to check it with.
 */
void
api_game_records(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	int64_t			 id = http_request_param_int(req, "id");
	json_t			*a, *o;

	if (api_query_refused(req, resp, ""))
		return;
	a = json_array();
	if (service_game_records(user, id, record_collect, a, &err) != 0) {
		json_decref(a);
		api_error(resp, &err);
		return;
	}
	o = json_pack("{s:o}", "records", a);
	if (record_keys(user, id, o, &err) != 0 ||
	    record_creation(user, id, o, &err) != 0) {
		json_decref(o);
		api_error(resp, &err);
		return;
	}
	http_respond_json(resp, 200, o);
}

/* A signed action on its way through the writer (api_game_action()). */
struct action_later {
	struct service_action	*a;	/* NULL: refused before the writer */
	struct service_error	 err;
};

/* The writer is done with an action: wake its connection. */
static void
action_ready(void *arg)
{
	http_later_ready(arg);
}

/* Answer a signed action once the writer is done (resp NULL: the client
 * left). */
static void
action_finish(struct http_request *req, struct http_response *resp,
    void *user, void *arg)
{
	struct action_later	*l = arg;
	struct service_game	 g;

	if (l->a != NULL && service_submit_finish(user, l->a,
	    resp != NULL ? &g : NULL, &l->err) == 0) {
		if (resp != NULL) {
			respond_game(req, resp, 201, &g, user);
			service_game_keep(user, &g);
		}
	} else if (resp != NULL)
		api_error(resp, &l->err);
	free(l);
}

/*
 * POST /api/v1/games/{id}/actions: the signed statement as text/plain, or
 * JSON {"statement": "...", "signature": "..."} (the signature either the
 * "signature: BASE64" line, the base64 alone, or the armored SSH block).
 */
void
api_game_action(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct action_later	*l;
	struct http_later	*later;
	char			*text;
	size_t			 len;

	if ((text = api_statement_body(req, resp, &len)) == NULL)
		return;
	if ((l = calloc(1, sizeof *l)) == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		free(text);
		return;
	}
	/* The signature is checked here, on this HTTP thread; the commit's
	 * end wakes the connection (action_ready()), and action_finish()
	 * answers, on this thread again. */
	later = http_respond_later(resp, action_finish, l);
	if (service_submit_start(user, http_request_param_int(req, "id"),
	    text, len, api_reader_lang(req), "http", action_ready, later,
	    &l->a, &l->err) != 0)
		http_later_ready(later);
	free(text);
}

/*
 * POST /api/v1/games/{id}/abort {reason}, POST .../adjudicate {result,
 * reason}: the admin ends a game, without a result or with one.
 */
static void
game_end(struct http_request *req, struct http_response *resp,
    struct service *svc, bool adjudicate)
{
	static const char *const names[] = { "reason", "result" };
	static const char *const want[] = { "a string: why the game ends",
	    "\"1-0\", \"0-1\" or \"1/2-1/2\"" };
	struct service_game	 g;
	struct service_error	 err;
	const char		*v[2] = { NULL, NULL };
	int64_t			 id = http_request_param_int(req, "id");
	json_t			*body;
	int			 rc;

	if ((body = api_string_body(req, resp, names, want, adjudicate ? 2 : 1,
	    v)) == NULL)
		return;
	rc = adjudicate ? service_admin_adjudicate(svc, id, v[1], v[0], &g,
	    &err) : service_admin_abort(svc, id, v[0], &g, &err);
	if (rc != 0)
		api_error(resp, &err);
	else {
		respond_game(req, resp, 200, &g, svc);
		service_game_free(&g);
	}
	json_decref(body);
}

/* POST /api/v1/games/{id}/abort */
void
api_game_abort(struct http_request *req, struct http_response *resp,
    void *user)
{
	game_end(req, resp, user, false);
}

/* POST /api/v1/games/{id}/adjudicate */
void
api_game_adjudicate(struct http_request *req, struct http_response *resp,
    void *user)
{
	game_end(req, resp, user, true);
}
