"""`sleuth serve DIR`: the logs of a folder in a browser, a game page per log.

The app has no game logic: it calls the same `Game` interface as the CLI, through the
`LogBook` that `sleuth play` uses, so a log written here and one typed in `play` are the same
file, saved atomically after every accepted event before the page answers.

Safety (logs are private and the table's Wi-Fi is shared): only files under DIR are read or
written (no `..`, no hidden parts, no symlink out of DIR); a request body is limited to
MAX_BODY bytes; when a token is set (any host but 127.0.0.1), every request needs it, given
once as `?token=` (compared in constant time) and then kept in a cookie; a request that changes
something must also come from the page's own origin.
"""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from jinja2 import Environment, PackageLoader, select_autoescape
from python_multipart.exceptions import MultipartParseError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from models import GAMES
from solver.entry import EntryForm
from solver.errors import Contradiction, InputError, SleuthError, cut
from solver.files import user_path
from solver.logbook import LogBook
from solver.logfile import Document, load, whole_number
from solver.names import NameSet
from solver.report import Report
from web.counting import WAIT, Counts
from web.puzzles import puzzle_routes

MAX_BODY = 64 * 1024  # bytes: an event or a new game's form is far smaller
COOKIE = "sleuth_token"
LOG_SUFFIXES = (".yaml", ".yml")

templates = Environment(
    loader=PackageLoader("web", "templates"), autoescape=select_autoescape(["html"])
)


