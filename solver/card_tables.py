"""Exact beliefs over hidden hands as one small table per hand, coupled only by the supply.

Cards lie hidden in *hands* or in a *pool* (a draw pile and every hand slot that no observation
has looked into: all exchangeable). A card is described by the *predicates* it meets (names the
game chooses, e.g. FORCE requirements). A *partition* tells cards apart by some predicates and
names some cards alone (*singles*); a *group* is a set of cards a partition cannot tell apart.

A *table* holds one hand's explicit (looked-into) slots: each row says how many cards of each
group of the table's partition the hand holds, with an exact integer weight, the likelihood of
what was observed about the hand as a function of that row, for *each physical layout* of cards
the row stands for. The posterior of the hidden cards is then

    P(rows) ∝ Π_tables weight(row) × ways(rows),

where ways(rows) counts the physical layouts of the supply (the hidden cards) that give those
rows (the pool takes the rest, uniformly). Tables are independent but for `ways` (the hands draw
disjoint cards from one supply) and for *links*: when a card of unknown identity moves from one
hand to another, each of the two tables gets a column saying which group (of a partition fine
enough for both) that card was; rows of the two tables go together only with equal values.

`contract` sums all of this exactly: a dynamic programme over the tables in turn whose state is
what is left of the supply, told apart only as finely as the tables still to come need, and the
values of the links still open. Every operation on one hand changes only its table, so tracking
costs the size of one table, not the product of all.

Weights are exact integers (numpy int64 while safe, Python integers beyond).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

import numpy as np

from solver.hidden_cards import COMB, SAFE, times

ROWS_LIMIT = 4_000_000  # a table with more rows than this is refused (memory)
PAIRS_LIMIT = 25_000_000  # a contraction turn with more (state, row) pairs: refused (memory)
PAIRS_AT_ONCE = 65_536  # pairs of rows `joined_rows` looks at first (then twice as many)
KEYS_AT_ONCE = 16_384  # rows `runs` turns into sort keys at a time (an int64 copy of 2 million
# rows of 28 columns took 0.2 to 1.6 s to allocate; 16,384 rows at a time, 0.13 s in all)


class TooLarge(Exception):
    """A table or a contraction would need more memory than this machine should give it."""


SERIALS = itertools.count()  # names each table made, for memos
Key = tuple[tuple[str, ...], str]  # (the partition's predicates the cards meet, a single or "")


@dataclass(frozen=True)
class Partition:
    """Tells cards apart by `predicates` (names) and names each card of `singles` alone."""

    predicates: frozenset[str] = frozenset()
    singles: frozenset[str] = frozenset()

    def key(self, card: str, attributes: Mapping[str, frozenset[str]]) -> Key:
        met = tuple(sorted(attributes[card] & self.predicates))
        return (met, card if card in self.singles else "")

    def coarser_key(self, key: Key) -> Key:
        """The key, under this partition, of a group of a finer partition."""
        met, single = key
        return (
            tuple(p for p in met if p in self.predicates),
            single if single in self.singles else "",
        )

    def join(self, other: Partition) -> Partition:
        return Partition(self.predicates | other.predicates, self.singles | other.singles)

    def finer_than(self, other: Partition) -> bool:
        return other.predicates <= self.predicates and other.singles <= self.singles

    @property
    def size(self) -> int:
        return len(self.predicates) + len(self.singles)


def group_sizes(
    partition: Partition, supply: Iterable[str], attributes: Mapping[str, frozenset[str]]
) -> dict[Key, int]:
    """How many supply cards each group of `partition` has (groups with none are left out)."""
    return dict(sorted(Counter(partition.key(c, attributes) for c in supply).items()))


# -- exact integer weights ---------------------------------------------------------------------------


def reduced(weights: np.ndarray) -> np.ndarray:
    """The weights divided by their common divisor (int64 again when they fit)."""
    if len(weights) == 0:
        return weights.astype(np.int64)
    if weights.dtype == object:
        g = 0
        for w in weights:
            g = math.gcd(g, int(w))
        if g > 1:
            weights = np.array([int(w) // g for w in weights], dtype=object)
        return weights.astype(np.int64) if max(weights) < SAFE else weights
    g = int(np.gcd.reduce(weights))
    return weights // g if g > 1 else weights


def summed(weights: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Exact sums of the runs of `weights` that begin at `starts` (along the first axis)."""
    if weights.dtype != object and len(weights) and int(weights.max()) * len(weights) >= SAFE:
        weights = weights.astype(object)
    return np.add.reduceat(weights, starts, axis=0) if len(weights) else weights


