/*
 * http/listen.c: the listening socket: bound to the address, or inherited.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/*
 * The server makes its own listening socket and hands it to libmicrohttpd
 * (MHD_OPTION_LISTEN_SOCKET): bound to the configured address (port 0:
 * any free port, read back; "::" takes IPv4 as well), or, under socket
 * activation, the one given as listen_fd.
 */

#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "http/http_int.h"

/* Take the listening socket given in the options (socket activation). */
static int
http_listen_fd(struct http_server *srv, char *err, size_t errsize)
{
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	int			 fd = srv->opts.listen_fd, flags, on = 0;
	socklen_t		 onlen = sizeof on;

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &onlen) == -1) {
		snprintf(err, errsize, "fd %d: %s", fd, strerror(errno));
		return -1;
	}
	if (!on) {
		snprintf(err, errsize, "fd %d: not a listening socket", fd);
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    (flags = fcntl(fd, F_GETFD)) == -1 ||
	    fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1) {
		snprintf(err, errsize, "fd %d: %s", fd, strerror(errno));
		return -1;
	}
	memset(&ss, 0, sizeof ss);
	srv->port = 0;
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == 0) {
		if (ss.ss_family == AF_INET)
			srv->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		else if (ss.ss_family == AF_INET6)
			srv->port = ntohs(
			    ((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	srv->fd = fd;
	return 0;
}

/* Open, bind and listen on the configured address. */
int
http_listen(struct http_server *srv, char *err, size_t errsize)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t		 sslen;
	int			 fd = -1, one = 1, zero = 0;
	const char		*addr = srv->opts.address;

	memset(&ss, 0, sizeof ss);
	if (srv->opts.listen_fd > 0)
		return http_listen_fd(srv, err, errsize);
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)srv->opts.port);
		sslen = sizeof *sin;
	} else if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)srv->opts.port);
		sslen = sizeof *sin6;
	} else {
		snprintf(err, errsize, "%s is not an IPv4 or IPv6 address",
		    addr);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (fd == -1) {
		snprintf(err, errsize, "socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	/* "::" takes IPv4 connections as well. */
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
	if (bind(fd, (struct sockaddr *)&ss, sslen) == -1) {
		snprintf(err, errsize, "bind %s port %u: %s", addr,
		    srv->opts.port, strerror(errno));
		goto fail;
	}
	/* The kernel's largest backlog: many connecting at once wait
	 * there instead of being refused. */
	if (listen(fd, SOMAXCONN) == -1) {
		snprintf(err, errsize, "listen: %s", strerror(errno));
		goto fail;
	}
	sslen = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == -1) {
		snprintf(err, errsize, "getsockname: %s", strerror(errno));
		goto fail;
	}
	srv->port = ntohs(ss.ss_family == AF_INET ? sin->sin_port :
	    sin6->sin6_port);
	srv->fd = fd;
	return 0;
fail:
	if (fd != -1)
		close(fd);
	return -1;
}
