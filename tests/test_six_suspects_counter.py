"""The bulk counter of 6 Suspects against the one-arrangement-at-a-time resolution, and the log."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_six_suspects_knowledge import states as knowledge_states
from typer.testing import CliRunner

from cli.app import app
from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.posterior import count
from models.six_suspects.rules import SLOTS, load_deck, resolve

DECK = load_deck()
CARD = {c.name: c for c in DECK.cards}
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "six-suspects" / "worked-check.yaml"


def brute_force(seen: dict[int, object], deck=DECK) -> tuple[int, list[int]]:
    """Resolve every arrangement of the unseen cards one by one with rules.resolve."""
    free = [s for s in range(12) if s not in seen]
    rest = [c for c in deck.cards if c not in seen.values()]
    worlds, culprit = 0, [0] * 6
    for order in itertools.permutations(rest):
        layout = dict(seen)
        layout.update(zip(free, order, strict=True))
        _, culprits = resolve(tuple(layout[s] for s in range(12)), deck)
        worlds += 1
        for c in culprits:
            culprit[c] += 1
    return worlds, culprit


@st.composite
def states(draw, least: int = 6, most: int = 11):
    """Random sets of seen cards: `least`..`most` cards at distinct slots, drawn from the deck."""
    k = draw(st.integers(least, most))
    slots = draw(st.permutations(range(12)))[:k]
    cards = draw(st.permutations(DECK.cards))[:k]
    return dict(zip(slots, cards, strict=True))


@given(states())
def test_counter_matches_brute_force(seen):
    counts = count(DECK, seen)
    assert (counts.worlds, counts.culprit) == brute_force(seen)


def test_worked_check_of_the_rulings():
    # RULINGS.md §2: A1 diamond, A2 3, B1 police, B2 5 -> 8! completions; Albert 32,784, Francine 4,632
    seen = {0: CARD["diamond"], 1: CARD["3"], 2: CARD["police"], 3: CARD["5"]}
    counts = count(DECK, seen)
    assert counts.worlds == 40_320
    assert counts.culprit[0] == 32_784 and counts.culprit[5] == 4_632
    assert (counts.worlds, counts.culprit) == brute_force(seen)


def test_nothing_seen_is_symmetric_under_rotation():
    # every rule is the same for each column (rows wrap around), so with nothing seen all six
    # suspects are culprits equally often; 12! arrangements in all
    counts = count(DECK, {})
    assert counts.worlds == 479_001_600
    assert len(set(counts.culprit)) == 1
    assert counts.culprit[0] * 6 >= counts.worlds  # at least one culprit per arrangement


def test_rotating_what_was_seen_rotates_the_counts():
    seen = {0: CARD["swap"], 5: CARD["mirror"], 8: CARD["4"]}  # A1, C2, E1
    rotated = {(s + 2) % 12: c for s, c in seen.items()}  # one column to the right
    a, b = count(DECK, seen), count(DECK, rotated)
    assert a.worlds == b.worlds
    assert b.culprit == a.culprit[-1:] + a.culprit[:-1]


def test_another_deck_file(tmp_path):
    # the Diamond worth 3 and plain values doubled: counts still match brute force
    text = EXAMPLE.parent.joinpath("..", "..", "models", "six_suspects", "deck.yaml").resolve()
    deck_text = text.read_text().replace("diamond_total: 9.5", "diamond_total: 3")
    for v in range(6):
        deck_text = deck_text.replace(f"value: {v}}}", f"value: {2 * v}}}")
    path = tmp_path / "deck.yaml"
    path.write_text(deck_text)
    deck = load_deck(path)
    assert deck.diamond2 == 6 and deck.card("swap").value2 == 16
    seen = {s: c for s, c in zip(range(0, 12, 2), deck.cards[:6], strict=True)}
    got = count(deck, seen)
    assert (got.worlds, got.culprit) == brute_force(seen, deck)


runner = CliRunner()


def solve(path: Path, *extra: str):
    return runner.invoke(app, ["solve", str(path), "--json", *extra])


def test_solve_json_keys_and_exact_counts():
    result = solve(EXAMPLE)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["worlds"] == 40_320
    assert data["culprit_count"]["A"] == 32_784
    assert data["culprit"]["F"] == round(4_632 / 40_320, 6)
    assert data["suspects"]["A"] == "Albert" and data["suspects"]["F"] == "Francine"
    assert data["certain_culprit"] is None
    assert data["seen"] == {"A1": "diamond", "A2": "3", "B1": "police", "B2": "5"}


def test_upto_uses_only_the_first_events():
    data = json.loads(solve(EXAMPLE, "--upto", "1").stdout)
    assert data["worlds"] == 39_916_800 and data["seen"] == {"A1": "diamond"}


def write(tmp_path: Path, events: str, header: str = "") -> Path:
    path = tmp_path / "log.yaml"
    path.write_text(f"game: six-suspects\nplayers: [Ana, Ben]\nme: Ana\n{header}events:\n{events}")
    return path


@pytest.mark.parametrize(
    ("events", "fragment"),
    [
        ("  - look: {slot: G1, card: 3}\n", "unknown slot 'G1'"),
        ("  - look: {slot: A1, card: diamnd}\n", "did you mean 'diamond'"),
        ("  - lok: {slot: A1, card: 3}\n", "did you mean 'look'"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, events, fragment):
    result = runner.invoke(app, ["solve", str(write(tmp_path, events))])
    assert result.exit_code == 2
    assert fragment in result.stderr and "event 1 line 5" in result.stderr
    assert "Traceback" not in result.output


def test_deck_with_the_wrong_number_of_cards(tmp_path):
    deck = tmp_path / "short.yaml"
    lines = load_deck.__globals__["DEFAULT_DECK"].read_text().splitlines()
    deck.write_text("\n".join(line for line in lines if "torch-right}" not in line))
    log = write(tmp_path, "  - look: {slot: A1, card: 3}\n")
    result = runner.invoke(app, ["solve", str(log), "--deck", str(deck)])
    assert result.exit_code == 2
    assert "has 12 cards, this one has 11" in result.stderr


@pytest.mark.parametrize(
    ("events", "detail"),
    [
        (
            "  - look: {slot: A1, card: 3}\n  - look: {slot: B2, card: 3}\n",
            "card 3 seen at A1 and at B2",
        ),
        (
            "  - look: {slot: A1, card: 3}\n  - look: {slot: A1, card: swap}\n",
            "A1 seen holding 3 and swap",
        ),
    ],
)
def test_two_sightings_that_cannot_both_be_true(tmp_path, events, detail):
    result = runner.invoke(app, ["solve", str(write(tmp_path, events)), "--json"])
    assert result.exit_code == 1
    assert "events 1 and 2 cannot all be true" in result.stderr and detail in result.stderr
    assert json.loads(result.stdout)["conflicting_events"] == [1, 2]


def test_the_same_sighting_twice_is_fine(tmp_path):
    events = "  - look: {slot: A1, card: 3}\n  - look: {slot: a1, card: '3'}\n"
    data = json.loads(solve(write(tmp_path, events)).stdout)
    assert data["worlds"] == 39_916_800


def test_slot_names_in_the_grid_are_the_rulings():
    assert SLOTS[:4] == ("A1", "A2", "B1", "B2") and SLOTS[-1] == "F2"


@settings(max_examples=20)
@given(knowledge_states())
def test_counter_equals_cp_sat_enumeration_on_random_decks(state):
    # the two engines of DESIGN.md, side by side: per suspect, the number of completions in which
    # they are a culprit, on random decks (values, Diamond total, specials present or not)
    deck, _, seen = state
    knowledge = LayoutKnowledge(deck, seen)
    by_set = knowledge.enumerate(knowledge.culprit_query())
    per_column = [sum(n for culprits, n in by_set.items() if c in culprits) for c in range(6)]
    counts = count(deck, {slot: deck.by_name(name) for _, slot, name in seen})
    assert counts.worlds == sum(by_set.values())
    assert counts.culprit == per_column
