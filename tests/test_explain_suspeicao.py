"""`sleuth explain` for Suspeição, held against the brute force (`suspeicao_brute`, written from
the rules) on the 12-card deck: the exact chances with some statements left out, every certain
fact's minimal set of statements and its chain, and the probability explanation; on the full
deck, certain facts hold in the simulated truth; and the command itself.

A statement left out is read by the brute force in its own terms: a FORCE answered with a card X
becomes X leaving the target's hand (as a card played, weight 1 whichever card it was); a claim
of none weighs nothing; the returned polygraph card is not looked at; `show`, `fact` and `end`
rule nothing out."""

from __future__ import annotations

import contextlib
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption
from suspeicao_brute import Brute, holds, incriminating
from typer.testing import CliRunner

from cli.app import app
from models.suspeicao.explain import Replay, at, brief, opposite
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.rules import load_deck, requirement
from models.suspeicao.simulate import play_round, random_game
from solver.explain import chain, core, influence
from solver.logfile import Document

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "suspeicao"
SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
OPTIONS = [
    {"bluff_rate": "1/5", "force_reveal": "uniform"},
    {"bluff_rate": "1/2", "force_reveal": "protect"},
    {"bluff_rate": "0", "force_reveal": "uniform"},
    {"bluff_rate": "1", "force_reveal": "protect"},
]
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
runner = CliRunner()


class Ignoring(Brute):
    """The brute force with the observations of the events `ignored` not looked at."""

    def __init__(self, data: dict, ignored: frozenset[int]):
        super().__init__(data)
        self.ignored = ignored

    def force(self, dist, seat, target, card, body):
        if self.count not in self.ignored or target == self.i_me:
            return super().force(dist, seat, target, card, body)
        if body.get("revealed") is not None:  # the card left the target's hand, nothing more
            name = self.card(body["revealed"], "revealed")
            dist = self.known(dist, self.bit[name], target, None)
            self.public(name, target)
            return dist
        return self.polygraph(dist, seat, target, body)  # the claim itself weighs nothing

    def observed(self, body, key, sees):
        if self.count in self.ignored and key == "returned":
            return None  # the returned card: not looked at
        return super().observed(body, key, sees)

    def on_show(self, dist, body):
        return dist if self.count in self.ignored else super().on_show(dist, body)

    def on_fact(self, dist, body):
        return dist if self.count in self.ignored else super().on_fact(dist, body)

    def on_end(self, dist, body):
        if self.count not in self.ignored:
            return super().on_end(dist, body)
        assert self.over
        self.ended = True
        return dist


def document(data: dict) -> Document:
    return Document(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)))


def replay_of(data: dict) -> Replay:
    doc = document(data)
    GAME_OBJECT.last.clear()
    post = GAME_OBJECT.posterior(doc)
    return Replay(doc, post.log, post.round, None, post.belief)


class Oracle:
    """Every fact's chance by the brute force, with only the statements `kept` (remembered)."""

    def __init__(self, data: dict, replay: Replay):
        self.data, self.replay = data, replay
        self.known: dict[frozenset[int], dict[str, Fraction]] = {}

    def __call__(self, kept: frozenset[int]) -> dict[str, Fraction]:
        if kept not in self.known:
            self.known[kept] = self.chances(kept)
        return self.known[kept]

    def chances(self, kept: frozenset[int]) -> dict[str, Fraction]:
        r = self.replay
        post = Ignoring(self.data, frozenset(r.statements) - kept).run()
        spread = incriminating(post)
        found = {at(card, place): Fraction(1) for card, place in r.seen.items()}
        for card in r.hidden:
            for place in r.places:
                found[at(card, place)] = spread.get(card, {}).get(place, Fraction(0))
            for place in r.places:
                found[f"evidence {card}: not {place}"] = 1 - found[at(card, place)]
        for req in r.requirements:
            chance = holds(post, req.text)
            for player in r.holders:
                found[f"{player} holds a card meeting {req.text}"] = chance[player]
                found[f"{player} holds no card meeting {req.text}"] = 1 - chance[player]
        return found


