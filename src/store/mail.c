/*
 * store/mail.c: mail seen, mailbox positions, the outbox.
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
 * A message read from the mailbox is recorded in the transaction of its
 * effect, by place (mailbox, UIDVALIDITY, UID) and by Message-ID; a
 * message to send is queued in the transaction of the event that causes
 * it, and marked sent, retried or given up by the mail thread.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "store/store_int.h"

/* Read a mail_seen row of MAIL_SEEN_COLUMNS. */
static int
store_mail_seen_read(struct db_stmt *st, struct store_mail_seen *m)
{
	memset(m, 0, sizeof *m);
	m->uidvalidity = db_column_int64(st, 1);
	m->uid = db_column_int64(st, 2);
	m->received = db_column_int64(st, 5);
	m->game_id = store_col_opt_int(st, 7, 0);
	if (store_col_text(st, 0, m->mailbox, sizeof m->mailbox) != 0 ||
	    store_col_text(st, 3, m->message_id, sizeof m->message_id) != 0 ||
	    store_col_text(st, 4, m->sender, sizeof m->sender) != 0 ||
	    store_col_text(st, 6, m->outcome, sizeof m->outcome) != 0)
		return -1;
	return 0;
}

/* Find a message seen before, by its place in the mailbox or its
 * Message-ID. */
enum store_status
store_mail_seen_find(struct store *s, const char *mailbox, int64_t uidvalidity,
    int64_t uid, const char *message_id, struct store_mail_seen *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_MAIL_SEEN_FIND)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, mailbox);
	db_bind_int64(st, 2, uidvalidity);
	db_bind_int64(st, 3, uid);
	store_bind_opt_text(st, 4, message_id);
	status = store_step_one(s, st, "find a mail", NULL);
	if (status == STORE_OK && out != NULL &&
	    store_mail_seen_read(st, out) != 0) {
		store_seterr(s, "mail_seen: bad stored field");
		status = STORE_ERROR;
	}
	store_done(st);
	return status;
}

/* Record a message as handled. */
enum store_status
store_mail_seen_add(struct store *s, const struct store_mail_seen *m)
{
	struct db_stmt	*st;

	if (store_fits(s, m->mailbox, sizeof m->mailbox, "mailbox") != 0 ||
	    store_fits(s, m->message_id, sizeof m->message_id,
	    "Message-ID") != 0 ||
	    store_fits(s, m->sender, sizeof m->sender, "sender") != 0 ||
	    store_fits(s, m->outcome, sizeof m->outcome, "outcome") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_MAIL_SEEN_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, m->mailbox);
	db_bind_int64(st, 2, m->uidvalidity);
	db_bind_int64(st, 3, m->uid);
	store_bind_opt_text(st, 4, m->message_id);
	db_bind_text(st, 5, m->sender);
	db_bind_int64(st, 6, m->received);
	db_bind_text(st, 7, m->outcome);
	store_bind_opt_int(st, 8, m->game_id, 0);
	return store_exec_stmt(s, st, "record a mail");
}

/* Read where polling a mailbox got to. */
enum store_status
store_mail_state_get(struct store *s, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_MAIL_STATE_GET)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, mailbox);
	status = store_step_one(s, st, "read the mailbox state", NULL);
	if (status == STORE_OK) {
		*uidvalidity = db_column_int64(st, 0);
		*last_uid = db_column_int64(st, 1);
	}
	store_done(st);
	return status;
}

/* Remember where polling a mailbox got to. */
enum store_status
store_mail_state_set(struct store *s, const char *mailbox,
    int64_t uidvalidity, int64_t last_uid)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_MAIL_STATE_SET)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, mailbox);
	db_bind_int64(st, 2, uidvalidity);
	db_bind_int64(st, 3, last_uid);
	return store_exec_stmt(s, st, "save the mailbox state");
}

/* Queue a message for sending. */
enum store_status
store_outbox_add(struct store *s, struct store_outbox *o)
{
	struct db_stmt	*st;

	if (store_fits(s, o->kind, sizeof o->kind, "mail kind") != 0 ||
	    store_fits(s, o->recipient, sizeof o->recipient, "recipient") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_OUTBOX_INSERT)) == NULL)
		return STORE_ERROR;
	store_bind_opt_int(st, 1, o->game_id, 0);
	db_bind_text(st, 2, o->kind);
	db_bind_text(st, 3, o->recipient);
	db_bind_text(st, 4, o->message);
	db_bind_int64(st, 5, o->created);
	return store_exec_insert(s, st, "queue a mail", &o->id);
}

/* Walk the messages due for sending at `now`, oldest first. */
enum store_status
store_outbox_due(struct store *s, int64_t now, int64_t limit,
    store_outbox_cb cb, void *arg)
{
	struct db_stmt		*st;
	struct store_outbox	 o;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_OUTBOX_DUE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, now);
	db_bind_int64(st, 2, limit > 0 ? limit : INT64_MAX);
	while ((rc = db_step(st)) == DB_ROW) {
		memset(&o, 0, sizeof o);
		o.id = db_column_int64(st, 0);
		o.game_id = store_col_opt_int(st, 1, 0);
		o.created = db_column_int64(st, 5);
		o.attempts = (int)db_column_int64(st, 6);
		o.next_attempt = db_column_int64(st, 7);
		o.message = (char *)db_column_text(st, 4);
		if (store_col_text(st, 2, o.kind, sizeof o.kind) != 0 ||
		    store_col_text(st, 3, o.recipient, sizeof o.recipient) != 0 ||
		    store_col_text(st, 8, o.last_error,
		    sizeof o.last_error) != 0 || o.message == NULL) {
			store_seterr(s, "outbox %lld: bad stored field",
			    (long long)o.id);
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &o) != 0)
			break;
	}
	return store_rows_done(s, st, rc, status, "list due mail");
}

