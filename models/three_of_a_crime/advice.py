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

from models.three_of_a_crime.counter import BIT, Posterior, candidate_sets, joint, must_differ
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

    Every round has an eyewitness, named in the log or not: the detectives are the other players.
    In the variation for two each card has one detective: the other player."""
    current = log.current
    if current.variation:
        return 1
    if not log.players:
        return max(1, 2 - len(current.out))
    return max(1, len(log.players) - 1 - len(current.out))


def next_card(log: Log, post: Posterior, racers: int) -> NextCard | None:
    """Exact effect of the next face-up card turned for the secret being solved.

    In a world where that secret is s, the next card is uniform over the cards still in the deck:
    not face up, and no secret out of the deck (s, the other secret of a variation round, the won
    cards). So the weight of (s, c) is the number of worlds with that secret s in which no other
    secret out of the deck is c: the count with c taken out of those secrets' cards."""
    current = log.current
    draws, target = log.draws, log.solving
    face_up = set(current.face_up)
    if len(log.players) == 2 and not current.variation and len(face_up) >= TWO_PLAYER_CARD_LIMIT:
        return None
    out_of_deck = [i for i in range(len(draws)) if i == target or must_differ(draws, i, target)]
    remaining = len(CARDS) - len(out_of_deck) - len(face_up)
    if remaining <= 0 or post.worlds == 0:
        return None
    masks = candidate_sets(log.facts, draws)
    joint_by: dict[tuple[Card, int], dict[Card, int]] = defaultdict(dict)
    for card in CARDS:
        if card in face_up:
            continue
        without = [
            m & ~BIT[card] if i in out_of_deck and i != target else m for i, m in enumerate(masks)
        ]
        weights = joint(without, draws, log.focus).marginal(log.focus.index(target))
        for secret, weight in weights.items():
            if secret != card and weight:
                joint_by[card, overlap(card, secret)][secret] = weight
    total = post.worlds * remaining
    expected = Fraction(0)
    unique = Fraction(0)
    wait = Fraction(0)
    for by_secret in joint_by.values():
        mass = sum(by_secret.values())
        p_outcome = Fraction(mass, total)
        expected += p_outcome * len(by_secret)
        if len(by_secret) == 1:
            unique += p_outcome
            wait += p_outcome / racers
        else:
            wait += Fraction(max(by_secret.values()), total)
    return NextCard(expected, unique, wait, len(joint_by))


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
