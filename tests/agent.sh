#!/bin/sh
# tests/agent.sh: signing through the real ssh-agent, end to end.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Players whose key is held by ssh-agent: the real ssh-agent started here
# on a socket in the temporary directory, keys added with the real ssh-add
# (one from a key without a passphrase, one typed by SSH_ASKPASS), and
# `corrchess move`, `act`, `sign`, `mail-move` and `key add` given a
# passphrase-protected key or a .pub file: the moves signed by the agent
# are accepted by the real corrchessd, its SSH signatures pass
# `ssh-keygen -Y verify`, and the record verifies. The refusals: no
# SSH_AUTH_SOCK, an agent without the key (its fingerprint, ssh-add), a
# locked agent, a key the agent must confirm and does not, a socket nobody
# listens on, an answer that is not the agent protocol (a fake agent in
# python3).
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl ssh-keygen ssh-agent ssh-add python3

# The client reads no file of the user running the tests, and no agent of
# theirs.
HOME=$tmp/home
export HOME
unset XDG_CONFIG_HOME SSH_AUTH_SOCK SSH_AGENT_PID
mkdir -p "$HOME"

# The last run's exit status, and a piece of its standard error.
status_is() {
	[ "$status" -eq "$1" ]
}
err_has() {
	grep -qF -- "$1" "$tmp/err" || {
		echo "stderr was: $(cat "$tmp/err")" >&2
		return 1
	}
}

# ply GAME: the game's ply, from its JSON.
ply() {
	req GET "/api/v1/games/$1"
	jget ply
}

# --- The daemon, two players, a game ------------------------------------

sed -e 's/^port = .*/port = 0/' "$example" >"$tmp/test.conf"
check "corrchessd starts" daemon_start || finish
CORRCHESS_SERVER=$base
export CORRCHESS_SERVER
players alice bob
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
expect "game 1: alice v bob" 201

# alice: a copy of her key with a passphrase. bob: his key re-made with a
# passphrase only (the agent learns it from SSH_ASKPASS).
cp "$tmp/alice" "$tmp/alice.locked"
ssh-keygen -q -p -P '' -N 'correct horse' -f "$tmp/alice.locked" \
    >/dev/null
ssh-keygen -q -p -P '' -N 'battery staple' -f "$tmp/bob" >/dev/null
alice_fp=$(ssh-keygen -l -f "$tmp/alice.pub" | cut -d' ' -f2)
bob_fp=$(ssh-keygen -l -f "$tmp/bob.pub" | cut -d' ' -f2)
check "the locked copy is locked" \
    sh -c "! ssh-keygen -y -P '' -f '$tmp/alice.locked' >/dev/null 2>&1"

# --- Without an agent ---------------------------------------------------

run move -p alice -k "$tmp/alice.locked" 1 e4
check "no agent, a passphrase key: exit 1" status_is 1
check "no agent, a passphrase key: names the file" \
    err_has "$tmp/alice.locked is protected by a passphrase"
check "no agent, a passphrase key: SSH_AUTH_SOCK is not set" \
    err_has "SSH_AUTH_SOCK is not set"
check "no agent, a passphrase key: says to start an agent and ssh-add" \
    err_has "eval \"\$(ssh-agent)\") and add the key (ssh-add $tmp/alice.locked)"
run move -p alice -k "$tmp/alice.pub" 1 e4
check "no agent, a .pub file: exit 1" status_is 1
check "no agent, a .pub file: says it is a public key" \
    err_has "$tmp/alice.pub is a public key"
check "no agent, a .pub file: ssh-add names the private file" \
    err_has "(ssh-add $tmp/alice)"
SSH_AUTH_SOCK=$tmp/nobody run move -p alice -k "$tmp/alice.pub" 1 e4
check "a socket nobody listens on: exit 1" status_is 1
check "a socket nobody listens on: says so" \
    err_has "cannot reach ssh-agent at $tmp/nobody (SSH_AUTH_SOCK)"
