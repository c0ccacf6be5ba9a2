# tests/maillib.sh: what the mail scripts share: servers, mailboxes, config.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sourced by tests/mail.sh and tests/mail_token.sh after tests/lib.sh, with
# $mailenv set: fails (or skips, with CORRCHESS_NO_MAIL_SERVERS=1) without
# Dovecot and Postfix, starts them on loopback, gives the helpers that read
# a player's mailbox over IMAP and send through Postfix, and writes the
# test configuration with [mail] enabled ($tmp/test.conf).

# No mail servers: a clear failure, or a skip when asked for.
missing=
command -v dovecot >/dev/null 2>&1 || missing="dovecot (dovecot-imapd)"
[ -x /usr/lib/postfix/sbin/master ] || missing="$missing postfix"
[ "$(id -u)" -eq 0 ] || missing="$missing (root: the servers change users)"
if [ -n "$missing" ]; then
	if [ "${CORRCHESS_NO_MAIL_SERVERS:-}" = 1 ]; then
		echo "mail servers missing: $missing; skipped" >&2
		exit 77
	fi
	echo "mail servers missing: $missing; install them (.ci/install-deps)" \
	    "or set CORRCHESS_NO_MAIL_SERVERS=1 to skip this test" >&2
	exit 1
fi
need curl ssh-keygen perl

mdir=$(mktemp -d /tmp/ccm.XXXXXX)
# Stop the mail servers; show corrchessd's log when a check failed.
mail_cleanup() {
	"$mailenv" stop "$mdir" >/dev/null 2>&1
	rm -rf "$mdir"
	if [ "$failed" -gt 0 ] || [ -n "${KEEP:-}" ]; then
		echo "--- corrchessd log (last 40 lines)" >&2
		cat "$tmp/log.all" "$tmp/log" 2>/dev/null | tail -n 40 >&2
	fi
}
at_exit=mail_cleanup
# No client configuration of the user running the tests.
XDG_CONFIG_HOME=$tmp/xdg
export XDG_CONFIG_HOME
unset CORRCHESS_CONFIG

# contains TEXT FILE: the file holds TEXT, all its lines in a row.
contains() {
	T=$1 perl -0777 -ne 'exit(index($_, $ENV{T}) < 0 ? 1 : 0)' "$2"
}

# waitfor SECONDS COMMAND...: run the command every 0.2 s until it
# succeeds, SECONDS at most; the status of its last run.
waitfor() {
	limit=$(($1 * 5))
	shift
	n=0
	while ! "$@"; do
		n=$((n + 1))
		[ "$n" -lt "$limit" ] || return 1
		sleep 0.2
	done
}

# section TITLE: say where the test is, and after how long.
t0=$(date +%s)
section() {
	echo "== $* ($(($(date +%s) - t0)) s)"
}

# --- The mail servers ---------------------------------------------------

if ! "$mailenv" start "$mdir" >"$tmp/mailenv.log" 2>&1; then
	cat "$tmp/mailenv.log" >&2
	bad "the mail servers start"
	finish
fi
# shellcheck disable=SC1091
. "$mdir/env"
domain=mail.test
box=corrchess@$domain

# imap USER URL-PATH [CURL-ARG...]: a request to USER's IMAP mailbox.
imap() {
	u=$1
	p=$2
	shift 2
	curl -s --max-time 10 -u "$u:$u-pw" "imap://127.0.0.1:$IMAP_PORT/$p" \
	    "$@"
}

# uids USER [FOLDER]: the UIDs of a folder's messages (INBOX by default),
# one a line; nothing when the folder does not exist.
uids() {
	imap "$1" "${2:-INBOX}" -X 'UID SEARCH ALL' 2>/dev/null |
	    tr -d '\r' | sed -n 's/^\* SEARCH *//p' | tr ' ' '\n' | grep .
}

# count USER [FOLDER]: how many messages a folder holds.
count() {
	uids "$@" | wc -l | tr -d ' '
}

# has USER N [FOLDER]: the folder holds N messages or more.
has() {
	[ "$(count "$1" "${3:-INBOX}")" -ge "$2" ]
}

# holds USER N [FOLDER]: the folder holds exactly N messages.
holds() {
	[ "$(count "$1" "${3:-INBOX}")" -eq "$2" ]
}

# fetch USER INDEX FILE [FOLDER]: the INDEX-th message (from 1, in UID
# order) of the folder into FILE.
fetch() {
	uid=$(uids "$1" "${4:-INBOX}" | sed -n "${2}p")
	: >"$3"
	[ -n "$uid" ] || return 1
	imap "$1" "${4:-INBOX};UID=$uid" >"$3"
}

# mailfind USER TEXT FILE [FOLDER]: wait (20 s at most) for a message of
# the folder (INBOX by default) whose decoded subject or text holds TEXT,
# and put the first such (in UID order) into FILE, its text into FILE.txt
# and its decoded subject into FILE.subj; status 1 when none came. Mails
# are found by what they hold, never by the order they arrived in:
# Postfix delivers concurrently, so two mails sent one after the other
# may arrive the other way round.
mailfind() {
	waitfor 20 mailfind_now "$@"
}

