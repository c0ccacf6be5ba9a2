/*
 * client/cmd_admin.c: corrchess admin: the administrator's commands.
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
 * The administrator's commands: `corrchess admin backup FILE` fetches a
 * consistent copy of the server's database through the admin API
 * (POST /api/v1/admin/backup) and leaves it in FILE, complete or not at
 * all: the bytes go to a temporary file beside FILE, which is checked,
 * synced and renamed.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cmd_admin.h"
#include "sig/sig.h"

/* The first bytes of every SQLite database file. */
#define CMD_ADMIN_SQLITE_MAGIC	"SQLite format 3"

/* Seconds to wait for a connection; a transfer slower than one byte a
 * second for this long is given up. */
#define CMD_ADMIN_CONNECT_TIMEOUT	15
#define CMD_ADMIN_STALL_TIMEOUT		60

/* Most bytes of an error answer read back for its message. */
#define CMD_ADMIN_ERROR_MAX	4096

/* Option ids of the admin commands' own options. */
enum { OPT_TOKEN_FILE, OPT_DAYS, OPT_REASON };

/* What those options say. */
struct cmd_admin_opts {
	const char	*token_file;
	const char	*days;
	const char	*reason;
};

/* Read the admin token from a file: its first line, without blanks. */
static int
cmd_admin_token_file(const char *path, char **tokenp, char *err,
    size_t errsize)
{
	char	*text, *s, *e;
	size_t	 len;

	if (cli_read_file(path, &text, &len) == -1)
		return errbuf_set(err, errsize, "%s: %s", path,
		    strerror(errno));
	s = text + strspn(text, " \t\r\n");
	e = s + strcspn(s, " \t\r\n");
	*e = '\0';
	if (*s == '\0') {
		free(text);
		return errbuf_set(err, errsize,
		    "%s: no admin token in the file", path);
	}
	if ((*tokenp = strdup(s)) == NULL) {
		free(text);
		return errbuf_set(err, errsize, "out of memory");
	}
	free(text);
	return 0;
}

/*
 * Find the admin token: --token-file, else $CORRCHESS_ADMIN_TOKEN, else
 * the configuration's admin_token_file.
 */
int
cmd_admin_token(const char *token_file, const struct cli_conf *cf,
    char **tokenp, char *err, size_t errsize)
{
	const char	*env = getenv("CORRCHESS_ADMIN_TOKEN");

	if (token_file != NULL)
		return cmd_admin_token_file(token_file, tokenp, err, errsize);
	if (env != NULL && env[0] != '\0') {
		if ((*tokenp = strdup(env)) == NULL)
			return errbuf_set(err, errsize, "out of memory");
		return 0;
	}
	if (cf->admin_token_file != NULL)
		return cmd_admin_token_file(cf->admin_token_file, tokenp, err,
		    errsize);
	return errbuf_set(err, errsize, "no admin token: give --token-file "
	    "FILE, set CORRCHESS_ADMIN_TOKEN, or set admin_token_file in the "
	    "configuration");
}

/* Write the answer's bytes to the file. */
static size_t
cmd_admin_write(char *data, size_t size, size_t nmemb, void *arg)
{
	return fwrite(data, size, nmemb, arg) * size;
}

/* Read back the start of an error answer and write its reason in err. */
static void
cmd_admin_refusal(FILE *f, long status, char *err, size_t errsize)
{
	struct cli_http_reply	 r;
	char			 body[CMD_ADMIN_ERROR_MAX + 1];

	memset(&r, 0, sizeof r);
	r.status = status;
	r.len = 0;
	if (fseek(f, 0, SEEK_SET) == 0)
		r.len = fread(body, 1, CMD_ADMIN_ERROR_MAX, f);
	body[r.len] = '\0';
	r.body = body;
	if (body[0] == '{')
		r.json = json_loadb(body, r.len, 0, NULL);
	cli_http_reply_error(&r, err, errsize);
	json_decref(r.json);
}

/*
 * POST SERVER/api/v1/admin/backup with the token; the copy goes to `f`.
 * Returns 0 when the server sent a database, else -1 with the reason.
 */
