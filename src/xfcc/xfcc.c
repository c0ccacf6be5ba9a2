/*
 * xfcc/xfcc.c: the Xfcc endpoint: GetMyGames and MakeAMove answered.
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
 * What real clients need, as Scid 4.7's Xfcc code reads the answers: an
 * unprefixed <GetMyGamesResponse xmlns="..."> with a bare
 * <GetMyGamesResult> and <XfccGame> children; a <MakeAMoveResponse> start
 * tag that carries an attribute; faults as soap:Fault; every clock field;
 * eventDate as YYYY.MM.DD; text/xml; charset=utf-8 (without the charset
 * non-ASCII names break).
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "util/buf.h"
#include "sig/sig.h"
#include "sig/statement.h"
#include "service/service.h"
#include "xfcc/soap.h"
#include "xfcc/xfcc.h"

#define CONTENT_TYPE	"text/xml; charset=utf-8"

#define ENVELOPE_START \
	"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" \
	"<soap:Envelope xmlns:soap=\"" XFCC_SOAP_NS "\" " \
	"xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" " \
	"xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\n<soap:Body>\n"
#define ENVELOPE_END	"</soap:Body>\n</soap:Envelope>\n"

/* Append `s` with XML's five special characters escaped. */
static void
xml_text(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			buf_adds(b, "&amp;");
			break;
		case '<':
			buf_adds(b, "&lt;");
			break;
		case '>':
			buf_adds(b, "&gt;");
			break;
		case '"':
			buf_adds(b, "&quot;");
			break;
		case '\'':
			buf_adds(b, "&apos;");
			break;
		default:
			buf_addf(b, "%c", *s);
			break;
		}
	}
}

/* Append <name>text</name>, the text escaped. */
static void
xml_field(struct buf *b, const char *name, const char *text)
{
	buf_addf(b, "<%s>", name);
	xml_text(b, text);
	buf_addf(b, "</%s>", name);
}

