/*
 * client/cmd_admin.h: corrchess admin: the administrator's commands.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_CMD_ADMIN_H
#define CORRCHESS_CMD_ADMIN_H

#include <stddef.h>

struct cli_cmd;
struct cli_conf;

/* The subcommand of cmd_admin.c (its actions: backup), a row of the
 * table in corrchess.c. */
int	cmd_admin(const struct cli_cmd *, int, char **);

/*
 * Find the admin token: the file `token_file` when not NULL, else
 * $CORRCHESS_ADMIN_TOKEN, else the configuration's admin_token_file.
 * *tokenp is malloc'd (wipe and free it); 0, or -1 with the reason.
 */
int	cmd_admin_token(const char *token_file, const struct cli_conf *cf,
	    char **tokenp, char *err, size_t errsize);

/* Wipe and free a token of cmd_admin_token(); NULL is fine. */
void	cmd_admin_token_free(char *token);

#endif /* CORRCHESS_CMD_ADMIN_H */
