"""What the fuzzing round of issue 30 found, one test per class of input (the issue's numbering),
so that each stays fixed: a crash, a hang or lost data where a one-line answer belongs.

Each test runs the real thing: the `sleuth` command in a process of its own (with a memory cap,
a time limit and the locale it needs), or the web app (through Starlette's test client, which
turns what would be a 500 into a status the test sees). Class 14 (the replay of a 10,000-event
Suspeição log) is the Suspeição engine's, and tested there.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from solver.errors import MESSAGE_LIMIT
from solver.files import MAX_NAME_BYTES
from solver.logfile import FAST_FROM, whole_number
from web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LOG = EXAMPLES / "three-of-a-crime" / "multi-round.yaml"
PUZZLE = EXAMPLES / "three-of-a-crime" / "puzzle-easy.yaml"
SIX = EXAMPLES / "six-suspects" / "worked-check.yaml"
MEMORY = 2 << 30  # bytes of address space for one command: far more than any of these needs
STRICT = "C.UTF-8"  # a UTF-8 locale: Python's standard streams refuse what is not UTF-8
LENIENT = "C"  # the C locale: Python's streams carry undecodable bytes as surrogates


def sleuth(
    *args: str | bytes,
    stdin: bytes = b"",
    locale: str = STRICT,
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess:
    """`sleuth ARGS` in a process of its own, under a memory cap; the arguments may be bytes
    (a file name that is not UTF-8). A command still running after `timeout` fails the test."""

    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    env = {**os.environ, "LC_ALL": locale, "LANG": locale, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONIOENCODING", None)
    env.pop("PYTHONUTF8", None)
    try:
        return subprocess.run(
            [sys.executable, "-m", "cli.app", *args],
            input=stdin,
            capture_output=True,
            timeout=timeout,
            env=env,
            cwd=cwd or ROOT,
            preexec_fn=capped,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"sleuth {args!r} still ran after {timeout} s") from None


def one_error_line(result: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit 2 and one error line on stderr, holding each fragment; no traceback."""
    stderr = result.stderr.decode("utf-8")
    assert result.returncode == 2, (result.returncode, stderr[-600:])
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr[-600:]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def web(root: Path) -> TestClient:
    """The app serving `root`; an exception inside it is a 500 here, as a browser sees it."""
    app = create_app(root, wait=120)
    return TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


# -- 1: a file that is not a log, through every route of a log --------------------------------

NOT_LOGS = {
    "a puzzle": PUZZLE.read_bytes(),
    "broken YAML": b"game: [three-of-a-crime\n",
    "binary": b"\xff\xfe\x00\x01",
    "empty": b"",
    "not a mapping": b"- 1\n- 2\n",
}
LOG_ROUTES = [
    ("GET", "/log/{}"),
    ("GET", "/solve/{}"),
    ("GET", "/suggest/{}"),
    ("GET", "/explain/{}"),
    ("POST", "/event/{}"),
    ("POST", "/tap/{}"),
    ("POST", "/undo/{}"),
]


@pytest.mark.parametrize("kind", list(NOT_LOGS))
def test_1_a_file_that_is_not_a_log_is_a_4xx_on_every_route(tmp_path, kind):
    (tmp_path / "file.yaml").write_bytes(NOT_LOGS[kind])
    client = web(tmp_path)
    for method, route in LOG_ROUTES:
        answer = client.request(method, route.format("file.yaml"), data={"line": "x", "form": "0"})
        assert 400 <= answer.status_code < 500, (method, route, answer.status_code, answer.text)
        assert "internal error" not in answer.text
    assert (tmp_path / "file.yaml").read_bytes() == NOT_LOGS[kind]


# -- 2: a NUL in a name ----------------------------------------------------------------------


