/*
 * http/server.c: libmicrohttpd's callbacks, answers queued, start and stop.
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

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "http/http_int.h"
#include "util/log.h"

/* Body bytes read and dropped after a 413 before the connection is cut. */
#define HTTP_DISCARD_MAX	(1024 * 1024)

static void	http_mhd_log(void *, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));

/* Check the Authorization header against the admin token. */
static int
http_check_admin(struct http_server *srv, struct http_request *req)
{
	const char	*auth;
	unsigned char	 hash[crypto_generichash_BYTES];

	if (!srv->have_token)
		return 0;
	auth = http_request_header(req, MHD_HTTP_HEADER_AUTHORIZATION);
	if (auth == NULL || strncasecmp(auth, "Bearer ", 7) != 0)
		return 0;
	auth += 7;
	while (*auth == ' ')
		auth++;
	/* Hashing first makes the comparison's time independent of length. */
	crypto_generichash(hash, sizeof hash, (const unsigned char *)auth,
	    strlen(auth), NULL, 0);
	return sodium_memcmp(hash, srv->token_hash, sizeof hash) == 0;
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

	if (!resp->set || (resp->data == NULL && resp->shared == NULL &&
	    !resp->has_fd && resp->stream == NULL && resp->status < 500)) {
		if (resp->set)
			log_warnx("http: %s %s: response lost (out of "
			    "memory)", req->method, req->path);
		else
			log_warnx("http: %s %s: handler gave no response",
			    req->method, req->path);
		http_respond_error(resp, 500, "internal",
		    "the server failed to answer");
	}
	if (req->croute != NULL &&
	    (req->croute->route->flags & HTTP_ROUTE_ETAG) != 0)
		http_response_etag(req, resp);
	if (resp->stream != NULL) {
		mr = http_stream_response(resp->stream);
		if (mr != NULL)
			resp->stream = NULL;	/* MHD holds its reference */
	} else if (resp->has_fd) {
		mr = MHD_create_response_from_fd64(resp->fd_size, resp->fd);
		if (mr != NULL)
			resp->has_fd = 0;	/* MHD closes it */
	} else if (resp->shared != NULL) {
		/* MHD gives the bytes back with release(data) when done. */
		mr = MHD_create_response_from_buffer_with_free_callback(
		    resp->len, (void *)resp->shared, resp->release);
		if (mr != NULL)
			resp->shared = NULL;
	} else if (resp->data != NULL) {
		mr = MHD_create_response_from_buffer(resp->len, resp->data,
		    MHD_RESPMEM_MUST_FREE);
		if (mr != NULL)
			resp->data = NULL;	/* MHD frees it */
	} else
		mr = MHD_create_response_from_buffer(0, (void *)"",
		    MHD_RESPMEM_PERSISTENT);
	if (mr == NULL)
		return MHD_NO;
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
	return ret;
}

/* Answer a request's pending error in one place. */
static mhd_result
http_queue_error(struct http_server *srv, struct http_request *req)
{
	struct http_response	 resp = { .req = req };
	const char		*word = http_status_code_word(req->error);
	const char		*auth;
	mhd_result		 ret;

	switch (req->error) {
	case 404:
		http_respond_error(&resp, 404, word, "no such resource: %s",
		    req->path);
		break;
	case 405:
		http_respond_error(&resp, 405, word,
		    "%s is not allowed on %s (allowed: %s)", req->method,
		    req->path, req->allow);
		http_response_header(&resp, MHD_HTTP_HEADER_ALLOW, req->allow);
		break;
	case 401:
		/* Say what was wrong: no token, another form, another token. */
		auth = http_request_header(req, MHD_HTTP_HEADER_AUTHORIZATION);
		if (!srv->have_token)
			http_respond_error(&resp, 401, word, "this server has "
			    "no admin token: admin requests are refused");
		else if (auth == NULL)
			http_respond_error(&resp, 401, word,
			    "this needs the admin token: "
			    "Authorization: Bearer TOKEN");
		else if (strncasecmp(auth, "Bearer ", 7) != 0)
			http_respond_error(&resp, 401, word, "the "
			    "Authorization header must be 'Bearer TOKEN'");
		else
			http_respond_error(&resp, 401, word, "the admin token "
			    "given is not this server's: use the one in its "
			    "admin_token_file (by default STATE_DIRECTORY/"
			    "admin.token)");
		http_response_header(&resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
		    "Bearer realm=\"corrchess\"");
		break;
	case 413:
		http_respond_error(&resp, 413, word,
		    "the request body is larger than %zu bytes",
		    srv->opts.max_body_size);
		break;
	case 431:
		http_respond_error(&resp, 431, word,
		    "the request line and headers are larger than %zu bytes",
		    srv->opts.max_header_size);
		break;
	default:
		http_respond_error(&resp, req->error, word, "request failed");
		break;
	}
	ret = http_queue(srv, req, &resp);
	http_response_clear(&resp);
	return ret;
}

