#!/bin/sh
# tests/web.sh: the web pages and the SVG board over the wire.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The web front door as curl reads it, against the real corrchessd on a
# free loopback port: the club, game and player pages in English and
# French (by ?lang= and by Accept-Language), escaping, the security headers
# on every page (a strict Content-Security-Policy, no inline script or
# style, no cookie), the board as SVG (well-formed for xmllint, sizes,
# flip, last move and check marked, refused options), the assets with
# their ETags (304 on If-None-Match, a year's cache lifetime), the legal
# moves in the game's JSON, the size of a game page, invitations (single
# use, expiry, refusals; `corrchess admin invite`) and published keys.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen xmllint

# has NAME TEXT [FILE]: FILE ($tmp/out) holds TEXT (fixed string).
has() {
	if grep -qF -- "$2" "${3:-$tmp/out}"; then
		ok "$1"
	else
		bad "$1: '$2' not in $(head -c 400 "${3:-$tmp/out}")"
	fi
}

# lacks NAME TEXT [FILE]: FILE ($tmp/out) does not hold TEXT.
lacks() {
	if grep -qF -- "$2" "${3:-$tmp/out}"; then
		bad "$1: '$2' found"
	else
		ok "$1"
	fi
}

# page NAME PATH [CURL-ARG...]: GET PATH, headers to $tmp/hdr; a page
# must be 200 text/html with the security headers and no cookie.
page() {
	name=$1
	path=$2
	shift 2
	req GET "$path" -D "$tmp/hdr" "$@"
	expect "$name" 200
	has "$name: HTML" "Content-Type: text/html; charset=utf-8" "$tmp/hdr"
	has "$name: CSP" "Content-Security-Policy: default-src 'self';" \
	    "$tmp/hdr"
	has "$name: no framing" "frame-ancestors 'none'" "$tmp/hdr"
	has "$name: nosniff" "X-Content-Type-Options: nosniff" "$tmp/hdr"
	lacks "$name: no cookie" "Set-Cookie" "$tmp/hdr"
	# No inline script or style: every <script> has a src, no style.
	if grep -o '<script[^>]*>' "$tmp/out" | grep -qv ' src="'; then
		bad "$name: an inline script"
	else
		ok "$name: no inline script"
	fi
	lacks "$name: no style element" "<style" "$tmp/out"
	lacks "$name: no style attribute" " style=" "$tmp/out"
	lacks "$name: no inline handler" " onclick=" "$tmp/out"
}

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
done
admin POST /api/v1/players -d "{\"name\":\"alice\",
    \"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "create alice" 201
admin POST /api/v1/players -d "{\"name\":\"bob\",\"lang\":\"fr\",
    \"keys\":[\"$(cat "$tmp/bob.pub")\"]}"
expect "create bob" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob",
    "time_control":"10/50d","event":"Club <championship> & co"}'
expect "create game 1" 201
has "legal moves in the game's JSON" '{"uci":"g1f3","san":"Nf3"}'
check "20 legal moves at the start" [ "$(grep -o '"uci":' "$tmp/out" |
    wc -l)" -eq 20 ]

# move GAME PLAYER PLY ACTION: a signed action, accepted.
move() {
	statement "$1" "$3" "$2" "$4"
	sign_ssh "$tmp/$2"
	submit "$1"
	expect "game $1 ply $3: $2 $4" 201
}
move 1 alice 0 "move e4"
move 1 bob 1 "move e5"
move 1 alice 2 "move Nf3"
move 1 bob 3 "move Cc6"
move 1 alice 4 "move Bb5"

# --- The game page ------------------------------------------------------
page "game page" /games/1
has "game page: English" '<html lang="en">'
has "game page: the board inline" '<svg'
has "game page: interactive squares" 'data-square="e4"'
has "game page: the moves in English" '<span class="cc-san">Nc6</span>'
has "game page: to move" 'Black to move (bob), ply 5.'
has "game page: the event escaped" \
    'Club &lt;championship&gt; &amp; co'
