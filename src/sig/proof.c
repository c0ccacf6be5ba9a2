/*
 * sig/proof.c: a record's proof in a PGN comment: written and read.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "sig/wire.h"
#include "util/errbuf.h"

/* Most arguments of one command ([%ccsig] takes the most). */
#define ARGS_MAX	64
/* Longest base64 of a signature, its pieces joined. */
#define SIG_B64_MAX	(4 * ((SIG_SSHSIG_MAX + 2) / 3) + 1)
/* Characters of base64 per piece, as written. */
#define SIG_PIECE	64

/* One argument of a command: a run of non-blank bytes. */
struct arg {
	const char	*p;
	size_t		 n;
};

/* True for the blanks that separate arguments (a re-wrapped comment may
 * break a line anywhere between them). */
static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Read a decimal without sign or leading zero, at most `max`. */
static int
decimal(const struct arg *a, uint64_t max, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		i;

	if (a->n == 0 || a->n > 20 || (a->n > 1 && a->p[0] == '0'))
		return -1;
	for (i = 0; i < a->n; i++) {
		if (a->p[i] < '0' || a->p[i] > '9')
			return -1;
		if (x > (max - (uint64_t)(a->p[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(a->p[i] - '0');
	}
	*v = x;
	return 0;
}

/* Copy an argument of [a-z0-9_.-] characters (a name, a kind, a door). */
static int
word(const struct arg *a, char *out, size_t size)
{
	size_t	i;
	char	c;

	if (a->n == 0 || a->n >= size)
		return -1;
	for (i = 0; i < a->n; i++) {
		c = a->p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '.' || c == '-'))
			return -1;
	}
	memcpy(out, a->p, a->n);
	out[a->n] = '\0';
	return 0;
}

/* Decode a key's base64 (32 bytes). */
static int
key_b64(const struct arg *a, uint8_t pk[SIG_PUBKEY_BYTES])
{
	size_t	n = 0;

	if (wire_b64_decode_padded(a->p, a->n, pk, SIG_PUBKEY_BYTES, &n) != 0 ||
	    n != SIG_PUBKEY_BYTES)
		return -1;
	return 0;
}

/* Undo the %-encoding of an action into out (size bytes with the NUL). */
static int
pct_decode(const struct arg *a, char *out, size_t size, size_t *lenp)
{
	static const char	hex[] = "0123456789ABCDEF";
	const char		*h, *l;
	size_t			i, n = 0;

	for (i = 0; i < a->n; i++) {
		if (n + 1 >= size)
			return -1;
		if (a->p[i] != '%') {
			out[n++] = a->p[i];
			continue;
		}
		if (i + 2 >= a->n)
			return -1;
		if ((h = strchr(hex, a->p[i + 1])) == NULL ||
		    (l = strchr(hex, a->p[i + 2])) == NULL || *h == '\0' ||
		    *l == '\0')
			return -1;
		out[n++] = (char)((h - hex) * 16 + (l - hex));
		i += 2;
	}
	out[n] = '\0';
	*lenp = n;
	return 0;
}

/* The date "YYYY.MM.DD,HH:MM:SS", digits where the digits go. */
static int
date_check(const struct arg *a)
{
	static const char	shape[] = "dddd.dd.dd,dd:dd:dd";
	size_t			i;

	if (a->n != sizeof shape - 1)
		return -1;
	for (i = 0; i < a->n; i++)
		if (shape[i] == 'd' ? (a->p[i] < '0' || a->p[i] > '9') :
		    a->p[i] != shape[i])
			return -1;
	return 0;
}

/* Read [%ccrec SEQ KIND PLY DOOR FP]. */
static int
cmd_rec(struct sig_proof *p, const struct arg *a, size_t n, char *why,
    size_t whysize)
{
	static const char *const doors[] = { "signed", "xfcc", "mail-token",
	    "admin", "none" };
	uint64_t	v;
	size_t		i;

	if (n != 5)
		return errbuf_set(why, whysize, "[%%ccrec] takes 5 words "
		    "(record, kind, ply, door, key), not %zu", n);
	if (decimal(&a[0], INT64_MAX, &v) != 0 || v == 0)
		return errbuf_set(why, whysize, "[%%ccrec]: bad record number");
	p->seq = (int64_t)v;
	if (word(&a[1], p->kind, sizeof p->kind) != 0)
		return errbuf_set(why, whysize, "[%%ccrec]: bad kind");
	if (decimal(&a[2], SIG_PLY_MAX, &v) != 0)
		return errbuf_set(why, whysize, "[%%ccrec]: bad ply");
	p->ply = (uint32_t)v;
	if (word(&a[3], p->door, sizeof p->door) != 0)
		return errbuf_set(why, whysize, "[%%ccrec]: bad door");
	for (i = 0; i < sizeof doors / sizeof doors[0]; i++)
		if (strcmp(p->door, doors[i]) == 0)
			break;
	if (i == sizeof doors / sizeof doors[0])
		return errbuf_set(why, whysize, "[%%ccrec]: unknown door "
		    "\"%s\"", p->door);
	if (a[4].n >= sizeof p->fp || (!(a[4].n == 1 && a[4].p[0] == '-') &&
	    !wire_line_starts(a[4].p, a[4].n, "SHA256:")))
		return errbuf_set(why, whysize, "[%%ccrec]: bad key "
		    "fingerprint");
	memcpy(p->fp, a[4].p, a[4].n);
	p->fp[a[4].n] = '\0';
	p->has_record = true;
	return 0;
}

/* Read [%ccst GAME PLY PLAYER ACTION] and build the statement. */
static int
cmd_st(struct sig_proof *p, const struct arg *a, size_t n, char *why,
    size_t whysize)
{
	char		action[SIG_ACTION_MAX + 1];
	uint64_t	v;
	size_t		len;
	enum sig_error	se;

	if (n != 4)
		return errbuf_set(why, whysize, "[%%ccst] takes 4 words (game, "
		    "ply, player, action), not %zu", n);
	memset(&p->st, 0, sizeof p->st);
	if (decimal(&a[0], SIG_GAME_MAX, &v) != 0 || v == 0)
		return errbuf_set(why, whysize, "[%%ccst]: bad game number");
	p->st.game = v;
	if (decimal(&a[1], SIG_PLY_MAX, &v) != 0)
		return errbuf_set(why, whysize, "[%%ccst]: bad ply");
	p->st.ply = (uint32_t)v;
	if (word(&a[2], p->st.player, sizeof p->st.player) != 0)
		return errbuf_set(why, whysize, "[%%ccst]: bad player");
	if (pct_decode(&a[3], action, sizeof action, &len) != 0)
		return errbuf_set(why, whysize, "[%%ccst]: bad %%-encoding of "
		    "the action");
	if (sig_action_parse(action, len, &p->st.action, &se) != 0 ||
	    sig_statement_build(&p->st, &se) != 0)
		return errbuf_set(why, whysize, "[%%ccst]: %s",
		    sig_strerror(se));
	p->has_statement = true;
	return 0;
}

/* Join a command's words, the pieces of one value, into buf (`size`
 * bytes, no NUL); their length, or -1 when they do not fit. */
static ssize_t
pieces_join(const struct arg *a, size_t n, char *buf, size_t size)
{
	size_t	i, len = 0;

	for (i = 0; i < n; i++) {
		if (len + a[i].n >= size)
			return -1;
		memcpy(buf + len, a[i].p, a[i].n);
		len += a[i].n;
	}
	return (ssize_t)len;
}

/* Join a command's words, the pieces of one %-encoded value, and decode
 * them into out (`size` bytes with a NUL): 0, -1 when they are too long,
 * -2 when they are badly encoded or empty. */
static int
pieces_decode(const struct arg *a, size_t n, char *out, size_t size,
    size_t *lenp)
{
	char		enc[3 * SIG_CREATION_MAX + 1];
	struct arg	whole;
	ssize_t		got;

	if ((got = pieces_join(a, n, enc, sizeof enc)) < 0 ||
	    (size_t)got > 3 * (size - 1))
		return -1;
	whole.p = enc;
	whole.n = (size_t)got;
	if (pct_decode(&whole, out, size, lenp) != 0 || *lenp == 0)
		return -2;
	return 0;
}

/* Read [%ccmsg PIECE...]: the pieces joined and decoded (the statement
 * is built again with it once the comment is read). */
static int
cmd_msg(struct sig_proof *p, const struct arg *a, size_t n, char *why,
    size_t whysize)
{
	size_t	len = 0;
	int	rc;

	if (n == 0)
		return errbuf_set(why, whysize, "[%%ccmsg] without a message");
	if ((rc = pieces_decode(a, n, p->message, sizeof p->message,
	    &len)) == -1)
		return errbuf_set(why, whysize, "[%%ccmsg]: the message is "
		    "too long");
	if (rc != 0 || memchr(p->message, '\0', len) != NULL)
		return errbuf_set(why, whysize, "[%%ccmsg]: bad %%-encoding "
		    "of the message");
	p->has_message = true;
	return 0;
}

/* Read [%ccgame PIECE...]: a creation record's bytes, the pieces joined
 * and decoded (read as a creation record by the verifier). */
static int
cmd_game(struct sig_proof *p, const struct arg *a, size_t n, char *why,
    size_t whysize)
{
	char	dec[SIG_CREATION_MAX + 1];
	size_t	len = 0;
	int	rc;

	if (n == 0)
		return errbuf_set(why, whysize, "[%%ccgame] without a record");
	if ((rc = pieces_decode(a, n, dec, sizeof dec, &len)) == -1)
		return errbuf_set(why, whysize, "[%%ccgame]: the record is "
		    "too long");
	if (rc != 0)
		return errbuf_set(why, whysize, "[%%ccgame]: bad %%-encoding "
		    "of the record");
	memcpy(p->creation, dec, len);
	p->creation_len = len;
	p->has_creation = true;
	return 0;
}

/* Read [%ccsig BASE64...]: the pieces joined and decoded. */
static int
cmd_sig(struct sig_proof *p, const struct arg *a, size_t n, char *why,
    size_t whysize)
{
	char	b64[SIG_B64_MAX];
	ssize_t	len;

	if (n == 0)
		return errbuf_set(why, whysize, "[%%ccsig] without a signature");
	if ((len = pieces_join(a, n, b64, sizeof b64)) < 0)
		return errbuf_set(why, whysize, "[%%ccsig]: the signature is "
		    "too long");
	if (wire_b64_decode_padded(b64, (size_t)len, p->sig, sizeof p->sig,
	    &p->siglen) != 0 || p->siglen == 0)
		return errbuf_set(why, whysize, "[%%ccsig]: invalid base64");
	return 0;
}

/* Run one command on its arguments; unknown commands are left alone. */
static int
command(struct sig_proof *p, const char *name, size_t nl, const struct arg *a,
    size_t n, char *why, size_t whysize)
{
	size_t	got = 0;

	if (wire_line_is(name, nl, "ccrec"))
		return p->has_record ? errbuf_set(why, whysize,
		    "[%%ccrec] twice") : cmd_rec(p, a, n, why, whysize);
	if (wire_line_is(name, nl, "ccst"))
		return p->has_statement ? errbuf_set(why, whysize,
		    "[%%ccst] twice") : cmd_st(p, a, n, why, whysize);
	if (wire_line_is(name, nl, "ccmsg"))
		return p->has_message ? errbuf_set(why, whysize,
		    "[%%ccmsg] twice") : cmd_msg(p, a, n, why, whysize);
	if (wire_line_is(name, nl, "ccgame"))
		return p->has_creation ? errbuf_set(why, whysize,
		    "[%%ccgame] twice") : cmd_game(p, a, n, why, whysize);
	if (wire_line_is(name, nl, "ccsig"))
		return p->siglen > 0 ? errbuf_set(why, whysize,
		    "[%%ccsig] twice") : cmd_sig(p, a, n, why, whysize);
	if (wire_line_is(name, nl, "ccsnt")) {
		if (p->has_date || n != 1 || date_check(&a[0]) != 0)
			return errbuf_set(why, whysize, "[%%ccsnt] takes one "
			    "date, YYYY.MM.DD,HH:MM:SS");
		memcpy(p->date, a[0].p, a[0].n);
		p->date[a[0].n] = '\0';
		p->has_date = true;
		return 0;
	}
	if (wire_line_is(name, nl, "cchash")) {
		if (p->has_hash || n != 1 || a[0].n != 2 * SIG_HASH_BYTES ||
		    sodium_hex2bin(p->hash, SIG_HASH_BYTES, a[0].p, a[0].n,
		    NULL, &got, NULL) != 0 ||
		    got != SIG_HASH_BYTES)
			return errbuf_set(why, whysize, "[%%cchash] takes one "
			    "hash of 64 hex digits");
		p->has_hash = true;
		return 0;
	}
	if (wire_line_is(name, nl, "cckey")) {
		if (n != 2 || p->nkeys == SIG_PROOF_KEYS_MAX ||
		    word(&a[0], p->keys[p->nkeys].name,
		    sizeof p->keys[0].name) != 0 ||
		    key_b64(&a[1], p->keys[p->nkeys].pk) != 0)
			return errbuf_set(why, whysize, "[%%cckey] takes a "
			    "player and a key in base64 (at most %d keys)",
			    SIG_PROOF_KEYS_MAX);
		p->nkeys++;
		return 0;
	}
	if (wire_line_is(name, nl, "ccserver")) {
		if (p->has_server || n != 1 || key_b64(&a[0], p->server) != 0)
			return errbuf_set(why, whysize, "[%%ccserver] takes "
			    "the server's key in base64");
		p->has_server = true;
		return 0;
	}
	return 0;
}

/* Read the proof in a comment. */
int
sig_proof_parse(const char *text, size_t len, struct sig_proof *p, char *why,
    size_t whysize)
{
	struct arg	 a[ARGS_MAX];
	const char	*s = text, *e = text + len, *name;
	size_t		 n, nl;
	enum sig_error	 se;

	memset(p, 0, sizeof *p);
	while (s + 1 < e) {
		if (s[0] != '[' || s[1] != '%') {
			s++;
			continue;
		}
		s += 2;
		name = s;
		while (s < e && !is_blank(*s) && *s != ']')
			s++;
		nl = (size_t)(s - name);
		for (n = 0;;) {
			while (s < e && is_blank(*s))
				s++;
			if (s == e)
				return errbuf_set(why, whysize, "[%%%.*s is not "
				    "closed", (int)(nl < 16 ? nl : 16), name);
			if (*s == ']')
				break;
			if (n == ARGS_MAX)
				return errbuf_set(why, whysize, "[%%%.*s has too "
				    "many words", (int)(nl < 16 ? nl : 16),
				    name);
			a[n].p = s;
			while (s < e && !is_blank(*s) && *s != ']')
				s++;
			a[n].n = (size_t)(s - a[n].p);
			n++;
		}
		s++;
		if (command(p, name, nl, a, n, why, whysize) != 0)
			return -1;
	}
	if (p->has_creation && (p->has_record || p->has_statement))
		return errbuf_set(why, whysize, "[%%ccgame] is a record of its "
		    "own: not with [%%ccrec] or [%%ccst]");
	/* The message is the statement's: signed with it. */
	if (p->has_message) {
		if (!p->has_statement)
			return errbuf_set(why, whysize, "[%%ccmsg] without "
			    "[%%ccst]");
		memcpy(p->st.message, p->message, sizeof p->st.message);
		if (sig_statement_build(&p->st, &se) != 0)
			return errbuf_set(why, whysize, "[%%ccmsg]: %s",
			    sig_strerror(se));
	}
	return 0;
}

/* A bounded writer of text. */
struct out {
	char	*p;
	size_t	 size;
	size_t	 len;
	bool	 over;
};

/* Append formatted text. */
static void	put(struct out *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (o->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len)
		o->over = true;
	else
		o->len += (size_t)n;
}

/* Append a command separator, then the command's name. */
static void
put_cmd(struct out *o, const char *name)
{
	put(o, "%s[%%%s", o->len > 0 ? " " : "", name);
}

/* Append base64 of bin[0..n) in pieces of SIG_PIECE characters. */
static void
put_b64(struct out *o, const uint8_t *bin, size_t n)
{
	char	b64[SIG_B64_MAX];
	size_t	i, len;

	if (n > SIG_SSHSIG_MAX) {
		o->over = true;
		return;
	}
	sodium_bin2base64(b64, sizeof b64, bin, n, B64);
	len = strlen(b64);
	for (i = 0; i < len; i += SIG_PIECE)
		put(o, " %.*s", (int)(len - i < SIG_PIECE ? len - i : SIG_PIECE),
		    b64 + i);
}

/* Append `n` bytes %-encoded: no blank, no bracket, no brace, nothing
 * outside printable ASCII. */
static void
put_pct(struct out *o, const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f ||
		    strchr("%[]{}", s[i]) != NULL)
			put(o, "%%%02X", (unsigned char)s[i]);
		else
			put(o, "%c", s[i]);
	}
}

