/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * Signed actions: keys, statements, Ed25519 and SSHSIG signatures, record
 * chain. See sig.h for the formats. Every reader of outside bytes goes
 * through struct rd, which checks each length before it reads.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "sig/sig.h"

#define SSH_ED25519		"ssh-ed25519"
#define SSH_ED25519_LEN		11
#define SSHSIG_MAGIC		"SSHSIG"
#define SSHSIG_MAGIC_LEN	6
#define SSHSIG_BEGIN		"-----BEGIN SSH SIGNATURE-----"
#define SSHSIG_END		"-----END SSH SIGNATURE-----"
#define OPENSSH_MAGIC		"openssh-key-v1"	/* and its NUL */
#define OPENSSH_MAGIC_LEN	15
#define OPENSSH_BEGIN		"-----BEGIN OPENSSH PRIVATE KEY-----"
#define OPENSSH_END		"-----END OPENSSH PRIVATE KEY-----"
#define ARMOR_WIDTH		70	/* base64 columns, as OpenSSH writes */
#define PUBBLOB_LEN		(4 + SSH_ED25519_LEN + 4 + SIG_PUBKEY_BYTES)

#define B64		sodium_base64_VARIANT_ORIGINAL
#define B64_NOPAD	sodium_base64_VARIANT_ORIGINAL_NO_PADDING

/* A bounds-checked reader of SSH wire encoding. */
struct rd {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
};

/* A bounded writer of SSH wire encoding; `over` is set on overflow. */
struct wr {
	uint8_t		*p;
	size_t		 size;
	size_t		 len;
	int		 over;
};

/* A cursor over text lines (LF, CRLF or CR ends; trailing blanks cut). */
struct lines {
	const char	*p;
	const char	*end;
	unsigned int	 lineno;
};

static const char *field_names[4] = { "game", "ply", "player", "action" };

