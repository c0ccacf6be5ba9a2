/*
 * letters/notice_texts.c: the notices' fixed texts in English and French,
 * and how a text is filled and wrapped.
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
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "letters/notice_texts.h"
#include "game/game.h"

const struct texts notice_texts_en = {
	.code = "en",
	.color = { "White", "Black" },
	.subject_game = "[corrchess] Game %s, %s v %s: ",
	.subject_kind = {
		[NOTICE_NEW_GAME] = "new game, you play %s",
		[NOTICE_MOVED] = "%s",
		[NOTICE_DRAW_OFFERED] = "%s, draw offered",
		[NOTICE_DRAW_ACCEPTED] = "draw agreed, 1/2-1/2",
		[NOTICE_DRAW_DECLINED] = "draw declined",
		[NOTICE_CLAIM] = "draw claimed, 1/2-1/2",
		[NOTICE_GAME_OVER] = "%s, %s",
		[NOTICE_REMINDER] = "your move, %s left",
		[NOTICE_REFUSED] = "not accepted",
		[NOTICE_HOWTO] = "how to send a move",
		[NOTICE_LEAVE] = "%s is on leave",
		[NOTICE_DIGEST] = "daily digest, your move in %s games",
		[NOTICE_CONDITIONAL] = "your conditional moves",
		[NOTICE_ACCOUNT] = "your account",
		[NOTICE_EMAIL_CODE] = "confirm your new address",
	},
	.hello = "Hello %s,",
	.intro_new = "A new correspondence game has started. You play %s.",
	.intro_moved = "%s played %s.",
	.intro_offered = "%s played %s and offers a draw.",
	.offer_howto = "To accept the draw, sign the action \"accept-draw\"; "
	    "to decline it, \"decline-draw\", or simply play your move.",
	.intro_accepted = "%s accepted the draw offer. The game is drawn: "
	    "1/2-1/2.",
	.intro_declined = "%s declined the draw offer. The game goes on.",
	.intro_claim = "%s claimed a draw (%s), and the claim holds. The game "
	    "is drawn: 1/2-1/2.",
	.intro_over = "The game is over: %s, %s (%s).",
	.admin_reason = "The club's admin gave this reason: %s",
	.message = "%s writes: \"%s\"",
	.message_howto = "A short message to your opponent may follow on a "
	    "sixth line, \"message: YOUR TEXT\" (one line, 500 bytes at "
	    "most); it is signed with the action.",
	.reply_message = "What you write below the move, above the quoted "
	    "mail, goes to your opponent as a message (500 bytes at most).",
	.intro_reminder = "It is your move, and your time runs out at %s "
	    "(in %s).",
	.intro_refused = "Your move was not accepted: %s",
	.intro_refused_code = NULL,	/* the service's sentence says it */
	.refused_unknown = "no reason given",
	.intro_howto = "Your mail holds no signed statement, so nothing was "
	    "done.",
	.intro_leave = "%s is on leave from %s to %s; their clock stops "
	    "meanwhile.",
	.intro_account = "The server accepted your signed statement \"%s\".",
	.account_after = "Your settings now:",
	.account_warn = "If you did not sign it, your key is in other hands: "
	    "tell the club's admin at once.",
	.intro_email_code = "Player %s asked that their corrchess mail come "
	    "to this address. The code that confirms it is %s; it expires "
	    "at %s. If you did not ask for this, ignore this mail: nothing "
	    "changes without the code.",
	.email_code_sign = "To confirm, sign this statement with your key "
	    "(corrchess settings confirm-email CODE does it for you) and send "
	    "it as any other: by the REST API, or in a reply to this mail:",
	.intro_cond = {
		[NOTICE_COND_RECORDED] = "Your conditional moves are "
		    "recorded; your opponent cannot see them until one is "
		    "played. Your lines: %s",
		[NOTICE_COND_CANCELLED] = "Your conditional moves are "
		    "cancelled, as you asked. They were: %s",
		[NOTICE_COND_SHOWN] = "Your conditional moves, as they "
		    "stand: %s",
		[NOTICE_COND_PLAYED] = "%s played %s, and your conditional "
		    "move %s was played in answer.",
	},
	.cond_left = "Lines left: %s",
	.cond_none_left = "Nothing is left of your conditional moves.",
	.subject_digest_one = "daily digest, your move in 1 game",
	.intro_digest = "It is your move in the games below. This daily "
	    "digest comes beside the mail of each move, which you still get; "
	    "it is sent only on days when a game waits for you.",
	.digest_deadline = "Deadline: %s (in %s)",
	.digest_deadline_past = "Deadline: %s (passed)",
	.digest_left = "Time left: %s",
	.digest_play = "To play: game %s, ply %s (reply to the game's last "
	    "mail).",
	.game_line = "Game %s: %s (%s) v %s (%s)",
	.tc_line = "Time control: %s",
	.start_line = "Start position: %s",
	.last_move = "Last move: %s (%s)",
	.no_move = "No move played yet.",
	.to_move = "To move: %s (%s), move %s.",
	.offer_pending = "%s offers a draw.",
	.result_line = "Result: %s, %s (%s).",
	.clocks = "Time left: %s (%s) %s, %s (%s) %s",
	.to_control = " (%d moves to the control)",
	.deadline = "Deadline for %s's move: %s (in %s)",
	.deadline_past = "Deadline for %s's move: %s (passed)",
	.moves = "Moves:",
	.ready = "Your next action: the statement to sign is these five "
	    "lines, with your move after \"move \" (for example "
	    "\"move %s\"):",
	.reply_token = "Or, without a key: reply to this mail with your move "
	    "alone on the first line (for example \"%s\", \"%s offer-draw\", "
	    "or \"resign\", \"accept-draw\", \"claim-draw\"), and keep the "
	    "token line below in your reply (quoting this mail keeps it). "
	    "The server plays it for you, and the game's record says the "
	    "server attested it. The token works once, for this move only, "
	    "from your registered address, until %s:",
	.other_actions = "Instead of \"move MOVE\" the last line may say "
	    "\"move MOVE offer-draw\" (move and offer a draw), \"resign\", "
	    "\"claim-draw\", \"claim-draw MOVE\" or \"leave YYYY-MM-DD "
	    "YYYY-MM-DD\" (days away: the clocks of all your games stop).",
	.offer_actions = "A draw is offered to you: \"accept-draw\" or "
	    "\"decline-draw\" answer it.",
	.sign = "Sign it with your key, with either of:",
	.sign_cli = "prints the statement with its signature",
	.sign_ssh = "the five lines in move.txt; the signature goes to "
	    "move.txt.sig",
	.send = "Then reply to this mail with the statement and its "
	    "signature in the body, not quoted (with ssh-keygen: the lines of "
	    "move.txt, then those of move.txt.sig), or attach both files.",
	.wait = "It is %s's move; you will get a mail when it has been "
	    "played.",
	.over = "The game is over; no more actions are possible.",
	.howto_generic = "To play, reply to a game's mail with a signed "
	    "statement: these five lines, with your game, the number of "
	    "half-moves played so far (ply), your player name and your "
	    "move,\n\n"
	    "corrchess-v1\n"
	    "game: 42\n"
	    "ply: 16\n"
	    "player: alice\n"
	    "action: move Nf3\n\n"
	    "and their signature. Each game's mail holds the statement ready "
	    "to fill in.",
	.pgn_note = "The game is attached in PGN.",
	.footer = "corrchess, correspondence chess server",
	.example_move = "Nf3",
	.placeholders = { "GAME", "PLY", "NAME", "MOVE" },
	.winner = { "White wins", "Black wins", "draw", "no result" },
	.refused_subject_re = "Re: ",
	.subject_event = "[corrchess] Event %s: ",
	.subject_event_what = {
		[NOTICE_EVENT_START] = "it starts, your %s games",
		[NOTICE_EVENT_WITHDRAWAL] = "%s withdrew",
		[NOTICE_EVENT_END] = "final standings",
	},
	.event_intro = {
		[NOTICE_EVENT_START] = "The event %s (%s) has started: %s. "
		    "All its games start now, each with its own mail.",
		[NOTICE_EVENT_WITHDRAWAL] = "%s has withdrawn from the event "
		    "%s (%s).",
		[NOTICE_EVENT_END] = "The event %s (%s) is over: its last "
		    "game has ended.",
	},
	.event_format = {
		"a round robin of %s players",
		"a double round robin of %s players (each pair plays twice, "
		    "once with each colour)",
		"a match of %s games",
	},
	.event_rules = "The rules of every game:",
	.event_variant = {
		"Variant: standard chess.",
		"Variant: Chess960, start position %s in every game.",
		"Variant: Chess960, one start position for each pair of "
		    "players.",
		"Thematic start position: %s",
	},
	.event_draw_min = "No draw offer before move %s.",
	.event_draw_every = "At most one draw offer per player every %s "
	    "moves.",
	.event_draw_none = "Draw offers: no rule beyond the Laws of Chess.",
	.event_policy = {
		"Repetitions and the fifty-move rule end the game by "
		    "themselves.",
		"Repetitions and the fifty-move rule must be claimed "
		    "(\"claim-draw\").",
	},
	.event_leave = "Leave: %s days a calendar year.",
	.event_rated = { "Not rated.", "Rated (Glicko-2)." },
	.event_withdrawal = {
		"If a player withdraws, their remaining games are lost.",
		"If a player withdraws before half of their games are "
		    "played, all their games are annulled; later, their "
		    "remaining games are lost.",
	},
	.event_games = "Your games (%s):",
	.event_game = "Round %s, game %s: you play %s against %s",
	.event_play = "Each game has its own mail, which holds the statement "
	    "to sign: reply to it to play, or use \"corrchess move GAME "
	    "MOVE\". On the club's server, a game's page is /games/GAME and "
	    "the event's is /events/%s. When the last game ends, every "
	    "player gets the final standings.",
	.event_outcome_game = "Round %s, game %s, with %s against %s: %s.",
	.event_outcome = {
		"annulled, it does not count",
		"you win it by default (+)",
		"played, its result stands (%s)",
	},
	.event_result = "Your result: %s points from %s games played, "
	    "place %s.",
	.event_standings = "Final standings:",
};

