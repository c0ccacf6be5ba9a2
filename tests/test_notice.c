/*
 * tests/test_notice.c: tests of the notices' content.
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
 * notice: every kind of mail in English and French, read back with GMime's
 * parser: headers, the thread, the text (board, moves, ready statement)
 * and the PGN attachment.
 */

#include "config.h"

#include <gmime/gmime.h>

#include "letters/mail_parse.h"
#include "letters/notice.h"
#include "testutil.h"

#define DOMAIN		"club.example"
#define DATE		INT64_C(1795000000)	/* 2026-11-18T11:06:40Z */

static const char *const ruy[] = { "e4", "e5", "Nf3", "Nc6", "Bb5", "a6",
    "Ba4", "Nf6", "O-O", "Be7" };

static const char pgn_text[] =
    "[Event \"Club championship\"]\n[White \"alice\"]\n[Black \"bob\"]\n"
    "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n";

/* A mail read back: the GMime message, its text and its attachment. */
struct readback {
	GMimeMessage	*msg;
	char		*text;		/* the text/plain part, decoded */
	GMimePart	*pgn;		/* the attachment, or NULL */
	char		*pgn_text;	/* its decoded content */
	int		 nparts;
};

/* The game after 10 plies, White (alice, full name with accents) to move. */
static struct notice
fixture(enum notice_kind kind, enum chess_lang lang)
{
	struct notice n;

	memset(&n, 0, sizeof n);
	n.kind = kind;
	n.from = "corrchess <chess@club.example>";
	n.reply_to = "moves@club.example";
	n.domain = DOMAIN;
	n.date = DATE;
	n.recipient = CHESS_WHITE;
	n.game_id = 42;
	n.players[CHESS_WHITE] = (struct notice_player){ "alice",
	    "\xc3\x89lodie Dupr\xc3\xa9", "alice@example.org", lang };
	n.players[CHESS_BLACK] = (struct notice_player){ "bob", NULL,
	    "bob@example.net", CHESS_LANG_EN };
	n.actor = -1;
	n.san = ruy;
	n.nply = 10;
	n.draw_offer = -1;
	n.time_control = "10/50d";
	n.clock[CHESS_WHITE] = 12 * 86400 + 3 * 3600;
	n.clock[CHESS_BLACK] = 30 * 86400;
	n.deadline = DATE + 2 * 86400 + 3 * 3600;
	n.pgn = pgn_text;
	n.pgn_len = sizeof pgn_text - 1;
	return n;
}

/* A notice about a player's account: to an address, no game. */
static void
notify_fixture_account(struct notice *n, enum notice_kind kind,
    const char *to, enum chess_lang lang)
{
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->from = "corrchess <chess@club.example>";
	n->domain = DOMAIN;
	n->date = DATE;
	n->recipient = -1;
	n->to_email = to;
	n->to_name = "alice";
	n->to_lang = lang;
	n->actor = -1;
	n->draw_offer = -1;
	n->clock[0] = n->clock[1] = -1;
}

/* Compose n; the test fails with the reason when it is refused. */
static struct notice_mail
compose(const struct notice *n)
{
	struct notice_mail	m;
	char			err[256] = "";

	if (notice_compose(n, &m, err, sizeof err) != 0)
		fail_msg("notice_compose: %s", err);
	assert_non_null(m.data);
	assert_int_equal(strlen(m.data), m.len);
	return m;
}

/* Every line ends with CRLF, no line is longer than RFC 5322's 998. */
static void
check_crlf(const char *s, size_t len)
{
	size_t i, col = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n') {
			assert_true(i > 0 && s[i - 1] == '\r');
			col = 0;
		} else if (++col > 998)
			fail_msg("line longer than 998 at %zu", i);
	}
	assert_true(len >= 2 && s[len - 2] == '\r' && s[len - 1] == '\n');
}

/* True if the raw header block has a header `name`. */
static bool
has_header(const char *data, const char *name)
{
	char		 want[64];
	const char	*end = strstr(data, "\r\n\r\n");

	snprintf(want, sizeof want, "\r\n%s: ", name);
	if (strncmp(data, want + 2, strlen(want) - 2) == 0)
		return true;
	return end != NULL && strstr(data, want) != NULL &&
	    strstr(data, want) < end;
}

/* Turn CRLF into LF in place (GMime hands the text as it was sent). */
static void
crlf_to_lf(char *s)
{
	char *o = s;

	for (; *s != '\0'; s++)
		if (!(s[0] == '\r' && s[1] == '\n'))
			*o++ = *s;
	*o = '\0';
}

/* Parse a composed mail with GMime and find its parts. */
static void
readback(const struct notice_mail *m, struct readback *rb)
{
	GMimeStream		*s;
	GMimeParser		*p;
	GMimeObject		*body, *part;
	GMimeDataWrapper	*w;
	GMimeStream		*mem;
	GByteArray		*ba;
	int			 i;

	memset(rb, 0, sizeof *rb);
	s = g_mime_stream_mem_new_with_buffer(m->data, m->len);
	p = g_mime_parser_new_with_stream(s);
	rb->msg = g_mime_parser_construct_message(p, NULL);
	g_object_unref(p);
	g_object_unref(s);
	assert_non_null(rb->msg);
	body = g_mime_message_get_mime_part(rb->msg);
	assert_true(GMIME_IS_MULTIPART(body));
	assert_true(g_mime_content_type_is_type(
	    g_mime_object_get_content_type(body), "multipart", "mixed"));
	rb->nparts = g_mime_multipart_get_count(GMIME_MULTIPART(body));
	for (i = 0; i < rb->nparts; i++) {
		part = g_mime_multipart_get_part(GMIME_MULTIPART(body), i);
		if (GMIME_IS_TEXT_PART(part) && g_mime_content_type_is_type(
		    g_mime_object_get_content_type(part), "text", "plain")) {
			assert_null(rb->text);
			assert_string_equal(g_mime_text_part_get_charset(
			    GMIME_TEXT_PART(part)), "utf-8");
			rb->text = g_mime_text_part_get_text(
			    GMIME_TEXT_PART(part));
			assert_non_null(rb->text);
			crlf_to_lf(rb->text);
		} else if (GMIME_IS_PART(part) && g_mime_content_type_is_type(
		    g_mime_object_get_content_type(part), "application",
		    "x-chess-pgn")) {
			rb->pgn = GMIME_PART(part);
			w = g_mime_part_get_content(rb->pgn);
			mem = g_mime_stream_mem_new();
			g_mime_data_wrapper_write_to_stream(w, mem);
			ba = g_mime_stream_mem_get_byte_array(
			    GMIME_STREAM_MEM(mem));
			rb->pgn_text = g_strndup((const char *)ba->data,
			    ba->len);
			crlf_to_lf(rb->pgn_text);
			g_object_unref(mem);
		}
	}
	assert_non_null(rb->text);
}

