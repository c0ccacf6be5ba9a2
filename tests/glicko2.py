#!/usr/bin/env python3
# tests/glicko2.py: Glicko-2 written apart from src/event, for the tests.
# corrchess - a correspondence chess server
# Copyright (C) 2026 The corrchess developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Mark E. Glickman, "Example of the Glicko-2 system" (2012), steps 1 to 8,
# written from the paper for tests/events.sh so that the daemon's ratings
# are checked against a second implementation. It first checks itself
# against the paper's worked example, then reads games on standard input,
# one a line, in the order they ended:
#     AT WHITE BLACK SCORE        (SCORE: white's, 1, 0.5 or 0)
# and prints each player's rating after them, best first:
#     NAME RATING RD VOLATILITY GAMES
# Each game is a rating period for its two players, from their values
# before it; a player's deviation first grows by one period of volatility
# per whole PERIOD seconds since their last game. As corrchess documents,
# a deviation never grows past the new player's (350) where it grows.
# Arguments: TAU PERIOD.

import math
import sys

SCALE = 173.7178
NEW = (1500.0, 350.0, 0.06)
CAP = 350.0 / SCALE
EPS = 0.000001


def g(phi):
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expect(mu, mu_j, phi_j):
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def grow(phi, add):
    """Step 6 (and idleness): phi grown by `add`, never past the cap."""
    if phi > CAP:
        return phi
    return min(math.sqrt(phi * phi + add), CAP)


def rate(r, rd, sigma, games, tau, cap=True):
    """Steps 2 to 8 for one player: games are (r_j, rd_j, s_j)."""
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    opp = [((rj - 1500) / SCALE, rdj / SCALE, s) for rj, rdj, s in games]
    v = 1 / sum(g(pj) ** 2 * expect(mu, mj, pj) * (1 - expect(mu, mj, pj))
                for mj, pj, s in opp)
    total = sum(g(pj) * (s - expect(mu, mj, pj)) for mj, pj, s in opp)
    delta = v * total
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) /
                (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPS:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    if cap:
        phi_star = grow(phi, new_sigma * new_sigma)
    else:
        phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * total
    return SCALE * new_mu + 1500, SCALE * new_phi, new_sigma


def main():
    # The paper's example: 1500/200/0.06 against three players, tau 0.5:
    # r' = 1464.06, RD' = 151.52 (from mu' and phi' rounded to 4 places,
    # so within 173.7178 x 0.00005 + 0.005), sigma' = 0.05999 (cut, not
    # rounded, after 5 places).
    r, rd, sigma = rate(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0),
                                          (1700, 300, 0)], 0.5, cap=False)
    slack = SCALE * 0.00005 + 0.005
    if abs(r - 1464.06) > slack or abs(rd - 151.52) > slack or \
            not 0.05999 <= sigma < 0.06:
        sys.exit("glicko2.py: the paper's example gives %r" % ((r, rd,
                                                                sigma),))
    tau, period = float(sys.argv[1]), int(sys.argv[2])
    players = {}
    for line in sys.stdin:
        at, white, black, score = line.split()
        at, score = int(at), float(score)
        before = {}
        for p in (white, black):
            pr, prd, psig, n, last = players.get(p, NEW + (0, at))
            periods = max(0, (at - last) // period)
            if n > 0 and periods > 0:
                prd = grow(prd / SCALE, periods * psig * psig) * SCALE
            before[p] = (pr, prd, psig, n)
        for p, q, s in ((white, black, score), (black, white, 1 - score)):
            pr, prd, psig, n = before[p]
            qr, qrd = before[q][0], before[q][1]
            nr, nrd, nsig = rate(pr, prd, psig, [(qr, qrd, s)], tau)
            players[p] = (nr, nrd, nsig, n + 1, at)
    for p, (r, rd, sigma, n, at) in sorted(players.items(),
                                           key=lambda kv: -kv[1][0]):
        print("%s %.6f %.6f %.8f %d" % (p, r, rd, sigma, n))


main()
