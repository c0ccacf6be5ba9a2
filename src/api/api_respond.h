/*
 * api/api_respond.h: answers the REST handlers share: service errors and
 * refused bodies.
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

#endif /* CORRCHESS_API_RESPOND_H */
