/*
 * tests/test_mail.c: tests of IMAP and SMTP against real Dovecot and Postfix.
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
 * The mail transport (src/mail/mail_imap.c, src/mail/mail_smtp.c) against real
 * Dovecot and Postfix, started on loopback high ports by tests/mailenv.sh.
 * Without the servers installed the program fails, unless
 * CORRCHESS_NO_MAIL_SERVERS=1 (then it skips, exit 77).
 * CORRCHESS_MAIL_BENCH=1 adds the fetch rate of 1000 small messages;
 * CORRCHESS_MAIL_KEEP=1 leaves the servers running (to read their logs).
 */

#include "config.h"

#include "testutil.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "daemon/conf.h"
#include "mail/mail_idle.h"
#include "mail/mail_imap.h"
#include "mail/mail_smtp.h"

#define POSTFIX_MASTER	"/usr/lib/postfix/sbin/master"
#define MAIL_UID	10000

/* The running servers, from DIR/env. */
static struct {
	char	dir[64];
	char	imap[128], imaps[128], smtp[128], smtps[128], submission[128];
	char	ca_file[128];
} env;

/* Messages a poll handed to the callback. */
struct got {
	size_t		 n;
	uint32_t	 uidvalidity[64];
	uint32_t	 uid[64];
	char		*data[64];
	size_t		 len[64];
	size_t		 stop_after;	/* 0: never stop */
};

static unsigned int	message_serial;

static int	run(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));

/* Run a shell command; return its exit status. */
static int
run(const char *fmt, ...)
{
	char	cmd[1024];
	va_list	ap;
	int	st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 ? -1 : WEXITSTATUS(st);
}

