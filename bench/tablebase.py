"""6 Suspects tablebase (issue 14): the exact value of P(vote hits a culprit) from the empty table
for the random, greedy and optimal (shipped) look policies, H = 1..5 looks; and the time of
`advise` at every depth the table reaches (every k cards seen and H looks left with k + H ≤ 5;
median and max over random states), beside the live depth-2 count of the same state (what
`suggest` computed before the table).

Target: an advice call at most 100 ms with the table."""

from __future__ import annotations

import os
import random
import statistics
import time
from fractions import Fraction

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.six_suspects.advice import (
    _one_look_canonical,
    advise,
    look_values,
    one_look_values,
    valued_looks,
)
from models.six_suspects.log import Log, Seen
from models.six_suspects.rules import SLOTS, load_deck
from models.six_suspects.tablebase import MOST, shipped

TARGET = 0.1  # seconds per advice call with the table
SAMPLES = 6  # random states per (cards seen, looks left)


def main() -> None:
    deck = load_deck()
    table = shipped(deck)
    console = Console()
    if table is None:
        console.print("six-suspects tablebase: not shipped (run `sleuth tablebase six-suspects`)")
        return
    values = Table(title="6 Suspects: P(vote hits a culprit) from the empty table, H looks")
    for column in ("H", "random", "greedy", "optimal (shipped policy)", "optimal − greedy"):
        values.add_column(column)
    exact = []
    for horizon in range(1, MOST + 1):
        if horizon == 1:  # one look: every slot is alike, so all three policies agree
            r = g = o = max(one_look_values(deck, {})[1].values())
        else:
            node = table[(), horizon]
            r, g, o = node.random, node.greedy, node.optimal
        values.add_row(
            str(horizon),
            f"{float(r):.6f}",
            f"{float(g):.6f}",
            f"{float(o):.6f}",
            f"{float(o - g) * 100:.3f} points",
        )
        exact.append(f"H = {horizon}: random {r}, greedy {g}, optimal {o}")
    console.print(values)
    for line in exact:  # the fractions, one line each (a table cell would cut them)
        console.print(line)
    for horizon in (4, 5):
        start = time.perf_counter()
        followed = policy_value(deck, {}, horizon)
        verdict = "= optimal" if followed == table[(), horizon].optimal else "≠ OPTIMAL"
        console.print(
            f"H = {horizon}: the shipped policy followed look by look (`advise`'s first look, every "
            f"card it may show, live one-look counts at the last look): {followed} = "
            f"{float(followed):.6f} {verdict} ({fmt(time.perf_counter() - start)})"
        )

    timing = Table(title="6 Suspects: one advice call (suggest, play, the web page)")
    for column in ("cards seen", "looks left", "median", "max", "live depth 2", "ratio"):
        timing.add_column(column)
    rng = random.Random(1)
    worst = 0.0
    for seen_count in range(0, MOST - 1):
        for left in range(MOST - seen_count, 1, -1):
            times, baseline = timed(deck, rng, seen_count, left)
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
    console.print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def policy_value(deck, seen: dict, left: int) -> Fraction:
    """The exact P(vote hits) of doing what `advise` says for `left` looks from `seen` (its first
    look each time), then voting: every card each look may show is followed, and the last look
    is valued by its live one-look count. Walks real states (no symmetry), so it checks that the
    table's advice reaches the table's value."""
    facts = [Seen(i + 1, s, c) for i, (s, c) in enumerate(seen.items())]
    advice = advise(Log(deck, ["Ana", "Ben"], "Ana", facts, len(facts), {}, None), looks=left)
    best = advice.looks[0]
    if left == 1:
        return best.value
    unseen = [c for c in deck.cards if c not in seen.values()]
    below = [policy_value(deck, {**seen, best.slot: card}, left - 1) for card in unseen]
    return sum(below, Fraction(0)) / len(unseen)


def timed(deck, rng: random.Random, seen_count: int, left: int) -> tuple[list[float], list[float]]:
    """Advice calls on random states from cold caches, and a few live depth-2 counts."""
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
        advice = advise(log, looks=left)
        times.append(time.perf_counter() - start)
        assert advice.exact and advice.horizon == left  # the table's, optimal
        if seen_count >= 2 and len(baseline) < 2:  # live depth 2 takes seconds below that
            _one_look_canonical.cache_clear()
            start = time.perf_counter()
            look_values(deck, dict(zip(slots, cards, strict=True)), 2)
            baseline.append(time.perf_counter() - start)
    return times, baseline


if __name__ == "__main__":
    main()
