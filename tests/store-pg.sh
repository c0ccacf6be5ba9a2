#!/bin/sh
# tests/store-pg.sh: the store on PostgreSQL: the same tests as on SQLite.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Starts a private PostgreSQL (tests/pgenv.sh) and runs against it what
# make check runs on SQLite: the store, service and clock test programs
# (each test in a schema of its own, asserting the same answers as on
# SQLite), tests/daemon.sh (the real corrchessd with [storage] engine =
# postgresql), then checks what is PostgreSQL's own: both engines hold
# the same tables, columns and indexes after their migrations, and
# `corrchess admin backup` names pg_dump; and two servers on one database:
# a game's lock, streams and caches across servers (a game no stream
# follows not read back), the clock's takeover
# (make check-failover kills servers under load and while mail arrives). Without the PostgreSQL server
# programs (.ci/install-deps installs them) or a build without libpq the
# script says so and is counted as skipped (exit 77).

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl psql sqlite3 ssh-keygen

if ! sh "$top_srcdir/tests/pgenv.sh" available; then
	echo "SKIP: PostgreSQL's server programs are not installed" \
	    "(.ci/install-deps)" >&2
	rm -rf "$tmp"
	exit 77
fi
if ! grep -q '^#define HAVE_POSTGRESQL 1' "$top_builddir/config.h"; then
	echo "SKIP: built without PostgreSQL (configure found no libpq)" >&2
	rm -rf "$tmp"
	exit 77
fi

pgdir=$(mktemp -d /tmp/ccpg.XXXXXX)
# Stop the server at exit, whatever happened.
pg_stop() {
	sh "$top_srcdir/tests/pgenv.sh" stop "$pgdir"
}
at_exit=pg_stop
check "PostgreSQL starts" sh "$top_srcdir/tests/pgenv.sh" start "$pgdir" ||
    finish
. "$pgdir/env"

# --- The test programs and the daemon's suite -----------------------------

for t in test_store test_service test_clock; do
	if CORRCHESS_TEST_PG=$PG_CONNINFO "$top_builddir/tests/$t" \
	    >"$tmp/$t.log" 2>&1; then
		ok
	else
		bad "tests/$t on PostgreSQL:"
		grep -E 'FAILED|ERROR|LINE' "$tmp/$t.log" >&2
	fi
	grep -q 'engine: PostgreSQL' "$tmp/$t.log" || [ "$t" != test_store ] ||
	    bad "tests/test_store did not say it ran on PostgreSQL"
done

if CORRCHESS_TEST_PG=$PG_CONNINFO sh "$top_srcdir/tests/daemon.sh" \
    >"$tmp/daemon.log" 2>&1; then
	ok
else
	bad "tests/daemon.sh on PostgreSQL: $(tail -n 1 "$tmp/daemon.log")"
	grep '^FAIL' "$tmp/daemon.log" >&2
fi

# --- One schema on two engines --------------------------------------------

# A fresh database on each engine, made by corrchessd at its first start.
sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts on SQLite" daemon_start || finish
daemon_stop
CORRCHESS_TEST_PG=$PG_CONNINFO
check "corrchessd starts on PostgreSQL" daemon_start || finish
unset CORRCHESS_TEST_PG
check "its log names the engine, not the connection string" grep -q \
    'database on PostgreSQL' "$tmp/log"
check "...and no connection string" sh -c "! grep -qF '$pgdir' '$tmp/log'"

pgq() {
	psql -X -q -At -d "$PG_CONNINFO options='-csearch_path=$pg_schema'" \
	    -c "$1" | LC_ALL=C sort
}
sqq() {
	sqlite3 "$tmp/state/corrchess.db" "$1" | LC_ALL=C sort
}

