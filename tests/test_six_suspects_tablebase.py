"""The 6 Suspects tablebase (models/six_suspects/tablebase.py) against independent routes.

- The self-check of issue 14: from the empty table with two looks, greedy and optimal are both
  171421/532224.
- Sampled two-look entries equal the live depth-2 count (`look_values`, one enumeration with
  the children's joint counts, itself held to a count of every child in test_six_suspects_advice).
- A sampled three-look entry equals the expectimax over its children's live depth-2 counts.
- The random policy's value of a sampled two-look state equals the mean of its children's
  one-look values, each counted again.
- `suggest` on an empty log with four looks left says the policy is optimal, with the table's
  value.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from models.six_suspects.advice import advise, look_values, one_look_values
from models.six_suspects.log import Log, Seen
from models.six_suspects.rules import SLOTS, load_deck
from models.six_suspects.tablebase import MOST, Builder, canonical, shipped, table_looks

DECK = load_deck()
TABLE = shipped(DECK)


@st.composite
def states(draw, k: int):
    slots = draw(st.permutations(range(len(SLOTS))))[:k]
    cards = draw(st.permutations(DECK.cards))[:k]
    return dict(zip(slots, cards, strict=True))


def test_the_table_is_shipped_for_the_bundled_deck_and_reaches_a_whole_game():
    assert TABLE is not None and MOST == 4
    empty = TABLE[(), 4]
    assert len(empty.looks) == len(SLOTS) and len(set(empty.looks.values())) == 1
    assert empty.random <= empty.greedy <= empty.optimal <= 1


def test_two_looks_from_the_empty_table_greedy_equals_optimal():
    assert TABLE is not None
    node = TABLE[(), 2]
    assert node.optimal == node.greedy == Fraction(171421, 532224)
    assert Builder(DECK).node((), 2).optimal == Fraction(171421, 532224)  # built again


@settings(max_examples=4, deadline=None)
@given(states(2))
def test_two_look_entries_equal_the_live_count(seen):
    tabled = table_looks(DECK, seen, 2)
    assert tabled is not None
    _, live, _ = look_values(DECK, seen, 2)
    assert tabled[0] == live


@settings(max_examples=2, deadline=None)
@given(states(2))
def test_the_random_policys_value_is_the_mean_of_its_childrens_one_look_values(seen):
    assert TABLE is not None
    node = TABLE[canonical(seen)[0], 2]
    unseen = [c for c in DECK.cards if c not in seen.values()]
    free = [s for s in range(len(SLOTS)) if s not in seen]
    total = Fraction(0)
    for slot in free:
        for card in unseen:
            _, values, _ = one_look_values(DECK, {**seen, slot: card})
            total += sum(values.values(), Fraction(0)) / len(values)
    assert node.random == total / (len(free) * len(unseen))


def test_a_three_look_entry_is_the_expectimax_over_its_childrens_live_counts():
    seen = {0: DECK.by_name("diamond")}
    tabled = table_looks(DECK, seen, 3)
    assert tabled is not None
    slot = 7  # D2: one look, its 11 cards, each child's best live two-look value
    unseen = [c for c in DECK.cards if c.name != "diamond"]
    children = [max(look_values(DECK, {**seen, slot: card}, 2)[1].values()) for card in unseen]
    assert tabled[0][slot] == sum(children, Fraction(0)) / len(unseen)


def test_advice_with_four_looks_from_nothing_seen_is_the_tables_and_optimal():
    log = Log(DECK, ["Ana", "Ben"], "Ana", [], 0, {}, None)
    best = advise(log, looks=4)
    assert best.exact and best.horizon == 4
    assert TABLE is not None and best.looks[0].value == TABLE[(), 4].optimal
    one_seen = [Seen(1, 0, DECK.by_name("3"))]
    after = advise(Log(DECK, ["Ana", "Ben"], "Ana", one_seen, 1, {"Ana": 1}, None), looks=3)
    assert after.exact and after.horizon == 3
    assert after.looks[0].value == max(table_looks(DECK, {0: DECK.by_name("3")}, 3)[0].values())


def test_suggest_on_an_empty_log_with_four_looks_left_says_optimal(tmp_path: Path):
    log = tmp_path / "empty.yaml"
    log.write_text("game: six-suspects\nplayers: [Ana, Ben]\nme: Ana\nevents: []\n")
    result = CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["policy"] == "optimal" and data["exact"] is True and data["horizon"] == 4
    text = CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "4"]).stdout
    assert "optimal: p(vote hits) =" in text
    # five looks left: the table reaches four, and says so
    five = json.loads(
        CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "5", "--json"]).stdout
    )
    assert five["policy"] == "depth 4" and five["exact"] is False


def test_tablebase_command_refuses_a_game_without_one():
    result = CliRunner().invoke(app, ["tablebase", "three-of-a-crime"])
    assert result.exit_code == 2 and "has no tablebase" in result.stderr
    assert "k + H ≤ 4" in CliRunner().invoke(app, ["tablebase", "--help"]).stdout
