# The daemon's and client's modules above the rules core (libcorrchess.a).
noinst_LIBRARIES += src/libcorrchess.a
src_libcorrchess_a_SOURCES = src/sig.h src/sig.c
src_libcorrchess_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
