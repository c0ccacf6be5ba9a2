/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * The HTTP server: route table dispatch over libmicrohttpd; see http.h.
 *
 * libmicrohttpd calls http_access() several times per request: once when
 * the headers are in (we match the route, check the token and the declared
 * length), once per piece of body, and once more when the request is
 * complete, where the handler runs and the answer is queued. Queueing on
 * that later call, not the first, is what keeps the connection alive. An
 * error found on the first call is answered at once only when a body
 * follows that we will not read (the connection then closes); otherwise it
 * waits for the last call like any answer.
 */

#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <sodium.h>

#include "http/http.h"
#include "util/log.h"
#include "util/metrics.h"

#if MHD_VERSION >= 0x00097002
typedef enum MHD_Result mhd_result;
#else
typedef int mhd_result;
#endif

/* Body bytes read and dropped after a 413 before the connection is cut. */
#define HTTP_DISCARD_MAX	(1024 * 1024)

/* Status codes counted one by one in /metrics; others count as "other". */
static const unsigned http_counted_status[] = {
	200, 201, 202, 204, 301, 302, 304, 400, 401, 403, 404, 405, 406, 409,
	410, 413, 415, 422, 429, 431, 500, 503
};
#define HTTP_NSTATUS	(sizeof http_counted_status / \
			    sizeof http_counted_status[0] + 1)

/* One segment of a compiled pattern. */
struct http_segment {
	char	*text;		/* literal text, or the parameter's name */
	int	 param;		/* 0 literal, 1 {name}, 2 {name:int} */
};

/* A route row with its pattern split into segments, and its counters. */
struct http_croute {
	const struct http_route	*route;
	struct http_segment	*segs;
	size_t			 nsegs;
	char			*label;		/* "GET /healthz" */
	_Atomic uint64_t	 count[HTTP_NSTATUS];
};

struct http_server {
	struct MHD_Daemon	*mhd;
	int			 fd;
	unsigned		 port;
	struct http_options	 opts;
	unsigned char		 token_hash[crypto_generichash_BYTES];
	int			 have_token;
	struct http_croute	*routes;
	size_t			 nroutes;
	struct http_route	 builtin[2];
	_Atomic uint64_t	 unmatched[HTTP_NSTATUS];
	atomic_int		 inflight;
	atomic_int		 draining;
	atomic_bool		 log_requests;
	void			*user;
	/* Workers for slow handlers, and their queue of suspended requests. */
	pthread_t		*workers;
	unsigned		 nworkers;
	pthread_mutex_t		 wlock;
	pthread_cond_t		 wcond;
	struct http_request	*whead, *wtail;
	bool			 wstop;
};

struct http_response {
	struct http_request	*req;
	unsigned		 status;
	char			*content_type;
	char			*data;
	size_t			 len;
	int			 has_fd;	/* the body is a file: */
	int			 fd;		/* owned until queued */
	uint64_t		 fd_size;
	char			**headers;	/* name, value, name, ... */
	size_t			 nheaders;
	int			 set;
};

struct http_request {
	struct http_server	*srv;
	struct MHD_Connection	*conn;
	const char		*method;
	char			*path;
	struct http_croute	*croute;
	char			*params[HTTP_MAX_PARAMS];
	int64_t			 param_ints[HTTP_MAX_PARAMS];
	char			*body;
	size_t			 body_len;
	size_t			 body_cap;
	size_t			 discarded;
	unsigned		 error;		/* pending error status */
	char			 allow[128];	/* for 405 */
	int			 queued;
	struct timespec		 start;
	/* A slow request: queued for a worker (1), answered by it (2). */
	atomic_int		 deferred;
	struct http_response	*dresp;
	struct http_request	*wnext;
};

static void	http_healthz(struct http_request *, struct http_response *,
		    void *);
static void	http_metrics(struct http_request *, struct http_response *,
		    void *);
static void	http_mhd_log(void *, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));

/* Machine word for a status. */
const char *
http_status_code_word(unsigned status)
{
	switch (status) {
	case 400:
		return ("bad-request");
	case 401:
		return ("unauthorized");
	case 403:
		return ("forbidden");
	case 404:
		return ("not-found");
	case 405:
		return ("method-not-allowed");
	case 409:
		return ("conflict");
	case 413:
		return ("payload-too-large");
	case 415:
		return ("unsupported-media-type");
	case 422:
		return ("unprocessable");
	case 431:
		return ("headers-too-large");
	case 500:
		return ("internal");
	}
	return ("error");
}

/* Index of a status in the counters. */
static size_t
http_status_index(unsigned status)
{
	size_t	i;

	for (i = 0; i < HTTP_NSTATUS - 1; i++) {
		if (http_counted_status[i] == status)
			return (i);
	}
	return (HTTP_NSTATUS - 1);
}

