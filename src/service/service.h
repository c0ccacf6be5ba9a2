/*
 * service/service.h: one function per user action, for every front door.
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
 * The service: one function per user action, called by every front door
 * (REST, mail, admin), so an action follows the same checks and gives the
 * same error texts whichever way it came in.
 *
 * Threads: every function may be called from any thread at once. Reads use
 * a pool of store handles. Every write goes through one writer thread:
 * signed actions (verified on the caller's thread), mail, the clock's
 * work, the admin's changes to players, keys and games, and the outbox's
 * bookkeeping. The writer groups the jobs waiting at that moment into one
 * transaction (group commit), each in its own savepoint, so a refused or
 * failed job leaves no trace while the others commit; a function that
 * writes returns only after its transaction committed.
 */

#ifndef CORRCHESS_SERVICE_H
#define CORRCHESS_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "sig/sig.h"
#include "event/crosstable.h"
#include "event/standings.h"
#include "store/store.h"

struct service;

/* Whether a game created without "rated" is rated, by default: the
 * service's and corrchessd's ([game] rated) one default. */
#define SERVICE_RATED_DEFAULT	true

/* Moves before which the admin may abort a game, by default. */
#define SERVICE_ABORT_MOVES	2

/* Days of leave a player may take per calendar year, by default. */
#define SERVICE_LEAVE_DAYS	45

/*
 * Glicko-2 ratings (Glickman 2012). Each rated game (a game of a rated
 * event, finished over the board) is a rating period of its own for its
 * two players, applied in the transaction where it ends, from their
 * values before it; a player's deviation first grows by one period of
 * volatility for each whole `period` since their last rated game, up to
 * the new player's deviation. Zero fields take the defaults below.
 */
struct service_ratings {
	double		 tau;		/* 0.5 */
	double		 rating;	/* 1500: a new player's */
	double		 rd;		/* 350 */
	double		 volatility;	/* 0.06 */
	int64_t		 period;	/* seconds; 30 days */
	double		 provisional_rd;	/* above: provisional; 110 */
};

/*
 * LIVE EVENTS. After each batch of the writer commits, the events it
 * caused go to service_config.events (never before the commit, never for
 * work that was undone), on the writer's thread: keep it short.
 */
enum service_live_kind {
	SERVICE_LIVE_START = 0,	/* a game was created */
	SERVICE_LIVE_MOVE,		/* a move (a conditional answer too) */
	SERVICE_LIVE_OFFER,		/* a draw offered with a move */
	SERVICE_LIVE_DECLINE,		/* a draw offer declined */
	SERVICE_LIVE_END,		/* the game ended: result, why */
	SERVICE_LIVE_CLOCK,		/* the clocks changed (leave) or a
					   reminder threshold was passed */
	SERVICE_LIVE_MESSAGE,		/* a player's message, sent with an
					   action (the record's kind) */
};

struct service_live {
	enum service_live_kind	 kind;
	int64_t			 game_id;
	int64_t			 white, black;	/* player ids */
	char			 white_name[STORE_NAME_SIZE];
	char			 black_name[STORE_NAME_SIZE];
	int			 ply;		/* after the event */
	bool			 ongoing;
	int			 turn;		/* side to move */
	int			 by;		/* who acted: a colour, or -1 */
	char			 san[CHESS_SAN_MAX];	/* a move's */
	bool			 conditional;	/* a conditional answer */
	char			 fen[STORE_FEN_SIZE];
	char			 result[STORE_RESULT_SIZE];
	char			 termination[STORE_TERM_SIZE];
	int64_t			 clock[2];	/* seconds left, or -1 */
	int64_t			 deadline;	/* 0: none */
	int64_t			 warning;	/* a reminder's threshold, s */
	int64_t			 at;
	int64_t			 seq;		/* the record's; 0: none */
	char			 action[STORE_KIND_SIZE];	/* a message's:
							   "move", ... */
	char			 text[SIG_MESSAGE_MAX + 1];	/* a message's */
};

typedef void (*service_live_cb)(void *arg, const struct service_live *,
    size_t n);

