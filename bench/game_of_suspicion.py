"""Game of Suspicion: belief update time per event and per whole round (3 and 4 players), beside the
brute-force enumerator of the tests (every physical deal and hidden choice) and CP-SAT, on the
same simulated logs.

Targets (issue 4): a median of 50 ms or less per event, and 1 s or less for a whole recorded
4-player round. Issue 10: the worst hand a seat can hold (0 0 1 1) in 1 s or less for a whole
round from a cold start, and 4-player logs without `me` (an analyst outside the table: 16,305,240
hidden deals) in 2 s or less per event as a median, memory well under 2 GB.
"""

from __future__ import annotations

import random
import resource
import statistics
import time

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.game_of_suspicion.belief import Belief, TooBig, track
from models.game_of_suspicion.knowledge import HandKnowledge
from models.game_of_suspicion.log import parse
from models.game_of_suspicion.outside import OutsideBelief
from models.game_of_suspicion.simulate import random_game
from solver.logfile import Document

ROUNDS = 12  # simulated rounds per table size
EVENTS = 40  # events per round at most (the deal included)
BRUTE_PREFIXES = 8  # 3-player prefixes timed against the brute force
BRUTE_EVENTS = 4  # events in each (the deal included)


def rounds(players: int, seed: int, count: int = ROUNDS, events: int = EVENTS) -> list[dict]:
    rng = random.Random(seed)
    return [random_game(rng, players=players, me="P1", events=events)[0] for _ in range(count)]


def per_event(doc: dict, listed: bool = False) -> tuple[list[float], float, int]:
    """Seconds of the filter per event (the deal is event 1), the whole log's seconds (reading it
    included) and its number of events. `listed`: every hidden world is listed at the deal (no
    pool: how the filter worked before issue 10), the baseline."""
    start = time.perf_counter()
    rnd = parse(Document(doc)).round
    assert rnd is not None
    deal = time.perf_counter()
    belief = Belief(rnd.setup)
    if listed:
        belief = belief.resolved()
    times = [time.perf_counter() - deal]
    by_event: dict[int, list] = {}
    for step in rnd.setup.steps:
        by_event.setdefault(step.event, []).append(step)
    for number in range(2, len(doc["events"]) + 1):
        begin = time.perf_counter()
        for step in by_event.get(number, []):
            belief.apply(step)
        times.append(time.perf_counter() - begin)
    return times, time.perf_counter() - start, len(doc["events"])


def update_rows() -> list[list[str]]:
    rows = []
    for players in (3, 4):
        events, wholes, deals = [], [], []
        for doc in rounds(players, seed=players):
            times, whole, _ = per_event(doc)
            deals.append(times[0])
            events.extend(times[1:])
            wholes.append(whole)
        events.sort()
        rows.append(
            [
                f"{players} players",
                fmt(statistics.median(events)),
                fmt(events[int(0.9 * (len(events) - 1))]),
                fmt(max(events)),
                fmt(statistics.median(deals)),
                fmt(statistics.median(wholes)),
                fmt(max(wholes)),
            ]
        )
    return rows


# The largest hidden world from a seat: my hand 0 0 1 1 leaves 483,840 worlds at the deal.
WORST = {
    "game": "game-of-suspicion",
    "players": ["Ana", "Ben", "Cleo", "Dan"],
    "me": "Ana",
    "events": [
        {"deal": {"hand": [0, 0, 1, 1]}},
        {"look": {"by": "Ben", "slot": "left", "exchanged": True}},
        {"play": {"by": "Cleo", "card": 0, "between": ["Ben", "Dan"]}},
        {"look": {"by": "Dan", "slot": "right", "exchanged": False}},
        {"play": {"by": "Ben", "card": 1, "named": 9, "holder": "Cleo"}},
        {"play": {"by": "Cleo", "card": 6, "face_up": {"Ana": 0, "Ben": 0, "Dan": 0}}},
        {"guess": {"by": "Dan", "target": "Ben", "cards": [2, 9], "correct": False}},
    ],
}


