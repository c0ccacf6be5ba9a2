/*
 * http/http.h: the HTTP server core: routes, requests, responses.
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
 * The HTTP front door: libmicrohttpd (internal epoll, a pool of threads)
 * and jansson. Routes are table rows { method, pattern, auth, handler },
 * like tmux's cmd_entry table. The dispatcher, in one place:
 *
 *  - matches the path against the patterns; "{name}" matches one path
 *    segment (percent-decoded, not empty), "{name:int}" one made of 1 to
 *    18 digits without a leading zero (a decimal id >= 1, or 0 alone);
 *  - answers 404 when no pattern matches and 405, with an Allow header,
 *    when patterns match but not with this method (HEAD is served by GET
 *    routes);
 *  - checks "Authorization: Bearer TOKEN" for HTTP_AUTH_ADMIN routes in
 *    constant time, answering 401 with WWW-Authenticate;
 *  - answers 431 when the request line and headers exceed
 *    max_header_size;
 *  - collects the body up to max_body_size, answering 413 past it;
 *  - counts every answer by route pattern and status for /metrics;
 *  - answers 500 when a handler returned without a response.
 *
 * Handlers run on libmicrohttpd's threads, several at once: they must be
 * thread-safe and must never exit or block for long. GET /healthz and
 * GET /metrics are built in.
 *
 * Errors are JSON {"error":{"code":"...","message":"..."}}, or
 * "error: MESSAGE\n" in text/plain when the client's Accept header prefers
 * text/plain to application/json.
 */

#ifndef CORRCHESS_HTTP_H
#define CORRCHESS_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct http_server;
struct http_request;
struct http_response;

enum http_auth {
	HTTP_AUTH_NONE,
	HTTP_AUTH_ADMIN,	/* Authorization: Bearer ADMIN_TOKEN */
};

/*
 * A handler answers through resp (one http_respond_* call; a later call
 * replaces an earlier one). user is the pointer given to
 * http_server_start(). req and resp are valid only during the call.
 */
typedef void (*http_handler)(struct http_request *req,
    struct http_response *resp, void *user);

/*
 * Route flags. HTTP_ROUTE_SLOW: the handler may wait (for a commit, a
 * backup); with http_options.workers set it runs on a worker thread while
 * its connection is suspended, so the HTTP threads go on serving and many
 * such requests can wait at once (their actions then commit together).
 */
#define HTTP_ROUTE_SLOW	0x1
/*
 * HTTP_ROUTE_ETAG: a 200 answer of bytes gets an ETag, a hash of those
 * bytes, and Cache-Control: no-cache (ask again, but ask with the tag); a
 * request whose If-None-Match names the tag is answered 304 Not Modified
 * without the bytes. The handler runs as always: what is saved is the
 * sending, and the client's reading (and the hashing, when the handler
 * gives the tag it kept with the bytes: http_response_set_etag()).
 */
#define HTTP_ROUTE_ETAG	0x2

struct http_route {
	const char	*method;	/* "GET", "POST", ... */
	const char	*pattern;	/* "/api/v1/games/{id:int}/actions" */
	enum http_auth	 auth;
	http_handler	 handler;
	unsigned	 flags;		/* HTTP_ROUTE_* */
};

/* Most path parameters in one pattern. */
#define HTTP_MAX_PARAMS	8

struct http_options {
	const char	*address;		/* IPv4 or IPv6 literal */
	unsigned	 port;			/* 0: any free port */
	size_t		 max_body_size;
	size_t		 max_header_size;
	unsigned	 max_connections;
	unsigned	 max_connections_per_ip;	/* 0: no limit */
	unsigned	 connection_timeout;	/* seconds */
	unsigned	 request_timeout;	/* seconds for a request to
						 * arrive whole; 0: none */
	unsigned	 threads;
	unsigned	 workers;		/* threads for HTTP_ROUTE_SLOW
						 * handlers; 0: none, they run
						 * on the HTTP threads */
	const char	*admin_token;		/* copied; NULL or "": admin
						 * routes always answer 401 */
	bool		 log_requests;		/* one info line per request */
	int		 listen_fd;		/* > 0: serve on this listening
						 * socket (socket activation;
						 * address and port unused);
						 * 0: bind address, port */
	const char	*tls_cert;		/* PEM certificate chain file
						 * and its PEM key file: HTTPS;
						 * NULL or "": plain HTTP */
	const char	*tls_key;
};

