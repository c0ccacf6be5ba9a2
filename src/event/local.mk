# src/event/local.mk: builds the club-event core and its unit tests.
#
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Club events: Berger pairings, standings and tie-breaks, Glicko-2 ratings.
# Pure computation: no I/O, no allocation; libm for Glicko-2.
noinst_LIBRARIES += src/event/libevent.a
src_event_libevent_a_SOURCES = \
	src/event/berger.h \
	src/event/berger.c \
	src/event/glicko.h \
	src/event/glicko.c \
	src/event/standings.h \
	src/event/standings.c

EVENT_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
EVENT_TEST_LDADD = src/event/libevent.a $(CMOCKA_LIBS) -lm

# The unit tests of src/event, one program per module (TESTS lines here
# until they join tests/local.mk).
check_PROGRAMS += tests/test_berger tests/test_glicko tests/test_standings
TESTS += tests/test_berger tests/test_glicko tests/test_standings

tests_test_berger_SOURCES = tests/test_berger.c tests/testutil.h
tests_test_berger_CFLAGS = $(EVENT_TEST_CFLAGS)
tests_test_berger_LDADD = $(EVENT_TEST_LDADD)

tests_test_glicko_SOURCES = tests/test_glicko.c tests/testutil.h
tests_test_glicko_CFLAGS = $(EVENT_TEST_CFLAGS)
tests_test_glicko_LDADD = $(EVENT_TEST_LDADD)

tests_test_standings_SOURCES = tests/test_standings.c tests/testutil.h
tests_test_standings_CFLAGS = $(EVENT_TEST_CFLAGS)
tests_test_standings_LDADD = $(EVENT_TEST_LDADD)