/* Release what readback() made. */
static void
readback_free(struct readback *rb)
{
	g_free(rb->text);
	g_free(rb->pgn_text);
	if (rb->msg != NULL)
		g_object_unref(rb->msg);
	memset(rb, 0, sizeof *rb);
}

/* The text holds `s`; the test fails showing the text when it does not. */
static void
text_has(const struct readback *rb, const char *s)
{
	if (strstr(rb->text, s) == NULL)
		fail_msg("text lacks \"%s\":\n%s", s, rb->text);
}

/* The text, its line breaks read as blanks, holds the sentence `s`. */
static void
prose_has(const struct readback *rb, const char *s)
{
	char *flat, *p;

	flat = g_strdup(rb->text);
	for (p = flat; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	if (strstr(flat, s) == NULL)
		fail_msg("text lacks \"%s\":\n%s", s, rb->text);
	g_free(flat);
}

/* Expected subjects and sentences of every kind, in both languages. */
static const struct {
	enum notice_kind	 kind;
	enum chess_lang		 lang;
	const char		*subject;
	const char		*sentence;
	bool			 ready;		/* a statement to fill in */
} kinds[] = {
	{ NOTICE_NEW_GAME, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: new game, you play White",
	  "A new correspondence game has started. You play White.", true },
	{ NOTICE_NEW_GAME, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : nouvelle partie, vous avez "
	  "les Blancs",
	  "Une nouvelle partie par correspondance commence. Vous avez les "
	  "Blancs.", true },
	{ NOTICE_MOVED, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: 5... Be7",
	  "bob played 5... Be7.", true },
	{ NOTICE_MOVED, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : 5... Fe7",
	  "bob a jou\xc3\xa9 5... Fe7.", true },
	{ NOTICE_DRAW_OFFERED, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: 5... Be7, draw offered",
	  "bob played 5... Be7 and offers a draw.", true },
	{ NOTICE_DRAW_OFFERED, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : 5... Fe7, nulle "
	  "propos\xc3\xa9\x65",
	  "bob a jou\xc3\xa9 5... Fe7 et propose la nulle.", true },
	{ NOTICE_DRAW_ACCEPTED, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: draw agreed, 1/2-1/2",
	  "bob accepted the draw offer. The game is drawn: 1/2-1/2.", false },
	{ NOTICE_DRAW_ACCEPTED, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : nulle accept\xc3\xa9\x65, "
	  "1/2-1/2",
	  "bob a accept\xc3\xa9 la proposition de nulle.", false },
	{ NOTICE_DRAW_DECLINED, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: draw declined",
	  "bob declined the draw offer. The game goes on.", true },
	{ NOTICE_DRAW_DECLINED, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : nulle refus\xc3\xa9\x65",
	  "bob a refus\xc3\xa9 la proposition de nulle.", true },
	{ NOTICE_CLAIM, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: draw claimed, 1/2-1/2",
	  "bob claimed a draw (threefold repetition), and the claim holds.",
	  false },
	{ NOTICE_CLAIM, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : nulle r\xc3\xa9\x63lam\xc3\xa9\x65, "
	  "1/2-1/2",
	  "bob a r\xc3\xa9\x63lam\xc3\xa9 la nulle (triple r\xc3\xa9p\xc3\xa9tition)",
	  false },
	{ NOTICE_GAME_OVER, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: 0-1, resignation",
	  "The game is over: 0-1, Black wins (resignation).", false },
	{ NOTICE_GAME_OVER, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : 0-1, abandon",
	  "La partie est termin\xc3\xa9\x65 : 0-1, les Noirs gagnent (abandon).",
	  false },
	{ NOTICE_REMINDER, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: your move, 2d 3h left",
	  "It is your move, and your time runs out at 2026-11-20T14:06:40Z "
	  "(in 2d 3h).", true },
	{ NOTICE_REMINDER, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : \xc3\xa0 vous de jouer, il "
	  "reste 2 j 3 h",
	  "C'est \xc3\xa0 vous de jouer, et votre temps s'\xc3\xa9\x63oule le "
	  "2026-11-20T14:06:40Z (dans 2 j 3 h).", true },
	{ NOTICE_REFUSED, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: not accepted",
	  "Your move was not accepted: Illegal move: no knight can reach e5.",
	  true },
	{ NOTICE_REFUSED, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : refus\xc3\xa9",
	  "Votre coup n'a pas été accepté (coup illégal) : aucun cavalier "
	  "blanc ne peut aller en e5.", true },
	{ NOTICE_HOWTO, CHESS_LANG_EN,
	  "[corrchess] Game 42, alice v bob: how to send a move",
	  "Your mail holds no signed statement, so nothing was done.", true },
	{ NOTICE_HOWTO, CHESS_LANG_FR,
	  "[corrchess] Partie 42, alice c. bob : comment envoyer un coup",
	  "Votre courriel ne contient aucune d\xc3\xa9\x63laration sign\xc3\xa9\x65",
	  true },
};

/* A game the admin ended: the reason in the reader's language, no result
 * for an abort, and no statement to sign. */
static void
test_admin_reason(void **state)
{
	struct readback		rb;
	struct notice		n;
	struct notice_mail	m;
	int			fr;

	(void)state;
	for (fr = 0; fr < 2; fr++) {
		n = fixture(NOTICE_GAME_OVER, fr ? CHESS_LANG_FR :
		    CHESS_LANG_EN);
		n.result = "*";
		n.termination = "aborted";
		n.admin_reason = "made by mistake";
		m = compose(&n);
		readback(&m, &rb);
		prose_has(&rb, fr ? "La partie est termin\xc3\xa9\x65 : *, sans "
		    "r\xc3\xa9sultat (annul\xc3\xa9\x65 par l'administrateur du "
		    "club)." : "The game is over: *, no result (aborted by the "
		    "club's admin).");
		prose_has(&rb, fr ? "Motif donn\xc3\xa9 par l'administrateur du "
		    "club : made by mistake" : "The club's admin gave this "
		    "reason: made by mistake");
		assert_null(strstr(rb.text, "action: move"));
		readback_free(&rb);
		notice_mail_free(&m);
	}
}

/* The actor's message, in the reader's language, below the opening line;
 * the statement's sixth line said; none when there is no message. */
static void
test_message(void **state)
{
	struct readback		rb;
	struct notice		n;
	struct notice_mail	m;
	int			fr;

	(void)state;
	for (fr = 0; fr < 2; fr++) {
		n = fixture(NOTICE_MOVED, fr ? CHESS_LANG_FR : CHESS_LANG_EN);
		n.message = "Bonne partie ! <3 & \xc3\xa0 bient\xc3\xb4t";
		m = compose(&n);
		readback(&m, &rb);
		prose_has(&rb, fr ? "bob \xc3\xa9\x63rit : \xc2\xab Bonne "
		    "partie ! <3 & \xc3\xa0 bient\xc3\xb4t \xc2\xbb" :
		    "bob writes: \"Bonne partie ! <3 & \xc3\xa0 "
		    "bient\xc3\xb4t\"");
		prose_has(&rb, fr ? "Un court message \xc3\xa0 votre "
		    "adversaire peut suivre sur une sixi\xc3\xa8me ligne" :
		    "A short message to your opponent may follow on a sixth "
		    "line");
		readback_free(&rb);
		notice_mail_free(&m);
		n.message = NULL;
		m = compose(&n);
		readback(&m, &rb);
		assert_null(strstr(rb.text, fr ? "\xc3\xa9\x63rit :" :
		    "writes:"));
		readback_free(&rb);
		notice_mail_free(&m);
	}
}

/* Each kind in each language: headers, thread, text, attachment. */
static void
test_kinds(void **state)
{
	char			 root[NOTICE_ID_SIZE], want[NOTICE_ID_SIZE + 8];
	struct readback		 rb;
	struct notice		 n;
	struct notice_mail	 m;
	InternetAddressList	*to;
	InternetAddress		*a;
	const char		*v;
	size_t			 i;
	bool			 fr, over;

	(void)state;
	notice_thread_root(42, CHESS_WHITE, DOMAIN, root, sizeof root);
	assert_string_equal(root, "game-42.white@club.example");
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		fr = kinds[i].lang == CHESS_LANG_FR;
		n = fixture(kinds[i].kind, kinds[i].lang);
		if (n.kind == NOTICE_NEW_GAME)
			n.nply = 0;
		if (n.kind == NOTICE_DRAW_OFFERED)
			n.draw_offer = CHESS_BLACK;
		if (n.kind == NOTICE_DRAW_ACCEPTED) {
			n.result = "1/2-1/2";
			n.termination = "agreement";
		}
		if (n.kind == NOTICE_CLAIM) {
			n.result = "1/2-1/2";
			n.termination = "threefold-repetition";
		}
		if (n.kind == NOTICE_GAME_OVER) {
			n.result = "0-1";
			n.termination = "resignation";
		}
		if (n.kind == NOTICE_REFUSED) {
			/* The service's sentence, in the player's language
			 * (the rules core's reason for Ne5 / Ce5). */
			n.reason = fr ? "aucun cavalier blanc ne peut aller "
			    "en e5" : "Illegal move: no knight can reach e5.";
			n.reason_code = "illegal-move";
			n.answered_id = "CAB4x9=Yk2@mail.example.org";
		}
		if (n.kind == NOTICE_HOWTO)
			n.answered_id = "nostmt.15@mail.example.org";
		over = n.result != NULL;
		m = compose(&n);
		check_crlf(m.data, m.len);
		assert_string_equal(m.to, "alice@example.org");

		/* Headers, raw. */
		assert_true(has_header(m.data, "Subject"));
		assert_true(has_header(m.data, "From"));
		assert_true(has_header(m.data, "To"));
		assert_true(has_header(m.data, "Reply-To"));
		assert_true(has_header(m.data, "Date"));
		assert_true(has_header(m.data, "Message-Id") ||
		    has_header(m.data, "Message-ID"));
		assert_true(has_header(m.data, "MIME-Version"));
		assert_true(has_header(m.data, "Content-Type"));
		assert_true(has_header(m.data, "Auto-Submitted"));
		assert_int_equal(has_header(m.data, "In-Reply-To"),
		    n.kind != NOTICE_NEW_GAME);
		assert_int_equal(has_header(m.data, "References"),
		    n.kind != NOTICE_NEW_GAME);

		/* Headers, parsed. */
		readback(&m, &rb);
		assert_string_equal(g_mime_message_get_subject(rb.msg),
		    kinds[i].subject);
		assert_string_equal(g_mime_message_get_message_id(rb.msg),
		    m.message_id);
		assert_non_null(strstr(m.data, fr ?
		    "\r\nContent-Language: fr\r\n" :
		    "\r\nContent-Language: en\r\n"));
		v = g_mime_object_get_header(GMIME_OBJECT(rb.msg),
		    "X-Corrchess-Game");
		assert_string_equal(v, "42");
		to = g_mime_message_get_to(rb.msg);
		assert_int_equal(internet_address_list_length(to), 1);
		a = internet_address_list_get_address(to, 0);
		assert_string_equal(internet_address_get_name(a),
		    "\xc3\x89lodie Dupr\xc3\xa9");
		assert_string_equal(internet_address_mailbox_get_addr(
		    INTERNET_ADDRESS_MAILBOX(a)), "alice@example.org");
		a = internet_address_list_get_address(
		    g_mime_message_get_from(rb.msg), 0);
		assert_string_equal(internet_address_mailbox_get_addr(
		    INTERNET_ADDRESS_MAILBOX(a)), "chess@club.example");
		a = internet_address_list_get_address(
		    g_mime_message_get_reply_to(rb.msg), 0);
		assert_string_equal(internet_address_mailbox_get_addr(
		    INTERNET_ADDRESS_MAILBOX(a)), "moves@club.example");
		assert_true(g_date_time_to_unix(
		    g_mime_message_get_date(rb.msg)) == DATE);

		/* The thread. */
		v = g_mime_object_get_header(GMIME_OBJECT(rb.msg),
		    "In-Reply-To");
		if (n.kind == NOTICE_NEW_GAME)
			assert_string_equal(m.message_id, root);
		else if (n.answered_id != NULL) {
			snprintf(want, sizeof want, "<%s>", n.answered_id);
			assert_string_equal(v, want);
			v = g_mime_object_get_header(GMIME_OBJECT(rb.msg),
			    "References");
			assert_non_null(strstr(v, root));
			assert_non_null(strstr(v, n.answered_id));
			assert_true(strstr(v, root) < strstr(v, n.answered_id));
		} else {
			snprintf(want, sizeof want, "<%s>", root);
			assert_string_equal(v, want);
			assert_string_equal(g_mime_object_get_header(
			    GMIME_OBJECT(rb.msg), "References"), want);
			assert_true(strncmp(m.message_id, "game-42.p10.",
			    12) == 0);
			assert_non_null(strstr(m.message_id, "@" DOMAIN));
		}

		/* The text. */
		prose_has(&rb, kinds[i].sentence);
		text_has(&rb, fr ? "Bonjour \xc3\x89lodie Dupr\xc3\xa9,\n" :
		    "Hello \xc3\x89lodie Dupr\xc3\xa9,\n");
		text_has(&rb, fr ? "Partie 42 : alice (Blancs) c. bob (Noirs)" :
		    "Game 42: alice (White) v bob (Black)");
		/* The board in the reader's letters; in French with
		 * their key, as R is the French king. */
		if (n.nply == 0) {
			text_has(&rb, fr ? "    8 t c f d r f c t\n" :
			    "    8 r n b q k b n r\n");
			text_has(&rb, fr ? "    1 T C F D R F C T\n" :
			    "    1 R N B Q K B N R\n");
		} else {
			text_has(&rb, fr ? "    8 t . f d r . . t\n" :
			    "    8 r . b q k . . r\n");
			text_has(&rb, fr ? "    1 T C F D . T R .\n" :
			    "    1 R N B Q . R K .\n");
			text_has(&rb, fr ? "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 "
			    "4. Fa4 Cf6 5. O-O Fe7" :
			    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O "
			    "Be7");
		}
		text_has(&rb, "      a b c d e f g h\n");
		if (fr)
			text_has(&rb, "      a b c d e f g h\n    R roi, D "
			    "dame, T tour, F fou, C cavalier, P pion ; "
			    "majuscules : Blancs\n\n");
		else
			assert_null(strstr(rb.text, "king"));
		text_has(&rb, fr ? "Cadence : 10 coups en 50 jours\n" :
		    "Time control: 10 moves in 50 days\n");
		assert_null(strstr(rb.text, "10/50d"));
		if (kinds[i].ready) {
			snprintf(want, sizeof want, "corrchess-v1\ngame: 42\n"
			    "ply: %zu\nplayer: alice\naction: move \n", n.nply);
			text_has(&rb, want);
			text_has(&rb, "ssh-keygen -Y sign -n corrchess -f "
			    "~/.ssh/id_ed25519 move.txt");
			snprintf(want, sizeof want, "corrchess sign --game 42 "
			    "--ply %zu --player alice move", n.nply);
			text_has(&rb, want);
			text_has(&rb, fr ? "Temps restant : Blancs (alice) "
			    "12 j 3 h, Noirs (bob) 30 j" : "Time left: White "
			    "(alice) 12d 3h, Black (bob) 30d");
			/* Every action is listed, leave too. */
			prose_has(&rb, fr ? "« leave AAAA-MM-JJ AAAA-MM-JJ »" :
			    "\"leave YYYY-MM-DD YYYY-MM-DD\"");
		} else {
			assert_null(strstr(rb.text, "corrchess-v1"));
			text_has(&rb, over && fr ? "R\xc3\xa9sultat : " :
			    "Result: ");
		}
		if (fr)
			assert_null(strstr(rb.text, "Message du serveur"));

		/* The attachment. */
		assert_int_equal(rb.nparts, 2);
		assert_non_null(rb.pgn);
		assert_string_equal(g_mime_part_get_filename(rb.pgn),
		    "game-42.pgn");
		assert_true(g_mime_part_is_attachment(rb.pgn));
		assert_string_equal(rb.pgn_text, pgn_text);

		readback_free(&rb);
		notice_mail_free(&m);
	}
	notice_mail_free(&m);		/* a zeroed struct */
}

