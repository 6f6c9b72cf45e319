"""The statistics of a league: win shares and the Wilson score interval of a win rate.

A game's win is shared: when k players tie for the best total, each of them wins 1/k of it (so
the shares of every game add up to 1, and a seat's expected share by chance is 1/N). A win rate
is the sum of the shares over the games played; its 95 % interval is the Wilson score interval
(E. B. Wilson, 1927), which stays inside [0, 1] and behaves near 0 and 1 where the normal
approximation does not. With shared wins the successes are not whole numbers; the interval is
then computed from the observed rate as if it were a count of whole wins (a close approximation
when ties are few).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile: a two-sided 95 % interval


def shares(totals: Sequence[int]) -> list[float]:
    """Each player's share of the win: 1/k for each of the k players with the best total, else 0."""
    if not totals:
        return []
    best = max(totals)
    winners = sum(1 for t in totals if t == best)
    return [1.0 / winners if t == best else 0.0 for t in totals]


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes / trials` (default 95 %): (low, high).

    No trial says nothing: (0, 1)."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"a proportion needs 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    n = float(trials)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic z: P(|Z| >= |z|) = erfc(|z| / √2)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979), in the order given.

    The m p-values sorted ascending, p(1) <= … <= p(m): the j-th is adjusted to
    max over i <= j of (m − i + 1) p(i), capped at 1, so the adjusted values keep the order of the
    raw ones. Rejecting every hypothesis whose adjusted p is below α keeps the family-wise error
    rate at α under any dependence between the tests."""
    m = len(ps)
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda k: ps[k])):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def mean_sd(n: int, total: float, squares: float) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation (denominator n − 1) of n values from their sum and their
    sum of squares; (None, None) for no value, sd 0 for one. Exact sums (ints) give an exact
    variance before the square root: no cancellation."""
    if n <= 0:
        return None, None
    if n == 1:
        return float(total), 0.0
    var = (Fraction(squares) * n - Fraction(total) ** 2) / (n * (n - 1))
    return float(Fraction(total) / n), math.sqrt(max(0.0, float(var)))


def ratio_interval(n: int, a: int, b: int, aa: int, ab: int, bb: int,
                   z: float = Z95) -> tuple[float | None, float | None]:
    """The 95 % interval of a ratio of sums over n independent units, R = Σa / Σb (a mean over the
    seats of n games), by the delta method, as sim/paired.py does for a difference: with
    b̄ = Σb / n and u_i = (a_i − R b_i) / b̄, Var(R) ≈ Σ u_i² / (n (n − 1)), Σ u_i² from the exact
    sums Σa, Σb, Σa², Σab, Σb². (None, None) with fewer than 2 units or Σb = 0."""
    if n < 2 or b == 0:
        return None, None
    r = Fraction(a) / b
    mean_b = Fraction(b) / n
    uu = (aa - 2 * r * ab + r * r * bb) / (mean_b * mean_b)
    half = z * math.sqrt(max(0.0, float(uu / (n * (n - 1)))))
    return float(r) - half, float(r) + half
