/*
 * daemon/corrchessd.c: the server: start up step by step, serve, stop.
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
 * corrchessd: the server. Runs in the foreground and logs to standard
 * error (journald under systemd). Reads the configuration, makes the state
 * directory and the admin token, serves HTTP on libmicrohttpd's threads,
 * and waits for signals on the main thread: SIGTERM or SIGINT stop
 * accepting connections, let requests in progress finish and exit 0;
 * SIGHUP reads the configuration file again and applies what can change
 * without a restart (the keys conf_reloadable() names), logging the
 * changed keys that need one.
 *
 * Under systemd (daemon/sdnotify.c) it tells the manager READY=1 once the
 * database is open and the listener is up, RELOADING=1 then READY=1
 * around a SIGHUP, STOPPING=1 on SIGTERM, and pings WATCHDOG=1 every half
 * WatchdogSec; with socket activation (one socket in LISTEN_FDS) it serves
 * on fd 3 instead of binding [server] listen and port.
 */

#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "daemon/conf.h"
#include "daemon/conf_man.h"
#include "http/http.h"
#include "util/log.h"
#include "api/routes.h"
#include "api/api_stream.h"
#include "web/pages.h"
#include "daemon/clock.h"
#include "mail/mailer.h"
#include "daemon/sdnotify.h"
#include "service/service.h"
#include "sig/sig.h"
#include "xfcc/soap.h"
#include "xfcc/xfcc.h"

#ifndef CORRCHESSD_CONF_DEFAULT
#define CORRCHESSD_CONF_DEFAULT "/etc/corrchessd.conf"
#endif

/* Bytes of randomness in a new admin token (written as hex). */
#define ADMIN_TOKEN_BYTES	32
/* Shortest admin token accepted from a file. */
#define ADMIN_TOKEN_MIN		16

enum {
	OPT_CHECK_CONFIG = 256,
	OPT_DUMP_EXAMPLE,
	OPT_DUMP_MAN,
	OPT_STATE_DIR,
	OPT_LISTEN,
	OPT_PORT,
};

static const struct option long_options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
	{ "debug", no_argument, NULL, 'd' },
	{ "dump-config-example", no_argument, NULL, OPT_DUMP_EXAMPLE },
	{ "dump-config-man", no_argument, NULL, OPT_DUMP_MAN },
	{ "help", no_argument, NULL, 'h' },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Print the usage message to fp. */
static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: corrchessd [-d] [--config FILE] [--state-dir DIR]\n"
	    "                  [--listen ADDR[:PORT]] [--port PORT] "
	    "[--check-config]\n"
	    "       corrchessd --version\n"
	    "\n"
	    "  -c, --config FILE    configuration file (default: %s,\n"
	    "                       if it exists; otherwise built-in "
	    "defaults)\n"
	    "      --state-dir DIR  use DIR as [server] state_directory\n"
	    "      --listen ADDR[:PORT]\n"
	    "                       listen on ADDR ([server] listen; an IPv6\n"
	    "                       address with a port as [ADDR]:PORT)\n"
	    "      --port PORT      listen on PORT ([server] port)\n"
	    "      --check-config   check the configuration, print "
	    "\"ok\" and exit\n"
	    "  -d, --debug          log debugging messages\n"
	    "  -V, --version        print the version and exit\n",
	    CORRCHESSD_CONF_DEFAULT);
}

/* Create a directory and its missing parents (mode 0700). */
static int
make_directories(const char *path, char *err, size_t errsize)
{
	char		 buf[PATH_MAX];
	char		*p;
	struct stat	 sb;

	if (strlen(path) >= sizeof buf) {
		snprintf(err, errsize, "%.64s...: name too long", path);
		return -1;
	}
	strcpy(buf, path);
	for (p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		if (p[-1] != '/') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0700) == -1 && errno != EEXIST) {
				snprintf(err, errsize, "mkdir %s: %s", buf,
				    strerror(errno));
				return -1;
			}
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	if (stat(path, &sb) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(err, errsize, "%s: not a directory", path);
		return -1;
	}
	return 0;
}

/*
 * Read the server's own key from STATE/server.key, or make it the first
 * time (an OpenSSH private key, mode 0600, its public line beside it in
 * server.key.pub); the server signs with it the actions it attests.
 */
static int
server_key_load(const char *dir, uint8_t sk[SIG_SECKEY_BYTES], int *created,
    char *err, size_t errsize)
{
	char		path[PATH_MAX];
	uint8_t		pk[SIG_PUBKEY_BYTES];
	enum sig_error	se = SIG_ECRYPTO;

	*created = 0;
	if ((size_t)snprintf(path, sizeof path, "%s/server.key", dir) >=
	    sizeof path) {
		snprintf(err, errsize, "%.300s: path too long", dir);
		return -1;
	}
	if (access(path, F_OK) == 0) {
		if (sig_seckey_read(path, sk, &se) == 0)
			return 0;
		snprintf(err, errsize, "%.300s: %s", path, sig_strerror(se));
		return -1;
	}
	if (sig_keypair(pk, sk) != 0 ||
	    sig_seckey_write(path, sk, "corrchessd server key", &se) != 0) {
		snprintf(err, errsize, "%.300s: %s", path, sig_strerror(se));
		return -1;
	}
	*created = 1;
	return 0;
}

