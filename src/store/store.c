/*
 * store/store.c: the SQLite connection: open, close, transactions, errors.
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
 * The store on SQLite: the handle (one sqlite3 connection and its cache of
 * prepared statements), opened in WAL mode with the PRAGMAs of
 * store_open_with(), migrated by schema.c; the transaction statements; and
 * the helpers the query files share to run statements, check values,
 * bind them and read columns. Everything SQLite-specific about the
 * connection is here: sqlite3_open_v2() and its flags, the busy timeout,
 * the PRAGMAs (journal_mode, synchronous, foreign_keys), the mapping of
 * SQLite result codes to enum store_status, sqlite3_last_insert_rowid()
 * (store_exec_insert(); PostgreSQL: RETURNING id).
 *
 * Engine-neutral, at the end: the checks of values before they are bound
 * (store_fits(), store_oneof(), store_name_valid()), store_sync_parse(),
 * store_status_name(), store_errmsg().
 */

#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

#define STORE_BUSY_DEFAULT	5000	/* ms */

/* --- errors and statements --------------------------------------------- */

/* Write a message into the handle's error buffer. */
void
store_seterr(struct store *s, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

/* Turn an SQLite result into a status, recording the reason. */
enum store_status
store_fail(struct store *s, int rc, const char *what)
{
	store_seterr(s, "%s: %s", what, sqlite3_errmsg(s->db));
	switch (rc) {
	case SQLITE_CONSTRAINT_UNIQUE:
	case SQLITE_CONSTRAINT_PRIMARYKEY:
		return STORE_EXISTS;
	case SQLITE_CONSTRAINT_FOREIGNKEY:
		return STORE_NOTFOUND;
	default:
		break;
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_BUSY;
	default:
		return STORE_ERROR;
	}
}

/* Return the cached statement `id`, preparing it on first use. */
sqlite3_stmt *
store_stmt(struct store *s, enum stmt_id id)
{
	int	rc;

	if (s->stmt[id] != NULL)
		return s->stmt[id];
	rc = sqlite3_prepare_v3(s->db, store_sql[id].sql, -1,
	    SQLITE_PREPARE_PERSISTENT, &s->stmt[id], NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "prepare %s: %s", store_sql[id].name,
		    sqlite3_errmsg(s->db));
		s->stmt[id] = NULL;
		return NULL;
	}
	return s->stmt[id];
}

