"""Statistics the benchmarks share."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``wins`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def z_for(confidence: float) -> float:
    """The two-sided normal quantile of a ``confidence`` interval (1.96 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def looks_z(looks: int, confidence: float = 0.95) -> float:
    """The z of a ``confidence`` interval that stays valid over ``looks`` looks at growing data.

    A sequential test that stops as soon as an interval clears its bound gets more than one chance to be
    wrong; splitting the error between the looks (Bonferroni) keeps the chance of any wrong verdict at
    most ``1 - confidence``: each look uses a ``1 - (1 - confidence) / looks`` interval.
    """
    return z_for(1 - (1 - confidence) / max(looks, 1))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of per-game ``values`` (shares, in [0, 1]) and its normal interval, kept inside [0, 1]:
    (mean, low, high)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = math.fsum(values) / n
    if n == 1:
        return mean, 0.0, 1.0
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], z: float = 1.96
) -> tuple[float, float, float]:
    """A ratio of sums over games (say, turns a kind was taken / turns it was offered) with an interval
    that treats the game as the unit: turns of one game are not independent, so a binomial interval
    over turns would be too narrow. The ratio estimator's delta-method variance: (ratio, low, high)."""
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total == 0:
        return 0.0, 0.0, 1.0
    ratio = math.fsum(numerators) / total
    if n == 1:
        return ratio, 0.0, 1.0
    mean_den = total / n
    residual = math.fsum((x - ratio * y) ** 2 for x, y in zip(numerators, denominators, strict=True))
    half = z * math.sqrt(residual / (n - 1) / n) / mean_den
    return ratio, max(0.0, ratio - half), min(1.0, ratio + half)
