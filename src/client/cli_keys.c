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
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_agent.h"
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

/* The private key file of a public key file's name: without ".pub". */
static void
cli_keys_private_name(const char *path, char *buf, size_t size)
{
	size_t	n = strlen(path);

	if (n > 4 && strcmp(path + n - 4, ".pub") == 0)
		snprintf(buf, size, "%.*s", (int)(n - 4), path);
	else
		snprintf(buf, size, "PRIVATE-KEY-FILE");
}

/* Check that the agent holds a key read from a public or locked file. */
static int
cli_keys_agent(const char *path, struct cli_signer *sg, char *err,
    size_t errsize)
{
	const char	*sock = getenv("SSH_AUTH_SOCK");
	const char	*what;
	char		 fp[SIG_FINGERPRINT_SIZE], priv[4096];
	size_t		 nkeys = 0;
	int		 held;

	sig_pubkey_fingerprint(sg->pk, fp);
	if (sg->kind == SIG_KEYFILE_LOCKED) {
		what = "is protected by a passphrase";
		snprintf(priv, sizeof priv, "%s", path);
	} else {
		what = "is a public key";
		cli_keys_private_name(path, priv, sizeof priv);
	}
	if (sock == NULL || sock[0] == '\0')
		return errbuf_set(err, errsize, "%s %s: corrchess signs with "
		    "it through ssh-agent, but SSH_AUTH_SOCK is not set; start "
		    "an agent (eval \"$(ssh-agent)\") and add the key (ssh-add "
		    "%s), or give -k an unencrypted private key", path, what,
		    priv);
	if (strlen(sock) >= sizeof sg->sock)
		return errbuf_set(err, errsize, "SSH_AUTH_SOCK=%s: the socket's "
		    "name is too long", sock);
	memcpy(sg->sock, sock, strlen(sock) + 1);
	if ((held = cli_agent_holds(sg->sock, sg->pk, &nkeys, err, errsize)) == -1)
		return -1;
	if (held == 0 && nkeys == 0)
		/* A locked agent lists no keys either. */
		return errbuf_set(err, errsize, "%s %s, and ssh-agent (at %s) "
		    "does not hold its key %s (it holds no keys, or is locked: "
		    "'ssh-add -X' unlocks it): add it with 'ssh-add %s'", path,
		    what, sock, fp, priv);
	if (held == 0)
		return errbuf_set(err, errsize, "%s %s, and ssh-agent (at %s) "
		    "does not hold its key %s (it holds %zu key%s): add it with "
		    "'ssh-add %s'", path, what, sock, fp, nkeys,
		    nkeys == 1 ? "" : "s", priv);
	return 0;
}

/* Open a key file for signing. */
int
cli_keys_open(const char *path, struct cli_signer *sg, char *err,
    size_t errsize)
{
	enum sig_error	e = SIG_OK;

	memset(sg, 0, sizeof *sg);
	if (sig_keyfile_read(path, &sg->kind, sg->sk, sg->pk, &e) == -1) {
		if (e == SIG_EIO && errno == ENOENT)
			return errbuf_set(err, errsize, "no key file %s (make "
			    "one with 'corrchess keygen', or give -k FILE)",
			    path);
		if (e == SIG_EIO)
			return errbuf_set(err, errsize, "%s: %s", path,
			    strerror(errno));
		return errbuf_set(err, errsize, "%s: %s", path,
		    sig_strerror(e));
	}
	if (sg->kind == SIG_KEYFILE_SECRET)
		return 0;
	return cli_keys_agent(path, sg, err, errsize);
}

/* Sign a statement with the signer's key. */
int
cli_keys_sign(const struct cli_signer *sg, const struct sig_statement *st,
    enum sig_form form, char *buf, size_t size, char *err, size_t errsize)
{
	enum sig_error	e = SIG_OK;
	uint8_t		tbs[SIG_TBS_MAX], sig[SIG_SIGNATURE_BYTES];
	size_t		n = 0;

	if (sig_statement_tbs(st, form, tbs, sizeof tbs, &n, &e) == -1)
		return errbuf_set(err, errsize, "cannot sign: %s",
		    sig_strerror(e));
	if (sg->kind == SIG_KEYFILE_SECRET) {
		if (sig_sign(tbs, n, sg->sk, sig) != 0)
			return errbuf_set(err, errsize, "cannot sign: %s",
			    sig_strerror(SIG_ECRYPTO));
	} else if (cli_agent_sign(sg->sock, sg->pk, tbs, n, sig, err,
	    errsize) == -1)
		return -1;
	if (sig_statement_signed(st, form, sg->pk, sig, buf, size, &e) == -1)
		return errbuf_set(err, errsize, "cannot sign: %s",
		    sig_strerror(e));
	return 0;
}

/* Wipe a signer. */
void
cli_keys_close(struct cli_signer *sg)
{
	sodium_memzero(sg, sizeof *sg);
}

/* Build and check a statement. */
int
cli_keys_statement(struct sig_statement *st, uint64_t game, uint64_t ply,
    const char *player, const char *action, const char *message, char *err,
    size_t errsize)
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
	if (message != NULL) {
		if ((e = sig_message_check(message)) != SIG_OK)
			return errbuf_set(err, errsize, "%s", sig_strerror(e));
		if (!SIG_ACT_TAKES_MESSAGE(st->action.kind))
			return errbuf_set(err, errsize, "%s",
			    sig_strerror(SIG_EMESSAGE_ACTION));
		memcpy(st->message, message, strlen(message) + 1);
	}
	if (sig_statement_build(st, &e) == -1) {
		if (e == SIG_EPLAYER)
			return errbuf_set(err, errsize, "player name '%s': %s "
			    "(a to z in lower case, 0 to 9, '_', '.', '-')",
			    player, sig_strerror(e));
		return errbuf_set(err, errsize, "%s", sig_strerror(e));
	}
	return 0;
}
