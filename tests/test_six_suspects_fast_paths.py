"""6 Suspects fast paths against the slow obvious ones: the Diamond and Police counted as items
(only the moving specials enumerated), and the opening table (0 or 1 card seen, by symmetry).

Oracles: brute force over every completion (`rules.resolve`) where that is small, and the bulk
counter with every special placed (itself checked against brute force in
test_six_suspects_counter.py) where it is not. All numbers compared are exact integers.
"""

from __future__ import annotations

import json
import tempfile
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_six_suspects_advice import brute_look, slow_two_look_values
from test_six_suspects_counter import brute_force
from test_six_suspects_knowledge import decks

from models.six_suspects import counter, posterior
from models.six_suspects.advice import look_values, one_look_values, values_of
from models.six_suspects.counter import items_for, joint, tally
from models.six_suspects.posterior import SHIPPED, as_data, count, from_tally, opening_table
from models.six_suspects.rules import DEFAULT_DECK, Deck, load_deck

DECK = load_deck()
STILL = ("diamond", "police")
CHOICES = [frozenset(c) for r in range(3) for c in combinations(STILL, r)]
FEW = settings(max_examples=max(3, settings().max_examples // 12))


def seen_states(deck: Deck, least: int, most: int):
    """Random sets of seen cards of `deck` at distinct slots."""

    @st.composite
    def draw_state(draw):
        k = draw(st.integers(least, most))
        slots = draw(st.permutations(range(12)))[:k]
        cards = draw(st.permutations(deck.cards))[:k]
        return dict(zip(slots, cards, strict=True))

    return draw_state()


@st.composite
def deck_and_state(draw, least: int = 6, most: int = 11):
    deck = draw(decks())
    return deck, draw(seen_states(deck, least, most))


@cache
def user_deck() -> Deck:
    """The bundled deck with other values (plain cards 0, 2, ..., 10; Swap 1½; Diamond 7): counts
    that differ from the bundled deck's."""
    text = DEFAULT_DECK.read_text()
    text = text.replace("diamond_total: 9.5", "diamond_total: 7")
    for v in range(6):
        text = text.replace(f"value: {v}}}", f"value: {2 * v}}}")
    text = text.replace(
        "{name: swap, kind: swap, value: 8}", "{name: swap, kind: swap, value: 1.5}"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.yaml"
        path.write_text(text)
        deck = load_deck(path)
    assert deck.card("swap").value2 == 3 and deck.diamond2 == 14
    return deck


@given(deck_and_state(), st.sampled_from(CHOICES))
def test_diamond_and_police_as_items_count_like_brute_force(state, loose):
    deck, seen = state
    loose = frozenset(k for k in loose if deck.card(k) is not None)
    counts = tally(deck, seen, loose).counts
    assert (counts.worlds, counts.culprit) == brute_force(seen, deck)


@given(deck_and_state(6, 10), st.sampled_from(CHOICES))
def test_joint_counts_are_the_same_whichever_cards_are_items(state, loose):
    deck, seen = state
    loose = frozenset(k for k in loose if deck.card(k) is not None)
    assert (joint(tally(deck, seen, loose)) == joint(tally(deck, seen, frozenset()))).all()


@FEW
@given(st.sampled_from([DECK, "user"]), st.data())
def test_few_cards_seen_count_the_same_whichever_cards_are_items(which, data):
    # two or three cards seen (Diamond and Police unseen among them, often): the new default
    # (items) against every special placed
    deck = user_deck() if which == "user" else DECK
    seen = data.draw(seen_states(deck, 2, 3))
    placed = tally(deck, seen, frozenset()).counts
    for loose in CHOICES:
        if not any(seen_card.kind in loose for seen_card in seen.values()):
            assert tally(deck, seen, loose).counts == placed


def test_two_plain_cards_seen_enumerate_only_the_moving_specials():
    seen = {0: DECK.by_name("3"), 5: DECK.by_name("1")}
    unseen = [c for c in DECK.cards if c not in seen.values()]
    assert items_for(list(seen.values()), unseen) == {"diamond", "police"}
    t = tally(DECK, seen)
    assert len(t.placed.grid) == 10 * 9 * 8 * 7  # Swap, Torches, Mirror
    assert t.counts == tally(DECK, seen, frozenset()).counts


@settings(max_examples=10)
@given(seen_states(DECK, 8, 10), st.sampled_from(CHOICES))
def test_two_look_values_with_items_are_exact(seen, loose):
    loose = loose - {c.kind for c in seen.values()}
    with mock.patch.object(counter, "items_for", lambda seen, unseen: loose):
        _, values, _ = look_values(DECK, seen, 2)
    for slot, value in values.items():
        assert value == brute_look(seen, slot, 2)


@settings(max_examples=6)
@given(seen_states(DECK, 5, 6))
def test_two_look_values_with_items_match_counting_every_child_again(seen):
    loose = frozenset(STILL) - {c.kind for c in seen.values()}
    with mock.patch.object(counter, "items_for", lambda seen, unseen: loose):
        _, values, _ = look_values(DECK, seen, 2)
    assert values == slow_two_look_values(seen)


# --- the opening table ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def empty_tally():
    return tally(DECK, {})


def test_the_shipped_table_is_what_the_counter_computes(empty_tally):
    # the check that regenerates the shipped data: a stale or edited file fails here
    shipped = json.loads(SHIPPED.read_text())
    assert shipped == as_data(DECK, from_tally(empty_tally))
    assert opening_table(DECK).empty == empty_tally.counts


def test_one_look_values_with_nothing_seen_come_from_the_table(empty_tally):
    counts, values, information = one_look_values(DECK, {})
    slow_counts, slow_values, slow_information = values_of(empty_tally)
    assert counts == slow_counts and values == slow_values
    assert information == pytest.approx(slow_information, abs=1e-12)


@FEW
@given(st.sampled_from([DECK, "user"]), st.integers(0, 11), st.integers(0, 11))
def test_one_card_seen_from_the_table_equals_counting_it(which, slot, card):
    deck = user_deck() if which == "user" else DECK
    seen = {slot: deck.cards[card]}
    assert count(deck, seen) == tally(deck, seen).counts


def test_a_user_deck_gets_its_own_table():
    # counted once for that deck, not read from the bundled deck's file
    deck = user_deck()
    assert as_data(deck, opening_table(deck))["deck"] != json.loads(SHIPPED.read_text())["deck"]
    assert count(deck, {}) == tally(deck, {}).counts != count(DECK, {})
    assert (
        count(deck, {4: deck.by_name("diamond")}).culprit
        != count(DECK, {4: DECK.by_name("diamond")}).culprit
    )


def test_a_table_for_another_deck_is_not_used(tmp_path, monkeypatch):
    # the shipped file names the deck it was computed for: change a value and it is ignored
    data = json.loads(SHIPPED.read_text())
    data["deck"]["diamond2"] += 2
    stale = tmp_path / "opening.json"
    stale.write_text(json.dumps(data))
    monkeypatch.setattr(posterior, "SHIPPED", stale)
    built = []
    monkeypatch.setattr(posterior, "build", lambda deck: built.append(deck) or "built")
    opening_table.cache_clear()
    try:
        assert opening_table(DECK) == "built" and built == [DECK]
    finally:
        opening_table.cache_clear()


def test_a_shipped_table_that_does_not_add_up_is_not_used(tmp_path, monkeypatch):
    # one count changed by hand: the twelve one-card states no longer sum to the empty state
    data = json.loads(SHIPPED.read_text())
    data["first"]["swap"][2] += 1
    edited = tmp_path / "opening.json"
    edited.write_text(json.dumps(data))
    monkeypatch.setattr(posterior, "SHIPPED", edited)
    monkeypatch.setattr(posterior, "build", lambda deck: "built")
    opening_table.cache_clear()
    try:
        assert opening_table(DECK) == "built"
    finally:
        opening_table.cache_clear()
    assert posterior.adds_up(DECK, posterior.from_data(json.loads(SHIPPED.read_text())))


@pytest.mark.long
@settings(max_examples=5)
@given(decks(), st.integers(0, 11), st.integers(0, 11))
def test_one_card_seen_from_the_table_of_random_decks(deck, slot, card):
    if len([c for c in deck.cards if c.kind == "plain"]) > 7:
        return  # 8 or more plain cards: the bulk counter's 8! orders per structure take minutes
    seen = {slot: deck.cards[card]}
    assert count(deck, seen) == tally(deck, seen).counts
    assert count(deck, {}) == tally(deck, {}).counts


def test_symmetric_one_card_states_share_a_table_entry():
    # the same card at B2 and at E1: the counts are the A1 entry turned by 1 and by 4 columns
    diamond = DECK.by_name("diamond")
    a1 = opening_table(DECK).first["diamond"].culprit
    assert count(DECK, {3: diamond}).culprit == a1[-1:] + a1[:-1]
    assert count(DECK, {8: diamond}).culprit == a1[2:] + a1[:2]
    assert Fraction(sum(a1), 39_916_800) >= 1  # at least one culprit in every arrangement


@settings(max_examples=5)
@given(seen_states(DECK, 6, 8))
def test_pair_counts_one_item_at_a_time_equal_all_at_once(seen):
    # large states split the item-pair counts item by item: the same numbers either way
    _, together, _ = look_values(DECK, seen, 2)
    with mock.patch.object(counter, "PAIR_CELLS", 0):
        _, one_by_one, _ = look_values(DECK, seen, 2)
    assert together == one_by_one