/* Send what is in `b` with `status`, and free it. */
static void
respond(struct http_response *resp, unsigned status, struct buf *b)
{
	char	*data;
	size_t	 len;

	if ((data = buf_take(b, &len)) == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	http_respond_data(resp, status, CONTENT_TYPE, data, len);
	free(data);
}

/* Answer a soap:Fault: soap:Client for the request's fault, soap:Server
 * for ours. `reason` is an Xfcc value (AuthenticationFailed) or a
 * sentence. */
static void
respond_fault(struct http_response *resp, bool client, const char *reason)
{
	struct buf	b = { 0 };

	buf_adds(&b, ENVELOPE_START "<soap:Fault>");
	xml_field(&b, "faultcode", client ? "soap:Client" : "soap:Server");
	xml_field(&b, "faultstring", reason);
	buf_adds(&b, "</soap:Fault>\n" ENVELOPE_END);
	respond(resp, 500, &b);
}

/* Write a time control as PGN's TimeControl field counts it in seconds,
 * which Xfcc's timeControl carries ("10/4320000", "2592000+86400"). */
static void
time_control(const struct game_tc *tc, char *buf, size_t size)
{
	switch (tc->kind) {
	case GAME_TC_PER_MOVE:
		snprintf(buf, size, "1/%" PRId64, tc->base);
		break;
	case GAME_TC_MOVES_IN:
		snprintf(buf, size, "%d/%" PRId64, tc->moves, tc->base);
		break;
	case GAME_TC_FISCHER:
		snprintf(buf, size, "%" PRId64 "+%" PRId64, tc->base, tc->inc);
		break;
	default:
		snprintf(buf, size, "-");
		break;
	}
}

/* Append the six clock fields of one side: days, hours, minutes. */
static void
clock_fields(struct buf *b, const char *who, int64_t left)
{
	if (left < 0)
		left = 0;
	buf_addf(b, "<days%s>%" PRId64 "</days%s><hours%s>%" PRId64
	    "</hours%s><minutes%s>%" PRId64 "</minutes%s>", who, left / 86400,
	    who, who, left % 86400 / 3600, who, who, left % 3600 / 60, who);
}

/* Xfcc's result of a game. */
static const char *
result_name(const struct game *g)
{
	if (game_ongoing(g))
		return "Ongoing";
	switch (g->result) {
	case GAME_RESULT_WHITE:
		return "WhiteWins";
	case GAME_RESULT_BLACK:
		return "BlackWins";
	case GAME_RESULT_DRAW:
		return "Draw";
	default:
		return "Cancelled";
	}
}

/* Append the moves as PGN movetext ("1. e4 e5 2. Nf3"). */
static void
movetext(struct buf *b, const struct service_game *g)
{
	const struct chess_position	*start = &g->state.chess.start;
	size_t				 i, n;

	for (i = 0; i < g->state.chess.nply; i++) {
		n = i + (start->side == CHESS_BLACK);
		if (i > 0)
			buf_adds(b, " ");
		if (i == 0 && n % 2 == 1)
			buf_addf(b, "%u... ", start->fullmove);
		else if (n % 2 == 0)
			buf_addf(b, "%zu. ", start->fullmove + n / 2);
		xml_text(b, g->san[i]);
	}
}

/* The last message the player of `color` sent in the game, or "". */
static const char *
last_message(const struct service_game *g, int color)
{
	size_t	i;

	for (i = g->nmsgs; i > 0; i--)
		if (g->msgs[i - 1].color == color)
			return g->msgs[i - 1].text;
	return "";
}

/*
 * Write myMessage as a statement's message line takes it: blanks and line
 * breaks become one space, none at either end. -1 when that is longer
 * than SIG_MESSAGE_MAX bytes (out then holds a cut copy, not to be used).
 */
static int
message_line(const char *in, char out[SIG_MESSAGE_MAX + 1])
{
	size_t	n = 0;
	bool	blank = false;

	for (; *in != '\0'; in++) {
		if ((unsigned char)*in <= 0x20) {
			blank = n > 0;
			continue;
		}
		if (n + blank >= SIG_MESSAGE_MAX) {
			out[n] = '\0';
			return -1;
		}
		if (blank)
			out[n++] = ' ';
		blank = false;
		out[n++] = *in;
	}
	out[n] = '\0';
	return 0;
}

/*
 * Refuse with a soap:Client fault a myMessage that no statement could
 * carry: too long once its blanks are joined, or holding a control or
 * bidirectional character. The protocol has no MakeAMoveResult for it, so
 * the fault's string says why, in the player's language, and that the
 * move was not played. True when refused.
 */
static bool
message_refused(struct http_response *resp, const struct store_player *p,
    const char *in, char out[SIG_MESSAGE_MAX + 1])
{
	enum chess_lang	 lang = strcmp(p->lang, "fr") == 0 ? CHESS_LANG_FR :
			    CHESS_LANG_EN;
	enum sig_error	 e;
	char		 why[512];

	if (message_line(in, out) != 0)
		e = SIG_EMESSAGE_LONG;
	else if (out[0] == '\0')
		return false;
	else if ((e = sig_message_check(out)) == SIG_OK)
		return false;
	snprintf(why, sizeof why, "myMessage: %s (%s)",
	    sig_strerror_lang(e, lang), lang == CHESS_LANG_FR ?
	    "le coup n'est pas joué" : "the move was not played");
	respond_fault(resp, true, why);
	return true;
}

/*
 * Append one <XfccGame> for the player with id `me`; elo[] are the
 * players' ratings (-1: none, and no field).
 */
static void
game_xml(struct buf *b, const struct service_game *g, int64_t me,
    const int elo[2])
{
	const struct store_game	*r = &g->row;
	struct chess_position	 standard;
	char			 fen[CHESS_FEN_MAX], sfen[CHESS_FEN_MAX];
	char			 tc[64], date[16];
	time_t			 t = (time_t)r->created;
	struct tm		 tm;
	int			 color = r->white == me ? CHESS_WHITE :
				     CHESS_BLACK;
	bool			 setup, ongoing = game_ongoing(&g->state);

	chess_position_start(&standard);
	chess_fen_write(&standard, sfen, sizeof sfen);
	chess_fen_write(&g->state.chess.start, fen, sizeof fen);
	setup = strcmp(fen, sfen) != 0;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	time_control(&g->state.params.tc, tc, sizeof tc);
	buf_addf(b, "<XfccGame><id>%" PRId64 "</id>", r->id);
	xml_field(b, "white", r->white_name);
	xml_field(b, "black", r->black_name);
	if (elo[CHESS_WHITE] >= 0)
		buf_addf(b, "<whiteElo>%d</whiteElo>", elo[CHESS_WHITE]);
	if (elo[CHESS_BLACK] >= 0)
		buf_addf(b, "<blackElo>%d</blackElo>", elo[CHESS_BLACK]);
	xml_field(b, "event", r->event);
	xml_field(b, "site", r->site);
	xml_field(b, "round", r->round);
	xml_field(b, "eventDate", date);
	buf_addf(b, "<myTurn>%s</myTurn><hasWhite>%s</hasWhite>"
	    "<drawOffered>%s</drawOffered><setup>%s</setup>",
	    ongoing && game_turn(&g->state) == color ? "true" : "false",
	    color == CHESS_WHITE ? "true" : "false",
	    ongoing && g->state.draw_offer == 1 - color ? "true" : "false",
	    setup ? "true" : "false");
	xml_field(b, "fen", setup ? fen : "");
	buf_adds(b, "<moves>");
	movetext(b, g);
	buf_adds(b, "</moves>");
	xml_field(b, "result", result_name(&g->state));
	if (g->state.params.tc.kind != GAME_TC_NONE) {
		clock_fields(b, "Player", game_time_left(&g->state, color,
		    g->now));
		clock_fields(b, "Opponent", game_time_left(&g->state,
		    1 - color, g->now));
	} else {
		/* No clock: a full year left, so that no program thinks the
		 * time is short. */
		clock_fields(b, "Player", 365 * INT64_C(86400));
		clock_fields(b, "Opponent", 365 * INT64_C(86400));
	}
	xml_field(b, "timeControl", tc);
	xml_field(b, "message", last_message(g, 1 - color));
	xml_field(b, "variant", strcmp(r->variant, "chess960") == 0 ?
	    "chess960" : "chess");
	xml_field(b, "serverInfo", r->time_control);
	buf_adds(b, "</XfccGame>");
}

/* The ids of a player's games. */
struct ids {
	int64_t	*v;
	size_t	 n, cap;
};

/* Collect one game's id. */
static int
id_add(void *arg, const struct store_game *g)
{
	struct ids	*ids = arg;
	int64_t		*v;

	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? ids->cap * 2 : 16;
		if ((v = realloc(ids->v, ids->cap * sizeof *v)) == NULL)
			return -1;
		ids->v = v;
	}
	ids->v[ids->n++] = g->id;
	return 0;
}

