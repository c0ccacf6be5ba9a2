/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * Keys and statements on the player's side: `corrchess keygen` and
 * `corrchess sign`, and the helpers the game commands sign with.
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
#include "sig/sig.h"

/* Find the signing key and start libsodium. */
int
cli_keys_path(const char *key, char *keypath, size_t size, char *err,
    size_t errsize)
{
	if (key != NULL)
		snprintf(keypath, size, "%s", key);
	else if (cli_conf_default_key(keypath, size, err, errsize) == -1)
		return -1;
	if (sig_init() == -1)
		return errbuf_set(err, errsize, "cannot start libsodium");
	return 0;
}

/* Read a secret key file. */
int
cli_keys_load(const char *path, uint8_t sk[SIG_SECKEY_BYTES], char *err,
    size_t errsize)
{
	enum sig_error	e = SIG_OK;
	size_t		n = strlen(path);

	if (sig_seckey_read(path, sk, &e) == 0)
		return 0;
	switch (e) {
	case SIG_EIO:
		if (errno == ENOENT)
			return errbuf_set(err, errsize, "no key file %s (make "
			    "one with 'corrchess keygen', or give -k FILE)",
			    path);
		return errbuf_set(err, errsize, "%s: %s", path,
		    strerror(errno));
	case SIG_EKEY_ENCRYPTED:
		return errbuf_set(err, errsize, "%s: the key is protected by "
		    "a passphrase, which corrchess cannot read; sign with "
		    "'ssh-keygen -Y sign -n corrchess' instead", path);
	case SIG_EKEY_FORMAT:
		if (n > 4 && strcmp(path + n - 4, ".pub") == 0)
			return errbuf_set(err, errsize, "%s is a public key: "
			    "give the private key file", path);
		/* FALLTHROUGH */
	default:
		return errbuf_set(err, errsize, "%s: %s", path,
		    sig_strerror(e));
	}
}

/* Build and check a statement. */
int
cli_keys_statement(struct sig_statement *st, uint64_t game, uint64_t ply,
    const char *player, const char *action, char *err, size_t errsize)
{
	enum sig_error	e = SIG_OK;
	size_t		len = strlen(action);

	memset(st, 0, sizeof *st);
	if (game == 0 || game > SIG_GAME_MAX)
		return errbuf_set(err, errsize, "game %llu: not a game number",
		    (unsigned long long)game);
	if (ply > SIG_PLY_MAX)
		return errbuf_set(err, errsize, "ply %llu: too large",
		    (unsigned long long)ply);
	if (strlen(player) > SIG_PLAYER_MAX)
		return errbuf_set(err, errsize, "player name '%s': longer "
		    "than %d characters", player, SIG_PLAYER_MAX);
	if (len == 0)
		return errbuf_set(err, errsize, "no action given");
	if (len > SIG_ACTION_MAX)
		return errbuf_set(err, errsize, "action '%s': longer than %d "
		    "bytes", action, SIG_ACTION_MAX);
	st->game = game;
	st->ply = (uint32_t)ply;
	memcpy(st->player, player, strlen(player) + 1);
	if (sig_action_parse(action, len, &st->action, &e) == -1)
		return errbuf_set(err, errsize, "action '%s': %s", action,
		    sig_strerror(e));
	if (sig_statement_build(st, &e) == -1) {
		if (e == SIG_EPLAYER)
			return errbuf_set(err, errsize, "player name '%s': %s "
			    "(a to z in lower case, 0 to 9, '_', '.', '-')",
			    player, sig_strerror(e));
		return errbuf_set(err, errsize, "%s", sig_strerror(e));
	}
	return 0;
}

/* Sign a statement with the key of a file. */
int
cli_keys_sign_statement(const char *keypath, const struct sig_statement *st,
    enum sig_form form, char *buf, size_t size, char *err, size_t errsize)
{
	uint8_t		sk[SIG_SECKEY_BYTES];
	enum sig_error	e = SIG_OK;
	int		rc = -1;

	if (cli_keys_load(keypath, sk, err, errsize) == -1)
		goto out;
	if (sig_statement_sign(st, sk, form, buf, size, &e) == -1) {
		errbuf_set(err, errsize, "cannot sign: %s", sig_strerror(e));
		goto out;
	}
	rc = 0;
out:
	sodium_memzero(sk, sizeof sk);
	return rc;
}

