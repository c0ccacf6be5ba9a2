# bench/local.mk: benchmarks against peers, run by hand (`make bench`,
# `make bench-http`, ...), never in make check. Each prints its figures and
# the ratios against the peer measured in the same run.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

BENCH_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' STOCKFISH='$(STOCKFISH)' \
	NODE='$(NODE)'
EXTRA_DIST += bench/perft bench/replay bench/replay-chessops.mjs \
	bench/http bench/http-moves.lua bench/rss bench/mail bench/abuse \
	bench/streams bench/pg

# Rules core: perft against Stockfish, PGN replay and SAN against chessops.
bench: src/corrchess$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/perft
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/replay
bench-replay: src/corrchess$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/replay
.PHONY: bench bench-replay

# Ed25519 and SSHSIG verifications per second on one core.
EXTRA_PROGRAMS += bench/verify
bench_verify_SOURCES = bench/verify.c
bench_verify_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
bench_verify_LDADD = $(SIG_LIBS)
bench-sig: bench/verify$(EXEEXT)
	bench/verify$(EXEEXT)
bench: bench-sig
.PHONY: bench-sig

# Commits/s (synchronous FULL vs NORMAL) and lookups/s.
EXTRA_PROGRAMS += bench/store
bench_store_SOURCES = bench/store.c
bench_store_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
bench_store_LDADD = $(STORE_LIBS)
bench-store: bench/store$(EXEEXT)
	bench/store$(EXEEXT)
bench: bench-store
.PHONY: bench-store

# The daemon's speed and size: bench/http loads corrchessd with wrk and
# compares it with Ed25519 verification (bench/verify) and a bare
# libmicrohttpd server (bench/mhd-bare) measured in the same run; bench/rss
# measures its memory and a move's cost with 110 000 stored games.
EXTRA_PROGRAMS += bench/genmoves bench/filldb bench/mhd-bare
bench_genmoves_SOURCES = bench/genmoves.c
bench_genmoves_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
bench_genmoves_LDADD = $(SIG_LIBS) $(GAME_LIBS)
bench_filldb_SOURCES = bench/filldb.c
bench_filldb_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
bench_filldb_LDADD = $(STORE_LIBS) $(SIG_LIBS) $(GAME_LIBS)
bench_mhd_bare_SOURCES = bench/mhd-bare.c
bench_mhd_bare_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS)
bench_mhd_bare_LDADD = $(MHD_LIBS)
BENCH_HTTP_DEPS = bench/genmoves$(EXEEXT) bench/mhd-bare$(EXEEXT) \
	bench/verify$(EXEEXT) src/corrchessd$(EXEEXT)
bench-http: $(BENCH_HTTP_DEPS)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/http
bench-rss: $(BENCH_HTTP_DEPS) bench/filldb$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/rss
.PHONY: bench-http bench-rss

# Durable signed moves/s: one corrchessd on SQLite, one and two on one
# PostgreSQL (a private server), with the ratios.
bench-pg: bench/genmoves$(EXEEXT) src/corrchessd$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/pg
.PHONY: bench-pg

# A probe's served share and latency under slow and idle sockets from many
# addresses (tests/abuse-load.py), and the memory of 10 000 idle ones.
bench-abuse: src/corrchessd$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/abuse
.PHONY: bench-abuse

# Mail: the fetch rate of 1000 small messages over one connection; moves by
# mail per second end to end against a plain IMAP fetch of as many messages
# (bench/mail N; BENCH_MAIL_N sets N).
bench-mail: tests/test_mail$(EXEEXT)
	CORRCHESS_MAIL_BENCH=1 $(abs_top_builddir)/tests/test_mail
bench-mail-e2e: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(abs_top_srcdir)/bench/mail $(BENCH_MAIL_N)
.PHONY: bench-mail bench-mail-e2e

CLEANFILES += $(EXTRA_PROGRAMS)

# Live event streams: 10,000 held open, memory a stream, a move's delivery
# to all of them (p50, p99).
EXTRA_PROGRAMS += bench/streams-load
bench_streams_load_SOURCES = bench/streams-load.c
bench_streams_load_CFLAGS = $(AM_CFLAGS)
bench-streams: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT) \
	    bench/streams-load$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/streams
.PHONY: bench-streams
