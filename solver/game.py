"""The interface every game under models/ implements: all the CLI and the session ever call."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from solver.logfile import Document
from solver.report import Report


class Game(Protocol):
    name: str  # the short name used in logs and on the command line, e.g. "three-of-a-crime"
    title: str
    session_help: str  # the short event syntax of `sleuth play`
    # puzzles per chunk of a `generate` job (solver/batch.py): about a second of work, fixed for
    # the game (never a function of the workers), so that a seed gives the same puzzles anywhere
    puzzles_per_chunk: int

    @property
    def difficulty_names(self) -> tuple[str, ...]:
        """A puzzle's grades, easiest first, as `check` names them."""
        ...

    def describe(self) -> dict:
        """Deck and house rulings, for `sleuth games`."""
        ...

    def template(self) -> str:
        """A commented log template, for `sleuth new`."""
        ...

    def solve(self, doc: Document, upto: int | None = None) -> Report: ...

    def view(self, doc: Document) -> Report:
        """What the interactive session shows after each event (validates the log, as solve)."""
        ...

    def suggest(
        self, doc: Document, upto: int | None = None, horizon: int | None = None
    ) -> Report: ...

    def replay(self, doc: Document) -> Report: ...

    def check(self, doc: Document) -> Report:
        """Puzzle check; the report's exit_code is 0 when the answer is unique."""
        ...

    def generate(
        self,
        rng: random.Random,
        count: int,
        difficulty: int | None = None,
        progress: Callable[[], None] | None = None,
        visible: int | None = None,
    ) -> list[dict]:
        """Puzzles as documents in the puzzle format (`visible`: cards shown, where it applies)."""
        ...

    # Self-play (`sleuth simulate`), in chunks that solver/batch.py runs here or on Dask: a
    # chunk's games depend on its seed alone, and merging the chunks' results in order gives the
    # report, so a seed's report is the same whatever the number of workers.
    def simulate_chunk_size(self, policy: str | None = None) -> int:
        """Games per chunk: a constant of the game and policy, never of the workers. Raises
        InputError for a policy the game does not have (before any game is played)."""
        ...

    def simulate_chunk(self, seed: int, games: int, policy: str | None = None) -> Any:
        """Play `games` games from `random.Random(seed)`: a small picklable partial result."""
        ...

    def simulate_report(self, partials: list[Any], policy: str | None = None) -> Report:
        """The statistics of every chunk's partial result (given in chunk order)."""
        ...

    def parse_line(self, text: str) -> dict:
        """One log event from a line typed in the session."""
        ...

    def event_text(self, event: object, doc: Document) -> str:
        """One event of the log in the game's own words (the history of `sleuth serve`)."""
        ...

    # Optional: `explain(doc, fact=None, upto=None) -> Report`, why `fact` (default: every
    # certain fact) is certain, or what moved its probability (solver/explain.py).
    # Optional: `entry(doc) -> list[solver.entry.EntryForm]`, the events a player taps in
    # `sleuth serve` (each becomes a `parse_line` line); a game without it is typed only.
