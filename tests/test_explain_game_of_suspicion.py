"""`sleuth explain` for Game of Suspicion (models/game_of_suspicion/explain.py).

The engine leaves a statement out by replaying the round with its steps `unobserved` (steps.py):
its cards still move, but the values it told are unseen and what it only ruled out goes. Two
independent computations hold it to that:

- `StepBrute`, written here: every physical deal of the hidden cards and every hidden choice,
  step by step, with no pool, no merged worlds and no vectorised filter; on whole logs it
  agrees with the event-by-event brute force of the other tests (`suspicion_brute`);
- CP-SAT (knowledge.py) with the left-out events' literals off, which must find the same
  certain facts.

On simulated rounds (a small deck, 3 and 4 players, with and without `me`, every option): each
certain fact is certain from its core alone, no event of the core can be left out, each step of
a chain states only facts certain from the events so far, and the probability explanation's "p
without it" is the brute force's with that event left out. The same on a large log's path
(CP-SAT seeds and certainties, forced here on small logs), and on the bundled examples by CP-SAT.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from suspicion_brute import Brute
from test_game_of_suspicion_exact import CASES
from typer.testing import CliRunner

from cli.app import app as cli
from models.game_of_suspicion import belief as belief_module
from models.game_of_suspicion import explain as module
from models.game_of_suspicion import rules
from models.game_of_suspicion import steps as kind
from models.game_of_suspicion.belief import Belief
from models.game_of_suspicion.game import GameOfSuspicion
from models.game_of_suspicion.knowledge import HandKnowledge
from models.game_of_suspicion.log import parse
from models.game_of_suspicion.rules import load_deck
from models.game_of_suspicion.simulate import random_game
from models.game_of_suspicion.steps import observes, unobserved
from solver.errors import InputError
from solver.explain import Grounds, chain, core, influence
from solver.logfile import Document

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "game-of-suspicion"
SMALL_DECK = Path(__file__).parent / "data" / "suspicion-small-deck.yaml"
FEW = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = [
    {},
    {"choice_unit": "value"},
    {"announce_model": "bayes"},
    {"card0_one_card": "exchanges"},
    {"card6_ten_rank": "ten"},
]
World = tuple[tuple[int, ...], ...]


# -- the independent brute force over the steps ----------------------------------------------------


class StepBrute:
    """A round's steps by brute force: each hidden card is a physical card, every physical deal
    of them is equally likely, and each step maps every state (the cards of each hidden place)
    to its successors, one per hidden choice (weighed by the choice model) or known choice
    (weight 1); a successor that disagrees with what the step observes is dropped. A card that
    enters from a known place with its value unseen is one of the cards outside the hidden
    places, each as likely (the copies of the deck less those the state holds)."""

    def __init__(self, setup: kind.Setup):
        self.setup = setup
        values = sorted(setup.hidden.elements())
        self.value = dict(enumerate(values))
        self.step = 0  # the step being applied: it names a card that enters from outside

    def run(self, steps: list[kind.Step]) -> dict[World, Fraction]:
        dist = self.deal()
        for self.step, step in enumerate(steps):
            handler = getattr(self, f"on_{type(step).__name__.lower()}")
            dist = Brute.advance(dist, lambda state, h=handler, s=step: h(state, s))
        worlds: dict[World, int] = {}
        for state, weight in dist.items():
            world = tuple(tuple(sorted(self.value[c] for c in cards)) for cards in state)
            worlds[world] = worlds.get(world, 0) + weight
        total = sum(worlds.values())
        return {w: Fraction(n, total) for w, n in worlds.items() if n}

    def deal(self) -> dict:
        cards = sorted(self.value)
        return {
            tuple(tuple(sorted(hand)) for hand in deal): 1
            for deal in Brute.deals(cards, list(self.setup.capacity))
        }

    # -- helpers -----------------------------------------------------------------------------

    def choose(self, cards) -> list[tuple[int, int]]:
        """A hidden choice among physical `cards`: (card, N), chosen with probability 1/N."""
        if not cards:
            return []
        if self.setup.choice_unit == "card":
            return [(c, len(cards)) for c in cards]
        copies = Counter(self.value[c] for c in cards)
        return [(c, len(copies) * copies[self.value[c]]) for c in cards]

    def moved(self, state, card: int, source: int | None, target: int | None):
        places = [list(cards) for cards in state]
        if source is not None:
            places[source].remove(card)
        if target is not None:
            places[target].append(card)
        return tuple(tuple(sorted(cards)) for cards in places)

    def values(self, cards) -> list[int]:
        return [self.value[c] for c in cards]

    def held(self, state, value: int) -> int:
        return sum(self.value[c] == value for cards in state for c in cards)

    # -- steps -------------------------------------------------------------------------------

    def on_move(self, state, step: kind.Move):
        if step.source is None:
            yield from self.enter(state, step.target, step.value)
            return
        cards = state[step.source]
        if step.value is None:
            options = self.choose(cards)
        elif step.chosen:
            options = [(c, n) for c, n in self.choose(cards) if self.value[c] == step.value]
        else:  # a public move: which copy never matters
            options = [(c, 1) for c in cards if self.value[c] == step.value][:1]
        for card, n in options:
            yield self.moved(state, card, step.source, step.target), n

    def enter(self, state, target, value):
        copies = self.setup.copies
        outside = {v: copies[v] - self.held(state, v) for v in copies if v in rules.VALUES}
        if value is not None:
            outside = {value: 1} if outside.get(value, 0) > 0 else {}
        total = sum(outside.values())
        for v, n in outside.items():
            card = 1000 + 100 * self.step + v  # the same card whichever state it enters
            self.value[card] = v
            for _ in range(n):  # each physical card outside as likely
                yield self.moved(state, card, None, target), total if value is None else 1

    def on_moveall(self, state, step: kind.MoveAll):
        for card in state[step.source]:
            state = self.moved(state, card, step.source, step.target)
        yield state, 1

    def on_swap(self, state, step: kind.Swap):
        for a, n in self.choose(state[step.first]):
            for b, m in self.choose(state[step.second]):
                swapped = self.moved(state, a, step.first, step.second)
                yield self.moved(swapped, b, step.second, step.first), n * m

    def on_middlelook(self, state, step: kind.MiddleLook):
        (taken,) = state[step.slot]
        holding = self.moved(state, taken, step.slot, step.hand)
        pool = holding[step.hand]

        def agrees(card: int) -> bool:
            return (self.value[card] != self.value[taken]) == step.exchanged

        if self.setup.announce_model == "restrict":
            options = self.choose([c for c in pool if agrees(c)])
        else:
            options = [(c, n) for c, n in self.choose(pool) if agrees(c)]
        for card, n in options:
            yield self.moved(holding, card, step.hand, step.slot), n

    def smallest(self, cards) -> list[int]:
        ten = self.setup.card6_ten_rank
        low = min(rules.rank(self.value[c], ten) for c in cards)
        return [c for c in cards if rules.rank(self.value[c], ten) == low]

    def on_putsmallest(self, state, step: kind.PutSmallest):
        for card, n in self.choose(self.smallest(state[step.place])):
            if self.value[card] == step.value:
                yield self.moved(state, card, step.place, None), n

    def on_putsmallestunseen(self, state, step: kind.PutSmallestUnseen):
        for card, n in self.choose(self.smallest(state[step.place])):
            yield self.moved(state, card, step.place, None), n

    def on_count(self, state, step: kind.Count):
        held = sum(v in step.values for v in self.values(state[step.place]))
        if (step.low <= held <= step.high) != step.negated:
            yield state, 1

    def on_sumabove(self, state, step: kind.SumAbove):
        total = sum(rules.points(v) for v in self.values(state[step.place]))
        if (total > step.limit) == step.above:
            yield state, 1

    def on_hand(self, state, step: kind.Hand):
        if (tuple(sorted(self.values(state[step.place]))) == step.cards) == step.equal:
            yield state, 1

    def on_guess(self, state, step: kind.Guess):
        named: Counter = Counter()
        for v in self.values(state[step.place]):
            named.update((0, 1) if v == rules.TEN else (v,))
        if (named == Counter(step.numbers)) == step.correct:
            yield state, 1


def steps_kept(setup: kind.Setup, kept: frozenset[int], statements: list[int]) -> list[kind.Step]:
    """The round's steps with the statements not `kept` unobserved."""
    return [
        s
        for step in setup.steps
        for s in (
            [step] if step.event in kept or step.event not in statements else unobserved(step)
        )
    ]


