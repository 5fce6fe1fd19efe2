"""Where to look next, whom to vote for, and whether to announce (6 Suspects).

A look shows one card; every arrangement of the unseen cards stays equally likely, so the card at
an unseen slot is each unseen card with probability 1/n. The value of a state with H looks left
is the probability that the final vote hits a culprit when every look is chosen as well as
possible (expectimax):

    V0 = max over columns of P(column is a culprit)
    VH = max over slots s of  sum over cards c of  1/n · V(H-1)(state + "s holds c")

One pass of `counter.joint` gives the counts for every (slot, card) at once, so V1 costs one
enumeration; V2 needs the same counts for every child state (slot, card), which
`counter.item_children` and `counter.placed_children` also take from that one enumeration
(`child_look_totals`). Longer horizons come from the tablebase where it reaches (tablebase.py:
every state of a game, on the bundled deck), else are truncated to two looks (said in the
output).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from models.six_suspects.counter import (
    Counts,
    Tally,
    item_children,
    joint,
    placed_children,
    tally,
)
from models.six_suspects.ending import Stage, closed_reason, stage
from models.six_suspects.log import Log, Told
from models.six_suspects.posterior import opening_table, turned
from models.six_suspects.rules import COLUMNS, SLOTS, Card, Deck, column_of, row_of, slot_index

EXACT_HORIZON = 2
DEFAULT_TWO_LOOKS_FROM = 2  # seen cards from which the default horizon values two looks
ANNOUNCE_GAIN = Fraction(1, 100)  # announce when one more look adds less than this


@dataclass
class Look:
    slot: int
    value: Fraction  # P(the final vote hits a culprit) if I look here now and play well after
    information: float  # expected bits of uncertainty removed about who is a culprit


@dataclass
class Advice:
    counts: Counts
    vote: list[int]  # best columns now (ties)
    p_vote: Fraction
    horizon: int  # looks valued (depth)
    exact: bool  # True when every look left is valued; else the values are lower bounds
    looks: list[Look]  # best first
    announce: bool
    announce_reason: str
    requested: int  # the looks I have left (from the log, or as told)
    can_announce: bool = False  # announcing is open (everyone has looked 4 times)


def guilt_entropy(culprit: np.ndarray, worlds: float) -> float:
    """Sum over columns of the binary entropy of 'this suspect is a culprit' (bits)."""
    p = np.clip(culprit / worlds, 1e-300, 1.0)
    q = np.clip(1.0 - culprit / worlds, 1e-300, 1.0)
    return float(-(p * np.log2(p) + q * np.log2(q)).sum())


def one_look_values(
    deck: Deck, seen: dict[int, Card]
) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    """Counts now, V1 of looking at each unseen slot, and each look's expected information.

    The rules look the same after any symmetry of the table (`Symmetry`), so a state is first
    turned into its canonical form and answered from a cache."""
    key, symmetry = canonical(seen, deck)
    counts, values, information = _one_look_canonical(deck, key)
    culprit = [counts.culprit[symmetry.column(c)] for c in range(len(COLUMNS))]
    back = {s: symmetry.slot(s) for s in range(len(SLOTS)) if s not in seen}
    return (
        Counts(counts.worlds, culprit),
        {s: values[t] for s, t in back.items()},
        {s: information[t] for s, t in back.items()},
    )


TORCHES = {"torch-left": "torch-right", "torch-right": "torch-left"}


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of the rules (RULINGS.md §2): turn the table `turn` columns to the left (rows
    wrap around), swap the rows if `flip`, and first read it in a mirror if `mirror` (column c
    goes to -c: A and D stay, B and F change places, C and E). The mirror makes every left a
    right, so it also exchanges Torch-Left and Torch-Right: a Torch-Left copying its left
    neighbour becomes a Torch-Right copying its right one. The Swap's two neighbours, a Mirror's
    partner, columns and totals are unchanged by all three."""

    turn: int = 0
    flip: int = 0
    mirror: bool = False

    def column(self, column: int) -> int:
        """Where column `column` goes."""
        return ((-column if self.mirror else column) - self.turn) % len(COLUMNS)

    def slot(self, slot: int) -> int:
        """Where `slot` goes."""
        return slot_index(self.column(column_of(slot)), row_of(slot) ^ self.flip)

    def card(self, card: Card, deck: Deck) -> Card:
        """What `card` becomes: the other Torch in a mirror, else itself."""
        other = deck.card(TORCHES[card.kind]) if self.mirror and card.kind in TORCHES else None
        return other or card


