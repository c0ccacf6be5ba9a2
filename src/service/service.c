/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "util/buf.h"
#include "chess/pgn.h"
#include "util/log.h"
#include "util/metrics.h"
#include "letters/notice.h"
#include "service/service.h"

/*
 * Signed actions are committed by one writer thread. Callers queue a job
 * and sleep until the writer has committed the transaction that holds it;
 * the writer takes every job waiting (up to batch_max) into one
 * transaction, each job inside a savepoint, so one fsync covers many
 * actions. The writer keeps the rebuilt state of recently played games,
 * each checked against the stored record head before use (another process
 * sharing the database may have moved the game on).
 */

#define SERVICE_POOL_MAX	64
#define SERVICE_VIEW_SLOTS	1024
#define SERVICE_CACHE_SLOTS	1024

enum job_kind {
	JOB_ACTION,		/* a verified signed statement */
	JOB_FLAG,		/* end a game whose flag fell */
	JOB_MAIL,		/* a mail: its action (if any), its record,
				   the answer it gets */
	JOB_REMIND,		/* remind the side to move of its deadline */
};

struct job {
	struct job			*next;
	enum job_kind			 kind;
	int64_t				 game_id;
	/* JOB_ACTION */
	const struct sig_statement	*st;
	const struct sig_signature	*sg;
	const char			*stmt;		/* canonical, NUL-terminated */
	const char			*sigtext;
	int64_t				 player_id;
	int64_t				 key_id;
	enum chess_lang			 lang;
	const char			*source;
	/* JOB_MAIL: the mail; `st` is NULL when the mail had no statement
	 * or it was refused before the writer (then `err` says why) */
	const struct service_mail_in	*mail;
	bool				 refused;
	enum service_mail_outcome	 outcome;
	/* JOB_REMIND: thresholds in seconds, nearest first */
	const int64_t			*thresholds;
	size_t				 nthresholds;
	/* result */
	bool				 changed;	/* JOB_FLAG: the game
							   ended; JOB_REMIND:
							   a reminder went */
	bool				 done;
	int				 rc;
	struct service_error		*err;
	struct service_game		*result;	/* JOB_ACTION: the
							   game after it, or
							   NULL */
	bool				 has_result;
};

/* The rebuilt state of one game, owned by the writer thread. */
struct cached {
	int64_t			 id;		/* 0: empty slot */
	uint8_t			 head[STORE_HASH_LEN];
	int64_t			 nrec;		/* records replayed */
	struct game		 state;
	char			(*san)[CHESS_SAN_MAX];
	size_t			 sancap;
};

struct service {
	char			*db_path;
	bool			 mail;		/* queue notices */
	char			*mail_from;
	char			*mail_reply_to;
	char			*mail_domain;
	enum store_sync		 sync;
	int			 batch_max;
	int			 leave_days;	/* allowance per calendar year */
	int64_t			(*now)(void *);
	void			*now_arg;

	pthread_mutex_t		 pool_lock;
	struct store		*pool[SERVICE_POOL_MAX];
	size_t			 npool;

	pthread_mutex_t		 lock;		/* queue and job results */
	pthread_cond_t		 work;		/* the writer waits here */
	pthread_cond_t		 done;		/* callers wait here */
	struct job		*head, *tail;
	bool			 stopping;
	pthread_t		 writer;
	bool			 writer_started;
	struct store		*wstore;	/* the writer's handle */
	/* Rebuilt games for readers, each checked against the stored head
	 * before use; guarded by view_lock. */
	pthread_mutex_t		 view_lock;
	struct service_game	*views;		/* SERVICE_VIEW_SLOTS */
	struct cached		*cache;		/* SERVICE_CACHE_SLOTS */
};

static char *pgn_text(struct store *, const struct store_game *,
    const struct game *, size_t *);
static int view_copy(struct service_game *, const struct service_game *);

static struct metric	*m_accepted, *m_batches, *m_batched;

/*
 * Refused actions are counted by reason, one row per API code:
 * corrchess_actions_refused_total{reason="illegal-move"}. The known codes
 * are registered at start; a code not listed gets its row when first seen.
 */
#define REFUSAL_ROWS_MAX	64
static const char *const refusal_codes[] = {
	"bad-statement", "no-signature", "wrong-game", "unsupported-action",
	"bad-signature", "unknown-player", "unknown-key", "key-revoked",
	"wrong-namespace", "not-a-player", "no-such-game", "stale-ply",
	"not-your-turn", "game-over", "late-move", "illegal-move",
	"ambiguous-move", "bad-move", "no-draw-offer", "bad-claim", "stopping",
	"leave-too-soon", "leave-overlaps", "leave-allowance", "internal", NULL
};
static struct {
	char		 code[sizeof ((struct service_error *)0)->code];
	struct metric	*m;
}			 m_refused[REFUSAL_ROWS_MAX];
static size_t		 m_nrefused;
static pthread_mutex_t	 m_refused_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t	 metrics_once = PTHREAD_ONCE_INIT;

/* The service whose store the games-by-status gauges count (the first one
 * open), guarded so that closing it waits for a count under way. */
static pthread_mutex_t	 gauge_lock = PTHREAD_MUTEX_INITIALIZER;
static struct service	*gauge_svc;

static int	service_fail(struct service_error *, unsigned, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

/* Fill a service error. */
static int
service_fail(struct service_error *err, unsigned status, const char *code,
    const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL)
		return -1;
	err->status = status;
	snprintf(err->code, sizeof err->code, "%s", code);
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return -1;
}

/* Report a store failure as an internal error. */
static int
service_store_fail(struct service_error *err, struct store *st,
    const char *what)
{
	log_warnx("store: %s: %s", what, st != NULL ? store_errmsg(st) :
	    "no handle");
	return service_fail(err, 500, "internal",
	    "the server could not %s; try again later", what);
}

/* The service's clock. */
int64_t
service_now(struct service *svc)
{
	if (svc->now != NULL)
		return svc->now(svc->now_arg);
	return (int64_t)time(NULL);
}

/* Take a store handle from the pool, opening one when none is free. */
static struct store *
pool_get(struct service *svc, struct service_error *err)
{
	struct store_options	 opts = { .sync = svc->sync };
	struct store		*st = NULL;
	char			 why[256];

	pthread_mutex_lock(&svc->pool_lock);
	if (svc->npool > 0)
		st = svc->pool[--svc->npool];
	pthread_mutex_unlock(&svc->pool_lock);
	if (st != NULL)
		return st;
	if ((st = store_open_with(svc->db_path, &opts, why, sizeof why)) ==
	    NULL) {
		log_warnx("store: %s", why);
		service_fail(err, 500, "internal",
		    "the server cannot open its database; try again later");
	}
	return st;
}

/* Give a handle back to the pool. */
static void
pool_put(struct service *svc, struct store *st)
{
	if (st == NULL)
		return;
	pthread_mutex_lock(&svc->pool_lock);
	if (svc->npool < SERVICE_POOL_MAX) {
		svc->pool[svc->npool++] = st;
		st = NULL;
	}
	pthread_mutex_unlock(&svc->pool_lock);
	store_close(st);
}

/* --- rebuilding a game ------------------------------------------------ */

/* Where a rebuild writes: the state, the SAN list, the records counted. */
struct rebuild {
	const struct store_game	 *row;
	struct game		 *state;
	char			(**san)[CHESS_SAN_MAX];
	size_t			 *sancap;
	int64_t			  nrec;
	struct service_error	 *err;
	int			  rc;
};

/*
 * Make room for element `n` in array `arr` of *cap elements of `size`
 * bytes: double the capacity (`first` when empty) until it is past `n`.
 * Returns the array, which may have moved, or NULL with `arr` and *cap
 * unchanged.
 */
static void *
grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
	void	*p;
	size_t	 ncap;

	if (n < *cap)
		return arr;
	ncap = *cap != 0 ? *cap * 2 : first;
	while (ncap <= n)
		ncap *= 2;
	if (ncap > SIZE_MAX / size || (p = realloc(arr, ncap * size)) == NULL)
		return NULL;
	*cap = ncap;
	return p;
}

/* Make room for one more SAN entry. */
static int
san_reserve(char (**san)[CHESS_SAN_MAX], size_t *cap, size_t n)
{
	char	(*p)[CHESS_SAN_MAX];

	if ((p = grow(*san, cap, n, sizeof *p, 128)) == NULL)
		return -1;
	*san = p;
	return 0;
}

/* The colour `player_id` plays in `row`, or -1. */
static int
row_color(const struct store_game *row, int64_t player_id)
{
	if (player_id == row->white)
		return CHESS_WHITE;
	if (player_id == row->black)
		return CHESS_BLACK;
	return -1;
}

/* Map a stored action kind to a game action kind; 0 if not a player's. */
static enum game_action_kind
kind_parse(const char *kind, bool *offer)
{
	*offer = false;
	if (strcmp(kind, "move") == 0)
		return GAME_ACT_MOVE;
	if (strcmp(kind, "move-offer-draw") == 0) {
		*offer = true;
		return GAME_ACT_MOVE;
	}
	if (strcmp(kind, "accept-draw") == 0)
		return GAME_ACT_ACCEPT_DRAW;
	if (strcmp(kind, "decline-draw") == 0)
		return GAME_ACT_DECLINE_DRAW;
	if (strcmp(kind, "resign") == 0)
		return GAME_ACT_RESIGN;
	if (strcmp(kind, "claim-draw") == 0)
		return GAME_ACT_CLAIM_DRAW;
	return 0;
}

/*
 * Apply `a` to `g`, appending the SAN of a move it plays. GAME_OK or the
 * refusal, as game_apply().
 */
static enum game_refusal
apply_recording_san(struct game *g, const struct game_action *a,
    char (**san)[CHESS_SAN_MAX], size_t *sancap, char *why, size_t whysize)
{
	struct chess_position	before = g->chess.pos;
	size_t			ply = g->chess.nply;
	enum game_refusal	rc;

	if (san_reserve(san, sancap, ply + 1) != 0)
		return GAME_ENOMEM;
	rc = game_apply(g, a, why, whysize);
	if (g->chess.nply > ply)
		chess_move_san(&before, g->chess.moves[ply], CHESS_LANG_EN,
		    (*san)[ply], CHESS_SAN_MAX);
	return rc;
}

/* Replay one stored record. */
static int
rebuild_one(void *arg, const struct store_action *a)
{
	struct rebuild		*rb = arg;
	struct game_action	 ga;
	enum game_refusal	 rc;
	char			 why[256];
	bool			 offer;

	rb->nrec++;
	if (strcmp(a->kind, "flag") == 0) {
		game_check_time(rb->state, a->at);
		return 0;
	}
	/* The leave itself comes from the leaves table (leaves_load()):
	 * it stops the clocks of games created after it too. */
	if (strcmp(a->kind, "leave") == 0)
		return 0;
	memset(&ga, 0, sizeof ga);
	if ((ga.kind = kind_parse(a->kind, &offer)) == 0)
		goto bad;
	ga.offer_draw = offer;
	ga.color = row_color(rb->row, a->player_id);
	ga.move = a->san[0] != '\0' ? a->san : NULL;
	ga.lang = CHESS_LANG_EN;
	ga.at = a->at;
	rc = apply_recording_san(rb->state, &ga, rb->san, rb->sancap, why,
	    sizeof why);
	if (rc == GAME_OK)
		return 0;
	log_warnx("game %" PRId64 ": record %" PRId64 " (%s %s) does not "
	    "replay: %s", a->game_id, a->seq, a->kind, a->san, why);
 bad:
	rb->rc = service_fail(rb->err, 500, "internal",
	    "the stored record of game %" PRId64 " does not replay", a->game_id);
	return -1;
}

/* Fill game parameters from a stored row. */
static int
row_params(const struct store_game *row, struct game_params *gp,
    struct service_error *err)
{
	char		why[128];
	unsigned	flags = 0;

	memset(gp, 0, sizeof *gp);
	if (strcmp(row->variant, "chess960") == 0)
		flags |= CHESS_FEN_960;
	if (chess_fen_parse(&gp->start, row->start_fen, flags) != CHESS_OK ||
	    game_tc_parse(&gp->tc, row->time_control, why, sizeof why) != 0 ||
	    game_policy_parse(row->policy, &gp->policy) != 0)
		return service_fail(err, 500, "internal",
		    "game %" PRId64 " is stored with bad parameters", row->id);
	gp->created = row->created;
	return 0;
}

/* Where a player's leaves go: a game and a colour. */
struct leave_load {
	struct game	*g;
	int		 color;
	int		 rc;
};

/* Stop one colour's clock for one leave. */
static int
leave_one(void *arg, const struct store_leave *l)
{
	struct leave_load	*ll = arg;

	if (game_leave_add(ll->g, ll->color, l->start, l->until) != 0) {
		ll->rc = -1;
		return -1;
	}
	return 0;
}

/* Stop a game's clocks for its players' leaves (those ending after the
 * game began). */
static int
leaves_load(struct store *st, const struct store_game *row, struct game *g,
    struct service_error *err)
{
	struct leave_load	ll;
	int			c;

	for (c = 0; c < 2; c++) {
		memset(&ll, 0, sizeof ll);
		ll.g = g;
		ll.color = c;
		if (store_leave_list(st, c == CHESS_WHITE ? row->white :
		    row->black, row->created, leave_one, &ll) != STORE_OK) {
			if (ll.rc != 0)
				return service_fail(err, 500, "internal",
				    "out of memory");
			return service_store_fail(err, st,
			    "read the players' leaves");
		}
	}
	return 0;
}

