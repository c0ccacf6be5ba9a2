/*
 * mail/mail_imap.c: mail in: the IMAP client over libcurl.
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
 * The IMAP client over libcurl; see mail_imap.h. libcurl 7.88 traps this
 * file works around: custom requests only for answers without literals
 * (STATUS, NOOP, MOVE, STORE, CREATE, LIST, CAPABILITY); the poll's SELECT
 * and FETCH, whose answer holds a literal per message, on a connection
 * this file drives (mail_conn.h, read with imap_parse.h); a NOOP before
 * STATUS on a reused connection, or Dovecot shows new mail seconds late.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "util/errbuf.h"
#include "util/log.h"
#include "mail/imap_parse.h"
#include "mail/mail_conn.h"
#include "mail/mail_curl.h"
#include "mail/mail_imap.h"
#include "mail/mail_imap_int.h"

/* Defaults of the options. */
#define IMAP_CONNECT_TIMEOUT	30L
#define IMAP_TIMEOUT		120L
#define IMAP_MAX_MESSAGE	(16u * 1024 * 1024)
/* Largest answer to a command (a SEARCH of a big mailbox included). */
#define IMAP_MAX_ANSWER		(64u * 1024 * 1024)

/* Name an error. */
const char *
mail_imap_strerror(enum mail_imap_err e)
{
	switch (e) {
	case MAIL_IMAP_OK:
		return "success";
	case MAIL_IMAP_ECONNECT:
		return "server unreachable";
	case MAIL_IMAP_ELOGIN:
		return "login refused";
	case MAIL_IMAP_ETLS:
		return "TLS failed";
	case MAIL_IMAP_ETIMEOUT:
		return "timed out";
	case MAIL_IMAP_EPROTO:
		return "command refused";
	case MAIL_IMAP_ECONFIG:
		return "bad configuration";
	case MAIL_IMAP_ENOMEM:
		return "out of memory";
	case MAIL_IMAP_ENOIDLE:
		return "no IDLE on the server";
	}
	return "unknown error";
}

/* Return the next retry delay: 1 s, then doubling up to max. */
unsigned int
mail_imap_backoff_next(unsigned int delay, unsigned int max)
{
	if (max == 0)
		max = 1;
	if (delay == 0)
		return 1 < max ? 1 : max;
	if (delay >= max || delay > max / 2)
		return max;
	return delay * 2;
}

/* Append n bytes to b unless that goes past its limit. */
static int
imap_buf_add(struct imap_buf *b, const char *s, size_t n)
{
	size_t	 cap;
	char	*p;

	if (n > b->limit - b->len) {
		n = b->limit - b->len;
		b->over = 1;
	}
	if (n > b->cap - b->len) {
		cap = b->cap == 0 ? 4096 : b->cap;
		while (cap - b->len < n)
			cap *= 2;
		if ((p = realloc(b->data, cap)) == NULL) {
			b->nomem = 1;
			return -1;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	return b->over ? -1 : 0;
}

/* Empty b and set its limit. */
static void
imap_buf_clear(struct imap_buf *b, size_t limit)
{
	b->len = 0;
	b->limit = limit;
	b->over = 0;
	b->nomem = 0;
}

/* Take what libcurl received into the answer buffer. */
static size_t
imap_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct mail_imap	*imap = arg;
	size_t			 n = size * nmemb;

	if (imap_buf_add(&imap->answer, ptr, n) != 0)
		return 0;
	return n;
}

/* Keep the server's last line (for error messages). */
static int
imap_debug(CURL *curl, curl_infotype type, char *data, size_t size,
    void *arg)
{
	struct mail_imap	*imap = arg;

	(void)curl;
	if (type == CURLINFO_HEADER_IN)
		mail_curl_line(imap->line, sizeof imap->line, data, size);
	return 0;
}

/* Map a libcurl result to an error of ours. */
enum mail_imap_err
mail_imap_map_error(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK:
		return MAIL_IMAP_OK;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		return MAIL_IMAP_ECONNECT;
	case CURLE_LOGIN_DENIED:
		return MAIL_IMAP_ELOGIN;
	case CURLE_OPERATION_TIMEDOUT:
		return MAIL_IMAP_ETIMEOUT;
	case CURLE_USE_SSL_FAILED:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
		return MAIL_IMAP_ETLS;
	case CURLE_OUT_OF_MEMORY:
		return MAIL_IMAP_ENOMEM;
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
		return MAIL_IMAP_ECONFIG;
	default:
		return MAIL_IMAP_EPROTO;
	}
}

/*
 * Run one request: url with the custom command (NULL: fetch by URL), the
 * answer into imap->answer up to limit bytes. Sets *rcp to libcurl's
 * result. Returns MAIL_IMAP_OK or an error with a reason in err; an answer
 * cut at the limit is MAIL_IMAP_OK with imap->answer.over set.
 */
