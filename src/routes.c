/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * The /api/v1 route table: one row per resource and method, each row's
 * handler a thin adapter from HTTP to one service function. This file
 * belongs to the service layer, which adds its rows here; the HTTP
 * dispatcher (http.c) already parses path parameters, checks the admin
 * token, limits the body and answers 404, 405 and 413. The user pointer
 * every handler receives is the one corrchessd.c passes to
 * http_server_start().
 *
 * Until the service layer lands, the table holds one row: GET /api/v1,
 * which names the server and its API version.
 */

#include "config.h"

#include "http.h"
#include "routes.h"

/* GET /api/v1: name the server and the API version. */
static void
routes_api_root(struct http_request *req, struct http_response *resp,
    void *user)
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
	{ "GET", "/api/v1", HTTP_AUTH_NONE, routes_api_root },
};
const size_t routes_api_count = sizeof routes_api / sizeof routes_api[0];
