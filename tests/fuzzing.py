"""Hypothesis strategies that break Sleuth's input: mutations of every bundled example and deck
(in the parsed data and in the raw text), and YAML documents built from scratch.

Used by tests/test_fuzz.py. Every strategy draws a `Case`: the files to write and the command line
to run on them. Deep nesting is written as text (a YAML dumper would recurse as deeply itself).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
GAMES = sorted({path.parent.name for path in EXAMPLES})
DECKS = {
    "six-suspects": ROOT / "models" / "six_suspects" / "deck.yaml",
    "game-of-suspicion": ROOT / "models" / "game_of_suspicion" / "deck.yaml",
    "suspeicao": ROOT / "models" / "suspeicao" / "deck.yaml",
}
COMMANDS = ("solve", "suggest", "replay", "check")
DEEP = "__deep_{}__"  # a placeholder scalar, replaced by deeply nested text after dumping

# Games whose hidden worlds can be large in the middle of a round (a Suspeição replay of the whole
# 3-player example takes most of a minute): their examples are cut to the first events before
# they are mutated, so a mutant stays small to count, and nothing checked about the output of a
# command is dropped.
SMALL_GAMES = ("game-of-suspicion", "suspeicao")
FIRST_EVENTS = 12


@dataclass
class Case:
    """Files to write (name -> text or bytes) and the arguments of one `sleuth` command; `{dir}`
    in an argument is replaced by the folder the files are written to."""

    files: dict[str, str | bytes]
    args: list[str]
    note: str = ""
    game: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def write(self, folder: Path) -> list[str]:
        for name, content in self.files.items():
            target = folder / name
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        return [a.replace("{dir}", str(folder)) for a in self.args]


def _scalars_in(data: Any) -> set[Any]:
    if isinstance(data, dict):
        return set().union(*(_scalars_in(k) | _scalars_in(v) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(*(_scalars_in(v) for v in data))
    return {data} if isinstance(data, str | int) and not isinstance(data, bool) else set()


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _first_events(path: Path) -> str:
    """The example's text; for the games in SMALL_GAMES, only its first FIRST_EVENTS events."""
    text = path.read_text(encoding="utf-8")
    if path not in EXAMPLES or path.parent.name not in SMALL_GAMES:
        return text
    data = yaml.safe_load(text)
    if isinstance(data.get("events"), list):
        data["events"] = data["events"][:FIRST_EVENTS]
    else:
        data["puzzle"]["given"] = data["puzzle"]["given"][:FIRST_EVENTS]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)


TEXTS = {path: _first_events(path) for path in [*EXAMPLES, *DECKS.values()]}
DATA = {path: yaml.safe_load(text) for path, text in TEXTS.items()}
# Every name, key and number the examples use: mutants built from them get past the first checks.
VOCABULARY = sorted(set().union(*(_scalars_in(d) for d in DATA.values())), key=repr)


def game_of(path: Path) -> str:
    return str(DATA[path].get("game", path.parent.name)) if path in EXAMPLES else ""


# --- values of every type a YAML file can hold ----------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=60),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -1.0, 1e300, math.inf]),
    st.sampled_from(VOCABULARY),
    st.text(max_size=12),
    st.sampled_from(["", " ", "[/x]", "\t", "~", "-", "1-", "0-0", "50-1", "x" * 300]),
    st.sampled_from(["²", "٣", "\ud800", "Ana\udcff", "1" * 5000, "x" * 100_000]),  # issue 30
    st.dates(),
    st.datetimes(),
    st.binary(max_size=6),
)
keys = st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=8), st.integers(-2, 12), st.none())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(keys, inner, max_size=4),
    ),
    max_leaves=12,
)


