"""Long Three of a Crime logs: 10,000 events are solved, suggested, replayed and checked, and the
answers are compared with independent computations written here (timing is measured in
bench/three_of_a_crime.py, not here). Also `sleuth` end to end on the variation for two."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import as_document
from test_session import ROOT, play
from typer.testing import CliRunner

from cli.app import app
from models.three_of_a_crime.game import REPLAY_TABLE_ROWS, ThreeOfACrime
from models.three_of_a_crime.knowledge import CrimeKnowledge
from models.three_of_a_crime.log import parse
from models.three_of_a_crime.rules import CARDS, SUSPECTS, Card, card_names, overlap
from models.three_of_a_crime.simulate import long_game
from solver import puzzle as puzzles
from solver.errors import Contradiction

GAME = ThreeOfACrime()
EVENTS = 10_000
EXAMPLE = ROOT / "examples" / "three-of-a-crime" / "variation-for-two.yaml"


def as_card(names: list[str]) -> Card:
    return tuple(sorted(SUSPECTS.index(n) for n in names))  # type: ignore[return-value]


def independent_worlds(events: list[dict]) -> Counter:
    """Counts of the last round's card over every tuple of round secrets, read from the raw events
    with rules.overlap only: each round's own tokens and wrong accusations, its card if won, no
    card face up in a later round, all different (a backtracking count over the rounds)."""
    rounds: list[list[dict]] = [[]]
    for event in events:
        if "round" in event:
            if rounds[-1]:
                rounds.append([])
            continue
        rounds[-1].append(event)
    allowed = []
    for number, own in enumerate(rounds):
        later = {as_card(e["card"]) for r in rounds[number + 1 :] for e in r if "card" in e}
        cards = set(CARDS) - later
        for event in own:
            if "card" in event:
                shown = as_card(event["card"])
                cards = {c for c in cards if c != shown and overlap(shown, c) == event["token"]}
            elif "accuse" in event and not event["accuse"]["correct"]:
                cards.discard(as_card(event["accuse"]["suspects"]))
            elif "won" in event and "card" in event["won"]:
                cards &= {as_card(event["won"]["card"])}
        allowed.append(sorted(cards))
    found: Counter = Counter()

    def extend(index: int, used: set[Card]) -> None:
        if index == len(allowed):
            return
        for c in allowed[index]:
            if c in used:
                continue
            if index == len(allowed) - 1:
                found[c] += 1
            else:
                extend(index + 1, used | {c})

    order = sorted(range(len(allowed) - 1), key=lambda i: len(allowed[i]))
    allowed = [allowed[i] for i in order] + [allowed[-1]]
    extend(0, set())
    return found


@pytest.fixture(scope="module", params=[1.0, 0.6])
def long_log(request) -> dict:
    doc, truths = long_game(random.Random(2026), EVENTS, reveal_won=request.param)
    assert len(doc["events"]) == EVENTS
    kinds = Counter(next(iter(e)) for e in doc["events"])
    assert kinds["accuse"] > 9_000 and kinds["won"] == 29 and kinds["round"] == 30
    doc["truths"] = truths
    return doc


def test_a_10000_event_log_is_solved_exactly(long_log):
    doc = {k: v for k, v in long_log.items() if k != "truths"}
    solved = GAME.solve(as_document(doc)).data
    assert solved["events"] == EVENTS and solved["round"] == 30
    want = independent_worlds(doc["events"])
    assert long_log["truths"][-1] in want
    total = sum(want.values())
    assert solved["candidates"] == [card_names(c) for c in sorted(want)]
    assert solved["candidate_probability"] == [round(want[c] / total, 6) for c in sorted(want)]
    # suggest names a most likely card, from the same counts, to a detective still in
    current = parse(as_document(doc)).current
    still_in = [p for p in doc["players"] if p not in current.out and p != current.eyewitness]
    suggested = GAME.suggest(as_document({**doc, "me": still_in[0]})).data
    assert suggested["role"] == "detective"
    best = max(want.values())
    assert as_card(suggested["best_accusation"]) in {c for c, n in want.items() if n == best}
    assert suggested["p_correct"] == round(best / total, 6)


def test_a_10000_event_log_is_replayed_in_one_pass(long_log):
    doc = {k: v for k, v in long_log.items() if k != "truths"}
    report = GAME.replay(as_document(doc))
    history = report.data["history"]
    assert [h["event"] for h in history] == list(range(EVENTS + 1))
    final = GAME.solve(as_document(doc)).data
    assert history[-1]["candidates"] == len(final["candidates"])
    assert history[-1]["worlds"] == final["worlds"]
    # spot checks of the one-pass replay against solving the prefix from scratch
    for upto in (1, 2_345, 6_789, EVENTS - 1):
        solved = GAME.solve(as_document(doc), upto=upto).data
        assert (history[upto]["worlds"], history[upto]["candidates"]) == (
            solved["worlds"],
            len(solved["candidates"]),
        ), upto
    # the table shows only the events that changed something, and says so
    (table,) = report.tables
    assert len(table.rows) < EVENTS + 1 - REPLAY_TABLE_ROWS
    assert report.lines[0].startswith(f"{EVENTS + 1 - len(table.rows)} of {EVENTS + 1} events")


def test_a_contradictory_10000_event_log_names_a_minimal_core():
    # every event is true of the simulated secrets but one changed token: it is in every core
    doc, _ = long_game(random.Random(2026), EVENTS, reveal_won=0.6)
    changed = max(i for i, e in enumerate(doc["events"]) if "card" in e)
    event = doc["events"][changed]
    doc["events"][changed] = {**event, "token": (event["token"] + 1) % 3}
    with pytest.raises(Contradiction) as raised:
        GAME.solve(as_document(doc))
    core = raised.value.events
    assert changed + 1 in core
    log = parse(as_document(doc))
    knowledge = CrimeKnowledge(log.facts, log.draws)
    assert not knowledge.consistent_by_count(core)
    for event_number in core:
        assert knowledge.consistent_by_count([e for e in core if e != event_number])


def long_puzzle(seed: int, clues: int) -> tuple[dict, Card]:
    """A one-round puzzle of `clues` clues: a few face-up cards, then wrong accusations (most of
    them repeating cards already ruled out), ending with the face-up card that makes it unique."""
    rng = random.Random(seed)
    truth = rng.choice(CARDS)
    others = [c for c in CARDS if c != truth]
    rng.shuffle(others)
    given: list[dict] = []
    candidates = set(CARDS)
    for c in others:
        token = overlap(c, truth)
        given.append({"card": card_names(c), "token": token})
        candidates = {s for s in candidates if s != c and overlap(c, s) == token}
        if len(candidates) <= 3:
            break
    head = len(given)
    wrong = [c for c in CARDS if c not in candidates]
    while len(given) < clues - 1:
        suspects = card_names(rng.choice(wrong))
        given.insert(
            rng.randint(1, len(given)), {"accuse": {"suspects": suspects, "correct": False}}
        )
    last = next(
        c for c in others[head:] if len({overlap(c, s) for s in candidates}) == len(candidates)
    )
    given.append({"card": card_names(last), "token": overlap(last, truth)})
    doc = {"game": "three-of-a-crime", "puzzle": {"given": given, "question": "secret"}}
    return doc, truth


def mask_oracle(given: list[dict]):
    """The answers a subset of clues allows, from the raw clues and rules.overlap."""

    def oracle(subset):
        cards = set(CARDS)
        for i in subset:
            clue = given[i]
            if "card" in clue:
                shown = as_card(clue["card"])
                cards = {c for c in cards if c != shown and overlap(shown, c) == clue["token"]}
            else:
                cards.discard(as_card(clue["accuse"]["suspects"]))
        return sorted(cards)[:2]

    return oracle


def test_check_finds_the_same_redundant_and_minimal_clues_as_the_generic_tools():
    for seed in range(3):
        doc, truth = long_puzzle(seed, 120)
        report = GAME.check(as_document(doc)).data
        oracle = mask_oracle(doc["puzzle"]["given"])
        clues = list(range(len(doc["puzzle"]["given"])))
        if not report["unique"]:
            continue
        assert as_card(report["answer"]) == truth
        assert report["redundant"] == puzzles.redundant_clues(oracle, clues)
        assert report["minimal"] == puzzles.minimal_clues(oracle, clues)


def test_a_10000_clue_puzzle_is_checked():
    doc, truth = long_puzzle(7, EVENTS)
    given = doc["puzzle"]["given"]
    report = GAME.check(as_document(doc)).data
    assert report["clues"] == EVENTS and report["unique"]
    assert as_card(report["answer"]) == truth
    oracle = mask_oracle(given)
    minimal = report["minimal"]
    assert oracle(minimal) == [truth]
    for dropped in minimal:
        assert len(oracle([c for c in minimal if c != dropped])) > 1
    # a wrong accusation of a card the face-up cards already rule out is always redundant
    for i in range(0, EVENTS, 997):
        if "accuse" in given[i]:
            assert i in report["redundant"]


# --- the variation for two, end to end ----------------------------------------------------------


def sleuth(*args: object):
    """`sleuth ARGS` in this process (the session test below drives a real one)."""
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})
    result.returncode = result.exit_code
    return result


@pytest.mark.parametrize("command", ["solve", "suggest", "replay"])
def test_sleuth_on_the_variation_example(command):
    done = sleuth(command, EXAMPLE, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)  # exactly one JSON object
    if command == "solve":
        assert data["variation"] and data["secret_of"] == "Ben" and len(data["rounds"]) == 2
        assert data["worlds"] == 3 and data["opponent"]["player"] == "Ben"
    elif command == "suggest":
        assert data["secret_of"] == "Ben" and data["detectives_in"] == 1
    else:
        assert [r["eyewitness"] for r in data["history"][-1]["rounds"]] == ["Ana", "Ben"]
    text = sleuth(command, EXAMPLE)
    assert text.returncode == 0 and "Traceback" not in text.output
    if command == "solve":
        assert "Round 1, Ben's card: 3 candidate" in text.stdout
        assert (
            "Round 1 (the variation for two): Ben's card is the card you are solving" in text.stdout
        )
        assert (
            "Ana's card (your own card) is Humpty Bumpty, Loose-Eye Lenny, Pencil Top"
            in text.stdout
        )


def test_a_variation_session_with_short_forms(tmp_path):
    log = tmp_path / "two.yaml"
    typed = (
        "players Ana Ben\n"
        "me Ana\n"
        "round both\n"
        "secret HB LEL PT\n"
        "card HB JC KC 1 Ben\n"
        "card JC KC NNN 0 Ana\n"
        "card LEL LSL NNN 1\n"  # whose token? refused, the session goes on
        "card LEL LSL NNN 1 Ben\n"
    )
    done = play("three-of-a-crime", "--log", log, typed=typed)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "say whose card it is: eyewitness: Ana or Ben" in done.stderr
    assert "Ben's card is the card you are solving" in done.stdout
    solved = json.loads(sleuth("solve", log, "--json").stdout)
    assert solved["variation"] and solved["events"] == 5
    # Ben's space: one of HB JC KC, one of LEL LSL NNN, and so PT: 9 cards; less Ana's own card
    # HB LEL PT (the face-up JC KC NNN is none of them): 8 left, each as likely
    assert len(solved["candidates"]) == 8
    assert set(solved["candidate_probability"]) == {round(1 / 8, 6)}


def test_new_prints_the_variation_template():
    done = sleuth("new", "three-of-a-crime")
    assert done.returncode == 0 and "round: {eyewitness: both}" in done.stdout
    assert "eyewitness: Ben" in done.stdout and "secret:" in done.stdout


def test_example_path_exists():
    assert Path(EXAMPLE).is_file()
