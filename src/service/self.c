/*
 * service/self.c: players who manage themselves by signed statement.
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
 * A player's own statements say "game: 0"; their ply is the count of the
 * player's own statements accepted so far, kept in player_records, so a
 * captured statement cannot be replayed. Each accepted change is recorded
 * there and told to the player's address (the old one, for an address
 * change); show-settings is a signed read, neither recorded nor counted.
 *
 * Settings are rows of one table (name, values, apply): a new setting is
 * one row and one function, with nothing to change in the statement
 * grammar or the front doors.
 */

#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "service/service_int.h"
#include "util/french.h"

/* An address change waits this long for its code. */
#define SELF_CODE_DAYS		2
#define SELF_CODE_LEN		8
/* A player's own reminder thresholds: how many, and their range. */
#define SELF_REMINDERS_MAX	4
#define SELF_REMINDER_MIN	3600
#define SELF_REMINDER_MAX	(30 * GAME_DAY)

/* What one setting's apply() may change, all written after it. */
struct self_change {
	struct store_player	p;
	struct store_settings	set;
};

/* One setting a player may change with "set NAME VALUE". */
struct setting {
	const char	*name;
	const char	*values;	/* for refusals and help */
	const char	*values_fr;	/* the same in French */
	/* Check `value` and apply it to `c` (or write through
	 * svc->wstore, in the job's transaction). */
	int		(*apply)(struct service *, struct self_change *c,
			    const char *value, struct service_error *);
};

/* Read "on" or "off". */
static int
on_off(const char *value, bool *out)
{
	if (strcmp(value, "on") == 0)
		*out = true;
	else if (strcmp(value, "off") == 0)
		*out = false;
	else
		return -1;
	return 0;
}

/* set lang en|fr */
static int
set_lang(struct service *svc, struct self_change *c, const char *value,
    struct service_error *err)
{
	(void)svc;
	(void)err;
	if (strcmp(value, "en") != 0 && strcmp(value, "fr") != 0)
		return -1;
	snprintf(c->p.lang, sizeof c->p.lang, "%s", value);
	return 0;
}

/* set move-mail on|off */
static int
set_move_mail(struct service *svc, struct self_change *c, const char *value,
    struct service_error *err)
{
	(void)svc;
	(void)err;
	return on_off(value, &c->set.move_mail);
}

/* set digest none|daily */
static int
set_digest(struct service *svc, struct self_change *c, const char *value,
    struct service_error *err)
{
	(void)svc;
	(void)err;
	if (strcmp(value, "none") != 0 && strcmp(value, "daily") != 0)
		return -1;
	snprintf(c->p.digest, sizeof c->p.digest, "%s", value);
	return 0;
}

/* set digest-hour 0..23|any */
static int
set_digest_hour(struct service *svc, struct self_change *c,
    const char *value, struct service_error *err)
{
	char	*end;
	long	 h;

	(void)svc;
	(void)err;
	if (strcmp(value, "any") == 0) {
		c->set.digest_hour = -1;
		return 0;
	}
	h = strtol(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || *end != '\0' || h < 0 ||
	    h > 23 || strlen(value) > 2)
		return -1;
	c->set.digest_hour = (int)h;
	return 0;
}

/* set reminders on|off|3d,1d,12h */
static int
set_reminders(struct service *svc, struct self_change *c, const char *value,
    struct service_error *err)
{
	int64_t	th[SELF_REMINDERS_MAX];
	size_t	n;

	(void)svc;
	(void)err;
	if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0) {
		snprintf(c->set.reminders, sizeof c->set.reminders, "%s",
		    value);
		return 0;
	}
	if (self_reminders_parse(value, th, &n) != 0)
		return -1;
	snprintf(c->set.reminders, sizeof c->set.reminders, "%s", value);
	return 0;
}

/*
 * set xfcc-password ARGON2ID|none: the Argon2id string of the player's
 * Xfcc password, made on their side (corrchess settings hashes it), so
 * that the statement kept in their record never holds the password; its
 * parameters must be the server's own (libsodium's interactive limits).
 */
