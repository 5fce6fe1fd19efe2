"""6 Suspects end to end: `suggest`, `check`, `generate`, `simulate`, `solve --deck` through the
Typer app, and `sleuth play six-suspects` driven through a pipe; every number is checked against a
brute-force reading of the rules (RULINGS.md §2) or against the other commands."""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app
from models.six_suspects.game import SixSuspects
from models.six_suspects.rules import COLUMNS, SLOTS, Deck, load_deck, resolve
from solver.logfile import Document

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "six-suspects"
WORKED = EXAMPLES / "worked-check.yaml"
MEDIUM = EXAMPLES / "puzzle-medium.yaml"
AMBIGUOUS = EXAMPLES / "puzzle-ambiguous.yaml"
DECK = load_deck()
CARD = {c.name: c for c in DECK.cards}
# RULINGS.md §2, worked check: A1 diamond, A2 3, B1 police, B2 5 -> 8! completions, Albert 32,784
WORKED_SEEN = {"A1": "diamond", "A2": "3", "B1": "police", "B2": "5"}

runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def invoke_json(*args: object, exit_code: int = 0):
    result = invoke(*args, "--json")
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return json.loads(result.stdout)  # exactly one JSON value on stdout


def write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def assert_one_error_line(result, exit_code: int, *fragments: str) -> str:
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# --- brute force -------------------------------------------------------------------------------


def completions(seen: dict[int, object], deck: Deck = DECK):
    """Every full layout extending `seen` (slot index -> Card), resolved by rules.resolve."""
    free = [s for s in range(12) if s not in seen]
    rest = [c for c in deck.cards if c not in seen.values()]
    for order in itertools.permutations(rest):
        layout = {**seen, **dict(zip(free, order, strict=True))}
        yield layout, resolve(tuple(layout[s] for s in range(12)), deck)[1]


def brute_counts(seen: dict[int, object], deck: Deck = DECK) -> tuple[int, list[int]]:
    worlds, culprit = 0, [0] * 6
    for _, culprits in completions(seen, deck):
        worlds += 1
        for c in culprits:
            culprit[c] += 1
    return worlds, culprit


def by_slot(named: dict[str, str], deck: Deck = DECK) -> dict[int, object]:
    return {SLOTS.index(s): deck.by_name(c) for s, c in named.items()}


@cache
def worked_check_values() -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """V1 and V2 of looking first at each unseen slot of the worked check, by expectimax over the
    8! completions (each (slot, card) group has 7! worlds, each pair of looks 6!)."""
    seen = by_slot(WORKED_SEEN)
    free = [s for s in range(12) if s not in seen]
    rest = [c for c in DECK.cards if c not in seen.values()]
    index = {c: i for i, c in enumerate(rest)}
    layouts, culprits = [], []
    for layout, culprit in completions(seen):
        layouts.append([index[layout[s]] for s in free])
        culprits.append([c in culprit for c in range(6)])
    at, guilty = np.array(layouts), np.array(culprits)
    assert len(at) == 40_320 and guilty[:, 0].sum() == 32_784  # the rulings' worked check
    v1, v2 = {}, {}
    for k, slot in enumerate(free):
        v1[SLOTS[slot]] = Fraction(
            sum(int(guilty[at[:, k] == c].sum(0).max()) for c in range(8)), 40_320
        )
        total = Fraction(0)
        for c in range(8):
            here = at[:, k] == c
            best = Fraction(0)
            for k2 in range(8):
                if k2 == k:
                    continue
                hits = sum(
                    int(guilty[here & (at[:, k2] == c2)].sum(0).max()) for c2 in range(8) if c2 != c
                )
                best = max(best, Fraction(hits, 7 * 720))
            total += best
        v2[SLOTS[slot]] = total / 8
    return v1, v2


# --- suggest -----------------------------------------------------------------------------------


