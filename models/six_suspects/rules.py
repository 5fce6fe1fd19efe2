"""6 Suspects: the layout, the deck, and the resolution of RULINGS.md §2, one step per function.

Slots are `A1`…`F2`: column A–F (a suspect), row 1 or 2. Slot index = 2 × column + row, so the
two cards under a suspect are neighbours in a layout tuple. Values are kept *doubled* as integers
(the Diamond's 9½ is 19) so that every total is exact.

Resolution (RULINGS.md §2): Swap exchanges its row neighbours; each Torch copies its row neighbour
(left or right; rows wrap around); each Mirror (and a Torch that copied it) copies the other card
of its column; a Police effect puts its column out, a Diamond effect makes it 9½, otherwise the
column adds its two values; the culprits are the non-Police columns with the highest total.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from solver.errors import InputError
from solver.logfile import read_deck_file
from solver.names import NameSet

COLUMNS = "ABCDEF"
ROWS = 2
SLOTS = tuple(f"{c}{r}" for c in COLUMNS for r in (1, 2))  # A1 A2 B1 B2 ... F2
SLOT_NAMES = NameSet("slot", SLOTS)
SPECIAL_KINDS = ("swap", "torch-left", "torch-right", "mirror", "diamond", "police")
KINDS = ("plain", *SPECIAL_KINDS)
DEFAULT_DECK = Path(__file__).with_name("deck.yaml")
MAX_VALUE = 1000  # a deck's card values and Diamond total lie within ±MAX_VALUE


def slot_index(column: int, row: int) -> int:
    """Index of the slot under suspect `column` (0-5) in `row` (0 or 1)."""
    return 2 * column + row


def column_of(slot: int) -> int:
    return slot // 2


def row_of(slot: int) -> int:
    return slot % 2


def neighbour(slot: int, step: int) -> int:
    """The slot in the same row, `step` columns to the right (-1: left); the row wraps around."""
    return slot_index((column_of(slot) + step) % len(COLUMNS), row_of(slot))


def partner(slot: int) -> int:
    """The other slot under the same suspect."""
    return slot ^ 1


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    value2: int = 0  # doubled value (plain cards and the Swap)


@dataclass(frozen=True)
class Deck:
    suspects: tuple[str, ...]
    cards: tuple[Card, ...]
    diamond2: int  # doubled Diamond total

    def card(self, kind: str) -> Card | None:
        return next((c for c in self.cards if c.kind == kind), None)

    @property
    def names(self) -> NameSet:
        aliases = {"tl": "torch-left", "tr": "torch-right", "9.5": "diamond", "9½": "diamond"}
        known = {c.name for c in self.cards}
        return NameSet(
            "card", [c.name for c in self.cards], {k: v for k, v in aliases.items() if v in known}
        )

    def by_name(self, name: object) -> Card:
        resolved = self.names.resolve(str(name))
        return next(c for c in self.cards if c.name == resolved)


def doubled(value: object, where: str) -> int:
    try:
        twice = Fraction(str(value)) * 2
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: value {value!r} is not a number") from None
    if twice.denominator != 1:
        raise InputError(f"{where}: values must be multiples of ½, got {value!r}")
    if abs(twice) > 2 * MAX_VALUE:  # the counter sums values in fixed-width integers
        raise InputError(f"{where}: values lie between -{MAX_VALUE} and {MAX_VALUE}, got {value!r}")
    return int(twice)


def load_deck(path: str | Path | None = None) -> Deck:
    """Read and validate a deck file (default: the bundled one)."""
    path = Path(path) if path else DEFAULT_DECK
    data = read_deck_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise InputError(f"deck {path}: expected 'suspects', 'diamond_total' and 'cards'")
    suspects = data.get("suspects")
    if not isinstance(suspects, list) or len(suspects) != len(COLUMNS):
        raise InputError(f"deck {path}: 'suspects' must list {len(COLUMNS)} names, columns A-F")
    if len(data["cards"]) != len(SLOTS):
        raise InputError(
            f"deck {path}: a 6 Suspects deck has {len(SLOTS)} cards, this one has {len(data['cards'])}"
        )
    cards = []
    for i, entry in enumerate(data["cards"], start=1):
        if not isinstance(entry, dict) or "name" not in entry or "kind" not in entry:
            raise InputError(f"deck {path}: card {i} needs a name and a kind")
        kind = str(entry["kind"]).lower()
        if kind not in KINDS:
            hint = NameSet("kind", KINDS).suggestion(kind)
            raise InputError(f"deck {path}: card {i} has unknown kind {kind!r}{hint}")
        value = entry.get("value", 4 if kind == "swap" else 0)
        cards.append(
            Card(str(entry["name"]).lower(), kind, doubled(value, f"deck {path}, card {i}"))
        )
    for kind in SPECIAL_KINDS:
        if sum(c.kind == kind for c in cards) > 1:
            raise InputError(f"deck {path}: at most one {kind} card")
    if len({c.name for c in cards}) != len(cards):
        raise InputError(f"deck {path}: card names must be different")
    diamond2 = doubled(data.get("diamond_total", 9.5), f"deck {path}, diamond_total")
    return Deck(tuple(map(str, suspects)), tuple(cards), diamond2)


# --- resolution -----------------------------------------------------------------------------
# An effect is what a slot counts as after the copying steps:
#   ("value", v2)  a doubled value;   ("diamond",)  ("police",)  ("mirror",)  a special effect;
#   ("nothing",)   a Torch or Mirror that copied nothing (worth 0).
Effect = tuple


def apply_swap(layout: tuple[Card, ...]) -> tuple[Card, ...]:
    """Step 1: the Swap's two row neighbours exchange places."""
    cards = list(layout)
    for slot, card in enumerate(layout):
        if card.kind == "swap":
            left, right = neighbour(slot, -1), neighbour(slot, +1)
            cards[left], cards[right] = cards[right], cards[left]
    return tuple(cards)


