/*
 * client/cmd_game.h: corrchess move, act, show and games.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#ifndef CORRCHESS_CMD_GAME_H
#define CORRCHESS_CMD_GAME_H

struct cli_cmd;

/* The subcommands of cmd_game.c, rows of the table in corrchess.c. */
int	cmd_game_move(const struct cli_cmd *, int, char **);
int	cmd_game_act(const struct cli_cmd *, int, char **);
int	cmd_game_conditional(const struct cli_cmd *, int, char **);
int	cmd_game_show(const struct cli_cmd *, int, char **);
int	cmd_game_games(const struct cli_cmd *, int, char **);

struct buf;

/* Append s to a URL's query, percent-encoded. */
void	cmd_game_query_add(struct buf *b, const char *s);
/* Parse the API's time, "YYYY-MM-DDTHH:MM:SSZ", into *t; 0 or -1. */
int	cmd_game_parse_time(const char *s, int64_t *t);

#endif /* CORRCHESS_CMD_GAME_H */
