#!/bin/sh
# tests/daemon-frame.sh: the daemon's frame: options, config errors, HTTP limits.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The daemon's frame end to end: the real corrchessd on a free loopback port
# (port = 0, read back from its log), driven by the real curl command.
# Options, config errors with file:line, the state directory and the admin
# token, keep-alive, /healthz, /metrics, SIGHUP and a clean SIGTERM.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl

# --- Options and configuration errors -----------------------------------

"$corrchessd" --version >"$tmp/out" 2>&1
check "--version" grep -q '^corrchessd [0-9]' "$tmp/out"

"$corrchessd" --dump-config-example >"$tmp/example"
check "the shipped example is the table's" cmp -s "$tmp/example" "$example"

"$corrchessd" --config "$example" --check-config >"$tmp/out" 2>&1
check "--check-config on the example" grep -qx "$example: ok" "$tmp/out"

printf '[server]\nport = 8080\n\nportt = 1\n' >"$tmp/bad.conf"
"$corrchessd" --config "$tmp/bad.conf" --check-config >"$tmp/out" 2>&1
status=$?
check "unknown key: exit 1" [ "$status" -eq 1 ]
check "unknown key: file:line" grep -q \
    "$tmp/bad.conf:4: unknown key 'portt' in section \[server\]" "$tmp/out"

printf '[server]\nmax_body_size = lots\n' >"$tmp/bad.conf"
"$corrchessd" --config "$tmp/bad.conf" >"$tmp/out" 2>&1
status=$?
check "bad value stops start-up" [ "$status" -eq 1 ]
check "bad value: file:line" grep -q \
    "$tmp/bad.conf:2: max_body_size: 'lots' is not a size" "$tmp/out"

"$corrchessd" --config "$tmp/missing.conf" >"$tmp/out" 2>&1
status=$?
check "missing --config file stops start-up" [ "$status" -eq 1 ]

# Log lines: plain text, or sd-daemon "<N>" prefixes when standard error
# is the journal stream that JOURNAL_STREAM names.
: >"$tmp/jlog"
JOURNAL_STREAM=$(stat -c %d:%i "$tmp/jlog") \
    "$corrchessd" --config "$tmp/bad.conf" 2>>"$tmp/jlog"
check "journal: <3> prefix" grep -q "^<3>$tmp/bad.conf:2: " "$tmp/jlog"
"$corrchessd" --config "$tmp/bad.conf" 2>"$tmp/out"
check "plain: name and level" grep -q "^corrchessd: error: $tmp/bad.conf:2: " \
    "$tmp/out"
JOURNAL_STREAM=1:1 "$corrchessd" --config "$tmp/bad.conf" 2>"$tmp/out"
check "journal: another stream is plain" grep -q "^corrchessd: error: " \
    "$tmp/out"

"$corrchessd" --bogus >"$tmp/out" 2>&1
status=$?
check "unknown option: exit 2 and usage" [ "$status" -eq 2 ]

# --- A running daemon ---------------------------------------------------

sed -e 's/^port = .*/port = 0/' -e 's/^connection_timeout = .*/connection_timeout = 2s/' \
    "$example" >"$tmp/test.conf"
cd "$tmp" || exit 1

# A relative --state-dir, created with its parents.
check "corrchessd starts" daemon_launch "$corrchessd" \
    --config "$tmp/test.conf" --state-dir ./state/dev || finish
check "state directory created" [ -d "$tmp/state/dev" ]
token_file=$tmp/state/dev/admin.token
check "admin token created" [ -f "$token_file" ]
check "admin token mode 0600" [ "$(stat -c %a "$token_file")" = 600 ]
check "state directory mode 0700" [ "$(stat -c %a "$tmp/state/dev")" = 700 ]
for f in corrchess.db corrchess.db-wal corrchess.db-shm; do
	check "$f mode 0600" [ "$(stat -c %a "$tmp/state/dev/$f")" = 600 ]
done
check "admin token is 64 hex digits" grep -qxE '[0-9a-f]{64}' "$token_file"
check "admin token path logged" grep -q \
    "admin token created in $token_file" "$tmp/log"
check "token not logged" sh -c "! grep -qF '$(cat "$token_file")' '$tmp/log'"