@st.composite
def deep_text(draw: st.DrawFn) -> str:
    """Flow-style YAML nested hundreds of levels: lists, maps or both."""
    depth = draw(st.sampled_from([64, 101, 150, 400, 1200, 5000]))
    shape = draw(st.sampled_from(["list", "map", "mixed"]))
    if shape == "list":
        return "[" * depth + "1" + "]" * depth
    if shape == "map":
        return "{a: " * depth + "1" + "}" * depth
    return "[{a: " * (depth // 2) + "1" + "}]" * (depth // 2)


# --- mutations of parsed data ----------------------------------------------------------------


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a tree of dicts and lists, as a path of keys and indexes."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


def _get(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


@st.composite
def mutated_data(draw: st.DrawFn, data: Any) -> tuple[Any, list[str]]:
    """`data` with one to three changes: a value replaced by any value (or by deep nesting), a key
    or item removed, an item duplicated, a key renamed, a value moved elsewhere, a value wrapped."""
    import copy

    data = copy.deepcopy(data)
    deep: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        operation = draw(
            st.sampled_from(
                ["replace", "replace", "delete", "duplicate", "rename", "move", "wrap", "deep"]
            )
        )
        if not path:  # the root: replace the whole document
            if operation in ("replace", "deep"):
                data = draw(values)
            continue
        parent, last = _get(data, path[:-1]), path[-1]
        if operation == "replace":
            parent[last] = draw(values)
        elif operation == "deep":
            deep.append(draw(deep_text()))
            parent[last] = DEEP.format(len(deep) - 1)
        elif operation == "delete":
            del parent[last]
        elif operation == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif operation == "rename" and isinstance(parent, dict):
            new_key = draw(keys)
            parent[new_key] = parent.pop(last)
        elif operation == "move":
            parent[last] = copy.deepcopy(_get(data, draw(st.sampled_from(paths))))
        elif operation == "wrap":
            parent[last] = draw(st.sampled_from([[parent[last]], {"x": parent[last]}]))
    return data, deep


def dump(data: Any, deep: list[str]) -> str:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)
    for index, nested in enumerate(deep):
        text = text.replace(DEEP.format(index), nested)
    return text


# --- mutations of raw text -------------------------------------------------------------------


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str | bytes:
    """`text` with lines removed, repeated, swapped or re-indented, characters changed, numbers
    replaced, the end cut off, or bytes that are not UTF-8."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        operation = draw(
            st.sampled_from(
                ["delete", "repeat", "swap", "indent", "char", "number", "cut", "insert", "deep"]
            )
        )
        line = lines[at]
        if operation == "delete":
            del lines[at]
        elif operation == "repeat":
            lines.insert(at, line)
        elif operation == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], line
        elif operation == "indent":
            lines[at] = " " * draw(st.integers(0, 6)) + line.lstrip()
        elif operation == "char" and line:
            where = draw(st.integers(0, len(line) - 1))
            new = draw(st.sampled_from(list(":-[]{},&*!|>'\"#% ?@`\t0123456789xé")))
            lines[at] = line[:where] + new + line[where + 1 :]
        elif operation == "number":
            digits = [i for i, c in enumerate(line) if c.isdigit()]
            if digits:
                where = draw(st.sampled_from(digits))
                number = draw(
                    st.sampled_from(
                        ["-1", "99", "1e9", "0.5", "2026-12-01", "2026-13-45", "1" * 5000]
                    )
                )
                lines[at] = line[:where] + number + line[where + 1 :]
        elif operation == "cut":
            lines = lines[:at]
        elif operation == "insert":
            lines.insert(
                at, draw(st.sampled_from(["- x", "x:", "  - [a, b]", "? x", "---", "..."]))
            )
        elif operation == "deep":
            lines[at] = line.split(":")[0] + ": " + draw(deep_text()) if ":" in line else line
    mutated = "\n".join(lines) + "\n"
    if draw(st.integers(0, 19)) == 0:
        where = draw(st.integers(0, len(mutated)))
        return mutated[:where].encode() + draw(st.sampled_from([b"\xff\xfe", b"\x80", b"\x00"]))
    return mutated


# --- a whole case ----------------------------------------------------------------------------


@st.composite
def command_line(draw: st.DrawFn, file: str, game: str) -> list[str]:
    command = draw(st.sampled_from(COMMANDS))
    args = [command, file]
    upto = draw(st.one_of(st.none(), st.integers(-1, FIRST_EVENTS)))
    if upto is not None and command in ("solve", "suggest"):
        args += ["--upto", str(upto)]
    if command == "suggest" and draw(st.booleans()):
        args += ["--horizon", str(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        args.append("--json")
    return args


@st.composite
def example_mutant(draw: st.DrawFn) -> Case:
    """A bundled example, changed in its data or its text, through one command."""
    path = draw(st.sampled_from(EXAMPLES))
    game = game_of(path)
    if draw(st.booleans()):
        data, deep = draw(mutated_data(DATA[path]))
        content: str | bytes = dump(data, deep)
        note = "data"
    else:
        content = draw(mutated_text(TEXTS[path]))
        note = "text"
    name = f"{path.stem}.yaml"
    return Case({name: content}, draw(command_line(f"{{dir}}/{name}", game)), note, game)


@st.composite
def deck_mutant(draw: st.DrawFn) -> Case:
    """A game's bundled deck, changed, given with `--deck` to one of that game's examples."""
    game = draw(st.sampled_from(sorted(DECKS)))
    deck = DECKS[game]
    if draw(st.booleans()):
        data, deep = draw(mutated_data(DATA[deck]))
        content: str | bytes = dump(data, deep)
    else:
        content = draw(mutated_text(TEXTS[deck]))
    path = draw(st.sampled_from([p for p in EXAMPLES if game_of(p) == game]))
    files = {"deck.yaml": content, path.name: TEXTS[path]}  # the example as cut above
    args = draw(command_line(f"{{dir}}/{path.name}", game))
    return Case(files, [*args, "--deck", "{dir}/deck.yaml"], "deck", game)


@st.composite
def generated_document(draw: st.DrawFn) -> Case:
    """A document built from scratch: a game's header and events of its kinds, with any values."""
    game = draw(st.sampled_from(GAMES))
    kinds = sorted(
        {
            next(iter(event))
            for path in EXAMPLES
            if game_of(path) == game
            for event in (DATA[path].get("events") or DATA[path].get("puzzle", {}).get("given", []))
            if isinstance(event, dict)
        }
    )
    event = st.dictionaries(st.sampled_from(kinds) | keys, values, min_size=1, max_size=2)
    header = st.fixed_dictionaries(
        {"game": st.just(game)},
        optional={
            "players": st.one_of(
                st.lists(st.sampled_from(["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay"]), max_size=7),
                values,
            ),
            "me": st.sampled_from(["Ana", "Ben", "Zed"]) | values,
            "advanced": values,
            "options": values,
            "deck": values,
        },
    )
    data = dict(draw(header))
    events = draw(st.lists(event | values, max_size=8))
    if draw(st.booleans()):
        data["events"] = events
    else:
        data["puzzle"] = draw(
            st.fixed_dictionaries(
                {"given": st.just(events)}, optional={"question": values, "answer": values}
            )
        )
    name = "generated.yaml"
    return Case({name: dump(data, [])}, draw(command_line(f"{{dir}}/{name}", game)), "new", game)


cases = st.one_of(example_mutant(), deck_mutant(), generated_document())
