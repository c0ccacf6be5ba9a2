# client/local.mk: corrchess, the player's and admin's command; it talks to
# corrchessd over HTTP only.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

bin_PROGRAMS += src/corrchess
src_corrchess_SOURCES = \
	src/client/corrchess.c \
	src/client/cli.h src/client/cli.c \
	src/client/cli_conf.h src/client/cli_conf.c \
	src/client/cli_http.h src/client/cli_http.c \
	src/client/cli_keys.h src/client/cli_keys.c \
	src/client/cli_agent.h src/client/cli_agent.c \
	src/client/cmd_rules.h src/client/cmd_rules.c \
	src/client/cmd_bench.h src/client/cmd_bench.c \
	src/client/cmd_keys.h src/client/cmd_keys.c \
	src/client/cmd_game.h src/client/cmd_game.c \
	src/client/cmd_follow.h src/client/cmd_follow.c \
	src/client/cmd_self.h src/client/cmd_self.c \
	src/client/cmd_event.h src/client/cmd_event.c \
	src/client/cmd_record.h src/client/cmd_record.c \
	src/client/cmd_verify.h src/client/cmd_verify.c \
	src/client/verify.h src/client/verify.c \
	src/client/cmd_mail.h src/client/cmd_mail.c \
	src/client/cmd_admin.h src/client/cmd_admin.c
src_corrchess_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JANSSON_CFLAGS) \
	$(SODIUM_CFLAGS)
src_corrchess_LDADD = $(SIG_LIBS) $(GAME_LIBS) $(UTIL_LIBS) $(CURL_LIBS) \
	$(JANSSON_LIBS) $(SODIUM_LIBS)
