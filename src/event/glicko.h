/*
 * event/glicko.h: Glicko-2 rating updates (Glickman 2012).
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
 * Mark E. Glickman, "Example of the Glicko-2 system" (Boston University,
 * 2012, revised 2013/2022). A rating period's games are rated together
 * from the players' ratings at its start: the caller collects each
 * player's games with the opponents' pre-period values, calls
 * glicko_update() once per player, and stores the results afterwards.
 * Values are plain structs; nothing is allocated or kept.
 */

#ifndef CORRCHESS_EVENT_GLICKO_H
#define CORRCHESS_EVENT_GLICKO_H

#include <stddef.h>

/* Glicko scale <-> Glicko-2 scale: mu = (r - 1500) / 173.7178. */
#define GLICKO_SCALE		173.7178
#define GLICKO_BASE		1500.0

/* A new player, as the paper suggests; the default system constants. */
#define GLICKO_NEW_RATING	1500.0
#define GLICKO_NEW_RD		350.0
#define GLICKO_NEW_VOLATILITY	0.06
#define GLICKO_DEFAULT_TAU	0.5
#define GLICKO_DEFAULT_EPSILON	0.000001

/* A rating on the Glicko scale (what players see). */
struct glicko_rating {
	double	rating;		/* r, 1500 for a new player */
	double	rd;		/* rating deviation RD, > 0 */
	double	volatility;	/* sigma, > 0 */
};

/* The same rating on the Glicko-2 scale. */
struct glicko2_rating {
	double	mu;
	double	phi;
	double	sigma;
};

/* One game of a rating period, from the rated player's side. */
struct glicko_game {
	double	opp_rating;	/* the opponent's r at the period's start */
	double	opp_rd;		/* and RD */
	double	score;		/* 1 win, 0.5 draw, 0 loss (or any in 0..1) */
};

/*
 * Constants of the system. tau limits how fast the volatility changes
 * (the paper: 0.3 to 1.2); epsilon ends the volatility iteration; max_rd,
 * when not 0, caps the RD where it grows (step 6 before a period's games,
 * and when a player is idle), so an absent player is never less known
 * than a new one; an RD already above the cap is kept, never lowered.
 * The paper has no cap: max_rd 0 follows it to the letter.
 */
struct glicko_config {
	double	tau;
	double	epsilon;
	double	max_rd;
};

/* Intermediate quantities of an update (Glicko-2 scale), for checking. */
struct glicko_steps {
	double	v;		/* step 3: estimated variance */
	double	delta;		/* step 4: estimated improvement */
	double	sigma;		/* step 5: new volatility */
	double	phi_star;	/* step 6: pre-period deviation */
	double	mu;		/* step 7: new mu */
	double	phi;		/* step 7: new phi */
	unsigned iterations;	/* step 5: Illinois iterations */
};

/* Errors of this module; glicko_strerror() describes each. */
enum glicko_error {
	GLICKO_OK = 0,
	GLICKO_ERATING,		/* rating, RD or volatility not usable */
	GLICKO_EOPPONENT,	/* an opponent's rating or RD not usable */
	GLICKO_ESCORE,		/* a score outside 0..1 */
	GLICKO_ECONFIG,		/* tau, epsilon or max_rd not usable */
	GLICKO_ECONVERGE,	/* the volatility iteration did not end */
};

/* Describe an error for a person (a constant string). */
const char	*glicko_strerror(enum glicko_error);

/* Give the defaults: tau 0.5, epsilon 0.000001, max_rd 350. */
struct glicko_config glicko_config_default(void);

/* Give a new player's rating: 1500, 350, 0.06. */
struct glicko_rating glicko_rating_new(void);

/* Convert a rating to the Glicko-2 scale (step 2). */
struct glicko2_rating glicko_to2(const struct glicko_rating *);

/* Convert a rating back to the Glicko scale (step 8). */
struct glicko_rating glicko_from2(const struct glicko2_rating *);

/*
 * Rate a player's `ngames` games of one period (steps 2 to 8) into *out
 * (which may be `player`); fill *steps when it is not NULL. With no games
 * this is glicko_idle() for one period. cfg NULL means the defaults. On
 * error *out is left alone.
 */
enum glicko_error glicko_update(const struct glicko_rating *player,
		    const struct glicko_game *games, size_t ngames,
		    const struct glicko_config *cfg, struct glicko_rating *out,
		    struct glicko_steps *steps);

/*
 * Grow the RD of a player who played no game for `periods` periods:
 * phi' = sqrt(phi^2 + periods sigma^2), rating and volatility unchanged,
 * capped at cfg->max_rd. cfg NULL means the defaults.
 */
enum glicko_error glicko_idle(const struct glicko_rating *player,
		    unsigned periods, const struct glicko_config *cfg,
		    struct glicko_rating *out);

#endif /* CORRCHESS_EVENT_GLICKO_H */
