#!/bin/sh
# tests/stop.sh: SIGTERM with streams open, moves in flight and slow clients.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd on a free loopback port, with request_timeout and
# connection_timeout at a minute, so that a stop which waited for them
# would show. While four streams are read with curl -N, a client sends
# half a request and stops, another holds an idle keep-alive connection,
# and 100 signed moves (one a game) are posted at once by curl, SIGTERM
# comes once the first move is answered. corrchessd must exit 0 within
# stop_timeout (5 s, and well before the minute), its log saying what it
# waited for; each stream ends cleanly (curl exits 0: the chunked answer
# was ended, not cut); each move is answered 201 or not at all (the
# connection closed), never an error; and, started again on the same
# database, every move answered 201 is there and no move that was not
# answered is. Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen python3

n=${STOP_MOVES:-100}
sed -e 's/^port = .*/port = 0/' \
    -e 's/^connection_timeout = .*/connection_timeout = 60s/' \
    -e 's/^request_timeout = .*/request_timeout = 60s/' \
    "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "the example sets stop_timeout to 5s" grep -qx 'stop_timeout = 5s' \
    "$tmp/test.conf"
check "corrchessd starts" daemon_start || finish

players alice bob
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
	g=$(jget id)
	echo "$g" >>"$tmp/games"
	statement "$g" 0 alice "move e4"
	sign_ssh "$tmp/alice"
	mv "$tmp/body" "$tmp/move.$g"
done
same "$n games made" "$(wc -l <"$tmp/games" | tr -d ' ')" "$n"
g1=$(head -n 1 "$tmp/games")

# listen NAME PATH [CURL-ARG...]: read a stream into $tmp/NAME in the
# background; curl's exit status goes to $tmp/NAME.rc when it ends.
listen() {
	name=$1
	p=$2
	shift 2
	(curl -sN "$@" "$base$p" >"$tmp/$name" 2>/dev/null
	    echo $? >"$tmp/$name.rc") &
}
listen nd "/api/v1/games/$g1/stream"
listen sse "/api/v1/games/$g1/stream" -H 'Accept: text/event-stream'
listen bob /api/v1/players/bob/stream
listen bobsse /api/v1/players/bob/stream -H 'Accept: text/event-stream'
check "the streams open" waitfor 10 sh -c "grep -q '\"type\":\"game\"' \
    '$tmp/nd' && grep -q 'event: game' '$tmp/sse' &&
    grep -q '\"type\":\"player\"' '$tmp/bob' &&
    grep -q 'event: player' '$tmp/bobsse'"

# Two clients that would hold a stop: half a request, and a connection
# idle after its answer. Each says "closed" when the server closes it.
python3 - "$port" "$tmp/slow" <<'EOF' &
import socket, sys, threading
port, out = int(sys.argv[1]), sys.argv[2]
def client(name, first):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(first)
    with open(out + "." + name, "w") as f:
        f.write("sent\n")
    s.settimeout(120)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    with open(out + "." + name, "a") as f:
        f.write("closed\n")
threads = [threading.Thread(target=client, args=a) for a in (
    ("half", b"POST /api/v1/games/1/actions HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: text/plain\r\nContent-Length: 300\r\n\r\ncorrchess"),
    ("idle", b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))]
for t in threads:
    t.start()
for t in threads:
    t.join()
EOF
bg_pids="$bg_pids $!"
check "the slow clients are connected" waitfor 10 sh -c \
    "grep -qs sent '$tmp/slow.half' && grep -qs sent '$tmp/slow.idle'"

# The moves, all at once; SIGTERM once the first is answered.
while read -r g; do
	curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 \
	    -H 'Content-Type: text/plain' --data-binary "@$tmp/move.$g" \
	    "$base/api/v1/games/$g/actions" >"$tmp/code.$g" 2>/dev/null &
done <"$tmp/games"
check "a first move is answered" waitfor 30 sh -c \
    "cat '$tmp'/code.* | grep -q 201"
kill -TERM "$pid"
check "corrchessd exits within stop_timeout" waitfor $((8 * slow)) sh -c \
    "! kill -0 $pid 2>/dev/null"
wait "$pid"
same "corrchessd exits 0" "$?" 0
pid=
check "the log says SIGTERM" grep -q 'SIGTERM: stopping' "$tmp/log"
check "the log says what the stop waited for" grep -q \
    'http: stopping: [0-9]* requests\{0,1\} in progress ([0-9]* waiting for the writer), 4 streams ended, [0-9]* idle or unfinished connections\{0,1\} closed' \
    "$tmp/log"
check "the log says when it stopped" grep -q 'http: stopped in [0-9.]*s' \
    "$tmp/log"
check "no answer was left unsent" sh -c \
    "! grep -q 'still unsent\|still waiting for the writer' '$tmp/log'"
for s in nd sse bob bobsse; do
	check "the $s stream ends cleanly (curl exits 0)" waitfor 10 sh -c \
	    "[ \"\$(cat '$tmp/$s.rc' 2>/dev/null)\" = 0 ]"
done
check "the half-sent request's connection is closed" waitfor 10 \
    grep -q closed "$tmp/slow.half"
check "the idle connection is closed" waitfor 10 \
    grep -q closed "$tmp/slow.idle"
# Each curl has written its status (000: no answer) once it ended.
check "every move's curl ends" waitfor 30 sh -c \
    "[ \"\$(cat '$tmp'/code.* | wc -l)\" -eq $n ]"
cat "$tmp"/code.* | sort | uniq -c >"$tmp/codes"
echo "answers to the $n moves (000: the connection closed):"
cat "$tmp/codes"
check "each move is answered 201 or not at all" sh -c \
    "! cat '$tmp'/code.* | grep -qv '^201$\|^000$'"
grep "stopping\|stopped" "$tmp/log"
cp "$tmp/log" "$tmp/log.first"

check "corrchessd starts again on the same database" daemon_start || finish
lost=0 extra=0
while read -r g; do
	req GET "/api/v1/games/$g"
	if [ "$(cat "$tmp/code.$g")" = 201 ]; then
		[ "$(jget ply)" = 1 ] || lost=$((lost + 1))
	else
		[ "$(jget ply)" = 0 ] || extra=$((extra + 1))
	fi
done <"$tmp/games"
same "every move answered 201 is kept" "$lost" 0
same "no move is kept that was not answered" "$extra" 0
daemon_stop
same "the second stop, idle, exits 0" "$status" 0
finish
