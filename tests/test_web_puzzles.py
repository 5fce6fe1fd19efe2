"""`sleuth serve`'s puzzle pages through Starlette's test client: a bundled puzzle of each game
shows what `sleuth check --json` prints; a pasted or uploaded puzzle is checked without being
saved; save-as writes a new file under DIR only; `generate` makes the CLI's puzzles."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner
from webclient import client

from cli.app import app as cli
from models import GAMES, six_suspects
from solver.errors import InputError
from web.puzzles import write_new

EXAMPLES = Path(__file__).parent.parent / "examples"

# per game: a bundled puzzle that checks quickly
BUNDLED = {
    "three-of-a-crime": "three-of-a-crime/puzzle-easy.yaml",
    "six-suspects": "six-suspects/puzzle-medium.yaml",
    "game-of-suspicion": "game-of-suspicion/puzzle-hard.yaml",
    "suspeicao": "suspeicao/puzzle-easy.yaml",
}
# per game: a seed and a count whose puzzles generate quickly
GENERATED = {
    "three-of-a-crime": (1, 2),
    "six-suspects": (1, 2),
    "game-of-suspicion": (4, 1),
    "suspeicao": (4, 1),
}


def cli_json(*args: object, exit_code: int | None = None) -> dict | list:
    """What the command prints with --json (one JSON value on stdout)."""
    result = CliRunner().invoke(cli, [*map(str, args), "--json"])
    if exit_code is not None:
        assert result.exit_code == exit_code, (result.stdout, result.stderr)
    return json.loads(result.stdout)


class Tables(HTMLParser):
    """The page's tables by the title (the h2) before each: lists of rows of cell texts."""

    def __init__(self, html: str):
        super().__init__()
        self.found: dict[str, list[list[str]]] = {}
        self.title, self.text, self.rows = "", "", None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "td", "th"):
            self.text = ""
        elif tag == "table":
            self.rows = self.found.setdefault(self.title, [])
        elif tag == "tr" and self.rows is not None:
            self.rows.append([])

    def handle_endtag(self, tag):
        if tag == "h2":
            self.title = self.text.strip()
        elif tag in ("td", "th") and self.rows is not None:
            self.rows[-1].append(self.text.strip())
        elif tag == "table":
            self.rows = None

    def handle_data(self, data):
        self.text += data


def tables(html: str) -> dict[str, list[list[str]]]:
    return Tables(html).found


def result_rows(html: str) -> dict[str, str]:
    return {row[0]: row[1] for row in tables(html)["Result (as check --json)"][1:]}


def marked(html: str, column: str) -> list[int]:
    """The clue indexes whose `column` says yes in the clue table."""
    header, *rows = tables(html)["Clues"]
    at = header.index(column)
    return [int(row[0]) for row in rows if row[at] == "yes"]


def answer_text(answer: object) -> str:
    return ", ".join(map(str, answer)) if isinstance(answer, list) else str(answer)


def error_line(html: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html, re.S)
    assert found, "no error line on the page"
    return unescape(found.group(1))


def files_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.mark.parametrize("game", sorted(BUNDLED))
def test_a_bundled_puzzle_page_shows_what_check_json_prints(game):
    expected = cli_json("check", EXAMPLES / BUNDLED[game], exit_code=0)
    web = client(EXAMPLES)
    page = web.get(f"/puzzle/{BUNDLED[game]}")
    assert page.status_code == 200
    rows = result_rows(page.text)
    assert rows["unique"] == "yes" and expected["unique"] is True
    assert rows["answer"] == answer_text(expected["answer"])
    assert rows["clues"] == str(expected["clues"])
    assert marked(page.text, "redundant") == expected["redundant"]
    assert marked(page.text, "in the minimal set") == expected["minimal"]
    assert "Witnesses" not in page.text
    assert web.get(f"/check/{BUNDLED[game]}").json() == expected  # remembered: no second check


def test_the_index_links_puzzles_to_their_page_and_to_the_puzzle_desk():
    index = client(EXAMPLES).get("/").text
    assert 'href="/puzzle/six-suspects/puzzle-medium.yaml"' in index
    assert 'href="/log/six-suspects/worked-check.yaml"' in index
    assert 'href="/puzzles"' in index


