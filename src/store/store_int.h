/*
 * store/store_int.h: what the store's files share (private to src/store).
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
 * The connection, the statement table and the helpers every query file
 * uses. Callers outside src/store see only store.h. The query files reach
 * the database only through the statement layer of db.h (db_bind_*,
 * db_step, db_column_*) and the helpers below; no file but the engine's
 * own names sqlite3_*.
 *
 *   db.h, db.c  the statement layer: connection, statements, values
 *   db_sqlite.c the SQLite engine behind it
 *   db_pg.c     the PostgreSQL engine behind it (libpq)
 *   store.c     the handle: open, close; transactions; errors; the
 *               statement cache; binding and reading optional values
 *   schema.c    the schema: schema_version and each migration step
 *   sql.c       every statement the queries run, in one table
 *   players.c   players, their keys, their leaves
 *   games.c     games, listings by player, status and deadline; reminders
 *   actions.c   the record: signed actions, chained by hash
 *   conditionals.c  conditional moves, apart from the record
 *   self.c      players' own settings, statements and address changes
 *   mail.c      mail seen, mailbox positions, the outbox
 *   events.c    events, their players and their games
 *   ratings.c   ratings and their history
 *   maint.c     online backup, integrity check, query plans
 */

#ifndef CORRCHESS_STORE_INT_H
#define CORRCHESS_STORE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "store/db.h"
#include "store/store.h"

#define STORE_ERR_SIZE		256

/* The statements of sql.c, by name. */
enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_SAVEPOINT,
	ST_RELEASE,
	ST_ROLLBACK_TO,
	ST_LEAD,
	ST_BEGIN_SHARED,
	ST_LOCK_RESULTS,
	ST_NOTIFY,
	ST_BEGIN_AHEAD,
	ST_LOCK_SHARED,
	ST_LOCK_GAMES,
	ST_VERSION,	/* the first that store_explain() reports */
	ST_PLAYER_INSERT,
	ST_PLAYER_BY_ID,
	ST_PLAYER_BY_NAME,
	ST_PLAYER_BY_EMAIL,
	ST_PLAYER_LIST,
	ST_PLAYER_UPDATE,
	ST_PLAYER_DIGEST,
	ST_PLAYER_DIGEST_SENT,
	ST_KEY_INSERT,
	ST_KEY_LIST,
	ST_KEY_REVOKE,
	ST_KEY_EXISTS,
	ST_KEY_FIND,
	ST_KEY_GET,
	ST_KEY_OWNER,
	ST_KEY_DUPLICATES,
	ST_GAME_INSERT,
	ST_GAME_GET,
	ST_GAME_GET_ACTION,
	ST_GAME_GET_ACTIONS,
	ST_GAME_UPDATE,
	ST_GAME_UPDATE_PLAY,
	ST_GAME_LIST,
	ST_GAME_LIST_STATUS,
	ST_GAME_LIST_PLAYER,
	ST_GAME_LIST_PLAYER_STATUS,
	ST_GAME_DUE,
	ST_GAME_COUNT,
	ST_ACTION_INSERT,
	ST_ACTION_ATTESTED,
	ST_ACTION_LIST,
	ST_ACTION_GET,
	ST_ACTION_COND,
	ST_MAIL_SEEN_FIND,
	ST_MAIL_SEEN_INSERT,
	ST_MAIL_STATE_GET,
	ST_MAIL_STATE_SET,
	ST_OUTBOX_INSERT,
	ST_OUTBOX_DUE,
	ST_OUTBOX_SENT,
	ST_OUTBOX_RETRY,
	ST_OUTBOX_FAILED,
	ST_OUTBOX_RECENT,
	ST_OUTBOX_PENDING,
	ST_REFUSAL_HOLD,
	ST_REFUSAL_SUMMARISED,
	ST_REFUSAL_DUE,
	ST_REFUSAL_GET,
	ST_OUTBOX_RECENT_ALL,
	ST_GAME_REMIND,
	ST_REMINDER_INSERT,
	ST_REMINDER_GET,
	ST_LEAVE_INSERT,
	ST_LEAVE_LIST,
	ST_EVENT_INSERT,
	ST_EVENT_BY_NAME,
	ST_EVENT_BY_GAME,
	ST_EVENT_LIST,
	ST_EVENT_UPDATE,
	ST_EVENT_PLAYER_INSERT,
	ST_EVENT_PLAYER_DELETE,
	ST_EVENT_PLAYER_UPDATE,
	ST_EVENT_PLAYER_LIST,
	ST_EVENT_GAME_INSERT,
	ST_EVENT_GAME_ADJUST,
	ST_EVENT_GAME_LIST,
	ST_DOORS_GET,
	ST_DOORS_SET,
	ST_GAME_AUTH_GET,
	ST_GAME_AUTH_SET,
	ST_EVENT_AUTH_GET,
	ST_EVENT_AUTH_SET,
	ST_GAME_RULES_GET,
	ST_GAME_RULES_SET,
	ST_GAME_CREATION_GET,
	ST_GAME_CREATION_SET,
	ST_COND_INSERT,
	ST_COND_ACTIVE,
	ST_COND_PLAYED,
	ST_COND_END,
	ST_RATING_GET,
	ST_RATING_SET,
	ST_RATING_LIST,
	ST_RATING_HISTORY_INSERT,
	ST_RATING_HISTORY_LIST,
	ST_RATING_HISTORY_GET,
	ST_INVITATION_INSERT,
	ST_INVITATION_FIND,
	ST_INVITATION_USE,
	ST_COND_END_BY_KEY,
	ST_SETTINGS_GET,
	ST_SETTINGS_SET,
	ST_SETTINGS_REMINDERS,
	ST_SELF_COUNT,
	ST_SELF_INSERT,
	ST_EMAIL_CHANGE_SET,
	ST_EMAIL_CHANGE_GET,
	ST_EMAIL_CHANGE_CLEAR,
	ST_MAIL_TOKEN_INSERT,
	ST_MAIL_TOKEN_FIND,
	ST_MAIL_TOKEN_USE,
	ST_COUNT
};

