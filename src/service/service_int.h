/*
 * service/service_int.h: what the files of the service share; not for use
 * outside src/service.
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
 * Every write is committed by one writer thread (writer.c). Callers check
 * what they can on their own thread, queue a job and sleep until the
 * writer has committed the transaction that holds it; the writer takes
 * every job waiting (up to batch_max) into one transaction, each job
 * inside a savepoint, so one fsync covers many actions. What a job points
 * to is the caller's, valid until the job is done. The writer keeps the
 * rebuilt state of recently played games, each checked against the stored
 * record head before use (another process sharing the database may have
 * moved the game on).
 */

#ifndef CORRCHESS_SERVICE_INT_H
#define CORRCHESS_SERVICE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "letters/notice.h"
#include "service/service.h"
#include "sig/sig.h"
#include "store/store.h"

#define SERVICE_POOL_MAX	64
#define SERVICE_VIEW_SLOTS	1024
/* Games' rendered answers kept (service/render.c): two kinds a game of
 * SERVICE_VIEW_SLOTS games. */
#define SERVICE_RENDER_SLOTS	(2 * SERVICE_VIEW_SLOTS)
#define SERVICE_CACHE_SLOTS	1024
/* Players and keys kept for checking statements (service/signers.c). */
#define SERVICE_SIGNER_SLOTS	1024
#define SERVICE_LOGIN_SLOTS	512

/* Failed logins of one player or address within a window (doors.c). */
struct login_slot {
	char		key[72];	/* "player NAME", "address ADDR" */
	int64_t		start;		/* the window's first failure */
	unsigned	fails;
};

/* What the writer is asked to do; writer.c has a row of job_types for
 * each. */
enum job_kind {
	JOB_ACTION,		/* a verified signed statement */
	JOB_FLAG,		/* end a game whose flag fell */
	JOB_MAIL,		/* a mail: its action (if any), its record,
				   the answer it gets */
	JOB_REMIND,		/* remind the side to move of its deadline */
	JOB_DIGEST,		/* queue a player's daily digest if due */
	JOB_SUMMARY,		/* a player's summary of held refusals */
	JOB_PLAYER_CREATE,	/* the admin's writes, each all or nothing */
	JOB_PLAYER_SET,
	JOB_KEY_ADD,
	JOB_KEY_REVOKE,
	JOB_GAME_CREATE,
	JOB_EVENT_CREATE,	/* events: created, players, started,
				   withdrawals */
	JOB_EVENT_PLAYER,
	JOB_EVENT_START,
	JOB_EVENT_WITHDRAW,
	JOB_EVENT_EDIT,
	JOB_DOORS_SET,		/* a player's doors beside the signature */
	JOB_INVITE,		/* an invitation for a player */
	JOB_ENROL,		/* a key registered with an invitation */
	JOB_OUTBOX_SENT,	/* a mail of the outbox was sent */
	JOB_OUTBOX_FAILED,	/* or not: retry it later, or give it up */
	JOB_ADMIN,		/* the admin aborts or adjudicates a game */
	JOB_NKINDS
};

/* A signed statement whose signature was checked on the caller's thread;
 * the strings and structs are the caller's, valid until the job is done. */
struct job_statement {
	const struct sig_statement	*st;
	const struct sig_signature	*sg;
	const char			*canon;		/* canonical, NUL-terminated */
	const char			*sigtext;	/* sg->text */
	int64_t				 player_id;
	int64_t				 key_id;
	enum chess_lang			 lang;
	const char			*source;
	const char			*attested;	/* NULL: signed by the
							   player; "xfcc",
							   "mail-token": by
							   the server */
};

/* What the writer reads with a game's row for a statement, in one
 * statement (store_game_get_action()). */
struct action_read {
	bool			 conditionals;	/* one is active */
	struct store_key	 key;		/* the signing key; id 0: none */
};

/* JOB_ACTION: the statement, and where the game after it goes. */
struct job_action {
	struct job_statement		 s;
	struct service_game		*result;	/* or NULL */
	bool				 has_result;	/* result was filled */
	struct service_conditional	*cond;		/* a conditional
							   action's answer */
	char				 self_msg[SERVICE_SELF_MSG_SIZE];
							/* a player's own
							   action: what it
							   did */
};

/* JOB_MAIL: the mail, and the statement found in it. `s.st` is NULL when
 * the mail had none, or one refused before it parsed (then the job's `err`
 * says why). */
