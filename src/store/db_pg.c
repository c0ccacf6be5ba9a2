/*
 * store/db_pg.c: the PostgreSQL engine of the statement layer (libpq).
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
 * The only file of corrchess that calls PQ*. SQLite's calls, one for one,
 * over libpq:
 *
 *   - a statement is prepared on the server (PQprepare) under a name of
 *     its own, its "?N" placeholders written "$N"; one-off SQL and texts
 *     of several statements run as simple queries (PQexec);
 *   - parameters are sent as text (numbers printed), blobs in binary;
 *     results come as text, read with strtoll()/strtod(), bytea decoded
 *     from its hex form;
 *   - the first db_step() runs the statement and keeps its result; each
 *     further step moves to the next row;
 *   - SQLSTATEs become enum db_rc: 23505 DB_UNIQUE, 23503 DB_FOREIGN,
 *     40001, 40P01 and 55P03 (lock_timeout) DB_BUSY;
 *   - a failed statement does not spoil the transaction around it, as in
 *     SQLite: inside a transaction an INSERT runs in a savepoint of its own
 *     (an UPDATE or SELECT that fails fails its caller's job, whose
 *     savepoint the service rolls back);
 *   - round trips are saved with libpq's pipeline mode: inside a
 *     transaction, a statement whose answer no caller reads (SAVEPOINT,
 *     RELEASE, pg_notify(), an INSERT's own savepoint and its release) is
 *     sent and not waited for; it goes with the next statement that is
 *     waited for, in one round trip. When it failed, that next statement
 *     fails with its reason (PostgreSQL skips what follows a failure up
 *     to the sync), so a failure is never lost: at the latest the COMMIT
 *     reports it, and the transaction is rolled back. A ROLLBACK is sent
 *     alone, after the pipeline's answers;
 *   - db_step_later() sends, the same way, a write whose caller is told
 *     DB_DONE before its answer is read (the writer's INSERT and UPDATE
 *     of a move, and a batch's BEGIN and locks, which may go ahead of
 *     the transaction they open); each is flushed as it is sent, so the
 *     server executes it while the caller goes on. Since that caller
 *     went on as if it had worked, a failure of such a write found later
 *     undoes the whole transaction at once (pg_undo(): a ROLLBACK, and
 *     " (the transaction was undone)" added to the reason), and a COMMIT
 *     that PostgreSQL answers with the tag ROLLBACK is a failure;
 *   - db_last_insert_id() is lastval() (every id column is an identity).
 *
 * The session: synchronous_commit on (off for sync = normal), lock_timeout
 * the busy timeout, client_encoding UTF8, notices dropped.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/db.h"

#ifndef LIBPQ_HAS_PIPELINING
#error "corrchess needs libpq 14 or later (pipeline mode)"
#endif

#define PG_ERR_SIZE	512
#define PG_BYTEA_OID	17
#define PG_TEXT_OID	25
#define PG_MAX_PARAMS	64
/* The connection's own statements: an INSERT's savepoint, its release. */
#define PG_SAVEPOINT	"db_savepoint"
#define PG_RELEASE	"db_release"

struct db_pg {
	struct db	 base;
	PGconn		*conn;
	char		 err[PG_ERR_SIZE];
	int64_t		 changes;
	unsigned	 nstmt;		/* names given out: s1, s2, ... */
	int		 pending;	/* sent in the pipeline, not yet read */
};

/* How a statement is run inside a transaction. */
enum pg_how {
	PG_WAIT,	/* sent, and its answer read */
	PG_DEFER,	/* no answer to read: sent with the next one */
	PG_ALONE,	/* a ROLLBACK: after the pipeline's answers */
};

struct db_pg_stmt {
	struct db_stmt	 base;
	char		 name[16];	/* "" for a simple query */
	char		*sql;		/* as sent */
	bool		 insert;	/* an INSERT: run in a savepoint */
	bool		 begin;		/* a BEGIN: may be sent ahead */
	enum pg_how	 how;
	bool		 sent;		/* deferred since the reset */
	int		 nparams;
	const char	*values[PG_MAX_PARAMS];
	int		 lengths[PG_MAX_PARAMS];
	int		 formats[PG_MAX_PARAMS];
	char		 num[PG_MAX_PARAMS][32];
	char		*copies[PG_MAX_PARAMS];
	PGresult	*res;		/* NULL: not run since the reset */
	int		 row, nrows, ncols;
	unsigned char	**blobs;	/* decoded bytea, per column */
	size_t		*bloblen;
};

/* Return the engine's connection. */
static struct db_pg *
pg_db(struct db *db)
{
	return (struct db_pg *)db;
}

