/*
 * xfcc/soap.h: Xfcc's SOAP requests read (libxml2), with limits.
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
 * The two operations of XfccBasic (SOAP 1.1, namespace
 * http://www.bennedik.com/webservices/XfccBasic) that correspondence
 * programs call: GetMyGames and MakeAMove. The operation is taken from the
 * body (the first element of soap:Body), not from a SOAPAction header,
 * which some clients (Scid) do not send.
 *
 * The parser is libxml2's, told never to load anything from the network,
 * never to expand entities, and never to read a DTD: a document with a
 * DOCTYPE is refused, so no entity can be defined to blow up. On top of
 * that: at most XFCC_SOAP_MAX bytes, elements nested at most
 * XFCC_SOAP_DEPTH deep, each field at most its size. Thread-safe after
 * xfcc_soap_init(); no I/O.
 */

#ifndef CORRCHESS_XFCC_SOAP_H
#define CORRCHESS_XFCC_SOAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XFCC_NS		"http://www.bennedik.com/webservices/XfccBasic"
#define XFCC_SOAP_NS	"http://schemas.xmlsoap.org/soap/envelope/"

#define XFCC_SOAP_MAX		(32 * 1024)	/* bytes of a request */
#define XFCC_SOAP_DEPTH		8		/* nesting of elements */
#define XFCC_FIELD_MAX		128		/* bytes of a name, password */
#define XFCC_MOVE_MAX		32		/* bytes of a move */
#define XFCC_MESSAGE_MAX	1024		/* bytes of myMessage */

enum xfcc_op {
	XFCC_GET_MY_GAMES,
	XFCC_MAKE_A_MOVE,
};

/* A request, its strings NUL-terminated UTF-8 as sent (entities decoded). */
struct xfcc_call {
	enum xfcc_op	op;
	char		username[XFCC_FIELD_MAX + 1];
	char		password[XFCC_FIELD_MAX + 1];
	/* MakeAMove only */
	int64_t		game_id;		/* gameId */
	int64_t		movecount;		/* full-move number; 0: none */
	char		move[XFCC_MOVE_MAX + 1];	/* myMove, or "" */
	char		message[XFCC_MESSAGE_MAX + 1];	/* myMessage */
	bool		resign;
	bool		accept_draw;
	bool		offer_draw;
	bool		claim_draw;
};

/* Initialise libxml2 once, before threads use the parser. */
void xfcc_soap_init(void);

/*
 * Read a SOAP request of `len` bytes into `call`. 0, or -1 with a sentence
 * for the client in `why` (a malformed document, an unknown operation, a
 * missing or oversized field, a flag that is not true/false/1/0).
 */
int xfcc_soap_parse(const char *body, size_t len, struct xfcc_call *call,
    char *why, size_t whysize);

#endif /* CORRCHESS_XFCC_SOAP_H */
