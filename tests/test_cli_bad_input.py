"""Bad input never shows a traceback: one line naming the event and its line, exit status 2;
a contradictory log exits 1 naming the events that conflict. With --json, stdout is still one
JSON object (DESIGN.md "Exit status")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app

HEADER = (
    "game: three-of-a-crime\nplayers: [Ana, Ben, Cleo]\nevents:\n  - round: {eyewitness: Ben}\n"
)

# name: (log text, fragments of the message, event number, line number)
BAD_LOGS = {
    "malformed YAML": (
        HEADER + "  - card: [HB, JC, KC\n    token: 1\n",
        ["not valid YAML"],
        None,
        6,
    ),
    "unknown suspect": (
        HEADER + "  - card: [HB, JC, Kid Casidy]\n    token: 1\n",
        ["unknown suspect 'Kid Casidy'", "did you mean 'Kid Cassidy'"],
        2,
        5,
    ),
    "repeated suspect": (
        HEADER + "  - card: [HB, JC, Humpty Bumpty]\n    token: 1\n",
        ["Humpty Bumpty", "twice"],
        2,
        5,
    ),
    "token of 3": (
        HEADER + "  - card: [HB, JC, KC]\n    token: 3\n",
        ["token of 3"],
        2,
        5,
    ),
    "card face up twice": (
        HEADER + "  - card: [HB, JC, KC]\n    token: 1\n  - card: [kc, hb, jc]\n    token: 1\n",
        ["already face up", "(event 2)"],
        3,
        7,
    ),
    "unknown event kind": (
        HEADER + "  - card: [HB, JC, KC]\n    token: 1\n  - cards: [HB, JC, LEL]\n    token: 1\n",
        ["unknown event 'cards'", "did you mean 'card'"],
        3,
        7,
    ),
    "token missing": (
        HEADER + "  - card: [HB, JC, KC]\n",
        ["needs its token"],
        2,
        5,
    ),
    "unknown player": (
        HEADER + "  - accuse: {by: Zed, suspects: [HB, JC, KC], correct: false}\n",
        ["unknown player 'Zed'"],
        2,
        5,
    ),
    "markup-like suspect name": (
        HEADER + '  - card: ["[/x]", JC, KC]\n    token: 1\n',
        ["unknown suspect '[/x]'"],
        2,
        5,
    ),
}

CONTRADICTION = (
    HEADER
    + "  - card: [KC, PT, NNN]\n    token: 1\n"
    + "  - card: [HB, JC, LEL]\n    token: 0\n"
    + "  - card: [HB, LSL, PT]\n    token: 1\n"
)

runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def write(tmp_path: Path, text: str, name: str = "log.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_one_line_error(result, exit_code: int, *fragments: str) -> str:
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    message = lines[0]
    assert message.startswith("error: ")
    for fragment in fragments:
        assert fragment in message
    return message


def assert_json_error(result, exit_code: int) -> dict:
    assert result.exit_code == exit_code
    data = json.loads(result.stdout)  # one JSON value, nothing else on stdout
    assert isinstance(data, dict)
    assert data["exit_code"] == exit_code
    assert data["error"] in result.stderr
    return data


@pytest.mark.parametrize("case", list(BAD_LOGS))
@pytest.mark.parametrize("command", ["solve", "suggest", "replay"])
def test_bad_log_is_one_line_naming_event_and_line(tmp_path, case, command):
    text, fragments, event, line = BAD_LOGS[case]
    path = write(tmp_path, text)
    message = assert_one_line_error(invoke(command, path), 2, *fragments)
    if event is not None:
        assert f"event {event}" in message
    assert f"line {line}" in message

    data = assert_json_error(invoke(command, path, "--json"), 2)
    assert data["event"] == event
    assert data["line"] == line
    for fragment in fragments:
        assert fragment in data["error"]


def test_bad_clue_in_a_puzzle_names_the_clue_and_line(tmp_path):
    path = write(
        tmp_path,
        "game: three-of-a-crime\npuzzle:\n  given:\n    - card: [HB, JC, KC]\n      token: 0\n"
        "    - card: [HB, JC, Pencl]\n      token: 0\n  question: secret\n",
    )
    assert_one_line_error(
        invoke("check", path), 2, "event 2", "line 6", "did you mean 'Pencil Top'"
    )
    assert assert_json_error(invoke("check", path, "--json"), 2)["line"] == 6


@pytest.mark.parametrize(
    "body, fragment",
    [
        ("puzzle:\n  question: secret\n", "given: [events...]"),
        ("puzzle:\n  given: []\n  question: culprit\n", "did you mean 'secret'"),
    ],
)
def test_malformed_puzzle(tmp_path, body, fragment):
    path = write(tmp_path, "game: three-of-a-crime\n" + body)
    assert_one_line_error(invoke("check", path), 2, fragment)
    assert_json_error(invoke("check", path, "--json"), 2)


@pytest.mark.parametrize("command", ["solve", "suggest", "replay", "check"])
def test_missing_file(tmp_path, command):
    path = tmp_path / "no-such-log.yaml"
    assert_one_line_error(invoke(command, path), 2, "cannot read", "no-such-log.yaml")
    assert_json_error(invoke(command, path, "--json"), 2)


def test_unreadable_files(tmp_path):
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    assert_one_line_error(invoke("solve", binary), 2, "cannot read", "UTF-8")
    assert_one_line_error(invoke("solve", tmp_path), 2, "cannot read")
    empty = write(tmp_path, "", "empty.yaml")
    assert_one_line_error(invoke("solve", empty), 2, "expected a mapping")
    assert_json_error(invoke("solve", empty, "--json"), 2)


@pytest.mark.parametrize(
    "args",
    [
        ["new", "chess"],
        ["generate", "chess"],
        ["simulate", "chess", "--games", "5"],
        ["play", "chess"],
    ],
)
def test_unknown_game_name(args):
    assert_one_line_error(invoke(*args), 2, "unknown game 'chess'", "three-of-a-crime")


def test_unknown_game_in_a_log(tmp_path):
    path = write(tmp_path, "game: chess\nevents: []\n")
    assert_one_line_error(invoke("solve", path), 2, "unknown game 'chess'")
    assert_json_error(invoke("solve", path, "--json"), 2)
    path = write(tmp_path, "players: [Ana, Ben]\nevents: []\n", "no-game.yaml")
    assert_one_line_error(invoke("solve", path), 2, "game: three-of-a-crime")


def test_negative_upto(tmp_path):
    path = write(tmp_path, HEADER)
    assert_one_line_error(invoke("solve", path, "--upto", -1), 2, "--upto")


@pytest.mark.parametrize("command", ["solve", "suggest", "replay"])
def test_contradictory_log_names_the_conflicting_events(tmp_path, command):
    path = write(tmp_path, CONTRADICTION)
    assert_one_line_error(invoke(command, path), 1, "events 2 and 3")
    data = assert_json_error(invoke(command, path, "--json"), 1)
    assert data["conflicting_events"] == [2, 3]


def test_contradiction_is_reported_at_the_right_prefix(tmp_path):
    path = write(tmp_path, CONTRADICTION)
    result = invoke("solve", path, "--upto", 2, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["consistent"] is True
    assert invoke("solve", path, "--upto", 3).exit_code == 1


def test_contradictory_puzzle_names_clues_0_based(tmp_path):
    path = write(
        tmp_path,
        "game: three-of-a-crime\npuzzle:\n  given:\n"
        "    - card: [LSL, PT, LEL]\n      token: 2\n"
        "    - card: [KC, PT, NNN]\n      token: 1\n"
        "    - card: [HB, JC, LEL]\n      token: 0\n"
        "  question: secret\n",
    )
    assert_one_line_error(invoke("check", path), 1, "clues 1 and 2")
    assert assert_json_error(invoke("check", path, "--json"), 1)["conflicting_events"] == [1, 2]


@pytest.mark.parametrize(
    "case, exit_code",
    [("unknown suspect", 2), ("malformed YAML", 2), ("markup-like suspect name", 2)],
)
def test_the_real_command_prints_no_traceback(tmp_path, case, exit_code):
    """The installed command, not the test runner: what a user sees on the terminal."""
    path = write(tmp_path, BAD_LOGS[case][0])
    sleuth = Path(sys.executable).with_name("sleuth")
    command = [str(sleuth)] if sleuth.exists() else [sys.executable, "-m", "cli.app"]
    done = subprocess.run(
        [*command, "solve", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert done.returncode == exit_code
    assert "Traceback" not in done.stderr + done.stdout
    assert len(done.stderr.strip().splitlines()) == 1
    assert json.loads(done.stdout)["exit_code"] == exit_code