static enum mail_imap_err
imap_request(struct mail_imap *imap, const char *url, const char *command,
    size_t limit, CURLcode *rcp, char *err, size_t errsize)
{
	CURL		*c = imap->curl;
	CURLcode	 rc;
	long		 connects = 0;
	enum mail_imap_err e;

	curl_easy_reset(c);
	imap_buf_clear(&imap->answer, limit);
	imap->errbuf[0] = '\0';
	imap->line[0] = '\0';

	rc = mail_curl_setup(c, &imap->co, imap->errbuf, imap_debug, imap);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_URL, url);
	if (rc == CURLE_OK && command != NULL)
		rc = curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, command);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, imap_write);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(c, CURLOPT_WRITEDATA, imap);
	if (rc != CURLE_OK) {
		*rcp = rc;
		errbuf_set(err, errsize, "%s: libcurl: %s", imap->base,
		    curl_easy_strerror(rc));
		return rc == CURLE_OUT_OF_MEMORY ? MAIL_IMAP_ENOMEM :
		    MAIL_IMAP_ECONFIG;
	}

	rc = curl_easy_perform(c);
	*rcp = rc;
	if (curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &connects) ==
	    CURLE_OK && connects > 0)
		imap->connections += (unsigned long)connects;
	if (rc == CURLE_WRITE_ERROR && imap->answer.over &&
	    !imap->answer.nomem)
		return MAIL_IMAP_OK;
	if (rc == CURLE_WRITE_ERROR && imap->answer.nomem)
		rc = CURLE_OUT_OF_MEMORY;
	if ((e = mail_imap_map_error(rc)) == MAIL_IMAP_OK)
		return MAIL_IMAP_OK;
	errbuf_set(err, errsize, "%s: %s%s%s%s: %s%s", imap->base,
	    mail_imap_strerror(e), command != NULL ? " (" : "",
	    command != NULL ? command : "",
	    command != NULL ? ")" : "",
	    imap->errbuf[0] != '\0' ? imap->errbuf : curl_easy_strerror(rc),
	    imap->line[0] != '\0' ? "; server said: " : "");
	if (imap->line[0] != '\0' && err != NULL) {
		size_t	len = strlen(err);

		if (len < errsize)
			snprintf(err + len, errsize - len, "%s", imap->line);
	}
	return e;
}