/* Run one outbox update: id, a time, and an optional error text. */
static enum store_status
store_outbox_mark(struct store *s, enum stmt_id id, int64_t mail,
    int64_t at, const char *error)
{
	struct db_stmt	*st;
	char		 msg[STORE_ERROR_TEXT_SIZE];

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, mail);
	db_bind_int64(st, 2, at);
	if (id != ST_OUTBOX_SENT) {
		snprintf(msg, sizeof msg, "%s", error != NULL ? error : "");
		db_bind_text_copy(st, 3, msg);
	}
	return store_exec_stmt(s, st, store_sql[id].name);
}

/* Mark a message sent. */
enum store_status
store_outbox_sent(struct store *s, int64_t id, int64_t at)
{
	return store_outbox_mark(s, ST_OUTBOX_SENT, id, at, NULL);
}

/* Count a failed attempt and set the next one. */
enum store_status
store_outbox_retry(struct store *s, int64_t id, int64_t next_attempt,
    const char *error)
{
	return store_outbox_mark(s, ST_OUTBOX_RETRY, id, next_attempt, error);
}

/* Give a message up (permanent failure). */
enum store_status
store_outbox_failed(struct store *s, int64_t id, int64_t at,
    const char *error)
{
	return store_outbox_mark(s, ST_OUTBOX_FAILED, id, at, error);
}

/* Count the messages of `kind` queued for `recipient` since `since`. */
enum store_status
store_outbox_recent(struct store *s, const char *recipient, const char *kind,
    int64_t since, int64_t *n)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_OUTBOX_RECENT)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, recipient);
	db_bind_text(st, 2, kind);
	db_bind_int64(st, 3, since);
	return store_exec_count(s, st, "count recent mail", n);
}

/* Count the messages of `kind` queued for anyone since `since`. */
enum store_status
store_outbox_recent_all(struct store *s, const char *kind, int64_t since,
    int64_t *n)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_OUTBOX_RECENT_ALL)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, kind);
	db_bind_int64(st, 2, since);
	return store_exec_count(s, st, "count recent mail", n);
}

/* Hold back one answer to a refused mail, and count what is held. */
enum store_status
store_refusal_hold(struct store *s, const char *recipient, int64_t player_id,
    int64_t now, const char *code, const char *reason, int64_t *held,
    int64_t *since, int64_t *summary_at)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_REFUSAL_HOLD)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, recipient);
	db_bind_int64(st, 2, player_id);
	db_bind_int64(st, 3, now);
	db_bind_text(st, 4, code);
	db_bind_text(st, 5, reason);
	status = store_step_one(s, st, "hold an answer", "no row");
	if (status == STORE_OK) {
		*held = db_column_int64(st, 0);
		*since = db_column_int64(st, 1);
		*summary_at = db_column_int64(st, 2);
	}
	store_done(st);
	return status;
}

/* Record that the held refusals were summed up. */
enum store_status
store_refusal_summarised(struct store *s, const char *recipient, int64_t now)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_REFUSAL_SUMMARISED)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, recipient);
	db_bind_int64(st, 2, now);
	return store_exec_stmt(s, st, "record the summary");
}

/* List the players whose held refusals are due for a summary. */
enum store_status
store_refusal_due(struct store *s, int64_t before, int64_t *ids, size_t max,
    size_t *n)
{
	struct db_stmt		*st;
	enum store_status	 status = STORE_OK;
	enum db_rc		 rc;

	*n = 0;
	if ((st = store_stmt(s, ST_REFUSAL_DUE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, before);
	db_bind_int64(st, 2, (int64_t)max);
	while ((rc = db_step(st)) == DB_ROW && *n < max)
		ids[(*n)++] = db_column_int64(st, 0);
	if (rc != DB_ROW && rc != DB_DONE)
		status = store_fail(s, rc, "list the held refusals");
	store_done(st);
	return status;
}

/* Read what is held for a player. */
enum store_status
store_refusal_get(struct store *s, int64_t player_id,
    struct store_refusal *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_REFUSAL_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	status = store_step_one(s, st, "read the held refusals",
	    "nothing held");
	if (status == STORE_OK) {
		snprintf(out->recipient, sizeof out->recipient, "%s",
		    db_column_text(st, 0));
		out->held = db_column_int64(st, 1);
		out->since = db_column_int64(st, 2);
		out->summary_at = db_column_int64(st, 3);
		snprintf(out->last_code, sizeof out->last_code, "%s",
		    db_column_text(st, 4));
		snprintf(out->last_reason, sizeof out->last_reason, "%s",
		    db_column_text(st, 5));
	}
	store_done(st);
	return status;
}

/* Count the messages waiting to be sent. */
enum store_status
store_outbox_pending(struct store *s, int64_t *n)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_OUTBOX_PENDING)) == NULL)
		return STORE_ERROR;
	return store_exec_count(s, st, "count pending mail", n);
}
