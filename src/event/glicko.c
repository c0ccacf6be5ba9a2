/*
 * event/glicko.c: Glicko-2 rating updates (Glickman 2012).
 *
 * corrchess - a correspondence chess server
 * Copyright (C) 2026 The corrchess developers
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation, either version 3 of the License, or (at your option)
 * any later version. See the file COPYING.
 */

#include <math.h>

#include "event/glicko.h"

/* Bounds of the iterations of step 5 (the paper's converge in a few). */
#define GLICKO_MAX_ITERATIONS	1000
#define GLICKO_MAX_BRACKET	10000

#define GLICKO_PI		3.14159265358979323846

/* Describe an error for a person. */
const char *
glicko_strerror(enum glicko_error err)
{
	switch (err) {
	case GLICKO_OK:
		return "no error";
	case GLICKO_ERATING:
		return "the rating must be a number, its deviation and volatility positive numbers";
	case GLICKO_EOPPONENT:
		return "an opponent's rating must be a number and its deviation a number not below 0";
	case GLICKO_ESCORE:
		return "a game's score must be between 0 (loss) and 1 (win)";
	case GLICKO_ECONFIG:
		return "the rating system needs tau and epsilon above 0 and a maximum deviation not below 0";
	case GLICKO_ECONVERGE:
		return "the volatility computation did not converge";
	}
	return "unknown rating error";
}

/* Give the defaults: tau 0.5, epsilon 0.000001, max_rd 350. */
struct glicko_config
glicko_config_default(void)
{
	struct glicko_config	cfg = {
		.tau = GLICKO_DEFAULT_TAU,
		.epsilon = GLICKO_DEFAULT_EPSILON,
		.max_rd = GLICKO_NEW_RD,
	};

	return cfg;
}

/* Give a new player's rating: 1500, 350, 0.06. */
struct glicko_rating
glicko_rating_new(void)
{
	struct glicko_rating	r = {
		.rating = GLICKO_NEW_RATING,
		.rd = GLICKO_NEW_RD,
		.volatility = GLICKO_NEW_VOLATILITY,
	};

	return r;
}

/* Convert a rating to the Glicko-2 scale (step 2). */
struct glicko2_rating
glicko_to2(const struct glicko_rating *r)
{
	struct glicko2_rating	g = {
		.mu = (r->rating - GLICKO_BASE) / GLICKO_SCALE,
		.phi = r->rd / GLICKO_SCALE,
		.sigma = r->volatility,
	};

	return g;
}

/* Convert a rating back to the Glicko scale (step 8). */
struct glicko_rating
glicko_from2(const struct glicko2_rating *g)
{
	struct glicko_rating	r = {
		.rating = GLICKO_SCALE * g->mu + GLICKO_BASE,
		.rd = GLICKO_SCALE * g->phi,
		.volatility = g->sigma,
	};

	return r;
}

/* Check a configuration. */
static enum glicko_error
glicko_config_check(const struct glicko_config *cfg)
{
	if (!isfinite(cfg->tau) || cfg->tau <= 0 ||
	    !isfinite(cfg->epsilon) || cfg->epsilon <= 0 ||
	    !isfinite(cfg->max_rd) || cfg->max_rd < 0)
		return GLICKO_ECONFIG;
	return GLICKO_OK;
}

/* Check a player's rating. */
static enum glicko_error
glicko_rating_check(const struct glicko_rating *r)
{
	if (!isfinite(r->rating) || !isfinite(r->rd) || r->rd <= 0 ||
	    !isfinite(r->volatility) || r->volatility <= 0)
		return GLICKO_ERATING;
	return GLICKO_OK;
}

/*
 * Cap a grown deviation `phi` (Glicko-2 scale) at cfg->max_rd when it has
 * one, but never below the deviation `was` it grew from.
 */
static double
glicko_cap(double phi, double was, const struct glicko_config *cfg)
{
	double	cap = cfg->max_rd / GLICKO_SCALE;

	if (cfg->max_rd == 0)
		return phi;
	if (cap < was)
		cap = was;
	return phi > cap ? cap : phi;
}

/* Compute the function g of step 3. */
static double
glicko_g(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO_PI * GLICKO_PI));
}

/* Compute the expected score E of step 3. */
static double
glicko_e(double mu, double mu_j, double phi_j)
{
	return 1.0 / (1.0 + exp(-glicko_g(phi_j) * (mu - mu_j)));
}

/* Compute the function f of step 5, whose root is ln(sigma'^2). */
static double
glicko_f(double x, double delta, double phi, double v, double a, double tau)
{
	double	ex = exp(x), d = phi * phi + v + ex;

	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
	    (x - a) / (tau * tau);
}

/*
 * Step 5: the new volatility, by the Illinois algorithm (regula falsi
 * with the retained end's value halved) as the paper gives it.
 */
