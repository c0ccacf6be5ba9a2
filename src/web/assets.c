/*
 * web/assets.c: the stylesheet and the ES module, served from memory.
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

#include <string.h>

#include "web/assets.h"
#include "web/page.h"

/* Name the URL of an asset. */
const char *
assets_url(enum asset_id id)
{
	return assets_data[id].url;
}

/* Answer an asset. */
void
assets_respond(struct http_request *req, struct http_response *resp,
    const char *name)
{
	const struct asset	*a = NULL;
	const char		*type;
	size_t			 i;

	for (i = 0; i < assets_data_count; i++)
		if (strcmp(assets_data[i].name, name) == 0)
			a = &assets_data[i];
	if (a == NULL) {
		http_respond_error(resp, 404, "not-found", "no such file");
		return;
	}
	type = strstr(a->name, ".js") != NULL ?
	    "text/javascript; charset=utf-8" : "text/css; charset=utf-8";
	if (http_etag_matches(http_request_header(req, "If-None-Match"),
	    a->etag))
		http_respond_data(resp, 304, type, "", 0);
	else
		http_respond_data(resp, 200, type, a->data, a->size);
	page_headers(resp);
	http_response_header(resp, "ETag", a->etag);
	http_response_header(resp, "Cache-Control",
	    "public, max-age=31536000, immutable");
}
