/*
 * api/api_admin.c: the REST handlers of the server itself: the admin's
 * backup and the server's public key.
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
#include <string.h>
#include <time.h>

#include <jansson.h>

#include <sodium.h>

#include "api/api_admin.h"
#include "api/api_respond.h"
#include "http/http.h"
#include "service/service.h"

/*
 * POST /api/v1/admin/backup: a consistent copy of the database, made with
 * SQLite's online backup while the server goes on, sent back as the file
 * (application/vnd.sqlite3, read from disk as the client takes it) and
 * named after the time it was taken.
 */
void
api_admin_backup(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_error	 err;
	struct tm		 tm;
	char			 disp[96];
	int64_t			 size;
	time_t			 t = (time_t)service_now(user);
	int			 fd;

	(void)req;
	if (service_backup(user, &fd, &size, &err) != 0) {
		api_error(resp, &err);
		return;
	}
	http_respond_fd(resp, 200, "application/vnd.sqlite3", fd,
	    (uint64_t)size);
	gmtime_r(&t, &tm);
	strftime(disp, sizeof disp, "attachment; "
	    "filename=\"corrchess-%Y%m%dT%H%M%SZ.db\"", &tm);
	http_response_header(resp, "Content-Disposition", disp);
}

/* GET /api/v1/server-key: the key the server attests actions with. */
void
api_server_key(struct http_request *req, struct http_response *resp,
    void *user)
{
	uint8_t	pk[SIG_PUBKEY_BYTES];
	char	line[SIG_PUBKEY_LINE_SIZE + 32], fp[SIG_FINGERPRINT_SIZE];
	char	b64[sodium_base64_ENCODED_LEN(SIG_PUBKEY_BYTES,
		    sodium_base64_VARIANT_ORIGINAL)];

	if (service_server_key(user, pk) != 0) {
		http_respond_error(resp, 404, "no-server-key",
		    "this server has no key: it attests no action");
		return;
	}
	sig_pubkey_format(pk, "corrchessd", line, sizeof line);
	sig_pubkey_fingerprint(pk, fp);
	sodium_bin2base64(b64, sizeof b64, pk, sizeof pk,
	    sodium_base64_VARIANT_ORIGINAL);
	if (http_request_wants_text(req)) {
		line[strcspn(line, "\n")] = '\0';
		strncat(line, "\n", sizeof line - strlen(line) - 1);
		http_respond_text(resp, 200, line);
		return;
	}
	line[strcspn(line, "\n")] = '\0';
	http_respond_json(resp, 200, json_pack("{s:s,s:s,s:s}", "key", line,
	    "base64", b64, "fingerprint", fp));
}