/* A refusal quotes the service's sentence as given; in French it says
 * first what was refused, in French, when the code is known. */
static void
test_refused_reasons(void **state)
{
	static const struct {
		enum chess_lang	 lang;
		const char	*code;
		const char	*reason;
		const char	*sentence;
	} t[] = {
		{ CHESS_LANG_FR, "not-your-turn", "c'est aux Noirs de jouer",
		  "Votre coup n'a pas été accepté (ce n'est pas votre tour) : "
		  "c'est aux Noirs de jouer." },
		{ CHESS_LANG_FR, "bad-move", "ce n'est pas un coup (essayez la "
		  "notation algébrique : Cf3, e2e4, e2-e4, 5254)",
		  "Votre coup n'a pas été accepté (coup illisible) : ce n'est "
		  "pas un coup (essayez la notation algébrique : Cf3, e2e4, "
		  "e2-e4, 5254)." },
		{ CHESS_LANG_FR, "illegal-move", "un pion ne peut pas être "
		  "promu en roi ; en français, R est le roi : une tour s'écrit "
		  "T (e8=T)",
		  "Votre coup n'a pas été accepté (coup illégal) : un pion ne "
		  "peut pas être promu en roi ; en français, R est le roi : "
		  "une tour s'écrit T (e8=T)." },
		/* No sentence: the code in words. */
		{ CHESS_LANG_FR, "bad-signature", NULL,
		  "Votre coup n'a pas été accepté : signature invalide." },
		{ CHESS_LANG_FR, "stopping", "",
		  "Votre coup n'a pas été accepté : le serveur s'arrête." },
		/* A code without French words: the sentence alone. */
		{ CHESS_LANG_FR, "some-new-code", "la raison.",
		  "Votre coup n'a pas été accepté : la raison." },
		{ CHESS_LANG_FR, NULL, NULL,
		  "Votre coup n'a pas été accepté : raison non précisée." },
		{ CHESS_LANG_EN, NULL, "",
		  "Your move was not accepted: no reason given." },
		{ CHESS_LANG_EN, "not-your-turn", "it is Black's move",
		  "Your move was not accepted: it is Black's move." },
		{ CHESS_LANG_EN, "stale-ply", "the statement is for ply 3 but "
		  "game 42 is at ply 10: sign a statement for ply 10",
		  "Your move was not accepted: the statement is for ply 3 but "
		  "game 42 is at ply 10: sign a statement for ply 10." },
		{ CHESS_LANG_EN, "bad-signature", NULL,
		  "Your move was not accepted: bad-signature." },
	};
	struct readback		 rb;
	struct notice		 n;
	struct notice_mail	 m;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		n = fixture(NOTICE_REFUSED, t[i].lang);
		n.reason = t[i].reason;
		n.reason_code = t[i].code;
		n.answered_id = "r.1@mail.example.org";
		m = compose(&n);
		readback(&m, &rb);
		prose_has(&rb, t[i].sentence);
		readback_free(&rb);
		notice_mail_free(&m);
	}

	/* Wrapped French prose keeps a number with its unit ("2 j"). */
	for (i = 0; i < 40; i++) {
		char		 reason[512];
		const char	*p;

		snprintf(reason, sizeof reason, "%.*s 1 j 2 h 3 min 4 s, 1 j "
		    "2 h 3 min 4 s, 1 j 2 h 3 min 4 s, 1 j 2 h 3 min 4 s, 1 j "
		    "2 h 3 min 4 s, 1 j 2 h 3 min 4 s", (int)i,
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		n = fixture(NOTICE_REFUSED, CHESS_LANG_FR);
		n.reason = reason;
		n.reason_code = "late-move";
		m = compose(&n);
		readback(&m, &rb);
		prose_has(&rb, reason);
		for (p = rb.text; (p = strchr(p + 1, '\n')) != NULL;) {
			if (p[-1] >= '0' && p[-1] <= '9' && strchr("jhms",
			    p[1]) != NULL && p[1] != '\0')
				fail_msg("unit cut from its number:\n%s",
				    rb.text);
		}
		readback_free(&rb);
		notice_mail_free(&m);
	}
}

