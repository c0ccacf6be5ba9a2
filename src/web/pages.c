/*
 * web/pages.c: the web pages corrchessd serves, and their route table.
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
#include <stdlib.h>
#include <string.h>

#include "game/render.h"
#include "service/service.h"
#include "web/assets.h"
#include "web/board_svg.h"
#include "web/board_words.h"
#include "web/events.h"
#include "web/lang.h"
#include "web/page.h"
#include "web/pages.h"

/* --- Lists of games ---------------------------------------------------- */

/* Add one row of a table of games. */
static int
game_row(void *arg, const struct store_game *g)
{
	struct page	*pg = arg;
	bool		 ongoing = strcmp(g->status, "ongoing") == 0;

	page_raw(pg, "<tr data-game=\"%" PRId64 "\" data-white=\"", g->id);
	page_text(pg, g->white_name);
	page_raw(pg, "\" data-black=\"");
	page_text(pg, g->black_name);
	page_raw(pg, "\" data-turn=\"%s\"><td><a href=\"/games/%" PRId64
	    "\">%" PRId64 "</a></td><td>", ongoing ? (g->turn == CHESS_WHITE ?
	    "white" : "black") : "", g->id, g->id);
	page_player_link(pg, g->white_name);
	page_raw(pg, "</td><td>");
	page_player_link(pg, g->black_name);
	page_raw(pg, "</td><td class=\"cc-state\">");
	if (ongoing) {
		page_textf(pg, "%s %d", page_tr(pg, "ply", "demi-coup"),
		    g->ply);
		if (g->deadline != 0) {
			page_raw(pg, " · ");
			page_time(pg, g->deadline, NULL);
		}
	} else
		page_text(pg, g->result);
	page_raw(pg, "</td></tr>\n");
	return 0;
}

/* Add a table of games (its caption escaped); 0 or -1 with `err`. */
static int
games_table(struct page *pg, struct service *svc, const char *caption,
    const char *player, const char *status, const char *id,
    struct service_error *err)
{
	struct store_game_filter	f;

	memset(&f, 0, sizeof f);
	f.player = player;
	f.status = status;
	f.limit = 200;
	page_raw(pg, "<table class=\"cc-games\" id=\"%s\"><caption>", id);
	page_text(pg, caption);
	page_raw(pg, "</caption>\n<thead><tr><th scope=\"col\">%s</th>"
	    "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
	    "<th scope=\"col\" class=\"cc-state\">%s</th></tr></thead>\n"
	    "<tbody>\n",
	    page_tr(pg, "Game", "Partie"), page_tr(pg, "White", "Blancs"),
	    page_tr(pg, "Black", "Noirs"), page_tr(pg, "State", "État"));
	if (service_game_list(svc, &f, game_row, pg, err) != 0)
		return -1;
	page_raw(pg, "</tbody></table>\n");
	return 0;
}

/* Add one player to a list. */
static int
player_item(void *arg, const struct store_player *p)
{
	struct page	*pg = arg;

	page_raw(pg, "<li>");
	page_player_link(pg, p->name);
	page_raw(pg, "</li>\n");
	return 0;
}

/* GET /: the club. */
static void
web_club(struct http_request *req, struct http_response *resp, void *user)
{
	struct service_error	err;
	struct page		pg;
	enum chess_lang		lang = page_request_lang(req);

	page_begin(&pg, lang, lang == CHESS_LANG_FR ? "Le club" : "The club");
	page_raw(&pg, "<h1>%s</h1>\n", page_tr(&pg, "The club", "Le club"));
	/* Filled by the module from the keys this browser holds. */
	page_raw(&pg, "<section id=\"cc-your-move\" hidden "
	    "aria-live=\"polite\"><h2>%s</h2><ul></ul></section>\n",
	    page_tr(&pg, "Your move", "À vous de jouer"));
	if (games_table(&pg, user, page_tr(&pg, "Ongoing games",
	    "Parties en cours"), NULL, "ongoing", "cc-ongoing", &err) != 0 ||
	    games_table(&pg, user, page_tr(&pg, "Finished games",
	    "Parties terminées"), NULL, "finished", "cc-finished",
	    &err) != 0)
		goto fail;
	page_raw(&pg, "<h2>%s</h2>\n<ul class=\"cc-players\">\n",
	    page_tr(&pg, "Players", "Joueurs"));
	if (service_player_list(user, player_item, &pg, &err) != 0)
		goto fail;
	page_raw(&pg, "</ul>\n");
	if (web_events_list(&pg, user, NULL, &err) != 0)
		goto fail;
	page_respond(&pg, resp, 200);
	return;
 fail:
	buf_free(&pg.b);
	page_service_error(resp, lang, &err);
}