const struct texts notice_texts_fr = {
	.code = "fr",
	.color = { "Blancs", "Noirs" },
	.subject_game = "[corrchess] Partie %s, %s c. %s : ",
	.subject_kind = {
		[NOTICE_NEW_GAME] = "nouvelle partie, vous avez les %s",
		[NOTICE_MOVED] = "%s",
		[NOTICE_DRAW_OFFERED] = "%s, nulle proposée",
		[NOTICE_DRAW_ACCEPTED] = "nulle acceptée, 1/2-1/2",
		[NOTICE_DRAW_DECLINED] = "nulle refusée",
		[NOTICE_CLAIM] = "nulle réclamée, 1/2-1/2",
		[NOTICE_GAME_OVER] = "%s, %s",
		[NOTICE_REMINDER] = "à vous de jouer, il reste %s",
		[NOTICE_REFUSED] = "refusé",
		[NOTICE_HOWTO] = "comment envoyer un coup",
		[NOTICE_LEAVE] = "%s est en congé",
		[NOTICE_CONDITIONAL] = "vos coups conditionnels",
		[NOTICE_ACCOUNT] = "votre compte",
		[NOTICE_EMAIL_CODE] = "confirmez votre nouvelle adresse",
		[NOTICE_DIGEST] = "résumé du jour, à vous de jouer dans %s "
		    "parties",
	},
	.hello = "Bonjour %s,",
	.intro_new = "Une nouvelle partie par correspondance commence. Vous "
	    "avez les %s.",
	.intro_moved = "%s a joué %s.",
	.intro_offered = "%s a joué %s et propose la nulle.",
	.offer_howto = "Pour accepter la nulle, signez l'action "
	    "« accept-draw » ; pour la refuser, « decline-draw », ou jouez "
	    "simplement votre coup.",
	.intro_accepted = "%s a accepté la proposition de nulle. La partie "
	    "est nulle : 1/2-1/2.",
	.intro_declined = "%s a refusé la proposition de nulle. La partie "
	    "continue.",
	.intro_claim = "%s a réclamé la nulle (%s), et la réclamation est "
	    "fondée. La partie est nulle : 1/2-1/2.",
	.intro_over = "La partie est terminée : %s, %s (%s).",
	.admin_reason = "Motif donné par l'administrateur du club : %s",
	.message = "%s écrit : « %s »",
	.message_howto = "Un court message à votre adversaire peut suivre sur "
	    "une sixième ligne, « message: VOTRE TEXTE » (une seule ligne, "
	    "500 octets au plus) ; il est signé avec l'action.",
	.reply_message = "Ce que vous écrivez sous le coup, au-dessus du "
	    "courriel cité, va à votre adversaire comme message (500 octets "
	    "au plus).",
	.intro_reminder = "C'est à vous de jouer, et votre temps s'écoule le "
	    "%s (dans %s).",
	.intro_refused = "Votre coup n'a pas été accepté : %s",
	.intro_refused_code = "Votre coup n'a pas été accepté (%s) : %s",
	.refused_unknown = "raison non précisée",
	.intro_howto = "Votre courriel ne contient aucune déclaration "
	    "signée : rien n'a été fait.",
	.intro_leave = "%s est en congé du %s au %s ; sa pendule est "
	    "arrêtée pendant ce temps.",
	.intro_account = "Le serveur a accepté votre déclaration signée "
	    "« %s ».",
	.account_after = "Vos réglages sont maintenant :",
	.account_warn = "Si vous ne l'avez pas signée, votre clé est entre "
	    "d'autres mains : prévenez tout de suite l'administrateur du "
	    "club.",
	.intro_email_code = "Le joueur %s a demandé que son courrier "
	    "corrchess arrive à cette adresse. Le code qui le confirme est "
	    "%s ; il expire le %s. Si vous n'avez rien demandé, ignorez ce "
	    "courriel : rien ne change sans le code.",
	.email_code_sign = "Pour confirmer, signez cette déclaration avec "
	    "votre clé (corrchess settings confirm-email CODE le fait pour "
	    "vous) et envoyez-la comme toute autre : par l'API REST, ou en "
	    "réponse à ce courriel :",
	.intro_cond = {
		[NOTICE_COND_RECORDED] = "Vos coups conditionnels sont "
		    "enregistrés ; votre adversaire ne les voit pas tant "
		    "qu'aucun n'est joué. Vos lignes : %s",
		[NOTICE_COND_CANCELLED] = "Vos coups conditionnels sont "
		    "annulés, comme vous l'avez demandé. C'étaient : %s",
		[NOTICE_COND_SHOWN] = "Vos coups conditionnels, tels "
		    "qu'ils sont : %s",
		[NOTICE_COND_PLAYED] = "%s a joué %s, et votre coup "
		    "conditionnel %s a été joué en réponse.",
	},
	.cond_left = "Lignes restantes : %s",
	.cond_none_left = "Il ne reste rien de vos coups conditionnels.",
	.subject_digest_one = "résumé du jour, à vous de jouer dans 1 partie",
	.intro_digest = "C'est à vous de jouer dans les parties ci-dessous. "
	    "Ce résumé quotidien s'ajoute aux courriels de chaque coup, que "
	    "vous recevez toujours ; il n'est envoyé que les jours où une "
	    "partie vous attend.",
	.digest_deadline = "Délai : %s (dans %s)",
	.digest_deadline_past = "Délai : %s (dépassé)",
	.digest_left = "Temps restant : %s",
	.digest_play = "Pour jouer : partie %s, demi-coup (ply) %s "
	    "(répondez au dernier courriel de la partie).",
	.game_line = "Partie %s : %s (%s) c. %s (%s)",
	.tc_line = "Cadence : %s",
	.board_key = true,
	.start_line = "Position de départ : %s",
	.last_move = "Dernier coup : %s (%s)",
	.no_move = "Aucun coup joué.",
	.to_move = "Au trait : %s (%s), coup %s.",
	.offer_pending = "%s propose la nulle.",
	.result_line = "Résultat : %s, %s (%s).",
	.clocks = "Temps restant : %s (%s) %s, %s (%s) %s",
	.to_control = " (%d coups jusqu'au contrôle)",
	.deadline = "Délai pour jouer (%s) : %s (dans %s)",
	.deadline_past = "Délai pour jouer (%s) : %s (dépassé)",
	.moves = "Coups :",
	.ready = "Votre prochaine action : la déclaration à signer est faite "
	    "de ces cinq lignes, avec votre coup après « move » (par exemple "
	    "« move %s ») :",
	.reply_token = "Ou, sans clé : répondez à ce courriel avec votre coup "
	    "seul sur la première ligne (par exemple « %s », « %s "
	    "offer-draw », ou « resign », « accept-draw », « claim-draw »), "
	    "et gardez la ligne du jeton ci-dessous dans votre réponse (la "
	    "citation de ce courriel la garde). Le serveur joue le coup pour "
	    "vous, et le registre de la partie dit que le serveur l'a "
	    "attesté. Le jeton sert une fois, pour ce coup seulement, depuis "
	    "votre adresse enregistrée, jusqu'au %s :",
	.other_actions = "Au lieu de « move COUP », la dernière ligne peut "
	    "dire « move COUP offer-draw » (jouer et proposer la nulle), "
	    "« resign » (abandonner), « claim-draw » ou « claim-draw COUP » "
	    "(réclamer la nulle), ou « leave AAAA-MM-JJ AAAA-MM-JJ » (congé : "
	    "les pendules de toutes vos parties s'arrêtent).",
	.offer_actions = "La nulle vous est proposée : « accept-draw » ou "
	    "« decline-draw » y répondent.",
	.sign = "Signez-la avec votre clé, avec l'une de ces commandes :",
	.sign_cli = "affiche la déclaration avec sa signature",
	.sign_ssh = "les cinq lignes dans move.txt ; la signature va dans "
	    "move.txt.sig",
	.send = "Puis répondez à ce courriel avec la déclaration et sa "
	    "signature dans le corps du message, sans citation (avec "
	    "ssh-keygen : les lignes de move.txt, puis celles de "
	    "move.txt.sig), ou joignez les deux fichiers.",
	.wait = "C'est à %s de jouer ; vous recevrez un courriel après son "
	    "coup.",
	.over = "La partie est terminée ; aucune autre action n'est "
	    "possible.",
	.howto_generic = "Pour jouer, répondez au courriel d'une partie avec "
	    "une déclaration signée : ces cinq lignes, avec votre partie, le "
	    "nombre de demi-coups déjà joués (ply), votre nom de joueur et "
	    "votre coup,\n\n"
	    "corrchess-v1\n"
	    "game: 42\n"
	    "ply: 16\n"
	    "player: alice\n"
	    "action: move Cf3\n\n"
	    "et leur signature. Le courriel de chaque partie contient la "
	    "déclaration prête à compléter.",
	.pgn_note = "La partie au format PGN est jointe.",
	.footer = "corrchess, serveur d'échecs par correspondance",
	.example_move = "Cf3",
	.placeholders = { "PARTIE", "PLY", "NOM", "COUP" },
	.winner = { "les Blancs gagnent", "les Noirs gagnent", "nulle",
	    "sans résultat" },
	.refused_subject_re = "Re: ",
	.subject_event = "[corrchess] Épreuve %s : ",
	.subject_event_what = {
		[NOTICE_EVENT_START] = "elle commence, vos %s parties",
		[NOTICE_EVENT_WITHDRAWAL] = "%s se retire",
		[NOTICE_EVENT_END] = "classement final",
	},
	.event_intro = {
		[NOTICE_EVENT_START] = "L'épreuve %s (%s) a commencé : %s. "
		    "Toutes ses parties commencent maintenant, chacune avec "
		    "son propre courriel.",
		[NOTICE_EVENT_WITHDRAWAL] = "%s s'est retiré de l'épreuve %s "
		    "(%s).",
		[NOTICE_EVENT_END] = "L'épreuve %s (%s) est terminée : sa "
		    "dernière partie a pris fin.",
	},
	.event_format = {
		"un tournoi toutes rondes de %s joueurs",
		"un tournoi toutes rondes en aller et retour de %s joueurs "
		    "(chaque paire joue deux fois, une fois avec chaque "
		    "couleur)",
		"un match en %s parties",
	},
	.event_rules = "Les règles de chaque partie :",
	.event_variant = {
		"Variante : échecs classiques.",
		"Variante : Chess960, position de départ %s dans chaque "
		    "partie.",
		"Variante : Chess960, une position de départ pour chaque "
		    "paire de joueurs.",
		"Position de départ thématique : %s",
	},
	.event_draw_min = "Aucune proposition de nulle avant le coup %s.",
	.event_draw_every = "Au plus une proposition de nulle par joueur "
	    "tous les %s coups.",
	.event_draw_none = "Propositions de nulle : pas de règle au-delà des "
	    "Règles du jeu.",
	.event_policy = {
		"Les répétitions et la règle des cinquante coups mettent fin "
		    "à la partie d'elles-mêmes.",
		"Les répétitions et la règle des cinquante coups doivent être "
		    "réclamées (« claim-draw »).",
	},
	.event_leave = "Congé : %s jours par année civile.",
	.event_rated = { "Non comptée pour le classement.",
	    "Comptée pour le classement (Glicko-2)." },
	.event_withdrawal = {
		"Si un joueur se retire, ses parties restantes sont perdues.",
		"Si un joueur se retire avant d'avoir joué la moitié de ses "
		    "parties, toutes ses parties sont annulées ; plus tard, "
		    "ses parties restantes sont perdues.",
	},
	.event_games = "Vos parties (%s) :",
	.event_game = "Ronde %s, partie %s : vous avez les %s contre %s",
	.event_play = "Chaque partie a son propre courriel, qui contient la "
	    "déclaration à signer : répondez-y pour jouer, ou utilisez "
	    "« corrchess move PARTIE COUP ». Sur le serveur du club, la page "
	    "d'une partie est /games/PARTIE et celle de l'épreuve "
	    "/events/%s. Quand la dernière partie se termine, chaque joueur "
	    "reçoit le classement final.",
	.event_outcome_game = "Ronde %s, partie %s, avec les %s contre %s : "
	    "%s.",
	.event_outcome = {
		"annulée, elle ne compte pas",
		"vous la gagnez par forfait (+)",
		"jouée, son résultat reste acquis (%s)",
	},
	.event_result = "Votre résultat : %s points en %s parties jouées, "
	    "place %s.",
	.event_standings = "Classement final :",
};

