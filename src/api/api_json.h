/*
 * api/api_json.h: the REST API's JSON request bodies as service parameters.
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
 * The JSON request bodies of the REST API turned into service parameters:
 * pure functions, no I/O, so the HTTP handlers stay thin and a fuzzer can
 * drive the parsing directly.
 *
 * Results: API_JSON_OK, API_JSON_BAD (answer 400 "bad-request" with the
 * sentence in `why`) or API_JSON_NOMEM (answer 500).
 */

#ifndef CORRCHESS_API_JSON_H
#define CORRCHESS_API_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "service/service.h"

#define API_JSON_OK	0
#define API_JSON_BAD	(-1)
#define API_JSON_NOMEM	(-2)

/*
 * POST /api/v1/players: {name, email, lang, keys: [...]} ("key": "..." for
 * one key). The strings are borrowed from the JSON value and valid while
 * it is; `keys` is malloc'd: release it with api_player_params_free().
 */
struct api_player_params {
	const char	 *name;
	const char	 *email;		/* or NULL */
	const char	 *lang;			/* or NULL */
	const char	 *digest;		/* "none" "daily", or NULL */
	const char	**keys;			/* nkeys entries, or NULL */
	size_t		  nkeys;
};

/* A JSON string member in *out, NULL when absent or null; false when
 * not a string. */
/* Refuse (API_JSON_BAD, the member and the closest known name in `why`)
 * a member of the object `body` that is not among names[0..n-1]. */
int api_json_known(json_t *body, const char *const *names, size_t n,
    char *why, size_t whysize);

bool api_json_member_str(json_t *obj, const char *key, const char **out);

/* Read a player's creation body. */
int api_json_player(json_t *body, struct api_player_params *out, char *why,
    size_t whysize);

/* Release what api_json_player() allocated; a zeroed struct is fine. */
void api_player_params_free(struct api_player_params *);

/*
 * Read a player's change body {email, lang, digest}: each member borrowed
 * from the JSON value, NULL when absent; at least one must be there.
 */
int api_json_player_patch(json_t *body, const char **email,
    const char **lang, const char **digest, char *why, size_t whysize);

/*
 * Read a game's creation body {white, black, variant, chess960, fen,
 * time_control, policy, event, site, round}. The strings are borrowed from
 * the JSON value; nothing to free. A chess960 number without a variant
 * means variant "chess960".
 */
int api_json_game(json_t *body, struct service_game_params *out, char *why,
    size_t whysize);

/*
 * The text of a signed action from a request body: the body itself, or,
 * when `content_type` is application/json, {"statement": "...",
 * "signature": "..."} joined into one text (the signature either the
 * "signature: BASE64" line, the base64 alone, or the armored SSH block).
 * *text is malloc'd and NUL-terminated (the caller frees it), *lenp its
 * length; an empty text is for the caller to refuse.
 */
int api_json_action(const char *body, size_t len, const char *content_type,
    char **text, size_t *lenp, char *why, size_t whysize);

/*
 * POST /api/v1/events: {name, title, site, format, games, variant,
 * chess960 (a number or "per-pairing"), fen, time_control, policy, rated,
 * tiebreaks: [...], withdrawal, draw_min_move, draw_offer_every,
 * leave_days (null: the server's), players: [...]}; any other member is
 * refused. The strings are borrowed from the JSON value; `ep.players` is
 * malloc'd: release it with api_event_params_free().
 */
struct api_event_params {
	struct service_event_params	 ep;
	char				 tiebreaks[128];
};

/* Read an event's creation body. */
int api_json_event(json_t *body, struct api_event_params *out, char *why,
    size_t whysize);

/*
 * PATCH /api/v1/events/{name}: the members of a creation body but "name"
 * and "players", each changing one rule; a member absent leaves its rule
 * as it is (the unset values of struct service_event_params).
 */
int api_json_event_edit(json_t *body, struct api_event_params *out,
    char *why, size_t whysize);

/* Release what api_json_event() allocated; a zeroed struct is fine. */
void api_event_params_free(struct api_event_params *);

#endif /* CORRCHESS_API_JSON_H */
