/*
 * http/status.c: the one table of HTTP status codes the server names.
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
 * Each row is a status code /metrics counts by itself (its row number is
 * its counter slot; any other code counts as "other"), with the machine
 * word an error answer of that status carries, when it has one of its own
 * (the others say "error").
 */

#include "config.h"

#include <stddef.h>

#include "http/http_int.h"

static const struct {
	unsigned	 status;
	const char	*word;		/* NULL: "error" */
} http_statuses[] = {
	{ 200, NULL },
	{ 201, NULL },
	{ 202, NULL },
	{ 204, NULL },
	{ 301, NULL },
	{ 302, NULL },
	{ 304, NULL },
	{ 400, "bad-request" },
	{ 401, "unauthorized" },
	{ 403, "forbidden" },
	{ 404, "not-found" },
	{ 405, "method-not-allowed" },
	{ 406, NULL },
	{ 409, "conflict" },
	{ 410, NULL },
	{ 413, "payload-too-large" },
	{ 415, "unsupported-media-type" },
	{ 422, "unprocessable" },
	{ 429, NULL },
	{ 431, "headers-too-large" },
	{ 500, "internal" },
	{ 503, NULL },
};

_Static_assert(sizeof http_statuses / sizeof http_statuses[0] + 1 ==
    HTTP_NSTATUS, "HTTP_NSTATUS is the table's rows and one for the others");

/* Counter slot of a status: its row in the table, or the last slot. */
size_t
http_status_index(unsigned status)
{
	size_t	i;

	for (i = 0; i < HTTP_NSTATUS - 1; i++) {
		if (http_statuses[i].status == status)
			return i;
	}
	return HTTP_NSTATUS - 1;
}

/* Return the status code counted in slot i. */
unsigned
http_status_counted(size_t i)
{
	return http_statuses[i].status;
}

/* Return the machine word for a status. */
const char *
http_status_code_word(unsigned status)
{
	size_t	i = http_status_index(status);

	if (i == HTTP_NSTATUS - 1 || http_statuses[i].word == NULL)
		return "error";
	return http_statuses[i].word;
}
