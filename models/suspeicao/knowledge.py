"""CP-SAT model of a Suspeição round: where every card is after each primitive step.

The hidden world is `x[t][card, place]`: whether `card` lies in hidden place `place` (an
opponent's hand, or PILE) after step `t` (t = 0 is the deal); a card in no hidden place is *out*
(in my hand, in front of a player, in the discard). At the deal the cards of `setup.hidden` fill
the opponents' hands (`hand_size` each) and the pile (`setup.pile`), every other card is out.
Each step of `steps.py` links `x[t - 1]` to `x[t]` in two parts:

- its *structure* — how many cards leave or enter which place, that a card which leaves a place
  was in it, that a card which enters from outside was out — is public and always holds;
- its *observation* — which card it was, what a FORCE claim or a fact says about a hand — holds
  only under the assumption literal of its event.

So dropping an event's literal leaves a coherent timeline (some card still moves where the step
says), the solutions with every event assumed are exactly the physical (deal, history) pairs the
exact filter (`belief.py`) gives positive weight, and a contradictory log is explained by a
minimal set of events (`conflict`). `possible_worlds` lists the final hidden states by
enumeration (small decks only: a cross-check of the filter, with `support_of` expanding the
filter's worlds into the same physical states).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from models.suspeicao.belief import Belief
from models.suspeicao.rules import Deck, requirement
from models.suspeicao.steps import (
    PILE,
    Enter,
    Fact,
    Force,
    Hidden,
    Isolate,
    Leave,
    Setup,
    Step,
    Swap,
)
from solver.knowledge import Knowledge

State = dict[tuple[str, str], Any]  # (card, place) -> 0/1 variable: the card lies in the place
World = tuple[frozenset[str], ...]  # per opponent (setup order), then the pile: its cards
Move = tuple[dict[str, Any], str | None, str | None]  # a literal per card (one true), from, to


class RoundKnowledge:
    """The hidden places of one round, step by step, with every observation under its literal."""

    def __init__(self, setup: Setup, deck: Deck, steps: list[Step] | None = None):
        self.setup = setup
        self.deck = deck
        self.steps = list(setup.steps if steps is None else steps)
        self.knowledge = Knowledge()
        self.model = self.knowledge.model
        self.places = [*setup.opponents, PILE]
        used = [c.name for c in deck.for_players(len(setup.opponents) + 1)]
        named = [getattr(s, "card", None) or getattr(s, "revealed", None) for s in self.steps]
        extra = [c for c in [*setup.hidden, *named] if c is not None and c not in used]
        self.cards = used + sorted(set(extra))
        self.size = {**dict.fromkeys(setup.opponents, setup.hand_size), PILE: setup.pile}
        self.x: list[State] = []  # x[t]: after step t (0: the deal)
        self.x.append(self._deal())
        for step in self.steps:
            self.x.append(getattr(self, f"_{type(step).__name__.lower()}")(step, self.x[-1]))
        self.final = self.x[-1]
        for card in self.cards:
            for place in self.places:
                self.knowledge.witness_vars[f"{place}/{card}"] = self.final[card, place]

    # -- the hidden world --------------------------------------------------------------------------

    def _state(self, before: State, changed: list[str]) -> State:
        """The state after the next step: new variables for the `changed` places (whose sizes
        `self.size` already gives: a redundant sum that helps propagation), the others' as
        before."""
        t, after = len(self.x), dict(before)
        for place in changed:
            for card in self.cards:
                after[card, place] = self.model.new_bool_var(f"x_{card}_{place}_{t}")
            self.model.add(sum(after[c, place] for c in self.cards) == self.size[place])
        return after

    def _deal(self) -> State:
        """The deal: the hidden cards fill every hidden place to its size; the rest is out."""
        setup = self.setup
        if len(setup.hidden) != setup.hand_size * len(setup.opponents) + setup.pile:
            raise ValueError("the hidden cards do not fill the opponents' hands and the pile")
        x = self._state({}, self.places)
        hidden = set(setup.hidden)
        for card in self.cards:
            where = sum(x[card, p] for p in self.places)
            self.model.add(where == (1 if card in hidden else 0))
        return x

    def _out(self, state: State, card: str) -> Any:
        """1 when `card` lies in no hidden place (an expression)."""
        return 1 - sum(state[card, p] for p in self.places)

    def _seen(self, step: Step) -> Any:
        """The assumption literal of the step's event: what it observes holds under it."""
        return self.knowledge.event(step.event)

    def _transfer(self, before: State, source: str | None, what: str) -> dict[str, Any]:
        """Exactly one card leaves `source` (None: enters from out): a literal per card, the one
        true picks the card, which lay there before."""
        t = len(self.x)
        moved = {c: self.model.new_bool_var(f"{what}_{c}_{t}") for c in self.cards}
        self.model.add_exactly_one(moved.values())
        for card, literal in moved.items():
            if source is None:
                self.model.add(literal <= self._out(before, card))
            else:
                self.model.add(literal <= before[card, source])
        return moved

    def _apply(self, before: State, moves: list[Move]) -> State:
        """The state after simultaneous `moves` (chosen card, from, to; None: out)."""
        changed: list[str] = []
        for _, source, target in moves:
            for place in (source, target):
                if place is not None and place not in changed:
                    changed.append(place)
        for _, source, target in moves:
            if source is not None:
                self.size[source] -= 1
            if target is not None:
                self.size[target] += 1
        after = self._state(before, changed)
        for card in self.cards:
            for place in changed:
                delta = [m[card] for m, _, t in moves if t == place]
                delta += [-m[card] for m, s, _ in moves if s == place]
                self.model.add(after[card, place] == before[card, place] + sum(delta))
        return after

    def _need(self, step: Step, place: str, cards: int = 1) -> None:
        if self.size[place] < cards:
            raise ValueError(f"event {step.event}: {place} holds {self.size[place]} cards here")

    def _meeting(self, text: str) -> list[str]:
        rule = requirement(text)
        return [c for c in self.cards if rule.met_by(self.deck.card(c))]

    # -- steps that move cards ---------------------------------------------------------------------

    def _leave(self, step: Leave, before: State) -> State:
        """A card of `place` goes out (structure); it is `card` (observed)."""
        self._need(step, step.place)
        moved = self._transfer(before, step.place, "left")
        self.model.add(moved[step.card] == 1).only_enforce_if(self._seen(step))
        return self._apply(before, [(moved, step.place, None)])

    def _isolate(self, step: Isolate, before: State) -> State:
        """`card` lies in `place` (observed); nothing moves."""
        self.model.add(before[step.card, step.place] == 1).only_enforce_if(self._seen(step))
        return before

    def _enter(self, step: Enter, before: State) -> State:
        """A card from out goes into `place` (structure); it is `card` (observed)."""
        moved = self._transfer(before, None, "entered")
        self.model.add(moved[step.card] == 1).only_enforce_if(self._seen(step))
        return self._apply(before, [(moved, None, step.place)])

    def _hidden(self, step: Hidden, before: State) -> State:
        """A card of `source`, unseen, goes to `target` (pure structure)."""
        self._need(step, step.source)
        moved = self._transfer(before, step.source, "hidden")
        return self._apply(before, [(moved, step.source, step.target)])

    def _swap(self, step: Swap, before: State) -> State:
        """Each hand gives the other one card of what it held before (pure structure). A hand
        with no card only receives (the reader writes that case as a TAKE; kept for safety)."""
        first, second = step.first, step.second
        moves: list[Move] = []
        if self.size[first]:
            moves.append((self._transfer(before, first, "given"), first, second))
        if self.size[second]:
            moves.append((self._transfer(before, second, "returned"), second, first))
        return self._apply(before, moves)

    def _force(self, step: Force, before: State) -> State:
        """A FORCE on a hidden hand. Revealed: like Leave (the card meets the requirement: the
        reader checked), and with `force_reveal: protect` an incriminating card is shown only
        from a hand with no other qualifying card, and with bluff_rate 1 no card is ever shown. A
        claim of none: with bluff_rate 0, the hand holds no qualifying card (observed); otherwise
        it says nothing for sure."""
        place, seen = step.place, self._seen(step)
        meeting = self._meeting(step.requirement)
        if step.revealed is None:
            if self.deck.bluff_rate == 0:
                self.model.add(sum(before[c, place] for c in meeting) == 0).only_enforce_if(seen)
            return before
        if self.deck.bluff_rate == 1:  # a holder always claims none: no card is ever shown
            self.model.add_bool_or([]).only_enforce_if(seen)
        self._need(step, place)
        moved = self._transfer(before, place, "forced")
        self.model.add(moved[step.revealed] == 1).only_enforce_if(seen)
        guilty = set(self.setup.incriminating)
        protect = self.deck.options.get("force_reveal") == "protect"
        if protect and step.revealed in guilty:
            safe = [before[c, place] for c in meeting if c not in guilty]
            self.model.add(sum(safe) == 0).only_enforce_if(seen)
        return self._apply(before, [(moved, place, None)])

    # -- steps that only rule worlds out -----------------------------------------------------------

    def _fact(self, step: Fact, before: State) -> State:
        """The hand holds at least one (has) or no card meeting the requirement (observed)."""
        held = sum(before[c, step.place] for c in self._meeting(step.requirement))
        if step.has:
            self.model.add(held >= 1).only_enforce_if(self._seen(step))
        else:
            self.model.add(held == 0).only_enforce_if(self._seen(step))
        return before

    # -- queries -----------------------------------------------------------------------------------

    def consistent(self) -> bool:
        """Whether every event's observations can hold together."""
        return self.knowledge.consistent()

    def conflict(self) -> list[int]:
        """A minimal set of event numbers whose observations cannot all hold ([] if none)."""
        return self.knowledge.conflict()

    def possible_worlds(self, limit: int | None = None) -> set[World]:
        """The possible final hidden states: with a `limit`, up to that many (one solve each);
        without, every one, by enumerating every history (small decks only: a 12-card deal has
        about a thousand deals, each draw multiplies the histories)."""
        if limit is not None:
            query = {(c, p): self.final[c, p] for c in self.cards for p in self.places}
            return {self._world(answer) for answer, _ in self.knowledge.answers(query, limit=limit)}
        from ortools.sat.python import cp_model

        model = self.model.clone()
        model.clear_assumptions()
        for literal in self.knowledge.event_literals.values():
            model.add(literal == 1)
        for literal in self.knowledge._query_literals:  # answers() made: off, as in enumerate()
            model.add(literal == 0)
        final, cards, places, found = self.final, self.cards, self.places, set()

        class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[name-defined]
            def on_solution_callback(self) -> None:
                found.add(
                    tuple(
                        frozenset(c for c in cards if self.boolean_value(final[c, p]))
                        for p in places
                    )
                )

        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.parameters.linearization_level = 0  # no LP relaxation: ~8 times faster here
        status = solver.solve(model, Collect())
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise RuntimeError(f"CP-SAT stopped early: {solver.status_name(status)}")
        return found

    def _world(self, answer: frozenset) -> World:
        """An answer of (card, place) pairs as the cards of each place."""
        return tuple(frozenset(c for c, p in answer if p == place) for place in self.places)


