"""`sleuth serve` in a real headless Chromium at a phone's size (390×844): for each game, a
short game played in the page, the saved log checked against the expected one, the numbers
shown checked against the engine's report, and a screenshot of the page for the docs.

The browser is the system's (Debian's `chromium`), driven by Playwright (its own browser
download cannot be reached here). Without it these tests
are skipped with one line, unless SLEUTH_BROWSER_TESTS=required (as `.ci/run` sets), which
makes a missing browser a failure."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from models import GAMES
from solver.logfile import Document, load

ROOT = Path(__file__).parent.parent
# where the screenshots go: a temporary folder, or the docs when asked
# (SLEUTH_SCREENSHOTS=docs/screenshots pytest tests/test_web_browser.py)
SHOTS_WANTED = os.environ.get("SLEUTH_SCREENSHOTS")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None:
    if os.environ.get("SLEUTH_BROWSER_TESTS") == "required":
        raise RuntimeError("SLEUTH_BROWSER_TESTS=required but no chromium is installed")
    pytest.skip(
        "no chromium here: the browser tests of sleuth serve are skipped", allow_module_level=True
    )

sync_api = pytest.importorskip("playwright.sync_api")

GAMES_PLAYED = {
    "three-of-a-crime": ("Ana Ben Cleo", "Ana", ["card KC PT NNN 1", "card HB JC KC 0"]),
    "six-suspects": ("Ana Ben Cleo", "Ana", ["look A1 diamond", "look Ben C2", "look B2 swap"]),
    "game-of-suspicion": ("Ana Ben Cleo Dan", "Ana", ["deal 0 1 5 7", "look Ben left exchanged"]),
    "suspeicao": (
        "Ana Ben Cleo",
        "Ana",
        ["deal 7 21 33 41 hand 2 15 40 X1 first Ben", "play Ben 9 target Cleo revealed 13"],
    ),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real `sleuth serve` of a fresh folder, and its URL."""
    folder = tmp_path_factory.mktemp("served")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.app", "serve", str(folder), "--port", str(port)],
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(200):
        try:
            httpx.get(url, timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    yield folder, url
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="module")
def phone():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        yield page
        browser.close()


def submit(page, target) -> None:
    """Click `target` (a selector or a locator) and wait until the page its form leads to has
    loaded: a click alone may return before the navigation starts, and a check made then reads
    the old page."""
    with page.expect_navigation():
        (page.locator(target) if isinstance(target, str) else target).click()


def new_game(page, url: str, game: str, name: str) -> None:
    """Start a game of `game` from the front page (its players and me), saved as `name`."""
    players, me, _ = GAMES_PLAYED[game]
    page.goto(url)
    page.select_option("select[name=game]", game)
    page.fill("input[name=players]", players)
    page.fill("input[name=me]", me)
    page.fill("input[name=name]", name)
    page.click("text=Start")
    page.wait_for_url(re.compile(f"/log/{re.escape(name)}$"))


@pytest.mark.parametrize("game", sorted(GAMES_PLAYED))
def test_a_short_game_played_in_the_browser(served, phone, game, tmp_path):
    folder, url = served
    _, _, lines = GAMES_PLAYED[game]
    page = phone
    new_game(page, url, game, f"{game}.yaml")
    for line in lines:
        page.fill("#line", line)
        submit(page, "form[action^='/event'] button")
    # a mistyped event: an inline message, nothing lost, the page still usable
    page.fill("#line", "nonsense here")
    submit(page, "form[action^='/event'] button")
    # under load the page first says "counting", and shows the refusal when it reloads
    sync_api.expect(page.locator("[role=alert]")).to_be_visible(timeout=120_000)
    saved = load(str(folder / f"{game}.yaml")).data
    assert saved["events"] == [GAMES[game].parse_line(line) for line in lines]
    assert saved["rejected"][0]["typed"] == "nonsense here"
    settled(page, f"{url}log/{game}.yaml")
    report = GAMES[game].view(Document(saved, str(folder / f"{game}.yaml")))
    shown_tables = page.locator("#report table").all()
    assert len(shown_tables) == len(report.tables)
    for shown, table in zip(shown_tables, report.tables, strict=True):
        cells = [c.inner_text().strip() for c in shown.locator("td").all()]
        assert cells == [cell for row in table.rows for cell in row]
    # targets a thumb can hit (buttons, and the choices of the open tap form)
    for target in page.locator("button:visible, .choices label:visible").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    shots = Path(SHOTS_WANTED) if SHOTS_WANTED else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"{game}.png"), full_page=True)
    assert (shots / f"{game}.png").stat().st_size > 10_000  # a page, not a blank
    # undo by tapping
    submit(page, "button:has-text('Undo')")
    assert load(str(folder / f"{game}.yaml")).data["events"] == saved["events"][:-1]


