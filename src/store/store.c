/*
 * store/store.c: the store's handle: open, close, transactions, errors.
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
 * The handle: one connection of the statement layer (db.h; the engine,
 * SQLite in db_sqlite.c, opens it in WAL mode with its PRAGMAs) and its
 * cache of prepared statements, migrated by schema.c; the transaction
 * statements; and the helpers the query files share to run statements,
 * check values, bind them and read columns: the mapping of the layer's
 * results to enum store_status, db_last_insert_id() (store_exec_insert();
 * PostgreSQL: RETURNING id).
 *
 * Engine-neutral, at the end: the checks of values before they are bound
 * (store_fits(), store_oneof(), store_name_valid()), store_sync_parse(),
 * store_status_name(), store_errmsg().
 */

#include "config.h"

#include <inttypes.h>
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

/* Turn a failed db_rc into a status, recording the reason. */
enum store_status
store_fail(struct store *s, enum db_rc rc, const char *what)
{
	store_seterr(s, "%s: %s", what, db_errmsg(s->db));
	switch (rc) {
	case DB_UNIQUE:
		return STORE_EXISTS;
	case DB_FOREIGN:
		return STORE_NOTFOUND;
	case DB_BUSY:
		return STORE_BUSY;
	default:
		return STORE_ERROR;
	}
}

/* Return the text of statement `id` for the store's engine. */
const char *
store_sql_text(const struct store *s, enum stmt_id id)
{
	return db_engine(s->db) == DB_POSTGRESQL && store_sql[id].pg != NULL ?
	    store_sql[id].pg : store_sql[id].sql;
}

/* Return the cached statement `id`, preparing it on first use. */
struct db_stmt *
store_stmt(struct store *s, enum stmt_id id)
{
	if (s->stmt[id] != NULL)
		return s->stmt[id];
	s->stmt[id] = db_prepare(s->db, store_sql_text(s, id), true);
	if (s->stmt[id] == NULL) {
		store_seterr(s, "prepare %s: %s", store_sql[id].name,
		    db_errmsg(s->db));
		return NULL;
	}
	return s->stmt[id];
}

/* Reset a statement and drop its bindings for the next use. */
void
store_done(struct db_stmt *st)
{
	db_reset(st);
}