/* --- A game ------------------------------------------------------------ */

/* Add a side's clock. */
static void
game_clock(struct page *pg, const struct service_game *g, int c)
{
	int64_t	left = game_time_left(&g->state, c, g->now);
	bool	running = game_ongoing(&g->state) &&
		    game_turn(&g->state) == c;
	char	t[64];

	render_duration_lang(left, pg->lang, t, sizeof t);
	page_raw(pg, "<div class=\"cc-clock%s\"><span>%s</span> "
	    "<span class=\"cc-left\" data-left=\"%" PRId64 "\"%s>%s</span>"
	    "</div>\n", running ? " cc-running" : "", c == CHESS_WHITE ?
	    page_tr(pg, "White", "Blancs") : page_tr(pg, "Black", "Noirs"),
	    left, running ? " data-running=\"1\"" : "", t);
}

/* Add the clocks, deadline and time control. */
static void
game_clocks(struct page *pg, const struct service_game *g)
{
	const struct game_tc	*tc = &g->state.params.tc;
	char			 t[GAME_TC_TEXT_MAX];
	int			 turn = game_turn(&g->state);
	size_t			 n;

	game_tc_text(tc, pg->lang, t, sizeof t);
	page_raw(pg, "<section class=\"cc-clocks\" aria-label=\"%s\">"
	    "<p>", page_tr(pg, "Clocks", "Pendules"));
	page_text(pg, t);
	page_raw(pg, "</p>\n");
	if (tc->kind == GAME_TC_NONE) {
		page_raw(pg, "</section>\n");
		return;
	}
	game_clock(pg, g, CHESS_WHITE);
	game_clock(pg, g, CHESS_BLACK);
	if (game_ongoing(&g->state)) {
		page_raw(pg, "<p>%s ", page_tr(pg, "Deadline:",
		    "Échéance :"));
		page_time(pg, game_deadline(&g->state), "cc-deadline");
		page_raw(pg, "</p>\n");
		if ((n = (size_t)game_moves_to_control(&g->state,
		    turn)) > 0) {
			page_raw(pg, "<p class=\"cc-control\">");
			if (pg->lang == CHESS_LANG_FR)
				page_textf(pg, "%zu coups jusqu'au contrôle",
				    n);
			else
				page_textf(pg, "%zu moves to the time control",
				    n);
			page_raw(pg, "</p>\n");
		}
	}
	page_raw(pg, "</section>\n");
}

/* Add the moves in the reader's language. */
static void
game_moves(struct page *pg, const struct service_game *g)
{
	struct chess_position	pos = g->state.chess.start;
	char			san[CHESS_SAN_MAX];
	size_t			i, n;
	bool			open = false;

	page_raw(pg, "<section class=\"cc-movelist\"><h2>%s</h2>\n"
	    "<ol class=\"cc-moves\">", page_tr(pg, "Moves", "Coups"));
	for (i = 0; i < g->state.chess.nply; i++) {
		n = i + (g->state.chess.start.side == CHESS_BLACK);
		if (n % 2 == 0 || i == 0) {
			if (open)
				page_raw(pg, "</li>");
			page_raw(pg, "<li value=\"%zu\">%s",
			    (size_t)g->state.chess.start.fullmove + n / 2,
			    n % 2 == 1 ? "… " : "");
			open = true;
		} else
			page_raw(pg, " ");
		chess_move_san(&pos, g->state.chess.moves[i], pg->lang, san,
		    sizeof san);
		page_raw(pg, "<span class=\"cc-san\">");
		page_text(pg, san);
		page_raw(pg, "</span>");
		chess_position_make(&pos, g->state.chess.moves[i]);
	}
	if (open)
		page_raw(pg, "</li>");
	page_raw(pg, "</ol>\n");
	if (g->state.chess.nply == 0)
		page_raw(pg, "<p>%s</p>\n", page_tr(pg, "No move yet.",
		    "Aucun coup encore."));
	page_raw(pg, "</section>\n");
}

