#!/bin/sh
# tests/mail-pg.sh: two servers on one PostgreSQL, the mail reader killed.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Two real corrchessd (A and B) on one schema of a private PostgreSQL
# (tests/pgenv.sh), both with [mail] enabled on real Dovecot and Postfix
# (tests/mailenv.sh). Six games; in each of two rounds a signed move for
# every game is mailed (corrchess mail-move, sent through Postfix) and the
# server that reads the mailbox is killed with SIGKILL while those mails
# arrive: the other takes over, and every mail is applied once (each game
# at the round's ply, its record holding each ply once), filed in the
# processed folder, and every notice of a new game or a move reaches the
# opponent. The killed server is started again before the next round.
# Skipped (exit 77) without PostgreSQL's programs or libpq; needs the mail
# servers as tests/mail.sh does. Prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
mailenv=$top_srcdir/tests/mailenv.sh

if ! sh "$top_srcdir/tests/pgenv.sh" available ||
    ! grep -q '^#define HAVE_POSTGRESQL 1' "$top_builddir/config.h"; then
	echo "SKIP: no PostgreSQL (its programs or libpq)" >&2
	rm -rf "$tmp"
	exit 77
fi
need psql

# shellcheck source=tests/maillib.sh
. "$top_srcdir/tests/maillib.sh"

pgdir=$(mktemp -d /tmp/ccpg.XXXXXX)
# Stop PostgreSQL and the mail servers at exit.
mailpg_cleanup() {
	mail_cleanup
	sh "$top_srcdir/tests/pgenv.sh" stop "$pgdir"
}
at_exit=mailpg_cleanup
check "PostgreSQL starts" sh "$top_srcdir/tests/pgenv.sh" start "$pgdir" ||
    finish
. "$pgdir/env"

ngames=6
check "server A starts" server_on a mail "$tmp/test.conf" || finish
check "server B starts" server_on b mail "$tmp/test.conf" || finish
token=$(cat "$tmp/a/admin.token")
base=$base_a

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@$domain" -f "$tmp/$p"
	admin POST /api/v1/players -d "{\"name\":\"$p\",\"email\":\"$p@$domain\",
	    \"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	expect "create $p" 201
done
games=
for i in $(seq $ngames); do
	admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
	expect "game $i" 201
	games="$games $(jget id)"
done
check "alice's $ngames new-game notices" waitfor 30 has alice $ngames
check "bob's $ngames new-game notices" waitfor 30 has bob $ngames

# leader: the server that leads the mailbox now (its log said so last).
leader() {
	for s in a b; do
		if grep -E 'mailbox: (this|another) server leads' \
		    "$tmp/$s.log" | tail -n 1 | grep -q 'this server'; then
			echo "$s"
			return
		fi
	done
}

# all_at PLY: every game is at PLY.
all_at() {
	for g in $games; do
		ply_is "$g" "$1" || return 1
	done
}

# round PLY PLAYER MOVE OPPONENT NOTICES: mail PLAYER's MOVE in every game,
# killing the mailbox's reader after the first half is sent; then check
# the games, the mailbox and OPPONENT's NOTICES.
round() {
	ply=$1 who=$2 move=$3 opp=$4 want=$5
	section "ply $ply: $who mails $move in $ngames games"
	check "one server leads the mailbox" waitfor 30 sh -c \
	    "grep -q 'mailbox: this server leads' '$tmp/a.log' '$tmp/b.log'"
	victim=$(leader)
	other=a
	[ "$victim" = a ] && other=b
	eval "base=\$base_$other"
	np=$(count corrchess corrchess.processed)
	for g in $games; do
		"$corrchess" mail-move -s "$base" -k "$tmp/$who" -p "$who" \
		    --to "$box" --from "$who@$domain" "$g" "$move" \
		    >"$tmp/mm.$g" 2>"$tmp/mm.err" ||
		    bad "mail-move game $g: $(cat "$tmp/mm.err")"
	done
	n=0
	for g in $games; do
		send "$who@$domain" "$tmp/mm.$g" || bad "send game $g's mail"
		n=$((n + 1))
		if [ "$n" -eq $((ngames / 2)) ]; then
			eval "kill -9 \$pid_$victim; wait \$pid_$victim" \
			    2>/dev/null
			echo "killed $victim, the mailbox's reader, after" \
			    "$n mails"
		fi
	done
	check "server $other takes the mailbox over" waitfor 30 grep -q \
	    'mailbox: this server leads' "$tmp/$other.log"
	check "every game at ply $((ply + 1))" waitfor 60 all_at $((ply + 1))
	for g in $games; do
		req GET "/api/v1/games/$g/records"
		same "game $g: each ply recorded once" \
		    "$(grep -o 'ply: [0-9]*' "$tmp/out" | tr '\n' ' ')" \
		    "$(seq 0 "$ply" | sed 's/^/ply: /' | tr '\n' ' ')"
	done
	check "the $ngames mails filed in processed" waitfor 30 \
	    has corrchess $((np + ngames)) corrchess.processed
	check "the move mailbox is empty" waitfor 30 holds corrchess 0
	check "$opp gets a notice of each move" waitfor 60 has "$opp" "$want"
	echo "$opp holds $(count "$opp") mails, $want wanted"
	# The dead server comes back for the next round.
	mv "$tmp/$victim.log" "$tmp/$victim.log.1"
	check "server $victim starts again" server_on "$victim" mail \
	    "$tmp/test.conf"
}

round 0 alice e4 bob $((ngames * 2))
round 1 bob e5 alice $((ngames * 2))

finish
