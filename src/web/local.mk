# web/local.mk: the web front door: the SVG board, the position in words,
# the pages and their assets.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# What the web pages draw on the server: the board as SVG, the position in
# words and the reader's language. Pure C over the rules core: no I/O.
noinst_LIBRARIES += src/web/libweb.a
src_web_libweb_a_SOURCES = src/web/board_svg.h src/web/board_svg.c \
	src/web/board_words.h src/web/board_words.c \
	src/web/lang.h src/web/lang.c
WEB_LIBS = src/web/libweb.a $(CHESS_LIBS)

# The pages (beside the REST API, over the same service functions) and the
# stylesheet and ES module, embedded at build time by embed.sh (see
# web/assets.h for why).
web_assets = $(srcdir)/src/web/static/corrchess.css \
	$(srcdir)/src/web/static/corrchess.js
noinst_LIBRARIES += src/web/libpages.a
src_web_libpages_a_SOURCES = src/web/page.h src/web/page.c \
	src/web/pages.h src/web/pages.c \
	src/web/events.h src/web/events.c \
	src/web/assets.h src/web/assets.c
nodist_src_web_libpages_a_SOURCES = src/web/assets_data.c
src_web_libpages_a_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS) \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
PAGES_LIBS = src/web/libpages.a $(API_LIBS)
EXTRA_DIST += src/web/embed.sh $(web_assets)
CLEANFILES += src/web/assets_data.c
src/web/assets_data.c: $(srcdir)/src/web/embed.sh $(web_assets)
	$(AM_V_GEN)$(MKDIR_P) src/web && \
	    $(SHELL) $(srcdir)/src/web/embed.sh $(web_assets) >$@.tmp && \
	    mv $@.tmp $@