/* Free a compiled route's parts. */
static void
http_croute_clear(struct http_croute *cr)
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
static int
http_compile(struct http_croute *cr, const struct http_route *route,
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
		return (-1);
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
					return (-1);
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
				return (-1);
			}
		} else {
			if (memchr(p, '{', len) != NULL ||
			    memchr(p, '}', len) != NULL) {
				snprintf(err, errsize, "route %s: a parameter "
				    "must be a whole segment", route->pattern);
				return (-1);
			}
			if ((seg->text = strndup(p, len)) == NULL)
				goto nomem;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	return (0);
nomem:
	snprintf(err, errsize, "out of memory");
	return (-1);
}

/*
 * Parse a {name:int} segment: digits only, no leading zero, at most 18
 * digits. -1 when it is not one.
 */
static int64_t
http_parse_id(const char *s, size_t len)
{
	int64_t	v = 0;
	size_t	i;

	if (len == 0 || len > 18 || (s[0] == '0' && len > 1))
		return (-1);
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		v = v * 10 + (s[i] - '0');
	}
	return (v);
}

/*
 * Match path against a compiled route. When req is not NULL, store the
 * parameters in it. Returns 1 on a match, 0 otherwise, -1 out of memory.
 */
static int
http_match(const struct http_croute *cr, const char *path,
    struct http_request *req)
{
	const char	*p, *end;
	size_t		 i, len, np = 0;
	int64_t		 id;