/* Non-ASCII headers are RFC 2047 encoded words; the body is 7-bit safe. */
static void
test_encoding(void **state)
{
	struct notice		 n;
	struct notice_mail	 m;
	const char		*end, *subject, *hend;
	size_t			 i;

	(void)state;
	n = fixture(NOTICE_DRAW_OFFERED, CHESS_LANG_FR);
	n.draw_offer = CHESS_BLACK;
	n.from = "Club d'\xc3\xa9\x63hecs <chess@club.example>";
	m = compose(&n);
	end = strstr(m.data, "\r\n\r\n");
	assert_non_null(end);
	/* Every byte of the whole mail is ASCII (QP text, encoded words). */
	for (i = 0; i < m.len; i++)
		assert_true((unsigned char)m.data[i] < 0x80);
	subject = strstr(m.data, "\r\nSubject: ");
	assert_non_null(subject);
	/* The header ends at the first line end not followed by a blank. */
	for (hend = subject + 2; (hend = strstr(hend, "\r\n")) != NULL &&
	    (hend[2] == ' ' || hend[2] == '\t'); hend += 2)
		;
	assert_non_null(hend);
	assert_non_null(strstr(subject, "=?"));
	assert_true(strstr(subject, "=?") < hend);
	assert_non_null(strstr(m.data, "Content-Transfer-Encoding: "
	    "quoted-printable"));
	assert_non_null(strstr(m.data, "charset=utf-8"));
	notice_mail_free(&m);

	/* An English notice to bob (no accents anywhere): 7bit. */
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.recipient = CHESS_BLACK;
	n.nply = 9;
	m = compose(&n);
	assert_non_null(strstr(m.data, "\r\nSubject: [corrchess] Game 42, "
	    "alice v bob: 5. O-O\r\n"));
	assert_non_null(strstr(m.data, "Content-Transfer-Encoding: 7bit"));
	notice_mail_free(&m);
}

