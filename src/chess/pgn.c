/*
 * chess/pgn.c: PGN import and export.
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
 * PGN import and export. The reader tokenizes the text in one pass over a
 * borrowed buffer: tags, comments, NAGs, variations and move numbers are
 * skipped by plain loops, and each move token is matched against the legal
 * moves of the current position without allocating (the game's arrays are
 * reused from one game to the next).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/chess.h"
#include "chess/pgn.h"

#define PGN_TAG_NAME_MAX	255
#define PGN_TAG_VALUE_MAX	4095
#define PGN_TAGS_MAX		256
#define PGN_TOKEN_MAX		31
#define PGN_COLUMNS		80

/* The state of reading one game. */
struct pgn_parse {
	struct chess_pgn_reader	*r;
	struct chess_pgn_game	*g;
	char			*err;
	size_t			 errsize;
	int			 failed;	/* skipping to the game's end */
	int			 any;		/* a tag or movetext was seen */
	int			 movetext;	/* movetext has begun */
	int			 ready;		/* start position set up */
};

static const char *const pgn_roster[] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result"
};
static const char *const pgn_roster_default[] = {
	"?", "?", "????.??.??", "?", "?", "?", "*"
};

/* True if `c` may appear in a move or result token. */
static inline int
pgn_move_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '=' || c == '+' || c == '#' ||
	    c == '-' || c == '!' || c == '?' || c == '/' || c == '@';
}

/* True if `c` may appear in a tag name: the standard's letters, digits
 * and underscore, and, leniently, any other visible ASCII character but
 * quotes, brackets and backslash ("GreatestGameEverPlayed?" is seen). */
static inline int
pgn_name_char(unsigned char c)
{
	return c > ' ' && c < 0x7f && c != '"' && c != '[' && c != ']' &&
	    c != '\\';
}

/* True if the `n` bytes at `s` are all digits. */
static int
pgn_all_digits(const char *s, size_t n)
{
	while (n > 0 && *s >= '0' && *s <= '9') {
		s++;
		n--;
	}
	return n == 0;
}

/* Start reading `len` bytes at `buf`; a UTF-8 byte order mark is skipped. */
void
chess_pgn_reader_init(struct chess_pgn_reader *r, const char *buf, size_t len)
{
	r->buf = buf;
	r->len = buf == NULL ? 0 : len;
	r->off = 0;
	r->line = 1;
	r->keep_comments = 0;
	if (r->len >= 3 && (unsigned char)buf[0] == 0xef &&
	    (unsigned char)buf[1] == 0xbb && (unsigned char)buf[2] == 0xbf)
		r->off = 3;
}

static void pgn_fail(struct pgn_parse *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

/* Record the first error of a game and switch to skipping its rest. */
static void
pgn_fail(struct pgn_parse *p, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (p->failed)
		return;
	p->failed = 1;
	if (p->err == NULL || p->errsize == 0)
		return;
	n = snprintf(p->err, p->errsize, "line %lu (game from line %lu): ",
	    p->r->line, p->g->line);
	if (n < 0 || (size_t)n >= p->errsize)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errsize - n, fmt, ap);
	va_end(ap);
}

/*
 * A tag's one allocation: its size, then the name and the value, each with
 * its NUL; tags[i].name points at the text. Clearing a game's tags keeps
 * their blocks in g->tags beyond ntags (every entry below tagcap holds a
 * block or NULL), and the next game's tags reuse them: replaying a file
 * allocates nothing per tag once the first games have been read.
 */
struct pgn_block {
	size_t	size;
	char	text[];
};

/* The block whose text starts at `name`. */
static struct pgn_block *
pgn_block_of(char *name)
{
	return (struct pgn_block *)(void *)(name -
	    offsetof(struct pgn_block, text));
}

/* Free the block whose text starts at `name`; NULL is ignored. */
static void
pgn_block_free(char *name)
{
	if (name != NULL)
		free(pgn_block_of(name));
}

/* Forget a game's tags, keeping the array and the blocks for reuse. */
static void
pgn_clear_tags(struct chess_pgn_game *g)
{
	g->ntags = 0;
}

