# tests/lib.sh: what the integration scripts share.
# shellcheck shell=sh
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the integration scripts share, sourced after they set top_srcdir:
# the built programs, a temporary directory removed at exit, the
# check/pass/fail counters and the closing "N passed, N failed" line,
# corrchessd started on a free loopback port (port = 0, read back from its
# log) and stopped, curl requests to it, signed statements.

top_builddir=${top_builddir:-$top_srcdir}
corrchessd=$top_builddir/src/corrchessd
# shellcheck disable=SC2034 # used by the scripts
corrchess=$top_builddir/src/corrchess
# shellcheck disable=SC2034 # used by the scripts
example=$top_srcdir/conf/corrchessd.conf

passed=0
failed=0
# corrchessd's process, other background processes to kill at exit, a
# command the script runs at exit before they are killed, and one it runs
# after, before $tmp goes.
pid=
bg_pids=
before_exit=
at_exit=
tmp=$(mktemp -d)

# --- Valgrind -----------------------------------------------------------

# With CORRCHESS_VALGRIND=1, or VALGRIND holding a valgrind command,
# corrchessd and corrchess run under memcheck through two small wrappers
# in $tmp/vg (so every use of $corrchessd and $corrchess goes through
# it), one log per process in $tmp/vg/log.PID. At exit, once corrchessd
# has stopped, the script fails when a log reports a memory error or a
# definite or indirect leak with the project's code (src/) on its stack,
# and prints that record (a process with errors also exits 113, a status
# of its own). tests/valgrind.supp suppresses the known
# one-time allocations of the libraries. $slow scales the waits for
# corrchessd (it starts in seconds under valgrind, not milliseconds).
vg=
slow=1
if [ -n "${VALGRIND:-}" ]; then
	vg=$VALGRIND
elif [ "${CORRCHESS_VALGRIND:-0}" = 1 ]; then
	vg=valgrind
fi
if [ -n "$vg" ]; then
	if ! command -v "${vg%% *}" >/dev/null 2>&1; then
		echo "${vg%% *} not found: run .ci/install-deps" >&2
		rm -rf "$tmp"
		exit 1
	fi
	slow=10
	mkdir "$tmp/vg"
	for prog in corrchessd corrchess; do
		printf '%s\n' '#!/bin/sh' \
		    "exec $vg --quiet --leak-check=full \\" \
		    "    --errors-for-leak-kinds=definite,indirect \\" \
		    "    --error-exitcode=113 --fullpath-after= --num-callers=40 \\" \
		    "    --suppressions='$top_srcdir/tests/valgrind.supp' \\" \
		    "    --log-file='$tmp/vg/log.%p' \\" \
		    "    '$top_builddir/src/$prog' \"\$@\"" >"$tmp/vg/$prog"
		chmod +x "$tmp/vg/$prog"
	done
	corrchessd=$tmp/vg/corrchessd
	# shellcheck disable=SC2034 # used by the scripts
	corrchess=$tmp/vg/corrchess
fi

# vg_report LOG: print the error and leak records of a valgrind log that
# have a frame in the project's sources (src/); fail when there are none.
vg_report() {
	awk '
	function flush() {
		if (rec != "" && ours &&
		    head !~ /possibly lost|still reachable/) {
			printf "%s\n", rec
			found = 1
		}
		rec = ""
		head = ""
		ours = 0
	}
	{ sub(/^==[0-9]+== ?/, "") }
	/^$/ { flush(); next }
	{
		if (rec == "")
			head = $0
		rec = rec $0 "\n"
		if ($0 ~ /^ *(at|by) 0x/ && index($0, "/src/"))
			ours = 1
	}
	END { flush(); exit !found }' "$1"
}