/* Return the value of KEY in DIR/env, in buf. */
static int
env_get(const char *key, char *buf, size_t size)
{
	char	 path[128], line[512];
	FILE	*f;
	size_t	 klen = strlen(key);
	int	 found = -1;

	snprintf(path, sizeof path, "%s/env", env.dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
			snprintf(buf, size, "%s", line + klen + 1);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Start the servers, or fail (skip when told) if they are missing. */
static int
setup_servers(void **state)
{
	char	port[32];
	const char *skip = getenv("CORRCHESS_NO_MAIL_SERVERS");
	int	missing;

	(void)state;
	missing = access("/usr/sbin/dovecot", X_OK) != 0 ||
	    access(POSTFIX_MASTER, X_OK) != 0;
	if (missing || geteuid() != 0) {
		const char *why = missing ? "Dovecot or Postfix is not "
		    "installed (apt-get install dovecot-imapd postfix, or "
		    ".ci/install-deps)" : "the mail servers need root";

		if (skip != NULL && strcmp(skip, "1") == 0) {
			fprintf(stderr, "\n*** SKIPPED: the mail transport "
			    "test against real servers did NOT run: %s; "
			    "CORRCHESS_NO_MAIL_SERVERS=1 is set ***\n\n", why);
			exit(77);
		}
		fprintf(stderr, "test_mail_transport: %s. Set "
		    "CORRCHESS_NO_MAIL_SERVERS=1 to skip this test.\n", why);
		exit(1);
	}
	snprintf(env.dir, sizeof env.dir, "/tmp/ccm.XXXXXX");
	if (mkdtemp(env.dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	if (run("'%s/mailenv.sh' start %s", TEST_SRCDIR, env.dir) != 0) {
		fprintf(stderr, "test_mail_transport: mailenv.sh start "
		    "failed\n");
		rmdir(env.dir);
		exit(1);
	}
#define URL(field, key, scheme) do {					\
	if (env_get(key, port, sizeof port) != 0)			\
		exit(1);						\
	snprintf(env.field, sizeof env.field, "%s://127.0.0.1:%s",	\
	    scheme, port);						\
} while (0)
	URL(imap, "IMAP_PORT", "imap");
	URL(imaps, "IMAPS_PORT", "imaps");
	URL(smtp, "SMTP_PORT", "smtp");
	URL(smtps, "SMTPS_PORT", "smtps");
	URL(submission, "SUBMISSION_PORT", "smtp");
#undef URL
	if (env_get("CA_FILE", env.ca_file, sizeof env.ca_file) != 0)
		exit(1);
	return 0;
}

/* Stop the servers and remove their directory. */
static int
teardown_servers(void **state)
{
	(void)state;
	if (getenv("CORRCHESS_MAIL_KEEP") != NULL) {
		fprintf(stderr, "servers left running in %s\n", env.dir);
		return 0;
	}
	run("'%s/mailenv.sh' stop %s", TEST_SRCDIR, env.dir);
	return 0;
}

/* Fill IMAP options for user on the plain port. */
static void
imap_opts(struct mail_imap_options *o, const char *user, const char *url)
{
	static char	password[64];

	memset(o, 0, sizeof *o);
	snprintf(password, sizeof password, "%s-pw", user);
	o->url = url != NULL ? url : env.imap;
	o->user = user;
	o->password = password;
	o->mailbox = "INBOX";
	o->starttls = MAIL_STARTTLS_NONE;
	o->tls_verify = true;
	o->ca_file = env.ca_file;
	o->connect_timeout = 5;
	o->timeout = 20;
}

/* Make an IMAP client for user on the plain port. */
static struct mail_imap *
imap_for(const char *user)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	char			 err[MAIL_ERR_SIZE];

	imap_opts(&o, user, NULL);
	if ((imap = mail_imap_create(&o, err, sizeof err)) == NULL)
		fail_msg("mail_imap_create: %s", err);
	return imap;
}

/* Make an SMTP client on url. */
static struct mail_smtp *
smtp_for(const char *url, enum mail_starttls starttls, const char *user,
    const char *password)
{
	struct mail_smtp_options o;
	struct mail_smtp	*smtp;
	char			 err[MAIL_ERR_SIZE];

	memset(&o, 0, sizeof o);
	o.url = url;
	o.starttls = starttls;
	o.user = user;
	o.password = password;
	o.tls_verify = true;
	o.ca_file = env.ca_file;
	o.connect_timeout = 5;
	o.timeout = 20;
	if ((smtp = mail_smtp_create(&o, err, sizeof err)) == NULL)
		fail_msg("mail_smtp_create: %s", err);
	return smtp;
}

/* Compose a small message to rcpt, with every header Postfix would add. */
static char *
compose(const char *rcpt, const char *text, size_t *lenp)
{
	char	*m;
	int	 n;

	n = asprintf(&m,
	    "From: corrchess <corrchess@club.example>\r\n"
	    "To: <%s>\r\n"
	    "Subject: game 42, move %u\r\n"
	    "Date: Sun, 29 Nov 2026 12:00:00 +0000\r\n"
	    "Message-ID: <t%u.%ld@club.example>\r\n"
	    "MIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: 8bit\r\n"
	    "\r\n"
	    "%s\r\n"
	    ".a line that starts with a dot\r\n"
	    "Coup jou\xc3\xa9 : Cf3\r\n",
	    rcpt, message_serial, message_serial, (long)getpid(), text);
	message_serial++;
	assert_true(n > 0);
	*lenp = (size_t)n;
	return m;
}

/* Send a message from the club's address; mail_smtp_send()'s result. */
static enum mail_smtp_result
club_send(struct mail_smtp *smtp, const char *const *rcpt, size_t nrcpt,
    const char *data, size_t len, int *code, char err[MAIL_ERR_SIZE])
{
	return mail_smtp_send(smtp, "corrchess@club.example", rcpt, nrcpt,
	    data, len, code, err, MAIL_ERR_SIZE);
}

/* Send one message through mail_smtp on the plain port; expect success. */
static char *
send_to(const char *rcpt, size_t *lenp)
{
	struct mail_smtp	*smtp;
	const char		*to[1] = { rcpt };
	char			 err[MAIL_ERR_SIZE], *m;
	int			 code;
	enum mail_smtp_result	 r;

	m = compose(rcpt, "corrchess-v1\r\ngame: 42", lenp);
	smtp = smtp_for(env.smtp, MAIL_STARTTLS_NONE, NULL, NULL);
	r = club_send(smtp, to, 1, m, *lenp, &code, err);
	if (r != MAIL_SMTP_OK)
		fail_msg("mail_smtp_send: %s", err);
	assert_int_equal(code, 250);
	mail_smtp_free(smtp);
	return m;
}

/* Wait (20 s at most) until mailbox of imap holds n messages. */
static void
wait_messages(struct mail_imap *imap, const char *mailbox, uint32_t n)
{
	char		err[MAIL_ERR_SIZE];
	uint32_t	v, next, count = 0;
	int		i;

	for (i = 0; i < 400; i++) {
		if (mail_imap_status(imap, mailbox, &v, &next, &count, err,
		    sizeof err) != MAIL_IMAP_OK)
			fail_msg("mail_imap_status: %s", err);
		if (count >= n)
			return;
		usleep(50 * 1000);
	}
	fail_msg("%s: %u messages, not %u, after 20 s", mailbox ? mailbox :
	    "INBOX", count, n);
}

/* Keep a copy of each message. */
static int
collect(const struct mail_imap_message *msg, void *arg)
{
	struct got	*g = arg;

	assert_true(g->n < 64);
	assert_false(msg->truncated);
	g->uidvalidity[g->n] = msg->uidvalidity;
	g->uid[g->n] = msg->uid;
	g->data[g->n] = malloc(msg->len + 1);
	assert_non_null(g->data[g->n]);
	memcpy(g->data[g->n], msg->data, msg->len);
	g->data[g->n][msg->len] = '\0';
	g->len[g->n] = msg->len;
	g->n++;
	return g->stop_after != 0 && g->n >= g->stop_after;
}

/* Free what collect() kept. */
static void
got_free(struct got *g)
{
	size_t	i;

	for (i = 0; i < g->n; i++)
		free(g->data[i]);
	memset(g, 0, sizeof *g);
}

/* Poll and expect success. */
static void
poll_ok(struct mail_imap *imap, uint32_t v, uint32_t last, struct got *g,
    struct mail_imap_poll_result *res)
{
	char	err[MAIL_ERR_SIZE];

	if (mail_imap_poll(imap, v, last, collect, g, res, err,
	    sizeof err) != MAIL_IMAP_OK)
		fail_msg("mail_imap_poll: %s", err);
}

/* Run a custom IMAP command for user with libcurl directly (not mail_imap),
 * on the mailbox `box` ("" for none); its answer. */
static char *
imap_raw(const char *user, const char *box, const char *command)
{
	CURL	*c;
	char	*text = NULL, userpwd[64], url[160];
	size_t	 len = 0;
	FILE	*fp;

	snprintf(userpwd, sizeof userpwd, "%s:%s-pw", user, user);
	snprintf(url, sizeof url, "%s/%s", env.imap, box);
	fp = open_memstream(&text, &len);
	assert_non_null(fp);
	c = curl_easy_init();
	assert_non_null(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_USERPWD, userpwd);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, command);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, fp);
	assert_int_equal(curl_easy_perform(c), CURLE_OK);
	curl_easy_cleanup(c);
	fclose(fp);
	return text;
}

/* List every folder of user with libcurl directly (not mail_imap). */
static char *
list_folders(const char *user)
{
	return imap_raw(user, "", "LIST \"\" \"*\"");
}

/*
 * Mail sent through mail_smtp reaches alice's INBOX; a poll returns it
 * byte for byte after the trace headers the servers add; moved, it leaves
 * INBOX for the processed folder (created on the way, '/' written as
 * Dovecot's '.').
 */
