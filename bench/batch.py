"""The batch engine (solver/batch.py): `sleuth simulate game-of-suspicion` (3 players),
`sleuth generate three-of-a-crime --count 1000` and `sleuth batch solve` with `--workers 2`
beside `--workers 1` (the command's own process), each run as a user runs it; the same jobs on a
2-worker cluster already running (the engine without the cluster's start); and the engine's cost
on small jobs beside doing the same chunks in this process.

Each figure is beside its baseline as a ratio; every pair is checked to give the same report
(the determinism rule). Beside the speed-up, the ceiling the machine allows just then: what 2
plain processes gain over 1 on pure Python work (another busy process on the 2 cores takes its
share from the workers)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.timing import fmt, total
from models import GAMES
from models.jobs import answer, answer_all, generate, play_chunk, simulate
from solver import batch

GAME = "game-of-suspicion"
RANDOM_ROUNDS = 10_000  # the 10⁴ rounds, with the random policy (~6 ms a round here)
ADVICE_ROUNDS = 160  # the advice policy is ~100 ms a round: 10⁴ would take ~17 min on one core
SMALL = 10  # the small job: 10 rounds, one chunk
SEED = 2026


def timed(policy: str, rounds: int, **where: object) -> tuple[float, dict]:
    start = time.perf_counter()
    report = simulate(GAMES[GAME], rounds, SEED, policy, **where)  # type: ignore[arg-type]
    return time.perf_counter() - start, report.data


def command(policy: str, rounds: int, workers: int) -> tuple[float, dict]:
    """`sleuth simulate ... --workers N --json` as a user runs it (a fresh process, imports and
    all): its wall time and report."""
    args = ["simulate", GAME, "--games", str(rounds), "--seed", str(SEED), "--policy", policy]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", *args, "--workers", str(workers), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, json.loads(done.stdout)


def forced_cluster(policy: str, rounds: int, workers: int) -> tuple[float, dict]:
    """The job on a LocalCluster started for it, even when it is small enough to run here."""
    game = GAMES[GAME]
    start = time.perf_counter()
    chunks = batch.plan(rounds, game.simulate_chunk_size(policy), SEED)
    task = partial(play_chunk, GAME, policy)
    partials = list(batch.on_cluster(task, chunks, workers, None, None))
    report = game.simulate_report(partials, policy)
    return time.perf_counter() - start, report.data


def direct(policy: str, rounds: int) -> tuple[float, dict]:
    """No engine at all: the game's chunks played and merged by hand, in this process."""
    game = GAMES[GAME]
    start = time.perf_counter()
    chunks = batch.plan(rounds, game.simulate_chunk_size(policy), SEED)
    partials = [game.simulate_chunk(c.seed, c.size, policy) for c in chunks]
    report = game.simulate_report(partials, policy)
    return time.perf_counter() - start, report.data


def burn(seconds: float) -> float:
    """Pure Python work for about `seconds` of one free core; its wall time."""
    start = time.perf_counter()
    total = 0
    for i in range(int(seconds * 15_000_000)):
        total += i * i
    return time.perf_counter() - start


def free_speed_up(seconds: float = 2.0) -> float:
    """What 2 plain processes gain over 1 right now on the same work: the ceiling of the
    engine's speed-up while the machine is shared (2.0 on 2 idle cores)."""
    import multiprocessing

    one = total(lambda: [burn(seconds), burn(seconds)])
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(burn, [0.01, 0.01])  # started before timing
        two = total(lambda: pool.map(burn, [seconds, seconds], chunksize=1))
    return one / two