static int
set_xfcc_password(struct service *svc, struct self_change *c,
    const char *value, struct service_error *err)
{
	struct store_doors	d;
	enum store_status	ss;

	if (strcmp(value, "none") != 0 && (strncmp(value, "$argon2id$",
	    10) != 0 || crypto_pwhash_str_needs_rehash(value,
	    crypto_pwhash_OPSLIMIT_INTERACTIVE,
	    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0))
		return service_fail(err, 400, "bad-setting", "%s",
		    player_lang(&c->p) == CHESS_LANG_FR ? "xfcc-password "
		    "prend la chaîne Argon2id du mot de passe "
		    "(crypto_pwhash_str de libsodium, limites interactives), "
		    "telle que `corrchess settings xfcc-password -` la "
		    "fait, ou none ; jamais le mot de passe lui-même : la "
		    "déclaration est gardée dans votre historique" :
		    "xfcc-password takes the Argon2id string of the password "
		    "(libsodium's crypto_pwhash_str, interactive limits), as "
		    "`corrchess settings xfcc-password -` makes it, or none; "
		    "never the password itself: the statement is kept in your "
		    "record");
	if (store_doors_get(svc->wstore, c->p.id, &d) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "read your doors");
	snprintf(d.xfcc_hash, sizeof d.xfcc_hash, "%s",
	    strcmp(value, "none") == 0 ? "" : value);
	ss = store_doors_set(svc->wstore, &d);
	sodium_memzero(&d, sizeof d);
	if (ss != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "store your Xfcc password");
	return 0;
}

/* The settings, in the order `corrchess settings` shows them. */
static const struct setting settings[] = {
	{ "lang", "en or fr", "en ou fr", set_lang },
	{ "move-mail", "on or off (a mail for each of the opponent's moves)",
	  "on ou off (un courriel pour chaque coup de l'adversaire)",
	  set_move_mail },
	{ "reminders", "on (the server's), off, or your own thresholds such "
	  "as 3d,1d,12h (at most 4, from 1h to 30d)", "on (ceux du serveur), "
	  "off, ou vos propres seuils comme 3d,1d,12h (4 au plus, de 1h à "
	  "30d)", set_reminders },
	{ "digest", "none or daily", "none ou daily", set_digest },
	{ "digest-hour", "an hour of the day, 0 to 23 (UTC), or any",
	  "une heure du jour, de 0 à 23 (UTC), ou any", set_digest_hour },
	{ "xfcc-password", "the Argon2id string of your Xfcc password, or "
	  "none", "la chaîne Argon2id de votre mot de passe Xfcc, ou none",
	  set_xfcc_password },
};

/*
 * Parse a player's own reminder thresholds ("3d,1d,12h": days or hours,
 * at most SELF_REMINDERS_MAX, each from 1h to 30d) into seconds.
 */
int
self_reminders_parse(const char *text, int64_t *th, size_t *n)
{
	const char	*p = text;
	char		*end;
	long		 v;

	*n = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		v = strtol(p, &end, 10);
		if (*end != 'd' && *end != 'h')
			return -1;
		if (*n == SELF_REMINDERS_MAX || v <= 0 || v > 30 * 24)
			return -1;
		th[*n] = (int64_t)v * (*end == 'd' ? GAME_DAY : 3600);
		if (th[*n] < SELF_REMINDER_MIN || th[*n] > SELF_REMINDER_MAX)
			return -1;
		(*n)++;
		p = end + 1;
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/* Find a setting by name. */
static const struct setting *
setting_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof settings / sizeof settings[0]; i++)
		if (strcmp(settings[i].name, name) == 0)
			return &settings[i];
	return NULL;
}

/* Refuse an unknown setting, naming those there are, in `lang`. */
static int
setting_unknown(const char *name, enum chess_lang lang,
    struct service_error *err)
{
	char	list[256];
	size_t	i, o = 0;

	list[0] = '\0';
	for (i = 0; i < sizeof settings / sizeof settings[0]; i++)
		o += (size_t)snprintf(list + o, o < sizeof list ?
		    sizeof list - o : 0, "%s%s", i ? ", " : "",
		    settings[i].name);
	return service_fail(err, 400, "unknown-setting",
	    lang == CHESS_LANG_FR ? "il n'y a pas de réglage « %s » ; les "
	    "réglages sont %s" :
	    "there is no setting \"%s\"; the settings are %s", name, list);
}