# Tables and columns, and whether each may be NULL.
sqq "SELECT m.name || '.' || p.name || ' ' ||
    (p.\"notnull\" OR p.pk > 0) FROM sqlite_master m,
    pragma_table_info(m.name) p WHERE m.type = 'table'" >"$tmp/cols.sqlite"
pgq "SELECT table_name || '.' || column_name || ' ' ||
    CASE is_nullable WHEN 'NO' THEN 1 ELSE 0 END
    FROM information_schema.columns WHERE table_schema = current_schema()" \
    >"$tmp/cols.pg"
if [ -s "$tmp/cols.pg" ] && cmp -s "$tmp/cols.sqlite" "$tmp/cols.pg"; then
	ok
else
	bad "the engines' columns differ (SQLite <, PostgreSQL >):"
	diff "$tmp/cols.sqlite" "$tmp/cols.pg" >&2
fi

# Indexes by name (not those the engines make for keys and UNIQUE).
sqq "SELECT name FROM sqlite_master WHERE type = 'index'
    AND name NOT LIKE 'sqlite_autoindex%'" >"$tmp/idx.sqlite"
pgq "SELECT i.indexname FROM pg_indexes i
    WHERE i.schemaname = current_schema() AND NOT EXISTS (SELECT 1
    FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) ||
    '.' || quote_ident(i.indexname))::regclass)" >"$tmp/idx.pg"
if [ -s "$tmp/idx.pg" ] && cmp -s "$tmp/idx.sqlite" "$tmp/idx.pg"; then
	ok
else
	bad "the engines' indexes differ (SQLite <, PostgreSQL >):"
	diff "$tmp/idx.sqlite" "$tmp/idx.pg" >&2
fi
same "the same schema version" "$(pgq 'SELECT version FROM schema_version')" \
    "$(sqq 'SELECT version FROM schema_version')"

# --- Backups are PostgreSQL's own ---------------------------------------

run admin backup -s "$base" -t "$tmp/state/admin.token" "$tmp/copy.db"
same "admin backup on PostgreSQL fails" "$status" 1
check "...naming pg_dump" grep -q 'pg_dump' "$tmp/err"
check "...and writes no file" test ! -e "$tmp/copy.db"
admin POST /api/v1/admin/backup
expect "POST /api/v1/admin/backup on PostgreSQL" 409 postgresql
daemon_stop

# --- Two servers on one database -----------------------------------------

# A and B share a schema (and the state directory's secrets: the admin
# token and the server's key), each with its own port (tests/lib.sh).
check "server A starts" server_on a multi || finish
check "server B starts" server_on b multi || finish
token=$(cat "$tmp/a/admin.token")

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
done
base=$base_a
admin POST /api/v1/players -d "{\"name\":\"alice\",\"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "alice, through A" 201
base=$base_b
admin POST /api/v1/players -d "{\"name\":\"bob\",\"keys\":[\"$(cat "$tmp/bob.pub")\"]}"
expect "bob, through B" 201
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "a game, through B" 201
game=$(jget id)

# Each ply sent to both at once: one takes it, the other finds it played.
ply=0
for mv in e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6; do
	who=alice
	[ $((ply % 2)) -eq 1 ] && who=bob
	statement "$game" "$ply" "$who" "move $mv"
	sign_ssh "$tmp/$who"
	curls=
	for s in a b; do
		eval "b=\$base_$s"
		curl -s -o "$tmp/ply.$s" -w '%{http_code}\n' -X POST \
		    -H 'Content-Type: text/plain' --data-binary "@$tmp/body" \
		    "$b/api/v1/games/$game/actions" >"$tmp/code.$s" &
		curls="$curls $!"
	done
	# shellcheck disable=SC2086 # the two pids
	wait $curls
	codes=$(cat "$tmp/code.a" "$tmp/code.b" | sort | tr '\n' ' ')
	same "ply $ply ($mv) sent to A and B: one 201, one 409" "$codes" \
	    "201 409 "
	ply=$((ply + 1))
done
for s in a b; do
	eval "base=\$base_$s"
	req GET "/api/v1/games/$game"
	same "server $s: the game is at ply 8" "$(jget ply)" 8
	same "server $s: each move once" "$(jget moves)" \
	    "e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6"
done

