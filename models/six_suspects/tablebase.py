"""The 6 Suspects tablebase: the exact value of every look for a player with H more looks before
the vote, from every state with k cards seen, for k + H ≤ 5 and H ≥ 2 (issue 14).

Backward induction over observation states. A look shows the card at an unseen slot, each unseen
card with probability 1/n (every arrangement of the unseen cards stays equally likely), so

    V1(state, s)  = the one-look value of slot s (one enumeration: `advice.one_look_values`)
    VH(state, s)  = mean over unseen cards c of  max over s' VH-1(state + "s holds c", s')

and a state is stored once per class of the 24 symmetries of the table (turning it by whole
columns, swapping the rows, reading it in a mirror with the Torches exchanged: `advice.Symmetry`).
The same pass values two
other policies, for the docs: *greedy* (each look the best one-look slot, ties by information
then slot, as `advise` ranks them) and *random* (each unseen slot alike).

It covers a whole game from the empty table: four looks then a vote (k = 0, H = 4), and five
when someone announces (H = 5: the fifth look comes after the announcement). The table is built
for the bundled deck only and shipped beside it (`tablebase.json.gz`); `sleuth tablebase
six-suspects` builds it again (minutes, on the batch engine: see the doc). Most of the work is
the two-look nodes of the 12,500 classes of three-card states, one pass over a tally each.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np

from models.six_suspects.advice import _one_look_canonical, canonical, child_look_totals, values_of
from models.six_suspects.counter import tally
from models.six_suspects.posterior import describe
from models.six_suspects.rules import DEFAULT_DECK, SLOTS, Card, Deck, load_deck
from solver import batch
from solver.batch import Chunk

SHIPPED = Path(__file__).with_name("tablebase.json.gz")
MOST = 5  # k + H at most this many: the table's reach
TWO_LOOKS_FROM = 2  # cards seen from which a two-look node comes from one pass over its tally
STATES_PER_CHUNK = 40  # two-look nodes per batch chunk (a few seconds of work); fixed
Key = tuple[tuple[int, str], ...]  # a canonical state: (slot, card name), sorted


@dataclass
class Node:
    """A state with H looks left: each look's optimal value (canonical slots), and the value of
    the greedy and the random policy from it."""

    looks: dict[int, Fraction]
    greedy: Fraction
    random: Fraction
    information: dict[int, float]  # each look's expected bits (its one-look information)

    @property
    def optimal(self) -> Fraction:
        return max(self.looks.values())


class Builder:
    """The induction, remembered by (canonical state, H)."""

    def __init__(self, deck: Deck, progress: Callable[[], None] | None = None):
        self.deck = deck
        self.nodes: dict[tuple[Key, int], Node] = {}
        self.progress = progress

    def child(self, key: Key, slot: int, card: Card) -> Key:
        seen = {s: self.deck.by_name(name) for s, name in key}
        return canonical({**seen, slot: card}, self.deck)[0]

    def greedy_slot(self, key: Key) -> int:
        _, values, information = _one_look_canonical(self.deck, key)
        return min(values, key=lambda s: (-values[s], -information[s], s))

    def node(self, key: Key, horizon: int) -> Node:
        found = self.nodes.get((key, horizon))
        if found is not None:
            return found
        if horizon == 1:
            _, values, information = _one_look_canonical(self.deck, key)
            mean = sum(values.values(), Fraction(0)) / len(values)
            made = Node(dict(values), values[self.greedy_slot(key)], mean, dict(information))
        elif horizon == 2 and len(key) >= TWO_LOOKS_FROM:
            made = two_look_node(self.deck, key)
        else:
            made = self.deeper(key, horizon)
        self.nodes[key, horizon] = made  # a state is reached from up to k parents
        if self.progress is not None and horizon == 2:
            self.progress()
        return made

    def deeper(self, key: Key, horizon: int) -> Node:
        taken = {name for _, name in key}
        unseen = [card for card in self.deck.cards if card.name not in taken]
        free = [s for s in range(len(SLOTS)) if s not in dict(key)]
        looks, randoms, children = {}, [], {}
        for slot in free:
            below = [self.node(self.child(key, slot, card), horizon - 1) for card in unseen]
            children[slot] = below
            looks[slot] = sum((n.optimal for n in below), Fraction(0)) / len(unseen)
            randoms.append(sum((n.random for n in below), Fraction(0)) / len(unseen))
        chosen = children[self.greedy_slot(key)]
        greedy = sum((n.greedy for n in chosen), Fraction(0)) / len(unseen)
        _, _, information = _one_look_canonical(self.deck, key)
        return Node(looks, greedy, sum(randoms, Fraction(0)) / len(free), dict(information))

    def classes(self, root: Key, seen: int) -> list[Key]:
        """Every canonical state with `seen` cards reached from `root`, sorted."""
        level = {root}
        for _ in range(seen - len(root)):
            level = {
                self.child(key, slot, card)
                for key in level
                for slot in range(len(SLOTS))
                if slot not in dict(key)
                for card in self.deck.cards
                if card.name not in {name for _, name in key}
            }
        return sorted(level)

    def two_looks_in_batch(
        self, keys: list[Key], workers: int | None, scheduler: str | None
    ) -> None:
        """The two-look nodes of `keys` on the batch engine (solver/batch.py): fixed chunks of
        states, each valued by `two_look_chunk` wherever it runs; the slow part of the build."""
        chunks = [
            dataclasses.replace(c, payload=(self.deck, tuple(keys[c.start : c.start + c.size])))
            for c in batch.plan(len(keys), STATES_PER_CHUNK, seed=0)
        ]
        progress = self.progress
        tick = None if progress is None else (lambda _chunk: progress())
        for part in batch.run(
            two_look_chunk, chunks, workers=workers, scheduler=scheduler, progress=tick
        ):
            for key, made in part:
                self.nodes[key, 2] = made

    def build(
        self,
        most: int = MOST,
        root: Key = (),
        workers: int | None = None,
        scheduler: str | None = None,
    ) -> dict[tuple[Key, int], Node]:
        """Every state with k + H ≤ `most`, H ≥ 2, reached from `root` (a canonical state; the
        empty table reaches them all); the one-look states are counted live by `advise` in
        milliseconds, and not kept. A later root is a smaller game (the unseen cards on the
        unseen slots), which the tests solve by brute force too.

        First the two-look nodes of every state with TWO_LOOKS_FROM to most - 2 cards seen, on
        the batch engine (`workers`, `scheduler`: as for `sleuth simulate`); then the induction
        above them, here (exact fractions: seconds)."""
        first = max(TWO_LOOKS_FROM, len(root))
        keys = [key for k in range(first, most - 1) for key in self.classes(root, k)]
        self.two_looks_in_batch(keys, workers, scheduler)
        for horizon in range(2, most - len(root) + 1):
            self.node(root, horizon)
        return {k: n for k, n in self.nodes.items() if k[1] >= 2 and len(k[0]) + k[1] <= most}


def two_look_chunk(chunk: Chunk) -> list[tuple[Key, Node]]:
    """One chunk of the build: the two-look nodes of its states (what a worker runs)."""
    deck, keys = chunk.payload
    return [(key, two_look_node(deck, key)) for key in keys]


def two_look_node(deck: Deck, key: Key) -> Node:
    """A state's node with two looks left, from one pass over its tally (`child_look_totals`)
    rather than one count per child state: V2 of a look is the mean over its cards of the
    child's best one-look value, the random policy's the mean over all, and greedy's is V2 of
    the best one-look slot (after it, one look: greedy and optimal take the same)."""
    parent = tally(deck, {slot: deck.by_name(name) for slot, name in key})
    counts, values, information = values_of(parent)
    totals = child_look_totals(parent)
    free = parent.placed.free
    n, scale = len(free), counts.worlds  # scale: each child's worlds x the unseen cards
    looks = {slot: Fraction(int(totals[k].max(axis=1).sum()), scale) for k, slot in enumerate(free)}
    random = Fraction(int(np.where(totals >= 0, totals, 0).sum()), scale * (n - 1) * n)
    greedy = min(free, key=lambda s: (-values[s], -information[s], s))
    return Node(looks, looks[greedy], random, dict(information))


def as_data(deck: Deck, nodes: dict[tuple[Key, int], Node]) -> dict:
    def fraction(value: Fraction) -> str:
        return f"{value.numerator}/{value.denominator}"

    return {
        "deck": describe(deck),
        "most": MOST,
        "nodes": [
            {
                "seen": [[slot, name] for slot, name in key],
                "looks_left": horizon,
                "looks": {str(s): fraction(v) for s, v in sorted(node.looks.items())},
                "greedy": fraction(node.greedy),
                "random": fraction(node.random),
                "bits": {str(s): round(b, 9) for s, b in sorted(node.information.items())},
            }
            for (key, horizon), node in sorted(nodes.items())
        ],
    }


class Table(Mapping[tuple[Key, int], Node]):
    """The shipped table as read: each entry becomes a Node (exact fractions) when first asked
    for. An advice call needs one entry of 13,409, and making them all took 0.65 s."""

    def __init__(self, entries: list[dict]):
        self.entries = {(tuple(map(tuple, e["seen"])), e["looks_left"]): e for e in entries}
        self.made: dict[tuple[Key, int], Node] = {}

    def __getitem__(self, index: tuple[Key, int]) -> Node:
        if index not in self.made:
            entry = self.entries[index]
            self.made[index] = Node(
                {int(s): Fraction(v) for s, v in entry["looks"].items()},
                Fraction(entry["greedy"]),
                Fraction(entry["random"]),
                {int(s): b for s, b in entry["bits"].items()},
            )
        return self.made[index]

    def __iter__(self) -> Iterator[tuple[Key, int]]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def from_data(data: dict) -> Table:
    return Table(data["nodes"])


def write_shipped(
    progress: Callable[[], None] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> int:
    """Build the bundled deck's table and write it beside the deck; the number of entries."""
    deck = load_deck(DEFAULT_DECK)
    nodes = Builder(deck, progress).build(workers=workers, scheduler=scheduler)
    text = json.dumps(as_data(deck, nodes), separators=(",", ":"))
    SHIPPED.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return len(nodes)


