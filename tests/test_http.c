/*
 * tests/test_http.c: tests of the HTTP server core over the wire.
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
 * Tests of the HTTP dispatcher (src/http/): each test starts the real
 * server on a free loopback port and talks to it over TCP with libcurl
 * (and a raw socket for the slow client), as a client would.
 */

#include "testutil.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#include <curl/curl.h>

#include "http/http.h"
#include "util/log.h"
#include "util/metrics.h"

#define TOKEN		"s3cret-admin-token-0123456789"
#define MAX_BODY	1024

struct reply {
	long	 status;
	char	*body;
	size_t	 len;
	char	 headers[4096];
	size_t	 hlen;
	long	 connects;
};

struct fixture {
	struct http_server	*srv;
	unsigned		 port;
	sem_t			 entered;	/* the slow handler started */
	sem_t			 release;	/* the slow handler may answer */
};

/* GET /api/v1/games/{id:int}: echo the id. */
static void
h_game(struct http_request *req, struct http_response *resp, void *user)
{
	(void)user;
	http_respond_json(resp, 200, json_pack("{s:I}", "id",
	    (json_int_t)http_request_param_int(req, "id")));
}

/* POST /api/v1/games/{id:int}/actions: echo the id and the body size. */
static void
h_actions(struct http_request *req, struct http_response *resp, void *user)
{
	size_t	len;

	(void)user;
	http_request_body(req, &len);
	http_respond_json(resp, 201, json_pack("{s:s,s:I}", "id",
	    http_request_param(req, "id"), "length", (json_int_t)len));
}

/* GET /api/v1/players/{name}: echo the name, as text or JSON. */
static void
h_player(struct http_request *req, struct http_response *resp, void *user)
{
	char	buf[256];

	(void)user;
	if (http_request_wants_text(req)) {
		snprintf(buf, sizeof buf, "player %s\n",
		    http_request_param(req, "name"));
		http_respond_text(resp, 200, buf);
		return;
	}
	http_respond_json(resp, 200, json_pack("{s:s}", "name",
	    http_request_param(req, "name")));
}

/* POST /api/v1/admin/ping: an admin-only route. */
static void
h_admin(struct http_request *req, struct http_response *resp, void *user)
{
	(void)req;
	(void)user;
	http_respond_text(resp, 200, "admin ok\n");
}

/* GET /api/v1/silent: a handler that forgets to answer. */
static void
h_silent(struct http_request *req, struct http_response *resp, void *user)
{
	(void)req;
	(void)resp;
	(void)user;
}

/* POST /api/v1/json: parse a JSON object and echo its "a". */
static void
h_json(struct http_request *req, struct http_response *resp, void *user)
{
	json_t	*v;

	(void)user;
	if ((v = http_request_json(req, resp)) == NULL)
		return;
	http_respond_json(resp, 200, json_pack("{s:O}", "a",
	    json_object_get(v, "a") != NULL ? json_object_get(v, "a") :
	    json_null()));
	json_decref(v);
}

/* GET /api/v1/echo: echo query argument q and header X-Test. */
static void
h_echo(struct http_request *req, struct http_response *resp, void *user)
{
	const char	*q = http_request_query(req, "q");
	const char	*x = http_request_header(req, "x-test");
	const char	*flag = http_request_query(req, "flag");
	char		 buf[512];

	(void)user;
	snprintf(buf, sizeof buf, "q=%s x=%s flag=%s\n", q ? q : "(none)",
	    x ? x : "(none)", flag ? (*flag ? flag : "(empty)") : "(none)");
	http_respond_text(resp, 200, buf);
	http_response_header(resp, "X-Echo", "yes");
}

/* GET /api/v1/slow: wait until the test releases it, then answer. */
static void
h_slow(struct http_request *req, struct http_response *resp, void *user)
{
	struct fixture	*fx = user;

	(void)req;
	sem_post(&fx->entered);
	sem_wait(&fx->release);
	http_respond_text(resp, 200, "slow ok\n");
}