/* Return the engine's statement. */
static struct db_pg_stmt *
pg_st(struct db_stmt *st)
{
	return (struct db_pg_stmt *)st;
}

/* Record the reason of a failed result and turn its SQLSTATE into a
 * db_rc. */
static enum db_rc
pg_fail(struct db_pg *d, const PGresult *res)
{
	const char	*state = NULL, *msg = NULL, *detail = NULL;
	size_t		 len;

	if (res != NULL) {
		state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
		detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	}
	if (msg != NULL)
		snprintf(d->err, sizeof d->err, "%s%s%s", msg,
		    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	else {
		snprintf(d->err, sizeof d->err, "%s", PQerrorMessage(d->conn));
		len = strlen(d->err);
		while (len > 0 && d->err[len - 1] == '\n')
			d->err[--len] = '\0';
	}
	if (state == NULL)
		return DB_ERROR;
	if (strcmp(state, "23505") == 0)
		return DB_UNIQUE;
	if (strcmp(state, "23503") == 0)
		return DB_FOREIGN;
	if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
	    strcmp(state, "55P03") == 0)
		return DB_BUSY;
	return DB_ERROR;
}

/*
 * Roll back the whole transaction after a failure, keeping its reason:
 * a statement sent ahead failed after its caller went on.
 */
static void
pg_undo(struct db_pg *d)
{
	PGresult	*res;
	size_t		 len = strlen(d->err);

	if (PQtransactionStatus(d->conn) == PQTRANS_IDLE)
		return;
	res = PQexec(d->conn, "ROLLBACK");
	PQclear(res);
	snprintf(d->err + len, sizeof d->err - len, " (the transaction was "
	    "undone)");
}

/*
 * Read a pipeline's answers up to its sync: the deferred statements'
 * and, when `st` is not NULL, st's own (kept in st->res). DB_OK, or the
 * first failure with its reason; the pipeline is left.
 */
static enum db_rc
pg_sync(struct db_pg *d, struct db_pg_stmt *st)
{
	PGresult	*r;
	enum db_rc	 rc = DB_OK;
	int		 q, n = d->pending + (st != NULL), failed = -1;

	d->pending = 0;
	if (PQpipelineSync(d->conn) == 0) {
		rc = pg_fail(d, NULL);
		goto out;
	}
	/* Each statement's results, ended by a NULL; then the sync's. */
	for (q = 0; q < n; q++) {
		while ((r = PQgetResult(d->conn)) != NULL) {
			switch (PQresultStatus(r)) {
			case PGRES_COMMAND_OK:
			case PGRES_TUPLES_OK:
			case PGRES_EMPTY_QUERY:
			case PGRES_PIPELINE_ABORTED:	/* after a failure */
				break;
			default:
				if (rc == DB_OK) {
					rc = pg_fail(d, r);
					failed = q;
				}
				break;
			}
			if (st != NULL && q == n - 1 && st->res == NULL)
				st->res = r;
			else
				PQclear(r);
		}
	}
	if ((r = PQgetResult(d->conn)) == NULL ||
	    PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
		if (rc == DB_OK)
			rc = pg_fail(d, r);
	}
	PQclear(r);
 out:
	if (PQexitPipelineMode(d->conn) == 0 && rc == DB_OK)
		rc = pg_fail(d, NULL);
	/* A statement sent ahead failed: its caller was told it went
	 * well, so nothing of the transaction may be kept. */
	if (failed >= 0 && failed < n - (st != NULL))
		pg_undo(d);
	return rc;
}

/* Read the answers of the statements sent and not yet waited for. */
static enum db_rc
pg_flush(struct db_pg *d)
{
	if (d->pending == 0 && PQpipelineStatus(d->conn) == PQ_PIPELINE_OFF)
		return DB_OK;
	return pg_sync(d, NULL);
}

/*
 * Send a statement into the pipeline without waiting for its answer:
 * `st`'s prepared statement with its parameters, or (st NULL) the
 * connection's own statement `name` (PG_SAVEPOINT, PG_RELEASE). -1 with
 * the reason when it could not be sent.
 */
static int
pg_send(struct db_pg *d, struct db_pg_stmt *st, const char *name)
{
	int	ok;

	if (PQpipelineStatus(d->conn) == PQ_PIPELINE_OFF &&
	    PQenterPipelineMode(d->conn) == 0) {
		pg_fail(d, NULL);
		return -1;
	}
	if (st != NULL)
		ok = PQsendQueryPrepared(d->conn, st->name, st->nparams,
		    st->values, st->lengths, st->formats, 0);
	else
		ok = PQsendQueryPrepared(d->conn, name, 0, NULL, NULL, NULL,
		    0);
	if (ok == 0) {
		pg_fail(d, NULL);
		return -1;
	}
	d->pending++;
	return 0;
}

