#!/bin/sh
# tests/mail.sh: moves by mail end to end through real Dovecot and Postfix.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Moves by mail end to end: the real corrchessd with [mail] enabled, real
# Dovecot and Postfix on loopback (tests/mailenv.sh), players who read
# their mail over IMAP with curl and send moves through Postfix with curl,
# signed with ssh-keygen -Y sign and with `corrchess mail-move`. Checks the
# notices (subject, threading, content), moves applied from a
# multipart/alternative quoted-printable reply, refusals answered, a mail
# delivered twice applied once, notices queued while the SMTP server is
# down, a crash between a mail's commit and its filing, how-to answers
# rate-limited to one a day. The mailbox is polled once an hour only: every
# mail is picked up through IMAP IDLE, also after Dovecot restarted.
# A player changes their address by mail, confirmed with the code mailed
# to the new one.
# Run by `make check` (as root: the mail servers switch users); without
# Dovecot or Postfix it fails, unless CORRCHESS_NO_MAIL_SERVERS=1 (skip).
# Prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
mailenv=$top_srcdir/tests/mailenv.sh

# shellcheck source=tests/maillib.sh
. "$top_srcdir/tests/maillib.sh"

check "corrchessd starts with [mail] enabled" daemon_start || finish

for p in alice bob; do
	ssh-keygen -q -t ed25519 -N '' -C "$p@$domain" -f "$tmp/$p"
	admin POST /api/v1/players -d "{\"name\":\"$p\",\"email\":\"$p@$domain\",
	    \"keys\":[\"$(cat "$tmp/$p.pub")\"]}"
	same "create $p" "$code" 201
done

# --- 1. A new game: both players hear of it ------------------------------
section "1. A new game: both players hear of it"

admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
same "create the game" "$code" 201
g=$(jget id)
check "alice gets the new-game notice" waitfor 20 has alice 1
check "bob gets the new-game notice" waitfor 20 has bob 1
fetch alice 1 "$tmp/a1"
fetch bob 1 "$tmp/b1"
same "alice's new-game subject" "$(hdr Subject "$tmp/a1")" \
    "[corrchess] Game $g, alice v bob: new game, you play White"
same "bob's new-game subject" "$(hdr Subject "$tmp/b1")" \
    "[corrchess] Game $g, alice v bob: new game, you play Black"
same "alice's thread root" "$(hdr Message-ID "$tmp/a1")" \
    "<game-$g.white@$domain>"
same "bob's thread root" "$(hdr Message-ID "$tmp/b1")" \
    "<game-$g.black@$domain>"
same "new-game notice: Reply-To" "$(hdr Reply-To "$tmp/a1")" \
    "corrchess <$box>"
textpart "$tmp/a1" >"$tmp/a1.txt"
check "alice's notice holds her ready statement" contains \
    "$(printf 'corrchess-v1\ngame: %s\nply: 0\nplayer: alice\naction: move \n\nInstead' \
    "$g")" "$tmp/a1.txt"

# --- 2. alice's move: multipart/alternative, quoted-printable, quoting ---
section "2. alice's move: multipart/alternative, quoted-printable, quoting"

