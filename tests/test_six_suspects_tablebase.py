"""The 6 Suspects tablebase (models/six_suspects/tablebase.py) against independent routes.

- The self-check of issue 14: from the empty table with two looks, greedy and optimal are both
  171421/532224 (and built again).
- The table reaches every state of a game (k + H ≤ 5), and `suggest` on an empty log with four
  or five looks left says the policy is optimal, with the table's value.
- Sampled two-look entries equal the live depth-2 count (`look_values`), a three-look entry the
  expectimax over its children's live counts, and the random policy's value the mean of its
  children's one-look values, each counted again.
- By brute force (tests/six_suspects_brute.py: every layout listed and resolved, expectimax by
  definition, no count or symmetry shared with the table): the table of a reduced game (five
  cards seen, seven left on seven slots; the bundled deck with a Torch seen, and random decks),
  built by the same induction for H ≤ 3, equals brute force at every state it holds, in all
  three policies; sampled three-card entries of the shipped table too (two-card entries with
  two and three looks in `make test-long`).
- The build on Dask workers equals the build in this process.
- The mirror symmetry (Torch-Left and Torch-Right exchanged) is one: layouts, counts and look
  values of random states and of their mirror images agree, and the exchange is needed.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import six_suspects_brute as brute
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from models.six_suspects.advice import (
    Symmetry,
    advise,
    look_values,
    one_look_values,
    symmetries,
    values_of,
)
from models.six_suspects.counter import tally
from models.six_suspects.log import Log, Seen
from models.six_suspects.rules import SLOTS, Card, Deck, load_deck, resolve
from models.six_suspects.tablebase import (
    MOST,
    STATES_PER_CHUNK,
    Builder,
    canonical,
    shipped,
    table_looks,
)

DECK = load_deck()
TABLE = shipped(DECK)


@st.composite
def states(draw, k: int, deck: Deck = DECK):
    slots = draw(st.permutations(range(len(SLOTS))))[:k]
    cards = draw(st.permutations(deck.cards))[:k]
    return dict(zip(slots, cards, strict=True))


@st.composite
def decks(draw):
    """The bundled deck with some specials turned into plain cards and new values (doubled, few
    distinct values, so that ties happen), and a Diamond total that may lose to a pair."""
    cards = []
    for card in DECK.cards:
        value2 = 2 * draw(st.integers(0, 5))
        if card.kind in ("plain", "swap") or draw(st.booleans()):
            kind = "plain" if card.kind == "plain" else card.kind
            cards.append(Card(card.name, kind, value2 if kind in ("plain", "swap") else 0))
        else:
            cards.append(Card(f"plain-{card.name}", "plain", value2))
    return Deck(DECK.suspects, tuple(cards), draw(st.sampled_from([19, 2 * 9, 8])))


def state_of(deck: Deck, key) -> dict[int, Card]:
    return {slot: deck.by_name(name) for slot, name in key}


def assert_brute_force_agrees(deck: Deck, nodes: dict) -> None:
    for (key, horizon), node in nodes.items():
        expected = brute.values(deck, state_of(deck, key), horizon)
        assert node.looks == expected.looks, (key, horizon)
        assert (node.greedy, node.random) == (expected.greedy, expected.random), (key, horizon)


def test_the_table_is_shipped_for_the_bundled_deck_and_reaches_a_whole_game():
    assert TABLE is not None and MOST == 5
    for horizon in range(2, MOST + 1):
        empty = TABLE[(), horizon]
        assert len(empty.looks) == len(SLOTS) and len(set(empty.looks.values())) == 1
        assert empty.random <= empty.greedy <= empty.optimal <= 1
    optimal = [TABLE[(), h].optimal for h in range(2, MOST + 1)]
    assert optimal == sorted(set(optimal))  # each look more is worth something


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 3).flatmap(states))
def test_every_state_of_a_game_is_in_the_table(seen):
    """Every state a game reaches, with every look it has left (k + H ≤ 5, H ≥ 2)."""
    for looks_left in range(2, MOST - len(seen) + 1):
        tabled = table_looks(DECK, seen, looks_left)
        assert tabled is not None
        assert sorted(tabled[0]) == [s for s in range(len(SLOTS)) if s not in seen]


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
    node = TABLE[canonical(seen, DECK)[0], 2]
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


def test_suggest_on_an_empty_log_with_four_or_five_looks_left_says_optimal(tmp_path: Path):
    log = tmp_path / "empty.yaml"
    log.write_text("game: six-suspects\nplayers: [Ana, Ben]\nme: Ana\nevents: []\n")
    result = CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["policy"] == "optimal" and data["exact"] is True and data["horizon"] == 4
    text = CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "4"]).stdout
    assert "optimal: p(vote hits) =" in text
    # five looks left (someone will announce): the table reaches them too
    five = json.loads(
        CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "5", "--json"]).stdout
    )
    assert five["policy"] == "optimal" and five["exact"] is True and five["horizon"] == 5
    assert TABLE is not None and five["looks"][0]["p_hit"] == round(float(TABLE[(), 5].optimal), 6)
    # six looks: more than a game gives; the table's five, and said so
    six = json.loads(
        CliRunner().invoke(app, ["suggest", str(log), "--looks-left", "6", "--json"]).stdout
    )
    assert six["policy"] == "depth 5" and six["exact"] is False


def reduced_table(deck: Deck, seen: dict[int, Card]) -> dict:
    """The table of the game left after `seen`, H ≤ 3 looks: every state it reaches."""
    root = canonical(seen, deck)[0]
    nodes = Builder(deck).build(len(root) + 3, root, workers=1)
    assert {h for _, h in nodes} == {2, 3} and (root, 3) in nodes
    return nodes


def test_a_reduced_table_with_a_torch_seen_equals_brute_force_expectimax():
    """A Torch seen: the mirror's exchange of the Torches matters in every state below."""
    seen = {1: "torch-left", 2: "5", 6: "mirror", 9: "1", 11: "police"}  # A2 B1 D1 E2 F2
    root = {slot: DECK.by_name(name) for slot, name in seen.items()}
    assert_brute_force_agrees(DECK, reduced_table(DECK, root))