	if (path[0] != '/')
		return (0);
	p = path + 1;
	for (i = 0; i < cr->nsegs; i++) {
		if (p == NULL)
			return (0);
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		switch (cr->segs[i].param) {
		case 0:
			if (strlen(cr->segs[i].text) != len ||
			    memcmp(cr->segs[i].text, p, len) != 0)
				return (0);
			break;
		case 1:
			if (len == 0)
				return (0);
			if (req != NULL) {
				if ((req->params[np] = strndup(p, len)) == NULL)
					return (-1);
				req->param_ints[np] = -1;
			}
			np++;
			break;
		case 2:
			if ((id = http_parse_id(p, len)) == -1)
				return (0);
			if (req != NULL) {
				if ((req->params[np] = strndup(p, len)) == NULL)
					return (-1);
				req->param_ints[np] = id;
			}
			np++;
			break;
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return (p == NULL);
}

/* Tell whether a route's method serves a request's method. */
static int
http_method_matches(const char *route_method, const char *method)
{
	if (strcmp(route_method, method) == 0)
		return (1);
	return (strcmp(method, "HEAD") == 0 && strcmp(route_method, "GET") == 0);
}

/* Append a method to the Allow list unless it is there already. */
static void
http_allow_add(char *allow, size_t size, const char *method)
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
static int
http_route_request(struct http_server *srv, struct http_request *req)
{
	size_t	i;
	int	found = 0, r;

	for (i = 0; i < srv->nroutes; i++) {
		struct http_croute *cr = &srv->routes[i];

		if (!http_match(cr, req->path, NULL))
			continue;
		found = 1;
		if (!http_method_matches(cr->route->method, req->method)) {
			http_allow_add(req->allow, sizeof req->allow,
			    cr->route->method);
			if (strcmp(cr->route->method, "GET") == 0)
				http_allow_add(req->allow, sizeof req->allow,
				    "HEAD");
			continue;
		}
		if ((r = http_match(cr, req->path, req)) != 1)
			return (r == -1 ? -1 : 0);
		req->croute = cr;
		return (0);
	}
	req->error = found ? 405 : 404;
	return (0);
}

/* Free a response's contents. */
static void
http_response_clear(struct http_response *resp)
{
	size_t	i;

	free(resp->content_type);
	free(resp->data);
	if (resp->has_fd)
		close(resp->fd);
	resp->has_fd = 0;
	for (i = 0; i < resp->nheaders * 2; i++)
		free(resp->headers[i]);
	free(resp->headers);
	resp->content_type = NULL;
	resp->data = NULL;
	resp->headers = NULL;
	resp->nheaders = 0;
	resp->len = 0;
	resp->set = 0;
}

/* Answer with a file's bytes, from its offset 0; takes the descriptor. */
void
http_respond_fd(struct http_response *resp, unsigned status,
    const char *content_type, int fd, uint64_t size)
{
	http_response_clear(resp);
	resp->status = status;
	resp->set = 1;
	resp->has_fd = 1;
	resp->fd = fd;
	resp->fd_size = size;
	if ((resp->content_type = strdup(content_type)) == NULL) {
		log_warnx("http: out of memory building a response");
		http_response_clear(resp);
	}
}

/* Answer with bytes of a content type. */
void
http_respond_data(struct http_response *resp, unsigned status,
    const char *content_type, const void *data, size_t len)
{
	http_response_clear(resp);
	resp->status = status;
	resp->set = 1;
	if ((resp->content_type = strdup(content_type)) == NULL ||
	    (resp->data = malloc(len + 1)) == NULL) {
		log_warnx("http: out of memory building a response");
		http_response_clear(resp);
		return;
	}
	if (len > 0)
		memcpy(resp->data, data, len);
	resp->data[len] = '\0';
	resp->len = len;
}

/* Answer with text/plain. */
void
http_respond_text(struct http_response *resp, unsigned status,
    const char *text)
{
	http_respond_data(resp, status, "text/plain; charset=utf-8", text,
	    strlen(text));
}

/* Answer with a JSON value, stealing the reference. */
void
http_respond_json(struct http_response *resp, unsigned status, json_t *body)
{
	char	*text;

	if (body == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	text = json_dumps(body, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(body);
	if (text == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	http_respond_data(resp, status, "application/json", text,
	    strlen(text));
	/* A final newline is kind to terminals (curl). */
	if (resp->data != NULL) {
		char *p = realloc(resp->data, resp->len + 2);

		if (p != NULL) {
			resp->data = p;
			p[resp->len++] = '\n';
			p[resp->len] = '\0';
		}
	}
	free(text);
}

/* Answer with an error, JSON or text/plain as the request prefers. */
void
http_respond_error(struct http_response *resp, unsigned status,
    const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	 message[512], *text = NULL;
	json_t	*body;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);

	if (resp->req != NULL && http_request_wants_text(resp->req)) {
		if (asprintf(&text, "error: %s\n", message) == -1) {
			http_response_clear(resp);
			resp->status = status;
			resp->set = 1;
			return;
		}
		http_respond_data(resp, status, "text/plain; charset=utf-8",
		    text, strlen(text));
		free(text);
		return;
	}
	body = json_pack("{s:{s:s,s:s}}", "error", "code", code,
	    "message", message);
	if (body == NULL) {
		/* Not valid UTF-8, most likely; say so without it. */
		body = json_pack("{s:{s:s,s:s}}", "error", "code", code,
		    "message", "(message not valid UTF-8)");
	}
	text = body != NULL ? json_dumps(body, JSON_COMPACT |
	    JSON_ENSURE_ASCII) : NULL;
	json_decref(body);
	if (text == NULL) {
		http_response_clear(resp);
		resp->status = status;
		resp->set = 1;
		return;
	}
	http_respond_data(resp, status, "application/json", text,
	    strlen(text));
	free(text);
	if (resp->data != NULL) {
		char *p = realloc(resp->data, resp->len + 2);

		if (p != NULL) {
			resp->data = p;
			p[resp->len++] = '\n';
			p[resp->len] = '\0';
		}
	}
}

/* Add a header to the answer. */
void
http_response_header(struct http_response *resp, const char *name,
    const char *value)
{
	char	**h;

	h = realloc(resp->headers, (resp->nheaders + 1) * 2 * sizeof *h);
	if (h == NULL)
		return;
	resp->headers = h;
	h[resp->nheaders * 2] = strdup(name);
	h[resp->nheaders * 2 + 1] = strdup(value);
	if (h[resp->nheaders * 2] == NULL || h[resp->nheaders * 2 + 1] == NULL) {
		free(h[resp->nheaders * 2]);
		free(h[resp->nheaders * 2 + 1]);
		return;
	}
	resp->nheaders++;
}

/* Request accessors. */
const char *
http_request_method(const struct http_request *req)
{
	return (req->method);
}

/* Return the request's path (without the query). */
const char *
http_request_path(const struct http_request *req)
{
	return (req->path);
}

/* Return the matched route. */
const struct http_route *
http_request_route(const struct http_request *req)
{
	return (req->croute != NULL ? req->croute->route : NULL);
}

/* Find a parameter's index in the matched pattern; -1 if none. */
static int
http_param_index(const struct http_request *req, const char *name)
{
	size_t	i;
	int	np = 0;

	if (req->croute == NULL)
		return (-1);
	for (i = 0; i < req->croute->nsegs; i++) {
		if (req->croute->segs[i].param == 0)
			continue;
		if (strcmp(req->croute->segs[i].text, name) == 0)
			return (np);
		np++;
	}
	return (-1);
}

/* Return a path parameter's text. */
const char *
http_request_param(const struct http_request *req, const char *name)
{
	int	i = http_param_index(req, name);

	return (i == -1 ? NULL : req->params[i]);
}

/* Return a {name:int} parameter's value. */
int64_t
http_request_param_int(const struct http_request *req, const char *name)
{
	int	i = http_param_index(req, name);

	return (i == -1 ? -1 : req->param_ints[i]);
}

/* Return a query argument. */
const char *
http_request_query(const struct http_request *req, const char *name)
{
	const char	*value = NULL;
	size_t		 len = 0;

	if (MHD_lookup_connection_value_n(req->conn, MHD_GET_ARGUMENT_KIND,
	    name, strlen(name), &value, &len) != MHD_YES)
		return (NULL);
	return (value != NULL ? value : "");
}

/* Return a request header. */
const char *
http_request_header(const struct http_request *req, const char *name)
{
	return (MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name));
}

/* Return the body. */
const char *
http_request_body(const struct http_request *req, size_t *len)
{
	if (len != NULL)
		*len = req->body_len;
	return (req->body != NULL ? req->body : "");
}

/*
 * The quality the Accept header gives to type/subtype: the q of the most
 * specific range that matches it, 0 if none, 1 without an Accept header.
 */
static double
http_accept_quality(const char *accept, const char *type, const char *sub)
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
	return (best);
}

/* Tell whether the client prefers text/plain to application/json. */
bool
http_request_wants_text(const struct http_request *req)
{
	const char	*accept;

	accept = http_request_header(req, MHD_HTTP_HEADER_ACCEPT);
	if (accept == NULL)
		return (false);
	return (http_accept_quality(accept, "text", "plain") >
	    http_accept_quality(accept, "application", "json"));
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
			return (NULL);
		}
	}
	v = json_loadb(req->body != NULL ? req->body : "", req->body_len,
	    JSON_REJECT_DUPLICATES, &jerr);
	if (v == NULL) {
		http_respond_error(resp, 400, "bad-request",
		    "invalid JSON at line %d, column %d: %s", jerr.line,
		    jerr.column, jerr.text);
		return (NULL);
	}
	if (!json_is_object(v)) {
		json_decref(v);
		http_respond_error(resp, 400, "bad-request",
		    "the body must be a JSON object");
		return (NULL);
	}
	return (v);
}

