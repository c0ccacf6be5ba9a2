/*
 * daemon/conf.c: corrchessd's table of configuration keys, the INI parser.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* The table of configuration keys and the INI parser; see conf.h. */

#include "config.h"

#include <sys/stat.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/conf.h"
#include "service/service.h"
#include "util/errbuf.h"

/* Longest line and largest file accepted. */
#define CONF_LINE_MAX	4096
#define CONF_FILE_MAX	(1024 * 1024)

#define K	1024LL
#define M	(1024LL * 1024)
#define G	(1024LL * 1024 * 1024)
#define MIN	60LL
#define HOUR	3600LL
#define DAY	86400LL

#define OFF(field)	offsetof(struct conf, field)

static const struct conf_choice conf_engine_choices[] = {
	{ "sqlite", CONF_ENGINE_SQLITE },
	{ "postgresql", CONF_ENGINE_POSTGRESQL },
	{ NULL, 0 }
};

static const struct conf_choice conf_synchronous_choices[] = {
	{ "full", CONF_SYNC_FULL },
	{ "normal", CONF_SYNC_NORMAL },
	{ NULL, 0 }
};

static const struct conf_choice conf_auth_choices[] = {
	{ "signed", CONF_AUTH_SIGNED },
	{ "signed-or-attested", CONF_AUTH_SIGNED_OR_ATTESTED },
	{ NULL, 0 }
};

/* The same numbers as enum log_level in log.h. */
static const struct conf_choice conf_log_level_choices[] = {
	{ "error", 3 },
	{ "warning", 4 },
	{ "info", 6 },
	{ "debug", 7 },
	{ NULL, 0 }
};

/* The same numbers as enum mail_starttls in mail_imap.h. */
static const struct conf_choice conf_starttls_choices[] = {
	{ "none", CONF_STARTTLS_NONE },
	{ "try", CONF_STARTTLS_TRY },
	{ "required", CONF_STARTTLS_REQUIRED },
	{ NULL, 0 }
};

/*
 * Every key, once. The order is the order of the documented example:
 * keys of one section stay together.
 */
