# http/local.mk: the HTTP server core over libmicrohttpd.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/http/libhttp.a
src_http_libhttp_a_SOURCES = \
	src/http/http.h src/http/http_int.h \
	src/http/route.c src/http/request.c src/http/response.c \
	src/http/status.c src/http/server.c src/http/listen.c \
	src/http/workers.c src/http/builtin.c src/http/guard.c \
	src/http/tls.c src/http/stream.c
src_http_libhttp_a_CFLAGS = $(AM_CFLAGS) $(MHD_CFLAGS) $(GNUTLS_CFLAGS) \
	$(JANSSON_CFLAGS)
HTTP_LIBS = src/http/libhttp.a $(UTIL_LIBS) $(MHD_LIBS) $(GNUTLS_LIBS) \
	$(JANSSON_LIBS)
