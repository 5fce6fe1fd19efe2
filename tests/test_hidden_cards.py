"""The generic hidden-card filter (solver/hidden_cards.py) against brute force over physical cards.

Random small decks (a few classes, several copies each), random places and random sequences of
the generic steps: a hidden uniform move, a move of a known class chosen by the holder (Bayes) or
forced, a swap of hidden choices, a place emptied into another, count filters. The brute force
deals every permutation of physical cards and follows every physical choice with probability
1/(cards to choose from); the filter's exact world distribution must equal it, with int64 keys
and with the byte keys used when a key would not fit.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from solver import hidden_cards
from solver.hidden_cards import HiddenCards

World = tuple[tuple[int, ...], ...]


def brute_deal(copies: list[int], capacity: list[int]) -> dict[tuple, Fraction]:
    """Every deal of the physical cards into the places (each equally likely), as worlds of
    physical cards."""
    cards = [(cls, i) for cls, n in enumerate(copies) for i in range(n)]
    found: dict[tuple, Fraction] = defaultdict(Fraction)

    def deal(rest: list, sizes: list[int], places: tuple) -> None:
        if not sizes:
            found[places] += 1
            return
        for chosen in itertools.combinations(rest, sizes[0]):
            left = [c for c in rest if c not in chosen]
            deal(left, sizes[1:], (*places, tuple(sorted(chosen))))

    deal(cards, capacity, ())
    return found


def brute_step(worlds: dict[tuple, Fraction], step: tuple) -> dict[tuple, Fraction]:
    kind = step[0]
    found: dict[tuple, Fraction] = defaultdict(Fraction)
    for world, p in worlds.items():
        places = [list(cards) for cards in world]
        if kind == "hidden":  # source gives a uniformly chosen physical card to target
            _, source, target = step
            for card in places[source]:
                new = [list(c) for c in places]
                new[source].remove(card)
                new[target].append(card)
                found[freeze(new)] += p / len(places[source])
        elif kind == "known":  # a card of class cls leaves source (chosen: weighed by choice)
            _, source, cls, chosen = step
            matching = [c for c in places[source] if c[0] == cls]
            for card in matching:
                new = [list(c) for c in places]
                new[source].remove(card)
                share = Fraction(1, len(places[source])) if chosen else Fraction(1, len(matching))
                found[freeze(new)] += p * share
        elif kind == "swap":
            _, first, second = step
            for a, b in itertools.product(places[first], places[second]):
                new = [list(c) for c in places]
                new[first].remove(a)
                new[second].remove(b)
                new[first].append(b)
                new[second].append(a)
                found[freeze(new)] += p / (len(places[first]) * len(places[second]))
        elif kind == "all":
            _, source, target = step
            new = [list(c) for c in places]
            new[target] += new[source]
            new[source] = []
            found[freeze(new)] += p
        elif kind == "count":
            _, place, classes, low, high = step
            n = sum(1 for c in places[place] if c[0] in classes)
            if low <= n <= high:
                found[world] += p
    return found


def freeze(places: list[list]) -> tuple:
    return tuple(tuple(sorted(cards)) for cards in places)


def classes_only(worlds: dict[tuple, Fraction]) -> dict[World, Fraction]:
    total = sum(worlds.values(), Fraction(0))
    merged: dict[World, Fraction] = defaultdict(Fraction)
    for world, p in worlds.items():
        merged[tuple(tuple(sorted(c for c, _ in cards)) for cards in world)] += p / total
    return dict(merged)


def apply(filter_: HiddenCards, step: tuple) -> None:
    kind = step[0]
    if kind == "hidden":
        filter_.move(step[1], step[2], None)
    elif kind == "known":
        filter_.move(step[1], None, step[2], step[3])
    elif kind == "swap":
        filter_.swap(step[1], step[2])
    elif kind == "all":
        filter_.move_all(step[1], step[2])
    else:
        filter_.count(step[1], step[2], step[3], step[4])


@st.composite
def games(draw, first: int = 1):
    rest = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    copies = [draw(st.integers(first, 3)), *rest]
    if sum(copies) > 7:  # keeps the brute force small
        copies = [copies[0], *[1] * len(rest)]
    cards = sum(copies)
    places = draw(st.integers(2, 3))
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=places - 1, max_size=places - 1)))
    capacity = [b - a for a, b in zip([0, *cuts], [*cuts, cards], strict=True)]
    steps = []
    sizes = list(capacity)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["hidden", "known", "swap", "all", "count"]))
        source = draw(st.integers(0, places - 1))
        target = (source + 1 + draw(st.integers(0, places - 2))) % places
        if kind in ("hidden", "known", "swap") and sizes[source] == 0:
            continue
        if kind == "swap" and sizes[target] == 0:
            continue
        if kind == "hidden":
            sizes[source] -= 1
            sizes[target] += 1
            steps.append(("hidden", source, target))
        elif kind == "known":
            sizes[source] -= 1
            cls = draw(st.integers(0, len(copies) - 1))
            steps.append(("known", source, cls, draw(st.booleans())))
        elif kind == "swap":
            steps.append(("swap", source, target))
        elif kind == "all":
            sizes[target] += sizes[source]
            sizes[source] = 0
            steps.append(("all", source, target))
        else:
            classes = frozenset(draw(st.sets(st.integers(0, len(copies) - 1), min_size=1)))
            low = draw(st.integers(0, 2))
            steps.append(("count", source, classes, low, low + draw(st.integers(0, 2))))
    return copies, capacity, steps


@pytest.mark.parametrize("byte_keys", [False, True])
@settings(deadline=None)
@given(game=games())
def test_filter_equals_brute_force(byte_keys, game):
    copies, capacity, steps = game
    original = hidden_cards.key_multipliers
    if byte_keys:
        hidden_cards.key_multipliers = lambda copies, places: None  # type: ignore[assignment]
    try:
        filter_ = HiddenCards(capacity, copies, copies)
    finally:
        hidden_cards.key_multipliers = original
    worlds = brute_deal(copies, capacity)
    for step in steps:
        apply(filter_, step)
        worlds = brute_step(worlds, step)
        if not worlds:
            assert filter_.worlds == 0
            return
        assert filter_.worlds_list() == classes_only(worlds), step


def relabel(worlds: dict[tuple, Fraction], label: dict[int, int]) -> dict[World, Fraction]:
    """Worlds of physical cards as worlds of the filter's classes (`label`: fine -> filter)."""
    total = sum(worlds.values(), Fraction(0))
    merged: dict[World, Fraction] = defaultdict(Fraction)
    for world, p in worlds.items():
        merged[tuple(tuple(sorted(label[c] for c, _ in cards)) for cards in world)] += p / total
    return dict(merged)