/* Rebuild a game's state from its row and records. */
static int
rebuild(struct store *st, const struct store_game *row, struct game *state,
    char (**san)[CHESS_SAN_MAX], size_t *sancap, int64_t *nrec,
    struct service_error *err)
{
	struct game_params	gp;
	struct rebuild		rb = { row, state, san, sancap, 0, err, 0 };

	game_free(state);
	if (row_params(row, &gp, err) != 0)
		return -1;
	if (game_init(state, &gp) != 0)
		return service_fail(err, 500, "internal", "out of memory");
	if (leaves_load(st, row, state, err) != 0)
		return -1;
	if (store_action_list(st, row->id, rebuild_one, &rb) != STORE_OK) {
		if (rb.rc != 0)
			return -1;
		return service_store_fail(err, st, "read the game's record");
	}
	if (nrec != NULL)
		*nrec = rb.nrec;
	return 0;
}

/* Copy the state into the row's state columns. */
static void
row_update_state(struct store_game *row, const struct game *g, int64_t now,
    const uint8_t head[STORE_HASH_LEN])
{
	snprintf(row->status, sizeof row->status, "%s",
	    game_ongoing(g) ? "ongoing" : "finished");
	snprintf(row->result, sizeof row->result, "%s",
	    game_result_name(g->result));
	snprintf(row->termination, sizeof row->termination, "%s",
	    game_termination_name(g->termination));
	row->ply = (int)g->chess.nply;
	chess_fen_write(&g->chess.pos, row->fen, sizeof row->fen);
	row->turn = game_turn(g);
	row->draw_offer = g->draw_offer;
	row->deadline = game_deadline(g);
	memcpy(row->head, head, STORE_HASH_LEN);
	row->updated = now;
}

/* --- the writer ------------------------------------------------------- */

/* The writer's cached state of a game, rebuilt when stale. */
static struct cached *
cache_get(struct service *svc, const struct store_game *row,
    struct service_error *err)
{
	struct cached	*c = &svc->cache[(uint64_t)row->id % SERVICE_CACHE_SLOTS];

	if (c->id == row->id && memcmp(c->head, row->head, STORE_HASH_LEN) == 0)
		return c;
	c->id = 0;
	if (rebuild(svc->wstore, row, &c->state, &c->san, &c->sancap, &c->nrec,
	    err) != 0)
		return NULL;
	c->id = row->id;
	memcpy(c->head, row->head, STORE_HASH_LEN);
	return c;
}

/* Append a record and store the game's new state; -1 on store failure. */
static int
record_append(struct service *svc, struct store_game *row, struct cached *c,
    struct store_action *a, const uint8_t *sigbytes, size_t siglen,
    int64_t now)
{
	const char	*stmt = a->statement != NULL ? a->statement : a->kind;

	a->game_id = row->id;
	a->seq = c->nrec + 1;
	a->at = now;
	memcpy(a->prev_hash, row->head, STORE_HASH_LEN);
	sig_record_hash(row->head, (const uint8_t *)stmt, strlen(stmt),
	    sigbytes, siglen, a->hash);
	if (store_action_append(svc->wstore, a) != STORE_OK)
		return -1;
	row_update_state(row, &c->state, now, a->hash);
	if (store_game_update(svc->wstore, row) != STORE_OK)
		return -1;
	c->nrec++;
	memcpy(c->head, a->hash, STORE_HASH_LEN);
	return 0;
}

/* --- notices ---------------------------------------------------------- */

/* The language of a player's mail. */
static enum chess_lang
player_lang(const struct store_player *p)
{
	return strcmp(p->lang, "fr") == 0 ? CHESS_LANG_FR : CHESS_LANG_EN;
}

/* Compose a notice and queue it in the outbox of `st`'s transaction. */
static int
notice_queue(struct service *svc, struct store *st, struct notice *n,
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
static int
notice_fill(struct store *st, const struct store_game *row,
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
	n->pgn = *pgnp = pgn_text(st, row, g, &n->pgn_len);
	*sanp = sanv;
	return n->pgn != NULL ? 0 : -1;
}

/*
 * Queue notice `kind` about a game for `color`'s player, or both players
 * when `color` is -1; players without an address get none. -1 when the
 * outbox cannot be written (the caller's transaction must not commit).
 */
static int
notify(struct service *svc, struct store *st, const struct store_game *row,
    const struct game *g, char (*san)[CHESS_SAN_MAX], enum notice_kind kind,
    int color, int actor, int64_t now)
{
	struct store_player	 pl[2];
	struct notice		 n;
	const char		**sanv;
	char			*pgn;
	int			 c, rc = 0;

	if (!svc->mail)
		return 0;
	memset(&n, 0, sizeof n);
	if (notice_fill(st, row, g, san, pl, &n, &sanv, &pgn, now) != 0) {
		rc = -1;
		goto out;
	}
	n.kind = kind;
	n.actor = actor;
	for (c = 0; c < 2 && rc == 0; c++) {
		if ((color != -1 && c != color) || pl[c].email[0] == '\0')
			continue;
		n.recipient = c;
		rc = notice_queue(svc, st, &n, now);
	}
 out:
	free(sanv);
	free(pgn);
	return rc;
}

/* Queue the notices an accepted action causes. */
static int
notify_action(struct service *svc, const struct store_game *row,
    const struct cached *c, enum game_action_kind kind, bool offer, int color,
    int64_t now)
{
	const struct game	*g = &c->state;
	struct store		*st = svc->wstore;

	if (!game_ongoing(g)) {
		if (g->termination == GAME_TERM_AGREEMENT)
			return notify(svc, st, row, g, c->san,
			    NOTICE_DRAW_ACCEPTED, -1, color, now);
		if (kind == GAME_ACT_CLAIM_DRAW && g->result ==
		    GAME_RESULT_DRAW)
			return notify(svc, st, row, g, c->san, NOTICE_CLAIM,
			    -1, color, now);
		return notify(svc, st, row, g, c->san, NOTICE_GAME_OVER, -1,
		    color, now);
	}
	switch (kind) {
	case GAME_ACT_MOVE:
	case GAME_ACT_CLAIM_DRAW:
		return notify(svc, st, row, g, c->san, offer ?
		    NOTICE_DRAW_OFFERED : NOTICE_MOVED, !color, color, now);
	case GAME_ACT_DECLINE_DRAW:
		return notify(svc, st, row, g, c->san, NOTICE_DRAW_DECLINED,
		    !color, color, now);
	default:
		return 0;
	}
}

/* Record that a game's flag fell: a record of its own, signed by no one. */
static int
record_flag(struct service *svc, struct store_game *row, struct cached *c,
    int64_t now)
{
	struct store_action	a;

	memset(&a, 0, sizeof a);
	a.ply = (int)c->state.chess.nply;
	snprintf(a.kind, sizeof a.kind, "flag");
	snprintf(a.source, sizeof a.source, "clock");
	if (record_append(svc, row, c, &a, NULL, 0, now) != 0)
		return -1;
	return notify(svc, svc->wstore, row, &c->state, c->san,
	    NOTICE_GAME_OVER, -1, -1, now);
}

/* The HTTP status and message prefix of a game refusal. */
static unsigned
refusal_status(enum game_refusal rc)
{
	switch (rc) {
	case GAME_EILLEGAL:
	case GAME_EAMBIGUOUS:
	case GAME_ESYNTAX:
	case GAME_EBAD_CLAIM:
		return 422;
	case GAME_ENOMEM:
		return 500;
	default:
		return 409;
	}
}

/* The stored kind of a statement's action. */
static const char *
action_kind_name(const struct sig_action *a)
{
	switch (a->kind) {
	case SIG_ACT_MOVE:
		return "move";
	case SIG_ACT_MOVE_OFFER_DRAW:
		return "move-offer-draw";
	case SIG_ACT_ACCEPT_DRAW:
		return "accept-draw";
	case SIG_ACT_DECLINE_DRAW:
		return "decline-draw";
	case SIG_ACT_RESIGN:
		return "resign";
	case SIG_ACT_CLAIM_DRAW:
		return "claim-draw";
	case SIG_ACT_LEAVE:
		return "leave";
	}
	return "unknown";
}

/* Game ids gathered from listings, each once. */
struct id_list {
	int64_t	*ids;
	size_t	 n, cap;
	size_t	 listed;	/* rows of the last listing */
};

/* Add a listed game's id, once. */
static int
id_collect(void *arg, const struct store_game *g)
{
	struct id_list	*l = arg;
	int64_t		*p;
	size_t		 i;

	l->listed++;
	for (i = 0; i < l->n; i++)
		if (l->ids[i] == g->id)
			return 0;
	if ((p = grow(l->ids, &l->cap, l->n, sizeof *p, 64)) == NULL)
		return -1;
	l->ids = p;
	l->ids[l->n++] = g->id;
	return 0;
}

/* --- leave ------------------------------------------------------------ */

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t		era;
	unsigned	yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* Write the date (UTC) of a time as YYYY-MM-DD. */
static void
date_format(int64_t t, char *buf, size_t size)
{
	int64_t		z, era, y;
	unsigned	doe, yoe, doy, mp, d, m;

	z = (t >= 0 ? t : t - GAME_DAY + 1) / GAME_DAY + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	snprintf(buf, size, "%04" PRId64 "-%02u-%02u", y + (m <= 2), m, d);
}

/* 00:00 UTC of a date. */
static int64_t
date_start(const struct sig_date *d)
{
	return days_from_civil(d->year, d->month, d->day) * GAME_DAY;
}

/* Seconds of [a1, b1) inside [a2, b2). */
static int64_t
overlap(int64_t a1, int64_t b1, int64_t a2, int64_t b2)
{
	int64_t	a = a1 > a2 ? a1 : a2, b = b1 < b2 ? b1 : b2;

	return b > a ? b - a : 0;
}

/* A player's leaves, gathered. */
struct leave_list {
	struct store_leave	*l;
	size_t			 n, cap;
};

/* Keep one leave. */
static int
leave_collect(void *arg, const struct store_leave *l)
{
	struct leave_list	*ll = arg;
	struct store_leave	*p;

	if ((p = grow(ll->l, &ll->cap, ll->n, sizeof *p, 16)) == NULL)
		return -1;
	ll->l = p;
	ll->l[ll->n++] = *l;
	return 0;
}

/* Tell the opponent of `color` in a game that `color` is on leave from
 * `from` to `to`. */
static int
notify_leave(struct service *svc, const struct store_game *row,
    const struct cached *c, int color, const struct sig_date *from,
    const struct sig_date *to, int64_t now)
{
	struct store_player	 pl[2];
	struct notice		 n;
	const char		**sanv;
	char			*pgn, d1[16], d2[16];
	int			 rc = 0;

	if (!svc->mail || (color != CHESS_WHITE && color != CHESS_BLACK))
		return 0;
	memset(&n, 0, sizeof n);
	if (notice_fill(svc->wstore, row, &c->state, c->san, pl, &n, &sanv,
	    &pgn, now) != 0) {
		rc = -1;
		goto out;
	}
	snprintf(d1, sizeof d1, "%04u-%02u-%02u", from->year % 10000,
	    from->month % 100, from->day % 100);
	snprintf(d2, sizeof d2, "%04u-%02u-%02u", to->year % 10000,
	    to->month % 100, to->day % 100);
	n.kind = NOTICE_LEAVE;
	n.actor = color;
	n.recipient = !color;
	n.leave_from = d1;
	n.leave_to = d2;
	if (pl[!color].email[0] != '\0')
		rc = notice_queue(svc, svc->wstore, &n, now);
 out:
	free(sanv);
	free(pgn);
	return rc;
}

/* Read what player `player_id` has taken of this year's leave. */
int
service_player_leave(struct service *svc, int64_t player_id,
    struct service_leave_year *out, struct service_error *err)
{
	struct store		*st;
	struct leave_list	 ll;
	struct tm		 tm;
	time_t			 t = (time_t)service_now(svc);
	int64_t			 ys, ye, taken = 0;
	size_t			 i;
	int			 rc = -1;

	memset(out, 0, sizeof *out);
	memset(&ll, 0, sizeof ll);
	if (gmtime_r(&t, &tm) == NULL)
		return service_fail(err, 500, "internal", "the date is out of "
		    "range");
	out->year = tm.tm_year + 1900;
	ys = days_from_civil(out->year, 1, 1) * GAME_DAY;
	ye = days_from_civil((int64_t)out->year + 1, 1, 1) * GAME_DAY;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_leave_list(st, player_id, ys, leave_collect, &ll) !=
	    STORE_OK) {
		service_store_fail(err, st, "read the player's leaves");
		goto out;
	}
	for (i = 0; i < ll.n; i++)
		taken += overlap(ll.l[i].start, ll.l[i].until, ys, ye);
	out->allowance_days = svc->leave_days;
	out->taken_days = taken / GAME_DAY;
	out->left_days = out->allowance_days - out->taken_days;
	if (out->left_days < 0)
		out->left_days = 0;
	rc = 0;
 out:
	free(ll.l);
	pool_put(svc, st);
	return rc;
}

/* --- digest ------------------------------------------------------------ */

static int game_read(struct service *, struct store *, int64_t, int64_t,
    struct service_game *, struct service_error *);
static int player_read(struct store *, const char *, struct service_player *,
    struct service_error *);
static bool lang_valid(const char *);

/* Players whose digest is due, gathered. */
struct digest_due {
	struct store_player	*p;
	size_t			 n, cap;
	int64_t			 now;
};