/* Write a player's settings as lines "name: value" (the names of `set`). */
static void
settings_text(const struct store_player *p, const struct store_settings *s,
    const char *pending, char *buf, size_t size)
{
	char	hour[12];

	if (s->digest_hour < 0)
		snprintf(hour, sizeof hour, "any");
	else
		snprintf(hour, sizeof hour, "%d", s->digest_hour);
	snprintf(buf, size, "email: %s%s%s%s\nlang: %s\nmove-mail: %s\n"
	    "reminders: %s\ndigest: %s\ndigest-hour: %s\n",
	    p->email[0] != '\0' ? p->email : "(none)",
	    pending[0] != '\0' ? " (waiting for the code sent to " : "",
	    pending, pending[0] != '\0' ? ")" : "", p->lang,
	    s->move_mail ? "on" : "off", s->reminders,
	    p->digest[0] != '\0' ? p->digest : "none", hour);
}

/* Read a player's settings with handle `st` into `out`. */
static int
settings_read(struct service *svc, struct store *st, const char *name,
    struct service_settings *out, struct service_error *err)
{
	struct store_email_change	ec;
	enum store_status		ss;

	memset(out, 0, sizeof *out);
	if (player_read(st, name, &out->sp, err) != 0)
		return -1;
	if (store_settings_get(st, out->sp.p.id, &out->set) != STORE_OK ||
	    store_self_count(st, out->sp.p.id, &out->ply) != STORE_OK) {
		service_player_free(&out->sp);
		return service_store_fail(err, st, "read the settings");
	}
	ss = store_email_change_get(st, out->sp.p.id, &ec);
	if (ss == STORE_OK && ec.expires > service_now(svc))
		snprintf(out->pending_email, sizeof out->pending_email, "%s",
		    ec.email);
	else if (ss != STORE_OK && ss != STORE_NOTFOUND) {
		service_player_free(&out->sp);
		return service_store_fail(err, st, "read the address change");
	}
	return 0;
}

/* Read a player's settings. */
int
service_settings_get(struct service *svc, const char *name,
    struct service_settings *out, struct service_error *err)
{
	struct store	*st;
	int		 rc;

	if ((st = pool_get(svc, err)) == NULL)
		return -1;
	rc = settings_read(svc, st, name, out, err);
	pool_put(svc, st);
	return rc;
}

/* Release what service_settings_get() filled. */
void
service_settings_free(struct service_settings *s)
{
	if (s != NULL)
		service_player_free(&s->sp);
}

/* Tell the player what their statement did, at their address. */
static int
self_notify(struct service *svc, const struct store_player *p,
    const char *action, const char *summary, int64_t now)
{
	struct notice	n;

	if (!svc->mail || p->email[0] == '\0')
		return 0;
	notify_start(&n, NOTICE_ACCOUNT, p->email, p->name, player_lang(p));
	n.account_action = action;
	n.account_summary = summary;
	return notify_queue(svc, svc->wstore, &n, now);
}

/* Hash an address change's code (upper case, as it is shown). */
static void
code_hash(const char *code, uint8_t hash[STORE_CODE_HASH_LEN])
{
	char	up[SIG_VALUE_MAX + 1];
	size_t	i;

	for (i = 0; code[i] != '\0' && i < SIG_VALUE_MAX; i++)
		up[i] = (char)toupper((unsigned char)code[i]);
	up[i] = '\0';
	crypto_generichash(hash, STORE_CODE_HASH_LEN, (const uint8_t *)up, i,
	    NULL, 0);
}

/* email ADDRESS: keep the change and mail a code to the new address. */
static int
self_email(struct service *svc, const struct job_statement *s,
    struct self_change *c, int64_t ply, char *msg, size_t msgsize,
    struct service_error *err, int64_t now)
{
	static const char	 alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	struct store_email_change ec;
	struct notice		 n;
	char			 code[SELF_CODE_LEN + 1], email[STORE_EMAIL_SIZE];
	char			 ready[SIG_STATEMENT_MAX];
	size_t			 i;
	bool			 fr = s->lang == CHESS_LANG_FR;

