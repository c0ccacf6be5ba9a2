/*
 * service/pgn.c: a game exported as PGN with its signed record.
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
 * Each record of the game's chain is a comment of its own, after the move
 * it played (or where it stands among the moves): its proof as %-commands
 * (sig/proof.h), which PGN tools keep through a re-wrap, so that
 * `corrchess verify FILE` checks the PGN alone. The first comment names
 * the players' keys and the server's; the second, in a game that has one,
 * is the game's creation record (the head of the chain, signed by the
 * server). An admin's abort or adjudication
 * is followed by its reason in words, a player's message by its text.
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "util/buf.h"
#include "chess/pgn.h"
#include "service/service_int.h"

/* The keys a game's record is checked with: both players' and the
 * server's. */
struct pgn_keys {
	struct sig_proof	 p;	/* keys and server */
	int64_t			 ids[SIG_PROOF_KEYS_MAX];
	const char		*name;	/* of the player being listed */
	bool			 over;
};

/* What the records' listing writes into. */
struct pgn_records {
	struct chess_pgn_game	*pg;
	const struct pgn_keys	*keys;
	bool			 failed;
};

/* Keep one of a player's keys. */
static int
key_one(void *arg, const struct store_key *k)
{
	struct pgn_keys		*pk = arg;
	struct sig_proof_key	*d;

	if (pk->p.nkeys == SIG_PROOF_KEYS_MAX) {
		pk->over = true;
		return 0;
	}
	d = &pk->p.keys[pk->p.nkeys];
	snprintf(d->name, sizeof d->name, "%s", pk->name);
	memcpy(d->pk, k->pubkey, SIG_PUBKEY_BYTES);
	pk->ids[pk->p.nkeys++] = k->id;
	return 0;
}

/* Gather the players' keys and the server's. */
static int
keys_load(struct service *svc, struct store *st, const struct store_game *row,
    struct pgn_keys *pk)
{
	memset(pk, 0, sizeof *pk);
	pk->name = row->white_name;
	if (store_key_list(st, row->white, key_one, pk) != STORE_OK)
		return -1;
	pk->name = row->black_name;
	if (store_key_list(st, row->black, key_one, pk) != STORE_OK)
		return -1;
	if (service_server_key(svc, pk->p.server) == 0)
		pk->p.has_server = true;
	return 0;
}

/* Longest word of a comment in words: PGN tools wrap lines at 75. */
#define PGN_WORD_MAX	60

/*
 * Add a comment of words from a statement (an admin's reason, a player's
 * message): '}' would end the comment, and a bracket could start a
 * %-command a verifier reads ("[%ccst ...]"), so braces and brackets
 * become parentheses; a word longer than a line is cut (between two
 * UTF-8 characters).
 */
static int
words_comment(struct chess_pgn_game *pg, size_t ply, const char *text)
{
	char		 out[2 * (SIG_MESSAGE_MAX + SIG_PLAYER_MAX + 64)];
	const char	*p;
	size_t		 n = 0, word = 0;

	for (p = text; *p != '\0' && n + 3 < sizeof out; p++) {
		if (word >= PGN_WORD_MAX && ((unsigned char)*p & 0xc0) != 0x80) {
			out[n++] = ' ';
			word = 0;
		}
		word = *p == ' ' ? 0 : word + 1;
		out[n++] = *p == '{' || *p == '[' ? '(' :
		    *p == '}' || *p == ']' ? ')' : *p;
	}
	out[n] = '\0';
	return chess_pgn_add_comment(pg, ply, out);
}

/* The comment on a statement's words: an admin's record (what was done
 * and why), a player's message. */
static int
statement_comment(struct chess_pgn_game *pg, size_t ply,
    const struct sig_statement *st)
{
	char	text[SIG_MESSAGE_MAX + SIG_PLAYER_MAX + 64];

	if (st->action.kind == SIG_ACT_ABORT ||
	    st->action.kind == SIG_ACT_ADJUDICATE)
		snprintf(text, sizeof text, "%s by the club's admin: %s",
		    st->action.kind == SIG_ACT_ABORT ? "Aborted" :
		    "Adjudicated", st->action.reason);
	else if (st->message[0] != '\0')
		snprintf(text, sizeof text, "Message from %s: %s",
		    st->player, st->message);
	else
		return 0;
	return words_comment(pg, ply, text);
}

