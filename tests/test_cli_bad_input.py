"""Bad input never shows a traceback: one line naming the event and its line, exit status 2;
a contradictory log exits 1 naming the events that conflict. With --json, stdout is still one
JSON object (DESIGN.md "Exit status")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app
from solver.logfile import FAST_FROM

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
    # fields a reader would have ignored (issue 16 §3/§5): refused, naming the field
    "a round that is a list": (HEADER + "  - round: []\n", ["round takes", "not []"], 2, 5),
    "a misspelt field of round": (
        HEADER + "  - round: {eyewitnes: Ben}\n",
        ["round has no field 'eyewitnes'", "did you mean 'eyewitness'"],
        2,
        5,
    ),
    "a misspelt field of won": (
        HEADER + "  - won: {by: Ben, crd: [HB, JC, KC]}\n",
        ["won has no field 'crd'", "did you mean 'card'"],
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


# --- issue 10 §5: input that must never break Sleuth ------------------------------------------

HEADERS = {  # a valid start of a log for each game; the tests below append one bad event
    "three-of-a-crime": "game: three-of-a-crime\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents:\n",
    "six-suspects": "game: six-suspects\nplayers: [Ana, Ben]\nme: Ana\nevents:\n",
    "game-of-suspicion": "game: game-of-suspicion\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents:\n",
    "suspeicao": "game: suspeicao\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents:\n",
}
FIRST_EVENT = {
    "three-of-a-crime": "round",
    "six-suspects": "look",
    "game-of-suspicion": "deal",
    "suspeicao": "deal",
}
DECKS = {
    "six-suspects": "examples/six-suspects/puzzle-medium.yaml",
    "game-of-suspicion": "examples/game-of-suspicion/puzzle-medium.yaml",
    "suspeicao": "examples/suspeicao/puzzle-easy.yaml",
}
ROOT = Path(__file__).resolve().parent.parent


def deep(depth: int, shape: str = "list") -> str:
    return "[" * depth + "]" * depth if shape == "list" else "{a: " * depth + "1" + "}" * depth


@pytest.mark.parametrize("shape", ["list", "map"])
@pytest.mark.parametrize("game", list(HEADERS))
@pytest.mark.parametrize("long", [False, True], ids=["short", "long"])
def test_deeply_nested_log(tmp_path, game, shape, long):
    """Hundreds of nested lists or maps raised RecursionError in the YAML parser (in a long
    file, read by libyaml, the depth is checked on its events first)."""
    pad = "# " + "x" * FAST_FROM + "\n" if long else ""
    text = HEADERS[game] + f"  - {FIRST_EVENT[game]}: {deep(500, shape)}\n" + pad
    path = write(tmp_path, text)
    for command in ("solve", "replay"):
        assert_one_line_error(invoke(command, path), 2, "line 5", "nested more than")
        assert assert_json_error(invoke(command, path, "--json"), 2)["line"] == 5


def test_nesting_a_few_levels_is_still_read(tmp_path):
    """The limit is far above what a log needs: a bad value nested 60 levels is reported as a bad
    value, by the game's reader."""
    text = HEADERS["three-of-a-crime"] + f"  - round: {deep(60)}\n"
    assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, "event 1", "round takes")


@pytest.mark.parametrize(
    "content, fragments",
    [
        (b"\xff\xfe\x00garbage\x80", ["cannot read deck", "not UTF-8"]),
        (("cards: " + deep(800)).encode(), ["deck", "line 1", "nested more than"]),
        (("cards: " + deep(800, "map")).encode(), ["deck", "line 1", "nested more than"]),
        (b"cards:\n  - {number: 1\nhand_size: 3\n", ["deck", "not valid YAML at line 3"]),
        (b"cards: [1]\n---\ncards: [2]\n", ["deck", "single document"]),
        (b"hand_size: 0x_\n", ["deck", "line 1", "cannot read '0x_' as int"]),
    ],
    ids=["binary", "deep lists", "deep maps", "syntax", "two documents", "bad number"],
)
@pytest.mark.parametrize("game", list(DECKS))
def test_broken_deck_file(tmp_path, game, content, fragments):
    """Binary garbage raised UnicodeDecodeError and deep nesting RecursionError, from
    read_deck_file, in every game with a deck; a YAML error in a deck printed three lines."""
    deck = tmp_path / "deck.yaml"
    deck.write_bytes(content)
    log = ROOT / DECKS[game]
    for command in ("solve", "check"):
        message = assert_one_line_error(invoke(command, log, "--deck", deck), 2, *fragments)
        assert str(deck) in message
        assert_json_error(invoke(command, log, "--deck", deck, "--json"), 2)


