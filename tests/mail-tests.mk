# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Moves by mail end to end: corrchessd against real Dovecot and Postfix
# (tests/mailenv.sh), `corrchess mail-move`, and the mail benchmark.

src_corrchess_SOURCES += src/cli_mail.c

TESTS += tests/mail.sh
EXTRA_DIST += tests/mail.sh bench/mail doc/mail.md

# Moves by mail per second against a plain IMAP fetch of as many
# messages (bench/mail N; BENCH_MAIL_N sets N).
.PHONY: bench-mail-e2e
bench-mail-e2e: src/corrchessd src/corrchess
	top_srcdir=$(abs_top_srcdir) top_builddir=$(abs_top_builddir) \
	    $(abs_top_srcdir)/bench/mail $(BENCH_MAIL_N)
