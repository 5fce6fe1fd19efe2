"""Exact culprit counts for 6 Suspects, by bulk counting instead of one arrangement at a time.

Every arrangement of the unseen cards in the unseen slots is equally likely, so P(column c holds a
culprit) = (arrangements where it does) / (all arrangements). There are up to 12! arrangements, too
many to resolve one by one, so the count is split in two:

1. enumerate only where some unseen special cards go, and resolve all placements at once with
   numpy. The other unseen cards are *items*: the plain cards, and the Diamond and the Police when
   `items_for` counts them as items. Only the Swap, the Torches and the Mirror decide which
   slots each column reads; an item moves and copies nothing, it only gives the slots that read
   it a value or an effect. So with the other cards placed, each column's total is a function of
   the items in the slots it reads: a constant (the Swap's 4, seen plain cards) plus the items'
   values, each with a coefficient (a Mirror or Torch can copy one), unless one of them is a
   Police (out) or a Diamond (its total);
2. the items are exchangeable, so placements that give the same structure (same fixed Police and
   Diamond columns, same constants, same multiset of per-slot coefficient vectors) have the same
   counts. They are grouped with `numpy.unique`, and each group is evaluated once over all orders
   of the items.

Which unseen specials are items is a trade between the two steps: with both Diamond and Police
placed, two plain cards seen leave 151,200 placements and 4! orders; as items, 5,040 placements
and 6! orders (`items_for` says when). The opening states, 0 or 1 card seen, come from a table
instead (`posterior.py`).

`tests/test_six_suspects_counter.py` checks the counts against the one-by-one resolution of
`rules.resolve` on random states; `tests/test_six_suspects_fast_paths.py` checks every choice of
items against it and against each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import factorial

import numpy as np
from threadpoolctl import threadpool_limits

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
CHUNK_CELLS = (
    2**20
)  # (structure, column, order) cells evaluated at once: small enough for the cache
POLICE_TOTAL = -(2**20)  # a Police column's total: below any real one, exact in float32
PAIR_CELLS = 2**26  # item-pair counts computed for every item at once up to this size
KEEP_CULPRITS = 2**25  # structures x orders up to which a tally keeps its `culprits` blocks
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
    """Every placement of the placed cards (unseen specials that are not items), as layout codes
    and special positions; the items fill the free slots left, in every order."""

    grid: np.ndarray  # (placement, slot) layout codes, int8
    position: dict[int, np.ndarray]  # special code -> its slot in each placement
    free: list[int]  # unseen slots
    unseen: list[Card]  # unseen cards, in deck order
    item_at: list[int]  # which unseen cards are items (indexes into `unseen`)

    @property
    def items(self) -> list[Card]:
        return [self.unseen[i] for i in self.item_at]

    @property
    def placed_at(self) -> list[int]:
        """Which unseen cards are placed (indexes into `unseen`)."""
        return [i for i in range(len(self.unseen)) if i not in self.item_at]


def items_for(seen: list[Card], unseen: list[Card]) -> frozenset[str]:
    """The special kinds to count as items (every choice gives the same counts; only the time
    differs). Measured on random states with 2-4 cards seen, by kind of card, for the posterior
    and for two-look advice:

    - the Diamond, once a plain card is seen: each seen plain card is one item fewer to order,
      so the six times fewer placements win (two plain cards seen: 30,240 placements x 5! orders,
      about 3x faster than 151,200 x 4!);
    - the Police, once two plain cards are seen, or one with the Diamond seen. A Diamond column
      must keep its reads while the Police is an item (the Police may land there and put it
      out), so more placements fall into different groups; it pays only with few cards left to
      order (two plain cards seen: two-look advice 2x faster than with the Diamond alone; the
      Diamond and a plain card seen: 1.7x).
    """
    plain_seen = sum(c.kind == "plain" for c in seen)
    kinds = {c.kind for c in unseen}
    diamond_seen = any(c.kind == "diamond" for c in seen)
    loose = set()
    if plain_seen >= 1 and "diamond" in kinds:
        loose.add("diamond")
    police_pays = (plain_seen >= 2 and "diamond" in loose) or (diamond_seen and plain_seen >= 1)
    if "police" in kinds and police_pays:
        loose.add("police")
    return frozenset(loose)


def place(deck: Deck, seen: dict[int, Card], loose: frozenset[str] | None = None) -> Placements:
    """Enumerate where the placed cards can be, given the seen cards; `loose` names the special
    kinds counted as items (default: `items_for`)."""
    free = [s for s in range(len(SLOTS)) if s not in seen]
    unseen = [c for c in deck.cards if c not in seen.values()]
    if loose is None:
        loose = items_for(list(seen.values()), unseen)
    item_at = [i for i, c in enumerate(unseen) if c.kind == "plain" or c.kind in loose]
    specials = [KIND_CODE[c.kind] for i, c in enumerate(unseen) if i not in item_at]
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
    return Placements(grid, position, free, unseen, item_at)


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
    coefficient codes of the free slots holding items]; equal rows count the same. Also, per
    placement, the free slots in that sorted order (placed cards' slots first)."""
    count = len(effects)
    top, bottom = effects[:, 0::2], effects[:, 1::2]  # (placement, column) each
    police = (top == POLICE) | (bottom == POLICE)
    diamond = ((top == DIAMOND) | (bottom == DIAMOND)) & ~police
    scored = ~(police | diamond)
    # which columns' items matter: not a Police column's; a Diamond column's only if the Police
    # is an item (it may land there and put the column out)
    counted = ~police if any(c.kind == "police" for c in placed.items) else scored
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
    weight = (POWERS * counted).astype(np.int32)
    codes = np.zeros((count, len(free) + 1), dtype=np.int32)  # the last column soaks up the -1s
    everyone = np.arange(count)
    for cell in range(len(SLOTS)):  # each (placement, free slot) pair once per cell: += is safe
        codes[everyone, slot_position[effects[:, cell]]] += weight[:, cell // 2]
    codes = codes[:, :-1]
    codes[placed.grid[:, free] >= SWAP] = -1  # a placed card started there
    # sort each row's codes, remembering which slot each came from (16 > any number of slots)
    keyed = np.sort(codes * 16 + np.arange(len(free), dtype=np.int32), axis=1)
    specials = len(free) - len(placed.item_at)
    bits = (2 ** np.arange(len(COLUMNS))).astype(np.int32)
    rows = np.column_stack([police @ bits, diamond @ bits, constant, keyed[:, specials:] // 16])
    return rows.astype(np.int16), keyed % 16


@lru_cache(maxsize=16)
def item_orders(m: int) -> np.ndarray:
    """Every order of m items, as indexes into the item list (one row each)."""
    orders = np.array(list(permutations(range(m))), dtype=np.int64).reshape(factorial(m), m)
    orders.setflags(write=False)
    return orders


def culprits(unique: np.ndarray, items: list[Card], diamond2: int) -> np.ndarray:
    """(structure, column, order): is the column a culprit when the items lie in that order
    (the order's k-th item goes to the structure's k-th sorted slot)?

    A column has two cards, each reading at most one slot, so it reads at most two item slots
    (or one slot twice): its total is a constant plus at most two looked-up values, in exact
    integers. No matrix product: a small one is slow when another process holds a core.
    A Diamond or Police effect is carried in the same integer, far outside the range of the
    values (`effect_codes`), and decoded once the two look-ups are added."""
    columns, size = len(COLUMNS), len(unique)
    m = len(items)
    bits = 2 ** np.arange(columns)
    codes = unique[:, 2 + columns :]
    coefficient = (codes[:, None, :] // POWERS[None, :, None]) % 3  # (structure, column, slot)
    # (structure column, slot), with a slot m that holds nothing and is read with weight 0
    weight = np.zeros((size * columns, m + 1), dtype=np.int64)
    weight[:, :m] = coefficient.reshape(size * columns, m)
    reads = weight > 0
    how_many = reads.sum(axis=1)  # 0, 1 or 2
    slot_a = np.where(how_many > 0, reads.argmax(axis=1), m)
    slot_b = np.where(how_many == 2, m - reads[:, ::-1].argmax(axis=1), m)
    rows = np.arange(size * columns)
    # look-up rows: (weight, slot) -> weight x (the code of the item in that slot), per order
    constant = unique[:, 2 : 2 + columns]
    bound, diamond, police, number = effect_codes(constant, items, diamond2)
    code = [
        c.value2 if c.kind == "plain" else {"diamond": diamond, "police": police}[c.kind]
        for c in items
    ]
    by_slot: np.ndarray = np.zeros((m + 1, factorial(m)), dtype=number)
    by_slot[:m] = np.array(code, dtype=number)[item_orders(m).T]
    lookup = (np.arange(3, dtype=number)[:, None, None] * by_slot).reshape(3 * (m + 1), -1)
    fixed = np.where((unique[:, :1] & bits) > 0, police, 0)
    fixed = np.where((unique[:, 1:2] & bits) > 0, diamond, fixed)
    start: np.ndarray = (constant + fixed).reshape(-1, 1).astype(number)
    totals = lookup[weight[rows, slot_a] * (m + 1) + slot_a]
    totals += lookup[weight[rows, slot_b] * (m + 1) + slot_b]
    totals += start
    # decode: a Diamond band total becomes the Diamond's; a Police band total stays where it is,
    # below every other total (and every layout has a column without a Police effect)
    if any(c.kind == "diamond" for c in items):
        np.putmask(totals, totals > bound, number(diamond2))
    elif (fixed == diamond).any():  # only whole rows can hold a Diamond effect
        rows_with = (fixed == diamond).reshape(-1)
        some = totals[rows_with]
        np.putmask(some, some > bound, number(diamond2))
        totals[rows_with] = some
    by_column = totals.reshape(size, columns, -1)
    return by_column == by_column.max(axis=1, keepdims=True)


def effect_codes(
    constant: np.ndarray, items: list[Card], diamond2: int
) -> tuple[int, int, int, type]:
    """(bound, Diamond code, Police code, integer type): every total without an effect lies
    within ±bound; one or two Diamond codes put it in [3, 9] x bound, and any Police code at or
    below -7 x bound whatever else is read; the type holds every sum exactly."""
    values = [abs(c.value2) for c in items if c.kind == "plain"]
    largest = int(np.abs(constant).max(initial=0))
    bound = largest + 2 * max(values, default=0) + abs(diamond2) + 1
    for number in (np.int16, np.int32, np.int64):
        if 40 * bound < np.iinfo(number).max:
            break
    return bound, 4 * bound, -16 * bound, number


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
    per_structure: np.ndarray  # (structure, column) culprit counts over all item orders
    shared: dict = field(default_factory=dict)  # what children with the same structures reuse

    @property
    def counts(self) -> Counts:
        culprit = self.multiplicity @ self.per_structure
        orders = factorial(len(self.placed.item_at))
        return Counts(len(self.placed.grid) * orders, [int(x) for x in culprit])

    def blocks(self) -> Iterator[tuple[slice, np.ndarray]]:
        """`culprits` of the structures, a chunk at a time (kept when small: advice reads them
        once per item)."""
        items, diamond2 = self.placed.items, self.deck.diamond2
        step = max(1, CHUNK_CELLS // (len(COLUMNS) * factorial(len(items))))
        chunks = [slice(start, start + step) for start in range(0, len(self.unique), step)]
        if len(self.unique) * factorial(len(items)) > KEEP_CULPRITS:
            for chunk in chunks:
                yield chunk, culprits(self.unique[chunk], items, diamond2)
            return
        if "culprits" not in self.shared:
            self.shared["culprits"] = [culprits(self.unique[c], items, diamond2) for c in chunks]
        yield from zip(chunks, self.shared["culprits"], strict=True)

    def by_position(self) -> np.ndarray:
        """[structure, j, i, column]: item orders with item i at the j-th sorted slot in which
        the column holds a culprit (computed once, shared with children)."""
        if "by_position" not in self.shared:
            m = len(self.placed.item_at)
            orders = item_orders(m)
            onehot = (orders[:, :, None] == np.arange(m)).reshape(len(orders), m * m)
            exact = exact_float(self.counts.worlds)
            split: np.ndarray = np.zeros((len(self.unique), len(COLUMNS), m * m), dtype=exact)
            with one_thread():
                for chunk, block in self.blocks():
                    split[chunk] = block.astype(exact) @ onehot.astype(exact)
            grouped = split.reshape(len(self.unique), len(COLUMNS), m, m)
            self.shared["by_position"] = grouped.transpose(0, 2, 3, 1).copy()
        return self.shared["by_position"]

    def rank(self) -> np.ndarray:
        """(placement, free slot) -> sorted position of the item there (<0: a placed card)."""
        free = len(self.placed.free)
        items = len(self.placed.item_at)
        rank = np.empty_like(self.order)
        np.put_along_axis(rank, self.order, np.arange(free) - (free - items), axis=1)
        return rank


def tally(deck: Deck, seen: dict[int, Card], loose: frozenset[str] | None = None) -> Tally:
    """The grouped enumeration of a state; `loose`: which special kinds are items (default:
    `items_for`; every choice gives the same counts)."""
    placed = place(deck, seen, loose)
    rows, order = structures(placed, resolve_all(placed), deck, seen)
    unique, multiplicity, inverse = group_equal_rows(rows)
    t = Tally(deck, placed, unique, multiplicity, inverse, order, np.zeros(0))
    per_structure = np.zeros((len(unique), len(COLUMNS)), dtype=np.int64)
    for chunk, block in t.blocks():
        per_structure[chunk] = np.count_nonzero(block, axis=2)
    t.per_structure = per_structure
    return t


def joint(t: Tally) -> np.ndarray:
    """(free slot, unseen card, column): arrangements with that card at that slot in which the
    column holds a culprit. One pass over the tally, for every possible next look at once."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, size, columns = len(free), len(t.unique), len(COLUMNS)
    item_at = placed.item_at
    m = len(item_at)
    result = np.zeros((n, len(unseen), columns), dtype=np.int64)
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    for ci in placed.placed_at:  # a placed card: where it lies in each placement
        k = free_index[placed.position[KIND_CODE[unseen[ci].kind]]]
        result[:, ci] = segment_rows(k * size + t.inverse, t.per_structure, size, n)
    if m:  # an item: which sorted position its slot has in each placement
        rank = t.rank()
        p, k = np.nonzero(rank >= 0)
        rows = t.by_position().reshape(size * m, m * columns)  # (u, j) x (i, column)
        got = segment_rows((k * size + t.inverse[p]) * m + rank[p, k], rows, size * m, n)
        for i, ci in enumerate(item_at):
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


def item_children(t: Tally) -> np.ndarray:
    """(k1, i, k2, card, column): arrangements with the i-th item at free slot k1 and `card` (an
    index into the unseen cards) at free slot k2 in which the column holds a culprit: the joint
    counts of every child state "slot k1 holds item i" in one pass.

    Each placement adds its structure's counts to the (k1, k2) cells it fits: read from
    `by_position` when the card at k2 is placed, and from orders counted by the positions of two
    items at once ("pair", built for one i at a time) when it is an item. The weights of
    (k2, structure, positions) are counted once per k1 and kept sparse."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, columns, size = len(free), len(COLUMNS), len(t.unique)
    item_at = placed.item_at
    m = len(item_at)
    result = np.zeros((n, m, n, len(unseen), columns), dtype=np.int64)
    if m == 0:
        return result
    rank = t.rank()
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    position_rows = t.by_position().reshape(size * m, m * columns)  # (u, j) x (i, column)
    item_weights = []
    for k1 in range(n):
        rows = rank[:, k1] >= 0
        structure, r1 = t.inverse[rows], rank[rows, k1]
        for ci in placed.placed_at:  # a placed card at k2
            k2 = free_index[placed.position[KIND_CODE[unseen[ci].kind]][rows]]
            got = segment_rows((k2 * size + structure) * m + r1, position_rows, size * m, n)
            result[k1, :, :, ci] = got.reshape(n, m, columns).swapaxes(0, 1)  # (i, k2, col)
        ranks = rank[rows]
        second = ranks >= 0
        second[:, k1] = False
        p, k2 = np.nonzero(second)
        key = ((k2 * size + structure[p]) * m + r1[p]) * m + ranks[p, k2]
        item_weights.append(np.unique(key, return_counts=True))
    exact = exact_float(t.counts.worlds)
    for i, pair in enumerate(pair_tables(t, exact)):  # an item at k2
        # rows (structure, j1, j2), contiguous, so that picking rows is a fast gather
        pair_rows = pair.reshape(size * m * m, m * columns)
        for k1, (key, weight) in enumerate(item_weights):
            picked = pair_rows[key % (size * m * m)] * weight[:, None].astype(exact)
            got = segment_sums(key // (size * m * m), picked, n).reshape(n, m, columns)
            for i2, ci in enumerate(item_at):
                result[k1, i, :, ci] = got[:, i2, :]
    return result


@lru_cache(maxsize=16)
def grouped_orders(m: int) -> np.ndarray:
    """[j, i, k]: the k-th order (an index into `item_orders(m)`) with item i at sorted slot j."""
    orders = item_orders(m)
    by_slot = [np.argsort(orders[:, j], kind="stable").reshape(m, -1) for j in range(m)]
    grouped = np.stack(by_slot)
    grouped.setflags(write=False)
    return grouped


def pair_tables(t: Tally, exact: type) -> Iterator[np.ndarray]:
    """For each item i, [structure, j1, j2, i2, column]: item orders with item i at the j1-th
    sorted slot and item i2 at the j2-th in which the column holds a culprit.

    For each (j1, i) only the (m-1)! orders with item i at j1 are read (`grouped_orders`), and
    split by (j2, i2) with one small matrix product. All items at once when the tables fit in
    PAIR_CELLS (each chunk's culprits converted and regrouped once), else one item at a time."""
    m = len(t.placed.item_at)
    size, columns = len(t.unique), len(COLUMNS)
    grouped = grouped_orders(m)
    orders = item_orders(m)
    # onehot[j1, i]: ((j2, i2), (m-1)!): does the k-th order with item i at j1 hold i2 at j2
    onehot = (orders[grouped][..., None] == np.arange(m)).reshape(m, m, -1, m * m)
    onehot = onehot.transpose(0, 1, 3, 2).astype(exact)
    together = size * columns * m**4 <= PAIR_CELLS
    for first in range(m) if not together else [None]:
        wanted = range(m) if first is None else [first]
        pairs: np.ndarray = np.zeros((len(wanted), size, m, m, m, columns), dtype=exact)
        with one_thread():
            for chunk, block in t.blocks():
                # (order, structure column): picking orders is then a copy of whole rows
                by_order: np.ndarray = np.ascontiguousarray(
                    block.reshape(-1, block.shape[2]).T, dtype=exact
                )
                structures = by_order.shape[1] // columns
                for j1 in range(m):
                    by_item = by_order[grouped[j1].ravel()].reshape(m, -1, by_order.shape[1])
                    for w, i in enumerate(wanted):
                        split = onehot[j1, i] @ by_item[i]  # ((j2, i2), (structure, column))
                        pairs[w, chunk, j1] = split.reshape(m, m, structures, columns).transpose(
                            2, 0, 1, 3
                        )
        yield from pairs


def one_thread() -> threadpool_limits:
    """Matrix products on one thread: these are small, and on a busy machine a second BLAS
    thread waiting for a core made them 2-4 times slower (measured on the 2-core machine)."""
    return threadpool_limits(limits=1, user_api="blas")


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


def placed_children(t: Tally) -> np.ndarray:
    """(k1, s, k2, card, column): like `item_children`, for the child states "free slot k1 holds
    the s-th placed card" (s counts the unseen cards that are placed, in deck order)."""
    placed = t.placed
    free, unseen = placed.free, placed.unseen
    n, size, columns = len(free), len(t.unique), len(COLUMNS)
    placed_at, item_at = placed.placed_at, placed.item_at
    m = len(item_at)
    result = np.zeros((n, len(placed_at), n, len(unseen), columns), dtype=np.int64)
    free_index = np.full(len(SLOTS), -1)
    free_index[free] = np.arange(n)
    where = [free_index[placed.position[KIND_CODE[unseen[ci].kind]]] for ci in placed_at]
    rank = t.rank()
    rows: np.ndarray = t.by_position().reshape(size * m, m * columns) if m else np.zeros((0, 0))
    for s, k1 in enumerate(where):
        for ci, k2 in zip(placed_at, where, strict=True):  # another placed card at k2
            if ci != placed_at[s]:
                got = segment_rows((k1 * n + k2) * size + t.inverse, t.per_structure, size, n * n)
                result[:, s, :, ci] = got.reshape(n, n, columns)
        if m:  # an item at k2
            p, k2 = np.nonzero(rank >= 0)
            key = (((k1[p] * n + k2) * size + t.inverse[p]) * m) + rank[p, k2]
            got = segment_rows(key, rows, size * m, n * n).reshape(n, n, m, columns)
            for i, ci in enumerate(item_at):
                result[:, s, :, ci] = got[:, :, i]
    return result
