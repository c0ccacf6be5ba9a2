/*
 * client/cmd_self.c: corrchess key and corrchess settings: a player's own
 * keys and settings, by signed statement.
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
 * Each command signs one statement about the player ("game: 0", the ply
 * the server gives with the player's keys) and posts it to
 * /api/v1/players/NAME/actions; the answer is the player's settings.
 */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"
#include "client/cli_keys.h"
#include "client/cmd_self.h"
#include "sig/sig.h"
#include "util/buf.h"

/* The options of both commands. */
static const struct cli_option self_opts[] = {
	{ "server", 's', 1, CLI_CONF_OPT_SERVER },
	{ "key", 'k', 1, CLI_CONF_OPT_KEY },
	{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
	{ NULL, 0, 0, 0 }
};

/* Take no option of our own. */
static int
self_option(const struct cli_cmd *self, int id, const char *arg, void *ctx)
{
	(void)self;
	(void)id;
	(void)arg;
	(void)ctx;
	return CLI_EXIT_USAGE;
}

/* Print a member of the settings as "name: value". */
static void
self_print_member(const json_t *j, const char *key, const char *name)
{
	const json_t	*v = json_object_get(j, key);

	if (json_is_string(v))
		printf("%-12s %s\n", name, json_string_value(v));
	else if (json_is_boolean(v))
		printf("%-12s %s\n", name, json_is_true(v) ? "on" : "off");
	else if (json_is_integer(v))
		printf("%-12s %lld\n", name, (long long)json_integer_value(v));
	else if (json_is_null(v) && strcmp(key, "digest_hour") == 0)
		printf("%-12s any\n", name);
}

/* Print the server's answer: what was done, the settings, the keys. */
static void
self_print(const json_t *j)
{
	const json_t	*keys = json_object_get(j, "keys"), *k, *pending;
	const char	*msg = json_string_value(json_object_get(j, "message"));
	size_t		 i;

	if (msg != NULL && strcmp(msg, "your settings") != 0)
		printf("%s\n\n", msg);
	self_print_member(j, "name", "player:");
	self_print_member(j, "email", "email:");
	pending = json_object_get(j, "email_pending");
	if (json_is_string(pending))
		printf("%-12s %s (waiting for the code mailed to it)\n", "",
		    json_string_value(pending));
	self_print_member(j, "lang", "lang:");
	self_print_member(j, "move_mail", "move-mail:");
	self_print_member(j, "reminders", "reminders:");
	self_print_member(j, "digest", "digest:");
	self_print_member(j, "digest_hour", "digest-hour:");
	json_array_foreach(keys, i, k) {
		printf("key %lld:%*s%s%s%s\n",
		    (long long)json_integer_value(json_object_get(k, "id")), 4,
		    "", json_string_value(json_object_get(k, "fingerprint")),
		    json_is_string(json_object_get(k, "revoked")) ?
		    " revoked " : "",
		    json_is_string(json_object_get(k, "revoked")) ?
		    json_string_value(json_object_get(k, "revoked")) : "");
	}
}

/* Sign `action` about the player, post it, print the answer. */
static int
self_submit(const struct cli_cmd *self, const struct cli_conf *cf,
    const char *action)
{
	struct cli_http_reply	 r = { 0 };
	struct sig_statement	 st;
	struct cli_signer	 sg;
	json_t			*ply;
	char			 err[CLI_ERR_SIZE], keypath[4096], path[96];
	char			 signed_text[SIG_SIGNED_SIZE];
	int			 rc = CLI_EXIT_FAIL;

	memset(&sg, 0, sizeof sg);
	if (cf->player == NULL)
		return cli_usage(self, "no player name: give -p NAME, or set "
		    "'player =' in the configuration file");
	if (cli_keys_path(cf->key, keypath, sizeof keypath, err,
	    sizeof err) == -1 || cli_keys_open(keypath, &sg, err,
	    sizeof err) == -1)
		goto fail;
	if (cli_http_start(self) == -1)
		return CLI_EXIT_FAIL;
	/* The ply of the player's next statement comes with their keys. */
	snprintf(path, sizeof path, "/api/v1/players/%s/keys", cf->player);
	if (cli_http_request(cf->server, "GET", path, NULL, 0, NULL, &r, err,
	    sizeof err) == -1)
		goto fail;
	if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		goto fail;
	}
	ply = json_object_get(r.json, "ply");
	if (!json_is_integer(ply)) {
		snprintf(err, sizeof err, "the server gave no ply for %s's "
		    "statements (an older server?)", cf->player);
		goto fail;
	}
	if (cli_keys_statement(&st, 0, (uint64_t)json_integer_value(ply),
	    cf->player, action, NULL, err, sizeof err) == -1 ||
	    cli_keys_sign(&sg, &st, SIG_FORM_RAW, signed_text,
	    sizeof signed_text, err, sizeof err) == -1)
		goto fail;
	cli_http_reply_free(&r);
	snprintf(path, sizeof path, "/api/v1/players/%s/actions", cf->player);
	if (cli_http_request(cf->server, "POST", path, signed_text,
	    strlen(signed_text), "text/plain; charset=utf-8", &r, err,
	    sizeof err) == -1)
		goto fail;
	if (r.status != 200) {
		cli_http_reply_error(&r, err, sizeof err);
		goto fail;
	}
	self_print(r.json);
	rc = CLI_EXIT_OK;
	goto out;
 fail:
	cli_error(self, "%s", err);
 out:
	cli_keys_close(&sg);
	cli_http_reply_free(&r);
	cli_http_stop();
	return rc;
}

