/*
 * api/api_players.c: the REST handlers of players: players, their keys,
 * invitations, their own signed statements and their doors.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <sodium.h>

#include "api/api_json.h"
#include "api/api_players.h"
#include "api/api_ratings.h"
#include "api/api_respond.h"
#include "game/render.h"
#include "http/http.h"
#include "service/service.h"

/* The JSON of a key. */
json_t *
api_key_json(const struct store_key *k)
{
	char	line[SIG_PUBKEY_LINE_SIZE + STORE_COMMENT_SIZE];
	char	fp[SIG_FINGERPRINT_SIZE];
	char	added[32], revoked[32];

	sig_pubkey_format(k->pubkey, k->comment[0] ? k->comment : NULL, line,
	    sizeof line);
	sig_pubkey_fingerprint(k->pubkey, fp);
	render_time(k->added, added, sizeof added);
	if (k->revoked != 0)
		render_time(k->revoked, revoked, sizeof revoked);
	return json_pack("{s:I,s:s,s:s,s:s,s:s,s:s?}", "id", (json_int_t)k->id,
	    "key", line, "fingerprint", fp, "comment", k->comment,
	    "added", added, "revoked", k->revoked ? revoked : NULL);
}

/* The JSON of a player (and keys when given). */
static json_t *
player_json(const struct store_player *p, const struct store_key *keys,
    size_t nkeys)
{
	json_t	*o, *a;
	char	 created[32];
	size_t	 i;

	render_time(p->created, created, sizeof created);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s}", "name", p->name, "email",
	    p->email, "lang", p->lang, "digest", p->digest[0] != '\0' ?
	    p->digest : "none", "created", created);
	if (o != NULL && keys != NULL) {
		a = json_array();
		for (i = 0; i < nkeys; i++)
			json_array_append_new(a, api_key_json(&keys[i]));
		json_object_set_new(o, "keys", a);
	}
	return o;
}

/* Set a new player's digest; `sp` then holds the player as stored. */
static int
player_digest(struct service *svc, const char *name, const char *digest,
    struct service_player *sp, struct service_error *err)
{
	service_player_free(sp);
	return service_player_set(svc, name, NULL, NULL, digest, sp, err);
}

