"""The batch jobs of the command line, on solver.batch: self-play (`sleuth simulate`), puzzle
making (`sleuth generate`), and answering many files (`sleuth batch solve`, `batch check`).

Nothing here knows a game. A worker is sent a game's name (never a game object) and finds the
game in the registry; each job's chunk size is a constant, never a function of the workers, so
a seed gives the same result however the chunks are spread (solver/batch.py).
"""

from __future__ import annotations

import dataclasses
import glob
import os
import random
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, overload

from models import GAMES, game_of, with_deck
from solver import batch
from solver.batch import Chunk
from solver.errors import InputError, InternalError, SleuthError, quoted
from solver.explain import graded
from solver.files import printable_name, user_path
from solver.game import Game
from solver.logfile import parse_text, read_text
from solver.puzzle import checked
from solver.report import Report

Progress = Callable[[Chunk], None] | None

# The largest job one command runs: past these, the plan of chunks and the results kept for the
# report would take gigabytes before the first line is printed. A larger job is several runs
# with different seeds (README "Limits").
MAX_GAMES = 1_000_000  # simulate --games
MAX_PUZZLES = 100_000  # generate --count


def within(count: int, limit: int, option: str, unit: str) -> None:
    """Refuse a job larger than `limit` at once, before anything is planned."""
    if count > limit:
        raise InputError(
            f"{option} is at most {limit:,} {unit} a run (got {quoted(count)}): run several "
            "with different --seed values"
        )


# --- self-play ----------------------------------------------------------------------------------


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
    progress: Progress = None,
) -> Report:
    """`games` games of self-play; the report for a seed is the same wherever the chunks run."""
    within(games, MAX_GAMES, "--games", "games")
    chunks = batch.plan(games, game.simulate_chunk_size(policy), seed)
    task = partial(play_chunk, game.name, policy)
    partials = list(
        batch.run(task, chunks, workers=workers, scheduler=scheduler, progress=progress)
    )
    return game.simulate_report(partials, policy)


# --- puzzles ------------------------------------------------------------------------------------


def make_chunk(game: str, difficulty: int | None, visible: int | None, chunk: Chunk) -> list:
    """One chunk of a generate job: its puzzles, made from its seed and graded."""
    chosen = GAMES[game]
    made = chosen.generate(random.Random(chunk.seed), chunk.size, difficulty, visible=visible)
    return [graded(chosen, puzzle) for puzzle in made]


def generate(
    game: Game,
    count: int,
    seed: int | None = None,
    difficulty: int | None = None,
    visible: int | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress = None,
) -> list[dict]:
    """`count` graded puzzles; the same list for a seed wherever the chunks run."""
    within(count, MAX_PUZZLES, "--count", "puzzles")
    chunks = batch.plan(count, game.puzzles_per_chunk, seed)
    task = partial(make_chunk, game.name, difficulty, visible)
    parts = batch.run(task, chunks, workers=workers, scheduler=scheduler, progress=progress)
    return [puzzle for part in parts for puzzle in part]


# --- many files: batch solve and batch check -------------------------------------------------------

FILES_PER_CHUNK = 4  # logs vary from milliseconds (Three of a Crime) to seconds (Suspeição)
COMMANDS = ("solve", "check")
WILDCARDS = set("*?[")


def files_named(paths: Sequence[str]) -> list[str]:
    """The files that PATH arguments name, in order and each once: a folder gives its `*.yaml`
    and `*.yml` files (all depths, sorted), a pattern with `*`, `?` or `[` its matches (sorted;
    `**` crosses folders), anything else itself (a missing file is answered like `solve` would
    answer it: a line with its error). A pattern that matches nothing is an InputError.

    A file reached twice (through a symlink, or a symlink loop that `**` goes round until the
    system stops it) is answered once, under the first name found; a name no file can have is
    answered as `solve` would answer it."""
    found: dict[str, str] = {}  # the real path of each file: the name it was first found by
    for given in paths:
        try:
            path = user_path(given)
        except InputError:
            found.setdefault(given, given)  # its line says what is wrong with the name
            continue
        if path.is_dir():
            matches = sorted(
                str(p) for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
            )
        elif WILDCARDS & set(given) and not path.exists():
            matches = sorted(glob.glob(given, recursive=True))
            if not matches:
                raise InputError(f"no file matches {given}")
        else:
            matches = [given]
        for match in matches:
            found.setdefault(os.path.realpath(match), match)
    return list(found.values())


def answer(command: str, path: str, text: str, deck: str | None) -> dict:
    """What `sleuth COMMAND PATH --json` prints for one file's text, and its exit status, as one
    JSON Lines object. Any error is the file's own line: a bad file never stops a batch."""
    path = printable_name(path)  # the lines are UTF-8 text, whatever the file's name
    try:
        doc = parse_text(text, path)
        game = game_of(doc)
        if deck is not None:
            with_deck(doc, game, deck)
        report = checked(game, doc) if command == "check" else getattr(game, command)(doc)
        return {"path": path, "exit_code": report.exit_code, "output": report.data}
    except SleuthError as error:
        return {"path": path, "exit_code": error.exit_code, "output": error.to_json()}
    except Exception as error:  # Sleuth's bug on this file: said on its line, the batch goes on
        failed = InternalError(error)
        return {"path": path, "exit_code": failed.exit_code, "output": failed.to_json()}


def read(path: str) -> str | dict:
    """A file's text, or (when it cannot be read) its answer's error, as `solve` gives it."""
    try:
        return read_text(Path(path), path)
    except SleuthError as error:
        shown = printable_name(path)
        return {"path": shown, "exit_code": error.exit_code, "output": error.to_json()}


def answer_chunk(command: str, deck: str | None, chunk: Chunk) -> list[dict]:
    """One chunk of a batch solve or check: each of its files' line (the texts travel with the
    chunk, so workers need not see this machine's files)."""
    lines = []
    for path, text in chunk.payload:
        lines.append(text if isinstance(text, dict) else answer(command, path, text, deck))
    return lines


class WithTexts(Sequence[Chunk]):
    """The chunks of a batch of files, each carrying its files' texts, read only when the chunk
    is sent: a batch of many logs is never all in memory at once."""

    def __init__(self, chunks: list[Chunk], files: list[str]):
        self.chunks, self.files = chunks, files

    def __len__(self) -> int:
        return len(self.chunks)

    @overload
    def __getitem__(self, index: int) -> Chunk: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Chunk]: ...
    def __getitem__(self, index: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        chunk = self.chunks[index]
        names = self.files[chunk.start : chunk.start + chunk.size]
        return dataclasses.replace(chunk, payload=tuple((p, read(p)) for p in names))


def answer_all(
    command: str,
    files: list[str],
    deck: str | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress = None,
) -> Iterator[dict]:
    """Every file's line, in the files' order, as the chunks end."""
    if command not in COMMANDS:
        raise ValueError(f"batch {command}: not one of {COMMANDS}")
    chunks = WithTexts(batch.plan(len(files), FILES_PER_CHUNK, seed=0), files)
    task = partial(answer_chunk, command, deck)
    for lines in batch.run(task, chunks, workers=workers, scheduler=scheduler, progress=progress):
        yield from lines
