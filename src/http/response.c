/*
 * http/response.c: answers built by handlers: http_respond_*().
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
 * A struct http_response holds what the handler said (status, type, bytes
 * or a file, headers) until server.c turns it into libmicrohttpd's
 * response and queues it. Out of memory, the response is left set but
 * empty, which server.c answers with 500.
 */

#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "http/http_int.h"
#include "util/log.h"

/* Free a response's contents. */
void
http_response_clear(struct http_response *resp)
{
	size_t	i;

	if (resp->stream != NULL)
		http_stream_unqueued(resp->stream);
	resp->stream = NULL;
	free(resp->content_type);
	free(resp->data);
	if (resp->shared != NULL)
		resp->release((void *)resp->shared);
	resp->shared = NULL;
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
	resp->etag[0] = '\0';
	resp->set = 0;
}

/* Leave an answer with a status but no body (out of memory). */
static void
http_response_empty(struct http_response *resp, unsigned status)
{
	http_response_clear(resp);
	resp->status = status;
	resp->set = 1;
}

/* Answer with a file's bytes, from its offset 0; takes the descriptor. */
void
http_respond_fd(struct http_response *resp, unsigned status,
    const char *content_type, int fd, uint64_t size)
{
	http_response_empty(resp, status);
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
	http_response_empty(resp, status);
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

/* Answer with bytes that are not copied; release(data) gives them back. */
void
http_respond_shared(struct http_response *resp, unsigned status,
    const char *content_type, const char *data, size_t len,
    void (*release)(void *))
{
	http_response_empty(resp, status);
	resp->shared = data;
	resp->release = release;
	resp->len = len;
	if ((resp->content_type = strdup(content_type)) == NULL) {
		log_warnx("http: out of memory building a response");
		http_response_clear(resp);
	}
}

/* Answer with text/plain. */
void
http_respond_text(struct http_response *resp, unsigned status,
    const char *text)
{
	http_respond_data(resp, status, "text/plain; charset=utf-8", text,
	    strlen(text));
}

/* Answer with JSON text and a final newline, kind to terminals (curl). */
static void
http_respond_json_text(struct http_response *resp, unsigned status,
    const char *text)
{
	char	*p;

	http_respond_data(resp, status, "application/json", text,
	    strlen(text));
	if (resp->data != NULL &&
	    (p = realloc(resp->data, resp->len + 2)) != NULL) {
		resp->data = p;
		p[resp->len++] = '\n';
		p[resp->len] = '\0';
	}
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
	http_respond_json_text(resp, status, text);
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
			http_response_empty(resp, status);
			return;
		}
		http_respond_text(resp, status, text);
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
		http_response_empty(resp, status);
		return;
	}
	http_respond_json_text(resp, status, text);
	free(text);
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

/* Tell whether an If-None-Match header names `etag` (or is "*"). */
bool
http_etag_matches(const char *inm, const char *etag)
{
	size_t	n = strlen(etag), k;

	while (inm != NULL && *inm != '\0') {
		inm += strspn(inm, " \t,");
		k = strcspn(inm, ", \t");
		if ((k == 1 && inm[0] == '*') || (k == n &&
		    strncmp(inm, etag, n) == 0) || (k == n + 2 &&
		    strncmp(inm, "W/", 2) == 0 &&
		    strncmp(inm + 2, etag, n) == 0))
			return true;
		inm += k;
	}
	return false;
}

/*
 * Write the entity tag of `len` bytes: 128 bits of two multiply-xor lanes
 * over the bytes eight at a time, quoted. Not a cryptographic hash: it
 * only tells one version of a resource from the next.
 */
void
http_etag_make(const void *data, size_t len, char out[HTTP_ETAG_SIZE])
{
	const unsigned char	*p = data;
	uint64_t	a = 0x9e3779b97f4a7c15ULL ^ len, b = 0xc2b2ae3d27d4eb4fULL;
	uint64_t	w;
	size_t		i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		a = (a ^ w) * 0x100000001b3ULL;
		b = (b ^ (w >> 29 | w << 35)) * 0xff51afd7ed558ccdULL;
	}
	w = 0;
	memcpy(&w, p + i, len - i);
	a = (a ^ w) * 0x100000001b3ULL;
	b = (b ^ (w >> 29 | w << 35)) * 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	a *= 0xc4ceb9fe1a85ec53ULL;
	a ^= a >> 33;
	b ^= b >> 31;
	snprintf(out, HTTP_ETAG_SIZE, "\"%016llx%016llx\"",
	    (unsigned long long)a, (unsigned long long)b);
}

/*
 * Tag a 200 answer of an HTTP_ROUTE_ETAG route; answer 304 without its
 * bytes when the request's If-None-Match names the tag.
 */
void
http_response_etag(struct http_request *req, struct http_response *resp)
{
	const char	*body = resp->data != NULL ? resp->data : resp->shared;
	char		 tag[HTTP_ETAG_SIZE];
	size_t		 i;
	bool		 cc = false;

	if (resp->status != 200 || body == NULL)
		return;
	if (resp->etag[0] != '\0')
		memcpy(tag, resp->etag, sizeof tag);
	else
		http_etag_make(body, resp->len, tag);
	if (http_etag_matches(http_request_header(req, "If-None-Match"),
	    tag)) {
		resp->status = 304;
		resp->len = 0;
		if (resp->data != NULL)
			resp->data[0] = '\0';
		else {
			resp->release((void *)resp->shared);
			resp->shared = NULL;
		}
	}
	http_response_header(resp, "ETag", tag);
	for (i = 0; i < resp->nheaders; i++)
		cc |= strcasecmp(resp->headers[i * 2], "Cache-Control") == 0;
	if (!cc)
		http_response_header(resp, "Cache-Control", "no-cache");
}

/* Give the answer the tag made of its bytes before. */
void
http_response_set_etag(struct http_response *resp, const char *tag)
{
	if (tag != NULL && strlen(tag) < sizeof resp->etag)
		memcpy(resp->etag, tag, strlen(tag) + 1);
}
