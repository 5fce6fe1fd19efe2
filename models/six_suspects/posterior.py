"""Exact culprit counts of any state: from the opening table with 0 or 1 card seen, else counted.

The bulk counter (`counter.py`) takes about 1.3 s with no card seen and 0.2-0.4 s with one, since
it must place most of the twelve cards. But those states are few: the rules look the same from
every column (rows wrap around) and from either row, so every slot is alike with nothing seen, and
a state with one card seen is a turn of "that card at A1". The opening table of a deck holds the
counts of the empty state and of the twelve states "card c at A1"; both come from one enumeration
of the empty state (`counter.joint` gives every one-card child at once), about 3 s.

The table of the bundled deck ships as `opening.json` beside the deck. It is used only if the
deck it was computed for (stored in the file) is the deck in use and its counts add up (every
arrangement has one card at A1, so the twelve one-card states sum to the empty state);
`write_shipped` writes it again, and a test checks that the file is what the counter computes.
Any other deck (`--deck`) has its table computed the first time it is needed and kept for the
rest of the process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from models.six_suspects.counter import Counts, Tally, joint, tally
from models.six_suspects.rules import COLUMNS, DEFAULT_DECK, SLOTS, Card, Deck, column_of, load_deck

SHIPPED = Path(__file__).with_name("opening.json")


@dataclass(frozen=True)
class OpeningTable:
    empty: Counts  # nothing seen
    first: dict[str, Counts]  # card name -> the counts with that card seen at A1 (slot 0)


def describe(deck: Deck) -> dict:
    """What the counts depend on: the cards (names, kinds, doubled values) and the Diamond's
    total; not the suspects' names."""
    cards = [[c.name, c.kind, c.value2] for c in deck.cards]
    return {"diamond2": deck.diamond2, "cards": cards}


def build(deck: Deck) -> OpeningTable:
    """Count the empty state once; its joint counts are the twelve states with one card at A1."""
    return from_tally(tally(deck, {}))


def from_tally(t: Tally) -> OpeningTable:
    """The table, from the tally of the empty state."""
    by_look = joint(t)  # (free slot, card, column); free slot 0 is A1
    first = {
        card.name: Counts(t.counts.worlds // len(SLOTS), [int(n) for n in by_look[0, ci]])
        for ci, card in enumerate(t.placed.unseen)
    }
    return OpeningTable(t.counts, first)


def as_data(deck: Deck, table: OpeningTable) -> dict:
    return {
        "deck": describe(deck),
        "worlds": table.empty.worlds,
        "empty": table.empty.culprit,
        "first": {name: counts.culprit for name, counts in table.first.items()},
    }


def from_data(data: dict) -> OpeningTable:
    worlds = data["worlds"]
    first = {name: Counts(worlds // len(SLOTS), culprit) for name, culprit in data["first"].items()}
    return OpeningTable(Counts(worlds, data["empty"]), first)


def adds_up(deck: Deck, table: OpeningTable) -> bool:
    """Every arrangement has exactly one card at A1: the one-card states partition the empty one."""
    if sorted(table.first) != sorted(c.name for c in deck.cards):
        return False
    parts = list(table.first.values())
    sums = [sum(counts.culprit[c] for counts in parts) for c in range(len(COLUMNS))]
    return (
        sum(counts.worlds for counts in parts) == table.empty.worlds and sums == table.empty.culprit
    )


@lru_cache(maxsize=8)
def opening_table(deck: Deck) -> OpeningTable:
    """The deck's table: the shipped one if it was computed for this very deck and adds up, else
    built."""
    if SHIPPED.exists():
        data = json.loads(SHIPPED.read_text(encoding="utf-8"))
        if data.get("deck") == describe(deck):
            shipped = from_data(data)
            if adds_up(deck, shipped):
                return shipped
    return build(deck)


def turned(counts: Counts, turn: int) -> Counts:
    """The counts of the state turned `turn` columns to the right."""
    columns = len(COLUMNS)
    return Counts(counts.worlds, [counts.culprit[(c - turn) % columns] for c in range(columns)])


def count(deck: Deck, seen: dict[int, Card]) -> Counts:
    """Exact culprit counts given the cards seen at some slots (slot index -> card)."""
    return count_seen(deck, tuple(sorted((slot, card.name) for slot, card in seen.items())))


@lru_cache(maxsize=65536)
def count_seen(deck: Deck, seen: tuple[tuple[int, str], ...]) -> Counts:
    """`count`, cached: a session, a replay or a puzzle check asks for the same states again."""
    if not seen:
        return opening_table(deck).empty
    if len(seen) == 1:  # "card at slot" is "card at A1" turned to the slot's column
        ((slot, name),) = seen  # (and flipped to its row, which changes no column)
        return turned(opening_table(deck).first[name], column_of(slot))
    return tally(deck, {slot: deck.by_name(name) for slot, name in seen}).counts


def write_shipped() -> None:
    """Compute the bundled deck's table and write it beside the deck, one entry a line."""
    deck = load_deck(DEFAULT_DECK)
    data = as_data(deck, build(deck))
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "first"]
    first = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in data["first"].items()]
    lines.append('  "first": {\n' + ",\n".join(first) + "\n  }")
    SHIPPED.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
