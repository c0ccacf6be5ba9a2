# letters/local.mk: the content of mail (GMime): players' mail read, notices
# written. No transport here.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/letters/libletters.a
src_letters_libletters_a_SOURCES = \
	src/letters/address.h src/letters/address.c \
	src/letters/mail_parse.h src/letters/mail_parse.c \
	src/letters/mail_reply.h src/letters/mail_reply.c \
	src/letters/notice.h src/letters/notice.c \
	src/letters/notice_event.h src/letters/notice_event.c \
	src/letters/notice_texts.h src/letters/notice_texts.c
src_letters_libletters_a_CFLAGS = $(AM_CFLAGS) $(GMIME_CFLAGS) \
	$(SODIUM_CFLAGS)
LETTERS_LIBS = src/letters/libletters.a $(SIG_LIBS) $(EVENT_LIBS) \
	$(GAME_LIBS) $(UTIL_LIBS) $(GMIME_LIBS)
