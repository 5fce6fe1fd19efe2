"""6 Suspects tablebase (issue 14): the exact value of P(vote hits a culprit) from the empty table
for the random, greedy and optimal look policies, H = 1..4 looks; and the time of `advise` at
every depth the table reaches (median and max over random states), beside the live depth-2
count of the same state (the baseline: what `suggest` computed before the table).

Target: an advice call at most 100 ms with the table."""

from __future__ import annotations

import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.six_suspects.advice import _one_look_canonical, advise, look_values, valued_looks
from models.six_suspects.log import Log, Seen
from models.six_suspects.rules import SLOTS, load_deck
from models.six_suspects.tablebase import MOST, shipped

TARGET = 0.1  # seconds per advice call with the table
SAMPLES = 6  # random states per depth


def main() -> None:
    deck = load_deck()
    table = shipped(deck)
    console = Console()
    if table is None:
        console.print("six-suspects tablebase: not shipped (run `sleuth tablebase six-suspects`)")
        return
    values = Table(title="6 Suspects: P(vote hits a culprit) from the empty table, H looks")
    for column in ("H", "random", "greedy", "optimal", "optimal − greedy"):
        values.add_column(column)
    for horizon in range(1, MOST + 1):
        if horizon == 1:
            from models.six_suspects.advice import one_look_values

            one = one_look_values(deck, {})[1]
            r = g = o = max(one.values())
        else:
            node = table[(), horizon]
            r, g, o = node.random, node.greedy, node.optimal
        values.add_row(
            str(horizon),
            f"{float(r):.6f}",
            f"{float(g):.6f}",
            f"{float(o):.6f} ({o})",
            f"{float(o - g) * 100:.3f} points",
        )
    values.add_row(str(MOST + 1), "—", "—", "—", f"not in the table (k + H ≤ {MOST})")
    console.print(values)

    timing = Table(title="6 Suspects: one advice call (suggest, play, the web page)")
    for column in ("cards seen", "looks left", "median", "max", "live depth 2", "ratio"):
        timing.add_column(column)
    rng = random.Random(1)
    worst = 0.0
    for seen_count in range(0, MOST - 1):
        left = MOST - seen_count
        times: list[float] = []
        baseline: list[float] = []
        for _ in range(SAMPLES):
            slots = rng.sample(range(len(SLOTS)), seen_count)
            cards = rng.sample(deck.cards, seen_count)
            facts = [Seen(i + 1, s, c) for i, (s, c) in enumerate(zip(slots, cards, strict=True))]
            log = Log(deck, ["Ana", "Ben"], "Ana", facts, len(facts), {}, None)
            _one_look_canonical.cache_clear()
            valued_looks.cache_clear()
            start = time.perf_counter()
            advise(log, looks=left)
            times.append(time.perf_counter() - start)
            if seen_count >= 2 and len(baseline) < 2:  # live depth 2 takes seconds below that
                _one_look_canonical.cache_clear()
                start = time.perf_counter()
                look_values(deck, dict(zip(slots, cards, strict=True)), 2)
                baseline.append(time.perf_counter() - start)
        worst = max(worst, max(times))
        base = statistics.median(baseline) if baseline else None
        timing.add_row(
            str(seen_count),
            str(left),
            fmt(statistics.median(times)),
            fmt(max(times)),
            fmt(base) if base else "seconds (8-14 s at 0-1 seen)",
            f"{base / statistics.median(times):.1f}× faster" if base else "—",
        )
    console.print(timing)
    verdict = "meets" if worst <= TARGET else "MISSES"
    console.print(f"slowest advice call with the table: {fmt(worst)} ({verdict} {fmt(TARGET)})")


if __name__ == "__main__":
    main()
