"""Exact counting helpers: tuples of distinct representatives, by set partitions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from math import factorial
from operator import and_
from typing import TypeVar

SetLike = TypeVar("SetLike", frozenset, int)  # a frozenset, or a bitmask over a fixed universe


def size(items: frozenset | int) -> int:
    """Number of elements of a frozenset or of a bitmask."""
    return items.bit_count() if isinstance(items, int) else len(items)


def set_partitions(items: Sequence[int]) -> Iterable[list[list[int]]]:
    """Every partition of `items` into non-empty blocks (Bell(n) of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def count_distinct_tuples(sets: Sequence[SetLike]) -> int:
    """How many tuples (x1, ..., xn) with xi in sets[i] have pairwise different entries.

    The sets are frozensets or bitmasks (bit i = element i), all of one kind.

    Möbius inversion on the lattice of set partitions: sum over partitions p of the n positions of
    mu(p) * prod over blocks B of |intersection of sets[i] for i in B|, with
    mu(p) = prod over blocks of (-1)^(|B|-1) (|B|-1)!. Costs Bell(n) terms, exact for any sizes.
    """
    total = 0
    for partition in set_partitions(list(range(len(sets)))):
        term = 1
        for block in partition:
            common = reduce(and_, (sets[i] for i in block))
            term *= (-1) ** (len(block) - 1) * factorial(len(block) - 1) * size(common)
            if term == 0:
                break
        total += term
    return total
