# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Integration tests: the game service end to end over the real corrchessd
# (real curl, ssh-keygen and openssl signatures), and the OpenAPI document
# kept in step with the route table. The API's documentation travels with
# the sources.

TESTS += tests/daemon.sh tests/openapi.sh
EXTRA_DIST += tests/daemon.sh tests/openapi.sh tests/lib.sh doc/openapi.yaml \
    doc/api.md
