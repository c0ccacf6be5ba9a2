/*
 * fuzz/fuzz_statement.c: fuzz target: signed statements.
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
 * libFuzzer target: any bytes as a text holding a signed statement (an HTTP
 * body or a mail part). The parser must never crash or read out of bounds;
 * a statement it accepts must be canonical: its bytes parse again to the
 * same fields, and building from the fields gives the same bytes.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "sig/sig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Parse data as a statement and its signature and check the result. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t keys[1][SIG_PUBKEY_BYTES];
	struct sig_statement st, again;
	struct sig_signature sg, sg2;
	enum sig_error err;
	const uint8_t *b, *b2;
	size_t n, n2;
	char kept[SIG_STATEMENT_MAX + SIG_SSHSIG_ARMOR_SIZE];

	if (sig_init() != 0)
		abort();
	if (sig_strerror(SIG_OK) == NULL)
		abort();

	/* Without the signature: only the statement. */
	if (sig_statement_parse((const char *)data, size, &st, NULL, &err) != 0) {
		if (err == SIG_OK || sig_strerror(err) == NULL)
			abort();
		return 0;
	}
	if (st.canon_len == 0 || st.canon_len > SIG_STATEMENT_MAX ||
	    (st.game == 0) != SIG_ACT_IS_PLAYERS(st.action.kind) ||
	    st.player[0] == '\0')
		abort();

	/* The canonical bytes are a fixed point of parse and build. */
	if (sig_statement_parse((const char *)st.canon, st.canon_len, &again,
	    NULL, &err) != 0)
		abort();
	if (again.canon_len != st.canon_len ||
	    memcmp(again.canon, st.canon, st.canon_len) != 0 ||
	    again.game != st.game || again.ply != st.ply ||
	    strcmp(again.player, st.player) != 0 ||
	    again.action.kind != st.action.kind ||
	    strcmp(again.action.move, st.action.move) != 0)
		abort();
	again.canon_len = 0;
	if (sig_statement_build(&again, &err) != 0 ||
	    again.canon_len != st.canon_len ||
	    memcmp(again.canon, st.canon, st.canon_len) != 0)
		abort();

	/* With the signature. */
	if (sig_statement_parse((const char *)data, size, &st, &sg, &err) != 0)
		return 0;
	b = sig_signature_bytes(&sg, &n);
	if (b == NULL || n == 0 || n > SIG_SSHSIG_MAX)
		abort();
	if (sg.form == SIG_FORM_SSHSIG &&
	    (sg.ssh.ns_off + sg.ssh.ns_len > sg.ssh.blob_len ||
	    sg.ssh.reserved_off + sg.ssh.reserved_len > sg.ssh.blob_len))
		abort();
	/* A zero key signs nothing. */
	if (sig_signature_verify(&st, &sg, keys, 1, NULL, &err) == 0)
		abort();

	/* What is kept (the statement and sg.text) reads back as the same
	 * signature: the bytes stored are the bytes verified. */
	if (sg.text_len == 0 || sg.text_len >= sizeof sg.text ||
	    strlen(sg.text) != sg.text_len ||
	    st.canon_len + sg.text_len > sizeof kept)
		abort();
	memcpy(kept, st.canon, st.canon_len);
	memcpy(kept + st.canon_len, sg.text, sg.text_len);
	if (sig_statement_parse(kept, st.canon_len + sg.text_len, &again,
	    &sg2, &err) != 0)
		abort();
	b2 = sig_signature_bytes(&sg2, &n2);
	if (sg2.form != sg.form || n2 != n || memcmp(b, b2, n) != 0 ||
	    strcmp(sg2.text, sg.text) != 0)
		abort();
	return 0;
}
