"""CP-SAT model of Three of a Crime: secret[s, card] booleans, every fact under its event's literal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from models.three_of_a_crime.counter import (
    Draw,
    TooManyUnknowns,
    as_draws,
    candidate_sets,
    cliques,
    count_worlds,
    must_differ,
)
from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, Card, overlap, short_label
from solver.knowledge import Knowledge


class CrimeKnowledge(Knowledge):
    """The secret cards: one card per secret; secrets out of the deck at the same time differ.

    `draws` is the number of rounds of the classic game, or each secret's Draw (the variation for
    two draws two per round, and its unwon card goes back into the deck)."""

    def __init__(self, facts: Iterable[Fact], draws: int | Sequence[Draw]):
        super().__init__()
        model = self.model
        draws = as_draws(draws)
        secrets = len(draws)
        self.secret = {
            (s, card): model.new_bool_var(f"secret_{s}_{short_label(card)}")
            for s in range(secrets)
            for card in CARDS
        }
        for s in range(secrets):
            model.add_exactly_one(self.secret[s, card] for card in CARDS)
        for together in cliques(draws):  # cards out of the deck at the same time are different
            if len(together) > 1:
                for card in CARDS:
                    model.add_at_most_one(self.secret[s, card] for s in together)
        self.facts = list(facts)
        self.draws = draws
        for fact in self.facts:
            self.add_fact(fact)
        self.secrets = secrets
        for s in range(secrets):
            secret_index = sum(i * self.secret[s, card] for i, card in enumerate(CARDS))
            index_var = model.new_int_var(0, len(CARDS) - 1, f"secret_{s}")
            model.add(index_var == secret_index)
            self.witness_vars[witness_name(draws, s)] = index_var

    def add_fact(self, fact: Fact) -> None:
        when = self.event(fact.event)
        secret = self.secret
        if fact.kind == "token":
            token = sum(overlap(fact.card, s) * secret[fact.secret, s] for s in CARDS)
            self.model.add(token == fact.token).only_enforce_if(when)
        elif fact.kind == "not":
            self.model.add_implication(when, secret[fact.secret, fact.card].Not())
        else:
            self.model.add_implication(when, secret[fact.secret, fact.card])

    def conflict(self, active: Iterable[int] | None = None) -> list[int]:
        """A minimal set of events that cannot all be true ([] if they are consistent).

        CP-SAT finds a core of failed assumptions in one solve; it is shrunk by deletion with the
        exact counter (a CP-SAT solve per event of a long log's core takes seconds), falling back
        to CP-SAT when the counter's limit is reached."""
        events = self.event_literals if active is None else active
        active = sorted(i for i in events if i in self.event_literals)
        if self._solve(active) is not None:
            return []
        by_literal = {self.event_literals[i].index: i for i in active}
        core_indexes = self._last_infeasible.sufficient_assumptions_for_infeasibility()
        core = sorted(by_literal[i] for i in core_indexes if i in by_literal) or active
        for event in list(core):
            trial = [e for e in core if e != event]
            if not self.consistent_by_count(trial):
                core = trial
        return core

    def consistent_by_count(self, events: list[int]) -> bool:
        """Whether some world fits the facts of these events, by the exact counter. A secret that
        allows more cards than it has neighbours (secrets it must differ from) is left out: once
        the others are chosen a card is always left for it; leaving it out may free others."""
        chosen = set(events)
        masks = candidate_sets([f for f in self.facts if f.event in chosen], self.draws)
        keep = set(range(len(masks)))
        dropped = True
        while dropped:
            dropped = False
            for i in sorted(keep):
                neighbours = sum(must_differ(self.draws, i, j) for j in keep if j != i)
                if masks[i].bit_count() > neighbours:
                    keep.discard(i)
                    dropped = True
        left = sorted(keep)
        try:
            return count_worlds([masks[i] for i in left], [self.draws[i] for i in left]) > 0
        except TooManyUnknowns:
            return self._solve(events) is not None

    def secret_query(self, secret: int | None = None) -> dict[Card, Any]:
        """One literal per card: 'this secret (default: the last) is that card'."""
        s = self.secrets - 1 if secret is None else secret
        return {card: self.secret[s, card] for card in CARDS}


def witness_name(draws: Sequence[Draw], secret: int) -> str:
    """`round_N` for a round's only secret; `round_N_1` and `round_N_2` for the variation's two."""
    number = draws[secret].round
    same = [i for i, d in enumerate(draws) if d.round == number]
    if len(same) == 1:
        return f"round_{number + 1}"
    return f"round_{number + 1}_{same.index(secret) + 1}"
