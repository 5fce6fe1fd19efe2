"""The CP-SAT model of 6 Suspects must agree with the reference resolution `rules.resolve`.

Random decks (any mix of plain values, each special kind present or not) and random layouts with
7-10 seen cards, so that a brute force over the (at most 5! = 120) completions is the oracle.
Columns: A=0 (Albert) ... F=5 (Francine); slots: A1=0, A2=1, B1=2, ... F2=11.
"""

from __future__ import annotations

import itertools
import tempfile
from collections import Counter
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.rules import SLOTS, SPECIAL_KINDS, Deck, load_deck, resolve

DEFAULT = load_deck()
SLOT = {name: i for i, name in enumerate(SLOTS)}
# possible/certain/answers and conflict need a dozen CP-SAT solves (~70 ms each): fewer examples.
FEWER = settings(max_examples=max(5, settings().max_examples // 2))


@st.composite
def decks(draw: st.DrawFn) -> Deck:
    """The bundled deck, or a random valid one read through `load_deck`."""
    if draw(st.booleans()):
        return DEFAULT
    kinds = [k for k in SPECIAL_KINDS if draw(st.booleans())]
    halves = st.integers(-2, 12).map(lambda v: v / 2)
    cards: list[dict[str, object]] = [{"name": k, "kind": k} for k in kinds]
    if "swap" in kinds:
        cards[kinds.index("swap")]["value"] = draw(halves)
    cards += [
        {"name": f"p{i}", "kind": "plain", "value": draw(halves)} for i in range(12 - len(kinds))
    ]
    data = {"suspects": list("ABCDEF"), "diamond_total": draw(halves), "cards": cards}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        return load_deck(path)


@st.composite
def states(draw: st.DrawFn, seen_min: int = 7, seen_max: int = 10):
    """(deck, true layout, seen facts): the layout's cards at 7-10 random slots, events 1..k in
    a random order."""
    deck = draw(decks())
    layout = tuple(draw(st.permutations(deck.cards)))
    count = draw(st.integers(seen_min, seen_max))
    slots = draw(st.permutations(range(12)))[:count]
    events = draw(st.permutations(range(1, count + 1)))
    seen = [(e, s, layout[s].name) for e, s in zip(events, slots, strict=True)]
    return deck, layout, seen


def brute_force(deck: Deck, seen: list[tuple[int, int, str]]) -> Counter[frozenset[int]]:
    """How many completions of the seen cards give each culprit set."""
    fixed = {slot: deck.by_name(name) for _, slot, name in seen}
    free_slots = [s for s in range(12) if s not in fixed]
    free_cards = [c for c in deck.cards if c not in fixed.values()]
    counts: Counter[frozenset[int]] = Counter()
    for order in itertools.permutations(free_cards):
        layout = dict(fixed) | dict(zip(free_slots, order, strict=True))
        counts[resolve(tuple(layout[s] for s in range(12)), deck)[1]] += 1
    return counts


@given(states())
def test_enumeration_counts_the_same_culprit_sets_as_brute_force(state):
    deck, _, seen = state
    knowledge = LayoutKnowledge(deck, seen)
    assert knowledge.enumerate(knowledge.culprit_query()) == brute_force(deck, seen)


@FEWER
@given(states())
def test_possible_certain_and_answers_agree_with_brute_force(state):
    deck, _, seen = state
    knowledge = LayoutKnowledge(deck, seen)
    query = knowledge.culprit_query()
    sets = set(brute_force(deck, seen))
    assert knowledge.possible(query) == set().union(*sets)
    assert knowledge.certain(query) == set(range(6)).intersection(*sets)
    answers = knowledge.answers(query, limit=2)
    assert (len(answers) == 1) == (len(sets) == 1)
    for answer, witness in answers:  # a witness is a completion of the seen cards with that answer
        layout = tuple(deck.cards[witness[name]] for name in SLOTS)
        assert all(layout[slot].name == name for _, slot, name in seen)
        assert resolve(layout, deck)[1] == answer


@given(decks(), st.permutations(range(12)), st.randoms(use_true_random=False))
def test_a_fully_seen_layout_has_exactly_the_reference_culprits(deck, order, rng):
    layout = tuple(deck.cards[i] for i in order)
    seen = [(rng.randrange(100), s, card.name) for s, card in enumerate(layout)]
    knowledge = LayoutKnowledge(deck, seen)
    answers = knowledge.answers(knowledge.culprit_query(), limit=2)
    assert [answer for answer, _ in answers] == [resolve(layout, deck)[1]]


@FEWER
@given(states(seen_max=9), st.booleans())
def test_two_facts_that_clash_are_the_conflict(state, same_card):
    """Two new looks, each alone consistent: one unseen card at two unseen slots, or two unseen
    cards at one unseen slot. Every infeasible subset needs both, so the core is exactly them."""
    deck, layout, seen = state
    seen_slots = {slot for _, slot, _ in seen}
    unseen = [s for s in range(12) if s not in seen_slots]  # the unseen cards lie here
    first, second = len(seen) + 1, len(seen) + 7
    if same_card:
        clash = [
            (first, unseen[0], layout[unseen[1]].name),
            (second, unseen[2], layout[unseen[1]].name),
        ]
    else:
        clash = [
            (first, unseen[0], layout[unseen[1]].name),
            (second, unseen[0], layout[unseen[2]].name),
        ]
    knowledge = LayoutKnowledge(deck, seen + clash)
    assert knowledge.consistent([e for e, _, _ in seen + clash[:1]])
    assert knowledge.consistent([e for e, _, _ in seen + clash[1:]])
    assert knowledge.conflict() == [first, second]


def test_rulings_worked_check():
    """RULINGS.md §2: seen A1 = Diamond, A2 = 3, B1 = Police, B2 = 5 (Albert: 32,784 of 40,320).

    Albert can be the culprit. Bernard's Police does not make him certainly innocent: a Swap at
    C1 exchanges B1 and D1 and takes the Police away (1,440 completions, by brute force with
    `rules.resolve`). Once C1 is seen to be a plain card, Bernard is certainly not a culprit."""
    seen = [
        (1, SLOT["A1"], "diamond"),
        (2, SLOT["A2"], "3"),
        (3, SLOT["B1"], "police"),
        (4, SLOT["B2"], "5"),
    ]
    knowledge = LayoutKnowledge(DEFAULT, seen)
    query = knowledge.culprit_query()
    assert knowledge.possible(query) == set(range(6))
    assert knowledge.certain(query) == set()
    bernard_guilty = [w for answer, w in knowledge.answers({1: query[1]}) if answer]
    assert [DEFAULT.cards[w["C1"]].name for w in bernard_guilty] == ["swap"]

    knowledge = LayoutKnowledge(DEFAULT, [*seen, (5, SLOT["C1"], "0")])
    query = knowledge.culprit_query()
    assert 0 in knowledge.possible(query)
    assert 1 not in knowledge.possible(query)
