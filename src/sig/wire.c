/*
 * sig/wire.c: SSH wire strings, base64 and armor, lines: what sig/ shares.
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

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "sig/sig.h"
#include "sig/wire.h"

#define ARMOR_WIDTH	70	/* base64 columns, as OpenSSH writes */

/* --- SSH wire encoding --------------------------------------------- */

/* Read a big-endian uint32. */
int
wire_rd_u32(struct wire_rd *r, uint32_t *v)
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
int
wire_rd_string(struct wire_rd *r, const uint8_t **pp, size_t *lenp)
{
	uint32_t n;

	if (wire_rd_u32(r, &n) != 0 || n > r->len - r->off)
		return -1;
	*pp = r->p + r->off;
	*lenp = n;
	r->off += n;
	return 0;
}

/* Read `n` raw bytes. */
int
wire_rd_bytes(struct wire_rd *r, const uint8_t **pp, size_t n)
{
	if (n > r->len - r->off)
		return -1;
	*pp = r->p + r->off;
	r->off += n;
	return 0;
}

/* True if a string read equals the C string `s`. */
int
wire_str_is(const uint8_t *p, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(p, s, len) == 0;
}

/* Append raw bytes. */
void
wire_wr_bytes(struct wire_wr *w, const void *p, size_t n)
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
void
wire_wr_u32(struct wire_wr *w, uint32_t v)
{
	uint8_t b[4];

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
	wire_wr_bytes(w, b, 4);
}

/* Append an SSH string. */
void
wire_wr_string(struct wire_wr *w, const void *p, size_t n)
{
	if (n > UINT32_MAX) {
		w->over = 1;
		return;
	}
	wire_wr_u32(w, (uint32_t)n);
	wire_wr_bytes(w, p, n);
}

/* Write the SSH public key blob of an Ed25519 key (PUBBLOB_LEN bytes). */
void
wire_pubblob(const uint8_t pk[SIG_PUBKEY_BYTES], uint8_t out[PUBBLOB_LEN])
{
	struct wire_wr w = { out, PUBBLOB_LEN, 0, 0 };

	wire_wr_string(&w, SSH_ED25519, SSH_ED25519_LEN);
	wire_wr_string(&w, pk, SIG_PUBKEY_BYTES);
}

/* Parse an SSH Ed25519 public key blob. */
int
wire_pubblob_parse(const uint8_t *p, size_t len, uint8_t pk[SIG_PUBKEY_BYTES],
    enum sig_error *err)
{
	struct wire_rd r = { p, len, 0 };
	const uint8_t *type, *key;
	size_t typelen, keylen;

	if (wire_rd_string(&r, &type, &typelen) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (!wire_str_is(type, typelen, SSH_ED25519))
		return sig_fail(err, SIG_EKEY_TYPE);
	if (wire_rd_string(&r, &key, &keylen) != 0)
		return sig_fail(err, SIG_EKEY_FORMAT);
	if (keylen != SIG_PUBKEY_BYTES)
		return sig_fail(err, SIG_EKEY_LEN);
	if (r.off != r.len)
		return sig_fail(err, SIG_EKEY_FORMAT);
	memcpy(pk, key, SIG_PUBKEY_BYTES);
	return sig_ok(err);
}

/* --- base64 and text helpers --------------------------------------- */

/* Decode standard base64, padded or not, into at most `max` bytes. */
int
wire_b64_decode(const char *s, size_t n, uint8_t *out, size_t max,
    size_t *lenp)
{
	if (sodium_base642bin(out, max, s, n, NULL, lenp, NULL, B64) == 0)
		return 0;
	if (sodium_base642bin(out, max, s, n, NULL, lenp, NULL, B64_NOPAD) == 0)
		return 0;
	return -1;
}

/* Decode standard base64 with its padding, the one canonical form. */
int
wire_b64_decode_padded(const char *s, size_t n, uint8_t *out, size_t max,
    size_t *lenp)
{
	if (n % 4 != 0)
		return -1;
	return sodium_base642bin(out, max, s, n, NULL, lenp, NULL, B64) == 0 ?
	    0 : -1;
}

/* True if c may appear in standard base64. */
int
wire_is_b64char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
}

/* Write base64 of `n` bytes wrapped at ARMOR_WIDTH between armor lines. */
int
wire_armor_write(const char *begin, const char *end, const uint8_t *bin,
    size_t n, char *buf, size_t size)
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
void
wire_lines_init(struct wire_lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->lineno = 0;
	it->eol = WIRE_EOL_NONE;
}

/* Take the next line, without its end and trailing spaces and tabs. */
int
wire_lines_next(struct wire_lines *it, const char **sp, size_t *lenp)
{
	const char *s, *e;

	if (it->p >= it->end)
		return 0;
	s = it->p;
	e = s;
	while (e < it->end && *e != '\n' && *e != '\r')
		e++;
	it->p = e;
	it->eol = WIRE_EOL_NONE;
	if (it->p < it->end && *it->p == '\r') {
		it->p++;
		it->eol = WIRE_EOL_CR;
	}
	if (it->p < it->end && *it->p == '\n' && (it->p == e || e[0] == '\r')) {
		it->p++;
		it->eol = it->eol == WIRE_EOL_CR ? WIRE_EOL_CRLF : WIRE_EOL_LF;
	}
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	it->lineno++;
	*sp = s;
	*lenp = (size_t)(e - s);
	return 1;
}

/* True if a line equals the C string `s`. */
int
wire_line_is(const char *p, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(p, s, len) == 0;
}

/* True if the line starts with the C string `s`. */
int
wire_line_starts(const char *p, size_t len, const char *s)
{
	size_t n = strlen(s);

	return len >= n && memcmp(p, s, n) == 0;
}