class Refused(Exception):
    """A request Sleuth will not serve: its status and one line saying why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def inside(root: Path, name: str) -> Path:
    """The file `name` (a relative path with /) under `root`; Refused if it would leave it, or
    if no file could have that name (a NUL, too long: solver/files.py)."""
    try:
        user_path(name)
        user_path(root / name.lstrip("/"))  # the whole path, too
    except InputError as error:
        raise Refused(400, error.message) from None
    parts = [p for p in name.split("/") if p]
    if not parts or any(p in (".", "..") or p.startswith(".") or "\\" in p for p in parts):
        raise Refused(404, f"no log named {name!r} here")
    path = root.joinpath(*parts)
    if path.suffix not in LOG_SUFFIXES:
        raise Refused(404, f"{name!r} is not a .yaml log")
    real = path.resolve()
    if not real.is_relative_to(root.resolve()):
        raise Refused(403, f"{name!r} leads outside the served folder")
    return path


def confine_deck(root: Path, doc: Document) -> Document:
    """`doc`, once a deck file it names is known to lie under `root` (a log or a puzzle in the
    folder must not make the server read a file outside it); Refused if it does not."""
    deck = doc.deck_path()
    if deck is not None:
        try:
            real = user_path(deck, "deck").resolve()
        except InputError as error:
            raise Refused(400, error.message) from None
        if not real.is_relative_to(root.resolve()):
            raise Refused(403, f"the deck {doc.data['deck']!r} is outside the served folder")
        try:
            inside(root, real.relative_to(root.resolve()).as_posix())
        except Refused as refused:
            raise Refused(403, f"the deck {doc.data['deck']!r}: {refused.message}") from None
    return doc


class Guard:
    """ASGI middleware: the token (when set), the same-origin rule for changes, the body limit."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int = MAX_BODY):
        self.app, self.token, self.max_body = app, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        try:
            fresh = self.check_token(request)
            self.check_origin(request)
            length = whole_number(request.headers.get("content-length") or "0")
            if length is None or length < 0:
                raise Refused(400, "the request's Content-Length is not a number")
            if length > self.max_body:
                raise Refused(413, f"a request may carry at most {self.max_body:,} bytes")
        except Refused as refused:
            await plain(refused.status, str(refused))(scope, receive, send)
            return
        total = 0

        async def limited() -> Message:
            nonlocal total
            message = await receive()
            total += len(message.get("body", b""))
            if total > self.max_body:
                raise Refused(413, f"a request may carry at most {self.max_body:,} bytes")
            return message

        async def remember(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                cookie = f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/"
                message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
            await send(message)

        try:
            await self.app(scope, limited, remember)
        except Refused as refused:
            await plain(refused.status, str(refused))(scope, receive, send)

    def check_token(self, request: Request) -> bool:
        """Whether the token came in the URL (then it is kept in a cookie)."""
        if self.token is None:
            return False
        given = request.query_params.get("token")
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            return True
        kept = request.cookies.get(COOKIE)
        if kept is not None and hmac.compare_digest(kept.encode(), self.token.encode()):
            return False
        raise Refused(403, "this Sleuth needs the token: open the URL it printed when it started")

    @staticmethod
    def check_origin(request: Request) -> None:
        if request.method in ("GET", "HEAD"):
            return
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            raise Refused(403, "a change must come from Sleuth's own page")


def plain(status: int, message: str) -> Response:
    return Response(message + "\n", status_code=status, media_type="text/plain")


async def form_of(request: Request) -> FormData:
    """The request's form; a body that is no form (a multipart body with an empty boundary, a
    part cut short) is Refused with a 400, never a server error."""
    try:
        return await request.form()
    except (MultiPartException, MultipartParseError, HTTPException, ValueError) as error:
        detail = getattr(error, "detail", None) or str(error) or type(error).__name__
        message = cut(" ".join(str(detail).split()), 200)
        raise Refused(400, f"the form could not be read: {message}") from None


def create_app(
    root: Path, token: str | None = None, max_body: int = MAX_BODY, wait: float = WAIT
) -> ASGIApp:
    """The app serving the logs under `root`; a request waits `wait` seconds for its count
    before its page says "counting" (web/counting.py)."""
    root = root.resolve()
    known: dict[str, tuple[str, dict[str, Any]]] = {}  # per log: its content, what it gave

    def remembered(name: str, content: str, what: str, compute: Callable[[], Any]) -> Any:
        """`compute()` for the log as it stands, remembered until its content changes: the page
        shown after an event is the report the event's check already computed (no second
        count), and a page shown again counts nothing."""
        if name not in known or known[name][0] != content:
            known[name] = (content, {})
        found = known[name][1]
        if what not in found:
            found[what] = compute()
        return found[what]

    def advice(book: LogBook) -> Report | str:
        """What `sleuth suggest` says of the log as it stands, or why it says nothing (e.g. a
        log with no deal yet)."""
        try:
            return book.game.suggest(book.document())
        except SleuthError as error:
            return str(error)

    def facts_named(book: LogBook, lines: list[str]) -> dict[str, str]:
        """The report's lines that name a fact `sleuth explain` can explain (each becomes a
        link to its explanation)."""
        if not hasattr(book.game, "grounds"):
            return {}
        try:
            grounds = book.game.grounds(book.document())
        except SleuthError:
            return {}
        return {line: fact for line in lines if (fact := grounds.named(line))}

    def page(template: str, status: int = 200, **values: Any) -> HTMLResponse:
        return HTMLResponse(templates.get_template(template).render(**values), status_code=status)

    async def index(request: Request) -> Response:
        logs = await run_in_threadpool(listing, root)  # reading every log: not on the event loop
        return page("index.html", root=root, logs=logs, games=sorted(GAMES))

    async def new(request: Request) -> Response:
        form = await form_of(request)
        try:
            game = GAMES[NameSet("game", GAMES).resolve(str(form.get("game", "")))]
            header: dict[str, Any] = {}
            players = str(form.get("players", "")).split()
            if players:
                header["players"] = players
            me = str(form.get("me", "")).strip()
            if me:
                header["me"] = me
            header.update(header_options(str(form.get("options", ""))))
            name = (
                str(form.get("name", "")).strip()
                or f"{game.name}-{time.strftime('%Y%m%d-%H%M%S')}.yaml"
            )
            if not name.endswith(LOG_SUFFIXES):
                name += ".yaml"
            path = inside(root, name)
            confine_deck(root, Document(header, str(path)))
            book = LogBook.create(game, path, header)
            try:
                book.view()  # players, me and the options make sense to the game
            except SleuthError:
                path.unlink()  # the file this request just created, and nothing else
                raise
        except (SleuthError, Refused) as error:
            return page(
                "index.html",
                422,
                root=root,
                logs=listing(root),
                games=sorted(GAMES),
                error=str(error),
            )
        return RedirectResponse(f"/log/{path.relative_to(root).as_posix()}", status_code=303)

    def book_of(name: str) -> tuple[str, LogBook]:
        path = inside(root, name)
        if not path.is_file():
            raise Refused(404, f"no log named {name!r} here")
        book = LogBook.read(path, GAMES)
        confine_deck(root, book.document())
        return name, book

    counts = Counts(wait)

    async def one_at_a_time(
        request: Request,
        work: Callable[[str, LogBook], Response],
        what: str,
        later: Callable[[str, str], Response] | None = None,
        patient: bool = False,
    ) -> Response:
        """`work` on the request's log in a thread of its own, after the work asked before it
        on that log (web/counting.py). Past a short wait, `later()` answers (by default the
        log's page, which says "counting" until the work is done) with the log's name and key;
        a `patient` request (a JSON report) waits to the end."""
        name = request.path_params["name"]
        key = str(inside(root, name).resolve())

        def locked() -> Response:
            try:
                return work(*book_of(name))
            except Refused as refused:
                return plain(refused.status, str(refused))
            except SleuthError as error:  # not a log that can be read: the user's, not a bug
                if patient:
                    return JSONResponse(error.to_json(), 422)
                return plain(422, str(error))

        def to_the_page(name: str, key: str) -> Response:
            return RedirectResponse(f"/log/{name}", status_code=303)

        if patient:
            return await counts.finished(counts.start(key, what, locked))
        return await counts.answer(key, what, locked, lambda: (later or to_the_page)(name, key))

    def counting_page(name: str, key: str, **wording: str) -> HTMLResponse:
        """The page while a long count runs: what is counted, for how long, and an estimate
        from the last long count of this log; it refreshes itself. `wording` (the puzzle
        pages' generation): `verb`, `earlier` (what the estimate comes from), `again` (the
        page to refresh) and `note`, in place of a log's."""
        queue = counts.queue(key)
        expected = counts.expected(key)
        running = queue[0] if queue else None
        share = None
        if running is not None and expected:
            share = min(running.seconds() / expected, 0.95)
        words = {
            "verb": "Counting",
            "earlier": "the last long count of this log",
            "again": f"/log/{name}",
            "note": "Every event is saved as soon as it is checked.",
            "back": "/",
            **wording,
        }
        return page(
            "counting.html",
            200,
            name=name,
            running=running,
            waiting=queue[1:],
            expected=expected,
            share=share,
            **words,
        )

    def game_page(name: str, book: LogBook, status: int = 200, **extra: Any) -> HTMLResponse:
        upto = extra.pop("upto", None)
        report, error, conflict = None, extra.pop("error", None), []
        suggested: Report | str | None = None
        try:
            if upto:
                report = book.game.solve(book.document(), upto)
            else:
                content = content_of(book)
                report = remembered(name, content, "view", book.view)
                suggested = remembered(name, content, "advice", lambda: advice(book))
                extra["facts"] = remembered(
                    name, content, "facts", lambda: facts_named(book, report.lines)
                )
        except Contradiction as contradiction:
            error, conflict = str(contradiction), contradiction.events
        except SleuthError as problem:
            error = str(problem)
        return page(
            "log.html",
            status,
            name=name,
            game=book.game,
            events=history(book),
            forms=entry_forms(book),
            report=report and shown(report),
            suggested=shown(suggested) if isinstance(suggested, Report) else suggested,
            error=error,
            conflict=conflict,
            upto=upto,
            **extra,
        )

    async def log(request: Request) -> Response:
        name = request.path_params["name"]
        key = str(inside(root, name).resolve())
        busy = counts.busy(key)
        if busy is not None and not await counts.waited(busy, own=False):
            return counting_page(name, key)  # no second count of the same state
        late = counts.late_answer(key)
        if late is not None:  # an event refused after its request stopped waiting
            return late
        upto = whole_number(request.query_params.get("upto") or "")
        shown_upto = upto if upto is not None and upto > 0 else None

        what = f"the page after event {shown_upto}" if shown_upto else "the page"
        return await one_at_a_time(
            request,
            lambda name, book: game_page(name, book, upto=shown_upto),
            what,
            later=counting_page,
        )

    def take(name: str, book: LogBook, line: str) -> Response:
        """A typed or tapped event: added and saved, then the page; refused: the page with the
        message inline and the line kept (in the box, and under `rejected:` in the log)."""
        try:
            report = book.add(book.game.parse_line(line))
            remembered(name, content_of(book), "view", lambda: report)
        except Contradiction:
            return game_page(name, book, 200, kept=True)  # kept; the page shows the conflict
        except SleuthError as error:
            book.keep_rejected(line, str(error))
            return game_page(name, book, 422, error=str(error), line=line)
        return RedirectResponse(f"/log/{name}", status_code=303)

    async def event(request: Request) -> Response:
        line = str((await form_of(request)).get("line", "")).strip()

        def work(name: str, book: LogBook) -> Response:
            if not line:
                return game_page(name, book, 422, error="type an event first", line=line)
            command, _, rest = line.partition(" ")
            told = getattr(book.game, "looks_told", None)
            if command.lower() == "looks" and told is not None:  # as in `sleuth play`
                try:
                    book.set_header("looks_left", told(rest, book.document()))
                except SleuthError as error:
                    return game_page(name, book, 422, error=str(error), line=line)
                book.save()
                return RedirectResponse(f"/log/{name}", status_code=303)
            return take(name, book, line)

        return await one_at_a_time(request, work, f"the event '{line}'")

    async def tap(request: Request) -> Response:
        form = await form_of(request)
        index = whole_number(str(form.get("form", "")))

        def work(name: str, book: LogBook) -> Response:
            forms = entry_forms(book)
            if index is None or not 0 <= index < len(forms):
                return game_page(name, book, 422, error="no such kind of event")
            chosen = {
                part.name: [str(v) for v in form.getlist(part.name)] for part in forms[index].parts
            }
            try:
                line = forms[index].line(chosen)
            except SleuthError as error:
                return game_page(name, book, 422, error=str(error))
            return take(name, book, line)

        return await one_at_a_time(request, work, "a tapped event")

    async def undo(request: Request) -> Response:
        def work(name: str, book: LogBook) -> Response:
            try:
                book.undo()
            except SleuthError as error:
                return game_page(name, book, 422, error=str(error))
            return RedirectResponse(f"/log/{name}", status_code=303)

        return await one_at_a_time(request, work, "undo")

    def as_json(command: str) -> Callable[[Request], Any]:
        """The route giving what `sleuth COMMAND --json` prints for the log (solve, suggest)."""

        async def route(request: Request) -> Response:
            def work(name: str, book: LogBook) -> Response:
                try:
                    return JSONResponse(getattr(book.game, command)(book.document()).data)
                except SleuthError as error:
                    data = {"error": str(error), "exit_code": error.exit_code}
                    return JSONResponse(data, 422)

            return await one_at_a_time(request, work, f"{command} --json", patient=True)

        return route

    async def explanation(request: Request) -> Response:
        """`sleuth explain` of the log, for one fact (`?fact=`) or every certain fact."""
        fact = request.query_params.get("fact") or None

        def work(name: str, book: LogBook) -> Response:
            if not hasattr(book.game, "explain"):
                return plain(404, f"explain does not know {book.game.title} yet")
            try:
                report: Report | None = book.game.explain(book.document(), fact)
                error = None
            except SleuthError as problem:
                report, error = None, str(problem)
            return page(
                "explain.html",
                422 if error else 200,
                name=name,
                game=book.game,
                fact=fact,
                report=report and shown(report),
                error=error,
            )

        what = f"the explanation of {fact or 'every certain fact'}"
        return await one_at_a_time(request, work, what, later=counting_page)

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, Refused)
        return plain(error.status, str(error))

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/new", new, methods=["POST"]),
            Route("/log/{name:path}", log),
            Route("/event/{name:path}", event, methods=["POST"]),
            Route("/tap/{name:path}", tap, methods=["POST"]),
            Route("/undo/{name:path}", undo, methods=["POST"]),
            Route("/solve/{name:path}", as_json("solve")),
            Route("/suggest/{name:path}", as_json("suggest")),
            Route("/explain/{name:path}", explanation),
            *puzzle_routes(root, page, counts, counting_page),
        ],
        exception_handlers={Refused: refused, InputError: refused_input},
    )
    return Guard(app, token, max_body)