struct service_config {
	const char	*db_path;	/* store_open()'s: an SQLite file,
					   ":memory:" (tests), or
					   "postgresql:CONNINFO" */
	const char	*password_file;	/* PostgreSQL's, or NULL */
	enum store_sync	 sync;
	/* Mail: when `mail` is set, every event a player must hear of is
	 * queued in the outbox with the action; From, Reply-To and the
	 * domain of Message-IDs. */
	bool		 mail;
	const char	*mail_from;
	const char	*mail_reply_to;
	const char	*mail_domain;
	int		 batch_max;	/* actions per transaction; 0: 64 */
	int		 leave_days;	/* leave a player may take per
					   calendar year; 0: 45 */
	int		 abort_moves;	/* the admin may abort a game before
					   this many moves (2N half-moves);
					   0: SERVICE_ABORT_MOVES; -1: never */
	/* The server's own key (copied; NULL: none), with which it signs
	 * the actions of players it knew by something other than their
	 * signature; and the auth rule of a new game, "signed" (NULL) or
	 * "signed-or-attested". */
	const uint8_t	*server_sk;	/* SIG_SECKEY_BYTES */
	const char	*auth_default;
	int		 rated_default;	/* a game created without "rated"
					   is rated (Glicko-2): 1 yes, -1
					   no, 0: SERVICE_RATED_DEFAULT */
	struct service_ratings ratings;
	/* Live events after each commit (NULL: none kept). */
	service_live_cb	 events;
	void		*events_arg;
	/* Whether any client follows game `game` or one of its players
	 * (events_arg): asked before another server's events of that game
	 * are read back from the database (NULL: always read). */
	bool		(*events_wanted)(void *arg, int64_t game,
			    int64_t white, int64_t black);
	/* The one clock: seconds since the epoch. NULL: time(NULL). */
	int64_t		(*now)(void *arg);
	void		*now_arg;
};

/* A refusal, as every front door reports it. */
struct service_error {
	unsigned	status;		/* HTTP status: 400, 403, 404, 409 ... */
	char		code[32];	/* API code: "illegal-move" ... */
	char		message[512];	/* a sentence for the player */
};

/* A player and their keys. Free with service_player_free(). */
struct service_player {
	struct store_player	 p;
	struct store_key	*keys;
	size_t			 nkeys;
};

/* What an admin gives to create a game. Unset strings may be NULL. */
struct service_game_params {
	const char	*white;
	const char	*black;
	const char	*variant;	/* "standard" (default) or "chess960" */
	int		 chess960;	/* 0..959, or -1: random (chess960) */
	const char	*fen;		/* start position (thematic openings) */
	const char	*time_control;	/* game_tc_parse() text; NULL: none */
	const char	*policy;	/* "auto" (default) or "claim" */
	const char	*event;
	const char	*site;
	const char	*round;
	const char	*auth;		/* "signed", "signed-or-attested";
					   NULL: the server's default */
	int		 rated;		/* 1, 0, or -1: the server's
					   rated_default */
	int		 draw_min_move;	/* ICCF draw rules (0: none): no
					   offer before this move, */
	int		 draw_offer_every;	/* one a player per N moves */
};

/*
 * A player's conditional moves in a game, as their owner reads them (in
 * answer to a signed conditional, cancel-conditional or show-conditional
 * statement). Free with service_conditional_free().
 */
struct service_conditional {
	int64_t		 id;
	int		 ply;		/* the game's ply when it was signed */
	char		*lines;		/* as signed, in English SAN */
	char		 status[STORE_COND_STATUS_SIZE];	/* "active",
					   "replaced", "cancelled", "ended" */
	char		 reason[STORE_COND_REASON_SIZE];	/* why it
					   ended, or "" */
	int		 played;	/* its moves played so far */
	size_t		 left;		/* lines still in play (active) */
};

void service_conditional_free(struct service_conditional *);

/*
 * A message a player sent with an action: the "message:" line of the
 * action's signed statement (doc/signatures.md), read from the record.
 */
struct service_message {
	int64_t		 seq;		/* the record it came with */
	int		 ply;		/* half-moves played before it */
	int		 color;		/* the sender's: CHESS_WHITE/BLACK */
	char		 kind[STORE_KIND_SIZE];	/* "move", "resign", ... */
	char		 text[SIG_MESSAGE_MAX + 1];
};

/*
 * A game as stored and rebuilt: its row, its state machine at `now`, the
 * SAN of every move and the players' messages, in the record's order.
 * Free with service_game_free().
 */
/* What a game keeps beside its row and its state (where its draw rules
 * are): whether it is rated, the leave a player may take in it a
 * calendar year (its event's allowance, or the server's), and its auth
 * rule ("signed" or "signed-or-attested", fixed when it is created). */
struct service_game_rules {
	bool	rated;
	int	leave_days;
	char	auth[STORE_AUTH_SIZE];
};

struct service_game {
	struct store_game	 row;
	struct game		 state;
	struct service_game_rules rules;
	char			(*san)[CHESS_SAN_MAX];	/* state.chess.nply */
	struct service_message	*msgs;		/* nmsgs of them, or NULL */
	size_t			 nmsgs;
	int64_t			 now;
	/* After service_submit() of a conditional action: the submitter's
	 * conditional (never in a view others read); else NULL. */
	struct service_conditional *cond;
};

/*
 * Games' answers as rendered bytes, kept for readers (service/render.c):
 * a front door renders what service_game_get() gave and keeps the bytes
 * with service_render_put(); service_render_share() gives them back while
 * the game, its players and (for a running clock) the service's second
 * are the same, without reading the store when this server would have
 * heard of a change (the players' generation ends at every change of a
 * player, a key, doors or a rating: the JSON shows doors, the PGN keys
 * and ratings). The kinds of rendering a front door keeps.
 */
