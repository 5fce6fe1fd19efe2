"""The same worlds in python-constraint: an independent encoding used by tests as a cross-check."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, Card, overlap


def holds(fact: Fact) -> Callable[[Card], bool]:
    """The fact as a test on its round's secret card."""
    if fact.kind == "token":
        return lambda secret: overlap(fact.card, secret) == fact.token
    if fact.kind == "not":
        return lambda secret: secret != fact.card
    return lambda secret: secret == fact.card


def solutions(facts: Iterable[Fact], rounds: int) -> list[tuple[Card, ...]]:
    """Every tuple of the rounds' secret cards that satisfies all facts."""
    problem = Problem()
    names = [f"round{r}" for r in range(rounds)]
    problem.addVariables(names, list(CARDS))
    if rounds > 1:
        problem.addConstraint(AllDifferentConstraint(), names)
    for fact in facts:
        problem.addConstraint(FunctionConstraint(holds(fact)), [names[fact.round]])
    return [tuple(s[n] for n in names) for s in problem.getSolutions()]
