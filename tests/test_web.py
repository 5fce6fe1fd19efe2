"""`sleuth serve`: the web app through Starlette's test client (every game: a new game, events,
undo, a refused event, a contradiction, resuming a log written by `sleuth play` and the other
way round), its safety rules, and the real server started from the command line."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner
from webclient import client

from cli.app import app as cli
from models import GAMES
from solver.errors import Contradiction, SleuthError
from solver.logfile import Document, load
from web.app import create_app

EXAMPLES = Path(__file__).parent.parent / "examples"

# per game: players, me, two events typed in the short form, and one that contradicts them
GAMES_PLAYED = {
    "three-of-a-crime": (
        "Ana Ben Cleo",
        "Ana",
        ["card KC PT NNN 1", "card HB JC KC 0"],
        "card KC PT HB 2",
    ),
    "six-suspects": (
        "Ana Ben Cleo",
        "Ana",
        ["look A1 diamond", "look Ben C2"],
        "look B1 diamond",
    ),
    "game-of-suspicion": (
        "Ana Ben Cleo Dan",
        "Ana",
        ["deal 0 1 5 7", "look Ben left exchanged"],
        "play Cleo 4 shown Ana=0 Ben=1 Dan=0",
    ),
    "suspeicao": (
        "Ana Ben Cleo",
        "Ana",
        ["deal 7 21 33 41 hand 2 15 40 X1 first Ben", "play Ben 9 target Cleo revealed 13"],
        "play Cleo 2 target Ana revealed 14",
    ),
}


def start(web: TestClient, game: str) -> str:
    players, me, _, _ = GAMES_PLAYED[game]
    answer = web.post(
        "/new",
        data={"game": game, "players": players, "me": me, "name": f"{game}.yaml"},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return f"{game}.yaml"


def typed(web: TestClient, name: str, line: str) -> httpx.Response:
    return web.post(f"/event/{name}", data={"line": line}, follow_redirects=False)


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_a_game_typed_in_the_page_is_saved_and_solved_as_the_cli_does(tmp_path, game):
    web = client(tmp_path)
    name = start(web, game)
    _, _, lines, _ = GAMES_PLAYED[game]
    for line in lines:
        assert typed(web, name, line).status_code == 303
    saved = load(str(tmp_path / name)).data
    assert saved["events"] == [GAMES[game].parse_line(line) for line in lines]
    page = web.get(f"/log/{name}")
    assert page.status_code == 200 and "History" in page.text
    expected = GAMES[game].solve(Document(saved, str(tmp_path / name))).data
    assert web.get(f"/solve/{name}").json() == json.loads(json.dumps(expected))
    # undo removes the last event from the file
    assert web.post(f"/undo/{name}", follow_redirects=False).status_code == 303
    assert load(str(tmp_path / name)).data["events"] == saved["events"][:-1]


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_the_page_and_sleuth_play_write_the_same_file(tmp_path, game):
    """The same lines typed in `sleuth play` and in the page give the same log; each resumes
    the other's file."""
    players, me, lines, _ = GAMES_PLAYED[game]
    typed_in_play = tmp_path / "play.yaml"
    script = f"players {players}\nme {me}\n" + "\n".join(lines) + "\n"
    subprocess.run(
        [sys.executable, "-m", "cli.app", "play", game, "--log", str(typed_in_play)],
        input=script,
        text=True,
        capture_output=True,
        check=True,
        cwd=Path(__file__).parent.parent,
    )
    web = client(tmp_path)
    name = start(web, game)
    for line in lines:
        typed(web, name, line)
    assert load(str(tmp_path / name)).data == load(str(typed_in_play)).data
    # the page resumes the file `play` wrote; `play` resumes the page's
    assert typed(web, "play.yaml", "undo-is-not-an-event").status_code == 422
    assert web.post("/undo/play.yaml", follow_redirects=False).status_code == 303
    subprocess.run(
        [sys.executable, "-m", "cli.app", "play", str(tmp_path / name)],
        input="undo\n",
        text=True,
        capture_output=True,
        check=True,
        cwd=Path(__file__).parent.parent,
    )
    assert load(str(tmp_path / name)).data["events"] == load(str(typed_in_play)).data["events"]


