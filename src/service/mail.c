/*
 * service/mail.c: mail in from the move mailbox, and the outbox.
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

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "service/service_int.h"

/* Name a mail outcome. */
const char *
service_mail_outcome_name(enum service_mail_outcome o)
{
	switch (o) {
	case SERVICE_MAIL_APPLIED:
		return "applied";
	case SERVICE_MAIL_REFUSED:
		return "refused";
	case SERVICE_MAIL_NO_STATEMENT:
		return "no-statement";
	case SERVICE_MAIL_DUPLICATE:
		return "duplicate";
	}
	return "unknown";
}

/* Handle one mail from the move mailbox. */
int
service_mail(struct service *svc, const struct service_mail_in *m,
    enum service_mail_outcome *outcome, struct service_error *err)
{
	struct service_error	 local;

	if (err == NULL)
		err = &local;
	return service_mail_many(svc, m, 1, outcome, err);
}

/* The language of the player whose address sent a mail (English for an
 * unknown address): refusals before the statement names its player. */
static enum chess_lang
sender_lang(struct service *svc, const struct service_mail_in *m)
{
	struct store_player	 pl;
	struct store		*rs;
	struct service_error	 ignore;
	enum chess_lang		 lang = CHESS_LANG_EN;

	if (m->sender[0] == '\0' || (rs = pool_get(svc, &ignore)) == NULL)
		return lang;
	if (store_player_get_by_email(rs, m->sender, &pl) == STORE_OK)
		lang = player_lang(&pl);
	pool_put(svc, rs);
	return lang;
}

/*
 * Make the job of one mail: its statement parsed and its signature checked
 * here, on the caller's thread. -1 only for an internal failure.
 */
static int
mail_job_prepare(struct service *svc, const struct service_mail_in *m,
    struct prepared *p, struct job *j, struct service_error *err)
{
	enum chess_lang	lang;

	memset(err, 0, sizeof *err);
	memset(j, 0, sizeof *j);
	j->kind = JOB_MAIL;
	j->err = err;
	j->u.mail.mail = m;
	if (m->statement == NULL && (m->token == NULL || *m->token == '\0' ||
	    m->too_large))
		return 0;
	lang = sender_lang(svc, m);
	if (m->statement == NULL)
		return mail_token_prepare(svc, m, lang, p, j, err);
	if (action_prepare(svc, 0, m->statement, m->statement_len, lang, p,
	    err) != 0 && err->status == 500)
		return -1;
	j->game_id = (int64_t)p->st.game;
	action_statement(&j->u.mail.s, p, "mail");
	/* Before the writer, only a parsed statement may be kept. */
	j->u.mail.refused = err->code[0] != '\0';
	if (j->u.mail.refused && p->st.player[0] == '\0')
		j->u.mail.s.st = NULL;
	return 0;
}

/* Handle `n` mails, queued together so that they commit together. */
int
service_mail_many(struct service *svc, const struct service_mail_in *ins,
    size_t n, enum service_mail_outcome *outcomes,
    struct service_error *errs)
{
	struct prepared		*p = NULL;
	struct job		*jobs = NULL, one;
	size_t			*at = NULL, i, nq = 0;
	int			 rc = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		memset(&errs[i], 0, sizeof errs[i]);
	if ((p = calloc(n, sizeof *p)) == NULL ||
	    (jobs = calloc(n, sizeof *jobs)) == NULL ||
	    (at = calloc(n, sizeof *at)) == NULL) {
		for (i = 0; i < n; i++)
			service_fail(&errs[i], 500, "internal",
			    "out of memory");
		rc = -1;
		goto out;
	}
	/* The prepared jobs side by side, in the mails' order. */
	for (i = 0; i < n; i++) {
		if (mail_job_prepare(svc, &ins[i], &p[i], &one,
		    &errs[i]) != 0) {
			rc = -1;
			continue;
		}
		at[nq] = i;
		jobs[nq++] = one;
	}
	if (writer_submit_all(svc, jobs, nq) != 0)
		rc = -1;
	for (i = 0; i < nq; i++) {
		if (jobs[i].rc != 0) {
			rc = -1;
			continue;
		}
		outcomes[at[i]] = jobs[i].u.mail.outcome;
		if (jobs[i].u.mail.outcome == SERVICE_MAIL_APPLIED)
			service_count_accepted();
		else if (jobs[i].u.mail.outcome == SERVICE_MAIL_REFUSED)
			service_count_refused(errs[at[i]].code[0] != '\0' ?
			    errs[at[i]].code : "internal");
	}
 out:
	if (p != NULL) {
		for (i = 0; i < n; i++)
			service_player_free(&p[i].sp);
	}
	free(p);
	free(jobs);
	free(at);
	return rc;
}

