#!/bin/sh
# tests/selfmanage.sh: players who manage themselves, end to end over curl.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A player's own signed statements ("game: 0") through the real
# corrchessd on a free loopback port, signed by the real `ssh-keygen -Y
# sign -n corrchess` and posted with the real curl, and by `corrchess key`
# and `corrchess settings`: every setting and its refusals, the ply that
# stops a replay, the wrong doors, a key added and the old one revoked
# (never the last one), the conditional moves a revoked key signed ended
# before they play, an address change refused without mail. The address
# change with its mailed code is in tests/mail.sh (real Postfix and
# Dovecot). Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# say NAME TEXT: the last answer must contain TEXT.
say() {
	check "$1" grep -qF "$2" "$tmp/out" || cat "$tmp/out" >&2
}

# message: the last answer's error message, its \u escapes decoded.
message() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/out"
}

# self PLAYER KEY ACTION [DOOR]: sign ACTION about PLAYER for their next
# ply with KEY and post it to the player's actions (or DOOR's).
self() {
	req GET "/api/v1/players/$1/keys"
	statement 0 "$(jget ply)" "$1" "$3"
	sign_ssh "$2"
	req POST "${4:-/api/v1/players/$1/actions}" \
	    -H 'Content-Type: text/plain' --data-binary "@$tmp/body"
}

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
echo 0 >"$tmp/clock"
check "corrchessd starts" daemon_start || finish

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@example.org" -f "$tmp/$p"
	admin POST /api/v1/players -d "{\"name\":\"$p\",
	    \"email\":\"$p@example.org\",\"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	expect "create $p" 201
done
ssh-keygen -q -t ed25519 -N '' -C laptop -f "$tmp/alice2"

# --- Settings ------------------------------------------------------------

req GET /api/v1/players/alice/keys
same "a new player's first statement is ply 0" "$(jget ply)" 0
self alice "$tmp/alice" "set lang fr"
expect "set lang fr" 200
same "lang is fr" "$(jget lang)" fr
same "the answer says what was done, in the new language" "$(jget message)" \
    "lang vaut maintenant fr"
same "the next ply is 1" "$(jget ply)" 1
cp "$tmp/body" "$tmp/replay"
req POST /api/v1/players/alice/actions -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/replay"
expect "the same statement again is stale" 409 stale-ply
# alice reads French since "set lang fr": so do her refusals.
say "stale: the ply to sign for, in French" "signez-en une pour le ply 1"

self alice "$tmp/alice" "set move-mail off"
expect "set move-mail off" 200
same "move_mail is false" "$(jget move_mail)" false
self alice "$tmp/alice" "set reminders 3d,1d,12h"
expect "own reminder thresholds" 200
same "reminders kept as given" "$(jget reminders)" "3d,1d,12h"
self alice "$tmp/alice" "set reminders 40d"
expect "a threshold above 30 days" 400 bad-setting
say "bad-setting: what it takes, in French" \
    "reminders prend on (ceux du serveur), off, ou vos propres seuils comme 3d,1d,12h (4 au plus, de 1h"
self alice "$tmp/alice" "set digest daily"
expect "set digest daily" 200
self alice "$tmp/alice" "set digest-hour 18"
expect "set digest-hour 18" 200
same "digest_hour 18" "$(jget digest_hour)" 18
self alice "$tmp/alice" "set digest-hour 24"
expect "digest-hour 24" 400 bad-setting
self alice "$tmp/alice" "set lang de"
expect "lang de" 400 bad-setting
self alice "$tmp/alice" "set xfcc-password hunter2hunter2"
expect "an Xfcc password in clear: refused (the record keeps it)" 400 \
    bad-setting
same "the refusal says to send the hash, in French" "$(message)" \
    "xfcc-password prend la chaîne Argon2id du mot de passe \
(crypto_pwhash_str de libsodium, limites interactives), telle que \
\`corrchess settings xfcc-password -\` la fait, ou none ; jamais le mot de \
passe lui-même : la déclaration est gardée dans votre historique"
self alice "$tmp/alice" "set colour blue"
expect "an unknown setting" 400 unknown-setting
say "unknown-setting: the settings there are" "lang, move-mail, reminders"
req GET /api/v1/players/alice/keys
same "refusals use no ply" "$(jget ply)" 5
self alice "$tmp/alice" "show-settings"
expect "show-settings" 200
same "show-settings: lang" "$(jget lang)" fr
same "show-settings: digest" "$(jget digest)" daily
same "a read uses no ply" "$(jget ply)" 5
admin GET /api/v1/players/alice
same "the admin sees the same language" "$(jget lang)" fr