static void
test_smtp_to_imap_and_move(void **state)
{
	struct mail_imap	*imap;
	struct mail_imap_poll_result res;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE], *sent, *folders;
	size_t			 len;
	uint32_t		 v, next, count;

	(void)state;
	imap = imap_for("alice");
	sent = send_to("alice@example.org", &len);
	wait_messages(imap, NULL, 1);

	poll_ok(imap, 0, 0, &g, &res);
	assert_int_equal(g.n, 1);
	assert_int_equal(res.fetched, 1);
	assert_true(res.uidvalidity != 0);
	assert_int_equal(g.uidvalidity[0], res.uidvalidity);
	/* The exact bytes, after Return-Path:, Received: etc. */
	assert_true(g.len[0] > len);
	assert_memory_equal(g.data[0] + g.len[0] - len, sent, len);
	assert_memory_equal(g.data[0], "Return-Path: <corrchess@club.example>",
	    37);
	assert_non_null(strstr(g.data[0], "\r\nReceived: from "));

	assert_int_equal(mail_imap_move(imap, g.uidvalidity[0], g.uid[0],
	    "corrchess/processed", err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &count, err,
	    sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count, 0);
	assert_int_equal(v, res.uidvalidity);
	assert_int_equal(mail_imap_status(imap, "corrchess/processed", &v,
	    &next, &count, err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count, 1);

	folders = list_folders("alice");
	assert_non_null(strstr(folders, "corrchess.processed"));
	assert_null(strstr(folders, "corrchess/processed"));
	free(folders);

	/* The next poll finds nothing: the message left the mailbox. */
	got_free(&g);
	poll_ok(imap, res.uidvalidity, 0, &g, &res);
	assert_int_equal(g.n, 0);
	/* A second move into the existing folder works too. */
	free(sent);
	sent = send_to("alice@example.org", &len);
	wait_messages(imap, NULL, 1);
	poll_ok(imap, res.uidvalidity, 0, &g, &res);
	assert_int_equal(g.n, 1);
	assert_int_equal(mail_imap_move(imap, g.uidvalidity[0], g.uid[0],
	    "corrchess/processed", err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(mail_imap_status(imap, "corrchess/processed", &v,
	    &next, &count, err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count, 2);
	got_free(&g);
	free(sent);
	mail_imap_free(imap);
}

/* Write a message file straight into user's Maildir/new. */
static void
maildir_drop(const char *user, const char *data, size_t len)
{
	char	path[256];
	int	fd;
	static const char *const sub[] = { "", "/new", "/cur", "/tmp" };
	size_t	i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/mail/%s/Maildir%s", env.dir,
		    user, sub[i]);
		if (mkdir(path, 0700) == 0)
			assert_int_equal(chown(path, MAIL_UID, MAIL_UID), 0);
	}
	snprintf(path, sizeof path, "%s/mail/%s/Maildir/new/%ld.%u.test",
	    env.dir, user, (long)time(NULL), message_serial++);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(fchown(fd, MAIL_UID, MAIL_UID), 0);
	close(fd);
}

/* Run a custom IMAP command for user on the mailbox INBOX; its answer. */
static char *
imap_command(const char *user, const char *command)
{
	return imap_raw(user, "INBOX", command);
}

/* Where the server has no MOVE, a filed message is flagged \Seen. */
static void
test_move_without_move(void **state)
{
	struct mail_imap	*imap;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE], command[64], *m, *answer;
	size_t			 len;
	uint32_t		 v, next, count;

	(void)state;
	m = compose("carol@example.org", "no MOVE here", &len);
	maildir_drop("carol", m, len);
	free(m);
	imap = imap_for("carol");
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);
	/* Fetching set \Seen: clear it, so that the move must set it. */
	snprintf(command, sizeof command, "UID STORE %u -FLAGS (\\Seen)",
	    g.uid[0]);
	free(imap_command("carol", command));
	snprintf(command, sizeof command, "UID FETCH %u (FLAGS)", g.uid[0]);
	answer = imap_command("carol", command);
	assert_null(strstr(answer, "\\Seen"));
	free(answer);

	assert_int_equal(mail_imap_move(imap, g.uidvalidity[0], g.uid[0],
	    "corrchess/processed", err, sizeof err), MAIL_IMAP_OK);
	answer = imap_command("carol", command);
	assert_non_null(strstr(answer, "\\Seen"));
	free(answer);
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &count, err,
	    sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count, 1);
	got_free(&g);
	mail_imap_free(imap);
}

/* Count the messages of mailbox (NULL: INBOX) of imap. */
static uint32_t
count_of(struct mail_imap *imap, const char *mailbox)
{
	char		err[MAIL_ERR_SIZE];
	uint32_t	v, next, count;

	if (mail_imap_status(imap, mailbox, &v, &next, &count, err,
	    sizeof err) != MAIL_IMAP_OK)
		fail_msg("mail_imap_status: %s", err);
	return count;
}

/*
 * A set of messages, given in any order, moves at once into a folder
 * created on the way; those not in the set stay. A set too long for one
 * command (UIDs that are not there among them) is split and still works;
 * where the server has no MOVE, the set is flagged \Seen and stays.
 */
