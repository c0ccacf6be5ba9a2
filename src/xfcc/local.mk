# xfcc/local.mk: the Xfcc endpoint (XfccBasic over SOAP 1.1, libxml2).
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later

noinst_LIBRARIES += src/xfcc/libxfcc.a
src_xfcc_libxfcc_a_SOURCES = src/xfcc/soap.h src/xfcc/soap.c \
	src/xfcc/xfcc.h src/xfcc/xfcc.c
src_xfcc_libxfcc_a_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS) $(JANSSON_CFLAGS) \
	$(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
XFCC_LIBS = src/xfcc/libxfcc.a $(HTTP_LIBS) $(SERVICE_LIBS) $(XML_LIBS)
