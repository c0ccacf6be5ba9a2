/*
 * web/assets.h: the stylesheet and the ES module, served from memory.
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
 * The web pages' two assets, src/web/static/corrchess.css and
 * corrchess.js, are embedded into corrchessd at build time (embed.sh
 * writes assets_data.c): the daemon serves what it was built with, needs
 * no data directory at run time (nothing to find under a sandbox, nothing
 * to get out of step on an upgrade), and every test runs against the
 * build tree as it is. Pages name an asset by a URL that carries its ETag,
 * so the asset is cached for a year and a new build is fetched at once.
 */

#ifndef CORRCHESS_WEB_ASSETS_H
#define CORRCHESS_WEB_ASSETS_H

#include <stddef.h>

#include "http/http.h"

/* The rows of assets_data[], in the order the build gives the files. */
enum asset_id { ASSET_CSS = 0, ASSET_JS = 1 };

struct asset {
	const char		*name;	/* "corrchess.js" */
	const unsigned char	*data;	/* size bytes and a NUL */
	size_t			 size;
	const char		*etag;	/* "\"0123456789abcdef\"" */
	const char		*url;	/* "/static/corrchess.js?v=..." */
};

extern const struct asset	assets_data[];
extern const size_t		assets_data_count;

/* The URL a page names an asset by. */
const char *assets_url(enum asset_id);

/*
 * Answer GET /static/{name}: the asset with its ETag and a year's cache
 * lifetime, 304 when If-None-Match names its ETag, 404 for another name.
 */
void assets_respond(struct http_request *, struct http_response *,
    const char *name);

#endif /* CORRCHESS_WEB_ASSETS_H */
