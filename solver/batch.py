"""The batch engine: a job of many units cut into fixed chunks, run in this process or on Dask.

A job of N units (games to play, puzzles to make, ...) is cut into chunks of a fixed size that the
job's owner chooses (never from the number of workers), and chunk i gets its own seed, derived
from the master seed and i alone (`chunk_seed`). A chunk's result is therefore the same wherever
and however often it runs: in this process, on 2 local workers, on a cluster, or again after its
worker died. Results come back in chunk order, so the merged result of a seed is identical
whatever the number of workers.

Where the chunks run:
- a job of one chunk, `workers=1`, or (with no scheduler) a job of at most `SMALL_JOB` chunks
  runs here: starting and closing a local cluster costs more than such a job (about 2-4 s on
  this 2-core machine; `python -m bench batch`);
- `scheduler="tcp://HOST:8786"` (or the environment's SLEUTH_SCHEDULER, when neither `workers`
  nor `scheduler` is given) uses an existing Dask cluster;
- otherwise a `LocalCluster` of `workers` processes (default: one per core), one thread each
  (the work is Python code, bound by the GIL), started for the job and closed after it.

Dask is imported only on the last two paths, so commands that never run a batch start as fast
as before.

Faults: when a worker dies, the scheduler runs its chunks again elsewhere (up to Dask's
`distributed.scheduler.allowed-failures` deaths per chunk); a chunk that raises an unexpected
exception is tried again `RETRIES` times (`retries=` on submit). The chunk's seed makes the
result of a second run the same as the first's. A SleuthError (bad input met inside a chunk) is
deterministic, so it is sent back as a value and raised here once, never retried.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import signal
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from solver.errors import InputError, SleuthError

T = TypeVar("T")

SCHEDULER_ENV = "SLEUTH_SCHEDULER"
SMALL_JOB = 4  # chunks: a job this small runs here unless a scheduler is given (bench/batch.py)
RETRIES = 2  # extra tries of a chunk that raised an unexpected exception on a worker
CONNECT_TIMEOUT = 10.0  # seconds to reach a given scheduler before saying it cannot be reached


@dataclass(frozen=True)
class Chunk:
    """Units [start, start + size) of a job, played from their own seed."""

    index: int
    start: int
    size: int
    seed: int
    # what the chunk's units need that a worker may not be able to read itself (the texts of
    # the logs a `batch solve` chunk answers); sent with the chunk, never part of its identity
    payload: Any = field(default=None, compare=False, repr=False)


def chunk_seed(seed: int, index: int) -> int:
    """Chunk `index`'s seed: 64 bits of SHA-256 over the master seed and the index.

    A hash (rather than, say, `random.Random(seed)` drawing one seed per chunk in turn) gives
    chunk i its seed without the seeds of chunks 0..i-1, is the same on every platform and
    Python version, and keeps neighbouring chunks' streams unrelated. A chunk plays from
    `random.Random(chunk.seed)`."""
    digest = hashlib.sha256(f"sleuth-batch:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def plan(units: int, size: int, seed: int | None) -> list[Chunk]:
    """The chunks of a job of `units` units, `size` to a chunk (the last may be smaller).

    `seed=None` draws a master seed at random: the chunks still have seeds derived from it."""
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    master = random.SystemRandom().randrange(2**63) if seed is None else seed
    return [
        Chunk(index, start, min(size, units - start), chunk_seed(master, index))
        for index, start in enumerate(range(0, units, size))
    ]


def run(
    task: Callable[[Chunk], T],
    chunks: Sequence[Chunk],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[Chunk], None] | None = None,
) -> Iterator[T]:
    """`task(chunk)` for every chunk, yielded in chunk order; `progress(chunk)` as each ends.

    On a cluster, `task` and the chunks are pickled: `task` must be a module-level function
    (or a functools.partial of one) that the workers can import."""
    if workers is not None and scheduler is not None:
        raise InputError("give --workers (local worker processes) or --scheduler, not both")
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, not {workers}")
    if workers is None and scheduler is None:
        scheduler = os.environ.get(SCHEDULER_ENV) or None
    here = len(chunks) <= 1 or (
        scheduler is None and (len(chunks) <= SMALL_JOB or (workers or cores()) == 1)
    )
    if here:
        return in_process(task, chunks, progress)
    return on_cluster(task, chunks, workers, scheduler, progress)


def cores() -> int:
    """The cores this process may use (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def in_process(
    task: Callable[[Chunk], T], chunks: Sequence[Chunk], progress: Callable[[Chunk], None] | None
) -> Iterator[T]:
    """The chunks one after another in this process: the same chunks and seeds as a cluster's."""
    for chunk in chunks:
        result = task(chunk)
        if progress:
            progress(chunk)
        yield result


@dataclass
class Failed:
    """A SleuthError raised inside a chunk, sent back as a value (not retried: it would recur)."""

    error: SleuthError


def guarded(task: Callable[[Chunk], T], chunk: Chunk) -> T | Failed:
    """What a worker runs: the task, with a user's error returned rather than raised."""
    try:
        return task(chunk)
    except SleuthError as error:
        return Failed(error)


def on_cluster(
    task: Callable[[Chunk], T],
    chunks: Sequence[Chunk],
    workers: int | None,
    scheduler: str | None,
    progress: Callable[[Chunk], None] | None,
) -> Iterator[T]:
    """The chunks on Dask: a bounded window of chunks in flight, results reordered by index."""
    from distributed import KilledWorker, as_completed

    with connected(workers, scheduler, len(chunks)) as client:
        threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
        # one chunk in flight per thread: Dask gives a chunk to a worker as it is submitted, and
        # one queued behind a long chunk waits there while another worker idles (batch solve
        # of logs of mixed sizes ran its long chunks one after another on one worker)
        window = threads
        job = f"sleuth-{uuid.uuid4().hex[:8]}"
        waiting = iter(chunks)
        chunk_of: dict[str, Chunk] = {}

        def submitted(chunk: Chunk) -> Any:
            key = f"{job}-{chunk.index}"
            chunk_of[key] = chunk
            return client.submit(guarded, task, chunk, key=key, retries=RETRIES, pure=False)

        first = [submitted(c) for c in itertools.islice(waiting, window)]
        running = as_completed(first, loop=client.loop)  # this client's, not a default one
        done: dict[int, Any] = {}
        following = 0
        for future in running:
            chunk = chunk_of.pop(future.key)
            try:
                result = future.result()
            except KilledWorker:
                raise SleuthError(
                    f"chunk {chunk.index} of the job was given up: workers died running it more "
                    "often than Dask allows (distributed.scheduler.allowed-failures); is a "
                    "worker out of memory?"
                ) from None
            future.release()
            if isinstance(result, Failed):
                raise result.error
            for chunk_after in itertools.islice(waiting, 1):
                running.add(submitted(chunk_after))
            if progress:
                progress(chunk)
            done[chunk.index] = result
            while following in done:
                yield done.pop(following)
                following += 1


def dask_setup(worker: Any) -> None:
    """Run by Dask in each local worker process as it starts (and restarts). Ctrl-C at a
    terminal reaches the whole process group, workers too; only the command should hear it (it
    stops the job and closes the cluster), so a worker ignores it rather than print a
    traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def connected(workers: int | None, scheduler: str | None, chunks: int) -> Iterator[Any]:
    """A Dask client: to the given scheduler, or to a LocalCluster started (and closed) here."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler is None:
        size = min(workers or cores(), chunks)  # more workers than chunks would idle
        with (
            LocalCluster(
                n_workers=size,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: 8787 may be taken
                silence_logs=logging.CRITICAL,  # shutdown races log errors; a failed job says why
                preload=[__name__],  # each worker runs `dask_setup` below as it starts
            ) as cluster,
            Client(cluster, set_as_default=False) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as error:  # TimeoutError is an OSError
        reason = " ".join(str(error).split()) or type(error).__name__
        raise InputError(
            f"cannot reach the Dask scheduler at {scheduler} ({reason[:160]}); is `dask "
            f"scheduler` running there? (--scheduler, or {SCHEDULER_ENV})"
        ) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise InputError(
                f"the Dask scheduler at {scheduler} has no workers: start some with "
                f"`dask worker {scheduler}`"
            ) from None
        yield client
