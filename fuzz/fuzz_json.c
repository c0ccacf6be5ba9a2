/*
 * fuzz/fuzz_json.c: fuzz target: the API's JSON bodies.
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
 * libFuzzer target: any bytes as the body of a REST request, through the
 * parsers the handlers use (api_json.c): player creation, game creation,
 * event creation, and a signed action sent as JSON or as text. No crash, no leak, and what
 * a parser accepts is what the service expects: every string set, a
 * chess960 number in range, an action text that is NUL-terminated with the
 * length given.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/api_json.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check what api_json_player() gives for a JSON value. */
static void
check_player(json_t *v)
{
	struct api_player_params	pp;
	char				why[256];
	size_t				i;
	int				rc;

	why[0] = '\0';
	rc = api_json_player(v, &pp, why, sizeof why);
	if (rc == API_JSON_OK) {
		if (pp.name == NULL || (pp.nkeys > 0 && pp.keys == NULL))
			abort();
		for (i = 0; i < pp.nkeys; i++)
			if (pp.keys[i] == NULL)
				abort();
	} else if (rc == API_JSON_BAD) {
		if (why[0] == '\0' || pp.keys != NULL)
			abort();
	} else if (rc != API_JSON_NOMEM)
		abort();
	api_player_params_free(&pp);
}

/* Check what api_json_game() gives for a JSON value. */
static void
check_game(json_t *v)
{
	struct service_game_params	gp;
	char				why[256];
	int				rc;

	why[0] = '\0';
	rc = api_json_game(v, &gp, why, sizeof why);
	if (rc == API_JSON_OK) {
		if (gp.chess960 < -1 || gp.chess960 > 959 ||
		    (gp.chess960 >= 0 && gp.variant == NULL))
			abort();
	} else if (rc != API_JSON_BAD || why[0] == '\0')
		abort();
}

/* Check what api_json_event() gives for a JSON value. */
static void
check_event(json_t *v)
{
	struct api_event_params	ap;
	char			why[256];
	size_t			i;
	int			rc;

	why[0] = '\0';
	rc = api_json_event(v, &ap, why, sizeof why);
	if (rc == API_JSON_OK) {
		if (ap.ep.chess960 < -1 || ap.ep.chess960 > 959 ||
		    (ap.ep.nplayers > 0 && ap.ep.players == NULL) ||
		    ((ap.ep.chess960 >= 0 || ap.ep.chess960_pairing) &&
		    ap.ep.variant == NULL))
			abort();
		for (i = 0; i < ap.ep.nplayers; i++)
			if (ap.ep.players[i] == NULL)
				abort();
	} else if (rc == API_JSON_BAD) {
		if (why[0] == '\0')
			abort();
	} else if (rc != API_JSON_NOMEM)
		abort();
	api_event_params_free(&ap);
}

/* Check api_json_action() on the bytes under one content type. */
static void
check_action(const uint8_t *data, size_t size, const char *type)
{
	char	*text = NULL, why[256];
	size_t	 len = 0;
	int	 rc;

	why[0] = '\0';
	rc = api_json_action((const char *)data, size, type, &text, &len, why,
	    sizeof why);
	if (rc == API_JSON_OK) {
		if (text == NULL || text[len] != '\0')
			abort();
		if (strcmp(type, "text/plain") == 0 &&
		    (len != size || memcmp(text, data, size) != 0))
			abort();
		if (strcmp(type, "text/plain") != 0 &&
		    (strlen(text) != len || len == 0 || text[len - 1] != '\n'))
			abort();
	} else if (rc == API_JSON_BAD) {
		if (why[0] == '\0' || text != NULL)
			abort();
	} else if (rc != API_JSON_NOMEM)
		abort();
	free(text);
}

/* Run every body parser on data. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t	*v;

	/* Any JSON value, objects or not, as the handlers could get it. */
	v = json_loadb((const char *)data, size,
	    JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	if (v != NULL) {
		check_player(v);
		check_game(v);
		check_event(v);
		json_decref(v);
	}
	check_action(data, size, "application/json");
	check_action(data, size, "application/json; charset=utf-8");
	check_action(data, size, "text/plain");
	return 0;
}