const struct conf_key conf_table[] = {
	{ .section = "server", .name = "listen", .type = CONF_ADDR,
	  .def = "127.0.0.1", .offset = OFF(server.listen),
	  .help = "Address to listen on: an IPv4 or IPv6 literal "
	  "(0.0.0.0 or :: for every interface)." },
	{ .section = "server", .name = "port", .type = CONF_INT,
	  .min = 0, .max = 65535, .def = "8080", .offset = OFF(server.port),
	  .help = "TCP port to listen on; 0 picks a free port, "
	  "logged at start-up." },
	{ .section = "server", .name = "state_directory", .type = CONF_PATH,
	  .def = "/var/lib/corrchessd", .offset = OFF(server.state_directory),
	  .help = "Directory of the database and the admin token; "
	  "created if missing." },
	{ .section = "server", .name = "admin_token_file", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "",
	  .offset = OFF(server.admin_token_file),
	  .help = "File holding the admin API token (empty: "
	  "STATE_DIRECTORY/admin.token, created mode 0600 if missing)." },
	{ .section = "server", .name = "max_body_size", .type = CONF_SIZE,
	  .min = 1 * K, .max = 1 * G, .def = "64K",
	  .offset = OFF(server.max_body_size),
	  .help = "Largest request body accepted; larger ones get "
	  "413 Payload Too Large." },
	{ .section = "server", .name = "max_header_size", .type = CONF_SIZE,
	  .min = 1 * K, .max = 1 * M, .def = "8K",
	  .offset = OFF(server.max_header_size),
	  .help = "Room for a request's line and headers; larger "
	  "requests are refused." },
	{ .section = "server", .name = "max_connections", .type = CONF_INT,
	  .min = 1, .max = 100000, .def = "10000",
	  .offset = OFF(server.max_connections),
	  .help = "Most HTTP connections open at once; more are "
	  "refused until one closes. The last eighth is kept for addresses "
	  "that hold fewer than 8 (the open-file limit is raised to fit)." },
	{ .section = "server", .name = "max_connections_per_ip",
	  .type = CONF_INT, .min = 0, .max = 100000, .def = "128",
	  .offset = OFF(server.max_connections_per_ip),
	  .help = "Most HTTP connections open at once from one address "
	  "(0: no limit), so that one client holding connections open "
	  "cannot shut out the others." },
	{ .section = "server", .name = "connection_timeout",
	  .type = CONF_DURATION, .min = 1, .max = 1 * HOUR, .def = "30s",
	  .offset = OFF(server.connection_timeout),
	  .help = "A connection idle (or too slow) this long is closed." },
	{ .section = "server", .name = "request_timeout",
	  .type = CONF_DURATION, .min = 1, .max = 1 * HOUR, .def = "10s",
	  .offset = OFF(server.request_timeout),
	  .help = "A request must arrive whole (line, headers and body) "
	  "this long after its connection opened or its previous request "
	  "ended, however steadily it trickles in; else the connection is "
	  "closed." },
	{ .section = "server", .name = "stop_timeout",
	  .type = CONF_DURATION, .min = 1, .max = 1 * HOUR, .def = "5s",
	  .offset = OFF(server.stop_timeout),
	  .help = "On SIGTERM, answers being made or sent get this long to "
	  "finish before their connections are closed; answers waiting for "
	  "a commit get as long again. Connections idle or still sending a "
	  "request are closed at once. Keep it under systemd's "
	  "TimeoutStopSec." },
	{ .section = "server", .name = "threads", .type = CONF_INT,
	  .min = 0, .max = 256, .def = "0", .offset = OFF(server.threads),
	  .help = "Threads serving HTTP, each with its own epoll loop; the "
	  "signatures of game actions are checked on them (0: one per "
	  "core)." },
	{ .section = "server", .name = "action_threads", .type = CONF_INT,
	  .min = 0, .max = 1024, .def = "32",
	  .offset = OFF(server.action_threads),
	  .help = "Threads that run the requests that wait for a commit "
	  "(a player's own actions, invitations, the admin's requests), so "
	  "that many wait at once and commit together; a game action waits "
	  "on none (0: run them on the HTTP threads)." },
	{ .section = "server", .name = "tls_certificate", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "",
	  .offset = OFF(server.tls_certificate),
	  .help = "Serve HTTPS with this certificate chain (PEM, the "
	  "server's certificate first), read again on SIGHUP without "
	  "closing a connection (empty: plain HTTP)." },
	{ .section = "server", .name = "tls_key", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(server.tls_key),
	  .help = "The certificate's private key (PEM, unencrypted, "
	  "readable by corrchessd only); read again on SIGHUP." },

	{ .section = "storage", .name = "engine", .type = CONF_CHOICE,
	  .choices = conf_engine_choices, .def = "sqlite",
	  .offset = OFF(storage.engine),
	  .help = "sqlite: one file, STATE_DIRECTORY/corrchess.db; "
	  "postgresql: the database that conninfo names (corrchessd "
	  "creates and migrates its tables there; several corrchessd may "
	  "share it)." },
	{ .section = "storage", .name = "conninfo", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(storage.conninfo),
	  .help = "PostgreSQL: a libpq connection string, \"host=/run/"
	  "postgresql dbname=corrchess user=corrchessd\" or a "
	  "postgresql:// URI (keep passwords in password_file)." },
	{ .section = "storage", .name = "password_file", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "",
	  .offset = OFF(storage.password_file),
	  .help = "PostgreSQL: a password file in libpq's format "
	  "(hostname:port:database:username:password lines, mode 0600); "
	  "empty: libpq's own (~/.pgpass, PGPASSFILE)." },
	{ .section = "storage", .name = "synchronous", .type = CONF_CHOICE,
	  .choices = conf_synchronous_choices, .def = "full",
	  .offset = OFF(storage.synchronous),
	  .help = "full: every accepted action survives a power loss; "
	  "normal: faster, but not durable across power loss "
	  "(PostgreSQL: synchronous_commit on or off)." },

	{ .section = "clock", .name = "interval", .type = CONF_DURATION,
	  .min = 1, .max = 1 * HOUR, .def = "1m",
	  .offset = OFF(clock.interval),
	  .help = "How often games whose time ran out are ended (and their "
	  "players told) and reminders are sent." },
	{ .section = "clock", .name = "first_reminder", .type = CONF_DURATION,
	  .min = 0, .max = 30 * DAY, .def = "3d",
	  .offset = OFF(clock.first_reminder),
	  .help = "Remind the player to move when this much time is left "
	  "(0: no such reminder)." },
	{ .section = "clock", .name = "second_reminder",
	  .type = CONF_DURATION, .min = 0, .max = 30 * DAY, .def = "1d",
	  .offset = OFF(clock.second_reminder),
	  .help = "A second, later reminder (0: none)." },

	{ .section = "game", .name = "leave_days", .type = CONF_INT,
	  .min = 0, .max = 365, .def = "45", .offset = OFF(game.leave_days),
	  .help = "Days of leave each player may take per calendar year "
	  "(the clocks of their games stop meanwhile; ICCF gives 45). An "
	  "event may set its own for its games (its leave_days)." },
	{ .section = "game", .name = "abort_moves", .type = CONF_INT,
	  .min = 0, .max = 100, .def = "2", .offset = OFF(game.abort_moves),
	  .help = "The admin may abort a game (end it without a result) "
	  "only before this many moves are played, that is while fewer "
	  "than twice as many half-moves are (0: never; a game further on "
	  "is adjudicated instead)." },
	{ .section = "game", .name = "rated", .type = CONF_BOOL,
	  .def = SERVICE_RATED_DEFAULT ? "yes" : "no",
	  .offset = OFF(game.rated),
	  .help = "Rate a game created without \"rated\" (Glicko-2, the "
	  "[ratings] below) when it ends over the board; an event's games "
	  "follow the event's own rule (rated by default)." },
	{ .section = "game", .name = "auth", .type = CONF_CHOICE,
	  .choices = conf_auth_choices, .def = "signed",
	  .offset = OFF(game.auth),
	  .help = "What a new game accepts unless its creation says: "
	  "signed (every action signed with the player's key) or "
	  "signed-or-attested (also actions the server signs for players "
	  "who opened a door: Xfcc, mail tokens)." },

	{ .section = "ratings", .name = "tau", .type = CONF_DECIMAL,
	  .min = 100000, .max = 2000000, .def = "0.5",
	  .offset = OFF(ratings.tau),
	  .help = "Glicko-2's system constant: how fast a player's "
	  "volatility may change (Glickman suggests 0.3 to 1.2)." },
	{ .section = "ratings", .name = "rating", .type = CONF_INT,
	  .min = 100, .max = 4000, .def = "1500",
	  .offset = OFF(ratings.rating),
	  .help = "The rating of a player's first rated game." },
	{ .section = "ratings", .name = "deviation", .type = CONF_INT,
	  .min = 30, .max = 1000, .def = "350",
	  .offset = OFF(ratings.deviation),
	  .help = "The rating deviation of a new player, also the most it "
	  "grows to while a player is idle." },
	{ .section = "ratings", .name = "volatility", .type = CONF_DECIMAL,
	  .min = 1000, .max = 1000000, .def = "0.06",
	  .offset = OFF(ratings.volatility),
	  .help = "The volatility of a new player." },
	{ .section = "ratings", .name = "period", .type = CONF_DURATION,
	  .min = 1 * HOUR, .max = 365 * DAY, .def = "30d",
	  .offset = OFF(ratings.period),
	  .help = "A rating period: a player's deviation grows by one period "
	  "of volatility for each whole period without a rated game." },
	{ .section = "ratings", .name = "provisional_deviation",
	  .type = CONF_INT, .min = 1, .max = 1000, .def = "110",
	  .offset = OFF(ratings.provisional_deviation),
	  .help = "A rating whose deviation is above this is marked "
	  "provisional." },

	{ .section = "log", .name = "level", .type = CONF_CHOICE,
	  .choices = conf_log_level_choices, .def = "info",
	  .offset = OFF(log.level),
	  .help = "Most verbose messages logged (corrchessd -d sets debug)." },
	{ .section = "log", .name = "requests", .type = CONF_BOOL,
	  .def = "no", .offset = OFF(log.requests),
	  .help = "Log one line per HTTP request (method, path, status)." },

	{ .section = "mail", .name = "enabled", .type = CONF_BOOL,
	  .def = "no", .offset = OFF(mail.enabled),
	  .help = "Take moves by e-mail (poll the IMAP mailbox) and send "
	  "notices by e-mail (SMTP)." },
	{ .section = "mail", .name = "imap_url", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.imap_url),
	  .help = "IMAP server of the move mailbox: imaps://HOST[:PORT] "
	  "(TLS from the start) or imap://HOST[:PORT] (see imap_starttls)." },
	{ .section = "mail", .name = "imap_starttls", .type = CONF_CHOICE,
	  .choices = conf_starttls_choices, .def = "required",
	  .offset = OFF(mail.imap_starttls),
	  .help = "STARTTLS on an imap:// URL: required (fail without it), "
	  "try (use it when offered), none (clear text: tests on loopback "
	  "only)." },
	{ .section = "mail", .name = "imap_user", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.imap_user),
	  .help = "User name to log in to the IMAP server with." },
	{ .section = "mail", .name = "imap_password_file", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "",
	  .offset = OFF(mail.imap_password_file),
	  .help = "File whose first line is the IMAP password (keep it "
	  "mode 0600)." },
	{ .section = "mail", .name = "mailbox", .type = CONF_STRING,
	  .def = "INBOX", .offset = OFF(mail.mailbox),
	  .help = "Mailbox polled for moves; '/' separates folder levels." },
	{ .section = "mail", .name = "poll_interval", .type = CONF_DURATION,
	  .min = 1, .max = 1 * DAY, .def = "1m",
	  .offset = OFF(mail.poll_interval),
	  .help = "Time between two polls of the mailbox (failed polls are "
	  "retried sooner, backing off from 1s); where the server offers "
	  "IMAP IDLE, new mail is read as it arrives and the polls are a "
	  "safety net." },
	{ .section = "mail", .name = "processed_folder", .type = CONF_STRING,
	  .def = "corrchess/processed", .offset = OFF(mail.processed_folder),
	  .help = "Folder a handled message is moved to (created when "
	  "missing; where the server cannot move, it is flagged seen)." },
	{ .section = "mail", .name = "refused_folder", .type = CONF_STRING,
	  .def = "corrchess/refused", .offset = OFF(mail.refused_folder),
	  .help = "Folder a message that could not be used (no statement, "
	  "bad signature, illegal move) is moved to after the answer." },
	{ .section = "mail", .name = "smtp_url", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.smtp_url),
	  .help = "SMTP server for outgoing mail: smtps://HOST[:PORT] or "
	  "smtp://HOST[:PORT] (see smtp_starttls); a path, "
	  "smtp://HOST:587/NAME, sets the EHLO name." },
	{ .section = "mail", .name = "smtp_starttls", .type = CONF_CHOICE,
	  .choices = conf_starttls_choices, .def = "required",
	  .offset = OFF(mail.smtp_starttls),
	  .help = "STARTTLS on an smtp:// URL: required, try or none, as "
	  "imap_starttls." },
	{ .section = "mail", .name = "smtp_user", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.smtp_user),
	  .help = "User name for SMTP AUTH (empty: send without logging in)." },
	{ .section = "mail", .name = "smtp_password_file", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "",
	  .offset = OFF(mail.smtp_password_file),
	  .help = "File whose first line is the SMTP password (keep it "
	  "mode 0600)." },
	{ .section = "mail", .name = "from", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.from),
	  .help = "Address that notices come from (From: and envelope "
	  "sender), e.g. corrchess@club.example." },
	{ .section = "mail", .name = "reply_to", .type = CONF_STRING,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.reply_to),
	  .help = "Address of the move mailbox, put in Reply-To: so that "
	  "players' answers carry their moves to it (empty: from)." },
	{ .section = "mail", .name = "tls_verify", .type = CONF_BOOL,
	  .def = "yes", .offset = OFF(mail.tls_verify),
	  .help = "Check the servers' TLS certificates; no accepts any "
	  "certificate (tests only: logged as a warning)." },
	{ .section = "mail", .name = "ca_file", .type = CONF_PATH,
	  .flags = CONF_EMPTY_OK, .def = "", .offset = OFF(mail.ca_file),
	  .help = "File of CA certificates (PEM) to trust for the mail "
	  "servers (empty: the system's)." },

	{ .section = "xfcc", .name = "enabled", .type = CONF_BOOL,
	  .def = "no", .offset = OFF(xfcc.enabled),
	  .help = "Serve the Xfcc SOAP endpoint for correspondence programs "
	  "(players log in with a password: serve it behind HTTPS)." },
	{ .section = "xfcc", .name = "path", .type = CONF_STRING,
	  .def = "/xfccbasic.asmx", .offset = OFF(xfcc.path),
	  .help = "Path of the Xfcc endpoint (XfccBasic, SOAP 1.1)." },
};
const size_t conf_table_size = sizeof conf_table / sizeof conf_table[0];

