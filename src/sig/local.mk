# sig/local.mk: statements, signatures, keys, the record chain (libsodium).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/sig/libsig.a
src_sig_libsig_a_SOURCES = \
	src/sig/sig.h src/sig/sig.c
src_sig_libsig_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
SIG_LIBS = src/sig/libsig.a $(SODIUM_LIBS)
