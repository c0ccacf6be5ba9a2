/*
 * service/events.c: events: created, their players, started, withdrawals,
 * their end.
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
 * An event's games are ordinary games: they are played, flagged and
 * exported as any other. What the event adds is computed from its list of
 * games each time it is read (event_read.c), except what happens when one
 * of them ends (event_game_over(), in that game's transaction): the event
 * finishes with its last game.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "event/berger.h"
#include "service/service_int.h"

/* The names of the tie-breaks, as stored and shown, by enum value. */
static const char *const tiebreak_names[] = {
	[STANDINGS_TB_DIRECT] = "direct",
	[STANDINGS_TB_WINS] = "wins",
	[STANDINGS_TB_SB] = "sb",
	[STANDINGS_TB_KOYA] = "koya",
};

#define EVENT_TIEBREAKS_DEFAULT	"direct,wins,sb,koya"

/* The largest move number of a draw rule. */
#define EVENT_MOVE_MAX		1000

/* Parse tie-break names into rules. */
int
service_event_tiebreaks(const char *text, struct standings_rules *rules,
    struct service_error *err)
{
	const char	*p = text, *end;
	size_t		 len, i, k;

	memset(rules, 0, sizeof *rules);
	while (*p != '\0') {
		end = p + strcspn(p, ",");
		len = (size_t)(end - p);
		for (i = STANDINGS_TB_DIRECT; i <= STANDINGS_TB_KOYA; i++)
			if (strlen(tiebreak_names[i]) == len &&
			    strncmp(p, tiebreak_names[i], len) == 0)
				break;
		if (len == strlen("sonneborn-berger") &&
		    strncmp(p, "sonneborn-berger", len) == 0)
			i = STANDINGS_TB_SB;
		if (i > STANDINGS_TB_KOYA)
			return service_fail(err, 400, "bad-tiebreaks",
			    "unknown tie-break \"%.*s\": tie-breaks are "
			    "\"direct\", \"wins\", \"sb\" and \"koya\", "
			    "separated by commas", (int)len, p);
		for (k = 0; k < rules->ntiebreaks; k++)
			if (rules->tiebreaks[k] == (enum standings_tiebreak)i)
				return service_fail(err, 400, "bad-tiebreaks",
				    "tie-break \"%s\" is named twice",
				    tiebreak_names[i]);
		rules->tiebreaks[rules->ntiebreaks++] =
		    (enum standings_tiebreak)i;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* Write rules' tie-breaks as their stored text. */
static void
tiebreaks_format(const struct standings_rules *rules, char *buf, size_t size)
{
	size_t	i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < rules->ntiebreaks && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
		    i > 0 ? "," : "", tiebreak_names[rules->tiebreaks[i]]);
}

/* Check the rules the games of an event will share, into its row. */
static int
event_rules(const struct service_event_params *ep, struct store_event *e,
    struct service_error *err)
{
	struct chess_position	 pos;
	struct standings_rules	 rules;
	struct game_tc		 tc;
	enum game_policy	 policy = GAME_POLICY_AUTO;
	const char		*variant = ep->variant ? ep->variant :
				    "standard";
	char			 why[256];