/* Find a key's row. */
const struct conf_key *
conf_find(const char *section, const char *name)
{
	size_t	i;

	for (i = 0; i < conf_table_size; i++) {
		if (strcmp(conf_table[i].section, section) == 0 &&
		    strcmp(conf_table[i].name, name) == 0)
			return &conf_table[i];
	}
	return NULL;
}

/* Tell whether any row has this section. */
static int
conf_section_exists(const char *section)
{
	size_t	i;

	for (i = 0; i < conf_table_size; i++) {
		if (strcmp(conf_table[i].section, section) == 0)
			return 1;
	}
	return 0;
}

/* Parse a decimal number, with an optional '-', into *n. */
static int
conf_parse_number(const char **sp, int allow_negative, long long *n)
{
	const char	*s = *sp;
	int		 negative = 0;
	unsigned long long v = 0, limit;

	if (*s == '-' && allow_negative) {
		negative = 1;
		s++;
	}
	if (*s < '0' || *s > '9')
		return -1;
	limit = negative ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (limit - (unsigned long long)(*s - '0')) / 10)
			return -2;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (negative)
		*n = v == (unsigned long long)LLONG_MAX + 1 ?
		    LLONG_MIN : -(long long)v;
	else
		*n = (long long)v;
	*sp = s;
	return 0;
}

