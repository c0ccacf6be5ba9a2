/*
 * xfcc/soap.c: Xfcc's SOAP requests read (libxml2), with limits.
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

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "util/errbuf.h"
#include "util/text.h"
#include "xfcc/soap.h"

/* Parser options: nothing from the network, no entity substitution, no
 * DTD loaded, no messages on stderr. */
#define SOAP_OPTIONS	(XML_PARSE_NONET | XML_PARSE_NOERROR | \
			 XML_PARSE_NOWARNING | XML_PARSE_NOCDATA)

/* Initialise libxml2 (its global tables) once. */
void
xfcc_soap_init(void)
{
	xmlInitParser();
}

/* Tell whether a node is the element `name` in namespace `ns` (NULL:
 * any). */
static bool
is_element(const xmlNode *n, const char *ns, const char *name)
{
	if (n == NULL || n->type != XML_ELEMENT_NODE ||
	    strcmp((const char *)n->name, name) != 0)
		return false;
	if (ns == NULL)
		return true;
	return n->ns != NULL && n->ns->href != NULL &&
	    strcmp((const char *)n->ns->href, ns) == 0;
}

/* The first element child of a node, or NULL. */
static xmlNode *
first_element(const xmlNode *n)
{
	xmlNode	*c;

	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return c;
	return NULL;
}

/* Give the depth of the deepest element under `n` (n itself is 1), going
 * no further than `limit` + 1. */
static int
depth(const xmlNode *n, int limit)
{
	const xmlNode	*c;
	int		 d, most = 1;

	if (limit <= 0)
		return 1;
	for (c = n->children; c != NULL; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if ((d = depth(c, limit - 1) + 1) > most)
			most = d;
		if (most > limit)
			break;
	}
	return most;
}

/* Copy an element's text, blanks around it dropped, into buf; -1 when it
 * does not fit or holds a control character. */
static int
text_copy(xmlNode *n, char *buf, size_t size)
{
	xmlChar		*t = xmlNodeGetContent(n);
	const char	*p, *e;
	size_t		 len;
	int		 rc = -1;

	if (t == NULL)
		return -1;
	for (p = (const char *)t; *p == ' ' || *p == '\t' || *p == '\r' ||
	    *p == '\n'; p++)
		;
	for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t' ||
	    e[-1] == '\r' || e[-1] == '\n'); e--)
		;
	len = (size_t)(e - p);
	if (len < size) {
		memcpy(buf, p, len);
		buf[len] = '\0';
		rc = 0;
		for (; p < e; p++)
			if ((unsigned char)*p < 0x20 && *p != '\n' &&
			    *p != '\r' && *p != '\t')
				rc = -1;
	}
	xmlFree(t);
	return rc;
}

/* Read a flag: true, false, 1, 0 (Scid sends 0 and 1). */
static int
flag_read(const char *text, bool *out)
{
	if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
		*out = true;
	else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0 ||
	    *text == '\0')
		*out = false;
	else
		return -1;
	return 0;
}

/* Read a decimal from 0 to `max`, without sign; -1 otherwise. */
static int
number_read(const char *text, int64_t max, int64_t *out)
{
	char		*end;
	long long	 v;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* Read one field of an operation into the call. */
static int
field_read(xmlNode *n, struct xfcc_call *call, char *why, size_t whysize)
{
	static const struct {
		const char	*name;
		size_t		 off, size;
	} strings[] = {
		{ "username", offsetof(struct xfcc_call, username),
		  sizeof call->username },
		{ "password", offsetof(struct xfcc_call, password),
		  sizeof call->password },
		{ "myMove", offsetof(struct xfcc_call, move),
		  sizeof call->move },
		{ "myMessage", offsetof(struct xfcc_call, message),
		  sizeof call->message },
	};
	static const struct {
		const char	*name;
		size_t		 off;
	} flags[] = {
		{ "resign", offsetof(struct xfcc_call, resign) },
		{ "acceptDraw", offsetof(struct xfcc_call, accept_draw) },
		{ "offerDraw", offsetof(struct xfcc_call, offer_draw) },
		{ "claimDraw", offsetof(struct xfcc_call, claim_draw) },
	};
	const char	*name = (const char *)n->name;
	char		 text[XFCC_MESSAGE_MAX + 1];
	size_t		 i;

	if (text_copy(n, text, sizeof text) != 0)
		return errbuf_set(why, whysize, "<%s> is too long or holds a "
		    "control character", name);
	for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		if (strcmp(name, strings[i].name) != 0)
			continue;
		if (strlen(text) >= strings[i].size)
			return errbuf_set(why, whysize, "<%s> is longer than "
			    "%zu bytes", name, strings[i].size - 1);
		memcpy((char *)call + strings[i].off, text, strlen(text) + 1);
		return 0;
	}
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		if (strcmp(name, flags[i].name) != 0)
			continue;
		if (flag_read(text, (bool *)((char *)call + flags[i].off)) != 0)
			return errbuf_set(why, whysize, "<%s> must be true or "
			    "false", name);
		return 0;
	}
	if (strcmp(name, "gameId") == 0) {
		if (number_read(text, INT64_MAX, &call->game_id) != 0 ||
		    call->game_id == 0)
			return errbuf_set(why, whysize, "<gameId> must be a "
			    "game number");
	} else if (strcmp(name, "movecount") == 0) {
		if (number_read(text, 100000, &call->movecount) != 0)
			return errbuf_set(why, whysize, "<movecount> must be "
			    "a move number");
	}
	/* Other fields (a client's extensions) are not ours to judge. */
	return 0;
}