/* Check the Authorization header against the admin token. */
static int
http_check_admin(struct http_server *srv, struct http_request *req)
{
	const char	*auth;
	unsigned char	 hash[crypto_generichash_BYTES];

	if (!srv->have_token)
		return (0);
	auth = http_request_header(req, MHD_HTTP_HEADER_AUTHORIZATION);
	if (auth == NULL || strncasecmp(auth, "Bearer ", 7) != 0)
		return (0);
	auth += 7;
	while (*auth == ' ')
		auth++;
	/* Hashing first makes the comparison's time independent of length. */
	crypto_generichash(hash, sizeof hash, (const unsigned char *)auth,
	    strlen(auth), NULL, 0);
	return (sodium_memcmp(hash, srv->token_hash, sizeof hash) == 0);
}

/* Build the MHD response from ours, queue it and count it. */
static mhd_result
http_queue(struct http_server *srv, struct http_request *req,
    struct http_response *resp)
{
	struct MHD_Response	*mr;
	mhd_result		 ret;
	struct timespec		 now;
	size_t			 i, idx;
	double			 ms;

	if (!resp->set || (resp->data == NULL && !resp->has_fd &&
	    resp->status < 500)) {
		if (resp->set)
			log_warnx("http: %s %s: response lost (out of "
			    "memory)", req->method, req->path);
		else
			log_warnx("http: %s %s: handler gave no response",
			    req->method, req->path);
		http_respond_error(resp, 500, "internal",
		    "the server failed to answer");
	}
	if (resp->has_fd) {
		mr = MHD_create_response_from_fd64(resp->fd_size, resp->fd);
		if (mr != NULL)
			resp->has_fd = 0;	/* MHD closes it */
	} else if (resp->data != NULL) {
		mr = MHD_create_response_from_buffer(resp->len, resp->data,
		    MHD_RESPMEM_MUST_FREE);
		if (mr != NULL)
			resp->data = NULL;	/* MHD frees it */
	} else
		mr = MHD_create_response_from_buffer(0, (void *)"",
		    MHD_RESPMEM_PERSISTENT);
	if (mr == NULL)
		return (MHD_NO);
	if (resp->content_type != NULL)
		MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE,
		    resp->content_type);
	for (i = 0; i < resp->nheaders; i++)
		MHD_add_response_header(mr, resp->headers[i * 2],
		    resp->headers[i * 2 + 1]);
	if (atomic_load(&srv->draining))
		MHD_add_response_header(mr, MHD_HTTP_HEADER_CONNECTION,
		    "close");
	ret = MHD_queue_response(req->conn, resp->status, mr);
	MHD_destroy_response(mr);
	req->queued = 1;

	idx = http_status_index(resp->status);
	if (req->croute != NULL)
		atomic_fetch_add(&req->croute->count[idx], 1);
	else
		atomic_fetch_add(&srv->unmatched[idx], 1);

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (double)(now.tv_sec - req->start.tv_sec) * 1e3 +
	    (double)(now.tv_nsec - req->start.tv_nsec) / 1e6;
	if (atomic_load(&srv->log_requests))
		log_info("%s %s %u %.1fms", req->method, req->path,
		    resp->status, ms);
	else
		log_debug("%s %s %u %.1fms", req->method, req->path,
		    resp->status, ms);
	return (ret);
}

