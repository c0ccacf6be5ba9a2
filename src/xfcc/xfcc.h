/*
 * xfcc/xfcc.h: the Xfcc endpoint: XfccBasic over SOAP 1.1, for programs.
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
 * Correspondence programs (ChessBase, Arena, Scid, Aquarium) speak ICCF's
 * Xfcc: a user name and password in every SOAP request, GetMyGames to
 * read one's games and MakeAMove to act. The player is known by the
 * password (service_xfcc_login(): their Xfcc door open, the password
 * checked against its Argon2id hash, failures limited); the action goes
 * through service_attest(), so the server signs its statement and the
 * record marks it attested ("xfcc"). doc/xfcc.md has the mapping.
 */

#ifndef CORRCHESS_XFCC_H
#define CORRCHESS_XFCC_H

#include "http/http.h"

/*
 * Answer one SOAP request; a route's handler (POST, HTTP_ROUTE_SLOW: it
 * waits for the commit), `user` the struct service. Call
 * xfcc_soap_init() (xfcc/soap.h) once before serving.
 */
void xfcc_handle(struct http_request *, struct http_response *, void *user);

#endif /* CORRCHESS_XFCC_H */
