#!/bin/sh
# tests/pgenv.sh: a private PostgreSQL server for the tests on PostgreSQL.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A PostgreSQL cluster of its own in a temporary directory, listening on
# a Unix socket in that directory only (no TCP port, nothing under /etc;
# the package's own cluster, if any, is never used).
#
# usage: tests/pgenv.sh start DIR
#        tests/pgenv.sh stop DIR
#        tests/pgenv.sh available
#
# start DIR   runs initdb (locale C.UTF-8, UTF8, trust for the local
#             superuser "corrchess"), starts the server and waits for it,
#             then writes DIR/env: PG_BIN, PG_CONNINFO (a libpq connection
#             string for the database "corrchess"). DIR must be short (the
#             socket's path): use `mktemp -d /tmp/ccpg.XXXXXX`.
# stop DIR    stops the server (fast shutdown) and removes DIR.
# available   exits 0 when the PostgreSQL server programs are installed.
#
# PG_OPTIONS, when set, adds server options to start's ("-c name=value
# ...", as postgres takes them; bench/pg's STATEMENTS=1 loads
# pg_stat_statements with it).
#
# As root, initdb and the server run as the user "postgres" (initdb refuses
# root), on DIR chowned to it.

set -eu

die() {
	echo "pgenv: $*" >&2
	exit 1
}

# Print the directory of initdb and pg_ctl, or nothing.
pg_bin() {
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && last=$d
	done
	[ -n "${last:-}" ] && echo "$last"
	return 0
}

# Run a command as the cluster's owner.
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

cmd=${1:-}
bin=$(pg_bin)
case $cmd in
available)
	[ -n "$bin" ] && { [ "$(id -u)" -ne 0 ] || id postgres >/dev/null 2>&1; }
	exit $?
	;;
start)
	dir=${2:?usage: pgenv.sh start DIR}
	[ -n "$bin" ] || die "PostgreSQL is not installed (apt-get install postgresql)"
	mkdir -p "$dir"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
	as_owner "$bin/initdb" -D "$dir/data" -U corrchess --auth=trust \
	    --locale=C.UTF-8 -E UTF8 >"$dir/initdb.log" 2>&1 ||
	    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
	# No TCP: the socket in DIR is the only way in.
	if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
	    -t 60 -o "-c listen_addresses= -c unix_socket_directories=$dir \
	    -c max_connections=200 -c shared_buffers=32MB ${PG_OPTIONS:-}" start \
	    >/dev/null 2>&1; then
		cat "$dir/server.log" >&2
		die "the server did not start"
	fi
	"$bin/createdb" -h "$dir" -U corrchess corrchess 2>/dev/null ||
	    psql -h "$dir" -U corrchess -d postgres -qc \
	    'CREATE DATABASE corrchess' >/dev/null ||
	    die "cannot create the database"
	cat >"$dir/env" <<EOF
PG_BIN=$bin
PG_DIR=$dir
PG_CONNINFO='host=$dir user=corrchess dbname=corrchess'
EOF
	;;
stop)
	dir=${2:?usage: pgenv.sh stop DIR}
	if [ -d "$dir/data" ]; then
		as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop \
		    >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
	;;
*)
	die "usage: pgenv.sh start DIR | stop DIR | available"
	;;
esac
