"""LastSteps (solver/hidden_cards.py): the beliefs remembered between posteriors, one per
signature, so that the seats of a self-play table each resume their own belief."""

from __future__ import annotations

import random

from models.suspeicao import game as suspeicao_game
from models.suspeicao.game import Suspeicao
from models.suspeicao.simulate import random_game
from solver.hidden_cards import LastSteps
from solver.logfile import Document


class Counted:
    def __init__(self, steps: int) -> None:
        self.steps = steps

    def copy(self) -> Counted:
        return Counted(self.steps)


def test_each_signature_resumes_its_own_steps_and_the_least_recent_goes_first():
    last: LastSteps[Counted] = LastSteps(slots=2)
    last.keep("a", [1, 2], Counted(2))
    last.keep("b", [7], Counted(1))
    resumed = last.resume("a", [1, 2, 3])
    assert resumed is not None and resumed[0].steps == 2 and resumed[1] == [3]
    assert last.resume("a", [1, 9]) is None  # not an extension of what was kept
    last.keep("a", [1, 2, 3], Counted(3))  # "a" is now the most recent
    last.keep("c", [5], Counted(1))  # two slots: "b" goes
    assert last.resume("b", [7, 8]) is None
    assert last.resume("a", [1, 2, 3])[1] == []  # type: ignore[index]
    assert last.resume("c", [5, 6])[1] == [6]  # type: ignore[index]


def test_two_logs_taking_turns_each_pay_only_for_their_new_steps(monkeypatch):
    """Two rounds' logs asked in turn (as two seats' bots are): each resumes its own belief,
    applies only its new steps, and answers as a fresh solve of the whole log."""
    docs = [random_game(random.Random(seed), players=3).doc for seed in (1, 2)]
    game = Suspeicao()
    applied: list[int] = []
    real_run = suspeicao_game.run

    def counting(belief, steps):
        applied.append(len(steps))
        return real_run(belief, steps)

    monkeypatch.setattr(suspeicao_game, "run", counting)

    def upto(doc: dict, events: int) -> Document:
        return Document({**doc, "events": doc["events"][:events]})

    for doc in docs:
        game.posterior(upto(doc, 6))
    for doc in docs:
        applied.clear()
        post = game.posterior(upto(doc, 9))
        whole = len(post.round.setup.steps)
        assert applied and applied[0] < whole  # resumed: fewer steps than the whole log's
        fresh = Suspeicao().posterior(upto(doc, 9))
        for place in post.belief.opponents:
            for card in sorted(post.belief.supply):
                assert post.belief.where(card) == fresh.belief.where(card)
            assert post.belief.hand(place).total == fresh.belief.hand(place).total
