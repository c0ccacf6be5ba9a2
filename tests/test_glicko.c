/*
 * tests/test_glicko.c: tests of the Glicko-2 rating updates.
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
 * Glickman's worked example ("Example of the Glicko-2 system"), step by
 * step against his published digits; the growth of an idle player's RD,
 * the cap and its exceptions; symmetry (equal players, a draw leaves the
 * ratings alone, a win moves both by the same amount); the scale
 * conversions; the other branch of the volatility bracket; tau; errors.
 */

#include "testutil.h"

#include <math.h>

#include "event/glicko.h"

/* |a - b| <= tol, with both values in the failure message. */
#define assert_near(a, b, tol) do {					\
	double a_ = (a), b_ = (b);					\
	if (!(fabs(a_ - b_) <= (tol)))					\
		fail_msg("%s = %.9f, expected %.9f (within %g)",	\
		    #a, a_, b_, (double)(tol));					\
} while (0)

/* Half a unit of the 4th decimal: the paper prints 4 decimals. */
#define D4	0.00005

/* The example's player and games (the paper's table). */
static const struct glicko_rating example_player = { 1500, 200, 0.06 };
static const struct glicko_game example_games[] = {
	{ 1400, 30, 1 },
	{ 1550, 100, 0 },
	{ 1700, 300, 0 },
};

/*
 * The worked example, tau = 0.5. The paper prints v = 1.7785,
 * Delta = -0.4834, sigma' = 0.05999, mu' = -0.2069, phi' = 0.8722, and
 * r' = 1464.06, RD' = 151.52.
 *
 * v and Delta: the paper works them out from g and E rounded to 4 and 3
 * decimals (g = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303), and
 * those rounded values give exactly v = 1.7785067 and Delta = -0.4833916.
 * Unrounded, E = 0.6394677, 0.4318424, 0.3028407 and v = 1.7789771,
 * Delta = -0.4839333 (worked out by hand to 7 places), what the code must
 * give; the paper's digits are then within 0.0006 of them.
 *
 * sigma': the paper's 0.05999 is the value cut (not rounded) after 5
 * decimals; the iteration gives 0.0599960 (checked by hand to 7 places,
 * from the unrounded v and Delta and from the paper's rounded ones alike).
 *
 * r' and RD': the paper computes them from the rounded mu' and phi'
 * (173.7178 x -0.2069 + 1500 = 1464.06), so they may be off by
 * 173.7178 x 0.00005 (the rounding of mu', phi') + 0.005 (their own
 * rounding) = 0.0137 from the printed values.
 */
static void
test_worked_example(void **state)
{
	struct glicko_config	cfg = glicko_config_default();
	struct glicko_rating	out;
	struct glicko_steps	s;
	struct glicko2_rating	p;

	(void)state;
	/* Step 2: mu = 0, phi = 1.1513. */
	p = glicko_to2(&example_player);
	assert_near(p.mu, 0, 1e-12);
	assert_near(p.phi, 1.1513, D4);

	cfg.tau = 0.5;
	assert_int_equal(glicko_update(&example_player, example_games, 3, &cfg,
	    &out, &s), GLICKO_OK);
	assert_near(s.v, 1.7789771, 0.0000001);
	assert_near(s.delta, -0.4839333, 0.0000001);
	assert_near(s.v, 1.7785, 0.0006);
	assert_near(s.delta, -0.4834, 0.0006);
	assert_true(s.sigma >= 0.05999 && s.sigma < 0.06000);
	assert_near(s.sigma, 0.0599960, 0.0000001);
	/* Step 6: phi* = sqrt(1.1512932^2 + 0.0599960^2) = 1.1528547. */
	assert_near(s.phi_star, 1.1528547, 0.0000001);
	assert_near(s.mu, -0.2069, D4);
	assert_near(s.phi, 0.8722, D4);
	assert_true(s.iterations > 0 && s.iterations < 50);

	assert_near(out.rating, 1464.06, 173.7178 * D4 + 0.005);
	assert_near(out.rd, 151.52, 173.7178 * D4 + 0.005);
	assert_near(out.volatility, 0.0599960, 0.0000001);
	/* Step 8 is exactly the scale conversion of step 7's values. */
	assert_near(out.rating, 173.7178 * s.mu + 1500, 1e-9);
	assert_near(out.rd, 173.7178 * s.phi, 1e-9);
	assert_near(out.volatility, s.sigma, 0);

	/* The same without the RD cap (the paper has none), and NULL cfg. */
	cfg.max_rd = 0;
	assert_int_equal(glicko_update(&example_player, example_games, 3, &cfg,
	    &out, NULL), GLICKO_OK);
	assert_near(out.rating, 1464.06, 173.7178 * D4 + 0.005);
	assert_int_equal(glicko_update(&example_player, example_games, 3, NULL,
	    &out, NULL), GLICKO_OK);
	assert_near(out.rd, 151.52, 173.7178 * D4 + 0.005);

	/* In place: out may be the player. */
	out = example_player;
	assert_int_equal(glicko_update(&out, example_games, 3, NULL, &out,
	    NULL), GLICKO_OK);
	assert_near(out.rating, 1464.06, 173.7178 * D4 + 0.005);
}

