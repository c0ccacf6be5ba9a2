/*
 * mail/mailer.c: the mail threads: the mailbox polled, the outbox sent.
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

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "mail/mail_idle.h"
#include "mail/mail_imap.h"
#include "letters/mail_parse.h"
#include "mail/mail_smtp.h"
#include "letters/address.h"
#include "mail/mailer.h"

static void	outbox_kick(struct mailer *);

/* Retry delays of a notice the SMTP server did not take. */
#define MAILER_RETRY_MIN	10
#define MAILER_RETRY_MAX	3600
/* Give a notice up after this many temporary failures (about 2 days). */
#define MAILER_TRIES_MAX	60
/* Notices read from the outbox at a time, and batches sent in a row
 * before the thread looks at the mailbox again. */
#define MAILER_OUTBOX_BATCH	64
#define MAILER_OUTBOX_ROUNDS	16

struct mailer {
	struct service		*svc;
	struct mailer_options	 opts;		/* strings borrowed */
	struct mail_imap	*imap;
	struct mail_idle	*idle;		/* NULL: poll only */
	struct mail_smtp	*smtp;
	char			*imap_password;
	char			*smtp_password;
	char			 envelope_from[256];
	pthread_t		 thread;	/* the mailbox's */
	pthread_t		 send_thread;	/* the notices' */
	bool			 polling;	/* `thread` runs */
	bool			 sending;	/* `send_thread` runs */
	pthread_mutex_t		 lock;
	pthread_cond_t		 wake;
	pthread_cond_t		 outbox_wake;
	bool			 outbox_kicked;	/* notices were queued */
	bool			 stopping;
	unsigned		 imap_backoff;	/* seconds, 0: none */
	unsigned		 idle_backoff;	/* seconds, 0: none */
	time_t			 idle_retry;	/* no IDLE before then */
	unsigned long		 idle_logged;	/* connections logged */
	bool			 crash_after_commit; /* tests only */
	bool			 rescanned;	/* the first poll went well */
	int64_t			 round_sent;	/* notices tried this batch */
	size_t			 nsent;		/* taken, not yet marked */
	int64_t			 sent[MAILER_OUTBOX_BATCH];
	time_t			 next_poll;
};

/* Read a password file: its first line. NULL with a reason. */
static char *
read_secret(const char *path, char *err, size_t errsize)
{
	FILE	*fp;
	char	 line[1024];
	size_t	 n;

	if (path == NULL || *path == '\0')
		return strdup("");
	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fgets(line, sizeof line, fp) == NULL)
		line[0] = '\0';
	fclose(fp);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	return strdup(line);
}

/* Wipe and free a secret read_secret() returned; accepts NULL. */
static void
free_secret(char *s)
{
	if (s == NULL)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}

/* The bare address of a From setting. */
size_t
mailer_bare_address(const char *from, char *buf, size_t size)
{
	const char	*lt = strrchr(from, '<'), *gt;
	size_t		 n;

	if (lt != NULL && (gt = strchr(lt, '>')) != NULL) {
		n = (size_t)(gt - lt - 1);
		from = lt + 1;
	} else
		n = strlen(from);
	while (n > 0 && (*from == ' ' || *from == '\t')) {
		from++;
		n--;
	}
	while (n > 0 && (from[n - 1] == ' ' || from[n - 1] == '\t'))
		n--;
	return (size_t)snprintf(buf, size, "%.*s", (int)n, from);
}

/* Mails handed to the service at a time (one transaction). */
#define MAILER_MAIL_BATCH	64

/* A poll: the mails fetched and not yet handed to the service. */
struct poll_ctx {
	struct mailer			*m;
	bool				 failed;
	size_t				 n;
	struct mail_message		 mm[MAILER_MAIL_BATCH];
	struct service_mail_in		 in[MAILER_MAIL_BATCH];
	enum service_mail_outcome	 outcome[MAILER_MAIL_BATCH];
	struct service_error		 err[MAILER_MAIL_BATCH];
	uint32_t			 done[MAILER_MAIL_BATCH];
	uint32_t			 refused[MAILER_MAIL_BATCH];
};

/* Move the mails in uids away into folder. */
static void
move_set(struct mailer *m, uint32_t uidvalidity, const uint32_t *uids,
    size_t n, const char *folder)
{
	char	why[MAIL_ERR_SIZE];

	if (n > 0 && mail_imap_move_set(m->imap, uidvalidity, uids, n, folder,
	    why, sizeof why) != MAIL_IMAP_OK)
		log_warnx("mail: cannot move %zu mail%s (uid %" PRIu32
		    "...) to %s: %s", n, n == 1 ? "" : "s", uids[0], folder,
		    why);
}

