#!/bin/bash
# tests/crash.sh: crash safety: SIGKILL under load, nothing acknowledged lost.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Crash safety: the real corrchessd on a free loopback port, several curl
# clients in parallel each playing its own games with statements signed
# beforehand by `corrchess sign`, and the daemon killed with SIGKILL at a
# random moment, then started again on the same state directory, CRASH_KILLS
# times (default 5; `make check-crash` runs 50). After each restart:
#   - every move answered 201 is in its game's record, at its ply (the
#     games in play at each kill, and at the end every game);
#   - no statement is recorded twice, and each game's record holds plies
#     0, 1, 2 ... in order (nothing twice, nothing skipped);
#   - each game's moves are the moves signed, in order;
#   - SQLite's integrity_check and foreign_key_check find nothing.
# Now and then (the first cycle, then every tenth) `corrchess admin backup`
# copies the database while the clients play: the copy must pass
# integrity_check and hold every move acknowledged before it was taken.
# SIGKILL ends the process, not the machine: this tests what a crash of
# the daemon leaves behind, not a power loss.
#
# With CORRCHESS_TEST_PG set (tests/store-pg.sh, make check-crash), two
# servers A and B share one PostgreSQL schema; each client sends its moves
# to A and B in turn, and when one dies goes on through the other (a move
# whose answer was lost is sent there again: 201, or 409 when the dead
# server had committed it). The kills take A, then B, then A...; the dead
# server starts again while the other serves, and the same checks follow
# (SQLite's integrity checks and the backups aside).
#
# Environment: CRASH_KILLS (5), CRASH_CLIENTS (4).
# Prints the figures and "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need curl sqlite3
# A restart may take 20 s on a loaded machine; a request 60 s at most.
launch_wait=20
req_max_time=60
kills=${CRASH_KILLS:-5}
pg=${CORRCHESS_TEST_PG:+1}
nclients=${CRASH_CLIENTS:-4}

