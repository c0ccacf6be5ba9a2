/*
 * store/db.h: the statement layer: one connection, its statements, their
 * values; the engines behind it.
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
 * The query files of src/store talk to the database only through these
 * calls; only an engine's own file (db_sqlite.c, db_pg.c) names its
 * library. The
 * calls follow SQLite's shape, one for one: prepare, bind by position
 * (from 1), step to DB_ROW or DB_DONE, read columns (from 0), reset.
 *
 *   sqlite3_stmt                 struct db_stmt
 *   sqlite3_bind_int(st, i, v)   db_bind_int(st, i, v)  (int64, double,
 *                                null alike)
 *   sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC)
 *                                db_bind_text(st, i, t)
 *   ... SQLITE_TRANSIENT)        db_bind_text_copy(st, i, t)
 *   sqlite3_bind_blob(st, i, p, n, SQLITE_STATIC)
 *                                db_bind_blob(st, i, p, n)
 *   sqlite3_step(st)             db_step(st); SQLITE_ROW, SQLITE_DONE,
 *                                SQLITE_OK -> DB_ROW, DB_DONE, DB_OK
 *   sqlite3_column_int(st, c)    db_column_int(st, c)  (int64, double,
 *                                text, blob, bytes alike)
 *   sqlite3_column_type(...) == SQLITE_NULL
 *                                db_column_is_null(st, c)
 *   sqlite3_changes(s->db)       db_changes(s->db)
 *   sqlite3_last_insert_rowid()  db_last_insert_id(s->db)
 *   sqlite3_errmsg(s->db)        db_errmsg(s->db)
 *   sqlite3_get_autocommit()     !db_in_txn(s->db)
 *
 * Ownership. A statement belongs to its connection and is finalised by
 * db_finalize() or db_close(). Bound texts and blobs are borrowed (not
 * copied, db_bind_text_copy() aside) until the next db_reset(): keep them
 * alive until then. Column texts and blobs are valid until the next step
 * or reset of their statement.
 */

#ifndef CORRCHESS_STORE_DB_H
#define CORRCHESS_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Results of db_step(), db_exec() and the binds. */
enum db_rc {
	DB_OK = 0,
	DB_ROW,		/* a row to read */
	DB_DONE,	/* no (more) rows */
	DB_ERROR,	/* anything else: db_errmsg() says what */
	DB_BUSY,	/* locked by another connection beyond the timeout */
	DB_UNIQUE,	/* a UNIQUE or PRIMARY KEY constraint */
	DB_FOREIGN,	/* a FOREIGN KEY constraint */
};

enum db_engine {
	DB_SQLITE = 0,
	DB_POSTGRESQL,
};

struct db;
struct db_stmt;

/* --- the connection ---------------------------------------------------- */

/*
 * Open an SQLite database file (created if missing) in WAL mode, with
 * synchronous FULL (or NORMAL), foreign keys on and a busy timeout in ms.
 * NULL with a reason in err on failure.
 */
struct db	*db_sqlite_open(const char *path, bool sync_full, int busy_ms,
		    char *err, size_t errsize);
/*
 * Connect to PostgreSQL: `conninfo` is a libpq connection string
 * ("host=... dbname=..." or a postgresql:// URI), `password_file` (or
 * NULL) a file in libpq's password file format. The session commits
 * durably (synchronous_commit on; off when !sync_full) and waits for a
 * lock at most busy_ms. NULL with a reason in err on failure, or when
 * corrchess was built without PostgreSQL.
 */
struct db	*db_pg_open(const char *conninfo, const char *password_file,
		    bool sync_full, int busy_ms, char *err, size_t errsize);
/* Close a connection (NULL is fine), rolling back an open transaction and
 * finalising its statements. */
void		 db_close(struct db *);
/* Return the connection's engine. */
enum db_engine	 db_engine(const struct db *);
/* Run one-off SQL, several statements separated by ';' (DDL, PRAGMA). */
enum db_rc	 db_exec(struct db *, const char *sql);
/* Return the message of the connection's last failure. */
const char	*db_errmsg(struct db *);
/* Return whether a transaction is open. */
bool		 db_in_txn(struct db *);
/* Return the rows changed by the last INSERT, UPDATE or DELETE. */
int64_t		 db_changes(struct db *);
/* Return the id of the row the last INSERT added. */
int64_t		 db_last_insert_id(struct db *);
/*
 * Copy the whole database into a new file at `path` under one read
 * transaction and make it durable. -1 with a reason in err (also when the
 * engine keeps its own backups).
 */
int		 db_backup(struct db *, const char *path, char *err,
		    size_t errsize);
/*
 * Wait up to timeout_ms for a notification on a channel the connection
 * LISTENs to: 1 with its payload in buf (cut to size), 0 when none came,
 * -1 when the connection failed or the engine has none (SQLite).
 */
int		 db_notify_wait(struct db *, int timeout_ms, char *buf,
		    size_t size);

