"""Why a fact is certain, and which events moved a probability: game-neutral explanations.

A game describes its log as a `Grounds`: the events that state something about the hidden world
(statements, which an explanation may leave out; the rest of the log, such as the deal or the
rounds, always holds), and the exact probability of every fact it reports, from any subset of
the statements. Everything here asks only that:

- `core`: a minimal set of statements from which a fact is certain. It starts from a small set
  the game may offer (a CP-SAT core of the fact's negation, where the game has one), or from all
  statements, and drops each statement in turn while the fact stays certain. What is left
  entails the fact, and no statement can be dropped from it (minimal, not the smallest).
- `chain`: the core's statements replayed in log order, and after each, what has newly become
  certain. A step that makes the fact certain although no statement of it alone does, is a
  case split: it says so, and shows the cases (the answers still possible without it).
- `influence`: for a fact that is not certain, each statement left out in turn, exactly: the
  probability without it, with it, and the bits it gave, log2(p with / p without).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.errors import InputError
from solver.logfile import Document
from solver.report import Report, Table, probability


@dataclass
class Grounds:
    """What an explanation may use of one log.

    `statements`: the events (1-based) that state something about the hidden world.
    `chances(kept)`: every fact's exact probability from the rest of the log and the statements
    in `kept` (a fact with probability 1 is certain).
    `words(event)`: the event in the game's words.
    `aliases(fact)`: other ways to name a fact on the command line (e.g. "NNN guilty").
    `seed(fact)`: optionally, a set of statements already known to entail the fact (a CP-SAT
    core), to shrink instead of all statements.
    `cases(kept, fact)`: optionally, the answers still possible to the game's question about the
    fact (e.g. the candidate secret cards), which a case split shows; None where they are too
    many to list."""

    statements: list[int]
    chances: Callable[[frozenset[int]], dict[str, Fraction]]
    words: Callable[[int], str]
    aliases: Callable[[str], list[str]] = lambda fact: []
    seed: Callable[[str], list[int] | None] | None = None
    cases: Callable[[frozenset[int], str], list[str] | None] | None = None
    _known: dict[frozenset[int], dict[str, Fraction]] = field(default_factory=dict)

    def chance(self, kept: frozenset[int]) -> dict[str, Fraction]:
        """`chances`, remembered: a core and its chain ask for the same subsets again."""
        if kept not in self._known:
            self._known[kept] = self.chances(kept)
        return self._known[kept]

    def certain(self, kept: frozenset[int]) -> list[str]:
        return [fact for fact, p in self.chance(kept).items() if p == 1]

    def named(self, asked: str) -> str | None:
        """The fact `asked` names, or None (a line of a report that is not a fact)."""
        try:
            return self.resolve(asked)
        except InputError:
            return None

    def resolve(self, asked: str) -> str:
        """The fact `asked` names, as the game reports it; InputError with a "did you mean"."""
        facts = list(self.chance(frozenset(self.statements)))
        by_name: dict[str, str] = {}
        for fact in facts:
            for name in [fact, *self.aliases(fact)]:
                by_name.setdefault(plain(name), fact)
        if plain(asked) in by_name:
            return by_name[plain(asked)]
        close = difflib.get_close_matches(plain(asked), list(by_name), n=1, cutoff=0.5)
        if close:  # named as the game names it, not in the matching form
            hint = f"; did you mean {by_name[close[0]]!r}?"
        else:  # hundreds of names: a few examples instead of all
            hint = f"; e.g. {', '.join(repr(f) for f in facts[:3])}"
        raise InputError(f"no fact named {asked!r}{hint}; the facts are named as solve names them")


def plain(name: str) -> str:
    """A fact's name for matching: lower case, words only, without "is", "the", "certainly"."""
    words = re.findall(r"[\w'-]+", name.lower())
    return " ".join(w for w in words if w not in ("is", "the", "certainly"))


def core(grounds: Grounds, fact: str) -> list[int]:
    """A minimal set of statements from which `fact` is certain (see the module's docstring).
    InputError if the whole log does not make it certain."""
    every = frozenset(grounds.statements)
    if grounds.chance(every).get(fact) != 1:
        raise InputError(f"{fact!r} is not certain from the log")
    start = grounds.seed(fact) if grounds.seed else None
    kept = sorted(start if start is not None else every)
    if grounds.chance(frozenset(kept)).get(fact) != 1:  # a seed that does not entail: all
        kept = sorted(every)
    for event in list(kept):
        trial = frozenset(e for e in kept if e != event)
        if grounds.chance(trial).get(fact) == 1:
            kept = sorted(trial)
    return kept


