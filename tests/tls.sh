#!/bin/sh
# tests/tls.sh: HTTPS inside corrchessd, its certificate renewed on SIGHUP.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Two small certificate authorities made by openssl, each signing a
# certificate for corrchess.test (and 127.0.0.1). --check-config accepts a
# certificate with its key and names the fault otherwise (a missing file,
# a key of another certificate, one of the two keys alone, a file that is
# not PEM). corrchessd then serves HTTPS with the first: the real curl
# trusts it with --cacert and refuses it without, and the API works over
# it (a player, a game, a signed move); so does corrchess with --cacert
# or "cacert =" (show, follow), and without it fails naming --cacert. The
# certificate file is replaced
# by the second authority's and SIGHUP sent: the same process and the same
# listening socket, a connection opened before the reload goes on being
# served on its session, new handshakes get the new certificate; a broken
# file on SIGHUP keeps the running one. Last, Chromium opens an invitation
# at https://corrchess.test (not localhost: a secure context only because
# of HTTPS), makes its key and plays a move by clicks (tests/browser.py).
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

need curl openssl python3 ssh-keygen chromium

# ca NAME: a certificate authority, NAME.ca.pem and NAME.ca.key.
ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$tmp/$1.ca.key" -out "$tmp/$1.ca.pem" -days 30 \
	    -subj "/CN=corrchess test CA $1" 2>>"$tmp/openssl.log"
}

# cert NAME: a certificate for corrchess.test signed by the authority
# NAME, NAME.pem (the certificate, then the authority's) and NAME.key.
cert() {
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$tmp/$1.key" -out "$tmp/$1.csr" \
	    -subj "/CN=corrchess.test" 2>>"$tmp/openssl.log" &&
	printf 'subjectAltName = DNS:corrchess.test, IP:127.0.0.1\n' \
	    >"$tmp/$1.ext" &&
	openssl x509 -req -in "$tmp/$1.csr" -CA "$tmp/$1.ca.pem" \
	    -CAkey "$tmp/$1.ca.key" -CAcreateserial -days 30 \
	    -extfile "$tmp/$1.ext" -out "$tmp/$1.crt" 2>>"$tmp/openssl.log" &&
	cat "$tmp/$1.crt" "$tmp/$1.ca.pem" >"$tmp/$1.pem"
}

ca one && cert one
check "the first certificate made" [ -s "$tmp/one.pem" ]
ca two && cert two
check "the second certificate made" [ -s "$tmp/two.pem" ]

# conf CERT KEY: the test configuration with HTTPS from CERT and KEY.
conf() {
	sed -e 's/^port = .*/port = 0/' \
	    -e "s|^tls_certificate =.*|tls_certificate = $1|" \
	    -e "s|^tls_key =.*|tls_key = $2|" "$example" >"$tmp/test.conf"
}

# checkconf NAME STATUS TEXT: --check-config on $tmp/test.conf exits
# STATUS and prints TEXT.
checkconf() {
	"$corrchessd" --check-config --config "$tmp/test.conf" \
	    >"$tmp/out" 2>&1
	st=$?
	if [ "$st" -ne "$2" ]; then
		bad "$1: exit $st, want $2: $(cat "$tmp/out")"
	elif ! grep -qF -- "$3" "$tmp/out"; then
		bad "$1: '$3' not in: $(cat "$tmp/out")"
	else
		ok
	fi
}

mkdir -p "$tmp/tls"
cp "$tmp/one.pem" "$tmp/tls/cert.pem"
cp "$tmp/one.key" "$tmp/tls/key.pem"
conf "$tmp/tls/cert.pem" "$tmp/tls/key.pem"
checkconf "--check-config: a certificate and its key" 0 ": ok"
conf "$tmp/tls/cert.pem" "$tmp/nothing.pem"
checkconf "--check-config: a missing key file" 1 \
    "[server] tls: key $tmp/nothing.pem: cannot be read"
conf "$tmp/tls/cert.pem" "$tmp/two.key"
checkconf "--check-config: the key of another certificate" 1 \
    "key $tmp/two.key is not the key of the certificate in $tmp/tls/cert.pem"
conf "$tmp/tls/cert.pem" ""
checkconf "--check-config: a certificate without its key" 1 \
    "tls_certificate and tls_key go together"
conf "$tmp/one.csr" "$tmp/one.key"
checkconf "--check-config: a request is not a certificate" 1 \
    "certificate $tmp/one.csr: no PEM certificate"

