# The daemon's and client's modules above the rules core (libcorrchess.a).
noinst_LIBRARIES += src/libcorrchess.a
src_libcorrchess_a_SOURCES = src/sig.h src/sig.c src/game.h src/game.c
src_libcorrchess_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)

# The game state machine's unit tests.
check_PROGRAMS += tests/test_game_state
TESTS += tests/test_game_state
tests_test_game_state_SOURCES = tests/test_game_state.c tests/testutil.h
tests_test_game_state_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_game_state_LDADD = src/libcorrchess.a src/chess/libchess.a \
	$(SODIUM_LIBS) $(CMOCKA_LIBS)
