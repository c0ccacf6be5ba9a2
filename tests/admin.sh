#!/bin/sh
# tests/admin.sh: what a club admin meets in the first week, over curl.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd on a free loopback port, driven by the real curl:
# a mistyped JSON member or query parameter is refused with the closest
# known name instead of being dropped; a wrong admin token is said to be
# wrong (over curl and by `corrchess admin backup`), not missing; a key
# must be public: a private key or a fingerprint is refused as such, and a
# player made without a key comes with a warning; --check-config refuses
# what start-up refuses, and a refused start writes nothing; ICCF clocks
# show the moves to the next control.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# says NAME TEXT: the last answer's message is TEXT.
says() {
	same "$1" "$(jget error.message)" "$2"
}

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
done

# --- Typos are refused, with the closest name -----------------------------

admin POST /api/v1/players -d "{\"name\":\"alice\",\"language\":\"fr\",
    \"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "a player with \"language\"" 400 bad-request
says "\"language\" named, lang suggested" \
    "unknown member language; did you mean lang?"
admin POST /api/v1/players -d '{"name":"alice","emial":"a@example.org"}'
expect "a player with \"emial\"" 400 bad-request
says "\"emial\" named, email suggested" \
    "unknown member emial; did you mean email?"
admin GET /api/v1/players/alice
expect "no player made by a refused body" 404
admin POST /api/v1/players -d "{\"name\":\"alice\",\"lang\":\"fr\",
    \"email\":\"alice@example.org\",\"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "alice with the right names" 201
admin POST /api/v1/players -d "{\"name\":\"bob\",
    \"keys\":[\"$(cat "$tmp/bob.pub")\"]}"
expect "bob" 201
admin PATCH /api/v1/players/alice -d '{"langue":"en"}'
expect "a change with \"langue\"" 400 bad-request
says "\"langue\" named" "unknown member langue; did you mean lang?"
admin POST /api/v1/players/alice/keys -d '{"kee":"x"}'
expect "a key with \"kee\"" 400 bad-request
says "\"kee\" named" "unknown member kee; did you mean key?"
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "timecontrol":"3d/move"}'
expect "a game with \"timecontrol\"" 400 bad-request
says "\"timecontrol\" named" \
    "unknown member timecontrol; did you mean time_control?"
admin POST /api/v1/games -d '{"white":"alice","black":"bob","colour":"x"}'
expect "a game with a member unlike any" 400 bad-request
says "no suggestion when none is close" "unknown member colour"
admin GET /api/v1/games
same "no game made by a refused body" "$(cat "$tmp/out")" '{"games":[]}'
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "time_control":"3d/move"}'
expect "a game with the right names" 201
same "its time control" "$(jget time_control)" "3d/move"
req POST /api/v1/games/1/actions -H 'Content-Type: application/json' \
    -d '{"statment":"x"}'
expect "an action with \"statment\"" 400 bad-request
says "\"statment\" named" "unknown member statment; did you mean statement?"

req GET '/api/v1/games?stauts=ongoing'
expect "a listing with ?stauts" 400 bad-request
says "?stauts named" \
    "unknown query parameter stauts; did you mean status?"
req GET '/api/v1/games?player=alice&limit=5'
expect "a listing with known parameters" 200
req GET '/api/v1/games/1?lnag=fr'
expect "a game with a parameter it does not take" 400 bad-request
says "?lnag named" "unknown query parameter lnag; did you mean lang?"
req GET '/api/v1/games/1?lang=fr'
expect "a game with ?lang=fr (the text view's language)" 200
admin GET '/api/v1/players?flip=1'
expect "a listing that takes no parameter" 400 bad-request
says "?flip named" "unknown query parameter flip: this resource takes none"

# --- ICCF clocks: the moves to the next control beside the time --------

admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "time_control":"10/50d"}'
expect "an ICCF game (10/50d)" 201
g=$(jget id)
run move -s "$base" -k "$tmp/alice" -p alice "$g" e4
same "alice moves in it" "$status" 0
req GET "/api/v1/games/$g"
check "JSON: the moves to the control of each side" grep -q \
    '"moves_to_control":{"white":9,"black":10}' "$tmp/out"
req GET "/api/v1/games/$g" -H 'Accept: text/plain'
check "text: White's clock with its moves to the control" grep -q \
    '^White clock: .* left, 9 moves to the control$' "$tmp/out"
check "text: Black's clock with its moves to the control" grep -q \
    '^Black clock: .* left, 10 moves to the control$' "$tmp/out"
run show -s "$base" "$g"
check "corrchess show: the moves to the control" grep -q \
    '^White clock: .* left, 9 moves to the control$' "$tmp/out"
