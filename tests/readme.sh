#!/bin/sh
# tests/readme.sh: the README's walk-through, on a port other than 8080.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The README's "A club in ten minutes" as a new admin follows it, with the
# server moved off 8080 by --port alone (no configuration file): the admin
# token, players with keys from `corrchess keygen` and ssh-keygen, a game,
# `corrchess move` and `corrchess show` finding the server through
# CORRCHESS_SERVER (then through -s and the client's configuration), the
# plain curl and ssh-keygen way, and `corrchess export`. --listen is
# checked on the same port, and the hint of a client that cannot reach
# its server; the documents a new user reads (help, corrchess(1), README,
# NEWS) and those make install puts under docdir.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# No configuration of the user running the tests is read.
HOME=$tmp/home
XDG_CONFIG_HOME=
export HOME XDG_CONFIG_HOME
unset CORRCHESS_CONFIG CORRCHESS_SERVER
mkdir -p "$HOME"
cd "$tmp" || exit 1

# A free port: one the kernel picks, then given by number.
check "corrchessd --listen 127.0.0.1:0" daemon_launch "$corrchessd" \
    --state-dir ./state --listen 127.0.0.1:0 || finish
free=$port
daemon_stop
check "corrchessd --port $free" daemon_launch "$corrchessd" \
    --state-dir ./state --port "$free" || finish
same "it listens on the port given" "$port" "$free"
check "not on 8080" [ "$port" != 8080 ]

# The walk-through.
export CORRCHESS_SERVER=http://127.0.0.1:$port
TOKEN=$(cat state/admin.token)
S=$CORRCHESS_SERVER/api/v1

check "keygen alice" sh -c "'$corrchess' keygen -f alice.key >alice.line \
    2>/dev/null"
ssh-keygen -q -t ed25519 -N '' -C bob -f bob
code=$(curl -s -o "$tmp/out" -w '%{http_code}' \
    -H "Authorization: Bearer $TOKEN" "$S/players" \
    -d "{\"name\":\"alice\",\"email\":\"alice@club.example\",\"keys\":[\"$(cat alice.line)\"]}")
same "alice registered" "$code" 201
code=$(curl -s -o "$tmp/out" -w '%{http_code}' \
    -H "Authorization: Bearer $TOKEN" "$S/players" \
    -d "{\"name\":\"bob\",\"email\":\"bob@club.example\",\"lang\":\"fr\",\"keys\":[\"$(cat bob.pub)\"]}")
same "bob registered" "$code" 201
code=$(curl -s -o "$tmp/out" -w '%{http_code}' \
    -H "Authorization: Bearer $TOKEN" "$S/games" \
    -d '{"white":"alice","black":"bob","time_control":"3d/move","event":"Club championship"}')
same "game 1 created" "$code" 201

run move -k alice.key -p alice 1 e4
same "corrchess move finds the server in CORRCHESS_SERVER" "$status" 0
run show 1
same "corrchess show 1" "$status" 0
check "show: the move played" grep -q '1\. e4' "$tmp/out"

curl -s -H 'Accept: text/plain' "$S/games/1" >"$tmp/out"
check "the text view names the statement to sign" \
    grep -q '^player: bob$' "$tmp/out"
printf 'corrchess-v1\ngame: 1\nply: 1\nplayer: bob\naction: move e5\n' \
    >move.txt
ssh-keygen -q -Y sign -n corrchess -f bob move.txt 2>/dev/null
code=$(cat move.txt move.txt.sig | curl -s -o "$tmp/out" \
    -w '%{http_code}' --data-binary @- "$S/games/1/actions")
same "bob's move by curl and ssh-keygen" "$code" 201

run export 1
same "corrchess export 1" "$status" 0
tr '\n' ' ' <"$tmp/out" | sed 's/{[^}]*}//g' >"$tmp/movetext"
check "export: the PGN's moves" grep -q ' 1\. e4 .*e5' "$tmp/movetext"
cp "$tmp/out" game1.pgn
run pgn game1.pgn
check "the export replays" grep -q '^game 1: result=\* plies=2' "$tmp/out"
run export --player bob
check "export --player: bob's game" grep -q '^\[Black "bob"\]' "$tmp/out"
run export 7
same "export of a game that does not exist" "$status" 1
run pgn 1
check "pgn 1 points to export" grep -q 'corrchess export 1' "$tmp/err"

# The server from -s, then from the client's configuration.
unset CORRCHESS_SERVER
run show -s http://127.0.0.1:1 1
same "a server that cannot be reached" "$status" 1
check "the client says how to name the server" grep -q \
    'CORRCHESS_SERVER, or server = in the configuration' "$tmp/err"
run show -s "http://127.0.0.1:$port" 1
same "show -s URL" "$status" 0
mkdir -p "$HOME/.config/corrchess"
echo "server = http://127.0.0.1:$port" >"$HOME/.config/corrchess/config"
run show 1
same "show with server = in the configuration" "$status" 0
CORRCHESS_SERVER=http://127.0.0.1:1 run show 1
same "CORRCHESS_SERVER wins over the configuration" "$status" 1
CORRCHESS_SERVER=http://127.0.0.1:1 run show -s "http://127.0.0.1:$port" 1
same "-s wins over CORRCHESS_SERVER" "$status" 0

# --listen ADDR:PORT on the same port.
daemon_stop
check "corrchessd --listen 127.0.0.1:$free" daemon_launch "$corrchessd" \
    --state-dir ./state --listen "127.0.0.1:$free" || finish
same "--listen's port" "$port" "$free"
run show 1
same "the game is still there" "$status" 0
daemon_stop
"$corrchessd" --listen 'x:' >"$tmp/out" 2>"$tmp/err"
same "--listen with an empty port is a usage error" "$?" 2
"$corrchessd" --state-dir ./state --port 99999 --check-config \
    >"$tmp/out" 2>"$tmp/err"
same "--port out of range" "$?" 1
check "and says so" grep -q "out of range" "$tmp/err"

# The documents a new user reads list what the programs do.
run help act
check "corrchess help act names leave" grep -q 'leave FROM TO' "$tmp/out"
check "doc/api.md's action table has leave" \
    grep -q '^| `leave YYYY-MM-DD YYYY-MM-DD` |' "$top_srcdir/doc/api.md"
for cmd in 'mail\\-move' export 'admin backup'; do
	check "corrchess(1)'s synopsis has $cmd" \
	    grep -q "^\.B corrchess $cmd\$" "$top_srcdir/doc/corrchess.1"
done
check "corrchess(1)'s configuration has admin_token_file" \
    grep -q '^\.BI "admin_token_file = " file' "$top_srcdir/doc/corrchess.1"
same "README shows the command overview once" \
    "$(grep -c 'corrchess --help | --version' "$top_srcdir/README")" 1
same "NEWS describes 0.1.0 once" \
    "$(grep -c '^0\.1\.0' "$top_srcdir/NEWS")" 1
# make install puts the players' documents under docdir.
make -s -C "$top_builddir" install-dist_docDATA DESTDIR="$tmp/inst" \
    >/dev/null 2>&1
for f in api.md mail.md signatures.md xfcc.md openapi.yaml; do
	check "make install: $f under docdir" \
	    sh -c "ls '$tmp'/inst/*/share/doc/corrchess/$f '$tmp'/inst/*/*/share/doc/corrchess/$f 2>/dev/null | grep -q ."
done

finish