def symmetries(deck: Deck) -> list[Symmetry]:
    """The table's 12 turns and row swaps, and with them their 12 mirror images when the deck has
    both Torches or neither (with one Torch, its mirror image is a card the deck lacks)."""
    kinds = {c.kind for c in deck.cards}
    mirrors = (False, True) if len(kinds & set(TORCHES)) != 1 else (False,)
    return [
        Symmetry(turn, flip, mirror)
        for mirror in mirrors
        for turn in range(len(COLUMNS))
        for flip in (0, 1)
    ]


def canonical(seen: dict[int, Card], deck: Deck) -> tuple[tuple[tuple[int, str], ...], Symmetry]:
    """The smallest image of the seen cards under the deck's symmetries, and the symmetry used."""
    images = (
        (tuple(sorted((g.slot(s), g.card(c, deck).name) for s, c in seen.items())), g)
        for g in symmetries(deck)
    )
    return min(images, key=lambda image: image[0])


@lru_cache(maxsize=4096)
def _one_look_canonical(
    deck: Deck, key: tuple[tuple[int, str], ...]
) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    if not key:  # nothing seen: every look's counts are the opening table's, turned
        table = opening_table(deck)
        by_look = [
            [turned(table.first[card.name], column_of(slot)).culprit for card in deck.cards]
            for slot in range(len(SLOTS))
        ]
        return values_from(table.empty, list(range(len(SLOTS))), np.array(by_look))
    t = tally(deck, {slot: deck.by_name(name) for slot, name in key})
    return values_from(t.counts, t.placed.free, joint(t))


def values_of(t: Tally) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    """Counts, V1 of each next look and its information, from one state's tally."""
    return values_from(t.counts, t.placed.free, joint(t))


def values_from(
    counts: Counts, free: list[int], table: np.ndarray
) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    """Counts, V1 of each next look and its information, from the joint counts
    (free slot, unseen card, column) of every next look."""
    unseen = table.shape[1]
    values, information = {}, {}
    before = guilt_entropy(np.array(counts.culprit, dtype=float), counts.worlds)
    per_card = counts.worlds // unseen if unseen else 0
    for k, slot in enumerate(free):
        values[slot] = Fraction(int(table[k].max(axis=1).sum()), counts.worlds)
        after = sum(guilt_entropy(table[k, c].astype(float), per_card) for c in range(unseen))
        information[slot] = before - after / unseen
    return counts, values, information


def look_values(
    deck: Deck, seen: dict[int, Card], horizon: int
) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    """V_horizon of looking at each unseen slot first (horizon 1 or 2), and the information.

    For horizon 2 each child state "slot s holds card c" needs its own one-look values: when c is
    a placed card the child's joint counts come from `counter.placed_children`, when it is an
    item (a plain card, or a Diamond or Police counted as one) from `counter.item_children`: one
    pass over this state's tally for all of them."""
    if horizon < 2 or len(seen) > len(SLOTS) - 2:  # with one slot left, one look sees everything
        return one_look_values(deck, seen)
    if not seen:  # every slot is alike: value A1 from its twelve children, copy it everywhere
        counts, _, information = one_look_values(deck, seen)
        best = [max(one_look_values(deck, {0: card})[1].values()) for card in deck.cards]
        value = sum(best, Fraction(0)) / len(deck.cards)
        return counts, dict.fromkeys(information, value), information
    parent = tally(deck, seen)
    counts, _, information = values_of(parent)
    totals = child_look_totals(parent)
    scale = counts.worlds  # the child's worlds x the unseen cards
    deeper = {
        slot: Fraction(int(totals[k1].max(axis=1).sum()), scale)
        for k1, slot in enumerate(parent.placed.free)
    }
    return counts, deeper, information