/*
 * Read the fraction of a decimal whose whole part is in *n: ".NNN" with
 * at most 6 digits (none: a whole number), making *n millionths. -1 when
 * malformed or too large.
 */
static int
conf_parse_fraction(const char **sp, long long *n)
{
	const char	*s = *sp;
	long long	 frac = 0, unit = 100000;

	if (*n < 0 || *n > LLONG_MAX / 1000000 - 1)
		return -1;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return -1;
		for (; *s >= '0' && *s <= '9'; s++, unit /= 10) {
			if (unit == 0)
				return -1;
			frac += (*s - '0') * unit;
		}
	}
	*n = *n * 1000000 + frac;
	*sp = s;
	return 0;
}

/* Write millionths as a decimal without trailing zeros (0.06). */
static void
conf_format_decimal(char *buf, size_t size, long long n)
{
	size_t	len;

	snprintf(buf, size, "%lld.%06lld", n / 1000000, n % 1000000);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && buf[len - 1] == '.')
		buf[--len] = '\0';
}

/* Multiply n by unit unless it overflows. */
static int
conf_scale(long long *n, long long unit)
{
	if (*n > LLONG_MAX / unit)
		return -1;
	*n *= unit;
	return 0;
}

/* Write n as a size with the largest exact suffix (64K). */
static void
conf_format_size(char *buf, size_t size, long long n)
{
	if (n != 0 && n % G == 0)
		snprintf(buf, size, "%lldG", n / G);
	else if (n != 0 && n % M == 0)
		snprintf(buf, size, "%lldM", n / M);
	else if (n != 0 && n % K == 0)
		snprintf(buf, size, "%lldK", n / K);
	else
		snprintf(buf, size, "%lld", n);
}

