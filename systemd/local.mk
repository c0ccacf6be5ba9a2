# systemd/local.mk: the service and socket units, sysusers and tmpfiles.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# The units, the sysusers.d and tmpfiles.d entries, and the check of an
# installed tree (the systemd glue itself is daemon/sdnotify.c; its test is
# tests/systemd.sh).

# The service unit names the installed program and configuration.
if SYSTEMD_UNITS
systemdsystemunit_DATA = systemd/corrchessd.service systemd/corrchessd.socket
endif
if SYSTEMD_SYSUSERS
sysusers_DATA = systemd/sysusers/corrchessd.conf
endif
if SYSTEMD_TMPFILES
tmpfiles_DATA = systemd/tmpfiles/corrchessd.conf
endif

systemd/corrchessd.service: $(srcdir)/systemd/corrchessd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' \
	    -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	    $(srcdir)/systemd/corrchessd.service.in >$@.tmp && mv $@.tmp $@

# Installed under the name the package's directories expect.
systemd/sysusers/corrchessd.conf: $(srcdir)/systemd/corrchessd.sysusers.conf
	$(AM_V_GEN)$(MKDIR_P) systemd/sysusers && \
	cp $(srcdir)/systemd/corrchessd.sysusers.conf $@
systemd/tmpfiles/corrchessd.conf: $(srcdir)/systemd/corrchessd.tmpfiles.conf
	$(AM_V_GEN)$(MKDIR_P) systemd/tmpfiles && \
	cp $(srcdir)/systemd/corrchessd.tmpfiles.conf $@

CLEANFILES += systemd/corrchessd.service systemd/sysusers/corrchessd.conf \
	systemd/tmpfiles/corrchessd.conf
EXTRA_DIST += systemd/corrchessd.service.in systemd/corrchessd.socket \
	systemd/corrchessd.sysusers.conf systemd/corrchessd.tmpfiles.conf

# distcheck installs under its own prefix, the unit directories too.
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-systemdsystemunitdir=$$dc_install_base/lib/systemd/system \
	--with-sysusersdir=$$dc_install_base/lib/sysusers.d \
	--with-tmpfilesdir=$$dc_install_base/lib/tmpfiles.d

# After `make install` (distcheck runs it): every piece where it belongs,
# the installed corrchessd runs and accepts the installed configuration,
# and the unit names the installed program.
installcheck-local:
	test -x '$(DESTDIR)$(sbindir)/corrchessd'
	test -x '$(DESTDIR)$(bindir)/corrchess'
	test -f '$(DESTDIR)$(man1dir)/corrchess.1'
	test -f '$(DESTDIR)$(man5dir)/corrchessd.conf.5'
	test -f '$(DESTDIR)$(man8dir)/corrchessd.8'
	'$(DESTDIR)$(sbindir)/corrchessd' --version | \
	    grep -qx 'corrchessd $(PACKAGE_VERSION)'
	'$(DESTDIR)$(sbindir)/corrchessd' --check-config \
	    --config '$(DESTDIR)$(sysconfdir)/corrchessd.conf'
if SYSTEMD_UNITS
	grep -qx 'ExecStart=$(sbindir)/corrchessd --config $(sysconfdir)/corrchessd.conf' \
	    '$(DESTDIR)$(systemdsystemunitdir)/corrchessd.service'
	test -f '$(DESTDIR)$(systemdsystemunitdir)/corrchessd.socket'
endif
if SYSTEMD_SYSUSERS
	grep -q '^u corrchessd ' '$(DESTDIR)$(sysusersdir)/corrchessd.conf'
endif
if SYSTEMD_TMPFILES
	grep -q '^d /var/lib/corrchessd ' '$(DESTDIR)$(tmpfilesdir)/corrchessd.conf'
endif
