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

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

SAFE = 2**62
TRACE = False
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


def times(weights: np.ndarray, factor: np.ndarray) -> np.ndarray:
    """weights × factor, exactly (Python integers before int64 could overflow)."""
    factor = np.asarray(factor)
    small = weights.dtype != object and factor.dtype != object and len(weights) > 0
    if small and int(np.abs(weights).max()) * max(int(np.abs(factor).max()), 1) < SAFE:
        return weights * factor.astype(np.int64)
    return weights.astype(object) * factor.astype(object)


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


def runs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that puts equal rows of a 2-D int array together, and where each run starts."""
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if rows.shape[1] == 0:
        return np.arange(len(rows)), np.zeros(1, dtype=np.int64)
    flat = np.ascontiguousarray(rows)
    view = flat.view(np.dtype((np.void, flat.dtype.itemsize * flat.shape[1])))[:, 0]
    order = np.argsort(view, kind="stable")
    view = view[order]
    starts = np.flatnonzero(np.concatenate(([True], view[1:] != view[:-1])))
    return order, starts


# -- compositions ------------------------------------------------------------------------------------


def compositions(total: int, caps: Sequence[int]) -> np.ndarray:
    """Every way to put `total` identical cards into len(caps) parts of the given capacities."""
    found: list[tuple[int, ...]] = []

    def walk(left: int, i: int, prefix: tuple[int, ...]) -> None:
        if i == len(caps):
            if left == 0:
                found.append(prefix)
            return
        room = sum(caps[i + 1 :])
        for first in range(max(0, left - room), min(left, caps[i]) + 1):
            walk(left - first, i + 1, (*prefix, first))

    walk(total, 0, ())
    return np.array(found, dtype=np.int8).reshape(len(found), len(caps))


COMB = np.array([[math.comb(n, r) for r in range(64)] for n in range(64)], dtype=object)


# -- tables ------------------------------------------------------------------------------------------


@dataclass
class Table:
    """One hand's explicit slots (`hand` None: a factor on links alone): rows of counts
    [row, group] over the groups `keys` of `partition`, exact `weights`, and for each of
    `links` the value [row, link] (which group of the link's own list the moved card was)."""

    hand: str | None
    partition: Partition
    keys: list[Key]
    counts: np.ndarray
    weights: np.ndarray
    links: list[int]
    values: np.ndarray

    @classmethod
    def empty(cls, hand: str, keys: list[Key], partition: Partition = Partition()) -> Table:
        """A hand with no explicit card: one row, weight 1."""
        return cls(
            hand,
            partition,
            keys,
            np.zeros((1, len(keys)), np.int8),
            np.ones(1, np.int64),
            [],
            np.zeros((1, 0), np.int32),
        )

    def copy(self) -> Table:
        return Table(
            self.hand,
            self.partition,
            list(self.keys),
            self.counts.copy(),
            self.weights.copy(),
            list(self.links),
            self.values.copy(),
        )

    @property
    def rows(self) -> int:
        return len(self.weights)

    def index(self, key: Key) -> int:
        return self.keys.index(key)

    def pick(self, index: np.ndarray, factor: np.ndarray | None = None) -> Table:
        """The rows `index` (with repeats), their weights multiplied by `factor`."""
        weights = self.weights[index]
        if factor is not None:
            weights = times(weights, factor)
        return Table(
            self.hand,
            self.partition,
            self.keys,
            self.counts[index],
            weights,
            self.links,
            self.values[index],
        )

    def keep(self, mask: np.ndarray, factor: np.ndarray | None = None) -> Table:
        """The rows where `mask` holds, weights multiplied by `factor` (rows of factor 0 go)."""
        if factor is not None:
            factor = np.asarray(factor)
            mask = mask & (factor != 0)
            return self.pick(np.flatnonzero(mask), factor[mask]).merged()
        return self.pick(np.flatnonzero(mask))

    def merged(self) -> Table:
        """Equal rows (counts and link values) become one, weights added and reduced."""
        keep = self.weights != 0
        counts, values, weights = self.counts[keep], self.values[keep], self.weights[keep]
        both = np.concatenate([counts.astype(np.int32), values], axis=1)
        order, starts = runs(both)
        return Table(
            self.hand,
            self.partition,
            self.keys,
            counts[order[starts]],
            reduced(summed(weights[order], starts)),
            self.links,
            values[order[starts]],
        )

    def with_link(self, link: int, values: np.ndarray) -> Table:
        return Table(
            self.hand,
            self.partition,
            self.keys,
            self.counts,
            self.weights,
            [*self.links, link],
            np.concatenate([self.values, values[:, None].astype(np.int32)], axis=1),
        )

    def without_link(self, link: int) -> Table:
        """The table with a link column summed out (its partner no longer cares)."""
        at = self.links.index(link)
        keep = [i for i in range(len(self.links)) if i != at]
        return Table(
            self.hand,
            self.partition,
            self.keys,
            self.counts,
            self.weights,
            [self.links[i] for i in keep],
            self.values[:, keep],
        ).merged()

    def regroup(self, partition: Partition, sizes: Mapping[Key, int]) -> tuple[Table, np.ndarray]:
        """The table over a finer `partition` (whose groups have `sizes` cards in the supply), and
        for each new row the row it came from. Each count splits over the finer groups in every
        possible way with the same weight (the weight depends only on the coarser counts; which
        cards are taken is counted by `ways`). Rows needing more cards than the supply has go."""
        assert partition.finer_than(self.partition)
        keys = list(sizes)
        where = {k: i for i, k in enumerate(self.keys)}
        parent = [where.get(self.partition.coarser_key(k), -1) for k in keys]
        index = np.arange(self.rows)
        new = np.zeros((self.rows, len(keys)), dtype=np.int8)
        for old in range(len(self.keys)):
            children = [i for i, p in enumerate(parent) if p == old]
            wanted = self.counts[index, old]
            if not children:  # no card of this group is left in the supply
                ok = wanted == 0
                index, new = index[ok], new[ok]
                continue
            if len(children) == 1:  # the same group: only the capacity to check
                ok = wanted <= sizes[keys[children[0]]]
                index, new = index[ok], new[ok]
                new[:, children[0]] = wanted[ok]
                continue
            caps = [sizes[keys[i]] for i in children]
            picked, blocks = [], []
            for total in np.unique(wanted):
                splits = compositions(int(total), caps)
                at = np.flatnonzero(wanted == total)
                if len(splits) == 0:
                    continue
                rep = np.repeat(at, len(splits))
                block = new[rep]
                block[:, children] = np.tile(splits, (len(at), 1))
                picked.append(rep)
                blocks.append(block)
            chosen = np.concatenate(picked) if picked else np.zeros(0, np.int64)
            index = index[chosen]
            new = np.concatenate(blocks) if blocks else new[:0]
        table = Table(
            self.hand,
            partition,
            keys,
            new,
            self.weights[index],
            self.links,
            self.values[index],
        )
        return table, index


# -- contraction: the exact sum over every table and the supply -------------------------------------

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
    """A good order to contract in: `first`, then again and again the table that leaves the
    programme's state smallest: the fewest groups the tables still to come tell apart (the
    supply is tracked that finely), then the fewest open link values, then the fewest rows."""
    supply = list(supply)
    everything = [first, *others]
    sizes = {}
    for t in everything:
        for i, link in enumerate(t.links):
            sizes[link] = max(sizes.get(link, 1), int(t.values[:, i].max(initial=0)) + 1)
    done, left = [first], list(others)
    open_links = set(first.links)

    def groups(tables: Sequence[Table]) -> int:
        joint = Partition()
        for t in tables:
            joint = joint.join(t.partition)
        return len(group_sizes(joint, supply, attributes))

    while left:

        def cost(t: Table, opened: set[int] = open_links) -> tuple:
            rest = [u for u in left if u is not t]
            after = opened ^ set(t.links)
            return (groups(rest), math.prod(sizes[link] for link in after), t.rows)

        best = min(left, key=cost)
        left.remove(best)
        done.append(best)
        open_links ^= set(best.links)
    return done


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


def _matching(states: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (state, row) pair whose values agree (every pair when there is nothing to match)."""
    if states.shape[1] == 0:
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


def _ids(rows: np.ndarray, radix: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
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
    """Π_g table[counts[:, g]] modulo each prime: [rows, prime]."""
    out = np.ones((len(counts), len(moduli)), dtype=np.int64)
    for g in range(counts.shape[1]):
        out = out * table[counts[:, g].astype(np.int64), : len(moduli)] % moduli
    return out


@dataclass
class Contracted:
    """The first table of a contraction, over the partition every table together needs, with
    the exact posterior weight of each row (not normalised); `sizes`: the supply's cards in
    each group of that partition; `worlds`: how many joint choices of one row per table fit
    the supply and the links; `states` and `pairs`: the programme's size (benches)."""

    table: Table
    weights: list[int]
    sizes: dict[Key, int]
    worlds: int
    states: int
    pairs: int

    @property
    def total(self) -> int:
        return sum(self.weights)


def contract(
    tables: Sequence[Table], supply: Iterable[str], attributes: Mapping[str, frozenset[str]]
) -> Contracted:
    """Σ over one row of every table (equal values on every link) of Π weights × ways, kept
    apart by the first table's row. `ways` counts the physical layouts: in each table's turn
    its hand takes its cards from what is left of the supply, C(left, taken) per group; the
    state of the programme is what is left, told apart only as finely as the tables still to
    come need, and the values of the links still open.

    A forward pass finds the reachable states; a backward pass sums the completions modulo
    enough primes for an a-priori bound on the totals (int64 numpy), and the Chinese remainder
    theorem gives the exact integers. C(left, taken) = left! / taken! / (left - taken)! splits
    into a factor of the state, one of the row and one of the state reached, so a state × row
    pair costs two multiplications per prime."""
    supply = list(supply)
    after = [Partition()] * (len(tables) + 1)  # after[j]: what tables j, j+1, ... tell apart
    for j in range(len(tables) - 1, -1, -1):
        after[j] = tables[j].partition.join(after[j + 1])
    first_sizes = sizes = group_sizes(after[0], supply, attributes)
    states = np.array([list(sizes.values())], dtype=np.int8)
    held = np.zeros((1, 0), dtype=np.int64)  # the open links' values, per state
    open_links: list[int] = []
    domain: dict[int, int] = {}  # link -> how many values it can take
    for t in tables:
        for i, link in enumerate(t.links):
            domain[link] = max(domain.get(link, 1), int(t.values[:, i].max(initial=0)) + 1)
    plan = []
    bound, most, pairs = 1, 1, 0
    for j, table in enumerate(tables):
        keys = list(sizes)
        here, _ = table.regroup(after[j], sizes)
        take = here.counts
        taken_most = int(take.astype(np.int64).sum(axis=1).max(initial=0))
        bound *= _sum_bound(here.weights) * math.comb(len(supply), taken_most)
        closing = [i for i, link in enumerate(here.links) if link in open_links]
        opening = [i for i, link in enumerate(here.links) if link not in open_links]
        match = here.values[:, closing].astype(np.int64)
        state_match = held[:, [open_links.index(here.links[i]) for i in closing]]
        s_index, r_index = _matching(state_match, match)
        ok = np.all(states[s_index] >= take[r_index], axis=1)  # the row's cards are left
        s_index, r_index = s_index[ok], r_index[ok]
        pairs += len(s_index)
        keep_open = [i for i, link in enumerate(open_links) if link not in here.links]
        open_links = [open_links[i] for i in keep_open] + [here.links[i] for i in opening]
        link_radix = [domain[link] for link in open_links]
        kept, opened = held[:, keep_open], here.values[:, opening].astype(np.int64)
        radix = [sizes[k] + 1 for k in keys] + link_radix
        place = _place_values(radix)
        if place is not None:  # the state each pair reaches, as one int64 key: a sum
            g, k = len(keys), len(keep_open)
            from_state = states.astype(np.int64) @ place[:g] + kept @ place[g : g + k]
            from_row = opened @ place[g + k :] - take.astype(np.int64) @ place[:g]
            _, fine_first, fine_id = np.unique(
                from_state[s_index] + from_row[r_index], return_index=True, return_inverse=True
            )
            fine_id = fine_id.reshape(-1)
            s_first, r_first = s_index[fine_first], r_index[fine_first]
            fine_left = states[s_first] - take[r_first]
            fine_held = np.concatenate([kept[s_first], opened[r_first]], axis=1)
        else:
            left = states[s_index] - take[r_index]
            new_held = np.concatenate([kept[s_index], opened[r_index]], axis=1)
            fine_first, fine_id = _ids(
                np.concatenate([left.astype(np.int64), new_held], axis=1), radix
            )
            fine_left, fine_held = left[fine_first], new_held[fine_first]
        sizes = group_sizes(after[j + 1], supply, attributes)
        where = {k: i for i, k in enumerate(sizes)}
        coarse = np.zeros((len(fine_first), len(sizes)), dtype=np.int64)
        for g, k in enumerate(keys):
            coarse[:, where[after[j + 1].coarser_key(k)]] += fine_left[:, g]
        coarse_first, coarse_id = _ids(
            np.concatenate([coarse, fine_held], axis=1),
            [n + 1 for n in sizes.values()] + link_radix,
        )
        plan.append((here, states, s_index, r_index, fine_id, fine_left, coarse_id))
        if TRACE:
            print(
                f"    step {j} {table.hand} rows {table.rows}->{here.rows} keys {len(keys)} states {len(states)} pairs {len(s_index)} fine {len(fine_first)} coarse {len(coarse_first)} links {open_links}"
            )
        states, held = coarse[coarse_first].astype(np.int8), fine_held[coarse_first]
        most = max(most, len(states))
    primes = max(1, (bound.bit_length() + 33) // 30)
    if primes > len(PRIMES):
        raise OverflowError("the totals are too large for the prime lanes")
    moduli = PRIMES[:primes]
    completion = np.ones((len(states), primes), dtype=np.int64)  # each final state: 1 ...
    paths = np.ones((len(states), primes), dtype=np.int64)  # ... and one way to end there
    for j in range(len(tables) - 1, -1, -1):
        here, before, s_index, r_index, fine_id, fine_left, coarse_id = plan[j]
        reached = _product(INVFACT_MOD, fine_left, moduli) * completion[coarse_id] % moduli
        row = residues(here.weights, moduli) * _product(INVFACT_MOD, here.counts, moduli)
        value = row[r_index] % moduli * reached[fine_id] % moduli
        count = paths[coarse_id][fine_id]
        if j == 0:
            break
        starts = np.flatnonzero(np.concatenate(([True], s_index[1:] != s_index[:-1])))
        completion = np.zeros((len(before), primes), dtype=np.int64)
        paths = np.zeros((len(before), primes), dtype=np.int64)
        if len(s_index):
            completion[s_index[starts]] = np.add.reduceat(value, starts, axis=0) % moduli
            paths[s_index[starts]] = np.add.reduceat(count, starts, axis=0) % moduli
        completion = completion * _product(FACT_MOD, before, moduli) % moduli
    here, before, s_index, r_index = plan[0][:4]
    per_row = np.zeros((here.rows, primes), dtype=np.int64)
    per_row[r_index] = value * _product(FACT_MOD, before, moduli)[0] % moduli
    worlds = crt(count.sum(axis=0, keepdims=True) % moduli, moduli)[0] if len(count) else 0
    order, starts = runs(here.counts)  # rows differing only in link values: one
    counts = here.counts[order[starts]]
    summed_rows = (
        np.add.reduceat(per_row[order], starts, axis=0) % moduli if len(order) else per_row
    )
    weights = crt(summed_rows, moduli) if len(counts) else []
    first = Table(
        here.hand,
        here.partition,
        here.keys,
        counts,
        np.ones(len(counts), np.int64),
        [],
        np.zeros((len(counts), 0), np.int32),
    )
    return Contracted(first, weights, first_sizes, worlds, most, pairs)


def _sum_bound(weights: np.ndarray) -> int:
    """An integer at least the sum of the (nonnegative) weights."""
    if weights.dtype == object:
        return int(sum(weights))
    return int(float(weights.astype(np.float64).sum()) * (1 + 1e-9)) + 1


def combine(whole: Table, part: Table, sizes: Mapping[Key, int]) -> Table:
    """One table for a hand held as two parts (e.g. its own cards and a card it received): every
    pair of rows, counts added, each weight × Π C(count, part's count) (which of the hand's cards
    are the part's). `sizes`: the supply's groups under the joined partition."""
    partition = whole.partition.join(part.partition)
    a, _ = whole.regroup(partition, sizes)
    b, _ = part.regroup(partition, sizes)
    i = np.repeat(np.arange(a.rows), b.rows)
    j = np.tile(np.arange(b.rows), a.rows)
    counts = a.counts[i].astype(np.int64) + b.counts[j]
    fits = np.all(counts <= np.array(list(sizes.values()), dtype=np.int64), axis=1)
    i, j, counts = i[fits], j[fits], counts[fits]
    factor = np.ones(len(i), dtype=object)
    for g in range(counts.shape[1]):
        if b.counts[:, g].any():
            factor = factor * COMB[counts[:, g], b.counts[j, g].astype(np.int64)]
    return Table(
        whole.hand,
        partition,
        a.keys,
        counts.astype(np.int8),
        reduced(times(times(a.weights[i], b.weights[j]), factor)),
        [*a.links, *b.links],
        np.concatenate([a.values[i], b.values[j]], axis=1),
    ).merged()


def absorb(table: Table, card: Table, sizes: Mapping[Key, int]) -> Table:
    """`table` with a one-card table it is linked to folded in (for a contraction only): each
    row takes, besides its own cards, the card of the group its link value names. Taking them
    together counts C(left, own + 1) layouts instead of C(left, own) × (left - own): each row
    is weighted by its count of that group (which of them is the card)."""
    link = card.links[0]
    partition = table.partition.join(card.partition)
    whole, _ = table.regroup(partition, sizes)
    single, _ = card.regroup(partition, sizes)
    at = whole.links.index(link)
    rows, picks = _matching(whole.values[:, [at]].astype(np.int64), single.values.astype(np.int64))
    counts = whole.counts[rows].astype(np.int64) + single.counts[picks]
    group = np.argmax(single.counts[picks], axis=1)
    fits = np.all(counts <= np.array(list(sizes.values()), dtype=np.int64), axis=1)
    rows, counts, group = rows[fits], counts[fits], group[fits]
    factor = counts[np.arange(len(rows)), group]
    keep = [i for i in range(len(whole.links)) if i != at]
    return Table(
        whole.hand,
        partition,
        whole.keys,
        counts.astype(np.int8),
        times(whole.weights[rows], factor),
        [whole.links[i] for i in keep],
        whole.values[rows][:, keep],
    ).merged()
