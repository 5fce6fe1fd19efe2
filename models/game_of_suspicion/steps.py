"""What a Game of Suspicion log does to the hidden world, as a few primitive steps.

The hidden world is the multiset of values in each *hidden place*: the hands I cannot see (every
hand when the log has no `me`) and the middle slots `left` and `right`. Everything else (my hand,
cards face up, the shadow hand, the set-aside card, shown hands of players who are out) is known
and kept by the log reader. Each rulebook action becomes a short list of the steps below, and the
exact filter (`belief.py`) and the CP-SAT model (`knowledge.py`) both read only these steps.

A place of `None` in a move means "a known place" (my hand, the table): the value is then known
(except in the steps `unobserved` makes for `sleuth explain`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Move:
    """One card leaves `source` for `target`.

    `value` None: I do not see it; it is the source owner's hidden choice, uniform under the
    choice model (from a known place, only with an event left out: one of the cards outside
    the hidden places, each as likely). `chosen` with a value: the owner chose it and I saw
    which (weighted by the choice model, Bayes' rule). Neither: a forced or public move
    (weight 1 when possible)."""

    event: int
    source: int | None
    target: int | None
    value: int | None = None
    chosen: bool = False


@dataclass(frozen=True)
class MoveAll:
    """Every card of hidden `source` goes to hidden `target` (the middle into a hidden hand)."""

    event: int
    source: int
    target: int


@dataclass(frozen=True)
class Swap:
    """Card 0 between two hidden hands: each gives the other a card of their own hidden choice,
    chosen from the hand they held before (simultaneously)."""

    event: int
    first: int
    second: int


@dataclass(frozen=True)
class MiddleLook:
    """Action A by a player whose hand is hidden: they take the card of middle `slot`, put one
    card back (the same or one of theirs) and announce whether the value put back differs."""

    event: int
    hand: int
    slot: int
    exchanged: bool


@dataclass(frozen=True)
class PutSmallest:
    """Card 6: hidden hand `place` puts a card of its smallest rank face up; we see `value`.
    Between equally small cards (a 0 and the 10) the choice is the holder's (choice model)."""

    event: int
    place: int
    value: int


@dataclass(frozen=True)
class PutSmallestUnseen:
    """Card 6 with what was put face up left out (`sleuth explain` leaving its event out): hidden
    hand `place` puts up a card of its smallest rank, which one among equals its choice."""

    event: int
    place: int


@dataclass(frozen=True)
class Count:
    """The number of cards of hidden `place` whose value is in `values` lies in [low, high]
    (negated: it does not)."""

    event: int
    place: int
    values: frozenset[int]
    low: int
    high: int
    negated: bool = False


@dataclass(frozen=True)
class SumAbove:
    """The points of hidden hand `place` (the 10 adds 1) are above `limit`, or not (`above`)."""

    event: int
    place: int
    limit: int
    above: bool


@dataclass(frozen=True)
class Hand:
    """Hidden hand `place` is exactly `cards` (a shown hand), or is not (`equal` False)."""

    event: int
    place: int
    cards: tuple[int, ...]
    equal: bool = True


@dataclass(frozen=True)
class Guess:
    """A guess of `numbers` at hidden hand `place` (the 10 is named as 0 and 1): right or wrong."""

    event: int
    place: int
    numbers: tuple[int, ...]
    correct: bool


Step = (
    Move
    | MoveAll
    | Swap
    | MiddleLook
    | PutSmallest
    | PutSmallestUnseen
    | Count
    | SumAbove
    | Hand
    | Guess
)


def observes(step: Step) -> bool:
    """Whether the step tells something about the hidden cards: an outcome announced or shown,
    or the value of a card that moves in or out of a hidden place. The rest is the turn's
    structure: how many cards each place gives to which."""
    if isinstance(step, Move):
        return step.value is not None
    return isinstance(step, MiddleLook | PutSmallest | Count | SumAbove | Hand | Guess)


def unobserved(step: Step) -> list[Step]:
    """The step with what it observes left out, its cards still moving (`sleuth explain`
    leaving its event out; the CP-SAT model with the event's literal off has the same worlds):
    a card whose value was seen leaving a hidden place is a hidden choice of that place, one
    that entered from a known place is one of the cards outside the hidden places, a middle
    look's card put back is one of the hand and the card taken (whichever was announced),
    card 6's card is one of the smallest, unseen, and what only rules worlds out goes."""
    if isinstance(step, Move) and observes(step):
        return [Move(step.event, step.source, step.target)]
    if isinstance(step, MiddleLook):
        return [
            MoveAll(step.event, step.slot, step.hand),
            Move(step.event, step.hand, step.slot),
        ]
    if isinstance(step, PutSmallest):
        return [PutSmallestUnseen(step.event, step.place)]
    if isinstance(step, Count | SumAbove | Hand | Guess):
        return []
    return [step]


@dataclass
class Setup:
    """The hidden world at a deal: its places, how many cards each holds, and which values are
    hidden (the deck less my hand, the shadow hand and the set-aside card)."""

    places: list[str]
    capacity: list[int]
    hidden: Counter
    copies: Counter  # every card of the round (bounds the counts a place can reach)
    choice_unit: str = "card"
    announce_model: str = "restrict"
    card6_ten_rank: str = "zero"
    steps: list[Step] = field(default_factory=list)
    outside: bool = False  # the log has no `me`: every hand is hidden (outside.py tracks it)

    def place(self, name: str) -> int:
        return self.places.index(name)