/* GetMyGames: every game of the player, ongoing and finished. */
static void
get_my_games(struct service *svc, struct http_response *resp,
    const struct store_player *p)
{
	struct store_game_filter f = { .player = p->name, .limit = 500 };
	struct service_error	 err;
	struct service_game	 g;
	struct ids		 ids = { 0 };
	struct buf		 b = { 0 };
	size_t			 i;
	int			 elo[2];

	if (service_game_list(svc, &f, id_add, &ids, &err) != 0) {
		respond_fault(resp, false, "ServerError");
		goto out;
	}
	buf_adds(&b, ENVELOPE_START "<GetMyGamesResponse xmlns=\"" XFCC_NS
	    "\"><GetMyGamesResult>");
	for (i = 0; i < ids.n; i++) {
		if (service_game_get(svc, ids.v[i], &g, &err) != 0)
			continue;
		if (service_game_elo(svc, &g.row, elo, &err) != 0)
			elo[0] = elo[1] = -1;
		game_xml(&b, &g, p->id, elo);
		service_game_free(&g);
	}
	buf_adds(&b, "</GetMyGamesResult></GetMyGamesResponse>\n"
	    ENVELOPE_END);
	respond(resp, 200, &b);
 out:
	free(ids.v);
}

/* Answer MakeAMove with one MakeAMoveResult value. */
static void
respond_result(struct http_response *resp, const char *result)
{
	struct buf	b = { 0 };

	buf_adds(&b, ENVELOPE_START "<MakeAMoveResponse xmlns=\"" XFCC_NS
	    "\">");
	xml_field(&b, "MakeAMoveResult", result);
	buf_adds(&b, "</MakeAMoveResponse>\n" ENVELOPE_END);
	respond(resp, 200, &b);
}

/* Map a refusal of corrchess to Xfcc's MakeAMoveResult. */
static const char *
result_of(const struct service_error *err)
{
	static const struct {
		const char	*code, *result;
	} map[] = {
		{ "no-such-game", "InvalidGameID" },
		{ "not-a-player", "NotYourGame" },
		{ "not-your-turn", "NotYourTurn" },
		{ "game-over", "NotYourTurn" },
		{ "stale-ply", "InvalidMoveNumber" },
		{ "illegal-move", "InvalidMove" },
		{ "bad-move", "InvalidMove" },
		{ "bad-statement", "InvalidMove" },
		{ "bad-claim", "InvalidMove" },
		/* The protocol has no result for a rule on offers: the move
		 * with its offer is not allowed, the move alone would be. */
		{ "draw-rule", "InvalidMove" },
		{ "ambiguous-move", "MoveIsAmbigous" },	/* Xfcc's spelling */
		{ "no-draw-offer", "NoDrawWasOffered" },
		{ "late-move", "LostOnTime" },
		{ "bad-message", "ServerError" },
		{ "door-shut", "AuthenticationFailed" },
		{ "signature-required", "AuthenticationFailed" },
	};
	size_t	i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(err->code, map[i].code) == 0)
			return map[i].result;
	return "ServerError";
}

