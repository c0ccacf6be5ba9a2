#!/usr/bin/env python3
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Write the sample mails of tests/test_mail_parse.c: players' replies as
# mail clients send them (plain, quoted-printable, base64, Latin-1, HTML
# only, attachments, format=flowed, CRLF, re-wrapped signatures), signed
# with the test keys in keys/ by the real tools: `ssh-keygen -Y sign -n
# corrchess` and `corrchess sign` (raw Ed25519 line). Ed25519 signatures
# are deterministic, so running this again writes the same files.
#
# usage: tests/data/mail/make-mails.py [CORRCHESS]   (default src/corrchess)

import base64
import os
import quopri
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CORRCHESS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "src",
                                                               "corrchess")
KEY = os.path.join(HERE, "keys", "alice")


def statement(game, ply, player, action):
    return "corrchess-v1\ngame: %d\nply: %d\nplayer: %s\naction: %s\n" % (
        game, ply, player, action)


def ssh_sign(text, key=KEY):
    """The statement and its SSH signature block, as a player pastes it."""
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "move.txt")
        with open(f, "w") as fp:
            fp.write(text)
        # ssh-keygen wants a private key file of mode 0600 (git keeps 0644).
        k = os.path.join(d, "key")
        with open(key) as src, open(k, "w") as dst:
            dst.write(src.read())
        os.chmod(k, 0o600)
        subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-n", "corrchess",
                        "-f", k, f], check=True,
                       stderr=subprocess.DEVNULL)
        with open(f + ".sig") as fp:
            return fp.read()


def raw_sign(game, ply, player, action, key=KEY):
    """corrchess sign: the statement and a "signature:" line."""
    out = subprocess.run([CORRCHESS, "sign", "-k", key, "--game", str(game),
                          "--ply", str(ply), "-p", player] + action.split(),
                         check=True, capture_output=True, text=True).stdout
    return out


def qp(text, charset="utf-8"):
    return quopri.encodestring(text.encode(charset)).decode("ascii")


def b64(data, width=76):
    s = base64.b64encode(data).decode("ascii")
    return "\n".join(s[i:i + width] for i in range(0, len(s), width)) + "\n"


def write(name, text, crlf=False, raw=None):
    path = os.path.join(HERE, name)
    data = raw if raw is not None else text.encode("utf-8")
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    with open(path, "wb") as fp:
        fp.write(data)


def headers(subject, msgid, extra="", frm="Alice Martin <alice@example.org>",
            reply_to_id="game-42.p15.8c1f2e4a@club.example"):
    return ("Return-Path: <alice@example.org>\n"
            "Received: from mail.example.org (mail.example.org [192.0.2.25])\n"
            "\tby mx.club.example with ESMTPS id 4Q2x1k3Vz9\n"
            "\tfor <moves@club.example>; Sun, 29 Nov 2026 10:15:02 +0100\n"
            "From: %s\n"
            "To: corrchess <moves@club.example>\n"
            "Subject: %s\n"
            "Date: Sun, 29 Nov 2026 10:15:00 +0100\n"
            "Message-ID: <%s>\n"
            "In-Reply-To: <%s>\n"
            "References: <game-42.white@club.example>\n <%s>\n"
            "MIME-Version: 1.0\n%s" % (frm, subject, msgid, reply_to_id,
                                       reply_to_id, extra))


S16 = statement(42, 16, "alice", "move Nf3")
SSH16 = ssh_sign(S16)
RAW16 = raw_sign(42, 16, "alice", "move Nf3")
OLD14 = raw_sign(42, 14, "alice", "move Nc3")
OLD14_SSH = ssh_sign(statement(42, 14, "alice", "move Nc3"))
SUBJ = "Re: [corrchess] Game 42, alice v bob: 8... O-O"


def quote(text):
    return "".join("> " + l + "\n" if l else ">\n"
                   for l in text.rstrip("\n").split("\n"))


NOTICE_QUOTED = ("Hello Alice Martin,\n\nbob played 8... O-O.\n\n"
                 "    8 r . b q . r k .\n    7 p p p p b p p p\n"
                 "      a b c d e f g h\n\n"
                 "Your previous move was accepted:\n\n" + OLD14)