async def refused_input(request: Request, error: Exception) -> Response:
    assert isinstance(error, InputError)
    return plain(422, str(error))


HEADER_KEYS = ("game", "players", "me", "events", "rejected")  # the form's own, or the log's


def header_options(text: str) -> dict:
    """The new game form's options, written as YAML (`advanced: true, deck: my-deck.yaml`): the
    header's other keys, as a log file would have them (the game then checks them)."""
    if not text.strip():
        return {}
    written = text.strip()
    if not written.startswith(("{", "[")):
        written = "{" + written + "}"
    try:
        options = yaml.safe_load(written)
    except yaml.YAMLError as error:
        first = str(error).splitlines()[0]
        raise InputError(f"the options are not YAML such as 'advanced: true' ({first})") from None
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise InputError("the options are keys and values, e.g. advanced: true")
    taken = [k for k in options if k in HEADER_KEYS]
    if taken:
        raise InputError(f"the options cannot set {', '.join(taken)}: the form has its own fields")
    return options


def entry_forms(book: LogBook) -> list[EntryForm]:
    """The game's forms to tap events in (none yet for a game without `entry`)."""
    entry = getattr(book.game, "entry", None)
    try:
        return entry(book.document()) if entry else []
    except SleuthError:  # e.g. a deck file that cannot be read: the page says why elsewhere
        return []


