/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * The store on SQLite. Every statement is in the table below, prepared once
 * per handle on first use and reset after each use; every lookup goes by a
 * primary key or an index (store_explain() shows the plans, a test checks
 * them). The SQL keeps to what PostgreSQL also accepts where that costs
 * nothing: no INSERT OR REPLACE, no RETURNING (SQLite 3.31 lacks it),
 * explicit column lists, LIMIT/OFFSET with a plain number, ORDER BY an
 * ordinal in compound selects, partial indexes. What a PostgreSQL port would
 * change: the DDL types (INTEGER PRIMARY KEY -> bigint identity, INTEGER ->
 * bigint, BLOB -> bytea), BEGIN IMMEDIATE (-> BEGIN, relying on the
 * (game_id, seq) key against a concurrent append), the PRAGMAs, and
 * sqlite3_last_insert_rowid() (-> RETURNING id).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"

#define STORE_ERR_SIZE		256
#define STORE_BUSY_DEFAULT	5000	/* ms */

/*
 * Schema migrations: step i takes the database from version i to i + 1.
 * Each runs in its own transaction together with the version bump. Append
 * steps only; never edit one that has shipped. Steps add (tables, columns,
 * indexes) and copy; they never drop data.
 */
static const char *const store_migrations[] = {
	/* 0 -> 1: players, keys, games, the record. */
	"CREATE TABLE players ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE"
	"    CHECK (length(name) BETWEEN 1 AND 32),"
	"  email TEXT NOT NULL DEFAULT '',"
	"  lang TEXT NOT NULL DEFAULT 'en',"
	"  created INTEGER NOT NULL"
	");"
	"CREATE TABLE player_keys ("
	"  id INTEGER PRIMARY KEY,"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  pubkey BLOB NOT NULL CHECK (length(pubkey) = 32),"
	"  comment TEXT NOT NULL DEFAULT '',"
	"  added INTEGER NOT NULL,"
	"  revoked INTEGER,"
	"  UNIQUE (player_id, pubkey)"
	");"
	"CREATE INDEX player_keys_pubkey ON player_keys (pubkey);"
	"CREATE TABLE games ("
	"  id INTEGER PRIMARY KEY,"
	"  white INTEGER NOT NULL REFERENCES players (id),"
	"  black INTEGER NOT NULL REFERENCES players (id),"
	"  variant TEXT NOT NULL,"
	"  chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959),"
	"  start_fen TEXT NOT NULL,"
	"  time_control TEXT NOT NULL,"
	"  policy TEXT NOT NULL,"
	"  event TEXT NOT NULL DEFAULT '',"
	"  site TEXT NOT NULL DEFAULT '',"
	"  round TEXT NOT NULL DEFAULT '',"
	"  created INTEGER NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('ongoing', 'finished')),"
	"  result TEXT NOT NULL"
	"    CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),"
	"  termination TEXT NOT NULL DEFAULT '',"
	"  ply INTEGER NOT NULL CHECK (ply >= 0),"
	"  fen TEXT NOT NULL,"
	"  turn INTEGER NOT NULL CHECK (turn IN (0, 1)),"
	"  draw_offer INTEGER CHECK (draw_offer IN (0, 1)),"
	"  deadline INTEGER,"
	"  head BLOB NOT NULL CHECK (length(head) = 32),"
	"  updated INTEGER NOT NULL"
	");"
	"CREATE INDEX games_white ON games (white, status);"
	"CREATE INDEX games_black ON games (black, status);"
	"CREATE INDEX games_status ON games (status);"
	"CREATE TABLE actions ("
	"  game_id INTEGER NOT NULL REFERENCES games (id),"
	"  seq INTEGER NOT NULL CHECK (seq >= 1),"
	"  ply INTEGER NOT NULL CHECK (ply >= 0),"
	"  player_id INTEGER REFERENCES players (id),"
	"  key_id INTEGER REFERENCES player_keys (id),"
	"  kind TEXT NOT NULL,"
	"  move_text TEXT,"
	"  san TEXT,"
	"  statement TEXT,"
	"  signature TEXT,"
	"  at INTEGER NOT NULL,"
	"  prev_hash BLOB NOT NULL CHECK (length(prev_hash) = 32),"
	"  hash BLOB NOT NULL CHECK (length(hash) = 32),"
	"  source TEXT NOT NULL,"
	"  PRIMARY KEY (game_id, seq)"
	");",

	/* 1 -> 2: the clock thread finds due games by deadline. */
	"CREATE INDEX games_deadline ON games (status, deadline)"
	"  WHERE deadline IS NOT NULL;",

	/* 2 -> 3: mail: messages seen, the IMAP position, the outbox. */
	"CREATE TABLE mail_seen ("
	"  id INTEGER PRIMARY KEY,"
	"  mailbox TEXT NOT NULL,"
	"  uidvalidity INTEGER NOT NULL,"
	"  uid INTEGER NOT NULL,"
	"  message_id TEXT,"
	"  sender TEXT NOT NULL DEFAULT '',"
	"  received INTEGER NOT NULL,"
	"  outcome TEXT NOT NULL,"
	"  game_id INTEGER,"
	"  UNIQUE (mailbox, uidvalidity, uid)"
	");"
	"CREATE INDEX mail_seen_message_id ON mail_seen (message_id)"
	"  WHERE message_id IS NOT NULL;"
	"CREATE TABLE mail_state ("
	"  mailbox TEXT PRIMARY KEY,"
	"  uidvalidity INTEGER NOT NULL,"
	"  last_uid INTEGER NOT NULL"
	");"
	"CREATE TABLE outbox ("
	"  id INTEGER PRIMARY KEY,"
	"  game_id INTEGER,"
	"  kind TEXT NOT NULL,"
	"  recipient TEXT NOT NULL,"
	"  message TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL,"
	"  sent INTEGER,"
	"  failed INTEGER,"
	"  last_error TEXT NOT NULL DEFAULT ''"
	");"
	"CREATE INDEX outbox_due ON outbox (next_attempt)"
	"  WHERE sent IS NULL AND failed IS NULL;"
	"CREATE INDEX outbox_recipient ON outbox (recipient, kind, created);"
	"CREATE INDEX players_email ON players (email);",

	/* 3 -> 4: the reminders dealt with, per game, move and threshold
	 * (seconds before the deadline); sent_at is NULL when none was due. */
	"CREATE TABLE reminders ("
	"  game_id INTEGER NOT NULL REFERENCES games (id),"
	"  ply INTEGER NOT NULL CHECK (ply >= 0),"
	"  threshold INTEGER NOT NULL CHECK (threshold > 0),"
	"  sent_at INTEGER,"
	"  PRIMARY KEY (game_id, ply, threshold)"
	");",

	/* 4 -> 5: leaves: a player's clocks stand still from `start` to
	 * `until` (00:00 UTC of the first day, of the day after the last). */
	"CREATE TABLE leaves ("
	"  id INTEGER PRIMARY KEY,"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  start INTEGER NOT NULL,"
	"  until INTEGER NOT NULL,"
	"  taken INTEGER NOT NULL,"
	"  game_id INTEGER REFERENCES games (id),"
	"  statement TEXT,"
	"  signature TEXT,"
	"  CHECK (until > start)"
	");"
	"CREATE INDEX leaves_player ON leaves (player_id, until);",

	/* 5 -> 6: a player's digest preference ("none", "daily") and when
	 * the last digest was queued (0: never). */
	"ALTER TABLE players ADD COLUMN digest TEXT NOT NULL DEFAULT 'none' "
	"  CHECK (digest IN ('none', 'daily'));"
	"ALTER TABLE players ADD COLUMN digest_sent INTEGER NOT NULL "
	"  DEFAULT 0;",
};
#define STORE_NMIGRATIONS \
	((int)(sizeof store_migrations / sizeof store_migrations[0]))

#define PLAYER_COLUMNS	"id, name, email, lang, created, digest, digest_sent"
#define KEY_COLUMNS	"k.id, k.player_id, k.pubkey, k.comment, k.added, " \
			"k.revoked"
#define GAME_SELECT \
	"SELECT g.id, g.white, g.black, w.name, b.name, g.variant, " \
	"g.chess960, g.start_fen, g.time_control, g.policy, g.event, " \
	"g.site, g.round, g.created, g.status, g.result, g.termination, " \
	"g.ply, g.fen, g.turn, g.draw_offer, g.deadline, g.head, g.updated " \
	"FROM games g JOIN players w ON w.id = g.white " \
	"JOIN players b ON b.id = g.black "
#define MAIL_SEEN_COLUMNS \
	"mailbox, uidvalidity, uid, message_id, sender, received, outcome, " \
	"game_id"
#define OUTBOX_COLUMNS \
	"id, game_id, kind, recipient, message, created, attempts, " \
	"next_attempt, last_error"