/* Write n seconds with the largest exact suffix (30s, 2h). */
static void
conf_format_duration(char *buf, size_t size, long long n)
{
	if (n != 0 && n % DAY == 0)
		snprintf(buf, size, "%lldd", n / DAY);
	else if (n != 0 && n % HOUR == 0)
		snprintf(buf, size, "%lldh", n / HOUR);
	else if (n != 0 && n % MIN == 0)
		snprintf(buf, size, "%lldm", n / MIN);
	else
		snprintf(buf, size, "%llds", n);
}

/* Compare ASCII strings ignoring case. */
static int
conf_strieq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		char ca = *a, cb = *b;

		if (ca >= 'A' && ca <= 'Z')
			ca += 'a' - 'A';
		if (cb >= 'A' && cb <= 'Z')
			cb += 'a' - 'A';
		if (ca != cb)
			return 0;
	}
	return *a == *b;
}

/* Parse a numeric value (INT, SIZE, DURATION) and check its limits. */
static int
conf_parse_numeric(const struct conf_key *key, const char *text,
    long long *out, char *err, size_t errsize)
{
	static const struct {
		const char	*suffix;
		long long	 unit;
	} sizes[] = {
		{ "", 1 }, { "k", K }, { "kib", K }, { "m", M }, { "mib", M },
		{ "g", G }, { "gib", G }
	}, durations[] = {
		{ "", 1 }, { "s", 1 }, { "m", MIN }, { "h", HOUR }, { "d", DAY }
	};
	const char	*s = text, *what;
	char		 lo[32], hi[32];
	long long	 n;
	size_t		 i;
	int		 r, found;

	switch (key->type) {
	case CONF_SIZE:
		what = "a size (a number of bytes, with K, M or G)";
		break;
	case CONF_DURATION:
		what = "a duration (a number with s, m, h or d)";
		break;
	case CONF_DECIMAL:
		what = "a decimal number (0.06)";
		break;
	default:
		what = "an integer";
		break;
	}
	r = conf_parse_number(&s, key->type == CONF_INT, &n);
	if (r == -2)
		return errbuf_set(err, errsize, "'%s' is too large", text);
	if (r != 0)
		return errbuf_set(err, errsize, "'%s' is not %s", text, what);

	if (key->type == CONF_DECIMAL) {
		if (conf_parse_fraction(&s, &n) != 0)
			return errbuf_set(err, errsize, "'%s' is not %s",
			    text, what);
	}
	if (key->type == CONF_SIZE || key->type == CONF_DURATION) {
		while (*s == ' ' || *s == '\t')
			s++;
		found = 0;
		if (key->type == CONF_SIZE) {
			for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
				if (conf_strieq(s, sizes[i].suffix)) {
					found = 1;
					r = conf_scale(&n, sizes[i].unit);
					break;
				}
			}
		} else {
			for (i = 0; i < sizeof durations / sizeof durations[0];
			    i++) {
				if (strcmp(s, durations[i].suffix) == 0) {
					found = 1;
					r = conf_scale(&n, durations[i].unit);
					break;
				}
			}
		}
		if (!found) {
			return errbuf_set(err, errsize, "'%s' is not %s",
			    text, what);
		}
		if (r != 0)
			return errbuf_set(err, errsize, "'%s' is too large",
			    text);
	} else if (*s != '\0')
		return errbuf_set(err, errsize, "'%s' is not %s", text, what);

	if (n < key->min || n > key->max) {
		switch (key->type) {
		case CONF_SIZE:
			conf_format_size(lo, sizeof lo, key->min);
			conf_format_size(hi, sizeof hi, key->max);
			break;
		case CONF_DURATION:
			conf_format_duration(lo, sizeof lo, key->min);
			conf_format_duration(hi, sizeof hi, key->max);
			break;
		case CONF_DECIMAL:
			conf_format_decimal(lo, sizeof lo, key->min);
			conf_format_decimal(hi, sizeof hi, key->max);
			break;
		default:
			snprintf(lo, sizeof lo, "%lld", key->min);
			snprintf(hi, sizeof hi, "%lld", key->max);
			break;
		}
		return errbuf_set(err, errsize, "'%s' is out of range "
		    "(%s to %s)", text, lo, hi);
	}
	*out = n;
	return 0;
}

