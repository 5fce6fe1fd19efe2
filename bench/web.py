"""`sleuth serve`: the server-side time from a POST that changes the log to the rendered page,
beside the engine's own time for the same log (the baseline the page cannot beat).

For each bundled example log of each game, at up to PREFIXES points: the log cut after event
k+1 is served, `undo` is POSTed through Starlette's test client (the route, the atomic save, the
redirect and the page, in this process) and timed; the engine's time is the game's own view of
the first k events and its `suggest` (the page shows both). Both start cold: a fresh game
object, nothing remembered from the last count."""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from starlette.testclient import TestClient

from bench.timing import fmt
from models import GAMES
from solver.errors import SleuthError
from solver.logfile import Document, load, save_atomically
from web.app import create_app

EXAMPLES = Path(__file__).parent.parent / "examples"
PREFIXES = 12  # points per log at most, spread over its events


def logs(game: str) -> list[Path]:
    return [
        p for p in sorted((EXAMPLES / game).glob("*.yaml")) if "puzzle" not in load(str(p)).data
    ]


def served(folder: Path, game: str) -> float:
    """Seconds from the POST of `undo` to the page, as the browser gets it."""
    GAMES[game] = type(GAMES[game])()  # cold, as after a restart
    # waiting to the end: the whole page, not the "counting" page a long count would show first
    web = TestClient(create_app(folder, wait=3600), base_url="http://127.0.0.1:8765")
    start = time.perf_counter()
    answer = web.post("/undo/log.yaml")  # follows the redirect to the page
    took = time.perf_counter() - start
    assert answer.status_code == 200, answer.text
    return took


def engine(data: dict, game: str) -> float:
    """Seconds of the game's own view of the log and its `suggest` (a fresh game object): what
    the page shows."""
    fresh = type(GAMES[game])()
    start = time.perf_counter()
    fresh.view(Document(data, "log.yaml"))
    with contextlib.suppress(SleuthError):  # e.g. nothing to advise yet: the page says why
        fresh.suggest(Document(data, "log.yaml"))
    return time.perf_counter() - start


def rows() -> list[list[str]]:
    found = []
    for game in list(GAMES):
        original = GAMES[game]
        pages, alone = [], []
        for log in logs(game):
            events = load(str(log)).data["events"]
            cuts = sorted({round(i * (len(events) - 1) / PREFIXES) for i in range(1, PREFIXES + 1)})
            for cut in (c for c in cuts if c >= 1):
                with tempfile.TemporaryDirectory() as folder:
                    data = {**load(str(log)).data, "events": events[: cut + 1]}
                    save_atomically(Path(folder) / "log.yaml", data)
                    pages.append(served(Path(folder), game))
                    alone.append(engine({**data, "events": events[:cut]}, game))
        GAMES[game] = original
        extra = sorted(p - a for p, a in zip(pages, alone, strict=True))
        pages.sort()
        found.append(
            [
                game,
                str(len(pages)),
                fmt(statistics.median(pages)),
                fmt(pages[int(0.9 * (len(pages) - 1))]),
                fmt(statistics.median(sorted(alone))),
                fmt(statistics.median(extra)),
            ]
        )
    return found


def main() -> None:
    table = Table(title="sleuth serve: a POST (undo) to the page rendered, server side, cold")
    for column in ("game", "prefixes", "page median", "page p90", "engine median", "page − engine"):
        table.add_column(column)
    for row in rows():
        table.add_row(*row)
    Console().print(table)
    Console().print(
        "(every bundled example log, cut at up to 12 points; target: a median of 150 ms, or "
        "the engine's time + 50 ms where the engine is slower)"
    )


if __name__ == "__main__":
    main()
