"""Exact culprit counts for 6 Suspects, by bulk counting instead of one arrangement at a time.

Every arrangement of the unseen cards in the unseen slots is equally likely, so P(column c holds a
culprit) = (arrangements where it does) / (all arrangements). There are up to 12! arrangements, too
many to resolve one by one, so the count is split in two:

1. enumerate only where the unseen *special* cards go (at most 12·11·…·7 = 665,280 placements),
   and resolve all placements at once with numpy. With the specials placed, each column's total
   is an affine function of the plain values: a constant (the Swap's 4, seen plain cards) plus the
   unseen plain values of some slots, each with a coefficient (a Mirror or Torch can copy one);
2. the unseen plain values are exchangeable, so placements that give the same affine structure
   (same Police and Diamond columns, same constants, same multiset of per-slot coefficient
   vectors) have the same counts. They are grouped with `numpy.unique`, and each group is
   evaluated once over all orders of the unseen plain values (at most 6! = 720).

`tests/test_six_suspects_counter.py` checks the counts against the one-by-one resolution of
`rules.resolve` on random states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import factorial

import numpy as np

from models.six_suspects.rules import COLUMNS, SLOTS, Card, Deck, neighbour, partner

# Layout codes: 0-11 "the plain card that started in slot s"; then the special cards.
SWAP, TORCH_LEFT, TORCH_RIGHT, MIRROR, DIAMOND, POLICE = 12, 13, 14, 15, 16, 17
KIND_CODE = {
    "swap": SWAP,
    "torch-left": TORCH_LEFT,
    "torch-right": TORCH_RIGHT,
    "mirror": MIRROR,
    "diamond": DIAMOND,
    "police": POLICE,
}
# Effect codes after copying: the layout codes, where SWAP now means "the Swap's value", plus:
NOTHING, TORCH = 18, 19
OWN_EFFECT = np.array([*range(12), SWAP, TORCH, TORCH, MIRROR, DIAMOND, POLICE], dtype=np.int8)
LEFT = np.array([neighbour(s, -1) for s in range(len(SLOTS))])
RIGHT = np.array([neighbour(s, +1) for s in range(len(SLOTS))])
PARTNER = np.array([partner(s) for s in range(len(SLOTS))])
POWERS = 3 ** np.arange(len(COLUMNS))  # a slot's coefficients (0-2 per column) as one integer
CHUNK = 4096  # structures evaluated at once over the plain-value orders
POLICE_TOTAL = -(2**20)  # a Police column's total: below any real one, exact in float32
MIXERS = np.random.default_rng(1729).integers(1, 2**62, size=2 + 6 + 12) | 1  # row hash weights


@dataclass
class Counts:
    """Exact counts: arrangements in all, and those in which each column holds a culprit."""

    worlds: int
    culprit: list[int]  # per column A-F

    def probability(self, column: int) -> Fraction:
        return Fraction(self.culprit[column], self.worlds) if self.worlds else Fraction(0)


@lru_cache(maxsize=16)
def placements(free: int, specials: int) -> np.ndarray:
    """Every ordered choice of `specials` distinct positions among `free` (one row each); cached,
    since a session asks for the same sizes again and again."""
    chosen = np.zeros((1, 0), dtype=np.int64)
    for _ in range(specials):
        unused = np.ones((len(chosen), free), dtype=bool)
        np.put_along_axis(unused, chosen, False, axis=1)
        row, position = np.nonzero(unused)
        chosen = np.column_stack([chosen[row], position])
    chosen.setflags(write=False)
    return chosen


@dataclass
class Placements:
    """Every placement of the unseen special cards, as layout codes and special positions."""

    grid: np.ndarray  # (placement, slot) layout codes, int8
    position: dict[int, np.ndarray]  # special code -> its slot in each placement
    free: list[int]  # unseen slots
    unseen: list[Card]  # unseen cards, in deck order

    @property
    def plain_values(self) -> list[int]:
        """Doubled values of the unseen plain cards."""
        return [c.value2 for c in self.unseen if c.kind == "plain"]


def place(deck: Deck, seen: dict[int, Card]) -> Placements:
    """Enumerate where the unseen special cards can be, given the seen cards."""
    free = [s for s in range(len(SLOTS)) if s not in seen]
    unseen = [c for c in deck.cards if c not in seen.values()]
    specials = [KIND_CODE[c.kind] for c in unseen if c.kind != "plain"]
    chosen = placements(len(free), len(specials))
    base = np.arange(len(SLOTS), dtype=np.int8)
    position: dict[int, np.ndarray] = {}
    for slot, card in seen.items():
        if card.kind != "plain":
            base[slot] = KIND_CODE[card.kind]
            position[KIND_CODE[card.kind]] = np.full(len(chosen), slot)
    grid = np.tile(base, (len(chosen), 1))
    rows = np.arange(len(chosen))
    free_array = np.array(free, dtype=np.int64)
    for j, code in enumerate(specials):
        position[code] = free_array[chosen[:, j]]
        grid[rows, position[code]] = code
    return Placements(grid, position, free, unseen)


def resolve_all(placed: Placements) -> np.ndarray:
    """Steps 1-3 of the resolution for every placement at once: the effect code of each slot."""
    grid = placed.grid.copy()
    rows = np.arange(len(grid))
    position = dict(placed.position)
    if SWAP in position:  # step 1: the Swap's row neighbours exchange places
        left, right = LEFT[position[SWAP]], RIGHT[position[SWAP]]
        grid[rows, left], grid[rows, right] = placed.grid[rows, right], placed.grid[rows, left]
        for code, at in position.items():
            position[code] = np.where(at == left, right, np.where(at == right, left, at))

    own = OWN_EFFECT[grid]
    effects = own.copy()
    for code, towards in ((TORCH_LEFT, LEFT), (TORCH_RIGHT, RIGHT)):  # step 2: Torches copy
        if code in position:
            at = position[code]
            source = own[rows, towards[at]]
            effects[rows, at] = np.where(source == TORCH, NOTHING, source)

    other = effects[:, PARTNER]  # step 3: Mirror effects copy the other card of their column
    mirrored = np.where((other == MIRROR) | (other == NOTHING), NOTHING, other)
    return np.where(effects == MIRROR, mirrored, effects)


def structures(
    placed: Placements, effects: np.ndarray, deck: Deck, seen: dict[int, Card]
) -> tuple[np.ndarray, np.ndarray]:
    """One row per placement: [Police columns, Diamond columns, constant doubled totals, sorted
    coefficient codes of the free slots holding plain cards]; equal rows count the same. Also,
    per placement, the free slots in that sorted order (special cards' slots first)."""
    count = len(effects)
    top, bottom = effects[:, 0::2], effects[:, 1::2]  # (placement, column) each
    police = (top == POLICE) | (bottom == POLICE)
    diamond = ((top == DIAMOND) | (bottom == DIAMOND)) & ~police
    scored = ~(police | diamond)
    value_of_code = np.zeros(TORCH + 1, dtype=np.int16)
    swap_card = deck.card("swap")
    if swap_card is not None:
        value_of_code[SWAP] = swap_card.value2
    for slot, card in seen.items():
        if card.kind == "plain":
            value_of_code[slot] = card.value2
    constant = (value_of_code[top] + value_of_code[bottom]) * scored
    # codes[r, k]: which columns count the plain value that started in free slot k, as
    # sum over columns c of 3^c x (how many times c counts it: 0-2), an exact integer code
    free = placed.free
    slot_position = np.full(TORCH + 1, -1, dtype=np.int64)  # effect code -> free slot (-1: none)
    slot_position[free] = np.arange(len(free))
    weight = (POWERS * scored).astype(np.int32)
    codes = np.zeros((count, len(free) + 1), dtype=np.int32)  # the last column soaks up the -1s
    everyone = np.arange(count)
    for cell in range(len(SLOTS)):  # each (placement, free slot) pair once per cell: += is safe
        codes[everyone, slot_position[effects[:, cell]]] += weight[:, cell // 2]
    codes = codes[:, :-1]
    codes[placed.grid[:, free] >= SWAP] = -1  # a special card started there
    # sort each row's codes, remembering which slot each came from (16 > any number of slots)
    keyed = np.sort(codes * 16 + np.arange(len(free), dtype=np.int32), axis=1)
    specials = len(free) - len(placed.plain_values)
    bits = (2 ** np.arange(len(COLUMNS))).astype(np.int32)
    rows = np.column_stack([police @ bits, diamond @ bits, constant, keyed[:, specials:] // 16])
    return rows.astype(np.int16), keyed % 16


def plain_orders(plain_values: list[int]) -> np.ndarray:
    """Every order of the unseen plain cards, as indexes into `plain_values` (one row each)."""
    m = len(plain_values)
    return np.array(list(permutations(range(m))), dtype=np.int64).reshape(factorial(m), m)


def culprits(unique: np.ndarray, plain_values: list[int], diamond2: int) -> np.ndarray:
    """(structure, column, order): is the column a culprit when the plain cards lie in that order
    (the order's k-th card goes to the structure's k-th sorted slot)?"""
    columns, size = len(COLUMNS), len(unique)
    bits = 2 ** np.arange(columns)
    police = (unique[:, :1] & bits) > 0
    diamond = (unique[:, 1:2] & bits) > 0
    codes = unique[:, 2 + columns :]
    # a Police or Diamond column has no plain terms (see `structures`): its total is a constant,
    # far below every other total for the Police
    constant = np.where(diamond, diamond2, unique[:, 2 : 2 + columns])
    constant = np.where(police, POLICE_TOTAL, constant).astype(np.float32)
    coefficient = (codes[:, None, :] // POWERS[None, :, None]) % 3  # (structure, column, slot)
    values = np.array(plain_values, dtype=np.float32)[plain_orders(plain_values)]
    # small integers: float32 matrix products are exact here, and fast as one big product
    plain_part = coefficient.reshape(size * columns, -1).astype(np.float32) @ values.T
    totals = plain_part.reshape(size, columns, len(values)) + constant[:, :, None]
    return totals == totals.max(axis=1, keepdims=True)


def group_equal_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows, how often each occurs, and which distinct row each row is.

    Rows are grouped by a 64-bit hash (one fast integer sort); the grouping is then verified
    exactly, and the slow exact path (sorting whole rows) is taken if a hash ever collides."""
    keys = (rows.astype(np.int64) * MIXERS[: rows.shape[1]]).sum(axis=1)  # wraps: fine for a hash
    _, first, inverse, multiplicity = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    if not np.array_equal(rows[first][inverse], rows):
        exact = np.ascontiguousarray(rows).view(f"V{rows.itemsize * rows.shape[1]}").ravel()
        _, first, inverse, multiplicity = np.unique(
            exact, return_index=True, return_inverse=True, return_counts=True
        )
    return rows[first].astype(np.int64), multiplicity, inverse.ravel()


@dataclass
class Tally:
    """The grouped enumeration of one state, kept for the joint counts of the advice."""

    deck: Deck
    placed: Placements
    unique: np.ndarray  # distinct structures
    multiplicity: np.ndarray  # placements per structure
    inverse: np.ndarray  # placement -> structure
    order: np.ndarray  # (placement, k) -> the free slot whose code is k-th in sorted order
    per_structure: np.ndarray  # (structure, column) culprit counts over all plain orders
    shared: dict = field(default_factory=dict)  # what children with the same structures reuse

    @property
    def counts(self) -> Counts:
        culprit = self.multiplicity @ self.per_structure
        orders = factorial(len(self.placed.plain_values))
        return Counts(len(self.placed.grid) * orders, [int(x) for x in culprit])

    def by_position(self) -> np.ndarray:
        """[structure, j, i, column]: plain orders with plain card i at the j-th sorted slot in
        which the column holds a culprit (computed once, shared with children)."""
        if "by_position" not in self.shared:
            values = self.placed.plain_values
            m = len(values)
            orders = plain_orders(values)
            onehot = (orders[:, :, None] == np.arange(m)).reshape(len(orders), m * m)
            exact = exact_float(self.counts.worlds)
            split: np.ndarray = np.zeros((len(self.unique), len(COLUMNS), m * m), dtype=exact)
            for start in range(0, len(self.unique), CHUNK):
                block = culprits(self.unique[start : start + CHUNK], values, self.deck.diamond2)
                split[start : start + CHUNK] = block.astype(exact) @ onehot.astype(exact)
            grouped = split.reshape(len(self.unique), len(COLUMNS), m, m)
            self.shared["by_position"] = grouped.transpose(0, 2, 3, 1).copy()
        return self.shared["by_position"]

    def rank(self) -> np.ndarray:
        """(placement, free slot) -> sorted position of the plain card there (<0: a special)."""
        free = len(self.placed.free)
        plain = len(self.placed.plain_values)
        rank = np.empty_like(self.order)
        np.put_along_axis(rank, self.order, np.arange(free) - (free - plain), axis=1)
        return rank


def tally(deck: Deck, seen: dict[int, Card]) -> Tally:
    placed = place(deck, seen)
    rows, order = structures(placed, resolve_all(placed), deck, seen)
    unique, multiplicity, inverse = group_equal_rows(rows)
    per_structure = np.zeros((len(unique), len(COLUMNS)), dtype=np.int64)
    for start in range(0, len(unique), CHUNK):
        block = culprits(unique[start : start + CHUNK], placed.plain_values, deck.diamond2)
        per_structure[start : start + CHUNK] = block.sum(axis=2)
    return Tally(deck, placed, unique, multiplicity, inverse, order, per_structure)


def count(deck: Deck, seen: dict[int, Card]) -> Counts:
    """Exact culprit counts given the cards seen at some slots (slot index -> card)."""
    return count_seen(deck, tuple(sorted((slot, card.name) for slot, card in seen.items())))


@lru_cache(maxsize=65536)
def count_seen(deck: Deck, seen: tuple[tuple[int, str], ...]) -> Counts:
    """`count`, cached: a session, a replay or a puzzle check asks for the same states again."""
    return tally(deck, {slot: deck.by_name(name) for slot, name in seen}).counts


def joint(t: Tally) -> np.ndarray:
    """(free slot, unseen card, column): arrangements with that card at that slot in which the
    column holds a culprit. One pass over the tally, for every possible next look at once."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, size, columns = len(free), len(t.unique), len(COLUMNS)
    plain_at = [ci for ci, c in enumerate(unseen) if c.kind == "plain"]
    m = len(plain_at)
    result = np.zeros((n, len(unseen), columns), dtype=np.int64)
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    for ci, card in enumerate(unseen):  # a special card: where it lies in each placement
        if card.kind != "plain":
            k = free_index[placed.position[KIND_CODE[card.kind]]]
            result[:, ci] = segment_rows(k * size + t.inverse, t.per_structure, size, n)
    if m:  # a plain card: which sorted position its slot has in each placement
        rank = t.rank()
        p, k = np.nonzero(rank >= 0)
        rows = t.by_position().reshape(size * m, m * columns)  # (u, j) x (i, column)
        got = segment_rows((k * size + t.inverse[p]) * m + rank[p, k], rows, size * m, n)
        for i, ci in enumerate(plain_at):
            result[:, ci] = got.reshape(n, m, columns)[:, i]
    return result


def segment_rows(
    keys: np.ndarray, table: np.ndarray, per_segment: int, segments: int
) -> np.ndarray:
    """For keys = segment x per_segment + row: per segment, the sum of the table's rows, each
    counted as often as its key occurs (exact integers)."""
    key, weight = np.unique(keys, return_counts=True)
    picked = table[key % per_segment] * weight[:, None].astype(table.dtype)
    return segment_sums(key // per_segment, picked, segments)


def plain_children(t: Tally) -> np.ndarray:
    """(k1, i, k2, card, column): arrangements with the i-th unseen *plain* card at free slot k1
    and `card` (an index into the unseen cards) at free slot k2 in which the column holds a
    culprit: the joint counts of every child state "slot k1 holds plain card i" in one pass.

    Each placement adds its structure's counts to the (k1, k2) cells it fits: read from
    `by_position` when the card at k2 is special, and from orders counted by the positions of two
    plain cards at once ("pair", built for one i at a time) when it is plain. The weights of
    (k2, structure, positions) are counted once per k1 and kept sparse."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, columns, size = len(free), len(COLUMNS), len(t.unique)
    plain_at = [ci for ci, c in enumerate(unseen) if c.kind == "plain"]
    m = len(plain_at)
    result = np.zeros((n, m, n, len(unseen), columns), dtype=np.int64)
    if m == 0:
        return result
    rank = t.rank()
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    position_rows = t.by_position().reshape(size * m, m * columns)  # (u, j) x (i, column)
    plain_weights = []
    for k1 in range(n):
        rows = rank[:, k1] >= 0
        structure, r1 = t.inverse[rows], rank[rows, k1]
        for ci, card in enumerate(unseen):  # a special card at k2
            if card.kind != "plain":
                k2 = free_index[placed.position[KIND_CODE[card.kind]][rows]]
                got = segment_rows((k2 * size + structure) * m + r1, position_rows, size * m, n)
                result[k1, :, :, ci] = got.reshape(n, m, columns).swapaxes(0, 1)  # (i, k2, col)
        ranks = rank[rows]
        second = ranks >= 0
        second[:, k1] = False
        p, k2 = np.nonzero(second)
        key = ((k2 * size + structure[p]) * m + r1[p]) * m + ranks[p, k2]
        plain_weights.append(np.unique(key, return_counts=True))
    orders = plain_orders(placed.plain_values)
    exact = exact_float(t.counts.worlds)
    for i in range(m):  # a plain card at k2
        onehot = (
            (orders == i)[:, :, None, None] & (orders[:, None, :, None] == np.arange(m))
        ).reshape(len(orders), m * m * m)  # (order) x (j1, j2, i2)
        pair: np.ndarray = np.zeros((size, columns, m * m * m), dtype=exact)
        for start in range(0, size, CHUNK):
            block = culprits(t.unique[start : start + CHUNK], placed.plain_values, t.deck.diamond2)
            pair[start : start + CHUNK] = block.astype(exact) @ onehot.astype(exact)
        # rows (structure, j1, j2), contiguous, so that picking rows is a fast gather
        by_rows = pair.reshape(size, columns, m * m, m).transpose(0, 2, 1, 3)
        pair_rows = np.ascontiguousarray(by_rows).reshape(size * m * m, columns * m)
        for k1, (key, weight) in enumerate(plain_weights):
            picked = pair_rows[key % (size * m * m)] * weight[:, None].astype(exact)
            got = segment_sums(key // (size * m * m), picked, n).reshape(n, columns, m)
            for i2, ci in enumerate(plain_at):
                result[k1, i, :, ci] = got[:, :, i2]
    return result


def exact_float(total: int) -> type:
    """The narrowest float type whose sums stay exact up to `total` (float32 below 2**24)."""
    return np.float32 if total < 2**24 else np.float64


def segment_sums(segment: np.ndarray, values: np.ndarray, segments: int) -> np.ndarray:
    """Sum of `values` rows by `segment` (sorted ascending), as exact integers, one row per
    segment (zeros for empty ones)."""
    out = np.zeros((segments, *values.shape[1:]), dtype=np.int64)
    if len(segment) == 0:
        return out
    starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    out[segment[starts]] = np.rint(np.add.reduceat(values, starts, axis=0)).astype(np.int64)
    return out


def special_children(t: Tally) -> np.ndarray:
    """(k1, s, k2, card, column): like `plain_children`, for the child states "free slot k1 holds
    the s-th unseen special card" (s counts the unseen cards that are special, in deck order)."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, size, columns = len(free), len(t.unique), len(COLUMNS)
    special_at = [ci for ci, c in enumerate(unseen) if c.kind != "plain"]
    plain_at = [ci for ci, c in enumerate(unseen) if c.kind == "plain"]
    m = len(plain_at)
    result = np.zeros((n, len(special_at), n, len(unseen), columns), dtype=np.int64)
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    where = [free_index[placed.position[KIND_CODE[unseen[ci].kind]]] for ci in special_at]
    rank = t.rank()
    rows = t.by_position().reshape(size * m, m * columns) if m else np.zeros((0, 0))
    for s, k1 in enumerate(where):
        for ci, k2 in zip(special_at, where, strict=True):  # another special card at k2
            if ci != special_at[s]:
                got = segment_rows((k1 * n + k2) * size + t.inverse, t.per_structure, size, n * n)
                result[:, s, :, ci] = got.reshape(n, n, columns)
        if m:  # a plain card at k2
            p, k2 = np.nonzero(rank >= 0)
            key = (((k1[p] * n + k2) * size + t.inverse[p]) * m) + rank[p, k2]
            got = segment_rows(key, rows, size * m, n * n).reshape(n, n, m, columns)
            for i, ci in enumerate(plain_at):
                result[:, s, :, ci] = got[:, :, i]
    return result
