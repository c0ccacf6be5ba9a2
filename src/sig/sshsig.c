/*
 * sig/sshsig.c: OpenSSH signature blocks (PROTOCOL.sshsig), read and checked.
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

#include <string.h>

#include <sodium.h>

#include "sig/sig.h"
#include "sig/wire.h"

#define SSHSIG_MAGIC		"SSHSIG"
#define SSHSIG_MAGIC_LEN	6

/* Parse a binary SSHSIG blob. */
int
sig_sshsig_parse(const uint8_t *blob, size_t len, struct sig_sshsig *ss,
    enum sig_error *err)
{
	struct wire_rd r = { blob, len, 0 }, sr;
	const uint8_t *magic, *pb, *ns, *res, *hash, *sigblob, *type, *sig;
	size_t pblen, nslen, reslen, hashlen, sigbloblen, typelen, siglen;
	uint32_t version;

	memset(ss, 0, sizeof *ss);
	if (wire_rd_bytes(&r, &magic, SSHSIG_MAGIC_LEN) != 0 ||
	    memcmp(magic, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN) != 0 ||
	    wire_rd_u32(&r, &version) != 0)
		return sig_fail(err, SIG_ESSHSIG);
	if (version != 1)
		return sig_fail(err, SIG_ESSHSIG_VERSION);
	if (wire_rd_string(&r, &pb, &pblen) != 0)
		return sig_fail(err, SIG_ESSHSIG);
	/* The key type first: an RSA or ECDSA signature is refused for its
	 * key, whatever its size. */
	if (wire_pubblob_parse(pb, pblen, ss->pubkey, err) != 0)
		return -1;
	if (len > SIG_SSHSIG_MAX)
		return sig_fail(err, SIG_ESSHSIG);
	if (wire_rd_string(&r, &ns, &nslen) != 0 ||
	    wire_rd_string(&r, &res, &reslen) != 0 ||
	    wire_rd_string(&r, &hash, &hashlen) != 0)
		return sig_fail(err, SIG_ESSHSIG);
	if (wire_str_is(hash, hashlen, "sha512"))
		ss->hash = SIG_SSHSIG_SHA512;
	else if (wire_str_is(hash, hashlen, "sha256"))
		ss->hash = SIG_SSHSIG_SHA256;
	else
		return sig_fail(err, SIG_ESSHSIG_HASH);
	if (wire_rd_string(&r, &sigblob, &sigbloblen) != 0 || r.off != r.len)
		return sig_fail(err, SIG_ESSHSIG);

	/* The signature: string "ssh-ed25519", string of 64 bytes. */
	sr = (struct wire_rd){ sigblob, sigbloblen, 0 };
	if (wire_rd_string(&sr, &type, &typelen) != 0)
		return sig_fail(err, SIG_ESSHSIG);
	if (!wire_str_is(type, typelen, SSH_ED25519))
		return sig_fail(err, SIG_EKEY_TYPE);
	if (wire_rd_string(&sr, &sig, &siglen) != 0 || sr.off != sr.len ||
	    siglen != SIG_SIGNATURE_BYTES)
		return sig_fail(err, SIG_ESSHSIG);

	memcpy(ss->blob, blob, len);
	ss->blob_len = len;
	ss->ns_off = (size_t)(ns - blob);
	ss->ns_len = nslen;
	ss->reserved_off = (size_t)(res - blob);
	ss->reserved_len = reslen;
	memcpy(ss->sig, sig, SIG_SIGNATURE_BYTES);
	return sig_ok(err);
}