lacks "game page: no raw event" 'Club <championship>'
has "game page: the position in words" 'White: King e1'
has "game page: ICCF moves to the control" '8 moves to the time control'
has "game page: the deadline" 'class="cc-deadline"'
check "game page: the deadline in words, UTC, without script" grep -Eq \
    'class="cc-deadline" datetime="[0-9T:-]+Z">[A-Z][a-z]+day [0-9]{1,2} [A-Z][a-z]+ [0-9]{4}, [0-9]{2}:[0-9]{2} UTC</time>' \
    "$tmp/out"
lacks "game page: no draw to answer, no accept button" 'data-action="accept-draw"'
lacks "game page: no draw to answer, no decline button" 'data-action="decline-draw"'
has "game page: the running clock" 'data-running="1"'
has "game page: conditional moves, shown by the module" \
    '<section id="cc-cond" class="cc-cond" hidden'
has "game page: PGN download" 'href="/api/v1/games/1/pgn" download='
has "game page: the record" 'href="/api/v1/games/1/records"'
has "game page: the English title, no space before the colon" \
    '<title>Game 1: alice – bob'
has "game page: the English heading" '<h1>Game 1: <a'
has "game page: the stylesheet" 'href="/static/corrchess.css?v='
has "game page: the module" 'type="module" src="/static/corrchess.js?v='
size=$(wc -c <"$tmp/out")
check "game page with its board under 30 KB ($size bytes)" \
    [ "$size" -lt 30720 ]
# The board inside the page is well-formed XML.
tr '\n' ' ' <"$tmp/out" | sed 's|.*\(<svg.*</svg>\).*|\1|' \
    >"$tmp/inline.svg"
check "game page: the inline board is well-formed" \
    xmllint --noout "$tmp/inline.svg"

page "game page in French (?lang=fr)" "/games/1?lang=fr"
has "French page" '<html lang="fr">'
has "French SAN" '<span class="cc-san">Cc6</span>'
has "French status" 'Trait aux Noirs (bob), demi-coup 5.'
has "French words" 'Blancs : Roi e1'
has "French title: a space before the colon" '<title>Partie 1 : alice – bob'
has "French heading: a space before the colon" '<h1>Partie 1 : <a'
check "French deadline in words" grep -Eq \
    'class="cc-deadline" datetime="[0-9T:-]+Z">[a-z]+ [0-9]{1,2} [a-zéû]+ [0-9]{4}, [0-9]{2}:[0-9]{2} UTC</time>' \
    "$tmp/out"
page "game page in French (Accept-Language)" /games/1 \
    -H 'Accept-Language: de;q=0.9, fr-CA;q=1, en;q=0.5'
has "Accept-Language: French" '<html lang="fr">'
page "game page, English preferred" /games/1 \
    -H 'Accept-Language: en-GB, fr;q=0.8'
has "Accept-Language: English" '<html lang="en">'
page "flipped game page" "/games/1?flip=1"
has "flipped board" 'data-orientation="black"'

req GET /games/99 -D "$tmp/hdr"
expect "no such game: 404" 404
has "no such game: a page" "<html" "$tmp/out"
has "no such game: the reason" "there is no game 99"

# --- Club and player pages ----------------------------------------------
admin POST /api/v1/games -d '{"white":"bob","black":"alice"}'
expect "create game 2" 201
statement 2 0 bob "resign"
sign_ssh "$tmp/bob"
submit 2
expect "bob resigns game 2" 201
page "club page" /
has "club: ongoing game" '<a href="/games/1">1</a>'
has "club: finished game with its result" '<td class="cc-state">0-1</td>'
has "club: players" '<a href="/players/alice">alice</a>'
has "club: rows the module reads" 'data-turn="black"'
page "player page" /players/bob
has "player: name" '<h1>bob</h1>'
has "player: leave" ": 0 days taken, 45 left (of 45)."
has "player: games" '<a href="/games/2">2</a>'
lacks "player: no e-mail address" '@example.org'
req GET /players/nobody
expect "no such player: 404" 404

