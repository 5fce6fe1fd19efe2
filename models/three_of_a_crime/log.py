"""Reading a Three of a Crime log into rounds and facts, with a clear error for every bad event.

Every event becomes zero or more *facts* about the secret cards of the rounds, tagged with the
event's number. The exact counter, the CP-SAT model and the python-constraint model all read the
same facts, so they can only disagree if one of them is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from models.three_of_a_crime.counter import Draw
from models.three_of_a_crime.rules import (
    CARDS,
    SUSPECT_NAMES,
    TOKEN_SUPPLY,
    TWO_PLAYER_CARD_LIMIT,
    Card,
    card_label,
)
from solver.errors import InputError
from solver.logfile import Document, read_events, shown

EVENT_KINDS = ("round", "card", "accuse", "won", "secret")
GAME = "three-of-a-crime"
BOTH = "both"  # `round: {eyewitness: both}`: the variation for two


@dataclass(frozen=True)
class Fact:
    """One thing an event proves about secret card number `secret` (0-based, in draw order: the
    round's number in the classic game; two secrets per round in the variation for two)."""

    event: int  # 1-based event number
    secret: int
    kind: (
        str  # "token": overlap(secret, card) == token; "not": secret != card; "is": secret == card
    )
    card: Card
    token: int = -1


@dataclass
class Round:
    number: int  # 0-based
    eyewitness: str | None  # the classic round's eyewitness; None if unnamed or the variation
    start_event: int
    face_up: dict[Card, int] = field(default_factory=dict)  # card -> event that showed it
    tokens: dict[Card, int] = field(default_factory=dict)
    out: dict[str, int] = field(
        default_factory=dict
    )  # detective -> event of their wrong accusation
    solved_by: tuple[str | None, Card, int] | None = None  # (who, card, event) once correct
    won: tuple[str | None, Card | None, int] | None = None  # round over: (winner, card, event)
    secrets: list[int] = field(default_factory=list)  # indexes of the round's secret cards
    variation: tuple[str, str] | None = None  # the variation for two: both players, seat order
    won_secret: int | None = None  # the secret that was won (left the deck), once known
    eliminated: int | None = None  # the event at which the last detective accused wrongly

    @property
    def eyewitnesses(self) -> list[str | None]:
        """The eyewitness of each of the round's secrets, in the order of `secrets`."""
        return list(self.variation) if self.variation else [self.eyewitness]

    def secret_of(self, eyewitness: str | None) -> int:
        return (
            self.secrets[self.eyewitnesses.index(eyewitness)] if self.variation else self.secrets[0]
        )

    @property
    def over(self) -> bool:
        """Won, or (in the variation) both players out after wrong accusations."""
        return self.won is not None or (self.variation is not None and len(self.out) == 2)

    @property
    def ended(self) -> tuple[str | None, int, str] | None:
        """A round that is over but not closed by `won`: (who takes the card, the event that
        ended it, how). Only `won` or the next `round` may follow it (house ruling). The
        variation's round with both players out goes on by itself (`over`)."""
        if self.won is not None:
            return None
        if self.solved_by is not None:
            return self.solved_by[0], self.solved_by[2], "correct accusation"
        if self.eliminated is not None:
            return self.eyewitness, self.eliminated, "every detective accused wrongly"
        return None

    def leaves(self, secret: int) -> bool:
        """Whether the secret left the deck for good when the round ended: always in the classic
        game (someone won it); in the variation only the card that was won (house ruling)."""
        return self.variation is None or secret == self.won_secret


@dataclass
class Log:
    players: list[str]
    me: str | None
    rounds: list[Round]
    facts: list[Fact]
    events: int  # number of events read
    warnings: list[str] = field(default_factory=list)
    private: set[int] = field(default_factory=set)  # `secret` events: what only their seer knows

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def facts_upto(self, events: set[int] | None = None) -> list[Fact]:
        return [f for f in self.facts if events is None or f.event in events]

    @property
    def draws(self) -> list[Draw]:
        return draws_of(self.rounds)

    @property
    def focus(self) -> list[int]:
        """The current round's secrets (one; two in the variation)."""
        return list(self.current.secrets)

    @property
    def solving(self) -> int:
        return solving_secret(self.current, self.me)


def solving_secret(current: Round, me: str | None) -> int:
    """The secret `me` is trying to name: the round's, or in the variation the other player's
    (without `me`: the second player's, as if the first were asking)."""
    if not current.variation:
        return current.secrets[0]
    seer = me if me in current.variation else current.variation[0]
    other = [p for p in current.variation if p != seer][0]
    return current.secret_of(other)


def next_eyewitness(round_: Round, players: list[str]) -> str | None:
    """The eyewitness of the round after `round_`: the player to the left of its eyewitness."""
    if round_.eyewitness not in players:
        return None
    return players[(players.index(round_.eyewitness) + 1) % len(players)]


def round_over_text(round_: Round) -> str | None:
    """What ended a round that no `won` has closed yet, in a player's words (None: not over)."""
    ended = round_.ended
    if ended is None:
        return None
    who, event, how = ended
    number = round_.number + 1
    if how == "correct accusation":
        return f"round {number} is over: {who or 'a detective'} named the card at event {event}"
    claims = f"{who}, the eyewitness," if who else "the eyewitness"
    return (
        f"round {number} is over: every detective has accused wrongly (the last at event "
        f"{event}), so {claims} claims the card"
    )


def start_next_text(round_: Round, players: list[str]) -> str:
    """How to start the round after `round_`, naming its eyewitness when the seats tell."""
    after = BOTH if round_.variation else next_eyewitness(round_, players)
    return f"start the next round with 'round {after or 'EYEWITNESS'}'"


def go_on_text(round_: Round, players: list[str]) -> str:
    """What a player logs after a round that is over: the next round, `won` if they like."""
    ended = round_.ended
    who = ended[0] if ended and ended[0] else "PLAYER"
    return f"{start_next_text(round_, players)} (a 'won {who}' line may come first)"


def draws_of(rounds: list[Round]) -> list[Draw]:
    """Every secret drawn so far, in draw order; the last round's are still out of the deck."""
    draws = []
    for round_ in rounds:
        last = round_ is rounds[-1]
        draws += [Draw(round_.number, last or round_.leaves(s)) for s in round_.secrets]
    return draws


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

    def __init__(
        self,
        doc: Document,
        upto: int | None,
        key: str,
        after_event: Callable[[_Reader, int], None] | None = None,
    ):
        doc.check_game(GAME)
        self.players, self.me = doc.players()
        self.doc, self.key = doc, key
        self.raw_events = doc.events(key, upto)
        self.rounds: list[Round] = [Round(0, None, 0, secrets=[0])]
        self.facts: list[Fact] = []
        self.warnings: list[str] = []
        self.private: set[int] = set()
        self.after_event = after_event  # replay's hook: called with the state after each event

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
            private=self.private,
        )

    def read_event(self, number: int, kind: str, event: dict) -> None:
        getattr(self, f"on_{kind}")(number, event, {"event": number})
        if self.after_event is not None:
            self.after_event(self, number)

    # --- rounds and the deck -----------------------------------------------------------------

    def open_round(self, number: int, where: dict) -> Round:
        """The round this event belongs to; a round that is over makes room for the next one."""
        current = self.rounds[-1]
        if current.over:
            current = self.new_round(number, None)
        return current

    def refuse_if_over(self, current: Round) -> None:
        """A round that is over takes no more face-up cards or accusations: one line saying why
        and how to go on (so the next round's events never join this one)."""
        over = round_over_text(current)
        if over is not None:
            seats = self.players.names if self.players else []
            raise InputError(f"{over}; {go_on_text(current, seats)}")

    def new_round(self, number: int, eyewitness: str | None, variation: bool = False) -> Round:
        previous = self.rounds[-1]
        if previous.solved_by is not None and previous.won is None:
            who, card, event = previous.solved_by
            previous.won = (who, card, event)
        if previous.eliminated is not None and previous.won is None:
            previous.won = (previous.eyewitness, None, previous.eliminated)  # claimed unseen
        if previous.variation and eyewitness is None:
            variation = True  # the variation goes on
        if eyewitness is None and previous.eyewitness and self.players and not variation:
            seats = self.players.names
            eyewitness = seats[(seats.index(previous.eyewitness) + 1) % len(seats)]
        started = Round(len(self.rounds), eyewitness, number)
        self.start_secrets(started, variation)
        self.rounds.append(started)
        return started

    def start_secrets(self, started: Round, variation: bool) -> None:
        """Draw the round's secret card(s), if the deck still holds enough."""
        started.variation = None
        if variation:
            if not self.players or len(self.players.names) != 2:
                raise InputError(
                    "the variation for two (eyewitness: both) needs 'players:' with two names"
                )
            first, second = self.players.names
            started.variation, started.eyewitness = (first, second), None
        others = [r for r in self.rounds if r is not started]
        drawn = sum(len(r.secrets) for r in others)
        left = len(CARDS) - sum(r.leaves(s) for r in others for s in r.secrets)
        need = 2 if variation else 1
        if left < need:
            raise InputError(
                f"round {started.number + 1} cannot start: {left} card(s) left in the deck "
                "(every won card has left it)"
            )
        started.secrets = list(range(drawn, drawn + need))

    def on_round(self, number: int, event: dict, where: dict) -> None:
        body = {} if event["round"] is None else event["round"]
        if not isinstance(body, dict):
            raise InputError(
                "round takes a mapping such as {eyewitness: Ben} or {eyewitness: both}, "
                f"not {shown(body)}"
            )
        eyewitness = body.get("eyewitness")
        variation = self.is_both(eyewitness)
        if variation:
            eyewitness = None
        elif eyewitness is not None:
            eyewitness = self.player(eyewitness, where)
        current = self.rounds[-1]
        untouched = not current.face_up and not current.out and current.solved_by is None
        if len(self.rounds) == 1 and untouched and current.won is None and not self.facts:
            current.eyewitness, current.start_event = eyewitness, number  # the first round
            self.start_secrets(current, variation)
        else:
            self.new_round(number, eyewitness, variation)

    def is_both(self, eyewitness: object) -> bool:
        """`both`, or a list of the two players: the variation for two."""
        if isinstance(eyewitness, str) and eyewitness.lower() == BOTH:
            named_both = self.players and BOTH in (p.lower() for p in self.players.names)
            return not named_both  # a player named Both: the name wins
        if isinstance(eyewitness, list):
            names = {self.player(p, {}) for p in eyewitness}
            if not self.players or names != set(self.players.names) or len(names) != 2:
                raise InputError(
                    "a list of eyewitnesses must name both players (the variation for two)"
                )
            return True
        return False

    def space(self, current: Round, event: dict, where: dict, key: str = "eyewitness") -> int:
        """Which secret of the round an event is about: `eyewitness: P` names its space."""
        named = event.get(key)
        if current.variation:
            if named is None:
                raise InputError(
                    f"in the variation for two, say whose card it is: {key}: "
                    f"{current.variation[0]} or {current.variation[1]}"
                )
            return current.secret_of(self.player(named, where))
        if named is not None:
            who = self.player(named, where)
            if current.eyewitness is None:
                current.eyewitness = who
            elif who != current.eyewitness:
                raise InputError(
                    f"{who} is not the eyewitness of round {current.number + 1} "
                    f"({current.eyewitness} is)"
                )
        return current.secrets[0]

    def alive_before(self, current: Round) -> list[int]:
        """Earlier rounds' secrets that are still out of the deck: the won cards."""
        return [s for r in self.rounds[:-1] for s in r.secrets if r.leaves(s)]

    # --- events ----------------------------------------------------------------------------

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
        self.refuse_if_over(current)
        secret = self.space(current, event, where)
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
            and not current.variation
            and len(current.face_up) >= TWO_PLAYER_CARD_LIMIT
        ):
            raise InputError(
                "with two players the round ends after the sixth face-up card "
                f"(the eyewitness wins it); {start_next_text(current, self.players.names)}"
            )
        alive = self.alive_before(current)
        if len(current.face_up) + len(alive) + len(current.secrets) >= len(CARDS):
            raise InputError(
                f"no card is left in the deck to turn: {len(alive)} won, "
                f"{len(current.secrets)} secret, {len(current.face_up)} face up"
            )
        current.face_up[card] = number
        current.tokens[card] = token
        self.facts.append(Fact(number, secret, "token", card, token))
        for other in current.secrets:  # the card came from the deck: it is no secret out of it
            if other != secret:
                self.facts.append(Fact(number, other, "not", card))
        for won in alive:
            self.facts.append(Fact(number, won, "not", card))

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
        self.refuse_if_over(current)
        if current.variation and by is None:
            raise InputError("in the variation for two, say who accuses: by: PLAYER")
        if by is not None and by == current.eyewitness:
            raise InputError(f"{by} is the eyewitness of this round and cannot accuse")
        if by is not None and by in current.out:
            raise InputError(
                f"{by} made a wrong accusation at event {current.out[by]} "
                "and is out for the rest of the round"
            )
        secret = self.accused_secret(current, by)
        if correct:
            current.solved_by = (by, card, number)
            current.won_secret = secret  # the race is won (the variation): this card leaves
            self.facts.append(Fact(number, secret, "is", card))
        else:
            if by is not None:
                current.out[by] = number
                self.check_everyone_out(current, number)
            self.facts.append(Fact(number, secret, "not", card))

    def check_everyone_out(self, current: Round, number: int) -> None:
        """The rulebook: once every detective has accused wrongly the round is over and the
        eyewitness claims the card; the one player left is the eyewitness."""
        if current.variation or not self.players:
            return
        seats = self.players.names
        if len(current.out) < len(seats) - 1:
            return
        left = [p for p in seats if p not in current.out]
        if not left:  # a table of one: nobody is left to be the eyewitness
            raise InputError(
                "every player in 'players:' has accused wrongly, but one of them is the "
                "eyewitness: list every player at the table"
            )
        current.eliminated = number
        if current.eyewitness is None:
            current.eyewitness = left[0]

    @staticmethod
    def accused_secret(current: Round, by: str | None) -> int:
        """A detective's accusation is about the other player's card in the variation."""
        if not current.variation:
            return current.secrets[0]
        other = [p for p in current.variation if p != by][0]
        return current.secret_of(other)

    def on_won(self, number: int, event: dict, where: dict) -> None:
        body = {} if event["won"] is None else event["won"]
        if not isinstance(body, dict):
            raise InputError(
                f"won takes {{by: PLAYER, card: [3 suspects]}} (card optional), not {shown(body)}"
            )
        by = self.player(body["by"], where) if body.get("by") is not None else None
        card = parse_card(body["card"], where) if body.get("card") is not None else None
        current = self.rounds[-1]
        if current.over:
            raise InputError(f"round {current.number + 1} is already over; start one with 'round'")
        if current.variation and by is None:
            raise InputError("in the variation for two, say who won: by: PLAYER")
        if by in current.out:
            claims = ""
            if current.eliminated is not None and current.eyewitness:
                claims = f"; {current.eyewitness}, the eyewitness, claims the card"
            raise InputError(
                f"{by} made a wrong accusation at event {current.out[by]} and cannot win "
                f"round {current.number + 1}{claims}"
            )
        if card is None and current.solved_by is not None:
            card = current.solved_by[1]
        secret = self.accused_secret(current, by)
        current.won, current.won_secret = (by, card, number), secret
        if card is not None:
            self.facts.append(Fact(number, secret, "is", card))

    def on_secret(self, number: int, event: dict, where: dict) -> None:
        """A secret card seen: my own (as its eyewitness), or any shown to the one logging."""
        body = event["secret"]
        if isinstance(body, dict):
            if "card" not in body:
                raise InputError("secret takes [3 suspects] or {eyewitness: PLAYER, card: [...]}")
            card, named = parse_card(body["card"], where), body.get("eyewitness")
        else:
            card, named = parse_card(body, where), None
        current = self.open_round(number, where)
        whose = self.me if named is None else self.player(named, where)
        if current.ended and whose is not None and whose != current.eyewitness:
            self.refuse_if_over(current)  # most likely the next round's eyewitness's own card
        if named is None:
            if self.me is None:
                raise InputError(
                    "whose card is it? add 'me:' to the header, or write "
                    "secret: {eyewitness: PLAYER, card: [...]}"
                )
            if self.me not in current.eyewitnesses and current.eyewitness is not None:
                raise InputError(
                    f"{self.me} is not an eyewitness of round {current.number + 1}: "
                    "write secret: {eyewitness: PLAYER, card: [...]}"
                )
            named = self.me
        secret = self.space(current, {"eyewitness": named}, where)
        self.private.add(number)
        self.facts.append(Fact(number, secret, "is", card))

    def check_token_supply(self) -> None:
        for current in self.rounds:
            for token, supply in TOKEN_SUPPLY.items():
                used = sum(1 for t in current.tokens.values() if t == token)
                if used > supply:
                    self.warnings.append(
                        f"round {current.number + 1} uses {used} tokens of {token}; "
                        f"the box holds only {supply}"
                    )

    def next_round(self) -> Round | None:
        """The round after one that is over (what is known then is its deck); None when the
        round goes on, or when the deck has no card left for it."""
        previous = self.rounds[-1]
        if not previous.over:
            return None
        left = len(CARDS) - sum(r.leaves(s) for r in self.rounds for s in r.secrets)
        if left < (2 if previous.variation else 1):
            return None
        seats = self.players.names if self.players else []
        eyewitness = (
            seats[(seats.index(previous.eyewitness) + 1) % len(seats)]
            if previous.eyewitness in seats
            else None
        )
        fresh = Round(len(self.rounds), eyewitness, len(self.raw_events) + 1)
        drawn = sum(len(r.secrets) for r in self.rounds)
        fresh.secrets = list(range(drawn, drawn + (2 if previous.variation else 1)))
        fresh.variation = previous.variation
        return fresh

    def world(self) -> tuple[list[Round], list[Draw]]:
        """The rounds as they stand now (with the next one when the last is over) and the draws."""
        fresh = self.next_round()
        rounds = [*self.rounds, fresh] if fresh else self.rounds
        return rounds, draws_of(rounds)


def parse(
    doc: Document,
    upto: int | None = None,
    key: str = "events",
    after_event: Callable[[_Reader, int], None] | None = None,
) -> Log:
    """Validate a three-of-a-crime log (up to event `upto`) into rounds and facts.

    `key` is "events" for a log and "given" for a puzzle's clues. `after_event(reader, number)` is
    called after each event (replay reads the state there, in one pass)."""
    reader = _Reader(doc, upto, key, after_event)
    log = reader.read()
    log.rounds = reader.world()[0]
    return log
