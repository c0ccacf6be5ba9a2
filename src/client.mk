# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The player's commands of corrchess (keygen, sign, move, act, show, games):
# keys and signatures through libcorrchess.a's sig module, the daemon's
# REST API through libcurl. Tested end to end by tests/client.sh against
# the real corrchessd.

src_corrchess_SOURCES += src/cli_client.h src/cli_conf.c src/cli_http.c \
	src/cli_keys.c src/cli_client.c
src_corrchess_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JANSSON_CFLAGS) \
	$(SODIUM_CFLAGS)
src_corrchess_LDADD += src/libcorrchess.a src/chess/libchess.a \
	$(CURL_LIBS) $(JANSSON_LIBS) $(SODIUM_LIBS)

# The administrator's commands (admin backup), through the admin API.
src_corrchess_SOURCES += src/cli_admin.c

dist_man_MANS += doc/corrchess.1

TESTS += tests/client.sh
EXTRA_DIST += tests/client.sh
