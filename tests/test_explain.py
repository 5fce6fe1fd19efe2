"""`sleuth explain` (solver/explain.py) for Three of a Crime and 6 Suspects, checked against
engines that share nothing with the fast counters: python-constraint's list of every world
(Three of a Crime) and CP-SAT (6 Suspects, the layout model of models/six_suspects/knowledge.py).

On simulated logs: every certain fact is certain from its core alone; leaving out any one event
of the core leaves it uncertain (minimal); each step of a chain states only facts certain from
the events so far; and the probability explanation's "p without it" is the probability the other
engine finds with that event left out."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from conftest import as_document
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app as cli
from models import GAMES
from models.six_suspects.game import SixSuspects
from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.log import Seen
from models.six_suspects.rules import COLUMNS, SLOTS, load_deck
from models.three_of_a_crime import csp
from models.three_of_a_crime.game import ThreeOfACrime
from models.three_of_a_crime.log import parse
from models.three_of_a_crime.rules import ABBREVIATIONS, CARDS, SUSPECTS, short_label
from models.three_of_a_crime.simulate import random_game
from solver.explain import chain, core, influence, solution_path
from solver.logfile import load

EXAMPLES = __import__("pathlib").Path(__file__).parent.parent / "examples"
LONG = pytest.mark.long
FEW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CSP_LIMIT = 20_000  # python-constraint lists every world: only for logs with fewer


# -- Three of a Crime: python-constraint is the other engine ---------------------------------------


def crime_log(seed: int, rounds: int) -> tuple[dict, object]:
    doc, _ = random_game(random.Random(seed), ["Ana", "Ben", "Cleo"], rounds)
    return doc, parse(as_document(doc))


def crime_chances(log, kept: frozenset[int]) -> dict[str, Fraction]:
    """Each suspect's chance on the secret being solved, from python-constraint's worlds."""
    worlds = csp.solutions([f for f in log.facts if f.event in kept], log.draws)
    solving = log.solving if log.solving is not None else log.focus[-1]
    chances = {}
    for index, name in enumerate(SUSPECTS):
        p = Fraction(sum(index in w[solving] for w in worlds), len(worlds))
        chances[f"{name} is guilty"] = p
        chances[f"{name} is innocent"] = 1 - p
    for card in CARDS:
        p = Fraction(sum(w[solving] == card for w in worlds), len(worlds))
        chances[f"the secret card is {short_label(card)}"] = p
    return chances


@FEW
@given(st.integers(0, 2**32 - 1), st.integers(1, 2))
def test_three_of_a_crime_explanations_hold_by_another_engine(seed, rounds):
    doc, log = crime_log(seed, rounds)
    assume(len(csp.solutions([], log.draws)) <= CSP_LIMIT)
    grounds = ThreeOfACrime().grounds(as_document(doc))
    every = frozenset(grounds.statements)
    for fact in grounds.certain(every):
        kept = core(grounds, fact)
        assert crime_chances(log, frozenset(kept))[fact] == 1  # the core entails it
        for event in kept:  # and none of its events can be left out
            assert crime_chances(log, frozenset(kept) - {event})[fact] < 1
        shown: set[int] = set()
        for step in chain(grounds, kept, fact):
            shown.add(step.event)
            certain_now = crime_chances(log, frozenset(shown))
            assert all(certain_now[f] == 1 for f in step.newly_certain)
        assert fact in [f for step in chain(grounds, kept, fact) for f in step.newly_certain]


@FEW
@given(st.integers(0, 2**32 - 1))
def test_three_of_a_crime_influence_is_the_log_solved_without_each_event(seed):
    doc, log = crime_log(seed, 1)
    grounds = ThreeOfACrime().grounds(as_document(doc))
    every = frozenset(grounds.statements)
    open_facts = [f for f, p in grounds.chance(every).items() if 0 < p < 1]
    assume(open_facts)
    fact = open_facts[seed % len(open_facts)]
    for moved in influence(grounds, fact):
        assert moved.without == crime_chances(log, every - {moved.event})[fact]
        assert moved.with_it == crime_chances(log, every)[fact]


# -- 6 Suspects: CP-SAT's layout model is the other engine ------------------------------------------


def six_log(seed: int, looks: int) -> dict:
    """A log of `looks` looks of mine at random slots of a random layout of the default deck."""
    rng = random.Random(seed)
    cards = [c.name for c in load_deck().cards]
    rng.shuffle(cards)
    slots = rng.sample(range(len(SLOTS)), looks)
    events = [{"look": {"slot": SLOTS[s], "card": cards[s]}} for s in slots]
    return {"game": "six-suspects", "players": ["Ana", "Ben"], "me": "Ana", "events": events}


def six_certain(doc: dict, kept: frozenset[int]) -> dict[str, bool | None]:
    """Per fact: True if CP-SAT finds it certain from the looks kept, else False."""
    deck = load_deck()
    seen = [
        Seen(i, SLOTS.index(e["look"]["slot"]), deck.by_name(e["look"]["card"]))
        for i, e in enumerate(doc["events"], 1)
        if i in kept
    ]
    knowledge = LayoutKnowledge(deck, [(s.event, s.slot, s.card.name) for s in seen])
    query = knowledge.culprit_query()
    possible = knowledge.possible(query)
    certain = knowledge.certain(query)
    names = {c: f"{c} {n}" for c, n in zip(COLUMNS, deck.suspects, strict=True)}
    facts: dict[str, bool | None] = {}
    for i, c in enumerate(COLUMNS):
        facts[f"{names[c]} is a culprit"] = i in certain
        facts[f"{names[c]} is innocent"] = i not in possible
    return facts


@settings(FEW, max_examples=2)  # CP-SAT builds the layout model for every subset: ~0.4 s each
@given(st.integers(0, 2**32 - 1), st.integers(5, 9))
def test_six_suspects_explanations_hold_by_cp_sat(seed, looks):
    doc = six_log(seed, looks)
    grounds = SixSuspects().grounds(as_document(doc))
    asked: dict[frozenset[int], dict[str, bool | None]] = {}

    def certain(kept: frozenset[int]) -> dict[str, bool | None]:
        if kept not in asked:
            asked[kept] = six_certain(doc, kept)
        return asked[kept]

    facts = grounds.certain(frozenset(grounds.statements))
    for fact in random.Random(seed).sample(facts, min(3, len(facts))):
        kept = core(grounds, fact)
        assert certain(frozenset(kept))[fact]
        for event in kept:
            assert not certain(frozenset(kept) - {event})[fact]
        shown: set[int] = set()
        for step in chain(grounds, kept, fact):
            shown.add(step.event)
            assert all(certain(frozenset(shown))[f] for f in step.newly_certain)


def test_six_suspects_influence_counts_every_layout_without_each_look():
    """Nine looks: the 3! arrangements of the rest are listed by CP-SAT, with each look left out
    in turn (then 4! of them)."""
    doc = six_log(7, 9)
    grounds = SixSuspects().grounds(as_document(doc))
    deck = load_deck()
    every = frozenset(grounds.statements)
    fact = next(f for f, p in grounds.chance(every).items() if f.endswith("a culprit"))
    column = COLUMNS.index(fact.split()[0])
    for moved in influence(grounds, fact):
        seen = [
            (i, SLOTS.index(e["look"]["slot"]), e["look"]["card"])
            for i, e in enumerate(doc["events"], 1)
            if i != moved.event
        ]
        knowledge = LayoutKnowledge(deck, seen)
        counts = knowledge.enumerate(knowledge.culprit_query())
        worlds = sum(counts.values())
        hits = sum(n for answer, n in counts.items() if column in answer)
        assert moved.without == Fraction(hits, worlds)


# -- the command ------------------------------------------------------------------------------------


def test_explain_names_a_minimal_chain_in_the_json():
    log = EXAMPLES / "three-of-a-crime" / "multi-round.yaml"
    result = CliRunner().invoke(cli, ["explain", str(log), "NNN guilty", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["fact"] == "No Neck Nick is guilty" and data["minimal"] is True
    assert [e["event"] for e in data["events"]] == [s["event"] for s in data["chain"]]
    assert all(isinstance(e["line"], int) and e["text"] for e in data["events"])
    assert "No Neck Nick is guilty" in data["chain"][-1]["newly_certain"]


def test_explain_of_every_certain_fact_and_of_an_open_one():
    log = EXAMPLES / "three-of-a-crime" / "multi-round.yaml"
    every = json.loads(CliRunner().invoke(cli, ["explain", str(log), "--json"]).stdout)
    solved = json.loads(CliRunner().invoke(cli, ["solve", str(log), "--json"]).stdout)
    assert sorted(f["fact"] for f in every["facts"]) == sorted(solved["certain"])
    open_one = json.loads(
        CliRunner().invoke(cli, ["explain", str(log), "HB guilty", "--json"]).stdout
    )
    assert (
        open_one["certain"] is False
        and open_one["probability"] == solved["suspect"]["Humpty Bumpty"]
    )
    assert open_one["influence"] and "left out" in open_one["method"]


@pytest.mark.parametrize(
    ("asked", "hint"), [("NNM guilty", "did you mean 'No Neck Nick is guilty'"), ("zzz", "")]
)
def test_a_fact_that_does_not_exist_is_one_line(asked, hint):
    log = EXAMPLES / "three-of-a-crime" / "multi-round.yaml"
    result = CliRunner().invoke(cli, ["explain", str(log), asked])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "no fact named" in result.stderr and hint in result.stderr


def test_explain_upto_explains_what_was_known_then():
    log = EXAMPLES / "three-of-a-crime" / "multi-round.yaml"
    result = CliRunner().invoke(cli, ["explain", str(log), "--upto", "14", "--json"])
    assert json.loads(result.stdout)["facts"] == []  # NNN becomes certain at event 15


UNIQUE_PUZZLES = [  # the slowest to check (CP-SAT's minimal clue set) only in make test-long
    p if p.name != "puzzle-medium.yaml" or "six" in p.parent.name else pytest.param(p, marks=LONG)
    for p in sorted(EXAMPLES.glob("*/puzzle-*.yaml"))
    if "ambiguous" not in p.name
]


def says_the_answer(game: str, answer, facts: list[str]) -> bool:
    """Whether a solution path's facts state the answer `check` found (in its JSON form)."""
    if game == "three-of-a-crime":
        card = " ".join(short for short, name in ABBREVIATIONS.items() if name in answer)
        return len(facts) == 1 and facts[0] == f"the secret card is {card}"
    if game == "six-suspects":
        culprits = sorted(f[0] for f in facts if f.endswith(" is a culprit"))
        return culprits == answer and len(facts) == len(COLUMNS)
    if game == "game-of-suspicion":
        return len(facts) == 1 and facts[0].endswith(f"'s hand is {' '.join(map(str, answer))}")
    return facts == [f for f in facts if f.endswith(f": {answer}")] and len(facts) == 1