/* Answer a request's pending error in one place. */
static mhd_result
http_queue_error(struct http_server *srv, struct http_request *req)
{
	struct http_response	resp = { .req = req };
	mhd_result		ret;

	switch (req->error) {
	case 404:
		http_respond_error(&resp, 404, "not-found",
		    "no such resource: %s", req->path);
		break;
	case 405:
		http_respond_error(&resp, 405, "method-not-allowed",
		    "%s is not allowed on %s (allowed: %s)", req->method,
		    req->path, req->allow);
		http_response_header(&resp, MHD_HTTP_HEADER_ALLOW, req->allow);
		break;
	case 401:
		http_respond_error(&resp, 401, "unauthorized",
		    "this needs the admin token: "
		    "Authorization: Bearer TOKEN");
		http_response_header(&resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
		    "Bearer realm=\"corrchess\"");
		break;
	case 413:
		http_respond_error(&resp, 413, "payload-too-large",
		    "the request body is larger than %zu bytes",
		    srv->opts.max_body_size);
		break;
	case 431:
		http_respond_error(&resp, 431, "headers-too-large",
		    "the request line and headers are larger than %zu bytes",
		    srv->opts.max_header_size);
		break;
	default:
		http_respond_error(&resp, req->error,
		    http_status_code_word(req->error), "request failed");
		break;
	}
	ret = http_queue(srv, req, &resp);
	http_response_clear(&resp);
	return (ret);
}

/* Free a request's state. */
static void
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

/* Add up the size of one header line (name, ": ", value, CRLF). */
static mhd_result
http_header_size(void *cls, enum MHD_ValueKind kind, const char *key,
    const char *value)
{
	size_t	*total = cls;

	(void)kind;
	*total += strlen(key) + 4 + (value != NULL ? strlen(value) : 0);
	return (MHD_YES);
}

/* Set up a request on libmicrohttpd's first call for it. */
static mhd_result
http_begin(struct http_server *srv, struct MHD_Connection *conn,
    const char *url, const char *method, void **con_cls)
{
	struct http_request	*req;
	const char		*cl, *te;
	unsigned long long	 length = 0;
	size_t			 hsize;
	char			*end;
	int			 has_body = 0;

	if ((req = calloc(1, sizeof *req)) == NULL)
		return (MHD_NO);
	atomic_fetch_add(&srv->inflight, 1);
	*con_cls = req;
	req->srv = srv;
	req->conn = conn;
	req->method = method;
	clock_gettime(CLOCK_MONOTONIC, &req->start);
	if ((req->path = strdup(url)) == NULL)
		return (MHD_NO);

	/*
	 * libmicrohttpd refuses requests that overflow its per-connection
	 * memory (a little more than max_header_size); this makes the
	 * limit exact.
	 */
	hsize = strlen(method) + strlen(url) + 12;
	MHD_get_connection_values(conn, MHD_HEADER_KIND, http_header_size,
	    &hsize);
	if (hsize > srv->opts.max_header_size) {
		req->error = 431;
		return (MHD_YES);
	}

	if (http_route_request(srv, req) == -1)
		return (MHD_NO);
	if (req->error == 0 && req->croute->route->auth == HTTP_AUTH_ADMIN &&
	    !http_check_admin(srv, req))
		req->error = 401;

	cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_CONTENT_LENGTH);
	te = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (cl != NULL) {
		errno = 0;
		length = strtoull(cl, &end, 10);
		if (errno != 0 || end == cl)
			length = ULLONG_MAX;
		has_body = length > 0;
	}
	if (te != NULL)
		has_body = 1;
	if (cl != NULL && length > srv->opts.max_body_size && req->error == 0)
		req->error = 413;

	/*
	 * A doomed request with a body we will not read is answered now;
	 * libmicrohttpd then closes the connection instead of reading it.
	 */
	if (req->error != 0 && has_body &&
	    (req->error == 413 || length > srv->opts.max_body_size ||
	    cl == NULL))
		return (http_queue_error(srv, req));
	return (MHD_YES);
}

/* Take a piece of the body. */
static mhd_result
http_body(struct http_server *srv, struct http_request *req,
    const char *data, size_t *size)
{
	size_t	 need, cap;
	char	*p;

	if (req->error != 0) {
		req->discarded += *size;
		*size = 0;
		return (req->discarded > HTTP_DISCARD_MAX ? MHD_NO : MHD_YES);
	}
	if (req->body_len + *size > srv->opts.max_body_size) {
		req->error = 413;
		req->discarded += *size;
		*size = 0;
		return (MHD_YES);
	}
	need = req->body_len + *size + 1;
	if (need > req->body_cap) {
		cap = req->body_cap != 0 ? req->body_cap : 1024;
		while (cap < need)
			cap *= 2;
		if ((p = realloc(req->body, cap)) == NULL) {
			log_warnx("http: out of memory reading a body");
			return (MHD_NO);
		}
		req->body = p;
		req->body_cap = cap;
	}
	memcpy(req->body + req->body_len, data, *size);
	req->body_len += *size;
	req->body[req->body_len] = '\0';
	*size = 0;
	return (MHD_YES);
}

/*
 * Hand a slow request to the workers: suspend its connection until a
 * worker has run the handler. 0, or -1 to run it here instead.
 */