static const struct http_route test_routes[] = {
	{ "GET", "/api/v1/games/{id:int}", HTTP_AUTH_NONE, h_game, 0 },
	{ "POST", "/api/v1/games/{id:int}/actions", HTTP_AUTH_NONE,
	  h_actions, 0 },
	{ "GET", "/api/v1/players/{name}", HTTP_AUTH_NONE, h_player, 0 },
	{ "POST", "/api/v1/admin/ping", HTTP_AUTH_ADMIN, h_admin, 0 },
	{ "GET", "/api/v1/silent", HTTP_AUTH_NONE, h_silent, 0 },
	{ "POST", "/api/v1/json", HTTP_AUTH_NONE, h_json, 0 },
	{ "GET", "/api/v1/echo", HTTP_AUTH_NONE, h_echo, 0 },
	{ "GET", "/api/v1/slow", HTTP_AUTH_NONE, h_slow, 0 },
	{ "GET", "/api/v1/deferred", HTTP_AUTH_NONE, h_slow,
	  HTTP_ROUTE_SLOW },
};

/* Start a server on a free loopback port. */
static int
setup(void **state)
{
	struct fixture		*fx;
	struct http_options	 opts = {
		.address = "127.0.0.1",
		.port = 0,
		.max_body_size = MAX_BODY,
		.max_header_size = 4096,
		.max_connections = 32,
		.connection_timeout = 1,
		.threads = 2,
		.workers = 2,
		.admin_token = TOKEN,
	};
	char			 err[256];

	fx = calloc(1, sizeof *fx);
	assert_non_null(fx);
	sem_init(&fx->entered, 0, 0);
	sem_init(&fx->release, 0, 0);
	fx->srv = http_server_start(&opts, test_routes,
	    sizeof test_routes / sizeof test_routes[0], fx, err, sizeof err);
	if (fx->srv == NULL)
		fail_msg("http_server_start: %s", err);
	fx->port = http_server_port(fx->srv);
	assert_int_not_equal(fx->port, 0);
	*state = fx;
	return 0;
}

/* Stop the server. */
static int
teardown(void **state)
{
	struct fixture	*fx = *state;

	http_server_stop(fx->srv, 5);
	sem_destroy(&fx->entered);
	sem_destroy(&fx->release);
	free(fx);
	metrics_reset();
	return 0;
}

/* Collect the body. */
static size_t
on_body(char *data, size_t size, size_t n, void *arg)
{
	struct reply	*r = arg;
	char		*p;

	p = realloc(r->body, r->len + size * n + 1);
	assert_non_null(p);
	r->body = p;
	memcpy(r->body + r->len, data, size * n);
	r->len += size * n;
	r->body[r->len] = '\0';
	return size * n;
}

/* Collect the headers. */
static size_t
on_header(char *data, size_t size, size_t n, void *arg)
{
	struct reply	*r = arg;
	size_t		 len = size * n;

	if (r->hlen + len < sizeof r->headers) {
		memcpy(r->headers + r->hlen, data, len);
		r->hlen += len;
		r->headers[r->hlen] = '\0';
	}
	return len;
}

/* Feed a body of 'x' bytes of a given length, in pieces (chunked). */
struct feed {
	size_t	left;
};

static size_t
on_read(char *buf, size_t size, size_t n, void *arg)
{
	struct feed	*f = arg;
	size_t		 len = size * n < f->left ? size * n : f->left;

	if (len > 100)
		len = 100;
	memset(buf, 'x', len);
	f->left -= len;
	return len;
}

/*
 * Send one request with handle h (NULL: a new one) and wait for the reply.
 * body NULL: none; chunked > 0: a chunked body of that many bytes.
 */
static void
request_with(CURL *h, unsigned port, const char *method, const char *path,
    const char *body, size_t chunked, const char *const *headers,
    struct reply *r)
{
	struct curl_slist	*hl = NULL;
	struct feed		 feed = { chunked };
	char			 url[512];
	CURLcode		 rc;
	int			 own = h == NULL;
	size_t			 i;

