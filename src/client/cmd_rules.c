/*
 * client/cmd_rules.c: corrchess perft, play and pgn: the rules tools.
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
 * The rules tools of `corrchess`: perft, play and pgn. Their output is a
 * contract that scripts rely on (see `corrchess help CMD` and README):
 * change it only with a NEWS entry.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chess/chess.h"
#include "chess/pgn.h"
#include "client/cli.h"
#include "client/cmd_rules.h"

enum {
	OPT_CHESS960 = 1,
	OPT_DIVIDE,
	OPT_FEN,
	OPT_LANG,
};

/* What perft and play were given. */
struct rules_opts {
	int		 chess960;	/* --chess960 */
	int		 divide;	/* perft --divide */
	const char	*fen;		/* play --fen, or NULL */
	enum chess_lang	 lang;		/* play --lang */
};

/* Deepest perft we accept; far beyond what finishes in a lifetime. */
#define RULES_PERFT_MAX_DEPTH	30

/* Room for the reason a move or a PGN game was rejected. */
#define RULES_WHY_MAX		512

/* One root move of `perft --divide`. */
struct rules_divide {
	char		uci[8];
	uint64_t	nodes;
};

/* Set up the position to start from: `fen`, or the starting position. */
static int
rules_setup(const struct cli_cmd *cmd, const char *fen, int chess960,
    struct chess_position *pos)
{
	enum chess_error	err;