req GET /api/v1/games/1
check "another time control has none" grep -q \
    '"moves_to_control":null' "$tmp/out"

# --- Keys: public ones only, and said so ---------------------------------

# key_body FILE: a JSON body {"key": the file's text}, line ends as \n.
key_body() {
	printf '{"key":"%s"}' "$(awk '{ printf "%s\\n", $0 }' "$1")"
}

key_body "$tmp/alice" >"$tmp/kb"
admin POST /api/v1/players/bob/keys --data-binary "@$tmp/kb"
expect "a private key file as a key" 400 bad-key
check "a private key is refused as such" grep -q \
    "this is a private key: give the .pub file (its one line .*), and keep the private key to yourself" \
    "$tmp/out"
check "the private key is not quoted back" sh -c \
    "! grep -q 'OPENSSH' '$tmp/out'"
fp=$(ssh-keygen -lf "$tmp/bob.pub" | cut -d' ' -f2)
admin POST /api/v1/players/bob/keys -d "{\"key\":\"$fp\"}"
expect "a fingerprint as a key" 400 bad-key
check "a fingerprint is said to be one" grep -q \
    "this is a key's fingerprint, not the key: give the .pub file" "$tmp/out"
raw64=$(head -c 64 /dev/urandom | base64 | tr -d '\n')
admin POST /api/v1/players/bob/keys -d "{\"key\":\"$raw64\"}"
expect "64 bytes of base64 as a key" 400 bad-key
check "64 bytes are said to be a private key" grep -q \
    "this is a private key: give the .pub file" "$tmp/out"
raw16=$(head -c 16 /dev/urandom | base64 | tr -d '\n')
admin POST /api/v1/players/bob/keys -d "{\"key\":\"$raw16\"}"
expect "a key of the wrong length" 400 bad-key
check "the refusal asks for a public key only" grep -q \
    "an Ed25519 public key of 32 bytes in base64" "$tmp/out"
check "and never for a private one" sh -c \
    "! grep -qi 'private\\|secret' '$tmp/out'"
admin POST /api/v1/players -d '{"name":"carol"}'
expect "a player without a key" 201
check "is made with a warning" grep -q \
    '"warnings":\["carol has no key and cannot sign actions until one is added: POST /api/v1/players/carol/keys' \
    "$tmp/out"
ssh-keygen -q -t ed25519 -N '' -C dave -f "$tmp/dave"
admin POST /api/v1/players -d "{\"name\":\"dave\",
    \"keys\":[\"$(cat "$tmp/dave.pub")\"]}"
expect "a player with a key" 201
check "a player with a key has no warning" sh -c \
    "! grep -q warnings '$tmp/out'"

# --- A wrong admin token is said to be wrong, not missing -----------------

req GET /api/v1/players
expect "no token" 401 unauthorized
says "no token: the header is asked for" \
    "this needs the admin token: Authorization: Bearer TOKEN"
req GET /api/v1/players -H 'Authorization: Bearer nope'
expect "a wrong token" 401 unauthorized
says "a wrong token is said to be wrong" "the admin token given is not \
this server's: use the one in its admin_token_file (by default \
STATE_DIRECTORY/admin.token)"
req GET /api/v1/players -H 'Authorization: Basic eDp5'
says "another scheme" "the Authorization header must be 'Bearer TOKEN'"
echo nope-nope-nope-nope >"$tmp/wrong.token"
run admin backup -s "$base" -t "$tmp/wrong.token" "$tmp/club.db"
same "admin backup with a wrong token fails" "$status" 1
check "and says the token is not the server's" grep -q \
    "the admin token given is not this server's" "$tmp/err"
check "no copy is left" [ ! -e "$tmp/club.db" ]

daemon_stop

# --- The admin aborts and adjudicates games ---------------------------------

# With mail on (and no SMTP server: notices stay in the outbox, where the
# test reads them), abort_moves = 1.
sed -e '/^\[mail\]/,/^enabled/s/^enabled = no/enabled = yes/' \
    -e 's/^from =$/from = chess@club.example/' \
    -e 's/^abort_moves = .*/abort_moves = 1/' "$tmp/test.conf" >"$tmp/mail.conf"
mv "$tmp/mail.conf" "$tmp/test.conf"
"$corrchessd" --config "$tmp/test.conf" --state-dir "$tmp/state" \
    --check-config >"$tmp/cc.out" 2>"$tmp/cc.err"
check "--check-config names the abort limit" grep -q \
    '^admin: a game may be aborted until each side has made 1 moves (\[game\] abort_moves)$' \
    "$tmp/cc.out"
check "corrchessd starts again, with mail" daemon_start || finish
admin PATCH /api/v1/players/bob -d '{"email":"bob@example.org"}'
expect "bob gets an address" 200