enum service_render {
	SERVICE_RENDER_JSON = 0,	/* GET /api/v1/games/{id}, JSON */
	SERVICE_RENDER_TEXT = 1,	/* the same, text/plain */
	SERVICE_RENDER_PAGE_EN = 2,	/* GET /games/{id}, in English */
	SERVICE_RENDER_PAGE_FR = 3,	/* in French */
	SERVICE_RENDER_PAGE_EN_FLIP = 4,	/* the board turned, English */
	SERVICE_RENDER_PAGE_FR_FLIP = 5,	/* the board turned, French */
	SERVICE_RENDER_TEXT_FR = 6,	/* the text/plain view in French */
	SERVICE_RENDER_PGN = 7,		/* GET /api/v1/games/{id}/pgn */
};
#define SERVICE_RENDER_KINDS	8

/* Room for the entity tag kept with a rendering (quoted, NUL). */
#define SERVICE_RENDER_TAG_SIZE	40

/* What a reader that found no bytes takes before it reads the game, and
 * hands to service_render_put() with what it rendered. */
struct service_render_ticket {
	uint64_t	epoch;		/* the slot's drops */
	uint64_t	players;	/* what is shown of the players:
					   its generation (shown_gen) */
	uint64_t	session;	/* the listener's connection */
};

/*
 * The bytes of game `id`'s answer of `kind`, without a copy: 1 with *data
 * pointing at the kept bytes and a reference taken on them, *tag at their
 * entity tag ("" when none was given); the bytes and the tag stay valid,
 * even after the game changes and they are dropped, until
 * service_bytes_release(*data). 0 when none is kept for the game as it
 * stands, with a ticket in *t: render the game and keep the bytes with
 * it. -1 with `err` set (a store failure, or 404 for no such game found
 * when the row had to be read).
 */
int service_render_share(struct service *, int64_t id, enum service_render,
    const char **data, size_t *len, const char **tag,
    struct service_render_ticket *t, struct service_error *);
/* Give back a reference service_render_share() took (NULL: nothing). Its
 * argument is the data pointer, so it serves as a free callback. */
void service_bytes_release(void *data);
/* Keep bytes rendered from `g` as service_game_get() filled it, with
 * their entity tag (NULL: none), unless the game or its players changed
 * since the ticket was taken. */
void service_render_put(struct service *, const struct service_game *g,
    enum service_render, const char *bytes, size_t len, const char *tag,
    const struct service_render_ticket *);

/* One record of a game's signed record, for exports. */
typedef int (*service_record_cb)(void *arg, const struct store_action *);

/* Open the service: the store (created or migrated) and the writer
 * thread. NULL with a reason in `err` on failure. */
struct service *service_open(const struct service_config *, char *err,
    size_t errsize);

/* Stop the writer (after the actions already queued) and close. */
void service_close(struct service *);

/* The service's clock. */
int64_t service_now(struct service *);

/*
 * DOORS BESIDE THE SIGNATURE (service/doors.c). A player may open doors
 * that know them by something else than their own signature: "xfcc" (a
 * password, for correspondence programs speaking Xfcc) and "mail-token"
 * (a single-use token in the notices). The action then enters the record
 * as usual, its statement signed with the server's key and marked
 * attested, with the door's name; only games whose auth rule is
 * "signed-or-attested" accept it.
 */

/* 0 when `auth` is "signed" or "signed-or-attested", else -1. */
int service_auth_valid(const char *auth);

/* The server's public key; -1 when the service has none. */
int service_server_key(struct service *, uint8_t pk[SIG_PUBKEY_BYTES]);

/* A player's doors, as anyone may see them. */
struct service_doors {
	bool	xfcc;
	bool	mail_token;
	bool	xfcc_password;	/* a password is set */
};
int service_doors_get(struct service *, const char *name,
    struct service_doors *out, struct service_error *);

/*
 * Open or shut a player's doors (1, 0; -1 leaves one as it is) and set
 * the Xfcc password (NULL: as it is; "": none). The password is kept as an
 * Argon2id string (crypto_pwhash_str), 8 to 128 bytes.
 */
int service_doors_set(struct service *, const char *name, int xfcc,
    int mail_token, const char *xfcc_password, struct service_error *);

/*
 * Check an Xfcc user name and password; `address` is the client's (for
 * the rate limit). Fills `out` (when not NULL) with the player. Failures
 * are counted per player and per address: past SERVICE_LOGIN_FAILS within
 * SERVICE_LOGIN_WINDOW seconds every attempt is refused (429,
 * "too-many-attempts") until the window ends, good password or not.
 * 401 "bad-login" for an unknown name, a wrong password or a shut door.
 */
