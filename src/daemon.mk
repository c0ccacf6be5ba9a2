# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The daemon's frame: logging, configuration, HTTP, metrics, the route table
# and corrchessd's main. Its tests: tests/test_config, tests/test_http and
# tests/daemon-frame.sh (the real corrchessd driven by the real curl).

DAEMON_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(JANSSON_CFLAGS) $(SODIUM_CFLAGS)
DAEMON_LIBS = $(MHD_LIBS) $(JANSSON_LIBS) $(SODIUM_LIBS)

noinst_LIBRARIES += src/libcorrchessd.a
src_libcorrchessd_a_SOURCES = \
	src/log.h src/log.c \
	src/conf.h src/conf.c \
	src/metrics.h src/metrics.c \
	src/http.h src/http.c \
	src/routes.h
src_libcorrchessd_a_CFLAGS = $(DAEMON_CFLAGS)

sbin_PROGRAMS = src/corrchessd
src_corrchessd_SOURCES = src/corrchessd.c
src_corrchessd_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORRCHESSD_CONF_DEFAULT='"$(sysconfdir)/corrchessd.conf"'
src_corrchessd_CFLAGS = $(DAEMON_CFLAGS)
src_corrchessd_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	src/chess/libchess.a $(DAEMON_LIBS) $(SQLITE_LIBS)

dist_sysconf_DATA = conf/corrchessd.conf
dist_man_MANS = doc/corrchessd.8

check_PROGRAMS += tests/test_config tests/test_http
TESTS += tests/test_config tests/test_http tests/daemon-frame.sh
EXTRA_DIST += tests/daemon-frame.sh

tests_test_config_SOURCES = tests/test_config.c tests/testutil.h
tests_test_config_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_config_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	$(DAEMON_LIBS) $(CMOCKA_LIBS)

tests_test_http_SOURCES = tests/test_http.c tests/testutil.h
tests_test_http_CFLAGS = $(DAEMON_CFLAGS) $(CURL_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_http_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	$(DAEMON_LIBS) $(CURL_LIBS) \
	$(CMOCKA_LIBS)

# Write conf/corrchessd.conf again from the table of keys in src/conf.c
# (tests/test_config fails until the shipped file matches the table).
update-conf: src/corrchessd$(EXEEXT)
	src/corrchessd$(EXEEXT) --dump-config-example \
	    >$(srcdir)/conf/corrchessd.conf
.PHONY: update-conf
