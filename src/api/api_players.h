/*
 * api/api_players.h: the REST handlers of players (rows in api.c's table).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_PLAYERS_H
#define CORRCHESS_API_PLAYERS_H

#include <jansson.h>

#include "http/http.h"
#include "service/service.h"

/* Each takes the service as `user`, as every route of routes_api. */
void	api_player_create(struct http_request *, struct http_response *,
	    void *);
void	api_player_list(struct http_request *, struct http_response *,
	    void *);
void	api_player_get(struct http_request *, struct http_response *,
	    void *);
void	api_player_patch(struct http_request *, struct http_response *,
	    void *);
void	api_player_action(struct http_request *, struct http_response *,
	    void *);
void	api_key_add(struct http_request *, struct http_response *, void *);
void	api_key_list(struct http_request *, struct http_response *, void *);
void	api_key_revoke(struct http_request *, struct http_response *,
	    void *);
void	api_invite(struct http_request *, struct http_response *, void *);
void	api_enrol(struct http_request *, struct http_response *, void *);
void	api_doors_get(struct http_request *, struct http_response *, void *);
void	api_doors_patch(struct http_request *, struct http_response *,
	    void *);

/* The JSON of a key: id, key line, fingerprint, comment, added, revoked
 * (new reference; NULL when out of memory). */
json_t	*api_key_json(const struct store_key *);

#endif /* CORRCHESS_API_PLAYERS_H */