#define SERVICE_LOGIN_FAILS	10
#define SERVICE_LOGIN_WINDOW	900
int service_xfcc_login(struct service *, const char *name,
    const char *password, const char *address, struct store_player *out,
    struct service_error *);

/* An action of a player the server knew by a door (not a signature). */
struct service_attested {
	int64_t		 game_id;
	const char	*player;
	uint32_t	 ply;		/* the ply the player acted at */
	const char	*action;	/* an action value: "move e4", ... */
	const char	*message;	/* to the opponent, or NULL/"" */
	const char	*how;		/* the door: "xfcc", "mail-token" */
	const char	*source;	/* "xfcc", "mail" */
};

/*
 * Write the statement of an attested action, sign it with the server's
 * key and submit it as service_submit() does; the record marks it
 * attested. 403 "door-shut" when the player's door is shut, 403
 * "signature-required" when the game takes signed actions only.
 */
int service_attest(struct service *, const struct service_attested *,
    struct service_game *out, struct service_error *);

/*
 * Replies by mail without a key: a notice to the player to move whose
 * mail-token door is open, in a game that takes attested actions, carries
 * a token of SERVICE_TOKEN_BYTES random bytes (base64url), valid for that
 * game, ply and player, once, for SERVICE_MAIL_TOKEN_DAYS. A mail from
 * the player's registered address with a live token and an action on its
 * first line is played as an action attested "mail-token". Refusals: 403
 * "bad-token" (not one the server gave), 403 "token-wrong-sender", 409
 * "token-used", 409 "token-stale" (the game moved on), 410
 * "token-expired"; the action's own refusals leave the token unused.
 */
#define SERVICE_TOKEN_BYTES	16
#define SERVICE_MAIL_TOKEN_DAYS	90

/* Players (admin). */
int service_player_create(struct service *, const char *name,
    const char *email, const char *lang, const char *const *keys,
    size_t nkeys, struct service_player *out, struct service_error *);
int service_player_get(struct service *, const char *name,
    struct service_player *out, struct service_error *);
int service_player_list(struct service *, store_player_cb, void *arg,
    struct service_error *);
int service_key_add(struct service *, const char *name, const char *key,
    struct store_key *out, struct service_error *);
int service_key_revoke(struct service *, const char *name, int64_t key_id,
    struct service_error *);
void service_player_free(struct service_player *);

/*
 * Public keys registered for several players, kept from a database of
 * before a key was one player's (new ones are refused, key-in-use): cb
 * gets each key's fingerprint, as ssh-keygen -l prints it, and the names,
 * ", " between them. service_shared_keys_file() reads the database file
 * at `path` without migrating it (corrchessd --check-config); a file that
 * does not exist has none. 0, or -1 with the reason.
 */
typedef void (*service_shared_key_cb)(void *arg, const char *fingerprint,
    const char *players);
int service_shared_keys(struct service *, service_shared_key_cb, void *arg,
    struct service_error *);
int service_shared_keys_file(const char *path, service_shared_key_cb,
    void *arg, char *err, size_t errsize);

/*
 * Change a player's e-mail address, language ("en", "fr") or digest
 * ("none", "daily"); NULL leaves a field as it is. `out`, when not NULL,
 * gets the player as stored.
 */
int service_player_set(struct service *, const char *name, const char *email,
    const char *lang, const char *digest, struct service_player *out,
    struct service_error *);

/*
 * Invitations: the admin makes a one-time link for a player; the browser
 * that opens it makes a key and registers it with the token (single use,
 * expires; only the token's hash is stored). A second device gets its own
 * invitation and its own key.
 */
#define SERVICE_INVITE_DAYS	7	/* lifetime by default */
#define SERVICE_INVITE_DAYS_MAX	90
/* A token: 32 random bytes in base64url without padding, and a NUL. */
#define SERVICE_TOKEN_SIZE	44

struct service_invitation {
	char	player[STORE_NAME_SIZE];
	char	token[SERVICE_TOKEN_SIZE];
	int64_t	expires;
};

/* Invite player `name` for `days` (0: SERVICE_INVITE_DAYS; at most
 * SERVICE_INVITE_DAYS_MAX). `out` gets the token, shown only now. */
int service_invite(struct service *, const char *name, int days,
    struct service_invitation *out, struct service_error *);

/*
 * Register `key` (an OpenSSH line or raw base64) for the player an
 * invitation token names, and use the invitation up: 404
 * "no-such-invitation", 410 "invitation-used" or "invitation-expired",
 * or the refusals of a key (400 "bad-key", 409 "key-exists"). `p` and `k`
 * (either may be NULL) get the player and the key.
 */
int service_enrol(struct service *, const char *token, const char *key,
    struct store_player *p, struct store_key *k, struct service_error *);

