/*
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * The `corrchess` command: the subcommand table (corrchess.c), option
 * parsing and file helpers shared by the subcommands (cli.c), and one file
 * per group of subcommands (cli_rules.c, cli_bench.c).
 */

#ifndef CORRCHESS_CLI_H
#define CORRCHESS_CLI_H

#include <stddef.h>

#include "util/errbuf.h"

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

/* Subcommands (cli_rules.c, cli_bench.c). */
int	cli_rules_perft(const struct cli_cmd *, int, char **);
int	cli_rules_play(const struct cli_cmd *, int, char **);
int	cli_rules_pgn(const struct cli_cmd *, int, char **);
int	cli_bench_replay(const struct cli_cmd *, int, char **);

/* The player's commands (cli_keys.c, cli_client.c). */
int	cli_keys_keygen(const struct cli_cmd *, int, char **);
int	cli_keys_sign(const struct cli_cmd *, int, char **);
int	cli_client_move(const struct cli_cmd *, int, char **);
int	cli_client_act(const struct cli_cmd *, int, char **);
int	cli_client_show(const struct cli_cmd *, int, char **);
int	cli_client_games(const struct cli_cmd *, int, char **);

/* The administrator's commands (cli_admin.c). */
int	cli_admin(const struct cli_cmd *, int, char **);

/* The move as a mail (cli_mail.c). */
int	cli_mail_move(const struct cli_cmd *, int, char **);

#endif /* CORRCHESS_CLI_H */
