#!/bin/sh
# tests/events.sh: a whole club event end to end over curl.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A club championship through the real corrchessd and curl: five players,
# a double round robin paired by the Berger tables, its games ended by
# mate, agreed draws, resignations and a loss on time (the test clock),
# one player withdrawn under the rule "lose" (the remaining games lost by
# forfeit); then a round robin under the rule "annul" (ICCF: fewer than
# half the games played, all annulled), in Chess960 with one position per
# pairing. The crosstable (JSON, text and the event's web page, whose
# every result links to its game), the tie-break order and the event's
# PGN are checked against values computed by hand, written below;
# the Glicko-2 ratings of its games against tests/glicko2.py, written from
# Glickman's paper apart from src/event.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen python3

# rated GAME: note the end of a rated game in $tmp/rated as the
# independent computation reads it: when its last record was made, its
# players and white's score.
rated() {
	req GET "/api/v1/games/$1"
	case $(jget result) in
	1-0) s=1 ;;
	0-1) s=0 ;;
	*) s=0.5 ;;
	esac
	w=$(jget white)
	b=$(jget black)
	req GET "/api/v1/games/$1/records"
	printf '%s %s %s %s\n' "$(js 'int(__import__("datetime").datetime.
	    strptime(d["records"][-1]["at"], "%Y-%m-%dT%H:%M:%SZ").replace(
	    tzinfo=__import__("datetime").timezone.utc).timestamp())')" \
	    "$w" "$b" "$s" >>"$tmp/rated"
}

# act GAME PLAYER ACTION: sign ACTION with `corrchess sign` for the game's
# current ply and submit it; it must be accepted.
act() {
	req GET "/api/v1/games/$1"
	ply=$(jget ply)
	# The action's words, split.
	# shellcheck disable=SC2086
	"$corrchess" sign -k "$tmp/$2" --game "$1" --ply "$ply" -p "$2" $3 \
	    >"$tmp/body"
	submit "$1"
	expect "game $1 ply $ply: $2 $3" 201
}

# game_of EVENT WHITE BLACK: the id of the event's game WHITE v BLACK.
game_of() {
	req GET "/api/v1/events/$1"
	python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))
for g in ev["games"]:
    if g["white"] == sys.argv[2] and g["black"] == sys.argv[3]:
        print(g["id"])
' "$tmp/out" "$2" "$3"
}

# finish_game EVENT WHITE BLACK HOW: end the game as HOW says: white or
# black (that side wins, the other resigns), draw (white offers with its
# move, black accepts), mate (black mates: the fool's mate).
finish_game() {
	g=$(game_of "$1" "$2" "$3")
	case $4 in
	white) act "$g" "$3" resign ;;
	black) act "$g" "$2" resign ;;
	draw)
		act "$g" "$2" "move e4 offer-draw"
		act "$g" "$3" accept-draw
		;;
	mate)
		act "$g" "$2" "move f3"
		act "$g" "$3" "move e5"
		act "$g" "$2" "move g4"
		act "$g" "$3" "move Qh4"
		;;
	esac
	[ "$1" = club ] && rated "$g"
}

# Rating periods of a day, so that the loss on time eleven days on shows
# deviations grown with inactivity.
sed -e 's/^port = .*/port = 0/' -e 's/^period = .*/period = 1d/' "$example" \
    >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

players="ann ben cid dan eve"
for p in $players; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
	admin POST /api/v1/players -d "{\"name\":\"$p\",
	    \"email\":\"$p@example.org\",\"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	expect "create $p" 201
done

# --- Creating an event --------------------------------------------------

req POST /api/v1/events -d '{"name":"club"}'
expect "create an event without the token" 401 unauthorized
admin POST /api/v1/events -d '{"name":"club","colour":"white"}'
expect "an unknown member" 400 bad-request
admin POST /api/v1/events -d '{"name":"Club"}'
expect "an upper-case event name" 400 bad-event
admin POST /api/v1/events -d '{"name":"club","format":"swiss"}'
expect "an unknown format" 400 bad-format
admin POST /api/v1/events -d '{"name":"club","tiebreaks":["buchholz"]}'
expect "an unknown tie-break" 400 bad-tiebreaks
admin POST /api/v1/events -d '{"name":"club","players":["ann","zed"]}'
expect "an unknown player" 404 no-such-player
admin POST /api/v1/events -d '{"name":"club","withdrawal":"never"}'
expect "an unknown withdrawal rule" 400 bad-withdrawal
admin POST /api/v1/events -d '{"name":"club","title":"Club championship 2026",
    "format":"double-round-robin","time_control":"10d/move",
    "players":["ann","ben","cid","dan"]}'