/*
 * A statement: its name (in errors and plans), and its text; `pg`, when
 * set, is PostgreSQL's text where SQLite's will not do (placeholders may
 * stay "?N": the engine writes them "$N").
 */
struct store_statement {
	const char	*name;
	int		 scan;		/* a listing allowed to walk a table */
	const char	*sql;
	const char	*pg;		/* NULL: the same as sql */
};

/*
 * The advisory locks of the writers on PostgreSQL, always taken in this
 * order, so two servers never wait on each other in a circle:
 *   1. the write lock (one bigint key): store_begin() takes it alone,
 *      exclusive (SQLite's BEGIN IMMEDIATE: work that may touch any game,
 *      players, keys, events); store_begin_games() takes it shared;
 *   2. one lock per game (STORE_PG_GAME_LOCK, the game's id), exclusive,
 *      in ascending order of key, at the start of the transaction;
 *   3. the results lock (STORE_PG_RESULTS_LOCK, 0), exclusive, taken in
 *      the middle of a transaction where a game ended (ratings, the end of
 *      its event), the last lock a transaction takes.
 */
#define STORE_PG_WRITE_LOCK	"716196266303"
#define STORE_PG_GAME_LOCK	71619627
#define STORE_PG_GAME_LOCK_TEXT	"71619627"
#define STORE_PG_RESULTS_LOCK	"71619628"
/* The first half of the advisory locks of store_lead() (the role is the
 * second). */
#define STORE_PG_LEAD_LOCK	"71619626"


/* sql.c */
extern const struct store_statement	store_sql[ST_COUNT];

/* Games noted by id as written, before a handle just says "many". */
#define STORE_GAMES_WRITTEN_MAX	256

struct store {
	struct db	*db;
	struct db_stmt	*stmt[ST_COUNT];	/* prepared on first use */
	char		 err[STORE_ERR_SIZE];
	/* A player, a key or doors written since store_players_written();
	 * a rating since store_ratings_written(). */
	bool		 players_written;
	bool		 ratings_written;
	/* Games whose row was written since store_games_written(); past
	 * STORE_GAMES_WRITTEN_MAX of them, `games_many` instead. */
	int64_t		 games_written[STORE_GAMES_WRITTEN_MAX];
	size_t		 ngames_written;
	bool		 games_many;
	/* A record's append and a game's update are sent without waiting
	 * (store_send_writes_ahead(); PostgreSQL only). */
	bool		 ahead;
};

