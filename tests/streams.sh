#!/bin/sh
# tests/streams.sh: live event streams read with curl -N while others move.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd on a free loopback port; streams read by the real
# curl -N (NDJSON and, with Accept: text/event-stream, SSE) while moves,
# a draw offer and its refusal, a resignation and a new game are made by
# another curl with ssh-keygen signatures: the game comes first, then each
# event once it committed, on the game's streams and on both players';
# keep-alives come while nothing happens; unknown games and players are
# 404; a client that leaves is noticed at the next keep-alive;
# `corrchess follow` prints a game's events and a player's in words
# and ends with the game or on Ctrl-C; a reader that stops reading is cut
# off at 64 KiB unsent while another reads on; the streams end when the
# server stops. Run by `make check`; prints
# "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# listen NAME PATH [CURL-ARG...]: read a stream into $tmp/NAME in the
# background; its curl's pid in $tmp/NAME.pid.
listen() {
	n=$1
	p=$2
	shift 2
	curl -sN "$@" "$base$p" >"$tmp/$n" 2>/dev/null &
	echo $! >"$tmp/$n.pid"
}

# has FILE TEXT: the stream holds TEXT.
has() {
	grep -qF "$2" "$tmp/$1"
}

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

players alice bob
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "create a game" 201
g=$(jget id)

req GET /api/v1/games/999/stream
expect "a stream of no game" 404 no-such-game
req GET /api/v1/players/nobody/stream
expect "a stream of no player" 404 no-such-player

listen nd "/api/v1/games/$g/stream"
listen sse "/api/v1/games/$g/stream" -H 'Accept: text/event-stream'
listen bobs /api/v1/players/bob/stream
listen bobsse /api/v1/players/bob/stream -H 'Accept: text/event-stream'
check "NDJSON: the game first" waitfor 10 has nd '"type":"game"'
check "SSE: the game first" waitfor 10 has sse 'event: game'
check "the player's stream opens" waitfor 10 has bobs '"type":"player"'
check "the first line is the whole game" sh -c \
    "head -n 1 '$tmp/nd' | grep -q '\"ply\":0'"
curl -s -D "$tmp/hdr" -o /dev/null --max-time 2 "$base/api/v1/games/$g/stream"
check "NDJSON: its content type" grep -qi \
    '^content-type: application/x-ndjson' "$tmp/hdr"
curl -s -D "$tmp/hdr" -o /dev/null --max-time 2 \
    -H 'Accept: text/event-stream' "$base/api/v1/games/$g/stream"
check "SSE: its content type" grep -qi '^content-type: text/event-stream' \
    "$tmp/hdr"
admin GET /metrics
check "/metrics counts the open streams" grep -q \
    '^corrchess_streams_open [3-9]' "$tmp/out"

play "$g" alice "move e4" "Good luck!"
check "NDJSON: alice's move" waitfor 10 has nd \
    '"type":"move","game":'"$g"',"white":"alice","black":"bob","ply":1'
check "NDJSON: the move's SAN" has nd '"san":"e4"'
check "SSE: the move as an event" waitfor 10 has sse 'event: move'
check "SSE: its data line" sh -c "grep -q '^data: {\"type\":\"move\"' \
    '$tmp/sse'"
check "bob's stream: alice's move" waitfor 10 has bobs '"san":"e4"'
# The message sent with the move: an event after it, as the game's JSON
# has it (record, from, kind, text).
check "NDJSON: alice's message" waitfor 10 has nd \
    '"type":"message","game":'"$g"',"white":"alice","black":"bob","ply":1'
check "NDJSON: the message's sender, record, action and text" sh -c \
    "grep '\"type\":\"message\"' '$tmp/nd' | grep -q \
    '\"by\":\"white\",.*\"record\":1,\"from\":\"alice\",\"kind\":\"move\",\"text\":\"Good luck!\"'"
same "NDJSON: the message comes after its move" "$(grep -o \
    '"type":"[a-z]*"' "$tmp/nd" | sed -n 2,3p | tr '\n' ' ')" \
    '"type":"move" "type":"message" '
check "SSE: the message as an event" waitfor 10 has sse 'event: message'
check "bob's stream: alice's message" waitfor 10 has bobs \
    '"text":"Good luck!"'