@settings(max_examples=1, deadline=None)
@given(st.data())
def test_a_reduced_table_equals_brute_force_expectimax(data):
    deck = data.draw(decks())
    assert_brute_force_agrees(deck, reduced_table(deck, data.draw(states(5, deck))))


@pytest.mark.long
@settings(max_examples=10, deadline=None)
@given(st.data())
def test_reduced_tables_equal_brute_force_expectimax_long(data):
    deck = data.draw(st.sampled_from([DECK]) | decks())
    assert_brute_force_agrees(deck, reduced_table(deck, data.draw(states(5, deck))))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([DECK]) | decks(), st.integers(0, 2**32))
def test_brute_force_resolution_is_the_rules(deck, seed):
    rng = random.Random(seed)
    layouts = np.array([rng.sample(range(len(SLOTS)), len(SLOTS)) for _ in range(500)])
    guilty = brute.resolve_many(deck, layouts.astype(np.int8))
    for layout, row in zip(layouts, guilty, strict=True):
        _, culprits = resolve(tuple(deck.cards[i] for i in layout), deck)
        assert set(np.flatnonzero(row)) == culprits


@settings(max_examples=2, deadline=None)
@given(st.data())
def test_sampled_three_card_entries_of_the_shipped_table_equal_brute_force(data):
    """Three cards seen, two looks: 9! worlds each (about a second)."""
    assert TABLE is not None
    keys = sorted(key for key, h in TABLE if h == 2 and len(key) == 3)
    key = data.draw(st.sampled_from(keys))
    assert_brute_force_agrees(DECK, {(key, 2): TABLE[key, 2]})


@pytest.mark.long
@pytest.mark.parametrize("horizon", [2, 3])
@settings(max_examples=2, deadline=None)
@given(st.data())
def test_sampled_entries_of_the_shipped_table_equal_brute_force_long(horizon, data):
    """Two cards seen, two or three looks: 10! worlds each (10 s; a minute for three looks)."""
    assert TABLE is not None
    keys = sorted(key for key, h in TABLE if h == horizon and len(key) == 2)
    key = data.draw(st.sampled_from(keys))
    assert_brute_force_agrees(DECK, {(key, horizon): TABLE[key, horizon]})


def test_the_build_on_a_cluster_equals_the_build_here(cluster):
    """The two-look nodes in chunks on Dask workers (as `sleuth tablebase --workers`) give the
    same table as in this process."""
    seen = {1: "torch-left", 2: "5", 6: "mirror", 9: "1"}
    root = canonical(state_of(DECK, seen.items()), DECK)[0]
    here = Builder(DECK).build(len(root) + 3, root, workers=1)
    there = Builder(DECK).build(len(root) + 3, root, scheduler=cluster.scheduler_address)
    assert here.keys() == there.keys() and len(here) > STATES_PER_CHUNK
    for entry, node in here.items():
        assert (node.looks, node.greedy, node.random) == (
            there[entry].looks,
            there[entry].greedy,
            there[entry].random,
        )


