# Benchmarks against peers: run by hand (`make bench`), never in `make check`.
# Each script prints its figures and the ratios against the peer measured in
# the same run.
EXTRA_DIST += bench/perft bench/replay bench/replay-chessops.mjs

BENCH_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' STOCKFISH='$(STOCKFISH)' \
	NODE='$(NODE)'

bench: src/corrchess$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/perft
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/replay

bench-replay: src/corrchess$(EXEEXT)
	$(BENCH_ENVIRONMENT) $(top_srcdir)/bench/replay

.PHONY: bench bench-replay