/* Reset a statement and drop its bindings for the next use. */
void
store_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Run a statement that returns no rows. */
enum store_status
store_exec_stmt(struct store *s, sqlite3_stmt *st, const char *what)
{
	enum store_status	status = STORE_OK;
	int			rc;

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run an INSERT; on success set *id to the new row's id. */
enum store_status
store_exec_insert(struct store *s, sqlite3_stmt *st, const char *what,
    int64_t *id)
{
	enum store_status	status;

	status = store_exec_stmt(s, st, what);
	if (status == STORE_OK)
		*id = sqlite3_last_insert_rowid(s->db);
	return status;
}

/* Run an UPDATE that must change a row; STORE_NOTFOUND when none. */
enum store_status
store_exec_change(struct store *s, sqlite3_stmt *st, const char *what,
    const char *missing)
{
	enum store_status	status;

	status = store_exec_stmt(s, st, what);
	if (status == STORE_OK && sqlite3_changes(s->db) == 0) {
		store_seterr(s, "%s", missing);
		status = STORE_NOTFOUND;
	}
	return status;
}

/*
 * Step a statement that returns at most one row: STORE_OK with the row to
 * read, or STORE_NOTFOUND (with `missing` as the reason, unless NULL) or
 * the failure. Call store_done() after, in every case.
 */
enum store_status
store_step_one(struct store *s, sqlite3_stmt *st, const char *what,
    const char *missing)
{
	int	rc;

	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return STORE_OK;
	if (rc != SQLITE_DONE)
		return store_fail(s, rc, what);
	if (missing != NULL)
		store_seterr(s, "%s", missing);
	return STORE_NOTFOUND;
}

/*
 * End a walk over a statement's rows: the failure of the step that ended
 * it (rc), unless `status` says the walk failed already; then reset.
 */
enum store_status
store_rows_done(struct store *s, sqlite3_stmt *st, int rc,
    enum store_status status, const char *what)
{
	if (status == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run a statement that returns one integer (a COUNT) into *n. */
enum store_status
store_exec_count(struct store *s, sqlite3_stmt *st, const char *what,
    int64_t *n)
{
	enum store_status	status = STORE_OK;
	int			rc;

	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	else
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run a one-off statement (PRAGMA, DDL) with sqlite3_exec. */
int
store_exec(struct store *s, const char *sql)
{
	char	*msg = NULL;
	int	 rc;

	rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s", msg != NULL ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
	}
	return rc;
}

/* --- binding and reading values ----------------------------------------- */

/* Bind a text, or NULL when it is empty. */
int
store_bind_opt_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text == NULL || *text == '\0')
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

/* Bind an integer, or NULL when it equals `none`. */
int
store_bind_opt_int(sqlite3_stmt *st, int i, int64_t v, int64_t none)
{
	if (v == none)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_int64(st, i, v);
}

/* Copy a text column into a field (NULL reads as ""); -1 if too long. */
int
store_col_text(sqlite3_stmt *st, int col, char *buf, size_t size)
{
	const unsigned char	*text;
	int			 len;

	text = sqlite3_column_text(st, col);
	len = sqlite3_column_bytes(st, col);
	if (text == NULL) {
		buf[0] = '\0';
		return 0;
	}
	if ((size_t)len >= size)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return 0;
}

/* Copy a blob column of exactly `len` bytes; -1 otherwise. */
int
store_col_blob(sqlite3_stmt *st, int col, uint8_t *buf, size_t len)
{
	const void	*blob;

	blob = sqlite3_column_blob(st, col);
	if (blob == NULL || (size_t)sqlite3_column_bytes(st, col) != len)
		return -1;
	memcpy(buf, blob, len);
	return 0;
}

/* Read an integer column, `none` when NULL. */
int64_t
store_col_opt_int(sqlite3_stmt *st, int col, int64_t none)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return none;
	return sqlite3_column_int64(st, col);
}

/* --- the connection ----------------------------------------------------- */

/* Read the one-row answer of a PRAGMA into buf; -1 on error. */
static int
store_pragma(struct store *s, const char *sql, char *buf, size_t size)
{
	sqlite3_stmt	*st = NULL;
	int		 rc, ret = -1;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		store_fail(s, rc, sql);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_col_text(st, 0, buf, size) != 0)
			buf[0] = '\0';
	} else if (rc == SQLITE_DONE)
		buf[0] = '\0';
	else {
		store_fail(s, rc, sql);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* Open with the default options. */
struct store *
store_open(const char *path, char *err, size_t errsize)
{
	return store_open_with(path, NULL, err, errsize);
}

/* Open, configure and migrate a database. */
struct store *
store_open_with(const char *path, const struct store_options *opts,
    char *err, size_t errsize)
{
	struct store_options	 defaults = { STORE_SYNC_FULL, 0, 0 };
	struct store		*s;
	char			 mode[16];
	int			 rc, target;

	if (opts == NULL)
		opts = &defaults;
	target = opts->schema_version > 0 ? opts->schema_version :
	    STORE_SCHEMA_VERSION;
	if (target > STORE_SCHEMA_VERSION) {
		snprintf(err, errsize, "unknown schema version %d", target);
		return NULL;
	}
	if (sqlite3_threadsafe() == 0) {
		snprintf(err, errsize, "SQLite was built without threads");
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}

	/* One handle, one thread at a time: SQLite need not lock it. */
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s", s->db != NULL ? sqlite3_errmsg(s->db) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, opts->busy_timeout_ms > 0 ?
	    opts->busy_timeout_ms : STORE_BUSY_DEFAULT);

	if (store_pragma(s, "PRAGMA journal_mode = WAL", mode,
	    sizeof mode) != 0)
		goto fail;
	if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
		store_seterr(s, "cannot use WAL (journal mode is \"%s\")",
		    mode);
		goto fail;
	}
	if (store_exec(s, opts->sync == STORE_SYNC_NORMAL ?
	    "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL") !=
	    SQLITE_OK ||
	    store_exec(s, "PRAGMA foreign_keys = ON") != SQLITE_OK)
		goto fail;
	if (store_schema_migrate(s, target) != 0)
		goto fail;
	return s;

