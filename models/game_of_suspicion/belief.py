"""The exact Bayesian filter of Game of Suspicion: a weighted set of hidden worlds, step by step.

A world is how many cards of each value each hidden place holds (`counts[world, place, value]`,
numpy int8). Its weight is an exact integer proportional to the total probability of the
(deal, history) pairs that end in it (RULINGS.md §3): the deal weighs a world by the number of
physical deals giving it (a product of multinomials); each hidden choice multiplies by the
probability of the value chosen, kept as an integer by scaling every world by the same constant
(the least common multiple of the denominators), which normalisation divides out. Weights stay
int64 while that is safe and become Python integers (numpy object arrays) when it is not, so
every probability the filter reports is an exact Fraction.

Worlds that two histories lead to are merged by an exact integer key (mixed radix over the
counts: single-copy values by their place, multi-copy values by their count per place).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from functools import reduce

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

V = len(rules.VALUES)
POINTS = np.array([rules.points(v) for v in rules.VALUES], dtype=np.int64)
RANKS = np.array([rules.rank(v) for v in rules.VALUES], dtype=np.int64)
HAND_RADIX = np.array([8**v for v in rules.VALUES], dtype=np.int64)  # a hand's key: counts base 8
SAFE = 2**62  # int64 weights stay below this; beyond, they become Python integers
MAX_WORLDS = 3_000_000  # a deal with more hidden worlds than this is refused (memory)


def hand_of(key: int) -> tuple[int, ...]:
    """The sorted hand a `Belief.hand_keys` key names."""
    return tuple(v for v in rules.VALUES for _ in range((int(key) // 8**v) % 8))


def compositions(total: int, parts: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to split `total` identical cards over `parts` places of the given capacities."""
    if parts == 0:
        return [()] if total == 0 else []
    return [
        (first, *rest)
        for first in range(min(total, caps[0]) + 1)
        for rest in compositions(total - first, parts - 1, caps[1:])
    ]


def deal_worlds(setup: Setup) -> int:
    """How many hidden worlds a deal has (counted without listing them), to refuse huge ones."""
    values = [v for v in rules.VALUES if setup.hidden[v]]

    @functools.lru_cache(None)
    def count(i: int, free: tuple[int, ...]) -> int:
        if i == len(values):
            return 1
        return sum(
            count(i + 1, tuple(f - c for f, c in zip(free, split, strict=True)))
            for split in compositions(setup.hidden[values[i]], len(free), free)
        )

    return count(0, tuple(setup.capacity))


def key_multipliers(copies, places: int) -> np.ndarray | None:
    """MULTIPLIER[place, value] of an exact int64 world key: a value with one copy is keyed by
    where it is (place + 1, or 0 when not hidden), one with more by its count in each place (a
    mixed radix). None when the key would not fit (worlds are then compared as bytes)."""
    multiplier = np.zeros((places, V), dtype=np.int64)
    base = 1
    for value in rules.VALUES:
        n = copies[value]
        if n == 0:
            continue
        if n == 1:
            multiplier[:, value] = base * np.arange(1, places + 1)
            base *= places + 1
        else:
            multiplier[:, value] = base * (n + 1) ** np.arange(places)
            base *= (n + 1) ** places
        if base >= SAFE:
            return None
    return multiplier