/* Release a game's memory. */
void
chess_pgn_game_free(struct chess_pgn_game *g)
{
	size_t	i;

	if (g == NULL)
		return;
	for (i = 0; i < g->tagcap; i++)
		pgn_block_free(g->tags[i].name);
	free(g->tags);
	for (i = 0; i < g->ncomments; i++)
		free(g->comments[i].text);
	free(g->comments);
	chess_game_free(&g->game);
	memset(g, 0, sizeof *g);
}

/* Keep `n` bytes of comment text after `ply` moves; 0 or -1. */
static int
pgn_keep_comment(struct chess_pgn_game *g, size_t ply, const char *s,
    size_t n)
{
	struct chess_pgn_comment	*v;
	size_t				 cap;

	if (n > CHESS_PGN_COMMENT_MAX || memchr(s, '}', n) != NULL ||
	    g->ncomments >= CHESS_PGN_COMMENTS_MAX)
		return -1;
	if (g->ncomments == g->commentcap) {
		cap = g->commentcap ? 2 * g->commentcap : 16;
		if ((v = realloc(g->comments, cap * sizeof *v)) == NULL)
			return -1;
		g->comments = v;
		g->commentcap = cap;
	}
	if ((g->comments[g->ncomments].text = malloc(n + 1)) == NULL)
		return -1;
	memcpy(g->comments[g->ncomments].text, s, n);
	g->comments[g->ncomments].text[n] = '\0';
	g->comments[g->ncomments++].ply = ply;
	return 0;
}

/* Return the value of tag `name`, or NULL. */
const char *
chess_pgn_tag(const struct chess_pgn_game *g, const char *name)
{
	size_t	i;

	for (i = 0; i < g->ntags; i++) {
		if (g->tags[i].name[0] == name[0] &&
		    strcmp(g->tags[i].name, name) == 0)
			return g->tags[i].value;
	}
	return NULL;
}

/* Set tag `name` (length nl) to `value` (length vl), in one block (see
 * struct pgn_block). */
static int
pgn_put_tag(struct chess_pgn_game *g, const char *name, size_t nl,
    const char *value, size_t vl)
{
	struct chess_pgn_tag	*tags, *t = NULL;
	struct pgn_block	*b;
	size_t			 i, cap, size = nl + vl + 2;

	for (i = 0; i < g->ntags; i++) {
		if (g->tags[i].name[0] == name[0] &&
		    strcmp(g->tags[i].name, name) == 0) {
			t = &g->tags[i];
			break;
		}
	}
	if (t == NULL && g->ntags == g->tagcap) {
		cap = g->tagcap ? g->tagcap * 2 : 16;
		tags = realloc(g->tags, cap * sizeof *tags);
		if (tags == NULL)
			return -1;
		memset(tags + g->tagcap, 0, (cap - g->tagcap) * sizeof *tags);
		g->tags = tags;
		g->tagcap = cap;
	}
	if (t == NULL)
		t = &g->tags[g->ntags];
	else {
		/* A new block: `value` may be the one being replaced. */
		b = malloc(sizeof *b + size);
		if (b == NULL)
			return -1;
		b->size = size;
		memcpy(b->text, name, nl + 1);
		memcpy(b->text + nl + 1, value, vl + 1);
		pgn_block_free(t->name);
		t->name = b->text;
		t->value = b->text + nl + 1;
		return 0;
	}
	/* Reuse the block left at this place by an earlier game. */
	if (t->name == NULL || pgn_block_of(t->name)->size < size) {
		b = malloc(sizeof *b + size);
		if (b == NULL)
			return -1;
		b->size = size;
		pgn_block_free(t->name);
		t->name = b->text;
	}
	memcpy(t->name, name, nl + 1);
	memcpy(t->name + nl + 1, value, vl + 1);
	t->value = t->name + nl + 1;
	g->ntags++;
	return 0;
}

/* Set (add or replace) tag `name`. */
int
chess_pgn_set_tag(struct chess_pgn_game *g, const char *name,
    const char *value)
{
	return pgn_put_tag(g, name, strlen(name), value, strlen(value));
}

/* Make `g` an empty game at the standard start, reusing its memory. */
static int
pgn_reset(struct chess_pgn_game *g)
{
	struct chess_position	start;

	pgn_clear_tags(g);
	while (g->ncomments > 0)
		free(g->comments[--g->ncomments].text);
	memcpy(g->result, "*", 2);
	chess_position_start(&start);
	if (g->game.keys == NULL || g->game.cap == 0)
		return chess_game_init(&g->game, &start);
	g->game.start = start;
	g->game.pos = start;
	g->game.nply = 0;
	g->game.keys[0] = start.key;
	return 0;
}