# 1. Plain text, us-ascii, SSH signature block, a greeting around it.
write("plain.eml", headers(SUBJ, "20261129101500.4242@mail.example.org",
                           "Content-Type: text/plain; charset=us-ascii\n"
                           "Content-Transfer-Encoding: 7bit\n") +
      "\nHere is my move.\n\n" + S16 + SSH16 + "\nAlice\n")

# 2. multipart/alternative, quoted-printable, the previous notice quoted
#    (with an older signed statement that must be ignored); bottom-posted.
plain = ("On Sat, 28 Nov 2026 at 18:02, corrchess <chess@club.example> "
         "wrote:\n" + quote(NOTICE_QUOTED) + "\nMy move, with a draw? No, "
         "just the move. Très bien.\n\n" + RAW16 + "\n-- \nAlice Martin\n"
         "Envoyé de mon téléphone\n")
html = ("<html><body><div>On Sat, 28 Nov 2026, corrchess wrote:</div>"
        "<blockquote type=\"cite\">" + NOTICE_QUOTED.replace("\n", "<br>\n")
        + "</blockquote><div>My move. Tr&egrave;s bien.</div><div><br></div>"
        + "".join("<div>%s</div>\n" % l for l in RAW16.rstrip().split("\n"))
        + "<div class=\"moz-signature\">-- <br>Alice Martin</div>"
        "</body></html>\n")
write("alternative-qp.eml",
      headers(SUBJ, "CAB4x9=Yk2@mail.example.org",
              "Content-Type: multipart/alternative; "
              "boundary=\"000000000000a1b2c3d4e5f6\"\n") +
      "\n--000000000000a1b2c3d4e5f6\n"
      "Content-Type: text/plain; charset=\"UTF-8\"\n"
      "Content-Transfer-Encoding: quoted-printable\n\n" + qp(plain) +
      "\n--000000000000a1b2c3d4e5f6\n"
      "Content-Type: text/html; charset=\"UTF-8\"\n"
      "Content-Transfer-Encoding: quoted-printable\n\n" + qp(html) +
      "\n--000000000000a1b2c3d4e5f6--\n")

# 3. HTML only (a webmail), the old statement in a <blockquote>.
html = ("<div dir=\"ltr\"><div>Ma r&eacute;ponse&nbsp;:</div><div><br></div>"
        + "".join("<div>%s</div>" % l for l in (S16 + SSH16).rstrip()
                  .split("\n")) +
        "<div><br></div><div>&lt;Alice&gt; &amp; co.</div></div><br>"
        "<div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">"
        "Le sam. 28 nov. 2026 &agrave; 18:02, corrchess a &eacute;crit"
        "&nbsp;:<br></div><blockquote class=\"gmail_quote\" "
        "style=\"margin:0px 0px 0px 0.8ex\">" +
        OLD14_SSH.replace("\n", "<br>") + "</blockquote></div>\n")
write("html-only.eml",
      headers(SUBJ, "CAH7q=zz1@mail.gmail.example",
              "Content-Type: text/html; charset=\"UTF-8\"\n"
              "Content-Transfer-Encoding: quoted-printable\n") +
      "\n" + qp(html))

# 4. base64 body, UTF-8, raw signature line.
body = "Voilà mon coup ♞\n\n" + RAW16 + "\nAlice\n"
write("base64.eml",
      headers(SUBJ, "b64.1@mail.example.org",
              "Content-Type: text/plain; charset=utf-8\n"
              "Content-Transfer-Encoding: base64\n") +
      "\n" + b64(body.encode("utf-8")))

# 5. ISO-8859-1, quoted-printable, French notation, SSH signature.
S16FR = statement(42, 16, "alice", "move Cf3")
body = ("Très bien, je joue le cavalier.\n\n" + S16FR + ssh_sign(S16FR) +
        "\nÀ bientôt,\nAlice\n")