play "$g" bob "move e5 offer-draw"
check "the offer comes after the move" waitfor 10 has nd '"type":"offer"'
check "bob's stream: his offer" waitfor 10 has bobs '"type":"offer"'
play "$g" alice "decline-draw"
check "the offer declined" waitfor 10 has nd '"type":"decline"'
play "$g" alice "resign"
check "the end, with the result" waitfor 10 has nd \
    '"type":"end"'
check "the end: 0-1 by resignation" sh -c "grep '\"type\":\"end\"' \
    '$tmp/nd' | grep -q '\"result\":\"0-1\",\"termination\":\"resignation\"'"
same "each event once" "$(grep -c '"type":"move"' "$tmp/nd")" 2

# Another game: bob hears it start on his stream.
admin POST /api/v1/games -d '{"white":"bob","black":"alice"}'
expect "create a second game" 201
g2=$(jget id)
check "bob's stream: the new game" waitfor 10 has bobs \
    '"type":"start","game":'"$g2"
check "the first game's stream hears nothing of the second" sh -c \
    "! grep -q '\"game\":$g2' '$tmp/nd'"

# Nothing happens: keep-alives (an empty line, an SSE comment).
lines=$(wc -l <"$tmp/nd")
check "NDJSON: a keep-alive line" waitfor 15 sh -c \
    "[ \$(grep -c '^\$' '$tmp/nd') -ge 1 ]"
check "SSE: a keep-alive comment" waitfor 15 has sse ': keep-alive'
check "SSE, bob's stream: a keep-alive comment" waitfor 15 has bobsse \
    ': keep-alive'
check "keep-alives add no event" [ "$(grep -c '^{' "$tmp/nd")" -eq \
    "$(head -n "$lines" "$tmp/nd" | grep -c '^{')" ]

# A refused action sends nothing.
before=$(wc -c <"$tmp/bobs")
statement "$g2" 5 bob "move e4"
sign_ssh "$tmp/bob"
submit "$g2"
expect "a stale statement" 409 stale-ply
play "$g2" bob "move d4"
check "the next event arrives" waitfor 10 has bobs '"san":"d4"'
# An SSE event after a keep-alive: its "event:" field starts its line (a
# byte left after the keep-alive would make EventSource miss its type).
check "SSE: the event after a keep-alive arrives" waitfor 10 has bobsse \
    '"san":"d4"'
same "SSE: the event after a keep-alive names its type" "$(tr '\000' @ \
    <"$tmp/bobsse" | grep -B 1 '"san":"d4"' | head -n 1)" "event: move"
same "SSE: no NUL byte in the stream" "$(tr -d '\000' <"$tmp/bobsse" |
    wc -c)" "$(wc -c <"$tmp/bobsse")"
check "nothing of the refused one" sh -c \
    "! grep -q '\"game\":$g2[^}]*\"san\":\"e4\"' '$tmp/bobs'"
check "bob's stream held events before" [ "$before" -gt 0 ]

# corrchess follow: the game in words, each event as it commits, and
# the end of the game ends it; a player's games in French (lang = fr in
# the configuration file) until Ctrl-C.
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "create a third game" 201
g3=$(jget id)
"$corrchess" follow -s "$base" "$g3" >"$tmp/follow" 2>"$tmp/follow.err" &
fpid=$!
printf 'lang = fr\n' >"$tmp/client.conf"
CORRCHESS_CONFIG=$tmp/client.conf "$corrchess" follow -s "$base" \
    --player bob >"$tmp/followfr" 2>"$tmp/followfr.err" &
frpid=$!
check "follow: the game first" waitfor 10 grep -qx \
    "Game $g3: alice v bob, ply 0; alice to move" "$tmp/follow"
check "follow --player: the player's games" waitfor 10 grep -qx \
    "Les parties de bob, en direct." "$tmp/followfr"
play "$g3" alice "move Nf3" "Have fun"
check "follow: a move in words" waitfor 10 grep -q \
    "^Game $g3, ply 1: alice (White) played Nf3; bob to move$" \
    "$tmp/follow"
check "follow: the message after it" waitfor 10 grep -qx \
    "Game $g3: alice writes: Have fun" "$tmp/follow"