/* Read where polling a mailbox got to (0, 0 the first time). */
int
service_mail_position(struct service *svc, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid, struct service_error *err)
{
	struct store		*st;
	enum store_status	 ss;
	int			 rc = 0;

	*uidvalidity = *last_uid = 0;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_mail_state_get(st, mailbox, uidvalidity, last_uid);
	if (ss != STORE_OK && ss != STORE_NOTFOUND)
		rc = service_store_fail(err, st, "read the mailbox position");
	pool_put(svc, st);
	return rc;
}

/*
 * Queue player p's summary of `held` refusals in their name since `since`,
 * the last with `code` and `reason`, in the player's language, and record
 * it. `subject`: the subject of the mail it answers, or NULL.
 */
static int
refusal_summary(struct service *svc, const struct store_player *p,
    int64_t held, int64_t since, const char *code, const char *reason,
    const char *subject, int64_t now)
{
	struct notice	 n;
	struct tm	 tm;
	time_t		 t;
	char		 text[1024], when[32];

	t = (time_t)since;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	if (player_lang(p) == CHESS_LANG_FR)
		snprintf(text, sizeof text, "%" PRId64 " courriel%s en votre "
		    "nom %s refusé%s depuis le %s sans réponse un par un (au "
		    "plus %d réponses par heure vont à une même adresse) ; le "
		    "dernier : %s", held, held == 1 ? "" : "s",
		    held == 1 ? "a été" : "ont été", held == 1 ? "" : "s",
		    when, MAIL_REFUSALS_PER_HOUR, reason);
	else
		snprintf(text, sizeof text, "%" PRId64 " mail%s in your name "
		    "%s refused since %s and not answered one by one (at most "
		    "%d answers an hour go to one address); the last: %s",
		    held, held == 1 ? "" : "s", held == 1 ? "was" : "were",
		    when, MAIL_REFUSALS_PER_HOUR, reason);
	notify_start(&n, NOTICE_REFUSED, p->email, p->name, player_lang(p));
	n.answered_subject = subject;
	n.reason = text;
	n.reason_code = code;
	if (notify_queue(svc, svc->wstore, &n, now) != 0 ||
	    store_refusal_summarised(svc->wstore, p->email, now) != STORE_OK)
		return -1;
	service_count_answer("summary", false);
	return 0;
}

/*
 * Hold back the answer to a mail refused in player p's name: the hour's
 * answers are spent. Once a day at most, a summary of the refusals held
 * since the last one goes instead, with the last refusal's reason: at
 * once when the last summary is a day old, else from the clock once it
 * is (service_clock_summaries()).
 */
static int
mail_hold_refusal(struct service *svc, const struct job *j,
    const struct store_player *p, int64_t now)
{
	int64_t	held, since, summary_at;

	if (store_refusal_hold(svc->wstore, p->email, p->id, now,
	    j->err->code, j->err->message, &held, &since, &summary_at) !=
	    STORE_OK)
		return -1;
	service_count_answer("refused", true);
	if (summary_at > now - GAME_DAY)
		return 0;
	return refusal_summary(svc, p, held, since, j->err->code,
	    j->err->message, j->u.mail.mail->subject, now);
}