# --- Serving HTTPS ------------------------------------------------------
conf "$tmp/tls/cert.pem" "$tmp/tls/key.pem"
echo 0 >"$tmp/clock"
check "corrchessd starts with HTTPS" daemon_start || finish
check "it says it serves HTTPS" grep -q 'listening on .* port [0-9]* (HTTPS)' \
    "$tmp/log"
check "it names the certificate and its end" grep -q \
    "https: serving $tmp/tls/cert.pem (2 certificates, valid until 20" \
    "$tmp/log"
first_pid=$pid
host=corrchess.test
base=https://$host:$port
# Every curl of lib.sh reads $CURL_HOME/.curlrc: trust the authority of
# the moment, and find corrchess.test on the loopback address.
mkdir "$tmp/curl"
CURL_HOME=$tmp/curl
export CURL_HOME
trust() {
	printf 'cacert = "%s"\nresolve = "%s:%s:127.0.0.1"\n' \
	    "$tmp/$1.ca.pem" "$host" "$port" >"$tmp/curl/.curlrc"
}
trust one

req GET /healthz
expect "GET /healthz over HTTPS, the authority trusted" 200
curl -q -s -o /dev/null --resolve "$host:$port:127.0.0.1" "$base/healthz"
same "without --cacert curl refuses the certificate" "$?" 60
curl -q -s -o /dev/null --cacert "$tmp/two.ca.pem" \
    --resolve "$host:$port:127.0.0.1" "$base/healthz"
same "another authority: refused" "$?" 60
curl -q -s -o /dev/null "http://127.0.0.1:$port/healthz"
check "plain HTTP on the HTTPS port is not served" [ "$?" -ne 0 ]

# The API over HTTPS: a player, a game, a move signed with ssh-keygen.
ssh-keygen -q -t ed25519 -N '' -C alice -f "$tmp/alice"
admin POST /api/v1/players -d "{\"name\":\"alice\",
    \"keys\":[\"$(cat "$tmp/alice.pub")\"]}"
expect "a player over HTTPS" 201
admin POST /api/v1/players -d '{"name":"carol"}'
expect "a second player, without a key" 201
admin POST /api/v1/games -d '{"white":"carol","black":"alice"}'
expect "a game over HTTPS" 201
admin POST /api/v1/games -d '{"white":"alice","black":"carol"}'
expect "a second game" 201
statement 2 0 alice "move d4"
sign_ssh "$tmp/alice"
submit 2
expect "a signed move over HTTPS" 201

# --- corrchess trusting the private authority ---------------------------
# The client's every request (show, follow's stream) with --cacert or
# "cacert =" in its configuration; without, libcurl's refusal and a
# sentence naming --cacert. The certificate names 127.0.0.1 too.
srv=https://127.0.0.1:$port
run show -s "$srv" 2
same "corrchess show without --cacert: exit 1" "$status" 1
check "show without --cacert: libcurl's reason" grep -q \
    "SSL certificate problem" "$tmp/err"
check "show without --cacert: the message names --cacert" grep -qF -- \
    "--cacert FILE, or cacert = in the configuration" "$tmp/err"
run show -s "$srv" --cacert "$tmp/one.ca.pem" 2
same "corrchess show --cacert: exit 0" "$status" 0
check "show --cacert: the game, with its move" grep -q "d4" "$tmp/out"
run show -s "$srv" --cacert "$tmp/two.ca.pem" 2
same "show --cacert of another authority: exit 1" "$status" 1
check "show --cacert of another authority: said so" grep -qF \
    "is not signed by a certificate authority of the --cacert file" \
    "$tmp/err"
run show -s "$srv" --cacert "$tmp/nothing.pem" 2
same "show --cacert of a missing file: exit 1" "$status" 1
check "show --cacert of a missing file: named, and why" grep -qF \
    "certificate authority file $tmp/nothing.pem (--cacert, or cacert = in the configuration): No such file or directory" \
    "$tmp/err"
printf 'server = %s\ncacert = %s\n' "$srv" "$tmp/one.ca.pem" \
    >"$tmp/client.conf"
CORRCHESS_CONFIG=$tmp/client.conf run show 2
same "cacert = in the configuration: show works" "$status" 0
run follow -s "$srv" 2
same "corrchess follow without --cacert: exit 1" "$status" 1
check "follow without --cacert: the message names --cacert" grep -qF -- \
    "--cacert FILE" "$tmp/err"
