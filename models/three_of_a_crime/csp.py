"""The same worlds in python-constraint: an independent encoding used by tests as a cross-check."""

from __future__ import annotations

from collections.abc import Iterable

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, Card, overlap


def solutions(facts: Iterable[Fact], rounds: int) -> list[tuple[Card, ...]]:
    """Every tuple of the rounds' secret cards that satisfies all facts."""
    problem = Problem()
    names = [f"round{r}" for r in range(rounds)]
    problem.addVariables(names, list(CARDS))
    if rounds > 1:
        problem.addConstraint(AllDifferentConstraint(), names)
    for fact in facts:
        if fact.kind == "token":
            test = lambda s, c=fact.card, t=fact.token: overlap(c, s) == t  # noqa: E731
        elif fact.kind == "not":
            test = lambda s, c=fact.card: s != c  # noqa: E731
        else:
            test = lambda s, c=fact.card: s == c  # noqa: E731
        problem.addConstraint(FunctionConstraint(test), [names[fact.round]])
    return [tuple(s[n] for n in names) for s in problem.getSolutions()]
