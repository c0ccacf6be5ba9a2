#!/bin/sh
# tests/event_mail.sh: an event's mails read from real Dovecot, sent by real Postfix.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd with [mail] enabled, real Dovecot and Postfix
# (tests/mailenv.sh), four players (carol reads French): a round robin of
# four is started, and each player's start mail is read over IMAP: its
# rules, and the list of their games with round, game id, colour and
# opponent as the FIDE Berger table for four pairs them (the ids as the
# API gives them). The six games are played to their end with signed
# statements; every player then gets the final standings, the same table
# as the API's text crosstable (French column heads for carol), and their
# own result. Two more events of three lose alice at once, under each
# withdrawal rule: bob and carol are told what became of their games with
# her (won by default, annulled); alice is not. Run by `make check` (as
# root: the mail servers switch users); prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
mailenv=$top_srcdir/tests/mailenv.sh

# shellcheck source=tests/maillib.sh
. "$top_srcdir/tests/maillib.sh"
need python3

check "corrchessd starts with [mail] enabled" daemon_start || finish

for p in alice bob carol dave; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@$domain" -f "$tmp/$p"
	lang=en
	[ "$p" != carol ] || lang=fr
	admin POST /api/v1/players -d "{\"name\":\"$p\",\"email\":\"$p@$domain\",
	    \"lang\":\"$lang\",\"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	same "create $p ($lang)" "$code" 201
done

# evmails USER EVENT: the UIDs of USER's mails about EVENT, one a line.
evmails() {
	imap "$1" INBOX -X "UID SEARCH HEADER X-Corrchess-Event $2" \
	    2>/dev/null | tr -d '\r' | sed -n 's/^\* SEARCH *//p' |
	    tr ' ' '\n' | grep .
}

# evfetch USER TEXT FILE: USER's mail whose subject or text holds TEXT
# (tests/maillib.sh's mailfind: found by what it holds, never by the
# order mails arrived in) into FILE, its text into FILE.txt (on one line:
# FILE.flat) and its decoded subject into FILE.subj.
evfetch() {
	mailfind "$1" "$2" "$3" || { bad "$1's mail \"$2\" arrives"; return 1; }
	tr '\n' ' ' <"$3.txt" | tr -s ' ' >"$3.flat"
}

# date_of FILE: the mail's Date header in seconds since the epoch.
date_of() {
	date -d "$(hdr Date "$1")" +%s
}

# games EVENT: the event's games as "ROUND WHITE BLACK ID" lines into
# $tmp/games.
games() {
	req GET "/api/v1/events/$1"
	python3 -c '
import json, sys
for g in json.load(open(sys.argv[1]))["games"]:
    print(g["round"], g["white"], g["black"], g["id"])
' "$tmp/out" >"$tmp/games"
}

# game_id WHITE BLACK: the id of WHITE v BLACK in $tmp/games.
game_id() {
	awk -v w="$1" -v b="$2" '$2 == w && $3 == b { print $4 }' "$tmp/games"
}

# --- 1. The start: each player's rules and games ------------------------
section "1. The start: each player's rules and games"

admin POST /api/v1/events -d '{"name":"club-2026",
    "title":"Club championship 2026","format":"round-robin",
    "time_control":"10d/move","draw_offer_every":3,"leave_days":20,
    "players":["alice","bob","carol","dave"]}'
expect "create the round robin of four" 201
admin POST /api/v1/events/club-2026/start
expect "start it" 200
games club-2026
same "six games" "$(wc -l <"$tmp/games" | tr -d ' ')" 6
# FIDE Berger table for four: round 1: 1-4 2-3, round 2: 4-3 1-2,
# round 3: 2-4 3-1 (start numbers in the order the players were added).
g14=$(game_id alice dave)
g23=$(game_id bob carol)
g43=$(game_id dave carol)
g12=$(game_id alice bob)
g24=$(game_id bob dave)
g31=$(game_id carol alice)
same "the pairings follow the Berger table" \
    "$(awk '{ print $1, $2, $3 }' "$tmp/games" | sort | tr '\n' ' ')" \
    "1 alice dave 1 bob carol 2 alice bob 2 dave carol 3 bob dave 3 carol alice "

evfetch alice "Event Club championship 2026: it starts" "$tmp/a1"
same "alice's start: the subject" "$(cat "$tmp/a1.subj")" \
    "[corrchess] Event Club championship 2026: it starts, your 3 games"
