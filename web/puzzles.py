"""The puzzle pages of `sleuth serve`: a puzzle file's `check`; a pasted or uploaded puzzle
checked (and saved under DIR if asked); `generate`.

Like the game pages they hold no game logic: a puzzle is read with the CLI's loaders and its
game is the one `sleuth check` picks (`models.game_of`); `check` and `generate` are the game
methods the CLI calls, with the same arguments. This module only lays the report's data out
as tables (the same numbers `check --json` prints) and keeps the folder safe: every file name,
a puzzle's `deck:` included, goes through `web.app.inside`, and a saved puzzle never replaces a
file. Checks and generation run in a worker thread; a puzzle file's report is remembered while
the file is unchanged, and one check per file runs at a time (a second visit waits for the
first and finds its report).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from models import GAMES, game_of, jobs
from solver.errors import InputError, SleuthError
from solver.files import read_text
from solver.logfile import Document, as_whole, dump, load, parse_text, whole_number
from solver.names import NameSet
from solver.puzzle import checked as checked_puzzle
from solver.report import Report, Table
from web.counting import Counts, Work

MAX_GENERATED = 5  # puzzles per `generate` request: each can take seconds
KEPT_GENERATIONS = 20  # generations whose page (progress, then puzzles) can still be opened
PASTED = "the pasted puzzle"  # a pasted puzzle's name in error messages


def puzzle_routes(
    root: Path,
    render: Callable[..., Response],
    counts: Counts,
    counting_page: Callable[..., Response],
) -> list[Route]:
    """The routes of the puzzle pages for the folder `root` (already resolved); `render` is
    the app's `page(template, status, **values)`; `counts` runs a generation as a long count
    of a log runs, and `counting_page` is its progress page (web/counting.py)."""
    from web.app import (  # web.app imports us
        LOG_SUFFIXES,
        Refused,
        confine_deck,
        form_of,
        inside,
        listing,
        shown,
    )

    remembered: dict[Path, tuple[tuple[int, int], Report]] = {}  # per file: its stat, its report
    locks: dict[Path, threading.Lock] = {}
    locks_lock = threading.Lock()

    def confined(doc: Document) -> Document:
        """`doc`, once a deck file it names is known to lie under DIR (a puzzle is someone
        else's text: it must not make the server read a file outside the folder)."""
        try:
            return confine_deck(root, doc)
        except Refused as refused:
            raise InputError(refused.message) from None

    def confined_check(doc: Document) -> Report:
        return checked_puzzle(game_of(confined(doc)), doc)

    def file_report(name: str) -> tuple[Document, Report]:
        """The file's document and report (remembered while the file is unchanged); in a
        worker thread."""
        path = inside(root, name)
        if not path.is_file():
            raise Refused(404, f"no puzzle named {name!r} here")
        with locks_lock:
            lock = locks.setdefault(path.resolve(), threading.Lock())
        with lock:
            stat = path.stat()
            doc = load(path)
            key = (stat.st_mtime_ns, stat.st_size)
            if path in remembered and remembered[path][0] == key:
                return doc, remembered[path][1]
            report = confined_check(doc)
            if "deck" not in doc.data:  # a deck file may change unseen: such a file is rechecked
                remembered[path] = (key, report)
            return doc, report

    def result_page(
        template: str, status: int, doc: Document | None, report: Report | None, **values: Any
    ) -> Response:
        shown_report = shown(result_tables(doc, report)) if doc and report else None
        return render(template, status, report=shown_report, **values)

    async def puzzle_page(request: Request) -> Response:
        name = request.path_params["name"]

        def work() -> Response:
            try:
                doc, report = file_report(name)
            except SleuthError as error:
                return render(
                    "puzzle.html", 422, name=name, error=str(error), text=text_of_file(name)
                )
            return result_page("puzzle.html", 200, doc, report, name=name, text=text_of_file(name))

        return await run_in_threadpool(work)

    def text_of_file(name: str) -> str:
        try:
            return read_text(inside(root, name), name)
        except (SleuthError, Refused):
            return ""

    async def check_json(request: Request) -> Response:
        """What `sleuth check --json` prints for the file."""
        name = request.path_params["name"]

        def work() -> Response:
            try:
                return JSONResponse(file_report(name)[1].data)
            except SleuthError as error:
                return JSONResponse(error.to_json(), 422)

        return await run_in_threadpool(work)

    def desk(
        status: int = 200, doc: Document | None = None, found: Report | None = None, **values: Any
    ) -> Response:
        """The /puzzles page: its forms, the folder's puzzles, and what a request found (a
        checked puzzle's `doc` and report, an error, generated puzzles)."""
        puzzles = [entry for entry in listing(root) if entry["kind"] == "puzzle"]
        values.setdefault("options", {})
        return result_page(
            "puzzles.html",
            status,
            doc,
            found,
            puzzles=puzzles,
            games=sorted(GAMES),
            limit=MAX_GENERATED,
            **values,
        )

    def check_text(text: str, label: str, save_as: str) -> Response:
        """Check a pasted or uploaded puzzle; `save_as` (a name under DIR): then save it, once
        the check found no error, and show its page."""
        values: dict[str, Any] = {"text": text, "save_as": save_as}
        try:
            path = None
            if save_as:
                path = inside(
                    root, save_as if save_as.endswith(LOG_SUFFIXES) else save_as + ".yaml"
                )
                if path.exists() or path.is_symlink():
                    raise InputError(f"{save_as!r} already exists: choose another name")
            doc = replace(parse_text(text, label), path=str(path or root / "pasted.yaml"))
            report = confined_check(doc)  # a deck it names is found beside where it would be saved
            if path is not None:
                write_new(path, text, save_as)
                stat = path.stat()
                if "deck" not in doc.data:
                    remembered[path] = ((stat.st_mtime_ns, stat.st_size), report)
                return RedirectResponse(f"/puzzle/{path.relative_to(root).as_posix()}", 303)
        except (SleuthError, Refused) as error:
            return desk(422, error=str(error), **values)
        return desk(200, doc=doc, found=report, **values)

    def generated(options: dict[str, str]) -> Response:
        """`sleuth generate`'s puzzles for the form's options, each as YAML to check or save."""
        try:
            game, count, seed, difficulty, visible = generate_options(options)
            # the CLI's chunks and seeds, in this process (a page asks for a few puzzles)
            made = jobs.generate(game, count, seed, difficulty, visible, workers=1)
        except SleuthError as error:
            return desk(422, error=str(error), options=options)
        return desk(200, generated=[dump(p) for p in made], options=options)

    generations: dict[int, tuple[str, Work]] = {}  # the last KEPT_GENERATIONS, by number
    numbers = itertools.count(1)

    async def generate(form: FormData) -> Response:
        """Generate in the background, as a long count runs: the answer if it comes within
        the wait, else the progress page of this generation (`/generating/N`), which becomes
        the answer when it is done. The estimate is the last generation of as many puzzles
        of that game."""
        options = {
            k: str(form.get(k, "")).strip()
            for k in ("game", "count", "seed", "difficulty", "visible")
        }
        try:
            game, count, *_ = generate_options(options)
        except SleuthError as error:
            return await run_in_threadpool(desk, 422, error=str(error), options=options)
        key = f"generate {game.name} {count}"
        what = f"{count} puzzle{'s' if count > 1 else ''} of {game.title}"
        piece = counts.start(key, what, lambda: generated(options))
        if await counts.waited(piece, own=False):
            assert piece.answer is not None
            return piece.answer
        number = next(numbers)
        generations[number] = (key, piece)
        for old in [n for n in generations if n <= number - KEPT_GENERATIONS]:
            del generations[old]
        return RedirectResponse(f"/generating/{number}", 303)

    async def generating(request: Request) -> Response:
        """A generation's progress page while it runs, then its puzzles."""
        number = whole_number(request.path_params["number"])
        if number is None or number not in generations:
            raise Refused(404, "no such generation here (the server keeps the last few)")
        key, piece = generations[number]
        if piece.done.is_set():
            assert piece.answer is not None
            return piece.answer
        return counting_page(
            "New puzzles",
            key,
            verb="Generating",
            earlier="the last generation of as many puzzles of this game",
            again=f"/generating/{number}",
            note="The puzzles are shown here when they are made.",
            back="/puzzles",
        )

    async def puzzles_page(request: Request) -> Response:
        if request.method == "GET":
            return await run_in_threadpool(desk)
        form = await form_of(request)
        action = str(form.get("action", "check"))
        if action == "generate":
            return await generate(form)
        save_as = str(form.get("save_as", "")).strip() if action == "save" else ""
        if action == "save" and not save_as:
            text = str(form.get("text", ""))
            return desk(422, error="give the puzzle a file name to save it as", text=text)
        try:
            text, label = await given_text(form)
        except SleuthError as error:
            return desk(422, error=str(error), text=str(form.get("text", "")), save_as=save_as)
        if not text.strip():
            return desk(422, error="paste a puzzle or choose a file first", save_as=save_as)
        return await run_in_threadpool(check_text, text, label, save_as)

    return [
        Route("/puzzles", puzzles_page, methods=["GET", "POST"]),
        Route("/puzzle/{name:path}", puzzle_page),
        Route("/check/{name:path}", check_json),
        Route("/generating/{number}", generating),
    ]


# -- reading the forms ---------------------------------------------------------------------------


async def given_text(form: FormData) -> tuple[str, str]:
    """The puzzle's text and its name for messages: the uploaded file when one was chosen,
    else the pasted text (browsers send a textarea's lines ending in CR LF)."""
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        label = Path(upload.filename.replace("\\", "/")).name or "the uploaded file"
        try:
            text = (await upload.read()).decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"cannot read {label}: not UTF-8 text ({error.reason})") from None
    else:
        text, label = str(form.get("text", "")), PASTED
    return text.replace("\r\n", "\n"), label


