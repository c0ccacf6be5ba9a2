# shellcheck shell=bash
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Verify a game's signed record from its export, as anyone can
# (doc/signatures.md, "The record chain"), with standard tools only: jq
# reads the JSON, b2sum -l 256 is BLAKE2b-256, openssl checks the raw
# Ed25519 signatures ("signature: BASE64") and ssh-keygen -Y verify the
# OpenSSH ones. Sourced by tests/guest/guest-tests (bash). Few processes
# per record: in the guest (qemu without KVM) each one costs.
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

# A number as 8 bytes, big-endian (printf's \x escapes, no process).
rv_be64() {
	local h i out=
	printf -v h '%016x' "$1"
	for ((i = 0; i < 16; i += 2)); do
		out+="\\x${h:i:2}"
	done
	# shellcheck disable=SC2059 # \xHH escapes only
	printf "$out"
}

# rv_prepare DIR: for each player's key, DIR/NAME.N.pem (for openssl) and
# DIR/NAME.N.ssh (an allowed_signers line for ssh-keygen).
rv_prepare() {
	local dir=$1 name key i=0 blob prev=
	while IFS=$'\t' read -r name key; do
		[ "$name" = "$prev" ] || i=0
		prev=$name
		i=$((i + 1))
		printf '%s namespaces="corrchess" %s\n' "$name" "$key" \
		    >"$dir/$name.$i.ssh"
		# An Ed25519 public key in DER: the SubjectPublicKeyInfo prefix,
		# then the 32 bytes that end the SSH key blob.
		blob=${key#* }
		blob=${blob%% *}
		{
			echo '-----BEGIN PUBLIC KEY-----'
			{
				rv_hex 302a300506032b6570032100
				printf '%s' "$blob" | base64 -d | tail -c 32
			} | base64 -w 0
			printf '\n-----END PUBLIC KEY-----\n'
		} >"$dir/$name.$i.pem"
	done < <(jq -r 'to_entries[] | .key as $n | .value[] | [$n, .] | @tsv' \
	    "$dir/keys.json")
}

# rv_sig_ok DIR PLAYER KIND: the statement DIR/s is signed by one of
# PLAYER's keys: in DIR/sig (KIND ssh) or in the raw bytes DIR/g (raw).
rv_sig_ok() {
	local dir=$1 player=$2 kind=$3 f
	for f in "$dir/$player".*."$kind"; do
		[ -f "$f" ] || continue
		if [ "$kind" = ssh ]; then
			ssh-keygen -q -Y verify -f "$f" -I "$player" -n corrchess \
			    -s "$dir/sig" <"$dir/s" >/dev/null 2>&1 && return 0
		else
			openssl pkeyutl -verify -pubin -inkey "$f" -rawin \
			    -in "$dir/s" -sigfile "$dir/g" >/dev/null 2>&1 &&
			    return 0
		fi
	done
	return 1
}

records_verify() {
	local rec=$1 dir n=0 prev want got seq kind s64 g64 st player sigkind
	local LC_ALL=C
	dir=$(mktemp -d)
	cp "$2" "$dir/keys.json"
	rv_prepare "$dir"
	# One line per record: seq, kind, prev_hash, hash, and the statement
	# and signature texts in base64 ("-" when absent).
	jq -r '.records[] | [.seq, .kind, .prev_hash, .hash,
	    ((.statement // "") | @base64), ((.signature // "") | @base64)] |
	    map(if . == "" then "-" else tostring end) | @tsv' "$rec" \
	    >"$dir/lines" || { rm -rf "$dir"; return 1; }
	prev=$(printf '%064d' 0)
	while IFS=$'\t' read -r seq kind got want s64 g64; do
		n=$((n + 1))
		if [ "$seq" != "$n" ]; then
			echo "record $n: seq is $seq" >&2
			n=-1
			break
		fi
		if [ "$got" != "$prev" ]; then
			echo "record $seq: prev_hash $got, the previous hash is $prev" >&2
			n=-1
			break
		fi
		if [ "$s64" != - ]; then
			printf '%s' "$s64" | base64 -d >"$dir/s"
			printf '%s' "$g64" | base64 -d >"$dir/sig"
			st=$(<"$dir/s")
			player=${st#*$'\nplayer: '}
			player=${player%%$'\n'*}
			if grep -q '^-----BEGIN SSH SIGNATURE-----$' "$dir/sig"; then
				sigkind=ssh
				sed '/^-----/d' "$dir/sig" | base64 -d >"$dir/g"
			else
				sigkind=pem
				sed -n 's/^signature: //p' "$dir/sig" | base64 -d >"$dir/g"
			fi
			if ! rv_sig_ok "$dir" "$player" "$sigkind"; then
				echo "record $seq: the signature is not by a key of" \
				    "$player" >&2
				n=-1
				break
			fi
		else
			# A record the server made (a flag): S is its kind, no G.
			printf '%s' "$kind" >"$dir/s"
			: >"$dir/g"
		fi
		read -r got _ < <({
			rv_hex "$prev"
			rv_be64 "$(stat -c %s "$dir/s")"
			cat "$dir/s"
			rv_be64 "$(stat -c %s "$dir/g")"
			cat "$dir/g"
		} | b2sum -l 256)
		if [ "$got" != "$want" ]; then
			echo "record $seq: hash $want, computed $got" >&2
			n=-1
			break
		fi
		prev=$got
	done <"$dir/lines"
	rm -rf "$dir"
	[ "$n" -ge 0 ] || return 1
	echo "$n records verified"
}
