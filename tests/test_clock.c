/*
 * tests/test_clock.c: tests of the clock thread and the clock work of the service.
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
 * Clocks that count without anyone looking: the service's clock tick ends
 * games whose flag fell (a loss, or a draw by FIDE 6.9), records the flag
 * and tells both players, once however often it runs; reminders go to the
 * side to move at 3 days and 1 day left, in the player's language, once
 * per move and threshold; the clock thread does the same on its own. The
 * service runs on a real SQLite file with a clock the tests move; the
 * database is read back through a store handle of its own, so that no
 * service read ends a game on the tests' behalf.
 */

#include "config.h"

#include <ctype.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "testpg.h"

#include "daemon/clock.h"
#include "service/service.h"

#define T0		INT64_C(1780000000)	/* 2026-05-28 */
#define HOUR		INT64_C(3600)
#define DAY		INT64_C(86400)

enum { K_ALICE, K_BOB, K_COUNT };

struct fx {
	char		 dir[256];
	char		 db[512];
	struct service	*svc;
	struct store	*st;		/* the tests' own view */
	_Atomic int64_t	 now;
	uint8_t		 pk[K_COUNT][SIG_PUBKEY_BYTES];
	uint8_t		 sk[K_COUNT][SIG_SECKEY_BYTES];
};

/* The clock the service reads. */
static int64_t
fx_clock(void *arg)
{
	struct fx	*fx = arg;

	return atomic_load(&fx->now);
}

/* Create a player with an address, a language and one key, or fail. */
static void
player_make(struct fx *fx, const char *name, const char *email,
    const char *lang, int k)
{
	struct service_player	 sp;
	struct service_error	 err;
	char			 key[256];
	const char		*keys[1] = { key };

	assert_int_equal(sig_pubkey_format(fx->pk[k], "test key", key,
	    sizeof key), 0);
	if (service_player_create(fx->svc, name, email, lang, keys, 1, &sp,
	    &err) != 0)
		fail_msg("player %s: %s %s", name, err.code, err.message);
	service_player_free(&sp);
}

/* The fixture: a temporary database, the service with mail on, alice
 * (English) and bob (French). */
static int
setup(void **state)
{
	struct service_config	 cfg;
	struct fx		*fx;
	char			 err[256];
	int			 k;

	fx = calloc(1, sizeof *fx);
	assert_non_null(fx);
	test_mkdtemp(fx->dir, sizeof fx->dir, "test_clock");
	test_db_in(fx->db, sizeof fx->db, fx->dir);
	atomic_store(&fx->now, T0);
	for (k = 0; k < K_COUNT; k++)
		assert_int_equal(sig_keypair(fx->pk[k], fx->sk[k]), 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.db_path = fx->db;
	cfg.sync = STORE_SYNC_NORMAL;
	cfg.mail = true;
	cfg.mail_from = "corrchess <chess@club.example>";
	cfg.mail_domain = "club.example";
	cfg.now = fx_clock;
	cfg.now_arg = fx;
	if ((fx->svc = service_open(&cfg, err, sizeof err)) == NULL)
		fail_msg("service_open: %s", err);
	if ((fx->st = store_open(fx->db, err, sizeof err)) == NULL)
		fail_msg("store_open: %s", err);
	player_make(fx, "alice", "alice@example.org", "en", K_ALICE);
	player_make(fx, "bob", "bob@example.org", "fr", K_BOB);
	*state = fx;
	return 0;
}

/* Close everything and remove the directory. */
static int
teardown(void **state)
{
	struct fx	*fx = *state;

	store_close(fx->st);
	service_close(fx->svc);
	test_rmdir(fx->dir);
	free(fx);
	return 0;
}

/* Create a game alice (white) v bob at the fixture's now; its id. */
static int64_t
game_make(struct fx *fx, const char *tc, const char *fen)
{
	struct service_game_params	gp;
	struct service_game		g;
	struct service_error		err;
	int64_t				id;

	memset(&gp, 0, sizeof gp);
	gp.white = "alice";
	gp.black = "bob";
	gp.chess960 = -1;
	gp.time_control = tc;
	gp.fen = fen;
	if (service_game_create(fx->svc, &gp, &g, &err) != 0)
		fail_msg("game: %s %s", err.code, err.message);
	id = g.row.id;
	service_game_free(&g);
	return id;
}

/* Sign and submit an action; its result, the refusal in `err`. */
static int
submit(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, int k, struct service_error *err)
{
	struct sig_statement	st;
	enum sig_error		e;
	char			buf[SIG_SIGNED_SIZE];

	memset(&st, 0, sizeof st);
	st.game = (uint64_t)game;
	st.ply = ply;
	snprintf(st.player, sizeof st.player, "%s", player);
	if (sig_action_parse(action, strlen(action), &st.action, &e) != 0 ||
	    sig_statement_build(&st, &e) != 0 ||
	    sig_statement_sign(&st, fx->sk[k], SIG_FORM_RAW, buf, sizeof buf,
	    &e) != 0)
		fail_msg("signing \"%s\": %s", action, sig_strerror(e));
	memset(err, 0, sizeof *err);
	return service_submit(fx->svc, game, buf, strlen(buf), "http", NULL,
	    err);
}

/* Sign and submit an action that must be accepted. */
static void
play(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, int k)
{
	struct service_error	err;

	if (submit(fx, game, ply, player, action, k, &err) != 0)
		fail_msg("%s \"%s\" refused: %s: %s", player, action, err.code,
		    err.message);
}

/* Sign and submit an action that must be refused with `code`. */
static void
refused(struct fx *fx, int64_t game, uint32_t ply, const char *player,
    const char *action, int k, const char *code)
{
	struct service_error	err;

	if (submit(fx, game, ply, player, action, k, &err) == 0)
		fail_msg("%s \"%s\" accepted", player, action);
	if (strcmp(err.code, code) != 0)
		fail_msg("%s \"%s\": %s (%s), not %s", player, action,
		    err.code, err.message, code);
}

/* The stored row of a game, read without the service. */
static void
row_read(struct fx *fx, int64_t id, struct store_game *row)
{
	assert_int_equal(store_game_get(fx->st, id, row), STORE_OK);
}

/* Records of a game: how many, and how many "flag" ones from the clock. */
struct records {
	int	n;
	int	flags;
	char	last_kind[STORE_KIND_SIZE];
};

/* Count one record. */
static int
record_count(void *arg, const struct store_action *a)
{
	struct records	*r = arg;

	r->n++;
	if (strcmp(a->kind, "flag") == 0) {
		r->flags++;
		assert_string_equal(a->source, "clock");
		assert_int_equal(a->player_id, 0);
	}
	snprintf(r->last_kind, sizeof r->last_kind, "%s", a->kind);
	return 0;
}

/* Read a game's records. */
static void
records_read(struct fx *fx, int64_t id, struct records *r)
{
	memset(r, 0, sizeof *r);
	assert_int_equal(store_action_list(fx->st, id, record_count, r),
	    STORE_OK);
}

/* The mails of the outbox: kind, recipient, decoded text. */
#define MAILS_MAX	32
struct mails {
	size_t	n;
	struct {
		char	 kind[STORE_MAILKIND_SIZE];
		char	 to[STORE_ADDR_SIZE];
		int64_t	 game;
		char	*text;		/* quoted-printable undone */
	}	m[MAILS_MAX];
};

/* Undo quoted-printable (soft breaks and =XX) in a malloc'd copy. */
static char *
qp_decode(const char *s)
{
	char		*out = malloc(strlen(s) + 1), *o = out;
	unsigned	 x;

	assert_non_null(out);
	while (*s != '\0') {
		if (s[0] == '=' && s[1] == '\r' && s[2] == '\n')
			s += 3;
		else if (s[0] == '=' && s[1] == '\n')
			s += 2;
		else if (s[0] == '=' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2]) &&
		    sscanf(s + 1, "%2x", &x) == 1) {
			*o++ = (char)x;
			s += 3;
		} else
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/* Keep one queued mail. */
static int
mail_keep(void *arg, const struct store_outbox *o)
{
	struct mails	*ms = arg;

	assert_true(ms->n < MAILS_MAX);
	snprintf(ms->m[ms->n].kind, sizeof ms->m[0].kind, "%s", o->kind);
	snprintf(ms->m[ms->n].to, sizeof ms->m[0].to, "%s", o->recipient);
	ms->m[ms->n].game = o->game_id;
	ms->m[ms->n].text = qp_decode(o->message);
	ms->n++;
	return 0;
}

/* Read the outbox. */
static void
mails_read(struct fx *fx, struct mails *ms)
{
	struct service_error	err;

	memset(ms, 0, sizeof *ms);
	if (service_outbox_due(fx->svc, 0, mail_keep, ms, &err) != 0)
		fail_msg("outbox: %s", err.message);
}

/* Free the texts. */
static void
mails_free(struct mails *ms)
{
	size_t	i;

	for (i = 0; i < ms->n; i++)
		free(ms->m[i].text);
}

/* Mails of a kind to an address about a game; the last one in *text. */
static int
mails_count(const struct mails *ms, const char *kind, const char *to,
    int64_t game, const char **text)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].kind, kind) == 0 &&
		    strcmp(ms->m[i].to, to) == 0 && ms->m[i].game == game) {
			n++;
			if (text != NULL)
				*text = ms->m[i].text;
		}
	return n;
}

