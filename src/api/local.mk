# api/local.mk: the REST API's handlers and their JSON (jansson).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/api/libapi.a
src_api_libapi_a_SOURCES = \
	src/api/routes.h src/api/api.c \
	src/api/api_json.h src/api/api_json.c \
	src/api/api_respond.h src/api/api_respond.c \
	src/api/api_players.h src/api/api_players.c \
	src/api/api_games.h src/api/api_games.c \
	src/api/api_admin.h src/api/api_admin.c \
	src/api/api_events.h src/api/api_events.c \
	src/api/api_stream.h src/api/api_stream.c \
	src/api/api_ratings.h src/api/api_ratings.c \
	src/api/api_messages.h src/api/api_messages.c
src_api_libapi_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
API_LIBS = src/api/libapi.a src/web/libweb.a $(HTTP_LIBS) $(SERVICE_LIBS) $(JANSSON_LIBS)