same "alice's start: the thread root" "$(hdr Message-ID "$tmp/a1")" \
    "<event-club-2026.alice@$domain>"
same "alice's start: her games, rounds, colours, opponents" \
    "$(grep '^Round ' "$tmp/a1.txt")" "$(printf '%s\n' \
    "Round 1, game $g14: you play White against dave" \
    "Round 2, game $g12: you play White against bob" \
    "Round 3, game $g31: you play Black against carol")"
for rule in "Time control: 10 days per move" \
    "At most one draw offer per player every 3 moves." \
    "Leave: 20 days a calendar year." \
    "If a player withdraws, their remaining games are lost."; do
	check "alice's start: \"$rule\"" grep -qxF "$rule" "$tmp/a1.txt"
done
check "alice's start: where the event's page is" contains \
    "/events/club-2026." "$tmp/a1.txt"

evfetch bob "Event Club championship 2026: it starts" "$tmp/b1"
same "bob's start: his games" "$(grep '^Round ' "$tmp/b1.txt")" \
    "$(printf '%s\n' \
    "Round 1, game $g23: you play White against carol" \
    "Round 2, game $g12: you play Black against alice" \
    "Round 3, game $g24: you play White against dave")"
evfetch dave "Event Club championship 2026: it starts" "$tmp/d1"
same "dave's start: his games" "$(grep '^Round ' "$tmp/d1.txt")" \
    "$(printf '%s\n' \
    "Round 1, game $g14: you play Black against alice" \
    "Round 2, game $g43: you play White against carol" \
    "Round 3, game $g24: you play Black against bob")"

evfetch carol "Club championship 2026 : elle commence" "$tmp/c1"
same "carol's start, in French: the subject" "$(cat "$tmp/c1.subj")" \
    "[corrchess] Épreuve Club championship 2026 : elle commence, vos 3 parties"
same "carol's start: Content-Language" "$(hdr Content-Language "$tmp/c1")" fr
same "carol's start: her games, in French" "$(grep '^Ronde ' "$tmp/c1.txt")" \
    "$(printf '%s\n' \
    "Ronde 1, partie $g23 : vous avez les Noirs contre bob" \
    "Ronde 2, partie $g43 : vous avez les Noirs contre dave" \
    "Ronde 3, partie $g31 : vous avez les Blancs contre alice")"
check "carol's start: the time control in French" \
    grep -qxF "Cadence : 10 jours par coup" "$tmp/c1.txt"
check "carol's start: the draw rule in French" grep -qxF \
    "Au plus une proposition de nulle par joueur tous les 3 coups." \
    "$tmp/c1.txt"
check "carol's start: no English sentence" \
    sh -c '! grep -q "Round\|your games\|Time control" "$1"' sh "$tmp/c1.txt"
check "each game has its own new-game mail too" waitfor 20 has carol 4

# --- 2. The games end; nothing more until the last ---------------------
section "2. The games end; nothing more until the last"

play "$g14" dave resign
play "$g23" bob "move e4 offer-draw"
play "$g23" carol accept-draw
play "$g43" dave resign
play "$g12" alice resign
play "$g24" dave resign
sleep 1
same "five games over: alice has no other event mail" \
    "$(evmails alice club-2026 | wc -l | tr -d ' ')" 1
play "$g31" carol "move e4 offer-draw"
play "$g31" alice accept-draw
req GET /api/v1/events/club-2026
same "the event is finished" "$(jget status)" finished

# --- 3. The end: the final standings and each player's result ----------
section "3. The end: the final standings and each player's result"

# bob 2½ (½ + 1 + 1), carol 2, alice 1½, dave 0.
req GET /api/v1/events/club-2026 -H 'Accept: text/plain'
sed -n '/^ *No  Player/,/^$/p' "$tmp/out" | sed '/^$/d' >"$tmp/table"
check "the API's table has a row per player" \
    [ "$(wc -l <"$tmp/table" | tr -d ' ')" -eq 5 ]
evfetch bob "Event Club championship 2026: final standings" "$tmp/b2"
same "bob's end: the subject" "$(cat "$tmp/b2.subj")" \
    "[corrchess] Event Club championship 2026: final standings"
same "bob's end: in the event's thread" "$(hdr In-Reply-To "$tmp/b2")" \
    "<event-club-2026.bob@$domain>"
check "bob's end: his result" grep -qxF \
    "Your result: 2½ points from 3 games played, place 1." "$tmp/b2.txt"
