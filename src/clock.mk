# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The clock thread: games end on time without anyone opening them, and
# players are reminded of their deadline.
src_libcorrchessd_a_SOURCES += src/clock.h src/clock.c

check_PROGRAMS += tests/test_clock
TESTS += tests/test_clock
tests_test_clock_SOURCES = tests/test_clock.c tests/testutil.h
tests_test_clock_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	$(CMOCKA_CFLAGS)
tests_test_clock_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	src/chess/libchess.a $(DAEMON_LIBS) $(SQLITE_LIBS) $(GMIME_LIBS) \
	$(CMOCKA_LIBS) -lpthread
