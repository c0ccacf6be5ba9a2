/*
 * sig/key.h: Ed25519 keys: public key lines, fingerprints, key files.
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
 * sig/key.c); the conventions are sig/sig.h's.
 */

/* sig/sig.h first, outside the guard: it includes this header in turn. */
#include "sig/sig.h"

#ifndef CORRCHESS_SIG_KEY_H
#define CORRCHESS_SIG_KEY_H

#include <stddef.h>
#include <stdint.h>

/* Buffer sizes with the NUL. */
#define SIG_FINGERPRINT_SIZE	51	/* "SHA256:" + 43 base64 + NUL */
#define SIG_PUBKEY_LINE_SIZE	81	/* "ssh-ed25519 " + 68 base64 + NUL */

/* Largest key file sig_seckey_read() reads. */
#define SIG_KEYFILE_MAX		16384

/* --- public keys --------------------------------------------------- */

/*
 * Parse a public key: one OpenSSH line "ssh-ed25519 BASE64 [comment]" or raw
 * standard base64 of the 32 key bytes. Leading and trailing white space is
 * ignored. `text` is NUL-terminated.
 */
int sig_pubkey_parse(const char *text, uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err);

/* Write "ssh-ed25519 BASE64" and, if `comment` is not NULL or empty, a space
 * and the comment, NUL-terminated, into buf (SIG_PUBKEY_LINE_SIZE plus the
 * comment's length is enough). */
int sig_pubkey_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *comment,
    char *buf, size_t size);

/* Write the key's fingerprint as `ssh-keygen -l` prints it ("SHA256:" and
 * unpadded base64 of the SHA-256 of the key blob). */
void sig_pubkey_fingerprint(const uint8_t pk[SIG_PUBKEY_BYTES],
    char buf[SIG_FINGERPRINT_SIZE]);

/* --- secret keys --------------------------------------------------- */

/* Make a new random key pair. */
int sig_keypair(uint8_t pk[SIG_PUBKEY_BYTES], uint8_t sk[SIG_SECKEY_BYTES]);

/* The public half of a secret key (its last 32 bytes). */
void sig_seckey_pubkey(const uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t pk[SIG_PUBKEY_BYTES]);

/*
 * Write `sk` as an unencrypted OpenSSH private key ("openssh-key-v1", as
 * `ssh-keygen -t ed25519 -N ''` writes it) to `path`, mode 0600, and its
 * public line to `path`.pub, mode 0644. Neither file may exist (SIG_EEXIST).
 * `comment` may be NULL.
 */
int sig_seckey_write(const char *path, const uint8_t sk[SIG_SECKEY_BYTES],
    const char *comment, enum sig_error *err);

/*
 * Read a secret key from text: an unencrypted OpenSSH Ed25519 private key
 * ("-----BEGIN OPENSSH PRIVATE KEY-----"), or standard base64 of a 64-byte
 * libsodium secret key or a 32-byte seed. Encrypted keys
 * (SIG_EKEY_ENCRYPTED) and other key types (SIG_EKEY_TYPE) are refused.
 */
int sig_seckey_parse(const char *text, size_t len,
    uint8_t sk[SIG_SECKEY_BYTES], enum sig_error *err);

/* Read a secret key file (see sig_seckey_parse()). */
int sig_seckey_read(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err);

/* What a key file given for signing holds. */
enum sig_keyfile_kind {
	SIG_KEYFILE_SECRET = 0,	/* a secret key: sk and pk */
	SIG_KEYFILE_LOCKED,	/* an OpenSSH private key protected by a
				   passphrase: pk only, from the key's
				   unencrypted header */
	SIG_KEYFILE_PUBLIC,	/* a public key line (a .pub file): pk only */
};

/*
 * Read a key file for signing: a secret key as sig_seckey_read() reads it,
 * or a key whose secret half is elsewhere (held by ssh-agent): an encrypted
 * OpenSSH Ed25519 private key or a public key file. Writes *kind, pk and,
 * for SIG_KEYFILE_SECRET, sk (zeroed otherwise).
 */
int sig_keyfile_read(const char *path, enum sig_keyfile_kind *kind,
    uint8_t sk[SIG_SECKEY_BYTES], uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err);

#endif /* CORRCHESS_SIG_KEY_H */
