/*
 * client/cmd_verify.h: corrchess verify: a game's record checked.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_CMD_VERIFY_H
#define CORRCHESS_CMD_VERIFY_H

struct cli_cmd;

/* corrchess verify [-s URL] GAME..., a row of the table in corrchess.c. */
int	cmd_verify(const struct cli_cmd *, int, char **);

#endif /* CORRCHESS_CMD_VERIFY_H */