/* Make a client. */
struct mail_imap *
mail_imap_create(const struct mail_imap_options *o, char *err, size_t errsize)
{
	struct mail_imap	*imap = NULL;
	CURLU			*u = NULL;
	char			*scheme = NULL, *host = NULL, *port = NULL;
	size_t			 len;
	const char		*mb;
	CURLcode		 rc;

	if ((rc = mail_curl_init()) != CURLE_OK) {
		errbuf_set(err, errsize, "libcurl: %s", curl_easy_strerror(rc));
		return NULL;
	}
	if (o->url == NULL || *o->url == '\0') {
		errbuf_set(err, errsize, "no IMAP URL");
		return NULL;
	}
	if ((imap = calloc(1, sizeof *imap)) == NULL)
		goto nomem;

	/* Keep only scheme://host[:port] of the URL. */
	if ((u = curl_url()) == NULL)
		goto nomem;
	if (curl_url_set(u, CURLUPART_URL, o->url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		errbuf_set(err, errsize, "%s: not a URL", o->url);
		goto fail;
	}
	if (strcmp(scheme, "imaps") == 0)
		imap->co.tls = 1;
	else if (strcmp(scheme, "imap") != 0) {
		errbuf_set(err, errsize, "%s: not an imap:// or imaps:// URL",
		    o->url);
		goto fail;
	}
	if (curl_url_get(u, CURLUPART_PORT, &port, 0) != CURLUE_OK)
		port = NULL;
	len = strlen(scheme) + strlen(host) + (port ? strlen(port) : 0) + 8;
	if ((imap->base = malloc(len)) == NULL)
		goto nomem;
	snprintf(imap->base, len, "%s://%s%s%s", scheme, host,
	    port != NULL ? ":" : "", port != NULL ? port : "");

	mb = o->mailbox != NULL && *o->mailbox != '\0' ? o->mailbox : "INBOX";
	if ((imap->co.user = strdup(o->user != NULL ? o->user : "")) == NULL ||
	    (imap->co.password = strdup(o->password != NULL ? o->password :
	    "")) == NULL || (imap->mailbox = strdup(mb)) == NULL)
		goto nomem;
	if (o->ca_file != NULL && *o->ca_file != '\0' &&
	    (imap->co.ca_file = strdup(o->ca_file)) == NULL)
		goto nomem;
	imap->co.starttls = o->starttls;
	imap->co.tls_verify = o->tls_verify;
	imap->co.connect_timeout = o->connect_timeout > 0 ?
	    o->connect_timeout : IMAP_CONNECT_TIMEOUT;
	imap->co.timeout = o->timeout > 0 ? o->timeout : IMAP_TIMEOUT;
	imap->max_message = o->max_message_size > 0 ? o->max_message_size :
	    IMAP_MAX_MESSAGE;
	if ((imap->curl = curl_easy_init()) == NULL)
		goto nomem;

	if (!imap->co.tls_verify && (imap->co.tls ||
	    imap->co.starttls != MAIL_STARTTLS_NONE))
		log_warnx("mail: TLS certificate verification is OFF for %s: "
		    "anyone between here and the server can read the "
		    "password and the mail", imap->base);
	if (!imap->co.tls && imap->co.starttls == MAIL_STARTTLS_NONE)
		log_warnx("mail: %s without TLS: the password and the mail "
		    "cross the network in clear", imap->base);

	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return imap;

nomem:
	errbuf_set(err, errsize, "out of memory");
fail:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	mail_imap_free(imap);
	return NULL;
}

/* Return the number of connections (logins) made. */
unsigned long
mail_imap_connections(const struct mail_imap *imap)
{
	return imap->connections + (imap->fetch != NULL ?
	    imap->fetch->connections : 0);
}

/* Close the connection and free imap. */
void
mail_imap_free(struct mail_imap *imap)
{
	if (imap == NULL)
		return;
	if (imap->fetch != NULL) {
		mail_conn_close(imap->fetch, "p0 LOGOUT\r\n");
		mail_conn_free(imap->fetch);
		free(imap->fetch);
	}
	mail_curl_close(imap->curl, &imap->co);
	free(imap->base);
	free(imap->mailbox);
	free(imap->answer.data);
	free(imap);
}

/*
 * Write a mailbox name as an IMAP quoted string into buf, '/' turned into
 * the server's separator. Returns 0, or -1 with a reason.
 */
int
mail_imap_quote(const struct mail_imap *imap, const char *name, char *buf,
    size_t size, char *err, size_t errsize)
{
	size_t	n = 0;
	char	c;

	if (*name == '\0')
		return errbuf_set(err, errsize, "empty mailbox name");
	if (size < 3)
		return errbuf_set(err, errsize, "mailbox name too long");
	buf[n++] = '"';
	for (; *name != '\0'; name++) {
		c = *name;
		if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e)
			return errbuf_set(err, errsize, "mailbox name with a "
			    "control or non-ASCII byte (0x%02x)",
			    (unsigned char)c);
		if (c == '/' && imap->sep != '\0')
			c = imap->sep;
		if (c == '"' || c == '\\') {
			if (n + 1 >= size - 2)
				goto toolong;
			buf[n++] = '\\';
		}
		if (n >= size - 2)
			goto toolong;
		buf[n++] = c;
	}
	buf[n++] = '"';
	buf[n] = '\0';
	return 0;
toolong:
	return errbuf_set(err, errsize, "mailbox name too long");
}

/*
 * Write the URL of the configured mailbox into buf: base/MAILBOX, with
 * ;UIDVALIDITY=v when v is nonzero, /;UID=u when u is nonzero.
 */
static enum mail_imap_err
imap_mailbox_url(struct mail_imap *imap, uint32_t v, uint32_t u, char *buf,
    size_t size, char *err, size_t errsize)
{
	char	*name = NULL, *esc = NULL;
	char	 vs[32] = "", us[32] = "";
	size_t	 i;
	int	 n;

	if ((name = strdup(imap->mailbox)) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		return MAIL_IMAP_ENOMEM;
	}
	for (i = 0; name[i] != '\0'; i++) {
		if (name[i] == '/' && imap->sep != '\0')
			name[i] = imap->sep;
	}
	esc = curl_easy_escape(imap->curl, name, 0);
	free(name);
	if (esc == NULL) {
		errbuf_set(err, errsize, "out of memory");
		return MAIL_IMAP_ENOMEM;
	}
	if (v != 0)
		snprintf(vs, sizeof vs, ";UIDVALIDITY=%lu", (unsigned long)v);
	if (u != 0)
		snprintf(us, sizeof us, "/;UID=%lu", (unsigned long)u);
	n = snprintf(buf, size, "%s/%s%s%s", imap->base, esc, vs, us);
	curl_free(esc);
	if (n < 0 || (size_t)n >= size) {
		errbuf_set(err, errsize, "mailbox name too long");
		return MAIL_IMAP_ECONFIG;
	}
	return MAIL_IMAP_OK;
}

