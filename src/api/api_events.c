/*
 * api/api_events.c: the REST handlers of events: created, their players,
 * started, withdrawals, read with their crosstable, their PGN.
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
 * Each handler turns the request into one service call; an event reads
 * as JSON (rules, players, games, standings, crosstable) or, for curl
 * users asking for text/plain, as its crosstable in a terminal grid. The
 * rows of the route table that name these handlers are in api.c.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/api_events.h"
#include "api/api_json.h"
#include "api/api_respond.h"
#include "event/crosstable.h"
#include "game/render.h"
#include "util/buf.h"

/* The JSON of a time, or null when 0. */
static json_t *
time_json(int64_t t)
{
	char	buf[32];

	if (t == 0)
		return json_null();
	render_time(t, buf, sizeof buf);
	return json_string(buf);
}

/* The JSON of an event's row: its name, status and rules. */
static json_t *
event_row_json(const struct store_event *e)
{
	struct standings_rules	 rules;
	json_t			*tb = json_array(), *o, *r;
	size_t			 i;

	if (service_event_tiebreaks(e->tiebreaks, &rules, NULL) == 0)
		for (i = 0; i < rules.ntiebreaks; i++)
			json_array_append_new(tb, json_string(
			    crosstable_tiebreak_label(rules.tiebreaks[i])));
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:o}",
	    "name", e->name, "title", e->title, "site", e->site,
	    "format", e->format, "status", e->status,
	    "created", time_json(e->created),
	    "started", time_json(e->started),
	    "finished", time_json(e->finished));
	if (o == NULL) {
		json_decref(tb);
		return NULL;
	}
	if (strcmp(e->format, "match") == 0)
		json_object_set_new(o, "games", json_integer(e->games));
	json_object_set_new(o, "rules", json_pack(
	    "{s:s,s:o,s:s?,s:s,s:s,s:b,s:o,s:s}",
	    "variant", e->variant,
	    "chess960", e->chess960_pairing ? json_string("per-pairing") :
	    e->chess960 >= 0 ? json_integer(e->chess960) : json_null(),
	    "fen", e->fen[0] != '\0' ? e->fen : NULL,
	    "time_control", e->time_control, "policy", e->policy,
	    "rated", e->rated, "tiebreaks", tb,
	    "withdrawal", e->withdrawal));
	r = json_object_get(o, "rules");
	json_object_set_new(r, "draw_min_move",
	    json_integer(e->draw_min_move));
	json_object_set_new(r, "draw_offer_every",
	    json_integer(e->draw_offer_every));
	json_object_set_new(r, "leave_days", e->leave_days >= 0 ?
	    json_integer(e->leave_days) : json_null());
	return o;
}

/* The JSON of a standings row's tie-breaks, by label. */
static json_t *
tiebreaks_json(const struct service_event *ev, const struct standings_row *r)
{
	json_t	*o = json_object();
	size_t	 i;
	unsigned scale;

	for (i = 0; i < ev->rules.ntiebreaks; i++) {
		scale = standings_tiebreak_scale(ev->rules.tiebreaks[i]);
		json_object_set_new(o, crosstable_tiebreak_label(
		    ev->rules.tiebreaks[i]), json_real((double)r->tb[i] /
		    (scale ? scale : 1)));
	}
	return o;
}

