# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The integration scripts with corrchessd and corrchess under valgrind's
# memcheck (tests/lib.sh, CORRCHESS_VALGRIND=1): a script fails on a
# memory error or a definite or indirect leak in the project's code.
# tests/valgrind.supp: the libraries' known one-time allocations.

EXTRA_DIST += tests/valgrind.supp
valgrind_checked = tests/daemon.sh tests/client.sh tests/daemon-frame.sh \
    tests/mail.sh

check-valgrind: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	@failed=; for t in $(valgrind_checked); do \
	    echo "== $$t under valgrind"; \
	    CORRCHESS_VALGRIND=1 top_srcdir='$(abs_top_srcdir)' \
	    top_builddir='$(abs_top_builddir)' \
	    $(abs_top_srcdir)/$$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "check-valgrind: FAIL:$$failed"; \
	    exit 1; fi; echo "check-valgrind: all passed"
.PHONY: check-valgrind