def test_a_horizon_past_the_looks_left_values_only_the_looks_left():
    """The worked check leaves Ana one look (she has looked 4 times): --horizon 2 values one,
    exactly, and says where the number of looks came from."""
    data = invoke_json("suggest", WORKED, "--horizon", 2)
    assert data["looks_left"] == 1 and data["horizon"] == 1 and data["exact"] is True
    assert data["looks_left_from"] == "from the log"
    expected = worked_check_values()[0]
    assert data["looks"][0]["p_hit"] == round(float(max(expected.values())), 6)
    text = invoke("suggest", WORKED, "--looks-left", 3).stdout
    assert "3 look(s) left (as told by --looks-left)" in text and "depth 2" in text
    refused = invoke(
        "suggest", ROOT / "examples/three-of-a-crime/two-player.yaml", "--looks-left", 1
    )
    assert (
        refused.exit_code == 2
        and "--looks-left means nothing in Three of a Crime" in refused.stderr
    )


SUGGEST_KEYS = ("vote", "p_vote", "horizon", "exact", "looks", "announce")


@pytest.mark.parametrize("horizon", [1, 2])
def test_suggest_on_the_worked_check_is_exact_expectimax(horizon):
    """With as many looks left as valued, the values are exact expectimax (the log leaves Ana
    one look: two are told with --looks-left)."""
    data = invoke_json("suggest", WORKED, "--horizon", horizon, "--looks-left", horizon)
    for key in SUGGEST_KEYS:
        assert key in data
    assert data["vote"] == ["A"]
    assert data["p_vote"] == round(32_784 / 40_320, 6)
    assert data["horizon"] == horizon and data["exact"] is True
    assert data["announce"] is False  # Ben has looked only 3 times
    looks = data["looks"]
    unseen = [s for s in SLOTS if s not in WORKED_SEEN]
    assert sorted(look["slot"] for look in looks) == sorted(unseen)
    for look in looks:
        assert set(look) >= {"slot", "p_hit", "information_bits"}
        assert look["p_hit"] >= data["p_vote"]  # a look can only help
        assert look["information_bits"] >= 0
    # best first: by value, then by information
    keys = [(-look["p_hit"], -look["information_bits"]) for look in looks]
    assert keys == sorted(keys)
    expected = worked_check_values()[horizon - 1]
    assert {look["slot"]: look["p_hit"] for look in looks} == {
        slot: round(float(value), 6) for slot, value in expected.items()
    }
    assert looks[0]["p_hit"] == round(float(max(expected.values())), 6)


def test_suggest_two_looks_are_worth_at_least_one():
    one = {x["slot"]: x["p_hit"] for x in invoke_json("suggest", WORKED, "--horizon", 1)["looks"]}
    asked = invoke_json("suggest", WORKED, "--horizon", 2, "--looks-left", 2)
    two = {x["slot"]: x["p_hit"] for x in asked["looks"]}
    assert all(two[s] >= one[s] for s in one)
    assert max(two.values()) > max(one.values())  # here the second look really helps


def test_suggest_text_output():
    result = invoke("suggest", WORKED, "--horizon", 1)
    assert result.exit_code == 0, result.stderr
    assert "vote now for: A Albert (p = 0.813)" in result.stdout
    assert "Where to look" in result.stdout
    best = invoke_json("suggest", WORKED, "--horizon", 1)["looks"][0]["slot"]
    first_row = next(
        line for line in result.stdout.splitlines() if re.search(r"\b[A-F][12]\b", line)
    )
    assert best in first_row  # the table lists the best look first
    assert "lower bound" not in result.stdout  # one look left, one valued: exact


def test_suggest_beyond_two_looks_is_a_labelled_lower_bound():
    """Three looks left and --horizon 3: two are valued (depth 2), and the output says that the
    values are lower bounds; with two looks left the same values are exact."""
    data = invoke_json("suggest", WORKED, "--horizon", 3, "--looks-left", 3)
    assert data["exact"] is False
    assert data["horizon"] == 2  # the looks valued
    two = invoke_json("suggest", WORKED, "--horizon", 2, "--looks-left", 2)
    assert data["looks"] == two["looks"] and two["exact"] is True
    result = invoke("suggest", WORKED, "--horizon", 3, "--looks-left", 3)
    assert result.exit_code == 0
    assert "depth 2" in result.stdout and "lower bounds" in result.stdout
    exact = invoke("suggest", WORKED, "--horizon", 2, "--looks-left", 2).stdout
    assert "lower bound" not in exact and "optimal: p(vote hits) =" in exact


