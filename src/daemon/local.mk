# daemon/local.mk: corrchessd: main, configuration, the clock thread,
# systemd notification.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/daemon/libdaemon.a
src_daemon_libdaemon_a_SOURCES = \
	src/daemon/conf.h src/daemon/conf.c \
	src/daemon/conf_man.h src/daemon/conf_man.c \
	src/daemon/clock.h src/daemon/clock.c \
	src/daemon/sdnotify.h src/daemon/sdnotify.c
src_daemon_libdaemon_a_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS)
DAEMON_LIBS = src/daemon/libdaemon.a $(XFCC_LIBS) $(MAIL_LIBS) $(PAGES_LIBS)

sbin_PROGRAMS += src/corrchessd
src_corrchessd_SOURCES = src/daemon/corrchessd.c
src_corrchessd_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORRCHESSD_CONF_DEFAULT='"$(sysconfdir)/corrchessd.conf"'
src_corrchessd_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS) $(GMIME_CFLAGS) $(XML_CFLAGS)
src_corrchessd_LDADD = $(DAEMON_LIBS)

# The example configuration: every key with its default and one line of
# help, written from the table of keys in daemon/conf.c.
dist_sysconf_DATA = conf/corrchessd.conf

# Write conf/corrchessd.conf and doc/corrchessd.conf.5 again from the table
# (tests/test_conf and tests/systemd.sh fail until the shipped files match).
update-conf: src/corrchessd$(EXEEXT)
	src/corrchessd$(EXEEXT) --dump-config-example \
	    >$(srcdir)/conf/corrchessd.conf
	src/corrchessd$(EXEEXT) --dump-config-man \
	    >$(srcdir)/doc/corrchessd.conf.5
.PHONY: update-conf