/* Return the next line of the answer at *pos (NUL-terminated, in place). */
static char *
imap_next_line(struct imap_buf *b, size_t *pos)
{
	char	*line, *nl;

	if (*pos >= b->len)
		return NULL;
	line = b->data + *pos;
	nl = memchr(line, '\n', b->len - *pos);
	if (nl == NULL) {
		/* The last line: terminate it in the spare byte. */
		if (imap_buf_add(b, "", 1) != 0)
			return NULL;
		line = b->data + *pos;
		*pos = b->len;
		return line;
	}
	*nl = '\0';
	if (nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	*pos = (size_t)(nl - b->data) + 1;
	return line;
}

/* Parse a decimal UID-sized number at *sp; advance *sp. */
static int
imap_parse_u32(const char **sp, uint32_t *out)
{
	const char	*s = *sp;
	unsigned long long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long long)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*sp = s;
	*out = (uint32_t)v;
	return 0;
}

/*
 * Learn the hierarchy separator (LIST "" "") and whether the server has
 * MOVE and IDLE (CAPABILITY), once per client.
 */
enum mail_imap_err
mail_imap_session(struct mail_imap *imap, char *err, size_t errsize)
{
	char			 url[1024];
	char			*line, *p, *last;
	size_t			 pos;
	CURLcode		 rc;
	enum mail_imap_err	 e;

	if (imap->session)
		return MAIL_IMAP_OK;
	snprintf(url, sizeof url, "%s/", imap->base);

	if ((e = imap_request(imap, url, "LIST \"\" \"\"", IMAP_MAX_ANSWER,
	    &rc, err, errsize)) != MAIL_IMAP_OK)
		return e;
	imap->sep = '/';
	pos = 0;
	while ((line = imap_next_line(&imap->answer, &pos)) != NULL) {
		/* * LIST (\Noselect) "." "" */
		if (strncmp(line, "* LIST ", 7) != 0 ||
		    (p = strchr(line, ')')) == NULL)
			continue;
		p++;
		while (*p == ' ')
			p++;
		if (p[0] == '"' && p[1] == '\\' && p[2] != '\0' && p[3] == '"')
			imap->sep = p[2];
		else if (p[0] == '"' && p[1] != '\0' && p[2] == '"')
			imap->sep = p[1];
		break;
	}

	if ((e = imap_request(imap, url, "CAPABILITY", IMAP_MAX_ANSWER, &rc,
	    err, errsize)) != MAIL_IMAP_OK)
		return e;
	imap->has_move = 0;
	imap->has_idle = 0;
	pos = 0;
	while ((line = imap_next_line(&imap->answer, &pos)) != NULL) {
		if (strncmp(line, "* CAPABILITY ", 13) != 0)
			continue;
		for (p = strtok_r(line + 13, " ", &last); p != NULL;
		    p = strtok_r(NULL, " ", &last)) {
			if (strcasecmp(p, "MOVE") == 0)
				imap->has_move = 1;
			else if (strcasecmp(p, "IDLE") == 0)
				imap->has_idle = 1;
		}
	}
	imap->session = 1;
	return MAIL_IMAP_OK;
}