/* Parse text as a value of key. */
int
conf_parse_value(const struct conf_key *key, const char *text,
    union conf_value *out, char *err, size_t errsize)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	const struct conf_choice *c;
	unsigned char	 addr[sizeof(struct in6_addr)];
	size_t		 i;
	char		 list[256];
	int		 n;

	memset(out, 0, sizeof *out);
	for (i = 0; text[i] != '\0'; i++) {
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			return errbuf_set(err, errsize,
			    "control character in value");
	}
	if (*text == '\0' && !(key->flags & CONF_EMPTY_OK) &&
	    key->type != CONF_STRING)
		return errbuf_set(err, errsize, "empty value");

	switch (key->type) {
	case CONF_ADDR:
		if (inet_pton(AF_INET, text, addr) != 1 &&
		    inet_pton(AF_INET6, text, addr) != 1)
			return errbuf_set(err, errsize, "'%s' is not an "
			    "IPv4 or IPv6 address", text);
		/* FALLTHROUGH */
	case CONF_STRING:
	case CONF_PATH:
		if ((out->s = strdup(text)) == NULL)
			return errbuf_set(err, errsize, "out of memory");
		return 0;
	case CONF_INT:
	case CONF_SIZE:
	case CONF_DURATION:
	case CONF_DECIMAL:
		return conf_parse_numeric(key, text, &out->n, err, errsize);
	case CONF_BOOL:
		for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
			if (conf_strieq(text, yes[i])) {
				out->b = true;
				return 0;
			}
			if (conf_strieq(text, no[i])) {
				out->b = false;
				return 0;
			}
		}
		return errbuf_set(err, errsize, "'%s' is not yes or no",
		    text);
	case CONF_CHOICE:
		list[0] = '\0';
		for (c = key->choices; c->name != NULL; c++) {
			if (strcmp(text, c->name) == 0) {
				out->n = c->value;
				return 0;
			}
			n = snprintf(list + strlen(list),
			    sizeof list - strlen(list), "%s%s",
			    c == key->choices ? "" : ", ", c->name);
			if (n < 0)
				break;
		}
		return errbuf_set(err, errsize, "'%s' is not one of: %s",
		    text, list);
	}
	return errbuf_set(err, errsize, "key of unknown type");
}

/* Store a parsed value into its field, freeing the old string. */
static void
conf_store(struct conf *conf, const struct conf_key *key,
    union conf_value *v)
{
	void	*field = (char *)conf + key->offset;

	switch (key->type) {
	case CONF_STRING:
	case CONF_PATH:
	case CONF_ADDR:
		free(*(char **)field);
		*(char **)field = v->s;
		v->s = NULL;
		break;
	case CONF_BOOL:
		*(bool *)field = v->b;
		break;
	case CONF_INT:
	case CONF_SIZE:
	case CONF_DURATION:
	case CONF_DECIMAL:
	case CONF_CHOICE:
		*(long long *)field = v->n;
		break;
	}
}

/* Fill conf with the defaults. */
int
conf_init(struct conf *conf, char *err, size_t errsize)
{
	union conf_value	 v;
	char			 why[CONF_ERR_SIZE];
	size_t			 i;

	memset(conf, 0, sizeof *conf);
	for (i = 0; i < conf_table_size; i++) {
		if (conf_parse_value(&conf_table[i], conf_table[i].def, &v,
		    why, sizeof why) != 0) {
			return errbuf_set(err, errsize,
			    "default of %s.%s: %s", conf_table[i].section,
			    conf_table[i].name, why);
		}
		conf_store(conf, &conf_table[i], &v);
	}
	return 0;
}

/* Free the strings of conf. */
void
conf_free(struct conf *conf)
{
	size_t	i;
	char	**field;

	if (conf == NULL)
		return;
	for (i = 0; i < conf_table_size; i++) {
		switch (conf_table[i].type) {
		case CONF_STRING:
		case CONF_PATH:
		case CONF_ADDR:
			field = (char **)((char *)conf + conf_table[i].offset);
			free(*field);
			*field = NULL;
			break;
		default:
			break;
		}
	}
}