/* Append the statement's action, %-encoded. */
static void
put_action(struct out *o, const struct sig_statement *st)
{
	const char	*c = (const char *)st->canon, *a = NULL, *end;
	size_t		 i;

	for (i = 0; i + 9 <= st->canon_len; i++)
		if (memcmp(c + i, "\naction: ", 9) == 0) {
			a = c + i + 9;
			break;
		}
	if (a == NULL || st->canon_len == 0 ||
	    (end = memchr(a, '\n', st->canon_len - (size_t)(a - c))) == NULL) {
		o->over = true;
		return;
	}
	put(o, " ");
	put_pct(o, a, (size_t)(end - a));
}

/* Append `n` bytes %-encoded, in pieces of at most SIG_PIECE characters
 * (a %XX kept whole), as PGN tools wrap lines of 75 or 80. */
static void
put_pct_pieces(struct out *o, const char *m, size_t n)
{
	struct out	 one;
	char		 enc[3 * SIG_CREATION_MAX + 1];
	size_t		 i, k, len;

	one.p = enc;
	one.size = sizeof enc;
	one.len = 0;
	one.over = false;
	enc[0] = '\0';
	put_pct(&one, m, n);
	if (one.over) {
		o->over = true;
		return;
	}
	len = one.len;
	for (i = 0; i < len; i += k) {
		k = len - i < SIG_PIECE ? len - i : SIG_PIECE;
		/* Do not cut a %XX. */
		if (i + k < len && enc[i + k - 1] == '%')
			k -= 1;
		else if (i + k < len && enc[i + k - 2] == '%')
			k -= 2;
		put(o, " %.*s", (int)k, enc + i);
	}
}