/* Add up the size of one header line (name, ": ", value, CRLF). */
static mhd_result
http_header_size(void *cls, enum MHD_ValueKind kind, const char *key,
    const char *value)
{
	size_t	*total = cls;

	(void)kind;
	*total += strlen(key) + 4 + (value != NULL ? strlen(value) : 0);
	return MHD_YES;
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
		return MHD_NO;
	atomic_fetch_add(&srv->inflight, 1);
	*con_cls = req;
	req->srv = srv;
	req->conn = conn;
	req->method = method;
	clock_gettime(CLOCK_MONOTONIC, &req->start);
	if ((req->path = strdup(url)) == NULL)
		return MHD_NO;

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
		return MHD_YES;
	}

	if (http_route_request(srv, req) == -1)
		return MHD_NO;
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
		return http_queue_error(srv, req);
	return MHD_YES;
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
		return req->discarded > HTTP_DISCARD_MAX ? MHD_NO : MHD_YES;
	}
	if (req->body_len + *size > srv->opts.max_body_size) {
		req->error = 413;
		req->discarded += *size;
		*size = 0;
		return MHD_YES;
	}
	need = req->body_len + *size + 1;
	if (need > req->body_cap) {
		cap = req->body_cap != 0 ? req->body_cap : 1024;
		while (cap < need)
			cap *= 2;
		if ((p = realloc(req->body, cap)) == NULL) {
			log_warnx("http: out of memory reading a body");
			return MHD_NO;
		}
		req->body = p;
		req->body_cap = cap;
	}
	memcpy(req->body + req->body_len, data, *size);
	req->body_len += *size;
	req->body[req->body_len] = '\0';
	*size = 0;
	return MHD_YES;
}

/* Promise an answer that another thread's work will allow (http.h). */
struct http_later *
http_respond_later(struct http_response *resp, http_finish finish, void *arg)
{
	struct http_request	*req = resp->req;

	http_response_clear(resp);
	req->later.req = req;
	req->later.finish = finish;
	req->later.arg = arg;
	atomic_store(&req->later.state, HTTP_LATER_RUNNING);
	atomic_fetch_add(&req->srv->later, 1);
	return &req->later;
}

/* Say a later answer can be made: wake its connection if it sleeps. */
void
http_later_ready(struct http_later *l)
{
	/* Read the connection first: once the state says ready, the
	 * request may be answered and freed on its HTTP thread. */
	struct MHD_Connection	*conn = l->req->conn;

	if (atomic_exchange(&l->state, HTTP_LATER_READY) ==
	    HTTP_LATER_SUSPENDED)
		MHD_resume_connection(conn);
}

/* Make a later answer with its finish, on the request's HTTP thread. */
static mhd_result
http_later_finish(struct http_server *srv, struct http_request *req)
{
	struct http_response	resp = { .req = req };
	http_finish		fn = req->later.finish;
	mhd_result		ret;

	req->later.finish = NULL;
	atomic_store(&req->later.state, HTTP_LATER_NONE);
	fn(req, &resp, srv->user, req->later.arg);
	atomic_fetch_sub(&srv->later, 1);
	ret = http_queue(srv, req, &resp);
	http_response_clear(&resp);
	return ret;
}

/*
 * A handler promised a later answer: make it now if it is ready, else
 * suspend the connection until http_later_ready() resumes it. The ready
 * call may come between the two steps: then resume at once.
 */
