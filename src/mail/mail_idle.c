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
 * (mail_conn.h); see mail_idle.h. The answers are read line by line.
 */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/errbuf.h"
#include "mail/mail_conn.h"
#include "mail/mail_idle.h"
#include "mail/mail_imap_int.h"

/* IDLE again before RFC 2177's 29 minutes, when servers may log us out. */
#define IDLE_RENEW_SECONDS	(25 * 60)
/* Room for one line from the server; longer lines are cut. */
#define IDLE_IN_SIZE		8192

struct mail_idle {
	struct mail_conn	 conn;
	bool			 idling;	/* IDLE sent, "+" seen */
	bool			 fresh;		/* connected since last wait */
	unsigned		 idle_tag;	/* the IDLE command's */
	struct timespec		 idle_since;
};

/* Make an IDLE client for the mailbox of imap. */
struct mail_idle *
mail_idle_create(struct mail_imap *imap)
{
	struct mail_idle	*idle;

	if ((idle = calloc(1, sizeof *idle)) == NULL)
		return NULL;
	mail_conn_init(&idle->conn, imap, "IDLE", IDLE_IN_SIZE);
	return idle;
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
	struct mail_conn	*c = &idle->conn;
	const char		*in, *nl;
	size_t			 avail, n, take;
	enum mail_imap_err	 e;

	*got = false;
	for (;;) {
		in = c->buf + c->off;
		avail = c->len - c->off;
		nl = avail > 0 ? memchr(in, '\n', avail) : NULL;
		if (nl != NULL || avail == c->limit) {
			n = nl != NULL ? (size_t)(nl - in) + 1 : avail;
			take = n;
			while (take > 0 && (in[take - 1] == '\n' ||
			    in[take - 1] == '\r'))
				take--;
			if (take >= size)
				take = size - 1;
			memcpy(line, in, take);
			line[take] = '\0';
			mail_conn_consume(c, n);
			*got = true;
			return MAIL_IMAP_OK;
		}
		if ((e = mail_conn_fill(c, dl, got, err, errsize)) !=
		    MAIL_IMAP_OK)
			return e;
		if (!*got)
			return MAIL_IMAP_OK;
		*got = false;
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

	mail_conn_deadline(&dl, (long long)idle->conn.imap->co.timeout * 1000);
	plen = (size_t)snprintf(prefix, sizeof prefix, "c%u ", tag);
	for (;;) {
		if ((e = idle_line(idle, line, sizeof line, &dl, &got, err,
		    errsize)) != MAIL_IMAP_OK)
			return e;
		if (!got) {
			errbuf_set(err, errsize, "%s: IDLE: %s",
			    idle->conn.imap->base,
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
		    idle->conn.imap->base, mail_imap_strerror(MAIL_IMAP_EPROTO),
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

	*tagp = ++idle->conn.tag;
	snprintf(cmd, sizeof cmd, "c%u %s\r\n", *tagp, text);
	mail_conn_deadline(&dl, (long long)idle->conn.imap->co.timeout * 1000);
	return mail_conn_send(&idle->conn, cmd, strlen(cmd), &dl, err,
	    errsize);
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
	mail_conn_deadline(&dl, (long long)idle->conn.imap->co.timeout * 1000);
	if ((e = mail_conn_send(&idle->conn, "DONE\r\n", 6, &dl, err,
	    errsize)) != MAIL_IMAP_OK)
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
	char	cmd[64];

	if (idle->conn.curl == NULL)
		return;
	snprintf(cmd, sizeof cmd, "%sc%u LOGOUT\r\n",
	    idle->idling ? "DONE\r\n" : "", ++idle->conn.tag);
	mail_conn_close(&idle->conn, logout ? cmd : NULL);
	idle->idling = false;
}

/* Connect, log in (libcurl), select the mailbox and enter IDLE. */
static enum mail_imap_err
idle_connect(struct mail_idle *idle, char *err, size_t errsize)
{
	struct mail_imap	*imap = idle->conn.imap;
	char			 quoted[512], cmd[600];
	unsigned		 tag;
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
	if ((e = mail_conn_open(&idle->conn, err, errsize)) != MAIL_IMAP_OK)
		return e;
	idle->idling = false;
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
	if (idle->conn.curl == NULL &&
	    (e = idle_connect(idle, err, errsize)) != MAIL_IMAP_OK)
		return e;
	/* Mail that came while nobody listened: the poll after finds it. */
	if (idle->fresh) {
		idle->fresh = false;
		*newmail = true;
		return MAIL_IMAP_OK;
	}
	mail_conn_deadline(&dl, 0);
	if (dl.tv_sec - idle->idle_since.tv_sec >= IDLE_RENEW_SECONDS &&
	    ((e = idle_done(idle, newmail, err, errsize)) != MAIL_IMAP_OK ||
	    (e = idle_start(idle, newmail, err, errsize)) != MAIL_IMAP_OK))
		goto fail;
	mail_conn_deadline(&dl, timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		if ((e = idle_line(idle, line, sizeof line, &dl, &got, err,
		    errsize)) != MAIL_IMAP_OK)
			goto fail;
		if (!got)
			break;
		if (strncasecmp(line, "* BYE", 5) == 0) {
			errbuf_set(err, errsize, "%s: IDLE: the server ended "
			    "the session: %s", idle->conn.imap->base, line);
			e = MAIL_IMAP_ECONNECT;
			goto fail;
		}
		if (line_is_new_mail(line)) {
			*newmail = true;
			/* Take what else came with it, then let the poll run. */
			mail_conn_deadline(&dl, 0);
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
	return idle->conn.connections;
}

/* Leave IDLE, log out and free idle. */
void
mail_idle_free(struct mail_idle *idle)
{
	if (idle == NULL)
		return;
	idle_close(idle, true);
	mail_conn_free(&idle->conn);
	free(idle);
}
