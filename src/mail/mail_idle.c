/*
 * mail/mail_idle.c: mail in: waiting for new mail with IMAP IDLE.
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
 * IMAP IDLE over a connection libcurl opened and logged in
 * (CURLOPT_CONNECT_ONLY); see mail_idle.h. The commands go out with
 * curl_easy_send() and the answers come back line by line with
 * curl_easy_recv(), which is non-blocking: poll(2) on the socket waits,
 * after libcurl had its chance to hand over bytes its TLS layer holds.
 */

#include "config.h"

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "util/errbuf.h"
#include "mail/mail_idle.h"
#include "mail/mail_imap_int.h"

/* IDLE again before RFC 2177's 29 minutes, when servers may log us out. */
#define IDLE_RENEW_SECONDS	(25 * 60)
/* Room for one line from the server; longer lines are cut. */
#define IDLE_IN_SIZE		8192

struct mail_idle {
	struct mail_imap	*imap;		/* borrowed */
	CURL			*curl;		/* NULL: not connected */
	curl_socket_t		 sock;
	bool			 idling;	/* IDLE sent, "+" seen */
	bool			 fresh;		/* connected since last wait */
	unsigned		 tag;		/* last command's tag number */
	unsigned		 idle_tag;	/* the IDLE command's */
	struct timespec		 idle_since;
	unsigned long		 connections;
	size_t			 inlen;
	char			 in[IDLE_IN_SIZE];
	char			 errbuf[CURL_ERROR_SIZE];
	char			 line[IMAP_LINE_SIZE];	/* server's last */
};

/* Make an IDLE client for the mailbox of imap. */
struct mail_idle *
mail_idle_create(struct mail_imap *imap)
{
	struct mail_idle	*idle;

	if ((idle = calloc(1, sizeof *idle)) == NULL)
		return NULL;
	idle->imap = imap;
	idle->sock = CURL_SOCKET_BAD;
	return idle;
}

/* Return the milliseconds from now to deadline, 0 when past. */
static int
ms_left(const struct timespec *deadline)
{
	struct timespec	now;
	long long	ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	    (deadline->tv_nsec - now.tv_nsec) / 1000000;
	if (ms < 0)
		return 0;
	return ms > 0x7fffffff ? 0x7fffffff : (int)ms;
}

/* Set deadline to ms milliseconds from now. */
static void
deadline_in(struct timespec *deadline, long long ms)
{
	clock_gettime(CLOCK_MONOTONIC, deadline);
	deadline->tv_sec += (time_t)(ms / 1000);
	deadline->tv_nsec += (long)(ms % 1000) * 1000000;
	if (deadline->tv_nsec >= 1000000000) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000;
	}
}

/* Keep the server's last line of the login (for error messages). */
static int
idle_debug(CURL *curl, curl_infotype type, char *data, size_t size,
    void *arg)
{
	struct mail_idle	*idle = arg;

	(void)curl;
	if (type == CURLINFO_HEADER_IN)
		mail_curl_line(idle->line, sizeof idle->line, data, size);
	return 0;
}

/* Wait until the socket is ready for events or the deadline passes. */
static int
idle_poll(struct mail_idle *idle, short events, const struct timespec *dl)
{
	struct pollfd	pfd;
	int		n;

	pfd.fd = (int)idle->sock;
	pfd.events = events;
	pfd.revents = 0;
	n = poll(&pfd, 1, ms_left(dl));
	return n;
}

/* Send the whole of s before the deadline. MAIL_IMAP_OK or an error. */
static enum mail_imap_err
idle_send(struct mail_idle *idle, const char *s, const struct timespec *dl,
    char *err, size_t errsize)
{
	size_t		len = strlen(s), sent;
	CURLcode	rc;

	while (len > 0) {
		sent = 0;
		rc = curl_easy_send(idle->curl, s, len, &sent);
		if (rc == CURLE_AGAIN) {
			if (idle_poll(idle, POLLOUT, dl) <= 0 &&
			    ms_left(dl) == 0) {
				errbuf_set(err, errsize, "%s: IDLE: %s while "
				    "sending", idle->imap->base,
				    mail_imap_strerror(MAIL_IMAP_ETIMEOUT));
				return MAIL_IMAP_ETIMEOUT;
			}
			continue;
		}
		if (rc != CURLE_OK) {
			errbuf_set(err, errsize, "%s: IDLE: %s",
			    idle->imap->base, curl_easy_strerror(rc));
			return MAIL_IMAP_ECONNECT;
		}
		s += sent;
		len -= sent;
	}
	return MAIL_IMAP_OK;
}