#define ACTION_SELECT \
	"SELECT game_id, seq, ply, player_id, key_id, kind, move_text, san, " \
	"statement, signature, at, prev_hash, hash, source FROM actions "

enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_SAVEPOINT,
	ST_RELEASE,
	ST_ROLLBACK_TO,
	ST_VERSION,
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
	ST_GAME_INSERT,
	ST_GAME_GET,
	ST_GAME_UPDATE,
	ST_GAME_LIST,
	ST_GAME_LIST_STATUS,
	ST_GAME_LIST_PLAYER,
	ST_GAME_LIST_PLAYER_STATUS,
	ST_GAME_DUE,
	ST_GAME_COUNT,
	ST_ACTION_INSERT,
	ST_ACTION_LIST,
	ST_ACTION_GET,
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
	ST_GAME_REMIND,
	ST_REMINDER_INSERT,
	ST_REMINDER_GET,
	ST_LEAVE_INSERT,
	ST_LEAVE_LIST,
	ST_COUNT
};

/* Every statement; `scan` marks listings allowed to walk a table. */
static const struct {
	const char	*name;
	int		 scan;
	const char	*sql;
} store_sql[ST_COUNT] = {
	[ST_BEGIN] = { "begin", 0, "BEGIN IMMEDIATE" },
	[ST_COMMIT] = { "commit", 0, "COMMIT" },
	[ST_ROLLBACK] = { "rollback", 0, "ROLLBACK" },
	[ST_SAVEPOINT] = { "savepoint", 0, "SAVEPOINT action" },
	[ST_RELEASE] = { "release", 0, "RELEASE SAVEPOINT action" },
	[ST_ROLLBACK_TO] = { "rollback_to", 0, "ROLLBACK TO SAVEPOINT action" },
	[ST_VERSION] = { "version", 1, "SELECT version FROM schema_version" },
	[ST_PLAYER_INSERT] = { "player-insert", 0,
	    "INSERT INTO players (name, email, lang, created) "
	    "VALUES (?1, ?2, ?3, ?4)" },
	[ST_PLAYER_BY_ID] = { "player-by-id", 0,
	    "SELECT " PLAYER_COLUMNS " FROM players WHERE id = ?1" },
	[ST_PLAYER_BY_NAME] = { "player-by-name", 0,
	    "SELECT " PLAYER_COLUMNS " FROM players WHERE name = ?1" },
	[ST_PLAYER_BY_EMAIL] = { "player-by-email", 0,
	    "SELECT " PLAYER_COLUMNS " FROM players WHERE email = ?1 "
	    "ORDER BY id LIMIT 1" },
	[ST_PLAYER_LIST] = { "player-list", 1,
	    "SELECT " PLAYER_COLUMNS " FROM players ORDER BY name "
	    "LIMIT ?1 OFFSET ?2" },
	[ST_PLAYER_UPDATE] = { "player-update", 0,
	    "UPDATE players SET email = ?2, lang = ?3, digest = ?4 "
	    "WHERE id = ?1" },
	[ST_PLAYER_DIGEST] = { "player-digest", 0,
	    "UPDATE players SET digest = ?2 WHERE id = ?1" },
	[ST_PLAYER_DIGEST_SENT] = { "player-digest-sent", 0,
	    "UPDATE players SET digest_sent = ?2 WHERE id = ?1" },
	[ST_KEY_INSERT] = { "key-insert", 0,
	    "INSERT INTO player_keys (player_id, pubkey, comment, added, "
	    "revoked) VALUES (?1, ?2, ?3, ?4, ?5)" },
	[ST_KEY_LIST] = { "key-list", 0,
	    "SELECT " KEY_COLUMNS " FROM player_keys k "
	    "WHERE k.player_id = ?1 ORDER BY k.id" },
	[ST_KEY_REVOKE] = { "key-revoke", 0,
	    "UPDATE player_keys SET revoked = ?2 "
	    "WHERE id = ?1 AND revoked IS NULL" },
	[ST_KEY_EXISTS] = { "key-exists", 0,
	    "SELECT id FROM player_keys WHERE id = ?1" },
	[ST_KEY_FIND] = { "key-find", 0,
	    "SELECT " KEY_COLUMNS ", p.id, p.name, p.email, p.lang, p.created "
	    "FROM player_keys k JOIN players p ON p.id = k.player_id "
	    "WHERE k.pubkey = ?1 "
	    "ORDER BY CASE WHEN k.revoked IS NULL THEN 0 ELSE 1 END, k.id "
	    "LIMIT 1" },
	[ST_GAME_INSERT] = { "game-insert", 0,
	    "INSERT INTO games (white, black, variant, chess960, start_fen, "
	    "time_control, policy, event, site, round, created, status, "
	    "result, termination, ply, fen, turn, draw_offer, deadline, head, "
	    "updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	    "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)" },
	[ST_GAME_GET] = { "game-get", 0, GAME_SELECT "WHERE g.id = ?1" },
	[ST_GAME_UPDATE] = { "game-update", 0,
	    "UPDATE games SET status = ?2, result = ?3, termination = ?4, "
	    "ply = ?5, fen = ?6, turn = ?7, draw_offer = ?8, deadline = ?9, "
	    "head = ?10, updated = ?11 WHERE id = ?1" },
	[ST_GAME_LIST] = { "game-list", 1,
	    GAME_SELECT "ORDER BY g.id DESC LIMIT ?1 OFFSET ?2" },
	[ST_GAME_LIST_STATUS] = { "game-list-status", 0,
	    GAME_SELECT "WHERE g.status = ?3 "
	    "ORDER BY g.id DESC LIMIT ?1 OFFSET ?2" },
	[ST_GAME_LIST_PLAYER] = { "game-list-player", 0,
	    GAME_SELECT "WHERE (g.white = ?4 OR g.black = ?4) "
	    "ORDER BY g.id DESC LIMIT ?1 OFFSET ?2" },
	[ST_GAME_LIST_PLAYER_STATUS] = { "game-list-player-status", 0,
	    GAME_SELECT "WHERE g.white = ?4 AND g.status = ?3 UNION ALL "
	    GAME_SELECT "WHERE g.black = ?4 AND g.white <> ?4 "
	    "AND g.status = ?3 ORDER BY 1 DESC LIMIT ?1 OFFSET ?2" },
	[ST_GAME_DUE] = { "game-due", 0,
	    GAME_SELECT "WHERE g.deadline IS NOT NULL AND g.deadline <= ?1 "
	    "AND g.status = 'ongoing' ORDER BY g.deadline LIMIT ?2" },
	[ST_GAME_COUNT] = { "game-count", 0,
	    "SELECT COUNT(*) FROM games WHERE status = ?1" },
	[ST_ACTION_INSERT] = { "action-insert", 0,
	    "INSERT INTO actions (game_id, seq, ply, player_id, key_id, kind, "
	    "move_text, san, statement, signature, at, prev_hash, hash, "
	    "source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	    "?12, ?13, ?14)" },
	[ST_ACTION_LIST] = { "action-list", 0,
	    ACTION_SELECT "WHERE game_id = ?1 ORDER BY seq" },
	[ST_ACTION_GET] = { "action-get", 0,
	    ACTION_SELECT "WHERE game_id = ?1 AND seq = ?2" },
	[ST_MAIL_SEEN_FIND] = { "mail-seen-find", 0,
	    "SELECT " MAIL_SEEN_COLUMNS " FROM mail_seen "
	    "WHERE mailbox = ?1 AND uidvalidity = ?2 AND uid = ?3 UNION ALL "
	    "SELECT " MAIL_SEEN_COLUMNS " FROM mail_seen "
	    "WHERE message_id = ?4 LIMIT 1" },
	[ST_MAIL_SEEN_INSERT] = { "mail-seen-insert", 0,
	    "INSERT INTO mail_seen (mailbox, uidvalidity, uid, message_id, "
	    "sender, received, outcome, game_id) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" },
	[ST_MAIL_STATE_GET] = { "mail-state-get", 0,
	    "SELECT uidvalidity, last_uid FROM mail_state WHERE mailbox = ?1" },
	[ST_MAIL_STATE_SET] = { "mail-state-set", 0,
	    "INSERT INTO mail_state (mailbox, uidvalidity, last_uid) "
	    "VALUES (?1, ?2, ?3) ON CONFLICT (mailbox) DO UPDATE SET "
	    "uidvalidity = excluded.uidvalidity, last_uid = excluded.last_uid" },
	[ST_OUTBOX_INSERT] = { "outbox-insert", 0,
	    "INSERT INTO outbox (game_id, kind, recipient, message, created, "
	    "next_attempt) VALUES (?1, ?2, ?3, ?4, ?5, ?5)" },
	[ST_OUTBOX_DUE] = { "outbox-due", 0,
	    "SELECT " OUTBOX_COLUMNS " FROM outbox "
	    "WHERE sent IS NULL AND failed IS NULL AND next_attempt <= ?1 "
	    "ORDER BY next_attempt, id LIMIT ?2" },
	[ST_OUTBOX_SENT] = { "outbox-sent", 0,
	    "UPDATE outbox SET sent = ?2, attempts = attempts + 1 "
	    "WHERE id = ?1 AND sent IS NULL" },
	[ST_OUTBOX_RETRY] = { "outbox-retry", 0,
	    "UPDATE outbox SET attempts = attempts + 1, next_attempt = ?2, "
	    "last_error = ?3 WHERE id = ?1 AND sent IS NULL" },
	[ST_OUTBOX_FAILED] = { "outbox-failed", 0,
	    "UPDATE outbox SET attempts = attempts + 1, failed = ?2, "
	    "last_error = ?3 WHERE id = ?1 AND sent IS NULL" },
	[ST_OUTBOX_RECENT] = { "outbox-recent", 0,
	    "SELECT COUNT(*) FROM outbox "
	    "WHERE recipient = ?1 AND kind = ?2 AND created >= ?3" },
	[ST_OUTBOX_PENDING] = { "outbox-pending", 0,
	    "SELECT COUNT(*) FROM outbox WHERE sent IS NULL AND failed IS NULL "
	    "AND next_attempt >= 0" },
	[ST_GAME_REMIND] = { "game-remind", 0,
	    GAME_SELECT "WHERE g.status = 'ongoing' AND g.deadline IS NOT NULL "
	    "AND g.deadline > ?1 AND g.deadline <= ?2 AND NOT EXISTS "
	    "(SELECT 1 FROM reminders r WHERE r.game_id = g.id "
	    "AND r.ply = g.ply AND r.threshold = ?3) "
	    "ORDER BY g.deadline LIMIT ?4" },
	[ST_REMINDER_INSERT] = { "reminder-insert", 0,
	    "INSERT INTO reminders (game_id, ply, threshold, sent_at) "
	    "VALUES (?1, ?2, ?3, ?4)" },
	[ST_REMINDER_GET] = { "reminder-get", 0,
	    "SELECT sent_at FROM reminders "
	    "WHERE game_id = ?1 AND ply = ?2 AND threshold = ?3" },
	[ST_LEAVE_INSERT] = { "leave-insert", 0,
	    "INSERT INTO leaves (player_id, start, until, taken, game_id, "
	    "statement, signature) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)" },
	[ST_LEAVE_LIST] = { "leave-list", 0,
	    "SELECT id, player_id, start, until, taken, game_id FROM leaves "
	    "WHERE player_id = ?1 AND until > ?2 ORDER BY start, id" },
};

