"""Exact weights over hidden cards as small tables, coupled only by the deck and by links: the
representation of the filter for logs without `me` (`outside.py`), where the hidden worlds of a
4-player table are too many to list (16,305,240 at the deal).

The hidden cards are `supply[class]` cards of each class; each lies in some *place* (a hand, a
middle slot). A *table* records the cards of some places that observations have looked into:
each row says how many cards of each class each of its *columns* holds (a column is some of
one place's cards), with an exact integer weight: the likelihood of what was observed about
those cards, for each *physical* layout of cards the row stands for. Cards no table records are
the *pool*: every layout of them into the places' remaining slots is equally likely.

When a card of unknown class moves from a place of one table to a place of another, both tables
get a *link* column saying which class it was; rows of the two tables go together only with
equal values. The posterior of the hidden cards is then

    P(rows) ∝ Π_tables weight(row) × ways_within(row) × Π_class supply! / (Π_tables take! × rest!)

(`ways_within`: how the cards a table takes split between its columns; the last factor counts
the physical layouts: which of the identical-looking cards each table takes, the pool getting
the rest). Nothing about one table is multiplied by another until a question is asked:
`contract` then sums exactly by a dynamic programme over the tables in turn, whose state is what
is left of the supply and the values of the links still open, modulo a few primes (then the
Chinese remainder theorem). `count_worlds` counts the distinct hidden worlds the same way,
keeping for each state the set of link values still possible instead of a weight (one world can
end several histories).

Weights are exact integers (numpy int64 while safe, Python integers beyond).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.card_tables import (
    COMB,
    SAFE,
    SERIALS,
    Rows,
    TooLarge,
    crt,
    reduced,
    residues,
    summed,
    times,
)
from solver.hidden_cards import deal_worlds

PAIRS_BLOCK = 4_000_000  # state × take candidates examined at once in a contraction turn
PAIRS_LIMIT = 8_000_000  # (state, row) pairs of one contraction turn: more are refused (memory)


# -- exact integer weights -------------------------------------------------------------------------


def scaled(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator as integers, every entry scaled by one constant (the lcm of the
    denominators where the numerator is not 0; entries with numerator 0 are 0)."""
    numerator = np.asarray(numerator, dtype=np.int64)
    denominator = np.asarray(denominator, dtype=np.int64)
    live = numerator != 0
    present = np.unique(denominator[live])
    common = math.lcm(*(int(d) for d in present)) if len(present) else 1
    out = np.zeros(numerator.shape, dtype=np.int64)
    out[live] = numerator[live] * (common // denominator[live])
    return out


def groups(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that puts equal rows of a small non-negative int matrix together, and where each
    run of equal rows starts."""
    if len(matrix) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if matrix.shape[1] == 0:
        return np.arange(len(matrix)), np.zeros(1, dtype=np.int64)
    matrix = matrix.astype(np.int64)
    radix = matrix.max(axis=0) + 1
    if math.prod(int(r) for r in radix) < SAFE:
        place = np.concatenate(([1], np.cumprod(radix[:-1]))).astype(np.int64)
        keys = matrix @ place
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        return order, np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    order = np.lexsort(matrix.T[::-1])
    ordered = matrix[order]
    change = np.any(ordered[1:] != ordered[:-1], axis=1)
    return order, np.flatnonzero(np.concatenate(([True], change)))


def distinct(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The index of one row of each distinct row of `matrix`, and each row's distinct id."""
    order, starts = groups(matrix)
    ids = np.empty(len(order), dtype=np.int64)
    mark = np.zeros(len(order), dtype=np.int64)
    mark[starts] = 1
    ids[order] = np.cumsum(mark) - 1
    return order[starts], ids


# -- tables ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Table(Rows):
    """Rows of how many cards of each class each column holds [row, column, class] (int8), the
    place of each column, exact weights, and for each link the class [row, link] of the card
    that moved between this table and another one. A table is never changed in place."""

    places: tuple[int, ...]
    counts: np.ndarray
    weights: np.ndarray
    links: tuple[int, ...]
    values: np.ndarray
    serial: int = field(default_factory=lambda: next(SERIALS))

    @classmethod
    def empty(cls, place: int, classes: int) -> Table:
        """A column of no card yet: one row, weight 1."""
        return cls(
            (place,),
            np.zeros((1, 1, classes), np.int8),
            np.ones(1, np.int64),
            (),
            np.zeros((1, 0), np.int8),
        )

    @property
    def classes(self) -> int:
        return self.counts.shape[2]

    def column(self, place: int) -> int:
        return self.places.index(place)

    def merged(self) -> Table:
        """Equal rows (counts and link values) become one, weights added and reduced."""
        live = self.weights != 0
        counts, values, weights = self.counts[live], self.values[live], self.weights[live]
        flat = counts.reshape(len(counts), -1)
        order, starts = groups(np.concatenate([flat, values], axis=1))
        return self.like(
            counts=counts[order[starts]],
            weights=reduced(summed(weights[order], starts)),
            values=values[order[starts]],
        )

    def with_link(self, link: int, values: np.ndarray) -> Table:
        column = np.asarray(values, dtype=np.int8)[:, None]
        return self.like(links=(*self.links, link), values=np.hstack([self.values, column]))

    def without_column(self, place: int) -> Table:
        """The table without `place`'s column (which must hold no card)."""
        c = self.column(place)
        keep = [i for i in range(len(self.places)) if i != c]
        return self.like(places=tuple(self.places[i] for i in keep), counts=self.counts[:, keep, :])

    def with_column(self, place: int) -> Table:
        """The table with an empty column for `place`."""
        zeros = np.zeros((self.rows, 1, self.classes), np.int8)
        return self.like(places=(*self.places, place), counts=np.hstack([self.counts, zeros]))

    def without_links(self, links: Sequence[int]) -> Table:
        """The table with some link columns summed out."""
        keep = [i for i, link in enumerate(self.links) if link not in links]
        return self.like(
            links=tuple(self.links[i] for i in keep), values=self.values[:, keep]
        ).merged()

    def fitted(self, supply: np.ndarray) -> Table:
        """The rows that take no more cards of any class than the supply has."""
        return self.pick(np.flatnonzero(np.all(self.take() <= supply, axis=1)))

    def placed_together(self) -> Table:
        """Columns of the same place become one, each row × Π_class C(sum, part) (which of the
        place's cards are which column's: the same count of layouts)."""
        table = self
        while len(set(table.places)) < len(table.places):
            seen: dict[int, int] = {}
            for c, place in enumerate(table.places):
                if place in seen:
                    first = seen[place]
                    break
                seen[place] = c
            counts = table.counts.astype(np.int64)
            both = counts[:, first, :] + counts[:, c, :]
            factor = np.ones(table.rows, dtype=np.int64)
            for v in np.flatnonzero(counts[:, c, :].any(axis=0)):
                factor = factor * COMB[both[:, v], counts[:, c, v]]
            counts[:, first, :] = both
            keep = [i for i in range(len(table.places)) if i != c]
            table = table.like(
                places=tuple(table.places[i] for i in keep),
                counts=counts[:, keep, :].astype(np.int8),
                weights=times(table.weights, factor),
            )
        return table


def matching(
    left: np.ndarray, right: np.ndarray, limit: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with left[i] == right[j] (rows of small ints), i-major; refused before
    they are listed when there are more than `limit`."""
    if limit is not None and len(left) * len(right) > limit and left.shape[1] == 0:
        raise TooLarge(f"a sum would look at more than {limit:,} pairs")
    if left.shape[1] == 0:
        i = np.repeat(np.arange(len(left)), len(right))
        return i, np.tile(np.arange(len(right)), len(left))
    base = int(max(left.max(initial=0), right.max(initial=0))) + 1
    radix = base ** np.arange(left.shape[1], dtype=np.int64)
    lkey, rkey = left.astype(np.int64) @ radix, right.astype(np.int64) @ radix
    order = np.argsort(rkey, kind="stable")
    rkey = rkey[order]
    lo = np.searchsorted(rkey, lkey, side="left")
    hi = np.searchsorted(rkey, lkey, side="right")
    counts = hi - lo
    if limit is not None and int(counts.sum()) > limit:
        raise TooLarge(f"a sum would look at more than {limit:,} pairs")
    i = np.repeat(np.arange(len(left)), counts)
    offsets = np.arange(len(i)) - np.repeat(np.cumsum(counts) - counts, counts)
    return i, order[np.repeat(lo, counts) + offsets]


def matched_rows(a: Table, b: Table) -> int:
    """How many pairs of rows of two tables agree on the links they share."""
    shared = [link for link in a.links if link in b.links]
    if not shared:
        return a.rows * b.rows
    ka = a.values[:, [a.links.index(x) for x in shared]]
    kb = b.values[:, [b.links.index(x) for x in shared]]
    ua, ca = np.unique(ka, axis=0, return_counts=True)
    ub, cb = np.unique(kb, axis=0, return_counts=True)
    i, j = matching(ua, ub)
    return int((ca[i] * cb[j]).sum())


def join(a: Table, b: Table, supply: np.ndarray, limit: int | None = None) -> Table:
    """One table for two: every pair of rows with equal values on the links they share (those
    links then summed out), the columns side by side (a place's two columns made one), weights
    multiplied, rows the supply cannot serve dropped. `limit`: refuse more pairs than this."""
    shared = [link for link in a.links if link in b.links]
    ka = a.values[:, [a.links.index(x) for x in shared]]
    kb = b.values[:, [b.links.index(x) for x in shared]]
    if limit is not None and matched_rows(a, b) > limit:
        raise TooLarge(f"a table would have more than {limit:,} rows")
    i, j = matching(ka, kb)
    counts = np.concatenate([a.counts[i], b.counts[j]], axis=1)
    fits = np.all(counts.astype(np.int64).sum(axis=1) <= supply, axis=1)
    i, j, counts = i[fits], j[fits], counts[fits]
    keep_a = [x for x, link in enumerate(a.links) if link not in shared]
    keep_b = [x for x, link in enumerate(b.links) if link not in shared]
    table = Table(
        (*a.places, *b.places),
        counts,
        times(a.weights[i], b.weights[j]),
        tuple(a.links[x] for x in keep_a) + tuple(b.links[x] for x in keep_b),
        np.concatenate([a.values[i][:, keep_a], b.values[j][:, keep_b]], axis=1),
    )
    return table.placed_together().merged()


# -- the dynamic programme over the tables ----------------------------------------------------------


@dataclass
class Turn:
    """One table's turn: every (state before, row) pair that fits, the state it reaches and
    Π_class C(left, take) of the pair (which of the cards left the row takes)."""

    state: np.ndarray  # per pair, the state before (pairs sorted by it)
    row: np.ndarray
    reached: np.ndarray  # per pair, the state after
    ways: np.ndarray  # int64 per pair
    before: int  # states before the turn


@dataclass
class Plan:
    """The reachable states of the programme, table by table (`order`: the tables' indexes)."""

    order: list[int]
    turns: list[Turn]
    final: np.ndarray  # what is left of the supply in each final state [state, class]


def order_tables(tables: Sequence[Table], first: int | None) -> list[int]:
    """An order to sum in: `first` (if any), then greedily the table that leaves the fewest links
    open, then the fewest rows."""
    left = [i for i in range(len(tables)) if i != first]
    order = [] if first is None else [first]
    open_links: set[int] = set(tables[first].links) if first is not None else set()
    while left:
        best = min(left, key=lambda i: (len(open_links ^ set(tables[i].links)), tables[i].rows))  # noqa: B023 (used at once)
        left.remove(best)
        order.append(best)
        open_links ^= set(tables[best].links)
    return order


def plan(tables: Sequence[Table], supply: np.ndarray, order: list[int]) -> Plan:
    """The forward pass: which states each table's rows reach from the states before it."""
    supply = np.asarray(supply, dtype=np.int64)
    multi = np.flatnonzero(supply >= 2)  # classes whose binomials are not 0 or 1
    left = supply[None, :].copy()
    held = np.zeros((1, 0), dtype=np.int64)
    open_links: list[int] = []
    turns = []
    for index in order:
        table = tables[index]
        take = table.take()
        closing = [x for x, link in enumerate(table.links) if link in open_links]
        opening = [x for x, link in enumerate(table.links) if link not in open_links]
        kept = [k for k, link in enumerate(open_links) if link not in table.links]
        state, row = _fitting_pairs(
            left,
            held[:, [open_links.index(table.links[x]) for x in closing]],
            take,
            table.values[:, closing].astype(np.int64),
        )
        ways = np.ones(len(state), dtype=np.int64)
        for v in multi:
            if take[:, v].any():
                ways = ways * COMB[left[state, v], take[row, v]]
        after = np.concatenate(
            [
                left[state] - take[row],
                held[state][:, kept],
                table.values[row][:, opening].astype(np.int64),
            ],
            axis=1,
        )
        first, reached = distinct(after)
        turns.append(Turn(state, row, reached, ways, len(left)))
        open_links = [open_links[k] for k in kept] + [table.links[x] for x in opening]
        left, held = after[first, : len(supply)], after[first, len(supply) :]
    return Plan(order, turns, left)


def _fitting_pairs(
    left: np.ndarray, held: np.ndarray, take: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every (state, row) pair whose link values agree and whose row takes no more than the
    state has left, state-major. Rows are grouped by their take, so the fit is tested once per
    distinct take."""
    take_first, take_id = distinct(take)
    takes = take[take_first]
    used = np.flatnonzero(takes.any(axis=0))
    if held.shape[1]:
        state, row = matching(held, values, PAIRS_LIMIT)
        fit = np.ones(len(state), dtype=bool)
        for v in used:
            fit &= left[state, v] >= take[row, v]
        return state[fit], row[fit]
    # rows of each take, laid out take by take
    by_take = np.argsort(take_id, kind="stable")
    per_take = np.bincount(take_id, minlength=len(takes))
    starts = np.cumsum(per_take) - per_take
    found_s, found_r = [], []
    listed = 0
    block = max(1, PAIRS_BLOCK // max(len(takes), 1))
    for lo in range(0, len(left), block):
        chunk = left[lo : lo + block]
        fits = np.ones((len(chunk), len(takes)), dtype=bool)
        for v in used:
            fits &= chunk[:, v, None] >= takes[None, :, v]
        s, t = np.nonzero(fits)
        n = per_take[t]
        listed += int(n.sum())
        if listed > PAIRS_LIMIT:
            raise TooLarge(f"a sum would look at more than {PAIRS_LIMIT:,} pairs")
        s = np.repeat(s + lo, n)
        offsets = np.arange(len(s)) - np.repeat(np.cumsum(n) - n, n)
        found_s.append(s)
        found_r.append(by_take[np.repeat(starts[t], n) + offsets])
    return np.concatenate(found_s), np.concatenate(found_r)


# -- exact sums modulo primes ----------------------------------------------------------------------


def _is_prime(n: int) -> bool:
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17):  # deterministic below 3.4e14
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def primes(count: int) -> tuple[int, ...]:
    """The `count` largest primes below 2^31 (products of two residues fit int64)."""
    found: list[int] = []
    n = 2**31 - 1
    while len(found) < count:
        if _is_prime(n):
            found.append(n)
        n -= 2
    return tuple(found)


def _segment_sums(values: np.ndarray, segment: np.ndarray, size: int, moduli) -> np.ndarray:
    """Sums of `values` [pair, prime] by `segment` (sorted) into `size` rows, modulo."""
    out = np.zeros((size, len(moduli)), dtype=np.int64)
    if len(segment):
        starts = np.flatnonzero(np.concatenate(([True], segment[1:] != segment[:-1])))
        out[segment[starts]] = np.add.reduceat(values, starts, axis=0) % moduli
    return out


def contract(
    tables: Sequence[Table], supply: np.ndarray, asked: int | None = None
) -> tuple[int, list[int] | None]:
    """The exact total weight of the hidden worlds, Σ over one row of every table (equal values
    on every link) of Π weight × ways_within × the layouts of the supply; with `asked`, also that
    table's share of it, row by row (rows that fit no world get 0)."""
    if not tables:
        return 1, None
    order = order_tables(tables, asked)
    forward = plan(tables, supply, order)
    factors = [times(t.weights, t.ways_within()) for t in tables]
    bound = math.prod(math.factorial(int(n)) for n in supply)
    for f in factors:
        bound *= max(int(f.sum()), 1)
    moduli = np.array(primes(bound.bit_length() // 30 + 1), dtype=np.int64)
    completion = np.ones((len(forward.final), len(moduli)), dtype=np.int64)
    first_values = None
    for index, turn in zip(reversed(forward.order), reversed(forward.turns), strict=True):
        row = residues(factors[index], moduli)
        value = row[turn.row] * (turn.ways[:, None] % moduli) % moduli
        value = value * completion[turn.reached] % moduli
        if asked is not None and index == asked:
            first_values = value
        completion = _segment_sums(value, turn.state, turn.before, moduli)
    total = crt(completion[:1], moduli)[0] if len(completion) else 0
    if asked is None or first_values is None:
        return total, None
    turn = forward.turns[0]
    per_row = _segment_sums(
        first_values[np.argsort(turn.row, kind="stable")],
        np.sort(turn.row),
        tables[asked].rows,
        moduli,
    )
    return total, crt(per_row, moduli)


# -- how many distinct hidden worlds ----------------------------------------------------------------


COUNT_WORK = 5_000_000  # (set member, row) pairs a count of distinct worlds may go through
COUNT_CELLS = 20_000_000  # counts (one per state of the deck, per set of link values) it may hold


def count_worlds(tables: Sequence[Table], supply: np.ndarray, pooled: Sequence[int]) -> int:
    """How many distinct hidden worlds have positive probability. Each place must have at most
    one column, and no place with a column may have pooled slots (`pooled[place]`), so that a
    world is one row's counts per table and a deal of the rest into the pooled places.

    Several rows of a table may hold the same cards with other link values (other histories):
    each state of the programme keeps, instead of a weight, the set of value tuples of the open
    links that some row chosen so far allows, and counts the distinct choices of counts that
    reach it. Worlds of positive weight are those whose sets stay non-empty to the end.

    The sets can multiply (unlike the weights of `contract`, which only add up): past
    COUNT_WORK pairs of a member of a set and a row, or COUNT_CELLS counts held (each set
    holds one per state of the deck), the count is given up (TooLarge)."""
    work = 0
    supply = np.asarray(supply, dtype=np.int64)
    radix = np.concatenate(([1], np.cumprod(supply[:-1] + 1))).astype(np.int64)
    size = int(np.prod(supply + 1))
    every = (np.arange(size)[:, None] // radix) % (supply + 1)  # what is left, per state
    start = np.zeros(size, dtype=np.int64)
    start[size - 1] = 1  # the whole supply is left
    states: dict[frozenset, np.ndarray] = {frozenset({()}): start}
    open_links: list[int] = []
    for index in order_tables(tables, None):
        table = tables[index]
        closing = [link for link in table.links if link in open_links]
        opening = [link for link in table.links if link not in open_links]
        kept = [link for link in open_links if link not in table.links]
        at_open = [open_links.index(link) for link in kept]
        at_closing = [open_links.index(link) for link in closing]
        mine = [table.links.index(link) for link in closing]
        theirs = [table.links.index(link) for link in opening]
        chosen = _count_groups(table)
        moves = {}  # per distinct take: the states it fits and the states they reach
        for take, _, _ in chosen:
            key = take.tobytes()
            if key not in moves:
                fits = np.flatnonzero(np.all(every >= take, axis=1))
                moves[key] = (fits, fits - int(take @ radix))
        following: dict[frozenset, np.ndarray] = {}
        for relation, counts in states.items():
            by_closing: dict[tuple, list[tuple]] = {}
            for r in relation:
                by_closing.setdefault(tuple(r[k] for k in at_closing), []).append(
                    tuple(r[k] for k in at_open)
                )
            for take, allowed, multiplicity in chosen:
                work += len(allowed) * len(relation)
                if work > COUNT_WORK:
                    raise TooLarge(f"counting distinct worlds would take over {COUNT_WORK:,} steps")
                after = frozenset(
                    (*k, *(a[x] for x in theirs))
                    for a in allowed
                    for k in by_closing.get(tuple(a[x] for x in mine), ())
                )
                if not after:
                    continue
                source, reached = moves[take.tobytes()]
                if after not in following and (len(following) + 1) * size > COUNT_CELLS:
                    raise TooLarge(
                        f"counting distinct worlds would hold over {COUNT_CELLS:,} counts"
                    )
                target = following.setdefault(after, np.zeros(size, dtype=np.int64))
                target[reached] += counts[source] * multiplicity
        states = following
        open_links = kept + opening
    counts = states.get(frozenset({()}), np.zeros(size, dtype=np.int64))
    sizes = tuple(int(k) for k in pooled if k)
    total = 0
    for state in np.flatnonzero(counts):
        rest = tuple(int(n) for n in every[state])
        total += int(counts[state]) * _deals(sizes, rest)
    return total


@functools.lru_cache(maxsize=100_000)
def _deals(sizes: tuple[int, ...], rest: tuple[int, ...]) -> int:
    """Distinct ways (by class) to deal `rest` into places of `sizes`."""
    return deal_worlds(sizes, rest) if sizes else int(not any(rest))


def _count_groups(table: Table) -> list[tuple[np.ndarray, frozenset, int]]:
    """The table's distinct worlds (counts of every column) grouped by what they take and by the
    set of link value tuples they allow: (take, that set, how many distinct counts)."""
    flat = table.counts.reshape(table.rows, -1).astype(np.int64)
    first, ids = distinct(flat)
    allowed: dict[int, set] = {}
    for i, values in zip(ids.tolist(), table.values.tolist(), strict=True):
        allowed.setdefault(i, set()).add(tuple(values))
    take = table.take()
    tally: dict[tuple, int] = {}
    for i, row in enumerate(first.tolist()):
        key = (tuple(take[row].tolist()), frozenset(allowed[i]))
        tally[key] = tally.get(key, 0) + 1
    return [(np.array(k[0], dtype=np.int64), k[1], n) for k, n in tally.items()]


def flatten(tables: Sequence[Table], supply: np.ndarray, limit: int | None = None) -> Table:
    """Every table joined into one (small states only); `limit`: refuse a join of more pairs
    of rows than this (TooLarge)."""
    if not tables:
        raise ValueError("nothing to flatten")
    whole = tables[0]
    for table in tables[1:]:
        whole = join(whole, table, supply, limit)
    return whole
