/*
 * api/api_messages.c: the players' messages in a game's JSON and text.
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

#include "api/api_messages.h"

/* The name of the player of colour c. */
static const char *
sender(const struct service_game *g, int c)
{
	return c == CHESS_WHITE ? g->row.white_name : g->row.black_name;
}

/* The game's messages as a JSON array. */
json_t *
api_messages_json(const struct service_game *g)
{
	const struct service_message	*m;
	json_t				*a = json_array(), *o;
	char				 move[CHESS_SAN_MAX + 24];
	size_t				 i;

	for (i = 0; i < g->nmsgs && a != NULL; i++) {
		m = &g->msgs[i];
		service_message_move(g, m, CHESS_LANG_EN, move, sizeof move);
		o = json_pack("{s:I,s:i,s:s,s:s,s:s,s:s?,s:s}",
		    "record", (json_int_t)m->seq, "at_ply", m->ply,
		    "from", sender(g, m->color),
		    "color", m->color == CHESS_WHITE ? "white" : "black",
		    "kind", m->kind, "move", move[0] != '\0' ? move : NULL,
		    "text", m->text);
		if (o == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Append the game's messages to a text answer. */
void
api_messages_text(struct buf *b, const struct service_game *g,
    enum chess_lang lang)
{
	const struct service_message	*m;
	char				 move[CHESS_SAN_MAX + 24];
	size_t				 i;

	if (g->nmsgs > 0)
		buf_adds(b, lang == CHESS_LANG_FR ? "Messages :\n" :
		    "Messages:\n");
	for (i = 0; i < g->nmsgs; i++) {
		m = &g->msgs[i];
		service_message_move(g, m, lang, move, sizeof move);
		buf_addf(b, "  %s (%s): %s\n", sender(g, m->color),
		    move[0] != '\0' ? move : m->kind, m->text);
	}
}