/* In the writer: the clock's summary of a player's held refusals. */
int
job_summary(struct service *svc, struct job *j, int64_t now)
{
	struct store_player	p;
	struct store_refusal	r;
	enum store_status	ss;

	ss = store_player_get(svc->wstore, j->u.digest.player_id, &p);
	if (ss == STORE_OK)
		ss = store_refusal_get(svc->wstore, p.id, &r);
	if (ss == STORE_NOTFOUND)
		return 0;
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the held refusals");
	/* Read again in the writer's transaction: still due? */
	if (r.summary_at > now - GAME_DAY)
		return 0;
	/* No address left: nothing to tell, nothing to keep. */
	if (p.email[0] == '\0') {
		if (store_refusal_summarised(svc->wstore, r.recipient, now) !=
		    STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "record the summary");
		return 0;
	}
	/* The address may have changed since: the row is the old one's. */
	if (refusal_summary(svc, &p, r.held, r.since, r.last_code,
	    r.last_reason, NULL, now) != 0 || (strcmp(r.recipient,
	    p.email) != 0 && store_refusal_summarised(svc->wstore,
	    r.recipient, now) != STORE_OK))
		return service_store_fail(j->err, svc->wstore,
		    "queue the summary");
	j->changed = true;
	return 0;
}

/*
 * Answer a refused mail: to the sender when the sender is a registered
 * player, else to the player the statement names; strangers get nothing.
 * The answer goes to the player's registered address only, at most
 * MAIL_REFUSALS_PER_HOUR an hour; the rest are summed up once a day.
 */
static int
mail_answer_refusal(struct service *svc, const struct job *j, int64_t now)
{
	const struct sig_statement	*st = j->u.mail.s.st;
	const struct service_mail_in	*m = j->u.mail.mail;
	struct store_player		 p;
	struct store_game		 row;
	struct cached			*c = NULL;
	struct notice			 n;
	struct service_error		 ignore;
	int64_t				 recent = 0;

	if (m->automatic)
		return 0;
	if (store_player_get_by_email(svc->wstore, m->sender, &p) !=
	    STORE_OK && (st == NULL ||
	    store_player_get_by_name(svc->wstore, st->player, &p) !=
	    STORE_OK || p.email[0] == '\0')) {
		log_info("mail from %s refused (%s), not answered: not a "
		    "player's address", m->sender, j->err->code);
		return 0;
	}
	if (store_outbox_recent(svc->wstore, p.email,
	    notice_kind_name(NOTICE_REFUSED), now - GAME_DAY / 24,
	    &recent) != STORE_OK)
		return -1;
	if (recent >= MAIL_REFUSALS_PER_HOUR)
		return mail_hold_refusal(svc, j, &p, now);
	service_count_answer("refused", false);
	service_fault_lang(j->err, player_lang(&p));
	notify_start(&n, NOTICE_REFUSED, p.email, p.name, player_lang(&p));
	n.answered_id = m->message_id[0] ? m->message_id : NULL;
	n.answered_subject = m->subject;
	n.reason = j->err->message;
	n.reason_code = j->err->code;
	/* With the game when the player plays in it. */
	if (j->game_id != 0 && store_game_get(svc->wstore, j->game_id,
	    &row) == STORE_OK && row_color(&row, p.id) != -1 &&
	    (c = cache_get(svc, &row, &ignore)) != NULL)
		return notify_game_to(svc, &row, c, &n, row_color(&row, p.id),
		    now);
	return notify_queue(svc, svc->wstore, &n, now);
}

/* Answer a mail without a statement with a how-to, once a day at most. */
static int
mail_answer_howto(struct service *svc, const struct job *j, int64_t now)
{
	const struct service_mail_in	*m = j->u.mail.mail;
	struct store_player		 p;
	struct notice			 n;
	int64_t				 recent = 0;
	bool				 known;

	if (m->automatic || m->sender[0] == '\0')
		return 0;
	if (store_outbox_recent(svc->wstore, m->sender,
	    notice_kind_name(NOTICE_HOWTO), now - GAME_DAY, &recent) !=
	    STORE_OK)
		return -1;
	if (recent > 0) {
		service_count_answer("howto", true);
		return 0;
	}
	/* And over every address: a flood from many forged senders. */
	if (store_outbox_recent_all(svc->wstore, notice_kind_name(
	    NOTICE_HOWTO), now - GAME_DAY / 24, &recent) != STORE_OK)
		return -1;
	if (recent >= MAIL_HOWTOS_PER_HOUR) {
		service_count_howto_capped();
		return 0;
	}
	service_count_answer("howto", false);
	known = store_player_get_by_email(svc->wstore, m->sender, &p) ==
	    STORE_OK;
	notify_start(&n, NOTICE_HOWTO, m->sender, known ? p.name : NULL,
	    known ? player_lang(&p) : CHESS_LANG_EN);
	n.answered_id = m->message_id[0] ? m->message_id : NULL;
	n.answered_subject = m->subject;
	return notify_queue(svc, svc->wstore, &n, now);
}