statement "$g" 0 alice "move e4"
sign_ssh "$tmp/alice"
{
	cat "$tmp/body"
	printf '\nOn %s, corrchess wrote:\n' "$(LC_ALL=C date -R)"
	sed 's/^/> /' "$tmp/a1.txt"
} >"$tmp/reply.txt"
{
	printf '<html><body><pre>'
	sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' "$tmp/body"
	printf '</pre><blockquote><pre>'
	sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' "$tmp/a1.txt"
	printf '</pre></blockquote></body></html>\n'
} >"$tmp/reply.html"
{
	printf 'From: Alice <alice@%s>\nTo: %s\n' "$domain" "$box"
	printf 'Subject: Re: %s\n' "$(hdr Subject "$tmp/a1")"
	printf 'Message-ID: <move1.%s@alice.%s>\n' "$$" "$domain"
	printf 'In-Reply-To: <game-%s.white@%s>\n' "$g" "$domain"
	printf 'References: <game-%s.white@%s>\n' "$g" "$domain"
	printf 'Date: %s\nMIME-Version: 1.0\n' "$(LC_ALL=C date -R)"
	printf 'Content-Type: multipart/alternative; boundary="=-alt-1"\n\n'
	printf -- '--=-alt-1\nContent-Type: text/plain; charset=utf-8\n'
	printf 'Content-Transfer-Encoding: quoted-printable\n\n'
	perl -MMIME::QuotedPrint -e 'local $/; print encode_qp(<STDIN>)' \
	    <"$tmp/reply.txt"
	printf -- '--=-alt-1\nContent-Type: text/html; charset=utf-8\n'
	printf 'Content-Transfer-Encoding: quoted-printable\n\n'
	perl -MMIME::QuotedPrint -e 'local $/; print encode_qp(<STDIN>)' \
	    <"$tmp/reply.html"
	printf -- '--=-alt-1--\n'
} >"$tmp/m2"
check "the move mail is quoted-printable (= escaped)" grep -q '=3D' "$tmp/m2"
check "alice sends her move through Postfix" send "alice@$domain" "$tmp/m2"
check "alice's mailed move is applied (ply 1)" waitfor 20 ply_is "$g" 1
check "the move mail is filed in processed" waitfor 20 \
    has corrchess 1 corrchess.processed
check "the move mailbox is empty" waitfor 20 holds corrchess 0
check "bob gets the moved notice" waitfor 20 has bob 2
fetch bob 2 "$tmp/b2"
same "moved notice: subject" "$(hdr Subject "$tmp/b2")" \
    "[corrchess] Game $g, alice v bob: 1. e4"
same "moved notice: In-Reply-To" "$(hdr In-Reply-To "$tmp/b2")" \
    "<game-$g.black@$domain>"
same "moved notice: References" "$(hdr References "$tmp/b2")" \
    "<game-$g.black@$domain>"
check "moved notice: a Message-ID of its own" [ \
    "$(hdr Message-ID "$tmp/b2")" != "<game-$g.black@$domain>" ]
textpart "$tmp/b2" >"$tmp/b2.txt"
check "moved notice: who played what" grep -q 'alice played 1\. e4\.' \
    "$tmp/b2.txt"
check "moved notice: the move list" grep -q '^ *1\. *e4' "$tmp/b2.txt"
check "moved notice: bob's ready statement for ply 1" contains \
    "$(printf 'corrchess-v1\ngame: %s\nply: 1\nplayer: bob' "$g")" \
    "$tmp/b2.txt"
# The board from Black's side: rank 1 on top, White's pawn on e4.
check "moved notice: the board has White's pawn on e4" \
    grep -q '^ *4 \. \. \. P \. \. \. \.$' "$tmp/b2.txt"
check "moved notice: the board seen from Black's side" \
    grep -q '^ *h g f e d c b a$' "$tmp/b2.txt"
check "alice gets no mail for her own move" holds alice 1

# --- 3. A forged and a replayed mail: refused, answered, filed ----------
section "3. A forged and a replayed mail: refused, answered, filed"

cp "$tmp/body" "$tmp/e4.signed"
nb=$(count bob)
na=$(count alice)
# bob signs a statement in alice's name with his own key.
statement "$g" 1 alice "move Nf3"
sign_ssh "$tmp/bob"
plainmail "bob@$domain" "forged.$$@bob.$domain" "my move" "$tmp/body" \
    "$tmp/m3"
check "bob sends a forged statement" send "bob@$domain" "$tmp/m3"
check "the forged mail is filed in refused" waitfor 20 \
    has corrchess 1 corrchess.refused
check "bob, the sender, is answered" waitfor 20 has bob $((nb + 1))
fetch bob $((nb + 1)) "$tmp/b3"
same "refusal: subject" "$(hdr Subject "$tmp/b3")" \
    "[corrchess] Game $g, alice v bob: not accepted"