/* Run a tick that must succeed; the number of games it ended. */
static size_t
tick(struct fx *fx)
{
	struct service_error	err;
	size_t			n = 99;

	if (service_clock_tick(fx->svc, &n, &err) != 0)
		fail_msg("tick: %s %s", err.code, err.message);
	return n;
}

/* The default reminders, 3 days and 1 day (given in either order). */
static const int64_t	reminders[] = { DAY, 3 * DAY };

/* Run the reminders; the number queued. */
static size_t
remind(struct fx *fx)
{
	struct service_error	err;
	size_t			n = 99;

	if (service_clock_remind(fx->svc, reminders, 2, &n, &err) != 0)
		fail_msg("remind: %s %s", err.code, err.message);
	return n;
}

/* --- ending games on time --------------------------------------------- */

/* A "1d/move" game nobody touches is lost on time by the side to move. */
static void
test_tick_ends_game(void **state)
{
	struct fx		*fx = *state;
	struct store_game	 row;
	struct records		 r;
	struct mails		 ms;
	const char		*text = NULL;
	int64_t			 id = game_make(fx, "1d/move", NULL);

	play(fx, id, 0, "alice", "move e4", K_ALICE);
	atomic_store(&fx->now, T0 + 2 * HOUR);
	play(fx, id, 1, "bob", "move e5", K_BOB);

	/* Not yet: alice has until T0 + 2h + 1d. */
	atomic_store(&fx->now, T0 + 2 * HOUR + DAY - 1);
	assert_int_equal(tick(fx), 0);
	row_read(fx, id, &row);
	assert_string_equal(row.status, "ongoing");

	atomic_store(&fx->now, T0 + 5 * DAY);
	assert_int_equal(tick(fx), 1);
	row_read(fx, id, &row);
	assert_string_equal(row.status, "finished");
	assert_string_equal(row.result, "0-1");
	assert_string_equal(row.termination, "timeout");
	assert_int_equal(row.deadline, 0);
	records_read(fx, id, &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.flags, 1);
	assert_string_equal(r.last_kind, "flag");

	/* Both players are told, each in their language. */
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "game-over", "alice@example.org", id,
	    &text), 1);
	assert_non_null(strstr(text, "The game is over: 0-1"));
	assert_int_equal(mails_count(&ms, "game-over", "bob@example.org", id,
	    &text), 1);
	assert_non_null(strstr(text, "La partie est termin\xc3\xa9" "e : 0-1"));
	mails_free(&ms);

	/* Ticks are idempotent: nothing more is ended, recorded or sent. */
	assert_int_equal(tick(fx), 0);
	atomic_store(&fx->now, T0 + 9 * DAY);
	assert_int_equal(tick(fx), 0);
	records_read(fx, id, &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.flags, 1);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "game-over", "alice@example.org", id,
	    NULL), 1);
	assert_int_equal(mails_count(&ms, "game-over", "bob@example.org", id,
	    NULL), 1);
	mails_free(&ms);
}

