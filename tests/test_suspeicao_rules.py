"""Suspeição deck model and requirements (RULINGS.md §4): the bundled deck is the 56-card model,
3-4 player games drop the 5-6 icon cards (three of them X cards), requirements are predicates
that X cards never meet, and a broken deck file is one clear error naming the card."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from models.suspeicao.rules import Card, load_deck, requirement
from solver.errors import InputError

DECK = load_deck()


def test_the_bundled_deck_is_the_modelled_56_cards():
    assert len(DECK.cards) == 56
    numbers = [c.number for c in DECK.cards if c.number is not None]
    assert sorted(numbers) == list(range(1, 51))
    x_cards = [c for c in DECK.cards if c.number is None]
    assert len(x_cards) == 6 and all(c.block for c in x_cards)
    assert all((c.action == "FORCE") == (c.requires is not None) for c in DECK.cards)
    assert DECK.bluff_rate == Fraction(1, 5) and DECK.options["force_reveal"] == "uniform"


@pytest.mark.parametrize(("players", "cards", "x_cards"), [(3, 47, 3), (4, 47, 3), (5, 56, 6)])
def test_small_games_leave_out_the_5_6_cards(players, cards, x_cards):
    used = DECK.for_players(players)
    assert len(used) == cards
    assert sum(1 for c in used if c.number is None) == x_cards


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("odd", {1, 3, 49}),
        ("even", {2, 4, 50}),
        ("1-17", {1, 17}),
        ("18 - 34", {18, 34}),
        ("weapon", set()),  # checked below by category
    ],
)
def test_requirements_are_predicates(text, numbers):
    rule = requirement(text)
    for n in numbers:
        assert rule.met_by(Card(str(n), n, "CLUE", "BUY"))
    assert not rule.met_by(Card("X1", None, "WEAPON", "BUY"))  # X cards meet nothing
    if rule.category:
        assert rule.met_by(Card("7", 7, "WEAPON", "BUY"))
        assert not rule.met_by(Card("7", 7, "CLUE", "BUY"))
    if rule.low is not None:
        assert not rule.met_by(Card("99", 99, "CLUE", "BUY"))


def test_every_requirement_in_the_deck_is_met_by_some_card():
    for rule in DECK.requirements():
        assert any(rule.met_by(c) for c in DECK.cards), rule.text


@pytest.mark.parametrize(
    ("card", "fragment"),
    [
        ({"number": 3, "category": "CLUES", "action": "BUY"}, "did you mean"),
        ({"number": 3, "category": "CLUE", "action": "FORCE"}, "requires"),
        ({"number": 3, "category": "CLUE", "action": "FORCE", "requires": "9-2"}, "low to high"),
        ({"number": 3, "category": "CLUE", "action": "BUY", "requires": "odd"}, "only FORCE"),
        ({"number": 3, "category": "CLUE", "action": "STEAL"}, "unknown action"),
    ],
)
def test_a_broken_deck_is_one_clear_error(tmp_path, card, fragment):
    path = tmp_path / "deck.yaml"
    good = {"number": 1, "category": "CLUE", "action": "BUY"}
    path.write_text(yaml.safe_dump({"cards": [good, card]}), encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_deck(path)
    assert "card 2" in str(error.value) and fragment in str(error.value)


def test_options_are_read_exactly(tmp_path):
    path = tmp_path / "deck.yaml"
    data = {"options": {"bluff_rate": 0.25, "force_reveal": "protect"}, "cards": []}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    deck = load_deck(path)
    assert deck.bluff_rate == Fraction(1, 4) and deck.options["force_reveal"] == "protect"
