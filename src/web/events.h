/*
 * web/events.h: the web pages of events: crosstable, standings, games.
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
 *   GET /events/{name}	an event: its crosstable (in start order, every
 *			result a link to its game), standings with the
 *			event's tie-breaks, its games by round, its PGN
 *
 * In English or French, as every page. The club's page and each player's
 * page list the events (web_events_list()).
 */

#ifndef CORRCHESS_WEB_EVENTS_H
#define CORRCHESS_WEB_EVENTS_H

#include "http/http.h"
#include "service/service.h"
#include "web/page.h"

/* GET /events/{name}; user is the service. */
void	web_event(struct http_request *, struct http_response *, void *user);

/*
 * Add a heading and a list of events, each a link to its page with its
 * format and status: every event, or those `player` (when not NULL) plays
 * in; nothing when there are none. 0, or -1 with `err`.
 */
int	web_events_list(struct page *, struct service *, const char *player,
	    struct service_error *err);

#endif /* CORRCHESS_WEB_EVENTS_H */