/* Conditional moves: the owner is told what was played and what is left,
 * or what was recorded, in their language. */
static void
test_conditional(void **state)
{
	struct notice		 n;
	struct notice_mail	 m;
	struct readback		 rb;

	(void)state;
	n = fixture(NOTICE_CONDITIONAL, CHESS_LANG_EN);
	n.cond_event = NOTICE_COND_PLAYED;
	n.cond_played = "Nc6 Bb5";
	n.cond_lines = "a6 Ba4; Nf6 O-O";
	m = compose(&n);
	readback(&m, &rb);
	assert_non_null(strstr(m.data, "alice v bob: your conditional "
	    "moves\r\n"));
	prose_has(&rb, "bob played Nc6, and your conditional move Bb5 was "
	    "played in answer.");
	prose_has(&rb, "Lines left: a6 Ba4; Nf6 O-O");
	readback_free(&rb);
	notice_mail_free(&m);

	n.cond_lines = NULL;
	m = compose(&n);
	readback(&m, &rb);
	prose_has(&rb, "Nothing is left of your conditional moves.");
	readback_free(&rb);
	notice_mail_free(&m);

	/* In French, the moves in French letters. */
	n = fixture(NOTICE_CONDITIONAL, CHESS_LANG_FR);
	n.cond_event = NOTICE_COND_RECORDED;
	n.cond_lines = "e5 Nf3 Nc6 Bb5; c5 Nf3";
	m = compose(&n);
	readback(&m, &rb);
	prose_has(&rb, "Vos coups conditionnels sont enregistrés ; votre "
	    "adversaire ne les voit pas tant qu'aucun n'est joué. Vos lignes "
	    ": e5 Cf3 Cc6 Fb5; c5 Cf3");
	readback_free(&rb);
	notice_mail_free(&m);

	n.cond_event = NOTICE_COND_PLAYED;
	n.cond_played = "Nc6 Bb5";
	n.cond_lines = "a6 Ba4; Nf6 O-O";
	m = compose(&n);
	readback(&m, &rb);
	prose_has(&rb, "a joué Cc6, et votre coup conditionnel Fb5 a été joué "
	    "en réponse.");
	prose_has(&rb, "Lignes restantes : a6 Fa4; Cf6 O-O");
	readback_free(&rb);
	notice_mail_free(&m);
}

/* A player's own statement: what it did, at their address; the code of
 * an address change, at the new one, with the statement to sign. */
static void
test_account(void **state)
{
	struct notice		 n;
	struct notice_mail	 m;
	struct readback		 rb;

	(void)state;
	notify_fixture_account(&n, NOTICE_ACCOUNT, "alice@example.org",
	    CHESS_LANG_EN);
	n.account_action = "set lang en";
	n.account_summary = "email: alice@example.org\nlang: en\n";
	m = compose(&n);
	readback(&m, &rb);
	assert_non_null(strstr(m.data, "\r\nSubject: [corrchess] your "
	    "account\r\n"));
	assert_string_equal(m.to, "alice@example.org");
	prose_has(&rb, "The server accepted your signed statement \"set lang "
	    "en\".");
	assert_non_null(strstr(rb.text, "\nlang: en\n"));
	prose_has(&rb, "If you did not sign it, your key is in other hands");
	readback_free(&rb);
	notice_mail_free(&m);

	notify_fixture_account(&n, NOTICE_EMAIL_CODE, "new@example.net",
	    CHESS_LANG_FR);
	n.account_action = "K7QXM2PD";
	n.account_summary = "corrchess-v1\ngame: 0\nply: 4\nplayer: alice\n"
	    "action: confirm-email K7QXM2PD\n";
	n.deadline = DATE + 2 * 86400;
	m = compose(&n);
	readback(&m, &rb);
	assert_string_equal(m.to, "new@example.net");
	prose_has(&rb, "Le code qui le confirme est K7QXM2PD");
	assert_non_null(strstr(rb.text, "\naction: confirm-email K7QXM2PD\n"));
	readback_free(&rb);
	notice_mail_free(&m);
}

