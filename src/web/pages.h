/*
 * web/pages.h: the web pages corrchessd serves, and their route table.
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
 * The web front door, beside the REST API on the same server and the same
 * service functions: HTML drawn on the server, complete without script
 * (the board is inline SVG, the position also in words); the one ES module
 * (static/corrchess.js) adds what needs a key the browser holds: moving,
 * offers, the live clocks, and the verification of the signed record.
 *
 *   GET /			the club: games to move in, ongoing and
 *				finished games, players, events
 *   GET /games/{id}		a game: board, moves, clocks, record
 *   GET /players/{name}	a player: games, leave, events
 *   GET /events/{name}		an event: crosstable, standings, games
 *				(web/events.h)
 *   GET /invite		where an invitation link (/invite#TOKEN) leads
 *   GET /static/{name}		the stylesheet and the module
 *
 * Pages are in English or French (?lang=, else Accept-Language).
 */

#ifndef CORRCHESS_WEB_PAGES_H
#define CORRCHESS_WEB_PAGES_H

#include <stddef.h>

#include "http/http.h"

extern const struct http_route	routes_web[];
extern const size_t		routes_web_count;

#endif /* CORRCHESS_WEB_PAGES_H */
