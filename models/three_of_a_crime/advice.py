"""What to accuse, whether to accuse now, and what the next face-up card is expected to do.

The accuse-now rule (documented in docs/three-of-a-crime.md): accuse when it is certain, or when the
chance p of being right now is more than W, the chance of winning by waiting for exactly one more
card and then acting as well as possible. After that card, a certain answer is a race between the
D detectives still in the round (everyone sees the card at once), worth 1/D; an uncertain one is
worth its best accusation's probability. With two players there is no race (D = 1) and waiting
never hurts, except that after the sixth face-up card no card is left: then W = 0.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from models.three_of_a_crime.counter import BIT, Posterior, candidate_sets, count_worlds
from models.three_of_a_crime.log import Log
from models.three_of_a_crime.rules import CARDS, TWO_PLAYER_CARD_LIMIT, Card, overlap


@dataclass
class NextCard:
    """What the next face-up card will do, averaged exactly over the worlds and the draw."""

    expected_candidates: Fraction
    p_unique: Fraction
    wait_value: Fraction  # W of the accuse-now rule
    outcomes: int  # distinct (card, token) outcomes


@dataclass
class Advice:
    best: list[Card]  # the accusations of highest probability (ties)
    p_best: Fraction
    detectives_in: int
    accuse_now: bool
    reason: str
    next_card: NextCard | None  # None when no card can be turned any more


def detectives_in(log: Log) -> int:
    """Detectives still allowed to accuse in the current round (at least 1).

    Every round has an eyewitness, named in the log or not: the detectives are the other players."""
    current = log.current
    if not log.players:
        return max(1, 2 - len(current.out))
    return max(1, len(log.players) - 1 - len(current.out))


def next_card(log: Log, post: Posterior, racers: int) -> NextCard | None:
    """Exact effect of the next face-up card.

    In a world where the current secret is s, the next card is uniform over the cards still in the
    deck that are neither s nor face up: that excludes the earlier rounds' secrets, so the weight of
    (s, c) is the number of worlds with secret s in which c was not an earlier secret."""
    rounds = len(log.rounds)
    face_up = set(log.current.face_up)
    if len(log.players) == 2 and len(face_up) >= TWO_PLAYER_CARD_LIMIT:
        return None
    sets = candidate_sets(log.facts, rounds)
    remaining = len(CARDS) - (rounds - 1) - 1 - len(face_up)
    if remaining <= 0 or post.worlds == 0:
        return None
    joint: dict[tuple[Card, int], dict[Card, int]] = defaultdict(dict)
    for secret in post.card_counts:
        for card in CARDS:
            if card == secret or card in face_up:
                continue
            earlier = [s & ~BIT[card] for s in sets[:-1]]
            weight = count_worlds([*earlier, BIT[secret]])
            if weight:
                joint[card, overlap(card, secret)][secret] = weight
    total = post.worlds * remaining
    expected = Fraction(0)
    unique = Fraction(0)
    wait = Fraction(0)
    for by_secret in joint.values():
        mass = sum(by_secret.values())
        p_outcome = Fraction(mass, total)
        expected += p_outcome * len(by_secret)
        if len(by_secret) == 1:
            unique += p_outcome
            wait += p_outcome / racers
        else:
            wait += Fraction(max(by_secret.values()), total)
    return NextCard(expected, unique, wait, len(joint))


def advise(log: Log, post: Posterior) -> Advice:
    """The best accusation and whether to make it now."""
    top = max(post.card_counts.values())
    best = sorted(c for c, n in post.card_counts.items() if n == top)
    p_best = Fraction(top, post.worlds)
    racers = detectives_in(log)
    upcoming = next_card(log, post, racers)
    if p_best == 1:
        return Advice(best, p_best, racers, True, "the answer is certain", upcoming)
    if upcoming is None:
        reason = "no face-up card is left to wait for: accuse with the best chance"
        return Advice(best, p_best, racers, True, reason, upcoming)
    accuse = p_best > upcoming.wait_value
    compare = ">" if accuse else "≤"
    reason = (
        f"p = {float(p_best):.3f} {compare} {float(upcoming.wait_value):.3f}, the chance of winning "
        f"by waiting one card with {racers} detective(s) in the round"
    )
    return Advice(best, p_best, racers, accuse, reason, upcoming)
