/*
 * mail/mail_curl.c: libcurl set up alike for the IMAP and SMTP clients.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* libcurl set up for the mail clients; see mail_curl.h. */

#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "mail/mail_curl.h"

static pthread_once_t	mail_curl_once = PTHREAD_ONCE_INIT;
static CURLcode		mail_curl_init_result;

/* Call curl_global_init(), once. */
static void
mail_curl_global_init(void)
{
	mail_curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Initialise libcurl once per process; return its result. */
CURLcode
mail_curl_init(void)
{
	pthread_once(&mail_curl_once, mail_curl_global_init);
	return mail_curl_init_result;
}

/* Set the options every request of a mail client shares. */
CURLcode
mail_curl_setup(CURL *c, const struct mail_curl_options *o, char *errbuf,
    curl_debug_callback debug, void *arg)
{
	CURLcode	rc = CURLE_OK;

	if (o->user != NULL)
		rc = curl_easy_setopt(c, CURLOPT_USERNAME, o->user);
	if (rc == CURLE_OK && o->user != NULL)
		rc = curl_easy_setopt(c, CURLOPT_PASSWORD, o->password);
	if (rc == CURLE_OK && !o->tls) {
		rc = curl_easy_setopt(c, CURLOPT_USE_SSL,
		    o->starttls == MAIL_STARTTLS_REQUIRED ? CURLUSESSL_ALL :
		    o->starttls == MAIL_STARTTLS_TRY ? CURLUSESSL_TRY :
		    CURLUSESSL_NONE);
	}
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER,
		    o->tls_verify ? 1L : 0L);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST,
		    o->tls_verify ? 2L : 0L);
	if (rc == CURLE_OK && o->ca_file != NULL)
		rc = curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
		    o->connect_timeout);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_TIMEOUT, o->timeout);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, debug);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_DEBUGDATA, arg);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	return rc;
}

/* Close a client's connection and free its options' strings. */
void
mail_curl_close(CURL *c, struct mail_curl_options *o)
{
	if (c != NULL)
		curl_easy_cleanup(c);
	free(o->user);
	if (o->password != NULL) {
		explicit_bzero(o->password, strlen(o->password));
		free(o->password);
	}
	free(o->ca_file);
	memset(o, 0, sizeof *o);
}

/* Copy the first line of data into line, control characters as '?'. */
size_t
mail_curl_line(char *line, size_t linesize, const char *data, size_t size)
{
	size_t	i, n = 0;

	for (i = 0; i < size && n + 1 < linesize; i++) {
		if (data[i] == '\r' || data[i] == '\n')
			break;
		line[n++] = (data[i] < 0x20 || data[i] == 0x7f) ? '?' : data[i];
	}
	if (n > 0)
		line[n] = '\0';
	return n;
}
