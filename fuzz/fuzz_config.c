/*
 * fuzz/fuzz_config.c: fuzz target: the configuration parser.
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
 * libFuzzer target: any bytes as a corrchessd.conf. The parser must never
 * crash, leak or read out of bounds, and a text it accepts must leave every
 * value within its row's limits.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/conf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Parse data as a configuration file and check the result. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf	 conf;
	char		 err[CONF_ERR_SIZE];
	size_t		 i;
	long long	 n;

	if (conf_init(&conf, err, sizeof err) != 0)
		abort();
	if (conf_load_buffer(&conf, "fuzz.conf", (const char *)data, size,
	    err, sizeof err) == 0) {
		for (i = 0; i < conf_table_size; i++) {
			const struct conf_key *k = &conf_table[i];

			if (k->type != CONF_INT && k->type != CONF_SIZE &&
			    k->type != CONF_DURATION &&
			    k->type != CONF_DECIMAL)
				continue;
			memcpy(&n, (char *)&conf + k->offset, sizeof n);
			if (n < k->min || n > k->max)
				abort();
		}
	} else if (strncmp(err, "fuzz.conf:", 10) != 0)
		abort();
	conf_free(&conf);
	return 0;
}