def content_of(book: LogBook) -> str:
    """The log's whole content as one string (a key for its report)."""
    return json.dumps(book.data, sort_keys=True, default=str)


def listing(root: Path) -> list[dict]:
    """The logs and puzzles under `root` (two levels deep), with their game."""
    found = []
    for path in sorted([*root.glob("*.y*ml"), *root.glob("*/*.y*ml")]):
        if path.suffix not in LOG_SUFFIXES or any(
            p.startswith(".") for p in path.relative_to(root).parts
        ):
            continue
        try:
            inside(root, path.relative_to(root).as_posix())
            data = load(str(path)).data
        except (SleuthError, Refused):
            continue
        kind = "puzzle" if "puzzle" in data else "log"
        found.append(
            {"name": path.relative_to(root).as_posix(), "game": data.get("game"), "kind": kind}
        )
    return found


def history(book: LogBook) -> list[str]:
    """Each event of the log in the game's own words; an event the game cannot read (a file
    edited by hand) is shown as it is written, so the history never hides one."""
    doc = book.document()
    lines = []
    for event in book.events:
        try:
            lines.append(book.game.event_text(event, doc))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, SleuthError):
            lines.append(json.dumps(event, default=str))
    return lines


def shown(report: Report) -> dict:
    """A report's tables with each cell that is a probability marked for a bar."""
    tables = []
    for table in report.tables:
        rows = [[cell_of(c) for c in row] for row in table.rows]
        tables.append(
            {
                "title": table.title,
                "columns": table.columns,
                "rows": rows,
                "highlight": table.highlight,
            }
        )
    return {"tables": tables, "lines": report.lines, "warnings": report.warnings}


def cell_of(text: str) -> dict:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return {"text": text}
    if "." in text and 0 <= value <= 1:
        return {"text": text, "bar": round(value * 100, 1)}
    return {"text": text}