/*
 * Report the plan the engine runs `sql` by, one line at a time, to cb
 * with whether that line walks a whole table or index (a cost that grows
 * with it): on SQLite EXPLAIN QUERY PLAN's lines, "SCAN t" a walk (a
 * virtual table such as json_each walks the statement's own parameter);
 * on PostgreSQL EXPLAIN's lines of the generic plan of the prepared
 * statement (the plan it reuses), with sequential scans priced out, so
 * that a "Seq Scan" or an index scan without an "Index Cond" is a walk
 * no index spares. A statement with no plan (BEGIN, SET and the like)
 * reports nothing. DB_OK or the failure.
 */
enum db_rc	 db_explain(struct db *, const char *sql,
		    void (*cb)(void *arg, const char *line, bool walk),
		    void *arg);

/* --- statements -------------------------------------------------------- */

/*
 * Prepare one statement; `keep` says it will be reused many times. NULL
 * on failure (db_errmsg() says why).
 */
struct db_stmt	*db_prepare(struct db *, const char *sql, bool keep);
/* Free a statement; NULL is fine. */
void		 db_finalize(struct db_stmt *);
/* Run a statement to its next row: DB_ROW, DB_DONE or a failure. */
enum db_rc	 db_step(struct db_stmt *);
/*
 * Run a statement whose rows and changes no caller reads (an INSERT or
 * UPDATE that cannot miss its row): DB_DONE or a failure. Inside a
 * transaction on PostgreSQL it is only sent, and goes with the next
 * statement that waits for its answer: a failure is then that statement's
 * (at the latest the COMMIT's), and the whole transaction is undone
 * (db_in_txn() false). SQLite runs it at once, as db_step().
 */
enum db_rc	 db_step_later(struct db_stmt *);
/* Reset a statement to run again and drop its bindings. */
void		 db_reset(struct db_stmt *);

enum db_rc	 db_bind_int(struct db_stmt *, int i, int v);
enum db_rc	 db_bind_int64(struct db_stmt *, int i, int64_t v);
enum db_rc	 db_bind_double(struct db_stmt *, int i, double v);
enum db_rc	 db_bind_null(struct db_stmt *, int i);
/* Bind a NUL-ended text, borrowed until the next reset. */
enum db_rc	 db_bind_text(struct db_stmt *, int i, const char *text);
/* Bind a NUL-ended text, copied at once. */
enum db_rc	 db_bind_text_copy(struct db_stmt *, int i, const char *text);
/* Bind `len` bytes, borrowed until the next reset. */
enum db_rc	 db_bind_blob(struct db_stmt *, int i, const void *p,
		    size_t len);

int		 db_column_int(struct db_stmt *, int col);
int64_t		 db_column_int64(struct db_stmt *, int col);
double		 db_column_double(struct db_stmt *, int col);
/* A text column, NULL for SQL NULL; valid until the next step or reset. */
const char	*db_column_text(struct db_stmt *, int col);
/* A blob column, NULL for SQL NULL; valid until the next step or reset. */
const void	*db_column_blob(struct db_stmt *, int col);
/* The length in bytes of a text or blob column. */
int		 db_column_bytes(struct db_stmt *, int col);
/* Return whether a column is SQL NULL. */
bool		 db_column_is_null(struct db_stmt *, int col);

/* --- the engines' side ------------------------------------------------- */

/* What an engine supplies; db.c passes each call to it. */
struct db_ops {
	enum db_engine	 engine;
	void		 (*close)(struct db *);
	enum db_rc	 (*exec)(struct db *, const char *);
	const char	*(*errmsg)(struct db *);
	bool		 (*in_txn)(struct db *);
	int64_t		 (*changes)(struct db *);
	int64_t		 (*last_insert_id)(struct db *);
	int		 (*backup)(struct db *, const char *, char *, size_t);
	int		 (*notify_wait)(struct db *, int, char *, size_t);
	enum db_rc	 (*explain)(struct db *, const char *,
			    void (*)(void *, const char *, bool), void *);
	struct db_stmt	*(*prepare)(struct db *, const char *, bool);
	void		 (*finalize)(struct db_stmt *);
	enum db_rc	 (*step)(struct db_stmt *);
	enum db_rc	 (*step_later)(struct db_stmt *);	/* or NULL */
	void		 (*reset)(struct db_stmt *);
	enum db_rc	 (*bind_int64)(struct db_stmt *, int, int64_t);
	enum db_rc	 (*bind_double)(struct db_stmt *, int, double);
	enum db_rc	 (*bind_null)(struct db_stmt *, int);
	enum db_rc	 (*bind_text)(struct db_stmt *, int, const char *,
			    bool);
	enum db_rc	 (*bind_blob)(struct db_stmt *, int, const void *,
			    size_t);
	int64_t		 (*column_int64)(struct db_stmt *, int);
	double		 (*column_double)(struct db_stmt *, int);
	const char	*(*column_text)(struct db_stmt *, int);
	const void	*(*column_blob)(struct db_stmt *, int);
	int		 (*column_bytes)(struct db_stmt *, int);
	bool		 (*column_is_null)(struct db_stmt *, int);
};

/* The first member of every engine's connection. */
struct db {
	const struct db_ops	*ops;
};

/* The first member of every engine's statement. */
struct db_stmt {
	struct db		*db;
};

#endif /* CORRCHESS_STORE_DB_H */
