/*
 * client/corrchess.c: the corrchess command: its table of subcommands, main.
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
 * corrchess: the player's and the club admin's command. One table row per
 * subcommand, like tmux's cmd_entry: the dispatcher finds the row, and the
 * row's usage and help are what `corrchess help CMD` prints.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "chess/chess.h"
#include "client/cli.h"
#include "client/cmd_admin.h"
#include "client/cmd_event.h"
#include "client/cmd_bench.h"
#include "client/cmd_follow.h"
#include "client/cmd_game.h"
#include "client/cmd_keys.h"
#include "client/cmd_mail.h"
#include "client/cmd_record.h"
#include "client/cmd_self.h"
#include "client/cmd_verify.h"
#include "client/cmd_rules.h"

static int	cmd_help_exec(const struct cli_cmd *, int, char **);

static const struct cli_cmd cmd_table[] = {
	{ "perft", cmd_rules_perft,
	  "[--chess960] [--divide] DEPTH [FEN]",
	  "Count the leaf nodes of the legal move tree DEPTH plies deep from FEN\n"
	  "(default: the standard starting position). The last line of the\n"
	  "output is the total, digits alone.\n"
	  "\n"
	  "  --divide    first print one line per legal root move, \"UCI: count\"\n"
	  "  --chess960  treat the position as Chess960 (castling written as\n"
	  "              king takes rook, FEN with Shredder castling letters);\n"
	  "              implied by castling letters that need it\n",
	  0 },
	{ "play", cmd_rules_play,
	  "[--chess960] [--fen FEN] [--lang en|fr] [--] MOVE...",
	  "Play MOVEs from FEN (default: the starting position) and print three\n"
	  "lines: the FEN reached, the SAN of every move, and the game status\n"
	  "(checkmate, stalemate, insufficient-material, fivefold-repetition,\n"
	  "seventy-five-moves, threefold-repetition, fifty-moves or ongoing).\n"
	  "\n"
	  "A move may be written in SAN (Nf3, exd5, O-O, 0-0, e8=Q, with or\n"
	  "without x, + and #), long algebraic (Ng1-f3, e2-e4), UCI (g1f3,\n"
	  "e7e8q; Chess960 castling as king takes rook) or ICCF numeric (7163).\n"
	  "A rejected move stops everything: nothing is printed on standard\n"
	  "output, the reason goes to standard error and the exit status is 1.\n"
	  "\n"
	  "  --fen FEN   start from this position (X-FEN or Shredder-FEN)\n"
	  "  --lang L    piece letters of SAN input: en (K Q R B N, default) or\n"
	  "              fr (R D T F C)\n"
	  "  --chess960  Chess960 rules for castling (implied by a FEN whose\n"
	  "              castling letters need it)\n"
	  "  --          end of options: a move may then start with a dash\n",
	  0 },
	{ "pgn", cmd_rules_pgn,
	  "FILE...",
	  "Replay every game of each PGN FILE (\"-\" reads standard input) and\n"
	  "print one line per game, numbered from 1 across the files:\n"
	  "\n"
	  "  game N: result=RESULT plies=N status=STATUS fen=FEN\n"
	  "\n"
	  "A game with a malformed header or an illegal move is reported as\n"
	  "\"game N: error: ...\" naming the ply and the move; the other games\n"
	  "are still replayed, and the exit status is then 1.\n",
	  0 },
	{ "bench-replay", cmd_bench_replay,
	  "[--seconds S] FILE...",
	  "Measure (i) full PGN replay in plies per second and (ii) SAN parse\n"
	  "and make in moves per second, over the games of the PGN FILEs (the\n"
	  "SAN of each move is extracted once, before the timed runs). Each\n"
	  "figure is timed over repeated passes for at least S seconds\n"
	  "(default 1). Used by bench/replay.\n",
	  1 },
	{ "keygen", cmd_keys_keygen,
	  "[-f FILE] [-C COMMENT]",
	  "Make a new Ed25519 key pair: the private key in FILE (mode 0600, in\n"
	  "OpenSSH's format, so ssh-keygen can use it too) and the public key\n"
	  "in FILE.pub. The public key is printed as one OpenSSH line, the line\n"
	  "to give the club that registers you. An existing file is never\n"
	  "overwritten.\n"
	  "\n"
	  "  -f FILE     the private key file (default:\n"
	  "              ~/.config/corrchess/id_ed25519, under $XDG_CONFIG_HOME\n"
	  "              when set; its directory is created)\n"
	  "  -C COMMENT  the public key's comment (default: user@host)\n",
	  0 },
	{ "sign", cmd_keys_sign,
	  "[-k KEY] --game ID --ply N [-p NAME] [--ssh] [-m TEXT] ACTION...",
	  "Print the signed statement of an action: the five statement lines\n"
	  "and a \"signature:\" line (or, with --ssh, an OpenSSH signature\n"
	  "block, as ssh-keygen -Y sign -n corrchess writes it). The ACTION\n"
	  "words are joined by spaces: \"move Nf3\", \"move e4 offer-draw\",\n"
	  "\"accept-draw\", \"decline-draw\", \"resign\", \"claim-draw\",\n"
	  "\"claim-draw MOVE\", \"conditional LINES\", \"cancel-conditional\" or\n"
	  "\"show-conditional\". Send the text by mail or with curl; N is the\n"
	  "number of half-moves played so far.\n"
	  "\n"
	  "  -k, --key KEY      the key: a corrchess keygen file or an\n"
	  "                     unencrypted OpenSSH Ed25519 key; a key with a\n"
	  "                     passphrase or a .pub file signs through\n"
	  "                     ssh-agent (SSH_AUTH_SOCK; add it with ssh-add)\n"
	  "  -g, --game ID      the game number\n"
	  "  -n, --ply N        the game's current ply\n"
	  "  -p, --player NAME  the player's name\n"
	  "  --ssh              an SSH signature block instead of the line\n"
	  "  -m, --message TEXT a message to the opponent, signed with the\n"
	  "                     action (a move, a draw offer or answer, a\n"
	  "                     claim, resign; one line, 500 bytes at most)\n",
	  0 },
	{ "move", cmd_game_move,
	  "[-s URL] [-k KEY] [-p NAME] [--offer-draw] [-m TEXT] [--ascii] "
	  "[--flip] GAME MOVE",
	  "Play MOVE in game GAME: read the game from the server, sign the\n"
	  "statement for its current ply, send it, and print the new position\n"
	  "(board, last move, whose move). The move may be written in any\n"
	  "notation the server reads (Nf3, Ng1-f3, g1f3, 7163). A move the\n"
	  "server refuses is reported with its reason, exit status 1.\n"
	  "\n"
	  "  -s, --server URL   the server (default: $CORRCHESS_SERVER, else\n"
	  "                     the configuration's, else\n"
	  "                     http://127.0.0.1:8080)\n"
	  "  -k, --key KEY      the private key file; with a passphrase, or a\n"
	  "                     .pub file: signs through ssh-agent\n"
	  "  -p, --player NAME  your player name\n"
	  "  --offer-draw       offer a draw with the move\n"
	  "  -m, --message TEXT a message to your opponent, signed with the\n"
	  "                     move: shown in their notice, the game and its\n"
	  "                     PGN (one line, 500 bytes of UTF-8 at most)\n"
	  "  --ascii, --flip    as for corrchess show\n",
	  0 },
	{ "mail-move", cmd_mail_move,
	  "[-s URL] [-k KEY] [-p NAME] [--ssh] [--to ADDR] [--from ADDR] "
	  "[--offer-draw] [-m TEXT] [--lang en|fr] GAME MOVE",
	  "Print MOVE in game GAME as a ready mail for the server's move\n"
	  "mailbox: headers (From, To, Subject, Date, Message-ID, and with --to\n"
	  "In-Reply-To and References to your thread of the game), a blank line\n"
	  "and the statement for the game's current ply (read from the server)\n"
	  "with its signature. Pipe it to sendmail -t or paste it into a mail.\n"
	  "\n"
	  "  -s, --server URL   the server\n"
	  "  -k, --key KEY      the private key file (or through ssh-agent, as\n"
	  "                     for corrchess move)\n"
	  "  -p, --player NAME  your player name\n"
	  "  --ssh              an SSH signature block instead of the line\n"
	  "  -t, --to ADDR      the move mailbox (the Reply-To of the notices)\n"
	  "  -f, --from ADDR    your address, as the server knows it\n"
	  "  --offer-draw       offer a draw with the move\n"
	  "  -m, --message TEXT a message to your opponent, signed with the\n"
	  "                     move\n"
	  "  --lang en|fr       the Subject's words and the refusals (a game\n"
	  "                     over, not your move) in French; else the\n"
	  "                     configuration's \"lang =\", else English\n",
	  0 },
	{ "act", cmd_game_act,
	  "[-s URL] [-k KEY] [-p NAME] [-m TEXT] GAME ACTION...",
	  "Make another action in game GAME: resign, accept-draw, decline-draw,\n"
	  "claim-draw or claim-draw MOVE (a claim of threefold repetition or\n"
	  "fifty moves, on the position now or after MOVE), or leave FROM TO\n"
	  "(days away, YYYY-MM-DD YYYY-MM-DD: the clocks of all your games\n"
	  "stop). Options as for corrchess move; -m TEXT goes with resign and\n"
	  "the draw actions, not with leave.\n",
	  0 },
	{ "conditional", cmd_game_conditional,
	  "[-s URL] [-k KEY] [-p NAME] [--show | --cancel] GAME [LINES]",
	  "Sign conditional moves in game GAME while you wait for your\n"
	  "opponent: lines of moves from the position now, the opponent's move\n"
	  "first, then your answer, and so on; lines separated by \"; \". Lines\n"
	  "that begin alike form a tree, and no move may be answered twice:\n"
	  "\n"
	  "  corrchess conditional 12 \"e5 Nf3 Nc6 Bb5; e5 Nf3 Nf6 Nxe5; c5 Nf3\"\n"
	  "\n"
	  "The server plays your answer as soon as the opponent's move matches\n"
	  "a line; your opponent does not see the lines until one of their\n"
	  "moves is played. A new conditional replaces the old one. Moves in\n"
	  "any notation the server reads; the lines are printed back in SAN.\n"
	  "\n"
	  "  --show             print your conditional moves as they stand\n"
	  "  --cancel           cancel them\n"
	  "  other options as for corrchess move\n",
	  0 },
	{ "key", cmd_self_key,
	  "add|revoke [-s URL] [-k KEY] [-p NAME] PUBKEY|FINGERPRINT",
	  "Manage your own keys with a statement signed by one of them:\n"
	  "\n"
	  "  corrchess key add ~/.ssh/laptop.pub     a new key (a .pub file or\n"
	  "                                          its line, or raw base64)\n"
	  "  corrchess key revoke SHA256:...         revoke a key (its\n"
	  "                                          fingerprint, or its id)\n"
	  "\n"
	  "Your last valid key cannot be revoked: add its replacement first.\n"
	  "Revoking a key ends the conditional moves it signed. The server\n"
	  "mails you of every change. Options as for corrchess move.\n",
	  0 },
	{ "settings", cmd_self_settings,
	  "[-s URL] [-k KEY] [-p NAME] [NAME VALUE]",
	  "Read your settings, or change one, with a signed statement:\n"
	  "\n"
	  "  lang en|fr                  your mail's and your moves' language\n"
	  "  move-mail on|off            a mail for each of the opponent's moves\n"
	  "  reminders on|off|3d,1d,12h  the server's reminders, none, or yours\n"
	  "                              (at most 4, from 1h to 30d)\n"
	  "  digest none|daily           the daily digest of your games\n"
	  "  digest-hour 0..23|any       when it goes (UTC)\n"
	  "  xfcc-password PASSWORD|-|none  the password of your correspondence\n"
	  "                              program (Xfcc), hashed here: the server\n"
	  "                              and your record see only the hash; -\n"
	  "                              reads it from standard input\n"
	  "  email ADDRESS               a new address: the server mails it a\n"
	  "                              code, and the change waits for it\n"
	  "  confirm-email CODE          the code, within two days\n"
	  "\n"
	  "Options as for corrchess move.\n",
	  0 },
	{ "show", cmd_game_show,
	  "[-s URL] [--ascii] [--flip] [--lang en|fr] GAME",
	  "Print game GAME: the players, the board, whose move it is or how the\n"
	  "game ended, the clocks and deadline, and the moves.\n"
	  "\n"
	  "  -s, --server URL  the server\n"
	  "  --ascii           letters (PNBRQK, pnbrqk) instead of chess symbols\n"
	  "  --flip            Black at the bottom\n"
	  "  --lang en|fr      the language, else 'lang =' of the settings,\n"
	  "                    else English; in French the words, the moves\n"
	  "                    and the --ascii letters are French (R roi)\n",
	  0 },
	{ "games", cmd_game_games,
	  "[-s URL] [--player NAME] [--status ongoing|finished] [--lang en|fr]",
	  "List the server's games, one a line: number, players, plies played\n"
	  "and who is to move (with the deadline), or the result.\n"
	  "\n"
	  "  -s, --server URL   the server\n"
	  "  -p, --player NAME  only NAME's games\n"
	  "  --status S         only ongoing or only finished games\n"
	  "  --lang en|fr       the language of the list; else the\n"
	  "                     configuration's \"lang =\", else English\n",
	  0 },
	{ "follow", cmd_follow,
	  "[-s URL] [--lang en|fr] GAME | --player NAME",
	  "Follow game GAME live: a line for the game as it stands, then one\n"
	  "for each move, draw offer and refusal, clock warning and the end,\n"
	  "as the server commits them (GET /api/v1/games/GAME/stream). Ends\n"
	  "when the game ends, or on Ctrl-C (exit 0); exit 1 when the server\n"
	  "refuses, cannot be reached or ends the stream.\n"
	  "\n"
	  "  -s, --server URL   the server\n"
	  "  -p, --player NAME  every game of NAME instead (until Ctrl-C)\n"
	  "  --lang L           en or fr (default: lang = in the configuration\n"
	  "                     file, else en); French SAN letters in French\n",
	  0 },
	{ "event", cmd_event,
	  "list | show NAME | pgn NAME [-s URL]\n"
	  "       corrchess event create [-s URL] [-t FILE] [RULES] NAME "
	  "[PLAYER...]\n"
	  "       corrchess event edit [-s URL] [-t FILE] RULES NAME\n"
	  "       corrchess event add|remove|withdraw [-s URL] [-t FILE] NAME "
	  "PLAYER...\n"
	  "       corrchess event start [-s URL] [-t FILE] NAME",
	  "Read the server's events: list them, show an event's crosstable\n"
	  "(one row per player by start number: 1, ½, 0, * for a game being\n"
	  "played, + and - for forfeits; points, games played, tie-breaks and\n"
	  "place) with its games, or print every game of it as PGN.\n"
	  "\n"
	  "The administrator runs an event: create it with its rules and its\n"
	  "players (their start numbers follow the order given), change its\n"
	  "rules (edit) or add or remove players until it starts, start it\n"
	  "(every game is created and the players are told), withdraw a\n"
	  "player from a started event (the event's withdrawal rule decides\n"
	  "what becomes of their games). Each prints the event as it then\n"
	  "stands. RULES, all optional:\n"
	  "\n"
	  "  --format F         round-robin (default), double-round-robin, match\n"
	  "  --games N          games of a match (2)\n"
	  "  --title T, --site S  the PGN Event and Site tags (title: NAME)\n"
	  "  --variant V        standard (default) or chess960\n"
	  "  --chess960 N       the event's Chess960 position, or per-pairing\n"
	  "  --fen FEN          a thematic start position\n"
	  "  --time-control TC  \"3d/move\", \"10/50d\", \"30d+1d\", \"none\"\n"
	  "  --policy P         auto (default) or claim\n"
	  "  --rated yes|no     Glicko-2 rated (yes)\n"
	  "  --tiebreaks LIST   direct,wins,sb,koya (that order by default)\n"
	  "  --withdrawal R     lose (default) or annul\n"
	  "  --auth A           signed, or signed-or-attested: its games take\n"
	  "                     moves the server attests (Xfcc, mail tokens);\n"
	  "                     the server's [game] auth by default\n"
	  "  --draw-min-move N  no draw offer before move N (0: none)\n"
	  "  --draw-offer-every N  one draw offer a player every N moves (0)\n"
	  "  --leave-days N     leave a calendar year in its games, or server\n"
	  "                     (the server's allowance, the default)\n"
	  "\n"
	  "  -s, --server URL      the server\n"
	  "  -t, --token-file FILE the admin token, as for corrchess admin\n",
	  0 },
	{ "ratings", cmd_event_ratings,
	  "[-s URL] [NAME]",
	  "Print the rating list (Glicko-2, best first; a provisional rating\n"
	  "is followed by ?), or NAME's rating and rated games.\n"
	  "\n"
	  "  -s, --server URL  the server\n",
	  0 },
	{ "export", cmd_record_export,
	  "[-s URL] [--player NAME] [GAME...]",
	  "Print the PGN of each GAME from the server (its moves, their dates\n"
	  "and the signed record), one after the other; with --player NAME,\n"
	  "of every game of NAME. Save it with > FILE; replay it with\n"
	  "corrchess pgn FILE.\n"
	  "\n"
	  "  -s, --server URL   the server\n"
	  "  -p, --player NAME  every game of NAME instead of GAMEs\n",
	  0 },
	{ "verify", cmd_verify,
	  "[-s URL] [--server-key KEY] GAME|FILE...",
	  "Check the record of each GAME as the server exports it, or of\n"
	  "every game in FILE offline: a PGN export (also after pgn-extract)\n"
	  "or a records export saved as JSON; - reads standard input. The\n"
	  "game's creation record, signed by the server (the players, their\n"
	  "colours, the start position, the rules), and in a PGN the tags it\n"
	  "signs; every record's hash from the one before, its statement and\n"
	  "signature (doc/signatures.md); each player's signature against the\n"
	  "player's keys in the export; each attested or admin record against\n"
	  "the server's key; in a PGN, that every move has its signed record\n"
	  "and that its Result is the record's. Prints the creation record's\n"
	  "line (or that an older game has none: its colours are unsigned),\n"
	  "one line per record (ply, signer, key, OK), for a PGN the result's,\n"
	  "and one a game, with the attested plies; exit status 1 at the first\n"
	  "record that does not hold, named with its ply and FAIL, at a tag or\n"
	  "result the record does not give, and for an export with nothing\n"
	  "signed.\n"
	  "\n"
	  "  -s, --server URL    the server\n"
	  "  --server-key KEY    the server's public key (an OpenSSH line, its\n"
	  "                      base64, or a file holding it): the export must\n"
	  "                      name this one, or none\n",
	  0 },
	{ "admin", cmd_admin,
	  "backup [-s URL] [-t FILE] FILE\n"
	  "       corrchess admin invite [-s URL] [-t FILE] [--days N] NAME\n"
	  "       corrchess admin abort [-s URL] [-t FILE] --reason TEXT GAME\n"
	  "       corrchess admin adjudicate [-s URL] [-t FILE] --reason TEXT\n"
	  "                 GAME 1-0|0-1|1/2-1/2",
	  "The administrator's commands, through the server's admin API.\n"
	  "\n"
	  "backup FILE: save a consistent copy of the server's database in\n"
	  "FILE (an SQLite file), taken while the server goes on serving.\n"
	  "FILE is written whole or not at all. Restore by stopping the\n"
	  "server and putting the copy in place of STATE_DIRECTORY/corrchess.db.\n"
	  "\n"
	  "invite NAME: print a one-time link for player NAME (valid 7 days,\n"
	  "or N with --days, at most 90). The browser that opens it makes a\n"
	  "key of its own and registers it; send the link to the player\n"
	  "alone. A second device needs a second invitation.\n"
	  "\n"
	  "abort GAME: end the game without a result, only before the\n"
	  "number of moves the server sets ([game] abort_moves, 2 by\n"
	  "default). adjudicate GAME RESULT: end it with RESULT. Either is\n"
	  "recorded in the game's signed record, signed by the server, with\n"
	  "the reason; both players are told by mail.\n"
	  "\n"
	  "  -r, --reason TEXT     why (required; the players read it)\n"
	  "  -s, --server URL      the server\n"
	  "  -t, --token-file FILE the admin token's file (the server's\n"
	  "                        admin_token_file, or STATE_DIRECTORY/\n"
	  "                        admin.token); else $CORRCHESS_ADMIN_TOKEN,\n"
	  "                        else the configuration's admin_token_file\n",
	  0 },
	{ "help", cmd_help_exec,
	  "[COMMAND]",
	  "List the commands, or describe COMMAND.\n",
	  0 },
};

#define CMD_TABLE_SIZE	(sizeof cmd_table / sizeof cmd_table[0])

/* Find a subcommand by name. */
static const struct cli_cmd *
cmd_find(const char *name)
{
	size_t	i;

	for (i = 0; i < CMD_TABLE_SIZE; i++) {
		if (strcmp(cmd_table[i].name, name) == 0)
			return &cmd_table[i];
	}
	return NULL;
}

