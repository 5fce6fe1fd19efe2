"""Every example in the help (issue 16, point 6): each command's `--help` example is run as
written and must not be refused (exit 0, or 1 where the example is a contradiction or an
ambiguous puzzle); each game's session help example after "e.g." must read as an event."""

from __future__ import annotations

import re
import shlex

import pytest
from typer.testing import CliRunner

from cli.app import app
from models import GAMES

RUNNER = CliRunner()
SLOW = {  # examples that would run a server, ask for typing, or take minutes: only parsed
    "serve": "starts a web server",
    "play": "a session (tests/test_session*.py run it)",
    "tablebase": "rebuilds the tablebase (most of an hour)",
}


def commands() -> list[str]:
    """Every command, those of a group (`batch solve`) too."""
    found = [c.name or c.callback.__name__ for c in app.registered_commands if c.callback]
    for group in app.registered_groups:
        assert group.typer_instance is not None
        found += [
            f"{group.name} {c.name or c.callback.__name__}"
            for c in group.typer_instance.registered_commands
            if c.callback
        ]
    return sorted(found)


def examples(command: str) -> list[str]:
    shown = RUNNER.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "300"}).stdout
    found = re.findall(r"(?:Example:|\bor) (sleuth [^\n]*?)\s*(?:│|$)", shown, flags=re.M)
    return [line.strip() for line in found]


@pytest.mark.parametrize("command", commands())
def test_every_command_help_has_an_example_that_runs(command, tmp_path, monkeypatch):
    found = examples(command)
    assert found, f"sleuth {command} --help shows no example"
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parent.parent)
    for example in found:
        words = shlex.split(example.split(">")[0])[1:]  # a shell redirection is not an argument
        assert words[: len(command.split())] == command.split(), example
        if command in SLOW:
            assert RUNNER.invoke(app, [*words, "--help"]).exit_code == 0, example
            continue
        if "--games" in words:  # the example's size is the user's: a few games show it runs
            words[words.index("--games") + 1] = "4"
        if "--count" in words:
            words[words.index("--count") + 1] = "1"
        if "-o" in words:  # written here, not beside the examples
            words[words.index("-o") + 1] = str(tmp_path / "out.jsonl")
        result = RUNNER.invoke(app, words)
        assert result.exit_code in (0, 1), (example, result.stdout, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr


def session_examples(help_text: str) -> list[str]:
    """The examples in a session's help: after "e.g." (up to a parenthesis or the line's end),
    and the indented lines of examples (`  play Ben 0 Cleo Dan    card 0 ...`: each column that
    starts with an event's name)."""
    found = re.findall(r"e\.g\. +([^()\n]+?) *(?:\)|$)", help_text, re.M)
    for line in help_text.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            found += [c for c in re.split(r" {3,}", line.strip()) if c.startswith("play ")]
    return [example.strip() for example in found]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_session_help_example_reads_as_an_event(game):
    found = session_examples(GAMES[game].session_help)
    assert found, game
    for example in found:
        if example.split()[0] == "looks":  # a session command, not an event
            continue
        event = GAMES[game].parse_line(example)
        assert isinstance(event, dict) and event, (example, event)


def test_card_0_and_card_1_short_forms_take_my_outcome_as_the_help_says():
    """The Game of Suspicion help: `play Ben 0 Cleo Dan` (me among them: + gave V got V) and
    `play Ben 1 9 Cleo` (I act: + gave V; I hold it: + got V). The longer forms were refused."""
    parse = GAMES["game-of-suspicion"].parse_line
    assert parse("play Ben 0 Cleo Ana gave 5 got 3") == {
        "play": {"by": "Ben", "card": 0, "between": ["Cleo", "Ana"], "gave": 5, "got": 3}
    }
    assert parse("play Ana 1 9 Cleo gave 5") == {
        "play": {"by": "Ana", "card": 1, "named": 9, "holder": "Cleo", "gave": 5}
    }
    assert parse("play Ben 0 Cleo Dan") == {
        "play": {"by": "Ben", "card": 0, "between": ["Cleo", "Dan"]}
    }
