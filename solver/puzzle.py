"""Puzzle tools that work for any game given a uniqueness oracle over subsets of clues.

An oracle maps a tuple of clue indexes to the list of distinct answers the clues allow (at most a
few: two are enough to know the answer is not unique). Redundancy and minimality only ask the
oracle; generation also asks the game for true clues about a random truth.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report

Oracle = Callable[[Sequence[int]], Sequence[Hashable]]


def unique_answer(oracle: Oracle, clues: Sequence[int]) -> Hashable | None:
    """The answer when `clues` allow exactly one, else None."""
    answers = oracle(clues)
    return answers[0] if len(answers) == 1 else None


def redundant_clues(oracle: Oracle, clues: Sequence[int]) -> list[int]:
    """Each clue whose removal (alone) keeps the same unique answer."""
    answer = unique_answer(oracle, clues)
    if answer is None:
        return []
    return [c for c in clues if unique_answer(oracle, [d for d in clues if d != c]) == answer]


def minimal_clues(oracle: Oracle, clues: Sequence[int]) -> list[int]:
    """A subset of `clues` with the same unique answer from which no clue can be removed."""
    answer = unique_answer(oracle, clues)
    if answer is None:
        return list(clues)
    kept = list(clues)
    for clue in list(clues):
        trial = [c for c in kept if c != clue]
        if unique_answer(oracle, trial) == answer:
            kept = trial
    return kept


@dataclass
class Generated:
    clues: list  # the game's clue objects, in the order kept
    answer: Hashable


def generate(
    rng: random.Random,
    true_clue: Callable[[random.Random, list], object],
    answers_of: Callable[[list], Sequence[Hashable]],
    max_clues: int = 60,
    initial: int = 0,
) -> Generated | None:
    """Solver in the loop: add random true clues until the answer is unique, then drop clues while
    it stays unique (in random order). `true_clue(rng, clues)` returns a new clue true of the hidden
    truth; `answers_of(clues)` returns the distinct answers the clues allow. The first `initial`
    clues are drawn without asking (for games where few clues are slow to solve)."""
    clues: list = []
    for _ in range(initial):
        clues.append(true_clue(rng, clues))
    while len(answers_of(clues)) != 1:
        if len(clues) >= max_clues:
            return None
        clues.append(true_clue(rng, clues))
    answer = answers_of(clues)[0]
    kept = drop_clues(rng, clues, lambda trial: list(answers_of(trial)) == [answer])
    return Generated(kept, answer)


def drop_clues(
    rng: random.Random,
    clues: Sequence,
    same_answer: Callable[[list], bool],
    until_none_goes: bool = False,
) -> list:
    """The clues left after dropping each one, in random order, that `same_answer(the rest)`
    allows; of the kept clues, none can go alone when the oracle is monotone (fewer clues never
    allow fewer answers): one pass is then enough. Where a clue is an event that others depend
    on, dropping one clue can free another (a play goes once the guess counting its cards has
    gone): `until_none_goes` passes again until a pass drops nothing."""
    kept = list(clues)
    while True:
        order = list(range(len(kept)))
        rng.shuffle(order)
        removed: set[int] = set()
        for i in order:
            trial = [c for j, c in enumerate(kept) if j != i and j not in removed]
            if same_answer(trial):
                removed.add(i)
        kept = [c for j, c in enumerate(kept) if j not in removed]
        if not removed or not until_none_goes:
            return kept


def collect(
    count: int,
    attempt: Callable[[], dict | None],
    tries: int,
    progress: Callable[[], None] | None = None,
) -> list[dict]:
    """`count` puzzles from `attempt()` (None when a try does not fit the options), giving up with
    a clear error after `tries` failed tries in a row."""
    made: list[dict] = []
    while len(made) < count:
        for _ in range(tries):
            puzzle = attempt()
            if puzzle is not None:
                made.append(puzzle)
                break
        else:
            raise InputError(f"no puzzle with these options found in {tries} tries; try others")
        if progress:
            progress()
    return made


def checked(game: Any, doc: Document) -> Report:
    """`game.check(doc)`, with the author's stated `difficulty` held to the grade Sleuth computes
    (as `answer` is held to the answer): a grade the game does not have is bad input; one that
    differs is a warning and `difficulty_matches: false`, the exit status staying the answer's."""
    body = doc.data.get("puzzle")
    stated = body.get("difficulty") if isinstance(body, dict) else None
    if stated is not None:
        grades = NameSet("difficulty", game.difficulty_names)
        try:
            stated = grades.resolve(str(stated))
        except InputError as error:
            line = doc.key_lines.get("puzzle.difficulty")
            raise InputError(f"puzzle.difficulty: {error.message}", line=line) from None
    report = game.check(doc)
    computed = report.data.get("difficulty")
    if stated is not None and computed is not None:
        report.data["difficulty_matches"] = stated == computed
        if stated != computed:
            report.warnings.append(
                f"the puzzle says its difficulty is {stated!r}; Sleuth grades it {computed!r}"
            )
    return report