struct store {
	sqlite3		*db;
	sqlite3_stmt	*stmt[ST_COUNT];
	char		 err[STORE_ERR_SIZE];
};

static const char *const store_langs[] = { "en", "fr", NULL };
static const char *const store_digests[] = { "none", "daily", NULL };
static const char *const store_variants[] = { "standard", "chess960", NULL };
static const char *const store_policies[] = { "auto", "claim", NULL };
static const char *const store_sources[] = { "http", "mail", "admin",
    "clock", NULL };

static void	store_seterr(struct store *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Write a message into the handle's error buffer. */
static void
store_seterr(struct store *s, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
}

/* Turn an SQLite result into a status, recording the reason. */
static enum store_status
store_fail(struct store *s, int rc, const char *what)
{
	store_seterr(s, "%s: %s", what, sqlite3_errmsg(s->db));
	switch (rc) {
	case SQLITE_CONSTRAINT_UNIQUE:
	case SQLITE_CONSTRAINT_PRIMARYKEY:
		return STORE_EXISTS;
	case SQLITE_CONSTRAINT_FOREIGNKEY:
		return STORE_NOTFOUND;
	default:
		break;
	}
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_BUSY;
	default:
		return STORE_ERROR;
	}
}

/* Return the cached statement `id`, preparing it on first use. */
static sqlite3_stmt *
store_stmt(struct store *s, enum stmt_id id)
{
	int	rc;

	if (s->stmt[id] != NULL)
		return s->stmt[id];
	rc = sqlite3_prepare_v3(s->db, store_sql[id].sql, -1,
	    SQLITE_PREPARE_PERSISTENT, &s->stmt[id], NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "prepare %s: %s", store_sql[id].name,
		    sqlite3_errmsg(s->db));
		s->stmt[id] = NULL;
		return NULL;
	}
	return s->stmt[id];
}

/* Reset a statement and drop its bindings for the next use. */
static void
store_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Run a statement that returns no rows. */
static enum store_status
store_exec_stmt(struct store *s, sqlite3_stmt *st, const char *what)
{
	enum store_status	status = STORE_OK;
	int			rc;

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		status = store_fail(s, rc, what);
	store_done(st);
	return status;
}

/* Check that a text fits its field; -1 with a reason when not. */
static int
store_fits(struct store *s, const char *text, size_t size, const char *field)
{
	if (text == NULL || strnlen(text, size) >= size) {
		store_seterr(s, "%s is too long (at most %zu bytes)", field,
		    size - 1);
		return -1;
	}
	return 0;
}

/* Check that a text is one of a list; -1 with a reason when not. */
static int
store_oneof(struct store *s, const char *text, const char *const *list,
    const char *field)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++) {
		if (strcmp(text, list[i]) == 0)
			return 0;
	}
	store_seterr(s, "bad %s \"%.32s\"", field, text);
	return -1;
}

/* Bind a text, or NULL when it is empty. */
static int
store_bind_opt_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text == NULL || *text == '\0')
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
}

/* Bind an integer, or NULL when it equals `none`. */
static int
store_bind_opt_int(sqlite3_stmt *st, int i, int64_t v, int64_t none)
{
	if (v == none)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_int64(st, i, v);
}

/* Copy a text column into a field (NULL reads as ""); -1 if too long. */
static int
store_col_text(sqlite3_stmt *st, int col, char *buf, size_t size)
{
	const unsigned char	*text;
	int			 len;

	text = sqlite3_column_text(st, col);
	len = sqlite3_column_bytes(st, col);
	if (text == NULL) {
		buf[0] = '\0';
		return 0;
	}
	if ((size_t)len >= size)
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return 0;
}

/* Copy a blob column of exactly `len` bytes; -1 otherwise. */
static int
store_col_blob(sqlite3_stmt *st, int col, uint8_t *buf, size_t len)
{
	const void	*blob;

	blob = sqlite3_column_blob(st, col);
	if (blob == NULL || (size_t)sqlite3_column_bytes(st, col) != len)
		return -1;
	memcpy(buf, blob, len);
	return 0;
}

/* Read an integer column, `none` when NULL. */
static int64_t
store_col_opt_int(sqlite3_stmt *st, int col, int64_t none)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return none;
	return sqlite3_column_int64(st, col);
}

/* Read a player from columns `c`... */
static int
store_read_player(struct store *s, sqlite3_stmt *st, int c,
    struct store_player *p)
{
	memset(p, 0, sizeof *p);
	p->id = sqlite3_column_int64(st, c);
	p->created = sqlite3_column_int64(st, c + 4);
	p->digest_sent = sqlite3_column_int64(st, c + 6);
	if (store_col_text(st, c + 1, p->name, sizeof p->name) != 0 ||
	    store_col_text(st, c + 2, p->email, sizeof p->email) != 0 ||
	    store_col_text(st, c + 3, p->lang, sizeof p->lang) != 0 ||
	    store_col_text(st, c + 5, p->digest, sizeof p->digest) != 0) {
		store_seterr(s, "player %lld: stored text too long",
		    (long long)p->id);
		return -1;
	}
	return 0;
}

/* Read a key from columns `c`... */
static int
store_read_key(struct store *s, sqlite3_stmt *st, int c, struct store_key *k)
{
	memset(k, 0, sizeof *k);
	k->id = sqlite3_column_int64(st, c);
	k->player_id = sqlite3_column_int64(st, c + 1);
	k->added = sqlite3_column_int64(st, c + 4);
	k->revoked = store_col_opt_int(st, c + 5, 0);
	if (store_col_blob(st, c + 2, k->pubkey, sizeof k->pubkey) != 0 ||
	    store_col_text(st, c + 3, k->comment, sizeof k->comment) != 0) {
		store_seterr(s, "key %lld: bad stored field", (long long)k->id);
		return -1;
	}
	return 0;
}