@pytest.mark.parametrize(
    "value, fragment",
    [
        ("2026-13-45", "round takes"),  # ValueError (month must be in 1..12); now text
        ("1" * 5000, "cannot read '11111111111111111111…' as int"),  # ValueError: int digits
        ("!!int x", "cannot read 'x' as int"),
        ("!!float x", "cannot read 'x' as float"),
        ("!!bool x", "cannot read 'x' as bool"),
        ("!!timestamp 2020", "round takes"),  # AttributeError in PyYAML; now read as text
        ("!!binary AAAA", "binary values are not accepted"),
        ("!!set {a}", "set values are not accepted"),
        ("&x [*x]", "aliases (*x) are not accepted"),  # a list holding itself
        ("{eyewitness: Ben, eyewitness: Cleo}", "'eyewitness' is given twice"),
        ("\x00", "U+0000 is not allowed"),
    ],
)
@pytest.mark.parametrize("long", [False, True], ids=["short", "long"])
def test_yaml_values_that_cannot_be_read(tmp_path, value, fragment, long):
    """Scalars PyYAML's loader crashes on, and YAML features a log has no use for, are one error
    with the line; the same in a long file (read by libyaml, `FAST_FROM`)."""
    pad = "# " + "x" * FAST_FROM + "\n" if long else ""
    path = write(tmp_path, HEADERS["three-of-a-crime"] + f"  - round: {value}\n" + pad)
    message = assert_one_line_error(invoke("solve", path), 2, fragment)
    assert "line 5" in message
    assert assert_json_error(invoke("solve", path, "--json"), 2)["line"] == 5


def test_a_date_is_read_as_text(tmp_path):
    """A date is a name like any other: 'unknown player' with the text the user wrote."""
    path = write(tmp_path, HEADERS["three-of-a-crime"] + "  - round: {eyewitness: 2026-12-01}\n")
    assert_one_line_error(invoke("solve", path), 2, "event 1", "unknown player '2026-12-01'")


def test_a_puzzle_that_is_not_a_mapping(tmp_path):
    """`puzzle: [..]` raised AttributeError: 'list' object has no attribute 'get'."""
    path = write(tmp_path, "game: six-suspects\npuzzle: [visible, question]\n")
    assert_one_line_error(invoke("solve", path), 2, "'puzzle' is a mapping")
    for command in ("check", "solve", "replay"):
        assert_json_error(invoke(command, path, "--json"), 2)


USAGE_ERRORS = [
    ["solve"],  # missing argument
    ["solve", "x.yaml", "--upto", "many"],  # bad option value
    ["solve", "x.yaml", "--nope"],  # unknown option
    ["suggest", "x.yaml", "--horizon", "-1"],  # out of range
    ["suggest"],
    ["replay", "x.yaml", "--deck"],  # option without its value
    ["check"],
    ["check", "x.yaml", "y.yaml"],  # extra argument
    ["generate", "three-of-a-crime", "--count", "0"],
    ["generate", "three-of-a-crime", "--difficulty", "9"],
    ["generate"],
    ["simulate", "six-suspects", "--games", "lots"],
    ["simulate"],
    ["games", "--nope"],
    ["new"],
    ["new", "three-of-a-crime", "extra"],
    ["play"],
    ["play", "three-of-a-crime", "--log"],
    ["no-such-command"],
    [],  # --json alone: not an option of `sleuth` itself
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=" ".join)
def test_usage_error_with_json_is_one_json_object(args):
    """Click's usage errors printed nothing on stdout with --json; now one JSON object, exit 2."""
    result = invoke(*args[:1], "--json", *args[1:])  # first: an option could take it as its value
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert data["exit_code"] == 2
    assert data["error"]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", USAGE_ERRORS[:-1], ids=" ".join)
def test_usage_error_without_json_is_as_click_prints_it(args):
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Error" in result.stderr