# outbox GAME: the notices queued for GAME, decoded, into $tmp/mails.
outbox() {
	sqlite3 "$tmp/state/corrchess.db" \
	    "SELECT message FROM outbox WHERE game_id = $1 AND kind = 'game-over'" |
	    python3 -c 'import quopri, sys
sys.stdout.write(quopri.decodestring(sys.stdin.buffer.read()).decode())' \
	    >"$tmp/mails"
}

admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "a game made by mistake" 201
ga=$(jget id)
run move -s "$base" -k "$tmp/alice" -p alice "$ga" e4
same "alice plays 1. e4 in it" "$status" 0
admin POST "/api/v1/games/$ga/abort" -d '{"reason":"made by mistake"}'
expect "abort after one half-move (abort_moves = 1)" 200
same "the aborted game has no result" "$(jget result)" "*"
same "its termination" "$(jget termination)" "aborted"
same "it is finished" "$(jget status)" "finished"
admin POST "/api/v1/games/$ga/abort" -d '{"reason":"again"}'
expect "abort of a game over" 409 game-over
says "the refusal says the game is over" "game $ga is over already (*, \
aborted): there is nothing to abort"
admin POST "/api/v1/games/$ga/adjudicate" -d '{"result":"1-0","reason":"x"}'
expect "adjudication of a game over" 409 game-over
run move -s "$base" -k "$tmp/bob" -p bob "$ga" e5
same "no move after an abort" "$status" 1
req GET "/api/v1/games/$ga/pgn"
check "PGN: Termination abandoned" grep -q '^\[Termination "abandoned"\]$' \
    "$tmp/out"
check "PGN: Result *" grep -q '^\[Result "\*"\]$' "$tmp/out"
tr '\n' ' ' <"$tmp/out" >"$tmp/pgn.line"
check "PGN: the reason as a comment" grep -q \
    "{Aborted by the club's admin: made by mistake}" "$tmp/pgn.line"
req GET "/api/v1/games/$ga/records"
check "records: the abort, its statement by admin, signed, source admin" \
    grep -q "\"kind\":\"abort\",\"san\":null,\"move\":null,\"statement\":\"corrchess-v1\\\\ngame: $ga\\\\nply: 1\\\\nplayer: admin\\\\naction: abort made by mistake\\\\n\",\"signature\":\"signature: [^\"]*\",\"at\":\"[^\"]*\",\"source\":\"admin\"" \
    "$tmp/out"
outbox "$ga"
check "mail: both players are told" [ "$(grep -c '^To: ' "$tmp/mails")" = 2 ]
check "mail (en): the reason" grep -q \
    "The club's admin gave this reason: made by mistake" "$tmp/mails"
check "mail (en): no result, aborted" grep -q \
    "The game is over: \*, no result (aborted by the club's admin)" \
    "$tmp/mails"
check "mail (fr): the reason" grep -q \
    "Motif donné par l'administrateur du club : made by mistake" \
    "$tmp/mails"
check "mail (fr): annulée" grep -q \
    "sans résultat (annulée par l'administrateur" "$tmp/mails"
check "mail: no statement to sign in a game over" sh -c \
    "! grep -q 'Your next action\\|Votre prochaine action' '$tmp/mails'"

admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
gb=$(jget id)
run move -s "$base" -k "$tmp/alice" -p alice "$gb" e4
run move -s "$base" -k "$tmp/bob" -p bob "$gb" e5
same "two half-moves played" "$status" 0
admin POST "/api/v1/games/$gb/abort" -d '{"reason":"too late"}'
expect "abort after 1. e4 e5 (abort_moves = 1)" 409 too-many-moves
says "the refusal names the limit and the way out" "game $gb has 2 \
half-moves played; a game may be aborted only before 1 moves ([game] \
abort_moves): adjudicate it instead"
admin POST "/api/v1/games/$gb/adjudicate" -d '{"result":"2-0","reason":"x"}'
expect "a bad result" 400 bad-result
check "the refusal names the results" grep -q \
    'the result \\"2-0\\" is not one of 1-0, 0-1, 1/2-1/2' "$tmp/out"
admin POST "/api/v1/games/$gb/adjudicate" -d '{"result":"1-0"}'
expect "no reason" 400 bad-request
admin POST "/api/v1/games/$gb/adjudicate" -d '{"result":"1-0","reason":""}'
expect "an empty reason" 400 bad-reason
req POST "/api/v1/games/$gb/adjudicate" -d '{"result":"1-0","reason":"x"}'
expect "adjudication without the admin token" 401
statement "$gb" 2 alice "adjudicate 1-0 I say so"
sign_ssh "$tmp/alice"
submit "$gb"
expect "a player's signed adjudication" 403 admin-action
run admin adjudicate -s "$base" -t "$tmp/state/admin.token" \
    --reason "tablebase: Black mates" "$gb" 0-1
