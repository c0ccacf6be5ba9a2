/*
 * store/store.h: the store: every SQL statement behind one narrow interface.
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
 * The store: every SQL statement of the daemon, behind one narrow interface,
 * on SQLite in WAL mode or on PostgreSQL (libpq; store_open()'s path says
 * which). Nothing outside src/store knows SQL.
 *
 * Engine-neutral: this header (the types, sizes, statuses and what each
 * call promises); the SQL of store/sql.c, kept to what PostgreSQL also
 * accepts where that costs nothing (BEGIN IMMEDIATE aside); the query
 * files (players.c, games.c, ...), which bind and read rows through the
 * statement layer of store/db.h only; store/store.c (the handle, the
 * statement cache, transactions, the checks of values). Engine-specific,
 * what another engine brings its own of: its file behind db.h
 * (store/db_sqlite.c: the sqlite3 handle, its PRAGMAs, result codes, the
 * online backup), the DDL of store/schema.c (the steps carry over, their
 * column types do not), the integrity checks and query plans of
 * store/maint.c. store/store_int.h lists the files.
 *
 * Threads. A `struct store` is one database connection. Open one handle per
 * thread (or hand a handle from thread to thread, never using it from two at
 * once); several handles on one file, in one or several processes, work
 * together: readers never block, writers are serialised by store_begin().
 *
 * Transactions. Outside store_begin()/store_commit() every call is its own
 * transaction. Inside, a caller doing "load game, check ply, apply, append
 * action, update game row" is serialised against every other writer:
 * store_begin() takes the write lock at once (BEGIN IMMEDIATE), so a second
 * writer waits there (up to the busy timeout, then STORE_BUSY) and then sees
 * the first one's committed data. The (game_id, seq) key of the record makes
 * a stale second append fail with STORE_EXISTS, whatever the engine.
 *
 * Errors. Functions return an enum store_status; on anything but STORE_OK
 * (and STORE_NOTFOUND from the lookups) store_errmsg() gives a sentence,
 * held in the handle until its next call.
 *
 * Values. Records are plain structs with fixed-size text fields (sizes count
 * the NUL). Text longer than its field is refused on write (STORE_ERROR),
 * never truncated. Variable-length texts of an action (statement, signature)
 * are pointers: see struct store_action for who owns them.
 */

#ifndef CORRCHESS_STORE_H
#define CORRCHESS_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Field sizes, each with its NUL. */
#define STORE_NAME_SIZE		33	/* [a-z0-9_.-]{1,32} */
#define STORE_EMAIL_SIZE	255
#define STORE_LANG_SIZE		3	/* "en", "fr" */
#define STORE_DIGEST_SIZE	8	/* "none", "daily" */
#define STORE_COMMENT_SIZE	128
#define STORE_VARIANT_SIZE	16	/* "standard", "chess960" */
#define STORE_FEN_SIZE		128
#define STORE_TC_SIZE		32	/* game_tc_format() text */
#define STORE_POLICY_SIZE	8	/* "auto", "claim" */
#define STORE_TAG_SIZE		128	/* event, site, round */
#define STORE_STATUS_SIZE	12	/* "ongoing", "finished" */
#define STORE_RESULT_SIZE	8	/* "1-0", "0-1", "1/2-1/2", "*" */
#define STORE_TERM_SIZE		32	/* game_termination_name() text */
#define STORE_KIND_SIZE		24	/* "move", "accept-draw", ... */
#define STORE_MOVE_SIZE		33	/* move text as the player gave it (32 bytes) */
#define STORE_SAN_SIZE		16
#define STORE_SOURCE_SIZE	8	/* "http", "mail", "xfcc", "admin",
					   "clock" */
#define STORE_ATTESTED_SIZE	12	/* "xfcc", "mail-token", or "" */
#define STORE_AUTH_SIZE		24	/* "signed", "signed-or-attested" */
#define STORE_PWHASH_SIZE	128	/* crypto_pwhash_STRBYTES */

/* Raw sizes of binary fields. */
#define STORE_PUBKEY_LEN	32	/* Ed25519 public key */
#define STORE_HASH_LEN		32	/* record chain hash */

/* Schema version this build creates and migrates to. */
#define STORE_SCHEMA_VERSION	21

enum store_status {
	STORE_OK = 0,
	STORE_NOTFOUND,		/* no such row (or a referenced row is missing) */
	STORE_EXISTS,		/* unique or primary key violation */
	STORE_BUSY,		/* the lock was not granted within the timeout */
	STORE_ERROR,		/* anything else; see store_errmsg() */
};

/*
 * Durability of a commit.
 *   FULL    every commit is on disk when store_commit() returns (one fsync
 *           of the WAL per commit). The default: a reply that says "your
 *           move was accepted" is never undone by a power loss.
 *   NORMAL  commits are atomic and survive a crash of the process, but the
 *           last ones may be lost on power loss or OS crash (the WAL is
 *           synced only at checkpoints). About eight times more commits per
 *           second on these machines; for tests and benchmarks, or a host
 *           whose storage is protected otherwise.
 */
enum store_sync {
	STORE_SYNC_FULL = 0,
	STORE_SYNC_NORMAL,
};

struct store_options {
	enum store_sync	sync;
	int		busy_timeout_ms;	/* 0: default (5000) */
	int		schema_version;		/* migrate up to this version
						   only; 0: latest (tests) */
	const char	*password_file;		/* PostgreSQL: libpq's
						   password file, or NULL */
};

struct store;

struct store_player {
	int64_t		id;
	char		name[STORE_NAME_SIZE];
	char		email[STORE_EMAIL_SIZE];	/* "" when none */
	char		lang[STORE_LANG_SIZE];
	int64_t		created;			/* seconds since epoch */
	char		digest[STORE_DIGEST_SIZE];	/* "none" ("" reads
							   as it), "daily" */
	int64_t		digest_sent;			/* last digest, or 0 */
};