static mhd_result
http_later_wait(struct http_server *srv, struct http_request *req)
{
	int	expect = HTTP_LATER_RUNNING;

	if (atomic_load(&req->later.state) == HTTP_LATER_READY)
		return http_later_finish(srv, req);
	MHD_suspend_connection(req->conn);
	if (!atomic_compare_exchange_strong(&req->later.state, &expect,
	    HTTP_LATER_SUSPENDED))
		MHD_resume_connection(req->conn);
	return MHD_YES;
}

/* Run the route's handler and queue its answer. */
static mhd_result
http_dispatch(struct http_server *srv, struct http_request *req)
{
	struct http_response	resp = { .req = req };
	mhd_result		ret;

	if (req->error != 0)
		return http_queue_error(srv, req);
	if (srv->nworkers > 0 && (req->croute->route->flags &
	    HTTP_ROUTE_SLOW) && http_workers_defer(srv, req) == 0)
		return MHD_YES;
	req->croute->route->handler(req, &resp, srv->user);
	if (req->later.finish != NULL) {
		http_response_clear(&resp);
		return http_later_wait(srv, req);
	}
	ret = http_queue(srv, req, &resp);
	http_response_clear(&resp);
	return ret;
}

/* Take libmicrohttpd's calls for a request (its access handler; see the
 * comment at the top). */
static mhd_result
http_access(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls)
{
	struct http_server	*srv = cls;
	struct http_request	*req = *con_cls;

	(void)version;
	if (req == NULL)
		return http_begin(srv, conn, url, method, con_cls);
	if (req->later.finish != NULL) {
		if (atomic_load(&req->later.state) == HTTP_LATER_READY)
			return http_later_finish(srv, req);
		*upload_data_size = 0;
		return MHD_YES;
	}
	switch (atomic_load(&req->deferred)) {
	case 1:		/* still with a worker */
		*upload_data_size = 0;
		return MHD_YES;
	case 2: {	/* a worker answered: queue it */
		mhd_result ret = http_queue(srv, req, req->dresp);

		http_response_clear(req->dresp);
		free(req->dresp);
		req->dresp = NULL;
		atomic_store(&req->deferred, 0);
		return ret;
	}
	default:
		break;
	}
	if (req->queued) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (*upload_data_size != 0)
		return http_body(srv, req, upload_data, upload_data_size);
	if (!http_guard_whole(srv, conn))
		return MHD_NO;
	return http_dispatch(srv, req);
}

/* Free a request when libmicrohttpd is done with it (its completion
 * callback). */
static void
http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct http_server	*srv = cls;
	struct http_request	*req = *con_cls;

	(void)toe;
	http_guard_next(srv, conn);
	if (req == NULL)
		return;
	*con_cls = NULL;
	/* The client left before a later answer was made: its finish
	 * frees what it holds (never while the work is still running). */
	if (req->later.finish != NULL) {
		if (atomic_load(&req->later.state) == HTTP_LATER_READY) {
			req->later.finish(req, NULL, srv->user,
			    req->later.arg);
			atomic_fetch_sub(&srv->later, 1);
		} else
			log_warnx("http: %s %s: the connection ended while "
			    "its answer was being made", req->method,
			    req->path);
	}
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

/* Free a server that is not running (or no longer). */
static void
http_server_free(struct http_server *srv)
{
	size_t	i;

	if (srv == NULL)
		return;
	http_workers_free(srv);
	http_guard_free(srv);
	pthread_mutex_destroy(&srv->slock);
	for (i = 0; i < srv->nroutes; i++)
		http_route_clear(&srv->routes[i]);
	free(srv->routes);
	if (srv->fd != -1)
		close(srv->fd);
	http_tls_stop(srv);
	free((char *)srv->opts.address);
	free((char *)srv->opts.tls_cert);
	free((char *)srv->opts.tls_key);
	free(srv);
}

