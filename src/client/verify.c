/*
 * client/verify.c: a game's record checked: chain, signatures and moves.
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

#include <sodium.h>

#include "chess/chess.h"
#include "client/verify.h"
#include "util/buf.h"
#include "util/errbuf.h"

/* Make room for one more record; NULL when out of memory. */
static struct verify_record *
rec_new(struct verify_game *vg)
{
	struct verify_record	*v;
	size_t			 cap;

	if (vg->nrecs == vg->reccap) {
		cap = vg->reccap ? 2 * vg->reccap : 32;
		if ((v = realloc(vg->recs, cap * sizeof *v)) == NULL)
			return NULL;
		vg->recs = v;
		vg->reccap = cap;
	}
	v = &vg->recs[vg->nrecs++];
	memset(v, 0, sizeof *v);
	return v;
}

/* Keep a player's key; -1 when out of memory. */
static int
key_add(struct verify_game *vg, const char *name,
    const uint8_t pk[SIG_PUBKEY_BYTES])
{
	struct sig_proof_key	*k;
	size_t			 cap;

	if (vg->nkeys == vg->keycap) {
		cap = vg->keycap ? 2 * vg->keycap : 8;
		if ((k = realloc(vg->keys, cap * sizeof *k)) == NULL)
			return -1;
		vg->keys = k;
		vg->keycap = cap;
	}
	k = &vg->keys[vg->nkeys++];
	snprintf(k->name, sizeof k->name, "%s", name);
	memcpy(k->pk, pk, SIG_PUBKEY_BYTES);
	return 0;
}

/* Read a 32-byte hash in hex; -1 when it is not one. */
static int
hash_read(const char *hex, uint8_t out[SIG_HASH_BYTES])
{
	size_t	n = 0;

	if (hex == NULL || strlen(hex) != 2 * SIG_HASH_BYTES ||
	    sodium_hex2bin(out, SIG_HASH_BYTES, hex, strlen(hex), NULL, &n,
	    NULL) != 0 || n != SIG_HASH_BYTES)
		return -1;
	return 0;
}

/* A string member of a JSON object, or NULL. */
static const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Fill a record from one of the JSON export. */
static int
json_record(const json_t *r, struct verify_record *v, char *why,
    size_t whysize)
{
	const char	*stmt = jstr(r, "statement"), *sig = jstr(r, "signature");
	const char	*kind = jstr(r, "kind"), *att = jstr(r, "attested");
	json_t		*n;
	struct buf	 b = { 0 };
	enum sig_error	 se;
	int		 rc = 0;

	v->seq = json_integer_value(json_object_get(r, "seq"));
	n = json_object_get(r, "ply");
	if (kind == NULL || !json_is_integer(n) || json_integer_value(n) < 0 ||
	    hash_read(jstr(r, "hash"), v->hash) != 0 ||
	    hash_read(jstr(r, "prev_hash"), v->prev) != 0)
		return errbuf_set(why, whysize, "record %" PRId64 " is malformed",
		    v->seq);
	v->ply = (uint32_t)json_integer_value(n);
	v->has_hash = v->has_prev = true;
	snprintf(v->kind, sizeof v->kind, "%s", kind);
	snprintf(v->san, sizeof v->san, "%s", jstr(r, "san") != NULL ?
	    jstr(r, "san") : "");
	snprintf(v->date, sizeof v->date, "%s", jstr(r, "at") != NULL ?
	    jstr(r, "at") : "");
	snprintf(v->door, sizeof v->door, "%s", att != NULL ? att :
	    strcmp(kind, "abort") == 0 || strcmp(kind, "adjudicate") == 0 ?
	    "admin" : stmt != NULL ? "signed" : "none");
	if (stmt == NULL)
		return 0;
	buf_addf(&b, "%s%s", stmt, sig != NULL ? sig : "");
	if (b.data == NULL || sig_statement_parse(b.data, b.len, &v->st,
	    &v->sg, &se) != 0)
		rc = errbuf_set(why, whysize, "record %" PRId64 ": the statement "
		    "or signature cannot be read: %s", v->seq, b.data == NULL ?
		    "out of memory" : sig_strerror(se));
	v->has_statement = rc == 0;
	buf_free(&b);
	return rc;
}

/* Keep a game's creation record: its bytes, the server's signature, its
 * hash when the export gives one (NULL: recomputed). 0, or -1 with why. */