/* The JSON of an event with its players, games and standings. */
static json_t *
event_json(const struct service_event *ev)
{
	const struct standings_row	*r;
	const struct store_event_game	*g;
	json_t				*o, *a, *cells, *slots;
	size_t				 i, c, k;

	if ((o = event_row_json(&ev->e)) == NULL)
		return NULL;
	json_object_set_new(json_object_get(o, "rules"), "auth",
	    json_string(ev->auth));
	a = json_array();
	for (i = 0; i < ev->nplayers; i++)
		json_array_append_new(a, json_pack("{s:s,s:i,s:o}",
		    "name", ev->players[i].name, "seed", ev->players[i].seed,
		    "withdrawn", time_json(ev->players[i].withdrawn)));
	json_object_set_new(o, "players", a);
	a = json_array();
	for (i = 0; i < ev->ngames; i++) {
		g = &ev->games[i];
		json_array_append_new(a, json_pack(
		    "{s:I,s:i,s:i,s:s,s:s,s:s,s:s,s:s,s:s?}",
		    "id", (json_int_t)g->game_id, "round", g->round,
		    "board", g->board, "white", g->white_name,
		    "black", g->black_name, "status", g->status,
		    "result", g->result, "termination", g->termination,
		    "adjusted", g->adjusted[0] != '\0' ? g->adjusted : NULL));
	}
	json_object_set_new(o, "games", a);
	a = json_array();
	for (i = 0; ev->rows != NULL && i < ev->nplayers; i++) {
		r = &ev->rows[i];
		json_array_append_new(a, json_pack(
		    "{s:i,s:i,s:s,s:f,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o}",
		    "place", r->place, "place_last", r->place_last,
		    "player", ev->players[r->player].name,
		    "points", r->points2 / 2.0, "played", r->played,
		    "wins", r->wins, "draws", r->draws, "losses", r->losses,
		    "forfeit_wins", r->forfeit_wins,
		    "forfeit_losses", r->forfeit_losses,
		    "unfinished", r->unfinished,
		    "tiebreaks", tiebreaks_json(ev, r)));
	}
	json_object_set_new(o, "standings", a);
	/* The crosstable: per player (start order), per opponent, the
	 * marks of their games. */
	a = json_array();
	for (i = 0; ev->grid != NULL && i < ev->nplayers; i++) {
		cells = json_array();
		for (c = 0; c < ev->nplayers; c++) {
			slots = json_array();
			for (k = 0; k < ev->depth; k++) {
				enum standings_mark m = ev->grid[(i *
				    ev->nplayers + c) * ev->depth + k];

				if (m != STANDINGS_MARK_NONE)
					json_array_append_new(slots,
					    json_string(standings_mark_text(m,
					    false)));
			}
			json_array_append_new(cells, slots);
		}
		json_array_append_new(a, json_pack("{s:s,s:o}", "player",
		    ev->players[i].name, "results", cells));
	}
	json_object_set_new(o, "crosstable", a);
	return o;
}

/* Write an event as text: its heading, the crosstable, its games. */
static char *
event_text(const struct service_event *ev, size_t *lenp)
{
	struct crosstable_player	*pl;
	struct crosstable		 ct;
	struct buf			 b = { 0 };
	size_t				 i, done = 0;

	if (service_event_crosstable(ev, &ct, &pl) != 0)
		return NULL;
	for (i = 0; i < ev->ngames; i++)
		if (strcmp(ev->games[i].status, "ongoing") != 0)
			done++;
	buf_addf(&b, "%s (%s)\n%s, %zu players, %s", ev->e.title,
	    ev->e.name, ev->e.format, ev->nplayers, ev->e.status);
	if (ev->ngames > 0)
		buf_addf(&b, ", %zu of %zu games finished", done, ev->ngames);
	buf_addf(&b, "\n%s, %s, %s, %s", strcmp(ev->e.time_control,
	    "none") == 0 ? "no clock" : ev->e.time_control,
	    ev->e.variant, ev->e.rated ? "rated" : "not rated",
	    strcmp(ev->auth, "signed") == 0 ? "moves signed by the players" :
	    "moves signed, or attested by the server");
	if (ev->e.draw_min_move > 0)
		buf_addf(&b, ", draw offers from move %d",
		    ev->e.draw_min_move);
	if (ev->e.draw_offer_every > 0)
		buf_addf(&b, ", one draw offer a player every %d moves",
		    ev->e.draw_offer_every);
	if (ev->e.leave_days >= 0)
		buf_addf(&b, ", leave %d days a year", ev->e.leave_days);
	buf_adds(&b, "\n\n");
	if (ev->nplayers > 0)
		crosstable_text(&ct, &b);
	if (ev->ngames > 0)
		buf_adds(&b, "\nGames:\n");
	for (i = 0; i < ev->ngames; i++)
		buf_addf(&b, "  round %2d  game %-6lld %s - %s  %s%s%s\n",
		    ev->games[i].round, (long long)ev->games[i].game_id,
		    ev->games[i].white_name, ev->games[i].black_name,
		    ev->games[i].result,
		    ev->games[i].adjusted[0] != '\0' ? "  " : "",
		    ev->games[i].adjusted);
	free(pl);
	return buf_take(&b, lenp);
}

