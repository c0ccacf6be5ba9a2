/*
 * tests/testpg.h: a fresh PostgreSQL database for each test, when asked.
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
 * tests/store-pg.sh runs the store, service and clock test programs a
 * second time with CORRCHESS_TEST_PG set to a libpq connection string (a
 * private server of tests/pgenv.sh). Where a test opens ":memory:" or a
 * new file, it then opens test_db_fresh(): a schema of its own, made here
 * and named first in the connection's search_path, so that every test
 * starts from an empty database as it does on SQLite.
 */

#ifndef CORRCHESS_TESTPG_H
#define CORRCHESS_TESTPG_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef HAVE_POSTGRESQL
#include <libpq-fe.h>
#endif

#ifdef HAVE_POSTGRESQL
/* Drop the server's notices. */
static inline void
test_pg_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}
#endif

/* Return the connection string of the tests' PostgreSQL, or NULL. */
static inline const char *
test_pg(void)
{
	const char	*c = getenv("CORRCHESS_TEST_PG");

	return c != NULL && *c != '\0' ? c : NULL;
}

/*
 * Write into buf the store path of a new empty database: on PostgreSQL
 * (CORRCHESS_TEST_PG set) a new schema; otherwise `sqlite`, a file path or
 * ":memory:". Fails the test when the schema cannot be made.
 */
static inline const char *
test_db_fresh(char *buf, size_t size, const char *sqlite)
{
#ifdef HAVE_POSTGRESQL
	static unsigned	 n;
	const char	*conninfo = test_pg();
	PGconn		*c;
	PGresult	*r;
	char		 sql[160], name[48];
	int		 ok;

	if (conninfo != NULL) {
		snprintf(name, sizeof name, "t%ld_%u", (long)getpid(), ++n);
		c = PQconnectdb(conninfo);
		if (PQstatus(c) != CONNECTION_OK)
			fail_msg("PostgreSQL: %s", PQerrorMessage(c));
		snprintf(sql, sizeof sql, "DROP SCHEMA IF EXISTS %s CASCADE; "
		    "CREATE SCHEMA %s", name, name);
		PQsetNoticeProcessor(c, test_pg_quiet, NULL);
		r = PQexec(c, sql);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
		if (!ok)
			fail_msg("PostgreSQL: %s", PQerrorMessage(c));
		PQfinish(c);
		snprintf(buf, size, "postgresql:%s options='-csearch_path=%s'",
		    conninfo, name);
		return buf;
	}
#else
	if (test_pg() != NULL)
		fail_msg("CORRCHESS_TEST_PG is set, but this build has no "
		    "PostgreSQL (config.h included first?)");
#endif
	snprintf(buf, size, "%s", sqlite);
	return buf;
}

/* The same, with the SQLite file corrchess.db in directory `dir`. */
static inline const char *
test_db_in(char *buf, size_t size, const char *dir)
{
	char	file[400];

	snprintf(file, sizeof file, "%s/corrchess.db", dir);
	return test_db_fresh(buf, size, file);
}

#ifdef HAVE_POSTGRESQL
/*
 * Run SQL on a store path of test_db_fresh() (PostgreSQL) behind the
 * store's back; with `arg`, the query's first column of its first row as
 * an integer (-1 when it fails or has no row), and $1 is `arg`.
 */
static inline long
test_pg_run(const char *path, const char *sql, const char *arg)
{
	PGconn		*c;
	PGresult	*r;
	long		 v = -1;

	c = PQconnectdb(path + strlen("postgresql:"));
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("PostgreSQL: %s", PQerrorMessage(c));
	PQsetNoticeProcessor(c, test_pg_quiet, NULL);
	if (arg == NULL) {
		r = PQexec(c, sql);
		if (PQresultStatus(r) != PGRES_COMMAND_OK &&
		    PQresultStatus(r) != PGRES_TUPLES_OK)
			fail_msg("%s: %s", sql, PQerrorMessage(c));
		v = 0;
	} else {
		r = PQexecParams(c, sql, 1, NULL, &arg, NULL, NULL, 0);
		if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
			v = strtol(PQgetvalue(r, 0, 0), NULL, 10);
	}
	PQclear(r);
	PQfinish(c);
	return v;
}
#endif

#endif /* CORRCHESS_TESTPG_H */
