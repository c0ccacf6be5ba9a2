# event/local.mk: the club-event core: pairings, standings, ratings.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Club events: Berger pairings, standings and tie-breaks, Glicko-2 ratings.
# Pure computation: no I/O, no allocation; libm for Glicko-2.
noinst_LIBRARIES += src/event/libevent.a
src_event_libevent_a_SOURCES = \
	src/event/berger.h \
	src/event/berger.c \
	src/event/crosstable.h \
	src/event/crosstable.c \
	src/event/glicko.h \
	src/event/glicko.c \
	src/event/standings.h \
	src/event/standings.c
EVENT_LIBS = src/event/libevent.a $(UTIL_LIBS) $(LIBM)