/* Join words with single spaces. */
char *
cli_keys_join(int argc, char **argv)
{
	size_t	len = 1;
	char	*s;
	int	i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if ((s = malloc(len)) == NULL)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Create a directory and its missing parents, mode 0700. */
static int
cli_keys_mkdirs(const char *dir, char *err, size_t errsize)
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
cli_keys_comment(char *buf, size_t size)
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

/* corrchess keygen [-f FILE] [-C COMMENT] */
int
cli_keys_keygen(const struct cli_cmd *self, int argc, char **argv)
{
	enum { OPT_FILE, OPT_COMMENT };
	static const struct cli_option opts[] = {
		{ "file", 'f', 1, OPT_FILE },
		{ "comment", 'C', 1, OPT_COMMENT },
		{ NULL, 0, 0, 0 }
	};
	struct cli_getopt	 go;
	uint8_t			 pk[SIG_PUBKEY_BYTES], sk[SIG_SECKEY_BYTES];
	char			 path[4096], dir[4096], err[CLI_ERR_SIZE];
	char			 comment[300], fp[SIG_FINGERPRINT_SIZE];
	char			 line[SIG_PUBKEY_LINE_SIZE + sizeof comment];
	const char		*file = NULL, *com = NULL;
	enum sig_error		 e = SIG_OK;
	int			 c, rc = CLI_EXIT_FAIL;

	cli_getopt_init(&go, self, argc, argv);
	while ((c = cli_getopt(&go, opts)) != CLI_OPT_END) {
		switch (c) {
		case OPT_FILE:
			file = go.arg;
			break;
		case OPT_COMMENT:
			com = go.arg;
			break;
		case CLI_OPT_HELP:
			return cli_help(self);
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (go.ind != argc)
		return cli_usage(self, "unexpected operand '%s'",
		    argv[go.ind]);
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
		    cli_keys_mkdirs(dir, err, sizeof err) == -1 ||
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
		cli_keys_comment(comment, sizeof comment);

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

/* corrchess sign -k KEY --game ID --ply N --player NAME [--ssh] ACTION... */
int
cli_keys_sign(const struct cli_cmd *self, int argc, char **argv)
{
	enum { OPT_KEY, OPT_GAME, OPT_PLY, OPT_PLAYER, OPT_SSH };
	static const struct cli_option opts[] = {
		{ "key", 'k', 1, OPT_KEY },
		{ "game", 'g', 1, OPT_GAME },
		{ "ply", 'n', 1, OPT_PLY },
		{ "player", 'p', 1, OPT_PLAYER },
		{ "ssh", 0, 0, OPT_SSH },
		{ NULL, 0, 0, 0 }
	};
	struct cli_getopt	 go;
	struct cli_conf		 cf;
	struct sig_statement	 st;
	char			 err[CLI_ERR_SIZE], keypath[4096];
	char			 out[SIG_SIGNED_SIZE];
	char			*action = NULL;
	const char		*game_s = NULL, *ply_s = NULL;
	uint64_t		 game, ply;
	enum sig_form		 form = SIG_FORM_RAW;
	int			 c, rc = CLI_EXIT_FAIL;

	if (cli_conf_start(self, &cf) == -1)
		return CLI_EXIT_FAIL;
	cli_getopt_init(&go, self, argc, argv);
	while ((c = cli_getopt(&go, opts)) != CLI_OPT_END) {
		switch (c) {
		case OPT_KEY:
			if (cli_conf_set(&cf.key, go.arg) == -1)
				goto oom;
			break;
		case OPT_GAME:
			game_s = go.arg;
			break;
		case OPT_PLY:
			ply_s = go.arg;
			break;
		case OPT_PLAYER:
			if (cli_conf_set(&cf.player, go.arg) == -1)
				goto oom;
			break;
		case OPT_SSH:
			form = SIG_FORM_SSHSIG;
			break;
		case CLI_OPT_HELP:
			rc = cli_help(self);
			goto out;
		default:
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (game_s == NULL || ply_s == NULL) {
		rc = cli_usage(self, "--game and --ply are needed");
		goto out;
	}
	if (cli_conf_number(game_s, SIG_GAME_MAX, &game) == -1 || game == 0) {
		rc = cli_usage(self, "--game %s: not a game number", game_s);
		goto out;
	}
	if (cli_conf_number(ply_s, SIG_PLY_MAX, &ply) == -1) {
		rc = cli_usage(self, "--ply %s: not a number of half-moves",
		    ply_s);
		goto out;
	}
	if (cf.player == NULL) {
		rc = cli_usage(self, "no player name: give --player NAME, or "
		    "set 'player =' in the configuration file");
		goto out;
	}
	if (go.ind == argc) {
		rc = cli_usage(self, "no action given");
		goto out;
	}
	if ((action = cli_keys_join(argc - go.ind, argv + go.ind)) == NULL)
		goto oom;

	if (cli_keys_path(cf.key, keypath, sizeof keypath, err,
	    sizeof err) == -1)
		goto fail;
	if (cli_keys_statement(&st, game, ply, cf.player, action, err,
	    sizeof err) == -1 ||
	    cli_keys_sign_statement(keypath, &st, form, out, sizeof out, err,
	    sizeof err) == -1)
		goto fail;
	fputs(out, stdout);
	rc = CLI_EXIT_OK;
	goto out;
oom:
	snprintf(err, sizeof err, "out of memory");
fail:
	cli_error(self, "%s", err);
	rc = CLI_EXIT_FAIL;
out:
	free(action);
	cli_conf_free(&cf);
	return rc;
}