/* The flag falls against a lone king: a draw (FIDE 6.9). */
static void
test_tick_draw_lone_king(void **state)
{
	struct fx		*fx = *state;
	struct store_game	 row;
	struct records		 r;
	int64_t			 id;

	/* White, to move, has king and pawn; black a lone king. */
	id = game_make(fx, "1d/move", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
	atomic_store(&fx->now, T0 + DAY);
	assert_int_equal(tick(fx), 1);
	row_read(fx, id, &row);
	assert_string_equal(row.status, "finished");
	assert_string_equal(row.result, "1/2-1/2");
	assert_string_equal(row.termination, "timeout-insufficient");
	records_read(fx, id, &r);
	assert_int_equal(r.flags, 1);

	/* Black with the pawn, white's flag falls: black wins. */
	id = game_make(fx, "1d/move", "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(tick(fx), 1);
	row_read(fx, id, &row);
	assert_string_equal(row.result, "0-1");
	assert_string_equal(row.termination, "timeout");
}

/* One tick ends every game due, and only those. */
static void
test_tick_many(void **state)
{
	struct fx		*fx = *state;
	struct store_game	 row;
	int64_t			 due[5], later, none;
	size_t			 i;

	for (i = 0; i < 5; i++)
		due[i] = game_make(fx, "2d/move", NULL);
	later = game_make(fx, "10d/move", NULL);
	none = game_make(fx, NULL, NULL);
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(tick(fx), 5);
	for (i = 0; i < 5; i++) {
		row_read(fx, due[i], &row);
		assert_string_equal(row.status, "finished");
		assert_string_equal(row.termination, "timeout");
	}
	row_read(fx, later, &row);
	assert_string_equal(row.status, "ongoing");
	row_read(fx, none, &row);
	assert_string_equal(row.status, "ongoing");
	assert_int_equal(tick(fx), 0);
}

/* --- reminders --------------------------------------------------------- */

/* At 3 days and at 1 day left, once each per move; again after a move. */
static void
test_reminders(void **state)
{
	struct fx		*fx = *state;
	struct mails		 ms;
	const char		*text = NULL;
	int64_t			 id = game_make(fx, "5d/move", NULL);
	int64_t			 sent_at = -1;

	/* Four days left: nothing. */
	atomic_store(&fx->now, T0 + DAY);
	assert_int_equal(remind(fx), 0);

	/* Under three days: alice, to move, is reminded once. */
	atomic_store(&fx->now, T0 + 2 * DAY + HOUR);
	assert_int_equal(remind(fx), 1);
	assert_int_equal(remind(fx), 0);
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(remind(fx), 0);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org", id,
	    &text), 1);
	assert_non_null(strstr(text, "It is your move, and your time runs "
	    "out"));
	assert_int_equal(mails_count(&ms, "reminder", "bob@example.org", id,
	    NULL), 0);
	mails_free(&ms);
	assert_int_equal(store_reminder_get(fx->st, id, 0, 3 * DAY, &sent_at),
	    STORE_OK);
	assert_int_equal(sent_at, T0 + 2 * DAY + HOUR);
	assert_int_equal(store_reminder_get(fx->st, id, 0, DAY, NULL),
	    STORE_NOTFOUND);

	/* Under one day: the second one, once. */
	atomic_store(&fx->now, T0 + 4 * DAY + HOUR);
	assert_int_equal(remind(fx), 1);
	assert_int_equal(remind(fx), 0);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org", id,
	    NULL), 2);
	mails_free(&ms);

	/* Alice moves: bob's clock, bob's reminders, in French. */
	play(fx, id, 0, "alice", "move e4", K_ALICE);
	assert_int_equal(remind(fx), 0);
	atomic_store(&fx->now, T0 + 6 * DAY + 2 * HOUR);
	assert_int_equal(remind(fx), 1);
	assert_int_equal(remind(fx), 0);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "bob@example.org", id,
	    &text), 1);
	assert_non_null(strstr(text, "C'est \xc3\xa0 vous de jouer"));
	assert_null(strstr(text, "It is your move"));
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org", id,
	    NULL), 2);
	mails_free(&ms);

	/* Bob moves: alice's reminders start over at the new move. */
	play(fx, id, 1, "bob", "move e5", K_BOB);
	atomic_store(&fx->now, T0 + 8 * DAY + 3 * HOUR);
	assert_int_equal(remind(fx), 1);
	atomic_store(&fx->now, T0 + 10 * DAY + 3 * HOUR);
	assert_int_equal(remind(fx), 1);
	assert_int_equal(remind(fx), 0);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org", id,
	    NULL), 4);
	assert_int_equal(mails_count(&ms, "reminder", "bob@example.org", id,
	    NULL), 1);
	mails_free(&ms);
}

/* Count listed games. */
static int
count_listed(void *arg, const struct store_game *g)
{
	(void)g;
	(*(int *)arg)++;
	return 0;
}

/* Thresholds passed at once send the nearest only; a move that begins
 * inside a threshold is not reminded of it. */