check "follow --player in French: the message" waitfor 10 grep -qx \
    "Partie $g3 : alice écrit : Have fun" "$tmp/followfr"
check "follow --player in French: the move with French letters" \
    waitfor 10 grep -q \
    "^Partie $g3, demi-coup 1 : alice (Blancs) a joué Cf3 ; au tour de bob$" \
    "$tmp/followfr"
play "$g3" bob "move d5 offer-draw"
check "follow: the offer" waitfor 10 grep -qx "Game $g3: bob offers a draw" \
    "$tmp/follow"
check "follow --player in French: « d'alice » before a vowel" \
    waitfor 10 grep -qx \
    "Partie $g3, demi-coup 2 : bob (Noirs) a joué d5 ; au tour d'alice" \
    "$tmp/followfr"
check "follow: the process still runs while the game does" kill -0 "$fpid"
play "$g3" alice "resign"
check "follow: the end in words" waitfor 10 grep -qx \
    "Game $g3 is over: 0-1, resignation" "$tmp/follow"
check "follow: it ends with the game" waitfor 10 sh -c \
    "! kill -0 $fpid 2>/dev/null"
wait "$fpid"
same "follow: exit 0 at the game's end" "$?" 0
check "follow: nothing on standard error" [ ! -s "$tmp/follow.err" ]
check "follow --player in French: the end" waitfor 10 grep -qx \
    "Partie $g3 terminée : 0-1, abandon" "$tmp/followfr"
check "follow --player: still running after a game's end" kill -0 "$frpid"
kill -INT "$frpid"
wait "$frpid"
same "follow --player: Ctrl-C ends it, exit 0" "$?" 0
"$corrchess" follow -s "$base" "$g3" >"$tmp/follow" 2>"$tmp/follow.err"
same "follow of a finished game: exit 0 at once" "$?" 0
check "follow of a finished game: how it ended" grep -qx \
    "Game $g3: alice v bob, ply 2; over: 0-1, resignation" "$tmp/follow"
# The first line gives the deadline as the events do (the game's JSON
# says it as an ISO time, the events in seconds).
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "time_control":"3d/move"}'
expect "create a game of three days a move" 201
g4=$(jget id)
iso=$(jget deadline)
dl=$(LC_ALL=C date -u -d "$iso" '+%A %-d %B %Y, %H:%M UTC')
dlfr=$(LC_ALL=C date -u -d "$iso" '+%-d [a-zéû]* %Y, %H:%M UTC')
"$corrchess" follow -s "$base" "$g4" >"$tmp/follow4" 2>&1 &
f4=$!
"$corrchess" follow -s "$base" --lang fr "$g4" >"$tmp/follow4fr" 2>&1 &
f4fr=$!
check "follow: the first line gives the deadline" waitfor 10 grep -qx \
    "Game $g4: alice v bob, ply 0; alice to move, by $dl" "$tmp/follow4"
check "follow in French: the first line gives the deadline" waitfor 10 \
    grep -qx "Partie $g4 : alice – bob, demi-coup 0 ; au tour d'alice, \
avant le [a-z]* $dlfr" "$tmp/follow4fr"
kill -INT "$f4" "$f4fr"
wait "$f4" "$f4fr"
"$corrchess" follow -s "$base" 999 >/dev/null 2>"$tmp/follow.err"
same "follow of no game: exit 1" "$?" 1
check "follow of no game: the server's reason" grep -q "999" \
    "$tmp/follow.err"
"$corrchess" follow -s "$base" >/dev/null 2>&1
same "follow with no game: exit 2" "$?" 2

# A reader that stops reading: once 64 KiB wait unsent for it, the
# server ends its stream and counts it; a reader that reads goes on.
# The slow one asks for a small receive window and reads nothing after
# its first line; the admin makes games for bob (each a "start" event on
# bob's stream, about 300 bytes) until the server has ended it.
listen bobs2 /api/v1/players/bob/stream
check "a second reader of bob's stream" waitfor 10 has bobs2 \
    '"type":"player"'
