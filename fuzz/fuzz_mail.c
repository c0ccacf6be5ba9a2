/*
 * fuzz/fuzz_mail.c: fuzz target: players' mail.
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
 * libFuzzer target: any bytes as a raw mail from a player (MIME with GMime,
 * HTML to text, format=flowed, quotes, signature repairs, the statement
 * search). It must never crash, read out of bounds or leak; what it finds
 * must hold: a statement it returns parses with its signature and starts
 * with its canonical bytes, a bad one starts with the header line.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "letters/mail_parse.h"
#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Parse data as a mail and check what comes out. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_message	 m;
	struct sig_statement	 st;
	struct sig_signature	 sg;
	enum sig_error		 e;
	char			 err[128], *t;
	size_t			 n;

	if (sig_init() != 0)
		abort();

	/* The HTML converter alone, on the raw bytes. */
	if ((t = mail_html_to_text((const char *)data, size, &n)) == NULL)
		abort();
	free(t);

	if (mail_parse((const char *)data, size, &m, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	if (m.from == NULL || m.from_name == NULL || m.reply_to == NULL ||
	    m.message_id == NULL || m.in_reply_to == NULL ||
	    m.subject == NULL || m.text == NULL ||
	    strlen(m.text) != m.text_len ||
	    (m.nreferences > 0 && m.references == NULL))
		abort();
	switch (m.found) {
	case MAIL_STATEMENT:
		if (m.statement == NULL ||
		    strlen(m.statement) != m.statement_len ||
		    sig_statement_parse(m.statement, m.statement_len, &st, &sg,
		    &e) != 0 ||
		    memcmp(m.statement, st.canon, st.canon_len) != 0 ||
		    m.error != SIG_OK)
			abort();
		break;
	case MAIL_BAD_STATEMENT:
		if (m.statement == NULL || m.error == SIG_OK ||
		    strncmp(m.statement, SIG_HEADER, strlen(SIG_HEADER)) != 0)
			abort();
		break;
	case MAIL_NO_STATEMENT:
		if (m.statement != NULL)
			abort();
		break;
	default:
		abort();
	}
	(void)mail_thread_game(&m, "club.example");
	mail_message_free(&m);
	return 0;
}
