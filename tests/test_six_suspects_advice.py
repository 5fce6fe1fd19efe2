"""6 Suspects advice: the joint counts and the expectimax values against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.six_suspects.advice import advise, look_values, one_look_values
from models.six_suspects.counter import joint, tally
from models.six_suspects.ending import stage
from models.six_suspects.log import Log, Seen
from models.six_suspects.posterior import count
from models.six_suspects.rules import SLOTS, load_deck, resolve

DECK = load_deck()
CARD = {c.name: c for c in DECK.cards}


def completions(seen):
    """Every full layout extending `seen`, with its culprit set (brute force)."""
    free = [s for s in range(12) if s not in seen]
    rest = [c for c in DECK.cards if c not in seen.values()]
    for order in itertools.permutations(rest):
        layout = {**seen, **dict(zip(free, order, strict=True))}
        yield layout, resolve(tuple(layout[s] for s in range(12)), DECK)[1]


def brute_value(seen, horizon: int) -> Fraction:
    """Expectimax by definition: V0 = best vote probability; VH = max over slots of the mean over
    the card seen there of V(H-1)."""
    worlds = list(completions(seen))
    if horizon == 0 or len(seen) == 12:
        return Fraction(max(sum(c in cul for _, cul in worlds) for c in range(6)), len(worlds))
    return max(brute_look(seen, slot, horizon) for slot in range(12) if slot not in seen)


def brute_look(seen, slot, horizon) -> Fraction:
    rest = [c for c in DECK.cards if c not in seen.values()]
    return sum(brute_value({**seen, slot: card}, horizon - 1) for card in rest) / len(rest)


@st.composite
def states(draw, least: int, most: int):
    k = draw(st.integers(least, most))
    slots = draw(st.permutations(range(12)))[:k]
    cards = draw(st.permutations(DECK.cards))[:k]
    return dict(zip(slots, cards, strict=True))


@given(states(6, 10))
def test_joint_counts_equal_counts_of_the_child_states(seen):
    t = tally(DECK, seen)
    unseen = [c for c in DECK.cards if c not in seen.values()]
    table = joint(t)
    assert [c.name for c in t.placed.unseen] == [c.name for c in unseen]
    for k, slot in enumerate(t.placed.free):
        for ci, card in enumerate(unseen):
            assert list(table[k, ci]) == count(DECK, {**seen, slot: card}).culprit


@given(states(7, 10))
def test_one_look_values_are_exact(seen):
    _, values, _ = look_values(DECK, seen, 1)
    for slot, value in values.items():
        assert value == brute_look(seen, slot, 1)


@settings(max_examples=10)
@given(states(8, 10))
def test_two_look_values_are_exact(seen):
    _, values, _ = look_values(DECK, seen, 2)
    for slot, value in values.items():
        assert value == brute_look(seen, slot, 2)


def log_of(seen: dict, looks: dict, announced=None, me="Ana") -> Log:
    facts = [Seen(i + 1, s, c) for i, (s, c) in enumerate(seen.items())]
    return Log(DECK, ["Ana", "Ben"], me, facts, len(facts), looks, announced)


def test_advice_on_the_worked_check():
    # A1 diamond, A2 3, B1 police, B2 5: Albert (p = 32,784 / 40,320) is the vote
    seen = {0: CARD["diamond"], 1: CARD["3"], 2: CARD["police"], 3: CARD["5"]}
    best = advise(log_of(seen, {"Ana": 4, "Ben": 3}), horizon=1)
    assert best.vote == [0] and best.p_vote == Fraction(32_784, 40_320)
    assert best.looks[0].value == max(brute_look(seen, s, 1) for s in range(4, 12))
    assert best.looks[0].value > best.p_vote  # a look can only help
    assert not best.announce  # Ben has looked only 3 times


def test_looks_left_follows_the_rules():
    def looks_left(log: Log) -> int:
        return stage(log).looks_left

    assert (
        looks_left(log_of({}, {"Ana": 1})) == 4
    )  # three to reach 4, and one after an announcement
    assert looks_left(log_of({}, {"Ana": 6})) == 1
    assert looks_left(log_of({}, {"Ana": 5}, announced="Ben")) == 1
    assert looks_left(log_of({}, {"Ana": 5}, announced="Ana")) == 0


def test_announce_when_certain():
    # A1 swap exchanges F1 (1) and B1 (3); C2 mirror copies C1 (5): C = 10 = 5 + 5 beats D's 9.5
    # (Diamond) whatever the three unseen cards (4, torches) do to B2, E1, E2
    named = {"A1": "swap", "A2": "2", "B1": "3", "C1": "5", "C2": "mirror", "D1": "diamond"}
    named |= {"D2": "0", "F1": "1", "F2": "police"}
    seen = {SLOTS.index(s): CARD[c] for s, c in named.items()}
    assert all(2 in culprits for _, culprits in completions(seen))
    best = advise(log_of(seen, {"Ana": 4, "Ben": 4}), horizon=1)
    assert best.vote == [2] and best.p_vote == 1
    assert best.announce and best.announce_reason == "you are certain"
    not_yet = advise(log_of(seen, {"Ana": 4, "Ben": 3}), horizon=1)
    assert not not_yet.announce  # Ben has not looked 4 times yet


@given(states(5, 9), st.integers(0, 5), st.booleans())
def test_symmetric_states_get_symmetric_answers(seen, turn, flip):
    # turning the table by whole columns, or swapping the rows, changes nothing in the rules
    def image(slot: int) -> int:
        return SLOTS.index(f"{'ABCDEF'[(slot // 2 + turn) % 6]}{(slot % 2 ^ flip) + 1}")

    moved = {image(s): c for s, c in seen.items()}
    counts, values, information = one_look_values(DECK, seen)
    counts2, values2, information2 = one_look_values(DECK, moved)
    assert counts2.culprit == [counts.culprit[(c - turn) % 6] for c in range(6)]
    assert counts2.culprit == count(DECK, moved).culprit
    assert {image(s): v for s, v in values.items()} == values2
    for s, bits in information.items():
        assert abs(information2[image(s)] - bits) < 1e-9


def slow_two_look_values(seen) -> dict[int, Fraction]:
    """Horizon 2 by counting every child state again (each child's joint counts are checked
    against brute force above)."""
    unseen = [c for c in DECK.cards if c not in seen.values()]
    values = {}
    for slot in range(12):
        if slot in seen:
            continue
        total = Fraction(0)
        for card in unseen:
            child = tally(DECK, {**seen, slot: card})
            table = joint(child)
            worlds = child.counts.worlds
            total += max(
                Fraction(int(table[k].max(axis=1).sum()), worlds) for k in range(len(table))
            )
        values[slot] = total / len(unseen)
    return values


@settings(max_examples=8)
@given(states(5, 7))
def test_two_look_values_match_counting_every_child_again(seen):
    _, values, _ = look_values(DECK, seen, 2)
    assert values == slow_two_look_values(seen)


def test_default_horizon_is_the_tablebases_reach_else_two_live():
    # the tablebase reaches k + H ≤ 5: every look of a game is valued, exactly
    one = advise(log_of({0: CARD["diamond"]}, {"Ana": 1, "Ben": 1}))
    assert one.requested == 4 and one.horizon == 4 and one.exact
    two = advise(log_of({0: CARD["diamond"], 5: CARD["2"]}, {"Ana": 2, "Ben": 2}))
    assert two.requested == 3 and two.horizon == 3 and two.exact
    # more looks than the rules give (told): the table's reach, a lower bound
    told = advise(log_of({0: CARD["diamond"], 5: CARD["2"]}, {"Ana": 2, "Ben": 2}), looks=5)
    assert told.requested == 5 and told.horizon == 3 and not told.exact
    last = advise(log_of({0: CARD["diamond"], 5: CARD["2"]}, {"Ana": 4, "Ben": 4}))
    assert last.requested == 1 and last.horizon == 1 and last.exact
    # a user deck has no tablebase: one look live while fewer than two cards are seen
    from dataclasses import replace

    from models.six_suspects.tablebase import reach

    assert reach(DECK, 1) == 4 and reach(replace(DECK, diamond2=DECK.diamond2 + 2), 1) == 0


@pytest.mark.long
def test_two_looks_from_nothing_seen_use_the_symmetry_exactly():
    # with nothing seen every slot is alike; the value of A1 is the mean over its 12 children
    _, values, _ = look_values(DECK, {}, 2)
    assert len(set(values.values())) == 1
    children = [max(look_values(DECK, {0: card}, 1)[1].values()) for card in DECK.cards]
    assert values[0] == sum(children, Fraction(0)) / 12


def test_a_horizon_past_the_looks_left_is_never_valued():
    """With one look left, asking for two values one (the second does not exist): exact, and
    the best slot's value is the brute force's one-look value."""
    seen = {0: CARD["diamond"], 1: CARD["3"], 2: CARD["police"], 3: CARD["5"]}
    best = advise(log_of(seen, {"Ana": 4, "Ben": 4}), horizon=2)
    assert best.requested == 1 and best.horizon == 1 and best.exact
    assert best.looks[0].value == max(one_look_values(DECK, seen)[1].values())
    told = advise(log_of(seen, {"Ana": 1, "Ben": 1}), horizon=2, looks=1)
    assert told.requested == 1 and told.horizon == 1 and told.exact
    none_left = advise(log_of(seen, {"Ana": 4, "Ben": 4}), looks=0)
    assert none_left.looks == [] and none_left.exact


@settings(max_examples=6, deadline=None)
@given(states(3, 8), st.integers(1, 5))
def test_values_short_of_the_looks_left_are_lower_bounds_and_say_so(seen, left):
    """Depth N of L looks left: not exact, and each value is at most the same look's value
    with one more look valued (more looks never hurt); with every look left valued, exact."""
    best = advise(log_of(seen, {"Ana": 1, "Ben": 1}), looks=left)
    remaining = min(left, 12 - len(seen))
    assert best.exact == (best.horizon == remaining)
    one = advise(log_of(seen, {"Ana": 1, "Ben": 1}), horizon=1, looks=left)
    assert one.horizon == 1 and one.exact == (remaining == 1)
    if remaining >= 2:
        _, two, _ = look_values(DECK, seen, 2)
        assert all(look.value <= two[look.slot] for look in one.looks)
