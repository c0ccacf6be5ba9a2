/*
 * client/cli_http.c: requests to corrchessd's REST API, and its answers.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Over libcurl; see cli_http.h. */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <jansson.h>

#include "util/buf.h"
#include "client/cli.h"
#include "client/cli_http.h"

/* Largest answer we read from the server. */
#define CLI_HTTP_REPLY_MAX	(16 * 1024 * 1024)

/* Seconds to wait for a connection, and for a whole request. */
#define CLI_HTTP_CONNECT_TIMEOUT	15
#define CLI_HTTP_TIMEOUT		120

/* The certificate authorities' file that --cacert or "cacert =" named,
 * set once at a command's start; empty for the system's. */
static char cli_http_cacert[4096];

/* Trust the certificate authorities in `file` from now on. */
int
cli_http_set_cacert(const char *file, char *err, size_t errsize)
{
	FILE	*f;

	if (file == NULL) {
		cli_http_cacert[0] = '\0';
		return 0;
	}
	if ((f = fopen(file, "r")) == NULL)
		return errbuf_set(err, errsize, "certificate authority file "
		    "%s (--cacert, or cacert = in the configuration): %s",
		    file, strerror(errno));
	fclose(f);
	if (snprintf(cli_http_cacert, sizeof cli_http_cacert, "%s", file) >=
	    (int)sizeof cli_http_cacert) {
		cli_http_cacert[0] = '\0';
		return errbuf_set(err, errsize, "certificate authority file "
		    "name too long");
	}
	return 0;
}

/* What to add to libcurl's reason when the server's certificate failed. */
const char *
cli_http_tls_hint(int cc)
{
	if (cc != CURLE_PEER_FAILED_VERIFICATION &&
	    cc != CURLE_SSL_CACERT_BADFILE)
		return "";
	if (cli_http_cacert[0] != '\0')
		return " (the server's certificate is not signed by a "
		    "certificate authority of the --cacert file, or does not "
		    "name this host)";
	return " (a server whose certificate a private certificate "
	    "authority signed: --cacert FILE, or cacert = in the "
	    "configuration)";
}

/* Set the options every request of the client shares. */
void
cli_http_setopt_common(void *curl, char *cerr)
{
	if (cli_http_cacert[0] != '\0')
		curl_easy_setopt(curl, CURLOPT_CAINFO, cli_http_cacert);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, PACKAGE_NAME "/"
	    PACKAGE_VERSION);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP |
	    CURLPROTO_HTTPS));
#endif
}

/* Start libcurl for a command, or say why not. */
int
cli_http_start(const struct cli_cmd *self)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		cli_error(self, "cannot start libcurl");
		return -1;
	}
	return 0;
}

/* Stop libcurl. */
void
cli_http_stop(void)
{
	curl_global_cleanup();
}

/* Collect the answer's bytes, up to CLI_HTTP_REPLY_MAX. */
static size_t
cli_http_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct buf	*b = arg;
	size_t		 n = size * nmemb;

	if (n > CLI_HTTP_REPLY_MAX || b->len > CLI_HTTP_REPLY_MAX - n)
		return 0;
	buf_add(b, data, n);
	return b->failed ? 0 : n;
}

/* Release an answer. */
void
cli_http_reply_free(struct cli_http_reply *r)
{
	free(r->body);
	json_decref(r->json);
	memset(r, 0, sizeof *r);
}

/* Send one request asking for JSON and collect the answer. */
int
cli_http_request(const char *server, const char *method, const char *path,
    const char *body, size_t len, const char *ctype, struct cli_http_reply *r,
    char *err, size_t errsize)
{
	return cli_http_request_as(server, NULL, method, path, NULL, body,
	    len, ctype, r, err, errsize);
}

/* Send one request, with the admin token when given and asking for
 * `accept` (JSON when NULL), and collect the answer. */
int
cli_http_request_as(const char *server, const char *token,
    const char *method, const char *path, const char *accept,
    const char *body, size_t len, const char *ctype,
    struct cli_http_reply *r, char *err, size_t errsize)
{
	CURL			*curl = NULL;
	struct curl_slist	*hdrs = NULL, *h;
	struct buf		 b = { 0 };
	char			 cerr[CURL_ERROR_SIZE], *url = NULL;
	char			*hct = NULL, *auth = NULL;
	const char		*ctstr = NULL;
	size_t			 slen;
	CURLcode		 cc;
	int			 rc = -1;

	memset(r, 0, sizeof *r);
	cerr[0] = '\0';

	/* SERVER without its trailing slashes, then PATH. */
	slen = strlen(server);
	while (slen > 0 && server[slen - 1] == '/')
		slen--;
	if (asprintf(&url, "%.*s%s", (int)slen, server, path) == -1) {
		url = NULL;
		goto oom;
	}
	if ((curl = curl_easy_init()) == NULL) {
		errbuf_set(err, errsize, "cannot start libcurl");
		goto out;
	}