	if (player_email_check(s->st->action.value, err) != 0)
		return -1;
	player_email_copy(email, s->st->action.value);
	if (strcmp(email, c->p.email) == 0)
		return service_fail(err, 409, "same-email", fr ?
		    "%s est déjà votre adresse" :
		    "%s is your address already", email);
	if (!svc->mail)
		return service_fail(err, 409, "no-mail", fr ?
		    "ce serveur n'envoie pas de courriel, il ne peut donc pas "
		    "envoyer le code qui confirme une nouvelle adresse : "
		    "demandez à l'administrateur de la changer" :
		    "this server sends no mail, so it cannot send the code "
		    "that confirms a new address: ask the admin to change it");
	for (i = 0; i < SELF_CODE_LEN; i++)
		code[i] = alphabet[randombytes_uniform(sizeof alphabet - 1)];
	code[SELF_CODE_LEN] = '\0';
	memset(&ec, 0, sizeof ec);
	ec.player_id = c->p.id;
	snprintf(ec.email, sizeof ec.email, "%s", email);
	code_hash(code, ec.code_hash);
	ec.created = now;
	ec.expires = now + SELF_CODE_DAYS * GAME_DAY;
	if (store_email_change_set(svc->wstore, &ec) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "record the address change");
	/* The statement that confirms it, ready to sign: the next ply. */
	snprintf(ready, sizeof ready, SIG_HEADER "\ngame: 0\nply: %" PRId64
	    "\nplayer: %s\naction: confirm-email %s\n", ply + 1, c->p.name,
	    code);
	notify_start(&n, NOTICE_EMAIL_CODE, email, c->p.name,
	    player_lang(&c->p));
	n.account_action = code;
	n.account_summary = ready;
	n.deadline = ec.expires;
	if (notify_queue(svc, svc->wstore, &n, now) != 0)
		return service_store_fail(err, svc->wstore,
		    "queue the mail with the code");
	snprintf(msg, msgsize, fr ? "un code a été envoyé à %s ; votre adresse "
	    "change quand vous signez « confirm-email CODE » avec lui (dans "
	    "les %d jours)" : "a code was sent to %s; your address changes "
	    "when you sign \"confirm-email CODE\" with it (within %d days)",
	    email, SELF_CODE_DAYS);
	return 0;
}

/* confirm-email CODE: the change waiting for it takes effect. */
static int
self_confirm_email(struct service *svc, const struct job_statement *s,
    struct self_change *c, char *msg, size_t msgsize,
    struct service_error *err, int64_t now)
{
	struct store_email_change	ec;
	enum store_status		ss;
	uint8_t				hash[STORE_CODE_HASH_LEN];
	bool				fr = s->lang == CHESS_LANG_FR;

	ss = store_email_change_get(svc->wstore, c->p.id, &ec);
	if (ss == STORE_NOTFOUND)
		return service_fail(err, 409, "no-email-change", fr ?
		    "aucun changement d'adresse n'attend de code : signez "
		    "d'abord « email ADRESSE »" :
		    "no change of address waits for a code: sign \"email "
		    "ADDRESS\" first");
	if (ss != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "read the address change");
	if (ec.expires <= now)
		return service_fail(err, 410, "code-expired", fr ?
		    "le code pour %s a expiré : signez de nouveau « email %s » "
		    "pour en recevoir un autre" :
		    "the code for %s has expired: sign \"email %s\" again for "
		    "a new one", ec.email, ec.email);
	code_hash(s->st->action.value, hash);
	if (sodium_memcmp(hash, ec.code_hash, sizeof hash) != 0)
		return service_fail(err, 403, "bad-code", fr ?
		    "ce n'est pas le code envoyé à %s" :
		    "this is not the code that was sent to %s", ec.email);
	snprintf(msg, msgsize, fr ? "votre adresse est maintenant %s (c'était "
	    "%s)" : "your address is now %s (it was %s)", ec.email,
	    c->p.email[0] != '\0' ? c->p.email : fr ? "aucune" : "none");
	snprintf(c->p.email, sizeof c->p.email, "%s", ec.email);
	if (store_email_change_clear(svc->wstore, c->p.id) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "drop the address change");
	return 0;
}

/*
 * Revoke a player's key, in the writer's transaction: statements it signs
 * are refused from now on, and the conditional moves it signed end.
 */
int
key_revoke_apply(struct service *svc, int64_t key_id, int64_t *ended,
    int64_t now, struct service_error *err)
{
	if (store_key_revoke(svc->wstore, key_id, now) != STORE_OK)
		return service_store_fail(err, svc->wstore, "revoke the key");
	if (store_conditional_end_by_key(svc->wstore, key_id,
	    "the key that signed them was revoked", now, ended) != STORE_OK)
		return service_store_fail(err, svc->wstore,
		    "end the conditional moves the key signed");
	return 0;
}