def test_a_new_game_with_a_header_the_game_refuses_leaves_no_file(tmp_path):
    web = client(tmp_path)
    answer = web.post(
        "/new", data={"game": "six-suspects", "players": "Ana Ben", "me": "Zed", "name": "x.yaml"}
    )
    assert answer.status_code == 422 and 'role="alert"' in answer.text
    assert not (tmp_path / "x.yaml").exists()
    taken = web.post("/new", data={"game": "six-suspects", "name": "y.yaml"})
    assert taken.status_code == 200  # the new game's page, after the redirect
    again = web.post("/new", data={"game": "six-suspects", "name": "y.yaml"})
    assert again.status_code == 422 and "exists" in again.text


# per game: a mistyped event, and the word its message must name
BAD_EVENTS = {
    "six-suspects": ("look Z9 diamond", "Z9"),
    "three-of-a-crime": ("card KC PT ZZ 1", "ZZ"),
    "game-of-suspicion": ("look Ben middle exchanged", "middle"),
    "suspeicao": ("play Ben 99 target Cleo revealed 13", "99"),
}


@pytest.mark.parametrize("game", sorted(BAD_EVENTS))
def test_a_bad_event_gets_an_inline_message_and_nothing_is_lost(tmp_path, game):
    web = client(tmp_path)
    name = start(web, game)
    first = GAMES_PLAYED[game][2][0]
    typed(web, name, first)
    line, word = BAD_EVENTS[game]
    answer = typed(web, name, line)
    assert answer.status_code == 422
    assert 'role="alert"' in answer.text and word in answer.text
    assert f'value="{line}"' in answer.text  # the line stays in the box to be mended
    saved = load(str(tmp_path / name)).data
    assert saved["events"] == [GAMES[game].parse_line(first)]
    assert saved["rejected"][0]["typed"] == line
    assert web.get(f"/log/{name}").status_code == 200  # the page stays usable


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_a_contradiction_is_kept_and_its_events_highlighted(tmp_path, game):
    """Every game: an event that contradicts the log is kept (undo removes it), the page names
    the conflict and highlights exactly the events the engine names."""
    web = client(tmp_path)
    name = start(web, game)
    _, _, lines, contradiction = GAMES_PLAYED[game]
    for line in [*lines, contradiction]:
        typed(web, name, line)
    page = web.get(f"/log/{name}")
    assert "cannot all be true" in page.text
    saved = load(str(tmp_path / name))
    with pytest.raises(Contradiction) as named:
        GAMES[game].solve(saved)
    marks = re.findall(r'<li class="(conflict|)">', page.text)
    assert [i + 1 for i, mark in enumerate(marks) if mark] == named.value.events
    assert len(named.value.events) >= 2 and len(saved.data["events"]) == 3
    web.post(f"/undo/{name}")
    assert "cannot all be true" not in web.get(f"/log/{name}").text


def test_the_history_shows_what_was_known_at_an_earlier_event(tmp_path):
    web = client(tmp_path)
    name = start(web, "three-of-a-crime")
    for line in GAMES_PLAYED["three-of-a-crime"][2]:
        typed(web, name, line)
    earlier = web.get(f"/log/{name}?upto=1")
    assert "As known after event 1" in earlier.text and 'class="later"' in earlier.text


def test_the_examples_are_listed_and_open(tmp_path):
    web = client(EXAMPLES)
    index = web.get("/")
    for game in GAMES:
        assert game in index.text
    assert web.get("/log/six-suspects/worked-check.yaml").status_code == 200


# -- safety ----------------------------------------------------------------------------------------


def test_paths_that_leave_the_folder_are_refused(tmp_path):
    root = tmp_path / "served"
    root.mkdir()
    outside = tmp_path / "private.yaml"
    outside.write_text("game: six-suspects\nevents: []\n")
    (root / "link.yaml").symlink_to(outside)
    before = outside.read_text()
    web = client(root)
    assert web.get("/log/..%2Fprivate.yaml").status_code in (403, 404)
    assert web.get("/log/link.yaml").status_code == 403
    answer = typed(web, "link.yaml", "look A1 diamond")
    assert answer.status_code == 403
    answer = web.post("/new", data={"game": "six-suspects", "name": "../escape.yaml"})
    assert answer.status_code == 422
    assert outside.read_text() == before and not (tmp_path / "escape.yaml").exists()
    assert "link.yaml" not in web.get("/").text