	if (fen == NULL) {
		chess_position_start(pos);
		if (chess960)
			pos->chess960 = true;
		return CLI_EXIT_OK;
	}
	err = chess_fen_parse(pos, fen, chess960 ? CHESS_FEN_960 : 0);
	if (err != CHESS_OK) {
		cli_error(cmd, "invalid FEN \"%s\": %s", fen,
		    chess_strerror(err));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Take one of perft's or play's options. */
static int
rules_option(const struct cli_cmd *cmd, int id, const char *arg, void *ctx)
{
	struct rules_opts	*o = ctx;

	switch (id) {
	case OPT_CHESS960:
		o->chess960 = 1;
		break;
	case OPT_DIVIDE:
		o->divide = 1;
		break;
	case OPT_FEN:
		o->fen = arg;
		break;
	case OPT_LANG:
		if (strcasecmp(arg, "en") == 0)
			o->lang = CHESS_LANG_EN;
		else if (strcasecmp(arg, "fr") == 0)
			o->lang = CHESS_LANG_FR;
		else
			return cli_usage(cmd, "unknown language '%s' "
			    "(en or fr)", arg);
		break;
	default:
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* Order root moves by their UCI text. */
static int
rules_divide_cmp(const void *a, const void *b)
{
	const struct rules_divide	*x = a, *y = b;

	return strcmp(x->uci, y->uci);
}

/* Count perft nodes, optionally per root move. */
int
cmd_rules_perft(const struct cli_cmd *cmd, int argc, char **argv)
{
	static const struct cli_option	 options[] = {
		{ "chess960", 0, 0, OPT_CHESS960 },
		{ "divide", 'd', 0, OPT_DIVIDE },
		{ NULL, 0, 0, 0 }
	};
	struct rules_opts		 o;
	struct chess_position		 pos, child;
	struct rules_divide		*div = NULL;
	chess_move			 moves[CHESS_MAX_MOVES];
	uint64_t			 total;
	char				*fen = NULL, *end;
	unsigned long			 depth;
	int				 ind, n, i;
	int				 rc;

	memset(&o, 0, sizeof o);
	if ((rc = cli_options(cmd, argc, argv, options, rules_option, &o,
	    &ind)) != CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	rc = CLI_EXIT_FAIL;
	if (ind >= argc)
		return cli_usage(cmd, "missing DEPTH");
	errno = 0;
	depth = strtoul(argv[ind], &end, 10);
	if (argv[ind][0] < '0' || argv[ind][0] > '9' || *end != '\0' ||
	    errno != 0 || depth > RULES_PERFT_MAX_DEPTH)
		return cli_usage(cmd, "DEPTH must be a number from 0 to %d, "
		    "not '%s'", RULES_PERFT_MAX_DEPTH, argv[ind]);
	ind++;

	/* The FEN may come as one operand or as its fields, unquoted. */
	if (ind < argc && (fen = cli_join(argc - ind, argv + ind)) == NULL) {
		cli_error(cmd, "out of memory");
		goto out;
	}
	if ((rc = rules_setup(cmd, fen, o.chess960, &pos)) != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_FAIL;

	if (!o.divide || depth == 0) {
		total = chess_perft(&pos, (int)depth);
		printf("%" PRIu64 "\n", total);
		rc = CLI_EXIT_OK;
		goto out;
	}

	n = chess_legal_moves(&pos, moves);
	if ((div = calloc(n > 0 ? (size_t)n : 1, sizeof *div)) == NULL) {
		cli_error(cmd, "out of memory");
		goto out;
	}
	total = 0;
	for (i = 0; i < n; i++) {
		chess_move_uci(&pos, moves[i], div[i].uci, sizeof div[i].uci);
		child = pos;
		chess_position_make(&child, moves[i]);
		div[i].nodes = depth > 1 ? chess_perft(&child, (int)depth - 1) :
		    1;
		total += div[i].nodes;
	}
	qsort(div, (size_t)n, sizeof *div, rules_divide_cmp);
	for (i = 0; i < n; i++)
		printf("%s: %" PRIu64 "\n", div[i].uci, div[i].nodes);
	printf("%" PRIu64 "\n", total);
	rc = CLI_EXIT_OK;

out:
	free(div);
	free(fen);
	return rc;
}

/* True if the game has ended by itself (no move may follow). */
static int
rules_game_over(enum chess_status st)
{
	switch (st) {
	case CHESS_CHECKMATE:
	case CHESS_STALEMATE:
	case CHESS_INSUFFICIENT:
	case CHESS_FIVEFOLD:
	case CHESS_SEVENTYFIVE:
		return 1;
	default:
		return 0;
	}
}

/* Play moves from a position and print the FEN, SAN and status. */
int
cmd_rules_play(const struct cli_cmd *cmd, int argc, char **argv)
{
	static const struct cli_option	 options[] = {
		{ "chess960", 0, 0, OPT_CHESS960 },
		{ "fen", 0, 1, OPT_FEN },
		{ "lang", 0, 1, OPT_LANG },
		{ NULL, 0, 0, 0 }
	};
	struct rules_opts		 o;
	struct chess_position		 start;
	struct chess_game		 game;
	enum chess_error		 err;
	enum chess_status		 st;
	chess_move			 m;
	char				*sans = NULL, *p;
	char				 why[RULES_WHY_MAX];
	char				 fenbuf[CHESS_FEN_MAX];
	int				 ind, i, nmoves;
	int				 rc;

	memset(&game, 0, sizeof game);
	memset(&o, 0, sizeof o);
	o.lang = CHESS_LANG_EN;
	if ((rc = cli_options(cmd, argc, argv, options, rules_option, &o,
	    &ind)) != CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	if ((rc = rules_setup(cmd, o.fen, o.chess960, &start)) != CLI_EXIT_OK)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (chess_game_init(&game, &start) != 0) {
		cli_error(cmd, "out of memory");
		goto out;
	}

	nmoves = argc - ind;
	if ((sans = malloc((size_t)nmoves * CHESS_SAN_MAX + 1)) == NULL) {
		cli_error(cmd, "out of memory");
		goto out;
	}
	p = sans;
	*p = '\0';
	for (i = 0; i < nmoves; i++) {
		const char	*text = argv[ind + i], *name;

		st = chess_game_status(&game);
		if (rules_game_over(st)) {
			cli_error(cmd, "move %d \"%s\" rejected: the game is "
			    "over (%s)", i + 1, text, chess_status_name(st));
			goto out;
		}
		why[0] = '\0';
		err = chess_move_parse(&game.pos, text, o.lang, &m, why,
		    sizeof why);
		if (err != CHESS_OK) {
			/* The reason in the player's language, after the
			 * error's name unless it says the same. */
			name = chess_strerror_lang(err, o.lang);
			if (why[0] == '\0' || strcmp(why, name) == 0)
				cli_error(cmd, "move %d \"%s\" rejected: %s",
				    i + 1, text, name);
			else
				cli_error(cmd, "move %d \"%s\" rejected: %s: %s",
				    i + 1, text, name, why);
			goto out;
		}
		if (i > 0)
			*p++ = ' ';
		p += chess_move_san(&game.pos, m, CHESS_LANG_EN, p,
		    CHESS_SAN_MAX);
		if (chess_game_push(&game, m) != 0) {
			cli_error(cmd, "out of memory");
			goto out;
		}
	}

	chess_fen_write(&game.pos, fenbuf, sizeof fenbuf);
	printf("fen: %s\n", fenbuf);
	printf("san:%s%s\n", nmoves > 0 ? " " : "", sans);
	printf("status: %s\n", chess_status_name(chess_game_status(&game)));
	rc = CLI_EXIT_OK;

out:
	free(sans);
	chess_game_free(&game);
	return rc;
}

/* True if a PGN Variant tag names Chess960. */
static int
rules_variant_960(const char *v)
{
	if (v == NULL)
		return 0;
	return strcasecmp(v, "chess960") == 0 ||
	    strcasecmp(v, "chess 960") == 0 ||
	    strcasecmp(v, "fischerandom") == 0 ||
	    strcasecmp(v, "fischer random") == 0 ||
	    strcasecmp(v, "fischer random chess") == 0 ||
	    strcasecmp(v, "fischerrandom") == 0;
}

/* Replay the games of PGN files and print one line per game. */
int
cmd_rules_pgn(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct chess_pgn_reader	 rd;
	struct chess_pgn_game	 g;
	struct chess_position	 last;
	unsigned long		 ngame = 0;
	char			*buf = NULL;
	size_t			 len;
	char			 err[RULES_WHY_MAX];
	char			 fenbuf[CHESS_FEN_MAX];
	int			 ind, i, r, rc;

	memset(&g, 0, sizeof g);
	if ((rc = cli_options(cmd, argc, argv, NULL, NULL, NULL, &ind)) !=
	    CLI_EXIT_OK)
		return rc == CLI_HELPED ? CLI_EXIT_OK : rc;
	if (ind >= argc)
		return cli_usage(cmd, "missing FILE");

	for (i = ind; i < argc; i++) {
		if (cli_read_file(argv[i], &buf, &len) != 0) {
			/* "pgn 1" meant the server's game 1. */
			if (errno == ENOENT && argv[i][strspn(argv[i],
			    "0123456789")] == '\0')
				cli_error(cmd, "%s: %s (pgn replays PGN files; "
				    "to download game %s from the server: "
				    "corrchess export %s)", argv[i],
				    strerror(errno), argv[i], argv[i]);
			else
				cli_error(cmd, "%s: %s", argv[i],
				    strerror(errno));
			rc = CLI_EXIT_FAIL;
			continue;
		}
		chess_pgn_reader_init(&rd, buf, len);
		for (;;) {
			err[0] = '\0';
			r = chess_pgn_next(&rd, &g, err, sizeof err);
			if (r == 0)
				break;
			ngame++;
			if (r < 0) {
				printf("game %lu: error: %s: %s\n", ngame,
				    argv[i], err[0] != '\0' ? err :
				    "malformed game");
				rc = CLI_EXIT_FAIL;
				continue;
			}
			last = g.game.pos;
			if (rules_variant_960(chess_pgn_tag(&g, "Variant")))
				last.chess960 = true;
			chess_fen_write(&last, fenbuf, sizeof fenbuf);
			printf("game %lu: result=%s plies=%zu status=%s "
			    "fen=%s\n", ngame, g.result[0] != '\0' ? g.result :
			    "*", g.game.nply,
			    chess_status_name(chess_game_status(&g.game)),
			    fenbuf);
		}
		free(buf);
		buf = NULL;
	}

	chess_pgn_game_free(&g);
	return rc;
}
