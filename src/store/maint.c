/*
 * store/maint.c: online backup, integrity check, query plans.
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
 * The copy itself is the engine's (db_backup(): SQLite's online backup;
 * on PostgreSQL a refusal that names pg_dump); the checks and the plans
 * are SQLite's PRAGMA integrity_check and foreign_key_check and EXPLAIN
 * QUERY PLAN, and PostgreSQL's EXPLAIN. PostgreSQL keeps its constraints
 * at every write; its check looks for what it does not keep, an action's
 * player or key that is missing.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_int.h"

/* Flush a directory entry to disk (after a rename). */
static int
store_sync_dir(const char *path)
{
	char	*dir, *slash;
	int	 fd, ret = -1;

	if ((dir = strdup(path)) == NULL)
		return -1;
	if ((slash = strrchr(dir, '/')) == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1) {
		ret = fsync(fd);
		close(fd);
	}
	free(dir);
	return ret;
}

/* Copy the database to a file: the engine's copy, then a rename. */
enum store_status
store_backup(struct store *s, const char *path)
{
	enum store_status	 status = STORE_ERROR;
	char			*tmp = NULL;
	size_t			 len;

	if (db_in_txn(s->db)) {
		store_seterr(s, "backup inside a transaction");
		return STORE_ERROR;
	}
	len = strlen(path) + sizeof ".tmp";
	if ((tmp = malloc(len)) == NULL) {
		store_seterr(s, "out of memory");
		return STORE_ERROR;
	}
	snprintf(tmp, len, "%s.tmp", path);
	if (unlink(tmp) == -1 && errno != ENOENT) {
		store_seterr(s, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (db_backup(s->db, tmp, s->err, sizeof s->err) != 0)
		goto out;
	if (rename(tmp, path) == -1) {
		store_seterr(s, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (store_sync_dir(path) != 0) {
		store_seterr(s, "%s: sync directory: %s", path,
		    strerror(errno));
		goto out;
	}
	status = STORE_OK;
out:
	if (status != STORE_OK)
		unlink(tmp);
	free(tmp);
	return status;
}

/*
 * PostgreSQL's check: the references of an action that are not foreign
 * keys there (schema.c, step 20 -> 21). Rows: game, seq, the table of the
 * missing row.
 */
static enum store_status
store_integrity_check_pg(struct store *s)
{
	struct db_stmt		*st;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = db_prepare(s->db,
	    "SELECT a.game_id, a.seq, 'players' FROM actions a"
	    " WHERE a.player_id IS NOT NULL AND NOT EXISTS"
	    "  (SELECT 1 FROM players p WHERE p.id = a.player_id)"
	    " UNION ALL "
	    "SELECT a.game_id, a.seq, 'player_keys' FROM actions a"
	    " WHERE a.key_id IS NOT NULL AND NOT EXISTS"
	    "  (SELECT 1 FROM player_keys k WHERE k.id = a.key_id)"
	    " LIMIT 1", false)) == NULL)
		return store_fail(s, DB_ERROR, "foreign key check");
	rc = db_step(st);
	if (rc == DB_ROW) {
		store_seterr(s, "foreign key: actions row (game %lld, seq "
		    "%lld) refers to a missing %s",
		    (long long)db_column_int64(st, 0),
		    (long long)db_column_int64(st, 1),
		    db_column_text(st, 2));
		status = STORE_ERROR;
	} else if (rc != DB_DONE)
		status = store_fail(s, rc, "foreign key check");
	db_finalize(st);
	return status;
}

/* Run the integrity and foreign key checks. */
enum store_status
store_integrity_check(struct store *s)
{
	struct db_stmt		*st = NULL;
	enum store_status	 status = STORE_ERROR;
	const char		*text;
	int			 rc;

	if (db_engine(s->db) == DB_POSTGRESQL)
		return store_integrity_check_pg(s);
	if ((st = db_prepare(s->db, "PRAGMA integrity_check", false)) ==
	    NULL) {
		status = store_fail(s, DB_ERROR, "integrity check");
		goto out;
	}
	while ((rc = db_step(st)) == DB_ROW) {
		text = db_column_text(st, 0);
		if (text == NULL || strcmp(text, "ok") != 0) {
			store_seterr(s, "integrity: %s",
			    text != NULL ? text : "?");
			goto out;
		}
	}
	if (rc != DB_DONE) {
		status = store_fail(s, rc, "integrity check");
		goto out;
	}
	db_finalize(st);

	/* Rows: table, rowid, parent table, constraint index. */
	if ((st = db_prepare(s->db, "PRAGMA foreign_key_check", false)) ==
	    NULL) {
		status = store_fail(s, DB_ERROR, "foreign key check");
		goto out;
	}
	rc = db_step(st);
	if (rc == DB_ROW) {
		store_seterr(s, "foreign key: %s row %lld refers to a missing "
		    "%s", db_column_text(st, 0),
		    (long long)db_column_int64(st, 1),
		    db_column_text(st, 2));
		goto out;
	}
	if (rc != DB_DONE) {
		status = store_fail(s, rc, "foreign key check");
		goto out;
	}
	status = STORE_OK;
out:
	db_finalize(st);
	return status;
}

/* What store_explain() passes on for each line of a statement's plan. */
struct explain {
	void		(*cb)(void *, const char *, bool, const char *, bool);
	void		*arg;
	const char	*name;
	bool		 indexed;
};

static void
explain_line(void *arg, const char *line, bool walk)
{
	struct explain	*e = arg;

	e->cb(e->arg, e->name, e->indexed, line, walk);
}

/* Report the query plan of every statement. */
enum store_status
store_explain(struct store *s,
    void (*cb)(void *, const char *, bool, const char *, bool), void *arg)
{
	struct explain	 e = { cb, arg, NULL, false };
	enum db_rc	 rc;
	int		 i;

	for (i = ST_VERSION; i < ST_COUNT; i++) {
		e.name = store_sql[i].name;
		e.indexed = !store_sql[i].scan;
		rc = db_explain(s->db, store_sql_text(s, i), explain_line, &e);
		if (rc != DB_OK)
			return store_fail(s, rc, store_sql[i].name);
	}
	return STORE_OK;
}