struct job_mail {
	const struct service_mail_in	*mail;
	struct job_statement		 s;
	bool				 refused;	/* before the writer */
	enum service_mail_outcome	 outcome;
	bool				 has_token;	/* a reply without a
							   key: its token */
	uint8_t				 token_hash[STORE_HASH_LEN];
};

/* JOB_REMIND: the thresholds in seconds, nearest first. */
struct job_remind {
	const int64_t			*thresholds;
	size_t				 nthresholds;
};

/* JOB_DIGEST, JOB_SUMMARY: the player whose digest or summary of held
 * refusals may be due. */
struct job_digest {
	int64_t				 player_id;
};

/* JOB_PLAYER_CREATE: the player, checked (p->id is set), and their keys'
 * texts. */
struct job_player_create {
	struct store_player		*p;
	const char *const		*keys;
	size_t				 nkeys;
};

/* JOB_PLAYER_SET: the fields to change, checked; NULL: as they are. */
struct job_player_set {
	const char			*name;
	const char			*email;
	const char			*lang;
	const char			*digest;
};

/* JOB_KEY_ADD: a key's text for a player; `out` (or NULL) gets the key. */
struct job_key_add {
	const char			*name;
	const char			*key;
	struct store_key		*out;
};

/* JOB_KEY_REVOKE: a player's key. */
struct job_key_revoke {
	const char			*name;
	int64_t				 key_id;
};

/* JOB_GAME_CREATE: the row, checked (row->id is set), and the game at its
 * start, both made at `now`; its auth rule (NULL: the server's default). */
struct job_game_create {
	struct store_game		*row;
	struct game			*g;
	int64_t				 now;
	const char			*auth;
	bool				 rated;
};

/* JOB_DOORS_SET: a player's doors; a NULL hash keeps the password. */
struct job_doors_set {
	const char			*name;
	int				 xfcc;		/* 0, 1; -1: as is */
	int				 mail_token;	/* 0, 1; -1: as is */
	const char			*xfcc_hash;	/* "" clears it */
};

/* JOB_EVENT_CREATE: the row, checked, its games' auth rule (checked;
 * NULL: the server's default) and its players' names. */
struct job_event_create {
	struct store_event		*e;
	const char			*auth;
	const char *const		*players;
	size_t				 nplayers;
};

/* JOB_EVENT_EDIT: the event's name and the rules that change. */
struct job_event_edit {
	const char				*event;
	const struct service_event_params	*ep;
};

/* JOB_EVENT_PLAYER: a player added to or removed from an event;
 * JOB_EVENT_START, JOB_EVENT_WITHDRAW: the event (and the player). */
struct job_event_player {
	const char			*event;
	const char			*player;	/* NULL: start */
	bool				 remove;
};

/* JOB_INVITE: the player's name and the invitation to record (its hash,
 * creation and expiry set; player_id and id are filled in). */
struct job_invite {
	const char			*name;
	struct store_invitation		*inv;
};

/* JOB_ENROL: the hash of the token, the key's text; `p` and `k` get the
 * player and the key. */
struct job_enrol {
	const uint8_t			*token_hash;
	const char			*key;
	struct store_player		*p;
	struct store_key		*k;
};

/* JOB_OUTBOX_SENT: the mails of the outbox sent (ids[0..n-1], one
 * transaction for a batch); JOB_OUTBOX_FAILED: one mail (id), when to
 * retry it (0: give it up) and why. */
struct job_outbox {
	const int64_t			*ids;
	size_t				 n;
	int64_t				 id;
	int64_t				 retry_at;
	const char			*why;
};

/* JOB_ADMIN: abort (no result), or adjudicate with `result`; the
 * admin's reason. */
struct job_admin {
	bool				 abort;
	enum game_result		 result;
	const char			*reason;
};

