#!/bin/bash
# tests/mailenv.sh: real Dovecot and Postfix on loopback for the mail tests.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Real mail servers on loopback for the mail tests: Dovecot (IMAP, IMAPS)
# and Postfix (SMTP, SMTPS, submission with STARTTLS and AUTH) from a
# private directory, with nothing read or written under /etc. Postfix
# delivers every domain into the Maildirs that Dovecot serves, for the
# users corrchess, alice, bob, carol (whose IMAP has no MOVE) and dave.
#
# usage: tests/mailenv.sh start DIR [dovecot|postfix]
#        tests/mailenv.sh stop DIR [dovecot|postfix]
#
# start DIR     writes the configurations, a self-signed certificate for
#               127.0.0.1 and DIR/env, then starts both servers and waits
#               until each greets. DIR must be short (Unix socket paths):
#               use `mktemp -d /tmp/ccm.XXXXXX`. It is made if missing.
# start DIR S   starts server S again with the configuration already in DIR
#               (same ports), e.g. after `stop DIR S`.
# stop DIR S    stops server S (its process group) and keeps DIR.
# stop DIR      stops both servers and removes DIR.
#
# DIR/env is a shell fragment (KEY=value lines) with the ports, the users,
# their passwords and password files, and the CA file to trust. On a
# failure to start, the server's log is printed and the exit status is 1
# (start DIR tries three times with new ports, then removes DIR).
# Must run as root (the servers switch to their own users).

set -eu

POSTFIX_SBIN=/usr/lib/postfix/sbin
MAIL_UID=10000
# carol's server has no MOVE (her IMAP CAPABILITY lists none): the
# fallback of clients that file mail away.
USERS="corrchess alice bob carol dave"

die() {
	echo "mailenv: $*" >&2
	exit 1
}

# Tell whether a TCP port is listened on, from /proc/net/tcp{,6}.
port_busy() {
	local hex
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
	    awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p \
	    { found = 1 } END { exit !found }'
}

# Print a free high port not among the ports already chosen ($taken).
free_port() {
	local p i
	for i in $(seq 1 200); do
		# Below Linux's ephemeral ports (32768 and up), which
		# outgoing connections and port-0 listeners take.
		p=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
		case " $taken " in *" $p "*) continue ;; esac
		if ! port_busy "$p"; then
			echo "$p"
			return 0
		fi
	done
	die "no free port found"
}

# Connect to a port and check that the greeting starts with $2 (a TLS
# port says nothing first: $2 empty, connecting is enough). Run it in a
# subshell: a failed redirection of exec ends a non-interactive shell.
probe() {
	local line=
	exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
	[ -n "$2" ] || exit 0
	read -r -t 5 line <&3 || exit 1
	case $line in "$2"*) exit 0 ;; esac
	exit 1
}

# Wait (5 s at most) until a server greets on port $1 with $2.
wait_greeting() {
	local i
	for i in $(seq 1 100); do
		if (probe "$1" "$2") 2>/dev/null; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# Tell whether a process is alive and not a zombie.
alive() {
	local state
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/^.*) \(.\).*/\1/' "/proc/$1/stat")
	[ "$state" != Z ]
}

