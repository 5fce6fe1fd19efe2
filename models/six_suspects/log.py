"""Reading a 6 Suspects log: looks (mine show a card), announcements and votes, with clear errors.

The facts are the cards I have seen, each tagged with its event. Two sightings that cannot both be
true (one card at two slots, two cards at one slot) are a contradiction naming both events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.six_suspects.rules import COLUMNS, SLOT_NAMES, SLOTS, Card, Deck, load_deck
from solver.errors import Contradiction, InputError
from solver.logfile import Document, read_events

GAME = "six-suspects"
EVENT_KINDS = ("look", "announce", "vote")
HEADER = ("deck", "looks_left")  # beside every game's own (solver.logfile.HEADER_FIELDS)
PUZZLE = ("visible",)
LOOKS_BEFORE_ANNOUNCING = 4


@dataclass(frozen=True)
class Seen:
    event: int  # 1-based
    slot: int
    card: Card


@dataclass
class Log:
    deck: Deck
    players: list[str]
    me: str | None
    seen: list[Seen]
    events: int
    looks: dict[str, int] = field(default_factory=dict)  # player -> looks so far
    announced_by: str | None = None
    votes: dict[str, int] = field(default_factory=dict)  # player -> column
    warnings: list[str] = field(default_factory=list)

    def seen_cards(self) -> dict[int, Card]:
        return {s.slot: s.card for s in self.seen}


def parse_slot(value: object) -> int:
    return SLOTS.index(SLOT_NAMES.resolve(str(value).upper()))


def parse_column(value: object) -> int:
    text = str(value).strip().upper()
    if len(text) == 1 and text in COLUMNS:
        return COLUMNS.index(text)
    raise InputError(f"expected a suspect column A-F, got {value!r}")


class _Reader:
    def __init__(self, doc: Document, upto: int | None, key: str):
        doc.check_game(GAME)
        self.deck = load_deck(doc.deck_path())
        self.players, self.me = doc.players()
        self.doc, self.key = doc, key
        self.raw = doc.events(key, upto)
        self.log = Log(self.deck, self.players.names if self.players else [], self.me, [], 0)
        self.where_card: dict[str, Seen] = {}
        self.where_slot: dict[int, Seen] = {}

    def player(self, name: object) -> str:
        return self.players.resolve(name) if self.players else str(name)

    def read(self) -> Log:
        read_events(self.doc, self.key, self.raw, EVENT_KINDS, self.read_event, HEADER, PUZZLE)
        self.log.events = len(self.raw)
        return self.log

    def read_event(self, number: int, kind: str, event: dict) -> None:
        getattr(self, f"on_{kind}")(number, event[kind])

    def on_look(self, number: int, body: object) -> None:
        if not isinstance(body, dict) or "slot" not in body:
            raise InputError("look takes {slot: A1, card: diamond} or {by: PLAYER, slot: C2}")
        slot = parse_slot(body["slot"])
        by = self.player(body["by"]) if body.get("by") is not None else self.me
        if by is not None:
            self.log.looks[by] = self.log.looks.get(by, 0) + 1
        if body.get("card") is None:
            return
        card = self.deck.by_name(body["card"])
        self.see(Seen(number, slot, card))

    def see(self, seen: Seen) -> None:
        earlier = self.where_card.get(seen.card.name)
        if earlier is not None and earlier.slot != seen.slot:
            raise Contradiction(
                [earlier.event, seen.event],
                detail=f"card {seen.card.name} seen at {SLOTS[earlier.slot]} and at {SLOTS[seen.slot]}",
            )
        other = self.where_slot.get(seen.slot)
        if other is not None and other.card != seen.card:
            raise Contradiction(
                [other.event, seen.event],
                detail=f"{SLOTS[seen.slot]} seen holding {other.card.name} and {seen.card.name}",
            )
        if earlier is None:
            self.where_card[seen.card.name] = seen
            self.where_slot[seen.slot] = seen
            self.log.seen.append(seen)

    def on_announce(self, number: int, body: object) -> None:
        by = self.player(body)
        if self.log.announced_by is not None:
            raise InputError(f"{self.log.announced_by} has already announced")
        short = [p for p in self.log.players if self.log.looks.get(p, 0) < LOOKS_BEFORE_ANNOUNCING]
        if short:
            self.log.warnings.append(
                f"event {number}: {by} announces before {', '.join(short)} logged "
                f"{LOOKS_BEFORE_ANNOUNCING} looks"
            )
        self.log.announced_by = by

    def on_vote(self, number: int, body: object) -> None:
        if not isinstance(body, dict):
            raise InputError("vote takes {PLAYER: COLUMN, ...}, e.g. {Ana: A, Ben: D}")
        for who, column in body.items():
            self.log.votes[self.player(who)] = parse_column(column)


def parse(doc: Document, upto: int | None = None, key: str = "events") -> Log:
    """Validate a six-suspects log (up to event `upto`)."""
    return _Reader(doc, upto, key).read()