/* The words of a message's action that played no move. */
static const char *
message_kind(const struct page *pg, const char *kind)
{
	if (strcmp(kind, "resign") == 0)
		return page_tr(pg, "resigning", "en abandonnant");
	if (strcmp(kind, "accept-draw") == 0)
		return page_tr(pg, "accepting the draw", "en acceptant la nulle");
	if (strcmp(kind, "decline-draw") == 0)
		return page_tr(pg, "declining the draw", "en refusant la nulle");
	if (strcmp(kind, "claim-draw") == 0)
		return page_tr(pg, "claiming a draw", "en réclamant la nulle");
	return kind;
}

/* Add the players' messages, each with the move it came with (in the
 * reader's language); the text escaped. */
static void
game_messages(struct page *pg, const struct service_game *g)
{
	const struct service_message	*m;
	char				 move[CHESS_SAN_MAX + 24];
	size_t				 i;

	if (g->nmsgs == 0)
		return;
	page_raw(pg, "<section class=\"cc-notes\"><h2>%s</h2>\n<ul>",
	    page_tr(pg, "Messages", "Messages"));
	for (i = 0; i < g->nmsgs; i++) {
		m = &g->msgs[i];
		service_message_move(g, m, pg->lang, move, sizeof move);
		page_raw(pg, "<li><span class=\"cc-note-from\">");
		page_text(pg, m->color == CHESS_WHITE ? g->row.white_name :
		    g->row.black_name);
		page_raw(pg, "</span> (");
		page_text(pg, move[0] != '\0' ? move :
		    message_kind(pg, m->kind));
		page_raw(pg, ") <q class=\"cc-note\">");
		page_text(pg, m->text);
		page_raw(pg, "</q></li>");
	}
	page_raw(pg, "</ul>\n</section>\n");
}

/* Add the status: who is to move, a draw offer, or the result. */
static void
game_status(struct page *pg, const struct service_game *g)
{
	int	turn = game_turn(&g->state);

	page_raw(pg, "<p class=\"cc-status\" id=\"cc-status\">");
	if (game_ongoing(&g->state)) {
		const char *who = turn == CHESS_WHITE ? g->row.white_name :
		    g->row.black_name;

		if (pg->lang == CHESS_LANG_FR)
			page_textf(pg, "Trait aux %s (%s), demi-coup %zu.",
			    turn == CHESS_WHITE ? "Blancs" : "Noirs", who,
			    game_ply(&g->state));
		else
			page_textf(pg, "%s to move (%s), ply %zu.",
			    turn == CHESS_WHITE ? "White" : "Black", who,
			    game_ply(&g->state));
		if (g->state.draw_offer >= 0) {
			page_raw(pg, " <strong class=\"cc-offer\">");
			page_text(pg, g->state.draw_offer == CHESS_WHITE ?
			    g->row.white_name : g->row.black_name);
			page_text(pg, page_tr(pg, " offers a draw.",
			    " propose la nulle."));
			page_raw(pg, "</strong>");
		}
	} else {
		page_raw(pg, "<strong>");
		page_text(pg, game_result_name(g->state.result));
		page_raw(pg, "</strong> — ");
		page_text(pg, game_termination_text(g->state.termination,
		    pg->lang));
	}
	page_raw(pg, "</p>\n");
}

/* Add the conditional moves' controls, which the module shows to the
 * player waiting for the opponent's move. */