/* Answer an event, as JSON or text. */
static void
respond_event(struct http_request *req, struct http_response *resp,
    unsigned status, const char *name, void *user)
{
	struct service_event	 ev;
	struct service_error	 err;
	char			*text;
	size_t			 len = 0;

	if (service_event_get(user, name, &ev, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	if (http_request_wants_text(req)) {
		text = event_text(&ev, &len);
		api_text(resp, status, text, len);
		free(text);
	} else
		http_respond_json(resp, status, event_json(&ev));
	service_event_free(&ev);
}

/* POST /api/v1/events {name, format, players, rules...} */
void
api_event_create(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct api_event_params	 ap;
	struct service_error	 err;
	json_t			*body;
	char			 why[256];
	int			 rc;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	if ((rc = api_json_event(body, &ap, why, sizeof why)) != API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (service_event_create(user, &ap.ep, &err) != 0)
		api_error(resp, &err);
	else
		respond_event(req, resp, 201, ap.ep.name, user);
	api_event_params_free(&ap);
	json_decref(body);
}

/* PATCH /api/v1/events/{name} {rules...} */
void
api_event_edit(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct api_event_params	 ap;
	struct service_error	 err;
	const char		*name = http_request_param(req, "name");
	json_t			*body;
	char			 why[256];
	int			 rc;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	if ((rc = api_json_event_edit(body, &ap, why, sizeof why)) !=
	    API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (service_event_edit(user, name, &ap.ep, &err) != 0)
		api_error(resp, &err);
	else
		respond_event(req, resp, 200, name, user);
	api_event_params_free(&ap);
	json_decref(body);
}

/* Add an event's row to a JSON array. */
static int
event_collect(void *arg, const struct store_event *e)
{
	return json_array_append_new(arg, event_row_json(e));
}

/* GET /api/v1/events */
void
api_event_list(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	struct buf		 b = { 0 };
	json_t			*a, *o;
	size_t			 i, len = 0;
	char			*text;
	int			 rc;

	if (api_query_refused(req, resp, ""))
		return;
	a = json_array();
	rc = service_event_list(user, event_collect, a, &err);
	if (api_list_answer(req, resp, rc, a, "events", &err))
		return;
	buf_adds(&b, "");
	json_array_foreach(a, i, o)
		buf_addf(&b, "%-20s %-9s %-19s %s\n",
		    json_string_value(json_object_get(o, "name")),
		    json_string_value(json_object_get(o, "status")),
		    json_string_value(json_object_get(o, "format")),
		    json_string_value(json_object_get(o, "title")));
	json_decref(a);
	text = buf_take(&b, &len);
	api_text(resp, 200, text, len);
	free(text);
}

/* GET /api/v1/events/{name} */
void
api_event_get(struct http_request *req, struct http_response *resp,
    void *user)
{
	if (!api_query_refused(req, resp, ""))
		respond_event(req, resp, 200, http_request_param(req, "name"),
		    user);
}

/* Read the {"player": NAME} body of a request; NULL when answered. */
static json_t *
player_body(struct http_request *req, struct http_response *resp,
    const char **player)
{
	static const char *const	 known[] = { "player" };
	json_t				*body;
	char				 why[256];

	if ((body = http_request_json(req, resp)) == NULL)
		return NULL;
	if (api_json_known(body, known, 1, why, sizeof why) != API_JSON_OK) {
		api_json_refusal(resp, API_JSON_BAD, why);
		json_decref(body);
		return NULL;
	}
	if (!api_json_member_str(body, "player", player) || *player == NULL) {
		http_respond_error(resp, 400, "bad-request",
		    "\"player\" must be a player's name");
		json_decref(body);
		return NULL;
	}
	return body;
}

/* Run a service call on an event and the player a body names, and answer
 * the event. */
static void
player_call(struct http_request *req, struct http_response *resp,
    void *user, int (*call)(struct service *, const char *, const char *,
    struct service_error *))
{
	struct service_error	 err;
	const char		*player, *name = http_request_param(req, "name");
	json_t			*body;

	if ((body = player_body(req, resp, &player)) == NULL)
		return;
	if (call(user, name, player, &err) != 0)
		api_error(resp, &err);
	else
		respond_event(req, resp, 201, name, user);
	json_decref(body);
}

/* POST /api/v1/events/{name}/players {player} */
void
api_event_player_add(struct http_request *req, struct http_response *resp,
    void *user)
{
	player_call(req, resp, user, service_event_player_add);
}

/* DELETE /api/v1/events/{name}/players/{player} */
void
api_event_player_remove(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	const char		*name = http_request_param(req, "name");

	if (service_event_player_remove(user, name, http_request_param(req,
	    "player"), &err) != 0)
		api_error(resp, &err);
	else
		respond_event(req, resp, 200, name, user);
}

/* POST /api/v1/events/{name}/start */
void
api_event_start(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	const char		*name = http_request_param(req, "name");

	if (service_event_start(user, name, &err) != 0)
		api_error(resp, &err);
	else
		respond_event(req, resp, 200, name, user);
}

/* POST /api/v1/events/{name}/withdrawals {player} */
void
api_event_withdraw(struct http_request *req, struct http_response *resp,
    void *user)
{
	player_call(req, resp, user, service_event_withdraw);
}

/* GET /api/v1/events/{name}/pgn */
void
api_event_pgn(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	char			*pgn;
	size_t			 len;

	if (api_query_refused(req, resp, ""))
		return;
	pgn = service_event_pgn(user, http_request_param(req, "name"), &len,
	    &err);
	api_pgn(resp, pgn, len, &err);
	free(pgn);
}
