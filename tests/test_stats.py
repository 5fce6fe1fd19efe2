"""solver/stats.py: the tie shuffle keeps the ranking between values and permutes within them."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from solver.stats import shuffle_ties


@given(values=st.lists(st.integers(0, 3), max_size=12), seed=st.integers(0, 1000))
def test_ties_are_shuffled_within_equal_values_and_the_ranking_kept(values, seed):
    ranked = sorted(enumerate(values), key=lambda item: -item[1])  # (name, value), best first
    shuffled = shuffle_ties(ranked, lambda item: item[1], random.Random(seed))
    assert sorted(shuffled) == sorted(ranked)  # the same items
    assert [v for _, v in shuffled] == [v for _, v in ranked]  # each value where it was


def test_every_order_of_a_tie_comes_up():
    ranked = [("a", 2), ("b", 2), ("c", 2), ("d", 1)]
    orders = {
        tuple(name for name, _ in shuffle_ties(ranked, lambda item: item[1], random.Random(s)))
        for s in range(200)
    }
    assert {order[:3] for order in orders} == {
        ("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"),
        ("b", "c", "a"), ("c", "a", "b"), ("c", "b", "a"),
    }  # fmt: skip
    assert all(order[3] == "d" for order in orders)
