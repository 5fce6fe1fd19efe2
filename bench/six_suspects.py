"""6 Suspects: exact culprit counts and advice times, beside CP-SAT enumeration and brute force.

A baseline that would take minutes on a state (12! / 11! / 10! completions) is timed on a sample
of completions and extrapolated; such figures are marked "est.".

The targets (issue 10) are maxima over states, so the last two tables time every kind of state
(by how many cards are seen and which) and report the slowest, each state timed as the best of
`REPEAT` runs (a run slowed by another process on the machine is not the state's time). Their
baseline is the counter with every unseen special placed and no opening table, on the same states.
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import time
from unittest import mock

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models.six_suspects import counter
from models.six_suspects.advice import _one_look_canonical, look_values
from models.six_suspects.counter import tally
from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.posterior import count_seen, opening_table
from models.six_suspects.rules import Card, Deck, load_deck, resolve

SEEN = (0, 1, 2, 4, 6)
STATES = 20  # random states per number of seen cards
BASELINE = 3  # of which the slow baselines run on the first few
SAMPLE = 20_000  # completions timed when a baseline is extrapolated
REPEAT = 3  # runs per state in the max-over-states tables (best of)
POSTERIOR_TARGET = 0.100  # seconds, at every state
ADVICE_TARGET = 1.0  # seconds, horizon 2, at every state with 2 or more cards seen
EVERY_SPECIAL_PLACED: frozenset[str] = (
    frozenset()
)  # the baseline: no special card counted as an item


def states(
    deck: Deck, seen_cards: int, rng: random.Random, count: int = STATES
) -> list[dict[int, Card]]:
    result = []
    for _ in range(count):
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
    columns = ("seen", "exact posterior", f"on {BASELINE} states", "CP-SAT enum.", "ratio")
    for column in (*columns, "brute force", "ratio"):
        table.add_column(column)
    for k, items in by_seen.items():
        exact = median_time(lambda s: posterior_now(deck, s), items)  # from a cold cache
        base = items[:BASELINE]  # the baselines run on these, the ratio compares the same states
        mine = median_time(lambda s: posterior_now(deck, s), base)
        sat = statistics.median(cp_sat(deck, s, None if k >= 6 else SAMPLE) for s in base)
        brute = statistics.median(brute_force(deck, s, None if k >= 4 else SAMPLE) for s in base)
        table.add_row(
            str(k),
            fmt(exact),
            fmt(mine),
            fmt(sat) + ("" if k >= 6 else " est."),
            f"{sat / mine:,.0f}×",
            fmt(brute) + ("" if k >= 4 else " est."),
            f"{brute / mine:,.0f}×",
        )
    console.print(table)
    slowest_posterior(console, deck)
    slowest_advice(console, deck)


MOVERS = ("swap", "torch-left", "torch-right", "mirror")


def kind_of(seen: dict[int, Card]) -> str:
    """A state's kind: how many cards are seen, and how many of them are plain / which specials."""
    cards = list(seen.values())
    if len(cards) <= 1:
        return f"{len(cards)} seen"
    plain = sum(c.kind == "plain" for c in cards)
    movers = sum(c.kind in MOVERS for c in cards)
    still = len(cards) - plain - movers
    if plain == len(cards):
        return f"{len(cards)} seen, all plain"
    if len(cards) >= 4:  # fast whatever they are: one row per number seen
        return f"{len(cards)} seen, some special"
    parts = [f"{n} {what}" for n, what in ((movers, "moving"), (still, "Diamond/Police")) if n]
    return f"{len(cards)} seen, {plain} plain, " + ", ".join(parts)


def states_by_kind(deck: Deck, seen_counts: tuple[int, ...], per_kind: int) -> dict[str, list]:
    """Up to `per_kind` random states of every kind, for each number of seen cards; with one card
    seen, each card once (twelve states)."""
    rng = random.Random(11)
    kinds: dict[str, list] = {}
    for k in seen_counts:
        if k == 0:
            kinds["0 seen"] = [{}]
            continue
        if k == 1:
            kinds["1 seen"] = [{rng.randrange(12): card} for card in deck.cards]
            continue
        for _ in range(4000):
            seen = dict(zip(rng.sample(range(12), k), rng.sample(deck.cards, k), strict=True))
            group = kinds.setdefault(kind_of(seen), [])
            if len(group) < per_kind:
                group.append(seen)
    return kinds


def best_of(function, item) -> float:
    return best_with_cpu(function, item)[0]