static void
test_move_set(void **state)
{
	struct mail_imap	*imap, *other;
	struct got		 g = { 0 }, later = { 0 };
	char			 err[MAIL_ERR_SIZE], command[64], *m, *answer;
	uint32_t		 v, next, in0, set[4], *many;
	size_t			 len, i;

	(void)state;
	imap = imap_for("alice");
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &in0, err,
	    sizeof err), MAIL_IMAP_OK);
	for (i = 0; i < 6; i++) {
		m = compose("alice@example.org", "one of a set", &len);
		maildir_drop("alice", m, len);
		free(m);
	}
	wait_messages(imap, NULL, in0 + 6);
	poll_ok(imap, v, next - 1, &g, NULL);
	assert_int_equal(g.n, 6);

	/* Out of order, a range and a single one: "u0:u2,u4". */
	set[0] = g.uid[4];
	set[1] = g.uid[1];
	set[2] = g.uid[0];
	set[3] = g.uid[2];
	assert_int_equal(mail_imap_move_set(imap, v, set, 4, "corrchess/set",
	    err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count_of(imap, NULL), in0 + 2);
	assert_int_equal(count_of(imap, "corrchess/set"), 4);
	/* Moved already: not an error, nothing changes. */
	assert_int_equal(mail_imap_move_set(imap, v, set, 4, "corrchess/set",
	    err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count_of(imap, "corrchess/set"), 4);
	assert_int_equal(mail_imap_move_set(imap, v, set, 0, "corrchess/set",
	    err, sizeof err), MAIL_IMAP_OK);

	/* u3, u5 and 600 UIDs that are not there (every other one). */
	assert_non_null(many = calloc(602, sizeof *many));
	for (i = 0; i < 600; i++)
		many[i] = 3000000000u + 2 * (uint32_t)i;
	many[600] = g.uid[5];
	many[601] = g.uid[3];
	assert_int_equal(mail_imap_move_set(imap, v, many, 602,
	    "corrchess/set", err, sizeof err), MAIL_IMAP_OK);
	free(many);
	assert_int_equal(count_of(imap, NULL), in0);
	assert_int_equal(count_of(imap, "corrchess/set"), 6);

	/*
	 * Mail that came after this client's last command, seen by another
	 * client: the poll finds it and the move files it (the move's
	 * connection looks at the mailbox anew first).
	 */
	other = imap_for("alice");
	for (i = 0; i < 2; i++) {
		m = compose("alice@example.org", "after the last command",
		    &len);
		maildir_drop("alice", m, len);
		free(m);
	}
	wait_messages(other, NULL, in0 + 2);
	poll_ok(imap, v, g.uid[5], &later, NULL);
	assert_int_equal(later.n, 2);
	assert_int_equal(mail_imap_move_set(imap, v, later.uid, 2,
	    "corrchess/set", err, sizeof err), MAIL_IMAP_OK);
	assert_int_equal(count_of(other, NULL), in0);
	assert_int_equal(count_of(other, "corrchess/set"), 8);
	got_free(&later);
	mail_imap_free(other);

	/* Another UIDVALIDITY: nothing moves. */
	assert_int_not_equal(mail_imap_move_set(imap, v + 1, set, 1,
	    "corrchess/set", err, sizeof err), MAIL_IMAP_OK);
	got_free(&g);
	mail_imap_free(imap);

	/* carol's server has no MOVE. */
	imap = imap_for("carol");
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &in0, err,
	    sizeof err), MAIL_IMAP_OK);
	for (i = 0; i < 2; i++) {
		m = compose("carol@example.org", "no MOVE for a set", &len);
		maildir_drop("carol", m, len);
		free(m);
	}
	wait_messages(imap, NULL, in0 + 2);
	poll_ok(imap, v, next - 1, &g, NULL);
	assert_int_equal(g.n, 2);
	for (i = 0; i < 2; i++) {
		snprintf(command, sizeof command,
		    "UID STORE %u -FLAGS (\\Seen)", g.uid[i]);
		free(imap_command("carol", command));
	}
	assert_int_equal(mail_imap_move_set(imap, v, g.uid, 2,
	    "corrchess/processed", err, sizeof err), MAIL_IMAP_OK);
	for (i = 0; i < 2; i++) {
		snprintf(command, sizeof command, "UID FETCH %u (FLAGS)",
		    g.uid[i]);
		answer = imap_command("carol", command);
		assert_non_null(strstr(answer, "\\Seen"));
		free(answer);
	}
	assert_int_equal(count_of(imap, NULL), in0 + 2);
	got_free(&g);
	mail_imap_free(imap);
}

/* What head() saw of the last message. */
struct head {
	size_t	 n;
	bool	 truncated;
	size_t	 len;
	char	 head[1000];
};

/* Keep the first bytes of each message and whether it was cut. */
static int
head(const struct mail_imap_message *msg, void *arg)
{
	struct head	*t = arg;

	t->n++;
	t->truncated = msg->truncated;
	t->len = msg->len;
	memcpy(t->head, msg->data, msg->len < sizeof t->head ? msg->len :
	    sizeof t->head);
	return 0;
}

/*
 * A stored message comes back exactly (8-bit bytes, long lines); one
 * larger than the limit comes cut, and the next poll still works.
 */
static void
test_exact_bytes(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	struct got		 g = { 0 };
	struct head		 t = { 0 };
	char			 err[MAIL_ERR_SIZE];
	char			 msg[70000];
	size_t			 len = 0, i;

	(void)state;
	len += (size_t)snprintf(msg, sizeof msg,
	    "From: <alice@example.org>\r\nTo: <bob@example.org>\r\n"
	    "Subject: =?utf-8?q?=C3=A9chec?=\r\n\r\n");
	/* Every byte but CR, LF and NUL (IMAP cannot carry NUL). */
	for (i = 1; i < 256; i++) {
		if (i == '\r' || i == '\n')
			continue;
		msg[len++] = (char)i;
	}
	memcpy(msg + len, "\r\n", 2);
	len += 2;
	for (i = 0; i < 60000; i++)
		msg[len++] = (char)('a' + i % 26);
	memcpy(msg + len, "\r\n", 2);
	len += 2;
	maildir_drop("bob", msg, len);

	imap = imap_for("bob");
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.len[0], len);
	assert_memory_equal(g.data[0], msg, len);
	got_free(&g);
	mail_imap_free(imap);

	/* Larger than max_message_size: its head, marked truncated. */
	imap_opts(&o, "bob", NULL);
	o.max_message_size = 1000;
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	for (i = 0; i < 2; i++) {
		assert_int_equal(mail_imap_poll(imap, 0, 0, head, &t, NULL,
		    err, sizeof err), MAIL_IMAP_OK);
		assert_int_equal(t.n, i + 1);
		assert_true(t.truncated);
		assert_int_equal(t.len, 1000);
		assert_memory_equal(t.head, msg, 1000);
	}
	mail_imap_free(imap);
}

