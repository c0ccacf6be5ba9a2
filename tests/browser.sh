#!/bin/sh
# tests/browser.sh: enrol and play in a real browser against corrchessd.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The web front door in Debian's Chromium (headless, driven over the
# DevTools protocol by tests/browser.py), against the real corrchessd on a
# loopback port (http://127.0.0.1 is a secure context, so WebCrypto makes
# and uses keys there): alice and bob enrol by invitation from two browser
# profiles, each with a key the browser made and cannot export; game 1 is
# played to checkmate by clicking squares, game 2 promotes through the
# chooser, game 3 ends in a draw offered with a move and accepted, game 6
# is played by dragging with the mouse and a finger and by the keyboard,
# in game 7 alice signs conditional moves (refused ones with the API's
# reason, shown, cancelled, entered again) and bob's move is answered by
# them; the player waiting for the opponent has no move box and is told
# whose turn it is, and a move out of turn from a page left open shows the
# API's reason; the record verifies in the page (game 8 with an Xfcc move
# the server attested and the admin's adjudication, against the server's
# key) and fails to on a copy of the database with one byte changed;
# the French player's pages are in French; the game page has no
# horizontal scroll at 360 px; screenshots (desktop and phone, light and dark) are not blank
# and are kept in tests/screenshots/ of the build tree.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl chromium python3 sqlite3 ssh-keygen

sed -e 's/^port = .*/port = 0/' \
    -e '/^\[xfcc\]/,/^\[/s/^enabled = no$/enabled = yes/' "$example" \
    >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

# Players without keys: their browsers bring them.
admin POST /api/v1/players -d '{"name":"alice"}'
expect "create alice" 201
admin POST /api/v1/players -d '{"name":"bob","lang":"fr"}'
expect "create bob (French)" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 1" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "fen":"8/P6k/8/8/8/8/8/K7 w - - 0 1"}'
expect "game 2 (a promotion to come)" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 3" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 4" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "time_control":"10/50d","event":"Club championship"}'
expect "game 5" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 6 (by drag and keyboard)" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 7 (conditional moves)" 201

# Invitations, by the command and by the API.
mkdir "$tmp/b" "$tmp/b/profile-alice" "$tmp/b/profile-bob"
run admin invite -s "$base" -t "$tmp/state/admin.token" alice
same "corrchess admin invite" "$status" 0
sed -n 's|^\(http://.*/invite#[A-Za-z0-9_-]\{43\}\)$|\1|p' "$tmp/out" \
    >"$tmp/b/invite.alice"
check "the link printed" [ -s "$tmp/b/invite.alice" ]
admin POST /api/v1/players/bob/invitations -d '{"days":2}'
expect "invite bob by the API" 201
echo "$base$(jget path)" >"$tmp/b/invite.bob"
echo "$base" >"$tmp/b/base"
mkdir -p "$top_builddir/tests/screenshots"
echo "$top_builddir/tests/screenshots" >"$tmp/b/shots"
check "tokens are stored hashed" [ "$(sqlite3 "$tmp/state/corrchess.db" \
    "SELECT count(*) FROM invitations WHERE length(token_hash) = 32")" = 2 ]

browser enrol-play
same "a refused conditional: the API's reason in the page" \
    "$(cat "$tmp/b/cond-refusal")" \
    "lines 1 and 2 answer e5 in two ways (Nf3, d4): give one answer to each move"

# The used link, and the refusal the page showed, as the API says them.
tok=$(sed 's/.*#//' "$tmp/b/invite.alice")
req POST /api/v1/invitations -d "{\"token\":\"$tok\",
    \"key\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"}"
expect "the used invitation by the API" 410 invitation-used
same "the page showed the API's words" "$(cat "$tmp/b/used-message")" \
    "$(jget error.message)"
admin GET /api/v1/players/bob
check "bob's browser key registered" grep -q '"keys":\[{"id":' "$tmp/out"
# A second device, the old way: an SSH key.
ssh-keygen -q -t ed25519 -N '' -C bob -f "$tmp/bob"
admin POST /api/v1/players/bob/keys -d "{\"key\":\"$(cat "$tmp/bob.pub")\"}"
expect "bob adds an SSH key" 201
req GET /api/v1/games/4
statement 4 "$(jget ply)" bob "move e5"
sign_ssh "$tmp/bob"
submit 4
expect "not bob's turn, by curl" 409 not-your-turn
same "the page showed the API's reason" "$(cat "$tmp/b/refusal")" \
    "$(jget error.message)"
