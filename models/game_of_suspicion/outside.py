"""The exact filter of Game of Suspicion for logs without `me` (an analyst recording a game from
outside): one small table per looked-into hand (`tables.py`), coupled only by the deck and by
links, instead of a list of every hidden world (16,305,240 at a 4-player deal).

Every slot nothing has looked into is *pooled*: its card is a uniformly random card of the pool
(the hidden cards no table records). What a step needs of a place is put in that place's table:

- A card of unknown value leaving a pooled hand is a random pool card: it stays in the pool, in a
  slot of the place it goes to. Card 0 between two pooled hands moves nothing.
- A public card (played, named by card 1) leaving a pooled hand: when the deck has one such card,
  it was in the pool (every table's rows without it); otherwise the hand's table draws its
  pooled slots from the supply (*resolves* them) and keeps the rows that hold the card.
- An observation of a hand (counts of cards 4 and 5, sums of card 2, guesses, card 6, card 7)
  resolves that hand and keeps the rows it allows: no other hand is listed.
- A card of unknown value moving from a looked-into hand to a hand of another table: the giver's
  table records its value in a new *link*, and the receiver gets a one-card table of the same
  link. A middle look brings the slot's card into the looker's table (the slot's old table keeps
  a link), so the slot's new card stays with the hand that put it there.
- Two tables that share two links or more are joined when the result is small; a table whose
  places are gone is a factor on its links, multiplied into the table they all lead to.

Weights are per physical layout of cards (see `tables.py`): a hidden choice multiplies a row by
the chance of the physical card chosen, a public card leaving a place divides by how many of its
value the place held (which copy left is not told), and a card moving inside one table multiplies
by how many of its value the receiving column then holds. Questions are answered exactly by
`contract` (a hand's posterior) and `count_worlds` (how many hidden worlds).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from models.game_of_suspicion import rules
from models.game_of_suspicion.belief import Impossible, TooBig
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
from models.game_of_suspicion.tables import (
    COUNT_WORK,
    Table,
    contract,
    count_worlds,
    flatten,
    join,
    matched_rows,
    scaled,
)
from solver.card_tables import COMB, TooLarge, compositions, times
from solver.hidden_cards import deal_worlds

V = len(rules.VALUES)
POINTS = np.array([rules.points(v) for v in rules.VALUES], dtype=np.int64)
SPARE = -1  # a column that holds a card for a moment (a card 0 inside one table)
ROWS_LIMIT = 2_000_000  # a table with more rows than this is refused (memory)
JOIN_TRIED = 400_000  # two tables sharing links are joined when their matching pairs are at most
JOIN_KEPT = 60_000  # ... this, and the joined table has at most this many rows


def spread(number: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row, value) where `number` is not 0: the rows a choice of one card spreads a
    table into, refused before they are listed when there would be more than ROWS_LIMIT."""
    if int(np.count_nonzero(number)) > ROWS_LIMIT:
        raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
    rows, values = np.nonzero(number)
    return rows, values


def one_less(table: Table, mask: np.ndarray, factor: np.ndarray, column: int, value: int) -> Table:
    """The rows where `mask` holds, weighed by `factor`, with one card `value` out of `column`."""
    kept = table.keep(mask, factor)
    counts = kept.counts.copy()
    counts[:, column, value] -= 1
    return kept.like(counts=counts)


@contextlib.contextmanager
def too_big() -> Iterator[None]:
    """A question whose tables or sums would pass the limits: TooBig, as for a step."""
    try:
        yield
    except TooLarge as large:
        raise TooBig(None, str(large)) from None


class Dead(Exception):
    """A table has no row left: the steps so far leave no hidden world."""