/* Run one-off SQL and check its result; DB_OK or the failure. */
static enum db_rc
pg_simple(struct db_pg *d, const char *sql)
{
	PGresult	*res;
	enum db_rc	 rc = DB_OK;

	/* A ROLLBACK runs whatever the pipeline said; anything else
	 * fails with the pipeline's failure. */
	if ((rc = pg_flush(d)) != DB_OK && strncmp(sql, "ROLLBACK", 8) != 0)
		return rc;
	rc = DB_OK;
	res = PQexec(d->conn, sql);
	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY:
		break;
	default:
		rc = pg_fail(d, res);
		break;
	}
	PQclear(res);
	return rc;
}

/* Close a connection, rolling back an open transaction. */
static void
pg_close(struct db *db)
{
	struct db_pg	*d = pg_db(db);

	if (d->conn != NULL)
		PQfinish(d->conn);	/* the server rolls back */
	free(d);
}

/* Run one-off SQL. */
static enum db_rc
pg_exec(struct db *db, const char *sql)
{
	return pg_simple(pg_db(db), sql);
}

/* Return the message of the last failure. */
static const char *
pg_errmsg(struct db *db)
{
	return pg_db(db)->err;
}

/* Return whether a transaction is open (or failed and not yet ended). */
static bool
pg_in_txn(struct db *db)
{
	PGTransactionStatusType	t = PQtransactionStatus(pg_db(db)->conn);

	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR ||
	    t == PQTRANS_ACTIVE;
}

/* Return the rows the last statement touched. */
static int64_t
pg_changes(struct db *db)
{
	return pg_db(db)->changes;
}

/* Return the last id an identity column handed out in this session. */
static int64_t
pg_last_insert_id(struct db *db)
{
	struct db_pg	*d = pg_db(db);
	PGresult	*res;
	int64_t		 id = 0;

	if (pg_flush(d) != DB_OK)
		return 0;
	res = PQexec(d->conn, "SELECT lastval()");
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else
		pg_fail(d, res);
	PQclear(res);
	return id;
}

/* Refuse to copy: PostgreSQL has its own backups. */
static int
pg_backup(struct db *db, const char *path, char *err, size_t errsize)
{
	(void)db;
	(void)path;
	snprintf(err, errsize, "the database is on PostgreSQL: back it up "
	    "with PostgreSQL's own tools (pg_dump, or a base backup with "
	    "pg_basebackup and WAL archiving)");
	return -1;
}

/*
 * Copy SQL for the server: "?N" and "?" placeholders become "$N" outside
 * quotes. Sets *nparams to the highest number and marks in `used` the
 * numbers that appear. NULL when out of memory or over PG_MAX_PARAMS.
 */
static char *
pg_translate(const char *sql, int *nparams, bool used[PG_MAX_PARAMS + 1])
{
	char		*out, *o;
	const char	*p;
	char		 quote = 0;
	int		 next = 1, n;

	*nparams = 0;
	/* "?" grows to at most "$64": 3 bytes for 1. */
	if ((out = malloc(strlen(sql) * 3 + 1)) == NULL)
		return NULL;
	for (p = sql, o = out; *p != '\0'; p++) {
		if (quote != 0) {
			if (*p == quote)
				quote = 0;
			*o++ = *p;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			*o++ = *p;
			continue;
		}
		if (*p != '?') {
			*o++ = *p;
			continue;
		}
		if (p[1] >= '0' && p[1] <= '9') {
			n = (int)strtol(p + 1, (char **)&p, 10);
			p--;
		} else
			n = next;
		if (n < 1 || n > PG_MAX_PARAMS) {
			free(out);
			return NULL;
		}
		next = n + 1;
		used[n] = true;
		if (n > *nparams)
			*nparams = n;
		o += sprintf(o, "$%d", n);
	}
	*o = '\0';
	return out;
}

/* Return whether SQL holds several statements (a ';' outside quotes
 * before its end). */
static bool
pg_several(const char *sql)
{
	const char	*p;
	char		 quote = 0;

	for (p = sql; *p != '\0'; p++) {
		if (quote != 0) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"')
			quote = *p;
		else if (*p == '$' && p[1] == '$')
			return true;	/* a dollar-quoted body */
		else if (*p == ';' && p[strspn(p + 1, " \t\n") + 1] != '\0')
			return true;
	}
	return false;
}