def small_round(
    seed: int, players: int, option: int, cut: float, seat: int, clues: int = 0
) -> dict:
    """A round simulated on the 12-card deck, cut after a random event (the whole round half of
    the time), with `clues` true `fact` or `show` events about the simulated truth put in."""
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cleo", "Dan"][:players]
    me = names[seat % players]
    game = play_round(rng, names, me, deck_path=SMALL, options=OPTIONS[option])
    events = list(game.doc["events"])
    keep = len(events) if cut > 0.8 else 1 + int(cut / 0.8 * (len(events) - 1))
    deck = {c.name: c for c in load_deck(SMALL).cards}
    said = []
    for _ in range(clues):
        after = rng.randrange(1, keep if events[keep - 1].get("end") is not None else keep + 1)
        truth = game.truths[after - 1]
        player = rng.choice([p for p in names if p != me])
        hand = [str(c) for c in truth[player]]  # type: ignore[attr-defined]
        if hand and rng.random() < 0.3:
            said.append((after, {"show": {"player": player, "card": rng.choice(hand)}}))
            continue
        req = rng.choice(["odd", "even", "1-5", "6-10", "CLUE", "WEAPON", "LOCATION"])
        has = any(requirement(req).met_by(deck[c]) for c in hand)
        said.append((after, {"fact": {"player": player, "has" if has else "lacks": req}}))
    for after, event in sorted(said, key=lambda s: -s[0]):
        events.insert(after, event)
    return {**game.doc, "events": events[: keep + len(said)]}


ROUNDS = {
    "seed": st.integers(0, 10**6),
    "players": st.sampled_from([3, 3, 4]),
    "option": st.sampled_from(range(len(OPTIONS))),
    "cut": st.floats(0, 1),
    "seat": st.integers(0, 3),
    "clues": st.integers(0, 3),
}


# -- the chances with statements left out ------------------------------------------------------------


@FEW
@given(**ROUNDS, picks=st.lists(st.integers(0, 2**16), min_size=2, max_size=4))
def test_the_chances_with_statements_left_out_equal_the_brute_force(
    seed, players, option, cut, seat, clues, picks
):
    data = small_round(seed, players, option, cut, seat, clues)
    replay = replay_of(data)
    oracle = Oracle(data, replay)
    every = replay.statements
    subsets = [frozenset(e for i, e in enumerate(every) if pick >> i & 1) for pick in picks]
    for kept in [frozenset(every), frozenset(), *subsets]:  # one replay resumes saved states
        assert replay.chances(kept) == oracle(kept), sorted(kept)


# -- certain facts: minimal, and a true chain ----------------------------------------------------------


@FEW
@given(**ROUNDS)
def test_every_certain_fact_has_a_minimal_set_of_statements_and_a_true_chain(
    seed, players, option, cut, seat, clues
):
    data = small_round(seed, players, option, cut, seat, clues)
    replay = replay_of(data)
    grounds, oracle = replay.grounds(), Oracle(data, replay)
    every = frozenset(replay.statements)
    seen = set(grounds.certain(frozenset()))
    assert all(oracle(frozenset())[f] == 1 for f in seen)  # seen: certain from the moves alone
    for fact in [f for f in grounds.certain(every) if f not in seen]:
        kept = core(grounds, fact)
        assert oracle(frozenset(kept))[fact] == 1  # the core alone entails the fact
        for event in kept:  # and no event of it can be left out
            assert oracle(frozenset(kept) - {event})[fact] < 1, (fact, kept, event)
        shown: set[int] = set()
        steps = chain(grounds, kept, fact)
        for step in steps:
            before = oracle(frozenset(shown))
            shown.add(step.event)
            now = oracle(frozenset(shown))
            for said in step.newly_certain:  # certain from the events so far, and not before
                assert now[said] == 1 and before[said] < 1, (fact, step.event, said)
        assert fact in steps[-1].newly_certain


@FEW
@given(**ROUNDS)
def test_the_probability_explanation_is_the_brute_force_without_each_statement(
    seed, players, option, cut, seat, clues
):
    data = small_round(seed, players, option, cut, seat, clues)
    replay = replay_of(data)
    grounds, oracle = replay.grounds(), Oracle(data, replay)
    every = frozenset(replay.statements)
    open_facts = [f for f, p in grounds.chance(every).items() if 0 < p < 1]
    assume(open_facts and every)
    fact = open_facts[seed % len(open_facts)]
    moved = influence(grounds, fact)
    assert sorted(m.event for m in moved) == sorted(every)
    for m in moved:
        assert m.without == oracle(every - {m.event})[fact]
        assert m.with_it == oracle(every)[fact]


