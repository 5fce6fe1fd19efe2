"""An exact filter over hidden cards: weighted worlds of how many cards of each class each hidden
place holds, for card games where cards move between hidden places.

A *class* is a set of cards no observation tells apart (a value in Game of Suspicion); a *place*
is somewhere cards lie unseen (an opponent's hand, a middle slot, a draw pile). A world is
`counts[world, place, class]` (numpy int8). Its weight is an exact integer proportional to the
total probability of the (deal, history) pairs that end in it: the deal weighs a world by the
number of physical deals giving it (a product of multinomials); each hidden choice multiplies by
the probability of the class chosen, kept as an integer by scaling every world by one constant
(the least common multiple of the denominators), which normalisation divides out; `scale`
records the product of those constants (and of the common divisors taken out), so that the
worlds of two beliefs that took the same steps from one start can be put together exactly
(`put_together`: a step applied to a large belief a slice of worlds at a time). Weights stay
int64 while that is safe and become Python integers (numpy object arrays) when it is not, so
every probability is an exact Fraction.

Worlds that two histories reach are merged by an exact int64 key, a linear function of the
counts (mixed radix: a one-copy class by its place, others by their count in each place), kept
up to date as cards move. A game subclasses `HiddenCards` and adds the steps its rules need;
the generic steps are here: a card moves (known, or the holder's hidden choice), a place empties
into another, two hands swap hidden choices, and a filter on the counts.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from functools import reduce
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

SAFE = 2**62  # int64 weights stay below this; beyond, they become Python integers


def compositions(total: int, parts: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to split `total` identical cards over `parts` places of the given capacities."""
    if parts == 0:
        return [()] if total == 0 else []
    return [
        (first, *rest)
        for first in range(min(total, caps[0]) + 1)
        for rest in compositions(total - first, parts - 1, caps[1:])
    ]


def deal_worlds(capacity: Sequence[int], hidden: Sequence[int]) -> int:
    """How many worlds a deal of `hidden[class]` cards into places of `capacity` has (counted
    without listing them, to refuse huge ones)."""
    classes = [c for c, n in enumerate(hidden) if n]

    @functools.lru_cache(None)
    def count(i: int, free: tuple[int, ...]) -> int:
        if i == len(classes):
            return 1
        return sum(
            count(i + 1, tuple(f - c for f, c in zip(free, split, strict=True)))
            for split in compositions(hidden[classes[i]], len(free), free)
        )

    return count(0, tuple(capacity))


def key_multipliers(copies: Sequence[int], places: int) -> np.ndarray | None:
    """MULTIPLIER[place, class] of an exact int64 world key: a class with one copy is keyed by
    where it is (place + 1, or 0 when not hidden), one with more by its count in each place (a
    mixed radix). None when the key would not fit (worlds are then compared as bytes)."""
    multiplier = np.zeros((places, len(copies)), dtype=np.int64)
    base = 1
    for cls, n in enumerate(copies):
        if n == 0:
            continue
        if n == 1:
            multiplier[:, cls] = base * np.arange(1, places + 1)
            base *= places + 1
        else:
            multiplier[:, cls] = base * (n + 1) ** np.arange(places)
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
    for value in sorted(range(len(hidden)), key=lambda v: -hidden[v]):
        total = hidden[value]
        if not total:
            continue
        splits = np.array(compositions(total, places, capacity), dtype=np.int8)
        multinomials = [
            math.factorial(total) // math.prod(math.factorial(int(c)) for c in split)
            for split in splits
        ]
        big = max(multinomials) >= SAFE or weights.dtype == object
        ways = np.array(multinomials, dtype=object if big else np.int64)
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
        weights = times(weights[rows], ways[choice])
    chosen = {}  # value -> (its splits, the split of each final world), walking back
    world = np.arange(len(weights))
    for value, splits, rows, choice in reversed(steps):
        chosen[value] = (splits, choice[world])
        world = rows[world]
    return chosen, weights