/* POST /api/v1/players {name, email, lang, digest, keys: [...]} */
void
api_player_create(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct api_player_params pp;
	struct service_player	 sp;
	struct service_error	 err;
	json_t			*body, *o;
	char			 why[256];
	int			 rc;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	if ((rc = api_json_player(body, &pp, why, sizeof why)) != API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (pp.digest != NULL && strcmp(pp.digest, "none") != 0 &&
	    strcmp(pp.digest, "daily") != 0)
		http_respond_error(resp, 400, "bad-digest",
		    "digest must be \"none\" or \"daily\"");
	else if (service_player_create(user, pp.name, pp.email, pp.lang,
	    pp.keys, pp.nkeys, &sp, &err) != 0)
		api_error(resp, &err);
	else if (pp.digest != NULL && strcmp(pp.digest, "none") != 0 &&
	    player_digest(user, pp.name, pp.digest, &sp, &err) != 0)
		api_error(resp, &err);
	else {
		o = player_json(&sp.p, sp.keys, sp.nkeys);
		/* Made, but not yet able to act. */
		if (o != NULL && sp.nkeys == 0)
			json_object_set_new(o, "warnings", json_pack("[s+++]",
			    sp.p.name, " has no key and cannot sign actions "
			    "until one is added: POST /api/v1/players/",
			    sp.p.name, "/keys {\"key\":\"ssh-ed25519 AAAA...\"}"));
		http_respond_json(resp, 201, o);
		service_player_free(&sp);
	}
	api_player_params_free(&pp);
	json_decref(body);
}

/* Add a player to a JSON array. */
static int
player_collect(void *arg, const struct store_player *p)
{
	return json_array_append_new(arg, player_json(p, NULL, 0));
}

/* GET /api/v1/players */
void
api_player_list(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	json_t			*a;

	if (api_query_refused(req, resp, ""))
		return;
	a = json_array();
	api_list_json(resp, service_player_list(user, player_collect, a, &err),
	    a, "players", &err);
}

/* GET /api/v1/players/{name} */
void
api_player_get(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_player		sp;
	struct service_leave_year	ly;
	struct service_rating		sr;
	struct service_error		err;
	json_t				*o;

	if (api_query_refused(req, resp, ""))
		return;
	if (service_player_get(user, http_request_param(req, "name"), &sp,
	    &err) != 0) {
		api_error(resp, &err);
		return;
	}
	if (service_player_leave(user, sp.p.id, &ly, &err) != 0) {
		service_player_free(&sp);
		api_error(resp, &err);
		return;
	}
	o = player_json(&sp.p, sp.keys, sp.nkeys);
	if (o != NULL)
		json_object_set_new(o, "leave", json_pack("{s:i,s:I,s:I,s:I}",
		    "year", ly.year, "allowance_days",
		    (json_int_t)ly.allowance_days, "taken_days",
		    (json_int_t)ly.taken_days, "left_days",
		    (json_int_t)ly.left_days));
	if (o != NULL && service_rating_get(user, sp.p.name, &sr, NULL, NULL,
	    &err) == 0)
		json_object_set_new(o, "rating", api_rating_json(&sr));
	http_respond_json(resp, 200, o);
	service_player_free(&sp);
}

/* PATCH /api/v1/players/{name} {email, lang, digest} */
void
api_player_patch(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_player	 sp;
	struct service_error	 err;
	const char		*email, *lang, *digest;
	json_t			*body;
	char			 why[256];
	int			 rc;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	if ((rc = api_json_player_patch(body, &email, &lang, &digest, why,
	    sizeof why)) != API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (service_player_set(user, http_request_param(req, "name"),
	    email, lang, digest, &sp, &err) != 0)
		api_error(resp, &err);
	else {
		http_respond_json(resp, 200, player_json(&sp.p, sp.keys,
		    sp.nkeys));
		service_player_free(&sp);
	}
	json_decref(body);
}

/* POST /api/v1/players/{name}/keys {key} */
void
api_key_add(struct http_request *req, struct http_response *resp, void *user)
{
	static const char *const names[] = { "key" };
	static const char *const want[] = {
	    "a string (\"ssh-ed25519 AAAA...\")" };
	struct service_error	 err;
	struct store_key	 k;
	const char		*key;
	json_t			*body;

	if ((body = api_string_body(req, resp, names, want, 1, &key)) == NULL)
		return;
	if (service_key_add(user, http_request_param(req, "name"), key, &k,
	    &err) != 0)
		api_error(resp, &err);
	else
		http_respond_json(resp, 201, api_key_json(&k));
	json_decref(body);
}

/* GET /api/v1/players/{name}/keys: the published keys, for anyone who
 * verifies a game's record (revoked ones too: older records need them). */
void
api_key_list(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_player	 sp;
	struct service_settings	 ss;
	struct service_error	 err;
	json_t			*a;
	size_t			 i;

	if (api_query_refused(req, resp, ""))
		return;
	if (service_player_get(user, http_request_param(req, "name"), &sp,
	    &err) != 0) {
		api_error(resp, &err);
		return;
	}
	a = json_array();
	for (i = 0; i < sp.nkeys; i++)
		json_array_append_new(a, api_key_json(&sp.keys[i]));
	service_player_free(&sp);
	/* The ply of the player's next statement about themselves. */
	if (service_settings_get(user, http_request_param(req, "name"), &ss,
	    &err) != 0) {
		json_decref(a);
		api_error(resp, &err);
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:s,s:o,s:I}", "player",
	    ss.sp.p.name, "keys", a, "ply", (json_int_t)ss.ply));
	service_settings_free(&ss);
}

/* The JSON of a player's settings, as their own statements answer. */
static json_t *
settings_json(const struct service_settings *ss)
{
	json_t	*o;

	o = player_json(&ss->sp.p, ss->sp.keys, ss->sp.nkeys);
	if (o == NULL)
		return NULL;
	json_object_set_new(o, "ply", json_integer((json_int_t)ss->ply));
	json_object_set_new(o, "email_pending", ss->pending_email[0] ?
	    json_string(ss->pending_email) : json_null());
	json_object_set_new(o, "move_mail", json_boolean(ss->set.move_mail));
	json_object_set_new(o, "reminders", json_string(ss->set.reminders));
	json_object_set_new(o, "digest_hour", ss->set.digest_hour < 0 ?
	    json_null() : json_integer(ss->set.digest_hour));
	if (ss->message[0] != '\0')
		json_object_set_new(o, "message", json_string(ss->message));
	return o;
}

/*
 * POST /api/v1/players/{name}/actions: a player's own signed statement
 * (game 0): keys, settings, address; the settings after it, and what it
 * did ("message").
 */
void
api_player_action(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_settings	 ss;
	struct service_error	 err;
	char			*text;
	size_t			 len;

	if ((text = api_statement_body(req, resp, &len)) == NULL)
		return;
	if (service_self_submit_lang(user, http_request_param(req, "name"),
	    text, len, api_reader_lang(req), "http", &ss, &err) != 0)
		api_error(resp, &err);
	else {
		http_respond_json(resp, 200, settings_json(&ss));
		service_settings_free(&ss);
	}
	free(text);
}