# --- The board as SVG ---------------------------------------------------
req GET /api/v1/games/1/board.svg -D "$tmp/hdr"
expect "board.svg" 200
has "board.svg: SVG" "Content-Type: image/svg+xml" "$tmp/hdr"
cp "$tmp/out" "$tmp/b.svg"
check "board.svg: well-formed" xmllint --noout "$tmp/b.svg"
has "board.svg: default size" 'width="360"'
has "board.svg: last move marked" 'cc-last'
has "board.svg: coordinates" 'cc-coord'
has "board.svg: described" 'White: King e1'
for s in 16 100 2048; do
	req GET "/api/v1/games/1/board.svg?size=$s"
	expect "board.svg size $s" 200
	has "board.svg size $s: width" "width=\"$s\""
	cp "$tmp/out" "$tmp/b$s.svg"
	check "board.svg size $s: well-formed" xmllint --noout "$tmp/b$s.svg"
done
lacks "board.svg size 2048: not interactive" 'data-square'
req GET "/api/v1/games/1/board.svg?flip=1&lang=fr"
expect "board.svg flipped, in French" 200
has "board.svg flipped: French description" 'Blancs : Roi e1'
for q in size=15 size=2049 size=big flip=2 coords=x; do
	req GET "/api/v1/games/1/board.svg?$q"
	expect "board.svg ?$q refused" 400
done
req GET "/api/v1/games/1/board.svg?flop=1"
expect "board.svg with an unknown parameter" 400
has "board.svg: the closest name" 'did you mean flip?'
req GET /api/v1/games/99/board.svg
expect "board.svg of no game" 404
# Check marked: 1. e4 f5 2. Qh5+ in game 3.
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
move 3 alice 0 "move e4"
move 3 bob 1 "move f5"
move 3 alice 2 "move Qh5"
req GET /api/v1/games/3/board.svg
has "board.svg: check marked" 'cc-check'
# The page of game 3 read (and kept) just before a move: the next read
# is of the game after it.
req GET /games/3
lacks "game 3 before the offer: nothing to accept" 'data-action="accept-draw"'
move 3 bob 3 "move g6 offer-draw"
page "a game with a draw offered" /games/3
has "the draw offered can be accepted" 'data-action="accept-draw"'
has "and declined" 'data-action="decline-draw"'
has "the offer's side, for the module" 'data-offer-by="black"'
# The game page's ETag (game 3 has no clock: the page holds from one
# second to the next): 304 while the page is the same, in its language.
# etag_of PATH [CURL-ARG...]: the ETag of a GET of PATH.
etag_of() {
	p=$1
	shift
	curl -s -D "$tmp/hdr" -o /dev/null "$@" "$base$p"
	sed -n 's/^[Ee][Tt][Aa][Gg]: *\("[0-9a-f]*"\).*/\1/p' "$tmp/hdr"
}
ptag=$(etag_of /games/3)
check "the game page has an ETag" test -n "$ptag"
same "one Cache-Control header, no-cache" \
    "$(grep -i '^cache-control:' "$tmp/hdr" | tr -d '\r')" \
    "Cache-Control: no-cache"
same "the same ETag read again, from the kept page" \
    "$(etag_of /games/3)" "$ptag"
rm -f "$tmp/out"
req GET /games/3 -H "If-None-Match: $ptag" -D "$tmp/hdr"
expect "the game page asked again with its ETag" 304
check "a 304 has no body" test ! -e "$tmp/out"
has "the 304 names the ETag" "ETag: $ptag" "$tmp/hdr"
req GET "/games/3?lang=fr" -H "If-None-Match: $ptag"
expect "the French page, other bytes, with the English ETag" 200
has "the French page answered whole" '<html lang="fr">'
ftag=$(etag_of "/games/3?lang=fr")
check "the French page's own ETag" test -n "$ftag" -a "$ftag" != "$ptag"
req GET /api/v1/games/3/pgn
req GET /api/v1/games/3/pgn
lacks "game 3's PGN, kept, before the move" 'Qe2'
gtag=$(etag_of /api/v1/games/3/pgn)
move 3 alice 4 "move Qe2"
req GET /games/3 -H "If-None-Match: $ptag"
expect "after a move, the old ETag gets the page" 200
has "the page after the move" 'Black to move (bob), ply 5.' "$tmp/out"
req GET /api/v1/games/3/pgn -H "If-None-Match: $gtag"
expect "after a move, the PGN's old ETag gets the PGN" 200
has "the PGN after the move" '3. Qe2' "$tmp/out"
req GET /api/v1/games/2
lacks "no legal moves once the game is over" '"legal_moves"'