def brute(setup: kind.Setup, kept: frozenset[int], statements: list[int]) -> dict[World, Fraction]:
    return StepBrute(setup).run(steps_kept(setup, kept, statements))


def holds_in(world: World, fact: tuple) -> bool:
    kind, place, what = fact
    if kind == "hand":
        return world[place] == tuple(what)
    return (what in world[place]) == (kind == "holds")


def chance(worlds: dict[World, Fraction], fact: tuple) -> Fraction:
    return sum((p for w, p in worlds.items() if holds_in(w, fact)), Fraction(0))


# -- logs --------------------------------------------------------------------------------------------


def small_game(seed: int, players: int, me: bool, events: int, options: dict) -> dict:
    """A random round on the small deck (every physical deal can be listed)."""
    deck = load_deck(SMALL_DECK).with_options(options)
    data, _ = random_game(
        random.Random(seed), players, "P1" if me else None, events=events, deck=deck
    )
    return {**data, "deck": str(SMALL_DECK), "options": options}


def setup_of(data: dict) -> kind.Setup:
    rnd = parse(Document(data)).round
    assert rnd is not None
    return rnd.setup


SMALL = {
    "seed": st.integers(0, 2**32 - 1),
    "players": st.sampled_from([3, 4]),
    "me": st.booleans(),
    "events": st.integers(3, 6),
    "options": st.sampled_from(OPTIONS),
}
LONGER = {**SMALL, "events": st.integers(3, 10)}  # the long runs