/* Compare a Variant value with `name`, ignoring case, blanks and dashes. */
static int
pgn_variant_is(const char *value, const char *name)
{
	unsigned char	c;

	for (;;) {
		while ((c = *value) == ' ' || c == '-' || c == '_')
			value++;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != (unsigned char)*name)
			return 0;
		if (c == '\0')
			return 1;
		value++;
		name++;
	}
}

/*
 * Set the start position from the Variant, SetUp and FEN tags: the FEN tag
 * is used unless SetUp is "0"; Chess960 without a FEN starts from the
 * standard array (position 518).
 */
static void
pgn_setup(struct pgn_parse *p)
{
	static const char *const std[] = {
		"standard", "chess", "normal", "fromposition", ""
	};
	static const char *const c960[] = {
		"chess960", "fischerandom", "fischerrandom", "960"
	};
	struct chess_game	*game = &p->g->game;
	struct chess_position	 pos;
	const char		*variant, *fen, *setup;
	enum chess_error	 e;
	int			 is960 = 0, known = 0;
	size_t			 i;

	p->ready = 1;
	if (p->failed)
		return;
	variant = chess_pgn_tag(p->g, "Variant");
	fen = chess_pgn_tag(p->g, "FEN");
	setup = chess_pgn_tag(p->g, "SetUp");
	if (variant != NULL) {
		for (i = 0; i < sizeof std / sizeof std[0]; i++)
			known |= pgn_variant_is(variant, std[i]);
		for (i = 0; i < sizeof c960 / sizeof c960[0]; i++)
			is960 |= pgn_variant_is(variant, c960[i]);
		if (!known && !is960) {
			pgn_fail(p, "unsupported variant \"%.64s\"", variant);
			return;
		}
	}
	if (fen != NULL && (setup == NULL || strcmp(setup, "0") != 0)) {
		e = chess_fen_parse(&pos, fen, is960 ? CHESS_FEN_960 : 0);
		if (e != CHESS_OK) {
			pgn_fail(p, "FEN tag \"%.100s\": %s", fen,
			    chess_strerror(e));
			return;
		}
	} else if (is960) {
		e = chess_position_960(&pos, 518);
		if (e != CHESS_OK) {
			pgn_fail(p, "Chess960 start: %s", chess_strerror(e));
			return;
		}
	} else
		return;		/* pgn_reset() set the standard start */
	game->start = pos;
	game->pos = pos;
	game->nply = 0;
	game->keys[0] = pos.key;
}

/* Describe the ply about to be played, "12. Nf3" or "12... Nf3". */
static void
pgn_ply_text(const struct chess_game *game, const char *tok, char *buf,
    size_t size)
{
	unsigned long	fullmove;

	fullmove = game->start.fullmove + (game->nply + game->start.side) / 2;
	snprintf(buf, size, "ply %zu (%lu%s %s)", game->nply + 1, fullmove,
	    game->pos.side == CHESS_WHITE ? "." : "...", tok);
}

/* Play a move token of `n` bytes. */
static void
pgn_move(struct pgn_parse *p, const char *tok, size_t n)
{
	struct chess_game	*game = &p->g->game;
	char			 text[PGN_TOKEN_MAX + 1], ply[64];
	char			 why[160];
	chess_move		 m;
	enum chess_error	 e;

	if (!p->ready)
		pgn_setup(p);
	if (p->failed)
		return;
	while (n > 0 && (tok[n - 1] == '!' || tok[n - 1] == '?'))
		n--;
	if (n > PGN_TOKEN_MAX) {
		memcpy(text, tok, PGN_TOKEN_MAX);
		memcpy(text + PGN_TOKEN_MAX - 3, "...", 4);
		pgn_ply_text(game, text, ply, sizeof ply);
		pgn_fail(p, "%s: move text too long", ply);
		return;
	}
	memcpy(text, tok, n);
	text[n] = '\0';
	e = chess_move_parse(&game->pos, text, CHESS_LANG_EN, &m, why,
	    sizeof why);
	if (e != CHESS_OK) {
		pgn_ply_text(game, text, ply, sizeof ply);
		if (strcmp(text, "Z0") == 0 || strcmp(text, "--") == 0 ||
		    strcmp(text, "0000") == 0 || strcmp(text, "@@@@") == 0)
			pgn_fail(p, "%s: null moves are not supported", ply);
		else
			pgn_fail(p, "%s: %s%s%s", ply, chess_strerror(e),
			    why[0] ? ": " : "", why);
		return;
	}
	if (chess_game_push(game, m) == -1)
		pgn_fail(p, "out of memory");
}