/* The parameters' types for PQprepare(): a number the text skips has no
 * type to infer, say text; the others are inferred (0). */
static void
pg_types(int nparams, const bool used[PG_MAX_PARAMS + 1], Oid *types)
{
	int	i;

	for (i = 0; i < nparams; i++)
		types[i] = used[i + 1] ? 0 : PG_TEXT_OID;
}

/* Prepare a statement on the server (or keep a simple query's text). */
static struct db_stmt *
pg_prepare(struct db *db, const char *sql, bool keep)
{
	struct db_pg		*d = pg_db(db);
	struct db_pg_stmt	*st;
	PGresult		*res;
	Oid			 types[PG_MAX_PARAMS];
	bool			 used[PG_MAX_PARAMS + 1] = { false };
	const char		*head;

	(void)keep;
	if ((st = calloc(1, sizeof *st)) == NULL) {
		snprintf(d->err, sizeof d->err, "out of memory");
		return NULL;
	}
	st->base.db = db;
	head = sql + strspn(sql, " \t\n");
	st->insert = strncmp(head, "INSERT", 6) == 0;
	st->begin = strncmp(head, "BEGIN", 5) == 0;
	if (strncmp(head, "SAVEPOINT", 9) == 0 ||
	    strncmp(head, "RELEASE", 7) == 0 ||
	    strncmp(head, "SELECT pg_notify(", 17) == 0)
		st->how = PG_DEFER;
	else if (strncmp(head, "ROLLBACK", 8) == 0)
		st->how = PG_ALONE;
	if (pg_several(sql)) {
		/* Run as it is, without parameters. */
		if ((st->sql = strdup(sql)) == NULL) {
			snprintf(d->err, sizeof d->err, "out of memory");
			goto fail;
		}
		return &st->base;
	}
	if ((st->sql = pg_translate(sql, &st->nparams, used)) == NULL) {
		snprintf(d->err, sizeof d->err, "cannot translate: %.200s",
		    sql);
		goto fail;
	}
	pg_types(st->nparams, used, types);
	snprintf(st->name, sizeof st->name, "s%u", ++d->nstmt);
	if (pg_flush(d) != DB_OK)
		goto fail;
	res = PQprepare(d->conn, st->name, st->sql, st->nparams, types);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		pg_fail(d, res);
		PQclear(res);
		goto fail;
	}
	PQclear(res);
	return &st->base;

fail:
	free(st->sql);
	free(st);
	return NULL;
}

/* Return whether a line of an EXPLAIN is a node of the plan ("->"),
 * not one of a node's own lines. */
static bool
pg_plan_node(const char *line)
{
	return strncmp(line + strspn(line, " "), "->", 2) == 0;
}

/* Return whether line i of an EXPLAIN walks a whole table or index: a
 * sequential scan, or an index scan whose own lines (up to the next node)
 * give no "Index Cond". */
static bool
pg_plan_walks(const PGresult *res, int i)
{
	const char	*line = PQgetvalue(res, i, 0);
	int		 n = PQntuples(res);

	if (strstr(line, "Seq Scan on ") != NULL)
		return true;
	if (strstr(line, "Index Scan") == NULL &&
	    strstr(line, "Index Only Scan") == NULL)
		return false;
	for (i++; i < n && !pg_plan_node(PQgetvalue(res, i, 0)); i++) {
		if (strstr(PQgetvalue(res, i, 0), "Index Cond:") != NULL)
			return false;
	}
	return true;
}

/*
 * Report the generic plan of `sql`: prepared under a name of its own,
 * EXPLAIN EXECUTE with every parameter NULL (a generic plan does not look
 * at them), plan_cache_mode force_generic_plan and enable_seqscan off for
 * the while.
 */