# vg_check: print the valgrind records of the project's code from every
# log; fail when there is one.
vg_check() {
	[ -n "$vg" ] || return 0
	vg_bad=0
	for log in "$tmp"/vg/log.*; do
		[ -f "$log" ] || continue
		if vg_report "$log" >"$tmp/vg/report"; then
			echo "valgrind: $log" >&2
			cat "$tmp/vg/report" >&2
			vg_bad=1
		fi
	done
	[ "$vg_bad" -eq 0 ]
}

# Run $before_exit, kill corrchessd and the processes in $bg_pids, run
# $at_exit, check the valgrind logs, remove $tmp. The script's exit
# status stays, unless valgrind found something: then it is 1.
cleanup() {
	st=$?
	if [ -n "$before_exit" ]; then
		"$before_exit"
	fi
	for p in $pid $bg_pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	if [ -n "$at_exit" ]; then
		"$at_exit"
	fi
	if ! vg_check; then
		echo "FAIL: valgrind: errors or leaks in the project's code" >&2
		st=1
	fi
	rm -rf "$tmp"
	exit "$st"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# need PROGRAM...: each program must be on the PATH, or the test fails.
need() {
	for prog; do
		if ! command -v "$prog" >/dev/null 2>&1; then
			echo "$prog not found: run .ci/install-deps" >&2
			exit 1
		fi
	done
}

# run ARG...: run corrchess; its standard output goes to $tmp/out, its
# standard error to $tmp/err, its exit status to $status.
run() {
	"$corrchess" "$@" >"$tmp/out" 2>"$tmp/err"
	# shellcheck disable=SC2034 # read by the scripts
	status=$?
}

# --- Counters -----------------------------------------------------------

# ok NAME: one check passed. (A script may define its own ok and bad.)
ok() {
	passed=$((passed + 1))
}

# bad NAME: one check failed.
bad() {
	failed=$((failed + 1))
	echo "FAIL: $*" >&2
}

# check NAME COMMAND...: the command must succeed; fails as it does.
check() {
	name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		bad "$name"
		return 1
	fi
}

# same NAME GOT WANT: two strings must be equal.
same() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		bad "$1: got '$2', want '$3'"
	fi
}

# finish: print "N passed, N failed" and exit, 0 when nothing failed.
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

# --- The daemon ---------------------------------------------------------

# daemon_launch COMMAND...: run COMMAND (corrchessd, perhaps behind env)
# in the background, its standard error to $tmp/log, until it logs that
# it listens; set $pid, $port and $base. Fails with the log on standard
# error when corrchessd exits first or takes over $launch_wait seconds
# (10 by default; $slow times that under valgrind). The port is the
# logged one, a socket-activated one too.
daemon_launch() {
	: >"$tmp/log"
	"$@" 2>"$tmp/log" &
	pid=$!
	i=0
	while ! grep -q 'listening on' "$tmp/log"; do
		i=$((i + 1))
		if [ $i -gt $((20 * ${launch_wait:-10} * slow)) ] ||
		    ! kill -0 "$pid" 2>/dev/null; then
			echo "corrchessd did not start:" >&2
			cat "$tmp/log" >&2
			return 1
		fi
		sleep 0.05
	done
	port=$(sed -n 's/.*listening on .* port \([0-9][0-9]*\).*/\1/p' \
	    "$tmp/log")
	base=http://127.0.0.1:$port
	# Under valgrind a signal that comes before the main thread waits
	# for it can take its default action: give it time to get there.
	if [ -n "$vg" ]; then
		sleep 1
	fi
	[ -n "$port" ]
}

# pg_conf CONF STATE [SCHEMA]: with CORRCHESS_TEST_PG set
# (tests/store-pg.sh), point CONF's [storage] at PostgreSQL: a schema of
# its own for the state directory STATE, or SCHEMA (made on first use,
# kept across restarts).
pg_conf() {
	[ -n "${CORRCHESS_TEST_PG:-}" ] || return 0
	pg_schema=${3:-d$(printf '%s' "$2" | cksum | cut -d' ' -f1)}
	psql -X -q -d "$CORRCHESS_TEST_PG" -v ON_ERROR_STOP=1 \
	    -c "CREATE SCHEMA IF NOT EXISTS $pg_schema" >/dev/null 2>&1 || {
		echo "pg_conf: cannot make schema $pg_schema" >&2
		return 1
	}
	sed -i -e 's/^engine = .*/engine = postgresql/' \
	    -e "s|^conninfo =.*|conninfo = $CORRCHESS_TEST_PG options='-csearch_path=$pg_schema'|" \
	    "$1"
}

