/*
 * client/cli_agent.c: signing through ssh-agent: its socket, two requests.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* See cli_agent.h; the messages are written and read by sig/agent.c. */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "client/cli_agent.h"
#include "sig/sig.h"
#include "util/errbuf.h"

/* Connect to the agent's socket; the descriptor, or -1 with a reason. */
static int
agent_connect(const char *sock, char *err, size_t errsize)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(sock) >= sizeof sun.sun_path)
		return errbuf_set(err, errsize, "SSH_AUTH_SOCK=%s: the socket's "
		    "name is too long", sock);
	memcpy(sun.sun_path, sock, strlen(sock) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return errbuf_set(err, errsize, "cannot make a socket: %s",
		    strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		errbuf_set(err, errsize, "cannot reach ssh-agent at %s "
		    "(SSH_AUTH_SOCK): %s; is the agent running?", sock,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Read exactly n bytes; 0, or -1 with a reason. */
static int
agent_read(int fd, const char *sock, uint8_t *p, size_t n, char *err,
    size_t errsize)
{
	ssize_t	got;

	while (n > 0) {
		got = read(fd, p, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errbuf_set(err, errsize, "reading from ssh-agent "
			    "at %s: %s", sock, strerror(errno));
		if (got == 0)
			return errbuf_set(err, errsize, "ssh-agent at %s closed "
			    "the connection before it answered", sock);
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/*
 * Send a whole request and read the answer's message (the bytes after its
 * length) into a malloc'd *msgp of *lenp bytes; 0, or -1 with a reason.
 */
static int
agent_ask(const char *sock, const uint8_t *req, size_t reqlen,
    uint8_t **msgp, size_t *lenp, char *err, size_t errsize)
{
	enum sig_error	 e = SIG_OK;
	uint8_t		 hdr[4], *msg = NULL;
	size_t		 len = 0, off = 0;
	ssize_t		 n;
	int		 fd, rc = -1;

	*msgp = NULL;
	if ((fd = agent_connect(sock, err, errsize)) == -1)
		return -1;
	while (off < reqlen) {
		n = send(fd, req + off, reqlen - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errbuf_set(err, errsize, "writing to ssh-agent at %s: "
			    "%s", sock, strerror(errno));
			goto out;
		}
		off += (size_t)n;
	}
	if (agent_read(fd, sock, hdr, sizeof hdr, err, errsize) == -1)
		goto out;
	if (sig_agent_msglen(hdr, &len, &e) == -1) {
		errbuf_set(err, errsize, "%s: %s", sock, sig_strerror(e));
		goto out;
	}
	if ((msg = malloc(len)) == NULL) {
		errbuf_set(err, errsize, "out of memory");
		goto out;
	}
	if (agent_read(fd, sock, msg, len, err, errsize) == -1)
		goto out;
	*msgp = msg;
	*lenp = len;
	msg = NULL;
	rc = 0;
out:
	free(msg);
	close(fd);
	return rc;
}

/* Ask whether the agent holds a key. */
int
cli_agent_holds(const char *sock, const uint8_t pk[SIG_PUBKEY_BYTES],
    size_t *nkeys, char *err, size_t errsize)
{
	enum sig_error	 e = SIG_OK;
	uint8_t		 req[SIG_AGENT_IDREQ_BYTES], *msg = NULL;
	size_t		 len = 0;
	int		 found = 0, rc;

	sig_agent_idreq(req);
	if (agent_ask(sock, req, sizeof req, &msg, &len, err, errsize) == -1)
		return -1;
	if (sig_agent_idanswer(msg, len, pk, &found, nkeys, &e) == -1)
		rc = errbuf_set(err, errsize, "listing the keys of ssh-agent "
		    "at %s: %s", sock, sig_strerror(e));
	else
		rc = found;
	free(msg);
	return rc;
}

/* Have the agent sign and check what it signed. */
int
cli_agent_sign(const char *sock, const uint8_t pk[SIG_PUBKEY_BYTES],
    const uint8_t *data, size_t len, uint8_t sig[SIG_SIGNATURE_BYTES],
    char *err, size_t errsize)
{
	enum sig_error	 e = SIG_OK;
	uint8_t		 req[SIG_AGENT_SIGNREQ_MAX], *msg = NULL;
	size_t		 reqlen = 0, msglen = 0;
	char		 fp[SIG_FINGERPRINT_SIZE];
	int		 rc = -1;

	sig_pubkey_fingerprint(pk, fp);
	if (len > SIG_TBS_MAX || sig_agent_signreq(pk, data, len, req,
	    sizeof req, &reqlen, &e) == -1)
		return errbuf_set(err, errsize, "cannot ask ssh-agent: %s",
		    sig_strerror(SIG_ESPACE));
	if (agent_ask(sock, req, reqlen, &msg, &msglen, err, errsize) == -1)
		return -1;
	if (sig_agent_signanswer(msg, msglen, sig, &e) == -1) {
		errbuf_set(err, errsize, "signing with %s through ssh-agent at "
		    "%s: %s", fp, sock, sig_strerror(e));
		goto out;
	}
	/* What the agent signed is what was asked, with this key. */
	if (sig_verify(data, len, sig, pk) != 0) {
		errbuf_set(err, errsize, "ssh-agent at %s answered with a "
		    "signature that does not verify with %s", sock, fp);
		goto out;
	}
	rc = 0;
out:
	free(msg);
	return rc;
}
