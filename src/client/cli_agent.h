/*
 * client/cli_agent.h: signing through ssh-agent: its socket, two requests.
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
 * The client's side of the agent protocol (the messages are sig/agent.h's):
 * each call connects to the agent's Unix socket `sock` (SSH_AUTH_SOCK),
 * sends one request, reads one answer and closes. Every function writes a
 * sentence for the user into `err` (size `errsize`) when it fails.
 */

#ifndef CORRCHESS_CLI_AGENT_H
#define CORRCHESS_CLI_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "sig/sig.h"

/*
 * Ask the agent whether it holds the Ed25519 key `pk`: 1 if it does, 0 if
 * not (*nkeys is then how many keys it holds), -1 with a reason when the
 * agent cannot be asked.
 */
int cli_agent_holds(const char *sock, const uint8_t pk[SIG_PUBKEY_BYTES],
    size_t *nkeys, char *err, size_t errsize);

/*
 * Have the agent sign `len` bytes of `data` (at most SIG_TBS_MAX) with the
 * key `pk`, and check its signature: 0 and the raw Ed25519 signature in
 * sig, or -1 with a reason.
 */
int cli_agent_sign(const char *sock, const uint8_t pk[SIG_PUBKEY_BYTES],
    const uint8_t *data, size_t len, uint8_t sig[SIG_SIGNATURE_BYTES],
    char *err, size_t errsize);

#endif /* CORRCHESS_CLI_AGENT_H */
