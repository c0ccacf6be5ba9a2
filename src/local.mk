# The daemon's and client's modules above the rules core (libcorrchess.a).
noinst_LIBRARIES += src/libcorrchess.a
src_libcorrchess_a_SOURCES = src/errbuf.h src/errbuf.c src/sig.h src/sig.c \
	src/game.h src/game.c
src_libcorrchess_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)

# sig: keys, statements, Ed25519 and SSHSIG signatures, record chain.
# Runs the real ssh-keygen (openssh-client) unless CORRCHESS_NO_SSH_KEYGEN=1.
check_PROGRAMS += tests/test_sig
TESTS += tests/test_sig
tests_test_sig_SOURCES = tests/test_sig.c tests/testutil.h
tests_test_sig_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_sig_LDADD = src/libcorrchess.a $(SODIUM_LIBS) $(CMOCKA_LIBS)
EXTRA_DIST += tests/data/sig

# Ed25519 and SSHSIG verifications per second on one core (`make bench-sig`).
EXTRA_PROGRAMS = bench/verify
bench_verify_SOURCES = bench/verify.c
bench_verify_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
bench_verify_LDADD = src/libcorrchess.a $(SODIUM_LIBS)
CLEANFILES += bench/verify$(EXEEXT)
bench-sig: bench/verify$(EXEEXT)
	bench/verify$(EXEEXT)
bench: bench-sig
.PHONY: bench-sig

# store: every SQL statement of the daemon, on SQLite (WAL).
src_libcorrchess_a_SOURCES += src/store.h src/store.c
src_libcorrchess_a_CFLAGS += $(SQLITE_CFLAGS)
check_PROGRAMS += tests/test_store
TESTS += tests/test_store
tests_test_store_SOURCES = tests/test_store.c tests/testutil.h
tests_test_store_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_store_LDADD = src/libcorrchess.a $(SQLITE_LIBS) $(CMOCKA_LIBS)

# Commits/s (synchronous FULL vs NORMAL) and lookups/s (`make bench-store`).
EXTRA_PROGRAMS += bench/store
bench_store_SOURCES = bench/store.c
bench_store_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
bench_store_LDADD = src/libcorrchess.a $(SQLITE_LIBS)
CLEANFILES += bench/store$(EXEEXT)
bench-store: bench/store$(EXEEXT)
	bench/store$(EXEEXT)
bench: bench-store
.PHONY: bench-store

# The game state machine's unit tests.
check_PROGRAMS += tests/test_game_state
TESTS += tests/test_game_state
tests_test_game_state_SOURCES = tests/test_game_state.c tests/testutil.h
tests_test_game_state_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_game_state_LDADD = src/libcorrchess.a src/chess/libchess.a \
	$(SODIUM_LIBS) $(CMOCKA_LIBS)