/* Set one key from text. */
int
conf_set(struct conf *conf, const char *section, const char *name,
    const char *value, char *err, size_t errsize)
{
	const struct conf_key	*key;
	union conf_value	 v;
	char			 why[CONF_ERR_SIZE];

	if ((key = conf_find(section, name)) == NULL)
		return errbuf_set(err, errsize, "%s.%s: unknown key",
		    section, name);
	if (conf_parse_value(key, value, &v, why, sizeof why) != 0)
		return errbuf_set(err, errsize, "%s.%s: %s", section, name,
		    why);
	conf_store(conf, key, &v);
	return 0;
}

/* Tell whether c may appear in a section or key name. */
static int
conf_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* Tell whether a name is made of name characters only. */
static int
conf_valid_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (!conf_name_char(*s))
			return 0;
	}
	return 1;
}

/* Trim spaces and tabs at both ends of s, in place. */
static char *
conf_trim(char *s)
{
	char	*end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/* Apply INI text to conf. */
int
conf_load_buffer(struct conf *conf, const char *name, const char *text,
    size_t len, char *err, size_t errsize)
{
	const struct conf_key	*key;
	union conf_value	 v;
	char			 line[CONF_LINE_MAX + 1];
	char			 section[CONF_LINE_MAX + 1] = "";
	char			 why[CONF_ERR_SIZE];
	char			*s, *eq, *k, *val, *end;
	size_t			 pos = 0, n, i, *seen = NULL;
	size_t			 lineno = 0;
	int			 have_section = 0, rc = -1;

	if ((seen = calloc(conf_table_size, sizeof *seen)) == NULL) {
		errbuf_set(err, errsize, "%s: out of memory", name);
		goto out;
	}
	/* A UTF-8 byte order mark, as some editors write, is not text. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;

	while (pos < len) {
		lineno++;
		n = 0;
		while (pos + n < len && text[pos + n] != '\n')
			n++;
		if (n > CONF_LINE_MAX) {
			errbuf_set(err, errsize, "%s:%zu: line longer than "
			    "%d bytes", name, lineno, CONF_LINE_MAX);
			goto out;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		for (i = 0; i < n; i++) {
			if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
				break;
			if (line[i] == 0x7f)
				break;
		}
		if (i < n) {
			errbuf_set(err, errsize, "%s:%zu: control character "
			    "(byte 0x%02x) in line", name, lineno,
			    (unsigned char)line[i]);
			goto out;
		}

		s = conf_trim(line);
		if (*s == '\0' || *s == '#' || *s == ';')
			continue;

		if (*s == '[') {
			end = strchr(s, ']');
			if (end == NULL) {
				errbuf_set(err, errsize, "%s:%zu: missing ']' "
				    "after section name", name, lineno);
				goto out;
			}
			*end = '\0';
			if (*conf_trim(end + 1) != '\0') {
				errbuf_set(err, errsize, "%s:%zu: text after "
				    "section header", name, lineno);
				goto out;
			}
			k = conf_trim(s + 1);
			if (!conf_valid_name(k) || !conf_section_exists(k)) {
				errbuf_set(err, errsize, "%s:%zu: unknown "
				    "section [%s]", name, lineno, k);
				goto out;
			}
			memmove(section, k, strlen(k) + 1);
			have_section = 1;
			continue;
		}

		if ((eq = strchr(s, '=')) == NULL) {
			errbuf_set(err, errsize, "%s:%zu: expected "
			    "'key = value' or '[section]'", name, lineno);
			goto out;
		}
		*eq = '\0';
		k = conf_trim(s);
		val = conf_trim(eq + 1);
		if (!conf_valid_name(k)) {
			errbuf_set(err, errsize, "%s:%zu: '%s' is not a key "
			    "name", name, lineno, k);
			goto out;
		}
		if (!have_section) {
			errbuf_set(err, errsize, "%s:%zu: key '%s' before any "
			    "[section]", name, lineno, k);
			goto out;
		}
		if ((key = conf_find(section, k)) == NULL) {
			errbuf_set(err, errsize, "%s:%zu: unknown key '%s' in "
			    "section [%s]", name, lineno, k, section);
			goto out;
		}
		i = (size_t)(key - conf_table);
		if (seen[i] != 0) {
			errbuf_set(err, errsize, "%s:%zu: %s already set on "
			    "line %zu", name, lineno, k, seen[i]);
			goto out;
		}
		seen[i] = lineno;
		if (conf_parse_value(key, val, &v, why, sizeof why) != 0) {
			errbuf_set(err, errsize, "%s:%zu: %s: %s", name,
			    lineno, k, why);
			goto out;
		}
		conf_store(conf, key, &v);
	}
	rc = 0;
out:
	free(seen);
	return rc;
}

/* Read the file path and apply it. */
int
conf_load_file(struct conf *conf, const char *path, char *err,
    size_t errsize)
{
	char		*buf = NULL;
	size_t		 len = 0;
	ssize_t		 r;
	int		 fd = -1, rc = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		errbuf_set(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	if ((buf = malloc(CONF_FILE_MAX + 1)) == NULL) {
		errbuf_set(err, errsize, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		r = read(fd, buf + len, CONF_FILE_MAX + 1 - len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			errbuf_set(err, errsize, "%s: %s", path,
			    strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > CONF_FILE_MAX) {
			errbuf_set(err, errsize, "%s: larger than %d bytes",
			    path, CONF_FILE_MAX);
			goto out;
		}
	}
	rc = conf_load_buffer(conf, path, buf, len, err, errsize);
out:
	free(buf);
	if (fd != -1)
		close(fd);
	return rc;
}

/* Describe a key's type and limits in a few words. */
void
conf_describe_type(const struct conf_key *key, char *buf, size_t size)
{
	const struct conf_choice *c;
	char	 lo[32], hi[32];
	size_t	 len;

	switch (key->type) {
	case CONF_STRING:
		snprintf(buf, size, "text");
		break;
	case CONF_PATH:
		snprintf(buf, size, "path");
		break;
	case CONF_ADDR:
		snprintf(buf, size, "address");
		break;
	case CONF_BOOL:
		snprintf(buf, size, "yes or no");
		break;
	case CONF_INT:
		snprintf(buf, size, "integer, %lld to %lld", key->min,
		    key->max);
		break;
	case CONF_SIZE:
		conf_format_size(lo, sizeof lo, key->min);
		conf_format_size(hi, sizeof hi, key->max);
		snprintf(buf, size, "size, %s to %s", lo, hi);
		break;
	case CONF_DURATION:
		conf_format_duration(lo, sizeof lo, key->min);
		conf_format_duration(hi, sizeof hi, key->max);
		snprintf(buf, size, "duration, %s to %s", lo, hi);
		break;
	case CONF_DECIMAL:
		conf_format_decimal(lo, sizeof lo, key->min);
		conf_format_decimal(hi, sizeof hi, key->max);
		snprintf(buf, size, "decimal, %s to %s", lo, hi);
		break;
	case CONF_CHOICE:
		snprintf(buf, size, "one of:");
		for (c = key->choices; c->name != NULL; c++) {
			len = strlen(buf);
			snprintf(buf + len, size - len, "%s %s",
			    c == key->choices ? "" : ",", c->name);
		}
		break;
	}
}

/* Write text as "# " comment lines of at most 76 columns. */
static void
conf_write_comment(FILE *fp, const char *text)
{
	const char	*p = text, *space, *cut;
	size_t		 width = 74;

	while (strlen(p) > width) {
		cut = NULL;
		for (space = p; space <= p + width; space++) {
			if (*space == ' ')
				cut = space;
		}
		if (cut == NULL)
			cut = strchr(p + width, ' ');
		if (cut == NULL)
			break;
		fprintf(fp, "# %.*s\n", (int)(cut - p), p);
		p = cut + 1;
	}
	fprintf(fp, "# %s\n", p);
}

/* Write the documented example. */
int
conf_write_example(FILE *fp)
{
	const char	*section = NULL;
	char		 type[256];
	size_t		 i;

	fputs("# corrchessd.conf: configuration of corrchessd, the corrchess "
	    "server.\n"
	    "#\n"
	    "# Generated from the table of keys in src/daemon/conf.c by\n"
	    "# `corrchessd --dump-config-example`; every value below is the "
	    "default.\n"
	    "#\n"
	    "# [section] starts a section; a line \"key = value\" sets a key; "
	    "lines\n"
	    "# starting with # or ; are comments. Sizes take a K, M or G "
	    "suffix\n"
	    "# (1K = 1024 bytes); durations an s, m, h or d suffix. Relative "
	    "paths\n"
	    "# are taken from the directory corrchessd starts in. An unknown "
	    "key or\n"
	    "# a bad value stops start-up with the file name and line.\n",
	    fp);
	for (i = 0; i < conf_table_size; i++) {
		const struct conf_key *key = &conf_table[i];

		if (section == NULL || strcmp(section, key->section) != 0) {
			section = key->section;
			fprintf(fp, "\n[%s]\n", section);
		}
		conf_describe_type(key, type, sizeof type);
		fputc('\n', fp);
		conf_write_comment(fp, key->help);
		fprintf(fp, "# (%s)\n%s =%s%s\n", type, key->name,
		    *key->def == '\0' ? "" : " ", key->def);
	}
	fflush(fp);
	return ferror(fp) ? -1 : 0;
}
