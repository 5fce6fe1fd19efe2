"""The batch engine (solver/batch.py) on a real 2-worker LocalCluster: a seed's `simulate` report
is the same in this process and on the cluster for every game, results come back in chunk order,
a worker killed mid-job loses and duplicates nothing, and Dask is never imported by the commands
that do not run a batch."""

from __future__ import annotations

import json
import operator
import os
import signal
import subprocess
import sys
import time
from functools import partial

import pytest
from typer.testing import CliRunner

from cli.app import app
from models.jobs import play_chunk
from solver import batch
from solver.errors import InputError

pytest.importorskip("distributed")

runner = CliRunner()

# (game, --games, --seed): more than one chunk each, so the cluster runs them; every policy of
# the game is played (no --policy: all of them)
JOBS = [
    ("three-of-a-crime", 20_001, 1),  # 3 chunks of 10,000, 10,000 and 1 rounds
    ("six-suspects", 3, 1),  # 2 chunks of 2 and 1 games, advice and random
    ("game-of-suspicion", 12, 1),  # 2 chunks of 8 and 4 rounds, advice and random
    ("suspeicao", 3, 2),  # 2 chunks of 2 and 1 rounds, advice and random
]


@pytest.fixture(scope="module")
def client(cluster):
    from distributed import Client

    with Client(cluster, set_as_default=False) as connected:
        yield connected


def simulate_json(*args: object, **env: str) -> dict:
    result = runner.invoke(app, ["simulate", *map(str, args), "--json"], env=env or None)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def refuse_in_process(*args: object) -> None:
    raise AssertionError("ran in this process, not on the cluster")


@pytest.fixture
def no_in_process(monkeypatch):
    """Fail a run that would not use the cluster (proves the cluster did the work)."""
    monkeypatch.setattr(batch, "in_process", refuse_in_process)


# --- the chunks ----------------------------------------------------------------------------------


def test_plan_is_fixed_by_units_size_and_seed():
    chunks = batch.plan(25, 10, seed=7)
    assert [(c.index, c.start, c.size) for c in chunks] == [(0, 0, 10), (1, 10, 10), (2, 20, 5)]
    assert chunks == batch.plan(25, 10, seed=7)
    assert len({c.seed for c in chunks}) == 3
    assert batch.plan(25, 10, seed=8)[0].seed != chunks[0].seed
    # chunk i's seed is its own: the same in a longer job, whatever came before
    assert batch.plan(1000, 10, seed=7)[:2] == chunks[:2]
    # pinned: a seed's results must not change with the Python version or the platform
    assert (batch.chunk_seed(1, 0), batch.chunk_seed(1, 1)) == (
        0x1BE00BD1D6DCB46E,
        0x77BD9740A8D3AFC8,
    )


def slow_first(chunk: batch.Chunk) -> tuple[int, int]:
    """A task whose chunk 0 ends last: the other worker does the rest meanwhile."""
    time.sleep(1.0 if chunk.index == 0 else 0.01)
    return chunk.index, chunk.seed


def test_results_come_in_chunk_order_on_the_cluster(cluster, no_in_process):
    chunks = batch.plan(40, 2, seed=3)  # 20 chunks on 2 workers
    seen: list[int] = []
    results = list(
        batch.run(
            slow_first,
            chunks,
            scheduler=cluster.scheduler_address,
            progress=lambda chunk: seen.append(chunk.index),
        )
    )
    assert seen[0] != 0, "the chunks ended in order: nothing was reordered"
    assert results == [(c.index, c.seed) for c in chunks]
    assert sorted(seen) == list(range(20))  # progress heard once per chunk


def test_workers_start_a_local_cluster_of_their_own(monkeypatch):
    monkeypatch.setattr(batch, "in_process", refuse_in_process)
    chunks = batch.plan(10, 1, seed=4)  # more than SMALL_JOB chunks
    results = list(batch.run(operator.attrgetter("index", "seed"), chunks, workers=2))
    assert results == [(c.index, c.seed) for c in chunks]


def test_a_small_job_runs_here_unless_a_scheduler_is_named(monkeypatch):
    def refuse_cluster(*args: object) -> None:
        raise AssertionError("started a cluster for a small job")

    monkeypatch.setattr(batch, "on_cluster", refuse_cluster)
    monkeypatch.delenv(batch.SCHEDULER_ENV, raising=False)
    chunks = batch.plan(batch.SMALL_JOB, 1, seed=4)
    assert list(batch.run(operator.attrgetter("index"), chunks)) == list(range(batch.SMALL_JOB))
    assert list(batch.run(operator.attrgetter("index"), chunks, workers=2)) == list(
        range(batch.SMALL_JOB)
    )
    one = batch.plan(1, 1, seed=4)
    assert list(batch.run(operator.attrgetter("index"), one, scheduler="tcp://127.0.0.1:9")) == [0]


