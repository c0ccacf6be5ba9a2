/*
 * api/api_json.c: the REST API's JSON request bodies, read.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* The JSON request bodies of the REST API; see api_json.h. */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api_json.h"
#include "util/errbuf.h"
#include "util/spell.h"

/* Reasons go into `why` with errbuf_set(), whose -1 is API_JSON_BAD. */

/* Say that member `key` must be `want`. */
static int
bad_member(char *why, size_t whysize, const char *key, const char *want)
{
	return errbuf_set(why, whysize, "\"%s\" must be %s", key, want);
}

/* Refuse a member of `body` not among names[0..n-1]. */
int
api_json_known(json_t *body, const char *const *names, size_t n, char *why,
    size_t whysize)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach(body, key, v) {
		for (i = 0; i < n; i++)
			if (strcmp(key, names[i]) == 0)
				break;
		if (i == n)
			return spell_unknown(why, whysize, "member", key, names,
			    n);
	}
	return API_JSON_OK;
}

/* Read a JSON string member, or NULL when absent or null. */
bool
api_json_member_str(json_t *obj, const char *key, const char **out)
{
	json_t	*v = json_object_get(obj, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return true;
	if (!json_is_string(v))
		return false;
	*out = json_string_value(v);
	return true;
}

/* Read a player's creation body. */
int
api_json_player(json_t *body, struct api_player_params *out, char *why,
    size_t whysize)
{
	static const char *const	 known[] = { "name", "email", "lang",
	    "digest", "keys", "key" };
	json_t				*jkeys, *v;
	size_t				 i;

	memset(out, 0, sizeof *out);
	if (!json_is_object(body))
		return errbuf_set(why, whysize,
		    "the body must be a JSON object");
	if (api_json_known(body, known, sizeof known / sizeof known[0], why,
	    whysize) != API_JSON_OK)
		return API_JSON_BAD;
	if (!api_json_member_str(body, "name", &out->name) || out->name == NULL)
		return bad_member(why, whysize, "name", "a string");
	if (!api_json_member_str(body, "email", &out->email))
		return bad_member(why, whysize, "email", "a string");
	if (!api_json_member_str(body, "lang", &out->lang))
		return bad_member(why, whysize, "lang", "\"en\" or \"fr\"");
	if (!api_json_member_str(body, "digest", &out->digest))
		return bad_member(why, whysize, "digest",
		    "\"none\" or \"daily\"");
	if ((jkeys = json_object_get(body, "keys")) == NULL)
		jkeys = json_object_get(body, "key");
	if (jkeys == NULL || json_is_null(jkeys))
		return API_JSON_OK;
	if (json_is_string(jkeys)) {
		if ((out->keys = calloc(1, sizeof *out->keys)) == NULL)
			return API_JSON_NOMEM;
		out->keys[0] = json_string_value(jkeys);
		out->nkeys = 1;
		return API_JSON_OK;
	}
	if (!json_is_array(jkeys))
		return bad_member(why, whysize, "keys", "a list of strings");
	if ((out->keys = calloc(json_array_size(jkeys) + 1,
	    sizeof *out->keys)) == NULL)
		return API_JSON_NOMEM;
	json_array_foreach(jkeys, i, v) {
		if (!json_is_string(v)) {
			api_player_params_free(out);
			return bad_member(why, whysize, "keys",
			    "a list of strings");
		}
		out->keys[out->nkeys++] = json_string_value(v);
	}
	return API_JSON_OK;
}

/* Release the key list of player parameters. */
void
api_player_params_free(struct api_player_params *pp)
{
	if (pp == NULL)
		return;
	free(pp->keys);
	pp->keys = NULL;
	pp->nkeys = 0;
}

/* Read a player's change body. */
int
api_json_player_patch(json_t *body, const char **email, const char **lang,
    const char **digest, char *why, size_t whysize)
{
	static const char *const	known[] = { "email", "lang", "digest" };

	*email = *lang = *digest = NULL;
	if (!json_is_object(body))
		return errbuf_set(why, whysize,
		    "the body must be a JSON object");
	if (api_json_known(body, known, sizeof known / sizeof known[0], why,
	    whysize) != API_JSON_OK)
		return API_JSON_BAD;
	if (!api_json_member_str(body, "email", email))
		return bad_member(why, whysize, "email", "a string");
	if (!api_json_member_str(body, "lang", lang))
		return bad_member(why, whysize, "lang", "\"en\" or \"fr\"");
	if (!api_json_member_str(body, "digest", digest))
		return bad_member(why, whysize, "digest",
		    "\"none\" or \"daily\"");
	if (*email == NULL && *lang == NULL && *digest == NULL)
		return errbuf_set(why, whysize, "give at least one of "
		    "\"email\", \"lang\" and \"digest\"");
	return API_JSON_OK;
}

/* Read a game's creation body. */
int
api_json_game(json_t *body, struct service_game_params *gp, char *why,
    size_t whysize)
{
	static const char *const	 keys[] = { "white", "black", "variant",
	    "fen", "time_control", "policy", "event", "site", "round",
	    "auth", "chess960", "rated" };
	const char			**dst[] = { &gp->white, &gp->black,
	    &gp->variant, &gp->fen, &gp->time_control, &gp->policy, &gp->event,
	    &gp->site, &gp->round, &gp->auth };
	json_t				*n;
	json_int_t			 v;
	size_t				 i;

	memset(gp, 0, sizeof *gp);
	gp->chess960 = -1;
	gp->rated = -1;
	if (!json_is_object(body))
		return errbuf_set(why, whysize,
		    "the body must be a JSON object");
	if (api_json_known(body, keys, sizeof keys / sizeof keys[0], why,
	    whysize) != API_JSON_OK)
		return API_JSON_BAD;
	for (i = 0; i < sizeof dst / sizeof dst[0]; i++)
		if (!api_json_member_str(body, keys[i], dst[i]))
			return bad_member(why, whysize, keys[i], "a string");
	n = json_object_get(body, "rated");
	if (n != NULL && !json_is_null(n)) {
		if (!json_is_boolean(n))
			return bad_member(why, whysize, "rated",
			    "true or false");
		gp->rated = json_is_true(n) ? 1 : 0;
	}
	n = json_object_get(body, "chess960");
	if (n == NULL || json_is_null(n))
		return API_JSON_OK;
	if (!json_is_integer(n) || (v = json_integer_value(n)) < 0 ||
	    v > 959)
		return bad_member(why, whysize, "chess960",
		    "a number from 0 to 959");
	gp->chess960 = (int)v;
	if (gp->variant == NULL)
		gp->variant = "chess960";
	return API_JSON_OK;
}

/* Read an event's players: an array of names. */
static int
event_players(json_t *body, struct service_event_params *ep, char *why,
    size_t whysize)
{
	json_t		*a = json_object_get(body, "players"), *v;
	const char	**names;
	size_t		 i;

	if (a == NULL || json_is_null(a))
		return API_JSON_OK;
	if (!json_is_array(a))
		return bad_member(why, whysize, "players",
		    "an array of player names");
	if (json_array_size(a) == 0)
		return API_JSON_OK;
	if ((names = calloc(json_array_size(a), sizeof *names)) == NULL)
		return API_JSON_NOMEM;
	ep->players = names;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return bad_member(why, whysize, "players",
			    "an array of player names");
		names[i] = json_string_value(v);
		ep->nplayers++;
	}
	return API_JSON_OK;
}

