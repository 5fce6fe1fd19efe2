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
STATES = 20  # random states per number of seen cards
BASELINE = 3  # of which the slow baselines run on the first few
HORIZON_2_STATES = 9  # and horizon-2 advice on the first few
KIND_STATES = 5  # states of each kind of 2 seen cards
SAMPLE = 20_000  # completions timed when a baseline is extrapolated


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


def both_plain(seen: dict[int, Card]) -> bool:
    return all(card.kind == "plain" for card in seen.values())


def main() -> None:
    console = Console()
    deck = load_deck()
    rng = random.Random(2026)
    by_seen = {k: states(deck, k, rng) for k in SEEN}
    LayoutKnowledge(deck)  # import OR-Tools before timing
    table = Table(title=f"six-suspects: culprit posterior, median over {STATES} random states")
    columns = ("seen", "exact counter", f"on {BASELINE} states", "CP-SAT enum.", "ratio")
    for column in (*columns, "brute force", "ratio"):
        table.add_column(column)
    for k, items in by_seen.items():
        exact = median_time(lambda s: tally(deck, s).counts, items)  # not the cached `count`
        base = items[:BASELINE]  # the baselines run on these, the ratio compares the same states
        mine = median_time(lambda s: tally(deck, s).counts, base)
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
    # about 23% of random 2-card states are two plain cards, the slow kind: time each kind
    kinds = Table(title=f"six-suspects: 2 cards seen, by kind ({KIND_STATES} random states each)")
    for column in ("cards seen", "exact counter", "advice horizon 1", "horizon 2"):
        kinds.add_column(column)
    pool = states(deck, 2, random.Random(7), count=200)
    for label, test in (("both plain", both_plain), ("a special", lambda s: not both_plain(s))):
        group = [s for s in pool if test(s)][:KIND_STATES]
        kinds.add_row(
            label,
            fmt(median_time(lambda s: tally(deck, s).counts, group)),
            fmt(median_time(lambda s: advise(deck, s, 1), group)),
            fmt(median_time(lambda s: advise(deck, s, 2), group)),
        )
    console.print(kinds)

    advice = Table(title="six-suspects: advice (values of every next look), median over states")
    for column in ("seen", f"horizon 1 ({STATES} states)", f"horizon 2 ({HORIZON_2_STATES})"):
        advice.add_column(column)
    for k in (2, 4, 6):
        one = median_time(lambda s: advise(deck, s, 1), by_seen[k])
        two = median_time(lambda s: advise(deck, s, 2), by_seen[k][:HORIZON_2_STATES])
        advice.add_row(str(k), fmt(one), fmt(two))
    console.print(advice)


def advise(deck: Deck, seen: dict[int, Card], horizon: int) -> None:
    """The values of every next look, from scratch (the symmetry cache emptied first)."""
    _one_look_canonical.cache_clear()
    look_values(deck, seen, horizon)


if __name__ == "__main__":
    main()
