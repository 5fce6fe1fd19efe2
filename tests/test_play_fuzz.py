"""Fuzzing `sleuth play` (issue 16): random sessions of typed lines through the session's own
line handler, in process, for every game. The lines are good events (each game's help examples
and a short real game), their mutations (words dropped, doubled, swapped or replaced by odd
tokens), the session's commands (undo, show, players, me, looks, save, help) and junk.

Whatever is typed:
- no exception but Sleuth's own user errors reaches the handler (anything else would be a
  traceback at the table), and the session goes on;
- nothing typed is lost: a line that is not a command is either the log's new last event or
  the log's new last `rejected` entry, word for word;
- after every line the file on disk is exactly the session's log, and it can be resumed.

And any file given to `sleuth play FILE` to resume (every bundled example, mutated as
tests/test_fuzz.py mutates them), with a few lines typed: refused before the session starts
(exit 2, one error line, the file untouched), or played (exit 0, the file still a YAML log).

`make test` plays a few sessions per game; `make test-long` hundreds.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import yaml
from fuzzing import Case, example_mutant
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_help_examples import session_examples
from typer.testing import CliRunner

from cli.app import app
from cli.session import Session
from models import GAMES
from solver.logbook import LogBook

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"

PLAYERS = {  # each game's table, and a few events of a real game typed in the short form
    "three-of-a-crime": ("Ana Ben Cleo", ["card KC PT NNN 1", "card HB JC KC 0"]),
    "six-suspects": ("Ana Ben Cleo", ["look A1 diamond", "look Ben C2", "look B2 swap"]),
    "game-of-suspicion": ("Ana Ben Cleo Dan", ["deal 0 1 5 7", "look Ben left exchanged"]),
    "suspeicao": (
        "Ana Ben Cleo",
        ["deal 7 21 33 41 hand 2 15 40 X1 first Ben", "play Ben 9 target Cleo revealed 13"],
    ),
}
COMMANDS = ("undo", "show", "help", "players", "me", "looks", "save", "why")
LEAVE = ("quit", "exit", "q")  # the session ends here; the log stays as it was
ODD = [
    "",
    "0",
    "-1",
    "99",
    "10" * 20,
    "Zed",
    "ana",
    "é",
    '"',
    "'",
    ":",
    "{",
    "[",
    "#",
    "-",
    "…",
    "²",
]


def good_lines(game: str) -> list[str]:
    return PLAYERS[game][1] + [
        line for line in session_examples(GAMES[game].session_help) if line.split()[0] != "looks"
    ]


@st.composite
def typed(draw, game: str) -> str:
    """One line a player might type."""
    kind = draw(st.sampled_from(["good", "good", "mutant", "mutant", "command", "junk"]))
    if kind == "junk":
        return draw(st.text(min_size=1, max_size=30).filter(lambda t: "\n" not in t))
    if kind == "command":
        names = draw(
            st.lists(st.sampled_from(["Ana", "Ben", "Cleo", "Dan", "Zed", '"']), max_size=5)
        )
        return draw(
            st.sampled_from(
                [
                    "undo",
                    "show",
                    "help",
                    f"players {' '.join(names)}",
                    f"me {draw(st.sampled_from(['Ana', 'Ben', 'Zed', '']))}",
                    f"looks {draw(st.sampled_from(['0', '2', '5', 'x', '']))}",
                    "save {tmp}/copy.yaml",
                    "save {tmp}/missing/copy.yaml",
                ]
            )
        )
    words = draw(st.sampled_from(good_lines(game))).split()
    if kind == "mutant":
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(words) - 1))
            how = draw(st.sampled_from(["drop", "double", "swap", "odd"]))
            if how == "drop" and len(words) > 1:
                del words[at]
            elif how == "double":
                words.insert(at, words[at])
            elif how == "swap":
                other = draw(st.integers(0, len(words) - 1))
                words[at], words[other] = words[other], words[at]
            else:
                words[at] = draw(st.sampled_from(ODD))
    return " ".join(words)


def on_disk(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def play_session(game: str, lines: list[str], folder: Path) -> None:
    path = folder / "game.yaml"
    if path.exists():
        path.unlink()
    session = Session(LogBook.create(GAMES[game], path))
    players = PLAYERS[game][0]
    for line in [f"players {players}", "me Ana", *lines]:
        line = line.replace("{tmp}", str(folder)).strip()
        if not line or line.startswith("#"):
            continue  # the loop skips these before the handler
        events = list(session.events)
        rejected = list(session.data.get("rejected", []))
        command = line.split()[0].lower()
        if command in LEAVE:
            assert session.handle(line) is False, line
            assert on_disk(path) == session.data, line
            break
        assert session.handle(line) is True, line
        if command not in COMMANDS:  # an event: kept, or kept as rejected
            added = session.events[len(events) :]
            refused = session.data.get("rejected", [])[len(rejected) :]
            assert (len(added), len(refused)) in ((1, 0), (0, 1)), line
            assert session.events[: len(events)] == events
            if refused:
                assert refused[0]["typed"] == line
            else:
                assert added[0] == GAMES[game].parse_line(line)
        assert on_disk(path) == session.data, line
    resumed = LogBook.read(path, GAMES)
    assert resumed.data == session.data


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_sessions_never_break_and_lose_nothing(game, tmp_path_factory):
    folder = tmp_path_factory.mktemp("play")

    @settings(
        max_examples=300 if LONG else 6,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.lists(typed(game), min_size=1, max_size=8))
    @example(["show", "Q", "undo"])  # a leave word ends the session mid-list
    @example(["0\x850", "x\u2028y"])  # YAML line breaks in a typed line, kept as typed
    def sessions(lines: list[str]) -> None:
        play_session(game, lines, folder)

    sessions()


@settings(
    max_examples=1000 if LONG else 30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(example_mutant(), st.data())
def test_any_file_resumed_is_refused_in_one_line_or_played(case: Case, data) -> None:
    lines = data.draw(st.lists(typed(case.game), max_size=3), label="typed")
    with tempfile.TemporaryDirectory() as folder:
        case.write(Path(folder))
        (name,) = case.files
        path = Path(folder) / name
        before = path.read_bytes()
        typed_in = "".join(f"{line.replace('{tmp}', folder)}\n" for line in ["show", *lines])
        result = CliRunner().invoke(app, ["play", str(path)], input=typed_in + "quit\n")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception  # re-raised where it happened
        assert result.exit_code in (0, 2), (result.exit_code, result.output)
        assert "Traceback" not in result.output
        if result.exit_code == 2:
            errors = result.stderr.strip().splitlines()
            assert len(errors) == 1 and errors[0].startswith("error: "), result.stderr
            assert path.read_bytes() == before, "a file refused was changed"
        else:
            log = on_disk(path)
            assert isinstance(log, dict) and isinstance(log.get("events", []), list)