write("latin1.eml",
      headers("Re: [corrchess] Partie 42, alice c. bob : 8... O-O",
              "latin1.7@mail.example.org",
              "Content-Type: text/plain; charset=ISO-8859-1\n"
              "Content-Transfer-Encoding: quoted-printable\n") +
      "\n" + qp(body, "iso-8859-1"))

# 6. The statement and its signature line as one attached file.
write("attachment.eml",
      headers(SUBJ, "att.1@mail.example.org",
              "Content-Type: multipart/mixed; boundary=\"=-mixed-1\"\n") +
      "\n--=-mixed-1\nContent-Type: text/plain; charset=utf-8\n"
      "Content-Transfer-Encoding: 8bit\n\nCi-joint mon coup.\n\n"
      "--=-mixed-1\nContent-Type: text/plain; charset=us-ascii; "
      "name=move.txt\nContent-Disposition: attachment; filename=move.txt\n"
      "Content-Transfer-Encoding: 7bit\n\n" + RAW16 + "\n--=-mixed-1--\n")

# 7. move.txt and move.txt.sig as two attachments (the .sig as the
#    client typed it: application/pgp-signature, base64).
write("attachments-two.eml",
      headers(SUBJ, "att.2@mail.example.org",
              "Content-Type: multipart/mixed; "
              "boundary=\"------------Xq8N4v2\"\n") +
      "\nThis is a multi-part message in MIME format.\n"
      "--------------Xq8N4v2\nContent-Type: text/plain; charset=UTF-8; "
      "format=flowed\nContent-Transfer-Encoding: 7bit\n\n"
      "My move is attached (move.txt and move.txt.sig).\n\n"
      "--------------Xq8N4v2\nContent-Type: text/plain; charset=UTF-8; "
      "name=\"move.txt\"\nContent-Disposition: attachment; "
      "filename=\"move.txt\"\nContent-Transfer-Encoding: base64\n\n" +
      b64(S16.encode()) +
      "\n--------------Xq8N4v2\nContent-Type: application/pgp-signature; "
      "name=\"move.txt.sig\"\nContent-Disposition: attachment; "
      "filename=\"move.txt.sig\"\nContent-Transfer-Encoding: base64\n\n" +
      b64(SSH16.encode()) + "\n--------------Xq8N4v2--\n")

# 8. Thunderbird, format=flowed: the pasted signature block became one
#    flowed paragraph (each line ends in a soft-break space), so decoding
#    joins BEGIN, the base64 and END into one line.
lines = SSH16.rstrip("\n").split("\n")
block = "".join(l + " \n" for l in lines[:-1]) + lines[-1] + "\n"
write("thunderbird.eml",
      headers(SUBJ, "5c2a9e1b-tb@example.org",
              "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:115.0) "
              "Gecko/20100101 Thunderbird/115.5.0\n"
              "Content-Language: en-US\n"
              "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
              "Content-Transfer-Encoding: 7bit\n") +
      "\nHi,\n\nhere is my move for game 42, signed with my SSH key as "
      "the \nnotice explains.\n\n" + S16 + block + "\n-- \nAlice\n")

# 9. The SSH block re-wrapped by a client at other widths (64, then 76).
b = "".join(lines[1:-1])
rewrapped = [lines[0], b[:64], b[64:140], b[140:204], b[204:]]
rewrapped = [l for l in rewrapped if l] + [lines[-1]]
write("rewrapped.eml",
      headers(SUBJ, "rewrap.9@mail.example.org",
              "Content-Type: text/plain; charset=us-ascii\n") +
      "\n" + S16 + "\n".join(rewrapped) + "\n")

# 10. format=flowed; delsp=yes: the raw signature line broken inside its
#     base64 (a space added before the break, deleted when read), and a
#     space-stuffed line.
raw_line = RAW16.rstrip("\n").split("\n")[-1]
body = (" From now on I sign with corrchess.\n\n" + S16 +
        raw_line[:50] + " \n" + raw_line[50:] + "\n")
write("flowed-delsp.eml",
      headers(SUBJ, "flowed.10@mail.example.org",
              "Content-Type: text/plain; charset=utf-8; format=flowed; "
              "delsp=yes\n") + "\n" + body)

