/*
 * client/cli.h: what every corrchess subcommand uses: options, usage, files.
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
 * The `corrchess` command: the subcommand table (corrchess.c); option
 * parsing and file helpers shared by the subcommands (cli.c); the
 * player's side: the configuration and the options that override it
 * (cli_conf.c), requests to corrchessd (cli_http.c), keys and statements
 * (cli_keys.c); and one file per group of subcommands, each with its
 * header: cmd_rules.c (perft, play, pgn), cmd_bench.c (bench-replay),
 * cmd_keys.c (keygen, sign), cmd_game.c (move, act, show, games),
 * cmd_mail.c (mail-move), cmd_admin.c (admin).
 */

#ifndef CORRCHESS_CLI_H
#define CORRCHESS_CLI_H

#include <stddef.h>

#include "util/errbuf.h"

/* Room for an error sentence. */
#define CLI_ERR_SIZE	1024

/* Exit statuses of every subcommand. */
#define CLI_EXIT_OK	0	/* done */
#define CLI_EXIT_FAIL	1	/* bad input data, a rejected move, I/O */
#define CLI_EXIT_USAGE	2	/* bad command line */

struct cli_cmd;

/*
 * One subcommand, a row of the table in corrchess.c (like tmux's
 * cmd_entry). `exec` gets argv[0] = the subcommand's name.
 */
struct cli_cmd {
	const char	*name;
	int		(*exec)(const struct cli_cmd *, int argc, char **argv);
	const char	*usage;		/* operands and options, one line */
	const char	*help;		/* paragraphs, each line ending in \n */
	int		 hidden;	/* not listed by `corrchess help` */
};

/* An option a subcommand accepts. */
struct cli_option {
	const char	*name;		/* long name, without "--" */
	int		 letter;	/* short letter, or 0 */
	int		 has_arg;	/* takes a value: --name V or --name=V */
	int		 id;		/* handed to the cli_option_fn */
};

/*
 * A command's options for cli_options(): called with the id and value
 * (NULL for a flag) of each option given, in order. Returns CLI_EXIT_OK
 * to go on, or an exit status to stop (after printing why).
 */
typedef int	(*cli_option_fn)(const struct cli_cmd *self, int id,
		    const char *arg, void *ctx);

/* Returned by cli_options() after printing the help: the command is
 * done, and exits with CLI_EXIT_OK. */
#define CLI_HELPED	(-1)

/*
 * Parse the options of argv[1..argc-1] (before the operands; "--" ends
 * them, so an operand may start with a dash) with the table `opts` (NULL
 * when there are none; ends with a NULL name): each goes to fn(self, id,
 * value, ctx), and -h/--help, which every subcommand accepts, prints the
 * help. Returns CLI_EXIT_OK with *indp the first operand, CLI_HELPED, or
 * an exit status after printing why (an unknown option, a missing value,
 * fn's status).
 */
int	cli_options(const struct cli_cmd *self, int argc, char **argv,
	    const struct cli_option *opts, cli_option_fn fn, void *ctx,
	    int *indp);

/* Print the usage line of `cmd` to stderr after an optional message, and
 * return CLI_EXIT_USAGE. */
int	cli_usage(const struct cli_cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Take a --lang argument ("en" or "fr") into *langp: CLI_EXIT_OK, or
 * cli_usage()'s CLI_EXIT_USAGE naming the two. */
int	cli_lang_option(const struct cli_cmd *, const char *arg,
	    const char **langp);
/* Print the full help of `cmd` to stdout; returns CLI_EXIT_OK. */
int	cli_help(const struct cli_cmd *);
/* Print "corrchess CMD: message" to stderr. */
void	cli_error(const struct cli_cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Read a whole file ("-" = standard input) into a NUL-terminated malloc'd
 * buffer. Returns 0, or -1 with errno set. */
int	cli_read_file(const char *path, char **bufp, size_t *lenp);

/* Join words with single spaces; malloc'd, or NULL (no memory). */
char	*cli_join(int argc, char **argv);

#endif /* CORRCHESS_CLI_H */