# The moves of every game: Deep Blue v Kasparov, New York 1997, game 2
# (89 plies, no repetition, ends by resignation after the last one).
read -r -a moves <<'EOF'
e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 h6 d4 Re8 Nbd2 Bf8 Nf1 Bd7 Ng3 Na5 Bc2 c5 b3 Nc6 d5 Ne7 Be3 Ng6 Qd2 Nh7 a4 Nh4 Nxh4 Qxh4 Qe2 Qd8 b4 Qc7 Rec1 c4 Ra3 Rec8 Rca1 Qd8 f4 Nf6 fxe5 dxe5 Qf1 Ne8 Qf2 Nd6 Bb6 Qe8 R3a2 Be7 Bc5 Bf8 Nf5 Bxf5 exf5 f6 Bxd6 Bxd6 axb5 axb5 Be4 Rxa2 Qxa2 Qd7 Qa7 Rc7 Qb6 Rb7 Ra8+ Kf7 Qa6 Qc7 Qc6 Qb6+ Kf1 Rb8 Ra6
EOF
nmoves=${#moves[@]}
# Statements each client keeps signed ahead of its play.
ahead=60

clients=()
# stop_clients: at exit, the clients stop before corrchessd does.
# shellcheck disable=SC2317 # run at exit by tests/lib.sh
stop_clients() {
	local c
	for c in "${clients[@]}"; do
		kill "$c" 2>/dev/null
	done
}
before_exit=stop_clients

# start [SERVER]: corrchessd A (or B, on PostgreSQL: the state directory
# $tmp/stateb with A's secrets) on its state directory, its log appended to
# $tmp/alllogs; set $pid, $port, $base, $token, pid_SERVER and base_SERVER
# (also in $tmp/base.SERVER, for the clients).
start() {
	local s=${1:-a} dir=$tmp/state
	if [ "$s" = b ]; then
		dir=$tmp/stateb
		mkdir -p -m 700 "$dir"
		cp -p "$tmp/state/admin.token" "$tmp/state/server.key" "$dir/"
	fi
	if [ -n "$pg" ]; then
		pg_conf "$tmp/test.conf" "$tmp/state" crash || return 1
	fi
	daemon_launch "$corrchessd" --config "$tmp/test.conf" \
	    --state-dir "$dir" || return 1
	cat "$tmp/log" >>"$tmp/alllogs"
	token=$(cat "$tmp/state/admin.token")
	eval "pid_$s=\$pid base_$s=\$base"
	echo "$base" >"$tmp/base.$s"
	# shellcheck disable=SC2154 # set by the eval
	[ -z "$pg" ] || bg_pids="${pid_a:-} ${pid_b:-}"
}

# new_game CLIENT: create a game for CLIENT and sign all its statements.
new_game() {
	local c=$1 g p player st out=$tmp/new.$1
	st=$(curl -s -o "$out" -w '%{http_code}' --max-time 60 -X POST \
	    -H "Authorization: Bearer $token" \
	    -d '{"white":"alice","black":"bob"}' "$base/api/v1/games")
	if [ "$st" != 201 ]; then
		echo "create a game: status $st: $(cat "$out")" >&2
		return 1
	fi
	g=$(jget id "$out")
	mkdir -p "$tmp/st/$g"
	for ((p = 0; p < nmoves; p++)); do
		if ((p % 2 == 0)); then player=alice; else player=bob; fi
		"$corrchess" sign -k "$tmp/$player" --game "$g" --ply "$p" \
		    -p "$player" move "${moves[p]}" >"$tmp/st/$g/$p" || return 1
	done
	echo "$g" >>"$tmp/games.$c"
	echo "$g" >>"$tmp/games"
}

# refill: give every client at least $ahead statements not yet played,
# signing new games in parallel (one signer per client).
refill() {
	local c g left ply jobs=()
	for ((c = 0; c < nclients; c++)); do
		(
			left=0
			touch "$tmp/games.$c"
			while read -r g; do
				ply=$(cat "$tmp/ply.$g" 2>/dev/null || echo 0)
				left=$((left + nmoves - ply))
			done <"$tmp/games.$c"
			while [ "$left" -lt "$ahead" ]; do
				new_game "$c" || exit 1
				left=$((left + nmoves))
			done
		) &
		jobs+=($!)
	done
	for g in "${jobs[@]}"; do
		wait "$g" || bad "signing statements"
	done
}

# client C: play C's games from where the server says they are, until the
# statements run out or the server stops answering. Each move answered
# 201 goes to $tmp/acked.C as "GAME PLY"; another status to $tmp/odd. On
# PostgreSQL the moves go to A and B in turn; when one does not answer,
# the rest go to the other, the unanswered move first.
client() {
	local c=$1 g ply st out=$tmp/client.$1 at=$base dead= retry=
	while read -r g; do
		st=$(curl -s -o "$out" -w '%{http_code}' --max-time 60 \
		    "$base/api/v1/games/$g")
		[ "$st" = 200 ] || return 0
		ply=$(jget ply "$out")
		while [ "$ply" -lt "$nmoves" ]; do
			if [ -n "$pg" ] && [ -n "$dead" ]; then
				at=$(cat "$tmp/base.$([ "$dead" = a ] &&
				    echo b || echo a)")
			elif [ -n "$pg" ]; then
				at=$(cat "$tmp/base.$( ((ply % 2)) && echo b ||
				    echo a)")
			fi
			st=$(curl -s -o "$out" -w '%{http_code}' --max-time 60 \
			    -H 'Content-Type: text/plain' \
			    --data-binary "@$tmp/st/$g/$ply" \
			    "$at/api/v1/games/$g/actions")
			case $st in
			201)
				echo "$g $ply" >>"$tmp/acked.$c"
				ply=$((ply + 1))
				retry=
				;;
			409)
				# The dead server committed it, unanswered.
				if [ -z "$retry" ]; then
					echo "game $g ply $ply: status $st:" \
					    "$(cat "$out")" >>"$tmp/odd"
					return 0
				fi
				ply=$((ply + 1))
				retry=
				;;
			000)
				[ -n "$pg" ] && [ -z "$dead" ] || return 0
				if [ "$at" = "$(cat "$tmp/base.a")" ]; then
					dead=a
				else
					dead=b
				fi
				retry=yes
				;;
			*)
				echo "game $g ply $ply: status $st:" \
				    "$(cat "$out")" >>"$tmp/odd"
				return 0
				;;
			esac
		done
	done <"$tmp/games.$c"
}