	memset(r, 0, sizeof *r);
	if (own)
		h = curl_easy_init();
	assert_non_null(h);
	snprintf(url, sizeof url, "http://127.0.0.1:%u%s", port, path);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(h, CURLOPT_NOBODY, strcmp(method, "HEAD") == 0);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 0L);
	if (body != NULL) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	} else if (chunked > 0) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
		curl_easy_setopt(h, CURLOPT_READDATA, &feed);
		curl_easy_setopt(h, CURLOPT_INFILESIZE, -1L);
		hl = curl_slist_append(hl, "Transfer-Encoding: chunked");
	}
	hl = curl_slist_append(hl, "Expect:");
	for (i = 0; headers != NULL && headers[i] != NULL; i++)
		hl = curl_slist_append(hl, headers[i]);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
	rc = curl_easy_perform(h);
	if (rc != CURLE_OK)
		fail_msg("%s %s: %s", method, path, curl_easy_strerror(rc));
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &r->connects);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
	curl_slist_free_all(hl);
	if (own)
		curl_easy_cleanup(h);
	if (r->body == NULL) {
		r->body = strdup("");
		assert_non_null(r->body);
	}
}

/* Send one request on a new connection. */
static void
request(unsigned port, const char *method, const char *path,
    const char *body, const char *const *headers, struct reply *r)
{
	request_with(NULL, port, method, path, body, 0, headers, r);
}

/* Send one request on a new connection; its status must be `status`. */
static void
request_status(unsigned port, const char *method, const char *path,
    const char *body, const char *const *headers, long status)
{
	struct reply	r;

	request(port, method, path, body, headers, &r);
	assert_int_equal(r.status, status);
	free(r.body);
}

/* Tell whether the reply has a header line (case-insensitive name). */
static int
has_header(const struct reply *r, const char *line)
{
	const char	*p = r->headers;
	size_t		 len = strlen(line);

	while ((p = strchr(p, '\n')) != NULL) {
		p++;
		if (strncasecmp(p, line, len) == 0 &&
		    (p[len] == '\r' || p[len] == '\n'))
			return 1;
	}
	return 0;
}

/* GET /healthz answers "ok". */
static void
test_healthz(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/healthz", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "ok\n");
	assert_true(has_header(&r, "Content-Type: text/plain; charset=utf-8"));
	free(r.body);
}

/* An unknown path is 404, JSON by default and text when asked. */
static void
test_not_found(void **state)
{
	static const char *const text[] = { "Accept: text/plain", NULL };
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/nope", NULL, NULL, &r);
	assert_int_equal(r.status, 404);
	assert_true(has_header(&r, "Content-Type: application/json"));
	assert_string_equal(r.body, "{\"error\":{\"code\":\"not-found\","
	    "\"message\":\"no such resource: /nope\"}}\n");
	free(r.body);

	request(fx->port, "GET", "/nope", NULL, text, &r);
	assert_int_equal(r.status, 404);
	assert_true(has_header(&r, "Content-Type: text/plain; charset=utf-8"));
	assert_string_equal(r.body, "error: no such resource: /nope\n");
	free(r.body);

	/* A trailing slash is another path. */
	request_status(fx->port, "GET", "/healthz/", NULL, NULL, 404);
}

/* A known path with another method is 405 with an Allow header. */
static void
test_method_not_allowed(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/api/v1/games/7/actions", NULL, NULL, &r);
	assert_int_equal(r.status, 405);
	assert_true(has_header(&r, "Allow: POST"));
	assert_non_null(strstr(r.body, "\"code\":\"method-not-allowed\""));
	free(r.body);

	request(fx->port, "DELETE", "/healthz", NULL, NULL, &r);
	assert_int_equal(r.status, 405);
	assert_true(has_header(&r, "Allow: GET, HEAD"));
	free(r.body);

	/* HEAD is served by the GET route, without a body. */
	request(fx->port, "HEAD", "/healthz", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 0);
	free(r.body);
}

/* {id:int} takes decimal ids only; {name} is percent-decoded. */
static void
test_path_params(void **state)
{
	static const char *const text[] = { "Accept: text/plain, */*;q=0.5",
	    NULL };
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/api/v1/games/42", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "{\"id\":42}\n");
	free(r.body);

	request(fx->port, "GET", "/api/v1/games/0", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "{\"id\":0}\n");
	free(r.body);

	request_status(fx->port, "GET", "/api/v1/games/abc", NULL, NULL, 404);
	request_status(fx->port, "GET", "/api/v1/games/007", NULL, NULL, 404);
	request_status(fx->port, "GET", "/api/v1/games/-1", NULL, NULL, 404);
	request_status(fx->port, "GET", "/api/v1/games/1234567890123456789",
	    NULL, NULL, 404);

	request(fx->port, "GET", "/api/v1/players/al%20ice", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "{\"name\":\"al ice\"}\n");
	free(r.body);

	request(fx->port, "GET", "/api/v1/players/bob", NULL, text, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "player bob\n");
	free(r.body);

	request_status(fx->port, "GET", "/api/v1/players/", NULL, NULL, 404);
}

