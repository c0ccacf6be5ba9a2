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
 * The player's side of `corrchess`, shared by its files: the configuration
 * file (cli_conf.c), key files and statements (cli_keys.c, also the keygen
 * and sign commands) and requests to corrchessd's REST API over libcurl
 * (cli_http.c); the game commands are in cli_client.c.
 *
 * Every function writes a sentence for the user into `err` (size `errsize`)
 * when it fails; nothing here prints or exits.
 */

#ifndef CORRCHESS_CLI_CONF_H
#define CORRCHESS_CLI_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "sig/sig.h"

/* The server used when neither the configuration nor -s names one. */
#define CLI_SERVER_DEFAULT	"http://127.0.0.1:8080"

/* Room for an error sentence. */
#define CLI_ERR_SIZE		1024

struct cli_cmd;

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
};

/*
 * Read the configuration: $CORRCHESS_CONFIG if set (it must exist), else
 * $XDG_CONFIG_HOME/corrchess/config or ~/.config/corrchess/config (a
 * missing file is no error). Lines are "name = value"; blank lines, lines
 * starting with '#' or ';' and "[section]" lines are skipped. Returns 0,
 * or -1 with "FILE:LINE: reason" in `err`. Free with cli_conf_free().
 */
int cli_conf_load(struct cli_conf *, char *err, size_t errsize);

/* cli_conf_load() for command `self`, printing the reason when it fails;
 * 0 or -1. */
int cli_conf_start(const struct cli_cmd *self, struct cli_conf *);

/* Replace a setting's value by a copy of `value`; 0 or -1 (no memory). */
int cli_conf_set(char **field, const char *value);

/* Release the settings; the struct may then be loaded again. */
void cli_conf_free(struct cli_conf *);

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

/*
 * Read a secret key file: our own or an unencrypted OpenSSH Ed25519 key.
 * Returns 0, or -1 with a sentence naming the file (missing, encrypted,
 * another key type...).
 */
int cli_keys_load(const char *path, uint8_t sk[SIG_SECKEY_BYTES],
    char *err, size_t errsize);

/* Write the signing key's path (`key`, or the default when NULL) into
 * keypath and start libsodium; 0, or -1 with a reason. */
int cli_keys_path(const char *key, char *keypath, size_t size, char *err,
    size_t errsize);

/*
 * Fill `st` with a statement for GAME at PLY by PLAYER doing ACTION (the
 * action value, "move Nf3"), checked as the server checks it. 0 or -1.
 */
int cli_keys_statement(struct sig_statement *st, uint64_t game, uint64_t ply,
    const char *player, const char *action, char *err, size_t errsize);

/*
 * Sign `st` with the key in file `keypath` and write the signed text,
 * NUL-terminated, into buf (SIG_SIGNED_SIZE is enough). The secret key is
 * wiped from memory before returning. 0 or -1.
 */
int cli_keys_sign_statement(const char *keypath, const struct sig_statement *st,
    enum sig_form form, char *buf, size_t size, char *err, size_t errsize);

/* Join words with single spaces; malloc'd, or NULL (no memory). */
char *cli_keys_join(int argc, char **argv);

/* An answer of the server. */
struct cli_http_reply {
	long	 status;	/* HTTP status */
	char	*body;		/* NUL-terminated; may be empty, never NULL */
	size_t	 len;
	json_t	*json;		/* the body parsed, when it is JSON */
};

/* Start and stop libcurl (once per command). 0 or -1. */
int cli_http_init(char *err, size_t errsize);

/* Set the options every request of the client shares on libcurl handle
 * `curl`: the error buffer `cerr` (CURL_ERROR_SIZE bytes), no signals, the
 * user agent, HTTP and HTTPS only. */
void cli_http_setopt_common(void *curl, char *cerr);
void cli_http_cleanup(void);

/*
 * Send METHOD SERVER/PATH (PATH starts with '/'), with `body` of type
 * `ctype` when body is not NULL, asking for JSON. Returns 0 when the
 * server answered (whatever the status: see r->status), or -1 when it
 * could not be reached ("cannot reach the corrchess server at URL: ...")
 * or the answer was too large. Free with cli_http_reply_free().
 */
int cli_http_request(const char *server, const char *method, const char *path,
    const char *body, size_t len, const char *ctype, struct cli_http_reply *r,
    char *err, size_t errsize);

/* Release an answer. */
void cli_http_reply_free(struct cli_http_reply *);

/*
 * Write the server's reason for a refusal into buf: the message of
 * {"error":{"code","message"}}, or for another body its first line, or
 * the HTTP status alone.
 */
void cli_http_reply_error(const struct cli_http_reply *, char *buf,
    size_t size);

/* A JSON member that is a string, or NULL (absent or another type). */
const char *cli_http_json_str(const json_t *obj, const char *key);

/* A JSON member that is an integer: true and *v, or false. */
bool cli_http_json_int(const json_t *obj, const char *key, json_int_t *v);

#endif /* CORRCHESS_CLI_CONF_H */
