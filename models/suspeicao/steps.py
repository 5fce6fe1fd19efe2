"""The primitive steps a Suspeição log becomes: what happens to the hidden places (the other
players' hands and the draw pile), one small step at a time. The reader (log.py) writes them;
the exact filter (belief.py) and the CP-SAT model read only these.

A place is an opponent's name or PILE. Cards are named as in the deck ('13', 'X1').
"""

from __future__ import annotations

from dataclasses import dataclass, field

PILE = "pile"


@dataclass(frozen=True)
class Leave:
    """A given card leaves a hidden place: played, shown, revealed by chance, or drawn or taken by
    me. Weighs each world by the chance that this very card is there."""

    event: int
    place: str
    card: str


@dataclass(frozen=True)
class Isolate:
    """I learn that a hidden card is in a hidden place, where it stays (the card I returned after
    a polygraph, a card shown to me)."""

    event: int
    place: str
    card: str


@dataclass(frozen=True)
class Enter:
    """A card I know goes into another player's hand (I gave it, or it was taken from me)."""

    event: int
    place: str
    card: str


@dataclass(frozen=True)
class Hidden:
    """A uniformly random card, unseen by me, goes from one hidden place to another (a draw, a
    TAKE or an EXCHANGE between other players)."""

    event: int
    source: str
    target: str


@dataclass(frozen=True)
class Swap:
    """Two other players exchange a random card each, chosen from what they held before (EXCHANGE
    between other players: the taken card is random, the given one uniform by the model)."""

    event: int
    first: str
    second: str


@dataclass(frozen=True)
class Force:
    """A FORCE answered by a hidden hand: the revealed qualifying card (which then leaves), or a
    claim of none (revealed None). Weighs worlds by the model's chance of that answer."""

    event: int
    place: str
    requirement: str
    revealed: str | None


@dataclass(frozen=True)
class Fact:
    """A public statement: the hand holds (or lacks) a card meeting the requirement."""

    event: int
    place: str
    requirement: str
    has: bool


Step = Leave | Isolate | Enter | Hidden | Swap | Force | Fact


@dataclass
class Setup:
    """A round's hidden places at the deal, seen from `me`'s seat, and its steps."""

    opponents: list[str]  # the other players, in seat order: hidden hands
    hand_size: int
    pile: int  # cards in the draw pile after the deal
    hidden: list[str]  # every card in a hidden place at the deal
    incriminating: list[str]  # the round's four incriminating cards
    steps: list[Step] = field(default_factory=list)
