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
# record's hash (for the first, the game's creation record's hash when
# the export has one, else 32 zero bytes; the creation record's own
# signature, by the server's key, is corrchess verify's to check), the signature is by one of
# the player's keys, and hash = BLAKE2b-256(prev_hash || be64(len(S)) || S
# || be64(len(G)) || G). Prints "N records verified", or the first
# failure on standard error; status 0 when every record verifies.

# records_keys PLAYER...: the KEYS object from the admin's answers to
# GET /api/v1/players/NAME, one file each.
records_keys() {
	jq -s 'map({key: .name, value: [.keys[].key]}) | from_entries' "$@"
}

# The bytes of a hex string (printf's \x escapes, no process).
rv_hex() {
	local h=$1 i out=
	for ((i = 0; i < ${#h}; i += 2)); do
		out+="\\x${h:i:2}"
	done
	# shellcheck disable=SC2059 # \xHH escapes only
	printf "$out"
}

# A number as 8 bytes, big-endian.
rv_be64() {
	local h
	printf -v h '%016x' "$1"
	rv_hex "$h"
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
				base64 -d <<<"$blob" | tail -c 32
			} | base64 -w 0
			printf '\n-----END PUBLIC KEY-----\n'
		} >"$dir/$name.$i.pem"
	done < <(jq -r 'to_entries[] | .key as $n | .value[] | [$n, .] | @tsv' \
	    "$dir/keys.json")
}

# rv_sig_ok DIR PLAYER KIND: the statement DIR/s is signed by one of
# PLAYER's keys: in DIR/sig (KIND ssh) or in the raw bytes DIR/g (pem).
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
	local rec=$1 dir n=0 line prev got seq kind prev_hash hash st sig
	local player kind64 g64 glen pad
	local LC_ALL=C
	dir=$(mktemp -d)
	cp "$2" "$dir/keys.json"
	rv_prepare "$dir"
	# One line per record of shell assignments; in the statement and the
	# signature, \ and line feeds escaped (printf %b undoes it).
	jq -r '.records[] | @sh "seq=\(.seq) kind=\(.kind)
	    prev_hash=\(.prev_hash) hash=\(.hash)
	    st=\(.statement // "" | gsub("\\\\"; "\\\\\\\\") | gsub("\n"; "\\n"))
	    sig=\(.signature // "" | gsub("\\\\"; "\\\\\\\\") | gsub("\n"; "\\n"))"
	    | gsub("\n"; " ")' "$rec" >"$dir/lines" || { rm -rf "$dir"; return 1; }
	prev=$(jq -r '.creation.hash // empty' "$rec")
	[ -n "$prev" ] || prev=$(printf '%064d' 0)
	while IFS= read -r line; do
		eval "$line"
		printf -v st '%b' "$st"
		printf -v sig '%b' "$sig"
		n=$((n + 1))
		if [ "$seq" != "$n" ]; then
			echo "record $n: seq is $seq" >&2
			n=-1
			break
		fi
		if [ "$prev_hash" != "$prev" ]; then
			echo "record $seq: prev_hash $prev_hash, the previous hash is $prev" >&2
			n=-1
			break
		fi
		if [ -n "$st" ]; then
			player=${st#*$'\nplayer: '}
			player=${player%%$'\n'*}
			printf '%s' "$st" >"$dir/s"
			if [[ $sig == '-----BEGIN SSH SIGNATURE-----'* ]]; then
				kind64=ssh
				printf '%s' "$sig" >"$dir/sig"
				g64=${sig#*$'-----\n'}
				g64=${g64%%$'\n-----END'*}
				g64=${g64//$'\n'/}
			else
				kind64=pem
				g64=${sig#signature: }
				g64=${g64%$'\n'}
				base64 -d <<<"$g64" >"$dir/g"
			fi
			if ! rv_sig_ok "$dir" "$player" "$kind64"; then
				echo "record $seq: the signature is not by a key of" \
				    "$player" >&2
				n=-1
				break
			fi
		else
			# A record the server made (a flag): S is its kind, no G.
			st=$kind
			g64=
		fi
		pad=${g64//[^=]/}
		glen=$((${#g64} * 3 / 4 - ${#pad}))
		read -r got _ < <({
			rv_hex "$prev"
			rv_be64 "${#st}"
			printf '%s' "$st"
			rv_be64 "$glen"
			[ -z "$g64" ] || base64 -d <<<"$g64"
		} | b2sum -l 256)
		if [ "$got" != "$hash" ]; then
			echo "record $seq: hash $hash, computed $got" >&2
			n=-1
			break
		fi
		prev=$got
	done <"$dir/lines"
	rm -rf "$dir"
	[ "$n" -ge 0 ] || return 1
	echo "$n records verified"
}
