/*
 * api/api_admin.h: the REST handlers of the server itself (rows in api.c's
 * table).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_API_ADMIN_H
#define CORRCHESS_API_ADMIN_H

#include "http/http.h"

/* Each takes the service as `user`, as every route of routes_api. */
void	api_admin_backup(struct http_request *, struct http_response *,
	    void *);
void	api_server_key(struct http_request *, struct http_response *,
	    void *);

#endif /* CORRCHESS_API_ADMIN_H */