/* revoke-key SHA256:...|ID: never the last valid key. */
static int
self_revoke_key(struct service *svc, const struct job_statement *s,
    const struct service_player *sp, char *msg, size_t msgsize,
    struct service_error *err, int64_t now)
{
	const char	*ref = s->st->action.value;
	char		 fp[SIG_FINGERPRINT_SIZE];
	size_t		 i, valid = 0, at = sp->nkeys;
	int64_t		 ended = 0;
	bool		 fr = s->lang == CHESS_LANG_FR;

	for (i = 0; i < sp->nkeys; i++) {
		sig_pubkey_fingerprint(sp->keys[i].pubkey, fp);
		if (sp->keys[i].revoked == 0)
			valid++;
		if (strcmp(fp, ref) == 0 || (isdigit((unsigned char)ref[0]) &&
		    strtoll(ref, NULL, 10) == sp->keys[i].id))
			at = i;
	}
	if (at == sp->nkeys)
		return service_fail(err, 404, "no-such-key", fr ?
		    "vous n'avez pas de clé %s (donnez son empreinte SHA256, "
		    "comme ssh-keygen -l l'écrit, ou son numéro)" :
		    "you have no key %s (give its SHA256 fingerprint, as "
		    "ssh-keygen -l prints it, or its id)", ref);
	if (sp->keys[at].revoked != 0)
		return service_fail(err, 409, "key-revoked", fr ?
		    "la clé %" PRId64 " a déjà été révoquée" :
		    "key %" PRId64 " was revoked already", sp->keys[at].id);
	if (valid == 1)
		return service_fail(err, 409, "last-key", fr ?
		    "la clé %" PRId64 " est votre seule clé valide : "
		    "ajoutez-en une autre (add-key) avant de révoquer "
		    "celle-ci" :
		    "key %" PRId64 " is your only valid key: add another "
		    "(add-key) before you revoke this one", sp->keys[at].id);
	if (key_revoke_apply(svc, sp->keys[at].id, &ended, now, err) != 0)
		return -1;
	sig_pubkey_fingerprint(sp->keys[at].pubkey, fp);
	if (fr)
		snprintf(msg, msgsize, "la clé %" PRId64 " (%s) est révoquée%s",
		    sp->keys[at].id, fp, ended > 0 ? " ; les coups "
		    "conditionnels qu'elle a signés sont terminés" : "");
	else
		snprintf(msg, msgsize, "key %" PRId64 " (%s) is revoked%s",
		    sp->keys[at].id, fp, ended > 0 ? "; the conditional moves "
		    "it signed are ended" : "");
	return 0;
}

/* Name the record kind of a player's own action. */
static const char *
self_kind(enum sig_action_kind k)
{
	switch (k) {
	case SIG_ACT_ADD_KEY:
		return "add-key";
	case SIG_ACT_REVOKE_KEY:
		return "revoke-key";
	case SIG_ACT_SET:
		return "set";
	case SIG_ACT_EMAIL:
		return "email";
	case SIG_ACT_CONFIRM_EMAIL:
		return "confirm-email";
	default:
		return "show-settings";
	}
}