/* Read a game row of GAME_SELECT. */
static int
store_read_game(struct store *s, sqlite3_stmt *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, 0);
	g->white = sqlite3_column_int64(st, 1);
	g->black = sqlite3_column_int64(st, 2);
	g->chess960 = (int)store_col_opt_int(st, 6, -1);
	g->created = sqlite3_column_int64(st, 13);
	g->ply = sqlite3_column_int(st, 17);
	g->turn = sqlite3_column_int(st, 19);
	g->draw_offer = (int)store_col_opt_int(st, 20, -1);
	g->deadline = store_col_opt_int(st, 21, 0);
	g->updated = sqlite3_column_int64(st, 23);
	if (store_col_text(st, 3, g->white_name, sizeof g->white_name) != 0 ||
	    store_col_text(st, 4, g->black_name, sizeof g->black_name) != 0 ||
	    store_col_text(st, 5, g->variant, sizeof g->variant) != 0 ||
	    store_col_text(st, 7, g->start_fen, sizeof g->start_fen) != 0 ||
	    store_col_text(st, 8, g->time_control,
	    sizeof g->time_control) != 0 ||
	    store_col_text(st, 9, g->policy, sizeof g->policy) != 0 ||
	    store_col_text(st, 10, g->event, sizeof g->event) != 0 ||
	    store_col_text(st, 11, g->site, sizeof g->site) != 0 ||
	    store_col_text(st, 12, g->round, sizeof g->round) != 0 ||
	    store_col_text(st, 14, g->status, sizeof g->status) != 0 ||
	    store_col_text(st, 15, g->result, sizeof g->result) != 0 ||
	    store_col_text(st, 16, g->termination,
	    sizeof g->termination) != 0 ||
	    store_col_text(st, 18, g->fen, sizeof g->fen) != 0 ||
	    store_col_blob(st, 22, g->head, sizeof g->head) != 0) {
		store_seterr(s, "game %lld: bad stored field", (long long)g->id);
		return -1;
	}
	return 0;
}

/*
 * Read an action row of ACTION_SELECT; statement and signature point into
 * the statement's row (valid until the next step or reset).
 */
static int
store_read_action(struct store *s, sqlite3_stmt *st, struct store_action *a)
{
	memset(a, 0, sizeof *a);
	a->game_id = sqlite3_column_int64(st, 0);
	a->seq = sqlite3_column_int64(st, 1);
	a->ply = sqlite3_column_int(st, 2);
	a->player_id = store_col_opt_int(st, 3, 0);
	a->key_id = store_col_opt_int(st, 4, 0);
	a->at = sqlite3_column_int64(st, 10);
	if (store_col_text(st, 5, a->kind, sizeof a->kind) != 0 ||
	    store_col_text(st, 6, a->move, sizeof a->move) != 0 ||
	    store_col_text(st, 7, a->san, sizeof a->san) != 0 ||
	    store_col_blob(st, 11, a->prev_hash, sizeof a->prev_hash) != 0 ||
	    store_col_blob(st, 12, a->hash, sizeof a->hash) != 0 ||
	    store_col_text(st, 13, a->source, sizeof a->source) != 0) {
		store_seterr(s, "game %lld action %lld: bad stored field",
		    (long long)a->game_id, (long long)a->seq);
		return -1;
	}
	a->statement = (char *)sqlite3_column_text(st, 8);
	a->signature = (char *)sqlite3_column_text(st, 9);
	return 0;
}

/* Run a one-off statement (PRAGMA, DDL) with sqlite3_exec. */
static int
store_exec(struct store *s, const char *sql)
{
	char	*msg = NULL;
	int	 rc;

	rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s", msg != NULL ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
	}
	return rc;
}

/* Read the schema version; -1 on error. */
static int
store_read_version(struct store *s)
{
	sqlite3_stmt	*st;
	int		 rc, version = -1;

	if ((st = store_stmt(s, ST_VERSION)) == NULL)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	else if (rc == SQLITE_DONE)
		store_seterr(s, "schema_version has no row");
	else
		store_fail(s, rc, "read schema version");
	store_done(st);
	return version;
}

/* Read the version without taking a lock; 0 when there is no table yet. */
static int
store_peek_version(struct store *s)
{
	sqlite3_stmt	*st = NULL;
	int		 version = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT version FROM schema_version",
	    -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return version;
}

/*
 * Create the version table, then apply each missing migration step up to
 * `target` in its own transaction. An up-to-date database is only read, so
 * opening a handle does not wait for another handle's writer. Another
 * process may migrate at the same time: the version is read again under
 * the write lock.
 */
static int
store_migrate(struct store *s, int target)
{
	char	bump[64];
	int	version, rc;

	version = store_peek_version(s);
	if (version >= target && version <= STORE_NMIGRATIONS)
		return 0;
	if (store_exec(s, "BEGIN IMMEDIATE") != SQLITE_OK)
		return -1;
	if (store_exec(s, "CREATE TABLE IF NOT EXISTS schema_version "
	    "(version INTEGER NOT NULL)") != SQLITE_OK ||
	    store_exec(s, "INSERT INTO schema_version (version) SELECT 0 "
	    "WHERE NOT EXISTS (SELECT 1 FROM schema_version)") != SQLITE_OK ||
	    store_exec(s, "COMMIT") != SQLITE_OK)
		goto fail;

	for (;;) {
		if (store_exec(s, "BEGIN IMMEDIATE") != SQLITE_OK)
			return -1;
		if ((version = store_read_version(s)) < 0)
			goto fail;
		if (version > STORE_NMIGRATIONS) {
			store_seterr(s, "database schema version %d is newer "
			    "than this program's (%d)", version,
			    STORE_NMIGRATIONS);
			goto fail;
		}
		if (version >= target) {
			rc = store_exec(s, "COMMIT");
			return rc == SQLITE_OK ? 0 : -1;
		}
		snprintf(bump, sizeof bump,
		    "UPDATE schema_version SET version = %d", version + 1);
		if (store_exec(s, store_migrations[version]) != SQLITE_OK) {
			char	reason[STORE_ERR_SIZE];

			snprintf(reason, sizeof reason, "%s", s->err);
			store_seterr(s, "migration to version %d: %s",
			    version + 1, reason);
			goto fail;
		}
		if (store_exec(s, bump) != SQLITE_OK ||
		    store_exec(s, "COMMIT") != SQLITE_OK)
			goto fail;
	}

fail:
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Read the one-row answer of a PRAGMA into buf; -1 on error. */
static int
store_pragma(struct store *s, const char *sql, char *buf, size_t size)
{
	sqlite3_stmt	*st = NULL;
	int		 rc, ret = -1;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK) {
		store_fail(s, rc, sql);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_col_text(st, 0, buf, size) != 0)
			buf[0] = '\0';
	} else if (rc == SQLITE_DONE)
		buf[0] = '\0';
	else {
		store_fail(s, rc, sql);
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* Open with the default options. */
struct store *
store_open(const char *path, char *err, size_t errsize)
{
	return store_open_with(path, NULL, err, errsize);
}

/* Open, configure and migrate a database. */
struct store *
store_open_with(const char *path, const struct store_options *opts,
    char *err, size_t errsize)
{
	struct store_options	 defaults = { STORE_SYNC_FULL, 0, 0 };
	struct store		*s;
	char			 mode[16];
	int			 rc, target;

	if (opts == NULL)
		opts = &defaults;
	target = opts->schema_version > 0 ? opts->schema_version :
	    STORE_NMIGRATIONS;
	if (target > STORE_NMIGRATIONS) {
		snprintf(err, errsize, "unknown schema version %d", target);
		return NULL;
	}
	if (sqlite3_threadsafe() == 0) {
		snprintf(err, errsize, "SQLite was built without threads");
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}

	/* One handle, one thread at a time: SQLite need not lock it. */
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s", s->db != NULL ? sqlite3_errmsg(s->db) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, opts->busy_timeout_ms > 0 ?
	    opts->busy_timeout_ms : STORE_BUSY_DEFAULT);

	if (store_pragma(s, "PRAGMA journal_mode = WAL", mode,
	    sizeof mode) != 0)
		goto fail;
	if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
		store_seterr(s, "cannot use WAL (journal mode is \"%s\")",
		    mode);
		goto fail;
	}
	if (store_exec(s, opts->sync == STORE_SYNC_NORMAL ?
	    "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL") !=
	    SQLITE_OK ||
	    store_exec(s, "PRAGMA foreign_keys = ON") != SQLITE_OK)
		goto fail;
	if (store_migrate(s, target) != 0)
		goto fail;
	return s;

fail:
	snprintf(err, errsize, "%s: %s", path, s->err);
	store_close(s);
	return NULL;
}

