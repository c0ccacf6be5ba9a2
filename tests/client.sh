#!/bin/sh
# tests/client.sh: the corrchess command against the real corrchessd.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The player's commands end to end: the real corrchessd on a free loopback
# port (port = 0, read back from its log) with a temporary state directory,
# players registered with keys made by `corrchess keygen` and by
# `ssh-keygen -t ed25519`, and games played with `corrchess move`, `act`,
# `show`, `games` and `sign` (its output posted with the real curl and its
# SSH signatures checked with `ssh-keygen -Y verify`). Errors: wrong turn,
# illegal moves (the server's message), unreachable server, missing or
# encrypted keys (signing through ssh-agent: tests/agent.sh), bad
# configuration, answers that are not a game.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen

# The client reads no file of the user running the tests.
HOME=$tmp/home
export HOME
unset XDG_CONFIG_HOME SSH_AUTH_SOCK
mkdir -p "$HOME"

ok() {
	passed=$((passed + 1))
	echo "ok - $1"
}

bad() {
	failed=$((failed + 1))
	echo "not ok - $1"
	echo "#   exit status: ${status:-?}"
	echo "#   stdout:"
	sed 's/^/#     /' "$tmp/out" 2>/dev/null
	echo "#   stderr:"
	sed 's/^/#     /' "$tmp/err" 2>/dev/null
}

# The last run's exit status.
status_is() {
	[ "$status" -eq "$1" ]
}

# A whole line of the last run's stdout / stderr.
out_has() {
	grep -qxF -- "$1" "$tmp/out"
}
err_has() {
	grep -qF -- "$1" "$tmp/err"
}

# --- The daemon ---------------------------------------------------------

printf '[server]\nport = 0\nstate_directory = %s\n' "$tmp/state" \
    >"$tmp/corrchessd.conf"
daemon_launch "$corrchessd" --config "$tmp/corrchessd.conf" || {
	failed=1
	finish
}
token=$(cat "$tmp/state/admin.token")

# jadmin METHOD PATH JSON: an admin request with a JSON body.
jadmin() {
	admin "$1" "$2" -H 'Content-Type: application/json' -d "$3"
}

# --- keygen -------------------------------------------------------------

run keygen
check "keygen: exit 0" status_is 0
defkey=$HOME/.config/corrchess/id_ed25519
check "keygen: default file created" [ -f "$defkey" ]
check "keygen: private key mode 0600" \
    [ "$(stat -c %a "$defkey")" = 600 ]
check "keygen: prints the public line of FILE.pub" \
    cmp -s "$tmp/out" "$defkey.pub"
check "keygen: an OpenSSH ed25519 line" \
    grep -q '^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]*' "$tmp/out"
ssh-keygen -y -f "$defkey" >"$tmp/sshpub" 2>/dev/null
check "keygen: ssh-keygen reads the private key" \
    [ "$(cut -d' ' -f1,2 "$tmp/sshpub")" = \
    "$(cut -d' ' -f1,2 "$defkey.pub")" ]
cp "$defkey" "$tmp/keycopy"
run keygen
check "keygen: refuses to overwrite (exit 1)" status_is 1
check "keygen: says the file exists" err_has "exists already"
check "keygen: the key is unchanged" cmp -s "$defkey" "$tmp/keycopy"
XDG_CONFIG_HOME=$tmp/xdg run keygen -C test@example
check "keygen: \$XDG_CONFIG_HOME/corrchess/id_ed25519" \
    [ -f "$tmp/xdg/corrchess/id_ed25519" ]
check "keygen -C: the comment" grep -q ' test@example$' \
    "$tmp/xdg/corrchess/id_ed25519.pub"

# alice's key from corrchess, bob's from ssh-keygen.
run keygen -f "$tmp/alice"
check "keygen -f FILE: the private key" [ -f "$tmp/alice" ]
check "keygen -f FILE: FILE.pub" [ -f "$tmp/alice.pub" ]
ssh-keygen -q -t ed25519 -N '' -C bob -f "$tmp/bob"

