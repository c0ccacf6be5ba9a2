#!/bin/sh
# tests/mail_token.sh: replies by mail without a key, with single-use tokens.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The real corrchessd with [mail] enabled, real Dovecot and Postfix
# (tests/mailenv.sh), and a player, bob, who opened the mail-token door and
# answers his notices with s-nail's own reply command (quoting the notice
# as s-nail does, sent through Postfix by s-nail's SMTP): the notice
# carries a token, the reply is played as a move attested "mail-token";
# replayed, from another address, after the ply moved on, expired, with a
# token never given: refused and answered. An illegal move leaves the
# token usable. The lines below the move are a message to the opponent,
# quoted in the notice, in French for bob; one too long is refused.
# corrchess verify lists the attested plies. Run by `make
# check` (as root: the mail servers switch users); prints "N passed, N
# failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
mailenv=$top_srcdir/tests/mailenv.sh

# shellcheck source=tests/maillib.sh
. "$top_srcdir/tests/maillib.sh"
need s-nail

check "corrchessd starts with [mail] enabled" daemon_start || finish

# alice signs; bob (French) has a key too but answers by mail without it.
for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@$domain" -f "$tmp/$p"
done
admin POST /api/v1/players -d "{\"name\":\"alice\",\"email\":\"alice@$domain\",
    \"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
same "create alice" "$code" 201
admin POST /api/v1/players -d "{\"name\":\"bob\",\"email\":\"bob@$domain\",
    \"lang\":\"fr\",\"keys\":[\"$(cat "$tmp/bob.pub")\"]}"
same "create bob, who reads French" "$code" 201
admin PATCH /api/v1/players/bob/doors -d '{"mail_token":true}'
same "bob opens the mail-token door" "$code" 200
admin POST /api/v1/games -d '{"white":"alice","black":"bob","auth":"signed-or-attested"}'
same "game 1 takes attested moves" "$code" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
same "game 2 takes signed moves only" "$code" 201
check "bob's two new-game notices" waitfor 20 has bob 2