struct store_key {
	int64_t		id;
	int64_t		player_id;
	uint8_t		pubkey[STORE_PUBKEY_LEN];
	char		comment[STORE_COMMENT_SIZE];
	int64_t		added;
	int64_t		revoked;	/* when, or 0 while the key is valid */
};

/*
 * A game: its parameters (fixed at creation) and its current state (kept in
 * the same row, so listing needs no replay).
 */
struct store_game {
	int64_t		id;
	int64_t		white;		/* player ids */
	int64_t		black;
	char		white_name[STORE_NAME_SIZE];	/* filled by reads */
	char		black_name[STORE_NAME_SIZE];
	char		variant[STORE_VARIANT_SIZE];
	int		chess960;	/* 0..959, or -1 for "standard" */
	char		start_fen[STORE_FEN_SIZE];
	char		time_control[STORE_TC_SIZE];
	char		policy[STORE_POLICY_SIZE];
	char		event[STORE_TAG_SIZE];
	char		site[STORE_TAG_SIZE];
	char		round[STORE_TAG_SIZE];
	int64_t		created;

	/* State, changed by store_game_update(). */
	char		status[STORE_STATUS_SIZE];
	char		result[STORE_RESULT_SIZE];
	char		termination[STORE_TERM_SIZE];	/* "" while ongoing */
	int		ply;
	char		fen[STORE_FEN_SIZE];
	int		turn;		/* side to move: 0 white, 1 black */
	int		draw_offer;	/* colour offering a draw, or -1 */
	int64_t		deadline;	/* seconds since epoch, or 0: none */
	uint8_t		head[STORE_HASH_LEN];	/* hash of the last record */
	int64_t		updated;
};

/*
 * One record of a game: an accepted action, chained by hash.
 *
 * statement and signature are the texts exactly as received (NULL when the
 * action has none, e.g. an admin or clock action). Ownership:
 *   - store_action_append(): the caller's; read during the call only.
 *   - store_action_list() callback: borrowed from the store, valid until the
 *     callback returns; copy what you keep. Do not free.
 *   - store_action_get(): malloc'd for the caller; release them with
 *     store_action_clear().
 */
struct store_action {
	int64_t		game_id;
	int64_t		seq;		/* 1, 2, ... in the game */
	int		ply;		/* half-moves played before it */
	int64_t		player_id;	/* 0: none */
	int64_t		key_id;		/* 0: none */
	char		kind[STORE_KIND_SIZE];
	char		move[STORE_MOVE_SIZE];	/* "" when none */
	char		san[STORE_SAN_SIZE];	/* "" when not a move */
	char		*statement;
	char		*signature;
	int64_t		at;
	uint8_t		prev_hash[STORE_HASH_LEN];
	uint8_t		hash[STORE_HASH_LEN];
	char		source[STORE_SOURCE_SIZE];
	char		attested[STORE_ATTESTED_SIZE];	/* "": signed by
							   the player */
	int64_t		conditional_id;	/* the conditional this move was
					   signed in (its statement is the
					   record's), or 0 */
};

/* Filter for store_game_list(); NULL/0 fields do not filter. */
struct store_game_filter {
	const char	*player;	/* games where this name plays */
	const char	*status;	/* "ongoing" or "finished" */
	int64_t		 limit;		/* 0: no limit */
	int64_t		 offset;
};

/*
 * Listing callbacks: return 0 to go on, anything else to stop (the list
 * function then returns STORE_OK). The record is valid until the callback
 * returns. A callback must not call the store with the same handle.
 */
typedef int (*store_player_cb)(void *arg, const struct store_player *);
typedef int (*store_key_cb)(void *arg, const struct store_key *);
typedef int (*store_game_cb)(void *arg, const struct store_game *);
typedef int (*store_action_cb)(void *arg, const struct store_action *);

/* Handle. */

/*
 * Open (creating and migrating as needed) the database at `path`, or a
 * private in-memory one for ":memory:", with the default options (FULL).
 * NULL on failure with a reason in `err`.
 *
 * `path` names the engine: an SQLite file; or PostgreSQL, as
 * "postgresql:" followed by a libpq connection string ("postgresql:host=
 * /run/postgresql dbname=corrchess"), or a URI ("postgresql://..." or
 * "postgres://..."). store_target() writes it from an engine's settings.
 */
struct store *store_open(const char *path, char *err, size_t errsize);

/* Open with options (NULL: defaults). */
struct store *store_open_with(const char *path, const struct store_options *,
    char *err, size_t errsize);

/*
 * Write the `path` of store_open() for an engine ("sqlite" with a file,
 * "postgresql" with a connection string) into buf. -1 when the engine is
 * unknown, not built in, or the text does not fit.
 */
int store_target(const char *engine, const char *where, char *buf,
    size_t size);

/*
 * Connect to the database at `path` and return its schema version (0: no
 * schema yet), creating and migrating nothing; -1 with a reason in err.
 */
int store_peek_version(const char *path, const struct store_options *,
    char *err, size_t errsize);

/* Return whether `path` names a PostgreSQL database. */
bool store_target_is_pg(const char *path);

/* Return the name of the handle's engine, "sqlite" or "postgresql". */
const char *store_engine_name(const struct store *);

/* Close a handle; NULL is fine. An open transaction is rolled back. */
void store_close(struct store *);

/* Parse a sync setting, "full" or "normal". 0, or -1 when unknown. */
int store_sync_parse(const char *, enum store_sync *);

/* Message of the last failed call on this handle ("" if none). */
const char *store_errmsg(const struct store *);

/* Name of a status, "ok", "not-found", "exists", "busy", "error". */
const char *store_status_name(enum store_status);

/* Schema version of the open database. */
int store_schema_version(struct store *);

/* Check a player name against [a-z0-9_.-]{1,32}. */
bool store_name_valid(const char *);

/* Transactions. */

/*
 * Begin a write transaction, waiting for other writers up to the busy
 * timeout (then STORE_BUSY). Transactions do not nest. A failed statement
 * inside undoes only itself; the caller decides to go on or roll back.
 */