static void
test_reminders_nearest_only(void **state)
{
	struct fx		*fx = *state;
	struct mails		 ms;
	int64_t			 late = game_make(fx, "5d/move", NULL);
	int64_t			 short_tc = game_make(fx, "1d/move", NULL);
	int64_t			 sent_at = -1;
	int			 listed = 0;

	/* Half a day into the "1d/move" game: no reminder, but dealt with. */
	atomic_store(&fx->now, T0 + 12 * HOUR);
	assert_int_equal(remind(fx), 0);
	assert_int_equal(store_reminder_get(fx->st, short_tc, 0, DAY,
	    &sent_at), STORE_OK);
	assert_int_equal(sent_at, 0);
	assert_int_equal(store_game_list_remind(fx->st, T0 + 12 * HOUR, DAY, 0,
	    count_listed, &listed), STORE_OK);
	assert_int_equal(listed, 0);

	/* The 5-day game left alone until half a day is left: the 1-day
	 * reminder goes, the 3-day one never will. */
	atomic_store(&fx->now, T0 + 4 * DAY + 12 * HOUR);
	assert_int_equal(tick(fx), 1);		/* the 1-day game */
	assert_int_equal(remind(fx), 1);
	assert_int_equal(remind(fx), 0);
	assert_int_equal(store_reminder_get(fx->st, late, 0, DAY, &sent_at),
	    STORE_OK);
	assert_int_equal(sent_at, T0 + 4 * DAY + 12 * HOUR);
	assert_int_equal(store_reminder_get(fx->st, late, 0, 3 * DAY,
	    &sent_at), STORE_OK);
	assert_int_equal(sent_at, 0);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org",
	    late, NULL), 1);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org",
	    short_tc, NULL), 0);
	mails_free(&ms);
}

/* A player without an address is not mailed, and the service without
 * mail sends no reminder at all. */
static void
test_reminders_no_address(void **state)
{
	struct fx		*fx = *state;
	struct service_game_params gp;
	struct service_game	 g;
	struct service_error	 err;
	struct service_player	 sp;
	struct mails		 ms;
	char			 key[256];
	const char		*keys[1] = { key };
	uint8_t			 pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	struct service_config	 cfg;
	struct service		*quiet;
	char			 why[256];
	int64_t			 id;
	size_t			 n = 99;

	assert_int_equal(sig_keypair(pk, sk), 0);
	assert_int_equal(sig_pubkey_format(pk, "k", key, sizeof key), 0);
	assert_int_equal(service_player_create(fx->svc, "dave", NULL, "en",
	    keys, 1, &sp, &err), 0);
	service_player_free(&sp);
	memset(&gp, 0, sizeof gp);
	gp.white = "dave";
	gp.black = "bob";
	gp.chess960 = -1;
	gp.time_control = "5d/move";
	assert_int_equal(service_game_create(fx->svc, &gp, &g, &err), 0);
	service_game_free(&g);
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(remind(fx), 0);
	assert_int_equal(store_reminder_get(fx->st, g.row.id, 0, 3 * DAY,
	    NULL), STORE_OK);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "bob@example.org",
	    g.row.id, NULL), 0);
	mails_free(&ms);

	/* Another instance on the database, without mail: no reminder, and
	 * nothing recorded that would keep the mailing one from sending. */
	memset(&cfg, 0, sizeof cfg);
	cfg.db_path = fx->db;
	cfg.sync = STORE_SYNC_NORMAL;
	cfg.now = fx_clock;
	cfg.now_arg = fx;
	if ((quiet = service_open(&cfg, why, sizeof why)) == NULL)
		fail_msg("service_open: %s", why);
	id = game_make(fx, "5d/move", NULL);
	atomic_store(&fx->now, T0 + 5 * DAY + HOUR);	/* 2d23h left */
	assert_int_equal(service_clock_remind(quiet, reminders, 2, &n, &err),
	    0);
	assert_int_equal(n, 0);
	service_close(quiet);
	assert_int_equal(store_reminder_get(fx->st, id, 0, 3 * DAY, NULL),
	    STORE_NOTFOUND);
	assert_int_equal(remind(fx), 1);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org",
	    id, NULL), 1);
	mails_free(&ms);
}

/* --- leave ------------------------------------------------------------ */

/* 00:00 UTC of T0's day (2026-05-28). */
#define D0		(T0 - T0 % DAY)

/* A game alone: a leave stops one clock, and only during it. */
static void
test_leave_time_model(void **state)
{
	struct game_params	gp;
	struct game		g;
	struct game_action	a;
	char			why[128];

	(void)state;
	memset(&gp, 0, sizeof gp);
	chess_position_start(&gp.start);
	assert_int_equal(game_tc_parse(&gp.tc, "5d/move", why, sizeof why),
	    0);
	gp.created = T0;
	assert_int_equal(game_init(&g, &gp), 0);
	assert_int_equal(game_deadline(&g), T0 + 5 * DAY);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0 + 2 * DAY,
	    T0 + 4 * DAY), 0);
	/* Black's leave does not stop white's clock. */
	assert_int_equal(game_leave_add(&g, CHESS_BLACK, T0, T0 + 9 * DAY),
	    0);
	assert_int_equal(game_deadline(&g), T0 + 7 * DAY);
	assert_int_equal(game_time_left(&g, CHESS_WHITE, T0 + DAY), 4 * DAY);
	assert_int_equal(game_time_left(&g, CHESS_WHITE, T0 + 3 * DAY),
	    3 * DAY);
	assert_int_equal(game_time_left(&g, CHESS_WHITE, T0 + 5 * DAY),
	    2 * DAY);
	assert_false(game_check_time(&g, T0 + 7 * DAY - 1));
	assert_true(game_check_time(&g, T0 + 7 * DAY));
	assert_int_equal(g.termination, GAME_TERM_TIMEOUT);
	assert_int_equal(g.ended, T0 + 7 * DAY);
	game_free(&g);

	/* Touching leaves merge; the deadline skips both. */
	assert_int_equal(game_init(&g, &gp), 0);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0 + 2 * DAY,
	    T0 + 3 * DAY), 0);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0 + DAY,
	    T0 + 2 * DAY), 0);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0 + 20 * DAY,
	    T0 + 21 * DAY), 0);
	assert_int_equal(g.nleaves[CHESS_WHITE], 2);
	assert_int_equal(game_deadline(&g), T0 + 7 * DAY);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0, T0), -1);
	game_free(&g);

	/* Fischer: time on leave is not charged to the move. */
	assert_int_equal(game_tc_parse(&gp.tc, "10d+1d", why, sizeof why),
	    0);
	assert_int_equal(game_init(&g, &gp), 0);
	assert_int_equal(game_leave_add(&g, CHESS_WHITE, T0 + DAY,
	    T0 + 3 * DAY), 0);
	memset(&a, 0, sizeof a);
	a.kind = GAME_ACT_MOVE;
	a.color = CHESS_WHITE;
	a.move = "e4";
	a.at = T0 + 4 * DAY;
	assert_int_equal(game_apply(&g, &a, why, sizeof why), GAME_OK);
	assert_int_equal(game_time_left(&g, CHESS_WHITE, a.at), 9 * DAY);
	assert_int_equal(game_deadline(&g), T0 + 14 * DAY);
	game_free(&g);
}

