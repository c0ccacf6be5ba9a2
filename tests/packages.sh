#!/bin/sh
# tests/packages.sh: the Debian package's Depends against the guest's list.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `make check-systemd` installs the package with `dpkg -i` in a guest
# without network, whose packages are those of tests/guest/packages: a
# run-time library the package depends on and the list lacks fails there,
# minutes into the run, or not at all where check-systemd does not run.
# This test finds it at make check: the package's Depends, as
# dpkg-shlibdeps computes ${shlibs:Depends} from the libraries the
# programs make install installs link (corrchessd and corrchess; what
# dh_shlibdeps does when the package is built) and as debian/control
# names the others, must each be in the guest: listed in
# tests/guest/packages, in every Debian root (libc6), or brought by one
# of those (libglib2.0-0 comes with libgmime-3.0-0). Needs dpkg-dev
# (build-essential brings it). Prints "N passed, N failed".

set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need dpkg-shlibdeps dpkg-query

control=$top_srcdir/debian/control
list=$top_srcdir/tests/guest/packages

# The programs make install installs (make check passes them; by hand,
# the two there are).
installed_programs=${installed_programs:-src/corrchess src/corrchessd}
set --
for p in $installed_programs; do
	set -- "$@" "-e$top_builddir/$p"
done

# ${shlibs:Depends}: "libc6 (>= 2.34), libcurl4 (>= 7.63.0), ...".
# dpkg-shlibdeps reads debian/control, so it runs in the source tree.
if (cd "$top_srcdir" && dpkg-shlibdeps -O "$@") >"$tmp/shlibs" \
    2>"$tmp/shlibs.err"; then
	ok "dpkg-shlibdeps"
else
	cat "$tmp/shlibs.err" >&2
	bad "dpkg-shlibdeps on $installed_programs failed"
	finish
fi
sed -n 's/^shlibs:Depends=//p' "$tmp/shlibs" | tr ',' '\n' >"$tmp/deps"

# The binary package's own Depends lines in debian/control, but for the
# substitutions (${shlibs:Depends}, ${misc:Depends}).
awk '
	/^Package:/ { pkg = $2 }
	/^[A-Za-z-]+:/ { field = $1 }
	/^#/ { next }
	pkg == "corrchess" && field == "Depends:" {
		sub(/^Depends:/, ""); print
	}' "$control" | tr ',' '\n' | grep -v '[$]{' >>"$tmp/deps"

# One dependency a line, its alternatives separated by "|", without
# versions and architecture qualifiers.
# The sanitizers' run-time libraries are left out: a build with
# -fsanitize (the CI's second build) links them, the package never.
sed -e 's/([^)]*)//g' -e 's/:[a-z0-9]*//g' -e 's/[[:space:]]//g' \
    "$tmp/deps" | grep -v '^$' |
    grep -Ev '^(libasan|libubsan|liblsan|libtsan|libhwasan)[0-9]*$' |
    sort -u >"$tmp/wanted"
sed 's/#.*//' "$list" | tr -s ' \t' '\n' | grep -v '^$' | sort -u \
    >"$tmp/listed"

n=$(wc -l <"$tmp/wanted")
if [ "$n" -ge 8 ] && grep -qx libmicrohttpd12 "$tmp/wanted" &&
    grep -qx procps "$tmp/wanted"; then
	ok "the Depends read"
else
	bad "only $n dependencies read (libmicrohttpd12 and procps among" \
	    "them?): $(tr '\n' ' ' <"$tmp/wanted")"
fi

# What the guest holds: the packages listed, those of debootstrap's
# minbase (priority "required", or essential) and, closed over, what they
# depend on (the first of alternatives, as debootstrap resolves them), as
# the packages installed here say (bookworm, as the guest is).
dpkg-query -W -f '${Package}\t${Priority}\t${Essential}\t${Pre-Depends}, ${Depends}\n' \
    >"$tmp/status"
awk -F '\t' -v listed="$tmp/listed" '
	function first(alts) {
		sub(/\|.*/, "", alts)
		gsub(/\([^)]*\)|:[a-z0-9]+|[[:space:]]/, "", alts)
		return alts
	}
	BEGIN {
		while ((getline p <listed) > 0)
			have[p] = 1
	}
	{
		deps[$1] = $4
		if ($2 == "required" || $3 == "yes")
			have[$1] = 1
	}
	END {
		do {
			grew = 0
			for (p in have) {
				if (!(p in deps) || done[p])
					continue
				done[p] = 1
				n = split(deps[p], d, ",")
				for (i = 1; i <= n; i++)
					if ((q = first(d[i])) != "" && !(q in have)) {
						have[q] = 1
						grew = 1
					}
			}
		} while (grew)
		for (p in have)
			print p
	}' "$tmp/status" | sort >"$tmp/guest"
if grep -qx libc6 "$tmp/guest"; then
	ok "the guest's packages read"
else
	bad "no libc6 among the guest's packages read from dpkg-query"
fi

# in_guest PKG: in the guest's packages.
in_guest() {
	grep -qx "$1" "$tmp/guest"
}

while read -r dep; do
	found=
	for alt in $(echo "$dep" | tr '|' ' '); do
		in_guest "$alt" && found=$alt && break
	done
	if [ -n "$found" ]; then
		ok "$dep"
	else
		bad "the package depends on $dep, which the check-systemd" \
		    "guest would not hold (dpkg -i would fail there): add it" \
		    "to tests/guest/packages"
	fi
done <"$tmp/wanted"

finish
