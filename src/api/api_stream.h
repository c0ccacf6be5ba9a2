/*
 * api/api_stream.h: live event streams of games and players (NDJSON, SSE).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_STREAM_H
#define CORRCHESS_API_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http/http.h"
#include "service/service.h"

/* Seconds between keep-alives, and the bytes a stream may hold unsent
 * (past them it ends: the client reconnects), by default. */
#define API_STREAM_HEARTBEAT	5
#define API_STREAM_MAX_PENDING	(64 * 1024)

struct api_streams;

/*
 * Start the process's hub of streams (0: the defaults above); NULL when
 * out of memory. Start it before the HTTP server, stop it after: the
 * streams still open end then. One hub at a time.
 */
struct api_streams *api_streams_start(unsigned heartbeat, size_t max_pending);
void	api_streams_stop(struct api_streams *);

/*
 * The service's hook (service_config.events, its argument the hub): fan
 * a committed batch's events out to the streams of their games and of
 * their players. Runs on the writer's thread.
 */
void	api_streams_publish(void *hub, const struct service_live *, size_t n);

/*
 * The service's other hook (service_config.events_wanted): whether a
 * stream is open on game `game` or on player `white` or `black` (0:
 * unknown, then true). Another server's events nobody follows are then
 * not read back from the database.
 */
bool	api_streams_wanted(void *hub, int64_t game, int64_t white,
	    int64_t black);

/*
 * Answer a request with a stream of the events of game `id` (player:
 * false) or of player `id` (true), whose first line or SSE event is
 * `first` (JSON): NDJSON, or SSE when Accept names text/event-stream.
 * 503 when no hub runs.
 */
void	api_stream_open(struct http_request *, struct http_response *,
	    int64_t id, bool player, const char *first);

/* GET /api/v1/games/{id}/stream and /api/v1/players/{name}/stream (rows
 * in api.c's table; `user` is the service). */
void	api_game_stream(struct http_request *, struct http_response *,
	    void *);
void	api_player_stream(struct http_request *, struct http_response *,
	    void *);

#endif /* CORRCHESS_API_STREAM_H */
