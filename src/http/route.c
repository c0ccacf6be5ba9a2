/*
 * http/route.c: the route table: patterns compiled, requests matched.
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
 * A pattern is split once, at start, into segments: literal text,
 * "{name}" or "{name:int}". A request's path is matched against every
 * route in table order; the first route whose pattern and method match
 * wins. Patterns that match with another method make the answer 405 and
 * fill its Allow header; no pattern at all makes it 404.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_int.h"

/* Free a compiled route's parts. */
void
http_route_clear(struct http_croute *cr)
{
	size_t	i;

	for (i = 0; i < cr->nsegs; i++)
		free(cr->segs[i].text);
	free(cr->segs);
	free(cr->label);
	cr->segs = NULL;
	cr->label = NULL;
	cr->nsegs = 0;
}

/* Split a route's pattern into segments; -1 with a reason if it is bad. */
int
http_route_compile(struct http_croute *cr, const struct http_route *route,
    char *err, size_t errsize)
{
	const char	*p, *end, *colon;
	size_t		 n = 0, len, nparams = 0;
	struct http_segment *seg;

	cr->route = route;
	if (route->method == NULL || route->pattern == NULL ||
	    route->handler == NULL || route->pattern[0] != '/') {
		snprintf(err, errsize, "route %s: pattern must start with '/'"
		    " and have a method and a handler",
		    route->pattern != NULL ? route->pattern : "(null)");
		return -1;
	}
	for (p = route->pattern; *p != '\0'; p++) {
		if (*p == '/')
			n++;
	}
	if ((cr->segs = calloc(n, sizeof *cr->segs)) == NULL)
		goto nomem;
	if (asprintf(&cr->label, "%s %s", route->method, route->pattern) == -1) {
		cr->label = NULL;
		goto nomem;
	}

	p = route->pattern + 1;
	for (;;) {
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		seg = &cr->segs[cr->nsegs++];
		if (len >= 2 && p[0] == '{' && p[len - 1] == '}') {
			colon = memchr(p, ':', len);
			if (colon != NULL) {
				if ((size_t)(p + len - colon) != 5 ||
				    strncmp(colon, ":int}", 5) != 0) {
					snprintf(err, errsize, "route %s: only "
					    ":int may follow a parameter name",
					    route->pattern);
					return -1;
				}
				seg->param = 2;
				seg->text = strndup(p + 1,
				    (size_t)(colon - p - 1));
			} else {
				seg->param = 1;
				seg->text = strndup(p + 1, len - 2);
			}
			if (seg->text == NULL)
				goto nomem;
			if (seg->text[0] == '\0' ||
			    ++nparams > HTTP_MAX_PARAMS) {
				snprintf(err, errsize, "route %s: empty "
				    "parameter name or too many parameters",
				    route->pattern);
				return -1;
			}
		} else {
			if (memchr(p, '{', len) != NULL ||
			    memchr(p, '}', len) != NULL) {
				snprintf(err, errsize, "route %s: a parameter "
				    "must be a whole segment", route->pattern);
				return -1;
			}
			if ((seg->text = strndup(p, len)) == NULL)
				goto nomem;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	return 0;
nomem:
	snprintf(err, errsize, "out of memory");
	return -1;
}

/*
 * Parse a {name:int} segment: digits only, no leading zero, at most 18
 * digits. -1 when it is not one.
 */
static int64_t
http_route_parse_id(const char *s, size_t len)
{
	int64_t	v = 0;
	size_t	i;

	if (len == 0 || len > 18 || (s[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * Match path against a compiled route. When req is not NULL, store the
 * parameters in it. Returns 1 on a match, 0 otherwise, -1 out of memory.
 */
static int
http_route_match(const struct http_croute *cr, const char *path,
    struct http_request *req)
{
	const char	*p, *end;
	size_t		 i, len, np = 0;
	int64_t		 id;

	if (path[0] != '/')
		return 0;
	p = path + 1;
	for (i = 0; i < cr->nsegs; i++) {
		if (p == NULL)
			return 0;
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		switch (cr->segs[i].param) {
		case 0:
			if (strlen(cr->segs[i].text) != len ||
			    memcmp(cr->segs[i].text, p, len) != 0)
				return 0;
			break;
		case 1:		/* {name}: any segment but an empty one */
		case 2:		/* {name:int}: a decimal id */
			id = -1;
			if (cr->segs[i].param == 1 ? len == 0 :
			    (id = http_route_parse_id(p, len)) == -1)
				return 0;
			if (req != NULL) {
				if ((req->params[np] = strndup(p, len)) == NULL)
					return -1;
				req->param_ints[np] = id;
			}
			np++;
			break;
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return p == NULL;
}

/* Tell whether a route's method serves a request's method. */
static int
http_route_method_matches(const char *route_method, const char *method)
{
	if (strcmp(route_method, method) == 0)
		return 1;
	return strcmp(method, "HEAD") == 0 && strcmp(route_method, "GET") == 0;
}

/* Append a method to the Allow list unless it is there already. */
static void
http_route_allow_add(char *allow, size_t size, const char *method)
{
	const char	*p = allow;
	size_t		 len = strlen(method);

	while ((p = strstr(p, method)) != NULL) {
		if ((p == allow || p[-1] == ' ') &&
		    (p[len] == ',' || p[len] == '\0'))
			return;
		p += len;
	}
	if (*allow != '\0')
		strncat(allow, ", ", size - strlen(allow) - 1);
	strncat(allow, method, size - strlen(allow) - 1);
}

/*
 * Find the route for a request. Sets req->croute and its parameters, or
 * req->error to 404 or 405 (with req->allow). -1 when out of memory.
 */
int
http_route_request(struct http_server *srv, struct http_request *req)
{
	size_t	i;
	int	found = 0, r;

	for (i = 0; i < srv->nroutes; i++) {
		struct http_croute *cr = &srv->routes[i];

		if (!http_route_match(cr, req->path, NULL))
			continue;
		found = 1;
		if (!http_route_method_matches(cr->route->method,
		    req->method)) {
			http_route_allow_add(req->allow, sizeof req->allow,
			    cr->route->method);
			if (strcmp(cr->route->method, "GET") == 0)
				http_route_allow_add(req->allow,
				    sizeof req->allow, "HEAD");
			continue;
		}
		if ((r = http_route_match(cr, req->path, req)) != 1)
			return r == -1 ? -1 : 0;
		req->croute = cr;
		return 0;
	}
	req->error = found ? 405 : 404;
	return 0;
}
