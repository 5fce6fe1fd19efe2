"""The exact Bayesian filter of Game of Suspicion (RULINGS.md §3), step by step.

The generic filter (`solver.hidden_cards`) keeps how many cards of each value each hidden place
holds, with exact integer weights; this module adds what the game's rules need: the reading of
each primitive step of `steps.py`, the announcement of a middle look, the smallest card of
card 6, a hand's sum for card 2 and the 10 counted as a 0 and a 1 in guesses.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

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
    PutSmallestUnseen,
    Setup,
    Step,
    SumAbove,
    Swap,
)
from solver.errors import InputError
from solver.hidden_cards import (
    HiddenCards,
    by_value,
    cells,
    deal_worlds,
    key_multipliers,
    kinds_and_rows,
    put_together,
)

if TYPE_CHECKING:
    from models.game_of_suspicion.outside import OutsideBelief

V = len(rules.VALUES)
POINTS = np.array([rules.points(v) for v in rules.VALUES], dtype=np.int64)
MAX_WORLDS = 4_000_000  # more hidden worlds than this at once: refused (memory)
MAX_CANDIDATES = 10_000_000  # a step that would weigh more candidate worlds: refused first
# The last resort for a log without `me` (after the tables of outside.py): every layout of the
# 4-player deal is one of 16,305,240, so a list that may hold them all (with some room: later
# sizes of the places can have a few more) does not run out; worlds with part-pooled places can
# be more, so past the limit every place is resolved and the step tried again. Steps over it are
# applied a slice of worlds at a time to bound the candidates in memory.
LARGE_WORLDS = 20_000_000
LARGE_CANDIDATES = 12_000_000  # per slice
SLICE_WORLDS = 1_000_000  # worlds a slice gives after a step (about)
LARGE_MEMORY = "the list of every layout needs more memory than this machine gives it: up to 9 GB"


class TooBig(InputError):
    """Tracking the log exactly would hold more hidden worlds in memory than MAX_WORLDS (or,
    without `me`, a table or a sum larger than the limits of `outside.py`: `why`)."""

    def __init__(self, event: int | None = None, why: str | None = None):
        where = f"event {event}: " if event is not None else ""
        what = why or f"more than {MAX_WORLDS:,} possible worlds at once"
        super().__init__(
            f"{where}the hidden world is too large to track exactly ({what}); a log with a "
            "'me' tracks far fewer"
        )


class Belief(HiddenCards):
    """The weighted hidden worlds of a round after its deal and the steps applied since; the
    card classes are the values 0-10.

    The last column of `counts` is the *pool*: the cards of every slot no step has needed to
    look into yet. At the deal every hidden card is in the pool (one world). A world records
    the explicit cards of each place; `pooled[place]` slots of each place (the same in every
    world) hold cards of the pool, and those are exchangeable: any way of dealing the pool into
    the pooled slots is equally likely. A step that needs a place's cards first *resolves* it
    (its pooled slots draw their cards from the pool: a multivariate hypergeometric split), so
    the worlds grow only as far as the log looks. The pool column carries no key: it is the
    hidden cards less the explicit ones, the same function of the explicit cards in every
    world.

    A wrong guess (or a hand known not to be shown) at a pooled hand is kept aside in
    `unlike[place]` instead of resolving the hand: a world's mass is then its weight times
    the number of physical ways to deal its pool into the pooled slots with no such hand
    (`deal_ways`, by inclusion-exclusion), and the hands ruled out are filtered when the place
    is resolved. Steps that move cards only between pooled slots keep that mass exact; a step
    that needs a ruled-out hand's cards resolves it first."""

    def __init__(self, setup: Setup):
        hidden = [setup.hidden[v] for v in rules.VALUES]
        copies = [setup.copies[v] for v in rules.VALUES]
        self.pool = len(setup.places)
        super().__init__([0] * self.pool + [sum(hidden)], hidden, copies, setup.choice_unit)
        self.multiplier = pool_free(self.multiplier, copies, self.pool)
        self.keys = self._keys(self.counts)
        self.pooled = list(setup.capacity)
        self.unlike: dict[int, list[tuple[int, ...]]] = {}  # pooled place -> hands it is not
        self.setup = setup
        self._settled: dict[int, Belief] = {}
        self._counted: dict[int, int] = {}  # -1: the number of worlds, once asked
        self.max_worlds, self.max_candidates = MAX_WORLDS, MAX_CANDIDATES
        self.slice: int | None = None  # apply steps a slice of this many worlds at a time

    @classmethod
    def large(cls, setup: Setup) -> Belief:
        """The list of worlds as the last resort for a log without `me`: room for every layout
        of the deal, steps applied a slice at a time (seconds per step, a few GB)."""
        belief = cls(setup)
        belief.max_worlds, belief.max_candidates = LARGE_WORLDS, LARGE_CANDIDATES
        belief.slice = SLICE_WORLDS
        return belief

    @classmethod
    def relaxed(cls, setup: Setup) -> Belief:
        """A list of worlds for steps `unobserved` (`sleuth explain` leaving events out): a
        card of unseen value may leave the hidden places or enter them, so the cards they hold
        can differ between worlds and the pool is no longer the same function of the explicit
        cards in every world; its column is part of the key."""
        belief = cls(setup)
        belief.multiplier = key_multipliers(belief.copies, belief.pool + 1)
        belief.keys = belief._keys(belief.counts)
        return belief

    def _own(self, other: Belief) -> Belief:
        other.pooled = list(self.pooled)
        other.unlike = {p: list(hands) for p, hands in self.unlike.items()}
        other._settled, other._counted = {}, {}
        return other

    def copy(self):
        return self._own(super().copy())

    def part(self, index: slice) -> Belief:
        return self._own(super().part(index))

    def apply(self, step: Step) -> None:
        self._settled, self._counted = {}, {}
        name = f"_{type(step).__name__.lower()}"
        try:
            try:
                self._in_slices(lambda belief: getattr(belief, name)(step))
            except TooBig:
                if not self.slice or not (any(self.pooled) or self.unlike):
                    raise
                # part-pooled worlds can outnumber the layouts of the deal; whole ones cannot
                self.open_every_place()
                self._in_slices(lambda belief: getattr(belief, name)(step))
        except TooBig:
            raise TooBig(step.event, self._too_many()) from None
        except MemoryError:  # the large list only: the others stop far below the memory
            raise TooBig(step.event, LARGE_MEMORY) from None
        if len(self.weights) > self.max_worlds:
            raise TooBig(step.event, self._too_many())

    def _too_many(self) -> str:
        return f"more than {self.max_worlds:,} possible worlds at once"

    def _in_slices(self, action: Callable[[Belief], None]) -> None:
        """`action` (a step) applied to this belief; on the large list, to one slice of worlds
        at a time, each slice sized to give about `slice` worlds after the action (from the
        growth of the last one; a slice whose candidates pass the limit is halved), the results
        put together exactly as they grow (`put_together`). An action reads only its own
        world's cards, except a few decisions on all the worlds at once (whether the pool holds
        a value once, which places are still pooled): if two slices decide differently, it is
        applied to every world at once after all."""
        size = len(self.weights)
        if not self.slice or size == 0:
            action(self)
            return
        structure = None
        whole: Belief | None = None
        waiting: list[Belief] = []
        lo, step = 0, self.slice
        while lo < size:
            hi = min(lo + step, size)
            part = self.part(slice(lo, hi))
            try:
                action(part)
            except TooBig:
                if hi - lo <= 1:
                    raise
                step = (hi - lo) // 2
                continue
            shape = (part.pooled, part.unlike, part.keys.dtype)
            if structure is not None and shape != structure:
                whole = self.part(slice(None))  # decided differently: every world at once
                action(whole)
                waiting = []
                break
            structure = shape
            growth = max(len(part.weights) / (hi - lo), 1.0)
            lo, step = hi, max(1, int(self.slice / growth))
            waiting.append(part)
            held = len(whole.weights) if whole is not None else 0
            if sum(len(p.weights) for p in waiting) > max(self.slice, held):
                whole = put_together([whole, *waiting] if whole is not None else waiting)
                waiting = []
                if len(whole.weights) > self.max_worlds:
                    raise TooBig()
        if waiting or whole is None:
            whole = put_together([whole, *waiting] if whole is not None else waiting)
        scale = self.scale
        self.__dict__.update(whole.__dict__)
        self.scale = scale * whole.scale
        self._settled, self._counted = {}, {}

    def open_every_place(self) -> None:
        """Resolve every pooled place in this belief (the large list, before questions: its
        settled copies would double a memory of gigabytes)."""
        if any(self.pooled) or self.unlike:
            self._in_slices(lambda belief: belief.resolve(*range(belief.pool)))

    def _spawn(self, rows, kinds, changes, factor, distinct=False) -> None:
        if len(rows) > self.max_candidates:  # refused before the candidates' keys are built
            raise TooBig()
        super()._spawn(rows, kinds, changes, factor, distinct)

    def draw(self, source: int, target: int, cards: int) -> None:
        n = self.counts[:, source, :]
        radix = np.cumprod([1] + [c + 1 for c in self.copies[:-1]]).astype(np.int64)
        _, first, repeats = np.unique(n.astype(np.int64) @ radix, True, False, True)
        limit = self.max_candidates if self.counts[:, target, :].any() else self.max_worlds
        if int(split_counts(n[first], cards) @ repeats.astype(object)) > limit:
            raise TooBig()  # counted before any split is listed
        super().draw(source, target, cards)

    # -- the pool ----------------------------------------------------------------------------------

    def explicit(self, place: int) -> int:
        """How many of the place's cards a world records (the same in every world)."""
        return int(self.counts[0, place, :].sum()) if len(self.counts) else 0

    def resolve(self, *places: int | None) -> None:
        """The pooled slots of `places` draw their cards from the pool: the places' cards are
        then explicit in every world."""
        for place in places:
            if place is not None and 0 < self.pooled[place] == sum(self.pooled):
                self.move_all(self.pool, place)  # the last pooled place holds the whole pool
                self.pooled[place] = 0
            elif place is not None and self.pooled[place]:
                self.draw(self.pool, place, self.pooled[place])
                self.pooled[place] = 0
            for cards in self.unlike.pop(place, []) if place is not None else []:
                self._keep(np.any(self.counts[:, place, :] < cards, axis=1))

    def free(self, *places: int | None) -> bool:
        """Whether every place given is wholly pooled, with no hand ruled out."""
        return all(
            p is not None and self.pooled[p] and not self.explicit(p) and p not in self.unlike
            for p in places
        )

    def rule_out(self, place: int, hand: tuple[int, ...]) -> None:
        """Pooled `place` does not hold all of `hand` (counts per value): a whole hand, or one
        card the pool holds at most once."""
        if hand not in self.unlike.setdefault(place, []):
            self.unlike[place].append(hand)
            if len(self.weights):  # worlds whose pool cannot avoid every ruled-out hand go
                self._keep(self.deal_ways() != 0)

    def deal_ways(self) -> np.ndarray:
        """Per world, the physical ways to deal its pool into the pooled slots, no pooled place
        holding a hand ruled out (exact integers)."""
        pools, group = np.unique(self.counts[:, self.pool, :], axis=0, return_inverse=True)
        sizes = tuple(self.pooled)
        unlike = tuple((p, tuple(h)) for p, h in sorted(self.unlike.items()))
        ways = [deal_ways(tuple(int(n) for n in pool), sizes, unlike) for pool in pools]
        return np.array(ways, dtype=object)[group.reshape(-1)]

    def settled(self, *places: int) -> Belief:
        """A copy with `places` explicit whose weights are whole masses (times `deal_ways`), so
        that questions about explicit places read it directly (not for further steps)."""
        other = self.copy()
        other.resolve(*places)
        if other.unlike:
            ways = other.deal_ways()
            other._keep(ways != 0, ways)
            other.unlike = {}
        return other

    def resolved(self) -> Belief:
        """A copy with every place explicit (the full list of hidden worlds)."""
        other = self.copy()
        other.resolve(*range(self.pool))
        return other

    def has_cards(self, place: int) -> bool:
        return bool(self.pooled[place]) or bool(self.counts[:, place, :].any())

    def _single(self, value: int) -> bool:
        """Whether the pool holds at most one card `value` in every world."""
        return bool(len(self.counts) == 0 or self.counts[:, self.pool, value].max() <= 1)

    # -- steps -------------------------------------------------------------------------------------

    def _move(self, step: Move) -> None:
        source, target, value = step.source, step.target, step.value
        self.resolve(*(p for p in (source, target) if p in self.unlike))
        if source is None and value is None:
            self._from_outside(step)
            return
        if source is None and value is not None:
            self._room_for(value)
        pooled = self.free(source)
        if pooled and value is None and self.choice_unit == "card":
            # a uniformly random card of a pooled hand is a uniformly random pool card
            assert source is not None
            self.pooled[source] -= 1
            if target is None:  # unseen, to a known place (only with an event left out)
                self.move(self.pool, None, None)
            elif self.free(target):
                self.pooled[target] += 1  # it stays in the pool, in another place's slot
            else:
                self.draw(self.pool, target, 1)
            return
        if pooled and value is not None and not step.chosen and self._single(value):
            # a public move of a card the pool holds once: the chance that this pooled hand
            # holds it is the same in every world that has it (slots / pool size)
            assert source is not None
            self._keep(self.counts[:, self.pool, value] >= 1)
            self._shift(self.pool, value, -1)
            self.pooled[source] -= 1
            if target is not None:
                self._shift(target, value, 1)
            return
        # a hidden card goes into `target` as an explicit card of the class drawn: resolve the
        # target first, or its explicit card and its pooled slots would describe the same hands
        # in several ways (more worlds than the full list)
        self.resolve(source, target if value is None else None)
        self.move(source, target, value, step.chosen)

    def _room_for(self, value: int) -> None:
        """A known card `value` enters the hidden places: keep the worlds where they do not
        hold every copy already. Always so after a whole log (the card was known elsewhere);
        with an event left out (`unobserved`), its unseen card may be taken for this one."""
        full = self.counts[:, :, value].sum(axis=1) >= self.copies[value]
        if full.any():
            self._keep(~full)

    def _from_outside(self, step: Move) -> None:
        """A card from a known place whose value was left out (`unobserved`): in each world
        one of the cards outside the hidden places, each physical card as likely."""
        assert step.target is not None
        outside = np.array(self.copies, dtype=np.int64) - self.counts.sum(axis=1)
        chance = self.over(outside, outside.sum(axis=1))
        values, rows = kinds_and_rows(by_value(chance))
        every = np.arange(V)
        changes = self._changes(V)
        changes[every, step.target, every] += 1
        self._spawn(rows, values, changes, cells(chance, rows, values))

    def _moveall(self, step: MoveAll) -> None:
        source, target = step.source, step.target
        self.resolve(*(p for p in (source, target) if p in self.unlike))
        if not self.explicit(source) and not self.explicit(target):
            self.pooled[target] += self.pooled[source]  # pooled slots stay pooled
            self.pooled[source] = 0
            return
        self.resolve(source, target)
        self.move_all(source, target)

    def _swap(self, step: Swap) -> None:
        first, second = step.first, step.second
        self.resolve(*(p for p in (first, second) if p in self.unlike))
        pooled = [self.free(p) for p in (first, second)]
        if all(pooled) and self.choice_unit == "card":
            return  # each gives a uniformly random pool card: the pool is as exchangeable
        if any(pooled) and self.choice_unit == "card":
            known, other = (second, first) if pooled[0] else (first, second)
            self.resolve(known)
            self.move(known, other, None)  # its choice, from the hand it held before
            self.pooled[other] -= 1  # the pooled hand's card: a uniformly random pool card
            self.draw(self.pool, known, 1)
            return
        self.resolve(first, second)
        choices = [np.count_nonzero(self.counts[:, p, :], axis=1) for p in (first, second)]
        if int(choices[0].astype(np.int64) @ choices[1]) > self.max_candidates:
            raise TooBig()  # refused before the pairs of cards given are listed
        self.swap(first, second)

    def _middlelook(self, step: MiddleLook) -> None:
        hand, slot = step.hand, step.slot
        self.resolve(hand, slot)
        every = np.arange(len(self.counts))
        taken = np.argmax(self.counts[:, slot, :], axis=1)  # the slot's one card
        if not step.exchanged:
            self._keep(np.ones(len(every), dtype=bool), self._kept(hand, taken))
            return
        put, rows, chance = self._exchanged(hand, taken)
        found = put * V + taken[rows]
        kinds = np.arange(V * V)
        changes = self._changes(V * V)  # kind = put * V + took
        changes[kinds, hand, kinds // V] -= 1
        changes[kinds, hand, kinds % V] += 1
        changes[kinds, slot, kinds % V] -= 1
        changes[kinds, slot, kinds // V] += 1
        self._spawn(rows, found, changes, chance)

    def _exchanged(self, hand: int, taken: np.ndarray):
        """The cards a look announced "exchanged" may put back: per (world, value put back),
        its integer weight (the chance under the model, all worlds scaled by one constant).
        Cards of another value than the one taken: under `restrict` uniform among them, under
        `bayes` uniform among all the hand's cards plus the one taken (or over values with
        `choice_unit: value`). Kept lean: a look can meet millions of worlds."""
        every = np.arange(len(taken))
        held = self.counts[:, hand, :]
        others = held > 0
        others[every, taken] = False
        put, rows = kinds_and_rows(by_value(others))  # grouped by the card put back
        if self.choice_unit == "card":
            numerator = held.reshape(-1)[rows * V + put].astype(np.int64)
            if self.setup.announce_model == "bayes":
                return put, rows, numerator  # over the hand's cards plus one: the same in all
            denominator = self.explicit(hand) - held[every, taken].astype(np.int64)
        else:
            numerator = np.ones(len(rows), dtype=np.int64)
            denominator = np.count_nonzero(others, axis=1)
            if self.setup.announce_model == "bayes":
                denominator = denominator + 1  # the value taken is one of the choices too
        present = np.unique(denominator[denominator > 0])
        common = math.lcm(*(int(d) for d in present)) if len(present) else 1
        self.scale *= common
        scale = np.zeros(len(denominator), dtype=np.int64)
        scale[denominator > 0] = common // denominator[denominator > 0]
        return put, rows, numerator * scale[rows]

    def _kept(self, hand: int, taken: np.ndarray) -> np.ndarray:
        """Integer weights, per world, of a middle look announced "kept" (as `_middlelook`
        weighs it, one number per world): 1 under `restrict` (the card put back has the value
        taken whichever card of that value it is); under `bayes` the chance of putting back a
        card of the value taken among all cards (or values) of the hand plus the card taken."""
        if self.setup.announce_model != "bayes":
            return np.ones(len(taken), dtype=np.int64)
        every = np.arange(len(taken))
        same = self.counts[every, hand, taken].astype(np.int64)
        if self.choice_unit == "card":
            return same + 1  # of the hand's cards plus one, the same number in every world
        values = np.count_nonzero(self.counts[:, hand, :], axis=1) + (same == 0)
        return self.over(np.ones((len(taken), 1), dtype=np.int64), values)[:, 0]

    def _putsmallest(self, step: PutSmallest) -> None:
        place, value = step.place, step.value
        self.resolve(place)
        pool = self.counts[:, place, :]
        ranks = np.array([rules.rank(v, self.setup.card6_ten_rank) for v in rules.VALUES])
        low = np.where(pool > 0, ranks, 99).min(axis=1)
        tied = (pool > 0) & (ranks[None, :] == low[:, None])
        chance = self._choice(pool, tied)
        self._keep(chance[:, value] > 0, chance[:, value])
        self._shift(place, value, -1)

    def _putsmallestunseen(self, step: PutSmallestUnseen) -> None:
        """Card 6 unseen: each world branches on the value put up, weighed by the holder's
        choice among the cards of the smallest rank."""
        place = step.place
        self.resolve(place)
        held = self.counts[:, place, :]
        ranks = np.array([rules.rank(v, self.setup.card6_ten_rank) for v in rules.VALUES])
        low = np.where(held > 0, ranks, 99).min(axis=1)
        chance = self._choice(held, (held > 0) & (ranks[None, :] == low[:, None]))
        values, rows = kinds_and_rows(by_value(chance))
        every = np.arange(V)
        changes = self._changes(V)
        changes[every, place, every] -= 1
        self._spawn(rows, values, changes, cells(chance, rows, values))

    def _count(self, step: Count) -> None:
        place, (value, *others) = step.place, sorted(step.values)
        lacks = not others and step.low == step.high == 0 and not step.negated
        if lacks and (self.free(place) or place in self.unlike) and self._single(value):
            self.rule_out(place, tuple(int(v == value) for v in range(V)))  # e.g. card 1's
            return  # "held by nobody": kept aside like a wrong guess
        self.resolve(step.place)
        self.count(step.place, step.values, step.low, step.high, step.negated)

    def _sumabove(self, step: SumAbove) -> None:
        self.resolve(step.place)
        total = self.counts[:, step.place, :].astype(np.int64) @ POINTS
        self._keep((total > step.limit) == step.above)

    def _hand(self, step: Hand) -> None:
        if not step.equal and (self.free(step.place) or step.place in self.unlike):
            self.rule_out(step.place, tuple(int(n) for n in np.bincount(step.cards, minlength=V)))
            return
        self.resolve(step.place)
        self.hand(step.place, step.cards, step.equal)

    def _guess(self, step: Guess) -> None:
        if not step.correct and (self.free(step.place) or step.place in self.unlike):
            ruled_out = guessed_hand(step.numbers, self.pooled[step.place])
            if ruled_out is not None:
                self.rule_out(step.place, ruled_out)
            return
        self.resolve(step.place)
        wanted = np.bincount(step.numbers, minlength=V)[: rules.TEN]
        hand = self.counts[:, step.place, :]
        numbers = hand[:, : rules.TEN].copy()
        numbers[:, 0] += hand[:, rules.TEN]
        numbers[:, 1] += hand[:, rules.TEN]
        self._keep(np.all(numbers == wanted, axis=1) == step.correct)

    # -- questions (a place with pooled slots is answered from a copy that resolves it) -----------

    def _about(self, place: int) -> HiddenCards:
        """The belief to ask about `place`: itself, or a settled copy (remembered until the
        next step)."""
        if self.slice:
            self.open_every_place()
        if not self.pooled[place] and not self.unlike:
            return self
        if place not in self._settled:
            self._settled[place] = self.settled(place)
        return self._settled[place]

    def prepare(self) -> None:
        """Settle now what a report asks about (every place, the number of worlds): a log
        without `me` whose list would pass its limits there is then known at once (TooBig)."""
        try:
            if self.slice:
                self.open_every_place()
        except MemoryError:
            raise TooBig(None, LARGE_MEMORY) from None
        for place in range(self.pool):
            if self.has_cards(place):
                self._about(place)
        _ = self.worlds

    def hands(self, place: int) -> list[tuple[tuple[int, ...], Fraction]]:
        return HiddenCards.hands(self._about(place), place)

    def holds(self, place: int, value: int) -> Fraction:
        return HiddenCards.holds(self._about(place), place, value)

    @property
    def worlds(self) -> int:
        """How many distinct hidden worlds have positive probability: each world with pooled
        slots stands for every way its pool can be dealt into them (worlds that differ in their
        explicit cards stand for different hidden worlds once no place is part pooled)."""
        if not any(self.pooled):
            return len(self.weights)
        if -1 not in self._counted:
            self._counted[-1] = self._count_worlds()
        return self._counted[-1]

    def _count_worlds(self) -> int:
        belief = self.copy()
        belief.resolve(*(p for p in range(self.pool) if self.explicit(p) and self.pooled[p]))
        pools, repeats = np.unique(belief.counts[:, self.pool, :], axis=0, return_counts=True)
        unlike = tuple((p, tuple(h)) for p, h in sorted(belief.unlike.items()))
        return sum(
            int(n) * value_deals(tuple(int(c) for c in pool), tuple(belief.pooled), unlike)
            for pool, n in zip(pools, repeats, strict=True)
        )

    def probability(self, world: tuple[tuple[int, ...], ...]) -> Fraction:
        """The probability of one hidden world (per place, its values), without listing the
        worlds its pooled slots stand for: a world with the same explicit cards and pool times
        the chance that dealing the pool gives the pooled places their cards."""
        belief = self.copy()
        belief.resolve(*(p for p in range(self.pool) if self.explicit(p) and self.pooled[p]))
        belief.resolve(*belief.unlike)
        wanted = np.zeros((self.pool, V), dtype=np.int64)
        for place, cards in enumerate(world):
            np.add.at(wanted[place], list(cards), 1)
        explicit = [p for p in range(self.pool) if not belief.pooled[p]]
        pooled = [p for p in range(self.pool) if belief.pooled[p]]
        pool = wanted[pooled].sum(axis=0)
        rows = np.all(belief.counts[:, explicit, :] == wanted[explicit], axis=(1, 2))
        rows &= np.all(belief.counts[:, self.pool, :] == pool, axis=1)
        if [int(wanted[p].sum()) for p in pooled] != [belief.pooled[p] for p in pooled]:
            return Fraction(0)
        deal = Fraction(math.prod(math.factorial(int(n)) for n in pool))
        for p in pooled:
            deal *= math.factorial(belief.pooled[p])
            deal /= math.prod(math.factorial(int(n)) for n in wanted[p])
        deal /= math.factorial(int(pool.sum()))
        return Fraction(belief.mass(rows), belief.total()) * deal

    @property
    def empty(self) -> bool:
        return len(self.weights) == 0

    @property
    def empty_now(self) -> bool:
        """Whether no world is left (known at once: the worlds are listed)."""
        return self.empty

    def hidden_values(self) -> list[int]:
        """The values some hidden place may hold."""
        return [v for v in rules.VALUES if self.counts[:, :, v].any()]

    def worlds_list(self) -> dict[tuple, Fraction]:
        """Every hidden world (per place, its sorted values) with its probability (tests)."""
        found: dict[tuple, Fraction] = {}
        for world, p in HiddenCards.worlds_list(self.resolved()).items():
            found[world[: self.pool]] = found.get(world[: self.pool], Fraction(0)) + p
        return found


def split_counts(n: np.ndarray, total: int) -> np.ndarray:
    """For each row of heap sizes `n[row, heap]`, how many ways (by count per heap) to pick
    `total` cards: a convolution over the heaps, without listing the ways (Python integers)."""
    ways = np.zeros((len(n), total + 1), dtype=object)
    ways[:, 0] = 1
    for heap in range(n.shape[1]):
        before, ways = ways, np.zeros_like(ways)
        for taken in range(min(int(n[:, heap].max(initial=0)), total) + 1):
            fits = (n[:, heap] >= taken)[:, None]
            ways[:, taken:] += np.where(fits, before[:, : total + 1 - taken], 0)
    return ways[:, total]


def guessed_hand(numbers: tuple[int, ...], size: int) -> tuple[int, ...] | None:
    """The hand (counts per value) of `size` cards a guess of `numbers` is right about (the 10
    is named as a 0 and a 1), or None if no hand of that size is."""
    if len(numbers) not in (size, size + 1):
        return None
    if len(numbers) == size + 1 and not {0, 1} <= set(numbers):
        return None
    cards = rules.hand_from_guess(numbers, size)
    return tuple(int(n) for n in np.bincount(cards, minlength=V))


Unlike = tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]  # (place, hands it is not), ...


def picks(pool: tuple[int, ...], sizes: tuple[int, ...], unlike: Unlike):
    """Inclusion-exclusion over the events ruled out ("this pooled place holds these cards":
    a whole hand, or one card that exists once): for each set of them, (sign, per place the
    cards it must then hold, the pool less those) when the pool and the places allow it. Two
    events on one place hold together when it holds the most of each value either asks for."""
    per_place = []
    for place, events in unlike:
        combos = []
        for r in range(len(events) + 1):
            for chosen in itertools.combinations(events, r):
                need = tuple(map(max, zip(*chosen, strict=True))) if chosen else (0,) * len(pool)
                if sum(need) <= sizes[place]:
                    combos.append(((-1) ** r, place, need))
        per_place.append(combos)
    for choice in itertools.product(*per_place):
        needs = [(place, need) for _, place, need in choice if sum(need)]
        rest = list(pool)
        for _, need in needs:
            rest = [r - n for r, n in zip(rest, need, strict=True)]
        if min(rest) >= 0:
            yield math.prod(sign for sign, _, _ in choice), needs, rest


def free_slots(sizes: tuple[int, ...], needs) -> list[int]:
    """The pooled slots left free per pooled place once the needed cards are placed."""
    placed = {place: sum(need) for place, need in needs}
    return [k - placed.get(place, 0) for place, k in enumerate(sizes) if k]


@functools.lru_cache(maxsize=200_000)
def deal_ways(pool: tuple[int, ...], sizes: tuple[int, ...], unlike: Unlike) -> int:
    """Physical ways to deal the pool's cards (each copy a different card) into pooled slots
    of `sizes` (per place; 0 for places not pooled) with no event ruled out happening."""
    total = 0
    for sign, needs, rest in picks(pool, sizes, unlike):
        ways = math.prod(
            math.factorial(n) // math.factorial(r) for n, r in zip(pool, rest, strict=True)
        )
        for _, need in needs:
            ways //= math.prod(math.factorial(n) for n in need)
        free = free_slots(sizes, needs)
        ways *= math.factorial(sum(rest)) // math.prod(math.factorial(k) for k in free)
        total += sign * ways
    return total


@functools.lru_cache(maxsize=200_000)
def value_deals(pool: tuple[int, ...], sizes: tuple[int, ...], unlike: Unlike) -> int:
    """Distinct ways (by value) to deal the pool into pooled slots of `sizes`, no place
    holding a hand it is not."""
    total = 0
    for sign, needs, rest in picks(pool, sizes, unlike):
        free = tuple(k for k in free_slots(sizes, needs) if k)
        total += sign * deal_worlds(free, rest)
    return total


def pool_free(multiplier: np.ndarray | None, copies: list[int], pool: int) -> np.ndarray | None:
    """World keys over the places without the pool (the pool is implied by the rest)."""
    keyed = key_multipliers(copies, pool)
    if keyed is None:
        return multiplier
    return np.concatenate([keyed, np.zeros((1, len(copies)), dtype=np.int64)])


class Impossible(Exception):
    """The steps leave no hidden world: `event` is the first event that ruled the last one out."""

    def __init__(self, event: int):
        super().__init__(f"event {event} leaves no possible world")
        self.event = event


Filter: TypeAlias = "Belief | OutsideBelief"  # the list of worlds, or the tables without `me`


def track(setup: Setup, steps: list[Step] | None = None) -> Filter:
    """The filter after the deal and `steps` (default: all of the setup's); Impossible if the
    steps rule out every world."""
    steps = list(setup.steps if steps is None else steps)
    return advance(Belief(setup), setup, steps, steps)


def advance(belief: Filter, setup: Setup, todo: list[Step], steps: list[Step]) -> Filter:
    """The filter after `todo`, the last steps of `steps`. The list of worlds is tried first
    (fast, and it answers every question); when it would pass its limits on a log without
    `me`, the round is followed again from the deal by the small tables of `outside.py`, which
    hold such logs in far less memory, and if they are too large too, by the large list
    (`_followed_again`; TooBig only if that passes its limits). Impossible names the
    first event after which no world is left: the list knows at once; the tables know at once
    only when one of them runs out of rows (the deck may fail them all together earlier), so
    then, and when their sum at the end is 0, the event is found by bisection."""
    from models.game_of_suspicion.outside import OutsideBelief

    try:
        for step in todo:
            belief.apply(step)
            if belief.empty_now:
                raise Impossible(step.event)
        if setup.outside and isinstance(belief, Belief) and not belief.empty:
            belief.prepare()  # the list's answers can pass its limits too
        if todo and belief.empty:
            raise Impossible(todo[-1].event)
    except TooBig:
        if not setup.outside or (isinstance(belief, Belief) and belief.slice):
            raise
        return _followed_again(setup, steps, not isinstance(belief, OutsideBelief))
    except Impossible as impossible:
        if not isinstance(belief, OutsideBelief):
            raise
        raise Impossible(first_impossible(setup, steps, impossible.event)) from None
    return belief


def _followed_again(setup: Setup, steps: list[Step], tables_first: bool) -> Filter:
    """A round without `me` that the list of worlds refuses, followed again from the deal by
    the tables of `outside.py` (far less memory, while their links stay few), and if they
    refuse too, by the large list (`Belief.large`: room for every layout of the deal).
    Impossible names the first event that leaves no world (found by bisection when the
    tables find it: they know it only at the end of their sum)."""
    from models.game_of_suspicion.outside import OutsideBelief

    if tables_first:
        tables = OutsideBelief(setup)
        try:
            for step in steps:
                tables.apply(step)
            if steps and tables.empty:
                raise Impossible(steps[-1].event)
            return tables
        except TooBig:
            pass
        except Impossible as impossible:
            raise Impossible(first_impossible(setup, steps, impossible.event)) from None
    belief = Belief.large(setup)
    for step in steps:
        belief.apply(step)
        if belief.empty_now:
            raise Impossible(step.event)
    if not belief.empty:
        belief.prepare()
    return belief


def first_impossible(setup: Setup, steps: list[Step], upto: int) -> int:
    """The first event (at most `upto`, which leaves no world) after which the tables of
    `outside.py` leave no world."""
    from models.game_of_suspicion.outside import OutsideBelief

    events = sorted({s.event for s in steps if s.event <= upto})

    def none_left(event: int) -> bool:
        belief = OutsideBelief(setup)
        try:
            for step in steps:
                if step.event <= event:
                    belief.apply(step)
        except Impossible:
            return True
        return belief.empty

    lo, hi = 0, len(events) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if none_left(events[mid]):
            hi = mid
        else:
            lo = mid + 1
    return events[lo] if events else upto
