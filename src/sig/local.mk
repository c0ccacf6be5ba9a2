# sig/local.mk: statements, signatures, keys, the record chain (libsodium).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# sig/sig.h is the module's one include; it includes the parts' headers.
noinst_LIBRARIES += src/sig/libsig.a
src_sig_libsig_a_SOURCES = \
	src/sig/sig.h src/sig/sig.c \
	src/sig/key.h src/sig/key.c \
	src/sig/sshsig.h src/sig/sshsig.c \
	src/sig/statement.h src/sig/statement.c \
	src/sig/proof.h src/sig/proof.c \
	src/sig/creation.h src/sig/creation.c \
	src/sig/agent.h src/sig/agent.c \
	src/sig/wire.h src/sig/wire.c
src_sig_libsig_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
SIG_LIBS = src/sig/libsig.a $(UTIL_LIBS) $(SODIUM_LIBS)