static int
http_defer(struct http_server *srv, struct http_request *req)
{
	if ((req->dresp = calloc(1, sizeof *req->dresp)) == NULL)
		return (-1);
	req->dresp->req = req;
	atomic_store(&req->deferred, 1);
	MHD_suspend_connection(req->conn);
	pthread_mutex_lock(&srv->wlock);
	req->wnext = NULL;
	if (srv->wtail != NULL)
		srv->wtail->wnext = req;
	else
		srv->whead = req;
	srv->wtail = req;
	pthread_cond_signal(&srv->wcond);
	pthread_mutex_unlock(&srv->wlock);
	return (0);
}

/* A worker: run slow handlers, then wake their connections. */
static void *
http_worker(void *arg)
{
	struct http_server	*srv = arg;
	struct http_request	*req;

	pthread_mutex_lock(&srv->wlock);
	for (;;) {
		while (srv->whead == NULL && !srv->wstop)
			pthread_cond_wait(&srv->wcond, &srv->wlock);
		if ((req = srv->whead) == NULL)
			break;
		if ((srv->whead = req->wnext) == NULL)
			srv->wtail = NULL;
		pthread_mutex_unlock(&srv->wlock);
		req->croute->route->handler(req, req->dresp, srv->user);
		atomic_store(&req->deferred, 2);
		MHD_resume_connection(req->conn);
		pthread_mutex_lock(&srv->wlock);
	}
	pthread_mutex_unlock(&srv->wlock);
	return (NULL);
}

/* Stop the workers after the requests already queued. */
static void
http_workers_stop(struct http_server *srv)
{
	unsigned	i;

	if (srv->nworkers == 0)
		return;
	pthread_mutex_lock(&srv->wlock);
	srv->wstop = true;
	pthread_cond_broadcast(&srv->wcond);
	pthread_mutex_unlock(&srv->wlock);
	for (i = 0; i < srv->nworkers; i++)
		pthread_join(srv->workers[i], NULL);
	srv->nworkers = 0;
}

/* Run the route's handler and queue its answer. */
static mhd_result
http_dispatch(struct http_server *srv, struct http_request *req)
{
	struct http_response	resp = { .req = req };
	mhd_result		ret;

	if (req->error != 0)
		return (http_queue_error(srv, req));
	if (srv->nworkers > 0 && (req->croute->route->flags &
	    HTTP_ROUTE_SLOW) && http_defer(srv, req) == 0)
		return (MHD_YES);
	req->croute->route->handler(req, &resp, srv->user);
	ret = http_queue(srv, req, &resp);
	http_response_clear(&resp);
	return (ret);
}

/* libmicrohttpd's access handler: see the comment at the top. */
static mhd_result
http_access(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls)
{
	struct http_server	*srv = cls;
	struct http_request	*req = *con_cls;

	(void)version;
	if (req == NULL)
		return (http_begin(srv, conn, url, method, con_cls));
	switch (atomic_load(&req->deferred)) {
	case 1:		/* still with a worker */
		*upload_data_size = 0;
		return (MHD_YES);
	case 2: {	/* a worker answered: queue it */
		mhd_result ret = http_queue(srv, req, req->dresp);

		http_response_clear(req->dresp);
		free(req->dresp);
		req->dresp = NULL;
		atomic_store(&req->deferred, 0);
		return (ret);
	}
	default:
		break;
	}
	if (req->queued) {
		*upload_data_size = 0;
		return (MHD_YES);
	}
	if (*upload_data_size != 0)
		return (http_body(srv, req, upload_data, upload_data_size));
	return (http_dispatch(srv, req));
}

/* libmicrohttpd's completion callback: free the request. */
static void
http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct http_server	*srv = cls;
	struct http_request	*req = *con_cls;

	(void)conn;
	(void)toe;
	if (req == NULL)
		return;
	*con_cls = NULL;
	http_request_free(req);
	atomic_fetch_sub(&srv->inflight, 1);
}

/* Send libmicrohttpd's messages to our log. */
static void
http_mhd_log(void *cls, const char *fmt, va_list ap)
{
	char	msg[512];
	size_t	len;

	(void)cls;
	vsnprintf(msg, sizeof msg, fmt, ap);
	len = strlen(msg);
	while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		msg[--len] = '\0';
	log_debug("http: libmicrohttpd: %s", msg);
}

/* GET /healthz: the server answers. */
static void
http_healthz(struct http_request *req, struct http_response *resp,
    void *user)
{
	(void)req;
	(void)user;
	http_respond_text(resp, 200, "ok\n");
}

