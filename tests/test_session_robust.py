"""`sleuth play` survives every typed line and every file (issue 16, point 2), through a real
session in every game: typed through a pipe, and through a terminal (a pty, made by `script`).

Each bad line prints one error line and the session goes on; the log stays valid YAML with only
the good events; a file that cannot be resumed is refused before the session starts (exit 2,
one line)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_session import play

ROOT = Path(__file__).resolve().parent.parent
SLEUTH = Path(sys.executable).with_name("sleuth")
COMMAND = [str(SLEUTH)] if SLEUTH.exists() else [sys.executable, "-m", "cli.app"]
ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
DEEP = "play: " + "[" * 300 + "]" * 300

GAMES = {  # a game's players, and one good event typed in its short form
    "three-of-a-crime": ("Ana Ben Cleo", "card HB JC KC 1"),
    "six-suspects": ("Ana Ben", "look A1 diamond"),
    "game-of-suspicion": ("Ana Ben Cleo", "deal 0 1 1 1 shadow 1 3 6 9"),
    "suspeicao": ("Ana Ben Cleo", "deal 9 16 35 38 hand 12 16 18 27 first Ana"),
}
BAD_LINES = [
    'players Ana "Ben',  # an unbalanced quote in `players`
    'look "A1 diamond',  # ... and in a short form
    'card "HB JC KC 1',
    'play "Ben 0',
    "{look: {slot: A1, card: ",  # YAML that does not parse
    DEEP,  # YAML nested 300 deep
    "save MISSING/copy.yaml",  # a folder that does not exist
]


def session(game: str, log: Path, lines: list[str], terminal: bool) -> subprocess.CompletedProcess:
    typed = "".join(f"{line}\n" for line in lines) + "quit\n"
    command = [*COMMAND, "play", game, "--log", str(log)]
    if terminal:  # stdin and stdout a terminal, as a player types
        command = ["script", "-qec", " ".join(map(str, command)), "/dev/null"]
    return subprocess.run(
        command, input=typed, capture_output=True, text=True, timeout=180, cwd=ROOT, env=ENV
    )


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "pty"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_bad_line_is_one_error_and_the_session_goes_on(tmp_path, game, terminal):
    if terminal and shutil.which("script") is None:
        pytest.skip("no `script` command to make a terminal")
    players, good = GAMES[game]
    log = tmp_path / "game.yaml"
    bad = [line.replace("MISSING", str(tmp_path / "missing")) for line in BAD_LINES]
    done = session(game, log, [f"players {players}", "me Ana", *bad, good], terminal)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Traceback" not in output and "internal error" not in output, output
    errors = [line for line in output.splitlines() if "error:" in line]  # after a prompt in a pty
    assert len(errors) >= len(bad) - 2, output  # a line another game reads as unknown is fine
    saved = yaml.safe_load(log.read_text(encoding="utf-8"))
    assert saved["events"] == [yaml.safe_load(yaml.safe_dump(saved["events"][0]))]  # the good one
    assert len(saved["events"]) == 1 and saved["players"] == players.split()


@pytest.mark.parametrize("events", ["events:", "events: 3", "events: {a: 1}"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_file_whose_events_are_not_a_list_is_refused_in_one_line(tmp_path, game, events):
    log = tmp_path / "resume.yaml"
    log.write_text(f"game: {game}\nplayers: [Ana, Ben, Cleo]\nme: Ana\n{events}\n")
    done = play(log, typed="quit\n")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "'events' must be a list" in done.stderr


def test_a_log_in_a_folder_that_does_not_exist_is_refused_in_one_line(tmp_path):
    done = play("six-suspects", "--log", tmp_path / "no" / "x.yaml", typed="quit\n")
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
    assert "cannot save" in done.stderr and "No such file or directory" in done.stderr


@pytest.mark.parametrize("name", ["three", "Three-Of-A-Crime"])
def test_play_resumes_a_log_whose_game_is_named_as_solve_reads_it(tmp_path, name):
    log = tmp_path / "named.yaml"
    log.write_text(f"game: {name}\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents: []\n")
    done = play(log, typed="card HB JC KC 1\nquit\n")
    assert done.returncode == 0 and "error" not in done.stderr, done.stderr
    saved = yaml.safe_load(log.read_text(encoding="utf-8"))
    assert saved["game"] == "three-of-a-crime" and len(saved["events"]) == 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_puzzle_given_to_play_is_refused_and_left_as_it_was(tmp_path, game):
    example = sorted((ROOT / "examples" / game).glob("puzzle-*.yaml"))[0]
    puzzle = tmp_path / example.name
    shutil.copy(example, puzzle)
    before = puzzle.read_bytes()
    done = play(puzzle, typed="look A1 diamond\nquit\n")
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
    assert "is a puzzle, not a log" in done.stderr and "sleuth check" in done.stderr
    assert puzzle.read_bytes() == before


EXAMPLE_LOGS = {
    "three-of-a-crime": "multi-round.yaml",
    "six-suspects": "worked-check.yaml",
    "game-of-suspicion": "round-3p.yaml",
    "suspeicao": "round-3p.yaml",
}


@pytest.mark.parametrize("game", sorted(EXAMPLE_LOGS))
def test_resuming_a_log_keeps_its_comments_layout_and_mode(tmp_path, game):
    """Resumed, a commented example loses its last event to undo, then gets a refused line
    (kept under `rejected:`): each time the file is the original text with only that change
    (every comment and line of it kept), and its mode stays 0644."""
    log = tmp_path / EXAMPLE_LOGS[game]
    shutil.copy(ROOT / "examples" / game / EXAMPLE_LOGS[game], log)
    log.chmod(0o644)
    original = log.read_text(encoding="utf-8")
    done = play(log, typed="undo\nquit\n")
    assert done.returncode == 0, done.stderr
    after_undo = log.read_text(encoding="utf-8")
    lines = after_undo.splitlines()
    assert lines == original.splitlines()[: len(lines)]  # only the last event's lines went
    assert 0 < len(original.splitlines()) - len(lines) <= 6
    assert (log.stat().st_mode & 0o777) == 0o644
    done = play(log, typed="nonsense here\nquit\n")
    grown = log.read_text(encoding="utf-8")
    assert "error:" in done.stderr and grown.startswith(after_undo)  # added at the end only
    assert yaml.safe_load(grown)["rejected"][0]["typed"] == "nonsense here"
    assert (log.stat().st_mode & 0o777) == 0o644


def test_a_new_header_goes_before_the_events_and_comments_stay(tmp_path):
    log = tmp_path / "w.yaml"
    shutil.copy(ROOT / "examples/six-suspects/worked-check.yaml", log)
    original = log.read_text(encoding="utf-8")
    assert play(log, typed="looks 3\nquit\n").returncode == 0
    text = log.read_text(encoding="utf-8")
    told = "looks_left: {looks: 3, after_event: 7}\n"  # told after the log's 7 events
    assert text.replace(told, "") == original
    assert text.index(told) < text.index("events:")


def test_a_large_log_is_written_plainly_and_keeps_its_mode(tmp_path):
    from solver.logfile import KEEP_LAYOUT_UP_TO, save_atomically

    log = tmp_path / "big.yaml"
    events = [{"look": {"by": "Ben", "slot": "C2"}} for _ in range(4000)]
    text = "# a comment\n" + yaml.safe_dump({"game": "six-suspects", "events": events})
    log.write_text(text)
    log.chmod(0o640)
    assert log.stat().st_size > KEEP_LAYOUT_UP_TO
    save_atomically(log, {"game": "six-suspects", "events": events[:-1]})
    assert "# a comment" not in log.read_text() and (log.stat().st_mode & 0o777) == 0o640
    assert len(yaml.safe_load(log.read_text())["events"]) == 3999