/*
 * UIDVALIDITY is the mailbox's; a poll from the last UID seen returns only
 * the newer messages; another UIDVALIDITY makes every message new. All
 * polls of one client go over one connection with one login (and the
 * client's other commands over a second).
 */
static void
test_only_new_uids(void **state)
{
	struct mail_imap	*imap;
	struct mail_imap_poll_result res;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len, i;
	uint32_t		 v, next, count, last;

	(void)state;
	imap = imap_for("corrchess");
	for (i = 0; i < 3; i++)
		free(send_to("corrchess@example.org", &len));
	wait_messages(imap, NULL, 3);
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &count, err,
	    sizeof err), MAIL_IMAP_OK);

	poll_ok(imap, 0, 0, &g, &res);
	assert_int_equal(g.n, 3);
	assert_int_equal(res.uidvalidity, v);
	assert_int_equal(res.found, 3);
	assert_false(res.uidvalidity_changed);
	assert_true(g.uid[0] < g.uid[1] && g.uid[1] < g.uid[2]);
	last = g.uid[2];
	got_free(&g);

	/* Nothing new: nothing fetched. */
	poll_ok(imap, v, last, &g, &res);
	assert_int_equal(g.n, 0);
	assert_int_equal(res.found, 0);

	for (i = 0; i < 2; i++) {
		m = send_to("corrchess@example.org", &len);
		free(m);
	}
	wait_messages(imap, NULL, 5);
	poll_ok(imap, v, last, &g, &res);
	assert_int_equal(g.n, 2);
	assert_true(g.uid[0] > last && g.uid[1] > g.uid[0]);
	assert_int_equal(res.found, 2);
	last = g.uid[1];
	got_free(&g);

	poll_ok(imap, v, last, &g, &res);
	assert_int_equal(g.n, 0);

	/* The mailbox was recreated (as far as the caller knows). */
	poll_ok(imap, v + 1, last, &g, &res);
	assert_int_equal(g.n, 5);
	assert_true(res.uidvalidity_changed);
	assert_int_equal(g.uidvalidity[0], v);
	got_free(&g);

	/* One connection for the polls, one for the other commands. */
	assert_int_equal(mail_imap_connections(imap), 2);

	/* The callback stops the poll; the next one goes on from there. */
	g.stop_after = 2;
	poll_ok(imap, 0, 0, &g, &res);
	assert_int_equal(g.n, 2);
	assert_int_equal(res.fetched, 2);
	last = g.uid[1];
	got_free(&g);
	poll_ok(imap, v, last, &g, &res);
	assert_int_equal(g.n, 3);
	assert_true(g.uid[0] > last && g.uid[1] > g.uid[0] &&
	    g.uid[2] > g.uid[1]);
	got_free(&g);

	/* The stopped poll's connection was closed: one more login. */
	assert_int_equal(mail_imap_connections(imap), 3);
	mail_imap_free(imap);
}

/*
 * Wait (20 s at most, in half seconds) until idle says new mail came;
 * return whether it did.
 */
static bool
idle_until_new(struct mail_idle *idle)
{
	char	err[MAIL_ERR_SIZE];
	bool	newmail = false;
	int	i;

	for (i = 0; i < 40 && !newmail; i++)
		if (mail_idle_wait(idle, 500, &newmail, err, sizeof err) !=
		    MAIL_IMAP_OK)
			fail_msg("mail_idle_wait: %s", err);
	return newmail;
}

/*
 * IDLE: the first wait on a new connection says "maybe new mail" (what
 * came while nobody listened); then a wait ends when a message is
 * delivered, and the poll finds it; all over one IDLE connection. TLS
 * and STARTTLS work the same way.
 */
static void
test_idle(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	struct mail_idle	*idle;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len, round;
	uint32_t		 v, next, count, last;
	bool			 newmail;
	static const char *const text[] = { "idle", "idle, TLS", "idle, STARTTLS" };

	(void)state;
	for (round = 0; round < 3; round++) {
		imap_opts(&o, "alice", round == 1 ? env.imaps : NULL);
		if (round == 2)
			o.starttls = MAIL_STARTTLS_REQUIRED;
		imap = mail_imap_create(&o, err, sizeof err);
		assert_non_null(imap);
		idle = mail_idle_create(imap);
		assert_non_null(idle);
		assert_int_equal(mail_imap_status(imap, NULL, &v, &next,
		    &count, err, sizeof err), MAIL_IMAP_OK);
		last = next - 1;

		assert_int_equal(mail_idle_wait(idle, 0, &newmail, err,
		    sizeof err), MAIL_IMAP_OK);
		assert_true(newmail);
		/* Nothing delivered: a short wait ends with nothing. */
		assert_int_equal(mail_idle_wait(idle, 200, &newmail, err,
		    sizeof err), MAIL_IMAP_OK);
		assert_false(newmail);

		m = compose("alice@example.org", text[round], &len);
		maildir_drop("alice", m, len);
		free(m);
		assert_true(idle_until_new(idle));
		poll_ok(imap, v, last, &g, NULL);
		assert_int_equal(g.n, 1);
		got_free(&g);

		/* A second message on the same IDLE. */
		m = compose("alice@example.org", "idle again", &len);
		maildir_drop("alice", m, len);
		free(m);
		assert_true(idle_until_new(idle));
		assert_int_equal(mail_idle_connections(idle), 1);
		mail_idle_free(idle);
		mail_imap_free(imap);
	}
}

/* A server without IDLE says so: the caller polls instead. */
static void
test_idle_unsupported(void **state)
{
	struct mail_imap	*imap;
	struct mail_idle	*idle;
	char			 err[MAIL_ERR_SIZE];
	bool			 newmail = true;

	(void)state;
	imap = imap_for("carol");
	idle = mail_idle_create(imap);
	assert_non_null(idle);
	assert_int_equal(mail_idle_wait(idle, 100, &newmail, err, sizeof err),
	    MAIL_IMAP_ENOIDLE);
	assert_false(newmail);
	assert_non_null(strstr(err, "IDLE"));
	assert_int_equal(mail_idle_connections(idle), 0);
	mail_idle_free(idle);
	mail_imap_free(imap);
}

