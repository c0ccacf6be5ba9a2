/*
 * store/sql.c: every statement the store's queries run, in one table.
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
 * Each statement is prepared once per handle on first use (store_stmt())
 * and reset after each use; every lookup goes by a primary key or an index
 * (store_explain() shows the plans, a test checks them). The SQL keeps to
 * what PostgreSQL also accepts where that costs nothing: no INSERT OR
 * REPLACE, no RETURNING (SQLite 3.31 lacks it), explicit column lists,
 * LIMIT/OFFSET with a plain number, ORDER BY an ordinal in compound
 * selects, partial indexes. Where PostgreSQL needs other words, a row
 * gives them as its fourth field: BEGIN IMMEDIATE (BEGIN and an advisory
 * lock), group_concat (string_agg). tests/test_store runs every one on
 * both engines.
 *
 * The readers of rows (store_player_read() and the like) take the columns
 * by position: the column lists below and those readers change together.
 */

#include "config.h"

#include "store/store_int.h"

#define PLAYER_COLUMNS	"id, name, email, lang, created, digest, digest_sent"
#define KEY_COLUMNS	"k.id, k.player_id, k.pubkey, k.comment, k.added, " \
			"k.revoked"
#define GAME_COLUMNS \
	"g.id, g.white, g.black, w.name, b.name, g.variant, " \
	"g.chess960, g.start_fen, g.time_control, g.policy, g.event, " \
	"g.site, g.round, g.created, g.status, g.result, g.termination, " \
	"g.ply, g.fen, g.turn, g.draw_offer, g.deadline, g.head, g.updated "
#define GAME_FROM \
	"FROM games g JOIN players w ON w.id = g.white " \
	"JOIN players b ON b.id = g.black "
#define GAME_SELECT	"SELECT " GAME_COLUMNS GAME_FROM
#define MAIL_SEEN_COLUMNS \
	"mailbox, uidvalidity, uid, message_id, sender, received, outcome, " \
	"game_id"
#define OUTBOX_COLUMNS \
	"id, game_id, kind, recipient, message, created, attempts, " \
	"next_attempt, last_error"
#define EVENT_SELECT \
	"SELECT e.id, e.name, e.title, e.site, e.format, e.games, " \
	"e.variant, e.chess960, e.chess960_pairing, e.fen, e.time_control, " \
	"e.policy, e.rated, e.tiebreaks, e.withdrawal, e.status, " \
	"e.created, e.started, e.finished, e.draw_min_move, " \
	"e.draw_offer_every, e.leave_days FROM events e "
#define EVENT_GAME_SELECT \
	"SELECT eg.event_id, eg.game_id, eg.round, eg.board, eg.adjusted, " \
	"g.white, g.black, w.name, b.name, g.status, g.result, " \
	"g.termination FROM event_games eg JOIN games g ON g.id = eg.game_id " \
	"JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black "
#define RATING_HISTORY_SELECT \
	"SELECT h.player_id, h.game_id, h.opponent_id, o.name, h.score, " \
	"h.at, h.rating_before, h.rd_before, h.rating, h.rd, h.volatility " \
	"FROM rating_history h JOIN players o ON o.id = h.opponent_id "
#define ACTION_SELECT \
	"SELECT a.game_id, a.seq, a.ply, a.player_id, a.key_id, a.kind, " \
	"a.move_text, a.san, a.statement, a.signature, a.at, a.prev_hash, " \
	"a.hash, a.source, t.how, c.conditional_id FROM actions a " \
	"LEFT JOIN action_attested t ON t.game_id = a.game_id " \
	"AND t.seq = a.seq " \
	"LEFT JOIN conditional_moves c ON c.game_id = a.game_id " \
	"AND c.seq = a.seq "

