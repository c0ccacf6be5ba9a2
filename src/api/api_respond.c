/*
 * api/api_respond.c: answers the REST handlers share: service errors and
 * refused bodies, and the request bodies several handlers read.
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

#include <stdlib.h>

#include "api/api_json.h"
#include "api/api_respond.h"
#include "web/lang.h"

/* The reader's language: ?lang=, else Accept-Language, else English. */
enum chess_lang
api_reader_lang(struct http_request *req)
{
	return web_lang(http_request_query(req, "lang"),
	    http_request_header(req, "Accept-Language"));
}

/* Answer a service error. */
void
api_error(struct http_response *resp, const struct service_error *err)
{
	http_respond_error(resp, err->status ? err->status : 500,
	    err->code[0] ? err->code : "internal", "%s", err->message);
}

/* Answer a body that api_json_*() refused. */
void
api_json_refusal(struct http_response *resp, int rc, const char *why)
{
	if (rc == API_JSON_NOMEM)
		http_respond_error(resp, 500, "internal", "out of memory");
	else
		http_respond_error(resp, 400, "bad-request", "%s", why);
}

/* Answer text as text/plain. */
void
api_text(struct http_response *resp, unsigned status, const char *text,
    size_t len)
{
	if (text == NULL)
		http_respond_error(resp, 500, "internal", "out of memory");
	else
		http_respond_data(resp, status, "text/plain; charset=utf-8",
		    text, len);
}

/* Answer PGN text, or the error that kept it from being made. */
void
api_pgn(struct http_response *resp, const char *pgn, size_t len,
    const struct service_error *err)
{
	if (pgn == NULL)
		api_error(resp, err);
	else
		http_respond_data(resp, 200, "application/x-chess-pgn", pgn,
		    len);
}

/* Answer 400 when the query names a parameter not among `known`. */
bool
api_query_refused(struct http_request *req, struct http_response *resp,
    const char *known)
{
	char	why[256];

	if (http_request_query_check(req, known, why, sizeof why) == 0)
		return false;
	http_respond_error(resp, 400, "bad-request", "%s", why);
	return true;
}

/* Answer a listing's failure or its JSON. Takes `a` over. */
void
api_list_json(struct http_response *resp, int rc, json_t *a, const char *key,
    const struct service_error *err)
{
	if (rc != 0) {
		json_decref(a);
		api_error(resp, err);
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:o}", key, a));
}

/* Answer a listing's failure or its JSON; false when text is wanted. */
bool
api_list_answer(struct http_request *req, struct http_response *resp, int rc,
    json_t *a, const char *key, const struct service_error *err)
{
	if (rc == 0 && http_request_wants_text(req))
		return false;
	api_list_json(resp, rc, a, key, err);
	return true;
}

/* Answer 400 for a member of the wrong type. */
void
api_bad_member(struct http_response *resp, const char *key, const char *want)
{
	http_respond_error(resp, 400, "bad-request",
	    "\"%s\" must be %s", key, want);
}

/*
 * Read a JSON body whose members are `n` strings, all required, named in
 * `names` (and no other): their values go to out[] (borrowed from the
 * returned body, which the caller releases). On a refusal answer 400 with
 * `want[i]`, what member i must be, and return NULL.
 */
json_t *
api_string_body(struct http_request *req, struct http_response *resp,
    const char *const *names, const char *const *want, size_t n,
    const char **out)
{
	json_t	*body;
	char	 why[256];
	size_t	 i;

	if ((body = http_request_json(req, resp)) == NULL)
		return NULL;
	if (api_json_known(body, names, n, why, sizeof why) != API_JSON_OK) {
		api_json_refusal(resp, API_JSON_BAD, why);
		json_decref(body);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!api_json_member_str(body, names[i], &out[i]) ||
		    out[i] == NULL) {
			api_bad_member(resp, names[i], want[i]);
			json_decref(body);
			return NULL;
		}
	return body;
}

/*
 * The signed statement of a request's body (text/plain, or JSON with
 * "statement" and "signature"), malloc'd; NULL when the answer says why
 * there is none.
 */
char *
api_statement_body(struct http_request *req, struct http_response *resp,
    size_t *lenp)
{
	const char	*body;
	char		*text = NULL, why[256];
	int		 rc;

	body = http_request_body(req, lenp);
	if ((rc = api_json_action(body, *lenp, http_request_header(req,
	    "Content-Type"), &text, lenp, why, sizeof why)) != API_JSON_OK)
		api_json_refusal(resp, rc, why);
	else if (*lenp == 0)
		http_respond_error(resp, 400, "bad-statement",
		    "send the signed statement as the request body");
	else
		return text;
	free(text);
	return NULL;
}
