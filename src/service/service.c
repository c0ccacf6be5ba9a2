/*
 * service/service.c: open and close, the store pool, errors, metrics, backup.
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

#include <sys/stat.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "util/log.h"
#include "util/metrics.h"
#include "service/service_int.h"
#include "util/text.h"

/* --- errors, the clock, the pool of handles ---------------------------- */

/* Fill a service error. */
int
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
int
service_store_fail(struct service_error *err, struct store *st,
    const char *what)
{
	log_warnx("store: %s: %s", what, st != NULL ? store_errmsg(st) :
	    "no handle");
	return service_fail(err, 500, "internal",
	    "the server could not %s; try again later", what);
}

/*
 * Say a server fault (500 internal, 503 stopping) in `lang`. The English
 * sentence names what failed; the French one says the fault and what to
 * do (the log has the detail).
 */
void
service_fault_lang(struct service_error *err, enum chess_lang lang)
{
	if (lang != CHESS_LANG_FR)
		return;
	if (strcmp(err->code, "internal") == 0)
		snprintf(err->message, sizeof err->message, "le serveur n'a pas "
		    "pu terminer l'opération (erreur interne) ; réessayez plus "
		    "tard");
	else if (strcmp(err->code, "stopping") == 0)
		snprintf(err->message, sizeof err->message, "le serveur "
		    "s'arrête ; réessayez dans un instant");
}

/* Copy an optional text (NULL: "") into a field of `size` bytes, or
 * refuse it (400 `code`) by its name. */
int
field_copy(char *dst, size_t size, const char *src, const char *name,
    const char *code, struct service_error *err)
{
	enum text_fault	f;

	if (src == NULL)
		src = "";
	if (strlen(src) >= size || strpbrk(src, "\"\\\n") != NULL)
		return service_fail(err, 400, code,
		    "%s must be under %zu characters, without quotes, "
		    "backslashes or line breaks", name, size);
	if ((f = text_check(src)) != TEXT_OK)
		return service_fail(err, 400, code,
		    "%s must be plain text: it holds %s", name,
		    text_fault_name(f));
	snprintf(dst, size, "%s", src);
	return 0;
}

/* Read the service's clock. */
int64_t
service_now(struct service *svc)
{
	if (svc->now != NULL)
		return svc->now(svc->now_arg);
	return (int64_t)time(NULL);
}

