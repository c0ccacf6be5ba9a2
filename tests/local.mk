# tests/local.mk: every test of make check, one cmocka program per module
# (tests/test_MODULE.c tests src/*/MODULE.c) and the scripts that drive the
# real corrchessd and corrchess with curl, ssh-keygen and real mail servers.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' \
	top_builddir='$(abs_top_builddir)' \
	installed_programs='$(bin_PROGRAMS) $(sbin_PROGRAMS)'
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
EXTRA_DIST += tests/data tests/lib.sh tests/valgrind.supp \
	tests/glicko2.py

# The tree against doc/hacking.md: folders, first lines, includes downward.
TESTS += tests/layers.sh
EXTRA_DIST += tests/layers.sh

# --- chess: the rules core ------------------------------------------------
# Deep perft depths run in `make check-deep`, never silently skipped.
check_PROGRAMS += tests/test_position tests/test_notation \
	tests/test_history tests/test_pgn
TESTS += tests/test_position tests/test_notation tests/test_history \
	tests/test_pgn tests/cli.sh
EXTRA_DIST += tests/cli.sh
tests_test_position_SOURCES = tests/test_position.c tests/testutil.h
tests_test_position_CFLAGS = $(TEST_CFLAGS)
tests_test_position_LDADD = $(CHESS_LIBS) $(CMOCKA_LIBS)
tests_test_notation_SOURCES = tests/test_notation.c tests/testutil.h
tests_test_notation_CFLAGS = $(TEST_CFLAGS)
tests_test_notation_LDADD = $(CHESS_LIBS) $(CMOCKA_LIBS)
tests_test_history_SOURCES = tests/test_history.c tests/testutil.h
tests_test_history_CFLAGS = $(TEST_CFLAGS)
tests_test_history_LDADD = $(CHESS_LIBS) $(CMOCKA_LIBS)
tests_test_pgn_SOURCES = tests/test_pgn.c tests/testutil.h
tests_test_pgn_CFLAGS = $(TEST_CFLAGS)
tests_test_pgn_LDADD = $(CHESS_LIBS) $(CMOCKA_LIBS)

check-deep: tests/test_position$(EXEEXT)
	CORRCHESS_PERFT_DEEP=1 $(abs_top_builddir)/tests/test_position
.PHONY: check-deep