"$corrchess" follow -s "$srv" --cacert "$tmp/one.ca.pem" 2 \
    >"$tmp/follow" 2>"$tmp/follow.err" &
fpid=$!
check "follow --cacert: the stream read over HTTPS" waitfor 10 grep -q \
    "^Game 2: alice v carol" "$tmp/follow"
kill -INT "$fpid"
wait "$fpid"
same "follow --cacert: ends with Ctrl-C, exit 0" "$?" 0

# --- The certificate renewed on SIGHUP ----------------------------------
# A connection opened before the reload, kept alive across it: each
# request on it must be answered, on the session it began with.
cat >"$tmp/keep.py" <<'EOF'
import http.client, os, socket, ssl, sys, time
ctx = ssl.create_default_context(cafile=sys.argv[3])
c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]))
c.sock = ctx.wrap_socket(socket.create_connection(
    ('127.0.0.1', int(sys.argv[2]))), server_hostname=sys.argv[1])
def get():
    c.request('GET', '/healthz')
    r = c.getresponse()
    return r.status, r.read().strip().decode()
print('before', *get(), flush=True)
open(sys.argv[4], 'w').close()
while not os.path.exists(sys.argv[5]):
    time.sleep(0.05)
print('after', *get(), c.sock.getpeercert()['serialNumber'], flush=True)
EOF
python3 "$tmp/keep.py" "$host" "$port" "$tmp/one.ca.pem" "$tmp/kept" \
    "$tmp/reloaded" >"$tmp/keep.out" 2>&1 &
keep=$!
i=0
while [ ! -e "$tmp/kept" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
check "a connection kept open before the reload" grep -qx 'before 200 ok' \
    "$tmp/keep.out"

# Renewed in place: the same paths, new contents.
cp "$tmp/two.pem" "$tmp/tls/cert.pem.new" && cp "$tmp/two.key" "$tmp/tls/key.pem"
mv "$tmp/tls/cert.pem.new" "$tmp/tls/cert.pem"
kill -HUP "$pid"
i=0
while ! grep -q 'https: now serving' "$tmp/log" && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "SIGHUP: the new certificate loaded" grep -q \
    "https: now serving $tmp/tls/cert.pem" "$tmp/log"
: >"$tmp/reloaded"
wait "$keep"
serial_one=$(openssl x509 -in "$tmp/one.crt" -noout -serial | sed 's/.*=//')
check "the connection from before the reload served on its old session" \
    grep -qx "after 200 ok $serial_one" "$tmp/keep.out"
trust two
req GET /healthz
expect "a new connection trusts the new authority" 200
curl -q -s -o /dev/null --cacert "$tmp/one.ca.pem" \
    --resolve "$host:$port:127.0.0.1" "$base/healthz"
same "and the old authority no longer" "$?" 60
same "the same process throughout" "$pid" "$first_pid"
check "still running" kill -0 "$pid"

# A broken file on SIGHUP: the running certificate stays.
echo "not a certificate" >"$tmp/tls/cert.pem"
kill -HUP "$pid"
i=0
while ! grep -q 'keeping the running certificate' "$tmp/log" &&
    [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "SIGHUP with a broken certificate: said why" grep -q \
    "SIGHUP: \[server\] tls: certificate $tmp/tls/cert.pem: no PEM certificate.*keeping the running certificate" \
    "$tmp/log"
req GET /healthz
expect "and the running certificate still serves" 200

# --- A browser at https://corrchess.test --------------------------------
mkdir "$tmp/b" "$tmp/b/profile-carol"
admin POST /api/v1/players/carol/invitations
expect "an invitation for carol" 201
echo "$base$(jget path)" >"$tmp/b/invite.carol"
echo "$base" >"$tmp/b/base"
echo "MAP $host 127.0.0.1" >"$tmp/b/resolver"
# Chromium trusts this one certificate by its public key's hash.
openssl x509 -in "$tmp/two.crt" -noout -pubkey |
    openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
    base64 >"$tmp/b/spki"
browser https
req GET /api/v1/games/1
same "carol's move from the browser over HTTPS" "$(jget moves)" e4
admin GET /api/v1/players/carol
check "carol's browser key registered" grep -q '"keys":\[{"id":' "$tmp/out"

finish