def test_suggest_default_horizon_is_the_looks_left_by_the_rules(tmp_path):
    # Ana has logged 4 looks: one more, after an announcement
    default = invoke_json("suggest", WORKED)
    assert default["horizon"] == 1 and default["exact"] is True
    assert default == invoke_json("suggest", WORKED, "--horizon", 1)
    # after 5 events Ana has looked 3 times: one to reach 4, and one after an announcement
    early = invoke_json("suggest", WORKED, "--upto", 5)
    assert early["events"] == 5
    assert early["horizon"] == 2 and early["exact"] is True
    # once Ana herself has announced she looks no more: nothing to value, only the vote
    log = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    log["events"].append({"announce": "Ana"})
    announced = invoke_json("suggest", write(tmp_path / "announced.yaml", log))
    assert announced["horizon"] == 0 and announced["looks"] == []
    assert announced["vote"] == ["A"] and announced["p_vote"] == round(32_784 / 40_320, 6)
    # another player announced: Ana has exactly one look left
    log["events"][-1] = {"announce": "Ben"}
    other = invoke_json("suggest", write(tmp_path / "ben.yaml", log))
    assert other["horizon"] == 1
    assert other["looks"] == default["looks"]


# --- check -------------------------------------------------------------------------------------


def test_check_medium_puzzle_is_unique_with_answer_d():
    data = invoke_json("check", MEDIUM)
    assert data["unique"] is True
    assert data["answer"] == ["D"] and data["answers"] == [["D"]]
    assert data["witnesses"] == []
    assert data["answer_matches"] is True
    assert data["difficulty"] == "medium"
    visible = yaml.safe_load(MEDIUM.read_text(encoding="utf-8"))["puzzle"]["visible"]
    seen = by_slot({s: str(c) for s, c in visible.items()})
    # brute force: D is the only culprit in all 6! completions
    culprit_sets = {culprits for _, culprits in completions(seen)}
    assert culprit_sets == {frozenset({COLUMNS.index("D")})}
    # the example says no visible card can be left out; check by brute force too
    for slot in seen:
        fewer = {s: c for s, c in seen.items() if s != slot}
        assert len({culprits for _, culprits in completions(fewer)}) > 1
    assert data["redundant"] == []
    assert data["minimal"] == list(range(len(visible)))
    result = invoke("check", MEDIUM)
    assert result.exit_code == 0
    assert "unique: the culprit is D Denise" in result.stdout


def test_check_ambiguous_puzzle_shows_two_witnesses_that_disagree():
    visible = yaml.safe_load(AMBIGUOUS.read_text(encoding="utf-8"))["puzzle"]["visible"]
    visible = {s: str(c) for s, c in visible.items()}
    data = invoke_json("check", AMBIGUOUS, exit_code=1)
    assert data["unique"] is False
    assert data["answer"] is None
    witnesses = data["witnesses"]
    assert len(witnesses) == 2
    assert witnesses[0]["culprit"] != witnesses[1]["culprit"]
    possible = {culprits for _, culprits in completions(by_slot(visible))}
    for witness in witnesses:
        layout = witness["layout"]
        assert sorted(layout) == sorted(SLOTS)
        assert sorted(layout.values()) == sorted(c.name for c in DECK.cards)  # a real layout
        for slot, card in visible.items():
            assert layout[slot] == card  # it shows the visible cards
        # and its culprits are what the rules make of it
        _, culprits = resolve(tuple(CARD[layout[s]] for s in SLOTS), DECK)
        assert [COLUMNS[c] for c in sorted(culprits)] == witness["culprit"]
        assert culprits in possible
    assert len(data["answers"]) >= 2
    assert len({tuple(a) for a in data["answers"]}) == len(data["answers"])
    result = invoke("check", AMBIGUOUS)
    assert result.exit_code == 1
    assert "NOT unique" in result.stdout


