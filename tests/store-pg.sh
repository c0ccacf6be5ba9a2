#!/bin/sh
# tests/store-pg.sh: the store on PostgreSQL: the same tests as on SQLite.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Starts a private PostgreSQL (tests/pgenv.sh) and runs against it what
# make check runs on SQLite: the store, service and clock test programs
# (each test in a schema of its own, asserting the same answers as on
# SQLite), tests/daemon.sh (the real corrchessd with [storage] engine =
# postgresql), then checks what is PostgreSQL's own: both engines hold
# the same tables, columns and indexes after their migrations, and
# `corrchess admin backup` names pg_dump. Without the PostgreSQL server
# programs (.ci/install-deps installs them) or a build without libpq the
# script says so and is counted as skipped (exit 77).

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl psql sqlite3 ssh-keygen

if ! sh "$top_srcdir/tests/pgenv.sh" available; then
	echo "SKIP: PostgreSQL's server programs are not installed" \
	    "(.ci/install-deps)" >&2
	rm -rf "$tmp"
	exit 77
fi
if ! grep -q '^#define HAVE_POSTGRESQL 1' "$top_builddir/config.h"; then
	echo "SKIP: built without PostgreSQL (configure found no libpq)" >&2
	rm -rf "$tmp"
	exit 77
fi

pgdir=$(mktemp -d /tmp/ccpg.XXXXXX)
# Stop the server at exit, whatever happened.
pg_stop() {
	sh "$top_srcdir/tests/pgenv.sh" stop "$pgdir"
}
at_exit=pg_stop
check "PostgreSQL starts" sh "$top_srcdir/tests/pgenv.sh" start "$pgdir" ||
    finish
. "$pgdir/env"

# --- The test programs and the daemon's suite -----------------------------

for t in test_store test_service test_clock; do
	if CORRCHESS_TEST_PG=$PG_CONNINFO "$top_builddir/tests/$t" \
	    >"$tmp/$t.log" 2>&1; then
		ok
	else
		bad "tests/$t on PostgreSQL:"
		grep -E 'FAILED|ERROR|LINE' "$tmp/$t.log" >&2
	fi
	grep -q 'engine: PostgreSQL' "$tmp/$t.log" || [ "$t" != test_store ] ||
	    bad "tests/test_store did not say it ran on PostgreSQL"
done

if CORRCHESS_TEST_PG=$PG_CONNINFO sh "$top_srcdir/tests/daemon.sh" \
    >"$tmp/daemon.log" 2>&1; then
	ok
else
	bad "tests/daemon.sh on PostgreSQL: $(tail -n 1 "$tmp/daemon.log")"
	grep '^FAIL' "$tmp/daemon.log" >&2
fi

# --- One schema on two engines --------------------------------------------

# A fresh database on each engine, made by corrchessd at its first start.
sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts on SQLite" daemon_start || finish
daemon_stop
CORRCHESS_TEST_PG=$PG_CONNINFO
check "corrchessd starts on PostgreSQL" daemon_start || finish
unset CORRCHESS_TEST_PG
check "its log names the engine, not the connection string" grep -q \
    'database on PostgreSQL' "$tmp/log"
check "...and no connection string" sh -c "! grep -qF '$pgdir' '$tmp/log'"

pgq() {
	psql -X -q -At -d "$PG_CONNINFO options='-csearch_path=$pg_schema'" \
	    -c "$1" | LC_ALL=C sort
}
sqq() {
	sqlite3 "$tmp/state/corrchess.db" "$1" | LC_ALL=C sort
}

# Tables and columns, and whether each may be NULL.
sqq "SELECT m.name || '.' || p.name || ' ' ||
    (p.\"notnull\" OR p.pk > 0) FROM sqlite_master m,
    pragma_table_info(m.name) p WHERE m.type = 'table'" >"$tmp/cols.sqlite"
pgq "SELECT table_name || '.' || column_name || ' ' ||
    CASE is_nullable WHEN 'NO' THEN 1 ELSE 0 END
    FROM information_schema.columns WHERE table_schema = current_schema()" \
    >"$tmp/cols.pg"
if [ -s "$tmp/cols.pg" ] && cmp -s "$tmp/cols.sqlite" "$tmp/cols.pg"; then
	ok
else
	bad "the engines' columns differ (SQLite <, PostgreSQL >):"
	diff "$tmp/cols.sqlite" "$tmp/cols.pg" >&2
fi

# Indexes by name (not those the engines make for keys and UNIQUE).
sqq "SELECT name FROM sqlite_master WHERE type = 'index'
    AND name NOT LIKE 'sqlite_autoindex%'" >"$tmp/idx.sqlite"
pgq "SELECT i.indexname FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND NOT EXISTS (SELECT 1
    FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) ||
    '.' || quote_ident(i.indexname))::regclass)" >"$tmp/idx.pg"
if [ -s "$tmp/idx.pg" ] && cmp -s "$tmp/idx.sqlite" "$tmp/idx.pg"; then
	ok
else
	bad "the engines' indexes differ (SQLite <, PostgreSQL >):"
	diff "$tmp/idx.sqlite" "$tmp/idx.pg" >&2
fi
same "the same schema version" "$(pgq 'SELECT version FROM schema_version')" \
    "$(sqq 'SELECT version FROM schema_version')"

# --- Backups are PostgreSQL's own ---------------------------------------

run admin backup -s "$base" -t "$tmp/state/admin.token" "$tmp/copy.db"
same "admin backup on PostgreSQL fails" "$status" 1
check "...naming pg_dump" grep -q 'pg_dump' "$tmp/err"
check "...and writes no file" test ! -e "$tmp/copy.db"
admin POST /api/v1/admin/backup
expect "POST /api/v1/admin/backup on PostgreSQL" 409 postgresql
daemon_stop

finish
