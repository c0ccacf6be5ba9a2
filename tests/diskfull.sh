#!/bin/sh
# tests/diskfull.sh: the real corrchessd on a full disk: 500, one log line, nothing lost, recovery.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A full disk: corrchessd keeps its state on a tmpfs of 4 MB mounted for
# the test (so it runs as root, as make check's mail tests do), which a
# file of zeros then fills. A signed move and a new player are answered
# 500 with "try again later", each with exactly one line in the log
# ("store: commit: database or disk is full; 1 request undone"), never a
# second one about a rollback; the game reads as it was. Once the file is
# removed, the same move is applied, and it is still there after a
# restart. Without the right to mount it fails, unless
# CORRCHESS_NO_MOUNT=1 (skip). Prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need curl ssh-keygen mount umount dd

disk=$tmp/disk
mkdir "$disk"
if ! mount -t tmpfs -o size=4m,mode=0700 tmpfs "$disk" 2>"$tmp/mount.err"
then
	if [ "${CORRCHESS_NO_MOUNT:-0}" = 1 ]; then
		echo "skipped: cannot mount a tmpfs (CORRCHESS_NO_MOUNT=1)"
		exit 77
	fi
	echo "cannot mount a tmpfs to fill: $(cat "$tmp/mount.err")" \
	    "(run as root, or set CORRCHESS_NO_MOUNT=1 to skip)" >&2
	exit 1
fi
# Unmounted once corrchessd is gone, before $tmp is removed.
# shellcheck disable=SC2317 # run at exit by tests/lib.sh
unmount() {
	umount "$disk"
}
at_exit=unmount

cp "$example" "$tmp/test.conf"
sed -i 's/^port = .*/port = 0/' "$tmp/test.conf"
echo 0 >"$tmp/clock"

# start: corrchessd with its state on the small disk.
start() {
	daemon_launch env CORRCHESSD_TEST_CLOCK_FILE="$tmp/clock" \
	    "$corrchessd" --config "$tmp/test.conf" --state-dir "$disk/state"
}

# full_lines: the log's lines about the full disk.
full_lines() {
	grep -c 'disk is full' "$tmp/log"
}

check "corrchessd starts on the small disk" start || finish
token=$(cat "$disk/state/admin.token")
for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p" -f "$tmp/$p"
	admin POST /api/v1/players -d "{\"name\":\"$p\",
	    \"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	expect "create $p" 201
done
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "create the game" 201
g=$(jget id)
statement "$g" 0 alice "move e4"
sign_ssh "$tmp/alice"
submit "$g"
expect "1. e4" 201

# --- The disk fills up ----------------------------------------------------
dd if=/dev/zero of="$disk/fill" bs=4k 2>/dev/null
check "the disk is full" sh -c \
    "df -k '$disk' | awk 'NR == 2 { exit \$4 != 0 }'"

statement "$g" 1 bob "move e5"
sign_ssh "$tmp/bob"
cp "$tmp/body" "$tmp/e5"
submit "$g" "$tmp/e5"
expect "1... e5 on a full disk: 500" 500 internal
same "the answer says to try again" "$(jget error.message)" \
    "the server could not commit the action; try again later"
same "one line in the log" "$(full_lines)" 1
check "the line says what happened" grep -q \
    'warning: store: commit: database or disk is full; 1 request undone$' \
    "$tmp/log"
check "no line about a rollback" sh -c "! grep -qi 'rollback' '$tmp/log'"
req GET "/api/v1/games/$g"
expect "the game reads on a full disk" 200
same "the game is as it was (ply 1)" "$(jget ply)" 1

admin POST /api/v1/players -d '{"name":"carol"}'
expect "a new player on a full disk: 500" 500 internal
same "one more line, for the second refusal" "$(full_lines)" 2
check "still no line about a rollback" sh -c \
    "! grep -qi 'rollback' '$tmp/log'"

# --- Space comes back -----------------------------------------------------
rm -f "$disk/fill"
submit "$g" "$tmp/e5"
expect "the same e5 once there is room" 201
same "ply 2" "$(jget ply)" 2
admin POST /api/v1/players -d '{"name":"carol"}'
expect "carol once there is room" 201
same "no new line about the disk" "$(full_lines)" 2

daemon_stop
same "corrchessd stops cleanly" "$status" 0
check "corrchessd starts again" start || finish
req GET "/api/v1/games/$g/records"
same "two records after the restart" \
    "$(jget 'records.*.seq' | wc -l | tr -d ' ')" 2
req GET "/api/v1/games/$g"
same "e4 e5 after the restart" "$(jget moves)" "e4 e5"
daemon_stop
same "corrchessd stops cleanly again" "$status" 0
finish
