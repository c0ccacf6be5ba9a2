/*
 * sig/creation.c: a game's creation record: its fields checked, written, read.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"
#include "util/errbuf.h"
#include "util/text.h"

/* True for a player's name: 1 to 32 of [a-z0-9_.-]. */
static bool
name_ok(const char *s)
{
	size_t	n = strlen(s);

	return n >= 1 && n <= SIG_PLAYER_MAX &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}

/* True for 1 to `max` bytes of printable ASCII. */
static bool
ascii_ok(const char *s, size_t max)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

/* True for an event's or a round's text: "" or at most `max` bytes of
 * UTF-8 without control characters. */
static bool
tag_ok(const char *s, size_t max)
{
	return strlen(s) <= max && text_check(s) == TEXT_OK;
}

/* Check the fields and write the bytes. */
int
sig_creation_build(struct sig_creation *c, char *why, size_t whysize)
{
	int	n;

	c->canon_len = 0;
	if (c->game < 1 || c->game > SIG_GAME_MAX)
		return errbuf_set(why, whysize, "the game number is out of "
		    "range");
	if (!name_ok(c->white) || !name_ok(c->black) ||
	    strcmp(c->white, c->black) == 0)
		return errbuf_set(why, whysize, "white and black must be two "
		    "players' names");
	if (strcmp(c->variant, "standard") != 0 &&
	    strcmp(c->variant, "chess960") != 0)
		return errbuf_set(why, whysize, "the variant must be "
		    "\"standard\" or \"chess960\"");
	if (!ascii_ok(c->start, SIG_CREATION_FEN_MAX))
		return errbuf_set(why, whysize, "the start position must be a "
		    "FEN of printable ASCII");
	if (!ascii_ok(c->time_control, SIG_CREATION_TC_MAX))
		return errbuf_set(why, whysize, "the time control must be "
		    "printable ASCII");
	if (strcmp(c->policy, "auto") != 0 && strcmp(c->policy, "claim") != 0)
		return errbuf_set(why, whysize, "the draw policy must be "
		    "\"auto\" or \"claim\"");
	if (strcmp(c->auth, "signed") != 0 &&
	    strcmp(c->auth, "signed-or-attested") != 0)
		return errbuf_set(why, whysize, "auth must be \"signed\" or "
		    "\"signed-or-attested\"");
	if (!tag_ok(c->event, SIG_CREATION_TAG_MAX) ||
	    !tag_ok(c->round, SIG_CREATION_TAG_MAX))
		return errbuf_set(why, whysize, "the event and the round must "
		    "be plain text of at most %d bytes", SIG_CREATION_TAG_MAX);
	n = snprintf((char *)c->canon, sizeof c->canon,
	    SIG_CREATION_MAGIC "\n"
	    "game: %" PRIu64 "\n"
	    "white: %s\n"
	    "black: %s\n"
	    "variant: %s\n"
	    "start: %s\n"
	    "time-control: %s\n"
	    "draw-policy: %s\n"
	    "draw-min-move: %" PRIu32 "\n"
	    "draw-offer-every: %" PRIu32 "\n"
	    "rated: %s\n"
	    "auth: %s\n"
	    "%s%s%s"
	    "%s%s%s",
	    c->game, c->white, c->black, c->variant, c->start,
	    c->time_control, c->policy, c->draw_min_move, c->draw_offer_every,
	    c->rated ? "yes" : "no", c->auth,
	    c->event[0] ? "event: " : "", c->event, c->event[0] ? "\n" : "",
	    c->round[0] ? "round: " : "", c->round, c->round[0] ? "\n" : "");
	if (n < 0 || (size_t)n >= sizeof c->canon)
		return errbuf_set(why, whysize, "the record is too long");
	c->canon_len = (size_t)n;
	return 0;
}

/* Where a parse stands: the bytes left. */
struct rd {
	const char	*p, *end;
};

/* Take line "NAME: VALUE\n" into `out` (size `size`); `optional`: a line
 * of another name is left for the next field. 1 taken, 0 absent (only
 * when optional), -1 malformed. */