def worst_row(listed: bool = False) -> list[str]:
    """The scripted worst-hand round from a cold start, best of 3 (timings are noisy on a
    shared machine); `listed`: the baseline with every world listed at the deal."""
    runs = [per_event(WORST, listed) for _ in range(3)]
    times, whole, _ = min(runs, key=lambda run: run[1])
    return [
        "4 players, my hand 0 0 1 1" + (", every world listed at the deal" if listed else ""),
        fmt(statistics.median(times[1:])),
        "",
        fmt(max(times[1:])),
        fmt(times[0]),
        fmt(whole),
        "",
    ]


OUTSIDE_ROUNDS = 8  # 4-player rounds logged without `me`


def fallback_per_event(doc: dict) -> tuple[str, list[float], float]:
    """A log without `me` that the list of worlds refuses, as `solve` reads it: the list tried
    first, then the tables of `outside.py`, then the large list (every hand asked once at the
    end); then followed again by the filter that took it, as `replay` and `play` follow it:
    seconds per event for its steps and every hand's posterior. Returns which filter, the
    per-event seconds and the whole solve's seconds; TooBig if every filter refuses."""
    rnd = parse(Document(doc)).round
    assert rnd is not None
    start = time.perf_counter()
    belief = track(rnd.setup)
    for place in range(len(rnd.setup.places)):
        belief.hands(place)
    whole = time.perf_counter() - start
    if isinstance(belief, OutsideBelief):
        kind, belief = "the tables", OutsideBelief(rnd.setup)
    else:
        kind, belief = "the large list", Belief.large(rnd.setup)
    by_event: dict[int, list] = {}
    for step in rnd.setup.steps:
        by_event.setdefault(step.event, []).append(step)
    times = []
    for number in range(2, len(doc["events"]) + 1):
        begin = time.perf_counter()
        for step in by_event.get(number, []):
            belief.apply(step)
        for place in range(len(rnd.setup.places)):
            if belief.has_cards(place):
                belief.hands(place)
        times.append(time.perf_counter() - begin)
    return kind, times, whole


def outside_rows() -> tuple[list[list[str]], str]:
    """4-player rounds logged without `me` (public information only): per event and per round,
    beside the baseline of the 3-player outside rounds with every world listed at the deal
    (4-player ones cannot be listed: 16,305,240 deals). Rounds the list of worlds refuses get
    rows of their own, by the filter that took them. Also the bench process's peak memory."""
    rows, refused = [], 0
    fallback: dict[str, tuple[list[float], list[float]]] = {}
    for players, count in ((4, OUTSIDE_ROUNDS), (3, ROUNDS)):
        rng = random.Random(100 + players)
        docs = [random_game(rng, players=players, me=None, events=EVENTS)[0] for _ in range(count)]
        for listed in (False, True) if players == 3 else (False,):
            events, wholes, deals = [], [], []
            for doc in docs:
                try:
                    times, whole, _ = per_event(doc, listed)
                except TooBig:  # more worlds than the list holds at once: the fallbacks
                    try:
                        kind, times, whole = fallback_per_event(doc)
                    except TooBig:
                        refused += 1
                        continue
                    fallback.setdefault(kind, ([], []))[0].extend(times)
                    fallback[kind][1].append(whole)
                    continue
                deals.append(times[0])
                events.extend(times[1:])
                wholes.append(whole)
            events.sort()
            label = f"{players} players, no me" + (", every world listed" if listed else "")
            if players == 4:
                label += f" ({len(wholes)} of {count} rounds tracked by the list of worlds)"
            rows.append(
                [
                    label,
                    fmt(statistics.median(events)),
                    fmt(events[int(0.9 * (len(events) - 1))]),
                    fmt(max(events)),
                    fmt(statistics.median(deals)),
                    fmt(statistics.median(wholes)),
                    fmt(max(wholes)),
                ]
            )
            for kind, (times, solves) in fallback.items() if players == 4 else ():
                times.sort()
                rows.append(
                    [
                        f"4 players, no me, by {kind} ({len(solves)} of {count} rounds; per "
                        "event: its steps and every hand's posterior; round: solve)",
                        fmt(statistics.median(times)),
                        fmt(times[int(0.9 * (len(times) - 1))]),
                        fmt(max(times)),
                        "",
                        fmt(statistics.median(solves)),
                        fmt(max(solves)),
                    ]
                )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return rows, (
        f"peak memory of the bench process so far: {peak:,.0f} MB; "
        f"{refused} of {OUTSIDE_ROUNDS} 4-player rounds refused by every filter"
    )