same "refusal: In-Reply-To is the forged mail" "$(hdr In-Reply-To "$tmp/b3")" \
    "<forged.$$@bob.$domain>"
textpart "$tmp/b3" | tr '\n' ' ' | tr -s ' ' >"$tmp/b3.txt"
check "refusal: not accepted, with the reason (whose key signed)" grep -q \
    "not accepted: the statement names alice but is signed with the key SHA256:[^ ]*, which is bob's" \
    "$tmp/b3.txt"
same "the forged move is not played" "$(ply "$g")" 1
check "alice hears nothing of the forgery" holds alice "$na"

plainmail "alice@$domain" "replay.$$@alice.$domain" "e4 again" \
    "$tmp/e4.signed" "$tmp/m3r"
check "alice's first statement is sent again" send "alice@$domain" "$tmp/m3r"
check "the replayed mail is filed in refused" waitfor 20 \
    has corrchess 2 corrchess.refused
check "alice is answered" waitfor 20 has alice $((na + 1))
fetch alice $((na + 1)) "$tmp/a3"
textpart "$tmp/a3" | tr '\n' ' ' | tr -s ' ' >"$tmp/a3.txt"
check "refusal of the replay: the move stands" grep -q \
    "your move 1. e4 was already accepted; it is bob's move" "$tmp/a3.txt"
same "the replay changes nothing" "$(ply "$g")" 1
same "refusal: in alice's thread" "$(hdr References "$tmp/a3" |
    grep -o "<game-$g.white@$domain>")" "<game-$g.white@$domain>"

# A stranger's statement in alice's name: the answer goes to alice, the
# player it names, never to the stranger.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/carol"
na=$(count alice)
nr=$(count corrchess corrchess.refused)
statement "$g" 1 alice "resign"
sign_ssh "$tmp/carol"
plainmail "carol@$domain" "stranger.$$@carol.$domain" "resign" \
    "$tmp/body" "$tmp/m3s"
check "a stranger sends a statement in alice's name" \
    send "carol@$domain" "$tmp/m3s"
check "the stranger's mail is filed in refused" waitfor 20 \
    has corrchess $((nr + 1)) corrchess.refused
check "alice, whom it names, is told" waitfor 20 has alice $((na + 1))
sleep 1
same "the stranger gets no answer" "$(count carol)" 0
same "the game goes on (ply 1)" "$(ply "$g")" 1

# --- 4. One mail delivered twice: applied once ---------------------------
section "4. One mail delivered twice: applied once"

na=$(count alice)
np=$(count corrchess corrchess.processed)
statement "$g" 1 bob "move e5"
sign_ssh "$tmp/bob"
plainmail "bob@$domain" "twice.$$@bob.$domain" "e5" "$tmp/body" "$tmp/m4"
check "bob's move, first delivery" send "bob@$domain" "$tmp/m4"
check "bob's move, second delivery" send "bob@$domain" "$tmp/m4"
check "both deliveries are filed in processed" waitfor 20 \
    has corrchess $((np + 2)) corrchess.processed
same "the move is applied once (ply 2)" "$(ply "$g")" 2
req GET "/api/v1/games/$g/records"
same "two records" "$(jget 'records.*.seq' | wc -l | tr -d ' ')" 2
check "alice gets the moved notice" waitfor 20 has alice $((na + 1))
sleep 2
same "alice gets it once" "$(count alice)" $((na + 1))
same "no refusal for the second delivery" "$(count bob)" $((nb + 1))

# --- corrchess mail-move ---------------------------------------------------
section "corrchess mail-move"

nb=$(count bob)
np=$(count corrchess corrchess.processed)
if "$corrchess" mail-move -s "$base" -k "$tmp/alice" -p alice --to "$box" \
    --from "alice@$domain" "$g" Nf3 >"$tmp/mm" 2>"$tmp/mm.err"; then
	ok
else
	bad "corrchess mail-move: $(cat "$tmp/mm.err")"
