"""The same worlds in python-constraint: an independent encoding used by tests as a cross-check."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from models.three_of_a_crime.counter import Draw, as_draws, cliques
from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, Card, overlap


def holds(fact: Fact) -> Callable[[Card], bool]:
    """The fact as a test on its secret card."""
    if fact.kind == "token":
        return lambda secret: overlap(fact.card, secret) == fact.token
    if fact.kind == "not":
        return lambda secret: secret != fact.card
    return lambda secret: secret == fact.card


def solutions(facts: Iterable[Fact], draws: int | Sequence[Draw]) -> list[tuple[Card, ...]]:
    """Every tuple of secret cards that satisfies all facts."""
    draws = as_draws(draws)
    problem = Problem()
    names = [f"secret{s}" for s in range(len(draws))]
    problem.addVariables(names, list(CARDS))
    for together in cliques(draws):
        if len(together) > 1:
            problem.addConstraint(AllDifferentConstraint(), [names[s] for s in together])
    for fact in facts:
        problem.addConstraint(FunctionConstraint(holds(fact)), [names[fact.secret]])
    return [tuple(s[n] for n in names) for s in problem.getSolutions()]