enum store_status store_begin(struct store *);

/*
 * Begin a write transaction for work on the games ids[0..n-1] alone (their
 * actions, flags, reminders; n = 0: work that touches no game's state and
 * no player, such as the outbox's). On SQLite the same as store_begin(). On
 * PostgreSQL writers of other games go on beside it: it takes the write
 * lock shared and then each game's lock in ascending order (the lock order
 * in store_int.h), so a store_begin() elsewhere waits for it and two
 * transactions on one game queue. Ids may repeat; the array is not changed.
 */
enum store_status store_begin_games(struct store *, const int64_t *ids,
    size_t n);

/*
 * Inside a transaction of store_begin_games(), before reading what several
 * games share (a player's rating, whether an event's games have all
 * ended): wait for the writers of other games that do the same. The last
 * lock a transaction takes; nothing on SQLite, whose writers are one at a
 * time already.
 */
enum store_status store_lock_results(struct store *);

/*
 * Inside a transaction: tell the other servers' listeners (store_listen())
 * what it changed, in `text` (at most STORE_NOTIFY_MAX bytes), at its
 * commit and only if it commits. On SQLite nothing is sent.
 */
#define STORE_NOTIFY_MAX	7900
enum store_status store_notify(struct store *, const char *text);

/*
 * Make this handle a listener of store_notify()'s texts (of this schema):
 * STORE_OK; STORE_ERROR on SQLite, which has none to hear.
 */
enum store_status store_listen(struct store *);

/*
 * Wait up to timeout_ms for one text of store_notify(): 1 with it in buf
 * (cut to size), 0 when none came, -1 when the connection is lost (close
 * the handle and open another; texts sent meanwhile are not heard).
 */
int store_listen_wait(struct store *, int timeout_ms, char *buf,
    size_t size);

/*
 * Commit the transaction: durable on return under STORE_SYNC_FULL. On
 * failure the transaction is still open: roll it back.
 */
enum store_status store_commit(struct store *);

/*
 * Roll the transaction back. STORE_OK without a word when none is open:
 * the engine rolls a transaction back by itself after some failures (a
 * full disk, an I/O error), and store_errmsg() still says that failure.
 */
enum store_status store_rollback(struct store *);

/*
 * Tell whether a transaction is open: false after store_begin() when the
 * engine rolled it back by itself after a failed statement.
 */
bool store_in_transaction(struct store *);

/*
 * Send, or stop sending, the writes of a move ahead (PostgreSQL; on
 * SQLite nothing changes): inside a transaction, store_action_append()
 * and the game updates are sent without waiting for their answers, which
 * come with the next statement that waits (at the latest the commit's).
 * They then answer STORE_OK whatever happens; a failure is reported by
 * that next statement, and the whole transaction is undone with it
 * (store_in_transaction() false), so that no work reported done is kept
 * without the write it needed. For a caller that reads each game under
 * its lock before writing it (the writer): its appends and updates cannot
 * meet an existing record or a missing row.
 */
void store_send_writes_ahead(struct store *, bool on);

/*
 * One savepoint inside a transaction (not nested): store_savepoint() marks
 * it, store_release() keeps the work since, store_rollback_to() undoes it.
 * Group commit runs each action of a batch between these, so a refused or
 * failed action leaves no trace while the others commit together.
 */
enum store_status store_savepoint(struct store *);
enum store_status store_release(struct store *);
enum store_status store_rollback_to(struct store *);

/*
 * Several daemons on one database: try to take, or check that this handle
 * still holds, the lead of `role` (0..1000), which one handle at a time
 * holds. On PostgreSQL a session advisory lock, held until the handle is
 * closed or its connection is lost (the server then gives it to the next
 * that asks); on SQLite always granted (one machine, one daemon). *held
 * says whether this handle leads; STORE_ERROR when the connection is lost
 * (close the handle).
 */
enum store_status store_lead(struct store *, int role, bool *held);

/* Players. */

/* Add a player; sets p->id. STORE_EXISTS when the name is taken. */
enum store_status store_player_create(struct store *, struct store_player *p);

/* Load a player by id. */
enum store_status store_player_get(struct store *, int64_t id,
    struct store_player *out);

/* Load a player by name. */
enum store_status store_player_get_by_name(struct store *, const char *name,
    struct store_player *out);

/* List players by name; limit 0 means all. */
/* The player registered with an e-mail address (compared exactly). */
enum store_status store_player_get_by_email(struct store *, const char *email,
    struct store_player *out);

enum store_status store_player_list(struct store *, int64_t limit,
    int64_t offset, store_player_cb, void *arg);

/* Store p->email and p->lang for player p->id. */
enum store_status store_player_update(struct store *,
    const struct store_player *p);

/* Record when player `id`'s last digest was queued. */
enum store_status store_player_digest_sent(struct store *, int64_t id,
    int64_t when);

/* Keys. */

/*
 * Register a key for k->player_id; sets k->id. STORE_EXISTS when the player
 * has it already, STORE_NOTFOUND when there is no such player. A key
 * belongs to one player: the schema refuses (STORE_ERROR) a key that
 * another player holds, revoked or not; store_key_owner() says who.
 */
enum store_status store_key_add(struct store *, struct store_key *k);

/*
 * Name in `name` (STORE_NAME_SIZE bytes) a player other than `player_id`
 * who holds `pubkey`, revoked or not; STORE_NOTFOUND when none does.
 */
enum store_status store_key_owner(struct store *,
    const uint8_t pubkey[STORE_PUBKEY_LEN], int64_t player_id, char *name);

/* Load a key by id. */
enum store_status store_key_get(struct store *, int64_t key_id,
    struct store_key *out);

/*
 * Call cb with each public key registered for several players (possible
 * only in a database from before keys were one player's: kept, never
 * dropped) and their names, ", " between them; `players` is valid until
 * cb returns.
 */
