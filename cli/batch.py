"""`sleuth batch solve|check PATH...`: many logs or puzzles on every core (or a Dask cluster),
one JSON Lines object per file, written as each file's chunk ends.

Each line is `{"path": ..., "exit_code": ..., "output": ...}`: `output` is exactly what
`sleuth solve PATH --json` (or `check`) prints, and `exit_code` the status it would end with. A
bad file is its own line; the batch goes on. Lines are written whole, one write and a flush each,
so a batch stopped by Ctrl-C (or a crash) leaves a file of whole lines, and `--resume` answers
only the files not in it yet.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from cli.render import errors, show, show_error
from solver.errors import InputError, SleuthError
from solver.files import printable_name, read_bytes, user_path
from solver.report import Report, Table

batch_app = typer.Typer(
    help="Many logs or puzzles at once, on every core or a Dask cluster: one JSON line per "
    "file (docs/cluster.md).\n\nExample: [bold]sleuth batch solve examples/ -o answers.jsonl[/]",
    no_args_is_help=True,
    rich_markup_mode="rich",
)

INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C
OUTCOMES = {
    0: "answered",
    1: "contradictory or not unique",
    2: "bad input",
    3: "Sleuth's own error",
}

Paths = Annotated[list[str], typer.Argument(help="Files, folders (their *.yaml) and patterns.")]
Output = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the lines to this file (stdout by default)."),
]
Resume = Annotated[
    bool,
    typer.Option(help="Skip the files already answered in --output, and add the rest to it."),
]
Deck = Annotated[
    Path | None,
    typer.Option(help="A deck file replacing each file's deck (games that have one)."),
]
Workers = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Local Dask worker processes (default: one per core; 1: this process only).",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        help="An existing Dask cluster's scheduler, e.g. tcp://HOST:8786 (default: "
        "$SLEUTH_SCHEDULER unless --workers is given).",
        show_default=False,
    ),
]
Json = Annotated[
    bool,
    typer.Option("--json", help="The summary (with --output) or an error as one JSON object."),
]


def batch_command(command: str, doc: str) -> None:
    """Register `batch COMMAND`: `solve` and `check` take the same options and differ only in
    the one-file command each line gives."""

    def body(
        paths: Paths,
        output: Output = None,
        resume: Resume = False,
        deck: Deck = None,
        workers: Workers = None,
        scheduler: Scheduler = None,
        as_json: Json = False,
    ) -> None:
        many(command, paths, output, resume, deck, workers, scheduler, as_json)

    body.__doc__ = doc
    batch_app.command(command)(body)


batch_command(
    "solve",
    """Solve every log, one JSON line each (what `solve --json` prints, and its exit status).

    A broken or contradictory log is its own line; the batch goes on. Ctrl-C leaves whole
    lines; --resume answers only the logs not yet in --output.

    Example: [bold]sleuth batch solve examples/three-of-a-crime/ -o answers.jsonl[/]
    or [bold]sleuth batch solve 'examples/**/round-*.yaml' -o answers.jsonl --resume --workers 2[/]
    """,
)
batch_command(
    "check",
    """Check every puzzle, one JSON line each (what `check --json` prints, and its exit status).

    Exit status 1 on a line: not unique (or contradictory). As `batch solve` otherwise.

    Example: [bold]sleuth batch check 'examples/three-of-a-crime/puzzle-*.yaml' -o checked.jsonl[/]
    """,
)


def many(
    command: str,
    paths: list[str],
    output: Path | None,
    resume: bool,
    deck: Path | None,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
) -> None:
    from rich.progress import Progress

    from models.jobs import answer_all, files_named

    try:
        if resume and output is None:
            raise InputError("--resume reads the lines of --output: give --output FILE too")
        if output is not None:
            output = user_path(output, "--output")
        if output is not None and output.exists() and not resume:  # never lose earlier lines
            raise InputError(f"{output} exists: --resume goes on from it; remove it to start over")
        files = files_named(paths)
        if not files:
            raise InputError(f"no files in {' '.join(paths)}")
        done = answered(output) if resume and output is not None else set()
        todo = [f for f in files if printable_name(f) not in done]
        outcomes: Counter[int] = Counter()
        deck_name = str(deck.resolve()) if deck is not None else None
        with (
            lines_to(output, append=resume) as out,
            Progress(console=errors, transient=True) as progress,
        ):
            bar = progress.add_task(f"batch {command}", total=len(todo))
            try:
                for line in answer_all(
                    command,
                    todo,
                    deck_name,
                    workers=workers,
                    scheduler=scheduler,
                    progress=lambda chunk: progress.advance(bar, chunk.size),
                ):
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
                    out.flush()
                    outcomes[line["exit_code"]] += 1
            except KeyboardInterrupt:
                progress.stop()
                errors.print(
                    f"interrupted: {sum(outcomes.values())} of {len(todo)} files answered, "
                    "each a whole line"
                    + (f"; `--resume` goes on from there ({output})" if output else ""),
                    highlight=False,
                )
                raise typer.Exit(INTERRUPTED) from None
    except SleuthError as error:
        show_error(error, as_json)  # with --json, stdout says it as JSON too (a line of its own)
        raise typer.Exit(error.exit_code) from None
    summary = summarised(command, len(files), len(done), outcomes, output)
    if output is not None:
        show(summary, as_json)
    else:  # stdout carries the lines
        for text in summary.lines:
            errors.print(text, highlight=False)


LINE_START = b'{"path": '  # how every line a batch writes begins (json.dumps of `answer`)


def answered(output: Path) -> set[str]:
    """The files already answered in `output`. A last line cut short (no newline: a write
    interrupted by a crash) is removed, so that the file ends with whole lines again, but only
    when it begins as a batch's line does; any other line that is not a batch line means the
    file is not this batch's, and it is refused untouched."""
    if not output.exists():
        return set()
    data = read_bytes(output, str(output))
    done: set[str] = set()
    whole = 0
    for number, line in enumerate(data.splitlines(keepends=True), 1):
        if not line.endswith(b"\n"):  # the last line, cut short by a crash?
            if not line.startswith(LINE_START):
                raise not_a_batch(output, number)
            break
        try:
            path = json.loads(line)["path"]
        except (ValueError, KeyError, TypeError):
            raise not_a_batch(output, number) from None
        done.add(str(path))
        whole += len(line)
    if whole < len(data):
        with output.open("r+b") as file:
            file.truncate(whole)
    return done