static void
game_conditional(struct page *pg)
{
	page_raw(pg, "<section id=\"cc-cond\" class=\"cc-cond\" hidden "
	    "aria-labelledby=\"cc-cond-title\"><h2 id=\"cc-cond-title\">%s"
	    "</h2>\n<p>%s</p>\n", page_tr(pg, "Conditional moves",
	    "Coups conditionnels"), page_tr(pg, "While your opponent is to "
	    "move: their move, your answer, and so on; lines separated by "
	    "\"; \" (e5 Nf3 Nc6 Bb5; c5 Nf3). Your answer is played as soon "
	    "as their move matches a line. Nobody else sees them.",
	    "Pendant que votre adversaire a le trait : son coup, votre "
	    "réponse, et ainsi de suite ; les lignes séparées par « ; » "
	    "(e5 Cf3 Cc6 Fb5; c5 Cf3). Votre réponse est jouée dès que son "
	    "coup suit une ligne. Personne d'autre ne les voit."));
	page_raw(pg, "<form id=\"cc-cond-form\"><label for=\"cc-cond-lines\">"
	    "%s</label> <input id=\"cc-cond-lines\" name=\"lines\" "
	    "autocomplete=\"off\" spellcheck=\"false\" size=\"30\"> "
	    "<button type=\"submit\">%s</button></form>\n<p>"
	    "<button type=\"button\" id=\"cc-cond-show\">%s</button> "
	    "<button type=\"button\" id=\"cc-cond-cancel\">%s</button></p>\n"
	    "<p id=\"cc-cond-view\" role=\"status\" aria-live=\"polite\">"
	    "</p>\n</section>\n", page_tr(pg, "Lines:", "Lignes :"),
	    page_tr(pg, "Sign these lines", "Signer ces lignes"),
	    page_tr(pg, "Show mine", "Voir les miens"),
	    page_tr(pg, "Cancel mine", "Annuler les miens"));
}

/* Add the controls the module enables for a player whose key the browser
 * holds; hidden without script. */
static void
game_play(struct page *pg, const struct service_game *g)
{
	if (!game_ongoing(&g->state))
		return;
	page_raw(pg, "<section id=\"cc-play\" hidden aria-label=\"%s\">\n"
	    "<p id=\"cc-message\" role=\"status\" aria-live=\"polite\"></p>\n"
	    "<form id=\"cc-move-form\"><span id=\"cc-move-line\"><label "
	    "for=\"cc-move\">%s</label> <input id=\"cc-move\" name=\"move\" "
	    "autocomplete=\"off\" spellcheck=\"false\" size=\"10\"> <button "
	    "type=\"submit\">%s</button><br></span><label for=\"cc-note\">%s"
	    "</label> <input "
	    "id=\"cc-note\" name=\"message\" maxlength=\"500\" size=\"30\" "
	    "autocomplete=\"off\" title=\"%s\"></form>\n<div "
	    "id=\"cc-promotion\" hidden role=\"group\" aria-label=\"%s\">"
	    "</div>\n<p class=\"cc-actions\">",
	    page_tr(pg, "Play", "Jouer"),
	    page_tr(pg, "Your move (any notation):",
	    "Votre coup (toute notation) :"), page_tr(pg, "Play", "Jouer"),
	    page_tr(pg, "Message to your opponent (optional):",
	    "Message à votre adversaire (facultatif) :"),
	    page_tr(pg, "Signed with your action: a move, a draw offer or "
	    "answer, a claim, resigning", "Signé avec votre action : un coup, "
	    "une proposition de nulle ou sa réponse, une réclamation, "
	    "l'abandon"),
	    page_tr(pg, "Promote to", "Promouvoir en"));
	page_raw(pg, "<button type=\"button\" data-action=\"offer-draw\">%s"
	    "</button> ", page_tr(pg, "Move and offer a draw",
	    "Jouer et proposer la nulle"));
	/* Only while a draw is offered; the module hides them from the
	 * player who offered it. */
	if (g->state.draw_offer >= 0)
		page_raw(pg, "<span class=\"cc-offer-answer\" "
		    "data-offer-by=\"%s\"><button type=\"button\" "
		    "data-action=\"accept-draw\">%s</button> <button "
		    "type=\"button\" data-action=\"decline-draw\">%s</button>"
		    "</span> ", g->state.draw_offer == CHESS_WHITE ? "white" :
		    "black", page_tr(pg, "Accept the draw", "Accepter la nulle"),
		    page_tr(pg, "Decline the draw", "Refuser la nulle"));
	page_raw(pg, "<button type=\"button\" data-action=\"claim-draw\">%s"
	    "</button> <button type=\"button\" data-action=\"resign\">%s"
	    "</button></p>\n", page_tr(pg, "Claim a draw",
	    "Réclamer la nulle"), page_tr(pg, "Resign", "Abandonner"));
	game_conditional(pg);
	page_raw(pg, "<form id=\"cc-leave-form\" class=\"cc-leave\">"
	    "<label>%s <input type=\"date\" name=\"from\" required></label> "
	    "<label>%s <input type=\"date\" name=\"to\" required></label> "
	    "<button type=\"submit\">%s</button></form>\n</section>\n",
	    page_tr(pg, "Leave from", "Congé du"), page_tr(pg, "to", "au"),
	    page_tr(pg, "Take leave", "Prendre congé"));
}

