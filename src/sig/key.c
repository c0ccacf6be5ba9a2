/*
 * sig/key.c: Ed25519 keys: public key lines, fingerprints, key files.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "sig/sig.h"
#include "sig/wire.h"

#define OPENSSH_MAGIC		"openssh-key-v1"	/* and its NUL */
#define OPENSSH_MAGIC_LEN	15
#define OPENSSH_BEGIN		"-----BEGIN OPENSSH PRIVATE KEY-----"
#define OPENSSH_END		"-----END OPENSSH PRIVATE KEY-----"

/* --- public keys --------------------------------------------------- */

/* Parse an OpenSSH public key line or raw base64 key. */
int
sig_pubkey_parse(const char *text, uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err)
{
	uint8_t blob[256];
	const char *s, *e, *w;
	size_t n, len;

	s = text;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	    e[-1] == '\n'))
		e--;
	if (s == e)
		return sig_fail(err, SIG_EKEY_FORMAT);

	/* The first word: a key type, or the whole raw key. */
	w = s;
	while (w < e && *w != ' ' && *w != '\t')
		w++;
	if (w == e) {
		for (n = 0; s + n < e; n++)
			if (!wire_is_b64char((unsigned char)s[n]))
				return sig_fail(err, SIG_EKEY_FORMAT);
		if (n > 64)
			return sig_fail(err, SIG_EKEY_LEN);
		if (wire_b64_decode(s, n, blob, sizeof blob, &len) != 0)
			return sig_fail(err, SIG_EBASE64);
		if (len != SIG_PUBKEY_BYTES)
			return sig_fail(err, SIG_EKEY_LEN);
		memcpy(pk, blob, SIG_PUBKEY_BYTES);
		return sig_ok(err);
	}
	if ((size_t)(w - s) != SSH_ED25519_LEN ||
	    memcmp(s, SSH_ED25519, SSH_ED25519_LEN) != 0) {
		if (wire_line_starts(s, (size_t)(e - s), "ssh-") ||
		    wire_line_starts(s, (size_t)(e - s), "ecdsa-") ||
		    wire_line_starts(s, (size_t)(e - s), "sk-"))
			return sig_fail(err, SIG_EKEY_TYPE);
		return sig_fail(err, SIG_EKEY_FORMAT);
	}

	/* The second word: base64 of the key blob; a comment may follow. */
	while (w < e && (*w == ' ' || *w == '\t'))
		w++;
	s = w;
	while (w < e && *w != ' ' && *w != '\t')
		w++;
	n = (size_t)(w - s);
	if (n == 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (n > 4 * sizeof blob / 3)
		return sig_fail(err, SIG_EKEY_LEN);
	if (wire_b64_decode(s, n, blob, sizeof blob, &len) != 0)
		return sig_fail(err, SIG_EBASE64);
	return wire_pubblob_parse(blob, len, pk, err);
}

/* Format a public key as an OpenSSH line. */
int
sig_pubkey_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *comment,
    char *buf, size_t size)
{
	uint8_t blob[PUBBLOB_LEN];
	char b64[sodium_base64_ENCODED_LEN(PUBBLOB_LEN, B64)];
	int n;

	wire_pubblob(pk, blob);
	sodium_bin2base64(b64, sizeof b64, blob, sizeof blob, B64);
	if (comment != NULL && *comment != '\0')
		n = snprintf(buf, size, "%s %s %s", SSH_ED25519, b64, comment);
	else
		n = snprintf(buf, size, "%s %s", SSH_ED25519, b64);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return 0;
}

/* Write a key's SHA256 fingerprint as ssh-keygen -l prints it. */
void
sig_pubkey_fingerprint(const uint8_t pk[SIG_PUBKEY_BYTES],
    char buf[SIG_FINGERPRINT_SIZE])
{
	uint8_t blob[PUBBLOB_LEN], h[crypto_hash_sha256_BYTES];

	wire_pubblob(pk, blob);
	crypto_hash_sha256(h, blob, sizeof blob);
	memcpy(buf, "SHA256:", 7);
	sodium_bin2base64(buf + 7, SIG_FINGERPRINT_SIZE - 7, h, sizeof h,
	    B64_NOPAD);
}

