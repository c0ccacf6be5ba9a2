/*
 * store/schema.c: the schema: schema_version and each migration step.
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
 * The DDL is SQLite's, and one list of steps serves both engines: on
 * PostgreSQL each step is written with PostgreSQL's types by
 * store_schema_pg() (id INTEGER PRIMARY KEY -> an identity column, INTEGER
 * -> BIGINT, BLOB -> BYTEA, REAL -> DOUBLE PRECISION), unless
 * store_migrations_pg[] gives the step's own text (SQLite's triggers).
 * tests/test_store compares what both engines hold after every step.
 */

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"

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

	/* 6 -> 7: a key belongs to one player. Keys shared before stay
	 * (store_key_duplicates() reports them); no new one is shared. The
	 * index finds the records a key signed (and keeps the foreign key
	 * check of a key insert from walking the record). */
	"CREATE INDEX actions_key ON actions (key_id);"
	"CREATE TRIGGER player_keys_one_player BEFORE INSERT ON player_keys "
	"  WHEN EXISTS (SELECT 1 FROM player_keys "
	"    WHERE pubkey = NEW.pubkey AND player_id <> NEW.player_id) "
	"  BEGIN SELECT RAISE(ABORT, 'the key is registered for another "
	"player'); END;"
	"CREATE TRIGGER player_keys_one_player_update BEFORE UPDATE OF "
	"  pubkey, player_id ON player_keys "
	"  WHEN EXISTS (SELECT 1 FROM player_keys "
	"    WHERE pubkey = NEW.pubkey AND player_id <> NEW.player_id) "
	"  BEGIN SELECT RAISE(ABORT, 'the key is registered for another "
	"player'); END;",

	/* 7 -> 8: events: their rules, their players (by start number)
	 * and their games (by round and board, with what a withdrawal made
	 * of each). */
	"CREATE TABLE events ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE"
	"    CHECK (length(name) BETWEEN 1 AND 32),"
	"  title TEXT NOT NULL DEFAULT '',"
	"  site TEXT NOT NULL DEFAULT '',"
	"  format TEXT NOT NULL CHECK (format IN ('round-robin',"
	"    'double-round-robin', 'match')),"
	"  games INTEGER NOT NULL DEFAULT 0,"
	"  variant TEXT NOT NULL,"
	"  chess960 INTEGER CHECK (chess960 BETWEEN 0 AND 959),"
	"  chess960_pairing INTEGER NOT NULL DEFAULT 0,"
	"  fen TEXT NOT NULL DEFAULT '',"
	"  time_control TEXT NOT NULL,"
	"  policy TEXT NOT NULL,"
	"  rated INTEGER NOT NULL CHECK (rated IN (0, 1)),"
	"  tiebreaks TEXT NOT NULL,"
	"  withdrawal TEXT NOT NULL CHECK (withdrawal IN ('lose', 'annul')),"
	"  status TEXT NOT NULL"
	"    CHECK (status IN ('created', 'started', 'finished')),"
	"  created INTEGER NOT NULL,"
	"  started INTEGER NOT NULL DEFAULT 0,"
	"  finished INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE TABLE event_players ("
	"  id INTEGER PRIMARY KEY,"
	"  event_id INTEGER NOT NULL REFERENCES events (id),"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  seed INTEGER NOT NULL DEFAULT 0,"
	"  added INTEGER NOT NULL,"
	"  withdrawn INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (event_id, player_id)"
	");"
	"CREATE TABLE event_games ("
	"  game_id INTEGER PRIMARY KEY REFERENCES games (id),"
	"  event_id INTEGER NOT NULL REFERENCES events (id),"
	"  round INTEGER NOT NULL CHECK (round >= 1),"
	"  board INTEGER NOT NULL CHECK (board >= 1),"
	"  adjusted TEXT NOT NULL DEFAULT ''"
	"    CHECK (adjusted IN ('', 'annulled', 'white-withdrew',"
	"    'black-withdrew'))"
	");"
	"CREATE INDEX event_games_event ON event_games (event_id, round, board);",

	/* 8 -> 9: doors other than the player's signature. A record the
	 * server attested says how the player was known ("xfcc",
	 * "mail-token"; no row: signed by the player). A game's auth rule
	 * ("signed" when it has no row); a player's open doors and Xfcc
	 * password (an Argon2id string, "" when none). */
	"CREATE TABLE action_attested ("
	"  game_id INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  how TEXT NOT NULL CHECK (how IN ('xfcc', 'mail-token')),"
	"  PRIMARY KEY (game_id, seq),"
	"  FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq)"
	");"
	"CREATE TABLE game_auth ("
	"  game_id INTEGER PRIMARY KEY REFERENCES games (id),"
	"  auth TEXT NOT NULL CHECK (auth IN ('signed', 'signed-or-attested'))"
	");"
	"CREATE TABLE player_doors ("
	"  player_id INTEGER PRIMARY KEY REFERENCES players (id),"
	"  xfcc INTEGER NOT NULL DEFAULT 0 CHECK (xfcc IN (0, 1)),"
	"  mail_token INTEGER NOT NULL DEFAULT 0 CHECK (mail_token IN (0, 1)),"
	"  xfcc_hash TEXT NOT NULL DEFAULT ''"
	");",

	/* 9 -> 10: answers to mail refused in a player's name, per address:
	 * those held back since the last summary (the first at
	 * held_since), and when the last summary was queued. */
	"CREATE TABLE refusal_answers ("
	"  recipient TEXT PRIMARY KEY,"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),"
	"  held_since INTEGER NOT NULL DEFAULT 0,"
	"  summary_at INTEGER NOT NULL DEFAULT 0"
	");",

	/* 10 -> 11: conditional moves, kept apart from the record (the
	 * opponent must not read them) until one of their moves is played:
	 * that record links to its conditional (conditional_moves, beside
	 * the record, whose columns stay as they were). `lines` is English SAN;
	 * `status` is 'active' (at most one per player and game),
	 * 'replaced', 'cancelled' or 'ended' (with its reason). */
	"CREATE TABLE conditionals ("
	"  id INTEGER PRIMARY KEY,"
	"  game_id INTEGER NOT NULL REFERENCES games (id),"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  key_id INTEGER REFERENCES player_keys (id),"
	"  ply INTEGER NOT NULL CHECK (ply >= 0),"
	"  lines TEXT NOT NULL,"
	"  statement TEXT NOT NULL,"
	"  signature TEXT NOT NULL,"
	"  source TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  status TEXT NOT NULL CHECK (status IN ('active', 'replaced',"
	"    'cancelled', 'ended')),"
	"  reason TEXT NOT NULL DEFAULT '',"
	"  ended INTEGER,"
	"  played INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE UNIQUE INDEX conditionals_active ON conditionals"
	"  (game_id, player_id) WHERE status = 'active';"
	/* The foreign key checks of a key or a conditional find their
	 * rows by these, without walking the tables. */
	"CREATE INDEX conditionals_key ON conditionals (key_id);"
	"CREATE TABLE conditional_moves ("
	"  game_id INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  conditional_id INTEGER NOT NULL REFERENCES conditionals (id),"
	"  PRIMARY KEY (game_id, seq),"
	"  FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq)"
	");"
	"CREATE INDEX conditional_moves_conditional ON conditional_moves"
	"  (conditional_id);",

	/* 11 -> 12: Glicko-2 ratings: each rated player's current rating, and
	 * one row per player and rated game, before and after it. */
	"CREATE TABLE ratings ("
	"  player_id INTEGER PRIMARY KEY REFERENCES players (id),"
	"  rating REAL NOT NULL,"
	"  rd REAL NOT NULL CHECK (rd > 0),"
	"  volatility REAL NOT NULL CHECK (volatility > 0),"
	"  games INTEGER NOT NULL CHECK (games >= 0),"
	"  updated INTEGER NOT NULL"
	");"
	"CREATE INDEX ratings_rating ON ratings (rating);"
	"CREATE TABLE rating_history ("
	"  id INTEGER PRIMARY KEY,"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  game_id INTEGER NOT NULL REFERENCES games (id),"
	"  opponent_id INTEGER NOT NULL REFERENCES players (id),"
	"  score REAL NOT NULL CHECK (score BETWEEN 0 AND 1),"
	"  at INTEGER NOT NULL,"
	"  rating_before REAL NOT NULL,"
	"  rd_before REAL NOT NULL,"
	"  rating REAL NOT NULL,"
	"  rd REAL NOT NULL,"
	"  volatility REAL NOT NULL,"
	"  UNIQUE (game_id, player_id)"
	");"
	"CREATE INDEX rating_history_player ON rating_history (player_id, id);",

	/* 12 -> 13: invitations: a one-time link with which a player's
	 * browser registers the key it made; only the token's hash is kept.
	 * used: when it was used (0: not yet), key_id: the key it brought. */
	"CREATE TABLE invitations ("
	"  id INTEGER PRIMARY KEY,"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  token_hash BLOB NOT NULL UNIQUE,"
	"  created INTEGER NOT NULL,"
	"  expires INTEGER NOT NULL,"
	"  used INTEGER NOT NULL DEFAULT 0,"
	"  key_id INTEGER REFERENCES player_keys (id)"
	");"
	/* The foreign keys' checks find their rows without a scan. */
	"CREATE INDEX invitations_player ON invitations (player_id);"
	"CREATE INDEX invitations_key ON invitations (key_id);",

	/* 13 -> 14: an event's auth rule, which its games take when it
	 * starts ("signed", "signed-or-attested"); an event without a row
	 * takes the server's default. */
	"CREATE TABLE event_auth ("
	"  event_id INTEGER PRIMARY KEY REFERENCES events (id),"
	"  auth TEXT NOT NULL"
	");",

	/* 14 -> 15: an event's ICCF draw rules (no draw offer before move
	 * draw_min_move; one offer per player every draw_offer_every moves;
	 * 0: no such rule) and its leave allowance (days a calendar year;
	 * NULL: the server's). The rules a game was created with: rated or
	 * not, its draw rules; no row: unrated, no draw rule. The games of
	 * events so far are rated as their event is. */
	"ALTER TABLE events ADD COLUMN draw_min_move INTEGER NOT NULL"
	"  DEFAULT 0 CHECK (draw_min_move >= 0);"
	"ALTER TABLE events ADD COLUMN draw_offer_every INTEGER NOT NULL"
	"  DEFAULT 0 CHECK (draw_offer_every >= 0);"
	"ALTER TABLE events ADD COLUMN leave_days INTEGER"
	"  CHECK (leave_days BETWEEN 0 AND 366);"
	"CREATE TABLE game_rules ("
	"  game_id INTEGER PRIMARY KEY REFERENCES games (id),"
	"  rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),"
	"  draw_min_move INTEGER NOT NULL DEFAULT 0"
	"    CHECK (draw_min_move >= 0),"
	"  draw_offer_every INTEGER NOT NULL DEFAULT 0"
	"    CHECK (draw_offer_every >= 0)"
	");"
	"INSERT INTO game_rules (game_id, rated) SELECT eg.game_id, e.rated"
	"  FROM event_games eg JOIN events e ON e.id = eg.event_id;",

	/* 15 -> 16: players who manage themselves. Their notification
	 * choices (a player without a row has the defaults); the record of
	 * their own signed statements, whose count is the ply of the next;
	 * an address change waiting for its code (only the code's hash). */
	"CREATE TABLE player_settings ("
	"  player_id INTEGER PRIMARY KEY REFERENCES players (id),"
	"  move_mail INTEGER NOT NULL DEFAULT 1 CHECK (move_mail IN (0, 1)),"
	"  reminders TEXT NOT NULL DEFAULT 'on',"
	"  digest_hour INTEGER NOT NULL DEFAULT -1"
	"    CHECK (digest_hour BETWEEN -1 AND 23)"
	");"
	"CREATE TABLE player_records ("
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  seq INTEGER NOT NULL CHECK (seq >= 0),"
	"  kind TEXT NOT NULL,"
	"  statement TEXT NOT NULL,"
	"  signature TEXT NOT NULL,"
	"  key_id INTEGER REFERENCES player_keys (id),"
	"  source TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (player_id, seq)"
	");"
	"CREATE INDEX player_records_key ON player_records (key_id);"
	"CREATE TABLE email_changes ("
	"  player_id INTEGER PRIMARY KEY REFERENCES players (id),"
	"  email TEXT NOT NULL,"
	"  code_hash BLOB NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  expires INTEGER NOT NULL"
	");",

	/* 16 -> 17: single-use tokens of replies by mail: a notice to the
	 * player to move carries one, bound to (game, ply, player); only its
	 * hash is kept. used: when a reply played it (0: not yet). */
	"CREATE TABLE mail_tokens ("
	"  id INTEGER PRIMARY KEY,"
	"  token_hash BLOB NOT NULL UNIQUE,"
	"  game_id INTEGER NOT NULL REFERENCES games (id),"
	"  player_id INTEGER NOT NULL REFERENCES players (id),"
	"  ply INTEGER NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  expires INTEGER NOT NULL,"
	"  used INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE INDEX mail_tokens_game ON mail_tokens (game_id);"
	"CREATE INDEX mail_tokens_player ON mail_tokens (player_id);",

	/* 17 -> 18: the last held refusal's code and sentence, for the
	 * summary the clock sends a day after the previous one; the how-to
	 * answers counted over every address (an hourly cap). */
	"ALTER TABLE refusal_answers ADD COLUMN last_code TEXT NOT NULL"
	"  DEFAULT '';"
	"ALTER TABLE refusal_answers ADD COLUMN last_reason TEXT NOT NULL"
	"  DEFAULT '';"
	"CREATE INDEX refusal_answers_player ON refusal_answers (player_id);"
	"CREATE INDEX outbox_kind ON outbox (kind, created);",

	/* 18 -> 19: a game's creation record, the head of its chain: the
	 * bytes of sig/creation.h, the server's signature over them, their
	 * record hash. A game created before has none (doc/signatures.md). */
	"CREATE TABLE game_creation ("
	"  game_id INTEGER PRIMARY KEY REFERENCES games (id),"
	"  record TEXT NOT NULL,"
	"  signature BLOB NOT NULL CHECK (length(signature) = 64),"
	"  hash BLOB NOT NULL CHECK (length(hash) = 32)"
	");",

	/* 19 -> 20: nothing on SQLite; on PostgreSQL the checks of games
	 * and actions move into domains (store_migrations_pg[19]). */
	"SELECT 1;",

	/* 20 -> 21: nothing on SQLite; on PostgreSQL an action's player and
	 * key are no longer foreign keys (store_migrations_pg[20]). */
	"SELECT 1;",
};
#define STORE_NMIGRATIONS \
	((int)(sizeof store_migrations / sizeof store_migrations[0]))