# A game's lock is its own: while a session outside holds game 1's, a
# move on game 2 is taken at once (through A), a move on game 1 (through
# B) waits for it and is taken after, and neither is lost.
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "a second game, through B" 201
game2=$(jget id)
mkfifo "$tmp/locker"
# The fifo stays open for writing (fd 7) until the lock is to go.
psql -X -q -At -d "$PG_CONNINFO" -v ON_ERROR_STOP=1 <"$tmp/locker" \
    >"$tmp/locker.out" 2>&1 &
locker=$!
exec 7>"$tmp/locker"
echo "BEGIN; SELECT pg_advisory_xact_lock(71619627, $game);" >&7
held=
for i in $(seq 100); do
	held=$(psql -X -q -At -d "$PG_CONNINFO" -c "SELECT count(*) FROM
	    pg_locks WHERE locktype = 'advisory' AND classid = 71619627 AND
	    objid = $game AND granted")
	[ "$held" = 1 ] && break
	sleep 0.1
done
same "a session outside holds game $game's lock" "$held" 1
statement "$game" 8 alice "move Re1"
sign_ssh "$tmp/alice"
cp "$tmp/body" "$tmp/body.g1"
curl -s -o "$tmp/g1.out" -w '%{http_code}' -X POST \
    -H 'Content-Type: text/plain' --data-binary "@$tmp/body.g1" \
    "$base_b/api/v1/games/$game/actions" >"$tmp/g1.code" &
g1=$!
# B's writer is waiting on game 1 once PostgreSQL shows it waiting.
waiting=
for i in $(seq 100); do
	waiting=$(psql -X -q -At -d "$PG_CONNINFO" -c "SELECT count(*) FROM
	    pg_locks WHERE locktype = 'advisory' AND classid = 71619627 AND
	    objid = $game AND NOT granted")
	[ "$waiting" = 1 ] && break
	sleep 0.1
done
same "a move on game $game waits for its lock" "$waiting" 1
base=$base_a
statement "$game2" 0 alice "move d4"
sign_ssh "$tmp/alice"
submit "$game2"
expect "meanwhile a move on game $game2 is taken (through A)" 201
same "...while the move on game $game still waits" \
    "$(kill -0 $g1 2>/dev/null && echo waiting)" waiting
echo "COMMIT;" >&7
exec 7>&-
wait $locker
wait $g1
same "once the lock is let go, the move on game $game is taken" \
    "$(cat "$tmp/g1.code")" 201
req GET "/api/v1/games/$game"
same "game $game: ply 9, each move once" "$(jget ply) $(jget moves | wc -w)" \
    "9 9"
req GET "/api/v1/games/$game2"
same "game $game2: ply 1" "$(jget ply)" 1

# What one server commits reaches the streams and the caches of the other
# (LISTEN/NOTIFY): streams of B hear moves made through A, once each, and
# B takes a language change made through A without writing a player.
curl -sN "$base_b/api/v1/games/$game2/stream" >"$tmp/nd.b" 2>/dev/null &
bg_pids="$bg_pids $!"
curl -sN "$base_b/api/v1/players/bob/stream" >"$tmp/bobs.b" 2>/dev/null &
bg_pids="$bg_pids $!"
check "B: game $game2's stream opens" waitfor 10 grep -q '"type":"game"' \
    "$tmp/nd.b"
check "B: bob's stream opens" waitfor 10 grep -q '"type":"player"' \
    "$tmp/bobs.b"
base=$base_b
statement "$game2" 1 bob "move d5"
sign_ssh "$tmp/bob"
submit "$game2"
expect "bob's d5 through B (B keeps bob, in English)" 201
base=$base_a
statement "$game2" 2 alice "move c4"
sign_ssh "$tmp/alice"
submit "$game2"
expect "alice's c4 through A" 201
check "B's game stream hears the move made through A" waitfor 10 grep -q \
    '"type":"move","game":'"$game2"',"white":"alice","black":"bob","ply":3' \
    "$tmp/nd.b"
check "...with its SAN" grep -q '"san":"c4"' "$tmp/nd.b"
check "B's stream of bob hears it too" waitfor 10 grep -q '"san":"c4"' \
    "$tmp/bobs.b"
admin PATCH /api/v1/players/bob -d '{"lang":"fr"}'
expect "bob reads French from now on, set through A" 200
statement "$game2" 3 bob "move Cf6"
sign_ssh "$tmp/bob"
base=$base_b
fr=
for i in $(seq 50); do
	submit "$game2"
	[ "$code" = 201 ] && { fr=yes; break; }
	sleep 0.1
done
same "B takes bob's French Cf6 without having written a player" \
    "$fr" yes
req GET "/api/v1/games/$game2"
same "...played as Nf6" "$(jget moves)" "d4 d5 c4 Nf6"
base=$base_a
admin POST /api/v1/games -d '{"white":"bob","black":"alice"}'
expect "a third game, through A" 201
game3=$(jget id)
check "B's stream of bob hears the game start" waitfor 10 grep -q \
    '"type":"start","game":'"$game3" "$tmp/bobs.b"
same "B's game stream: each move once" \
    "$(grep '"type":"move"' "$tmp/nd.b" | grep -o '"san":"[A-Za-z0-9]*"' |
    tr '\n' ' ')" \
    '"san":"d5" "san":"c4" "san":"Nf6" '

# Games' kept answers and players' doors across servers: B answers a game
# from the bytes it keeps (its row read, which another server may have
# changed), with the players' doors it keeps until it hears (LISTEN/NOTIFY)
# that A changed a player; a change made while B's listener is away
# reaches B's answers too.
base=$base_a
admin POST /api/v1/games -d '{"white":"alice","black":"bob","auth":"signed-or-attested"}'
expect "a fourth game, attested actions allowed, through A" 201
game4=$(jget id)
base=$base_b
req GET "/api/v1/games/$game4"
req GET "/api/v1/games/$game4"
check "B keeps game $game4: bob's doors shut" grep -q \
    '"black":\["signed"\]}}$' "$tmp/out"
req GET "/games/$game4"
req GET "/games/$game4"
check "B keeps game $game4's page: white to move" grep -q \
    'White to move (alice), ply 0.' "$tmp/out"
# b_has PATH TEXT: B's answer to a GET of PATH holds TEXT now.
b_has() {
	curl -s "$base_b$1" | grep -qF -- "$2"
}
base=$base_a
admin PATCH /api/v1/players/bob/doors -d '{"xfcc":true}'
expect "bob opens the Xfcc door, through A" 200
check "B's game $game4 shows bob's door open" waitfor 10 b_has \
    "/api/v1/games/$game4" '"black":["signed","xfcc"]}}'
statement "$game4" 0 alice "move e4"
sign_ssh "$tmp/alice"
submit "$game4"
expect "alice's e4 in game $game4, through A" 201
check "B's page of game $game4 shows the move" waitfor 10 b_has \
    "/games/$game4" 'Black to move (bob), ply 1.'
check "B's JSON of game $game4 too" b_has "/api/v1/games/$game4" \
    '"moves":["e4"]'
# A rated game's end through A: the PGN B keeps of another game of the
# same player shows her rating of now (notice line g).
b_elo() {
	curl -s "$base_b/api/v1/games/$game4/pgn" |
	    sed -n 's/^\[WhiteElo "\(.*\)"\]\r*$/\1/p'
}
elo0=$(b_elo)
same "B keeps game $game4's PGN" "$(b_elo)" "$elo0"
admin POST /api/v1/games -d '{"white":"alice","black":"bob","rated":true}'
expect "a rated game through A" 201
gr=$(jget id)
play "$gr" alice resign
# b_elo_not OLD: B's PGN of game 4 gives alice's Elo, not OLD.
b_elo_not() {
	e=$(b_elo)
	[ -n "$e" ] && [ "$e" != "$1" ]
}
check "B's PGN of game $game4 shows alice's new rating" waitfor 10 \
    b_elo_not "$elo0"
# Both listeners' connections cut: B's answers no longer come from bytes
# no notice could drop.
lost=$(grep -c 'listen: ' "$tmp/b.log")
same "two listeners cut" "$(psql -X -q -At -d "$PG_CONNINFO" -c "SELECT
    count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE
    application_name = 'corrchessd listener'")" 2
check "B's listener finds its connection lost" waitfor 10 sh -c \
    "[ \$(grep -c 'listen: ' '$tmp/b.log') -gt $lost ]"
admin PATCH /api/v1/players/bob/doors -d '{"xfcc":false}'
expect "bob shuts the Xfcc door, through A" 200
statement "$game4" 1 bob "move e5"
sign_ssh "$tmp/bob"
submit "$game4"
expect "bob's e5 in game $game4, through A, while B's listener is away" 201
check "B's JSON at once: the move" b_has "/api/v1/games/$game4" \
    '"moves":["e4","e5"]'
check "...and bob's door shut" b_has "/api/v1/games/$game4" \
    '"black":["signed"]}}'
check "B's page at once: the move" b_has "/games/$game4" \
    'White to move (alice), ply 2.'
check "B's listener hears the others again" waitfor 10 grep -q \
    'listen: hearing the other servers again' "$tmp/b.log"

# A game nobody on B follows (no stream of it or of its players there):
# B drops what it kept of it but reads nothing of it back; once a stream
# on B follows it, B reads each move A makes and the stream hears it.
# b_listened READ: B's count of other servers' games read back ("yes") or
# not ("no"); b_listened_past READ N: that count is past N.
b_listened() {
	curl -s "$base_b/metrics" | sed -n \
	    's/^corrchess_listen_games_total{read="'"$1"'"} //p'
}
b_listened_past() {
	[ "$(b_listened "$1")" -gt "$2" ]
}
ssh-keygen -q -t ed25519 -N '' -C "carol@example.org" -f "$tmp/carol"
base=$base_a
admin POST /api/v1/players -d "{\"name\":\"carol\",\"keys\":[\"$(cat "$tmp/carol.pub")\"]}"
expect "carol, through A" 201
admin POST /api/v1/games -d '{"white":"carol","black":"alice"}'
expect "a fifth game, carol against alice, through A" 201
game5=$(jget id)
base=$base_b
req GET "/api/v1/games/$game5"
expect "B answers game $game5" 200
read_b=$(b_listened yes)
skip_b=$(b_listened no)
base=$base_a
statement "$game5" 0 carol "move d4"
sign_ssh "$tmp/carol"
submit "$game5"
expect "carol's d4 in game $game5, through A" 201
check "B hears of it and does not read it back" waitfor 10 \
    b_listened_past no "$skip_b"
same "B read no game back for it" "$(b_listened yes)" "$read_b"
check "B's JSON of game $game5 has the move all the same" b_has \
    "/api/v1/games/$game5" '"moves":["d4"]'
curl -sN "$base_b/api/v1/games/$game5/stream" >"$tmp/nd5.b" 2>/dev/null &
bg_pids="$bg_pids $!"
check "B: game $game5's stream opens" waitfor 10 grep -q '"type":"game"' \
    "$tmp/nd5.b"
statement "$game5" 1 alice "move d5"
sign_ssh "$tmp/alice"
submit "$game5"
expect "alice's d5 in game $game5, through A" 201
check "B's new stream of game $game5 hears it" waitfor 10 grep -q \
    '"san":"d5"' "$tmp/nd5.b"
check "...B having read it back" b_listened_past yes "$read_b"

# One server leads the clock (whichever asked first); when it dies, the
# other takes over.
leads=$(grep -l 'clock: this server leads' "$tmp/a.log" "$tmp/b.log")
same "one server leads the clock" "$(echo "$leads" | wc -w)" 1
leader=a other=b
[ "$leads" = "$tmp/b.log" ] && leader=b other=a
eval "kill -9 \$pid_$leader; wait \$pid_$leader" 2>/dev/null
i=0
while ! grep -q 'clock: this server leads' "$tmp/$other.log" &&
    [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "after kill -9 of the leader, the other leads the clock" grep -q \
    'clock: this server leads' "$tmp/$other.log"
eval "base=\$base_$other"
statement "$game" 9 bob "move Fe7"
sign_ssh "$tmp/bob"
submit "$game"
expect "the other takes the next move alone" 201

finish