# player NAME PUBFILE: register a player with one key.
player() {
	jadmin POST /api/v1/players "{\"name\":\"$1\",\"email\":\"$1@example.org\",
	    \"lang\":\"en\",\"keys\":[\"$(cat "$2")\"]}"
}
player alice "$tmp/alice.pub"
check "register alice (key from corrchess keygen)" [ "$code" = 201 ]
player bob "$tmp/bob.pub"
check "register bob (key from ssh-keygen)" [ "$code" = 201 ]
jadmin POST /api/v1/games \
    '{"white":"alice","black":"bob","time_control":"3d/move"}'
check "game 1: alice v bob" [ "$code" = 201 ]
jadmin POST /api/v1/games '{"white":"bob","black":"alice"}'
check "game 2: bob v alice" [ "$code" = 201 ]

# --- configuration ------------------------------------------------------

# alice's settings in a file named by CORRCHESS_CONFIG.
cat >"$tmp/alice.conf" <<EOF
# alice's corrchess settings
server = $base
key = $tmp/alice
player = alice
EOF
CORRCHESS_CONFIG=$tmp/alice.conf
export CORRCHESS_CONFIG

printf 'server = %s\nplayr = bob\n' "$base" >"$tmp/bad.conf"
CORRCHESS_CONFIG=$tmp/bad.conf run show 1
check "config: unknown setting, exit 1" status_is 1
check "config: unknown setting named with file:line" \
    err_has "$tmp/bad.conf:2: unknown setting 'playr'"
CORRCHESS_CONFIG=$tmp/missing.conf run show 1
check "config: CORRCHESS_CONFIG must exist" status_is 1
check "config: names the missing file" err_has "$tmp/missing.conf"

# The default place: $XDG_CONFIG_HOME/corrchess/config.
mkdir -p "$tmp/xdg2/corrchess"
printf 'server = %s\n' "$base" >"$tmp/xdg2/corrchess/config"
CORRCHESS_CONFIG='' XDG_CONFIG_HOME=$tmp/xdg2 run show 1
check "config: read from \$XDG_CONFIG_HOME/corrchess/config" status_is 0

# --- show ---------------------------------------------------------------

run show --ascii 1
check "show: exit 0" status_is 0
check "show: players" out_has "Game 1: alice (White) v bob (Black)"
check "show: rank 8 at the top" out_has "8 r n b q k b n r"
check "show: rank 1" out_has "1 R N B Q K B N R"
check "show: files" out_has "  a b c d e f g h"
check "show: whose move" out_has "White to move: alice (ply 0)"
check "show: clocks" out_has "Black clock: 3d left"
check "show: deadline" grep -q '^Deadline: 20[0-9-]*T[0-9:]*Z (in ' \
    "$tmp/out"
check "show: no moves yet" out_has "Moves: none yet"
run show 1
check "show: Unicode board" out_has "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"
# In French (--lang fr, or "lang = fr" in the settings): the words, the
# ASCII board's letters and their key, the clocks' units.
run show --lang fr --ascii 1
check "show --lang fr: exit 0" status_is 0
check "show --lang fr: players" \
    out_has "Partie 1 : alice (Blancs) c. bob (Noirs)"
check "show --lang fr: rank 8 in French letters" out_has "8 t c f d r f c t"
check "show --lang fr: rank 1" out_has "1 T C F D R F C T"
check "show --lang fr: the letters' key" \
    out_has "R roi, D dame, T tour, F fou, C cavalier, P pion ; majuscules : Blancs"
check "show --lang fr: whose move" out_has "Au trait : Blancs, alice (ply 0)"
check "show --lang fr: clocks" out_has "Pendule des Noirs : il reste 3 j"
check "show --lang fr: deadline" grep -q \
    '^Délai : [a-z]* [0-9]* [a-zéû]* 20[0-9]*, [0-9:]* UTC (dans ' "$tmp/out"
check "show --lang fr: no moves yet" out_has "Coups : aucun pour l'instant"
run show --lang de 1
check "show --lang de: usage, exit 2" status_is 2
check "show --lang de: says en or fr" err_has '--lang de: "en" or "fr"'
printf 'server = %s\nlang = de\n' "$base" >"$tmp/de.conf"
CORRCHESS_CONFIG=$tmp/de.conf run show 1
check "config: lang = de refused, exit 1" status_is 1
check "config: lang = de named with file:line" \
    err_has "$tmp/de.conf:2: lang: 'de': en or fr"

# --- move ---------------------------------------------------------------