/* Accept negotiation: JSON unless text/plain is preferred. */
static void
test_accept(void **state)
{
	static const struct {
		const char	*accept;
		int		 text;
	} cases[] = {
		{ "Accept: */*", 0 },
		{ "Accept: text/plain", 1 },
		{ "Accept: text/*", 1 },
		{ "Accept: application/json, text/plain", 0 },
		{ "Accept: application/json;q=0.5, text/plain", 1 },
		{ "Accept: text/plain;q=0.2, application/json;q=0.9", 0 },
		{ "Accept: text/html, text/*;q=0.8", 1 },
		{ "Accept: TEXT/PLAIN", 1 },
	};
	struct fixture	*fx = *state;
	struct reply	 r;
	const char	*hdr[2] = { NULL, NULL };
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hdr[0] = cases[i].accept;
		request(fx->port, "GET", "/api/v1/players/x", NULL, hdr, &r);
		assert_int_equal(r.status, 200);
		if (cases[i].text)
			assert_string_equal(r.body, "player x\n");
		else
			assert_string_equal(r.body, "{\"name\":\"x\"}\n");
		free(r.body);
	}
}

/* Bodies up to the limit pass; larger ones get 413, in both framings. */
static void
test_body_limit(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;
	char		 body[MAX_BODY + 2];

	memset(body, 'a', MAX_BODY);
	body[MAX_BODY] = '\0';
	request(fx->port, "POST", "/api/v1/games/3/actions", body, NULL, &r);
	assert_int_equal(r.status, 201);
	assert_string_equal(r.body, "{\"id\":\"3\",\"length\":1024}\n");
	free(r.body);

	body[MAX_BODY] = 'a';
	body[MAX_BODY + 1] = '\0';
	request(fx->port, "POST", "/api/v1/games/3/actions", body, NULL, &r);
	assert_int_equal(r.status, 413);
	assert_non_null(strstr(r.body, "\"code\":\"payload-too-large\""));
	free(r.body);

	/* Chunked: the size is known only while reading. */
	request_with(NULL, fx->port, "POST", "/api/v1/games/3/actions", NULL,
	    5000, NULL, &r);
	assert_int_equal(r.status, 413);
	assert_non_null(strstr(r.body, "\"code\":\"payload-too-large\""));
	free(r.body);

	request_with(NULL, fx->port, "POST", "/api/v1/games/3/actions", NULL,
	    700, NULL, &r);
	assert_int_equal(r.status, 201);
	assert_string_equal(r.body, "{\"id\":\"3\",\"length\":700}\n");
	free(r.body);
}

/* Admin routes need the token: 401 without it or with a wrong one. */
static void
test_admin_auth(void **state)
{
	static const char *const good[] = {
		"Authorization: Bearer " TOKEN, NULL };
	static const char *const wrong[] = {
		"Authorization: Bearer s3cret-admin-token-0123456788", NULL };
	static const char *const shorter[] = {
		"Authorization: Bearer s3cret", NULL };
	static const char *const basic[] = {
		"Authorization: Basic " TOKEN, NULL };
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "POST", "/api/v1/admin/ping", "", NULL, &r);
	assert_int_equal(r.status, 401);
	assert_true(has_header(&r,
	    "WWW-Authenticate: Bearer realm=\"corrchess\""));
	assert_non_null(strstr(r.body, "\"code\":\"unauthorized\""));
	free(r.body);

	request_status(fx->port, "POST", "/api/v1/admin/ping", "", wrong, 401);
	request_status(fx->port, "POST", "/api/v1/admin/ping", "",
	    shorter, 401);
	request_status(fx->port, "POST", "/api/v1/admin/ping", "", basic, 401);

	request(fx->port, "POST", "/api/v1/admin/ping", "", good, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "admin ok\n");
	free(r.body);
}