static int
creation_take(struct verify_game *vg, const uint8_t *bytes, size_t len,
    const uint8_t *sig, size_t siglen, const uint8_t *hash, char *why,
    size_t whysize)
{
	char	sub[192];

	if (vg->has_creation)
		return errbuf_set(why, whysize, "a second creation record");
	if (vg->nrecs > 0)
		return errbuf_set(why, whysize, "the creation record comes after "
		    "the game's first record: it must be the head of the chain");
	if (sig_creation_parse(bytes, len, &vg->creation, sub,
	    sizeof sub) != 0)
		return errbuf_set(why, whysize, "%s", sub);
	if (sig == NULL || siglen != SIG_SIGNATURE_BYTES)
		return errbuf_set(why, whysize, "the creation record has no "
		    "signature of %d bytes", SIG_SIGNATURE_BYTES);
	memcpy(vg->creation_sig, sig, SIG_SIGNATURE_BYTES);
	if (hash != NULL) {
		memcpy(vg->creation_hash, hash, SIG_HASH_BYTES);
		vg->has_creation_hash = true;
	}
	vg->has_creation = true;
	return 0;
}

/* Keep the "creation" object of a records export. */
static int
json_creation(const json_t *c, struct verify_game *vg, char *why,
    size_t whysize)
{
	const char	*text = jstr(c, "record"), *b64 = jstr(c, "signature");
	uint8_t		 sig[SIG_SIGNATURE_BYTES], hash[SIG_HASH_BYTES];
	size_t		 n = 0;

	if (text == NULL || b64 == NULL ||
	    sodium_base642bin(sig, sizeof sig, b64, strlen(b64), NULL, &n,
	    NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    n != sizeof sig || hash_read(jstr(c, "hash"), hash) != 0)
		return errbuf_set(why, whysize, "\"creation\" is malformed (a "
		    "record, a signature in base64 and a hash)");
	return creation_take(vg, (const uint8_t *)text, strlen(text), sig,
	    n, hash, why, whysize);
}

/* Fill `vg` from a records export. */
int
verify_from_json(const json_t *obj, uint64_t id, struct verify_game *vg,
    char *why, size_t whysize)
{
	json_t			*recs = json_object_get(obj, "records");
	json_t			*keys = json_object_get(obj, "keys"), *k;
	struct verify_record	*v;
	uint8_t			 pk[SIG_PUBKEY_BYTES];
	size_t			 i;

	memset(vg, 0, sizeof *vg);
	vg->id = id;
	if (!json_is_array(recs))
		return errbuf_set(why, whysize, "no \"records\" array");
	json_array_foreach(keys, i, k) {
		if (jstr(k, "player") == NULL || jstr(k, "key") == NULL ||
		    sig_pubkey_parse(jstr(k, "key"), pk, NULL) != 0)
			return errbuf_set(why, whysize, "key %zu of \"keys\" is "
			    "malformed", i + 1);
		if (key_add(vg, jstr(k, "player"), pk) != 0)
			return errbuf_set(why, whysize, "out of memory");
	}
	if (jstr(obj, "server_key") != NULL) {
		if (sig_pubkey_parse(jstr(obj, "server_key"), vg->server,
		    NULL) != 0)
			return errbuf_set(why, whysize, "\"server_key\" is "
			    "malformed");
		vg->has_server = true;
	}
	k = json_object_get(obj, "creation");
	if (k != NULL && !json_is_null(k) &&
	    json_creation(k, vg, why, whysize) != 0)
		return -1;
	if (vg->id == 0 && vg->has_creation)
		vg->id = vg->creation.game;
	json_array_foreach(recs, i, k) {
		if ((v = rec_new(vg)) == NULL)
			return errbuf_set(why, whysize, "out of memory");
		if (json_record(k, v, why, whysize) != 0)
			return -1;
		if (vg->id == 0 && v->has_statement)
			vg->id = v->st.game;
	}
	return 0;
}

/* Fill a record from a comment's proof. */
static int
proof_record(const struct sig_proof *p, struct verify_record *v,
    char *why, size_t whysize)
{
	enum sig_error	se;

	v->seq = p->seq;
	v->ply = p->ply;
	snprintf(v->kind, sizeof v->kind, "%s", p->kind);
	snprintf(v->door, sizeof v->door, "%s", p->door);
	snprintf(v->date, sizeof v->date, "%s", p->has_date ? p->date : "");
	v->has_hash = p->has_hash;
	memcpy(v->hash, p->hash, SIG_HASH_BYTES);
	v->has_statement = p->has_statement;
	v->st = p->st;
	if (p->siglen > 0 && sig_proof_signature(p, &v->sg, &se) != 0)
		return errbuf_set(why, whysize, "record %" PRId64 ", ply %" PRIu32
		    ": the signature cannot be read: %s", p->seq, p->ply,
		    sig_strerror(se));
	if (p->has_statement && p->siglen == 0)
		return errbuf_set(why, whysize, "record %" PRId64 ", ply %" PRIu32
		    ": a statement without its signature", p->seq, p->ply);
	return 0;
}

/* Fill `vg` from a PGN game read with its comments. */
int
verify_from_pgn(const struct chess_pgn_game *pg, struct verify_game *vg,
    char *why, size_t whysize)
{
	struct sig_proof	*p;
	struct verify_record	*v;
	const char		*id = chess_pgn_tag(pg, "GameId");
	size_t			 i, k;
	int			 rc = -1;
	char			 sub[192];

	memset(vg, 0, sizeof *vg);
	vg->pg = pg;
	if (id == NULL || sscanf(id, "%" SCNu64, &vg->id) != 1 || vg->id == 0)
		return errbuf_set(why, whysize, "no GameId tag: this is not a "
		    "corrchess export");
	if ((p = malloc(sizeof *p)) == NULL)
		return errbuf_set(why, whysize, "out of memory");
	for (i = 0; i < pg->ncomments; i++) {
		if (sig_proof_parse(pg->comments[i].text,
		    strlen(pg->comments[i].text), p, sub, sizeof sub) != 0) {
			errbuf_set(why, whysize, "comment %zu (after %zu half-moves): "
			    "%s", i + 1, pg->comments[i].ply, sub);
			goto out;
		}
		for (k = 0; k < p->nkeys; k++)
			if (key_add(vg, p->keys[k].name, p->keys[k].pk) != 0)
				goto oom;
		if (p->has_server) {
			memcpy(vg->server, p->server, SIG_PUBKEY_BYTES);
			vg->has_server = true;
		}
		if (p->has_creation && pg->comments[i].ply != 0) {
			errbuf_set(why, whysize, "comment %zu (after %zu half-moves): "
			    "the creation record must come before the first move",
			    i + 1, pg->comments[i].ply);
			goto out;
		}
		if (p->has_creation && creation_take(vg, p->creation,
		    p->creation_len, p->sig, p->siglen, p->has_hash ? p->hash :
		    NULL, sub, sizeof sub) != 0) {
			errbuf_set(why, whysize, "comment %zu (after %zu half-moves): "
			    "%s", i + 1, pg->comments[i].ply, sub);
			goto out;
		}
		if (!p->has_record)
			continue;
		if ((v = rec_new(vg)) == NULL)
			goto oom;
		if (proof_record(p, v, why, whysize) != 0)
			goto out;
	}
	if (vg->nrecs == 0 && pg->game.nply > 0) {
		errbuf_set(why, whysize, "no signed record in the comments (an "
		    "export of before corrchess 0.2.0, or its comments were "
		    "removed)");
		goto out;
	}
	rc = 0;
	goto out;
 oom:
	errbuf_set(why, whysize, "out of memory");
 out:
	free(p);
	return rc;
}

/* Release what a game holds. */
void
verify_game_free(struct verify_game *vg)
{
	if (vg == NULL)
		return;
	free(vg->keys);
	free(vg->recs);
	memset(vg, 0, sizeof *vg);
}

/* True when a record plays a move of the movetext. */
static bool
plays_move(const struct verify_record *v)
{
	if (strcmp(v->kind, "move") == 0 ||
	    strcmp(v->kind, "move-offer-draw") == 0 ||
	    strcmp(v->kind, "conditional-move") == 0)
		return true;
	return strcmp(v->kind, "claim-draw") == 0 && v->has_statement &&
	    v->st.action.move[0] != '\0';
}

/* True when `text` names move `m` at `pos` in English or French. */
static bool
names_move(const struct chess_position *pos, const char *text, chess_move m)
{
	chess_move	got;

	return (chess_move_parse(pos, text, CHESS_LANG_EN, &got, NULL, 0) ==
	    CHESS_OK && got == m) || (chess_move_parse(pos, text,
	    CHESS_LANG_FR, &got, NULL, 0) == CHESS_OK && got == m);
}

/* True when a word of a conditional's lines names move `m` at `pos`. */
static bool
lines_name_move(const struct chess_position *pos, const char *lines,
    chess_move m)
{
	char	w[SIG_MOVE_MAX + 1];
	size_t	n;

	while (*lines != '\0') {
		n = strcspn(lines, " ;");
		if (n > 0 && n < sizeof w) {
			memcpy(w, lines, n);
			w[n] = '\0';
			if (names_move(pos, w, m))
				return true;
		}
		lines += n;
		while (*lines == ' ' || *lines == ';')
			lines++;
	}
	return false;
}

/* Where the check of a game stands. */
struct run {
	const struct verify_game *vg;
	struct chess_position	 *pos;	/* before each move of the PGN */
	bool			 *covered;
	char			  why[384];
	char			  fp[SIG_FINGERPRINT_SIZE];
	char			  who[96];
};

/* Check a record's signature; its signer and key go to r->who, r->fp. */
static int
check_signature(struct run *r, const struct verify_record *v)
{
	const struct verify_game *vg = r->vg;
	uint8_t		(*pks)[SIG_PUBKEY_BYTES] = NULL;
	bool		 admin = v->has_statement &&
			    (v->st.action.kind == SIG_ACT_ABORT ||
			    v->st.action.kind == SIG_ACT_ADJUDICATE);
	size_t		 i, n = 0, which = 0;
	enum sig_error	 se;
	int		 rc = -1;

	snprintf(r->fp, sizeof r->fp, "-");
	if (strcmp(v->door, "none") == 0) {
		if (v->has_statement || sig_signature_bytes(&v->sg, &n) != NULL)
			return errbuf_set(r->why, sizeof r->why, "marked unsigned, "
			    "but it carries a statement or signature");
		snprintf(r->who, sizeof r->who, "no signature (%s)", v->kind);
		return 0;
	}
	if (!v->has_statement)
		return errbuf_set(r->why, sizeof r->why, "marked %s, but without "
		    "its statement", v->door);
	if (v->st.game != vg->id)
		return errbuf_set(r->why, sizeof r->why, "the statement is for "
		    "game %" PRIu64 ", not %" PRIu64, v->st.game, vg->id);
	if (admin != (strcmp(v->door, "admin") == 0) ||
	    (admin && strcmp(v->st.player, SIG_ADMIN) != 0))
		return errbuf_set(r->why, sizeof r->why, "an admin's action must "
		    "be the server's, for the player \"admin\"");
	if (vg->has_creation && !admin &&
	    strcmp(v->st.player, vg->creation.white) != 0 &&
	    strcmp(v->st.player, vg->creation.black) != 0)
		return errbuf_set(r->why, sizeof r->why, "the statement is %s's, "
		    "who does not play in this game (%s v %s, by its creation "
		    "record)", v->st.player, vg->creation.white,
		    vg->creation.black);
	if (vg->has_creation && !admin && strcmp(v->door, "signed") != 0 &&
	    strcmp(vg->creation.auth, "signed") == 0)
		return errbuf_set(r->why, sizeof r->why, "attested (%s), but the "
		    "game's creation record says auth: signed (only the "
		    "players' own signatures)", v->door);
	if (strcmp(v->door, "signed") != 0) {
		if (!vg->has_server)
			return errbuf_set(r->why, sizeof r->why, "signed by the "
			    "server (%s), but the export gives no server key",
			    v->door);
		if (v->sg.form != SIG_FORM_RAW || sig_verify(v->st.canon,
		    v->st.canon_len, v->sg.raw, vg->server) != 0)
			return errbuf_set(r->why, sizeof r->why, "%s, but not "
			    "signed by the server's key", admin ? "the "
			    "admin's" : "attested");
		sig_pubkey_fingerprint(vg->server, r->fp);
		snprintf(r->who, sizeof r->who, admin ? "the admin, signed "
		    "by the server" : "%s, attested (%s) by the server",
		    v->st.player, v->door);
		return 0;
	}
	if ((pks = calloc(vg->nkeys + 1, sizeof *pks)) == NULL)
		return errbuf_set(r->why, sizeof r->why, "out of memory");
	for (i = 0; i < vg->nkeys; i++)
		if (strcmp(vg->keys[i].name, v->st.player) == 0)
			memcpy(pks[n++], vg->keys[i].pk, SIG_PUBKEY_BYTES);
	if (n == 0)
		errbuf_set(r->why, sizeof r->why, "the export lists no key of %s",
		    v->st.player);
	else if (sig_signature_verify(&v->st, &v->sg,
	    (const uint8_t (*)[SIG_PUBKEY_BYTES])pks, n, &which, &se) != 0)
		errbuf_set(r->why, sizeof r->why, "the signature does not verify "
		    "against %s's keys (%zu in the export): %s", v->st.player,
		    n, sig_strerror(se));
	else {
		sig_pubkey_fingerprint(pks[which], r->fp);
		snprintf(r->who, sizeof r->who, "%s", v->st.player);
		rc = 0;
	}
	free(pks);
	return rc;
}

/* Check that a record's statement names the PGN's move at its ply. */
static int
check_move(struct run *r, const struct verify_record *v, const char *label)
{
	const struct chess_pgn_game *pg = r->vg->pg;
	chess_move	m;
	bool		cond = strcmp(v->kind, "conditional-move") == 0;

	if (v->ply >= pg->game.nply)
		return errbuf_set(r->why, sizeof r->why, "a move at ply %" PRIu32
		    ", but the PGN has %zu half-moves", v->ply,
		    pg->game.nply);
	m = pg->game.moves[v->ply];
	if (!v->has_statement)
		return errbuf_set(r->why, sizeof r->why, "a move without its "
		    "statement");
	if (cond ? v->st.action.kind != SIG_ACT_CONDITIONAL ||
	    v->st.ply > v->ply || !lines_name_move(&r->pos[v->ply],
	    v->st.action.lines, m) : v->st.ply != v->ply ||
	    !names_move(&r->pos[v->ply], v->st.action.move, m))
		return errbuf_set(r->why, sizeof r->why, "the PGN's move is %s, "
		    "but the signed statement says \"%s\" at ply %" PRIu32,
		    label, cond ? v->st.action.lines : v->st.action.move,
		    v->st.ply);
	if (r->vg->has_creation && strcmp(v->st.player,
	    r->pos[v->ply].side == CHESS_WHITE ? r->vg->creation.white :
	    r->vg->creation.black) != 0)
		return errbuf_set(r->why, sizeof r->why, "signed by %s, but it "
		    "is %s's move (%s, by the creation record)", v->st.player,
		    r->pos[v->ply].side == CHESS_WHITE ? "White" : "Black",
		    r->pos[v->ply].side == CHESS_WHITE ?
		    r->vg->creation.white : r->vg->creation.black);
	if (r->covered[v->ply])
		return errbuf_set(r->why, sizeof r->why, "a second record for "
		    "the move of ply %" PRIu32, v->ply);
	r->covered[v->ply] = true;
	return 0;
}

/* Write "12. Nf3" or "12... Nf6" for ply `ply` of the PGN. */
static void
move_label(const struct run *r, size_t ply, char *buf, size_t size)
{
	const struct chess_position *pos = &r->pos[ply];
	char	san[CHESS_SAN_MAX];

	chess_move_san(pos, r->vg->pg->game.moves[ply], CHESS_LANG_EN, san,
	    sizeof san);
	snprintf(buf, size, "%u%s %s", (unsigned)pos->fullmove,
	    pos->side == CHESS_WHITE ? "." : "...", san);
}

/* A game's possible results, as a set. */
#define RES_NONE	1	/* "*" */
#define RES_WHITE	2	/* "1-0" */
#define RES_BLACK	4	/* "0-1" */
#define RES_DRAW	8	/* "1/2-1/2" */

/* The set of a result's text, or 0 for text that is no result. */
static int
result_bit(const char *s)
{
	if (strcmp(s, "*") == 0)
		return RES_NONE;
	if (strcmp(s, "1-0") == 0)
		return RES_WHITE;
	if (strcmp(s, "0-1") == 0)
		return RES_BLACK;
	if (strcmp(s, "1/2-1/2") == 0)
		return RES_DRAW;
	return 0;
}

/* Write a set of results: "1-0", "1-0 or 0-1". */
static void
result_text(int set, char *buf, size_t size)
{
	static const char *const names[] = { "*", "1-0", "0-1", "1/2-1/2" };
	size_t	i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < 4; i++)
		if (set & (1 << i))
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0,
			    "%s%s", n ? " or " : "", names[i]);
}

