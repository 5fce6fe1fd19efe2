"""Three of a Crime: the seven suspects, the 35 cards, and what a token says (RULINGS.md §1)."""

from __future__ import annotations

from itertools import combinations

from solver.names import NameSet

SUSPECTS = (
    "Humpty Bumpty",
    "Jonny Cortex",
    "Kid Cassidy",
    "Loose-Eye Lenny",
    "Louie St. Louis",
    "No Neck Nick",
    "Pencil Top",
)
ABBREVIATIONS = dict(zip(("HB", "JC", "KC", "LEL", "LSL", "NNN", "PT"), SUSPECTS, strict=True))
SUSPECT_NAMES = NameSet("suspect", SUSPECTS, ABBREVIATIONS)

Card = tuple[int, int, int]  # suspect indexes, ascending: the canonical order of RULINGS.md
CARDS: tuple[Card, ...] = tuple(combinations(range(len(SUSPECTS)), 3))  # all 35, each once
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}

TOKEN_SUPPLY = {0: 7, 1: 8, 2: 5}  # tokens in the box: more in one round earns a warning
TWO_PLAYER_CARD_LIMIT = 6  # two players: the eyewitness wins if unsolved by the sixth card


def overlap(card: Card, secret: Card) -> int:
    """The token the eyewitness places on `card`: how many of its suspects are on the secret card."""
    return len(set(card) & set(secret))


def card_names(card: Card) -> list[str]:
    return [SUSPECTS[i] for i in card]


def card_label(card: Card) -> str:
    return ", ".join(card_names(card))


def short_label(card: Card) -> str:
    return " ".join(list(ABBREVIATIONS)[i] for i in card)