/*
 * Hand the collected mails to the service, which applies them in UID order
 * and commits them together, then move those dealt with away. -1 when some
 * could not be recorded: they stay in the mailbox.
 */
static int
poll_flush(struct poll_ctx *pc)
{
	struct mailer		*m = pc->m;
	size_t			 i, ndone = 0, nrefused = 0;
	uint32_t		 uid, uidvalidity;
	int			 rc = 0;

	if (pc->n == 0)
		return 0;
	uidvalidity = (uint32_t)pc->in[0].uidvalidity;
	if (service_mail_many(m->svc, pc->in, pc->n, pc->outcome,
	    pc->err) != 0)
		rc = -1;
	for (i = 0; i < pc->n; i++) {
		uid = (uint32_t)pc->in[i].uid;
		if (pc->err[i].status >= 500) {
			log_warnx("mail uid %" PRIu32 " from %s: %s; will try "
			    "again", uid, pc->in[i].sender,
			    pc->err[i].message);
			continue;
		}
		log_info("mail uid %" PRIu32 " from %s: %s%s%s", uid,
		    pc->in[i].sender,
		    service_mail_outcome_name(pc->outcome[i]),
		    pc->outcome[i] == SERVICE_MAIL_REFUSED ? ": " : "",
		    pc->outcome[i] == SERVICE_MAIL_REFUSED ?
		    pc->err[i].message : "");
		if (pc->outcome[i] == SERVICE_MAIL_APPLIED ||
		    pc->outcome[i] == SERVICE_MAIL_DUPLICATE)
			pc->done[ndone++] = uid;
		else
			pc->refused[nrefused++] = uid;
	}
	for (i = 0; i < pc->n; i++)
		mail_message_free(&pc->mm[i]);
	pc->n = 0;
	/*
	 * For the crash test: die between the commit and the move, the
	 * moment where mail is applied but still in the mailbox.
	 */
	if (m->crash_after_commit && ndone + nrefused > 0)
		_exit(99);
	/* Their notices go out while the mail is filed and more read. */
	if (ndone + nrefused > 0 && m->sending)
		outbox_kick(m);
	move_set(m, uidvalidity, pc->done, ndone, m->opts.processed_folder);
	move_set(m, uidvalidity, pc->refused, nrefused,
	    m->opts.refused_folder);
	return rc;
}

/* Drop the collected mails unhandled. */
static void
poll_discard(struct poll_ctx *pc)
{
	size_t	i;

	for (i = 0; i < pc->n; i++)
		mail_message_free(&pc->mm[i]);
	pc->n = 0;
}

/* Take one fetched mail: parse it now, hand it on with its batch. */
static int
mail_one(const struct mail_imap_message *msg, void *arg)
{
	struct poll_ctx		*pc = arg;
	struct mailer		*m = pc->m;
	struct mail_message	*mm = &pc->mm[pc->n];
	struct service_mail_in	*in = &pc->in[pc->n];
	char			 why[256];
	bool			 parsed;

	/* One UIDVALIDITY per batch (a poll has one). */
	if (pc->n > 0 && (uint32_t)pc->in[0].uidvalidity != msg->uidvalidity &&
	    poll_flush(pc) != 0)
		goto fail;
	mm = &pc->mm[pc->n];
	in = &pc->in[pc->n];
	memset(mm, 0, sizeof *mm);
	parsed = mail_parse(msg->data, msg->len, mm, why, sizeof why) == 0;
	if (!parsed) {
		log_warnx("mail uid %" PRIu32 ": %s", msg->uid, why);
		mail_message_free(mm);
		memset(mm, 0, sizeof *mm);
	}
	memset(in, 0, sizeof *in);
	in->mailbox = m->opts.mailbox;
	in->uidvalidity = msg->uidvalidity;
	in->uid = msg->uid;
	in->message_id = parsed && mm->message_id ? mm->message_id : "";
	in->sender = parsed && mm->from ? mm->from : "";
	in->subject = parsed && mm->subject ? mm->subject : "";
	in->automatic = !parsed || mm->automatic;
	in->too_large = msg->truncated;
	in->size = msg->size;
	in->size_limit = msg->limit;
	if (parsed && !msg->truncated && mm->statement != NULL) {
		in->statement = mm->statement;
		in->statement_len = mm->statement_len;
	}
	/* A token and no signed statement: a reply without a key (the
	 * notice's ready statement, quoted, is not the player's). */
	if (parsed && !msg->truncated && mm->found != MAIL_STATEMENT &&
	    mm->token[0] != '\0') {
		in->statement = NULL;
		in->statement_len = 0;
		in->token = mm->token;
		in->reply_action = mm->reply_action;
		in->reply_message = mm->reply_message;
	}
	if (++pc->n == MAILER_MAIL_BATCH && poll_flush(pc) != 0)
		goto fail;
	return 0;
fail:
	pc->failed = true;
	return 1;
}