run move 1 e4
check "move: alice plays e4 (corrchess keygen key), exit 0" status_is 0
check "move: the pawn on e4" out_has "4 · · · · ♙ · · ·"
check "move: last move" out_has "Last move: 1. e4"
check "move: whose move now" out_has "Black to move: bob (ply 1)"

run move 1 e5
check "wrong turn: exit 1" status_is 1
check "wrong turn: says whose move it is" \
    err_has "it is not alice's move in game 1: bob (Black) is to move"

# The server's own message for an illegal move, as curl sees it.
run sign -k "$tmp/bob" --game 1 --ply 1 -p bob move e4
cp "$tmp/out" "$tmp/illegal"
submit 1 "$tmp/illegal"
check "illegal move by curl: 422" [ "$code" = 422 ]
msg=$(jget error.message)
run move -p bob -k "$tmp/bob" 1 e4
check "illegal move: exit 1" status_is 1
check "illegal move: the server's message" \
    grep -qxF "corrchess move: ${msg:-(none from curl)}" "$tmp/err"

run move -p bob -k "$tmp/bob" --offer-draw 1 e5
check "move --offer-draw with an ssh-keygen key: exit 0" status_is 0
check "move --offer-draw: the offer is shown" \
    out_has "White to move: alice (ply 2); bob offers a draw"
check "move --offer-draw: last move numbered for Black" \
    out_has "Last move: 1... e5"

# --- act ----------------------------------------------------------------

run act 1 decline-draw
check "act decline-draw: exit 0" status_is 0
check "act decline-draw: no more offer" out_has "White to move: alice (ply 2)"
run act 1 accept-draw
check "act accept-draw with no offer: exit 1" status_is 1
check "act accept-draw with no offer: says so" \
    err_has "there is no draw offer to answer in game 1"
{ cat "$tmp/alice.conf"; echo 'lang = fr'; } >"$tmp/alice.fr0.conf"
CORRCHESS_CONFIG=$tmp/alice.fr0.conf run act 1 accept-draw
check "act accept-draw with lang = fr: says so in French" err_has \
    "il n'y a pas de proposition de nulle à laquelle répondre dans la partie 1"
run act 1 claim-draw
check "act claim-draw without repetition: exit 1" status_is 1
check "act claim-draw: the server's reason" err_has "no threefold repetition"
run act 1 dance
check "act: unknown action, exit 1" status_is 1
check "act: unknown action named" err_has "action 'dance'"

# --- sign, posted with curl ---------------------------------------------

run sign -k "$tmp/alice" --game 1 --ply 2 --player alice move Nf3
check "sign: exit 0" status_is 0
printf 'corrchess-v1\ngame: 1\nply: 2\nplayer: alice\naction: move Nf3\n' \
    >"$tmp/stmt"
check "sign: the five statement lines" \
    [ "$(head -n 5 "$tmp/out")" = "$(cat "$tmp/stmt")" ]
check "sign: a signature line" \
    grep -qE '^signature: [A-Za-z0-9+/]{86}==$' "$tmp/out"
cp "$tmp/out" "$tmp/signed1"
submit 1 "$tmp/signed1"
check "sign: curl posts it, 201" [ "$code" = 201 ]
submit 1 "$tmp/signed1"
check "sign: the same statement again is stale, 409" [ "$code" = 409 ]

run sign -k "$tmp/bob" -g 1 -n 3 -p bob --ssh move Nc6
check "sign --ssh: exit 0" status_is 0
check "sign --ssh: an SSH signature block" \
    out_has "-----BEGIN SSH SIGNATURE-----"
cp "$tmp/out" "$tmp/signed2"
sed -n '/^-----BEGIN/,$p' "$tmp/signed2" >"$tmp/signed2.sig"
printf 'corrchess-v1\ngame: 1\nply: 3\nplayer: bob\naction: move Nc6\n' \
    >"$tmp/stmt2"
echo "bob $(cat "$tmp/bob.pub")" >"$tmp/allowed"
check "sign --ssh: ssh-keygen -Y verify accepts it" \
    ssh-keygen -Y verify -f "$tmp/allowed" -I bob -n corrchess \
    -s "$tmp/signed2.sig" <"$tmp/stmt2" >/dev/null 2>&1
submit 1 "$tmp/signed2"
check "sign --ssh: curl posts it, 201" [ "$code" = 201 ]

