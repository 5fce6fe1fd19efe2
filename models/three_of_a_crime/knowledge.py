"""CP-SAT model of Three of a Crime: secret[r, card] booleans, every fact under its event's literal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from models.three_of_a_crime.log import Fact
from models.three_of_a_crime.rules import CARDS, Card, overlap, short_label
from solver.knowledge import Knowledge


class CrimeKnowledge(Knowledge):
    """The rounds' secret cards: one card per round, no card in two rounds."""

    def __init__(self, facts: Iterable[Fact], rounds: int):
        super().__init__()
        model = self.model
        self.secret = {
            (r, card): model.new_bool_var(f"secret_r{r}_{short_label(card)}")
            for r in range(rounds)
            for card in CARDS
        }
        for r in range(rounds):
            model.add_exactly_one(self.secret[r, card] for card in CARDS)
        for card in CARDS:  # a won card leaves the deck
            model.add_at_most_one(self.secret[r, card] for r in range(rounds))
        for fact in facts:
            self.add_fact(fact)
        self.rounds = rounds
        for r in range(rounds):
            secret_index = sum(i * self.secret[r, card] for i, card in enumerate(CARDS))
            index_var = model.new_int_var(0, len(CARDS) - 1, f"round_{r}")
            model.add(index_var == secret_index)
            self.witness_vars[f"round_{r + 1}"] = index_var

    def add_fact(self, fact: Fact) -> None:
        when = self.event(fact.event)
        secret = self.secret
        if fact.kind == "token":
            token = sum(overlap(fact.card, s) * secret[fact.round, s] for s in CARDS)
            self.model.add(token == fact.token).only_enforce_if(when)
        elif fact.kind == "not":
            self.model.add_implication(when, secret[fact.round, fact.card].Not())
        else:
            self.model.add_implication(when, secret[fact.round, fact.card])

    def secret_query(self, round_: int | None = None) -> dict[Card, Any]:
        """One literal per card: 'the secret of this round (default: the last) is that card'."""
        r = self.rounds - 1 if round_ is None else round_
        return {card: self.secret[r, card] for card in CARDS}
