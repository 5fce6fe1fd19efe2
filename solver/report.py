"""Game-independent results: JSON data plus plain tables and lines that the CLI renders with Rich."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


def probability(value: Fraction | int) -> float:
    """A probability for display and JSON: a float rounded to 6 decimals (the exact value stays exact)."""
    return round(float(value), 6)


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    highlight: set[int] = field(default_factory=set)  # indexes of rows to emphasise


@dataclass
class Report:
    """What a command found: `data` is printed by --json, `tables` and `lines` by the terminal view."""

    data: dict[str, Any]
    tables: list[Table] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    exit_code: int = 0
