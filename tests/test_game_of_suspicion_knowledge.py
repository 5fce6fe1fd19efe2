"""The CP-SAT model of Game of Suspicion must agree with the exact filter, and explain conflicts.

Hand-written 3-player logs (Ana is `me`) check concrete facts for every kind of step, and that a
contradictory log names exactly the events that clash. The support tests hold the two engines
together: the final worlds CP-SAT finds possible are exactly those the filter (`belief.py`) gives
positive probability, on the hand-written prefixes, on random small rounds of random steps, and
on prefixes of simulated 3-player games (whose true hidden world must stay possible).

Default deal: Ana holds 0 1 5 7, the shadow hand is 0 0 1 2, so Ben (4), Cleo (4), left (1) and
right (1) hide 0 0 1 1 1 3 4 6 8 9.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.game_of_suspicion import rules
from models.game_of_suspicion.belief import Belief, Impossible, track
from models.game_of_suspicion.knowledge import HandKnowledge, World
from models.game_of_suspicion.log import parse
from models.game_of_suspicion.simulate import random_game
from models.game_of_suspicion.steps import (
    Count,
    Guess,
    Hand,
    MiddleLook,
    Move,
    MoveAll,
    PutSmallest,
    Setup,
    Step,
    SumAbove,
    Swap,
)
from solver.logfile import Document

BEN, CLEO, LEFT, RIGHT = range(4)
DEAL = {"deal": {"hand": [0, 1, 5, 7], "shadow": [0, 0, 1, 2]}}
CARD_4 = {"play": {"by": "Cleo", "card": 4, "shown": {"Ana": [5, 7], "Ben": 0}}}
LOOK_LEFT_3 = {"look": {"slot": "left", "saw": 3, "put_back": 3}}


def setup_of(*events: dict, advanced: bool = False, aside: int | None = None) -> Setup:
    data: dict = {"game": "game-of-suspicion", "players": ["Ana", "Ben", "Cleo"], "me": "Ana"}
    data["options"] = {"turn_order": "free"}  # these logs test the cards, in any order
    if advanced:
        data["advanced"] = True
        events = ({"deal": {**events[0]["deal"], "aside": aside}}, *events[1:])
    round_ = parse(Document(data={**data, "events": list(events)})).round
    assert round_ is not None
    return round_.setup


def model(*events: dict, **options) -> HandKnowledge:
    return HandKnowledge(setup_of(*events, **options))


def filter_worlds(setup: Setup, steps: list[Step] | None = None) -> set[World]:
    """The worlds of positive probability in the exact filter (no world: the empty set)."""
    belief = Belief(setup)
    for step in setup.steps if steps is None else steps:
        belief.apply(step)
        if belief.worlds == 0:
            return set()
    return set(belief.worlds_list())


def candidates(sizes: list[int], hidden: Counter) -> set[World]:
    """Every way to deal the multiset `hidden` into places of the given sizes."""
    if not sizes:
        return {()} if not +hidden else set()
    found = set()
    for hand in set(itertools.combinations(sorted(hidden.elements()), sizes[0])):
        for rest in candidates(sizes[1:], hidden - Counter(hand)):
            found.add((hand, *rest))
    return found


def answers(found: list) -> set:
    return {answer for answer, _ in found}


# -- concrete facts, one kind of step at a time ------------------------------------------------------


def test_the_deal_alone_is_consistent_and_decides_nothing():
    knowledge = model(DEAL)
    assert knowledge.consistent() and knowledge.conflict() == []
    assert knowledge.certain_facts() == []
    assert len(knowledge.holder_answers(9)) == 2
    world = ((0, 0, 1, 1), (1, 3, 4, 6), (8,), (9,))
    assert knowledge.possible_world(world)
    assert not knowledge.possible_world(((0, 0, 1, 1, 1), (3, 4, 6), (8,), (9,)))  # sizes
    assert not knowledge.possible_world(((0, 0, 1, 1), (1, 3, 4, 6), (8,), (5,)))  # my 5


def test_card_4_counts_rule_out_high_cards():
    """Cleo plays the 4; Ben shows no card > 4, so his four cards come from 0 0 1 1 1 3."""
    knowledge = model(DEAL, CARD_4)
    assert set(knowledge.certain_facts()) == {
        "Ben holds a 1",  # only three of his candidates (0 0 3) are not 1s
        "Ben has no 6",
        "Ben has no 8",
        "Ben has no 9",
    }
    assert answers(knowledge.holder_answers(9, limit=5)) == {("Cleo",), ("left",), ("right",)}
    assert answers(knowledge.holder_answers(4, limit=5)) == {()}  # face up in front of Cleo
    hands, witnesses = zip(*knowledge.hand_answers(BEN, limit=20), strict=True)
    assert set(hands) == {(0, 0, 1, 1), (0, 0, 1, 3), (0, 1, 1, 1), (0, 1, 1, 3), (1, 1, 1, 3)}
    assert all(
        w["Ben"] == list(h) and len(w["Cleo"]) == 3 for h, w in zip(hands, witnesses, strict=True)
    )


def test_showing_nothing_high_then_giving_the_9_conflicts():
    """Ben shows no card > 4 (event 2) yet is the holder of the 9 Ana names (event 4)."""
    knowledge = model(
        DEAL,
        CARD_4,
        {"look": {"by": "Cleo", "slot": "right", "exchanged": True}},  # not involved
        {"play": {"card": 1, "named": 9, "holder": "Ben", "gave": 0}},
    )
    assert not knowledge.consistent()
    assert knowledge.conflict() == [2, 4]
    assert knowledge.hand_answers(BEN) == [] and knowledge.certain_facts() == []
    assert knowledge.consistent(active=[2, 3]) and knowledge.consistent(active=[3, 4])


def test_card_1_moves_the_named_card_and_one_back():
    knowledge = model(DEAL, {"play": {"card": 1, "named": 9, "holder": "Ben", "gave": 0}})
    assert "Ben holds a 0" in knowledge.certain_facts()  # the 0 Ana gave back
    assert answers(knowledge.holder_answers(9)) == {()}  # unique: in Ana's hand now
    nobody = model(DEAL, {"play": {"by": "Ben", "card": 1, "named": 8, "holder": "none"}})
    assert answers(nobody.holder_answers(8, limit=5)) == {("Ben",), ("left",), ("right",)}
    assert "Cleo has no 8" in nobody.certain_facts()


def test_middle_look_exchanged_takes_the_seen_card():
    """Ana saw a 3 at left; Ben looks there and exchanges: he holds the 3, left holds one of
    his other cards. Kept: left still holds the 3."""
    exchanged = model(DEAL, LOOK_LEFT_3, {"look": {"by": "Ben", "slot": "left", "exchanged": True}})
    assert {"Ben holds a 3", "left has no 3"} <= set(exchanged.certain_facts())
    left = answers(exchanged.hand_answers(LEFT, limit=10))
    assert left == {(0,), (1,), (4,), (6,), (8,), (9,)}
    kept = model(DEAL, LOOK_LEFT_3, {"look": {"by": "Ben", "slot": "left", "exchanged": False}})
    assert answers(kept.hand_answers(LEFT, limit=10)) == {(3,)}


def test_middle_look_conflict_needs_three_events():
    """Left is 3 (event 2), Ben exchanges there (3), and Ana sees a 3 there again (4): only
    all three clash (without event 2, Ben may have put the 3 down)."""
    knowledge = model(
        DEAL,
        LOOK_LEFT_3,
        {"look": {"by": "Ben", "slot": "left", "exchanged": True}},
        {"look": {"slot": "left", "saw": 3, "put_back": 3}},
    )
    assert knowledge.conflict() == [2, 3, 4]


def test_card_0_swap_moves_one_card_each_way():
    """Ben had no 6, 8, 9 (event 2); after Ana's 0 between Ben and Cleo he holds at most one."""
    swapped = [DEAL, CARD_4, {"play": {"card": 0, "between": ["Ben", "Cleo"]}}]
    knowledge = model(*swapped)
    assert knowledge.consistent()
    holders = answers(knowledge.holder_answers(9, limit=5))
    assert ("Ben",) in holders  # Cleo may have given it
    two_high = {"fact": {"player": "Ben", "count": {"of": [6, 8, 9], "is": 2}}}
    assert model(*swapped, two_high).conflict() == [2, 4]