/*
 * PostgreSQL's text of the steps whose SQLite text will not do, by the
 * step's index (the version it starts from); NULL elsewhere.
 */
static const char *const store_migrations_pg[STORE_NMIGRATIONS] = {
	/* 6 -> 7: a trigger is a function on PostgreSQL. */
	[6] =
	"CREATE INDEX actions_key ON actions (key_id);"
	"CREATE FUNCTION player_keys_one_player() RETURNS trigger "
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF EXISTS (SELECT 1 FROM player_keys"
	"    WHERE pubkey = NEW.pubkey AND player_id <> NEW.player_id) THEN"
	"    RAISE EXCEPTION 'the key is registered for another player';"
	"  END IF; RETURN NEW; END $$;"
	"CREATE TRIGGER player_keys_one_player BEFORE INSERT OR UPDATE OF "
	"  pubkey, player_id ON player_keys FOR EACH ROW "
	"  EXECUTE FUNCTION player_keys_one_player();",

	/*
	 * 19 -> 20: the same checks on games and actions, as domains.
	 * PostgreSQL reads a table's CHECK constraints back from their stored
	 * text at every statement that writes a row (about a sixth of its
	 * work for a move); a domain's checks are read once and cached. The
	 * values allowed are those of step 0 to 1, and SQLite keeps its
	 * CHECKs. Rewrites both tables once.
	 */
	[19] =
	"CREATE DOMAIN cc_count AS BIGINT CHECK (VALUE >= 0);"
	"CREATE DOMAIN cc_seq AS BIGINT CHECK (VALUE >= 1);"
	"CREATE DOMAIN cc_bit AS BIGINT CHECK (VALUE IN (0, 1));"
	"CREATE DOMAIN cc_chess960 AS BIGINT"
	"  CHECK (VALUE BETWEEN 0 AND 959);"
	"CREATE DOMAIN cc_hash AS BYTEA CHECK (length(VALUE) = 32);"
	"CREATE DOMAIN cc_game_status AS TEXT"
	"  CHECK (VALUE IN ('ongoing', 'finished'));"
	"CREATE DOMAIN cc_game_result AS TEXT"
	"  CHECK (VALUE IN ('1-0', '0-1', '1/2-1/2', '*'));"
	"ALTER TABLE games"
	"  DROP CONSTRAINT IF EXISTS games_chess960_check,"
	"  DROP CONSTRAINT IF EXISTS games_status_check,"
	"  DROP CONSTRAINT IF EXISTS games_result_check,"
	"  DROP CONSTRAINT IF EXISTS games_ply_check,"
	"  DROP CONSTRAINT IF EXISTS games_turn_check,"
	"  DROP CONSTRAINT IF EXISTS games_draw_offer_check,"
	"  DROP CONSTRAINT IF EXISTS games_head_check,"
	"  ALTER COLUMN chess960 TYPE cc_chess960,"
	"  ALTER COLUMN status TYPE cc_game_status,"
	"  ALTER COLUMN result TYPE cc_game_result,"
	"  ALTER COLUMN ply TYPE cc_count,"
	"  ALTER COLUMN turn TYPE cc_bit,"
	"  ALTER COLUMN draw_offer TYPE cc_bit,"
	"  ALTER COLUMN head TYPE cc_hash;"
	"ALTER TABLE actions"
	"  DROP CONSTRAINT IF EXISTS actions_seq_check,"
	"  DROP CONSTRAINT IF EXISTS actions_ply_check,"
	"  DROP CONSTRAINT IF EXISTS actions_prev_hash_check,"
	"  DROP CONSTRAINT IF EXISTS actions_hash_check,"
	"  ALTER COLUMN seq TYPE cc_seq,"
	"  ALTER COLUMN ply TYPE cc_count,"
	"  ALTER COLUMN prev_hash TYPE cc_hash,"
	"  ALTER COLUMN hash TYPE cc_hash;",

	/*
	 * 20 -> 21: an action's player and key stop being foreign keys.
	 * PostgreSQL checks a foreign key by a trigger that locks the row it
	 * names FOR KEY SHARE, so every move locked its player's and its
	 * key's rows: about a sixth of PostgreSQL's work for a move. Players
	 * and keys are never deleted and their ids never change, and the
	 * writer reads the game, both players and the key under the game's
	 * lock before it appends; store_integrity_check() looks for an action
	 * whose player or key is missing. The game stays a foreign key (an
	 * action on no game is refused). No IF EXISTS: a name that is not
	 * PostgreSQL's own fails the step instead of leaving the keys.
	 */
	[20] =
	"ALTER TABLE actions"
	"  DROP CONSTRAINT actions_player_id_fkey,"
	"  DROP CONSTRAINT actions_key_id_fkey;",
};

/* SQLite's type names and PostgreSQL's, as store_schema_pg() writes them. */
static const struct {
	const char	*sqlite;
	const char	*pg;
} store_types[] = {
	{ "id INTEGER PRIMARY KEY",
	  "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" },
	{ "INTEGER", "BIGINT" },
	{ "BLOB", "BYTEA" },
	{ "REAL", "DOUBLE PRECISION" },
};

/*
 * Write SQLite DDL with PostgreSQL's types: whole words outside quotes.
 * The result is malloc'd; NULL when out of memory.
 */
static char *
store_schema_pg(const char *sql)
{
	char		*out, *o;
	const char	*p;
	char		 quote = 0;
	size_t		 i, n;

	/* The longest replacement grows its word less than 5 times. */
	if ((out = malloc(strlen(sql) * 5 + 1)) == NULL)
		return NULL;
	for (p = sql, o = out; *p != '\0';) {
		if (quote != 0 || *p == '\'' || *p == '"') {
			if (quote == 0)
				quote = *p;
			else if (*p == quote)
				quote = 0;
			*o++ = *p++;
			continue;
		}
		for (i = 0; i < sizeof store_types / sizeof store_types[0];
		    i++) {
			n = strlen(store_types[i].sqlite);
			if (strncmp(p, store_types[i].sqlite, n) == 0 &&
			    (p == sql || !(isalnum((unsigned char)p[-1]) ||
			    p[-1] == '_')) &&
			    !(isalnum((unsigned char)p[n]) || p[n] == '_'))
				break;
		}
		if (i < sizeof store_types / sizeof store_types[0]) {
			o += sprintf(o, "%s", store_types[i].pg);
			p += strlen(store_types[i].sqlite);
		} else
			*o++ = *p++;
	}
	*o = '\0';
	return out;
}

/* Run DDL in the engine's words; DB_OK or the failure (in the handle). */
static enum db_rc
store_schema_exec(struct store *s, const char *sql, const char *pg)
{
	enum db_rc	 rc;
	char		*text;

	if (db_engine(s->db) != DB_POSTGRESQL)
		return store_exec(s, sql);
	if (pg != NULL)
		return store_exec(s, pg);
	if ((text = store_schema_pg(sql)) == NULL) {
		store_seterr(s, "out of memory");
		return DB_ERROR;
	}
	rc = store_exec(s, text);
	free(text);
	return rc;
}

_Static_assert(STORE_NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION in store.h counts the migration steps");

/* Read the schema version; -1 on error. */
static int
store_schema_read(struct store *s)
{
	struct db_stmt	*st;
	int		 rc, version = -1;

	if ((st = store_stmt(s, ST_VERSION)) == NULL)
		return -1;
	rc = db_step(st);
	if (rc == DB_ROW)
		version = db_column_int(st, 0);
	else if (rc == DB_DONE)
		store_seterr(s, "schema_version has no row");
	else
		store_fail(s, rc, "read schema version");
	store_done(st);
	return version;
}

/* Read the version without taking a lock; 0 when there is no table yet. */
int
store_schema_peek(struct store *s)
{
	struct db_stmt	*st = NULL;
	int		 version = 0;

	if ((st = db_prepare(s->db, "SELECT version FROM schema_version",
	    false)) != NULL && db_step(st) == DB_ROW)
		version = db_column_int(st, 0);
	db_finalize(st);
	return version;
}

/*
 * Create the version table, then apply each missing migration step up to
 * `target` in its own transaction. An up-to-date database is only read, so
 * opening a handle does not wait for another handle's writer. Another
 * process may migrate at the same time: the version is read again under
 * the write lock.
 */
int
store_schema_migrate(struct store *s, int target)
{
	char	bump[64];
	int	version, rc;

	version = store_schema_peek(s);
	if (version >= target && version <= STORE_NMIGRATIONS)
		return 0;
	if (store_begin(s) != STORE_OK)
		return -1;
	if (store_schema_exec(s, "CREATE TABLE IF NOT EXISTS schema_version "
	    "(version INTEGER NOT NULL)", NULL) != DB_OK ||
	    store_exec(s, "INSERT INTO schema_version (version) SELECT 0 "
	    "WHERE NOT EXISTS (SELECT 1 FROM schema_version)") != DB_OK ||
	    store_exec(s, "COMMIT") != DB_OK)
		goto fail;

	for (;;) {
		if (store_begin(s) != STORE_OK)
			return -1;
		if ((version = store_schema_read(s)) < 0)
			goto fail;
		if (version > STORE_NMIGRATIONS) {
			store_seterr(s, "database schema version %d is newer "
			    "than this program's (%d)", version,
			    STORE_NMIGRATIONS);
			goto fail;
		}
		if (version >= target) {
			rc = store_exec(s, "COMMIT");
			return rc == DB_OK ? 0 : -1;
		}
		snprintf(bump, sizeof bump,
		    "UPDATE schema_version SET version = %d", version + 1);
		if (store_schema_exec(s, store_migrations[version],
		    store_migrations_pg[version]) != DB_OK) {
			char	reason[STORE_ERR_SIZE];

			snprintf(reason, sizeof reason, "%s", s->err);
			store_seterr(s, "migration to version %d: %s",
			    version + 1, reason);
			goto fail;
		}
		if (store_exec(s, bump) != DB_OK ||
		    store_exec(s, "COMMIT") != DB_OK)
			goto fail;
	}

fail:
	if (db_in_txn(s->db))
		db_exec(s->db, "ROLLBACK");
	return -1;
}

/* Return the schema version, or -1. */
int
store_schema_version(struct store *s)
{
	return store_schema_read(s);
}