/*
 * PLAYERS WHO MANAGE THEMSELVES (service/self.c). A player signs
 * statements about themselves with "game: 0" and, as ply, the count of
 * such statements accepted so far: add-key, revoke-key (never their last
 * valid key; the conditional moves the key signed end with it), set NAME
 * VALUE (lang, move-mail, reminders, digest, digest-hour), email ADDRESS
 * (a code goes to the new address; the change waits for confirm-email
 * CODE, signed within two days) and show-settings (a signed read). Each
 * change is recorded and told to the player's address.
 */
#define SERVICE_SELF_MSG_SIZE	640

/* A player's settings, as they read them. Free with
 * service_settings_free(). */
struct service_settings {
	struct service_player	 sp;		/* the player and their keys */
	struct store_settings	 set;
	int64_t			 ply;		/* of their next statement */
	char			 pending_email[STORE_EMAIL_SIZE];	/* an
					   address waiting for its code,
					   or "" */
	char			 message[SERVICE_SELF_MSG_SIZE];	/* what
					   the statement did */
};

int service_settings_get(struct service *, const char *name,
    struct service_settings *out, struct service_error *);
void service_settings_free(struct service_settings *);

/*
 * Submit a player's own signed statement; `name` (or NULL) is the player
 * the front door expects. On success `out` (when not NULL) holds the
 * player's settings after it, and what it did.
 */
int service_self_submit(struct service *, const char *name, const char *text,
    size_t len, const char *source, struct service_settings *out,
    struct service_error *);

/* The same, refused in `lang` (the reader's, as Accept-Language says) as
 * long as the statement names no player this server knows. */
int service_self_submit_lang(struct service *, const char *name,
    const char *text, size_t len, enum chess_lang lang, const char *source,
    struct service_settings *out, struct service_error *);

/* A player's leave in the current calendar year (UTC), in days. */
struct service_leave_year {
	int		year;
	int64_t		allowance_days;
	int64_t		taken_days;	/* of leaves taken, past or to come */
	int64_t		left_days;
};
int service_player_leave(struct service *, int64_t player_id,
    struct service_leave_year *out, struct service_error *);

/* Games. */
int service_game_create(struct service *, const struct service_game_params *,
    struct service_game *out, struct service_error *);
int service_game_get(struct service *, int64_t id, struct service_game *out,
    struct service_error *);
int service_game_list(struct service *, const struct store_game_filter *,
    store_game_cb, void *arg, struct service_error *);
/*
 * Read a game's creation record, the head of its chain, into `out`: 1,
 * or 0 when the game has none (created before corrchess 0.2.0, or by a
 * server without a key), or -1 (a 404 for no such game).
 */
int service_game_creation(struct service *, int64_t id,
    struct store_creation *out, struct service_error *);
int service_game_records(struct service *, int64_t id, service_record_cb,
    void *arg, struct service_error *);
void service_game_free(struct service_game *);
/*
 * Done with a game read or answered: keep it in the cache of game views
 * that GETs read (without copying it; *g is emptied, its conditional
 * freed), or free it.
 */
void service_game_keep(struct service *, struct service_game *g);

/* Write where a message stands: the number and SAN, in `lang`, of the
 * move it came with ("3. Nf3", "3...Nf6"), or "" when its action played
 * no move. */
void service_message_move(const struct service_game *,
    const struct service_message *, enum chess_lang, char *buf,
    size_t size);

/*
 * The admin's actions on a game (service/admin.c). Each is written as a
 * statement of the player "admin" at the game's ply, signed with the
 * server's key and recorded in the game's chain (source "admin"); both
 * players are told by mail, with the reason (1 to SIG_REASON_MAX bytes,
 * 400 "bad-reason"). 409 "game-over" when the game has ended.
 *
 * Abort: the game ends without a result ("*", termination "aborted"),
 * only before the configured number of moves (409 "too-many-moves") and
 * not in an event (409 "event-game"). Adjudicate: the game ends with
 * `result`, "1-0", "0-1" or "1/2-1/2" (400 "bad-result"), termination
 * "adjudication". `out` (when not NULL) gets the game after it.
 */
int service_admin_abort(struct service *, int64_t game_id, const char *reason,
    struct service_game *out, struct service_error *);
int service_admin_adjudicate(struct service *, int64_t game_id,
    const char *result, const char *reason, struct service_game *out,
    struct service_error *);

/* The game as PGN with its signed record in comments; malloc'd. */
char *service_game_pgn(struct service *, int64_t id, size_t *lenp,
    struct service_error *);
/* The same of a game service_game_get() read. */
char *service_game_pgn_of(struct service *, const struct service_game *,
    size_t *lenp, struct service_error *);