def own_effect(card: Card) -> Effect:
    """What a card counts as before any copying."""
    if card.kind in ("plain", "swap"):
        return ("value", card.value2)  # a copied Swap gives only its value
    if card.kind in ("diamond", "police", "mirror"):
        return (card.kind,)
    return ("torch",)  # resolved in step 2


def apply_torches(layout: tuple[Card, ...]) -> list[Effect]:
    """Step 2: each Torch becomes a copy of its row neighbour; two Torches facing copy nothing."""
    effects = [own_effect(card) for card in layout]
    for slot, card in enumerate(layout):
        if card.kind in ("torch-left", "torch-right"):
            source = own_effect(layout[neighbour(slot, -1 if card.kind == "torch-left" else +1)])
            effects[slot] = ("nothing",) if source == ("torch",) else source
    return effects


def apply_mirrors(effects: list[Effect]) -> list[Effect]:
    """Step 3: each Mirror effect copies the other card of its column (after step 2)."""
    resolved = list(effects)
    for slot, effect in enumerate(effects):
        if effect == ("mirror",):
            other = effects[partner(slot)]
            resolved[slot] = ("nothing",) if other in (("mirror",), ("nothing",)) else other
    return resolved


def column_totals(effects: list[Effect], diamond2: int) -> list[int | None]:
    """Step 4: doubled totals per column; None for a column with a Police effect."""
    totals: list[int | None] = []
    for column in range(len(COLUMNS)):
        pair = [effects[slot_index(column, row)] for row in range(ROWS)]
        if ("police",) in pair:
            totals.append(None)
        elif ("diamond",) in pair:
            totals.append(diamond2)
        else:
            totals.append(sum(e[1] for e in pair if e[0] == "value"))
    return totals


def culprits_of(totals: list[int | None]) -> frozenset[int]:
    """Step 5: every non-Police column with the highest total."""
    scored = [t for t in totals if t is not None]
    if not scored:
        return frozenset()
    best = max(scored)
    return frozenset(c for c, t in enumerate(totals) if t == best)


def resolve(layout: tuple[Card, ...], deck: Deck) -> tuple[list[int | None], frozenset[int]]:
    """Column totals (doubled; None = Police) and the culprit columns of a full layout."""
    effects = apply_mirrors(apply_torches(apply_swap(layout)))
    totals = column_totals(effects, deck.diamond2)
    return totals, culprits_of(totals)