/* The colour of player `name`: the creation record's; in a game without
 * one, the side of a move they signed, else the PGN's White or Black tag
 * (which nothing signs); -1 when none tells. */
static int
player_color(const struct run *r, const char *name)
{
	const struct verify_record	*v;
	const char			*w, *b;
	size_t				 i;

	if (r->vg->has_creation)
		return strcmp(name, r->vg->creation.white) == 0 ? CHESS_WHITE :
		    strcmp(name, r->vg->creation.black) == 0 ? CHESS_BLACK : -1;
	for (i = 0; i < r->vg->nrecs; i++) {
		v = &r->vg->recs[i];
		if (v->has_statement && plays_move(v) &&
		    v->ply < r->vg->pg->game.nply &&
		    strcmp(v->st.player, name) == 0)
			return r->pos[v->ply].side;
	}
	w = chess_pgn_tag(r->vg->pg, "White");
	b = chess_pgn_tag(r->vg->pg, "Black");
	if (w != NULL && strcmp(w, name) == 0)
		return CHESS_WHITE;
	if (b != NULL && strcmp(b, name) == 0)
		return CHESS_BLACK;
	return -1;
}

/* The results the record allows, from its first ending record or else
 * from the last position; `how` says why. */
static int
record_result(const struct run *r, char *how, size_t size)
{
	const struct chess_game		*cg = &r->vg->pg->game;
	const struct verify_record	*v;
	const struct chess_position	*pos;
	enum chess_status		 st;
	size_t				 i;
	int				 c;

	for (i = 0; i < r->vg->nrecs; i++) {
		v = &r->vg->recs[i];
		if (strcmp(v->kind, "resign") == 0 && !v->has_statement) {
			snprintf(how, size, "a resignation at ply %" PRIu32
			    " that the server recorded (a withdrawal)", v->ply);
			return RES_WHITE | RES_BLACK;
		}
		if (strcmp(v->kind, "resign") == 0) {
			c = player_color(r, v->st.player);
			snprintf(how, size, "%s resigned at ply %" PRIu32,
			    v->st.player, v->ply);
			return c < 0 ? RES_WHITE | RES_BLACK :
			    c == CHESS_WHITE ? RES_BLACK : RES_WHITE;
		}
		if (strcmp(v->kind, "accept-draw") == 0 ||
		    strcmp(v->kind, "claim-draw") == 0) {
			snprintf(how, size, "a draw %s at ply %" PRIu32,
			    v->kind[0] == 'a' ? "agreed" : "claimed", v->ply);
			return RES_DRAW;
		}
		if (strcmp(v->kind, "abort") == 0) {
			snprintf(how, size, "aborted by the admin at ply %"
			    PRIu32, v->ply);
			return RES_NONE;
		}
		if (strcmp(v->kind, "adjudicate") == 0 && v->has_statement) {
			snprintf(how, size, "adjudicated by the admin at ply %"
			    PRIu32, v->ply);
			return result_bit(v->st.action.result);
		}
		if (strcmp(v->kind, "flag") == 0 && v->ply <= cg->nply) {
			pos = &r->pos[v->ply];
			snprintf(how, size, "%s's flag fell at ply %" PRIu32 "%s",
			    pos->side == CHESS_WHITE ? "White" : "Black",
			    v->ply, chess_can_mate(pos, !pos->side) ? "" :
			    ", and the other side cannot mate");
			if (!chess_can_mate(pos, !pos->side))
				return RES_DRAW;
			return pos->side == CHESS_WHITE ? RES_BLACK : RES_WHITE;
		}
	}
	st = chess_game_status(cg);
	switch (st) {
	case CHESS_ONGOING:
		snprintf(how, size, "no end in the record: the game goes on");
		return RES_NONE;
	case CHESS_CHECKMATE:
		snprintf(how, size, "checkmate at ply %zu", cg->nply);
		return cg->pos.side == CHESS_WHITE ? RES_BLACK : RES_WHITE;
	case CHESS_THREEFOLD:
	case CHESS_FIFTY:
		if (r->vg->has_creation) {
			c = strcmp(r->vg->creation.policy, "auto") == 0;
			snprintf(how, size, "%s at ply %zu, under the draw policy "
			    "%s", chess_status_name(st), cg->nply,
			    r->vg->creation.policy);
			return c ? RES_DRAW : RES_NONE;
		}
		snprintf(how, size, "%s at ply %zu: a draw where the game's "
		    "draw policy is auto, the game going on where it must be "
		    "claimed", chess_status_name(st), cg->nply);
		return RES_DRAW | RES_NONE;
	default:
		snprintf(how, size, "%s at ply %zu", chess_status_name(st),
		    cg->nply);
		return RES_DRAW;
	}
}