/*
 * Start serving. routes is an array of nroutes rows, borrowed until
 * http_server_stop() (keep it static). Returns NULL with a reason in err
 * when the server cannot start (bad address, port in use, bad pattern).
 */
struct http_server *http_server_start(const struct http_options *opts,
	    const struct http_route *routes, size_t nroutes, void *user,
	    char *err, size_t errsize);

/*
 * HTTPS. A server started with tls_cert and tls_key answers every TLS
 * handshake with the credentials current at that moment, so
 * http_tls_reload() swaps them without closing the listening socket or a
 * connection: connections already open keep their session, new ones get
 * the new certificate. One HTTPS server per process.
 *
 * http_tls_check() loads a certificate chain and key as the server would
 * (PEM files, the key unencrypted and the certificate's) and frees them;
 * http_tls_reload() loads them and serves them from the next handshake on,
 * or keeps the running ones when they do not load. Both: 0, or -1 with a
 * reason naming the file at fault in err.
 */
int	http_tls_check(const char *cert, const char *key, char *err,
	    size_t errsize);
int	http_tls_reload(struct http_server *srv, const char *cert,
	    const char *key, char *err, size_t errsize);
/* Tell whether srv serves HTTPS. */
bool	http_tls_serving(const struct http_server *srv);

/* The port the server listens on (useful with port 0). */
unsigned	http_server_port(const struct http_server *srv);

/* Turn the per-request log lines on or off while serving. */
void	http_server_set_log_requests(struct http_server *srv, bool on);

/*
 * Stop accepting connections, let requests in progress finish (waiting at
 * most drain_seconds), then close every connection and free srv. Accepts
 * NULL.
 */
void	http_server_stop(struct http_server *srv, unsigned drain_seconds);

/*
 * Request accessors. Returned strings are borrowed from req and valid
 * during the handler call only.
 */
const char	*http_request_method(const struct http_request *req);
const char	*http_request_path(const struct http_request *req);
const struct http_route *http_request_route(const struct http_request *req);
/* A path parameter's text, percent-decoded; NULL if the pattern has none. */
const char	*http_request_param(const struct http_request *req,
		    const char *name);
/* A {name:int} parameter's value; -1 if the pattern has none. */
int64_t		 http_request_param_int(const struct http_request *req,
		    const char *name);
/* A query argument (percent-decoded), or NULL; "" for "?flag". */
const char	*http_request_query(const struct http_request *req,
		    const char *name);
/*
 * Check the query's parameter names against `known` (names separated by
 * spaces): 0, or -1 with the sentence naming the first unknown one and the
 * closest known name in `why`.
 */
int		 http_request_query_check(const struct http_request *req,
		    const char *known, char *why, size_t whysize);
/* A request header (name case-insensitive), or NULL. */
const char	*http_request_header(const struct http_request *req,
		    const char *name);
/* The client's address, numeric ("127.0.0.1", "::1"), or "unknown". */
void		 http_request_address(const struct http_request *req,
		    char *buf, size_t size);
/* The body (NUL-terminated, may contain NULs) and its length. */
const char	*http_request_body(const struct http_request *req,
		    size_t *len);
/* Tell whether the client prefers text/plain to application/json. */
bool		 http_request_wants_text(const struct http_request *req);
/*
 * Parse the body as a JSON object. On failure answer 400 (or 415 when
 * Content-Type is neither JSON nor absent) through resp and return NULL.
 * The caller owns the result (json_decref).
 */
json_t		*http_request_json(const struct http_request *req,
		    struct http_response *resp);

/* Answer with a JSON value; steals the reference to body. */
void	http_respond_json(struct http_response *resp, unsigned status,
	    json_t *body);
/* Answer with bytes (copied) of a content type, e.g. "text/plain". */
void	http_respond_data(struct http_response *resp, unsigned status,
	    const char *content_type, const void *data, size_t len);
/*
 * Answer with bytes that are not copied: they must stay valid until the
 * response calls release(data), once, when libmicrohttpd has sent them
 * (or at once, when the answer is replaced or not queued).
 */
void	http_respond_shared(struct http_response *resp, unsigned status,
	    const char *content_type, const char *data, size_t len,
	    void (*release)(void *));
/*
 * Answer with the first `size` bytes of an open file (sent from its offset
 * 0 as the client reads them, not copied); the response owns fd and
 * closes it.
 */
void	http_respond_fd(struct http_response *resp, unsigned status,
	    const char *content_type, int fd, uint64_t size);