/* Run a statement that returns no rows. */
enum store_status
store_exec_stmt(struct store *s, struct db_stmt *st, const char *what)
{
	enum store_status	status = STORE_OK;
	enum db_rc		rc;

	rc = db_step(st);
	if (rc != DB_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run a write whose answer may come later (store_int.h). */
enum store_status
store_exec_ahead(struct store *s, struct db_stmt *st, const char *what)
{
	enum store_status	status = STORE_OK;
	enum db_rc		rc;

	if (!s->ahead)
		return store_exec_stmt(s, st, what);
	rc = db_step_later(st);
	if (rc != DB_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Send a move's writes ahead, or stop (store.h). */
void
store_send_writes_ahead(struct store *s, bool on)
{
	s->ahead = on && db_engine(s->db) == DB_POSTGRESQL;
}

/* Run an INSERT; on success set *id to the new row's id. */
enum store_status
store_exec_insert(struct store *s, struct db_stmt *st, const char *what,
    int64_t *id)
{
	enum store_status	status;

	status = store_exec_stmt(s, st, what);
	if (status == STORE_OK)
		*id = db_last_insert_id(s->db);
	return status;
}

/* Run an UPDATE that must change a row; STORE_NOTFOUND when none. */
enum store_status
store_exec_change(struct store *s, struct db_stmt *st, const char *what,
    const char *missing)
{
	enum store_status	status;

	status = store_exec_stmt(s, st, what);
	if (status == STORE_OK && db_changes(s->db) == 0) {
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
store_step_one(struct store *s, struct db_stmt *st, const char *what,
    const char *missing)
{
	enum db_rc	rc;

	rc = db_step(st);
	if (rc == DB_ROW)
		return STORE_OK;
	if (rc != DB_DONE)
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
store_rows_done(struct store *s, struct db_stmt *st, enum db_rc rc,
    enum store_status status, const char *what)
{
	if (status == STORE_OK && rc != DB_ROW && rc != DB_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run a statement that returns one integer (a COUNT) into *n. */
enum store_status
store_exec_count(struct store *s, struct db_stmt *st, const char *what,
    int64_t *n)
{
	enum store_status	status = STORE_OK;
	enum db_rc		rc;

	rc = db_step(st);
	if (rc == DB_ROW)
		*n = db_column_int64(st, 0);
	else
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Run a one-off statement (PRAGMA, DDL). */
enum db_rc
store_exec(struct store *s, const char *sql)
{
	enum db_rc	rc;

	if ((rc = db_exec(s->db, sql)) != DB_OK)
		store_seterr(s, "%s", db_errmsg(s->db));
	return rc;
}

/* --- binding and reading values ----------------------------------------- */

/* Bind a text, or NULL when it is empty. */
int
store_bind_opt_text(struct db_stmt *st, int i, const char *text)
{
	if (text == NULL || *text == '\0')
		return db_bind_null(st, i);
	return db_bind_text(st, i, text);
}

/* Bind an integer, or NULL when it equals `none`. */
int
store_bind_opt_int(struct db_stmt *st, int i, int64_t v, int64_t none)
{
	if (v == none)
		return db_bind_null(st, i);
	return db_bind_int64(st, i, v);
}

/* Copy a text column into a field (NULL reads as ""); -1 if too long. */
int
store_col_text(struct db_stmt *st, int col, char *buf, size_t size)
{
	const char	*text;
	int		 len;

	text = db_column_text(st, col);
	len = db_column_bytes(st, col);
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
store_col_blob(struct db_stmt *st, int col, uint8_t *buf, size_t len)
{
	const void	*blob;

	blob = db_column_blob(st, col);
	if (blob == NULL || (size_t)db_column_bytes(st, col) != len)
		return -1;
	memcpy(buf, blob, len);
	return 0;
}

/* Read an integer column, `none` when NULL. */
int64_t
store_col_opt_int(struct db_stmt *st, int col, int64_t none)
{
	if (db_column_is_null(st, col))
		return none;
	return db_column_int64(st, col);
}

/* --- the connection ----------------------------------------------------- */

/* Open with the default options. */
struct store *
store_open(const char *path, char *err, size_t errsize)
{
	return store_open_with(path, NULL, err, errsize);
}

/* Connect to the engine that `path` names, without touching the schema;
 * NULL with a reason in err. */
static struct store *
store_connect(const char *path, const struct store_options *opts,
    char *err, size_t errsize)
{
	struct store	*s;
	const char	*label = path;
	int		 busy;

	if ((s = calloc(1, sizeof *s)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	busy = opts->busy_timeout_ms > 0 ? opts->busy_timeout_ms :
	    STORE_BUSY_DEFAULT;
	if (store_target_is_pg(path)) {
		/* The string may hold a password: never repeat it. */
		label = "PostgreSQL";
		s->db = db_pg_open(strncmp(path, "postgresql:", 11) == 0 &&
		    path[11] != '/' ? path + 11 : path, opts->password_file,
		    opts->sync != STORE_SYNC_NORMAL, busy, s->err,
		    sizeof s->err);
	} else
		s->db = db_sqlite_open(path, opts->sync != STORE_SYNC_NORMAL,
		    busy, s->err, sizeof s->err);
	if (s->db == NULL) {
		snprintf(err, errsize, "%s: %s", label, s->err);
		free(s);
		return NULL;
	}
	return s;
}

/* Open, configure and migrate a database. */
struct store *
store_open_with(const char *path, const struct store_options *opts,
    char *err, size_t errsize)
{
	struct store_options	 defaults = { .sync = STORE_SYNC_FULL };
	struct store		*s;
	int			 target;

	if (opts == NULL)
		opts = &defaults;
	target = opts->schema_version > 0 ? opts->schema_version :
	    STORE_SCHEMA_VERSION;
	if (target > STORE_SCHEMA_VERSION) {
		snprintf(err, errsize, "unknown schema version %d", target);
		return NULL;
	}
	if ((s = store_connect(path, opts, err, errsize)) == NULL)
		return NULL;
	if (store_schema_migrate(s, target) != 0) {
		snprintf(err, errsize, "%s: %s", store_target_is_pg(path) ?
		    "PostgreSQL" : path, s->err);
		store_close(s);
		return NULL;
	}
	return s;
}

/* Connect and read the schema version, changing nothing. */
int
store_peek_version(const char *path, const struct store_options *opts,
    char *err, size_t errsize)
{
	struct store_options	 defaults = { .sync = STORE_SYNC_FULL };
	struct store		*s;
	int			 version;

	if ((s = store_connect(path, opts != NULL ? opts : &defaults, err,
	    errsize)) == NULL)
		return -1;
	version = store_schema_peek(s);
	store_close(s);
	return version;
}

/* Close a handle, rolling back an open transaction. */
void
store_close(struct store *s)
{
	int	i;

	if (s == NULL)
		return;
	for (i = 0; i < ST_COUNT; i++)
		db_finalize(s->stmt[i]);
	db_close(s->db);
	free(s);
}

/* --- transactions ------------------------------------------------------- */

/* Run one of the cached transaction statements. */
static enum store_status
store_txn(struct store *s, enum stmt_id id)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	return store_exec_stmt(s, st, store_sql[id].name);
}

/* Take the write lock and begin a transaction. */
enum store_status
store_begin(struct store *s)
{
	enum store_status	status;

	/* On PostgreSQL, BEGIN may have passed and the lock not. */
	if ((status = store_txn(s, ST_BEGIN)) != STORE_OK &&
	    db_in_txn(s->db))
		db_exec(s->db, "ROLLBACK");
	return status;
}

/* Order game locks' keys (qsort). */
static int
key_cmp(const void *a, const void *b)
{
	int32_t	x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Send ahead the BEGIN, the write lock shared and the games' locks (keys
 * in ascending order), as store_begin_games() with the writes sent ahead:
 * they go with the next statement that waits. `buf` holds the keys'
 * array text.
 */
static enum store_status
begin_ahead(struct store *s, const int32_t *keys, size_t n, char *buf,
    size_t size)
{
	static const enum stmt_id	 ids[] = { ST_BEGIN_AHEAD,
					    ST_LOCK_SHARED, ST_LOCK_GAMES };
	struct db_stmt			*st;
	size_t				 i, used = 1;
	enum db_rc			 rc;

	buf[0] = '{';
	for (i = 0; i < n; i++) {
		if (i > 0 && keys[i] == keys[i - 1])
			continue;
		used += (size_t)snprintf(buf + used, size - used, "%s%" PRId32,
		    used > 1 ? "," : "", keys[i]);
	}
	snprintf(buf + used, size - used, "}");
	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		if (ids[i] == ST_LOCK_GAMES && n == 0)
			break;
		if ((st = store_stmt(s, ids[i])) == NULL)
			return STORE_ERROR;
		if (ids[i] == ST_LOCK_GAMES)
			db_bind_text(st, 1, buf);
		rc = db_step_later(st);
		store_done(st);
		if (rc != DB_DONE && rc != DB_ROW)
			return store_fail(s, rc, "begin");
	}
	return STORE_OK;
}

/* Begin a transaction on some games: the write lock shared, then each
 * game's lock in ascending order of its key. */
enum store_status
store_begin_games(struct store *s, const int64_t *ids, size_t n)
{
	enum store_status	 status = STORE_ERROR;
	int32_t			*keys = NULL;
	size_t			 i, len, used;
	char			*sql = NULL;
	enum db_rc		 rc;

	if (db_engine(s->db) != DB_POSTGRESQL)
		return store_begin(s);
	if (n == 0 && !s->ahead)
		return store_txn(s, ST_BEGIN_SHARED);
	len = strlen(store_sql[ST_BEGIN_SHARED].pg) + n * 64 + 3;
	if ((keys = calloc(n + 1, sizeof *keys)) == NULL ||
	    (sql = malloc(len)) == NULL) {
		store_seterr(s, "begin: out of memory");
		goto out;
	}
	/* A key is the id's low 31 bits: two games sharing one queue
	 * (ids 2^31 apart) costs waiting, never a wrong answer. */
	for (i = 0; i < n; i++)
		keys[i] = (int32_t)(ids[i] & 0x7fffffff);
	qsort(keys, n, sizeof *keys, key_cmp);
	if (s->ahead) {
		status = begin_ahead(s, keys, n, sql, len);
		goto out;
	}
	used = (size_t)snprintf(sql, len, "%s", store_sql[ST_BEGIN_SHARED].pg);
	for (i = 0; i < n; i++) {
		if (i > 0 && keys[i] == keys[i - 1])
			continue;
		used += (size_t)snprintf(sql + used, len - used,
		    "; SELECT pg_advisory_xact_lock(%d, %" PRId32 ")",
		    STORE_PG_GAME_LOCK, keys[i]);
	}
	/* One round trip; the statements run in order. */
	if ((rc = db_exec(s->db, sql)) != DB_OK) {
		status = store_fail(s, rc, "begin");
		if (db_in_txn(s->db))
			db_exec(s->db, "ROLLBACK");
		goto out;
	}
	status = STORE_OK;
 out:
	free(sql);
	free(keys);
	return status;
}

/* Take the results lock inside a transaction (PostgreSQL). */
enum store_status
store_lock_results(struct store *s)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if (db_engine(s->db) != DB_POSTGRESQL)
		return STORE_OK;
	if ((st = store_stmt(s, ST_LOCK_RESULTS)) == NULL)
		return STORE_ERROR;
	status = store_step_one(s, st, "wait for the results", "no answer");
	store_done(st);
	return status;
}

/* Send a notice to the listeners at the commit (PostgreSQL). */
enum store_status
store_notify(struct store *s, const char *text)
{
	struct db_stmt		*st;
	enum store_status	 status;
	enum db_rc		 rc;

	if (db_engine(s->db) != DB_POSTGRESQL)
		return STORE_OK;
	if (strlen(text) > STORE_NOTIFY_MAX) {
		store_seterr(s, "notify: %zu bytes, more than %d",
		    strlen(text), STORE_NOTIFY_MAX);
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_NOTIFY)) == NULL)
		return STORE_ERROR;
	db_bind_text(st, 1, text);
	/* Its answer is not read: it goes with the COMMIT (db_pg.c). */
	rc = db_step(st);
	status = rc == DB_ROW || rc == DB_DONE ? STORE_OK :
	    store_fail(s, rc, "notify");
	store_done(st);
	return status;
}

/* Listen to the schema's notices (PostgreSQL). */
enum store_status
store_listen(struct store *s)
{
	struct db_stmt		*st;
	enum store_status	 status;
	char			 schema[128], sql[160];
	const char		*p;
	enum db_rc		 rc;

	if (db_engine(s->db) != DB_POSTGRESQL) {
		store_seterr(s, "listen: SQLite has no other servers to hear");
		return STORE_ERROR;
	}
	if ((st = db_prepare(s->db, "SELECT current_schema()", false)) ==
	    NULL) {
		store_seterr(s, "listen: %s", db_errmsg(s->db));
		return STORE_ERROR;
	}
	status = store_step_one(s, st, "listen", "no schema");
	if (status == STORE_OK)
		store_col_text(st, 0, schema, sizeof schema);
	db_finalize(st);
	if (status != STORE_OK)
		return STORE_ERROR;
	/* The channel is a quoted identifier. */
	for (p = schema; *p != '\0'; p++)
		if (*p == '"') {
			store_seterr(s, "listen: the schema's name holds a "
			    "quote");
			return STORE_ERROR;
		}
	snprintf(sql, sizeof sql, "LISTEN \"corrchess.%s\"", schema);
	if ((rc = db_exec(s->db, sql)) != DB_OK)
		return store_fail(s, rc, "listen");
	/* Named in pg_stat_activity, for whoever looks for it. */
	if ((rc = db_exec(s->db, "SET application_name = "
	    "'corrchessd listener'")) != DB_OK)
		return store_fail(s, rc, "listen");
	return STORE_OK;
}

/* Wait for one notice. */
int
store_listen_wait(struct store *s, int timeout_ms, char *buf, size_t size)
{
	int	rc;

	if ((rc = db_notify_wait(s->db, timeout_ms, buf, size)) < 0)
		store_seterr(s, "listen: %s", db_errmsg(s->db));
	return rc;
}

/* Commit the transaction. */
enum store_status
store_commit(struct store *s)
{
	/* PostgreSQL would only warn. */
	if (!db_in_txn(s->db)) {
		store_seterr(s, "commit: no transaction is open");
		return STORE_ERROR;
	}
	return store_txn(s, ST_COMMIT);
}

/*
 * Roll the transaction back; nothing to do when the engine already did
 * (SQLite does on a full disk), and the failure's message is kept.
 */
enum store_status
store_rollback(struct store *s)
{
	if (!db_in_txn(s->db))
		return STORE_OK;
	return store_txn(s, ST_ROLLBACK);
}

/* Tell whether a transaction is open. */
bool
store_in_transaction(struct store *s)
{
	return db_in_txn(s->db);
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

/* Try to take, or check, the lead of a role. */
enum store_status
store_lead(struct store *s, int role, bool *held)
{
	struct db_stmt		*st;
	enum store_status	 status;

	*held = false;
	if ((st = store_stmt(s, ST_LEAD)) == NULL)
		return STORE_ERROR;
	db_bind_int(st, 1, role);
	status = store_step_one(s, st, "take the lead", "no answer");
	if (status == STORE_OK)
		*held = db_column_int(st, 0) != 0;
	store_done(st);
	return status == STORE_NOTFOUND ? STORE_ERROR : status;
}

/* --- engines ------------------------------------------------------------ */

/* Return whether a path names a PostgreSQL database. */
bool
store_target_is_pg(const char *path)
{
	return strncmp(path, "postgresql:", 11) == 0 ||
	    strncmp(path, "postgres://", 11) == 0;
}

/* Write the path of store_open() for an engine's settings. */
int
store_target(const char *engine, const char *where, char *buf, size_t size)
{
	int	n;

	if (strcmp(engine, "sqlite") == 0)
		n = snprintf(buf, size, "%s", where);
	else if (strcmp(engine, "postgresql") == 0) {
#ifndef HAVE_POSTGRESQL
		return -1;
#endif
		n = snprintf(buf, size, "%s%s", store_target_is_pg(where) ?
		    "" : "postgresql:", where);
	} else
		return -1;
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

/* Return the name of the handle's engine. */
const char *
store_engine_name(const struct store *s)
{
	return db_engine(s->db) == DB_POSTGRESQL ? "postgresql" : "sqlite";
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