/* GET /games/{id}: a game. */
static void
web_game(struct http_request *req, struct http_response *resp, void *user)
{
	struct board_svg_opts	 o;
	struct service_game	 g;
	struct service_error	 err;
	struct page		 pg;
	enum chess_lang		 lang = page_request_lang(req);
	const char		*flip = http_request_query(req, "flip");
	char			*svg, words[BOARD_WORDS_MAX], title[160];
	const char		*kept, *tag;
	char			 etag[HTTP_ETAG_SIZE];
	size_t			 len;
	struct service_render_ticket t;
	enum service_render	 kind;
	int64_t			 id = http_request_param_int(req, "id");
	int			 rc;

	/*
	 * The page is a function of the game's row, the second, the
	 * language and the board's side: kept as bytes, it is served again
	 * while those hold (service/render.c), without replaying the game
	 * and without copying the bytes.
	 */
	memset(&o, 0, sizeof o);
	o.flip = flip != NULL && strcmp(flip, "1") == 0;
	kind = lang == CHESS_LANG_FR ? (o.flip ? SERVICE_RENDER_PAGE_FR_FLIP :
	    SERVICE_RENDER_PAGE_FR) : (o.flip ? SERVICE_RENDER_PAGE_EN_FLIP :
	    SERVICE_RENDER_PAGE_EN);
	if ((rc = service_render_share(user, id, kind, &kept, &len, &tag, &t,
	    &err)) < 0) {
		page_service_error(resp, lang, &err);
		return;
	}
	if (rc == 1) {
		/* Sent as kept, with the tag made of it (HTTP_ROUTE_ETAG):
		 * libmicrohttpd gives the reference back. */
		page_respond_shared(resp, 200, kept, len,
		    service_bytes_release);
		http_response_set_etag(resp, tag);
		return;
	}
	if (service_game_get(user, id, &g, &err) != 0) {
		page_service_error(resp, lang, &err);
		return;
	}
	if ((svg = malloc(BOARD_SVG_MAX)) == NULL) {
		service_game_free(&g);
		http_respond_error(resp, 500, "internal", "out of memory");
		return;
	}
	o.coords = o.check = o.interactive = true;
	o.size = 480;
	o.lang = lang;
	board_svg_last_move(&o, g.state.chess.nply > 0 ?
	    g.state.chess.moves[g.state.chess.nply - 1] : CHESS_MOVE_NONE);
	len = board_svg(&g.state.chess.pos, &o, svg, BOARD_SVG_MAX);
	board_words(&g.state.chess.pos, lang, words, sizeof words);

	/* French puts a space before the colon, English none. */
	snprintf(title, sizeof title, "%s %" PRId64 "%s %s – %s",
	    lang == CHESS_LANG_FR ? "Partie" : "Game", g.row.id,
	    lang == CHESS_LANG_FR ? " :" : ":", g.row.white_name,
	    g.row.black_name);
	page_begin(&pg, lang, title);
	page_raw(&pg, "<article class=\"cc-game\" id=\"cc-game\" "
	    "data-game=\"%" PRId64 "\" data-ply=\"%zu\" data-white=\"",
	    g.row.id, game_ply(&g.state));
	page_text(&pg, g.row.white_name);
	page_raw(&pg, "\" data-black=\"");
	page_text(&pg, g.row.black_name);
	page_raw(&pg, "\" data-turn=\"%s\" data-status=\"%s\" "
	    "data-lang=\"%s\">\n<h1>%s %" PRId64 "%s ",
	    game_turn(&g.state) == CHESS_WHITE ? "white" : "black",
	    game_ongoing(&g.state) ? "ongoing" : "finished",
	    web_lang_name(lang), page_tr(&pg, "Game", "Partie"), g.row.id,
	    page_tr(&pg, ":", " :"));
	page_player_link(&pg, g.row.white_name);
	page_raw(&pg, " – ");
	page_player_link(&pg, g.row.black_name);
	page_raw(&pg, "</h1>\n");
	if (g.row.event[0] != '\0') {
		page_raw(&pg, "<p class=\"cc-event\">");
		page_text(&pg, g.row.event);
		page_raw(&pg, "</p>\n");
	}
	page_raw(&pg, "<div class=\"cc-layout\">\n<div class=\"cc-boardbox\">"
	    "\n");
	buf_add(&pg.b, svg, len < BOARD_SVG_MAX ? len : BOARD_SVG_MAX - 1);
	page_raw(&pg, "\n<p class=\"cc-words\" id=\"cc-words\">");
	page_text(&pg, words);
	page_raw(&pg, "</p>\n<p><a href=\"?flip=%d&amp;lang=%s\">%s</a></p>\n"
	    "</div>\n<div class=\"cc-side\">\n", o.flip ? 0 : 1,
	    web_lang_name(lang), page_tr(&pg, "Turn the board",
	    "Retourner l'échiquier"));
	game_status(&pg, &g);
	game_clocks(&pg, &g);
	game_play(&pg, &g);
	game_moves(&pg, &g);
	game_messages(&pg, &g);
	page_raw(&pg, "<section class=\"cc-record\" id=\"cc-record\"><h2>%s"
	    "</h2>\n<p><a href=\"/api/v1/games/%" PRId64 "/pgn\" "
	    "download=\"game-%" PRId64 ".pgn\">%s</a> · <a href=\"/api/v1/"
	    "games/%" PRId64 "/records\">%s</a> · <a href=\"/api/v1/games/%"
	    PRId64 "/board.svg\">SVG</a></p>\n<p><button type=\"button\" "
	    "id=\"cc-verify\" hidden>%s</button></p>\n<p id=\"cc-verdict\" "
	    "role=\"status\" aria-live=\"polite\"></p>\n</section>\n",
	    page_tr(&pg, "The signed record", "Le relevé signé"), g.row.id,
	    g.row.id, page_tr(&pg, "PGN download", "Télécharger le PGN"),
	    g.row.id, page_tr(&pg, "every signed statement",
	    "toutes les déclarations signées"), g.row.id,
	    page_tr(&pg, "Verify every signature and hash",
	    "Vérifier chaque signature et chaque empreinte"));
	page_raw(&pg, "</div>\n</div>\n</article>\n");
	page_close(&pg);
	if (!pg.b.failed) {
		http_etag_make(pg.b.data, pg.b.len, etag);
		service_render_put(user, &g, kind, pg.b.data, pg.b.len, etag,
		    &t);
	}
	service_game_free(&g);
	free(svg);
	page_respond(&pg, resp, 200);
}