@pytest.mark.parametrize("puzzle", UNIQUE_PUZZLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_check_explain_prints_the_solution_path_of_every_unique_puzzle(puzzle):
    """Each fact of the path is certain from its own clues alone, no clue of them can be left
    out, the facts state the answer `check` found, and the length and depth are those of the
    facts' sets and case splits."""
    result = CliRunner().invoke(cli, ["check", str(puzzle), "--explain", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    path = data["solution_path"]
    facts = [part["fact"] for part in path["facts"]]
    assert says_the_answer(data["game"], data["answer"], facts)
    grounds = GAMES[data["game"]].grounds(load(str(puzzle)))
    splits = set()
    for part in path["facts"]:
        fact, kept = part["fact"], frozenset(e["event"] for e in part["events"])
        assert part["minimal"] and grounds.chance(kept)[fact] == 1
        assert all(grounds.chance(kept - {e})[fact] < 1 for e in kept)
        for step in part["chain"]:
            if step["split"]:
                splits.add(step["event"])
                assert fact in step["newly_certain"]
                assert grounds.chance(frozenset({step["event"]}))[fact] < 1
    used = sorted({e["event"] for part in path["facts"] for e in part["events"]})
    assert [e["event"] for e in path["events"]] == used and path["length"] == len(used)
    assert path["depth"] == len(splits)
    text = CliRunner().invoke(cli, ["check", str(puzzle), "--explain"]).stdout
    assert f"path: {len(used)} clues" in text


def test_check_explain_of_a_puzzle_that_is_not_unique_prints_no_path():
    ambiguous = EXAMPLES / "three-of-a-crime" / "puzzle-ambiguous.yaml"
    result = CliRunner().invoke(cli, ["check", str(ambiguous), "--explain", "--json"])
    assert result.exit_code == 1 and "solution_path" not in json.loads(result.stdout)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_generated_puzzles_carry_their_solution_paths_length_and_depth(game):
    result = CliRunner().invoke(cli, ["generate", game, "--count", "1", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    for made in json.loads(result.stdout):
        grade = made["puzzle"].pop("path")
        path = solution_path(GAMES[game], as_document(made)).data
        assert grade == {"length": path["length"], "depth": path["depth"]}
        assert grade["length"] >= 1 and 0 <= grade["depth"] <= grade["length"]


def test_why_in_the_session_explains_as_explain_does(tmp_path):
    """`why FACT` in `sleuth play`: the same chain as `sleuth explain` on the saved log; a
    fact that does not exist is one error line and the session goes on."""
    import subprocess
    import sys

    lines = ["players Ana Ben Cleo", "me Ana", "card JC LSL PT 2", "card LEL LSL PT 1"]
    script = "\n".join([*lines, "why JC guilty", "why zzz", "show", "quit"]) + "\n"
    log = tmp_path / "why.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", "play", "three-of-a-crime", "--log", str(log)],
        input=script,
        text=True,
        capture_output=True,
        cwd=EXAMPLES.parent,
    )
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    explained = json.loads(
        CliRunner().invoke(cli, ["explain", str(log), "JC guilty", "--json"]).stdout
    )
    for step in explained["chain"]:
        assert f"event {step['event']}: {step['text']}" in done.stdout
    assert "no fact named 'zzz'" in done.stdout + done.stderr
    assert "rejected" not in log.read_text()  # a question is not an event


def test_a_fact_the_rest_of_the_log_makes_certain_needs_no_statement():
    """A fact certain with every statement left out (e.g. a card seen moving) has an empty core,
    and the explanation says so instead of naming no event."""
    from solver.explain import Grounds, explained

    grounds = Grounds(
        [1, 2],
        lambda kept: {"the card is face up": Fraction(1), "Ben holds it": Fraction(len(kept), 2)},
        lambda event: f"statement {event}",
    )
    assert core(grounds, "the card is face up") == []
    report = explained("test", as_document({"events": [{}, {}]}), grounds, "card face up")
    assert report.data["events"] == [] and "no statement is needed" in report.lines[0]
    assert core(grounds, "Ben holds it") == [1, 2]
