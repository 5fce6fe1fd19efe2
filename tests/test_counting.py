"""solver.counting: distinct-representative counts and set partitions, against brute force."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.card_tables import Partition, Table, compositions
from solver.counting import count_distinct_tuples, set_partitions, size

small_sets = st.lists(
    st.frozensets(st.integers(min_value=0, max_value=6), max_size=6), min_size=0, max_size=5
)


def brute_distinct(sets: list[frozenset[int]]) -> int:
    return sum(1 for t in product(*sets) if len(set(t)) == len(t))


@given(small_sets)
def test_count_distinct_tuples_matches_brute_force(sets):
    assert count_distinct_tuples(sets) == brute_distinct(sets)


@given(small_sets)
def test_bitmasks_count_like_frozensets(sets):
    masks = [sum(1 << x for x in s) for s in sets]
    assert [size(m) for m in masks] == [size(s) for s in sets] == [len(s) for s in sets]
    assert count_distinct_tuples(masks) == count_distinct_tuples(sets)


@given(small_sets, st.randoms(use_true_random=False))
def test_count_distinct_tuples_ignores_the_order_of_the_sets(sets, rng):
    shuffled = list(sets)
    rng.shuffle(shuffled)
    assert count_distinct_tuples(shuffled) == count_distinct_tuples(sets)


@pytest.mark.parametrize(
    ("sets", "expected"),
    [
        ([], 1),  # the empty tuple
        ([frozenset()], 0),
        ([frozenset({1, 2, 3})], 3),
        ([frozenset({1, 2})] * 2, 2),  # (1,2), (2,1)
        ([frozenset({1, 2})] * 3, 0),  # pigeonhole
        ([frozenset(range(5))] * 3, 5 * 4 * 3),
        ([frozenset({1}), frozenset({1, 2}), frozenset({1, 2, 3})], 1),  # 1, 2, 3 forced
    ],
)
def test_count_distinct_tuples_by_hand(sets, expected):
    assert count_distinct_tuples(sets) == expected


@pytest.mark.parametrize(("n", "bell"), [(0, 1), (1, 1), (2, 2), (3, 5), (4, 15), (5, 52)])
def test_set_partitions_yields_bell_numbers_of_valid_distinct_partitions(n, bell):
    items = list(range(n))
    partitions = list(set_partitions(items))
    assert len(partitions) == bell
    canonical = set()
    for partition in partitions:
        assert all(block for block in partition)  # no empty block
        flat = [x for block in partition for x in block]
        assert sorted(flat) == items  # disjoint blocks covering every item exactly once
        canonical.add(frozenset(frozenset(block) for block in partition))
    assert len(canonical) == bell  # no partition repeated


@settings(max_examples=200, deadline=None)
@given(total=st.integers(0, 12), caps=st.lists(st.integers(0, 6), max_size=6))
def test_compositions_are_every_split_within_the_caps_in_order(total, caps):
    """card_tables.compositions against the obvious listing: every tuple within the caps that
    adds up to `total`, in lexicographic order."""
    expected = [t for t in product(*(range(c + 1) for c in caps)) if sum(t) == total]
    found = compositions(total, caps)
    assert found.shape == (len(expected), len(caps))
    assert [tuple(int(x) for x in row) for row in found] == expected


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda columns: st.integers(1, 4).flatmap(
            lambda classes: st.lists(
                st.lists(
                    st.lists(st.integers(0, 9), min_size=classes, max_size=classes),
                    min_size=columns,
                    max_size=columns,
                ),
                min_size=1,
                max_size=6,
            )
        )
    )
)
def test_ways_within_is_the_multinomial_of_each_class(rows):
    """Table.ways_within against factorials: per row, Π_class (Σ_column n)! / Π_column n!.
    Rows of at most 24 cards, as hands at a table hold (the ways then fit in int64)."""
    assume(all(sum(map(sum, row)) <= 24 for row in rows))
    columns, classes = len(rows[0]), len(rows[0][0])
    table = Table(
        [f"h{i}" for i in range(columns)],
        Partition(),
        [((), f"k{k}") for k in range(classes)],
        np.array(rows, dtype=np.int8),
        np.ones(len(rows), np.int64),
        [],
        np.zeros((len(rows), 0), np.int32),
    )
    expected = []
    for row in rows:
        ways = 1
        for k in range(classes):
            held = [row[c][k] for c in range(columns)]
            ways *= math.factorial(sum(held))
            for n in held:
                ways //= math.factorial(n)
        expected.append(ways)
    assert table.ways_within().tolist() == expected
