/*
 * web/events.c: the web pages of events: crosstable, standings, games.
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

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "event/crosstable.h"
#include "event/standings.h"
#include "game/game.h"
#include "service/service.h"
#include "web/events.h"
#include "web/page.h"

/* The words of an event's format and status in the page's language. */
static const char *
event_word(const struct page *pg, const char *w)
{
	static const char *const words[][3] = {
		{ "round-robin", "round robin", "toutes rondes" },
		{ "double-round-robin", "double round robin",
		    "toutes rondes aller-retour" },
		{ "match", "match", "match" },
		{ "created", "not started", "pas commencé" },
		{ "started", "under way", "en cours" },
		{ "finished", "finished", "terminé" },
	};
	size_t	i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(words[i][0], w) == 0)
			return page_tr(pg, words[i][1], words[i][2]);
	return w;
}

/* --- Lists of events ----------------------------------------------------- */

struct event_list {
	struct page	*pg;
	struct service	*svc;
	const char	*player;	/* only the events of this player */
	int		 n;
};

/* Tell whether an event has the player; -1 when it cannot be read. */
static int
event_has(struct service *svc, const char *event, const char *player)
{
	struct service_event	ev;
	struct service_error	err;
	size_t			i;
	int			found = 0;

	if (service_event_get(svc, event, &ev, &err) != 0)
		return -1;
	for (i = 0; i < ev.nplayers; i++)
		if (strcmp(ev.players[i].name, player) == 0)
			found = 1;
	service_event_free(&ev);
	return found;
}

/* Add one event to a list. */
static int
event_item(void *arg, const struct store_event *e)
{
	struct event_list	*l = arg;

	if (l->player != NULL && event_has(l->svc, e->name, l->player) != 1)
		return 0;
	if (l->n++ == 0)
		page_raw(l->pg, "<h2>%s</h2>\n<ul class=\"cc-events\">\n",
		    page_tr(l->pg, "Events", "Tournois"));
	page_raw(l->pg, "<li><a href=\"/events/");
	page_text(l->pg, e->name);
	page_raw(l->pg, "\">");
	page_text(l->pg, e->title[0] != '\0' ? e->title : e->name);
	page_raw(l->pg, "</a> · %s · %s</li>\n", event_word(l->pg, e->format),
	    event_word(l->pg, e->status));
	return 0;
}

/* Add the list of events (of `player`, or all); 0 or -1 with `err`. */
int
web_events_list(struct page *pg, struct service *svc, const char *player,
    struct service_error *err)
{
	struct event_list	l = { pg, svc, player, 0 };

	if (service_event_list(svc, event_item, &l, err) != 0)
		return -1;
	if (l.n > 0)
		page_raw(pg, "</ul>\n");
	return 0;
}

/* --- An event -------------------------------------------------------------- */

/* Add points from half points: "2½", "½", "0". */
static void
event_points(struct page *pg, unsigned points2)
{
	if (points2 == 1)
		page_raw(pg, "½");
	else
		page_raw(pg, "%u%s", points2 / 2, points2 % 2 ? "½" : "");
}

/* Add the standings: place, player, points, games, tie-breaks. */
static void
event_standings(struct page *pg, const struct service_event *ev)
{
	const struct standings_row	*r;
	size_t				 i, t;
	unsigned			 scale;

	page_raw(pg, "<div class=\"cc-scroll\"><table class=\"cc-games "
	    "cc-standings\" "
	    "id=\"cc-standings\"><caption>%s</caption>\n<thead><tr>"
	    "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
	    "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
	    "<th scope=\"col\">%s</th>", page_tr(pg, "Standings",
	    "Classement"), page_tr(pg, "Place", "Place"),
	    page_tr(pg, "Player", "Joueur"), page_tr(pg, "Points", "Points"),
	    page_tr(pg, "Played", "Jouées"), page_tr(pg, "Unfinished",
	    "En cours"));
	for (t = 0; t < ev->rules.ntiebreaks; t++)
		page_raw(pg, "<th scope=\"col\">%s</th>",
		    crosstable_tiebreak_label(ev->rules.tiebreaks[t]));
	page_raw(pg, "</tr></thead>\n<tbody>\n");
	for (i = 0; ev->rows != NULL && i < ev->nplayers; i++) {
		r = &ev->rows[i];
		page_raw(pg, "<tr data-player=\"");
		page_text(pg, ev->players[r->player].name);
		if (r->place_last > r->place)
			page_raw(pg, "\"><td>%u–%u</td><td>", r->place,
			    r->place_last);
		else
			page_raw(pg, "\"><td>%u</td><td>", r->place);
		page_player_link(pg, ev->players[r->player].name);
		page_raw(pg, "</td><td>");
		event_points(pg, r->points2);
		page_raw(pg, "</td><td>%u</td><td>%u</td>", r->played,
		    r->unfinished);
		for (t = 0; t < ev->rules.ntiebreaks; t++) {
			scale = standings_tiebreak_scale(
			    ev->rules.tiebreaks[t]);
			page_raw(pg, "<td>%g</td>", (double)r->tb[t] /
			    (scale ? scale : 1));
		}
		page_raw(pg, "</tr>\n");
	}
	page_raw(pg, "</tbody></table></div>\n");
}