/* Fill a record's proof: what it is, its statement, signature and hash. */
static int
proof_fill(const struct store_action *a, const struct pgn_keys *pk,
    struct sig_proof *p, struct sig_statement *st)
{
	struct sig_signature	 sg;
	char			 text[SIG_SIGNED_SIZE];
	const uint8_t		*g;
	size_t			 i, glen;
	struct tm		 tm;
	time_t			 t = (time_t)a->at;
	bool			 admin = strcmp(a->kind, "abort") == 0 ||
				    strcmp(a->kind, "adjudicate") == 0;

	memset(p, 0, sizeof *p);
	gmtime_r(&t, &tm);
	p->has_date = strftime(p->date, sizeof p->date, "%Y.%m.%d,%H:%M:%S",
	    &tm) > 0;
	p->has_record = true;
	p->seq = a->seq;
	snprintf(p->kind, sizeof p->kind, "%s", a->kind);
	p->ply = (uint32_t)a->ply;
	snprintf(p->door, sizeof p->door, "%s", a->attested[0] != '\0' ?
	    a->attested : admin ? "admin" : a->statement != NULL ? "signed" :
	    "none");
	snprintf(p->fp, sizeof p->fp, "-");
	memcpy(p->hash, a->hash, SIG_HASH_BYTES);
	p->has_hash = true;
	if (a->statement == NULL)
		return 0;
	snprintf(text, sizeof text, "%s%s", a->statement,
	    a->signature != NULL ? a->signature : "");
	if (sig_statement_parse(text, strlen(text), st, &sg, NULL) != 0)
		return -1;
	p->st = *st;
	p->has_statement = true;
	g = sig_signature_bytes(&sg, &glen);
	if (glen > sizeof p->sig)
		return -1;
	memcpy(p->sig, g, glen);
	p->siglen = glen;
	if (strcmp(p->door, "signed") != 0) {
		if (pk->p.has_server)
			sig_pubkey_fingerprint(pk->p.server, p->fp);
	} else
		for (i = 0; i < pk->p.nkeys; i++)
			if (pk->ids[i] == a->key_id)
				sig_pubkey_fingerprint(pk->p.keys[i].pk, p->fp);
	return 0;
}

/* Add one record's proof as a comment where it stands: after the move it
 * played, or after the moves played before it. */
static int
rec_one(void *arg, const struct store_action *a)
{
	struct pgn_records	*pr = arg;
	struct sig_proof	 p;
	struct sig_statement	 st;
	char			 text[SIG_PROOF_SIZE];
	size_t			 ply = (size_t)a->ply + (a->san[0] != '\0');

	if (proof_fill(a, pr->keys, &p, &st) != 0 ||
	    sig_proof_format(&p, text, sizeof text) != 0 ||
	    chess_pgn_add_comment(pr->pg, ply, text) != 0 ||
	    (p.has_statement && statement_comment(pr->pg, ply, &st) != 0)) {
		pr->failed = true;
		return -1;
	}
	return 0;
}

/* Add the game's creation record as a comment before the first move,
 * when it has one. */
static int
creation_comment(struct store *st, const struct store_game *row,
    struct chess_pgn_game *pg)
{
	struct store_creation	*sc;
	struct sig_proof	*p;
	char			*text;
	int			 rc = -1;

	sc = malloc(sizeof *sc);
	p = calloc(1, sizeof *p);
	text = malloc(SIG_PROOF_SIZE);
	if (sc == NULL || p == NULL || text == NULL)
		goto out;
	switch (store_game_creation_get(st, row->id, sc)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		rc = 0;
		goto out;
	default:
		goto out;
	}
	p->has_creation = true;
	p->creation_len = strlen(sc->record);
	memcpy(p->creation, sc->record, p->creation_len);
	memcpy(p->sig, sc->signature, sizeof sc->signature);
	p->siglen = sizeof sc->signature;
	memcpy(p->hash, sc->hash, SIG_HASH_BYTES);
	p->has_hash = true;
	if (sig_proof_format(p, text, SIG_PROOF_SIZE) == 0 &&
	    chess_pgn_add_comment(pg, 0, text) == 0)
		rc = 0;
 out:
	free(sc);
	free(p);
	free(text);
	return rc;
}

/* Add the WhiteElo (c 0) or BlackElo tag when the player has a rating. */
static int
elo_tag(struct store *st, const struct store_game *row, int c,
    struct chess_pgn_game *pg)
{
	char	num[16];
	int	elo;

	if (rating_elo(st, row, c, &elo) != 0)
		return 0;
	snprintf(num, sizeof num, "%d", elo);
	return chess_pgn_set_tag(pg, c == 0 ? "WhiteElo" : "BlackElo", num);
}

