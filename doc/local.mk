# doc/local.mk: the manual pages and the documents installed for users.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

dist_man_MANS += doc/corrchess.1 doc/corrchessd.8 doc/corrchessd.conf.5

# Players' and admins' documents, under docdir; hacking.md travels with
# the sources only.
dist_doc_DATA = doc/api.md doc/mail.md doc/signatures.md doc/xfcc.md \
	doc/performance.md doc/postgresql.md doc/openapi.yaml
EXTRA_DIST += doc/hacking.md