/* Check the PGN's Result tag and movetext result against the record's;
 * print the result's line. 0, or -1 (said). */
static int
check_result(const struct run *r, FILE *out)
{
	const char	*tag = chess_pgn_tag(r->vg->pg, "Result");
	const char	*marker = r->vg->pg->result;
	char		 how[192], want[64];
	int		 set;

	set = record_result(r, how, sizeof how);
	result_text(set, want, sizeof want);
	if (tag == NULL) {
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN has no Result "
		    "tag; the record gives %s (%s)\n", r->vg->id, want, how);
		return -1;
	}
	if ((result_bit(tag) & set) == 0) {
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN's Result tag "
		    "says %s, but the record gives %s (%s)\n", r->vg->id, tag,
		    want, how);
		return -1;
	}
	if (marker[0] != '\0' && (result_bit(marker) & set) == 0) {
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN's moves end in "
		    "%s, but the record gives %s (%s)\n", r->vg->id, marker,
		    want, how);
		return -1;
	}
	fprintf(out, "game %" PRIu64 ": result %s (%s) OK\n", r->vg->id, tag,
	    how);
	return 0;
}

/* Compare one of the PGN's tags with what the creation record gives;
 * `want` NULL: the tag must be absent. 0, or -1 (said). */
static int
tag_check(const struct run *r, FILE *out, const char *tag, const char *want)
{
	const char	*got = chess_pgn_tag(r->vg->pg, tag);

	if (want == NULL && got == NULL)
		return 0;
	if (want != NULL && got != NULL && strcmp(got, want) == 0)
		return 0;
	if (got == NULL)
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN has no %s tag, but "
		    "the signed creation record gives \"%s\"\n", r->vg->id, tag,
		    want);
	else if (want == NULL)
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN's %s tag says "
		    "\"%s\", but the signed creation record gives none\n",
		    r->vg->id, tag, got);
	else
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN's %s tag says "
		    "\"%s\", but the signed creation record gives \"%s\"\n",
		    r->vg->id, tag, got, want);
	return -1;
}

