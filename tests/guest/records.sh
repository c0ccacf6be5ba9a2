# shellcheck shell=bash
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Verify a game's signed record from its export, as anyone can
# (doc/signatures.md, "The record chain"), with standard tools only: jq
# reads the JSON, b2sum -l 256 is BLAKE2b-256, openssl checks the raw
# Ed25519 signatures ("signature: BASE64") and ssh-keygen -Y verify the
# OpenSSH ones. Sourced by tests/guest/guest-tests (bash).
#
# records_verify RECORDS KEYS
#   RECORDS: the answer of GET /api/v1/games/N/records;
#   KEYS: a JSON object, player name -> array of "ssh-ed25519 ..." lines
#   (from the answers of GET /api/v1/players/NAME, see records_keys).
# Checks, record by record: seq counts from 1, prev_hash is the previous
# record's hash (32 zero bytes for the first), the signature is by one of
# the player's keys, and hash = BLAKE2b-256(prev_hash || be64(len(S)) || S
# || be64(len(G)) || G). Prints "N records verified", or the first
# failure on standard error; status 0 when every record verifies.

# records_keys PLAYER...: the KEYS object from the admin's answers to
# GET /api/v1/players/NAME, one file each.
records_keys() {
	jq -s 'map({key: .name, value: [.keys[].key]}) | from_entries' "$@"
}

# The bytes of a hex string.
rv_hex() {
	# shellcheck disable=SC2059 # the format is made of \xHH escapes only
	printf "$(printf '%s' "$1" | sed 's/../\\x&/g')"
}

# A number as 8 bytes, big-endian.
rv_be64() {
	rv_hex "$(printf '%016x' "$1")"
}

# rv_sig_ok DIR PLAYER KIND: the statement DIR/s is signed in DIR/sig by
# one of PLAYER's keys (DIR/keys.json); KIND is raw or ssh.
rv_sig_ok() {
	local dir=$1 player=$2 kind=$3 key blob
	while IFS= read -r key; do
		[ -n "$key" ] || continue
		if [ "$kind" = ssh ]; then
			printf '%s namespaces="corrchess" %s\n' "$player" "$key" \
			    >"$dir/allowed"
			ssh-keygen -q -Y verify -f "$dir/allowed" -I "$player" \
			    -n corrchess -s "$dir/sig" <"$dir/s" \
			    >/dev/null 2>&1 && return 0
		else
			# An Ed25519 public key in DER: the SubjectPublicKeyInfo
			# prefix, then the 32 bytes (the end of the SSH blob).
			blob=$(printf '%s' "$key" | cut -d' ' -f2)
			{
				echo '-----BEGIN PUBLIC KEY-----'
				{
					rv_hex 302a300506032b6570032100
					printf '%s' "$blob" | base64 -d | tail -c 32
				} | base64 -w 0
				echo
				echo '-----END PUBLIC KEY-----'
			} >"$dir/pub.pem"
			openssl pkeyutl -verify -pubin -inkey "$dir/pub.pem" -rawin \
			    -in "$dir/s" -sigfile "$dir/g" >/dev/null 2>&1 &&
			    return 0
		fi
	done < <(jq -r --arg p "$player" '.[$p][]?' "$dir/keys.json")
	return 1
}

records_verify() {
	local rec=$1 dir n i prev want got seq kind player sigkind
	dir=$(mktemp -d)
	cp "$2" "$dir/keys.json"
	n=$(jq '.records | length' "$rec") || { rm -rf "$dir"; return 1; }
	prev=$(printf '%064d' 0)
	for ((i = 0; i < n; i++)); do
		jq ".records[$i]" "$rec" >"$dir/r"
		seq=$(jq -r .seq "$dir/r")
		kind=$(jq -r .kind "$dir/r")
		if [ "$seq" != $((i + 1)) ]; then
			echo "record $((i + 1)): seq is $seq" >&2
			break
		fi
		got=$(jq -r .prev_hash "$dir/r")
		if [ "$got" != "$prev" ]; then
			echo "record $seq: prev_hash $got, the previous hash is $prev" >&2
			break
		fi
		jq -j '.statement // empty' "$dir/r" >"$dir/s"
		jq -j '.signature // empty' "$dir/r" >"$dir/sig"
		if [ -s "$dir/s" ]; then
			player=$(sed -n 's/^player: //p' "$dir/s")
			if grep -q '^-----BEGIN SSH SIGNATURE-----$' "$dir/sig"; then
				sigkind=ssh
				sed '/^-----/d' "$dir/sig" | base64 -d >"$dir/g"
			else
				sigkind=raw
				sed -n 's/^signature: //p' "$dir/sig" | base64 -d >"$dir/g"
			fi
			if ! rv_sig_ok "$dir" "$player" "$sigkind"; then
				echo "record $seq: the $sigkind signature is not by" \
				    "a key of $player" >&2
				break
			fi
		else
			# A record the server made (a flag): S is its kind, no G.
			printf '%s' "$kind" >"$dir/s"
			: >"$dir/g"
		fi
		want=$(jq -r .hash "$dir/r")
		got=$({
			rv_hex "$prev"
			rv_be64 "$(wc -c <"$dir/s")"
			cat "$dir/s"
			rv_be64 "$(wc -c <"$dir/g")"
			cat "$dir/g"
		} | b2sum -l 256 | cut -d' ' -f1)
		if [ "$got" != "$want" ]; then
			echo "record $seq: hash $want, computed $got" >&2
			break
		fi
		prev=$got
	done
	rm -rf "$dir"
	[ "$i" -eq "$n" ] || return 1
	echo "$n records verified"
}
