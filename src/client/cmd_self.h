/*
 * client/cmd_self.h: corrchess key and corrchess settings.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_CMD_SELF_H
#define CORRCHESS_CMD_SELF_H

struct cli_cmd;

/* The subcommands of cmd_self.c, rows of the table in corrchess.c. */
int	cmd_self_key(const struct cli_cmd *, int, char **);
int	cmd_self_settings(const struct cli_cmd *, int, char **);

#endif /* CORRCHESS_CMD_SELF_H */
