"""6 Suspects puzzles: some cards face up; is the culprit set the same in every completion?

Difficulty is how much is hidden, since every hidden card multiplies the completions a solver
must rule over (and hides a possible Swap, copy or Police):
1 *easy*: 4 cards or fewer hidden; 2 *medium*: 5 or 6 hidden; 3 *hard*: 7 or more hidden.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from models.six_suspects.posterior import count
from models.six_suspects.rules import COLUMNS, SLOTS, Card, Deck

DIFFICULTY_NAMES = {1: "easy", 2: "medium", 3: "hard"}
NOT_UNIQUE = ["(one culprit set)", "(another culprit set)"]  # what the oracle says otherwise
FIRST_CLUES = 5  # generation shows this many cards before it first counts (few are slow to count)


def difficulty(visible: int) -> int:
    hidden = len(SLOTS) - visible
    return 1 if hidden <= 4 else 2 if hidden <= 6 else 3


def culprit_answers(deck: Deck, clues: Sequence[tuple[int, Card]]) -> list:
    """[the culprit columns] when they are the same in every completion, else two markers."""
    counts = count(deck, dict(clues))
    if counts.worlds == 0:
        return []
    if any(0 < n < counts.worlds for n in counts.culprit):
        return NOT_UNIQUE
    return [frozenset(c for c, n in enumerate(counts.culprit) if n == counts.worlds)]


def answer_letters(answer: frozenset[int]) -> list[str]:
    return [COLUMNS[c] for c in sorted(answer)]


def true_clue(layout: tuple[Card, ...]):
    """A clue generator for `solver.puzzle.generate`: show the card of one more random slot."""

    def clue(rng: random.Random, clues: list[tuple[int, Card]]) -> tuple[int, Card]:
        shown = {slot for slot, _ in clues}
        slot = rng.choice([s for s in range(len(SLOTS)) if s not in shown])
        return slot, layout[slot]

    return clue


def to_document(clues: list[tuple[int, Card]], answer: frozenset[int]) -> dict:
    letters = answer_letters(answer)
    return {
        "game": "six-suspects",
        "puzzle": {
            "visible": {SLOTS[s]: card.name for s, card in sorted(clues)},
            "question": "culprit",
            "answer": letters[0] if len(letters) == 1 else letters,
            "difficulty": DIFFICULTY_NAMES[difficulty(len(clues))],
        },
    }