	if (asprintf(&hct, "Accept: %s",
	    accept != NULL ? accept : "application/json") == -1) {
		hct = NULL;
		goto oom;
	}
	h = curl_slist_append(hdrs, hct);
	free(hct);
	hct = NULL;
	if (h == NULL)
		goto oom;
	hdrs = h;
	/* No "Expect: 100-continue" round trip for our small bodies. */
	if ((h = curl_slist_append(hdrs, "Expect:")) == NULL)
		goto oom;
	hdrs = h;
	if (token != NULL) {
		if (asprintf(&auth, "Authorization: Bearer %s", token) == -1) {
			auth = NULL;
			goto oom;
		}
		if ((h = curl_slist_append(hdrs, auth)) == NULL)
			goto oom;
		hdrs = h;
	}
	if (body != NULL) {
		if (asprintf(&hct, "Content-Type: %s", ctype) == -1) {
			hct = NULL;
			goto oom;
		}
		if ((h = curl_slist_append(hdrs, hct)) == NULL)
			goto oom;
		hdrs = h;
	}

	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
	cli_http_setopt_common(curl, cerr);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, (long)
	    CLI_HTTP_CONNECT_TIMEOUT);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)CLI_HTTP_TIMEOUT);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, cli_http_write);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &b);
	if (body != NULL) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)len);
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)
		curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);

	if ((cc = curl_easy_perform(curl)) != CURLE_OK) {
		if (b.failed)
			goto oom;
		if (cc == CURLE_WRITE_ERROR)
			errbuf_set(err, errsize, "the answer of the corrchess "
			    "server at %.*s is larger than %d MiB", (int)slen,
			    server, CLI_HTTP_REPLY_MAX / (1024 * 1024));
		else if (*cli_http_tls_hint(cc) != '\0')
			errbuf_set(err, errsize, "cannot reach the corrchess "
			    "server at %.*s: %s%s", (int)slen, server,
			    cerr[0] != '\0' ? cerr : curl_easy_strerror(cc),
			    cli_http_tls_hint(cc));
		else
			errbuf_set(err, errsize, "cannot reach the corrchess "
			    "server at %.*s: %s (another server: -s URL, "
			    "CORRCHESS_SERVER, or server = in the "
			    "configuration)", (int)slen, server,
			    cerr[0] != '\0' ? cerr : curl_easy_strerror(cc));
		goto out;
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r->status);
	if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &ctstr) !=
	    CURLE_OK)
		ctstr = NULL;

	buf_adds(&b, "");
	if ((r->body = buf_take(&b, &r->len)) == NULL)
		goto oom;
	/* JSON by its type, or by its look when a proxy lost the type. */
	if ((ctstr != NULL && strncasecmp(ctstr, "application/json", 16) ==
	    0) || r->body[0] == '{')
		r->json = json_loadb(r->body, r->len, 0, NULL);
	rc = 0;
	goto out;
oom:
	errbuf_set(err, errsize, "out of memory");
out:
	if (rc == -1)
		cli_http_reply_free(r);
	buf_free(&b);
	free(hct);
	free(url);
	if (auth != NULL) {
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	curl_slist_free_all(hdrs);
	if (curl != NULL)
		curl_easy_cleanup(curl);
	return rc;
}

/* A JSON member that is a string. */
const char *
cli_http_json_str(const json_t *obj, const char *key)
{
	json_t	*v;

	if (!json_is_object(obj))
		return NULL;
	v = json_object_get(obj, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A JSON member that is an integer. */
bool
cli_http_json_int(const json_t *obj, const char *key, json_int_t *out)
{
	json_t	*v;

	if (!json_is_object(obj))
		return false;
	v = json_object_get(obj, key);
	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

/* Copy printable text into buf, stopping at the first line end. */
static void
cli_http_first_line(const char *s, size_t len, char *buf, size_t size)
{
	size_t	i, o = 0;

	if (size == 0)
		return;
	for (i = 0; i < len && o + 1 < size; i++) {
		if (s[i] == '\n' || s[i] == '\r')
			break;
		buf[o++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	}
	buf[o] = '\0';
}

/* Write the server's reason for a refusal. */
void
cli_http_reply_error(const struct cli_http_reply *r, char *buf, size_t size)
{
	const char	*msg, *code;
	json_t		*e;
	char		 line[256];

	e = json_is_object(r->json) ? json_object_get(r->json, "error") :
	    NULL;
	msg = cli_http_json_str(e, "message");
	code = cli_http_json_str(e, "code");
	if (msg != NULL && msg[0] != '\0') {
		snprintf(buf, size, "%s", msg);
		return;
	}
	if (code != NULL && code[0] != '\0') {
		snprintf(buf, size, "%s (HTTP %ld)", code, r->status);
		return;
	}
	cli_http_first_line(r->body != NULL ? r->body : "", r->len, line,
	    sizeof line);
	if (line[0] != '\0')
		snprintf(buf, size, "HTTP %ld: %s", r->status, line);
	else
		snprintf(buf, size, "HTTP %ld with no explanation", r->status);
}
