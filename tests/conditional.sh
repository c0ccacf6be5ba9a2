#!/bin/sh
# tests/conditional.sh: conditional moves end to end over curl.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Conditional moves through the real corrchessd on a free loopback port,
# driven by the real curl, signed by the real `ssh-keygen -Y sign -n
# corrchess` and by `corrchess conditional`: a tree recorded and answered
# move by move, hidden from the opponent's JSON, PGN and record until a
# move of it is played, the record of the answer carrying the signed
# conditional; every refusal with its line and move; replacement,
# cancellation, the owner's read; a line that leaves the tree, an answer
# that mates, a draw offer and a fallen flag that stop it.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# say NAME TEXT: the last answer must contain TEXT.
say() {
	check "$1" grep -qF "$2" "$tmp/out" || cat "$tmp/out" >&2
}

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

players alice bob
newgame() {
	admin POST /api/v1/games -d "{\"white\":\"alice\",\"black\":\"bob\"$1}"
	expect "create a game" 201
	jget id
}

# --- A tree, answered move by move ---------------------------------------

g=$(newgame '')
play "$g" alice "move e4"
# Moves in any notation; the tree is kept in SAN.
play "$g" alice "conditional e5 Ng1-f3 Nc6 f1b5; e5 Nf3 Nf6 Nxe5; c5 g1f3"
say "recorded: the lines in SAN" \
    '"lines":"e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5; c5 Nf3"'
say "recorded: active" '"status":"active"'
say "recorded: three lines" '"lines_left":3'
same "recorded: the game did not move" "$(jget ply)" 1

# Hidden from everyone else.
req GET "/api/v1/games/$g"
check "hidden: not in the game's JSON" sh -c "! grep -q conditional '$tmp/out'"
req GET "/api/v1/games/$g" -H 'Accept: text/plain'
check "hidden: not in the text" sh -c "! grep -q -i conditional '$tmp/out'"
req GET "/api/v1/games/$g/pgn"
check "hidden: not in the PGN" sh -c "! grep -q 'Nxe5' '$tmp/out'"
req GET "/api/v1/games/$g/records"
check "hidden: not in the record" sh -c "! grep -q conditional '$tmp/out'"

# Refusals: each names its line and its move; nothing changes.
act "$g" bob "conditional Nf3 Nc6"
expect "the side to move cannot" 422 bad-conditional
say "the side to move: why" "it is your move"
act "$g" alice "conditional e5 Nf3; e5 d4"
expect "two answers to one move" 422 bad-conditional
say "two answers: why" "lines 1 and 2 answer e5 in two ways (Nf3, d4)"
act "$g" alice "conditional e5 Nf3 Nc6 Ke3"
expect "an illegal answer" 422 bad-conditional
say "illegal: why" "line 1, half-move 4, Ke3 (yours)"
act "$g" alice "conditional e5 Nf3 Nc6"
expect "a line without its answer" 422 bad-conditional
say "no answer: why" "line 1 ends with the opponent's move Nc6"
act "$g" alice "conditional e5 Nf3;d5"
expect "a malformed list" 400 bad-statement
statement "$g" 0 alice "conditional e5 Nf3"
sign_ssh "$tmp/alice"
submit "$g"
expect "a stale ply" 409 stale-ply

# The owner reads it (a signed read, for the current ply).
play "$g" alice "show-conditional"
say "shown" '"lines":"e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5; c5 Nf3"'
# As text, in the reader's language: the status word too.
statement "$g" 1 alice "show-conditional"
sign_ssh "$tmp/alice"
req POST "/api/v1/games/$g/actions" -H 'Accept: text/plain' \
    -H 'Accept-Language: fr' --data-binary "@$tmp/body"
expect "shown as French text" 201
check "shown as French text: « actifs »" grep -qx \
    'Vos coups conditionnels (actifs ; 0 joués, 3 lignes restantes) :' \
    "$tmp/out"
check "shown as French text: the lines in French letters" grep -qx \
    '  e5 Cf3 Cc6 Fb5; e5 Cf3 Cf6 Cxe5; c5 Cf3' "$tmp/out"

# Bob plays into it: his answer has both moves.
play "$g" bob "move e5"
same "answered: ply" "$(jget ply)" 3
same "answered: moves" "$(jget moves)" "e4 e5 Nf3"
same "answered: black to move" "$(jget turn)" black
check "answered: bob's answer shows no conditional" \
    sh -c "! grep -q '\"conditional\"' '$tmp/out'"
req GET "/api/v1/games/$g/records"
check "the record of the answer" grep -q \
    '"seq":3,"ply":2,"kind":"conditional-move","san":"Nf3","move":"Nf3","statement":"corrchess-v1\\ngame: '"$g"'\\nply: 1\\nplayer: alice\\naction: conditional e5 Ng1-f3 Nc6 f1b5; e5 Nf3 Nf6 Nxe5; c5 g1f3\\n","signature":"-----BEGIN SSH SIGNATURE-----' \
    "$tmp/out"