typedef int (*store_key_dup_cb)(void *arg,
    const uint8_t pubkey[STORE_PUBKEY_LEN], const char *players);
enum store_status store_key_duplicates(struct store *, store_key_dup_cb,
    void *arg);

/* List a player's keys, revoked ones included, oldest first. */
enum store_status store_key_list(struct store *, int64_t player_id,
    store_key_cb, void *arg);

/*
 * Revoke a key at `at`. Revoking a revoked key keeps its first time and
 * returns STORE_OK.
 */
enum store_status store_key_revoke(struct store *, int64_t key_id,
    int64_t at);

/*
 * Tell whether a player, a key or a player's doors were written through
 * this handle (created, updated, added, revoked; committed or not) since
 * the last call, and forget it: whoever keeps players, keys or doors in
 * memory drops them then.
 */
bool store_players_written(struct store *);

/*
 * Tell whether a player's rating was written through this handle since
 * the last call, and forget it: whoever keeps what shows ratings (a
 * game's PGN) drops it then.
 */
bool store_ratings_written(struct store *);

/*
 * Call cb(arg, id) for every game whose row was written through this
 * handle (created or updated; committed or not) since the last call, and
 * forget them; cb(arg, 0) once instead when there were too many to note:
 * every game may have changed. Whoever keeps games in memory drops them.
 */
void store_games_written(struct store *, void (*cb)(void *, int64_t),
    void *arg);

/*
 * Find the key with this public key and its player (either output may be
 * NULL). A valid key is preferred to a revoked one; check key->revoked.
 */
enum store_status store_key_find(struct store *,
    const uint8_t pubkey[STORE_PUBKEY_LEN], struct store_key *key,
    struct store_player *player);

/* Games. */

/*
 * Add a game with its parameters and initial state; sets g->id (names are
 * ignored). STORE_NOTFOUND when a player does not exist.
 */
enum store_status store_game_create(struct store *, struct store_game *g);

/*
 * Load a game for an action signed with key `key_id`, in one statement:
 * the row, whether the game has an active conditional (*conditionals),
 * and the key's id, owner and revocation into *key (its other fields
 * zero; key->id 0 when there is no such key).
 */
enum store_status store_game_get_action(struct store *, int64_t id,
    int64_t key_id, struct store_game *out, bool *conditionals,
    struct store_key *key);

/* One game of store_game_get_actions(): what store_game_get_action()
 * reads, for game `id` and key `key_id`. */
struct store_game_action {
	int64_t			id, key_id;
	enum store_status	status;		/* STORE_OK or STORE_NOTFOUND */
	struct store_game	row;
	bool			conditionals;
	struct store_key	key;
};

/*
 * Read for each of v[0..n) what store_game_get_action() reads, in one
 * statement (one round trip on PostgreSQL). Each v[i].status is STORE_OK,
 * or STORE_NOTFOUND when there is no such game; the return is STORE_OK
 * or the failure.
 */
enum store_status store_game_get_actions(struct store *,
    struct store_game_action *v, size_t n);

/* Return whether game `id`'s row was written through this handle since
 * the last store_games_written() (below). */
bool store_game_written(struct store *, int64_t id);

/* Load a game. */
enum store_status store_game_get(struct store *, int64_t id,
    struct store_game *out);

/* Store the state fields of game g->id. */
enum store_status store_game_update(struct store *,
    const struct store_game *g);

/*
 * Store the state fields of game g->id whose status, result and
 * termination are already the stored ones (a move that did not end it):
 * the indexes on the status are not rewritten.
 */
enum store_status store_game_update_play(struct store *,
    const struct store_game *g);

/*
 * List games, newest first. With f->player, STORE_NOTFOUND when there is no
 * such player.
 */
enum store_status store_game_list(struct store *,
    const struct store_game_filter *f, store_game_cb, void *arg);

/* List ongoing games whose deadline is at or before `now`, earliest first. */
enum store_status store_game_list_due(struct store *, int64_t now,
    int64_t limit, store_game_cb, void *arg);

/*
 * Reminders. A row per game, move (ply) and threshold (seconds before the
 * deadline) once that reminder was dealt with, so that none goes twice,
 * whichever process sends it. sent_at is when the notice was queued, or 0
 * when none was due (the move began inside the threshold, or a nearer
 * threshold's reminder went instead).
 */

/*
 * List ongoing games whose deadline is after `now` and at most `threshold`
 * seconds later, with no reminder row for their current ply and this
 * threshold; earliest deadline first, at most `limit` (0: all).
 */
enum store_status store_game_list_remind(struct store *, int64_t now,
    int64_t threshold, int64_t limit, store_game_cb, void *arg);

/* Record a reminder as dealt with; STORE_EXISTS when it was already. */
enum store_status store_reminder_add(struct store *, int64_t game_id, int ply,
    int64_t threshold, int64_t sent_at);

/* Look a reminder up: STORE_OK with *sent_at (may be NULL), or
 * STORE_NOTFOUND. */
enum store_status store_reminder_get(struct store *, int64_t game_id, int ply,
    int64_t threshold, int64_t *sent_at);

/*
 * Leaves. A player's clocks stand still from `start` to `until` (seconds
 * since the epoch: 00:00 UTC of the first day away and of the day after
 * the last). statement and signature: as for store_action (the caller's
 * on add; NULL in listings).
 */
struct store_leave {
	int64_t		 id;
	int64_t		 player_id;
	int64_t		 start;
	int64_t		 until;
	int64_t		 taken;		/* when it was taken */
	int64_t		 game_id;	/* the game its statement names, or 0 */
	const char	*statement;
	const char	*signature;
};

typedef int (*store_leave_cb)(void *arg, const struct store_leave *);

/* Record a leave; sets l->id. STORE_NOTFOUND without such player. */
enum store_status store_leave_add(struct store *, struct store_leave *l);

/* List a player's leaves that end after `since`, by start. */
enum store_status store_leave_list(struct store *, int64_t player_id,
    int64_t since, store_leave_cb, void *arg);