/* Compare the PGN's tags and start position with the creation record.
 * 0, or -1 (said). */
static int
check_tags(const struct run *r, FILE *out)
{
	const struct sig_creation	*c = &r->vg->creation;
	struct chess_position		 pos;
	char				 want[SIG_CREATION_FEN_MAX + 1];
	char				 got[SIG_CREATION_FEN_MAX + 1];

	if (tag_check(r, out, "White", c->white) != 0 ||
	    tag_check(r, out, "Black", c->black) != 0 ||
	    tag_check(r, out, "Event", c->event[0] != '\0' ? c->event :
	    "corrchess game") != 0 ||
	    tag_check(r, out, "Round", c->round[0] != '\0' ? c->round :
	    "-") != 0 ||
	    tag_check(r, out, "CorrespondenceTimeControl",
	    strcmp(c->time_control, "none") != 0 ? c->time_control :
	    NULL) != 0)
		return -1;
	if (chess_fen_parse(&pos, c->start, strcmp(c->variant, "chess960") ==
	    0 ? CHESS_FEN_960 : 0) != CHESS_OK) {
		fprintf(out, "game %" PRIu64 ": FAIL: the creation record's start "
		    "position cannot be read: %s\n", r->vg->id, c->start);
		return -1;
	}
	chess_fen_write(&pos, want, sizeof want);
	chess_fen_write(&r->vg->pg->game.start, got, sizeof got);
	if (strcmp(want, got) != 0) {
		fprintf(out, "game %" PRIu64 ": FAIL: the PGN's start position "
		    "(its FEN tag, or the standard one without it) is %s, but "
		    "the signed creation record gives %s\n", r->vg->id, got,
		    want);
		return -1;
	}
	return 0;
}