	snprintf(e->format, sizeof e->format, "%s",
	    ep->format ? ep->format : "round-robin");
	if (strcmp(e->format, "round-robin") != 0 &&
	    strcmp(e->format, "double-round-robin") != 0 &&
	    strcmp(e->format, "match") != 0)
		return service_fail(err, 400, "bad-format", "format must be "
		    "\"round-robin\", \"double-round-robin\" or \"match\"");
	if (strcmp(e->format, "match") == 0) {
		e->games = ep->games > 0 ? ep->games : 2;
		if (e->games > BERGER_MAX_GAMES)
			return service_fail(err, 400, "bad-format",
			    "a match has 1 to %d games", BERGER_MAX_GAMES);
	} else if (ep->games > 0)
		return service_fail(err, 400, "bad-format",
		    "\"games\" is for matches; a round robin's games follow "
		    "from its players");
	if (strcmp(variant, "standard") != 0 &&
	    strcmp(variant, "chess960") != 0)
		return service_fail(err, 400, "bad-variant",
		    "variant must be \"standard\" or \"chess960\"");
	snprintf(e->variant, sizeof e->variant, "%s", variant);
	e->chess960 = -1;
	if (strcmp(variant, "standard") == 0 &&
	    (ep->chess960 >= 0 || ep->chess960_pairing))
		return service_fail(err, 400, "bad-event",
		    "a Chess960 start number needs variant \"chess960\"");
	if (ep->chess960 >= 0 && ep->chess960_pairing)
		return service_fail(err, 400, "bad-event",
		    "chess960 is a number for the whole event or "
		    "\"per-pairing\", not both");
	if (ep->chess960 > 959)
		return service_fail(err, 400, "bad-chess960", "%s",
		    chess_strerror(CHESS_E960_NUMBER));
	e->chess960 = ep->chess960;
	e->chess960_pairing = ep->chess960_pairing;
	e->fen[0] = '\0';
	if (ep->fen != NULL) {
		if (strcmp(variant, "chess960") == 0 &&
		    (ep->chess960 >= 0 || ep->chess960_pairing))
			return service_fail(err, 400, "bad-event",
			    "a thematic FEN and a Chess960 number exclude "
			    "each other");
		if (chess_fen_parse(&pos, ep->fen, strcmp(variant,
		    "chess960") == 0 ? CHESS_FEN_960 : 0) != CHESS_OK)
			return service_fail(err, 400, "bad-fen",
			    "bad start position: %s", chess_strerror(
			    chess_fen_parse(&pos, ep->fen, 0)));
		if (field_copy(e->fen, sizeof e->fen, ep->fen, "fen",
		    "bad-event", err) != 0)
			return -1;
	}
	if (game_tc_parse(&tc, ep->time_control ? ep->time_control : "none",
	    why, sizeof why) != 0)
		return service_fail(err, 400, "bad-time-control",
		    "bad time control: %s (examples: \"3d/move\", \"10/50d\", "
		    "\"30d+1d\", \"none\")", why);
	game_tc_format(&tc, e->time_control, sizeof e->time_control);
	if (ep->policy != NULL && game_policy_parse(ep->policy, &policy) != 0)
		return service_fail(err, 400, "bad-policy",
		    "policy must be \"auto\" or \"claim\"");
	snprintf(e->policy, sizeof e->policy, "%s", game_policy_name(policy));
	e->rated = ep->rated != 0;
	if (service_event_tiebreaks(ep->tiebreaks ? ep->tiebreaks :
	    EVENT_TIEBREAKS_DEFAULT, &rules, err) != 0)
		return -1;
	tiebreaks_format(&rules, e->tiebreaks, sizeof e->tiebreaks);
	snprintf(e->withdrawal, sizeof e->withdrawal, "%s",
	    ep->withdrawal ? ep->withdrawal : "lose");
	if (strcmp(e->withdrawal, "lose") != 0 &&
	    strcmp(e->withdrawal, "annul") != 0)
		return service_fail(err, 400, "bad-withdrawal",
		    "withdrawal must be \"lose\" (the remaining games are "
		    "lost) or \"annul\" (ICCF: every game annulled when "
		    "fewer than half were played)");
	if (ep->auth != NULL && service_auth_valid(ep->auth) != 0)
		return service_fail(err, 400, "bad-auth",
		    "auth must be \"signed\" or \"signed-or-attested\"");
	e->draw_min_move = ep->draw_min_move > 0 ? ep->draw_min_move : 0;
	e->draw_offer_every = ep->draw_offer_every > 0 ?
	    ep->draw_offer_every : 0;
	e->leave_days = ep->leave_days >= 0 ? ep->leave_days :
	    SERVICE_LEAVE_SERVER;
	if (e->draw_min_move > EVENT_MOVE_MAX ||
	    e->draw_offer_every > EVENT_MOVE_MAX || e->leave_days > 366)
		return service_fail(err, 400, "bad-event", "draw_min_move and "
		    "draw_offer_every are move numbers up to %d (0: no such "
		    "rule); leave_days is 0 to 366 days a calendar year",
		    EVENT_MOVE_MAX);
	return 0;
}

/* Create an event (admin). */
int
service_event_create(struct service *svc,
    const struct service_event_params *ep, struct service_error *err)
{
	struct store_event	 e;
	struct job		 j = { .kind = JOB_EVENT_CREATE, .err = err,
				       .u.event_create = { .e = &e,
				       .auth = ep->auth,
				       .players = ep->players,
				       .nplayers = ep->nplayers } };

	memset(&e, 0, sizeof e);
	if (ep->name == NULL || !store_name_valid(ep->name))
		return service_fail(err, 400, "bad-event",
		    "an event needs a \"name\" of 1 to 32 characters among "
		    "a-z, 0-9, '_', '.' and '-'");
	snprintf(e.name, sizeof e.name, "%s", ep->name);
	if (field_copy(e.title, sizeof e.title, ep->title ? ep->title :
	    ep->name, "title", "bad-event", err) != 0 ||
	    field_copy(e.site, sizeof e.site, ep->site, "site", "bad-event",
	    err) != 0 ||
	    event_rules(ep, &e, err) != 0)
		return -1;
	if (ep->nplayers > BERGER_MAX_PLAYERS)
		return service_fail(err, 400, "bad-event",
		    "an event has at most %d players", BERGER_MAX_PLAYERS);
	snprintf(e.status, sizeof e.status, "created");
	e.created = service_now(svc);
	return writer_submit(svc, &j);
}

/* Change the rules of an event that has not started. */
int
service_event_edit(struct service *svc, const char *name,
    const struct service_event_params *ep, struct service_error *err)
{
	struct job	j = { .kind = JOB_EVENT_EDIT, .err = err,
			      .u.event_edit = { .event = name, .ep = ep } };

	if (name == NULL)
		return service_fail(err, 400, "bad-request", "name the event");
	return writer_submit(svc, &j);
}

/* Pick the new text of a rule when it is given, else the old one; ""
 * reads as none. */
static const char *
event_keep(const char *given, const char *old)
{
	const char	*v = given != NULL ? given : old;

	return v[0] != '\0' ? v : NULL;
}

/* In the writer: look an event up by name (404 when there is none). */
static int
event_load(struct service *svc, const char *name, struct store_event *e,
    struct service_error *err)
{
	switch (store_event_get_by_name(svc->wstore, name, e)) {
	case STORE_OK:
		return 0;
	case STORE_NOTFOUND:
		return service_fail(err, 404, "no-such-event",
		    "there is no event \"%s\"", name);
	default:
		return service_store_fail(err, svc->wstore, "read the event");
	}
}

/* In the writer: add a player by name to an event. */
static int
event_add(struct service *svc, const struct store_event *e,
    const char *name, int64_t now, struct service_error *err)
{
	struct store_player	p;

	if (store_player_get_by_name(svc->wstore, name, &p) != STORE_OK)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	switch (store_event_player_add(svc->wstore, e->id, p.id, now)) {
	case STORE_OK:
		return 0;
	case STORE_EXISTS:
		return service_fail(err, 409, "already-in-event",
		    "%s plays in %s already", name, e->name);
	default:
		return service_store_fail(err, svc->wstore,
		    "add the player to the event");
	}
}

/* In the writer: store a new event and its players. */
int
job_event_create(struct service *svc, struct job *j, int64_t now)
{
	struct job_event_create	*ec = &j->u.event_create;
	size_t			 i;

	switch (store_event_create(svc->wstore, ec->e)) {
	case STORE_OK:
		break;
	case STORE_EXISTS:
		return service_fail(j->err, 409, "event-exists",
		    "there is an event \"%s\" already", ec->e->name);
	default:
		return service_store_fail(j->err, svc->wstore,
		    "create the event");
	}
	if (store_event_auth_set(svc->wstore, ec->e->id, ec->auth != NULL ?
	    ec->auth : svc->auth_default) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "store the event's auth");
	for (i = 0; i < ec->nplayers; i++)
		if (event_add(svc, ec->e, ec->players[i], now, j->err) != 0)
			return -1;
	return 0;
}

/*
 * In the writer: change an event's rules. The rules given replace the
 * stored ones, the others stay, and the whole is checked again as at
 * creation; a standard variant drops a Chess960 position, a format other
 * than a match its number of games.
 */
int
job_event_edit(struct service *svc, struct job *j, int64_t now)
{
	const struct service_event_params	*ep = j->u.event_edit.ep;
	struct service_event_params		 m;
	struct store_event			 old, e;
	bool					 standard;

	(void)now;
	if (event_load(svc, j->u.event_edit.event, &old, j->err) != 0)
		return -1;
	if (strcmp(old.status, "created") != 0)
		return service_fail(j->err, 409, "event-started",
		    "%s has started: its rules are fixed (they are the rules "
		    "its games were created with)", old.name);
	memset(&m, 0, sizeof m);
	m.name = old.name;
	m.format = ep->format != NULL ? ep->format : old.format;
	m.games = ep->games > 0 ? ep->games : strcmp(m.format, "match") == 0 &&
	    strcmp(old.format, "match") == 0 ? old.games : 0;
	m.variant = ep->variant != NULL ? ep->variant : old.variant;
	standard = strcmp(m.variant, "standard") == 0;
	m.chess960 = ep->chess960_set ? ep->chess960 : standard ? -1 :
	    old.chess960;
	m.chess960_pairing = ep->chess960_set ? ep->chess960_pairing :
	    !standard && old.chess960_pairing;
	m.fen = event_keep(ep->fen, old.fen);
	m.time_control = event_keep(ep->time_control, old.time_control);
	m.policy = event_keep(ep->policy, old.policy);
	m.rated = ep->rated >= 0 ? ep->rated : old.rated;
	m.tiebreaks = ep->tiebreaks != NULL ? ep->tiebreaks : old.tiebreaks;
	m.withdrawal = event_keep(ep->withdrawal, old.withdrawal);
	m.draw_min_move = ep->draw_min_move >= 0 ? ep->draw_min_move :
	    old.draw_min_move;
	m.draw_offer_every = ep->draw_offer_every >= 0 ?
	    ep->draw_offer_every : old.draw_offer_every;
	m.leave_days = ep->leave_days != SERVICE_LEAVE_UNSET ?
	    ep->leave_days : old.leave_days;
	m.auth = ep->auth;
	e = old;
	if (field_copy(e.title, sizeof e.title, event_keep(ep->title,
	    old.title), "title", "bad-event", j->err) != 0 ||
	    field_copy(e.site, sizeof e.site, ep->site != NULL ? ep->site :
	    old.site, "site", "bad-event", j->err) != 0 ||
	    event_rules(&m, &e, j->err) != 0)
		return -1;
	if (e.title[0] == '\0')
		snprintf(e.title, sizeof e.title, "%s", e.name);
	if (store_event_update(svc->wstore, &e) != STORE_OK ||
	    (ep->auth != NULL && store_event_auth_set(svc->wstore, e.id,
	    ep->auth) != STORE_OK))
		return service_store_fail(j->err, svc->wstore,
		    "change the event's rules");
	return 0;
}

/* In the writer: add a player to an event or remove one. */
int
job_event_player(struct service *svc, struct job *j, int64_t now)
{
	struct job_event_player	*ev = &j->u.event_player;
	struct store_event	 e;
	struct store_player	 p;

	if (event_load(svc, ev->event, &e, j->err) != 0)
		return -1;
	if (strcmp(e.status, "created") != 0)
		return service_fail(j->err, 409, "event-started",
		    "%s has started: its players are fixed (a player may "
		    "withdraw)", e.name);
	if (!ev->remove)
		return event_add(svc, &e, ev->player, now, j->err);
	if (store_player_get_by_name(svc->wstore, ev->player, &p) !=
	    STORE_OK)
		return service_fail(j->err, 404, "no-such-player",
		    "there is no player \"%s\"", ev->player);
	switch (store_event_player_remove(svc->wstore, e.id, p.id)) {
	case STORE_OK:
		return 0;
	case STORE_NOTFOUND:
		return service_fail(j->err, 404, "not-in-event",
		    "%s does not play in %s", ev->player, e.name);
	default:
		return service_store_fail(j->err, svc->wstore,
		    "remove the player from the event");
	}
}

/* Run an event-player job through the writer. */
static int
event_player_job(struct service *svc, enum job_kind kind, const char *event,
    const char *player, bool remove, struct service_error *err)
{
	struct job	j = { .kind = kind, .err = err,
			      .u.event_player = { .event = event,
			      .player = player, .remove = remove } };

	if (event == NULL || player == NULL)
		return service_fail(err, 400, "bad-request",
		    "name the event and the player");
	return writer_submit(svc, &j);
}

/* Add a player to an event that has not started. */
int
service_event_player_add(struct service *svc, const char *event,
    const char *player, struct service_error *err)
{
	return event_player_job(svc, JOB_EVENT_PLAYER, event, player, false,
	    err);
}

/* Remove a player from an event that has not started. */
int
service_event_player_remove(struct service *svc, const char *event,
    const char *player, struct service_error *err)
{
	return event_player_job(svc, JOB_EVENT_PLAYER, event, player, true,
	    err);
}

/* Withdraw a player from a started event. */
int
service_event_withdraw(struct service *svc, const char *event,
    const char *player, struct service_error *err)
{
	return event_player_job(svc, JOB_EVENT_WITHDRAW, event, player, false,
	    err);
}

/* Start an event. */
int
service_event_start(struct service *svc, const char *event,
    struct service_error *err)
{
	struct job	j = { .kind = JOB_EVENT_START, .err = err,
			      .u.event_player = { .event = event } };

