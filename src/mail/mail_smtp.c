/*
 * mail/mail_smtp.c: mail out: the SMTP client over libcurl.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* The SMTP client over libcurl; see mail_smtp.h. */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "util/errbuf.h"
#include "util/log.h"
#include "mail/mail_curl.h"
#include "mail/mail_smtp.h"

#define SMTP_CONNECT_TIMEOUT	30L
#define SMTP_TIMEOUT		120L
#define SMTP_LINE_SIZE		256

struct mail_smtp {
	CURL			*curl;
	char			*url;
	struct mail_curl_options co;		/* user NULL: no AUTH */
	unsigned long		 connections;

	/* The message being read by libcurl. */
	const char		*data;
	size_t			 len;
	size_t			 pos;

	char			 errbuf[CURL_ERROR_SIZE];
	char			 line[SMTP_LINE_SIZE];	/* server's last */
	char			 eline[SMTP_LINE_SIZE];	/* last 4xx, 5xx */
};

/* Name a result. */
const char *
mail_smtp_strresult(enum mail_smtp_result r)
{
	switch (r) {
	case MAIL_SMTP_OK:
		return "sent";
	case MAIL_SMTP_TEMPFAIL:
		return "temporary failure";
	case MAIL_SMTP_PERMFAIL:
		return "permanent failure";
	}
	return "unknown result";
}