def image(seen: dict[int, Card], g: Symmetry, deck: Deck) -> dict[int, Card]:
    return {g.slot(slot): g.card(card, deck) for slot, card in seen.items()}


@st.composite
def mirrors(draw):
    """A mirror symmetry: the reflection, then any turn and row swap."""
    return Symmetry(draw(st.integers(0, 5)), draw(st.integers(0, 1)), mirror=True)


@given(st.sampled_from([DECK]) | decks(), mirrors(), st.integers(0, 2**32))
def test_a_layout_read_in_a_mirror_resolves_to_the_mirrored_culprits(deck, g, seed):
    """The proof, one layout at a time: rules.resolve of the mirror image (Torch-Left and
    Torch-Right exchanged) gives the mirror image of the culprits. Posteriors, look values and
    the table follow: the mirror maps the completions of a state one to one onto those of its
    image."""
    assume(len({c.kind for c in deck.cards} & {"torch-left", "torch-right"}) != 1)
    rng = random.Random(seed)
    for _ in range(50):
        layout = dict(enumerate(rng.sample(deck.cards, len(SLOTS))))
        mirrored = image(layout, g, deck)
        _, culprits = resolve(tuple(layout[s] for s in range(len(SLOTS))), deck)
        _, culprits2 = resolve(tuple(mirrored[s] for s in range(len(SLOTS))), deck)
        assert culprits2 == {g.column(c) for c in culprits}


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_a_state_and_its_mirror_image_have_the_same_values(data):
    """Counted without canonical forms (the counter's tally of each state; brute force for two
    looks): the counts and every look's value of the mirror image are the mirrored ones."""
    deck = data.draw(st.sampled_from([DECK]) | decks())
    assume(len({c.kind for c in deck.cards} & {"torch-left", "torch-right"}) != 1)
    seen, g = data.draw(states(data.draw(st.integers(3, 9)), deck)), data.draw(mirrors())
    mirrored = image(seen, g, deck)
    counts, values, _ = values_of(tally(deck, seen))
    counts2, values2, _ = values_of(tally(deck, mirrored))
    assert [counts2.culprit[g.column(c)] for c in range(6)] == counts.culprit
    assert {g.slot(s): v for s, v in values.items()} == values2
    if len(seen) >= 7:
        two, two2 = brute.values(deck, seen, 2), brute.values(deck, mirrored, 2)
        assert {g.slot(s): v for s, v in two.looks.items()} == two2.looks
        assert two.random == two2.random


def test_the_mirror_needs_the_torches_exchanged():
    """Read in a mirror with the Torches left as they are, a Torch-Left copies from the other
    side: not a symmetry. With one Torch in the deck there is nothing to exchange it with, so
    only the 12 turns and row swaps are used."""
    names = "torch-left 5 1 torch-right swap 2 3 4 mirror 0 diamond police"  # A1 A2 B1 ... F2
    layout = dict(enumerate(DECK.by_name(name) for name in names.split()))
    # A1's Torch-Left copies F1's Diamond: A is 9½, F is out (Police), the best other total is
    # 6, so A is the culprit. In the mirror F1 comes to B1; a Torch-Left still at A1 would copy
    # F1, now the 3 the Swap brought there: A totals 8 and is not the culprit.
    assert resolve(tuple(layout[s] for s in range(12)), DECK)[1] == {0}
    g = Symmetry(mirror=True)
    plain_mirror = {g.slot(s): card for s, card in layout.items()}
    assert resolve(tuple(plain_mirror[s] for s in range(12)), DECK)[1] != {0}
    exchanged = image(layout, g, DECK)
    assert resolve(tuple(exchanged[s] for s in range(12)), DECK)[1] == {0}
    one_torch = Deck(
        DECK.suspects,
        tuple(Card(c.name, "plain", 2) if c.kind == "torch-right" else c for c in DECK.cards),
        DECK.diamond2,
    )
    assert len(symmetries(one_torch)) == 12 and len(symmetries(DECK)) == 24


def test_tablebase_command_refuses_a_game_without_one():
    result = CliRunner().invoke(app, ["tablebase", "three-of-a-crime"])
    assert result.exit_code == 2 and "has no tablebase" in result.stderr
    assert "k + H ≤ 5" in CliRunner().invoke(app, ["tablebase", "--help"]).stdout