def test_card_6_puts_up_the_smallest_card():
    """Cleo's smallest card is a 3: her four cards are the four hidden cards above 1."""
    knowledge = model(DEAL, {"play": {"by": "Ben", "card": 6, "face_up": {"Ana": 0, "Cleo": 3}}})
    found = knowledge.hand_answers(CLEO)
    assert [hand for hand, _ in found] == [(4, 8, 9)]
    assert found[0][1]["Cleo"] == [4, 8, 9]
    assert len(knowledge.hand_answers(CLEO, active=[])) == 2  # forgetting the event: not unique
    has_a_1 = {"fact": {"player": "Cleo", "has": [1]}}
    contradiction = model(
        DEAL, has_a_1, {"play": {"by": "Ben", "card": 6, "face_up": {"Ana": 0, "Cleo": 3}}}
    )
    assert contradiction.conflict() == [2, 3]


def test_card_2_sums():
    """Shadow 0 0 1 3: Ben (4 cards from 0 0 1 1 1 4 6 8 9) declines: he sums to 10 or less."""
    deal = {"deal": {"hand": [0, 1, 5, 7], "shadow": [0, 0, 1, 3]}}
    declined = model(deal, {"play": {"by": "Cleo", "card": 2, "showed": ["Ana"]}})
    assert declined.possible_world(((0, 1, 1, 8), (0, 1, 4), (6,), (9,)))  # 10
    assert not declined.possible_world(((1, 1, 1, 8), (0, 0, 4), (6,), (9,)))  # 11
    showed = model(deal, {"play": {"by": "Cleo", "card": 2, "showed": ["Ana", "Ben"]}})
    assert showed.possible_world(((1, 1, 1, 8), (0, 0, 4), (6,), (9,)))
    assert not showed.possible_world(((0, 1, 1, 8), (0, 1, 4), (6,), (9,)))