/* Close a handle, rolling back an open transaction. */
void
store_close(struct store *s)
{
	int	i;

	if (s == NULL)
		return;
	if (s->db != NULL && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close_v2(s->db);
	free(s);
}

/* Parse "full" or "normal". */
int
store_sync_parse(const char *text, enum store_sync *out)
{
	if (strcmp(text, "full") == 0)
		*out = STORE_SYNC_FULL;
	else if (strcmp(text, "normal") == 0)
		*out = STORE_SYNC_NORMAL;
	else
		return -1;
	return 0;
}

/* Return the message of the last failure. */
const char *
store_errmsg(const struct store *s)
{
	return s->err;
}

/* Return the name of a status. */
const char *
store_status_name(enum store_status status)
{
	switch (status) {
	case STORE_OK:
		return "ok";
	case STORE_NOTFOUND:
		return "not-found";
	case STORE_EXISTS:
		return "exists";
	case STORE_BUSY:
		return "busy";
	case STORE_ERROR:
		break;
	}
	return "error";
}

/* Return the schema version, or -1. */
int
store_schema_version(struct store *s)
{
	return store_read_version(s);
}

/* Check a player name against [a-z0-9_.-]{1,32}. */
bool
store_name_valid(const char *name)
{
	size_t	i;

	for (i = 0; name[i] != '\0'; i++) {
		if (i >= STORE_NAME_SIZE - 1)
			return false;
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') ||
		    name[i] == '_' || name[i] == '.' || name[i] == '-'))
			return false;
	}
	return i > 0;
}

/* Run one of the cached transaction statements. */
static enum store_status
store_txn(struct store *s, enum stmt_id id)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	return store_exec_stmt(s, st, store_sql[id].name);
}

/* Take the write lock and begin a transaction. */
enum store_status
store_begin(struct store *s)
{
	return store_txn(s, ST_BEGIN);
}

/* Commit the transaction. */
enum store_status
store_commit(struct store *s)
{
	return store_txn(s, ST_COMMIT);
}

/* Roll the transaction back. */
enum store_status
store_rollback(struct store *s)
{
	return store_txn(s, ST_ROLLBACK);
}

/* Mark a point inside the transaction that store_rollback_to() returns
 * to. */
enum store_status
store_savepoint(struct store *s)
{
	return store_txn(s, ST_SAVEPOINT);
}

/* Keep what was done since the savepoint. */
enum store_status
store_release(struct store *s)
{
	return store_txn(s, ST_RELEASE);
}

/* Undo what was done since the savepoint, and drop it. */
enum store_status
store_rollback_to(struct store *s)
{
	enum store_status	status;

	if ((status = store_txn(s, ST_ROLLBACK_TO)) != STORE_OK)
		return status;
	return store_txn(s, ST_RELEASE);
}

/* Add a player. */
enum store_status
store_player_create(struct store *s, struct store_player *p)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (!store_name_valid(p->name)) {
		store_seterr(s, "bad player name \"%.40s\"", p->name);
		return STORE_ERROR;
	}
	if (store_fits(s, p->email, sizeof p->email, "email") != 0 ||
	    store_oneof(s, p->lang, store_langs, "language") != 0 ||
	    (p->digest[0] != '\0' && store_oneof(s, p->digest,
	    store_digests, "digest") != 0))
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_PLAYER_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, p->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, p->email, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, p->lang, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, p->created);
	status = store_exec_stmt(s, st, "add player");
	if (status == STORE_EXISTS)
		store_seterr(s, "player \"%s\" exists", p->name);
	if (status == STORE_OK)
		p->id = sqlite3_last_insert_rowid(s->db);
	/* A digest other than the column's default (older schemas have
	 * no column to set). */
	if (status == STORE_OK && p->digest[0] != '\0' &&
	    strcmp(p->digest, "none") != 0) {
		if ((st = store_stmt(s, ST_PLAYER_DIGEST)) == NULL)
			return STORE_ERROR;
		sqlite3_bind_int64(st, 1, p->id);
		sqlite3_bind_text(st, 2, p->digest, -1, SQLITE_STATIC);
		status = store_exec_stmt(s, st, "set the player's digest");
	}
	return status;
}

/* Step a statement expected to return at most one player. */
static enum store_status
store_player_one(struct store *s, sqlite3_stmt *st, struct store_player *out)
{
	enum store_status	status = STORE_OK;
	int			rc;

	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_read_player(s, st, 0, out) != 0)
			status = STORE_ERROR;
	} else if (rc == SQLITE_DONE) {
		store_seterr(s, "no such player");
		status = STORE_NOTFOUND;
	} else
		status = store_fail(s, rc, "get player");
	store_done(st);
	return status;
}

/* Load a player by id. */
enum store_status
store_player_get(struct store *s, int64_t id, struct store_player *out)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_PLAYER_BY_ID)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	return store_player_one(s, st, out);
}

/* Load a player by name. */
enum store_status
store_player_get_by_name(struct store *s, const char *name,
    struct store_player *out)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_PLAYER_BY_NAME)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	return store_player_one(s, st, out);
}

/* Find the player with an e-mail address (the first registered). */
enum store_status
store_player_get_by_email(struct store *s, const char *email,
    struct store_player *out)
{
	sqlite3_stmt	*st;

	if (email == NULL || *email == '\0')
		return STORE_NOTFOUND;
	if ((st = store_stmt(s, ST_PLAYER_BY_EMAIL)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, email, -1, SQLITE_STATIC);
	return store_player_one(s, st, out);
}

/* List players in name order. */
enum store_status
store_player_list(struct store *s, int64_t limit, int64_t offset,
    store_player_cb cb, void *arg)
{
	sqlite3_stmt		*st;
	struct store_player	 p;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_PLAYER_LIST)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, limit > 0 ? limit : INT64_MAX);
	sqlite3_bind_int64(st, 2, offset > 0 ? offset : 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_read_player(s, st, 0, &p) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &p) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list players");
	store_done(st);
	return status;
}

/* Store a player's e-mail and language. */
enum store_status
store_player_update(struct store *s, const struct store_player *p)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, p->email, sizeof p->email, "email") != 0 ||
	    store_oneof(s, p->lang, store_langs, "language") != 0 ||
	    (p->digest[0] != '\0' && store_oneof(s, p->digest,
	    store_digests, "digest") != 0))
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_PLAYER_UPDATE)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, p->id);
	sqlite3_bind_text(st, 2, p->email, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, p->lang, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, p->digest[0] != '\0' ? p->digest : "none", -1,
	    SQLITE_STATIC);
	status = store_exec_stmt(s, st, "update player");
	if (status == STORE_OK && sqlite3_changes(s->db) == 0) {
		store_seterr(s, "no such player");
		status = STORE_NOTFOUND;
	}
	return status;
}

/* Record when a player's last digest was queued. */
enum store_status
store_player_digest_sent(struct store *s, int64_t id, int64_t when)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_PLAYER_DIGEST_SENT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, when);
	status = store_exec_stmt(s, st, "record the digest");
	if (status == STORE_OK && sqlite3_changes(s->db) == 0) {
		store_seterr(s, "no such player");
		status = STORE_NOTFOUND;
	}
	return status;
}

/* Register a key. */
enum store_status
store_key_add(struct store *s, struct store_key *k)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, k->comment, sizeof k->comment, "key comment") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_KEY_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, k->player_id);
	sqlite3_bind_blob(st, 2, k->pubkey, sizeof k->pubkey, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->comment, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, k->added);
	store_bind_opt_int(st, 5, k->revoked, 0);
	status = store_exec_stmt(s, st, "add key");
	if (status == STORE_EXISTS)
		store_seterr(s, "the player has this key already");
	else if (status == STORE_NOTFOUND)
		store_seterr(s, "no such player");
	else if (status == STORE_OK)
		k->id = sqlite3_last_insert_rowid(s->db);
	return status;
}

/* List a player's keys, oldest first. */
enum store_status
store_key_list(struct store *s, int64_t player_id, store_key_cb cb,
    void *arg)
{
	sqlite3_stmt		*st;
	struct store_key	 k;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_KEY_LIST)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, player_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_read_key(s, st, 0, &k) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &k) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list keys");
	store_done(st);
	return status;
}

/* Revoke a key, keeping the first revocation time. */
enum store_status
store_key_revoke(struct store *s, int64_t key_id, int64_t at)
{
	sqlite3_stmt		*st;
	enum store_status	 status;
	int			 rc;

	if ((st = store_stmt(s, ST_KEY_REVOKE)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, key_id);
	sqlite3_bind_int64(st, 2, at);
	status = store_exec_stmt(s, st, "revoke key");
	if (status != STORE_OK || sqlite3_changes(s->db) > 0)
		return status;

	/* Nothing changed: revoked already, or no such key. */
	if ((st = store_stmt(s, ST_KEY_EXISTS)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, key_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		store_seterr(s, "no such key");
		status = STORE_NOTFOUND;
	} else if (rc != SQLITE_ROW)
		status = store_fail(s, rc, "revoke key");
	store_done(st);
	return status;
}

/* Find a key and its player by public key. */
enum store_status
store_key_find(struct store *s, const uint8_t pubkey[STORE_PUBKEY_LEN],
    struct store_key *key, struct store_player *player)
{
	sqlite3_stmt		*st;
	struct store_key	 k;
	struct store_player	 p;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_KEY_FIND)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_blob(st, 1, pubkey, STORE_PUBKEY_LEN, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_read_key(s, st, 0, &k) != 0 ||
		    store_read_player(s, st, 6, &p) != 0)
			status = STORE_ERROR;
		else {
			if (key != NULL)
				*key = k;
			if (player != NULL)
				*player = p;
		}
	} else if (rc == SQLITE_DONE) {
		store_seterr(s, "unknown key");
		status = STORE_NOTFOUND;
	} else
		status = store_fail(s, rc, "find key");
	store_done(st);
	return status;
}