same "corrchess admin adjudicate" "$status" 0
same "it says what it did" "$(cat "$tmp/out")" \
    "game $gb: 0-1, adjudication; both players are told"
req GET "/api/v1/games/$gb"
same "the result stands" "$(jget result)" "0-1"
same "termination adjudication" "$(jget termination)" "adjudication"
req GET "/api/v1/games/$gb/pgn"
check "PGN: Termination adjudication" grep -q \
    '^\[Termination "adjudication"\]$' "$tmp/out"
check "PGN: Result 0-1" grep -q '^\[Result "0-1"\]$' "$tmp/out"
tr '\n' ' ' <"$tmp/out" >"$tmp/pgn.line"
check "PGN: the reason" grep -q \
    "{Adjudicated by the club's admin: tablebase: Black mates}" "$tmp/pgn.line"
cp "$tmp/out" "$tmp/gb.pgn"
run verify "$tmp/gb.pgn"
same "corrchess verify FILE: the PGN with the adjudication holds" "$status" 0
check "the admin's record checked against the server's key" grep -q \
    "^game $gb: record 3, ply 2 (adjudicate): the admin, signed by the server SHA256:[^ ]* OK$" \
    "$tmp/out"
outbox "$gb"
check "mail: the adjudication's reason" grep -q \
    "The club's admin gave this reason: tablebase: Black mates" "$tmp/mails"
check "mail: Black wins" grep -q "The game is over: 0-1, Black wins" \
    "$tmp/mails"
run admin abort -s "$base" -t "$tmp/state/admin.token" --reason x "$gb"
same "corrchess admin abort of a finished game" "$status" 1
check "says why" grep -q "is over already" "$tmp/err"
run admin adjudicate -s "$base" -t "$tmp/state/admin.token" "$gb" 1-0
same "corrchess admin adjudicate without --reason" "$status" 2
run verify -s "$base" "$ga" "$gb"
same "corrchess verify accepts both records" "$status" 0
check "and lists the admin's plies" grep -q \
    "^game $gb: 3 records, the chain holds; 1 attested by the server at ply 2 (adjudicate, admin)$" \
    "$tmp/out"
daemon_stop

# --- --check-config checks what start-up checks, before anything is written

# refuses NAME CONF WANT: --check-config and a start with CONF both fail,
# saying WANT, and the start leaves no state directory behind.
refuses() {
	printf '%b' "$2" >"$tmp/bad.conf"
	"$corrchessd" --config "$tmp/bad.conf" --state-dir "$tmp/fresh" \
	    --check-config >"$tmp/cc.out" 2>"$tmp/cc.err"
	same "$1: --check-config fails" "$?" 1
	check "$1: --check-config says why" grep -q "$3" "$tmp/cc.err"
	"$corrchessd" --config "$tmp/bad.conf" --state-dir "$tmp/fresh" \
	    --port 0 >"$tmp/st.out" 2>"$tmp/st.err"
	same "$1: start-up fails" "$?" 1
	check "$1: start-up says the same" grep -q "$3" "$tmp/st.err"
	check "$1: nothing written (no state directory, no token)" \
	    [ ! -e "$tmp/fresh" ]
}

refuses "[mail] enabled alone" '[mail]\nenabled = yes\n' \
    '\[mail\] from must be an address'
refuses "a missing imap_password_file" \
    '[mail]\nenabled = yes\nfrom = chess@club.example\nimap_url = imap://127.0.0.1:1/\nimap_password_file = /nonexistent/pw\n' \
    '\[mail\] imap_password_file /nonexistent/pw: No such file'
refuses "a missing smtp_password_file" \
    '[mail]\nenabled = yes\nfrom = chess@club.example\nsmtp_password_file = /nonexistent/pw\n' \
    '\[mail\] smtp_password_file /nonexistent/pw: No such file'
refuses "an admin token file in a missing directory" \
    '[server]\nadmin_token_file = /nonexistent/dir/admin.token\n' \
    'admin_token_file /nonexistent/dir/admin.token: cannot be created'
printf '[mail]\nenabled = yes\nfrom = chess@club.example\n' >"$tmp/nourl.conf"
"$corrchessd" --config "$tmp/nourl.conf" --state-dir "$tmp/fresh" \
    --check-config >"$tmp/cc.out" 2>"$tmp/cc.err"
same "from without imap_url: accepted" "$?" 0
check "with a warning that moves by mail are not read" grep -q \
    '^warning: \[mail\] imap_url is empty: moves by mail are not read$' \
    "$tmp/cc.out"
check "--check-config writes nothing" [ ! -e "$tmp/fresh" ]

finish