def test_a_huge_body_is_refused_and_nothing_changes(tmp_path):
    web = client(tmp_path)
    name = start(web, "six-suspects")
    before = (tmp_path / name).read_text()
    answer = web.post(f"/event/{name}", data={"line": "look A1 diamond" + " " * 100_000})
    assert answer.status_code == 413
    assert (tmp_path / name).read_text() == before


def test_a_body_without_a_usable_length_is_refused(tmp_path):
    web = client(tmp_path)
    name = start(web, "six-suspects")
    before = (tmp_path / name).read_text()
    bad = web.post(f"/event/{name}", content=b"line=x", headers={"content-length": "lots"})
    assert bad.status_code == 400

    def chunks():
        for _ in range(100):
            yield b"line=" + b"x" * 1000

    streamed = web.post(
        f"/event/{name}",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert streamed.status_code == 413
    assert (tmp_path / name).read_text() == before


def test_off_this_machine_every_request_needs_the_token(tmp_path):
    web = client(tmp_path, token="s3cret")
    assert web.get("/").status_code == 403
    answer = web.post("/new", data={"game": "six-suspects", "name": "x.yaml"})
    assert answer.status_code == 403 and not (tmp_path / "x.yaml").exists()
    assert web.get("/?token=wrong").status_code == 403
    assert web.get("/?token=s3cret").status_code == 200  # and the cookie is kept
    assert web.get("/").status_code == 200
    assert start(web, "six-suspects") == "six-suspects.yaml"


def test_a_change_from_another_origin_is_refused(tmp_path):
    web = client(tmp_path)
    name = start(web, "six-suspects")
    before = (tmp_path / name).read_text()
    answer = web.post(
        f"/event/{name}",
        data={"line": "look A1 diamond"},
        headers={"origin": "http://evil.example"},
    )
    assert answer.status_code == 403 and (tmp_path / name).read_text() == before


# -- the real server -------------------------------------------------------------------------------


def test_sleuth_serve_starts_quickly_and_prints_the_url(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.app", "serve", str(EXAMPLES), "--port", "8799"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).parent.parent,
    )
    try:
        started = time.monotonic()
        assert server.stderr is not None
        line = server.stderr.readline()
        url = re.search(r"http://\S+", line)
        assert url, line
        for _ in range(100):
            try:
                page = httpx.get(url.group(0), timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        took = time.monotonic() - started
        assert page.status_code == 200 and "six-suspects" in page.text
        assert took < 10  # the issue asks for 3 s; the margin is for a loaded CI machine
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_refuses_a_folder_that_does_not_exist(tmp_path):
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a folder" in result.stderr


def test_tapped_choices_become_the_typed_line(tmp_path):
    web = client(tmp_path)
    name = start(web, "six-suspects")
    answer = web.post(
        f"/tap/{name}", data={"form": "0", "slot": "A1", "card": "diamond"}, follow_redirects=False
    )
    assert answer.status_code == 303
    missing = web.post(f"/tap/{name}", data={"form": "0", "slot": "B1"})
    assert missing.status_code == 422 and "choose one for" in missing.text
    no_such_form = web.post(f"/tap/{name}", data={"form": "9"})
    assert no_such_form.status_code == 422
    saved = load(str(tmp_path / name)).data
    assert saved["events"] == [GAMES["six-suspects"].parse_line("look A1 diamond")]


def test_a_card_needs_three_suspects_tapped(tmp_path):
    web = client(tmp_path)
    name = start(web, "three-of-a-crime")
    answer = web.post(f"/tap/{name}", data={"form": "0", "suspects": ["KC", "PT"], "token": "1"})
    assert answer.status_code == 422 and "choose 3 of them" in answer.text
    assert load(str(tmp_path / name)).data["events"] == []


def test_two_phones_adding_at_once_lose_no_event(tmp_path):
    """Events POSTed at the same moment to one log are all kept (one request per log at a
    time: none adds to a stale copy). Each request waits for its own work: past the page's
    usual wait it would answer before its event is saved."""
    from concurrent.futures import ThreadPoolExecutor

    from models.six_suspects.rules import load_deck

    app = create_app(tmp_path, wait=120)
    name = start(TestClient(app, base_url="http://127.0.0.1:8765"), "six-suspects")
    cards = [c.name for c in load_deck().cards]
    lines = [
        f"look {slot} {card}"
        for slot, card in zip(("A1", "B1", "C1", "D1"), cards[:4], strict=True)
    ]

    def post(line: str) -> int:
        web = TestClient(app, base_url="http://127.0.0.1:8765")
        return web.post(f"/event/{name}", data={"line": line}, follow_redirects=False).status_code

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(post, lines)) == [303] * 4
    saved = load(str(tmp_path / name)).data["events"]
    expected = [GAMES["six-suspects"].parse_line(line) for line in lines]
    assert sorted(map(str, saved)) == sorted(map(str, expected))


def test_a_second_tap_does_not_start_a_second_count(tmp_path, monkeypatch):
    """Two requests for the same page at once: the engine counts once (the second waits for the
    first's report). The real engine, slowed down so that the two requests overlap."""
    from concurrent.futures import ThreadPoolExecutor

    app = create_app(tmp_path)
    name = start(TestClient(app, base_url="http://127.0.0.1:8765"), "six-suspects")
    game = GAMES["six-suspects"]
    counted = []
    real_view = type(game).view

    def slow_view(self, doc):
        counted.append(1)
        time.sleep(0.3)
        return real_view(self, doc)

    monkeypatch.setattr(type(game), "view", slow_view)
    counted.clear()

    def get(_: int) -> int:
        return TestClient(app, base_url="http://127.0.0.1:8765").get(f"/log/{name}").status_code

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(get, range(2))) == [200, 200]
    assert len(counted) == 1


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "try another --port" in result.stderr