/* --- A player ---------------------------------------------------------- */

/* GET /players/{name}: a player's games and leave. */
static void
web_player(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct service_player		sp;
	struct service_leave_year	ly;
	struct service_error		err;
	struct page			pg;
	enum chess_lang			lang = page_request_lang(req);

	if (service_player_get(user, http_request_param(req, "name"), &sp,
	    &err) != 0) {
		page_service_error(resp, lang, &err);
		return;
	}
	if (service_player_leave(user, sp.p.id, &ly, &err) != 0) {
		service_player_free(&sp);
		page_service_error(resp, lang, &err);
		return;
	}
	page_begin(&pg, lang, sp.p.name);
	page_raw(&pg, "<h1>");
	page_text(&pg, sp.p.name);
	page_raw(&pg, "</h1>\n<p class=\"cc-leave-year\">");
	if (lang == CHESS_LANG_FR)
		page_textf(&pg, "Congés en %d : %" PRId64 " jours pris, %"
		    PRId64 " restants (sur %" PRId64 ").", ly.year,
		    ly.taken_days, ly.left_days, ly.allowance_days);
	else
		page_textf(&pg, "Leave in %d: %" PRId64 " days taken, %"
		    PRId64 " left (of %" PRId64 ").", ly.year, ly.taken_days,
		    ly.left_days, ly.allowance_days);
	page_raw(&pg, "</p>\n");
	if (games_table(&pg, user, page_tr(&pg, "Ongoing games",
	    "Parties en cours"), sp.p.name, "ongoing", "cc-ongoing",
	    &err) != 0 || games_table(&pg, user, page_tr(&pg,
	    "Finished games", "Parties terminées"), sp.p.name, "finished",
	    "cc-finished", &err) != 0 ||
	    web_events_list(&pg, user, sp.p.name, &err) != 0) {
		buf_free(&pg.b);
		service_player_free(&sp);
		page_service_error(resp, lang, &err);
		return;
	}
	service_player_free(&sp);
	page_respond(&pg, resp, 200);
}

