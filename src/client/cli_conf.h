/*
 * client/cli_conf.h: the player's settings: the configuration file, options.
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
 * The client's settings (cli_conf.c): the configuration file's values, and
 * the options -s/--server, -k/--key and -p/--player of the commands that
 * talk to corrchessd, which override them (cli_conf_options()).
 *
 * Functions with an `err` buffer write a sentence for the user into it
 * when they fail and print nothing; the ones given the command (`self`)
 * print the reason themselves.
 */

#ifndef CORRCHESS_CLI_CONF_H
#define CORRCHESS_CLI_CONF_H

#include <stddef.h>
#include <stdint.h>

#include "client/cli.h"

/* The server used when neither the configuration nor -s names one. */
#define CLI_SERVER_DEFAULT	"http://127.0.0.1:8080"

/*
 * The client's settings: the configuration file's values, then the
 * command line's on top. Strings are malloc'd, NULL when unset.
 */
struct cli_conf {
	char	*path;		/* the file read, or NULL if there was none */
	char	*server;	/* "server = URL" */
	char	*key;		/* "key = FILE" (a leading "~/" expanded) */
	char	*player;	/* "player = NAME" */
	char	*admin_token_file; /* "admin_token_file = FILE" (corrchess
				    * admin; a leading "~/" expanded) */
	char	*lang;		/* "lang = en|fr": corrchess show's language */
	char	*cacert;	/* "cacert = FILE" (the certificate
				    * authorities to trust; "~/" expanded) */
};

/*
 * Read the configuration: $CORRCHESS_CONFIG if set (it must exist), else
 * $XDG_CONFIG_HOME/corrchess/config or ~/.config/corrchess/config (a
 * missing file is no error). Lines are "name = value"; blank lines, lines
 * starting with '#' or ';' and "[section]" lines are skipped. Returns 0,
 * or -1 with "FILE:LINE: reason" in `err`. Free with cli_conf_free().
 */
int cli_conf_load(struct cli_conf *, char *err, size_t errsize);

/* Release the settings; the struct may then be loaded again. */
void cli_conf_free(struct cli_conf *);

/* Option ids of the settings' options, for a command's option table:
 *	{ "server", 's', 1, CLI_CONF_OPT_SERVER },
 *	{ "key", 'k', 1, CLI_CONF_OPT_KEY },
 *	{ "player", 'p', 1, CLI_CONF_OPT_PLAYER }
 * (a command's own ids are below 1000). cli_conf_options() adds
 * --cacert FILE (CLI_CONF_OPT_CACERT) to every table itself. */
enum {
	CLI_CONF_OPT_SERVER = 1000,
	CLI_CONF_OPT_KEY,
	CLI_CONF_OPT_PLAYER,
	CLI_CONF_OPT_CACERT,
};

/*
 * The start of every command that talks to corrchessd: read the
 * configuration into `cf` (cli_conf_load()), then the options of argv
 * with the table `opts` and --cacert FILE: the settings' ids replace cf's
 * values, -h/--help prints the help, every other option goes to fn(self,
 * id, arg, ctx) (see cli_options()). Without a server so far, cf->server
 * is CLI_SERVER_DEFAULT. The certificate authority file, when one is
 * named, is checked and handed to cli_http_set_cacert(). Returns CLI_EXIT_OK with *indp the first operand,
 * CLI_HELPED, or an exit status after printing why (a bad configuration
 * or option, fn's status, no memory). Free cf with cli_conf_free() in
 * every case.
 */
int cli_conf_options(const struct cli_cmd *self, int argc, char **argv,
    const struct cli_option *opts, struct cli_conf *cf, cli_option_fn fn,
    void *ctx, int *indp);

/*
 * Write the client's configuration directory ($XDG_CONFIG_HOME/corrchess
 * or ~/.config/corrchess) into buf. Returns 0, or -1 when neither
 * XDG_CONFIG_HOME nor HOME is set or buf is too small.
 */
int cli_conf_dir(char *buf, size_t size, char *err, size_t errsize);

/*
 * Parse a decimal from 0 to `max`, digits only (no sign, no space); 0, or
 * -1 when `s` is not such a number.
 */
int cli_conf_number(const char *s, uint64_t max, uint64_t *v);

/* Write the default key file (DIR/id_ed25519) into buf; 0 or -1. */
int cli_conf_default_key(char *buf, size_t size, char *err, size_t errsize);

#endif /* CORRCHESS_CLI_CONF_H */