fi
same "mail-move: To" "$(hdr To "$tmp/mm")" "$box"
same "mail-move: From" "$(hdr From "$tmp/mm")" "alice@$domain"
same "mail-move: In-Reply-To (alice's thread)" \
    "$(hdr In-Reply-To "$tmp/mm")" "<game-$g.white@$domain>"
same "mail-move: the subject" "$(hdr Subject "$tmp/mm")" \
    "[corrchess] Game $g, alice v bob: move Nf3"
echo 'lang = fr' >"$tmp/fr.conf"
CORRCHESS_CONFIG=$tmp/fr.conf "$corrchess" mail-move -s "$base" \
    -k "$tmp/alice" -p alice --to "$box" --from "alice@$domain" "$g" Nf3 \
    >"$tmp/mmfr" 2>"$tmp/mm.err" || bad "mail-move, lang = fr: $(cat "$tmp/mm.err")"
same "mail-move, lang = fr: the subject in French" "$(hdr Subject "$tmp/mmfr")" \
    "[corrchess] Partie $g, alice c. bob : coup Nf3"
check "mail-move: the statement for ply 2" contains \
    "$(printf 'corrchess-v1\ngame: %s\nply: 2\nplayer: alice\naction: move Nf3' \
    "$g")" "$tmp/mm"
check "mail-move's mail is sent" send "alice@$domain" "$tmp/mm"
check "mail-move's move is applied (ply 3)" waitfor 20 ply_is "$g" 3
check "mail-move's mail is filed in processed" waitfor 20 \
    has corrchess $((np + 1)) corrchess.processed
"$corrchess" mail-move -s "$base" -k "$tmp/alice" -p alice --ssh "$g" \
    Bc4 >"$tmp/mm2" 2>/dev/null
check "mail-move --ssh: refused when it is not alice's move" \
    [ $? -ne 0 ]
"$corrchess" mail-move -s "$base" -k "$tmp/alice" -p alice --lang fr "$g" \
    Fc4 >"$tmp/mm2" 2>"$tmp/mm.err"
check "mail-move --lang fr: the refusal in French" grep -qF \
    "ce n'est pas à alice de jouer dans la partie $g" "$tmp/mm.err"
"$corrchess" mail-move -s "$base" -k "$tmp/bob" -p bob --lang fr "$g" \
    Cc6 >"$tmp/mm2" 2>"$tmp/mm.err"
same "mail-move --lang fr: the subject in French" \
    "$(hdr Subject "$tmp/mm2")" "[corrchess] Partie $g, alice c. bob : coup Cc6"
check "bob gets the Nf3 notice" waitfor 20 has bob $((nb + 1))

# --- 5. The SMTP server down: the notice waits, then goes once -----------
section "5. The SMTP server down: the notice waits, then goes once"

na=$(count alice)
"$mailenv" stop "$mdir" postfix
check "bob moves over HTTP while Postfix is down" \
    "$corrchess" move -s "$base" -k "$tmp/bob" -p bob "$g" Nc6 \
    >/dev/null 2>"$tmp/move.err"
same "ply 4" "$(ply "$g")" 4
check "the notice is kept for a retry" waitfor 20 grep -q \
    'outbox .* retrying in' "$tmp/log"
"$mailenv" start "$mdir" postfix >"$tmp/mailenv.log" 2>&1 ||
    cat "$tmp/mailenv.log" >&2
same "nothing reached alice meanwhile" "$(count alice)" "$na"
# The retry is due 10 s later: move the daemon's clock on.
echo 30 >"$tmp/clock"
check "the notice arrives once Postfix is back" waitfor 20 \
    has alice $((na + 1))
sleep 3
same "it arrives once" "$(count alice)" $((na + 1))
fetch alice $((na + 1)) "$tmp/a5"
same "the queued notice: subject" "$(hdr Subject "$tmp/a5")" \
    "[corrchess] Game $g, alice v bob: 2... Nc6"

# --- 6. A crash between a mail's commit and its filing -------------------
section "6. A crash between a mail's commit and its filing"