/* Check the state fields of a game before writing them. */
static int
store_check_state(struct store *s, const struct store_game *g)
{
	if (store_fits(s, g->status, sizeof g->status, "status") != 0 ||
	    store_fits(s, g->result, sizeof g->result, "result") != 0 ||
	    store_fits(s, g->termination, sizeof g->termination,
	    "termination") != 0 ||
	    store_fits(s, g->fen, sizeof g->fen, "FEN") != 0)
		return -1;
	if (g->draw_offer < -1 || g->draw_offer > 1) {
		store_seterr(s, "bad draw offer %d", g->draw_offer);
		return -1;
	}
	return 0;
}

/* Check the parameters of a new game. */
static int
store_check_params(struct store *s, const struct store_game *g)
{
	if (store_oneof(s, g->variant, store_variants, "variant") != 0 ||
	    store_oneof(s, g->policy, store_policies, "policy") != 0 ||
	    store_fits(s, g->start_fen, sizeof g->start_fen,
	    "start FEN") != 0 ||
	    store_fits(s, g->time_control, sizeof g->time_control,
	    "time control") != 0 ||
	    store_fits(s, g->event, sizeof g->event, "event") != 0 ||
	    store_fits(s, g->site, sizeof g->site, "site") != 0 ||
	    store_fits(s, g->round, sizeof g->round, "round") != 0)
		return -1;
	if ((strcmp(g->variant, "chess960") == 0) !=
	    (g->chess960 >= 0 && g->chess960 <= 959)) {
		store_seterr(s, "chess960 number %d does not fit variant %s",
		    g->chess960, g->variant);
		return -1;
	}
	return 0;
}

/* Bind the state fields shared by insert and update at ?first... */
static void
store_bind_state(sqlite3_stmt *st, int first, const struct store_game *g)
{
	sqlite3_bind_text(st, first, g->status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, first + 1, g->result, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, first + 2, g->termination, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, first + 3, g->ply);
	sqlite3_bind_text(st, first + 4, g->fen, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, first + 5, g->turn);
	store_bind_opt_int(st, first + 6, g->draw_offer, -1);
	store_bind_opt_int(st, first + 7, g->deadline, 0);
	sqlite3_bind_blob(st, first + 8, g->head, sizeof g->head,
	    SQLITE_STATIC);
	sqlite3_bind_int64(st, first + 9, g->updated);
}

/* Add a game. */
enum store_status
store_game_create(struct store *s, struct store_game *g)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_check_params(s, g) != 0 || store_check_state(s, g) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_GAME_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, g->white);
	sqlite3_bind_int64(st, 2, g->black);
	sqlite3_bind_text(st, 3, g->variant, -1, SQLITE_STATIC);
	store_bind_opt_int(st, 4, g->chess960, -1);
	sqlite3_bind_text(st, 5, g->start_fen, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, g->time_control, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, g->policy, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, g->event, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, g->site, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, g->round, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 11, g->created);
	store_bind_state(st, 12, g);
	status = store_exec_stmt(s, st, "add game");
	if (status == STORE_NOTFOUND)
		store_seterr(s, "no such player");
	else if (status == STORE_OK)
		g->id = sqlite3_last_insert_rowid(s->db);
	return status;
}

/* Load a game with its players' names. */
enum store_status
store_game_get(struct store *s, int64_t id, struct store_game *out)
{
	sqlite3_stmt		*st;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_GAME_GET)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_read_game(s, st, out) != 0)
			status = STORE_ERROR;
	} else if (rc == SQLITE_DONE) {
		store_seterr(s, "no such game");
		status = STORE_NOTFOUND;
	} else
		status = store_fail(s, rc, "get game");
	store_done(st);
	return status;
}

/* Store a game's state fields. */
enum store_status
store_game_update(struct store *s, const struct store_game *g)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_check_state(s, g) != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_GAME_UPDATE)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, g->id);
	store_bind_state(st, 2, g);
	status = store_exec_stmt(s, st, "update game");
	if (status == STORE_OK && sqlite3_changes(s->db) == 0) {
		store_seterr(s, "no such game");
		status = STORE_NOTFOUND;
	}
	return status;
}

/* Step a game listing, calling cb for each row. */
static enum store_status
store_game_rows(struct store *s, sqlite3_stmt *st, store_game_cb cb,
    void *arg)
{
	struct store_game	g;
	enum store_status	status = STORE_OK;
	int			rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_read_game(s, st, &g) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &g) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list games");
	store_done(st);
	return status;
}

/* List games, newest first, filtered by player and status. */
enum store_status
store_game_list(struct store *s, const struct store_game_filter *f,
    store_game_cb cb, void *arg)
{
	sqlite3_stmt		*st;
	struct store_player	 p;
	enum store_status	 status;
	enum stmt_id		 id;

	if (f->player != NULL) {
		status = store_player_get_by_name(s, f->player, &p);
		if (status != STORE_OK)
			return status;
		id = f->status != NULL ? ST_GAME_LIST_PLAYER_STATUS :
		    ST_GAME_LIST_PLAYER;
	} else
		id = f->status != NULL ? ST_GAME_LIST_STATUS : ST_GAME_LIST;

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, f->limit > 0 ? f->limit : INT64_MAX);
	sqlite3_bind_int64(st, 2, f->offset > 0 ? f->offset : 0);
	if (f->status != NULL)
		sqlite3_bind_text(st, 3, f->status, -1, SQLITE_STATIC);
	if (f->player != NULL)
		sqlite3_bind_int64(st, 4, p.id);
	return store_game_rows(s, st, cb, arg);
}

/* List ongoing games whose deadline has passed. */
enum store_status
store_game_list_due(struct store *s, int64_t now, int64_t limit,
    store_game_cb cb, void *arg)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_DUE)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, limit > 0 ? limit : INT64_MAX);
	return store_game_rows(s, st, cb, arg);
}

/* List ongoing games whose deadline is near and not yet reminded of. */
enum store_status
store_game_list_remind(struct store *s, int64_t now, int64_t threshold,
    int64_t limit, store_game_cb cb, void *arg)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_GAME_REMIND)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, now + threshold);
	sqlite3_bind_int64(st, 3, threshold);
	sqlite3_bind_int64(st, 4, limit > 0 ? limit : INT64_MAX);
	return store_game_rows(s, st, cb, arg);
}

/* Record that a game's reminder at a threshold was dealt with. */
enum store_status
store_reminder_add(struct store *s, int64_t game_id, int ply,
    int64_t threshold, int64_t sent_at)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_REMINDER_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, ply);
	sqlite3_bind_int64(st, 3, threshold);
	store_bind_opt_int(st, 4, sent_at, 0);
	return store_exec_stmt(s, st, "record a reminder");
}

/* Look up whether a game's reminder at a threshold was dealt with. */
enum store_status
store_reminder_get(struct store *s, int64_t game_id, int ply,
    int64_t threshold, int64_t *sent_at)
{
	sqlite3_stmt		*st;
	enum store_status	 status = STORE_NOTFOUND;
	int			 rc;

	if ((st = store_stmt(s, ST_REMINDER_GET)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int(st, 2, ply);
	sqlite3_bind_int64(st, 3, threshold);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		status = STORE_OK;
		if (sent_at != NULL)
			*sent_at = store_col_opt_int(st, 0, 0);
	} else if (rc != SQLITE_DONE)
		status = store_fail(s, rc, "look a reminder up");
	store_done(st);
	return status;
}

/* Record a leave; sets l->id. */
enum store_status
store_leave_add(struct store *s, struct store_leave *l)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_LEAVE_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, l->player_id);
	sqlite3_bind_int64(st, 2, l->start);
	sqlite3_bind_int64(st, 3, l->until);
	sqlite3_bind_int64(st, 4, l->taken);
	store_bind_opt_int(st, 5, l->game_id, 0);
	store_bind_opt_text(st, 6, l->statement);
	store_bind_opt_text(st, 7, l->signature);
	status = store_exec_stmt(s, st, "record a leave");
	if (status == STORE_OK)
		l->id = sqlite3_last_insert_rowid(s->db);
	return status;
}