# the events tapped in, per game: (form label, the choices tapped in each of its parts, in
# order; a drop-down list's one choice) -> the line it must give
TAPPED = {
    "six-suspects": [
        ("My look", [["A1"], ["diamond"]], "look A1 diamond"),
        ("Ben looked at", [["C2"]], "look Ben C2"),  # one tap
        ("My look", [["B2"], ["swap"]], "look B2 swap"),
    ],
    "game-of-suspicion": [
        ("The deal (a new round)", [["0"], ["1"], ["5"], ["7"], []], "deal 0 1 5 7"),
        (
            "Another player's middle look",
            [["Ben"], ["left"], ["exchanged"]],
            "look Ben left exchanged",
        ),
        (  # the turns in seat order: Ben, Cleo, Dan, Ana
            "Card 4 or 5 played: how many each showed",
            [["Cleo"], ["4"], ["2"], ["1"], [], ["0"]],
            "play Cleo 4 shown Ana=2 Ben=1 Dan=0",
        ),
        (
            "Card 1 played",
            [["Dan"], ["5"], ["Ana"], [], ["0"]],
            "play Dan 1 named 5 holder Ana got 0",
        ),
        ("My middle look, exchanged", [["right"], ["6"], ["1"]], "look right saw 6 put 1"),
    ],
    "suspeicao": [
        (
            "The deal",
            [["7"], ["21"], ["33"], ["41"], ["2"], ["15"], ["40"], ["X1"], ["Ben"]],
            "deal 7 21 33 41 hand 2 15 40 X1 first Ben",
        ),
        (
            "A FORCE claimed none (polygraph)",
            [["Ben"], ["8"], ["Ana"], ["40"], ["X1"], []],
            "play Ben 8 target Ana none polygraph 40 returned X1",
        ),
        ("A REVEAL", [["Cleo"], ["9"], ["Ben"], ["13"], []], "play Cleo 9 target Ben revealed 13"),
        (
            "A REVEAL",
            [["Ana"], ["2"], ["Cleo"], ["17"], ["44", "5"]],
            "play Ana 2 target Cleo revealed 17 drew 5 44",
        ),
    ],
    "three-of-a-crime": [
        ("A new round", [["Ben"]], "round Ben"),  # one tap: the round's eyewitness is recorded
        # three suspects tapped come in the list's order, whatever the order of the taps
        ("A face-up card and its token", [["PT", "KC", "NNN"], ["1"], []], "card KC NNN PT 1"),
        ("An accusation", [["Cleo"], ["HB", "JC", "KC"], ["wrong"]], "accuse Cleo HB JC KC wrong"),
    ],
}


def tap(page, label: str, parts: list[list[str]]) -> None:
    """Open the tap form `label`, tap each part's choices (or pick it in its drop-down list),
    and add the event."""
    form = page.locator("details.tap", has=page.locator(f'summary:text-is("{label}")'))
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    for fieldset, choices in zip(form.locator("fieldset").all(), parts, strict=True):
        picker = fieldset.locator("select")
        if picker.count():
            picker.select_option(choices[0] if choices else "")
            continue
        instant = fieldset.locator("button.choice")
        if instant.count():  # one tap adds the event
            submit(page, fieldset.locator(f'button.choice:text-is("{choices[0]}")'))
            return
        for choice in choices:
            fieldset.locator(f'.choices label:text-is("{choice}")').click()
    submit(page, form.locator("button"))