/* GET /metrics: counters in the Prometheus text format. */
static void
http_metrics(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct http_server	*srv = req->srv;
	const union MHD_DaemonInfo *info;
	char			*text = NULL;
	size_t			 len = 0, i, j;
	uint64_t		 n;
	FILE			*fp;

	(void)user;
	if ((fp = open_memstream(&text, &len)) == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	fputs("# HELP corrchess_http_requests_total HTTP requests answered, "
	    "by route and status code.\n"
	    "# TYPE corrchess_http_requests_total counter\n", fp);
	for (i = 0; i <= srv->nroutes; i++) {
		for (j = 0; j < HTTP_NSTATUS; j++) {
			n = i < srv->nroutes ?
			    atomic_load(&srv->routes[i].count[j]) :
			    atomic_load(&srv->unmatched[j]);
			if (n == 0)
				continue;
			fprintf(fp, "corrchess_http_requests_total{route=\"%s\"",
			    i < srv->nroutes ? srv->routes[i].label :
			    "unmatched");
			if (j < HTTP_NSTATUS - 1)
				fprintf(fp, ",code=\"%u\"} %llu\n",
				    http_counted_status[j],
				    (unsigned long long)n);
			else
				fprintf(fp, ",code=\"other\"} %llu\n",
				    (unsigned long long)n);
		}
	}
	info = MHD_get_daemon_info(srv->mhd,
	    MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	fprintf(fp, "# HELP corrchess_http_connections Open HTTP "
	    "connections.\n# TYPE corrchess_http_connections gauge\n"
	    "corrchess_http_connections %u\n",
	    info != NULL ? info->num_connections : 0);
	/* This request is one of them. */
	fprintf(fp, "# HELP corrchess_http_requests_in_flight HTTP requests "
	    "being read or answered.\n"
	    "# TYPE corrchess_http_requests_in_flight gauge\n"
	    "corrchess_http_requests_in_flight %d\n",
	    atomic_load(&srv->inflight));
	metrics_write(fp);
	if (fclose(fp) != 0 || text == NULL) {
		free(text);
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	http_respond_data(resp, 200, "text/plain; version=0.0.4; "
	    "charset=utf-8", text, len);
	free(text);
}

/* Take the listening socket given in the options (socket activation). */
static int
http_listen_fd(struct http_server *srv, char *err, size_t errsize)
{
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	int			 fd = srv->opts.listen_fd, flags, on = 0;
	socklen_t		 onlen = sizeof on;

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &onlen) == -1) {
		snprintf(err, errsize, "fd %d: %s", fd, strerror(errno));
		return (-1);
	}
	if (!on) {
		snprintf(err, errsize, "fd %d: not a listening socket", fd);
		return (-1);
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    (flags = fcntl(fd, F_GETFD)) == -1 ||
	    fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1) {
		snprintf(err, errsize, "fd %d: %s", fd, strerror(errno));
		return (-1);
	}
	memset(&ss, 0, sizeof ss);
	srv->port = 0;
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == 0) {
		if (ss.ss_family == AF_INET)
			srv->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		else if (ss.ss_family == AF_INET6)
			srv->port = ntohs(
			    ((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	srv->fd = fd;
	return (0);
}

/* Open, bind and listen on the configured address. */
static int
http_listen(struct http_server *srv, char *err, size_t errsize)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t		 sslen;
	int			 fd = -1, one = 1, zero = 0;
	const char		*addr = srv->opts.address;

	memset(&ss, 0, sizeof ss);
	if (srv->opts.listen_fd > 0)
		return (http_listen_fd(srv, err, errsize));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)srv->opts.port);
		sslen = sizeof *sin;
	} else if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)srv->opts.port);
		sslen = sizeof *sin6;
	} else {
		snprintf(err, errsize, "%s is not an IPv4 or IPv6 address",
		    addr);
		return (-1);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (fd == -1) {
		snprintf(err, errsize, "socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	/* "::" takes IPv4 connections as well. */
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
	if (bind(fd, (struct sockaddr *)&ss, sslen) == -1) {
		snprintf(err, errsize, "bind %s port %u: %s", addr,
		    srv->opts.port, strerror(errno));
		goto fail;
	}
	if (listen(fd, 128) == -1) {
		snprintf(err, errsize, "listen: %s", strerror(errno));
		goto fail;
	}
	sslen = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == -1) {
		snprintf(err, errsize, "getsockname: %s", strerror(errno));
		goto fail;
	}
	srv->port = ntohs(ss.ss_family == AF_INET ? sin->sin_port :
	    sin6->sin6_port);
	srv->fd = fd;
	return (0);
fail:
	if (fd != -1)
		close(fd);
	return (-1);
}

/* Free a server that is not running (or no longer). */
static void
http_server_free(struct http_server *srv)
{
	size_t	i;

	if (srv == NULL)
		return;
	http_workers_stop(srv);
	free(srv->workers);
	pthread_mutex_destroy(&srv->wlock);
	pthread_cond_destroy(&srv->wcond);
	for (i = 0; i < srv->nroutes; i++)
		http_croute_clear(&srv->routes[i]);
	free(srv->routes);
	if (srv->fd != -1)
		close(srv->fd);
	free((char *)srv->opts.address);
	free(srv);
}

/* Start serving. */
struct http_server *
http_server_start(const struct http_options *opts,
    const struct http_route *routes, size_t nroutes, void *user,
    char *err, size_t errsize)
{
	struct http_server	*srv;
	size_t			 i, mem;
	unsigned int		 flags;

	if (sodium_init() == -1) {
		snprintf(err, errsize, "libsodium failed to start");
		return (NULL);
	}
	if ((srv = calloc(1, sizeof *srv)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return (NULL);
	}
	srv->fd = -1;
	srv->user = user;
	pthread_mutex_init(&srv->wlock, NULL);
	pthread_cond_init(&srv->wcond, NULL);
	srv->opts = *opts;
	srv->opts.admin_token = NULL;
	atomic_store(&srv->log_requests, opts->log_requests);
	if ((srv->opts.address = strdup(opts->address)) == NULL) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	if (opts->admin_token != NULL && *opts->admin_token != '\0') {
		crypto_generichash(srv->token_hash, sizeof srv->token_hash,
		    (const unsigned char *)opts->admin_token,
		    strlen(opts->admin_token), NULL, 0);
		srv->have_token = 1;
	}

	/* The caller's routes first, then the built-in ones. */
	srv->builtin[0] = (struct http_route){ "GET", "/healthz",
	    HTTP_AUTH_NONE, http_healthz, 0 };
	srv->builtin[1] = (struct http_route){ "GET", "/metrics",
	    HTTP_AUTH_NONE, http_metrics, 0 };
	srv->routes = calloc(nroutes + 2, sizeof *srv->routes);
	if (srv->routes == NULL) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	for (i = 0; i < nroutes + 2; i++) {
		srv->nroutes++;
		if (http_compile(&srv->routes[i], i < nroutes ? &routes[i] :
		    &srv->builtin[i - nroutes], err, errsize) != 0)
			goto fail;
	}

	if (http_listen(srv, err, errsize) != 0)
		goto fail;

	/* Room for the request line and headers, and the answer's headers. */
	mem = opts->max_header_size + 4096;
	flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC |
	    MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	srv->mhd = MHD_start_daemon(flags, 0, NULL, NULL,
	    http_access, srv,
	    MHD_OPTION_EXTERNAL_LOGGER, http_mhd_log, srv,
	    MHD_OPTION_LISTEN_SOCKET, srv->fd,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)opts->threads,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)opts->max_connections,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)opts->max_connections_per_ip,
	    MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)opts->connection_timeout,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, mem,
	    MHD_OPTION_NOTIFY_COMPLETED, http_completed, srv,
	    MHD_OPTION_END);
	if (srv->mhd == NULL) {
		snprintf(err, errsize, "libmicrohttpd failed to start on %s "
		    "port %u", opts->address, srv->port);
		goto fail;
	}
	if (opts->workers > 0 && (srv->workers = calloc(opts->workers,
	    sizeof *srv->workers)) != NULL) {
		for (i = 0; i < opts->workers; i++) {
			if (pthread_create(&srv->workers[i], NULL, http_worker,
			    srv) != 0)
				break;
			srv->nworkers++;
		}
		if (srv->nworkers < opts->workers)
			log_warnx("http: %u of %u worker threads started",
			    srv->nworkers, opts->workers);
	}
	return (srv);
