/*
 * service/notify.c: the notices of a game's events, queued in the outbox.
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

#include "util/log.h"
#include "letters/mail_reply.h"
#include "service/service_int.h"

/*
 * Start a notice of `kind` to an address rather than to a player of a
 * game: no actor, no draw offer, no clocks until the caller says so.
 */
void
notify_start(struct notice *n, enum notice_kind kind, const char *email,
    const char *name, enum chess_lang lang)
{
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->recipient = -1;
	n->to_email = email;
	n->to_name = name;
	n->to_lang = lang;
	n->actor = -1;
	n->draw_offer = -1;
	n->clock[0] = n->clock[1] = -1;
}

/* Compose a notice and queue it in the outbox of `st`'s transaction. */
int
notify_queue(struct service *svc, struct store *st, struct notice *n,
    int64_t now)
{
	struct notice_mail	 mail;
	struct store_outbox	 o;
	char			 why[256];
	enum store_status	 ss;

	n->from = svc->mail_from;
	n->reply_to = svc->mail_reply_to;
	n->domain = svc->mail_domain;
	n->date = now;
	if (notice_compose(n, &mail, why, sizeof why) != 0) {
		log_warnx("notice for game %" PRId64 ": %s", n->game_id, why);
		return -1;
	}
	memset(&o, 0, sizeof o);
	o.game_id = n->game_id;
	snprintf(o.kind, sizeof o.kind, "%s", notice_kind_name(n->kind));
	snprintf(o.recipient, sizeof o.recipient, "%s", mail.to);
	o.message = mail.data;
	o.created = now;
	ss = store_outbox_add(st, &o);
	notice_mail_free(&mail);
	return ss == STORE_OK ? 0 : -1;
}

/* Fill a notice with the game: players, moves, position, clocks, PGN. The
 * caller frees *sanp and *pgnp. */
int
notify_fill(struct service *svc, struct store *st,
    const struct store_game *row,
    const struct game *g, char (*san)[CHESS_SAN_MAX],
    struct store_player pl[2], struct notice *n, const char ***sanp,
    char **pgnp, int64_t now)
{
	const char	**sanv = NULL;
	size_t		  i;
	int		  c;

	*sanp = NULL;
	*pgnp = NULL;
	if (store_player_get(st, row->white, &pl[CHESS_WHITE]) != STORE_OK ||
	    store_player_get(st, row->black, &pl[CHESS_BLACK]) != STORE_OK)
		return -1;
	if ((sanv = calloc(g->chess.nply + 1, sizeof *sanv)) == NULL)
		return -1;
	for (i = 0; i < g->chess.nply; i++)
		sanv[i] = san[i];
	n->game_id = row->id;
	for (c = 0; c < 2; c++) {
		n->players[c].name = pl[c].name;
		n->players[c].email = pl[c].email;
		n->players[c].lang = player_lang(&pl[c]);
		n->clock[c] = game_time_left(g, c, now);
		n->to_control[c] = game_moves_to_control(g, c);
	}
	n->chess960 = strcmp(row->variant, "chess960") == 0;
	n->start_fen = row->start_fen;
	n->san = sanv;
	n->nply = g->chess.nply;
	n->fen = row->fen;
	n->draw_offer = g->draw_offer;
	n->result = game_result_name(g->result);
	n->termination = game_termination_name(g->termination);
	n->time_control = row->time_control;
	n->deadline = game_ongoing(g) ? game_deadline(g) : 0;
	n->pgn = *pgnp = pgn_text(svc, st, row, g, &n->pgn_len);
	*sanp = sanv;
	return n->pgn != NULL ? 0 : -1;
}

/*
 * Queue notice `n` about a game for `recipient`'s player (a colour), in
 * the writer's transaction. The caller sets its kind and what belongs to
 * that kind (a zeroed notice, or notify_start() for one to an address of
 * its own); the game's part is filled here, as notify_fill() fills it. A
 * player without an address gets none. -1 when the outbox cannot be
 * written (the caller's transaction must not commit).
 */
int
notify_game_to(struct service *svc, const struct store_game *row,
    const struct cached *c, struct notice *n, int recipient, int64_t now)
{
	struct store_player	 pl[2];
	const char		**sanv;
	char			*pgn;
	int			 rc = -1;

	if (notify_fill(svc, svc->wstore, row, &c->state, c->san, pl, n, &sanv,
	    &pgn, now) == 0) {
		n->recipient = recipient;
		rc = n->to_email == NULL && pl[recipient].email[0] == '\0' ? 0 :
		    notify_queue(svc, svc->wstore, n, now);
	}
	free(sanv);
	free(pgn);
	return rc;
}