/*
 * Submit a signed statement (the text holds the statement and its
 * signature, in either form). `game_id` is the game the front door expects
 * (the URL's), or 0 for any. `source` is "http" or "mail". On success the
 * action is committed and `out` (when not NULL) holds the new state; for
 * a conditional action, out->cond holds the player's conditional.
 *
 * Conditional moves (actions conditional, cancel-conditional and
 * show-conditional) are checked by game_cond_check() and kept apart from
 * the record; the writer plays the owner's answer in the transaction of
 * the opponent's move, which then answers with both moves played.
 */
int service_submit(struct service *, int64_t game_id, const char *text,
    size_t len, const char *source, struct service_game *out,
    struct service_error *);

/*
 * The same, refused in `lang` (the reader's, as Accept-Language says) as
 * long as the statement names no player this server knows: a text with
 * no player line, lines joined by curl -d, an unknown player. Once the
 * player is known, their own language.
 */
int service_submit_lang(struct service *, int64_t game_id, const char *text,
    size_t len, enum chess_lang lang, const char *source,
    struct service_game *out, struct service_error *);

/*
 * The same without waiting for the commit, so that no thread waits while
 * many actions share one: the statement is parsed and its signature
 * checked on the caller's thread (the HTTP threads, as many as there are
 * cores), then queued for the writer. 0: queued; *out is set, and
 * done(arg) is called once, on the writer's thread, after the commit or
 * its failure: it only hands the action back (wakes whoever will call
 * service_submit_finish()), it calls nothing of the service. -1: refused
 * before the writer, err says why; done is never called and *out is NULL.
 */
struct service_action;
int service_submit_start(struct service *, int64_t game_id, const char *text,
    size_t len, enum chess_lang lang, const char *source,
    void (*done)(void *), void *arg, struct service_action **out,
    struct service_error *);
/*
 * Take a started action's result once done() was called, as
 * service_submit() gives it (`out` NULL: only count and keep it), and
 * free the action. Give `out` to service_game_keep() once answered: the
 * views GETs read get it then, without a copy.
 */
int service_submit_finish(struct service *, struct service_action *,
    struct service_game *out, struct service_error *);

/*
 * A mail read from the move mailbox. `statement` is the signed statement
 * found in it (NULL when none): the mail front door finds it, the service
 * does the rest.
 */
struct service_mail_in {
	const char	*mailbox;
	int64_t		 uidvalidity;
	int64_t		 uid;
	const char	*message_id;	/* "" when none */
	const char	*sender;	/* bare address */
	const char	*subject;
	bool		 automatic;	/* a bounce or auto-reply: never answer */
	const char	*statement;
	size_t		 statement_len;
	bool		 too_large;	/* over the size limit: refused with
					   its size and the limit */
	uint64_t	 size;		/* its size in bytes (0: not known) */
	uint64_t	 size_limit;	/* the limit it is over */
	/* Without a statement: the token of a reply without a key and the
	 * action on its first line (NULL, "" when none). */
	const char	*token;
	const char	*reply_action;
	const char	*reply_message;	/* the lines below it, or NULL/"" */
};

enum service_mail_outcome {
	SERVICE_MAIL_APPLIED = 0,	/* the action was committed */
	SERVICE_MAIL_REFUSED,		/* refused; answered when allowed */
	SERVICE_MAIL_NO_STATEMENT,	/* a how-to answer (rate-limited) */
	SERVICE_MAIL_DUPLICATE,		/* seen before: nothing done */
};

/* "applied", "refused", "no-statement", "duplicate". */
const char *service_mail_outcome_name(enum service_mail_outcome);

/*
 * Handle one mail: its action runs through the same checks as over HTTP,
 * and the mail is recorded (by place and Message-ID) in the same
 * transaction, with the answer it gets: a refusal is answered to the
 * sender when the sender is a registered player, else to the player the
 * statement names (never to strangers); a mail without a statement gets a
 * how-to answer at most once a day per address. Returns 0 when the mail
 * was dealt with (move it away; *outcome and, for a refusal, `err` say
 * how), -1 when it could not be recorded (leave it; try again later).
 */
int service_mail(struct service *, const struct service_mail_in *,
    enum service_mail_outcome *outcome, struct service_error *err);

/*
 * Handle `n` mails as service_mail() does, but together: each is parsed and
 * its signature checked on the caller's thread, then all are queued at once
 * so that the writer applies them in this order and commits them together
 * (each mail still in its own savepoint). outcomes[i] and errs[i] are mail
 * i's. Returns 0 when every mail was dealt with; -1 when some could not be
 * recorded: their errs[i].status is 500 or above (a refusal's is below),
 * and the others are dealt with as their outcomes say.
 */
int service_mail_many(struct service *, const struct service_mail_in *ins,
    size_t n, enum service_mail_outcome *outcomes,
    struct service_error *errs);

/* Where polling `mailbox` got to: its UIDVALIDITY and the last UID dealt
 * with (both 0 the first time). */
int service_mail_position(struct service *, const char *mailbox,
    int64_t *uidvalidity, int64_t *last_uid, struct service_error *);