/* Rebuild a game through the service: its deadline, as the row's. */
static int64_t
rebuilt_deadline(struct fx *fx, int64_t id)
{
	struct service_game	g;
	struct service_error	err;
	int64_t			d;

	if (service_game_get(fx->svc, id, &g, &err) != 0)
		fail_msg("game %" PRId64 ": %s", id, err.message);
	d = game_deadline(&g.state);
	assert_int_equal(d, g.row.deadline);
	service_game_free(&g);
	return d;
}

/* A signed leave stops the clocks of all the player's games, those
 * created during it too; the games' records hold it. */
static void
test_leave(void **state)
{
	struct fx		*fx = *state;
	struct store_game	 row;
	struct records		 r;
	int64_t			 id = game_make(fx, "5d/move", NULL);
	int64_t			 other, later;

	/* Bob plays alice's other game as white, his turn. */
	other = game_make(fx, "5d/move", NULL);
	play(fx, other, 0, "alice", "move d4", K_ALICE);

	/* 2026-05-30 to 2026-06-01: three days, after today. */
	play(fx, id, 0, "alice", "leave 2026-05-30 2026-06-01", K_ALICE);
	row_read(fx, id, &row);
	assert_string_equal(row.status, "ongoing");
	assert_int_equal(row.ply, 0);
	assert_int_equal(row.deadline, T0 + 8 * DAY);
	assert_int_equal(rebuilt_deadline(fx, id), T0 + 8 * DAY);
	records_read(fx, id, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.last_kind, "leave");
	/* In the other game it is bob's move: his clock runs on, but the
	 * leave is in that game's record too. */
	row_read(fx, other, &row);
	assert_int_equal(row.deadline, T0 + 5 * DAY);
	records_read(fx, other, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.last_kind, "leave");

	/* A game created the day before the leave stops too. */
	atomic_store(&fx->now, D0 + DAY + 12 * HOUR);
	later = game_make(fx, "5d/move", NULL);
	row_read(fx, later, &row);
	assert_int_equal(row.deadline, D0 + DAY + 12 * HOUR + 8 * DAY);
	assert_int_equal(rebuilt_deadline(fx, later), row.deadline);

	/* Bob's flag falls on time; alice's stays up through her leave. */
	atomic_store(&fx->now, T0 + 6 * DAY);
	assert_int_equal(tick(fx), 1);
	row_read(fx, other, &row);
	assert_string_equal(row.result, "1-0");
	row_read(fx, id, &row);
	assert_string_equal(row.status, "ongoing");

	/* Alice moves after her leave: her next clock has no leave left. */
	play(fx, id, 0, "alice", "move e4", K_ALICE);
	atomic_store(&fx->now, T0 + 7 * DAY);
	play(fx, id, 1, "bob", "move e5", K_BOB);
	assert_int_equal(rebuilt_deadline(fx, id), T0 + 12 * DAY);
	atomic_store(&fx->now, T0 + 12 * DAY);
	assert_int_equal(tick(fx), 2);		/* this one and `later` */
	row_read(fx, id, &row);
	assert_string_equal(row.result, "0-1");
	assert_string_equal(row.termination, "timeout");
}

/* Leaves that begin today, overlap another, or pass the allowance of a
 * calendar year are refused; a leave across New Year counts in both. */
static void
test_leave_refusals(void **state)
{
	struct fx	*fx = *state;
	int64_t		 id = game_make(fx, "30d+1d", NULL);

	refused(fx, id, 0, "alice", "leave 2026-05-28 2026-05-29", K_ALICE,
	    "leave-too-soon");
	refused(fx, id, 0, "alice", "leave 2026-05-01 2026-05-02", K_ALICE,
	    "leave-too-soon");
	refused(fx, id, 1, "alice", "leave 2026-06-01 2026-06-02", K_ALICE,
	    "stale-ply");
	play(fx, id, 0, "alice", "leave 2026-05-29 2026-05-31", K_ALICE);
	refused(fx, id, 0, "alice", "leave 2026-05-31 2026-06-03", K_ALICE,
	    "leave-overlaps");
	/* 3 + 43 = 46 days in 2026. */
	refused(fx, id, 0, "alice", "leave 2026-07-01 2026-08-12", K_ALICE,
	    "leave-allowance");
	/* 3 + 42 = 45. */
	play(fx, id, 0, "alice", "leave 2026-07-01 2026-08-11", K_ALICE);
	refused(fx, id, 0, "alice", "leave 2026-09-01 2026-09-01", K_ALICE,
	    "leave-allowance");

	/* Bob: 31 days in 2026 and 14 in 2027, then 30 more in 2027. */
	play(fx, id, 0, "alice", "move e4", K_ALICE);
	play(fx, id, 1, "bob", "leave 2026-12-01 2027-01-14", K_BOB);
	play(fx, id, 1, "bob", "leave 2027-02-01 2027-03-02", K_BOB);
	refused(fx, id, 1, "bob", "leave 2027-03-10 2027-03-11", K_BOB,
	    "leave-allowance");
	play(fx, id, 1, "bob", "leave 2027-03-10 2027-03-10", K_BOB);
	refused(fx, id, 1, "bob", "leave 2026-11-20 2026-12-05", K_BOB,
	    "leave-overlaps");
}

