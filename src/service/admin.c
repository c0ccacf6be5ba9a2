/*
 * service/admin.c: the admin's actions on a game: abort and adjudicate.
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
 * The club's admin may end a game: abort it (no result; only while few
 * moves are played) or adjudicate it (a result and a reason). The writer
 * writes the action's statement at the game's ply in its transaction
 * ("player: admin", "action: abort REASON" or "action: adjudicate RESULT
 * REASON"), signs it with the server's key and records it in the game's
 * chain like any other record (source "admin"; a verifier knows it by its
 * statement's player "admin" and checks it against the server's key);
 * both players are told by mail, with the reason.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_int.h"

/* Refuse an abort of an event's game: its standings need a result. */
static int
event_refusal(struct service *svc, const struct store_game *row,
    struct service_error *err)
{
	struct store_event	e;
	struct store_event_game	eg;

	switch (store_event_get_by_game(svc->wstore, row->id, &e, &eg)) {
	case STORE_NOTFOUND:
		return 0;
	case STORE_OK:
		return service_fail(err, 409, "event-game",
		    "game %" PRId64 " belongs to the event %s, whose standings "
		    "need a result: adjudicate it, or withdraw the player",
		    row->id, e.name);
	default:
		return service_store_fail(err, svc->wstore,
		    "read the game's event");
	}
}

/* Write and sign the admin's statement at the game's current ply. */
static int
admin_statement(struct service *svc, const struct store_game *row,
    const struct cached *c, const struct job_admin *ad,
    struct sig_statement *st, struct sig_signature *sg,
    struct service_error *err)
{
	enum sig_error	se;

	memset(st, 0, sizeof *st);
	memset(sg, 0, sizeof *sg);
	st->game = (uint64_t)row->id;
	st->ply = (uint32_t)game_ply(&c->state);
	snprintf(st->player, sizeof st->player, "%s", SIG_ADMIN);
	st->action.kind = ad->abort ? SIG_ACT_ABORT : SIG_ACT_ADJUDICATE;
	snprintf(st->action.result, sizeof st->action.result, "%s",
	    ad->abort ? "" : game_result_name(ad->result));
	if (strlen(ad->reason) > SIG_REASON_MAX)
		return service_fail(err, 400, "bad-reason", "%s",
		    sig_strerror(SIG_ETOOLONG));
	snprintf(st->action.reason, sizeof st->action.reason, "%s",
	    ad->reason);
	if (sig_statement_build(st, &se) != 0)
		return service_fail(err, 400, "bad-reason", "%s",
		    sig_strerror(se));
	sg->form = SIG_FORM_RAW;
	if (sig_sign(st->canon, st->canon_len, svc->server_sk, sg->raw) != 0 ||
	    sig_rawsig_format(sg->raw, sg->text, sizeof sg->text) != 0)
		return service_fail(err, 500, "internal",
		    "cannot sign the admin's statement");
	sg->text_len = strlen(sg->text);
	return 0;
}