/* One job for the writer; JOB_FLAG needs nothing but its game. */
struct job {
	struct job			*next;
	enum job_kind			 kind;
	int64_t				 game_id;	/* the game, or 0 */
	union {
		struct job_action	 action;
		struct job_mail		 mail;
		struct job_remind	 remind;
		struct job_digest	 digest;
		struct job_player_create player_create;
		struct job_player_set	 player_set;
		struct job_key_add	 key_add;
		struct job_key_revoke	 key_revoke;
		struct job_game_create	 game_create;
		struct job_event_create	 event_create;
		struct job_event_player	 event_player;
		struct job_event_edit	 event_edit;
		struct job_doors_set	 doors_set;
		struct job_invite	 invite;
		struct job_enrol	 enrol;
		struct job_outbox	 outbox;
		struct job_admin	 admin;
	}				 u;
	/* the result */
	struct service_error		*err;
	int				 rc;
	bool				 changed;	/* JOB_FLAG: the game
							   ended; JOB_REMIND,
							   JOB_DIGEST: a mail
							   was queued */
	/* Who waits for this job (writer.c): the writer wakes only them;
	 * or, for a job queued without waiting (writer_queue()), what the
	 * writer calls once it is done. */
	struct job_waiter		*waiter;
	void				(*done)(void *);
	void				*done_arg;
	/* The game read for it with its batch's (writer.c), or NULL. */
	const struct store_game_action	*read;
};

/* Live events noted, in order (live.c). */
struct live_list {
	struct service_live	*v;
	size_t			 n, cap;
};

/* The rebuilt state of one game, owned by the writer thread. */
struct cached {
	int64_t			 id;		/* 0: empty slot */
	uint8_t			 head[STORE_HASH_LEN];
	int64_t			 nrec;		/* records replayed */
	struct service_game_rules rules;	/* read with the game */
	struct game		 state;
	char			(*san)[CHESS_SAN_MAX];
	size_t			 sancap;
	struct service_message	*msgs;		/* the players' messages */
	size_t			 nmsgs, msgcap;
};

/* One game's rendered answer of one kind (service/render.c). */
struct render_slot {
	struct store_game	 row;		/* the row it was made from */
	int64_t			 now;		/* the second it was made for */
	bool			 timeless;	/* ... or any: no clock runs */
	enum service_render	 kind;
	uint64_t		 players;	/* shown_gen when made */
	uint64_t		 session;	/* the listener's connection */
	uint64_t		 epoch;		/* drops of the slot */
	struct service_bytes	*bytes;		/* NULL: empty; one reference */
};

struct service {
	char			*db_path;
	char			*password_file;	/* NULL: none */
	bool			 mail;		/* queue notices */
	char			*mail_from;
	char			*mail_reply_to;
	char			*mail_domain;
	enum store_sync		 sync;
	int			 batch_max;
	/* PostgreSQL: a batch's games are read in one round trip. */
	bool			 batch_reads;
	int			 leave_days;	/* allowance per calendar year */
	int			 abort_moves;	/* the admin may abort before
					   this many moves; -1: never */
	struct service_ratings	 ratings;	/* defaults filled in */
	int64_t			(*now)(void *);
	void			*now_arg;

	pthread_mutex_t		 pool_lock;
	struct store		*pool[SERVICE_POOL_MAX];
	size_t			 npool;

	pthread_mutex_t		 lock;		/* queue and job results */
	pthread_cond_t		 work;		/* the writer waits here */
	bool			 idle;		/* ... and is waiting */
	struct job		*head, *tail;
	bool			 stopping;
	pthread_t		 writer;
	bool			 writer_started;
	struct store		*wstore;	/* the writer's handle */
	/* Rebuilt games for readers, each checked against the stored head
	 * before use; guarded by view_lock. */
	pthread_mutex_t		 view_lock;
	struct service_game	*views;		/* SERVICE_VIEW_SLOTS */
	/* Games' rendered answers, with the row and second they were made
	 * for (service/render.c); guarded by render_lock. */
	pthread_mutex_t		 render_lock;
	struct render_slot	*renders;	/* SERVICE_RENDER_SLOTS */
	struct cached		*cache;		/* SERVICE_CACHE_SLOTS */
	/* Players, their keys and their doors as of generation
	 * signer_gen, which the writer advances on every change of them
	 * (service/signers.c); guarded by signer_lock. */
	pthread_mutex_t		 signer_lock;
	_Atomic uint64_t	 signer_gen;
	/* What games' rendered bytes show of their players (names, doors,
	 * ratings): advanced with signer_gen and at every change of a
	 * rating, which leaves the kept players and doors as they are. */
	_Atomic uint64_t	 shown_gen;
	struct signer_slot	*signers;	/* SERVICE_SIGNER_SLOTS */
	struct door_slot	*doors;		/* SERVICE_SIGNER_SLOTS */
	/* The server's own key, for the actions it attests. */
	bool			 has_server_key;
	uint8_t			 server_sk[SIG_SECKEY_BYTES];
	char			 auth_default[STORE_AUTH_SIZE];
	bool			 rated_default;
	/* Live events of the batch being run (writer only; live.c). */
	service_live_cb	 events_cb;
	void			*events_arg;
	bool			(*events_wanted)(void *, int64_t, int64_t,
				    int64_t);
	struct live_list	 live;
	/* Events whose last game ended in the job being run: their final
	 * standings are queued when the job is done, after the games' own
	 * notices (writer only; events.c). */
	char			(*ended)[STORE_NAME_SIZE];
	size_t			 nended, ended_cap;
	/* The handle that holds this server's leads (PostgreSQL), and
	 * which it holds; guarded by lead_lock. */
	pthread_mutex_t		 lead_lock;
	struct store		*lead;
	bool			 leads[SERVICE_ROLES];
	/* What other servers on the database commit (listen.c): heard by
	 * the listener thread; `listen_stop` guarded by `lock`. */
	bool			 listen;	/* PostgreSQL: tell, hear */
	char			 origin[17];	/* this server, in notices */
	pthread_t		 listener;
	/* Odd while the listener is connected and hearing; one more at
	 * every connection and every loss (signers.c and render.c keep
	 * doors and bytes only within one connection). */
	_Atomic uint64_t	 listen_session;
	bool			 listener_started;
	bool			 listen_stop;
	/* Failed logins by player and by address (doors.c). */
	pthread_mutex_t		 login_lock;
	struct login_slot	*logins;	/* SERVICE_LOGIN_SLOTS */
};

