"""Reading a Three of a Crime log into rounds and facts, with a clear error for every bad event.

Every event becomes zero or more *facts* about the secret cards of the rounds, tagged with the
event's number. The exact counter, the CP-SAT model and the python-constraint model all read the
same facts, so they can only disagree if one of them is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.three_of_a_crime.rules import (
    SUSPECT_NAMES,
    TOKEN_SUPPLY,
    TWO_PLAYER_CARD_LIMIT,
    Card,
    card_label,
)
from solver.errors import InputError
from solver.logfile import Document, read_events

EVENT_KINDS = ("round", "card", "accuse", "won")
GAME = "three-of-a-crime"


@dataclass(frozen=True)
class Fact:
    """One thing an event proves about the secret card of round `round` (0-based)."""

    event: int  # 1-based event number
    round: int
    kind: (
        str  # "token": overlap(secret, card) == token; "not": secret != card; "is": secret == card
    )
    card: Card
    token: int = -1


@dataclass
class Round:
    number: int  # 0-based
    eyewitness: str | None
    start_event: int
    face_up: dict[Card, int] = field(default_factory=dict)  # card -> event that showed it
    tokens: dict[Card, int] = field(default_factory=dict)
    out: dict[str, int] = field(
        default_factory=dict
    )  # detective -> event of their wrong accusation
    solved_by: tuple[str | None, Card, int] | None = None  # (who, card, event) once correct
    won: tuple[str | None, Card | None, int] | None = None  # round over: (winner, card, event)


@dataclass
class Log:
    players: list[str]
    me: str | None
    rounds: list[Round]
    facts: list[Fact]
    events: int  # number of events read
    warnings: list[str] = field(default_factory=list)

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def facts_upto(self, events: set[int] | None = None) -> list[Fact]:
        return [f for f in self.facts if events is None or f.event in events]


def parse_card(value: object, where: dict) -> Card:
    """Three different suspects, any order, as a canonical card."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
        names = SUSPECT_NAMES.resolve_words(list(value), 3)
    elif isinstance(value, list):
        names = [SUSPECT_NAMES.resolve(v) for v in value]
    else:
        raise InputError("a card is a list of 3 suspects", **where)
    if len(names) != 3:
        raise InputError(f"a card has exactly 3 suspects, got {len(names)}", **where)
    if len(set(names)) != 3:
        repeated = next(n for n in names if names.count(n) > 1)
        raise InputError(f"suspect {repeated!r} appears twice on one card", **where)
    return tuple(sorted(SUSPECT_NAMES.names.index(n) for n in names))  # type: ignore[return-value]


