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
 * secret key file, building a statement as the server checks it, and
 * signing it. Every function writes a sentence for the user into `err`
 * (size `errsize`) when it fails; nothing here prints or exits.
 */

#ifndef CORRCHESS_CLI_KEYS_H
#define CORRCHESS_CLI_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "sig/sig.h"

/*
 * Read a secret key file: our own or an unencrypted OpenSSH Ed25519 key.
 * Returns 0, or -1 with a sentence naming the file (missing, encrypted,
 * another key type...).
 */
int cli_keys_load(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    char *err, size_t errsize);

/* Write the signing key's path (`key`, or the default when NULL) into
 * keypath and start libsodium; 0, or -1 with a reason. */
int cli_keys_path(const char *key, char *keypath, size_t size, char *err,
    size_t errsize);

/*
 * Fill `st` with a statement for GAME at PLY by PLAYER doing ACTION (the
 * action value, "move Nf3"), checked as the server checks it. 0 or -1.
 */
int cli_keys_statement(struct sig_statement *st, uint64_t game, uint64_t ply,
    const char *player, const char *action, char *err, size_t errsize);

/*
 * Sign `st` with the key in file `keypath` and write the signed text,
 * NUL-terminated, into buf (SIG_SIGNED_SIZE is enough). The secret key is
 * wiped from memory before returning. 0 or -1.
 */
int cli_keys_sign_statement(const char *keypath, const struct sig_statement *st,
    enum sig_form form, char *buf, size_t size, char *err, size_t errsize);

#endif /* CORRCHESS_CLI_KEYS_H */