expect "create the club championship" 201
same "a new event is created" "$(js 'd["status"]')" created
same "default tie-breaks" "$(js '",".join(d["rules"]["tiebreaks"])')" \
    DE,Wins,SB,Koya
admin POST /api/v1/events -d '{"name":"club"}'
expect "the same name again" 409 event-exists
admin POST /api/v1/events/club/players -d '{"player":"eve"}'
expect "add eve" 201
admin POST /api/v1/events/club/players -d '{"player":"eve"}'
expect "add eve again" 409 already-in-event
admin POST /api/v1/events/club/players -d '{"player":"zed"}'
expect "add a stranger" 404 no-such-player
admin DELETE /api/v1/events/club/players/cid
expect "remove cid" 200
admin DELETE /api/v1/events/club/players/cid
expect "remove cid again" 404 not-in-event
admin POST /api/v1/events/club/players -d '{"player":"cid"}'
expect "add cid back" 201
admin POST /api/v1/events/club/withdrawals -d '{"player":"cid"}'
expect "withdraw before the start" 409 event-not-started
req GET /api/v1/events/nope
expect "an unknown event" 404 no-such-event
req GET /api/v1/events
expect "list the events" 200
check "the list names the event" sh -c \
    "'$top_builddir/tests/jget' 'events.*.name' '$tmp/out' | grep -qx club"

# --- Starting it --------------------------------------------------------

req POST /api/v1/events/club/start
expect "start without the token" 401 unauthorized
admin POST /api/v1/events/club/start
expect "start the club championship" 200
same "started" "$(js 'd["status"]')" started
check "20 games created" python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))
assert len(ev["games"]) == 20, len(ev["games"])
' "$tmp/out"
# The start numbers follow the order the players were added: ann ben dan
# eve cid. The FIDE table for 6 (5 players and a bye, the bye is 6),
# rounds 1-5, then the second cycle with colours reversed.
python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))
seed = {p["name"]: p["seed"] for p in ev["players"]}
for g in ev["games"]:
    print(g["round"], g["board"], seed[g["white"]], seed[g["black"]])
' "$tmp/out" >"$tmp/pairings"
python3 -c '
import sys
rounds = []
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    rounds.append(line.split(":")[1].split())
for cycle in (0, 1):
    for r, pairs in enumerate(rounds):
        for b, pair in enumerate(pairs):
            w, k = (int(x) for x in pair.split("-"))
            if 6 in (w, k):
                continue
            if cycle:
                w, k = k, w
            print(cycle * 5 + r + 1, b + 1, w, k)
' "$top_srcdir/tests/data/berger/table-06.txt" >"$tmp/want-pairings"
check "Berger pairings of a double round robin of 5" \
    cmp -s "$tmp/pairings" "$tmp/want-pairings"
req GET /api/v1/events/club -H 'Accept: text/plain'
admin POST /api/v1/events/club/start
expect "start it again" 409 event-started
admin POST /api/v1/events/club/players -d '{"player":"ann"}'
expect "add a player once started" 409 event-started
req GET /api/v1/events/club -H 'Accept: text/plain'
check "an unfinished game shows as *" grep -q '^  1  ann .*\*\*' "$tmp/out"

# --- Playing it ---------------------------------------------------------

# The results, chosen so that ann and ben tie on points and on their
# direct encounter and are parted by their number of wins (see the
# figures below). Rounds 1 to 5:
finish_game club ben cid white
finish_game club dan eve black
finish_game club cid dan white
finish_game club ann ben white
req GET /api/v1/events/club -H 'Accept: text/plain'
check "a finished game and an unfinished one side by side" \
    grep -q '^  1  ann  *xx  1\*  \*\*  ' "$tmp/out"
finish_game club dan ann draw
finish_game club eve cid draw
finish_game club ann eve white
finish_game club ben dan draw
finish_game club eve ben black
finish_game club cid ann mate
g=$(game_of club cid ann)
req GET "/api/v1/games/$g"
same "the mate ends the game" "$(jget termination)" checkmate

# eve withdraws after the first cycle: under the rule "lose" her four
# remaining games are lost by forfeit, at once.
req POST /api/v1/events/club/withdrawals -d '{"player":"eve"}'
expect "withdraw without the token" 401 unauthorized
admin POST /api/v1/events/club/withdrawals -d '{"player":"zed"}'
expect "withdraw a stranger" 404 not-in-event
admin POST /api/v1/events/club/withdrawals -d '{"player":"eve"}'
expect "eve withdraws" 201
same "eve's remaining games are forfeits" "$(js '" ".join(sorted(
    g["adjusted"] or "-" for g in d["games"]
    if "eve" in (g["white"], g["black"]) and g["round"] > 5))' )" \
    "black-withdrew black-withdrew white-withdrew white-withdrew"
