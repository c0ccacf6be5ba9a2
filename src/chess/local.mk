# chess/local.mk: the rules core (pure C, no I/O, no dependencies).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/chess/libchess.a
src_chess_libchess_a_SOURCES = \
	src/chess/chess.h \
	src/chess/bitboard.h \
	src/chess/attacks.c \
	src/chess/zobrist.c \
	src/chess/position.c \
	src/chess/movegen.c \
	src/chess/fen.c \
	src/chess/error.c \
	src/chess/notation.c \
	src/chess/history.c \
	src/chess/pgn.h \
	src/chess/pgn.c
CHESS_LIBS = src/chess/libchess.a $(PTHREAD_LIBS)