static enum db_rc
pg_explain(struct db *db, const char *sql,
    void (*cb)(void *, const char *, bool), void *arg)
{
	static const char *const planned[] = {
		"SELECT", "INSERT", "UPDATE", "DELETE", "WITH",
	};
	struct db_pg	*d = pg_db(db);
	PGresult	*res;
	Oid		 types[PG_MAX_PARAMS];
	bool		 used[PG_MAX_PARAMS + 1] = { false };
	const char	*head = sql + strspn(sql, " \t\n");
	char		*text, ex[48 + PG_MAX_PARAMS * 6];
	enum db_rc	 rc;
	size_t		 k;
	int		 nparams, i, len;

	for (k = 0; k < sizeof planned / sizeof planned[0]; k++) {
		if (strncmp(head, planned[k], strlen(planned[k])) == 0)
			break;
	}
	if (k == sizeof planned / sizeof planned[0] || pg_several(sql))
		return DB_OK;
	if ((text = pg_translate(sql, &nparams, used)) == NULL) {
		snprintf(d->err, sizeof d->err, "cannot translate: %.200s",
		    sql);
		return DB_ERROR;
	}
	pg_types(nparams, used, types);
	if ((rc = pg_simple(d, "SET plan_cache_mode = force_generic_plan; "
	    "SET enable_seqscan = off")) != DB_OK) {
		free(text);
		return rc;
	}
	res = PQprepare(d->conn, "db_explain", text, nparams, types);
	free(text);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		rc = pg_fail(d, res);
		PQclear(res);
		goto reset;
	}
	PQclear(res);
	len = snprintf(ex, sizeof ex, "EXPLAIN EXECUTE db_explain");
	for (i = 0; i < nparams; i++)
		len += snprintf(ex + len, sizeof ex - (size_t)len, "%sNULL",
		    i == 0 ? "(" : ", ");
	if (nparams > 0)
		snprintf(ex + len, sizeof ex - (size_t)len, ")");
	res = PQexec(d->conn, ex);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = pg_fail(d, res);
	else {
		for (i = 0; i < PQntuples(res); i++)
			cb(arg, PQgetvalue(res, i, 0), pg_plan_walks(res, i));
	}
	PQclear(res);
	if (pg_simple(d, "DEALLOCATE db_explain") != DB_OK && rc == DB_OK)
		rc = DB_ERROR;
reset:
	if (pg_simple(d, "RESET plan_cache_mode; RESET enable_seqscan") !=
	    DB_OK && rc == DB_OK)
		rc = DB_ERROR;
	return rc;
}

/* Forget a statement's result and its decoded blobs. */
static void
pg_clear_result(struct db_pg_stmt *st)
{
	int	i;

	if (st->blobs != NULL) {
		for (i = 0; i < st->ncols; i++)
			PQfreemem(st->blobs[i]);
		free(st->blobs);
		free(st->bloblen);
		st->blobs = NULL;
		st->bloblen = NULL;
	}
	PQclear(st->res);
	st->res = NULL;
	st->row = st->nrows = st->ncols = 0;
}

/* Free a statement; its server-side twin goes with it. */
static void
pg_finalize(struct db_stmt *base)
{
	struct db_pg_stmt	*st = pg_st(base);
	struct db_pg		*d = pg_db(base->db);
	char			 sql[48];
	int			 i;

	pg_clear_result(st);
	if (st->name[0] != '\0' && d->conn != NULL &&
	    PQstatus(d->conn) == CONNECTION_OK && pg_flush(d) == DB_OK) {
		snprintf(sql, sizeof sql, "DEALLOCATE %s", st->name);
		PQclear(PQexec(d->conn, sql));
	}
	for (i = 0; i < PG_MAX_PARAMS; i++)
		free(st->copies[i]);
	free(st->sql);
	free(st);
}

/* Return whether the connection is inside a transaction, answers to
 * come included. */
static bool
pg_txn_open(struct db_pg *d)
{
	return d->pending > 0 ||
	    PQtransactionStatus(d->conn) == PQTRANS_INTRANS;
}