sed -n '/^ *No  Player/,/^$/p' "$tmp/b2.txt" | sed '/^$/d' >"$tmp/b2.table"
check "bob's end: the standings are the API's crosstable, aligned" \
    cmp -s "$tmp/table" "$tmp/b2.table"
check "bob's end: bob's row, by hand" grep -q \
    '^  2  bob     1  x  ½  1      2½      3  ' "$tmp/b2.table"
evfetch alice "Event Club championship 2026: final standings" "$tmp/a2"
# Every mail of the last game is dated no later than the event's end:
# dates, not the order of arrival, which Postfix does not keep.
last31=0
for u in $(imap alice INBOX -X "UID SEARCH HEADER X-Corrchess-Game $g31" |
    tr -d '\r' | sed -n 's/^\* SEARCH *//p'); do
	imap alice "INBOX;UID=$u" >"$tmp/a31"
	d=$(date_of "$tmp/a31")
	[ "$d" -le "$last31" ] || last31=$d
done
check "alice's end is not dated before the last game's mails" sh -c \
    '[ "$1" -gt 0 ] && [ "$2" -ge "$1" ]' sh "$last31" "$(date_of "$tmp/a2")"
check "alice's end: her result" grep -qxF \
    "Your result: 1½ points from 3 games played, place 3." "$tmp/a2.txt"
evfetch dave "Event Club championship 2026: final standings" "$tmp/d2"
check "dave's end: his result" grep -qxF \
    "Your result: 0 points from 3 games played, place 4." "$tmp/d2.txt"
evfetch carol "Club championship 2026 : classement final" "$tmp/c2"
same "carol's end: the subject in French" "$(cat "$tmp/c2.subj")" \
    "[corrchess] Épreuve Club championship 2026 : classement final"
check "carol's end: her result in French" grep -qxF \
    "Votre résultat : 2 points en 3 parties jouées, place 2." "$tmp/c2.txt"
check "carol's end: the table's heads in French" grep -q \
    '^ N°  Joueur  1  2  3  4  Points  Parties     DE  Gains     SB   Koya  Place$' \
    "$tmp/c2.txt"
check "carol's end: her row" grep -q \
    '^  3  carol   ½  ½  x  1       2        3  ' "$tmp/c2.txt"

# --- 4. Withdrawals: the others told what became of their games --------
section "4. Withdrawals: the others told what became of their games"

for rule in lose annul; do
	admin POST /api/v1/events -d "{\"name\":\"cup-$rule\",
	    \"withdrawal\":\"$rule\",\"players\":[\"alice\",\"bob\",\"carol\"]}"
	expect "create cup-$rule" 201
	admin POST "/api/v1/events/cup-$rule/start"
	expect "start cup-$rule" 200
	games "cup-$rule"
	admin POST "/api/v1/events/cup-$rule/withdrawals" \
	    -d '{"player":"alice"}'
	expect "alice withdraws from cup-$rule at once" 201
done
# Three players and a bye: round 2 is 1-2, round 3 is 3-1.
games cup-lose
g12=$(game_id alice bob)
g31=$(game_id carol alice)
evfetch bob "Event cup-lose: alice withdrew" "$tmp/b3"
same "bob is told alice withdrew" "$(cat "$tmp/b3.subj")" \
    "[corrchess] Event cup-lose: alice withdrew"
check "bob: his game with alice is won by default" grep -qF \
    "Round 2, game $g12, with Black against alice: you win it by default (+)." \
    "$tmp/b3.flat"
evfetch carol "cup-lose : alice se retire" "$tmp/c3"
same "carol is told, in French" "$(cat "$tmp/c3.subj")" \
    "[corrchess] Épreuve cup-lose : alice se retire"
check "carol: her game with alice won by default, in French" grep -qF \
    "Ronde 3, partie $g31, avec les Blancs contre alice : vous la gagnez par forfait (+)." \
    "$tmp/c3.flat"
games cup-annul
g12=$(game_id alice bob)
evfetch bob "Event cup-annul: alice withdrew" "$tmp/b4"
check "bob: under \"annul\", his game with alice is annulled" grep -qF \
    "Round 2, game $g12, with Black against alice: annulled, it does not count." \
    "$tmp/b4.flat"
check "bob: the rule said" grep -qF "If a player withdraws before half of \
their games are played, all their games are annulled" "$tmp/b4.flat"
sleep 1
same "alice, who withdrew, gets only the start of cup-lose" \
    "$(evmails alice cup-lose | wc -l | tr -d ' ')" 1

finish