def probabilities(data: object) -> set[float]:
    """Every probability in a `solve --json` answer."""
    if isinstance(data, dict):
        return set().union(*(probabilities(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(probabilities(v) for v in data))
    if isinstance(data, (int, float)) and not isinstance(data, bool) and 0 <= data <= 1:
        return {float(data)}
    return set()


def one_of(shown: str, values: set[float]) -> bool:
    """Whether a number shown (to some places) is one of `values` written to as many places."""
    places = len(shown.partition(".")[2])
    return any(f"{v:.{places}f}" == shown for v in values)


@pytest.mark.parametrize("game", sorted(TAPPED))
def test_a_short_game_entered_by_tapping(served, phone, game):
    """A short game of every kind tapped in, the deal too: the log saved is the
    one the typed lines give; each probability shown as a bar is one of `sleuth solve --json`'s
    on the saved log, and the page's own JSON is that of the command line; no request leaves
    this machine."""
    folder, url = served
    page = phone
    asked: list[str] = []

    def remember(request) -> None:
        asked.append(request.url)

    page.on("request", remember)
    try:
        play_by_tapping(page, url, game)
    finally:
        page.remove_listener("request", remember)
    path = folder / f"tapped-{game}.yaml"
    saved = load(str(path)).data
    lines = [line for _, _, line in TAPPED[game]]
    assert saved["events"] == [GAMES[game].parse_line(line) for line in lines]
    solved = subprocess.run(
        [sys.executable, "-m", "cli.app", "solve", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    cli_json = json.loads(solved.stdout)
    settled(page, f"{url}log/tapped-{game}.yaml")  # the page itself, not "counting"
    bars = [b.inner_text().strip() for b in page.locator("#report td.bar").all()]
    exact = probabilities(cli_json)
    assert bars and all(one_of(bar, exact) for bar in bars), (bars, cli_json)
    assert httpx.get(f"{url}solve/tapped-{game}.yaml").json() == cli_json
    assert asked and all(u.startswith(url) for u in asked), asked


def play_by_tapping(page, url: str, game: str) -> None:
    new_game(page, url, game, f"tapped-{game}.yaml")
    for label, parts, _ in TAPPED[game]:
        tap(page, label, parts)
        assert not page.locator("[role=alert]").count(), page.locator("[role=alert]").inner_text()


def settled(page, address: str) -> None:
    """Go to `address` and wait until it is the page itself, not the "counting" page that a
    long count shows first (it reloads itself; its reload may overtake a navigation, which is
    then made again)."""
    for _ in range(600):
        try:
            page.goto(address)
        except sync_api.Error:  # the counting page's own reload aborted this navigation
            continue
        if not page.locator('meta[http-equiv="refresh"]').count():
            return
        time.sleep(0.5)
    raise AssertionError(f"{address} is still counting")


SIZES = {"360 px": (360, 640), "landscape": (640, 360)}


def test_every_game_page_fits_a_small_phone_and_landscape(served, phone):
    """At 360 px wide and in landscape, no page scrolls sideways (wide tables scroll within
    themselves) and every visible target is at least 44 px: the front page, the puzzle page,
    and the page of each bundled example log and puzzle of every game, served as they are (each
    page loaded once and laid out at both sizes)."""
    folder, url = served
    addresses = ["", "puzzles"]
    for game in GAMES:
        for example in sorted((ROOT / "examples" / game).glob("*.yaml")):
            shutil.copy(example, folder / f"fit-{game}-{example.name}")
            kind = "puzzle" if "puzzle" in load(str(example)).data else "log"
            addresses.append(f"{kind}/fit-{game}-{example.name}")
    targets = "button:visible, .choices label:visible, select:visible, summary:visible"
    try:
        for address in addresses:
            settled(phone, f"{url}{address}")
            for size, (width, height) in SIZES.items():
                phone.set_viewport_size({"width": width, "height": height})
                overflow = phone.evaluate("document.documentElement.scrollWidth")
                assert overflow <= width, (address, size, overflow)
                for target in phone.locator(targets).all():
                    box = target.bounding_box()
                    assert box is not None and box["height"] >= 44 and box["width"] >= 44, (
                        address,
                        size,
                        target.inner_text()[:40],
                        box,
                    )
            phone.set_viewport_size({"width": 390, "height": 844})
    finally:
        phone.set_viewport_size({"width": 390, "height": 844})
    assert len(addresses) > 2 * len(GAMES)


def test_a_puzzle_pasted_in_the_browser_is_checked_and_saved(served, phone, tmp_path):
    """The puzzle page at a phone's size: a puzzle pasted and checked shows what `sleuth check
    --json` finds; "Check and save" writes it under DIR; a generated puzzle can be checked."""
    folder, url = served
    example = ROOT / "examples" / "six-suspects" / "puzzle-ambiguous.yaml"
    expected = json.loads(
        subprocess.run(
            [sys.executable, "-m", "cli.app", "check", str(example), "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout
    )
    page = phone
    page.goto(f"{url}puzzles")
    page.fill("#text", example.read_text())
    page.fill("input[name=save_as]", "pasted.yaml")
    submit(page, "button[value=save]")
    shown = page.locator("body").inner_text()
    assert expected["unique"] is False and "not unique" in shown.lower()
    assert load(str(folder / "pasted.yaml")).data == load(str(example)).data
    shots = Path(SHOTS_WANTED) if SHOTS_WANTED else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "puzzle.png"), full_page=True)
    page.goto(f"{url}puzzles")
    page.select_option("form:has(input[value=generate]) select[name=game]", "three-of-a-crime")
    page.fill("input[name=seed]", "7")
    submit(page, 'button:text-is("Generate")')
    submit(page, page.locator("form.generated button[value=check]").first)
    assert "unique" in page.locator("body").inner_text().lower()