# verify_game GAME: the record and the moves of one game after a restart.
verify_game() {
	local g=$1 n maxack
	req GET "/api/v1/games/$g/records"
	if [ "$code" != 200 ]; then
		bad "game $g: records: status $code"
		return
	fi
	# The ply of each record, in record order.
	jget 'records.*.ply' >"$tmp/plies"
	n=$(wc -l <"$tmp/plies" | tr -d ' ')
	if seq 0 $((n - 1)) | cmp -s - "$tmp/plies" ||
	    { [ "$n" -eq 0 ] && [ ! -s "$tmp/plies" ]; }; then
		ok
	else
		bad "game $g: recorded plies not 0..$((n - 1)) in order:" \
		    "$(tr '\n' ' ' <"$tmp/plies")"
	fi
	if [ "$(js "(lambda s: len(s) == len(set(s)))([r['statement'] for r
	    in d['records'] if isinstance(r.get('statement'), str)])")" = True ]; then
		ok
	else
		bad "game $g: a statement recorded twice"
	fi
	# Every acknowledged ply below the number recorded.
	maxack=$(cat "$tmp"/acked.* 2>/dev/null | awk -v g="$g" \
	    '$1 == g && $2 > m { m = $2 } END { print m + 0 }')
	if ! cat "$tmp"/acked.* 2>/dev/null | grep -q "^$g "; then
		ok
	elif [ "$maxack" -lt "$n" ]; then
		ok
	else
		bad "game $g: ply $maxack answered 201 but only $n recorded"
	fi
	req GET "/api/v1/games/$g"
	if [ "$(jget ply)" = "$n" ] &&
	    [ "$(jget moves)" = "${moves[*]:0:n}" ]; then
		ok
	else
		bad "game $g: ply $(jget ply), moves '$(jget moves)'; want $n" \
		    "records and the first $n moves signed"
	fi
	echo "$n" >"$tmp/ply.$g"
}

# integrity FILE: SQLite's checks on a database file find nothing.
integrity() {
	local r
	r=$(sqlite3 "$1" 'PRAGMA integrity_check; PRAGMA foreign_key_check;' \
	    2>&1)
	if [ "$r" = ok ]; then
		ok
	else
		bad "$1: integrity: $r"
	fi
}