same "and ended" "$(js 'sum(1 for g in d["games"]
    if g["adjusted"] and g["status"] == "finished")')" 4
admin POST /api/v1/events/club/withdrawals -d '{"player":"eve"}'
expect "withdraw eve again" 409 withdrawn

# Rounds 6 to 10; dan v cid is lost on time by cid.
finish_game club cid ben black
finish_game club ben ann white
finish_game club ann dan draw
finish_game club dan ben white
finish_game club ann cid draw
g=$(game_of club dan cid)
act "$g" dan "move e4"
req GET /api/v1/events/club
same "one game left" "$(js 'sum(1 for g in d["games"]
    if g["status"] == "ongoing")')" 1
same "the event goes on" "$(js 'd["status"]')" started
echo $((11 * 86400)) >"$tmp/clock"
req GET "/api/v1/games/$g"
same "cid's flag falls" "$(jget termination) $(jget result)" "timeout 1-0"
rated "$g"
req GET /api/v1/events/club
same "the last game ends the event" "$(js 'd["status"]')" finished

# --- The crosstable, by hand --------------------------------------------

# Points: ann 5½ (ben 1, dan 1, eve 2 with a forfeit, cid 1½), ben 5½
# (ann 1, dan ½, eve 2, cid 2), dan 4½, cid 3, eve 1½: 20 games, 20
# points. ann and ben: 1 each in their direct encounter; wins (forfeits
# count): ben 5, ann 4, so ben is first. Sonneborn-Berger (a beaten
# opponent's points, half a drawn one's, per game): ann 5.5 + 3 + 1.5 +
# 4.5 + 3 = 17.5; ben 5.5 + 6 + 2.25 + 3 = 16.75; dan 5.5 + 2.75 + 5.5 +
# 3 + 1.5 = 18.25; cid 2.75 + 4.5 + 0.75 + 1.5 = 9.5; eve 1.5 + 4.5 = 6.
# Wins: ben 5, ann 4, dan 3, cid 2, eve 1. Koya (points against those with 4 or more of 8: ann, ben, dan): ann 2,
# ben 1½, dan 2½, cid 1½, eve 1. Games played over the board: 7 each,
# eve 4.
req GET /api/v1/events/club -H 'Accept: text/plain'
sed -n '/^ No/,/^(w)/p' "$tmp/out" >"$tmp/grid"
cat >"$tmp/want-grid" <<'EOF'
 No  Player   1   2   3   4   5   Points  Games     DE   Wins     SB   Koya  Place
  1  ann      xx  10  ½½  1+  1½      5½      7      1      4   17.5      2      2
  2  ben      01  xx  ½0  1+  11      5½      7      1      5  16.75    1.5      1
  3  dan      ½½  ½1  xx  0+  01      4½      7      0      3  18.25    2.5      3
  4  eve (w)  0-  0-  1-  xx  ½-      1½      4      0      1      6      1      5
  5  cid      0½  00  10  ½+  xx       3      7      0      2    9.5    1.5      4
(w) withdrew; + and - are forfeits
EOF
check "the crosstable as text" cmp -s "$tmp/grid" "$tmp/want-grid"
cmp "$tmp/grid" "$tmp/want-grid" >/dev/null || diff "$tmp/want-grid" "$tmp/grid"
req GET /api/v1/events/club
same "the standings, best first" "$(js '" ".join("%s:%d:%g:%g" % (
    r["player"], r["place"], r["points"], r["tiebreaks"]["SB"])
    for r in d["standings"])')" \
    "ben:1:5.5:16.75 ann:2:5.5:17.5 dan:3:4.5:18.25 cid:4:3:9.5 eve:5:1.5:6"
same "ann's row of the JSON crosstable" "$(js '" ".join("".join(c)
    for c in d["crosstable"][0]["results"])')" " 10 ½½ 1+ 1½"
same "eve's forfeits in the standings" "$(js '[(r["forfeit_losses"],
    r["played"]) for r in d["standings"] if r["player"] == "eve"][0]')" \
    "(4, 4)"

"$corrchess" event show -s "$base" club >"$tmp/cc-show" 2>"$tmp/cc-err"
same "corrchess event show: exit 0" "$?" 0
sed -n '/^ No/,/^(w)/p' "$tmp/cc-show" >"$tmp/cc-grid"
check "corrchess event show prints the same crosstable" \
    cmp -s "$tmp/cc-grid" "$tmp/want-grid"
