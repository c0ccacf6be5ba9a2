/*
 * http/request.c: what a handler reads of its request, and a request's end.
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

#include <sys/socket.h>

#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http/http_int.h"
#include "util/errbuf.h"
#include "util/spell.h"

/* Return the request's method. */
const char *
http_request_method(const struct http_request *req)
{
	return req->method;
}

/* Return the request's path (without the query). */
const char *
http_request_path(const struct http_request *req)
{
	return req->path;
}

/* Return the matched route. */
const struct http_route *
http_request_route(const struct http_request *req)
{
	return req->croute != NULL ? req->croute->route : NULL;
}

/* Find a parameter's index in the matched pattern; -1 if none. */
static int
http_request_param_index(const struct http_request *req, const char *name)
{
	size_t	i;
	int	np = 0;

	if (req->croute == NULL)
		return -1;
	for (i = 0; i < req->croute->nsegs; i++) {
		if (req->croute->segs[i].param == 0)
			continue;
		if (strcmp(req->croute->segs[i].text, name) == 0)
			return np;
		np++;
	}
	return -1;
}

/* Return a path parameter's text. */
const char *
http_request_param(const struct http_request *req, const char *name)
{
	int	i = http_request_param_index(req, name);

	return i == -1 ? NULL : req->params[i];
}

/* Return a {name:int} parameter's value. */
int64_t
http_request_param_int(const struct http_request *req, const char *name)
{
	int	i = http_request_param_index(req, name);

	return i == -1 ? -1 : req->param_ints[i];
}

/* Return a query argument. */
const char *
http_request_query(const struct http_request *req, const char *name)
{
	const char	*value = NULL;
	size_t		 len = 0;

	if (MHD_lookup_connection_value_n(req->conn, MHD_GET_ARGUMENT_KIND,
	    name, strlen(name), &value, &len) != MHD_YES)
		return NULL;
	return value != NULL ? value : "";
}

/* Most names in a route's list of query parameters. */
#define QUERY_MAX_NAMES	16

struct query_check {
	const char	*names[QUERY_MAX_NAMES];
	size_t		 n;
	const char	*unknown;
};

/* Note the first query parameter that is not a known name. */
static mhd_result
query_check_one(void *cls, enum MHD_ValueKind kind, const char *key,
    const char *value)
{
	struct query_check	*qc = cls;
	size_t			 i;

	(void)kind;
	(void)value;
	for (i = 0; i < qc->n; i++)
		if (strcmp(qc->names[i], key) == 0)
			return MHD_YES;
	qc->unknown = key;
	return MHD_NO;
}

/* Check the query's parameter names. */
int
http_request_query_check(const struct http_request *req, const char *known,
    char *why, size_t whysize)
{
	struct query_check	 qc = { .n = 0 };
	char			 list[256], *p, *save = NULL;

	snprintf(list, sizeof list, "%s", known);
	for (p = strtok_r(list, " ", &save); p != NULL && qc.n <
	    QUERY_MAX_NAMES; p = strtok_r(NULL, " ", &save))
		qc.names[qc.n++] = p;
	MHD_get_connection_values(req->conn, MHD_GET_ARGUMENT_KIND,
	    query_check_one, &qc);
	if (qc.unknown == NULL)
		return 0;
	if (qc.n == 0)
		return errbuf_set(why, whysize, "unknown query parameter %s: "
		    "this resource takes none", qc.unknown);
	return spell_unknown(why, whysize, "query parameter", qc.unknown,
	    qc.names, qc.n);
}

