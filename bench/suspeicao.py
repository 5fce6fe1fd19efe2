"""Suspeição: what a player at the table waits for, and what an analyst waits for.

- *Per new event*: the session re-reads the log and shows the whole report (where each
  incriminating card is, each opponent's chance of meeting each requirement), the filter
  carried on from the event before.
- *Any prefix, cold*: `solve --upto N` for every N of every round, from nothing (a fresh
  process would pay this): the median and the slowest.
- *Whole round*: `solve` of the whole recorded round, cold.
- The FORCE answers used (every one: nothing is set aside any more) and the peak memory of the
  slowest report.

Simulated rounds of 3, 4, 5 and 6 players on the modelled deck. Beside it, on the reduced test
deck, the same reports from the brute force of the tests (every physical deal and hidden choice)
and from CP-SAT listing the possible worlds, on the same prefixes.

Targets (issue 10): a median of 200 ms or less per event, 5 s or less for a whole 6-player round
and for any prefix started cold, peak memory 2 GB or less, no FORCE answer set aside.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.knowledge import possible_worlds
from models.suspeicao.log import parse
from models.suspeicao.simulate import random_game
from models.suspeicao.steps import Force
from solver.logfile import Document

ROUNDS = 8  # simulated rounds per table size
SIZES = (3, 4, 5, 6)
SMALL = str(Path(__file__).resolve().parent.parent / "tests" / "data" / "suspeicao-small.yaml")
BASELINE_PREFIXES = 10


def document(data: dict) -> Document:
    return Document(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)))


def timed_report(data: dict, cold: bool) -> tuple[float, dict]:
    """Seconds to read the log and build the whole solve report (the filter's memory of the
    last log cleared when `cold`), and the report's data."""
    if cold:
        GAME_OBJECT.last.clear()
    doc = document(data)
    start = time.perf_counter()
    report = GAME_OBJECT.solve(doc)
    return time.perf_counter() - start, report.data


def measure(data: dict) -> dict:
    """Every figure of one simulated round."""
    events = data["events"]
    session, cold = [], []
    GAME_OBJECT.last.clear()
    for keep in range(1, len(events) + 1):
        seconds, _ = timed_report({**data, "events": events[:keep]}, cold=False)
        session.append(seconds)
    slowest = (0.0, 0)
    for keep in range(1, len(events) + 1):
        seconds, _ = timed_report({**data, "events": events[:keep]}, cold=True)
        cold.append(seconds)
        slowest = max(slowest, (seconds, keep))
    whole, report = timed_report(data, cold=True)
    log = parse(document(data))
    assert log.round is not None
    forces = sum(1 for s in log.round.setup.steps if isinstance(s, Force))
    return {
        "session": session,
        "cold": cold,
        "whole": whole,
        "forces": forces,
        "set_aside": len(report["set_aside"]),
        "slowest": slowest,
    }


def peak_memory(data: dict, keep: int) -> int:
    """Peak bytes Python and numpy allocate while a cold report of the first `keep` events is
    built."""
    GAME_OBJECT.last.clear()
    doc = document({**data, "events": data["events"][:keep]})
    tracemalloc.start()
    GAME_OBJECT.solve(doc)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def size_rows() -> tuple[list[list[str]], dict]:
    rows: list[list[str]] = []
    worst: dict[str, Any] = {"seconds": 0.0}
    for players in SIZES:
        rng = random.Random(players)
        games = [random_game(rng, players).doc for _ in range(ROUNDS)]
        session, cold, wholes, forces, aside = [], [], [], 0, 0
        for data in games:
            found = measure(data)
            session += found["session"]
            cold += found["cold"]
            wholes.append(found["whole"])
            forces += found["forces"]
            aside += found["set_aside"]
            seconds, keep = found["slowest"]
            if seconds > worst["seconds"]:
                worst = {"seconds": seconds, "data": data, "keep": keep, "players": players}
        session.sort()
        rows.append(
            [
                f"{players} players",
                fmt(statistics.median(session)),
                fmt(session[int(0.9 * (len(session) - 1))]),
                fmt(max(session)),
                fmt(statistics.median(cold)),
                fmt(max(cold)),
                fmt(statistics.median(wholes)),
                fmt(max(wholes)),
                f"{aside} of {forces}",
            ]
        )
    return rows, worst


def baseline_rows() -> list[list[str]]:
    """The same prefixes of simulated 3-player rounds on the 12-card deck, three ways: the
    filter's whole report, the brute force's chances, CP-SAT's possible worlds."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from suspeicao_brute import brute_force, holds, incriminating

    rng = random.Random(5)
    prefixes: list[dict] = []
    while len(prefixes) < BASELINE_PREFIXES:
        data = random_game(rng, 3, deck_path=SMALL).doc
        keep = rng.randint(3, min(8, len(data["events"])))
        prefixes.append({**data, "events": data["events"][:keep]})

    def filter_all() -> None:
        for p in prefixes:
            timed_report(p, cold=True)

    def brute_all() -> None:
        for p in prefixes:
            post = brute_force(p)
            incriminating(post)
            for text in ("odd", "even", "1-5"):
                holds(post, text)

    def cpsat_all() -> None:
        for p in prefixes:
            log = parse(document(p))
            assert log.round is not None
            possible_worlds(log.round.setup, log.round.setup.steps, log.deck)

    timed = {}
    for name, run in (("filter", filter_all), ("brute force", brute_all), ("CP-SAT", cpsat_all)):
        start = time.perf_counter()
        run()
        timed[name] = time.perf_counter() - start
    base = timed["filter"]
    return [
        [name, fmt(t), f"{t / base:.1f}×" if name != "filter" else "1×"]
        for name, t in timed.items()
    ]


def main() -> None:
    console = Console(width=max(Console().width, 150))
    table = Table(
        title=f"Suspeição: the whole report per new event, per prefix from cold, per whole round "
        f"({ROUNDS} simulated rounds per size)"
    )
    for column in (
        "table",
        "per event: median",
        "p90",
        "max",
        "any prefix cold: median",
        "max",
        "whole round: median",
        "max",
        "FORCE answers set aside",
    ):
        table.add_column(column)
    rows, worst = size_rows()
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if "data" in worst:
        peak = peak_memory(worst["data"], worst["keep"])
        console.print(
            f"slowest cold report: {fmt(worst['seconds'])} ({worst['players']} players, first "
            f"{worst['keep']} events); its peak memory {peak / 2**20:.0f} MiB"
        )
    console.print(
        "targets: ≤ 200 ms per event (median), ≤ 5 s per whole 6-player round and per prefix "
        f"from cold, ≤ 2 GB, no FORCE answer set aside; load average {os.getloadavg()[0]:.1f}"
    )
    baseline = Table(
        title=f"Suspeição, 12-card deck, {BASELINE_PREFIXES} prefixes of simulated 3-player rounds"
    )
    for column in ("method", "time", "ratio to the filter"):
        baseline.add_column(column)
    for row in baseline_rows():
        baseline.add_row(*row)
    console.print(baseline)


if __name__ == "__main__":
    main()
