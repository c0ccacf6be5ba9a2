/*
 * daemon/conf_man.c: corrchessd.conf(5), written from the table of keys.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "daemon/conf.h"
#include "daemon/conf_man.h"

/* The keys SIGHUP applies to the running server, as "section.name". */
static const char *const conf_reloadable_keys[] = {
	"log.level",
	"log.requests",
	"server.tls_certificate",
	"server.tls_key",
	"server.stop_timeout",
};

/* Tell whether SIGHUP applies key at once. */
int
conf_reloadable(const struct conf_key *key)
{
	size_t	i, n;

	for (i = 0; i < sizeof conf_reloadable_keys /
	    sizeof conf_reloadable_keys[0]; i++) {
		n = strlen(key->section);
		if (strncmp(conf_reloadable_keys[i], key->section, n) == 0 &&
		    conf_reloadable_keys[i][n] == '.' &&
		    strcmp(conf_reloadable_keys[i] + n + 1, key->name) == 0)
			return 1;
	}
	return 0;
}

/* Write text for man(7) within a line: backslashes and dashes escaped. */
static void
conf_man_escape(FILE *fp, const char *text)
{
	const char	*p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '\\')
			fputs("\\e", fp);
		else if (*p == '-' && (p == text || p[-1] == ' '))
			fputs("\\-", fp);
		else
			fputc(*p, fp);
	}
}

/* Write text as one line of man(7), never a control line. */
static void
conf_man_text(FILE *fp, const char *text)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", fp);
	conf_man_escape(fp, text);
	fputc('\n', fp);
}

/* Write the manual page. */
int
conf_write_man(FILE *fp)
{
	const char	*section = NULL;
	char		 type[256];
	size_t		 i;

	fputs(".\\\" corrchess - a correspondence chess server\n"
	    ".\\\" Copyright (C) 2026 The corrchess developers\n"
	    ".\\\" SPDX-License-Identifier: GPL-3.0-or-later\n"
	    ".\\\"\n"
	    ".\\\" Generated from the table of keys in src/daemon/conf.c by\n"
	    ".\\\" `corrchessd --dump-config-man` (make update-conf); "
	    "do not edit.\n"
	    ".TH CORRCHESSD.CONF 5 2026 corrchess \"File Formats Manual\"\n"
	    ".SH NAME\n"
	    "corrchessd.conf \\- configuration file of the corrchess server\n"
	    ".SH SYNOPSIS\n"
	    ".I /etc/corrchessd.conf\n"
	    ".SH DESCRIPTION\n"
	    ".B corrchessd\n"
	    "reads its configuration from\n"
	    ".I /etc/corrchessd.conf\n"
	    "(under the sysconfdir chosen at build time), or from the file "
	    "given with\n"
	    ".BR \\-\\-config .\n"
	    "Without a file, every key has its default.\n"
	    ".PP\n"
	    "The file is a list of sections, each started by a line\n"
	    ".BI [ section ] ,\n"
	    "holding lines\n"
	    ".IR key \" = \" value .\n"
	    "Lines starting with\n"
	    ".B #\n"
	    "or\n"
	    ".B ;\n"
	    "are comments; blank lines are ignored.\n"
	    "An unknown section or key, or a bad value, stops start-up with "
	    "the file name, the line and the reason;\n"
	    ".B corrchessd \\-\\-check\\-config\n"
	    "checks a file without starting.\n"
	    ".PP\n"
	    "Values by type:\n"
	    ".TP\n"
	    ".B yes or no\n"
	    "yes, true, on or 1; no, false, off or 0.\n"
	    ".TP\n"
	    ".B size\n"
	    "Bytes, with an optional suffix K, M or G (1K = 1024 bytes).\n"
	    ".TP\n"
	    ".B duration\n"
	    "Seconds, with an optional suffix s, m, h or d.\n"
	    ".TP\n"
	    ".B path\n"
	    "A file or directory name; a relative name is taken from the "
	    "directory corrchessd starts in.\n"
	    ".TP\n"
	    ".B address\n"
	    "An IPv4 or IPv6 address literal.\n"
	    ".PP\n"
	    "Keys marked\n"
	    ".B (SIGHUP)\n"
	    "take effect when corrchessd receives SIGHUP\n"
	    ".RB ( \"systemctl reload corrchessd\" );\n"
	    "the others at the next start.\n"
	    ".SH KEYS\n", fp);
	for (i = 0; i < conf_table_size; i++) {
		const struct conf_key *key = &conf_table[i];

		if (section == NULL || strcmp(section, key->section) != 0) {
			section = key->section;
			fprintf(fp, ".SS [%s]\n", section);
		}
		conf_describe_type(key, type, sizeof type);
		fprintf(fp, ".TP\n.B %s\n", key->name);
		conf_man_text(fp, key->help);
		fputs(".br\n", fp);
		fprintf(fp, "(%s; default: ", type);
		if (*key->def == '\0')
			fputs("empty)", fp);
		else {
			fputs("\\fB", fp);
			conf_man_escape(fp, key->def);
			fputs("\\fR)", fp);
		}
		fputs(conf_reloadable(key) ? " (SIGHUP)\n" : "\n", fp);
	}
	fputs(".SH EXAMPLE\n"
	    ".EX\n"
	    "[server]\n"
	    "listen = ::\n"
	    "port = 8080\n"
	    "\n"
	    "[log]\n"
	    "level = info\n"
	    ".EE\n"
	    ".PP\n"
	    "The example file shipped with corrchess lists every key with "
	    "its help and default\n"
	    ".RB ( \"corrchessd \\-\\-dump\\-config\\-example\" ).\n"
	    ".SH FILES\n"
	    ".TP\n"
	    ".I /etc/corrchessd.conf\n"
	    "The configuration file.\n"
	    ".TP\n"
	    ".I /var/lib/corrchessd\n"
	    "The default\n"
	    ".BR state_directory .\n"
	    ".SH SEE ALSO\n"
	    ".BR corrchessd (8),\n"
	    ".BR corrchess (1)\n", fp);
	fflush(fp);
	return ferror(fp) ? -1 : 0;
}