/*
 * Write the action of a MakeAMove call and the ply it is for: a move is
 * for its full-move number (Xfcc's movecount) and the player's colour;
 * resigning and answering a draw are for the game's current ply. A move
 * is read as programs write it, in English SAN (or any notation without
 * piece letters), and sent on as UCI, so that a player whose language is
 * French gets it read as sent. NULL, or the MakeAMoveResult refusing it.
 */
static const char *
action_of(const struct xfcc_call *call, const struct service_game *g,
    int color, char *action, size_t size, uint32_t *ply)
{
	const struct chess_position	*start = &g->state.chess.start;
	chess_move			 m;
	enum chess_error		 ce;
	char				 move[XFCC_MOVE_MAX + 1], why[128];
	int64_t				 p;

	*ply = (uint32_t)game_ply(&g->state);
	if (call->resign) {
		snprintf(action, size, "resign");
		return NULL;
	}
	if (call->accept_draw && call->move[0] == '\0') {
		snprintf(action, size, "accept-draw");
		return NULL;
	}
	if (call->claim_draw && call->move[0] == '\0') {
		snprintf(action, size, "claim-draw");
		return NULL;
	}
	if (call->move[0] == '\0')
		return "InvalidMove";
	if (!game_ongoing(&g->state) || game_turn(&g->state) != color)
		return "NotYourTurn";
	p = 2 * (call->movecount - (int64_t)start->fullmove) + color -
	    (int)start->side;
	if (call->movecount == 0 || p != (int64_t)game_ply(&g->state))
		return "InvalidMoveNumber";
	ce = chess_move_parse(&g->state.chess.pos, call->move, CHESS_LANG_EN,
	    &m, why, sizeof why);
	if (ce == CHESS_EMOVE_AMBIGUOUS)
		return "MoveIsAmbigous";	/* Xfcc's spelling */
	if (ce != CHESS_OK)
		return "InvalidMove";
	chess_move_uci(&g->state.chess.pos, m, move, sizeof move);
	snprintf(action, size, "%s %s%s", call->claim_draw ? "claim-draw" :
	    "move", move, call->offer_draw && !call->claim_draw ?
	    " offer-draw" : "");
	return NULL;
}

/* MakeAMove: the action, attested by the server. */
static void
make_a_move(struct service *svc, struct http_response *resp,
    const struct store_player *p, const struct xfcc_call *call)
{
	struct service_attested	 in;
	struct service_error	 err;
	struct service_game	 g;
	const char		*refused;
	char			 action[SIG_ACTION_MAX + 1];
	char			 message[SIG_MESSAGE_MAX + 1];
	int			 color;

	if (service_game_get(svc, call->game_id, &g, &err) != 0) {
		respond_result(resp, err.status == 404 ? "InvalidGameID" :
		    "ServerError");
		return;
	}
	color = g.row.white == p->id ? CHESS_WHITE :
	    g.row.black == p->id ? CHESS_BLACK : -1;
	memset(&in, 0, sizeof in);
	if (color < 0)
		respond_result(resp, "NotYourGame");
	else if ((refused = action_of(call, &g, color, action, sizeof action,
	    &in.ply)) != NULL)
		respond_result(resp, refused);
	else if (!message_refused(resp, p, call->message, message)) {
		in.game_id = call->game_id;
		in.player = p->name;
		in.action = action;
		in.message = message;
		in.how = "xfcc";
		in.source = "xfcc";
		respond_result(resp, service_attest(svc, &in, NULL, &err) ==
		    0 ? "Success" : result_of(&err));
	}
	service_game_free(&g);
}

/* Answer one SOAP request. */
void
xfcc_handle(struct http_request *req, struct http_response *resp, void *user)
{
	struct service		*svc = user;
	struct service_error	 err;
	struct store_player	 p;
	struct xfcc_call	*call;
	const char		*body;
	char			 why[256], address[64];
	size_t			 len;

	if ((call = malloc(sizeof *call)) == NULL) {
		respond_fault(resp, false, "ServerError");
		return;
	}
	body = http_request_body(req, &len);
	if (xfcc_soap_parse(body, len, call, why, sizeof why) != 0) {
		respond_fault(resp, true, why);
		goto out;
	}
	http_request_address(req, address, sizeof address);
	if (service_xfcc_login(svc, call->username, call->password, address,
	    &p, &err) != 0) {
		if (call->op == XFCC_MAKE_A_MOVE && err.status < 500)
			respond_result(resp, "AuthenticationFailed");
		else
			respond_fault(resp, err.status < 500,
			    err.status < 500 ? "AuthenticationFailed" :
			    "ServerError");
		goto out;
	}
	if (call->op == XFCC_GET_MY_GAMES)
		get_my_games(svc, resp, &p);
	else
		make_a_move(svc, resp, &p, call);
 out:
	sodium_memzero(call, sizeof *call);
	free(call);
}