/* --- Enrolment ---------------------------------------------------------- */

/*
 * GET /invite: where an invitation link leads (/invite#TOKEN: the token
 * stays in the fragment, which browsers never send, so it is in no log).
 * The module makes the key and registers it; the page says what will
 * happen, and why nothing can when the page is not in a secure context.
 */
static void
web_invite(struct http_request *req, struct http_response *resp,
    void *user)
{
	struct page	pg;
	enum chess_lang	lang = page_request_lang(req);

	(void)user;
	page_begin(&pg, lang, lang == CHESS_LANG_FR ? "Invitation" :
	    "Invitation");
	page_raw(&pg, "<section class=\"cc-invite\" id=\"cc-invite\">"
	    "<h1>%s</h1>\n<p>%s</p>\n<p>%s</p>\n",
	    page_tr(&pg, "Join the club", "Rejoindre le club"),
	    page_tr(&pg, "This browser will make a key of its own, keep it "
	    "(it cannot be copied out, not even by this site) and register "
	    "its public half with your invitation. Every move you make here "
	    "is then a statement signed with it.", "Ce navigateur va créer "
	    "une clé à lui, la garder (elle ne peut pas en être extraite, "
	    "pas même par ce site) et en enregistrer la moitié publique avec "
	    "votre invitation. Chaque coup joué ici sera une déclaration "
	    "signée par elle."),
	    page_tr(&pg, "The link works once. For another device, ask the "
	    "club for another invitation.", "Le lien ne sert qu'une fois. "
	    "Pour un autre appareil, demandez une autre invitation au club."));
	page_raw(&pg, "<p><button type=\"button\" id=\"cc-enrol\" hidden>%s"
	    "</button></p>\n<p id=\"cc-enrol-message\" role=\"status\" "
	    "aria-live=\"polite\">%s</p>\n</section>\n",
	    page_tr(&pg, "Make my key and join", "Créer ma clé et rejoindre"),
	    page_tr(&pg, "This page needs JavaScript to make the key.",
	    "Cette page a besoin de JavaScript pour créer la clé."));
	page_respond(&pg, resp, 200);
}

/* GET /static/{name} */
static void
web_static(struct http_request *req, struct http_response *resp, void *user)
{
	(void)user;
	assets_respond(req, resp, http_request_param(req, "name"));
}

const struct http_route routes_web[] = {
	{ "GET", "/", HTTP_AUTH_NONE, web_club, 0 },
	{ "GET", "/games/{id:int}", HTTP_AUTH_NONE, web_game,
	    HTTP_ROUTE_ETAG },
	{ "GET", "/players/{name}", HTTP_AUTH_NONE, web_player, 0 },
	{ "GET", "/events/{name}", HTTP_AUTH_NONE, web_event, 0 },
	{ "GET", "/invite", HTTP_AUTH_NONE, web_invite, 0 },
	{ "GET", "/static/{name}", HTTP_AUTH_NONE, web_static, 0 },
};
const size_t routes_web_count = sizeof routes_web / sizeof routes_web[0];
