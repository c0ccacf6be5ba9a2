/*
 * client/cli_http.h: requests to corrchessd's REST API, and its answers.
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
 * The client's requests over libcurl and the reading of the server's JSON
 * (cli_http.c). Functions with an `err` buffer write a sentence for the
 * user into it when they fail and print nothing.
 */

#ifndef CORRCHESS_CLI_HTTP_H
#define CORRCHESS_CLI_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct cli_cmd;

/* An answer of the server. */
struct cli_http_reply {
	long	 status;	/* HTTP status */
	char	*body;		/* NUL-terminated; may be empty, never NULL */
	size_t	 len;
	json_t	*json;		/* the body parsed, when it is JSON */
};

/* Start libcurl for command `self` (once per command), or print why not;
 * 0 or -1. Stop it with cli_http_stop(). */
int cli_http_start(const struct cli_cmd *self);
void cli_http_stop(void);

/*
 * Trust the certificate authorities (PEM) in `file` for every later
 * request of the process (NULL: the system's again); the name is copied.
 * Called once at a command's start, from cli_conf_options(). Returns 0,
 * or -1 when the file cannot be read, with why in `err`.
 */
int cli_http_set_cacert(const char *file, char *err, size_t errsize);

/* The words to add after libcurl's reason for a failed request with
 * code `cc` (a CURLcode): for a certificate that did not verify, a hint
 * naming --cacert; else "". A static string. */
const char *cli_http_tls_hint(int cc);

/* Set the options every request of the client shares on libcurl handle
 * `curl`: the error buffer `cerr` (CURL_ERROR_SIZE bytes), no signals, the
 * user agent, HTTP and HTTPS only, the --cacert file if one was set. */
void cli_http_setopt_common(void *curl, char *cerr);

/*
 * Send METHOD SERVER/PATH (PATH starts with '/'), with `body` of type
 * `ctype` when body is not NULL, asking for JSON. Returns 0 when the
 * server answered (whatever the status: see r->status), or -1 when it
 * could not be reached ("cannot reach the corrchess server at URL: ...")
 * or the answer was too large. Free with cli_http_reply_free().
 */
int cli_http_request(const char *server, const char *method, const char *path,
    const char *body, size_t len, const char *ctype, struct cli_http_reply *r,
    char *err, size_t errsize);

/* The same with "Authorization: Bearer TOKEN" when token is not NULL
 * (the admin API), asking for the type `accept` ("text/plain;
 * charset=utf-8"; JSON when NULL). */
int cli_http_request_as(const char *server, const char *token,
    const char *method, const char *path, const char *accept,
    const char *body, size_t len,
    const char *ctype, struct cli_http_reply *r, char *err, size_t errsize);

/* Release an answer. */
void cli_http_reply_free(struct cli_http_reply *);

/*
 * Write the server's reason for a refusal into buf: the message of
 * {"error":{"code","message"}}, or for another body its first line, or
 * the HTTP status alone.
 */
void cli_http_reply_error(const struct cli_http_reply *, char *buf,
    size_t size);

/* A JSON member that is a string, or NULL (absent or another type). */
const char *cli_http_json_str(const json_t *obj, const char *key);

/* A JSON member that is an integer: true and *v, or false. */
bool cli_http_json_int(const json_t *obj, const char *key, json_int_t *v);

#endif /* CORRCHESS_CLI_HTTP_H */
