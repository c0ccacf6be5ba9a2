# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The service (one function per user action, group commit of signed
# actions) and the REST API on top of it; text helpers shared with the
# client.

src_libcorrchess_a_SOURCES += src/buf.h src/buf.c src/render.h src/render.c

src_libcorrchessd_a_SOURCES += src/service.h src/service.c src/api.c
src_libcorrchessd_a_SOURCES += src/api_json.h src/api_json.c
src_libcorrchessd_a_CFLAGS += $(SQLITE_CFLAGS)

# The mail thread: the mailbox poller and the outbox sender.
src_libcorrchessd_a_SOURCES += src/mailer.h src/mailer.c
src_libcorrchessd_a_CFLAGS += $(GMIME_CFLAGS)
src_corrchessd_LDADD += $(GMIME_LIBS)