def test_a_show_a_fact_a_claim_and_a_forced_card_are_statements_and_moves_are_not():
    """Hand-written, each kind of statement once: Cleo shows me 9, a fact about Ben, my FORCE
    that Ben claims none of (the polygraph returns his 6), Ben's FORCE answered by Cleo with the
    10; the draws and the cards played are moves."""
    data = {
        "game": "suspeicao",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "deck": SMALL,
        "events": [
            {"deal": {"incriminating": [3, 5, 7, 9], "hand": [1, 2], "first": "Ana"}},
            {"show": {"player": "Cleo", "card": 9}},
            {"fact": {"player": "Ben", "lacks": "odd"}},
            {"play": {"card": 1, "target": "Ben", "none": True, "polygraph": 4,
                      "returned": 6, "drew": [8]}},
            {"play": {"by": "Ben", "card": "X2", "target": "Cleo", "revealed": 10}},
        ],
    }  # fmt: skip
    replay = replay_of(data)
    assert replay.statements == [2, 3, 4, 5]
    grounds, oracle = replay.grounds(), Oracle(data, replay)
    every = frozenset(replay.statements)
    assert grounds.chance(every) == oracle(every)
    assert core(grounds, "evidence 9: Cleo") == [2]
    assert core(grounds, "Ben holds a card meeting even") == [4]  # he holds 6 (returned)
    for kept in (frozenset(), frozenset({3}), frozenset({2, 5}), frozenset({3, 4, 5})):
        assert grounds.chance(kept) == oracle(kept), sorted(kept)
    assert grounds.chance(frozenset())["evidence 9: Cleo"] < 1


def test_an_end_that_repeats_what_a_show_said_is_a_statement_of_its_own():
    """Cleo shows me 3, and the end says she kept it: either alone makes it certain. The reader
    used to write no observation for the end (I knew it already), so leaving out the show lost
    what the end says."""
    data = small_round(0, 3, 0, 1.0, 0, 1)
    kinds = [next(iter(e)) for e in data["events"]]
    show, end = kinds.index("show") + 1, kinds.index("end") + 1
    replay = replay_of(data)
    assert replay.statements == [show, end]
    grounds, oracle = replay.grounds(), Oracle(data, replay)
    assert grounds.chance(frozenset({end})) == oracle(frozenset({end}))
    assert grounds.chance(frozenset({end}))["evidence 3: Cleo"] == 1
    assert core(grounds, "evidence 3: Cleo") == [end]  # the show is dropped first


def test_opposites_and_the_short_form():
    assert opposite("evidence 21: Cleo") == "evidence 21: not Cleo"
    assert opposite("evidence 21: not pile") == "evidence 21: pile"
    assert opposite("Ben holds a card meeting odd") == "Ben holds no card meeting odd"
    assert opposite("evidence 16: front (Dan)") is None
    said = brief(
        [
            "evidence 6: Cleo",
            "evidence 6: not Ben",
            "evidence 9: not Ben",
            "evidence 9: not pile",
            "Cleo holds a card meeting odd",
            "Cleo holds a card meeting CLUE",
            "Ben holds no card meeting odd",
            "Ben holds no card meeting 1-17",
        ]
    )
    assert said == (
        "evidence 6: Cleo; evidence 9: not Ben, not pile; Cleo holds a card meeting each of "
        "odd, CLUE; Ben holds no card meeting odd or 1-17"
    )


# -- the full deck: what is certain is true -------------------------------------------------------------


def true_in(fact: str, truth: dict, me: str) -> bool:
    """Whether a fact holds in the simulated true state."""
    if fact.startswith("evidence "):
        card, place = fact[len("evidence ") :].split(": ", 1)
        absent = place.startswith("not ")
        place = place[4:] if absent else place
        if place.startswith("front ("):
            cards = truth["front"][place[len("front (") : -1]]
        elif place == "discard":
            cards = [c for p, hand in truth.items() if p != "front" for c in hand]
            return card not in cards  # face up in the discard: in no hand, not in the pile
        else:
            cards = truth[place]
        return (card in cards) != absent
    some = " holds a card meeting " in fact
    player, text = fact.split(" holds a card meeting " if some else " holds no card meeting ")
    req = requirement(text)
    cards = load_deck().cards
    held = any(req.met_by(c) for c in cards if c.name in truth[player])
    return held == some


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_certain_facts_hold_in_the_simulated_truth_on_the_full_deck(players, seed):
    game = random_game(random.Random(seed), players)
    report = GAME_OBJECT.explain(document(game.doc))
    facts = [f["fact"] for f in report.data["facts"]] + report.data["also_certain"]
    assert facts
    for fact in facts:
        assert true_in(fact, game.truths[-1], game.me), fact


# -- the command ------------------------------------------------------------------------------------


def explain(*args: object, exit_code: int = 0):
    result = runner.invoke(app, ["explain", *map(str, args)])
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return result


