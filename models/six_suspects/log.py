"""Reading a 6 Suspects log: looks (mine show a card), announcements and votes, with clear errors.

The facts are the cards I have seen, each tagged with its event. Two sightings that cannot both be
true (one card at two slots, two cards at one slot) are a contradiction naming both events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.six_suspects.rules import COLUMNS, SLOT_NAMES, SLOTS, Card, Deck, load_deck
from solver.errors import Contradiction, InputError
from solver.logfile import Document, as_whole, only_fields, read_events, shown

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


@dataclass(frozen=True)
class Told:
    """The looks I have left as the player told them (`looks N` in `play`, `looks_left` in the
    header, `suggest --looks-left N`): `looks` left once the first `after` events are logged;
    each look of mine after those counts one down (ending.py)."""

    looks: int
    after: int  # 0: before the first event
    by_option: bool = False  # told by `suggest --looks-left`, not by the log


@dataclass
class Log:
    """What a log says. A seat is a player's name, or None for me when the header does not
    name me (my looks are then the looks that name no player)."""

    deck: Deck
    players: list[str]
    me: str | None
    seen: list[Seen]
    events: int
    looks: dict[str | None, int] = field(default_factory=dict)  # seat -> looks so far
    announced_by: str | None = None
    votes: dict[str, int] = field(default_factory=dict)  # player -> column
    warnings: list[str] = field(default_factory=list)
    announced_at: int | None = None  # the event of the announcement
    last_looks: dict[str | None, int] = field(default_factory=dict)  # seat -> event, after it
    my_looks: list[int] = field(default_factory=list)  # the events of my looks
    voted_at: int | None = None  # the first vote event
    named: list[str] = field(default_factory=list)  # players the events name, in order
    told: Told | None = None  # the header's `looks_left`

    def seen_cards(self) -> dict[int, Card]:
        return {s.slot: s.card for s in self.seen}

    def seats(self) -> list[str | None]:
        """Who sits at the table: the header's players, else every player the events name; and
        me, unnamed (None) when the header does not say who I am."""
        seats: list[str | None] = list(self.players or self.named)
        if self.me not in seats:
            seats.insert(0, self.me)
        return seats

    def still_to_look(self) -> list[str | None]:
        """After an announcement: the seats whose last look is still to come (every seat but
        the announcer's, until it has looked once since)."""
        if self.announced_by is None:
            return []
        return [s for s in self.seats() if s != self.announced_by and s not in self.last_looks]


def seat_words(seat: str | None) -> str:
    """A seat as a player says it: the name, or "you" for the unnamed me."""
    return "you" if seat is None else seat


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
        """A player named by an event (one of `players`, when the header lists them)."""
        named = self.players.resolve(name) if self.players else str(name)
        if named not in self.log.named:
            self.log.named.append(named)
        return named

    def read(self) -> Log:
        read_events(self.doc, self.key, self.raw, EVENT_KINDS, self.read_event, HEADER, PUZZLE)
        self.log.told = told_in(self.doc)
        self.log.events = len(self.raw)
        return self.log

    def warn(self, number: int, text: str) -> None:
        self.log.warnings.append(f"event {number}: {text}")

    def read_event(self, number: int, kind: str, event: dict) -> None:
        getattr(self, f"on_{kind}")(number, event[kind])

    def on_look(self, number: int, body: object) -> None:
        if not isinstance(body, dict) or "slot" not in body:
            raise InputError("look takes {slot: A1, card: diamond} or {by: PLAYER, slot: C2}")
        slot = parse_slot(body["slot"])
        seat = self.player(body["by"]) if body.get("by") is not None else self.me
        self.log.looks[seat] = self.log.looks.get(seat, 0) + 1
        if seat == self.me:
            self.log.my_looks.append(number)
        self.take_turn(number, seat)
        if body.get("card") is None:
            return
        card = self.deck.by_name(body["card"])
        self.see(Seen(number, slot, card))

    def take_turn(self, number: int, seat: str | None) -> None:
        """A look, held to the rulebook's end of the game: after an announcement every other
        player looks once more and the announcer never again; after the votes nobody looks.
        A look that breaks this is kept (what it showed is true) with a warning."""
        log, who = self.log, seat_words(seat)
        if log.voted_at is not None:
            self.warn(number, f"a look by {who} after the votes (event {log.voted_at})")
        elif log.announced_by is None:
            return
        elif seat == log.announced_by:
            self.warn(
                number,
                f"a look by {who} after announcing at event {log.announced_at}: "
                "the one who announces takes no more looks",
            )
        elif seat in log.last_looks:
            self.warn(
                number,
                f"another look by {who} after {log.announced_by}'s announcement (the last "
                f"look was event {log.last_looks[seat]}): each player takes one last look",
            )
        else:
            log.last_looks[seat] = number

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
        log = self.log
        if log.announced_by is not None:
            raise InputError(
                f"{log.announced_by} has already announced (event {log.announced_at}): "
                "one announcement ends the game"
            )
        by = self.player(body)
        short = [s for s in log.seats() if log.looks.get(s, 0) < LOOKS_BEFORE_ANNOUNCING]
        if short:
            self.warn(
                number,
                f"{by} announces before {', '.join(map(seat_words, short))} logged "
                f"{LOOKS_BEFORE_ANNOUNCING} looks",
            )
        if log.voted_at is not None:
            self.warn(number, f"{by} announces after the votes (event {log.voted_at})")
        log.announced_by, log.announced_at = by, number

    def on_vote(self, number: int, body: object) -> None:
        if not isinstance(body, dict):
            raise InputError("vote takes {PLAYER: COLUMN, ...}, e.g. {Ana: A, Ben: D}")
        log = self.log
        for who, column in body.items():
            voter = self.player(who)
            if voter in log.votes:
                self.warn(number, f"{voter} votes again; each player votes once")
            log.votes[voter] = parse_column(column)
        if log.voted_at is not None:
            return
        log.voted_at = number
        if log.announced_by is None:
            self.warn(number, "votes before anyone announced")
        elif log.still_to_look():
            waiting = ", ".join(map(seat_words, log.still_to_look()))
            self.warn(number, f"votes before the last look of {waiting}")


TOLD_FIELDS = ("looks", "after_event")


def told_in(doc: Document) -> Told | None:
    """The header's `looks_left`: `{looks: N, after_event: K}` (N left once K events are
    logged, as `looks N` in `play` writes it), or a plain N as older logs have it, which is
    read as told before the first event."""
    told = doc.data.get("looks_left")
    if told is None:
        return None
    line = doc.key_lines.get("looks_left")
    expected = "looks_left: {looks: N, after_event: K} (N looks left after event K)"
    try:
        if not isinstance(told, dict):
            return Told(as_whole(told, f"{expected}, or a plain N", low=0), 0)
        only_fields(told, TOLD_FIELDS, "looks_left")
        if "looks" not in told:
            raise InputError(f"expected {expected}: 'looks' is missing, got {shown(told)}")
        looks = as_whole(told["looks"], "looks_left's looks: a whole number, 0 or more", low=0)
        after = as_whole(
            told.get("after_event", 0),
            "looks_left's after_event: an event number, 0 or more",
            low=0,
        )
        return Told(looks, after)
    except InputError as error:
        raise InputError(error.message, line=line) from None


def parse(doc: Document, upto: int | None = None, key: str = "events") -> Log:
    """Validate a six-suspects log (up to event `upto`)."""
    return _Reader(doc, upto, key).read()