ADVANCED_DEAL = {"deal": {"hand": [0, 1, 5, 7], "shadow": [0, 0, 1, 3]}}  # aside 2: 10 hidden


def test_guesses_name_the_10_as_0_and_1():
    wrong = model(
        ADVANCED_DEAL,
        {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 1, 1, 4, 6], "correct": False}},
        advanced=True,
        aside=2,
    )
    assert not wrong.possible_world(((1, 4, 6, 10), (0, 0, 1, 1), (8,), (9,)))
    assert wrong.possible_world(((0, 1, 4, 6), (0, 1, 1, 10), (8,), (9,)))
    right = [
        ADVANCED_DEAL,
        {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 1, 4, 6, 8], "correct": True}},
    ]
    knowledge = model(*right, advanced=True, aside=2)
    assert knowledge.final_hidden() == Counter({0: 2, 1: 3, 9: 1})
    assert answers(knowledge.holder_answers(10)) == {()}  # shown with Ben's hand
    lacks_10 = {"fact": {"player": "Ben", "lacks": [10]}}
    assert model(right[0], lacks_10, right[1], advanced=True, aside=2).conflict() == [2, 3]


def test_card_8_takes_the_middle_and_puts_one_card_down():
    knowledge = model(DEAL, {"play": {"by": "Ben", "card": 8}})
    assert answers(knowledge.holder_answers(8, limit=5)) == {("Ben",), ("left",)}
    assert knowledge.size == [5, 4, 1, 0]  # Ben: 4 - the 8 + the 8 + 2 middle cards - 1
    assert answers(knowledge.hand_answers(RIGHT)) == {()}