# A client that leaves: the keep-alive after it left asks its socket and
# closes its stream, with no push sent to it (libmicrohttpd alone would
# notice at the second or third push). Two keep-alives on every stream
# first, so that the clients that left before (the content types' curl
# --max-time) are gone; then one more client comes and goes, and two
# keep-alives later the streams open are as before.
ka=$(grep -c '^$' "$tmp/bobs2")
check "two keep-alives have passed every stream" waitfor 25 sh -c \
    "[ \$(grep -c '^\$' '$tmp/bobs2') -gt $((ka + 1)) ]"
admin GET /metrics
open0=$(sed -n 's/^corrchess_streams_open //p' "$tmp/out")
curl -s -o "$tmp/leaver" --max-time 2 "$base/api/v1/players/alice/stream"
check "a client that reads a stream, then leaves" has leaver '"type":"player"'
ka=$(grep -c '^$' "$tmp/bobs2")
check "two more keep-alives" waitfor 25 sh -c \
    "[ \$(grep -c '^\$' '$tmp/bobs2') -gt $((ka + 1)) ]"
admin GET /metrics
same "its stream is closed at the next keep-alive" \
    "$(sed -n 's/^corrchess_streams_open //p' "$tmp/out")" "$open0"
closed0=$(sed -n 's/^corrchess_streams_closed_total //p' "$tmp/out")
python3 - "$port" "$token" >"$tmp/slow" 2>&1 <<'PY'
import http.client, json, socket, sys, time
port, token = int(sys.argv[1]), sys.argv[2]
slow = socket.socket()
slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
slow.connect(('127.0.0.1', port))
slow.sendall(b'GET /api/v1/players/bob/stream HTTP/1.1\r\n'
             b'Host: 127.0.0.1\r\n\r\n')
got = b''
while b'"type":"player"' not in got:
    got += slow.recv(4096)
admin = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
auth = {'Authorization': 'Bearer ' + token}
def closed():
    admin.request('GET', '/metrics', headers=auth)
    for line in admin.getresponse().read().decode().splitlines():
        if line.startswith('corrchess_streams_closed_total '):
            return int(line.split()[1])
before, made = closed(), 0
while closed() == before and made < 20000:
    for _ in range(50):
        admin.request('POST', '/api/v1/games', headers=auth, body=json.dumps(
            {'white': 'alice', 'black': 'bob'}))
        r = admin.getresponse()
        r.read()
        if r.status != 201:
            sys.exit('a game was refused: %d' % r.status)
        made += 1
# What the slow reader gets now ends: read it all to the end (the
# keep-alives would keep a stream that was not ended open).
slow.settimeout(1)
total, until = len(got), time.time() + 30
while time.time() < until:
    try:
        b = slow.recv(65536)
    except socket.timeout:
        continue
    if not b:
        break
    total += len(b)
    # The chunked answer's end: the connection may stay open after it.
    if b.endswith(b'0\r\n\r\n'):
        break
else:
    sys.exit('the slow stream was not ended (%d games, %d closed, %d bytes'
             ' read)' % (made, closed() - before, total))
print('read %d in %.1f s' % (total, time.time() - until + 30), file=sys.stderr)
admin = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
print('games %d closed %d read %d' % (made, closed() - before, total))
PY
sed -n 's/^games \([0-9]*\) .*/\1/p' "$tmp/slow" >"$tmp/slow.games"
check "the slow reader's stream is ended by the server" grep -q \
    '^games [0-9]* closed 1 read [0-9]*$' "$tmp/slow"
cat "$tmp/slow"
admin GET /metrics
check "/metrics counts it among the closed streams" [ \
    "$(sed -n 's/^corrchess_streams_closed_total //p' "$tmp/out")" -gt \
    "$closed0" ]
admin POST /api/v1/games -d '{"white":"bob","black":"alice"}'
expect "one more game" 201
gl=$(jget id)
check "the reader that reads still gets every game" waitfor 20 has bobs2 \
    '"type":"start","game":'"$gl"','
check "the reader that reads has every start" [ \
    "$(grep -c '"type":"start"' "$tmp/bobs2")" -ge "$(cat "$tmp/slow.games")" ]

# The server stops: every stream ends, and curl with it.
daemon_stop
same "corrchessd stops cleanly with streams open" "$status" 0
for n in nd sse bobs bobsse bobs2; do
	check "the $n stream ends with the server" waitfor 10 sh -c \
	    "! kill -0 $(cat "$tmp/$n.pid") 2>/dev/null"
done
finish