same "nothing reached the server" "$(ply 1)" 0

# --- The agent ----------------------------------------------------------

# The agent asks $tmp/refuse to confirm a key added with ssh-add -c: no.
printf '#!/bin/sh\nexit 1\n' >"$tmp/refuse"
chmod +x "$tmp/refuse"
eval "$(SSH_ASKPASS=$tmp/refuse SSH_ASKPASS_REQUIRE=force \
    ssh-agent -s -a "$tmp/agent.sock")" >/dev/null
bg_pids="$bg_pids $SSH_AGENT_PID"
export SSH_AUTH_SOCK
check "ssh-agent runs" [ -S "$tmp/agent.sock" ]

run move -p alice -k "$tmp/alice.locked" 1 e4
check "an empty agent: exit 1" status_is 1
check "an empty agent: names the key's fingerprint" err_has "$alice_fp"
check "an empty agent: says it holds none" \
    err_has "(it holds no keys, or is locked"
check "an empty agent: says to ssh-add" \
    err_has "add it with 'ssh-add $tmp/alice.locked'"

# alice's key from its copy without a passphrase.
ssh-add -q "$tmp/alice" 2>/dev/null
check "ssh-add alice" sh -c "ssh-add -l | grep -qF '$alice_fp'"
run move -p alice -k "$tmp/alice.locked" 1 e4
check "move with a passphrase key through the agent: exit 0" status_is 0
same "the daemon accepted 1. e4" "$(ply 1)" 1

# bob's passphrase typed by SSH_ASKPASS.
printf '#!/bin/sh\necho "battery staple"\n' >"$tmp/askpass"
chmod +x "$tmp/askpass"
SSH_ASKPASS=$tmp/askpass SSH_ASKPASS_REQUIRE=force ssh-add -q "$tmp/bob" \
    </dev/null 2>/dev/null
check "ssh-add bob with SSH_ASKPASS" \
    sh -c "ssh-add -l | grep -qF '$bob_fp'"
run move -p bob -k "$tmp/bob" 1 e5
check "move with bob's passphrase key through the agent: exit 0" \
    status_is 0
same "the daemon accepted 1... e5" "$(ply 1)" 2

run move -p alice -k "$tmp/alice.pub" 1 Nf3
check "move with a .pub file through the agent: exit 0" status_is 0
same "the daemon accepted 2. Nf3" "$(ply 1)" 3
run move -p bob -k "$tmp/bob.pub" --offer-draw 1 Nc6
check "move and offer a draw through the agent: exit 0" status_is 0
run act -p alice -k "$tmp/alice.pub" 1 decline-draw
check "act decline-draw through the agent: exit 0" status_is 0

# The agent signs the same bytes as the key: Ed25519 is deterministic, so
# the statement signed by the agent and by the file are the same text.
run sign -k "$tmp/alice.pub" -p alice --game 1 --ply 4 move Bb5
cp "$tmp/out" "$tmp/by-agent"
run sign -k "$tmp/alice" -p alice --game 1 --ply 4 move Bb5
check "sign: the agent's signature is the key's own" \
    cmp -s "$tmp/out" "$tmp/by-agent"
submit 1 "$tmp/by-agent"
expect "the agent's raw signature posted with curl: 201" 201

# An SSH signature through the agent, checked by ssh-keygen.
run sign --ssh -k "$tmp/bob" -p bob --game 1 --ply 5 move a6
check "sign --ssh through the agent: exit 0" status_is 0
head -n 5 "$tmp/out" >"$tmp/st"
sed -n '6,$p' "$tmp/out" >"$tmp/st.sig"
printf 'bob %s\n' "$(cat "$tmp/bob.pub")" >"$tmp/allowed"
check "sign --ssh through the agent: ssh-keygen -Y verify accepts it" \
    sh -c "ssh-keygen -Y verify -f '$tmp/allowed' -I bob -n corrchess \
    -s '$tmp/st.sig' <'$tmp/st' >/dev/null 2>&1"
