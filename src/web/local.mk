# web/local.mk: the web pages' library: the SVG board, the position in
# words.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# What the web pages draw on the server: the board as SVG and the position
# in words. Pure C over the rules core: no I/O.
noinst_LIBRARIES += src/web/libweb.a
src_web_libweb_a_SOURCES = src/web/board_svg.h src/web/board_svg.c \
	src/web/board_words.h src/web/board_words.c
WEB_LIBS = src/web/libweb.a $(CHESS_LIBS)
