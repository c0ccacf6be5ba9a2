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
	int		 id;		/* returned by cli_getopt() */
};

/* Returned by cli_getopt() for -h/--help, which every subcommand accepts. */
#define CLI_OPT_HELP	-2
/* Returned by cli_getopt() for an unknown option or a missing value (a
 * message was printed). */
#define CLI_OPT_ERROR	-3
/* Returned by cli_getopt() at the first operand or after "--". */
#define CLI_OPT_END	-1

/* State of option parsing; set with cli_getopt_init(). */
struct cli_getopt {
	const struct cli_cmd	*cmd;
	int			 argc;
	char			**argv;
	int			 ind;	/* next argument; first operand at END */
	const char		*arg;	/* value of the option just returned */
};

void	cli_getopt_init(struct cli_getopt *, const struct cli_cmd *, int,
	    char **);
int	cli_getopt(struct cli_getopt *, const struct cli_option *);

/* Print the usage line of `cmd` to stderr after an optional message, and
 * return CLI_EXIT_USAGE. */
int	cli_usage(const struct cli_cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
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
