#!/bin/bash
# tests/abuse.sh: the real corrchessd under slowloris, idle sockets from many addresses, oversized requests.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Abuse: the real corrchessd on a free loopback port under a slowloris
# attack (ABUSE_SLOW connections, default 300, more than the example's
# max_connections of 256, each sending its request headers a byte a second,
# from one bash process through /dev/tcp) and a stream of oversized
# requests (bodies past max_body_size: 413, declared or chunked; headers
# past max_header_size: 431), while well-behaved clients read games and
# play signed moves. Every well-behaved request must succeed (within a
# generous timeout: no timing assertions); their latency is printed, with
# and without the attack, for the record. The slow connections come from
# 127.0.0.1, the oversized requests from 127.0.0.3, the well-behaved
# clients from 127.0.0.2: max_connections_per_ip keeps the slow address
# from holding more than its share, so the others are served. Everything
# stays on the loopback interface; the attack lasts until the well-behaved
# clients are done, ABUSE_SECONDS (default 40) at most, longer than a
# well-behaved request may wait (15 seconds), so that a server shut out by
# the attack fails the test instead of serving everyone once it ends. The
# well-behaved clients stop at their first failure.
#
# Then the many-address attack (tests/abuse-load.py): ABUSE_SOCKETS slow
# and idle sockets (default 340) over 17 loopback addresses, each closed
# by request_timeout and opened again at once, while a probe from
# 127.0.0.4 sends ABUSE_PROBES requests (default 100), one at a time:
# at least 99% must be answered (within 5 s each); their latency is
# printed. The test runs with request_timeout = 3s to stay short; the
# 2,000-socket figure with the defaults is bench/abuse's.
#
# Prints the figures and "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need curl python3
# corrchessd may take 20 s to start on a loaded machine.
launch_wait=20
nslow=${ABUSE_SLOW:-300}
seconds=${ABUSE_SECONDS:-40}

# Well-behaved requests, per run: reads and signed moves.
nreads=60
# The moves (a Ruy Lopez), signed beforehand, one per request.
read -r -a moves <<'EOF'
e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 h6 d4 Re8
EOF
nmoves=${#moves[@]}

bg=()
# stop_attack: at exit, the attackers stop before corrchessd does.
# shellcheck disable=SC2317 # run at exit by tests/lib.sh
stop_attack() {
	local p
	touch "$tmp/stop"
	for p in "${bg[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
before_exit=stop_attack

# good FILE CURL-ARG...: one well-behaved request from 127.0.0.2; appends
# "STATUS SECONDS" to FILE; fails unless the status is 200 or 201.
good() {
	local f=$1
	shift
	curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
	    --interface 127.0.0.2 --max-time 15 "$@" >>"$f"
	tail -n 1 "$f" | grep -q '^20[01] '
}

# well_behaved NAME GAME: $nreads reads of the game and the listing,
# and $nmoves signed moves of GAME; one "STATUS SECONDS" line each in
# $tmp/NAME.
well_behaved() {
	local name=$1 g=$2 i
	: >"$tmp/$name"
	for ((i = 0; i < nreads; i++)); do
		if ((i % 2 == 0)); then
			good "$tmp/$name" "$base/api/v1/games/$g" || return
		else
			good "$tmp/$name" "$base/api/v1/games" || return
		fi
	done
	for ((i = 0; i < nmoves; i++)); do
		good "$tmp/$name" -H 'Content-Type: text/plain' \
		    --data-binary "@$tmp/st/$g/$i" \
		    "$base/api/v1/games/$g/actions" || return
	done
}

# served NAME: every request of the run answered 200 or 201; print the
# count and the latency (min, median, max) in milliseconds.
served() {
	local name=$1 n good
	n=$(wc -l <"$tmp/$name" | tr -d ' ')
	good=$(grep -c '^20[01] ' "$tmp/$name")
	same "$name: well-behaved requests served" "$good/$((nreads + nmoves))" \
	    "$((nreads + nmoves))/$((nreads + nmoves))"
	if [ "$good" != "$n" ]; then
		echo "$name: statuses:" "$(cut -d' ' -f1 "$tmp/$name" | sort |
		    uniq -c | tr '\n' ' ')" >&2
	fi
	cut -d' ' -f2 "$tmp/$name" | sort -n | awk -v name="$name" -v g="$good" \
	    -v n="$n" '{ t[NR] = $1 * 1000 } END {
		printf "%s: %d/%d served; latency ms: min %.1f, median %.1f, " \
		    "max %.1f\n", name, g, n, t[1], t[int((NR + 1) / 2)], t[NR]
	    }'
}

