/*
 * store/invitations.c: invitations, one-time links to register a key.
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
 * An invitation names a player, expires, and is used once; the token
 * itself never reaches the database, only its hash.
 */

#include "config.h"

#include <string.h>

#include "store/store_int.h"

/* Record an invitation. */
enum store_status
store_invitation_add(struct store *s, struct store_invitation *inv)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_INVITATION_INSERT)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, inv->player_id);
	db_bind_blob(st, 2, inv->token_hash, STORE_HASH_LEN);
	db_bind_int64(st, 3, inv->created);
	db_bind_int64(st, 4, inv->expires);
	return store_exec_insert(s, st, "record an invitation", &inv->id);
}

/* Find an invitation by its token's hash. */
enum store_status
store_invitation_find(struct store *s,
    const uint8_t token_hash[STORE_HASH_LEN], struct store_invitation *out)
{
	struct db_stmt		*st;
	enum store_status	 status;

	if ((st = store_stmt(s, ST_INVITATION_FIND)) == NULL)
		return STORE_ERROR;
	db_bind_blob(st, 1, token_hash, STORE_HASH_LEN);
	status = store_step_one(s, st, "find an invitation",
	    "no such invitation");
	if (status == STORE_OK) {
		memset(out, 0, sizeof *out);
		out->id = db_column_int64(st, 0);
		out->player_id = db_column_int64(st, 1);
		memcpy(out->token_hash, token_hash, STORE_HASH_LEN);
		out->created = db_column_int64(st, 2);
		out->expires = db_column_int64(st, 3);
		out->used = db_column_int64(st, 4);
		out->key_id = store_col_opt_int(st, 5, 0);
		if (store_col_text(st, 6, out->player_name,
		    sizeof out->player_name) != 0) {
			store_seterr(s, "find an invitation: name too long");
			status = STORE_ERROR;
		}
	}
	store_done(st);
	return status;
}

/* Mark an invitation used. */
enum store_status
store_invitation_use(struct store *s, int64_t id, int64_t at, int64_t key_id)
{
	struct db_stmt	*st;

	if ((st = store_stmt(s, ST_INVITATION_USE)) == NULL)
		return STORE_ERROR;
	db_bind_int64(st, 1, id);
	db_bind_int64(st, 2, at);
	store_bind_opt_int(st, 3, key_id, 0);
	return store_exec_change(s, st, "use an invitation",
	    "the invitation is used already");
}