run sign -k "$tmp/alice" --game 1 --ply 4 -p Alice move d4
check "sign: upper-case player refused" status_is 1
check "sign: says why" err_has "player name 'Alice'"
run sign -k "$tmp/alice" --game 1 -p alice move d4
check "sign: --ply is needed (usage, exit 2)" status_is 2

run show --ascii 1
check "show: every move numbered" out_has "Moves: 1. e4 e5 2. Nf3 Nc6"
check "show: knight on f3" out_has "3 . . . . . N . ."
check "show: whose move after curl" out_has "White to move: alice (ply 4)"
run show --ascii --flip 1
check "show --flip: rank 1 at the top" out_has "1 R . B K Q B N R"
check "show --flip: files reversed" out_has "  h g f e d c b a"
cp "$tmp/alice.conf" "$tmp/alice.fr.conf"
echo 'lang = fr' >>"$tmp/alice.fr.conf"
CORRCHESS_CONFIG=$tmp/alice.fr.conf run show 1
check "lang = fr: the moves in French letters" \
    out_has "Coups : 1. e4 e5 2. Cf3 Cc6"
check "lang = fr: whose move" out_has "Au trait : Blancs, alice (ply 4)"
CORRCHESS_CONFIG=$tmp/alice.fr.conf run show --lang en 1
check "--lang en before lang = fr" out_has "Moves: 1. e4 e5 2. Nf3 Nc6"

# --- games --------------------------------------------------------------

run games
check "games: exit 0" status_is 0
check "games: game 1 and whose move" \
    grep -qE '^ +1  alice v bob  ply +4  alice to move, deadline ' "$tmp/out"
check "games: game 2" grep -qE '^ +2  bob v alice  ply +0  bob to move$' \
    "$tmp/out"
run games --lang fr
check "games --lang fr: game 1 and whose move, in French" \
    grep -qE '^ +1  alice – bob  demi-coup +4  au tour d.alice, échéance ' \
    "$tmp/out"
check "games --lang fr: game 2" \
    grep -qE '^ +2  bob – alice  demi-coup +0  au tour de bob$' "$tmp/out"
check "games --lang fr: no English word" \
    sh -c "! grep -qE ' v | ply |to move|deadline' '$tmp/out'"

# --- resign, and a finished game ----------------------------------------

run act 2 resign
check "act resign (not on the move): exit 0" status_is 0
check "act resign: the result" \
    out_has "Game over: 1-0 (resignation), bob (White) wins"
run move -p bob -k "$tmp/bob" 2 e4
check "move in a finished game: exit 1" status_is 1
check "move in a finished game: says so" \
    err_has "game 2 is over: 1-0 (resignation)"
run games --status finished
check "games --status finished" \
    grep -qE '^ +2  bob v alice  ply +0  1-0 \(resignation\)$' "$tmp/out"
check "games --status finished: not game 1" \
    sh -c "! grep -q 'alice v bob' '$tmp/out'"
CORRCHESS_CONFIG=$tmp/alice.fr.conf run games --status finished
check "lang = fr: games, the end in French words" \
    grep -qE '^ +2  bob – alice  demi-coup +0  1-0 \(abandon\)$' "$tmp/out"
run games --lang de
check "games --lang: a bad value is a usage error" status_is 2
run games --player bob --status ongoing
check "games --player bob --status ongoing: one game" \
    [ "$(wc -l <"$tmp/out")" -eq 1 ]
check "games --player bob --status ongoing: game 1" grep -q '^ *1 ' "$tmp/out"
run games --status drawn
check "games --status: a bad value is a usage error" status_is 2

# --- a draw offer accepted; a claim with the move that repeats ---------

jadmin POST /api/v1/games '{"white":"alice","black":"bob"}'
check "game 3: alice v bob" [ "$code" = 201 ]
run move --offer-draw 3 Nf3
check "game 3: alice offers a draw" status_is 0
run act 3 accept-draw
check "accepting one's own offer: exit 1" status_is 1
check "accepting one's own offer: says so" \
    err_has "the draw offer in game 3 is alice's own"
run act -p bob -k "$tmp/bob" 3 accept-draw
check "act accept-draw: exit 0" status_is 0
check "act accept-draw: a draw by agreement" \
    out_has "Game over: 1/2-1/2 (agreement), a draw"