/*
 * Write a size in megabytes (of 2^20 bytes) with one decimal, rounded up
 * (a mail just over the limit is not "16 MB" beside a limit of 16 MB),
 * ".0" left out; a decimal comma in French.
 */
static void
mail_megabytes(uint64_t bytes, enum chess_lang lang, char *buf, size_t size)
{
	uint64_t	tenths = (bytes * 10 + (1 << 20) - 1) >> 20;

	if (tenths % 10 == 0)
		snprintf(buf, size, "%" PRIu64, tenths / 10);
	else
		snprintf(buf, size, "%" PRIu64 "%c%" PRIu64, tenths / 10,
		    lang == CHESS_LANG_FR ? ',' : '.', tenths % 10);
}

/*
 * Refuse a mail over the size limit, saying its size and the limit in the
 * language of the player who sent it (English for an unknown address).
 */
static int
mail_too_large(struct service *svc, const struct service_mail_in *m,
    struct service_error *err)
{
	struct store_player	p;
	enum chess_lang		lang = CHESS_LANG_EN;
	char			size[32], limit[32];

	if (m->sender[0] != '\0' && store_player_get_by_email(svc->wstore,
	    m->sender, &p) == STORE_OK)
		lang = player_lang(&p);
	mail_megabytes(m->size, lang, size, sizeof size);
	mail_megabytes(m->size_limit, lang, limit, sizeof limit);
	if (lang == CHESS_LANG_FR && m->size > m->size_limit)
		return service_fail(err, 413, "mail-too-large",
		    "votre courriel fait %s Mo ; la limite est de %s Mo : "
		    "envoyez la déclaration et sa signature sans pièce "
		    "jointe", size, limit);
	if (lang == CHESS_LANG_FR)
		return service_fail(err, 413, "mail-too-large",
		    "votre courriel dépasse la limite de %s Mo : envoyez la "
		    "déclaration et sa signature sans pièce jointe", limit);
	if (m->size > m->size_limit)
		return service_fail(err, 413, "mail-too-large",
		    "your mail is %s MB; the limit is %s MB: send the "
		    "statement and its signature without attachments", size,
		    limit);
	return service_fail(err, 413, "mail-too-large",
	    "your mail is larger than the limit of %s MB: send the "
	    "statement and its signature without attachments", limit);
}

/* Move the stored mailbox position up to this mail. */
static enum store_status
mail_position_advance(struct store *st, const struct service_mail_in *m)
{
	enum store_status	ss;
	int64_t			uidvalidity, last;

	ss = store_mail_state_get(st, m->mailbox, &uidvalidity, &last);
	if (ss == STORE_NOTFOUND || (ss == STORE_OK && (uidvalidity !=
	    m->uidvalidity || last < m->uid)))
		return store_mail_state_set(st, m->mailbox, m->uidvalidity,
		    m->uid);
	return ss;
}

/*
 * In the writer: handle a mail. Seen before, nothing to do; else its
 * action (when it has a statement that passed the signature check), its
 * answer, and its record, all in this savepoint. -1 only when the store
 * failed.
 */