def test_2_a_nul_in_a_name_is_refused_in_one_line(tmp_path):
    client = web(tmp_path)
    before = snapshot(tmp_path)
    answers = [
        client.get("/log/%00.yaml"),
        client.get("/solve/a%00b.yaml"),
        client.post("/new", data={"game": "three-of-a-crime", "name": "x\x00y"}),
        client.post(
            "/puzzles",
            data={"action": "save", "save_as": "a\x00b", "text": PUZZLE.read_text()},
        ),
    ]
    (tmp_path / "deck.yaml").write_text('game: six-suspects\ndeck: "a\\0b.yaml"\nevents: []\n')
    before = snapshot(tmp_path)
    answers.append(client.get("/log/deck.yaml"))  # a log whose deck: holds a NUL
    for answer in answers:
        assert 400 <= answer.status_code < 500, (answer.request.url, answer.text[:300])
        assert "NUL" in answer.text
    assert snapshot(tmp_path) == before
    one_error_line(sleuth("solve", str(tmp_path / "deck.yaml")), "NUL")


# -- 3: a number that passes isdigit() but not int() -----------------------------------------


def test_3_digits_int_cannot_read_are_refused_not_a_crash(tmp_path):
    shutil.copy(LOG, tmp_path / "log.yaml")
    client = web(tmp_path)
    before = snapshot(tmp_path)
    for upto in ("²", "1" * 5000, "٣"):  # a superscript, 5,000 digits, an Arabic-Indic digit
        answer = client.get(f"/log/log.yaml?upto={upto}")
        assert answer.status_code == 200, answer.text[:300]  # the whole log, as with no upto
    assert client.post("/tap/log.yaml", data={"form": "²"}).status_code == 422
    generate = {"action": "generate", "game": "three-of-a-crime"}
    for field in ("count", "seed", "difficulty"):
        answer = client.post("/puzzles", data={**generate, field: "²"})
        assert answer.status_code == 422, (field, answer.text[:300])
        assert "expected" in answer.text
    deck = (ROOT / "models" / "game_of_suspicion" / "deck.yaml").read_text()
    (tmp_path / "deck.yaml").write_text(deck.replace("hand_size: 4", "hand_size: '²'"))
    before = snapshot(tmp_path)
    new = {"game": "game-of-suspicion", "players": "Ana Ben Cleo", "name": "new.yaml"}
    answer = client.post("/new", data={**new, "options": "deck: deck.yaml"})
    assert answer.status_code == 422 and "expected whole numbers" in answer.text, answer.text[-500:]
    assert snapshot(tmp_path) == before


def test_3_a_header_number_in_odd_digits_is_one_line_on_the_command_line(tmp_path):
    text = SIX.read_text().replace("game: six-suspects\n", "game: six-suspects\nlooks_left: '²'\n")
    (tmp_path / "log.yaml").write_text(text)
    one_error_line(sleuth("suggest", str(tmp_path / "log.yaml")), "looks_left")


@pytest.mark.parametrize(
    "game, line",
    [
        ("game-of-suspicion", "deal ² 1 5 7"),
        ("suspeicao", "play Ben ² target Cleo revealed 13"),
        ("suspeicao", "deal 7 21 33 ① hand 2 15 40 X1 first Ben"),
    ],
)
def test_3_a_typed_number_in_odd_digits_is_a_refused_line(tmp_path, game, line):
    log = tmp_path / "log.yaml"
    log.write_text(f"game: {game}\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents: []\n")
    played = sleuth("play", str(log), stdin=f"{line}\nshow\nquit\n".encode())
    assert played.returncode == 0, played.stderr[-500:]
    assert b"is not a number" in played.stderr and b"log saved to" in played.stdout
    assert yaml.safe_load(log.read_text())["rejected"][-1]["typed"] == line
    answer = web(tmp_path).post("/event/log.yaml", data={"line": line})
    assert answer.status_code == 422 and "is not a number" in answer.text


@pytest.mark.parametrize("game", ["game-of-suspicion", "suspeicao"])
def test_3_a_typed_number_of_5000_digits_is_a_refused_line(tmp_path, game):
    # words_of lets ASCII digits through; the readers turned them into numbers with int(),
    # which refuses more than 4,300 digits: a ValueError, and the session ended (exit 3)
    log = tmp_path / "log.yaml"
    log.write_text(f"game: {game}\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents: []\n")
    line = f"deal {'9' * 5000} 1 5 7"
    played = sleuth("play", str(log), stdin=f"{line}\nshow\nquit\n".encode())
    assert played.returncode == 0, played.stderr[-500:]
    assert b"Traceback" not in played.stderr and b"log saved to" in played.stdout
    assert yaml.safe_load(log.read_text())["rejected"][-1]["typed"] == line
    assert len(played.stderr.splitlines()[0]) <= MESSAGE_LIMIT + 100  # one short line