/* Keep a player whose daily digest is due. */
static int
digest_collect(void *arg, const struct store_player *p)
{
	struct digest_due	*dd = arg;
	struct store_player	*np;

	if (strcmp(p->digest, "daily") != 0 || p->email[0] == '\0' ||
	    dd->now - p->digest_sent < GAME_DAY)
		return 0;
	if ((np = grow(dd->p, &dd->cap, dd->n, sizeof *np, 16)) == NULL)
		return -1;
	dd->p = np;
	dd->p[dd->n++] = *p;
	return 0;
}

/*
 * Inside `st`'s transaction: queue player `p`'s digest (the games where it
 * is their move) when there is one, and record the day's digest as done.
 * *sent is set when a mail was queued.
 */
static int
digest_one(struct service *svc, struct store *st,
    const struct store_player *p, int64_t now, bool *sent,
    struct service_error *err)
{
	struct store_game_filter	 f;
	struct id_list			 games;
	struct service_game		*g = NULL;
	struct notice_digest_game	*e = NULL;
	const char			**sanv = NULL;
	struct notice			 n;
	size_t				 i, k, ng = 0, nsan = 0, o;
	int				 color, rc = -1;

	*sent = false;
	memset(&games, 0, sizeof games);
	memset(&f, 0, sizeof f);
	f.player = p->name;
	f.status = "ongoing";
	if (store_game_list(st, &f, id_collect, &games) != STORE_OK) {
		service_store_fail(err, st, "list the player's games");
		goto out;
	}
	if (games.n > 0 && ((g = calloc(games.n, sizeof *g)) == NULL ||
	    (e = calloc(games.n, sizeof *e)) == NULL)) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	for (i = 0; i < games.n; i++) {
		if (game_read(svc, st, games.ids[i], now, &g[ng], err) != 0)
			goto out;
		color = row_color(&g[ng].row, p->id);
		if (color == -1 || !game_ongoing(&g[ng].state) ||
		    game_turn(&g[ng].state) != color) {
			service_game_free(&g[ng]);
			continue;
		}
		nsan += g[ng].state.chess.nply;
		ng++;
	}
	if (ng > 0) {
		if ((sanv = calloc(nsan + 1, sizeof *sanv)) == NULL) {
			service_fail(err, 500, "internal", "out of memory");
			goto out;
		}
		for (i = 0, o = 0; i < ng; i++) {
			color = row_color(&g[i].row, p->id);
			e[i].game_id = g[i].row.id;
			e[i].white = g[i].row.white_name;
			e[i].black = g[i].row.black_name;
			e[i].chess960 = strcmp(g[i].row.variant,
			    "chess960") == 0;
			e[i].start_fen = g[i].row.start_fen;
			e[i].san = sanv + o;
			e[i].nply = g[i].state.chess.nply;
			for (k = 0; k < e[i].nply; k++)
				sanv[o++] = g[i].san[k];
			e[i].deadline = game_deadline(&g[i].state);
			e[i].time_left = game_time_left(&g[i].state, color,
			    now);
		}
		memset(&n, 0, sizeof n);
		n.kind = NOTICE_DIGEST;
		n.recipient = -1;
		n.to_email = p->email;
		n.to_name = p->name;
		n.to_lang = player_lang(p);
		n.actor = -1;
		n.draw_offer = -1;
		n.clock[0] = n.clock[1] = -1;
		n.digest = e;
		n.ndigest = ng;
		if (notice_queue(svc, st, &n, now) != 0) {
			service_store_fail(err, st, "queue the digest");
			goto out;
		}
		*sent = true;
	}
	if (store_player_digest_sent(st, p->id, now) != STORE_OK) {
		service_store_fail(err, st, "record the digest");
		goto out;
	}
	rc = 0;
 out:
	for (i = 0; i < ng; i++)
		service_game_free(&g[i]);
	free(g);
	free(e);
	free(sanv);
	free(games.ids);
	return rc;
}

/* Queue the daily digest of each player who asked for one. */
int
service_clock_digest(struct service *svc, size_t *sent,
    struct service_error *err)
{
	struct store		*st;
	struct digest_due	 dd;
	struct store_player	 p;
	size_t			 i, n = 0;
	bool			 one;
	int			 rc = 0;

	if (sent != NULL)
		*sent = 0;
	if (!svc->mail)
		return 0;
	memset(&dd, 0, sizeof dd);
	dd.now = service_now(svc);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_player_list(st, 0, 0, digest_collect, &dd) != STORE_OK) {
		rc = service_store_fail(err, st, "list the players");
		goto out;
	}
	for (i = 0; i < dd.n && rc == 0; i++) {
		if (store_begin(st) != STORE_OK) {
			rc = service_store_fail(err, st,
			    "start a transaction");
			break;
		}
		/* Read again under the lock: still due? */
		if (store_player_get(st, dd.p[i].id, &p) != STORE_OK ||
		    strcmp(p.digest, "daily") != 0 || p.email[0] == '\0' ||
		    dd.now - p.digest_sent < GAME_DAY) {
			store_rollback(st);
			continue;
		}
		if (digest_one(svc, st, &p, dd.now, &one, err) != 0) {
			store_rollback(st);
			rc = -1;
			break;
		}
		if (store_commit(st) != STORE_OK) {
			rc = service_store_fail(err, st, "commit the digest");
			store_rollback(st);
			break;
		}
		n += one;
	}
 out:
	pool_put(svc, st);
	free(dd.p);
	if (sent != NULL)
		*sent = n;
	return rc;
}

/* Change a player's address, language or digest (NULL: unchanged). */
int
service_player_set(struct service *svc, const char *name, const char *email,
    const char *lang, const char *digest, struct service_player *out,
    struct service_error *err)
{
	struct store		*st;
	struct store_player	 p;
	enum store_status	 ss;
	size_t			 i;
	int			 rc = -1;

	if (lang != NULL && !lang_valid(lang))
		return service_fail(err, 400, "bad-language",
		    "language must be \"en\" or \"fr\"");
	if (digest != NULL && strcmp(digest, "none") != 0 &&
	    strcmp(digest, "daily") != 0)
		return service_fail(err, 400, "bad-digest",
		    "digest must be \"none\" or \"daily\"");
	if (email != NULL && (strlen(email) >= sizeof p.email ||
	    strchr(email, '\n') != NULL || (email[0] != '\0' &&
	    strchr(email, '@') == NULL)))
		return service_fail(err, 400, "bad-email",
		    "\"%.60s\" is not an e-mail address", email);
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_begin(st) != STORE_OK) {
		service_store_fail(err, st, "start a transaction");
		goto out;
	}
	ss = store_player_get_by_name(st, name, &p);
	if (ss == STORE_NOTFOUND) {
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
		goto rollback;
	}
	if (ss != STORE_OK) {
		service_store_fail(err, st, "read the player");
		goto rollback;
	}
	if (email != NULL) {
		snprintf(p.email, sizeof p.email, "%s", email);
		for (i = 0; p.email[i] != '\0'; i++)
			p.email[i] = (char)tolower((unsigned char)p.email[i]);
	}
	if (lang != NULL)
		snprintf(p.lang, sizeof p.lang, "%s", lang);
	if (digest != NULL)
		snprintf(p.digest, sizeof p.digest, "%s", digest);
	if (store_player_update(st, &p) != STORE_OK) {
		service_store_fail(err, st, "update the player");
		goto rollback;
	}
	if (store_commit(st) != STORE_OK) {
		service_store_fail(err, st, "commit the player");
		goto rollback;
	}
	rc = out != NULL ? player_read(st, name, out, err) : 0;
	goto out;
 rollback:
	store_rollback(st);
 out:
	pool_put(svc, st);
	return rc;
}

/*
 * Take a leave: check it (it begins after today, UTC; it overlaps no other
 * leave of the player; with the others it stays within the allowance of
 * each calendar year it touches), record it, and append its statement to
 * the record of each of the player's ongoing games, whose deadlines move
 * on by the leave days they would fall after.
 */
static int
job_leave(struct service *svc, struct job *j, struct store_game *row,
    int64_t now)
{
	const struct sig_statement	*st = j->st;
	const struct sig_date		*from = &st->action.from;
	const struct sig_date		*to = &st->action.to;
	struct leave_list		 ll;
	struct id_list			 games;
	struct store_game_filter	 f;
	struct store_leave		 nl;
	struct store_game		 g;
	struct store_action		 a;
	struct cached			*c;
	const uint8_t			*sigbytes;
	enum store_status		 ss;
	int64_t				 start, until, today, ys, ye, taken;
	size_t				 i, siglen;
	unsigned			 y;
	char				 d1[48], d2[48];
	int				 rc = -1;

	memset(&ll, 0, sizeof ll);
	memset(&games, 0, sizeof games);
	start = date_start(from);
	until = date_start(to) + GAME_DAY;
	today = now - (now % GAME_DAY + GAME_DAY) % GAME_DAY;
	if (start <= today) {
		service_fail(j->err, 409, "leave-too-soon",
		    "a leave must begin on a later day than today (UTC); this "
		    "one begins on %04u-%02u-%02u", from->year, from->month,
		    from->day);
		goto out;
	}
	ys = days_from_civil(from->year, 1, 1) * GAME_DAY;
	ss = store_leave_list(svc->wstore, j->player_id, ys, leave_collect,
	    &ll);
	if (ss != STORE_OK) {
		service_store_fail(j->err, svc->wstore, "read your leaves");
		goto out;
	}
	for (i = 0; i < ll.n; i++)
		if (overlap(start, until, ll.l[i].start, ll.l[i].until) > 0) {
			date_format(ll.l[i].start, d1, sizeof d1);
			date_format(ll.l[i].until - GAME_DAY, d2, sizeof d2);
			service_fail(j->err, 409, "leave-overlaps",
			    "this leave overlaps the one you took from %s to "
			    "%s; choose other days", d1, d2);
			goto out;
		}
	for (y = from->year; y <= to->year; y++) {
		ys = days_from_civil(y, 1, 1) * GAME_DAY;
		ye = days_from_civil((int64_t)y + 1, 1, 1) * GAME_DAY;
		for (taken = 0, i = 0; i < ll.n; i++)
			taken += overlap(ll.l[i].start, ll.l[i].until, ys, ye);
		if ((taken + overlap(start, until, ys, ye)) / GAME_DAY >
		    svc->leave_days) {
			service_fail(j->err, 409, "leave-allowance",
			    "this leave would bring your leave in %u to %" PRId64
			    " days; the allowance is %d days a calendar year "
			    "and you have taken %" PRId64, y,
			    (taken + overlap(start, until, ys, ye)) / GAME_DAY,
			    svc->leave_days, taken / GAME_DAY);
			goto out;
		}
	}

	memset(&nl, 0, sizeof nl);
	nl.player_id = j->player_id;
	nl.start = start;
	nl.until = until;
	nl.taken = now;
	nl.game_id = row->id;
	nl.statement = j->stmt;
	nl.signature = j->sigtext;
	if (store_leave_add(svc->wstore, &nl) != STORE_OK) {
		service_store_fail(j->err, svc->wstore, "record the leave");
		goto out;
	}

	/* Every ongoing game of the player: its clocks and its record. */
	memset(&f, 0, sizeof f);
	f.player = st->player;
	f.status = "ongoing";
	if (store_game_list(svc->wstore, &f, id_collect, &games) !=
	    STORE_OK || games.n < games.listed) {
		service_store_fail(j->err, svc->wstore, "list your games");
		goto out;
	}
	sigbytes = sig_signature_bytes(j->sg, &siglen);
	for (i = 0; i < games.n; i++) {
		if (store_game_get(svc->wstore, games.ids[i], &g) != STORE_OK) {
			service_store_fail(j->err, svc->wstore,
			    "read a game");
			goto out;
		}
		/* The cached state does not know the leave yet. */
		svc->cache[(uint64_t)g.id % SERVICE_CACHE_SLOTS].id = 0;
		if ((c = cache_get(svc, &g, j->err)) == NULL)
			goto out;
		if (game_ongoing(&c->state) && game_check_time(&c->state,
		    now)) {
			if (record_flag(svc, &g, c, now) != 0) {
				service_store_fail(j->err, svc->wstore,
				    "record the end of a game on time");
				goto out;
			}
			continue;
		}
		memset(&a, 0, sizeof a);
		a.ply = (int)game_ply(&c->state);
		a.player_id = j->player_id;
		a.key_id = j->key_id;
		snprintf(a.kind, sizeof a.kind, "leave");
		a.statement = (char *)j->stmt;
		a.signature = (char *)j->sigtext;
		snprintf(a.source, sizeof a.source, "%s", j->source);
		if (record_append(svc, &g, c, &a, sigbytes, siglen, now) !=
		    0) {
			service_store_fail(j->err, svc->wstore,
			    "record the leave in a game");
			goto out;
		}
		if (notify_leave(svc, &g, c, row_color(&g, j->player_id),
		    from, to, now) != 0) {
			service_store_fail(j->err, svc->wstore,
			    "queue the leave notice");
			goto out;
		}
	}
	rc = 0;
 out:
	free(ll.l);
	free(games.ids);
	return rc;
}

/* Check and apply one signed action inside the writer's transaction. */
static int
job_action(struct service *svc, struct job *j, struct store_game *row,
    struct cached *c, int64_t now)
{
	const struct sig_statement	*st = j->st;
	struct game_action		 ga;
	struct store_action		 a;
	enum game_refusal		 rc;
	const uint8_t			*sigbytes;
	size_t				 siglen, ply;
	char				 why[384];
	bool				 offer;
	int				 color;