/* Take a store handle from the pool, opening one when none is free. */
struct store *
pool_get(struct service *svc, struct service_error *err)
{
	struct store_options	 opts = { .sync = svc->sync,
	    .password_file = svc->password_file };
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
void
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

/*
 * Make room for element `n` in array `arr` of *cap elements of `size`
 * bytes: double the capacity (`first` when empty) until it is past `n`.
 * Returns the array, which may have moved, or NULL with `arr` and *cap
 * unchanged.
 */
void *
service_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
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

/* --- metrics ---------------------------------------------------------- */

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
	"ambiguous-move", "bad-move", "no-draw-offer", "bad-claim", "draw-rule",
	"stopping",
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
void
service_count_refused(const char *code)
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

/* Count an accepted action. */
void
service_count_accepted(void)
{
	metrics_inc(m_accepted);
}

/* Answers to mail, by kind: queued, and held back by their bounds. */
static struct metric	*m_answers[3][2];
static struct metric	*m_howto_capped;
static const char *const answer_kinds[3] = { "refused", "summary", "howto" };

/* Count an answer to a mail, queued or held back. */
void
service_count_answer(const char *kind, bool held)
{
	size_t	i;

	for (i = 0; i < 3; i++)
		if (strcmp(kind, answer_kinds[i]) == 0)
			metrics_inc(m_answers[i][held]);
}

/* Count a how-to answer held back by the overall hourly cap. */
void
service_count_howto_capped(void)
{
	metrics_inc(m_howto_capped);
}

/* Count one transaction of the writer and the jobs it committed. */
void
service_count_batch(size_t n)
{
	metrics_inc(m_batches);
	metrics_add(m_batched, n);
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
	char	name[128];
	size_t	i;

	m_accepted = metrics_counter("corrchess_actions_accepted_total",
	    "Signed actions accepted");
	pthread_mutex_lock(&m_refused_lock);
	for (i = 0; refusal_codes[i] != NULL; i++)
		refusal_row_add(refusal_codes[i]);
	pthread_mutex_unlock(&m_refused_lock);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "corrchess_mail_answers_total"
		    "{kind=\"%s\"}", answer_kinds[i]);
		m_answers[i][0] = metrics_counter(name, "Answers to mail "
		    "queued: refusals, their daily summaries, how-tos");
		snprintf(name, sizeof name, "corrchess_mail_answers_held_total"
		    "{kind=\"%s\"}", answer_kinds[i]);
		m_answers[i][1] = metrics_counter(name, "Answers to mail held "
		    "back by their bounds (per address and hour or day)");
	}
	m_howto_capped = metrics_counter("corrchess_mail_answers_capped_total"
	    "{kind=\"howto\"}", "How-to answers held back by the cap over "
	    "every address (MAIL_HOWTOS_PER_HOUR an hour)");
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
	struct store_options	 opts = { .sync = cfg->sync,
	    .password_file = cfg->password_file };
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
	    (svc->renders = calloc(SERVICE_RENDER_SLOTS,
	    sizeof *svc->renders)) == NULL || signers_init(svc) != 0 ||
	    (svc->db_path = strdup(cfg->db_path)) == NULL ||
	    (cfg->password_file != NULL && (svc->password_file =
	    strdup(cfg->password_file)) == NULL)) {
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
	ratings_defaults(&svc->ratings, &cfg->ratings);
	svc->leave_days = cfg->leave_days > 0 ? cfg->leave_days :
	    SERVICE_LEAVE_DAYS;
	svc->abort_moves = cfg->abort_moves != 0 ? cfg->abort_moves :
	    SERVICE_ABORT_MOVES;
	svc->now = cfg->now;
	svc->now_arg = cfg->now_arg;
	svc->events_cb = cfg->events;
	svc->events_arg = cfg->events_arg;
	svc->events_wanted = cfg->events_wanted;
	pthread_mutex_init(&svc->pool_lock, NULL);
	pthread_mutex_init(&svc->lead_lock, NULL);
	pthread_mutex_init(&svc->view_lock, NULL);
	pthread_mutex_init(&svc->render_lock, NULL);
	pthread_mutex_init(&svc->lock, NULL);
	pthread_cond_init(&svc->work, NULL);
	if (cfg->server_sk != NULL) {
		memcpy(svc->server_sk, cfg->server_sk, SIG_SECKEY_BYTES);
		svc->has_server_key = true;
	}
	svc->rated_default = cfg->rated_default != 0 ? cfg->rated_default > 0 :
	    SERVICE_RATED_DEFAULT;
	snprintf(svc->auth_default, sizeof svc->auth_default, "%s",
	    cfg->auth_default != NULL ? cfg->auth_default : "signed");
	if (service_auth_valid(svc->auth_default) != 0) {
		snprintf(err, errsize, "the default auth must be \"signed\" "
		    "or \"signed-or-attested\"");
		goto fail;
	}
	if ((svc->logins = calloc(SERVICE_LOGIN_SLOTS,
	    sizeof *svc->logins)) == NULL) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	pthread_mutex_init(&svc->login_lock, NULL);
	/* The writer's handle creates or migrates the schema. */
	if ((svc->wstore = store_open_with(svc->db_path, &opts, err,
	    errsize)) == NULL)
		goto fail;
	/* Every game the writer writes it read under its lock first. */
	store_send_writes_ahead(svc->wstore, true);
	svc->batch_reads = strcmp(store_engine_name(svc->wstore),
	    "postgresql") == 0;
	/* ":memory:" is one database per handle: everyone shares the
	 * writer's (tests only; serialised by the pool of one). */
	if (strcmp(svc->db_path, ":memory:") == 0) {
		snprintf(err, errsize, "\":memory:\" is not supported by the "
		    "service; use a file");
		goto fail;
	}
	listen_init(svc);
	if (writer_start(svc) != 0) {
		snprintf(err, errsize, "cannot start the writer thread");
		goto fail;
	}
	if (listen_start(svc) != 0) {
		snprintf(err, errsize, "cannot start the listener thread");
		goto fail;
	}
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
	listen_stop(svc);
	writer_stop(svc);
	for (i = 0; i < svc->npool; i++)
		store_close(svc->pool[i]);
	store_close(svc->wstore);
	store_close(svc->lead);
	if (svc->cache != NULL) {
		for (i = 0; i < SERVICE_CACHE_SLOTS; i++) {
			game_free(&svc->cache[i].state);
			free(svc->cache[i].san);
			free(svc->cache[i].msgs);
		}
		free(svc->cache);
	}
	if (svc->views != NULL) {
		for (i = 0; i < SERVICE_VIEW_SLOTS; i++)
			service_game_free(&svc->views[i]);
		free(svc->views);
	}
	free(svc->live.v);
	free(svc->ended);
	render_free(svc);
	signers_free(svc);
	if (svc->db_path != NULL) {
		pthread_mutex_destroy(&svc->pool_lock);
		pthread_mutex_destroy(&svc->lead_lock);
		pthread_mutex_destroy(&svc->view_lock);
		pthread_mutex_destroy(&svc->render_lock);
		pthread_mutex_destroy(&svc->lock);
		pthread_cond_destroy(&svc->work);
	}
	if (svc->logins != NULL)
		pthread_mutex_destroy(&svc->login_lock);
	free(svc->logins);
	sodium_memzero(svc->server_sk, sizeof svc->server_sk);
	free(svc->mail_from);
	free(svc->mail_reply_to);
	free(svc->mail_domain);
	free(svc->db_path);
	free(svc->password_file);
	free(svc);
}