/* Write a new random admin token to path, mode 0600, failing if it exists. */
static int
admin_token_create(const char *path, char *token, size_t size, char *err,
    size_t errsize)
{
	unsigned char	 raw[ADMIN_TOKEN_BYTES];
	char		 line[ADMIN_TOKEN_BYTES * 2 + 2];
	size_t		 len;
	int		 fd = -1, rc = -1;

	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(line, sizeof line, raw, sizeof raw);
	sodium_memzero(raw, sizeof raw);
	if (strlen(line) >= size) {
		snprintf(err, errsize, "admin token buffer too small");
		goto out;
	}
	strcpy(token, line);
	len = strlen(line);
	line[len++] = '\n';

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd == -1) {
		snprintf(err, errsize, "create %s: %s", path, strerror(errno));
		goto out;
	}
	if (write(fd, line, len) != (ssize_t)len || fsync(fd) == -1) {
		snprintf(err, errsize, "write %s: %s", path, strerror(errno));
		unlink(path);
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(line, sizeof line);
	if (fd != -1)
		close(fd);
	return rc;
}

/*
 * Read the admin token from path into token, creating the file with a new
 * token when it does not exist. *created tells which happened.
 */
static int
admin_token_load(const char *path, char *token, size_t size, int *created,
    char *err, size_t errsize)
{
	struct stat	 sb;
	ssize_t		 r;
	size_t		 len, i;
	int		 fd = -1, rc = -1;

	*created = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT) {
		*created = 1;
		return admin_token_create(path, token, size, err, errsize);
	}
	if (fd == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	/* Whoever reads the token is the club's admin. */
	if (fstat(fd, &sb) == 0 && (sb.st_mode & 077) != 0) {
		snprintf(err, errsize, "%s: open to others than its owner "
		    "(mode %04o): chmod 600 it", path,
		    (unsigned)(sb.st_mode & 07777));
		goto out;
	}
	r = read(fd, token, size - 1);
	if (r == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	len = (size_t)r;
	while (len > 0 && (token[len - 1] == '\n' || token[len - 1] == '\r' ||
	    token[len - 1] == ' ' || token[len - 1] == '\t'))
		len--;
	token[len] = '\0';
	for (i = 0; i < len; i++) {
		if (token[i] <= ' ' || token[i] == 0x7f)
			break;
	}
	if (i < len || len < ADMIN_TOKEN_MIN || len == size - 1) {
		snprintf(err, errsize, "%s: the admin token must be one line "
		    "of %d to %zu printable characters without spaces", path,
		    ADMIN_TOKEN_MIN, size - 2);
		goto out;
	}
	rc = 0;
out:
	if (fd != -1)
		close(fd);
	return rc;
}

/* What the command line asked for. */
struct args {
	const char	*conf_path;
	int		 path_given;	/* -c: the file must exist */
	const char	*state_dir;	/* --state-dir, or NULL */
	char		*listen;	/* --listen's address, or NULL */
	const char	*port;		/* --port or --listen's port, or NULL */
	int		 debug;		/* -d */
	int		 check;		/* --check-config */
};

/*
 * Warn when an existing file or directory is open to others than its
 * owner beyond `mask` (the players' addresses are in the database): the
 * daemon creates its own with umask 077.
 */
static void
mode_check(const char *path, mode_t mask, const char *want)
{
	struct stat	sb;

	if (stat(path, &sb) == 0 && (sb.st_mode & mask) != 0)
		log_warnx("%s is open to other local users (mode %04o): "
		    "chmod %s it", path, (unsigned)(sb.st_mode & 07777), want);
}

/*
 * Raise the open-file limit to hold `conns` connections besides the
 * database, the log and the mail (up to the hard limit); warn when it
 * cannot.
 */
static void
raise_nofile(rlim_t conns)
{
	struct rlimit	rl;
	rlim_t		want = conns + 256;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ?
	    want : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur < want)
		log_warnx("open-file limit %llu: fewer than max_connections "
		    "(%llu) can be served; raise LimitNOFILE", (unsigned long
		    long)rl.rlim_cur, (unsigned long long)conns);
}

/* Read the configuration: defaults, the file, then command-line values. */
static int
load_config(struct conf *conf, const struct args *a, char *err,
    size_t errsize)
{
	if (conf_init(conf, err, errsize) != 0)
		return -1;
	if (a->path_given || access(a->conf_path, F_OK) == 0) {
		if (conf_load_file(conf, a->conf_path, err, errsize) != 0)
			return -1;
	}
	if (a->state_dir != NULL && conf_set(conf, "server",
	    "state_directory", a->state_dir, err, errsize) != 0)
		return -1;
	if (a->listen != NULL && conf_set(conf, "server", "listen", a->listen,
	    err, errsize) != 0)
		return -1;
	if (a->port != NULL && conf_set(conf, "server", "port", a->port, err,
	    errsize) != 0)
		return -1;
	return 0;
}

/* Tell whether key has the same value in a and b. */
static int
conf_key_equal(const struct conf *a, const struct conf *b,
    const struct conf_key *key)
{
	const char	*pa = (const char *)a + key->offset;
	const char	*pb = (const char *)b + key->offset;

	switch (key->type) {
	case CONF_STRING:
	case CONF_PATH:
	case CONF_ADDR:
		return strcmp(*(char *const *)(const void *)pa,
		    *(char *const *)(const void *)pb) == 0;
	case CONF_BOOL:
		return *(const bool *)(const void *)pa ==
		    *(const bool *)(const void *)pb;
	default:
		return *(const long long *)(const void *)pa ==
		    *(const long long *)(const void *)pb;
	}
}