/* Return a request header. */
const char *
http_request_header(const struct http_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

/* Write the client's address (numeric, without the port). */
void
http_request_address(const struct http_request *req, char *buf, size_t size)
{
	const union MHD_ConnectionInfo	*ci;

	snprintf(buf, size, "unknown");
	ci = MHD_get_connection_info(req->conn,
	    MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci == NULL || ci->client_addr == NULL)
		return;
	if (getnameinfo(ci->client_addr, ci->client_addr->sa_family == AF_INET6 ?
	    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in), buf,
	    (socklen_t)size, NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(buf, size, "unknown");
}

/* Return the body. */
const char *
http_request_body(const struct http_request *req, size_t *len)
{
	if (len != NULL)
		*len = req->body_len;
	return req->body != NULL ? req->body : "";
}

/*
 * Return the quality the Accept header gives to type/subtype: the q of the
 * most specific range that matches it, 0 if none.
 */
static double
http_request_accept_quality(const char *accept, const char *type,
    const char *sub)
{
	const char	*p = accept, *end, *semi, *slash, *q;
	double		 best = 0.0, quality;
	int		 spec, best_spec = -1;
	size_t		 tlen, slen, len;

	while (*p != '\0') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		semi = memchr(p, ';', len);
		slash = memchr(p, '/', semi != NULL ? (size_t)(semi - p) : len);
		if (slash == NULL)
			goto next;
		tlen = (size_t)(slash - p);
		slen = (size_t)((semi != NULL ? semi : p + len) - slash - 1);
		while (slen > 0 && slash[slen] == ' ')
			slen--;
		if (tlen == 1 && p[0] == '*')
			spec = 0;
		else if (tlen == strlen(type) &&
		    strncasecmp(p, type, tlen) == 0) {
			if (slen == 1 && slash[1] == '*')
				spec = 1;
			else if (slen == strlen(sub) &&
			    strncasecmp(slash + 1, sub, slen) == 0)
				spec = 2;
			else
				goto next;
		} else
			goto next;
		quality = 1.0;
		if (semi != NULL) {
			q = semi;
			while ((q = memchr(q, 'q', (size_t)(p + len - q))) !=
			    NULL) {
				if ((q[-1] == ';' || q[-1] == ' ') &&
				    q[1] == '=') {
					quality = strtod(q + 2, NULL);
					break;
				}
				q++;
			}
		}
		if (spec > best_spec) {
			best_spec = spec;
			best = quality;
		}
next:
		if (end == NULL)
			break;
		p = end + 1;
	}
	return best;
}

/* Tell whether the client prefers text/plain to application/json. */
bool
http_request_wants_text(const struct http_request *req)
{
	const char	*accept;

	accept = http_request_header(req, MHD_HTTP_HEADER_ACCEPT);
	if (accept == NULL)
		return false;
	return http_request_accept_quality(accept, "text", "plain") >
	    http_request_accept_quality(accept, "application", "json");
}

/* Parse the body as a JSON object, or answer 400/415. */
json_t *
http_request_json(const struct http_request *req, struct http_response *resp)
{
	const char	*ct;
	json_error_t	 jerr;
	json_t		*v;
	size_t		 len;

	/*
	 * JSON, or no type; also curl's default for -d
	 * (application/x-www-form-urlencoded), so that
	 * `curl -d '{"name":"alice"}' URL` just works.
	 */
	ct = http_request_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (ct != NULL) {
		len = strcspn(ct, "; ");
		if (!((len == strlen("application/json") &&
		    strncasecmp(ct, "application/json", len) == 0) ||
		    (len == strlen("application/x-www-form-urlencoded") &&
		    strncasecmp(ct, "application/x-www-form-urlencoded",
		    len) == 0))) {
			http_respond_error(resp, 415, "unsupported-media-type",
			    "the body must be application/json");
			return NULL;
		}
	}
	v = json_loadb(req->body != NULL ? req->body : "", req->body_len,
	    JSON_REJECT_DUPLICATES, &jerr);
	if (v == NULL) {
		http_respond_error(resp, 400, "bad-request",
		    "invalid JSON at line %d, column %d: %s", jerr.line,
		    jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(v)) {
		json_decref(v);
		http_respond_error(resp, 400, "bad-request",
		    "the body must be a JSON object");
		return NULL;
	}
	return v;
}

/* Free a request's state. */
void
http_request_free(struct http_request *req)
{
	size_t	i;

	if (req == NULL)
		return;
	for (i = 0; i < HTTP_MAX_PARAMS; i++)
		free(req->params[i]);
	if (req->dresp != NULL) {
		http_response_clear(req->dresp);
		free(req->dresp);
	}
	free(req->path);
	free(req->body);
	free(req);
}