"$corrchess" event show -s "$base" nope >"$tmp/cc-show" 2>"$tmp/cc-err"
same "corrchess event show of an unknown event: exit 1" "$?" 1
check "and says why" grep -q 'there is no event "nope"' "$tmp/cc-err"
"$corrchess" event list -s "$base" >"$tmp/cc-list"
"$corrchess" event pgn -s "$base" club >"$tmp/cc-pgn"
same "corrchess event pgn: the 20 games" \
    "$(grep -c '^\[Event ' "$tmp/cc-pgn")" 20
check "corrchess event list names the event" grep -q '^club ' "$tmp/cc-list"

# --- The event's web page -----------------------------------------------
# The page read back by tests/event_page.py: the crosstable's rows as the
# grid above, every result a link to a game of the event between the two
# players of its cell and every game linked from both players' rows; the
# standings as above; the games; in French too; linked from the club's
# page and the players' pages.
req GET /api/v1/events/club
cp "$tmp/out" "$tmp/club.json"
req GET /events/club -D "$tmp/hdr"
expect "the event's page" 200
check "the event's page is HTML" grep -q 'Content-Type: text/html' "$tmp/hdr"
python3 "$top_srcdir/tests/event_page.py" "$tmp/out" "$tmp/club.json" \
    >"$tmp/page-read"
cat >"$tmp/want-page" <<'EOF'
cross 1 ann × 10 ½½ 1+ 1½ 5½ 2
cross 2 ben 01 × ½0 1+ 11 5½ 1
cross 3 dan ½½ ½1 × 0+ 01 4½ 3
cross 4 eve (withdrew) 0- 0- 1- × ½- 1½ 5
cross 5 cid 0½ 00 10 ½+ × 3 4
links every game twice
standing 1 ben 5½ 7 0 1 5 16.75 1.5
standing 2 ann 5½ 7 0 1 4 17.5 2
standing 3 dan 4½ 7 0 0 3 18.25 2.5
standing 4 cid 3 7 0 0 2 9.5 1.5
standing 5 eve 1½ 4 0 0 1 6 1
games 20
EOF
check "the event's page: crosstable, links, standings, games" \
    cmp -s "$tmp/page-read" "$tmp/want-page"
cmp "$tmp/page-read" "$tmp/want-page" >/dev/null ||
    diff "$tmp/want-page" "$tmp/page-read"
check "the event's page links its PGN" \
    grep -q 'href="/api/v1/events/club/pgn" download' "$tmp/out"
check "the event's time control in words" grep -q \
    '· 10 days per move ·' "$tmp/out"
req GET "/events/club?lang=fr"
check "the event's page in French" sh -c 'grep -q "<html lang=\"fr\">" "$1" &&
    grep -q "<caption>Classement</caption>" "$1" &&
    grep -q "toutes rondes aller-retour" "$1" &&
    grep -q "(retiré)" "$1"' sh "$tmp/out"
check "the event's time control in French words" grep -q \
    '· 10 jours par coup ·' "$tmp/out"
req GET /events/nope
expect "no such event: a 404 page" 404
req GET /
check "the club's page links the event" grep -q \
    '<li><a href="/events/club">' "$tmp/out"
req GET /players/ann
check "a player's page links the player's event" grep -q \
    'href="/events/club"' "$tmp/out"

# --- The PGN ------------------------------------------------------------

req GET /api/v1/events/club/pgn
expect "the event's PGN" 200
same "20 games, each with its Event tag" \
    "$(grep -c '^\[Event "Club championship 2026"\]' "$tmp/out")" 20
python3 -c '
import re, sys
pgn = open(sys.argv[1]).read()
games = [g for g in re.split(r"\n(?=\[Event )", pgn) if g.strip()]
tags = [dict(re.findall(r"^\[(\w+) \"([^\"]*)\"\]", g, re.M))
    for g in games]
print(" ".join("%s:%s-%s:%s" % (t["Round"], t["White"], t["Black"],
    t["Result"]) for t in tags))
' "$tmp/out" >"$tmp/pgn-tags"
same "the PGN's Round, players and results" "$(cat "$tmp/pgn-tags")" \
    "1:ben-cid:1-0 1:dan-eve:0-1 2:cid-dan:1-0 2:ann-ben:1-0 \
3:dan-ann:1/2-1/2 3:eve-cid:1/2-1/2 4:ann-eve:1-0 4:ben-dan:1/2-1/2 \
5:eve-ben:0-1 5:cid-ann:0-1 6:cid-ben:0-1 6:eve-dan:0-1 7:dan-cid:1-0 \
7:ben-ann:1-0 8:ann-dan:1/2-1/2 8:cid-eve:1-0 9:eve-ann:0-1 9:dan-ben:1-0 \
10:ben-eve:1-0 10:ann-cid:1/2-1/2"

# --- Ratings ------------------------------------------------------------

