"""Game of Suspicion: the deck, the options of the probability model, and the card rules of
RULINGS.md §3 as small functions over values.

Cards are their values, 0-10. The 10 (advanced game) counts as a 0 and a 1 at once: it adds 1 to
a hand's sum, ranks as a 0 for "smallest", counts as a 0 for card 7, is neither even nor greater
than 4, and is guessed as the two numbers 0 and 1. Two readings that change numbers are options
(`OPTIONS`): how the 10 ranks for card 6, and whether card 0 affects a player with one card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from solver.errors import InputError
from solver.logfile import as_whole, read_deck_file
from solver.names import NameSet

TEN = 10
VALUES = tuple(range(11))  # every card value, the 10 included (it is simply absent when unused)
DEFAULT_DECK = Path(__file__).with_name("deck.yaml")
OPTIONS = {  # each option's values, the default first (RULINGS.md §3, docs/game-of-suspicion.md)
    "choice_unit": ("card", "value"),
    "announce_model": ("restrict", "bayes"),
    "card0_one_card": ("unaffected", "exchanges"),  # a player with one card and card 0
    "card6_ten_rank": ("zero", "ten"),  # how small the 10 is for card 6
    "turn_order": ("rulebook", "free"),  # whether a log must keep the rulebook's turn order
}
ACTION_CARDS = tuple(range(10))  # the 10 has no action
NAMEABLE = tuple(range(2, 10))  # what card 1 may name
GREATER_THAN_FOUR = frozenset({5, 6, 7, 8, 9})  # card 4 shows these
EVEN_NONZERO = frozenset({2, 4, 6, 8})  # card 5 shows these
SUM_SHOWN_ABOVE = 10  # card 2: hands summing to more than this are shown


def points(value: int) -> int:
    """What a card adds to a hand's sum (card 2)."""
    return 1 if value == TEN else value


def rank(value: int, ten_rank: str = "zero") -> int:
    """How small a card is for card 6: the 10 ranks as a 0 (option `card6_ten_rank: zero`) or
    as a 10, above every other card (`ten`)."""
    return 0 if value == TEN and ten_rank == "zero" else value


def zeros(hand: Iterable[int]) -> int:
    """How many 0s a hand holds for card 7 (the 10 counts as a 0)."""
    return sum(1 for v in hand if v in (0, TEN))


def guess_numbers(hand: Iterable[int]) -> Counter:
    """The numbers a correct guess of `hand` names (the 10 is named as 0 and 1)."""
    numbers: Counter = Counter()
    for v in hand:
        if v == TEN:
            numbers.update((0, 1))
        else:
            numbers[v] += 1
    return numbers


def hand_from_guess(numbers: Iterable[int], size: int) -> list[int]:
    """The hand a correct guess of `size` cards shows: one pair 0, 1 stands for the 10 when the
    guess names one number more than the hand has cards."""
    hand = sorted(numbers)
    if len(hand) == size + 1:
        hand.remove(0)
        hand.remove(1)
        hand.append(TEN)
    return sorted(hand)


def smallest(hand: Iterable[int], ten_rank: str = "zero") -> set[int]:
    """The values card 6 may put face up: those of the smallest rank (ties are the holder's
    choice)."""
    hand = list(hand)
    low = min(rank(v, ten_rank) for v in hand)
    return {v for v in hand if rank(v, ten_rank) == low}


@dataclass(frozen=True)
class Deck:
    copies: dict[int, int]  # value -> copies in the advanced deck (the 10 included)
    special: int | None
    hand_size: int
    middle: int
    options: dict[str, str] = field(default_factory=dict)

    def cards(self, advanced: bool) -> Counter:
        """The values shuffled for a round (the special card only in the advanced game)."""
        return Counter({v: n for v, n in self.copies.items() if advanced or v != self.special})

    def option(self, name: str) -> str:
        return self.options[name]

    def with_options(self, overrides: dict) -> Deck:
        """The same deck with some options replaced (a log header's `options:`)."""
        return Deck(
            self.copies,
            self.special,
            self.hand_size,
            self.middle,
            {**self.options, **check_options(overrides)},
        )


def check_options(options: object) -> dict[str, str]:
    if not isinstance(options, dict):
        raise InputError("options must be a mapping, e.g. {choice_unit: card}")
    checked = {}
    for name, value in options.items():
        key = NameSet("option", OPTIONS).resolve(name)
        checked[key] = NameSet(f"{key} value", OPTIONS[key]).resolve(value)
    return checked


def load_deck(path: str | Path | None = None) -> Deck:
    """Read a deck file (the bundled one by default), with clear errors for bad content."""
    source = Path(path) if path else DEFAULT_DECK
    data = read_deck_file(source)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
        raise InputError(f"deck {source}: expected 'cards: {{value: copies, ...}}'")
    whole = f"whole numbers for the values, copies and sizes of deck {source}"
    copies = {as_whole(v, whole): as_whole(n, whole, 0, 99) for v, n in data["cards"].items()}
    special = as_whole(data["special"], whole) if data.get("special") is not None else None
    hand_size = as_whole(data.get("hand_size", 4), whole, 1, 99)
    middle = as_whole(data.get("middle", 2), whole)
    if any(v not in VALUES or n < 0 for v, n in copies.items()):
        raise InputError(f"deck {source}: card values are 0-10 with copies >= 0")
    if special is not None:
        copies.setdefault(special, 1)
    if middle not in (1, 2) or hand_size < 1:
        raise InputError(f"deck {source}: 'middle' is 1 or 2 cards, 'hand_size' at least 1")
    options = {name: values[0] for name, values in OPTIONS.items()}
    options.update(check_options(data.get("options") or {}))
    return Deck(copies, special, hand_size, middle, options)
