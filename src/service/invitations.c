/*
 * service/invitations.c: invitations, and the keys browsers register.
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
 * The admin invites a player: a token of 32 random bytes (base64url),
 * shown once, stored as its BLAKE2b-256 hash with an expiry. The browser
 * that opens the link makes an Ed25519 key (WebCrypto, not extractable)
 * and registers its public half with the token; the invitation is then
 * used up, in the same transaction as the key.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "service/service_int.h"

/* Hash a token as it is stored (invitations, mail tokens). */
void
token_hash(const char *token, uint8_t hash[STORE_HASH_LEN])
{
	crypto_generichash(hash, STORE_HASH_LEN, (const uint8_t *)token,
	    strlen(token), NULL, 0);
}

/* Invite a player. */
int
service_invite(struct service *svc, const char *name, int days,
    struct service_invitation *out, struct service_error *err)
{
	struct store_invitation	 inv;
	struct job		 j = { .kind = JOB_INVITE, .err = err,
				       .u.invite = { .name = name,
				       .inv = &inv } };
	uint8_t			 raw[32];
	int64_t			 now = service_now(svc);

	if (days == 0)
		days = SERVICE_INVITE_DAYS;
	if (days < 1 || days > SERVICE_INVITE_DAYS_MAX)
		return service_fail(err, 400, "bad-request", "an invitation "
		    "lasts 1 to %d days", SERVICE_INVITE_DAYS_MAX);
	memset(out, 0, sizeof *out);
	memset(&inv, 0, sizeof inv);
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(out->token, sizeof out->token, raw, sizeof raw,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(raw, sizeof raw);
	token_hash(out->token, inv.token_hash);
	inv.created = now;
	inv.expires = now + (int64_t)days * 86400;
	if (writer_submit(svc, &j) != 0) {
		sodium_memzero(out->token, sizeof out->token);
		return -1;
	}
	snprintf(out->player, sizeof out->player, "%s", name);
	out->expires = inv.expires;
	return 0;
}

/* In the writer: record an invitation for a player. */
int
job_invite(struct service *svc, struct job *j, int64_t now)
{
	struct job_invite	*ji = &j->u.invite;
	struct store_player	 p;
	enum store_status	 ss;

	(void)now;
	ss = store_player_get_by_name(svc->wstore, ji->name, &p);
	if (ss == STORE_NOTFOUND)
		return service_fail(j->err, 404, "no-such-player",
		    "there is no player \"%s\"", ji->name);
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the player");
	ji->inv->player_id = p.id;
	if (store_invitation_add(svc->wstore, ji->inv) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "record the invitation");
	return 0;
}

/* Register a key with an invitation. */
int
service_enrol(struct service *svc, const char *token, const char *key,
    struct store_player *p, struct store_key *k, struct service_error *err)
{
	struct store_player	 pp;
	struct store_key	 kk;
	uint8_t			 hash[STORE_HASH_LEN];
	struct job		 j = { .kind = JOB_ENROL, .err = err,
				       .u.enrol = { .token_hash = hash,
				       .key = key, .p = p != NULL ? p : &pp,
				       .k = k != NULL ? k : &kk } };

	if (token == NULL || strlen(token) != SERVICE_TOKEN_SIZE - 1 ||
	    strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_") != SERVICE_TOKEN_SIZE - 1)
		return service_fail(err, 404, "no-such-invitation",
		    "this invitation is not known: ask the club for a new "
		    "link");
	if (key == NULL)
		return service_fail(err, 400, "bad-key",
		    "send the public key to register");
	token_hash(token, hash);
	return writer_submit(svc, &j);
}

/* In the writer: check the invitation, add the key, use it up. */
int
job_enrol(struct service *svc, struct job *j, int64_t now)
{
	struct job_enrol	*je = &j->u.enrol;
	struct store_invitation	 inv;
	enum store_status	 ss;

	ss = store_invitation_find(svc->wstore, je->token_hash, &inv);
	if (ss == STORE_NOTFOUND)
		return service_fail(j->err, 404, "no-such-invitation",
		    "this invitation is not known: ask the club for a new "
		    "link");
	if (ss != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the invitation");
	if (inv.used != 0)
		return service_fail(j->err, 410, "invitation-used",
		    "this invitation was used already: each link registers "
		    "one key; ask the club for a new one");
	if (now >= inv.expires)
		return service_fail(j->err, 410, "invitation-expired",
		    "this invitation has expired: ask the club for a new "
		    "link");
	if (store_player_get(svc->wstore, inv.player_id, je->p) != STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "read the invited player");
	if (key_insert(svc->wstore, inv.player_id, je->key, now,
	    player_lang(je->p), je->k, j->err) != 0)
		return -1;
	if (store_invitation_use(svc->wstore, inv.id, now, je->k->id) !=
	    STORE_OK)
		return service_store_fail(j->err, svc->wstore,
		    "use the invitation");
	return 0;
}