class SlowView:
    """The real engine's view of six-suspects, slowed down by `seconds` (counted per call)."""

    def __init__(self, monkeypatch, seconds: float):
        self.calls = 0
        game = type(GAMES["six-suspects"])
        real_view = game.view

        def slow_view(game_self, doc):
            self.calls += 1
            time.sleep(seconds)
            return real_view(game_self, doc)

        monkeypatch.setattr(game, "view", slow_view)


def wait_until_counted(web: TestClient, name: str, seconds: float = 10) -> httpx.Response:
    """The log's page once it no longer says "counting" (as the page's own refresh would)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = web.get(f"/log/{name}")
        if "Counting" not in answer.text:
            return answer
        time.sleep(0.1)
    raise AssertionError("still counting")


def test_a_long_count_answers_at_once_and_shows_its_progress(tmp_path, monkeypatch):
    """An event whose check takes longer than the wait: the POST answers within the wait, the
    page says what is counted and refreshes itself, the event is saved when the check ends,
    and the pages asked for meanwhile start no second count."""
    web = TestClient(create_app(tmp_path, wait=0.2), base_url="http://127.0.0.1:8765")
    name = start(web, "six-suspects")
    slow = SlowView(monkeypatch, 1.5)
    began = time.monotonic()
    answer = typed(web, name, "look A1 diamond")
    assert answer.status_code == 303 and time.monotonic() - began < 1.0
    counting = web.get(f"/log/{name}")
    assert "Counting the event 'look A1 diamond'" in html.unescape(counting.text)
    assert '<meta http-equiv="refresh"' in counting.text
    assert load(str(tmp_path / name)).data["events"] == []  # saved once checked, not before
    done = wait_until_counted(web, name)
    assert done.status_code == 200 and "look" in done.text
    assert load(str(tmp_path / name)).data["events"] == [
        GAMES["six-suspects"].parse_line("look A1 diamond")
    ]
    assert slow.calls == 1  # the pages asked for while it counted waited for its report
    # the next long count shows an estimate from this one
    typed(web, name, "look B1 swap")
    assert re.search(r'<progress max="100" value="\d+">', web.get(f"/log/{name}").text)
    wait_until_counted(web, name)


def test_an_event_refused_after_a_long_check_is_shown_on_the_next_page(tmp_path, monkeypatch):
    web = TestClient(create_app(tmp_path, wait=0.2), base_url="http://127.0.0.1:8765")
    name = start(web, "six-suspects")
    typed(web, name, "look A1 diamond")
    SlowView(monkeypatch, 1.0)
    assert typed(web, name, "look A1 knife").status_code == 303  # A1 is already known
    refused = wait_until_counted(web, name)
    assert refused.status_code == 422 and 'role="alert"' in refused.text
    assert "not added" in refused.text
    assert web.get(f"/log/{name}").status_code == 200  # said once
    saved = load(str(tmp_path / name)).data
    assert len(saved["events"]) == 1 and saved["rejected"][0]["typed"] == "look A1 knife"


def test_other_logs_are_served_while_one_counts(tmp_path, monkeypatch):
    app = create_app(tmp_path, wait=0.2)
    web = TestClient(app, base_url="http://127.0.0.1:8765")
    name = start(web, "six-suspects")
    other = start(web, "three-of-a-crime")
    SlowView(monkeypatch, 2.0)
    typed(web, name, "look A1 diamond")
    began = time.monotonic()
    assert web.get(f"/log/{other}").status_code == 200
    assert web.get("/").status_code == 200
    assert time.monotonic() - began < 1.0
    wait_until_counted(web, name)


def test_a_log_whose_deck_lies_outside_the_folder_is_refused(tmp_path):
    """A log in DIR cannot make the server read a file outside DIR through its `deck:`."""
    served, outside = tmp_path / "served", tmp_path / "outside"
    served.mkdir()
    outside.mkdir()
    deck = EXAMPLES.parent / "models" / "six_suspects" / "deck.yaml"
    (outside / "deck.yaml").write_text(deck.read_text())
    (served / "deck.yaml").write_text(deck.read_text())
    for name, where in (("far.yaml", "../outside/deck.yaml"), ("near.yaml", "deck.yaml")):
        (served / name).write_text(f"game: six-suspects\ndeck: {where}\nevents: []\n")
    web = client(served)
    far = web.get("/log/far.yaml")
    assert far.status_code == 403 and "outside the served folder" in far.text
    assert web.get("/solve/far.yaml").status_code == 403
    assert typed(web, "far.yaml", "look A1 diamond").status_code == 403
    assert "look" not in (served / "far.yaml").read_text()
    assert web.get("/log/near.yaml").status_code == 200


@pytest.mark.parametrize(
    "example",
    [
        "three-of-a-crime/multi-round.yaml",
        "six-suspects/worked-check.yaml",
        "game-of-suspicion/round-4p.yaml",
        "suspeicao/round-4p.yaml",
    ],
)
def test_the_page_shows_the_move_sleuth_suggest_advises(tmp_path, example):
    """The game page's suggested move is `sleuth suggest`'s (its lines, and every option in a
    table), and /suggest gives what `suggest --json` prints."""
    (tmp_path / "log.yaml").write_text((EXAMPLES / example).read_text())
    shown = html.unescape(client(tmp_path).get("/log/log.yaml").text)
    advice = shown[shown.index("<h2>Suggested move</h2>") :]
    doc = load(str(EXAMPLES / example))
    report = GAMES[doc.data["game"]].suggest(doc)
    assert report.lines and all(f"<p>{line}</p>" in advice for line in report.lines)
    for table in report.tables:
        assert f"<h3>{table.title}</h3>" in advice
    result = CliRunner().invoke(cli, ["suggest", str(EXAMPLES / example), "--json"])
    assert client(tmp_path).get("/suggest/log.yaml").json() == json.loads(result.stdout)


def test_six_suspects_page_grid_and_advice_name_the_same_look(tmp_path):
    """One advice for every front end: the web page's grid marks the look its "Suggested move"
    ranks first, with the same value, as `suggest` and `play` do."""
    (tmp_path / "log.yaml").write_text((EXAMPLES / "six-suspects/worked-check.yaml").read_text())
    web = client(tmp_path)
    shown = html.unescape(web.get("/log/log.yaml").text)
    advised = web.get("/suggest/log.yaml").json()
    best = advised["looks"][0]
    assert f"suggested next look: {best['slot']} (optimal: p(vote hits) = {best['p_hit']:.3f}" in (
        shown
    )


def test_a_game_that_cannot_advise_says_why_on_its_page(tmp_path):
    """A new Game of Suspicion log has no deal yet, so `suggest` has nothing to advise: the page
    says why in its words, and shows the rest."""
    web = client(tmp_path)
    answer = web.post(
        "/new",
        data={"game": "game-of-suspicion", "players": "Ana Ben Cleo Dan", "name": "x.yaml"},
        follow_redirects=True,
    )
    doc = load(str(tmp_path / "x.yaml"))
    with pytest.raises(SleuthError) as why:
        GAMES["game-of-suspicion"].suggest(doc)
    assert answer.status_code == 200
    assert str(why.value) in html.unescape(answer.text).split("Suggested move")[1]


def test_another_players_look_is_one_tap_on_the_table_grid(tmp_path):
    """6 Suspects: each other player has a form whose slots are buttons that add the look at
    once, laid out as the table's 2×6 grid (row 1: A1 to F1)."""
    web = client(tmp_path)
    name = start(web, "six-suspects")
    page = web.get(f"/log/{name}").text
    form = page[page.index("Ben looked at") :]
    form = form[: form.index("</form>")]
    slots = re.findall(r'<button type="submit" class="choice" name="slot" value="(\w+)">', form)
    assert slots == [f"{c}{r}" for r in (1, 2) for c in "ABCDEF"]
    assert "repeat(6, 1fr)" in form and "Add:" not in form
    index = re.findall(r'name="form" value="(\d+)"', page)[
        page[: page.index("Ben looked at")].count('name="form"')
    ]
    answer = web.post(f"/tap/{name}", data={"form": index, "slot": "C2"}, follow_redirects=False)
    assert answer.status_code == 303
    assert load(str(tmp_path / name)).data["events"] == [{"look": {"by": "Ben", "slot": "C2"}}]