# waitfor SECONDS COMMAND...: until COMMAND succeeds, every 0.1 s (a
# script may define its own).
waitfor() {
	w=$(($1 * 10))
	shift
	while ! "$@"; do
		w=$((w - 1))
		[ $w -gt 0 ] || return 1
		sleep 0.1
	done
}

# server_on NAME SCHEMA [CONF]: one of several corrchessd on one schema of
# the PostgreSQL at $PG_CONNINFO: CONF (default the example) with port 0
# as $tmp/NAME.conf, the state directory $tmp/NAME (with the secrets of
# $tmp/a, the first one's: the admin token and the server's key), its log
# in $tmp/NAME.log; its pid and base URL in pid_NAME and base_NAME, the
# pid in $bg_pids too.
server_on() {
	sed -e 's/^port = .*/port = 0/' "${3:-$example}" >"$tmp/$1.conf"
	CORRCHESS_TEST_PG=$PG_CONNINFO pg_conf "$tmp/$1.conf" "$tmp/$1" "$2" ||
	    return 1
	mkdir -p -m 700 "$tmp/$1"
	if [ "$1" != a ]; then
		cp -p "$tmp/a/admin.token" "$tmp/a/server.key" "$tmp/$1/" ||
		    return 1
	fi
	daemon_launch "$corrchessd" --config "$tmp/$1.conf" \
	    --state-dir "$tmp/$1" || return 1
	mv "$tmp/log" "$tmp/$1.log"
	eval "pid_$1=\$pid base_$1=\$base"
	bg_pids="$bg_pids $pid"
	pid=
}

# daemon_start [VAR=VALUE...]: corrchessd with $tmp/test.conf on the state
# directory $tmp/state, its clock read from $tmp/clock, VAR=VALUE in its
# environment; set $pid, $port, $base and $token (the admin token).
daemon_start() {
	pg_conf "$tmp/test.conf" "$tmp/state" || return 1
	daemon_launch env CORRCHESSD_TEST_CLOCK_FILE="$tmp/clock" "$@" \
	    "$corrchessd" --config "$tmp/test.conf" \
	    --state-dir "$tmp/state" || return 1
	token=$(cat "$tmp/state/admin.token")
}

# daemon_stop: stop corrchessd with SIGTERM; its exit status goes to
# $status.
daemon_stop() {
	kill -TERM "$pid"
	wait "$pid"
	# shellcheck disable=SC2034 # read by the scripts
	status=$?
	pid=
}

# browser PHASE: run tests/browser.py PHASE on the state directory $tmp/b,
# counting its checks; it must exit 0.
browser() {
	python3 "$top_srcdir/tests/browser.py" "$1" "$tmp/b" >"$tmp/b.out" 2>&1
	st=$?
	while read -r word rest; do
		case $word in
		ok) ok "$rest" ;;
		FAIL) bad "browser: $rest" ;;
		screenshot) echo "$rest" ;;
		*) echo "$word $rest" >&2 ;;
		esac
	done <"$tmp/b.out"
	if [ "$st" -eq 0 ]; then
		ok "browser.py $1"
	else
		bad "browser.py $1 exited $st (the log: $tmp/b/chromium.log)"
	fi
}

# --- HTTP and JSON ------------------------------------------------------

