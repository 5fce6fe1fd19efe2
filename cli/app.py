"""The `sleuth` command line: one Typer app whose commands work for every registered game."""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from cli.batch import Scheduler, Workers, batch_app
from cli.render import errors, fit_to_terminal, show, show_error
from models import GAMES, game_named, game_of, with_deck
from solver.errors import InputError, InternalError, SleuthError
from solver.explain import explain_with, solution_path
from solver.files import user_path
from solver.logfile import Document, dump, load
from solver.puzzle import checked


def _usage_error_as_json(error: typer.TyperException, args: Any) -> None:
    """With --json, a usage error is one JSON object on stdout, like every other error."""
    if getattr(error, "exit_code", None) == 2 and "--json" in list(args or ()):
        print(json.dumps({"error": error.format_message(), "exit_code": 2}, ensure_ascii=False))


class JsonUsageErrors(TyperGroup):
    """The command group, for usage errors that click finds before any command runs (a bad option
    value, a missing argument, an unknown option or command): with --json they are also printed
    as one JSON object on stdout; stderr keeps click's message either way."""

    def make_context(self, info_name: Any, args: Any, parent: Any = None, **extra: Any) -> Any:
        given = list(args)  # the parser consumes `args`
        try:
            ctx = super().make_context(info_name, args, parent=parent, **extra)
        except typer.TyperException as error:
            _usage_error_as_json(error, given)
            raise
        ctx.meta["sleuth.args"] = given
        return ctx

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)  # finds the command and parses its options
        except typer.TyperException as error:
            _usage_error_as_json(error, ctx.meta.get("sleuth.args"))
            raise


app = typer.Typer(
    cls=JsonUsageErrors,
    help="Sleuth: what the cards you have seen make certain, possible and likely.",
    no_args_is_help=True,
    rich_markup_mode="rich",
)


@app.callback()
def every_command() -> None:
    # before any command: the width of this command's terminal
    fit_to_terminal()


JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object and nothing else.")]
DeckOption = Annotated[
    Path | None,
    typer.Option(
        "--deck",
        help="A deck file replacing the game's (6 Suspects, Game of Suspicion, Suspeição).",
    ),
]
LogArgument = Annotated[Path, typer.Argument(help="A game log (YAML or JSON).", show_default=False)]


def opened(path: Path, deck: Path | None) -> tuple[Document, Any]:
    """A log or puzzle and its game; `--deck` replaces the file's deck (for games that have
    one)."""
    doc = load(path)
    game = game_of(doc)
    if deck is not None:
        with_deck(doc, game, str(deck.resolve()))
    return doc, game


def on_file(path: Path, command: str, deck: Path | None, *args: Any) -> Callable[[], Any]:
    """A command body that loads a log or puzzle and asks its game for `command`'s report."""

    def body() -> Any:
        doc, game = opened(path, deck)
        return getattr(game, command)(doc, *args)

    return body


def run(action: Callable[[], Any], as_json: bool = False, spinner: bool = True) -> None:
    """Run a command body; user errors become one line and an exit status, never a traceback.
    A spinner on stderr (only on a terminal) shows that a long count is still going."""
    try:
        if spinner:
            with errors.status("counting…"):
                report = action()
        else:
            report = action()
    except SleuthError as error:
        show_error(error, as_json)
        raise typer.Exit(error.exit_code) from None
    if report is not None:
        show(report, as_json)
        if report.exit_code:
            raise typer.Exit(report.exit_code)


@app.command()
def games(as_json: JsonOption = False) -> None:
    """List the games Sleuth knows, their decks and house rulings.

    Example: [bold]sleuth games --json[/]
    """
    from solver.report import Report, Table

    described = [game.describe() for game in GAMES.values()]
    rows = [[d["game"], d["title"], d["deck"], "; ".join(d["rulings"])] for d in described]
    run(
        lambda: Report(
            {"games": described}, [Table("Games", ["name", "title", "deck", "rulings"], rows)]
        ),
        as_json,
    )