@functools.lru_cache(maxsize=8)
def _dealt(places: int, capacity: tuple[int, ...], hidden: tuple[int, ...]):
    """Worlds of a deal: each value's split over the places is chosen in turn (values with many
    copies first, so the tables stay small), keeping only splits that fit the free room.
    Returns, per value, its splits and the split index of each world, and the weights."""
    free = np.array([capacity], dtype=np.int8)
    weights = np.ones(1, dtype=np.int64)
    steps = []  # (value, its splits, the world each new world extends, the split it takes)
    for value in sorted(rules.VALUES, key=lambda v: -hidden[v]):
        total = hidden[value]
        if not total:
            continue
        splits = np.array(compositions(total, places, capacity), dtype=np.int8)
        ways = np.array(
            [
                math.factorial(total) // math.prod(math.factorial(int(c)) for c in split)
                for split in splits
            ],
            dtype=np.int64,
        )
        if total == 1:  # one card: a split is a place (the common case, and the big tables)
            splits = np.eye(places, dtype=np.int8)
            rows, choice = np.nonzero(free > 0)
            free = free[rows]
            free[np.arange(len(rows)), choice] -= 1
            steps.append((value, splits, rows, choice))
            weights = weights[rows]
            continue
        rows, choice = np.nonzero(np.all(free[:, None, :] >= splits[None, :, :], axis=2))
        steps.append((value, splits, rows, choice))
        free = free[rows] - splits[choice]
        weights = weights[rows] * ways[choice]
    chosen = {}  # value -> (its splits, the split of each final world), walking back
    world = np.arange(len(weights))
    for value, splits, rows, choice in reversed(steps):
        chosen[value] = (splits, choice[world])
        world = rows[world]
    return chosen, weights