/* Answers to refused mail one address gets in an hour; the rest are
 * summed up in one mail a day. */
#define MAIL_REFUSALS_PER_HOUR	3
/* How-to answers to mail without a statement, over every address, in an
 * hour (each address gets one a day at most). */
#define MAIL_HOWTOS_PER_HOUR	30

/* A statement checked on the caller's thread, ready for the writer. */
struct prepared {
	struct sig_statement	st;
	struct sig_signature	sg;
	struct service_player	sp;
	int64_t			key_id;
	char			canon[SIG_STATEMENT_MAX + 1];
};

/* A statement submitted without waiting (service_submit_start()): its
 * job, what the job points into, and the writer's answer. */
struct service_action {
	struct job		 j;
	struct prepared		 p;
	struct service_game	 g;
	struct service_error	 err;
};

/* Game ids gathered from listings, each once. */
struct id_list {
	int64_t	*ids;
	size_t	 n, cap;
	size_t	 listed;	/* rows of the last listing */
};

/* service.c */
int	service_fail(struct service_error *, unsigned, const char *,
	    const char *, ...) __attribute__((format(printf, 4, 5)));
int	service_store_fail(struct service_error *, struct store *,
	    const char *);
void	service_fault_lang(struct service_error *, enum chess_lang);
int	field_copy(char *, size_t, const char *, const char *, const char *,
	    struct service_error *);
struct store *pool_get(struct service *, struct service_error *);
void	pool_put(struct service *, struct store *);
void	*service_grow(void *, size_t *, size_t, size_t, size_t);
void	service_count_accepted(void);
void	service_count_refused(const char *);
void	service_count_batch(size_t);
/* Count an answer to a mail ("refused", "summary", "howto"), sent or
 * held back. */
void	service_count_answer(const char *kind, bool held);
void	service_count_howto_capped(void);

/* writer.c */
int	writer_start(struct service *);
void	writer_stop(struct service *);
int	writer_submit(struct service *, struct job *);
int	writer_submit_all(struct service *, struct job *, size_t);
int	writer_queue(struct service *, struct job *);
int	job_game(struct service *, struct job *, int64_t);

/* rebuild.c */
int	row_color(const struct store_game *, int64_t);
/* Read record `a`'s message into `out` (size bytes): whether it has one. */
bool	record_message(const struct store_action *a, char *out, size_t size);
enum game_action_kind kind_parse(const char *, bool *);
enum game_refusal apply_recording_san(struct game *,
	    const struct game_action *, char (**)[CHESS_SAN_MAX], size_t *,
	    char *, size_t);
int	leaves_load(struct store *, const struct store_game *, struct game *,
	    struct service_error *);
void	row_update_state(struct store_game *, const struct game *, int64_t,
	    const uint8_t[STORE_HASH_LEN]);
struct cached *cache_get(struct service *, const struct store_game *,
	    struct service_error *);
void	cache_forget(struct service *, int64_t);
int	record_append(struct service *, struct store_game *, struct cached *,
	    struct store_action *, const uint8_t *, size_t, int64_t);
