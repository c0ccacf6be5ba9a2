# util/local.mk: logging, growable buffers, error buffers, spelling
# suggestions, free-text checks, French elision, metrics.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/util/libutil.a
src_util_libutil_a_SOURCES = \
	src/util/log.h src/util/log.c \
	src/util/buf.h src/util/buf.c \
	src/util/errbuf.h src/util/errbuf.c \
	src/util/spell.h src/util/spell.c \
	src/util/text.h src/util/text.c \
	src/util/french.h src/util/french.c \
	src/util/metrics.h src/util/metrics.c
UTIL_LIBS = src/util/libutil.a $(PTHREAD_LIBS)