def dealt(
    capacity: Sequence[int], hidden: Sequence[int], multiplier: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The worlds of a deal (counts, weights, keys), each weighed by how many physical deals give
    it (a product of multinomials: which of the identical cards went where), in key order.
    The split tables are cached: a session re-reads the log after every event."""
    chosen, weights = _dealt(len(capacity), tuple(capacity), tuple(hidden))
    counts = np.zeros((len(weights), len(capacity), len(hidden)), dtype=np.int8)
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


class HiddenCards:
    """The weighted hidden worlds after a deal (and the steps applied since).

    `counts[world, place, class]` (int8), `weights[world]` (exact integers) and `keys[world]`,
    kept in key order, so worlds reached twice are merged by sorting the keys.

    `capacity[place]`: cards dealt to each place; `hidden[class]`: cards of each class dealt;
    `copies[class]`: the most cards of a class any place can ever hold (bounds the key);
    `choice_unit`: "card" (a hidden choice is uniform over the physical cards) or "value"
    (uniform over the distinct classes)."""

    def __init__(
        self,
        capacity: Sequence[int],
        hidden: Sequence[int],
        copies: Sequence[int],
        choice_unit: str = "card",
    ):
        self.places = len(capacity)
        self.classes = len(hidden)
        self.copies = list(copies)
        self.choice_unit = choice_unit
        self.multiplier = key_multipliers(copies, self.places)
        self.counts, self.weights, self.keys = dealt(capacity, hidden, self.multiplier)
        self.scale = Fraction(1)  # the stored weights are the exact ones times this

    def copy(self):
        """An independent copy (to try a move without changing this belief)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.counts, other.keys, other.weights = (
            self.counts.copy(),
            self.keys.copy(),
            self.weights.copy(),
        )
        return other

    def part(self, index: slice) -> Any:
        """A belief holding a copy of some of the worlds, with scale 1 (to apply a step to a
        large belief a slice at a time: see `put_together`)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.counts = self.counts[index].copy()
        other.keys = self.keys[index].copy()
        other.weights = self.weights[index]
        other.scale = Fraction(1)
        return other

    def _rescaled(self, target: int) -> np.ndarray:
        """The weights at scale `target` (a multiple of this belief's scale's numerator)."""
        factor = Fraction(target) / self.scale
        assert factor.denominator == 1
        if factor == 1:
            return self.weights
        n = int(factor)
        column = (
            np.full(len(self.weights), n, dtype=np.int64)
            if n < SAFE
            else np.array([n] * len(self.weights), dtype=object)
        )
        return times(self.weights, column)

    def hand_keys(self, place: int) -> np.ndarray:
        """A per-world integer naming the hand of `place` (see `hand_of`)."""
        return self.counts[:, place, :].astype(np.int64) @ self.hand_radix

    @property
    def hand_radix(self) -> np.ndarray:
        """Multipliers of a hand's key: a mixed radix over the classes' copies."""
        bases = np.cumprod([1] + [n + 1 for n in self.copies[:-1]])
        if bases[-1] * (self.copies[-1] + 1) >= SAFE:
            raise OverflowError("too many card classes for an int64 hand key")
        return np.array(bases, dtype=np.int64)

    def hand_of(self, key: int) -> tuple[int, ...]:
        """The sorted hand (class indexes) a `hand_keys` key names."""
        hand: list[int] = []
        for cls, n in enumerate(self.copies):
            key, count = divmod(int(key), n + 1)
            hand.extend([cls] * count)
        return tuple(hand)

    # -- keys, merging, keeping --------------------------------------------------------------------

    def _keys(self, counts: np.ndarray) -> np.ndarray:
        if self.multiplier is not None:
            keys = np.zeros(len(counts), dtype=np.int64)
            for cls in range(self.classes):
                keys += counts[:, :, cls].astype(np.int64) @ self.multiplier[:, cls]
            return keys
        return np.ascontiguousarray(counts.reshape(len(counts), -1)).view(
            np.dtype((np.void, self.places * self.classes))
        )[:, 0]

    def _sort(self) -> None:
        """Put the worlds in key order (which `_spawn` relies on), merging worlds that have
        become the same (a place emptied into another forgets which card was where)."""
        if len(self.keys) == 0:
            return
        first = self._merge(self.keys, self.weights)
        self.counts = self.counts[first]
        self._reduce()

    def _merge(self, keys: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Set the distinct `keys` (sorted) and the exact sum of the `weights` of each; return
        the index of each one's first world (the caller sets `counts` from it)."""
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        self.weights = np.add.reduceat(_safe(weights[order], len(order)), starts)
        self.keys = keys[starts]
        return order[starts]

    def _shift(self, place: int, value: int, delta: int) -> None:
        """Every world gains `delta` cards `value` in `place`."""
        self.counts[:, place, value] += delta
        if self.multiplier is not None:
            self.keys += delta * self.multiplier[place, value]

    def _spawn(
        self,
        rows: np.ndarray,
        kinds: np.ndarray,
        changes: np.ndarray,
        factor: np.ndarray,
        distinct: bool = False,
    ) -> None:
        """Replace the worlds by new ones: candidate i is world `rows[i]` changed by
        `changes[kinds[i]]` (a [place, value] table of card deltas) and weighed by `factor[i]`.
        Worlds reached twice are merged, adding their weights.

        Candidates must come grouped by kind, each kind's rows in increasing order (worlds are
        kept in key order): a kind adds one constant to the key, so the new keys come in sorted
        runs that one stable sort merges cheaply. Only the surviving worlds' counts are built.
        `distinct`: the caller knows no two candidates are the same world (no sort; the worlds
        are then not in key order, which only makes a later merge slower)."""
        if len(rows) == 0:  # no world can take this step
            self.counts, self.keys = self.counts[:0], self.keys[:0]
            self.weights = np.zeros(0, dtype=np.int64)
            return
        weights = times(self.weights[rows], factor)
        if self.multiplier is None:  # no int64 key: build every candidate, compare bytes
            counts = self.counts[rows] + changes[kinds]
            keys = self._keys(counts)
        else:
            shift = np.einsum("kpv,pv->k", changes.astype(np.int64), self.multiplier)
            keys = self.keys[rows] + shift[kinds]
        if distinct:  # no two candidates can be the same world: nothing to merge
            first = np.arange(len(rows))
            self.weights, self.keys = weights, keys
        else:
            order = np.argsort(keys, kind="stable")
            keys = keys[order]
            starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
            first = order[starts]
            weights = _safe(weights[order], len(order))
            del order
            self.weights = np.add.reduceat(weights, starts)
            del weights
            self.keys = keys[starts]
            del keys
        if self.multiplier is None:
            self.counts = counts[first]
        else:  # only the places a change touches are added to
            touched = np.flatnonzero(changes.any(axis=(0, 2)))
            self.counts = self.counts[rows[first]]
            self.counts[:, touched, :] += changes[:, touched, :][kinds[first]]
        self._reduce()

    def _changes(self, kinds: int) -> np.ndarray:
        """An empty table of card deltas for `kinds` kinds of change."""
        return np.zeros((kinds, self.places, self.classes), dtype=np.int8)

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
        if g > 1:
            self.scale /= g
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
            self.weights = times(self.weights, factor)
            self._reduce()

    # -- choices -----------------------------------------------------------------------------------

    def _choice(self, pool: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        """Integer weights [world, value] proportional, within each world, to the probability that
        a uniform choice from the cards `pool` [world, value] restricted to `allowed` picks that
        value; scaled by one constant for all worlds. Rows with no allowed card are all 0."""
        if self.choice_unit == "value":
            numerator = ((pool > 0) & allowed).astype(np.int64)
        else:
            numerator = pool.astype(np.int64, copy=False) * allowed
        return self.over(numerator, numerator.sum(axis=1))

    def over(self, numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
        """numerator[world, value] / denominator[world] as integers, all worlds scaled by one
        constant (recorded in `scale`); worlds with denominator 0 get 0."""
        out, common = _over(numerator, denominator)
        self.scale *= common
        return out

    # -- generic steps -----------------------------------------------------------------------------

    def move(
        self, source: int | None, target: int | None, value: int | None, chosen: bool = False
    ) -> None:
        """One card leaves `source` for `target` (None: a known place; its class is then known).
        Class None: the source's hidden choice, uniform (branches). A known class that was the
        source's choice (`chosen`) is weighed by that choice's probability; otherwise only
        worlds where the source holds it are kept."""
        if source is None:
            assert value is not None and target is not None
            self._shift(target, value, 1)
            return
        if value is not None:
            has = self.counts[:, source, value] >= 1
            factor = None
            if chosen:
                pool = self.counts[:, source, :]
                factor = self._choice(pool, np.ones(pool.shape, dtype=bool))[:, value]
            self._keep(has, factor)
            self._shift(source, value, -1)
            if target is not None:
                self._shift(target, value, 1)
            return
        pool = self.counts[:, source, :]
        chance = self._choice(pool, pool > 0)
        values, rows = kinds_and_rows(by_value(chance))  # grouped by value, rows in order
        every = np.arange(self.classes)
        changes = self._changes(self.classes)
        changes[every, source, every] -= 1
        if target is not None:
            changes[every, target, every] += 1
        self._spawn(rows, values, changes, cells(chance, rows, values))

    def move_all(self, source: int, target: int) -> None:
        """Every card of `source` goes to `target`."""
        moving = self.counts[:, source, :].astype(np.int64)
        self.counts[:, target, :] += self.counts[:, source, :]
        self.counts[:, source, :] = 0
        if self.multiplier is not None:
            self.keys += moving @ (self.multiplier[target] - self.multiplier[source])
        else:
            self.keys = self._keys(self.counts)
        self._sort()

    def swap(self, first: int, second: int) -> None:
        """Each of two places gives the other a card of its own hidden choice, chosen from what
        it held before (simultaneously)."""
        V = self.classes
        a = self._choice(self.counts[:, first, :], self.counts[:, first, :] > 0)
        b = self._choice(self.counts[:, second, :], self.counts[:, second, :] > 0)
        pairs = by_value(a)[:, None, :] & by_value(b)[None, :, :]  # [given, received, world]
        kinds, rows = kinds_and_rows(pairs.reshape(V * V, -1))  # grouped by kind, rows in order
        given, received = kinds // V, kinds % V
        every = np.arange(V * V)
        changes = self._changes(V * V)  # kind = given * V + received
        changes[every, first, every // V] -= 1
        changes[every, second, every // V] += 1
        changes[every, second, every % V] -= 1
        changes[every, first, every % V] += 1
        factor = cells(a, rows, given) * cells(b, rows, received)
        self._spawn(rows, kinds, changes, factor)

    def draw(self, source: int, target: int, cards: int) -> None:
        """`cards` uniformly random cards of `source` go to `target` (a pool of exchangeable
        cards dealing some of its cards out): each world branches on how many cards of each
        class are drawn, weighed by the number of physical draws giving it, prod C(n_c, r_c).
        The splits are worked out once per distinct content of `source`."""
        n = self.counts[:, source, :]
        radix = np.cumprod([1] + [c + 1 for c in self.copies[:-1]]).astype(np.int64)
        _, first, group = np.unique(
            n.astype(np.int64) @ radix, return_index=True, return_inverse=True
        )
        group = group.reshape(-1)
        owner, splits, ways = draws(n[first], cards)  # per distinct content, in order
        start = np.searchsorted(owner, np.arange(len(first)))
        per_world = np.bincount(owner, minlength=len(first))[group]
        rows = np.repeat(np.arange(len(n)), per_world)
        pair = np.repeat(start[group] - np.cumsum(per_world) + per_world, per_world)
        pair += np.arange(len(rows))
        split_radix = np.cumprod([1] + [cards + 1] * (self.classes - 1)).astype(np.int64)
        _, seen, kind_of = np.unique(
            splits.astype(np.int64) @ split_radix, return_index=True, return_inverse=True
        )
        changes = self._changes(len(seen))
        changes[:, source, :] -= splits[seen]
        changes[:, target, :] += splits[seen]
        kinds = kind_of.reshape(-1)[pair]
        distinct = not self.counts[:, target, :].any()  # each split makes its own world
        if not distinct:  # group by kind, worlds in order: the merge sorts a few sorted runs
            order = np.argsort(
                kinds.astype(np.int16 if len(seen) < 2**15 else np.int64), kind="stable"
            )
            rows, kinds, pair = rows[order], kinds[order], pair[order]
        self._spawn(rows, kinds, changes, ways[pair], distinct)

    def refine(self, cls: int, hidden: int, copies: int) -> int:
        """Split class `cls`: `hidden` of its hidden cards (of `copies` in the whole game) form a
        new class, which is returned. Cards of one class are interchangeable, so in each world
        the new class's cards are spread over the places as a uniform draw of `hidden` from the
        class's cards (a multivariate hypergeometric: weight C(k_p, r_p) per place). A game only
        tells classes apart when an observation needs it, which keeps the worlds few."""
        n = self.counts[:, :, cls].astype(np.int64)  # [world, place]
        splits = np.array(compositions(hidden, self.places, tuple([hidden] * self.places)))
        fits = np.all(splits[None, :, :] <= n[:, None, :], axis=2)  # [world, split]
        rows, choice = np.nonzero(fits)
        ways = np.ones(len(rows), dtype=object)
        binomial = np.vectorize(math.comb, otypes=[object])
        for place in range(self.places):
            ways = ways * binomial(n[rows, place], splits[choice, place])
        new = self.classes
        counts = np.zeros((len(rows), self.places, new + 1), dtype=np.int8)
        counts[:, :, :new] = self.counts[rows]
        counts[:, :, new] = splits[choice]
        counts[:, :, cls] -= splits[choice].astype(np.int8)
        self.classes += 1
        self.copies = [*self.copies[:cls], self.copies[cls] - copies, *self.copies[cls + 1 :]]
        self.copies.append(copies)
        self.multiplier = key_multipliers(self.copies, self.places)
        self.counts = counts
        self.keys = self._keys(counts)
        self.weights = times(self.weights[rows], ways)
        self._sort()
        return new

    def count(self, place: int, classes, low: int, high: int, negated: bool = False) -> None:
        """Keep the worlds where `place` holds between `low` and `high` cards of `classes`
        (negated: not)."""
        n = self.counts[:, place, sorted(classes)].sum(axis=1)
        self._keep(((low <= n) & (n <= high)) != negated)

    def hand(self, place: int, cards: Sequence[int], equal: bool = True) -> None:
        """Keep the worlds where `place` holds exactly `cards` (equal False: anything else)."""
        wanted = np.bincount(np.asarray(cards, dtype=np.int64), minlength=self.classes)
        same = np.all(self.counts[:, place, :] == wanted, axis=1)
        self._keep(same == equal)

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
        found, sums = group_sums(keys, self.weights)
        return {int(k): Fraction(int(w), total) for k, w in zip(found, sums, strict=True)}

    def mass(self, mask: np.ndarray) -> int:
        """The total weight of the worlds where `mask` holds."""
        return _sum(self.weights[mask])

    def hands(self, place: int) -> list[tuple[tuple[int, ...], Fraction]]:
        """The possible hands of hidden place `place` (sorted values), most likely first."""
        keys = self.hand_keys(place)
        found = [(self.hand_of(key), p) for key, p in self.distribution(keys).items()]
        return sorted(found, key=lambda item: (-item[1], item[0]))

    def holds(self, place: int, value: int) -> Fraction:
        """Probability that hidden place `place` holds at least one card `value`."""
        total = self.total()
        return Fraction(self.mass(self.counts[:, place, value] > 0), total)

    def worlds_list(self) -> dict[tuple, Fraction]:
        """Every world as a tuple of per-place hands, with its probability (small states: tests)."""
        total = self.total()
        return {
            tuple(
                tuple(c for c in range(self.classes) for _ in range(int(row[p, c])))
                for p in range(self.places)
            ): Fraction(int(w), total)
            for row, w in zip(self.counts, self.weights, strict=True)
        }


Cards = TypeVar("Cards", bound=HiddenCards)


class Copyable(Protocol):
    def copy(self) -> Any: ...


Tracked = TypeVar("Tracked", bound=Copyable)  # a belief that can be copied


class LastSteps(Generic[Tracked]):
    """The beliefs after the last steps tracked, kept so that a log that only grew (a session
    re-reads the whole log after each event; a bot after each turn) pays for the new steps only.
    `signature` names what the steps start from (the round's setup, the seat and model options).
    Up to `slots` signatures are kept, the most recently used first: the bots of a self-play
    table take turns, and with one slot each seat's turn forgot the previous seat's belief."""

    def __init__(self, slots: int = 1) -> None:
        self.slots = slots
        self.kept: list[tuple[object, list, Tracked]] = []  # (signature, steps, belief)

    def resume(self, signature: object, steps: Sequence) -> tuple[Tracked, list] | None:
        """A copy of the remembered belief and the steps still to apply, if `steps` extend the
        remembered ones from the same start; else None."""
        for kept, done, belief in self.kept:
            if kept == signature:
                if list(steps[: len(done)]) != done:
                    return None
                return belief.copy(), list(steps[len(done) :])
        return None

    def keep(self, signature: object, steps: Sequence, belief: Tracked) -> None:
        others = [entry for entry in self.kept if entry[0] != signature]
        self.kept = [(signature, list(steps), belief.copy()), *others][: self.slots]

    def clear(self) -> None:
        self.kept = []


COMB = np.array([[math.comb(n, r) for r in range(64)] for n in range(64)], dtype=np.int64)


def draws(n: np.ndarray, total: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every way to pick `total` cards from heaps of `n[world, heap]` cards:
    the world of each (world, split) pair, the split [pair, heap] (int8) and its number of
    physical draws prod C(n, r). Heaps are split one after the other, keeping only partial
    splits the later heaps can complete."""
    worlds, heaps = n.shape
    n = n.astype(np.int64)
    later = np.zeros((worlds, heaps + 1), dtype=np.int64)  # cards in heaps h, h + 1, ...
    later[:, :heaps] = np.cumsum(n[:, ::-1], axis=1)[:, ::-1]
    rows = np.flatnonzero(later[:, 0] >= total)
    left = np.full(len(rows), total, dtype=np.int64)
    ways = np.ones(len(rows), dtype=np.int64)
    steps = []  # per heap: (the partial split each new one extends, cards picked)
    for heap in range(heaps):
        low = np.maximum(0, left - later[rows, heap + 1])
        high = np.minimum(n[rows, heap], left)
        width = np.maximum(high - low + 1, 0)
        parent = np.repeat(np.arange(len(rows)), width)
        picked = low[parent] + np.arange(len(parent)) - np.repeat(np.cumsum(width) - width, width)
        heap_size = n[rows[parent], heap]
        if len(heap_size) and max(int(heap_size.max()), int(picked.max())) >= 64:
            ways = times(ways[parent], np.frompyfunc(math.comb, 2, 1)(heap_size, picked))
        else:
            ways = times(ways[parent], np.take(COMB, heap_size * 64 + picked))
        rows, left = rows[parent], left[parent] - picked
        steps.append((parent, picked))
    split = np.zeros((len(rows), heaps), dtype=np.int8)
    index = np.arange(len(rows))
    for heap in range(heaps - 1, -1, -1):  # walk back from the final splits
        parent, picked = steps[heap]
        split[:, heap] = picked[index]
        index = parent[index]
    return rows, split, ways


def cells(table: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """table[rows, columns], through the flat index (much faster than 2-D fancy indexing)."""
    return np.take(table, rows * table.shape[1] + columns)


def by_value(chance: np.ndarray) -> np.ndarray:
    """Which values [value, world] have a positive chance, laid out value by value."""
    return np.ascontiguousarray((chance > 0).T)


def put_together(parts: Sequence[Cards]) -> Cards:
    """One belief holding the worlds of `parts`: beliefs that took the same steps from slices
    of the worlds of one belief. Their weights are brought to one scale (each part's `scale`
    says how its weights were multiplied), then equal worlds are merged. The first part with
    worlds is reused."""
    live = [p for p in parts if len(p.weights)]
    if not live:
        return parts[-1]
    whole = live[0]
    if len(live) == 1:
        return whole
    target = math.lcm(*(p.scale.numerator for p in live))
    weights = [p._rescaled(target) for p in live]
    if any(w.dtype == object for w in weights):
        weights = [w.astype(object) for w in weights]
    # the merged worlds' counts are gathered part by part (no copy of all the parts at once)
    first = whole._merge(np.concatenate([p.keys for p in live]), np.concatenate(weights))
    offsets = np.cumsum([0] + [len(p.counts) for p in live])
    part_of = np.searchsorted(offsets, first, side="right") - 1
    counts = np.empty((len(first), *whole.counts.shape[1:]), dtype=whole.counts.dtype)
    for i, part in enumerate(live):
        mine = np.flatnonzero(part_of == i)
        counts[mine] = part.counts[first[mine] - offsets[i]]
    whole.counts = counts
    whole.scale = Fraction(target)
    whole._reduce()
    return whole


def kinds_and_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The true cells of a [kind, world] table, grouped by kind, worlds in order (fast: one
    scan of the flat table)."""
    cells = np.flatnonzero(table)
    return cells // table.shape[1], cells % table.shape[1]


def _over(numerator: np.ndarray, denominator: np.ndarray) -> tuple[np.ndarray, int]:
    """numerator[world, value] / denominator[world] as integers, all worlds scaled by one constant
    (the lcm of the denominators; worlds with denominator 0 get 0), and that constant."""
    present = np.flatnonzero(np.bincount(denominator[denominator > 0]))
    if len(present) == 0:
        return numerator, 1
    if len(present) == 1:
        return numerator, int(present[0])
    common = reduce(math.lcm, (int(d) for d in present))
    scale = np.zeros(len(denominator), dtype=np.int64)
    positive = denominator > 0
    scale[positive] = common // denominator[positive]
    return numerator * scale[:, None], common


def times(weights: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """weights × factor, exactly (switching to Python integers before int64 could overflow)."""
    factor = np.asarray(factor)
    small = weights.dtype != object and factor.dtype != object and len(weights) > 0
    if small and int(np.abs(weights).max()) * max(int(np.abs(factor).max()), 1) < SAFE:
        return weights * factor.astype(np.int64)
    return weights.astype(object) * factor.astype(object)


def group_sums(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct `keys` (sorted) and the exact sum of the `weights` of each."""
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(_safe(weights[order], len(order)), starts)


def _safe(weights: np.ndarray, terms: int) -> np.ndarray:
    """The weights in a dtype whose sums of `terms` values cannot overflow."""
    if weights.dtype != object and len(weights) and int(weights.max()) * max(terms, 1) >= SAFE:
        return weights.astype(object)
    return weights


def _sum(weights: np.ndarray) -> int:
    if weights.dtype == object:
        return int(sum(int(w) for w in weights))
    return int(_safe(weights, len(weights)).sum())
