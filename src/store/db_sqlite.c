/*
 * store/db_sqlite.c: the SQLite engine of the statement layer.
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
 * The only file of corrchess that calls sqlite3_*: the connection (WAL,
 * the synchronous and foreign_keys PRAGMAs, the busy timeout), SQLite's
 * result codes turned into enum db_rc, the online backup, and statements
 * passed through one for one.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store/db.h"

struct db_sqlite {
	struct db	 base;
	sqlite3		*db;
};

struct db_sqlite_stmt {
	struct db_stmt	 base;
	sqlite3_stmt	*st;
};

/* Return the SQLite handle of a connection. */
static sqlite3 *
sq_db(struct db *db)
{
	return ((struct db_sqlite *)db)->db;
}

/* Return the SQLite statement of a statement. */
static sqlite3_stmt *
sq_st(struct db_stmt *st)
{
	return ((struct db_sqlite_stmt *)st)->st;
}

/* Turn an SQLite result code into the layer's. */
static enum db_rc
sq_rc(int rc)
{
	switch (rc) {
	case SQLITE_OK:
		return DB_OK;
	case SQLITE_ROW:
		return DB_ROW;
	case SQLITE_DONE:
		return DB_DONE;
	case SQLITE_CONSTRAINT_UNIQUE:
	case SQLITE_CONSTRAINT_PRIMARYKEY:
		return DB_UNIQUE;
	case SQLITE_CONSTRAINT_FOREIGNKEY:
		return DB_FOREIGN;
	default:
		break;
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return DB_BUSY;
	default:
		return DB_ERROR;
	}
}

/* Close a connection, rolling back an open transaction. */
static void
sq_close(struct db *db)
{
	sqlite3	*h = sq_db(db);

	if (h != NULL && !sqlite3_get_autocommit(h))
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	/* Statements not yet finalised are, by close_v2, when they are. */
	sqlite3_close_v2(h);
	free(db);
}

/* Run one-off SQL with sqlite3_exec. */
static enum db_rc
sq_exec(struct db *db, const char *sql)
{
	return sq_rc(sqlite3_exec(sq_db(db), sql, NULL, NULL, NULL));
}

/* Return the message of the last failure. */
static const char *
sq_errmsg(struct db *db)
{
	return sqlite3_errmsg(sq_db(db));
}

/* Return whether a transaction is open. */
static bool
sq_in_txn(struct db *db)
{
	return !sqlite3_get_autocommit(sq_db(db));
}

/* Return the rows changed by the last statement. */
static int64_t
sq_changes(struct db *db)
{
	return sqlite3_changes(sq_db(db));
}

/* Return the rowid of the last row inserted. */
static int64_t
sq_last_insert_id(struct db *db)
{
	return sqlite3_last_insert_rowid(sq_db(db));
}

/* Copy the database into a new file with the online backup API. */
static int
sq_backup(struct db *db, const char *path, char *err, size_t errsize)
{
	sqlite3		*dst = NULL;
	sqlite3_backup	*b;
	int		 rc, ret = -1;

	rc = sqlite3_open_v2(path, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errsize, "%s: %s", path, dst != NULL ?
		    sqlite3_errmsg(dst) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);

	/* One step copies every page under one read transaction. */
	if ((b = sqlite3_backup_init(dst, "main", sq_db(db), "main")) ==
	    NULL) {
		snprintf(err, errsize, "backup: %s", sqlite3_errmsg(dst));
		goto out;
	}
	do {
		rc = sqlite3_backup_step(b, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		snprintf(err, errsize, "backup: %s", sqlite3_errstr(rc));
		goto out;
	}
	rc = sqlite3_close(dst);
	dst = NULL;
	if (rc != SQLITE_OK) {
		snprintf(err, errsize, "backup: close: %s",
		    sqlite3_errstr(rc));
		goto out;
	}
	ret = 0;
out:
	if (dst != NULL)
		sqlite3_close(dst);
	return ret;
}

/* Prepare a statement. */
static struct db_stmt *
sq_prepare(struct db *db, const char *sql, bool keep)
{
	struct db_sqlite_stmt	*st;

	if ((st = calloc(1, sizeof *st)) == NULL)
		return NULL;
	st->base.db = db;
	if (sqlite3_prepare_v3(sq_db(db), sql, -1,
	    keep ? SQLITE_PREPARE_PERSISTENT : 0, &st->st, NULL) !=
	    SQLITE_OK || st->st == NULL) {
		sqlite3_finalize(st->st);
		free(st);
		return NULL;
	}
	return &st->base;
}

/* Free a statement. */
static void
sq_finalize(struct db_stmt *st)
{
	sqlite3_finalize(sq_st(st));
	free(st);
}

/* Step a statement. */
static enum db_rc
sq_step(struct db_stmt *st)
{
	return sq_rc(sqlite3_step(sq_st(st)));
}

/* Reset a statement and clear its bindings. */
static void
sq_reset(struct db_stmt *st)
{
	sqlite3_reset(sq_st(st));
	sqlite3_clear_bindings(sq_st(st));
}

/* Bind an integer. */
static enum db_rc
sq_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	return sq_rc(sqlite3_bind_int64(sq_st(st), i, v));
}

/* Bind a double. */
static enum db_rc
sq_bind_double(struct db_stmt *st, int i, double v)
{
	return sq_rc(sqlite3_bind_double(sq_st(st), i, v));
}