/* Apply one of a player's own actions to `c` (or the store). */
static int
self_apply(struct service *svc, const struct job_statement *s,
    const struct service_player *sp, struct self_change *c, int64_t ply,
    char *msg, size_t msgsize, struct service_error *err, int64_t now)
{
	const struct sig_action	*a = &s->st->action;
	const struct setting	*set;
	struct store_key	 k;
	char			 fp[SIG_FINGERPRINT_SIZE];
	bool			 fr = s->lang == CHESS_LANG_FR;

	switch (a->kind) {
	case SIG_ACT_ADD_KEY:
		if (key_insert(svc->wstore, c->p.id, a->value, now, s->lang,
		    &k, err) != 0)
			return -1;
		sig_pubkey_fingerprint(k.pubkey, fp);
		snprintf(msg, msgsize, fr ? "la clé %" PRId64 " (%s) est "
		    "ajoutée" : "key %" PRId64 " (%s) is added", k.id, fp);
		return 0;
	case SIG_ACT_REVOKE_KEY:
		return self_revoke_key(svc, s, sp, msg, msgsize, err, now);
	case SIG_ACT_SET:
		if ((set = setting_find(a->setting)) == NULL)
			return setting_unknown(a->setting, s->lang, err);
		if (set->apply(svc, c, a->value, err) != 0) {
			if (err->code[0] == '\0')
				service_fail(err, 400, "bad-setting", fr ?
				    "%s prend %s, pas « %s »" :
				    "%s takes %s, not \"%s\"", set->name,
				    fr ? set->values_fr : set->values,
				    a->value);
			return -1;
		}
		/* A new language is said in that language. */
		if (set->apply == set_lang)
			fr = strcmp(a->value, "fr") == 0;
		if (set->apply == set_xfcc_password)
			snprintf(msg, msgsize, fr ? "votre mot de passe Xfcc "
			    "est %s" : "your Xfcc password is %s",
			    strcmp(a->value, "none") == 0 ? (fr ? "supprimé" :
			    "removed") : fr ? "changé" : "changed");
		else
			snprintf(msg, msgsize, fr ? "%s vaut maintenant %s" :
			    "%s is now %s", set->name, a->value);
		return 0;
	case SIG_ACT_EMAIL:
		return self_email(svc, s, c, ply, msg, msgsize, err, now);
	case SIG_ACT_CONFIRM_EMAIL:
		return self_confirm_email(svc, s, c, msg, msgsize, err, now);
	default:
		snprintf(msg, msgsize, fr ? "vos réglages" : "your settings");
		return 0;
	}
}

/*
 * In the writer: a player's own signed statement (game 0), by any door.
 * The key must still be valid and the ply the count of their statements;
 * the change, its record and the mail that tells of it commit together.
 */
int
job_self(struct service *svc, struct job *j, int64_t now)
{
	const struct job_statement	*s = j->kind == JOB_MAIL ?
					    &j->u.mail.s : &j->u.action.s;
	const struct sig_statement	*st = s->st;
	struct service_player		 sp;
	struct self_change		 c;
	struct store_self_record	 r;
	char				 msg[SERVICE_SELF_MSG_SIZE];
	char				 summary[1024], action[SIG_ACTION_MAX +
					     1];
	const char			*pending = "";
	struct store_email_change	 ec;
	int64_t				 ply;
	int				 rc = -1;

	memset(&sp, 0, sizeof sp);
	msg[0] = '\0';
	if (s->attested != NULL)
		return service_fail(j->err, 403, "signature-required",
		    s->lang == CHESS_LANG_FR ? "un changement de vos réglages "
		    "et de vos clés doit être signé avec votre clé" :
		    "a change to your own settings and keys must be signed "
		    "with your key");
	if (key_still_valid(svc, s, j->err) != 0)
		return -1;
	if (player_read(svc->wstore, st->player, &sp, j->err) != 0)
		return -1;
	memset(&c, 0, sizeof c);
	c.p = sp.p;
	if (store_settings_get(svc->wstore, c.p.id, &c.set) != STORE_OK ||
	    store_self_count(svc->wstore, c.p.id, &ply) != STORE_OK) {
		service_store_fail(j->err, svc->wstore, "read your settings");
		goto out;
	}
	if ((int64_t)st->ply != ply) {
		service_fail(j->err, 409, "stale-ply", s->lang ==
		    CHESS_LANG_FR ? "la déclaration est pour le ply %" PRIu32
		    " mais %s a fait %" PRId64 " déclaration%s sur lui-même : "
		    "signez-en une pour le ply %" PRId64 :
		    "the statement is for ply %" PRIu32 " but %s has made %"
		    PRId64 " statement%s about themselves: sign one for ply %"
		    PRId64, st->ply, st->player, ply, ply == 1 ||
		    (ply == 0 && s->lang == CHESS_LANG_FR) ? "" : "s", ply);
		goto out;
	}
	if (self_apply(svc, s, &sp, &c, ply, msg, sizeof msg, j->err,
	    now) != 0)
		goto out;
	if (st->action.kind != SIG_ACT_SHOW_SETTINGS) {
		if (store_player_update(svc->wstore, &c.p) != STORE_OK ||
		    store_settings_set(svc->wstore, &c.set) != STORE_OK) {
			service_store_fail(j->err, svc->wstore,
			    "store your settings");
			goto out;
		}
		memset(&r, 0, sizeof r);
		r.player_id = c.p.id;
		r.seq = ply;
		snprintf(r.kind, sizeof r.kind, "%s",
		    self_kind(st->action.kind));
		r.statement = s->canon;
		r.signature = s->sigtext;
		r.key_id = s->key_id;
		snprintf(r.source, sizeof r.source, "%s", s->source);
		r.created = now;
		if (store_self_add(svc->wstore, &r) != STORE_OK) {
			service_store_fail(j->err, svc->wstore,
			    "record your statement");
			goto out;
		}
	}
	/* Told at the address the player had: a stolen key that changes
	 * the address is heard of at the old one. Reads by mail only. */
	if (st->action.kind != SIG_ACT_SHOW_SETTINGS ||
	    strcmp(s->source, "mail") == 0) {
		if (store_email_change_get(svc->wstore, c.p.id, &ec) ==
		    STORE_OK && ec.expires > now)
			pending = ec.email;
		settings_text(&c.p, &c.set, pending, summary, sizeof summary);
		snprintf(action, sizeof action, "%.*s", (int)strcspn(
		    strstr(s->canon, "\naction: ") + 9, "\n"),
		    strstr(s->canon, "\naction: ") + 9);
		/* The password's hash is not mailed. */
		if (st->action.kind == SIG_ACT_SET &&
		    strcmp(st->action.setting, "xfcc-password") == 0)
			snprintf(action, sizeof action, "set xfcc-password "
			    "(%s)", msg);
		if (self_notify(svc, &sp.p, action, summary, now) != 0) {
			service_store_fail(j->err, svc->wstore,
			    "queue the mail that tells you of it");
			goto out;
		}
	}
	if (j->kind == JOB_ACTION)
		snprintf(j->u.action.self_msg, sizeof j->u.action.self_msg,
		    "%s", msg);
	rc = 0;
 out:
	service_player_free(&sp);
	return rc;
}