/* Requests on one handle reuse one connection, errors included. */
static void
test_keep_alive(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;
	CURL		*h;
	long		 port1, port2;

	h = curl_easy_init();
	assert_non_null(h);
	request_with(h, fx->port, "GET", "/healthz", NULL, 0, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.connects, 1);
	assert_false(has_header(&r, "Connection: close"));
	curl_easy_getinfo(h, CURLINFO_LOCAL_PORT, &port1);
	free(r.body);

	request_with(h, fx->port, "GET", "/api/v1/games/5", NULL, 0, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.connects, 0);
	free(r.body);

	request_with(h, fx->port, "GET", "/nope", NULL, 0, NULL, &r);
	assert_int_equal(r.status, 404);
	assert_int_equal(r.connects, 0);
	free(r.body);

	request_with(h, fx->port, "POST", "/api/v1/games/5/actions", "move e4",
	    0, NULL, &r);
	assert_int_equal(r.status, 201);
	assert_int_equal(r.connects, 0);
	free(r.body);

	/* An error on a request with a small body keeps the connection. */
	request_with(h, fx->port, "POST", "/api/v1/admin/ping", "x", 0, NULL,
	    &r);
	assert_int_equal(r.status, 401);
	assert_int_equal(r.connects, 0);
	free(r.body);

	request_with(h, fx->port, "GET", "/metrics", NULL, 0, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.connects, 0);
	curl_easy_getinfo(h, CURLINFO_LOCAL_PORT, &port2);
	assert_int_equal(port1, port2);
	free(r.body);
	curl_easy_cleanup(h);
}

/* /metrics counts requests by route and status, plus registered metrics. */
static void
test_metrics(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;
	struct metric	*m;
	int		 i;

	m = metrics_counter("corrchess_test_events_total{kind=\"a\"}",
	    "Events seen by the test.");
	assert_non_null(m);
	metrics_add(m, 41);
	metrics_inc(m);
	metrics_set(metrics_gauge("corrchess_test_level", "A level."), -3);

	for (i = 0; i < 3; i++) {
		request(fx->port, "GET", "/healthz", NULL, NULL, &r);
		free(r.body);
	}
	request(fx->port, "GET", "/nope", NULL, NULL, &r);
	free(r.body);
	request(fx->port, "GET", "/api/v1/games/x", NULL, NULL, &r);
	free(r.body);
	request(fx->port, "POST", "/api/v1/admin/ping", "", NULL, &r);
	free(r.body);

	request(fx->port, "GET", "/metrics", NULL, NULL, &r);
	assert_int_equal(r.status, 200);
	assert_true(has_header(&r, "Content-Type: text/plain; version=0.0.4; "
	    "charset=utf-8"));
	assert_non_null(strstr(r.body,
	    "# TYPE corrchess_http_requests_total counter\n"));
	assert_non_null(strstr(r.body, "corrchess_http_requests_total"
	    "{route=\"GET /healthz\",code=\"200\"} 3\n"));
	assert_non_null(strstr(r.body, "corrchess_http_requests_total"
	    "{route=\"unmatched\",code=\"404\"} 2\n"));
	assert_non_null(strstr(r.body, "corrchess_http_requests_total"
	    "{route=\"POST /api/v1/admin/ping\",code=\"401\"} 1\n"));
	assert_non_null(strstr(r.body,
	    "# TYPE corrchess_test_events_total counter\n"
	    "corrchess_test_events_total{kind=\"a\"} 42\n"));
	assert_non_null(strstr(r.body,
	    "# TYPE corrchess_test_level gauge\ncorrchess_test_level -3\n"));
	free(r.body);
}