def test_a_pasted_puzzle_that_is_not_unique_shows_two_witnesses(tmp_path):
    source = EXAMPLES / "three-of-a-crime/puzzle-ambiguous.yaml"
    expected = cli_json("check", source, exit_code=1)
    page = client(tmp_path).post("/puzzles", data={"action": "check", "text": source.read_text()})
    assert page.status_code == 200
    assert result_rows(page.text)["unique"] == "no"
    header, *rows = tables(page.text)["Witnesses: worlds with different answers"]
    assert header == ["", "world 1", "world 2"]
    for key, *worlds in rows:  # e.g. round_1, the secret card of each world
        assert worlds == [answer_text(w[key]) for w in expected["witnesses"]]
    assert worlds[0] != worlds[1]
    assert files_in(tmp_path) == []  # checked, not saved
    saved = client(tmp_path).post(
        "/puzzles",
        data={"action": "save", "text": source.read_text(), "save_as": "draft"},
        follow_redirects=False,
    )
    assert saved.status_code == 303 and files_in(tmp_path) == ["draft.yaml"]  # a draft is kept


def test_a_six_suspects_witness_shows_each_completion_slot_by_slot(tmp_path):
    source = EXAMPLES / "six-suspects/puzzle-ambiguous.yaml"
    expected = cli_json("check", source, exit_code=1)
    page = client(tmp_path).post("/puzzles", data={"text": source.read_text()})
    rows = {r[0]: r[1:] for r in tables(page.text)["Witnesses: worlds with different answers"][1:]}
    for i, witness in enumerate(expected["witnesses"]):
        assert rows["culprit"][i] == answer_text(witness["culprit"])
        assert {s: rows[f"layout {s}"][i] for s in witness["layout"]} == witness["layout"]


BAD_PUZZLE = """game: three-of-a-crime
puzzle:
  given:
  - card: [Jonny Cortex, Louie St. Louis, Pencil Top]
    token: 2
  - card: [Humpty Bumpty, Jony Cortex, Nobody]
    token: 1
  question: secret
"""


@pytest.mark.parametrize(
    "text", [BAD_PUZZLE, "game: six-suspects\npuzzle:\n  visible: {A1: [mirror\n"]
)
def test_a_bad_pasted_puzzle_gets_the_clis_error_line_and_nothing_is_written(tmp_path, text):
    served, other = tmp_path / "served", tmp_path / "other"
    served.mkdir(), other.mkdir()
    (other / "bad.yaml").write_text(text)
    expected = cli_json("check", other / "bad.yaml", exit_code=2)
    web = client(served)
    for action in ("check", "save"):
        page = web.post("/puzzles", data={"action": action, "text": text, "save_as": "bad.yaml"})
        assert page.status_code == 422
        line = error_line(page.text)
        assert line == expected["error"].replace(str(other / "bad.yaml"), "the pasted puzzle")
        assert f"line {expected['line']}" in line
        assert text.splitlines()[0] in page.text  # the text is kept in the box
    assert files_in(served) == []


def test_a_bad_puzzle_file_shows_its_error_line(tmp_path):
    (tmp_path / "bad.yaml").write_text(BAD_PUZZLE)
    expected = cli_json("check", tmp_path / "bad.yaml", exit_code=2)
    page = client(tmp_path).get("/puzzle/bad.yaml")
    assert page.status_code == 422 and error_line(page.text) == expected["error"]


def test_an_uploaded_puzzle_is_checked(tmp_path):
    source = EXAMPLES / "six-suspects/puzzle-medium.yaml"
    page = client(tmp_path).post(
        "/puzzles",
        data={"action": "check", "text": "ignored: the file is checked"},
        files={"file": ("puzzle-medium.yaml", source.read_bytes(), "application/yaml")},
    )
    assert page.status_code == 200
    rows = result_rows(page.text)
    assert rows["unique"] == "yes" and rows["answer"] == "D"
    assert files_in(tmp_path) == []


def test_an_uploaded_file_that_is_not_text_is_one_error_line(tmp_path):
    page = client(tmp_path).post(
        "/puzzles", files={"file": ("p.yaml", b"\xff\xfe game", "application/yaml")}
    )
    assert page.status_code == 422 and "cannot read p.yaml: not UTF-8" in error_line(page.text)