/* --- several servers on one database ---------------------------------- */

/* Ask whether this server leads a role now; see service.h. */
bool
service_lead(struct service *svc, enum service_role role)
{
	static const char *const names[SERVICE_ROLES] = {
		"clock", "mailbox", "outbox",
	};
	struct store_options	 opts = { .sync = svc->sync,
	    .password_file = svc->password_file };
	char			 why[256];
	bool			 held = false;

	/* SQLite: one machine, one server. */
	if (!store_target_is_pg(svc->db_path))
		return true;
	pthread_mutex_lock(&svc->lead_lock);
	if (svc->lead == NULL && (svc->lead = store_open_with(svc->db_path,
	    &opts, why, sizeof why)) == NULL) {
		log_warnx("%s: cannot reach the database to lead: %s",
		    names[role], why);
		goto out;
	}
	if (store_lead(svc->lead, (int)role, &held) != STORE_OK) {
		/* The connection is gone, and the lock with it. */
		log_warnx("%s: %s", names[role], store_errmsg(svc->lead));
		store_close(svc->lead);
		svc->lead = NULL;
		held = false;
	}
out:
	if (held != svc->leads[role])
		log_info("%s: %s", names[role], held ? "this server leads" :
		    "another server leads");
	svc->leads[role] = held;
	pthread_mutex_unlock(&svc->lead_lock);
	return held;
}

/* --- backup ----------------------------------------------------------- */

/*
 * Copy the database with SQLite's online backup API (writers go on
 * meanwhile) into an unlinked file next to it; *fdp is that file, open for
 * reading at its start, *sizep its size. On PostgreSQL, 409 "postgresql":
 * its backups are its own tools'.
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
	if (store_target_is_pg(svc->db_path))
		return service_fail(err, 409, "postgresql", "the database is "
		    "on PostgreSQL: back it up with PostgreSQL's own tools "
		    "(pg_dump, or pg_basebackup with WAL archiving)");
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
