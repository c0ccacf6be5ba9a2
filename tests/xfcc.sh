#!/bin/sh
# tests/xfcc.sh: the Xfcc endpoint with a real client, Scid's.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd with [xfcc] enabled, and the Xfcc client of Debian's
# Scid 4.7 (its correspondence.tcl, unmodified, in tclsh with tdom; stand-
# ins for its windows in tests/xfcc_scid.tcl), with a fresh HOME, as a
# player who opened the Xfcc door: retrieve games, send moves, offer and
# accept a draw, resign, a refused move, a wrong password. Scid exits 0 on
# failures, so the test reads the daemon's state and Scid's files (the
# Inbox PGN, xfccstate) and console lines; a message sent with a move,
# the opponent's shown in Scid's Inbox. Then SOAP requests by curl: the
# faults, the limits of the XML parser, every MakeAMoveResult it maps.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl tclsh python3 sqlite3
scid_tcl=${SCID_CORRESPONDENCE_TCL:-/usr/share/scid/tcl/tools/correspondence.tcl}
if [ ! -f "$scid_tcl" ] || ! echo 'package require tdom' | tclsh >/dev/null 2>&1; then
	echo "Scid's $scid_tcl or tdom not found: run .ci/install-deps" >&2
	exit 1
fi

# scid ARG...: Scid's Xfcc client with $home as HOME; its lines in
# $tmp/scid.
scid() {
	HOME=$home tclsh "$top_srcdir/tests/xfcc_scid.tcl" "$scid_tcl" "$@" \
	    >"$tmp/scid" 2>&1
}

# scid_send GAME MOVECOUNT MOVE [RESIGN ACCEPT OFFER CLAIM]: Scid's "Send
# Move" for the server "corrchess", flags false unless given.
scid_send() {
	scid send corrchess "$1" "$2" "$3" "" "${4:-false}" "${5:-false}" \
	    "${6:-false}" "${7:-false}"
}

# moves GAME: the game's moves, space-separated SAN.
moves() {
	req GET "/api/v1/games/$1"
	jget moves
}

# soap OPERATION FIELDS: POST a SOAP request by curl, the answer in
# $tmp/out.
soap() {
	printf '<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<%s xmlns="http://www.bennedik.com/webservices/XfccBasic">%s</%s>
</soap:Body></soap:Envelope>\n' "$1" "$2" "$1" >"$tmp/soap.xml"
	req POST /xfccbasic.asmx -H 'Content-Type: text/xml; charset=utf-8' \
	    --data-binary "@$tmp/soap.xml"
}

# move_result FIELDS: MakeAMove as bob; the MakeAMoveResult in $result.
move_result() {
	soap MakeAMove "<username>bob</username><password>$esc</password>$1"
	result=$(sed -n 's/.*<MakeAMoveResult>\([A-Za-z]*\)<.*/\1/p' \
	    "$tmp/out")
}

# Only the games of rated events are rated here ([game] rated = no), so
# that the ratings in GetMyGames are those of the one rated game below.
sed -e 's/^port = .*/port = 0/' -e 's/^rated = yes$/rated = no/' \
    -e '/^\[xfcc\]/,/^\[/s/^enabled = no$/enabled = yes/' "$example" \
    >"$tmp/test.conf"
echo 0 >"$tmp/clock"
daemon_start || { bad "corrchessd starts with [xfcc] enabled"; finish; }
check "the log names the endpoint" grep -q \
    'xfcc: the endpoint is POST /xfccbasic.asmx' "$tmp/log"

# alice signs her moves; bob plays with Scid.
"$corrchess" keygen -f "$tmp/alice" >/dev/null 2>&1
admin POST /api/v1/players -d "{\"name\":\"alice\",\"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "create alice" 201
admin POST /api/v1/players -d '{"name":"bob","lang":"fr"}'
expect "create bob, who reads French" 201
pass='Bob'"'"'s <secret> & more'
admin PATCH /api/v1/players/bob/doors \
    -d '{"xfcc":true,"xfcc_password":"Bob'"'"'s <secret> & more"}'
expect "bob opens the Xfcc door with a password" 200
for i in 1 2 3; do
	admin POST /api/v1/games -d '{"white":"alice","black":"bob","time_control":"10/50d","event":"Club élite","site":"Zürich","auth":"signed-or-attested"}'
	expect "game $i: bob may use Xfcc" 201
