/*
 * tests/test_mail_parse.c: tests of reading players' mail.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * mail_parse: players' mails as clients send them (tests/data/mail, made
 * by tests/data/mail/make-mails.py with ssh-keygen and corrchess sign).
 * Every statement found must verify against the test key with
 * sig_statement_parse() and sig_signature_verify().
 */

#include "config.h"

#include <pthread.h>

#include "letters/mail_parse.h"
#include "sig/sig.h"
#include "testutil.h"

/* Read tests/data/mail/NAME and parse it; the test fails if it is refused. */
static char *
parse_file(const char *name, struct mail_message *m)
{
	char	 path[256], err[256] = "";
	char	*raw;
	size_t	 len;

	snprintf(path, sizeof path, "mail/%s", name);
	raw = test_read_data(path, &len);
	if (mail_parse(raw, len, m, err, sizeof err) != 0)
		fail_msg("%s: %s", name, err);
	return raw;
}

/* Alice's public key (tests/data/mail/keys/alice.pub). */
static void
alice_key(uint8_t pk[SIG_PUBKEY_BYTES])
{
	enum sig_error	 e;
	char		*line;

	line = test_read_data("mail/keys/alice.pub", NULL);
	assert_int_equal(sig_pubkey_parse(line, pk, &e), 0);
	free(line);
}

/*
 * The statement found must be alice's, for game 42 at ply 16, the move
 * `move`, signed in `form`, and verify against her key (and not bob's).
 */
static void
check_statement(const struct mail_message *m, const char *move,
    enum sig_form form)
{
	uint8_t			 keys[1][SIG_PUBKEY_BYTES];
	uint8_t			 bob[1][SIG_PUBKEY_BYTES];
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum sig_error		 e;
	char			*line;

	assert_int_equal(m->found, MAIL_STATEMENT);
	assert_non_null(m->statement);
	assert_int_equal(strlen(m->statement), m->statement_len);
	assert_int_equal(sig_statement_parse(m->statement, m->statement_len,
	    &st, &sg, &e), 0);
	assert_true(st.game == 42);
	assert_int_equal(st.ply, 16);
	assert_string_equal(st.player, "alice");
	assert_int_equal(st.action.kind, SIG_ACT_MOVE);
	assert_string_equal(st.action.move, move);
	assert_int_equal(sg.form, form);
	alice_key(keys[0]);
	assert_int_equal(sig_signature_verify(&st, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])keys, 1, NULL, &e), 0);
	line = test_read_data("mail/keys/bob.pub", NULL);
	assert_int_equal(sig_pubkey_parse(line, bob[0], &e), 0);
	free(line);
	assert_int_not_equal(sig_signature_verify(&st, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])bob, 1, NULL, &e), 0);
	/* The text starts with the statement, LF only. */
	assert_memory_equal(m->statement, st.canon, st.canon_len);
	assert_null(strchr(m->statement, '\r'));
}

/* True if the cleaned text holds `s`. */
static bool
text_has(const struct mail_message *m, const char *s)
{
	return strstr(m->text, s) != NULL;
}

/* Plain text mail: sender, ids, subject, thread, SSH signature. */
static void
test_plain(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("plain.eml", &m);
	assert_string_equal(m.from, "alice@example.org");
	assert_string_equal(m.from_name, "Alice Martin");
	assert_string_equal(m.reply_to, "");
	assert_string_equal(m.message_id,
	    "20261129101500.4242@mail.example.org");
	assert_string_equal(m.in_reply_to, "game-42.p15.8c1f2e4a@club.example");
	assert_int_equal(m.nreferences, 2);
	assert_string_equal(m.references[0], "game-42.white@club.example");
	assert_string_equal(m.references[1],
	    "game-42.p15.8c1f2e4a@club.example");
	assert_string_equal(m.subject,
	    "Re: [corrchess] Game 42, alice v bob: 8... O-O");
	assert_false(m.automatic);
	assert_true(mail_thread_game(&m, "club.example") == 42);
	assert_true(mail_thread_game(&m, "CLUB.example") == 42);
	assert_true(mail_thread_game(&m, "other.example") == 0);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	assert_true(text_has(&m, "Here is my move."));
	mail_message_free(&m);
	mail_message_free(&m);		/* twice: the struct is zeroed */
	free(raw);
}

/*
 * multipart/alternative in quoted-printable, bottom-posted under the
 * quoted notice that holds an older signed statement (ply 14): that one
 * is ignored, the text/plain part is read (not the HTML one), and the
 * signature below "-- " is dropped.
 */