int	record_flag(struct service *, struct store_game *, struct cached *,
	    int64_t);
int	view_copy(struct service_game *, const struct service_game *);
int	game_rules_read(struct service *, struct store *, int64_t,
	    struct service_game_rules *, struct service_error *);
void	view_put(struct service *, const struct service_game *);
/* Free the rendered answers kept (service/render.c). */
void	render_free(struct service *);
/* Drop a game's rendered answers (another server changed it). */
void	render_forget(struct service *, int64_t);
void	render_written(void *, int64_t);
int	live_replay(struct store *, int64_t, int64_t, int64_t, int, int64_t,
	    int64_t, struct live_list *, struct service_error *);
int	row_get(struct store *, int64_t, struct store_game *,
	    struct service_error *);
int	rebuild_read(struct service *, struct store *, int64_t, int64_t,
	    struct service_game *, struct service_error *);

/* listen.c */
void	listen_init(struct service *);
int	listen_tell(struct service *, bool, bool);
int	listen_start(struct service *);
void	listen_stop(struct service *);

/* live.c */
void	live_note(struct service *, enum service_live_kind,
	    const struct store_game *, const struct game *, int, const char *,
	    int64_t);
void	live_record(struct service *, const struct store_game *,
	    const struct cached *, const struct store_action *, bool, int64_t);
void	live_publish(struct service *);
void	live_note_to(struct live_list *, enum service_live_kind,
	    const struct store_game *, const struct game *, int, const char *,
	    int64_t);
void	live_record_to(struct live_list *, const struct store_game *,
	    const struct game *, const struct store_action *, bool, int64_t);

/* notify.c */
void	notify_start(struct notice *, enum notice_kind, const char *,
	    const char *, enum chess_lang);
int	notify_queue(struct service *, struct store *, struct notice *,
	    int64_t);
int	notify_fill(struct service *, struct store *,
	    const struct store_game *, const struct game *,
	    char (*)[CHESS_SAN_MAX], struct store_player[2], struct notice *,
	    const char ***, char **, int64_t);
int	notify_game_to(struct service *, const struct store_game *,
	    const struct cached *, struct notice *, int, int64_t);
int	notify_game(struct service *, struct store *,
	    const struct store_game *, const struct game *,
	    char (*)[CHESS_SAN_MAX], enum notice_kind, int, int, int64_t);
int	notify_game_reason(struct service *, struct store *,
	    const struct store_game *, const struct game *,
	    char (*)[CHESS_SAN_MAX], enum notice_kind, int, int, const char *,
	    const char *, int64_t);
const char *notify_message(const struct cached *, int, int64_t);
int	notify_action(struct service *, const struct store_game *,
	    const struct cached *, enum game_action_kind, bool, int, int64_t);

/* actions.c */
int	action_prepare(struct service *, int64_t, const char *, size_t,
	    enum chess_lang, struct prepared *, struct service_error *);
void	action_statement(struct job_statement *, const struct prepared *,
	    const char *);
int	action_submit(struct service *, struct prepared *, const char *,
	    const char *, struct service_game *, struct service_error *);
int	job_action(struct service *, struct job *, struct store_game *,
	    struct cached *, const struct action_read *, int64_t);
int	key_still_valid(struct service *, const struct job_statement *,
	    struct service_error *);
int	key_check(const struct job_statement *, const struct store_key *,
	    struct service_error *);

/* self.c */
int	job_self(struct service *, struct job *, int64_t);
int	key_revoke_apply(struct service *, int64_t, int64_t *, int64_t,
	    struct service_error *);
int	self_reminders_parse(const char *, int64_t *, size_t *);

/* conditional.c */
int	job_conditional(struct service *, const struct job_statement *,
	    struct service_error *, struct store_game *, struct cached *, int,
	    int64_t, struct service_conditional **);
int	cond_after_action(struct service *, struct store_game *,
	    struct cached *, int, enum game_action_kind, bool, int64_t,
	    bool *);
int	cond_game_over(struct service *, const struct store_game *, int64_t);

/* leave.c */
int	job_leave(struct service *, const struct job_statement *,
	    struct service_error *, struct store_game *, int64_t);

/* clock.c */
int	job_remind(struct service *, struct job *, struct store_game *,
	    struct cached *, int64_t);
int	job_digest(struct service *, struct job *, int64_t);
int	job_summary(struct service *, struct job *, int64_t);