/* Read an event's tie-breaks: an array of names, joined by commas. */
static int
event_tiebreaks(json_t *body, struct api_event_params *out, char *why,
    size_t whysize)
{
	json_t	*a = json_object_get(body, "tiebreaks"), *v;
	size_t	 i, n = 0;

	if (a == NULL || json_is_null(a))
		return API_JSON_OK;
	if (!json_is_array(a) || json_array_size(a) > 4)
		return bad_member(why, whysize, "tiebreaks", "an array of at "
		    "most four of \"direct\", \"wins\", \"sb\", \"koya\"");
	json_array_foreach(a, i, v) {
		if (!json_is_string(v) || strchr(json_string_value(v), ',') ||
		    strlen(json_string_value(v)) > 20)
			return bad_member(why, whysize, "tiebreaks",
			    "an array of tie-break names");
		n += (size_t)snprintf(out->tiebreaks + n,
		    sizeof out->tiebreaks - n, "%s%s", i > 0 ? "," : "",
		    json_string_value(v));
	}
	out->ep.tiebreaks = out->tiebreaks;
	return API_JSON_OK;
}

/* Read a member that is a number from 0 to `max` into *v (left as it is
 * when the member is absent). */
static int
event_count(json_t *body, const char *member, int max, int *v, char *why,
    size_t whysize)
{
	json_t		*n = json_object_get(body, member);
	char		 what[64];

	if (n == NULL)
		return API_JSON_OK;
	if (!json_is_integer(n) || json_integer_value(n) < 0 ||
	    json_integer_value(n) > max) {
		snprintf(what, sizeof what, "a number from 0 to %d", max);
		return bad_member(why, whysize, member, what);
	}
	*v = (int)json_integer_value(n);
	return API_JSON_OK;
}