/* True if `text` holds `phrase`, any run of spaces and line ends in the
 * text matching one space of the phrase (the mail's prose is wrapped). */
static bool
has_words(const char *text, const char *phrase)
{
	const char	*t, *p;

	for (; *text != '\0'; text++) {
		for (t = text, p = phrase; *p != '\0'; p++) {
			if (*p == ' ') {
				if (!isspace((unsigned char)*t))
					break;
				while (isspace((unsigned char)*t))
					t++;
			} else if (*t++ != *p)
				break;
		}
		if (*p == '\0')
			return true;
	}
	return false;
}

/* --- summaries of held refusals --------------------------------------- */

/*
 * Mail `n` statements naming `victim`, signed with key k (not theirs),
 * from a stranger's address: each is refused.
 */
static void
forged(struct fx *fx, int64_t game, const char *victim, int k, int first,
    int n)
{
	struct service_mail_in		in;
	enum service_mail_outcome	out;
	struct service_error		err;
	struct sig_statement		st;
	enum sig_error			e;
	char				buf[SIG_SIGNED_SIZE], mid[64];
	int				i;

	memset(&st, 0, sizeof st);
	st.game = (uint64_t)game;
	snprintf(st.player, sizeof st.player, "%s", victim);
	if (sig_action_parse("resign", 6, &st.action, &e) != 0 ||
	    sig_statement_build(&st, &e) != 0 ||
	    sig_statement_sign(&st, fx->sk[k], SIG_FORM_RAW, buf, sizeof buf,
	    &e) != 0)
		fail_msg("signing: %s", sig_strerror(e));
	for (i = first; i < first + n; i++) {
		memset(&in, 0, sizeof in);
		snprintf(mid, sizeof mid, "<forged%d@evil.example>", i);
		in.mailbox = "INBOX";
		in.uidvalidity = 1;
		in.uid = i;
		in.message_id = mid;
		in.sender = "mallory@evil.example";
		in.subject = "resign";
		in.statement = buf;
		in.statement_len = strlen(buf);
		assert_int_equal(service_mail(fx->svc, &in, &out, &err), 0);
		assert_int_equal(out, SERVICE_MAIL_REFUSED);
	}
}

/* Run the clock's summaries; the number queued. */
static size_t
summaries(struct fx *fx)
{
	struct service_error	err;
	size_t			n = 0;

	if (service_clock_summaries(fx->svc, &n, &err) != 0)
		fail_msg("summaries: %s %s", err.code, err.message);
	return n;
}

/* The time `t` as a summary writes it. */
static void
when_text(int64_t t, char *buf, size_t size)
{
	struct tm	tm;
	time_t		tt = (time_t)t;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm);
}

/*
 * Refusals held back past the hourly bound are summed up by the clock a
 * day after the last summary, also when no refusal follows them, each in
 * the player's language; nothing when nothing is held.
 */
static void
test_refusal_summary(void **state)
{
	struct fx	*fx = *state;
	struct mails	 ms;
	const char	*text = NULL;
	char		 when[32], phrase[512];
	int64_t		 g;

	g = game_make(fx, NULL, NULL);
	/* alice: 3 answers, the summary of the fourth at once, one held. */
	forged(fx, g, "alice", K_BOB, 1, 5);
	/* bob: 3 answers and the summary of the fourth; an hour later 3
	 * more answers and 2 held: the day's summary is spent. */
	forged(fx, g, "bob", K_ALICE, 100, 4);
	atomic_store(&fx->now, T0 + HOUR + 1);
	forged(fx, g, "bob", K_ALICE, 200, 5);
	/* The answers are about the game, the summaries about none. */
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "refused", "alice@example.org", g,
	    NULL), 3);
	assert_int_equal(mails_count(&ms, "refused", "alice@example.org", 0,
	    NULL), 1);
	assert_int_equal(mails_count(&ms, "refused", "bob@example.org", g,
	    NULL), 6);
	assert_int_equal(mails_count(&ms, "refused", "bob@example.org", 0,
	    NULL), 1);
	assert_int_equal(mails_count(&ms, "refused", "mallory@evil.example",
	    0, NULL), 0);
	mails_free(&ms);
	atomic_store(&fx->now, T0 + 2 * HOUR);
	assert_int_equal(summaries(fx), 0);

	/* A day after the last summaries: one each, with no new refusal. */
	atomic_store(&fx->now, T0 + DAY + 1);
	assert_int_equal(summaries(fx), 2);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "refused", "alice@example.org", 0,
	    &text), 2);
	when_text(T0, when, sizeof when);
	snprintf(phrase, sizeof phrase, "1 mail in your name was refused "
	    "since %s and not answered one by one (at most 3 answers an hour "
	    "go to one address); the last: the statement names alice but is "
	    "signed with the key", when);
	assert_true(has_words(text, phrase));
	assert_int_equal(mails_count(&ms, "refused", "bob@example.org", 0,
	    &text), 2);
	when_text(T0 + HOUR + 1, when, sizeof when);
	snprintf(phrase, sizeof phrase, "2 courriels en votre nom ont été "
	    "refusés depuis le %s sans réponse un par un (au plus 3 réponses "
	    "par heure vont à une même adresse) ; le dernier :", when);
	assert_true(has_words(text, phrase));
	mails_free(&ms);

	/* Nothing held any more: nothing the next day. */
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(summaries(fx), 0);
}

