# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The daemon's speed and size (`make bench-http`, `make bench-rss`): run by
# hand, never in `make check`. bench/http loads corrchessd with wrk and
# compares it with Ed25519 verification (bench/verify) and a bare
# libmicrohttpd server (bench/mhd-bare) measured in the same run; bench/rss
# measures its memory and a move's cost with 110 000 stored games.

EXTRA_PROGRAMS += bench/genmoves bench/filldb bench/mhd-bare
CLEANFILES += bench/genmoves$(EXEEXT) bench/filldb$(EXEEXT) \
	bench/mhd-bare$(EXEEXT)
EXTRA_DIST += bench/http bench/http-moves.lua bench/rss doc/performance.md

bench_genmoves_SOURCES = bench/genmoves.c
bench_genmoves_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
bench_genmoves_LDADD = src/libcorrchess.a src/chess/libchess.a $(SODIUM_LIBS)

bench_filldb_SOURCES = bench/filldb.c
bench_filldb_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
bench_filldb_LDADD = src/libcorrchess.a src/chess/libchess.a $(SODIUM_LIBS) \
	$(SQLITE_LIBS)

bench_mhd_bare_SOURCES = bench/mhd-bare.c
bench_mhd_bare_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS)
bench_mhd_bare_LDADD = $(MHD_LIBS)

BENCH_HTTP_DEPS = bench/genmoves$(EXEEXT) bench/mhd-bare$(EXEEXT) \
	bench/verify$(EXEEXT) src/corrchessd$(EXEEXT)
BENCH_HTTP_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)'

bench-http: $(BENCH_HTTP_DEPS)
	$(BENCH_HTTP_ENVIRONMENT) $(top_srcdir)/bench/http

bench-rss: $(BENCH_HTTP_DEPS) bench/filldb$(EXEEXT)
	$(BENCH_HTTP_ENVIRONMENT) $(top_srcdir)/bench/rss

.PHONY: bench-http bench-rss