/* Poll the mailbox once; back off after a failure. */
static void
mailer_poll(struct mailer *m, time_t now)
{
	struct poll_ctx			*pc;
	struct mail_imap_poll_result	 res;
	struct service_error		 err;
	enum mail_imap_err		 e;
	int64_t				 uidvalidity = 0, last_uid = 0;
	char				 why[512];
	bool				 failed;

	if (service_mail_position(m->svc, m->opts.mailbox, &uidvalidity,
	    &last_uid, &err) != 0) {
		log_warnx("mail: %s", err.message);
		return;
	}
	/*
	 * The first poll reads the whole mailbox again: a mail whose action
	 * was committed just before a crash (or a failed move) is still there
	 * but below the stored position. Its record makes it a duplicate,
	 * and it is filed away.
	 */
	if (!m->rescanned)
		last_uid = 0;
	pc = calloc(1, sizeof *pc);
	if (pc == NULL) {
		log_warnx("mail: out of memory");
		return;
	}
	pc->m = m;
	e = mail_imap_poll(m->imap, (uint32_t)uidvalidity, (uint32_t)last_uid,
	    mail_one, pc, &res, why, sizeof why);
	/* The last batch, also after a failed fetch: what came is good. */
	if (!pc->failed && poll_flush(pc) != 0)
		pc->failed = true;
	poll_discard(pc);
	failed = pc->failed;
	free(pc);
	/*
	 * A mail that could not be recorded stays, maybe below mail of its
	 * batch that was: read the whole mailbox again next time.
	 */
	if (failed)
		m->rescanned = false;
	if (e != MAIL_IMAP_OK || failed) {
		m->imap_backoff = mail_imap_backoff_next(m->imap_backoff, 300);
		if (e != MAIL_IMAP_OK)
			log_warnx("imap: %s; retrying in %u s", why,
			    m->imap_backoff);
		m->next_poll = now + m->imap_backoff;
		return;
	}
	if (res.uidvalidity_changed)
		log_info("imap: the mailbox's UIDVALIDITY changed; its mail "
		    "was read again (none applied twice)");
	m->imap_backoff = 0;
	m->rescanned = true;
	m->next_poll = now + (time_t)m->opts.poll_interval;
}

/* Send one due notice. */
static int
send_one(void *arg, const struct store_outbox *o)
{
	struct mailer			*m = arg;
	struct service_error		 err;
	const char			*rcpt[1] = { o->recipient };
	enum mail_smtp_result		 r;
	char				 why[512];
	int64_t				 delay;
	int				 code = 0;

	m->round_sent++;
	/* The envelope is one bare addr-spec, whatever an older row holds. */
	if (mail_address_check(o->recipient, why, sizeof why) != 0)
		r = MAIL_SMTP_PERMFAIL;
	else
		r = mail_smtp_send(m->smtp, m->envelope_from, rcpt, 1,
		    o->message, strlen(o->message), &code, why, sizeof why);
	/* Marked sent with the rest of the batch (mark_sent()). */
	if (r == MAIL_SMTP_OK) {
		m->sent[m->nsent++] = o->id;
		return 0;
	}
	if (r == MAIL_SMTP_PERMFAIL || o->attempts + 1 >= MAILER_TRIES_MAX) {
		log_warnx("outbox %" PRId64 " to %s: given up: %s", o->id,
		    o->recipient, why);
		service_outbox_failed(m->svc, o->id, 0, why, &err);
		return 0;
	}
	/* 10 s, 20 s, 40 s ... up to an hour. */
	delay = (int64_t)MAILER_RETRY_MIN << (o->attempts < 9 ? o->attempts :
	    9);
	if (delay > MAILER_RETRY_MAX)
		delay = MAILER_RETRY_MAX;
	log_warnx("outbox %" PRId64 " to %s: %s; retrying in %" PRId64 " s",
	    o->id, o->recipient, why, delay);
	service_outbox_failed(m->svc, o->id, service_now(m->svc) + delay, why,
	    &err);
	/* The server is down: the other notices wait for the next round. */
	return 1;
}