# The 16 games played over the board are rated as they ended (the four
# forfeits are not), each a rating period for its players; the last one,
# eleven days on, first grows dan's and cid's deviations by eleven
# periods. tests/glicko2.py computes the same from the paper.
python3 "$top_srcdir/tests/glicko2.py" 0.5 86400 <"$tmp/rated" \
    >"$tmp/want-ratings"
check "the independent Glicko-2 checks itself" test -s "$tmp/want-ratings"
req GET /api/v1/ratings
expect "the rating list" 200
js '"\n".join("%s %.6f %.6f %.8f %d" % (r["player"], r["rating"], r["rd"],
    r["volatility"], r["games"]) for r in d["ratings"])' >"$tmp/ratings"
check "ratings as computed independently" python3 -c '
import sys
want = [l.split() for l in open(sys.argv[1])]
got = [l.split() for l in open(sys.argv[2])]
assert [w[0] for w in want] == [g[0] for g in got], (want, got)
for w, g in zip(want, got):
    assert w[4] == g[4], (w, g)
    for a, b in zip(w[1:4], g[1:4]):
        assert abs(float(a) - float(b)) < 1e-4, (w, g)
' "$tmp/want-ratings" "$tmp/ratings"
same "games rated per player" "$(js '" ".join("%s:%d" % (r["player"],
    r["games"]) for r in sorted(d["ratings"], key=lambda r: r["player"]))')" \
    "ann:7 ben:7 cid:7 dan:7 eve:4"
same "seven games leave a deviation above 110: provisional" \
    "$(js 'all(r["provisional"] == (r["rd"] > 110) for r in d["ratings"])')" \
    True
req GET /api/v1/ratings -H 'Accept: text/plain'
check "the rating list as text marks provisional ratings" \
    grep -q '^  1  .* [0-9]*? ' "$tmp/out"
"$corrchess" ratings -s "$base" >"$tmp/cc-ratings"
same "corrchess ratings: one line a player" \
    "$(grep -c '^ *[0-9]*  [a-z]' "$tmp/cc-ratings")" 5
"$corrchess" ratings -s "$base" dan >"$tmp/cc-rating"
check "corrchess ratings NAME: the history" grep -q '^  game ' \
    "$tmp/cc-rating"
req GET /api/v1/ratings/dan
expect "dan's rating and history" 200
same "dan's history" "$(js 'len(d["history"])')" 7
same "the loss on time rated after eleven idle days" \
    "$(js 'd["history"][-1]["rd_before"] > d["history"][-2]["rd"]')" True
req GET /api/v1/ratings/zed
expect "a stranger's rating" 404 no-such-player
admin GET /api/v1/players/ben
same "the rating in the player's JSON" \
    "$(js 'round(d["rating"]["rating"], 6)')" \
    "$(awk '$1 == "ben" { printf "%.6f\n", $2 }' "$tmp/ratings" |
    python3 -c 'print(round(float(input()), 6))')"
g=$(game_of club ben cid)
req GET "/api/v1/games/$g/pgn"
check "the first rated game: both players at 1500 in the PGN" \
    grep -q '^\[WhiteElo "1500"\]' "$tmp/out"
check "BlackElo too" grep -q '^\[BlackElo "1500"\]' "$tmp/out"

# --- Withdrawal under the rule "annul", Chess960 per pairing -------------

admin POST /api/v1/events -d '{"name":"cup","format":"double-round-robin",
    "players":["ann","ben","dan"],"withdrawal":"annul","rated":false,
    "chess960":"per-pairing","tiebreaks":["sb"]}'
expect "create the cup" 201
same "its rules" "$(js '(d["rules"]["variant"], d["rules"]["chess960"],
    d["rules"]["withdrawal"], d["rules"]["rated"], d["rules"]["tiebreaks"])')" \
    "('chess960', 'per-pairing', 'annul', False, ['SB'])"
req GET /api/v1/events/cup -H 'Accept: text/plain'
check "the cup's text: no clock, in words" grep -qx \
    'no clock, chess960, not rated, moves signed by the players' "$tmp/out"
admin POST /api/v1/events/cup/start
expect "start the cup" 200
same "six games" "$(js 'len(d["games"])')" 6
ids=$(js '" ".join(str(g["id"]) for g in d["games"])')
: >"$tmp/positions"
for g in $ids; do
	req GET "/api/v1/games/$g"
	printf '%s %s %s\n' "$(jget white)" "$(jget black)" \
	    "$(jget chess960)" >>"$tmp/positions"
done
check "one Chess960 position per pairing, both colours" python3 -c '
import sys
pos = {}
for line in open(sys.argv[1]):
    w, b, n = line.split()
    assert 0 <= int(n) <= 959, n
    pos.setdefault(frozenset((w, b)), set()).add(n)