/* Write the flagged parts of a proof. */
int
sig_proof_format(const struct sig_proof *p, char *buf, size_t size)
{
	struct out	o = { buf, size, 0, size == 0 };
	char		hex[2 * SIG_HASH_BYTES + 1];
	char		b64[sodium_base64_ENCODED_LEN(SIG_PUBKEY_BYTES, B64)];
	size_t		i;

	if (size > 0)
		buf[0] = '\0';
	if (p->has_date) {
		put_cmd(&o, "ccsnt");
		put(&o, " %s]", p->date);
	}
	if (p->has_record) {
		put_cmd(&o, "ccrec");
		put(&o, " %" PRId64 " %s %" PRIu32 " %s %s]", p->seq, p->kind,
		    p->ply, p->door, p->fp[0] != '\0' ? p->fp : "-");
	}
	if (p->has_statement) {
		put_cmd(&o, "ccst");
		put(&o, " %" PRIu64 " %" PRIu32 " %s", p->st.game, p->st.ply,
		    p->st.player);
		put_action(&o, &p->st);
		put(&o, "]");
		if (p->st.message[0] != '\0') {
			put_cmd(&o, "ccmsg");
			put_pct_pieces(&o, p->st.message,
			    strlen(p->st.message));
			put(&o, "]");
		}
	}
	if (p->has_creation) {
		put_cmd(&o, "ccgame");
		put_pct_pieces(&o, (const char *)p->creation, p->creation_len);
		put(&o, "]");
	}
	if (p->siglen > 0) {
		put_cmd(&o, "ccsig");
		put_b64(&o, p->sig, p->siglen);
		put(&o, "]");
	}
	if (p->has_hash) {
		sodium_bin2hex(hex, sizeof hex, p->hash, SIG_HASH_BYTES);
		put_cmd(&o, "cchash");
		put(&o, " %s]", hex);
	}
	for (i = 0; i < p->nkeys && i < SIG_PROOF_KEYS_MAX; i++) {
		sodium_bin2base64(b64, sizeof b64, p->keys[i].pk,
		    SIG_PUBKEY_BYTES, B64);
		put_cmd(&o, "cckey");
		put(&o, " %s %s]", p->keys[i].name, b64);
	}
	if (p->has_server) {
		sodium_bin2base64(b64, sizeof b64, p->server, SIG_PUBKEY_BYTES,
		    B64);
		put_cmd(&o, "ccserver");
		put(&o, " %s]", b64);
	}
	/* A blank inside a word would split it on the way back. */
	for (i = 0; i < o.len && !o.over; i++)
		if (buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r' ||
		    buf[i] == '}')
			o.over = true;
	if (o.over) {
		if (size > 0)
			buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* The signature of a proof, ready to verify. */
int
sig_proof_signature(const struct sig_proof *p, struct sig_signature *sg,
    enum sig_error *err)
{
	memset(sg, 0, sizeof *sg);
	if (p->siglen == SIG_SIGNATURE_BYTES) {
		sg->form = SIG_FORM_RAW;
		memcpy(sg->raw, p->sig, SIG_SIGNATURE_BYTES);
		return sig_ok(err);
	}
	if (p->siglen == 0)
		return sig_fail(err, SIG_ENOSIG);
	sg->form = SIG_FORM_SSHSIG;
	return sig_sshsig_parse(p->sig, p->siglen, &sg->ssh, err);
}