def baseline_rows() -> list[list[str]]:
    """The filter (exact posterior), the brute force (the same posterior, every physical deal
    and hidden choice) and CP-SAT (the possible worlds only, one solve each) on the same short
    3-player prefixes."""
    from tests.suspicion_brute import brute_force  # written for the tests; imported here only

    rows = []
    docs = rounds(3, seed=7, count=BRUTE_PREFIXES, events=BRUTE_EVENTS)
    filter_times, brute_times, cp_times = [], [], []
    for doc in docs:
        start = time.perf_counter()
        rnd = parse(Document(doc)).round
        assert rnd is not None
        belief = Belief(rnd.setup)
        for step in rnd.setup.steps:
            belief.apply(step)
        filter_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        brute_force(doc)
        brute_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = HandKnowledge(rnd.setup).possible_worlds(limit=belief.worlds + 1)
        cp_times.append(time.perf_counter() - start)
        assert len(found) == belief.worlds  # the same support, found one solve per world
    exact = statistics.median(filter_times)
    for name, times in (("brute force", brute_times), ("CP-SAT (every possible world)", cp_times)):
        baseline = statistics.median(times)
        rows.append([name, fmt(exact), fmt(baseline), f"{baseline / exact:,.0f}×"])
    return rows


def suggest_rows() -> list[list[str]]:
    from models import GAMES

    game = GAMES["game-of-suspicion"]
    rows = []
    for players in (3, 4):
        times = []
        for doc in rounds(players, seed=11 + players, count=5, events=8):
            start = time.perf_counter()
            game.suggest(Document(doc))
            times.append(time.perf_counter() - start)
        rows.append([f"{players} players, after 8 events", fmt(statistics.median(times))])
    return rows


def main() -> None:
    console = Console()
    table = Table(title="Game of Suspicion: exact filter, per event and per round (from P1's seat)")
    for column in (
        "table",
        "event median",
        "event p90",
        "event max",
        "deal",
        "round median",
        "round max",
    ):
        table.add_column(column)
    outside, memory = outside_rows()  # first: the peak memory is the process's
    for row in [*update_rows(), worst_row(), worst_row(listed=True), *outside]:
        table.add_row(*row)
    console.print(table)
    console.print(
        f"({ROUNDS} simulated rounds of up to {EVENTS} events each, {OUTSIDE_ROUNDS} for 4 "
        f"players without me; the worst-hand rows: a scripted {len(WORST['events'])}-event "
        "round from the largest hidden world a seat faces, best of 3. Targets: 50 ms per event "
        "(median), 1 s per 4-player round and for the worst-hand round, 2 s per event (median) "
        f"without me; {memory})"
    )
    table = Table(
        title=f"Same {BRUTE_PREFIXES} 3-player prefixes of {BRUTE_EVENTS} events: baselines"
    )
    for column in ("baseline", "filter", "baseline time", "ratio"):
        table.add_column(column)
    for row in baseline_rows():
        table.add_row(*row)
    console.print(table)
    table = Table(title="Advice (sleuth suggest), median of 5 states")
    for column in ("state", "time"):
        table.add_column(column)
    for row in suggest_rows():
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