def test_last_resort_is_one_line(monkeypatch, capsys):
    """A bug (an exception no reader turned into a clear message) is still not a traceback for
    the installed command: one line, its own exit status 3 (not 1, an answer, nor 2, bad
    input), and JSON with --json; --debug or SLEUTH_DEBUG=1 raise it instead."""
    from cli import app as cli_app
    from models import GAMES

    def broken(*args, **kwargs):
        raise ValueError("an unexpected\nvalue")

    monkeypatch.setattr(GAMES["three-of-a-crime"], "solve", broken)
    monkeypatch.delenv("SLEUTH_DEBUG", raising=False)
    log = str(ROOT / "examples/three-of-a-crime/two-player.yaml")
    monkeypatch.setattr(sys, "argv", ["sleuth", "solve", log, "--json"])
    with pytest.raises(SystemExit) as exit_:
        cli_app.main()
    assert exit_.value.code == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["exit_code"] == 3
    assert err.strip().count("\n") == 0
    assert "internal error: ValueError: an unexpected value" in err and "--debug" in err
    monkeypatch.setattr(sys, "argv", ["sleuth", "solve", log, "--debug"])
    with pytest.raises(ValueError):
        cli_app.main()
    monkeypatch.setattr(sys, "argv", ["sleuth", "solve", log])
    monkeypatch.setenv("SLEUTH_DEBUG", "1")
    with pytest.raises(ValueError):
        cli_app.main()


def changed_example(tmp_path: Path, example: str, place: tuple, value: object) -> Path:
    """A bundled example with the value at `place` (keys and indexes) replaced."""
    import yaml

    data = yaml.safe_load((ROOT / "examples" / example).read_text(encoding="utf-8"))
    parent = data
    for step in place[:-1]:
        parent = parent[step]
    parent[place[-1]] = value
    return write(tmp_path, yaml.safe_dump(data, sort_keys=False), Path(example).name)


# (example, place, value, fragments): each raised a Python exception before (the fuzzer's finds)
UNEXPECTED_TYPES = {
    "date for a list of players": (
        "game-of-suspicion/puzzle-hard.yaml",
        ("puzzle", "given", 6, "play", "showed"),
        "2026-12-01",
        ["event 7", "line ", "unknown player '2026-12-01'"],
    ),
    "float for a list of players": (
        "game-of-suspicion/puzzle-hard.yaml",
        ("puzzle", "given", 6, "play", "showed"),
        1.5,
        ["event 7", "line ", "'showed': the players who showed", "got 1.5"],
    ),
    "float for a list of suspects": (
        "three-of-a-crime/puzzle-deep.yaml",
        ("puzzle", "answer"),
        1.5,
        ["the puzzle's 'answer'", "a card is a list of 3 suspects"],
    ),
    "date for a list of suspects": (
        "three-of-a-crime/puzzle-deep.yaml",
        ("puzzle", "answer"),
        "2026-12-01",
        ["the puzzle's 'answer'", "unknown suspect '2026-12-01'"],
    ),
    "empty list of suspects": (
        "three-of-a-crime/puzzle-deep.yaml",
        ("puzzle", "answer"),
        [],
        ["the puzzle's 'answer'", "exactly 3 suspects, got 0"],
    ),
    "infinite card value": (
        "game-of-suspicion/puzzle-hard.yaml",
        ("puzzle", "answer"),
        float("inf"),
        ["a hand answer: a list of card values", "got inf"],
    ),
    "a count of 10**30 shown cards": (
        "game-of-suspicion/round-3p.yaml",
        ("events", 6, "play", "shown", "Cleo"),
        10**30,
        ["event 7", "line ", "Cleo's shown cards: a count (0 to the 3 cards they hold)"],
    ),
    "the text 'false' for correct": (
        "game-of-suspicion/round-3p.yaml",
        ("events", 4, "guess", "correct"),
        "false",
        ["event 5", "line ", "'correct': true or false", "got 'false'"],
    ),
    "not-a-number for a round number": (
        "suspeicao/round-3p.yaml",
        ("events", 0, "deal", "round"),
        float("nan"),
        ["event 1", "line ", "'round': a whole number", "got nan"],
    ),
}


@pytest.mark.parametrize("case", list(UNEXPECTED_TYPES))
def test_value_of_an_unexpected_type(tmp_path, case):
    """A value of the wrong type (a date where a map or list is expected, a float where a list of
    suspects is) is one error naming the event and line and saying what was expected."""
    example, place, value, fragments = UNEXPECTED_TYPES[case]
    path = changed_example(tmp_path, example, place, value)
    command = "check" if place[0] == "puzzle" else "solve"
    assert_one_line_error(invoke(command, path), 2, *fragments)
    assert_json_error(invoke(command, path, "--json"), 2)


