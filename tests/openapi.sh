#!/bin/sh
# tests/openapi.sh: doc/openapi.yaml against the route table.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# doc/openapi.yaml documents every route corrchessd serves, and only those:
# the (method, path) pairs of the route table in src/api/ (routes_api) and
# of the built-in routes in src/http/ (http_builtin: /healthz, /metrics)
# must be the operations under "paths:" in doc/openapi.yaml. Path parameters
# are compared by name: "{id:int}" in the table is "{id}" in OpenAPI.
# Run by `make check`; prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
api_c=$top_srcdir/src/api/*.c
http_c=$top_srcdir/src/http/*.c
yaml=$top_srcdir/doc/openapi.yaml

# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"

# The rows of routes_api and http_builtin: from a table's opening line to
# its closing "};", each row's method and path (on the row's first line),
# as "METHOD /path".
awk '
	/^const struct http_route[ \t]+(routes_api|http_builtin)\[/ {
		on = 1
		next
	}
	on && /^};/ { on = 0 }
	on {
		while (match($0, /\{ *"[A-Z]+", *"\/[^"]*"/)) {
			row = substr($0, RSTART, RLENGTH)
			$0 = substr($0, RSTART + RLENGTH)
			sub(/^\{/, "", row)
			gsub(/[",]/, " ", row)
			split(row, f, " ")
			print f[1], f[2]
		}
	}' $api_c $http_c >"$tmp/table"

# {name:type} -> {name}
sed 's/{\([a-z_]*\):[a-z]*}/{\1}/g' "$tmp/table" | sort >"$tmp/code"

# The operations under paths: a path at two spaces, its methods at four.
awk '
	/^paths:/ { on = 1; next }
	on && /^[^ #]/ { on = 0 }
	on && /^  \/[^ ]*:[ \t]*$/ {
		path = $1
		sub(/:$/, "", path)
		next
	}
	on && /^    (get|put|post|delete|options|head|patch|trace):/ {
		m = $1
		sub(/:.*/, "", m)
		print toupper(m), path
	}' "$yaml" | sort >"$tmp/doc"

if [ "$(wc -l <"$tmp/code")" -ge 12 ]; then
	ok
else
	bad "fewer routes read from src/api/ and src/http/ than expected:"
	cat "$tmp/code" >&2
fi
if [ "$(wc -l <"$tmp/doc")" -gt 0 ]; then
	ok
else
	bad "no operations read from doc/openapi.yaml"
fi
if [ -z "$(uniq -d "$tmp/code")" ]; then ok; else bad "a route twice in the table"; fi
if [ -z "$(uniq -d "$tmp/doc")" ]; then ok; else bad "an operation twice in doc/openapi.yaml"; fi

comm -23 "$tmp/code" "$tmp/doc" >"$tmp/missing"
comm -13 "$tmp/code" "$tmp/doc" >"$tmp/extra"
if [ -s "$tmp/missing" ]; then
	bad "routes served but not in doc/openapi.yaml:"
	sed 's/^/    /' "$tmp/missing" >&2
else
	ok
fi
if [ -s "$tmp/extra" ]; then
	bad "operations in doc/openapi.yaml that no route serves:"
	sed 's/^/    /' "$tmp/extra" >&2
else
	ok
fi

# Each path parameter is declared by the path's operations, inline
# ("- name: id") or through components/parameters ($ref); the names a path
# declares are printed after it.
awk '
	# First pass: the names of components/parameters.
	FNR == NR {
		if (/^components:/)
			comp = 1
		else if (/^[^ #]/)
			comp = 0
		if (comp && /^  parameters:/) {
			params = 1
			next
		}
		if (comp && /^  [^ ]/)
			params = 0
		if (params && /^    [A-Za-z0-9_]+:/) {
			ref = $1
			sub(/:$/, "", ref)
		}
		if (params && /^      name: /)
			pname[ref] = $2
		next
	}
	/^paths:/ { on = 1; next }
	on && /^[^ #]/ { on = 0 }
	on && /^  \/[^ ]*:[ \t]*$/ {
		if (path != "")
			print path, names
		path = $1
		sub(/:$/, "", path)
		names = ""
		next
	}
	on && /- name: / { names = names " " $3 }
	on && /\$ref: "#\/components\/parameters\// {
		r = $0
		sub(/.*parameters\//, "", r)
		sub(/".*/, "", r)
		names = names " " pname[r]
	}
	END { if (path != "") print path, names }' "$yaml" "$yaml" >"$tmp/params"
while read -r p names; do
	for name in $(echo "$p" | grep -o '{[a-z_]*}' | tr -d '{}'); do
		case " $names " in
		*" $name "*) ok ;;
		*) bad "$p: path parameter $name not declared" ;;
		esac
	done
done <"$tmp/params"

finish