submit 1 "$tmp/out"
expect "the agent's SSH signature posted with curl: 201" 201

run mail-move -p alice -k "$tmp/alice.locked" --to game@example.org \
    --from alice@example.org 1 Ba4
check "mail-move through the agent: exit 0" status_is 0
check "mail-move through the agent: the signature line" \
    grep -q '^signature: ' "$tmp/out"

ssh-keygen -q -t ed25519 -N '' -C spare -f "$tmp/spare"
run key add -p alice -k "$tmp/alice.locked" "$tmp/spare.pub"
check "key add, a player's own statement, through the agent: exit 0" \
    status_is 0
req GET /api/v1/players/alice/keys
check "key add through the agent: the server has the new key" \
    grep -qF "$(ssh-keygen -l -f "$tmp/spare.pub" | cut -d' ' -f2)" \
    "$tmp/out"

run verify 1
check "verify: the record signed through the agent holds" status_is 0

# A locked agent refuses to sign; unlocked, it signs again.
SSH_ASKPASS=$tmp/askpass SSH_ASKPASS_REQUIRE=force ssh-add -x \
    </dev/null >/dev/null 2>&1
run move -p alice -k "$tmp/alice.pub" 1 Ba4
check "a locked agent: exit 1" status_is 1
check "a locked agent: it lists no keys, which may mean locked" \
    err_has "(it holds no keys, or is locked: 'ssh-add -X' unlocks it)"
SSH_ASKPASS=$tmp/askpass SSH_ASKPASS_REQUIRE=force ssh-add -X \
    </dev/null >/dev/null 2>&1
run move -p alice -k "$tmp/alice.pub" 1 Ba4
check "the agent unlocked: the move is accepted" status_is 0
same "the daemon accepted 4. Ba4" "$(ply 1)" 7

# bob's key taken out of the agent: his next move names it.
ssh-add -q -d "$tmp/bob.pub" 2>/dev/null
run move -p bob -k "$tmp/bob" 1 Nf6
check "a key the agent no longer holds: exit 1" status_is 1
check "a key the agent no longer holds: its fingerprint" err_has "$bob_fp"
check "a key the agent no longer holds: it holds 1 key" \
    err_has "(it holds 1 key)"
same "the refused move never reached the server" "$(ply 1)" 7

# alice's key again, to be confirmed at each use: the agent's askpass
# says no, and the agent refuses.
ssh-add -q -c "$tmp/alice" 2>/dev/null
run sign -p alice -k "$tmp/alice.pub" --game 1 --ply 8 move Bb3
check "a signature the agent refuses: exit 1" status_is 1
check "a signature the agent refuses: names the key" \
    err_has "signing with $alice_fp through ssh-agent at $tmp/agent.sock"
check "a signature the agent refuses: says the agent refused" \
    err_has "ssh-agent refused (a key added with 'ssh-add -c' needs a confirmation"
check "a signature the agent refuses: nothing printed" [ ! -s "$tmp/out" ]

# --- An answer that is not the agent protocol ----------------------------

# A fake agent: answers every request with a list of keys that claims 7
# keys in 3 bytes.
cat >"$tmp/fake.py" <<'EOF'
import socket, struct, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(4)
while True:
    c, _ = s.accept()
    c.recv(4096)
    c.sendall(struct.pack(">I", 8) + b"\x0c\x00\x00\x00\x07ssh")
    c.close()
EOF
python3 "$tmp/fake.py" "$tmp/fake.sock" &
bg_pids="$bg_pids $!"
i=0
while [ ! -S "$tmp/fake.sock" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
SSH_AUTH_SOCK=$tmp/fake.sock run move -p alice -k "$tmp/alice.pub" 1 Nf6
check "a malformed answer: exit 1" status_is 1
check "a malformed answer: says so" \
    err_has "ssh-agent's answer is malformed"

finish