# Write every configuration file and the certificate into $dir.
write_config() {
	local u extra taken imap imaps smtp smtps submission
	taken=
	imap=$(free_port); taken="$taken $imap"
	imaps=$(free_port); taken="$taken $imaps"
	smtp=$(free_port); taken="$taken $smtp"
	smtps=$(free_port); taken="$taken $smtps"
	submission=$(free_port)

	chmod 0755 "$dir"
	mkdir -p "$dir/run" "$dir/state" "$dir/mail" "$dir/pf"

	# A self-signed certificate for 127.0.0.1: its own CA.
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" -days 7 \
	    -subj "/CN=127.0.0.1" \
	    -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
	    >"$dir/openssl.log" 2>&1 || {
		cat "$dir/openssl.log" >&2
		die "cannot make a certificate"
	}
	chmod 0644 "$dir/cert.pem"
	chmod 0640 "$dir/key.pem"
	chgrp postfix "$dir/key.pem" 2>/dev/null || true

	: >"$dir/passwd"
	: >"$dir/pf/vmailbox"
	for u in $USERS; do
		extra=
		[ "$u" != carol ] || extra=userdb_imap_capability=IMAP4rev1
		printf '%s:{PLAIN}%s-pw:%s:%s::%s/mail/%s::%s\n' "$u" "$u" \
		    "$MAIL_UID" "$MAIL_UID" "$dir" "$u" "$extra" >>"$dir/passwd"
		printf '/^%s@/ %s/Maildir/\n' "$u" "$u" >>"$dir/pf/vmailbox"
		printf '%s-pw\n' "$u" >"$dir/$u.pass"
		mkdir -p "$dir/mail/$u"
	done
	chown -R "$MAIL_UID:$MAIL_UID" "$dir/mail"
	chown root:dovecot "$dir/passwd"
	chmod 0640 "$dir/passwd"

	cat >"$dir/dovecot.conf" <<EOF
base_dir = $dir/run
state_dir = $dir/state
log_path = $dir/dovecot.log
info_log_path = $dir/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = yes
ssl_cert = <$dir/cert.pem
ssl_key = <$dir/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:~/Maildir
mail_fsync = never
mail_max_userip_connections = 100
first_valid_uid = $MAIL_UID
namespace inbox {
  inbox = yes
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN $dir/passwd
}
userdb {
  driver = passwd-file
  args = $dir/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $imap
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $imaps
    ssl = yes
  }
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service auth {
  unix_listener auth-client {
    mode = 0666
  }
}
EOF

	mkdir -p "$dir/pf/queue" "$dir/pf/data"
	for sub in active bounce corrupt defer deferred flush hold incoming \
	    maildrop private public saved trace; do
		mkdir -p "$dir/pf/queue/$sub"
	done
	chown -R postfix "$dir/pf/queue" "$dir/pf/data"
	chmod 0700 "$dir/pf/queue"/*
	mkdir -p "$dir/pf/queue/pid"

	cat >"$dir/pf/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $dir/pf/queue
data_directory = $dir/pf/data
command_directory = /usr/sbin
daemon_directory = $POSTFIX_SBIN
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mail.test
mydomain = mail.test
myorigin = mail.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relayhost =
alias_maps =
alias_database =
local_recipient_maps =
biff = no
smtputf8_enable = no
maillog_file = $dir/postfix.log
maillog_file_prefixes = $dir
virtual_mailbox_domains = static:all
virtual_mailbox_base = $dir/mail
virtual_mailbox_maps = regexp:$dir/pf/vmailbox
virtual_uid_maps = static:$MAIL_UID
virtual_gid_maps = static:$MAIL_UID
virtual_minimum_uid = $MAIL_UID
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_tls_cert_file = $dir/cert.pem
smtpd_tls_key_file = $dir/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = $dir/run/auth-client
message_size_limit = 41943040
virtual_mailbox_limit = 0
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF

	cat >"$dir/pf/master.cf" <<EOF
127.0.0.1:$smtp inet n - n - - smtpd
127.0.0.1:$smtps inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
127.0.0.1:$submission inet n - n - - smtpd
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
virtual unix - n n - - virtual
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
showq unix n - n - - showq
EOF
	# Postfix re-reads a main.cf younger than a second for a while.
	touch -d '-1 minute' "$dir/pf/main.cf" "$dir/pf/master.cf"

	cat >"$dir/env" <<EOF
MAILENV_DIR=$dir
IMAP_PORT=$imap
IMAPS_PORT=$imaps
SMTP_PORT=$smtp
SMTPS_PORT=$smtps
SUBMISSION_PORT=$submission
CA_FILE=$dir/cert.pem
DOVECOT_CONF=$dir/dovecot.conf
POSTFIX_CONF=$dir/pf
MAIL_USERS="$USERS"
EOF
	for u in $USERS; do
		printf '%s_PASSWORD=%s-pw\n%s_PASSWORD_FILE=%s/%s.pass\n' \
		    "$(echo "$u" | tr a-z A-Z)" "$u" \
		    "$(echo "$u" | tr a-z A-Z)" "$dir" "$u" >>"$dir/env"
	done
}

# Start Dovecot and wait for its greetings; on failure print its log.
start_dovecot() {
	rm -rf "$dir/run"
	mkdir -p "$dir/run"
	if ! dovecot -c "$dir/dovecot.conf" >>"$dir/dovecot.log" 2>&1 ||
	    ! wait_greeting "$IMAP_PORT" "* OK" ||
	    ! wait_greeting "$IMAPS_PORT" ""; then
		echo "mailenv: Dovecot did not start; its log:" >&2
		cat "$dir/dovecot.log" >&2
		return 1
	fi
}

# Start Postfix and wait for its greetings; on failure print its log.
start_postfix() {
	rm -f "$dir/pf/queue/pid/master.pid"
	if ! "$POSTFIX_SBIN/master" -c "$dir/pf" -w >"$dir/postfix.start" \
	    2>&1 || ! wait_greeting "$SMTP_PORT" "220 " ||
	    ! wait_greeting "$SMTPS_PORT" "" ||
	    ! wait_greeting "$SUBMISSION_PORT" "220 "; then
		echo "mailenv: Postfix did not start; its output and log:" >&2
		cat "$dir/postfix.start" "$dir/postfix.log" >&2 2>/dev/null || true
		return 1
	fi
}

# Send SIGTERM to the process group of the pid in file $1; wait for it.
stop_group() {
	local pidfile=$1 pid i
	[ -s "$pidfile" ] || return 0
	pid=$(tr -d ' \n' <"$pidfile")
	case $pid in ''|*[!0-9]*) return 0 ;; esac
	alive "$pid" || return 0
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null ||
	    true
	for i in $(seq 1 100); do
		alive "$pid" || break
		sleep 0.05
	done
	if alive "$pid"; then
		kill -KILL -- "-$pid" 2>/dev/null || true
	fi
	rm -f "$pidfile"
}

stop_dovecot() {
	stop_group "$dir/run/master.pid"
}

stop_postfix() {
	stop_group "$dir/pf/queue/pid/master.pid"
}

[ $# -ge 2 ] || die "usage: $0 start|stop DIR [dovecot|postfix]"
cmd=$1
dir=$2
server=${3:-}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
[ "$(id -u)" -eq 0 ] || die "must run as root (the servers change users)"

case $cmd in
start)
	command -v dovecot >/dev/null 2>&1 ||
	    die "dovecot not found: apt-get install dovecot-imapd"
	[ -x "$POSTFIX_SBIN/master" ] ||
	    die "$POSTFIX_SBIN/master not found: apt-get install postfix"
	case $server in
	'')
		[ ${#dir} -le 40 ] ||
		    die "$dir: path too long for Unix sockets (40 at most)"
		mkdir -p "$dir"
		[ ! -e "$dir/env" ] || die "$dir: already set up"
		: >"$dir/.mailenv"
		# A port chosen free may be taken before the server binds
		# it: try again with other ports, three times at most.
		for attempt in 1 2 3; do
			write_config
			# shellcheck disable=SC1091
			. "$dir/env"
			if start_dovecot && start_postfix; then
				exit 0
			fi
			stop_postfix
			stop_dovecot
			echo "mailenv: start attempt $attempt failed" >&2
			rm -rf "$dir/run" "$dir/state" "$dir/mail" "$dir/pf" \
			    "$dir/env"
		done
		rm -rf "$dir"
		exit 1
		;;
	dovecot|postfix)
		[ -f "$dir/env" ] ||
		    die "$dir/env: missing (start DIR first)"
		# shellcheck disable=SC1091
		. "$dir/env"
		"start_$server" || exit 1
		;;
	*) die "unknown server $server" ;;
	esac
	;;
stop)
	case $server in
	'')
		stop_postfix
		stop_dovecot
		# Remove only a directory this script set up.
		if [ -f "$dir/.mailenv" ]; then
			rm -rf "$dir"
		fi
		;;
	dovecot) stop_dovecot ;;
	postfix) stop_postfix ;;
	*) die "unknown server $server" ;;
	esac
	;;
*)
	die "unknown command $cmd"
	;;
esac