req GET "/api/v1/games/$g/pgn"
tr '\n' ' ' <"$tmp/out" >"$tmp/pgn.line"
check "the PGN names the signed conditional" grep -q \
    "\[%ccst $g 1 alice conditional%20e5%20Ng1-f3%20Nc6%20f1b5;%20e5" \
    "$tmp/pgn.line"
cp "$tmp/out" "$tmp/cond.pgn"
"$corrchess" verify "$tmp/cond.pgn" >"$tmp/verify" 2>&1
same "corrchess verify FILE: the conditional's answer holds" "$?" 0
check "the answer checked against the conditional's lines" grep -q \
    "^game $g: record 3, ply 2 (2. Nf3): alice SHA256:[^ ]* OK$" "$tmp/verify"

play "$g" alice "show-conditional"
say "after one answer: played" '"played":1'
say "after one answer: two lines left" '"lines_left":2'

# Replaced by a new tree, at the new ply.
play "$g" alice "conditional Nc6 Bc4 Bc5 c3"
say "replaced: the new lines" '"lines":"Nc6 Bc4 Bc5 c3"'
play "$g" bob "move Nc6"
same "the new tree answers" "$(jget moves)" "e4 e5 Nf3 Nc6 Bc4"
# Bob leaves the tree: no answer, the conditional ends.
play "$g" bob "move Nf6"
same "out of the tree: white to move" "$(jget turn)" white
act "$g" alice "show-conditional"
expect "out of the tree: nothing waits" 404 no-conditional

# Cancelled: bob's next move is not answered.
play "$g" alice "move d3"
play "$g" alice "conditional Bc5 c3"
play "$g" alice "cancel-conditional"
say "cancelled" '"status":"cancelled"'
act "$g" alice "cancel-conditional"
expect "cancel twice" 409 no-conditional
play "$g" bob "move Bc5"
same "cancelled: no answer" "$(jget turn)" white

# --- The client -----------------------------------------------------------

play "$g" alice "move c3"
run conditional -s "$base" -k "$tmp/alice" -p alice "$g" "Ng4 O-O; d6 h3"
same "corrchess conditional: exit status" "$status" 0
check "corrchess conditional: what was recorded" grep -q \
    'Ng4 O-O; d6 h3' "$tmp/out"
run conditional -s "$base" -k "$tmp/alice" -p alice "$g" "Ng4 O-O; Ng4 h3"
check "corrchess conditional: a refusal" [ "$status" -ne 0 ]
check "corrchess conditional: its reason" grep -q \
    'lines 1 and 2 answer Ng4 in two ways' "$tmp/err"
run conditional -s "$base" -k "$tmp/alice" -p alice --show "$g"
check "corrchess conditional --show" grep -q 'Ng4 O-O; d6 h3' "$tmp/out"
check "corrchess conditional --show: the status in English" grep -qx \
    'Your conditional moves (active; 0 played, 2 lines left):' "$tmp/out"
printf 'lang = fr\n' >"$tmp/client.fr"
CORRCHESS_CONFIG=$tmp/client.fr "$corrchess" conditional -s "$base" \
    -k "$tmp/alice" -p alice --show "$g" >"$tmp/out.fr" 2>&1
check "corrchess conditional --show, lang = fr: the status in French" \
    grep -qx 'Vos coups conditionnels (actifs ; 0 joués, 2 lignes restantes) :' \
    "$tmp/out.fr"
check "corrchess conditional --show, lang = fr: the lines in French letters" \
    grep -qx '  Cg4 O-O; d6 h3' "$tmp/out.fr"
run conditional -s "$base" -k "$tmp/alice" -p alice --cancel "$g"
same "corrchess conditional --cancel" "$status" 0
check "corrchess conditional --cancel: said" grep -q cancelled "$tmp/out"

# --- An answer that mates ------------------------------------------------

g=$(newgame '')
play "$g" alice "move f3"
play "$g" bob "move e5"
play "$g" bob "conditional g4 Qh4#; d4 Bb4+"
play "$g" alice "move g4"
same "mate: moves" "$(jget moves)" "f3 e5 g4 Qh4#"
same "mate: result" "$(jget result)" "0-1"
same "mate: termination" "$(jget termination)" checkmate

# --- A draw offer stops it -----------------------------------------------

g=$(newgame '')
play "$g" alice "move e4"
play "$g" alice "conditional e5 Nf3"
play "$g" bob "move e5 offer-draw"
same "draw offer: no answer" "$(jget turn)" white
same "draw offer: pending" "$(jget draw_offer)" black

# --- A flag that falls ---------------------------------------------------

g=$(newgame ',"time_control":"1d/move"')
play "$g" alice "move e4"
play "$g" alice "conditional e5 Nf3"
echo 172800 >"$tmp/clock"
act "$g" bob "move e5"
expect "late: refused" 409 game-over
req GET "/api/v1/games/$g"
same "late: no answer" "$(jget moves)" "e4"
same "late: lost on time" "$(jget termination)" timeout

finish