/*
 * Read one line (without CR LF, NUL-terminated) into line before the
 * deadline. Returns MAIL_IMAP_OK with *got set, *got false when the
 * deadline passed first, or an error (the server closed, a broken
 * connection).
 */
static enum mail_imap_err
idle_line(struct mail_idle *idle, char *line, size_t size,
    const struct timespec *dl, bool *got, char *err, size_t errsize)
{
	char		*nl;
	size_t		 n, take;
	CURLcode	 rc;

	*got = false;
	for (;;) {
		nl = memchr(idle->in, '\n', idle->inlen);
		if (nl != NULL || idle->inlen == sizeof idle->in) {
			n = nl != NULL ? (size_t)(nl - idle->in) + 1 :
			    idle->inlen;
			take = n;
			while (take > 0 && (idle->in[take - 1] == '\n' ||
			    idle->in[take - 1] == '\r'))
				take--;
			if (take >= size)
				take = size - 1;
			memcpy(line, idle->in, take);
			line[take] = '\0';
			memmove(idle->in, idle->in + n, idle->inlen - n);
			idle->inlen -= n;
			*got = true;
			return MAIL_IMAP_OK;
		}
		n = 0;
		rc = curl_easy_recv(idle->curl, idle->in + idle->inlen,
		    sizeof idle->in - idle->inlen, &n);
		if (rc == CURLE_AGAIN) {
			if (ms_left(dl) == 0)
				return MAIL_IMAP_OK;
			idle_poll(idle, POLLIN, dl);
			continue;
		}
		if (rc != CURLE_OK || n == 0) {
			errbuf_set(err, errsize, "%s: IDLE: %s",
			    idle->imap->base, rc != CURLE_OK ?
			    curl_easy_strerror(rc) :
			    "the server closed the connection");
			return MAIL_IMAP_ECONNECT;
		}
		idle->inlen += n;
	}
}

/* Tell whether an untagged line announces new mail (EXISTS, RECENT). */
static bool
line_is_new_mail(const char *line)
{
	const char	*sp;

	if (strncmp(line, "* ", 2) != 0 || (sp = strrchr(line, ' ')) == NULL)
		return false;
	return strcasecmp(sp + 1, "EXISTS") == 0 ||
	    strcasecmp(sp + 1, "RECENT") == 0;
}

/*
 * Read lines until the answer tagged tag (or, with plus, a continuation
 * "+ ..."), noting announced new mail in *newmail. MAIL_IMAP_OK when the
 * answer is OK (or the continuation came), or an error with a reason.
 */
static enum mail_imap_err
idle_answer(struct mail_idle *idle, unsigned tag, bool plus, bool *newmail,
    char *err, size_t errsize)
{
	struct timespec		 dl;
	char			 line[IMAP_LINE_SIZE], prefix[16];
	size_t			 plen;
	bool			 got;
	enum mail_imap_err	 e;

	deadline_in(&dl, (long long)idle->imap->co.timeout * 1000);
	plen = (size_t)snprintf(prefix, sizeof prefix, "c%u ", tag);
	for (;;) {
		if ((e = idle_line(idle, line, sizeof line, &dl, &got, err,
		    errsize)) != MAIL_IMAP_OK)
			return e;
		if (!got) {
			errbuf_set(err, errsize, "%s: IDLE: %s",
			    idle->imap->base,
			    mail_imap_strerror(MAIL_IMAP_ETIMEOUT));
			return MAIL_IMAP_ETIMEOUT;
		}
		if (line_is_new_mail(line) && newmail != NULL)
			*newmail = true;
		if (plus && line[0] == '+')
			return MAIL_IMAP_OK;
		if (strncmp(line, prefix, plen) != 0)
			continue;
		if (strncasecmp(line + plen, "OK", 2) == 0)
			return MAIL_IMAP_OK;
		errbuf_set(err, errsize, "%s: IDLE: %s; server said: %s",
		    idle->imap->base, mail_imap_strerror(MAIL_IMAP_EPROTO),
		    line);
		return MAIL_IMAP_EPROTO;
	}
}

