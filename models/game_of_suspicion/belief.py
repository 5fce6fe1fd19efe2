"""The exact Bayesian filter of Game of Suspicion (RULINGS.md §3), step by step.

The generic filter (`solver.hidden_cards`) keeps how many cards of each value each hidden place
holds, with exact integer weights; this module adds what the game's rules need: the reading of
each primitive step of `steps.py`, the announcement of a middle look, the smallest card of
card 6, a hand's sum for card 2 and the 10 counted as a 0 and a 1 in guesses.
"""

from __future__ import annotations

import numpy as np

from models.game_of_suspicion import rules
from models.game_of_suspicion.steps import (
    Count,
    Guess,
    Hand,
    MiddleLook,
    Move,
    MoveAll,
    PutSmallest,
    Setup,
    Step,
    SumAbove,
    Swap,
)
from solver.errors import InputError
from solver.hidden_cards import HiddenCards, by_value, cells, deal_worlds, kinds_and_rows

V = len(rules.VALUES)
POINTS = np.array([rules.points(v) for v in rules.VALUES], dtype=np.int64)
MAX_WORLDS = 3_000_000  # a deal with more hidden worlds than this is refused (memory)


class Belief(HiddenCards):
    """The weighted hidden worlds of a round after its deal and the steps applied since; the
    card classes are the values 0-10."""

    def __init__(self, setup: Setup):
        hidden = [setup.hidden[v] for v in rules.VALUES]
        size = deal_worlds(setup.capacity, hidden)
        if size > MAX_WORLDS:
            raise InputError(
                f"{size:,} hidden deals are too many to track exactly; give the log a 'me' "
                "(a seat's own hand shrinks the hidden world)"
            )
        super().__init__(
            setup.capacity, hidden, [setup.copies[v] for v in rules.VALUES], setup.choice_unit
        )
        self.setup = setup

    def apply(self, step: Step) -> None:
        getattr(self, f"_{type(step).__name__.lower()}")(step)

    def _move(self, step: Move) -> None:
        self.move(step.source, step.target, step.value, step.chosen)

    def _moveall(self, step: MoveAll) -> None:
        self.move_all(step.source, step.target)

    def _swap(self, step: Swap) -> None:
        self.swap(step.first, step.second)

    def _middlelook(self, step: MiddleLook) -> None:
        hand, slot = step.hand, step.slot
        every = np.arange(len(self.counts))
        taken = np.argmax(self.counts[:, slot, :], axis=1)  # the slot's one card
        pool = self.counts[:, hand, :].astype(np.int64)
        pool[every, taken] += 1  # the hand plus the card taken
        same = np.zeros(pool.shape, dtype=bool)
        same[every, taken] = True
        if self.setup.announce_model == "bayes":
            chance = np.where(same != step.exchanged, self._choice(pool, pool > 0), 0)
        else:
            chance = self._choice(pool, (pool > 0) & (same != step.exchanged))
        if not step.exchanged:
            self._keep(np.ones(len(pool), dtype=bool), chance[every, taken])
            return
        took_as = np.zeros((V, len(taken)), dtype=bool)
        took_as[taken, every] = True
        pairs = by_value(chance)[:, None, :] & took_as[None, :, :]  # [put, took, world]
        found, rows = kinds_and_rows(pairs.reshape(V * V, -1))
        put = found // V
        kinds = np.arange(V * V)
        changes = self._changes(V * V)  # kind = put * V + took
        changes[kinds, hand, kinds // V] -= 1
        changes[kinds, hand, kinds % V] += 1
        changes[kinds, slot, kinds % V] -= 1
        changes[kinds, slot, kinds // V] += 1
        self._spawn(rows, found, changes, cells(chance, rows, put))

    def _putsmallest(self, step: PutSmallest) -> None:
        place, value = step.place, step.value
        pool = self.counts[:, place, :]
        ranks = np.array([rules.rank(v, self.setup.card6_ten_rank) for v in rules.VALUES])
        low = np.where(pool > 0, ranks, 99).min(axis=1)
        tied = (pool > 0) & (ranks[None, :] == low[:, None])
        chance = self._choice(pool, tied)
        self._keep(chance[:, value] > 0, chance[:, value])
        self._shift(place, value, -1)

    def _count(self, step: Count) -> None:
        self.count(step.place, step.values, step.low, step.high, step.negated)

    def _sumabove(self, step: SumAbove) -> None:
        total = self.counts[:, step.place, :].astype(np.int64) @ POINTS
        self._keep((total > step.limit) == step.above)

    def _hand(self, step: Hand) -> None:
        self.hand(step.place, step.cards, step.equal)

    def _guess(self, step: Guess) -> None:
        wanted = np.bincount(step.numbers, minlength=V)[: rules.TEN]
        hand = self.counts[:, step.place, :].astype(np.int64)
        numbers = hand[:, : rules.TEN].copy()
        numbers[:, 0] += hand[:, rules.TEN]
        numbers[:, 1] += hand[:, rules.TEN]
        self._keep(np.all(numbers == wanted, axis=1) == step.correct)


class Impossible(Exception):
    """The steps leave no hidden world: `event` is the first event that ruled the last one out."""

    def __init__(self, event: int):
        super().__init__(f"event {event} leaves no possible world")
        self.event = event


def track(setup: Setup, steps: list[Step] | None = None) -> Belief:
    """The filter after the deal and `steps` (default: all of the setup's); Impossible if the
    steps rule out every world."""
    belief = Belief(setup)
    for step in setup.steps if steps is None else steps:
        belief.apply(step)
        if belief.worlds == 0:
            raise Impossible(step.event)
    return belief