@pytest.mark.parametrize(("answer", "exit_code"), [("E", 1), (["D", "F"], 1), ("d", 0), (["D"], 0)])
def test_check_verifies_the_authors_answer(tmp_path, answer, exit_code):
    puzzle = yaml.safe_load(MEDIUM.read_text(encoding="utf-8"))
    puzzle["puzzle"]["answer"] = answer
    path = write(tmp_path / "puzzle.yaml", puzzle)
    data = invoke_json("check", path, exit_code=exit_code)
    assert data["unique"] is True and data["answer"] == ["D"]
    assert data["answer_matches"] is (exit_code == 0)
    result = invoke("check", path)
    assert result.exit_code == exit_code
    assert ("is not proven" in result.stdout) is (exit_code == 1)


def test_an_author_answer_to_an_ambiguous_puzzle_is_not_proven(tmp_path):
    puzzle = yaml.safe_load(AMBIGUOUS.read_text(encoding="utf-8"))
    puzzle["puzzle"]["answer"] = "A"
    data = invoke_json("check", write(tmp_path / "p.yaml", puzzle), exit_code=1)
    assert data["unique"] is False and data["answer_matches"] is False


@pytest.mark.parametrize("path", [MEDIUM, AMBIGUOUS])
def test_a_puzzle_given_as_look_events_checks_like_visible(tmp_path, path):
    puzzle = yaml.safe_load(path.read_text(encoding="utf-8"))
    body = puzzle["puzzle"]
    visible = body.pop("visible")
    body["given"] = [{"look": {"slot": s, "card": c}} for s, c in visible.items()]
    expected_exit = 0 if path == MEDIUM else 1
    as_visible = invoke_json("check", path, exit_code=expected_exit)
    as_given = invoke_json("check", write(tmp_path / "given.yaml", puzzle), exit_code=expected_exit)
    assert as_given == as_visible


def test_a_given_puzzle_may_log_other_players_looks(tmp_path):
    puzzle = yaml.safe_load(MEDIUM.read_text(encoding="utf-8"))
    body = puzzle["puzzle"]
    visible = body.pop("visible")
    body["given"] = [{"look": {"by": "Ben", "slot": "C2"}}] + [
        {"look": {"slot": s, "card": c}} for s, c in visible.items()
    ]
    data = invoke_json("check", write(tmp_path / "given.yaml", puzzle))
    assert data["unique"] is True and data["answer"] == ["D"]
    assert data["clues"] == len(visible)


def unique_culprits(named: dict[str, str]) -> frozenset[int] | None:
    """The culprit set when it is the same in every completion (brute force), else None."""
    found = {culprits for _, culprits in completions(by_slot(named))}
    return next(iter(found)) if len(found) == 1 else None


