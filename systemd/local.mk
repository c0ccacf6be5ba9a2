# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

# Running corrchessd as a system service: the systemd glue (src/sdnotify.c),
# the manual page of the configuration (src/conf_man.c), the units, the
# sysusers.d and tmpfiles.d entries, and their test (tests/systemd.sh with
# its helpers tests/notifylisten.c and tests/listenfd.c).

src_libcorrchessd_a_SOURCES += \
	src/sdnotify.h src/sdnotify.c \
	src/conf_man.h src/conf_man.c

dist_man_MANS += doc/corrchessd.conf.5

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

# The test: sd_notify messages, the watchdog, socket activation, SIGHUP,
# and the shipped corrchessd.conf(5) against the table.
check_PROGRAMS += tests/notifylisten tests/listenfd
TESTS += tests/systemd.sh
EXTRA_DIST += tests/systemd.sh
tests_notifylisten_SOURCES = tests/notifylisten.c
tests_listenfd_SOURCES = tests/listenfd.c

# Write doc/corrchessd.conf.5 again from the table of keys (tests/systemd.sh
# fails until the shipped page matches the table).
update-conf-man: src/corrchessd$(EXEEXT)
	src/corrchessd$(EXEEXT) --dump-config-man \
	    >$(srcdir)/doc/corrchessd.conf.5
update-conf: update-conf-man
.PHONY: update-conf-man

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
