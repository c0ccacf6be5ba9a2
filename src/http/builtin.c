/*
 * http/builtin.c: the routes every server has: GET /healthz, GET /metrics.
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

#include <stdio.h>
#include <stdlib.h>

#include "http/http_int.h"
#include "util/metrics.h"

static void	http_builtin_healthz(struct http_request *,
		    struct http_response *, void *);
static void	http_builtin_metrics(struct http_request *,
		    struct http_response *, void *);

/* Served after the caller's routes (tests/openapi.sh reads these rows). */
const struct http_route http_builtin[HTTP_NBUILTIN] = {
	{ "GET", "/healthz", HTTP_AUTH_NONE, http_builtin_healthz, 0 },
	{ "GET", "/metrics", HTTP_AUTH_NONE, http_builtin_metrics, 0 },
};

/* Answer GET /healthz: the server is up. */
static void
http_builtin_healthz(struct http_request *req, struct http_response *resp,
    void *user)
{
	(void)req;
	(void)user;
	http_respond_text(resp, 200, "ok\n");
}

/* Answer GET /metrics: counters in the Prometheus text format. */
static void
http_builtin_metrics(struct http_request *req, struct http_response *resp,
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
				    http_status_counted(j),
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