/* Send one tagged command (text without the tag and CRLF). */
static enum mail_imap_err
idle_command(struct mail_idle *idle, const char *text, unsigned *tagp,
    char *err, size_t errsize)
{
	struct timespec	dl;
	char		cmd[640];

	*tagp = ++idle->tag;
	snprintf(cmd, sizeof cmd, "c%u %s\r\n", *tagp, text);
	deadline_in(&dl, (long long)idle->imap->co.timeout * 1000);
	return idle_send(idle, cmd, &dl, err, errsize);
}

/* Enter IDLE on the selected mailbox. */
static enum mail_imap_err
idle_start(struct mail_idle *idle, bool *newmail, char *err, size_t errsize)
{
	enum mail_imap_err	e;

	if ((e = idle_command(idle, "IDLE", &idle->idle_tag, err,
	    errsize)) != MAIL_IMAP_OK ||
	    (e = idle_answer(idle, idle->idle_tag, true, newmail, err,
	    errsize)) != MAIL_IMAP_OK)
		return e;
	idle->idling = true;
	clock_gettime(CLOCK_MONOTONIC, &idle->idle_since);
	return MAIL_IMAP_OK;
}

/* Leave IDLE: DONE, then the IDLE command's tagged answer. */
static enum mail_imap_err
idle_done(struct mail_idle *idle, bool *newmail, char *err, size_t errsize)
{
	struct timespec		dl;
	enum mail_imap_err	e;

	idle->idling = false;
	deadline_in(&dl, (long long)idle->imap->co.timeout * 1000);
	if ((e = idle_send(idle, "DONE\r\n", &dl, err, errsize)) !=
	    MAIL_IMAP_OK)
		return e;
	return idle_answer(idle, idle->idle_tag, false, newmail, err,
	    errsize);
}

/*
 * Close the connection; with logout, first end IDLE and log out without
 * waiting for the answers (a second at most to send them).
 */
static void
idle_close(struct mail_idle *idle, bool logout)
{
	struct timespec	dl;
	char		cmd[64], err[MAIL_ERR_SIZE];

	if (idle->curl == NULL)
		return;
	if (logout) {
		snprintf(cmd, sizeof cmd, "%sc%u LOGOUT\r\n",
		    idle->idling ? "DONE\r\n" : "", ++idle->tag);
		deadline_in(&dl, 1000);
		(void)idle_send(idle, cmd, &dl, err, sizeof err);
	}
	curl_easy_cleanup(idle->curl);
	idle->curl = NULL;
	idle->sock = CURL_SOCKET_BAD;
	idle->idling = false;
	idle->inlen = 0;
}

