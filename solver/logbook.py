"""A log written event by event: the core that `sleuth play` and `sleuth serve` share.

It knows no game and no screen. The game turns a log into a report (`view`, which also validates
it); every change is checked that way and saved atomically before it is reported, so a closed
terminal or browser loses nothing. A refused event is not added; an event that contradicts the
log is kept (the conflict is reported, and `undo` removes it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.errors import Contradiction, InputError, SleuthError
from solver.logfile import Document, load, save_atomically
from solver.names import NameSet
from solver.report import Report

LAST = ("events", "rejected")  # kept last in the file, as they are appended to


class LogBook:
    def __init__(self, game: Any, data: dict, path: Path):
        self.game = game
        self.data = data
        self.path = path

    @classmethod
    def read(cls, path: Path, games: dict[str, Any]) -> LogBook:
        """The log at `path`: it must name one of `games` and have `events` (and `rejected`,
        if any) as lists."""
        doc = load(str(path))
        if "puzzle" in doc.data and "events" not in doc.data:  # its file is left untouched
            raise InputError(
                f"{path} is a puzzle, not a log: 'sleuth check {path}' solves it, and "
                "'sleuth play GAME' starts a log of a game"
            )
        name = doc.data.get("game")
        try:  # named as every command names it (a prefix, any case)
            game = games[NameSet("game", games).resolve(str(name))]
        except InputError as error:
            raise InputError(f"{path} is not a log of a known game: {error}") from None
        doc.data["game"] = game.name
        doc.data.setdefault("events", [])
        for key in ("events", "rejected"):  # both are appended to
            if not isinstance(doc.data.get(key, []), list):
                raise InputError(f"{path}: '{key}' must be a list")
        return cls(game, doc.data, path)

    @classmethod
    def create(cls, game: Any, path: Path, header: dict | None = None) -> LogBook:
        """A new log of `game` at `path` (which must not exist), saved at once."""
        if path.exists():
            raise InputError(f"{path} exists")
        book = cls(game, {"game": game.name, **(header or {}), "events": []}, path)
        book.save()  # a log that cannot be written stops here
        return book

    @property
    def events(self) -> list:
        return self.data["events"]

    def document(self) -> Document:
        return Document(self.data, str(self.path))

    def save(self) -> None:
        save_atomically(self.path, self.data)

    def view(self) -> Report:
        """The game's view of the log as it stands (this also validates it)."""
        return self.game.view(self.document())

    def add(self, event: dict) -> Report:
        """Add an event and save. InputError: refused, not added. Contradiction: kept and
        saved, then raised (the caller says so; `undo` removes it)."""
        self.events.append(event)
        try:
            report = self.view()
        except Contradiction:
            self.save()
            raise
        except InputError as error:
            self.events.pop()
            raise InputError(f"not added: {error.message}") from None
        self.save()
        return report

    def set_header(self, key: str, value: object) -> None:
        """Set a header field (`players`, `me`, 6 Suspects' `looks_left`), checked by the
        game's view: refused, the log is as it was. Events and refused lines stay last in the
        file. The caller saves (a session goes on when the file cannot be written)."""
        before = dict(self.data)
        header = {k: v for k, v in self.data.items() if k not in ("game", *LAST)}
        header[key] = value  # where it was, if it was there
        tail = {k: self.data[k] for k in LAST if k in self.data}
        self.data = {"game": self.data["game"], **header, **tail}
        try:
            self.view()
        except SleuthError:
            self.data = before
            raise

    def undo(self) -> dict:
        """Remove the last event and save; returns it."""
        if not self.events:
            raise InputError("nothing to undo")
        removed = self.events.pop()
        self.save()
        return removed

    def keep_rejected(self, line: str, reason: str) -> None:
        """A refused line is still kept, under `rejected:` in the log (readers ignore it)."""
        events = self.data.pop("events")
        rejected = self.data.pop("rejected", [])
        self.data["events"] = events
        self.data["rejected"] = [*rejected, {"typed": line, "error": reason}]
        self.save()
