# Benchmarks against peers: run by hand (`make bench`), never in `make check`.
EXTRA_DIST += bench/perft bench/replay
bench: src/corrchess$(EXEEXT)
	$(top_srcdir)/bench/perft
	$(top_srcdir)/bench/replay
.PHONY: bench
