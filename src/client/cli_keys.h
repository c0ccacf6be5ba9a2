/*
 * client/cli_keys.h: the player's key file and statements, for signing.
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
 * What the commands that sign use (cli_keys.c): finding and reading the
 * key file, building a statement as the server checks it, and signing it,
 * with the key itself or through ssh-agent (cli_agent.h). Every function writes a sentence for the user into `err`
 * (size `errsize`) when it fails; nothing here prints or exits.
 */

#ifndef CORRCHESS_CLI_KEYS_H
#define CORRCHESS_CLI_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "sig/sig.h"

/*
 * A key to sign with: read from its file (SIG_KEYFILE_SECRET), or held by
 * ssh-agent when the file is a public key or a private key protected by a
 * passphrase (SIG_KEYFILE_PUBLIC, SIG_KEYFILE_LOCKED). A plain value,
 * filled by cli_keys_open() and wiped by cli_keys_close().
 */
struct cli_signer {
	enum sig_keyfile_kind	kind;
	uint8_t			sk[SIG_SECKEY_BYTES];	/* SECRET only */
	uint8_t			pk[SIG_PUBKEY_BYTES];
	char			sock[108];	/* the agent's SSH_AUTH_SOCK */
};

/*
 * Open the key of file `path` for signing: a secret key file (ours or an
 * unencrypted OpenSSH Ed25519 key) is read; for a public key file or a
 * passphrase-protected key, the agent of SSH_AUTH_SOCK must hold the key,
 * which is asked now, before anything is sent. Returns 0, or -1 with a
 * sentence naming the file (missing, another key type, no agent, the
 * agent lacks the key: its fingerprint and 'ssh-add'...).
 */
int cli_keys_open(const char *path, struct cli_signer *sg, char *err,
    size_t errsize);

/*
 * Sign `st` with the signer's key and write the signed text, NUL-
 * terminated, into buf (SIG_SIGNED_SIZE is enough). 0 or -1.
 */
int cli_keys_sign(const struct cli_signer *sg, const struct sig_statement *st,
    enum sig_form form, char *buf, size_t size, char *err, size_t errsize);

/* Wipe the signer (its secret key); for any signer, opened or not. */
void cli_keys_close(struct cli_signer *sg);

/* Write the signing key's path (`key`, or the default when NULL) into
 * keypath and start libsodium; 0, or -1 with a reason. */
int cli_keys_path(const char *key, char *keypath, size_t size, char *err,
    size_t errsize);

/*
 * Fill `st` with a statement for GAME at PLY by PLAYER doing ACTION (the
 * action value, "move Nf3") with MESSAGE to the opponent (NULL: none),
 * checked as the server checks it. 0 or -1.
 */
int cli_keys_statement(struct sig_statement *st, uint64_t game, uint64_t ply,
    const char *player, const char *action, const char *message, char *err,
    size_t errsize);

#endif /* CORRCHESS_CLI_KEYS_H */