/*
 * A period without games. By hand: phi = 200 / 173.7178 = 1.1512932,
 * phi^2 = 1.3254760, sigma^2 = 0.0036, phi' = sqrt(1.3290760) = 1.1528556,
 * RD' = 173.7178 x 1.1528556 = 200.2714; rating and volatility unchanged.
 * Three periods: sqrt(1.3254760 + 0.0108) = 1.1559740, RD' = 200.8131.
 */
static void
test_idle(void **state)
{
	struct glicko_config	cfg = glicko_config_default();
	struct glicko_rating	one, two, twice, three, out, r;
	struct glicko_steps	s;

	(void)state;
	assert_int_equal(glicko_idle(&example_player, 1, NULL, &one),
	    GLICKO_OK);
	assert_near(one.rd, 200.2714, 0.0001);
	assert_near(one.rating, 1500, 0);
	assert_near(one.volatility, 0.06, 0);
	assert_int_equal(glicko_idle(&example_player, 3, NULL, &three),
	    GLICKO_OK);
	assert_near(three.rd, 200.8131, 0.0001);

	/* Two periods at once = one period twice; zero periods = nothing. */
	assert_int_equal(glicko_idle(&example_player, 2, NULL, &two),
	    GLICKO_OK);
	assert_int_equal(glicko_idle(&one, 1, NULL, &twice), GLICKO_OK);
	assert_near(two.rd, twice.rd, 1e-9);
	assert_int_equal(glicko_idle(&example_player, 0, NULL, &out),
	    GLICKO_OK);
	assert_near(out.rd, 200, 1e-9);

	/* An update without games is one idle period. */
	assert_int_equal(glicko_update(&example_player, NULL, 0, NULL, &out,
	    &s), GLICKO_OK);
	assert_near(out.rd, one.rd, 1e-12);
	assert_near(out.rating, 1500, 0);
	assert_near(s.phi, one.rd / 173.7178, 1e-12);
	assert_int_equal(s.iterations, 0);

	/* The cap: 340 grows to 350 and stops there, after many periods. */
	r.rating = 1800;
	r.rd = 340;
	r.volatility = 0.06;
	assert_int_equal(glicko_idle(&r, 1000, &cfg, &out), GLICKO_OK);
	assert_near(out.rd, 350, 1e-9);
	assert_near(out.rating, 1800, 0);
	/* ... without a cap it goes on: sqrt(phi^2 + 1000 x 0.0036). */
	cfg.max_rd = 0;
	assert_int_equal(glicko_idle(&r, 1000, &cfg, &out), GLICKO_OK);
	assert_near(out.rd, 173.7178 * sqrt(pow(340 / 173.7178, 2) + 3.6),
	    1e-9);
	assert_true(out.rd > 450);
	/* ... and an RD already above the cap is kept, not lowered. */
	cfg.max_rd = 350;
	r.rd = 400;
	assert_int_equal(glicko_idle(&r, 5, &cfg, &out), GLICKO_OK);
	assert_near(out.rd, 400, 1e-9);
}

/* Equal players: a draw changes no rating, a win moves both alike. */
static void
test_symmetry(void **state)
{
	struct glicko_rating	a = { 1500, 200, 0.06 }, b = a;
	struct glicko_rating	a2, b2;
	struct glicko_game	ga = { 1500, 200, 0.5 }, gb = ga;
	double			gain;

	(void)state;
	assert_int_equal(glicko_update(&a, &ga, 1, NULL, &a2, NULL),
	    GLICKO_OK);
	assert_int_equal(glicko_update(&b, &gb, 1, NULL, &b2, NULL),
	    GLICKO_OK);
	assert_near(a2.rating, 1500, 1e-9);
	assert_near(b2.rating, 1500, 1e-9);
	assert_near(a2.rd, b2.rd, 1e-12);
	assert_true(a2.rd < 200);	/* a game tells something */
	assert_near(a2.volatility, b2.volatility, 1e-15);

	/* a beats b: a gains what b loses. */
	ga.score = 1;
	gb.score = 0;
	assert_int_equal(glicko_update(&a, &ga, 1, NULL, &a2, NULL),
	    GLICKO_OK);
	assert_int_equal(glicko_update(&b, &gb, 1, NULL, &b2, NULL),
	    GLICKO_OK);
	assert_true(a2.rating > 1500);
	assert_near(a2.rating - 1500, 1500 - b2.rating, 1e-9);
	assert_near(a2.rd, b2.rd, 1e-9);
	gain = a2.rating - 1500;

	/* Mirror images around 1500: 1600 beats 1400 and 1400 loses. */
	a.rating = 1600;
	b.rating = 1400;
	ga.opp_rating = 1400;
	gb.opp_rating = 1600;
	assert_int_equal(glicko_update(&a, &ga, 1, NULL, &a2, NULL),
	    GLICKO_OK);
	assert_int_equal(glicko_update(&b, &gb, 1, NULL, &b2, NULL),
	    GLICKO_OK);
	assert_near(a2.rating - 1600, 1400 - b2.rating, 1e-9);
	/* The expected winner gains less than in the even game above. */
	assert_true(a2.rating - 1600 > 0 && a2.rating - 1600 < gain);
}

