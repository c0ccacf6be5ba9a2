#!/bin/sh
# tests/systemd.sh: corrchessd as a system service, without systemd.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# corrchessd as a system service, end to end without systemd: the
# notification protocol (tests/notifylisten stands in for the manager's
# socket: READY=1, WATCHDOG=1, RELOADING=1, STOPPING=1), socket activation
# (tests/listenfd passes a listening socket as fd 3), SIGHUP applying the
# reloadable keys and naming the others, --check-config and --version, and
# the shipped corrchessd.conf(5) against the table of keys.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need curl
notifylisten=$top_builddir/tests/notifylisten
listenfd=$top_builddir/tests/listenfd
manpage=$top_srcdir/doc/corrchessd.conf.5

# wait_for FILE PATTERN [COUNT]: wait (10 s at most) until FILE has COUNT
# (default 1) lines matching the extended regular expression PATTERN.
wait_for() {
	i=0
	while [ "$(grep -cE "$2" "$1" 2>/dev/null)" -lt "${3:-1}" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.05
	done
	return 0
}

# listen_notify NAME: start the stand-in notification socket NAME,
# recording into $tmp/notify.
listen_notify() {
	: >"$tmp/notify"
	"$notifylisten" "$1" "$tmp/notify" 60 &
	bg_pids=$!
	wait_for "$tmp/notify" '^LISTENING$'
}

# stop_notify: stop the stand-in socket.
stop_notify() {
	kill "$bg_pids" 2>/dev/null
	wait "$bg_pids" 2>/dev/null
	bg_pids=
}

# --- Options and the manual page ----------------------------------------

"$corrchessd" --version >"$tmp/out" 2>&1
status=$?
check "--version: exit 0" [ "$status" -eq 0 ]
check "--version: name and version" grep -qE '^corrchessd [0-9]+\.[0-9]+' \
    "$tmp/out"

"$corrchessd" --check-config --config "$example" >"$tmp/out" 2>&1
status=$?
check "--check-config: exit 0 on the example" [ "$status" -eq 0 ]
check "--check-config: ok" grep -qx "$example: ok" "$tmp/out"
printf '[log]\nlevel = loud\n' >"$tmp/bad.conf"
"$corrchessd" --check-config --config "$tmp/bad.conf" >"$tmp/out" 2>&1
status=$?
check "--check-config: exit 1 on a bad value" [ "$status" -eq 1 ]
check "--check-config: file:line of the bad value" grep -q \
    "$tmp/bad.conf:2:" "$tmp/out"

"$corrchessd" --dump-config-man >"$tmp/man" 2>&1
check "the shipped corrchessd.conf.5 is the table's (make update-conf)" \
    cmp -s "$tmp/man" "$manpage"
check "corrchessd.conf.5 documents every key of the example" sh -c '
	for k in $(sed -n "s/^\([a-z_]*\) =.*/\1/p" "$1"); do
		grep -qx "\.B $k" "$2" || { echo "missing $k" >&2; exit 1; }
	done' sh "$example" "$tmp/man"
check "corrchessd.conf.5 marks log level as reloadable" sh -c \
    'grep -A4 -x "\.B level" "$1" | grep -q "(SIGHUP)"' sh "$tmp/man"
check "corrchessd.conf.5 does not mark port as reloadable" sh -c \
    '! grep -A4 -x "\.B port" "$1" | grep -q "(SIGHUP)"' sh "$tmp/man"

sed -e 's/^port = .*/port = 0/' -e 's/^connection_timeout = .*/connection_timeout = 2s/' \
    "$example" >"$tmp/test.conf"
cd "$tmp" || exit 1

# --- Notifications: READY, WATCHDOG, RELOADING, STOPPING ----------------

if listen_notify "$tmp/notify.sock"; then ok; else bad "notify socket"; fi
if daemon_launch env NOTIFY_SOCKET="$tmp/notify.sock" \
    WATCHDOG_USEC=400000 "$corrchessd" --config "$tmp/test.conf" --state-dir ./state; then
	ok
else
	bad "corrchessd starts under NOTIFY_SOCKET"
	echo "$passed passed, $failed failed"
	exit 1
fi
check "READY=1 sent" wait_for "$tmp/notify" '^READY=1$'
check "READY=1 once the listener is up" curl -sf -o /dev/null \
    "http://127.0.0.1:$port/healthz"
check "WATCHDOG=1 pings" wait_for "$tmp/notify" '^WATCHDOG=1$' 3
check "watchdog interval logged as half WATCHDOG_USEC" grep -q \
    'watchdog: pinging every 200 ms' "$tmp/log"

# SIGHUP: the log level and request lines apply, the port waits.
sed -e 's/^level = .*/level = debug/' -e 's/^requests = .*/requests = yes/' \
    -e 's/^port = .*/port = 1/' "$tmp/test.conf" >"$tmp/new.conf"
cp "$tmp/new.conf" "$tmp/test.conf"
kill -HUP "$pid"
check "RELOADING=1 on SIGHUP" wait_for "$tmp/notify" '^RELOADING=1$'
check "READY=1 again after the reload" wait_for "$tmp/notify" '^READY=1$' 2
check "SIGHUP: level applied" grep -q \
    'SIGHUP: \[log\] level changed; applied' "$tmp/log"
check "SIGHUP: requests applied" grep -q \
    'SIGHUP: \[log\] requests changed; applied' "$tmp/log"
check "SIGHUP: port needs a restart" grep -q \
    'SIGHUP: \[server\] port changed; it takes effect at the next start' \
    "$tmp/log"
check "SIGHUP: nothing to reopen for standard error" grep -q \
    'nothing to reopen' "$tmp/log"
curl -s "http://127.0.0.1:$port/healthz" >"$tmp/out"
check "still serving on the old port after SIGHUP" grep -qx ok "$tmp/out"
check "request lines logged after SIGHUP" wait_for "$tmp/log" \
    'GET /healthz.*200'

# A file with an error keeps the running configuration.
printf '[log]\nlevel = loud\n' >"$tmp/test.conf"
kill -HUP "$pid"
check "SIGHUP with a bad file keeps the configuration" wait_for "$tmp/log" \
    'keeping the running configuration'
check "serving after a bad SIGHUP" curl -sf -o /dev/null \
    "http://127.0.0.1:$port/healthz"
cp "$tmp/new.conf" "$tmp/test.conf"

daemon_stop
check "exit 0 after SIGTERM" [ "$status" -eq 0 ]
check "STOPPING=1 on SIGTERM" wait_for "$tmp/notify" '^STOPPING=1$'
stop_notify

# An abstract socket name; WATCHDOG_PID naming another process.
sed -e 's/^port = .*/port = 0/' "$tmp/new.conf" >"$tmp/test.conf"
if listen_notify "@corrchess-test-$$"; then ok; else bad "abstract socket"; fi
if daemon_launch env NOTIFY_SOCKET="@corrchess-test-$$" \
    WATCHDOG_USEC=400000 WATCHDOG_PID=1 "$corrchessd" --config "$tmp/test.conf" \
    --state-dir ./state; then
	ok
else
	bad "corrchessd starts with an abstract NOTIFY_SOCKET"
fi
check "READY=1 on an abstract socket" wait_for "$tmp/notify" '^READY=1$'
check "no watchdog for another WATCHDOG_PID" sh -c \
    '! grep -q "watchdog:" "$1"' sh "$tmp/log"
daemon_stop
check "STOPPING=1 on an abstract socket" wait_for "$tmp/notify" \
    '^STOPPING=1$'
stop_notify

# Without NOTIFY_SOCKET nothing is sent and nothing complains.
if daemon_launch "$corrchessd" --config "$tmp/test.conf" \
    --state-dir ./state; then
	ok
else
	bad "corrchessd starts without NOTIFY_SOCKET"
fi
daemon_stop
check "no notify warning outside systemd" sh -c \
    '! grep -qi "notify" "$1"' sh "$tmp/log"

# --- Socket activation --------------------------------------------------

# The configured port (1) would need privileges: only fd 3 can work.
sed -e 's/^port = .*/port = 1/' "$tmp/new.conf" >"$tmp/test.conf"
if daemon_launch "$listenfd" "$tmp/port" "$corrchessd" --config "$tmp/test.conf" \
    --state-dir ./state; then
	ok
else
	bad "corrchessd starts with LISTEN_FDS=1"
fi
check "socket activation logged" grep -q 'socket-activated fd 3' "$tmp/log"
check "the logged port is the passed socket's" [ "$port" = "$(cat "$tmp/port")" ]
curl -s "http://127.0.0.1:$(cat "$tmp/port")/healthz" >"$tmp/out"
check "serving on the passed socket" grep -qx ok "$tmp/out"
daemon_stop
check "socket activation: exit 0 after SIGTERM" [ "$status" -eq 0 ]

# LISTEN_PID of another process: the variables are not ours; bind as
# configured.
sed -e 's/^port = .*/port = 0/' "$tmp/new.conf" >"$tmp/test.conf"
if daemon_launch env LISTENFD_PID=1 "$listenfd" "$tmp/port" "$corrchessd" \
    --config "$tmp/test.conf" --state-dir ./state; then
	ok
else
	bad "corrchessd starts with LISTEN_PID of another process"
fi
check "another LISTEN_PID: binds its own port" [ "$port" != "$(cat "$tmp/port")" ]
daemon_stop

# Two sockets: corrchessd serves one, and says so.
LISTENFD_COUNT=2 "$listenfd" "$tmp/port" "$corrchessd" \
    --config "$tmp/test.conf" --state-dir ./state >"$tmp/out" 2>&1
status=$?
check "LISTEN_FDS=2: exit 1" [ "$status" -eq 1 ]
check "LISTEN_FDS=2: reason" grep -q '2 sockets passed' "$tmp/out"

finish