static int
field(struct rd *r, const char *name, char *out, size_t size, bool optional)
{
	size_t		 nl = strlen(name), n;
	const char	*eol;

	out[0] = '\0';
	if ((size_t)(r->end - r->p) < nl + 2 ||
	    memcmp(r->p, name, nl) != 0 || memcmp(r->p + nl, ": ", 2) != 0)
		return optional ? 0 : -1;
	if ((eol = memchr(r->p, '\n', (size_t)(r->end - r->p))) == NULL)
		return -1;
	n = (size_t)(eol - (r->p + nl + 2));
	if (n >= size || memchr(r->p + nl + 2, '\0', n) != NULL)
		return -1;
	memcpy(out, r->p + nl + 2, n);
	out[n] = '\0';
	r->p = eol + 1;
	return 1;
}

/* Read a decimal without sign or leading zero, at most `max`. */
static int
decimal(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t	x = 0;
	size_t		i, n = strlen(s);

	if (n == 0 || n > 20 || (n > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    x > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* Take the text fields from "white" to "draw-policy", in their order. */
static int
text_fields(struct rd *r, struct sig_creation *c, char *why, size_t whysize)
{
	const struct {
		const char	*name;
		char		*dst;
		size_t		 size;
	} f[] = {
		{ "white", c->white, sizeof c->white },
		{ "black", c->black, sizeof c->black },
		{ "variant", c->variant, sizeof c->variant },
		{ "start", c->start, sizeof c->start },
		{ "time-control", c->time_control, sizeof c->time_control },
		{ "draw-policy", c->policy, sizeof c->policy },
	};
	size_t	i;

	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		if (field(r, f[i].name, f[i].dst, f[i].size, false) < 0)
			return errbuf_set(why, whysize, "the creation record's "
			    "\"%s\" line is malformed or missing", f[i].name);
	return 0;
}

/* Read a creation record's exact bytes. */
int
sig_creation_parse(const uint8_t *bytes, size_t len, struct sig_creation *c,
    char *why, size_t whysize)
{
	struct rd	 r = { (const char *)bytes, (const char *)bytes + len };
	char		 v[SIG_CREATION_TAG_MAX + 2], sub[160];
	uint64_t	 x;
	size_t		 ml = strlen(SIG_CREATION_MAGIC);

	memset(c, 0, sizeof *c);
	if (len > SIG_CREATION_MAX || len < ml + 1 ||
	    memcmp(bytes, SIG_CREATION_MAGIC "\n", ml + 1) != 0)
		return errbuf_set(why, whysize, "not a creation record (its "
		    "first line must be \"%s\")", SIG_CREATION_MAGIC);
	r.p += ml + 1;
	if (field(&r, "game", v, sizeof v, false) < 0 ||
	    decimal(v, SIG_GAME_MAX, &x) != 0 || x == 0)
		return errbuf_set(why, whysize, "the creation record's "
		    "\"game\" line is malformed");
	c->game = x;
	if (text_fields(&r, c, why, whysize) != 0)
		return -1;
	if (field(&r, "draw-min-move", v, sizeof v, false) < 0 ||
	    decimal(v, UINT32_MAX, &x) != 0)
		return errbuf_set(why, whysize, "the creation record's "
		    "\"draw-min-move\" line is malformed");
	c->draw_min_move = (uint32_t)x;
	if (field(&r, "draw-offer-every", v, sizeof v, false) < 0 ||
	    decimal(v, UINT32_MAX, &x) != 0)
		return errbuf_set(why, whysize, "the creation record's "
		    "\"draw-offer-every\" line is malformed");
	c->draw_offer_every = (uint32_t)x;
	if (field(&r, "rated", v, sizeof v, false) < 0 ||
	    (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0))
		return errbuf_set(why, whysize, "the creation record's "
		    "\"rated\" line must say yes or no");
	c->rated = strcmp(v, "yes") == 0;
	if (field(&r, "auth", c->auth, sizeof c->auth, false) < 0)
		return errbuf_set(why, whysize, "the creation record's "
		    "\"auth\" line is malformed or missing");
	if (field(&r, "event", c->event, sizeof c->event, true) < 0 ||
	    field(&r, "round", c->round, sizeof c->round, true) < 0)
		return errbuf_set(why, whysize, "the creation record's event "
		    "or round is malformed");
	if (r.p != r.end)
		return errbuf_set(why, whysize, "the creation record has a "
		    "line it should not have");
	/* Only the exact bytes: written again, they must be the same. */
	if (sig_creation_build(c, sub, sizeof sub) != 0)
		return errbuf_set(why, whysize, "the creation record: %s", sub);
	if (c->canon_len != len || memcmp(c->canon, bytes, len) != 0)
		return errbuf_set(why, whysize, "the creation record is not in "
		    "its canonical form");
	return 0;
}