def test_generic_move_and_show():
    knowledge = model(
        DEAL,
        {"move": {"from": "Ben", "to": "Cleo"}},
        {"show": {"player": "Cleo", "cards": [9], "to": ["Ana"]}},
    )
    assert answers(knowledge.holder_answers(9, limit=5)) == {("Cleo",)}
    assert "Cleo holds a 9" in knowledge.certain_facts()


def test_a_look_that_rules_out_every_world():
    """Ana saw a 0 at left (event 2) and Ben shows four 0s (3): every 0 is placed, so Ben cannot
    put back a different value at left (4). Both engines must name the clash, not crash."""
    setup = setup_of(
        {"deal": {"hand": [1, 5, 7, 9], "shadow": [1, 1, 2, 3]}},
        {"look": {"slot": "left", "saw": 0, "put_back": 0}},
        {"fact": {"player": "Ben", "hand": [0, 0, 0, 0]}},
        {"look": {"by": "Ben", "slot": "left", "exchanged": True}},
    )
    assert HandKnowledge(setup).conflict() == [2, 3, 4]
    with pytest.raises(Impossible) as error:
        track(setup)
    assert error.value.event == 4


# -- support: CP-SAT's possible final worlds are the filter's ----------------------------------------

PREFIXES = {
    "deal": [DEAL],
    "card 4": [DEAL, CARD_4],
    "card 4 and 6": [
        DEAL,
        CARD_4,
        {"play": {"by": "Ben", "card": 6, "face_up": {"Ana": 0, "Cleo": 1}}},
    ],
    "card 1": [DEAL, CARD_4, {"play": {"card": 1, "named": 9, "holder": "Cleo", "gave": 0}}],
    "looks": [
        DEAL,
        LOOK_LEFT_3,
        {"look": {"by": "Ben", "slot": "left", "exchanged": True}},
        {"look": {"by": "Cleo", "slot": "right", "exchanged": False}},
        {"look": {"by": "Cleo", "slot": "left", "exchanged": True}},
    ],
    "swap": [DEAL, CARD_4, {"play": {"card": 0, "between": ["Ben", "Cleo"]}}],
    "card 0 with me": [
        DEAL,
        {"play": {"by": "Cleo", "card": 0, "between": ["Ana", "Ben"], "gave": 5, "got": 3}},
        {"play": {"by": "Ben", "card": 5, "shown": {"Ana": [], "Cleo": 1}}},
    ],
    "card 8": [DEAL, {"play": {"by": "Ben", "card": 8}}],
    "contradiction": [DEAL, CARD_4, {"play": {"card": 1, "named": 9, "holder": "Ben", "gave": 0}}],
}


@pytest.mark.parametrize("events", PREFIXES.values(), ids=PREFIXES.keys())
def test_possible_final_worlds_are_the_filter_support(events):
    setup = setup_of(*events)
    expected = filter_worlds(setup)
    knowledge = HandKnowledge(setup)
    assert knowledge.possible_worlds() == expected
    assert knowledge.consistent() == bool(expected)
    hidden = knowledge.final_hidden()
    assert hidden is not None
    every = candidates(knowledge.size, +hidden)
    assert expected <= every
    # possible_world costs one solve: all candidates when few, else a sample of each side
    rng = random.Random(len(every))
    inside = sorted(expected)
    outside = sorted(every - expected)
    if len(every) > 60:
        inside = rng.sample(inside, min(15, len(inside)))
        outside = rng.sample(outside, min(15, len(outside)))
    assert all(knowledge.possible_world(world) for world in inside)
    assert not any(knowledge.possible_world(world) for world in outside)


# -- random small rounds: random steps from a true deal, some observations false --------------------

NAMES = ["Ben", "Cleo", "Dan", "left", "right"]