stop
nb=$(count bob)
np=$(count corrchess corrchess.processed)
check "corrchessd starts with the crash switch" \
    daemon_start CORRCHESSD_TEST_CRASH_AFTER_MAIL_COMMIT=1 || finish
statement "$g" 4 alice "move Bc4"
sign_ssh "$tmp/alice"
plainmail "alice@$domain" "crash.$$@alice.$domain" "Bc4" "$tmp/body" \
    "$tmp/m6"
check "alice sends Bc4" send "alice@$domain" "$tmp/m6"
check "corrchessd exits after the commit" waitfor 20 dead
wait "$pid"
same "exit status of the crash" $? 99
pid=
cat "$tmp/log" >>"$tmp/log.all"
same "the mail is still in the mailbox" "$(count corrchess)" 1
check "corrchessd starts again after the crash" daemon_start || finish
same "Bc4 was committed (ply 5)" "$(ply "$g")" 5
check "the mail is filed in processed after the restart" waitfor 20 \
    has corrchess $((np + 1)) corrchess.processed
check "the move mailbox is empty again" waitfor 20 holds corrchess 0
same "the move is applied exactly once (ply 5)" "$(ply "$g")" 5
req GET "/api/v1/games/$g/records"
same "five records" "$(jget 'records.*.seq' | wc -l | tr -d ' ')" 5
same "Bc4 recorded once" \
    "$(jget 'records.*.san' | grep -cx Bc4)" 1
same "four records came by mail" \
    "$(jget 'records.*.source' | grep -cx mail)" 4
check "bob gets the Bc4 notice" waitfor 20 has bob $((nb + 1))
sleep 2
same "bob gets it once" "$(count bob)" $((nb + 1))

# mail-move's other form: an SSH signature block, bob's move.
na=$(count alice)
np=$(count corrchess corrchess.processed)
"$corrchess" mail-move -s "$base" -k "$tmp/bob" -p bob --ssh --to "$box" \
    --from "bob@$domain" "$g" Nf6 >"$tmp/mm3" 2>"$tmp/mm.err"
same "mail-move --ssh: exit status" $? 0
check "mail-move --ssh: an SSH signature block" grep -q \
    '^-----BEGIN SSH SIGNATURE-----$' "$tmp/mm3"
same "mail-move --ssh: In-Reply-To (bob's thread)" \
    "$(hdr In-Reply-To "$tmp/mm3")" "<game-$g.black@$domain>"
check "mail-move --ssh: the mail is sent" send "bob@$domain" "$tmp/mm3"
check "mail-move --ssh: the move is applied (ply 6)" waitfor 20 \
    ply_is "$g" 6
check "mail-move --ssh: filed in processed" waitfor 20 \
    has corrchess $((np + 1)) corrchess.processed
check "alice gets the Nf6 notice" waitfor 20 has alice $((na + 1))
"$corrchess" mail-move -s "$base" -k "$tmp/bob" "$g" Nf6 >/dev/null 2>&1
same "mail-move without a player name: usage" $? 2
"$corrchess" mail-move -s "$base" -k "$tmp/bob" -p bob --to 'x <y@z>' \
    "$g" Nf6 >/dev/null 2>&1
same "mail-move --to with a display name: usage" $? 2

# --- 7. No statement: a how-to answer, once a day ------------------------
section "7. No statement: a how-to answer, once a day"

na=$(count alice)
nr=$(count corrchess corrchess.refused)
printf 'Hello,\n\nhow do I play?\n\nAlice\n' >"$tmp/q"
plainmail "alice@$domain" "howto1.$$@alice.$domain" "question" "$tmp/q" \
    "$tmp/m7"
check "alice asks without a statement" send "alice@$domain" "$tmp/m7"
check "alice gets a how-to answer" waitfor 20 has alice $((na + 1))
fetch alice $((na + 1)) "$tmp/a7"
same "how-to: subject" "$(hdr Subject "$tmp/a7")" "Re: question"
same "how-to: In-Reply-To" "$(hdr In-Reply-To "$tmp/a7")" \
    "<howto1.$$@alice.$domain>"
