"""The YAML reader: a long text goes through libyaml (`FAST_FROM`) and must read exactly as the
pure-Python loader reads it, data and lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver import logfile
from solver.logfile import FAST_FROM, parse_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def both_ways(text: str, monkeypatch) -> tuple[logfile.Document, logfile.Document]:
    """The document read the fast way (long text) and the slow way (limit raised above it)."""
    assert len(text) > FAST_FROM
    fast = parse_text(text)
    monkeypatch.setattr(logfile, "FAST_FROM", len(text) + 1)
    slow = parse_text(text)
    return fast, slow


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_long_text_reads_as_the_slow_loader_reads_it(example, monkeypatch):
    """Each example, its events repeated past FAST_FROM characters: same data, same lines."""
    text = example.read_text()
    if "\nevents:\n" in text:
        head, events = text.split("\nevents:\n", 1)
        body = events if events.endswith("\n") else events + "\n"
        text = head + "\nevents:\n" + body * (FAST_FROM // max(len(body), 1) + 2)
    else:
        text += "# " + "x" * FAST_FROM + "\n"
    fast, slow = both_ways(text, monkeypatch)
    assert fast.data == slow.data
    assert fast.lines == slow.lines


def test_scalars_are_read_the_same_way(monkeypatch):
    """Dates stay text, numbers stay numbers, `yes` is text as in the slow loader."""
    text = (
        "game: three-of-a-crime\nevents:\n"
        + "  - {a: 2026-12-01, b: 12, c: 1.5, d: yes, e: ~, f: 0x1f, g: '7'}\n" * 600
    )
    fast, slow = both_ways(text, monkeypatch)
    assert fast.data == slow.data
    assert fast.lines == slow.lines