/* A handler without an answer gives 500; JSON bodies are checked. */
static void
test_handler_errors(void **state)
{
	static const char *const json[] = {
		"Content-Type: application/json; charset=utf-8", NULL };
	static const char *const form[] = {
		"Content-Type: application/x-www-form-urlencoded", NULL };
	static const char *const csv[] = {
		"Content-Type: text/csv", NULL };
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/api/v1/silent", NULL, NULL, &r);
	assert_int_equal(r.status, 500);
	assert_non_null(strstr(r.body, "\"code\":\"internal\""));
	free(r.body);

	request(fx->port, "POST", "/api/v1/json", "{\"a\":[1,2]}", json, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "{\"a\":[1,2]}\n");
	free(r.body);

	request(fx->port, "POST", "/api/v1/json", "{\"a\":", json, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(r.body, "\"code\":\"bad-request\""));
	assert_non_null(strstr(r.body, "invalid JSON"));
	free(r.body);

	request(fx->port, "POST", "/api/v1/json", "[1]", json, &r);
	assert_int_equal(r.status, 400);
	assert_non_null(strstr(r.body, "must be a JSON object"));
	free(r.body);

	/* curl -d sends JSON labelled as a form: taken as JSON. */
	request_status(fx->port, "POST", "/api/v1/json", "{\"a\":1}",
	    form, 200);

	request_status(fx->port, "POST", "/api/v1/json", "{\"a\":1}", csv, 415);
}

/* Query arguments and headers reach the handler; its headers go out. */
static void
test_query_and_headers(void **state)
{
	static const char *const hdr[] = { "X-Test: hello", NULL };
	struct fixture	*fx = *state;
	struct reply	 r;

	request(fx->port, "GET", "/api/v1/echo?q=a%20b&flag", NULL, hdr, &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "q=a b x=hello flag=(empty)\n");
	assert_true(has_header(&r, "X-Echo: yes"));
	free(r.body);

	request(fx->port, "GET", "/api/v1/echo", NULL, NULL, &r);
	assert_string_equal(r.body, "q=(none) x=(none) flag=(none)\n");
	free(r.body);
}

/* Headers larger than the limit are refused; the server goes on. */
static void
test_header_limit(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r;
	char		*big;
	const char	*hdr[2] = { NULL, NULL };

	big = malloc(10000);
	assert_non_null(big);
	memcpy(big, "X-Big: ", 7);
	memset(big + 7, 'b', 9000);
	big[9007] = '\0';
	hdr[0] = big;
	request_status(fx->port, "GET", "/healthz", NULL, hdr, 431);

	/* Just over the limit of 4096 bytes: refused by the dispatcher. */
	big[7 + 4090] = '\0';
	request(fx->port, "GET", "/healthz", NULL, hdr, &r);
	assert_int_equal(r.status, 431);
	assert_non_null(strstr(r.body, "\"code\":\"headers-too-large\""));
	free(r.body);

	/* Well under it: served. */
	big[7 + 3000] = '\0';
	request_status(fx->port, "GET", "/healthz", NULL, hdr, 200);
	free(big);

	request_status(fx->port, "GET", "/healthz", NULL, NULL, 200);
}

/* Connect a raw TCP socket to the server. */
static int
raw_connect(unsigned port)
{
	struct sockaddr_in	sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	return fd;
}

/*
 * A client that stops half-way through its headers is cut off after the
 * connection timeout (1 s here), while other clients are served.
 */
static void
test_slow_client(void **state)
{
	static const char partial[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
	struct fixture	*fx = *state;
	struct reply	 r;
	struct pollfd	 pfd;
	char		 buf[256];
	ssize_t		 n;
	int		 fd, i;

	fd = raw_connect(fx->port);
	assert_int_equal(write(fd, partial, sizeof partial - 1),
	    (ssize_t)(sizeof partial - 1));

	for (i = 0; i < 3; i++) {
		request(fx->port, "GET", "/healthz", NULL, NULL, &r);
		assert_int_equal(r.status, 200);
		free(r.body);
	}

	/* Wait (at most a minute, so a broken server fails, not hangs). */
	pfd.fd = fd;
	pfd.events = POLLIN;
	assert_int_equal(poll(&pfd, 1, 60 * 1000), 1);
	n = read(fd, buf, sizeof buf);
	assert_true(n == 0 || (n == -1 && errno == ECONNRESET));
	close(fd);

	request_status(fx->port, "GET", "/healthz", NULL, NULL, 200);
}

/* Run one slow request in a thread. */
static void *
slow_request(void *arg)
{
	struct fixture	*fx = arg;
	struct reply	*r;

	r = malloc(sizeof *r);
	assert_non_null(r);
	request(fx->port, "GET", "/api/v1/slow", NULL, NULL, r);
	return r;
}

/*
 * Connect to the server and send a request: 1 when the connection is
 * closed without an answer (what a stopping server does to a connection
 * made on its own socket), 0 when answered, -1 when nothing could be
 * tried (no connection at all, or no answer in 5 s).
 */
static int
closed_unanswered(unsigned port)
{
	static const char	 get[] = "GET /healthz HTTP/1.0\r\n\r\n";
	struct timeval		 tv = { 5, 0 };
	struct sockaddr_in	 sin;
	char			 buf[256];
	ssize_t			 n;
	int			 fd, rc = -1;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) == -1)
		goto out;
	if (send(fd, get, sizeof get - 1, MSG_NOSIGNAL) == -1)
		rc = errno == EPIPE || errno == ECONNRESET;
	else if ((n = read(fd, buf, sizeof buf)) > 0)
		rc = 0;
	else if (n == 0 || errno == ECONNRESET)
		rc = 1;
 out:
	close(fd);
	return rc;
}

