/*
 * api/api.c: the REST API's route table under /api/v1, and its root.
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
 * The REST API under /api/v1: each handler turns the request into one
 * service call and the result into JSON, or into text for curl users who
 * ask for text/plain. The handlers live in a file per resource
 * (api_players.c, api_games.c, api_events.c, api_ratings.c, api_stream.c,
 * api_admin.c); this file holds the route table (routes_api) that names
 * them, and the API's root.
 */

#include "config.h"

#include <jansson.h>

#include "api/api_admin.h"
#include "api/api_events.h"
#include "api/api_games.h"
#include "api/api_players.h"
#include "api/api_ratings.h"
#include "api/api_stream.h"
#include "api/routes.h"
#include "http/http.h"
#include "service/service.h"

/* GET /api/v1: name the server and the API version. */
static void
api_root(struct http_request *req, struct http_response *resp, void *user)
{
	(void)user;
	if (http_request_wants_text(req)) {
		http_respond_text(resp, 200, PACKAGE_NAME " " PACKAGE_VERSION
		    ", API v1\n");
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:s,s:s,s:s}",
	    "name", PACKAGE_NAME, "version", PACKAGE_VERSION, "api", "v1"));
}

const struct http_route routes_api[] = {
	{ "GET", "/api/v1", HTTP_AUTH_NONE, api_root, 0 },
	{ "POST", "/api/v1/players", HTTP_AUTH_ADMIN, api_player_create,
	    HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/players", HTTP_AUTH_ADMIN, api_player_list, 0 },
	{ "GET", "/api/v1/players/{name}", HTTP_AUTH_ADMIN, api_player_get, 0 },
	{ "PATCH", "/api/v1/players/{name}", HTTP_AUTH_ADMIN, api_player_patch,
	    0 },
	{ "POST", "/api/v1/players/{name}/keys", HTTP_AUTH_ADMIN,
	    api_key_add, 0 },
	{ "POST", "/api/v1/players/{name}/actions", HTTP_AUTH_NONE,
	    api_player_action, HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/players/{name}/stream", HTTP_AUTH_NONE,
	    api_player_stream, 0 },
	{ "GET", "/api/v1/players/{name}/keys", HTTP_AUTH_NONE, api_key_list,
	    0 },
	{ "POST", "/api/v1/players/{name}/invitations", HTTP_AUTH_ADMIN,
	    api_invite, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/invitations", HTTP_AUTH_NONE, api_enrol,
	    HTTP_ROUTE_SLOW },
	{ "DELETE", "/api/v1/players/{name}/keys/{id:int}", HTTP_AUTH_ADMIN,
	    api_key_revoke, 0 },
	{ "GET", "/api/v1/players/{name}/doors", HTTP_AUTH_NONE,
	    api_doors_get, 0 },
	{ "PATCH", "/api/v1/players/{name}/doors", HTTP_AUTH_ADMIN,
	    api_doors_patch, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/games", HTTP_AUTH_ADMIN, api_game_create,
	    HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/games", HTTP_AUTH_NONE, api_game_list, 0 },
	{ "GET", "/api/v1/games/{id:int}", HTTP_AUTH_NONE, api_game_get,
	    HTTP_ROUTE_ETAG },
	{ "GET", "/api/v1/games/{id:int}/stream", HTTP_AUTH_NONE,
	    api_game_stream, 0 },
	{ "GET", "/api/v1/games/{id:int}/pgn", HTTP_AUTH_NONE, api_game_pgn,
	    HTTP_ROUTE_ETAG },
	{ "GET", "/api/v1/games/{id:int}/board.svg", HTTP_AUTH_NONE,
	    api_game_board, HTTP_ROUTE_ETAG },
	{ "GET", "/api/v1/games/{id:int}/records", HTTP_AUTH_NONE,
	    api_game_records, HTTP_ROUTE_ETAG },
	{ "POST", "/api/v1/games/{id:int}/actions", HTTP_AUTH_NONE,
	    api_game_action, 0 },
	{ "POST", "/api/v1/games/{id:int}/abort", HTTP_AUTH_ADMIN,
	    api_game_abort, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/games/{id:int}/adjudicate", HTTP_AUTH_ADMIN,
	    api_game_adjudicate, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/events", HTTP_AUTH_ADMIN, api_event_create,
	    HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/events", HTTP_AUTH_NONE, api_event_list, 0 },
	{ "GET", "/api/v1/events/{name}", HTTP_AUTH_NONE, api_event_get, 0 },
	{ "PATCH", "/api/v1/events/{name}", HTTP_AUTH_ADMIN, api_event_edit,
	    HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/events/{name}/pgn", HTTP_AUTH_NONE, api_event_pgn,
	    0 },
	{ "POST", "/api/v1/events/{name}/players", HTTP_AUTH_ADMIN,
	    api_event_player_add, HTTP_ROUTE_SLOW },
	{ "DELETE", "/api/v1/events/{name}/players/{player}", HTTP_AUTH_ADMIN,
	    api_event_player_remove, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/events/{name}/start", HTTP_AUTH_ADMIN,
	    api_event_start, HTTP_ROUTE_SLOW },
	{ "POST", "/api/v1/events/{name}/withdrawals", HTTP_AUTH_ADMIN,
	    api_event_withdraw, HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/ratings", HTTP_AUTH_NONE, api_rating_list, 0 },
	{ "GET", "/api/v1/ratings/{name}", HTTP_AUTH_NONE, api_rating_get, 0 },
	{ "POST", "/api/v1/admin/backup", HTTP_AUTH_ADMIN, api_admin_backup,
	    HTTP_ROUTE_SLOW },
	{ "GET", "/api/v1/server-key", HTTP_AUTH_NONE, api_server_key, 0 },
};
const size_t routes_api_count = sizeof routes_api / sizeof routes_api[0];