/* --- secret keys --------------------------------------------------- */

/* Make a new key pair. */
int
sig_keypair(uint8_t pk[SIG_PUBKEY_BYTES], uint8_t sk[SIG_SECKEY_BYTES])
{
	return crypto_sign_keypair(pk, sk) == 0 ? 0 : -1;
}

/* Copy the public half of a secret key. */
void
sig_seckey_pubkey(const uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t pk[SIG_PUBKEY_BYTES])
{
	memcpy(pk, sk + SIG_SEED_BYTES, SIG_PUBKEY_BYTES);
}

/* Check that a secret key's public half is the one its seed gives. */
static int
seckey_check(const uint8_t sk[SIG_SECKEY_BYTES])
{
	uint8_t pk[SIG_PUBKEY_BYTES], sk2[SIG_SECKEY_BYTES];
	int r;

	if (crypto_sign_seed_keypair(pk, sk2, sk) != 0)
		return -1;
	r = sodium_memcmp(sk2, sk, SIG_SECKEY_BYTES);
	sodium_memzero(sk2, sizeof sk2);
	return r;
}

/* Write a whole buffer to a file descriptor. */
static int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n > 0) {
		w = write(fd, c, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Create `path` exclusively with `mode` and write `text` to it. */
static int
file_create(const char *path, mode_t mode, const char *text,
    enum sig_error *err)
{
	int fd, saved;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd == -1)
		return sig_fail(err, errno == EEXIST ? SIG_EEXIST : SIG_EIO);
	if (fchmod(fd, mode) != 0 || write_all(fd, text, strlen(text)) != 0 ||
	    fsync(fd) != 0) {
		saved = errno;
		close(fd);
		unlink(path);
		errno = saved;
		return sig_fail(err, SIG_EIO);
	}
	if (close(fd) != 0) {
		saved = errno;
		unlink(path);
		errno = saved;
		return sig_fail(err, SIG_EIO);
	}
	return sig_ok(err);
}

/* Write an unencrypted openssh-key-v1 private key and its .pub line. */
int
sig_seckey_write(const char *path, const uint8_t sk[SIG_SECKEY_BYTES],
    const char *comment, enum sig_error *err)
{
	uint8_t priv[512], blob[1024], pb[PUBBLOB_LEN], pad;
	char text[2048], pub[SIG_PUBKEY_LINE_SIZE + 256], pubpath[PATH_MAX];
	struct wire_wr w;
	uint32_t check;
	const char *c;
	int n, r = -1;

	if (comment == NULL)
		comment = "";
	if (strlen(comment) > 200)
		return sig_fail(err, SIG_EKEY_FORMAT);
	for (c = comment; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return sig_fail(err, SIG_EKEY_FORMAT);
	n = snprintf(pubpath, sizeof pubpath, "%s.pub", path);
	if (n < 0 || (size_t)n >= sizeof pubpath)
		return sig_fail(err, SIG_ESPACE);

	/* The private section, padded to the cipher block size (8). */
	check = randombytes_random();
	w = (struct wire_wr){ priv, sizeof priv, 0, 0 };
	wire_wr_u32(&w, check);
	wire_wr_u32(&w, check);
	wire_wr_string(&w, SSH_ED25519, SSH_ED25519_LEN);
	wire_wr_string(&w, sk + SIG_SEED_BYTES, SIG_PUBKEY_BYTES);
	wire_wr_string(&w, sk, SIG_SECKEY_BYTES);
	wire_wr_string(&w, comment, strlen(comment));
	for (pad = 1; w.len % 8 != 0; pad++)
		wire_wr_bytes(&w, &pad, 1);

	/* The whole key. */
	wire_pubblob(sk + SIG_SEED_BYTES, pb);
	{
		struct wire_wr k = { blob, sizeof blob, 0, 0 };

		wire_wr_bytes(&k, OPENSSH_MAGIC, OPENSSH_MAGIC_LEN);
		wire_wr_string(&k, "none", 4);
		wire_wr_string(&k, "none", 4);
		wire_wr_string(&k, "", 0);
		wire_wr_u32(&k, 1);
		wire_wr_string(&k, pb, sizeof pb);
		wire_wr_string(&k, priv, w.len);
		if (w.over || k.over) {
			sig_fail(err, SIG_ESPACE);
			goto out;
		}
		if (wire_armor_write(OPENSSH_BEGIN, OPENSSH_END, blob, k.len,
		    text, sizeof text) != 0) {
			sig_fail(err, SIG_ESPACE);
			goto out;
		}
	}
	if (sig_pubkey_format(sk + SIG_SEED_BYTES, comment, pub,
	    sizeof pub - 1) != 0) {
		sig_fail(err, SIG_ESPACE);
		goto out;
	}
	n = (int)strlen(pub);
	pub[n] = '\n';
	pub[n + 1] = '\0';

	if (file_create(path, 0600, text, err) != 0)
		goto out;
	if (file_create(pubpath, 0644, pub, err) != 0) {
		n = errno;
		unlink(path);
		errno = n;
		goto out;
	}
	r = sig_ok(err);
out:
	sodium_memzero(priv, sizeof priv);
	sodium_memzero(blob, sizeof blob);
	sodium_memzero(text, sizeof text);
	return r;
}

/* Parse the binary openssh-key-v1 structure. */
static int
openssh_key_parse(const uint8_t *p, size_t len, uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t pkout[SIG_PUBKEY_BYTES], enum sig_error *err)
{
	struct wire_rd r = { p, len, 0 }, pr;
	const uint8_t *magic, *cipher, *kdf, *kdfopt, *pb, *priv, *type, *pk;
	const uint8_t *s, *comment;
	size_t cipherlen, kdflen, kdfoptlen, pblen, privlen, typelen, pklen;
	size_t slen, commentlen, i;
	uint32_t nkeys, c1, c2;
	uint8_t pubkey[SIG_PUBKEY_BYTES];

	if (wire_rd_bytes(&r, &magic, OPENSSH_MAGIC_LEN) != 0 ||
	    memcmp(magic, OPENSSH_MAGIC, OPENSSH_MAGIC_LEN) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (wire_rd_string(&r, &cipher, &cipherlen) != 0 ||
	    wire_rd_string(&r, &kdf, &kdflen) != 0 ||
	    wire_rd_string(&r, &kdfopt, &kdfoptlen) != 0 ||
	    wire_rd_u32(&r, &nkeys) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (nkeys != 1)
		return sig_fail(err, SIG_EKEY_FORMAT);
	/* The public key is outside the encryption: a locked key names its
	 * public half, which ssh-agent may hold. */
	if (wire_rd_string(&r, &pb, &pblen) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (wire_pubblob_parse(pb, pblen, pubkey, err) != 0)
		return -1;
	memcpy(pkout, pubkey, SIG_PUBKEY_BYTES);
	if (!wire_str_is(cipher, cipherlen, "none") ||
	    !wire_str_is(kdf, kdflen, "none"))
		return sig_fail(err, SIG_EKEY_ENCRYPTED);
	if (wire_rd_string(&r, &priv, &privlen) != 0 || r.off != r.len ||
	    privlen % 8 != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);

	pr = (struct wire_rd){ priv, privlen, 0 };
	if (wire_rd_u32(&pr, &c1) != 0 || wire_rd_u32(&pr, &c2) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (c1 != c2)
		return sig_fail(err, SIG_EKEY_CORRUPT);
	if (wire_rd_string(&pr, &type, &typelen) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (!wire_str_is(type, typelen, SSH_ED25519))
		return sig_fail(err, SIG_EKEY_TYPE);
	if (wire_rd_string(&pr, &pk, &pklen) != 0 ||
	    wire_rd_string(&pr, &s, &slen) != 0 ||
	    wire_rd_string(&pr, &comment, &commentlen) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (pklen != SIG_PUBKEY_BYTES || slen != SIG_SECKEY_BYTES)
		return sig_fail(err, SIG_EKEY_LEN);
	for (i = 0; pr.off < pr.len; i++, pr.off++)
		if (priv[pr.off] != (uint8_t)(i + 1))
			return sig_fail(err, SIG_EKEY_CORRUPT);
	if (memcmp(pk, pubkey, SIG_PUBKEY_BYTES) != 0 ||
	    memcmp(s + SIG_SEED_BYTES, pubkey, SIG_PUBKEY_BYTES) != 0 ||
	    seckey_check(s) != 0)
		return sig_fail(err, SIG_EKEY_CORRUPT);
	memcpy(sk, s, SIG_SECKEY_BYTES);
	return sig_ok(err);
}

/* Read a secret key from text; *pk is its public half, also when the
 * OpenSSH key is encrypted (SIG_EKEY_ENCRYPTED). */
static int
seckey_parse(const char *text, size_t len, uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t pk[SIG_PUBKEY_BYTES], enum sig_error *err)
{
	struct wire_lines it;
	const char *l;
	size_t n, b64len = 0, binlen;
	char *b64 = NULL;
	uint8_t *bin = NULL;
	int r = -1, inside = 0, done = 0;
	enum sig_error e = SIG_EKEY_FORMAT;

	if (len > SIG_KEYFILE_MAX)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if ((b64 = sodium_malloc(SIG_KEYFILE_MAX + 1)) == NULL ||
	    (bin = sodium_malloc(SIG_KEYFILE_MAX)) == NULL) {
		e = SIG_ECRYPTO;
		goto out;
	}

	/* Collect the base64: between the armor lines, or the whole text. */
	wire_lines_init(&it, text, len);
	while (!done && wire_lines_next(&it, &l, &n)) {
		while (n > 0 && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		if (n == 0)
			continue;
		if (wire_line_starts(l, n, "-----BEGIN ")) {
			if (!wire_line_is(l, n, OPENSSH_BEGIN)) {
				e = wire_line_starts(l, n, "-----BEGIN SSH2 ") ?
				    SIG_EKEY_FORMAT : SIG_EKEY_TYPE;
				goto out;
			}
			if (inside || b64len > 0)
				goto out;
			inside = 1;
			continue;
		}
		if (wire_line_is(l, n, OPENSSH_END)) {
			if (!inside)
				goto out;
			inside = 0;
			done = 1;
			continue;
		}
		if (wire_line_starts(l, n, "ssh-") ||
		    wire_line_starts(l, n, "ecdsa-"))
			goto out;	/* a public key line */
		if (b64len > 0 && !inside)
			goto out;	/* raw base64 must be one line */
		if (n > SIG_KEYFILE_MAX - b64len)
			goto out;
		memcpy(b64 + b64len, l, n);
		b64len += n;
	}
	if (inside)
		goto out;
	if (wire_b64_decode(b64, b64len, bin, SIG_KEYFILE_MAX, &binlen) != 0) {
		e = SIG_EBASE64;
		goto out;
	}
	if (done) {
		r = openssh_key_parse(bin, binlen, sk, pk, err);
		goto out_set;
	}
	if (binlen == SIG_SEED_BYTES) {
		if (crypto_sign_seed_keypair(pk, sk, bin) != 0) {
			e = SIG_ECRYPTO;
			goto out;
		}
	} else if (binlen == SIG_SECKEY_BYTES) {
		if (seckey_check(bin) != 0) {
			e = SIG_EKEY_CORRUPT;
			goto out;
		}
		memcpy(sk, bin, SIG_SECKEY_BYTES);
		memcpy(pk, bin + SIG_SEED_BYTES, SIG_PUBKEY_BYTES);
	} else {
		e = SIG_EKEY_LEN;
		goto out;
	}
	r = sig_ok(err);
	goto out_set;
out:
	sig_fail(err, e);
out_set:
	if (b64 != NULL)
		sodium_free(b64);
	if (bin != NULL)
		sodium_free(bin);
	return r;
}

/* Read a secret key from text (OpenSSH private key or raw base64). */
int
sig_seckey_parse(const char *text, size_t len, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err)
{
	uint8_t pk[SIG_PUBKEY_BYTES];

	return seckey_parse(text, len, sk, pk, err);
}

/* Read a key file of at most SIG_KEYFILE_MAX bytes into buf (that size and
 * one more); *lenp is its length. */
static int
keyfile_slurp(const char *path, char *buf, size_t *lenp, enum sig_error *err)
{
	size_t len = 0;
	ssize_t n;
	int fd, r = -1, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return sig_fail(err, SIG_EIO);
	for (;;) {
		n = read(fd, buf + len, SIG_KEYFILE_MAX + 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			sig_fail(err, SIG_EIO);
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > SIG_KEYFILE_MAX) {
			sig_fail(err, SIG_EKEY_FORMAT);
			goto out;
		}
	}
	*lenp = len;
	r = sig_ok(err);
out:
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

/* Read a secret key file. */
int
sig_seckey_read(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err)
{
	enum sig_keyfile_kind kind;
	uint8_t pk[SIG_PUBKEY_BYTES];

	if (sig_keyfile_read(path, &kind, sk, pk, err) != 0)
		return -1;
	if (kind == SIG_KEYFILE_LOCKED)
		return sig_fail(err, SIG_EKEY_ENCRYPTED);
	if (kind == SIG_KEYFILE_PUBLIC)
		return sig_fail(err, SIG_EKEY_FORMAT);
	return 0;
}

/* Read a key file for signing: a secret key, a locked one or a public key. */
int
sig_keyfile_read(const char *path, enum sig_keyfile_kind *kind,
    uint8_t sk[SIG_SECKEY_BYTES], uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err)
{
	enum sig_error e = SIG_OK, pe = SIG_OK;
	char *buf;
	size_t len = 0;
	int r = -1, saved;

	if ((buf = sodium_malloc(SIG_KEYFILE_MAX + 1)) == NULL)
		return sig_fail(err, SIG_ECRYPTO);
	if (keyfile_slurp(path, buf, &len, err) != 0)
		goto out;
	if (seckey_parse(buf, len, sk, pk, &e) == 0) {
		*kind = SIG_KEYFILE_SECRET;
		r = sig_ok(err);
	} else if (e == SIG_EKEY_ENCRYPTED) {
		*kind = SIG_KEYFILE_LOCKED;
		sodium_memzero(sk, SIG_SECKEY_BYTES);
		r = sig_ok(err);
	} else if (e == SIG_EKEY_FORMAT) {
		/* An OpenSSH public key file: its one line. */
		buf[len] = '\0';
		buf[strcspn(buf, "\r\n")] = '\0';
		if (sig_pubkey_parse(buf, pk, &pe) == 0) {
			*kind = SIG_KEYFILE_PUBLIC;
			sodium_memzero(sk, SIG_SECKEY_BYTES);
			r = sig_ok(err);
		} else
			sig_fail(err, pe == SIG_EKEY_TYPE ? pe : e);
	} else
		sig_fail(err, e);
out:
	saved = errno;
	if (r != 0)
		sodium_memzero(sk, SIG_SECKEY_BYTES);
	sodium_free(buf);
	errno = saved;
	return r;
}
