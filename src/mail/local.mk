# mail/local.mk: IMAP and SMTP over libcurl, and the mail thread.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/mail/libmail.a
src_mail_libmail_a_SOURCES = \
	src/mail/mail_curl.h src/mail/mail_curl.c \
	src/mail/mail_imap.h src/mail/mail_imap_int.h src/mail/mail_imap.c \
	src/mail/imap_parse.h src/mail/imap_parse.c \
	src/mail/mail_conn.h src/mail/mail_conn.c \
	src/mail/mail_idle.h src/mail/mail_idle.c \
	src/mail/mail_smtp.h src/mail/mail_smtp.c \
	src/mail/mailer.h src/mail/mailer.c
src_mail_libmail_a_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(GMIME_CFLAGS) \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
MAIL_LIBS = src/mail/libmail.a $(SERVICE_LIBS) $(CURL_LIBS)