@given(st.text(max_size=30) | st.from_regex(r"\A[+-]?[0-9]{1,40}\Z"))
def test_3_text_becomes_a_number_only_from_ascii_digits(text):
    number = whole_number(text)
    written = text.strip().lstrip("+-")
    if written.isascii() and written.isdecimal() and len(written) <= 18 and text.strip():
        assert number == int(text)
    else:
        assert number is None


# -- 4: a multipart body with an empty boundary ----------------------------------------------


def test_4_a_multipart_body_with_an_empty_boundary_is_a_400(tmp_path):
    shutil.copy(LOG, tmp_path / "log.yaml")
    client = web(tmp_path)
    before = snapshot(tmp_path)
    for route in ("/new", "/event/log.yaml", "/tap/log.yaml", "/puzzles"):
        for boundary in ("", '""'):
            answer = client.post(
                route,
                content=b"x\r\n\r\n",
                headers={"content-type": f"multipart/form-data; boundary={boundary}"},
            )
            assert answer.status_code == 400, (route, answer.status_code, answer.text[:200])
            assert "form" in answer.text
    assert snapshot(tmp_path) == before


# -- 5: a name over 255 bytes ------------------------------------------------------------------

LONG_NAME = "a" * (MAX_NAME_BYTES + 45) + ".yaml"


def test_5_a_name_over_255_bytes_is_one_line_everywhere(tmp_path):
    too_long = str(tmp_path / LONG_NAME)
    batch = sleuth("batch", "solve", too_long, "--workers", "1")
    assert batch.returncode == 0, batch.stderr.decode()[-500:]
    (line,) = [json.loads(text) for text in batch.stdout.decode().splitlines()]
    assert line["exit_code"] == 2 and "too long" in line["output"]["error"]
    one_error_line(sleuth("play", "three-of-a-crime", "--log", too_long), "too long")
    one_error_line(sleuth("play", too_long), "too long")
    one_error_line(sleuth("serve", too_long), "too long")
    client = web(tmp_path)
    assert client.get(f"/log/{LONG_NAME}").status_code == 400
    assert client.post("/new", data={"game": "six", "name": LONG_NAME}).status_code == 422
    assert list(tmp_path.iterdir()) == []


# -- 6: a lone surrogate in a log's text --------------------------------------------------------


def test_6_a_lone_surrogate_in_a_log_is_bad_input_with_its_line(tmp_path):
    text = SIX.read_text().replace("Ana", "\\ud800")  # a YAML escape: half of a character
    text = text.replace("players: [\\ud800,", 'players: ["\\ud800",').replace(
        "me: \\ud800", 'me: "\\ud800"'
    )
    assert '"\\ud800"' in text
    (tmp_path / "half.yaml").write_text(text)
    shutil.copy(SIX, tmp_path / "whole.yaml")
    for args in (["solve", "--json"], ["solve"], ["explain"]):
        result = sleuth(*args, str(tmp_path / "half.yaml"))
        one_error_line(result, "line", "surrogate")
        if "--json" in args:
            assert json.loads(result.stdout)["exit_code"] == 2
    batch = sleuth("batch", "solve", str(tmp_path), "--workers", "1")
    assert batch.returncode == 0, batch.stderr.decode()[-500:]
    lines = {Path(line["path"]).name: line for line in map(json.loads, batch.stdout.splitlines())}
    assert lines["half.yaml"]["exit_code"] == 2 and lines["whole.yaml"]["exit_code"] == 0
    client = web(tmp_path)
    for route in ("/solve/half.yaml", "/log/half.yaml", "/explain/half.yaml"):
        assert client.get(route).status_code == 422, route


# -- 7: a file name that is not UTF-8 ------------------------------------------------------------


