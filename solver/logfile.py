"""Reading YAML/JSON logs and puzzles, keeping the source line of every event for error messages."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from solver.errors import InputError
from solver.names import NameSet


@dataclass
class Document:
    """A parsed log or puzzle file: its data and the 1-based line of each item of a list."""

    data: dict[str, Any]
    path: str = "<input>"
    lines: dict[str, list[int]] = field(default_factory=dict)

    def line_of(self, key: str, index: int) -> int | None:
        found = self.lines.get(key, [])
        return found[index] if index < len(found) else None

    @property
    def events_key(self) -> str:
        """Where the events are: "events" in a log, "given" (under `puzzle`) in a puzzle."""
        return "given" if "events" not in self.data and "puzzle" in self.data else "events"

    def events(self, key: str, upto: int | None = None) -> list:
        """The events under `key` ("events", or "given" for a puzzle), the first `upto` only."""
        if upto is not None and upto < 0:
            raise InputError("--upto must be 0 or more")
        found = (
            (self.data.get("puzzle") or {}).get("given") if key == "given" else self.data.get(key)
        )
        if not isinstance(found or [], list):
            raise InputError(f"'{key}' must be a list of events")
        return (found or [])[:upto] if upto is not None else (found or [])

    def check_game(self, game: str) -> None:
        if self.data.get("game", game) != game:
            raise InputError(f"this log is for {self.data.get('game')!r}, not {game!r}")

    def deck_path(self) -> str | None:
        """The header's deck file (`deck:`), relative to the log's folder."""
        deck = self.data.get("deck")
        if deck is None:
            return None
        path = Path(str(deck))
        if not path.is_absolute() and self.path not in ("<input>", ""):
            path = Path(self.path).parent / path
        return str(path)

    def players(self) -> tuple[NameSet | None, str | None]:
        """The players (names a player may be given by) and `me`, from the header."""
        listed = self.data.get("players") or []
        if not isinstance(listed, list) or not all(isinstance(p, str | int) for p in listed):
            raise InputError("'players' must be a list of names")
        players = NameSet("player", [str(p) for p in listed]) if listed else None
        me = self.data.get("me")
        if me is None:
            return players, None
        return players, players.resolve(me) if players else str(me)


def read_events(
    doc: Document,
    key: str,
    events: list,
    kinds: Sequence[str],
    handle: Callable[[int, str, dict], None],
) -> None:
    """Call `handle(number, kind, event)` for each event in order (numbers from 1). An event that
    is not a one-kind mapping, or an InputError raised without a place, is reported with the
    event's number and line."""
    for number, event in enumerate(events, start=1):
        where = {"event": number, "line": doc.line_of(key, number - 1)}
        try:
            if not isinstance(event, dict) or not event:
                raise InputError(f"an event is a mapping, one of: {', '.join(kinds)}")
            kind = next(iter(event))
            if kind not in kinds:
                hint = NameSet("event", kinds).suggestion(str(kind).lower())
                raise InputError(f"unknown event {kind!r}{hint}")
            handle(number, kind, event)
        except InputError as error:
            if error.event is None or error.line is None:
                raise InputError(error.message, **where) from None
            raise


def _sequence_lines(node: yaml.Node, path: tuple[str, ...]) -> list[int]:
    """Lines of the items of the sequence found by following mapping keys `path` from `node`."""
    for key in path:
        if not isinstance(node, yaml.MappingNode):
            return []
        for key_node, value_node in node.value:
            if getattr(key_node, "value", None) == key:
                node = value_node
                break
        else:
            return []
    if not isinstance(node, yaml.SequenceNode):
        return []
    return [item.start_mark.line + 1 for item in node.value]


def parse_text(text: str, path: str = "<input>") -> Document:
    """Parse YAML (or JSON) text into a Document; a syntax error becomes an InputError with its line."""
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark else None
        raise InputError(f"{path} is not valid YAML: {error.problem}", line=line) from None
    except yaml.YAMLError as error:
        raise InputError(f"{path} is not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping with 'game' and 'events' (or 'puzzle')")
    lines = {
        "events": _sequence_lines(root, ("events",)) if root else [],
        "given": _sequence_lines(root, ("puzzle", "given")) if root else [],
    }
    return Document(data=data, path=path, lines=lines)


def read_deck_file(path: Path) -> Any:
    """The YAML data of a deck file; an unreadable or malformed file is one InputError."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"cannot read deck {path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise InputError(f"deck {path} is not valid YAML: {error}") from None


def load(path: str | Path) -> Document:
    """Read a log or puzzle file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"cannot read {path}: not UTF-8 text ({error.reason})") from None
    return parse_text(text, str(path))


def dump(data: dict[str, Any]) -> str:
    """YAML text for a log, keys in the order they were given, flow style for short lists."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True)


def save_atomically(path: str | Path, data: dict[str, Any]) -> None:
    """Write `data` to `path` so that a crash leaves either the old or the new file, never half."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(dir=path.parent or ".", prefix=".sleuth-", suffix=".yaml")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(dump(data))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