# (game, text in the bundled deck, its replacement, fragment): each raised OverflowError, or
# (copies: 1.5) was silently read as 1
DECK_VALUES = {
    "a card value of 10**30": (
        "six-suspects",
        "value: 5}",
        f"value: {10**30}}}",
        "values lie between -1000 and 1000",
    ),
    "infinitely many copies": ("game-of-suspicion", "  0: 5", "  0: .inf", "got inf"),
    "one and a half copies": ("game-of-suspicion", "  0: 5", "  0: 1.5", "got 1.5"),
}


@pytest.mark.parametrize("case", list(DECK_VALUES))
def test_deck_value_out_of_range(tmp_path, case):
    game, old, new, fragment = DECK_VALUES[case]
    folder = game.replace("-", "_")
    text = (ROOT / "models" / folder / "deck.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    deck = write(tmp_path, text.replace(old, new), "deck.yaml")
    log = ROOT / DECKS[game]
    for command in ("solve", "check"):
        assert_one_line_error(invoke(command, log, "--deck", deck), 2, f"deck {deck}", fragment)
        assert_json_error(invoke(command, log, "--deck", deck, "--json"), 2)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("game: [three-of-a-crime]\nevents: []\n", "not a log of a known game"),  # TypeError
        ("game: three-of-a-crime\nevents: 5\n", "'events' must be a list"),  # TypeError
        ("game: three-of-a-crime\nevents: []\nrejected: {a: 1}\n", "'rejected' must be a list"),
    ],
)
def test_play_resumes_only_a_readable_log(tmp_path, text, fragment):
    assert_one_line_error(invoke("play", write(tmp_path, text)), 2, fragment)


def test_play_goes_on_when_a_save_fails(tmp_path):
    """`save` to a folder that does not exist raised FileNotFoundError and ended the session."""
    path = write(tmp_path, "game: three-of-a-crime\nplayers: [Ana, Ben, Cleo]\nevents: []\n")
    typed = f"save {tmp_path}/no/such/folder.yaml\ncard HB JC KC 1\nquit\n"
    result = runner.invoke(app, ["play", str(path)], input=typed)
    assert result.exit_code == 0, result.output
    assert "cannot save" in result.stderr and "no/such/folder.yaml" in result.stderr
    assert "event 1 saved" in result.stdout
    assert "card:" in path.read_text(encoding="utf-8")
    unwritable = tmp_path / "no" / "log.yaml"
    assert_one_line_error(invoke("play", "six-suspects", "--log", unwritable), 2, "cannot save")


@pytest.mark.parametrize("game", ["suspeicao", "game-of-suspicion"])
@pytest.mark.parametrize("command", ["solve", "suggest", "replay"])
def test_log_without_a_deal(tmp_path, command, game):
    """`replay` of a Suspeição or Game of Suspicion log with no deal raised ValueError (found by
    the fuzzer, the second in CI)."""
    path = write(tmp_path, HEADERS[game].replace("events:\n", "events: []\n"))
    assert_one_line_error(invoke(command, path), 2, "the log has no deal yet")
    assert_json_error(invoke(command, path, "--json"), 2)


@pytest.mark.parametrize("command", ["solve", "suggest", "replay", "explain"])
def test_deck_is_refused_where_the_game_has_no_deck_file(command, tmp_path):
    """Three of a Crime has no deck file: --deck is refused (it was ignored, even for a file
    that does not exist)."""
    log = ROOT / "examples/three-of-a-crime/two-player.yaml"
    result = CliRunner().invoke(app, [command, str(log), "--deck", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "error: --deck means nothing in Three of a Crime: it has no deck file"
    )


def test_replay_of_a_puzzle_reads_its_given_events_as_solve_does():
    puzzle = ROOT / "examples/three-of-a-crime/puzzle-easy.yaml"
    solved = json.loads(CliRunner().invoke(app, ["solve", str(puzzle), "--json"]).stdout)
    replayed = json.loads(CliRunner().invoke(app, ["replay", str(puzzle), "--json"]).stdout)
    given = yaml.safe_load(puzzle.read_text())["puzzle"]["given"]
    assert len(replayed["history"]) == len(given) + 1  # the start, then each clue
    assert replayed["history"][-1]["worlds"] == solved["worlds"]


def test_a_requirement_range_of_thousands_of_digits_is_one_line():
    """Found by the fuzz test: `lacks: 111…1115-50` (5,001 digits) raised Python's integer
    string limit as an internal error."""
    from models.suspeicao.rules import requirement
    from solver.errors import InputError

    with pytest.raises(InputError, match="a range of card numbers"):
        requirement("1" * 5000 + "5-50")
    assert requirement("35-50").high == 50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "game: six-suspects\nplayers: [Ana, Ben]\nme: Zed\nevents: []\n",
            "me: unknown player 'Zed'",
        ),
        (
            "game: game-of-suspicion\nplayers: [Ana, Ben, Cleo, Dan]\nme: Ana\npuzzle:\n"
            "  given:\n    - deal: {hand: [0, 1, 5, 7]}\n  question: {hand: Zed}\n",
            "question: hand: unknown player 'Zed'",
        ),
    ],
    ids=["me", "question hand"],
)
def test_a_header_field_is_named_in_its_error(tmp_path, text, message):
    """Outside the events there is no event number: the message names the field instead."""
    path = write(tmp_path, text)
    command = "check" if "puzzle:" in text else "solve"
    assert_one_line_error(invoke(command, path), 2, message)