check "how-to: says how to sign" grep -q 'ssh-keygen -Y sign -n corrchess' \
    "$tmp/a7"
check "how-to: the mail is filed in refused" waitfor 20 \
    has corrchess $((nr + 1)) corrchess.refused
plainmail "alice@$domain" "howto2.$$@alice.$domain" "question again" \
    "$tmp/q" "$tmp/m7b"
check "alice asks again the same day" send "alice@$domain" "$tmp/m7b"
check "the second question is filed in refused" waitfor 20 \
    has corrchess $((nr + 2)) corrchess.refused
sleep 3
same "no second how-to within a day" "$(count alice)" $((na + 1))

# --- 8. Dovecot restarts: IDLE comes back, mail needs no poll -----------
section "8. Dovecot restarts: IDLE comes back, mail needs no poll"

check "corrchessd waits for mail in IDLE" grep -q 'imap: IDLE on INBOX' \
    "$tmp/log"
"$mailenv" stop "$mdir" dovecot
"$mailenv" start "$mdir" dovecot >"$tmp/mailenv.log" 2>&1 ||
    cat "$tmp/mailenv.log" >&2
check "the IDLE connection is lost and retried" waitfor 20 grep -q \
    'IDLE again in' "$tmp/log"
check "IDLE is back after the restart" waitfor 30 sh -c \
    "[ \$(grep -c 'imap: IDLE on INBOX' '$tmp/log') -ge 2 ]"
# A move not yet played (Nf6, ply 6, came by mail-move in section 6).
statement "$g" 6 alice "move d3"
sign_ssh "$tmp/alice"
plainmail "alice@$domain" "idle.$$@alice.$domain" "d3" "$tmp/body" "$tmp/m8"
check "alice sends d3" send "alice@$domain" "$tmp/m8"
check "d3 is applied with no poll due (ply 7)" waitfor 20 ply_is "$g" 7

# --- 9. Conditional moves by mail ------------------------------------------
section "9. Conditional moves by mail"

# The notice of d3 to bob first, so that the counts below hold.
check "bob gets the notice of d3" mailfind bob \
    "Game $g, alice v bob: 4. d3" "$tmp/b8n"
na=$(count alice)
nb=$(count bob)
admin POST /api/v1/games -d '{"white":"alice","black":"bob"}'
same "create game 8" "$code" 201
g8=$(jget id)
check "alice hears of game 8" waitfor 20 has alice $((na + 1))
check "bob hears of game 8" waitfor 20 has bob $((nb + 1))
statement "$g8" 0 alice "move e4"
sign_ssh "$tmp/alice"
submit "$g8"
same "game 8: 1. e4" "$code" 201
check "bob hears of 1. e4" waitfor 20 has bob $((nb + 2))
na=$(count alice)
nb=$(count bob)
statement "$g8" 1 alice "conditional e5 Ng1-f3; c5 Nf3"
sign_ssh "$tmp/alice"
plainmail "alice@$domain" "cond1.$$@alice.$domain" "my conditional" \
    "$tmp/body" "$tmp/m9"
check "alice mails her conditional" send "alice@$domain" "$tmp/m9"
check "alice's conditional is answered" waitfor 20 has alice $((na + 1))
fetch alice $((na + 1)) "$tmp/a8"
same "conditional recorded: subject" "$(hdr Subject "$tmp/a8")" \
    "[corrchess] Game $g8, alice v bob: your conditional moves"
textpart "$tmp/a8" | tr '\n' ' ' | tr -s ' ' >"$tmp/a8.flat"
check "conditional recorded: the lines in SAN" contains \
    "Your lines: e5 Nf3; c5 Nf3" "$tmp/a8.flat"
same "bob hears nothing of it" "$(count bob)" "$nb"