@app.command()
def new(game: Annotated[str, typer.Argument(help="Game name, e.g. three-of-a-crime.")]) -> None:
    """Print a commented log template for GAME.

    Example: [bold]sleuth new three-of-a-crime > game.yaml[/]
    """

    def body():
        print(game_named(game).template(), end="")

    run(body, spinner=False)


@app.command()
def solve(
    log: LogArgument,
    upto: Annotated[int | None, typer.Option(help="Use only the first N events.")] = None,
    deck: DeckOption = None,
    as_json: JsonOption = False,
) -> None:
    """What is certain, what is possible and how likely, after the whole log (or event N).

    Example: [bold]sleuth solve examples/three-of-a-crime/multi-round.yaml --upto 5[/]
    """

    run(on_file(log, "solve", deck, upto), as_json)


@app.command()
def suggest(
    log: LogArgument,
    upto: Annotated[int | None, typer.Option(help="Use only the first N events.")] = None,
    horizon: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Moves to look ahead (default: the game's own; Three of a Crime looks one card "
            "ahead, 6 Suspects the looks you have left; Game of Suspicion and Suspeição: 2, my "
            "move, the others' turns and my next move, or 1, my move only).",
        ),
    ] = None,
    looks_left: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="6 Suspects: the looks I have left before the vote (default: from the log, "
            "as the rules fix it).",
        ),
    ] = None,
    deck: DeckOption = None,
    as_json: JsonOption = False,
) -> None:
    """The best next move and its value: what to accuse and whether to do it now.

    Example: [bold]sleuth suggest examples/three-of-a-crime/wrong-accusation.yaml[/]
    or [bold]sleuth suggest examples/six-suspects/worked-check.yaml --looks-left 2[/]
    """

    def body() -> Any:
        doc, game = opened(log, deck)
        if looks_left is None:
            return game.suggest(doc, upto, horizon)
        if "looks_left" not in inspect.signature(game.suggest).parameters:
            raise InputError(f"--looks-left means nothing in {game.title}: leave it out")
        return game.suggest(doc, upto, horizon, looks_left=looks_left)

    run(body, as_json)


@app.command()
def explain(
    log: LogArgument,
    fact: Annotated[
        list[str] | None,
        typer.Argument(
            help="A fact named as solve names it, e.g. NNN guilty (quotes optional; default: "
            "every certain fact).",
            show_default=False,
        ),
    ] = None,
    upto: Annotated[int | None, typer.Option(help="Use only the first N events.")] = None,
    deck: DeckOption = None,
    as_json: JsonOption = False,
) -> None:
    """Why a fact is certain: a minimal set of events that entails it, replayed as a chain.

    For a fact that is not certain: the events that moved its probability most (each event
    left out in turn, the log solved exactly without it).

    Example: [bold]sleuth explain examples/three-of-a-crime/multi-round.yaml 'NNN guilty'[/]
    """

    def body() -> Any:
        doc, game = opened(log, deck)
        return explain_with(game, doc, " ".join(fact) if fact else None, upto)

    run(body, as_json)


@app.command()
def replay(log: LogArgument, deck: DeckOption = None, as_json: JsonOption = False) -> None:
    """How knowledge evolved, event by event.

    Example: [bold]sleuth replay examples/three-of-a-crime/multi-round.yaml[/]
    """

    run(on_file(log, "replay", deck), as_json)