/* Tell the service manager state, warning once if that fails. */
static void
notify(const char *state)
{
	static int	warned;
	char		err[256];

	if (sdnotify(state, err, sizeof err) == -1 && !warned) {
		log_warnx("%s", err);
		warned = 1;
	}
}

/*
 * On SIGHUP, read the HTTPS certificate and key again (renewed in place,
 * or named anew) and serve them from the next handshake on; keep the
 * running ones when they do not load. Turning HTTPS on or off needs a
 * restart.
 */
static void
reload_tls(struct conf *running, const struct conf *conf,
    struct http_server *srv)
{
	const struct conf_server	*cs = &conf->server;
	char				 err[CONF_ERR_SIZE];
	char				*cert, *key;

	if (!http_tls_serving(srv)) {
		if (*cs->tls_certificate != '\0')
			log_warnx("SIGHUP: HTTPS starts at the next start "
			    "(corrchessd was started without a certificate)");
		return;
	}
	if (*cs->tls_certificate == '\0' || *cs->tls_key == '\0') {
		log_warnx("SIGHUP: [server] tls_certificate or tls_key is "
		    "empty: HTTPS goes on with the running certificate until "
		    "the next start");
		return;
	}
	if (http_tls_reload(srv, cs->tls_certificate, cs->tls_key, err,
	    sizeof err) != 0) {
		log_warnx("SIGHUP: [server] tls: %s; keeping the running "
		    "certificate", err);
		return;
	}
	if ((cert = strdup(cs->tls_certificate)) == NULL ||
	    (key = strdup(cs->tls_key)) == NULL) {
		free(cert);
		return;
	}
	free(running->server.tls_certificate);
	free(running->server.tls_key);
	running->server.tls_certificate = cert;
	running->server.tls_key = key;
}

/*
 * Read the configuration file again after SIGHUP into a new struct and
 * compare it with the running one (*running): apply the keys that
 * conf_reloadable() names (updating *running), and log each other changed
 * key, which takes effect at the next start.
 */
static void
reload(struct conf *running, struct http_server *srv, const struct args *a)
{
	struct conf	conf;
	char		err[CONF_ERR_SIZE];
	size_t		i;
	int		later = 0;

	log_info("SIGHUP: reading %s again", a->conf_path);
	if (load_config(&conf, a, err, sizeof err) != 0) {
		log_warnx("%s; keeping the running configuration", err);
		conf_free(&conf);
		return;
	}
	for (i = 0; i < conf_table_size; i++) {
		const struct conf_key *key = &conf_table[i];

		if (conf_key_equal(running, &conf, key))
			continue;
		if (!conf_reloadable(key)) {
			log_warnx("SIGHUP: [%s] %s changed; it takes effect "
			    "at the next start", key->section, key->name);
			later++;
			continue;
		}
		log_info("SIGHUP: [%s] %s changed; applied", key->section,
		    key->name);
	}
	reload_tls(running, &conf, srv);
	running->log.level = conf.log.level;
	running->log.requests = conf.log.requests;
	running->server.stop_timeout = conf.server.stop_timeout;
	if (!a->debug)
		log_setverbose((int)conf.log.level);
	http_server_set_log_requests(srv, conf.log.requests);
	log_info("SIGHUP: log level %s%s, request lines %s; %d change%s "
	    "waiting for a restart; logs go to standard error, nothing to "
	    "reopen", log_level_name(log_getverbose()),
	    a->debug ? " (-d)" : "", conf.log.requests ? "on" : "off", later,
	    later == 1 ? "" : "s");
	conf_free(&conf);
}

/* The STARTTLS policy of a [mail] *_starttls value. */
static enum mail_starttls
mail_starttls(long long v)
{
	switch (v) {
	case CONF_STARTTLS_NONE:
		return MAIL_STARTTLS_NONE;
	case CONF_STARTTLS_TRY:
		return MAIL_STARTTLS_TRY;
	default:
		return MAIL_STARTTLS_REQUIRED;
	}
}

/* Fill the mailer's options from the [mail] settings (borrowed). */
static void
mail_options(const struct conf_mail *cm, struct mailer_options *mo)
{
	memset(mo, 0, sizeof *mo);
	mo->imap.url = cm->imap_url;
	mo->imap.user = cm->imap_user;
	mo->imap.password_file = cm->imap_password_file;
	mo->imap.starttls = mail_starttls(cm->imap_starttls);
	mo->smtp.url = cm->smtp_url;
	mo->smtp.user = cm->smtp_user;
	mo->smtp.password_file = cm->smtp_password_file;
	mo->smtp.starttls = mail_starttls(cm->smtp_starttls);
	mo->mailbox = cm->mailbox;
	mo->processed_folder = cm->processed_folder;
	mo->refused_folder = cm->refused_folder;
	mo->poll_interval = cm->poll_interval;
	mo->from = cm->from;
	mo->tls_verify = cm->tls_verify;
	mo->ca_file = cm->ca_file;
}

/*
 * The clock for tests: when CORRCHESSD_TEST_CLOCK_FILE names a file, its
 * number (seconds) is added to the time, read again at every call, so a
 * test can move the daemon's clock forward.
 */
static int64_t
test_clock(void *arg)
{
	const char	*path = arg;
	long long	 offset = 0;
	FILE		*fp;

	if ((fp = fopen(path, "r")) != NULL) {
		if (fscanf(fp, "%lld", &offset) != 1)
			offset = 0;
		fclose(fp);
	}
	return (int64_t)time(NULL) + offset;
}

