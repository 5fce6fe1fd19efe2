"""Generated puzzles of every game: the clues `check` finds redundant, which the generators strike
(target 0: a puzzle a human would set has no clue it could do without), beside the clues each
puzzle had before its generator struck any (the baseline). Clues a Game of Suspicion puzzle keeps
for the story (what they tell is not needed, but a later event or the answer needs the cards they
move) are counted apart. Issue 30: before striking, `generate game-of-suspicion --count 3
--seed 5` gave 8, 21 and 17 clues with 2, 15 and 10 redundant."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from unittest import mock

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models import GAMES
from solver import puzzle as puzzles
from solver.game import Game
from solver.logfile import Document
from solver.puzzle import checked

PUZZLES = 100
SEED = 2026


@dataclass
class Tally:
    """What `check` says of a game's generated puzzles, and what it took."""

    puzzles: int = 0
    drawn: list[int] = field(default_factory=list)  # clues before striking, per puzzle
    clues: int = 0
    redundant: int = 0
    with_redundant: int = 0  # puzzles with at least one redundant clue
    kept: int = 0
    generate_seconds: float = 0.0
    check_seconds: float = 0.0


def tally(game: Game, count: int = PUZZLES, seed: int = SEED) -> Tally:
    """Generate `count` puzzles of `game` from `seed` and check each. The clue count before
    striking is read where every generator strikes: the shared `drop_clues`."""
    result = Tally()
    strike = puzzles.drop_clues

    def recorded(rng, clues, same_answer, until_none_goes=False):
        result.drawn.append(len(clues))
        return strike(rng, clues, same_answer, until_none_goes)

    start = time.perf_counter()
    with mock.patch.object(puzzles, "drop_clues", recorded):
        made = game.generate(random.Random(seed), count)
    result.generate_seconds = time.perf_counter() - start
    start = time.perf_counter()
    for puzzle in made:
        data = checked(game, Document(puzzle)).data
        result.puzzles += 1
        result.clues += data["clues"]
        result.redundant += len(data["redundant"])
        result.with_redundant += bool(data["redundant"])
        result.kept += len(data.get("kept", []))
    result.check_seconds = time.perf_counter() - start
    return result


def main(count: int = PUZZLES) -> None:
    title = f"generated puzzles, {count} per game (seed {SEED}): clues in all (and each)"
    table = Table(title=title)
    columns = (
        "game",
        "clues drawn (baseline)",
        "clues left",
        "redundant (target 0)",
        "puzzles with any",
        "kept for the story",
        "generate each",
        "check each",
    )
    for column in columns:
        table.add_column(column)
    for name, game in GAMES.items():
        got = tally(game, count)
        table.add_row(
            name,
            f"{sum(got.drawn)} ({sum(got.drawn) / max(len(got.drawn), 1):.1f})",
            f"{got.clues} ({got.clues / got.puzzles:.1f})",
            str(got.redundant),
            str(got.with_redundant),
            str(got.kept),
            fmt(got.generate_seconds / got.puzzles),
            fmt(got.check_seconds / got.puzzles),
        )
    Console().print(table)


if __name__ == "__main__":
    main()
