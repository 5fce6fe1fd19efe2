"""Small timing helpers shared by the benchmarks."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any


def per_call(function: Callable[[Any], Any], states: Iterable[Any], repeat: int = 1) -> float:
    """Median seconds of `function(state)` over the states (best of `repeat` for each state)."""
    times = []
    for state in states:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            function(state)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    return statistics.median(times)


def total(function: Callable[[], Any]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
