/*
 * web/page.h: the frame of every web page: HTML escaping, head, headers.
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
 * A page is built into a buffer: page_begin() writes the head (the
 * stylesheet and the one ES module, by URLs that carry their ETags, so
 * they are cached for a year), the handler adds the body with page_text()
 * (escaped) and page_raw() (markup the handler wrote), page_respond()
 * closes the document and answers with the headers every page has:
 *
 *   Content-Security-Policy: default-src 'self'; frame-ancestors 'none';
 *     base-uri 'none'; form-action 'self'   (no inline script or style)
 *   X-Content-Type-Options: nosniff
 *   Referrer-Policy: same-origin
 *   Vary: Accept-Language
 *
 * No cookies: a player is known by the key the browser holds.
 */

#ifndef CORRCHESS_WEB_PAGE_H
#define CORRCHESS_WEB_PAGE_H

#include <stdarg.h>
#include <stdint.h>

#include "chess/chess.h"
#include "http/http.h"
#include "service/service.h"
#include "util/buf.h"

struct page {
	struct buf	b;
	enum chess_lang	lang;
	bool		closed;		/* page_close() wrote the end */
};

/* The text in the page's language: `en` or `fr`. */
const char *page_tr(const struct page *, const char *en, const char *fr);

/* Start a page: doctype, head with `title` (escaped), the opening of the
 * body and the site's header. */
void page_begin(struct page *, enum chess_lang, const char *title);

/* Add text, escaped for HTML (element content and quoted attributes). */
void page_text(struct page *, const char *s);

/* Add formatted text, escaped. */
void page_textf(struct page *, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/* Add markup as it is (formatted); arguments that hold outside text must
 * have been escaped (page_text() escapes). */
void page_raw(struct page *, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/*
 * Add a <time> element for the UTC time `t`: the ISO form in its datetime
 * attribute, the time in words in the page's language as its text (the
 * module rewrites it in the reader's time zone); `class` may be NULL.
 */
void page_time(struct page *, int64_t t, const char *class);

/*
 * Close the page and answer with it: text/html, `status`, the headers
 * above. Frees the page's buffer.
 */
void page_respond(struct page *, struct http_response *, unsigned status);

/* Close the page (its footer and the end of the document), once; the
 * bytes are then pg->b's, for a caller that keeps them. */
void page_close(struct page *);

/* Answer with a whole page's bytes (copied) and the headers above. */
void page_respond_bytes(struct http_response *, unsigned status,
    const char *html, size_t len);
/* The same, not copied: see http_respond_shared(). */
void page_respond_shared(struct http_response *, unsigned status,
    const char *html, size_t len, void (*release)(void *));

/* Add the security headers of every web answer (pages and assets). */
void page_headers(struct http_response *);

/* The reader's language: ?lang=, else Accept-Language. */
enum chess_lang page_request_lang(struct http_request *);

/* Add a link to a player's page. */
void page_player_link(struct page *, const char *name);

/* Answer a service's refusal as a page, with its status and message. */
void page_service_error(struct http_response *, enum chess_lang,
    const struct service_error *);

/* Answer an error as a page: a title and one sentence. */
void page_error(struct http_response *, enum chess_lang, unsigned status,
    const char *message);

#endif /* CORRCHESS_WEB_PAGE_H */