def test_a_line_break_of_any_kind_in_a_name_stays_escaped_in_the_one_line(tmp_path):
    """The fuzz test found a deck named "\\x1e" (a record separator, which splits lines in
    Python) printed raw: the error then read as two lines."""
    text = 'game: game-of-suspicion\nplayers: []\ndeck: "\\x1E\\u2028"\npuzzle:\n  given: []\n'
    message = assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, "cannot read deck")
    assert "\\x1e\\u2028" in message


# --- issue 16 §3 and §5: a field no reader looks at is refused, never silently ignored --------

# game: (an event with a field its reader never asks for, fragments of the message)
UNKNOWN_FIELDS = {
    "card token misspelt": (
        "three-of-a-crime",
        "  - card: [HB, JC, KC]\n    tokn: 1\n",
        "the card event has no field 'tokn'; did you mean 'token'?",
    ),
    "accuse extra": (
        "three-of-a-crime",
        "  - accuse: {by: Ben, suspects: [HB, JC, KC], correct: false, note: late}\n",
        "accuse has no field 'note'",
    ),
    "look card misspelt": (
        "six-suspects",
        "  - look: {slot: A1, crad: diamond}\n",
        "look has no field 'crad'; did you mean 'card'?",
    ),
    "look field beside the look": (
        "six-suspects",
        "  - look: {slot: A1}\n    by: Ben\n",
        "the look event has no field 'by' (a look's fields go inside it: look: {...})",
    ),
    "deal extra": (
        "game-of-suspicion",
        "  - deal: {hand: [0, 4, 5, 8], shadow: [0, 0, 1, 2], colour: red}\n",
        "deal has no field 'colour'",
    ),
    "count fact extra, nested": (
        "game-of-suspicion",
        "  - deal: {hand: [0, 4, 5, 8], shadow: [0, 0, 1, 2]}\n"
        "  - fact: {player: Ben, count: {of: [1, 2], is: 1, colour: red}}\n",
        "fact.count has no field 'colour'",
    ),
    "deal first misspelt": (
        "suspeicao",
        "  - deal: {incriminating: [7, 21, 33, 41], hand: [2, 15, 40, X1], first: Ana, frist: Ben}\n",
        "deal has no field 'frist'; did you mean 'first'?",
    ),
}


@pytest.mark.parametrize("case", list(UNKNOWN_FIELDS))
def test_a_field_no_reader_asks_for_is_refused(tmp_path, case):
    """Before, each of these read as if the field were not there (exit 0): a misspelt field
    silently took its default."""
    game, events, message = UNKNOWN_FIELDS[case]
    text = HEADERS[game] + events
    found = assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, message)
    starts = [i for i, line in enumerate(events.splitlines()) if line.startswith("  - ")]
    assert found.startswith(f"error: event {len(starts)} line {5 + starts[-1]}: ")
    assert_json_error(invoke("solve", write(tmp_path, text), "--json"), 2)


@pytest.mark.parametrize(
    ("header", "message", "line"),
    [
        ("colour: red\n", "the file has no field 'colour'", 4),
        ("player: [Ana]\n", "the file has no field 'player'; did you mean 'players'?", 4),
    ],
)
@pytest.mark.parametrize("game", list(HEADERS))
def test_an_unknown_top_level_field_is_refused_with_its_line(tmp_path, game, header, message, line):
    head, _, _ = HEADERS[game].partition("events:\n")
    path = write(tmp_path, head + header + "events: []\n")
    assert_one_line_error(invoke("solve", path), 2, f"line {line}: {message}")