/* Set *err if err is not NULL and return -1. */
static int
fail(enum sig_error *err, enum sig_error e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

/* Set *err to SIG_OK if err is not NULL and return 0. */
static int
ok(enum sig_error *err)
{
	if (err != NULL)
		*err = SIG_OK;
	return 0;
}

/* Describe an error for a person. */
const char *
sig_strerror(enum sig_error e)
{
	switch (e) {
	case SIG_OK:
		return "no error";
	case SIG_ENOHEADER:
		return "no statement found: it must start with a line 'corrchess-v1'";
	case SIG_EVERSION:
		return "unsupported statement version: this server reads 'corrchess-v1' statements";
	case SIG_ESYNTAX:
		return "malformed statement line: write 'name: value' with a lower-case name, a colon and one space (game, ply, player, action)";
	case SIG_EFIELD_UNKNOWN:
		return "unknown field in the statement: only game, ply, player and action are allowed";
	case SIG_EFIELD_DUP:
		return "a statement field is given twice";
	case SIG_EFIELD_ORDER:
		return "statement fields out of order: write game, ply, player, action in that order";
	case SIG_EFIELD_MISSING:
		return "the statement is incomplete: it needs the lines game, ply, player and action, directly after 'corrchess-v1'";
	case SIG_EGAME:
		return "bad game number: write a positive decimal number without leading zeros";
	case SIG_EPLY:
		return "bad ply: write the number of half-moves played so far, a decimal number without leading zeros";
	case SIG_EPLAYER:
		return "bad player name: use 1 to 32 lower-case letters, digits, '_', '.' or '-'";
	case SIG_EACTION:
		return "unknown action: use move, accept-draw, decline-draw, resign, claim-draw or leave";
	case SIG_EACTION_ARGS:
		return "wrong words after the action: write 'move MOVE', 'move MOVE offer-draw', 'accept-draw', 'decline-draw', 'resign', 'claim-draw', 'claim-draw MOVE' or 'leave YYYY-MM-DD YYYY-MM-DD', words separated by one space";
	case SIG_EMOVE:
		return "bad move text: give a move of 1 to 32 printable ASCII characters";
	case SIG_EDATE:
		return "bad leave dates: write two real dates YYYY-MM-DD, the first day away then the last, first not after last";
	case SIG_ETOOLONG:
		return "the action is too long: at most 64 characters, the move at most 32";
	case SIG_ENOSIG:
		return "missing signature: put a line 'signature: BASE64' or an SSH SIGNATURE block (ssh-keygen -Y sign -n corrchess) right after the statement";
	case SIG_EBASE64:
		return "invalid base64 in the signature or key";
	case SIG_ESIGLEN:
		return "the signature line must hold a 64-byte Ed25519 signature (88 base64 characters)";
	case SIG_EARMOR:
		return "the SSH SIGNATURE block has no '-----END SSH SIGNATURE-----' line";
	case SIG_ESSHSIG:
		return "malformed SSH signature (truncated, too long, or not made by ssh-keygen -Y sign)";
	case SIG_ESSHSIG_VERSION:
		return "unsupported SSH signature version (only version 1 is known)";
	case SIG_ESSHSIG_HASH:
		return "unsupported SSH signature hash: use sha512 or sha256";
	case SIG_ENAMESPACE:
		return "the SSH signature was made for another purpose: sign with ssh-keygen -Y sign -n corrchess";
	case SIG_EBADSIG:
		return "the signature does not match the statement and the player's keys";
	case SIG_EKEY_MISMATCH:
		return "the SSH signature was made with a key that is not registered for this player";
	case SIG_EKEY_TYPE:
		return "unsupported key type: only Ed25519 keys are accepted (ssh-keygen -t ed25519)";
	case SIG_EKEY_LEN:
		return "an Ed25519 public key is 32 bytes (44 base64 characters); a secret key 32 or 64 bytes";
	case SIG_EKEY_FORMAT:
		return "malformed key: give 'ssh-ed25519 AAAA... comment', an OpenSSH private key file, or base64";
	case SIG_EKEY_ENCRYPTED:
		return "the private key is protected by a passphrase: use ssh-keygen -Y sign with it, or remove the passphrase (ssh-keygen -p)";
	case SIG_EKEY_CORRUPT:
		return "the private key file is damaged (its parts do not match)";
	case SIG_ESPACE:
		return "output buffer too small";
	case SIG_EIO:
		return "cannot read or write the key file";
	case SIG_EEXIST:
		return "the key file exists already; remove it first or choose another name";
	case SIG_ECRYPTO:
		return "the cryptography library failed";
	}
	return "unknown error";
}

/* Initialise libsodium. */
int
sig_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

/* --- wire encoding ------------------------------------------------- */

/* Read a big-endian uint32. */
static int
rd_u32(struct rd *r, uint32_t *v)
{
	const uint8_t *p;

	if (r->len - r->off < 4)
		return -1;
	p = r->p + r->off;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
	r->off += 4;
	return 0;
}

/* Read an SSH string: a uint32 length and that many bytes. */
static int
rd_string(struct rd *r, const uint8_t **pp, size_t *lenp)
{
	uint32_t n;

	if (rd_u32(r, &n) != 0 || n > r->len - r->off)
		return -1;
	*pp = r->p + r->off;
	*lenp = n;
	r->off += n;
	return 0;
}

/* Read `n` raw bytes. */
static int
rd_bytes(struct rd *r, const uint8_t **pp, size_t n)
{
	if (n > r->len - r->off)
		return -1;
	*pp = r->p + r->off;
	r->off += n;
	return 0;
}

/* True if a string read equals the C string `s`. */
static int
str_is(const uint8_t *p, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(p, s, len) == 0;
}

/* Append raw bytes. */
static void
wr_bytes(struct wr *w, const void *p, size_t n)
{
	if (w->over || n > w->size - w->len) {
		w->over = 1;
		return;
	}
	if (n > 0)
		memcpy(w->p + w->len, p, n);
	w->len += n;
}

/* Append a big-endian uint32. */
static void
wr_u32(struct wr *w, uint32_t v)
{
	uint8_t b[4];

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
	wr_bytes(w, b, 4);
}

/* Append an SSH string. */
static void
wr_string(struct wr *w, const void *p, size_t n)
{
	if (n > UINT32_MAX) {
		w->over = 1;
		return;
	}
	wr_u32(w, (uint32_t)n);
	wr_bytes(w, p, n);
}

/* Write the SSH public key blob of an Ed25519 key (PUBBLOB_LEN bytes). */
static void
pubblob(const uint8_t pk[SIG_PUBKEY_BYTES], uint8_t out[PUBBLOB_LEN])
{
	struct wr w = { out, PUBBLOB_LEN, 0, 0 };

	wr_string(&w, SSH_ED25519, SSH_ED25519_LEN);
	wr_string(&w, pk, SIG_PUBKEY_BYTES);
}

/* Parse an SSH Ed25519 public key blob. */
static int
pubblob_parse(const uint8_t *p, size_t len, uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err)
{
	struct rd r = { p, len, 0 };
	const uint8_t *type, *key;
	size_t typelen, keylen;

	if (rd_string(&r, &type, &typelen) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (!str_is(type, typelen, SSH_ED25519))
		return fail(err, SIG_EKEY_TYPE);
	if (rd_string(&r, &key, &keylen) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (keylen != SIG_PUBKEY_BYTES)
		return fail(err, SIG_EKEY_LEN);
	if (r.off != r.len)
		return fail(err, SIG_EKEY_FORMAT);
	memcpy(pk, key, SIG_PUBKEY_BYTES);
	return ok(err);
}

/* --- base64 and text helpers --------------------------------------- */

/* Decode standard base64, padded or not, into at most `max` bytes. */
static int
b64_decode(const char *s, size_t n, uint8_t *out, size_t max, size_t *lenp)
{
	if (sodium_base642bin(out, max, s, n, NULL, lenp, NULL, B64) == 0)
		return 0;
	if (sodium_base642bin(out, max, s, n, NULL, lenp, NULL, B64_NOPAD) == 0)
		return 0;
	return -1;
}

/* True if c may appear in standard base64. */
static int
is_b64char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
}

/* Write base64 of `n` bytes wrapped at ARMOR_WIDTH between armor lines. */
static int
armor_write(const char *begin, const char *end, const uint8_t *bin, size_t n,
    char *buf, size_t size)
{
	char b64[SIG_KEYFILE_MAX];
	size_t b64len, i, col, off = 0;
	int w;

	if (sodium_base64_ENCODED_LEN(n, B64) > sizeof b64)
		return -1;
	sodium_bin2base64(b64, sizeof b64, bin, n, B64);
	b64len = strlen(b64);

	w = snprintf(buf, size, "%s\n", begin);
	if (w < 0 || (size_t)w >= size)
		return -1;
	off = (size_t)w;
	for (i = 0; i < b64len; i += col) {
		col = b64len - i < ARMOR_WIDTH ? b64len - i : ARMOR_WIDTH;
		if (size - off < col + 2)
			return -1;
		memcpy(buf + off, b64 + i, col);
		off += col;
		buf[off++] = '\n';
	}
	w = snprintf(buf + off, size - off, "%s\n", end);
	if (w < 0 || (size_t)w >= size - off)
		return -1;
	sodium_memzero(b64, sizeof b64);
	return 0;
}

/* Start a line cursor over a text. */
static void
lines_init(struct lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->lineno = 0;
}

/* Take the next line, without its end and trailing spaces and tabs. */
static int
lines_next(struct lines *it, const char **sp, size_t *lenp)
{
	const char *s, *e;

	if (it->p >= it->end)
		return 0;
	s = it->p;
	e = s;
	while (e < it->end && *e != '\n' && *e != '\r')
		e++;
	it->p = e;
	if (it->p < it->end && *it->p == '\r')
		it->p++;
	if (it->p < it->end && *it->p == '\n' && (it->p == e || e[0] == '\r'))
		it->p++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	it->lineno++;
	*sp = s;
	*lenp = (size_t)(e - s);
	return 1;
}

/* True if a line equals the C string `s`. */
static int
line_is(const char *p, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(p, s, len) == 0;
}

/* True if the line starts with the C string `s`. */
static int
line_starts(const char *p, size_t len, const char *s)
{
	size_t n = strlen(s);

	return len >= n && memcmp(p, s, n) == 0;
}

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
		return fail(err, SIG_EKEY_FORMAT);

	/* The first word: a key type, or the whole raw key. */
	w = s;
	while (w < e && *w != ' ' && *w != '\t')
		w++;
	if (w == e) {
		for (n = 0; s + n < e; n++)
			if (!is_b64char((unsigned char)s[n]))
				return fail(err, SIG_EKEY_FORMAT);
		if (n > 64)
			return fail(err, SIG_EKEY_LEN);
		if (b64_decode(s, n, blob, sizeof blob, &len) != 0)
			return fail(err, SIG_EBASE64);
		if (len != SIG_PUBKEY_BYTES)
			return fail(err, SIG_EKEY_LEN);
		memcpy(pk, blob, SIG_PUBKEY_BYTES);
		return ok(err);
	}
	if ((size_t)(w - s) != SSH_ED25519_LEN ||
	    memcmp(s, SSH_ED25519, SSH_ED25519_LEN) != 0) {
		if (line_starts(s, (size_t)(e - s), "ssh-") ||
		    line_starts(s, (size_t)(e - s), "ecdsa-") ||
		    line_starts(s, (size_t)(e - s), "sk-"))
			return fail(err, SIG_EKEY_TYPE);
		return fail(err, SIG_EKEY_FORMAT);
	}

	/* The second word: base64 of the key blob; a comment may follow. */
	while (w < e && (*w == ' ' || *w == '\t'))
		w++;
	s = w;
	while (w < e && *w != ' ' && *w != '\t')
		w++;
	n = (size_t)(w - s);
	if (n == 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (n > 4 * sizeof blob / 3)
		return fail(err, SIG_EKEY_LEN);
	if (b64_decode(s, n, blob, sizeof blob, &len) != 0)
		return fail(err, SIG_EBASE64);
	return pubblob_parse(blob, len, pk, err);
}

/* Format a public key as an OpenSSH line. */
int
sig_pubkey_format(const uint8_t pk[SIG_PUBKEY_BYTES], const char *comment,
    char *buf, size_t size)
{
	uint8_t blob[PUBBLOB_LEN];
	char b64[sodium_base64_ENCODED_LEN(PUBBLOB_LEN, B64)];
	int n;

	pubblob(pk, blob);
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

	pubblob(pk, blob);
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
		return fail(err, errno == EEXIST ? SIG_EEXIST : SIG_EIO);
	if (fchmod(fd, mode) != 0 || write_all(fd, text, strlen(text)) != 0 ||
	    fsync(fd) != 0) {
		saved = errno;
		close(fd);
		unlink(path);
		errno = saved;
		return fail(err, SIG_EIO);
	}
	if (close(fd) != 0) {
		saved = errno;
		unlink(path);
		errno = saved;
		return fail(err, SIG_EIO);
	}
	return ok(err);
}

/* Write an unencrypted openssh-key-v1 private key and its .pub line. */
int
sig_seckey_write(const char *path, const uint8_t sk[SIG_SECKEY_BYTES],
    const char *comment, enum sig_error *err)
{
	uint8_t priv[512], blob[1024], pb[PUBBLOB_LEN], pad;
	char text[2048], pub[SIG_PUBKEY_LINE_SIZE + 256], pubpath[PATH_MAX];
	struct wr w;
	uint32_t check;
	const char *c;
	int n, r = -1;

	if (comment == NULL)
		comment = "";
	if (strlen(comment) > 200)
		return fail(err, SIG_EKEY_FORMAT);
	for (c = comment; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return fail(err, SIG_EKEY_FORMAT);
	n = snprintf(pubpath, sizeof pubpath, "%s.pub", path);
	if (n < 0 || (size_t)n >= sizeof pubpath)
		return fail(err, SIG_ESPACE);

	/* The private section, padded to the cipher block size (8). */
	check = randombytes_random();
	w = (struct wr){ priv, sizeof priv, 0, 0 };
	wr_u32(&w, check);
	wr_u32(&w, check);
	wr_string(&w, SSH_ED25519, SSH_ED25519_LEN);
	wr_string(&w, sk + SIG_SEED_BYTES, SIG_PUBKEY_BYTES);
	wr_string(&w, sk, SIG_SECKEY_BYTES);
	wr_string(&w, comment, strlen(comment));
	for (pad = 1; w.len % 8 != 0; pad++)
		wr_bytes(&w, &pad, 1);

	/* The whole key. */
	pubblob(sk + SIG_SEED_BYTES, pb);
	{
		struct wr k = { blob, sizeof blob, 0, 0 };

		wr_bytes(&k, OPENSSH_MAGIC, OPENSSH_MAGIC_LEN);
		wr_string(&k, "none", 4);
		wr_string(&k, "none", 4);
		wr_string(&k, "", 0);
		wr_u32(&k, 1);
		wr_string(&k, pb, sizeof pb);
		wr_string(&k, priv, w.len);
		if (w.over || k.over) {
			fail(err, SIG_ESPACE);
			goto out;
		}
		if (armor_write(OPENSSH_BEGIN, OPENSSH_END, blob, k.len, text,
		    sizeof text) != 0) {
			fail(err, SIG_ESPACE);
			goto out;
		}
	}
	if (sig_pubkey_format(sk + SIG_SEED_BYTES, comment, pub,
	    sizeof pub - 1) != 0) {
		fail(err, SIG_ESPACE);
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
	r = ok(err);
out:
	sodium_memzero(priv, sizeof priv);
	sodium_memzero(blob, sizeof blob);
	sodium_memzero(text, sizeof text);
	return r;
}

/* Parse the binary openssh-key-v1 structure. */
static int
openssh_key_parse(const uint8_t *p, size_t len, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err)
{
	struct rd r = { p, len, 0 }, pr;
	const uint8_t *magic, *cipher, *kdf, *kdfopt, *pb, *priv, *type, *pk;
	const uint8_t *s, *comment;
	size_t cipherlen, kdflen, kdfoptlen, pblen, privlen, typelen, pklen;
	size_t slen, commentlen, i;
	uint32_t nkeys, c1, c2;
	uint8_t pubkey[SIG_PUBKEY_BYTES];

	if (rd_bytes(&r, &magic, OPENSSH_MAGIC_LEN) != 0 ||
	    memcmp(magic, OPENSSH_MAGIC, OPENSSH_MAGIC_LEN) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (rd_string(&r, &cipher, &cipherlen) != 0 ||
	    rd_string(&r, &kdf, &kdflen) != 0 ||
	    rd_string(&r, &kdfopt, &kdfoptlen) != 0 ||
	    rd_u32(&r, &nkeys) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (!str_is(cipher, cipherlen, "none") || !str_is(kdf, kdflen, "none"))
		return fail(err, SIG_EKEY_ENCRYPTED);
	if (nkeys != 1)
		return fail(err, SIG_EKEY_FORMAT);
	if (rd_string(&r, &pb, &pblen) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (pubblob_parse(pb, pblen, pubkey, err) != 0)
		return -1;
	if (rd_string(&r, &priv, &privlen) != 0 || r.off != r.len ||
	    privlen % 8 != 0)
		return fail(err, SIG_EKEY_FORMAT);

	pr = (struct rd){ priv, privlen, 0 };
	if (rd_u32(&pr, &c1) != 0 || rd_u32(&pr, &c2) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (c1 != c2)
		return fail(err, SIG_EKEY_CORRUPT);
	if (rd_string(&pr, &type, &typelen) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (!str_is(type, typelen, SSH_ED25519))
		return fail(err, SIG_EKEY_TYPE);
	if (rd_string(&pr, &pk, &pklen) != 0 ||
	    rd_string(&pr, &s, &slen) != 0 ||
	    rd_string(&pr, &comment, &commentlen) != 0)
		return fail(err, SIG_EKEY_FORMAT);
	if (pklen != SIG_PUBKEY_BYTES || slen != SIG_SECKEY_BYTES)
		return fail(err, SIG_EKEY_LEN);
	for (i = 0; pr.off < pr.len; i++, pr.off++)
		if (priv[pr.off] != (uint8_t)(i + 1))
			return fail(err, SIG_EKEY_CORRUPT);
	if (memcmp(pk, pubkey, SIG_PUBKEY_BYTES) != 0 ||
	    memcmp(s + SIG_SEED_BYTES, pubkey, SIG_PUBKEY_BYTES) != 0 ||
	    seckey_check(s) != 0)
		return fail(err, SIG_EKEY_CORRUPT);
	memcpy(sk, s, SIG_SECKEY_BYTES);
	return ok(err);
}

/* Read a secret key from text (OpenSSH private key or raw base64). */
int
sig_seckey_parse(const char *text, size_t len, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err)
{
	struct lines it;
	const char *l;
	size_t n, b64len = 0, binlen;
	char *b64 = NULL;
	uint8_t *bin = NULL;
	int r = -1, inside = 0, done = 0;
	enum sig_error e = SIG_EKEY_FORMAT;

	if (len > SIG_KEYFILE_MAX)
		return fail(err, SIG_EKEY_FORMAT);
	if ((b64 = sodium_malloc(SIG_KEYFILE_MAX + 1)) == NULL ||
	    (bin = sodium_malloc(SIG_KEYFILE_MAX)) == NULL) {
		e = SIG_ECRYPTO;
		goto out;
	}

	/* Collect the base64: between the armor lines, or the whole text. */
	lines_init(&it, text, len);
	while (!done && lines_next(&it, &l, &n)) {
		while (n > 0 && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		if (n == 0)
			continue;
		if (line_starts(l, n, "-----BEGIN ")) {
			if (!line_is(l, n, OPENSSH_BEGIN)) {
				e = line_starts(l, n, "-----BEGIN SSH2 ") ?
				    SIG_EKEY_FORMAT : SIG_EKEY_TYPE;
				goto out;
			}
			if (inside || b64len > 0)
				goto out;
			inside = 1;
			continue;
		}
		if (line_is(l, n, OPENSSH_END)) {
			if (!inside)
				goto out;
			inside = 0;
			done = 1;
			continue;
		}
		if (line_starts(l, n, "ssh-") || line_starts(l, n, "ecdsa-"))
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
	if (b64_decode(b64, b64len, bin, SIG_KEYFILE_MAX, &binlen) != 0) {
		e = SIG_EBASE64;
		goto out;
	}
	if (done) {
		r = openssh_key_parse(bin, binlen, sk, err);
		goto out_set;
	}
	if (binlen == SIG_SEED_BYTES) {
		uint8_t pk[SIG_PUBKEY_BYTES];

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
	} else {
		e = SIG_EKEY_LEN;
		goto out;
	}
	r = ok(err);
	goto out_set;
out:
	fail(err, e);
out_set:
	if (b64 != NULL)
		sodium_free(b64);
	if (bin != NULL)
		sodium_free(bin);
	return r;
}

/* Read a secret key file. */
int
sig_seckey_read(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    enum sig_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd = -1, r = -1, saved;

	if ((buf = sodium_malloc(SIG_KEYFILE_MAX + 1)) == NULL)
		return fail(err, SIG_ECRYPTO);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		fail(err, SIG_EIO);
		goto out;
	}
	for (;;) {
		n = read(fd, buf + len, SIG_KEYFILE_MAX + 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail(err, SIG_EIO);
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > SIG_KEYFILE_MAX) {
			fail(err, SIG_EKEY_FORMAT);
			goto out;
		}
	}
	r = sig_seckey_parse(buf, len, sk, err);
out:
	saved = errno;
	if (fd != -1)
		close(fd);
	sodium_free(buf);
	errno = saved;
	return r;
}

/* --- statements ---------------------------------------------------- */

/* Parse a decimal without sign or leading zero, up to `max`. */
static int
parse_decimal(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (n == 0 || (s[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (x > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* Check a player name: [a-z0-9_.-]{1,SIG_PLAYER_MAX}. */
static int
player_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > SIG_PLAYER_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '.' || s[i] == '-'))
			return 0;
	}
	return 1;
}

/* Parse a calendar date YYYY-MM-DD (proleptic Gregorian, year >= 1). */
static int
parse_date(const char *s, size_t n, struct sig_date *d)
{
	static const uint8_t mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int y, m, dd, max;
	size_t i;

	if (n != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return -1;
	y = (unsigned)(s[0] - '0') * 1000 + (unsigned)(s[1] - '0') * 100 +
	    (unsigned)(s[2] - '0') * 10 + (unsigned)(s[3] - '0');
	m = (unsigned)(s[5] - '0') * 10 + (unsigned)(s[6] - '0');
	dd = (unsigned)(s[8] - '0') * 10 + (unsigned)(s[9] - '0');
	if (y == 0 || m < 1 || m > 12 || dd < 1)
		return -1;
	max = mdays[m - 1];
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		max = 29;
	if (dd > max)
		return -1;
	d->year = (uint16_t)y;
	d->month = (uint8_t)m;
	d->day = (uint8_t)dd;
	return 0;
}

/* Compare two dates. */
static int
date_cmp(const struct sig_date *a, const struct sig_date *b)
{
	if (a->year != b->year)
		return a->year < b->year ? -1 : 1;
	if (a->month != b->month)
		return a->month < b->month ? -1 : 1;
	if (a->day != b->day)
		return a->day < b->day ? -1 : 1;
	return 0;
}

/* Check move text (words of printable ASCII, one space apart) and copy. */
static int
move_copy(const char *s, size_t n, char out[SIG_MOVE_MAX + 1])
{
	size_t i;

	if (n == 0 || n > SIG_MOVE_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/* Parse an action value. */
int
sig_action_parse(const char *text, size_t len, struct sig_action *a,
    enum sig_error *err)
{
	const char *w[8], *rest, *e = text + len;
	size_t wl[8], nw = 0, i, restlen, p = 0, q;

	memset(a, 0, sizeof *a);
	if (len > SIG_ACTION_MAX)
		return fail(err, SIG_ETOOLONG);
	if (len == 0)
		return fail(err, SIG_EACTION);

	/* Split into words: one space apart, none empty. */
	for (;;) {
		q = p;
		while (q < len && text[q] != ' ')
			q++;
		if (q == p)
			return fail(err, SIG_EACTION_ARGS);
		if (nw == sizeof w / sizeof w[0]) {
			if (line_starts(text, len, "move ") ||
			    line_starts(text, len, "claim-draw "))
				return fail(err, SIG_EMOVE);
			return fail(err, SIG_EACTION_ARGS);
		}
		w[nw] = text + p;
		wl[nw++] = q - p;
		if (q == len)
			break;
		p = q + 1;
	}
	rest = nw > 1 ? w[1] : e;
	restlen = (size_t)(e - rest);

	if (line_is(w[0], wl[0], "move")) {
		if (nw < 2)
			return fail(err, SIG_EACTION_ARGS);
		a->kind = SIG_ACT_MOVE;
		if (nw > 2 && line_is(w[nw - 1], wl[nw - 1], "offer-draw")) {
			a->kind = SIG_ACT_MOVE_OFFER_DRAW;
			restlen = (size_t)(w[nw - 1] - 1 - rest);
		}
		if (move_copy(rest, restlen, a->move) != 0)
			return fail(err, SIG_EMOVE);
	} else if (line_is(w[0], wl[0], "accept-draw") ||
	    line_is(w[0], wl[0], "decline-draw") ||
	    line_is(w[0], wl[0], "resign")) {
		if (nw != 1)
			return fail(err, SIG_EACTION_ARGS);
		a->kind = w[0][0] == 'a' ? SIG_ACT_ACCEPT_DRAW :
		    w[0][0] == 'd' ? SIG_ACT_DECLINE_DRAW : SIG_ACT_RESIGN;
	} else if (line_is(w[0], wl[0], "claim-draw")) {
		a->kind = SIG_ACT_CLAIM_DRAW;
		if (nw > 1 && move_copy(rest, restlen, a->move) != 0)
			return fail(err, SIG_EMOVE);
	} else if (line_is(w[0], wl[0], "leave")) {
		a->kind = SIG_ACT_LEAVE;
		if (nw != 3)
			return fail(err, SIG_EACTION_ARGS);
		if (parse_date(w[1], wl[1], &a->from) != 0 ||
		    parse_date(w[2], wl[2], &a->to) != 0 ||
		    date_cmp(&a->from, &a->to) > 0)
			return fail(err, SIG_EDATE);
	} else
		return fail(err, SIG_EACTION);
	for (i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 ||
		    (unsigned char)text[i] > 0x7e)
			return fail(err, SIG_EACTION_ARGS);
	return ok(err);
}

/* Write an action's text into buf. */
static int
action_format(const struct sig_action *a, char *buf, size_t size)
{
	int n = -1;

	switch (a->kind) {
	case SIG_ACT_MOVE:
		n = snprintf(buf, size, "move %s", a->move);
		break;
	case SIG_ACT_MOVE_OFFER_DRAW:
		n = snprintf(buf, size, "move %s offer-draw", a->move);
		break;
	case SIG_ACT_ACCEPT_DRAW:
		n = snprintf(buf, size, "accept-draw");
		break;
	case SIG_ACT_DECLINE_DRAW:
		n = snprintf(buf, size, "decline-draw");
		break;
	case SIG_ACT_RESIGN:
		n = snprintf(buf, size, "resign");
		break;
	case SIG_ACT_CLAIM_DRAW:
		if (a->move[0] == '\0')
			n = snprintf(buf, size, "claim-draw");
		else
			n = snprintf(buf, size, "claim-draw %s", a->move);
		break;
	case SIG_ACT_LEAVE:
		n = snprintf(buf, size, "leave %04u-%02u-%02u %04u-%02u-%02u",
		    a->from.year, a->from.month, a->from.day,
		    a->to.year, a->to.month, a->to.day);
		break;
	}
	if (n < 0 || (size_t)n >= size)
		return -1;
	return n;
}

/* Build a statement's canonical bytes from its fields. */
int
sig_statement_build(struct sig_statement *st, enum sig_error *err)
{
	char action[SIG_ACTION_MAX + 16], canon[SIG_STATEMENT_MAX + 1];
	struct sig_action check;
	size_t plen;
	int n, has_move;

	if (st->game < 1 || st->game > SIG_GAME_MAX)
		return fail(err, SIG_EGAME);
	plen = strnlen(st->player, sizeof st->player);
	if (plen == sizeof st->player || !player_ok(st->player, plen))
		return fail(err, SIG_EPLAYER);
	if (st->action.kind > SIG_ACT_LEAVE)
		return fail(err, SIG_EACTION);
	has_move = st->action.kind == SIG_ACT_MOVE ||
	    st->action.kind == SIG_ACT_MOVE_OFFER_DRAW ||
	    st->action.kind == SIG_ACT_CLAIM_DRAW;
	if (has_move && memchr(st->action.move, '\0',
	    sizeof st->action.move) == NULL)
		return fail(err, SIG_EMOVE);
	n = action_format(&st->action, action, sizeof action);
	if (n < 0)
		return fail(err, SIG_EMOVE);
	/* Reading the text back must give the same action. */
	if (sig_action_parse(action, (size_t)n, &check, err) != 0)
		return -1;
	if (check.kind != st->action.kind ||
	    (has_move && strcmp(check.move, st->action.move) != 0))
		return fail(err, SIG_EMOVE);

	n = snprintf(canon, sizeof canon,
	    SIG_HEADER "\ngame: %" PRIu64 "\nply: %" PRIu32 "\nplayer: %s\n"
	    "action: %s\n", st->game, st->ply, st->player, action);
	if (n < 0 || (size_t)n >= sizeof canon)
		return fail(err, SIG_ETOOLONG);
	memcpy(st->canon, canon, (size_t)n);
	st->canon_len = (size_t)n;
	return ok(err);
}

/* Parse one field line's value into st; `field` is its index. */
static int
field_value(struct sig_statement *st, int field, const char *v, size_t n,
    enum sig_error *err)
{
	uint64_t x;

	switch (field) {
	case 0:
		if (parse_decimal(v, n, SIG_GAME_MAX, &x) != 0 || x == 0)
			return fail(err, SIG_EGAME);
		st->game = x;
		break;
	case 1:
		if (parse_decimal(v, n, SIG_PLY_MAX, &x) != 0)
			return fail(err, SIG_EPLY);
		st->ply = (uint32_t)x;
		break;
	case 2:
		if (!player_ok(v, n))
			return fail(err, SIG_EPLAYER);
		memcpy(st->player, v, n);
		st->player[n] = '\0';
		break;
	case 3:
		return sig_action_parse(v, n, &st->action, err);
	}
	return ok(err);
}

/* Index of a field name (exact), or -1. */
static int
field_index(const char *s, size_t n)
{
	int i;

	for (i = 0; i < 4; i++)
		if (line_is(s, n, field_names[i]))
			return i;
	return -1;
}

/* True if the line starts a signature (or is where one should be). */
static int
is_signature_line(const char *l, size_t n)
{
	return line_starts(l, n, "signature:") || line_is(l, n, SSHSIG_BEGIN);
}

/* Classify a line that stands where a field should: why is it wrong? */
static enum sig_error
field_line_error(const char *l, size_t n, int expect, int seen[4])
{
	const char *colon;
	size_t i, nl;
	int f;

	colon = memchr(l, ':', n);
	if (colon == NULL || l[0] == ' ' || l[0] == '\t')
		return SIG_ESYNTAX;
	nl = (size_t)(colon - l);
	if (nl == 0)
		return SIG_ESYNTAX;
	for (i = 0; i < nl; i++)
		if (!((l[i] >= 'a' && l[i] <= 'z') || l[i] == '-' ||
		    l[i] == '_'))
			break;
	f = field_index(l, nl);
	if (i < nl) {
		/* Upper case or odd characters in the name. */
		for (i = 0; i < 4; i++)
			if (strlen(field_names[i]) == nl &&
			    strncasecmp(l, field_names[i], nl) == 0)
				return SIG_ESYNTAX;
		return SIG_EFIELD_UNKNOWN;
	}
	if (f < 0)
		return SIG_EFIELD_UNKNOWN;
	if (seen[f])
		return SIG_EFIELD_DUP;
	if (f != expect)
		return SIG_EFIELD_ORDER;
	return SIG_ESYNTAX;
}

/* Parse the signature that starts at line `l` (after the statement). */
static int
signature_parse(const char *l, size_t n, const char *end,
    struct sig_signature *sg, enum sig_error *err)
{
	uint8_t bin[96];
	size_t len;

	memset(sg, 0, sizeof *sg);
	if (line_starts(l, n, "signature:")) {
		l += 10;
		n -= 10;
		if (n == 0 || *l != ' ')
			return fail(err, n == 0 ? SIG_ESIGLEN : SIG_ESYNTAX);
		l++;
		n--;
		if (n > 4 * sizeof bin / 3)
			return fail(err, SIG_ESIGLEN);
		if (b64_decode(l, n, bin, sizeof bin, &len) != 0)
			return fail(err, SIG_EBASE64);
		if (len != SIG_SIGNATURE_BYTES)
			return fail(err, SIG_ESIGLEN);
		memcpy(sg->raw, bin, SIG_SIGNATURE_BYTES);
		sg->form = SIG_FORM_RAW;
		return ok(err);
	}
	if (sig_sshsig_parse_armor(l, (size_t)(end - l), &sg->ssh, NULL,
	    err) != 0)
		return -1;
	sg->form = SIG_FORM_SSHSIG;
	return ok(err);
}

/* Find and parse the first statement in a text, and its signature. */
int
sig_statement_parse(const char *text, size_t len, struct sig_statement *st,
    struct sig_signature *sg, enum sig_error *err)
{
	struct lines it;
	const char *l, *colon;
	size_t n, i;
	int field, seen[4] = { 0, 0, 0, 0 };

	memset(st, 0, sizeof *st);
	if (sg != NULL)
		memset(sg, 0, sizeof *sg);
	lines_init(&it, text, len);

	/* The header line. */
	for (;;) {
		if (!lines_next(&it, &l, &n))
			return fail(err, SIG_ENOHEADER);
		if (line_is(l, n, SIG_HEADER))
			break;
		if (line_starts(l, n, "corrchess-v") && n > 11) {
			for (i = 11; i < n; i++)
				if (l[i] < '0' || l[i] > '9')
					break;
			if (i == n) {
				st->line = it.lineno;
				return fail(err, SIG_EVERSION);
			}
		}
	}

	/* The four fields, in order. */
	for (field = 0; field < 4; field++) {
		if (!lines_next(&it, &l, &n) || n == 0 ||
		    is_signature_line(l, n)) {
			st->line = it.lineno;
			return fail(err, SIG_EFIELD_MISSING);
		}
		st->line = it.lineno;
		colon = memchr(l, ':', n);
		if (colon == NULL || (size_t)(colon - l) !=
		    strlen(field_names[field]) ||
		    memcmp(l, field_names[field], (size_t)(colon - l)) != 0)
			return fail(err, field_line_error(l, n, field, seen));
		i = (size_t)(colon - l) + 1;
		if (i < n && l[i] != ' ')
			return fail(err, SIG_ESYNTAX);
		i = i < n ? i + 1 : n;
		seen[field] = 1;
		if (field_value(st, field, l + i, n - i, err) != 0)
			return -1;
	}

	/* The statement ends here: a blank line, a signature or the end. */
	if (lines_next(&it, &l, &n) && n > 0 && !is_signature_line(l, n)) {
		st->line = it.lineno;
		return fail(err, field_line_error(l, n, 4, seen));
	}
	if (sig_statement_build(st, err) != 0)
		return -1;

	if (sg == NULL) {
		st->line = 0;
		return ok(err);
	}

	/* The signature, after blank lines if any. */
	while (n == 0) {
		if (!lines_next(&it, &l, &n)) {
			st->line = it.lineno;
			return fail(err, SIG_ENOSIG);
		}
	}
	st->line = it.lineno;
	if (!is_signature_line(l, n))
		return fail(err, SIG_ENOSIG);
	if (signature_parse(l, n, it.end, sg, err) != 0)
		return -1;
	st->line = 0;
	return ok(err);
}

/* Sign a statement and write it with its signature. */
int
sig_statement_sign(const struct sig_statement *st,
    const uint8_t sk[SIG_SECKEY_BYTES], enum sig_form form, char *buf,
    size_t size, enum sig_error *err)
{
	uint8_t sig[SIG_SIGNATURE_BYTES];

	if (st->canon_len == 0 || st->canon_len > SIG_STATEMENT_MAX)
		return fail(err, SIG_EFIELD_MISSING);
	if (size < st->canon_len + 1)
		return fail(err, SIG_ESPACE);
	memcpy(buf, st->canon, st->canon_len);
	switch (form) {
	case SIG_FORM_RAW:
		if (sig_sign(st->canon, st->canon_len, sk, sig) != 0)
			return fail(err, SIG_ECRYPTO);
		if (sig_rawsig_format(sig, buf + st->canon_len,
		    size - st->canon_len) != 0)
			return fail(err, SIG_ESPACE);
		break;
	case SIG_FORM_SSHSIG:
		if (sig_sshsig_sign(st->canon, st->canon_len, sk, SIG_NAMESPACE,
		    buf + st->canon_len, size - st->canon_len, err) != 0)
			return -1;
		break;
	default:
		return fail(err, SIG_ENOSIG);
	}
	return ok(err);
}

/* Verify a statement's signature against a player's keys. */
int
sig_signature_verify(const struct sig_statement *st,
    const struct sig_signature *sg, const uint8_t (*keys)[SIG_PUBKEY_BYTES],
    size_t nkeys, size_t *which, enum sig_error *err)
{
	size_t i;

	switch (sg->form) {
	case SIG_FORM_RAW:
		for (i = 0; i < nkeys; i++) {
			if (sig_verify(st->canon, st->canon_len, sg->raw,
			    keys[i]) == 0) {
				if (which != NULL)
					*which = i;
				return ok(err);
			}
		}
		return fail(err, SIG_EBADSIG);
	case SIG_FORM_SSHSIG:
		if (!str_is(sg->ssh.blob + sg->ssh.ns_off, sg->ssh.ns_len,
		    SIG_NAMESPACE))
			return fail(err, SIG_ENAMESPACE);
		for (i = 0; i < nkeys; i++)
			if (memcmp(keys[i], sg->ssh.pubkey,
			    SIG_PUBKEY_BYTES) == 0)
				break;
		if (i == nkeys)
			return fail(err, SIG_EKEY_MISMATCH);
		if (sig_sshsig_verify(&sg->ssh, st->canon, st->canon_len,
		    SIG_NAMESPACE, err) != 0)
			return -1;
		if (which != NULL)
			*which = i;
		return ok(err);
	case SIG_FORM_NONE:
		break;
	}
	return fail(err, SIG_ENOSIG);
}

/* Point at the binary signature bytes of the record chain. */
const uint8_t *
sig_signature_bytes(const struct sig_signature *sg, size_t *lenp)
{
	switch (sg->form) {
	case SIG_FORM_RAW:
		*lenp = SIG_SIGNATURE_BYTES;
		return sg->raw;
	case SIG_FORM_SSHSIG:
		*lenp = sg->ssh.blob_len;
		return sg->ssh.blob;
	case SIG_FORM_NONE:
		break;
	}
	*lenp = 0;
	return NULL;
}

/* --- raw Ed25519 --------------------------------------------------- */

/* Make a detached Ed25519 signature. */
int
sig_sign(const uint8_t *msg, size_t len, const uint8_t sk[SIG_SECKEY_BYTES],
    uint8_t sig[SIG_SIGNATURE_BYTES])
{
	return crypto_sign_detached(sig, NULL, msg, len, sk) == 0 ? 0 : -1;
}

/* Verify a detached Ed25519 signature. */
int
sig_verify(const uint8_t *msg, size_t len,
    const uint8_t sig[SIG_SIGNATURE_BYTES], const uint8_t pk[SIG_PUBKEY_BYTES])
{
	return crypto_sign_verify_detached(sig, msg, len, pk) == 0 ? 0 : -1;
}

/* Format the "signature: BASE64" line. */
int
sig_rawsig_format(const uint8_t sig[SIG_SIGNATURE_BYTES], char *buf,
    size_t size)
{
	char b64[sodium_base64_ENCODED_LEN(SIG_SIGNATURE_BYTES, B64)];
	int n;

	sodium_bin2base64(b64, sizeof b64, sig, SIG_SIGNATURE_BYTES, B64);
	n = snprintf(buf, size, "signature: %s\n", b64);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return 0;
}

/* --- OpenSSH SSHSIG ------------------------------------------------ */

/* Parse a binary SSHSIG blob. */
int
sig_sshsig_parse(const uint8_t *blob, size_t len, struct sig_sshsig *ss,
    enum sig_error *err)
{
	struct rd r = { blob, len, 0 }, sr;
	const uint8_t *magic, *pb, *ns, *res, *hash, *sigblob, *type, *sig;
	size_t pblen, nslen, reslen, hashlen, sigbloblen, typelen, siglen;
	uint32_t version;

	memset(ss, 0, sizeof *ss);
	if (len > SIG_SSHSIG_MAX)
		return fail(err, SIG_ESSHSIG);
	if (rd_bytes(&r, &magic, SSHSIG_MAGIC_LEN) != 0 ||
	    memcmp(magic, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN) != 0 ||
	    rd_u32(&r, &version) != 0)
		return fail(err, SIG_ESSHSIG);
	if (version != 1)
		return fail(err, SIG_ESSHSIG_VERSION);
	if (rd_string(&r, &pb, &pblen) != 0)
		return fail(err, SIG_ESSHSIG);
	if (pubblob_parse(pb, pblen, ss->pubkey, err) != 0)
		return -1;
	if (rd_string(&r, &ns, &nslen) != 0 ||
	    rd_string(&r, &res, &reslen) != 0 ||
	    rd_string(&r, &hash, &hashlen) != 0)
		return fail(err, SIG_ESSHSIG);
	if (str_is(hash, hashlen, "sha512"))
		ss->hash = SIG_SSHSIG_SHA512;
	else if (str_is(hash, hashlen, "sha256"))
		ss->hash = SIG_SSHSIG_SHA256;
	else
		return fail(err, SIG_ESSHSIG_HASH);
	if (rd_string(&r, &sigblob, &sigbloblen) != 0 || r.off != r.len)
		return fail(err, SIG_ESSHSIG);

	/* The signature: string "ssh-ed25519", string of 64 bytes. */
	sr = (struct rd){ sigblob, sigbloblen, 0 };
	if (rd_string(&sr, &type, &typelen) != 0)
		return fail(err, SIG_ESSHSIG);
	if (!str_is(type, typelen, SSH_ED25519))
		return fail(err, SIG_EKEY_TYPE);
	if (rd_string(&sr, &sig, &siglen) != 0 || sr.off != sr.len ||
	    siglen != SIG_SIGNATURE_BYTES)
		return fail(err, SIG_ESSHSIG);

	memcpy(ss->blob, blob, len);
	ss->blob_len = len;
	ss->ns_off = (size_t)(ns - blob);
	ss->ns_len = nslen;
	ss->reserved_off = (size_t)(res - blob);
	ss->reserved_len = reslen;
	memcpy(ss->sig, sig, SIG_SIGNATURE_BYTES);
	return ok(err);
}

/* Parse an armored SSHSIG block. */
int
sig_sshsig_parse_armor(const char *text, size_t len, struct sig_sshsig *ss,
    size_t *usedp, enum sig_error *err)
{
	/* Base64 of the largest blob, with room to see that it is larger. */
	char b64[sodium_base64_ENCODED_LEN(SIG_SSHSIG_MAX, B64) + 4];
	uint8_t bin[sizeof b64];
	struct lines it;
	const char *l;
	size_t n, b64len = 0, binlen, i, skip = 0;

	memset(ss, 0, sizeof *ss);
	while (skip < len && (text[skip] == ' ' || text[skip] == '\t' ||
	    text[skip] == '\r' || text[skip] == '\n'))
		skip++;
	lines_init(&it, text + skip, len - skip);
	if (!lines_next(&it, &l, &n) || !line_is(l, n, SSHSIG_BEGIN))
		return fail(err, SIG_ENOSIG);
	for (;;) {
		if (!lines_next(&it, &l, &n))
			return fail(err, SIG_EARMOR);
		while (n > 0 && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		if (line_is(l, n, SSHSIG_END))
			break;
		if (line_starts(l, n, "-----"))
			return fail(err, SIG_EARMOR);
		for (i = 0; i < n; i++)
			if (!is_b64char((unsigned char)l[i]))
				return fail(err, SIG_EBASE64);
		if (n > sizeof b64 - 1 - b64len)
			return fail(err, SIG_ESSHSIG);
		memcpy(b64 + b64len, l, n);
		b64len += n;
	}
	if (b64_decode(b64, b64len, bin, sizeof bin, &binlen) != 0)
		return fail(err, SIG_EBASE64);
	if (usedp != NULL)
		*usedp = skip + (size_t)(it.p - (text + skip));
	return sig_sshsig_parse(bin, binlen, ss, err);
}

/* Write the data an SSHSIG's Ed25519 signature covers. */
static int
sshsig_signed_data(const uint8_t *ns, size_t nslen, const uint8_t *res,
    size_t reslen, enum sig_sshsig_hash hash, const uint8_t *msg, size_t len,
    struct wr *w)
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
	wr_bytes(w, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wr_string(w, ns, nslen);
	wr_string(w, res, reslen);
	wr_string(w, name, strlen(name));
	wr_string(w, h, hlen);
	return w->over ? -1 : 0;
}

/* Verify an SSHSIG over a message. */
int
sig_sshsig_verify(const struct sig_sshsig *ss, const uint8_t *msg,
    size_t len, const char *ns, enum sig_error *err)
{
	uint8_t data[SIG_SSHSIG_MAX + 128];
	struct wr w = { data, sizeof data, 0, 0 };

	if (ss->blob_len == 0 || ss->blob_len > SIG_SSHSIG_MAX ||
	    ss->ns_len > ss->blob_len - ss->ns_off ||
	    ss->reserved_len > ss->blob_len - ss->reserved_off)
		return fail(err, SIG_ESSHSIG);
	if (!str_is(ss->blob + ss->ns_off, ss->ns_len, ns))
		return fail(err, SIG_ENAMESPACE);
	if (sshsig_signed_data(ss->blob + ss->ns_off, ss->ns_len,
	    ss->blob + ss->reserved_off, ss->reserved_len, ss->hash, msg, len,
	    &w) != 0)
		return fail(err, SIG_ESSHSIG);
	if (crypto_sign_verify_detached(ss->sig, data, w.len, ss->pubkey) != 0)
		return fail(err, SIG_EBADSIG);
	return ok(err);
}

/* Make an armored SSHSIG (sha512) over a message. */
int
sig_sshsig_sign(const uint8_t *msg, size_t len,
    const uint8_t sk[SIG_SECKEY_BYTES], const char *ns, char *buf, size_t size,
    enum sig_error *err)
{
	uint8_t data[SIG_SSHSIG_MAX + 128], blob[SIG_SSHSIG_MAX];
	uint8_t sig[SIG_SIGNATURE_BYTES], sigblob[4 + SSH_ED25519_LEN + 4 +
	    SIG_SIGNATURE_BYTES], pb[PUBBLOB_LEN];
	struct wr w = { data, sizeof data, 0, 0 };
	struct wr b = { blob, sizeof blob, 0, 0 };
	struct wr s = { sigblob, sizeof sigblob, 0, 0 };
	size_t nslen = strlen(ns);

	if (nslen == 0 || nslen > SIG_SSHSIG_NS_MAX)
		return fail(err, SIG_ENAMESPACE);
	if (sshsig_signed_data((const uint8_t *)ns, nslen, NULL, 0,
	    SIG_SSHSIG_SHA512, msg, len, &w) != 0)
		return fail(err, SIG_ESPACE);
	if (crypto_sign_detached(sig, NULL, data, w.len, sk) != 0)
		return fail(err, SIG_ECRYPTO);

	wr_string(&s, SSH_ED25519, SSH_ED25519_LEN);
	wr_string(&s, sig, sizeof sig);
	pubblob(sk + SIG_SEED_BYTES, pb);
	wr_bytes(&b, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN);
	wr_u32(&b, 1);
	wr_string(&b, pb, sizeof pb);
	wr_string(&b, ns, nslen);
	wr_string(&b, "", 0);
	wr_string(&b, "sha512", 6);
	wr_string(&b, sigblob, s.len);
	if (s.over || b.over)
		return fail(err, SIG_ESPACE);
	if (armor_write(SSHSIG_BEGIN, SSHSIG_END, blob, b.len, buf, size) != 0)
		return fail(err, SIG_ESPACE);
	return ok(err);
}

/* --- the record chain ---------------------------------------------- */

/* Append a big-endian 64-bit length to a BLAKE2b state. */
static void
hash_len(crypto_generichash_state *h, uint64_t n)
{
	uint8_t b[8];
	int i;

	for (i = 7; i >= 0; i--) {
		b[i] = (uint8_t)n;
		n >>= 8;
	}
	crypto_generichash_update(h, b, sizeof b);
}

/* Compute a record hash. */
void
sig_record_hash(const uint8_t prev[SIG_HASH_BYTES], const uint8_t *stmt,
    size_t stmt_len, const uint8_t *sig, size_t sig_len,
    uint8_t out[SIG_HASH_BYTES])
{
	crypto_generichash_state h;

	crypto_generichash_init(&h, NULL, 0, SIG_HASH_BYTES);
	crypto_generichash_update(&h, prev, SIG_HASH_BYTES);
	hash_len(&h, stmt_len);
	crypto_generichash_update(&h, stmt, stmt_len);
	hash_len(&h, sig_len);
	crypto_generichash_update(&h, sig, sig_len);
	crypto_generichash_final(&h, out, SIG_HASH_BYTES);
}
