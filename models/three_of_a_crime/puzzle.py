"""Three of a Crime puzzles: face-up cards (and wrong accusations) that pin the eyewitness's card.

Difficulty is the weakest human-style rule set that solves the puzzle, reasoning about suspects
(guilty / innocent) rather than about whole cards:

1. *direct*: repeat until nothing changes: a 0 token clears its three suspects; a token equal to the
   number of not-yet-cleared suspects on a card convicts them; a token equal to the number of
   convicted suspects on a card clears the others; three convicted clear everyone else; exactly
   three suspects left uncleared are all guilty; a wrong accusation with two convicted clears the
   third; a correct accusation convicts its three.
2. *one hypothesis*: rule set 1, plus once: suppose one undecided suspect guilty (or innocent); if
   rule set 1 then reaches a contradiction, the opposite is true.
3. *deep*: anything else: two or more such hypotheses in a row (trying suspects in the canonical
   order, the first refutable one first), or reasoning that single hypotheses cannot reach.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from models.three_of_a_crime.counter import ALL, Draw, apply_fact, candidate_sets, cards_of, joint
from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, SUSPECTS, Card, card_names, overlap

DIFFICULTY_NAMES = {1: "direct", 2: "one hypothesis", 3: "deep"}


class Contradicted(Exception):
    pass


def propagate(facts: list[Fact], known: dict[int, bool]) -> dict[int, bool]:
    """Rule set 1 to a fixpoint; raises Contradicted when the suspects' states break a clue."""
    known = dict(known)
    changed = True

    def settle(suspects: list[int], guilty: bool) -> None:
        nonlocal changed
        for s in suspects:
            if known.get(s, guilty) != guilty:
                raise Contradicted
            if s not in known:
                known[s] = guilty
                changed = True

    while changed:
        changed = False
        for fact in facts:
            card = list(fact.card)
            guilty = [s for s in card if known.get(s) is True]
            open_ = [s for s in card if s not in known]
            if fact.kind == "token":
                if len(guilty) > fact.token or len(guilty) + len(open_) < fact.token:
                    raise Contradicted
                if len(guilty) == fact.token:
                    settle(open_, False)
                elif len(guilty) + len(open_) == fact.token:
                    settle(open_, True)
            elif fact.kind == "is":
                settle(card, True)
            elif fact.kind == "not":
                if len(guilty) == 3:
                    raise Contradicted
                if len(guilty) == 2:
                    settle(open_, False)
        all_guilty = [s for s in range(len(SUSPECTS)) if known.get(s) is True]
        all_open = [s for s in range(len(SUSPECTS)) if s not in known]
        if len(all_guilty) > 3 or len(all_guilty) + len(all_open) < 3:
            raise Contradicted
        if len(all_guilty) == 3:
            settle(all_open, False)
        elif len(all_guilty) + len(all_open) == 3:
            settle(all_open, True)
    return known


def refute_one(facts: list[Fact], known: dict[int, bool]) -> dict[int, bool] | None:
    """The first single hypothesis that rule set 1 refutes, applied; None if there is none."""
    for suspect in range(len(SUSPECTS)):
        if suspect in known:
            continue
        for guess in (True, False):
            try:
                propagate(facts, {**known, suspect: guess})
            except Contradicted:
                return propagate(facts, {**known, suspect: not guess})
    return None


def hypotheses_needed(facts: list[Fact]) -> int | None:
    """How many refuted hypotheses solve the clues (0 = direct); None if they never do."""
    known: dict[int, bool] | None = propagate(facts, {})
    count = 0
    while known is not None and len(known) < len(SUSPECTS):
        known = refute_one(facts, known)
        count += 1
    return None if known is None else count


def difficulty(facts: list[Fact]) -> int:
    """1 (direct), 2 (one hypothesis) or 3 (deep) for clues with a unique answer."""
    try:
        needed = hypotheses_needed(facts)
    except Contradicted:
        return 3
    return {0: 1, 1: 2}.get(needed, 3) if needed is not None else 3


def answers_of(facts: list[Fact]) -> list[Card]:
    """The secret cards the clues allow (a single round)."""
    return cards_of(candidate_sets(facts, 1)[0])


def unique_card(masks: list[int], draws: Sequence[Draw], focus: list[int], target: int):
    """The target secret's card when the masks leave it only one, else None."""
    if len(masks) == 1:
        return cards_of(masks[0])[0] if masks[0].bit_count() == 1 else None
    cards = joint(masks, draws, focus).marginal(focus.index(target))
    return next(iter(cards)) if len(cards) == 1 else None


def clue_analysis(
    facts: list[Fact], draws: Sequence[Draw], focus: list[int], target: int, clues: int
) -> tuple[list[int], list[int]]:
    """Redundant clues and a minimal clue set (0-based; clue i is event i + 1), in linear time.

    The same answers as solver.puzzle's redundant_clues and minimal_clues with an exact oracle,
    but each trial set is an AND of two precomputed mask vectors (the clues before it and after
    it) instead of a pass over every clue: a 10,000-clue puzzle costs 10,000 small counts."""
    secrets = len(draws)
    own: list[dict[int, int]] = [{} for _ in range(clues + 2)]
    for fact in facts:
        masks = [ALL] * secrets
        masks[fact.secret] = own[fact.event].get(fact.secret, ALL)
        apply_fact(masks, fact)
        own[fact.event][fact.secret] = masks[fact.secret]
    after = [[ALL] * secrets for _ in range(clues + 2)]  # after[e]: the clues e.. together
    for event in range(clues, 0, -1):
        after[event] = list(after[event + 1])
        for secret, mask in own[event].items():
            after[event][secret] &= mask
    answer = unique_card(after[1], draws, focus, target)
    if answer is None:
        return [], list(range(clues))
    redundant, minimal = [], []
    before = [ALL] * secrets  # every clue before this one
    kept = [ALL] * secrets  # the clues kept so far (minimal: deletion in order)
    for event in range(1, clues + 1):
        rest = after[event + 1]
        without = [b & r for b, r in zip(before, rest, strict=True)]
        if unique_card(without, draws, focus, target) == answer:
            redundant.append(event - 1)
        trial = [k & r for k, r in zip(kept, rest, strict=True)]
        if unique_card(trial, draws, focus, target) != answer:
            minimal.append(event - 1)
            for secret, mask in own[event].items():
                kept[secret] &= mask
        for secret, mask in own[event].items():
            before[secret] &= mask
    return redundant, minimal


@dataclass
class Puzzle:
    clues: list[Fact]
    answer: Card
    difficulty: int

    def to_document(self) -> dict:
        given = [{"card": card_names(f.card), "token": f.token} for f in self.clues]
        return {
            "game": "three-of-a-crime",
            "puzzle": {
                "given": given,
                "question": "secret",
                "answer": card_names(self.answer),
                "difficulty": DIFFICULTY_NAMES[self.difficulty],
            },
        }


def true_clue(truth: Card):
    """A clue generator for `solver.puzzle.generate`: a new random face-up card and its token."""

    def clue(rng: random.Random, clues: list[Fact]) -> Fact:
        used = {f.card for f in clues} | {truth}
        card = rng.choice([c for c in CARDS if c not in used])
        return Fact(len(clues) + 1, 0, "token", card, overlap(card, truth))

    return clue
