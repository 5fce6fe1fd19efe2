"""Issue 14: the look-ahead advice against today's one-step advice, head to head, and its time.

Self-play on the batch engine (models/jobs.py's simulate path, one chunk per round): seat P1
plays the look-ahead, every other seat the one-step advice; the measure is P1's points minus the
others' mean, per round, with its 95% interval. `python -m bench.lookahead --rounds N` runs N
rounds per game and table size and appends every chunk's exact sums to a JSON Lines file
(`--out`), so a long run can be stopped at any time and its rounds so far still count; a run
with another `--seed` appends to the same file, and `--summary` adds up all it holds. A look-ahead
round costs seconds and the 2,000 rounds the issue asks for take hours, so `make bench` plays a
few rounds only (`ROUNDS`) and prints beside them the long runs' sums kept in RESULTS
(`--compact` makes a run's file one line per game, table and seed before it is kept there).
RESULTS holds runs of today's policies only; runs of a bot or look-ahead since changed are
moved to `lookahead-superseded.jsonl` beside it (the docs say what each measured).

It also times `sleuth suggest` (the look-ahead included) on simulated logs of 3 and 4 players.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from fractions import Fraction
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models import GAMES
from models.jobs import play_chunk
from solver import batch
from solver.logfile import Document
from solver.stats import Margins

ROUNDS = 4  # per game and table size in `make bench`
RESULTS = Path(__file__).with_name("results") / "lookahead.jsonl"  # the long runs' sums, kept
SUGGEST_STATES = 7  # logs timed per game and table size
RUNS = [
    ("game-of-suspicion", "head-to-head-3"),
    ("game-of-suspicion", "head-to-head-4"),
    ("suspeicao", "head-to-head-3"),
    ("suspeicao", "head-to-head-4"),
]
# the same tables with P1 on the one-step advice too: P1's seat alone (its margin should be 0)
CONTROLS = [(game, policy.replace("head-to-head", "control")) for game, policy in RUNS]


def duel(game: str, policy: str, rounds: int, seed: int, out: Path | None, workers: int) -> dict:
    """`rounds` head-to-head rounds; every chunk's sums appended to `out` as it ends."""
    start = time.perf_counter()
    chunks = batch.plan(rounds, 1, seed)
    total = Margins()
    for part in batch.run(partial(play_chunk, game, policy), chunks, workers=workers):
        margins = part[policy]
        total += margins
        if out is not None:
            with out.open("a", encoding="utf-8") as file:
                file.write(sums_line(game, policy, seed, margins))
    seconds = time.perf_counter() - start
    return {"margins": total, "seconds": seconds}


def sums_line(game: str, policy: str, seed: int, margins: Margins) -> str:
    """One JSON line of exact sums, as `duel` appends and `compact` keeps."""
    row = {"game": game, "policy": policy, "seed": seed, "games": margins.games}
    row |= {"total": str(margins.total), "squares": str(margins.squares)}
    return json.dumps(row) + "\n"


def read_sums(path: Path, by_seed: bool = False) -> dict[tuple, Margins]:
    """The sums of every chunk in a JSON Lines file of `duel`, per (game, policy), or per
    (game, policy, seed)."""
    found: dict[tuple, Margins] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        key = (row["game"], row["policy"], row["seed"]) if by_seed else (row["game"], row["policy"])
        part = Margins(row["games"], Fraction(row["total"]), Fraction(row["squares"]))
        found[key] = found.get(key, Margins()) + part
    return found


def compact(path: Path) -> None:
    """Rewrite a file of `duel` lines as one line per (game, policy, seed): the same sums, so
    `--summary` reports the same figures, in a file small enough to keep (RESULTS)."""
    kept = sorted(read_sums(path, by_seed=True).items())
    lines = [sums_line(game, policy, seed, sums) for (game, policy, seed), sums in kept]
    path.write_text("".join(lines), encoding="utf-8")


