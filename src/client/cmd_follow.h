/*
 * client/cmd_follow.h: corrchess follow: a game's or a player's live events, in words.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_CMD_FOLLOW_H
#define CORRCHESS_CMD_FOLLOW_H

#include "client/cli.h"

/*
 * corrchess follow [-s URL] [--lang en|fr] GAME | --player NAME: print the
 * game (or the player's games) as it stands, then each event as the
 * server commits it, until the game ends (GAME) or Ctrl-C. Exit status 0
 * then; 1 when the server refuses, cannot be reached or ends the stream.
 */
int	cmd_follow(const struct cli_cmd *, int argc, char **argv);

#endif /* CORRCHESS_CMD_FOLLOW_H */