/* Black's view: the board flipped, the ready statement for bob. */
static void
test_black_side(void **state)
{
	struct readback		 rb;
	struct notice		 n;
	struct notice_mail	 m;

	(void)state;
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.recipient = CHESS_BLACK;
	n.nply = 9;
	m = compose(&n);
	assert_string_equal(m.to, "bob@example.net");
	readback(&m, &rb);
	text_has(&rb, "Hello bob,");
	text_has(&rb, "alice played 5. O-O.");
	text_has(&rb, "    1 . K R . Q B N R\n");
	text_has(&rb, "      h g f e d c b a\n");
	text_has(&rb, "To move: bob (Black), move 5.");
	text_has(&rb, "corrchess-v1\ngame: 42\nply: 9\nplayer: bob\n"
	    "action: move \n");
	readback_free(&rb);
	notice_mail_free(&m);

	/* ICCF clocks: each side's moves to the next control. */
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.to_control[CHESS_WHITE] = 5;
	n.to_control[CHESS_BLACK] = 6;
	m = compose(&n);
	readback(&m, &rb);
	prose_has(&rb, "Time left: White (alice) 12d 3h (5 moves to the "
	    "control), Black (bob) 30d (6 moves to the control)");
	readback_free(&rb);
	notice_mail_free(&m);
	n = fixture(NOTICE_MOVED, CHESS_LANG_FR);
	n.to_control[CHESS_WHITE] = 5;
	n.to_control[CHESS_BLACK] = 6;
	m = compose(&n);
	readback(&m, &rb);
	prose_has(&rb, "Temps restant : Blancs (alice) 12 j 3 h (5 coups "
	    "jusqu'au contrôle), Noirs (bob) 30 j (6 coups jusqu'au "
	    "contrôle)");
	readback_free(&rb);
	notice_mail_free(&m);

	/* A new game seen by Black: White is to move, nothing to sign. */
	n = fixture(NOTICE_NEW_GAME, CHESS_LANG_EN);
	n.recipient = CHESS_BLACK;
	n.nply = 0;
	m = compose(&n);
	assert_string_equal(m.message_id, "game-42.black@club.example");
	readback(&m, &rb);
	text_has(&rb, "You play Black.");
	text_has(&rb, "It is alice's move; you will get a mail when it has "
	    "been played.");
	assert_null(strstr(rb.text, "corrchess-v1"));
	readback_free(&rb);
	notice_mail_free(&m);
}

/* A game from a set position with Black to move: move numbers follow. */
static void
test_start_position(void **state)
{
	static const char *const moves[] = { "Kd7", "Kf2", "Ke6" };
	struct readback		 rb;
	struct notice		 n;
	struct notice_mail	 m;

	(void)state;
	n = fixture(NOTICE_MOVED, CHESS_LANG_FR);
	n.start_fen = "4k3/8/8/8/8/8/8/R3K3 b Q - 0 30";
	n.san = moves;
	n.nply = 3;
	n.pgn = NULL;
	m = compose(&n);
	readback(&m, &rb);
	assert_int_equal(rb.nparts, 1);
	assert_null(rb.pgn);
	assert_string_equal(g_mime_message_get_subject(rb.msg),
	    "[corrchess] Partie 42, alice c. bob : 31... Re6");
	text_has(&rb, "Position de d\xc3\xa9part : 4k3/8/8/8/8/8/8/R3K3 b Q - "
	    "0 30");
	text_has(&rb, "30... Rd7 31. Rf2 Re6\n");
	text_has(&rb, "Au trait : alice (Blancs), coup 32.");
	readback_free(&rb);
	notice_mail_free(&m);
}

/* A how-to reply to an address that is no player, with no game. */
static void
test_howto_stranger(void **state)
{
	struct readback		 rb;
	struct notice		 n;
	struct notice_mail	 m;

	(void)state;
	memset(&n, 0, sizeof n);
	n.kind = NOTICE_HOWTO;
	n.from = "corrchess <chess@club.example>";
	n.domain = DOMAIN;
	n.date = DATE;
	n.recipient = -1;
	n.to_email = "someone@example.com";
	n.to_lang = CHESS_LANG_FR;
	n.answered_id = "q.1@example.com";
	n.answered_subject = "Question";
	n.draw_offer = -1;
	m = compose(&n);
	assert_false(has_header(m.data, "X-Corrchess-Game"));
	assert_false(has_header(m.data, "Reply-To"));
	readback(&m, &rb);
	assert_string_equal(g_mime_message_get_subject(rb.msg),
	    "Re: Question");
	assert_string_equal(g_mime_object_get_header(GMIME_OBJECT(rb.msg),
	    "In-Reply-To"), "<q.1@example.com>");
	assert_string_equal(g_mime_object_get_header(GMIME_OBJECT(rb.msg),
	    "References"), "<q.1@example.com>");
	text_has(&rb, "Bonjour someone@example.com,");
	text_has(&rb, "corrchess-v1\ngame: 42\nply: 16\nplayer: alice\n"
	    "action: move Cf3\n");
	text_has(&rb, "corrchess sign --game PARTIE --ply PLY --player NOM "
	    "move COUP");
	assert_true(strncmp(m.message_id, "corrchess.", 10) == 0);
	readback_free(&rb);
	notice_mail_free(&m);
}

/* Fresh Message-IDs differ; a given one is used as it is. */
static void
test_message_ids(void **state)
{
	struct notice		 n;
	struct notice_mail	 a, b;

	(void)state;
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	a = compose(&n);
	b = compose(&n);
	assert_string_not_equal(a.message_id, b.message_id);
	notice_mail_free(&a);
	notice_mail_free(&b);
	n.message_id = "given.1@club.example";
	n.thread_root = "thread.1@club.example";
	a = compose(&n);
	assert_string_equal(a.message_id, "given.1@club.example");
	assert_non_null(strstr(a.data, "\r\nIn-Reply-To: "
	    "<thread.1@club.example>\r\n"));
	notice_mail_free(&a);
}

/* What cannot be composed is refused with a reason. */
static void
test_errors(void **state)
{
	static const char *const bad[] = { "e4", "e5", "Nf6" };
	struct notice		 n;
	struct notice_mail	 m;
	char			 err[256];

	(void)state;
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.san = bad;
	n.nply = 3;
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_string_equal(err, "move does not replay: Nf6");
	assert_null(m.data);

	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.players[CHESS_WHITE].email = NULL;
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_string_equal(err, "no address for the recipient");

	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.from = "";
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_non_null(strstr(err, "From"));

	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.domain = NULL;
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);

	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.start_fen = "not a fen";
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_non_null(strstr(err, "start FEN"));

	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	n.game_id = 0;
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);

	n = fixture((enum notice_kind)99, CHESS_LANG_EN);
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_string_equal(notice_kind_name((enum notice_kind)99), "unknown");
	assert_string_equal(notice_kind_name(NOTICE_HOWTO), "howto");
}

