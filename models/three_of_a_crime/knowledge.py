"""CP-SAT model of Three of a Crime: secret[s, card] booleans, every fact under its event's literal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from models.three_of_a_crime.counter import Draw, as_draws, cliques
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
        for fact in facts:
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
