"""Game of Suspicion explanations (`sleuth explain`): the statements of a round, and its facts'
chances with some statements left out (solver/explain.py does the rest).

A *statement* is an event of the current round that tells something about the hidden cards: an
outcome announced or shown (a guess, the cards shown to card 4, a middle look's "exchanged"), or
the value of a card that leaves or enters a hidden place (a card played, the card I gave or got).
The deal, and the events whose cards only move unseen (card 0 between two other players, the
middle taken with an 8), always hold. Leaving a statement out replays the round with its steps
`unobserved` (steps.py): every card still moves where the event says, but a card whose value it
told is then a card of its place at random (leaving a hidden place: that place's hidden choice;
entering from a known place: one of the cards outside the hidden places), and what only ruled
worlds out goes. The CP-SAT model with the event's literal off has exactly the same worlds.

The facts are those `solve` reports, for each opponent still in the round: "Ben holds 8" and
"Ben lacks 3" for every value a hidden place may still hold, and "Ben's hand is 1 1 7" for the
hands `solve` lists.

Two engines answer. The exact filter (belief.py) replays the round with the statements kept;
it gives every fact's exact chance, and it must for the whole log and the log less one statement
(the probability explanation). With few statements kept the hidden world is far less known, and
its list of worlds can grow past what a replay may hold (REPLAY_WORLDS): a core and its chain
only ask such sets what is certain, and CP-SAT answers that without listing worlds (`Certainty`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from typing import Any

from models.game_of_suspicion.belief import MAX_CANDIDATES, MAX_WORLDS, Belief, TooBig
from models.game_of_suspicion.log import Round
from models.game_of_suspicion.steps import Step, observes, unobserved
from solver.errors import InputError
from solver.explain import Grounds

TOP_HANDS = 5  # hands named as facts per opponent (as `solve` lists them)
REPLAY_WORLDS = 150_000  # a replay only asked what is certain passes to CP-SAT beyond this
SAVED_WORLDS = 2_000_000  # worlds kept in the remembered beliefs of a replay, at most
TOO_LARGE = (
    "explain needs the list of worlds with each event left out in turn, and this log needs "
    "more than it holds (a log without 'me' that solve follows with its tables): explain a log "
    "with a 'me', or an earlier --upto"
)

Fact = tuple[str, int, Any]  # ("holds" | "lacks" | "hand", place, value or hand)


def hand_text(cards: Iterable[int]) -> str:
    return " ".join(str(v) for v in cards) or "(no card)"


class Replay:
    """The round's exact filter with some statements left out.

    A core is shrunk one statement at a time and its chain adds one at a time, so most replays
    share their beginning with an earlier one: the belief just before each statement is
    remembered, keyed by the statements kept before it, and a replay starts from the latest one
    it shares (while they hold at most SAVED_WORLDS worlds in all)."""

    def __init__(self, rnd: Round, statements: list[int]):
        self.setup = rnd.setup
        self.steps: dict[int, list[Step]] = {}
        for step in rnd.setup.steps:
            self.steps.setdefault(step.event, []).append(step)
        self.events = sorted(self.steps)
        self.statements = set(statements)
        self.saved: dict[tuple[int, frozenset[int]], Belief] = {}
        self.saved_worlds = 0

    def belief(self, kept: frozenset[int], most: int | None = None) -> Belief | None:
        """The filter after the round with only the statements `kept`; None if it would hold
        more than `most` worlds at once (without `most`: TOO_LARGE past the filter's limits)."""
        start, belief = 0, None
        for i, event in enumerate(self.events):
            found = self.saved.get(self._key(event, kept))
            if found is not None:
                start, belief = i, found
        belief = belief.copy() if belief is not None else Belief.relaxed(self.setup)
        belief.max_worlds = MAX_WORLDS if most is None else most
        belief.max_candidates = MAX_CANDIDATES if most is None else most
        try:
            for event in self.events[start:]:
                if event in self.statements:
                    self._save(self._key(event, kept), belief)
                steps = self.steps[event]
                if event in self.statements and event not in kept:
                    steps = [s for step in steps for s in unobserved(step)]
                for step in steps:
                    belief.apply(step)
        except TooBig:
            if most is None:
                raise InputError(TOO_LARGE) from None
            return None
        if most is not None and len(belief.weights) > most:
            return None
        if belief.empty:  # leaving statements out only adds worlds: never, if the log is whole
            raise InputError(f"no hidden world is left with only events {sorted(kept)}")
        return belief

    def _key(self, event: int, kept: frozenset[int]) -> tuple[int, frozenset[int]]:
        return event, frozenset(e for e in kept if e < event)

    def _save(self, key: tuple[int, frozenset[int]], belief: Belief) -> None:
        worlds = len(belief.weights)
        if key in self.saved or self.saved_worlds + worlds > SAVED_WORLDS:
            return
        self.saved[key] = belief.copy()
        self.saved_worlds += worlds


class Facts:
    """The facts of a round, named from the whole log, and their chances in any belief."""

    def __init__(self, rnd: Round, me: str | None, belief: Belief):
        self.round = rnd
        # a player with no card left holds nothing, as everybody sees: no fact to explain
        self.opponents = [p for p in rnd.active if p != me and rnd.hand_size[p]]
        self.values = belief.hidden_values()
        self.hands = {
            player: [hand for hand, _ in belief.hands(self.place(player))[:TOP_HANDS]]
            for player in self.opponents
        }
        self.about: dict[str, Fact] = {}  # in the order solve reports them
        self.aliases: dict[str, list[str]] = {}
        for player in self.opponents:
            place = self.place(player)
            for hand in self.hands[player]:
                name = f"{player}'s hand is {hand_text(hand)}"
                self.about[name] = ("hand", place, hand)
                self.aliases[name] = hand_aliases(player, hand_text(hand))
            for value in self.values:
                self.about[f"{player} holds {value}"] = ("holds", place, value)
                self.aliases[f"{player} holds {value}"] = holds_aliases(player, value)
            for value in self.values:
                self.about[f"{player} lacks {value}"] = ("lacks", place, value)
                self.aliases[f"{player} lacks {value}"] = lacks_aliases(player, value)

    def place(self, player: str) -> int:
        return self.round.setup.place(player)

    def chances(self, belief: Belief) -> dict[str, Fraction]:
        """Every fact's probability in `belief`."""
        marginals = {
            p: dict(belief.hands(p)) for p in {place for _, place, _ in self.about.values()}
        }
        found = {}
        for name, (kind, place, what) in self.about.items():
            hands = marginals[place]
            if kind == "hand":
                found[name] = hands.get(what, Fraction(0))
            else:
                held = sum((p for hand, p in hands.items() if what in hand), Fraction(0))
                found[name] = held if kind == "holds" else 1 - held
        return found

    def player_of(self, fact: str) -> str | None:
        return next((p for p in self.opponents if fact.startswith((f"{p} ", f"{p}'s "))), None)

    def hands_of(self, belief: Belief, player: str) -> list[str]:
        """The hands `player` may hold in `belief`, as a case split shows them."""
        hands = belief.hands(self.place(player))
        return sorted(f"{player} {hand_text(hand)}" for hand, _ in hands)


def hand_aliases(player: str, cards: str) -> list[str]:
    return [f"{player} hand {cards}", f"{player}'s hand is certainly {cards}"]


# Other ways to name "Ben holds 8" and "Ben lacks 8" on the command line.
HOLDS_WORDS = ["has", "holds a", "holds an", "has a", "has an", "certainly holds"]
LACKS_WORDS = ["has no", "holds no", "does not hold", "doesn't hold", "lacks a", "certainly lacks"]


def holds_aliases(player: str, value: int) -> list[str]:
    return [f"{player} {words} {value}" for words in HOLDS_WORDS]


def lacks_aliases(player: str, value: int) -> list[str]:
    return [f"{player} {words} {value}" for words in LACKS_WORDS]


class Certainty:
    """Which facts are certain with only some statements kept, asked of CP-SAT (the model is
    built on first use: importing OR-Tools takes seconds).

    Each question is one solve with the statements kept and the fact's negation assumed: a
    world found shows the fact, and every other fact false in it, not certain; none found
    proves it certain. What each solve shows is kept and reused: a fact certain with some
    statements is certain with more, and one not certain with some is not certain with fewer.
    The solver's linear relaxation is at its fullest (`linearization_level` 2): proving that a
    hand cannot hold a card is a counting argument, which it proves in a fraction of a second
    where the default search can take a minute."""

    def __init__(self, rnd: Round, statements: list[int], facts: Facts):
        self.round, self.statements, self.facts = rnd, statements, facts
        self.proved: list[tuple[frozenset[int], set[str]]] = []  # (kept, facts certain)
        self.refuted: list[tuple[frozenset[int], set[str]]] = []  # (kept, facts not certain)
        self._model: Any = None
        self._literals: dict[str, Any] = {}

    def learn(self, kept: frozenset[int], certain: Iterable[str], uncertain: Iterable[str]) -> None:
        """Record what is known of `kept` (from the exact filter, or a solve)."""
        self.proved.append((kept, set(certain)))
        self.refuted.append((kept, set(uncertain)))

    def known(self, kept: frozenset[int], fact: str) -> bool | None:
        if any(fact in facts and k <= kept for k, facts in self.proved):
            return True
        if any(fact in facts and k >= kept for k, facts in self.refuted):
            return False
        return None

    def certain(self, kept: frozenset[int], facts: Iterable[str]) -> set[str]:
        """Which of `facts` are certain with only the statements `kept`. Whole hands are asked
        first: a certain hand makes every fact about its player certain with it."""
        facts = list(facts)
        for fact in sorted(facts, key=lambda f: self.facts.about[f][0] != "hand"):
            if self.known(kept, fact) is not None:
                continue
            world = self.solve(kept, [self.literal(fact).Not()])
            if world is None:
                self.learn(kept, {fact} | self.implied(fact), [])
            else:
                self.learn(kept, [], self.false_in(world))
        return {f for f in facts if self.known(kept, f)}

    def false_in(self, world: Any) -> list[str]:
        """The facts false in the world a solve found (none of them is certain there)."""
        return [f for f in self.facts.about if not world.boolean_value(self.literal(f))]

    def implied(self, fact: str) -> set[str]:
        """The facts a certain hand makes certain: it holds its values and lacks the others."""
        kind, place, hand = self.facts.about[fact]
        if kind != "hand":
            return set()
        player = self.round.setup.places[place]
        return {
            f"{player} holds {v}" if v in hand else f"{player} lacks {v}" for v in self.facts.values
        }

    def core(self, fact: str) -> list[int] | None:
        """A minimal set of statements from which CP-SAT finds `fact` certain: the solver's
        core of the statements and the fact's negation, shrunk by deletion."""
        negation = self.literal(fact).Not()
        found = self.solve(frozenset(self.statements), [negation], core=True)
        if not isinstance(found, list):
            return None
        kept = found
        for event in list(kept):
            trial = [e for e in kept if e != event]
            world = self.solve(frozenset(trial), [negation])
            if world is None:
                kept = trial
            else:
                self.learn(frozenset(trial), [], self.false_in(world))
        self.learn(frozenset(kept), [fact], [])
        return kept

    def solve(self, kept: frozenset[int], extra: list[Any], core: bool = False) -> Any:
        """One solve with the statements `kept` and `extra` literals assumed: the solver when
        a world is found; else None, or with `core`, the statements of the solver's core."""
        from ortools.sat.python import cp_model

        knowledge = self.model.knowledge
        literals = {e: knowledge.event(e) for e in kept}
        model = self.model.model
        model.clear_assumptions()
        model.add_assumptions([*literals.values(), *extra])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # deterministic, and cores of assumptions need it
        solver.parameters.linearization_level = 2
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return solver
        if status != cp_model.INFEASIBLE:
            raise RuntimeError(f"CP-SAT stopped without an answer: {solver.status_name(status)}")
        if not core:
            return None
        event_of = {literal.index: e for e, literal in literals.items()}
        found = solver.sufficient_assumptions_for_infeasibility()
        return sorted(event_of[i] for i in found if i in event_of)

    @property
    def model(self) -> Any:
        """The CP-SAT model, with a literal for every fact (all made before any solve: a
        world found can only say whether the facts of its own model hold)."""
        if self._model is None:
            from models.game_of_suspicion.knowledge import HandKnowledge

            self._model = HandKnowledge(self.round.setup)
            for fact, (kind, place, what) in self.facts.about.items():
                if kind == "hand":
                    self._literals[fact] = self._model.hand_literal(place, what)
                else:
                    held = self._model.holds_literal(place, what)
                    self._literals[fact] = held if kind == "holds" else held.Not()
        return self._model

    def literal(self, fact: str) -> Any:
        _ = self.model
        return self._literals[fact]


def first(most: int, holds: Callable[[int], bool]) -> int:
    """The least n in 1..most for which `holds(n)`, given that it then holds for every larger
    n (`most` if none smaller does)."""
    lo, hi = 1, most
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def statements_of(rnd: Round) -> list[int]:
    """The round's events that tell something about the hidden cards."""
    return sorted({step.event for step in rnd.setup.steps if observes(step)})


def grounds_of(rnd: Round, me: str | None, words: Callable[[int], str]) -> Grounds:
    """What `sleuth explain` may use of the round: its statements, and its facts' chances with
    any of them left out (exact from the filter where the replay holds; for a core and its
    chain, only the certain facts, from CP-SAT where it does not)."""
    statements = statements_of(rnd)
    replay = Replay(rnd, statements)
    every = frozenset(statements)
    whole = replay.belief(every)
    assert whole is not None
    facts = Facts(rnd, me, whole)
    certainty = Certainty(rnd, statements, facts)
    if_certain = [f for f, p in facts.chances(whole).items() if p == 1]

    def chances(kept: frozenset[int]) -> dict[str, Fraction]:
        """Every fact's exact chance for the whole log and the log less one statement; for
        fewer statements too when the replay holds REPLAY_WORLDS worlds, else only the certain
        facts (a core and its chain ask nothing else of such sets)."""
        light = len(every - kept) <= 1
        belief = replay.belief(kept, None if light else REPLAY_WORLDS)
        if belief is None:
            return dict.fromkeys(certainty.certain(kept, if_certain), Fraction(1))
        found = facts.chances(belief)
        certainty.learn(
            kept, [f for f, p in found.items() if p == 1], [f for f, p in found.items() if p != 1]
        )
        return found

    # A large log: the replay of no statement at all (the least known) does not hold; its
    # cores come from CP-SAT, and its case splits are not shown (listing the hands still
    # possible with few statements is as large as the replay, or a solve per hand).
    @cache
    def large() -> bool:
        return replay.belief(frozenset(), REPLAY_WORLDS) is None

    def entails(kept: list[int], fact: str) -> bool:
        return grounds.chance(frozenset(kept)).get(fact) == 1

    def seed(fact: str) -> list[int] | None:
        """A set of statements that makes the fact certain, to shrink: CP-SAT's minimal one
        for a large log; else a window of consecutive statements, found by bisection (more
        statements only rule worlds out): the shortest beginning of the log after which the
        fact is certain, then the shortest end of that beginning that still makes it certain."""
        if large():
            return certainty.core(fact)
        end = first(len(statements), lambda n: entails(statements[:n], fact))
        start = first(end, lambda n: not entails(statements[n:end], fact))
        return statements[max(start - 1, 0) : end]

    def cases(kept: frozenset[int], fact: str) -> list[str] | None:
        """The hands still possible for the player of the fact (exact: the filter replays the
        round, up to its own limits)."""
        player = facts.player_of(fact)
        if large():
            return None  # see `large`
        belief = replay.belief(kept)
        assert belief is not None and player is not None
        return facts.hands_of(belief, player)

    grounds = Grounds(
        statements,
        chances,
        words,
        lambda fact: facts.aliases.get(fact, []),
        seed=seed,
        cases=cases,
    )
    return grounds
