/*
 * util/spell.h: the known name closest to a mistyped one.
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
 * Suggestions for unknown names (JSON members, query parameters): "did you
 * mean time_control?" for "timecontrol".
 */

#ifndef CORRCHESS_SPELL_H
#define CORRCHESS_SPELL_H

#include <stddef.h>

/*
 * The name of names[0..n-1] closest to `word` (edit distance with
 * transpositions, case ignored; a name that starts with the word or that
 * the word starts with counts as close), or NULL when none is close enough
 * to suggest. The result is one of `names`.
 */
const char	*spell_closest(const char *word, const char *const *names,
		    size_t n);

/* Say that `what` `word` is unknown, with the closest of `names` when one
 * is close ("unknown member timecontrol; did you mean time_control?"), in
 * buf; returns -1 like errbuf_set(). */
int		 spell_unknown(char *buf, size_t size, const char *what,
		    const char *word, const char *const *names, size_t n);

#endif /* CORRCHESS_SPELL_H */
