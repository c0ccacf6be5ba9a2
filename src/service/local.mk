# service/local.mk: one function per user action, the writer thread.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/service/libservice.a
src_service_libservice_a_SOURCES = \
	src/service/service.h src/service/service_int.h \
	src/service/service.c src/service/writer.c src/service/rebuild.c \
	src/service/render.c src/service/signers.c \
	src/service/notify.c src/service/actions.c src/service/leave.c \
	src/service/clock.c src/service/players.c src/service/games.c \
	src/service/pgn.c src/service/mail.c src/service/events.c \
	src/service/event_read.c src/service/event_notices.c \
	src/service/doors.c \
	src/service/conditional.c src/service/self.c src/service/live.c \
	src/service/listen.c \
	src/service/ratings.c \
	src/service/invitations.c src/service/admin.c
src_service_libservice_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS)
SERVICE_LIBS = src/service/libservice.a $(LETTERS_LIBS) $(STORE_LIBS) \
	$(EVENT_LIBS)
