/*
 * client/cli.c: options, usage and help, whole files: for every subcommand.
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
 * Helpers shared by the `corrchess` subcommands: a reentrant option parser
 * (options before operands, "--" ends them, so a move such as "-" or one
 * starting with a dash can still be given), usage and help text, reading
 * whole files.
 */

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/cli.h"

/* Returned by cli_getopt() for -h/--help. */
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

/* Start parsing the options of argv[1..argc-1]. */
static void
cli_getopt_init(struct cli_getopt *go, const struct cli_cmd *cmd, int argc,
    char **argv)
{
	go->cmd = cmd;
	go->argc = argc;
	go->argv = argv;
	go->ind = 1;
	go->arg = NULL;
}

/* Take the value of an option from "--name=V" or the next argument. */
static int
cli_getopt_value(struct cli_getopt *go, const struct cli_option *o,
    const char *inline_value)
{
	if (!o->has_arg) {
		if (inline_value != NULL) {
			cli_usage(go->cmd, "option --%s takes no value",
			    o->name);
			return CLI_OPT_ERROR;
		}
		go->arg = NULL;
		return o->id;
	}
	if (inline_value != NULL) {
		go->arg = inline_value;
		return o->id;
	}
	if (go->ind >= go->argc) {
		cli_usage(go->cmd, "option --%s needs a value", o->name);
		return CLI_OPT_ERROR;
	}
	go->arg = go->argv[go->ind++];
	return o->id;
}

/*
 * Return the id of the next option, CLI_OPT_HELP, CLI_OPT_END (go->ind is
 * then the first operand) or CLI_OPT_ERROR (after printing the usage).
 */
static int
cli_getopt(struct cli_getopt *go, const struct cli_option *opts)
{
	const struct cli_option	*o;
	const char		*a, *eq;
	size_t			 n;

	if (go->ind >= go->argc)
		return CLI_OPT_END;
	a = go->argv[go->ind];
	if (a[0] != '-' || a[1] == '\0')
		return CLI_OPT_END;
	go->ind++;
	if (strcmp(a, "--") == 0)
		return CLI_OPT_END;

	if (a[1] != '-') {
		/* One short option per argument: -h, -d ... */
		if (a[2] != '\0')
			goto unknown;
		if (a[1] == 'h')
			return CLI_OPT_HELP;
		for (o = opts; o != NULL && o->name != NULL; o++) {
			if (o->letter == a[1])
				return cli_getopt_value(go, o, NULL);
		}
		goto unknown;
	}

	a += 2;
	eq = strchr(a, '=');
	n = eq != NULL ? (size_t)(eq - a) : strlen(a);
	if (n == 4 && strncmp(a, "help", 4) == 0 && eq == NULL)
		return CLI_OPT_HELP;
	for (o = opts; o != NULL && o->name != NULL; o++) {
		if (strlen(o->name) == n && strncmp(o->name, a, n) == 0)
			return cli_getopt_value(go, o,
			    eq != NULL ? eq + 1 : NULL);
	}

unknown:
	cli_usage(go->cmd, "unknown option %s (use -- before an operand "
	    "that starts with a dash)", go->argv[go->ind - 1]);
	return CLI_OPT_ERROR;
}

/* Parse a command's options, handing each to fn. */
int
cli_options(const struct cli_cmd *self, int argc, char **argv,
    const struct cli_option *opts, cli_option_fn fn, void *ctx, int *indp)
{
	struct cli_getopt	go;
	int			c, rc;

	cli_getopt_init(&go, self, argc, argv);
	while ((c = cli_getopt(&go, opts)) != CLI_OPT_END) {
		if (c == CLI_OPT_HELP) {
			cli_help(self);
			return CLI_HELPED;
		}
		if (c == CLI_OPT_ERROR || fn == NULL)
			return CLI_EXIT_USAGE;
		if ((rc = fn(self, c, go.arg, ctx)) != CLI_EXIT_OK)
			return rc;
	}
	*indp = go.ind;
	return CLI_EXIT_OK;
}

/* Print a message and the usage line of a subcommand to stderr. */
int
cli_usage(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list	ap;

	if (fmt != NULL) {
		fprintf(stderr, "corrchess %s: ", cmd->name);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "usage: corrchess %s %s\n", cmd->name, cmd->usage);
	fprintf(stderr, "Try 'corrchess help %s'.\n", cmd->name);
	return CLI_EXIT_USAGE;
}

/* Take a --lang argument, or refuse it with the usage. */
int
cli_lang_option(const struct cli_cmd *cmd, const char *arg,
    const char **langp)
{
	if (strcmp(arg, "en") != 0 && strcmp(arg, "fr") != 0)
		return cli_usage(cmd, "--lang %s: \"en\" or \"fr\"", arg);
	*langp = arg;
	return CLI_EXIT_OK;
}

/* Print the usage and help text of a subcommand to stdout. */
int
cli_help(const struct cli_cmd *cmd)
{
	printf("usage: corrchess %s %s\n\n%s", cmd->name, cmd->usage,
	    cmd->help);
	return CLI_EXIT_OK;
}

/* Print an error message prefixed with the subcommand's name. */
void
cli_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "corrchess %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Read a whole file, or standard input for "-", into memory. */
int
cli_read_file(const char *path, char **bufp, size_t *lenp)
{
	FILE	*f = NULL;
	char	*buf = NULL, *nbuf;
	size_t	 len = 0, cap = 0, n;
	int	 saved, rc = -1;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "rb")) == NULL)
		goto out;

	for (;;) {
		if (cap - len < 65536) {
			cap = cap == 0 ? 262144 : cap * 2;
			if ((nbuf = realloc(buf, cap + 1)) == NULL)
				goto out;
			buf = nbuf;
		}
		errno = 0;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				if (errno == 0)
					errno = EIO;
				goto out;
			}
			break;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	buf = NULL;
	rc = 0;

out:
	saved = errno;
	if (f != NULL && f != stdin)
		fclose(f);
	free(buf);
	errno = saved;
	return rc;
}

/* Join words with single spaces. */
char *
cli_join(int argc, char **argv)
{
	size_t	len = 1;
	char	*s;
	int	i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if ((s = malloc(len)) == NULL)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}