/* Read a mailbox's STATUS. */
enum mail_imap_err
mail_imap_status(struct mail_imap *imap, const char *mailbox,
    uint32_t *uidvalidity, uint32_t *uidnext, uint32_t *messages, char *err,
    size_t errsize)
{
	char			 url[1024], quoted[1024], command[1200];
	char			*line, *p;
	const char		*s;
	size_t			 pos;
	uint32_t		 v, got = 0;
	CURLcode		 rc;
	enum mail_imap_err	 e;

	if (uidvalidity != NULL)
		*uidvalidity = 0;
	if (uidnext != NULL)
		*uidnext = 0;
	if (messages != NULL)
		*messages = 0;
	if ((e = mail_imap_session(imap, err, errsize)) != MAIL_IMAP_OK)
		return e;
	if (mailbox == NULL)
		mailbox = imap->mailbox;
	if (mail_imap_quote(imap, mailbox, quoted, sizeof quoted, err,
	    errsize) != 0)
		return MAIL_IMAP_ECONFIG;
	/*
	 * Dovecot answers STATUS of the selected mailbox from the session's
	 * view, which shows new mail only after a NOOP: select the polled
	 * mailbox (when the connection has not yet) and NOOP first.
	 */
	if (strcmp(mailbox, imap->mailbox) == 0) {
		if ((e = imap_mailbox_url(imap, 0, 0, url, sizeof url, err,
		    errsize)) != MAIL_IMAP_OK)
			return e;
		if ((e = imap_request(imap, url, "NOOP", IMAP_MAX_ANSWER, &rc,
		    err, errsize)) != MAIL_IMAP_OK)
			return e;
	}
	snprintf(url, sizeof url, "%s/", imap->base);
	snprintf(command, sizeof command,
	    "STATUS %s (MESSAGES UIDNEXT UIDVALIDITY)", quoted);
	if ((e = imap_request(imap, url, command, IMAP_MAX_ANSWER, &rc, err,
	    errsize)) != MAIL_IMAP_OK)
		return e;

	pos = 0;
	while ((line = imap_next_line(&imap->answer, &pos)) != NULL) {
		/* * STATUS name (MESSAGES 3 UIDNEXT 4 UIDVALIDITY 1795) */
		if (strncmp(line, "* STATUS ", 9) != 0 ||
		    (p = strrchr(line, '(')) == NULL)
			continue;
		s = p + 1;
		while (*s != '\0' && *s != ')') {
			const char *name = s;

			while (*s != '\0' && *s != ' ' && *s != ')')
				s++;
			if (*s != ' ')
				break;
			s++;
			if (imap_parse_u32(&s, &v) != 0)
				break;
			if (strncasecmp(name, "UIDVALIDITY ", 12) == 0) {
				if (uidvalidity != NULL)
					*uidvalidity = v;
				got |= 1;
			} else if (strncasecmp(name, "UIDNEXT ", 8) == 0) {
				if (uidnext != NULL)
					*uidnext = v;
			} else if (strncasecmp(name, "MESSAGES ", 9) == 0) {
				if (messages != NULL)
					*messages = v;
			}
			while (*s == ' ')
				s++;
		}
	}
	if (!(got & 1)) {
		errbuf_set(err, errsize, "%s: STATUS %s: no UIDVALIDITY in the "
		    "answer", imap->base, mailbox);
		return MAIL_IMAP_EPROTO;
	}
	return MAIL_IMAP_OK;
}

/* Order UIDs ascending. */
static int
imap_uid_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The poll's own connection (made on first use), NULL when no memory. */
static struct mail_conn *
imap_fetch_conn(struct mail_imap *imap)
{
	if (imap->fetch == NULL) {
		if ((imap->fetch = malloc(sizeof *imap->fetch)) == NULL)
			return NULL;
		/* One whole FETCH response at most: a message and its line. */
		mail_conn_init(imap->fetch, imap, "poll", imap->max_message +
		    2 * IMAP_PARSE_MAX_LINE);
	}
	return imap->fetch;
}

/* Send the command text tagged "pN"; *tag is N. */
static enum mail_imap_err
imap_fetch_send(struct mail_conn *c, const char *text, unsigned *tag,
    char *err, size_t errsize)
{
	struct timespec	dl;
	char		cmd[1200];
	int		n;

	*tag = ++c->tag;
	n = snprintf(cmd, sizeof cmd, "p%u %s\r\n", *tag, text);
	mail_conn_deadline(&dl, (long long)c->imap->co.timeout * 1000);
	return mail_conn_send(c, cmd, (size_t)n, &dl, err, errsize);
}

/*
 * Wait for the next whole response of c: *resp and *len tell where it is
 * (valid until it is consumed). A timeout counts from the last bytes that
 * came.
 */
static enum mail_imap_err
imap_fetch_next(struct mail_conn *c, const char **resp, size_t *len,
    char *err, size_t errsize)
{
	struct timespec		dl;
	bool			got;
	enum mail_imap_err	e;

	mail_conn_deadline(&dl, (long long)c->imap->co.timeout * 1000);
	for (;;) {
		switch (imap_parse_frame(c->buf + c->off, c->len - c->off,
		    c->imap->max_message, len)) {
		case IMAP_PARSE_OK:
			*resp = c->buf + c->off;
			return MAIL_IMAP_OK;
		case IMAP_PARSE_EBAD:
			errbuf_set(err, errsize, "%s: %s: an answer that is "
			    "not IMAP (a line over %u bytes or a literal "
			    "over %zu)", c->imap->base,
			    mail_imap_strerror(MAIL_IMAP_EPROTO),
			    IMAP_PARSE_MAX_LINE, c->imap->max_message);
			return MAIL_IMAP_EPROTO;
		case IMAP_PARSE_MORE:
			break;
		}
		if ((e = mail_conn_fill(c, &dl, &got, err, errsize)) !=
		    MAIL_IMAP_OK)
			return e;
		if (!got) {
			errbuf_set(err, errsize, "%s: poll: %s", c->imap->base,
			    mail_imap_strerror(MAIL_IMAP_ETIMEOUT));
			return MAIL_IMAP_ETIMEOUT;
		}
		mail_conn_deadline(&dl, (long long)c->imap->co.timeout * 1000);
	}
}

/*
 * Tell whether resp ends the command tagged tag: its tagged answer (*e
 * MAIL_IMAP_OK for OK, MAIL_IMAP_EPROTO for NO or BAD) or the server's
 * BYE (MAIL_IMAP_ECONNECT); an error comes with the server's line.
 */
