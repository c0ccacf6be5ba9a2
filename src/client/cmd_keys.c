/*
 * client/cmd_keys.c: corrchess keygen and corrchess sign.
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
 * Keys and statements on the player's side: `corrchess keygen` makes a key
 * pair in OpenSSH's format, `corrchess sign` prints a signed statement.
 */

#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_keys.h"
#include "client/cmd_keys.h"
#include "sig/sig.h"

/* Create a directory and its missing parents, mode 0700. */
static int
cmd_keys_mkdirs(const char *dir, char *err, size_t errsize)
{
	char	path[4096], *p;

	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
		return errbuf_set(err, errsize, "%s: name too long", dir);
	for (p = path + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		if (p[-1] != '/') {
			char	c = *p;

			*p = '\0';
			if (mkdir(path, 0700) == -1 && errno != EEXIST)
				return errbuf_set(err, errsize,
				    "cannot create %s: %s", path,
				    strerror(errno));
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	return 0;
}

/* The default comment of a new key: user@host, as ssh-keygen writes. */
static void
cmd_keys_comment(char *buf, size_t size)
{
	const char	*user = getenv("USER");
	char		 host[256];

	if (user == NULL || user[0] == '\0')
		user = getenv("LOGNAME");
	if (gethostname(host, sizeof host) == -1)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	if (user != NULL && user[0] != '\0' && host[0] != '\0')
		snprintf(buf, size, "%s@%s", user, host);
	else
		snprintf(buf, size, "corrchess");
}

/* Option ids of keygen's and sign's own options. */
enum { OPT_FILE, OPT_COMMENT, OPT_GAME, OPT_PLY, OPT_SSH, OPT_MESSAGE };

/* What keygen was given. */
struct cmd_keys_keygen_opts {
	const char	*file;		/* -f, or NULL */
	const char	*comment;	/* -C, or NULL */
};

/* Take one of keygen's options. */
static int
cmd_keys_keygen_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cmd_keys_keygen_opts	*o = ctx;

	(void)self;
	switch (id) {
	case OPT_FILE:
		o->file = arg;
		break;
	case OPT_COMMENT:
		o->comment = arg;
		break;
	default:
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* corrchess keygen [-f FILE] [-C COMMENT] */
int
cmd_keys_keygen(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "file", 'f', 1, OPT_FILE },
		{ "comment", 'C', 1, OPT_COMMENT },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_keys_keygen_opts o = { NULL, NULL };
	uint8_t			 pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	char			 path[4096], dir[4096], err[CLI_ERR_SIZE];
	char			 comment[300], fp[SIG_FINGERPRINT_SIZE];
	char			 line[SIG_PUBKEY_LINE_SIZE + sizeof comment];
	const char		*file, *com;
	enum sig_error		 e = SIG_OK;
	int			 ind, rc;

	if ((rc = cli_options(self, argc, argv, opts, cmd_keys_keygen_option,
	    &o, &ind)) != CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	rc = CLI_EXIT_FAIL;
	file = o.file;
	com = o.comment;
	if (ind != argc)
		return cli_usage(self, "unexpected operand '%s'", argv[ind]);
	if (file != NULL && file[0] == '\0')
		return cli_usage(self, "empty file name");
	if (com != NULL && strlen(com) >= sizeof comment)
		return cli_usage(self, "comment longer than %zu bytes",
		    sizeof comment - 1);
	if (com != NULL && strpbrk(com, "\r\n") != NULL)
		return cli_usage(self, "a comment is one line");

	if (file == NULL) {
		/* The default place: create the directory if needed. */
		if (cli_conf_dir(dir, sizeof dir, err, sizeof err) == -1 ||
		    cmd_keys_mkdirs(dir, err, sizeof err) == -1 ||
		    cli_conf_default_key(path, sizeof path, err,
		    sizeof err) == -1) {
			cli_error(self, "%s", err);
			return CLI_EXIT_FAIL;
		}
	} else if (snprintf(path, sizeof path, "%s", file) >=
	    (int)sizeof path) {
		cli_error(self, "%s: name too long", file);
		return CLI_EXIT_FAIL;
	}
	if (com != NULL)
		snprintf(comment, sizeof comment, "%s", com);
	else
		cmd_keys_comment(comment, sizeof comment);

	if (sig_init() == -1 || sig_keypair(pk, sk) == -1) {
		cli_error(self, "cannot start libsodium");
		goto out;
	}
	if (sig_seckey_write(path, sk, comment, &e) == -1) {
		if (e == SIG_EEXIST)
			cli_error(self, "%s%s exists already: corrchess keygen "
			    "never overwrites a key (remove it, or give -f "
			    "ANOTHER_FILE)", path, access(path, F_OK) == 0 ?
			    "" : ".pub");
		else if (e == SIG_EIO)
			cli_error(self, "cannot write %s: %s", path,
			    strerror(errno));
		else
			cli_error(self, "cannot write %s: %s", path,
			    sig_strerror(e));
		goto out;
	}
	sig_pubkey_format(pk, comment, line, sizeof line);
	sig_pubkey_fingerprint(pk, fp);
	fprintf(stderr, "Your private key is in %s (keep it to yourself),\n"
	    "your public key in %s.pub; give the club this line:\n", path,
	    path);
	printf("%s\n", line);
	fprintf(stderr, "Its fingerprint is %s.\n", fp);
	rc = CLI_EXIT_OK;
out:
	sodium_memzero(sk, sizeof sk);
	return rc;
}

/* What sign was given besides the settings. */
struct cmd_keys_sign_opts {
	const char	*game;		/* --game, or NULL */
	const char	*ply;		/* --ply, or NULL */
	const char	*message;	/* --message, or NULL */
	enum sig_form	 form;
};

/* Take one of sign's own options. */
static int
cmd_keys_sign_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cmd_keys_sign_opts	*o = ctx;

	switch (id) {
	case OPT_GAME:
		o->game = arg;
		break;
	case OPT_PLY:
		o->ply = arg;
		break;
	case OPT_SSH:
		o->form = SIG_FORM_SSHSIG;
		break;
	case OPT_MESSAGE:
		o->message = arg;
		break;
	default:
		return CLI_EXIT_USAGE;
	}
	(void)self;
	return CLI_EXIT_OK;
}

/* corrchess sign -k KEY --game ID --ply N --player NAME [--ssh] ACTION... */
int
cmd_keys_sign(const struct cli_cmd *self, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "key", 'k', 1, CLI_CONF_OPT_KEY },
		{ "game", 'g', 1, OPT_GAME },
		{ "ply", 'n', 1, OPT_PLY },
		{ "player", 'p', 1, CLI_CONF_OPT_PLAYER },
		{ "ssh", 0, 0, OPT_SSH },
		{ "message", 'm', 1, OPT_MESSAGE },
		{ NULL, 0, 0, 0 }
	};
	struct cmd_keys_sign_opts o = { NULL, NULL, NULL, SIG_FORM_RAW };
	struct cli_conf		 cf;
	struct sig_statement	 st;
	struct cli_signer	 sg;
	char			 err[CLI_ERR_SIZE], keypath[4096];
	char			 out[SIG_SIGNED_SIZE];
	char			*action = NULL;
	uint64_t		 game, ply;
	int			 ind, rc;

	memset(&sg, 0, sizeof sg);
	if ((rc = cli_conf_options(self, argc, argv, opts, &cf,
	    cmd_keys_sign_option, &o, &ind)) != CLI_EXIT_OK)
		goto out;
	if (o.game == NULL || o.ply == NULL) {
		rc = cli_usage(self, "--game and --ply are needed");
		goto out;
	}
	if (cli_conf_number(o.game, SIG_GAME_MAX, &game) == -1 || game == 0) {
		rc = cli_usage(self, "--game %s: not a game number", o.game);
		goto out;
	}
	if (cli_conf_number(o.ply, SIG_PLY_MAX, &ply) == -1) {
		rc = cli_usage(self, "--ply %s: not a number of half-moves",
		    o.ply);
		goto out;
	}
	if (cf.player == NULL) {
		rc = cli_usage(self, "no player name: give --player NAME, or "
		    "set 'player =' in the configuration file");
		goto out;
	}
	if (ind == argc) {
		rc = cli_usage(self, "no action given");
		goto out;
	}
	if ((action = cli_join(argc - ind, argv + ind)) == NULL) {
		snprintf(err, sizeof err, "out of memory");
		goto fail;
	}

	if (cli_keys_path(cf.key, keypath, sizeof keypath, err,
	    sizeof err) == -1)
		goto fail;
	if (cli_keys_statement(&st, game, ply, cf.player, action, o.message,
	    err, sizeof err) == -1 ||
	    cli_keys_open(keypath, &sg, err, sizeof err) == -1 ||
	    cli_keys_sign(&sg, &st, o.form, out, sizeof out, err,
	    sizeof err) == -1)
		goto fail;
	fputs(out, stdout);
	rc = CLI_EXIT_OK;
	goto out;
fail:
	cli_error(self, "%s", err);
	rc = CLI_EXIT_FAIL;
out:
	cli_keys_close(&sg);
	free(action);
	cli_conf_free(&cf);
	return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
}