def test_an_error_inside_a_chunk_is_raised_once(cluster):
    task = partial(play_chunk, "six-suspects", "advise")  # no such policy: InputError
    with pytest.raises(InputError, match="unknown policy 'advise'"):
        list(batch.run(task, batch.plan(4, 2, seed=1), scheduler=cluster.scheduler_address))


# --- simulate: the same report wherever it runs -------------------------------------------------


@pytest.mark.parametrize(("game", "games", "seed"), JOBS, ids=[job[0] for job in JOBS])
def test_simulate_is_the_same_in_process_and_on_the_cluster(
    game, games, seed, cluster, monkeypatch
):
    here = simulate_json(game, "--games", games, "--seed", seed, "--workers", 1)
    policies = here.get("policies", {"-": here})
    assert all(p["games"] == games for p in policies.values())
    with monkeypatch.context() as patched:  # this run must use the cluster
        patched.setattr(batch, "in_process", refuse_in_process)
        address = cluster.scheduler_address
        there = simulate_json(game, "--games", games, "--seed", seed, "--scheduler", address)
    assert there == here
    if game == "three-of-a-crime":  # many rounds: another seed gives other counts
        assert simulate_json(game, "--games", games, "--seed", seed + 1, "--workers", 1) != here


def test_the_environment_names_the_scheduler(cluster, no_in_process):
    address = cluster.scheduler_address
    data = simulate_json(
        "three-of-a-crime", "--games", 10_001, "--seed", 5, SLEUTH_SCHEDULER=address
    )
    assert data["games"] == 10_001


def test_workers_one_runs_here_even_with_the_environment_set(cluster):
    env = {"SLEUTH_SCHEDULER": "tcp://127.0.0.1:9"}  # nothing listens there
    data = simulate_json("three-of-a-crime", "--games", 10_001, "--seed", 5, "--workers", 1, **env)
    assert data["games"] == 10_001


# --- faults --------------------------------------------------------------------------------------


def test_a_killed_worker_loses_and_duplicates_nothing(cluster, client):
    """One worker is killed (SIGKILL) while it runs a chunk, after the first chunk is done: the
    scheduler runs its chunks again on the other worker (the nanny restarts the dead one), and
    the report equals a run in this process."""
    from models import GAMES
    from models.jobs import simulate

    game = GAMES["three-of-a-crime"]
    expected = simulate(game, 40_000, seed=11, workers=1).data
    pids = client.run(os.getpid)
    killed: list[tuple[str, list]] = []

    def kill_a_busy_worker(chunk: batch.Chunk) -> None:
        if killed:
            return
        busy = {w: keys for w, keys in client.processing().items() if keys}
        if not busy:
            killed.append(("", []))  # fails below: nothing was running
            return
        worker = sorted(busy)[0]
        os.kill(pids[worker], signal.SIGKILL)
        killed.append((worker, list(busy[worker])))

    report = simulate(
        game, 40_000, seed=11, scheduler=cluster.scheduler_address, progress=kill_a_busy_worker
    )
    assert killed and killed[0][1], "no worker was running a chunk when one was killed"
    assert report.data == expected
    assert sum(int(n) for n in report.data["distribution"].values()) == 40_000
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it


# --- the command line -----------------------------------------------------------------------------


def test_simulate_help_names_the_batch_options():
    result = runner.invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0
    assert "--workers" in result.stdout and "--scheduler" in result.stdout


def test_the_commands_do_not_import_dask():
    """Importing the app, and a simulate small enough to run here, leave Dask unimported."""
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from cli.app import app\n"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules\n"
        "result = CliRunner().invoke(app, ['simulate', 'three-of-a-crime', '--games', '100'])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def one_error_line(result) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_bad_batch_options_are_one_line(monkeypatch):
    args = ["simulate", "three-of-a-crime", "--games", "30000"]
    zero = runner.invoke(app, [*args, "--workers", "0"])
    assert zero.exit_code == 2 and "--workers" in zero.stderr and "Traceback" not in zero.output
    both = runner.invoke(app, [*args, "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert "not both" in one_error_line(both)
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", 1.0)
    nobody = runner.invoke(app, [*args, "--scheduler", "tcp://127.0.0.1:9"])
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in one_error_line(nobody)
    json_error = runner.invoke(app, [*args, "--scheduler", "tcp://127.0.0.1:9", "--json"])
    assert json.loads(json_error.stdout)["exit_code"] == 2