# -- the step brute force is the rules' -------------------------------------------------------------


@pytest.mark.parametrize("name", ["8 after a play", "6 by another", "move to me", "0 to me"])
def test_the_step_brute_force_is_the_event_brute_force_on_whole_logs(name):
    data = CASES[name]
    setup = setup_of(data)
    assert StepBrute(setup).run(setup.steps) == Brute(data).run()


@FEW
@given(**SMALL)
def test_the_step_brute_force_is_the_event_brute_force_on_simulated_logs(
    seed, players, me, events, options
):
    data = small_game(seed, players, me, events, options)
    setup = setup_of(data)
    assert StepBrute(setup).run(setup.steps) == Brute(data).run()


# -- the steps left out -------------------------------------------------------------------------------


def test_what_each_step_observes_and_what_it_still_does():
    ben, cleo, left = 0, 1, 2
    assert observes(kind.Move(1, ben, None, 4)) and unobserved(kind.Move(1, ben, None, 4)) == [
        kind.Move(1, ben, None)
    ]
    assert unobserved(kind.Move(1, None, ben, 4)) == [
        kind.Move(1, None, ben)
    ]  # a card from outside
    assert not observes(kind.Move(1, ben, cleo)) and unobserved(kind.Move(1, ben, cleo)) == [
        kind.Move(1, ben, cleo)
    ]
    assert unobserved(kind.MiddleLook(1, ben, left, True)) == [
        kind.MoveAll(1, left, ben),
        kind.Move(1, ben, left),
    ]
    assert unobserved(kind.PutSmallest(1, ben, 0)) == [kind.PutSmallestUnseen(1, ben)]
    for step in (
        kind.Count(1, ben, frozenset({8}), 0, 0),
        kind.SumAbove(1, ben, 10, True),
        kind.Hand(1, ben, (0, 1)),
        kind.Guess(1, ben, (0, 1), False),
    ):
        assert observes(step) and unobserved(step) == []
    for step in (kind.Swap(1, ben, cleo), kind.MoveAll(1, left, ben)):
        assert not observes(step) and unobserved(step) == [step]


