/*
 * store/self.c: players' own settings, statements and address changes.
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

#include "store/store_int.h"

static const char *const self_sources[] = { "http", "mail", NULL };

/* Load a player's settings, or the defaults. */
enum store_status
store_settings_get(struct store *s, int64_t player_id,
    struct store_settings *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	out->player_id = player_id;
	out->move_mail = true;
	snprintf(out->reminders, sizeof out->reminders, "on");
	out->digest_hour = -1;
	if ((st = store_stmt(s, ST_SETTINGS_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	status = store_step_one(s, st, "get the player's settings", NULL);
	if (status == STORE_OK) {
		out->move_mail = db_column_int(st, 0) != 0;
		out->digest_hour = db_column_int(st, 2);
		if (store_col_text(st, 1, out->reminders,
		    sizeof out->reminders) != 0) {
			store_seterr(s, "player %lld: stored reminders too long",
			    (long long)player_id);
			status = STORE_ERROR;
		}
	} else if (status == STORE_NOTFOUND)
		status = STORE_OK;
	store_done(st);
	return status;
}

/* Store a player's settings. */
enum store_status
store_settings_set(struct store *s, const struct store_settings *p)
{
	struct db_stmt	*st;

	if (store_fits(s, p->reminders, sizeof p->reminders, "reminders") !=
	    0)
		return STORE_ERROR;
	if (p->digest_hour < -1 || p->digest_hour > 23) {
		store_seterr(s, "digest hour %d out of range", p->digest_hour);
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_SETTINGS_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, p->player_id);
	db_bind_int(st, 2, p->move_mail ? 1 : 0);
	db_bind_text(st, 3, p->reminders);
	db_bind_int(st, 4, p->digest_hour);
	return store_exec_stmt(s, st, "store the player's settings");
}

/* Walk the players' own reminder thresholds. */
enum store_status
store_settings_reminders(struct store *s, store_reminders_cb cb, void *arg)
{
	struct db_stmt		*st;
	enum store_status	 status = STORE_OK;
	char			 r[STORE_REMINDERS_SIZE];
	int			 rc;

	if ((st = store_stmt(s, ST_SETTINGS_REMINDERS)) == NULL)
		return STORE_ERROR;
	while ((rc = db_step(st)) == DB_ROW) {
		if (store_col_text(st, 0, r, sizeof r) != 0)
			continue;
		if (cb(arg, r) != 0) {
			store_seterr(s, "listing the reminders stopped");
			status = STORE_ERROR;
			break;
		}
	}
	return store_rows_done(s, st, rc, status, "list the reminders");
}

/* Count a player's own statements. */
enum store_status
store_self_count(struct store *s, int64_t player_id, int64_t *n)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_SELF_COUNT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	return store_exec_count(s, st, "count the player's statements", n);
}

/* Record one of a player's own statements. */
enum store_status
store_self_add(struct store *s, const struct store_self_record *r)
{
	struct db_stmt		*st;
	enum store_status	 status;
	int64_t			 id;

	if (store_oneof(s, r->source, self_sources, "source") != 0)
		return STORE_ERROR;
	if (r->statement == NULL || r->signature == NULL) {
		store_seterr(s, "a player's statement without its signature");
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_SELF_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, r->player_id);
	db_bind_int64(st, 2, r->seq);
	db_bind_text(st, 3, r->kind);
	db_bind_text(st, 4, r->statement);
	db_bind_text(st, 5, r->signature);
	store_bind_opt_int(st, 6, r->key_id, 0);
	db_bind_text(st, 7, r->source);
	db_bind_int64(st, 8, r->created);
	status = store_exec_insert(s, st, "record the player's statement",
	    &id);
	if (status == STORE_EXISTS)
		store_seterr(s, "player %lld has a statement %lld already",
		    (long long)r->player_id, (long long)r->seq);
	return status;
}

/* Replace the player's waiting address change. */
enum store_status
store_email_change_set(struct store *s, const struct store_email_change *c)
{
	struct db_stmt	*st;

	if (store_fits(s, c->email, sizeof c->email, "email") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_EMAIL_CHANGE_SET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, c->player_id);
	db_bind_text(st, 2, c->email);
	db_bind_blob(st, 3, c->code_hash, STORE_CODE_HASH_LEN);
	db_bind_int64(st, 4, c->created);
	db_bind_int64(st, 5, c->expires);
	return store_exec_stmt(s, st, "record the address change");
}

/* Load the player's waiting address change. */
enum store_status
store_email_change_get(struct store *s, int64_t player_id,
    struct store_email_change *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_EMAIL_CHANGE_GET)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	status = store_step_one(s, st, "get the address change", NULL);
	if (status == STORE_OK) {
		out->player_id = player_id;
		out->created = db_column_int64(st, 2);
		out->expires = db_column_int64(st, 3);
		if (store_col_text(st, 0, out->email, sizeof out->email) !=
		    0 || store_col_blob(st, 1, out->code_hash,
		    sizeof out->code_hash) != 0) {
			store_seterr(s, "player %lld: bad address change",
			    (long long)player_id);
			status = STORE_ERROR;
		}
	}
	store_done(st);
	return status;
}

/* Drop the player's waiting address change. */
enum store_status
store_email_change_clear(struct store *s, int64_t player_id)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_EMAIL_CHANGE_CLEAR)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, player_id);
	return store_exec_stmt(s, st, "drop the address change");
}