	if (event == NULL)
		return service_fail(err, 400, "bad-request", "name the event");
	return writer_submit(svc, &j);
}

/* Give the format's schedule shape. */
static enum berger_format
event_format(const struct store_event *e)
{
	if (strcmp(e->format, "match") == 0)
		return BERGER_MATCH;
	if (strcmp(e->format, "double-round-robin") == 0)
		return BERGER_DOUBLE_ROUND_ROBIN;
	return BERGER_ROUND_ROBIN;
}

/* In the writer: create one game of an event at its round and board. */
static int
event_game_create(struct service *svc, const struct store_event *e,
    const struct store_event_player *w, const struct store_event_player *b,
    int chess960, const struct berger_pairing *bp, int64_t now,
    struct service_error *err)
{
	struct service_game_params	 gp;
	struct store_event_game		 eg;
	struct store_game		 row;
	struct game			 g;
	char				 round[16], auth[STORE_AUTH_SIZE];
	int				 rc = -1;

	if (store_event_auth_get(svc->wstore, e->id, auth) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "read the event's auth");
	snprintf(round, sizeof round, "%u", bp->round);
	memset(&gp, 0, sizeof gp);
	gp.white = w->name;
	gp.black = b->name;
	gp.variant = e->variant;
	gp.chess960 = chess960;
	gp.fen = e->fen[0] != '\0' ? e->fen : NULL;
	gp.time_control = e->time_control;
	gp.policy = e->policy;
	gp.event = e->title[0] != '\0' ? e->title : e->name;
	gp.site = e->site;
	gp.round = round;
	gp.draw_min_move = e->draw_min_move;
	gp.draw_offer_every = e->draw_offer_every;
	if (game_prepare(svc->wstore, &gp, now, &row, &g, err) != 0 ||
	    game_insert(svc, &row, &g, auth[0] != '\0' ? auth : NULL,
	    e->rated, now, err) != 0)
		goto out;
	memset(&eg, 0, sizeof eg);
	eg.event_id = e->id;
	eg.game_id = row.id;
	eg.round = (int)bp->round;
	eg.board = (int)bp->board;
	if (store_event_game_add(svc->wstore, &eg) != STORE_OK) {
		service_store_fail(err, svc->wstore,
		    "add the game to the event");
		goto out;
	}
	rc = 0;
 out:
	game_free(&g);
	return rc;
}

/* In the writer: start an event: start numbers, every game. */
int
job_event_start(struct service *svc, struct job *j, int64_t now)
{
	struct store_event	 e;
	struct player_list	 pl = { 0 };
	struct berger_event	 be;
	struct berger_pairing	*sched = NULL;
	enum berger_error	 berr;
	int			*pos = NULL;
	size_t			 i, n = 0, cap;
	unsigned		 a, b;
	int			 rc = -1, number;

	if (event_load(svc, j->u.event_player.event, &e, j->err) != 0)
		return -1;
	if (strcmp(e.status, "created") != 0) {
		service_fail(j->err, 409, "event-started",
		    "%s has started already", e.name);
		goto out;
	}
	if (event_lists(svc->wstore, e.id, &pl, NULL, j->err) != 0)
		goto out;
	memset(&be, 0, sizeof be);
	be.format = event_format(&e);
	be.players = (unsigned)pl.n;
	be.games = (unsigned)e.games;
	if (be.format == BERGER_MATCH && pl.n != 2) {
		service_fail(j->err, 409, "bad-players",
		    "a match is between two players; %s has %zu", e.name,
		    pl.n);
		goto out;
	}
	if (be.format != BERGER_MATCH && pl.n < BERGER_MIN_PLAYERS) {
		service_fail(j->err, 409, "bad-players",
		    "a round robin needs at least %d players; %s has %zu "
		    "(two players play a match)", BERGER_MIN_PLAYERS, e.name,
		    pl.n);
		goto out;
	}
	cap = berger_count(&be);
	if (cap == 0 || (sched = calloc(cap, sizeof *sched)) == NULL ||
	    (pos = calloc((pl.n + 1) * (pl.n + 1), sizeof *pos)) == NULL) {
		service_fail(j->err, 500, "internal", "out of memory");
		goto out;
	}
	if ((berr = berger_schedule(&be, sched, cap, &n)) != BERGER_OK) {
		service_fail(j->err, 409, "bad-players", "%s",
		    berger_strerror(berr));
		goto out;
	}
	/* Start numbers follow the order the players were added. */
	for (i = 0; i < pl.n; i++) {
		pl.v[i].seed = (int)i + 1;
		if (store_event_player_set(svc->wstore, &pl.v[i]) != STORE_OK) {
			service_store_fail(j->err, svc->wstore,
			    "number the players");
			goto out;
		}
	}
	/* Chess960: one position for the event, or one per pair of
	 * players (both colours of a double round robin, a whole match). */
	if (strcmp(e.variant, "chess960") == 0 && e.fen[0] == '\0' &&
	    !e.chess960_pairing && e.chess960 < 0)
		e.chess960 = (int)randombytes_uniform(960);
	for (i = 0; i < (pl.n + 1) * (pl.n + 1); i++)
		pos[i] = (int)randombytes_uniform(960);
	for (i = 0; i < n; i++) {
		if (sched[i].black == BERGER_BYE)
			continue;
		a = sched[i].white < sched[i].black ? sched[i].white :
		    sched[i].black;
		b = sched[i].white ^ sched[i].black ^ a;
		number = -1;
		if (strcmp(e.variant, "chess960") == 0 && e.fen[0] == '\0')
			number = e.chess960_pairing ?
			    pos[a * (pl.n + 1) + b] : e.chess960;
		if (event_game_create(svc, &e, &pl.v[sched[i].white - 1],
		    &pl.v[sched[i].black - 1], number, &sched[i], now,
		    j->err) != 0)
			goto out;
	}
	snprintf(e.status, sizeof e.status, "started");
	e.started = now;
	if (store_event_update(svc->wstore, &e) != STORE_OK) {
		service_store_fail(j->err, svc->wstore, "start the event");
		goto out;
	}
	if (event_notify_start(svc, e.name, now) != 0) {
		service_store_fail(j->err, svc->wstore,
		    "queue the event's mails");
		goto out;
	}
	rc = 0;
 out:
	free(pl.v);
	free(sched);
	free(pos);
	return rc;
}

/* In the writer: end an event's game by the withdrawal of `player_id`
 * (a resignation recorded by the admin), unless it has ended already. */
static int
event_game_forfeit(struct service *svc, int64_t game_id, int64_t player_id,
    int64_t now, struct service_error *err)
{
	struct store_game	 row;
	struct store_action	 a;
	struct game_action	 ga;
	struct cached		*c;
	char			 why[256];

	if (row_get(svc->wstore, game_id, &row, err) != 0 ||
	    (c = cache_get(svc, &row, err)) == NULL)
		return -1;
	if (!game_ongoing(&c->state))
		return 0;
	if (game_check_time(&c->state, now))
		return record_flag(svc, &row, c, now) == 0 ? 0 :
		    service_store_fail(err, svc->wstore,
		    "record the end of the game on time");
	memset(&ga, 0, sizeof ga);
	ga.kind = GAME_ACT_RESIGN;
	ga.color = row_color(&row, player_id);
	ga.at = now;
	if (apply_recording_san(&c->state, &ga, &c->san, &c->sancap, why,
	    sizeof why) != GAME_OK)
		return service_fail(err, 500, "internal",
		    "game %" PRId64 " cannot be ended: %s", game_id, why);
	memset(&a, 0, sizeof a);
	a.ply = (int)game_ply(&c->state);
	a.player_id = player_id;
	snprintf(a.kind, sizeof a.kind, "resign");
	snprintf(a.source, sizeof a.source, "admin");
	if (record_append(svc, &row, c, &a, NULL, 0, now) != 0 ||
	    notify_game(svc, svc->wstore, &row, &c->state, c->san,
	    NOTICE_GAME_OVER, -1, -1, now) != 0)
		return service_store_fail(err, svc->wstore,
		    "end the withdrawn player's game");
	return 0;
}

/* In the writer: note an event that ended in the job being run, for
 * event_notify_ended(). */
static int
event_ended(struct service *svc, const char *name)
{
	char	(*v)[STORE_NAME_SIZE];

	if ((v = service_grow(svc->ended, &svc->ended_cap, svc->nended,
	    sizeof *v, 4)) == NULL)
		return -1;
	svc->ended = v;
	snprintf(svc->ended[svc->nended++], sizeof *v, "%s", name);
	return 0;
}

/* In the writer, when a job is done: queue the final standings of the
 * events that ended in it, after the notices of their last games. */
int
event_notify_ended(struct service *svc, int64_t now)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; i < svc->nended && rc == 0; i++)
		rc = event_notify_end(svc, svc->ended[i], now);
	svc->nended = 0;
	return rc;
}