/* Read a public key given as a file (its first line) or as the text. */
static char *
self_key_text(const char *arg)
{
	FILE	*f;
	char	 line[1024], *p, *sp;

	if ((f = fopen(arg, "r")) == NULL)
		return strdup(arg);
	p = fgets(line, sizeof line, f);
	fclose(f);
	if (p == NULL)
		return strdup("");
	line[strcspn(line, "\r\n")] = '\0';
	/* An OpenSSH line too long with its comment goes without it. */
	if (strlen(line) > SIG_VALUE_MAX && strncmp(line, "ssh-ed25519 ",
	    12) == 0 && (sp = strchr(line + 12, ' ')) != NULL)
		*sp = '\0';
	return strdup(line);
}

/* corrchess key add|revoke [-s URL] [-k KEY] [-p NAME] ARG */
int
cmd_self_key(const struct cli_cmd *self, int argc, char **argv)
{
	struct cli_conf	 cf;
	char		*key = NULL, *action = NULL;
	bool		 add;
	int		 ind, rc;

	memset(&cf, 0, sizeof cf);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		return cli_help(self);
	if (argc < 2 || (strcmp(argv[1], "add") != 0 &&
	    strcmp(argv[1], "revoke") != 0))
		return cli_usage(self, "give add PUBKEY (a .pub file or its "
		    "line) or revoke FINGERPRINT|ID");
	add = strcmp(argv[1], "add") == 0;
	if ((rc = cli_conf_options(self, argc - 1, argv + 1, self_opts, &cf,
	    self_option, NULL, &ind)) != CLI_EXIT_OK)
		goto out;
	if (argc - 1 - ind != 1) {
		rc = cli_usage(self, add ? "give the new public key (a .pub "
		    "file or its line)" : "give the key's fingerprint "
		    "(SHA256:...) or its id");
		goto out;
	}
	if (add) {
		if ((key = self_key_text(argv[1 + ind])) == NULL ||
		    asprintf(&action, "add-key %s", key) == -1)
			action = NULL;
	} else if (asprintf(&action, "revoke-key %s", argv[1 + ind]) == -1)
		action = NULL;
	if (action == NULL) {
		cli_error(self, "out of memory");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = self_submit(self, &cf, action);
 out:
	free(key);
	free(action);
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}

/*
 * Make the action that sets the Xfcc password: the password given, or
 * read from the first line of standard input for "-", is hashed here
 * (Argon2id, libsodium's interactive limits, as the server hashes), so
 * the signed statement and the player's record hold only the hash.
 */
static int
xfcc_password_action(const struct cli_cmd *self, const char *given,
    char **action)
{
	char	line[256], hash[crypto_pwhash_STRBYTES];
	size_t	n;
	int	rc = CLI_EXIT_FAIL;

	*action = NULL;
	snprintf(line, sizeof line, "%s", given);
	if (strcmp(given, "-") == 0 &&
	    fgets(line, sizeof line, stdin) == NULL) {
		cli_error(self, "no password on standard input");
		goto out;
	}
	line[strcspn(line, "\r\n")] = '\0';
	n = strlen(line);
	if (n < 8 || n > 128) {
		cli_error(self, "an Xfcc password has 8 to 128 bytes");
		goto out;
	}
	if (sodium_init() < 0 || crypto_pwhash_str(hash, line, n,
	    crypto_pwhash_OPSLIMIT_INTERACTIVE,
	    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		cli_error(self, "out of memory hashing the password");
		goto out;
	}
	if (asprintf(action, "set xfcc-password %s", hash) == -1) {
		*action = NULL;
		cli_error(self, "out of memory");
		goto out;
	}
	rc = CLI_EXIT_OK;
 out:
	sodium_memzero(line, sizeof line);
	sodium_memzero(hash, sizeof hash);
	return rc;
}

/* corrchess settings [-s URL] [-k KEY] [-p NAME] [NAME VALUE | email
 * ADDRESS | confirm-email CODE] */
int
cmd_self_settings(const struct cli_cmd *self, int argc, char **argv)
{
	struct cli_conf	 cf;
	char		*action = NULL;
	int		 ind, rc, n;

	memset(&cf, 0, sizeof cf);
	if ((rc = cli_conf_options(self, argc, argv, self_opts, &cf,
	    self_option, NULL, &ind)) != CLI_EXIT_OK)
		goto out;
	n = argc - ind;
	if (n != 0 && n != 2) {
		rc = cli_usage(self, "give nothing (to read your settings), "
		    "NAME VALUE, email ADDRESS or confirm-email CODE");
		goto out;
	}
	if (n == 0)
		action = strdup("show-settings");
	else if (strcmp(argv[ind], "email") == 0 ||
	    strcmp(argv[ind], "confirm-email") == 0) {
		if (asprintf(&action, "%s %s", argv[ind], argv[ind + 1]) == -1)
			action = NULL;
	} else if (strcmp(argv[ind], "xfcc-password") == 0 &&
	    strcmp(argv[ind + 1], "none") != 0) {
		if ((rc = xfcc_password_action(self, argv[ind + 1],
		    &action)) != CLI_EXIT_OK)
			goto out;
	} else if (asprintf(&action, "set %s %s", argv[ind],
	    argv[ind + 1]) == -1)
		action = NULL;
	if (action == NULL) {
		cli_error(self, "out of memory");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = self_submit(self, &cf, action);
 out:
	free(action);
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
