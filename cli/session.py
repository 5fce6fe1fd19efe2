"""The interactive session: events typed as they happen, the posterior after each, undo, autosave.

It knows no game: the game object turns a typed line into a log event (`parse_line`) and a log into
a report (`solve`). The log file is rewritten atomically after every change, so closing the terminal
loses nothing; `sleuth play LOG` resumes from it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cli.render import console, show, show_error
from models import GAMES
from solver.errors import Contradiction, InputError, SleuthError
from solver.explain import explain_with
from solver.files import user_path
from solver.logbook import LogBook
from solver.logfile import save_atomically
from solver.names import NameSet, words_of
from solver.report import Report

LOG_SUFFIXES = (".yaml", ".yml", ".json")
COMMANDS = """\
undo                       remove the last event
save [PATH]                the log is saved after every event; this also copies it to PATH
show                       print the current posterior again
why [FACT]                 why FACT is certain (default: every certain fact), or what moved it
players NAME NAME ...      set the players (seat order);  me NAME: whose point of view
help                       this text;  quit (or end of input) leaves, the log stays saved"""


class Session:
    def __init__(self, book: LogBook):
        self.book = book
        self.game = book.game

    @classmethod
    def open(cls, target: str, log: Path | None) -> Session:
        """Resume the log `target`, or start a new log of the game `target` (at `log`)."""
        try:
            named = user_path(target, "log")
        except InputError:
            if target.endswith(LOG_SUFFIXES) or "/" in target:  # meant as a file
                raise
            named = None  # e.g. a game's name with a NUL in it: an unknown game, below
        if named is not None and named.exists():  # a pipe or a folder: read says what it is
            return cls(LogBook.read(named, GAMES))
        game = GAMES[NameSet("game", GAMES).resolve(target)]
        if log is not None:
            log = user_path(log, "log")
        path = log or Path(f"sleuth-{game.name}-{time.strftime('%Y%m%d-%H%M%S')}.yaml")
        if path.exists():
            raise InputError(f"{path} exists: resume it with 'sleuth play {path}'")
        return cls(LogBook.create(game, path))

    @property
    def data(self) -> dict:
        return self.book.data

    @property
    def path(self) -> Path:
        return self.book.path

    @property
    def events(self) -> list:
        return self.book.events

    def save(self) -> None:
        """Rewrite the log file; if it cannot be written, say so and go on (nothing is lost
        from the session, and `save PATH` can put it elsewhere)."""
        try:
            self.book.save()
        except InputError as error:
            show_error(error)

    def loop(self) -> None:
        interactive = sys.stdin.isatty()
        console.print(
            f"{self.game.title}: {len(self.events)} event(s); log saved to {self.path}. "
            "Type 'help' for the syntax.",
            highlight=False,
            markup=False,
        )
        if self.events:
            self.show()
        while True:
            if interactive:
                console.print(f"[bold]{len(self.events) + 1}>[/] ", end="")
            typed = typed_line()
            if typed is None:
                break
            line, undecodable = typed
            line = line.strip()
            if undecodable:  # refused, and kept as typed with its bytes written out
                show_error(InputError(f"not added: {undecodable}"))
                self.keep_rejected(line, f"not added: {undecodable}")
                continue
            if not line or line.startswith("#"):
                continue
            if not self.handle(line):
                break
        console.print(f"log saved to {self.path}", highlight=False, markup=False)

    def handle(self, line: str) -> bool:
        """Act on one typed line; False to leave the session."""
        command, _, rest = line.partition(" ")
        command = command.lower()
        try:
            if command in ("quit", "exit", "q"):
                return False
            if command == "help":
                console.print(
                    self.game.session_help + "\n" + COMMANDS, highlight=False, markup=False
                )
            elif command == "undo":
                self.undo()
            elif command == "save":
                self.save_as(rest.strip())
            elif command == "show":
                self.show()
            elif command == "why":
                self.why(rest.strip() or None)
            elif command == "players":
                self.set_header("players", words_of(rest))
            elif command == "me":
                self.set_header("me", rest.strip())
            elif command == "looks" and hasattr(self.game, "looks_told"):  # counted from now on
                self.set_header("looks_left", self.game.looks_told(rest, self.book.document()))
                self.show()
            else:
                self.add(self.game.parse_line(line))
        except SleuthError as error:
            show_error(error)
            if command not in ("undo", "save", "show", "why", "players", "me", "looks"):
                self.keep_rejected(line, str(error))
        return True

    def keep_rejected(self, line: str, reason: str) -> None:
        """A refused line is still kept, under `rejected:` in the log (readers ignore it)."""
        try:
            self.book.keep_rejected(line, reason)
        except InputError as error:
            show_error(error)

    def add(self, event: dict) -> None:
        """Validate the log with the event; keep it (and save) unless it is malformed."""
        try:
            with console.status("counting…"):
                report = self.book.add(event)
        except Contradiction as error:
            show_error(error)
            console.print("kept in the log; type 'undo' to remove it", highlight=False)
            return
        console.print(f"event {len(self.events)} saved", highlight=False)
        show(report)

    def undo(self) -> None:
        removed = self.book.undo()
        console.print(
            f"removed event {len(self.events) + 1}: {removed}", highlight=False, markup=False
        )
        self.show()

    def save_as(self, target: str) -> None:
        self.save()
        if target:
            save_atomically(Path(target), self.data)
            console.print(f"saved a copy to {target}", highlight=False, markup=False)
        else:
            console.print(f"saved to {self.path}", highlight=False, markup=False)

    def set_header(self, key: str, value: object) -> None:
        with console.status("counting…"):
            self.book.set_header(key, value)
        self.save()
        shown = (  # as the log's header says it (YAML flow style), not as a Python dict
            "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
            if isinstance(value, dict)
            else value
        )
        console.print(f"{key}: {shown}", highlight=False, markup=False)

    def view(self) -> Report:
        """The game's view of the log as it stands (this also validates it)."""
        with console.status("counting…"):
            return self.book.view()

    def why(self, fact: str | None) -> None:
        """`sleuth explain` of the log as it stands."""
        with console.status("explaining…"):
            report = explain_with(self.game, self.book.document(), fact, asked="why")
        show(report)

    def show(self) -> None:
        try:
            show(self.view())
        except SleuthError as error:
            show_error(error)


def typed_line() -> tuple[str, str | None] | None:
    """The next line on standard input (None at its end) and, when its bytes are not UTF-8
    text, why: such a line is refused, and its text has each such byte written as `\\xff`, so
    that the log keeps it and stays UTF-8 (a strict UTF-8 terminal would otherwise stop the
    session, and a lenient one would put half-characters in the log that no reader takes)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream with no bytes under it (already decoded)
        text = sys.stdin.readline()
        return (text, None) if text else None
    data = stream.readline()
    if not data:
        return None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="backslashreplace")
        return text, f"the line is not UTF-8 text ({error.reason} at byte {error.start + 1})"
