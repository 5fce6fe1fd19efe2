"""6 Suspects: exact culprit counts and advice times, beside CP-SAT enumeration and brute force.

A baseline that would take minutes on a state (12! / 11! / 10! completions) is timed on a sample
of completions and extrapolated; such figures are marked "est.".
"""

from __future__ import annotations

import itertools
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.six_suspects.advice import _one_look_canonical, look_values
from models.six_suspects.counter import tally
from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.rules import Card, Deck, load_deck, resolve

SEEN = (0, 1, 2, 4, 6)
STATES = 5  # random states per number of seen cards
SAMPLE = 20_000  # completions timed when a baseline is extrapolated


def states(deck: Deck, seen_cards: int, rng: random.Random) -> list[dict[int, Card]]:
    result = []
    for _ in range(STATES):
        slots = rng.sample(range(12), seen_cards)
        cards = rng.sample(deck.cards, seen_cards)
        result.append(dict(zip(slots, cards, strict=True)))
    return result


def median_time(function, items) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        function(item)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def brute_force(deck: Deck, seen: dict[int, Card], limit: int | None = None) -> float:
    """Seconds to resolve every completion one by one (or `limit` of them, scaled up)."""
    free = [s for s in range(12) if s not in seen]
    rest = [c for c in deck.cards if c not in seen.values()]
    total = 1
    for k in range(2, len(rest) + 1):
        total *= k
    start = time.perf_counter()
    done = 0
    for order in itertools.islice(itertools.permutations(rest), limit):
        layout = {**seen, **dict(zip(free, order, strict=True))}
        resolve(tuple(layout[s] for s in range(12)), deck)
        done += 1
    return (time.perf_counter() - start) * total / done


def cp_sat(deck: Deck, seen: dict[int, Card], limit: int | None = None) -> float:
    """Seconds for CP-SAT to enumerate every completion (measured up to `limit`, scaled up)."""
    knowledge = LayoutKnowledge(deck, [(i + 1, s, c.name) for i, (s, c) in enumerate(seen.items())])
    total = 1
    for k in range(2, 12 - len(seen) + 1):
        total *= k
    if limit is not None and total > limit:
        # time a sample: fix enough extra cards that about `limit` completions are left
        fixed = dict(seen)
        rest = [c for c in deck.cards if c not in seen.values()]
        free = [s for s in range(12) if s not in seen]
        left = total
        while left > limit:
            fixed[free.pop()] = rest.pop()
            left //= len(rest) + 1
        knowledge = LayoutKnowledge(
            deck, [(i + 1, s, c.name) for i, (s, c) in enumerate(fixed.items())]
        )
        start = time.perf_counter()
        knowledge.enumerate(knowledge.culprit_query())
        return (time.perf_counter() - start) * total / left
    start = time.perf_counter()
    knowledge.enumerate(knowledge.culprit_query())
    return time.perf_counter() - start


def main() -> None:
    console = Console()
    deck = load_deck()
    rng = random.Random(2026)
    by_seen = {k: states(deck, k, rng) for k in SEEN}
    LayoutKnowledge(deck)  # import OR-Tools before timing
    table = Table(title=f"six-suspects: culprit posterior, median over {STATES} random states")
    for column in ("seen", "exact counter", "CP-SAT enumeration", "ratio", "brute force", "ratio"):
        table.add_column(column)
    for k, items in by_seen.items():
        exact = median_time(lambda s: tally(deck, s).counts, items)  # not the cached `count`
        small = k >= 4
        sat = statistics.median(cp_sat(deck, s, None if k >= 6 else SAMPLE) for s in items[:3])
        brute = statistics.median(
            brute_force(deck, s, None if small else SAMPLE) for s in items[:3]
        )
        est = "" if k >= 6 else " est."
        brute_est = "" if small else " est."
        table.add_row(
            str(k),
            fmt(exact),
            fmt(sat) + est,
            f"{sat / exact:,.0f}×",
            fmt(brute) + brute_est,
            f"{brute / exact:,.0f}×",
        )
    console.print(table)

    advice = Table(title="six-suspects: advice (values of every next look), median over states")
    for column in ("seen", "horizon 1", "horizon 2"):
        advice.add_column(column)
    for k in (2, 4, 6):
        row = [str(k)]
        for horizon in (1, 2):
            items = by_seen[k][: 3 if horizon == 2 else STATES]

            def advise(seen, horizon=horizon):
                _one_look_canonical.cache_clear()
                look_values(deck, seen, horizon)

            row.append(fmt(median_time(advise, items)))
        advice.add_row(*row)
    console.print(advice)


if __name__ == "__main__":
    main()