@app.command()
def check(
    puzzle: Annotated[Path, typer.Argument(help="A puzzle file (YAML or JSON).")],
    deck: DeckOption = None,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Also print the solution path of a unique puzzle: for each fact of its answer, "
            "a minimal set of clues and what each makes certain; its length and depth.",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Prove a puzzle has one answer (exit 0) or show two worlds that disagree (exit 1).

    Also lists the redundant clues and a minimal clue set. Exit 2 on bad input.

    Example: [bold]sleuth check examples/three-of-a-crime/puzzle-easy.yaml --json[/]
    """

    def body() -> Any:
        doc, game = opened(puzzle, deck)
        report = checked(game, doc)
        if not explain or report.exit_code:
            return report
        path = solution_path(game, doc)
        report.data["solution_path"] = path.data
        report.lines += ["", "Solution path:", *path.lines]
        return report

    run(body, as_json)


@app.command()
def generate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. three-of-a-crime.")],
    count: Annotated[int, typer.Option(min=1, help="How many puzzles.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Random seed, for repeatable puzzles.")] = None,
    difficulty: Annotated[
        int | None,
        typer.Option(min=1, max=3, help="1 to 3, easiest to hardest; each game says how."),
    ] = None,
    visible: Annotated[
        int | None,
        typer.Option(min=1, max=12, help="Cards shown in each puzzle (6 Suspects)."),
    ] = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    as_json: JsonOption = False,
) -> None:
    """Make new puzzles with a unique answer (YAML documents, or a JSON list with --json), on
    every core.

    Puzzles are made in chunks of a fixed size per game, each from its own seed drawn from
    --seed, so a seed gives the same puzzles with any number of workers or on any cluster
    (docs/cluster.md).

    Example: [bold]sleuth generate three-of-a-crime --count 3 --seed 7 --difficulty 2[/]
    or [bold]sleuth generate six-suspects --count 2 --visible 6[/]
    or [bold]sleuth generate three-of-a-crime --count 1000 --workers 2 > book.yaml[/]
    """
    from rich.progress import Progress

    from models.jobs import generate as make

    try:
        chosen = game_named(game)
        with Progress(console=errors, transient=True) as progress:
            task = progress.add_task("generating and grading", total=count)
            made = make(
                chosen,
                count,
                seed,
                difficulty,
                visible,
                workers=workers,
                scheduler=scheduler,
                progress=lambda chunk: progress.advance(task, chunk.size),
            )
    except SleuthError as error:
        show_error(error, as_json)
        raise typer.Exit(error.exit_code) from None
    if as_json:
        print(json.dumps(made, ensure_ascii=False))
    else:
        print("\n---\n".join(dump(p) for p in made), end="")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. three-of-a-crime.")],
    games_: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 1000,
    seed: Annotated[int | None, typer.Option(help="Random seed.")] = None,
    policy: Annotated[
        str | None,
        typer.Option(
            help="The player's policy, where a game has several (6 Suspects: advice|random; Game of "
            "Suspicion, Suspeição: advice|random, or lookahead, head-to-head-3, head-to-head-4, "
            "control-3, control-4 when named; a control seats the one-step advice in P1 too)."
        ),
    ] = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    as_json: JsonOption = False,
) -> None:
    """Play random games by the rules and report how well they go, on every core.

    The games are cut into fixed chunks, each with its own seed from --seed, so a seed gives
    the same report with any number of workers or on any cluster (docs/cluster.md). A small
    job runs in this process.

    Example: [bold]sleuth simulate three-of-a-crime --games 2000 --seed 1[/]
    or [bold]sleuth simulate game-of-suspicion --games 2000 --workers 2[/]
    """
    from rich.progress import Progress

    from models.jobs import simulate as self_play

    def body():
        chosen = game_named(game)
        with Progress(console=errors, transient=True) as progress:
            task = progress.add_task("simulating", total=games_)
            return self_play(
                chosen,
                games_,
                seed,
                policy,
                workers=workers,
                scheduler=scheduler,
                progress=lambda chunk: progress.advance(task, chunk.size),
            )

    run(body, as_json, spinner=False)  # it has a progress bar of its own


@app.command()
def tablebase(
    game: Annotated[str, typer.Argument(help="Game name: six-suspects.")],
    workers: Workers = None,
    scheduler: Scheduler = None,
    as_json: JsonOption = False,
) -> None:
    """Build a game's tablebase again and write it where Sleuth reads it (long: on every core).

    6 Suspects: the exact value of every look with H more looks, from every state with k cards
    seen, k + H ≤ 5, by backward induction (the optimal policy of `suggest` and `play`). The
    slow part, the two-look values of the three-card states, runs in fixed chunks on the batch
    engine, like `simulate`.

    Example: [bold]sleuth tablebase six-suspects --workers 2[/]
    """
    from rich.progress import Progress

    def body() -> Any:
        chosen = game_named(game)
        if not hasattr(chosen, "build_tablebase"):
            raise InputError(f"{chosen.title} has no tablebase (six-suspects has)")
        with Progress(console=errors, transient=True) as progress:
            task = progress.add_task("chunks of states valued", total=None)
            return chosen.build_tablebase(lambda: progress.advance(task), workers, scheduler)

    run(body, as_json, spinner=False)


@app.command()
def serve(
    folder: Annotated[
        Path, typer.Argument(help="The folder whose logs and puzzles are served.")
    ] = Path("."),
    host: Annotated[
        str, typer.Option(help="127.0.0.1: this machine only; 0.0.0.0: phones on the LAN too.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8765,
) -> None:
    """Sleuth in a browser: the logs of FOLDER, a game page each, events added as they happen.

    On any host but 127.0.0.1 every visit needs the random token in the printed URL.

    Example: [bold]sleuth serve examples/ --host 0.0.0.0[/]
    """
    import secrets
    import socket

    import uvicorn

    from web.app import create_app

    try:
        if not user_path(folder, "folder").is_dir():
            raise InputError(f"{folder} is not a folder")
    except InputError as error:
        show_error(error)
        raise typer.Exit(2) from None
    try:  # a port in use is the user's to change: one line now, not uvicorn's error later
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.bind((host, port))
    except OSError as error:
        show_error(
            InputError(f"cannot listen on {host}:{port} ({error.strerror}); try another --port")
        )
        raise typer.Exit(2) from None
    token = None if host in ("127.0.0.1", "localhost", "::1") else secrets.token_urlsafe(24)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    errors.print(f"Sleuth serves {folder.resolve()} at {url}", highlight=False, markup=False)
    if host in ("0.0.0.0", "::"):
        errors.print(
            "from a phone on this network, use this machine's address instead of 127.0.0.1",
            highlight=False,
            markup=False,
        )
    uvicorn.run(create_app(folder, token), host=host, port=port, log_level="warning")


@app.command()
def play(
    target: Annotated[
        str, typer.Argument(help="A game name (new session) or a log file (resume).")
    ],
    log: Annotated[
        Path | None, typer.Option("--log", help="Where to keep the log (new session).")
    ] = None,
) -> None:
    """Interactive session: type events as they happen, see posteriors, undo, save.

    Every event is saved to the log file as soon as it is typed; `sleuth play LOG` resumes.

    Example: [bold]sleuth play three-of-a-crime --log tonight.yaml[/]
    """
    from cli.session import Session

    try:
        session = Session.open(target, log)
    except SleuthError as error:
        show_error(error)
        raise typer.Exit(error.exit_code) from None
    session.loop()


app.add_typer(batch_app, name="batch")


def main() -> None:
    """The `sleuth` command. Every error a user can cause is a SleuthError with a clear message;
    anything else is a bug, and still one line and exit 3 (`--debug` anywhere on the command
    line, or SLEUTH_DEBUG=1: the traceback instead)."""
    debug = "--debug" in sys.argv[1:] or bool(os.environ.get("SLEUTH_DEBUG"))
    sys.argv[1:] = [arg for arg in sys.argv[1:] if arg != "--debug"]
    try:
        app()
    except Exception as error:
        if debug:
            raise
        show_error(InternalError(error), "--json" in sys.argv[1:])
        sys.exit(InternalError.exit_code)


if __name__ == "__main__":
    main()