/*
 * Write the game as PGN, each record's proof in a comment; the records
 * are read with handle `st` (the writer's sees its own work).
 */
char *
pgn_text(struct service *svc, struct store *st, const struct store_game *row,
    const struct game *g, size_t *lenp)
{
	struct chess_pgn_game	 pg;
	struct pgn_keys		*pk = NULL;
	struct pgn_records	 pr;
	char			*pgn = NULL, *text = NULL, *res = NULL;
	char			 date[16], num[32];
	size_t			 plen = 0, i;
	struct tm		 tm;
	time_t			 t;

	memset(&pg, 0, sizeof pg);
	if ((pk = calloc(1, sizeof *pk)) == NULL ||
	    (text = malloc(SIG_PROOF_SIZE)) == NULL ||
	    keys_load(svc, st, row, pk) != 0 ||
	    sig_proof_format(&pk->p, text, SIG_PROOF_SIZE) != 0)
		goto out;
	if (chess_game_init(&pg.game, &g->chess.start) != 0)
		goto out;
	for (i = 0; i < g->chess.nply; i++)
		if (chess_game_push(&pg.game, g->chess.moves[i]) != 0)
			goto out;
	if ((text[0] != '\0' && chess_pgn_add_comment(&pg, 0, text) != 0) ||
	    creation_comment(st, row, &pg) != 0)
		goto out;
	pr.pg = &pg;
	pr.keys = pk;
	pr.failed = false;
	if (store_action_list(st, row->id, rec_one, &pr) != STORE_OK ||
	    pr.failed)
		goto out;
	t = (time_t)row->created;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	snprintf(num, sizeof num, "%" PRId64, row->id);
	snprintf(pg.result, sizeof pg.result, "%s",
	    game_result_name(g->result));
	if (chess_pgn_set_tag(&pg, "Event", row->event[0] ? row->event :
	    "corrchess game") != 0 ||
	    chess_pgn_set_tag(&pg, "Site", row->site[0] ? row->site : "?") ||
	    chess_pgn_set_tag(&pg, "Date", date) ||
	    chess_pgn_set_tag(&pg, "Round", row->round[0] ? row->round : "-") ||
	    chess_pgn_set_tag(&pg, "White", row->white_name) ||
	    chess_pgn_set_tag(&pg, "Black", row->black_name) ||
	    chess_pgn_set_tag(&pg, "Result", pg.result) ||
	    chess_pgn_set_tag(&pg, "GameId", num) != 0)
		goto out;
	if (elo_tag(st, row, 0, &pg) != 0 || elo_tag(st, row, 1, &pg) != 0)
		goto out;
	if (row->time_control[0] != '\0' &&
	    strcmp(row->time_control, "none") != 0 &&
	    chess_pgn_set_tag(&pg, "CorrespondenceTimeControl",
	    row->time_control) != 0)
		goto out;
	if (!game_ongoing(g) && chess_pgn_set_tag(&pg, "Termination",
	    game_termination_pgn(g->termination)) != 0)
		goto out;
	/* An empty line after the game, so that games follow one another. */
	free(text);
	text = NULL;
	if ((pgn = chess_pgn_write(&pg, &plen)) == NULL ||
	    (text = realloc(pgn, plen + 2)) == NULL)
		goto out;
	pgn = NULL;
	text[plen++] = '\n';
	text[plen] = '\0';
	if (lenp != NULL)
		*lenp = plen;
	res = text;
	text = NULL;
 out:
	free(pk);
	free(text);
	free(pgn);
	chess_pgn_game_free(&pg);
	return res;
}

/* Export a game read by service_game_get() as PGN with its signed
 * record. */
char *
service_game_pgn_of(struct service *svc, const struct service_game *g,
    size_t *lenp, struct service_error *err)
{
	struct store	*st;
	char		*res = NULL;

	if ((st = pool_get(svc, err)) != NULL) {
		if ((res = pgn_text(svc, st, &g->row, &g->state, lenp)) ==
		    NULL)
			service_fail(err, 500, "internal",
			    "the game cannot be exported; try again later");
		pool_put(svc, st);
	}
	return res;
}

/* Export a game as PGN with its signed record. */
char *
service_game_pgn(struct service *svc, int64_t id, size_t *lenp,
    struct service_error *err)
{
	struct service_game	 g;
	char			*res;

	if (service_game_get(svc, id, &g, err) != 0)
		return NULL;
	res = service_game_pgn_of(svc, &g, lenp, err);
	service_game_free(&g);
	return res;
}