static void
test_alternative_qp(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("alternative-qp.eml", &m);
	/* The old statement is really in the mail, quoted. */
	assert_non_null(strstr(raw, "> ply: 14"));
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	assert_false(text_has(&m, "ply: 14"));
	assert_false(text_has(&m, "move Nc3"));
	assert_true(text_has(&m, "Tr\xc3\xa8s bien."));
	assert_false(text_has(&m, "<div>"));
	assert_false(text_has(&m, "Envoy\xc3\xa9 de mon t\xc3\xa9l\xc3\xa9phone"));
	mail_message_free(&m);
	free(raw);
}

/* HTML only: tags, entities, <div> lines; the <blockquote> is quoted. */
static void
test_html_only(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("html-only.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	assert_true(text_has(&m, "Ma r\xc3\xa9ponse :"));
	assert_true(text_has(&m, "<Alice> & co."));
	assert_false(text_has(&m, "ply: 14"));
	assert_false(text_has(&m, "blockquote"));
	mail_message_free(&m);
	free(raw);
}

/* A base64 body in UTF-8, with a raw signature line. */
static void
test_base64(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("base64.eml", &m);
	assert_null(strstr(raw, "corrchess-v1"));
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	assert_true(text_has(&m, "Voil\xc3\xa0 mon coup \xe2\x99\x9e"));
	mail_message_free(&m);
	free(raw);
}

/* ISO-8859-1 quoted-printable: decoded to UTF-8; French move. */
static void
test_latin1(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("latin1.eml", &m);
	assert_non_null(strstr(raw, "Tr=E8s bien"));
	check_statement(&m, "Cf3", SIG_FORM_SSHSIG);
	assert_true(text_has(&m, "Tr\xc3\xa8s bien, je joue le cavalier."));
	assert_true(text_has(&m, "\xc3\x80 bient\xc3\xb4t"));
	assert_string_equal(m.subject,
	    "Re: [corrchess] Partie 42, alice c. bob : 8... O-O");
	mail_message_free(&m);
	free(raw);
}

/* The statement and its signature line as one attached move.txt. */
static void
test_attachment(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("attachment.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	assert_true(text_has(&m, "Ci-joint mon coup."));
	mail_message_free(&m);
	free(raw);
}

/* move.txt and move.txt.sig attached, both base64, the .sig typed as
 * application/pgp-signature. */
static void
test_attachments_two(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("attachments-two.eml", &m);
	assert_null(strstr(raw, "corrchess-v1"));
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	mail_message_free(&m);
	free(raw);
}

/* format=flowed: the SSH block sent as one flowed paragraph comes out of
 * the flowed decoding as one line; it is laid out again. */
static void
test_thunderbird_flowed(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("thunderbird.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	/* The soft break in the prose was joined. */
	assert_true(text_has(&m, "signed with my SSH key as the notice "
	    "explains."));
	mail_message_free(&m);
	free(raw);
}

/* An SSH block re-wrapped at other widths. */
static void
test_rewrapped(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("rewrapped.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	mail_message_free(&m);
	free(raw);
}

/* format=flowed; delsp=yes: a raw signature broken inside its base64;
 * a space-stuffed line. */
static void
test_flowed_delsp(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("flowed-delsp.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	assert_true(strncmp(m.text, "From now on", 11) == 0);
	mail_message_free(&m);
	free(raw);
}

/* CRLF everywhere: no CR survives in the text. */
static void
test_crlf(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("crlf.eml", &m);
	assert_non_null(strstr(raw, "\r\n"));
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	assert_null(strchr(m.text, '\r'));
	mail_message_free(&m);
	free(raw);
}

/* A "signature:" line broken after the colon and inside the base64: the
 * statement parser alone refuses it, the mail reader joins it again. */
static void
test_sigline_split(void **state)
{
	struct sig_statement	 st;
	struct sig_signature	 sg;
	struct mail_message	 m;
	enum sig_error		 e;
	char			*raw, *p;

	(void)state;
	raw = parse_file("sigline-split.eml", &m);
	p = strstr(raw, "corrchess-v1");
	assert_non_null(p);
	assert_int_not_equal(sig_statement_parse(p, strlen(p), &st, &sg, &e),
	    0);
	check_statement(&m, "Nf3", SIG_FORM_RAW);
	mail_message_free(&m);
	free(raw);
}

/* The statement in the body, words after it, the signature attached. */
static void
test_body_and_sig(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("body-and-sig.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	mail_message_free(&m);
	free(raw);
}

/* The notice's ready statement left unquoted above the filled one. */
static void
test_unquoted_template(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("unquoted-template.eml", &m);
	check_statement(&m, "Nf3", SIG_FORM_SSHSIG);
	mail_message_free(&m);
	free(raw);
}

/* No statement: the quoted one and the one below "-- " do not count. */
static void
test_no_statement(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("no-statement.eml", &m);
	assert_non_null(strstr(raw, "\n> corrchess-v1"));
	assert_non_null(strstr(raw, "-- \nAlice\ncorrchess-v1"));
	assert_int_equal(m.found, MAIL_NO_STATEMENT);
	assert_null(m.statement);
	assert_true(text_has(&m, "I am away until Sunday"));
	assert_string_equal(m.from, "alice@example.org");
	mail_message_free(&m);
	free(raw);
}

/* A statement that does not parse: its text and the reason. */
static void
test_bad_statement(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("bad-statement.eml", &m);
	assert_int_equal(m.found, MAIL_BAD_STATEMENT);
	assert_int_equal(m.error, SIG_EPLAYER);
	assert_int_equal(m.error_line, 4);
	assert_non_null(m.statement);
	assert_true(strncmp(m.statement, "corrchess-v1\n", 13) == 0);
	assert_non_null(strstr(m.statement, "player: Alice"));
	mail_message_free(&m);
	free(raw);
}

/* A bounce is automatic; the message it returns is not read. */
static void
test_bounce(void **state)
{
	struct mail_message	 m;
	char			*raw;

	(void)state;
	raw = parse_file("bounce.eml", &m);
	assert_true(m.automatic);
	assert_int_equal(m.found, MAIL_NO_STATEMENT);
	assert_string_equal(m.from, "MAILER-DAEMON@mail.example.org");
	assert_non_null(strstr(raw, "corrchess-v1"));
	mail_message_free(&m);
	free(raw);
}

/* Bytes that are no mail are refused with a reason. */
static void
test_garbage(void **state)
{
	struct mail_message	 m;
	char			*raw, err[128] = "";
	size_t			 len;

	(void)state;
	raw = test_read_data("mail/garbage.eml", &len);
	assert_int_equal(mail_parse(raw, len, &m, err, sizeof err), -1);
	assert_true(err[0] != '\0');
	assert_null(m.text);
	assert_int_equal(mail_parse("", 0, &m, err, sizeof err), -1);
	assert_int_equal(mail_parse(raw, (size_t)MAIL_PARSE_MAX + 1, &m, err,
	    sizeof err), -1);
	assert_string_equal(err, "mail too large");
	free(raw);
}

/* Every truncation of a multipart mail parses or is refused, cleanly. */
static void
test_truncated(void **state)
{
	static const char *const names[] = { "alternative-qp.eml",
	    "attachments-two.eml", "thunderbird.eml" };
	struct mail_message	 m;
	char			*raw, *copy;
	size_t			 len, n, i, found = 0;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[128];

		snprintf(path, sizeof path, "mail/%s", names[i]);
		raw = test_read_data(path, &len);
		for (n = 0; n <= len; n += 13) {
			/* An exact-size copy, so reads past it are caught. */
			copy = malloc(n + 1);
			assert_non_null(copy);
			memcpy(copy, raw, n);
			if (mail_parse(copy, n, &m, NULL, 0) == 0) {
				assert_non_null(m.text);
				assert_non_null(m.from);
				if (m.found == MAIL_STATEMENT)
					found++;
				mail_message_free(&m);
			}
			free(copy);
		}
		free(raw);
	}
	assert_true(found > 0);
}

/* An SSH block joined into one line with blanks (as some clients paste
 * it) is refused by the statement parser and repaired here. */
static void
test_joined_block(void **state)
{
	uint8_t			 pk[1][SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	struct sig_statement	 st;
	struct sig_signature	 sg;
	struct mail_message	 m;
	char			 joined[4096];
	char			 signed_text[SIG_SIGNED_SIZE];
	enum sig_error		 e;
	char			*p, *o;

	(void)state;
	assert_int_equal(sig_init(), 0);
	assert_int_equal(sig_keypair(pk[0], sk), 0);
	memset(&st, 0, sizeof st);
	st.game = 7;
	st.ply = 0;
	snprintf(st.player, sizeof st.player, "carol");
	st.action.kind = SIG_ACT_MOVE;
	snprintf(st.action.move, sizeof st.action.move, "e4");
	assert_int_equal(sig_statement_build(&st, &e), 0);
	assert_int_equal(sig_statement_sign(&st, sk, SIG_FORM_SSHSIG,
	    signed_text, sizeof signed_text, &e), 0);

	/* "intro\n" + statement + block with its line ends made blanks. */
	o = joined;
	o += sprintf(o, "Move below.\n\n");
	p = strstr(signed_text, "-----BEGIN");
	assert_non_null(p);
	memcpy(o, signed_text, (size_t)(p - signed_text));
	o += p - signed_text;
	for (; *p != '\0'; p++)
		*o++ = *p == '\n' && p[1] != '\0' ? ' ' : *p;
	*o = '\0';
	assert_int_not_equal(sig_statement_parse(joined, strlen(joined),
	    &st, &sg, &e), 0);

	memset(&m, 0, sizeof m);
	assert_int_equal(mail_find_statement(joined, strlen(joined), &m),
	    0);
	assert_int_equal(m.found, MAIL_STATEMENT);
	assert_int_equal(sig_statement_parse(m.statement, m.statement_len,
	    &st, &sg, &e), 0);
	assert_true(st.game == 7);
	assert_int_equal(sig_signature_verify(&st, &sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])pk, 1, NULL, &e), 0);
	mail_message_free(&m);
}

/* A template left to fill in, then a statement without its signature:
 * the fault reported is the missing signature, on the second statement. */
static void
test_bad_prefers_parsed(void **state)
{
	static const char text[] =
	    "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\naction: move \n"
	    "\nMine:\n"
	    "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\n"
	    "action: move Nf3\n\nAlice\n";
	struct mail_message m;

	(void)state;
	memset(&m, 0, sizeof m);
	assert_int_equal(mail_find_statement(text, sizeof text - 1, &m), 0);
	assert_int_equal(m.found, MAIL_BAD_STATEMENT);
	assert_int_equal(m.error, SIG_ENOSIG);
	assert_non_null(strstr(m.statement, "action: move Nf3"));
	assert_null(strstr(m.statement, "Mine:"));
	mail_message_free(&m);

	/* Only the template: its own fault. */
	memset(&m, 0, sizeof m);
	assert_int_equal(mail_find_statement(text, 58, &m), 0);
	assert_int_equal(m.found, MAIL_BAD_STATEMENT);
	assert_int_equal(m.error, SIG_EACTION_ARGS);
	assert_int_equal(m.error_line, 5);
	mail_message_free(&m);
}

/*
 * Two signed statements in one mail, or one statement with two
 * signatures, with or without words between: refused as over HTTP (a
 * second signature), never one of them taken.
 */
static void
test_two_pairs(void **state)
{
#define SIG88 "signature: " \
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" \
	    "AAAAAAAAAAAAAAAAAAAAAA==\n"
#define SIG88B "signature: " \
	    "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" \
	    "BBBBBBBBBBBBBBBBBBBBBA==\n"
#define STA "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\n" \
	    "action: move Nf3\n"
#define STB "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\n" \
	    "action: resign\n"
	static const char *const texts[] = {
		STA SIG88 "\n" STB SIG88B,
		STA SIG88 SIG88B,
		"My move:\n" STA "\nand its signature:\n\n" SIG88 "\n"
		    "or this one:\n" SIG88B "\nAlice\n",
	};
	struct sig_statement	 st;
	struct sig_signature	 sg;
	struct mail_message	 m;
	enum sig_error		 e;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		memset(&m, 0, sizeof m);
		assert_int_equal(mail_find_statement(texts[i],
		    strlen(texts[i]), &m), 0);
		assert_int_equal(m.found, MAIL_BAD_STATEMENT);
		assert_int_equal(m.error, SIG_ESIG_TWICE);
		/* What the service reads: the first statement, both
		 * signatures, and the same fault. */
		assert_string_equal(m.statement, STA SIG88 SIG88B);
		assert_int_not_equal(sig_statement_parse(m.statement,
		    m.statement_len, &st, &sg, &e), 0);
		assert_int_equal(e, SIG_ESIG_TWICE);
		mail_message_free(&m);
	}
	/* One pair alone is taken. */
	memset(&m, 0, sizeof m);
	assert_int_equal(mail_find_statement(STB SIG88B, strlen(STB SIG88B),
	    &m), 0);
	assert_int_equal(m.found, MAIL_STATEMENT);
	assert_string_equal(m.statement, STB SIG88B);
	mail_message_free(&m);
#undef SIG88
#undef SIG88B
#undef STA
#undef STB
}

/* Quoted lines, with or without blanks before '>', never count. */
static void
test_find_quoted(void **state)
{
	static const char text[] =
	    "  > corrchess-v1\n  > game: 1\n  > ply: 0\n  > player: a\n"
	    "  > action: resign\n  > signature: AAAA\n";
	struct mail_message m;

	(void)state;
	memset(&m, 0, sizeof m);
	assert_int_equal(mail_find_statement(text, sizeof text - 1, &m), 0);
	assert_int_equal(m.found, MAIL_NO_STATEMENT);
	assert_string_equal(m.text, "");
	mail_message_free(&m);
}

/* HTML to text: blocks, breaks, entities, skipped elements, quotes. */
static void
test_html_to_text(void **state)
{
	static const struct {
		const char	*html;
		const char	*text;
	} cases[] = {
		{ "<p>a</p><p>b</p>", "a\nb\n" },
		{ "x<br>y<BR/>z", "x\ny\nz\n" },
		{ "<div>a  \n  b</div>", "a b\n" },
		{ "caf&eacute; &#233;&#xE9; &lt;&amp;&gt;", "caf\xc3\xa9 "
		    "\xc3\xa9\xc3\xa9 <&>\n" },
		{ "a&nbsp;:", "a :\n" },
		{ "game:\xc2\xa0" "42 \xc3\xa9", "game: 42 \xc3\xa9\n" },
		{ "<head><title>t</title><style>p{}</style></head>x", "x\n" },
		{ "<script>if (a < b) x();</script>ok", "ok\n" },
		{ "<!-- <p>c</p> -->v", "v\n" },
		{ "q<blockquote>old<br>older</blockquote>new",
		    "q\n> old\n> older\nnew\n" },
		{ "<pre>a  b\nc</pre>", "a  b\nc\n" },
		{ "&bogus; &#; &#x; &", "&bogus; &#; &#x; &\n" },
		{ "<p>unclosed <b", "unclosed\n" },
		{ "", "" },
	};
	size_t	 i, n;
	char	*t;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t = mail_html_to_text(cases[i].html, strlen(cases[i].html),
		    &n);
		assert_non_null(t);
		assert_int_equal(n, strlen(t));
		if (strcmp(t, cases[i].text) != 0)
			fail_msg("html %zu: got \"%s\", want \"%s\"", i, t,
			    cases[i].text);
		free(t);
	}
}

/* The game of a thread, from In-Reply-To first, then References. */
static void
test_thread_game(void **state)
{
	char			*refs[2] = { "game-9.white@club.example",
				    "x@y" };
	struct mail_message	 m;

	(void)state;
	memset(&m, 0, sizeof m);
	m.in_reply_to = "game-7.p3.abc@Club.Example";
	assert_true(mail_thread_game(&m, "club.example") == 7);
	m.in_reply_to = "game-07@club.example";
	assert_true(mail_thread_game(&m, "club.example") == 0);
	m.in_reply_to = "game-7x@club.example";
	assert_true(mail_thread_game(&m, "club.example") == 0);
	m.in_reply_to = "game-99999999999999999999@club.example";
	assert_true(mail_thread_game(&m, "club.example") == 0);
	m.in_reply_to = "";
	m.references = refs;
	m.nreferences = 2;
	assert_true(mail_thread_game(&m, "club.example") == 9);
	assert_true(mail_thread_game(&m, "evil.example") == 0);
	assert_true(mail_thread_game(&m, NULL) == 0);
}

/* Mails parsed by each thread of test_threads. */
struct thread_job {
	const char	*raw[3];
	size_t		 len[3];
	int		 bad;		/* parses that went wrong */
};

/* Parse the job's mails again and again; count what goes wrong. */
static void *
thread_parse(void *arg)
{
	struct thread_job	*job = arg;
	struct mail_message	 m;
	int			 round, i;

	for (round = 0; round < 40; round++)
		for (i = 0; i < 3; i++) {
			if (mail_parse(job->raw[i], job->len[i], &m, NULL,
			    0) != 0) {
				job->bad++;
				continue;
			}
			if (m.found != MAIL_STATEMENT ||
			    strncmp(m.statement, "corrchess-v1\ngame: 42\n"
			    "ply: 16\n", 30) != 0)
				job->bad++;
			mail_message_free(&m);
		}
	return NULL;
}

/* Several threads parse at once, from the first call on (GMime's
 * initialisation included): every result is right. */
static void
test_threads(void **state)
{
	static const char *const names[3] = { "mail/alternative-qp.eml",
	    "mail/html-only.eml", "mail/attachments-two.eml" };
	struct thread_job	 jobs[4];
	pthread_t		 tid[4];
	char			*raw[3];
	size_t			 len[3];
	int			 i, k;

	(void)state;
	for (k = 0; k < 3; k++)
		raw[k] = test_read_data(names[k], &len[k]);
	for (i = 0; i < 4; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		for (k = 0; k < 3; k++) {
			jobs[i].raw[k] = raw[k];
			jobs[i].len[k] = len[k];
		}
		assert_int_equal(pthread_create(&tid[i], NULL, thread_parse,
		    &jobs[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(tid[i], NULL), 0);
		assert_int_equal(jobs[i].bad, 0);
	}
	for (k = 0; k < 3; k++)
		free(raw[k]);
}

/* A reply without a key: the token, quoted or not, and the first line. */
static void
test_reply_token(void **state)
{
	static const char	snail[] =
	    "From: bob@x.test\nTo: c@x.test\nSubject: Re: move\n\n"
	    "corrchess <c@x.test> wrote:\n\n\tHello\n\n"
	    "\t    corrchess-token: UpORJinPdxyl6maQgvF4qA\n\n"
	    "\tcorrchess-v1\n\tgame: 1\n\tply: 1\n\tplayer: bob\n"
	    "\taction: move \n"
	    "Cf6 \nMerci\n";
	static const char	mutt[] =
	    "From: bob@x.test\nTo: c@x.test\nSubject: Re: move\n\n"
	    "  e5 offer-draw\n\n> > corrchess-token:  abcdefghij0123456789-_ \n";
	struct mail_message	m;
	char			err[128], tok[MAIL_TOKEN_SIZE];
	char			act[MAIL_REPLY_ACTION_SIZE];

	(void)state;
	assert_int_equal(mail_parse(snail, sizeof snail - 1, &m, err,
	    sizeof err), 0);
	assert_string_equal(m.token, "UpORJinPdxyl6maQgvF4qA");
	assert_string_equal(m.reply_action, "move Cf6");
	mail_message_free(&m);
	assert_int_equal(mail_parse(mutt, sizeof mutt - 1, &m, err,
	    sizeof err), 0);
	assert_string_equal(m.token, "abcdefghij0123456789-_");
	assert_string_equal(m.reply_action, "move e5 offer-draw");
	mail_message_free(&m);
	/* Too short, or more than a token on its line: no token. */
	assert_int_equal(mail_reply_token("corrchess-token: abc\n", 21, tok),
	    -1);
	assert_int_equal(mail_reply_token(
	    "corrchess-token: abcdefghij0123456789 x\n", 40, tok), -1);
	assert_string_equal(tok, "");
	assert_int_equal(mail_reply_action("\n resign \n", 10, act), 0);
	assert_string_equal(act, "resign");
	assert_int_equal(mail_reply_action("\n\n", 2, act), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_alternative_qp),
		cmocka_unit_test(test_html_only),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_latin1),
		cmocka_unit_test(test_attachment),
		cmocka_unit_test(test_attachments_two),
		cmocka_unit_test(test_thunderbird_flowed),
		cmocka_unit_test(test_rewrapped),
		cmocka_unit_test(test_flowed_delsp),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_sigline_split),
		cmocka_unit_test(test_body_and_sig),
		cmocka_unit_test(test_unquoted_template),
		cmocka_unit_test(test_no_statement),
		cmocka_unit_test(test_bad_statement),
		cmocka_unit_test(test_bounce),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_joined_block),
		cmocka_unit_test(test_bad_prefers_parsed),
		cmocka_unit_test(test_two_pairs),
		cmocka_unit_test(test_find_quoted),
		cmocka_unit_test(test_html_to_text),
		cmocka_unit_test(test_thread_game),
		cmocka_unit_test(test_reply_token),
	};

	if (sig_init() != 0)
		return 1;
	return cmocka_run_group_tests_name("mail_parse", tests, NULL, NULL);
}