def test_a_new_game_takes_the_headers_options(tmp_path):
    """Options are written as in a log's header (`advanced: true`); options that cannot be read,
    that repeat the form's own fields or name a deck outside the folder leave no file."""
    web = client(tmp_path)

    def new(name: str, options: str) -> httpx.Response:
        data = {"game": "game-of-suspicion", "players": "Ana Ben Cleo", "me": "Ana"}
        return web.post("/new", data={**data, "name": name, "options": options})

    assert new("advanced.yaml", "advanced: true").status_code == 200
    saved = load(str(tmp_path / "advanced.yaml")).data
    assert saved["advanced"] is True and saved["players"] == ["Ana", "Ben", "Cleo"]
    page = web.get("/log/advanced.yaml").text
    assert 'value="10"' in page  # the advanced game's 10 is offered in the forms
    for name, options, says in (
        ("broken.yaml", "advanced: [true", "not YAML"),
        ("list.yaml", "[advanced]", "keys and values"),
        ("me.yaml", "me: Ben", "cannot set me"),
        ("far.yaml", "deck: ../elsewhere.yaml", "outside the served folder"),
    ):
        answer = new(name, options)
        assert answer.status_code in (403, 422) and says in html.unescape(answer.text), answer.text
        assert not (tmp_path / name).exists()