# --- Wrong doors and wrong players ----------------------------------------

admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "create a game" 201
g=$(jget id)
self alice "$tmp/alice" "set lang en" "/api/v1/games/$g/actions"
expect "game 0 at a game's door" 400 wrong-game
act_with "$tmp/alice" "$g" alice "move e4"
expect "alice moves" 201
statement "$g" 1 bob "move e5"
sign_ssh "$tmp/bob"
req POST /api/v1/players/bob/actions -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/body"
expect "a game's action at a player's door" 400 wrong-game
req GET /api/v1/players/bob/keys
statement 0 "$(jget ply)" bob "set lang fr"
sign_ssh "$tmp/bob"
req POST /api/v1/players/alice/actions -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/body"
expect "bob's statement at alice's door" 400 wrong-player
self alice "$tmp/bob" "set lang en"
expect "alice's statement signed with bob's key" 403 wrong-key
statement 0 5 alice "move e4"
sign_ssh "$tmp/alice"
req POST /api/v1/players/alice/actions -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/body"
expect "game 0 with a game's action" 400 bad-statement

# --- Keys ------------------------------------------------------------------

fp1=$(ssh-keygen -l -f "$tmp/alice.pub" | cut -d' ' -f2)
fp2=$(ssh-keygen -l -f "$tmp/alice2.pub" | cut -d' ' -f2)
self alice "$tmp/alice" "revoke-key $fp1"
expect "the only key cannot be revoked" 409 last-key
self alice "$tmp/alice" "revoke-key SHA256:nosuchkey"
expect "revoking a key alice does not have" 404 no-such-key

# A conditional signed with the first key, which is then revoked.
act_with "$tmp/bob" "$g" bob "move e5"
expect "bob answers" 201
act_with "$tmp/alice" "$g" alice "move g1f3"
expect "alice moves again" 201
act_with "$tmp/alice" "$g" alice "conditional b8c6 f1b5; d7d6 d2d4"
expect "alice signs a conditional with her first key" 201

run key add -s "$base" -k "$tmp/alice" -p alice "$tmp/alice2.pub"
same "corrchess key add" "$status" 0
check "key add: the new key's fingerprint" grep -qF "$fp2" "$tmp/out"
run key revoke -s "$base" -k "$tmp/alice2" -p alice "$fp1"
same "corrchess key revoke, signed with the new key" "$status" 0
check "key revoke: the conditional moves it signed end" \
    grep -qF "les coups conditionnels qu'elle a signés sont terminés" \
    "$tmp/out"
req GET /api/v1/players/alice/keys
check "the first key is listed as revoked" sh -c \
    "'$top_builddir/tests/jget' keys.0.revoked '$tmp/out' | grep -qv '^null\$'"
self alice "$tmp/alice" "set lang en"
expect "a statement signed with the revoked key" 403 key-revoked

act_with "$tmp/bob" "$g" bob "move b8c6"
expect "bob plays into the ended conditional" 201
same "the revoked key's conditional did not answer" "$(jget ply)" 4
act_with "$tmp/alice2" "$g" alice "show-conditional"
expect "the ended conditional no longer waits" 404 no-conditional
act_with "$tmp/alice2" "$g" alice "move f1b5"
expect "alice moves with her new key" 201

# --- The client ------------------------------------------------------------

run settings -s "$base" -k "$tmp/alice2" -p alice
same "corrchess settings" "$status" 0
check "settings: the language" grep -q '^lang: *fr' "$tmp/out"
check "settings: the reminders" grep -q '^reminders: *3d,1d,12h' "$tmp/out"
run settings -s "$base" -k "$tmp/alice2" -p alice lang en
same "corrchess settings lang en" "$status" 0
check "settings lang en: said" grep -qF "lang is now en" "$tmp/out"
run settings -s "$base" -k "$tmp/alice2" -p alice move-mail maybe
same "corrchess settings: a refusal fails" "$status" 1
check "settings: the refusal's reason" grep -qF "move-mail takes on or off" \
    "$tmp/err"

# --- An address change needs mail -------------------------------------------

self alice "$tmp/alice2" "email alice@new.example"
expect "email without mail" 409 no-mail
self alice "$tmp/alice2" "confirm-email ABCDEFGH"
expect "a code without a change" 409 no-email-change

finish
