# game/local.mk: the game state machine and board text.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/game/libgame.a
src_game_libgame_a_SOURCES = \
	src/game/game.h src/game/game.c \
	src/game/render.h src/game/render.c \
	src/game/conditional.h src/game/conditional.c
GAME_LIBS = src/game/libgame.a $(CHESS_LIBS)
