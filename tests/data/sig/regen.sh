#!/bin/sh
# Regenerate the SSHSIG test data of tests/test_sig.c with the real OpenSSH
# tools (ssh-keygen from openssh-client). The committed files were made by
# OpenSSH 9.2p1; running this again makes new keys and signatures, which the
# tests accept as well (they check structure and verification, not bytes).
set -e
cd "$(dirname "$0")"
rm -f alice alice.pub bob bob.pub enc enc.pub ecdsa ecdsa.pub ./*.sig
ssh-keygen -q -t ed25519 -N '' -C alice@example.org -f alice
ssh-keygen -q -t ed25519 -N '' -C bob@example.org -f bob
ssh-keygen -q -t ed25519 -N 'secret passphrase' -C enc -f enc
ssh-keygen -q -t ecdsa -b 256 -N '' -C ecdsa -f ecdsa
printf 'corrchess-v1\ngame: 42\nply: 16\nplayer: alice\naction: move Nf3\n' \
    > statement.txt

# sign NAMESPACE KEY OUTPUT [OPTION...]
sign() {
	ns=$1 key=$2 out=$3
	shift 3
	cp statement.txt tmp.$$
	ssh-keygen -q -Y sign -n "$ns" -f "$key" "$@" tmp.$$
	mv tmp.$$.sig "$out"
	rm -f tmp.$$
}
sign corrchess alice statement.sig
sign corrchess alice statement.sha256.sig -O hashalg=sha256
sign other alice statement.other-ns.sig
sign corrchess bob statement.bob.sig
ssh-keygen -l -f alice.pub | cut -d' ' -f2 > alice.fingerprint
