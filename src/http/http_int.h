/*
 * http/http_int.h: what the HTTP core's files share (private to src/http).
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
 * The server's structs and the functions one file of src/http calls in
 * another. Callers outside src/http see only http.h.
 *
 *   route.c     patterns compiled, requests matched (404, 405)
 *   request.c   request accessors, content negotiation, a request's end
 *   response.c  building an answer: http_respond_*()
 *   status.c    the one table of status codes: words, /metrics slots
 *   server.c    libmicrohttpd's callbacks, queueing answers (and later
 *               ones), start/stop
 *   listen.c    the listening socket: bound here or inherited
 *   workers.c   the worker threads for HTTP_ROUTE_SLOW handlers
 *   guard.c     each request's deadline; room kept for new addresses
 *   stream.c    answers that stay open, fed by other threads
 *   builtin.c   GET /healthz and GET /metrics
 */

#ifndef CORRCHESS_HTTP_INT_H
#define CORRCHESS_HTTP_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <sodium.h>

#include "http/http.h"

#if MHD_VERSION >= 0x00097002
typedef enum MHD_Result mhd_result;
#else
typedef int mhd_result;
#endif

/*
 * Counter slots per route: one per status code of the table in status.c,
 * and a last one for every other code. status.c checks the number.
 */
#define HTTP_NSTATUS	23

/*
 * HTTPS (tls.c): load the certificate and key of srv->opts before
 * libmicrohttpd starts (0, or -1 with why); free them once it stopped
 * (does nothing for a server without HTTPS); the handshake callback given
 * to libmicrohttpd (MHD_OPTION_HTTPS_CERT_CALLBACK).
 */
int	http_tls_start(struct http_server *, char *err, size_t errsize);
void	http_tls_stop(struct http_server *);
int	http_tls_retrieve(gnutls_session_t, const gnutls_datum_t *req_ca_dn,
	    int nreqs, const gnutls_pk_algorithm_t *pk_algos,
	    int pk_algos_length, gnutls_pcert_st **pcert,
	    unsigned int *pcert_length, gnutls_privkey_t *pkey);

/* The built-in routes (builtin.c), served after the caller's. */
#define HTTP_NBUILTIN	2
extern const struct http_route	http_builtin[HTTP_NBUILTIN];

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
	_Atomic uint64_t	 unmatched[HTTP_NSTATUS];
	atomic_int		 inflight;
	atomic_int		 later;		/* later answers not finished */
	atomic_int		 draining;
	atomic_int		 refusing;	/* stopping: take no connection */
	atomic_bool		 log_requests;
	void			*user;
	/* Workers for slow handlers, and their queue of suspended requests. */
	pthread_t		*workers;
	unsigned		 nworkers;
	pthread_mutex_t		 wlock;
	pthread_cond_t		 wcond;
	struct http_request	*whead, *wtail;
	bool			 wstop;
	/* Open connections and the request deadline's thread (guard.c). */
	pthread_mutex_t		 glock;
	pthread_cond_t		 gcond;
	struct http_guard_conn	*ghead;
	unsigned		 gcount;
	pthread_t		 gthread;
	bool			 gstarted, gstop;
	/* Open streams (stream.c), to end them when the server stops. */
	pthread_mutex_t		 slock;
	struct http_stream	*shead;
	unsigned		 nstreams;
};

struct http_response {
	struct http_request	*req;
	unsigned		 status;
	char			*content_type;
	char			*data;
	const char		*shared;	/* or a body not ours: */
	void			(*release)(void *);	/* given it */
	size_t			 len;
	int			 has_fd;	/* the body is a file: */
	int			 fd;		/* owned until queued */
	uint64_t		 fd_size;
	char			**headers;	/* name, value, name, ... */
	size_t			 nheaders;
	struct http_stream	*stream;	/* a stream: its answer's
						   reference until queued */
	char			 etag[HTTP_ETAG_SIZE];	/* made before, or
							   "" */
	int			 set;
};

