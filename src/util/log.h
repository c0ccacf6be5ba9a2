/*
 * util/log.h: logging to standard error (the journal).
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
 * Logging, shaped like OpenSMTPD's log.h: one line per message on standard
 * error. When standard error is the systemd journal (JOURNAL_STREAM names
 * it), each line starts with the sd-daemon level prefix ("<4>") that
 * journald turns into a priority; otherwise lines read
 * "NAME: warning: message". Every line is written with one write(2), so
 * threads never interleave within a line. Control characters in messages
 * (from a config file, a request, a mail) are shown as '?', so one message
 * is always one line.
 *
 * fatal() and fatalx() are for start-up and broken invariants only: request
 * paths return errors and never exit.
 */

#ifndef CORRCHESS_LOG_H
#define CORRCHESS_LOG_H

#include <stdarg.h>

/* Levels, numbered like syslog priorities (and the "<N>" prefixes). */
enum log_level {
	LOG_LEVEL_ERROR = 3,
	LOG_LEVEL_WARNING = 4,
	LOG_LEVEL_INFO = 6,
	LOG_LEVEL_DEBUG = 7,
};

/*
 * Set the program name shown in plain-text lines (borrowed: must outlive
 * logging; a string literal or argv[0]) and the most verbose level printed.
 * May be called again; logging before log_init() prints at LOG_LEVEL_INFO
 * under the name "corrchess".
 */
void	log_init(int level, const char *name);

/* Change the most verbose level printed (thread-safe). */
void	log_setverbose(int level);

/* Return the most verbose level printed. */
int	log_getverbose(void);

/* Return the name of a level ("error", "warning", "info", "debug"). */
const char *log_level_name(int level);

/* Parse a level name as above into *level; 0 on success, -1 otherwise. */
int	log_level_parse(const char *name, int *level);

/* Warning with ": strerror(errno)" appended. */
void	log_warn(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
/* Warning without errno. */
void	log_warnx(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
/* Error that does not stop the program, with and without errno. */
void	log_error(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	log_errorx(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	log_info(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
void	log_debug(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
/* Log at a given level, without errno. */
void	vlog(int level, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));

/* Log an error (with and without errno) and exit(1). */
void	fatal(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2), __noreturn__));
void	fatalx(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2), __noreturn__));

#endif /* CORRCHESS_LOG_H */
