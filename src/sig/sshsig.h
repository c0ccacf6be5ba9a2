/*
 * sig/sshsig.h: OpenSSH signature blocks (PROTOCOL.sshsig), Ed25519 only.
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
 * Part of sig/sig.h, which includes this header (implemented in
 * sig/sshsig.c); the conventions are sig/sig.h's. The signature of
 * `ssh-keygen -Y sign -n NAMESPACE`: armor lines around base64 of a blob
 * "SSHSIG" || uint32 version || string(public key) || string(namespace) ||
 * string(reserved) || string(hash algorithm) || string(signature).
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_SSHSIG_H
#define CORRCHESS_SIG_SSHSIG_H

#include <stddef.h>
#include <stdint.h>

#define SIG_SSHSIG_BEGIN	"-----BEGIN SSH SIGNATURE-----"
#define SIG_SSHSIG_END		"-----END SSH SIGNATURE-----"

#define SIG_SSHSIG_MAX		512	/* bytes of a binary SSHSIG blob */
#define SIG_SSHSIG_NS_MAX	64	/* bytes of its namespace */
#define SIG_SSHSIG_ARMOR_SIZE	1024	/* armored SSHSIG text with NUL */
/* Bytes an SSHSIG's Ed25519 signature covers (sig_sshsig_tbs()), at most:
 * magic, namespace, reserved, hash name, hash, each with its length. */
#define SIG_SSHSIG_TBS_MAX	(6 + 4 + SIG_SSHSIG_NS_MAX + 4 + 4 + 6 + 4 + 64)

enum sig_sshsig_hash {
	SIG_SSHSIG_SHA512 = 0,
	SIG_SSHSIG_SHA256,
};

/* A parsed SSHSIG blob. ns and reserved point into blob. */
struct sig_sshsig {
	uint8_t			blob[SIG_SSHSIG_MAX];	/* the whole blob */
	size_t			blob_len;
	uint8_t			pubkey[SIG_PUBKEY_BYTES]; /* signer's key */
	size_t			ns_off, ns_len;		/* namespace */
	size_t			reserved_off, reserved_len;
	enum sig_sshsig_hash	hash;
	uint8_t			sig[SIG_SIGNATURE_BYTES]; /* Ed25519 */
};

/* Parse a binary SSHSIG blob (Ed25519 only). Every length is checked. */
int sig_sshsig_parse(const uint8_t *blob, size_t len, struct sig_sshsig *ss,
    enum sig_error *err);

/*
 * Parse an armored SSHSIG: `text` starts with the BEGIN line (white space
 * before it is skipped); lines up to the END line are base64. *usedp (if not
 * NULL) is the number of bytes of text read, through the END line.
 */
int sig_sshsig_parse_armor(const char *text, size_t len,
    struct sig_sshsig *ss, size_t *usedp, enum sig_error *err);

/*
 * Verify an SSHSIG over `msg`: its namespace must be `ns` (SIG_ENAMESPACE),
 * and the Ed25519 signature of its embedded key (ss->pubkey; the caller
 * checks that the key belongs to the player) must cover
 * "SSHSIG" || string(ns) || string(reserved) || string(hash) ||
 * string(H(msg)).
 */
int sig_sshsig_verify(const struct sig_sshsig *ss, const uint8_t *msg,
    size_t len, const char *ns, enum sig_error *err)
    __attribute__((warn_unused_result));

/*
 * Write the bytes that the Ed25519 signature of an SSHSIG over `msg` covers
 * (namespace `ns`, sha512, nothing reserved) into out (SIG_SSHSIG_TBS_MAX
 * is enough) and their length to *lenp: what a signer is asked to sign.
 */
int sig_sshsig_tbs(const uint8_t *msg, size_t len, const char *ns,
    uint8_t *out, size_t size, size_t *lenp, enum sig_error *err);

/* Write the armored SSHSIG of key `pk` whose Ed25519 signature `sig` was
 * made over sig_sshsig_tbs()'s bytes, NUL-terminated, into buf. */
int sig_sshsig_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *ns,
    const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf, size_t size,
    enum sig_error *err);

/* Sign `msg` as `ssh-keygen -Y sign -n NS` does (sha512) and write the
 * armored signature, NUL-terminated, into buf (SIG_SSHSIG_ARMOR_SIZE is
 * enough for a namespace of up to SIG_SSHSIG_NS_MAX bytes). */
int sig_sshsig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], const char *ns, char *buf, size_t size,
    enum sig_error *err);

#endif /* CORRCHESS_SIG_SSHSIG_H */
