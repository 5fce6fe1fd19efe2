"""Self-play for 6 Suspects: one player looks 4 times plus once after an announcement, then votes.

Policies: `advice` looks where one more look most raises the chance of a correct vote (the exact
one-look value of `advice.one_look_values`, greedily at every look); `random` looks at a random
unseen slot. Both vote for the suspect most likely to be a culprit given what they saw, so the
difference between them is the value of choosing where to look.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from models.six_suspects.advice import one_look_values
from models.six_suspects.posterior import count
from models.six_suspects.rules import SLOTS, Card, Deck, resolve
from solver.errors import InputError
from solver.names import NameSet

LOOKS = 5  # four looks, and one more after someone announces
POLICIES = ("advice", "random")
CHUNK = {"advice": 2, "random": 200}  # games per batch chunk (~0.5-1 s here), never from workers


def choose_look(policy: str, rng: random.Random, deck: Deck, seen: dict[int, Card]) -> int:
    free = [s for s in range(len(SLOTS)) if s not in seen]
    if policy == "random":
        return rng.choice(free)
    _, values, information = one_look_values(deck, seen)
    best = max(values.values())
    ties = [s for s in free if values[s] == best]
    return max(ties, key=lambda s: (information[s], -s))


def play(rng: random.Random, deck: Deck, policy: str) -> bool:
    """One game from a random layout: does the vote hit a culprit?"""
    layout = list(deck.cards)
    rng.shuffle(layout)
    _, culprits = resolve(tuple(layout), deck)
    seen: dict[int, Card] = {}
    for _ in range(LOOKS):
        slot = choose_look(policy, rng, deck, seen)
        seen[slot] = layout[slot]
    counts = count(deck, seen)
    best = max(counts.culprit)
    vote = rng.choice([c for c, n in enumerate(counts.culprit) if n == best])
    return vote in culprits


@dataclass
class Result:
    policy: str
    games: int
    hits: int


def simulate(
    rng: random.Random, deck: Deck, games: int, policy: str, progress: Callable[[], None] | None
) -> Result:
    hits = 0
    for _ in range(games):
        hits += play(rng, deck, policy)
        if progress:
            progress()
    return Result(policy, games, hits)


def policies(policy: str | None) -> list[str]:
    """The policies a run plays: the one named, or all of them."""
    names = [policy] if policy else list(POLICIES)
    for name in names:
        if name not in POLICIES:
            raise InputError(
                f"unknown policy {name!r}{NameSet('policy', POLICIES).suggestion(name)}"
            )
    return names


@dataclass
class Tally:
    """A batch chunk's games: how many, and each policy's hits (picklable; chunks add up)."""

    games: int
    hits: dict[str, int]


def play_chunk(rng: random.Random, deck: Deck, games: int, policy: str | None) -> Tally:
    """`games` games under each policy in turn, from one generator (as a serial run plays)."""
    hits = {name: simulate(rng, deck, games, name, None).hits for name in policies(policy)}
    return Tally(games, hits)
