/*
 * http/tls.c: HTTPS: the certificate and key, and their reload in place.
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
 * libmicrohttpd reads a certificate once, at start. To renew one without
 * closing the listening socket or a connection, the server hands GnuTLS a
 * callback (MHD_OPTION_HTTPS_CERT_CALLBACK) that answers every handshake
 * with the credentials current at that moment; a reload loads the files
 * into a new set and makes it current. A handshake may still hold the
 * set it was given, so replaced sets are kept until the server stops
 * (a few kilobytes per reload).
 *
 * The callback has no user pointer, so the current set is the process's:
 * one HTTPS server per process (corrchessd has one).
 */

#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include "http/http_int.h"
#include "util/log.h"

/* Most certificates in a chain file. */
#define TLS_CHAIN_MAX	16

/* One certificate chain and its private key, as GnuTLS uses them. */
struct http_tls_creds {
	gnutls_pcert_st		 pcert[TLS_CHAIN_MAX];
	unsigned int		 npcert;
	gnutls_privkey_t	 key;
	struct http_tls_creds	*next;		/* retired sets */
};

static pthread_mutex_t		 tls_lock = PTHREAD_MUTEX_INITIALIZER;
static struct http_tls_creds	*tls_current;
static struct http_tls_creds	*tls_retired;
static const struct http_server	*tls_owner;

/* Free a set of credentials; accepts NULL. */
static void
tls_creds_free(struct http_tls_creds *c)
{
	unsigned int	i;

	if (c == NULL)
		return;
	for (i = 0; i < c->npcert; i++)
		gnutls_pcert_deinit(&c->pcert[i]);
	if (c->key != NULL)
		gnutls_privkey_deinit(c->key);
	free(c);
}

/* Tell whether the private key is the certificate's: 1, 0, or -1. */
static int
tls_key_matches(struct http_tls_creds *c)
{
	gnutls_pubkey_t	pub = NULL;
	gnutls_datum_t	a = { NULL, 0 }, b = { NULL, 0 };
	int		ret = -1;

	if (gnutls_pubkey_init(&pub) < 0 ||
	    gnutls_pubkey_import_privkey(pub, c->key, 0, 0) < 0 ||
	    gnutls_pubkey_export2(pub, GNUTLS_X509_FMT_DER, &a) < 0 ||
	    gnutls_pubkey_export2(c->pcert[0].pubkey, GNUTLS_X509_FMT_DER,
	    &b) < 0)
		goto out;
	ret = a.size == b.size && memcmp(a.data, b.data, a.size) == 0;
 out:
	gnutls_free(a.data);
	gnutls_free(b.data);
	if (pub != NULL)
		gnutls_pubkey_deinit(pub);
	return ret;
}

/* The end of the first certificate's validity, or -1. */
static time_t
tls_expiry(struct http_tls_creds *c)
{
	gnutls_x509_crt_t	crt;
	time_t			t;

	if (gnutls_x509_crt_init(&crt) < 0)
		return -1;
	if (gnutls_x509_crt_import(crt, &c->pcert[0].cert,
	    GNUTLS_X509_FMT_DER) < 0) {
		gnutls_x509_crt_deinit(crt);
		return -1;
	}
	t = gnutls_x509_crt_get_expiration_time(crt);
	gnutls_x509_crt_deinit(crt);
	return t;
}

/*
 * Load a PEM certificate chain and its PEM private key; NULL with a
 * reason naming the file at fault.
 */