statement "$g8" 1 bob "move e5"
sign_ssh "$tmp/bob"
submit "$g8"
same "bob plays into it" "$code" 201
same "the answer is played at once" "$(jget moves)" "e4 e5 Nf3"
check "bob gets one notice for the pair" waitfor 20 has bob $((nb + 1))
check "alice is told what was played" waitfor 20 has alice $((na + 2))
sleep 2
same "bob: only one notice" "$(count bob)" $((nb + 1))
fetch bob $((nb + 1)) "$tmp/b8"
same "the pair's notice: subject" "$(hdr Subject "$tmp/b8")" \
    "[corrchess] Game $g8, alice v bob: 2. Nf3"
textpart "$tmp/b8" >"$tmp/b8.txt"
check "the pair's notice: the move list" grep -q '1\. *e4 *e5 *2\. *Nf3' \
    "$tmp/b8.txt"
check "the pair's notice: no lines of alice's" sh -c \
    "! grep -q 'c5' '$tmp/b8.txt'"
fetch alice $((na + 2)) "$tmp/a8b"
textpart "$tmp/a8b" | tr '\n' ' ' | tr -s ' ' >"$tmp/a8b.flat"
check "alice: which move was played against which" contains \
    "bob played e5, and your conditional move Nf3 was played in answer." \
    "$tmp/a8b.flat"
check "alice: nothing left" contains \
    "Nothing is left of your conditional moves." "$tmp/a8b.flat"

# --- 10. A mail over the size limit: its size and the limit --------------
section "10. A mail over the size limit: its size and the limit"

# 21.45 MiB with CRLF line ends, as IMAP counts it: "21.5 MB".
na=$(count alice)
nr=$(count corrchess corrchess.refused)
{
	printf 'From: alice@%s\r\nTo: %s\r\nSubject: my move\r\n' \
	    "$domain" "$box"
	printf 'Message-ID: <big.%s@alice.%s>\r\nMIME-Version: 1.0\r\n' \
	    "$$" "$domain"
	printf 'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
	printf -- '--b\r\nContent-Type: text/plain\r\n\r\nmy move, and '
	printf 'the photos\r\n--b\r\nContent-Type: application/octet-stream'
	printf '\r\nContent-Transfer-Encoding: base64\r\n\r\n'
	perl -e 'my $l = ("QUJD" x 19) . "\r\n";
	    print $l x int((22492774 - 600) / length $l);'
	printf -- '--b--\r\n'
} >"$tmp/m10"
check "alice sends a mail of 21.45 MiB" send "alice@$domain" "$tmp/m10"
check "the big mail is filed in refused" waitfor 60 \
    has corrchess $((nr + 1)) corrchess.refused
check "the log says its size and the limit" grep -q \
    "from alice@$domain: refused: your mail is 21.5 MB; the limit is 16 MB" \
    "$tmp/log"
check "alice is answered" waitfor 20 has alice $((na + 1))
fetch alice $((na + 1)) "$tmp/a10"
same "the answer: subject" "$(hdr Subject "$tmp/a10")" \
    "[corrchess] not accepted"
textpart "$tmp/a10" | tr '\n' ' ' | tr -s ' ' >"$tmp/a10.flat"
check "the answer says the size and the limit" contains \
    "Your move was not accepted: your mail is 21.5 MB; the limit is 16 MB: send the statement and its signature without attachments." \
    "$tmp/a10.flat"
check "the answer is no how-to" sh -c "! grep -q 'holds no signed statement' \
    '$tmp/a10.flat'"

# --- 11. Two signed statements in one mail: refused ----------------------
section "11. Two signed statements in one mail: refused"

nb=$(count bob)
nr=$(count corrchess corrchess.refused)
statement "$g8" 3 bob "move Nc6"
sign_ssh "$tmp/bob"
cp "$tmp/body" "$tmp/pair1"
statement "$g8" 3 bob "move Nf6"
sign_ssh "$tmp/bob"
{ cat "$tmp/pair1"; echo; cat "$tmp/body"; } >"$tmp/pairs"
plainmail "bob@$domain" "pairs.$$@bob.$domain" "two moves" "$tmp/pairs" \
    "$tmp/m11"
