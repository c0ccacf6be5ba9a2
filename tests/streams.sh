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
# 404; the streams end when the server stops. Run by `make check`; prints
# "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# act GAME PLAYER ACTION: sign ACTION for the game's ply and submit it.
act() {
	req GET "/api/v1/games/$1"
	statement "$1" "$(jval ply)" "$2" "$3"
	sign_ssh "$tmp/$2"
	submit "$1"
	expect "game $1: $2 $3" 201
}

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
g=$(jval id)

req GET /api/v1/games/999/stream
expect "a stream of no game" 404 no-such-game
req GET /api/v1/players/nobody/stream
expect "a stream of no player" 404 no-such-player

listen nd "/api/v1/games/$g/stream"
listen sse "/api/v1/games/$g/stream" -H 'Accept: text/event-stream'
listen bobs /api/v1/players/bob/stream
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

act "$g" alice "move e4"
check "NDJSON: alice's move" waitfor 10 has nd \
    '"type":"move","game":'"$g"',"white":"alice","black":"bob","ply":1'
check "NDJSON: the move's SAN" has nd '"san":"e4"'
check "SSE: the move as an event" waitfor 10 has sse 'event: move'
check "SSE: its data line" sh -c "grep -q '^data: {\"type\":\"move\"' \
    '$tmp/sse'"
check "bob's stream: alice's move" waitfor 10 has bobs '"san":"e4"'

act "$g" bob "move e5 offer-draw"
check "the offer comes after the move" waitfor 10 has nd '"type":"offer"'
check "bob's stream: his offer" waitfor 10 has bobs '"type":"offer"'
act "$g" alice "decline-draw"
check "the offer declined" waitfor 10 has nd '"type":"decline"'
act "$g" alice "resign"
check "the end, with the result" waitfor 10 has nd \
    '"type":"end"'
check "the end: 0-1 by resignation" sh -c "grep '\"type\":\"end\"' \
    '$tmp/nd' | grep -q '\"result\":\"0-1\",\"termination\":\"resignation\"'"
same "each event once" "$(grep -c '"type":"move"' "$tmp/nd")" 2

# Another game: bob hears it start on his stream.
admin POST /api/v1/games -d '{"white":"bob","black":"alice"}'
expect "create a second game" 201
g2=$(jval id)
check "bob's stream: the new game" waitfor 10 has bobs \
    '"type":"start","game":'"$g2"
check "the first game's stream hears nothing of the second" sh -c \
    "! grep -q '\"game\":$g2' '$tmp/nd'"

# Nothing happens: keep-alives (an empty line, an SSE comment).
lines=$(wc -l <"$tmp/nd")
check "NDJSON: a keep-alive line" waitfor 15 sh -c \
    "[ \$(grep -c '^\$' '$tmp/nd') -ge 1 ]"
check "SSE: a keep-alive comment" waitfor 15 has sse ': keep-alive'
check "keep-alives add no event" [ "$(grep -c '^{' "$tmp/nd")" -eq \
    "$(head -n "$lines" "$tmp/nd" | grep -c '^{')" ]

# A refused action sends nothing.
before=$(wc -c <"$tmp/bobs")
statement "$g2" 5 bob "move e4"
sign_ssh "$tmp/bob"
submit "$g2"
expect "a stale statement" 409 stale-ply
act "$g2" bob "move d4"
check "the next event arrives" waitfor 10 has bobs '"san":"d4"'
check "nothing of the refused one" sh -c \
    "! grep -q '\"game\":$g2[^}]*\"san\":\"e4\"' '$tmp/bobs'"
check "bob's stream held events before" [ "$before" -gt 0 ]

# The server stops: every stream ends, and curl with it.
daemon_stop
same "corrchessd stops cleanly with streams open" "$status" 0
for n in nd sse bobs; do
	check "the $n stream ends with the server" waitfor 10 sh -c \
	    "! kill -0 $(cat "$tmp/$n.pid") 2>/dev/null"
done
finish
