/*
 * store/db.c: the statement layer: each call passed to its engine.
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

#include "store/db.h"

#ifndef HAVE_POSTGRESQL
/* Say that this build has no PostgreSQL engine. */
struct db *
db_pg_open(const char *conninfo, const char *password_file, bool sync_full,
    int busy_ms, char *err, size_t errsize)
{
	(void)conninfo;
	(void)password_file;
	(void)sync_full;
	(void)busy_ms;
	snprintf(err, errsize, "this corrchess was built without PostgreSQL "
	    "(configure --with-postgresql, with libpq-dev installed)");
	return NULL;
}
#endif

/* Close a connection (NULL is fine). */
void
db_close(struct db *db)
{
	if (db != NULL)
		db->ops->close(db);
}

/* Return the connection's engine. */
enum db_engine
db_engine(const struct db *db)
{
	return db->ops->engine;
}

/* Run one-off SQL. */
enum db_rc
db_exec(struct db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

/* Return the message of the last failure. */
const char *
db_errmsg(struct db *db)
{
	return db->ops->errmsg(db);
}

/* Return whether a transaction is open. */
bool
db_in_txn(struct db *db)
{
	return db->ops->in_txn(db);
}

/* Return the rows the last change touched. */
int64_t
db_changes(struct db *db)
{
	return db->ops->changes(db);
}

/* Return the id of the last row added. */
int64_t
db_last_insert_id(struct db *db)
{
	return db->ops->last_insert_id(db);
}

/* Copy the database into a file. */
int
db_backup(struct db *db, const char *path, char *err, size_t errsize)
{
	return db->ops->backup(db, path, err, errsize);
}

/* Wait for a notification. */
int
db_notify_wait(struct db *db, int timeout_ms, char *buf, size_t size)
{
	if (db->ops->notify_wait == NULL)
		return -1;
	return db->ops->notify_wait(db, timeout_ms, buf, size);
}

/* Report a statement's plan. */
enum db_rc
db_explain(struct db *db, const char *sql,
    void (*cb)(void *, const char *, bool), void *arg)
{
	return db->ops->explain(db, sql, cb, arg);
}

/* Prepare one statement. */
struct db_stmt *
db_prepare(struct db *db, const char *sql, bool keep)
{
	return db->ops->prepare(db, sql, keep);
}

/* Free a statement (NULL is fine). */
void
db_finalize(struct db_stmt *st)
{
	if (st != NULL)
		st->db->ops->finalize(st);
}

/* Run a statement to its next row. */
enum db_rc
db_step(struct db_stmt *st)
{
	return st->db->ops->step(st);
}

/* Run a statement whose answer may come later (db.h). */
enum db_rc
db_step_later(struct db_stmt *st)
{
	if (st->db->ops->step_later == NULL)
		return st->db->ops->step(st);
	return st->db->ops->step_later(st);
}

/* Reset a statement and drop its bindings. */
void
db_reset(struct db_stmt *st)
{
	st->db->ops->reset(st);
}

/* Bind an int. */
enum db_rc
db_bind_int(struct db_stmt *st, int i, int v)
{
	return st->db->ops->bind_int64(st, i, v);
}

/* Bind a 64-bit integer. */
enum db_rc
db_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	return st->db->ops->bind_int64(st, i, v);
}

/* Bind a double. */
enum db_rc
db_bind_double(struct db_stmt *st, int i, double v)
{
	return st->db->ops->bind_double(st, i, v);
}

/* Bind NULL. */
enum db_rc
db_bind_null(struct db_stmt *st, int i)
{
	return st->db->ops->bind_null(st, i);
}

/* Bind a borrowed text. */
enum db_rc
db_bind_text(struct db_stmt *st, int i, const char *text)
{
	return st->db->ops->bind_text(st, i, text, false);
}

/* Bind a copied text. */
enum db_rc
db_bind_text_copy(struct db_stmt *st, int i, const char *text)
{
	return st->db->ops->bind_text(st, i, text, true);
}

/* Bind borrowed bytes. */
enum db_rc
db_bind_blob(struct db_stmt *st, int i, const void *p, size_t len)
{
	return st->db->ops->bind_blob(st, i, p, len);
}

/* Read an int column. */
int
db_column_int(struct db_stmt *st, int col)
{
	return (int)st->db->ops->column_int64(st, col);
}

/* Read a 64-bit integer column. */
int64_t
db_column_int64(struct db_stmt *st, int col)
{
	return st->db->ops->column_int64(st, col);
}

/* Read a double column. */
double
db_column_double(struct db_stmt *st, int col)
{
	return st->db->ops->column_double(st, col);
}

/* Read a text column. */
const char *
db_column_text(struct db_stmt *st, int col)
{
	return st->db->ops->column_text(st, col);
}

/* Read a blob column. */
const void *
db_column_blob(struct db_stmt *st, int col)
{
	return st->db->ops->column_blob(st, col);
}

/* Return a column's length in bytes. */
int
db_column_bytes(struct db_stmt *st, int col)
{
	return st->db->ops->column_bytes(st, col);
}

/* Return whether a column is NULL. */
bool
db_column_is_null(struct db_stmt *st, int col)
{
	return st->db->ops->column_is_null(st, col);
}
