/*
 * daemon/conf_man.h: corrchessd.conf(5), written from the table of keys.
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
 * The manual page corrchessd.conf(5), written from the table of keys
 * (conf_table[], conf.c) like the example file, so the two never
 * disagree: `corrchessd --dump-config-man` prints it, `make update-conf`
 * stores it as doc/corrchessd.conf.5 and tests/systemd.sh checks the
 * shipped page against it.
 */

#ifndef CORRCHESS_CONF_MAN_H
#define CORRCHESS_CONF_MAN_H

#include <stdio.h>

#include "daemon/conf.h"

/*
 * Tell whether SIGHUP applies key to the running server (1) or the key
 * takes effect at the next start only (0). The one list of such keys, for
 * corrchessd's reload and for the manual page.
 */
int	conf_reloadable(const struct conf_key *key);

/* Write corrchessd.conf(5) in man(7) to fp; 0, or -1 on a write error. */
int	conf_write_man(FILE *fp);

#endif /* CORRCHESS_CONF_MAN_H */