/* Check the creation record, the head of the chain, into `head`; in a
 * PGN, the tags it signs. Without one, say what is unsigned. 0, or -1
 * (said). */
static int
check_creation(const struct run *r, FILE *out, uint8_t head[SIG_HASH_BYTES])
{
	const struct verify_game	*vg = r->vg;
	const struct sig_creation	*c = &vg->creation;
	static const uint8_t		 zero[SIG_HASH_BYTES];
	char				 fp[SIG_FINGERPRINT_SIZE];
	const char			*why = NULL;

	memset(head, 0, SIG_HASH_BYTES);
	if (!vg->has_creation) {
		fprintf(out, "game %" PRIu64 ": no creation record (a game "
		    "created before corrchess 0.2.0): the players' colours are "
		    "unsigned%s\n", vg->id, vg->pg != NULL ? "; they are taken "
		    "from the moves each signed, else from the PGN's White and "
		    "Black tags" : "");
		return 0;
	}
	sig_record_hash(zero, c->canon, c->canon_len, vg->creation_sig,
	    SIG_SIGNATURE_BYTES, head);
	if (c->game != vg->id)
		why = "it is for another game";
	else if (!vg->has_server)
		why = "it is signed by the server, but the export gives no "
		    "server key (give it with --server-key)";
	else if (sig_verify(c->canon, c->canon_len, vg->creation_sig,
	    vg->server) != 0)
		why = "it is not signed by the server's key";
	else if (vg->has_creation_hash && memcmp(vg->creation_hash, head,
	    SIG_HASH_BYTES) != 0)
		why = "its hash does not match its bytes and signature";
	if (why != NULL) {
		fprintf(out, "game %" PRIu64 ": creation record (game %" PRIu64
		    "): FAIL: %s\n", vg->id, c->game, why);
		return -1;
	}
	if (vg->pg != NULL && check_tags(r, out) != 0)
		return -1;
	sig_pubkey_fingerprint(vg->server, fp);
	fprintf(out, "game %" PRIu64 ": creation record: %s (White) v %s "
	    "(Black), %s, time control %s, draw policy %s, %s, auth %s%s%s%s%s;"
	    " the server %s OK\n", vg->id, c->white, c->black, c->variant,
	    c->time_control, c->policy, c->rated ? "rated" : "unrated",
	    c->auth, c->event[0] ? ", event " : "", c->event,
	    c->round[0] ? ", round " : "", c->round, fp);
	return 0;
}