/* Start serving. */
struct http_server *
http_server_start(const struct http_options *opts,
    const struct http_route *routes, size_t nroutes, void *user,
    char *err, size_t errsize)
{
	struct http_server	*srv;
	struct MHD_OptionItem	 tls_opts[2] = {
		{ MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL } };
	size_t			 i, mem;
	unsigned int		 flags;
	bool			 tls;

	if (sodium_init() == -1) {
		snprintf(err, errsize, "libsodium failed to start");
		return NULL;
	}
	if ((srv = calloc(1, sizeof *srv)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	srv->fd = -1;
	srv->user = user;
	http_workers_init(srv);
	http_guard_init(srv);
	pthread_mutex_init(&srv->slock, NULL);
	srv->opts = *opts;
	srv->opts.admin_token = NULL;
	atomic_store(&srv->log_requests, opts->log_requests);
	srv->opts.tls_cert = srv->opts.tls_key = NULL;
	tls = opts->tls_cert != NULL && *opts->tls_cert != '\0';
	if ((srv->opts.address = strdup(opts->address)) == NULL ||
	    (tls && ((srv->opts.tls_cert = strdup(opts->tls_cert)) == NULL ||
	    (srv->opts.tls_key = strdup(opts->tls_key ? opts->tls_key :
	    "")) == NULL))) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	if (tls && http_tls_start(srv, err, errsize) != 0)
		goto fail;
	if (opts->admin_token != NULL && *opts->admin_token != '\0') {
		crypto_generichash(srv->token_hash, sizeof srv->token_hash,
		    (const unsigned char *)opts->admin_token,
		    strlen(opts->admin_token), NULL, 0);
		srv->have_token = 1;
	}

	/* The caller's routes first, then the built-in ones. */
	srv->routes = calloc(nroutes + HTTP_NBUILTIN, sizeof *srv->routes);
	if (srv->routes == NULL) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	for (i = 0; i < nroutes + HTTP_NBUILTIN; i++) {
		srv->nroutes++;
		if (http_route_compile(&srv->routes[i], i < nroutes ?
		    &routes[i] : &http_builtin[i - nroutes], err,
		    errsize) != 0)
			goto fail;
	}

	if (http_listen(srv, err, errsize) != 0)
		goto fail;

	/* Room for the request line and headers, and the answer's headers. */
	mem = opts->max_header_size + 4096;
	flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC |
	    MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	/* HTTPS: every handshake asks tls.c for the current certificate. */
	if (tls) {
		flags |= MHD_USE_TLS;
		tls_opts[0].option = MHD_OPTION_HTTPS_CERT_CALLBACK;
		tls_opts[0].ptr_value = (void *)(uintptr_t)http_tls_retrieve;
	}
	srv->mhd = MHD_start_daemon(flags, 0, http_guard_accept, srv,
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
	    MHD_OPTION_NOTIFY_CONNECTION, http_guard_notify, srv,
	    MHD_OPTION_ARRAY, tls_opts,
	    MHD_OPTION_END);
	if (srv->mhd == NULL) {
		snprintf(err, errsize, "libmicrohttpd failed to start%s on "
		    "%s port %u", tls ? " with HTTPS" : "", opts->address,
		    srv->port);
		goto fail;
	}
	if (http_guard_start(srv, err, errsize) != 0) {
		MHD_stop_daemon(srv->mhd);
		srv->mhd = NULL;
		srv->fd = -1;
		goto fail;
	}
	http_workers_start(srv, opts->workers);
	return srv;
fail:
	http_server_free(srv);
	return NULL;
}

/* Return the port the server listens on. */
unsigned
http_server_port(const struct http_server *srv)
{
	return srv->port;
}

/* Turn the per-request log lines on or off. */
void
http_server_set_log_requests(struct http_server *srv, bool on)
{
	atomic_store(&srv->log_requests, on);
}

/* Seconds on the monotonic clock since start. */
static double
stop_elapsed(const struct timespec *start)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	    (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * Stop accepting, drain, close and free. What a stop waits for, each
 * step said in the log:
 *  - connections idle between requests, or still sending one, are shut
 *    at once: nothing was promised to them, and a client that resends
 *    meets the next server;
 *  - streams are ended (their last bytes sent);
 *  - requests whose answer is being made or sent get drain_seconds;
 *    then the connections still open are shut (their clients did not
 *    read the answer);
 *  - answers waiting for the writer's commit (later answers, workers)
 *    are always made: their work is under way and a move's 201 must not
 *    be lost once committed. That wait is bounded too (drain_seconds
 *    more), for a writer that cannot commit at all.
 */
void
http_server_stop(struct http_server *srv, unsigned drain_seconds)
{
	struct timespec	 start, pause = { 0, 10 * 1000 * 1000 };
	unsigned	 idle, streams, shut;
	int		 fd;
	bool		 quiesced;

	if (srv == NULL)
		return;
	clock_gettime(CLOCK_MONOTONIC, &start);
	atomic_store(&srv->draining, 1);
	/*
	 * On a socket of our own, stop taking connections by refusing them
	 * in the accept policy (http_guard_accept()): one that arrives now
	 * is closed at once, without an answer, and the socket closes with
	 * libmicrohttpd. Not by MHD_quiesce_daemon(): in epoll mode with a
	 * thread pool, libmicrohttpd 0.9.75 removes the listening socket
	 * from each epoll set both in MHD_quiesce_daemon() and in its
	 * threads, and aborts the process when its thread loses that race
	 * ("Failed to remove listen FD from epoll set").
	 */
	if (srv->opts.listen_fd <= 0) {
		atomic_store(&srv->refusing, 1);
		quiesced = false;
	} else {
		/*
		 * A socket passed by systemd (socket activation) is
		 * systemd's too: it goes on listening on it and starts
		 * corrchessd again at the next connection. Quiesced, what
		 * arrives meanwhile waits in the backlog for that start
		 * instead of being taken and closed; the descriptor stays
		 * open until libmicrohttpd has stopped, since its threads
		 * may still be taking it out of their epoll sets. The race
		 * above stays possible here: a stop that loses it aborts,
		 * with every acknowledged action already committed.
		 */
		fd = MHD_quiesce_daemon(srv->mhd);
		quiesced = fd != -1 && fd == srv->fd;
	}
	idle = http_guard_shut(srv, false);
	/* Streams would hold their connections open: end them first. */
	streams = http_streams_end(srv);
	log_info("http: stopping: %d request%s in progress (%d waiting for "
	    "the writer), %u stream%s ended, %u idle or unfinished "
	    "connection%s closed", atomic_load(&srv->inflight),
	    atomic_load(&srv->inflight) == 1 ? "" : "s",
	    atomic_load(&srv->later), streams, streams == 1 ? "" : "s", idle,
	    idle == 1 ? "" : "s");
	while (atomic_load(&srv->inflight) > atomic_load(&srv->later) &&
	    stop_elapsed(&start) < (double)drain_seconds)
		nanosleep(&pause, NULL);
	if (atomic_load(&srv->inflight) > atomic_load(&srv->later)) {
		shut = http_guard_shut(srv, true);
		log_warnx("http: %d answer%s still unsent after %us: %u "
		    "connection%s closed", atomic_load(&srv->inflight) -
		    atomic_load(&srv->later), atomic_load(&srv->inflight) -
		    atomic_load(&srv->later) == 1 ? "" : "s", drain_seconds,
		    shut, shut == 1 ? "" : "s");
	}
	/* Suspended connections must be resumed before MHD stops: the
	 * later answers too, whose work (the writer's) goes on meanwhile. */
	while (atomic_load(&srv->later) > 0 &&
	    stop_elapsed(&start) < 2.0 * drain_seconds)
		nanosleep(&pause, NULL);
	if (atomic_load(&srv->later) > 0)
		log_warnx("http: %d answer%s still waiting for the writer "
		    "after %.1fs; stopping without them",
		    atomic_load(&srv->later), atomic_load(&srv->later) == 1 ?
		    "" : "s", stop_elapsed(&start));
	/* What the writer answered is sent before libmicrohttpd stops. */
	while (atomic_load(&srv->inflight) > 0 &&
	    stop_elapsed(&start) < 2.0 * drain_seconds)
		nanosleep(&pause, NULL);
	http_workers_stop(srv);
	http_guard_stop(srv);
	MHD_stop_daemon(srv->mhd);
	srv->mhd = NULL;
	/* MHD closed the socket it was given unless quiesced; else we do. */
	if (!quiesced)
		srv->fd = -1;
	log_info("http: stopped in %.2fs", stop_elapsed(&start));
	http_server_free(srv);
}
