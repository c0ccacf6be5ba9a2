/*
 * client/cli_conf.c: the player's settings: the configuration file, options.
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
 * The client's configuration file (server, key, player, admin token file,
 * language, certificate authorities) and the options that override it. See cli_conf.h.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/cli.h"
#include "client/cli_conf.h"
#include "client/cli_http.h"

/* Replace a setting by a copy of value; 0 or -1 (no memory). */
static int
cli_conf_set(char **field, const char *value)
{
	char	*copy;

	if ((copy = strdup(value)) == NULL)
		return -1;
	free(*field);
	*field = copy;
	return 0;
}

/* Release the settings. */
void
cli_conf_free(struct cli_conf *cf)
{
	free(cf->path);
	free(cf->server);
	free(cf->key);
	free(cf->player);
	free(cf->admin_token_file);
	free(cf->lang);
	free(cf->cacert);
	memset(cf, 0, sizeof *cf);
}

/* Write the configuration directory into buf. */
int
cli_conf_dir(char *buf, size_t size, char *err, size_t errsize)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME");
	const char	*home = getenv("HOME");
	int		 n;

	/* The XDG base directory spec: a relative value is ignored. */
	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, size, "%s/corrchess", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, size, "%s/.config/corrchess", home);
	else
		return errbuf_set(err, errsize, "neither XDG_CONFIG_HOME nor "
		    "HOME is set: cannot find the configuration directory");
	if (n < 0 || (size_t)n >= size)
		return errbuf_set(err, errsize, "configuration directory "
		    "name too long");
	return 0;
}

/* Parse a decimal from 0 to max. */
int
cli_conf_number(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t	n = 0;
	unsigned	d;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned)(*s - '0');
		if (d > max || n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*v = n;
	return 0;
}

/* Write the default key file's name into buf. */
int
cli_conf_default_key(char *buf, size_t size, char *err, size_t errsize)
{
	char	dir[4096];
	int	n;

	if (cli_conf_dir(dir, sizeof dir, err, errsize) == -1)
		return -1;
	n = snprintf(buf, size, "%s/id_ed25519", dir);
	if (n < 0 || (size_t)n >= size)
		return errbuf_set(err, errsize, "key file name too long");
	return 0;
}

/* Trim white space at both ends of s, in place; return the start. */
static char *
cli_conf_trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* Expand a leading "~/" of a file name; malloc'd, or NULL. */
static char *
cli_conf_expand_home(const char *value)
{
	const char	*home = getenv("HOME");
	char		*out;

	if (strncmp(value, "~/", 2) != 0 || home == NULL || home[0] == '\0')
		return strdup(value);
	if (asprintf(&out, "%s/%s", home, value + 2) == -1)
		return NULL;
	return out;
}