static bool
imap_fetch_end(struct mail_conn *c, const char *resp, size_t len,
    unsigned tag, const char *what, enum mail_imap_err *e, char *err,
    size_t errsize)
{
	char	tagtext[16], line[IMAP_LINE_SIZE];
	bool	ok;

	snprintf(tagtext, sizeof tagtext, "p%u", tag);
	if (imap_parse_tagged(resp, len, tagtext, &ok) == 1) {
		*e = ok ? MAIL_IMAP_OK : MAIL_IMAP_EPROTO;
	} else if (len >= 5 && strncasecmp(resp, "* BYE", 5) == 0) {
		*e = MAIL_IMAP_ECONNECT;
	} else
		return false;
	if (*e != MAIL_IMAP_OK) {
		mail_curl_line(line, sizeof line, resp, len);
		errbuf_set(err, errsize, "%s: %s (%s); server said: %s",
		    c->imap->base, mail_imap_strerror(*e), what, line);
	}
	return true;
}

/*
 * Wait for the next response to the command tagged tag (what names it in
 * errors): *resp and *len tell where it is, for the caller to read and
 * consume; *resp NULL when the command ended well. Returns an error when
 * it ended otherwise or the connection failed.
 */
static enum mail_imap_err
imap_fetch_answer(struct mail_conn *c, unsigned tag, const char *what,
    const char **resp, size_t *len, char *err, size_t errsize)
{
	enum mail_imap_err	e;

	if ((e = imap_fetch_next(c, resp, len, err, errsize)) != MAIL_IMAP_OK)
		return e;
	if (imap_fetch_end(c, *resp, *len, tag, what, &e, err, errsize)) {
		mail_conn_consume(c, *len);
		*resp = NULL;
	}
	return e;
}

/*
 * Select the mailbox (quoted) on the poll's connection, connecting when
 * needed: the session's view of it is then new, and its UIDVALIDITY and
 * UIDNEXT are read.
 */
static enum mail_imap_err
imap_fetch_select(struct mail_conn *c, const char *quoted,
    uint32_t *uidvalidity, uint32_t *uidnext, char *err, size_t errsize)
{
	char			 cmd[1100];
	const char		*resp;
	size_t			 len;
	unsigned		 tag;
	uint32_t		 v;
	enum mail_imap_err	 e;

	*uidvalidity = 0;
	*uidnext = 0;
	if (c->curl == NULL && (e = mail_conn_open(c, err, errsize)) !=
	    MAIL_IMAP_OK)
		return e;
	snprintf(cmd, sizeof cmd, "SELECT %s", quoted);
	if ((e = imap_fetch_send(c, cmd, &tag, err, errsize)) != MAIL_IMAP_OK)
		return e;
	for (;;) {
		if ((e = imap_fetch_answer(c, tag, "SELECT", &resp, &len, err,
		    errsize)) != MAIL_IMAP_OK || resp == NULL)
			break;
		if (imap_parse_code(resp, len, "UIDVALIDITY", &v) == 0)
			*uidvalidity = v;
		else if (imap_parse_code(resp, len, "UIDNEXT", &v) == 0)
			*uidnext = v;
		mail_conn_consume(c, len);
	}
	if (e == MAIL_IMAP_OK && *uidvalidity == 0) {
		errbuf_set(err, errsize, "%s: SELECT %s: no UIDVALIDITY in "
		    "the answer", c->imap->base, quoted);
		e = MAIL_IMAP_EPROTO;
	}
	return e;
}

/*
 * Fetch the messages from UID from on (UID FETCH from:*, one command for
 * all, each message's first max_message bytes) and hand each to cb.
 * *stopped: cb ended the poll.
 */
