/*
 * web/page.c: the frame of every web page: HTML escaping, head, headers.
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/render.h"
#include "web/assets.h"
#include "web/lang.h"
#include "web/page.h"

/* Choose the page's text. */
const char *
page_tr(const struct page *pg, const char *en, const char *fr)
{
	return pg->lang == CHESS_LANG_FR ? fr : en;
}

/* Add escaped text. */
void
page_text(struct page *pg, const char *s)
{
	const char	*p;

	while (*s != '\0') {
		p = s + strcspn(s, "&<>\"'");
		buf_add(&pg->b, s, (size_t)(p - s));
		if (*p == '\0')
			break;
		switch (*p) {
		case '&': buf_adds(&pg->b, "&amp;"); break;
		case '<': buf_adds(&pg->b, "&lt;"); break;
		case '>': buf_adds(&pg->b, "&gt;"); break;
		case '"': buf_adds(&pg->b, "&quot;"); break;
		default: buf_adds(&pg->b, "&#39;"); break;
		}
		s = p + 1;
	}
}

/* Add formatted text, escaped or as it is. */
static void
page_vadd(struct page *pg, bool escape, const char *fmt, va_list ap)
{
	char	*s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	if (escape)
		page_text(pg, s);
	else
		buf_adds(&pg->b, s);
	free(s);
}

/* Add formatted, escaped text. */
void
page_textf(struct page *pg, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	page_vadd(pg, true, fmt, ap);
	va_end(ap);
}

/* Add markup. */
void
page_raw(struct page *pg, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	page_vadd(pg, false, fmt, ap);
	va_end(ap);
}

/* Add a <time> element for `t`, ISO in the attribute, words in the text. */
void
page_time(struct page *pg, int64_t t, const char *class)
{
	char	iso[32], words[96];

	render_time(t, iso, sizeof iso);
	render_time_lang(t, pg->lang, words, sizeof words);
	page_raw(pg, "<time%s%s%s datetime=\"%s\">%s</time>",
	    class ? " class=\"" : "", class ? class : "", class ? "\"" : "",
	    iso, words);
}

/* Start a page. */
void
page_begin(struct page *pg, enum chess_lang lang, const char *title)
{
	memset(pg, 0, sizeof *pg);
	pg->lang = lang;
	page_raw(pg, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"color-scheme\" content=\"light dark\">\n<title>",
	    web_lang_name(lang));
	page_text(pg, title);
	page_raw(pg, " · corrchess</title>\n"
	    "<link rel=\"stylesheet\" href=\"%s\">\n"
	    "<script type=\"module\" src=\"%s\"></script>\n</head>\n<body>\n"
	    "<a class=\"cc-skip\" href=\"#main\">%s</a>\n"
	    "<header class=\"cc-top\"><a href=\"/\">corrchess</a>"
	    "<nav aria-label=\"%s\"><a href=\"?lang=en\" hreflang=\"en\" "
	    "lang=\"en\">English</a> <a href=\"?lang=fr\" hreflang=\"fr\" "
	    "lang=\"fr\">Français</a></nav></header>\n"
	    "<main id=\"main\">\n",
	    assets_url(ASSET_CSS), assets_url(ASSET_JS),
	    page_tr(pg, "Skip to the content", "Aller au contenu"),
	    page_tr(pg, "Language", "Langue"));
}

/* Add the headers of every web answer. */
void
page_headers(struct http_response *resp)
{
	http_response_header(resp, "Content-Security-Policy",
	    "default-src 'self'; img-src 'self' data:; "
	    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
	http_response_header(resp, "X-Content-Type-Options", "nosniff");
	http_response_header(resp, "Referrer-Policy", "same-origin");
}

/* Close the page: its footer and the end of the document. */
void
page_close(struct page *pg)
{
	if (pg->closed)
		return;
	page_raw(pg, "</main>\n<footer class=\"cc-foot\"><p>%s "
	    "<a href=\"/api/v1\">API</a></p></footer>\n</body>\n</html>\n",
	    page_tr(pg, "Every move here is a signed statement.",
	    "Chaque coup ici est une déclaration signée."));
	pg->closed = true;
}

/* Add a page's headers to its answer. */
static void
page_answer_headers(struct http_response *resp)
{
	page_headers(resp);
	http_response_header(resp, "Vary", "Accept-Language");
	http_response_header(resp, "Cache-Control", "no-cache");
}

/* Answer with a page's bytes. */
void
page_respond_bytes(struct http_response *resp, unsigned status,
    const char *html, size_t len)
{
	http_respond_data(resp, status, "text/html; charset=utf-8", html,
	    len);
	page_answer_headers(resp);
}

/* Answer with a page's bytes, not copied. */
void
page_respond_shared(struct http_response *resp, unsigned status,
    const char *html, size_t len, void (*release)(void *))
{
	http_respond_shared(resp, status, "text/html; charset=utf-8", html,
	    len, release);
	page_answer_headers(resp);
}

/* Close the page and answer. */
void
page_respond(struct page *pg, struct http_response *resp, unsigned status)
{
	char	*html;
	size_t	 len;

	page_close(pg);
	if ((html = buf_take(&pg->b, &len)) == NULL) {
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	page_respond_bytes(resp, status, html, len);
	free(html);
}

/* Answer an error page. */
void
page_error(struct http_response *resp, enum chess_lang lang, unsigned status,
    const char *message)
{
	struct page	pg;

	page_begin(&pg, lang, lang == CHESS_LANG_FR ? "Erreur" : "Error");
	page_raw(&pg, "<h1>%s</h1>\n<p class=\"cc-error\">",
	    page_tr(&pg, "Error", "Erreur"));
	page_text(&pg, message);
	page_raw(&pg, "</p>\n");
	page_respond(&pg, resp, status);
}

/* The reader's language. */
enum chess_lang
page_request_lang(struct http_request *req)
{
	return web_lang(http_request_query(req, "lang"),
	    http_request_header(req, "Accept-Language"));
}

/* Add a link to a player's page. */
void
page_player_link(struct page *pg, const char *name)
{
	page_raw(pg, "<a href=\"/players/");
	page_text(pg, name);
	page_raw(pg, "\">");
	page_text(pg, name);
	page_raw(pg, "</a>");
}

/* Answer a service error as a page. */
void
page_service_error(struct http_response *resp, enum chess_lang lang,
    const struct service_error *err)
{
	page_error(resp, lang, err->status ? err->status : 500, err->message);
}