/* Run a statement (the first step): keep its result. */
static enum db_rc
pg_run(struct db_pg *d, struct db_pg_stmt *st)
{
	const char	*n;
	bool		 guard, txn = pg_txn_open(d);
	enum db_rc	 rc, sent = DB_OK;

	if (st->name[0] == '\0' || st->how == PG_ALONE) {
		/* A simple query cannot join a pipeline. */
		if ((rc = pg_flush(d)) != DB_OK && st->how != PG_ALONE)
			return rc;
	} else if (st->how == PG_DEFER && txn) {
		if (pg_send(d, st, NULL) != 0)
			return DB_ERROR;
		st->sent = true;
		return DB_DONE;
	}
	guard = st->insert && txn;
	if (guard && pg_send(d, NULL, PG_SAVEPOINT) != 0)
		return DB_ERROR;
	if (st->name[0] == '\0')
		st->res = PQexec(d->conn, st->sql);
	else if (d->pending > 0) {
		/* With what was deferred, in one round trip. */
		if (PQsendQueryPrepared(d->conn, st->name, st->nparams,
		    st->values, st->lengths, st->formats, 0) == 0) {
			pg_fail(d, NULL);
			pg_flush(d);
			return DB_ERROR;
		}
		sent = pg_sync(d, st);
	} else
		st->res = PQexecPrepared(d->conn, st->name, st->nparams,
		    st->values, st->lengths, st->formats, 0);
	switch (PQresultStatus(st->res)) {
	case PGRES_COMMAND_OK:
	case PGRES_EMPTY_QUERY:
		rc = DB_DONE;
		break;
	case PGRES_TUPLES_OK:
		/* Several statements (BEGIN and its lock) return no rows. */
		if (st->name[0] == '\0') {
			rc = DB_DONE;
			break;
		}
		st->nrows = PQntuples(st->res);
		st->ncols = PQnfields(st->res);
		rc = st->nrows > 0 ? DB_ROW : DB_DONE;
		break;
	default:
		/* A deferred statement's failure is the reason. */
		rc = sent != DB_OK ? sent : pg_fail(d, st->res);
		break;
	}
	if (rc == DB_DONE || rc == DB_ROW) {
		n = PQcmdTuples(st->res);
		d->changes = n != NULL && *n != '\0' ? strtoll(n, NULL, 10) : 0;
	}
	/* A COMMIT of a transaction that had failed rolls it back, and
	 * says so only in its tag. */
	if (rc == DB_DONE && strncmp(st->sql, "COMMIT", 6) == 0 &&
	    strcmp(PQcmdStatus(st->res), "ROLLBACK") == 0) {
		snprintf(d->err, sizeof d->err, "the transaction had failed "
		    "and was rolled back");
		rc = DB_ERROR;
	}
	if (guard) {
		if (rc == DB_DONE || rc == DB_ROW) {
			/* Sent with the next statement. */
			if (pg_send(d, NULL, PG_RELEASE) != 0)
				return DB_ERROR;
		} else {
			char	keep[PG_ERR_SIZE];

			/* Undo the statement alone; keep its reason. */
			snprintf(keep, sizeof keep, "%s", d->err);
			pg_simple(d, "ROLLBACK TO SAVEPOINT db_stmt; "
			    "RELEASE SAVEPOINT db_stmt");
			snprintf(d->err, sizeof d->err, "%s", keep);
		}
	}
	return rc;
}

/* Step a statement: run it first, then walk its rows. */
static enum db_rc
pg_step(struct db_stmt *base)
{
	struct db_pg_stmt	*st = pg_st(base);
	int			 i;

	if (st->res == NULL && !st->sent)
		return pg_run(pg_db(base->db), st);
	if (st->blobs != NULL) {
		for (i = 0; i < st->ncols; i++) {
			PQfreemem(st->blobs[i]);
			st->blobs[i] = NULL;
		}
	}
	if (st->row + 1 < st->nrows) {
		st->row++;
		return DB_ROW;
	}
	st->row = st->nrows;
	return DB_DONE;
}

/*
 * Run a statement whose answer no caller reads: inside a transaction,
 * send it with the next statement that waits (db.h).
 */
static enum db_rc
pg_step_later(struct db_stmt *base)
{
	struct db_pg_stmt	*st = pg_st(base);
	struct db_pg		*d = pg_db(base->db);
	enum db_rc		 rc;

	/* Outside a transaction a statement runs at once, but the BEGIN
	 * that opens it may go ahead too. */
	if (st->name[0] == '\0' || st->how == PG_ALONE ||
	    (!pg_txn_open(d) && !st->begin)) {
		rc = pg_step(base);
		return rc == DB_ROW ? DB_DONE : rc;
	}
	if (pg_send(d, st, NULL) != 0)
		return DB_ERROR;
	st->sent = true;
	/* On its way now: the server works on it while the caller goes
	 * on to its next statement. */
	if (PQflush(d->conn) != 0) {
		pg_fail(d, NULL);
		return DB_ERROR;
	}
	return DB_DONE;
}

/* Reset a statement and clear its bindings. */
static void
pg_reset(struct db_stmt *base)
{
	struct db_pg_stmt	*st = pg_st(base);
	int			 i;

	pg_clear_result(st);
	st->sent = false;
	for (i = 0; i < st->nparams; i++) {
		free(st->copies[i]);
		st->copies[i] = NULL;
		st->values[i] = NULL;
		st->lengths[i] = 0;
		st->formats[i] = 0;
	}
}

/* Check a parameter number: SQLite's range check. */
static bool
pg_param_ok(struct db_pg_stmt *st, int i)
{
	return i >= 1 && i <= st->nparams;
}

/* Bind an integer, printed. */
static enum db_rc
pg_bind_int64(struct db_stmt *base, int i, int64_t v)
{
	struct db_pg_stmt	*st = pg_st(base);

	if (!pg_param_ok(st, i))
		return DB_ERROR;
	snprintf(st->num[i - 1], sizeof st->num[i - 1], "%lld", (long long)v);
	st->values[i - 1] = st->num[i - 1];
	st->formats[i - 1] = 0;
	return DB_OK;
}

