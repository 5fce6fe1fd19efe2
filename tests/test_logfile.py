"""The YAML reader: a long text goes through libyaml (`FAST_FROM`) and must read exactly as the
pure-Python loader reads it, data and lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models import game_of_suspicion, six_suspects, suspeicao, three_of_a_crime
from solver import logfile
from solver.errors import InputError
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
    assert fast.key_lines == slow.key_lines


def test_scalars_are_read_the_same_way(monkeypatch):
    """Dates stay text, numbers stay numbers, `yes` is text as in the slow loader."""
    text = (
        "game: three-of-a-crime\nevents:\n"
        + "  - {a: 2026-12-01, b: 12, c: 1.5, d: yes, e: ~, f: 0x1f, g: '7'}\n" * 600
    )
    fast, slow = both_ways(text, monkeypatch)
    assert fast.data == slow.data
    assert fast.lines == slow.lines


PARSERS = {  # each game's log reader: the events as the reader alone reads them
    "three-of-a-crime": three_of_a_crime.log.parse,
    "six-suspects": six_suspects.log.parse,
    "game-of-suspicion": game_of_suspicion.log.parse,
    "suspeicao": suspeicao.log.parse,
}
WITH_EVENTS = [e for e in EXAMPLES if "given:" in e.read_text() or "events:" in e.read_text()]


def read_all(doc: logfile.Document) -> None:
    PARSERS[doc.data["game"]](doc, key=doc.events_key)


@pytest.mark.parametrize("example", WITH_EVENTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_field_added_anywhere_in_an_example_is_refused(example):
    """Issue 16: a field no reader asks for is refused wherever it is put: inside each event's
    body, beside its kind, and in each nested mapping (the example itself reads)."""
    text = example.read_text()
    read_all(parse_text(text))
    doc = parse_text(text)
    events = doc.events(doc.events_key)
    places = []
    for index, event in enumerate(events):
        places.append((index, event))
        stack = [value for value in event.values() if isinstance(value, dict)]
        while stack:
            mapping = stack.pop()
            places.append((index, mapping))
            stack += [value for value in mapping.values() if isinstance(value, dict)]
    assert places
    for index, mapping in places:
        mapping["zz_extra"] = 1
        with pytest.raises(InputError) as refused:
            read_all(doc)
        del mapping["zz_extra"]
        assert refused.value.event == index + 1, refused.value
        message = refused.value.message  # a mapping keyed by names: an unknown player
        assert "no field 'zz_extra'" in message or re.match(
            r"[a-z_.]+: unknown player 'zz_extra'", message
        ), refused.value


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=12))
@example("0\x850")
@example("a\u2028b")
def test_any_text_dumped_reads_back_unchanged(text):
    """Typed lines are kept verbatim: a YAML line break (NEL, U+2028) must not fold to a space."""
    data = {"rejected": [{"typed": text}], "note": text}
    assert yaml.safe_load(logfile.dump(data)) == data