@st.composite
def rounds(draw: st.DrawFn) -> Setup:
    """A small round: 2-3 hands of 1-3 cards and 0-2 middle cards from a deck of 0s, 1s and a few
    single cards (the 10 among them), spare cards "in my hand", any options of the probability
    model and of card 6's ranking, and 1-6 random steps chosen from a true deal so that most
    observations are true and some are false."""
    copies = Counter({0: draw(st.integers(1, 3)), 1: draw(st.integers(1, 2))})
    singles = draw(st.lists(st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10]), min_size=2, max_size=4))
    copies.update(set(singles))
    hands = draw(st.integers(2, 3))
    slots = draw(st.integers(0, 2))
    capacity = [draw(st.integers(1, 3)) for _ in range(hands)]
    while sum(capacity) + slots > copies.total():  # the deck holds at least 4 cards
        if max(capacity) > 1:
            capacity[capacity.index(max(capacity))] -= 1
        else:
            slots -= 1
    capacity += [1] * slots
    deck = draw(st.permutations(list(copies.elements())))
    hidden_cards, mine = deck[: sum(capacity)], list(deck[sum(capacity) :])
    places = NAMES[:hands] + ["left", "right"][:slots]
    unit = draw(st.sampled_from(rules.OPTIONS["choice_unit"]))
    announce = draw(st.sampled_from(rules.OPTIONS["announce_model"]))
    ten = draw(st.sampled_from(rules.OPTIONS["card6_ten_rank"]))
    setup = Setup(places, capacity, Counter(hidden_cards), copies, unit, announce, ten)
    truth, start = [], 0
    for size in capacity:
        truth.append(list(hidden_cards[start : start + size]))
        start += size
    for event in range(1, draw(st.integers(1, 6)) + 1):
        step = draw(steps(event, truth, mine, hands, slots, sorted(copies), ten))
        if step is not None:
            setup.steps.append(step)
    return setup


def take(draw: st.DrawFn, cards: list[int]) -> int:
    value = draw(st.sampled_from(sorted(cards)))
    cards.remove(value)
    return value


@st.composite
def steps(draw, event, truth, mine, hands, slots, values, ten="zero") -> Step | None:
    """One random step, applied to `truth` (the true hidden places) and `mine` (known cards)."""
    lie = draw(st.integers(0, 3)) == 0  # about one observation in four may be false
    held = [p for p in range(len(truth)) if truth[p]]
    hand_places = list(range(hands))
    kind = draw(st.sampled_from(["move", "give", "moveall", "swap", "look", "smallest", "filter"]))
    if kind == "move" and held:
        source = draw(st.sampled_from(held))
        target = draw(st.sampled_from([None, *hand_places]))
        if target == source:
            target = None
        value = take(draw, truth[source])
        known = target is None or draw(st.booleans())
        if lie and known:
            value = draw(st.sampled_from(values))
        if target is None:
            mine.append(value)
        else:
            truth[target].append(value)
        return Move(event, source, target, value if known else None, draw(st.booleans()))
    if kind == "give" and mine:
        target = draw(st.sampled_from(hand_places))
        truth[target].append(take(draw, mine))
        return Move(event, None, target, truth[target][-1])
    if kind == "moveall" and slots:
        source, target = hands + draw(st.integers(0, slots - 1)), draw(st.sampled_from(hand_places))
        truth[target] += truth[source]
        truth[source].clear()
        return MoveAll(event, source, target)
    if kind == "swap" and len([p for p in hand_places if truth[p]]) >= 2:
        first, second = draw(st.permutations([p for p in hand_places if truth[p]]))[:2]
        a, b = take(draw, truth[first]), take(draw, truth[second])
        truth[first].append(b)
        truth[second].append(a)
        return Swap(event, first, second)
    if kind == "look" and [s for s in range(hands, hands + slots) if len(truth[s]) == 1]:
        slot = draw(st.sampled_from([s for s in range(hands, hands + slots) if len(truth[s]) == 1]))
        hand = draw(st.sampled_from(hand_places))
        taken = truth[slot].pop()
        truth[hand].append(taken)
        back = take(draw, truth[hand])
        truth[slot].append(back)
        return MiddleLook(event, hand, slot, (back != taken) != lie)
    if kind == "smallest" and held:
        place = draw(st.sampled_from(held))
        low = min(rules.rank(v, ten) for v in truth[place])
        tied = {v for v in truth[place] if rules.rank(v, ten) == low}
        value = draw(st.sampled_from(sorted(tied)))
        if lie:
            value = draw(st.sampled_from(sorted(set(truth[place]))))
        truth[place].remove(value)
        mine.append(value)
        return PutSmallest(event, place, value)
    return draw(filters(event, truth, values, lie))