def generate_options(
    options: dict[str, str],
) -> tuple[Any, int, int | None, int | None, int | None]:
    """The game and `sleuth generate`'s options (count, seed, difficulty, visible) from the
    form's texts, with the CLI's limits (count at most MAX_GENERATED here)."""

    def whole(
        key: str, expected: str, low: int | None = None, high: int | None = None
    ) -> int | None:
        text = options.get(key, "")
        return as_whole(text, f"{key}: {expected}", low, high) if text else None

    game = GAMES[NameSet("game", GAMES).resolve(options.get("game", ""))]
    count = whole("count", f"a whole number from 1 to {MAX_GENERATED}", 1, MAX_GENERATED) or 1
    seed = whole("seed", "a whole number")
    difficulty = whole("difficulty", "1 (easiest) to 3 (hardest)", 1, 3)
    visible = whole("visible", "the cards shown, 1 to 12", 1, 12)
    return game, count, seed, difficulty, visible


def write_new(path: Path, text: str, name: str) -> None:
    """Write `text` to a new file `path`, whole or not at all, never over a file: it is written
    to a hidden temporary file beside it, then linked into place (a link fails if the name
    exists, even one made a moment ago)."""
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".sleuth-", suffix=".yaml")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temporary, path)
    except FileExistsError:
        raise InputError(f"{name!r} already exists: choose another name") from None
    except OSError as error:  # no such folder, no permission, a full disk
        raise InputError(f"cannot save {name!r}: {error.strerror}") from None
    finally:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)