/* True if only blanks stand between the start of the line and `off`. */
static int
pgn_line_start(const struct chess_pgn_reader *r, size_t off)
{
	while (off > 0) {
		switch (r->buf[--off]) {
		case ' ': case '\t': case '\r': case '\f': case '\v':
			continue;
		case '\n':
			return 1;
		default:
			return 0;
		}
	}
	return 1;
}

/* True if the line at r->off holds only blanks (an empty line after the
 * movetext ends the game, as in chessops). */
static int
pgn_blank_line(const struct chess_pgn_reader *r)
{
	size_t	off;

	for (off = r->off; off < r->len; off++) {
		switch (r->buf[off]) {
		case ' ': case '\t': case '\r': case '\f': case '\v':
			continue;
		case '\n':
			return 1;
		default:
			return 0;
		}
	}
	return 1;
}

/* Skip to the end of the line (the newline is left to the caller). */
static void
pgn_skip_line(struct chess_pgn_reader *r)
{
	const char	*nl;

	nl = memchr(r->buf + r->off, '\n', r->len - r->off);
	r->off = nl == NULL ? r->len : (size_t)(nl - r->buf);
}

/* The number of newlines in the `n` bytes at `s`. */
static unsigned long
pgn_count_lines(const char *s, size_t n)
{
	const char	*end = s + n, *nl;
	unsigned long	 lines = 0;

	while ((nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		lines++;
		s = nl + 1;
	}
	return lines;
}

/* Add a comment after `ply` moves. */
int
chess_pgn_add_comment(struct chess_pgn_game *g, size_t ply, const char *text)
{
	return pgn_keep_comment(g, ply, text, strlen(text));
}

/* Skip a {comment}; r->off is at the brace. */
static int
pgn_skip_comment(struct chess_pgn_reader *r)
{
	const char	*s = r->buf, *end;

	end = memchr(s + r->off + 1, '}', r->len - r->off - 1);
	if (end == NULL) {
		r->line += pgn_count_lines(s + r->off, r->len - r->off);
		r->off = r->len;
		return -1;
	}
	r->line += pgn_count_lines(s + r->off, (size_t)(end - s) - r->off);
	r->off = end - s + 1;
	return 0;
}

/* Skip a (variation), nested ones and their comments; r->off is at '('. */
static int
pgn_skip_variation(struct chess_pgn_reader *r)
{
	unsigned long	depth = 0;

	while (r->off < r->len) {
		switch (r->buf[r->off]) {
		case '(':
			depth++;
			break;
		case ')':
			if (--depth == 0) {
				r->off++;
				return 0;
			}
			break;
		case '{':
			if (pgn_skip_comment(r) == -1)
				return -1;
			continue;
		case ';':
			pgn_skip_line(r);
			continue;
		case '\n':
			r->line++;
			break;
		}
		r->off++;
	}
	return -1;
}

/* Read a [Name "value"] tag; r->off is at the bracket. */
static void
pgn_tag(struct pgn_parse *p)
{
	struct chess_pgn_reader	*r = p->r;
	const char		*s = r->buf;
	char			 name[PGN_TAG_NAME_MAX + 1];
	char			 value[PGN_TAG_VALUE_MAX + 1];
	size_t			 off = r->off + 1, nl = 0, vl = 0;
	unsigned char		 c;

	while (off < r->len && (s[off] == ' ' || s[off] == '\t'))
		off++;
	while (off < r->len && pgn_name_char(s[off])) {
		if (nl == PGN_TAG_NAME_MAX) {
			pgn_fail(p, "tag name longer than %d bytes",
			    PGN_TAG_NAME_MAX);
			goto bad;
		}
		name[nl++] = s[off++];
	}
	name[nl] = '\0';
	if (nl == 0) {
		pgn_fail(p, "malformed tag: no name");
		goto bad;
	}
	while (off < r->len && (s[off] == ' ' || s[off] == '\t'))
		off++;
	if (off >= r->len || s[off] != '"') {
		pgn_fail(p, "malformed tag %s: no quoted value", name);
		goto bad;
	}
	off++;
	for (;;) {
		if (off >= r->len || (c = s[off]) == '\n' || c == '\r') {
			pgn_fail(p, "malformed tag %s: value not closed", name);
			goto bad;
		}
		if (c == '"')
			break;
		if (c == '\\' && off + 1 < r->len &&
		    (s[off + 1] == '"' || s[off + 1] == '\\'))
			c = s[++off];
		if (vl == PGN_TAG_VALUE_MAX) {
			pgn_fail(p, "tag %s: value longer than %d bytes", name,
			    PGN_TAG_VALUE_MAX);
			goto bad;
		}
		value[vl++] = c;
		off++;
	}
	value[vl] = '\0';
	off++;
	while (off < r->len && (s[off] == ' ' || s[off] == '\t'))
		off++;
	if (off >= r->len || s[off] != ']') {
		pgn_fail(p, "malformed tag %s: no closing bracket", name);
		goto bad;
	}
	r->off = off + 1;
	if (p->g->ntags >= PGN_TAGS_MAX && chess_pgn_tag(p->g, name) == NULL) {
		pgn_fail(p, "more than %d tags", PGN_TAGS_MAX);
		return;
	}
	if (pgn_put_tag(p->g, name, nl, value, vl) == -1)
		pgn_fail(p, "out of memory");
	return;
bad:
	r->off++;
	pgn_skip_line(r);
}

/* Without a termination marker, take the result from a valid Result
 * tag. */
static void
pgn_result_from_tag(struct chess_pgn_game *g)
{
	static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
	const char	*tag = chess_pgn_tag(g, "Result");
	size_t		 i;

	if (tag == NULL)
		return;
	for (i = 0; i < sizeof results / sizeof results[0]; i++) {
		if (strcmp(tag, results[i]) == 0) {
			snprintf(g->result, sizeof g->result, "%s", tag);
			return;
		}
	}
}

/* Read and replay the next game. */
int
chess_pgn_next(struct chess_pgn_reader *r, struct chess_pgn_game *g,
    char *err, size_t errsize)
{
	struct pgn_parse	 p;
	const char		*s = r->buf;
	size_t			 start, n;
	unsigned char		 c;
	int			 result = 0;

	memset(&p, 0, sizeof p);
	p.r = r;
	p.g = g;
	p.err = err;
	p.errsize = errsize;
	if (err != NULL && errsize > 0)
		err[0] = '\0';
	g->line = r->line;
	if (pgn_reset(g) == -1) {
		pgn_fail(&p, "out of memory");
		return -1;
	}

	while (r->off < r->len) {
		c = s[r->off];
		if (c == ' ') {		/* the most frequent byte, not dispatched */
			r->off++;
			continue;
		}
		if (!p.any && c > ' ')
			g->line = r->line;
		if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
			goto token;	/* a letter starts a move: no dispatch */
		switch (c) {
		case '\n':
			r->line++;
			r->off++;
			if (p.movetext && pgn_blank_line(r))
				goto done;
			continue;
		case ' ': case '\t': case '\r': case '\f': case '\v':
			r->off++;
			continue;
		case '.':
			p.any = p.movetext = 1;	/* "1. ... Ba5" */
			while (r->off < r->len && s[r->off] == '.')
				r->off++;
			continue;
		case '%':
			if (pgn_line_start(r, r->off)) {
				pgn_skip_line(r);
				continue;
			}
			break;
		case '[':
			if (p.movetext && (!p.failed ||
			    pgn_line_start(r, r->off)))
				goto done;
			p.any = 1;
			pgn_tag(&p);
			continue;
		case '{':
			start = r->off + 1;
			if (pgn_skip_comment(r) == -1) {
				p.any = 1;
				pgn_fail(&p, "comment not closed");
			} else if (r->keep_comments && !p.failed &&
			    pgn_keep_comment(g, g->game.nply, s + start,
			    r->off - 1 - start) == -1) {
				p.any = 1;
				pgn_fail(&p, "too many or too long comments");
			}
			continue;
		case ';':
			pgn_skip_line(r);
			continue;
		case '(':
			p.any = p.movetext = 1;
			if (pgn_skip_variation(r) == -1)
				pgn_fail(&p, "variation not closed");
			continue;
		case '$':
			p.any = p.movetext = 1;
			for (r->off++; r->off < r->len && s[r->off] >= '0' &&
			    s[r->off] <= '9'; r->off++)
				;
			continue;
		case '!': case '?':
			p.any = p.movetext = 1;
			while (r->off < r->len && (s[r->off] == '!' ||
			    s[r->off] == '?'))
				r->off++;
			continue;
		case '*':
			p.any = p.movetext = 1;
			memcpy(g->result, "*", 2);
			result = 1;
			r->off++;
			goto done;
		}
		if (!pgn_move_char(c)) {
			p.any = p.movetext = 1;
			if (c > 0x20 && c < 0x7f)
				pgn_fail(&p, "unexpected character '%c'", c);
			else
				pgn_fail(&p, "unexpected byte 0x%02x", c);
			r->off++;
			continue;
		}

		/* Move numbers, results and moves. */
token:
		p.any = p.movetext = 1;
		start = r->off;
		if (c >= '0' && c <= '9') {
			while (r->off < r->len && s[r->off] >= '0' &&
			    s[r->off] <= '9')
				r->off++;
			if (r->off < r->len && s[r->off] == '.') {
				while (r->off < r->len && s[r->off] == '.')
					r->off++;
				continue;
			}
		}
		while (r->off < r->len && pgn_move_char(s[r->off]))
			r->off++;
		n = r->off - start;
		if ((n == 3 && memcmp(s + start, "1-0", 3) == 0) ||
		    (n == 3 && memcmp(s + start, "0-1", 3) == 0) ||
		    (n == 7 && memcmp(s + start, "1/2-1/2", 7) == 0)) {
			memcpy(g->result, s + start, n);
			g->result[n] = '\0';
			result = 1;
			goto done;
		}
		if (c >= '1' && c <= '9' && pgn_all_digits(s + start, n))
			continue;	/* a move number without its dot */
		if (n == 1 && c == 'e' && r->len - r->off >= 3 &&
		    memcmp(s + r->off, ".p.", 3) == 0) {
			r->off += 3;	/* "exd6 e.p." */
			continue;
		}
		if (!p.failed)
			pgn_move(&p, s + start, n);
	}
done:
	if (!p.any)
		return 0;
	if (!p.ready)
		pgn_setup(&p);
	if (!result)
		pgn_result_from_tag(g);
	return p.failed ? -1 : 1;
}

/* A growing output buffer; `oom` records a failed allocation. */
struct pgn_out {
	char	*p;
	size_t	 len;
	size_t	 cap;
	int	 oom;
	size_t	 col;
};

/* Append `n` bytes. */
static void
pgn_out_add(struct pgn_out *o, const char *s, size_t n)
{
	char	*p;
	size_t	 cap;

	if (o->oom)
		return;
	if (o->cap - o->len < n + 1) {
		cap = o->cap ? o->cap : 1024;
		while (cap - o->len < n + 1)
			cap *= 2;
		p = realloc(o->p, cap);
		if (p == NULL) {
			o->oom = 1;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

/* Append a tag line, escaping quotes and backslashes in the value. */
static void
pgn_out_tag(struct pgn_out *o, const char *name, const char *value)
{
	const char	*v;

	pgn_out_add(o, "[", 1);
	pgn_out_add(o, name, strlen(name));
	pgn_out_add(o, " \"", 2);
	for (v = value; *v != '\0'; v++) {
		if (*v == '"' || *v == '\\')
			pgn_out_add(o, "\\", 1);
		pgn_out_add(o, v, 1);
	}
	pgn_out_add(o, "\"]\n", 3);
}

/* Append a movetext token, breaking the line before 80 columns. */
static void
pgn_out_word(struct pgn_out *o, const char *s, size_t n)
{
	if (o->col > 0 && o->col + 1 + n > PGN_COLUMNS) {
		pgn_out_add(o, "\n", 1);
		o->col = 0;
	} else if (o->col > 0) {
		pgn_out_add(o, " ", 1);
		o->col++;
	}
	pgn_out_add(o, s, n);
	o->col += n;
}

/* Append a {comment}, its words wrapped like moves (runs of blanks and
 * line ends become one space or one line end). */
static void
pgn_out_comment(struct pgn_out *o, const char *text)
{
	const char	*p = text, *w;
	bool		 first = true;
	char		 open[2] = "{";

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		w = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n' &&
		    *p != '\r')
			p++;
		if (first) {
			/* The brace sticks to the first word. */
			if (o->col > 0 && o->col + 2 + (size_t)(p - w) >
			    PGN_COLUMNS) {
				pgn_out_add(o, "\n", 1);
				o->col = 0;
			} else if (o->col > 0) {
				pgn_out_add(o, " ", 1);
				o->col++;
			}
			pgn_out_add(o, open, 1);
			pgn_out_add(o, w, (size_t)(p - w));
			o->col += 1 + (size_t)(p - w);
			first = false;
		} else if (p > w)
			pgn_out_word(o, w, (size_t)(p - w));
		if (*p == '\0')
			break;
	}
	pgn_out_add(o, "}", 1);
	o->col++;
}

/* True if `name` is written by chess_pgn_write() itself. */
static int
pgn_own_tag(const struct chess_pgn_game *g, const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof pgn_roster / sizeof pgn_roster[0]; i++) {
		if (strcmp(name, pgn_roster[i]) == 0)
			return 1;
	}
	if (strcmp(name, "SetUp") == 0 || strcmp(name, "FEN") == 0)
		return 1;
	return strcmp(name, "Variant") == 0 && g->game.start.chess960;
}

/* Write `g` as PGN. */
char *
chess_pgn_write(const struct chess_pgn_game *g, size_t *lenp)
{
	struct pgn_out		 o;
	struct chess_position	 pos, std;
	char			 fen[CHESS_FEN_MAX], stdfen[CHESS_FEN_MAX];
	char			 word[32];
	const char		*v, *result;
	size_t			 i, n, c;
	unsigned long		 fullmove;
	bool			 again;

	memset(&o, 0, sizeof o);
	result = g->result[0] != '\0' ? g->result : chess_pgn_tag(g, "Result");
	if (result == NULL)
		result = "*";
	for (i = 0; i < sizeof pgn_roster / sizeof pgn_roster[0]; i++) {
		v = i == 6 ? result : chess_pgn_tag(g, pgn_roster[i]);
		pgn_out_tag(&o, pgn_roster[i], v != NULL ? v :
		    pgn_roster_default[i]);
	}
	for (i = 0; i < g->ntags; i++) {
		if (!pgn_own_tag(g, g->tags[i].name))
			pgn_out_tag(&o, g->tags[i].name, g->tags[i].value);
	}
	chess_position_start(&std);
	pos = g->game.keys != NULL ? g->game.start : std;
	chess_fen_write(&pos, fen, sizeof fen);
	chess_fen_write(&std, stdfen, sizeof stdfen);
	if (pos.chess960)
		pgn_out_tag(&o, "Variant", "Chess960");
	if (pos.chess960 || strcmp(fen, stdfen) != 0) {
		pgn_out_tag(&o, "SetUp", "1");
		pgn_out_tag(&o, "FEN", fen);
	}
	pgn_out_add(&o, "\n", 1);

	fullmove = pos.fullmove;
	c = 0;
	for (i = 0; i < g->game.nply; i++) {
		again = i == 0;
		while (c < g->ncomments && g->comments[c].ply <= i) {
			pgn_out_comment(&o, g->comments[c++].text);
			again = true;
		}
		if (pos.side == CHESS_WHITE || again) {
			n = snprintf(word, sizeof word, "%lu%s", fullmove,
			    pos.side == CHESS_WHITE ? "." : "...");
			pgn_out_word(&o, word, n);
		}
		n = chess_move_san(&pos, g->game.moves[i], CHESS_LANG_EN, word,
		    sizeof word);
		pgn_out_word(&o, word, n);
		if (pos.side == CHESS_BLACK)
			fullmove++;
		chess_position_make(&pos, g->game.moves[i]);
	}
	while (c < g->ncomments)
		pgn_out_comment(&o, g->comments[c++].text);
	pgn_out_word(&o, result, strlen(result));
	pgn_out_add(&o, "\n", 1);
	if (o.oom) {
		free(o.p);
		return NULL;
	}
	if (lenp != NULL)
		*lenp = o.len;
	return o.p;
}