def test_explain_upto_says_what_was_seen_then():
    result = explain(EXAMPLES / "round-4p.yaml", "--upto", 12)
    assert "statements (events that can be left out): 2, 3, 8" in result.stdout
    assert "evidence 16: front (Dan) — seen, no statement needed" in result.stdout
    data = json.loads(explain(EXAMPLES / "round-4p.yaml", "--upto", 12, "--json").stdout)
    (front,) = [f for f in data["facts"] if f["fact"] == "evidence 16: front (Dan)"]
    assert front["events"] == [] and front["minimal"] is True
    assert [e["event"] for e in front["seen"]] == [1, 7, 10]  # my hand, shown, passed to Dan


def test_explain_names_a_minimal_chain_in_the_json():
    data = json.loads(
        explain(EXAMPLES / "round-3p.yaml", "card 21 in Cleo's hand", "--json").stdout
    )
    assert data["fact"] == "evidence 21: Cleo" and data["minimal"] is True
    assert [e["event"] for e in data["events"]] == [31]  # the end: Cleo kept it
    assert all(isinstance(e["line"], int) and e["text"] for e in data["events"])
    assert [s["event"] for s in data["chain"]] == [31]
    assert "evidence 21: Cleo" in data["chain"][-1]["newly_certain"]


def test_explain_of_every_certain_fact_matches_what_solve_finds_certain():
    log = EXAMPLES / "round-6p.yaml"
    data = json.loads(explain(log, "--json").stdout)
    solved = json.loads(runner.invoke(app, ["solve", str(log), "--json"]).stdout)
    facts = {f["fact"] for f in data["facts"]} | set(data["also_certain"])
    for card, places in solved["incriminating"].items():
        for place, p in places.items():
            assert (p == 1) == (f"evidence {card}: {place}" in facts)
    for player, chances in solved["requirements"].items():
        for text, p in chances.items():
            assert (p == 1) == (f"{player} holds a card meeting {text}" in facts)
            assert (p == 0) == (f"{player} holds no card meeting {text}" in facts)
    by_fact = {f["fact"]: f for f in data["facts"]}
    assert [e["event"] for e in by_fact["evidence 6: Cleo"]["events"]] == [30]
    assert by_fact["evidence 4: Eve"]["events"] == []  # I gave it: seen
    assert [e["event"] for e in by_fact["evidence 4: Eve"]["seen"]] == [20]


def test_an_impossible_fact_is_explained_by_its_certain_opposite():
    result = explain(EXAMPLES / "round-3p.yaml", "Ben holds 21")
    assert result.stdout.startswith(
        "evidence 21: Ben is impossible: evidence 21: not Ben is certain"
    )


def test_an_open_fact_lists_what_moved_it():
    data = json.loads(
        explain(EXAMPLES / "round-4p.yaml", "--upto", 12, "card 9 in the pile", "--json").stdout
    )
    assert data["fact"] == "evidence 9: pile" and data["certain"] is False
    assert sorted(e["event"] for e in data["influence"]) == [2, 3, 8]
    assert "left out" in data["method"]


@pytest.mark.parametrize(
    ("asked", "hint"), [("card 9 in pil", "did you mean 'evidence 9: pile'"), ("zzz", "")]
)
def test_a_fact_that_does_not_exist_is_one_line(asked, hint):
    result = explain(EXAMPLES / "round-4p.yaml", "--upto", 12, asked, exit_code=2)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no fact named" in lines[0] and hint in lines[0]


# -- soak runs ----------------------------------------------------------------------------------------


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**ROUNDS)
def test_long_every_certain_fact_is_minimal_and_its_chain_true(
    seed, players, option, cut, seat, clues
):
    test_every_certain_fact_has_a_minimal_set_of_statements_and_a_true_chain.hypothesis.inner_test(  # type: ignore[attr-defined]
        seed, players, option, cut, seat, clues
    )


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**ROUNDS, picks=st.lists(st.integers(0, 2**16), min_size=2, max_size=6))
def test_long_chances_and_what_moved_them_equal_the_brute_force(
    seed, players, option, cut, seat, clues, picks
):
    test_the_chances_with_statements_left_out_equal_the_brute_force.hypothesis.inner_test(  # type: ignore[attr-defined]
        seed, players, option, cut, seat, clues, picks
    )
    with contextlib.suppress(UnsatisfiedAssumption):
        test_the_probability_explanation_is_the_brute_force_without_each_statement.hypothesis.inner_test(  # type: ignore[attr-defined]
            seed, players, option, cut, seat, clues
        )


@pytest.mark.long
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_long_certain_facts_hold_in_the_truth_in_whole_rounds(players):
    for seed in range(3):
        test_certain_facts_hold_in_the_simulated_truth_on_the_full_deck(players, 10 + seed)