/* Read an event's draw rules and leave allowance. */
static int
event_draws(json_t *body, struct service_event_params *ep, char *why,
    size_t whysize)
{
	json_t	*n = json_object_get(body, "leave_days");
	int	 rc;

	if ((rc = event_count(body, "draw_min_move", 1000, &ep->draw_min_move,
	    why, whysize)) != API_JSON_OK ||
	    (rc = event_count(body, "draw_offer_every", 1000,
	    &ep->draw_offer_every, why, whysize)) != API_JSON_OK)
		return rc;
	if (json_is_null(n))
		ep->leave_days = SERVICE_LEAVE_SERVER;
	else if ((rc = event_count(body, "leave_days", 366, &ep->leave_days,
	    why, whysize)) != API_JSON_OK)
		return rc;
	return API_JSON_OK;
}

/* Read the body of an event's creation, or with `edit` of a change of
 * its rules. */
static int
event_body(json_t *body, bool edit, struct api_event_params *out, char *why,
    size_t whysize)
{
	static const char *const	 known[] = { "title", "site",
	    "format", "games", "variant", "chess960", "fen", "time_control",
	    "policy", "rated", "tiebreaks", "withdrawal", "auth",
	    "draw_min_move", "draw_offer_every", "leave_days", "name",
	    "players" };
	static const char *const	 keys[] = { "name", "title", "site",
	    "format", "variant", "fen", "time_control", "policy",
	    "withdrawal", "auth" };
	struct service_event_params	*ep = &out->ep;
	const char			**dst[] = { &ep->name, &ep->title,
	    &ep->site, &ep->format, &ep->variant, &ep->fen,
	    &ep->time_control, &ep->policy, &ep->withdrawal, &ep->auth };
	json_t				*n;
	json_int_t			 v;
	size_t				 i;
	int				 rc;

	memset(out, 0, sizeof *out);
	ep->chess960 = -1;
	ep->rated = -1;
	ep->draw_min_move = -1;
	ep->draw_offer_every = -1;
	ep->leave_days = SERVICE_LEAVE_UNSET;
	if (!json_is_object(body))
		return errbuf_set(why, whysize,
		    "the body must be a JSON object");
	/* An edit changes the rules; the name and players stay. */
	if ((rc = api_json_known(body, known, sizeof known / sizeof known[0] -
	    (edit ? 2 : 0), why, whysize)) != API_JSON_OK)
		return rc;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!api_json_member_str(body, keys[i], dst[i]))
			return bad_member(why, whysize, keys[i], "a string");
	n = json_object_get(body, "games");
	if (n != NULL && !json_is_null(n)) {
		if (!json_is_integer(n) || (v = json_integer_value(n)) < 1 ||
		    v > 1000)
			return bad_member(why, whysize, "games",
			    "a number from 1 to 1000");
		ep->games = (int)v;
	}
	n = json_object_get(body, "chess960");
	ep->chess960_set = n != NULL;
	if (json_is_string(n) &&
	    strcmp(json_string_value(n), "per-pairing") == 0)
		ep->chess960_pairing = true;
	else if (n != NULL && !json_is_null(n)) {
		if (!json_is_integer(n) || (v = json_integer_value(n)) < 0 ||
		    v > 959)
			return bad_member(why, whysize, "chess960",
			    "a number from 0 to 959 or \"per-pairing\"");
		ep->chess960 = (int)v;
	}
	if ((ep->chess960 >= 0 || ep->chess960_pairing) &&
	    ep->variant == NULL)
		ep->variant = "chess960";
	n = json_object_get(body, "rated");
	if (n != NULL && !json_is_null(n)) {
		if (!json_is_boolean(n))
			return bad_member(why, whysize, "rated",
			    "true or false");
		ep->rated = json_is_true(n) ? 1 : 0;
	}
	if ((rc = event_tiebreaks(body, out, why, whysize)) != API_JSON_OK ||
	    (rc = event_draws(body, ep, why, whysize)) != API_JSON_OK)
		return rc;
	return edit ? API_JSON_OK : event_players(body, ep, why, whysize);
}