fail:
	snprintf(err, errsize, "%s: %s", path, s->err);
	store_close(s);
	return NULL;
}

/* Close a handle, rolling back an open transaction. */
void
store_close(struct store *s)
{
	int	i;

	if (s == NULL)
		return;
	if (s->db != NULL && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close_v2(s->db);
	free(s);
}

/* --- transactions ------------------------------------------------------- */

/* Run one of the cached transaction statements. */
static enum store_status
store_txn(struct store *s, enum stmt_id id)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	return store_exec_stmt(s, st, store_sql[id].name);
}

/* Take the write lock and begin a transaction. */
enum store_status
store_begin(struct store *s)
{
	return store_txn(s, ST_BEGIN);
}

/* Commit the transaction. */
enum store_status
store_commit(struct store *s)
{
	return store_txn(s, ST_COMMIT);
}

/* Roll the transaction back. */
enum store_status
store_rollback(struct store *s)
{
	return store_txn(s, ST_ROLLBACK);
}

/* Mark a point inside the transaction that store_rollback_to() returns
 * to. */
enum store_status
store_savepoint(struct store *s)
{
	return store_txn(s, ST_SAVEPOINT);
}

/* Keep what was done since the savepoint. */
enum store_status
store_release(struct store *s)
{
	return store_txn(s, ST_RELEASE);
}

/* Undo what was done since the savepoint, and drop it. */
enum store_status
store_rollback_to(struct store *s)
{
	enum store_status	status;

	if ((status = store_txn(s, ST_ROLLBACK_TO)) != STORE_OK)
		return status;
	return store_txn(s, ST_RELEASE);
}

/* --- engine-neutral ----------------------------------------------------- */

/* Check that a text fits its field; -1 with a reason when not. */
int
store_fits(struct store *s, const char *text, size_t size, const char *field)
{
	if (text == NULL || strnlen(text, size) >= size) {
		store_seterr(s, "%s is too long (at most %zu bytes)", field,
		    size - 1);
		return -1;
	}
	return 0;
}

/* Check that a text is one of a list; -1 with a reason when not. */
int
store_oneof(struct store *s, const char *text, const char *const *list,
    const char *field)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++) {
		if (strcmp(text, list[i]) == 0)
			return 0;
	}
	store_seterr(s, "bad %s \"%.32s\"", field, text);
	return -1;
}

/* Parse "full" or "normal". */
int
store_sync_parse(const char *text, enum store_sync *out)
{
	if (strcmp(text, "full") == 0)
		*out = STORE_SYNC_FULL;
	else if (strcmp(text, "normal") == 0)
		*out = STORE_SYNC_NORMAL;
	else
		return -1;
	return 0;
}

/* Return the name of a status. */
const char *
store_status_name(enum store_status status)
{
	switch (status) {
	case STORE_OK:
		return "ok";
	case STORE_NOTFOUND:
		return "not-found";
	case STORE_EXISTS:
		return "exists";
	case STORE_BUSY:
		return "busy";
	case STORE_ERROR:
		break;
	}
	return "error";
}

/* Check a player name against [a-z0-9_.-]{1,32}. */
bool
store_name_valid(const char *name)
{
	size_t	i;

	for (i = 0; name[i] != '\0'; i++) {
		if (i >= STORE_NAME_SIZE - 1)
			return false;
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') ||
		    name[i] == '_' || name[i] == '.' || name[i] == '-'))
			return false;
	}
	return i > 0;
}

/* Return the message of the last failure. */
const char *
store_errmsg(const struct store *s)
{
	return s->err;
}