fail:
	http_server_free(srv);
	return (NULL);
}

/* The port the server listens on. */
unsigned
http_server_port(const struct http_server *srv)
{
	return (srv->port);
}

/* Turn the per-request log lines on or off. */
void
http_server_set_log_requests(struct http_server *srv, bool on)
{
	atomic_store(&srv->log_requests, on);
}

/* Stop accepting, drain, close and free. */
void
http_server_stop(struct http_server *srv, unsigned drain_seconds)
{
	struct timespec	 start, now, pause = { 0, 10 * 1000 * 1000 };
	int		 fd;
	bool		 quiesced;

	if (srv == NULL)
		return;
	atomic_store(&srv->draining, 1);
	/*
	 * Stop listening at once (new connections are refused) but keep the
	 * descriptor open until libmicrohttpd has stopped: its threads may
	 * still be taking it out of their epoll sets, and a descriptor
	 * closed under them is fatal to libmicrohttpd.
	 */
	fd = MHD_quiesce_daemon(srv->mhd);
	quiesced = fd != -1 && fd == srv->fd;
	if (quiesced)
		shutdown(fd, SHUT_RDWR);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (atomic_load(&srv->inflight) > 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= (time_t)drain_seconds) {
			log_warnx("http: %d requests still running after %us;"
			    " closing them", atomic_load(&srv->inflight),
			    drain_seconds);
			break;
		}
		nanosleep(&pause, NULL);
	}
	/* Suspended connections must be resumed before MHD stops. */
	http_workers_stop(srv);
	MHD_stop_daemon(srv->mhd);
	srv->mhd = NULL;
	/* MHD closed the socket it was given unless quiesced; else we do. */
	if (!quiesced)
		srv->fd = -1;
	http_server_free(srv);
}