/*
 * Doors other than the player's signature (store/doors.c). A player's
 * doors: which are open, and the Argon2id string of the Xfcc password
 * ("" when none is set). A player without a row has every door shut.
 */
struct store_doors {
	int64_t		player_id;
	bool		xfcc;
	bool		mail_token;
	char		xfcc_hash[STORE_PWHASH_SIZE];
};

/* Load a player's doors (all shut, no password, when never set). */
enum store_status store_doors_get(struct store *, int64_t player_id,
    struct store_doors *out);

/* Store a player's doors. STORE_NOTFOUND without such player. */
enum store_status store_doors_set(struct store *, const struct store_doors *);

/*
 * The rules a game was created with, beside its row: rated (Glicko-2) or
 * not, and the ICCF draw rules of its event (no draw offer before move
 * draw_min_move; one offer per player every draw_offer_every moves; 0:
 * no such rule). A game without a row has none of them and is unrated.
 */
struct store_game_rules {
	bool	rated;
	int	draw_min_move;
	int	draw_offer_every;
};

/* Load a game's rules (all zero when none were stored). */
enum store_status store_game_rules_get(struct store *, int64_t game_id,
    struct store_game_rules *out);

/* Store the rules of a new game. */
enum store_status store_game_rules_set(struct store *, int64_t game_id,
    const struct store_game_rules *);

/*
 * A game's creation record (sig/creation.h), the head of its chain: its
 * bytes, the server's signature over them and its record hash. A game
 * created before corrchess 0.2.0, or by a server without a key, has none.
 */
#define STORE_CREATION_SIZE	1025	/* SIG_CREATION_MAX bytes and a NUL */
#define STORE_SIGNATURE_LEN	64	/* raw Ed25519 */

struct store_creation {
	char	record[STORE_CREATION_SIZE];
	uint8_t	signature[STORE_SIGNATURE_LEN];
	uint8_t	hash[STORE_HASH_LEN];
};

/* Load a game's creation record; STORE_NOTFOUND when it has none. */
enum store_status store_game_creation_get(struct store *, int64_t game_id,
    struct store_creation *out);

/* Store the creation record of a new game. */
enum store_status store_game_creation_set(struct store *, int64_t game_id,
    const struct store_creation *);

/* A game's auth rule into `auth` ("signed" when none was stored). */
enum store_status store_game_auth_get(struct store *, int64_t game_id,
    char auth[STORE_AUTH_SIZE]);

/* Store a game's auth rule, "signed" or "signed-or-attested". */
enum store_status store_game_auth_set(struct store *, int64_t game_id,
    const char *auth);

/* An event's auth rule into `auth` ("" when none was stored: the
 * server's default). */
enum store_status store_event_auth_get(struct store *, int64_t event_id,
    char auth[STORE_AUTH_SIZE]);

/* Store an event's auth rule, "signed" or "signed-or-attested". */
enum store_status store_event_auth_set(struct store *, int64_t event_id,
    const char *auth);

/*
 * Invitations: a one-time link for a player's browser to register its
 * key. Only the hash of the token is stored (STORE_HASH_LEN bytes), so a
 * copy of the database lets no one enrol.
 */
struct store_invitation {
	int64_t		id;
	int64_t		player_id;
	uint8_t		token_hash[STORE_HASH_LEN];
	int64_t		created;
	int64_t		expires;
	int64_t		used;		/* when it was used, or 0 */
	int64_t		key_id;		/* the key it brought, or 0 */
	char		player_name[STORE_NAME_SIZE];	/* filled by find */
};

/* Record an invitation; sets inv->id. STORE_NOTFOUND without such
 * player, STORE_EXISTS when the hash is taken. */
enum store_status store_invitation_add(struct store *,
    struct store_invitation *inv);

/* Find an invitation by the hash of its token (STORE_NOTFOUND: none). */
enum store_status store_invitation_find(struct store *,
    const uint8_t token_hash[STORE_HASH_LEN], struct store_invitation *out);

/* Mark an invitation used at `at` by key `key_id` (0: none); STORE_NOTFOUND
 * when it is used already. */
enum store_status store_invitation_use(struct store *, int64_t id,
    int64_t at, int64_t key_id);

/*
 * Tokens of replies by mail (store/doors.c): one per notice to the player
 * to move whose mail-token door is open, bound to the game, the ply and
 * the player; only the token's hash is stored.
 */
struct store_mail_token {
	int64_t		id;
	uint8_t		token_hash[STORE_HASH_LEN];
	int64_t		game_id;
	int64_t		player_id;
	int		ply;
	int64_t		created;
	int64_t		expires;
	int64_t		used;		/* when a reply played it, or 0 */
};

/* Record a token; sets t->id. STORE_EXISTS when the hash is taken. */
enum store_status store_mail_token_add(struct store *,
    struct store_mail_token *t);

/* Find a token by its hash (STORE_NOTFOUND: none). */
enum store_status store_mail_token_find(struct store *,
    const uint8_t token_hash[STORE_HASH_LEN], struct store_mail_token *out);

/* Mark a token used at `at`; STORE_NOTFOUND when it is used already. */
enum store_status store_mail_token_use(struct store *, int64_t id,
    int64_t at);

/* Count the games of a status ("ongoing" or "finished") into *n. */
enum store_status store_game_count(struct store *, const char *status,
    int64_t *n);

/* Actions (the record). */

/*
 * Append a record. STORE_EXISTS when (game_id, seq) is taken (a stale
 * writer), STORE_NOTFOUND when the game, player or key does not exist.
 */
enum store_status store_action_append(struct store *,
    const struct store_action *a);

/* Call cb for each record of a game in seq order. */
enum store_status store_action_list(struct store *, int64_t game_id,
    store_action_cb, void *arg);

/* Load one record; release its texts with store_action_clear(). */
enum store_status store_action_get(struct store *, int64_t game_id,
    int64_t seq, struct store_action *out);