/* parse_args() found nothing that ends the command: start the server. */
#define ARGS_RUN	(-1)

/* Everything the server starts, released by stop() alone. */
struct corrchessd {
	struct args		 args;
	struct conf		 conf;
	int			 nfds;		/* sockets from the manager */
	char			 absdir[PATH_MAX];	/* state directory */
	char			*token_path;
	char			 token[256];	/* wiped once HTTP has it */
	uint8_t			 server_sk[SIG_SECKEY_BYTES];	/* wiped
						   once the service has it */
	char			*db_path;
	char			 domain[256];	/* of [mail] from */
	struct service		*svc;
	struct api_streams	*streams;	/* the live streams' hub */
	sigset_t		 signals;	/* the ones sigwait takes */
	struct http_server	*srv;
	struct http_route	*routes;	/* the API's, then the pages' */
	struct mailer		*mailer;
	struct clock		*clk;
	int			 served;	/* stopped by a signal */
};

/*
 * Split --listen's ADDR, ADDR:PORT (one colon: IPv4) or [ADDR]:PORT (IPv6)
 * into a->listen (malloc'd, in argv's lifetime) and a->port; 0 or -1.
 */
static int
split_listen(char *arg, struct args *a)
{
	char	*colon, *close;

	free(a->listen);
	a->listen = NULL;
	if (arg[0] == '[') {
		if ((close = strchr(arg, ']')) == NULL || (close[1] != '\0' &&
		    (close[1] != ':' || close[2] == '\0')))
			return -1;
		a->listen = strndup(arg + 1, (size_t)(close - arg - 1));
		if (close[1] == ':')
			a->port = close + 2;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL) {
		if (colon[1] == '\0')
			return -1;
		a->listen = strndup(arg, (size_t)(colon - arg));
		a->port = colon + 1;
	} else
		a->listen = strdup(arg);
	return a->listen == NULL || a->listen[0] == '\0' ? -1 : 0;
}

/*
 * Read the command line into *a. Returns ARGS_RUN, or the exit status
 * when the command is done already (help, version, the documented example
 * or man page, a usage error).
 */
