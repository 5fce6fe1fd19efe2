"""Reading YAML/JSON logs and puzzles, keeping the source line of every event for error messages."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from solver.errors import InputError


@dataclass
class Document:
    """A parsed log or puzzle file: its data and the 1-based line of each item of a list."""

    data: dict[str, Any]
    path: str = "<input>"
    lines: dict[str, list[int]] = field(default_factory=dict)

    def line_of(self, key: str, index: int) -> int | None:
        found = self.lines.get(key, [])
        return found[index] if index < len(found) else None


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