/*
 * Service refusal codes, in French: what was refused, said before the
 * service's sentence (which is the player's language when the service has
 * the sentence in it, English otherwise).
 */
static const struct {
	const char	*code;
	const char	*fr;
} refusals_fr[] = {
	{ "illegal-move", "coup illégal" },
	{ "ambiguous-move", "coup ambigu" },
	{ "bad-move", "coup illisible" },
	{ "not-your-turn", "ce n'est pas votre tour" },
	{ "stale-ply", "la déclaration ne porte pas le nombre actuel de "
	    "demi-coups (ply)" },
	{ "game-over", "la partie est terminée" },
	{ "late-move", "votre délai était écoulé" },
	{ "no-draw-offer", "aucune proposition de nulle en cours" },
	{ "draw-rule", "proposition de nulle refusée par le règlement de "
	    "l'épreuve" },
	{ "bad-claim", "réclamation de nulle non fondée" },
	{ "bad-signature", "signature invalide" },
	{ "bad-statement", "déclaration mal formée" },
	{ "unknown-key", "clé inconnue" },
	{ "wrong-key", "signée avec la clé d'un autre joueur" },
	{ "key-revoked", "clé révoquée" },
	{ "wrong-namespace", "signature faite pour un autre usage "
	    "(ssh-keygen -n corrchess)" },
	{ "not-a-player", "vous ne jouez pas cette partie" },
	{ "unknown-player", "joueur inconnu" },
	{ "no-such-game", "partie inconnue" },
	{ "wrong-game", "mauvaise partie" },
	{ "unsupported-action", "action non prise en charge" },
	{ "no-signature", "aucune signature" },
	{ "stopping", "le serveur s'arrête" },
	{ "leave-too-soon", "congé demandé trop tôt" },
	{ "leave-overlaps", "ce congé en chevauche un autre" },
	{ "leave-allowance", "ce congé dépasse le quota de l'année" },
	{ "mail-too-large", "courriel trop volumineux" },
	{ "internal", "erreur interne du serveur" },
};