/* Every statement; `scan` marks listings allowed to walk a table. */
const struct store_statement store_sql[ST_COUNT] = {
	/* PostgreSQL: a transaction-scoped advisory lock stands for
	 * SQLite's write lock, so writers queue as they do on SQLite. */
	[ST_BEGIN] = { "begin", 0, "BEGIN IMMEDIATE",
	    "BEGIN; SELECT pg_advisory_xact_lock(" STORE_PG_WRITE_LOCK ")" },
	/* A game's writers: the write lock shared; the games' locks are
	 * added by store_begin_games(). */
	[ST_BEGIN_SHARED] = { "begin-shared", 0, "BEGIN IMMEDIATE",
	    "BEGIN; SELECT pg_advisory_xact_lock_shared("
	    STORE_PG_WRITE_LOCK ")" },
	/* Where a game ends: its players' ratings and its event. */
	[ST_LOCK_RESULTS] = { "lock-results", 0, "SELECT 1",
	    "SELECT pg_advisory_xact_lock(" STORE_PG_RESULTS_LOCK ", 0)" },
	[ST_COMMIT] = { "commit", 0, "COMMIT" },
	[ST_ROLLBACK] = { "rollback", 0, "ROLLBACK" },
	[ST_SAVEPOINT] = { "savepoint", 0, "SAVEPOINT action" },
	[ST_RELEASE] = { "release", 0, "RELEASE SAVEPOINT action" },
	[ST_ROLLBACK_TO] = { "rollback_to", 0, "ROLLBACK TO SAVEPOINT action" },
	/* One daemon at a time leads a role (the clock, the mail): on
	 * PostgreSQL a session's advisory lock, on SQLite always. */
	[ST_LEAD] = { "lead", 0, "SELECT 1 + 0 * ?1",
	    "SELECT pg_try_advisory_lock(" STORE_PG_LEAD_LOCK ", ?1::int)" },
	/* What a commit changed, for the other servers' listeners
	 * (store_notify()): PostgreSQL's NOTIFY, sent at the commit, on a
	 * channel of the schema's own. */
	[ST_NOTIFY] = { "notify", 0, "SELECT length(?1)",
	    "SELECT pg_notify('corrchess.' || current_schema(), ?1)" },
	/* store_begin_games() with the writes sent ahead (PostgreSQL):
	 * the same BEGIN and locks as prepared statements, which may go
	 * in one pipeline with the batch's first read. The games' keys
	 * come as an array in ascending order, and are locked in that
	 * order (a function scan yields the array's elements in turn). */
	[ST_BEGIN_AHEAD] = { "begin-ahead", 0, "BEGIN IMMEDIATE", "BEGIN" },
	[ST_LOCK_SHARED] = { "lock-shared", 0, "SELECT 1",
	    "SELECT pg_advisory_xact_lock_shared(" STORE_PG_WRITE_LOCK ")" },
	[ST_LOCK_GAMES] = { "lock-games", 0, "SELECT length(?1)",
	    "SELECT pg_advisory_xact_lock(" STORE_PG_GAME_LOCK_TEXT ", u.k) "
	    "FROM unnest(?1::int[]) AS u(k)" },
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
	[ST_KEY_GET] = { "key-get", 0,
	    "SELECT " KEY_COLUMNS " FROM player_keys k WHERE k.id = ?1" },
	/* The earliest holder; by k.id alone, PostgreSQL's generic plan
	 * would walk the primary key for the first match. */
	[ST_KEY_OWNER] = { "key-owner", 0,
	    "SELECT p.name FROM player_keys k "
	    "JOIN players p ON p.id = k.player_id "
	    "WHERE k.pubkey = ?1 AND k.player_id <> ?2 "
	    "ORDER BY k.added, k.id LIMIT 1" },
	[ST_KEY_DUPLICATES] = { "key-duplicates", 1,
	    "SELECT k.pubkey, group_concat(p.name, ', ') "
	    "FROM (SELECT DISTINCT pubkey, player_id FROM player_keys) k "
	    "JOIN players p ON p.id = k.player_id "
	    "GROUP BY k.pubkey HAVING count(*) > 1 ORDER BY min(p.name)",
	    "SELECT k.pubkey, string_agg(p.name, ', ' ORDER BY p.name) "
	    "FROM (SELECT DISTINCT pubkey, player_id FROM player_keys) k "
	    "JOIN players p ON p.id = k.player_id "
	    "GROUP BY k.pubkey HAVING count(*) > 1 ORDER BY min(p.name)" },
	[ST_GAME_INSERT] = { "game-insert", 0,
	    "INSERT INTO games (white, black, variant, chess960, start_fen, "
	    "time_control, policy, event, site, round, created, status, "
	    "result, termination, ply, fen, turn, draw_offer, deadline, head, "
	    "updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
	    "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)" },
	[ST_GAME_GET] = { "game-get", 0, GAME_SELECT "WHERE g.id = ?1" },
	[ST_GAME_GET_ACTION] = { "game-get-action", 0,
	    "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM conditionals c "
	    "WHERE c.game_id = g.id AND c.status = 'active'), k.id, "
	    "k.player_id, k.revoked " GAME_FROM
	    "LEFT JOIN player_keys k ON k.id = ?2 WHERE g.id = ?1" },
	/* The same for several games at once, given as a JSON array of
	 * [game, key] pairs; the last column is the pair's place (from 1). */
	[ST_GAME_GET_ACTIONS] = { "game-get-actions", 0,
	    "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM conditionals c "
	    "WHERE c.game_id = g.id AND c.status = 'active'), k.id, "
	    "k.player_id, k.revoked, q.key + 1 FROM json_each(?1) q "
	    "JOIN games g ON g.id = json_extract(q.value, '$[0]') "
	    "JOIN players w ON w.id = g.white "
	    "JOIN players b ON b.id = g.black "
	    "LEFT JOIN player_keys k ON k.id = json_extract(q.value, '$[1]')",
	    /* PostgreSQL's generic plan takes the array for 100 pairs and
	     * joins them to a hash of a whole scan of games; each pair's own
	     * lookups (LATERAL, LIMIT 1: not merged into one join) go by
	     * the primary keys whatever the sizes. */
	    "SELECT x.*, k.id, k.player_id, k.revoked, q.n "
	    "FROM json_array_elements(?1::json) WITH ORDINALITY AS q(e, n) "
	    "CROSS JOIN LATERAL (SELECT " GAME_COLUMNS ", "
	    "(SELECT count(*) FROM conditionals c WHERE c.game_id = g.id "
	    "AND c.status = 'active') " GAME_FROM
	    "WHERE g.id = (q.e ->> 0)::bigint LIMIT 1) x "
	    "LEFT JOIN LATERAL (SELECT k.id, k.player_id, k.revoked "
	    "FROM player_keys k WHERE k.id = (q.e ->> 1)::bigint LIMIT 1) k "
	    "ON true" },
	[ST_GAME_UPDATE] = { "game-update", 0,
	    "UPDATE games SET status = ?2, result = ?3, termination = ?4, "
	    "ply = ?5, fen = ?6, turn = ?7, draw_offer = ?8, deadline = ?9, "
	    "head = ?10, updated = ?11 WHERE id = ?1" },
	/* The status and its indexes left alone (store_game_update_play()). */
	[ST_GAME_UPDATE_PLAY] = { "game-update-play", 0,
	    "UPDATE games SET ply = ?2, fen = ?3, turn = ?4, draw_offer = ?5, "
	    "deadline = ?6, head = ?7, updated = ?8 WHERE id = ?1" },
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
	[ST_ACTION_ATTESTED] = { "action-attested", 0,
	    "INSERT INTO action_attested (game_id, seq, how) "
	    "VALUES (?1, ?2, ?3)" },
	[ST_ACTION_LIST] = { "action-list", 0,
	    ACTION_SELECT "WHERE a.game_id = ?1 ORDER BY a.seq" },
	[ST_ACTION_GET] = { "action-get", 0,
	    ACTION_SELECT "WHERE a.game_id = ?1 AND a.seq = ?2" },
	[ST_ACTION_COND] = { "action-conditional", 0,
	    "INSERT INTO conditional_moves (game_id, seq, conditional_id) "
	    "VALUES (?1, ?2, ?3)" },
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
	[ST_REFUSAL_HOLD] = { "refusal-hold", 0,
	    "INSERT INTO refusal_answers (recipient, player_id, held, "
	    "held_since, summary_at, last_code, last_reason) "
	    "VALUES (?1, ?2, 1, ?3, 0, ?4, ?5) "
	    "ON CONFLICT (recipient) DO UPDATE SET "
	    "held = refusal_answers.held + 1, "
	    "held_since = CASE WHEN refusal_answers.held = 0 THEN ?3 "
	    "ELSE refusal_answers.held_since END, "
	    "player_id = ?2, last_code = ?4, last_reason = ?5 "
	    "RETURNING held, held_since, summary_at" },
	[ST_REFUSAL_SUMMARISED] = { "refusal-summarised", 0,
	    "UPDATE refusal_answers SET held = 0, summary_at = ?2 "
	    "WHERE recipient = ?1" },
	[ST_REFUSAL_DUE] = { "refusal-due", 1,
	    "SELECT DISTINCT player_id FROM refusal_answers "
	    "WHERE held > 0 AND summary_at <= ?1 ORDER BY player_id "
	    "LIMIT ?2" },
	[ST_REFUSAL_GET] = { "refusal-get", 0,
	    "SELECT recipient, held, held_since, summary_at, last_code, "
	    "last_reason FROM refusal_answers WHERE player_id = ?1 "
	    "AND held > 0 ORDER BY summary_at, recipient LIMIT 1" },
	[ST_OUTBOX_RECENT_ALL] = { "outbox-recent-all", 0,
	    "SELECT COUNT(*) FROM outbox WHERE kind = ?1 AND created >= ?2" },
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
	[ST_EVENT_INSERT] = { "event-insert", 0,
	    "INSERT INTO events (name, title, site, format, games, variant, "
	    "chess960, chess960_pairing, fen, time_control, policy, rated, "
	    "tiebreaks, withdrawal, status, created, started, finished, "
	    "draw_min_move, draw_offer_every, leave_days) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
	    "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)" },
	[ST_EVENT_BY_NAME] = { "event-by-name", 0,
	    EVENT_SELECT "WHERE e.name = ?1" },
	[ST_EVENT_BY_GAME] = { "event-by-game", 0,
	    "SELECT e.id, e.name, e.title, e.site, e.format, e.games, "
	    "e.variant, e.chess960, e.chess960_pairing, e.fen, e.time_control, "
	    "e.policy, e.rated, e.tiebreaks, e.withdrawal, e.status, "
	    "e.created, e.started, e.finished, e.draw_min_move, "
	    "e.draw_offer_every, e.leave_days, eg.round, eg.board, eg.adjusted "
	    "FROM event_games eg JOIN events e ON e.id = eg.event_id "
	    "WHERE eg.game_id = ?1" },
	[ST_EVENT_LIST] = { "event-list", 1,
	    EVENT_SELECT "ORDER BY e.id DESC" },
	[ST_EVENT_UPDATE] = { "event-update", 0,
	    "UPDATE events SET title = ?2, site = ?3, format = ?4, games = ?5, "
	    "variant = ?6, chess960 = ?7, chess960_pairing = ?8, fen = ?9, "
	    "time_control = ?10, policy = ?11, rated = ?12, tiebreaks = ?13, "
	    "withdrawal = ?14, status = ?15, started = ?16, finished = ?17, "
	    "draw_min_move = ?18, draw_offer_every = ?19, leave_days = ?20 "
	    "WHERE id = ?1" },
	[ST_EVENT_PLAYER_INSERT] = { "event-player-insert", 0,
	    "INSERT INTO event_players (event_id, player_id, added) "
	    "VALUES (?1, ?2, ?3)" },
	[ST_EVENT_PLAYER_DELETE] = { "event-player-delete", 0,
	    "DELETE FROM event_players WHERE event_id = ?1 AND player_id = ?2" },
	[ST_EVENT_PLAYER_UPDATE] = { "event-player-update", 0,
	    "UPDATE event_players SET seed = ?3, withdrawn = ?4 "
	    "WHERE event_id = ?1 AND player_id = ?2" },
	[ST_EVENT_PLAYER_LIST] = { "event-player-list", 0,
	    "SELECT ep.event_id, ep.player_id, p.name, p.email, p.lang, "
	    "ep.seed, ep.added, ep.withdrawn FROM event_players ep "
	    "JOIN players p ON p.id = ep.player_id WHERE ep.event_id = ?1 "
	    "ORDER BY ep.seed, ep.id" },
	[ST_EVENT_GAME_INSERT] = { "event-game-insert", 0,
	    "INSERT INTO event_games (game_id, event_id, round, board, "
	    "adjusted) VALUES (?1, ?2, ?3, ?4, ?5)" },
	[ST_EVENT_GAME_ADJUST] = { "event-game-adjust", 0,
	    "UPDATE event_games SET adjusted = ?2 WHERE game_id = ?1" },
	[ST_EVENT_GAME_LIST] = { "event-game-list", 0,
	    EVENT_GAME_SELECT "WHERE eg.event_id = ?1 "
	    "ORDER BY eg.round, eg.board" },
	[ST_DOORS_GET] = { "doors-get", 0,
	    "SELECT player_id, xfcc, mail_token, xfcc_hash FROM player_doors "
	    "WHERE player_id = ?1" },
	[ST_DOORS_SET] = { "doors-set", 0,
	    "INSERT INTO player_doors (player_id, xfcc, mail_token, xfcc_hash) "
	    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (player_id) DO UPDATE SET "
	    "xfcc = excluded.xfcc, mail_token = excluded.mail_token, "
	    "xfcc_hash = excluded.xfcc_hash" },
	[ST_GAME_AUTH_GET] = { "game-auth-get", 0,
	    "SELECT auth FROM game_auth WHERE game_id = ?1" },
	[ST_GAME_AUTH_SET] = { "game-auth-set", 0,
	    "INSERT INTO game_auth (game_id, auth) VALUES (?1, ?2) "
	    "ON CONFLICT (game_id) DO UPDATE SET auth = excluded.auth" },
	[ST_EVENT_AUTH_GET] = { "event-auth-get", 0,
	    "SELECT auth FROM event_auth WHERE event_id = ?1" },
	[ST_EVENT_AUTH_SET] = { "event-auth-set", 0,
	    "INSERT INTO event_auth (event_id, auth) VALUES (?1, ?2) "
	    "ON CONFLICT (event_id) DO UPDATE SET auth = excluded.auth" },
	[ST_GAME_RULES_GET] = { "game-rules-get", 0,
	    "SELECT rated, draw_min_move, draw_offer_every FROM game_rules "
	    "WHERE game_id = ?1" },
	[ST_GAME_RULES_SET] = { "game-rules-set", 0,
	    "INSERT INTO game_rules (game_id, rated, draw_min_move, "
	    "draw_offer_every) VALUES (?1, ?2, ?3, ?4)" },
	[ST_GAME_CREATION_GET] = { "game-creation-get", 0,
	    "SELECT record, signature, hash FROM game_creation "
	    "WHERE game_id = ?1" },
	[ST_GAME_CREATION_SET] = { "game-creation-set", 0,
	    "INSERT INTO game_creation (game_id, record, signature, hash) "
	    "VALUES (?1, ?2, ?3, ?4)" },
	[ST_COND_INSERT] = { "conditional-insert", 0,
	    "INSERT INTO conditionals (game_id, player_id, key_id, ply, lines, "
	    "statement, signature, source, created, status) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'active')" },
	[ST_COND_ACTIVE] = { "conditional-active", 0,
	    "SELECT id, game_id, player_id, key_id, ply, lines, statement, "
	    "signature, source, created, status, reason, ended, played "
	    "FROM conditionals WHERE game_id = ?1 AND player_id = ?2 "
	    "AND status = 'active'" },
	[ST_COND_PLAYED] = { "conditional-played", 0,
	    "UPDATE conditionals SET played = played + 1 "
	    "WHERE id = ?1 AND status = 'active'" },
	[ST_COND_END] = { "conditional-end", 0,
	    "UPDATE conditionals SET status = ?2, reason = ?3, ended = ?4 "
	    "WHERE id = ?1 AND status = 'active'" },
	[ST_RATING_GET] = { "rating-get", 0,
	    "SELECT r.player_id, p.name, r.rating, r.rd, r.volatility, "
	    "r.games, r.updated FROM ratings r JOIN players p "
	    "ON p.id = r.player_id WHERE r.player_id = ?1" },
	[ST_RATING_SET] = { "rating-set", 0,
	    "INSERT INTO ratings (player_id, rating, rd, volatility, games, "
	    "updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
	    "ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, "
	    "rd = excluded.rd, volatility = excluded.volatility, "
	    "games = excluded.games, updated = excluded.updated" },
	[ST_RATING_LIST] = { "rating-list", 1,
	    "SELECT r.player_id, p.name, r.rating, r.rd, r.volatility, "
	    "r.games, r.updated FROM ratings r JOIN players p "
	    "ON p.id = r.player_id ORDER BY r.rating DESC, p.name" },
	[ST_RATING_HISTORY_INSERT] = { "rating-history-insert", 0,
	    "INSERT INTO rating_history (player_id, game_id, opponent_id, "
	    "score, at, rating_before, rd_before, rating, rd, volatility) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)" },
	[ST_RATING_HISTORY_LIST] = { "rating-history-list", 0,
	    RATING_HISTORY_SELECT "WHERE h.player_id = ?1 ORDER BY h.id" },
	[ST_RATING_HISTORY_GET] = { "rating-history-get", 0,
	    RATING_HISTORY_SELECT "WHERE h.game_id = ?1 AND h.player_id = ?2" },
	[ST_INVITATION_INSERT] = { "invitation-insert", 0,
	    "INSERT INTO invitations (player_id, token_hash, created, expires) "
	    "VALUES (?1, ?2, ?3, ?4)" },
	[ST_INVITATION_FIND] = { "invitation-find", 0,
	    "SELECT i.id, i.player_id, i.created, i.expires, i.used, "
	    "i.key_id, p.name FROM invitations i JOIN players p "
	    "ON p.id = i.player_id WHERE i.token_hash = ?1" },
	[ST_INVITATION_USE] = { "invitation-use", 0,
	    "UPDATE invitations SET used = ?2, key_id = ?3 "
	    "WHERE id = ?1 AND used = 0" },
	[ST_COND_END_BY_KEY] = { "conditional-end-by-key", 0,
	    "UPDATE conditionals SET status = 'ended', reason = ?2, "
	    "ended = ?3 WHERE key_id = ?1 AND status = 'active'" },
	[ST_SETTINGS_GET] = { "settings-get", 0,
	    "SELECT move_mail, reminders, digest_hour FROM player_settings "
	    "WHERE player_id = ?1" },
	[ST_SETTINGS_SET] = { "settings-set", 0,
	    "INSERT INTO player_settings (player_id, move_mail, reminders, "
	    "digest_hour) VALUES (?1, ?2, ?3, ?4) "
	    "ON CONFLICT (player_id) DO UPDATE SET move_mail = ?2, "
	    "reminders = ?3, digest_hour = ?4" },
	[ST_SETTINGS_REMINDERS] = { "settings-reminders", 1,
	    "SELECT DISTINCT reminders FROM player_settings "
	    "WHERE reminders NOT IN ('on', 'off')" },
	[ST_SELF_COUNT] = { "self-count", 0,
	    "SELECT count(*) FROM player_records WHERE player_id = ?1" },
	[ST_SELF_INSERT] = { "self-insert", 0,
	    "INSERT INTO player_records (player_id, seq, kind, statement, "
	    "signature, key_id, source, created) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" },
	[ST_EMAIL_CHANGE_SET] = { "email-change-set", 0,
	    "INSERT INTO email_changes (player_id, email, code_hash, created, "
	    "expires) VALUES (?1, ?2, ?3, ?4, ?5) "
	    "ON CONFLICT (player_id) DO UPDATE SET email = ?2, "
	    "code_hash = ?3, created = ?4, expires = ?5" },
	[ST_EMAIL_CHANGE_GET] = { "email-change-get", 0,
	    "SELECT email, code_hash, created, expires FROM email_changes "
	    "WHERE player_id = ?1" },
	[ST_EMAIL_CHANGE_CLEAR] = { "email-change-clear", 0,
	    "DELETE FROM email_changes WHERE player_id = ?1" },
	[ST_MAIL_TOKEN_INSERT] = { "mail-token-insert", 0,
	    "INSERT INTO mail_tokens (token_hash, game_id, player_id, ply, "
	    "created, expires) VALUES (?1, ?2, ?3, ?4, ?5, ?6)" },
	[ST_MAIL_TOKEN_FIND] = { "mail-token-find", 0,
	    "SELECT id, game_id, player_id, ply, created, expires, used "
	    "FROM mail_tokens WHERE token_hash = ?1" },
	[ST_MAIL_TOKEN_USE] = { "mail-token-use", 0,
	    "UPDATE mail_tokens SET used = ?2 WHERE id = ?1 AND used = 0" },
};