/* Bind a double, printed to round-trip. */
static enum db_rc
pg_bind_double(struct db_stmt *base, int i, double v)
{
	struct db_pg_stmt	*st = pg_st(base);

	if (!pg_param_ok(st, i))
		return DB_ERROR;
	snprintf(st->num[i - 1], sizeof st->num[i - 1], "%.17g", v);
	st->values[i - 1] = st->num[i - 1];
	st->formats[i - 1] = 0;
	return DB_OK;
}

/* Bind NULL. */
static enum db_rc
pg_bind_null(struct db_stmt *base, int i)
{
	struct db_pg_stmt	*st = pg_st(base);

	if (!pg_param_ok(st, i))
		return DB_ERROR;
	st->values[i - 1] = NULL;
	st->formats[i - 1] = 0;
	return DB_OK;
}

/* Bind a text, borrowed or copied. */
static enum db_rc
pg_bind_text(struct db_stmt *base, int i, const char *text, bool copy)
{
	struct db_pg_stmt	*st = pg_st(base);

	if (!pg_param_ok(st, i))
		return DB_ERROR;
	free(st->copies[i - 1]);
	st->copies[i - 1] = NULL;
	if (copy && text != NULL) {
		if ((st->copies[i - 1] = strdup(text)) == NULL)
			return DB_ERROR;
		text = st->copies[i - 1];
	}
	st->values[i - 1] = text;
	st->formats[i - 1] = 0;
	return DB_OK;
}

/* Bind borrowed bytes, sent in binary. */
static enum db_rc
pg_bind_blob(struct db_stmt *base, int i, const void *p, size_t len)
{
	struct db_pg_stmt	*st = pg_st(base);

	if (!pg_param_ok(st, i))
		return DB_ERROR;
	st->values[i - 1] = p;
	st->lengths[i - 1] = (int)len;
	st->formats[i - 1] = 1;
	return DB_OK;
}

/* Return the text of a column of the current row, NULL for NULL. */
static const char *
pg_value(struct db_pg_stmt *st, int col)
{
	if (st->res == NULL || st->row >= st->nrows || col < 0 ||
	    col >= st->ncols || PQgetisnull(st->res, st->row, col))
		return NULL;
	return PQgetvalue(st->res, st->row, col);
}

/* Read an integer column (a boolean reads as 0 or 1). */
static int64_t
pg_column_int64(struct db_stmt *base, int col)
{
	const char	*v = pg_value(pg_st(base), col);

	if (v == NULL)
		return 0;
	if (strcmp(v, "t") == 0)
		return 1;
	return strtoll(v, NULL, 10);
}

/* Read a double column. */
static double
pg_column_double(struct db_stmt *base, int col)
{
	const char	*v = pg_value(pg_st(base), col);

	return v != NULL ? strtod(v, NULL) : 0.0;
}

/* Read a text column. */
static const char *
pg_column_text(struct db_stmt *base, int col)
{
	return pg_value(pg_st(base), col);
}

/* Decode a bytea column of the current row; NULL for NULL. */
static const unsigned char *
pg_blob(struct db_pg_stmt *st, int col, size_t *len)
{
	const char	*v = pg_value(st, col);

	*len = 0;
	if (v == NULL)
		return NULL;
	if (st->blobs == NULL) {
		st->blobs = calloc(st->ncols, sizeof *st->blobs);
		st->bloblen = calloc(st->ncols, sizeof *st->bloblen);
		if (st->blobs == NULL || st->bloblen == NULL) {
			free(st->blobs);
			free(st->bloblen);
			st->blobs = NULL;
			st->bloblen = NULL;
			return NULL;
		}
	}
	if (st->blobs[col] == NULL)
		st->blobs[col] = PQunescapeBytea((const unsigned char *)v,
		    &st->bloblen[col]);
	*len = st->bloblen[col];
	return st->blobs[col];
}

/* Read a blob column. */
static const void *
pg_column_blob(struct db_stmt *base, int col)
{
	size_t	len;

	return pg_blob(pg_st(base), col, &len);
}

/* Return a column's length in bytes (a bytea's decoded length). */
static int
pg_column_bytes(struct db_stmt *base, int col)
{
	struct db_pg_stmt	*st = pg_st(base);
	size_t			 len;

	if (pg_value(st, col) == NULL)
		return 0;
	if (PQftype(st->res, col) == PG_BYTEA_OID) {
		pg_blob(st, col, &len);
		return (int)len;
	}
	return PQgetlength(st->res, st->row, col);
}