/* A leave tells the opponent of each ongoing game, in their language,
 * and not the player who takes it. */
static void
test_leave_notice(void **state)
{
	struct fx	*fx = *state;
	struct mails	 ms;
	const char	*text = NULL;
	int64_t		 id = game_make(fx, "5d/move", NULL);
	int64_t		 other = game_make(fx, "5d/move", NULL);

	play(fx, other, 0, "alice", "move d4", K_ALICE);
	play(fx, id, 0, "alice", "leave 2026-05-30 2026-06-01", K_ALICE);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "leave", "bob@example.org", id,
	    &text), 1);
	assert_true(has_words(text, "alice est en cong\u00e9 du 2026-05-30 "
	    "au 2026-06-01 ; sa pendule est arr\u00eat\u00e9e pendant ce "
	    "temps."));
	assert_int_equal(mails_count(&ms, "leave", "bob@example.org", other,
	    &text), 1);
	assert_non_null(strstr(text, "1. d4"));
	assert_int_equal(mails_count(&ms, "leave", "alice@example.org", id,
	    NULL), 0);
	assert_int_equal(mails_count(&ms, "leave", "alice@example.org", other,
	    NULL), 0);
	mails_free(&ms);

	/* Bob's leave goes to alice, in English. */
	play(fx, other, 1, "bob", "leave 2026-06-10 2026-06-12", K_BOB);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "leave", "alice@example.org", other,
	    &text), 1);
	assert_true(has_words(text, "bob is on leave from 2026-06-10 to "
	    "2026-06-12; their clock stops meanwhile."));
	assert_int_equal(mails_count(&ms, "leave", "alice@example.org", id,
	    NULL), 1);
	mails_free(&ms);
}

/* The player's data shows what is left of this year's allowance. */
static void
test_leave_allowance(void **state)
{
	struct fx			*fx = *state;
	struct service_player		 sp;
	struct service_leave_year	 ly;
	struct service_error		 err;
	int64_t				 id = game_make(fx, "30d+1d", NULL);
	int64_t				 alice, bob;

	assert_int_equal(service_player_get(fx->svc, "alice", &sp, &err), 0);
	alice = sp.p.id;
	service_player_free(&sp);
	assert_int_equal(service_player_get(fx->svc, "bob", &sp, &err), 0);
	bob = sp.p.id;
	service_player_free(&sp);

	assert_int_equal(service_player_leave(fx->svc, alice, &ly, &err), 0);
	assert_int_equal(ly.year, 2026);
	assert_int_equal(ly.allowance_days, 45);
	assert_int_equal(ly.taken_days, 0);
	assert_int_equal(ly.left_days, 45);

	play(fx, id, 0, "alice", "leave 2026-05-30 2026-06-01", K_ALICE);
	play(fx, id, 0, "alice", "leave 2026-07-01 2026-07-10", K_ALICE);
	assert_int_equal(service_player_leave(fx->svc, alice, &ly, &err), 0);
	assert_int_equal(ly.taken_days, 13);
	assert_int_equal(ly.left_days, 32);

	/* Across New Year: only this year's days count. */
	play(fx, id, 0, "alice", "move e4", K_ALICE);
	play(fx, id, 1, "bob", "leave 2026-12-01 2027-01-14", K_BOB);
	assert_int_equal(service_player_leave(fx->svc, bob, &ly, &err), 0);
	assert_int_equal(ly.taken_days, 31);
	assert_int_equal(ly.left_days, 14);

	/* Next year, bob's January days are what is taken. */
	atomic_store(&fx->now, T0 + 250 * DAY);
	assert_int_equal(service_player_leave(fx->svc, bob, &ly, &err), 0);
	assert_int_equal(ly.year, 2027);
	assert_int_equal(ly.taken_days, 14);
	assert_int_equal(ly.left_days, 31);
}

/* --- daily digest ----------------------------------------------------- */

/* Run the digests; the number queued. */
static size_t
digest(struct fx *fx)
{
	struct service_error	err;
	size_t			n = 99;

	if (service_clock_digest(fx->svc, &n, &err) != 0)
		fail_msg("digest: %s %s", err.code, err.message);
	return n;
}

/* Set a player's digest preference, or fail. */
static void
digest_set(struct fx *fx, const char *name, const char *digest)
{
	struct service_player	sp;
	struct service_error	err;

	if (service_player_set(fx->svc, name, NULL, NULL, digest, &sp,
	    &err) != 0)
		fail_msg("set %s's digest: %s %s", name, err.code,
		    err.message);
	assert_string_equal(sp.p.digest, digest);
	service_player_free(&sp);
}

/* A player who asks for it gets one digest a day listing the games where
 * it is their move, and none when no game waits; others get none. */
