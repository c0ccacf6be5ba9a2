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
 * All of this is SQLite's own machinery (sqlite3_backup, PRAGMA
 * integrity_check and foreign_key_check, EXPLAIN QUERY PLAN); another
 * engine would answer the same three calls its own way.
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

/* Copy the database to a file with the online backup API. */
enum store_status
store_backup(struct store *s, const char *path)
{
	sqlite3			*dst = NULL;
	sqlite3_backup		*b;
	enum store_status	 status = STORE_ERROR;
	char			*tmp = NULL;
	size_t			 len;
	int			 rc;

	if (!sqlite3_get_autocommit(s->db)) {
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

	rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s: %s", tmp, dst != NULL ?
		    sqlite3_errmsg(dst) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);

	/* One step copies every page under one read transaction. */
	if ((b = sqlite3_backup_init(dst, "main", s->db, "main")) == NULL) {
		store_seterr(s, "backup: %s", sqlite3_errmsg(dst));
		goto out;
	}
	do {
		rc = sqlite3_backup_step(b, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		store_seterr(s, "backup: %s", sqlite3_errstr(rc));
		goto out;
	}
	rc = sqlite3_close(dst);
	dst = NULL;
	if (rc != SQLITE_OK) {
		store_seterr(s, "backup: close: %s", sqlite3_errstr(rc));
		goto out;
	}
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
	if (dst != NULL)
		sqlite3_close(dst);
	if (status != STORE_OK)
		unlink(tmp);
	free(tmp);
	return status;
}

/* Run the integrity and foreign key checks. */
enum store_status
store_integrity_check(struct store *s)
{
	sqlite3_stmt		*st = NULL;
	enum store_status	 status = STORE_ERROR;
	const char		*text;
	int			 rc;

	rc = sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st,
	    NULL);
	if (rc != SQLITE_OK) {
		status = store_fail(s, rc, "integrity check");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		text = (const char *)sqlite3_column_text(st, 0);
		if (text == NULL || strcmp(text, "ok") != 0) {
			store_seterr(s, "integrity: %s",
			    text != NULL ? text : "?");
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		status = store_fail(s, rc, "integrity check");
		goto out;
	}
	sqlite3_finalize(st);

	/* Rows: table, rowid, parent table, constraint index. */
	rc = sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
	    NULL);
	if (rc != SQLITE_OK) {
		status = store_fail(s, rc, "foreign key check");
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_seterr(s, "foreign key: %s row %lld refers to a missing "
		    "%s", sqlite3_column_text(st, 0),
		    (long long)sqlite3_column_int64(st, 1),
		    sqlite3_column_text(st, 2));
		goto out;
	}
	if (rc != SQLITE_DONE) {
		status = store_fail(s, rc, "foreign key check");
		goto out;
	}
	status = STORE_OK;
out:
	sqlite3_finalize(st);
	return status;
}

/* Report the query plan of every statement. */
enum store_status
store_explain(struct store *s,
    void (*cb)(void *, const char *, bool, const char *), void *arg)
{
	sqlite3_stmt	*st = NULL;
	char		 sql[2048];
	int		 i, rc;

	for (i = ST_VERSION; i < ST_COUNT; i++) {
		snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s",
		    store_sql[i].sql);
		rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
		if (rc != SQLITE_OK)
			return store_fail(s, rc, store_sql[i].name);
		/* Rows: id, parent, unused, detail. */
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			cb(arg, store_sql[i].name, !store_sql[i].scan,
			    (const char *)sqlite3_column_text(st, 3));
		}
		sqlite3_finalize(st);
		st = NULL;
		if (rc != SQLITE_DONE)
			return store_fail(s, rc, store_sql[i].name);
	}
	return STORE_OK;
}
