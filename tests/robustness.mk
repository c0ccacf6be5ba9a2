# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Robustness of the real corrchessd: SIGKILL under load and restarts
# (tests/crash.sh: every move answered 201 survives, none twice, the
# database sound, backups taken during writes sound); slowloris and
# oversized requests while well-behaved clients are served (tests/abuse.sh).

TESTS += tests/crash.sh tests/abuse.sh
EXTRA_DIST += tests/crash.sh tests/abuse.sh

# The crash test with 50 kills instead of make check's 5 (about a minute).
check-crash: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	CRASH_KILLS=$${CRASH_KILLS:-50} top_srcdir='$(abs_top_srcdir)' \
	    top_builddir='$(abs_top_builddir)' $(abs_top_srcdir)/tests/crash.sh
.PHONY: check-crash
