/*
 * client/cli_keys.c: the player's key file and statements, for signing.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* See cli_keys.h; the keygen and sign commands are in cmd_keys.c. */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_keys.h"
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
	if (game > SIG_GAME_MAX)
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