class _Reader:
    """Walks the events in order, keeping the round state needed to validate each one."""

    def __init__(self, doc: Document, upto: int | None, key: str):
        doc.check_game(GAME)
        self.players, self.me = doc.players()
        self.doc, self.key = doc, key
        self.raw_events = doc.events(key, upto)
        self.rounds: list[Round] = [Round(0, None, 0)]
        self.facts: list[Fact] = []
        self.warnings: list[str] = []

    def player(self, name: object, where: dict) -> str:
        return self.players.resolve(name) if self.players else str(name)

    def read(self) -> Log:
        read_events(self.doc, self.key, self.raw_events, EVENT_KINDS, self.read_event)
        self.check_token_supply()
        return Log(
            players=self.players.names if self.players else [],
            me=self.me,
            rounds=self.rounds,
            facts=self.facts,
            events=len(self.raw_events),
            warnings=self.warnings,
        )

    def read_event(self, number: int, kind: str, event: dict) -> None:
        getattr(self, f"on_{kind}")(number, event, {"event": number})

    def open_round(self, number: int, where: dict) -> Round:
        """The round this event belongs to; a round that is over makes room for the next one."""
        current = self.rounds[-1]
        if current.won is not None:
            current = self.new_round(number, None)
        return current

    def new_round(self, number: int, eyewitness: str | None) -> Round:
        previous = self.rounds[-1]
        if previous.solved_by is not None and previous.won is None:
            who, card, event = previous.solved_by
            previous.won = (who, card, event)
        if eyewitness is None and previous.eyewitness and self.players:
            seats = self.players.names
            eyewitness = seats[(seats.index(previous.eyewitness) + 1) % len(seats)]
        started = Round(len(self.rounds), eyewitness, number)
        self.rounds.append(started)
        return started

    def on_round(self, number: int, event: dict, where: dict) -> None:
        body = event["round"] or {}
        if not isinstance(body, dict):
            raise InputError("round takes a mapping such as {eyewitness: Ben}")
        eyewitness = body.get("eyewitness")
        eyewitness = self.player(eyewitness, where) if eyewitness is not None else None
        current = self.rounds[-1]
        untouched = not current.face_up and not current.out and current.solved_by is None
        if len(self.rounds) == 1 and untouched and current.won is None:
            current.eyewitness, current.start_event = eyewitness, number  # the first round
        else:
            self.new_round(number, eyewitness)

    def on_card(self, number: int, event: dict, where: dict) -> None:
        card = parse_card(event["card"], where)
        if "token" not in event:
            raise InputError("a face-up card needs its token: token: 0, 1 or 2")
        token = event["token"]
        if token == 3:
            raise InputError(
                "a token of 3 is impossible: a face-up card is never the secret card itself"
            )
        if token not in (0, 1, 2) or isinstance(token, bool):
            raise InputError(f"token must be 0, 1 or 2, got {token!r}")
        current = self.open_round(number, where)
        if current.solved_by is not None:
            raise InputError(
                f"round {current.number + 1} was solved at event {current.solved_by[2]}; "
                "start the next one with 'round'"
            )
        if card in current.face_up:
            raise InputError(
                f"card [{card_label(card)}] is already face up in this round "
                f"(event {current.face_up[card]})"
            )
        for earlier in self.rounds[:-1]:
            if earlier.won and earlier.won[1] == card:
                raise InputError(
                    f"card [{card_label(card)}] was won at event {earlier.won[2]} and left the deck"
                )
        if (
            self.players
            and len(self.players.names) == 2
            and len(current.face_up) >= TWO_PLAYER_CARD_LIMIT
        ):
            raise InputError(
                "with two players the round ends after the sixth face-up card "
                "(the eyewitness wins it); start the next one with 'round'"
            )
        current.face_up[card] = number
        current.tokens[card] = token
        self.facts.append(Fact(number, current.number, "token", card, token))
        for earlier in self.rounds[:-1]:  # the card was in this round's deck: no earlier secret
            self.facts.append(Fact(number, earlier.number, "not", card))

    def on_accuse(self, number: int, event: dict, where: dict) -> None:
        body = event["accuse"]
        if not isinstance(body, dict) or "suspects" not in body or "correct" not in body:
            raise InputError("accuse takes {by: PLAYER, suspects: [3 suspects], correct: BOOL}")
        card = parse_card(body["suspects"], where)
        correct = body["correct"]
        if not isinstance(correct, bool):
            raise InputError(f"correct must be true or false, got {correct!r}")
        by = self.player(body["by"], where) if body.get("by") is not None else None
        current = self.open_round(number, where)
        if current.solved_by is not None:
            raise InputError(f"round {current.number + 1} was already solved")
        if by is not None and by == current.eyewitness:
            raise InputError(f"{by} is the eyewitness of this round and cannot accuse")
        if by is not None and by in current.out:
            raise InputError(
                f"{by} made a wrong accusation at event {current.out[by]} "
                "and is out for the rest of the round"
            )
        if correct:
            current.solved_by = (by, card, number)
            self.facts.append(Fact(number, current.number, "is", card))
        else:
            if by is not None:
                current.out[by] = number
            self.facts.append(Fact(number, current.number, "not", card))

    def on_won(self, number: int, event: dict, where: dict) -> None:
        body = event["won"] or {}
        if not isinstance(body, dict):
            raise InputError("won takes {by: PLAYER, card: [3 suspects]} (card optional)")
        by = self.player(body["by"], where) if body.get("by") is not None else None
        card = parse_card(body["card"], where) if body.get("card") is not None else None
        current = self.rounds[-1]
        if current.won is not None:
            raise InputError(f"round {current.number + 1} is already over; start one with 'round'")
        if card is None and current.solved_by is not None:
            card = current.solved_by[1]
        current.won = (by, card, number)
        if card is not None:
            self.facts.append(Fact(number, current.number, "is", card))

    def check_token_supply(self) -> None:
        for current in self.rounds:
            for token, supply in TOKEN_SUPPLY.items():
                used = sum(1 for t in current.tokens.values() if t == token)
                if used > supply:
                    self.warnings.append(
                        f"round {current.number + 1} uses {used} tokens of {token}; "
                        f"the box holds only {supply}"
                    )


def parse(doc: Document, upto: int | None = None, key: str = "events") -> Log:
    """Validate a three-of-a-crime log (up to event `upto`) into rounds and facts.

    `key` is "events" for a log and "given" for a puzzle's clues."""
    log = _Reader(doc, upto, key).read()
    if log.current.won is not None:  # the round is over: what is known is the next round's deck
        previous, seats = log.current.eyewitness, log.players
        eyewitness = seats[(seats.index(previous) + 1) % len(seats)] if previous in seats else None
        log.rounds.append(Round(len(log.rounds), eyewitness, log.events + 1))
    return log