/* Read an event's creation body. */
int
api_json_event(json_t *body, struct api_event_params *out, char *why,
    size_t whysize)
{
	return event_body(body, false, out, why, whysize);
}

/* Read the body of a change to an event's rules. */
int
api_json_event_edit(json_t *body, struct api_event_params *out, char *why,
    size_t whysize)
{
	return event_body(body, true, out, why, whysize);
}

/* Release what api_json_event() allocated. */
void
api_event_params_free(struct api_event_params *p)
{
	if (p == NULL)
		return;
	free((void *)p->ep.players);
	p->ep.players = NULL;
}

/* Tell whether a Content-Type names JSON (parameters after ';' aside). */
static bool
is_json_type(const char *ct)
{
	static const char	json[] = "application/json";

	return ct != NULL && strcspn(ct, "; \t") == sizeof json - 1 &&
	    strncasecmp(ct, json, sizeof json - 1) == 0;
}

/* Copy `len` bytes into a new NUL-terminated string. */
static char *
copy_text(const char *p, size_t len)
{
	char	*s;

	if ((s = malloc(len + 1)) == NULL)
		return NULL;
	if (len > 0)
		memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

/* The text of a signed action from a request body. */
int
api_json_action(const char *body, size_t len, const char *content_type,
    char **text, size_t *lenp, char *why, size_t whysize)
{
	json_error_t	 jerr;
	json_t		*j = NULL;
	static const char *const known[] = { "statement", "signature" };
	const char	*stmt, *sig, *prefix;
	size_t		 slen, glen, n;
	int		 rc = API_JSON_NOMEM;

	*text = NULL;
	*lenp = 0;
	if (body == NULL)
		len = 0;
	if (!is_json_type(content_type)) {
		if ((*text = copy_text(body, len)) == NULL)
			return API_JSON_NOMEM;
		*lenp = len;
		return API_JSON_OK;
	}
	if ((j = json_loadb(body != NULL ? body : "", len,
	    JSON_REJECT_DUPLICATES, &jerr)) == NULL)
		return errbuf_set(why, whysize, "invalid JSON at line %d, "
		    "column %d: %s", jerr.line, jerr.column, jerr.text);
	if (!json_is_object(j)) {
		rc = errbuf_set(why, whysize, "the body must be a JSON object");
		goto out;
	}
	if (api_json_known(j, known, 2, why, whysize) != API_JSON_OK) {
		rc = API_JSON_BAD;
		goto out;
	}
	if (!api_json_member_str(j, "statement", &stmt) || stmt == NULL) {
		rc = bad_member(why, whysize, "statement", "a string");
		goto out;
	}
	if (!api_json_member_str(j, "signature", &sig)) {
		rc = bad_member(why, whysize, "signature", "a string");
		goto out;
	}
	slen = strlen(stmt);
	glen = sig != NULL ? strlen(sig) : 0;
	/* A bare base64 signature becomes the signature line. */
	prefix = sig != NULL && strncmp(sig, "signature:", 10) != 0 &&
	    strncmp(sig, "-----", 5) != 0 ? "signature: " : "";
	n = slen + glen + 32;
	if ((*text = malloc(n)) == NULL)
		goto out;
	snprintf(*text, n, "%s%s%s%s\n", stmt,
	    slen > 0 && stmt[slen - 1] == '\n' ? "" : "\n", prefix,
	    sig != NULL ? sig : "");
	*lenp = strlen(*text);
	rc = API_JSON_OK;
 out:
	json_decref(j);
	return rc;
}