# -- the report's data as tables -----------------------------------------------------------------


def result_tables(doc: Document, report: Report) -> Report:
    """`check`'s report with its data laid out as tables: the result, the clues (redundant
    ones and the minimal set marked), and the witnesses when the answer is not unique."""
    data = report.data
    tables = [summary_table(data), clue_table(doc, data)]
    if data.get("witnesses"):
        tables.append(witness_table(data["witnesses"]))
    return Report(data, tables, report.lines, report.warnings, report.exit_code)


def summary_table(data: dict) -> Table:
    rows = [[key, text_of(value)] for key, value in data.items() if key != "witnesses"]
    highlight = {i for i, row in enumerate(rows) if row[0] == "unique"}
    return Table("Result (as check --json)", ["", "value"], rows, highlight)


def clue_table(doc: Document, data: dict) -> Table:
    """The clues in the order of the file (indexes 0-based, as `check` counts them)."""
    clues = clue_texts(doc)
    if not data.get("unique"):
        return Table("Clues", ["#", "clue"], [[str(i), c] for i, c in enumerate(clues)])
    redundant, minimal = set(data.get("redundant", [])), set(data.get("minimal", []))
    rows = [
        [str(i), c, "yes" if i in redundant else "", "yes" if i in minimal else ""]
        for i, c in enumerate(clues)
    ]
    highlight = {i for i in range(len(clues)) if i in minimal}
    return Table("Clues", ["#", "clue", "redundant", "in the minimal set"], rows, highlight)


def clue_texts(doc: Document) -> list[str]:
    """Each item of the puzzle's `given` (or `visible`, the 6 Suspects shorthand) on one line,
    written as in the file."""
    body = doc.data.get("puzzle")
    if not isinstance(body, dict):
        return []
    if isinstance(body.get("given"), list):
        return [one_line(item) for item in body["given"]]
    if isinstance(body.get("visible"), dict):
        return [f"{slot}: {card}" for slot, card in body["visible"].items()]
    return []


def one_line(item: object) -> str:
    if not isinstance(item, dict):
        return str(item)
    text = yaml.safe_dump(
        item, default_flow_style=True, sort_keys=False, allow_unicode=True, width=1_000_000
    ).strip()
    return text[1:-1] if text.startswith("{") and text.endswith("}") else text


def witness_table(witnesses: list[dict]) -> Table:
    """The witness worlds side by side, one row per thing they say; rows that differ stand out."""
    flat = [flattened(w) for w in witnesses]
    keys = list(dict.fromkeys(k for world in flat for k in world))
    rows = [[key, *(world.get(key, "—") for world in flat)] for key in keys]
    highlight = {i for i, row in enumerate(rows) if len(set(row[1:])) > 1}
    columns = ["", *(f"world {i + 1}" for i in range(len(flat)))]
    return Table("Witnesses: worlds with different answers", columns, rows, highlight)


def flattened(value: dict, prefix: str = "") -> dict[str, str]:
    """A nested mapping as {"layout A1": "mirror", ...}."""
    flat: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            flat.update(flattened(item, f"{prefix}{key} "))
        else:
            flat[f"{prefix}{key}"] = text_of(item)
    return flat


def text_of(value: object) -> str:
    """A JSON value in a table cell: lists joined, `none` for an empty list, yes/no."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {text_of(v)}" for k, v in value.items())
    if isinstance(value, list):
        nested = any(isinstance(v, list | dict) for v in value)
        return (" | " if nested else ", ").join(text_of(v) for v in value) or "none"
    return str(value)