def conflict(setup: Setup, steps: list[Step], deck: Deck) -> list[int]:
    """A minimal list of event numbers whose observations cannot all hold ([] if they can)."""
    return RoundKnowledge(setup, deck, steps).conflict()


def consistent(setup: Setup, steps: list[Step], deck: Deck) -> bool:
    return RoundKnowledge(setup, deck, steps).consistent()


def possible_worlds(
    setup: Setup, steps: list[Step], deck: Deck, limit: int | None = None
) -> set[World]:
    """Every final hidden state (a set of cards per opponent in setup order, then the pile), or
    up to `limit` of them."""
    return RoundKnowledge(setup, deck, steps).possible_worlds(limit)


# -- the exact filter's worlds as physical states ----------------------------------------------------


def _splits(cards: list[str], sizes: list[int]) -> Iterator[tuple[frozenset[str], ...]]:
    """Every way to split `cards` into parts of the given sizes (which add up to len(cards))."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for others in _splits(rest, sizes[1:]):
            yield (frozenset(first), *others)


def support_of(belief: Belief) -> set[World]:
    """The physical final states the exact filter gives positive probability: every way to split
    the hidden cards into the opponents' hands (setup order) and the pile, kept when the filter
    finds it possible. Small states only (tests)."""
    opponents = belief.opponents
    sizes = [belief.hand_size(p) for p in opponents] + [belief.pooled["pile"]]
    found: set[World] = set()
    for split in _splits(sorted(belief.supply), sizes):
        if belief.possible(dict(zip(opponents, split[:-1], strict=True))):
            found.add(split)
    return found