class OutsideBelief:
    """The hidden cards of a round logged without `me`: the supply (hidden cards per value),
    each place's size and pooled slots, and the tables of what steps looked into."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.choice_unit = setup.choice_unit
        self.supply = np.array([setup.hidden[v] for v in rules.VALUES], dtype=np.int64)
        self.size = list(setup.capacity)
        self.pooled = list(setup.capacity)
        self.tables: list[Table] = []
        self.links = 0
        self.untied: set[tuple[int, int]] = set()  # pairs of tables too big to join
        self._asked: dict[int, list[tuple[tuple[int, ...], Fraction]]] = {}
        self._total: int | None = None
        self._worlds: int | None = None

    def copy(self) -> OutsideBelief:
        other = object.__new__(OutsideBelief)
        other.__dict__.update(self.__dict__)
        other.supply = self.supply.copy()
        other.size, other.pooled = list(self.size), list(self.pooled)
        other.tables = list(self.tables)  # tables are replaced, never changed in place
        other.untied = set(self.untied)
        other._asked, other._total, other._worlds = {}, None, None
        return other

    @property
    def places(self) -> int:
        return len(self.size)

    @property
    def pool(self) -> int:
        """How many places hold hidden cards (as the list of worlds calls it): all of them."""
        return len(self.size)

    def explicit(self, place: int) -> int:
        """How many of the place's cards some table records."""
        return self.size[place] - self.pooled[place]

    # -- tables ------------------------------------------------------------------------------

    def holding(self, place: int) -> list[int]:
        return [i for i, t in enumerate(self.tables) if place in t.places]

    def put(self, index: int, table: Table) -> int:
        if table.rows == 0:
            raise Dead
        if table.rows > ROWS_LIMIT:
            raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
        self.tables[index] = table
        return index

    def add(self, table: Table) -> int:
        self.tables.append(table)
        return self.put(len(self.tables) - 1, table)

    def new_link(self) -> int:
        self.links += 1
        return self.links

    def received(self, place: int, link: int) -> Table:
        """The one-card table of a card `place` received: one row per value, that value's link."""
        values = np.flatnonzero(self.supply > 0)
        counts = np.zeros((len(values), 1, V), np.int8)
        counts[np.arange(len(values)), 0, values] = 1
        return Table((place,), counts, np.ones(len(values), np.int64), (link,), values[:, None])

    def merge_into(self, keep: int, other: int) -> int:
        """Table `other` joined into table `keep`; returns the joined table's index."""
        a, b = self.tables[keep], self.tables[other]
        joined = join(a, b, self.supply, limit=ROWS_LIMIT)
        lo, hi = sorted((keep, other))
        del self.tables[hi]
        self.tables[lo] = joined
        return self.put(lo, joined)

    def fit(self) -> None:
        """After the supply lost a card: rows needing more than it has go."""
        for i, t in enumerate(self.tables):
            self.put(i, t.fitted(self.supply))

    def relocate(self, index: int, place: int) -> Table:
        """`place`'s one card leaves table `index` for a one-card table of its own, the class
        recorded in a new link on both (the same layouts: a column moved, not a choice)."""
        table = self.tables[index]
        c = table.column(place)
        link = self.new_link()
        value = np.argmax(table.counts[:, c, :], axis=1)
        counts = table.counts.copy()
        counts[:, c, :] = 0
        left = table.like(counts=counts).without_column(place).with_link(link, value)
        self.put(index, left.merged())
        return self.received(place, link)

    def bring(self, place: int, into: int | None) -> int:
        """Every card of `place` in one column of one table (`into`, or a table of its own when
        None): other tables holding it are joined in (a one-card column of a table with other
        places leaves it through a link first), its pooled slots resolved. Returns the index."""
        if into is None:
            found = self.holding(place)
            into = max(found, key=lambda i: self.tables[i].rows) if found else None
        if into is None:
            into = self.add(Table.empty(place, V))
        while True:
            others = [j for j in self.holding(place) if j != into]
            if not others:
                break
            i = others[0]
            if len(self.tables[i].places) > 1 and self._one_card(self.tables[i], place):
                i = self.add(self.relocate(i, place))
            into = self.merge_into(into, i)
        if place not in self.tables[into].places:
            self.put(into, self.tables[into].with_column(place))
        return self.resolve(place, into)

    def _one_card(self, table: Table, place: int) -> bool:
        c = table.column(place)
        return table.rows > 0 and int(table.counts[0, c, :].sum()) == 1

    def whole(self, place: int) -> int:
        return self.bring(place, None)

    def resolve(self, place: int, index: int) -> int:
        """`place`'s pooled slots draw their cards from the supply into its column of table
        `index`: every draw, weighed by Π C(count, drawn) (which of the column's cards are the
        drawn ones)."""
        slots = self.pooled[place]
        if slots == 0:
            return index
        table = self.tables[index]
        c = table.column(place)
        draws = compositions(slots, [int(n) for n in self.supply]).astype(np.int64)
        if table.rows * len(draws) > ROWS_LIMIT:
            raise TooLarge(f"a table would have more than {ROWS_LIMIT:,} rows")
        rows = np.repeat(np.arange(table.rows), len(draws))
        drawn = np.tile(draws, (table.rows, 1))
        fits = np.all(table.take()[rows] + drawn <= self.supply, axis=1)
        rows, drawn = rows[fits], drawn[fits]
        counts = table.counts[rows].astype(np.int64)
        counts[:, c, :] += drawn
        factor = np.ones(len(rows), dtype=np.int64)
        for v in np.flatnonzero(draws.any(axis=0)):
            factor = factor * COMB[counts[:, c, v], drawn[:, v]]
        resolved = table.pick(rows, factor).like(counts=counts.astype(np.int8))
        self.pooled[place] = 0
        return self.put(index, resolved.merged())

    # -- steps -------------------------------------------------------------------------------

    def apply(self, step: Step) -> None:
        self._asked, self._total, self._worlds = {}, None, None
        try:
            getattr(self, f"_{type(step).__name__.lower()}")(step)
            self.tidy()
        except Dead:
            raise Impossible(step.event) from None
        except TooLarge as large:
            raise TooBig(step.event, str(large)) from None

    empty_now = False  # a table out of rows raises Impossible; the deck is summed at the end

    def _move(self, step: Move) -> None:
        source, target, value = step.source, step.target, step.value
        if source is None:
            assert target is not None and value is not None
            self.enter(target, value)
        elif value is None:
            assert target is not None
            self.hidden(source, target)
        else:
            self.leave(source, value, step.chosen)
            if target is not None:
                self.enter(target, value)

    def enter(self, place: int, value: int) -> None:
        """A card of known value joins `place`: a one-row table of its own (the card is that
        one physical card: no other layout)."""
        self.supply[value] += 1
        self.size[place] += 1
        counts = np.zeros((1, 1, V), np.int8)
        counts[0, 0, value] = 1
        self.add(Table((place,), counts, np.ones(1, np.int64), (), np.zeros((1, 0), np.int8)))

    def leave(self, place: int, value: int, chosen: bool) -> None:
        """A card of known value leaves `place` for a known place (played, named, given)."""
        one_copy = self.supply[value] == 1 and (not chosen or self.choice_unit == "card")
        if self.explicit(place) == 0 and one_copy:
            # the card was in the pool: every table's rows without it, and then it is in this
            # place's slots with the same chance whatever the tables hold
            for i, t in enumerate(self.tables):
                self.put(i, t.keep(t.take()[:, value] == 0))
            self.pooled[place] -= 1
        else:
            index = self.whole(place)
            table = self.tables[index]
            c = table.column(place)
            held = table.counts[:, c, value].astype(np.int64)
            if chosen:  # the holder's choice: the chance of that physical card
                number, per = self._give_chance(table.counts[:, c, :].astype(np.int64))
                factor = scaled(number[:, value], per[:, value])
            else:  # which copy left is not told: each layout before gives `held` after
                factor = scaled(np.ones(len(held), np.int64), np.maximum(held, 1))
            self.put(index, one_less(table, held >= 1, factor, c, value))
        self.gone(place, value)

    def gone(self, place: int, value: int) -> None:
        """A card `value` of `place` has left the hidden cards: the supply and the place are one
        card smaller, and rows needing more than the supply has go."""
        self.supply[value] -= 1
        self.size[place] -= 1
        self.fit()

    def _give_chance(self, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The chance [row, value] that a hand gives one particular physical card of each value
        of its own choice, as (numerator, denominator): uniform over its cards, or over its
        values and then over the cards of that value."""
        has = (hand > 0).astype(np.int64)
        if self.choice_unit == "card":
            return has, np.broadcast_to(np.maximum(hand.sum(axis=1, keepdims=True), 1), hand.shape)
        values = np.maximum(has.sum(axis=1, keepdims=True), 1)
        return has, values * np.maximum(hand, 1)

    def hidden(self, source: int, target: int) -> None:
        """A card of `source`, its holder's hidden choice, goes to `target`."""
        if self.explicit(source) == 0 and self.choice_unit == "card":
            self.pooled[source] -= 1  # a random pool card: it stays in the pool
            self.pooled[target] += 1
        else:
            index = self.whole(source)
            table = self.tables[index]
            if target not in table.places and self.size[target] == 0 and not self.holding(target):
                table = table.with_column(target)  # an empty place (the middle after an 8)
            if target in table.places:
                self.put(index, self._moved(table, source, target))
            else:
                link = self.new_link()
                self.put(index, self._given(table, source, link))
                self.add(self.received(target, link))
        self.size[source] -= 1
        self.size[target] += 1

    def _moved(self, table: Table, giver: int, receiver: int) -> Table:
        """A card of `giver`'s choice goes to `receiver`, both columns of `table`: rows × the
        value given, each × the chance of that physical card × how many of its value the
        receiver then holds (so many layouts before give each layout after)."""
        g, r = table.column(giver), table.column(receiver)
        hand = table.counts[:, g, :].astype(np.int64)
        number, per = self._give_chance(hand)
        rows, value = spread(number)
        counts = table.counts[rows].astype(np.int64)
        every = np.arange(len(rows))
        counts[every, g, value] -= 1
        counts[every, r, value] += 1
        factor = scaled(number[rows, value] * counts[every, r, value], per[rows, value])
        return table.pick(rows, factor).like(counts=counts.astype(np.int8)).merged()

    def _given(self, table: Table, giver: int, link: int) -> Table:
        """A card of `giver`'s choice leaves `table` for another table: rows × its value,
        recorded in `link`, × the chance of that physical card."""
        g = table.column(giver)
        hand = table.counts[:, g, :].astype(np.int64)
        number, per = self._give_chance(hand)
        rows, value = spread(number)
        counts = table.counts[rows].copy()
        counts[np.arange(len(rows)), g, value] -= 1
        factor = scaled(number[rows, value], per[rows, value])
        moved = table.pick(rows, factor).like(counts=counts)
        return moved.with_link(link, value).merged()

    def _moveall(self, step: MoveAll) -> None:
        source, target = step.source, step.target
        if self.explicit(source) == 0:
            self.pooled[target] += self.pooled[source]
        else:
            self.whole(source)
            for i in self.holding(source):
                table = self.tables[i]
                if target in table.places:
                    moved = table.like(
                        places=tuple(target if p == source else p for p in table.places)
                    )
                    self.put(i, moved.placed_together().merged())
                elif len(table.places) > 1 and self._one_card(table, source):
                    part = self.relocate(i, source)
                    self.add(part.like(places=(target,)))
                else:
                    self.put(
                        i,
                        table.like(
                            places=tuple(target if p == source else p for p in table.places)
                        ),
                    )
        self.size[target] += self.size[source]
        self.size[source] = self.pooled[source] = 0

    def _swap(self, step: Swap) -> None:
        """Card 0: each of two hands gives the other a card of its own choice, chosen from the
        hand it held before."""
        first, second = step.first, step.second
        card = self.choice_unit == "card"
        free = [self.explicit(p) == 0 for p in (first, second)]
        if card and all(free):
            return  # each gives a random pool card: the pool is as it was
        if card and any(free):
            known, pooled = (second, first) if free[0] else (first, second)
            self.hidden(known, pooled)  # its choice, from the hand it held before
            self.pooled[pooled] -= 1  # the pooled hand's card: a random pool card
            self.pooled[known] += 1
            self.size[pooled] -= 1
            self.size[known] += 1
            return
        self.whole(first)
        b = self.whole(second)
        if first in self.tables[b].places:
            self.put(b, self._swapped(self.tables[b], first, second))
            return
        to_second, to_first = self.new_link(), self.new_link()
        a = self.holding(first)[0]
        self.put(a, self._given(self.tables[a], first, to_second))
        b = self.holding(second)[0]
        self.put(b, self._given(self.tables[b], second, to_first))
        self.add(self.received(second, to_second))
        self.add(self.received(first, to_first))

    def _swapped(self, table: Table, first: int, second: int) -> Table:
        """Card 0 inside one table: the first's card waits in a spare column while the second
        gives, then joins the second."""
        spare = self._moved(table.with_column(SPARE), first, SPARE)
        spare = self._moved(spare, second, first)
        spare = self._moved(spare, SPARE, second)
        return spare.without_column(SPARE).merged()

    def _middlelook(self, step: MiddleLook) -> None:
        hand, slot = step.hand, step.slot
        index = self.bring(slot, self.whole(hand))
        table = self.tables[index]
        h, s = table.column(hand), table.column(slot)
        held = table.counts[:, h, :].astype(np.int64)
        taken = np.argmax(table.counts[:, s, :], axis=1)
        number, per = self._put_back_chance(held, taken, step.exchanged)
        rows, put = spread(number)
        every = np.arange(len(rows))
        counts = table.counts[rows].astype(np.int64)
        counts[every, h, taken[rows]] += 1
        counts[every, h, put] -= 1
        counts[every, s, :] = 0
        counts[every, s, put] = 1
        # the slot's card joins the hand (one of its taken-value cards after), then the card
        # put back leaves it with its chance
        factor = scaled(number[rows, put] * (held[rows, taken[rows]] + 1), per[rows, put])
        self.put(index, table.pick(rows, factor).like(counts=counts.astype(np.int8)).merged())

    def _put_back_chance(
        self, held: np.ndarray, taken: np.ndarray, exchanged: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """The chance [row, value] that the looker puts back one particular physical card of
        each value, given the announcement, as (numerator, denominator); RULINGS.md §3:
        `restrict` chooses among the cards that fit the announcement, `bayes` among all the hand's
        cards plus the one taken (the announcement then rules out the others)."""
        every = np.arange(len(taken))
        whole = held.copy()
        whole[every, taken] += 1
        same = np.zeros(held.shape, dtype=bool)
        same[every, taken] = True
        fits = (whole > 0) & (~same if exchanged else same)
        bayes = self.setup.announce_model == "bayes"
        if self.choice_unit == "card":
            pool = whole if bayes else np.where(fits, whole, 0)
            per = np.broadcast_to(np.maximum(pool.sum(axis=1, keepdims=True), 1), held.shape)
        else:
            options = (whole > 0) if bayes else fits
            per = np.maximum(options.sum(axis=1, keepdims=True), 1) * np.maximum(whole, 1)
        return fits.astype(np.int64), np.ascontiguousarray(per)

    def _putsmallest(self, step: PutSmallest) -> None:
        place, value = step.place, step.value
        index = self.whole(place)
        table = self.tables[index]
        c = table.column(place)
        held = table.counts[:, c, :].astype(np.int64)
        ranks = np.array([rules.rank(v, self.setup.card6_ten_rank) for v in rules.VALUES])
        low = np.where(held > 0, ranks, 99).min(axis=1)
        tied = (held > 0) & (ranks[None, :] == low[:, None])
        if self.choice_unit == "card":
            per = np.where(tied, held, 0).sum(axis=1)
        else:
            per = tied.sum(axis=1) * np.maximum(held[:, value], 1)
        factor = scaled(tied[:, value].astype(np.int64), np.maximum(per, 1))
        self.put(index, one_less(table, tied[:, value], factor, c, value))
        self.gone(place, value)

    def _filter(self, place: int, test) -> None:
        """Keep the rows where `test(hand [row, value])` holds for `place`'s whole hand."""
        index = self.whole(place)
        table = self.tables[index]
        hand = table.counts[:, table.column(place), :].astype(np.int64)
        self.put(index, table.keep(test(hand)))

    def _count(self, step: Count) -> None:
        values = sorted(step.values)

        def test(hand):
            n = hand[:, values].sum(axis=1)
            return ((step.low <= n) & (n <= step.high)) != step.negated

        self._filter(step.place, test)

    def _sumabove(self, step: SumAbove) -> None:
        self._filter(step.place, lambda hand: ((hand @ POINTS) > step.limit) == step.above)

    def _hand(self, step: Hand) -> None:
        wanted = np.bincount(np.asarray(step.cards, dtype=np.int64), minlength=V)
        self._filter(step.place, lambda hand: np.all(hand == wanted, axis=1) == step.equal)

    def _guess(self, step: Guess) -> None:
        wanted = np.bincount(np.asarray(step.numbers, dtype=np.int64), minlength=V)[: rules.TEN]

        def test(hand):
            numbers = hand[:, : rules.TEN].copy()
            numbers[:, 0] += hand[:, rules.TEN]
            numbers[:, 1] += hand[:, rules.TEN]
            return np.all(numbers == wanted, axis=1) == step.correct

        self._filter(step.place, test)

    # -- keeping the tables few and small -----------------------------------------------------

    def tidy(self) -> None:
        """Empty columns go; a table of no place is a factor on its links (multiplied into the
        table they all lead to; gone when it has none); tables sharing two links or more are
        joined when small; a one-place table that says nothing goes back to the pool."""
        for i, t in enumerate(self.tables):
            empty = [p for c, p in enumerate(t.places) if not t.counts[:, c, :].any()]
            for place in empty:
                t = t.without_column(place)
            if empty:
                self.put(i, t.merged())
        for i, t in enumerate(self.tables):
            alone = [x for x in t.links if not any(x in u.links for u in self.tables if u is not t)]
            if alone:  # nothing else holds the other end: summed out
                self.put(i, t.without_links(alone))
        self.fold()
        self.tie()
        self.forget()

    def fold(self) -> None:
        while True:
            for i, t in enumerate(self.tables):
                if t.places:
                    continue
                ends = {
                    j for j, u in enumerate(self.tables) if j != i and set(u.links) & set(t.links)
                }
                if len(ends) <= 1:
                    break
            else:
                return
            factor = self.tables.pop(i)
            if factor.rows == 0:
                raise Dead
            if ends:
                (j,) = ends
                j -= j > i
                self.put(j, join(self.tables[j], factor, self.supply, limit=ROWS_LIMIT))

    def tie(self) -> None:
        while True:
            pairs = [
                (i, j)
                for i, a in enumerate(self.tables)
                for j in range(i + 1, len(self.tables))
                if len(set(a.links) & set(self.tables[j].links)) >= 2
                and (a.serial, self.tables[j].serial) not in self.untied
                and matched_rows(a, self.tables[j]) <= JOIN_TRIED
            ]
            for i, j in pairs:
                both = join(self.tables[i], self.tables[j], self.supply)
                if both.rows <= JOIN_KEPT:
                    del self.tables[j]
                    self.put(i, both)
                    break
                self.untied.add((self.tables[i].serial, self.tables[j].serial))
            else:
                return

    def forget(self) -> None:
        """A one-column table with no link, equal weights and every way to hold its cards
        present says nothing: a uniform draw is what the pool is."""
        for i in range(len(self.tables) - 1, -1, -1):
            t = self.tables[i]
            if t.links or len(t.places) != 1 or len(set(t.weights.tolist())) != 1:
                continue
            cards = int(t.counts[0, 0, :].sum())
            if t.rows == _ways(cards, tuple(int(n) for n in self.supply)):
                del self.tables[i]
                self.pooled[t.places[0]] += cards

    # -- questions ----------------------------------------------------------------------------

    def total(self) -> int:
        """The weight of every world together, up to a constant (0: no world is left)."""
        if self._total is None:
            with too_big():
                self._total = contract(self.tables, self.supply)[0]
        return self._total

    @property
    def empty(self) -> bool:
        return self.total() == 0

    def has_cards(self, place: int) -> bool:
        return self.size[place] > 0

    def hidden_values(self) -> list[int]:
        return [v for v in rules.VALUES if self.supply[v] > 0]

    def hands(self, place: int) -> list[tuple[tuple[int, ...], Fraction]]:
        """The possible hands of `place` (sorted values), most likely first."""
        if place not in self._asked:
            trial = self.copy()
            with too_big():
                index = trial.whole(place)
                table = trial.tables[index]
                total, per_row = contract(trial.tables, trial.supply, asked=index)
            found: dict[tuple[int, ...], int] = {}
            hands = table.counts[:, table.column(place), :]
            for counts, weight in zip(hands.tolist(), per_row or [], strict=True):
                if weight:
                    hand = tuple(v for v, n in enumerate(counts) for _ in range(n))
                    found[hand] = found.get(hand, 0) + weight
            self._asked[place] = sorted(
                ((hand, Fraction(w, total)) for hand, w in found.items()),
                key=lambda item: (-item[1], item[0]),
            )
        return self._asked[place]

    def holds(self, place: int, value: int) -> Fraction:
        return sum((p for hand, p in self.hands(place) if value in hand), Fraction(0))

    def _settled(self) -> OutsideBelief:
        """A copy where every place with a recorded card is one column, with no pooled slot."""
        trial = self.copy()
        for place in range(self.places):
            if trial.explicit(place):
                trial.whole(place)
        return trial

    @property
    def worlds(self) -> int | None:
        """How many distinct hidden worlds have positive probability; None when counting them
        would take too long (one world can stand for many histories of the links, and telling
        them apart is far dearer than the posterior, which does not need it). When the deck
        has few layouts at all, they are listed instead."""
        if self._worlds is None:
            trial = self._settled()
            try:
                self._worlds = count_worlds(trial.tables, trial.supply, trial.pooled)
            except TooLarge:
                self._worlds = -1  # known not countable
            if self._worlds < 0 and deal_worlds(self.size, self.supply.tolist()) <= COUNT_WORK:
                with contextlib.suppress(TooLarge, TooBig):  # few layouts at all: list them
                    self._worlds = len(self.worlds_list(limit=COUNT_WORK))
        return None if self._worlds < 0 else self._worlds

    def probability(self, world: tuple[tuple[int, ...], ...]) -> Fraction:
        """The probability of one hidden world (per place, its values): each place's hand
        given the hands before it, from the posterior of its hand (tables divide their weights
        by common factors, so totals of two different beliefs do not compare)."""
        trial, p = self.copy(), Fraction(1)
        for place, cards in enumerate(world):
            if len(cards) != self.size[place]:
                return Fraction(0)
            if not cards:
                continue
            hand = tuple(sorted(cards))
            p *= dict(trial.hands(place)).get(hand, Fraction(0))
            if not p:
                return p
            trial.apply(Hand(0, place, hand))
        return p

    def worlds_list(self, limit: int | None = None) -> dict[tuple, Fraction]:
        """Every hidden world (per place, its sorted values) with its probability (small
        states; `limit`: refuse joins of more pairs of rows than this, TooLarge)."""
        trial = self.copy()
        for place in range(self.places):
            if trial.size[place]:
                trial.whole(place)
        if not trial.tables:
            return {tuple(() for _ in range(self.places)): Fraction(1)}
        table = flatten(trial.tables, trial.supply, limit)
        mass = times(table.weights, table.ways_within())
        total = int(sum(int(w) for w in mass))
        found: dict[tuple, Fraction] = {}
        for counts, weight in zip(table.counts.tolist(), mass.tolist(), strict=True):
            world = tuple(
                tuple(v for v, n in enumerate(counts[table.column(p)]) for _ in range(n))
                if p in table.places
                else ()
                for p in range(self.places)
            )
            found[world] = found.get(world, Fraction(0)) + Fraction(int(weight), total)
        return {w: p for w, p in found.items() if p}


@functools.lru_cache(maxsize=10_000)
def _ways(cards: int, supply: tuple[int, ...]) -> int:
    """How many compositions of `cards` cards the supply allows."""
    return len(compositions(cards, list(supply)))