/* In the writer: abort or adjudicate a game. */
int
job_admin(struct service *svc, struct job *j, int64_t now)
{
	const struct job_admin	*ad = &j->u.admin;
	struct store_game	 row;
	struct store_action	 a;
	struct game_action	 ga;
	struct sig_statement	 st;
	struct sig_signature	 sg;
	struct cached		*c;
	const uint8_t		*sigbytes;
	char			 canon[SIG_STATEMENT_MAX + 1], why[256];
	size_t			 siglen, ply;

	if (row_get(svc->wstore, j->game_id, &row, j->err) != 0 ||
	    (c = cache_get(svc, &row, j->err)) == NULL)
		return -1;
	if (game_ongoing(&c->state) && game_check_time(&c->state, now) &&
	    record_flag(svc, &row, c, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "record the end of the game on time");
	if (!game_ongoing(&c->state))
		return service_fail(j->err, 409, "game-over",
		    "game %" PRId64 " is over already (%s, %s): there is "
		    "nothing to %s", row.id, game_result_name(c->state.result),
		    game_termination_name(c->state.termination),
		    ad->abort ? "abort" : "adjudicate");
	ply = game_ply(&c->state);
	if (ad->abort && (svc->abort_moves < 0 ||
	    ply >= 2 * (size_t)svc->abort_moves))
		return service_fail(j->err, 409, "too-many-moves",
		    "game %" PRId64 " has %zu half-moves played; a game may be "
		    "aborted only before %d moves ([game] abort_moves): "
		    "adjudicate it instead", row.id, ply,
		    svc->abort_moves < 0 ? 0 : svc->abort_moves);
	if (ad->abort && event_refusal(svc, &row, j->err) != 0)
		return -1;
	if (admin_statement(svc, &row, c, ad, &st, &sg, j->err) != 0)
		return -1;
	memset(&ga, 0, sizeof ga);
	ga.kind = ad->abort ? GAME_ACT_ABORT : GAME_ACT_ADJUDICATE;
	ga.color = -1;
	ga.result = ad->result;
	ga.lang = CHESS_LANG_EN;
	ga.at = now;
	if (apply_recording_san(&c->state, &ga, &c->san, &c->sancap, why,
	    sizeof why) != GAME_OK)
		return service_fail(j->err, 400, "bad-result", "%s", why);
	memcpy(canon, st.canon, st.canon_len);
	canon[st.canon_len] = '\0';
	memset(&a, 0, sizeof a);
	a.ply = (int)ply;
	snprintf(a.kind, sizeof a.kind, "%s", ad->abort ? "abort" :
	    "adjudicate");
	snprintf(a.move, sizeof a.move, "%s", st.action.result);
	a.statement = canon;
	a.signature = sg.text;
	snprintf(a.source, sizeof a.source, "admin");
	sigbytes = sig_signature_bytes(&sg, &siglen);
	if (record_append(svc, &row, c, &a, sigbytes, siglen, now) != 0 ||
	    cond_game_over(svc, &row, now) != 0 ||
	    notify_game_reason(svc, svc->wstore, &row, &c->state, c->san,
	    NOTICE_GAME_OVER, -1, -1, ad->reason, NULL, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "record the admin's action");
	return 0;
}

/* Queue an admin action on a game and read the game after it. */
static int
admin_submit(struct service *svc, int64_t game_id, bool aborting,
    enum game_result result, const char *reason, struct service_game *out,
    struct service_error *err)
{
	struct service_error	local;
	struct job		j;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if (!svc->has_server_key)
		return service_fail(err, 500, "internal",
		    "the server has no key to sign the admin's action with");
	if (reason == NULL || *reason == '\0')
		return service_fail(err, 400, "bad-reason",
		    "give a reason: the players read it, and it stays in the "
		    "game's record");
	memset(&j, 0, sizeof j);
	j.kind = JOB_ADMIN;
	j.game_id = game_id;
	j.err = err;
	j.u.admin.abort = aborting;
	j.u.admin.result = result;
	j.u.admin.reason = reason;
	if (writer_submit(svc, &j) != 0)
		return -1;
	return out != NULL ? service_game_get(svc, game_id, out, err) : 0;
}

/* Abort a game: ended without a result. */
int
service_admin_abort(struct service *svc, int64_t game_id, const char *reason,
    struct service_game *out, struct service_error *err)
{
	return admin_submit(svc, game_id, true, GAME_RESULT_NONE, reason, out,
	    err);
}

/* Adjudicate a game: the admin gives its result. */
int
service_admin_adjudicate(struct service *svc, int64_t game_id,
    const char *result, const char *reason, struct service_game *out,
    struct service_error *err)
{
	enum game_result	r = game_result_parse(result);
	struct service_error	local;

	if (err == NULL)
		err = &local;
	if (r == GAME_RESULT_NONE)
		return service_fail(err, 400, "bad-result",
		    "the result \"%s\" is not one of 1-0, 0-1, 1/2-1/2",
		    result != NULL ? result : "");
	return admin_submit(svc, game_id, false, r, reason, out, err);
}
