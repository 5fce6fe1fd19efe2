"""The exact filter for Suspeição: one small table per looked-into hand (solver/card_tables.py).

The hidden cards are the opponents' hands and the draw pile. A hand's slots are *pooled* (nothing
has looked into them: together with the pile, an exchangeable pool) or *explicit* (recorded in
the hand's table: how many cards of each group it holds, the groups being what the hand's
observations tell apart, with the likelihood of everything observed about the hand as the
weight). Nothing about one hand is ever multiplied by another: the hands are coupled only by
the finite deck, and that is summed exactly when a question is asked (`contract`).

- A draw, or a random card moving out of a pooled hand, is a pool card: nothing to record.
- A given card leaving a hand keeps the rows where the hand holds a card of its group.
- A FORCE or a `fact` needs the hand's composition: its pooled slots are drawn from the supply
  (every draw, weighted by how many layouts give it) and the groups split by the requirement.
- A random card moving out of a looked-into hand: its table records which group the card was in
  a new *link*, and the receiving hand holds a one-card table of the same link; the two tables'
  rows go together only with equal link values. That card joins the receiver's own table when an
  observation needs the whole hand.
- A hand whose own cards have all left keeps its table as a factor on its links.

Weights are exact integers, for every physical layout a row stands for (RULINGS.md §4).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from models.suspeicao.rules import Deck, Requirement, requirement
from models.suspeicao.steps import (
    PILE,
    Enter,
    Fact,
    Force,
    Hidden,
    Isolate,
    Leave,
    Setup,
    Step,
    Swap,
)
from solver.card_tables import (
    COMB,
    ROWS_LIMIT,
    Contracted,
    Key,
    Partition,
    Table,
    TooLarge,
    combine,
    compositions,
    contract,
    distinct_rows,
    group_sizes,
    join,
    join_within,
    joined_rows,
    matched_rows,
    order_tables,
    runs,
)

GUILTY = "incriminating"  # a predicate of the round's four incriminating cards
JOIN_TRIED = (
    200_000  # two linked tables are joined when their rows that agree on links pair at most
)
JOIN_KEPT = 30_000  # ... this, and the joined table has at most this many rows
JOINS_KEPT = 32  # joins a state of the filter keeps for its sums (`Belief.joined`)
SMALL_SUM = 2_000  # a sum whose tables have this many rows in all is taken as it is
ABSORB_LOOKED = 4_000_000  # a sum's table takes in a table linked to it alone when a join
# would look at about this many pairs of rows or fewer
SPLIT_ROWS = 100_000  # a hand's table that split over every group of its sum, with the cards
# it received, would have about more rows than this (and than SPLIT_TIMES its own table) is
# asked as it is (`Belief._split_sum`)
SPLIT_TIMES = 4
SPLIT_PAIRS = 4_000_000  # ... unless that sum would pair more states and rows in all its turns,
SPLIT_WORK = 1  # or more than this times the rows the whole table would have (or join, or
# split that many when its rows come back): the table is then split as before (the sum apart
# is given up before listing them)


class Refused(Exception):
    """Solving exactly after `event` would need more memory than the limits allow."""

    def __init__(self, event: int, why: str):
        super().__init__(event, why)
        self.event, self.why = event, why


class Impossible(Exception):
    """No hidden world is consistent with the steps up to `event`."""

    def __init__(self, event: int):
        super().__init__(event)
        self.event = event


@dataclass
class HandPosterior:
    """One opponent's whole hand after a contraction: distinct rows of group counts with exact
    weights. Within a group no table tells the cards apart, so which of them the hand holds is
    a uniform draw from the group's cards in the supply (`members`)."""

    keys: list[Key]
    rows: np.ndarray  # [row, group] counts
    weights: np.ndarray  # exact weights (Python integers)
    members: list[list[str]]  # the supply's cards of each group
    worlds: int | None  # (None: not counted, see `Belief.worlds`)

    @functools.cached_property
    def total(self) -> int:
        return int(sum(self.weights))

    @functools.cached_property
    def distinct(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct rows with their weights added. The asked table's rows also tell apart
        the other hands of its table, so one hand's rows repeat: 600,733 rows of a 5-player
        prefix were 1,766 distinct ones. (`rows` stays as it is: a drawn state reads it.)"""
        order, starts = runs(self.rows)
        if len(order) == len(starts):
            return self.rows, self.weights
        return self.rows[order[starts]], np.add.reduceat(self.weights[order], starts)

    @functools.cached_property
    def expected(self) -> list[Fraction]:
        """The expected number of cards of each group in the hand."""
        rows, weights = self.distinct
        sums = (weights[:, None] * rows.astype(object)).sum(axis=0)
        return [Fraction(int(x), self.total) for x in sums]

    def chance_of(self, card: str) -> Fraction:
        """P(the hand holds `card`): its group's expected count over the group's size."""
        g = next(i for i, m in enumerate(self.members) if card in m)
        return self.expected[g] / len(self.members[g])

    def _split(self, kind_of: Callable[[str], int], kinds: int) -> np.ndarray:
        """heaps[group, kind]: how many cards of each kind each group has."""
        heaps = np.zeros((len(self.members), kinds), dtype=np.int64)
        for g, members in enumerate(self.members):
            for c in members:
                heaps[g, kind_of(c)] += 1
        return heaps

    def kinds(self, kind_of: Callable[[str], int], kinds: int) -> dict[tuple[int, ...], Fraction]:
        """The exact distribution of how many of the hand's cards are of each kind (a
        multivariate hypergeometric draw within each group). Groups of one kind only add to
        that kind; rows are grouped by what is left before the draws are summed."""
        heaps = self._split(kind_of, kinds)
        rows, weights = self.distinct
        pure = (heaps > 0).sum(axis=1) <= 1
        sure = rows[:, pure].astype(np.int64) @ (heaps[pure] > 0).astype(np.int64)
        mixed = np.flatnonzero(~pure)
        keyed = np.concatenate([sure, rows[:, mixed].astype(np.int64)], axis=1)
        parts = []  # (weight, ways of the row's draws, ways of each outcome): whole numbers
        for row, weight in _grouped(keyed, weights):
            mix, ways = {tuple(row[:kinds]): 1}, 1
            for g, taken in zip(mixed, row[kinds:], strict=True):
                if taken:
                    heap = tuple(heaps[g].tolist())
                    mix = _convolve(mix, _draws(heap, int(taken)))
                    ways *= math.comb(sum(heap), int(taken))
            parts.append((weight, ways, mix))
        common = math.lcm(*(ways for _, ways, _ in parts)) if parts else 1
        sums: dict[tuple[int, ...], int] = {}
        for weight, ways, mix in parts:
            scale = weight * (common // ways)
            for k, n in mix.items():
                sums[k] = sums.get(k, 0) + scale * n
        return {k: Fraction(n, common * self.total) for k, n in sums.items()}

    def chance_none(self, test: Callable[[str], bool]) -> Fraction:
        """P(the hand holds no card passing `test`)."""
        none = Fraction(0)
        for (passing, _), p in self.kinds(lambda c: 0 if test(c) else 1, 2).items():
            if passing == 0:
                none += p
        return none


def spread(held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each (row, group) where a hand holds a card of the group (`held` [row, group]), row by
    row: a random card of the hand leaving it. Refused past ROWS_LIMIT, as every other way a
    table grows is: a 5-player prefix built a table of 7.4 million rows this way, and took
    27 s to refuse a later sum."""
    rows, groups = np.nonzero(held >= 1)
    if len(rows) > ROWS_LIMIT:
        raise TooLarge(f"a hand's table would have more than {ROWS_LIMIT:,} rows")
    return rows, groups


