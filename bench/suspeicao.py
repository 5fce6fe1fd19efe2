"""Suspeição: the cost of each new event (as in a session: the log so far read again, the filter
carried on from the last event) and of solving a whole recorded round at once, for 3, 4 and 6
players on simulated rounds; and, on the reduced test deck, the filter beside the brute force of
the tests (every physical deal and hidden choice) and CP-SAT listing the possible worlds, on the
same prefixes.

Targets (issue 5): a median of 200 ms or less per event, and 5 s or less for a whole recorded
6-player round.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import yaml
from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.suspeicao.belief import CAP, track
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.knowledge import possible_worlds
from models.suspeicao.log import parse
from models.suspeicao.simulate import random_game
from models.suspeicao.steps import Force
from solver.logfile import Document

ROUNDS = 8  # simulated rounds per table size
SMALL = str(Path(__file__).resolve().parent.parent / "tests" / "data" / "suspeicao-small.yaml")
BASELINE_PREFIXES = 10


def document(data: dict) -> Document:
    return Document(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)))


def session_costs(data: dict) -> list[float]:
    """Seconds to show the posterior after each event, event by event (the filter's cache warm)."""
    GAME_OBJECT.last.clear()
    events, times = data["events"], []
    for keep in range(1, len(events) + 1):
        doc = document({**data, "events": events[:keep]})
        start = time.perf_counter()
        GAME_OBJECT.posterior(doc)
        times.append(time.perf_counter() - start)
    return times


def whole_round(data: dict) -> tuple[float, int, int]:
    """Seconds to read and track a whole round from scratch; FORCE answers set aside, and FORCE
    answers from other players' hands."""
    doc = document(data)
    start = time.perf_counter()
    log = parse(doc)
    assert log.round is not None
    belief = track(log.round.setup, log.deck)
    forces = sum(1 for s in log.round.setup.steps if isinstance(s, Force))
    return time.perf_counter() - start, len(belief.set_aside), forces


def update_rows() -> list[list[str]]:
    rows = []
    for players in (3, 4, 6):
        rng = random.Random(players)
        games = [random_game(rng, players).doc for _ in range(ROUNDS)]
        events: list[float] = []
        wholes, aside, forces = [], [], []
        for data in games:
            events.extend(session_costs(data))
            seconds, set_aside, answered = whole_round(data)
            wholes.append(seconds)
            aside.append(set_aside)
            forces.append(answered)
        events.sort()
        rows.append(
            [
                f"{players} players",
                fmt(statistics.median(events)),
                fmt(events[int(0.9 * (len(events) - 1))]),
                fmt(max(events)),
                fmt(statistics.median(wholes)),
                fmt(max(wholes)),
                f"{sum(aside)} of {sum(forces)}",
            ]
        )
    return rows


def baseline_rows() -> list[list[str]]:
    """The same prefixes of simulated 3-player rounds on the 12-card deck, three ways."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from suspeicao_brute import brute_force

    rng = random.Random(5)
    prefixes: list[dict] = []
    while len(prefixes) < BASELINE_PREFIXES:
        data = random_game(rng, 3, deck_path=SMALL).doc
        keep = rng.randint(3, min(8, len(data["events"])))
        prefixes.append({**data, "events": data["events"][:keep]})
    logs = [parse(document(p)) for p in prefixes]

    def filter_all() -> None:
        for log in logs:
            assert log.round is not None
            track(log.round.setup, log.deck)

    def brute_all() -> None:
        for p in prefixes:
            brute_force(p)

    def cpsat_all() -> None:
        for log in logs:
            assert log.round is not None
            possible_worlds(log.round.setup, log.round.setup.steps, log.deck)

    timed = {}
    for name, run in (("filter", filter_all), ("brute force", brute_all), ("CP-SAT", cpsat_all)):
        start = time.perf_counter()
        run()
        timed[name] = time.perf_counter() - start
    base = timed["filter"]
    return [
        [name, fmt(t), f"{t / base:.0f}×" if name != "filter" else "1×"]
        for name, t in timed.items()
    ]


def main() -> None:
    console = Console()
    table = Table(
        title=f"Suspeição: posterior per new event and per whole round ({ROUNDS} simulated rounds "
        f"per size; at most {CAP:,} worlds)"
    )
    for column in (
        "table",
        "per event: median",
        "p90",
        "max",
        "whole round: median",
        "max",
        "FORCE answers set aside",
    ):
        table.add_column(column)
    for row in update_rows():
        table.add_row(*row)
    console.print(table)
    console.print("targets: ≤ 200 ms per event (median), ≤ 5 s per whole 6-player round")
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