check "bob sends two signed statements in one mail" \
    send "bob@$domain" "$tmp/m11"
check "the mail is filed in refused" waitfor 20 \
    has corrchess $((nr + 1)) corrchess.refused
check "bob is answered" waitfor 20 has bob $((nb + 1))
fetch bob $((nb + 1)) "$tmp/b11"
textpart "$tmp/b11" | tr '\n' ' ' | tr -s ' ' >"$tmp/b11.flat"
check "the answer: a second signature, as over HTTP" contains \
    "a second signature follows the first: send one statement with one signature" \
    "$tmp/b11.flat"
same "neither move is played (ply 3)" "$(ply "$g8")" 3
submit "$g8" "$tmp/pairs"
expect "the same text over HTTP: 400" 400 bad-signature

# --- 12. A player's own statements by mail: a new address, confirmed -------
section "12. A new address, confirmed by the code mailed to it"

sleep 2
na=$(count alice)
nc=$(count carol)
req GET /api/v1/players/alice/keys
sp=$(jget ply)
statement 0 "$sp" alice "email carol@$domain"
sign_ssh "$tmp/alice"
plainmail "alice@$domain" "email.$$@alice.$domain" "new address" \
    "$tmp/body" "$tmp/m12"
check "alice mails a change of address" send "alice@$domain" "$tmp/m12"
check "the new address gets the code" waitfor 20 has carol $((nc + 1))
check "the old address hears of the request" waitfor 20 has alice \
    $((na + 1))
fetch carol $((nc + 1)) "$tmp/c11"
same "the code's mail: subject" "$(hdr Subject "$tmp/c11")" \
    "[corrchess] confirm your new address"
textpart "$tmp/c11" >"$tmp/c11.txt"
code11=$(sed -n 's/^action: confirm-email \([A-Z0-9]*\)$/\1/p' \
    "$tmp/c11.txt")
check "the code's mail holds the statement to sign" [ -n "$code11" ]
check "the statement is for the next ply" grep -qx "ply: $((sp + 1))" \
    "$tmp/c11.txt"
admin GET /api/v1/players/alice
same "nothing changes before the code" "$(jget email)" "alice@$domain"
# A wrong code is refused; the right one, signed and sent from the new
# address as a reply, makes the change.
statement 0 $((sp + 1)) alice "confirm-email WRONGCOD"
sign_ssh "$tmp/alice"
req POST /api/v1/players/alice/actions -H 'Content-Type: text/plain' \
    --data-binary "@$tmp/body"
same "a wrong code" "$code $(jget error.code)" "403 bad-code"
sed -n '/^corrchess-v1$/,/^action: /p' "$tmp/c11.txt" >"$tmp/st"
sign_ssh "$tmp/alice"
plainmail "carol@$domain" "confirm.$$@carol.$domain" \
    "Re: [corrchess] confirm your new address" "$tmp/body" "$tmp/m13"
check "the confirmation is mailed from the new address" \
    send "carol@$domain" "$tmp/m13"
# email_is PLAYER ADDRESS: the player's address, as the API gives it.
email_is() {
	admin GET "/api/v1/players/$1"
	[ "$(jget email)" = "$2" ]
}
check "the address changes" waitfor 20 email_is alice "carol@$domain"
check "the old address is told of the change" waitfor 20 has alice \
    $((na + 2))
fetch alice $((na + 2)) "$tmp/a11"
same "the change's mail: subject" "$(hdr Subject "$tmp/a11")" \
    "[corrchess] your account"
textpart "$tmp/a11" | tr '\n' ' ' | tr -s ' ' >"$tmp/a11.flat"
check "the change's mail: the statement" contains \
    "accepted your signed statement \"confirm-email $code11\"" \
    "$tmp/a11.flat"
check "the change's mail: the new address" contains \
    "email: carol@$domain" "$tmp/a11.flat"

stop
same "corrchessd stops cleanly" "$status" 0
finish