/* Free the texts store_action_get() allocated; NULL is fine. */
void store_action_clear(struct store_action *);

/*
 * Conditional moves. A player's signed tree of lines for a game, kept out
 * of the record until one of its moves is played. lines, statement and
 * signature: the caller's on add (read during the call); malloc'd by
 * store_conditional_active(), released with store_conditional_clear().
 */
#define STORE_COND_STATUS_SIZE	12	/* "active" "replaced" "cancelled"
					   "ended" */
#define STORE_COND_REASON_SIZE	128

struct store_conditional {
	int64_t		 id;
	int64_t		 game_id;
	int64_t		 player_id;
	int64_t		 key_id;
	int		 ply;		/* the game's ply when it was signed */
	char		*lines;		/* English SAN, game_cond_format() */
	char		*statement;
	char		*signature;
	char		 source[STORE_SOURCE_SIZE];
	int64_t		 created;
	char		 status[STORE_COND_STATUS_SIZE];
	char		 reason[STORE_COND_REASON_SIZE];	/* "" while
							   active */
	int64_t		 ended;		/* 0 while active */
	int		 played;	/* its moves played so far */
};

/*
 * Add an active conditional; sets c->id. The player's active one in the
 * game, if any, must be ended first (STORE_EXISTS otherwise).
 */
enum store_status store_conditional_add(struct store *,
    struct store_conditional *c);

/* The player's active conditional in a game, or STORE_NOTFOUND. */
enum store_status store_conditional_active(struct store *, int64_t game_id,
    int64_t player_id, struct store_conditional *out);

/* Count one more of its moves played. */
enum store_status store_conditional_played(struct store *, int64_t id);

/* End an active conditional: status "replaced", "cancelled" or "ended",
 * with a reason for the player. STORE_NOTFOUND when it is not active. */
enum store_status store_conditional_end(struct store *, int64_t id,
    const char *status, const char *reason, int64_t at);

/* Free the texts store_conditional_active() allocated; NULL is fine. */
void store_conditional_clear(struct store_conditional *);

/*
 * End every active conditional signed with key `key_id` (the key was
 * revoked), with `reason` at `at`; *n (may be NULL) counts them.
 */
enum store_status store_conditional_end_by_key(struct store *,
    int64_t key_id, const char *reason, int64_t at, int64_t *n);

/*
 * Players who manage themselves (store/self.c): their notification
 * choices, the record of their own signed statements, and an address
 * change waiting for the code mailed to the new address.
 */
#define STORE_REMINDERS_SIZE	64	/* "on", "off", "3d,1d,12h" */
#define STORE_CODE_HASH_LEN	32

struct store_settings {
	int64_t		player_id;
	bool		move_mail;		/* a mail for every move */
	char		reminders[STORE_REMINDERS_SIZE];	/* "on": the
						   server's thresholds; "off";
						   or the player's own */
	int		digest_hour;		/* UTC hour 0..23; -1: any */
};

/* Load a player's settings; the defaults (move_mail, "on", -1) when they
 * never set one. */
enum store_status store_settings_get(struct store *, int64_t player_id,
    struct store_settings *out);

/* Store a player's settings. */
enum store_status store_settings_set(struct store *,
    const struct store_settings *);

/* Call cb with each distinct list of players' own reminder thresholds
 * (neither "on" nor "off"). */
typedef int (*store_reminders_cb)(void *arg, const char *reminders);
enum store_status store_settings_reminders(struct store *,
    store_reminders_cb cb, void *arg);

/* One of a player's own statements, as accepted (texts borrowed). */
struct store_self_record {
	int64_t		 player_id;
	int64_t		 seq;		/* 0, 1, ...: the statement's ply */
	char		 kind[STORE_KIND_SIZE];	/* "add-key", "set", ... */
	const char	*statement;
	const char	*signature;
	int64_t		 key_id;	/* 0: none */
	char		 source[STORE_SOURCE_SIZE];
	int64_t		 created;
};

/* Count a player's own statements: the ply of the next. */
enum store_status store_self_count(struct store *, int64_t player_id,
    int64_t *n);

/* Record one; STORE_EXISTS when its seq is taken. */
enum store_status store_self_add(struct store *,
    const struct store_self_record *);

/* An address change waiting for its code. */
struct store_email_change {
	int64_t		player_id;
	char		email[STORE_EMAIL_SIZE];
	uint8_t		code_hash[STORE_CODE_HASH_LEN];
	int64_t		created;
	int64_t		expires;
};

/* Replace the player's waiting change with `c`. */
enum store_status store_email_change_set(struct store *,
    const struct store_email_change *c);

/* Load the player's waiting change; STORE_NOTFOUND when none. */
enum store_status store_email_change_get(struct store *, int64_t player_id,
    struct store_email_change *out);

/* Drop the player's waiting change (none is fine). */
enum store_status store_email_change_clear(struct store *, int64_t player_id);

/* Maintenance. */

/*
 * Write a consistent copy of the database to `path` with SQLite's online
 * backup (writers go on meanwhile); the file appears complete or not at all.
 */
enum store_status store_backup(struct store *, const char *path);

/* Run SQLite's integrity and foreign key checks; on PostgreSQL, look for
 * an action whose player or key is missing (not foreign keys there). The
 * first fault is in store_errmsg(). */
enum store_status store_integrity_check(struct store *);

/*
 * Report the query plan of every statement the store uses, on either
 * engine, one call per plan line; `indexed` is false for statements
 * allowed to scan (listings), `walk` true for a line that walks a whole
 * table or index (db_explain() says how each engine's is told). For tests
 * and `EXPLAIN`-style diagnostics.
 */
enum store_status store_explain(struct store *,
    void (*cb)(void *arg, const char *name, bool indexed, const char *plan,
    bool walk), void *arg);