# backup_check: copy the database while the clients play; the copy must
# be sound and hold every move acknowledged before the copy began.
backup_check() {
	local n before=$tmp/acked-before-backup
	cat "$tmp"/acked.* 2>/dev/null >"$before"
	rm -f "$tmp/copy.db"
	if "$corrchess" admin backup -s "$base" -t "$tmp/state/admin.token" \
	    "$tmp/copy.db" >"$tmp/backup.out" 2>&1; then
		ok
	else
		bad "admin backup during writes: $(cat "$tmp/backup.out")"
		return
	fi
	backups=$((backups + 1))
	integrity "$tmp/copy.db"
	sqlite3 "$tmp/copy.db" "SELECT game_id, count(*) FROM actions
	    WHERE kind = 'move' GROUP BY game_id" | tr '|' ' ' >"$tmp/copy.n"
	# Moves in the copy by game, then each acknowledged "GAME PLY".
	n=$(awk 'FNR == NR { have[$1] = $2; next }
	    !($2 < have[$1]) { miss++ } END { print miss + 0 }' \
	    "$tmp/copy.n" "$before")
	if [ "$n" -eq 0 ]; then
		ok
	else
		bad "the backup misses $n moves acknowledged before it began"
	fi
}

# --- Setting up ---------------------------------------------------------

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
mkdir -p "$tmp/st"
: >"$tmp/games"
if ! start || { [ -n "$pg" ] && ! start b; }; then
	echo "0 passed, 1 failed"
	exit 1
fi
for p in alice bob; do
	"$corrchess" keygen -f "$tmp/$p" -C "$p@example.org" >/dev/null 2>&1
	admin POST /api/v1/players -d "{\"name\":\"$p\",
	    \"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	if [ "$code" != 201 ]; then
		bad "create $p: status $code: $(cat "$tmp/out")"
		echo "$passed passed, $failed failed"
		exit 1
	fi
done

# --- corrchess admin backup: where the token comes from, refusals --------

# backup_cli NAME WANT-STATUS FILE ARG...: run corrchess admin backup ARG...
# FILE (no configuration file unless the caller sets CORRCHESS_CONFIG); it
# must exit with WANT-STATUS, leaving FILE a database (0) or absent (else).
backup_cli() {
	local name=$1 want=$2 file=$3 st
	shift 3
	rm -f "$file"
	CORRCHESS_CONFIG=${CORRCHESS_CONFIG:-/dev/null} "$corrchess" admin \
	    backup -s "$base" "$@" "$file" >"$tmp/backup.out" 2>&1
	st=$?
	if [ "$st" != "$want" ]; then
		bad "$name: exit $st, want $want: $(cat "$tmp/backup.out")"
	elif [ "$want" = 0 ] && [ "$(head -c 15 "$file")" != \
	    "SQLite format 3" ]; then
		bad "$name: $file is no database"
	elif [ "$want" != 0 ] && ls "$file"* >/dev/null 2>&1; then
		bad "$name: $file left behind"
	else
		ok
	fi
}
# PostgreSQL's backups are its own (tests/store-pg.sh checks the answer).
if [ -z "$pg" ]; then
	backup_cli "admin backup, --token-file" 0 "$tmp/b1.db" \
	    -t "$tmp/state/admin.token"
	CORRCHESS_ADMIN_TOKEN=$(cat "$tmp/state/admin.token") \
	    backup_cli "admin backup, CORRCHESS_ADMIN_TOKEN" 0 "$tmp/b2.db"
	echo "admin_token_file = $tmp/state/admin.token" >"$tmp/client.conf"
	CORRCHESS_CONFIG=$tmp/client.conf \
	    backup_cli "admin backup, admin_token_file in the configuration" 0 \
	    "$tmp/b3.db"
	CORRCHESS_ADMIN_TOKEN=wrong backup_cli "admin backup, a wrong token" 1 \
	    "$tmp/b4.db"
	if grep -q 'admin token' "$tmp/backup.out"; then
		ok
	else
		bad "a wrong token: the server's reason: $(cat "$tmp/backup.out")"
	fi
	backup_cli "admin backup without a token" 1 "$tmp/b5.db"
	for f in b1 b2 b3; do
		integrity "$tmp/$f.db"
		same=$(sqlite3 "$tmp/$f.db" 'SELECT group_concat(name) FROM
		    (SELECT name FROM players ORDER BY name)')
		if [ "$same" = alice,bob ]; then
			ok
		else
			bad "$f.db: players '$same', want alice,bob"
		fi
	done
fi

# --- Kill, restart, verify ----------------------------------------------

t0=$(date +%s)
restarts=0
backups=0
for ((k = 1; k <= kills; k++)); do
	refill
	clients=()
	for ((c = 0; c < nclients; c++)); do
		client "$c" &
		clients+=($!)
	done
	if [ -z "$pg" ] && { [ "$k" -eq 1 ] || [ $((k % 10)) -eq 0 ]; }; then
		sleep 0.2
		backup_check
	fi
	# A moment between 0.05 and 1 second from now.
	sleep "$(printf '%d.%03d' 0 $((50 + RANDOM % 950)))"
	victim=a
	[ -n "$pg" ] && [ $((k % 2)) -eq 0 ] && victim=b
	eval "victim_pid=\$pid_$victim"
	# shellcheck disable=SC2154 # set by the eval
	kill -KILL "$victim_pid"
	wait "$victim_pid" 2>/dev/null
	pid=
	for c in "${clients[@]}"; do
		wait "$c"
	done
	clients=()
	if ! start "$victim"; then
		bad "corrchessd $victim starts again after kill $k"
		break
	fi
	restarts=$((restarts + 1))
	# The games in play at the kill; a game played to its end was
	# verified after the restart that followed its last move.
	while read -r g; do
		if [ "$(cat "$tmp/ply.$g" 2>/dev/null)" != "$nmoves" ]; then
			verify_game "$g"
		fi
	done <"$tmp/games"
	[ -n "$pg" ] || integrity "$tmp/state/corrchess.db"
done
# At the end, every game again.
while read -r g; do
	verify_game "$g"
done <"$tmp/games"
t1=$(date +%s)

if [ -s "$tmp/odd" ]; then
	bad "answers other than 201 to the clients:"
	head -n 20 "$tmp/odd" >&2
else
	ok
fi
acked=$(cat "$tmp"/acked.* 2>/dev/null | wc -l | tr -d ' ')
if [ -z "$(cat "$tmp"/acked.* 2>/dev/null | sort | uniq -d)" ]; then
	ok
else
	bad "a move answered 201 twice"
fi
check_moves=0
while read -r g; do
	check_moves=$((check_moves + $(cat "$tmp/ply.$g" 2>/dev/null ||
	    echo 0)))
done <"$tmp/games"
# Some moves must have been acknowledged, or nothing was tested.
if [ "$acked" -gt 0 ]; then ok; else bad "no move acknowledged"; fi

echo "crash: $kills kills, $restarts restarts, $nclients clients," \
    "$(wc -l <"$tmp/games" | tr -d ' ') games, $acked moves answered 201," \
    "$check_moves moves recorded, $backups backups during writes," \
    "$((t1 - t0))s"
finish