/* In the writer: finish an event whose games have all ended. */
static int
event_finish_check(struct service *svc, struct store_event *e, int64_t now,
    struct service_error *err)
{
	struct game_list	gl = { 0 };
	size_t			i;
	int			rc = -1;

	if (strcmp(e->status, "started") != 0)
		return 0;
	if (event_lists(svc->wstore, e->id, NULL, &gl, err) != 0)
		goto out;
	for (i = 0; i < gl.n; i++)
		if (strcmp(gl.v[i].status, "ongoing") == 0)
			break;
	rc = 0;
	if (i < gl.n)
		goto out;
	snprintf(e->status, sizeof e->status, "finished");
	e->finished = now;
	if (store_event_update(svc->wstore, e) != STORE_OK)
		rc = service_store_fail(err, svc->wstore, "finish the event");
	else if (event_ended(svc, e->name) != 0)
		rc = service_fail(err, 500, "internal", "out of memory");
 out:
	free(gl.v);
	return rc;
}

/* In the writer: withdraw a player from a started event. */
int
job_event_withdraw(struct service *svc, struct job *j, int64_t now)
{
	struct job_event_player	*ev = &j->u.event_player;
	struct store_event	 e;
	struct player_list	 pl = { 0 };
	struct game_list	 gl = { 0 };
	struct store_event_player *me = NULL;
	struct store_event_game	*g;
	const char		*adj;
	size_t			 i, total = 0, done = 0;
	bool			 annul, white;
	int			 rc = -1;

	if (event_load(svc, ev->event, &e, j->err) != 0)
		return -1;
	if (strcmp(e.status, "created") == 0) {
		service_fail(j->err, 409, "event-not-started",
		    "%s has not started: remove the player instead", e.name);
		goto out;
	}
	if (event_lists(svc->wstore, e.id, &pl, &gl, j->err) != 0)
		goto out;
	for (i = 0; i < pl.n; i++)
		if (strcmp(pl.v[i].name, ev->player) == 0)
			me = &pl.v[i];
	if (me == NULL) {
		service_fail(j->err, 404, "not-in-event",
		    "%s does not play in %s", ev->player, e.name);
		goto out;
	}
	if (me->withdrawn != 0) {
		service_fail(j->err, 409, "withdrawn",
		    "%s has withdrawn from %s already", ev->player, e.name);
		goto out;
	}
	for (i = 0; i < gl.n; i++) {
		g = &gl.v[i];
		if ((g->white != me->player_id && g->black != me->player_id) ||
		    strcmp(g->adjusted, "annulled") == 0)
			continue;
		total++;
		if (strcmp(g->status, "finished") == 0 &&
		    g->adjusted[0] == '\0')
			done++;
	}
	/* ICCF: fewer than half the games played, all are annulled. */
	annul = strcmp(e.withdrawal, "annul") == 0 && done * 2 < total;
	for (i = 0; i < gl.n; i++) {
		g = &gl.v[i];
		white = g->white == me->player_id;
		if ((!white && g->black != me->player_id) ||
		    g->adjusted[0] != '\0')
			continue;
		if (!annul && strcmp(g->status, "ongoing") != 0)
			continue;
		adj = annul ? "annulled" : white ? "white-withdrew" :
		    "black-withdrew";
		if (store_event_game_adjust(svc->wstore, g->game_id, adj) !=
		    STORE_OK) {
			service_store_fail(j->err, svc->wstore,
			    "adjust the withdrawn player's games");
			goto out;
		}
	}
	me->withdrawn = now;
	if (store_event_player_set(svc->wstore, me) != STORE_OK) {
		service_store_fail(j->err, svc->wstore, "withdraw the player");
		goto out;
	}
	/* The others hear what became of their games with the player
	 * before the games' own ends (and the event's, if it ends). */
	if (event_notify_withdrawal(svc, e.name, me->player_id, now) != 0) {
		service_store_fail(j->err, svc->wstore,
		    "queue the withdrawal's mails");
		goto out;
	}
	/* Those still being played end (gl holds them as they were). */
	for (i = 0; i < gl.n; i++) {
		g = &gl.v[i];
		if ((g->white == me->player_id || g->black ==
		    me->player_id) && g->adjusted[0] == '\0' &&
		    strcmp(g->status, "ongoing") == 0 &&
		    event_game_forfeit(svc, g->game_id, me->player_id, now,
		    j->err) != 0)
			goto out;
	}
	/* The games' ends may have finished the event; read it again. */
	if (event_load(svc, ev->event, &e, j->err) != 0 ||
	    event_finish_check(svc, &e, now, j->err) != 0)
		goto out;
	rc = 0;
 out:
	free(pl.v);
	free(gl.v);
	return rc;
}

/*
 * In the writer, in the transaction where game `row` ended: the game is
 * rated when it was created rated (an event's game as its event, another
 * as its creation or the server's [game] rated said), and its event (if
 * any) finishes with its last game.
 */
int
event_game_over(struct service *svc, const struct store_game *row,
    int64_t now)
{
	struct store_event	e;
	struct store_event_game	eg;
	struct store_game_rules	gr;
	bool			in_event;

	/* Another server may end a game of the same players or event at
	 * once: the ratings and the event's end are read after its commit. */
	if (store_lock_results(svc->wstore) != STORE_OK ||
	    store_game_rules_get(svc->wstore, row->id, &gr) != STORE_OK)
		return -1;
	switch (store_event_get_by_game(svc->wstore, row->id, &e, &eg)) {
	case STORE_OK:
		in_event = true;
		break;
	case STORE_NOTFOUND:
		in_event = false;
		break;
	default:
		return -1;
	}
	/* A game ended by a withdrawal is not rated. */
	if (gr.rated && (!in_event || eg.adjusted[0] == '\0') &&
	    rating_game(svc, row, now) != 0)
		return -1;
	return in_event ? event_finish_check(svc, &e, now, NULL) : 0;
}