/* Return whether a column is NULL. */
static bool
pg_column_is_null(struct db_stmt *base, int col)
{
	return pg_value(pg_st(base), col) == NULL;
}

/* Take one notification already read from the connection into buf. */
static int
pg_notify_take(struct db_pg *d, char *buf, size_t size)
{
	PGnotify	*n;

	if ((n = PQnotifies(d->conn)) == NULL)
		return 0;
	snprintf(buf, size, "%s", n->extra);
	PQfreemem(n);
	return 1;
}

/* Wait for a notification on the connection's socket. */
static int
pg_notify_wait(struct db *db, int timeout_ms, char *buf, size_t size)
{
	struct db_pg	*d = pg_db(db);
	struct pollfd	 pfd;
	int		 rc;

	if ((rc = pg_notify_take(d, buf, size)) != 0)
		return rc;
	if ((pfd.fd = PQsocket(d->conn)) < 0) {
		snprintf(d->err, sizeof d->err, "the connection is closed");
		return -1;
	}
	pfd.events = POLLIN;
	pfd.revents = 0;
	if ((rc = poll(&pfd, 1, timeout_ms)) < 0) {
		if (errno == EINTR)
			return 0;
		snprintf(d->err, sizeof d->err, "poll: %s", strerror(errno));
		return -1;
	}
	if (rc == 0)
		return 0;
	if (PQconsumeInput(d->conn) == 0 || PQstatus(d->conn) != CONNECTION_OK) {
		pg_fail(d, NULL);
		return -1;
	}
	return pg_notify_take(d, buf, size);
}

static const struct db_ops db_pg_ops = {
	.engine = DB_POSTGRESQL,
	.close = pg_close,
	.exec = pg_exec,
	.errmsg = pg_errmsg,
	.in_txn = pg_in_txn,
	.changes = pg_changes,
	.last_insert_id = pg_last_insert_id,
	.backup = pg_backup,
	.notify_wait = pg_notify_wait,
	.explain = pg_explain,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.step = pg_step,
	.step_later = pg_step_later,
	.reset = pg_reset,
	.bind_int64 = pg_bind_int64,
	.bind_double = pg_bind_double,
	.bind_null = pg_bind_null,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.column_bytes = pg_column_bytes,
	.column_is_null = pg_column_is_null,
};

/* Drop the server's notices ("relation already exists, skipping"). */
static void
pg_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Prepare one of the connection's own statements. */
static enum db_rc
pg_own(struct db_pg *d, const char *name, const char *sql)
{
	PGresult	*res;
	enum db_rc	 rc = DB_OK;

	res = PQprepare(d->conn, name, sql, 0, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		rc = pg_fail(d, res);
	PQclear(res);
	return rc;
}

/* Connect to a PostgreSQL server and set up the session. */
struct db *
db_pg_open(const char *conninfo, const char *password_file, bool sync_full,
    int busy_ms, char *err, size_t errsize)
{
	const char	*keys[4], *values[4];
	struct db_pg	*d;
	char		 sql[160];
	int		 n = 0;

	if ((d = calloc(1, sizeof *d)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	d->base.ops = &db_pg_ops;
	/* The connection string (key=value or URI) is expanded from
	 * dbname; what follows it wins. */
	keys[n] = "dbname";
	values[n++] = conninfo;
	if (password_file != NULL && *password_file != '\0') {
		keys[n] = "passfile";
		values[n++] = password_file;
	}
	keys[n] = "client_encoding";
	values[n++] = "UTF8";
	keys[n] = NULL;
	values[n] = NULL;
	d->conn = PQconnectdbParams(keys, values, 1);
	if (d->conn == NULL || PQstatus(d->conn) != CONNECTION_OK) {
		snprintf(err, errsize, "%s", d->conn != NULL ?
		    PQerrorMessage(d->conn) : "out of memory");
		err[strcspn(err, "\n")] = '\0';
		goto fail;
	}
	PQsetNoticeProcessor(d->conn, pg_notice, NULL);
	snprintf(sql, sizeof sql, "SET synchronous_commit = %s; "
	    "SET lock_timeout = %d; SET client_min_messages = warning",
	    sync_full ? "on" : "off", busy_ms);
	if (pg_simple(d, sql) != DB_OK || pg_own(d, PG_SAVEPOINT,
	    "SAVEPOINT db_stmt") != DB_OK || pg_own(d, PG_RELEASE,
	    "RELEASE SAVEPOINT db_stmt") != DB_OK) {
		snprintf(err, errsize, "%s", d->err);
		goto fail;
	}
	return &d->base;

fail:
	pg_close(&d->base);
	return NULL;
}
