/*
 * api/api_games.h: the REST handlers of games (rows in api.c's table).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_GAMES_H
#define CORRCHESS_API_GAMES_H

#include <jansson.h>

#include "http/http.h"
#include "service/service.h"

/* Each takes the service as `user`, as every route of routes_api. */
void	api_game_create(struct http_request *, struct http_response *,
	    void *);
void	api_game_list(struct http_request *, struct http_response *,
	    void *);
void	api_game_get(struct http_request *, struct http_response *, void *);
void	api_game_pgn(struct http_request *, struct http_response *, void *);
void	api_game_board(struct http_request *, struct http_response *,
	    void *);
void	api_game_records(struct http_request *, struct http_response *,
	    void *);
void	api_game_action(struct http_request *, struct http_response *,
	    void *);
void	api_game_abort(struct http_request *, struct http_response *,
	    void *);
void	api_game_adjudicate(struct http_request *, struct http_response *,
	    void *);

/* The JSON of a game, as GET /api/v1/games/{id} answers it (new
 * reference; NULL when out of memory). */
json_t	*api_game_json(const struct service_game *);

/* The same as text, without its closing brace (malloc'd, NUL-terminated
 * after *lenp bytes; NULL when out of memory). */
char	*api_game_json_open(const struct service_game *, size_t *lenp);

#endif /* CORRCHESS_API_GAMES_H */