/*
 * Release the slow handler once the server is draining, that is once a
 * new connection is closed unanswered (at most 30 s, so a broken stop
 * fails); what the probe saw last is the thread's result.
 */
static void *
release_when_draining(void *arg)
{
	struct fixture		*fx = arg;
	struct timespec		 pause = { 0, 10 * 1000 * 1000 };
	intptr_t		 seen = -1;
	int			 i;

	for (i = 0; i < 3000 && seen != 1; i++)
		if ((seen = closed_unanswered(fx->port)) != 1)
			nanosleep(&pause, NULL);
	sem_post(&fx->release);
	return (void *)seen;
}

/*
 * Stopping lets a request in progress finish and refuses new ones: a
 * connection made while it drains is closed without an answer, and once
 * stopped nobody listens.
 */
static void
test_stop_drains(void **state)
{
	struct fixture	*fx = *state;
	struct reply	*r;
	pthread_t	 client, releaser;
	CURL		*h;
	void		*seen;
	char		 url[128];

	assert_int_equal(pthread_create(&client, NULL, slow_request, fx), 0);
	sem_wait(&fx->entered);
	assert_int_equal(pthread_create(&releaser, NULL, release_when_draining,
	    fx),
	    0);
	http_server_stop(fx->srv, 30);
	fx->srv = NULL;
	pthread_join(releaser, &seen);
	assert_int_equal((intptr_t)seen, 1);
	pthread_join(client, (void **)&r);
	assert_int_equal(r->status, 200);
	assert_string_equal(r->body, "slow ok\n");
	assert_true(has_header(r, "Connection: close"));
	free(r->body);
	free(r);

	/* Nobody listens any more. */
	h = curl_easy_init();
	snprintf(url, sizeof url, "http://127.0.0.1:%u/healthz", fx->port);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	assert_int_equal(curl_easy_perform(h), CURLE_COULDNT_CONNECT);
	curl_easy_cleanup(h);
}

/* Run one slow request on a worker in a thread. */
static void *
deferred_request(void *arg)
{
	struct fixture	*fx = arg;
	struct reply	*r;

	r = malloc(sizeof *r);
	assert_non_null(r);
	request(fx->port, "GET", "/api/v1/deferred", NULL, NULL, r);
	return r;
}

/*
 * A slow route runs on a worker with its connection suspended: more of
 * them wait at once than there are HTTP threads, the HTTP threads go on
 * serving meanwhile, and each gets its answer when released.
 */
static void
test_slow_route_on_workers(void **state)
{
	struct fixture	*fx = *state;
	struct reply	 r, *slow[2];
	pthread_t	 t[2];
	int		 i;

	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, deferred_request,
		    fx), 0);
	sem_wait(&fx->entered);
	sem_wait(&fx->entered);
	/* Both workers wait; the two HTTP threads are free. */
	for (i = 0; i < 4; i++) {
		request(fx->port, "GET", "/healthz", NULL, NULL, &r);
		assert_int_equal(r.status, 200);
		free(r.body);
	}
	sem_post(&fx->release);
	sem_post(&fx->release);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], (void **)&slow[i]);
		assert_int_equal(slow[i]->status, 200);
		assert_string_equal(slow[i]->body, "slow ok\n");
		assert_false(has_header(slow[i], "Connection: close"));
		free(slow[i]->body);
		free(slow[i]);
	}
}