# --- Invitations and published keys -------------------------------------
req POST /api/v1/players/alice/invitations
expect "an invitation needs the admin token" 401
admin POST /api/v1/players/nobody/invitations
expect "an invitation for no player" 404 no-such-player
admin POST /api/v1/players/alice/invitations -d '{"days":91}'
expect "an invitation of 91 days" 400 bad-request
admin POST /api/v1/players/alice/invitations -d '{"dayz":3}'
expect "an unknown member" 400 bad-request
admin POST /api/v1/players/alice/invitations -D "$tmp/hdr"
expect "invite alice" 201
has "the invitation is not cached" "Cache-Control: no-store" "$tmp/hdr"
tok=$(jget token)
check "a token of 43 base64url characters" \
    sh -c "echo '$tok' | grep -qx '[A-Za-z0-9_-]\{43\}'"
same "the link's path" "$(jget path)" "/invite#$tok"
ssh-keygen -q -t ed25519 -N '' -C alice-phone -f "$tmp/phone"
req POST /api/v1/invitations -d "{\"token\":\"${tok}x\",
    \"key\":\"$(cat "$tmp/phone.pub")\"}"
expect "a token that is not one" 404 no-such-invitation
req POST /api/v1/invitations -d "{\"token\":\"$tok\",\"key\":\"nope\"}"
expect "a bad key: refused" 400 bad-key
req POST /api/v1/invitations -d "{\"token\":\"$tok\",
    \"key\":\"$(cat "$tmp/phone.pub")\"}"
expect "enrol with the invitation (after a refusal)" 201
same "enrolled as" "$(jget player) $(jget lang)" "alice en"
req POST /api/v1/invitations -d "{\"token\":\"$tok\",
    \"key\":\"$(cat "$tmp/phone.pub")\"}"
expect "the same invitation again" 410 invitation-used
admin POST /api/v1/players/bob/invitations -d '{"days":1}'
tok=$(jget token)
echo 90000 >"$tmp/clock"
req POST /api/v1/invitations -d "{\"token\":\"$tok\",
    \"key\":\"$(cat "$tmp/phone.pub")\"}"
expect "an expired invitation" 410 invitation-expired
echo 0 >"$tmp/clock"
req GET /api/v1/players/alice/keys
expect "alice's published keys, without a token" 200
check "both of alice's keys published" [ "$(grep -o '"fingerprint"' \
    "$tmp/out" | wc -l)" -eq 2 ]
lacks "no e-mail address among the keys" '"email"'
page "the invitation page" /invite
has "the invitation page: its button" 'id="cc-enrol" hidden'
run admin invite -s "$base" -t "$tmp/state/admin.token" --days 3 bob
same "corrchess admin invite" "$status" 0
check "corrchess admin invite prints the link" \
    grep -q "^$base/invite#[A-Za-z0-9_-]\{43\}\$" "$tmp/out"
run admin invite -s "$base" -t "$tmp/state/admin.token" nobody
same "corrchess admin invite nobody" "$status" 1
has "and says why" 'there is no player "nobody"' "$tmp/err"

# --- Assets -------------------------------------------------------------
for a in corrchess.css corrchess.js; do
	req GET "/static/$a" -D "$tmp/hdr"
	expect "$a" 200
	has "$a: ETag" "ETag: \"" "$tmp/hdr"
	has "$a: cached a year" "max-age=31536000" "$tmp/hdr"
	etag=$(sed -n 's/^ETag: \(.*\)\r$/\1/p' "$tmp/hdr")
	req GET "/static/$a" -H "If-None-Match: $etag"
	expect "$a: 304 with its ETag" 304
	req GET "/static/$a" -H 'If-None-Match: "other"'
	expect "$a: 200 with another ETag" 200
done
req GET /static/corrchess.js -D "$tmp/hdr"
has "the module is JavaScript" "Content-Type: text/javascript" "$tmp/hdr"
req GET /static/nothing.js
expect "no such asset" 404

finish
