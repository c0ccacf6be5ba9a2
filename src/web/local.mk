# web/local.mk: builds libweb.a (the SVG board, the position in words) and
# its test.
#
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# What the web pages draw on the server: the board as SVG and the position
# in words. Pure C over the rules core: no I/O.
noinst_LIBRARIES += src/web/libweb.a
src_web_libweb_a_SOURCES = src/web/board_svg.h src/web/board_svg.c \
	src/web/board_words.h src/web/board_words.c

# Checks its output with xmllint (libxml2-utils) when installed.
check_PROGRAMS += tests/test_board_svg
TESTS += tests/test_board_svg
tests_test_board_svg_SOURCES = tests/test_board_svg.c tests/testutil.h
tests_test_board_svg_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_board_svg_LDADD = src/web/libweb.a src/chess/libchess.a \
	$(CMOCKA_LIBS) -lpthread