static enum mail_imap_err
imap_fetch_new(struct mail_conn *c, uint32_t uidvalidity, uint32_t from,
    mail_imap_cb cb, void *arg, struct mail_imap_poll_result *r,
    bool *stopped, char *err, size_t errsize)
{
	struct mail_imap_message msg;
	struct imap_fetch	 f;
	char			 cmd[128];
	const char		*resp;
	size_t			 len, max = c->imap->max_message;
	unsigned		 tag;
	uint32_t		 last = 0;
	enum mail_imap_err	 e;

	*stopped = false;
	/* BODY[], not BODY.PEEK[]: one command flags them all \Seen. */
	snprintf(cmd, sizeof cmd, "UID FETCH %lu:* (UID RFC822.SIZE "
	    "BODY[]<0.%zu>)", (unsigned long)from, max);
	if ((e = imap_fetch_send(c, cmd, &tag, err, errsize)) != MAIL_IMAP_OK)
		return e;
	for (;;) {
		if ((e = imap_fetch_answer(c, tag, "UID FETCH", &resp, &len,
		    err, errsize)) != MAIL_IMAP_OK || resp == NULL)
			return e;
		switch (imap_parse_fetch(resp, len, &f)) {
		case 1:
			mail_conn_consume(c, len);
			continue;
		case -1:
			errbuf_set(err, errsize, "%s: %s: a FETCH answer that "
			    "does not parse", c->imap->base,
			    mail_imap_strerror(MAIL_IMAP_EPROTO));
			return MAIL_IMAP_EPROTO;
		}
		/* n:* always matches the highest UID, even below n; flag
		 * updates come as FETCH answers without a body. */
		if (f.uid < from || !f.has_body) {
			mail_conn_consume(c, len);
			continue;
		}
		if (f.uid <= last) {
			errbuf_set(err, errsize, "%s: %s: UID %lu after UID "
			    "%lu in a FETCH answer", c->imap->base,
			    mail_imap_strerror(MAIL_IMAP_EPROTO),
			    (unsigned long)f.uid, (unsigned long)last);
			return MAIL_IMAP_EPROTO;
		}
		last = f.uid;
		r->found++;
		memset(&msg, 0, sizeof msg);
		msg.uidvalidity = uidvalidity;
		msg.uid = f.uid;
		msg.data = f.body != NULL ? f.body : "";
		msg.len = f.body_len;
		msg.size = f.has_size ? f.size : msg.len;
		msg.truncated = msg.len >= max && (!f.has_size ||
		    f.size > msg.len);
		msg.limit = max;
		r->fetched++;
		if (cb(&msg, arg) != 0) {
			/* The rest of the answer is not read: start anew. */
			*stopped = true;
			mail_conn_close(c, NULL);
			return MAIL_IMAP_OK;
		}
		mail_conn_consume(c, len);
	}
}

/* Fetch the new messages and hand each to cb. */
enum mail_imap_err
mail_imap_poll(struct mail_imap *imap, uint32_t last_uidvalidity,
    uint32_t last_uid, mail_imap_cb cb, void *arg,
    struct mail_imap_poll_result *res, char *err, size_t errsize)
{
	struct mail_imap_poll_result r;
	struct mail_conn	*c;
	char			 quoted[1024];
	uint32_t		 uidvalidity, uidnext, from;
	bool			 reused, stopped;
	enum mail_imap_err	 e;

	memset(&r, 0, sizeof r);
	if ((e = mail_imap_session(imap, err, errsize)) != MAIL_IMAP_OK)
		goto out;
	if (mail_imap_quote(imap, imap->mailbox, quoted, sizeof quoted, err,
	    errsize) != 0) {
		e = MAIL_IMAP_ECONFIG;
		goto out;
	}
	if ((c = imap_fetch_conn(imap)) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		e = MAIL_IMAP_ENOMEM;
		goto out;
	}
	/*
	 * UIDVALIDITY and UIDNEXT: nothing more to do when no new UID. A
	 * kept connection the server has closed since is made again once.
	 */
	reused = c->curl != NULL;
	e = imap_fetch_select(c, quoted, &uidvalidity, &uidnext, err,
	    errsize);
	if (e == MAIL_IMAP_ECONNECT && reused) {
		mail_conn_close(c, NULL);
		e = imap_fetch_select(c, quoted, &uidvalidity, &uidnext, err,
		    errsize);
	}
	if (e != MAIL_IMAP_OK)
		goto fail;
	r.uidvalidity = uidvalidity;
	r.uidnext = uidnext;
	if (last_uidvalidity != 0 && last_uidvalidity != uidvalidity)
		r.uidvalidity_changed = true;
	if (last_uidvalidity != uidvalidity)
		from = 1;
	else if (last_uid == UINT32_MAX)
		goto out;
	else
		from = last_uid + 1;
	if (uidnext != 0 && uidnext <= from)
		goto out;
	if ((e = imap_fetch_new(c, uidvalidity, from, cb, arg, &r, &stopped,
	    err, errsize)) != MAIL_IMAP_OK)
		goto fail;
	goto out;
fail:
	/* Whatever is left unread on it: start the next poll anew. */
	mail_conn_close(c, NULL);
out:
	if (res != NULL)
		*res = r;
	return e;
}

/*
 * Write into buf the UIDs of a (sorted, n > 0) as an IMAP set ("5,7,9:12"),
 * as many as fit in size; return how many were written.
 */