# mailfind_now USER TEXT FILE [FOLDER]: mailfind without waiting. Each
# message is fetched once and kept in $tmp/box/USER.FOLDER.UID (with
# .find: its subject line and text, decoded).
mailfind_now() {
	mkdir -p "$tmp/box"
	for mf_u in $(uids "$1" "${4:-INBOX}"); do
		mf_m=$tmp/box/$1.${4:-INBOX}.$mf_u
		if [ ! -s "$mf_m.find" ]; then
			imap "$1" "${4:-INBOX};UID=$mf_u" >"$mf_m" || continue
			[ -s "$mf_m" ] || continue
			{
				printf 'Subject: '
				hdr Subject "$mf_m" | perl -MEncode -ne 'chomp;
				    print encode("UTF-8",
				    decode("MIME-Header", $_)), "\n"'
				textpart "$mf_m"
			} >"$mf_m.find"
		fi
		if contains "$2" "$mf_m.find"; then
			cp "$mf_m" "$3"
			textpart "$3" >"$3.txt"
			sed -n '1s/^Subject: //p' "$mf_m.find" >"$3.subj"
			return 0
		fi
	done
	return 1
}

# headers FILE: the header lines of a mail, unfolded, without CR.
headers() {
	tr -d '\r' <"$1" | sed '/^$/q' | awk '
	    /^[ \t]/ { sub(/^[ \t]+/, " "); line = line $0; next }
	    { if (line != "") print line; line = $0 }
	    END { if (line != "") print line }'
}

# hdr NAME FILE: the value of header NAME (the first one).
hdr() {
	headers "$2" | grep -i "^$1:" | head -n 1 | sed 's/^[^:]*: *//'
}

# textpart FILE: the first text/plain part of a mail (7bit or
# quoted-printable), decoded, LF line ends.
textpart() {
	tr -d '\r' <"$1" | perl -MMIME::QuotedPrint -e '
	    local $/; my $m = <STDIN>;
	    my ($h, $b) = split /\n\n/, $m, 2;
	    my $qp = 0;
	    if ($h =~ /boundary="?([^";\n]+)"?/i) {
		my $bd = quotemeta $1;
		for my $part (split /--$bd/, $b) {
			my ($ph, $pb) = split /\n\n/, $part, 2;
			next unless defined $pb && $ph =~ m{text/plain}i;
			$qp = $ph =~ /quoted-printable/i;
			$b = $pb;
			last;
		}
	    } else {
		$qp = $h =~ /quoted-printable/i;
	    }
	    print $qp ? decode_qp($b) : $b;'
}

# send FROM FILE: send the mail in FILE through Postfix to the move
# mailbox.
send() {
	curl -s --max-time 10 "smtp://127.0.0.1:$SMTP_PORT" \
	    --mail-from "$1" --mail-rcpt "$box" --upload-file "$2"
}

# --- The daemon ---------------------------------------------------------

# confset SECTION KEY VALUE: set a key of the test configuration.
confset() {
	awk -v s="[$1]" -v k="$2" -v v="$3" '
	    /^\[/ { in_s = ($0 == s) }
	    in_s && $1 == k && $2 == "=" { print k " = " v; next }
	    { print }' "$tmp/test.conf" >"$tmp/test.conf.new" &&
	    mv "$tmp/test.conf.new" "$tmp/test.conf"
}

cp "$example" "$tmp/test.conf"
confset server port 0
confset mail enabled yes
confset mail imap_url "imap://127.0.0.1:$IMAP_PORT"
confset mail imap_starttls none
confset mail imap_user corrchess
confset mail imap_password_file "$CORRCHESS_PASSWORD_FILE"
# No poll due during the test: mail comes in through IDLE.
confset mail poll_interval 1h
confset mail smtp_url "smtp://127.0.0.1:$SMTP_PORT"
confset mail smtp_starttls none
confset mail from "corrchess <$box>"
confset mail reply_to "corrchess <$box>"
confset mail tls_verify no
echo 0 >"$tmp/clock"
: >"$tmp/log.all"

# dead: corrchessd has exited.
dead() {
	! kill -0 "$pid" 2>/dev/null
}

# stop: stop corrchessd with SIGTERM; its exit status goes to $status.
stop() {
	daemon_stop
	cat "$tmp/log" >>"$tmp/log.all"
}

# ply GAME: the game's ply, as the server says.
ply() {
	req GET "/api/v1/games/$1"
	jget ply
}

# ply_is GAME N: the game has reached ply N.
ply_is() {
	[ "$(ply "$1")" = "$2" ]
}

# plainmail FROM ID SUBJECT BODYFILE OUT: a text/plain mail.
plainmail() {
	{
		printf 'From: %s\nTo: %s\nSubject: %s\n' "$1" "$box" "$3"
		printf 'Message-ID: <%s>\nDate: %s\n' "$2" \
		    "$(LC_ALL=C date -R)"
		printf 'MIME-Version: 1.0\n'
		printf 'Content-Type: text/plain; charset=utf-8\n\n'
		cat "$4"
	} >"$5"
}