/*
 * Mail. Every message read from the mailbox is recorded (by its place,
 * mailbox + UIDVALIDITY + UID, and its Message-ID) in the same transaction
 * as its effect, so a crash or a second delivery never applies it twice.
 * Outgoing mail is queued in the outbox in the transaction of the event
 * that causes it and sent later by the mail thread.
 */
#define STORE_MAILBOX_SIZE	128
#define STORE_MSGID_SIZE	256
#define STORE_ADDR_SIZE		256
#define STORE_OUTCOME_SIZE	16	/* "applied" "refused" "no-statement"
					   "duplicate" */
#define STORE_MAILKIND_SIZE	24
#define STORE_ERROR_TEXT_SIZE	256

struct store_mail_seen {
	char		mailbox[STORE_MAILBOX_SIZE];
	int64_t		uidvalidity;
	int64_t		uid;
	char		message_id[STORE_MSGID_SIZE];	/* "" when none */
	char		sender[STORE_ADDR_SIZE];
	int64_t		received;
	char		outcome[STORE_OUTCOME_SIZE];
	int64_t		game_id;			/* 0: none */
};

/*
 * A queued message. `message` is the whole RFC 5322 text: on add, the
 * caller's (read during the call); in the due callback, borrowed until the
 * callback returns.
 */
struct store_outbox {
	int64_t		 id;
	int64_t		 game_id;			/* 0: none */
	char		 kind[STORE_MAILKIND_SIZE];
	char		 recipient[STORE_ADDR_SIZE];
	const char	*message;
	int64_t		 created;
	int		 attempts;
	int64_t		 next_attempt;
	char		 last_error[STORE_ERROR_TEXT_SIZE];
};

typedef int (*store_outbox_cb)(void *arg, const struct store_outbox *);

/* A message seen before, by place or by Message-ID (may be ""). */
enum store_status store_mail_seen_find(struct store *, const char *mailbox,
    int64_t uidvalidity, int64_t uid, const char *message_id,
    struct store_mail_seen *out);

/* Record a message as handled (STORE_EXISTS if its place is known). */
enum store_status store_mail_seen_add(struct store *,
    const struct store_mail_seen *);

/* Where polling a mailbox got to (STORE_NOTFOUND the first time). */
enum store_status store_mail_state_get(struct store *, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid);
enum store_status store_mail_state_set(struct store *, const char *mailbox,
    int64_t uidvalidity, int64_t last_uid);

/* Queue a message; sets o->id. Due at once. */
enum store_status store_outbox_add(struct store *, struct store_outbox *o);

/* Walk the messages due at `now` (at most `limit`; 0: all). */
enum store_status store_outbox_due(struct store *, int64_t now, int64_t limit,
    store_outbox_cb, void *arg);

/* After an attempt: sent; or retry at next_attempt; or given up. */
enum store_status store_outbox_sent(struct store *, int64_t id, int64_t at);
enum store_status store_outbox_retry(struct store *, int64_t id,
    int64_t next_attempt, const char *error);
enum store_status store_outbox_failed(struct store *, int64_t id, int64_t at,
    const char *error);

/*
 * Hold back one answer to a mail refused in the name of player
 * `player_id`, whose address is `recipient`, with its code and sentence
 * (kept as the last one): count it, and give the refusals held since the
 * last summary (*held, the first at *since) and when that summary was
 * queued (*summary_at, 0: never).
 */
enum store_status store_refusal_hold(struct store *, const char *recipient,
    int64_t player_id, int64_t now, const char *code, const char *reason,
    int64_t *held, int64_t *since, int64_t *summary_at);

/* Record that a summary of the held refusals went out at `now`. */
enum store_status store_refusal_summarised(struct store *,
    const char *recipient, int64_t now);

/*
 * The players with refusals held and no summary since `before`: up to
 * `max` ids into ids[], their number into *n.
 */
enum store_status store_refusal_due(struct store *, int64_t before,
    int64_t *ids, size_t max, size_t *n);

/* What is held for a player (STORE_NOTFOUND: nothing). */
struct store_refusal {
	char	 recipient[STORE_EMAIL_SIZE];
	int64_t	 held;			/* refusals not answered */
	int64_t	 since;			/* the first of them */
	int64_t	 summary_at;		/* the last summary, 0: never */
	char	 last_code[32];
	char	 last_reason[512];
};
enum store_status store_refusal_get(struct store *, int64_t player_id,
    struct store_refusal *out);

/* Messages of `kind` queued for anyone since `since` (overall caps). */
enum store_status store_outbox_recent_all(struct store *, const char *kind,
    int64_t since, int64_t *n);

/* Messages of `kind` queued for `recipient` since `since` (rate limits). */
enum store_status store_outbox_recent(struct store *, const char *recipient,
    const char *kind, int64_t since, int64_t *n);

/* Messages not yet sent nor given up. */
enum store_status store_outbox_pending(struct store *, int64_t *n);

/*
 * Events: a round robin or a match whose games share their rules. The
 * rules are fixed once the event has started; its players have start
 * numbers (seed 1..n, 0 before the start) and may withdraw; its games
 * are ordinary games listed with their round and board, and `adjusted`
 * says what a withdrawal made of one ("", "annulled", "white-withdrew",
 * "black-withdrew").
 */
#define STORE_FORMAT_SIZE	24	/* "round-robin", "double-round-robin",
					   "match" */
#define STORE_TIEBREAKS_SIZE	64	/* "direct,wins,sb,koya" */
#define STORE_WITHDRAWAL_SIZE	8	/* "lose", "annul" */
#define STORE_ADJUSTED_SIZE	16	/* "", "annulled", "white-withdrew",
					   "black-withdrew" */