@pytest.mark.parametrize("locale", [STRICT, LENIENT])
def test_7_a_file_name_that_is_not_utf8_is_named_in_utf8(tmp_path, locale):
    named = os.fsencode(tmp_path) + b"/x\xff.yaml"
    shutil.copy(LOG, named)
    solved = sleuth("solve", named, "--json", locale=locale)
    assert solved.returncode == 2, solved.stderr[-500:]
    error = json.loads(solved.stdout.decode("utf-8"))["error"]  # valid UTF-8, and JSON
    assert "x\\xff.yaml" in error and "UTF-8" in error
    output = tmp_path / "answers.jsonl"
    batch = sleuth("batch", "solve", str(tmp_path), "-o", str(output), "--workers", "1")
    assert batch.returncode == 0, batch.stderr[-500:]
    (line,) = [json.loads(text) for text in output.read_text(encoding="utf-8").splitlines()]
    assert line["path"].endswith("x\\xff.yaml") and line["exit_code"] == 2
    again = sleuth("batch", "solve", str(tmp_path), "-o", str(output), "--resume", "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["skipped"] == 1


# -- 8 and 9: `play` given bytes that are not UTF-8 ---------------------------------------------


@pytest.mark.parametrize("locale", [STRICT, LENIENT])
def test_8_play_takes_a_line_that_is_not_utf8_as_a_refused_line(tmp_path, locale):
    log = tmp_path / "log.yaml"
    shutil.copy(LOG, log)
    typed = b"card KC \xff\xfe 1\nshow\nquit\n"
    result = sleuth("play", str(log), stdin=typed, locale=locale)
    assert result.returncode == 0, result.stderr[-500:]
    assert b"not UTF-8" in result.stderr and b"Traceback" not in result.stderr
    assert b"log saved to" in result.stdout  # the session went on to `quit`
    rejected = yaml.safe_load(log.read_text(encoding="utf-8"))["rejected"]
    assert rejected[-1]["typed"] == "card KC \\xff\\xfe 1"


def test_8_save_over_a_file_that_is_not_utf8_is_refused_and_the_session_goes_on(tmp_path):
    log, other = tmp_path / "log.yaml", tmp_path / "other.yaml"
    shutil.copy(LOG, log)
    other.write_bytes(b"\xff\xfe not text")
    result = sleuth("play", str(log), stdin=f"save {other}\nshow\nquit\n".encode())
    assert result.returncode == 0, result.stderr[-500:]
    assert b"cannot save" in result.stderr and b"Traceback" not in result.stderr
    assert b"log saved to" in result.stdout
    assert other.read_bytes() == b"\xff\xfe not text"


@pytest.mark.parametrize("locale", [STRICT, LENIENT])
def test_9_a_long_log_play_wrote_with_a_refused_non_utf8_line_reads_back(tmp_path, locale):
    log = tmp_path / "log.yaml"
    data = yaml.safe_load(LOG.read_text())
    data["notes"] = "n" * FAST_FROM  # a log over 20,000 characters (read by libyaml)
    log.write_text(yaml.safe_dump(data, sort_keys=False))
    result = sleuth("play", str(log), stdin=b"card \xff 1\nquit\n", locale=locale)
    assert result.returncode == 0, result.stderr[-500:]
    solved = sleuth("solve", str(log), locale=locale)
    assert solved.returncode == 0, solved.stderr[-500:]


# -- 10: a path that never ends -----------------------------------------------------------------


def test_10_a_device_that_never_ends_is_refused_at_once(tmp_path):
    log = tmp_path / "log.yaml"
    shutil.copy(SIX, log)
    started = time.monotonic()
    one_error_line(sleuth("solve", "/dev/zero"), "device")
    one_error_line(sleuth("solve", str(log), "--deck", "/dev/zero"), "device")
    one_error_line(sleuth("batch", "solve", str(log), "--resume", "-o", "/dev/zero"), "device")
    played = sleuth("play", str(log), stdin=b"save /dev/full\nquit\n")
    assert played.returncode == 0 and b"cannot save /dev/full" in played.stderr, played.stderr
    assert b"log saved to" in played.stdout
    assert time.monotonic() - started < 60


# -- 11: a FIFO named *.yaml ----------------------------------------------------------------------


def test_11_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    shutil.copy(LOG, tmp_path / "log.yaml")
    one_error_line(sleuth("solve", str(tmp_path / "pipe.yaml"), timeout=30), "a pipe (FIFO)")
    one_error_line(sleuth("play", str(tmp_path / "pipe.yaml"), timeout=30), "a pipe (FIFO)")
    batch = sleuth("batch", "solve", f"{tmp_path}/*.yaml", "--workers", "1", timeout=30)
    assert batch.returncode == 0, batch.stderr[-500:]
    lines = {Path(line["path"]).name: line for line in map(json.loads, batch.stdout.splitlines())}
    assert lines["pipe.yaml"]["exit_code"] == 2 and lines["log.yaml"]["exit_code"] == 0
    front = subprocess.run(  # the web's front page lists the folder: in a process of its own
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from starlette.testclient import TestClient; "
            "from web.app import create_app; "
            "c = TestClient(create_app(Path(sys.argv[1])), base_url='http://127.0.0.1:8765'); "
            "print(c.get('/').status_code, c.get('/log/pipe.yaml').status_code)",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert front.stdout.split() == ["200", "404"], front.stderr[-500:]


# -- 12: --resume given a file that is not a batch's output ---------------------------------------


def test_12_resume_never_truncates_a_file_that_is_not_a_batchs(tmp_path):
    output = tmp_path / "notes.txt"
    output.write_bytes(b"my notes, without a final newline")
    result = sleuth("batch", "solve", str(LOG), "--resume", "-o", str(output))
    one_error_line(result, "not a line of sleuth batch")
    assert output.read_bytes() == b"my notes, without a final newline"


def test_12_resume_still_removes_a_batch_line_cut_short(tmp_path):
    output = tmp_path / "answers.jsonl"
    output.write_bytes(b'{"path": "' + str(LOG).encode() + b'", "exit_co')
    result = sleuth("batch", "solve", str(LOG), "--resume", "-o", str(output), "--json")
    assert result.returncode == 0, result.stderr[-500:]
    (line,) = output.read_text().splitlines()
    assert json.loads(line)["exit_code"] == 0


# -- 13: a symlink loop under ** ----------------------------------------------------------------


def test_13_a_symlink_loop_answers_each_file_once(tmp_path):
    shutil.copy(LOG, tmp_path / "log.yaml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")
    for pattern in (f"{tmp_path}/**/*.yaml", str(tmp_path)):
        batch = sleuth("batch", "solve", pattern, "--workers", "1")
        assert batch.returncode == 0, batch.stderr[-500:]
        paths = [json.loads(line)["path"] for line in batch.stdout.splitlines()]
        assert paths == [str(tmp_path / "log.yaml")], (pattern, paths)


# -- 15: a huge --count or --games --------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "three-of-a-crime", "--count", "1" + "0" * 9],
        ["generate", "three-of-a-crime", "--count", "1" + "0" * 30],
        ["simulate", "three-of-a-crime", "--games", "1" + "0" * 9],
        ["simulate", "six-suspects", "--games", "1" + "0" * 30],
    ],
    ids=lambda args: f"{args[0]}-10^{len(args[-1]) - 1}",
)
def test_15_a_job_past_the_limit_is_refused_at_once(args):
    started = time.monotonic()
    one_error_line(sleuth(*args, timeout=30), "at most")
    assert time.monotonic() - started < 30


# -- 16: a 5 MB unknown name ---------------------------------------------------------------------


def test_16_a_huge_unknown_name_is_quoted_in_a_few_words(tmp_path):
    name = "Z" * 5_000_000
    log = tmp_path / "log.yaml"
    log.write_text(
        f"game: three-of-a-crime\nplayers: [Ana, Ben]\nevents:\n  - card: [HB, JC, {name}]\n"
        "    token: 1\n"
    )
    started = time.monotonic()
    line = one_error_line(sleuth("solve", str(log), timeout=60), "unknown suspect", "line 4")
    took = time.monotonic() - started
    assert len(line) < 400 <= MESSAGE_LIMIT, len(line)
    assert took < 30, took  # 11 s and 562 MB before; about 1 s now