/*
 * The mail reader and the notices agree: a notice read by mail_parse()
 * has its sender and game thread, and its ready statement, left to fill
 * in, is no statement (the move is missing).
 */
static void
test_read_by_mail_parse(void **state)
{
	struct mail_message	 r;
	struct notice		 n;
	struct notice_mail	 m;
	char			 err[128];

	(void)state;
	n = fixture(NOTICE_MOVED, CHESS_LANG_EN);
	m = compose(&n);
	assert_int_equal(mail_parse(m.data, m.len, &r, err, sizeof err), 0);
	assert_string_equal(r.from, "chess@club.example");
	assert_string_equal(r.message_id, m.message_id);
	assert_true(mail_thread_game(&r, DOMAIN) == 42);
	assert_int_equal(r.found, MAIL_BAD_STATEMENT);
	assert_int_equal(r.error, SIG_EACTION_ARGS);
	mail_message_free(&r);
	notice_mail_free(&m);
}

/* The games of alice in a 4-player round robin, from her side. */
static const struct notice_event_game event_games[] = {
	{ 101, 1, CHESS_WHITE, "dave", "*", "" },
	{ 104, 2, CHESS_BLACK, "bob", "*", "" },
	{ 105, 3, CHESS_WHITE, "carol", "*", "" },
};

/* The round robin: alice, bob, carol, dave; rules as an admin sets them. */
static void
event_fixture(struct notice *n, struct notice_event *e,
    enum notice_event_what what, enum chess_lang lang)
{
	notify_fixture_account(n, NOTICE_EVENT, "alice@example.org", lang);
	memset(e, 0, sizeof *e);
	e->what = what;
	e->name = "club-2026";
	e->title = "Club championship 2026";
	e->format = "round-robin";
	e->nplayers = 4;
	e->time_control = "10/50d";
	e->variant = "standard";
	e->chess960 = -1;
	e->policy = "auto";
	e->rated = true;
	e->draw_min_move = 20;
	e->draw_offer_every = 5;
	e->leave_days = 30;
	e->withdrawal = "lose";
	e->mine = event_games;
	e->nmine = 3;
	n->event = e;
}

/* Compose a notice and read its subject and text back. */
static void
event_compose(const struct notice *n, char **subject, char **text)
{
	struct notice_mail	m;
	struct readback		rb;

	m = compose(n);
	check_crlf(m.data, m.len);
	assert_non_null(strstr(m.data, "\r\nX-Corrchess-Event: club-2026\r\n"));
	readback(&m, &rb);
	*subject = g_strdup(g_mime_message_get_subject(rb.msg));
	*text = g_strdup(rb.text);
	readback_free(&rb);
	notice_mail_free(&m);
}

/*
 * What the event's notices say, word for word: the start (English,
 * French); a withdrawal: a game won by default (English), annulled
 * (French), played before it (English); the end (English, French).
 */
static const struct {
	const char	*subject;
	const char	*text;
} event_want[] = {
	{ "[corrchess] Event Club championship 2026: it starts, your 3 games",
	    "Hello alice,\n"
	    "\n"
	    "The event Club championship 2026 (club-2026) has started: a round robin\n"
	    "of 4 players. All its games start now, each with its own mail.\n"
	    "\n"
	    "The rules of every game:\n"
	    "Time control: 10 moves in 50 days\n"
	    "Variant: standard chess.\n"
	    "No draw offer before move 20.\n"
	    "At most one draw offer per player every 5 moves.\n"
	    "Repetitions and the fifty-move rule end the game by themselves.\n"
	    "Leave: 30 days a calendar year.\n"
	    "Rated (Glicko-2).\n"
	    "If a player withdraws, their remaining games are lost.\n"
	    "\n"
	    "Your games (3):\n"
	    "Round 1, game 101: you play White against dave\n"
	    "Round 2, game 104: you play Black against bob\n"
	    "Round 3, game 105: you play White against carol\n"
	    "\n"
	    "Each game has its own mail, which holds the statement to sign: reply to\n"
	    "it to play, or use \"corrchess move GAME MOVE\". On the club's server, a\n"
	    "game's page is /games/GAME and the event's is /events/club-2026. When\n"
	    "the last game ends, every player gets the final standings.\n"
	    "\n"
	    "-- \n"
	    "corrchess, correspondence chess server\n" },
	{ "[corrchess] Épreuve Club championship 2026 : elle commence, vos 3 parties",
	    "Bonjour alice,\n"
	    "\n"
	    "L'épreuve Club championship 2026 (club-2026) a commencé : un tournoi\n"
	    "toutes rondes de 4 joueurs. Toutes ses parties commencent maintenant,\n"
	    "chacune avec son propre courriel.\n"
	    "\n"
	    "Les règles de chaque partie :\n"
	    "Cadence : 10 coups en 50 jours\n"
	    "Variante : échecs classiques.\n"
	    "Aucune proposition de nulle avant le coup 20.\n"
	    "Au plus une proposition de nulle par joueur tous les 5 coups.\n"
	    "Les répétitions et la règle des cinquante coups mettent fin à la partie\n"
	    "d'elles-mêmes.\n"
	    "Congé : 30 jours par année civile.\n"
	    "Comptée pour le classement (Glicko-2).\n"
	    "Si un joueur se retire, ses parties restantes sont perdues.\n"
	    "\n"
	    "Vos parties (3) :\n"
	    "Ronde 1, partie 101 : vous avez les Blancs contre dave\n"
	    "Ronde 2, partie 104 : vous avez les Noirs contre bob\n"
	    "Ronde 3, partie 105 : vous avez les Blancs contre carol\n"
	    "\n"
	    "Chaque partie a son propre courriel, qui contient la déclaration à\n"
	    "signer : répondez-y pour jouer, ou utilisez « corrchess move PARTIE\n"
	    "COUP ». Sur le serveur du club, la page d'une partie est /games/PARTIE\n"
	    "et celle de l'épreuve /events/club-2026. Quand la dernière partie se\n"
	    "termine, chaque joueur reçoit le classement final.\n"
	    "\n"
	    "-- \n"
	    "corrchess, serveur d'échecs par correspondance\n" },
	{ "[corrchess] Event Club championship 2026: dave withdrew",
	    "Hello alice,\n"
	    "\n"
	    "dave has withdrawn from the event Club championship 2026 (club-2026).\n"
	    "\n"
	    "If a player withdraws, their remaining games are lost.\n"
	    "\n"
	    "Round 1, game 101, with White against dave: you win it by default (+).\n"
	    "\n"
	    "-- \n"
	    "corrchess, correspondence chess server\n" },
	{ "[corrchess] Épreuve Club championship 2026 : dave se retire",
	    "Bonjour alice,\n"
	    "\n"
	    "dave s'est retiré de l'épreuve Club championship 2026 (club-2026).\n"
	    "\n"
	    "Si un joueur se retire avant d'avoir joué la moitié de ses parties,\n"
	    "toutes ses parties sont annulées ; plus tard, ses parties restantes sont\n"
	    "perdues.\n"
	    "\n"
	    "Ronde 1, partie 101, avec les Blancs contre dave : annulée, elle ne\n"
	    "compte pas.\n"
	    "\n"
	    "-- \n"
	    "corrchess, serveur d'échecs par correspondance\n" },
	{ "[corrchess] Event Club championship 2026: dave withdrew",
	    "Hello alice,\n"
	    "\n"
	    "dave has withdrawn from the event Club championship 2026 (club-2026).\n"
	    "\n"
	    "If a player withdraws, their remaining games are lost.\n"
	    "\n"
	    "Round 1, game 101, with White against dave: played, its result stands\n"
	    "(0-1).\n"
	    "\n"
	    "-- \n"
	    "corrchess, correspondence chess server\n" },
	{ "[corrchess] Event Club championship 2026: final standings",
	    "Hello alice,\n"
	    "\n"
	    "The event Club championship 2026 (club-2026) is over: its last game has\n"
	    "ended.\n"
	    "\n"
	    "Your result: 2½ points from 3 games played, place 1.\n"
	    "\n"
	    "Final standings:\n"
	    "\n"
	    " No  Player  1  2  3  4  Points  Games     DE   Wins     SB  Place\n"
	    "  1  alice   x  1  ½  1      2½      3      0      2    2.5      1\n"
	    "  2  bob     0  x  ½  1      1½      3      0      1      1      3\n"
	    "  3  carol   ½  ½  x  1       2      3      0      1      2      2\n"
	    "  4  dave    0  0  0  x       0      3      0      0      0      4\n"
	    "\n"
	    "-- \n"
	    "corrchess, correspondence chess server\n" },
	{ "[corrchess] Épreuve Club championship 2026 : classement final",
	    "Bonjour alice,\n"
	    "\n"
	    "L'épreuve Club championship 2026 (club-2026) est terminée : sa dernière\n"
	    "partie a pris fin.\n"
	    "\n"
	    "Votre résultat : 2½ points en 3 parties jouées, place 1.\n"
	    "\n"
	    "Classement final :\n"
	    "\n"
	    " N°  Joueur  1  2  3  4  Points  Parties     DE  Gains     SB  Place\n"
	    "  1  alice   x  1  ½  1      2½        3      0      2    2.5      1\n"
	    "  2  bob     0  x  ½  1      1½        3      0      1      1      3\n"
	    "  3  carol   ½  ½  x  1       2        3      0      1      2      2\n"
	    "  4  dave    0  0  0  x       0        3      0      0      0      4\n"
	    "\n"
	    "-- \n"
	    "corrchess, serveur d'échecs par correspondance\n" },
};

