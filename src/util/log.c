/*
 * util/log.c: logging to standard error (the journal).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

/* Logging to standard error, one write(2) per line; see log.h. */

#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

/* Longest line written; longer messages are cut and end with "...". */
#define LOG_LINE_MAX	2048

static atomic_int	 log_verbose = LOG_LEVEL_INFO;
static atomic_int	 log_journal = -1;	/* -1: not looked at yet */
static const char	*_Atomic log_name = "corrchess";

static void	log_emit(int, int, const char *, va_list)
		    __attribute__((__format__(__printf__, 3, 0)));

/* Tell whether standard error is the journal stream named by JOURNAL_STREAM. */
static int
log_is_journal(void)
{
	const char	*env;
	struct stat	 sb;
	uintmax_t	 dev, ino;
	char		 rest;

	env = getenv("JOURNAL_STREAM");
	if (env == NULL)
		return 0;
	if (sscanf(env, "%ju:%ju%c", &dev, &ino, &rest) != 2)
		return 0;
	if (fstat(STDERR_FILENO, &sb) == -1)
		return 0;
	return (uintmax_t)sb.st_dev == dev && (uintmax_t)sb.st_ino == ino;
}

/* Set the program name and the most verbose level printed. */
void
log_init(int level, const char *name)
{
	if (name != NULL)
		atomic_store(&log_name, name);
	atomic_store(&log_journal, log_is_journal());
	log_setverbose(level);
}

/* Change the most verbose level printed. */
void
log_setverbose(int level)
{
	if (level < LOG_LEVEL_ERROR)
		level = LOG_LEVEL_ERROR;
	if (level > LOG_LEVEL_DEBUG)
		level = LOG_LEVEL_DEBUG;
	atomic_store(&log_verbose, level);
}

/* Return the most verbose level printed. */
int
log_getverbose(void)
{
	return atomic_load(&log_verbose);
}

/* Return the name of a level. */
const char *
log_level_name(int level)
{
	switch (level) {
	case LOG_LEVEL_ERROR:
		return "error";
	case LOG_LEVEL_WARNING:
		return "warning";
	case LOG_LEVEL_INFO:
		return "info";
	case LOG_LEVEL_DEBUG:
		return "debug";
	}
	return "unknown";
}

/* Parse a level name. */
int
log_level_parse(const char *name, int *level)
{
	static const int levels[] = {
		LOG_LEVEL_ERROR, LOG_LEVEL_WARNING, LOG_LEVEL_INFO,
		LOG_LEVEL_DEBUG
	};
	size_t	i;

	for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		if (strcmp(name, log_level_name(levels[i])) == 0) {
			*level = levels[i];
			return 0;
		}
	}
	return -1;
}

/*
 * Format one line and write it with a single write(2). errnum is appended
 * as ": strerror" when not zero.
 */
static void
log_emit(int level, int errnum, const char *fmt, va_list ap)
{
	char		 line[LOG_LINE_MAX];
	char		 errbuf[128];
	const char	*errstr;
	size_t		 len, start, i;
	int		 n, journal;
	ssize_t		 w;

	if (level > atomic_load(&log_verbose))
		return;
	journal = atomic_load(&log_journal);
	if (journal == -1) {
		journal = log_is_journal();
		atomic_store(&log_journal, journal);
	}

	if (journal) {
		n = snprintf(line, sizeof line, "<%d>", level);
	} else if (level == LOG_LEVEL_INFO) {
		n = snprintf(line, sizeof line, "%s: ",
		    atomic_load(&log_name));
	} else {
		n = snprintf(line, sizeof line, "%s: %s: ",
		    atomic_load(&log_name), log_level_name(level));
	}
	if (n < 0)
		return;
	start = len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;

	/* Reserve room for "...\n" when the message is cut. */
	n = vsnprintf(line + len, sizeof line - len - 4, fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof line - len - 4) {
		len = sizeof line - 5;
		memcpy(line + len, "...", 3);
		len += 3;
	} else
		len += (size_t)n;

	if (errnum != 0 && len < sizeof line - 5) {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
		errstr = strerror_r(errnum, errbuf, sizeof errbuf);
#else
		errstr = strerror_r(errnum, errbuf, sizeof errbuf) == 0 ?
		    errbuf : "unknown error";
#endif
		n = snprintf(line + len, sizeof line - len - 1, ": %s", errstr);
		if (n > 0)
			len += (size_t)n < sizeof line - len - 1 ?
			    (size_t)n : sizeof line - len - 2;
	}

	/* One message is one line: no control characters inside. */
	for (i = start; i < len; i++) {
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	}
	line[len++] = '\n';

	do {
		w = write(STDERR_FILENO, line, len);
	} while (w == -1 && errno == EINTR);
}

/* Log at a given level, without errno. */
void
vlog(int level, const char *fmt, va_list ap)
{
	int	saved = errno;

	log_emit(level, 0, fmt, ap);
	errno = saved;
}

/* Log a warning with strerror(errno). */
void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_WARNING, saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log a warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_WARNING, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log an error with strerror(errno). */
void
log_error(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_ERROR, saved, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log an error. */
void
log_errorx(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_ERROR, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log an informational message. */
void
log_info(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_INFO, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log a debugging message. */
void
log_debug(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_DEBUG, 0, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* Log an error with strerror(errno) and exit. */
void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_ERROR, saved, fmt, ap);
	va_end(ap);
	exit(1);
}

/* Log an error and exit. */
void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_emit(LOG_LEVEL_ERROR, 0, fmt, ap);
	va_end(ap);
	exit(1);
}
