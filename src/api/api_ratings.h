/*
 * api/api_ratings.h: the REST handlers of ratings (rows in api.c's table).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_RATINGS_H
#define CORRCHESS_API_RATINGS_H

#include <jansson.h>

#include "http/http.h"
#include "service/service.h"

/* Each takes the service as `user`, as every route of routes_api. */
void	api_rating_list(struct http_request *, struct http_response *,
	    void *);
void	api_rating_get(struct http_request *, struct http_response *,
	    void *);

/* The JSON of a rating: rating, rd, volatility, games, provisional. */
json_t	*api_rating_json(const struct service_rating *);

#endif /* CORRCHESS_API_RATINGS_H */