# new_game: create a game and sign its moves; print its number.
new_game() {
	local g p player
	curl -s -o "$tmp/out" -X POST -H "Authorization: Bearer $token" \
	    -d '{"white":"alice","black":"bob"}' "$base/api/v1/games"
	g=$(jget id "$tmp/out")
	mkdir -p "$tmp/st/$g"
	for ((p = 0; p < nmoves; p++)); do
		if ((p % 2 == 0)); then player=alice; else player=bob; fi
		"$corrchess" sign -k "$tmp/$player" --game "$g" --ply "$p" \
		    -p "$player" move "${moves[p]}" >"$tmp/st/$g/$p"
	done
	echo "$g"
}

# slowloris N: open N connections from 127.0.0.1, each starting a request
# and then sending one more byte of a header line every second, until
# $tmp/stop appears or $seconds pass. Writes the number opened to
# $tmp/slow.opened and the number the server closed to $tmp/slow.closed.
slowloris() {
	local n=$1 i fd fds=() closed=() t=0
	trap '' PIPE
	for ((i = 0; i < n; i++)); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || break
		printf 'GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' \
		    2>/dev/null 1>&"$fd"
		fds+=("$fd")
	done
	# Two rounds of bytes: the connections refused are found closed.
	for t in 1 2; do
		for i in "${!fds[@]}"; do
			[ -n "${closed[i]:-}" ] && continue
			printf 'x' 2>/dev/null 1>&"${fds[i]}" || closed[i]=1
		done
		sleep 0.2
	done
	t=0
	echo "${#fds[@]}" >"$tmp/slow.opened"
	# Past the deadline in any case: request_timeout must close them.
	while { [ ! -e "$tmp/stop" ] || [ "$t" -lt $((rtimeout + 3)) ]; } &&
	    [ "$t" -lt "$seconds" ]; do
		for i in "${!fds[@]}"; do
			[ -n "${closed[i]:-}" ] && continue
			printf 'x' 2>/dev/null 1>&"${fds[i]}" || closed[i]=1
		done
		sleep 1
		t=$((t + 1))
	done
	echo "${#closed[@]}" >"$tmp/slow.closed"
	for fd in "${fds[@]}"; do
		exec {fd}>&-
	done
}

# oversized: until $tmp/stop appears or $seconds pass, send requests past
# the limits in turn; one status a line in $tmp/big.STATUS-WANTED.
oversized() {
	local t0=$SECONDS
	while [ ! -e "$tmp/stop" ] && [ $((SECONDS - t0)) -lt "$seconds" ]; do
		curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 \
		    --interface 127.0.0.3 \
		    -H 'Content-Type: text/plain' --data-binary "@$tmp/bigbody" \
		    "$base/api/v1/games/1/actions" >>"$tmp/big.413"
		curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 \
		    --interface 127.0.0.3 \
		    -H 'Content-Type: text/plain' \
		    -H 'Transfer-Encoding: chunked' \
		    --data-binary "@$tmp/bigbody" \
		    "$base/api/v1/games/1/actions" >>"$tmp/big.413-chunked"
		curl -s -o /dev/null -w '%{http_code}\n' --max-time 30 \
		    --interface 127.0.0.3 \
		    -H "X-Big: $bigheader" "$base/api/v1/games/1" \
		    >>"$tmp/big.431"
	done
}

# --- Setting up ---------------------------------------------------------

rtimeout=3
sed -e 's/^port = .*/port = 0/' \
    -e "s/^request_timeout = .*/request_timeout = ${rtimeout}s/" \
    "$example" >"$tmp/test.conf"
if ! daemon_launch "$corrchessd" --config "$tmp/test.conf" \
    --state-dir "$tmp/state"; then
	echo "0 passed, 1 failed"
	exit 1
