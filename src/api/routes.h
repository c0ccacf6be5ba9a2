/*
 * api/routes.h: the table of /api/v1 routes (its rows in api.c).
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
 * The table of /api/v1 routes that corrchessd serves, defined in api.c;
 * the handlers its rows name are in a file per resource (api_*.c).
 */

#ifndef CORRCHESS_ROUTES_H
#define CORRCHESS_ROUTES_H

#include <stddef.h>

#include "http/http.h"

extern const struct http_route	routes_api[];
extern const size_t		routes_api_count;

#endif /* CORRCHESS_ROUTES_H */