def runs(*blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that puts equal rows together, and where each run starts. A row is its columns
    in every block (2-D int arrays of one length): a big table's counts and link values are
    not copied into one array first (8 million rows: 4 s of copying, 1 s of sorting)."""
    size, given = len(blocks[0]), len(blocks)
    blocks = tuple(b for b in blocks if b.shape[1])
    if size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if not blocks:
        return np.arange(size), np.zeros(1, dtype=np.int64)
    low = min(int(b.min()) for b in blocks)
    tops = [int(top) for b in blocks for top in b.max(axis=0)]
    place = _place_values([top - low + 1 for top in tops]) if low >= -64 else None
    if place is not None:  # one int64 key per row sorts fastest
        keys = np.zeros(size, dtype=np.int64)
        first = 0
        for b in blocks:
            part = place[first : first + b.shape[1]]
            first += b.shape[1]
            for at in range(0, size, KEYS_AT_ONCE):  # no int64 copy of a big table at once
                keys[at : at + KEYS_AT_ONCE] += (
                    b[at : at + KEYS_AT_ONCE].astype(np.int64) - low
                ) @ part
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        return order, np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    # keys too wide for int64 (rare): the rows' bytes, several blocks joined as int32
    rows = blocks[0] if given == 1 else np.concatenate([b.astype(np.int32) for b in blocks], 1)
    flat = np.ascontiguousarray(rows)
    view = flat.view(np.dtype((np.void, flat.dtype.itemsize * flat.shape[1])))[:, 0]
    order = np.argsort(view, kind="stable")
    view = view[order]
    starts = np.flatnonzero(np.concatenate(([True], view[1:] != view[:-1])))
    return order, starts


def _binomial(n: np.ndarray, k: int) -> np.ndarray:
    """C(n, k) for each (float) n, as floats."""
    out = np.ones_like(n)
    for i in range(k):
        out *= (n - i) / (i + 1)
    return out


def together(counts: np.ndarray, dtype: type = np.int64) -> np.ndarray:
    """counts [row, column, class] summed over the columns, one column at a time: summing
    the middle axis of a converted copy took a fifth of a heavy 5-player report."""
    rows, columns, classes = counts.shape
    if columns == 0:
        return np.zeros((rows, classes), dtype=dtype)
    total: np.ndarray = counts[:, 0, :].astype(dtype)
    for column in range(1, columns):
        total += counts[:, column, :]
    return total


# -- compositions ------------------------------------------------------------------------------------


def compositions(total: int, caps: Sequence[int]) -> np.ndarray:
    """Every way to put `total` identical cards into len(caps) parts of the given capacities
    (read-only: the same few are asked for again and again, so they are kept)."""
    return _compositions(int(total), tuple(int(c) for c in caps))


@functools.lru_cache(maxsize=8192)
def _compositions(total: int, caps: tuple[int, ...]) -> np.ndarray:
    """In order of the first part, then of the rest: each first part's block is the cached
    compositions of what is left into the other parts."""
    if not caps:
        found = np.zeros((1 if total == 0 else 0, 0), dtype=np.int8)
    else:
        room = sum(caps[1:])
        blocks = []
        for first in range(max(0, total - room), min(total, caps[0]) + 1):
            rest = _compositions(total - first, caps[1:])
            block = np.empty((len(rest), len(caps)), dtype=np.int8)
            block[:, 0] = first
            block[:, 1:] = rest
            blocks.append(block)
        found = np.concatenate(blocks) if blocks else np.zeros((0, len(caps)), dtype=np.int8)
    found.flags.writeable = False
    return found


# -- tables ------------------------------------------------------------------------------------------


class Rows:
    """What every table of weighted rows does alike (this module's tables, and the tables of a
    game's own filter): a dataclass with `counts`, `weights`, `values` (one row each) and a
    `serial`, never changed in place, that can merge its equal rows."""

    counts: np.ndarray
    weights: np.ndarray
    values: np.ndarray

    def merged(self) -> Self:
        raise NotImplementedError

    def like(self, **changes: Any) -> Self:
        """A new table with some fields replaced (arrays are shared unless replaced)."""
        return dataclasses.replace(self, serial=next(SERIALS), **changes)  # type: ignore[type-var]

    def pick(self, index: np.ndarray, factor: np.ndarray | None = None) -> Self:
        """The rows `index` (with repeats), their weights multiplied by `factor`."""
        weights = self.weights[index]
        if factor is not None:
            weights = times(weights, factor)
        return self.like(counts=self.counts[index], weights=weights, values=self.values[index])

    def keep(self, mask: np.ndarray, factor: np.ndarray | None = None) -> Self:
        """The rows where `mask` holds, weights multiplied by `factor` (rows of factor 0 go)."""
        if factor is not None:
            factor = np.asarray(factor)
            mask = mask & (factor != 0)
            return self.pick(np.flatnonzero(mask), factor[mask]).merged()
        return self.pick(np.flatnonzero(mask))

    @property
    def rows(self) -> int:
        return len(self.weights)

    def take(self) -> np.ndarray:
        """How many cards of each class the table's columns hold together [row, class]."""
        return together(self.counts)

    def ways_within(self) -> np.ndarray:
        """Per row, in how many ways the cards the table takes split between its columns (its
        hands, or places): Π_class (Σ_column count)! / Π_column count! (1 for one column)."""
        out = np.ones(self.rows, dtype=np.int64)
        if self.counts.shape[1] <= 1:
            return out
        # C(left, part) read from COMB by one small code per (row, class), laid out class by
        # class so each class's codes are contiguous: 9x faster than 2-D indexing on 800,000 rows
        left, flat = together(self.counts, np.int16), COMB.ravel()
        for c in range(self.counts.shape[1] - 1):
            part = self.counts[:, c, :].astype(np.int16)
            codes = np.ascontiguousarray((left * COMB.shape[1] + part).T)
            for k in np.flatnonzero(part.any(axis=0)):  # C(n, 0) = 1: classes it holds none of
                out *= flat.take(codes[k])
            left -= part
        return out


@dataclass
class Table(Rows):
    """The explicit slots of one or more hands whose cards are tied together (`hands`; a card
    received and not yet looked into is a part of its own, named ""; a factor on links alone
    has none): rows of counts [row, hand, group] over the groups `keys` of `partition`, exact
    `weights`, and for each of `links` the value [row, link]: which group of its own list the
    card that moved between this table and another one was."""

    hands: list[str]
    partition: Partition
    keys: list[Key]
    counts: np.ndarray
    weights: np.ndarray
    links: list[int]
    values: np.ndarray
    serial: int = field(default_factory=lambda: next(SERIALS))  # tables are never changed

    @classmethod
    def empty(cls, hand: str, keys: list[Key], partition: Partition = Partition()) -> Table:
        """A hand with no explicit card: one row, weight 1."""
        return cls(
            [hand],
            partition,
            keys,
            np.zeros((1, 1, len(keys)), np.int8),
            np.ones(1, np.int64),
            [],
            np.zeros((1, 0), np.int32),
        )

    def index(self, key: Key) -> int:
        return self.keys.index(key)

    def column(self, hand: str) -> int:
        return self.hands.index(hand)

    def first(self, hand: str) -> Table:
        """The same table with `hand`'s column first."""
        h = self.column(hand)
        if h == 0:
            return self
        order = [h, *(i for i in range(len(self.hands)) if i != h)]
        return self.like(hands=[self.hands[i] for i in order], counts=self.counts[:, order, :])

    def collapsed(self) -> Table:
        """The table as one part taking its hands' cards together, the ways they split them
        (Π_group multinomial) in the weights: the same for every finer partition, by
        Vandermonde's identity."""
        return self.like(
            hands=[""],
            counts=self.take()[:, None, :].astype(np.int8),
            weights=times(self.weights, self.ways_within()),
        ).merged()

    def apart(self, hand: str) -> Table:
        """The table as two parts, `hand` and its other hands together (named ""), the ways
        those split their cards in the weights (as in `collapsed`): all a question about
        `hand` needs, in fewer rows once the table is split finer."""
        h = self.column(hand)
        others = [i for i in range(len(self.hands)) if i != h]
        if len(others) <= 1:
            return self
        rest = self.like(hands=[self.hands[i] for i in others], counts=self.counts[:, others, :])
        return self.like(
            hands=[hand, ""],
            counts=np.stack([self.counts[:, h, :], rest.take().astype(np.int8)], axis=1),
            weights=times(self.weights, rest.ways_within()),
        ).merged()

    def merged(self) -> Table:
        """Equal rows (counts and link values) become one, weights added and reduced."""
        counts, values, weights = self.counts, self.values, self.weights
        keep = weights != 0
        if not keep.all():
            counts, values, weights = counts[keep], values[keep], weights[keep]
        order, starts = runs(counts.reshape(len(counts), counts.shape[1] * counts.shape[2]), values)
        return self.like(
            counts=counts[order[starts]],
            weights=reduced(summed(weights[order], starts)),
            values=values[order[starts]],
        )

    def with_link(self, link: int, values: np.ndarray) -> Table:
        return self.like(
            links=[*self.links, link],
            values=np.concatenate([self.values, values[:, None].astype(np.int32)], axis=1),
        )

    def without_links(self, links: Sequence[int]) -> Table:
        """The table with some link columns summed out (their other ends no longer care)."""
        keep = [i for i, link in enumerate(self.links) if link not in links]
        return self.like(links=[self.links[i] for i in keep], values=self.values[:, keep]).merged()

    def without_hand(self, hand: str) -> Table:
        """The table without a hand that holds none of its cards any more."""
        h = self.column(hand)
        assert not self.counts[:, h, :].any()
        keep = [i for i in range(len(self.hands)) if i != h]
        return self.like(hands=[self.hands[i] for i in keep], counts=self.counts[:, keep, :])

    def times_factor(self, factor: Table) -> Table:
        """This table with a factor on some of its links (a table of no cards whose links all
        lead here) multiplied in, and those links forgotten."""
        at = [self.links.index(link) for link in factor.links]
        merged = factor.merged()
        weight = {tuple(v): w for v, w in zip(merged.values.tolist(), merged.weights, strict=True)}
        small = max((int(w) for w in weight.values()), default=0) < SAFE
        multiplier = np.array(
            [weight.get(tuple(v), 0) for v in self.values[:, at].tolist()],
            dtype=np.int64 if small else object,
        )
        return self.keep(np.ones(self.rows, bool), multiplier).without_links(factor.links)

    def finer_rows(self, partition: Partition, sizes: Mapping[Key, int]) -> float:
        """About how many rows `regroup(partition, sizes)` gives, without building them (at
        most that many: the supply's sizes are not checked): each hand's count of a group
        spread every way over the group's finer groups."""
        where = {k: i for i, k in enumerate(self.keys)}
        finer = Counter(where.get(self.partition.coarser_key(k), -1) for k in sizes)
        ways = np.ones(self.rows)
        for old, parts in finer.items():
            if old >= 0 and parts > 1:
                held = self.counts[:, :, old].astype(np.float64)
                ways *= np.prod(_binomial(held + parts - 1, parts - 1), axis=1)
        return float(ways.sum())

    def regroup(self, partition: Partition, sizes: Mapping[Key, int]) -> tuple[Table, np.ndarray]:
        """The table over a finer `partition` (whose groups have `sizes` cards in the supply), and
        for each new row the row it came from. Each count splits over the finer groups in every
        possible way with the same weight (the weight depends only on the coarser counts; which
        cards are taken is counted by `ways`). Rows needing more cards than the supply has go."""
        assert partition.finer_than(self.partition)
        if partition == self.partition:
            where = {k: i for i, k in enumerate(self.keys)}
            return self._fitted(partition, sizes, [where.get(k, -1) for k in sizes])
        return self._split(partition, sizes)

    def _split(self, partition: Partition, sizes: Mapping[Key, int]) -> tuple[Table, np.ndarray]:
        """`regroup` to any finer partition. Groups kept whole are copied once at the end and
        the rows they rule out go first (a big table regrouped for a sum mostly keeps its
        groups: copying the table for each group and hand took a third of a heavy report).
        The groups that split do so hand by hand, and with several hands the rows holding
        more of a group than the supply has go as soon as the hands split so far show it,
        not at the end: a 5-player prefix's table of 3 hands reached 4 million rows before
        that check."""
        keys = list(sizes)
        where = {k: i for i, k in enumerate(self.keys)}
        parent = [where.get(self.partition.coarser_key(k), -1) for k in keys]
        children = [[i for i, p in enumerate(parent) if p == old] for old in range(len(self.keys))]
        hands = len(self.hands)
        ok = np.ones(self.rows, dtype=bool)
        gone = [old for old, c in enumerate(children) if not c]  # none left in the supply
        if gone:
            ok &= ~self.counts[:, :, gone].any(axis=(1, 2))
        whole = [old for old, c in enumerate(children) if len(c) == 1]
        kept = [children[old][0] for old in whole]
        if whole:  # no hand, and no hands together, hold more than the supply has
            caps = np.array([sizes[keys[i]] for i in kept], dtype=np.int16)
            ok &= np.all(self.counts[:, :, whole] <= caps, axis=(1, 2))
            if hands > 1:
                ok &= np.all(together(self.counts[:, :, whole], np.int16) <= caps, axis=1)
        index = np.flatnonzero(ok)
        new = np.zeros((len(index), hands, len(keys)), dtype=np.int8)
        for old, finer in enumerate(children):
            if len(finer) < 2:
                continue
            caps = np.array([sizes[keys[i]] for i in finer], dtype=np.int16)
            for h in range(hands):
                index, new = self._split_hand(index, new, h, old, finer, caps)
                if h:  # the hands split so far cannot hold more than the supply has
                    held = together(new[:, : h + 1, finer], np.int16)
                    fits = np.all(held <= caps, axis=1)
                    if not fits.all():
                        index, new = index[fits], new[fits]
        if whole:
            new[:, :, kept] = self.counts[:, :, whole][index]
        return (
            self.like(
                partition=partition,
                keys=keys,
                counts=new,
                weights=self.weights[index],
                values=self.values[index],
            ),
            index,
        )

    def _split_hand(
        self,
        index: np.ndarray,
        new: np.ndarray,
        h: int,
        old: int,
        finer: list[int],
        caps: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Hand `h`'s count of group `old` (rows `index` of this table) spread over the finer
        groups `finer` (of `caps` cards) in every way: the rows repeated, and their counts."""
        wanted = self.counts[index, h, old]
        picked, blocks, size = [], [], 0
        for total in np.unique(wanted):
            splits = compositions(int(total), caps.tolist())
            at = np.flatnonzero(wanted == total)
            if len(splits) == 0:
                continue
            size += len(at) * len(splits)
            if size > ROWS_LIMIT:
                raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
            rep = np.repeat(at, len(splits))
            block = new[rep]
            block[:, h, finer] = np.tile(splits, (len(at), 1))
            picked.append(rep)
            blocks.append(block)
        chosen = np.concatenate(picked) if picked else np.zeros(0, np.int64)
        return index[chosen], np.concatenate(blocks) if blocks else new[:0]

    def _fitted(
        self, partition: Partition, sizes: Mapping[Key, int], parent: list[int]
    ) -> tuple[Table, np.ndarray]:
        """`regroup` to the table's own partition (`parent`: each group's column here, -1 for
        none), in one pass: the rows that fit the supply stay, in order. The common case (the
        supply lost a card): by the loop over groups and hands, regrouping took a fifth of a
        3-player look-ahead round."""
        hands, gone = len(self.hands), sorted(set(range(len(self.keys))) - set(parent))
        caps = np.array(list(sizes.values()), dtype=np.int64)
        new = np.zeros((self.rows, hands, len(parent)), dtype=np.int8)
        present = [i for i, p in enumerate(parent) if p >= 0]
        new[:, :, present] = self.counts[:, :, [parent[i] for i in present]]
        ok = np.all(new <= caps, axis=(1, 2))
        if gone:  # no card of these groups is left in the supply
            ok &= ~self.counts[:, :, gone].any(axis=(1, 2))
        if hands > 1:  # the hands together cannot hold more of a group than there is
            ok &= np.all(together(new) <= caps, axis=1)
        index = np.flatnonzero(ok)
        table = self.like(
            partition=partition,
            keys=list(sizes),
            counts=new[index],
            weights=self.weights[index],
            values=self.values[index],
        )
        return table, index


def join(a: Table, b: Table, sizes: Mapping[Key, int]) -> Table:
    """One table for two: every pair of rows with equal values on the links they share (those
    links then forgotten), the hands side by side, weights multiplied. `sizes`: the supply's
    groups under the joined partition."""
    return _paired(a, b, sizes).merged()


def join_within(a: Table, b: Table, sizes: Mapping[Key, int], limit: int) -> Table | None:
    """`join(a, b, sizes)` when it has at most `limit` rows (counted first, as by
    `joined_rows`), else None: the two tables are regrouped and their rows paired once."""
    pairs = _Pairs(a, b, sizes)
    if _has_negative(a.weights) or _has_negative(b.weights):
        joined = _paired(a, b, sizes, pairs).merged()
        return joined if joined.rows <= limit else None
    if _distinct_pairs(pairs, limit) > limit:
        return None
    return _joined_parts(pairs)


def _joined_parts(pairs: _Pairs) -> Table:
    """The join of two tables of nonnegative weights, one row per distinct (row part, row
    part) of the pairs that fit (a row's part: its counts and the links it keeps, so these
    are the joined rows), each weighed by the sum of its pairs' products: the same table as
    `_paired(...).merged()`, without a row per pair to copy and sort (three joins of a
    751,226-row table took 1.2 s that way in a 5-player prefix). Only `join_within` uses it:
    its count has worked out the parts already, and for a join alone working them out costs
    more than it saves when the pairs are about as many as the rows (a card joined to the
    table of the hand that gave it: 0.19 s -> 0.56 s)."""
    a, b = pairs.a, pairs.b
    part_a, part_b = pairs.parts
    keep = pairs.fits & (a.weights[pairs.i] != 0) & (b.weights[pairs.j] != 0)
    i, j = pairs.i[keep], pairs.j[keep]
    first, ids = _distinct(part_a[i] * (int(part_b.max(initial=0)) + 1) + part_b[j])
    if len(first) > ROWS_LIMIT:
        raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
    order = np.argsort(ids, kind="stable")
    weights = summed(times(a.weights[i[order]], b.weights[j[order]]), _starts(ids[order]))
    return pairs.table(i[first], j[first], weights).merged()


def _paired(a: Table, b: Table, sizes: Mapping[Key, int], pairs: _Pairs | None = None) -> Table:
    """`join` before its equal rows are merged."""
    pairs = pairs or _Pairs(a, b, sizes)
    fits = pairs.fits
    i, j = pairs.i[fits], pairs.j[fits]
    if len(i) > ROWS_LIMIT:
        raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
    return pairs.table(i, j, times(pairs.a.weights[i], pairs.b.weights[j]))


def joined_rows(a: Table, b: Table, sizes: Mapping[Key, int], limit: int | None = None) -> int:
    """How many rows `join(a, b, sizes)` has, counted without building it; with a `limit`,
    the count stops once past it (the number returned is then only known to exceed it). A
    join too big to keep is refused, and building it first cost some 3-player look-ahead
    rounds 100 s. Its rows are the distinct (a's row, b's row) parts of the pairs that fit,
    where a row's part is its counts and the links it keeps; equal keys' weights could cancel
    only if some weight is negative, and then the join is built and counted."""
    if _has_negative(a.weights) or _has_negative(b.weights):
        return join(a, b, sizes).rows
    return _distinct_pairs(_Pairs(a, b, sizes), limit)


def _distinct_pairs(pairs: _Pairs, limit: int | None) -> int:
    """`joined_rows` of the pairs of two tables' rows (nonnegative weights)."""
    part_a, part_b = pairs.parts
    live_a, live_b = pairs.a.weights != 0, pairs.b.weights != 0
    width = int(part_b.max(initial=0)) + 1
    seen: list[np.ndarray] = []  # each pass's keys; told apart only when they could pass
    kept, start, at_once = 0, 0, PAIRS_AT_ONCE
    fitting: list[np.ndarray] = []  # (kept for the join when every pair is looked at)
    while start < len(pairs.i):  # more pairs at a time each time: a few passes in all
        i, j = pairs.i[start : start + at_once], pairs.j[start : start + at_once]
        fitting.append(pairs.fit(i, j))
        keep = fitting[-1] & live_a[i] & live_b[j]
        seen.append(part_a[i[keep]] * width + part_b[j[keep]])
        kept += len(seen[-1])
        if limit is not None and kept > limit:  # the limit: (the union of each pass took
            seen = [_unique(np.concatenate(seen))]  # half of a big join's count)
            kept = len(seen[0])
            if kept > limit:
                break
        start, at_once = start + at_once, 2 * at_once
    if start >= len(pairs.i) and fitting:
        pairs.__dict__["fits"] = np.concatenate(fitting)  # (the cached property's value)
    return len(_unique(np.concatenate(seen))) if seen else 0


def _unique(keys: np.ndarray) -> np.ndarray:
    """The distinct keys (hashed when they are many)."""
    return keys[_distinct(keys)[0]] if len(keys) else keys


class _Pairs:
    """Two tables over their joined partition (`a`, `b`), the pairs of their rows (`i`, `j`)
    that agree on the links they share, and the links each keeps."""

    def __init__(self, a: Table, b: Table, sizes: Mapping[Key, int]):
        partition = a.partition.join(b.partition)
        self.a, _ = a.regroup(partition, sizes)
        self.b, _ = b.regroup(partition, sizes)
        shared, on_a, on_b = _on_shared_links(self.a, self.b)
        self.i, self.j = _matching(on_a, on_b)
        self.keep_a = [x for x, link in enumerate(self.a.links) if link not in shared]
        self.keep_b = [x for x, link in enumerate(self.b.links) if link not in shared]
        # each row's cards per group, summed once per row, not once per pair: pairs are many
        self.held_a = together(self.a.counts, np.int16)
        self.held_b = together(self.b.counts, np.int16)
        self.room = np.array(list(sizes.values()), dtype=np.int16)

    @functools.cached_property
    def parts(self) -> tuple[np.ndarray, np.ndarray]:
        """Each row's part (`_row_parts`) in each table, for the count and the join."""
        return _row_parts(self.a, self.keep_a), _row_parts(self.b, self.keep_b)

    def table(self, i: np.ndarray, j: np.ndarray, weights: np.ndarray) -> Table:
        """The joined rows of the pairs (i, j), the hands side by side, with `weights`."""
        a, b, keep_a, keep_b = self.a, self.b, self.keep_a, self.keep_b
        return Table(
            [*a.hands, *b.hands],
            a.partition,
            a.keys,
            np.concatenate([a.counts[i], b.counts[j]], axis=1),
            weights,
            [a.links[x] for x in keep_a] + [b.links[x] for x in keep_b],
            np.concatenate([a.values[i][:, keep_a], b.values[j][:, keep_b]], axis=1),
        )

    def fit(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Which of the pairs (i, j) hold no more of a group's cards than the supply has."""
        return np.all(self.held_a[i] + self.held_b[j] <= self.room, axis=1)

    @functools.cached_property
    def fits(self) -> np.ndarray:
        """`fit` of every pair, worked out once for the count and the join (a million pairs
        at a time: [pair, group] temporaries). A count that stops early works out only the
        pairs it looks at (tying tables mostly stops at the first pass)."""
        at_once = 1 << 20
        parts = [
            self.fit(self.i[at : at + at_once], self.j[at : at + at_once])
            for at in range(0, len(self.i), at_once)
        ]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)


def _row_parts(table: Table, keep: list[int]) -> np.ndarray:
    """Each row's id among the table's distinct (counts, kept link values)."""
    if table.rows == 0:
        return np.zeros(0, dtype=np.int64)
    flat = table.counts.reshape(table.rows, -1).astype(np.int64)
    key = np.concatenate([flat, table.values[:, keep].astype(np.int64)], axis=1)
    return distinct_rows(key, [int(top) + 1 for top in key.max(axis=0)])[1].astype(np.int64)


def _has_negative(weights: np.ndarray) -> bool:
    if weights.dtype == object:
        return any(int(w) < 0 for w in weights)
    return bool((weights < 0).any())


def matched_rows(a: Table, b: Table) -> int:
    """How many pairs of rows of two tables agree on the links they share (the pairs `join`
    goes through), counted without listing them."""
    _, on_a, on_b = _on_shared_links(a, b)
    if on_a.shape[1] == 0:
        return len(on_a) * len(on_b)
    base = int(max(on_a.max(initial=0), on_b.max(initial=0))) + 1
    place = _place_values([base] * on_a.shape[1])
    if place is None:  # too many links for one int64 key (rare): count the tuples
        on_b_rows = Counter(map(tuple, on_b.tolist()))
        return sum(on_b_rows[tuple(v)] for v in on_a.tolist())
    keys_b = np.sort(on_b @ place)
    keys_a = on_a @ place
    right = np.searchsorted(keys_b, keys_a, side="right")
    return int((right - np.searchsorted(keys_b, keys_a, side="left")).sum())


def _on_shared_links(a: Table, b: Table) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The links two tables share, and each table's values on them [row, link] (int64)."""
    shared = [link for link in a.links if link in b.links]
    return (
        shared,
        a.values[:, [a.links.index(x) for x in shared]].astype(np.int64),
        b.values[:, [b.links.index(x) for x in shared]].astype(np.int64),
    )


def combine(whole: Table, part: Table, hand: str, sizes: Mapping[Key, int]) -> Table:
    """`whole` with a one-part table (a card `hand` received) put into `hand`'s column: every
    pair of rows with equal values on shared links, counts added, each weight × Π C(count,
    part's count) (which of the hand's cards are the part's). The pairs are merged once, at
    the end (merging the join first sorted a million rows for nothing)."""
    joined = _paired(whole, part, sizes)
    h, extra = joined.column(hand), len(joined.hands) - 1
    received = joined.counts[:, extra, :]
    held = joined.counts[:, h, :].astype(np.int16) + received
    factor = np.ones(joined.rows, dtype=np.int64)
    for g in np.flatnonzero(received.any(axis=0)):  # C(n, 0) = 1 elsewhere
        factor *= COMB[held[:, g], received[:, g]]
    counts = joined.counts[:, :extra, :].copy()
    counts[:, h, :] = held
    return joined.like(
        hands=joined.hands[:extra], counts=counts, weights=times(joined.weights, factor)
    ).merged()


# -- contraction: the exact sum over every table and the supply -------------------------------------

TAG = -1  # link TAG - j: the tag of part j of a `contract` with parts (games number links from 0)

PRIMES = np.array(
    [2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549, 2147483543,
     2147483497, 2147483489, 2147483477, 2147483423, 2147483399],
    dtype=np.int64,
)  # fmt: skip


def order_tables(
    first: Table,
    others: Sequence[Table],
    supply: Iterable[str],
    attributes: Mapping[str, frozenset[str]],
) -> list[Table]:
    """A cheap order to contract in: `first`, then the order of the others that a rough model
    of the programme's cost likes best (every order when they are few, else a beam). The model:
    states grow with each table's rows and the links it opens, shrink with the links it closes,
    and never exceed the ways to have taken the cards so far (over the groups still told apart)
    times the open links' values; a turn costs its states times the table's rows, spread over
    the finer groups, over the closed links' values."""
    supply = list(supply)
    everything = [first, *others]
    domain: dict[int, int] = {}
    for t in everything:
        for i, link in enumerate(t.links):
            domain[link] = max(domain.get(link, 1), int(t.values[:, i].max(initial=0)) + 1)
    cards = [int(t.counts[0].astype(np.int64).sum()) if t.rows else 0 for t in everything]
    own = [len(group_sizes(t.partition, supply, attributes)) for t in everything]
    joined: dict[frozenset[int], int] = {}

    def groups(indexes: frozenset[int]) -> int:
        if indexes not in joined:
            joint = Partition()
            for i in indexes:
                joint = joint.join(everything[i].partition)
            joined[indexes] = len(group_sizes(joint, supply, attributes))
        return joined[indexes]

    def cost(order: Sequence[int]) -> float:
        total, states, taken = 0.0, 1.0, 0
        opened: set[int] = set()
        left = frozenset(order)
        for i in order:
            t = everything[i]
            here = groups(left)
            left = left - {i}
            closing = math.prod(domain[x] for x in t.links if x in opened)
            opening = math.prod(domain[x] for x in t.links if x not in opened)
            rows = t.rows * _spread(cards[i], own[i], here)
            total += states * rows / closing
            opened ^= set(t.links)
            taken += cards[i]
            after = groups(left)
            cap = math.comb(taken + after - 1, max(after - 1, 0)) * math.prod(
                domain[x] for x in opened
            )
            states = min(states * max(1.0, rows / closing) * opening, cap)
        return total

    rest = list(range(1, len(everything)))
    if len(rest) <= 6:
        best = min(itertools.permutations(rest), key=lambda o: cost((0, *o)))
        return [first, *(everything[i] for i in best)]
    beam: list[tuple[int, ...]] = [(0,)]
    for _ in rest:
        grown = [(*o, i) for o in beam for i in rest if i not in o]
        beam = sorted(grown, key=lambda o: cost(o))[:24]
    return [everything[i] for i in beam[0]]


def _spread(cards: int, own: int, finer: int) -> float:
    """About how many rows a row of `cards` cards over `own` groups becomes over `finer`
    groups: each group's cards split every way over its share of the finer groups."""
    own = max(own, 1)
    n, k = cards / own, max(finer / own, 1.0)
    return math.exp(own * (math.lgamma(n + k) - math.lgamma(n + 1) - math.lgamma(k)))


def residues(weights: np.ndarray, primes: np.ndarray) -> np.ndarray:
    """Exact nonnegative integers as residues [..., prime]."""
    if weights.dtype != object:
        return weights.astype(np.int64)[..., None] % primes
    return np.stack([(weights % int(p)).astype(np.int64) for p in primes], axis=-1)


def crt(values: np.ndarray, primes: np.ndarray) -> list[int]:
    """The integers in [0, Π primes) with these residues [row, prime] (Garner's mixed-radix
    digits in int64, then one Horner sum in Python integers per row)."""
    rows, count = values.shape
    digits = np.zeros((rows, count), dtype=np.int64)
    for k in range(count):
        p = int(primes[k])
        partial = np.zeros(rows, dtype=np.int64)  # the digits so far, as a number mod p
        place = 1
        for i in range(k):
            partial = (partial + digits[:, i] * place) % p
            place = place * int(primes[i]) % p
        digits[:, k] = (values[:, k] - partial) % p * pow(place, -1, p) % p
    total = digits[:, count - 1].astype(object)
    for k in range(count - 2, -1, -1):
        total = total * int(primes[k]) + digits[:, k]
    return [int(x) for x in total]


def _matching(
    states: np.ndarray, rows: np.ndarray, limit: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every (state, row) pair whose values agree (every pair when there is nothing to match);
    TooLarge past `limit` pairs (PAIRS_LIMIT by default)."""
    limit = PAIRS_LIMIT if limit is None else limit
    if states.shape[1] == 0:
        if len(states) * len(rows) > limit:
            raise TooLarge(f"a sum would look at more than {limit:,} pairs of states and rows")
        s = np.repeat(np.arange(len(states)), len(rows))
        r = np.tile(np.arange(len(rows)), len(states))
        return s, r
    base = int(max(states.max(initial=0), rows.max(initial=0))) + 1
    radix = base ** np.arange(states.shape[1], dtype=np.int64)
    skey, rkey = states @ radix, rows @ radix
    order = np.argsort(rkey, kind="stable")
    rkey = rkey[order]
    lo = np.searchsorted(rkey, skey, side="left")
    hi = np.searchsorted(rkey, skey, side="right")
    counts = hi - lo
    if int(counts.sum()) > limit:
        raise TooLarge(f"a sum would look at more than {limit:,} pairs of states and rows")
    s = np.repeat(np.arange(len(states)), counts)
    offsets = np.arange(len(s)) - np.repeat(np.cumsum(counts) - counts, counts)
    r = order[np.repeat(lo, counts) + offsets]
    return s, r


FACT_MOD = np.array(
    [[math.factorial(n) % int(p) for p in PRIMES] for n in range(64)], dtype=np.int64
)
INVFACT_MOD = np.array(
    [[pow(math.factorial(n), -1, int(p)) for p in PRIMES] for n in range(64)], dtype=np.int64
)


def _place_values(radix: Sequence[int]) -> np.ndarray | None:
    """Multipliers of a mixed-radix int64 key, or None when the key could overflow."""
    values, product = [], 1
    for r in radix:
        values.append(product)
        product *= max(int(r), 1)
    return np.array(values, dtype=np.int64) if product < 2**62 else None


def distinct_rows(rows: np.ndarray, radix: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a small-int matrix (as row indexes) and each row's distinct id."""
    place = _place_values(radix)
    if place is not None:
        keys = rows.astype(np.int64) @ place if rows.shape[1] else np.zeros(len(rows), np.int64)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return first, inverse.reshape(-1)
    order, starts = runs(rows.astype(np.int64))
    ids = np.empty(len(order), dtype=np.int64)
    mark = np.zeros(len(order), dtype=np.int64)
    mark[starts] = 1
    ids[order] = np.cumsum(mark) - 1
    return order[starts], ids


def _product(table: np.ndarray, counts: np.ndarray, moduli: np.ndarray) -> np.ndarray:
    """Π_g table[counts[:, g]] modulo each prime: [rows, prime]. Groups go three at a time
    through a small table of their products (a third of the multiplications)."""
    counts = counts.astype(np.int64)
    primes = len(moduli)
    out = np.ones((len(counts), primes), dtype=np.int64)
    for start in range(0, counts.shape[1], 3):
        block = counts[:, start : start + 3]
        tops = [int(block[:, i].max(initial=0)) + 1 for i in range(block.shape[1])]
        joint = table[: tops[0], :primes]
        index = block[:, 0].copy()
        for i in range(1, block.shape[1]):
            joint = (joint[:, None, :] * table[None, : tops[i], :primes] % moduli).reshape(
                -1, primes
            )
            index = index * tops[i] + block[:, i]
        out = out * joint[index] % moduli
    return out


@dataclass
class Contracted:
    """The first table of a contraction, over the partition every table together needs, with
    the exact posterior weight of each row (not normalised); `sizes`: the supply's cards in
    each group of that partition; `worlds`: how many joint choices of one row per table fit
    the supply and the links (None when not counted); `states` and `pairs`: the programme's
    size (benches)."""

    table: Table
    weights: list[int]
    sizes: dict[Key, int]
    worlds: int | None
    states: int
    pairs: int

    @property
    def total(self) -> int:
        return sum(self.weights)


def contract(
    tables: Sequence[Table],
    supply: Iterable[str],
    attributes: Mapping[str, frozenset[str]],
    asked: int = 0,
    count: bool = True,
    parts: Sequence[int] | None = None,
    limit: int | None = None,
) -> Contracted:
    """Σ over one row of every table (equal values on every link) of Π weights × ways, kept
    apart by the row of table `asked`. `ways` counts the physical layouts: in each table's turn
    its hand takes its cards from what is left of the supply, C(left, taken) per group; the
    state of the programme is what is left, told apart only as finely as the tables still to
    come need, and the values of the links still open. The tables before `asked` must tell
    apart nothing the tables from `asked` on do not (so the asked rows tell apart everything).

    A forward pass finds the reachable states (`_forward`); a backward pass in floating point
    measures how large the totals are; then, modulo that many primes (int64 numpy), forward
    sums reach the asked table and backward sums come back to it, and the Chinese remainder
    theorem gives the exact integers. C(left, taken) = left! / taken! / (left - taken)! splits
    into a factor of the state, one of the row and one of the state reached, so a state × row
    pair costs two multiplications a prime. `count`: also count the worlds (else `worlds` is
    None): a path count for every pair took half of a big sum's backward pass.

    With `parts` (indexes before `asked`), the asked table's first hand is the one asked, and
    the tables before it may tell apart more than it does: see `_refined`. The parts are
    one-card tables holding the cards the hand received; the rows returned are the hand's
    whole, over every group any table tells apart. `limit`: a turn with more (state, row)
    pairs is TooLarge (with parts, all the turns together)."""
    supply = list(supply)
    plan, first_sizes, most, pairs = _forward(tables, supply, attributes, asked, parts, limit)
    bits = _magnitude(plan)
    primes = max(1, (bits + 40) // 30)
    if primes > len(PRIMES):
        raise OverflowError("the totals are too large for the prime lanes")
    moduli = PRIMES[:primes]
    small = math.prod(step.table.rows for step in plan) < 2**62  # path counts fit int64
    kind = np.int64 if small else object
    ahead = np.ones((1, primes), dtype=np.int64)  # each state before a turn: sums up to it
    ahead_paths = np.ones(1, dtype=kind)
    fine = np.zeros((0, primes), dtype=np.int64)  # (with parts) the sums of the fine states
    for i, step in enumerate(plan[:asked]):
        value = ahead[step.s_index] * _pair_factor(step, moduli) % moduli
        if parts is not None and i == asked - 1:
            fine = _sums_by(step.fine_id, value, len(step.fine_left), moduli)
        ahead, ahead_paths = _gather(step, value, ahead_paths[step.s_index], moduli)
    completion = np.ones((1, primes), dtype=np.int64)  # the one final state: 1 ...
    paths = np.ones(1, dtype=kind)  # ... and one way to end there
    for step in reversed(plan[asked + 1 :]):
        completion = _completion(step, completion, moduli)
        if count:
            paths = _paths(step, paths)
    step = plan[asked]
    here = step.table
    worlds = None
    if count:
        joint = ahead_paths[step.s_index] * paths[step.coarse_id][step.fine_id]
        worlds = int(joint.sum()) if len(joint) else 0
    if parts is not None:
        last = plan[asked - 1]
        rows, sums = _refined(last, fine, step, completion, moduli, limit)
        whole = last.table.like(
            hands=here.hands[:1],
            counts=rows[:, None, :].astype(np.int8),
            weights=np.ones(len(rows), np.int64),
            links=[],
            values=np.zeros((len(rows), 0), np.int32),
        )
        weights = crt(sums, moduli) if len(rows) else []
        return Contracted(whole, weights, first_sizes, worlds, most, pairs)
    value = ahead[step.s_index] * _product(FACT_MOD, step.before, moduli)[step.s_index] % moduli
    value = value * _row_factor(step, moduli)[step.r_index] % moduli
    value = value * _reached(step, completion, moduli)[step.fine_id] % moduli
    per_row = _sums_by(step.r_index, value, here.rows, moduli)
    flat = here.counts.reshape(here.rows, here.counts.shape[1] * here.counts.shape[2])
    order, starts = runs(flat)  # rows differing only in link values: one
    counts = here.counts[order[starts]]
    summed_rows = (
        np.add.reduceat(per_row[order], starts, axis=0) % moduli if len(order) else per_row
    )
    weights = crt(summed_rows, moduli) if len(counts) else []
    first = here.like(
        counts=counts, weights=np.ones(len(counts), np.int64), links=[], values=counts[:, 0, :0]
    )
    return Contracted(first, weights, first_sizes, worlds, most, pairs)


def _sums_by(index: np.ndarray, value: np.ndarray, size: int, moduli: np.ndarray) -> np.ndarray:
    """value [item, prime] summed by `index` (0 <= index < size), modulo each prime."""
    sums = np.zeros((size, len(moduli)), dtype=np.int64)
    order = np.argsort(index, kind="stable")
    starts = _starts(index[order])
    if len(starts):
        sums[index[order][starts]] = np.add.reduceat(value[order], starts, axis=0) % moduli
    return sums


def _refined(
    last: _Step,
    fine: np.ndarray,
    step: _Step,
    completion: np.ndarray,
    moduli: np.ndarray,
    limit: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The asked hand's whole rows (the first hand of the asked table, `step`) over the
    groups the fine states of `last` (the step before) tell apart, with their sums modulo
    each prime.

    The asked table's turn pairs its rows with the merged states only: a group of its own
    that the fine states split is taken C(left, taken) ways in all, which is the sum over
    every split of Π C(left of each part, taken of it) (Vandermonde), and nothing after it
    tells the parts apart. So the sum of the whole rows with the own cards split k is, over
    the fine states f merged into c, fine(f) × H(f, k) × B(c, own counts), where H is the
    multivariate hypergeometric chance of the split given what f has left of each part, and
    B(c, own) the asked turn's backward sums of the rows holding `own`, from c. A hub's table
    split over every group the others tell apart had 2.6 million rows, 12 million pairs.
    TooLarge when the fine states joined to the backward sums, or the rows before they are
    merged, would be more than `limit` (and ROWS_LIMIT)."""
    most = ROWS_LIMIT if limit is None else min(limit, ROWS_LIMIT)
    here, fine_keys = step.table, last.table.keys
    primes = len(moduli)
    own = here.counts[:, 0, :]
    own_first, own_id = distinct_rows(own, [int(n) + 1 for n in own.max(axis=0, initial=0)])
    owns = own[own_first].astype(np.int64)
    # B'(c, own) = Π left! of c × the backward sums of the asked turn's pairs, by (c, own)
    beta = (
        _row_factor(step, moduli)[step.r_index]
        * _reached(step, completion, moduli)[step.fine_id]
        % moduli
    )
    key = step.s_index.astype(np.int64) * len(owns) + own_id[step.r_index]
    b_first, b_id = _distinct(key)
    b_sums = _sums_by(b_id, beta, len(b_first), moduli)
    b_state, b_own = step.s_index[b_first], own_id[step.r_index[b_first]]
    b_sums = b_sums * _product(FACT_MOD, step.before, moduli)[b_state] % moduli
    # the fine states by (merged state, what they have left of the split groups, tags)
    parent = [here.keys.index(here.partition.coarser_key(k)) for k in fine_keys]
    children = [[g for g, p in enumerate(parent) if p == c] for c in range(len(here.keys))]
    split = [c for c, ch in enumerate(children) if len(ch) > 1]
    columns = [g for c in split for g in children[c]]
    left = last.fine_left[:, columns].astype(np.int64)
    tags = last.fine_tags if last.fine_tags is not None else np.zeros((len(left), 0), np.int64)
    sigma_first, sigma_id = distinct_rows(left, [int(t) + 1 for t in left.max(axis=0, initial=0)])
    tag_first, tag_id = distinct_rows(tags, [len(fine_keys)] * tags.shape[1])
    x_key = (last.coarse_id.astype(np.int64) * len(sigma_first) + sigma_id) * len(
        tag_first
    ) + tag_id
    x_first, x_id = _distinct(x_key)
    x_sums = _sums_by(x_id, fine, len(x_first), moduli)
    x_state = last.coarse_id[x_first]
    # Y(σ, tags, own) = Σ_c X(c, σ, tags) × B'(c, own): the two joined on c
    xi, bi = _matching(x_state[:, None].astype(np.int64), b_state[:, None].astype(np.int64), most)
    y_value = x_sums[xi] * b_sums[bi] % moduli
    y_sigma, y_tag, y_own = sigma_id[x_first[xi]], tag_id[x_first[xi]], b_own[bi]
    y_key = (y_sigma.astype(np.int64) * len(tag_first) + y_tag) * len(owns) + y_own
    y_first, y_index = _distinct(y_key)
    y_sums = _sums_by(y_index, y_value, len(y_first), moduli)
    y_sigma, y_tag, y_own = y_sigma[y_first], y_tag[y_first], y_own[y_first]
    # the whole rows: own counts where a group is not split, a split k where it is, the tags'
    # groups; each of own's splits (one list per own split-group counts) weighed by H
    base = np.zeros((len(owns), len(fine_keys)), dtype=np.int64)
    for c, ch in enumerate(children):
        if len(ch) == 1:
            base[:, ch[0]] = owns[:, c]
    extra = np.zeros((len(tag_first), len(fine_keys)), dtype=np.int64)
    for t in range(tags.shape[1]):
        np.add.at(extra, (np.arange(len(tag_first)), tags[tag_first, t].astype(np.int64)), 1)
    lefts = left[sigma_first]
    widths = [len(children[c]) for c in split]
    held = owns[:, split]  # own counts of the split groups
    held_first, held_id = distinct_rows(held, [int(x) + 1 for x in held.max(axis=0, initial=0)])
    splits = []
    for totals in held[held_first].tolist():
        per_group = [compositions(n, [n] * w) for n, w in zip(totals, widths, strict=True)]
        found = [np.concatenate(p) if p else np.zeros(0) for p in itertools.product(*per_group)]
        splits.append(np.array(found, dtype=np.int64).reshape(len(found), len(columns)))
    y_class = held_id[y_own]
    if sum(len(splits[c]) for c in y_class.tolist()) > most:
        raise TooLarge(f"a hand's rows would be more than {most:,}")
    group_of = np.repeat(np.arange(len(split)), widths)  # each split column's group
    found_rows, found_sums = [], []
    for c in np.unique(y_class).tolist():
        members = np.flatnonzero(y_class == c)
        taken = splits[c]  # [split, column]
        # H of each distinct σ of the class and each split (members share them)
        sigmas, sigma_of = np.unique(y_sigma[members], return_inverse=True)
        sigma = lefts[sigmas].astype(np.int64)  # [σ, column]
        u, k = np.nonzero(np.all(sigma[:, None, :] >= taken[None, :, :], axis=2))
        sig, tak = sigma[u], taken[k]
        chance = np.ones((len(u), primes), dtype=np.int64)  # Π C(left, taken) / Π C(σ_G, κ_G)
        for g in range(len(columns)):
            chance = chance * FACT_MOD[sig[:, g], :primes] % moduli
            chance = chance * INVFACT_MOD[tak[:, g], :primes] % moduli
            chance = chance * INVFACT_MOD[sig[:, g] - tak[:, g], :primes] % moduli
        for i in range(len(split)):
            total = sig[:, group_of == i].sum(axis=1)
            own_i = tak[:, group_of == i].sum(axis=1)
            chance = chance * INVFACT_MOD[total, :primes] % moduli
            chance = chance * FACT_MOD[own_i, :primes] % moduli
            chance = chance * FACT_MOD[total - own_i, :primes] % moduli
        at = np.full((len(sigmas), len(taken)), -1, dtype=np.int64)  # (σ, split) -> its H
        at[u, k] = np.arange(len(u))
        m, k = np.nonzero(at[sigma_of] >= 0)  # each member's splits that fit
        rows = base[y_own[members[m]]] + extra[y_tag[members[m]]]
        rows[:, columns] += taken[k]
        found_rows.append(rows)
        found_sums.append(y_sums[members[m]] * chance[at[sigma_of[m], k]] % moduli)
    if not found_rows:
        return np.zeros((0, len(fine_keys)), dtype=np.int64), np.zeros((0, primes), np.int64)
    rows, sums = np.concatenate(found_rows), np.concatenate(found_sums)
    order, starts = runs(rows)
    return rows[order[starts]], np.add.reduceat(sums[order], starts, axis=0) % moduli


def _completion(step: _Step, after: np.ndarray, moduli: np.ndarray) -> np.ndarray:
    """The backward sums of the states before `step` from those of the states after it
    (`after`), one prime at a time on contiguous lanes (a third faster than [pair, prime])."""
    reached = np.ascontiguousarray(_reached(step, after, moduli).T)
    row = np.ascontiguousarray(_row_factor(step, moduli).T)
    starts = _starts(step.s_index)
    completion = np.zeros((len(step.before), len(moduli)), dtype=np.int64)
    if len(starts):
        where = step.s_index[starts]
        for k, prime in enumerate(moduli.tolist()):
            value = row[k].take(step.r_index)
            value *= reached[k].take(step.fine_id)
            value %= prime
            completion[where, k] = np.add.reduceat(value, starts) % prime
    return completion * _product(FACT_MOD, step.before, moduli) % moduli


def _paths(step: _Step, after: np.ndarray) -> np.ndarray:
    """How many joint choices of rows lead from each state before `step` to the end."""
    starts = _starts(step.s_index)
    paths = np.zeros(len(step.before), dtype=after.dtype)
    if len(starts):
        paths[step.s_index[starts]] = np.add.reduceat(after[step.coarse_id][step.fine_id], starts)
    return paths


def _row_factor(step: _Step, moduli: np.ndarray) -> np.ndarray:
    """weight / Π taken! of each row, times the ways its parts split what it takes
    (Π_group taken! / Π_part,group count!), modulo each prime: weight / Π_part,group count!."""
    row = residues(step.table.weights, moduli)
    if step.factorials is None:  # too large for int64 (rare): each part's product in turn
        for part in range(step.table.counts.shape[1]):
            row = row * _product(INVFACT_MOD, step.table.counts[:, part, :], moduli) % moduli
        return row
    return row * _inverses(step.factorials, moduli) % moduli


def _inverses(numbers: np.ndarray, moduli: np.ndarray) -> np.ndarray:
    """1 / n modulo each prime, for positive int64 numbers with no factor as large as the
    primes (products of small factorials): each distinct number's inverse worked out once."""
    values, index = _distinct(numbers)
    inverse = np.array(
        [[pow(int(numbers[i]), -1, int(p)) for p in moduli] for i in values], dtype=np.int64
    ).reshape(len(values), len(moduli))
    return inverse[index]


FACTORIAL = [math.factorial(n) for n in range(21)]


def _factorials(counts: np.ndarray) -> np.ndarray | None:
    """Π over parts and groups of count! for each row, exactly in int64 (None when it could
    exceed int64). Columns where no row holds two or more add nothing."""
    flat = counts.reshape(len(counts), counts.shape[1] * counts.shape[2])
    tops = flat.max(axis=0, initial=0).tolist()
    wide = [i for i, top in enumerate(tops) if top > 1]
    if math.prod(FACTORIAL[min(tops[i], 20)] for i in wide) >= SAFE or max(tops, default=0) > 20:
        return None
    out = np.ones(len(counts), dtype=np.int64)
    table = np.array(FACTORIAL, dtype=np.int64)
    for i in wide:
        out *= table[flat[:, i]]
    return out


def _reached(step: _Step, completion: np.ndarray, moduli: np.ndarray) -> np.ndarray:
    """1 / Π left! × the completion of the merged state, for each fine state reached."""
    invfact = _product(INVFACT_MOD, step.fine_left, moduli)
    return invfact * completion[step.coarse_id] % moduli


def _pair_factor(step: _Step, moduli: np.ndarray) -> np.ndarray:
    """C(left, taken) × weight for each (state, row) pair, modulo each prime."""
    value = _product(FACT_MOD, step.before, moduli)[step.s_index]
    value = value * _row_factor(step, moduli)[step.r_index] % moduli
    invfact = _product(INVFACT_MOD, step.fine_left, moduli)
    return value * invfact[step.fine_id] % moduli


def _gather(
    step: _Step, value: np.ndarray, paths: np.ndarray, moduli: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pair values (and path counts) summed into the merged states they reach."""
    target = step.coarse_id[step.fine_id]
    size = int(step.coarse_id.max(initial=-1)) + 1
    order = np.argsort(target, kind="stable")
    starts = _starts(target[order])
    sums = np.zeros((size, len(moduli)), dtype=np.int64)
    counts = np.zeros(size, dtype=paths.dtype)
    if len(starts):
        sums[target[order][starts]] = np.add.reduceat(value[order], starts, axis=0) % moduli
        counts[target[order][starts]] = np.add.reduceat(paths[order], starts)
    return sums, counts


@dataclass
class _Step:
    """One table's turn in a contraction: the table over the groups the programme tells apart
    there, the states before it, and for each (state, row) pair that can happen the state
    reached: fine (before merging groups no later table tells apart), then merged."""

    table: Table
    take: np.ndarray  # [row, group]: the cards each row takes (int16)
    before: np.ndarray  # [state, group]
    s_index: np.ndarray
    r_index: np.ndarray
    fine_id: np.ndarray  # per pair
    fine_left: np.ndarray  # per fine state: what is left of each group
    coarse_id: np.ndarray  # per fine state
    factorials: np.ndarray | None  # per row: Π over parts and groups of count! (None: large)
    fine_tags: np.ndarray | None = None  # per fine state: the values of the links forgotten


@dataclass
class _Reached:
    """The programme between two turns: the supply's groups told apart (`sizes`), the states
    reached (what is left of each group, then the open links' values) and the links open."""

    sizes: dict[Key, int]
    states: np.ndarray
    held: np.ndarray
    open_links: list[int]


def _forward(
    tables: Sequence[Table],
    supply: list[str],
    attributes: Mapping[str, frozenset[str]],
    asked: int,
    parts: Sequence[int] | None = None,
    limit: int | None = None,
) -> tuple[list[_Step], dict[Key, int], int, int]:
    """The reachable states of the programme, table by table. A table of several hands other
    than the asked one only matters by what it takes: its rows are merged by that first (the
    ways its hands split each group's cards go into the weights).

    With `parts` (see `contract`), the states keep every group any table tells apart until
    the asked table's turn, and each part's card is a *tag*: an open link whose value is the
    card's group, forgotten where the states are merged for the asked table's turn (the step
    before it keeps the tags of its fine states); `limit` then bounds the pairs of all the
    turns together."""
    after = [Partition()] * (len(tables) + 1)  # after[j]: what tables j, j+1, ... tell apart
    for j in range(len(tables) - 1, -1, -1):
        after[j] = tables[j].partition.join(after[j + 1])
    tags: list[int] = []
    if parts is not None:
        after[:asked] = [after[0]] * asked  # nothing told apart is merged before the asked turn
        tags = [TAG - j for j in parts]
    first_sizes = sizes = group_sizes(after[0], supply, attributes)
    now = _Reached(
        sizes, np.array([list(sizes.values())], dtype=np.int8), np.zeros((1, 0), np.int64), []
    )
    domain: dict[int, int] = {}  # link -> how many values it can take
    for t in tables:
        for i, link in enumerate(t.links):
            domain[link] = max(domain.get(link, 1), int(t.values[:, i].max(initial=0)) + 1)
    plan: list[_Step] = []
    for j, table in enumerate(tables):
        if j != asked and len(table.hands) > 1:
            table = table.collapsed()
        here, _ = table.regroup(after[j], now.sizes)
        if parts is not None and j in parts:  # its card's group, as a link nobody closes
            held = here.counts[:, 0, :]
            assert len(here.hands) == 1 and bool(np.all(held.sum(axis=1) == 1))
            here = here.with_link(TAG - j, np.argmax(held, axis=1))
            domain[TAG - j] = len(here.keys)
        forget = tags if j == asked - 1 else []
        left = limit
        if parts is not None and limit is not None:  # one budget for every turn
            left = limit - sum(len(step.s_index) for step in plan)
        step, now = _turn(here, now, after[j + 1], supply, attributes, domain, forget, left)
        plan.append(step)
    pairs = sum(len(step.s_index) for step in plan)
    most = max([1] + [int(step.coarse_id.max(initial=0)) + 1 for step in plan])
    return plan, first_sizes, most, pairs


def _turn(
    here: Table,
    now: _Reached,
    later: Partition,
    supply: list[str],
    attributes: Mapping[str, frozenset[str]],
    domain: dict[int, int],
    forget: Sequence[int] = (),
    limit: int | None = None,
) -> tuple[_Step, _Reached]:
    """One table's turn (`here`, regrouped to what it and the tables after it tell apart):
    every (state, row) pair whose links agree and whose cards the state has, and the states
    reached, merged to what the later tables tell apart (`later`), the open links `forget`
    summed out (their values kept per fine state: `_Step.fine_tags`)."""
    states, held, open_links, keys = now.states, now.held, now.open_links, list(now.sizes)
    take = together(here.counts, np.int16)
    closing = [i for i, link in enumerate(here.links) if link in open_links]
    opening = [i for i, link in enumerate(here.links) if link not in open_links]
    match = here.values[:, closing].astype(np.int64)
    state_match = held[:, [open_links.index(here.links[i]) for i in closing]]
    keep_open = [i for i, link in enumerate(open_links) if link not in here.links]
    open_links = [open_links[i] for i in keep_open] + [here.links[i] for i in opening]
    kept, opened = held[:, keep_open], here.values[:, opening]  # (int32: a big table's)
    fields = _Fields([now.sizes[k] for k in keys], [domain[link] for link in open_links])
    if fields.fit:  # every state reached is one int64 key: the state's minus the row's
        s_index, r_index, reach = _reaching(
            state_match,
            match,
            fields.state_keys(states, kept),
            fields.row_keys(take, opened),
            fields.guard_mask,
            limit,
        )
        fine_first, fine_id = _distinct(reach)
    else:
        s_index, r_index = _matching(state_match, match, limit)
        ok = np.all(states[s_index] >= take[r_index], axis=1)
        s_index, r_index = s_index[ok], r_index[ok]
        rows = np.concatenate(
            [
                (states[s_index] - take[r_index]).astype(np.int64),
                kept[s_index],
                opened[r_index].astype(np.int64),
            ],
            axis=1,
        )
        fine_first, fine_id = distinct_rows(rows, [n + 1 for n in fields.sizes] + fields.links)
    s_first, r_first = s_index[fine_first], r_index[fine_first]
    fine_left = states[s_first] - take[r_first]
    fine_held = np.concatenate([kept[s_first], opened[r_first].astype(np.int64)], axis=1)
    sizes = group_sizes(later, supply, attributes)
    where = {k: i for i, k in enumerate(sizes)}
    coarse = np.zeros((len(fine_first), len(sizes)), dtype=np.int64)
    for g, k in enumerate(keys):
        coarse[:, where[later.coarser_key(k)]] += fine_left[:, g]
    kept_links = [i for i, link in enumerate(open_links) if link not in forget]
    fine_tags = fine_held[:, [open_links.index(link) for link in forget]] if forget else None
    if len(sizes) == len(keys) and not forget:  # nothing merged: fine states are the merged
        coarse_first = coarse_id = np.arange(len(fine_first))
    else:
        coarse_first, coarse_id = distinct_rows(
            np.concatenate([coarse, fine_held[:, kept_links]], axis=1),
            [n + 1 for n in sizes.values()] + [fields.links[i] for i in kept_links],
        )
    factorials = _factorials(here.counts)  # also which taken cards each hand holds
    step = _Step(
        here, take, states, s_index, r_index, fine_id, fine_left, coarse_id, factorials, fine_tags
    )
    reached = _Reached(
        sizes,
        coarse[coarse_first].astype(np.int8),
        fine_held[coarse_first][:, kept_links],
        [open_links[i] for i in kept_links],
    )
    return step, reached


BLOCK_PAIRS = 1 << 22  # (state, row) pairs `_reaching` sums as one broadcast block at most
FEW_BLOCKS = 64  # ... and it pairs block by block when there are this few blocks or big ones


def _reaching(
    state_match: np.ndarray,
    row_match: np.ndarray,
    state_keys: np.ndarray,
    row_keys: np.ndarray,
    guard_mask: int,
    limit: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (state, row) pairs of a turn whose link values agree and whose cards the state has,
    with the key of the state each reaches (`_Fields`), each state's pairs side by side. The
    states and rows of one value of the links closed are a block, and a block's keys reached
    are one broadcast sum: no index arrays for the pairs that agree but do not fit (a
    5-player sum's turn listed 16 million agreeing pairs to keep 11 million, in six passes)."""
    blocks = _blocks(state_match, row_match)
    agreeing = sum(len(s) * len(r) for s, r in blocks)
    limit = PAIRS_LIMIT if limit is None else limit
    if agreeing > limit:
        raise TooLarge(f"a sum would look at more than {limit:,} pairs of states and rows")
    if len(blocks) > FEW_BLOCKS and agreeing < FEW_BLOCKS * len(blocks) * 64:
        s_index, r_index = _matching(state_match, row_match)  # many small blocks: at once
        reach = state_keys[s_index] + row_keys[r_index]
        ok = (reach & guard_mask) == guard_mask
        return s_index[ok], r_index[ok], reach[ok]
    found_s, found_r, found_reach = [], [], []
    for states, rows in blocks:
        keys_of_rows = row_keys[rows]
        step = max(1, BLOCK_PAIRS // max(len(rows), 1))
        for at in range(0, len(states), step):
            chunk = states[at : at + step]
            reach = state_keys[chunk][:, None] + keys_of_rows[None, :]
            ok = (reach & guard_mask) == guard_mask
            i, j = np.nonzero(ok)
            found_s.append(chunk[i])
            found_r.append(rows[j])
            found_reach.append(reach[ok])
    if not found_s:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return np.concatenate(found_s), np.concatenate(found_r), np.concatenate(found_reach)


def _blocks(states: np.ndarray, rows: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The states and the rows of each value of the matched columns both have (all of them
    in one block when nothing is matched), each in order."""
    if states.shape[1] == 0:
        return [(np.arange(len(states)), np.arange(len(rows)))]
    base = int(max(states.max(initial=0), rows.max(initial=0))) + 1
    radix = base ** np.arange(states.shape[1], dtype=np.int64)
    skey, rkey = states @ radix, rows @ radix
    s_order, r_order = np.argsort(skey, kind="stable"), np.argsort(rkey, kind="stable")
    s_sorted, r_sorted = skey[s_order], rkey[r_order]
    values, s_at = np.unique(s_sorted, return_index=True)
    s_end = np.append(s_at[1:], len(s_sorted))
    r_lo = np.searchsorted(r_sorted, values, side="left")
    r_hi = np.searchsorted(r_sorted, values, side="right")
    return [
        (s_order[s_at[k] : s_end[k]], r_order[r_lo[k] : r_hi[k]])
        for k in np.flatnonzero(r_hi > r_lo)
    ]


HASHED = 300_000  # more keys than this: pandas' hash table groups them (it sorts no keys)


def _distinct(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The index of the first of each distinct key, and each key's distinct id."""
    if len(keys) <= HASHED:
        _, first, ids = np.unique(keys, return_index=True, return_inverse=True)
        return first, ids.reshape(-1)
    import pandas  # OR-Tools' own dependency; imported only for large states

    ids, _ = pandas.factorize(keys)
    seen = np.maximum.accumulate(ids)  # ids come in order of first appearance
    return np.flatnonzero(np.concatenate(([True], seen[1:] > seen[:-1]))), ids.astype(np.int64)


class _Fields:
    """A state of the programme (what is left of each group, then the open links' values) as
    bit fields of one int64. Each group's field has a guard bit above its value, so that
    subtracting a row's cards borrows from the guard exactly when the row takes more than is
    left, and never from the next field."""

    def __init__(self, sizes: Sequence[int], links: Sequence[int]):
        self.sizes, self.links = list(sizes), list(links)
        widths = [n.bit_length() + 1 for n in self.sizes] + [
            max(d - 1, 1).bit_length() for d in self.links
        ]
        self.offsets = np.concatenate(([0], np.cumsum(widths)[:-1])).astype(np.int64)
        self.fit = sum(widths) <= 62
        g = len(self.sizes)
        self.guards = np.array([1 << n.bit_length() for n in self.sizes], dtype=np.int64)
        self.guard_mask = int(np.sum(self.guards << self.offsets[:g])) if g else 0

    def state_keys(self, states: np.ndarray, links: np.ndarray) -> np.ndarray:
        g = len(self.sizes)
        shifted = (states.astype(np.int64) + self.guards) << self.offsets[:g]
        kept = links << self.offsets[g : g + links.shape[1]]
        return shifted.sum(axis=1) + kept.sum(axis=1)

    def row_keys(self, take: np.ndarray, links: np.ndarray) -> np.ndarray:
        """A row's part of the key reached: its opened links' values, minus its cards (a
        column at a time: no int64 copy of a big table's cards)."""
        g = len(self.sizes)
        keys = np.zeros(len(take), dtype=np.int64)
        for i, offset in enumerate(self.offsets[len(self.offsets) - links.shape[1] :].tolist()):
            keys += links[:, i].astype(np.int64) << offset
        for i in range(g):
            keys -= take[:, i].astype(np.int64) << self.offsets[i]
        return keys

    def affordable(self, keys: np.ndarray) -> np.ndarray:
        return (keys & self.guard_mask) == self.guard_mask


def _starts(index: np.ndarray) -> np.ndarray:
    """Where each run of equal values of a sorted index begins."""
    if len(index) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], index[1:] != index[:-1])))


def _magnitude(plan: list[_Step]) -> int:
    """About how many bits the contraction's total needs: the backward pass in floating point,
    rescaled at every turn (true value = value × 2^scale) so that it cannot overflow."""
    log_fact = np.array([math.lgamma(n + 1) for n in range(64)]) / math.log(2)
    completion, scale = np.ones(1), 0.0
    for step in reversed(plan):
        weights = step.table.weights.astype(np.float64)
        log_row = np.full(len(weights), -np.inf)
        positive = weights > 0
        log_row[positive] = np.log2(weights[positive])
        if step.factorials is None:
            counts = step.table.counts
            flat = counts.reshape(len(weights), counts.shape[1] * counts.shape[2])
            log_row -= log_fact[flat].sum(axis=1)
        else:
            log_row -= np.log2(step.factorials.astype(np.float64))
        top_row = float(log_row.max(initial=-np.inf))
        if not np.isfinite(top_row) or len(step.s_index) == 0:
            return 1
        reached = completion[step.coarse_id] * np.exp2(
            -log_fact[step.fine_left.astype(np.int64)].sum(axis=1)
        )
        value = np.exp2(log_row - top_row)[step.r_index] * reached[step.fine_id]
        starts = _starts(step.s_index)
        total = np.zeros(len(step.before))
        total[step.s_index[starts]] = np.add.reduceat(value, starts)
        total *= np.exp2(log_fact[step.before.astype(np.int64)].sum(axis=1))
        top = float(total.max(initial=0))
        if top <= 0:
            return 1
        completion, scale = total / top, scale + top_row + math.log2(top)
    return max(1, int(math.ceil(scale)) + 1)