assert len(pos) == 3 and all(len(v) == 1 for v in pos.values()), pos
' "$tmp/positions"
admin POST /api/v1/players -d '{"name":"fay"}'
expect "create fay" 201
req GET /players/fay
check "a player in no event: no event on the page" sh -c \
    '! grep -q "href=\"/events/" "$1"' sh "$tmp/out"
req GET /api/v1/ratings/fay
expect "a player without a rated game" 404 not-rated
# dan plays one game of four and withdraws: fewer than half, so all four
# are annulled, the finished one too, and the crosstable shows none.
finish_game cup dan ann white
admin POST /api/v1/events/cup/withdrawals -d '{"player":"dan"}'
expect "dan withdraws from the cup" 201
same "dan's games annulled" "$(js '" ".join(g["adjusted"] or "-"
    for g in d["games"] if "dan" in (g["white"], g["black"]))')" \
    "annulled annulled annulled annulled"
same "and every one ended" "$(js 'sum(1 for g in d["games"]
    if g["status"] == "ongoing")')" 2
finish_game cup ann ben draw
finish_game cup ben ann white
req GET /api/v1/events/cup
same "the cup is over" "$(js 'd["status"]')" finished
same "the cup's standings" "$(js '" ".join("%s:%g:%d" % (r["player"],
    r["points"], r["played"]) for r in d["standings"])')" \
    "ben:1.5:2 ann:0.5:2 dan:0:0"
req GET /api/v1/events/cup -H 'Accept: text/plain'
check "annulled games are not in the crosstable" \
    grep -q '^  3  dan (w)  ..  ..  xx       0      0  ' "$tmp/out"

# --- A match ------------------------------------------------------------

admin POST /api/v1/events -d '{"name":"duel","format":"match","games":3,
    "players":["ann","ben","cid"]}'
expect "create a match" 201
admin POST /api/v1/events/duel/start
expect "a match of three players" 409 bad-players
admin DELETE /api/v1/events/duel/players/cid
expect "remove the third" 200
admin POST /api/v1/events/duel/start
expect "start the match" 200
same "three games, colours alternating" "$(js '" ".join("%d:%s-%s" % (
    g["round"], g["white"], g["black"]) for g in d["games"])')" \
    "1:ann-ben 2:ben-ann 3:ann-ben"
admin POST /api/v1/events -d '{"name":"pair","players":["ann","ben"]}'
expect "a round robin of two" 201
admin POST /api/v1/events/pair/start
expect "a round robin of two does not start" 409 bad-players
admin POST /api/v1/events -d '{"name":"odd","games":3}'
expect "games for a round robin" 400 bad-format

# --- The admin's commands -----------------------------------------------

# cc NAME STATUS ARG...: run corrchess ARG... (its output in $tmp/cc-out,
# its errors in $tmp/cc-err); it exits with STATUS.
cc() {
	name=$1
	want=$2
	shift 2
	"$corrchess" "$@" >"$tmp/cc-out" 2>"$tmp/cc-err"
	got=$?
	same "$name: exit $want" "$got" "$want"
	[ "$got" = "$want" ] || cat "$tmp/cc-err"
}

cc "event create without a token" 1 event create -s "$base" league
check "says where a token comes from" grep -q 'no admin token' "$tmp/cc-err"
echo "$token" >"$tmp/token"
cc "event create with a bad rule" 1 event create -s "$base" -t "$tmp/token" \
    --withdrawal never league ann
check "the server's reason" grep -q 'withdrawal must be "lose"' "$tmp/cc-err"
cc "event create --rated maybe" 2 event create -s "$base" -t "$tmp/token" \
    --rated maybe league
cc "event create" 0 event create -s "$base" -t "$tmp/token" \
    --title "Autumn league" --format double-round-robin --rated no \
    --time-control 3d/move --tiebreaks wins,sb --chess960 per-pairing \
    --auth signed-or-attested league ann ben cid
check "prints the new event" grep -q '^Autumn league (league)' "$tmp/cc-out"
req GET /api/v1/events/league
same "its rules as the options said" "$(js '(d["format"], d["rules"]["rated"],
    d["rules"]["time_control"], d["rules"]["tiebreaks"],
    d["rules"]["chess960"], d["rules"]["auth"],
    [p["name"] for p in d["players"]])')" \
    "('double-round-robin', False, '3d/move', ['Wins', 'SB'], 'per-pairing', 'signed-or-attested', ['ann', 'ben', 'cid'])"
cc "event add" 0 event add -s "$base" -t "$tmp/token" league dan eve
cc "event add again" 1 event add -s "$base" -t "$tmp/token" league dan
check "says who is in already" grep -q 'dan plays in league already' \
    "$tmp/cc-err"