int
job_mail(struct service *svc, struct job *j, int64_t now)
{
	struct job_mail			*jm = &j->u.mail;
	const struct service_mail_in	*m = jm->mail;
	struct store_mail_seen		 seen;
	struct store_mail_token		 token;
	enum store_status		 ss;
	int				 rc = 0;

	ss = store_mail_seen_find(svc->wstore, m->mailbox, m->uidvalidity,
	    m->uid, m->message_id, NULL);
	if (ss == STORE_OK) {
		jm->outcome = SERVICE_MAIL_DUPLICATE;
		if (mail_position_advance(svc->wstore, m) != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "record the mailbox position");
		return 0;
	}
	if (ss != STORE_NOTFOUND)
		return service_store_fail(j->err, svc->wstore,
		    "look the mail up");
	if (m->too_large) {
		mail_too_large(svc, m, j->err);
		jm->outcome = SERVICE_MAIL_REFUSED;
	} else if (jm->s.st != NULL && !jm->refused) {
		/* A token is used up only by the action it brought. */
		rc = jm->has_token ? mail_token_check(svc, j, now, &token) : 0;
		if (rc == 0)
			rc = job_game(svc, j, now);
		if (rc == 0 && jm->has_token && store_mail_token_use(
		    svc->wstore, token.id, now) != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "use the mail token");
		if (rc == 0)
			jm->outcome = SERVICE_MAIL_APPLIED;
		else if (j->err->status == 500)
			return -1;
		else
			jm->outcome = SERVICE_MAIL_REFUSED;
		rc = 0;
	} else if (jm->refused)
		jm->outcome = SERVICE_MAIL_REFUSED;
	else
		jm->outcome = SERVICE_MAIL_NO_STATEMENT;

	if (svc->mail && jm->outcome == SERVICE_MAIL_REFUSED)
		rc = mail_answer_refusal(svc, j, now);
	else if (svc->mail && jm->outcome == SERVICE_MAIL_NO_STATEMENT)
		rc = mail_answer_howto(svc, j, now);
	if (rc != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the answer");

	memset(&seen, 0, sizeof seen);
	snprintf(seen.mailbox, sizeof seen.mailbox, "%s", m->mailbox);
	seen.uidvalidity = m->uidvalidity;
	seen.uid = m->uid;
	snprintf(seen.message_id, sizeof seen.message_id, "%s",
	    m->message_id);
	snprintf(seen.sender, sizeof seen.sender, "%s", m->sender);
	seen.received = now;
	snprintf(seen.outcome, sizeof seen.outcome, "%s",
	    service_mail_outcome_name(jm->outcome));
	seen.game_id = j->game_id;
	if (store_mail_seen_add(svc->wstore, &seen) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "record the mail");
	/* Where the poller got to, with the mail's effect. */
	if (mail_position_advance(svc->wstore, m) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "record the mailbox position");
	return 0;
}

/* Walk the outbox's due mails. */
int
service_outbox_due(struct service *svc, int64_t limit, service_outbox_cb cb,
    void *arg, struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_outbox_due(st, service_now(svc), limit, cb, arg) !=
	    STORE_OK)
		rc = service_store_fail(err, st, "read the outbox");
	pool_put(svc, st);
	return rc;
}

/* Mark outgoing mails sent, in one transaction. */
int
service_outbox_sent(struct service *svc, const int64_t *ids, size_t n,
    struct service_error *err)
{
	struct job	j = { .kind = JOB_OUTBOX_SENT, .err = err,
			      .u.outbox = { .ids = ids, .n = n } };

	if (n == 0)
		return 0;
	return writer_submit(svc, &j);
}

/* Note a failed sending attempt: retry later, or give it up. */
int
service_outbox_failed(struct service *svc, int64_t id, int64_t retry_at,
    const char *why, struct service_error *err)
{
	struct job	j = { .kind = JOB_OUTBOX_FAILED, .err = err,
			      .u.outbox = { .id = id, .retry_at = retry_at,
			      .why = why } };

	return writer_submit(svc, &j);
}

/* In the writer: store the outcome of sending a mail. */
int
job_outbox(struct service *svc, struct job *j, int64_t now)
{
	const struct job_outbox	*o = &j->u.outbox;
	enum store_status	 ss = STORE_OK;
	size_t			 i;

	if (j->kind == JOB_OUTBOX_SENT)
		for (i = 0; i < o->n && ss == STORE_OK; i++)
			ss = store_outbox_sent(svc->wstore, o->ids[i], now);
	else if (o->retry_at != 0)
		ss = store_outbox_retry(svc->wstore, o->id, o->retry_at,
		    o->why);
	else
		ss = store_outbox_failed(svc->wstore, o->id, now, o->why);
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    j->kind == JOB_OUTBOX_SENT ? "mark a mail sent" :
		    "note a failed mail");
	return 0;
}