/*
 * Mark the notices the SMTP server took this batch sent, in one
 * transaction. A crash before it sends them again (never loses one).
 */
static void
mark_sent(struct mailer *m)
{
	struct service_error	err;

	if (m->nsent > 0 && service_outbox_sent(m->svc, m->sent, m->nsent,
	    &err) != 0)
		log_warnx("outbox: %zu notice%s sent (first %" PRId64 "), "
		    "but %s", m->nsent, m->nsent == 1 ? "" : "s", m->sent[0],
		    err.message);
	m->nsent = 0;
}

/* Wake the sending thread: notices are due. */
static void
outbox_kick(struct mailer *m)
{
	pthread_mutex_lock(&m->lock);
	m->outbox_kicked = true;
	pthread_cond_signal(&m->outbox_wake);
	pthread_mutex_unlock(&m->lock);
}

/* Wait a second on cond, or less when kicked or stopping. */
static void
wait_tick(struct mailer *m, pthread_cond_t *cond, bool *kicked)
{
	struct timespec	ts;

	pthread_mutex_lock(&m->lock);
	if (!m->stopping && (kicked == NULL || !*kicked)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(cond, &m->lock, &ts);
	}
	if (kicked != NULL)
		*kicked = false;
	pthread_mutex_unlock(&m->lock);
}

/* Whether the mailer is stopping. */
static bool
mailer_stopping(struct mailer *m)
{
	bool	stopping;

	pthread_mutex_lock(&m->lock);
	stopping = m->stopping;
	pthread_mutex_unlock(&m->lock);
	return stopping;
}

/*
 * Wait in IDLE (half a second at most) for the server to announce new
 * mail; *newmail says whether it did. Returns false when there is no IDLE
 * to wait in (the server has none, or it failed and is retried later with
 * backoff): the caller waits its tick and polls on time instead.
 */
static bool
idle_wait(struct mailer *m, time_t now, bool *newmail)
{
	enum mail_imap_err	e;
	char			why[MAIL_ERR_SIZE];

	*newmail = false;
	if (m->idle == NULL || now < m->idle_retry)
		return false;
	e = mail_idle_wait(m->idle, 500, newmail, why, sizeof why);
	if (e == MAIL_IMAP_ENOIDLE) {
		log_info("imap: %s; polling every %lld s", why,
		    m->opts.poll_interval);
		mail_idle_free(m->idle);
		m->idle = NULL;
		return false;
	}
	if (e != MAIL_IMAP_OK) {
		m->idle_backoff = mail_imap_backoff_next(m->idle_backoff, 300);
		m->idle_retry = now + m->idle_backoff;
		log_warnx("imap: %s; polling every %lld s, IDLE again in %u s",
		    why, m->opts.poll_interval, m->idle_backoff);
		return false;
	}
	m->idle_backoff = 0;
	if (mail_idle_connections(m->idle) != m->idle_logged) {
		m->idle_logged = mail_idle_connections(m->idle);
		log_info("imap: IDLE on %s: moves by mail are read as they "
		    "arrive", m->opts.mailbox);
	}
	return true;
}

/*
 * The mailbox thread: poll for moves by mail, at once when IDLE says mail
 * came, and every poll_interval in any case.
 */
static void *
mailer_main(void *arg)
{
	struct mailer	*m = arg;
	time_t		 now;
	bool		 newmail = false, led = false, lead;

	while (!mailer_stopping(m)) {
		now = time(NULL);
		/*
		 * Several servers on one database: one reads the mailbox. A
		 * server that takes the lead reads it at once: what came
		 * while the last leader was dying waits there, announced to
		 * no one.
		 */
		lead = service_lead(m->svc, SERVICE_LEAD_MAILBOX);
		if (lead && (newmail || now >= m->next_poll || !led))
			mailer_poll(m, now);
		led = lead;
		if (!idle_wait(m, time(NULL), &newmail))
			wait_tick(m, &m->wake, NULL);
	}
	return NULL;
}

/*
 * The sending thread: send the due notices, on its own so that notices
 * go out while the mailbox thread reads the next mail.
 */