@st.composite
def filters(draw, event, truth, values, lie) -> Step:
    """An observation of one hidden place with random parameters: its outcome is the true one
    (or, when `lie`, the false one)."""
    place = draw(st.sampled_from(range(len(truth))))
    cards = sorted(truth[place])
    kind = draw(st.sampled_from(["count", "sum", "hand", "guess"]))
    if kind == "count":
        chosen = frozenset(draw(st.lists(st.sampled_from(values), min_size=1, max_size=3)))
        n = sum(1 for v in cards if v in chosen)
        low = draw(st.integers(0, 2))
        high = low + draw(st.integers(0, 2))
        return Count(event, place, chosen, low, high, (low <= n <= high) == lie)
    if kind == "sum":
        limit = draw(st.integers(0, 12))
        total = sum(rules.points(v) for v in cards)
        return SumAbove(event, place, limit, (total > limit) != lie)
    if kind == "hand":
        shown = list(cards)
        if shown and draw(st.booleans()):
            shown[draw(st.integers(0, len(shown) - 1))] = draw(st.sampled_from(values))
        return Hand(event, place, tuple(sorted(shown)), (sorted(shown) == cards) != lie)
    numbers = sorted(rules.guess_numbers(cards).elements())
    if numbers and draw(st.booleans()):
        numbers[draw(st.integers(0, len(numbers) - 1))] = draw(st.integers(0, 9))
    right = Counter(numbers) == rules.guess_numbers(cards)
    return Guess(event, place, tuple(sorted(numbers)), right != lie)


@given(rounds())
def test_random_rounds_agree_with_the_filter(setup):
    expected = filter_worlds(setup)
    knowledge = HandKnowledge(setup)
    assert knowledge.possible_worlds() == expected
    assert knowledge.consistent() == bool(expected)
    if not expected:
        conflict = knowledge.conflict()
        assert conflict and set(conflict) <= {step.event for step in setup.steps}
        return
    hidden = knowledge.final_hidden()
    assert hidden is not None
    outside = sorted(candidates(knowledge.size, +hidden) - expected)
    for world in sorted(expected)[:3] + outside[:3]:
        assert knowledge.possible_world(world) == (world in expected)
    place = len(setup.places) - 1
    hands = {world[place] for world in expected}
    if len(hands) <= 8:
        assert answers(knowledge.hand_answers(place, limit=len(hands) + 1)) == hands


# -- simulated 3-player games -------------------------------------------------------------------------

FEW_WORLDS = 30  # up to this many, CP-SAT lists every possible final world (one solve each)


@settings(max_examples=max(10, settings().max_examples // 2))
@given(seed=st.integers(0, 2**32 - 1), events=st.integers(2, 16))
def test_simulated_prefixes_agree_with_the_filter(seed, events):
    rng = random.Random(seed)
    doc, truths = random_game(rng, players=3, me="P1", events=events)
    round_ = parse(Document(data=doc)).round
    assert round_ is not None
    setup = round_.setup
    expected = filter_worlds(setup)
    knowledge = HandKnowledge(setup)
    truth = tuple(truths[-1][place] for place in setup.places)
    assert truth in expected
    assert knowledge.consistent() and knowledge.conflict() == []
    assert knowledge.possible_world(truth)
    if len(expected) <= FEW_WORLDS:
        assert knowledge.possible_worlds(limit=len(expected) + 1) == expected
    else:
        assert all(knowledge.possible_world(w) for w in rng.sample(sorted(expected), 5))
    hidden = knowledge.final_hidden()
    assert hidden is not None
    outside = sorted(candidates(knowledge.size, +hidden) - expected)
    assert not any(knowledge.possible_world(w) for w in rng.sample(outside, min(5, len(outside))))