	if ((color = row_color(row, j->player_id)) == -1)
		return service_fail(j->err, 403, "not-a-player",
		    "%s does not play in game %" PRId64 " (%s v %s)",
		    st->player, row->id, row->white_name, row->black_name);
	if (game_ongoing(&c->state) && game_check_time(&c->state, now)) {
		if (record_flag(svc, row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		if (color != game_turn(&c->state))
			goto over;
		return service_fail(j->err, 409, "late-move",
		    "your time ran out; the game is over (%s, %s)",
		    game_result_name(c->state.result),
		    game_termination_name(c->state.termination));
	}
	if (!game_ongoing(&c->state))
		goto over;
	ply = game_ply(&c->state);
	if (st->ply != ply)
		return service_fail(j->err, 409, "stale-ply",
		    "the statement is for ply %" PRIu32 " but game %" PRId64
		    " is at ply %zu: sign a statement for ply %zu", st->ply,
		    row->id, ply, ply);
	if (st->action.kind == SIG_ACT_LEAVE)
		return job_leave(svc, j, row, now);

	memset(&ga, 0, sizeof ga);
	if ((ga.kind = kind_parse(action_kind_name(&st->action), &offer)) == 0)
		return service_fail(j->err, 422, "unsupported-action",
		    "the action \"%s\" is not available in a game",
		    action_kind_name(&st->action));
	ga.offer_draw = offer;
	ga.color = color;
	ga.move = st->action.move[0] != '\0' ? st->action.move : NULL;
	ga.lang = j->lang;
	ga.at = now;
	why[0] = '\0';
	rc = apply_recording_san(&c->state, &ga, &c->san, &c->sancap, why,
	    sizeof why);
	if (rc == GAME_ELATE) {
		if (record_flag(svc, row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		return service_fail(j->err, 409, "late-move", "%s", why);
	}
	if (rc != GAME_OK)
		return service_fail(j->err, refusal_status(rc),
		    game_refusal_code(rc), "%s", why);

	memset(&a, 0, sizeof a);
	a.ply = (int)ply;
	a.player_id = j->player_id;
	a.key_id = j->key_id;
	snprintf(a.kind, sizeof a.kind, "%s", action_kind_name(&st->action));
	snprintf(a.move, sizeof a.move, "%s", st->action.move);
	if (game_ply(&c->state) > ply)
		snprintf(a.san, sizeof a.san, "%s", c->san[ply]);
	a.statement = (char *)j->stmt;
	a.signature = (char *)j->sigtext;
	snprintf(a.source, sizeof a.source, "%s", j->source);
	sigbytes = sig_signature_bytes(j->sg, &siglen);
	if (record_append(svc, row, c, &a, sigbytes, siglen, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "record the action");
	if (notify_action(svc, row, c, ga.kind, ga.offer_draw, color,
	    now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the notices");
	/* The answer, from the writer's state: no second replay. */
	if (j->result != NULL) {
		struct service_game	view;

		view.row = *row;
		view.state = c->state;
		view.san = c->san;
		view.now = now;
		j->has_result = view_copy(j->result, &view) == 0;
	}
	return 0;
 over:
	return service_fail(j->err, 409, "game-over",
	    "game %" PRId64 " is over (%s, %s)", row->id,
	    game_result_name(c->state.result),
	    game_termination_name(c->state.termination));
}

/*
 * Remind the side to move that its deadline comes near, once per move and
 * threshold: the nearest threshold its thinking time left (leave days do
 * not count) has passed is taken, its row and those of the farther
 * thresholds are written with the notice, so a reminder that was missed
 * (the server was down) is not sent after a nearer one. No notice goes for a threshold the move began inside of (a
 * "1d/move" game would otherwise be reminded at every move), nor to a
 * player without an address; it is recorded all the same, so the game is
 * not listed again.
 */
static int
job_remind(struct service *svc, struct job *j, struct store_game *row,
    struct cached *c, int64_t now)
{
	const struct game	*g = &c->state;
	struct store_player	 p;
	enum store_status	 ss;
	int64_t			 deadline, left, at_start, t;
	size_t			 i, k;
	int			 turn, ply;
	bool			 send;

	if (!game_ongoing(g) || (deadline = game_deadline(g)) <= now)
		return 0;
	/* Thinking time left: a leave does not count. */
	turn = game_turn(g);
	left = game_time_left(g, turn, now);
	for (i = 0; i < j->nthresholds && left > j->thresholds[i]; i++)
		;
	if (i == j->nthresholds)
		return 0;
	t = j->thresholds[i];
	ply = (int)game_ply(g);
	ss = store_reminder_get(svc->wstore, row->id, ply, t, NULL);
	if (ss == STORE_OK)
		return 0;
	if (ss != STORE_NOTFOUND)
		return service_store_fail(j->err, svc->wstore,
		    "look the reminders up");
	at_start = g->remaining[turn];
	send = at_start > t;
	if (send) {
		ss = store_player_get(svc->wstore, turn == CHESS_WHITE ?
		    row->white : row->black, &p);
		if (ss != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "read the player to remind");
		send = p.email[0] != '\0';
	}
	if (send && notify(svc, svc->wstore, row, g, c->san, NOTICE_REMINDER,
	    turn, -1, now) != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the reminder");
	for (k = i; k < j->nthresholds; k++) {
		ss = store_reminder_add(svc->wstore, row->id, ply,
		    j->thresholds[k], k == i && send ? now : 0);
		if (ss != STORE_OK && ss != STORE_EXISTS)
			return service_store_fail(j->err, svc->wstore,
			    "record the reminder");
	}
	j->changed = send;
	return 0;
}

/* Run a game job (an action or a flag) inside the writer's transaction. */
static int
job_game(struct service *svc, struct job *j, int64_t now)
{
	struct store_game	 row;
	struct cached		*c;
	enum store_status	 ss;
	int			 rc = -1;

	ss = store_game_get(svc->wstore, j->game_id, &row);
	if (ss == STORE_NOTFOUND)
		return service_fail(j->err, 404, "no-such-game",
		    "there is no game %" PRId64, j->game_id);
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore, "read the game");
	if ((c = cache_get(svc, &row, j->err)) == NULL)
		return -1;
	if (j->kind != JOB_FLAG && j->kind != JOB_REMIND)
		return job_action(svc, j, &row, c, now);
	rc = 0;
	if (game_ongoing(&c->state) && game_check_time(&c->state, now)) {
		if (record_flag(svc, &row, c, now) != 0)
			return service_store_fail(j->err, svc->wstore,
			    "record the end of the game on time");
		j->changed = j->kind == JOB_FLAG;
		return 0;
	}
	if (j->kind == JOB_REMIND)
		rc = job_remind(svc, j, &row, c, now);
	return rc;
}

/*
 * Answer a refused mail: to the sender when the sender is a registered
 * player, else to the player the statement names; strangers get nothing.
 */
static int
mail_answer_refusal(struct service *svc, const struct job *j, int64_t now)
{
	const struct service_mail_in	*m = j->mail;
	struct store_player		 p;
	struct store_game		 row;
	struct cached			*c = NULL;
	struct notice			 n;
	struct store_player		 pl[2];
	const char			**sanv = NULL;
	char				*pgn = NULL;
	struct service_error		 ignore;
	int				 rc;

	if (m->automatic)
		return 0;
	if (store_player_get_by_email(svc->wstore, m->sender, &p) !=
	    STORE_OK && (j->st == NULL ||
	    store_player_get_by_name(svc->wstore, j->st->player, &p) !=
	    STORE_OK || p.email[0] == '\0')) {
		log_info("mail from %s refused (%s), not answered: not a "
		    "player's address", m->sender, j->err->code);
		return 0;
	}
	memset(&n, 0, sizeof n);
	n.kind = NOTICE_REFUSED;
	n.answered_id = m->message_id[0] ? m->message_id : NULL;
	n.answered_subject = m->subject;
	n.reason = j->err->message;
	n.reason_code = j->err->code;
	n.recipient = -1;
	n.to_email = p.email;
	n.to_name = p.name;
	n.to_lang = player_lang(&p);
	n.actor = -1;
	n.draw_offer = -1;
	n.clock[0] = n.clock[1] = -1;
	/* With the game when the player plays in it. */
	if (j->game_id != 0 && store_game_get(svc->wstore, j->game_id,
	    &row) == STORE_OK && row_color(&row, p.id) != -1 &&
	    (c = cache_get(svc, &row, &ignore)) != NULL) {
		if (notice_fill(svc->wstore, &row, &c->state, c->san, pl, &n,
		    &sanv, &pgn, now) != 0) {
			free(sanv);
			free(pgn);
			return -1;
		}
		n.recipient = row_color(&row, p.id);
	}
	rc = notice_queue(svc, svc->wstore, &n, now);
	free(sanv);
	free(pgn);
	return rc;
}

/* Answer a mail without a statement with a how-to, once a day at most. */
static int
mail_answer_howto(struct service *svc, const struct job *j, int64_t now)
{
	const struct service_mail_in	*m = j->mail;
	struct store_player		 p;
	struct notice			 n;
	int64_t				 recent = 0;
	bool				 known;

	if (m->automatic || m->sender[0] == '\0')
		return 0;
	if (store_outbox_recent(svc->wstore, m->sender,
	    notice_kind_name(NOTICE_HOWTO), now - GAME_DAY, &recent) !=
	    STORE_OK)
		return -1;
	if (recent > 0)
		return 0;
	known = store_player_get_by_email(svc->wstore, m->sender, &p) ==
	    STORE_OK;
	memset(&n, 0, sizeof n);
	n.kind = NOTICE_HOWTO;
	n.answered_id = m->message_id[0] ? m->message_id : NULL;
	n.answered_subject = m->subject;
	n.recipient = -1;
	n.to_email = m->sender;
	n.to_name = known ? p.name : NULL;
	n.to_lang = known ? player_lang(&p) : CHESS_LANG_EN;
	n.actor = -1;
	n.draw_offer = -1;
	n.clock[0] = n.clock[1] = -1;
	return notice_queue(svc, svc->wstore, &n, now);
}

/* Move the stored mailbox position up to this mail. */
static enum store_status
mail_position_advance(struct store *st, const struct service_mail_in *m)
{
	enum store_status	ss;
	int64_t			uidvalidity, last;

	ss = store_mail_state_get(st, m->mailbox, &uidvalidity, &last);
	if (ss == STORE_NOTFOUND || (ss == STORE_OK && (uidvalidity !=
	    m->uidvalidity || last < m->uid)))
		return store_mail_state_set(st, m->mailbox, m->uidvalidity,
		    m->uid);
	return ss;
}

/*
 * A mail job: seen before, nothing to do; else its action (when it has a
 * statement that passed the signature check), its answer, and its record,
 * all in this savepoint. -1 only when the store failed.
 */
static int
job_mail(struct service *svc, struct job *j, int64_t now)
{
	const struct service_mail_in	*m = j->mail;
	struct store_mail_seen		 seen;
	enum store_status		 ss;
	int				 rc = 0;

	ss = store_mail_seen_find(svc->wstore, m->mailbox, m->uidvalidity,
	    m->uid, m->message_id, NULL);
	if (ss == STORE_OK) {
		j->outcome = SERVICE_MAIL_DUPLICATE;
		if (mail_position_advance(svc->wstore, m) != STORE_OK)
			return service_store_fail(j->err, svc->wstore,
			    "record the mailbox position");
		return 0;
	}
	if (ss != STORE_NOTFOUND)
		return service_store_fail(j->err, svc->wstore,
		    "look the mail up");
	if (j->st != NULL && !j->refused) {
		if (job_game(svc, j, now) == 0)
			j->outcome = SERVICE_MAIL_APPLIED;
		else if (j->err->status == 500)
			return -1;
		else
			j->outcome = SERVICE_MAIL_REFUSED;
	} else if (j->refused)
		j->outcome = SERVICE_MAIL_REFUSED;
	else
		j->outcome = SERVICE_MAIL_NO_STATEMENT;

	if (svc->mail && j->outcome == SERVICE_MAIL_REFUSED)
		rc = mail_answer_refusal(svc, j, now);
	else if (svc->mail && j->outcome == SERVICE_MAIL_NO_STATEMENT)
		rc = mail_answer_howto(svc, j, now);
	if (rc != 0)
		return service_store_fail(j->err, svc->wstore,
		    "queue the answer");

	memset(&seen, 0, sizeof seen);
	snprintf(seen.mailbox, sizeof seen.mailbox, "%s", m->mailbox);
	seen.uidvalidity = m->uidvalidity;
	seen.uid = m->uid;
	snprintf(seen.message_id, sizeof seen.message_id, "%s",
	    m->message_id);
	snprintf(seen.sender, sizeof seen.sender, "%s", m->sender);
	seen.received = now;
	snprintf(seen.outcome, sizeof seen.outcome, "%s",
	    service_mail_outcome_name(j->outcome));
	seen.game_id = j->game_id;
	if (store_mail_seen_add(svc->wstore, &seen) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "record the mail");
	/* Where the poller got to, with the mail's effect. */
	if (mail_position_advance(svc->wstore, m) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "record the mailbox position");
	return 0;
}

/* Run one job inside the writer's transaction, in its own savepoint. */
static void
job_run(struct service *svc, struct job *j, int64_t now)
{
	int	rc;

	if (store_savepoint(svc->wstore) != STORE_OK) {
		j->rc = service_store_fail(j->err, svc->wstore,
		    "start the action");
		return;
	}
	rc = j->kind == JOB_MAIL ? job_mail(svc, j, now) :
	    job_game(svc, j, now);
	/*
	 * A refusal may still have written (the flag fell): keep what was
	 * written unless the store failed. The cache is checked against the
	 * stored head, so undone work is never trusted.
	 */
	if (rc != 0 && (j->err->status == 500 || (j->kind != JOB_MAIL &&
	    j->err->status == 404))) {
		store_rollback_to(svc->wstore);
		svc->cache[(uint64_t)j->game_id % SERVICE_CACHE_SLOTS].id = 0;
	} else if (store_release(svc->wstore) != STORE_OK) {
		rc = service_store_fail(j->err, svc->wstore,
		    "record the action");
		svc->cache[(uint64_t)j->game_id % SERVICE_CACHE_SLOTS].id = 0;
	}
	j->rc = rc;
}

/* Run a batch in one transaction; every job gets its result. */
static void
batch_run(struct service *svc, struct job *batch)
{
	struct job	*j;
	int64_t		 now = service_now(svc);
	size_t		 n = 0;

	if (store_begin(svc->wstore) != STORE_OK) {
		for (j = batch; j != NULL; j = j->next)
			j->rc = service_store_fail(j->err, svc->wstore,
			    "start a transaction");
		return;
	}
	for (j = batch; j != NULL; j = j->next, n++)
		job_run(svc, j, now);
	if (store_commit(svc->wstore) != STORE_OK) {
		service_store_fail(NULL, svc->wstore, "commit");
		store_rollback(svc->wstore);
		for (j = batch; j != NULL; j = j->next)
			j->rc = service_store_fail(j->err, svc->wstore,
			    "commit the action");
		for (j = batch; j != NULL; j = j->next)
			svc->cache[(uint64_t)j->game_id %
			    SERVICE_CACHE_SLOTS].id = 0;
	}
	metrics_inc(m_batches);
	metrics_add(m_batched, n);
}

/* The writer thread: take waiting jobs, commit them together. */
static void *
writer_main(void *arg)
{
	struct service	*svc = arg;
	struct job	*batch, *j, *last;
	int		 n;

	pthread_mutex_lock(&svc->lock);
	for (;;) {
		while (svc->head == NULL && !svc->stopping)
			pthread_cond_wait(&svc->work, &svc->lock);
		if (svc->head == NULL)
			break;
		batch = last = svc->head;
		for (n = 1; n < svc->batch_max && last->next != NULL; n++)
			last = last->next;
		svc->head = last->next;
		if (svc->head == NULL)
			svc->tail = NULL;
		last->next = NULL;
		pthread_mutex_unlock(&svc->lock);

		batch_run(svc, batch);

		pthread_mutex_lock(&svc->lock);
		for (j = batch; j != NULL; j = j->next)
			j->done = true;
		pthread_cond_broadcast(&svc->done);
	}
	pthread_mutex_unlock(&svc->lock);
	return NULL;
}

/* Queue a job and wait until its transaction committed (or failed). */
static int
job_submit(struct service *svc, struct job *j)
{
	j->next = NULL;
	j->done = false;
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		return service_fail(j->err, 503, "stopping",
		    "the server is stopping; try again in a moment");
	}
	if (svc->tail != NULL)
		svc->tail->next = j;
	else
		svc->head = j;
	svc->tail = j;
	pthread_cond_signal(&svc->work);
	while (!j->done)
		pthread_cond_wait(&svc->done, &svc->lock);
	pthread_mutex_unlock(&svc->lock);
	return j->rc;
}

/*
 * Queue `n` jobs at once, so that the writer may commit them together, and
 * wait until every one is done. -1 when the service is stopping (every job
 * gets the error); otherwise 0, each job holding its own result.
 */
static int
job_submit_all(struct service *svc, struct job *jobs, size_t n)
{
	size_t	i;

	if (n == 0)
		return 0;
	pthread_mutex_lock(&svc->lock);
	if (svc->stopping) {
		pthread_mutex_unlock(&svc->lock);
		for (i = 0; i < n; i++)
			jobs[i].rc = service_fail(jobs[i].err, 503, "stopping",
			    "the server is stopping; try again in a moment");
		return -1;
	}
	for (i = 0; i < n; i++) {
		jobs[i].next = NULL;
		jobs[i].done = false;
		if (svc->tail != NULL)
			svc->tail->next = &jobs[i];
		else
			svc->head = &jobs[i];
		svc->tail = &jobs[i];
	}
	pthread_cond_signal(&svc->work);
	for (i = 0; i < n; i++)
		while (!jobs[i].done)
			pthread_cond_wait(&svc->done, &svc->lock);
	pthread_mutex_unlock(&svc->lock);
	return 0;
}

/* --- metrics ---------------------------------------------------------- */

/* Register the refusal row of `code`; call with m_refused_lock held. */
static struct metric *
refusal_row_add(const char *code)
{
	char	name[128];

	if (m_nrefused == REFUSAL_ROWS_MAX)
		return NULL;
	snprintf(name, sizeof name,
	    "corrchess_actions_refused_total{reason=\"%s\"}", code);
	snprintf(m_refused[m_nrefused].code, sizeof m_refused[0].code, "%s",
	    code);
	if ((m_refused[m_nrefused].m = metrics_counter(name,
	    "Signed actions refused, by reason (the API error code)")) == NULL)
		return NULL;
	return m_refused[m_nrefused++].m;
}

/* Count a refused action under its reason. */
static void
refusal_count(const char *code)
{
	struct metric	*m = NULL;
	size_t		 i;

	pthread_mutex_lock(&m_refused_lock);
	for (i = 0; i < m_nrefused; i++)
		if (strcmp(m_refused[i].code, code) == 0) {
			m = m_refused[i].m;
			break;
		}
	if (m == NULL)
		m = refusal_row_add(code);
	pthread_mutex_unlock(&m_refused_lock);
	metrics_inc(m);
}

/* Count the games of one status (a gauge, read when /metrics is). */
static int64_t
games_by_status(void *arg)
{
	const char	*status = arg;
	struct store	*st;
	int64_t		 n = 0;

	pthread_mutex_lock(&gauge_lock);
	if (gauge_svc != NULL && (st = pool_get(gauge_svc, NULL)) != NULL) {
		if (store_game_count(st, status, &n) != STORE_OK) {
			log_warnx("store: count games: %s", store_errmsg(st));
			n = 0;
		}
		pool_put(gauge_svc, st);
	}
	pthread_mutex_unlock(&gauge_lock);
	return n;
}

/* Register the service's metrics, once per process. */
static void
service_metrics_init(void)
{
	size_t	i;

	m_accepted = metrics_counter("corrchess_actions_accepted_total",
	    "Signed actions accepted");
	pthread_mutex_lock(&m_refused_lock);
	for (i = 0; refusal_codes[i] != NULL; i++)
		refusal_row_add(refusal_codes[i]);
	pthread_mutex_unlock(&m_refused_lock);
	m_batches = metrics_counter("corrchess_commit_batches_total",
	    "Transactions of the action writer (group commit)");
	m_batched = metrics_counter("corrchess_commit_jobs_total",
	    "Jobs committed by the action writer");
	metrics_gauge_fn("corrchess_games{status=\"ongoing\"}",
	    "Games by status", games_by_status, (void *)"ongoing");
	metrics_gauge_fn("corrchess_games{status=\"finished\"}",
	    "Games by status", games_by_status, (void *)"finished");
}

/* --- opening and closing ---------------------------------------------- */

/* Open the service. */
struct service *
service_open(const struct service_config *cfg, char *err, size_t errsize)
{
	struct store_options	 opts = { .sync = cfg->sync };
	struct service		*svc;

	if (sig_init() != 0) {
		snprintf(err, errsize, "libsodium cannot be initialised");
		return NULL;
	}
	chess_init();
	pthread_once(&metrics_once, service_metrics_init);
	if ((svc = calloc(1, sizeof *svc)) == NULL ||
	    (svc->cache = calloc(SERVICE_CACHE_SLOTS, sizeof *svc->cache)) ==
	    NULL || (svc->views = calloc(SERVICE_VIEW_SLOTS,
	    sizeof *svc->views)) == NULL ||
	    (svc->db_path = strdup(cfg->db_path)) == NULL) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	svc->mail = cfg->mail;
	if (cfg->mail && ((svc->mail_from = strdup(cfg->mail_from ?
	    cfg->mail_from : "")) == NULL || (svc->mail_reply_to =
	    strdup(cfg->mail_reply_to ? cfg->mail_reply_to : "")) == NULL ||
	    (svc->mail_domain = strdup(cfg->mail_domain ? cfg->mail_domain :
	    "localhost")) == NULL)) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	svc->sync = cfg->sync;
	svc->batch_max = cfg->batch_max > 0 ? cfg->batch_max : 64;
	svc->leave_days = cfg->leave_days > 0 ? cfg->leave_days :
	    SERVICE_LEAVE_DAYS;
	svc->now = cfg->now;
	svc->now_arg = cfg->now_arg;
	pthread_mutex_init(&svc->pool_lock, NULL);
	pthread_mutex_init(&svc->view_lock, NULL);
	pthread_mutex_init(&svc->lock, NULL);
	pthread_cond_init(&svc->work, NULL);
	pthread_cond_init(&svc->done, NULL);
	/* The writer's handle creates or migrates the schema. */
	if ((svc->wstore = store_open_with(svc->db_path, &opts, err,
	    errsize)) == NULL)
		goto fail;
	/* ":memory:" is one database per handle: everyone shares the
	 * writer's (tests only; serialised by the pool of one). */
	if (strcmp(svc->db_path, ":memory:") == 0) {
		snprintf(err, errsize, "\":memory:\" is not supported by the "
		    "service; use a file");
		goto fail;
	}
	if (pthread_create(&svc->writer, NULL, writer_main, svc) != 0) {
		snprintf(err, errsize, "cannot start the writer thread");
		goto fail;
	}
	svc->writer_started = true;
	pthread_mutex_lock(&gauge_lock);
	if (gauge_svc == NULL)
		gauge_svc = svc;
	pthread_mutex_unlock(&gauge_lock);
	return svc;
 fail:
	service_close(svc);
	return NULL;
}

/* Stop the writer after the queued work and close everything. */
void
service_close(struct service *svc)
{
	size_t	i;

	if (svc == NULL)
		return;
	pthread_mutex_lock(&gauge_lock);
	if (gauge_svc == svc)
		gauge_svc = NULL;
	pthread_mutex_unlock(&gauge_lock);
	if (svc->writer_started) {
		pthread_mutex_lock(&svc->lock);
		svc->stopping = true;
		pthread_cond_signal(&svc->work);
		pthread_mutex_unlock(&svc->lock);
		pthread_join(svc->writer, NULL);
	}
	for (i = 0; i < svc->npool; i++)
		store_close(svc->pool[i]);
	store_close(svc->wstore);
	if (svc->cache != NULL) {
		for (i = 0; i < SERVICE_CACHE_SLOTS; i++) {
			game_free(&svc->cache[i].state);
			free(svc->cache[i].san);
		}
		free(svc->cache);
	}
	if (svc->views != NULL) {
		for (i = 0; i < SERVICE_VIEW_SLOTS; i++)
			service_game_free(&svc->views[i]);
		free(svc->views);
	}
	if (svc->db_path != NULL) {
		pthread_mutex_destroy(&svc->pool_lock);
		pthread_mutex_destroy(&svc->view_lock);
		pthread_mutex_destroy(&svc->lock);
		pthread_cond_destroy(&svc->work);
		pthread_cond_destroy(&svc->done);
	}
	free(svc->mail_from);
	free(svc->mail_reply_to);
	free(svc->mail_domain);
	free(svc->db_path);
	free(svc);
}

/* --- players ---------------------------------------------------------- */

/* Collect keys into a service_player. */
static int
collect_key(void *arg, const struct store_key *k)
{
	struct service_player	*sp = arg;
	struct store_key	*p;

	if ((p = realloc(sp->keys, (sp->nkeys + 1) * sizeof *p)) == NULL)
		return -1;
	sp->keys = p;
	sp->keys[sp->nkeys++] = *k;
	return 0;
}

/* Read a player and their keys with handle `st`. */
static int
player_read(struct store *st, const char *name, struct service_player *out,
    struct service_error *err)
{
	enum store_status	ss;

	memset(out, 0, sizeof *out);
	ss = store_player_get_by_name(st, name, &out->p);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	if (ss != STORE_OK)
		return service_store_fail(err, st, "read the player");
	if (store_key_list(st, out->p.id, collect_key, out) != STORE_OK) {
		service_player_free(out);
		return service_store_fail(err, st, "read the player's keys");
	}
	return 0;
}

/* Release a player's keys. */
void
service_player_free(struct service_player *sp)
{
	if (sp == NULL)
		return;
	free(sp->keys);
	sp->keys = NULL;
	sp->nkeys = 0;
}

/* Check a language code. */
static bool
lang_valid(const char *lang)
{
	return strcmp(lang, "en") == 0 || strcmp(lang, "fr") == 0;
}

/* Add one key to player `id`, inside the caller's transaction. */
static int
key_insert(struct store *st, int64_t player_id, const char *text,
    int64_t now, struct store_key *out, struct service_error *err)
{
	struct store_key	k;
	enum sig_error		se;
	enum store_status	ss;
	const char		*comment;

	memset(&k, 0, sizeof k);
	if (sig_pubkey_parse(text, k.pubkey, &se) != 0)
		return service_fail(err, 400, "bad-key",
		    "cannot read the key \"%.60s\": %s (give an OpenSSH line "
		    "\"ssh-ed25519 AAAA... comment\" or 32 bytes in base64)",
		    text, sig_strerror(se));
	/* The comment of an OpenSSH line: the text after the second word. */
	comment = "";
	if (strncmp(text, "ssh-ed25519 ", 12) == 0 &&
	    (comment = strchr(text + 12, ' ')) != NULL)
		comment++;
	else
		comment = "";
	snprintf(k.comment, sizeof k.comment, "%s", comment);
	k.player_id = player_id;
	k.added = now;
	ss = store_key_add(st, &k);
	if (ss == STORE_EXISTS)
		return service_fail(err, 409, "key-exists",
		    "this key is registered already");
	if (ss != STORE_OK)
		return service_store_fail(err, st, "add the key");
	if (out != NULL)
		*out = k;
	return 0;
}

/* Create a player with their keys. */
int
service_player_create(struct service *svc, const char *name,
    const char *email, const char *lang, const char *const *keys,
    size_t nkeys, struct service_player *out, struct service_error *err)
{
	struct store		*st = NULL;
	struct store_player	 p;
	enum store_status	 ss;
	int64_t			 now = service_now(svc);
	size_t			 i;
	int			 rc = -1;

	if (name == NULL || !store_name_valid(name))
		return service_fail(err, 400, "bad-player-name",
		    "a player name is 1 to 32 characters from a-z 0-9 _ . -");
	if (lang == NULL)
		lang = "en";
	if (!lang_valid(lang))
		return service_fail(err, 400, "bad-language",
		    "language must be \"en\" or \"fr\"");
	if (email == NULL)
		email = "";
	if (strlen(email) >= sizeof p.email || strchr(email, '\n') != NULL ||
	    (email[0] != '\0' && strchr(email, '@') == NULL))
		return service_fail(err, 400, "bad-email",
		    "\"%.60s\" is not an e-mail address", email);
	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "%s", name);
	snprintf(p.email, sizeof p.email, "%s", email);
	/* Addresses are compared with mail senders: keep them lower case. */
	for (i = 0; p.email[i] != '\0'; i++)
		p.email[i] = (char)tolower((unsigned char)p.email[i]);
	snprintf(p.lang, sizeof p.lang, "%s", lang);
	p.created = now;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_begin(st) != STORE_OK) {
		service_store_fail(err, st, "start a transaction");
		goto out;
	}
	ss = store_player_create(st, &p);
	if (ss == STORE_EXISTS) {
		service_fail(err, 409, "player-exists",
		    "there is a player \"%s\" already", name);
		goto rollback;
	}
	if (ss != STORE_OK) {
		service_store_fail(err, st, "create the player");
		goto rollback;
	}
	for (i = 0; i < nkeys; i++)
		if (key_insert(st, p.id, keys[i], now, NULL, err) != 0)
			goto rollback;
	if (store_commit(st) != STORE_OK) {
		service_store_fail(err, st, "commit the player");
		goto rollback;
	}
	rc = out != NULL ? player_read(st, name, out, err) : 0;
	goto out;
 rollback:
	store_rollback(st);
 out:
	pool_put(svc, st);
	return rc;
}

/* Read a player. */
int
service_player_get(struct service *svc, const char *name,
    struct service_player *out, struct service_error *err)
{
	struct store	*st;
	int		 rc;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = player_read(st, name, out, err);
	pool_put(svc, st);
	return rc;
}

/* List players. */
int
service_player_list(struct service *svc, store_player_cb cb, void *arg,
    struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_player_list(st, 0, 0, cb, arg) != STORE_OK)
		rc = service_store_fail(err, st, "list the players");
	pool_put(svc, st);
	return rc;
}

/* Register one more key for a player. */
int
service_key_add(struct service *svc, const char *name, const char *key,
    struct store_key *out, struct service_error *err)
{
	struct store		*st;
	struct store_player	 p;
	enum store_status	 ss;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_player_get_by_name(st, name, &p);
	if (ss == STORE_NOTFOUND)
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", name);
	else if (ss != STORE_OK)
		service_store_fail(err, st, "read the player");
	else
		rc = key_insert(st, p.id, key, service_now(svc), out, err);
	pool_put(svc, st);
	return rc;
}

/* Revoke a player's key: statements it signs are refused from now on. */
int
service_key_revoke(struct service *svc, const char *name, int64_t key_id,
    struct service_error *err)
{
	struct store		*st;
	struct service_player	 sp;
	size_t			 i;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (player_read(st, name, &sp, err) != 0)
		goto out;
	for (i = 0; i < sp.nkeys; i++)
		if (sp.keys[i].id == key_id)
			break;
	if (i == sp.nkeys)
		service_fail(err, 404, "no-such-key",
		    "player \"%s\" has no key %" PRId64, name, key_id);
	else if (store_key_revoke(st, key_id, service_now(svc)) != STORE_OK)
		service_store_fail(err, st, "revoke the key");
	else
		rc = 0;
	service_player_free(&sp);
 out:
	pool_put(svc, st);
	return rc;
}

/* --- games ------------------------------------------------------------ */

/* Release a game view. */
void
service_game_free(struct service_game *g)
{
	if (g == NULL)
		return;
	game_free(&g->state);
	free(g->san);
	g->san = NULL;
}

/* Copy a game view: row, state and SAN. 0, or -1 when out of memory. */
static int
view_copy(struct service_game *dst, const struct service_game *src)
{
	size_t	n = src->state.chess.nply;

	memset(dst, 0, sizeof *dst);
	dst->row = src->row;
	dst->now = src->now;
	if (game_copy(&dst->state, &src->state) != 0)
		return -1;
	if ((dst->san = malloc((n + 1) * sizeof *dst->san)) == NULL) {
		game_free(&dst->state);
		return -1;
	}
	if (n > 0)
		memcpy(dst->san, src->san, n * sizeof *dst->san);
	return 0;
}

/* Fill `out` from the view cache when it holds this row's game. */
static bool
view_get(struct service *svc, const struct store_game *row,
    struct service_game *out)
{
	struct service_game	*v = &svc->views[(uint64_t)row->id %
	    SERVICE_VIEW_SLOTS];
	bool			 hit = false;

	pthread_mutex_lock(&svc->view_lock);
	if (v->row.id == row->id && v->san != NULL &&
	    memcmp(v->row.head, row->head, STORE_HASH_LEN) == 0 &&
	    v->row.updated == row->updated)
		hit = view_copy(out, v) == 0;
	pthread_mutex_unlock(&svc->view_lock);
	if (hit)
		out->row = *row;
	return hit;
}

/* Keep a copy of a game view for later readers. */
static void
view_put(struct service *svc, const struct service_game *g)
{
	struct service_game	*v = &svc->views[(uint64_t)g->row.id %
	    SERVICE_VIEW_SLOTS];
	struct service_game	 copy;

	if (view_copy(&copy, g) != 0)
		return;
	pthread_mutex_lock(&svc->view_lock);
	service_game_free(v);
	*v = copy;
	pthread_mutex_unlock(&svc->view_lock);
}

/* Read and rebuild a game with handle `st`. */
static int
game_read(struct service *svc, struct store *st, int64_t id, int64_t now,
    struct service_game *out, struct service_error *err)
{
	enum store_status	ss;
	size_t			cap = 0;

	memset(out, 0, sizeof *out);
	out->now = now;
	ss = store_game_get(st, id, &out->row);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 404, "no-such-game",
		    "there is no game %" PRId64, id);
	if (ss != STORE_OK)
		return service_store_fail(err, st, "read the game");
	if (svc != NULL && view_get(svc, &out->row, out)) {
		out->now = now;
		return 0;
	}
	if (rebuild(st, &out->row, &out->state, &out->san, &cap, NULL,
	    err) != 0) {
		service_game_free(out);
		return -1;
	}
	if (svc != NULL)
		view_put(svc, out);
	return 0;
}

/* Read a game; a game whose flag fell is ended (and stored) first. */
int
service_game_get(struct service *svc, int64_t id, struct service_game *out,
    struct service_error *err)
{
	struct store	*st;
	struct job	 j;
	int64_t		 now = service_now(svc);
	int		 rc;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = game_read(svc, st, id, now, out, err);
	if (rc == 0 && game_ongoing(&out->state) &&
	    game_check_time(&out->state, now)) {
		service_game_free(out);
		memset(&j, 0, sizeof j);
		j.kind = JOB_FLAG;
		j.game_id = id;
		j.err = err;
		if ((rc = job_submit(svc, &j)) == 0)
			rc = game_read(svc, st, id, now, out, err);
	}
	pool_put(svc, st);
	return rc;
}

/* --- the clock -------------------------------------------------------- */

/* Games looked at per listing of the clock. */
#define SERVICE_CLOCK_BATCH	512
/* Listings per call when every one comes back full. */
#define SERVICE_CLOCK_ROUNDS	8

/*
 * Queue one job of `kind` per game of `l` at once and wait for them all;
 * count in *changed those that changed something. A game deleted meanwhile
 * is passed over; any other failure is logged, and the first one reported
 * (-1) after every job ran.
 */
static int
clock_jobs(struct service *svc, enum job_kind kind, const struct id_list *l,
    const int64_t *thresholds, size_t nthresholds, size_t *changed,
    struct service_error *err)
{
	struct job		*jobs = NULL;
	struct service_error	*errs = NULL;
	size_t			 i;
	int			 rc = 0;

	if (l->n == 0)
		return 0;
	if ((jobs = calloc(l->n, sizeof *jobs)) == NULL ||
	    (errs = calloc(l->n, sizeof *errs)) == NULL) {
		rc = service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		jobs[i].kind = kind;
		jobs[i].game_id = l->ids[i];
		jobs[i].thresholds = thresholds;
		jobs[i].nthresholds = nthresholds;
		jobs[i].err = &errs[i];
	}
	if (job_submit_all(svc, jobs, l->n) != 0) {
		rc = -1;
		if (err != NULL)
			*err = errs[0];
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		if (jobs[i].rc == 0) {
			*changed += jobs[i].changed;
			continue;
		}
		if (errs[i].status == 404)
			continue;
		log_warnx("clock: game %" PRId64 ": %s", l->ids[i],
		    errs[i].message);
		if (rc == 0 && err != NULL)
			*err = errs[i];
		rc = -1;
	}
 out:
	free(jobs);
	free(errs);
	return rc;
}

/* End every game whose flag fell. */
int
service_clock_tick(struct service *svc, size_t *ended,
    struct service_error *err)
{
	struct store		*st = NULL;
	struct id_list		 l;
	enum store_status	 ss;
	size_t			 n = 0, before;
	int			 round, rc = 0;

	memset(&l, 0, sizeof l);
	for (round = 0; round < SERVICE_CLOCK_ROUNDS && rc == 0; round++) {
		if ((st = pool_get(svc, err)) == NULL) {
			rc = -1;
			break;
		}
		l.n = l.listed = 0;
		ss = store_game_list_due(st, service_now(svc),
		    SERVICE_CLOCK_BATCH, id_collect, &l);
		if (ss != STORE_OK)
			rc = service_store_fail(err, st, "list the games due");
		else if (l.n < l.listed)
			rc = service_fail(err, 500, "internal",
			    "out of memory");
		pool_put(svc, st);
		if (rc != 0)
			break;
		before = n;
		rc = clock_jobs(svc, JOB_FLAG, &l, NULL, 0, &n, err);
		if (l.listed < SERVICE_CLOCK_BATCH || n == before)
			break;
	}
	free(l.ids);
	if (ended != NULL)
		*ended = n;
	return rc;
}

/* Order thresholds, nearest first. */
static int
threshold_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Remind the side to move of every game whose deadline comes near. */
int
service_clock_remind(struct service *svc, const int64_t *thresholds,
    size_t nthresholds, size_t *sent, struct service_error *err)
{
	struct store		*st = NULL;
	struct id_list		 l;
	enum store_status	 ss = STORE_OK;
	int64_t			 th[SERVICE_REMINDERS_MAX], now;
	size_t			 i, n = 0, nth = 0, before;
	int			 round, rc = 0;
	bool			 full;

	memset(&l, 0, sizeof l);
	if (sent != NULL)
		*sent = 0;
	if (!svc->mail)
		return 0;
	for (i = 0; i < nthresholds; i++) {
		if (thresholds[i] <= 0)
			continue;
		if (nth == SERVICE_REMINDERS_MAX)
			return service_fail(err, 400, "bad-reminders",
			    "at most %d reminder thresholds",
			    SERVICE_REMINDERS_MAX);
		th[nth++] = thresholds[i];
	}
	qsort(th, nth, sizeof th[0], threshold_cmp);
	for (i = 1, n = nth > 0; i < nth; i++)
		if (th[i] != th[n - 1])
			th[n++] = th[i];
	nth = n;
	n = 0;
	for (round = 0; round < SERVICE_CLOCK_ROUNDS && nth > 0; round++) {
		if ((st = pool_get(svc, err)) == NULL) {
			rc = -1;
			break;
		}
		now = service_now(svc);
		l.n = 0;
		full = false;
		for (i = 0; i < nth && ss == STORE_OK; i++) {
			l.listed = 0;
			ss = store_game_list_remind(st, now, th[i],
			    SERVICE_CLOCK_BATCH, id_collect, &l);
			full |= l.listed == SERVICE_CLOCK_BATCH;
		}
		if (ss != STORE_OK)
			rc = service_store_fail(err, st,
			    "list the games to remind");
		pool_put(svc, st);
		if (rc != 0)
			break;
		before = n;
		rc = clock_jobs(svc, JOB_REMIND, &l, th, nth, &n, err);
		if (rc != 0 || !full || n == before)
			break;
	}
	free(l.ids);
	if (sent != NULL)
		*sent = n;
	return rc;
}

/* List games. */
int
service_game_list(struct service *svc, const struct store_game_filter *f,
    store_game_cb cb, void *arg, struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	switch (store_game_list(st, f, cb, arg)) {
	case STORE_OK:
		break;
	case STORE_NOTFOUND:
		rc = service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", f->player ? f->player : "");
		break;
	default:
		rc = service_store_fail(err, st, "list the games");
		break;
	}
	pool_put(svc, st);
	return rc;
}

/* Walk a game's signed record in order. */
int
service_game_records(struct service *svc, int64_t id, service_record_cb cb,
    void *arg, struct service_error *err)
{
	struct store		*st;
	struct store_game	 row;
	enum store_status	 ss;
	int			 rc = -1;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_game_get(st, id, &row);
	if (ss == STORE_NOTFOUND)
		service_fail(err, 404, "no-such-game",
		    "there is no game %" PRId64, id);
	else if (ss != STORE_OK)
		service_store_fail(err, st, "read the game");
	else if (store_action_list(st, id, cb, arg) != STORE_OK)
		service_store_fail(err, st, "read the game's record");
	else
		rc = 0;
	pool_put(svc, st);
	return rc;
}

/* Copy an optional PGN tag value into a row field. */
static int
tag_copy(char dst[STORE_TAG_SIZE], const char *src, const char *name,
    struct service_error *err)
{
	if (src == NULL)
		src = "";
	if (strlen(src) >= STORE_TAG_SIZE || strpbrk(src, "\"\\\n") != NULL)
		return service_fail(err, 400, "bad-game",
		    "%s must be under %d characters, without quotes, "
		    "backslashes or line breaks", name, STORE_TAG_SIZE);
	snprintf(dst, STORE_TAG_SIZE, "%s", src);
	return 0;
}

/* Create a game (admin). */
int
service_game_create(struct service *svc, const struct service_game_params *gp,
    struct service_game *out, struct service_error *err)
{
	struct store		*st = NULL;
	struct store_game	 row;
	struct store_player	 w, b;
	struct game_params	 params;
	struct game		 g;
	struct game_tc		 tc;
	enum game_policy	 policy = GAME_POLICY_AUTO;
	enum chess_error	 ce;
	static const uint8_t	 genesis[STORE_HASH_LEN];
	const char		*variant = gp->variant ? gp->variant : "standard";
	char			 why[256];
	int64_t			 now = service_now(svc);
	int			 rc = -1, number = -1;

	memset(&row, 0, sizeof row);
	memset(&params, 0, sizeof params);
	memset(&g, 0, sizeof g);
	memset(&tc, 0, sizeof tc);
	if (gp->white == NULL || gp->black == NULL)
		return service_fail(err, 400, "bad-game",
		    "a game needs \"white\" and \"black\" player names");
	if (strcmp(gp->white, gp->black) == 0)
		return service_fail(err, 400, "bad-game",
		    "a player cannot play against themselves");
	if (strcmp(variant, "standard") == 0 && gp->chess960 >= 0)
		return service_fail(err, 400, "bad-game",
		    "a Chess960 start number needs variant \"chess960\"");
	if (strcmp(variant, "standard") == 0) {
		if (gp->fen != NULL) {
			ce = chess_fen_parse(&params.start, gp->fen, 0);
			if (ce != CHESS_OK)
				return service_fail(err, 400, "bad-fen",
				    "bad start position: %s", chess_strerror(ce));
		} else
			chess_position_start(&params.start);
	} else if (strcmp(variant, "chess960") == 0) {
		if (gp->fen != NULL) {
			ce = chess_fen_parse(&params.start, gp->fen,
			    CHESS_FEN_960);
			if (ce != CHESS_OK)
				return service_fail(err, 400, "bad-fen",
				    "bad start position: %s", chess_strerror(ce));
		} else {
			number = gp->chess960 >= 0 ? gp->chess960 :
			    (int)randombytes_uniform(960);
			if (chess_position_960(&params.start, number) !=
			    CHESS_OK)
				return service_fail(err, 400, "bad-chess960",
				    "%s", chess_strerror(CHESS_E960_NUMBER));
		}
	} else
		return service_fail(err, 400, "bad-variant",
		    "variant must be \"standard\" or \"chess960\"");
	if (game_tc_parse(&tc, gp->time_control ? gp->time_control : "none",
	    why, sizeof why) != 0)
		return service_fail(err, 400, "bad-time-control",
		    "bad time control: %s (examples: \"3d/move\", \"10/50d\", "
		    "\"30d+1d\", \"none\")", why);
	if (gp->policy != NULL && game_policy_parse(gp->policy, &policy) != 0)
		return service_fail(err, 400, "bad-policy",
		    "policy must be \"auto\" or \"claim\"");
	params.tc = tc;
	params.policy = policy;
	params.created = now;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_player_get_by_name(st, gp->white, &w) != STORE_OK) {
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", gp->white);
		goto out;
	}
	if (store_player_get_by_name(st, gp->black, &b) != STORE_OK) {
		service_fail(err, 404, "no-such-player",
		    "there is no player \"%s\"", gp->black);
		goto out;
	}
	if (game_init(&g, &params) != 0) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	row.white = w.id;
	row.black = b.id;
	snprintf(row.variant, sizeof row.variant, "%s", variant);
	row.chess960 = number;
	chess_fen_write(&params.start, row.start_fen, sizeof row.start_fen);
	game_tc_format(&tc, row.time_control, sizeof row.time_control);
	snprintf(row.policy, sizeof row.policy, "%s", game_policy_name(policy));
	if (tag_copy(row.event, gp->event, "event", err) != 0 ||
	    tag_copy(row.site, gp->site, "site", err) != 0 ||
	    tag_copy(row.round, gp->round, "round", err) != 0)
		goto out;
	row.created = now;
	/* The game and the notices of it, together; its deadline counts
	 * the leaves its players have taken. */
	if (store_begin(st) != STORE_OK) {
		service_store_fail(err, st, "start a transaction");
		goto out;
	}
	if (leaves_load(st, &row, &g, err) != 0) {
		store_rollback(st);
		goto out;
	}
	row_update_state(&row, &g, now, genesis);
	if (store_game_create(st, &row) != STORE_OK) {
		service_store_fail(err, st, "create the game");
		store_rollback(st);
		goto out;
	}
	snprintf(row.white_name, sizeof row.white_name, "%s", w.name);
	snprintf(row.black_name, sizeof row.black_name, "%s", b.name);
	if (notify(svc, st, &row, &g, NULL, NOTICE_NEW_GAME, -1, -1, now) !=
	    0 || store_commit(st) != STORE_OK) {
		service_store_fail(err, st, "create the game");
		store_rollback(st);
		goto out;
	}
	rc = out != NULL ? game_read(svc, st, row.id, now, out, err) : 0;
 out:
	game_free(&g);
	pool_put(svc, st);
	return rc;
}

/* --- signed actions --------------------------------------------------- */

/* Find the signature as received after the statement: the "signature:"
 * line, or the armored block from its BEGIN line through its END line. */
static int
signature_span(const char *text, size_t len, enum sig_form form,
    const char **startp, const char **endp)
{
	static const char	 begin_tag[] = "-----BEGIN SSH SIGNATURE-----";
	static const char	 end_tag[] = "-----END SSH SIGNATURE-----";
	const char		*p = text, *stop = text + len, *eol, *q;
	const char		*start = NULL;

	for (; p < stop; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(stop - p))) == NULL)
			eol = stop;
		for (q = p; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (form == SIG_FORM_RAW && (size_t)(eol - q) >= 10 &&
		    memcmp(q, "signature:", 10) == 0) {
			*startp = q;
			*endp = eol;
			return 0;
		}
		if (form == SIG_FORM_SSHSIG && start == NULL &&
		    (size_t)(eol - q) >= sizeof begin_tag - 1 &&
		    memcmp(q, begin_tag, sizeof begin_tag - 1) == 0)
			start = q;
		else if (start != NULL &&
		    (size_t)(eol - q) >= sizeof end_tag - 1 &&
		    memcmp(q, end_tag, sizeof end_tag - 1) == 0) {
			*startp = start;
			*endp = q + sizeof end_tag - 1;
			return 0;
		}
		if (eol == stop)
			break;
	}
	return -1;
}