/* A later answer (http_respond_later()), and where it is. */
enum http_later_state {
	HTTP_LATER_NONE,
	HTTP_LATER_RUNNING,	/* the handler has not returned yet */
	HTTP_LATER_SUSPENDED,	/* the connection waits, suspended */
	HTTP_LATER_READY,	/* http_later_ready() was called */
};

struct http_later {
	struct http_request	*req;
	atomic_int		 state;		/* enum http_later_state */
	http_finish		 finish;	/* NULL once called */
	void			*arg;
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
	struct http_later	 later;
};

/* response.c */

/* Tag a 200 answer (HTTP_ROUTE_ETAG); 304 when If-None-Match names it. */
void	http_response_etag(struct http_request *, struct http_response *);

/* guard.c */

/* Set up, start, stop and free the guards (see guard.c). */
void	http_guard_init(struct http_server *);
int	http_guard_start(struct http_server *, char *err, size_t errsize);
void	http_guard_stop(struct http_server *);
void	http_guard_free(struct http_server *);
/* libmicrohttpd's accept policy and connection notices. */
mhd_result http_guard_accept(void *cls, const struct sockaddr *addr,
	    socklen_t addrlen);
void	http_guard_notify(void *cls, struct MHD_Connection *,
	    void **socket_context, enum MHD_ConnectionNotificationCode);
/* A connection's request arrived whole (false: the connection was shut,
 * drop the request); it ended (the next one's deadline starts). */
bool	http_guard_whole(struct http_server *, struct MHD_Connection *);
void	http_guard_next(struct http_server *, struct MHD_Connection *);
/* Shut the connections not yet given a whole request, or all; how many. */
unsigned http_guard_shut(struct http_server *, bool all);

/* stream.c */

/* libmicrohttpd's answer of a stream; it takes the answer's reference
 * (NULL when out of memory: then call http_stream_unqueued()). */
struct MHD_Response *http_stream_response(struct http_stream *);
/* Drop the answer's reference of a stream that was never queued. */
void	http_stream_unqueued(struct http_stream *);
/* End every open stream (the server stops); how many. */
unsigned http_streams_end(struct http_server *);

/* route.c */

/* Split a route's pattern into segments; -1 with a reason if it is bad. */
int	http_route_compile(struct http_croute *, const struct http_route *,
	    char *err, size_t errsize);
/* Free a compiled route's parts. */
void	http_route_clear(struct http_croute *);
/*
 * Find the route for a request. Sets req->croute and its parameters, or
 * req->error to 404 or 405 (with req->allow). -1 when out of memory.
 */
int	http_route_request(struct http_server *, struct http_request *);

/* request.c */

/* Free a request's state; NULL is fine. */
void	http_request_free(struct http_request *);

/* response.c */

/* Free a response's contents; the struct can be used again. */
void	http_response_clear(struct http_response *);

/* status.c */

/* Counter slot of a status: its row in the table, or the last slot. */
size_t		http_status_index(unsigned status);
/* The status code counted in slot i (i < HTTP_NSTATUS - 1). */
unsigned	http_status_counted(size_t i);

/* listen.c */

/* Bind and listen as the options say, or take the given socket. */
int	http_listen(struct http_server *, char *err, size_t errsize);

/* workers.c */

/* Set up the workers' queue (before any other call below). */
void	http_workers_init(struct http_server *);
/* Start up to n worker threads; fewer is logged, none is not an error. */
void	http_workers_start(struct http_server *, unsigned n);
/*
 * Hand a slow request to the workers: suspend its connection until a
 * worker has run the handler. 0, or -1 to run it here instead.
 */
int	http_workers_defer(struct http_server *, struct http_request *);
/* Stop the workers after the requests already queued. */
void	http_workers_stop(struct http_server *);
/* Stop the workers and free the queue. */
void	http_workers_free(struct http_server *);

#endif /* CORRCHESS_HTTP_INT_H */