static int
parse_args(int argc, char **argv, struct args *a)
{
	int	ch;

	memset(a, 0, sizeof *a);
	a->conf_path = CORRCHESSD_CONF_DEFAULT;
	while ((ch = getopt_long(argc, argv, "c:dhV", long_options,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			a->conf_path = optarg;
			a->path_given = 1;
			break;
		case 'd':
			a->debug = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("corrchessd %s\n", PACKAGE_VERSION);
			return 0;
		case OPT_CHECK_CONFIG:
			a->check = 1;
			break;
		case OPT_DUMP_EXAMPLE:
			return conf_write_example(stdout) == 0 ? 0 : 1;
		case OPT_DUMP_MAN:
			return conf_write_man(stdout) == 0 ? 0 : 1;
		case OPT_STATE_DIR:
			a->state_dir = optarg;
			break;
		case OPT_LISTEN:
			if (split_listen(optarg, a) != 0) {
				fprintf(stderr, "corrchessd: --listen %s: give "
				    "ADDR, ADDR:PORT or [ADDR]:PORT\n",
				    optarg);
				return 2;
			}
			break;
		case OPT_PORT:
			a->port = optarg;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	return ARGS_RUN;
}

/* Check that a file named by the configuration can be read; 0 or -1. */
static int
check_readable(const char *section, const char *key, const char *path,
    char *err, size_t errsize)
{
	int	fd;

	if (path == NULL || *path == '\0')
		return 0;
	if ((fd = open(path, O_RDONLY)) == -1) {
		snprintf(err, errsize, "[%s] %s %s: %s", section, key, path,
		    strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* Check the HTTPS certificate and key as the server will load them; 0,
 * or -1 with why. */
static int
check_tls(const struct conf_server *cs, char *err, size_t errsize)
{
	char	why[CONF_ERR_SIZE - 64];

	if (*cs->tls_certificate == '\0' && *cs->tls_key == '\0')
		return 0;
	if (*cs->tls_certificate == '\0' || *cs->tls_key == '\0') {
		snprintf(err, errsize, "[server] tls_certificate and tls_key "
		    "go together: set both for HTTPS, or neither");
		return -1;
	}
	if (http_tls_check(cs->tls_certificate, cs->tls_key, why,
	    sizeof why) != 0) {
		snprintf(err, errsize, "[server] tls: %s", why);
		return -1;
	}
	return 0;
}

/*
 * Check, before anything is written, what start-up would refuse later in
 * the configuration: the files it reads (admin token, mail passwords, CA
 * file) and [mail] from. 0, or -1 with the first fault in err.
 */
static int
check_startup(const struct conf *conf, char *err, size_t errsize)
{
	const struct conf_mail	*m = &conf->mail;
	const char		*tok = conf->server.admin_token_file;
	char			 addr[256], dir[PATH_MAX], *slash;

	/* An admin token file is read if it exists, else created. */
	if (*tok != '\0' && access(tok, F_OK) == 0) {
		if (check_readable("server", "admin_token_file", tok, err,
		    errsize) != 0)
			return -1;
	} else if (*tok != '\0') {
		snprintf(dir, sizeof dir, "%s", tok);
		if ((slash = strrchr(dir, '/')) != NULL) {
			*(slash == dir ? slash + 1 : slash) = '\0';
			if (access(dir, W_OK) != 0) {
				snprintf(err, errsize, "[server] "
				    "admin_token_file %.200s: cannot be "
				    "created in %.200s: %s", tok, dir,
				    strerror(errno));
				return -1;
			}
		}
	}
	if (check_tls(&conf->server, err, errsize) != 0)
		return -1;
	if (conf->storage.engine == CONF_ENGINE_POSTGRESQL) {
		if (store_target("postgresql", "", addr, sizeof addr) != 0) {
			snprintf(err, errsize, "[storage] engine = postgresql: "
			    "this corrchessd was built without PostgreSQL "
			    "(configure --with-postgresql, libpq-dev)");
			return -1;
		}
		if (*conf->storage.conninfo == '\0') {
			snprintf(err, errsize, "[storage] engine = postgresql "
			    "needs conninfo, as \"host=/run/postgresql "
			    "dbname=corrchess\"");
			return -1;
		}
		if (check_readable("storage", "password_file",
		    conf->storage.password_file, err, errsize) != 0)
			return -1;
	}
	if (!m->enabled)
		return 0;
	mailer_bare_address(m->from, addr, sizeof addr);
	if (strchr(addr, '@') == NULL || strrchr(addr, '@')[1] == '\0') {
		snprintf(err, errsize, "[mail] from must be an address, as "
		    "\"corrchess <chess@club.example>\" (enabled = yes needs "
		    "it: notices are sent from it)");
		return -1;
	}
	if (check_readable("mail", "imap_password_file",
	    m->imap_password_file, err, errsize) != 0 ||
	    check_readable("mail", "smtp_password_file",
	    m->smtp_password_file, err, errsize) != 0 ||
	    check_readable("mail", "ca_file", m->ca_file, err, errsize) != 0)
		return -1;
	return 0;
}

/* Print what --check-config accepts but a reader should know: a mail
 * setup that starts, yet does not read moves or send notices. */
static void
check_warnings(const struct conf *conf)
{
	if (!conf->mail.enabled)
		return;
	if (*conf->mail.imap_url == '\0')
		printf("warning: [mail] imap_url is empty: moves by mail are "
		    "not read\n");
	if (*conf->mail.smtp_url == '\0')
		printf("warning: [mail] smtp_url is empty: notices stay in the "
		    "outbox\n");
}

/* Read the configuration and check what start-up needs; 0, or -1 after
 * logging why. */
static int
start_config(struct corrchessd *d)
{
	char	err[CONF_ERR_SIZE];

	if (load_config(&d->conf, &d->args, err, sizeof err) != 0 ||
	    check_startup(&d->conf, err, sizeof err) != 0) {
		log_errorx("%s", err);
		return -1;
	}
	return 0;
}

/*
 * Set the log level, take the sockets of socket activation, start
 * libsodium, make the state directory and read or create the admin
 * token; 0, or -1 after logging why.
 */
static int
start_state(struct corrchessd *d)
{
	struct conf	*conf = &d->conf;
	char		 err[CONF_ERR_SIZE];
	int		 created;

	log_setverbose(d->args.debug ? LOG_LEVEL_DEBUG :
	    (int)conf->log.level);
	if ((d->nfds = sdnotify_listen_fds(err, sizeof err)) == -1) {
		log_errorx("socket activation: %s", err);
		return -1;
	}
	if (d->nfds > 1) {
		log_errorx("socket activation: %d sockets passed; corrchessd "
		    "serves one (one ListenStream= in the socket unit)",
		    d->nfds);
		return -1;
	}
	if (sodium_init() == -1) {
		log_errorx("libsodium failed to start");
		return -1;
	}

	if (make_directories(conf->server.state_directory, err,
	    sizeof err) != 0) {
		log_errorx("state directory: %s", err);
		return -1;
	}
	if (realpath(conf->server.state_directory, d->absdir) == NULL) {
		log_error("state directory %s", conf->server.state_directory);
		return -1;
	}
	log_info("state directory %s", d->absdir);
	mode_check(d->absdir, 007, "700");
	if (*conf->server.admin_token_file != '\0')
		d->token_path = strdup(conf->server.admin_token_file);
	else if (asprintf(&d->token_path, "%s/admin.token", d->absdir) == -1)
		d->token_path = NULL;
	if (d->token_path == NULL) {
		log_errorx("out of memory");
		return -1;
	}
	if (admin_token_load(d->token_path, d->token, sizeof d->token,
	    &created, err, sizeof err) != 0) {
		log_errorx("admin token: %s", err);
		return -1;
	}
	log_info("admin token %s %s", created ? "created in" : "read from",
	    d->token_path);
	if (server_key_load(d->absdir, d->server_sk, &created, err,
	    sizeof err) != 0) {
		log_errorx("server key: %s", err);
		return -1;
	}
	log_info("server key %s %s/server.key", created ? "created in" :
	    "read from", d->absdir);
	return 0;
}

/* Log a public key registered for several players. */
static void
shared_key_log(void *arg, const char *fingerprint, const char *players)
{
	(void)arg;
	log_warnx("key %s is registered for several players (%s): it can "
	    "sign as any of them; revoke it for all but its owner", fingerprint,
	    players);
}

/* Print a public key registered for several players (--check-config). */
static void
shared_key_print(void *arg, const char *fingerprint, const char *players)
{
	fprintf(arg, "corrchessd: warning: key %s is registered for several "
	    "players (%s): revoke it for all but its owner\n", fingerprint,
	    players);
}

/* Write the store path of the configured engine into a new string;
 * NULL when out of memory or too long (logged). */
static char *
store_path(const struct conf *conf, const char *absdir)
{
	char	*path = NULL;
	size_t	 size;

	if (conf->storage.engine != CONF_ENGINE_POSTGRESQL) {
		if (asprintf(&path, "%s/corrchess.db", absdir) == -1)
			path = NULL;
	} else {
		size = strlen(conf->storage.conninfo) + sizeof "postgresql:";
		if ((path = malloc(size)) != NULL && store_target("postgresql",
		    conf->storage.conninfo, path, size) != 0) {
			free(path);
			path = NULL;
		}
	}
	if (path == NULL)
		log_errorx("out of memory");
	return path;
}

/*
 * --check-config on PostgreSQL: connect and read the schema version,
 * changing nothing. 0, or -1 after logging why.
 */
static int
check_pg(const struct conf *conf)
{
	struct store_options	 opts = { .password_file =
	    *conf->storage.password_file != '\0' ?
	    conf->storage.password_file : NULL };
	char			*path, err[CONF_ERR_SIZE];
	int			 version;

	if ((path = store_path(conf, "")) == NULL)
		return -1;
	version = store_peek_version(path, &opts, err, sizeof err);
	free(path);
	if (version < 0) {
		log_errorx("database: %s", err);
		return -1;
	}
	if (version > STORE_SCHEMA_VERSION) {
		log_errorx("database: PostgreSQL: schema version %d is newer "
		    "than this corrchessd's (%d)", version,
		    STORE_SCHEMA_VERSION);
		return -1;
	}
	if (version == STORE_SCHEMA_VERSION)
		printf("database: PostgreSQL, schema version %d\n", version);
	else if (version == 0)
		printf("database: PostgreSQL, no schema yet: corrchessd "
		    "creates version %d at start\n", STORE_SCHEMA_VERSION);
	else
		printf("database: PostgreSQL, schema version %d: corrchessd "
		    "migrates it to %d at start\n", version,
		    STORE_SCHEMA_VERSION);
	return 0;
}

/*
 * --check-config: with the configuration read, report what the database
 * holds that the admin must see (keys shared by several players), without
 * changing it, and print "ok". 0, or -1 after logging why.
 */
static int
check_config(struct corrchessd *d)
{
	char	*db = NULL, err[CONF_ERR_SIZE];
	int	 rc;

	if (d->conf.storage.engine == CONF_ENGINE_POSTGRESQL) {
		if (check_pg(&d->conf) != 0)
			return -1;
		goto done;
	}
	if (asprintf(&db, "%s/corrchess.db",
	    d->conf.server.state_directory) == -1) {
		log_errorx("out of memory");
		return -1;
	}
	rc = service_shared_keys_file(db, shared_key_print, stderr, err,
	    sizeof err);
	free(db);
	if (rc != 0) {
		log_errorx("database: %s", err);
		return -1;
	}
done:
	check_warnings(&d->conf);
	if (d->conf.game.abort_moves > 0)
		printf("admin: a game may be aborted until each side has "
		    "made %lld moves ([game] abort_moves)\n",
		    d->conf.game.abort_moves);
	else
		printf("admin: no game may be aborted ([game] abort_moves "
		    "= 0); adjudicate instead\n");
	printf("%s: ok\n", d->args.path_given ||
	    access(d->args.conf_path, F_OK) == 0 ? d->args.conf_path :
	    "built-in defaults");
	return 0;
}

/* Open the database through the service (which creates or migrates it);
 * 0, or -1 after logging why. */
static int
open_service(struct corrchessd *d)
{
	struct conf		*conf = &d->conf;
	static const char *const suffix[] = { "", "-wal", "-shm" };
	struct service_config	 scfg;
	struct service_error	 serr;
	char			 err[CONF_ERR_SIZE], *at, path[PATH_MAX + 8];
	size_t			 i;
	bool			 pg;

	if ((d->db_path = store_path(conf, d->absdir)) == NULL)
		return -1;
	pg = conf->storage.engine == CONF_ENGINE_POSTGRESQL;
	for (i = 0; !pg && i < sizeof suffix / sizeof suffix[0]; i++) {
		snprintf(path, sizeof path, "%s%s", d->db_path, suffix[i]);
		mode_check(path, 077, "600");
	}
	memset(&scfg, 0, sizeof scfg);
	scfg.db_path = d->db_path;
	if (*conf->storage.password_file != '\0')
		scfg.password_file = conf->storage.password_file;
	scfg.leave_days = (int)conf->game.leave_days;
	scfg.abort_moves = conf->game.abort_moves > 0 ?
	    (int)conf->game.abort_moves : -1;
	scfg.rated_default = conf->game.rated != 0 ? 1 : -1;
	scfg.ratings.tau = conf->ratings.tau / 1e6;
	scfg.ratings.rating = (double)conf->ratings.rating;
	scfg.ratings.rd = (double)conf->ratings.deviation;
	scfg.ratings.volatility = conf->ratings.volatility / 1e6;
	scfg.ratings.period = conf->ratings.period;
	scfg.ratings.provisional_rd =
	    (double)conf->ratings.provisional_deviation;
	scfg.sync = conf->storage.synchronous == CONF_SYNC_NORMAL ?
	    STORE_SYNC_NORMAL : STORE_SYNC_FULL;
	if ((scfg.now_arg = getenv("CORRCHESSD_TEST_CLOCK_FILE")) != NULL) {
		scfg.now = test_clock;
		log_warnx("test clock: the time is moved by the number in %s",
		    (char *)scfg.now_arg);
	}
	if (conf->mail.enabled) {
		mailer_bare_address(conf->mail.from, d->domain,
		    sizeof d->domain);
		if ((at = strrchr(d->domain, '@')) == NULL || at[1] == '\0') {
			log_errorx("[mail] from must be an address, as "
			    "\"corrchess <chess@club.example>\"");
			return -1;
		}
		memmove(d->domain, at + 1, strlen(at + 1) + 1);
		scfg.mail = true;
		scfg.mail_from = conf->mail.from;
		scfg.mail_reply_to = conf->mail.reply_to;
		scfg.mail_domain = d->domain;
	}
	scfg.server_sk = d->server_sk;
	scfg.auth_default = conf->game.auth == CONF_AUTH_SIGNED_OR_ATTESTED ?
	    "signed-or-attested" : "signed";
	/* The live streams hear of each commit. */
	if ((d->streams = api_streams_start(API_STREAM_HEARTBEAT,
	    API_STREAM_MAX_PENDING)) == NULL) {
		log_errorx("out of memory");
		return -1;
	}
	scfg.events = api_streams_publish;
	scfg.events_arg = d->streams;
	scfg.events_wanted = api_streams_wanted;
	d->svc = service_open(&scfg, err, sizeof err);
	sodium_memzero(d->server_sk, sizeof d->server_sk);
	/* A connection string may hold a password: not logged. */
	if (d->svc == NULL) {
		if (pg)
			log_errorx("database: %s", err);
		else
			log_errorx("database %s: %s", d->db_path, err);
		return -1;
	}
	if (pg)
		log_info("database on PostgreSQL, schema version %d",
		    STORE_SCHEMA_VERSION);
	else
		log_info("database %s", d->db_path);
	if (service_shared_keys(d->svc, shared_key_log, NULL, &serr) != 0)
		log_warnx("keys of several players: %s", serr.message);
	return 0;
}

/*
 * Send the signals to the main thread only: block them before
 * libmicrohttpd starts its threads, which inherit the mask. Whether
 * sigwait sees a signal whose action is SIG_IGN is unspecified, and a
 * shell starts background jobs with SIGINT ignored: the three get their
 * default action back first.
 */
static void
block_signals(struct corrchessd *d)
{
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&d->signals);
	sigaddset(&d->signals, SIGTERM);
	sigaddset(&d->signals, SIGINT);
	sigaddset(&d->signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &d->signals, NULL);
}

/* One HTTP thread per core (online now), 1 to 256. */
static unsigned
http_threads_default(void)
{
	long	n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > 256 ? 256 : (unsigned)n;
}

/* Start serving HTTP (and wipe our copy of the admin token); 0, or -1
 * after logging why. */
static int
start_http(struct corrchessd *d)
{
	const struct conf_server	*cs = &d->conf.server;
	struct http_options		 hopts;
	char				 err[CONF_ERR_SIZE];
	size_t				 n;

	memset(&hopts, 0, sizeof hopts);
	hopts.address = cs->listen;
	hopts.port = (unsigned)cs->port;
	hopts.max_body_size = (size_t)cs->max_body_size;
	hopts.max_header_size = (size_t)cs->max_header_size;
	hopts.max_connections = (unsigned)cs->max_connections;
	hopts.max_connections_per_ip = (unsigned)cs->max_connections_per_ip;
	hopts.connection_timeout = (unsigned)cs->connection_timeout;
	hopts.request_timeout = (unsigned)cs->request_timeout;
	raise_nofile((rlim_t)cs->max_connections);
	hopts.threads = (unsigned)cs->threads;
	if (hopts.threads == 0)
		hopts.threads = http_threads_default();
	hopts.workers = (unsigned)cs->action_threads;
	hopts.admin_token = d->token;
	hopts.log_requests = d->conf.log.requests;
	hopts.tls_cert = cs->tls_certificate;
	hopts.tls_key = cs->tls_key;
	if (d->nfds == 1)
		hopts.listen_fd = SDNOTIFY_LISTEN_FDS_START;
	/* One server for the REST API, the web pages and the Xfcc
	 * endpoint (at its configured path, when enabled). */
	n = routes_api_count + routes_web_count;
	if ((d->routes = calloc(n + 1, sizeof *d->routes)) == NULL) {
		log_errorx("http: out of memory");
		return -1;
	}
	memcpy(d->routes, routes_api, routes_api_count * sizeof *d->routes);
	memcpy(d->routes + routes_api_count, routes_web,
	    routes_web_count * sizeof *d->routes);
	if (d->conf.xfcc.enabled) {
		xfcc_soap_init();
		d->routes[n++] = (struct http_route){ "POST",
		    d->conf.xfcc.path, HTTP_AUTH_NONE, xfcc_handle,
		    HTTP_ROUTE_SLOW };
	}
	d->srv = http_server_start(&hopts, d->routes, n, d->svc, err,
	    sizeof err);
	sodium_memzero(d->token, sizeof d->token);
	if (d->srv == NULL) {
		log_errorx("http: %s", err);
		return -1;
	}
	if (d->conf.xfcc.enabled)
		log_info("xfcc: the endpoint is POST %s", d->conf.xfcc.path);
	if (d->nfds == 1)
		log_info("corrchessd %s listening on socket-activated fd %d "
		    "port %u (%s[server] listen and port unused)",
		    PACKAGE_VERSION, SDNOTIFY_LISTEN_FDS_START,
		    http_server_port(d->srv), http_tls_serving(d->srv) ?
		    "HTTPS; " : "");
	else	/* Scripts read the port at the end of this line. */
		log_info("corrchessd %s listening on %s port %u%s",
		    PACKAGE_VERSION, cs->listen, http_server_port(d->srv),
		    http_tls_serving(d->srv) ? " (HTTPS)" : "");
	return 0;
}

/* Start the mail threads when [mail] is enabled; 0, or -1 after logging
 * why. */
static int
start_mailer(struct corrchessd *d)
{
	struct mailer_options	mopts;
	char			err[CONF_ERR_SIZE];

	if (!d->conf.mail.enabled)
		return 0;
	mail_options(&d->conf.mail, &mopts);
	if ((d->mailer = mailer_start(d->svc, &mopts, err,
	    sizeof err)) == NULL) {
		log_errorx("mail: %s", err);
		return -1;
	}
	if (*d->conf.mail.imap_url != '\0')
		log_info("mail: polling %s every %lld s", d->conf.mail.imap_url,
		    d->conf.mail.poll_interval);
	return 0;
}

/* Start the clock: games whose time ran out end by themselves. 0, or -1
 * after logging why. */
static int
start_clock(struct corrchessd *d)
{
	const struct conf_clock	*cc = &d->conf.clock;
	struct clock_options	 copts;
	int64_t			 reminders[2];
	char			 err[CONF_ERR_SIZE];

	memset(&copts, 0, sizeof copts);
	copts.interval = cc->interval;
	copts.reminders = reminders;
	if (cc->first_reminder > 0)
		reminders[copts.nreminders++] = cc->first_reminder;
	if (cc->second_reminder > 0)
		reminders[copts.nreminders++] = cc->second_reminder;
	if (copts.nreminders == 2 && reminders[0] > reminders[1]) {
		/* Nearest to the deadline first. */
		reminders[0] = cc->second_reminder;
		reminders[1] = cc->first_reminder;
	}
	if ((d->clk = clock_start(d->svc, &copts, err, sizeof err)) == NULL) {
		log_errorx("clock: %s", err);
		return -1;
	}
	return 0;
}

/*
 * Tell the manager we are ready, then wait for signals: SIGHUP reloads
 * the configuration, SIGTERM or SIGINT end the wait. Pings the watchdog
 * meanwhile when the manager asks for it.
 */
static void
serve(struct corrchessd *d)
{
	struct timespec	ping;
	uint64_t	watchdog_usec;
	int		sig;

	notify("READY=1\nSTATUS=serving");
	if ((watchdog_usec = sdnotify_watchdog_usec()) > 0) {
		/* Ping at half the interval the manager waits for. */
		watchdog_usec /= 2;
		ping.tv_sec = (time_t)(watchdog_usec / 1000000);
		ping.tv_nsec = (long)(watchdog_usec % 1000000) * 1000;
		log_info("watchdog: pinging every %llu ms",
		    (unsigned long long)watchdog_usec / 1000);
		notify("WATCHDOG=1");
	}

	for (;;) {
		if (watchdog_usec > 0) {
			sig = sigtimedwait(&d->signals, NULL, &ping);
			if (sig == -1) {
				if (errno == EAGAIN)
					notify("WATCHDOG=1");
				continue;
			}
		} else if (sigwait(&d->signals, &sig) != 0)
			continue;
		if (sig == SIGHUP) {
			notify("RELOADING=1");
			reload(&d->conf, d->srv, &d->args);
			notify(watchdog_usec > 0 ? "READY=1\nWATCHDOG=1" :
			    "READY=1");
			continue;
		}
		log_info("%s: stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
		notify("STOPPING=1");
		break;
	}
	d->served = 1;
}

/*
 * Stop what was started, newest first, and free everything: the one way
 * out. After serve(), requests in progress may finish (for at most
 * [server] stop_timeout seconds, and as long again for answers waiting
 * for a commit); after a failed start nothing waits.
 */
static void
stop(struct corrchessd *d)
{
	clock_stop(d->clk);
	mailer_stop(d->mailer);
	http_server_stop(d->srv, d->served ?
	    (unsigned)d->conf.server.stop_timeout : 0);
	free(d->routes);
	if (d->served)
		log_info("stopped");
	service_close(d->svc);
	api_streams_stop(d->streams);
	sodium_memzero(d->token, sizeof d->token);
	free(d->db_path);
	free(d->token_path);
	free(d->args.listen);
	conf_free(&d->conf);
}

/* Start up, serve until SIGTERM or SIGINT, stop cleanly. */
int
main(int argc, char **argv)
{
	struct corrchessd	d;
	int			status;

	memset(&d, 0, sizeof d);
	/* The database holds players' addresses: files 0600, dirs 0700. */
	umask(077);
	log_init(LOG_LEVEL_INFO, "corrchessd");
	if ((status = parse_args(argc, argv, &d.args)) != ARGS_RUN)
		goto out;
	status = 1;

	if (start_config(&d) != 0)
		goto out;
	if (d.args.check) {
		if (check_config(&d) == 0)
			status = 0;
		goto out;
	}
	if (start_state(&d) != 0 || open_service(&d) != 0)
		goto out;
	block_signals(&d);
	if (start_http(&d) != 0 || start_mailer(&d) != 0 ||
	    start_clock(&d) != 0)
		goto out;
	serve(&d);
	status = 0;
out:
	stop(&d);
	return status;
}