/* What a service refusal code refused, in French; NULL when unknown. */
const char *
notice_texts_refusal_fr(const char *code)
{
	size_t	i;

	for (i = 0; i < sizeof refusals_fr / sizeof refusals_fr[0]; i++) {
		if (strcmp(refusals_fr[i].code, code) == 0)
			return refusals_fr[i].fr;
	}
	return NULL;
}

/*
 * Append a text template, each "%s" in it replaced by the next string
 * argument (the fixed texts are templates, not printf formats: they come
 * from a table and take only strings).
 */
static void
vput(struct buf *b, const char *tmpl, va_list ap)
{
	const char *p, *arg;

	while ((p = strstr(tmpl, "%s")) != NULL) {
		buf_add(b, tmpl, (size_t)(p - tmpl));
		arg = va_arg(ap, const char *);
		buf_adds(b, arg != NULL ? arg : "");
		tmpl = p + 2;
	}
	buf_adds(b, tmpl);
}

/* Append a template filled with strings (see vput()). */
void
notice_texts_put(struct buf *b, const char *tmpl, ...)
{
	va_list ap;

	va_start(ap, tmpl);
	vput(b, tmpl, ap);
	va_end(ap);
}

/* True if [p, e) starts with a French unit of time as a word: "j", "h",
 * "min" or "s" ("2 j 3 h", "5 h 12 min"). */