struct store_event {
	int64_t		id;
	char		name[STORE_NAME_SIZE];		/* [a-z0-9_.-]{1,32} */
	char		title[STORE_TAG_SIZE];		/* the PGN Event tag */
	char		site[STORE_TAG_SIZE];
	char		format[STORE_FORMAT_SIZE];
	int		games;		/* games of a match; 0 otherwise */
	char		variant[STORE_VARIANT_SIZE];
	int		chess960;	/* the event's position, or -1 */
	bool		chess960_pairing;	/* one position per pairing */
	char		fen[STORE_FEN_SIZE];	/* thematic start, or "" */
	char		time_control[STORE_TC_SIZE];
	char		policy[STORE_POLICY_SIZE];
	bool		rated;
	char		tiebreaks[STORE_TIEBREAKS_SIZE];
	char		withdrawal[STORE_WITHDRAWAL_SIZE];
	int		draw_min_move;	/* no draw offer before; 0: none */
	int		draw_offer_every;	/* one offer a player per N
					   moves; 0: no limit */
	int		leave_days;	/* a calendar year; -1: the server's */
	char		status[STORE_STATUS_SIZE];	/* "created", "started",
							   "finished" */
	int64_t		created;
	int64_t		started;	/* 0: not yet */
	int64_t		finished;	/* 0: not yet */
};

struct store_event_player {
	int64_t		event_id;
	int64_t		player_id;
	char		name[STORE_NAME_SIZE];		/* filled by reads */
	char		email[STORE_EMAIL_SIZE];	/* filled by reads */
	char		lang[STORE_LANG_SIZE];		/* filled by reads */
	int		seed;		/* start number, 0 before the start */
	int64_t		added;
	int64_t		withdrawn;	/* when, or 0 */
};

/* A game of an event; the game's fields are filled by reads. */
struct store_event_game {
	int64_t		event_id;
	int64_t		game_id;
	int		round;
	int		board;
	char		adjusted[STORE_ADJUSTED_SIZE];
	int64_t		white;
	int64_t		black;
	char		white_name[STORE_NAME_SIZE];
	char		black_name[STORE_NAME_SIZE];
	char		status[STORE_STATUS_SIZE];
	char		result[STORE_RESULT_SIZE];
	char		termination[STORE_TERM_SIZE];
};

typedef int (*store_event_cb)(void *arg, const struct store_event *);
typedef int (*store_event_player_cb)(void *arg,
    const struct store_event_player *);
typedef int (*store_event_game_cb)(void *arg, const struct store_event_game *);

/* Add an event; sets e->id. STORE_EXISTS when the name is taken. */
enum store_status store_event_create(struct store *, struct store_event *e);

/* Load an event by name. */
enum store_status store_event_get_by_name(struct store *, const char *name,
    struct store_event *out);

/* Load the event a game belongs to, and the game's place in it (`eg`
 * may be NULL); STORE_NOTFOUND for a game of no event. */
enum store_status store_event_get_by_game(struct store *, int64_t game_id,
    struct store_event *out, struct store_event_game *eg);

/* List events, newest first. */
enum store_status store_event_list(struct store *, store_event_cb, void *arg);

/* Store an event's rules, status and times (e->id). */
enum store_status store_event_update(struct store *,
    const struct store_event *e);

/* Add a player to an event; STORE_EXISTS when they are in it already. */
enum store_status store_event_player_add(struct store *, int64_t event_id,
    int64_t player_id, int64_t added);

/* Remove a player from an event; STORE_NOTFOUND when not in it. */
enum store_status store_event_player_remove(struct store *, int64_t event_id,
    int64_t player_id);

/* Store a player's start number and withdrawal time in an event. */
enum store_status store_event_player_set(struct store *,
    const struct store_event_player *);

/* List an event's players by start number, then in the order they were
 * added. */
enum store_status store_event_player_list(struct store *, int64_t event_id,
    store_event_player_cb, void *arg);

/* Add a game to an event at its round and board (eg's game fields are
 * ignored). */
enum store_status store_event_game_add(struct store *,
    const struct store_event_game *eg);

/* Store what a withdrawal made of an event's game. */
enum store_status store_event_game_adjust(struct store *, int64_t game_id,
    const char *adjusted);

/* List an event's games by round and board, with their state. */
enum store_status store_event_game_list(struct store *, int64_t event_id,
    store_event_game_cb, void *arg);

/*
 * Ratings (Glicko-2): each rated player's current rating, deviation and
 * volatility, and their history, one entry per rated game with the values
 * before and after it. Written by the service in the transaction where a
 * rated game ends.
 */
struct store_rating {
	int64_t		player_id;
	char		name[STORE_NAME_SIZE];	/* filled by reads */
	double		rating;
	double		rd;
	double		volatility;
	int		games;
	int64_t		updated;	/* when the last rated game ended */
};

struct store_rating_entry {
	int64_t		player_id;
	int64_t		game_id;
	int64_t		opponent_id;
	char		opponent[STORE_NAME_SIZE];	/* filled by reads */
	double		score;		/* 1, 0.5, 0 */
	int64_t		at;
	double		rating_before;
	double		rd_before;
	double		rating;
	double		rd;
	double		volatility;
};

typedef int (*store_rating_cb)(void *arg, const struct store_rating *);
typedef int (*store_rating_entry_cb)(void *arg,
    const struct store_rating_entry *);

/* Load a player's rating; STORE_NOTFOUND when never rated. */
enum store_status store_rating_get(struct store *, int64_t player_id,
    struct store_rating *out);

/* Store a player's rating (added or replaced). */
enum store_status store_rating_set(struct store *,
    const struct store_rating *r);

/* List the rated players, best rating first. */
enum store_status store_rating_list(struct store *, store_rating_cb,
    void *arg);

/* Add one entry of a player's history; STORE_EXISTS when the game is
 * rated for the player already. */
enum store_status store_rating_history_add(struct store *,
    const struct store_rating_entry *e);

/* List a player's history, oldest first. */
enum store_status store_rating_history_list(struct store *, int64_t player_id,
    store_rating_entry_cb, void *arg);

/* Load the entry of one player's rated game; STORE_NOTFOUND when the game
 * was not rated for them. */
enum store_status store_rating_history_get(struct store *, int64_t game_id,
    int64_t player_id, struct store_rating_entry *out);

#endif /* CORRCHESS_STORE_H */