/* Read a SOAP request. */
int
xfcc_soap_parse(const char *body, size_t len, struct xfcc_call *call,
    char *why, size_t whysize)
{
	xmlDoc		*doc = NULL;
	xmlNode		*root, *n, *op, *c;
	int		 rc = -1;

	memset(call, 0, sizeof *call);
	if (len > XFCC_SOAP_MAX) {
		errbuf_set(why, whysize, "the request is longer than %d bytes",
		    XFCC_SOAP_MAX);
		goto out;
	}
	/* No DTD at all: no entity can be declared, none expanded. */
	if (memmem(body, len, "<!DOCTYPE", 9) != NULL ||
	    memmem(body, len, "<!ENTITY", 8) != NULL) {
		errbuf_set(why, whysize, "a document type declaration is not "
		    "accepted");
		goto out;
	}
	/* Scid 4.7 says charset="utf-8" but Tcl's http sends the text of
	 * myMessage in ISO-8859-1: bytes that are not UTF-8 are read so. */
	if ((doc = xmlReadMemory(body, (int)len, NULL, text_utf8_valid(body,
	    len) ? NULL : "ISO-8859-1", SOAP_OPTIONS)) == NULL) {
		errbuf_set(why, whysize, "the request is not well-formed XML");
		goto out;
	}
	if (doc->intSubset != NULL || doc->extSubset != NULL) {
		errbuf_set(why, whysize, "a document type declaration is not "
		    "accepted");
		goto out;
	}
	root = xmlDocGetRootElement(doc);
	if (!is_element(root, XFCC_SOAP_NS, "Envelope")) {
		errbuf_set(why, whysize, "the request is not a SOAP 1.1 "
		    "envelope");
		goto out;
	}
	if (depth(root, XFCC_SOAP_DEPTH) > XFCC_SOAP_DEPTH) {
		errbuf_set(why, whysize, "elements are nested deeper than %d",
		    XFCC_SOAP_DEPTH);
		goto out;
	}
	for (n = first_element(root); n != NULL && !is_element(n,
	    XFCC_SOAP_NS, "Body"); n = n->next)
		;
	if (n == NULL || (op = first_element(n)) == NULL) {
		errbuf_set(why, whysize, "the envelope has no soap:Body "
		    "with an operation");
		goto out;
	}
	if (is_element(op, XFCC_NS, "GetMyGames"))
		call->op = XFCC_GET_MY_GAMES;
	else if (is_element(op, XFCC_NS, "MakeAMove"))
		call->op = XFCC_MAKE_A_MOVE;
	else {
		errbuf_set(why, whysize, "unknown operation \"%.64s\": this "
		    "server speaks XfccBasic (%s): GetMyGames, MakeAMove",
		    (const char *)op->name, XFCC_NS);
		goto out;
	}
	for (c = op->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    field_read(c, call, why, whysize) != 0)
			goto out;
	if (call->username[0] == '\0') {
		errbuf_set(why, whysize, "<username> is missing");
		goto out;
	}
	if (call->op == XFCC_MAKE_A_MOVE && call->game_id == 0) {
		errbuf_set(why, whysize, "<gameId> is missing");
		goto out;
	}
	rc = 0;
 out:
	xmlFreeDoc(doc);
	if (rc != 0)
		memset(call->password, 0, sizeof call->password);
	return rc;
}