/* Print the overview: usage and the visible subcommands. */
static void
cmd_overview(FILE *f)
{
	size_t	i;

	fprintf(f, "usage: corrchess [--help | --version] COMMAND [ARG...]\n\n"
	    "corrchess is the command-line tool of the corrchess "
	    "correspondence-chess\nserver. Commands:\n\n");
	for (i = 0; i < CMD_TABLE_SIZE; i++) {
		if (!cmd_table[i].hidden)
			fprintf(f, "  corrchess %s %s\n", cmd_table[i].name,
			    cmd_table[i].usage);
	}
	fprintf(f, "\nRun 'corrchess help COMMAND' for the details of one.\n");
}

/* List the commands, or print the help of one. */
static int
cmd_help_exec(const struct cli_cmd *self, int argc, char **argv)
{
	const struct cli_cmd	*cmd;
	int			 ind, rc;

	if ((rc = cli_options(self, argc, argv, NULL, NULL, NULL, &ind)) !=
	    CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	if (argc - ind > 1)
		return cli_usage(self, "too many operands");
	if (argc - ind == 0) {
		cmd_overview(stdout);
		return CLI_EXIT_OK;
	}
	if ((cmd = cmd_find(argv[ind])) == NULL)
		return cli_usage(self, "unknown command '%s'", argv[ind]);
	return cli_help(cmd);
}

/* Dispatch to the subcommand named by argv[1]. */
int
main(int argc, char **argv)
{
	const struct cli_cmd	*cmd;
	int			 rc;

	chess_init();

	if (argc < 2) {
		cmd_overview(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cmd_overview(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("corrchess %s\n", PACKAGE_VERSION);
		return CLI_EXIT_OK;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "corrchess: unknown option %s\n", argv[1]);
		cmd_overview(stderr);
		return CLI_EXIT_USAGE;
	}
	if ((cmd = cmd_find(argv[1])) == NULL) {
		fprintf(stderr, "corrchess: unknown command '%s'\n", argv[1]);
		cmd_overview(stderr);
		return CLI_EXIT_USAGE;
	}

	rc = cmd->exec(cmd, argc - 1, argv + 1);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "corrchess: error writing standard output\n");
		return CLI_EXIT_FAIL;
	}
	return rc;
}
