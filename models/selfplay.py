"""Self-play of any registered game as a batch job (`sleuth simulate`): chunks on solver.batch.

Nothing here knows a game: each game cuts its own games into chunks (`simulate_chunk_size`),
plays one chunk from its seed (`simulate_chunk`) and merges the chunks' results into its report
(`simulate_report`). A worker runs `play_chunk`, which finds the game by name in the registry
(a game object is not sent to the workers, only its name).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from models import GAMES
from solver import batch
from solver.batch import Chunk
from solver.game import Game
from solver.report import Report


def play_chunk(game: str, policy: str | None, chunk: Chunk) -> Any:
    """One chunk of a simulate job: what a worker (or this process) runs."""
    return GAMES[game].simulate_chunk(chunk.seed, chunk.size, policy)


def simulate(
    game: Game,
    games: int,
    seed: int | None = None,
    policy: str | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[Chunk], None] | None = None,
) -> Report:
    """`games` games of self-play; the report for a seed is the same wherever the chunks run."""
    chunks = batch.plan(games, game.simulate_chunk_size(policy), seed)
    task = partial(play_chunk, game.name, policy)
    partials = list(
        batch.run(task, chunks, workers=workers, scheduler=scheduler, progress=progress)
    )
    return game.simulate_report(partials, policy)