# A game where draws are claimed, not adjudicated: Nf3 Nf6 Ng1 Ng8 twice,
# then Black claims with the knight's return (the start position a third
# time).
jadmin POST /api/v1/games \
    '{"white":"alice","black":"bob","policy":"claim"}'
check "game 4: alice v bob, draws by claim" [ "$code" = 201 ]
for m in Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1; do
	case $m in
	N?3|Ng1) run move 4 $m ;;
	*) run move -p bob -k "$tmp/bob" 4 $m ;;
	esac
	[ "$status" -eq 0 ] || break
done
check "game 4: seven knight moves" status_is 0
run act -p bob -k "$tmp/bob" 4 claim-draw e6
check "act claim-draw MOVE that does not repeat: exit 1" status_is 1
check "act claim-draw MOVE that does not repeat: the server's reason" \
    err_has "no threefold repetition"
run act -p bob -k "$tmp/bob" 4 claim-draw Ng8
check "act claim-draw Ng8: exit 0" status_is 0
check "act claim-draw Ng8: drawn by repetition" \
    out_has "Game over: 1/2-1/2 (threefold-repetition), a draw"
check "act claim-draw Ng8: the move was played" out_has "Last move: 4... Ng8"

# --- errors -------------------------------------------------------------

run show 99
check "show: no such game, exit 1" status_is 1
check "show: the server's message" err_has "there is no game 99"
run show -s http://127.0.0.1:1 1
check "unreachable server: exit 1" status_is 1
check "unreachable server: says so" \
    err_has "cannot reach the corrchess server at http://127.0.0.1:1: "
run move -s http://127.0.0.1:1 1 d4
check "move to an unreachable server: exit 1" status_is 1
run move -k "$tmp/nokey" 1 d4
check "missing key file: exit 1" status_is 1
check "missing key file: says so" err_has "no key file $tmp/nokey"
run move -k "$tmp/alice.pub" 1 d4
check "a public key without ssh-agent: says so" \
    err_has "$tmp/alice.pub is a public key: corrchess signs with it through ssh-agent, but SSH_AUTH_SOCK is not set"
ssh-keygen -q -t ed25519 -N secret-words -f "$tmp/locked"
run move -k "$tmp/locked" 1 d4
check "an encrypted key: exit 1" status_is 1
check "an encrypted key without ssh-agent: points to ssh-agent" \
    err_has "$tmp/locked is protected by a passphrase: corrchess signs with it through ssh-agent"
run move -p carol 1 d4
check "a player not in the game: exit 1" status_is 1
check "a player not in the game: says so" \
    err_has "carol does not play in game 1"
run move 1
check "move without a move: usage, exit 2" status_is 2
run move x1 d4
check "move: a bad game number is a usage error" status_is 2
run show 1 2
check "show: one game only (usage, exit 2)" status_is 2

# Answers that are not a game: a plain web server in the place of
# corrchessd (python3's http.server serving files).
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$tmp/www/api/v1/games"
	echo 'hello, this is not corrchess' >"$tmp/www/api/v1/games/1"
	echo '{"id": 2, "ply": "many"}' >"$tmp/www/api/v1/games/2"
	mkdir -p "$tmp/www/list/api/v1"
	printf '{"games": [{"id": 3}]}' >"$tmp/www/list/api/v1/games"
	(cd "$tmp/www" && PYTHONUNBUFFERED=1 exec python3 -m http.server \
	    --bind 127.0.0.1 0 >"$tmp/www.log" 2>&1) &
	bg_pids=$!
	i=0
	while ! grep -q 'port [0-9]' "$tmp/www.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 200 ] && break
		sleep 0.05
	done
	fport=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$tmp/www.log" | head -1)
	run show -s "http://127.0.0.1:$fport" 1
	check "not JSON: exit 1" status_is 1
	check "not JSON: says so" err_has "did not answer with a game"
	run show -s "http://127.0.0.1:$fport" 2
	check "JSON that is no game: exit 1" status_is 1
	check "JSON that is no game: names the member" err_has '"ply"'
	run move -s "http://127.0.0.1:$fport" 2 e4
	check "move on JSON that is no game: exit 1, nothing sent" \
	    status_is 1
	run games -s "http://127.0.0.1:$fport/list"
	check "a list with an odd row: exit 1" status_is 1
else
	echo "# python3 not found: answers that are not a game not tested"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