/* List a player's leaves that end after `since`, in order. */
enum store_status
store_leave_list(struct store *s, int64_t player_id, int64_t since,
    store_leave_cb cb, void *arg)
{
	sqlite3_stmt		*st;
	struct store_leave	 l;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_LEAVE_LIST)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, player_id);
	sqlite3_bind_int64(st, 2, since);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&l, 0, sizeof l);
		l.id = sqlite3_column_int64(st, 0);
		l.player_id = sqlite3_column_int64(st, 1);
		l.start = sqlite3_column_int64(st, 2);
		l.until = sqlite3_column_int64(st, 3);
		l.taken = sqlite3_column_int64(st, 4);
		l.game_id = store_col_opt_int(st, 5, 0);
		if (cb(arg, &l) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list leaves");
	store_done(st);
	return status;
}

/* Count the games of one status. */
enum store_status
store_game_count(struct store *s, const char *status, int64_t *n)
{
	sqlite3_stmt		*st;
	enum store_status	 rv = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_GAME_COUNT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	else
		rv = store_fail(s, rc, "count games");
	store_done(st);
	return rv;
}

/* Append a record to a game. */
enum store_status
store_action_append(struct store *s, const struct store_action *a)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, a->kind, sizeof a->kind, "action kind") != 0 ||
	    store_fits(s, a->move, sizeof a->move, "move") != 0 ||
	    store_fits(s, a->san, sizeof a->san, "SAN") != 0 ||
	    store_oneof(s, a->source, store_sources, "source") != 0)
		return STORE_ERROR;
	if (a->kind[0] == '\0') {
		store_seterr(s, "action without kind");
		return STORE_ERROR;
	}
	if ((st = store_stmt(s, ST_ACTION_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, a->game_id);
	sqlite3_bind_int64(st, 2, a->seq);
	sqlite3_bind_int(st, 3, a->ply);
	store_bind_opt_int(st, 4, a->player_id, 0);
	store_bind_opt_int(st, 5, a->key_id, 0);
	sqlite3_bind_text(st, 6, a->kind, -1, SQLITE_STATIC);
	store_bind_opt_text(st, 7, a->move);
	store_bind_opt_text(st, 8, a->san);
	if (a->statement != NULL)
		sqlite3_bind_text(st, 9, a->statement, -1, SQLITE_STATIC);
	if (a->signature != NULL)
		sqlite3_bind_text(st, 10, a->signature, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 11, a->at);
	sqlite3_bind_blob(st, 12, a->prev_hash, sizeof a->prev_hash,
	    SQLITE_STATIC);
	sqlite3_bind_blob(st, 13, a->hash, sizeof a->hash, SQLITE_STATIC);
	sqlite3_bind_text(st, 14, a->source, -1, SQLITE_STATIC);
	status = store_exec_stmt(s, st, "append action");
	if (status == STORE_EXISTS)
		store_seterr(s, "game %lld has an action %lld already",
		    (long long)a->game_id, (long long)a->seq);
	else if (status == STORE_NOTFOUND)
		store_seterr(s, "no such game, player or key");
	return status;
}

/* Call back for each record of a game in seq order. */
enum store_status
store_action_list(struct store *s, int64_t game_id, store_action_cb cb,
    void *arg)
{
	sqlite3_stmt		*st;
	struct store_action	 a;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_ACTION_LIST)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, game_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_read_action(s, st, &a) != 0) {
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &a) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list actions");
	store_done(st);
	return status;
}

/* Copy a borrowed text into a malloc'd one (NULL stays NULL). */
static int
store_dup(const char *text, char **out)
{
	*out = NULL;
	if (text == NULL)
		return 0;
	if ((*out = strdup(text)) == NULL)
		return -1;
	return 0;
}

/* Load one record with malloc'd texts. */
enum store_status
store_action_get(struct store *s, int64_t game_id, int64_t seq,
    struct store_action *out)
{
	sqlite3_stmt		*st;
	struct store_action	 a;
	enum store_status	 status = STORE_OK;
	int			 rc;

	memset(out, 0, sizeof *out);
	if ((st = store_stmt(s, ST_ACTION_GET)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, game_id);
	sqlite3_bind_int64(st, 2, seq);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (store_read_action(s, st, &a) != 0)
			status = STORE_ERROR;
		else {
			*out = a;
			if (store_dup(a.statement, &out->statement) != 0 ||
			    store_dup(a.signature, &out->signature) != 0) {
				store_action_clear(out);
				store_seterr(s, "out of memory");
				status = STORE_ERROR;
			}
		}
	} else if (rc == SQLITE_DONE) {
		store_seterr(s, "no such action");
		status = STORE_NOTFOUND;
	} else
		status = store_fail(s, rc, "get action");
	store_done(st);
	return status;
}

/* Free the texts of a loaded record. */
void
store_action_clear(struct store_action *a)
{
	if (a == NULL)
		return;
	free(a->statement);
	free(a->signature);
	a->statement = NULL;
	a->signature = NULL;
}

/* Flush a directory entry to disk (after a rename). */
static int
store_sync_dir(const char *path)
{
	char	*dir, *slash;
	int	 fd, ret = -1;

	if ((dir = strdup(path)) == NULL)
		return -1;
	if ((slash = strrchr(dir, '/')) == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) != -1) {
		ret = fsync(fd);
		close(fd);
	}
	free(dir);
	return ret;
}

/* Copy the database to a file with the online backup API. */
enum store_status
store_backup(struct store *s, const char *path)
{
	sqlite3			*dst = NULL;
	sqlite3_backup		*b;
	enum store_status	 status = STORE_ERROR;
	char			*tmp = NULL;
	size_t			 len;
	int			 rc;

	if (!sqlite3_get_autocommit(s->db)) {
		store_seterr(s, "backup inside a transaction");
		return STORE_ERROR;
	}
	len = strlen(path) + sizeof ".tmp";
	if ((tmp = malloc(len)) == NULL) {
		store_seterr(s, "out of memory");
		return STORE_ERROR;
	}
	snprintf(tmp, len, "%s.tmp", path);
	if (unlink(tmp) == -1 && errno != ENOENT) {
		store_seterr(s, "%s: %s", tmp, strerror(errno));
		goto out;
	}

	rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		store_seterr(s, "%s: %s", tmp, dst != NULL ?
		    sqlite3_errmsg(dst) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_exec(dst, "PRAGMA synchronous = FULL", NULL, NULL, NULL);

	/* One step copies every page under one read transaction. */
	if ((b = sqlite3_backup_init(dst, "main", s->db, "main")) == NULL) {
		store_seterr(s, "backup: %s", sqlite3_errmsg(dst));
		goto out;
	}
	do {
		rc = sqlite3_backup_step(b, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		store_seterr(s, "backup: %s", sqlite3_errstr(rc));
		goto out;
	}
	rc = sqlite3_close(dst);
	dst = NULL;
	if (rc != SQLITE_OK) {
		store_seterr(s, "backup: close: %s", sqlite3_errstr(rc));
		goto out;
	}
	if (rename(tmp, path) == -1) {
		store_seterr(s, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (store_sync_dir(path) != 0) {
		store_seterr(s, "%s: sync directory: %s", path,
		    strerror(errno));
		goto out;
	}
	status = STORE_OK;
out:
	if (dst != NULL)
		sqlite3_close(dst);
	if (status != STORE_OK)
		unlink(tmp);
	free(tmp);
	return status;
}

/* Run the integrity and foreign key checks. */
enum store_status
store_integrity_check(struct store *s)
{
	sqlite3_stmt		*st = NULL;
	enum store_status	 status = STORE_ERROR;
	const char		*text;
	int			 rc;

	rc = sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st,
	    NULL);
	if (rc != SQLITE_OK) {
		status = store_fail(s, rc, "integrity check");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		text = (const char *)sqlite3_column_text(st, 0);
		if (text == NULL || strcmp(text, "ok") != 0) {
			store_seterr(s, "integrity: %s",
			    text != NULL ? text : "?");
			goto out;
		}
	}
	if (rc != SQLITE_DONE) {
		status = store_fail(s, rc, "integrity check");
		goto out;
	}
	sqlite3_finalize(st);

	/* Rows: table, rowid, parent table, constraint index. */
	rc = sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
	    NULL);
	if (rc != SQLITE_OK) {
		status = store_fail(s, rc, "foreign key check");
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_seterr(s, "foreign key: %s row %lld refers to a missing "
		    "%s", sqlite3_column_text(st, 0),
		    (long long)sqlite3_column_int64(st, 1),
		    sqlite3_column_text(st, 2));
		goto out;
	}
	if (rc != SQLITE_DONE) {
		status = store_fail(s, rc, "foreign key check");
		goto out;
	}
	status = STORE_OK;
out:
	sqlite3_finalize(st);
	return status;
}

/* Report the query plan of every statement. */
enum store_status
store_explain(struct store *s,
    void (*cb)(void *, const char *, bool, const char *), void *arg)
{
	sqlite3_stmt	*st = NULL;
	char		 sql[2048];
	int		 i, rc;

	for (i = ST_VERSION; i < ST_COUNT; i++) {
		snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s",
		    store_sql[i].sql);
		rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
		if (rc != SQLITE_OK)
			return store_fail(s, rc, store_sql[i].name);
		/* Rows: id, parent, unused, detail. */
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			cb(arg, store_sql[i].name, !store_sql[i].scan,
			    (const char *)sqlite3_column_text(st, 3));
		}
		sqlite3_finalize(st);
		st = NULL;
		if (rc != SQLITE_DONE)
			return store_fail(s, rc, store_sql[i].name);
	}
	return STORE_OK;
}