/* Ask GET /healthz on a raw connection and read the whole answer. */
static void
raw_healthz(int fd)
{
	static const char req[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
	char	buf[1024];
	size_t	len = 0;
	ssize_t	n;

	assert_int_equal(write(fd, req, sizeof req - 1),
	    (ssize_t)(sizeof req - 1));
	while (len < sizeof buf - 1) {
		n = read(fd, buf + len, sizeof buf - 1 - len);
		assert_true(n > 0);
		len += (size_t)n;
		buf[len] = '\0';
		if (strstr(buf, "\r\n\r\nok\n") != NULL)
			return;
	}
	fail_msg("no answer on the raw connection");
}

/* Past max_connections a new client is refused; room frees on close. */
static void
test_connection_limit(void **state)
{
	struct http_options	 opts = {
		.address = "127.0.0.1", .port = 0, .max_body_size = 1024,
		.max_header_size = 4096, .max_connections = 2,
		.connection_timeout = 30, .threads = 1,
	};
	struct http_server	*srv;
	struct reply		 r;
	struct timespec		 pause = { 0, 20 * 1000 * 1000 };
	char			 err[256], url[128];
	unsigned		 port;
	int			 fd1, fd2, i;
	CURL			*h;
	CURLcode		 rc;
	long			 status = 0;

	(void)state;
	srv = http_server_start(&opts, NULL, 0, NULL, err, sizeof err);
	if (srv == NULL)
		fail_msg("http_server_start: %s", err);
	port = http_server_port(srv);
	/* Two clients the server surely took: each has had an answer. */
	fd1 = raw_connect(port);
	fd2 = raw_connect(port);
	raw_healthz(fd1);
	raw_healthz(fd2);

	h = curl_easy_init();
	snprintf(url, sizeof url, "http://127.0.0.1:%u/healthz", port);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	memset(&r, 0, sizeof r);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
	/*
	 * The third waits unanswered while the two are held: a second of
	 * that is enough to see it (curl's own 30 s is not needed).
	 */
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 1000L);
	rc = curl_easy_perform(h);
	assert_int_not_equal(rc, CURLE_OK);
	free(r.body);

	close(fd1);
	close(fd2);
	/* The server sees the closes on its own time: retry a while. */
	for (i = 0; i < 500; i++) {
		memset(&r, 0, sizeof r);
		rc = curl_easy_perform(h);
		free(r.body);
		if (rc == CURLE_OK)
			break;
		nanosleep(&pause, NULL);
	}
	assert_int_equal(rc, CURLE_OK);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	assert_int_equal(status, 200);
	curl_easy_cleanup(h);
	http_server_stop(srv, 5);
}

/* Bad patterns and a busy port stop http_server_start with a reason. */
static void
test_start_errors(void **state)
{
	static const struct http_route bad[] = {
		{ "GET", "/a/{id:number}", HTTP_AUTH_NONE, h_game, 0 },
	};
	struct fixture		*fx = *state;
	struct http_options	 opts = {
		.address = "127.0.0.1", .port = 0, .max_body_size = 1024,
		.max_header_size = 4096, .max_connections = 4,
		.connection_timeout = 5, .threads = 1,
	};
	char			 err[256];

	assert_null(http_server_start(&opts, bad, 1, NULL, err, sizeof err));
	assert_string_equal(err,
	    "route /a/{id:number}: only :int may follow a parameter name");

	opts.port = fx->port;
	assert_null(http_server_start(&opts, NULL, 0, NULL, err, sizeof err));
	assert_non_null(strstr(err, "Address already in use"));

	opts.address = "localhost";
	opts.port = 0;
	assert_null(http_server_start(&opts, NULL, 0, NULL, err, sizeof err));
	assert_string_equal(err, "localhost is not an IPv4 or IPv6 address");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_healthz, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_found, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_method_not_allowed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_path_params, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_accept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_body_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_admin_auth, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_slow_route_on_workers,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_alive, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_metrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handler_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_query_and_headers, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_header_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_slow_client, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_stop_drains, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_start_errors, setup,
		    teardown),
		cmocka_unit_test(test_connection_limit),
	};
	int	rc;

	log_init(LOG_LEVEL_WARNING, "test_http");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return rc;
}
