"""6 Suspects look policies by brute force, for tests only: every layout, every look.

Independent of counter.py, advice.py and tablebase.py. The layouts consistent with the seen cards
are listed one by one (every order of the unseen cards in the unseen slots) and resolved by
`resolve_many`, a numpy transcription of RULINGS.md §2 held to `rules.resolve` by the tests. A
state's value with H looks left is then computed on that list of worlds by definition:

    V0(worlds)    = max over columns of the share of worlds in which it holds a culprit
    VH(worlds, s) = sum over cards c of  P(c at s) · max over s' V(H-1)(worlds with c at s, s')

with no symmetry and no shared count. The same recursion values the random policy (the mean over
slots instead of the max) and the greedy one (at each state, the slot with the best one-look
value, ties by the expected information then by slot, as `advice.advise` ranks looks).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial

import numpy as np

from models.six_suspects.rules import SLOTS, Card, Deck, neighbour, partner

COLUMNS = 6
# Effect codes of `resolve_many`, far from every doubled value (|value| <= 2000)
DIAMOND, POLICE, MIRROR, TORCH, NOTHING = 10_001, 10_002, 10_003, 10_004, 10_005
OUT = -(10**9)  # a Police column's total: below every real one
LEFT = np.array([neighbour(s, -1) for s in range(len(SLOTS))])
RIGHT = np.array([neighbour(s, +1) for s in range(len(SLOTS))])
PARTNER = np.array([partner(s) for s in range(len(SLOTS))])


def orders(n: int) -> np.ndarray:
    """Every order of n things, one row each (n! rows), built by inserting one thing at a time."""
    rows = np.zeros((1, 0), dtype=np.int8)
    for item in range(n):
        grown = [np.insert(rows, at, item, axis=1) for at in range(item + 1)]
        rows = np.concatenate(grown)
    return rows


def worlds(deck: Deck, seen: dict[int, Card]) -> np.ndarray:
    """Every layout extending `seen`: (world, slot) -> index of the card in `deck.cards`."""
    free = [s for s in range(len(SLOTS)) if s not in seen]
    unseen = [i for i, c in enumerate(deck.cards) if c not in seen.values()]
    layouts = np.zeros((1, len(SLOTS)), dtype=np.int8)
    for slot, card in seen.items():
        layouts[0, slot] = deck.cards.index(card)
    layouts = np.repeat(layouts, factorial(len(free)), axis=0)
    layouts[:, free] = np.array(unseen, dtype=np.int8)[orders(len(free))]
    return layouts


def resolve_many(deck: Deck, layouts: np.ndarray) -> np.ndarray:
    """(world, column): is the column a culprit? RULINGS.md §2, step by step, for every world."""
    rows = np.arange(len(layouts))
    kinds = [c.kind for c in deck.cards]
    if "swap" in kinds:  # 1. the Swap's row neighbours exchange places
        at = np.argmax(layouts == kinds.index("swap"), axis=1)
        left, right = LEFT[at], RIGHT[at]
        layouts = layouts.copy()
        layouts[rows, left], layouts[rows, right] = layouts[rows, right], layouts[rows, left]
    own_code = {"diamond": DIAMOND, "police": POLICE, "mirror": MIRROR}
    own = np.array(
        [
            own_code.get(c.kind, TORCH if c.kind.startswith("torch") else c.value2)
            for c in deck.cards
        ]
    )[layouts]
    effect = own.copy()
    for kind, towards in (("torch-left", LEFT), ("torch-right", RIGHT)):  # 2. Torches copy
        if kind in kinds:
            at = np.argmax(layouts == kinds.index(kind), axis=1)
            source = own[rows, towards[at]]
            effect[rows, at] = np.where(source == TORCH, NOTHING, source)
    other = effect[:, PARTNER]  # 3. Mirror effects copy the other card of their column
    copied = np.where((other == MIRROR) | (other == NOTHING), NOTHING, other)
    effect = np.where(effect == MIRROR, copied, effect)
    top, bottom = effect[:, 0::2], effect[:, 1::2]  # 4. column totals
    value = np.where(effect >= DIAMOND, 0, effect)
    totals = value[:, 0::2] + value[:, 1::2]
    totals = np.where((top == DIAMOND) | (bottom == DIAMOND), deck.diamond2, totals)
    totals = np.where((top == POLICE) | (bottom == POLICE), OUT, totals)
    best = totals.max(axis=1, keepdims=True)  # 5. culprits: the best total, not out
    return (totals == best) & (totals > OUT)


@dataclass
class Values:
    """A state's values with H looks left: each look's (optimal play after it), and the value of
    the greedy and of the random policy."""

    looks: dict[int, Fraction]
    greedy: Fraction
    random: Fraction

    @property
    def optimal(self) -> Fraction:
        return max(self.looks.values())


def entropy(culprit: np.ndarray, total: int) -> float:
    """Sum over columns of the binary entropy of 'this column is a culprit', in bits."""
    bits = 0.0
    for n in culprit.tolist():
        for part in (n, total - n):
            if 0 < part < total:
                bits -= part / total * np.log2(part / total)
    return bits


def by_card(layouts: np.ndarray, guilty: np.ndarray, slot: int):
    """The worlds split by the card at `slot`: (its worlds, their culprits), one pair per card."""
    order = np.argsort(layouts[:, slot], kind="stable")
    _, starts = np.unique(layouts[order, slot], return_index=True)
    for chosen in np.split(order, starts[1:]):
        yield layouts[chosen], guilty[chosen]


def one_look(layouts: np.ndarray, guilty: np.ndarray, free: list[int]) -> np.ndarray:
    """(free slot, card, column): the worlds with that card at that slot in which the column
    holds a culprit, counted over the (world, culprit) pairs."""
    world, column = np.nonzero(guilty)
    cards = int(layouts.max()) + 1
    table = np.zeros((len(free), cards, COLUMNS), dtype=np.int64)
    for k, slot in enumerate(free):
        key = layouts[world, slot].astype(np.int64) * COLUMNS + column
        table[k] = np.bincount(key, minlength=cards * COLUMNS).reshape(cards, COLUMNS)
    return table


def greedy_slot(layouts: np.ndarray, guilty: np.ndarray, free: list[int], table: np.ndarray) -> int:
    """The best one-look slot, ties by expected information, then by slot number (`table`: the
    state's `one_look` counts)."""
    n = len(layouts)
    before = entropy(guilty.sum(axis=0), n)
    ranked = []
    for k, slot in enumerate(free):
        shown = np.bincount(layouts[:, slot], minlength=table.shape[1])  # worlds per card
        after = sum(entropy(table[k, c], int(m)) * int(m) for c, m in enumerate(shown) if m)
        ranked.append((-int(table[k].max(axis=1).sum()), -(before - after / n), slot))
    return min(ranked)[2]


def expectimax(layouts: np.ndarray, guilty: np.ndarray, free: list[int], horizon: int) -> Values:
    """The values of the state whose worlds are `layouts` (culprits `guilty`), with `horizon`
    looks left among the `free` slots (horizon >= 1)."""
    n = len(layouts)
    if horizon == 1 or len(free) == 1:  # after this look, the vote
        table = one_look(layouts, guilty, free)
        looks = {s: Fraction(int(table[k].max(axis=1).sum()), n) for k, s in enumerate(free)}
        greedy = looks[greedy_slot(layouts, guilty, free, table)]
        return Values(looks, greedy, sum(looks.values(), Fraction(0)) / len(free))
    looks, randoms, greedy_of = {}, [], {}
    for slot in free:
        rest = [s for s in free if s != slot]
        children = [
            (Fraction(len(part), n), expectimax(part, part_guilty, rest, horizon - 1))
            for part, part_guilty in by_card(layouts, guilty, slot)
        ]
        looks[slot] = sum((p * child.optimal for p, child in children), Fraction(0))
        greedy_of[slot] = sum((p * child.greedy for p, child in children), Fraction(0))
        randoms.append(sum((p * child.random for p, child in children), Fraction(0)))
    chosen = greedy_slot(layouts, guilty, free, one_look(layouts, guilty, free))
    return Values(looks, greedy_of[chosen], sum(randoms, Fraction(0)) / len(free))


def values(deck: Deck, seen: dict[int, Card], horizon: int) -> Values:
    """Every layout extending `seen`, resolved, then `expectimax` with `horizon` looks left."""
    layouts = worlds(deck, seen)
    free = [s for s in range(len(SLOTS)) if s not in seen]
    step = 2**19  # worlds resolved at once: bounded memory for the 10! worlds of 2 cards seen
    guilty = np.concatenate(
        [resolve_many(deck, layouts[i : i + step]) for i in range(0, len(layouts), step)]
    )
    return expectimax(layouts, guilty, free, horizon)