/* Check the game against the key the verifier was given. */
int
verify_server_pin(struct verify_game *vg, const uint8_t pk[SIG_PUBKEY_BYTES],
    char *why, size_t whysize)
{
	char	a[SIG_FINGERPRINT_SIZE], b[SIG_FINGERPRINT_SIZE];

	if (vg->has_server && memcmp(vg->server, pk, SIG_PUBKEY_BYTES) != 0) {
		sig_pubkey_fingerprint(vg->server, a);
		sig_pubkey_fingerprint(pk, b);
		return errbuf_set(why, whysize, "the export names the server "
		    "key %s, not the one given with --server-key (%s)", a, b);
	}
	memcpy(vg->server, pk, SIG_PUBKEY_BYTES);
	vg->has_server = true;
	return 0;
}

/* Check the game, printing what was found. */
int
verify_run(const struct verify_game *vg, FILE *out)
{
	struct run			 r;
	const struct verify_record	*v;
	struct buf			 plies = { 0 };
	const uint8_t			*gb, *s;
	uint8_t				 prev[SIG_HASH_BYTES] = { 0 };
	uint8_t				 h[SIG_HASH_BYTES];
	char				 label[64], san[CHESS_SAN_MAX];
	size_t				 i, gl, sl, n = 0, nply = 0;
	int				 rc = -1;

	memset(&r, 0, sizeof r);
	r.vg = vg;
	/* Nothing signed proves nothing: an empty export is no game's. */
	if (vg->nrecs == 0 && !vg->has_creation) {
		fprintf(out, "game %" PRIu64 ": FAIL: no records: nothing in "
		    "this game was signed yet, so there is nothing to verify\n",
		    vg->id);
		goto out;
	}
	if (vg->pg != NULL) {
		nply = vg->pg->game.nply;
		r.pos = calloc(nply + 1, sizeof *r.pos);
		r.covered = calloc(nply + 1, sizeof *r.covered);
		if (r.pos == NULL || r.covered == NULL) {
			fprintf(out, "game %" PRIu64 ": out of memory\n",
			    vg->id);
			goto out;
		}
		r.pos[0] = vg->pg->game.start;
		for (i = 0; i < nply; i++) {
			r.pos[i + 1] = r.pos[i];
			chess_position_make(&r.pos[i + 1],
			    vg->pg->game.moves[i]);
		}
	}
	if (check_creation(&r, out, prev) != 0)
		goto out;
	for (i = 0; i < vg->nrecs; i++) {
		v = &vg->recs[i];
		snprintf(san, sizeof san, "%s", v->san);
		if (vg->pg != NULL && plays_move(v) && v->ply < nply) {
			move_label(&r, v->ply, label, sizeof label);
			chess_move_san(&r.pos[v->ply], vg->pg->game.moves[v->ply],
			    CHESS_LANG_EN, san, sizeof san);
		} else
			snprintf(label, sizeof label, "%s", san[0] != '\0' ?
			    san : v->kind);
		gb = sig_signature_bytes(&v->sg, &gl);
		s = v->has_statement ? v->st.canon : (const uint8_t *)v->kind;
		sl = v->has_statement ? v->st.canon_len : strlen(v->kind);
		sig_record_hash(prev, s, sl, gb, gl, h);
		if (v->has_prev && memcmp(v->prev, prev, SIG_HASH_BYTES) != 0)
			errbuf_set(r.why, sizeof r.why, "prev_hash is not the hash "
			    "of the record before");
		else if (v->has_hash && memcmp(v->hash, h, SIG_HASH_BYTES) !=
		    0)
			errbuf_set(r.why, sizeof r.why, "its hash does not match "
			    "its statement and signature");
		else if (check_signature(&r, v) == 0 && (vg->pg == NULL ||
		    !plays_move(v) || check_move(&r, v, label) == 0)) {
			fprintf(out, "game %" PRIu64 ": record %" PRId64
			    ", ply %" PRIu32 " (%s): %s %s OK\n", vg->id,
			    v->seq, v->ply, label, r.who, r.fp);
			if (strcmp(v->door, "signed") != 0 &&
			    strcmp(v->door, "none") != 0) {
				buf_addf(&plies, "%s%" PRIu32 " (%s, %s)",
				    n ? ", " : "", v->ply, san[0] != '\0' ?
				    san : v->kind, v->door);
				n++;
			}
			memcpy(prev, h, SIG_HASH_BYTES);
			continue;
		}
		fprintf(out, "game %" PRIu64 ": record %" PRId64 ", ply %"
		    PRIu32 " (%s): FAIL: %s\n", vg->id, v->seq, v->ply, label,
		    r.why);
		goto out;
	}
	for (i = 0; i < nply; i++)
		if (!r.covered[i]) {
			move_label(&r, i, label, sizeof label);
			fprintf(out, "game %" PRIu64 ": ply %zu (%s): FAIL: "
			    "the move has no signed record\n", vg->id, i,
			    label);
			goto out;
		}
	if (vg->pg != NULL && check_result(&r, out) != 0)
		goto out;
	fprintf(out, "game %" PRIu64 ": %zu records, the chain holds; %zu "
	    "attested by the server%s%s\n", vg->id, vg->nrecs, n,
	    n == 0 ? "" : n == 1 ? " at ply " : " at plies ",
	    n ? plies.data : "");
	rc = 0;
 out:
	buf_free(&plies);
	free(r.pos);
	free(r.covered);
	return rc;
}