/* Where the statement starts: its first "corrchess-v1" line, as the
 * parser finds it. A signature before it (a mail quoting an earlier one)
 * is not the statement's. */
static size_t
statement_offset(const char *text, size_t len)
{
	const char	*p = text, *stop = text + len, *eol, *e;

	for (; p < stop; p = eol + 1) {
		for (eol = p; eol < stop && *eol != '\n' && *eol != '\r'; eol++)
			;
		for (e = eol; e > p && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		if ((size_t)(e - p) == sizeof SIG_HEADER - 1 &&
		    memcmp(p, SIG_HEADER, sizeof SIG_HEADER - 1) == 0)
			return (size_t)(p - text);
		if (eol == stop)
			break;
	}
	return 0;
}

/* Copy the signature as received, lines ending in one LF, without CR or
 * trailing white space. */
static int
signature_text(const char *text, size_t len, enum sig_form form, char *buf,
    size_t size)
{
	const char	*start, *end, *p, *eol, *e;
	size_t		 o = 0, off = statement_offset(text, len);

	if (signature_span(text + off, len - off, form, &start, &end) != 0)
		return -1;
	for (p = start; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		for (e = eol; e > p && (e[-1] == '\r' || e[-1] == ' ' ||
		    e[-1] == '\t'); e--)
			;
		if (o + (size_t)(e - p) + 2 > size)
			return -1;
		memcpy(buf + o, p, (size_t)(e - p));
		o += (size_t)(e - p);
		buf[o++] = '\n';
		if (eol == end)
			break;
	}
	buf[o] = '\0';
	return 0;
}

/* Verify a statement's signature against the player's keys. */
static int
verify(const struct sig_statement *st, const struct sig_signature *sg,
    const struct service_player *sp, int64_t *key_id,
    struct service_error *err)
{
	uint8_t		(*keys)[SIG_PUBKEY_BYTES] = NULL;
	int64_t		*ids = NULL;
	size_t		 n = 0, i, which;
	enum sig_error	 se, valid_se = SIG_EBADSIG;
	int		 pass, rc = -1;

	if ((keys = calloc(sp->nkeys + 1, sizeof *keys)) == NULL ||
	    (ids = calloc(sp->nkeys + 1, sizeof *ids)) == NULL) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	/* First the valid keys, then the revoked ones, to say which. */
	for (pass = 0; pass < 2; pass++) {
		n = 0;
		for (i = 0; i < sp->nkeys; i++) {
			if ((sp->keys[i].revoked != 0) != (pass == 1))
				continue;
			memcpy(keys[n], sp->keys[i].pubkey, SIG_PUBKEY_BYTES);
			ids[n++] = sp->keys[i].id;
		}
		if (sig_signature_verify(st, sg, (const uint8_t (*)[32])keys,
		    n, &which, &se) == 0) {
			if (pass == 1) {
				service_fail(err, 403, "key-revoked",
				    "the statement is signed with a key of %s "
				    "that was revoked", st->player);
				goto out;
			}
			*key_id = ids[which];
			rc = 0;
			goto out;
		}
		if (se == SIG_ENAMESPACE) {
			service_fail(err, 403, "wrong-namespace",
			    "the SSH signature was made for another namespace: "
			    "sign with ssh-keygen -Y sign -n corrchess");
			goto out;
		}
		if (pass == 0 && se != SIG_EKEY_MISMATCH && se != SIG_EBADSIG) {
			service_fail(err, 400, "bad-signature",
			    "the signature cannot be read: %s",
			    sig_strerror(se));
			goto out;
		}
		if (pass == 0)
			valid_se = se;
	}
	/* Judge by the valid keys: an SSH signature by one of them that
	 * does not verify is a bad signature, not an unknown key. */
	if (sg->form == SIG_FORM_SSHSIG && valid_se == SIG_EKEY_MISMATCH)
		service_fail(err, 403, "unknown-key",
		    "the statement is signed with a key that is not registered "
		    "for %s", st->player);
	else
		service_fail(err, 403, "bad-signature",
		    "the signature does not match this statement and any key of "
		    "%s", st->player);
 out:
	free(keys);
	free(ids);
	return rc;
}

/* A statement checked on the caller's thread, ready for the writer. */
struct prepared {
	struct sig_statement	st;
	struct sig_signature	sg;
	struct service_player	sp;
	int64_t			key_id;
	char			sigtext[SIG_SSHSIG_ARMOR_SIZE + 128];
	char			canon[SIG_STATEMENT_MAX + 1];
};

/*
 * Parse a statement and check its signature against the player's keys;
 * `game_id` is the game the front door expects (0: any). On failure `err`
 * says why; p->st.player is set when the statement parsed.
 */
static int
prepare(struct service *svc, int64_t game_id, const char *text, size_t len,
    struct prepared *p, struct service_error *err)
{
	struct store	*rs;
	enum sig_error	 se;
	const char	*code;
	int		 rc;

	memset(&p->sp, 0, sizeof p->sp);
	p->st.player[0] = '\0';
	p->st.game = 0;
	if (sig_statement_parse(text, len, &p->st, &p->sg, &se) != 0) {
		code = se == SIG_ENOSIG ? "no-signature" :
		    se >= SIG_EBASE64 && se <= SIG_ESSHSIG_HASH ?
		    "bad-signature" : "bad-statement";
		if (p->st.line != 0)
			return service_fail(err, 400, code,
			    "line %u of the %s: %s", p->st.line,
			    strcmp(code, "bad-statement") == 0 ? "statement" :
			    "text", sig_strerror(se));
		return service_fail(err, 400, code, "%s", sig_strerror(se));
	}
	if (game_id != 0 && (int64_t)p->st.game != game_id)
		return service_fail(err, 400, "wrong-game",
		    "the statement is for game %" PRIu64 ", not game %" PRId64,
		    p->st.game, game_id);
	if (signature_text(text, len, p->sg.form, p->sigtext,
	    sizeof p->sigtext) != 0)
		return service_fail(err, 400, "bad-signature",
		    "the signature block cannot be read");
	memcpy(p->canon, p->st.canon, p->st.canon_len);
	p->canon[p->st.canon_len] = '\0';

	if ((rs = pool_get(svc, err)) == NULL)
		return -1;
	rc = player_read(rs, p->st.player, &p->sp, err);
	pool_put(svc, rs);
	if (rc != 0) {
		if (err->status == 404)
			service_fail(err, 403, "unknown-player",
			    "there is no player \"%s\" on this server",
			    p->st.player);
		return -1;
	}
	return verify(&p->st, &p->sg, &p->sp, &p->key_id, err);
}

/* Fill a job from a prepared statement. */
static void
job_from_prepared(struct job *j, enum job_kind kind, struct prepared *p,
    const char *source, struct service_error *err)
{
	memset(j, 0, sizeof *j);
	j->kind = kind;
	j->game_id = (int64_t)p->st.game;
	j->st = &p->st;
	j->stmt = p->canon;
	j->sg = &p->sg;
	j->sigtext = p->sigtext;
	j->player_id = p->sp.p.id;
	j->key_id = p->key_id;
	j->lang = player_lang(&p->sp.p);
	j->source = source;
	j->err = err;
}

/* Submit a signed statement. */
int
service_submit(struct service *svc, int64_t game_id, const char *text,
    size_t len, const char *source, struct service_game *out,
    struct service_error *err)
{
	struct prepared		*p;
	struct job		 j;
	struct service_error	 local;
	int			 rc = -1;
	bool			 accepted = false;

	if (err == NULL)
		err = &local;
	memset(err, 0, sizeof *err);
	if ((p = calloc(1, sizeof *p)) == NULL) {
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	if (prepare(svc, game_id, text, len, p, err) != 0)
		goto out;
	job_from_prepared(&j, JOB_ACTION, p, source != NULL ? source : "http",
	    err);
	j.result = out;
	if (job_submit(svc, &j) != 0) {
		if (j.has_result)
			service_game_free(out);
		goto out;
	}
	accepted = true;
	rc = 0;
	if (out != NULL && j.has_result)
		view_put(svc, out);
	else if (out != NULL && service_game_get(svc, (int64_t)p->st.game,
	    out, err) != 0)
		rc = -1;
 out:
	if (accepted)
		metrics_inc(m_accepted);
	else
		refusal_count(err->code[0] != '\0' ? err->code : "internal");
	if (p != NULL)
		service_player_free(&p->sp);
	free(p);
	return rc;
}

/* Name a mail outcome. */
const char *
service_mail_outcome_name(enum service_mail_outcome o)
{
	switch (o) {
	case SERVICE_MAIL_APPLIED:
		return "applied";
	case SERVICE_MAIL_REFUSED:
		return "refused";
	case SERVICE_MAIL_NO_STATEMENT:
		return "no-statement";
	case SERVICE_MAIL_DUPLICATE:
		return "duplicate";
	}
	return "unknown";
}

/* Handle one mail from the move mailbox. */
int
service_mail(struct service *svc, const struct service_mail_in *m,
    enum service_mail_outcome *outcome, struct service_error *err)
{
	struct service_error	 local;

	if (err == NULL)
		err = &local;
	return service_mail_many(svc, m, 1, outcome, err);
}

/*
 * Make the job of one mail: its statement parsed and its signature checked
 * here, on the caller's thread. -1 only for an internal failure.
 */
static int
mail_job_prepare(struct service *svc, const struct service_mail_in *m,
    struct prepared *p, struct job *j, struct service_error *err)
{
	memset(err, 0, sizeof *err);
	memset(j, 0, sizeof *j);
	if (m->statement != NULL) {
		if (prepare(svc, 0, m->statement, m->statement_len, p,
		    err) != 0) {
			if (err->status == 500)
				return -1;
			j->refused = true;
		}
		job_from_prepared(j, JOB_MAIL, p, "mail", err);
		/* Before the writer, only a parsed statement may be kept. */
		if (j->refused && p->st.player[0] == '\0')
			j->st = NULL;
		j->refused = err->code[0] != '\0';
	} else
		j->err = err;
	j->kind = JOB_MAIL;
	j->mail = m;
	return 0;
}

/* Handle `n` mails, queued together so that they commit together. */
int
service_mail_many(struct service *svc, const struct service_mail_in *ins,
    size_t n, enum service_mail_outcome *outcomes,
    struct service_error *errs)
{
	struct prepared		*p = NULL;
	struct job		*jobs = NULL, one;
	size_t			*at = NULL, i, nq = 0;
	int			 rc = 0;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		memset(&errs[i], 0, sizeof errs[i]);
	if ((p = calloc(n, sizeof *p)) == NULL ||
	    (jobs = calloc(n, sizeof *jobs)) == NULL ||
	    (at = calloc(n, sizeof *at)) == NULL) {
		for (i = 0; i < n; i++)
			service_fail(&errs[i], 500, "internal",
			    "out of memory");
		rc = -1;
		goto out;
	}
	/* The prepared jobs side by side, in the mails' order. */
	for (i = 0; i < n; i++) {
		if (mail_job_prepare(svc, &ins[i], &p[i], &one,
		    &errs[i]) != 0) {
			rc = -1;
			continue;
		}
		at[nq] = i;
		jobs[nq++] = one;
	}
	if (job_submit_all(svc, jobs, nq) != 0)
		rc = -1;
	for (i = 0; i < nq; i++) {
		if (jobs[i].rc != 0) {
			rc = -1;
			continue;
		}
		outcomes[at[i]] = jobs[i].outcome;
		if (jobs[i].outcome == SERVICE_MAIL_APPLIED)
			metrics_inc(m_accepted);
		else if (jobs[i].outcome == SERVICE_MAIL_REFUSED)
			refusal_count(errs[at[i]].code[0] != '\0' ?
			    errs[at[i]].code : "internal");
	}
 out:
	if (p != NULL) {
		for (i = 0; i < n; i++)
			service_player_free(&p[i].sp);
	}
	free(p);
	free(jobs);
	free(at);
	return rc;
}

/* Where polling a mailbox got to (0, 0 the first time). */
int
service_mail_position(struct service *svc, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid, struct service_error *err)
{
	struct store		*st;
	enum store_status	 ss;
	int			 rc = 0;

	*uidvalidity = *last_uid = 0;
	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	ss = store_mail_state_get(st, mailbox, uidvalidity, last_uid);
	if (ss != STORE_OK && ss != STORE_NOTFOUND)
		rc = service_store_fail(err, st, "read the mailbox position");
	pool_put(svc, st);
	return rc;
}

/* Walk the outbox's due mails. */
int
service_outbox_due(struct service *svc, int64_t limit, service_outbox_cb cb,
    void *arg, struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_outbox_due(st, service_now(svc), limit, cb, arg) !=
	    STORE_OK)
		rc = service_store_fail(err, st, "read the outbox");
	pool_put(svc, st);
	return rc;
}

/* Mark an outgoing mail sent. */
int
service_outbox_sent(struct service *svc, int64_t id,
    struct service_error *err)
{
	struct store	*st;
	int		 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (store_outbox_sent(st, id, service_now(svc)) != STORE_OK)
		rc = service_store_fail(err, st, "mark a mail sent");
	pool_put(svc, st);
	return rc;
}

/* Note a failed sending attempt: retry later, or give it up. */
int
service_outbox_failed(struct service *svc, int64_t id, int64_t retry_at,
    const char *why, struct service_error *err)
{
	struct store		*st;
	enum store_status	 ss;
	int			 rc = 0;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	if (retry_at != 0)
		ss = store_outbox_retry(st, id, retry_at, why);
	else
		ss = store_outbox_failed(st, id, service_now(svc), why);
	if (ss != STORE_OK)
		rc = service_store_fail(err, st, "note a failed mail");
	pool_put(svc, st);
	return rc;
}

/* --- PGN export ------------------------------------------------------- */

/* Append one record of the signed record to the PGN comment. */
static int
rec_one(void *arg, const struct store_action *a)
{
	struct buf	*r = arg;
	char		 hex[STORE_HASH_LEN * 2 + 1];

	sodium_bin2hex(hex, sizeof hex, a->hash, STORE_HASH_LEN);
	buf_addf(r, "\nrecord %" PRId64 " (%s, %s):\n", a->seq, a->kind,
	    a->source);
	if (a->statement != NULL)
		buf_adds(r, a->statement);
	if (a->signature != NULL)
		buf_adds(r, a->signature);
	buf_addf(r, "hash: %s\n", hex);
	return r->failed ? -1 : 0;
}

/*
 * The game as PGN, its signed record in a comment before the result; the
 * records are read with handle `st` (the writer's sees its own work).
 */
static char *
pgn_text(struct store *st, const struct store_game *row, const struct game *g,
    size_t *lenp)
{
	struct chess_pgn_game	 pg;
	struct buf		 rec = { 0 }, outb = { 0 };
	char			*pgn = NULL, *res = NULL;
	char			 date[16], num[32];
	size_t			 plen = 0, i, rlen;
	struct tm		 tm;
	time_t			 t;

	memset(&pg, 0, sizeof pg);
	if (store_action_list(st, row->id, rec_one, &rec) != STORE_OK)
		goto out;
	t = (time_t)row->created;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	snprintf(num, sizeof num, "%" PRId64, row->id);
	if (chess_game_init(&pg.game, &g->chess.start) != 0)
		goto out;
	for (i = 0; i < g->chess.nply; i++)
		if (chess_game_push(&pg.game, g->chess.moves[i]) != 0)
			goto out;
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
	if (row->time_control[0] != '\0' &&
	    strcmp(row->time_control, "none") != 0 &&
	    chess_pgn_set_tag(&pg, "CorrespondenceTimeControl",
	    row->time_control) != 0)
		goto out;
	if (!game_ongoing(g) && chess_pgn_set_tag(&pg, "Termination",
	    game_termination_pgn(g->termination)) != 0)
		goto out;
	if ((pgn = chess_pgn_write(&pg, &plen)) == NULL || rec.failed)
		goto out;
	/* Insert the record comment before the final result token. */
	rlen = strlen(pg.result);
	while (plen > 0 && (pgn[plen - 1] == '\n' || pgn[plen - 1] == ' '))
		plen--;
	if (plen < rlen)
		goto out;
	buf_add(&outb, pgn, plen - rlen);
	if (rec.len > 0)
		buf_addf(&outb, "{corrchess signed record%s}\n", rec.data);
	buf_addf(&outb, "%s\n\n", pg.result);
	res = buf_take(&outb, lenp);
 out:
	free(pgn);
	buf_free(&rec);
	buf_free(&outb);
	chess_pgn_game_free(&pg);
	return res;
}

/* The game as PGN with its signed record. */
char *
service_game_pgn(struct service *svc, int64_t id, size_t *lenp,
    struct service_error *err)
{
	struct service_game	 g;
	struct store		*st;
	char			*res = NULL;

	if (service_game_get(svc, id, &g, err) != 0)
		return NULL;
	if ((st = pool_get(svc, err)) != NULL) {
		if ((res = pgn_text(st, &g.row, &g.state, lenp)) == NULL)
			service_fail(err, 500, "internal",
			    "the game cannot be exported; try again later");
		pool_put(svc, st);
	}
	service_game_free(&g);
	return res;
}

/*
 * Copy the database with SQLite's online backup API (writers go on
 * meanwhile) into an unlinked file next to it; *fdp is that file, open for
 * reading at its start, *sizep its size.
 */
int
service_backup(struct service *svc, int *fdp, int64_t *sizep,
    struct service_error *err)
{
	struct store	*st = NULL;
	struct stat	 sb;
	char		*path = NULL;
	int		 fd = -1, rc = -1;

	*fdp = -1;
	if (asprintf(&path, "%s.backup-XXXXXX", strcmp(svc->db_path,
	    ":memory:") == 0 ? "/tmp/corrchess" : svc->db_path) == -1) {
		path = NULL;
		service_fail(err, 500, "internal", "out of memory");
		goto out;
	}
	if ((fd = mkstemp(path)) == -1) {
		log_warn("backup: %s", path);
		service_fail(err, 500, "internal",
		    "the server cannot write a backup file; try again later");
		free(path);
		path = NULL;
		goto out;
	}
	close(fd);
	fd = -1;
	if ((st = pool_get(svc, err)) == NULL)
		goto out;
	if (store_backup(st, path) != STORE_OK) {
		service_store_fail(err, st, "copy its database");
		goto out;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &sb) == -1) {
		log_warn("backup: %s", path);
		service_fail(err, 500, "internal",
		    "the server cannot read its backup; try again later");
		goto out;
	}
	*fdp = fd;
	*sizep = (int64_t)sb.st_size;
	fd = -1;
	rc = 0;
 out:
	pool_put(svc, st);
	if (fd != -1)
		close(fd);
	if (path != NULL)
		unlink(path);
	free(path);
	return rc;
}