/* Convert between the Glicko and Glicko-2 scales, both ways. */
static void
test_scale(void **state)
{
	struct glicko_rating	r = { 1850, 50, 0.07 }, back, n;
	struct glicko2_rating	g;

	(void)state;
	g = glicko_to2(&r);
	assert_near(g.mu, 350 / 173.7178, 1e-12);
	assert_near(g.phi, 50 / 173.7178, 1e-12);
	assert_near(g.sigma, 0.07, 0);
	back = glicko_from2(&g);
	assert_near(back.rating, 1850, 1e-9);
	assert_near(back.rd, 50, 1e-9);
	assert_near(back.volatility, 0.07, 0);

	n = glicko_rating_new();
	assert_near(n.rating, 1500, 0);
	assert_near(n.rd, 350, 0);
	assert_near(n.volatility, 0.06, 0);
	g = glicko_to2(&n);
	assert_near(g.mu, 0, 0);
	assert_near(g.phi, 2.0148, D4);	/* the paper's new player: 2.0148 */
}

/*
 * A well-known player who beats ten far stronger ones: Delta^2 exceeds
 * phi^2 + v, the other start of step 5's bracket. The volatility must
 * rise, and rise less with a smaller tau.
 */
static void
test_surprise(void **state)
{
	struct glicko_rating	p = { 1500, 50, 0.06 }, out_big, out_small;
	struct glicko_game	g[10];
	struct glicko_config	cfg = glicko_config_default();
	struct glicko_steps	s;
	int			i;

	(void)state;
	for (i = 0; i < 10; i++) {
		g[i].opp_rating = 2300;
		g[i].opp_rd = 30;
		g[i].score = 1;
	}
	cfg.tau = 1.2;
	assert_int_equal(glicko_update(&p, g, 10, &cfg, &out_big, &s),
	    GLICKO_OK);
	assert_true(s.delta * s.delta > pow(50 / 173.7178, 2) + s.v);
	assert_true(out_big.volatility > 0.06);
	assert_true(out_big.rating > 1500);
	cfg.tau = 0.3;
	assert_int_equal(glicko_update(&p, g, 10, &cfg, &out_small, NULL),
	    GLICKO_OK);
	assert_true(out_small.volatility > 0.06);
	assert_true(out_small.volatility < out_big.volatility);
}

/* Unusable values are refused with a reason and leave *out alone. */
static void
test_errors(void **state)
{
	struct glicko_rating	p = example_player, out = { 1, 2, 3 };
	struct glicko_game	g = { 1400, 30, 1 };
	struct glicko_config	cfg = glicko_config_default();
	int			e;

	(void)state;
	p.rd = 0;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_ERATING);
	assert_int_equal(glicko_idle(&p, 1, NULL, &out), GLICKO_ERATING);
	p.rd = 200;
	p.volatility = -0.06;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_ERATING);
	p.volatility = 0.06;
	p.rating = NAN;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_ERATING);
	p.rating = 1500;

	g.score = 1.5;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_ESCORE);
	g.score = NAN;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_ESCORE);
	g.score = 0;
	g.opp_rd = -1;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_EOPPONENT);
	g.opp_rd = 30;
	g.opp_rating = INFINITY;
	assert_int_equal(glicko_update(&p, &g, 1, NULL, &out, NULL),
	    GLICKO_EOPPONENT);
	g.opp_rating = 1400;

	cfg.tau = 0;
	assert_int_equal(glicko_update(&p, &g, 1, &cfg, &out, NULL),
	    GLICKO_ECONFIG);
	cfg.tau = 0.5;
	cfg.epsilon = 0;
	assert_int_equal(glicko_idle(&p, 1, &cfg, &out), GLICKO_ECONFIG);
	cfg.epsilon = 0.000001;
	cfg.max_rd = -1;
	assert_int_equal(glicko_update(&p, &g, 1, &cfg, &out, NULL),
	    GLICKO_ECONFIG);
	assert_near(out.rating, 1, 0);
	assert_near(out.rd, 2, 0);

	for (e = GLICKO_OK; e <= GLICKO_ECONVERGE; e++)
		assert_true(strlen(glicko_strerror((enum glicko_error)e)) > 0);
	assert_string_equal(glicko_strerror((enum glicko_error)77),
	    "unknown rating error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_symmetry),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_surprise),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
