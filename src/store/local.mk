# store/local.mk: every SQL statement, behind store.h (SQLite, WAL;
# PostgreSQL when libpq is found).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/store/libstore.a
src_store_libstore_a_SOURCES = \
	src/store/store.h src/store/store_int.h \
	src/store/db.h src/store/db.c src/store/db_sqlite.c \
	src/store/store.c src/store/schema.c src/store/sql.c \
	src/store/players.c src/store/games.c src/store/actions.c \
	src/store/conditionals.c src/store/self.c \
	src/store/mail.c src/store/maint.c src/store/events.c src/store/doors.c \
	src/store/ratings.c \
	src/store/invitations.c
src_store_libstore_a_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
STORE_LIBS = src/store/libstore.a $(SQLITE_LIBS)
if POSTGRESQL
src_store_libstore_a_SOURCES += src/store/db_pg.c
src_store_libstore_a_CFLAGS += $(PQ_CFLAGS)
STORE_LIBS += $(PQ_LIBS)
endif