def test_save_as_writes_a_new_puzzle_that_sleuth_check_reads(tmp_path):
    source = EXAMPLES / "six-suspects/puzzle-medium.yaml"
    web = client(tmp_path)
    saved = web.post(
        "/puzzles",
        data={"action": "save", "text": source.read_text(), "save_as": "mine"},
        follow_redirects=False,
    )
    assert saved.status_code == 303 and saved.headers["location"] == "/puzzle/mine.yaml"
    assert (tmp_path / "mine.yaml").read_text() == source.read_text()
    assert cli_json("check", tmp_path / "mine.yaml", exit_code=0) == cli_json("check", source)
    assert result_rows(web.get("/puzzle/mine.yaml").text)["answer"] == "D"
    assert files_in(tmp_path) == ["mine.yaml"]  # no temporary file left behind


def test_save_as_refuses_an_existing_file_and_paths_out_of_the_folder(tmp_path):
    served, outside = tmp_path / "served", tmp_path / "outside"
    served.mkdir(), outside.mkdir()
    (served / "taken.yaml").write_text("mine\n")
    (served / "away").symlink_to(outside)
    text = (EXAMPLES / "six-suspects/puzzle-medium.yaml").read_text()
    web = client(served)
    for name in ("taken.yaml", "taken", "../x.yaml", "away/x.yaml", ".hidden.yaml"):
        page = web.post("/puzzles", data={"action": "save", "text": text, "save_as": name})
        assert page.status_code == 422, name
        assert text.splitlines()[0] in page.text  # the text is kept
    assert (served / "taken.yaml").read_text() == "mine\n"
    assert files_in(served) == ["away", "taken.yaml"] and files_in(outside) == []
    assert not (tmp_path / "x.yaml").exists()
    page = web.post("/puzzles", data={"action": "save", "text": text, "save_as": ""})
    assert page.status_code == 422 and "file name" in error_line(page.text)


def test_writing_a_new_file_never_replaces_one_made_meanwhile(tmp_path):
    """The save checks the name first; a file made after that check is still not replaced."""
    (tmp_path / "late.yaml").write_text("theirs\n")
    with pytest.raises(InputError, match="already exists"):
        write_new(tmp_path / "late.yaml", "mine\n", "late.yaml")
    assert (tmp_path / "late.yaml").read_text() == "theirs\n"
    assert files_in(tmp_path) == ["late.yaml"]