/* --- mail --------------------------------------------------------------- */

/* Read a mail_seen row of MAIL_SEEN_COLUMNS. */
static int
store_read_mail_seen(sqlite3_stmt *st, struct store_mail_seen *m)
{
	memset(m, 0, sizeof *m);
	m->uidvalidity = sqlite3_column_int64(st, 1);
	m->uid = sqlite3_column_int64(st, 2);
	m->received = sqlite3_column_int64(st, 5);
	m->game_id = store_col_opt_int(st, 7, 0);
	if (store_col_text(st, 0, m->mailbox, sizeof m->mailbox) != 0 ||
	    store_col_text(st, 3, m->message_id, sizeof m->message_id) != 0 ||
	    store_col_text(st, 4, m->sender, sizeof m->sender) != 0 ||
	    store_col_text(st, 6, m->outcome, sizeof m->outcome) != 0)
		return -1;
	return 0;
}

/* Find a message seen before, by its place in the mailbox or its
 * Message-ID. */
enum store_status
store_mail_seen_find(struct store *s, const char *mailbox, int64_t uidvalidity,
    int64_t uid, const char *message_id, struct store_mail_seen *out)
{
	sqlite3_stmt		*st;
	enum store_status	 status = STORE_NOTFOUND;
	int			 rc;

	if ((st = store_stmt(s, ST_MAIL_SEEN_FIND)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, mailbox, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, uidvalidity);
	sqlite3_bind_int64(st, 3, uid);
	store_bind_opt_text(st, 4, message_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		status = STORE_OK;
		if (out != NULL && store_read_mail_seen(st, out) != 0) {
			store_seterr(s, "mail_seen: bad stored field");
			status = STORE_ERROR;
		}
	} else if (rc != SQLITE_DONE)
		status = store_fail(s, rc, "find a mail");
	store_done(st);
	return status;
}

/* Record a message as handled. */
enum store_status
store_mail_seen_add(struct store *s, const struct store_mail_seen *m)
{
	sqlite3_stmt	*st;

	if (store_fits(s, m->mailbox, sizeof m->mailbox, "mailbox") != 0 ||
	    store_fits(s, m->message_id, sizeof m->message_id,
	    "Message-ID") != 0 ||
	    store_fits(s, m->sender, sizeof m->sender, "sender") != 0 ||
	    store_fits(s, m->outcome, sizeof m->outcome, "outcome") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_MAIL_SEEN_INSERT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, m->mailbox, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, m->uidvalidity);
	sqlite3_bind_int64(st, 3, m->uid);
	store_bind_opt_text(st, 4, m->message_id);
	sqlite3_bind_text(st, 5, m->sender, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, m->received);
	sqlite3_bind_text(st, 7, m->outcome, -1, SQLITE_STATIC);
	store_bind_opt_int(st, 8, m->game_id, 0);
	return store_exec_stmt(s, st, "record a mail");
}

/* Read where polling a mailbox got to. */
enum store_status
store_mail_state_get(struct store *s, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid)
{
	sqlite3_stmt		*st;
	enum store_status	 status = STORE_NOTFOUND;
	int			 rc;

	if ((st = store_stmt(s, ST_MAIL_STATE_GET)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, mailbox, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*uidvalidity = sqlite3_column_int64(st, 0);
		*last_uid = sqlite3_column_int64(st, 1);
		status = STORE_OK;
	} else if (rc != SQLITE_DONE)
		status = store_fail(s, rc, "read the mailbox state");
	store_done(st);
	return status;
}

/* Remember where polling a mailbox got to. */
enum store_status
store_mail_state_set(struct store *s, const char *mailbox,
    int64_t uidvalidity, int64_t last_uid)
{
	sqlite3_stmt	*st;

	if ((st = store_stmt(s, ST_MAIL_STATE_SET)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, mailbox, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, uidvalidity);
	sqlite3_bind_int64(st, 3, last_uid);
	return store_exec_stmt(s, st, "save the mailbox state");
}

/* Queue a message for sending. */
enum store_status
store_outbox_add(struct store *s, struct store_outbox *o)
{
	sqlite3_stmt		*st;
	enum store_status	 status;

	if (store_fits(s, o->kind, sizeof o->kind, "mail kind") != 0 ||
	    store_fits(s, o->recipient, sizeof o->recipient, "recipient") != 0)
		return STORE_ERROR;
	if ((st = store_stmt(s, ST_OUTBOX_INSERT)) == NULL)
		return STORE_ERROR;
	store_bind_opt_int(st, 1, o->game_id, 0);
	sqlite3_bind_text(st, 2, o->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, o->recipient, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, o->message, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, o->created);
	status = store_exec_stmt(s, st, "queue a mail");
	if (status == STORE_OK)
		o->id = sqlite3_last_insert_rowid(s->db);
	return status;
}

/* Walk the messages due for sending at `now`, oldest first. */
enum store_status
store_outbox_due(struct store *s, int64_t now, int64_t limit,
    store_outbox_cb cb, void *arg)
{
	sqlite3_stmt		*st;
	struct store_outbox	 o;
	enum store_status	 status = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_OUTBOX_DUE)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, limit > 0 ? limit : INT64_MAX);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&o, 0, sizeof o);
		o.id = sqlite3_column_int64(st, 0);
		o.game_id = store_col_opt_int(st, 1, 0);
		o.created = sqlite3_column_int64(st, 5);
		o.attempts = (int)sqlite3_column_int64(st, 6);
		o.next_attempt = sqlite3_column_int64(st, 7);
		o.message = (char *)sqlite3_column_text(st, 4);
		if (store_col_text(st, 2, o.kind, sizeof o.kind) != 0 ||
		    store_col_text(st, 3, o.recipient, sizeof o.recipient) != 0 ||
		    store_col_text(st, 8, o.last_error,
		    sizeof o.last_error) != 0 || o.message == NULL) {
			store_seterr(s, "outbox %lld: bad stored field",
			    (long long)o.id);
			status = STORE_ERROR;
			break;
		}
		if (cb(arg, &o) != 0)
			break;
	}
	if (status == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		status = store_fail(s, rc, "list due mail");
	store_done(st);
	return status;
}

/* Run one outbox update: id, a time, and an optional error text. */
static enum store_status
store_outbox_mark(struct store *s, enum stmt_id id, int64_t mail,
    int64_t at, const char *error)
{
	sqlite3_stmt	*st;
	char		 msg[STORE_ERROR_TEXT_SIZE];

	if ((st = store_stmt(s, id)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, mail);
	sqlite3_bind_int64(st, 2, at);
	if (id != ST_OUTBOX_SENT) {
		snprintf(msg, sizeof msg, "%s", error != NULL ? error : "");
		sqlite3_bind_text(st, 3, msg, -1, SQLITE_TRANSIENT);
	}
	return store_exec_stmt(s, st, store_sql[id].name);
}

/* Mark a message sent. */
enum store_status
store_outbox_sent(struct store *s, int64_t id, int64_t at)
{
	return store_outbox_mark(s, ST_OUTBOX_SENT, id, at, NULL);
}

/* Count a failed attempt and set the next one. */
enum store_status
store_outbox_retry(struct store *s, int64_t id, int64_t next_attempt,
    const char *error)
{
	return store_outbox_mark(s, ST_OUTBOX_RETRY, id, next_attempt, error);
}

/* Give a message up (permanent failure). */
enum store_status
store_outbox_failed(struct store *s, int64_t id, int64_t at,
    const char *error)
{
	return store_outbox_mark(s, ST_OUTBOX_FAILED, id, at, error);
}

/* Count the messages of `kind` queued for `recipient` since `since`. */
enum store_status
store_outbox_recent(struct store *s, const char *recipient, const char *kind,
    int64_t since, int64_t *n)
{
	sqlite3_stmt		*st;
	enum store_status	 rv = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_OUTBOX_RECENT)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, recipient, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, since);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	else
		rv = store_fail(s, rc, "count recent mail");
	store_done(st);
	return rv;
}

/* Count the messages waiting to be sent. */
enum store_status
store_outbox_pending(struct store *s, int64_t *n)
{
	sqlite3_stmt		*st;
	enum store_status	 rv = STORE_OK;
	int			 rc;

	if ((st = store_stmt(s, ST_OUTBOX_PENDING)) == NULL)
		return STORE_ERROR;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	else
		rv = store_fail(s, rc, "count pending mail");
	store_done(st);
	return rv;
}