/* A wrong password is a login error that says so. */
static void
test_login_refused(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	char			 err[MAIL_ERR_SIZE];

	(void)state;
	imap_opts(&o, "alice", NULL);
	o.password = "wrong";
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	assert_int_equal(mail_imap_poll(imap, 0, 0, collect, NULL, NULL, err,
	    sizeof err), MAIL_IMAP_ELOGIN);
	assert_non_null(strstr(err, "login refused"));
	assert_non_null(strstr(err, "AUTHENTICATIONFAILED"));
	mail_imap_free(imap);

	/* And an unknown user too. */
	imap_opts(&o, "nobody", NULL);
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	assert_int_equal(mail_imap_poll(imap, 0, 0, collect, NULL, NULL, err,
	    sizeof err), MAIL_IMAP_ELOGIN);
	mail_imap_free(imap);
}

/* Server stopped: an error; restarted: the same client works again. */
static void
test_imap_server_restart(void **state)
{
	struct mail_imap	*imap;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE];
	enum mail_imap_err	 e;

	(void)state;
	imap = imap_for("bob");
	poll_ok(imap, 0, 0, &g, NULL);
	got_free(&g);

	assert_int_equal(run("'%s/mailenv.sh' stop %s dovecot", TEST_SRCDIR,
	    env.dir), 0);
	e = mail_imap_poll(imap, 0, 0, collect, &g, NULL, err, sizeof err);
	assert_int_equal(e, MAIL_IMAP_ECONNECT);
	assert_non_null(strstr(err, "server unreachable"));
	assert_non_null(strstr(err, env.imap));
	/* A fresh client too. */
	mail_imap_free(imap);
	imap = imap_for("bob");
	e = mail_imap_poll(imap, 0, 0, collect, &g, NULL, err, sizeof err);
	assert_int_equal(e, MAIL_IMAP_ECONNECT);

	assert_int_equal(run("'%s/mailenv.sh' start %s dovecot", TEST_SRCDIR,
	    env.dir), 0);
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);	/* test_exact_bytes's message */
	got_free(&g);
	mail_imap_free(imap);
}

/* Delays: 1 s after a success, doubling, capped. */
static void
test_backoff(void **state)
{
	unsigned int	d = 0, seen[12];
	int		i;

	(void)state;
	for (i = 0; i < 12; i++)
		seen[i] = d = mail_imap_backoff_next(d, 300);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 2);
	assert_int_equal(seen[2], 4);
	assert_int_equal(seen[8], 256);
	assert_int_equal(seen[9], 300);
	assert_int_equal(seen[11], 300);
	assert_int_equal(mail_imap_backoff_next(0, 0), 1);
	assert_int_equal(mail_imap_backoff_next(200, 300), 300);
	assert_int_equal(mail_imap_backoff_next(0xffffffffu, 300), 300);
}

/* IMAPS and STARTTLS: verified with the CA file, refused without it. */
static void
test_imap_tls(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	struct got		 g = { 0 };
	char			 err[MAIL_ERR_SIZE];

	(void)state;
	imap_opts(&o, "bob", env.imaps);
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);
	got_free(&g);
	mail_imap_free(imap);

	imap_opts(&o, "bob", NULL);
	o.starttls = MAIL_STARTTLS_REQUIRED;
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);
	got_free(&g);
	mail_imap_free(imap);

	/* The self-signed certificate is not among the system's CAs. */
	imap_opts(&o, "bob", env.imaps);
	o.ca_file = NULL;
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	assert_int_equal(mail_imap_poll(imap, 0, 0, collect, &g, NULL, err,
	    sizeof err), MAIL_IMAP_ETLS);
	mail_imap_free(imap);

	/* Verification off (warned about): accepted. */
	o.tls_verify = false;
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	poll_ok(imap, 0, 0, &g, NULL);
	assert_int_equal(g.n, 1);
	got_free(&g);
	mail_imap_free(imap);
}

/* Bad URLs and folder names are refused before any connection. */
static void
test_imap_config_errors(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	char			 err[MAIL_ERR_SIZE];

	(void)state;
	imap_opts(&o, "bob", "http://127.0.0.1:1/");
	imap = mail_imap_create(&o, err, sizeof err);
	assert_null(imap);
	assert_non_null(strstr(err, "imap://"));
	imap_opts(&o, "bob", "");
	assert_null(mail_imap_create(&o, err, sizeof err));
	assert_non_null(strstr(err, "no IMAP URL"));

	imap = imap_for("bob");
	assert_int_equal(mail_imap_move(imap, 1, 1, "bad\r\nname", err,
	    sizeof err), MAIL_IMAP_ECONFIG);
	assert_int_equal(mail_imap_move(imap, 1, 1, "caf\xc3\xa9", err,
	    sizeof err), MAIL_IMAP_ECONFIG);
	/* Moving under a stale UIDVALIDITY moves nothing. */
	assert_int_equal(mail_imap_move(imap, 1, 1, "corrchess/processed", err,
	    sizeof err), MAIL_IMAP_EPROTO);
	mail_imap_free(imap);
}

