# fuzz/local.mk: the libFuzzer targets, built and run by hand or by CI.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# `make fuzz` builds every fuzz/fuzz_*.c with clang
# (-fsanitize=fuzzer,address,undefined) from the sources, into fuzz/ of the
# build tree; `make fuzz-run FUZZ_SECONDS=60` runs each from its seeds.
# The sources, scripts and seeds (not "fuzz", which names the target
# below: as a distributed file it would build the fuzzers in `make dist`).
EXTRA_DIST += fuzz/build fuzz/run fuzz/corpus
dist-hook: dist-fuzz-sources
dist-fuzz-sources:
	$(MKDIR_P) $(distdir)/fuzz
	cp -p $(srcdir)/fuzz/fuzz_*.c $(distdir)/fuzz/
FUZZ_SECONDS = 60

fuzz:
	$(top_srcdir)/fuzz/build $(abs_top_builddir)/fuzz $(abs_top_builddir)

fuzz-run: fuzz
	top_builddir='$(abs_top_builddir)' $(top_srcdir)/fuzz/run \
	    $(FUZZ_SECONDS) $(abs_top_builddir)/fuzz

clean-fuzz:
	rm -rf $(abs_top_builddir)/fuzz/obj
	for f in $(top_srcdir)/fuzz/fuzz_*.c; do \
	    rm -f $(abs_top_builddir)/fuzz/`basename $$f .c`; done

.PHONY: fuzz fuzz-run clean-fuzz dist-fuzz-sources
