# Unit tests (cmocka), one program per module, and command-line tests.
# Deep perft depths run in `make check-deep`, never silently skipped.

CHESS_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
CHESS_TEST_LDADD = src/chess/libchess.a $(CMOCKA_LIBS)

check_PROGRAMS += tests/test_position tests/test_notation tests/test_game \
	tests/test_pgn
TESTS += tests/test_position tests/test_notation tests/test_game \
	tests/test_pgn tests/cli.sh

tests_test_position_SOURCES = tests/test_position.c tests/testutil.h
tests_test_position_CFLAGS = $(CHESS_TEST_CFLAGS)
tests_test_position_LDADD = $(CHESS_TEST_LDADD)

tests_test_notation_SOURCES = tests/test_notation.c tests/testutil.h
tests_test_notation_CFLAGS = $(CHESS_TEST_CFLAGS)
tests_test_notation_LDADD = $(CHESS_TEST_LDADD)

tests_test_game_SOURCES = tests/test_game.c tests/testutil.h
tests_test_game_CFLAGS = $(CHESS_TEST_CFLAGS)
tests_test_game_LDADD = $(CHESS_TEST_LDADD)

tests_test_pgn_SOURCES = tests/test_pgn.c tests/testutil.h
tests_test_pgn_CFLAGS = $(CHESS_TEST_CFLAGS)
tests_test_pgn_LDADD = $(CHESS_TEST_LDADD)

TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)'

EXTRA_DIST += tests/cli.sh tests/data

# Every perft depth of every suite (minutes, not seconds).
check-deep: tests/test_position$(EXEEXT)
	CORRCHESS_PERFT_DEEP=1 $(abs_top_builddir)/tests/test_position
.PHONY: check-deep
