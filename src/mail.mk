# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Mail transport: the IMAP poller and the SMTP sender over libcurl, and
# their test against real Dovecot and Postfix on loopback (tests/mailenv.sh
# starts them in a temp directory). The test fails when the servers are
# not installed, unless CORRCHESS_NO_MAIL_SERVERS=1 makes it skip.
# CORRCHESS_MAIL_BENCH=1 also measures the fetch rate of 1000 messages.

src_libcorrchessd_a_SOURCES += src/mail_curl.h src/mail_curl.c \
	src/mail_imap.h src/mail_imap.c \
	src/mail_smtp.h src/mail_smtp.c
src_libcorrchessd_a_CFLAGS += $(CURL_CFLAGS)
src_corrchessd_LDADD += $(CURL_LIBS)

check_PROGRAMS += tests/test_mail_transport
TESTS += tests/test_mail_transport
EXTRA_DIST += tests/mailenv.sh
tests_test_mail_transport_SOURCES = tests/test_mail_transport.c \
	tests/testutil.h
tests_test_mail_transport_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) \
	$(CMOCKA_CFLAGS)
tests_test_mail_transport_LDADD = src/libcorrchessd.a src/libcorrchess.a \
	$(CURL_LIBS) \
	$(CMOCKA_LIBS)

# The fetch rate of 1000 small messages over one connection.
bench-mail: tests/test_mail_transport$(EXEEXT)
	CORRCHESS_MAIL_BENCH=1 $(abs_top_builddir)/tests/test_mail_transport
.PHONY: bench-mail