/* Add the marks of one cell of the crosstable, each a link to its game:
 * the games between players `row` and `col` in list order (annulled ones
 * are not in the grid). */
static void
event_cell(struct page *pg, const struct service_event *ev, size_t row,
    size_t col)
{
	const struct store_event_game	*g;
	int64_t				 a = ev->players[row].player_id;
	int64_t				 b = ev->players[col].player_id;
	size_t				 i;
	unsigned			 k = 0;
	const char			*mark;

	for (i = 0; i < ev->ngames && k < ev->depth; i++) {
		g = &ev->games[i];
		if (strcmp(g->adjusted, "annulled") == 0 ||
		    !((g->white == a && g->black == b) ||
		    (g->white == b && g->black == a)))
			continue;
		mark = standings_mark_text(ev->grid[(row * ev->nplayers +
		    col) * ev->depth + k], false);
		page_raw(pg, "<a href=\"/games/%" PRId64 "\" title=\"%s %"
		    PRId64 "\">%s</a>", g->game_id, page_tr(pg, "Game",
		    "Partie"), g->game_id, mark);
		k++;
	}
}

/* Add the crosstable: one row per player in start order, one column per
 * opponent, each result a link to its game. */
static void
event_crosstable(struct page *pg, const struct service_event *ev)
{
	size_t	i, c, k;

	page_raw(pg, "<div class=\"cc-scroll\"><table class=\"cc-games "
	    "cc-crosstable\" id=\"cc-crosstable\"><caption>%s</caption>\n"
	    "<thead><tr><th scope=\"col\">#</th><th scope=\"col\">%s</th>",
	    page_tr(pg, "Crosstable", "Tableau"), page_tr(pg, "Player",
	    "Joueur"));
	for (c = 0; c < ev->nplayers; c++)
		page_raw(pg, "<th scope=\"col\">%zu</th>", c + 1);
	page_raw(pg, "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
	    "</tr></thead>\n<tbody>\n", page_tr(pg, "Points", "Points"),
	    page_tr(pg, "Place", "Place"));
	for (i = 0; i < ev->nplayers; i++) {
		for (k = 0; ev->rows != NULL && k < ev->nplayers; k++)
			if (ev->rows[k].player == i)
				break;
		page_raw(pg, "<tr><th scope=\"row\">%zu</th><td>", i + 1);
		page_player_link(pg, ev->players[i].name);
		if (ev->players[i].withdrawn != 0)
			page_raw(pg, " <span class=\"cc-withdrawn\">(%s)</span>",
			    page_tr(pg, "withdrew", "retiré"));
		page_raw(pg, "</td>");
		for (c = 0; c < ev->nplayers; c++) {
			if (c == i) {
				page_raw(pg, "<td class=\"cc-self\" "
				    "aria-label=\"—\">×</td>");
				continue;
			}
			page_raw(pg, "<td>");
			if (ev->grid != NULL && ev->depth > 0)
				event_cell(pg, ev, i, c);
			page_raw(pg, "</td>");
		}
		if (ev->rows != NULL && k < ev->nplayers) {
			page_raw(pg, "<td>");
			event_points(pg, ev->rows[k].points2);
			page_raw(pg, "</td><td>%u</td></tr>\n",
			    ev->rows[k].place);
		} else
			page_raw(pg, "<td></td><td></td></tr>\n");
	}
	page_raw(pg, "</tbody></table></div>\n");
}