/* Connect, log in (libcurl), select the mailbox and enter IDLE. */
static enum mail_imap_err
idle_connect(struct mail_idle *idle, char *err, size_t errsize)
{
	struct mail_imap	*imap = idle->imap;
	char			 url[1024], quoted[512], cmd[600];
	curl_socket_t		 sock = CURL_SOCKET_BAD;
	unsigned		 tag;
	CURLcode		 rc;
	enum mail_imap_err	 e;

	if ((e = mail_imap_session(imap, err, errsize)) != MAIL_IMAP_OK)
		return e;
	if (!imap->has_idle) {
		errbuf_set(err, errsize, "%s: %s (its CAPABILITY lists none)",
		    imap->base, mail_imap_strerror(MAIL_IMAP_ENOIDLE));
		return MAIL_IMAP_ENOIDLE;
	}
	if (mail_imap_quote(imap, imap->mailbox, quoted, sizeof quoted, err,
	    errsize) != 0)
		return MAIL_IMAP_ECONFIG;
	if ((idle->curl = curl_easy_init()) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		return MAIL_IMAP_ENOMEM;
	}
	idle->errbuf[0] = '\0';
	idle->line[0] = '\0';
	idle->inlen = 0;
	snprintf(url, sizeof url, "%s/", imap->base);
	rc = mail_curl_setup(idle->curl, &imap->co, idle->errbuf, idle_debug,
	    idle);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(idle->curl, CURLOPT_URL, url);
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(idle->curl, CURLOPT_CONNECT_ONLY, 1L);
	if (rc == CURLE_OK)
		rc = curl_easy_perform(idle->curl);
	if (rc == CURLE_OK)
		rc = curl_easy_getinfo(idle->curl, CURLINFO_ACTIVESOCKET,
		    &sock);
	if (rc == CURLE_OK && sock == CURL_SOCKET_BAD)
		rc = CURLE_COULDNT_CONNECT;
	if (rc != CURLE_OK) {
		e = mail_imap_map_error(rc);
		errbuf_set(err, errsize, "%s: IDLE: %s: %s%s%s", imap->base,
		    mail_imap_strerror(e), idle->errbuf[0] != '\0' ?
		    idle->errbuf : curl_easy_strerror(rc),
		    idle->line[0] != '\0' ? "; server said: " : "",
		    idle->line);
		idle_close(idle, false);
		return e;
	}
	idle->sock = sock;
	idle->connections++;
	snprintf(cmd, sizeof cmd, "SELECT %s", quoted);
	if ((e = idle_command(idle, cmd, &tag, err, errsize)) !=
	    MAIL_IMAP_OK ||
	    (e = idle_answer(idle, tag, false, NULL, err, errsize)) !=
	    MAIL_IMAP_OK ||
	    (e = idle_start(idle, NULL, err, errsize)) != MAIL_IMAP_OK) {
		idle_close(idle, false);
		return e;
	}
	idle->fresh = true;
	return MAIL_IMAP_OK;
}

/* Wait for the server to announce new mail. */
enum mail_imap_err
mail_idle_wait(struct mail_idle *idle, int timeout_ms, bool *newmail,
    char *err, size_t errsize)
{
	struct timespec		 dl;
	char			 line[IMAP_LINE_SIZE];
	bool			 got;
	enum mail_imap_err	 e;

	*newmail = false;
	if (idle->curl == NULL &&
	    (e = idle_connect(idle, err, errsize)) != MAIL_IMAP_OK)
		return e;
	/* Mail that came while nobody listened: the poll after finds it. */
	if (idle->fresh) {
		idle->fresh = false;
		*newmail = true;
		return MAIL_IMAP_OK;
	}
	deadline_in(&dl, 0);
	if (dl.tv_sec - idle->idle_since.tv_sec >= IDLE_RENEW_SECONDS &&
	    ((e = idle_done(idle, newmail, err, errsize)) != MAIL_IMAP_OK ||
	    (e = idle_start(idle, newmail, err, errsize)) != MAIL_IMAP_OK))
		goto fail;
	deadline_in(&dl, timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		if ((e = idle_line(idle, line, sizeof line, &dl, &got, err,
		    errsize)) != MAIL_IMAP_OK)
			goto fail;
		if (!got)
			break;
		if (strncasecmp(line, "* BYE", 5) == 0) {
			errbuf_set(err, errsize, "%s: IDLE: the server ended "
			    "the session: %s", idle->imap->base, line);
			e = MAIL_IMAP_ECONNECT;
			goto fail;
		}
		if (line_is_new_mail(line)) {
			*newmail = true;
			/* Take what else came with it, then let the poll run. */
			deadline_in(&dl, 0);
		}
	}
	return MAIL_IMAP_OK;
fail:
	idle_close(idle, false);
	return e;
}

/* Return the number of connections (logins) made. */
unsigned long
mail_idle_connections(const struct mail_idle *idle)
{
	return idle->connections;
}

/* Leave IDLE, log out and free idle. */
void
mail_idle_free(struct mail_idle *idle)
{
	if (idle == NULL)
		return;
	idle_close(idle, true);
	free(idle);
}