def test_redundant_and_minimal_are_indexes_in_given(tmp_path):
    """DESIGN.md, Puzzle format: `redundant` and `minimal` are 0-based indexes in `given`, also
    when `given` holds looks that show no card."""
    puzzle = yaml.safe_load(MEDIUM.read_text(encoding="utf-8"))
    body = puzzle["puzzle"]
    visible = {s: str(c) for s, c in body.pop("visible").items()}
    first, _ = next(iter(completions(by_slot(visible))))  # any completion: one more true card
    slot, card = next(
        (SLOTS[s], c.name) for s, c in sorted(first.items()) if SLOTS[s] not in visible
    )
    given = [{"look": {"by": "Ben", "slot": "C2"}}]
    given += [{"look": {"slot": s, "card": c}} for s, c in visible.items()]
    given.append({"look": {"slot": slot, "card": card}})
    body["given"] = given
    shown = {
        i: (g["look"]["slot"], g["look"]["card"])
        for i, g in enumerate(given)
        if "card" in g["look"]
    }
    answer = unique_culprits(dict(shown.values()))
    assert answer == frozenset({COLUMNS.index("D")})
    expected_redundant = [
        i for i in shown if unique_culprits(dict(v for j, v in shown.items() if j != i)) == answer
    ]
    assert len(given) - 1 in expected_redundant  # the added card is redundant

    data = invoke_json("check", write(tmp_path / "given.yaml", puzzle))
    assert data["unique"] is True and data["answer"] == ["D"]
    assert data["redundant"] == expected_redundant
    minimal = data["minimal"]
    assert set(minimal) <= set(shown)  # only looks that show a card are clues
    assert unique_culprits(dict(shown[i] for i in minimal)) == answer
    for i in minimal:
        assert unique_culprits(dict(shown[j] for j in minimal if j != i)) != answer


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        ("puzzle:\n  question: culprit\n", ["a puzzle needs"]),
        ("puzzle:\n  visible: {A1: diamond}\n  question: who\n", ["did you mean 'culprit'"]),
        ("puzzle:\n  visible: {A1: diamond, G1: '3'}\n", ["unknown slot 'G1'"]),
        ("puzzle:\n  visible: {A1: diamnd}\n", ["did you mean 'diamond'"]),
        (
            "puzzle:\n  given:\n    - look: {slot: A1, card: '3'}\n    - lok: {slot: B1}\n",
            ["event 2", "line 5", "did you mean 'look'"],
        ),
        ("puzzle: [A1, diamond]\n", ["a puzzle needs"]),
    ],
)
def test_a_malformed_puzzle_is_one_error_line_exit_2(tmp_path, body, fragments):
    path = tmp_path / "bad.yaml"
    path.write_text("game: six-suspects\n" + body, encoding="utf-8")
    assert_one_error_line(invoke("check", path), 2, *fragments)
    data = invoke_json("check", path, exit_code=2)
    assert data["exit_code"] == 2 and all(f in data["error"] for f in fragments)


def test_a_puzzle_showing_one_card_twice_is_a_contradiction(tmp_path):
    path = tmp_path / "twice.yaml"
    path.write_text("game: six-suspects\npuzzle:\n  visible: {A1: '3', B1: '3'}\n")
    message = assert_one_error_line(invoke("check", path), 1, "card 3 seen at A1 and at B1")
    assert "cannot all be true" in message


# --- generate ----------------------------------------------------------------------------------


def answer_list(answer) -> list[str]:
    return sorted(answer) if isinstance(answer, list) else [answer]


def test_generate_visible_six_puzzles_check_unique(tmp_path):
    args = ("generate", "six-suspects", "--count", 3, "--seed", 5, "--visible", 6, "--json")
    first = invoke(*args)
    assert first.exit_code == 0, first.stderr
    puzzles = json.loads(first.stdout)
    assert len(puzzles) == 3
    assert invoke(*args).stdout == first.stdout  # the same seed, the same puzzles
    for i, puzzle in enumerate(puzzles):
        assert puzzle["game"] == "six-suspects"
        body = puzzle["puzzle"]
        assert len(body["visible"]) == 6
        assert body["question"] == "culprit"
        assert body["difficulty"] == "medium"  # 6 hidden
        path = write(tmp_path / f"p{i}.yaml", puzzle)
        checked = invoke_json("check", path)
        assert checked["unique"] is True
        assert checked["answer"] == answer_list(body["answer"])
        assert checked["answer_matches"] is True
        assert checked["difficulty"] == body["difficulty"]
        # generation drops every clue it can: none is redundant
        assert checked["redundant"] == [] and checked["minimal"] == list(range(6))
        culprit_sets = {c for _, c in completions(by_slot(body["visible"]))}
        assert culprit_sets == {frozenset(COLUMNS.index(a) for a in checked["answer"])}


def test_generate_yaml_is_the_json_as_documents():
    as_json = invoke_json("generate", "six-suspects", "--count", 2, "--seed", 5, "--visible", 6)
    text = invoke("generate", "six-suspects", "--count", 2, "--seed", 5, "--visible", 6).stdout
    assert list(yaml.safe_load_all(text)) == as_json


def test_generate_difficulty_one_is_easy(tmp_path):
    puzzles = invoke_json("generate", "six-suspects", "--count", 2, "--seed", 3, "--difficulty", 1)
    assert len(puzzles) == 2
    for i, puzzle in enumerate(puzzles):
        body = puzzle["puzzle"]
        assert body["difficulty"] == "easy"
        assert 12 - len(body["visible"]) <= 4  # easy: 4 cards or fewer hidden
        checked = invoke_json("check", write(tmp_path / f"e{i}.yaml", puzzle))
        assert checked["difficulty"] == "easy"
        assert checked["answer"] == answer_list(body["answer"])