/* Add the games by round: board, players, result. */
static void
event_games(struct page *pg, const struct service_event *ev)
{
	const struct store_event_game	*g;
	size_t				 i;

	page_raw(pg, "<table class=\"cc-games\" id=\"cc-event-games\">"
	    "<caption>%s</caption>\n<thead><tr><th scope=\"col\">%s</th>"
	    "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
	    "<th scope=\"col\">%s</th><th scope=\"col\">%s</th></tr></thead>"
	    "\n<tbody>\n", page_tr(pg, "Games", "Parties"),
	    page_tr(pg, "Round", "Ronde"), page_tr(pg, "Game", "Partie"),
	    page_tr(pg, "White", "Blancs"), page_tr(pg, "Black", "Noirs"),
	    page_tr(pg, "Result", "Résultat"));
	for (i = 0; i < ev->ngames; i++) {
		g = &ev->games[i];
		page_raw(pg, "<tr><td>%d.%d</td><td><a href=\"/games/%" PRId64
		    "\">%" PRId64 "</a></td><td>", g->round, g->board,
		    g->game_id, g->game_id);
		page_player_link(pg, g->white_name);
		page_raw(pg, "</td><td>");
		page_player_link(pg, g->black_name);
		page_raw(pg, "</td><td>");
		if (strcmp(g->adjusted, "annulled") == 0)
			page_text(pg, page_tr(pg, "annulled", "annulée"));
		else if (g->adjusted[0] != '\0')
			page_text(pg, page_tr(pg, "forfeit (withdrawal)",
			    "forfait (retrait)"));
		else if (strcmp(g->status, "ongoing") == 0)
			page_text(pg, page_tr(pg, "in play", "en cours"));
		else
			page_text(pg, g->result);
		page_raw(pg, "</td></tr>\n");
	}
	page_raw(pg, "</tbody></table>\n");
}

/* Add an event's time control in words, in the page's language ("no
 * clock" / "sans pendule"); the stored text if it does not parse. */
static void
event_tc(struct page *pg, const char *text)
{
	struct game_tc	tc;
	char		t[GAME_TC_TEXT_MAX], why[128];

	if (game_tc_parse(&tc, text, why, sizeof why) != 0) {
		page_text(pg, text);
		return;
	}
	game_tc_text(&tc, pg->lang, t, sizeof t);
	page_text(pg, t);
}

/* GET /events/{name}: an event. */
void
web_event(struct http_request *req, struct http_response *resp, void *user)
{
	struct service_event	 ev;
	struct service_error	 err;
	struct page		 pg;
	enum chess_lang		 lang = page_request_lang(req);
	const char		*title;
	size_t			 i;

	if (service_event_get(user, http_request_param(req, "name"), &ev,
	    &err) != 0) {
		page_service_error(resp, lang, &err);
		return;
	}
	title = ev.e.title[0] != '\0' ? ev.e.title : ev.e.name;
	page_begin(&pg, lang, title);
	page_raw(&pg, "<article class=\"cc-event-page\" id=\"cc-event\" "
	    "data-event=\"");
	page_text(&pg, ev.e.name);
	page_raw(&pg, "\">\n<h1>");
	page_text(&pg, title);
	page_raw(&pg, "</h1>\n<p class=\"cc-event-facts\">");
	page_text(&pg, event_word(&pg, ev.e.format));
	if (strcmp(ev.e.format, "match") == 0 && lang == CHESS_LANG_FR)
		page_textf(&pg, " en %d parties", ev.e.games);
	else if (strcmp(ev.e.format, "match") == 0)
		page_textf(&pg, " of %d games", ev.e.games);
	page_raw(&pg, " · ");
	page_text(&pg, event_word(&pg, ev.e.status));
	page_raw(&pg, " · ");
	event_tc(&pg, ev.e.time_control);
	page_raw(&pg, " · %s", ev.e.rated ? page_tr(&pg, "rated", "classé") :
	    page_tr(&pg, "not rated", "non classé"));
	if (ev.e.site[0] != '\0') {
		page_raw(&pg, " · ");
		page_text(&pg, ev.e.site);
	}
	page_raw(&pg, "</p>\n");
	if (ev.ngames == 0) {
		page_raw(&pg, "<p>%s</p>\n<ul class=\"cc-players\">\n",
		    page_tr(&pg, "The event has not started; its players:",
		    "Le tournoi n'a pas commencé ; ses joueurs :"));
		for (i = 0; i < ev.nplayers; i++) {
			page_raw(&pg, "<li>");
			page_player_link(&pg, ev.players[i].name);
			page_raw(&pg, "</li>\n");
		}
		page_raw(&pg, "</ul>\n");
	} else {
		event_crosstable(&pg, &ev);
		event_standings(&pg, &ev);
		event_games(&pg, &ev);
	}
	page_raw(&pg, "<p><a href=\"/api/v1/events/");
	page_text(&pg, ev.e.name);
	page_raw(&pg, "/pgn\" download>%s</a> · <a href=\"/api/v1/events/",
	    page_tr(&pg, "Every game as PGN", "Toutes les parties en PGN"));
	page_text(&pg, ev.e.name);
	page_raw(&pg, "\">JSON</a></p>\n</article>\n");
	service_event_free(&ev);
	page_respond(&pg, resp, 200);
}