def dealt(setup: Setup, multiplier: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The worlds of a deal (counts, weights, keys), each weighed by how many physical deals give
    it (a product of multinomials: which of the identical cards went where), in key order.
    The split tables are cached: a session re-reads the log after every event."""
    hidden = tuple(setup.hidden[v] for v in rules.VALUES)
    chosen, weights = _dealt(len(setup.places), tuple(setup.capacity), hidden)
    counts = np.zeros((len(weights), len(setup.places), V), dtype=np.int8)
    if multiplier is None:  # worlds compared as bytes
        for value, (splits, index) in chosen.items():
            counts[:, :, value] = splits[index]
        as_bytes = counts.reshape(len(counts), -1).view(np.dtype((np.void, counts[0].size)))[:, 0]
        order = np.argsort(as_bytes, kind="stable")
        return counts[order], weights[order], as_bytes[order]
    keys = np.zeros(len(weights), dtype=np.int64)
    for value, (splits, index) in chosen.items():
        keys += (splits.astype(np.int64) @ multiplier[:, value])[index]
    order = np.argsort(keys, kind="stable")
    for value, (splits, index) in chosen.items():  # built in key order: no 3-D gather
        counts[:, :, value] = splits[index[order]]
    return counts, weights[order], keys[order]


class Belief:
    """The weighted hidden worlds after a deal and a list of steps.

    `counts[world, place, value]` (int8), `weights[world]` (exact integers) and `keys[world]`, an
    exact int64 key of the world kept up to date as cards move (a linear function of the counts,
    `MULTIPLIER[place, value]`), so worlds reached twice are merged by sorting the keys."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.places = len(setup.places)
        size = deal_worlds(setup)
        if size > MAX_WORLDS:
            raise InputError(
                f"{size:,} hidden deals are too many to track exactly; give the log a 'me' "
                "(a seat's own hand shrinks the hidden world)"
            )
        self.multiplier = key_multipliers(setup.copies, self.places)
        self.counts, self.weights, self.keys = dealt(setup, self.multiplier)

    def copy(self) -> Belief:
        """An independent copy (to try a move without changing this belief)."""
        other = object.__new__(Belief)
        other.__dict__.update(self.__dict__)
        other.counts, other.keys, other.weights = (
            self.counts.copy(),
            self.keys.copy(),
            self.weights.copy(),
        )
        return other

    def hand_keys(self, place: int) -> np.ndarray:
        """A per-world integer naming the hand of `place` (see `hand_of`)."""
        return self.counts[:, place, :].astype(np.int64) @ HAND_RADIX

    # -- keys, merging, keeping --------------------------------------------------------------------

    def _keys(self, counts: np.ndarray) -> np.ndarray:
        if self.multiplier is not None:
            keys = np.zeros(len(counts), dtype=np.int64)
            for value in range(V):
                keys += counts[:, :, value].astype(np.int64) @ self.multiplier[:, value]
            return keys
        return np.ascontiguousarray(counts.reshape(len(counts), -1)).view(
            np.dtype((np.void, self.places * V))
        )[:, 0]

    def _sort(self) -> None:
        """Put the worlds in key order (which `_spawn` relies on)."""
        order = np.argsort(self.keys, kind="stable")
        self.counts, self.keys, self.weights = (
            self.counts[order],
            self.keys[order],
            self.weights[order],
        )

    def _shift(self, place: int, value: int, delta: int) -> None:
        """Every world gains `delta` cards `value` in `place`."""
        self.counts[:, place, value] += delta
        if self.multiplier is not None:
            self.keys += delta * self.multiplier[place, value]

    def _spawn(
        self, rows: np.ndarray, kinds: np.ndarray, changes: np.ndarray, factor: np.ndarray
    ) -> None:
        """Replace the worlds by new ones: candidate i is world `rows[i]` changed by
        `changes[kinds[i]]` (a [place, value] table of card deltas) and weighed by `factor[i]`.
        Worlds reached twice are merged, adding their weights.

        Candidates must come grouped by kind, each kind's rows in increasing order (worlds are
        kept in key order): a kind adds one constant to the key, so the new keys come in sorted
        runs that one stable sort merges cheaply. Only the surviving worlds' counts are built."""
        if len(rows) == 0:  # no world can take this step
            self.counts, self.keys = self.counts[:0], self.keys[:0]
            self.weights = np.zeros(0, dtype=np.int64)
            return
        weights = _times(self.weights[rows], factor)
        if self.multiplier is None:  # no int64 key: build every candidate, compare bytes
            counts = self.counts[rows] + changes[kinds]
            keys = self._keys(counts)
        else:
            shift = np.einsum("kpv,pv->k", changes.astype(np.int64), self.multiplier)
            keys = self.keys[rows] + shift[kinds]
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        first = order[starts]
        self.weights = np.add.reduceat(_safe(weights[order], len(order)), starts)
        self.keys = keys[starts]
        if self.multiplier is None:
            self.counts = counts[first]
        else:
            self.counts = self.counts[rows[first]] + changes[kinds[first]]
        self._reduce()

    def _changes(self, kinds: int) -> np.ndarray:
        """An empty table of card deltas for `kinds` kinds of change."""
        return np.zeros((kinds, self.places, V), dtype=np.int8)

    def _reduce(self) -> None:
        """Divide every weight by their common divisor (keeps them small and int64)."""
        w = self.weights
        if len(w) == 0:
            return
        if w.dtype == object:
            g = reduce(math.gcd, (int(x) for x in w))
            if g > 1:
                w = np.array([int(x) // g for x in w], dtype=object)
            if max(w) < SAFE:
                w = w.astype(np.int64)
        else:
            g = int(np.gcd.reduce(w))
            if g > 1:
                w = w // g
        self.weights = w

    def _keep(self, mask: np.ndarray, factor: np.ndarray | None = None) -> None:
        """Keep the worlds where `mask` holds, their weights multiplied by `factor`."""
        if factor is not None:
            mask = mask & (factor > 0)
        if not mask.all():
            self.counts, self.keys, self.weights = (
                self.counts[mask],
                self.keys[mask],
                self.weights[mask],
            )
            if factor is not None:
                factor = factor[mask]
        if factor is not None:
            self.weights = _times(self.weights, factor)
            self._reduce()

    # -- choices -----------------------------------------------------------------------------------

    def _choice(self, pool: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        """Integer weights [world, value] proportional, within each world, to the probability that
        a uniform choice from the cards `pool` [world, value] restricted to `allowed` picks that
        value; scaled by one constant for all worlds. Rows with no allowed card are all 0."""
        if self.setup.choice_unit == "value":
            numerator = ((pool > 0) & allowed).astype(np.int64)
        else:
            numerator = np.where(allowed, pool, 0).astype(np.int64)
        return _over(numerator, numerator.sum(axis=1))

    # -- steps -------------------------------------------------------------------------------------

    def apply(self, step: Step) -> None:
        getattr(self, f"_{type(step).__name__.lower()}")(step)

    def _move(self, step: Move) -> None:
        source, target, value = step.source, step.target, step.value
        if source is None:
            assert value is not None and target is not None
            self._shift(target, value, 1)
            return
        if value is not None:
            has = self.counts[:, source, value] >= 1
            factor = None
            if step.chosen:
                pool = self.counts[:, source, :]
                factor = self._choice(pool, np.ones(pool.shape, dtype=bool))[:, value]
            self._keep(has, factor)
            self._shift(source, value, -1)
            if target is not None:
                self._shift(target, value, 1)
            return
        pool = self.counts[:, source, :]
        chance = self._choice(pool, pool > 0)
        values, rows = _kinds_and_rows(_by_value(chance))  # grouped by value, rows in order
        changes = self._changes(V)
        changes[np.arange(V), source, np.arange(V)] -= 1
        if target is not None:
            changes[np.arange(V), target, np.arange(V)] += 1
        self._spawn(rows, values, changes, _cells(chance, rows, values))

    def _moveall(self, step: MoveAll) -> None:
        moving = self.counts[:, step.source, :].astype(np.int64)
        self.counts[:, step.target, :] += self.counts[:, step.source, :]
        self.counts[:, step.source, :] = 0
        if self.multiplier is not None:
            self.keys += moving @ (self.multiplier[step.target] - self.multiplier[step.source])
        else:
            self.keys = self._keys(self.counts)
        self._sort()

    def _swap(self, step: Swap) -> None:
        first, second = step.first, step.second
        a = self._choice(self.counts[:, first, :], self.counts[:, first, :] > 0)
        b = self._choice(self.counts[:, second, :], self.counts[:, second, :] > 0)
        pairs = _by_value(a)[:, None, :] & _by_value(b)[None, :, :]  # [given, received, world]
        kinds, rows = _kinds_and_rows(pairs.reshape(V * V, -1))  # grouped by kind, rows in order
        given, received = kinds // V, kinds % V
        every = np.arange(V * V)
        changes = self._changes(V * V)  # kind = given * V + received
        changes[every, first, every // V] -= 1
        changes[every, second, every // V] += 1
        changes[every, second, every % V] -= 1
        changes[every, first, every % V] += 1
        factor = _cells(a, rows, given) * _cells(b, rows, received)
        self._spawn(rows, kinds, changes, factor)

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
        pairs = _by_value(chance)[:, None, :] & took_as[None, :, :]  # [put, took, world]
        found, rows = _kinds_and_rows(pairs.reshape(V * V, -1))
        put = found // V
        kinds = np.arange(V * V)
        changes = self._changes(V * V)  # kind = put * V + took
        changes[kinds, hand, kinds // V] -= 1
        changes[kinds, hand, kinds % V] += 1
        changes[kinds, slot, kinds % V] -= 1
        changes[kinds, slot, kinds // V] += 1
        self._spawn(rows, found, changes, _cells(chance, rows, put))

    def _putsmallest(self, step: PutSmallest) -> None:
        place, value = step.place, step.value
        pool = self.counts[:, place, :]
        low = np.where(pool > 0, RANKS, 99).min(axis=1)
        tied = (pool > 0) & (RANKS[None, :] == low[:, None])
        chance = self._choice(pool, tied)
        self._keep(chance[:, value] > 0, chance[:, value])
        self._shift(place, value, -1)

    def _count(self, step: Count) -> None:
        n = self.counts[:, step.place, sorted(step.values)].sum(axis=1)
        self._keep(((step.low <= n) & (n <= step.high)) != step.negated)

    def _sumabove(self, step: SumAbove) -> None:
        total = self.counts[:, step.place, :].astype(np.int64) @ POINTS
        self._keep((total > step.limit) == step.above)

    def _hand(self, step: Hand) -> None:
        wanted = np.bincount(step.cards, minlength=V)
        same = np.all(self.counts[:, step.place, :] == wanted, axis=1)
        self._keep(same == step.equal)

    def _guess(self, step: Guess) -> None:
        wanted = np.bincount(step.numbers, minlength=V)[: rules.TEN]
        hand = self.counts[:, step.place, :].astype(np.int64)
        numbers = hand[:, : rules.TEN].copy()
        numbers[:, 0] += hand[:, rules.TEN]
        numbers[:, 1] += hand[:, rules.TEN]
        self._keep(np.all(numbers == wanted, axis=1) == step.correct)

    # -- questions ---------------------------------------------------------------------------------

    @property
    def worlds(self) -> int:
        """How many distinct hidden worlds have positive probability."""
        return len(self.weights)

    def total(self) -> int:
        return _sum(self.weights)

    def distribution(self, keys: np.ndarray) -> dict[int, Fraction]:
        """Exact probability of each value of a per-world integer `keys` array."""
        total = self.total()
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        starts = np.concatenate(([0], np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1))
        sums = np.add.reduceat(_safe(self.weights[order], len(order)), starts)
        return {
            int(sorted_keys[s]): Fraction(int(w), total) for s, w in zip(starts, sums, strict=True)
        }

    def hands(self, place: int) -> list[tuple[tuple[int, ...], Fraction]]:
        """The possible hands of hidden place `place` (sorted values), most likely first."""
        found = [(hand_of(key), p) for key, p in self.distribution(self.hand_keys(place)).items()]
        return sorted(found, key=lambda item: (-item[1], item[0]))

    def holds(self, place: int, value: int) -> Fraction:
        """Probability that hidden place `place` holds at least one card `value`."""
        total = self.total()
        return Fraction(_sum(self.weights[self.counts[:, place, value] > 0]), total)

    def expected(self, place: int, value: int) -> Fraction:
        """Expected number of cards `value` in hidden place `place`."""
        n = self.counts[:, place, value].astype(np.int64)
        return Fraction(
            sum(_sum(self.weights[n == k]) * k for k in range(1, int(n.max(initial=0)) + 1)),
            self.total(),
        )

    def worlds_list(self) -> dict[tuple, Fraction]:
        """Every world as a tuple of per-place hands, with its probability (small states: tests)."""
        total = self.total()
        return {
            tuple(
                tuple(v for v in rules.VALUES for _ in range(int(row[p, v])))
                for p in range(self.places)
            ): Fraction(int(w), total)
            for row, w in zip(self.counts, self.weights, strict=True)
        }


# -- exact integer arithmetic on weight arrays ---------------------------------------------------


def _cells(table: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """table[rows, columns], through the flat index (much faster than 2-D fancy indexing)."""
    return np.take(table, rows * table.shape[1] + columns)


def _by_value(chance: np.ndarray) -> np.ndarray:
    """Which values [value, world] have a positive chance, laid out value by value."""
    return np.ascontiguousarray((chance > 0).T)


def _kinds_and_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The true cells of a [kind, world] table, grouped by kind, worlds in order (fast: one
    scan of the flat table)."""
    cells = np.flatnonzero(table)
    return cells // table.shape[1], cells % table.shape[1]


def _over(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator[world, value] / denominator[world] as integers, all worlds scaled by one constant
    (the lcm of the denominators; worlds with denominator 0 get 0)."""
    present = np.flatnonzero(np.bincount(denominator[denominator > 0]))
    if len(present) <= 1:
        return numerator
    common = reduce(math.lcm, (int(d) for d in present))
    scale = np.zeros(len(denominator), dtype=np.int64)
    positive = denominator > 0
    scale[positive] = common // denominator[positive]
    return numerator * scale[:, None]


def _times(weights: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """weights × factor, exactly (switching to Python integers before int64 could overflow)."""
    factor = np.asarray(factor)
    small = weights.dtype != object and factor.dtype != object
    if small and len(weights) and int(weights.max()) * max(int(factor.max()), 1) < SAFE:
        return weights * factor.astype(np.int64)
    return weights.astype(object) * factor.astype(object)


def _safe(weights: np.ndarray, terms: int) -> np.ndarray:
    """The weights in a dtype whose sums of `terms` values cannot overflow."""
    if weights.dtype != object and len(weights) and int(weights.max()) * max(terms, 1) >= SAFE:
        return weights.astype(object)
    return weights


def _sum(weights: np.ndarray) -> int:
    if weights.dtype == object:
        return int(sum(int(w) for w in weights))
    return int(_safe(weights, len(weights)).sum())


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
