"""`sleuth batch solve|check` and `sleuth generate` on the batch engine, on a real 2-worker
LocalCluster: every file's line is what the one-file command prints, with its exit status; a
bad file never stops the batch; Ctrl-C leaves whole lines and `--resume` finishes the job; a
seed's puzzles are the same on 1 worker and on the cluster."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_batch import refuse_in_process
from typer.testing import CliRunner

from cli.app import app
from models import GAMES, jobs
from solver import batch
from solver.errors import InputError

pytest.importorskip("distributed")

ROOT = Path(__file__).parent.parent
runner = CliRunner()

CONTRADICTORY = """\
game: three-of-a-crime
players: [Ana, Ben]
me: Ana
events:
  - card: [HB, JC, KC]
    token: 0
  - card: [HB, JC, LEL]
    token: 2
"""


SLOW = {"round-6p.yaml", "puzzle-medium.yaml", "puzzle-hard.yaml"}  # seconds each: left out


@pytest.fixture
def mixed(tmp_path) -> Path:
    """A folder of logs of every game, good, contradictory and broken, and a file that is not
    a log at all."""
    folder = tmp_path / "logs"
    for game in GAMES:
        (folder / game).mkdir(parents=True)
        for example in sorted((ROOT / "examples" / game).glob("*.yaml")):
            if "puzzle" not in example.name and example.name not in SLOW:
                shutil.copy(example, folder / game / example.name)
    (folder / "contradictory.yaml").write_text(CONTRADICTORY)
    (folder / "broken.yaml").write_text("game: three-of-a-crime\nplayers: [Ana\n")
    (folder / "unknown-game.yaml").write_text("game: chess\nplayers: [Ana, Ben]\nevents: []\n")
    (folder / "bad-event.yaml").write_text(CONTRADICTORY.replace("token: 2", "token: seven"))
    (folder / "not-utf8.yml").write_bytes(b"game: \xff\xfe\n")
    (folder / "notes.txt").write_text("not a log: a folder gives only its YAML files")
    return folder


def one_file(command: str, path: str) -> tuple[int, dict]:
    """What `sleuth COMMAND PATH --json` prints, and its exit status."""
    result = runner.invoke(app, [command, path, "--json"])
    return result.exit_code, json.loads(result.stdout)


def lines_of(text: str) -> list[dict]:
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


# --- which files --------------------------------------------------------------------------------


def test_paths_are_files_folders_and_patterns(mixed, tmp_path):
    named = jobs.files_named([str(mixed / "broken.yaml"), str(mixed), str(mixed / "*" / "*.yaml")])
    assert named[0] == str(mixed / "broken.yaml")
    assert len(named) == len(set(named))  # each once, though named three times
    assert str(mixed / "notes.txt") not in named
    assert str(mixed / "not-utf8.yml") in named
    assert str(mixed / "suspeicao" / "round-4p.yaml") in named
    assert jobs.files_named([str(tmp_path / "missing.yaml")]) == [str(tmp_path / "missing.yaml")]
    with pytest.raises(InputError, match="no file matches"):
        jobs.files_named([str(tmp_path / "*.nothing")])


# --- every line is the one-file command's answer -------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "check"])
def test_each_line_is_what_the_one_file_command_prints(command, mixed, tmp_path, cluster):
    """On the cluster, over good, contradictory, broken and missing files: each line's output
    and exit status are those of `sleuth COMMAND FILE --json`, in the order given."""
    missing = str(tmp_path / "missing.yaml")
    if command == "check":
        puzzles = tmp_path / "puzzles"
        puzzles.mkdir()
        for game in GAMES:
            for example in (ROOT / "examples" / game).glob("puzzle-*.yaml"):
                if example.name not in SLOW or game == "six-suspects":
                    shutil.copy(example, puzzles / f"{game}-{example.name}")
        shutil.copy(mixed / "broken.yaml", puzzles / "broken.yaml")
        shutil.copy(ROOT / "examples" / "six-suspects" / "worked-check.yaml", puzzles / "log.yaml")
        source = puzzles
    else:
        source = mixed
    out = tmp_path / "out.jsonl"
    address = cluster.scheduler_address
    result = runner.invoke(
        app, ["batch", command, str(source), missing, "-o", str(out), "--scheduler", address]
    )
    assert result.exit_code == 0, (result.stdout, result.stderr)
    lines = lines_of(out.read_text())
    assert [line["path"] for line in lines] == jobs.files_named([str(source), missing])
    statuses = set()
    for line in lines:
        status, printed = one_file(command, line["path"])
        assert (line["exit_code"], line["output"]) == (status, printed), line["path"]
        statuses.add(status)
    assert statuses == {0, 1, 2}  # answered; contradictory or not unique; bad input
    summary = "".join(result.stdout.split())
    assert f"{len(lines)}file(s)" in summary


def test_lines_go_to_stdout_and_the_summary_to_stderr(mixed):
    result = runner.invoke(
        app, ["batch", "solve", str(mixed / "three-of-a-crime"), "--workers", "1"]
    )
    assert result.exit_code == 0, result.stderr
    lines = lines_of(result.stdout)
    assert len(lines) == len(list((mixed / "three-of-a-crime").glob("*.yaml")))
    assert all(line["exit_code"] == 0 for line in lines)
    assert f"{len(lines)} file(s) answered; {len(lines)} answered (exit 0)" in result.stderr


def test_the_same_lines_in_process_and_on_the_cluster(mixed, cluster, monkeypatch):
    files = jobs.files_named([str(mixed)])
    here = list(jobs.answer_all("solve", files, workers=1))
    with monkeypatch.context() as patched:
        patched.setattr(batch, "in_process", refuse_in_process)
        there = list(jobs.answer_all("solve", files, scheduler=cluster.scheduler_address))
    assert there == here


def test_bad_batch_arguments_are_one_line(tmp_path):
    no_output = runner.invoke(app, ["batch", "solve", str(tmp_path), "--resume"])
    assert no_output.exit_code == 2 and "--output" in no_output.stderr
    empty = runner.invoke(app, ["batch", "solve", str(tmp_path)])
    assert empty.exit_code == 2 and "no files" in empty.stderr
    nothing = runner.invoke(app, ["batch", "check", str(tmp_path / "*.yaml")])
    assert nothing.exit_code == 2 and "no file matches" in nothing.stderr
    as_json = runner.invoke(app, ["batch", "check", str(tmp_path / "*.yaml"), "--json"])
    assert json.loads(as_json.stdout)["exit_code"] == 2  # stdout: one JSON object
    (tmp_path / "a.yaml").write_text(CONTRADICTORY)
    (tmp_path / "foreign.jsonl").write_text("a line of something else\n")
    foreign = runner.invoke(
        app, ["batch", "solve", str(tmp_path), "-o", str(tmp_path / "foreign.jsonl"), "--resume"]
    )
    assert foreign.exit_code == 2 and "line 1 is not a line of sleuth batch" in foreign.stderr
    (tmp_path / "done.jsonl").write_text("")
    again = runner.invoke(
        app, ["batch", "solve", str(tmp_path), "-o", str(tmp_path / "done.jsonl")]
    )
    assert again.exit_code == 2 and "exists: --resume goes on from it" in again.stderr
    for result in (no_output, empty, nothing, foreign, again):
        assert "Traceback" not in result.output


# --- interrupted, then resumed -------------------------------------------------------------------


def test_resume_skips_the_files_done_and_drops_a_line_cut_short(mixed, tmp_path):
    files = jobs.files_named([str(mixed)])
    out = tmp_path / "out.jsonl"
    full = list(jobs.answer_all("solve", files, workers=1))
    kept = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in full[:3])
    out.write_text(kept + json.dumps(full[3])[:25])  # a crash in the middle of the fourth line
    result = runner.invoke(
        app, ["batch", "solve", str(mixed), "-o", str(out), "--resume", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["skipped"] == 3 and sum(summary["exit_codes"].values()) == len(files) - 3
    assert lines_of(out.read_text()) == full


def test_ctrl_c_leaves_whole_lines_and_resume_finishes(tmp_path):
    """A real `sleuth batch solve` of 200 logs on 2 local workers, sent SIGINT (as Ctrl-C sends
    it, to the whole process group) once a line is written: exit 130, one line saying so and no
    worker's traceback, every line whole. Most logs not yet answered are then deleted (to keep
    this test short) and `--resume` answers the rest: each log of the folder exactly once."""
    folder = tmp_path / "many"
    folder.mkdir()
    example = ROOT / "examples" / "suspeicao" / "round-3p.yaml"  # about 0.3 s each
    for i in range(200):
        shutil.copy(example, folder / f"log-{i:03}.yaml")
    out = tmp_path / "out.jsonl"
    args = [sys.executable, "-m", "cli.app", "batch", "solve", str(folder), "-o", str(out)]
    started = subprocess.Popen(
        [*args, "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size == 0):
        time.sleep(0.05)
    os.killpg(started.pid, signal.SIGINT)
    _, stderr = started.communicate(timeout=120)
    assert started.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr and b"interrupted" in stderr
    written = lines_of(out.read_text())
    assert 0 < len(written) < 200
    done = {line["path"] for line in written}
    for path in sorted(str(p) for p in folder.glob("*.yaml") if str(p) not in done)[3:]:
        os.remove(path)
    resumed = subprocess.run([*args, "--resume", "--workers", "1"], cwd=ROOT, capture_output=True)
    assert resumed.returncode == 0, resumed.stderr.decode()
    paths = [line["path"] for line in lines_of(out.read_text())]
    assert paths[: len(written)] == [line["path"] for line in written]
    assert sorted(paths) == sorted(str(p) for p in folder.glob("*.yaml"))
    assert len(paths) == len(set(paths)) == len(written) + 3


# --- generate -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_generate_gives_the_same_puzzles_on_the_cluster(game, cluster, monkeypatch):
    """Two chunks (of one puzzle each, but for Three of a Crime's cheap puzzles) on the cluster
    and in this process: the same puzzles, graded; chunk 0 is the same in a shorter job."""
    chosen = GAMES[game]
    if game != "three-of-a-crime":
        monkeypatch.setattr(type(chosen), "puzzles_per_chunk", 1)
    count = chosen.puzzles_per_chunk + 1  # two chunks
    address = cluster.scheduler_address
    with monkeypatch.context() as patched:
        patched.setattr(batch, "in_process", refuse_in_process)
        there = jobs.generate(chosen, count, seed=3, scheduler=address)
    here = jobs.generate(chosen, count, seed=3, workers=1)
    assert there == here and len(here) == count
    assert all("path" in puzzle["puzzle"] for puzzle in here)
    assert jobs.generate(chosen, 1, seed=3, workers=1) == here[:1]  # chunk 0 is chunk 0
