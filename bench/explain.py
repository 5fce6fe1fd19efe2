"""`sleuth explain`: the time to explain every certain fact of the bundled example logs and
puzzles (and, for 6 Suspects, of five logs of seven random looks): the core, shrunk by deletion
with the game's exact counter, and the chain, per fact; beside the same core shrunk by deletion
with CP-SAT (a fresh solve of the game's CP-SAT model for every subset tried; Three of a Crime,
6 Suspects and Game of Suspicion), in the same process.

Target (issue 12): at most 1 s per fact for Three of a Crime, 6 Suspects and Game of Suspicion,
3 s for Suspeição."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.timing import fmt
from models import GAMES
from models.six_suspects.knowledge import LayoutKnowledge
from models.six_suspects.log import parse as parse_six
from models.three_of_a_crime.knowledge import CrimeKnowledge
from models.three_of_a_crime.log import parse as parse_crime
from solver.explain import chain, core
from solver.logfile import Document, load

EXAMPLES = Path(__file__).parent.parent / "examples"
TARGET = {"three-of-a-crime": 1.0, "six-suspects": 1.0, "game-of-suspicion": 1.0, "suspeicao": 3.0}


def certain_by_cp_sat(game: str, doc: Document):
    """A function: (fact, events kept) -> certain?, by CP-SAT (the baseline), or None."""
    if game == "three-of-a-crime":
        log = parse_crime(doc, None, doc.events_key)
        knowledge = CrimeKnowledge(log.facts, log.draws)
        query = knowledge.secret_query(log.solving if log.solving is not None else log.focus[-1])

        def crime(fact: str, kept: frozenset[int]) -> bool:
            return fact_holds(fact, knowledge.possible(query, sorted(kept)))

        return crime
    if game == "six-suspects":
        looks = parse_six(doc)

        def six(fact: str, kept: frozenset[int]) -> bool:
            seen = [(s.event, s.slot, s.card.name) for s in looks.seen if s.event in kept]
            knowledge = LayoutKnowledge(looks.deck, seen)
            column = "ABCDEF".index(fact[0])
            query = {column: knowledge.culprit_query()[column]}
            if fact.endswith("a culprit"):
                return bool(knowledge.certain(query))
            return not knowledge.possible(query)

        return six
    if game == "game-of-suspicion":
        from models.game_of_suspicion.explain import Certainty, Facts, Replay, statements_of
        from models.game_of_suspicion.game import GameOfSuspicion

        post = GameOfSuspicion().posterior(doc)
        statements = statements_of(post.round)
        whole = Replay(post.round, statements).belief(frozenset(statements))
        assert whole is not None
        facts = Facts(post.round, post.log.me, whole)
        model = Certainty(post.round, statements, facts)

        def suspicion(fact: str, kept: frozenset[int]) -> bool:
            return model.solve(kept, [model.literal(fact).Not()]) is None  # no world against it

        return suspicion
    return None


def fact_holds(fact: str, possible: set) -> bool:
    """Three of a Crime: whether `fact` holds of every card still possible."""
    from models.three_of_a_crime.rules import SUSPECTS, short_label

    name, _, state = fact.rpartition(" is ")
    if name == "the secret card":
        return all(short_label(c) == state for c in possible)
    index = SUSPECTS.index(name)
    return all((index in c) == (state == "guilty") for c in possible)


def looks_logs(count: int = 5, looks: int = 7) -> list[Document]:
    """6 Suspects logs of `looks` looks at random slots of random layouts (its bundled example
    has nothing certain, and its puzzles have no events)."""
    from models.six_suspects.rules import SLOTS, load_deck

    logs = []
    for seed in range(count):
        rng = random.Random(seed)
        cards = [c.name for c in load_deck().cards]
        rng.shuffle(cards)
        events = [
            {"look": {"slot": SLOTS[s], "card": cards[s]}}
            for s in rng.sample(range(len(SLOTS)), looks)
        ]
        data = {"game": "six-suspects", "players": ["Ana", "Ben"], "me": "Ana", "events": events}
        logs.append(Document(data, f"looks-{seed}.yaml"))
    return logs


def per_fact(game: str) -> tuple[list[float], list[float]]:
    """Seconds per certain fact with the exact counter, and with CP-SAT (where there is one)."""
    fast, baseline = [], []
    docs = [load(str(path)) for path in sorted((EXAMPLES / game).glob("*.yaml"))]
    if game == "six-suspects":
        docs += looks_logs()
    for doc in docs:
        engine = GAMES[game]
        if not hasattr(engine, "grounds"):
            continue
        grounds = engine.grounds(doc)
        facts = grounds.certain(frozenset(grounds.statements))
        by_cp_sat = certain_by_cp_sat(game, doc)
        for fact in facts:
            fresh = engine.grounds(doc)  # nothing remembered from another fact
            start = time.perf_counter()
            kept = core(fresh, fact)
            chain(fresh, kept, fact)
            fast.append(time.perf_counter() - start)
            if by_cp_sat is not None:
                start = time.perf_counter()
                left = sorted(fresh.statements)
                for event in list(left):
                    trial = frozenset(e for e in left if e != event)
                    if by_cp_sat(fact, trial):
                        left = sorted(trial)
                baseline.append(time.perf_counter() - start)
    return fast, baseline


def main() -> None:
    table = Table(title="sleuth explain: every certain fact of the bundled examples")
    for column in ("game", "facts", "median per fact", "slowest", "CP-SAT deletion", "ratio"):
        table.add_column(column)
    for game in GAMES:
        fast, baseline = per_fact(game)
        if not fast:
            table.add_row(game, "0", "—", "—", "—", "—")
            continue
        median = statistics.median(fast)
        base = statistics.median(baseline) if baseline else None
        table.add_row(
            game,
            str(len(fast)),
            fmt(median),
            fmt(max(fast)),
            fmt(base) if base else "—",
            f"{base / median:.1f}× faster" if base else "—",
        )
    Console().print(table)
    Console().print(
        "(targets: at most 1 s per fact for Three of a Crime, 6 Suspects and Game of "
        "Suspicion, 3 s for Suspeição)"
    )


if __name__ == "__main__":
    main()