done
admin POST /api/v1/games -d '{"white":"alice","black":"bob","auth":"signed"}'
expect "game 4: signatures only" 201
cc_move() {
	"$corrchess" move -s "$base" -k "$tmp/alice" -p alice "$@" \
	    >"$tmp/cc.out" 2>&1 || bad "alice's move $*: $(cat "$tmp/cc.out")"
}
cc_move 1 e4
cc_move 2 d4
cc_move 3 c4

# Scid's xfccrc, as its configuration dialog writes it, the password
# XML-escaped; a fresh HOME.
home=$tmp/home
mkdir -p "$home/.scid4.7/config"
esc=$(printf '%s' "$pass" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' \
    -e 's/>/\&gt;/g')
# xfccrc PASSWORD: write Scid's xfccrc with this (escaped) password.
xfccrc() {
	cat >"$home/.scid4.7/config/xfccrc" <<END
<?xml version="1.0" encoding="utf-8"?>
<xfcc>
<server>
   <name>corrchess</name>
   <uri>$base/xfccbasic.asmx</uri>
   <user>bob</user>
   <pass>$1</pass>
   <rating>ICCF</rating>
</server>
</xfcc>
END
}
xfccrc "$esc"
inbox=$home/.scid4.7/data/Inbox

# --- Scid: retrieve games ---------------------------------------------

scid fetch
check "retrieve: Scid wrote game 1 to its Inbox" test -f "$inbox/corrchess-1.pgn"
check "retrieve: and games 2, 3, 4" test -f "$inbox/corrchess-4.pgn"
check "retrieve: the moves" grep -qx '1. e4' "$inbox/corrchess-1.pgn"
check "retrieve: non-ASCII tags intact" grep -q '\[Event "Club élite"\]' \
    "$inbox/corrchess-1.pgn"
check "retrieve: the players" grep -q '\[White "alice"\]' \
    "$inbox/corrchess-1.pgn"
check "retrieve: eventDate as YYYY.MM.DD" grep -q \
    '\[Date "[0-9][0-9][0-9][0-9]\.[0-9][0-9]\.[0-9][0-9]"\]' \
    "$inbox/corrchess-1.pgn"
check "retrieve: the time control in seconds" grep -q \
    '\[TimeControl "10/4320000"\]' "$inbox/corrchess-1.pgn"
check "retrieve: bob's turn, by Scid's state" grep -q \
    '{corrchess-1 {myTurn true}' "$home/.scid4.7/config/xfccstate"
check "retrieve: the clocks as Scid reads them (10/50d)" grep -q \
    'corrchess-1 {myTurn true} {clockW {\(50d  0: 0\|49d 23:59\)}} {clockB {\(50d  0: 0\|49d 23:59\)}}' \
    "$home/.scid4.7/config/xfccstate"
check "retrieve: ICCF's time control recognised" grep -q \
    '{TimeControl {10 / 50d (ICCF)}}' "$home/.scid4.7/config/xfccstate"
check "retrieve: no error in Scid's console" sh -c \
    "! grep -qi 'error\|fail' '$tmp/scid'"

# --- Scid: send moves, a refused one -----------------------------------

scid_send 1 1 e5
check "send: Scid reports success" grep -q 'Processing successfull' "$tmp/scid"
same "send: the move is played" "$(moves 1)" "e4 e5"
req GET /api/v1/games/1/records
check "send: the record says the server attested it" grep -q \
    '"san":"e5","move":"e7e5",[^}]*"source":"xfcc",[^}]*"attested":"xfcc"' \
    "$tmp/out"
check "send: alice's move stays hers" grep -q \
    '"san":"e4",[^}]*"attested":null' "$tmp/out"
cc_move 1 Nf3
scid_send 1 2 Ke3
check "refused: Scid says invalid move" grep -q 'Invalid move!' "$tmp/scid"
same "refused: nothing played" "$(moves 1)" "e4 e5 Nf3"
scid_send 1 3 Nc6
# Scid reads InvalidMoveNumber as "Invalid move" (its patterns are
# tried in order); the daemon's state says it was refused.
check "refused: a move number of the future" grep -q 'Invalid move' \
    "$tmp/scid"
same "refused: nothing played" "$(moves 1)" "e4 e5 Nf3"
# A message with the move: Scid's comment, XML-escaped on the way; a
# line break in it becomes a space.
scid send corrchess 1 2 Nc6 "Merci <3 & à bientôt
alice" false false false false
check "send: Nc6" grep -q 'Processing successfull' "$tmp/scid"
req GET /api/v1/games/1
same "message: bob's, attested with Nc6" "$(js "[(m['from'], m['move'], \
    m['text']) for m in d['messages']]")" \
    "[('bob', '2...Nc6', 'Merci <3 & à bientôt alice')]"
cc_move -m "Bonne chance, bob !" 1 Bb5
scid fetch
check "message: alice's in bob's XfccGame, as Scid keeps it in the Inbox" \
    grep -q '^{Bonne chance, bob !}$' "$inbox/corrchess-1.pgn"
# A message no statement can carry is refused with a fault that says why
# (the protocol has no MakeAMoveResult for it), in bob's French, and the
# move is not played: over 500 bytes once its blanks are joined, or with a
# bidirectional control.
long=$(printf 'x%.0s' $(seq 1 501))
move_result "<gameId>1</gameId><movecount>3</movecount><myMove>Rb8</myMove><myMessage>$long</myMessage>"
same "message too long: a fault" "$code $(sed -n \
    's/.*<faultcode>\([^<]*\)<\/faultcode>.*/\1/p' "$tmp/out")" "500 soap:Client"
check "message too long: the fault says why, in French" grep -qF \
    "<faultstring>myMessage: le message est trop long : 500 octets au plus (environ 500 lettres, moins avec des accents) (le coup n&apos;est pas joué)</faultstring>" \
    "$tmp/out"
same "message too long: nothing played" "$(moves 1)" "e4 e5 Nf3 Nc6 Bb5"
scid send corrchess 1 3 Rb8 "$long" false false false false
check "message too long by Scid: no success reported" \
    sh -c "! grep -q 'Processing successfull' '$tmp/scid'"
same "message too long by Scid: nothing played" "$(moves 1)" \
    "e4 e5 Nf3 Nc6 Bb5"
move_result "<gameId>1</gameId><movecount>3</movecount><myMove>Rb8</myMove><myMessage>abc &#x202E;fed</myMessage>"
check "a bidirectional control: the fault says why" grep -qF \
    "ou de direction du texte : écrivez-le sur une seule ligne de texte simple (le coup n&apos;est pas joué)</faultstring>" \
    "$tmp/out"
same "a bidirectional control: nothing played" "$(moves 1)" \
    "e4 e5 Nf3 Nc6 Bb5"
# Bob reads French, where R is the king; Scid sends English SAN, and
# English it is read as: the rook. 500 bytes once its line breaks are
# joined are not too many.
scid send corrchess 1 3 Rb8 "$(printf 'y%.0s' $(seq 1 250))

  $(printf 'z%.0s' $(seq 1 249))" false false false false
check "a message of 500 bytes, blanks joined: sent" \
    grep -q 'Processing successfull' "$tmp/scid"
req GET /api/v1/games/1
same "... and kept whole" "$(js "len(d['messages'][-1]['text'])")" 500
same "send: Rb8 is a rook's move" "$(moves 1)" "e4 e5 Nf3 Nc6 Bb5 Rb8"
scid_send 1 4 h6
check "refused: not bob's turn" grep -q 'Not your turn!' "$tmp/scid"

# --- Scid: offer and accept a draw, resign -----------------------------

scid_send 2 1 d5 false false true
same "draw: bob's move with an offer" "$(moves 2)" "d4 d5"
req GET /api/v1/games/2
same "draw: the offer stands" "$(jget draw_offer)" black
"$corrchess" act -s "$base" -k "$tmp/alice" -p alice 2 accept-draw \
    >"$tmp/cc.out" 2>&1
req GET /api/v1/games/2
same "draw: alice accepted" "$(jget result) $(jget termination)" \
    "1/2-1/2 agreement"
scid_send 3 1 "" false true false
check "accept: refused when no draw is offered" grep -q \
    'No draw was offered!' "$tmp/scid"
scid_send 3 1 e5
"$corrchess" move -s "$base" -k "$tmp/alice" -p alice --offer-draw 3 Nc3 \
    >"$tmp/cc.out" 2>&1 || bad "alice's Nc3 with an offer: $(cat "$tmp/cc.out")"
scid fetch
check "retrieve: the offer to bob" grep -q \
    '{corrchess-3 {myTurn true} {clockW {[^}]*}} {clockB {[^}]*}} {drawOffered true}' \
    "$home/.scid4.7/config/xfccstate"
scid_send 3 2 "" false true false
req GET /api/v1/games/3
same "accept: bob accepted by Scid" "$(jget result) $(jget termination)" \
    "1/2-1/2 agreement"
scid_send 1 4 "" true
req GET /api/v1/games/1
same "resign: bob resigned by Scid" "$(jget result) $(jget termination)" \
    "1-0 resignation"
scid fetch
check "retrieve: the finished game's result" grep -q '\[Result "1-0"\]' \
    "$inbox/corrchess-1.pgn"

# --- corrchess verify: a game with both kinds of records ----------------

"$corrchess" verify -s "$base" 1 >"$tmp/verify" 2>&1
same "verify: exit 0" "$?" 0
same "verify: the chain holds, the attested plies listed" \
    "$(tail -n 1 "$tmp/verify")" \
    "game 1: 7 records, the chain holds; 4 attested by the server at plies 1 (e5, xfcc), 3 (Nc6, xfcc), 5 (Rb8, xfcc), 6 (resign, xfcc)"
"$corrchess" verify -s "$base" 2 >"$tmp/verify" 2>&1
same "verify: the draw's record" "$(tail -n 1 "$tmp/verify")" \
    "game 2: 3 records, the chain holds; 1 attested by the server at ply 1 (d5, xfcc)"
"$corrchess" verify -s "$base" 99 >"$tmp/verify" 2>&1
same "verify: no such game, exit 1" "$?" 1

# --- Scid: a game for signatures only, a wrong password ----------------

cc_move 4 e4
scid_send 4 1 e5
check "signatures only: refused as an authentication" grep -q \
    'Authentication failed!' "$tmp/scid"
same "signatures only: nothing played" "$(moves 4)" "e4"
xfccrc "wrong password"
scid fetch
check "wrong password: Scid's message box" grep -q \
    'Could not authenticate to the Xfcc-Server' "$tmp/scid"
scid_send 4 1 e5
check "wrong password: the move refused" grep -q \
    'Authentication failed!' "$tmp/scid"
same "wrong password: nothing played" "$(moves 4)" "e4"

# --- SOAP by curl: faults and the parser's limits ----------------------

soap GetMyGames "<username>bob</username><password>$esc</password>"
same "GetMyGames: 200" "$code" 200
check "GetMyGames: unprefixed response with a bare result" grep -q \
    '<GetMyGamesResponse xmlns="http://www.bennedik.com/webservices/XfccBasic"><GetMyGamesResult><XfccGame>' \
    "$tmp/out"
for f in id white black event site eventDate myTurn hasWhite drawOffered \
    setup fen moves result daysPlayer hoursPlayer minutesPlayer \
    daysOpponent hoursOpponent minutesOpponent timeControl message \
    variant; do
	grep -q "<$f>" "$tmp/out" || bad "GetMyGames: no <$f>"
done
ok "GetMyGames: every field of XfccGame"
req POST /xfccbasic.asmx -D "$tmp/headers" --data-binary "@$tmp/soap.xml"
check "Content-Type: text/xml; charset=utf-8" grep -qi \
    '^Content-Type: text/xml; charset=utf-8' "$tmp/headers"
soap GetMyGames "<username>bob</username><password>nope</password>"
same "a wrong password: a SOAP fault" "$code" 500
check "a wrong password: faultstring AuthenticationFailed" grep -q \
    '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>AuthenticationFailed</faultstring></soap:Fault>' \
    "$tmp/out"
soap GetMyGamesPlease "<username>bob</username>"
check "an unknown operation: a fault naming it" grep -q \
    'unknown operation \&quot;GetMyGamesPlease\&quot;' "$tmp/out"
req POST /xfccbasic.asmx --data-binary 'not xml'
check "not XML: a fault" grep -q 'not well-formed XML' "$tmp/out"
printf '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMyGames xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>&b;</username></GetMyGames></soap:Body></soap:Envelope>' >"$tmp/dtd.xml"
req POST /xfccbasic.asmx --data-binary "@$tmp/dtd.xml"
check "a DOCTYPE (entities): refused" grep -q \
    'document type declaration is not accepted' "$tmp/out"
deep="$(printf '<a>%.0s' 1 2 3 4 5 6 7 8 9 10)$(printf '</a>%.0s' 1 2 3 4 5 6 7 8 9 10)"
soap GetMyGames "<username>bob</username>$deep"
check "elements nested too deep: refused" grep -q 'nested deeper than' \
    "$tmp/out"
soap GetMyGames "<username>$(printf 'x%.0s' $(seq 1 200))</username>"
check "a user name too long: refused" grep -q 'longer than 128 bytes' \
    "$tmp/out"

move_result "<gameId>99</gameId><movecount>1</movecount><myMove>e5</myMove>"
same "MakeAMove: no such game" "$result" InvalidGameID
admin POST /api/v1/players -d '{"name":"carol"}'
admin POST /api/v1/games -d '{"white":"alice","black":"carol","auth":"signed-or-attested"}'
move_result "<gameId>5</gameId><movecount>1</movecount><myMove>e5</myMove>"
same "MakeAMove: another's game" "$result" NotYourGame
move_result "<gameId>4</gameId><movecount>1</movecount><myMove>e5</myMove>"
same "MakeAMove: signatures only" "$result" AuthenticationFailed
move_result "<gameId>4</gameId><movecount>1</movecount><myMove>e5</myMove><resign>maybe</resign>"
check "MakeAMove: a flag that is not one" grep -q \
    '&lt;resign&gt; must be true or false' "$tmp/out"
move_result "<gameId>1</gameId><movecount>5</movecount><myMove>h5</myMove>"
same "MakeAMove: a game over" "$result" NotYourTurn
admin POST /api/v1/games -d '{"white":"alice","black":"bob","fen":"1n2kn2/8/8/8/8/8/8/4K3 b - - 0 1","auth":"signed-or-attested"}'
move_result "<gameId>6</gameId><movecount>1</movecount><myMove>Nd7</myMove>"
same "MakeAMove: an ambiguous move (Xfcc's spelling)" "$result" \
    MoveIsAmbigous
move_result "<gameId>6</gameId><movecount>2</movecount><myMove>Nbd7</myMove>"
same "MakeAMove: a move number not the game's" "$result" InvalidMoveNumber
move_result "<gameId>6</gameId><movecount>1</movecount><myMove>Nbd7</myMove>"
same "MakeAMove: black moves first in a set-up position" "$result" Success
move_result "<gameId>6</gameId><movecount>1</movecount><myMove>Nbd7</myMove>"
same "MakeAMove: the same move again" "$result" NotYourTurn
soap GetMyGames "<username>bob</username><password>$esc</password>"
check "GetMyGames: the set-up game's FEN" grep -q \
    '<setup>true</setup><fen>1n2kn2/8/8/8/8/8/8/4K3 b - - 0 1</fen><moves>1... Nbd7</moves>' \
    "$tmp/out"

# --- alice sets her own Xfcc password by signed statement ---------------

admin PATCH /api/v1/players/alice/doors -d '{"xfcc":true}'
expect "the admin opens alice's Xfcc door, without a password" 200
echo 'alice s3cret pass' | "$corrchess" settings -s "$base" -k "$tmp/alice" \
    -p alice xfcc-password - >"$tmp/cc.out" 2>&1
same "alice signs set xfcc-password (hashed by the client): exit 0" "$?" 0
check "she is told it changed" grep -q 'your Xfcc password is changed' \
    "$tmp/cc.out"
req GET /api/v1/players/alice/doors
same "her doors: a password is set" "$(jget xfcc_password)" true
sqlite3 "$tmp/state/corrchess.db" \
    'SELECT statement FROM player_records' >"$tmp/records"
check "her record keeps the signed statement with the Argon2id string" \
    grep -q '^action: set xfcc-password \$argon2id\$' "$tmp/records"
check "and never the password" sh -c "! grep -q 's3cret' '$tmp/records'"
soap GetMyGames "<username>alice</username><password>alice s3cret pass</password>"
same "alice logs in to Xfcc with it" "$code" 200
soap GetMyGames "<username>alice</username><password>alice s3cret</password>"
same "a wrong one still fails" "$code" 500
"$corrchess" settings -s "$base" -k "$tmp/alice" -p alice xfcc-password \
    none >"$tmp/cc.out" 2>&1
req GET /api/v1/players/alice/doors
same "xfcc-password none removes it" "$(jget xfcc_password)" false

# --- An event's auth rule; ratings in GetMyGames -------------------------

admin POST /api/v1/events -d '{"name":"m1","format":"match","games":2,"players":["alice","bob"],"auth":"maybe"}'
check "event: an auth rule that is not one, refused" \
    sh -c "[ '$code' = 400 ] && grep -q '\"bad-auth\"' '$tmp/out'"
admin POST /api/v1/events -d '{"name":"m1","format":"match","games":2,"players":["alice","bob"],"auth":"signed-or-attested"}'
expect "event: a rated match whose games take attested moves" 201
same "event: its rules say so" "$(js "d['rules']['auth']")" \
    signed-or-attested
admin POST /api/v1/events -d '{"name":"m2","format":"match","games":2,"players":["alice","bob"]}'
same "event: without auth, the server's default" \
    "$(js "d['rules']['auth']")" signed
admin POST /api/v1/events/m1/start
expect "event m1 starts" 200
admin POST /api/v1/events/m2/start
expect "event m2 starts" 200
req GET /api/v1/events/m1
g1=$(js "d['games'][0]['id']")
g2=$(js "d['games'][1]['id']")
req GET "/api/v1/games/$g1"
same "event: game $g1 takes the event's rule" "$(jget auth)" \
    signed-or-attested
req GET /api/v1/events/m2
g3=$(js "d['games'][0]['id']")
req GET "/api/v1/games/$g3"
same "event: game $g3 takes the default" "$(jget auth)" signed
soap GetMyGames "<username>bob</username><password>$esc</password>"
cp "$tmp/out" "$tmp/before"
# In game g1 alice has White: bob resigns at once, by Xfcc.
move_result "<gameId>$g1</gameId><movecount>1</movecount><myMove></myMove><resign>true</resign>"
same "event: bob resigns game $g1 by Xfcc" "$result" Success
req GET /api/v1/ratings
same "event: the rated game rated both" "$(js "len(d['ratings'])")" 2
welo=$(js "[round(r['rating']) for r in d['ratings'] if r['player'] == 'alice'][0]")
belo=$(js "[round(r['rating']) for r in d['ratings'] if r['player'] == 'bob'][0]")
soap GetMyGames "<username>bob</username><password>$esc</password>"
check "GetMyGames: the ratings the game was rated at" grep -q \
    "<XfccGame><id>$g1</id><white>alice</white><black>bob</black><whiteElo>1500</whiteElo><blackElo>1500</blackElo>" \
    "$tmp/out"
check "GetMyGames: the current ratings in the next game" grep -q \
    "<XfccGame><id>$g2</id><white>bob</white><black>alice</black><whiteElo>$belo</whiteElo><blackElo>$welo</blackElo>" \
    "$tmp/out"
check "GetMyGames: before the first rated game, no rating fields" sh -c \
    "! grep -q '<whiteElo>' '$tmp/before'"
xfccrc "$esc"
scid fetch
check "Scid: the ratings in its PGN, under the rating name it was given" \
    grep -q "^\[WhiteICCF \"$belo\"\]" "$inbox/corrchess-$g2.pgn"
check "Scid: Black's too" grep -q "^\[BlackICCF \"$welo\"\]" \
    "$inbox/corrchess-$g2.pgn"

# An event's draw rule refuses an offer: the nearest result is InvalidMove
# (the move with its offer is not allowed; the move alone would be).
admin POST /api/v1/events -d '{"name":"m3","format":"match","games":2,"players":["alice","bob"],"auth":"signed-or-attested","draw_min_move":20}'
admin POST /api/v1/events/m3/start
req GET /api/v1/events/m3
g4=$(js "[g['id'] for g in d['games'] if g['white'] == 'bob'][0]")
move_result "<gameId>$g4</gameId><movecount>1</movecount><myMove>e4</myMove><offerDraw>true</offerDraw>"
same "MakeAMove: an offer the draw rule refuses" "$result" InvalidMove
req GET "/api/v1/games/$g4"
same "the move with the refused offer is not played" "$(jget ply)" 0
move_result "<gameId>$g4</gameId><movecount>1</movecount><myMove>e4</myMove>"
same "MakeAMove: the move alone" "$result" Success

finish