def test_an_unknown_puzzle_field_is_refused_with_its_line(tmp_path):
    text = (
        "game: three-of-a-crime\npuzzle:\n  given:\n    - card: [HB, JC, KC]\n      token: 1\n"
        "  question: secret\n  answr: [HB, JC, LEL]\n"
    )
    result = invoke("check", write(tmp_path, text))
    assert_one_line_error(
        result, 2, "line 7: a puzzle has no field 'answr'; did you mean 'answer'?"
    )


def test_a_deck_field_means_nothing_in_three_of_a_crime(tmp_path):
    """The game has no deck file: a `deck:` line would be ignored, as `--deck` was (§3)."""
    text = "game: three-of-a-crime\ndeck: mine.yaml\nevents: []\n"
    assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, "no field 'deck'")


@pytest.mark.parametrize("game", list(HEADERS))
def test_notes_are_free_text_in_every_game(tmp_path, game):
    """`notes:` is the one free-text field (a JSON log cannot hold comments)."""
    head, _, _ = HEADERS[game].partition("events:\n")
    text = head + "notes: {played: 2026-12-02, at: the club}\nevents: []\n"
    result = invoke("solve", write(tmp_path, text))
    assert result.exit_code in (0, 2), result.output
    assert "notes" not in result.output


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (
            "  - card: [HB, JC, Kid Casidy]\n    token: 1\n",
            "event 1 line 5: card: unknown suspect 'Kid Casidy'",
        ),
        (
            "  - accuse: {by: -5, suspects: [HB, JC, KC], correct: false}\n",
            "event 1 line 5: accuse.by: unknown player -5",
        ),
    ],
)
def test_an_event_error_names_its_field(tmp_path, events, message):
    """Before, only the event and its line were named (1,499 of 4,452 audit runs)."""
    text = HEADERS["three-of-a-crime"] + events
    assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, message)


@pytest.mark.parametrize(
    ("game", "events", "message"),
    [
        (
            "game-of-suspicion",
            "  - deal: {hand: [0, 4, 5, 8], shadow: [0, 1, 2, zzz]}\n",
            "deal.shadow: expected a card value 0-9 (or 10), got 'zzz'",
        ),
        ("six-suspects", "  - look: {slot: Q7}\n", "look.slot: unknown slot 'Q7'"),
        (
            "suspeicao",
            "  - deal: {incriminating: [7, 21, 33, 41], hand: [2, 15, 40, X1], first: Zed}\n",
            "deal.first: unknown player 'Zed'",
        ),
    ],
)
def test_each_game_names_the_field(tmp_path, game, events, message):
    text = HEADERS[game] + events
    assert_one_line_error(invoke("solve", write(tmp_path, text)), 2, f"event 1 line 5: {message}")


@pytest.mark.parametrize("command", ["check", "solve", "suggest"])
def test_a_visible_card_error_names_its_slot_not_an_event(tmp_path, command):
    """A puzzle's visible card is not an event: its error said "event 2" (issue 16)."""
    text = (
        "game: six-suspects\npuzzle:\n  visible:\n    A1: swap\n    B2: dimond\n"
        "  question: culprit\n"
    )
    message = assert_one_line_error(invoke(command, write(tmp_path, text)), 2)
    assert message.startswith("error: line 5: visible B2: unknown card 'dimond'")
    assert "did you mean 'diamond'" in message


PUZZLE_EASY = ROOT / "examples/three-of-a-crime/puzzle-easy.yaml"


def test_a_stated_difficulty_is_held_to_the_computed_one(tmp_path):
    """`check` recomputed the grade and never compared it with the file's (issue 16)."""
    text = PUZZLE_EASY.read_text().replace("difficulty: direct", "difficulty: deep")
    assert "difficulty: deep" in text
    path = write(tmp_path, text)
    result = invoke("check", path, "--json")
    assert result.exit_code == 0  # the answer is still unique and right
    data = json.loads(result.stdout)
    assert data["difficulty"] == "direct" and data["difficulty_matches"] is False
    assert "Sleuth grades it 'direct'" in invoke("check", path).output
    same = json.loads(invoke("check", PUZZLE_EASY, "--json").stdout)
    assert same["difficulty_matches"] is True


def test_a_difficulty_the_game_does_not_have_is_refused(tmp_path):
    text = PUZZLE_EASY.read_text().replace("difficulty: direct", "difficulty: medium")
    result = invoke("check", write(tmp_path, text))
    assert_one_line_error(result, 2, "puzzle.difficulty: unknown difficulty 'medium'")