/* store.c: errors. */

/* Write a message into the handle's error buffer. */
void	store_seterr(struct store *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Turn a failed db_rc into a status, recording the reason. */
enum store_status store_fail(struct store *, enum db_rc rc,
		    const char *what);

/* store.c: statements. */

/* Return the text of statement `id` for the store's engine. */
const char	*store_sql_text(const struct store *, enum stmt_id);
/* Return the cached statement `id`, preparing it on first use. */
struct db_stmt	*store_stmt(struct store *, enum stmt_id);
/* Reset a statement and drop its bindings for the next use. */
void		 store_done(struct db_stmt *);
/*
 * Run a write that returns no rows and cannot miss its row: sent without
 * waiting for its answer when the handle sends writes ahead (store.h),
 * else as store_exec_stmt().
 */
enum store_status store_exec_ahead(struct store *, struct db_stmt *,
		    const char *what);
/* Run a statement that returns no rows. */
enum store_status store_exec_stmt(struct store *, struct db_stmt *,
		    const char *what);
/* Run an INSERT; on success set *id to the new row's id. */
enum store_status store_exec_insert(struct store *, struct db_stmt *,
		    const char *what, int64_t *id);
/* Run an UPDATE that must change a row: STORE_NOTFOUND (`missing`) if
 * it changed none. */
enum store_status store_exec_change(struct store *, struct db_stmt *,
		    const char *what, const char *missing);
/*
 * Step a statement that returns at most one row: STORE_OK with the row to
 * read, or STORE_NOTFOUND (with `missing` as the reason, unless NULL) or
 * the failure. Call store_done() after, in every case.
 */
enum store_status store_step_one(struct store *, struct db_stmt *,
		    const char *what, const char *missing);
/*
 * End a walk over a statement's rows: the failure of the step that ended
 * it (rc), unless `status` says the walk failed already; then reset.
 */
enum store_status store_rows_done(struct store *, struct db_stmt *,
		    enum db_rc rc, enum store_status status, const char *what);
/* Run a statement that returns one integer (a COUNT) into *n. */
enum store_status store_exec_count(struct store *, struct db_stmt *,
		    const char *what, int64_t *n);
/* Run one-off SQL (PRAGMA, DDL); DB_OK, or the failure with its reason
 * in the handle. */
enum db_rc	 store_exec(struct store *, const char *sql);

/* store.c: values. */

/* Check that a text fits its field; -1 with a reason when not. */
int	store_fits(struct store *, const char *text, size_t size,
	    const char *field);
/* Check that a text is one of a NULL-ended list; -1 with a reason when
 * not. */
int	store_oneof(struct store *, const char *text,
	    const char *const *list, const char *field);
/* Bind a text, or NULL when it is empty. */
int	store_bind_opt_text(struct db_stmt *, int i, const char *text);
/* Bind an integer, or NULL when it equals `none`. */
int	store_bind_opt_int(struct db_stmt *, int i, int64_t v, int64_t none);
/* Copy a text column into a field (NULL reads as ""); -1 if too long. */
int	store_col_text(struct db_stmt *, int col, char *buf, size_t size);
/* Copy a blob column of exactly `len` bytes; -1 otherwise. */
int	store_col_blob(struct db_stmt *, int col, uint8_t *buf, size_t len);
/* Read an integer column, `none` when NULL. */
int64_t	store_col_opt_int(struct db_stmt *, int col, int64_t none);

/* schema.c */

/*
 * Create the version table and migrate up to version `target`
 * (1..STORE_SCHEMA_VERSION). -1 with a reason in the handle.
 */
int	store_schema_migrate(struct store *, int target);
/* Read the version without a lock; 0 when there is no version table. */
int	store_schema_peek(struct store *);

#endif /* CORRCHESS_STORE_INT_H */
