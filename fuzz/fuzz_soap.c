/*
 * fuzz/fuzz_soap.c: fuzz target: Xfcc's SOAP requests (libxml2).
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
 * libFuzzer target: any bytes as the body of a request to the Xfcc
 * endpoint. The reader must never crash, leak or read out of bounds; a
 * request it accepts has a user name, NUL-terminated fields within their
 * sizes, and a game for MakeAMove.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xfcc/soap.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Read data as a SOAP request and check what was read. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int		 ready;
	struct xfcc_call	 call;
	char			 why[256];

	if (!ready) {
		xfcc_soap_init();
		ready = 1;
	}
	if (xfcc_soap_parse((const char *)data, size, &call, why,
	    sizeof why) != 0) {
		if (why[0] == '\0' || memchr(why, '\0', sizeof why) == NULL)
			abort();
		return 0;
	}
	if (call.username[0] == '\0' ||
	    memchr(call.username, '\0', sizeof call.username) == NULL ||
	    memchr(call.password, '\0', sizeof call.password) == NULL ||
	    memchr(call.move, '\0', sizeof call.move) == NULL ||
	    memchr(call.message, '\0', sizeof call.message) == NULL ||
	    (call.op == XFCC_MAKE_A_MOVE && call.game_id <= 0) ||
	    call.movecount < 0)
		abort();
	return 0;
}
