/*
 * bench/verify.c: Ed25519 and SSHSIG verifications per second.
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
 * Signature checks per second on one core: raw Ed25519 over a canonical
 * statement, SSHSIG (sha512) over the same, and the whole path a server
 * takes for one action (find and parse the statement and its signature in
 * a text, then verify). Usage: bench/verify [seconds per figure, default 1].
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sig/sig.h"

/* Seconds since an arbitrary start, monotonic. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds this process used, user and system. */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	uint8_t pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES], sig[64];
	uint8_t keys[1][SIG_PUBKEY_BYTES];
	char raw[SIG_SIGNED_SIZE], ssh[SIG_SIGNED_SIZE];
	struct sig_statement st;
	struct sig_signature sg;
	enum sig_error e;
	double secs = 1.0, t0, t, c0;
	unsigned long n, bad = 0;

	if (argc > 1)
		secs = atof(argv[1]);
	if (sig_init() != 0 || sig_keypair(pk, sk) != 0)
		return 1;
	memcpy(keys[0], pk, sizeof pk);
	memset(&st, 0, sizeof st);
	st.game = 42;
	st.ply = 16;
	strcpy(st.player, "alice");
	st.action.kind = SIG_ACT_MOVE;
	strcpy(st.action.move, "Nf3");
	if (sig_statement_build(&st, &e) != 0 ||
	    sig_statement_sign(&st, sk, SIG_FORM_RAW, raw, sizeof raw, &e) != 0 ||
	    sig_statement_sign(&st, sk, SIG_FORM_SSHSIG, ssh, sizeof ssh,
	    &e) != 0 || sig_sign(st.canon, st.canon_len, sk, sig) != 0) {
		fprintf(stderr, "setup: %s\n", sig_strerror(e));
		return 1;
	}

	t0 = now();
	c0 = cpu_now();
	for (n = 0; (n & 255) != 0 || now() - t0 < secs; n++)
		bad += sig_verify(st.canon, st.canon_len, sig, pk) != 0;
	t = now() - t0;
	printf("ed25519 verify:               %8.0f/s  (%.1f us)\n", n / t,
	    t / n * 1e6);
	/* What a verify costs in CPU time, whatever else the machine runs. */
	printf("ed25519 verify, CPU time:     %8.1f us\n",
	    (cpu_now() - c0) / n * 1e6);

	t0 = now();
	for (n = 0; (n & 255) != 0 || now() - t0 < secs; n++)
		bad += sig_sign(st.canon, st.canon_len, sk, sig) != 0;
	t = now() - t0;
	printf("ed25519 sign:                 %8.0f/s  (%.1f us)\n", n / t,
	    t / n * 1e6);

	t0 = now();
	for (n = 0; (n & 255) != 0 || now() - t0 < secs; n++) {
		bad += sig_statement_parse(raw, strlen(raw), &st, &sg, &e) != 0;
		bad += sig_signature_verify(&st, &sg, keys, 1, NULL, &e) != 0;
	}
	t = now() - t0;
	printf("parse + verify, raw form:     %8.0f/s  (%.1f us)\n", n / t,
	    t / n * 1e6);

	t0 = now();
	for (n = 0; (n & 255) != 0 || now() - t0 < secs; n++) {
		bad += sig_statement_parse(ssh, strlen(ssh), &st, &sg, &e) != 0;
		bad += sig_signature_verify(&st, &sg, keys, 1, NULL, &e) != 0;
	}
	t = now() - t0;
	printf("parse + verify, SSHSIG form:  %8.0f/s  (%.1f us)\n", n / t,
	    t / n * 1e6);
	if (bad != 0) {
		fprintf(stderr, "%lu checks failed\n", bad);
		return 1;
	}
	return 0;
}
