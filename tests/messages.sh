#!/bin/sh
# tests/messages.sh: messages to the opponent, signed with the actions.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd, curl, ssh-keygen and the corrchess client: a
# "message:" line after the action, signed with it (ssh-keygen's block,
# the JSON body the web page posts, corrchess move -m); its faults
# refused with their reasons; the messages in the game's JSON and text,
# in the web page (escaped), in the PGN as comments that pgn-extract
# keeps and corrchess verify checks, before and after its round trip.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen python3

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish
players alice bob
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "create a game" 201

# --- Signed with the action, by ssh-keygen --------------------------------

act 1 alice "move e4" 'Bonne partie ! <script>alert(1)</script> {x} [%cchash 00]'
expect "a move with a message, signed by ssh-keygen" 201
same "the game's JSON: the message, who sent it, with which move" \
    "$(js "[(m['from'], m['color'], m['kind'], m['move'], m['at_ply'], \
    m['text']) for m in d['messages']]")" \
    "[('alice', 'white', 'move', '1. e4', 0, 'Bonne partie ! <script>alert(1)</script> {x} [%cchash 00]')]"
same "the game's own ply is still the game's" "$(jget ply)" 1
req GET /api/v1/games/1/records
check "the record keeps the statement with its message line" grep -qF \
    'action: move e4\nmessage: Bonne partie !' "$tmp/out"

# --- Refused, each with its reason; nothing played --------------------------

# refused NAME ACTION MESSAGE TEXT: alice's statement is refused (400
# bad-statement) with TEXT in its reason.
refused() {
	act 1 bob "$2" "$3"
	expect "$1: refused" 400 bad-statement
	check "$1: the reason says so" grep -qF "$4" "$tmp/out"
}
refused "a tab" "move e5" "$(printf 'a\tb')" 'holds a control character'
refused "an escape" "move e5" "$(printf 'a\033[31mred')" \
    'holds a control character'
refused "a right-to-left override" "move e5" "$(printf 'abc\342\200\256def')" \
    'bidirectional control'
refused "Latin-1, not UTF-8" "move e5" "$(printf 'caf\351')" \
    'is not valid UTF-8'
refused "501 bytes" "move e5" "$(printf 'x%.0s' $(seq 1 501))" \
    'the message is too long: 500 bytes at most'
refused "a space first" "move e5" " hi" 'starts or ends with a space'
refused "with a leave" "leave 2027-01-01 2027-01-02" "away" \
    'a message goes only with a move, a draw offer or its answer'
refused "with conditional moves" "conditional Nf3 Nc6" "hi" \
    'a message goes only with a move'
req GET /api/v1/games/1
same "nothing was played" "$(jget ply)" 1
act 1 bob "move e5" "$(printf 'x%.0s' $(seq 1 500))"
expect "500 bytes: accepted" 201

# --- The JSON body the web page posts; the client -------------------------

req GET /api/v1/games/1
statement 1 "$(jget ply)" alice "move Nf3"
printf 'message: À toi — « merci »\n' >>"$tmp/st"
sign_ssh "$tmp/alice"
python3 - "$tmp/st" "$tmp/st.sig" >"$tmp/body.json" <<'EOF'
import json, sys
print(json.dumps({"statement": open(sys.argv[1], encoding="utf-8").read(),
                  "signature": open(sys.argv[2]).read()}))
EOF
req POST /api/v1/games/1/actions -H 'Content-Type: application/json' \
    --data-binary "@$tmp/body.json"
expect "the JSON body with a message line" 201
ssh-keygen -q -t ed25519 -N '' -f "$tmp/bob2" >/dev/null
"$corrchess" keygen -f "$tmp/bobkey" >/dev/null 2>&1
admin POST /api/v1/players/bob/keys -d "{\"key\":\"$(cat "$tmp/bobkey.pub")\"}"
expect "bob adds a corrchess key" 201
"$corrchess" move -s "$base" -k "$tmp/bobkey" -p bob -m 'Joli coup' 1 Nc6 \
    >"$tmp/cc.out" 2>&1
same "corrchess move -m: accepted" "$?" 0
check "and prints the message with the move" grep -qx \
    'Message from bob (2...Nc6): Joli coup' "$tmp/cc.out"
"$corrchess" move -s "$base" -k "$tmp/bobkey" -p bob 1 a6 -m late \
    >"$tmp/cc.out" 2>&1
same "an option after the move: a usage error" "$?" 2
check "that says where options go" grep -q \
    'options go before the game number' "$tmp/cc.out"
"$corrchess" act -s "$base" -k "$tmp/bobkey" -p bob -m away 1 leave \
    2027-01-01 2027-01-02 >"$tmp/cc.out" 2>&1
same "corrchess act -m with a leave: refused before sending" "$?" 1
check "with the reason" grep -q 'a message goes only with a move' \
    "$tmp/cc.out"