# one log per kind of step left out, the quick ones (every log of the other tests: long)
QUICK = [
    "1 by me, nobody",
    "2 by another",
    "3 wrong",
    "5 by me",
    "6 by me",
    "8 by me after a play",
    "advanced my 6, a 1 up",
    "guess wrong",
    "look by another, exchanged",
    "move to me",
    "my look, exchanged",
    "public move",
    "show and facts",
]


def assert_left_out_matches_the_brute_force(data: dict) -> None:
    """Each statement left out in turn, on the real deck: the filter's replay equals the step
    brute force world by world."""
    rnd = parse(Document(data)).round
    assert rnd is not None
    statements = module.statements_of(rnd)
    replay = module.Replay(rnd, statements)
    every = frozenset(statements)
    for kept in [every, *(every - {e} for e in statements)]:
        belief = replay.belief(kept)
        assert belief is not None
        assert belief.worlds_list() == brute(rnd.setup, kept, statements), sorted(kept)


@pytest.mark.parametrize("name", QUICK)
def test_each_kind_of_event_left_out_matches_the_brute_force(name):
    assert_left_out_matches_the_brute_force(CASES[name])


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(set(CASES) - set(QUICK)))
def test_every_event_left_out_matches_the_brute_force(name):
    assert_left_out_matches_the_brute_force(CASES[name])


def test_a_known_card_enters_only_where_a_copy_is_left():
    """Left out, my first look (I saw the 9 on the left) lets the 9 stay in Ben's or Cleo's
    hand; the 9 I put back with my second look then enters only the worlds where it does not:
    in every world left, the one 9 is on the left."""
    data = CASES["my look, exchanged"]  # I saw the 9 on the left and put back a 0
    second = {"look": {"slot": "left", "saw": 0, "put_back": 9}}
    data = {**data, "events": [*data["events"], second]}
    rnd = parse(Document(data)).round
    assert rnd is not None
    belief = module.Replay(rnd, [2, 3]).belief(frozenset({3}))
    assert belief is not None
    worlds = belief.worlds_list()
    assert worlds == brute(rnd.setup, frozenset({3}), [2, 3])
    assert {w[2] for w in worlds} == {(9,)}
    assert all(9 not in w[0] + w[1] for w in worlds)


def test_the_pool_is_part_of_the_key_once_unseen_cards_cross():
    """A card of unseen value leaving the hidden places changes what they hold world by world,
    so two worlds with the same explicit cards can have different pools: the plain list of
    worlds (whose key leaves the pool out) merges them wrongly, the replay's does not."""
    data = CASES["my look, exchanged"]
    rnd = parse(Document(data)).round
    assert rnd is not None
    steps = steps_kept(rnd.setup, frozenset(), [2])
    truth = StepBrute(rnd.setup).run(steps)
    plain, relaxed = Belief(rnd.setup), Belief.relaxed(rnd.setup)
    for step in steps:
        plain.apply(step)
        relaxed.apply(step)
    assert relaxed.worlds_list() == truth
    assert plain.worlds_list() != truth


@FEW
@given(**SMALL, data=st.data())
def test_replays_with_statements_left_out_match_the_brute_force(
    seed, players, me, events, options, data
):
    log = small_game(seed, players, me, events, options)
    rnd = parse(Document(log)).round
    assert rnd is not None
    statements = module.statements_of(rnd)
    kept = frozenset(data.draw(st.sets(st.sampled_from(statements))) if statements else set())
    belief = module.Replay(rnd, statements).belief(kept)
    assert belief is not None
    assert belief.worlds_list() == brute(rnd.setup, kept, statements)


