/*
 * letters/notice_event.h: the parts of an event's notice (NOTICE_EVENT).
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
 * Private to src/letters: notice.c composes the mail (headers, greeting,
 * parts); these write what is an event's own, in the language of `tx`.
 */

#ifndef CORRCHESS_NOTICE_EVENT_H
#define CORRCHESS_NOTICE_EVENT_H

#include "util/buf.h"
#include "chess/chess.h"
#include "letters/notice.h"
#include "letters/notice_texts.h"

/* Append the subject's words after the event's title ("Club 2026: 4
 * games"). */
void	notice_event_subject(const struct notice_event *,
	    const struct texts *tx, struct buf *);

/* Append the opening paragraph: the event started, a player withdrew, it
 * ended. */
void	notice_event_intro(const struct notice_event *,
	    const struct texts *tx, struct buf *);

/* Append the body: the rules and the recipient's games at the start, the
 * games with the withdrawn player, the result and standings at the end. */
void	notice_event_body(const struct notice_event *,
	    const struct texts *tx, enum chess_lang, struct buf *);

#endif /* CORRCHESS_NOTICE_EVENT_H */
