# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The content of corrchess's mail (GMime): reading a player's mail
# (mail_parse: sender, thread ids, the signed statement) and writing the
# notices the daemon sends (notice). No network here.

src_libcorrchess_a_SOURCES += src/mail_parse.h src/mail_parse.c \
	src/notice.h src/notice.c
src_libcorrchess_a_CFLAGS += $(GMIME_CFLAGS)

MAILCONTENT_TEST_CFLAGS = $(AM_CFLAGS) $(GMIME_CFLAGS) $(SODIUM_CFLAGS) \
	$(CMOCKA_CFLAGS)
MAILCONTENT_TEST_LDADD = src/libcorrchess.a src/chess/libchess.a \
	$(GMIME_LIBS) $(SODIUM_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/test_mail_parse tests/test_notice
TESTS += tests/test_mail_parse tests/test_notice

# test_mail_parse reads tests/data/mail (signed with tests/data/mail/keys).
tests_test_mail_parse_SOURCES = tests/test_mail_parse.c tests/testutil.h
tests_test_mail_parse_CFLAGS = $(MAILCONTENT_TEST_CFLAGS)
tests_test_mail_parse_LDADD = $(MAILCONTENT_TEST_LDADD)

tests_test_notice_SOURCES = tests/test_notice.c tests/testutil.h
tests_test_notice_CFLAGS = $(MAILCONTENT_TEST_CFLAGS)
tests_test_notice_LDADD = $(MAILCONTENT_TEST_LDADD)