static int
cmd_admin_fetch(const char *server, const char *token, FILE *f, char *err,
    size_t errsize)
{
	CURL			*curl = NULL;
	struct curl_slist	*hdrs = NULL, *h;
	char			 cerr[CURL_ERROR_SIZE], *url = NULL;
	char			*auth = NULL, magic[sizeof CMD_ADMIN_SQLITE_MAGIC];
	const char		*ctype = NULL;
	size_t			 slen;
	long			 status = 0;
	CURLcode		 cc;
	int			 rc = -1;

	cerr[0] = '\0';
	slen = strlen(server);
	while (slen > 0 && server[slen - 1] == '/')
		slen--;
	if (asprintf(&url, "%.*s/api/v1/admin/backup", (int)slen,
	    server) == -1) {
		url = NULL;
		goto oom;
	}
	if (asprintf(&auth, "Authorization: Bearer %s", token) == -1) {
		auth = NULL;
		goto oom;
	}
	if ((curl = curl_easy_init()) == NULL) {
		errbuf_set(err, errsize, "cannot start libcurl");
		goto out;
	}
	if ((h = curl_slist_append(hdrs, auth)) == NULL)
		goto oom;
	hdrs = h;
	if ((h = curl_slist_append(hdrs, "Accept: application/vnd.sqlite3, "
	    "application/json")) == NULL)
		goto oom;
	hdrs = h;

	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(curl, CURLOPT_POST, 1L);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
	curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
	cli_http_setopt_common(curl, cerr);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT,
	    (long)CMD_ADMIN_CONNECT_TIMEOUT);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME,
	    (long)CMD_ADMIN_STALL_TIMEOUT);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, cmd_admin_write);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, f);

	if ((cc = curl_easy_perform(curl)) != CURLE_OK) {
		if (cc == CURLE_WRITE_ERROR)
			errbuf_set(err, errsize, "cannot write the copy: %s",
			    strerror(errno));
		else
			errbuf_set(err, errsize, "cannot fetch the backup from "
			    "the corrchess server at %.*s: %s%s", (int)slen,
			    server,
			    cerr[0] != '\0' ? cerr : curl_easy_strerror(cc),
			    cli_http_tls_hint(cc));
		goto out;
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &ctype) !=
	    CURLE_OK)
		ctype = NULL;
	if (fflush(f) != 0) {
		errbuf_set(err, errsize, "cannot write the copy: %s",
		    strerror(errno));
		goto out;
	}
	if (status != 200) {
		cmd_admin_refusal(f, status, err, errsize);
		goto out;
	}
	if (ctype == NULL || strncasecmp(ctype, "application/vnd.sqlite3",
	    23) != 0) {
		errbuf_set(err, errsize, "the server at %.*s answered %s, not "
		    "a database", (int)slen, server, ctype != NULL ? ctype :
		    "without a content type");
		goto out;
	}
	if (fseek(f, 0, SEEK_SET) != 0 ||
	    fread(magic, 1, sizeof magic, f) != sizeof magic ||
	    memcmp(magic, CMD_ADMIN_SQLITE_MAGIC, sizeof magic) != 0) {
		errbuf_set(err, errsize, "the server at %.*s sent something "
		    "that is not an SQLite database", (int)slen, server);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	errbuf_set(err, errsize, "out of memory");
out:
	curl_slist_free_all(hdrs);
	if (curl != NULL)
		curl_easy_cleanup(curl);
	if (auth != NULL) {
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	free(url);
	return rc;
}

/* Fetch the copy into a temporary file beside `path`, then rename it. */
static int
cmd_admin_backup_to(const char *server, const char *token, const char *path,
    long *sizep, char *err, size_t errsize)
{
	FILE	*f = NULL;
	char	*tmp = NULL;
	int	 fd, rc = -1;

	if (asprintf(&tmp, "%s.partXXXXXX", path) == -1) {
		tmp = NULL;
		return errbuf_set(err, errsize, "out of memory");
	}
	if ((fd = mkstemp(tmp)) == -1) {
		errbuf_set(err, errsize, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if ((f = fdopen(fd, "w+")) == NULL) {
		errbuf_set(err, errsize, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto out;
	}
	if (cmd_admin_fetch(server, token, f, err, errsize) == -1)
		goto out;
	if (fseek(f, 0, SEEK_END) != 0 || (*sizep = ftell(f)) < 0 ||
	    fsync(fileno(f)) == -1) {
		errbuf_set(err, errsize, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fclose(f) != 0) {
		f = NULL;
		errbuf_set(err, errsize, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) == -1) {
		errbuf_set(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	if (rc == -1)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Wipe and free an admin token. */
void
cmd_admin_token_free(char *token)
{
	if (token != NULL) {
		explicit_bzero(token, strlen(token));
		free(token);
	}
}

/*
 * Find the admin token (cmd_admin_token()) and start HTTP: the token, or
 * NULL with the reason said. cmd_admin_done() stops both.
 */
static char *
cmd_admin_begin(const struct cli_cmd *self, const struct cli_conf *cf,
    const char *token_file)
{
	char	err[CLI_ERR_SIZE], *token = NULL;

	if (cmd_admin_token(token_file, cf, &token, err, sizeof err) == -1) {
		cli_error(self, "%s", err);
		return NULL;
	}
	if (cli_http_start(self) == -1) {
		cmd_admin_token_free(token);
		return NULL;
	}
	return token;
}

/* Finish an admin command: stop HTTP and wipe and free the token when
 * cmd_admin_begin() gave one, free the configuration; the exit status. */
static int
cmd_admin_done(char *token, struct cli_conf *cf, int rc)
{
	if (token != NULL) {
		cli_http_stop();
		cmd_admin_token_free(token);
	}
	cli_conf_free(cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/*
 * Send METHOD PATH with the JSON `body` as the admin (the token found as
 * cmd_admin_token() finds it). CLI_EXIT_OK when the server answered
 * `want` and each member `need` names (NULL-ended) is a string in its
 * answer, in *r (the caller frees it); else CLI_EXIT_FAIL with the reason
 * said.
 */
static int
cmd_admin_call(const struct cli_cmd *self, const struct cli_conf *cf,
    const char *token_file, const char *method, const char *path,
    const char *body, long want, const char *const *need,
    struct cli_http_reply *r)
{
	char	err[CLI_ERR_SIZE], *token;
	size_t	i = 0;
	int	rc = CLI_EXIT_FAIL;

	if ((token = cmd_admin_begin(self, cf, token_file)) == NULL)
		return CLI_EXIT_FAIL;
	if (cli_http_request_as(cf->server, token, method, path, NULL, body,
	    strlen(body), "application/json", r, err, sizeof err) == -1) {
		cli_error(self, "%s", err);
		goto out;
	}
	if (r->status == want)
		while (need[i] != NULL &&
		    cli_http_json_str(r->json, need[i]) != NULL)
			i++;
	if (r->status != want || need[i] != NULL) {
		cli_http_reply_error(r, err, sizeof err);
		cli_error(self, "%s", err);
		goto out;
	}
	rc = CLI_EXIT_OK;
out:
	cli_http_stop();
	cmd_admin_token_free(token);
	return rc;
}

/* Take the admin commands' own options, --token-file and --days. */
static int
cmd_admin_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cmd_admin_opts	*o = ctx;

	(void)self;
	if (id == OPT_TOKEN_FILE)
		o->token_file = arg;
	else if (id == OPT_DAYS)
		o->days = arg;
	else if (id == OPT_REASON)
		o->reason = arg;
	else
		return CLI_EXIT_USAGE;
	return CLI_EXIT_OK;
}

/* corrchess admin backup [-s URL] [-t FILE] FILE */
static int
cmd_admin_backup(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "token-file", 't', 1, OPT_TOKEN_FILE },
		{ NULL, 0, 0, 0 },
	};
	struct cli_conf		 cf;
	struct cmd_admin_opts	 o = { NULL, NULL, NULL };
	char			 err[CLI_ERR_SIZE], *token = NULL;
	long			 size = 0;
	int			 ind, rc;

	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_admin_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (argc - ind != 1) {
		rc = cli_usage(self, "backup: name one FILE");
		goto out;
	}
	if ((token = cmd_admin_begin(self, &cf, o.token_file)) == NULL)
		goto out;
	if (cmd_admin_backup_to(cf.server, token, argv[ind], &size, err,
	    sizeof err) == -1) {
		cli_error(self, "%s", err);
		goto out;
	}
	printf("%s: %ld bytes, a copy of the database of %s\n", argv[ind],
	    size, cf.server);
	rc = CLI_EXIT_OK;
out:
	return cmd_admin_done(token, &cf, rc);
}

/* corrchess admin invite [-s URL] [-t FILE] [--days N] NAME: print a
 * one-time link with which NAME's browser registers its key. */
static int
cmd_admin_invite(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "token-file", 't', 1, OPT_TOKEN_FILE },
		{ "days", 0, 1, OPT_DAYS },
		{ NULL, 0, 0, 0 },
	};
	static const char *const need[] = { "path", "expires", NULL };
	struct cli_conf		 cf;
	struct cli_http_reply	 r;
	struct cmd_admin_opts	 o = { NULL, NULL, NULL };
	char			*end, path[128], body[64];
	size_t			 slen;
	long			 days = 0;
	int			 ind, rc;

	memset(&r, 0, sizeof r);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_admin_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	if (argc - ind != 1) {
		rc = cli_usage(self, "invite: name one player");
		goto out;
	}
	if (o.days != NULL && ((days = strtol(o.days, &end, 10)) < 1 ||
	    days > 90 || *end != '\0')) {
		rc = cli_usage(self, "invite: --days takes 1 to 90");
		goto out;
	}
	snprintf(path, sizeof path, "/api/v1/players/%s/invitations",
	    argv[ind]);
	snprintf(body, sizeof body, days > 0 ? "{\"days\":%ld}" : "{}", days);
	if ((rc = cmd_admin_call(self, &cf, o.token_file, "POST", path, body,
	    201, need, &r)) != CLI_EXIT_OK)
		goto out;
	slen = strlen(cf.server);
	while (slen > 0 && cf.server[slen - 1] == '/')
		slen--;
	printf("An invitation for %s, for one browser, until %s:\n%.*s%s\n",
	    argv[ind], cli_http_json_str(r.json, "expires"), (int)slen,
	    cf.server, cli_http_json_str(r.json, "path"));
out:
	cli_http_reply_free(&r);
	return cmd_admin_done(NULL, &cf, rc);
}

/*
 * corrchess admin abort [-s URL] [-t FILE] --reason TEXT GAME
 * corrchess admin adjudicate [-s URL] [-t FILE] --reason TEXT GAME RESULT
 * End a game by the admin's decision; `argv[0]` names which.
 */
static int
cmd_admin_end(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "server", 's', 1, CLI_CONF_OPT_SERVER },
		{ "token-file", 't', 1, OPT_TOKEN_FILE },
		{ "reason", 'r', 1, OPT_REASON },
		{ NULL, 0, 0, 0 },
	};
	static const char *const need[] = { "result", NULL };
	struct cli_conf		 cf;
	struct cli_http_reply	 r;
	struct cmd_admin_opts	 o = { NULL, NULL, NULL };
	bool			 aborting = strcmp(argv[0], "abort") == 0;
	const char		*term;
	char			*body = NULL, path[96];
	uint64_t		 id;
	json_t			*j;
	int			 ind, rc;

	memset(&r, 0, sizeof r);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_admin_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	if (argc - ind != (aborting ? 1 : 2) ||
	    cli_conf_number(argv[ind], SIG_GAME_MAX, &id) == -1 || id == 0) {
		rc = cli_usage(self, aborting ? "abort: name one GAME number" :
		    "adjudicate: name a GAME number and its RESULT (1-0, "
		    "0-1, 1/2-1/2)");
		goto out;
	}
	if (o.reason == NULL || *o.reason == '\0') {
		rc = cli_usage(self, "%s: give --reason TEXT: the players read "
		    "it, and it stays in the game's record", argv[0]);
		goto out;
	}
	rc = CLI_EXIT_FAIL;
	j = aborting ? json_pack("{s:s}", "reason", o.reason) :
	    json_pack("{s:s,s:s}", "result", argv[ind + 1], "reason",
	    o.reason);
	body = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (body == NULL) {
		cli_error(self, "%s: the reason is not UTF-8 text", argv[0]);
		goto out;
	}
	snprintf(path, sizeof path, "/api/v1/games/%llu/%s",
	    (unsigned long long)id, argv[0]);
	if ((rc = cmd_admin_call(self, &cf, o.token_file, "POST", path, body,
	    200, need, &r)) != CLI_EXIT_OK)
		goto out;
	term = cli_http_json_str(r.json, "termination");
	printf("game %llu: %s, %s; both players are told\n",
	    (unsigned long long)id, cli_http_json_str(r.json, "result"),
	    term != NULL ? term : "");
out:
	free(body);
	cli_http_reply_free(&r);
	return cmd_admin_done(NULL, &cf, rc);
}

/* corrchess admin ACTION ...: run the administrator's ACTION. */
int
cmd_admin(const struct cli_cmd *self, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage(self, "name an action: backup, invite, abort, "
		    "adjudicate");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return cli_help(self);
	if (strcmp(argv[1], "backup") == 0)
		return cmd_admin_backup(self, argc - 1, argv + 1);
	if (strcmp(argv[1], "invite") == 0)
		return cmd_admin_invite(self, argc - 1, argv + 1);
	if (strcmp(argv[1], "abort") == 0 ||
	    strcmp(argv[1], "adjudicate") == 0)
		return cmd_admin_end(self, argc - 1, argv + 1);
	return cli_usage(self, "unknown action '%s' (known: backup, invite, "
	    "abort, adjudicate)", argv[1]);
}