# --- util: log, buffers, suggestions ----------------------------------------
check_PROGRAMS += tests/test_spell
TESTS += tests/test_spell
tests_test_spell_SOURCES = tests/test_spell.c tests/testutil.h
tests_test_spell_CFLAGS = $(TEST_CFLAGS)
tests_test_spell_LDADD = $(UTIL_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/test_french
TESTS += tests/test_french
tests_test_french_SOURCES = tests/test_french.c tests/testutil.h
tests_test_french_CFLAGS = $(TEST_CFLAGS)
tests_test_french_LDADD = $(UTIL_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/test_text
TESTS += tests/test_text
tests_test_text_SOURCES = tests/test_text.c tests/testutil.h
tests_test_text_CFLAGS = $(TEST_CFLAGS)
tests_test_text_LDADD = $(UTIL_LIBS) $(CMOCKA_LIBS)

# --- game: the state machine ----------------------------------------------
check_PROGRAMS += tests/test_game
TESTS += tests/test_game
tests_test_game_SOURCES = tests/test_game.c tests/testutil.h
tests_test_game_CFLAGS = $(TEST_CFLAGS)
tests_test_game_LDADD = $(GAME_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/test_render
TESTS += tests/test_render
tests_test_render_SOURCES = tests/test_render.c tests/testutil.h
tests_test_render_CFLAGS = $(TEST_CFLAGS)
tests_test_render_LDADD = $(GAME_LIBS) $(CMOCKA_LIBS)

# --- event: pairings, standings and tie-breaks, Glicko-2 -------------------
check_PROGRAMS += tests/test_berger tests/test_glicko tests/test_standings
TESTS += tests/test_berger tests/test_glicko tests/test_standings
check_PROGRAMS += tests/test_crosstable
TESTS += tests/test_crosstable
tests_test_crosstable_SOURCES = tests/test_crosstable.c
tests_test_crosstable_CFLAGS = $(TEST_CFLAGS)
tests_test_crosstable_LDADD = $(EVENT_LIBS) $(CMOCKA_LIBS)
tests_test_berger_SOURCES = tests/test_berger.c tests/testutil.h
tests_test_berger_CFLAGS = $(TEST_CFLAGS)
tests_test_berger_LDADD = $(EVENT_LIBS) $(CMOCKA_LIBS)
tests_test_glicko_SOURCES = tests/test_glicko.c tests/testutil.h
tests_test_glicko_CFLAGS = $(TEST_CFLAGS)
tests_test_glicko_LDADD = $(EVENT_LIBS) $(CMOCKA_LIBS)
tests_test_standings_SOURCES = tests/test_standings.c tests/testutil.h
tests_test_standings_CFLAGS = $(TEST_CFLAGS)
tests_test_standings_LDADD = $(EVENT_LIBS) $(CMOCKA_LIBS)

# --- sig: keys, statements, signatures -------------------------------------
# Runs the real ssh-keygen (openssh-client) unless CORRCHESS_NO_SSH_KEYGEN=1.
check_PROGRAMS += tests/test_sig
TESTS += tests/test_sig
tests_test_sig_SOURCES = tests/test_sig.c tests/testutil.h
tests_test_sig_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS)
tests_test_sig_LDADD = $(SIG_LIBS) $(CMOCKA_LIBS)

# --- client: a game's record checked offline --------------------------------
check_PROGRAMS += tests/test_verify
TESTS += tests/test_verify
tests_test_verify_SOURCES = tests/test_verify.c tests/testutil.h \
	src/client/verify.h src/client/verify.c
tests_test_verify_CFLAGS = $(TEST_CFLAGS) $(JANSSON_CFLAGS) $(SODIUM_CFLAGS)
tests_test_verify_LDADD = $(SIG_LIBS) $(CHESS_LIBS) $(UTIL_LIBS) \
	$(JANSSON_LIBS) $(SODIUM_LIBS) $(CMOCKA_LIBS)

# --- store: SQLite ----------------------------------------------------------
check_PROGRAMS += tests/test_store
TESTS += tests/test_store
# The same store, service and clock tests and tests/daemon.sh on a private
# PostgreSQL (tests/pgenv.sh); skipped (77) without PostgreSQL.
TESTS += tests/store-pg.sh
EXTRA_DIST += tests/store-pg.sh tests/pgenv.sh
EXTRA_DIST += tests/mail-pg.sh
tests_test_store_SOURCES = tests/test_store.c tests/testutil.h tests/testpg.h
tests_test_store_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS) $(PQ_CFLAGS)
tests_test_store_LDADD = $(STORE_LIBS) $(CMOCKA_LIBS)

# --- letters: mail content --------------------------------------------------
# test_mail_parse reads tests/data/mail (signed with tests/data/mail/keys).
check_PROGRAMS += tests/test_mail_parse tests/test_notice tests/test_address
TESTS += tests/test_mail_parse tests/test_notice tests/test_address
tests_test_address_SOURCES = tests/test_address.c tests/testutil.h
tests_test_address_CFLAGS = $(LETTERS_TEST_CFLAGS)
tests_test_address_LDADD = $(LETTERS_LIBS) $(CMOCKA_LIBS)
LETTERS_TEST_CFLAGS = $(TEST_CFLAGS) $(GMIME_CFLAGS) $(SODIUM_CFLAGS)
tests_test_mail_parse_SOURCES = tests/test_mail_parse.c tests/testutil.h
tests_test_mail_parse_CFLAGS = $(LETTERS_TEST_CFLAGS)
tests_test_mail_parse_LDADD = $(LETTERS_LIBS) $(CMOCKA_LIBS)
tests_test_notice_SOURCES = tests/test_notice.c tests/testutil.h
tests_test_notice_CFLAGS = $(LETTERS_TEST_CFLAGS)
tests_test_notice_LDADD = $(LETTERS_LIBS) $(CMOCKA_LIBS)

# --- service: actions on a real SQLite file, group commit, metrics ---------
check_PROGRAMS += tests/test_service
TESTS += tests/test_service
tests_test_service_SOURCES = tests/test_service.c tests/testutil.h \
	tests/testpg.h
tests_test_service_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS) $(JANSSON_CFLAGS) $(PQ_CFLAGS)
tests_test_service_LDADD = $(API_LIBS) $(CMOCKA_LIBS)

# --- http: the server core over the wire (libcurl) --------------------------
check_PROGRAMS += tests/test_http
TESTS += tests/test_http
tests_test_http_SOURCES = tests/test_http.c tests/testutil.h
tests_test_http_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(JANSSON_CFLAGS) $(CURL_CFLAGS) \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
tests_test_http_LDADD = $(API_LIBS) $(CURL_LIBS) \
	$(CMOCKA_LIBS)