def test_a_certain_fact_on_the_page_links_to_its_explanation(tmp_path):
    """Each report line that is a certain fact links to `sleuth explain` of that fact: the page
    shows the same chain as the command line; a fact that does not exist is one inline line."""
    (tmp_path / "log.yaml").write_text(
        (EXAMPLES / "three-of-a-crime" / "multi-round.yaml").read_text()
    )
    web = client(tmp_path)
    page = html.unescape(web.get("/log/log.yaml").text)
    links = re.findall(r'<a class="fact" href="/explain/log.yaml\?fact=([^"]+)"', page)
    solved = GAMES["three-of-a-crime"].solve(load(str(tmp_path / "log.yaml"))).data
    assert len(links) == len(solved["certain"]) > 0
    result = CliRunner().invoke(
        cli, ["explain", str(tmp_path / "log.yaml"), "NNN guilty", "--json"]
    )
    chain = json.loads(result.stdout)["chain"]
    shown = html.unescape(web.get("/explain/log.yaml", params={"fact": "NNN guilty"}).text)
    assert all(f"event {s['event']}: {s['text']}" in shown for s in chain)
    missing = web.get("/explain/log.yaml", params={"fact": "nobody guilty"})
    assert missing.status_code == 422 and 'role="alert"' in missing.text
