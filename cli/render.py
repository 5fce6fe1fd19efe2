"""Rich rendering of game-independent reports, and one-line errors."""

from __future__ import annotations

import json
import os
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from solver.errors import SleuthError
from solver.report import Report

console = Console()
errors = Console(stderr=True)


def fit_to_terminal() -> None:
    """Read COLUMNS anew for every command: the consoles are made once per process, and one
    process may run many commands (the tests do), each with its own width."""
    columns = os.environ.get("COLUMNS", "")
    for out in (console, errors):
        out.width = int(columns) if columns.isdigit() else None  # type: ignore[assignment]


def show(report: Report, as_json: bool = False, out: Console | None = None) -> None:
    """Print a report: one JSON object, or its tables and lines."""
    out = out or console
    if as_json:
        print(json.dumps(report.data, ensure_ascii=False))
        return
    for table in report.tables:
        rich_table = RichTable(title=table.title, title_justify="left")
        for column in table.columns:
            rich_table.add_column(column)
        for i, row in enumerate(table.rows):
            rich_table.add_row(*row, style="bold green" if i in table.highlight else None)
        out.print(rich_table)
    for line in report.lines:
        out.print(line, highlight=False)
    for warning in report.warnings:
        errors.print(f"[yellow]warning:[/] {warning}", highlight=False)


def show_error(error: SleuthError, as_json: bool = False) -> None:
    """One line on stderr (and the error as JSON on stdout with --json); never a traceback."""
    if as_json:
        print(json.dumps(error.to_json(), ensure_ascii=False))
    errors.print(f"[red]error:[/] {escape(one_line(str(error)))}", highlight=False, soft_wrap=True)
    sys.stderr.flush()


def one_line(text: str) -> str:
    """`text` with every character that is not printable (a line break of any kind, such as
    a record separator in a file name, or another control character) written as its escape,
    so that an error stays one line."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