cc "event remove" 0 event remove -s "$base" -t "$tmp/token" league eve
req GET /api/v1/events/league
same "the players after add and remove" \
    "$(js '" ".join(p["name"] for p in d["players"])')" "ann ben cid dan"
cc "event withdraw before the start" 1 event withdraw -s "$base" \
    -t "$tmp/token" league dan
check "says to remove instead" grep -q 'remove the player instead' \
    "$tmp/cc-err"
cc "event start" 0 event start -s "$base" -t "$tmp/token" league
check "prints the games" grep -q '^Games:' "$tmp/cc-out"
same "twelve games listed" "$(grep -c '^  round ' "$tmp/cc-out")" 12
cc "event start again" 1 event start -s "$base" -t "$tmp/token" league
check "says it has started" grep -q 'league has started already' \
    "$tmp/cc-err"
CORRCHESS_ADMIN_TOKEN=$token cc "event withdraw (token from the environment)" \
    0 event withdraw -s "$base" league dan
req GET /api/v1/events/league
same "dan's games lost by forfeit" "$(js '" ".join(g["adjusted"] or "-"
    for g in d["games"] if "dan" in (g["white"], g["black"]))')" \
    "black-withdrew white-withdrew black-withdrew white-withdrew black-withdrew white-withdrew"
cc "event start without a name" 2 event start -s "$base" -t "$tmp/token"

# --- ICCF draw rules, the event's leave allowance, its rules edited ------

# try GAME PLAYER ACTION: sign ACTION for the game's current ply and
# submit it; the caller checks the answer.
try() {
	req GET "/api/v1/games/$1"
	# shellcheck disable=SC2086
	"$corrchess" sign -k "$tmp/$2" --game "$1" --ply "$(jget ply)" \
	    -p "$2" $3 >"$tmp/body"
	submit "$1"
}

for p in gus hal ivy; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
	lang=en
	[ "$p" = hal ] && lang=fr
	admin POST /api/v1/players -d "{\"name\":\"$p\",\"lang\":\"$lang\",
	    \"email\":\"$p@example.org\",\"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	expect "create $p" 201
done
admin POST /api/v1/events -d '{"name":"iccf","players":["gus","hal","ivy"],
    "draw_min_move":3,"draw_offer_every":2,"leave_days":20}'
expect "an event with draw rules and its own leave" 201
same "its draw rules and leave" "$(js '(d["rules"]["draw_min_move"],
    d["rules"]["draw_offer_every"], d["rules"]["leave_days"])')" "(3, 2, 20)"
req GET /api/v1/events/club
same "the defaults: no draw rule, the server's leave" \
    "$(js '(d["rules"]["draw_min_move"], d["rules"]["draw_offer_every"],
    d["rules"]["leave_days"])')" "(0, 0, None)"
admin PATCH /api/v1/events/iccf -d '{"draw_offer_every":3,
    "time_control":"10d/move","title":"ICCF rules"}'
expect "edit the rules before the start" 200
same "what changed and what stayed" "$(js '(d["title"],
    d["rules"]["time_control"], d["rules"]["draw_min_move"],
    d["rules"]["draw_offer_every"], d["rules"]["leave_days"],
    [p["name"] for p in d["players"]])')" \
    "('ICCF rules', '10d/move', 3, 3, 20, ['gus', 'hal', 'ivy'])"
admin PATCH /api/v1/events/iccf -d '{"players":["gus"]}'
expect "an edit does not take players" 400 bad-request
check "says so" grep -q 'unknown member players' "$tmp/out"
admin PATCH /api/v1/events/iccf -d '{"draw_min_move":-2}'
expect "a negative draw rule" 400
admin PATCH /api/v1/events/iccf -d '{"withdrawal":"never"}'
expect "an edit is checked as a creation" 400 bad-withdrawal
admin PATCH /api/v1/events/nope -d '{"rated":false}'
expect "edit an unknown event" 404 no-such-event
req PATCH /api/v1/events/iccf -d '{"rated":false}'
expect "edit without the token" 401 unauthorized
cc "corrchess event edit" 0 event edit -s "$base" -t "$tmp/token" \
    --leave-days 25 --draw-min-move 3 iccf
req GET /api/v1/events/iccf
same "the client's edit" "$(js '(d["rules"]["leave_days"],
    d["rules"]["draw_offer_every"])')" "(25, 3)"
cc "corrchess event edit --leave-days server" 0 event edit -s "$base" \
    -t "$tmp/token" --leave-days server iccf