# --- mail: IMAP and SMTP against real Dovecot and Postfix -------------------
# tests/mailenv.sh starts them in a temp directory. The test fails when the
# servers are not installed, unless CORRCHESS_NO_MAIL_SERVERS=1 makes it
# skip. CORRCHESS_MAIL_BENCH=1 also measures the fetch rate (make bench-mail).
check_PROGRAMS += tests/test_mail
TESTS += tests/test_mail
EXTRA_DIST += tests/mailenv.sh
tests_test_mail_SOURCES = tests/test_mail.c tests/testutil.h
tests_test_mail_CFLAGS = $(TEST_CFLAGS) $(CURL_CFLAGS)
tests_test_mail_LDADD = src/daemon/libdaemon.a $(MAIL_LIBS) $(CMOCKA_LIBS)

# test_imap_parse reads tests/data/imap (answers captured from Dovecot).
check_PROGRAMS += tests/test_imap_parse
TESTS += tests/test_imap_parse
tests_test_imap_parse_SOURCES = tests/test_imap_parse.c tests/testutil.h
tests_test_imap_parse_CFLAGS = $(TEST_CFLAGS)
tests_test_imap_parse_LDADD = $(MAIL_LIBS) $(CMOCKA_LIBS)

# --- daemon: configuration, the clock thread, systemd glue -----------------
check_PROGRAMS += tests/test_conf tests/test_clock
TESTS += tests/test_conf tests/test_clock
tests_test_conf_SOURCES = tests/test_conf.c tests/testutil.h
tests_test_conf_CFLAGS = $(TEST_CFLAGS)
tests_test_conf_LDADD = src/daemon/libdaemon.a $(UTIL_LIBS) $(CMOCKA_LIBS)
tests_test_clock_SOURCES = tests/test_clock.c tests/testutil.h tests/testpg.h
tests_test_clock_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS) \
	$(PQ_CFLAGS)
tests_test_clock_LDADD = src/daemon/libdaemon.a $(SERVICE_LIBS) \
	$(CMOCKA_LIBS)

# sd_notify messages, the watchdog, socket activation, SIGHUP, and the
# shipped corrchessd.conf(5) against the table, with two helpers standing
# in for systemd's notify socket and LISTEN_FDS.
check_PROGRAMS += tests/notifylisten tests/listenfd
tests_notifylisten_SOURCES = tests/notifylisten.c
tests_listenfd_SOURCES = tests/listenfd.c
TESTS += tests/systemd.sh
EXTRA_DIST += tests/systemd.sh

# The Debian package's Depends (dpkg-shlibdeps on the built programs, and
# debian/control) against the check-systemd guest's tests/guest/packages.
TESTS += tests/packages.sh
EXTRA_DIST += tests/packages.sh

# --- web: the board drawn on the server -----------------------------------
# Checks its output with xmllint (libxml2-utils) when installed.
check_PROGRAMS += tests/test_board_svg
TESTS += tests/test_board_svg
tests_test_board_svg_SOURCES = tests/test_board_svg.c tests/testutil.h
tests_test_board_svg_CFLAGS = $(TEST_CFLAGS)
tests_test_board_svg_LDADD = $(WEB_LIBS) $(CMOCKA_LIBS)

# --- the real corrchessd and corrchess, end to end --------------------------
# daemon-frame.sh: logging, config, HTTP limits, metrics; daemon.sh: the game
# service over curl with ssh-keygen and openssl signatures; openapi.sh: the
# OpenAPI document against the route table; client.sh: the corrchess
# command; mail.sh: moves by mail through real Dovecot and Postfix;
# admin.sh: what a club admin meets in the first week; readme.sh: the
# README's walk-through on a port other than 8080; events.sh: a club
# championship from creation to the final crosstable; conditional.sh:
# conditional moves over curl and the client; xfcc.sh: the Xfcc endpoint
# with Scid's own Xfcc client (tests/xfcc_scid.tcl); selfmanage.sh: a
# player's own keys and settings by signed statement; mail_token.sh: replies
# without a key, by s-nail, with the notices' single-use tokens; streams.sh:
# live event streams read with curl -N while moves are made; event_mail.sh:
# an event's mails (start, withdrawals, end) through Dovecot and Postfix;
# agent.sh: signing through the real ssh-agent (keys added with ssh-add);
# messages.sh: messages to the opponent signed with the actions, in every
# view.
TESTS += tests/daemon-frame.sh tests/daemon.sh tests/openapi.sh \
	tests/client.sh tests/mail.sh tests/admin.sh tests/readme.sh \
	tests/events.sh tests/conditional.sh tests/xfcc.sh tests/selfmanage.sh \
	tests/mail_token.sh tests/streams.sh tests/event_mail.sh tests/agent.sh \
	tests/messages.sh
EXTRA_DIST += tests/daemon-frame.sh tests/daemon.sh tests/openapi.sh \
	tests/client.sh tests/mail.sh tests/mail_token.sh tests/maillib.sh \
	tests/admin.sh tests/readme.sh \
	tests/events.sh tests/event_page.py tests/conditional.sh tests/xfcc.sh \
	tests/xfcc_scid.tcl tests/selfmanage.sh tests/streams.sh \
	tests/event_mail.sh tests/agent.sh tests/messages.sh

