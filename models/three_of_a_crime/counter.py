"""Exact posterior over the rounds' secret cards.

A world is the tuple of secret cards of every round so far, all different (a won card leaves the
deck). Every consistent tuple is equally likely: the secrets are drawn without replacement and each
round's face-up cards are drawn from what is left, whose size does not depend on the world. So the
posterior is a count of tuples, done per card of the current round with
`solver.counting.count_distinct_tuples` after pinning every round whose card is known.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, SUSPECTS, Card, overlap
from solver.counting import count_distinct_tuples


def candidate_sets(facts: Iterable[Fact], rounds: int) -> list[frozenset[Card]]:
    """For each round, the cards its secret can be when that round is considered alone."""
    sets = [set(CARDS) for _ in range(rounds)]
    for fact in facts:
        allowed = sets[fact.round]
        if fact.kind == "token":
            allowed &= {s for s in allowed if overlap(fact.card, s) == fact.token}
        elif fact.kind == "not":
            allowed.discard(fact.card)
        elif fact.kind == "is":
            allowed &= {fact.card}
    return [frozenset(s) for s in sets]


def pin_known(sets: list[frozenset[Card]]) -> list[frozenset[Card]]:
    """Remove each round whose card is forced from the other rounds' sets (exact: the tuple's
    entry there is that card, and every other entry must differ from it)."""
    sets = list(sets)
    changed = True
    while changed:
        changed = False
        for i, forced in enumerate(sets):
            if len(forced) != 1:
                continue
            for j, other in enumerate(sets):
                if j != i and forced <= other:
                    sets[j] = other - forced
                    changed = True
    return sets


def count_worlds(sets: list[frozenset[Card]]) -> int:
    """Tuples of pairwise different cards, one from each round's set."""
    if any(not s for s in sets):
        return 0
    pinned = pin_known(sets)
    if any(not s for s in pinned):
        return 0
    free = [s for s in pinned if len(s) > 1]
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
    sets = candidate_sets(facts, rounds)
    counts = {}
    for card in sets[-1]:
        count = count_worlds([*sets[:-1], frozenset({card})])
        if count:
            counts[card] = count
    return Posterior(sum(counts.values()), counts)
