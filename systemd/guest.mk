# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# corrchess as a club runs it: `make check-systemd` builds the Debian
# package (debian/) from a distribution tree (make distdir) and boots a
# Debian 12 guest under qemu, where the real systemd runs the service, the
# upgrade drill and the restore drill (tests/guest/check-systemd says how).
# Not part of make check: it needs root, debootstrap and qemu, and takes
# minutes; .ci/run runs it. The base image of the guest is cached (under
# /var/cache/corrchess-guest).

EXTRA_DIST += \
	debian/changelog debian/control debian/copyright debian/rules \
	debian/postrm debian/corrchess.docs debian/corrchess.lintian-overrides \
	debian/source/format \
	tests/guest/build-base tests/guest/check-systemd tests/guest/mirror \
	tests/guest/packages tests/guest/corrchess-tests.target \
	tests/guest/corrchess-tests.service tests/guest/guest-tests \
	tests/guest/records.sh tests/guest/make-upgrade-data

check-systemd:
	@d=`mktemp -d "$${TMPDIR:-/tmp}/corrchess-dist.XXXXXX"` || exit 1; \
	echo "check-systemd: make distdir (the package's source)"; \
	if ! $(MAKE) $(AM_MAKEFLAGS) distdir \
	    distdir="$$d/$(PACKAGE)-$(VERSION)" >"$$d/distdir.log" 2>&1; then \
		tail -n 20 "$$d/distdir.log"; rm -rf "$$d"; exit 1; \
	fi; \
	$(srcdir)/tests/guest/check-systemd "$$d/$(PACKAGE)-$(VERSION)"; \
	st=$$?; rm -rf "$$d"; exit $$st

.PHONY: check-systemd