# --- simulate ----------------------------------------------------------------------------------


def wilson(hits: int, games: int, z: float = 1.96) -> tuple[float, float]:
    p = hits / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def test_simulate_random_policy():
    args = ("simulate", "six-suspects", "--games", 30, "--seed", 1, "--policy", "random")
    data = invoke_json(*args)
    assert data["game"] == "six-suspects"
    assert data["looks"] == 5
    assert list(data["policies"]) == ["random"]
    result = data["policies"]["random"]
    assert result["games"] == 30
    assert 0 <= result["hits"] <= 30
    assert result["p_hit"] == round(result["hits"] / 30, 6)
    low, high = result["interval95"]
    assert 0 <= low <= result["p_hit"] <= high <= 1
    assert (low, high) == pytest.approx(wilson(result["hits"], 30), abs=1e-4)
    assert invoke_json(*args) == data  # the same seed, the same games


def test_simulate_policy_typo_suggests_advice():
    args = ("simulate", "six-suspects", "--games", 2, "--policy", "advise")
    assert_one_error_line(invoke(*args), 2, "unknown policy 'advise'", "did you mean 'advice'")
    assert "did you mean 'advice'" in invoke_json(*args, exit_code=2)["error"]


def test_simulate_three_of_a_crime_has_no_policy():
    result = invoke("simulate", "three-of-a-crime", "--games", 5, "--policy", "random")
    assert_one_error_line(result, 2, "--policy")


# --- solve --deck ------------------------------------------------------------------------------

OTHER_DECK = """\
suspects: [Albert, Bernard, Camille, Denise, Edgar, Francine]
diamond_total: 3
cards:
  - {name: "0", kind: plain, value: 5}
  - {name: "1", kind: plain, value: 4}
  - {name: "2", kind: plain, value: 3}
  - {name: "3", kind: plain, value: 2.5}
  - {name: "4", kind: plain, value: 1}
  - {name: "5", kind: plain, value: 0}
  - {name: swap, kind: swap, value: 0}
  - {name: torch-left, kind: torch-left}
  - {name: torch-right, kind: torch-right}
  - {name: mirror, kind: mirror}
  - {name: diamond, kind: diamond}
  - {name: police, kind: police}
"""
# eight cards seen: 4! completions of torch-left, torch-right, mirror and 4 in B2, D1, E2, F2
DECK_SEEN = {
    "A1": "3",
    "A2": "swap",
    "B1": "0",
    "C1": "diamond",
    "C2": "1",
    "D2": "5",
    "E1": "police",
    "F1": "2",
}


def test_solve_with_another_deck_counts_by_its_values(tmp_path):
    deck_path = tmp_path / "values.yaml"
    deck_path.write_text(OTHER_DECK, encoding="utf-8")
    other = load_deck(deck_path)
    events = [{"look": {"slot": s, "card": c}} for s, c in DECK_SEEN.items()]
    log = write(
        tmp_path / "log.yaml",
        {"game": "six-suspects", "players": ["Ana", "Ben"], "me": "Ana", "events": events},
    )
    expected_default = brute_counts(by_slot(DECK_SEEN))
    expected_other = brute_counts(by_slot(DECK_SEEN, other), other)
    assert expected_default[0] == expected_other[0] == 24
    assert expected_default[1] != expected_other[1], "the decks must tell the suspects apart"

    plain = invoke_json("solve", log)
    swapped = invoke_json("solve", log, "--deck", deck_path)
    for data, (worlds, culprit) in ((plain, expected_default), (swapped, expected_other)):
        assert data["worlds"] == worlds
        assert list(data["culprit_count"].values()) == culprit
        assert data["culprit"] == {
            c: round(n / worlds, 6) for c, n in zip(COLUMNS, culprit, strict=True)
        }
        certain = [c for c, n in zip(COLUMNS, culprit, strict=True) if n == worlds]
        assert data["certain_culprit"] == (certain[0] if len(certain) == 1 else None)
        assert data["certainly_innocent"] == [
            c for c, n in zip(COLUMNS, culprit, strict=True) if n == 0
        ]
    # the same deck named in the log's header, relative to the log's folder
    header = yaml.safe_load(log.read_text(encoding="utf-8"))
    header = {"game": "six-suspects", "deck": "values.yaml", **header}
    assert invoke_json("solve", write(tmp_path / "with-deck.yaml", header)) == swapped