def test_a_puzzle_may_name_a_deck_in_the_folder_and_no_other(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    deck = Path(six_suspects.__file__).parent / "deck.yaml"
    shutil.copy(deck, served / "deck.yaml")
    shutil.copy(deck, tmp_path / "deck.yaml")
    puzzle = (EXAMPLES / "six-suspects/puzzle-medium.yaml").read_text()
    web = client(served)
    for outside in ("../deck.yaml", str(tmp_path / "deck.yaml")):
        text = puzzle.replace("puzzle:", f"deck: {outside}\npuzzle:")
        page = web.post("/puzzles", data={"action": "save", "text": text, "save_as": "x"})
        assert page.status_code == 422 and "outside the served folder" in error_line(page.text)
    assert files_in(served) == ["deck.yaml"]
    text = puzzle.replace("puzzle:", "deck: deck.yaml\npuzzle:")
    page = web.post("/puzzles", data={"action": "check", "text": text})
    assert page.status_code == 200 and result_rows(page.text)["answer"] == "D"


def test_a_paste_or_upload_past_the_body_limit_is_refused_and_nothing_is_written(tmp_path):
    text = BAD_PUZZLE + "#" * 70_000
    web = client(tmp_path)
    pasted = web.post("/puzzles", data={"action": "save", "text": text, "save_as": "big"})
    assert pasted.status_code == 413
    uploaded = web.post(
        "/puzzles",
        data={"action": "save", "save_as": "big"},
        files={"file": ("big.yaml", text.encode(), "application/yaml")},
    )
    assert uploaded.status_code == 413
    assert files_in(tmp_path) == []


def test_a_save_from_another_origin_is_refused(tmp_path):
    text = (EXAMPLES / "six-suspects/puzzle-medium.yaml").read_text()
    answer = client(tmp_path).post(
        "/puzzles",
        data={"action": "save", "text": text, "save_as": "x"},
        headers={"origin": "http://evil.example"},
    )
    assert answer.status_code == 403 and files_in(tmp_path) == []


def test_a_puzzle_file_is_checked_once_while_it_is_unchanged(tmp_path, monkeypatch):
    shutil.copy(EXAMPLES / "three-of-a-crime/puzzle-easy.yaml", tmp_path / "p.yaml")
    game = type(GAMES["three-of-a-crime"])
    calls = []
    check = game.check
    monkeypatch.setattr(game, "check", lambda self, doc: calls.append(1) or check(self, doc))
    web = client(tmp_path)
    assert web.get("/puzzle/p.yaml").status_code == 200
    assert web.get("/puzzle/p.yaml").status_code == 200
    assert len(calls) == 1
    (tmp_path / "p.yaml").write_text((tmp_path / "p.yaml").read_text() + "# changed\n")
    assert web.get("/puzzle/p.yaml").status_code == 200
    assert len(calls) == 2


def test_puzzle_pages_refuse_paths_out_of_the_folder(tmp_path):
    web = client(tmp_path)
    assert web.get("/puzzle/..%2Fx.yaml").status_code in (403, 404)
    assert web.get("/puzzle/missing.yaml").status_code == 404
    assert web.get("/check/missing.yaml").status_code == 404


def generated_puzzles(html: str) -> list:
    found = re.findall(
        r'<textarea name="text"[^>]*aria-label="puzzle \d+"[^>]*>\n(.*?)</textarea>', html, re.S
    )
    return [yaml.safe_load(unescape(text)) for text in found]


@pytest.mark.parametrize("game", sorted(GENERATED))
def test_generate_with_a_seed_makes_the_clis_puzzles(tmp_path, game):
    seed, count = GENERATED[game]
    expected = cli_json("generate", game, "--seed", seed, "--count", count, exit_code=0)
    page = client(tmp_path).post(
        "/puzzles", data={"action": "generate", "game": game, "seed": seed, "count": count}
    )
    assert page.status_code == 200
    assert generated_puzzles(page.text) == expected
    assert files_in(tmp_path) == []


def test_generate_refuses_what_the_cli_refuses(tmp_path):
    web = client(tmp_path)
    expected = cli_json("generate", "three-of-a-crime", "--visible", 4, exit_code=2)
    page = web.post("/puzzles", data={"action": "generate", "game": "three", "visible": "4"})
    assert page.status_code == 422 and error_line(page.text) == expected["error"]
    page = web.post("/puzzles", data={"action": "generate", "game": "six", "count": "6"})
    assert page.status_code == 422 and "count" in error_line(page.text)
    page = web.post("/puzzles", data={"action": "generate", "game": "chess"})
    assert page.status_code == 422 and "unknown game" in error_line(page.text)


def test_a_long_generation_shows_the_progress_page_a_long_count_has(tmp_path, monkeypatch):
    """Generating past the wait answers at once with a progress page of its own (what is made,
    for how long, refreshing itself), which becomes the generated puzzles when they are made;
    the next generation of as many puzzles of that game shows an estimate from this one."""
    import time

    from starlette.testclient import TestClient

    from models import jobs
    from web.app import create_app

    real = jobs.generate

    def slow(*args, **kwargs):
        time.sleep(1.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs, "generate", slow)
    web = TestClient(create_app(tmp_path, wait=0.2), base_url="http://127.0.0.1:8765")
    seed, count = GENERATED["three-of-a-crime"]
    form = {"action": "generate", "game": "three", "seed": seed, "count": count}
    expected = cli_json("generate", "three-of-a-crime", "--seed", seed, "--count", count)
    for attempt in (1, 2):
        began = time.monotonic()
        answer = web.post("/puzzles", data=form, follow_redirects=False)
        assert answer.status_code == 303 and time.monotonic() - began < 1.2
        progress = answer.headers["location"]
        page = web.get(progress)
        text = unescape(page.text)
        assert page.status_code == 200 and '<meta http-equiv="refresh"' in page.text
        assert f"Generating {count} puzzles of Three of a Crime" in text
        if attempt == 2:  # an estimate from the first
            assert re.search(r'<progress max="100" value="\d+">', page.text)
        for _ in range(100):
            page = web.get(progress)
            if "Generating" not in page.text:
                break
            time.sleep(0.1)
        assert page.status_code == 200 and generated_puzzles(page.text) == expected
    assert web.get("/generating/999").status_code == 404
    assert files_in(tmp_path) == []