def load_now() -> str:
    """The 1-minute load average: above 1 beside a 1-worker run, other work shared the cores."""
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def cli(args: list[str], workers: int) -> tuple[float, str]:
    """`sleuth ARGS --workers N` in a fresh process: its wall time and stdout."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", *args, "--workers", str(workers)],
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - start, done.stdout


def logs_folder(copies: int) -> Path:
    """A folder of `copies` copies of every bundled example log (not the puzzles)."""
    folder = Path(tempfile.mkdtemp(prefix="sleuth-bench-"))
    logs = [p for p in sorted(Path("examples").glob("*/*.yaml")) if "puzzle" not in p.name]
    for i in range(copies):
        for log in logs:
            shutil.copy(log, folder / f"{i:03}-{log.parent.name}-{log.name}")
    return folder


def other_jobs(console: Console) -> None:
    """generate and batch solve: 2 workers beside 1 as a user runs them, and on a cluster that
    is already running beside this process (the engine's own cost, without the start)."""
    from distributed import Client, LocalCluster

    folder = logs_folder(4)
    files = sorted(str(p) for p in folder.glob("*.yaml"))
    jobs = {
        "generate three-of-a-crime --count 1000": [
            "generate",
            "three-of-a-crime",
            "--count",
            "1000",
            "--seed",
            str(SEED),
            "--json",
        ],
        f"batch solve: {len(files)} logs (the examples, 4 times)": ["batch", "solve", str(folder)],
    }
    speed = Table(title="generate and batch solve (a fresh process each): --workers 2 beside 1")
    for column in ("job", "1 worker (this process)", "2 local workers", "speed-up", "ceiling now"):
        speed.add_column(column)
    for label, args in jobs.items():
        ceiling = free_speed_up()
        one, one_out = cli(args, 1)
        two, two_out = cli(args, 2)
        assert one_out == two_out, f"{label}: the same seed gave two results"
        speed.add_row(label, fmt(one), fmt(two), f"{one / two:.2f}×", f"{ceiling:.2f}×")
    console.print(speed)

    warm = Table(
        title="the same jobs on a 2-worker LocalCluster already running, beside this process"
    )
    for column in ("job", "this process", "running cluster", "speed-up"):
        warm.add_column(column)
    game = GAMES["three-of-a-crime"]
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        address = cluster.scheduler_address
        client.run(importlib.import_module, "models.jobs")  # imports done before timing
        runs = {
            "generate 1000 Three of a Crime puzzles": (
                lambda **where: generate(game, 1000, SEED, **where)
            ),
            f"batch solve {len(files)} logs": (
                lambda **where: list(answer_all("solve", files, **where))
            ),
        }
        for label, run in runs.items():
            here, here_out = timed_call(run, workers=1)
            there, there_out = timed_call(run, scheduler=address)
            assert here_out == there_out, label
            warm.add_row(label, fmt(here), fmt(there), f"{here / there:.2f}×")
    console.print(warm)

    small = Table(title=f"batch solve of {SMALL} logs, beside answering them in a loop here")
    for column in ("job", "a loop in this process", "batch solve's path", "ratio"):
        small.add_column(column)
    ten = files[:SMALL]

    def loop() -> tuple[float, object]:
        start = time.perf_counter()
        lines = [answer("solve", f, Path(f).read_text(encoding="utf-8"), None) for f in ten]
        return time.perf_counter() - start, lines

    base, base_out = best_of(3, loop)
    auto, auto_out = best_of(3, lambda: timed_call(lambda: list(answer_all("solve", ten))))
    assert base_out == auto_out
    small.add_row(
        f"{SMALL} logs ({len(batch.plan(SMALL, 4, 0))} chunks)",
        fmt(base),
        fmt(auto),
        f"{auto / base:.2f}×",
    )
    console.print(small)
    shutil.rmtree(folder)


def timed_call(run: Callable[..., object], *args: object, **where: object) -> tuple[float, object]:
    start = time.perf_counter()
    out = run(*args, **where)
    return time.perf_counter() - start, out


def best_of(times: int, run: Callable[[], tuple[float, Any]]) -> tuple[float, Any]:
    """The fastest of a few runs (a short job's time is noisy on a shared machine)."""
    runs = [run() for _ in range(times)]
    assert all(data == runs[0][1] for _, data in runs)
    return min(seconds for seconds, _ in runs), runs[0][1]


def main() -> None:
    console = Console()
    console.print(f"batch: {batch.cores()} cores, 1-minute load average before: {load_now()}")
    GAMES[GAME].simulate_chunk(SEED, 1, "random")  # the small jobs: imports done before timing

    speed = Table(
        title=f"sleuth simulate {GAME} (3 players, a fresh process each): --workers 2 beside 1"
    )
    columns = ("job", "1 worker (this process)", "2 local workers", "speed-up", "ceiling now")
    for column in columns:
        speed.add_column(column)
    for policy, rounds in (("random", RANDOM_ROUNDS), ("advice", ADVICE_ROUNDS)):
        ceiling = free_speed_up()
        one, one_data = command(policy, rounds, workers=1)
        two, two_data = command(policy, rounds, workers=2)
        assert one_data == two_data, "the same seed gave two reports"
        chunks = len(batch.plan(rounds, GAMES[GAME].simulate_chunk_size(policy), SEED))
        job = f"{rounds:,} rounds, --policy {policy} ({chunks} chunks)"
        speed.add_row(job, fmt(one), fmt(two), f"{one / two:.2f}×", f"{ceiling:.2f}×")
    console.print(speed)
    console.print(
        f"(the issue asks for 10⁴ rounds: done with the random policy; the advice policy's "
        f"rounds cost ~17× more, so {ADVICE_ROUNDS} of them; both include starting and "
        f"closing the 2-worker LocalCluster. 'ceiling now': 2 plain processes over 1 on pure "
        f"Python work, just before; 2.00× on 2 idle cores, less while other work runs)"
    )

    small = Table(title="the engine on small jobs, beside playing the chunks in this process")
    for column in ("job", "no engine", "sleuth simulate's path", "ratio"):
        small.add_column(column)
    size = GAMES[GAME].simulate_chunk_size("random")
    for label, rounds in (
        (f"{SMALL} rounds (1 chunk)", SMALL),
        (f"{batch.SMALL_JOB} chunks ({batch.SMALL_JOB * size} rounds)", batch.SMALL_JOB * size),
    ):
        base, base_data = best_of(3, partial(direct, "random", rounds))
        auto, auto_data = best_of(3, partial(timed, "random", rounds))  # small: runs here
        assert base_data == auto_data
        small.add_row(f"{label}, in process", fmt(base), fmt(auto), f"{auto / base:.2f}×")
        forced, forced_data = forced_cluster("random", rounds, 2)
        assert base_data == forced_data
        small.add_row(
            f"{label}, on a 2-worker LocalCluster (forced)",
            fmt(base),
            fmt(forced),
            f"{forced / base:.2f}×",
        )
    console.print(small)
    console.print(
        f"(a job of at most {batch.SMALL_JOB} chunks runs in this process unless a scheduler "
        "is given: starting and closing a LocalCluster costs more than such a job)"
    )
    other_jobs(console)
