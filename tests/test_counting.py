"""solver.counting: distinct-representative counts and set partitions, against brute force."""

from __future__ import annotations

import math
from fractions import Fraction
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


@given(
    st.integers(0, 5).flatmap(
        lambda columns: st.lists(
            st.lists(
                st.lists(st.integers(0, 9), min_size=3, max_size=3),
                min_size=columns,
                max_size=columns,
            ),
            max_size=6,
        ).map(lambda rows: np.array(rows, dtype=np.int8).reshape(len(rows), columns, 3))
    )
)
def test_together_sums_the_columns(counts):
    """card_tables.together (a column at a time) against numpy's sum over the middle axis."""
    from solver.card_tables import together

    for dtype in (np.int64, np.int16):
        found = together(counts, dtype)
        assert found.dtype == dtype
        assert found.tolist() == counts.astype(np.int64).sum(axis=1).tolist()


def linked_table(values: list[list[int]], links: list[int]) -> Table:
    """A one-hand table of no cards whose rows carry these link values."""
    return Table(
        ["h"],
        Partition(),
        [],
        np.zeros((len(values), 1, 0), np.int8),
        np.ones(len(values), np.int64),
        links,
        np.array(values, dtype=np.int32).reshape(len(values), len(links)),
    )


@given(
    st.lists(st.integers(1, 4), max_size=3, unique=True).flatmap(
        lambda links: st.tuples(
            st.just(links),
            st.lists(
                st.lists(st.integers(0, 3), min_size=len(links), max_size=len(links)), max_size=8
            ),
            st.lists(st.integers(1, 4), max_size=3, unique=True),
            st.data(),
        )
    )
)
def test_matched_rows_counts_the_pairs_agreeing_on_shared_links(case):
    """card_tables.matched_rows against counting every pair of rows by hand."""
    from solver.card_tables import matched_rows

    links_a, values_a, links_b, data = case
    values_b = data.draw(
        st.lists(
            st.lists(st.integers(0, 3), min_size=len(links_b), max_size=len(links_b)), max_size=8
        )
    )
    a, b = linked_table(values_a, links_a), linked_table(values_b, links_b)
    shared = [x for x in links_a if x in links_b]
    expected = sum(
        all(ra[links_a.index(x)] == rb[links_b.index(x)] for x in shared)
        for ra in values_a
        for rb in values_b
    )
    assert matched_rows(a, b) == expected


def marginal(found, hand: str) -> dict[tuple[int, ...], Fraction]:
    """The posterior of one hand's counts, from a contraction's asked table."""
    table, sums = found.table, {}
    for counts, weight in zip(
        table.counts[:, table.column(hand), :].tolist(), found.weights, strict=True
    ):
        sums[tuple(counts)] = sums.get(tuple(counts), 0) + weight
    total = sum(sums.values())
    return {k: Fraction(w, total) for k, w in sums.items() if w}


two_cards = st.sampled_from([[0, 2], [1, 1], [2, 0]])  # a hand of two cards over two groups


@settings(max_examples=100, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["", "p", "q", "pq"]), min_size=10, max_size=10),
    a_rows=st.lists(
        st.tuples(st.lists(two_cards, min_size=3, max_size=3), st.integers(1, 5)),
        min_size=1,
        max_size=6,
    ),
    b_rows=st.lists(st.tuples(two_cards, st.integers(1, 5)), min_size=1, max_size=4),
    links=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=6, max_size=6),
)
def test_a_table_with_its_other_hands_apart_gives_each_hand_the_same_posterior(
    kinds, a_rows, b_rows, links
):
    """Table.apart (a hand, and its table's other hands summed together) leaves that hand's
    exact posterior as it is: a table of three hands told apart by one predicate, linked to a
    table told apart by another (so the sum splits both finer), asked with and without it."""
    from solver.card_tables import contract, group_sizes

    supply = [f"c{i}" for i in range(10)]
    attributes = {c: frozenset(k) for c, k in zip(supply, kinds, strict=True)}
    p, q = Partition(frozenset("p")), Partition(frozenset("q"))
    keys_p, keys_q = (
        list(group_sizes(p, supply, attributes)),
        list(group_sizes(q, supply, attributes)),
    )
    assume(len(keys_p) == 2 and len(keys_q) == 2)
    a = Table(
        ["h0", "h1", "h2"],
        p,
        keys_p,
        np.array([rows for rows, _ in a_rows], dtype=np.int8),
        np.array([w for _, w in a_rows], dtype=np.int64),
        [1],
        np.array([[links[i][0]] for i in range(len(a_rows))], dtype=np.int32),
    )
    b = Table(
        ["g"],
        q,
        keys_q,
        np.array([[row] for row, _ in b_rows], dtype=np.int8),
        np.array([w for _, w in b_rows], dtype=np.int64),
        [1],
        np.array([[links[i][1]] for i in range(len(b_rows))], dtype=np.int32),
    )
    whole = contract([a, b], supply, attributes, 0)
    assume(whole.total > 0)
    for hand in a.hands:
        apart = a.apart(hand)
        assert apart.hands == [hand, ""]
        assert marginal(contract([apart, b], supply, attributes, 0), hand) == marginal(whole, hand)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.integers(0, 2),
    st.integers(0, 2**31),
    st.sampled_from([1, 7, 1 << 22]),
    st.sampled_from([0, 64]),
)
def test_reaching_lists_the_pairs_that_agree_and_fit(states, rows, links, seed, block, few):
    """The turn's pairs block by block (a block split into chunks, or all at once when the
    blocks are many) are the pairs `_matching` lists that the guard bits let through, with
    the same keys reached, and each state's pairs side by side."""
    import solver.card_tables as tables

    rng = np.random.default_rng(seed)
    state_match = rng.integers(0, 3, (states, links))
    row_match = rng.integers(0, 3, (rows, links))
    fields = tables._Fields([3, 2], [])
    none = np.zeros((states, 0), np.int64)
    state_keys = fields.state_keys(rng.integers(0, [4, 3], (states, 2)), none)
    row_keys = fields.row_keys(rng.integers(0, [4, 3], (rows, 2)), np.zeros((rows, 0), np.int64))
    s, r = tables._matching(state_match, row_match)
    reach = state_keys[s] + row_keys[r]
    fits = fields.affordable(reach)
    expected = sorted(zip(s[fits].tolist(), r[fits].tolist(), reach[fits].tolist(), strict=True))
    old = tables.BLOCK_PAIRS, tables.FEW_BLOCKS
    tables.BLOCK_PAIRS, tables.FEW_BLOCKS = block, few
    try:
        got = tables._reaching(state_match, row_match, state_keys, row_keys, fields.guard_mask)
    finally:
        tables.BLOCK_PAIRS, tables.FEW_BLOCKS = old
    found = list(zip(*(part.tolist() for part in got), strict=True))
    assert sorted(found) == expected
    firsts = [i for i in range(len(found)) if i == 0 or found[i][0] != found[i - 1][0]]
    assert len(firsts) == len({pair[0] for pair in found})  # one run per state
