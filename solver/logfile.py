"""Reading YAML/JSON logs and puzzles, keeping the source line of every event for error messages."""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from solver import files
from solver.errors import QUOTE_LIMIT, InputError, quoted
from solver.names import NameSet


@dataclass
class Document:
    """A parsed log or puzzle file: its data and the 1-based line of each item of a list."""

    data: dict[str, Any]
    path: str = "<input>"
    lines: dict[str, list[int]] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)  # "players", "puzzle.answer": line

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
        found = self.data.get(key)
        if key == "given":
            puzzle = self.data.get("puzzle")
            if not isinstance(puzzle, dict):
                raise InputError("'puzzle' is a mapping: {given: [events...], question: ...}")
            found = puzzle.get("given")
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
        with reading("me"):
            return players, players.resolve(me) if players else str(me)


# -- typed values: what a reader expects, or one error saying so ---------------------------------


def shown(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value as an error message quotes it: its repr, cut short (solver.errors.quoted)."""
    return quoted(value, limit)


def whole_number(text: str, digits: int = 18) -> int | None:
    """The whole number that `text` writes in ASCII digits (a sign allowed, at most `digits` of
    them), else None: the one place text becomes a number. `str.isdigit()` also takes '²' and
    other digits `int()` refuses, and `int()` refuses more than 4,300 digits; neither reaches
    `int()` here."""
    written = text.strip()
    unsigned = written[1:] if written[:1] in ("+", "-") else written
    if not (unsigned.isascii() and unsigned.isdecimal()) or len(unsigned) > digits:
        return None
    return int(written)


def as_list(value: object, expected: str, single: bool = True) -> list:
    """`value` as a list: None is empty, and (`single`) one name or number is a list of one;
    anything else is an InputError saying what was `expected` (e.g. "a list of players")."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if single and isinstance(value, str | int) and not isinstance(value, bool):
        return [value]
    raise InputError(f"expected {expected}, got {shown(value)}")


@contextmanager
def reading(name: str) -> Iterator[None]:
    """Name the field being read in an InputError raised while reading it (`me: unknown player
    'Zed'`), unless the error already has an event's place."""
    try:
        yield
    except InputError as error:
        if error.event is not None or error.message.startswith(f"{name}:"):
            raise
        raise InputError(f"{name}: {error.message}", line=error.line) from None


def only_fields(
    mapping: dict,
    allowed: Sequence[str],
    what: str,
    line: Callable[[Any], int | None] = lambda key: None,
) -> None:
    """Refuse a key that the reader of `what` would ignore: a misspelt field is an error, never
    a silent default (`line`: where each key is written, when known)."""
    for key in mapping:
        if key not in allowed:
            hint = NameSet("field", allowed).suggestion(str(key).lower())
            raise InputError(f"{what} has no field {shown(key)}{hint}", line=line(key))


def as_mapping(value: object, expected: str) -> dict:
    """`value` as a mapping (None: empty), or an InputError saying what was `expected`."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise InputError(f"expected {expected}, got {shown(value)}")


def as_whole(value: object, expected: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number, written as one or as its digits ('7'), within [low, high]; not a float,
    a flag or anything else."""
    if isinstance(value, str) and whole_number(value) is not None:
        value = whole_number(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"expected {expected}, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InputError(f"expected {expected}, got {value}")
    return value


def as_flag(value: object, expected: str) -> bool:
    """true or false, and nothing else (the text 'false' is not true)."""
    if not isinstance(value, bool):
        raise InputError(f"expected {expected}, got {shown(value)}")
    return value


HEADER_FIELDS = ("game", "players", "me", "events", "puzzle", "rejected", "notes")
PUZZLE_FIELDS = ("given", "question", "answer", "difficulty", "path")


def check_header(doc: Document, header: Sequence[str] = (), puzzle: Sequence[str] = ()) -> None:
    """Refuse a top-level or `puzzle:` key that no reader looks at (`colour: red`, `player:`):
    every game reads HEADER_FIELDS and PUZZLE_FIELDS, plus its own `header` and `puzzle` keys.
    `notes:` is free text, for a JSON log that cannot hold comments."""
    only_fields(doc.data, (*HEADER_FIELDS, *header), "the file", doc.key_lines.get)
    body = doc.data.get("puzzle")
    if isinstance(body, dict):
        lines = {key: doc.key_lines.get(f"puzzle.{key}") for key in body}
        only_fields(body, (*PUZZLE_FIELDS, *puzzle), "a puzzle", lines.get)


class _Watched(dict):
    """One mapping of an event as its reader sees it. It remembers every key the reader asks for
    (`m[k]`, `m.get(k)`, `k in m`, or going over all of them), so that a key never asked for, a
    field the reader would silently ignore, is refused after the event is read. Watching what is
    read, rather than keeping a list of fields per event beside each reader, cannot drift from
    the readers. Only the reading sees it: the log itself keeps plain mappings."""

    def __init__(self, data: dict, what: str, every: list[_Watched], read: list | None = None):
        super().__init__(data)
        self.what = what
        self.asked: set = set()
        self.iterated = False
        self.children: dict = {}
        self.every = every
        self.read = [] if read is None else read  # (mapping, key) of every value read, in order
        every.append(self)

    def _value(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        self.read.append((self, key))
        if type(value) is not dict:
            return value
        if key not in self.children:
            self.children[key] = _Watched(value, f"{self.what}.{key}", self.every, self.read)
        return self.children[key]

    def _all(self) -> None:
        self.asked.update(dict.keys(self))
        self.iterated = True  # its keys are data (player names), not fields

    def __getitem__(self, key: Any) -> Any:
        self.asked.add(key)
        return self._value(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.asked.add(key)
        return self._value(key) if dict.__contains__(self, key) else default

    def __contains__(self, key: object) -> bool:
        self.asked.add(key)
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator:
        self._all()
        return dict.__iter__(self)

    def keys(self):  # type: ignore[override]
        self._all()
        return dict.keys(self)

    def items(self):  # type: ignore[override]
        self._all()
        return [(key, self._value(key)) for key in dict.keys(self)]

    def values(self):  # type: ignore[override]
        self._all()
        return [self._value(key) for key in dict.keys(self)]

    def unasked(self) -> list:
        return [key for key in dict.keys(self) if key not in self.asked]

    def refusal(self, key: Any, outer: str | None) -> InputError:
        """The error for a field never asked for; `outer`: the event's kind, when this is the
        event mapping itself (a key beside the kind rather than inside it)."""
        names = sorted(str(k) for k in self.asked if k != outer)
        hint = NameSet("field", names).suggestion(str(key).lower()) if names else ""
        if outer is not None and (not names or "expected one of" in hint):
            hint = f" (a {outer}'s fields go inside it: {outer}: {{...}})"
        return InputError(f"{self.what} has no field {shown(key)}{hint}")

    def named(self, error: InputError) -> InputError:
        """`error`, naming the field whose value it quotes (`play.card: expected a card value,
        got 'zzz'`): the value read last whose text is in the message. An error that names its
        field already, or quotes no value read, is left as it is."""
        for mapping, key in reversed(self.read):
            if mapping.iterated and _quotes(error.message, key):  # a name: `shown: {Zed: 2}`
                if error.message.startswith(f"{mapping.what} "):
                    return error  # named already: "play has no field ..."
                message = f"{mapping.what}: {error.message}"
                return InputError(message, event=error.event, line=error.line)
            if not mapping.iterated and (f"'{key}" in error.message or f"{key}:" in error.message):
                return error
            value = dict.__getitem__(mapping, key)
            quoted = [value, *value] if isinstance(value, list) else [value]
            if any(_quotes(error.message, part) for part in quoted):
                name = key if mapping is self else f"{mapping.what}.{key}"
                return InputError(f"{name}: {error.message}", event=error.event, line=error.line)
        return error

    def misspelt(self) -> Any:
        """A key never asked for that is close to one asked for but absent: most likely the
        cause of whatever went wrong reading the event."""
        missing = [str(k).lower() for k in self.asked if not dict.__contains__(self, k)]
        for key in self.unasked():
            if difflib.get_close_matches(str(key).lower(), missing, n=1, cutoff=0.6):
                return key
        return None


def known_fields(mapping: dict, *keys: str) -> None:
    """Fields an event may carry that this path of its reader has no use for (what changes hands
    when, by a ruling, nothing does): accepted as written, not refused as unknown."""
    if isinstance(mapping, _Watched):
        mapping.asked.update(keys)


def _quotes(message: str, value: Any) -> bool:
    """Whether an error message quotes `value` as the readers do: "got 'zzz'", "got 7",
    "unknown player -5", "unknown card '[]'" (a one-character text only after "got")."""
    text = str(value)
    if len(text) > 4 * QUOTE_LIMIT:  # a long value is only ever quoted cut short
        return quoted(value) in message or quoted(text) in message
    texts = {repr(value), text, repr(text), quoted(value), quoted(text)}
    if any(f"got {text}" in message for text in texts):
        return True
    return any(
        len(text) > 1 and re.search(rf"(?<![\w'\"]){re.escape(text)}(?![\w'\"])", message)
        for text in texts
    )


def read_events(
    doc: Document,
    key: str,
    events: list,
    kinds: Sequence[str],
    handle: Callable[[int, str, dict], None],
    header: Sequence[str] = (),
    puzzle: Sequence[str] = (),
) -> None:
    """Call `handle(number, kind, event)` for each event in order (numbers from 1). An event that
    is not a one-kind mapping, a field its reader never looks at, or an InputError raised
    without a place, is reported with the event's number and line. The document's own keys are
    checked first (`check_header`: `header` and `puzzle` are the game's own)."""
    check_header(doc, header, puzzle)
    for number, event in enumerate(events, start=1):
        where = {"event": number, "line": doc.line_of(key, number - 1)}
        try:
            if not isinstance(event, dict) or not event:
                raise InputError(f"an event is a mapping, one of: {', '.join(kinds)}")
            kind = next(iter(event))
            if kind not in kinds:
                hint = NameSet("event", kinds).suggestion(str(kind).lower())
                raise InputError(f"unknown event {kind!r}{hint}")
            _read_watched(number, kind, event, handle)
        except InputError as error:
            if error.event is None or error.line is None:
                raise InputError(error.message, **where) from None
            raise


def _read_watched(
    number: int, kind: str, event: dict, handle: Callable[[int, str, dict], None]
) -> None:
    """`handle` one event, then refuse any field of it that was never asked for. When reading
    fails, a misspelt field is named instead, being the likelier cause."""
    every: list[_Watched] = []
    watched = _Watched(event, f"the {kind} event", every)
    watched.asked.add(kind)
    if type(event[kind]) is dict:  # the body is named by its kind: "look has no field 'x'"
        watched.children[kind] = _Watched(event[kind], kind, every, watched.read)
    try:
        handle(number, kind, watched)
    except InputError as error:
        for mapping in every:
            misspelt = mapping.misspelt()
            if misspelt is not None:
                outer = kind if mapping is watched else None
                raise mapping.refusal(misspelt, outer) from None
        if error.event is not None:
            raise
        raise watched.named(error) from None
    for mapping in every:
        unasked = mapping.unasked()
        if unasked:
            raise mapping.refusal(unasked[0], kind if mapping is watched else None)


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


MAX_NESTING = 64  # a log nests a few levels; far deeper is a broken file, refused before recursing
FAST_FROM = 20_000  # characters: longer texts go through libyaml (same rules, C speed)


class _LogLoader(yaml.SafeLoader):
    """PyYAML's safe loader, limited to what a log or deck can hold: plain scalars, lists and maps
    nested at most MAX_NESTING deep, no aliases (an alias can nest a value in itself or repeat it
    exponentially). A date reads as its text, and a scalar that cannot be read (`2026-13-45`, a
    5,000-digit number, `!!int x`) is a YAML error with its line instead of a crash."""

    def __init__(self, text: str):
        super().__init__(text)
        self.depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"aliases (*{event.anchor}) are not accepted: write the value out",
                event.start_mark,
            )
        if self.depth >= MAX_NESTING:
            raise yaml.composer.ComposerError(
                None,
                None,
                f"nested more than {MAX_NESTING} levels deep",
                self.peek_event().start_mark,
            )
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        """A mapping; a key given twice (the second would silently replace the first) is an error."""
        mapping = yaml.constructor.SafeConstructor.construct_mapping(self, node, deep=deep)
        if len(mapping) < len(node.value):
            seen: set = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"{key!r} is given twice in one mapping", key_node.start_mark
                    )
                seen.add(key)
        return mapping


def _refuse(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, f"{node.tag.rsplit(':', 1)[-1]} values are not accepted", node.start_mark
    )


def _scalar_or_error(construct: Callable[[yaml.SafeLoader, yaml.Node], Any]) -> Callable:
    def checked(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except (ValueError, TypeError, KeyError, AttributeError):
            text = str(node.value)
            shown = text if len(text) <= 20 else text[:20] + "…"
            kind = node.tag.rsplit(":", 1)[-1]
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {shown!r} as {kind}", node.start_mark
            ) from None

    return checked


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _as_text(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    """A text; one holding a lone surrogate (`"\\ud800"`, half of a character, which no output
    can print) is a YAML error with its line, not a crash when a report or a file names it."""
    text = loader.construct_scalar(node)  # type: ignore[arg-type]
    found = LONE_SURROGATE.search(text)
    if found:
        code = f"\\u{ord(found.group()):04x}"
        raise yaml.constructor.ConstructorError(
            None,
            None,
            f"{code} is half of a character (a lone surrogate), not text",
            node.start_mark,
        )
    return text


_LogLoader.add_constructor("tag:yaml.org,2002:timestamp", _as_text)
_LogLoader.add_constructor("tag:yaml.org,2002:str", _as_text)
for _kind in ("null", "bool", "int", "float"):
    _tag = f"tag:yaml.org,2002:{_kind}"
    _LogLoader.add_constructor(_tag, _scalar_or_error(yaml.SafeLoader.yaml_constructors[_tag]))
for _kind in ("binary", "set", "omap", "pairs"):
    _LogLoader.add_constructor(f"tag:yaml.org,2002:{_kind}", _refuse)


class _FastLogLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same rules with libyaml's parser and composer (C, about four times faster: a
    10,000-event log). Its composer cannot be told a depth limit or to refuse aliases, so
    `_checked_events` goes over the text's events first (libyaml's parser does not recurse)."""

    construct_mapping = _LogLoader.construct_mapping


_FastLogLoader.yaml_constructors = _LogLoader.yaml_constructors


def _checked_events(text: str) -> None:
    """Refuse nesting deeper than MAX_NESTING and aliases, as `_LogLoader` does, from events."""

    def refused(problem: str, mark: Any) -> yaml.MarkedYAMLError:  # libyaml's marks are alike
        return yaml.composer.ComposerError(None, None, problem, mark)

    depth = 0
    for event in yaml.parse(text, Loader=_FastLogLoader):
        if isinstance(event, yaml.AliasEvent):
            message = f"aliases (*{event.anchor}) are not accepted: write the value out"
            raise refused(message, event.start_mark)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise refused(f"nested more than {MAX_NESTING} levels deep", event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _load_yaml(text: str, what: str, own_lines: bool = False) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML (or JSON) text and its node tree; any YAML error is one InputError
    with the line where the text goes wrong (`own_lines`: a line of this file, not of the log,
    so it is said in the message)."""
    try:
        if getattr(yaml, "__with_libyaml__", False) and len(text) > FAST_FROM:
            yaml.reader.Reader(text)  # refuses control characters at once, as below
            _checked_events(text)
            loader: yaml.SafeLoader = _FastLogLoader(text)
        else:
            loader = _LogLoader(text)  # refuses control characters at once
        root = loader.get_single_node()
        return (loader.construct_document(root) if root is not None else None), root
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark else None
        problem = f"{error.context}, {error.problem}" if error.context else error.problem
        if own_lines and line is not None:
            raise InputError(f"{what} is not valid YAML at line {line}: {problem}") from None
        raise InputError(f"{what} is not valid YAML: {problem}", line=line) from None
    except yaml.reader.ReaderError as error:  # a control character, or a byte that is not text
        line = text.count("\n", 0, error.position) + 1
        problem = f"character U+{error.character:04X} is not allowed"
        if own_lines:
            raise InputError(f"{what} is not valid YAML at line {line}: {problem}") from None
        raise InputError(f"{what} is not valid YAML: {problem}", line=line) from None
    except yaml.YAMLError as error:
        raise InputError(f"{what} is not valid YAML: {' '.join(str(error).split())}") from None


def typed_event(text: str, example: str) -> dict:
    """An event typed in a session as YAML (`play: {by: Ben, card: 9}`), read as a log's events
    are (the same limits on nesting, aliases and tags); anything else is one InputError."""
    try:
        event, _ = _load_yaml(text, "the line")
    except InputError as error:
        problem = error.message.removeprefix("the line is not valid YAML: ")
        raise InputError(f"not a YAML event: {problem}") from None
    if not isinstance(event, dict) or len(event) != 1:
        raise InputError(f"a YAML event is one mapping, e.g. {example}")
    return event


def parse_text(text: str, path: str = "<input>") -> Document:
    """Parse YAML (or JSON) text into a Document; a syntax error becomes an InputError with its line."""
    data, root = _load_yaml(text, path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a mapping with 'game' and 'events' (or 'puzzle')")
    lines = {
        "events": _sequence_lines(root, ("events",)) if root else [],
        "given": _sequence_lines(root, ("puzzle", "given")) if root else [],
    }
    return Document(data=data, path=path, lines=lines, key_lines=_key_lines(root))


def _key_lines(root: yaml.Node | None) -> dict[str, int]:
    """The line of each top-level key, of each key of `puzzle:` ("puzzle.KEY") and of each key
    of a mapping there ("puzzle.visible.A1")."""
    found: dict[str, int] = {}
    if not isinstance(root, yaml.MappingNode):
        return found
    for key_node, value_node in root.value:
        name = str(getattr(key_node, "value", ""))
        found[name] = key_node.start_mark.line + 1
        if name == "puzzle" and isinstance(value_node, yaml.MappingNode):
            for inner, inner_value in value_node.value:
                field_name = f"puzzle.{getattr(inner, 'value', '')}"
                found[field_name] = inner.start_mark.line + 1
                if isinstance(inner_value, yaml.MappingNode):  # `visible: {A1: ...}`
                    for key_node, _ in inner_value.value:
                        key = getattr(key_node, "value", "")
                        found[f"{field_name}.{key}"] = key_node.start_mark.line + 1
    return found


def read_text(path: Path, what: str) -> str:
    """A file's text; a file that cannot be read (a bad name, missing, a pipe or a device, too
    large: solver/files.py), or is not UTF-8, is one InputError."""
    return files.read_text(path, what)


def read_deck_file(path: Path) -> Any:
    """The YAML data of a deck file; an unreadable or malformed file is one InputError."""
    what = f"deck {path}"
    return _load_yaml(read_text(path, what), what, own_lines=True)[0]


def load(path: str | Path) -> Document:
    """Read a log or puzzle file."""
    return parse_text(read_text(Path(path), str(path)), str(path))


YAML_LINE_BREAKS = ("\x85", "\u2028", "\u2029")  # YAML 1.1 reads these as line breaks


class _LogDumper(yaml.SafeDumper):
    """PyYAML's safe dumper, except that a string holding a YAML line break is double-quoted.

    With `allow_unicode` PyYAML writes NEL (U+0085) as it is inside a quoted string, and a YAML
    reader folds it into a space: a typed line would come back changed. Double quotes escape it."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if any(mark in text for mark in YAML_LINE_BREAKS) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_LogDumper.add_representer(str, _represent_text)


def dump(data: dict[str, Any]) -> str:
    """YAML text for a log, keys in the order they were given, flow style for short lists."""
    return yaml.dump(
        data, Dumper=_LogDumper, sort_keys=False, default_flow_style=None, allow_unicode=True
    )


KEEP_LAYOUT_UP_TO = 100_000  # bytes: a log this large is machine-made, and written plainly


def save_atomically(path: str | Path, data: dict[str, Any]) -> None:
    """Write `data` to `path` so that a crash leaves either the old or the new file, never half.

    A file that exists keeps what Sleuth was not asked to change: its comments, its layout and
    its permissions. It is read again with a round-trip YAML reader (ruamel.yaml), the values
    that changed are set, events added at the end are appended and events undone are removed,
    and only then is the whole text written. A file that round trip cannot read as a mapping,
    a new file, or one over KEEP_LAYOUT_UP_TO bytes (round trip takes about a second per 30 KB,
    at every event) is written plainly (`dump`), its permissions still kept.

    Only a regular file is written over, and only one that is UTF-8 text: a folder, a pipe, a
    device (`/dev/full`) or a file that is not text is refused, and nothing changes."""
    path = files.user_path(path)
    kind = files.existing_kind(path)
    if kind is not None:
        raise InputError(f"cannot save {path}: it is {kind}, not a file")
    temporary = None
    try:
        previous = path.stat() if path.exists() else None
        text = None
        if previous is not None and previous.st_size <= KEEP_LAYOUT_UP_TO:
            try:
                old = files.read_text(path, str(path), limit=KEEP_LAYOUT_UP_TO)
            except InputError:
                raise InputError(
                    f"cannot save {path}: the file there is not UTF-8 text, so not a log, and "
                    "is not written over"
                ) from None
            text = kept_layout(old, data)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".sleuth-", suffix=".yaml")
        os.fchmod(fd, previous.st_mode & 0o7777 if previous else _new_file_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text if text is not None else dump(data))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:  # no such folder, no permission, a full disk: the old file stays
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)
        raise InputError(f"cannot save {path}: {error.strerror}") from None


def _new_file_mode() -> int:
    """The mode `open` gives a new file: 0666 less the umask (mkstemp's own is 0600)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def kept_layout(text: str, data: dict[str, Any]) -> str | None:
    """`text` (a log as it is on disk) changed into `data` with its comments and layout kept,
    or None if the round-trip reader cannot take it or its text does not read back as `data`.

    New values are written by `dump` first and read back by the round-trip reader, so that they
    look as `dump` writes them (short lists inline) and keep its quoting."""
    from io import StringIO

    from ruamel.yaml import YAML, YAMLError
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.util import load_yaml_guess_indent

    writer = YAML()
    writer.preserve_quotes = True
    writer.width = 4096  # never folds a line the file did not fold
    try:
        _, indent, offset = load_yaml_guess_indent(text)
        loaded = writer.load(text)
    except (YAMLError, ValueError):
        return None
    if not isinstance(loaded, CommentedMap):
        return None

    def fresh(value: Any) -> Any:
        return writer.load(dump({"value": value}))["value"]

    for key in [k for k in loaded if k not in data]:
        del loaded[key]
    for key, value in data.items():
        old = loaded.get(key)
        if isinstance(old, CommentedSeq) and isinstance(value, list):
            same = 0  # the events kept as they were written; the rest undone or added
            while same < min(len(old), len(value)) and old[same] == value[same]:
                same += 1
            del old[same:]
            if not old:  # `events: []` becomes a block list, one event a line
                loaded[key] = fresh(value)
            else:
                old.extend(fresh(value[same:]))
        elif key not in loaded:  # a new header goes before the events, as `dump` puts it
            last = [i for i, k in enumerate(loaded) if k in ("events", "rejected")]
            at_end = key in ("events", "rejected") or not last
            loaded.insert(len(loaded) if at_end else last[0], key, fresh(value))
        elif old != value:
            loaded[key] = fresh(value)
    writer.indent(mapping=indent or 2, sequence=indent or 2, offset=offset or 0)
    out = StringIO()
    writer.dump(loaded, out)
    try:  # a last guard: the text must read back as the data
        same = yaml.safe_load(out.getvalue()) == data
    except yaml.YAMLError:
        same = False
    return out.getvalue() if same else None