static enum glicko_error
glicko_volatility(double sigma, double phi, double v, double delta,
    const struct glicko_config *cfg, double *out, unsigned *iterations)
{
	double		a, fa, fb, fc, A, B, C, tau = cfg->tau;
	unsigned	k, i;

	/* (1) */
	a = log(sigma * sigma);
	/* (2) the bracket [A, B] */
	A = a;
	if (delta * delta > phi * phi + v)
		B = log(delta * delta - phi * phi - v);
	else {
		for (k = 1; glicko_f(a - k * tau, delta, phi, v, a, tau) < 0;
		    k++)
			if (k >= GLICKO_MAX_BRACKET)
				return GLICKO_ECONVERGE;
		B = a - k * tau;
	}
	/* (3) */
	fa = glicko_f(A, delta, phi, v, a, tau);
	fb = glicko_f(B, delta, phi, v, a, tau);
	/* (4) */
	for (i = 0; fabs(B - A) > cfg->epsilon; i++) {
		if (i >= GLICKO_MAX_ITERATIONS)
			return GLICKO_ECONVERGE;
		C = A + (A - B) * fa / (fb - fa);
		fc = glicko_f(C, delta, phi, v, a, tau);
		if (fc * fb <= 0) {
			A = B;
			fa = fb;
		} else
			fa /= 2.0;
		B = C;
		fb = fc;
	}
	/* (5) */
	*out = exp(A / 2.0);
	*iterations = i;
	return GLICKO_OK;
}

/* Rate a player's games of one period (steps 2 to 8). */
enum glicko_error
glicko_update(const struct glicko_rating *player,
    const struct glicko_game *games, size_t ngames,
    const struct glicko_config *cfg, struct glicko_rating *out,
    struct glicko_steps *steps)
{
	struct glicko_config	defaults = glicko_config_default();
	struct glicko2_rating	p, next;
	struct glicko_rating	next1;
	enum glicko_error	err;
	double			g, e, mu_j, vinv = 0, sum = 0, v, delta;
	double			sigma, phi_star, phi, mu;
	unsigned		iterations = 0;
	size_t			j;

	if (cfg == NULL)
		cfg = &defaults;
	if ((err = glicko_config_check(cfg)) != GLICKO_OK ||
	    (err = glicko_rating_check(player)) != GLICKO_OK)
		return err;
	for (j = 0; j < ngames; j++) {
		if (!isfinite(games[j].opp_rating) ||
		    !isfinite(games[j].opp_rd) || games[j].opp_rd < 0)
			return GLICKO_EOPPONENT;
		if (!(games[j].score >= 0 && games[j].score <= 1))
			return GLICKO_ESCORE;
	}
	if (ngames == 0) {
		/* No games: only the deviation grows (steps 6 and 8). */
		if ((err = glicko_idle(player, 1, cfg, &next1)) != GLICKO_OK)
			return err;
		if (steps != NULL) {
			p = glicko_to2(&next1);
			steps->v = steps->delta = 0;
			steps->sigma = p.sigma;
			steps->phi_star = steps->phi = p.phi;
			steps->mu = p.mu;
			steps->iterations = 0;
		}
		*out = next1;
		return GLICKO_OK;
	}

	/* Step 2. */
	p = glicko_to2(player);

	/* Steps 3 and 4: v and the sum that gives delta. */
	for (j = 0; j < ngames; j++) {
		mu_j = (games[j].opp_rating - GLICKO_BASE) / GLICKO_SCALE;
		g = glicko_g(games[j].opp_rd / GLICKO_SCALE);
		e = glicko_e(p.mu, mu_j, games[j].opp_rd / GLICKO_SCALE);
		vinv += g * g * e * (1.0 - e);
		sum += g * (games[j].score - e);
	}
	v = 1.0 / vinv;
	delta = v * sum;

	/* Step 5. */
	err = glicko_volatility(p.sigma, p.phi, v, delta, cfg, &sigma,
	    &iterations);
	if (err != GLICKO_OK)
		return err;

	/* Step 6. */
	phi_star = glicko_cap(sqrt(p.phi * p.phi + sigma * sigma), p.phi,
	    cfg);

	/* Step 7. */
	phi = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	mu = p.mu + phi * phi * sum;

	if (steps != NULL) {
		steps->v = v;
		steps->delta = delta;
		steps->sigma = sigma;
		steps->phi_star = phi_star;
		steps->mu = mu;
		steps->phi = phi;
		steps->iterations = iterations;
	}

	/* Step 8. */
	next.mu = mu;
	next.phi = phi;
	next.sigma = sigma;
	*out = glicko_from2(&next);
	return GLICKO_OK;
}

/* Grow the RD of a player who played no game for `periods` periods. */
enum glicko_error
glicko_idle(const struct glicko_rating *player, unsigned periods,
    const struct glicko_config *cfg, struct glicko_rating *out)
{
	struct glicko_config	defaults = glicko_config_default();
	struct glicko2_rating	p;
	enum glicko_error	err;

	if (cfg == NULL)
		cfg = &defaults;
	if ((err = glicko_config_check(cfg)) != GLICKO_OK ||
	    (err = glicko_rating_check(player)) != GLICKO_OK)
		return err;
	p = glicko_to2(player);
	p.phi = glicko_cap(sqrt(p.phi * p.phi +
	    (double)periods * p.sigma * p.sigma), p.phi, cfg);
	*out = glicko_from2(&p);
	return GLICKO_OK;
}
