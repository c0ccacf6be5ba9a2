/*
 * letters/address.c: one e-mail address, read with GMime's parser.
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

#include <gmime/gmime.h>

#include "util/errbuf.h"
#include "util/text.h"
#include "letters/address.h"
#include "letters/mail_parse.h"

/* Check that a text is one bare addr-spec. */
int
mail_address_check(const char *text, char *why, size_t whysize)
{
	InternetAddressList	*list = NULL;
	InternetAddress		*ia;
	const char		*name, *addr, *at;
	enum text_fault		 f;
	int			 rc = -1;

	if ((f = text_check(text)) != TEXT_OK) {
		errbuf_set(why, whysize, "it holds %s", text_fault_name(f));
		return -1;
	}
	/* Quoted local parts are legal but no club needs one, and the
	 * domain must come after the last '@' outside quotes. */
	if (strpbrk(text, "\"\\") != NULL) {
		errbuf_set(why, whysize, "quotes and backslashes are not "
		    "accepted in an address");
		return -1;
	}
	mail_gmime_init();
	list = internet_address_list_parse(NULL, text);
	if (list == NULL || internet_address_list_length(list) != 1) {
		errbuf_set(why, whysize, "give one address, not a list");
		goto out;
	}
	ia = internet_address_list_get_address(list, 0);
	if (!INTERNET_ADDRESS_IS_MAILBOX(ia)) {
		errbuf_set(why, whysize, "give one address, not a group");
		goto out;
	}
	name = internet_address_get_name(ia);
	addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
	if (name != NULL && name[0] != '\0') {
		errbuf_set(why, whysize, "give the bare address, without a "
		    "name: %s", addr != NULL ? addr : "local@domain");
		goto out;
	}
	if (addr == NULL || strcmp(addr, text) != 0) {
		errbuf_set(why, whysize, "give the bare address "
		    "local@domain, without spaces, brackets or comments");
		goto out;
	}
	if ((at = strrchr(addr, '@')) == NULL || at == addr || at[1] == '\0') {
		errbuf_set(why, whysize, "an address is local@domain");
		goto out;
	}
	rc = 0;
 out:
	if (list != NULL)
		g_object_unref(list);
	return rc;
}