/* Several messages over one SMTP connection. */
static void
test_smtp_reuse(void **state)
{
	struct mail_smtp	*smtp;
	struct mail_imap	*imap;
	const char		*to[2] = { "bob@example.org",
				    "alice@example.org" };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len, i;
	uint32_t		 v, next, before, bob_before;

	(void)state;
	imap = imap_for("alice");
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &before, err,
	    sizeof err), MAIL_IMAP_OK);
	mail_imap_free(imap);
	imap = imap_for("bob");
	assert_int_equal(mail_imap_status(imap, NULL, &v, &next, &bob_before,
	    err, sizeof err), MAIL_IMAP_OK);

	smtp = smtp_for(env.smtp, MAIL_STARTTLS_NONE, NULL, NULL);
	for (i = 0; i < 3; i++) {
		m = compose("bob@example.org", "three in a row", &len);
		assert_int_equal(club_send(smtp, to, 2, m, len, NULL, err),
		    MAIL_SMTP_OK);
		free(m);
	}
	assert_int_equal(mail_smtp_connections(smtp), 1);
	mail_smtp_free(smtp);
	wait_messages(imap, NULL, bob_before + 3);
	mail_imap_free(imap);
	imap = imap_for("alice");
	wait_messages(imap, NULL, before + 3);
	mail_imap_free(imap);
}

/* An unknown recipient is a permanent failure with the server's words. */
static void
test_smtp_permanent(void **state)
{
	struct mail_smtp	*smtp;
	const char		*to[1] = { "nobody@example.org" };
	const char		*two[2] = { "bob@example.org",
				    "nobody@example.org" };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len;
	int			 code;

	(void)state;
	smtp = smtp_for(env.smtp, MAIL_STARTTLS_NONE, NULL, NULL);
	m = compose("nobody@example.org", "lost", &len);
	assert_int_equal(club_send(smtp, to, 1, m, len, &code, err),
	    MAIL_SMTP_PERMFAIL);
	assert_int_equal(code, 550);
	if (strstr(err, "User unknown") == NULL)
		fail_msg("no server words in: %s", err);
	assert_int_equal(club_send(smtp, two, 2, m, len, &code, err),
	    MAIL_SMTP_PERMFAIL);
	/* No recipient, or a line break in an address: refused here. */
	assert_int_equal(club_send(smtp, to, 0, m, len, &code, err),
	    MAIL_SMTP_PERMFAIL);
	assert_int_equal(mail_smtp_send(smtp, "bad\r\nRCPT TO:<x@y>", two, 1,
	    m, len, &code, err, sizeof err), MAIL_SMTP_PERMFAIL);
	/* The same client still sends the next good message. */
	assert_int_equal(club_send(smtp, two, 1, m, len, &code, err),
	    MAIL_SMTP_OK);
	free(m);
	mail_smtp_free(smtp);
}

/* Server stopped: a temporary failure; restarted: sent. */
static void
test_smtp_server_restart(void **state)
{
	struct mail_smtp	*smtp;
	const char		*to[1] = { "bob@example.org" };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len;
	int			 code;

	(void)state;
	smtp = smtp_for(env.smtp, MAIL_STARTTLS_NONE, NULL, NULL);
	m = compose("bob@example.org", "before the stop", &len);
	assert_int_equal(club_send(smtp, to, 1, m, len, &code, err),
	    MAIL_SMTP_OK);
	assert_int_equal(run("'%s/mailenv.sh' stop %s postfix", TEST_SRCDIR,
	    env.dir), 0);
	assert_int_equal(club_send(smtp, to, 1, m, len, &code, err),
	    MAIL_SMTP_TEMPFAIL);
	assert_int_equal(code, 0);
	assert_non_null(strstr(err, "temporary failure"));
	assert_int_equal(run("'%s/mailenv.sh' start %s postfix", TEST_SRCDIR,
	    env.dir), 0);
	assert_int_equal(club_send(smtp, to, 1, m, len, &code, err),
	    MAIL_SMTP_OK);
	free(m);
	mail_smtp_free(smtp);
}

/* Submission (STARTTLS + AUTH) and SMTPS, verified with the CA file. */
static void
test_smtp_tls_auth(void **state)
{
	struct mail_smtp	*smtp;
	const char		*to[1] = { "bob@example.org" };
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len;
	int			 code;

	(void)state;
	m = compose("bob@example.org", "over TLS", &len);
	smtp = smtp_for(env.submission, MAIL_STARTTLS_REQUIRED, "alice",
	    "alice-pw");
	if (mail_smtp_send(smtp, "alice@example.org", to, 1, m, len, &code,
	    err, sizeof err) != MAIL_SMTP_OK)
		fail_msg("%s", err);
	mail_smtp_free(smtp);

	/* A refused login is the site's problem: retry later. */
	smtp = smtp_for(env.submission, MAIL_STARTTLS_REQUIRED, "alice",
	    "wrong");
	assert_int_equal(mail_smtp_send(smtp, "alice@example.org", to, 1, m,
	    len, &code, err, sizeof err), MAIL_SMTP_TEMPFAIL);
	assert_int_equal(code, 535);
	assert_non_null(strstr(err, "login refused"));
	mail_smtp_free(smtp);

	smtp = smtp_for(env.smtps, MAIL_STARTTLS_NONE, "alice", "alice-pw");
	if (mail_smtp_send(smtp, "alice@example.org", to, 1, m, len, &code,
	    err, sizeof err) != MAIL_SMTP_OK)
		fail_msg("%s", err);
	mail_smtp_free(smtp);

	/* SMTPS without the CA file: the certificate is not trusted. */
	{
		struct mail_smtp_options o;

		memset(&o, 0, sizeof o);
		o.url = env.smtps;
		o.tls_verify = true;
		o.connect_timeout = 5;
		o.timeout = 20;
		smtp = mail_smtp_create(&o, err, sizeof err);
		assert_non_null(smtp);
		assert_int_equal(mail_smtp_send(smtp, "alice@example.org", to,
		    1, m, len, &code, err, sizeof err), MAIL_SMTP_TEMPFAIL);
		mail_smtp_free(smtp);
		o.url = "imap://127.0.0.1/";
		assert_null(mail_smtp_create(&o, err, sizeof err));
		assert_non_null(strstr(err, "smtp://"));
	}
	free(m);
}