def best_with_cpu(function, item) -> tuple[float, float]:
    """Best wall-clock time and best CPU time of this process over `REPEAT` runs. CPU time is
    less disturbed by other work on the machine (the machine is shared: see `load`)."""
    wall, cpu = [], []
    for _ in range(REPEAT):
        start, start_cpu = time.perf_counter(), time.process_time()
        function(item)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def load() -> str:
    """The machine's load average over the last minute (how busy other work keeps it)."""
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def posterior_now(deck: Deck, seen: dict[int, Card]) -> None:
    """What `solve` does for a state, from a cold cache (the opening table read from its file)."""
    count_seen.cache_clear()
    opening_table.cache_clear()
    count_seen(deck, tuple(sorted((s, c.name) for s, c in seen.items())))


def slowest_posterior(console: Console, deck: Deck) -> None:
    kinds = states_by_kind(deck, (0, 1, 2, 3, 4, 6, 8), per_kind=6)
    table = Table(
        title=f"six-suspects: culprit posterior, the slowest state of each kind (best of {REPEAT}"
        f" runs each); target ≤ {fmt(POSTERIOR_TARGET)} at every state"
    )
    columns = ("state kind", "states", "median", "max", "max CPU")
    for column in (*columns, "every special placed, no table (max)", "ratio"):
        table.add_column(column)
    worst, worst_cpu, before = 0.0, 0.0, load()
    for kind, items in kinds.items():
        both = [best_with_cpu(lambda s: posterior_now(deck, s), seen) for seen in items]
        times = [wall for wall, _ in both]
        worst_cpu = max(worst_cpu, *(cpu for _, cpu in both))
        baseline = max(
            best_of(lambda s: tally(deck, s, EVERY_SPECIAL_PLACED).counts, seen)
            for seen in items[:3]
        )
        worst = max(worst, max(times))
        table.add_row(
            kind,
            str(len(items)),
            fmt(statistics.median(times)),
            fmt(max(times)),
            fmt(max(cpu for _, cpu in both)),
            fmt(baseline) + ("" if len(items) <= 3 else " (first 3)"),
            f"{baseline / max(max(times[:3]), 1e-9):,.0f}×",
        )
    console.print(table)
    verdict = "meets" if worst <= POSTERIOR_TARGET else "MISSES"
    console.print(
        f"posterior, max over all {sum(map(len, kinds.values()))} states: "
        f"{fmt(worst)} ({verdict} the target of {fmt(POSTERIOR_TARGET)}); max CPU time "
        f"{fmt(worst_cpu)}; {before} before, {load()} after"
    )


def slowest_advice(console: Console, deck: Deck) -> None:
    kinds = states_by_kind(deck, (2, 3, 4, 6), per_kind=3)
    table = Table(
        title=f"six-suspects: advice with horizon 2 (values of every next look), the slowest state"
        f" of each kind (best of {REPEAT}); target ≤ {fmt(ADVICE_TARGET)} with 2 or more seen"
    )
    columns = ("state kind", "states", "median", "max", "max CPU")
    for column in (*columns, "every special placed (1 state)", "ratio"):
        table.add_column(column)
    worst, worst_cpu, before = 0.0, 0.0, load()
    for kind, items in kinds.items():
        both = [best_with_cpu(lambda s: advise(deck, s, 2), seen) for seen in items]
        times = [wall for wall, _ in both]
        worst_cpu = max(worst_cpu, *(cpu for _, cpu in both))
        baseline = best_of(lambda s: advise(deck, s, 2, EVERY_SPECIAL_PLACED), items[0])
        worst = max(worst, max(times))
        table.add_row(
            kind,
            str(len(items)),
            fmt(statistics.median(times)),
            fmt(max(times)),
            fmt(max(cpu for _, cpu in both)),
            fmt(baseline),
            f"{baseline / times[0]:,.1f}×",
        )
    console.print(table)
    verdict = "meets" if worst <= ADVICE_TARGET else "MISSES"
    console.print(
        f"advice horizon 2, max over all {sum(map(len, kinds.values()))} states: "
        f"{fmt(worst)} ({verdict} the target of {fmt(ADVICE_TARGET)}); max CPU time "
        f"{fmt(worst_cpu)}; {before} before, {load()} after"
    )


def advise(
    deck: Deck, seen: dict[int, Card], horizon: int, loose: frozenset[str] | None = None
) -> None:
    """The values of every next look, from scratch (the symmetry cache emptied first); `loose`
    forces which special kinds are counted as items (the baseline places them all)."""
    _one_look_canonical.cache_clear()
    if loose is None:
        look_values(deck, seen, horizon)
        return
    with mock.patch.object(counter, "items_for", lambda seen, unseen: loose):
        look_values(deck, seen, horizon)


if __name__ == "__main__":
    main()
