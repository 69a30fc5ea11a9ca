"""Glicko-2, as Glickman describes it in "Example of the Glicko-2 system" (glicko.net), with
the parameters and the conventions lichess uses, so players and bots see the numbers they
expect:

- a new rating is r = 1500, RD = 500, σ = 0.09, and the system constant τ is 0.75;
- every rated game is its own rating period: both players are updated right after it, each
  from the values both had before it (``update`` with one result);
- a whole day without a rated game is one empty rating period (``idle``): RD grows;
- RD stays within [45, 500]; a rating is provisional while RD > 110.

Pure arithmetic (no I/O): the ratings service applies it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: μ = (r - 1500) / SCALE, φ = RD / SCALE
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
PROVISIONAL_DEVIATION = 110.0
CONVERGENCE = 0.000001  # ε of the volatility iteration (Glickman's step 5)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """As a player reads it: ``1742?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _clamped(deviation: float) -> float:
    return min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as Glickman gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    clamp: bool = True,
) -> Rating:
    """The player's rating after one rating period of ``results`` (opponent before the
    period, score: 1 win, 0.5 draw, 0 loss). No results: an empty period (``idle``)."""
    if not results:
        return idle(player, 1, clamp=clamp)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        expected = _expected(mu, mu_j, phi_j)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _volatility(phi, player.volatility, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    deviation = phi_new * SCALE
    return Rating(
        mu_new * SCALE + DEFAULT_RATING, _clamped(deviation) if clamp else deviation, sigma
    )


def idle(player: Rating, periods: int, *, clamp: bool = True) -> Rating:
    """The rating after ``periods`` empty rating periods: only RD grows (step 6 alone)."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    sigma = player.volatility
    deviation = math.sqrt(phi * phi + periods * sigma * sigma) * SCALE
    return Rating(player.rating, _clamped(deviation) if clamp else deviation, sigma)


def game(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players after one rated game (its own rating period), each from the values
    both had before it."""
    return (
        update(first, [(second, first_score)]),
        update(second, [(first, 1.0 - first_score)]),
    )