# -- explanations against the brute force -------------------------------------------------------------


def facts_of(rnd, me: str | None, statements: list[int]) -> module.Facts:
    """The round's facts, named from the whole log."""
    whole = module.Replay(rnd, statements).belief(frozenset(statements))
    assert whole is not None
    return module.Facts(rnd, me, whole)


def explained_log(log: dict):
    """The grounds of a log, what each fact says, and the steps' brute force by kept set."""
    rnd = parse(Document(log)).round
    assert rnd is not None
    grounds = GameOfSuspicion().grounds(Document(log))
    statements = grounds.statements
    known: dict[frozenset[int], dict[World, Fraction]] = {}

    def worlds(kept: frozenset[int]) -> dict[World, Fraction]:
        if kept not in known:
            known[kept] = brute(rnd.setup, kept, statements)
        return known[kept]

    return grounds, facts_of(rnd, log.get("me"), statements).about, worlds


def assert_explanations_hold(grounds: Grounds, about: dict, worlds, most: int = 99) -> None:
    """Every certain fact (the first `most`): its core entails it, is minimal, and its chain
    states only facts certain from the events so far (by the brute force)."""
    every = frozenset(grounds.statements)
    for fact in grounds.certain(every)[:most]:
        assert chance(worlds(every), about[fact]) == 1
        kept = core(grounds, fact)
        assert chance(worlds(frozenset(kept)), about[fact]) == 1, (fact, kept)
        for event in kept:
            assert chance(worlds(frozenset(kept) - {event}), about[fact]) < 1, (fact, kept, event)
        so_far: set[int] = set()
        steps = chain(grounds, kept, fact)
        for step in steps:
            so_far.add(step.event)
            for said in step.newly_certain:
                assert chance(worlds(frozenset(so_far)), about[said]) == 1, (fact, step)
        # the fact is said at the last step (no step: certain from the moves alone, as when
        # the card was mine until it went where that player cannot have reached it)
        assert not steps or fact in steps[-1].newly_certain
        assert steps or chance(worlds(frozenset()), about[fact]) == 1


def assert_influence_holds(grounds: Grounds, about: dict, worlds, facts: list[str]) -> None:
    """The probability explanation: p without each statement is the brute force's."""
    every = frozenset(grounds.statements)
    for fact in facts:
        for moved in influence(grounds, fact):
            assert moved.without == chance(worlds(every - {moved.event}), about[fact])
            assert moved.with_it == chance(worlds(every), about[fact])


@settings(FEW, max_examples=1)  # its cost varies tenfold with the round drawn; 200 in test-long
@given(**SMALL)
def test_explanations_hold_by_the_brute_force(seed, players, me, events, options):
    log = small_game(seed, players, me, events, options)
    grounds, about, worlds = explained_log(log)
    assert_explanations_hold(grounds, about, worlds, most=3)
    open_facts = [f for f, p in grounds.chance(frozenset(grounds.statements)).items() if p < 1]
    assert_influence_holds(grounds, about, worlds, open_facts[:2])


@pytest.mark.long
@MANY
@given(**LONGER)
def test_explanations_hold_by_the_brute_force_long(seed, players, me, events, options):
    log = small_game(seed, players, me, events, options)
    grounds, about, worlds = explained_log(log)
    assert_explanations_hold(grounds, about, worlds)
    assert_influence_holds(grounds, about, worlds, list(about)[:12])