static void *
mailer_send_main(void *arg)
{
	struct mailer		*m = arg;
	struct service_error	 err;
	int			 rounds;

	while (!mailer_stopping(m)) {
		/*
		 * A full batch: more may be due (a burst of moves); send on
		 * without waiting, a few batches at most between looks at
		 * whether the mailer stops.
		 */
		/* Several servers on one database: one sends. */
		if (!service_lead(m->svc, SERVICE_LEAD_OUTBOX)) {
			wait_tick(m, &m->outbox_wake, &m->outbox_kicked);
			continue;
		}
		for (rounds = 0; rounds < MAILER_OUTBOX_ROUNDS; rounds++) {
			m->round_sent = 0;
			if (service_outbox_due(m->svc, MAILER_OUTBOX_BATCH,
			    send_one, m, &err) != 0) {
				mark_sent(m);
				log_warnx("outbox: %s", err.message);
				break;
			}
			mark_sent(m);
			if (m->round_sent < MAILER_OUTBOX_BATCH)
				break;
		}
		if (rounds < MAILER_OUTBOX_ROUNDS)
			wait_tick(m, &m->outbox_wake, &m->outbox_kicked);
	}
	return NULL;
}

/* Stop the threads that run and wait for them. */
static void
mailer_join(struct mailer *m)
{
	pthread_mutex_lock(&m->lock);
	m->stopping = true;
	pthread_cond_broadcast(&m->wake);
	pthread_cond_broadcast(&m->outbox_wake);
	pthread_mutex_unlock(&m->lock);
	if (m->polling)
		pthread_join(m->thread, NULL);
	if (m->sending)
		pthread_join(m->send_thread, NULL);
	m->polling = m->sending = false;
}

/* Tell whether a server is to be used. */
static bool
server_used(const struct mailer_server *s)
{
	return s->url != NULL && *s->url != '\0';
}

/* Start the mail threads. */
struct mailer *
mailer_start(struct service *svc, const struct mailer_options *opts,
    char *err, size_t errsize)
{
	struct mailer			*m;
	struct mail_imap_options	 io;
	struct mail_smtp_options	 so;

	if ((m = calloc(1, sizeof *m)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	m->svc = svc;
	m->opts = *opts;
	if (getenv("CORRCHESSD_TEST_CRASH_AFTER_MAIL_COMMIT") != NULL) {
		m->crash_after_commit = true;
		log_warnx("test: exiting after the first mail is committed");
	}
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->wake, NULL);
	pthread_cond_init(&m->outbox_wake, NULL);
	mail_gmime_init();
	mailer_bare_address(opts->from, m->envelope_from,
	    sizeof m->envelope_from);
	if (server_used(&opts->imap)) {
		if ((m->imap_password = read_secret(opts->imap.password_file,
		    err, errsize)) == NULL)
			goto fail;
		memset(&io, 0, sizeof io);
		io.url = opts->imap.url;
		io.user = opts->imap.user;
		io.password = m->imap_password;
		io.mailbox = opts->mailbox;
		io.starttls = opts->imap.starttls;
		io.tls_verify = opts->tls_verify;
		io.ca_file = opts->ca_file;
		if ((m->imap = mail_imap_create(&io, err, errsize)) == NULL)
			goto fail;
		if ((m->idle = mail_idle_create(m->imap)) == NULL) {
			snprintf(err, errsize, "out of memory");
			goto fail;
		}
	} else
		log_warnx("mail: no imap_url: moves by mail are not read");
	if (server_used(&opts->smtp)) {
		if ((m->smtp_password = read_secret(opts->smtp.password_file,
		    err, errsize)) == NULL)
			goto fail;
		memset(&so, 0, sizeof so);
		so.url = opts->smtp.url;
		so.user = opts->smtp.user;
		so.password = m->smtp_password;
		so.starttls = opts->smtp.starttls;
		so.tls_verify = opts->tls_verify;
		so.ca_file = opts->ca_file;
		if ((m->smtp = mail_smtp_create(&so, err, errsize)) == NULL)
			goto fail;
	} else
		log_warnx("mail: no smtp_url: notices stay in the outbox");
	if (m->smtp != NULL) {
		if (pthread_create(&m->send_thread, NULL, mailer_send_main,
		    m) != 0) {
			snprintf(err, errsize, "cannot start the mail thread");
			goto fail;
		}
		m->sending = true;
	}
	if (m->imap != NULL) {
		if (pthread_create(&m->thread, NULL, mailer_main, m) != 0) {
			snprintf(err, errsize, "cannot start the mail thread");
			goto fail;
		}
		m->polling = true;
	}
	return m;
fail:
	mailer_stop(m);
	return NULL;
}

/* Stop the mail threads and free everything. */
void
mailer_stop(struct mailer *m)
{
	if (m == NULL)
		return;
	mailer_join(m);
	mail_idle_free(m->idle);
	mail_imap_free(m->imap);
	mail_smtp_free(m->smtp);
	free_secret(m->imap_password);
	free_secret(m->smtp_password);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->wake);
	pthread_cond_destroy(&m->outbox_wake);
	free(m);
}