static void
test_digest(void **state)
{
	struct fx	*fx = *state;
	struct mails	 ms;
	const char	*text = NULL;
	char		 line[64];
	int64_t		 a, b, c;

	/* Nothing to move yet: no digest, and the day counts as done. */
	digest_set(fx, "alice", "daily");
	assert_int_equal(digest(fx), 0);

	a = game_make(fx, "5d/move", NULL);	/* alice to move */
	b = game_make(fx, "5d/move", NULL);	/* bob to move */
	play(fx, b, 0, "alice", "move Nf3", K_ALICE);
	c = game_make(fx, "5d/move", NULL);	/* alice to move again */
	play(fx, c, 0, "alice", "move e4", K_ALICE);
	play(fx, c, 1, "bob", "move e5", K_BOB);

	/* Within 24 hours of the last one: none. */
	atomic_store(&fx->now, T0 + DAY - 1);
	assert_int_equal(digest(fx), 0);
	atomic_store(&fx->now, T0 + DAY);
	assert_int_equal(digest(fx), 1);	/* alice's; bob has none */
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "digest", "alice@example.org", 0,
	    &text), 1);
	assert_int_equal(mails_count(&ms, "digest", "bob@example.org", 0,
	    NULL), 0);
	snprintf(line, sizeof line, "Game %" PRId64 ": alice (White) v bob "
	    "(Black)", a);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof line, "Game %" PRId64 ": alice (White) v bob "
	    "(Black)", c);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof line, "Game %" PRId64 ":", b);
	assert_null(strstr(text, line));
	assert_non_null(strstr(text, "Last move: 1... e5 (bob)"));
	assert_non_null(strstr(text, "No move played yet."));
	assert_non_null(strstr(text, "Time left: 4d"));
	assert_non_null(strstr(text, "Deadline: "));
	assert_true(has_words(text, "This daily digest comes beside the mail "
	    "of each move"));
	assert_non_null(strstr(text, "your move in 2 games"));
	mails_free(&ms);

	/* Once a day: not again the same day, again the next. */
	atomic_store(&fx->now, T0 + DAY + 12 * 3600);
	assert_int_equal(digest(fx), 0);
	atomic_store(&fx->now, T0 + 2 * DAY);
	assert_int_equal(digest(fx), 1);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "digest", "alice@example.org", 0,
	    NULL), 2);
	mails_free(&ms);

	/* Bob asks for it too: his is in French, with his one game. */
	digest_set(fx, "bob", "daily");
	atomic_store(&fx->now, T0 + 3 * DAY);
	assert_int_equal(digest(fx), 2);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "digest", "bob@example.org", 0,
	    &text), 1);
	snprintf(line, sizeof line, "Partie %" PRId64 " : alice (Blancs) c. "
	    "bob (Noirs)", b);
	assert_non_null(strstr(text, line));
	assert_non_null(strstr(text, "Dernier coup : 1. Cf3 (alice)"));
	mails_free(&ms);

	/* Alice stops it: only bob's goes. */
	digest_set(fx, "alice", "none");
	atomic_store(&fx->now, T0 + 4 * DAY);
	assert_int_equal(digest(fx), 1);
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "digest", "alice@example.org", 0,
	    NULL), 3);
	assert_int_equal(mails_count(&ms, "digest", "bob@example.org", 0,
	    NULL), 2);
	mails_free(&ms);
}

/* Bad preferences are refused; an unknown player is not found. */
static void
test_player_set(void **state)
{
	struct fx		*fx = *state;
	struct service_player	 sp;
	struct service_error	 err;

	assert_int_equal(service_player_set(fx->svc, "alice", NULL, NULL,
	    "weekly", NULL, &err), -1);
	assert_string_equal(err.code, "bad-digest");
	assert_int_equal(service_player_set(fx->svc, "alice", NULL, "de",
	    NULL, NULL, &err), -1);
	assert_string_equal(err.code, "bad-language");
	assert_int_equal(service_player_set(fx->svc, "alice", "nobody", NULL,
	    NULL, NULL, &err), -1);
	assert_string_equal(err.code, "bad-email");
	assert_int_equal(service_player_set(fx->svc, "zoe", NULL, NULL,
	    "daily", NULL, &err), -1);
	assert_string_equal(err.code, "no-such-player");

	assert_int_equal(service_player_set(fx->svc, "alice",
	    "Alice@Example.NET", "fr", NULL, &sp, &err), 0);
	assert_string_equal(sp.p.email, "alice@example.net");
	assert_string_equal(sp.p.lang, "fr");
	assert_string_equal(sp.p.digest, "none");
	service_player_free(&sp);
}

/* --- the clock thread -------------------------------------------------- */

/* Wait (at most about 20 s) until the thread has ticked `n` times. */
static void
ticks_wait(struct clock *c, uint64_t n)
{
	struct timespec	ts = { 0, 20 * 1000 * 1000 };
	int		i;

	for (i = 0; i < 1000 && clock_ticks(c) < n; i++)
		nanosleep(&ts, NULL);
	if (clock_ticks(c) < n)
		fail_msg("the clock thread did not tick %" PRIu64 " times",
		    n);
}

/* The thread ends a game and reminds another on its own. */
static void
test_clock_thread(void **state)
{
	struct fx		*fx = *state;
	struct clock_options	 opts;
	struct clock		*c;
	struct store_game	 row;
	struct mails		 ms;
	char			 err[256];
	int64_t			 flagged = game_make(fx, "1d/move", NULL);
	int64_t			 reminded = game_make(fx, "5d/move", NULL);
	uint64_t		 n;

	memset(&opts, 0, sizeof opts);
	opts.interval = 1;
	if ((c = clock_start(fx->svc, &opts, err, sizeof err)) == NULL)
		fail_msg("clock_start: %s", err);
	ticks_wait(c, 1);
	row_read(fx, flagged, &row);
	assert_string_equal(row.status, "ongoing");

	atomic_store(&fx->now, T0 + 2 * DAY + HOUR);
	n = clock_ticks(c);
	ticks_wait(c, n + 2);		/* one whole tick after the move */
	row_read(fx, flagged, &row);
	assert_string_equal(row.status, "finished");
	assert_string_equal(row.termination, "timeout");
	mails_read(fx, &ms);
	assert_int_equal(mails_count(&ms, "game-over", "bob@example.org",
	    flagged, NULL), 1);
	assert_int_equal(mails_count(&ms, "reminder", "alice@example.org",
	    reminded, NULL), 1);
	mails_free(&ms);
	clock_stop(c);

	/* Bad options are refused. */
	opts.interval = -1;
	assert_null(clock_start(fx->svc, &opts, err, sizeof err));
	clock_stop(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tick_ends_game, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tick_draw_lone_king,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_many, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reminders, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reminders_nearest_only,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reminders_no_address,
		    setup, teardown),
		cmocka_unit_test(test_leave_time_model),
		cmocka_unit_test_setup_teardown(test_leave, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leave_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_leave_notice, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_leave_allowance, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_digest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusal_summary, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_player_set, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_clock_thread, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