/* Submit a player's own signed statement through the door for `name`,
 * refused in English before its player. */
int
service_self_submit(struct service *svc, const char *name, const char *text,
    size_t len, const char *source, struct service_settings *out,
    struct service_error *err)
{
	return service_self_submit_lang(svc, name, text, len, CHESS_LANG_EN,
	    source, out, err);
}

/* The same, refused in `lang` before its player. */
int
service_self_submit_lang(struct service *svc, const char *name,
    const char *text, size_t len, enum chess_lang lang, const char *source,
    struct service_settings *out, struct service_error *err)
{
	struct prepared		*p;
	struct job		 j;
	bool			 fr;
	int			 rc = -1;

	memset(err, 0, sizeof *err);
	if ((p = calloc(1, sizeof *p)) == NULL)
		return service_fail(err, 500, "internal", "out of memory");
	if (action_prepare(svc, 0, text, len, lang, p, err) != 0)
		goto out;
	fr = player_lang(&p->sp.p) == CHESS_LANG_FR;
	if (p->st.game != 0) {
		service_fail(err, 400, "wrong-game", fr ?
		    "la déclaration est pour la partie %" PRIu64 " : l'action "
		    "d'une partie va à cette partie ; une déclaration sur "
		    "vous-même porte « game: 0 »" :
		    "the statement is for game %" PRIu64 ": a game's action "
		    "goes to that game; a statement about yourself says "
		    "\"game: 0\"", p->st.game);
		goto out;
	}
	if (name != NULL && strcmp(p->st.player, name) != 0) {
		if (fr)
			service_fail(err, 400, "wrong-player", "la déclaration "
			    "est celle %s%s, pas %s%s", french_de(p->st.player),
			    p->st.player, french_de(name), name);
		else
			service_fail(err, 400, "wrong-player",
			    "the statement is %s's, not %s's", p->st.player,
			    name);
		goto out;
	}
	memset(&j, 0, sizeof j);
	j.kind = JOB_ACTION;
	j.err = err;
	action_statement(&j.u.action.s, p, source != NULL ? source : "http");
	if (writer_submit(svc, &j) != 0) {
		service_fault_lang(err, player_lang(&p->sp.p));
		goto out;
	}
	rc = 0;
	if (out != NULL) {
		rc = service_settings_get(svc, p->st.player, out, err);
		if (rc == 0)
			snprintf(out->message, sizeof out->message, "%s",
			    j.u.action.self_msg);
	}
 out:
	if (rc == 0)
		service_count_accepted();
	else
		service_count_refused(err->code[0] != '\0' ? err->code :
		    "internal");
	service_player_free(&p->sp);
	free(p);
	return rc;
}
