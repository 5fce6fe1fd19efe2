"""CP-SAT knowledge facade: events as constraints under assumption literals, and logical queries.

A game builds its hidden world as CP-SAT variables on `Knowledge.model`, and adds every observed
event's constraints with `.only_enforce_if(knowledge.event(i))`. Queries then switch events on as
assumptions, so the same model answers "is the log consistent?", "what is possible / certain?",
"is the answer unique?" and "which events conflict?". OR-Tools is imported here only, and only
when a Knowledge is made, so commands that never need CP-SAT start fast.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

Answer = frozenset  # the set of query keys whose literal is true in a solution


class Knowledge:
    """A CP-SAT model of a hidden world plus one assumption literal per observed event."""

    def __init__(self) -> None:
        from ortools.sat.python import cp_model

        self._cp_model = cp_model
        self.model = cp_model.CpModel()
        self.event_literals: dict[int, Any] = {}
        self.witness_vars: dict[str, Any] = {}  # variables shown in a witness world, by name
        self._query_literals: list[Any] = []  # made by answers(); off when enumerating

    def event(self, index: int) -> Any:
        """The assumption literal of event `index` (made on first use)."""
        if index not in self.event_literals:
            self.event_literals[index] = self.model.new_bool_var(f"event_{index}")
        return self.event_literals[index]

    def _solve(self, active: Iterable[int] | None, extra: Iterable[Any] = ()) -> Any | None:
        """Solve with the given events (default: all) and extra literals assumed; the solver or None."""
        events = self.event_literals if active is None else active
        assumed = [self.event_literals[i] for i in events if i in self.event_literals]
        self.model.clear_assumptions()
        self.model.add_assumptions(assumed + list(extra))
        solver = self._cp_model.CpSolver()
        solver.parameters.num_workers = 1  # deterministic, and cores of assumptions need it
        status = solver.solve(self.model)
        if status in (self._cp_model.OPTIMAL, self._cp_model.FEASIBLE):
            return solver
        if status != self._cp_model.INFEASIBLE:
            raise RuntimeError(f"CP-SAT stopped without an answer: {solver.status_name(status)}")
        self._last_infeasible = solver
        return None

    def consistent(self, active: Iterable[int] | None = None) -> bool:
        return self._solve(active) is not None

    def possible(
        self, query: Mapping[Any, Any], active: Iterable[int] | None = None
    ) -> set[Hashable]:
        """The keys of `query` whose literal is true in at least one consistent world."""
        active = list(self.event_literals if active is None else active)
        found: set[Hashable] = set()
        for key, literal in query.items():
            if key in found:
                continue
            solver = self._solve(active, [literal])
            if solver is not None:
                found |= {k for k, lit in query.items() if solver.boolean_value(lit)}
        return found

    def certain(
        self, query: Mapping[Any, Any], active: Iterable[int] | None = None
    ) -> set[Hashable]:
        """The keys of `query` whose literal is true in every consistent world."""
        negated = {key: literal.Not() for key, literal in query.items()}
        return set(query) - self.possible(negated, active)

    def answers(
        self, query: Mapping[Any, Any], active: Iterable[int] | None = None, limit: int = 2
    ) -> list[tuple[Answer, dict[str, int]]]:
        """Up to `limit` consistent worlds with pairwise different answers, each with its witness.

        The answer of a world is the set of `query` keys true in it; a witness is the value of every
        named variable in `witness_vars`. One answer means the query's answer is unique.
        """
        active = list(self.event_literals if active is None else active)
        found: list[tuple[Answer, dict[str, int]]] = []
        differ_from: list[Any] = []
        while len(found) < limit:
            solver = self._solve(active, differ_from)
            if solver is None:
                break
            answer = frozenset(k for k, lit in query.items() if solver.boolean_value(lit))
            found.append((answer, self.witness(solver)))
            differ = self.model.new_bool_var(f"differ_{len(found)}")
            self._query_literals.append(differ)
            self.model.add_bool_or(
                [query[k].Not() if k in answer else query[k] for k in query]
            ).only_enforce_if(differ)
            differ_from.append(differ)
        return found

    def enumerate(self, query: Mapping[Any, Any]) -> dict[Answer, int]:
        """Every consistent world, one by one (slow: a baseline and a cross-check only).

        Returns how many worlds give each answer (the set of `query` keys true in the world)."""
        cp_model = self._cp_model
        model = self.model.clone()
        model.clear_assumptions()
        for literal in self.event_literals.values():
            model.add(literal == 1)
        for literal in self._query_literals:
            model.add(literal == 0)
        counts: dict[Answer, int] = {}

        class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[name-defined]
            def on_solution_callback(self) -> None:
                answer = frozenset(k for k, lit in query.items() if self.boolean_value(lit))
                counts[answer] = counts.get(answer, 0) + 1

        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.solve(model, Collect())
        return counts

    def witness(self, solver: Any) -> dict[str, int]:
        return {name: int(solver.value(var)) for name, var in self.witness_vars.items()}

    def conflict(self, active: Iterable[int] | None = None) -> list[int]:
        """A minimal set of events that cannot all be true ([] if they are consistent).

        CP-SAT's core of failed assumptions is shrunk by deletion until every event in it is needed.
        """
        active = sorted(
            i
            for i in (self.event_literals if active is None else active)
            if i in self.event_literals
        )
        if self._solve(active) is not None:
            return []
        by_literal = {self.event_literals[i].index: i for i in active}
        core_indexes = self._last_infeasible.sufficient_assumptions_for_infeasibility()
        core = sorted(by_literal[i] for i in core_indexes if i in by_literal) or active
        for event in list(core):
            trial = [e for e in core if e != event]
            if self._solve(trial) is None:
                core = trial
        return core