req GET /api/v1/events/iccf
same "back to the server's leave" "$(js 'd["rules"]["leave_days"]')" None
admin PATCH /api/v1/events/iccf -d '{"leave_days":20}'
expect "leave 20 days again" 200
check "the text view names the rules" grep -q \
    'draw offers from move 3, one draw offer a player every 3 moves, leave 20 days a year' \
    "$(admin GET /api/v1/events/iccf -H 'Accept: text/plain'; echo "$tmp/out")"
admin POST /api/v1/events/iccf/start
expect "start iccf" 200
admin PATCH /api/v1/events/iccf -d '{"draw_min_move":10}'
expect "edit after the start" 409 event-started
check "says the rules are fixed" grep -q 'iccf has started: its rules are fixed' \
    "$tmp/out"
g=$(game_of iccf gus hal)
try "$g" gus "move e4 offer-draw"
expect "a draw offer with move 1" 409 draw-rule
check "names the rule" grep -q 'no draw offer before move 3 in this game' \
    "$tmp/out"
act "$g" gus "move e4"
try "$g" hal "move e5 offer-draw"
expect "hal's offer with move 1" 409 draw-rule
check "in French for hal" grep -q 'pas de proposition de nulle avant le coup 3' \
    "$tmp/out"
act "$g" hal "move e5"
act "$g" gus "move Nf3"
act "$g" hal "move b8c6"
act "$g" gus "move Bc4 offer-draw"
act "$g" hal "move f8c5"
try "$g" gus "move d3 offer-draw"
expect "a second offer two moves on" 409 draw-rule
check "says when the next may come" grep -q \
    'one draw offer per player every 3 moves in this game (the event.s draw rule): your last was with move 3, the next may come with move 6' \
    "$tmp/out"
act "$g" gus "move d3"
act "$g" hal "move d6 offer-draw"
same "hal's first offer, with move 4" "$(jget draw_offer)" black
req GET "/api/v1/games/$g"
same "the game replays with its rules" "$(jget ply)" 8
g=$(game_of iccf ivy gus)
[ -n "$g" ] || g=$(game_of iccf gus ivy)
# Next year, by the server's clock (the clock file holds its offset from
# the real time): a leave in March of it is in the future and in one
# calendar year.
y=$(($(date -u -d "@$(($(date +%s) + $(cat "$tmp/clock")))" +%Y) + 1))
try "$g" ivy "leave $y-03-01 $y-03-25"
expect "a leave beyond the event's allowance" 409 leave-allowance
check "names the event's allowance" grep -q \
    'the allowance is 20 days a calendar year (event iccf.s)' "$tmp/out"
try "$g" ivy "leave $y-03-01 $y-03-15"
expect "a leave within it" 201
req GET "/api/v1/games/$g"
same "the game's JSON: rated, its draw rules and its leave allowance" \
    "$(js '(d["rated"], d["draw_min_move"], d["draw_offer_every"],
    d["leave_days"])')" "(True, 3, 3, 20)"
admin GET /api/v1/players/ivy
same "ivy's allowance is her games' (the event's), not the server's" \
    "$(js 'd["leave"]["allowance_days"]')" 20

# --- Rated games outside events -----------------------------------------

admin POST /api/v1/games -d '{"white":"gus","black":"ivy","rated":"yes"}'
expect "rated must be true or false" 400 bad-request
admin POST /api/v1/games -d '{"white":"gus","black":"ivy"}'
expect "an ordinary game, rated by the server's default" 201
g=$(jget id)
req GET "/api/v1/games/$g"
same "an ordinary game's JSON: rated, no draw rule, the server's leave" \
    "$(js '(d["rated"], d["draw_min_move"], d["draw_offer_every"],
    d["leave_days"])')" "(True, 0, 0, 45)"
act "$g" gus "move d4"
act "$g" ivy resign
req GET /api/v1/ratings/gus
expect "gus is rated after it" 200
same "the ordinary game in gus's history" "$(js '[(h["game"], h["opponent"],
    h["score"]) for h in d["history"]]')" "[($g, 'ivy', 1.0)]"
same "rated as tests/glicko2.py rates one game between new players" \
    "$(js '"%.4f" % d["rating"]')" "$(echo "0 gus ivy 1" |
    python3 "$top_srcdir/tests/glicko2.py" 0.5 86400 |
    awk '$1 == "gus" { printf "%.4f\n", $2 }')"
req GET /api/v1/ratings -H 'Accept: text/plain'
check "gus in the rating list" grep -q 'gus' "$tmp/out"
admin POST /api/v1/games -d '{"white":"hal","black":"ivy","rated":false}'
expect "an unrated ordinary game" 201
g=$(jget id)
req GET "/api/v1/games/$g"
same "its JSON says it is not rated" "$(js 'd["rated"]')" False
act "$g" hal resign
req GET /api/v1/ratings/hal
expect "an unrated game rates no one" 404 not-rated

daemon_stop
finish