/* Parse an armored SSHSIG block. */
int
sig_sshsig_parse_armor(const char *text, size_t len, struct sig_sshsig *ss,
    size_t *usedp, enum sig_error *err)
{
	/* Base64 of blobs much larger than an Ed25519 one (RSA), so that
	 * sig_sshsig_parse() can name their key type. */
	char b64[sodium_base64_ENCODED_LEN(8 * SIG_SSHSIG_MAX, B64) + 4];
	uint8_t bin[sizeof b64];
	struct wire_lines it;
	const char *l;
	size_t n, b64len = 0, binlen, i, skip = 0;

	memset(ss, 0, sizeof *ss);
	while (skip < len && (text[skip] == ' ' || text[skip] == '\t' ||
	    text[skip] == '\r' || text[skip] == '\n'))
		skip++;
	wire_lines_init(&it, text + skip, len - skip);
	if (!wire_lines_next(&it, &l, &n) ||
	    !wire_line_is(l, n, SIG_SSHSIG_BEGIN))
		return sig_fail(err, SIG_ENOSIG);
	for (;;) {
		if (!wire_lines_next(&it, &l, &n))
			return sig_fail(err, SIG_EARMOR);
		while (n > 0 && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		if (wire_line_is(l, n, SIG_SSHSIG_END))
			break;
		if (wire_line_starts(l, n, "-----"))
			return sig_fail(err, SIG_EARMOR);
		for (i = 0; i < n; i++)
			if (!wire_is_b64char((unsigned char)l[i]))
				return sig_fail(err, SIG_EBASE64);
		if (n > sizeof b64 - 1 - b64len)
			return sig_fail(err, SIG_ESSHSIG);
		memcpy(b64 + b64len, l, n);
		b64len += n;
	}
	if (wire_b64_decode(b64, b64len, bin, sizeof bin, &binlen) != 0)
		return sig_fail(err, SIG_EBASE64);
	if (usedp != NULL)
		*usedp = skip + (size_t)(it.p - (text + skip));
	return sig_sshsig_parse(bin, binlen, ss, err);
}

/* Write the data an SSHSIG's Ed25519 signature covers. */
static int
sshsig_signed_data(const uint8_t *ns, size_t nslen, const uint8_t *res,
    size_t reslen, enum sig_sshsig_hash hash, const uint8_t *msg, size_t len,
    struct wire_wr *w)
{
	uint8_t h[crypto_hash_sha512_BYTES];
	const char *name;
	size_t hlen;

	if (hash == SIG_SSHSIG_SHA512) {
		crypto_hash_sha512(h, msg, len);
		hlen = crypto_hash_sha512_BYTES;
		name = "sha512";
	} else {
		crypto_hash_sha256(h, msg, len);
		hlen = crypto_hash_sha256_BYTES;
		name = "sha256";
	}
	wire_wr_bytes(w, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wire_wr_string(w, ns, nslen);
	wire_wr_string(w, res, reslen);
	wire_wr_string(w, name, strlen(name));
	wire_wr_string(w, h, hlen);
	return w->over ? -1 : 0;
}

/* Verify an SSHSIG over a message. */
int
sig_sshsig_verify(const struct sig_sshsig *ss, const uint8_t *msg,
    size_t len, const char *ns, enum sig_error *err)
{
	uint8_t data[SIG_SSHSIG_MAX + 128];
	struct wire_wr w = { data, sizeof data, 0, 0 };

	if (ss->blob_len == 0 || ss->blob_len > SIG_SSHSIG_MAX ||
	    ss->ns_len > ss->blob_len - ss->ns_off ||
	    ss->reserved_len > ss->blob_len - ss->reserved_off)
		return sig_fail(err, SIG_ESSHSIG);
	if (!wire_str_is(ss->blob + ss->ns_off, ss->ns_len, ns))
		return sig_fail(err, SIG_ENAMESPACE);
	if (sshsig_signed_data(ss->blob + ss->ns_off, ss->ns_len,
	    ss->blob + ss->reserved_off, ss->reserved_len, ss->hash, msg, len,
	    &w) != 0)
		return sig_fail(err, SIG_ESSHSIG);
	if (crypto_sign_verify_detached(ss->sig, data, w.len, ss->pubkey) != 0)
		return sig_fail(err, SIG_EBADSIG);
	return sig_ok(err);
}

/* Write the data an SSHSIG (sha512, no reserved bytes) signs. */
int
sig_sshsig_tbs(const uint8_t *msg, size_t len, const char *ns, uint8_t *out,
    size_t size, size_t *lenp, enum sig_error *err)
{
	struct wire_wr w = { out, size, 0, 0 };
	size_t nslen = strlen(ns);

	if (nslen == 0 || nslen > SIG_SSHSIG_NS_MAX)
		return sig_fail(err, SIG_ENAMESPACE);
	if (sshsig_signed_data((const uint8_t *)ns, nslen, NULL, 0,
	    SIG_SSHSIG_SHA512, msg, len, &w) != 0)
		return sig_fail(err, SIG_ESPACE);
	*lenp = w.len;
	return sig_ok(err);
}

/* Write an armored SSHSIG (sha512) from a key and its signature. */
int
sig_sshsig_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *ns,
    const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf, size_t size,
    enum sig_error *err)
{
	uint8_t blob[SIG_SSHSIG_MAX], pb[PUBBLOB_LEN];
	uint8_t sigblob[4 + SSH_ED25519_LEN + 4 + SIG_SIGNATURE_BYTES];
	struct wire_wr b = { blob, sizeof blob, 0, 0 };
	struct wire_wr s = { sigblob, sizeof sigblob, 0, 0 };
	size_t nslen = strlen(ns);

	if (nslen == 0 || nslen > SIG_SSHSIG_NS_MAX)
		return sig_fail(err, SIG_ENAMESPACE);
	wire_wr_string(&s, SSH_ED25519, SSH_ED25519_LEN);
	wire_wr_string(&s, sig, SIG_SIGNATURE_BYTES);
	wire_pubblob(pk, pb);
	wire_wr_bytes(&b, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wire_wr_u32(&b, 1);
	wire_wr_string(&b, pb, sizeof pb);
	wire_wr_string(&b, ns, nslen);
	wire_wr_string(&b, "", 0);
	wire_wr_string(&b, "sha512", 6);
	wire_wr_string(&b, sigblob, s.len);
	if (s.over || b.over)
		return sig_fail(err, SIG_ESPACE);
	if (wire_armor_write(SIG_SSHSIG_BEGIN, SIG_SSHSIG_END, blob, b.len, buf,
	    size) != 0)
		return sig_fail(err, SIG_ESPACE);
	return sig_ok(err);
}

/* Make an armored SSHSIG (sha512) over a message. */
int
sig_sshsig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], const char *ns, char *buf, size_t size,
    enum sig_error *err)
{
	uint8_t data[SIG_SSHSIG_TBS_MAX], sig[SIG_SIGNATURE_BYTES];
	size_t n;

	if (sig_sshsig_tbs(msg, len, ns, data, sizeof data, &n, err) != 0)
		return -1;
	if (crypto_sign_detached(sig, NULL, data, n, sk) != 0)
		return sig_fail(err, SIG_ECRYPTO);
	return sig_sshsig_format(sk + SIG_SEED_BYTES, ns, sig, buf, size, err);
}