def _fitting(fits: np.ndarray, part_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row, draw) pair where the draw fits the row, row by row and draws in order, from
    which draws fit each distinct part of a row (`fits` [part, draw]; `part_of` each row's).
    The limit is on the pairs that fit: a 6-player prefix was refused for 28,361 rows times
    every draw of two cards, most of which did not fit."""
    per_part = fits.sum(axis=1)
    per_row = per_part[part_of]
    total = int(per_row.sum())
    if total > ROWS_LIMIT:
        raise TooLarge(f"a hand's table would have more than {ROWS_LIMIT:,} rows")
    draws = np.flatnonzero(fits.ravel()) % fits.shape[1]  # part by part, in order
    first_of_part = np.cumsum(per_part) - per_part
    within = np.arange(total) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    rows = np.repeat(np.arange(len(part_of)), per_row)
    return rows, draws[np.repeat(first_of_part[part_of], per_row) + within]


def _grouped(keys: np.ndarray, weights: np.ndarray) -> list[tuple[list[int], int]]:
    """The distinct rows of `keys` with their weights added."""
    order, starts = runs(keys)
    sums = np.add.reduceat(weights[order], starts) if len(order) else weights
    return [(keys[order[s]].tolist(), int(w)) for s, w in zip(starts, sums, strict=True)]


@functools.lru_cache(maxsize=4096)
def _draws(heaps: tuple[int, ...], taken: int) -> dict[tuple[int, ...], int]:
    """A uniform draw of `taken` cards from heaps of each kind: in how many of the
    C(sum(heaps), taken) draws there are so many of each kind."""
    return {
        tuple(int(x) for x in split): math.prod(
            math.comb(n, r) for n, r in zip(heaps, split, strict=True)
        )
        for split in compositions(taken, heaps)
    }


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for k1, p1 in a.items():
        for k2, p2 in b.items():
            k = tuple(x + y for x, y in zip(k1, k2, strict=True))
            out[k] = out.get(k, 0) + p1 * p2
    return out


class Belief:
    """The hidden cards of one round, seen from `me`'s seat."""

    def __init__(self, setup: Setup, deck: Deck):
        self.bluff = deck.bluff_rate
        self.protect = deck.options.get("force_reveal") == "protect"
        self.incriminating = set(setup.incriminating)
        self.requirements = deck.requirements()
        self.cards = {card.name: card for card in deck.cards}
        self.attributes: dict[str, frozenset[str]] = {
            name: frozenset({GUILTY} if name in self.incriminating else set())
            for name in self.cards
        }
        for req in self.requirements:
            self.predicate(req)
        self.opponents = list(setup.opponents)
        self.supply = set(setup.hidden)  # every hidden card (in a hand or the pile)
        self.pooled = {**dict.fromkeys(setup.opponents, setup.hand_size), PILE: setup.pile}
        self.explicit = dict.fromkeys(setup.opponents, 0)  # each hand's cards in its table
        self.tables: dict[str, Table] = {}  # hand -> the table holding its explicit cards
        self.received: dict[str, list[Table]] = {p: [] for p in setup.opponents}  # one-card
        self.factors: list[Table] = []  # tables of emptied hands, still linked
        self.links = 0
        self.event = 0  # the last event applied
        self.untied: set[tuple[int, int]] = set()  # pairs of tables too big to join
        self._asked: dict[str, HandPosterior] = {}
        self._joint: dict[str, Contracted] = {}
        self._joins: dict[tuple, Table | None] = {}  # joins the sums made (`joined`)
        self._resolved: dict[tuple, tuple[dict, Table]] = {}  # slots drawn (`resolve`)
        self._sizes: tuple[dict, dict] = (self.attributes, {})

    def copy(self) -> Belief:
        other = object.__new__(Belief)
        other.__dict__.update(self.__dict__)
        other.supply = set(self.supply)
        other.pooled, other.explicit = dict(self.pooled), dict(self.explicit)
        other.tables = dict(self.tables)  # tables are replaced, never changed in place
        other.received = {p: list(t) for p, t in self.received.items()}
        other.factors = list(self.factors)
        other._asked, other._joint = {}, {}  # a copy is made to be changed
        return other

    def predicate(self, req: Requirement) -> frozenset[str]:
        """The cards meeting `req`, which becomes a predicate tables can tell cards apart by."""
        if not any(req.text in a for a in self.attributes.values()):
            self.attributes = {
                name: met | {req.text} if req.met_by(self.cards[name]) else met
                for name, met in self.attributes.items()
            }
        return frozenset(name for name, met in self.attributes.items() if req.text in met)

    def hand_tables(self) -> list[Table]:
        """Each table holding hands, once."""
        return list({id(t): t for t in self.tables.values()}.values())

    def all_tables(self) -> list[Table]:
        received = [t for parts in self.received.values() for t in parts]
        return [*self.hand_tables(), *received, *self.factors]

    def hand_size(self, place: str) -> int:
        return self.pooled[place] + self.explicit[place] + len(self.received[place])

    # -- tables ------------------------------------------------------------------------------

    def sizes(self, partition: Partition) -> dict[Key, int]:
        """The supply's cards in each group of `partition`, kept for the supply and attributes
        of the moment (copies share what is kept: attributes are replaced, never changed)."""
        attributes, kept = self._sizes
        if attributes is not self.attributes or len(kept) > 4096:
            kept = {}
            self._sizes = (self.attributes, kept)
        key = (partition, frozenset(self.supply))
        if key not in kept:
            kept[key] = group_sizes(partition, self.supply, self.attributes)
        return dict(kept[key])

    def own(self, hand: str) -> Table:
        if hand not in self.tables:
            self.tables[hand] = Table.empty(hand, list(self.sizes(Partition())))
        return self.tables[hand]

    def put(self, table: Table) -> Table:
        """`table` replaces the table of each of its hands."""
        if table.rows == 0:
            raise Impossible(-1)
        for hand in table.hands:
            self.tables[hand] = table
        return table

    def refine(self, hand: str, predicates=(), singles=()) -> Table:
        table = self.tables[hand]
        wanted = table.partition.join(Partition(frozenset(predicates), frozenset(singles)))
        return self.put(table.regroup(wanted, self.sizes(wanted))[0].merged())

    def fit(self) -> None:
        """After the supply lost a card: drop rows needing more cards than it has left."""
        for table in self.hand_tables():
            self.put(table.regroup(table.partition, self.sizes(table.partition))[0])
        for hand, parts in self.received.items():
            fitted = [t.regroup(t.partition, self.sizes(t.partition))[0] for t in parts]
            if any(t.rows == 0 for t in fitted):
                raise Impossible(-1)
            self.received[hand] = fitted

    def emptied(self, hand: str) -> None:
        """`hand` has no card of its table left: it leaves the table; a table of no hands, if
        linked, stays as a factor."""
        if self.explicit[hand] or hand not in self.tables:
            return
        table = self.tables.pop(hand).without_hand(hand)
        if table.hands:
            self.put(table.merged())
        elif table.links:
            self.factors.append(table.merged())
            self.fold()

    def fold(self) -> None:
        """A factor whose links all lead to one other table is multiplied into it (those links
        forgotten); a factor on no link goes."""
        while True:
            for factor in self.factors:
                ends = {id(t): t for t in self._ends(factor)}
                if len(ends) <= 1:
                    break
            else:
                return
            self.factors.remove(factor)
            if ends:
                (partner,) = ends.values()
                folded = partner.times_factor(factor)
                if folded.rows == 0:
                    raise Impossible(-1)
                self._replace(partner, folded)

    def _ends(self, table: Table) -> list[Table]:
        """The other tables of each of `table`'s links."""
        return [
            t
            for t in self.all_tables()
            if t is not table and any(link in t.links for link in table.links)
        ]

    def _replace(self, old: Table, new: Table) -> None:
        if old.hands and old.hands[0] in self.tables and self.tables[old.hands[0]] is old:
            self.put(new)
            return
        for parts in self.received.values():
            for i, t in enumerate(parts):
                if t is old:
                    parts[i] = new
                    return
        self.factors[next(i for i, t in enumerate(self.factors) if t is old)] = new

    def tie(self) -> None:
        """Two hand tables that share two links or more (an EXCHANGE between them, or several
        moves) become one when the joined table is small: no more rows than the pairs of their
        rows that agree on those links (what a sum over both would go through) and than a few
        times the two together (a joined table is dearer to split finer later): the links
        between them are then summed once (repeated exchanges between two hands would otherwise
        multiply both tables by the values of every link). One card moved is cheaper as a link."""
        while True:
            pairs = [
                (a, b)
                for i, a in enumerate(self.hand_tables())
                for b in self.hand_tables()[i + 1 :]
                if len(set(a.links) & set(b.links)) >= 2 and (a.serial, b.serial) not in self.untied
            ]
            for a, b in pairs:
                matched = matched_rows(a, b)
                if matched > JOIN_TRIED:
                    self.untied.add((a.serial, b.serial))
                    continue
                sizes = self.sizes(a.partition.join(b.partition))
                kept = min(JOIN_KEPT, matched, 4 * (a.rows + b.rows))
                if joined_rows(a, b, sizes, limit=kept) <= kept:
                    self.put(join(a, b, sizes))
                    break
                self.untied.add((a.serial, b.serial))  # too big together: not tried again
            else:
                return

    # -- a hand as one table -----------------------------------------------------------------

    def resolve(self, hand: str) -> Table:
        """`hand`'s pooled slots become explicit: every draw of them from the supply, weighted by
        the layouts that give it (which of the hand's cards are the drawn ones)."""
        slots = self.pooled[hand]
        table = self.own(hand)
        if slots == 0:
            return table
        key = (table.serial, hand, slots, frozenset(self.supply))
        kept = self._resolved.get(key)
        if kept is None or kept[0] is not self.attributes:
            if len(self._resolved) >= JOINS_KEPT:
                self._resolved.clear()
            kept = (self.attributes, self._drawn(table, hand, slots))
            self._resolved[key] = kept
        self.pooled[hand] = 0
        self.explicit[hand] += slots
        return self.put(kept[1])

    def _drawn(self, table: Table, hand: str, slots: int) -> Table:
        """`resolve`'s table, worked out once for a state's sums: the sum apart of a hand
        (`_split_sum`) and the sum as before draw the same slots when the first gives up."""
        sizes = self.sizes(table.partition)
        table = table.regroup(table.partition, sizes)[0]
        h = table.column(hand)
        caps = np.array([sizes[k] for k in table.keys], dtype=np.int64)
        draws = compositions(slots, caps.tolist())
        # which draws fit each row, and each draw's ways, worked out once per distinct row part
        # that decides them (a row's room left in the supply; the hand's own counts): a big
        # table has few of those, and its rows x draws were 2 GB of temporaries
        radix = (caps + 1).tolist()
        room = caps - table.take()
        first, room_of = distinct_rows(room, radix)
        rows, drawn_at = _fitting(np.all(draws <= room[first][:, None, :], axis=2), room_of)
        first, held_of = distinct_rows(table.counts[:, h, :], radix)
        held = table.counts[first, h, :].astype(np.int64)
        after = np.minimum(held[:, None, :] + draws, COMB.shape[0] - 1)
        ways = COMB[after, draws].prod(axis=2)  # [held, draw]: Π_group C(count after, drawn)
        resolved = table.pick(rows, ways[held_of[rows], drawn_at])
        resolved.counts[:, h, :] += draws[drawn_at]
        return resolved.merged()

    def gather(self, hand: str) -> Table:
        """The cards `hand` received (one-card tables) join its table."""
        table = self.own(hand)
        for part in self.received[hand]:
            joint = table.partition.join(part.partition)
            table = self.put(combine(table, part, hand, self.sizes(joint)))
            self.explicit[hand] += 1
        self.received[hand] = []
        return table

    def whole(self, hand: str) -> Table:
        """`hand` in one table: its received cards and pooled slots joined in."""
        self.gather(hand)
        return self.resolve(hand)

    def pooled_only(self, place: str) -> bool:
        return place == PILE or (self.explicit[place] == 0 and not self.received[place])

    # -- steps ---------------------------------------------------------------------------------

    def apply(self, step: Step) -> None:
        self._asked, self._joint, self._joins, self._resolved = {}, {}, {}, {}
        self.event = step.event
        try:
            if isinstance(step, Leave):
                self.leave(step.place, step.card)
            elif isinstance(step, Isolate):
                self.isolate(step.place, step.card)
            elif isinstance(step, Enter):
                self.enter(step.place, step.card)
            elif isinstance(step, Hidden):
                self.hidden(step.source, step.target)
            elif isinstance(step, Swap):
                self.swap(step.first, step.second)
            elif isinstance(step, Force):
                self.force(step.place, requirement(step.requirement), step.revealed)
            elif isinstance(step, Fact):
                self.fact(step.place, requirement(step.requirement), step.has)
            else:  # pragma: no cover - every step type is handled above
                raise TypeError(step)
            self.fold()
            self.tie()
        except Impossible:
            raise Impossible(step.event) from None
        except TooLarge as large:
            raise Refused(step.event, str(large)) from None
        self.forget()

    def forget(self) -> None:
        """A one-hand table that says nothing (no link, equal weights, every way to hold its
        cards present) goes back to pooled slots: a uniform draw is what the pool is."""
        for table in self.hand_tables():
            if table.links or len(table.hands) > 1 or len(set(table.weights.tolist())) != 1:
                continue
            (hand,) = table.hands
            sizes = self.sizes(table.partition)
            caps = [sizes.get(k, 0) for k in table.keys]
            if table.rows == len(compositions(self.explicit[hand], caps)):
                del self.tables[hand]
                self.pooled[hand] += self.explicit[hand]
                self.explicit[hand] = 0

    def _where(self, hand: str, card: str) -> tuple[Table, int, int]:
        """`hand`'s table, its column and the group of `card` in it."""
        table = self.tables[hand]
        return table, table.column(hand), table.index(table.partition.key(card, self.attributes))

    def _take_out(self, hand: str, card: str, factor: np.ndarray | None = None) -> None:
        """`card` is in `hand`'s explicit part (rows weighted by `factor`) and leaves it."""
        table, h, k = self._where(hand, card)
        table = table.keep(table.counts[:, h, k] >= 1, factor)
        table.counts = table.counts.copy()
        table.counts[:, h, k] -= 1
        self.put(table)
        self.supply.discard(card)
        self.explicit[hand] -= 1
        self.fit()
        self.emptied(hand)

    def leave(self, place: str, card: str) -> None:
        if self.pooled_only(place):  # a pool card: the pool is uniform, so nothing to weigh
            self.supply.discard(card)
            self.pooled[place] -= 1
            self.fit()
            return
        self.whole(place)
        self._take_out(place, card)

    def isolate(self, place: str, card: str) -> None:
        if self.pooled_only(place):  # one of its pooled slots holds `card`
            self.own(place)
            self.refine(place, singles=[card])
            table, h, k = self._where(place, card)
            table.counts[:, h, k] = 1
            self.pooled[place] -= 1
            self.explicit[place] += 1
        else:
            self.whole(place)
            self.refine(place, singles=[card])
            table, h, k = self._where(place, card)
            self.put(table.keep(table.counts[:, h, k] == 1))
        self.fit()

    def enter(self, place: str, card: str) -> None:
        self.supply.add(card)
        self.own(place)
        self.refine(place, singles=[card])
        table, h, k = self._where(place, card)
        table = table.keep(table.counts[:, :, k].sum(axis=1) == 0)
        table.counts[:, h, k] = 1
        self.explicit[place] += 1
        self.put(table)
        self.fit()

    def _give(self, hand: str) -> Table:
        """`hand` gives a uniformly random card: its rows × the group of that card, recorded in
        a new link (the weight per layout is unchanged); returns the one-card table of the card
        for the receiver."""
        table = self.whole(hand)
        h = table.column(hand)
        link = self.links = self.links + 1
        groups = len(table.keys)
        rows, value = spread(table.counts[:, h, :])
        gave = table.pick(rows)
        gave.counts[np.arange(len(rows)), h, value] -= 1
        self.put(gave.with_link(link, value).merged())
        self.explicit[hand] -= 1
        return Table(
            [""],
            table.partition,
            list(table.keys),
            np.eye(groups, dtype=np.int8)[:, None, :],
            np.ones(groups, np.int64),
            [link],
            np.arange(groups, dtype=np.int32)[:, None],
        )

    def _moved(self, table: Table, giver: str, receiver: str) -> Table:
        """A random card of `giver` goes to `receiver`, both hands of `table`: rows × the group
        of the card, each weighted by the receiver's count of that group after the move (so
        many layouts before give each layout after)."""
        g, r = table.column(giver), table.column(receiver)
        rows, group = spread(table.counts[:, g, :])
        counts = table.counts[rows]
        every = np.arange(len(rows))
        counts[every, g, group] -= 1
        counts[every, r, group] += 1
        moved = table.pick(rows, counts[every, r, group].astype(np.int64))
        moved.counts = counts
        return moved.merged()

    def _swapped(self, table: Table, first: str, second: str) -> Table:
        """Two hands of one table each give a random card of what they held before: the
        first's card waits in a spare column while the second gives, then joins the second."""
        spare = table.like(
            hands=[*table.hands, " "],
            counts=np.concatenate([table.counts, np.zeros_like(table.counts[:, :1])], axis=1),
        )
        spare = self._moved(spare, first, " ")
        spare = self._moved(spare, second, first)
        spare = self._moved(spare, " ", second)
        return spare.without_hand(" ").merged()

    def hidden(self, source: str, target: str) -> None:
        if self.pooled_only(source):  # a random pool card: it stays in the pool
            self.pooled[source] -= 1
            self.pooled[target] += 1
            return
        table = self.whole(source)
        if target in table.hands:  # both hands in one table: the card moves inside it
            self.put(self._moved(table, source, target))
            self.explicit[source] -= 1
            self.explicit[target] += 1
            self.emptied(source)
            return
        self.received[target].append(self._give(source))
        self.emptied(source)

    def swap(self, first: str, second: str) -> None:
        """Each gives a random card of what it held before (simultaneously)."""
        if self.pooled_only(first) and self.pooled_only(second):
            return
        if self.pooled_only(first) or self.pooled_only(second):
            known, pooled = (second, first) if self.pooled_only(first) else (first, second)
            self.hidden(known, pooled)
            self.pooled[pooled] -= 1  # the pooled hand's card is a random pool card
            self.pooled[known] += 1
            return
        self.whole(first)
        table = self.whole(second)
        if first in table.hands:
            self.put(self._swapped(table, first, second))
            return
        to_second, to_first = self._give(first), self._give(second)
        self.received[second].append(to_second)
        self.received[first].append(to_first)
        self.emptied(first)
        self.emptied(second)

    def _qualifying(self, place: str, req: Requirement) -> tuple[Table, np.ndarray, np.ndarray]:
        """`place`'s table (split by `req`), its cards [row, group], and which groups meet `req`."""
        self.predicate(req)
        self.whole(place)
        table = self.refine(place, predicates=[req.text, GUILTY] if self.protect else [req.text])
        meets = np.array([req.text in key[0] for key in table.keys], dtype=bool)
        return table, table.counts[:, table.column(place), :].astype(np.int64), meets

    def force(self, place: str, req: Requirement, revealed: str | None) -> None:
        """The target's answer to a FORCE, weighed by the model (RULINGS.md §4)."""
        if revealed is not None and self.bluff == 1:
            raise Impossible(-1)  # with bluff_rate 1 a holder always claims none
        table, hand, meets = self._qualifying(place, req)
        q = hand[:, meets].sum(axis=1)
        if revealed is None:  # a claim of none: true, or a bluff
            factor = np.where(q == 0, self.bluff.denominator, self.bluff.numerator)
            self.put(table.keep(factor > 0, factor))
            return
        numerator, denominator = np.ones(len(q), np.int64), q
        if self.protect:
            guilty = np.array([GUILTY in key[0] for key in table.keys], dtype=bool)
            safe = hand[:, meets & ~guilty].sum(axis=1)
            if revealed in self.incriminating:
                numerator = (safe == 0).astype(np.int64)
            else:
                denominator = safe
        positive = sorted({int(d) for d in denominator.tolist() if d > 0})
        common = math.lcm(*positive) if positive else 1
        factor = np.where(denominator > 0, numerator * common // np.maximum(denominator, 1), 0)
        self._take_out(place, revealed, factor)

    def fact(self, place: str, req: Requirement, has: bool) -> None:
        table, hand, meets = self._qualifying(place, req)
        self.put(table.keep((hand[:, meets].sum(axis=1) > 0) == has))

    # -- questions ------------------------------------------------------------------------------

    def hand(self, place: str) -> HandPosterior:
        """The posterior of `place`'s whole hand (see `_contract`); Refused when the sum would
        need more memory than the limits allow."""
        try:
            return self._hand(place)
        except TooLarge as large:
            raise Refused(self.event, str(large)) from None

    def settle(self) -> None:
        """Every opponent's posterior, worked out now (a report then only reads them)."""
        for place in self.opponents:
            if self.hand_size(place):
                self.hand(place)

    def _hand(self, place: str) -> HandPosterior:
        if self.pooled_only(place):  # hands nothing looked into, of one size, are alike
            key = f"pooled hand of {self.pooled[place]}"
            kept = self._asked.get(key)
            if kept is None or (place == self.counter and kept.worlds is None):
                self._asked[key] = self._contract(place)
            return self._asked[key]
        if place not in self._asked:
            self._asked[place] = self._contract(place)
        return self._asked[place]

    def _contract(self, place: str) -> HandPosterior:
        """Every table contracted with `place`'s whole hand's table asked: its rows then tell
        apart everything any table does. The cards that table gave and nobody looked into go
        before it (it tells apart all they do), so its turn closes their links at once. Hands
        sharing a table, with nothing to add to it, share the sum, where its asked table
        keeps them apart."""
        ready = place in self.tables and not self.pooled[place] and not self.received[place]
        key = f"table {self.tables[place].serial}" if ready else ""
        count = place == self.counter  # only the counter's sum counts the worlds
        found = self._joint.get(key)
        if (
            found is None
            or place not in found.table.hands  # (its hands summed apart)
            or (count and found.worlds is None)
        ):
            found = self._contract_table(place, count)
            if key:
                self._joint[key] = found
        return posterior_of(found, self.supply, self.attributes, place)

    def _split_sum(self, place: str, count: bool) -> Contracted | None:
        """The sum for `place` with its own table asked over its own groups, when split over
        every group of the sum it would be large (SPLIT_ROWS): the tables that tell apart
        more go before it, the cards it received and nobody looked into just before it (their
        groups kept as tags), the rest after it, and `contract` with parts splits the hand's
        rows from what the states before it have left (`card_tables._refined`). A 5-player
        hub's table of 96,192 rows became 2.6 million rows split with the card it received,
        and its sum went through 12 million pairs; summed apart, 2.1 million.

        None (the sum as before) when nothing is told apart finer or the split is small;
        when the table's hands all share one sum as before (a sum apart for each of them
        cost more: 30028/33, 4.2 -> 5.0 s); or when the sum apart would do more work than
        the whole table's: pair more states and rows than that table would have rows (or
        SPLIT_PAIRS), or join or split as many when the hand's rows come back (found before
        they are listed; 30049/23 took 4.5 s summed apart, 2.2 s whole)."""
        table, parts = self.tables.get(place), self.received[place]
        if table is None:
            return None
        if len(table.hands) > 1 and all(
            not self.pooled[h] and not self.received[h] for h in table.hands
        ):
            return None
        every = table.partition
        for t in self.all_tables():
            every = every.join(t.partition)
        if every == table.partition:
            return None
        sizes = self.sizes(every)
        rows = table.finer_rows(every, sizes) * math.prod(p.finer_rows(every, sizes) for p in parts)
        if rows <= max(SPLIT_ROWS, SPLIT_TIMES * table.rows):
            return None
        trial = self.copy()
        trial.received[place] = []
        own = trial.resolve(place)
        others = trial.folded(own)
        own = own.apart(place).first(place)  # the others count only by what they hold
        before = [t for t in others if not own.partition.finer_than(t.partition)]
        after = [t for t in others if own.partition.finer_than(t.partition)]
        if before:
            before = order_tables(before[0], before[1:], trial.supply, trial.attributes)
        after = order_tables(own, after, trial.supply, trial.attributes)[1:]
        tables = [*before, *parts, own, *after]
        asked = len(before) + len(parts)
        if asked == 0:  # (nothing finer before it: the sum as before is as cheap)
            return None
        try:
            return contract(
                tables,
                trial.supply,
                trial.attributes,
                asked,
                count,
                parts=list(range(len(before), asked)),
                limit=int(min(SPLIT_PAIRS, SPLIT_WORK * rows)),
            )
        except TooLarge:
            return None

    def _contract_table(self, place: str, count: bool = True) -> Contracted:
        """The sum with `place`'s table asked, its leaves joined in (`leaves_joined`). Of that
        table's other hands only what they hold together matters (`Table.apart`): a table of
        three hands, split over the groups the other tables tell apart, had 2.3 million
        (state, row) pairs to sum, 0.2 million apart. A hand whose own table would split
        into many rows is summed apart from its received cards (`_split_sum`)."""
        found = self._split_sum(place, count)
        if found is not None:
            return found
        trial = self.copy()
        trial.gather(place)
        trial.fold()  # the cards it received may have left factors on its table alone
        others = trial.folded(trial.tables[place])
        first, others = trial.leaves_joined(place, trial.tables[place], others)
        trial.put(first)
        first = trial.resolve(place)  # its pooled slots drawn last: fewer rows to join
        given = [
            t
            for t in others
            if not t.partition.predicates - first.partition.predicates
            and not t.partition.singles - first.partition.singles
            and t.hands == [""]
            and set(t.links) <= set(first.links)
        ]
        rest = [t for t in others if not any(t is g for g in given)]
        closed = [link for t in given for link in t.links]
        view = first.without_links(closed) if closed else first
        order = order_tables(view, rest, trial.supply, trial.attributes)[1:]
        asked = first.apart(place)
        tables = [*given, asked, *order]
        return contract(tables, trial.supply, trial.attributes, len(given), count)

    def leaves_joined(
        self, place: str, first: Table, others: list[Table]
    ) -> tuple[Table, list[Table]]:
        """The tables of a sum with each table whose links all lead to one other table joined
        to it, when the join is not too big: a sum would otherwise carry the values of those
        links from one table's turn to the other's. With `first` (`place`'s table), only when
        the join, split over every group the sum tells apart, has no more rows than `first`
        so split or the other table as it is. A 5-player prefix's sum went through 2.5 million rows of a table of two
        hands with 3 links to a third hand; joined, 215,000. A join is not tried when it
        would look at too many pairs of rows (ABSORB_LOOKED), and not kept with more rows
        than the larger table (and JOIN_KEPT, with `first`): a small table summed between
        two others can leave few states for the second, and joined to it, it left a 5-player
        sum 12.6 million pairs instead of 0.2 million. Small sums are left as they are: trying
        cost more than it saved."""
        if first.rows + sum(t.rows for t in others) <= SMALL_SUM:
            return first, others
        every = first.partition
        for t in others:
            every = every.join(t.partition)
        everywhere = self.sizes(every)
        rows = first.apart(place).finer_rows(every, everywhere)
        tables = [first, *others]
        tried: set[tuple[int, int]] = set()
        while True:
            for t in tables:
                ends = [u for u in tables if u is not t and set(u.links) & set(t.links)]
                if t.hands == [""] or len(ends) != 1 or not set(t.links) <= set(ends[0].links):
                    continue  # (a card given and not looked into: placed first, see below)
                (u,) = ends
                if (t.serial, u.serial) in tried:
                    continue
                tried.add((t.serial, u.serial))
                joint = u.partition.join(t.partition)
                sizes = self.sizes(joint)
                values = math.prod(int(top) + 1 for top in t.values.max(axis=0, initial=0))
                pairs = u.finer_rows(joint, sizes) * t.finer_rows(joint, sizes) / values
                if pairs > ABSORB_LOOKED:
                    continue
                asked = t is tables[0] or u is tables[0]
                limit = max(u.rows, t.rows, JOIN_KEPT if asked else 0)
                joined = self.joined(u, t, sizes, limit)
                if joined is None or joined.rows == 0:  # (no world: the sum's total says so)
                    continue
                if asked:  # split finely, no more rows than the larger of the two
                    fewer = joined.apart(place).finer_rows(every, everywhere)
                    if fewer > max(rows, (u if t is tables[0] else t).rows):
                        continue
                    rows = fewer
                break
            else:
                return tables[0], tables[1:]
            kept: list[Table] = []
            for x in tables:  # the joined table where the first of the two was
                y = joined if x is u or x is t else x
                if not any(y is z for z in kept):
                    kept.append(y)
            tables = kept

    def joined(
        self, a: Table, b: Table, sizes: dict[Key, int], limit: int | None = None
    ) -> Table | None:
        """`join(a, b, sizes)`, or with a `limit` `join_within`, made once for every sum of
        this state of the filter: each opponent's sum joined the same tables again (a 5-player
        prefix's four sums each took 1.9 s to join a 664,812-row table to a 142-row one).
        Tables are never changed, so their serials and the supply's sizes name a join. Copies
        share what is kept; a step starts afresh."""
        key = (a.serial, b.serial, tuple(sizes.items()), limit)
        if key not in self._joins:
            if len(self._joins) >= JOINS_KEPT:
                self._joins.clear()
            self._joins[key] = (
                join(a, b, sizes) if limit is None else join_within(a, b, sizes, limit)
            )
        return self._joins[key]

    def folded(self, first: Table) -> list[Table]:
        """Every table but `first`, each card a hand received and has not looked into joined
        to the table of the hand that gave it (one table, one link fewer)."""
        others = [t for t in [*self.hand_tables(), *self.factors] if t is not first]
        loose = []
        for card in (t for parts in self.received.values() for t in parts):
            giver = next(
                (i for i, t in enumerate(others) if card.links and card.links[0] in t.links), None
            )
            if giver is None:
                loose.append(card)
                continue
            joint = others[giver].partition.join(card.partition)
            found = self.joined(others[giver], card, self.sizes(joint))
            assert found is not None  # (no limit)
            others[giver] = found
        return others + loose

    def total(self) -> int:
        """The weight of every world together (0: no world fits the steps)."""
        return self.hand(self.counter).total

    @property
    def worlds(self) -> int:
        """How many joint states of the tables (one row each) fit the deck: the hidden states
        the exact posterior spreads over, as the sum for `counter` goes through them."""
        worlds = self.hand(self.counter).worlds
        assert worlds is not None  # the counter's sum always counts them
        return worlds

    @property
    def counter(self) -> str:
        """The opponent whose sum says whether any world is left and counts the worlds: the
        first, in seat order, that something has looked into (the first opponent when none
        has). A replay then needs no sum for a hand nothing has looked into (`where`)."""
        return next((p for p in self.opponents if not self.pooled_only(p)), self.opponents[0])

    def where(self, card: str) -> dict[str, Fraction]:
        """The chance that a hidden card is in each opponent's hand and in the pile. A hand
        nothing has looked into needs no sum of its own: its cards are pool cards, and the
        pool (the pile and every such slot) is exchangeable, so its chance is its share of
        the pool's, which is what the looked-into hands leave (`pool_shares`)."""
        holding = [p for p in self.opponents if self.hand_size(p)]
        looked = {p: self.hand(p).chance_of(card) for p in holding if not self.pooled_only(p)}
        pooled = self.pool_shares(looked)
        found = {p: looked[p] if p in looked else pooled[p] for p in holding}
        found = {p: chance for p, chance in found.items() if chance}
        rest = 1 - sum(found.values(), Fraction(0))
        if rest:
            found[PILE] = rest
        return found

    def pool_shares(self, looked: dict[str, Fraction]) -> dict[str, Fraction]:
        """The chance that a card is in each pooled-only opponent's hand, from its chances in
        the `looked`-into hands. A looked-into hand h holds the card in its table with some
        chance e_h, or among its pooled slots p_h of the pool's n: P_h = e_h + (p_h / n) ×
        (1 - E), where E = Σ e_h. Summed over those hands, Σ P_h = E + R (1 - E) with R =
        Σ p_h / n, so E = (Σ P_h - R) / (1 - R), and a pooled-only hand q holds it with
        chance (p_q / n) × (1 - E)."""
        pool = self.pooled[PILE] + sum(self.pooled[p] for p in self.opponents)
        pooled = [p for p in self.opponents if p not in looked and self.pooled[p]]
        if not pooled:
            return {}
        share = sum((Fraction(self.pooled[p], pool) for p in looked), Fraction(0))
        held = (sum(looked.values(), Fraction(0)) - share) / (1 - share)
        return {p: Fraction(self.pooled[p], pool) * (1 - held) for p in pooled}

    def holds_meeting(self, place: str, req: Requirement) -> Fraction:
        """The chance that `place` holds at least one card meeting `req`."""
        if not self.hand_size(place):
            return Fraction(0)
        meeting = self.predicate(req)
        return 1 - self.hand(place).chance_none(meeting.__contains__)

    def possible(self, hands: dict[str, frozenset[str]]) -> bool:
        """Whether the physical state where each opponent holds exactly `hands[p]` (the rest in
        the pile) has positive probability (tests: the filter's support)."""
        trial = self.copy()
        try:
            for place, cards in hands.items():
                if len(cards) != trial.hand_size(place):
                    return False
                for card in sorted(cards):
                    trial.isolate(place, card)
            return trial.total() > 0
        except Impossible:
            return False


def posterior_of(
    found: Contracted, supply: set[str], attributes: dict[str, frozenset[str]], hand: str
) -> HandPosterior:
    """`hand`'s part of the asked table's rows, with their exact weights."""
    table = found.table
    weights = np.array(found.weights, dtype=object)
    keep = weights != 0
    members: list[list[str]] = [[] for _ in table.keys]
    index = {k: i for i, k in enumerate(table.keys)}
    for card in sorted(supply):
        members[index[table.partition.key(card, attributes)]].append(card)
    rows = table.counts[keep][:, table.column(hand), :]
    return HandPosterior(list(table.keys), rows, weights[keep], members, found.worlds)


def run(belief: Belief, steps: Sequence[Step]) -> None:
    """Apply `steps`; Impossible names the first event that leaves no world."""
    for step in steps:
        belief.apply(step)


def track(setup: Setup, deck: Deck, steps: Sequence[Step] | None = None) -> Belief:
    """The filter after the round's steps (Impossible: the first event no world survives)."""
    belief = Belief(setup, deck)
    run(belief, setup.steps if steps is None else steps)
    if belief.total() == 0:
        raise Impossible(first_impossible(setup, deck, setup.steps if steps is None else steps))
    return belief


def first_impossible(setup: Setup, deck: Deck, steps: Sequence[Step]) -> int:
    """The first event after which no world fits the deck (the tables alone may still have
    rows: the deck cannot serve them all at once), found by bisection over the events."""
    events = sorted({s.event for s in steps})
    low, high = 0, len(events) - 1  # the answer is events[high]; events[low - 1] is possible
    while low < high:
        middle = (low + high) // 2
        belief = Belief(setup, deck)
        try:
            run(belief, [s for s in steps if s.event <= events[middle]])
            possible = belief.total() > 0
        except Impossible:
            possible = False
        if possible:
            low = middle + 1
        else:
            high = middle
    return events[high]
