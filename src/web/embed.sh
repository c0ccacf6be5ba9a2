#!/bin/sh
# src/web/embed.sh: write the web assets into a C file, with their ETags.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: embed.sh FILE...   (the C source goes to standard output)
#
# Each FILE becomes one row of `assets_data[]` (web/assets.h): its base
# name, its bytes and an ETag made of the first 16 hex digits of its
# SHA-256, so corrchessd serves what it was built with, from memory, and a
# changed file gets a new URL (the pages name assets with their ETag).

set -eu

cat <<'HEAD'
/*
 * web/assets_data.c: the web assets, embedded (written by embed.sh).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <stddef.h>

#include "web/assets.h"

HEAD
i=0
for f; do
	printf 'static const unsigned char asset_%d[] = {\n' "$i"
	od -An -v -w64 -tx1 "$f" | sed -e 's/  */ /g' -e 's/^ //' -e '/^$/d' \
	    -e 's/\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/\t/'
	printf '\t0x00\n};\n\n'
	i=$((i + 1))
done
echo 'const struct asset assets_data[] = {'
i=0
for f; do
	size=$(wc -c <"$f" | tr -d ' ')
	etag=$(sha256sum "$f" | cut -c1-16)
	name=$(basename "$f")
	printf '\t{ "%s", asset_%d, %s, "\\"%s\\"",\n\t    "/static/%s?v=%s" },\n' \
	    "$name" "$i" "$size" "$etag" "$name" "$etag"
	i=$((i + 1))
done
echo '};'
echo 'const size_t assets_data_count = sizeof assets_data / sizeof assets_data[0];'