/* An event's start, a withdrawal and its end, word for word in English
 * and French. */
static void
test_event(void **state)
{
	static const struct notice_event_game with_dave[3][1] = {
		{ { 101, 1, CHESS_WHITE, "dave", "1-0", "black-withdrew" } },
		{ { 101, 1, CHESS_WHITE, "dave", "1-0", "annulled" } },
		{ { 101, 1, CHESS_WHITE, "dave", "0-1", "" } },
	};
	static const struct standings_game games[] = {
		{ 0, 3, STANDINGS_WHITE_WINS }, { 1, 2, STANDINGS_DRAW },
		{ 1, 0, STANDINGS_BLACK_WINS }, { 2, 3, STANDINGS_WHITE_WINS },
		{ 0, 2, STANDINGS_DRAW }, { 3, 1, STANDINGS_BLACK_WINS },
	};
	static const struct crosstable_player players[] = {
		{ "alice", false }, { "bob", false }, { "carol", false },
		{ "dave", false },
	};
	struct standings_rules	 rules = { { STANDINGS_TB_DIRECT,
				    STANDINGS_TB_WINS, STANDINGS_TB_SB }, 3, 3 };
	struct standings_row	 rows[4];
	enum standings_mark	 grid[16];
	struct crosstable	 ct;
	struct notice		 n;
	struct notice_event	 e;
	struct notice_mail	 m;
	char			*subj, *text, err[128];
	size_t			 i;

	(void)state;
	assert_int_equal(standings_compute(4, games, 6, &rules, rows, NULL),
	    STANDINGS_OK);
	assert_int_equal(standings_crosstable(4, games, 6, 1, grid, 16,
	    NULL), STANDINGS_OK);
	memset(&ct, 0, sizeof ct);
	ct.players = players;
	ct.nplayers = 4;
	ct.rules = &rules;
	ct.rows = rows;
	ct.grid = grid;
	ct.depth = 1;
	for (i = 0; i < sizeof event_want / sizeof event_want[0]; i++) {
		if (i < 2)
			event_fixture(&n, &e, NOTICE_EVENT_START, i == 1 ?
			    CHESS_LANG_FR : CHESS_LANG_EN);
		else if (i < 5) {
			event_fixture(&n, &e, NOTICE_EVENT_WITHDRAWAL, i == 3 ?
			    CHESS_LANG_FR : CHESS_LANG_EN);
			e.withdrawn = "dave";
			e.mine = with_dave[i - 2];
			e.nmine = 1;
			if (i == 3)
				e.withdrawal = "annul";
		} else {
			event_fixture(&n, &e, NOTICE_EVENT_END, i == 6 ?
			    CHESS_LANG_FR : CHESS_LANG_EN);
			e.standings = &ct;
			e.own = &rows[0];	/* alice's */
		}
		event_compose(&n, &subj, &text);
		assert_string_equal(subj, event_want[i].subject);
		assert_string_equal(text, event_want[i].text);
		g_free(subj);
		g_free(text);
	}
	/* No event: refused with a reason. */
	event_fixture(&n, &e, NOTICE_EVENT_START, CHESS_LANG_EN);
	n.event = NULL;
	assert_int_equal(notice_compose(&n, &m, err, sizeof err), -1);
	assert_string_equal(err, "an event's notice needs its event");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_admin_reason),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_refused_reasons),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_conditional),
		cmocka_unit_test(test_account),
		cmocka_unit_test(test_black_side),
		cmocka_unit_test(test_start_position),
		cmocka_unit_test(test_howto_stranger),
		cmocka_unit_test(test_message_ids),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_read_by_mail_parse),
		cmocka_unit_test(test_event),
	};

	g_mime_init();
	chess_init();
	return cmocka_run_group_tests_name("notice", tests, NULL, NULL);
}