req GET /api/v1/games/1
same "game 1 ended by mate" "$(jget termination) $(jget result)" \
    "checkmate 0-1"
req GET /api/v1/games/2
check "game 2: a8=N" grep -q '"moves":\["a8=N' "$tmp/out"
req GET /api/v1/games/3
same "game 3 drawn by agreement" "$(jget result)" "1/2-1/2"

# Game 5: a few moves by SSH signatures, for the screenshots.
ssh-keygen -q -t ed25519 -N '' -C alice -f "$tmp/alice"
admin POST /api/v1/players/alice/keys -d "{\"key\":\"$(cat "$tmp/alice.pub")\"}"
expect "alice adds an SSH key" 201
n=0
for m in alice:e4 bob:c5 alice:Nf3 bob:d6 alice:d4 bob:cxd4 alice:Nxd4 \
    bob:Cf6 alice:Nc3; do
	statement 5 "$n" "${m%%:*}" "move ${m#*:}"
	sign_ssh "$tmp/${m%%:*}"
	submit 5
	expect "game 5 ply $n: $m" 201
	n=$((n + 1))
done

# Game 8: records the server signed. alice signs e4; bob plays e5 from a
# correspondence program (Xfcc: the server attests it); the admin
# adjudicates the game (the server signs the decision).
admin PATCH /api/v1/players/bob/doors \
    -d '{"xfcc":true,"xfcc_password":"bob-xfcc"}'
expect "bob opens the Xfcc door" 200
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "auth":"signed-or-attested"}'
expect "game 8 (attested moves)" 201
statement 8 0 alice "move e4"
sign_ssh "$tmp/alice"
submit 8
expect "game 8: alice e4, signed" 201
printf '<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<MakeAMove xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>bob</username><password>bob-xfcc</password><gameId>8</gameId><movecount>1</movecount><myMove>e5</myMove></MakeAMove>
</soap:Body></soap:Envelope>\n' >"$tmp/soap.xml"
req POST /xfccbasic.asmx -H 'Content-Type: text/xml; charset=utf-8' \
    --data-binary "@$tmp/soap.xml"
check "game 8: bob e5 by Xfcc" grep -q '<MakeAMoveResult>Success<' "$tmp/out"
admin POST /api/v1/games/8/adjudicate \
    -d '{"result":"1/2-1/2","reason":"a test of the records"}'
expect "game 8 adjudicated" 200
req GET /api/v1/games/8/records
same "game 8: the records' doors" "$(jget 'records.*.attested')" \
    "$(printf 'null\nxfcc\nnull')"

# A copy of the database with one byte of a statement changed, served by
# a second corrchessd (with the first one's key); in game 8, one byte of
# the attested move.
mkdir "$tmp/copy"
run admin backup -s "$base" -t "$tmp/state/admin.token" \
    "$tmp/copy/corrchess.db"
same "a copy of the database" "$status" 0
sqlite3 "$tmp/copy/corrchess.db" "UPDATE actions SET statement =
    replace(statement, 'move g2g4', 'move g2g3')
    WHERE game_id = 1 AND ply = 2"
check "one byte changed in the copy" [ "$(sqlite3 "$tmp/copy/corrchess.db" \
    "SELECT count(*) FROM actions WHERE statement LIKE '%move g2g3%'")" = 1 ]
sqlite3 "$tmp/copy/corrchess.db" "UPDATE actions SET statement =
    replace(statement, 'move e7e5', 'move e7e6') WHERE game_id = 8 AND ply = 1"
check "game 8's attested move changed in the copy" [ "$(sqlite3 \
    "$tmp/copy/corrchess.db" "SELECT count(*) FROM actions
    WHERE game_id = 8 AND statement LIKE '%move e7e6%'")" = 1 ]
# The same server key, so that only the byte changed fails.
cp -p "$tmp/state/server.key" "$tmp/copy/"
first_pid=$pid first_base=$base
cp "$tmp/test.conf" "$tmp/copy.conf"
daemon_launch "$corrchessd" --config "$tmp/copy.conf" --state-dir "$tmp/copy"
echo "$base" >"$tmp/b/tampered"
bg_pids="$bg_pids $pid"
pid=$first_pid base=$first_base

# An event of theirs, for its page on a phone.
admin POST /api/v1/events -d '{"name":"ladder","players":["alice","bob"],
    "format":"match","games":2}'
expect "an event of alice and bob" 201
admin POST /api/v1/events/ladder/start
expect "the event started" 200

browser after

finish