# 11. CRLF line ends throughout.
write("crlf.eml",
      headers(SUBJ, "crlf.11@mail.example.org",
              "Content-Type: text/plain; charset=us-ascii\n") +
      "\nMy move:\n\n" + RAW16 + "\nAlice\n", crlf=True)

# 12. A "signature:" line broken by a client after the colon and again
#     inside the base64 (hard line breaks, not flowed).
sig_b64 = raw_line[len("signature: "):]
write("sigline-split.eml",
      headers(SUBJ, "split.12@mail.example.org",
              "Content-Type: text/plain; charset=us-ascii\n") +
      "\nMy move:\n\n" + S16 + "signature:\n" + sig_b64[:60] + "\n" +
      sig_b64[60:] + "\n\nAlice\n")

# 13. The statement in the body and its signature attached, with words in
#     between.
write("body-and-sig.eml",
      headers(SUBJ, "bodysig.13@mail.example.org",
              "Content-Type: multipart/mixed; boundary=\"b13\"\n") +
      "\n--b13\nContent-Type: text/plain; charset=us-ascii\n\n" + S16 +
      "\nThe signature is attached.\nAlice\n\n--b13\n"
      "Content-Type: application/octet-stream; name=move.txt.sig\n"
      "Content-Disposition: attachment; filename=move.txt.sig\n"
      "Content-Transfer-Encoding: base64\n\n" + b64(SSH16.encode()) +
      "--b13--\n")

# 14. The notice's ready statement left unquoted above the filled one
#     (a reply written under the notice without quoting it).
write("unquoted-template.eml",
      headers(SUBJ, "tmpl.14@mail.example.org",
              "Content-Type: text/plain; charset=us-ascii\n") +
      "\nYour next action: the statement to sign is these five lines:\n\n"
      "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\naction: move \n\n"
      "Here it is:\n\n" + S16 + SSH16)

# 15. No statement at all.
write("no-statement.eml",
      headers("Re: [corrchess] Game 42, alice v bob: 8... O-O",
              "nostmt.15@mail.example.org",
              "Content-Type: text/plain; charset=utf-8\n"
              "Content-Transfer-Encoding: 8bit\n") +
      "\nHello,\n\nI am away until Sunday; I will send my move then.\n\n"
      "On Sat, 28 Nov 2026, corrchess wrote:\n" + quote(NOTICE_QUOTED) +
      "\n-- \nAlice\n" + S16)

# 16. A statement that does not parse (upper-case player name).
write("bad-statement.eml",
      headers(SUBJ, "bad.16@mail.example.org",
              "Content-Type: text/plain; charset=us-ascii\n") +
      "\ncorrchess-v1\ngame: 42\nply: 16\nplayer: Alice\n"
      "action: move Nf3\n" + SSH16)

# 17. A bounce: automatic, never to be answered.
write("bounce.eml",
      "Return-Path: <>\nFrom: Mail Delivery System "
      "<MAILER-DAEMON@mail.example.org>\nTo: moves@club.example\n"
      "Subject: Undelivered Mail Returned to Sender\n"
      "Date: Sun, 29 Nov 2026 10:20:00 +0100\n"
      "Message-ID: <bounce.17@mail.example.org>\nAuto-Submitted: "
      "auto-replied\nMIME-Version: 1.0\nContent-Type: multipart/report; "
      "report-type=delivery-status; boundary=\"r17\"\n\n--r17\n"
      "Content-Type: text/plain\n\nThis is the mail system.\n\n--r17\n"
      "Content-Type: message/delivery-status\n\nReporting-MTA: dns; "
      "mail.example.org\n\n--r17\nContent-Type: message/rfc822\n\n"
      "From: corrchess <chess@club.example>\nSubject: x\n\n" + S16 +
      SSH16 + "\n--r17--\n")

# 18. Garbage: bytes that are no mail.
seed = 12345
junk = bytearray()
for _ in range(2048):
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    junk.append(seed >> 16 & 0xff)
write("garbage.eml", "", raw=bytes(junk))