@settings(deadline=None)
@given(game=games(first=2), split=st.integers(1, 2), later=st.lists(st.integers(0, 2), max_size=2))
def test_refining_a_class_equals_telling_its_cards_apart_from_the_start(game, split, later):
    """Class 0's first `split` copies are a class of their own in the brute force all along; the
    filter sees one class until `refine`, and must then agree exactly."""
    copies, capacity, steps = game
    split = min(split, copies[0] - 1)
    fine = [split, copies[0] - split, *copies[1:]]  # fine class 0 is the part split off
    steps = [s for s in steps if s[0] != "known"]  # a card leaving unseen would blur the split
    filter_ = HiddenCards(capacity, copies, copies)
    worlds = brute_deal(fine, capacity)
    coarse = {0: 0, 1: 0, **{c + 1: c for c in range(1, len(copies))}}
    for step in steps:
        if step[0] == "count":  # counts of coarse classes, in fine classes for the brute force
            fine_classes = {f for f, c in coarse.items() if c in step[2]}
            worlds = brute_step(worlds, ("count", step[1], fine_classes, step[3], step[4]))
        else:
            worlds = brute_step(worlds, step)
        apply(filter_, step)
        if not worlds:
            return
    event("refined")
    new = filter_.refine(0, split, split)
    label = {0: new, 1: 0, **{c + 1: c for c in range(1, len(copies))}}
    assert filter_.worlds_list() == relabel(worlds, label)
    for place in later:  # a filter on the new class alone
        place %= len(capacity)
        filter_.count(place, {new}, 1, 9)
        worlds = brute_step(worlds, ("count", place, {0}, 1, 9))
        if not worlds:
            assert filter_.worlds == 0
            return
        assert filter_.worlds_list() == relabel(worlds, label)


def test_a_big_deal_keeps_exact_weights_beyond_int64():
    """69 interchangeable cards and one single over two places of 35: the multinomial weights
    exceed int64 (C(69, 34) ~ 1e20), so they are Python integers, and still exact."""
    filter_ = HiddenCards([35, 35], [1, 69], [1, 69])
    assert filter_.worlds == 2
    assert filter_.holds(0, 0) == Fraction(1, 2)
    filter_.move(0, 1, None)  # a hidden card from place 0 to place 1: the single follows w.p. 1/35
    assert filter_.holds(1, 0) == Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 35)