fi
token=$(cat "$tmp/state/admin.token")
max_body=$(sed -n 's/^max_body_size = //p' "$tmp/test.conf")
max_conn=$(sed -n 's/^max_connections = //p' "$tmp/test.conf")
per_ip=$(sed -n 's/^max_connections_per_ip = //p' "$tmp/test.conf")
for p in alice bob; do
	"$corrchess" keygen -f "$tmp/$p" -C "$p@example.org" >/dev/null 2>&1
	curl -s -o /dev/null -X POST -H "Authorization: Bearer $token" \
	    -d "{\"name\":\"$p\",\"keys\":[\"$(cat "$tmp/$p.pub")\"]}" \
	    "$base/api/v1/players"
done
# A body twice max_body_size (64K in the example), a header past 8K.
head -c 131072 /dev/zero | tr '\0' x >"$tmp/bigbody"
bigheader=$(head -c 10000 /dev/zero | tr '\0' y)

# The limits answer as documented, one request at a time.
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/bigbody" "$base/api/v1/games/1/actions")
same "a body past max_body_size ($max_body)" "$code" 413
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: text/plain' \
    -H 'Transfer-Encoding: chunked' --data-binary "@$tmp/bigbody" \
    "$base/api/v1/games/1/actions")
same "a chunked body past max_body_size" "$code" 413
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $bigheader" \
    "$base/api/v1/games")
same "a header past max_header_size" "$code" 431

# --- Without, then under attack -----------------------------------------

g=$(new_game)
well_behaved quiet "$g"
served quiet

g=$(new_game)
rm -f "$tmp/stop"
slowloris "$nslow" &
bg+=($!)
i=0
while [ ! -s "$tmp/slow.opened" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
oversized &
bg+=($!)
sleep 1
req_conn=$(curl -s "$base/metrics" --interface 127.0.0.2 |
    sed -n 's/^corrchess_http_connections \([0-9]*\).*/\1/p')
well_behaved attack "$g"
served attack
touch "$tmp/stop"
for p in "${bg[@]}"; do
	wait "$p"
done
bg=()

opened=$(cat "$tmp/slow.opened" 2>/dev/null || echo 0)
nclosed=$(cat "$tmp/slow.closed" 2>/dev/null || echo 0)
same "slowloris: connections opened" "$opened" "$nslow"
same "slowloris: every one closed by the server (request_timeout)" \
    "$nclosed" "$opened"
# A server that refuses a body it will not read may close the connection
# while the client still sends it: the client then sees a reset (curl's
# 000) instead of the 413. That is a refusal too; any other answer fails.
for want in 413 413-chunked 431; do
	n=$(wc -l <"$tmp/big.$want" | tr -d ' ')
	m=$(grep -c "^${want%-chunked}$" "$tmp/big.$want")
	r=$(grep -c '^000$' "$tmp/big.$want")
	same "oversized requests refused (${want}: ${want%-chunked} or reset)" \
	    "$((m + r))" "$n"
	same "oversized requests answered ${want%-chunked} (${want})" \
	    "$([ "$m" -gt 0 ] && echo some || echo none)" some
	echo "oversized ($want): $m/$n answered ${want%-chunked}, $r reset"
done
echo "slowloris: $opened connections opened (max_connections $max_conn," \
    "max_connections_per_ip ${per_ip:-unset}), $nclosed closed by the" \
    "server during the attack; connections counted by /metrics under" \
    "attack: ${req_conn:-?}"

# --- Many addresses, slow and idle sockets ------------------------------

python3 "$top_srcdir/tests/abuse-load.py" "$port" "${ABUSE_SOCKETS:-340}" 17 \
    "${ABUSE_PROBES:-100}" 1 5 127.0.0.4 >"$tmp/load" 2>&1
cat "$tmp/load"
share=$(sed -n 's/^probe: served \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' \
    "$tmp/load")
check "many addresses: the probe served at least 99%" \
    awk -v s="${share:-0 1}" 'BEGIN { split(s, a, " ");
	exit !(a[2] > 0 && a[1] * 100 >= a[2] * 99) }'
curl -s -o "$tmp/out" --interface 127.0.0.4 "$base/metrics"
check "many addresses: connections past request_timeout counted" grep -q \
    '^corrchess_http_deadline_closed_total [1-9]' "$tmp/out"

# --- After the attack ---------------------------------------------------

code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$base/healthz")
same "after the attack: /healthz" "$code" 200
if kill -0 "$pid" 2>/dev/null; then ok; else bad "corrchessd died"; fi
curl -s -o "$tmp/out" "$base/api/v1/games/$g"
same "after the attack: every signed move played" "$(jget ply "$tmp/out")" \
    "$nmoves"

finish
