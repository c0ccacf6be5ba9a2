/*
 * sig/wire.h: SSH wire strings, base64 and armor, lines: what sig/ shares.
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
 * Not part of the module's interface (sig/sig.h does not include it): the
 * SSH wire encoding (RFC 4251 strings), the Ed25519 public key blob,
 * base64 and armor, a cursor over lines of text (sig/wire.c), and the
 * result convention every file of src/sig follows (sig_fail(), sig_ok()).
 * Every reader of outside bytes goes through struct wire_rd, which checks
 * each length before it reads.
 */

#ifndef CORRCHESS_SIG_WIRE_H
#define CORRCHESS_SIG_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "sig/sig.h"

#define SSH_ED25519		"ssh-ed25519"
#define SSH_ED25519_LEN		11
/* Bytes of the SSH public key blob of an Ed25519 key. */
#define PUBBLOB_LEN		(4 + SSH_ED25519_LEN + 4 + SIG_PUBKEY_BYTES)

#define B64		sodium_base64_VARIANT_ORIGINAL
#define B64_NOPAD	sodium_base64_VARIANT_ORIGINAL_NO_PADDING

/* A bounds-checked reader of SSH wire encoding. */
struct wire_rd {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
};

/* A bounded writer of SSH wire encoding; `over` is set on overflow. */
struct wire_wr {
	uint8_t		*p;
	size_t		 size;
	size_t		 len;
	int		 over;
};

/* How a line ended. */
enum wire_eol {
	WIRE_EOL_NONE = 0,	/* the end of the text */
	WIRE_EOL_LF,
	WIRE_EOL_CRLF,
	WIRE_EOL_CR,
};

/* A cursor over text lines (LF, CRLF or CR ends; trailing blanks cut). */
struct wire_lines {
	const char	*p;
	const char	*end;
	unsigned int	 lineno;
	enum wire_eol	 eol;		/* how the last line taken ended */
};

/* Set *err if err is not NULL and return -1. */
static inline int
sig_fail(enum sig_error *err, enum sig_error e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

/* Set *err to SIG_OK if err is not NULL and return 0. */
static inline int
sig_ok(enum sig_error *err)
{
	if (err != NULL)
		*err = SIG_OK;
	return 0;
}

/* Read a big-endian uint32, a string (uint32 length and its bytes, *pp
 * pointing into the input) or `n` raw bytes; 0, or -1 past the end. */
int	wire_rd_u32(struct wire_rd *, uint32_t *);
int	wire_rd_string(struct wire_rd *, const uint8_t **pp, size_t *lenp);
int	wire_rd_bytes(struct wire_rd *, const uint8_t **pp, size_t n);

/* True if the bytes p[0..len) equal the C string `s`. */
int	wire_str_is(const uint8_t *p, size_t len, const char *s);

/* Append raw bytes, a big-endian uint32 or a string; on overflow nothing
 * is written and w->over is set. */
void	wire_wr_bytes(struct wire_wr *, const void *p, size_t n);
void	wire_wr_u32(struct wire_wr *, uint32_t);
void	wire_wr_string(struct wire_wr *, const void *p, size_t n);

/* Write the SSH public key blob of an Ed25519 key. */
void	wire_pubblob(const uint8_t pk[SIG_PUBKEY_BYTES],
	    uint8_t out[PUBBLOB_LEN]);

/* Parse an SSH Ed25519 public key blob, exactly `len` bytes. */
int	wire_pubblob_parse(const uint8_t *p, size_t len,
	    uint8_t pk[SIG_PUBKEY_BYTES], enum sig_error *err);

/* Decode standard base64, padded or not, into at most `max` bytes; 0 or
 * -1. wire_b64_decode_padded() accepts only the padded form. */
int	wire_b64_decode(const char *s, size_t n, uint8_t *out, size_t max,
	    size_t *lenp);
int	wire_b64_decode_padded(const char *s, size_t n, uint8_t *out,
	    size_t max, size_t *lenp);

/* True if c may appear in standard base64. */
int	wire_is_b64char(int c);

/* Write base64 of bin[0..n) wrapped at 70 columns between the lines
 * `begin` and `end`, NUL-terminated, into buf; 0, or -1 if it does not
 * fit. */
int	wire_armor_write(const char *begin, const char *end,
	    const uint8_t *bin, size_t n, char *buf, size_t size);

/* Start a line cursor over text[0..len). */
void	wire_lines_init(struct wire_lines *, const char *text, size_t len);

/* Take the next line, without its end and trailing spaces and tabs: 1 and
 * *sp, *lenp (pointing into the text), or 0 at the end. */
int	wire_lines_next(struct wire_lines *, const char **sp, size_t *lenp);

/* True if the line p[0..len) equals, or starts with, the C string `s`. */
int	wire_line_is(const char *p, size_t len, const char *s);
int	wire_line_starts(const char *p, size_t len, const char *s);

#endif /* CORRCHESS_SIG_WIRE_H */