def suggest_times(game_name: str, players: int) -> list[float]:
    """Seconds of `suggest` (look-ahead included) on simulated logs where P1 is to play."""
    game = GAMES[game_name]
    rng = random.Random(100 + players)
    times: list[float] = []
    while len(times) < SUGGEST_STATES:
        doc = simulated_log(game_name, rng, players)
        if doc is None:
            continue
        start = time.perf_counter()
        game.suggest(Document(doc))
        times.append(time.perf_counter() - start)
    return times


def simulated_log(game_name: str, rng: random.Random, players: int) -> dict | None:
    if game_name == "game-of-suspicion":
        from models.game_of_suspicion.simulate import random_game

        doc, _ = random_game(rng, players=players, me="P1", events=8)
        post = GAMES[game_name].posterior(Document(doc))  # type: ignore[attr-defined]
        return doc if "P1" in post.round.active and len(doc["events"]) == 8 else None
    from models.suspeicao.simulate import random_game as suspeicao_game

    game = suspeicao_game(rng, players=players)
    turns = [i for i, e in enumerate(game.doc["events"]) if e.get("play", {}).get("by") == "P1"]
    if len(turns) < 3:
        return None
    return {**game.doc, "events": game.doc["events"][: turns[2]]}  # P1's third turn


def main(rounds: int = ROUNDS, seed: int = 1, out: Path | None = None, workers: int = 1) -> None:
    console = Console()
    table = Table(title="sleuth suggest with the look-ahead (issue 14 target: median ≤ 2 s)")
    for column in ("game", "players", "median", "max"):
        table.add_column(column)
    for game, _ in RUNS[::2]:
        for players in (3, 4):
            times = suggest_times(game, players)
            table.add_row(game, str(players), fmt(statistics.median(times)), fmt(max(times)))
    console.print(table)
    table = Table(
        title="Head to head: P1 plays the look-ahead, the other seats one-step advice; "
        "P1's points minus the others' mean, per round"
    )
    for column in ("game", "table", "rounds", "margin", "95% interval", "per round"):
        table.add_column(column)
    for game, policy in RUNS + CONTROLS:
        found = duel(game, policy, rounds, seed, out, workers)
        margins = found["margins"]
        mean, low, high = margins.interval()
        per = fmt(found["seconds"] / rounds)
        row = [game, policy, str(margins.games), f"{mean:+.3f}", f"{low:+.3f} – {high:+.3f}", per]
        table.add_row(*row)
    console.print(table)
    if RESULTS.exists():
        console.print("The long runs kept in bench/results/lookahead.jsonl:")
        summary(RESULTS)


def summary(path: Path) -> None:
    """The margins of every (game, table) in a file of `duel` lines, all seeds together, then
    each seed's own."""
    per_seed = sorted(read_sums(path, by_seed=True).items())
    for (game, policy), margins in sorted(read_sums(path).items()):
        mean, low, high = margins.interval()
        print(f"{game} {policy}: {margins.games} rounds, {mean:+.3f} ({low:+.3f} to {high:+.3f})")
        for (g, p, seed), own in per_seed:
            if (g, p) == (game, policy):
                mean, low, high = own.interval()
                print(f"  seed {seed}: {own.games} rounds, {mean:+.3f} ({low:+.3f} to {high:+.3f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="one game:policy, e.g. game-of-suspicion:head-to-head-3")
    parser.add_argument("--summary", action="store_true", help="only read --out and report")
    parser.add_argument(
        "--compact", action="store_true", help="rewrite --out as one line per game, table, seed"
    )
    args = parser.parse_args()
    if (args.summary or args.compact) and args.out is None:
        parser.error("--summary and --compact read the file given by --out")
    known = [f"{game}:{policy}" for game, policy in RUNS + CONTROLS]
    if args.only and args.only not in known:
        parser.error(f"--only takes one of {', '.join(known)}")
    if args.compact:
        compact(args.out)
    if args.summary:
        summary(args.out)
    elif args.only:
        game, policy = args.only.split(":")
        found = duel(game, policy, args.rounds, args.seed, args.out, args.workers)
        print(found["margins"].interval(), found["seconds"])
    elif not args.compact:
        main(args.rounds, args.seed, args.out, args.workers)