/* players.c */
enum chess_lang player_lang(const struct store_player *);
int	player_lang_check(const char *, struct service_error *);
int	player_email_check(const char *, struct service_error *);
void	player_email_copy(char[STORE_EMAIL_SIZE], const char *);
int	player_read(struct store *, const char *, struct service_player *,
	    struct service_error *);
int	job_player_create(struct service *, struct job *, int64_t);
int	job_player_set(struct service *, struct job *, int64_t);
int	job_key_add(struct service *, struct job *, int64_t);
int	job_key_revoke(struct service *, struct job *, int64_t);
int	key_insert(struct store *, int64_t, const char *, int64_t,
	    enum chess_lang, struct store_key *, struct service_error *);

/* signers.c */
int	signers_get(struct service *, struct store *, const char *,
	    struct service_player *, struct service_error *);
int	signers_refresh(struct service *, struct store *, const char *,
	    struct service_player *, struct service_error *);
void	signers_changed(struct service *);
void	ratings_changed(struct service *);
int	doors_kept(struct service *, const char *, struct service_doors *,
	    uint64_t *);
void	doors_put(struct service *, const char *,
	    const struct service_doors *, uint64_t);
int	signers_init(struct service *);
void	signers_free(struct service *);

/* invitations.c */
void	token_hash(const char *, uint8_t[STORE_HASH_LEN]);
int	job_invite(struct service *, struct job *, int64_t);
int	job_enrol(struct service *, struct job *, int64_t);

/* games.c */
int	id_collect(void *, const struct store_game *);
int	job_game_create(struct service *, struct job *, int64_t);
int	game_prepare(struct store *, const struct service_game_params *,
	    int64_t, struct store_game *, struct game *,
	    struct service_error *);
int	game_insert(struct service *, struct store_game *, struct game *,
	    const char *, bool, int64_t, struct service_error *);

/* The players and the games of an event, gathered from listings. */
struct player_list {
	struct store_event_player	*v;
	size_t				 n, cap;
	bool				 failed;	/* out of memory */
};

struct game_list {
	struct store_event_game	*v;
	size_t			 n, cap;
	bool			 failed;	/* out of memory */
};

/* event_read.c */
int	event_lists(struct store *, int64_t, struct player_list *,
	    struct game_list *, struct service_error *);
int	event_read(struct service *, struct store *, const char *,
	    struct service_event *, struct service_error *);

/* event_notices.c: the mails of an event's start, a withdrawal and its
 * end, queued in the writer's transaction. */
int	event_notify_start(struct service *, const char *, int64_t);
int	event_notify_withdrawal(struct service *, const char *, int64_t,
	    int64_t);
int	event_notify_end(struct service *, const char *, int64_t);
int	event_notify_ended(struct service *, int64_t);

/* ratings.c */
void	ratings_defaults(struct service_ratings *, const struct service_ratings *);
int	rating_game(struct service *, const struct store_game *, int64_t);
int	rating_elo(struct store *, const struct store_game *, int,
	    int *);

/* events.c */
int	job_event_create(struct service *, struct job *, int64_t);
int	job_event_player(struct service *, struct job *, int64_t);
int	job_event_start(struct service *, struct job *, int64_t);
int	job_event_withdraw(struct service *, struct job *, int64_t);
int	job_event_edit(struct service *, struct job *, int64_t);
int	event_game_over(struct service *, const struct store_game *,
	    int64_t);

/* pgn.c */
char	*pgn_text(struct service *, struct store *, const struct store_game *,
	    const struct game *, size_t *);

/* doors.c */
int	job_doors_set(struct service *, struct job *, int64_t);
int	mail_token_prepare(struct service *, const struct service_mail_in *,
	    enum chess_lang, struct prepared *, struct job *,
	    struct service_error *);
int	mail_token_check(struct service *, struct job *, int64_t,
	    struct store_mail_token *);
int	mail_token_issue(struct service *, struct store *,
	    const struct store_game *, const struct game *, int, int64_t,
	    char *, size_t, int64_t *);
int	attested_allowed(struct service *, const struct job_statement *,
	    const struct store_game *, struct service_error *);

/* admin.c */
int	job_admin(struct service *, struct job *, int64_t);

/* mail.c */
int	job_mail(struct service *, struct job *, int64_t);
int	job_outbox(struct service *, struct job *, int64_t);

#endif /* CORRCHESS_SERVICE_INT_H */