/* Make a client. */
struct mail_smtp *
mail_smtp_create(const struct mail_smtp_options *o, char *err, size_t errsize)
{
	struct mail_smtp	*smtp = NULL;
	CURLU			*u = NULL;
	char			*scheme = NULL;
	CURLcode		 rc;

	if ((rc = mail_curl_init()) != CURLE_OK) {
		errbuf_set(err, errsize, "libcurl: %s", curl_easy_strerror(rc));
		return NULL;
	}
	if (o->url == NULL || *o->url == '\0') {
		errbuf_set(err, errsize, "no SMTP URL");
		return NULL;
	}
	if ((u = curl_url()) == NULL)
		goto nomem;
	if (curl_url_set(u, CURLUPART_URL, o->url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) {
		errbuf_set(err, errsize, "%s: not a URL", o->url);
		goto fail;
	}
	if (strcmp(scheme, "smtp") != 0 && strcmp(scheme, "smtps") != 0) {
		errbuf_set(err, errsize, "%s: not an smtp:// or smtps:// URL",
		    o->url);
		goto fail;
	}
	if ((smtp = calloc(1, sizeof *smtp)) == NULL)
		goto nomem;
	smtp->co.tls = strcmp(scheme, "smtps") == 0;
	if ((smtp->url = strdup(o->url)) == NULL)
		goto nomem;
	if (o->user != NULL && *o->user != '\0') {
		if ((smtp->co.user = strdup(o->user)) == NULL ||
		    (smtp->co.password = strdup(o->password != NULL ?
		    o->password : "")) == NULL)
			goto nomem;
	}
	if (o->ca_file != NULL && *o->ca_file != '\0' &&
	    (smtp->co.ca_file = strdup(o->ca_file)) == NULL)
		goto nomem;
	smtp->co.starttls = o->starttls;
	smtp->co.tls_verify = o->tls_verify;
	smtp->co.connect_timeout = o->connect_timeout > 0 ? o->connect_timeout :
	    SMTP_CONNECT_TIMEOUT;
	smtp->co.timeout = o->timeout > 0 ? o->timeout : SMTP_TIMEOUT;
	if ((smtp->curl = curl_easy_init()) == NULL)
		goto nomem;

	if (!smtp->co.tls_verify && (smtp->co.tls ||
	    smtp->co.starttls != MAIL_STARTTLS_NONE))
		log_warnx("mail: TLS certificate verification is OFF for %s: "
		    "anyone between here and the server can read the mail%s",
		    smtp->url,
		    smtp->co.user != NULL ? " and the password" : "");
	if (!smtp->co.tls && smtp->co.starttls == MAIL_STARTTLS_NONE &&
	    smtp->co.user != NULL)
		log_warnx("mail: %s without TLS: the password crosses the "
		    "network in clear", smtp->url);

	curl_free(scheme);
	curl_url_cleanup(u);
	return smtp;

nomem:
	errbuf_set(err, errsize, "out of memory");
fail:
	curl_free(scheme);
	curl_url_cleanup(u);
	mail_smtp_free(smtp);
	return NULL;
}

/* Close the connection and free smtp. */
void
mail_smtp_free(struct mail_smtp *smtp)
{
	if (smtp == NULL)
		return;
	mail_curl_close(smtp->curl, &smtp->co);
	free(smtp->url);
	free(smtp);
}

/* Return the number of connections opened. */
unsigned long
mail_smtp_connections(const struct mail_smtp *smtp)
{
	return smtp->connections;
}

/* Give libcurl the next piece of the message. */
static size_t
smtp_read(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct mail_smtp	*smtp = arg;
	size_t			 n = size * nmemb;

	if (n > smtp->len - smtp->pos)
		n = smtp->len - smtp->pos;
	memcpy(buf, smtp->data + smtp->pos, n);
	smtp->pos += n;
	return n;
}

/* Keep the server's last line (for error messages). */
static int
smtp_debug(CURL *curl, curl_infotype type, char *data, size_t size,
    void *arg)
{
	struct mail_smtp	*smtp = arg;
	size_t			 n;

	(void)curl;
	if (type != CURLINFO_HEADER_IN)
		return 0;
	n = mail_curl_line(smtp->line, sizeof smtp->line, data, size);
	/* libcurl QUITs after a refusal: keep the refusal itself. */
	if (n > 0 && (smtp->line[0] == '4' || smtp->line[0] == '5'))
		memcpy(smtp->eline, smtp->line, n + 1);
	return 0;
}

/* Send one message. */
enum mail_smtp_result
mail_smtp_send(struct mail_smtp *smtp, const char *from,
    const char *const *rcpt, size_t nrcpt, const char *data, size_t len,
    int *code, char *err, size_t errsize)
{
	CURL			*c = smtp->curl;
	struct curl_slist	*list = NULL, *l;
	char			*addr = NULL;
	size_t			 i, n;
	long			 reply = 0, connects = 0;
	CURLcode		 rc;
	enum mail_smtp_result	 result = MAIL_SMTP_TEMPFAIL;

	if (code != NULL)
		*code = 0;
	if (nrcpt == 0) {
		errbuf_set(err, errsize, "no recipient");
		return MAIL_SMTP_PERMFAIL;
	}
	for (i = 0; i < nrcpt; i++) {
		/* An address with CR or LF would inject SMTP commands. */
		if (strpbrk(rcpt[i], "\r\n") != NULL) {
			errbuf_set(err, errsize, "recipient with a line break");
			result = MAIL_SMTP_PERMFAIL;
			goto out;
		}
		n = strlen(rcpt[i]) + 3;
		if ((addr = malloc(n)) == NULL)
			goto nomem;
		snprintf(addr, n, "<%s>", rcpt[i]);
		if ((l = curl_slist_append(list, addr)) == NULL)
			goto nomem;
		list = l;
		free(addr);
		addr = NULL;
	}
	if (strpbrk(from, "\r\n") != NULL) {
		errbuf_set(err, errsize, "sender with a line break");
		result = MAIL_SMTP_PERMFAIL;
		goto out;
	}
	n = strlen(from) + 3;
	if ((addr = malloc(n)) == NULL)
		goto nomem;
	snprintf(addr, n, "<%s>", from);

	curl_easy_reset(c);
	smtp->data = data;
	smtp->len = len;
	smtp->pos = 0;
	smtp->errbuf[0] = '\0';
	smtp->line[0] = '\0';
	smtp->eline[0] = '\0';
	rc = mail_curl_setup(c, &smtp->co, smtp->errbuf, smtp_debug, smtp);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_URL, smtp->url);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_MAIL_FROM, addr);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_MAIL_RCPT, list);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE,
		    (curl_off_t)len);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_READFUNCTION, smtp_read);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_READDATA, smtp);
	if (rc != CURLE_OK) {
		errbuf_set(err, errsize, "%s: libcurl: %s", smtp->url,
		    curl_easy_strerror(rc));
		goto out;
	}

	rc = curl_easy_perform(c);
	if (curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply) != CURLE_OK)
		reply = 0;
	if (curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &connects) ==
	    CURLE_OK && connects > 0)
		smtp->connections += (unsigned long)connects;
	if (code != NULL)
		*code = (int)reply;
	/* Nothing of the message may stay borrowed past this call. */
	smtp->data = NULL;
	smtp->len = smtp->pos = 0;

	if (rc == CURLE_OK) {
		result = MAIL_SMTP_OK;
		goto out;
	}
	/*
	 * 5xx refuses this message for good, except a refused login or a
	 * TLS failure: those are the site's, and retrying after the
	 * configuration is fixed will work.
	 */
	if (reply >= 500 && reply <= 599 && rc != CURLE_LOGIN_DENIED &&
	    rc != CURLE_USE_SSL_FAILED)
		result = MAIL_SMTP_PERMFAIL;
	else
		result = MAIL_SMTP_TEMPFAIL;
	errbuf_set(err, errsize, "%s: %s: %s%s%s", smtp->url,
	    rc == CURLE_LOGIN_DENIED ? "login refused" :
	    mail_smtp_strresult(result),
	    smtp->errbuf[0] != '\0' ? smtp->errbuf : curl_easy_strerror(rc),
	    smtp->line[0] != '\0' ? "; server said: " : "",
	    smtp->eline[0] != '\0' ? smtp->eline : smtp->line);
	goto out;

nomem:
	errbuf_set(err, errsize, "out of memory");
	result = MAIL_SMTP_TEMPFAIL;
out:
	free(addr);
	curl_slist_free_all(list);
	return result;
}