# --- web: the pages and the SVG board ----------------------------------------
# web.sh: the pages, their headers and assets, the board as SVG (xmllint),
# invitations; browser.sh: enrolment and play in headless Chromium, driven
# over the DevTools protocol by browser.py (screenshots: tests/screenshots/);
# tls.sh: HTTPS with certificates openssl made, renewed on SIGHUP, curl and
# Chromium at https://corrchess.test.
TESTS += tests/web.sh tests/browser.sh tests/tls.sh
EXTRA_DIST += tests/web.sh tests/browser.sh tests/browser.py tests/tls.sh
CLEANFILES += tests/screenshots/*.png

# --- robustness --------------------------------------------------------------
# crash.sh: SIGKILL under load and restarts (every move answered 201
# survives, none twice, the database and online backups sound); abuse.sh:
# slowloris and oversized requests while well-behaved clients are served;
# diskfull.sh: a full disk (a small tmpfs): 500, one log line, recovery;
# stop.sh: SIGTERM with streams open, moves in flight and slow clients (a
# prompt exit, every move answered 201 kept).
TESTS += tests/crash.sh tests/abuse.sh tests/diskfull.sh tests/stop.sh
EXTRA_DIST += tests/crash.sh tests/abuse.sh tests/abuse-load.py \
	tests/diskfull.sh tests/stop.sh

# The crash test with 50 kills instead of make check's 5 (about a minute).
check-crash: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	CRASH_KILLS=$${CRASH_KILLS:-50} $(TESTS_ENVIRONMENT) \
	    $(abs_top_srcdir)/tests/crash.sh
.PHONY: check-crash

# Several servers on one PostgreSQL killed (a minute or two; run by .ci/run,
# not make check): tests/crash.sh on two servers on a private PostgreSQL,
# each killed with SIGKILL under load in turn (CRASH_PG_KILLS, 4), and
# tests/mail-pg.sh, the server reading the mailbox killed while mail
# arrives through Postfix and Dovecot. Skipped without PostgreSQL.
check-failover: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	@if ! sh $(abs_top_srcdir)/tests/pgenv.sh available; then \
	    echo "check-failover: PostgreSQL is not installed; skipped"; \
	    exit 0; fi; \
	d=$$(mktemp -d /tmp/ccpg.XXXXXX) && \
	sh $(abs_top_srcdir)/tests/pgenv.sh start "$$d" && \
	. "$$d/env" && CORRCHESS_TEST_PG=$$PG_CONNINFO \
	    CRASH_KILLS=$${CRASH_PG_KILLS:-4} $(TESTS_ENVIRONMENT) \
	    bash $(abs_top_srcdir)/tests/crash.sh; rc=$$?; \
	sh $(abs_top_srcdir)/tests/pgenv.sh stop "$$d"; \
	[ $$rc -eq 0 ] || exit $$rc; \
	$(TESTS_ENVIRONMENT) sh $(abs_top_srcdir)/tests/mail-pg.sh
.PHONY: check-failover

# The integration scripts with corrchessd and corrchess under valgrind's
# memcheck (tests/lib.sh, CORRCHESS_VALGRIND=1): a script fails on a memory
# error or a definite or indirect leak in the project's code.
# tests/valgrind.supp: the libraries' known one-time allocations.
valgrind_checked = tests/daemon.sh tests/client.sh tests/daemon-frame.sh \
	tests/web.sh \
	tests/mail.sh tests/events.sh tests/conditional.sh tests/selfmanage.sh
check-valgrind: src/corrchessd$(EXEEXT) src/corrchess$(EXEEXT)
	@failed=; for t in $(valgrind_checked); do \
	    echo "== $$t under valgrind"; start=$$(date +%s); \
	    CORRCHESS_VALGRIND=1 $(TESTS_ENVIRONMENT) \
	    $(abs_top_srcdir)/$$t || failed="$$failed $$t"; \
	    echo "== $$t: $$(($$(date +%s) - start)) s"; \
	done; \
	if [ -n "$$failed" ]; then echo "check-valgrind: FAIL:$$failed"; \
	    exit 1; fi; echo "check-valgrind: all passed"
.PHONY: check-valgrind

# The scripts' JSON reader (tests/lib.sh's jget), built by make so that the
# script targets above and scripts run by hand find it.
noinst_PROGRAMS += tests/jget
tests_jget_SOURCES = tests/jget.c
tests_jget_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_jget_LDADD = $(JANSSON_LIBS)