/* Answer with text/plain; charset=utf-8 (copied). */
void	http_respond_text(struct http_response *resp, unsigned status,
	    const char *text);
/*
 * Answer with an error: code is a short machine word ("not-found",
 * "illegal_move"), the message a sentence for people. JSON or text/plain
 * as the request prefers.
 */
void	http_respond_error(struct http_response *resp, unsigned status,
	    const char *code, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 4, 5)));
/* Tell whether an If-None-Match header value (NULL: none) names `etag`
 * (a quoted entity tag), weakly compared, or is "*". */
bool	http_etag_matches(const char *inm, const char *etag);
/* A quoted entity tag: two 64-bit halves in hex, and the NUL. */
#define HTTP_ETAG_SIZE	35
/* Write the entity tag an HTTP_ROUTE_ETAG route gives `len` bytes. */
void	http_etag_make(const void *data, size_t len,
	    char out[HTTP_ETAG_SIZE]);
/* Give the answer the entity tag made of its bytes before (by
 * http_etag_make() on the same bytes), instead of hashing them again;
 * call after http_respond_*. */
void	http_response_set_etag(struct http_response *resp, const char *tag);
/*
 * STREAMS. Answer with bytes that come later: `first` (len bytes, copied)
 * at once, then each http_stream_push() as it comes, chunked, until
 * http_stream_release() or the client leaves. While nothing waits the
 * connection is suspended (no thread, no polling). At most `max` bytes
 * wait unsent: a push past them ends the stream (the client reconnects).
 * Returns the caller's reference (release it in every case), or NULL
 * having answered 503. Push and release from any thread.
 */
struct http_stream;
struct http_stream *http_respond_stream(struct http_response *resp,
	    unsigned status, const char *content_type, const void *first,
	    size_t len, size_t max);
/* Push bytes: 0, or -1 when the stream ended (the client left, it fell
 * too far behind, or the server stops): release it then. */
int	http_stream_push(struct http_stream *, const void *data, size_t len);
/*
 * Push bytes and leave the connection asleep: 1 when the caller must wake
 * it (http_stream_wake()) once its other pushes are done, 0 when it needs
 * no waking, -1 as for http_stream_push(). A fan-out pushes to every
 * stream first and wakes them after, so the connections start sending
 * together instead of one by one between the pushes.
 */
int	http_stream_push_later(struct http_stream *, const void *data,
	    size_t len);
/* Ask the stream's socket whether its client left, and end the stream
 * then (its connection closes): 0 while it stays, -1 when it ended
 * (release it). Costs one poll(2), sends nothing. */
int	http_stream_probe(struct http_stream *);
/* Resume a stream's connection if its reader sleeps. */
void	http_stream_wake(struct http_stream *);
/* End the stream from our side and drop the caller's reference. */
void	http_stream_release(struct http_stream *);
/* The streams open now. */
unsigned http_server_streams(struct http_server *);

/*
 * LATER ANSWERS. A handler whose answer waits on another thread (a commit
 * of the writer's) calls http_respond_later() and returns: its connection
 * is then suspended inside libmicrohttpd, and no thread waits for it.
 * Whoever finishes the work calls http_later_ready() once, from any
 * thread, even before the handler has returned; the request's HTTP thread
 * then calls finish(req, resp, user, arg), which answers as a handler
 * does (user is the pointer given to http_server_start()). When the
 * client is gone by then, finish is called with resp NULL, only to free
 * what arg holds. Not for HTTP_ROUTE_SLOW routes (their handlers may run
 * on a worker, where there is nothing to suspend); the handle is valid
 * until http_later_ready() returns.
 */
typedef void (*http_finish)(struct http_request *req,
    struct http_response *resp, void *user, void *arg);
struct http_later;
struct http_later *http_respond_later(struct http_response *resp,
	    http_finish finish, void *arg);
void	http_later_ready(struct http_later *);

/* Add a header to the answer (copied); call after http_respond_*. */
void	http_response_header(struct http_response *resp, const char *name,
	    const char *value);

/*
 * Machine word for a status: 400 "bad-request", 401 "unauthorized", 403
 * "forbidden", 404 "not-found", 405 "method-not-allowed", 409 "conflict",
 * 413 "payload-too-large", 415 "unsupported-media-type", 422
 * "unprocessable", 431 "headers-too-large", 500 "internal", otherwise
 * "error".
 */
const char *http_status_code_word(unsigned status);

#endif /* CORRCHESS_HTTP_H */