# req METHOD PATH [CURL-ARG...]: the body goes to $tmp/out, the status to
# $code; a request takes $req_max_time seconds at most when it is set.
req() {
	method=$1
	path=$2
	shift 2
	# shellcheck disable=SC2034 # read by the scripts
	code=$(curl -s -o "$tmp/out" -w '%{http_code}' \
	    ${req_max_time:+--max-time "$req_max_time"} -X "$method" "$@" \
	    "$base$path")
}

# admin METHOD PATH [CURL-ARG...]: req with the admin token.
admin() {
	req "$@" -H "Authorization: Bearer $token"
}

# submit GAME [FILE]: post FILE ($tmp/body by default) as text/plain to
# the game's actions.
submit() {
	req POST "/api/v1/games/$1/actions" -H 'Content-Type: text/plain' \
	    --data-binary "@${2:-$tmp/body}"
}

# expect NAME STATUS [CODE]: the last answer (req) has STATUS, and the
# error CODE when given (a script may define its own).
expect() {
	if [ "$code" != "$2" ]; then
		bad "$1: status $code, want $2: $(cat "$tmp/out")"
		return
	fi
	if [ $# -ge 3 ] && [ "$(jget error.code)" != "$3" ]; then
		bad "$1: code '$(jget error.code)', want '$3': $(cat "$tmp/out")"
		return
	fi
	ok
}

# jget PATH [FILE]: the value at PATH of the JSON in FILE ($tmp/out by
# default), read by tests/jget (a real parser, jansson): keys and list
# indexes joined by dots from the top ("error.code", "games.0.id",
# "records.-1.hash"; "games.*.id" for each game's, one a line); a string
# as it is, a number, true, false or null as JSON, a list of those on one
# line with spaces between ("moves": e4 e5 Nf3). Nothing, and status 1,
# when PATH is not there.
jget() {
	"$top_builddir/tests/jget" "$1" "${2:-$tmp/out}"
}

# js EXPR [FILE]: for what a path cannot say (a count, a filter, a
# format), the value of a Python expression over the JSON in FILE
# ($tmp/out by default), named d, as Python prints it.
js() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print(eval(sys.argv[2]))' "${2:-$tmp/out}" "$1"
}

# --- Signed statements --------------------------------------------------

# statement GAME PLY PLAYER ACTION: write the five lines to $tmp/st.
statement() {
	printf 'corrchess-v1\ngame: %s\nply: %s\nplayer: %s\naction: %s\n' \
	    "$1" "$2" "$3" "$4" >"$tmp/st"
}

# players NAME...: for each, an SSH key $tmp/NAME and a player with it
# (the daemon running, the admin token in $token).
players() {
	for p; do
		ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
		admin POST /api/v1/players -d "{\"name\":\"$p\",
		    \"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
		expect "create $p" 201
	done
}

# sign_ssh KEY [NAMESPACE]: $tmp/body = $tmp/st and its SSH signature.
sign_ssh() {
	rm -f "$tmp/st.sig"
	ssh-keygen -q -Y sign -n "${2:-corrchess}" -f "$1" "$tmp/st" \
	    2>"$tmp/sshlog" || cat "$tmp/sshlog" >&2
	cat "$tmp/st" "$tmp/st.sig" >"$tmp/body"
}

# act_with KEY GAME PLAYER ACTION [MESSAGE]: sign ACTION (and a message
# line when MESSAGE is given) for the game's current ply as PLAYER with
# the SSH key KEY and submit it; the answer in $tmp/out and $code.
act_with() {
	req GET "/api/v1/games/$2"
	statement "$2" "$(jget ply)" "$3" "$4"
	if [ $# -ge 5 ]; then
		printf 'message: %s\n' "$5" >>"$tmp/st"
	fi
	sign_ssh "$1"
	submit "$2"
}

# act GAME PLAYER ACTION [MESSAGE]: act_with the player's key $tmp/PLAYER.
act() {
	act_with "$tmp/$2" "$@"
}

# play GAME PLAYER ACTION [MESSAGE]: act, which must be accepted (a
# script may define its own).
play() {
	act "$@"
	expect "game $1: $2 $3" 201
}