/* POST /api/v1/players/{name}/invitations {days}: a one-time link. */
void
api_invite(struct http_request *req, struct http_response *resp, void *user)
{
	static const char *const known[] = { "days" };
	struct service_invitation inv;
	struct service_error	 err;
	json_t			*body = NULL, *d;
	char			 why[256], expires[32], path[64];
	size_t			 len;
	int			 days = 0;

	/* The body may be left out. */
	if (http_request_body(req, &len) != NULL && len > 0) {
		if ((body = http_request_json(req, resp)) == NULL)
			return;
		if (api_json_known(body, known, 1, why, sizeof why) !=
		    API_JSON_OK) {
			api_json_refusal(resp, API_JSON_BAD, why);
			goto out;
		}
		d = json_object_get(body, "days");
		if (d != NULL && (!json_is_integer(d) ||
		    json_integer_value(d) < 1 ||
		    json_integer_value(d) > SERVICE_INVITE_DAYS_MAX)) {
			http_respond_error(resp, 400, "bad-request",
			    "\"days\" must be a number from 1 to %d",
			    SERVICE_INVITE_DAYS_MAX);
			goto out;
		}
		if (d != NULL)
			days = (int)json_integer_value(d);
	}
	if (service_invite(user, http_request_param(req, "name"), days, &inv,
	    &err) != 0) {
		api_error(resp, &err);
		goto out;
	}
	render_time(inv.expires, expires, sizeof expires);
	snprintf(path, sizeof path, "/invite#%s", inv.token);
	http_respond_json(resp, 201, json_pack("{s:s,s:s,s:s,s:s}", "player",
	    inv.player, "token", inv.token, "path", path, "expires",
	    expires));
	http_response_header(resp, "Cache-Control", "no-store");
	sodium_memzero(&inv, sizeof inv);
 out:
	json_decref(body);
}

/* POST /api/v1/invitations {token, key}: register the key a browser
 * made, with the token of its invitation. */
void
api_enrol(struct http_request *req, struct http_response *resp, void *user)
{
	static const char *const names[] = { "token", "key" };
	static const char *const want[] = { "a string (the invitation's)",
	    "a string (the public key)" };
	struct service_error	 err;
	struct store_player	 p;
	struct store_key	 k;
	const char		*v[2];
	json_t			*body;

	if ((body = api_string_body(req, resp, names, want, 2, v)) == NULL)
		return;
	if (service_enrol(user, v[0], v[1], &p, &k, &err) != 0)
		api_error(resp, &err);
	else
		http_respond_json(resp, 201, json_pack("{s:s,s:s,s:o}",
		    "player", p.name, "lang", p.lang, "key", api_key_json(&k)));
	json_decref(body);
}

/* DELETE /api/v1/players/{name}/keys/{id} */
void
api_key_revoke(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	err;
	const char		*name = http_request_param(req, "name");
	int64_t			id = http_request_param_int(req, "id");

	if (service_key_revoke(user, name, id, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:s,s:I,s:b}", "player",
	    name, "key", (json_int_t)id, "revoked", 1));
}

/* GET /api/v1/players/{name}/doors: which doors a player opened. */
void
api_doors_get(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_doors	d;
	struct service_error	err;

	if (service_doors_get(user, http_request_param(req, "name"), &d,
	    &err) != 0) {
		api_error(resp, &err);
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:s,s:b,s:b,s:b}", "player",
	    http_request_param(req, "name"), "xfcc", d.xfcc, "mail_token",
	    d.mail_token, "xfcc_password", d.xfcc_password));
}

/* Read an optional boolean member: 1, 0, or -1 when absent; -2 when not a
 * boolean. */
static int
member_bool(json_t *body, const char *key)
{
	json_t	*n = json_object_get(body, key);

	if (n == NULL || json_is_null(n))
		return -1;
	if (!json_is_boolean(n))
		return -2;
	return json_is_true(n) ? 1 : 0;
}

/* PATCH /api/v1/players/{name}/doors {xfcc, mail_token, xfcc_password} */
void
api_doors_patch(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	const char		*password;
	json_t			*body;
	int			 xfcc, mail_token;

	if ((body = http_request_json(req, resp)) == NULL)
		return;
	xfcc = member_bool(body, "xfcc");
	mail_token = member_bool(body, "mail_token");
	if (xfcc == -2)
		api_bad_member(resp, "xfcc", "true or false");
	else if (mail_token == -2)
		api_bad_member(resp, "mail_token", "true or false");
	else if (!api_json_member_str(body, "xfcc_password", &password))
		api_bad_member(resp, "xfcc_password", "a string");
	else if (service_doors_set(user, http_request_param(req, "name"),
	    xfcc, mail_token, password, &err) != 0)
		api_error(resp, &err);
	else
		api_doors_get(req, resp, user);
	json_decref(body);
}