/* Read one configuration file into cf. */
static int
cli_conf_read(struct cli_conf *cf, FILE *f, const char *path,
    char *err, size_t errsize)
{
	char		*line = NULL, *s, *eq, *name, *value, *copy;
	char		**field;
	size_t		 cap = 0, vlen;
	unsigned	 lineno = 0;
	int		 rc = -1;

	while (getline(&line, &cap, f) != -1) {
		lineno++;
		s = cli_conf_trim(line);
		if (*s == '\0' || *s == '#' || *s == ';' || *s == '[')
			continue;
		if ((eq = strchr(s, '=')) == NULL) {
			errbuf_set(err, errsize, "%s:%u: expected "
			    "\"name = value\"", path, lineno);
			goto out;
		}
		*eq = '\0';
		name = cli_conf_trim(s);
		value = cli_conf_trim(eq + 1);
		vlen = strlen(value);
		if (vlen >= 2 && value[0] == '"' && value[vlen - 1] == '"') {
			value[vlen - 1] = '\0';
			value++;
		}
		if (strcmp(name, "server") == 0)
			field = &cf->server;
		else if (strcmp(name, "key") == 0)
			field = &cf->key;
		else if (strcmp(name, "player") == 0)
			field = &cf->player;
		else if (strcmp(name, "admin_token_file") == 0)
			field = &cf->admin_token_file;
		else if (strcmp(name, "lang") == 0)
			field = &cf->lang;
		else if (strcmp(name, "cacert") == 0)
			field = &cf->cacert;
		else {
			errbuf_set(err, errsize, "%s:%u: unknown setting '%s' "
			    "(known: server, key, player, admin_token_file, "
			    "lang, cacert)", path, lineno, name);
			goto out;
		}
		if (*value == '\0') {
			errbuf_set(err, errsize, "%s:%u: %s: empty value",
			    path, lineno, name);
			goto out;
		}
		if (field == &cf->lang && strcmp(value, "en") != 0 &&
		    strcmp(value, "fr") != 0) {
			errbuf_set(err, errsize, "%s:%u: lang: '%s': en or fr",
			    path, lineno, value);
			goto out;
		}
		copy = field == &cf->key || field == &cf->admin_token_file ||
		    field == &cf->cacert ?
		    cli_conf_expand_home(value) :
		    strdup(value);
		if (copy == NULL) {
			errbuf_set(err, errsize, "out of memory");
			goto out;
		}
		free(*field);
		*field = copy;
	}
	if (ferror(f)) {
		errbuf_set(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(line);
	return rc;
}

/* Read the configuration file, if there is one. */
int
cli_conf_load(struct cli_conf *cf, char *err, size_t errsize)
{
	const char	*env = getenv("CORRCHESS_CONFIG");
	char		 dir[4096], path[4200];
	FILE		*f = NULL;
	int		 rc = -1;

	memset(cf, 0, sizeof *cf);
	if (env != NULL && env[0] != '\0') {
		if (snprintf(path, sizeof path, "%s", env) >= (int)sizeof path)
			return errbuf_set(err, errsize, "CORRCHESS_CONFIG: "
			    "file name too long");
		if ((f = fopen(path, "r")) == NULL)
			return errbuf_set(err, errsize, "%s (from "
			    "CORRCHESS_CONFIG): %s", path, strerror(errno));
	} else {
		/* No home directory: no file, the defaults apply. */
		if (cli_conf_dir(dir, sizeof dir, NULL, 0) == -1)
			return 0;
		snprintf(path, sizeof path, "%s/config", dir);
		if ((f = fopen(path, "r")) == NULL) {
			if (errno == ENOENT || errno == ENOTDIR)
				return 0;
			return errbuf_set(err, errsize, "%s: %s", path,
			    strerror(errno));
		}
	}
	if ((cf->path = strdup(path)) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		goto out;
	}
	if (cli_conf_read(cf, f, path, err, errsize) == -1)
		goto out;
	rc = 0;
out:
	fclose(f);
	if (rc == -1)
		cli_conf_free(cf);
	return rc;
}

/* Read the configuration file for a command, or say why not; 0 or -1. */
static int
cli_conf_start(const struct cli_cmd *self, struct cli_conf *cf)
{
	char	err[CLI_ERR_SIZE];

	if (cli_conf_load(cf, err, sizeof err) == -1) {
		cli_error(self, "%s", err);
		return -1;
	}
	return 0;
}

/* The most options a command's table may have, besides --cacert. */
#define CLI_CONF_OPTS_MAX	32

/* What cli_conf_options() hands the options to. */
struct cli_conf_ctx {
	struct cli_conf		*cf;
	cli_option_fn		 fn;	/* the command's own options */
	void			*ctx;
};

/* Take a setting's option, or hand the command its own. */
static int
cli_conf_option(const struct cli_cmd *self, int id, const char *arg,
    void *ctx)
{
	struct cli_conf_ctx	 *c = ctx;
	char			**field;

	switch (id) {
	case CLI_CONF_OPT_SERVER:
		field = &c->cf->server;
		break;
	case CLI_CONF_OPT_KEY:
		field = &c->cf->key;
		break;
	case CLI_CONF_OPT_PLAYER:
		field = &c->cf->player;
		break;
	case CLI_CONF_OPT_CACERT:
		field = &c->cf->cacert;
		break;
	default:
		if (c->fn == NULL)
			return CLI_EXIT_USAGE;
		return c->fn(self, id, arg, c->ctx);
	}
	if (cli_conf_set(field, arg) == -1) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Read the configuration, then the options that override it. */
int
cli_conf_options(const struct cli_cmd *self, int argc, char **argv,
    const struct cli_option *opts, struct cli_conf *cf, cli_option_fn fn,
    void *ctx, int *indp)
{
	static const struct cli_option cacert =
	    { "cacert", 0, 1, CLI_CONF_OPT_CACERT };
	struct cli_conf_ctx	 c = { cf, fn, ctx };
	struct cli_option	 all[CLI_CONF_OPTS_MAX + 2];
	const char		*env = getenv("CORRCHESS_SERVER");
	char			 err[CLI_ERR_SIZE];
	size_t			 n = 0;
	int			 rc;

	/* The command's table, then --cacert, then the end. */
	for (; opts != NULL && opts[n].name != NULL; n++) {
		if (n == CLI_CONF_OPTS_MAX) {
			cli_error(self, "more than %d options: raise "
			    "CLI_CONF_OPTS_MAX", CLI_CONF_OPTS_MAX);
			return CLI_EXIT_FAIL;
		}
		all[n] = opts[n];
	}
	all[n++] = cacert;
	memset(&all[n], 0, sizeof all[n]);

	if (cli_conf_start(self, cf) == -1)
		return CLI_EXIT_FAIL;
	/* The environment wins over the file, the command line over both. */
	if (env != NULL && env[0] != '\0' && cli_conf_set(&cf->server, env) ==
	    -1) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	if ((rc = cli_options(self, argc, argv, all, cli_conf_option, &c,
	    indp)) != CLI_EXIT_OK)
		return rc;
	if (cli_http_set_cacert(cf->cacert, err, sizeof err) == -1) {
		cli_error(self, "%s", err);
		return CLI_EXIT_FAIL;
	}
	if (cf->server == NULL &&
	    cli_conf_set(&cf->server, CLI_SERVER_DEFAULT) == -1) {
		cli_error(self, "out of memory");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}