"$corrchess" show -s "$base" 1 >"$tmp/cc.out" 2>&1
check "corrchess show: every message, with its move" grep -qx \
    '  alice (2. Nf3): À toi — « merci »' "$tmp/cc.out"

# --- The text view --------------------------------------------------------

req GET /api/v1/games/1 -H 'Accept: text/plain'
check "text: the messages, a line each" grep -qx \
    '  bob (2...Nc6): Joli coup' "$tmp/out"
req GET '/api/v1/games/1?lang=fr' -H 'Accept: text/plain'
check "text in French: the moves in French letters" grep -qx \
    '  bob (2...Cc6): Joli coup' "$tmp/out"

# --- The web page: escaped, a box to write one ------------------------------

req GET /games/1
check "web: a <script> in a message is text" grep -qF \
    '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/out"
check "web: and never markup" sh -c "! grep -q '<script>alert' '$tmp/out'"
check "web: the message with its sender and move" grep -qF \
    '<span class="cc-note-from">bob</span> (2...Nc6) <q class="cc-note">Joli coup</q>' \
    "$tmp/out"
check "web: the box for a message, signed with the move" grep -qF \
    'id="cc-note" name="message" maxlength="500"' "$tmp/out"
req GET /games/1 -H 'Accept-Language: fr'
check "web, in French: the move in French letters" grep -qF \
    '<span class="cc-note-from">alice</span> (2. Cf3)' "$tmp/out"

# --- A draw offered and accepted, each with its message ---------------------

"$corrchess" move -s "$base" -k "$tmp/alice" -p alice --offer-draw \
    -m 'Nulle ?' 1 Bb5 >"$tmp/cc.out" 2>&1
same "a move, a draw offer and a message" "$?" 0
act 1 bob accept-draw "D'accord, merci"
expect "accept-draw with a message" 201
req GET /api/v1/games/1
same "the draw's messages" \
    "$(js "[(m['kind'], m['move'], m['text']) for m in d['messages'][-2:]]")" \
    "[('move-offer-draw', '3. Bb5', 'Nulle ?'), ('accept-draw', None, \"D'accord, merci\")]"

# --- The PGN: a comment after each move, pgn-extract, corrchess verify -------

req GET /api/v1/games/1/pgn
cp "$tmp/out" "$tmp/g.pgn"
tr '\n' ' ' <"$tmp/g.pgn" >"$tmp/g.line"
check "PGN: the message after its move, braces and brackets made ()" \
    grep -qF ']} {Message from alice: Bonne partie ! <script>alert(1)</script> (x) (%cchash 00)} 1... e5' \
    "$tmp/g.line"
check "PGN: a message on the answer to the offer" grep -qF \
    "{Message from bob: D'accord, merci}" "$tmp/g.line"
check "PGN: the proof carries the message, %-encoded" grep -qF \
    '[%ccmsg Bonne%20partie%20!%20<script>alert(1)</script>%20%7Bx%7D' \
    "$tmp/g.pgn"
"$corrchess" verify "$tmp/g.pgn" >"$tmp/vout" 2>&1
same "verify: the PGN holds" "$?" 0
same "verify: every record, messages signed with theirs" \
    "$(tail -n 1 "$tmp/vout")" \
    "game 1: 6 records, the chain holds; 0 attested by the server"
if [ -x "${PGN_EXTRACT:=/usr/games/pgn-extract}" ] ||
    PGN_EXTRACT=$(command -v pgn-extract); then
	"$PGN_EXTRACT" -s "$tmp/g.pgn" >"$tmp/g2.pgn" 2>"$tmp/pe.err"
	check "pgn-extract reads it, with nothing to warn of" \
	    [ ! -s "$tmp/pe.err" ]
	check "pgn-extract keeps the message" grep -q 'Joli coup' \
	    "$tmp/g2.pgn"
	"$corrchess" verify "$tmp/g2.pgn" >"$tmp/vout" 2>&1
	same "verify after pgn-extract's round trip" "$?" 0
	"$PGN_EXTRACT" -s -w 40 "$tmp/g.pgn" >"$tmp/g3.pgn" 2>/dev/null
	"$corrchess" verify "$tmp/g3.pgn" >"$tmp/vout" 2>&1
	same "verify after a re-wrap at 40 columns" "$?" 0
	# A message changed in the proof: the signature no longer holds.
	sed 's/Joli%20coup/Joli%20COUP/' "$tmp/g2.pgn" >"$tmp/bad.pgn"
	"$corrchess" verify "$tmp/bad.pgn" >"$tmp/vout" 2>&1
	same "a message changed: verify fails" "$?" 1
	check "naming the record" grep -q 'ply 3 .*FAIL\|FAIL.*ply 3' \
	    "$tmp/vout"
else
	bad "pgn-extract not found: run .ci/install-deps"
fi

finish
