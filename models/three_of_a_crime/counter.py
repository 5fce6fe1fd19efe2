"""Exact posterior over the rounds' secret cards.

A world is the tuple of secret cards of every round so far, all different (a won card leaves the
deck). Every consistent tuple is equally likely: the secrets are drawn without replacement and each
round's face-up cards are drawn from what is left, whose size does not depend on the world. So the
posterior is a count of tuples, done per card of the current round with
`solver.counting.count_distinct_tuples` after pinning every round whose card is known.

Sets of cards are 35-bit masks (bit i = CARDS[i]); a token's meaning is a precomputed mask, so a
fact costs one AND.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARD_INDEX, CARDS, SUSPECTS, Card, overlap
from solver.counting import count_distinct_tuples

ALL = (1 << len(CARDS)) - 1
BIT = {card: 1 << i for i, card in enumerate(CARDS)}
TOKEN_MASK = {  # (face-up card, token) -> the secrets that would give that token
    (card, token): sum(BIT[s] for s in CARDS if overlap(card, s) == token)
    for card in CARDS
    for token in range(4)
}


def cards_of(mask: int) -> list[Card]:
    return [card for card in CARDS if mask & BIT[card]]


def mask_of(cards: Iterable[Card]) -> int:
    return sum(1 << CARD_INDEX[c] for c in set(cards))


def candidate_sets(facts: Iterable[Fact], rounds: int) -> list[int]:
    """For each round, the mask of cards its secret can be when that round is considered alone."""
    masks = [ALL] * rounds
    for fact in facts:
        if fact.kind == "token":
            masks[fact.round] &= TOKEN_MASK[fact.card, fact.token]
        elif fact.kind == "not":
            masks[fact.round] &= ~BIT[fact.card]
        else:
            masks[fact.round] &= BIT[fact.card]
    return masks


def pin_known(masks: list[int]) -> list[int]:
    """Remove each round whose card is forced from the other rounds' masks (exact: the tuple's
    entry there is that card, and every other entry must differ from it)."""
    masks = list(masks)
    changed = True
    while changed:
        changed = False
        for i, forced in enumerate(masks):
            if forced.bit_count() != 1:
                continue
            for j, other in enumerate(masks):
                if j != i and other & forced:
                    masks[j] = other & ~forced
                    changed = True
    return masks


def count_worlds(masks: list[int]) -> int:
    """Tuples of pairwise different cards, one from each round's mask."""
    if not all(masks):
        return 0
    pinned = pin_known(masks)
    if not all(pinned):
        return 0
    free = [m for m in pinned if m.bit_count() > 1]
    return count_distinct_tuples(free)


@dataclass
class Posterior:
    """Exact counts: worlds in all, and per card of the current round."""

    worlds: int
    card_counts: dict[Card, int]  # only cards with a non-zero count

    @property
    def candidates(self) -> list[Card]:
        return sorted(self.card_counts)

    def card_probability(self, card: Card) -> Fraction:
        return Fraction(self.card_counts.get(card, 0), self.worlds) if self.worlds else Fraction(0)

    def suspect_probability(self) -> dict[str, Fraction]:
        result = {}
        for index, name in enumerate(SUSPECTS):
            hits = sum(n for card, n in self.card_counts.items() if index in card)
            result[name] = Fraction(hits, self.worlds) if self.worlds else Fraction(0)
        return result


def posterior(facts: Iterable[Fact], rounds: int) -> Posterior:
    """Exact posterior of the last round's secret card given every fact of every round."""
    masks = candidate_sets(facts, rounds)
    earlier = pin_known(masks[:-1])
    if all(m.bit_count() == 1 for m in earlier):  # the usual case: every earlier card is known
        left = masks[-1] & ~sum(earlier)
        return Posterior(left.bit_count(), dict.fromkeys(cards_of(left), 1))
    counts = {}
    for card in cards_of(masks[-1]):
        count = count_worlds([*masks[:-1], BIT[card]])
        if count:
            counts[card] = count
    return Posterior(sum(counts.values()), counts)