# --- the session -------------------------------------------------------------------------------

SLEUTH = ROOT / ".venv" / "bin" / "sleuth"
COMMAND = [str(SLEUTH)] if SLEUTH.exists() else [sys.executable, "-m", "cli.app"]
ENV = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}

TYPED = [
    "players Ana Ben",
    "me Ana",
    "show",  # nothing seen yet: no suggested slot
    "look A1 diamond",
    "look Ben C2",
    "look A2 3",
    "look B1 polise",  # a typo: refused, kept under `rejected:`
    "look B1 police",
    "undo",
    "save {copy}",
    "look C1 3",  # contradicts event 3 (card 3 at A2): reported, kept in the log
]
RIGHT_EVENTS = [
    {"look": {"slot": "A1", "card": "diamond"}},
    {"look": {"by": "Ben", "slot": "C2"}},
    {"look": {"slot": "A2", "card": "3"}},
]


def played(log: Path, typed: str) -> subprocess.CompletedProcess:
    """A real `sleuth play six-suspects` session saving to `log`, fed `typed`."""
    return subprocess.run(
        [*COMMAND, "play", "six-suspects", "--log", str(log)],
        input=typed,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        cwd=ROOT,
        env=ENV,
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("session")
    log, copy = folder / "game.yaml", folder / "copy.yaml"
    typed = "".join(line.format(copy=copy) + "\n" for line in TYPED)
    done = played(log, typed)
    return done, log, copy


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_session_saves_exactly_the_typed_events(session):
    done, log, copy = session
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    saved = load(copy)  # the log as it stood after the undo
    assert saved["game"] == "six-suspects"
    assert saved["players"] == ["Ana", "Ben"]
    assert saved["me"] == "Ana"
    assert saved["events"] == RIGHT_EVENTS
    for n in (1, 2, 3, 4):
        assert f"event {n} saved" in done.stdout
    assert "removed event 4: {'look': {'slot': 'B1', 'card': 'police'}}" in done.stdout
    # the saved file is a log the other commands read: A1 and A2 seen, 10! completions
    solved = invoke_json("solve", copy)
    assert solved["events"] == 3
    assert solved["seen"] == {"A1": "diamond", "A2": "3"}
    assert solved["worlds"] == math.factorial(10)


def test_session_refuses_a_typo_and_keeps_it_under_rejected(session):
    done, log, copy = session
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2, done.stderr  # the typo and the contradiction
    assert "unknown card 'polise'" in errors[0] and "did you mean 'police'" in errors[0]
    rejected = load(copy)["rejected"]
    assert len(rejected) == 1
    assert rejected[0]["typed"] == "look B1 polise"
    assert "did you mean 'police'" in rejected[0]["error"]
    assert list(load(copy))[-2:] == ["events", "rejected"]


def blocks(stdout: str) -> list[str]:
    """The session's output cut at each event saved or removed (one grid per piece)."""
    return re.split(r"(?m)^(?=event \d+ saved|removed event)", stdout)[1:]


def grid_cells(block: str) -> dict[str, str]:
    """The printed 2 x 6 grid of one piece of output: slot -> the text of its cell."""
    cells: dict[str, str] = {}
    for line in block.splitlines():
        match = re.match(r"\s*│ row ([12]) │(.*)│\s*$", line)
        if match:
            row = [cell.strip() for cell in match.group(2).split("│")]
            assert len(row) == 6, line
            cells.update({f"{COLUMNS[i]}{match.group(1)}": cell for i, cell in enumerate(row)})
    return cells


def test_session_grid_marks_the_look_suggest_advises(session):
    """The session's suggested look and its value are `suggest`'s (one advice function for
    every front end), said as exact or as a lower bound at depth N."""
    done, _, _ = session
    pieces = blocks(done.stdout)
    # events 1-4 saved and the undo; the contradiction adds no grid
    police = {"look": {"slot": "B1", "card": "police"}}
    prefixes = [RIGHT_EVENTS[:1], RIGHT_EVENTS[:2], RIGHT_EVENTS, [*RIGHT_EVENTS, police]]
    prefixes.append(RIGHT_EVENTS)
    assert len(pieces) == len(prefixes)
    for piece, events in zip(pieces, prefixes, strict=True):
        match = re.search(
            r"suggested next look: ([A-F][12]) \((?:optimal: )?p\(vote hits\) (≥|=) (\S+?),? ",
            piece,
        )
        assert match, piece
        slot, relation, shown_p = match.groups()
        cells = grid_cells(piece)
        assert len(cells) == 12, piece
        assert [s for s, cell in cells.items() if cell == "▶ look"] == [slot]
        data = {"game": "six-suspects", "players": ["Ana", "Ben"], "me": "Ana", "events": events}
        advised = SixSuspects().suggest(Document(data)).data
        assert slot == advised["looks"][0]["slot"]
        assert shown_p == f"{advised['looks'][0]['p_hit']:.3f}"
        assert (relation == "=") == advised["exact"]
        if not advised["exact"]:
            assert f"depth {advised['horizon']} of {advised['looks_left']} looks left" in piece
    before = done.stdout.split("event 1 saved")[0]
    assert "nothing seen yet" in before and "▶ look" not in before


def test_session_reports_a_contradiction_naming_both_events_and_keeps_it(session):
    done, log, _ = session
    assert "events 3 and 4 cannot all be true" in done.stderr
    assert "card 3 seen at A2 and at C1" in done.stderr
    assert "kept in the log" in done.stdout
    assert load(log)["events"] == [*RIGHT_EVENTS, {"look": {"slot": "C1", "card": "3"}}]
    # the kept log is contradictory for the other commands too
    result = invoke("solve", log, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["conflicting_events"] == [3, 4]


def test_suggest_compares_announcing_now_with_looking_again(tmp_path):
    """Once everyone has looked 4 times: my exact chance if I announce now (the vote today)
    beside looking again (the best look's value), with what is assumed of the others; before
    that, no comparison."""
    assert invoke_json("suggest", WORKED)["announce_or_look"] is None  # Ben has looked 3 times
    log = tmp_path / "open.yaml"
    data = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    data["events"].append({"look": {"by": "Ben", "slot": "A2"}})
    log.write_text(yaml.safe_dump(data), encoding="utf-8")
    advised = invoke_json("suggest", log)
    compared = advised["announce_or_look"]
    assert compared["announce_now"] == advised["p_vote"]
    assert compared["look_again"] == advised["looks"][0]["p_hit"] > compared["announce_now"]
    assert compared["look_policy"] == "optimal" and "my chance only" in compared["assumption"]
    assert "announce now: p(vote hits) = 0.813; look again: 0.935" in invoke("suggest", log).stdout


def test_looks_in_play_tells_the_looks_left_and_suggest_reads_it(tmp_path):
    log = tmp_path / "looks.yaml"
    typed = "players Ana Ben\nme Ana\nlook A1 diamond\nlooks 2\nshow\nlooks x\nquit\n"
    done = played(log, typed)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "expected looks N" in done.stderr  # a bad number: one line, the session goes on
    assert load(log)["looks_left"] == {"looks": 2, "after_event": 1}  # told after event 1
    advised = invoke_json("suggest", log)
    assert advised["looks_left"] == 2 and advised["policy"] == "optimal"
    assert advised["looks_left_from"] == "as the log's looks_left says"
    shown = done.stdout.split("looks_left: ")[1]
    slot = advised["looks"][0]["slot"]
    assert f"suggested next look: {slot} (optimal: p(vote hits) = " in shown
    assert "2 look(s) left (told 2 after event 1)" in shown
    assert invoke_json("suggest", log, "--looks-left", 1)["looks_left"] == 1  # the option wins