def child_look_totals(parent: Tally) -> np.ndarray:
    """(k1, card, k2): for the child state "free slot k1 holds that unseen card", the numerator
    of the one-look value of free slot k2 (the child's arrangements in which a vote after that
    look hits a culprit, summed over the cards it shows); -1 where k2 = k1.

    When the card is placed the child's joint counts come from `counter.placed_children`, when
    it is an item (a plain card, or a Diamond or Police counted as one) from
    `counter.item_children`: one pass over the parent's tally for every child."""
    placed = parent.placed
    n = len(placed.free)
    best_item = item_children(parent).max(axis=4).sum(axis=3)  # (k1, i, k2)
    best_placed = placed_children(parent).max(axis=4).sum(axis=3)  # (k1, s, k2)
    totals = np.empty((n, len(placed.unseen), n), dtype=np.int64)
    totals[:, placed.item_at] = best_item
    totals[:, placed.placed_at] = best_placed
    totals[np.arange(n), :, np.arange(n)] = -1  # the slot just seen is no look
    return totals


def best_vote(counts: Counts) -> Fraction:
    return Fraction(max(counts.culprit), counts.worlds)


def advise(
    log: Log, horizon: int | None = None, looks: int | None = None, where: Stage | None = None
) -> Advice:
    """The advice of every front end (`suggest`, the view of `play` and of the web page): the
    same look and value for the same state.

    `where`: where the game stands (`ending.stage`, which counts the looks I have left);
    `looks`, without it: the looks I have left, as told at this state. `horizon`: the looks
    valued, never more than those left (a look that does not exist is worth nothing). By
    default, as many as the tablebase reaches from this state (tablebase.py: k + H ≤ 5 on the
    bundled deck), else two live, or one while fewer than two cards are seen (a live two-look
    table is slow then). Valuing every look left is the optimal policy, exactly; valuing fewer
    gives a lower bound of what the looks left can reach, and of the value of this advice
    followed at every look (it values at least as much)."""
    from models.six_suspects.tablebase import reach, table_looks

    if where is None:
        told = None if looks is None else Told(looks, log.events, by_option=True)
        where = stage(log, told)
    seen = log.seen_cards()
    left = where.looks_left
    deepest = max(reach(log.deck, len(seen)), EXACT_HORIZON)
    if horizon is None:
        live = EXACT_HORIZON if len(seen) >= DEFAULT_TWO_LOOKS_FROM else 1
        horizon = max(reach(log.deck, len(seen)), live)
    valued = min(horizon, left, deepest, len(SLOTS) - len(seen))
    tabled = table_looks(log.deck, seen, valued) if valued > 1 else None
    if valued == 0:
        counts, ranked = tally_counts(log.deck, seen), []
    else:
        if tabled is not None:
            counts = tally_counts(log.deck, seen)
            values, information = tabled
        else:
            counts, values, information = valued_looks(log.deck, canonical_seen(seen), valued)
        ranked = sorted(
            (Look(s, values[s], information[s]) for s in values),
            key=lambda look: (-look.value, -look.information, look.slot),
        )
    p_vote = best_vote(counts)
    vote = [c for c, n in enumerate(counts.culprit) if Fraction(n, counts.worlds) == p_vote]
    closed = closed_reason(where)
    if closed is not None:
        announce, reason = False, closed
    elif p_vote == 1:
        announce, reason = True, "you are certain"
    else:
        gain = (ranked[0].value if ranked else p_vote) - p_vote
        announce = gain < ANNOUNCE_GAIN
        reason = (
            f"the best next look adds {float(gain):.3f} to your chance "
            f"({'less' if announce else 'more'} than {float(ANNOUNCE_GAIN):.2f}); "
            "every look you take also lets the others look"
        )
    exact = valued == min(left, len(SLOTS) - len(seen))
    return Advice(
        counts, vote, p_vote, valued, exact, ranked, announce, reason, left, where.announce_open
    )


def tally_counts(deck: Deck, seen: dict[int, Card]) -> Counts:
    from models.six_suspects.posterior import count  # the cached count (one card: turned)

    return count(deck, seen)


def canonical_seen(seen: dict[int, Card]) -> tuple[tuple[int, Card], ...]:
    return tuple(sorted(seen.items(), key=lambda item: item[0]))


@lru_cache(maxsize=256)
def valued_looks(
    deck: Deck, seen: tuple[tuple[int, Card], ...], horizon: int
) -> tuple[Counts, dict[int, Fraction], dict[int, float]]:
    """`look_values`, remembered: a page shows the view and the advice of the same state."""
    return look_values(deck, dict(seen), horizon)
