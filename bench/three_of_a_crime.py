"""Three of a Crime: exact solve versus CP-SAT enumeration and python-constraint; puzzle timings."""

from __future__ import annotations

import random

from rich.console import Console
from rich.table import Table

from bench.timing import fmt, per_call, total
from models.three_of_a_crime import GAME, csp
from models.three_of_a_crime.counter import posterior
from models.three_of_a_crime.knowledge import CrimeKnowledge
from models.three_of_a_crime.log import parse
from models.three_of_a_crime.rules import CARDS, card_names, overlap
from models.three_of_a_crime.simulate import long_game, random_game
from solver.logfile import Document, dump, parse_text

STATES = 60
PUZZLES = 100


def states(seed: int = 2026) -> list:
    """Simulated game states (1-3 rounds, 3-4 players): the facts and round count of each."""
    rng = random.Random(seed)
    result = []
    for _ in range(STATES):
        players = ["Ana", "Ben", "Cleo", "Dan"][: rng.choice((3, 4))]
        data, _ = random_game(rng, players, rng.randint(1, 3))
        log = parse(Document(data))
        result.append((log.facts, len(log.rounds)))
    return result


def cp_sat_enumeration(state) -> None:
    knowledge = CrimeKnowledge(*state)
    knowledge.enumerate(knowledge.secret_query())


def main() -> None:
    console = Console()
    batch = states()
    CrimeKnowledge([], 1)  # import OR-Tools before timing
    exact = per_call(lambda s: posterior(*s), batch, repeat=3)
    cp_sat = per_call(cp_sat_enumeration, batch)
    constraint = per_call(lambda s: csp.solutions(*s), batch)
    table = Table(title=f"three-of-a-crime: solve, median over {len(batch)} simulated states")
    for column in ("method", "time per solve", "ratio to exact"):
        table.add_column(column)
    table.add_row("exact counter", fmt(exact), "1.0")
    table.add_row("CP-SAT enumeration", fmt(cp_sat), f"{cp_sat / exact:.1f}×")
    table.add_row("python-constraint", fmt(constraint), f"{constraint / exact:.1f}×")
    console.print(table)

    made: list = []
    generate = total(lambda: made.extend(GAME.generate(random.Random(7), PUZZLES)))
    docs = [Document(p) for p in made]
    check = total(lambda: [GAME.check(d) for d in docs])
    puzzles = Table(title=f"three-of-a-crime: {PUZZLES} puzzles")
    for column in ("task", f"time for {PUZZLES}", "per puzzle"):
        puzzles.add_column(column)
    puzzles.add_row("generate (exact counter in the loop)", fmt(generate), fmt(generate / PUZZLES))
    puzzles.add_row("check (CP-SAT: unique, redundant, minimal)", fmt(check), fmt(check / PUZZLES))
    console.print(puzzles)
    long_logs(console)
    won_unseen(console)


def won_unseen_doc(rounds: int) -> Document:
    """`rounds` rounds won unseen (no card told), then a round with one face-up card."""
    events: list[dict] = []
    for r in range(rounds):
        events += [{"round": {"eyewitness": "Ana"}}] if r else []
        events.append({"won": {"by": "Cleo"}})
    events += [{"round": {"eyewitness": "Ana"}}, {"card": ["HB", "JC", "KC"], "token": 1}]
    return Document(
        {"game": "three-of-a-crime", "players": ["Ana", "Ben", "Cleo"], "events": events}
    )


def won_unseen(console: Console) -> None:
    """Rounds won unseen are cards gone, not choices (issue 16, point 4): the time to solve
    grows with the rounds, beside the count without that shortcut (exponential; 8 rounds was
    its limit). Target: 30 rounds (the most a 35-card deck allows here) within 1 s."""
    from unittest import mock

    from models.three_of_a_crime import counter

    table = Table(title="three-of-a-crime: solve after N rounds won unseen")
    for column in ("rounds", "time", "without the shortcut", "ratio"):
        table.add_column(column)
    for rounds in (4, 6, 8, 16, 30):
        doc = won_unseen_doc(rounds)

        def solve(doc: Document = doc) -> None:
            GAME.solve(doc)

        fast = total(solve)
        slow_text, ratio = "refused (over 8 unknown)", "—"
        if rounds <= 6:
            with mock.patch.object(counter, "unconstrained", lambda masks, draws, focus: []):
                slow = total(solve)
            slow_text, ratio = fmt(slow), f"{slow / fast:.1f}×"
        table.add_row(str(rounds), fmt(fast), slow_text, ratio)
    console.print(table)


LONG = 10_000


def old_replay(doc: Document) -> None:
    """Replay as it was before the one-pass reader: parse and count every prefix again."""
    for upto in range(len(doc.data["events"]) + 1):
        log = parse(doc, upto)
        posterior(log.facts, log.draws, log.focus, log.solving)


def long_puzzle() -> Document:
    """A 10,000-clue one-round puzzle: face-up cards, then wrong accusations of ruled-out cards."""
    rng = random.Random(7)
    truth = rng.choice(CARDS)
    given = [
        {"card": card_names(c), "token": overlap(c, truth)}
        for c in rng.sample([c for c in CARDS if c != truth], 12)
    ]
    while len(given) < LONG:
        wrong = rng.choice([c for c in CARDS if c != truth])
        given.insert(1, {"accuse": {"suspects": card_names(wrong), "correct": False}})
    return Document({"game": "three-of-a-crime", "puzzle": {"given": given, "question": "secret"}})


def long_logs(console: Console) -> None:
    """Time per 1,000 events of a 10,000-event log, beside reading it (parse) as the baseline."""
    data, _ = long_game(random.Random(2026), LONG, reveal_won=0.6)
    doc = Document(data)
    text = dump(data)
    per = LONG / 1000
    rows = [
        ("read and check the events (baseline)", total(lambda: parse(doc)) / per),
        ("solve", total(lambda: GAME.solve(doc)) / per),
        ("suggest", total(lambda: GAME.suggest(doc)) / per),
        ("replay (one pass)", total(lambda: GAME.replay(doc)) / per),
        ("check a 10,000-clue puzzle", total(lambda: GAME.check(long_puzzle())) / per),
        ("load the YAML file (solver/logfile)", total(lambda: parse_text(text)) / per),
    ]
    first = Document({**data, "events": data["events"][:1000]})
    rows.append(
        ("replay re-reading every prefix (before), first 1,000", total(lambda: old_replay(first)))
    )
    table = Table(title=f"three-of-a-crime: a {LONG:,}-event log, time per 1,000 events")
    for column in ("task", "per 1,000 events", "ratio to reading"):
        table.add_column(column)
    for task, seconds in rows:
        table.add_row(task, fmt(seconds), f"{seconds / rows[0][1]:.1f}×")
    console.print(table)


if __name__ == "__main__":
    main()
