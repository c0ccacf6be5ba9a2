/*
 * api/api_respond.h: answers the REST handlers share: service errors and
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

#ifndef CORRCHESS_API_RESPOND_H
#define CORRCHESS_API_RESPOND_H

#include <stdbool.h>
#include <stddef.h>

#include "http/http.h"
#include "service/service.h"

/* The reader's language: ?lang=, else Accept-Language, else English. */
enum chess_lang	api_reader_lang(struct http_request *);

/* Answer a service error with its status, code and sentence. */
void	api_error(struct http_response *, const struct service_error *);

/* Answer a body that api_json_*() refused (API_JSON_BAD or _NOMEM). */
void	api_json_refusal(struct http_response *, int rc, const char *why);

/* Answer text as text/plain in UTF-8; `text` NULL means out of memory. */
void	api_text(struct http_response *, unsigned status, const char *text,
	    size_t len);

/* Answer 400 and return true when the query names a parameter that is not
 * among `known` (names separated by spaces; "" for none). */
bool	api_query_refused(struct http_request *, struct http_response *,
	    const char *known);

/* Answer a listing that has no text view: the service's error when rc is
 * not 0, else {"key": a} as JSON. Takes `a` over. */
void	api_list_json(struct http_response *, int rc, json_t *a,
	    const char *key, const struct service_error *);

/*
 * Answer a listing: the service's error when rc is not 0, else {"key": a}
 * as JSON; true when answered (`a` is then taken), false when the request
 * wants text (`a` is still the caller's, to write as text).
 */
bool	api_list_answer(struct http_request *, struct http_response *, int rc,
	    json_t *a, const char *key, const struct service_error *);

/* Answer PGN text, or the service's error when `pgn` is NULL. */
void	api_pgn(struct http_response *, const char *pgn, size_t len,
	    const struct service_error *);

/* Answer 400 for a member of the wrong type: "`key` must be `want`". */
void	api_bad_member(struct http_response *, const char *key,
	    const char *want);

/*
 * Read a JSON body whose members are `n` strings, all required, named in
 * `names` (and no other): their values go to out[] (borrowed from the
 * returned body, which the caller releases). On a refusal answer 400 with
 * `want[i]`, what member i must be, and return NULL.
 */
json_t	*api_string_body(struct http_request *, struct http_response *,
	    const char *const *names, const char *const *want, size_t n,
	    const char **out);

/*
 * The signed statement of a request's body (text/plain, or JSON with
 * "statement" and "signature"), malloc'd, its length in *lenp; NULL when
 * the answer says why there is none.
 */
char	*api_statement_body(struct http_request *, struct http_response *,
	    size_t *lenp);

#endif /* CORRCHESS_API_RESPOND_H */