@FEW
@given(**SMALL)
def test_a_large_logs_path_holds_by_the_brute_force(seed, players, me, events, options):
    """A log whose replays pass REPLAY_WORLDS takes its cores from CP-SAT and asks CP-SAT what
    is certain with few statements: forced here on small logs, the same properties hold."""
    log = small_game(seed, players, me, events, options)
    most, module.REPLAY_WORLDS = module.REPLAY_WORLDS, 0
    try:
        grounds, about, worlds = explained_log(log)
        # a large log's chain shows no case split (its cases are not listed)
        assert grounds.cases is not None and grounds.cases(frozenset(), next(iter(about))) is None
        assert_explanations_hold(grounds, about, worlds, most=3)
    finally:
        module.REPLAY_WORLDS = most


@pytest.mark.long
@MANY
@given(**LONGER)
def test_a_large_logs_path_holds_by_the_brute_force_long(seed, players, me, events, options):
    log = small_game(seed, players, me, events, options)
    most, module.REPLAY_WORLDS = module.REPLAY_WORLDS, 0
    try:
        grounds, about, worlds = explained_log(log)
        assert_explanations_hold(grounds, about, worlds)
    finally:
        module.REPLAY_WORLDS = most


# -- CP-SAT, the other engine -----------------------------------------------------------------------


def cp_sat_certain(rnd, about: dict, kept: frozenset[int], facts) -> set[str]:
    """The facts CP-SAT finds certain with only the statements `kept` (the literals of the
    others off): the model of knowledge.py, asked with the default solver."""
    knowledge = HandKnowledge(rnd.setup)
    query = {}
    for fact in facts:
        kind, place, what = about[fact]
        if kind == "hand":
            query[fact] = knowledge.hand_literal(place, tuple(what))
        else:
            held = knowledge.holds_literal(place, what)
            query[fact] = held if kind == "holds" else held.Not()
    return set(knowledge.knowledge.certain(query, sorted(kept)))


@FEW
@given(**SMALL, data=st.data())
def test_cp_sat_and_the_filter_agree_on_what_is_certain(seed, players, me, events, options, data):
    """Both engines answer "is it certain?" for a core and its chain: with any statements left
    out, they find the same facts certain."""
    log = small_game(seed, players, me, events, options)
    rnd = parse(Document(log)).round
    assert rnd is not None
    statements = module.statements_of(rnd)
    facts = facts_of(rnd, log.get("me"), statements)
    kept = frozenset(data.draw(st.sets(st.sampled_from(statements))) if statements else set())
    belief = module.Replay(rnd, statements).belief(kept)
    assert belief is not None
    exact = {f for f, p in facts.chances(belief).items() if p == 1}
    assert cp_sat_certain(rnd, facts.about, kept, facts.about) == exact
    certainty = module.Certainty(rnd, statements, facts)
    assert certainty.certain(kept, facts.about) == exact


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_the_bundled_examples_are_explained_minimally_by_cp_sat(path):
    """Every certain fact of each bundled example, on the real deck: CP-SAT finds it certain
    from its core, and not certain with any one event of the core left out."""
    doc = Document(yaml.safe_load(path.read_text()), str(path))
    grounds = GameOfSuspicion().grounds(doc)
    rnd = GameOfSuspicion().posterior(doc).round
    about = facts_of(rnd, doc.data.get("me"), grounds.statements).about
    facts = grounds.certain(frozenset(grounds.statements))
    assert facts
    for fact in facts:
        kept = frozenset(core(grounds, fact))
        assert fact in cp_sat_certain(rnd, about, kept, [fact])
        for event in kept:
            assert not cp_sat_certain(rnd, about, kept - {event}, [fact])


# -- the facts and their names ----------------------------------------------------------------------