/* An outgoing mail due for sending; `message` valid during the callback. */
typedef int (*service_outbox_cb)(void *arg, const struct store_outbox *);

/* Walk the mails due at the service's now (at most `limit`). */
int service_outbox_due(struct service *, int64_t limit, service_outbox_cb,
    void *arg, struct service_error *);

/* After sending attempts: the mails ids[0..n-1] sent (one transaction);
 * or one failed, to retry at `retry_at` (0: give it up for good). */
int service_outbox_sent(struct service *, const int64_t *ids, size_t n,
    struct service_error *);
int service_outbox_failed(struct service *, int64_t id, int64_t retry_at,
    const char *why, struct service_error *);

/*
 * Several servers on one database (PostgreSQL): the clock, the reading of
 * the mailbox and the sending of the outbox each run on one server at a
 * time. service_lead() says whether this server leads `role` now: it
 * takes the role's advisory lock when free (on a connection of its own,
 * held until the server stops or loses the database) and checks that it
 * still holds it. Ask before each round; a server that is not the leader
 * skips the round and asks again a few seconds later, so that it takes
 * over within seconds of the leader's end. On SQLite always true.
 */
enum service_role {
	SERVICE_LEAD_CLOCK,
	SERVICE_LEAD_MAILBOX,
	SERVICE_LEAD_OUTBOX,
	SERVICE_ROLES
};
bool service_lead(struct service *, enum service_role);

/*
 * Copy the database with SQLite's online backup API while writers go on:
 * *fdp is a consistent copy (an unlinked file next to the database, open
 * for reading; the caller closes it), *sizep its size in bytes.
 */
int service_backup(struct service *, int *fdp, int64_t *sizep,
    struct service_error *);

/*
 * The clock. Games end on time without anyone opening them, and the side
 * to move is reminded of its deadline; src/daemon/clock.c calls these
 * every minute or so. They run through the writer, which checks each game
 * (each player, for the digest) again inside its transaction, so several
 * processes sharing a database may run them at once: a game is ended
 * once, a reminder or a digest sent once.
 */

/* Most reminder thresholds service_clock_remind() takes. */
#define SERVICE_REMINDERS_MAX	16

/*
 * End every game whose flag fell by now: a loss on time, or a draw when
 * the opponent cannot mate (FIDE 6.9), with a "flag" record and the
 * game-over notices. *ended (may be NULL) counts the games this call
 * ended. -1 when the store failed (the games not reached are ended by the
 * next call).
 */
int service_clock_tick(struct service *, size_t *ended,
    struct service_error *);

/*
 * Remind the side to move of each ongoing game when its time left falls
 * to a threshold (seconds, any order, at most SERVICE_REMINDERS_MAX; 3
 * and 1 days are usual): one notice in the player's language, once per
 * move and threshold. Games are found by deadline; the time left is the
 * thinking time, leave days not counted. When several thresholds were
 * passed at once only the nearest is sent; a threshold the move began
 * inside of (one day left under "1d/move") sends nothing. Nothing happens
 * without mail. *sent (may be NULL) counts the reminders queued.
 */
int service_clock_remind(struct service *, const int64_t *thresholds,
    size_t nthresholds, size_t *sent, struct service_error *);

/*
 * Queue the daily digest of each player who asked for one (digest
 * "daily") and whose last one is 24 hours old or more: one mail listing
 * every game where it is their move, only when there is one; the day
 * counts as done either way. *sent (when not NULL) gets the number of
 * mails queued. Beside the per-move notices, which go as before.
 */
int service_clock_digest(struct service *, size_t *sent,
    struct service_error *);

/*
 * Queue, for each player with refusals held back (mail refused in their
 * name past the hourly bound) whose last summary is 24 hours old or more,
 * one mail in their language that sums them up: how many, since when,
 * the last reason. *sent (when not NULL) gets the number of mails queued.
 */
int service_clock_summaries(struct service *, size_t *sent,
    struct service_error *);

/*
 * Events: a round robin (single or double, paired by the FIDE Berger
 * tables) or a match, whose games share their rules. An event is created
 * with its rules and players; players may be added or removed until it
 * starts; starting it creates every game at once (start numbers follow
 * the order the players were added); it finishes when its last game ends.
 * A withdrawal ends the player's games as the event's rule says.
 */

/*
 * What an admin gives to create an event, or to change the rules of one
 * that has not started (service_event_edit()). A field left unset (NULL,
 * 0 for games, -1, SERVICE_LEAVE_UNSET, chess960_set false) takes its
 * default at creation and stays as it is in an edit.
 */
