# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The service on a real SQLite file: refusals, administration, restart,
# group commit from several threads, metrics; the API's JSON bodies.
check_PROGRAMS += tests/test_service
TESTS += tests/test_service
tests_test_service_SOURCES = tests/test_service.c tests/testutil.h
tests_test_service_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	$(JANSSON_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_service_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	src/chess/libchess.a $(DAEMON_LIBS) $(SQLITE_LIBS) $(GMIME_LIBS) $(CMOCKA_LIBS) \
	-lpthread
