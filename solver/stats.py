"""Small statistics for simulation reports."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T")


def shuffle_ties(ranked: list[T], value: Callable[[T], Hashable], rng: random.Random) -> list[T]:
    """`ranked` (best first) with each run of equal `value` in random order. A ranking breaks
    exact ties by name, hence by seat order: self-play bots that always took the first of equal
    choices all aimed at P1, and the seat's margin measured that, not the policy."""
    found: list[T] = []
    for _, tied in itertools.groupby(ranked, key=value):
        group = list(tied)
        rng.shuffle(group)
        found += group
    return found


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good even near 0 or 1 and for small n)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_and_se(values: list[Fraction]) -> tuple[Fraction, float]:
    """The mean of samples (exact) and its standard error sd / sqrt(n) (0 for one value)."""
    mean = sum(values, Fraction(0)) / len(values)
    spread = sum(((v - mean) ** 2 for v in values), Fraction(0)) / max(len(values) - 1, 1)
    return mean, math.sqrt(float(spread) / len(values))


@dataclass
class Margins:
    """A seat's per-round margins (its points minus the others' mean) as exact sums: picklable,
    the chunks' sums add up, and the mean and spread of all rounds come out exactly as from the
    whole list."""

    games: int = 0
    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    def __add__(self, other: Margins) -> Margins:
        return Margins(
            self.games + other.games, self.total + other.total, self.squares + other.squares
        )

    @classmethod
    def of(cls, margin: Fraction) -> Margins:
        return cls(1, margin, margin * margin)

    def interval(self, z: float = 1.96) -> tuple[float, float, float]:
        """(mean, low, high): the mean margin and its 95% normal interval from the spread."""
        mean = self.total / self.games
        variance = (self.squares - self.total * mean) / max(self.games - 1, 1)
        half = z * math.sqrt(variance) / math.sqrt(self.games)
        return float(mean), float(mean) - half, float(mean) + half