#define SERVICE_LEAVE_SERVER	(-1)	/* leave_days: the server's */
#define SERVICE_LEAVE_UNSET	(-2)
struct service_event_params {
	const char		 *name;		/* [a-z0-9_.-]{1,32} */
	const char		 *title;	/* PGN Event tag; NULL: name */
	const char		 *site;
	const char		 *format;	/* "round-robin" (default),
						   "double-round-robin",
						   "match" */
	int			  games;	/* games of a match; 0: 2 */
	const char		 *variant;	/* "standard", "chess960" */
	int			  chess960;	/* 0..959 the whole event's
						   position, or -1 */
	bool			  chess960_pairing;	/* one per pairing */
	bool			  chess960_set;	/* the two above were given
						   (an edit) */
	const char		 *fen;		/* thematic start position */
	const char		 *time_control;	/* NULL: "none" */
	const char		 *policy;	/* "auto" (default), "claim" */
	int			  rated;	/* 0, 1, or -1: default (1) */
	const char		 *tiebreaks;	/* "direct,wins,sb,koya" */
	const char		 *withdrawal;	/* "lose" (default), "annul" */
	const char		 *auth;		/* its games' auth rule,
						   "signed" or
						   "signed-or-attested";
						   NULL: the server's
						   default */
	int			  draw_min_move;	/* ICCF: no draw offer
						   before this move; 0 */
	int			  draw_offer_every;	/* one offer a player
						   per N moves; 0: any */
	int			  leave_days;	/* a calendar year, 0..366;
						   SERVICE_LEAVE_SERVER */
	const char *const	 *players;	/* names, in start order */
	size_t			  nplayers;
};

/*
 * An event with its players, games and standings, as computed at read
 * time. players[i] is player i of the standings (start number order);
 * rows are best first; grid is the crosstable of standings_crosstable()
 * (nplayers x nplayers x depth marks). Free with service_event_free().
 */
struct service_event {
	struct store_event		 e;
	char				 auth[STORE_AUTH_SIZE];	/* its
					   games' auth rule */
	struct store_event_player	*players;
	size_t				 nplayers;
	struct store_event_game		*games;
	size_t				 ngames;
	struct standings_rules		 rules;
	struct standings_row		*rows;
	unsigned			 depth;
	enum standings_mark		*grid;
};

int service_event_create(struct service *, const struct service_event_params *,
    struct service_error *);
/* Change the rules of an event that has not started (409 "event-started"
 * after); the name and players are not changed here. */
int service_event_edit(struct service *, const char *name,
    const struct service_event_params *, struct service_error *);
/* Read an event and compute its standings. */
int service_event_get(struct service *, const char *name,
    struct service_event *out, struct service_error *);
/* Set up the crosstable of an event read (borrowing from it) for
 * crosstable_text(); the caller frees *players. -1: out of memory. */
int service_event_crosstable(const struct service_event *,
    struct crosstable *, struct crosstable_player **players);
int service_event_list(struct service *, store_event_cb, void *arg,
    struct service_error *);
/* Add or remove a player while the event has not started. */
int service_event_player_add(struct service *, const char *event,
    const char *player, struct service_error *);
int service_event_player_remove(struct service *, const char *event,
    const char *player, struct service_error *);
/* Start an event: every game created, the players told. */
int service_event_start(struct service *, const char *event,
    struct service_error *);
/*
 * Withdraw a player from a started event: under the rule "lose" the
 * player's unfinished games are lost by forfeit; under "annul", when the
 * player finished fewer than half of their games, every game of theirs is
 * annulled, else the unfinished ones are lost (ICCF).
 */
int service_event_withdraw(struct service *, const char *event,
    const char *player, struct service_error *);
void service_event_free(struct service_event *);

/* Every game of the event as PGN, in round and board order; malloc'd. */
char *service_event_pgn(struct service *, const char *event, size_t *lenp,
    struct service_error *);

/* Parse tie-break names ("direct,wins,sb,koya"; "" for none) into rules;
 * -1 with a reason in `err`. */
int service_event_tiebreaks(const char *, struct standings_rules *,
    struct service_error *);

/* A player's rating and whether it is provisional (its deviation above
 * the configured one). */
struct service_rating {
	struct store_rating	r;
	bool			provisional;
};

typedef int (*service_rating_cb)(void *arg, const struct service_rating *);

/* The ratings of a game's players as its WhiteElo and BlackElo tags
 * give them (rounded; the one the game was rated at, else the current
 * one): elo[0] White's, elo[1] Black's, -1 for a player without one. */
int service_game_elo(struct service *, const struct store_game *,
    int elo[2], struct service_error *);

/* List the rated players, best first. */
int service_rating_list(struct service *, service_rating_cb, void *arg,
    struct service_error *);

/* Read a player's rating (404 "not-rated" before their first rated game)
 * and walk their history, oldest first (cb may be NULL). */
int service_rating_get(struct service *, const char *name,
    struct service_rating *out, store_rating_entry_cb cb, void *arg,
    struct service_error *);

#endif /* CORRCHESS_SERVICE_H */