def not_a_batch(output: Path, number: int) -> InputError:
    return InputError(
        f"{output} line {number} is not a line of sleuth batch: is it the right file?"
    )


class lines_to:
    """The place the lines go: `output` (appended to with --resume, else new), or stdout."""

    def __init__(self, output: Path | None, append: bool):
        self.output, self.append = output, append
        self.file: TextIO | None = None

    def __enter__(self) -> TextIO:
        if self.output is None:
            return sys.stdout
        try:
            self.file = self.output.open("a" if self.append else "w", encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot write {self.output}: {error.strerror}") from None
        return self.file

    def __exit__(self, *exc: Any) -> None:
        if self.file is not None:
            self.file.close()


def summarised(
    command: str, files: int, skipped: int, outcomes: Counter[int], output: Path | None
) -> Report:
    """How the batch went: files answered by exit status, and those skipped by --resume."""
    data = {
        "command": command,
        "files": files,
        "skipped": skipped,
        "exit_codes": {str(code): outcomes[code] for code in sorted(outcomes)},
        "output": str(output) if output is not None else None,
    }
    rows = [[str(c), OUTCOMES.get(c, "?"), str(n)] for c, n in sorted(outcomes.items())]
    said = f"batch {command}: {sum(outcomes.values())} file(s) answered"
    if skipped:
        said += f", {skipped} skipped (already in {output})"
    if output is None:  # no table: the outcomes in the line
        said += "".join(
            f"; {n} {OUTCOMES.get(c, '?')} (exit {c})" for c, n in sorted(outcomes.items())
        )
        return Report(data, [], [said])
    table = Table(f"batch {command}: {files} file(s)", ["exit", "meaning", "files"], rows)
    return Report(data, [table], [f"{said}; the lines are in {output}"])