def test_facts_are_named_as_solve_reports_them():
    doc = Document(yaml.safe_load((EXAMPLES / "round-4p.yaml").read_text()))
    grounds = GameOfSuspicion().grounds(doc)
    solved = GameOfSuspicion().solve(doc).data["certain"]
    certain = set(grounds.certain(frozenset(grounds.statements)))
    named = {
        f"{player} {kind} {value}"
        for player, facts in solved.items()
        for kind in ("holds", "lacks")
        for value in facts[kind]
    }
    assert named == {f for f in certain if "'s hand" not in f}
    for asked, fact in [
        ("Dan certainly holds 8", "Dan holds 8"),
        ("dan has an 8", "Dan holds 8"),
        ("Ben has no 6", "Ben lacks 6"),
        ("Ben does not hold 8", "Ben lacks 8"),
    ]:
        assert grounds.resolve(asked) == fact


def test_a_player_with_no_card_has_no_fact():
    """Everybody sees that a player who gave away every card holds none: nothing to explain."""
    log = {
        "game": "game-of-suspicion",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "events": [
            {"deal": {"hand": [0, 0, 1, 5], "shadow": [1, 2, 3, 4]}},
            *[{"move": {"from": "Ben", "to": "Cleo"}} for _ in range(4)],
            {"fact": {"player": "Cleo", "lacks": [9]}},
        ],
    }
    grounds = GameOfSuspicion().grounds(Document(log))
    facts = grounds.chance(frozenset(grounds.statements))
    assert facts and not [f for f in facts if f.startswith("Ben")]
    assert grounds.resolve("Cleo lacks 9") == "Cleo lacks 9"


# -- the command line -------------------------------------------------------------------------------


def invoke(*args: object):
    result = CliRunner().invoke(cli, ["explain", *map(str, args)])
    assert "Traceback" not in result.output
    return result


def test_explain_every_certain_fact_of_the_4_player_example():
    result = invoke(EXAMPLES / "round-4p.yaml")
    assert result.exit_code == 0, result.output
    assert "Dan holds 8: from event 9 alone" in result.stdout
    assert "event 9: Ana plays 5: shown Ben -; Cleo -; Dan 8 →" in result.stdout
    assert "a case split" in result.stdout  # Cleo lacks 8: her sum, then her card 3


def test_explain_one_fact_as_json():
    result = invoke(EXAMPLES / "round-3p.yaml", "Ben certainly holds 1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["fact"] == "Ben holds 1" and data["minimal"] is True
    assert [e["event"] for e in data["events"]] == [11]
    assert data["events"][0]["line"] is not None and "gave 1" in data["events"][0]["text"]
    assert data["chain"][-1]["newly_certain"] == ["Ben holds 1"]


def test_explain_a_fact_that_is_not_certain_lists_what_moved_it():
    result = invoke(EXAMPLES / "round-4p.yaml", "Dan holds 1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["certain"] is False and "left out" in data["method"]
    first = data["influence"][0]
    assert first["event"] == 4 and first["without"] > first["with"]  # Dan played a 1


@pytest.mark.parametrize(
    ("asked", "hint"), [("Dan hold 8", "did you mean 'Dan holds 8'"), ("zzz", "")]
)
def test_a_fact_that_does_not_exist_is_one_line(asked, hint):
    result = invoke(EXAMPLES / "round-4p.yaml", asked)
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no fact named" in lines[0] and hint in lines[0]


def test_explain_upto_explains_what_was_known_then():
    result = invoke(EXAMPLES / "round-4p.yaml", "--upto", "8", "--json")
    assert result.exit_code == 0, result.output
    facts = {f["fact"] for f in json.loads(result.stdout)["facts"]}
    assert facts == {"Cleo lacks 6", "Cleo lacks 8", "Cleo lacks 9"}  # before Ana's card 5


def test_a_log_the_list_of_worlds_cannot_hold_is_refused_in_one_line(monkeypatch):
    """A log that solve follows with its tables (here: the list's limit set very low) is
    refused at once, in one line."""
    monkeypatch.setattr(belief_module, "MAX_WORLDS", 2)
    log = small_game(1, 4, False, 4, {})
    with pytest.raises(InputError, match="explain needs the list of worlds"):
        GameOfSuspicion().grounds(Document(log))
