"""Suspeição: the deck (data, a model of the real one: RULINGS.md §4), FORCE requirements as
predicates on a card, and which cards a game with a given number of players uses.

A requirement is `odd`, `even`, a number range `A-B`, or a category (CLUE, WEAPON, LOCATION).
X cards (no number) meet no requirement, whatever their category.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from solver.errors import InputError
from solver.logfile import read_deck_file
from solver.names import NameSet

DEFAULT_DECK = Path(__file__).with_name("deck.yaml")
CATEGORIES = ("CLUE", "WEAPON", "LOCATION")
ACTIONS = ("FORCE", "REVEAL", "EXCHANGE", "TAKE", "BUY", "PASS")
OPTIONS = {"force_reveal": ("uniform", "protect")}
HAND_SIZE = 4
PLAYERS = range(3, 7)
BIG_GAME = 5  # the 5-6 icon: such cards are used only with this many players or more


@dataclass(frozen=True)
class Requirement:
    """What a FORCE asks for: a parity, a number range, or a category."""

    text: str
    parity: int | None = None  # 1 odd, 0 even
    low: int | None = None
    high: int | None = None
    category: str | None = None

    def met_by(self, card: Card) -> bool:
        if card.number is None:  # X cards meet no requirement
            return False
        if self.parity is not None:
            return card.number % 2 == self.parity
        if self.low is not None and self.high is not None:
            return self.low <= card.number <= self.high
        return card.category == self.category


def requirement(text: object) -> Requirement:
    """Read a requirement: odd, even, A-B, or a category (any case)."""
    words = str(text).strip()
    lowered = words.lower()
    if lowered in ("odd", "even"):
        return Requirement(lowered, parity=1 if lowered == "odd" else 0)
    span = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", words)
    if span and max(len(span.group(1)), len(span.group(2))) > 6:  # no card is numbered so high
        raise InputError(f"requirement {words[:40]!r}…: a range of card numbers, e.g. 35-50")
    if span:
        low, high = int(span.group(1)), int(span.group(2))
        if low > high:
            raise InputError(f"requirement {words!r}: the range runs from low to high")
        return Requirement(f"{low}-{high}", low=low, high=high)
    category = NameSet("requirement", [*CATEGORIES, "odd", "even"]).resolve(words)
    if category in ("odd", "even"):
        return requirement(category)
    return Requirement(category, category=category)


@dataclass(frozen=True)
class Card:
    name: str  # the number, or X1..X6
    number: int | None
    category: str
    action: str
    requires: Requirement | None = None
    big_game: bool = False
    block: bool = False


@dataclass(frozen=True)
class Deck:
    cards: tuple[Card, ...]
    bluff_rate: Fraction
    options: dict[str, str] = field(default_factory=dict)
    hand_size: int = HAND_SIZE  # cards each hand is dealt and refilled to (reduced decks: fewer)

    def for_players(self, players: int) -> tuple[Card, ...]:
        """The cards used with `players` players (3-4 players leave out the 5-6 icon cards)."""
        if players not in PLAYERS:
            raise InputError(f"Suspeição is for 3 to 6 players, not {players}")
        return tuple(c for c in self.cards if players >= BIG_GAME or not c.big_game)

    def with_options(self, given: object) -> Deck:
        """This deck with a log header's `options` overriding the deck file's."""
        bluff_rate, options = read_options(given, "options", self)
        return Deck(self.cards, bluff_rate, options, self.hand_size)

    def card(self, name: object) -> Card:
        for card in self.cards:  # the name as the log has it: most asks, and quick
            if card.name == name:
                return card
        found = NameSet("card", [c.name for c in self.cards]).resolve(name)
        return next(c for c in self.cards if c.name == found)

    def requirements(self) -> list[Requirement]:
        """Every distinct FORCE requirement in the deck, in deck order."""
        seen: dict[str, Requirement] = {}
        for card in self.cards:
            if card.requires is not None:
                seen.setdefault(card.requires.text, card.requires)
        return list(seen.values())


def read_card(index: int, item: object) -> Card:
    """One card of the deck file; errors name the card's position."""
    where = f"card {index + 1}"
    if not isinstance(item, dict):
        raise InputError(f"{where}: a card is a mapping, e.g. {{number: 7, category: CLUE, ...}}")
    number = item.get("number")
    if number is not None and (not isinstance(number, int) or number < 1):
        raise InputError(f"{where}: 'number' is a whole number from 1")
    name = str(number) if number is not None else str(item.get("name", "")).upper()
    if not name:
        raise InputError(f"{where}: give a 'number', or a 'name' for an X card")
    try:
        category = NameSet("category", CATEGORIES).resolve(item.get("category", ""))
        action = NameSet("action", ACTIONS).resolve(item.get("action", ""))
    except InputError as error:
        raise InputError(f"{where}: {error.message}") from None
    requires = None
    if action == "FORCE":
        if item.get("requires") is None:
            raise InputError(f"{where}: a FORCE card says what it 'requires' (odd, 1-17, CLUE...)")
        try:
            requires = requirement(item["requires"])
        except InputError as error:
            raise InputError(f"{where}: {error.message}") from None
    elif item.get("requires") is not None:
        raise InputError(f"{where}: only FORCE cards have a requirement")
    return Card(
        name,
        number,
        category,
        action,
        requires,
        bool(item.get("big_game", False)),
        bool(item.get("block", False)),
    )


def read_options(
    given: object, where: str, base: Deck | None = None
) -> tuple[Fraction, dict[str, str]]:
    """The probability model's options (bluff_rate, force_reveal) over those of `base`."""
    if given is not None and not isinstance(given, dict):
        raise InputError(f"{where}: options is a mapping, e.g. {{bluff_rate: 1/5}}")
    bluff_rate = base.bluff_rate if base else Fraction(1, 5)
    checked = dict(base.options) if base else {n: v[0] for n, v in OPTIONS.items()}
    for name, value in (given or {}).items():
        key = NameSet("option", [*OPTIONS, "bluff_rate"]).resolve(name)
        if key != "bluff_rate":
            checked[key] = NameSet(f"{key} value", OPTIONS[key]).resolve(value)
            continue
        try:
            bluff_rate = Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where}: bluff_rate is a probability, e.g. 1/5 or 0.2") from None
        if not 0 <= bluff_rate <= 1:
            raise InputError(f"{where}: bluff_rate is between 0 and 1")
    return bluff_rate, checked


def load_deck(path: str | Path | None = None) -> Deck:
    """Read a deck file (the bundled model by default), with clear errors for bad content.
    Decks are cached by path and modification time: a session re-reads the log often."""
    source = Path(path) if path else DEFAULT_DECK
    try:
        stamp = source.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _load_deck(str(source), stamp)


@functools.lru_cache(maxsize=16)
def _load_deck(where: str, stamp: int) -> Deck:
    source = Path(where)
    data = read_deck_file(source)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise InputError(f"deck {source}: expected 'cards: [...]'")
    cards = tuple(read_card(i, item) for i, item in enumerate(data["cards"]))
    names = [c.name for c in cards]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"deck {source}: card {twice[0]} is listed twice")
    bluff_rate, checked = read_options(data.get("options"), f"deck {source}")
    hand_size = data.get("hand_size", HAND_SIZE)
    if not isinstance(hand_size, int) or hand_size < 1:
        raise InputError(f"deck {source}: hand_size is a whole number from 1")
    return Deck(cards, bluff_rate, checked, hand_size)