@dataclass
class Step:
    """One statement of a chain and what it makes certain, given the steps before it. A case
    split lists the answers possible before the step and after it."""

    event: int
    words: str
    newly_certain: list[str]
    split: bool = False
    case_split: dict[str, list[str]] = field(default_factory=dict)


def chain(grounds: Grounds, kept: Sequence[int], fact: str) -> list[Step]:
    """The statements of `kept` in log order, each with what it newly makes certain.

    A step makes the fact certain by a case split when its statement alone does not, but does
    with the earlier ones: the reader must go through the answers the earlier statements leave
    open (the cases) and see that this statement rules out each one that goes against the fact.
    Those cases, before and after the step, are shown where the game names its answers."""
    steps = []
    before: frozenset[int] = frozenset()
    for event in sorted(kept):
        now = before | {event}
        known = set(grounds.certain(before))
        newly = [f for f in grounds.certain(now) if f not in known]
        split = bool(fact in newly and before and fact not in grounds.certain(frozenset({event})))
        step = Step(event, grounds.words(event), newly, split)
        if split and grounds.cases is not None:
            open_before, open_after = grounds.cases(before, fact), grounds.cases(now, fact)
            if open_before is not None and open_after is not None:
                step.case_split = {"before": open_before, "after": open_after}
        steps.append(step)
        before = now
    return steps


@dataclass
class Moved:
    """How one statement moved a fact's probability: without it, with it, and the bits."""

    event: int
    words: str
    without: Fraction
    with_it: Fraction

    @property
    def bits(self) -> float:
        """log2(p with / p without): positive when the statement made the fact likelier; ±inf
        when it made the fact certain or impossible (shown, never counted)."""
        if self.without == self.with_it:
            return 0.0
        if self.without == 0:
            return math.inf
        if self.with_it == 0:
            return -math.inf
        return math.log2(self.with_it / self.without)


def influence(grounds: Grounds, fact: str) -> list[Moved]:
    """Every statement left out in turn (exact): the fact's probability without it, and with
    the whole log; the statements that moved it most first."""
    every = frozenset(grounds.statements)
    with_all = grounds.chance(every).get(fact, Fraction(0))
    moved = [
        Moved(e, grounds.words(e), grounds.chance(every - {e}).get(fact, Fraction(0)), with_all)
        for e in grounds.statements
    ]
    return sorted(moved, key=lambda m: (-abs(m.with_it - m.without), m.event))


# -- the report of `sleuth explain` -------------------------------------------------------------


def explain_with(
    game: Any, doc: Document, fact: str | None, upto: int | None = None, asked: str = "explain"
) -> Report:
    """`game.explain`, for every front end (`explain`, `why` in `play`, the web page); one line,
    naming the command `asked`, for a game that has no explanations yet."""
    if not hasattr(game, "explain"):
        raise InputError(f"{asked} does not know {game.title} yet")
    return game.explain(doc, fact, upto)


def explained(game: str, doc: Document, grounds: Grounds, asked: str | None) -> Report:
    """`sleuth explain`'s report: every certain fact's core and chain (no FACT), one fact's, or,
    for a fact that is not certain, the statements that moved its probability."""
    every = frozenset(grounds.statements)
    if asked is None:
        facts = grounds.certain(every)
        if not facts:
            return Report({"game": game, "facts": []}, lines=["nothing is certain yet"])
        parts = [certain_part(doc, grounds, fact) for fact in facts]
        return Report(
            {"game": game, "facts": [d for d, _ in parts]},
            lines=[line for _, lines in parts for line in [*lines, ""]][:-1],
        )
    fact = grounds.resolve(asked)
    if grounds.chance(every)[fact] == 1:
        part, lines = certain_part(doc, grounds, fact)
        return Report({"game": game, **part}, lines=lines)
    return influence_report(game, doc, grounds, fact)


def where(doc: Document, grounds: Grounds, event: int) -> dict:
    """An event as the JSON names it: its number, its line in the file, its words."""
    return {
        "event": event,
        "line": doc.line_of(doc.events_key, event - 1),
        "text": grounds.words(event),
    }