curl -s "$base/healthz" >"$tmp/out"
check "GET /healthz" grep -qx ok "$tmp/out"

# Two URLs in one curl command share one connection.
curl -sv "$base/healthz" "$base/api/v1" >"$tmp/out" 2>"$tmp/verbose"
check "keep-alive: connection reused" grep -q 'Re-using existing connection' \
    "$tmp/verbose"
check "keep-alive: one connect" [ "$(grep -c 'Connected to' "$tmp/verbose")" -eq 1 ]
# The two answers in a row: /healthz's "ok" line, then the JSON.
tail -n 1 "$tmp/out" >"$tmp/api.json"
same "GET /api/v1 names the API" "$(jget api "$tmp/api.json")" v1

req GET /api/v1/nope
check "404 status" [ "$code" = 404 ]
same "404 JSON error" "$(jget error.code)" not-found

req GET /api/v1/nope -H 'Accept: text/plain'
check "404 text/plain error" grep -qx 'error: no such resource: /api/v1/nope' \
    "$tmp/out"

req POST /healthz -D "$tmp/headers"
check "405 with Allow" grep -qi '^Allow: GET, HEAD' "$tmp/headers"

# (413, 401 and the slow client need routes that take a body or a token;
# tests/test_http covers them with its own route table.)

curl -s "$base/metrics" >"$tmp/out"
check "metrics: healthz counted" grep -q \
    '^corrchess_http_requests_total{route="GET /healthz",code="200"} 2$' \
    "$tmp/out"
check "metrics: 404 counted" grep -q \
    '^corrchess_http_requests_total{route="unmatched",code="404"} 2$' \
    "$tmp/out"

kill -HUP "$pid"
i=0
while ! grep -q 'SIGHUP' "$tmp/log" && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.05
done
check "SIGHUP logged" grep -q 'SIGHUP: reading' "$tmp/log"
curl -s "$base/healthz" >"$tmp/out"
check "serving after SIGHUP" grep -qx ok "$tmp/out"

# A second daemon on the same port fails with the reason.
sed -e "s/^port = .*/port = $port/" "$example" >"$tmp/same.conf"
"$corrchessd" --config "$tmp/same.conf" --state-dir ./state/dev \
    >"$tmp/out" 2>&1
status=$?
check "busy port: exit 1" [ "$status" -eq 1 ]
check "busy port: reason" grep -q 'Address already in use' "$tmp/out"

daemon_stop
check "SIGTERM: exit 0" [ "$status" -eq 0 ]
check "SIGTERM: logged" grep -q 'stopped' "$tmp/log"

# The token is kept across restarts.
before=$(cat "$token_file")
check "corrchessd starts again" daemon_launch "$corrchessd" \
    --config "$tmp/test.conf" --state-dir ./state/dev
check "admin token read back" grep -q "admin token read from" "$tmp/log"
check "admin token unchanged" [ "$(cat "$token_file")" = "$before" ]
kill -INT "$pid"
wait "$pid"
status=$?
pid=
check "SIGINT: exit 0" [ "$status" -eq 0 ]

# Looser modes found at start: warned about; a token others can read
# stops the start.
chmod 755 "$tmp/state/dev"
chmod 644 "$tmp/state/dev/corrchess.db"
check "corrchessd starts with loose modes" daemon_launch "$corrchessd" \
    --config "$tmp/test.conf" --state-dir ./state/dev
check "loose state directory: warned" grep -q \
    "state/dev is open to other local users (mode 0755): chmod 700 it" \
    "$tmp/log"
check "loose database: warned" grep -q \
    "corrchess.db is open to other local users (mode 0644): chmod 600 it" \
    "$tmp/log"
daemon_stop
for m in 640 604 660; do
	chmod "$m" "$token_file"
	"$corrchessd" --config "$tmp/test.conf" --state-dir ./state/dev \
	    >"$tmp/out" 2>&1
	status=$?
	check "admin token mode $m: exit 1" [ "$status" -eq 1 ]
	check "admin token mode $m: the reason" grep -q \
	    "admin.token: open to others than its owner (mode 0$m): chmod 600 it" \
	    "$tmp/out"
done

finish