# move KEY PLAYER GAME MOVE [MESSAGE]: a signed move with the client,
# with a message to the opponent when given.
move() {
	if [ $# -ge 5 ]; then
		set -- "$1" "$2" "$3" "$4" -m "$5"
	fi
	"$corrchess" move -s "$base" -k "$tmp/$1" -p "$2" "${5:---}" \
	    ${6:+"$6"} "$3" "$4" >"$tmp/cc.out" 2>&1 ||
	    bad "$2's $4 in game $3: $(cat "$tmp/cc.out")"
}

# latest N FILE: wait for bob's N-th mail; it goes to FILE, its text to
# FILE.txt.
latest() {
	waitfor 20 has bob "$1" || { bad "bob's mail $1 arrives"; return 1; }
	fetch bob "$1" "$2"
	textpart "$2" >"$2.txt"
}

# says FILE TEXT: the mail's text says TEXT, its lines joined.
says() {
	tr '\n' ' ' <"$1" | tr -s ' ' | grep -qF -- "$2"
}

# token FILE: the token of a notice's text.
token() {
	sed -n 's/^ *corrchess-token: *\([A-Za-z0-9_-]*\) *$/\1/p' "$1" |
	    head -n 1
}

# reply NOTICE BODY...: bob answers the notice in s-nail, as its reply
# command writes an answer (quoting the notice with its tab), each BODY
# argument a line typed below the quote, sent by s-nail's SMTP.
reply() {
	notice=$1
	shift
	{
		echo "From corrchess@$domain Thu Jan  1 00:00:00 2026"
		tr -d '\r' <"$notice"
	} >"$tmp/mbox"
	{
		echo "reply 1"
		for l in "$@"; do
			echo "$l"
		done
		echo "~."
	} | HOME=$tmp s-nail -# -n -S quote -S sendwait \
	    -S "mta=smtp://127.0.0.1:$SMTP_PORT" -S "from=bob@$domain" \
	    -f "$tmp/mbox" >"$tmp/snail.out" 2>&1 ||
	    bad "s-nail's reply: $(cat "$tmp/snail.out")"
}

# --- The notice carries a token ------------------------------------------

move alice alice 1 e4
move alice alice 2 e4
k=3
latest $k "$tmp/n1" || finish
k=$((k + 1))
latest $k "$tmp/n2" || finish
# The order of the two notices is the outbox's: find game 1's.
if ! grep -q 'Partie 1' "$tmp/n1.txt" && grep -q 'Partie 1' "$tmp/n2.txt"; then
	mv "$tmp/n1" "$tmp/nx"; mv "$tmp/n1.txt" "$tmp/nx.txt"
	mv "$tmp/n2" "$tmp/n1"; mv "$tmp/n2.txt" "$tmp/n1.txt"
	mv "$tmp/nx" "$tmp/n2"; mv "$tmp/nx.txt" "$tmp/n2.txt"
fi
t1=$(token "$tmp/n1.txt")
check "game 1's notice carries a token" test -n "$t1"
check "and says, in French, to reply with the move" grep -q \
    'Ou, sans clé : répondez à ce courriel avec votre coup' "$tmp/n1.txt"
same "game 2 takes signatures only: no token" "$(token "$tmp/n2.txt")" ""

# --- A reply with s-nail: applied, attested -------------------------------

reply "$tmp/n1" "Cf6" "Merci !"
check "bob's reply (Cf6, French: the knight) is played" waitfor 20 ply_is 1 2
req GET /api/v1/games/1/records
check "the record: Nf6 from mail, attested mail-token" grep -q \
    '"san":"Nf6","move":"Cf6",[^}]*"source":"mail",[^}]*"attested":"mail-token"' \
    "$tmp/out"
check "alice hears of it" waitfor 20 has alice 3
# The line below the move is a message, attested with it.
req GET /api/v1/games/1
same "the line below the move: bob's message with Nf6" \
    "$(js "[(m['from'], m['move'], m['text']) for m in d['messages']]")" \
    "[('bob', '1...Nf6', 'Merci !')]"
fetch alice 3 "$tmp/a3"
textpart "$tmp/a3" >"$tmp/a3.txt"
check "alice's notice quotes it" says "$tmp/a3.txt" 'bob writes: "Merci !"'

# --- Replayed: refused, answered -----------------------------------------

k=$((k + 1))
reply "$tmp/n1" "Cf6"
latest $k "$tmp/r1" || finish
check "the same token again: refused as used, in French" says \
    "$tmp/r1.txt" 'ce jeton a déjà servi ('
check "and says a token plays one move" says "$tmp/r1.txt" \
    ') pour votre coup au ply 1 de la partie 1 ; un jeton joue un seul coup : répondez au dernier courriel de la partie'

same "nothing played" "$(ply 1)" 2

# --- From another address: refused, the player told ------------------------

move alice alice 1 Nf3 "Bien joué, bob"
k=$((k + 1))
latest $k "$tmp/n3" || finish
check "bob's notice, in French, quotes alice's message" says \
    "$tmp/n3.txt" 'alice écrit : « Bien joué, bob »'
check "and says a message may go below the move" says "$tmp/n3.txt" \
    'Ce que vous écrivez sous le coup'

t3=$(token "$tmp/n3.txt")
check "a new notice, a new token" sh -c "[ -n '$t3' ] && [ '$t3' != '$t1' ]"
printf 'Cc6\n\n> corrchess-token: %s\n' "$t3" >"$tmp/eve.body"
plainmail "eve@elsewhere.test" "eve-1@elsewhere.test" "Re: partie 1" \
    "$tmp/eve.body" "$tmp/eve.eml"
send eve@elsewhere.test "$tmp/eve.eml"
k=$((k + 1))
latest $k "$tmp/r2" || finish
check "bob is told of the reply from eve's address, in French" says \
    "$tmp/r2.txt" "cette réponse porte le jeton de bob pour la partie 1 mais vient d'eve@elsewhere.test, pas de l'adresse enregistrée pour bob ; elle n'est pas jouée"
same "nothing played" "$(ply 1)" 3

# --- A token never given ---------------------------------------------------

printf 'Cc6\n\ncorrchess-token: AAAAAAAAAAAAAAAAAAAAAA\n' >"$tmp/bad.body"
plainmail "bob@$domain" "bob-bad@$domain" "Re: partie 1" "$tmp/bad.body" \
    "$tmp/bad.eml"
send "bob@$domain" "$tmp/bad.eml"
k=$((k + 1))
latest $k "$tmp/r3" || finish
check "a token the server never gave: refused, in French" says \
    "$tmp/r3.txt" "le jeton de cette réponse n'a pas été donné par ce serveur : répondez au dernier courriel de votre partie, en gardant sa ligne « corrchess-token: »"

# --- An illegal move keeps the token; then after the ply moved on ----------

# An hour later: three refusals an hour are answered one by one.
echo 3700 >"$tmp/clock"
k=$((k + 1))
reply "$tmp/n3" "Re5"
latest $k "$tmp/r4" || finish
check "an illegal move: refused with the rules' reason" grep -qi \
    'illégal\|illegal' "$tmp/r4.txt"
same "nothing played" "$(ply 1)" 3
move bob bob 1 Cc6
same "bob signs Nc6 with his key instead" "$(ply 1)" 4
check "alice hears of it" waitfor 20 has alice 4
k=$((k + 1))
reply "$tmp/n3" "a6"
latest $k "$tmp/r5" || finish
check "the token of a ply gone by: refused as stale, in French" says \
    "$tmp/r5.txt" 'qui en est maintenant au ply 4 : répondez au dernier courriel de la partie'
same "nothing played" "$(ply 1)" 4

# --- Expired -------------------------------------------------------------

move alice alice 1 Bb5
k=$((k + 1))
latest $k "$tmp/n4" || finish
echo $((91 * 86400)) >"$tmp/clock"
k=$((k + 1))
reply "$tmp/n4" "a6"
latest $k "$tmp/r6" || finish
check "a token 91 days old: refused as expired, in French" says \
    "$tmp/r6.txt" 'ce jeton a expiré le '
check "and says what to do instead" says "$tmp/r6.txt" \
    ' : répondez au dernier courriel de la partie 1, ou signez votre coup'
same "nothing played" "$(ply 1)" 5

# --- The record checked -----------------------------------------------------

"$corrchess" verify -s "$base" 1 >"$tmp/verify" 2>&1
check "verify: the token's move signed by the server" grep -q \
    "^game 1: record 2, ply 1 (Nf6): bob, attested (mail-token) by the server SHA256:[^ ]* OK$" \
    "$tmp/verify"
same "verify: the chain holds, the attested ply listed" \
    "$(tail -n 1 "$tmp/verify")" \
    "game 1: 5 records, the chain holds; 1 attested by the server at ply 1 (Nf6, mail-token)"

# --- A message too long: refused in French, then a short one --------------

move bob bob 1 a6
move alice alice 1 Ba4
k=$((k + 1))
latest $k "$tmp/n5" || finish
long=$(printf 'blabla %.0s' $(seq 1 80))
k=$((k + 1))
reply "$tmp/n5" "d6" "$long"
latest $k "$tmp/r7" || finish
check "a message of 560 bytes: refused, in French" says "$tmp/r7.txt" \
    'le message est trop long : 500 octets au plus'
same "nothing played" "$(ply 1)" 7
reply "$tmp/n5" "d6" "" "On continue ?" "Bises"
check "the token still plays, with a message of two lines" \
    waitfor 20 ply_is 1 8
req GET /api/v1/games/1
same "its lines joined by a space" \
    "$(js "d['messages'][-1]['from'] + ': ' + d['messages'][-1]['text']")" \
    "bob: On continue ? Bises"
"$corrchess" verify -s "$base" 1 >"$tmp/verify" 2>&1
same "verify: the attested messages hold" "$(tail -n 1 "$tmp/verify")" \
    "game 1: 8 records, the chain holds; 2 attested by the server at plies 1 (Nf6, mail-token), 7 (d6, mail-token)"

finish
