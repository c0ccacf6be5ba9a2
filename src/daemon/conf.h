/*
 * daemon/conf.h: corrchessd's configuration, every key described once.
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
 * corrchessd's configuration: an INI file of [section] headers and
 * "key = value" lines. Every key is described once, in conf_table[]
 * (conf.c), like tmux's options-table.c: its section, name, type, limits,
 * default and one line of help. Validation, defaults and the documented
 * example conf/corrchessd.conf (corrchessd --dump-config-example) all come
 * from that table; tests/test_config.c checks the shipped file against it.
 *
 * To add a key: add a field to struct conf and one row to conf_table[].
 *
 * Values are plain fields of struct conf, so callers read
 * conf->server.port. Strings are owned by the struct and freed by
 * conf_free(). Numbers of every numeric type are long long: integers as
 * written, sizes in bytes, durations in seconds, choices as the value of
 * the chosen row of the key's choice list.
 *
 * Nothing here logs or exits: errors come back as "file:line: reason" in a
 * caller buffer, and the parser must never crash on any input
 * (fuzz/fuzz_config.c).
 */

#ifndef CORRCHESS_CONF_H
#define CORRCHESS_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Room for any error text from this module. */
#define CONF_ERR_SIZE	512

/* [storage] engine. */
enum conf_engine {
	CONF_ENGINE_SQLITE,
	CONF_ENGINE_POSTGRESQL,
};

/* [storage] synchronous: SQLite's synchronous pragma. */
enum conf_synchronous {
	CONF_SYNC_FULL,
	CONF_SYNC_NORMAL,
};

/* [game] auth: what a new game accepts, the values of enum conf_auth. */
enum conf_auth {
	CONF_AUTH_SIGNED,
	CONF_AUTH_SIGNED_OR_ATTESTED,
};

/* [mail] imap_starttls, smtp_starttls: the numbers of enum mail_starttls. */
enum conf_starttls {
	CONF_STARTTLS_NONE,
	CONF_STARTTLS_TRY,
	CONF_STARTTLS_REQUIRED,
};

struct conf {
	struct conf_server {
		char		*listen;		/* address literal */
		long long	 port;
		char		*state_directory;
		char		*admin_token_file;	/* "" = default */
		long long	 max_body_size;		/* bytes */
		long long	 max_header_size;	/* bytes */
		long long	 max_connections;
		long long	 max_connections_per_ip;	/* 0: no limit */
		long long	 connection_timeout;	/* seconds */
		long long	 request_timeout;	/* seconds */
		long long	 stop_timeout;		/* seconds */
		long long	 threads;
		long long	 action_threads;
		char		*tls_certificate;	/* "" = plain HTTP */
		char		*tls_key;
	} server;
	struct conf_storage {
		long long	 engine;	/* enum conf_engine */
		char		*conninfo;	/* PostgreSQL's */
		char		*password_file;	/* "" = none */
		long long	 synchronous;	/* enum conf_synchronous */
	} storage;
	struct conf_clock {
		long long	 interval;		/* seconds */
		long long	 first_reminder;	/* seconds; 0: none */
		long long	 second_reminder;	/* seconds; 0: none */
	} clock;
	struct conf_game {
		long long	 leave_days;		/* per player and year */
		long long	 abort_moves;		/* admin abort before */
		long long	 auth;			/* enum conf_auth */
		long long	 rated;			/* bool */
	} game;
	struct conf_ratings {
		long long	 tau;			/* millionths */
		long long	 rating;
		long long	 deviation;
		long long	 volatility;		/* millionths */
		long long	 period;		/* seconds */
		long long	 provisional_deviation;
	} ratings;
	struct conf_log {
		long long	 level;		/* enum log_level (log.h) */
		bool		 requests;
	} log;
	struct conf_mail {
		bool		 enabled;
		char		*imap_url;
		long long	 imap_starttls;		/* enum conf_starttls */
		char		*imap_user;
		char		*imap_password_file;
		char		*mailbox;
		long long	 poll_interval;		/* seconds */
		char		*processed_folder;
		char		*refused_folder;
		char		*smtp_url;
		long long	 smtp_starttls;		/* enum conf_starttls */
		char		*smtp_user;
		char		*smtp_password_file;
		char		*from;
		char		*reply_to;
		bool		 tls_verify;
		char		*ca_file;		/* "" = system CAs */
	} mail;
	struct conf_xfcc {
		bool		 enabled;
		char		*path;		/* the SOAP endpoint */
	} xfcc;
};