/* Bind NULL. */
static enum db_rc
sq_bind_null(struct db_stmt *st, int i)
{
	return sq_rc(sqlite3_bind_null(sq_st(st), i));
}

/* Bind a text, borrowed or copied. */
static enum db_rc
sq_bind_text(struct db_stmt *st, int i, const char *text, bool copy)
{
	return sq_rc(sqlite3_bind_text(sq_st(st), i, text, -1,
	    copy ? SQLITE_TRANSIENT : SQLITE_STATIC));
}

/* Bind borrowed bytes. */
static enum db_rc
sq_bind_blob(struct db_stmt *st, int i, const void *p, size_t len)
{
	return sq_rc(sqlite3_bind_blob(sq_st(st), i, p, (int)len,
	    SQLITE_STATIC));
}

/* Read an integer column. */
static int64_t
sq_column_int64(struct db_stmt *st, int col)
{
	return sqlite3_column_int64(sq_st(st), col);
}

/* Read a double column. */
static double
sq_column_double(struct db_stmt *st, int col)
{
	return sqlite3_column_double(sq_st(st), col);
}

/* Read a text column. */
static const char *
sq_column_text(struct db_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(sq_st(st), col);
}

/* Read a blob column. */
static const void *
sq_column_blob(struct db_stmt *st, int col)
{
	return sqlite3_column_blob(sq_st(st), col);
}

/* Return a column's length. */
static int
sq_column_bytes(struct db_stmt *st, int col)
{
	return sqlite3_column_bytes(sq_st(st), col);
}

/* Return whether a column is NULL. */
static bool
sq_column_is_null(struct db_stmt *st, int col)
{
	return sqlite3_column_type(sq_st(st), col) == SQLITE_NULL;
}

/* Report EXPLAIN QUERY PLAN's lines (id, parent, unused, detail). */
static enum db_rc
sq_explain(struct db *db, const char *sql,
    void (*cb)(void *, const char *, bool), void *arg)
{
	sqlite3_stmt	*st;
	const char	*line;
	char		*q;
	int		 rc;

	if ((q = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sql)) == NULL)
		return DB_ERROR;
	rc = sqlite3_prepare_v2(sq_db(db), q, -1, &st, NULL);
	sqlite3_free(q);
	if (rc != SQLITE_OK)
		return sq_rc(rc);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((line = (const char *)sqlite3_column_text(st, 3)) == NULL)
			continue;
		cb(arg, line, strncmp(line, "SCAN ", 5) == 0 &&
		    strstr(line, " VIRTUAL TABLE ") == NULL);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? DB_OK : sq_rc(rc);
}

static const struct db_ops db_sqlite_ops = {
	.engine = DB_SQLITE,
	.close = sq_close,
	.exec = sq_exec,
	.errmsg = sq_errmsg,
	.in_txn = sq_in_txn,
	.changes = sq_changes,
	.last_insert_id = sq_last_insert_id,
	.backup = sq_backup,
	.explain = sq_explain,
	.prepare = sq_prepare,
	.finalize = sq_finalize,
	.step = sq_step,
	.reset = sq_reset,
	.bind_int64 = sq_bind_int64,
	.bind_double = sq_bind_double,
	.bind_null = sq_bind_null,
	.bind_text = sq_bind_text,
	.bind_blob = sq_bind_blob,
	.column_int64 = sq_column_int64,
	.column_double = sq_column_double,
	.column_text = sq_column_text,
	.column_blob = sq_column_blob,
	.column_bytes = sq_column_bytes,
	.column_is_null = sq_column_is_null,
};

/* Read the one-row answer of a PRAGMA into buf; -1 on error. */
static int
sq_pragma(sqlite3 *h, const char *sql, char *buf, size_t size)
{
	sqlite3_stmt		*st = NULL;
	const unsigned char	*t;
	int			 rc, ret = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		snprintf(buf, size, "%s", t != NULL ? (const char *)t : "");
	} else if (rc == SQLITE_DONE)
		buf[0] = '\0';
	else
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* Open and configure an SQLite database. */
struct db *
db_sqlite_open(const char *path, bool sync_full, int busy_ms, char *err,
    size_t errsize)
{
	struct db_sqlite	*d;
	char			 mode[16];
	int			 rc;

	if (sqlite3_threadsafe() == 0) {
		snprintf(err, errsize, "SQLite was built without threads");
		return NULL;
	}
	if ((d = calloc(1, sizeof *d)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	d->base.ops = &db_sqlite_ops;

	/* One handle, one thread at a time: SQLite need not lock it. */
	rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errsize, "%s", d->db != NULL ?
		    sqlite3_errmsg(d->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(d->db, 1);
	sqlite3_busy_timeout(d->db, busy_ms);

	if (sq_pragma(d->db, "PRAGMA journal_mode = WAL", mode,
	    sizeof mode) != 0) {
		snprintf(err, errsize, "PRAGMA journal_mode = WAL: %s",
		    sqlite3_errmsg(d->db));
		goto fail;
	}
	if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
		snprintf(err, errsize, "cannot use WAL (journal mode is "
		    "\"%s\")", mode);
		goto fail;
	}
	if (sqlite3_exec(d->db, sync_full ? "PRAGMA synchronous = FULL" :
	    "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(d->db, "PRAGMA foreign_keys = ON", NULL, NULL,
	    NULL) != SQLITE_OK) {
		snprintf(err, errsize, "%s", sqlite3_errmsg(d->db));
		goto fail;
	}
	return &d->base;

fail:
	sq_close(&d->base);
	return NULL;
}