static bool
time_unit(const char *p, const char *e)
{
	static const char *const units[] = { "j", "h", "min", "s" };
	size_t	i, n;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		n = strlen(units[i]);
		if ((size_t)(e - p) >= n && memcmp(p, units[i], n) == 0 &&
		    (p + n == e || strchr(" ),.;:", p[n]) != NULL))
			return true;
	}
	return false;
}

/* True if a line [s, e) may break at the space at w: not inside French
 * punctuation ("« move »", "partie : ..."), nor between a number and its
 * unit ("2 j"). */
static bool
breakable(const char *s, const char *w, const char *e)
{
	if (w + 1 < e && strchr(":;!?", w[1]) != NULL)
		return false;
	if (w > s && w[-1] >= '0' && w[-1] <= '9' && time_unit(w + 1, e))
		return false;
	if (w + 2 < e && memcmp(w + 1, "\u00bb", 2) == 0)
		return false;
	if (w - 2 >= s && memcmp(w - 2, "\u00ab", 2) == 0)
		return false;
	return true;
}

/* Append text with each line wrapped at NOTICE_WIDTH columns (UTF-8
 * characters counted), breaking at spaces. */
void
notice_texts_wrap(struct buf *b, const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *eol, *w, *brk;
	size_t		 col;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		/* Cut the line [p, eol) into pieces of at most the width. */
		while (p < eol) {
			brk = NULL;
			col = 0;
			for (w = p; w < eol; w++) {
				if (*w == ' ' && breakable(p, w, eol))
					brk = w;
				if (((unsigned char)*w & 0xc0) != 0x80)
					col++;
				if (col > NOTICE_WIDTH && brk != NULL)
					break;
			}
			if (w == eol || brk == NULL) {
				buf_add(b, p, (size_t)(eol - p));
				p = eol;
				break;
			}
			buf_add(b, p, (size_t)(brk - p));
			buf_add(b, "\n", 1);
			p = brk + 1;
		}
		if (eol < end) {
			buf_add(b, "\n", 1);
			p = eol + 1;
		}
	}
}

/* Append a template filled with strings, as wrapped prose. */
void
notice_texts_prose(struct buf *b, const char *tmpl, ...)
{
	struct buf	t = { 0 };
	va_list		ap;

	va_start(ap, tmpl);
	vput(&t, tmpl, ap);
	va_end(ap);
	if (t.failed)
		b->failed = true;
	else if (t.data != NULL)
		notice_texts_wrap(b, t.data, t.len);
	buf_free(&t);
}

/* Write the time control (game_tc_format() text) in the recipient's
 * language ("10 coups en 50 jours"), or as given when it does not parse. */
void
notice_texts_tc(enum chess_lang lang, const char *text, char *buf,
    size_t size)
{
	struct game_tc	tc;

	if (game_tc_parse(&tc, text, NULL, 0) == 0)
		game_tc_text(&tc, lang, buf, size);
	else
		snprintf(buf, size, "%s", text);
}