/* A server that accepts connections and never says a word. */
static int
silent_server(int *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

/* No greeting in time: a timeout (IMAP), a temporary failure (SMTP). */
static void
test_timeouts(void **state)
{
	struct mail_imap_options o;
	struct mail_imap	*imap;
	struct mail_smtp_options so;
	struct mail_smtp	*smtp;
	const char		*to[1] = { "bob@example.org" };
	char			 err[MAIL_ERR_SIZE], url[64];
	int			 fd, port, code;

	(void)state;
	fd = silent_server(&port);
	snprintf(url, sizeof url, "imap://127.0.0.1:%d", port);
	imap_opts(&o, "bob", url);
	o.timeout = 1;
	imap = mail_imap_create(&o, err, sizeof err);
	assert_non_null(imap);
	assert_int_equal(mail_imap_poll(imap, 0, 0, collect, NULL, NULL, err,
	    sizeof err), MAIL_IMAP_ETIMEOUT);
	assert_non_null(strstr(err, "timed out"));
	mail_imap_free(imap);

	memset(&so, 0, sizeof so);
	snprintf(url, sizeof url, "smtp://127.0.0.1:%d", port);
	so.url = url;
	so.timeout = 1;
	smtp = mail_smtp_create(&so, err, sizeof err);
	assert_non_null(smtp);
	assert_int_equal(mail_smtp_send(smtp, "a@example.org", to, 1, "x\r\n",
	    3, &code, err, sizeof err), MAIL_SMTP_TEMPFAIL);
	assert_int_equal(code, 0);
	mail_smtp_free(smtp);
	close(fd);
}

/* The [mail] keys and their defaults. */
static void
test_conf_defaults(void **state)
{
	struct conf	c;
	char		err[CONF_ERR_SIZE];

	(void)state;
	assert_int_equal(conf_init(&c, err, sizeof err), 0);
	assert_false(c.mail.enabled);
	assert_string_equal(c.mail.mailbox, "INBOX");
	assert_int_equal(c.mail.poll_interval, 60);
	assert_string_equal(c.mail.processed_folder, "corrchess/processed");
	assert_string_equal(c.mail.refused_folder, "corrchess/refused");
	assert_true(c.mail.tls_verify);
	assert_string_equal(c.mail.ca_file, "");
	assert_string_equal(c.mail.imap_url, "");
	assert_int_equal(c.mail.imap_starttls, MAIL_STARTTLS_REQUIRED);
	assert_int_equal(c.mail.smtp_starttls, MAIL_STARTTLS_REQUIRED);
	assert_int_equal(conf_set(&c, "mail", "imap_starttls", "try", err,
	    sizeof err), 0);
	assert_int_equal(c.mail.imap_starttls, MAIL_STARTTLS_TRY);
	assert_int_equal(conf_set(&c, "mail", "smtp_starttls", "none", err,
	    sizeof err), 0);
	assert_int_equal(c.mail.smtp_starttls, MAIL_STARTTLS_NONE);
	assert_int_equal(conf_set(&c, "mail", "poll_interval", "0", err,
	    sizeof err), -1);
	conf_free(&c);
}

/* Count the messages handed over; copy nothing. */
static int
count_only(const struct mail_imap_message *msg, void *arg)
{
	(*(size_t *)arg)++;
	return msg->len == 0;
}

/* The fetch rate of 1000 small messages over one connection. */
static void
bench_fetch_1000(void **state)
{
	struct mail_imap	*imap;
	struct mail_imap_poll_result res;
	struct timeval		 t0, t1;
	char			 err[MAIL_ERR_SIZE], *m;
	size_t			 len, n = 0, i;
	double			 s;
	int			 pass;

	(void)state;
	if (getenv("CORRCHESS_MAIL_BENCH") == NULL) {
		fprintf(stderr, "bench_fetch_1000: not run; "
		    "CORRCHESS_MAIL_BENCH=1 (make bench-mail) runs it\n");
		skip();
	}
	for (i = 0; i < 1000; i++) {
		m = compose("bob@example.org", "one of a thousand", &len);
		maildir_drop("corrchess", m, len);
		free(m);
	}
	imap = imap_for("corrchess");
	/*
	 * First poll: the messages are new to Dovecot too (it indexes them
	 * as it goes), as in service. Second poll: the same messages again.
	 */
	for (pass = 0; pass < 2; pass++) {
		n = 0;
		gettimeofday(&t0, NULL);
		if (mail_imap_poll(imap, 0, 0, count_only, &n, &res, err,
		    sizeof err) != MAIL_IMAP_OK)
			fail_msg("%s", err);
		gettimeofday(&t1, NULL);
		assert_true(n >= 1000);
		s = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_usec - t0.tv_usec) / 1e6;
		printf("bench_fetch_1000: %s: %zu messages in %.3f s: "
		    "%.0f messages/s\n", pass == 0 ? "new mail" : "again",
		    n, s, (double)n / s);
	}
	printf("bench_fetch_1000: over %lu connection(s)\n",
	    mail_imap_connections(imap));
	assert_int_equal(mail_imap_connections(imap), 2);
	mail_imap_free(imap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_conf_defaults),
		cmocka_unit_test(test_smtp_to_imap_and_move),
		cmocka_unit_test(test_exact_bytes),
		cmocka_unit_test(test_move_without_move),
		cmocka_unit_test(test_move_set),
		cmocka_unit_test(test_only_new_uids),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_idle_unsupported),
		cmocka_unit_test(test_login_refused),
		cmocka_unit_test(test_imap_server_restart),
		cmocka_unit_test(test_imap_tls),
		cmocka_unit_test(test_imap_config_errors),
		cmocka_unit_test(test_smtp_reuse),
		cmocka_unit_test(test_smtp_permanent),
		cmocka_unit_test(test_smtp_server_restart),
		cmocka_unit_test(test_smtp_tls_auth),
		cmocka_unit_test(test_timeouts),
		cmocka_unit_test(bench_fetch_1000),
	};

	return cmocka_run_group_tests(tests, setup_servers,
	    teardown_servers);
}
