#!/bin/sh
# tests/layers.sh: the folders of src/ against doc/hacking.md's picture.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# doc/hacking.md draws the layers of src/, highest first. This test holds
# the tree to that picture: every folder of src/ is in it and every folder
# in it exists; no source file sits directly in src/; every file opens with
# a line naming it ("service/writer.c: ..."); no file is over 1,500 lines
# (split it by concern before it gets there); and a file includes headers
# only from its own folder or from folders drawn below its own. In the
# store, only an engine's file (store/db_ENGINE.c) includes its library's
# header: the query files use the statement layer of store/db.h.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

src=$top_srcdir/src
doc=$top_srcdir/doc/hacking.md

# The layers as drawn: the first word of each picture line, top down.
layers=$(awk '
	/^```/ { if (seen) exit; inside = !inside; seen = inside ? 0 : 1; next }
	inside && /^  [a-z]+  / { print $1 }' "$doc")

if [ "$(echo "$layers" | wc -w)" -ge 10 ]; then
	ok
else
	bad "fewer than 10 layers read from doc/hacking.md: $layers"
fi

# The picture and the tree name the same folders.
folders=$(cd "$src" && for d in */; do echo "${d%/}"; done)
missing=
for d in $folders; do
	echo "$layers" | grep -qx "$d" || missing="$missing $d"
done
if [ -z "$missing" ]; then
	ok
else
	bad "folders of src/ missing from doc/hacking.md's picture:$missing"
fi
extra=
for d in $layers; do
	[ -d "$src/$d" ] || extra="$extra $d"
done
if [ -z "$extra" ]; then
	ok
else
	bad "layers drawn in doc/hacking.md with no folder in src/:$extra"
fi

# Nothing but folders directly in src/.
loose=$(cd "$src" && ls -- *.c *.h 2>/dev/null)
if [ -z "$loose" ]; then
	ok
else
	bad "source files directly in src/: $loose"
fi

# Each file's first lines name it.
unnamed=
for f in "$src"/*/*.c "$src"/*/*.h; do
	rel=${f#"$src"/}
	head -n 3 "$f" | grep -q "$rel: " || unnamed="$unnamed $rel"
done
if [ -z "$unnamed" ]; then
	ok
else
	bad "files whose first lines do not say what they are:$unnamed"
fi

# No file over 1,500 lines.
long=
for f in "$src"/*/*.c "$src"/*/*.h; do
	n=$(wc -l <"$f")
	[ "$n" -le 1500 ] || long="$long ${f#"$src"/} ($n lines)"
done
if [ -z "$long" ]; then
	ok
else
	bad "files over 1,500 lines:$long"
fi

# Only the engines' files include an engine's header.
engine=
for f in "$src"/*/*.c "$src"/*/*.h; do
	case ${f#"$src"/} in
	store/db_*.c) continue ;;
	esac
	grep -Eq '^#[ \t]*include[ \t]*<(sqlite3|libpq-fe)\.h>' "$f" &&
	    engine="$engine ${f#"$src"/}"
done
if [ -z "$engine" ]; then
	ok
else
	bad "files other than store/db_*.c that include an engine's" \
	    "header (use store/db.h):$engine"
fi

# Includes point down: the rank of a layer is its line in the picture
# (0 at the top); a file may include its own folder or a higher rank.
rank() {
	echo "$layers" | awk -v d="$1" '$0 == d { print NR; exit }'
}
up=
for d in $folders; do
	r=$(rank "$d")
	[ -n "$r" ] || continue
	for inc in $(cat "$src/$d"/*.c "$src/$d"/*.h 2>/dev/null |
	    sed -n 's/^#[ \t]*include[ \t]*"\([a-z0-9_]*\)\/.*/\1/p' | sort -u); do
		[ "$inc" = "$d" ] && continue
		ri=$(rank "$inc")
		if [ -z "$ri" ] || [ "$ri" -le "$r" ]; then
			up="$up $d->$inc"
		fi
	done
done
if [ -z "$up" ]; then
	ok
else
	bad "includes that point up or outside the picture:$up"
fi

finish