enum conf_type {
	CONF_STRING,	/* any text on one line */
	CONF_PATH,	/* file or directory name; relative to the cwd */
	CONF_ADDR,	/* IPv4 or IPv6 address literal */
	CONF_INT,	/* decimal integer */
	CONF_BOOL,	/* yes/no, true/false, on/off, 1/0 */
	CONF_SIZE,	/* bytes; suffix K, M, G (powers of 1024) */
	CONF_DURATION,	/* seconds; suffix s, m, h, d */
	CONF_DECIMAL,	/* decimal number, at most 6 digits after the point;
			   stored in millionths (0.06 is 60000) */
	CONF_CHOICE,	/* one of the names of a choice list */
};

/* One allowed value of a CONF_CHOICE key. */
struct conf_choice {
	const char	*name;
	long long	 value;
};

/* Flags of a key. */
#define CONF_EMPTY_OK	0x1	/* an empty value is allowed (and means
				 * what the help says) */

/* One row of the table of keys. */
struct conf_key {
	const char			*section;
	const char			*name;
	enum conf_type			 type;
	long long			 min, max;	/* numeric types */
	const struct conf_choice	*choices;	/* CONF_CHOICE; ends
							 * with a NULL name */
	int				 flags;
	const char			*def;		/* default, as written
							 * in the file */
	size_t				 offset;	/* in struct conf */
	const char			*help;		/* one line */
};

/* One value as parsed, before it is stored. */
union conf_value {
	char		*s;	/* malloc'd */
	long long	 n;
	bool		 b;
};

/* The table of keys, in the order of the documented example. */
extern const struct conf_key	conf_table[];
extern const size_t		conf_table_size;

/* Find a key's row; NULL when there is none. */
const struct conf_key *conf_find(const char *section, const char *name);

/*
 * Fill *conf with the defaults. Returns 0, or -1 with a reason in err
 * (out of memory, or a default that its own row rejects). Call conf_free()
 * afterwards either way.
 */
int	conf_init(struct conf *conf, char *err, size_t errsize);

/* Free the strings of *conf (not conf itself); accepts a zeroed struct. */
void	conf_free(struct conf *conf);

/*
 * Apply the INI text text[0..len) to *conf (which conf_init() filled),
 * name being the file name shown in errors. Returns 0, or -1 with
 * "name:line: reason" in err. After a failure *conf holds a mix of old and
 * new values: load into a fresh struct and discard it on failure.
 */
int	conf_load_buffer(struct conf *conf, const char *name, const char *text,
	    size_t len, char *err, size_t errsize);

/* Read the file path and apply it as conf_load_buffer() does. */
int	conf_load_file(struct conf *conf, const char *path, char *err,
	    size_t errsize);

/*
 * Set one key from text, as a line of the file would (for command-line
 * overrides). Returns 0, or -1 with "section.name: reason" in err.
 */
int	conf_set(struct conf *conf, const char *section, const char *name,
	    const char *value, char *err, size_t errsize);

/*
 * Parse text as a value of key into *out (out->s is malloc'd for the
 * string types; the caller frees it). Returns 0, or -1 with a reason
 * (without file or line) in err.
 */
int	conf_parse_value(const struct conf_key *key, const char *text,
	    union conf_value *out, char *err, size_t errsize);

/*
 * Write the documented example (every key with its help, its type and
 * limits, and its default) to fp. Returns 0, or -1 on a write error.
 */
int	conf_write_example(FILE *fp);

/*
 * Describe key's type and limits in a few words into buf ("size, 1K to
 * 1G", "one of: full, normal"), as the example file does.
 */
void	conf_describe_type(const struct conf_key *key, char *buf, size_t size);

#endif /* CORRCHESS_CONF_H */