static struct http_tls_creds *
tls_creds_load(const char *cert, const char *key, char *err, size_t errsize)
{
	struct http_tls_creds	*c;
	gnutls_datum_t		 cd = { NULL, 0 }, kd = { NULL, 0 };
	int			 r;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	if ((r = gnutls_load_file(cert, &cd)) < 0) {
		snprintf(err, errsize, "certificate %s: cannot be read (%s)",
		    cert, gnutls_strerror(r));
		goto fail;
	}
	if ((r = gnutls_load_file(key, &kd)) < 0) {
		snprintf(err, errsize, "key %s: cannot be read (%s)", key,
		    gnutls_strerror(r));
		goto fail;
	}
	c->npcert = TLS_CHAIN_MAX;
	if ((r = gnutls_pcert_list_import_x509_raw(c->pcert, &c->npcert, &cd,
	    GNUTLS_X509_FMT_PEM, 0)) < 0 || c->npcert == 0) {
		c->npcert = 0;
		snprintf(err, errsize, "certificate %s: no PEM certificate "
		    "chain of at most %d certificates in it (%s)", cert,
		    TLS_CHAIN_MAX, r < 0 ? gnutls_strerror(r) : "empty");
		goto fail;
	}
	if (gnutls_privkey_init(&c->key) < 0) {
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	if ((r = gnutls_privkey_import_x509_raw(c->key, &kd,
	    GNUTLS_X509_FMT_PEM, NULL, 0)) < 0) {
		snprintf(err, errsize, "key %s: no unencrypted PEM private "
		    "key in it (%s)", key, gnutls_strerror(r));
		goto fail;
	}
	if (tls_key_matches(c) != 1) {
		snprintf(err, errsize, "key %s is not the key of the "
		    "certificate in %s", key, cert);
		goto fail;
	}
	gnutls_free(cd.data);
	gnutls_free(kd.data);
	return c;
 fail:
	gnutls_free(cd.data);
	gnutls_free(kd.data);
	tls_creds_free(c);
	return NULL;
}

/* Log what the server now presents. */
static void
tls_log(const char *what, const char *cert, struct http_tls_creds *c)
{
	time_t		t = tls_expiry(c);
	struct tm	tm;
	char		when[32] = "?";

	if (t != -1 && gmtime_r(&t, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	log_info("https: %s %s (%u certificate%s, valid until %s)", what, cert,
	    c->npcert, c->npcert == 1 ? "" : "s", when);
	if (t != -1 && t < time(NULL))
		log_warnx("https: the certificate in %s expired on %s; "
		    "browsers will refuse it", cert, when);
}

/* Check that a certificate and key would serve; 0, or -1 with why. */
int
http_tls_check(const char *cert, const char *key, char *err,
    size_t errsize)
{
	struct http_tls_creds	*c;

	if ((c = tls_creds_load(cert, key, err, errsize)) == NULL)
		return -1;
	tls_creds_free(c);
	return 0;
}

/*
 * Answer a handshake with the current credentials (GnuTLS's
 * gnutls_certificate_retrieve_function2, called by libmicrohttpd's
 * threads). The set stays allocated until the server stops.
 */
int
http_tls_retrieve(gnutls_session_t session, const gnutls_datum_t *req_ca_dn,
    int nreqs, const gnutls_pk_algorithm_t *pk_algos, int pk_algos_length,
    gnutls_pcert_st **pcert, unsigned int *pcert_length,
    gnutls_privkey_t *pkey)
{
	int	ret = -1;

	(void)session;
	(void)req_ca_dn;
	(void)nreqs;
	(void)pk_algos;
	(void)pk_algos_length;
	pthread_mutex_lock(&tls_lock);
	if (tls_current != NULL) {
		*pcert = tls_current->pcert;
		*pcert_length = tls_current->npcert;
		*pkey = tls_current->key;
		ret = 0;
	}
	pthread_mutex_unlock(&tls_lock);
	return ret;
}

/* Load the server's certificate and key before it starts. */
int
http_tls_start(struct http_server *srv, char *err, size_t errsize)
{
	struct http_tls_creds	*c;

	if (!MHD_is_feature_supported(MHD_FEATURE_HTTPS_CERT_CALLBACK)) {
		snprintf(err, errsize, "this libmicrohttpd cannot serve HTTPS "
		    "(built without TLS or without certificate callbacks)");
		return -1;
	}
	if ((c = tls_creds_load(srv->opts.tls_cert, srv->opts.tls_key, err,
	    errsize)) == NULL)
		return -1;
	pthread_mutex_lock(&tls_lock);
	if (tls_owner != NULL) {
		pthread_mutex_unlock(&tls_lock);
		tls_creds_free(c);
		snprintf(err, errsize, "one HTTPS server per process, and one "
		    "is running");
		return -1;
	}
	tls_owner = srv;
	tls_current = c;
	pthread_mutex_unlock(&tls_lock);
	tls_log("serving", srv->opts.tls_cert, c);
	return 0;
}

/* Read the certificate and key again and serve them from the next
 * handshake on. */
int
http_tls_reload(struct http_server *srv, const char *cert, const char *key,
    char *err, size_t errsize)
{
	struct http_tls_creds	*c;

	if (srv == NULL || tls_owner != srv) {
		snprintf(err, errsize, "the server does not serve HTTPS "
		    "(it starts with a certificate, or never)");
		return -1;
	}
	if ((c = tls_creds_load(cert, key, err, errsize)) == NULL)
		return -1;
	pthread_mutex_lock(&tls_lock);
	tls_current->next = tls_retired;
	tls_retired = tls_current;
	tls_current = c;
	pthread_mutex_unlock(&tls_lock);
	tls_log("now serving", cert, c);
	return 0;
}

/* Tell whether the server serves HTTPS. */
bool
http_tls_serving(const struct http_server *srv)
{
	bool	on;

	pthread_mutex_lock(&tls_lock);
	on = srv != NULL && tls_owner == srv;
	pthread_mutex_unlock(&tls_lock);
	return on;
}

/* Free the credentials once libmicrohttpd has stopped. */
void
http_tls_stop(struct http_server *srv)
{
	struct http_tls_creds	*c;

	pthread_mutex_lock(&tls_lock);
	if (tls_owner != srv) {
		pthread_mutex_unlock(&tls_lock);
		return;
	}
	tls_creds_free(tls_current);
	while ((c = tls_retired) != NULL) {
		tls_retired = c->next;
		tls_creds_free(c);
	}
	tls_current = NULL;
	tls_owner = NULL;
	pthread_mutex_unlock(&tls_lock);
}
