/*
 * api/api_messages.h: the players' messages in a game's JSON and text.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_MESSAGES_H
#define CORRCHESS_API_MESSAGES_H

#include <jansson.h>

#include "service/service.h"
#include "util/buf.h"

/* The game's messages as a JSON array (empty when none); NULL when out
 * of memory. */
json_t	*api_messages_json(const struct service_game *);

/* Append the game's messages to a text answer in `lang`, a line each
 * (nothing when there is none). */
void	 api_messages_text(struct buf *, const struct service_game *,
	    enum chess_lang);

#endif /* CORRCHESS_API_MESSAGES_H */