@lru_cache(maxsize=2)
def shipped(deck: Deck) -> Table | None:
    """The shipped table, if it was built for this very deck (else None: a user deck)."""
    if not SHIPPED.exists():
        return None
    data = json.loads(gzip.decompress(SHIPPED.read_bytes()).decode("utf-8"))
    if data.get("deck") != describe(deck):
        return None
    return from_data(data)


def covered(seen_count: int, looks_left: int) -> bool:
    return looks_left >= 2 and seen_count + looks_left <= MOST


def table_looks(
    deck: Deck, seen: dict[int, Card], looks_left: int
) -> tuple[dict[int, Fraction], dict[int, float]] | None:
    """Each unseen slot's optimal value with `looks_left` looks and its information, from the
    table (real slots); None where it does not reach (a user deck, k + H > MOST, or H < 2)."""
    if not covered(len(seen), looks_left):
        return None
    table = shipped(deck)
    if table is None:
        return None
    key, symmetry = canonical(seen, deck)
    node = table.get((key, looks_left))
    if node is None:
        return None
    back = {s: symmetry.slot(s) for s in range(len(SLOTS)) if s not in seen}
    return (
        {s: node.looks[t] for s, t in back.items()},
        {s: node.information[t] for s, t in back.items()},
    )


def reach(deck: Deck, seen_count: int) -> int:
    """The most looks the table values from a state with `seen_count` cards seen (0: none)."""
    if shipped(deck) is None or MOST - seen_count < 2:
        return 0
    return MOST - seen_count