def certain_part(doc: Document, grounds: Grounds, fact: str) -> tuple[dict, list[str]]:
    kept = core(grounds, fact)
    steps = chain(grounds, kept, fact)
    data = {
        "fact": fact,
        "certain": True,
        "events": [where(doc, grounds, e) for e in kept],
        "chain": [
            {
                **where(doc, grounds, s.event),
                "newly_certain": s.newly_certain,
                "split": s.split,
                "case_split": s.case_split,
            }
            for s in steps
        ],
        "minimal": True,
    }
    named = ", ".join(str(e) for e in kept)
    if len(kept) > 1:
        said = f"from events {named} alone (no one of them can be left out)"
    elif kept:
        said = f"from event {named} alone"
    else:
        said = "certain from the rest of the log alone: no statement is needed"
    lines = [f"{fact}: {said}"]
    for s in steps:
        said = "; ".join(s.newly_certain) if s.newly_certain else "nothing certain yet"
        lines.append(f"  event {s.event}: {s.words} → {said}")
        if s.case_split:
            before, after = s.case_split["before"], s.case_split["after"]
            lines.append(
                f"    a case split: before it, {len(before)} answers were open "
                f"({listed(before)}); this event leaves {len(after)} ({listed(after)}), "
                f"and in each, {fact}"
            )
    return data, lines


def solution_path(game: Any, doc: Document) -> Report:
    """A unique puzzle's solution path (`check --explain`, and the grade of `generate`): each
    fact of its answer (`game.answer_facts`) explained by a minimal set of clues and its chain.

    Its *length* is the number of clues the path uses (the union of the facts' sets); its
    *depth* is the number of its steps that are case splits, where a reader must go through the
    answers the earlier clues leave open."""
    if not hasattr(game, "answer_facts"):
        raise InputError(f"check --explain does not know {game.title} puzzles yet")
    grounds = game.grounds(doc)
    facts = game.answer_facts(doc, grounds)
    certain = set(grounds.certain(frozenset(grounds.statements)))
    if not facts or not set(facts) <= certain:
        raise InputError("the puzzle's answer is not certain from its clues: no solution path")
    parts = [certain_part(doc, grounds, fact) for fact in facts]
    used = sorted({e["event"] for part, _ in parts for e in part["events"]})
    splits = {(s["event"]) for part, _ in parts for s in part["chain"] if s["split"]}
    data = {
        "game": game.name,
        "facts": [part for part, _ in parts],
        "events": [where(doc, grounds, e) for e in used],
        "length": len(used),
        "depth": len(splits),
    }
    lines = [line for _, part_lines in parts for line in [*part_lines, ""]]
    plural = "s" if len(splits) != 1 else ""
    lines.append(
        f"path: {len(used)} clues ({', '.join(map(str, used))}), {len(splits)} case split{plural}"
    )
    return Report(data, lines=lines)


def graded(game: Any, puzzle: dict) -> dict:
    """A generated puzzle with the length and depth of its solution path beside its difficulty
    (`path: {length, depth}` under `puzzle`), as `sleuth generate` and the web page give it."""
    path = solution_path(game, Document(puzzle, "<generated puzzle>"))
    puzzle["puzzle"]["path"] = {"length": path.data["length"], "depth": path.data["depth"]}
    return puzzle


def listed(answers: list[str], most: int = 8) -> str:
    shown = answers[:most]
    return ", ".join(shown) + (f", … {len(answers) - most} more" if len(answers) > most else "")


def influence_report(game: str, doc: Document, grounds: Grounds, fact: str) -> Report:
    moved = influence(grounds, fact)
    p = grounds.chance(frozenset(grounds.statements))[fact]
    data = {
        "game": game,
        "fact": fact,
        "certain": False,
        "probability": probability(p),
        "method": "each statement left out in turn, the log solved exactly without it",
        "influence": [
            {
                **where(doc, grounds, m.event),
                "without": probability(m.without),
                "with": probability(m.with_it),
                "bits": None if math.isinf(m.bits) else round(m.bits, 6),
            }
            for m in moved
        ],
    }
    rows = [
        [
            str(m.event),
            m.words,
            f"{float(m.without):.3f}",
            f"{float(m.with_it):.3f}",
            "∞" if math.isinf(m.bits) else f"{m.bits:+.3f}",
        ]
        for m in moved
    ]
    table = Table(
        f"What moved p({fact}) = {float(p):.3f}: each event left out in turn",
        ["event", "", "p without it", "p with it", "bits"],
        rows,
    )
    lines = [
        f"{fact} is not certain (p = {float(p):.3f}); the events that moved it most come first"
    ]
    return Report(data, [table], lines)