/*
 * Queue notice `kind` about a game for `color`'s player, or both players
 * when `color` is -1; players without an address get none. -1 when the
 * outbox cannot be written (the caller's transaction must not commit).
 */
int
notify_game(struct service *svc, struct store *st, const struct store_game *row,
    const struct game *g, char (*san)[CHESS_SAN_MAX], enum notice_kind kind,
    int color, int actor, int64_t now)
{
	return notify_game_reason(svc, st, row, g, san, kind, color, actor,
	    NULL, NULL, now);
}

/* Queue a notice as notify_game() does, with the admin's reason (or
 * NULL) for a game the admin ended, and the actor's message (or NULL). */
int
notify_game_reason(struct service *svc, struct store *st,
    const struct store_game *row, const struct game *g,
    char (*san)[CHESS_SAN_MAX], enum notice_kind kind, int color, int actor,
    const char *admin_reason, const char *message, int64_t now)
{
	struct store_player	 pl[2];
	struct store_settings	 set;
	struct notice		 n;
	const char		**sanv;
	char			*pgn;
	char			 token[MAIL_TOKEN_SIZE];
	int			 c, k, rc = 0;

	if (!svc->mail)
		return 0;
	memset(&n, 0, sizeof n);
	if (notify_fill(svc, st, row, g, san, pl, &n, &sanv, &pgn, now) != 0) {
		rc = -1;
		goto out;
	}
	n.kind = kind;
	n.actor = actor;
	n.admin_reason = admin_reason;
	n.message = message;
	for (c = 0; c < 2 && rc == 0; c++) {
		if ((color != -1 && c != color) || pl[c].email[0] == '\0')
			continue;
		/* A player may have no mail for each move (set move-mail
		 * off); offers, ends and reminders still go. */
		if (kind == NOTICE_MOVED) {
			if (store_settings_get(st, pl[c].id, &set) !=
			    STORE_OK) {
				rc = -1;
				break;
			}
			if (!set.move_mail)
				continue;
		}
		n.recipient = c;
		/* The player to move may answer by mail without a key. */
		n.reply_token = NULL;
		if ((k = mail_token_issue(svc, st, row, g, c, now, token,
		    sizeof token, &n.reply_token_expires)) < 0) {
			rc = -1;
			break;
		}
		if (k == 1)
			n.reply_token = token;
		rc = notify_queue(svc, st, &n, now);
	}
 out:
	free(sanv);
	free(pgn);
	return rc;
}

/* The message `color` sent with one of the last `records` records, or
 * NULL. */
const char *
notify_message(const struct cached *c, int color, int64_t records)
{
	const struct service_message	*m;
	size_t				 i;

	for (i = c->nmsgs; i > 0; i--) {
		m = &c->msgs[i - 1];
		if (m->seq <= c->nrec - records)
			break;
		if (m->color == color)
			return m->text;
	}
	return NULL;
}

/* Queue the notices an accepted action causes. */
int
notify_action(struct service *svc, const struct store_game *row,
    const struct cached *c, enum game_action_kind kind, bool offer, int color,
    int64_t now)
{
	const struct game	*g = &c->state;
	struct store		*st = svc->wstore;
	const char		*msg = notify_message(c, color, 1);
	enum notice_kind	 nk;
	int			 to = -1;

	if (!game_ongoing(g)) {
		if (g->termination == GAME_TERM_AGREEMENT)
			nk = NOTICE_DRAW_ACCEPTED;
		else if (kind == GAME_ACT_CLAIM_DRAW && g->result ==
		    GAME_RESULT_DRAW)
			nk = NOTICE_CLAIM;
		else
			nk = NOTICE_GAME_OVER;
	} else {
		switch (kind) {
		case GAME_ACT_MOVE:
		case GAME_ACT_CLAIM_DRAW:
			nk = offer ? NOTICE_DRAW_OFFERED : NOTICE_MOVED;
			to = !color;
			break;
		case GAME_ACT_DECLINE_DRAW:
			nk = NOTICE_DRAW_DECLINED;
			to = !color;
			break;
		default:
			return 0;
		}
	}
	return notify_game_reason(svc, st, row, g, c->san, nk, to, color,
	    NULL, msg, now);
}
