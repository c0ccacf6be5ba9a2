/*
 * api/api_ratings.c: the REST handlers of ratings: the rating list and a
 * player's rating with its history.
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

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_ratings.h"
#include "api/api_respond.h"
#include "game/render.h"
#include "util/buf.h"

/* The JSON of a rating. */
json_t *
api_rating_json(const struct service_rating *sr)
{
	char	at[32];

	render_time(sr->r.updated, at, sizeof at);
	return json_pack("{s:s,s:f,s:f,s:f,s:i,s:b,s:s}", "player",
	    sr->r.name, "rating", sr->r.rating, "rd", sr->r.rd,
	    "volatility", sr->r.volatility, "games", sr->r.games,
	    "provisional", sr->provisional, "updated", at);
}

/* Add a rating to a JSON array. */
static int
rating_collect(void *arg, const struct service_rating *sr)
{
	return json_array_append_new(arg, api_rating_json(sr));
}

/* GET /api/v1/ratings: the rating list, best first. */
void
api_rating_list(struct http_request *req, struct http_response *resp,
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
	rc = service_rating_list(user, rating_collect, a, &err);
	if (api_list_answer(req, resp, rc, a, "ratings", &err))
		return;
	/* One line a player; a provisional rating is marked "?". */
	buf_adds(&b, "  #  Player                            Rating    RD  "
	    "Games\n");
	json_array_foreach(a, i, o)
		buf_addf(&b, "%3zu  %-32s %6ld%s %5ld  %5ld\n", i + 1,
		    json_string_value(json_object_get(o, "player")),
		    lround(json_real_value(json_object_get(o, "rating"))),
		    json_is_true(json_object_get(o, "provisional")) ? "?" :
		    " ", lround(json_real_value(json_object_get(o, "rd"))),
		    (long)json_integer_value(json_object_get(o, "games")));
	json_decref(a);
	text = buf_take(&b, &len);
	api_text(resp, 200, text, len);
	free(text);
}

/* Add an entry of a rating history to a JSON array. */
static int
entry_collect(void *arg, const struct store_rating_entry *e)
{
	char	at[32];

	render_time(e->at, at, sizeof at);
	return json_array_append_new(arg, json_pack(
	    "{s:I,s:s,s:f,s:s,s:f,s:f,s:f,s:f,s:f}",
	    "game", (json_int_t)e->game_id, "opponent", e->opponent,
	    "score", e->score, "at", at, "rating_before", e->rating_before,
	    "rd_before", e->rd_before, "rating", e->rating, "rd", e->rd,
	    "volatility", e->volatility));
}

/* GET /api/v1/ratings/{name}: a player's rating and history. */
void
api_rating_get(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_rating	 sr;
	struct service_error	 err;
	struct buf		 b = { 0 };
	json_t			*a = json_array(), *o, *e;
	size_t			 i, len = 0;
	char			*text;

	if (api_query_refused(req, resp, "")) {
		json_decref(a);
		return;
	}
	if (service_rating_get(user, http_request_param(req, "name"), &sr,
	    entry_collect, a, &err) != 0) {
		json_decref(a);
		api_error(resp, &err);
		return;
	}
	if (!http_request_wants_text(req)) {
		if ((o = api_rating_json(&sr)) != NULL)
			json_object_set_new(o, "history", a);
		else
			json_decref(a);
		http_respond_json(resp, 200, o);
		return;
	}
	buf_addf(&b, "%s: %ld%s (RD %ld, %d games)\n", sr.r.name,
	    lround(sr.r.rating), sr.provisional ? "?" : "", lround(sr.r.rd),
	    sr.r.games);
	json_array_foreach(a, i, e)
		buf_addf(&b, "  game %-6lld %-32s %3s  %6ld -> %ld\n",
		    (long long)json_integer_value(json_object_get(e, "game")),
		    json_string_value(json_object_get(e, "opponent")),
		    json_real_value(json_object_get(e, "score")) == 1 ? "1" :
		    json_real_value(json_object_get(e, "score")) == 0 ? "0" :
		    "½", lround(json_real_value(json_object_get(e,
		    "rating_before"))), lround(json_real_value(
		    json_object_get(e, "rating"))));
	json_decref(a);
	text = buf_take(&b, &len);
	api_text(resp, 200, text, len);
	free(text);
}