static size_t
imap_uid_set(const uint32_t *a, size_t n, char *buf, size_t size)
{
	size_t	i = 0, j, len = 0;
	int	w;

	buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && (a[j + 1] == a[j] ||
		    a[j + 1] == a[j] + 1); j++)
			;
		if (a[j] == a[i])
			w = snprintf(buf + len, size - len, "%s%lu",
			    len > 0 ? "," : "", (unsigned long)a[i]);
		else
			w = snprintf(buf + len, size - len, "%s%lu:%lu",
			    len > 0 ? "," : "", (unsigned long)a[i],
			    (unsigned long)a[j]);
		if (w < 0 || (size_t)w >= size - len) {
			buf[len] = '\0';
			break;
		}
		len += (size_t)w;
		i = j + 1;
	}
	return i;
}

/* File a message into a folder. */
enum mail_imap_err
mail_imap_move(struct mail_imap *imap, uint32_t uidvalidity, uint32_t uid,
    const char *folder, char *err, size_t errsize)
{
	if (uid == 0) {
		errbuf_set(err, errsize, "no UIDVALIDITY or UID to move");
		return MAIL_IMAP_ECONFIG;
	}
	return mail_imap_move_set(imap, uidvalidity, &uid, 1, folder, err,
	    errsize);
}

/* File a set of messages into a folder. */
enum mail_imap_err
mail_imap_move_set(struct mail_imap *imap, uint32_t uidvalidity,
    const uint32_t *uids, size_t n, const char *folder, char *err,
    size_t errsize)
{
	char			 url[1200], base[1024], quoted[1024];
	char			 set[1024], command[2200];
	uint32_t		*a = NULL;
	size_t			 i, done, k;
	CURLcode		 rc;
	enum mail_imap_err	 e = MAIL_IMAP_OK;

	if (n == 0)
		return MAIL_IMAP_OK;
	if (uidvalidity == 0) {
		errbuf_set(err, errsize, "no UIDVALIDITY or UID to move");
		return MAIL_IMAP_ECONFIG;
	}
	for (i = 0; i < n; i++) {
		if (uids[i] == 0) {
			errbuf_set(err, errsize, "no UIDVALIDITY or UID to "
			    "move");
			return MAIL_IMAP_ECONFIG;
		}
	}
	if ((e = mail_imap_session(imap, err, errsize)) != MAIL_IMAP_OK)
		return e;
	if (mail_imap_quote(imap, folder, quoted, sizeof quoted, err,
	    errsize) != 0)
		return MAIL_IMAP_ECONFIG;
	if ((e = imap_mailbox_url(imap, uidvalidity, 0, url, sizeof url, err,
	    errsize)) != MAIL_IMAP_OK)
		return e;
	if ((a = malloc(n * sizeof *a)) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		return MAIL_IMAP_ENOMEM;
	}
	memcpy(a, uids, n * sizeof *a);
	qsort(a, n, sizeof *a, imap_uid_cmp);
	/*
	 * The polls read on a connection of their own: this one's view of
	 * the mailbox may predate the mail to move, whose UIDs a UID MOVE
	 * would then silently skip. A NOOP shows it the mailbox as it is.
	 */
	if ((e = imap_request(imap, url, "NOOP", IMAP_MAX_ANSWER, &rc, err,
	    errsize)) != MAIL_IMAP_OK)
		goto out;

	/* One command per set that fits in a line of reasonable length. */
	for (done = 0; done < n; done += k) {
		k = imap_uid_set(a + done, n - done, set, sizeof set);
		if (!imap->has_move) {
			snprintf(command, sizeof command,
			    "UID STORE %s +FLAGS.SILENT (\\Seen)", set);
			if ((e = imap_request(imap, url, command,
			    IMAP_MAX_ANSWER, &rc, err, errsize)) !=
			    MAIL_IMAP_OK)
				goto out;
			continue;
		}
		snprintf(command, sizeof command, "UID MOVE %s %s", set,
		    quoted);
		e = imap_request(imap, url, command, IMAP_MAX_ANSWER, &rc, err,
		    errsize);
		if (e != MAIL_IMAP_EPROTO || rc != CURLE_QUOTE_ERROR) {
			if (e != MAIL_IMAP_OK)
				goto out;
			continue;
		}
		/*
		 * Refused: most likely [TRYCREATE], the folder is missing.
		 * Create it (an error there means it exists: fine) and move
		 * again.
		 */
		snprintf(base, sizeof base, "%s/", imap->base);
		snprintf(command, sizeof command, "CREATE %s", quoted);
		(void)imap_request(imap, base, command, IMAP_MAX_ANSWER, &rc,
		    NULL, 0);
		snprintf(command, sizeof command, "UID MOVE %s %s", set,
		    quoted);
		if ((e = imap_request(imap, url, command, IMAP_MAX_ANSWER,
		    &rc, err, errsize)) != MAIL_IMAP_OK)
			goto out;
	}
	e = MAIL_IMAP_OK;
out:
	free(a);
	return e;
}
