"""CP-SAT model of a Game of Suspicion round: what each hidden place may hold after every step.

The hidden world is `n[t][place, value]`: how many cards of `value` hidden place `place` holds
after step `t` (t = 0 is the deal). Each step of `steps.py` links `n[t - 1]` to `n[t]` in two
parts:

- its *structure* — how many cards each place gains or loses, that a card which leaves a place
  was in it, that card 6 puts up a card of the smallest rank — is public and always holds;
- its *observation* — the value of a known move, the outcome of a filter, whether a middle look
  was announced "exchanged" — holds only under the assumption literal of its event.

So the solutions with every event assumed are exactly the (deal, history) pairs the exact filter
(`belief.py`) gives positive weight, their final worlds are the filter's support, and a
contradictory log is explained by a minimal set of events (`conflict`). The queries at the end
(a hand, who holds a value, certain facts) look at the final counts only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from models.game_of_suspicion import rules
from models.game_of_suspicion.rules import TEN, VALUES
from models.game_of_suspicion.steps import (
    Count,
    Guess,
    Hand,
    MiddleLook,
    Move,
    MoveAll,
    PutSmallest,
    PutSmallestUnseen,
    Setup,
    Step,
    SumAbove,
    Swap,
)
from solver.knowledge import Knowledge

Counts = dict[tuple[int, int], Any]  # (place, value) -> cards of the value the place holds
World = tuple[tuple[int, ...], ...]  # per hidden place (setup order), its sorted values
Active = Iterable[int] | None  # the event numbers assumed true (None: every event)


class HandKnowledge:
    """The hidden places of one round, step by step, with every event under its literal."""

    def __init__(self, setup: Setup, steps: list[Step] | None = None):
        self.setup = setup
        self.steps = list(setup.steps if steps is None else steps)
        self.knowledge = Knowledge()
        self.model = self.knowledge.model
        self.places = range(len(setup.places))
        self.size = list(setup.capacity)  # public: how many cards each place holds now
        self.n: list[Counts] = []  # n[t][place, value]: after step t (0: the deal)
        self.n.append(self._deal())
        for step in self.steps:
            self.n.append(getattr(self, f"_{type(step).__name__.lower()}")(step, self.n[-1]))
        self.final = self.n[-1]
        for p in self.places:
            for v in VALUES:
                self.knowledge.witness_vars[f"{setup.places[p]}/{v}"] = self.final[p, v]
        self._exactly: dict[tuple[int, int, int], Any] = {}
        self._holds: dict[tuple[int, int], Any] = {}
        self._worlds: dict[World, Any] = {}

    # -- the hidden world --------------------------------------------------------------------------

    def _counts(self, before: Counts, changed: list[int]) -> Counts:
        """The counts after the next step: new variables for the `changed` places (whose sizes
        `self.size` already gives), the others' as before."""
        t, after = len(self.n), dict(before)
        for p in changed:
            for v in VALUES:
                most = min(self.setup.copies[v], self.size[p])
                after[p, v] = self.model.new_int_var(0, most, f"n_{self.setup.places[p]}_{v}_{t}")
        return after

    def _deal(self) -> Counts:
        """The deal: the hidden cards fill every place to its capacity."""
        n = self._counts({}, list(self.places))
        for v in VALUES:
            self.model.add(sum(n[p, v] for p in self.places) == self.setup.hidden[v])
        for p in self.places:
            self.model.add(sum(n[p, v] for v in VALUES) == self.setup.capacity[p])
        return n

    def _card(self, what: str) -> list[Any]:
        """One card of unknown value: a literal per value, exactly one of them true."""
        card = [self.model.new_bool_var(f"{what}_is_{v}") for v in VALUES]
        self.model.add_exactly_one(card)
        return card

    def _seen(self, step: Step) -> Any:
        """The assumption literal of the step's event: what it observes holds under it."""
        return self.knowledge.event(step.event)

    # -- steps that move cards ---------------------------------------------------------------------

    def _move(self, step: Move, before: Counts) -> Counts:
        """One card goes from `source` to `target` (None: a known place). Structure: a card of
        some value leaves (it was there) and arrives; observed: its value, when the log gives it."""
        source, target = step.source, step.target
        card = self._card(f"moved_{len(self.n)}")
        if source is not None:
            self.size[source] -= 1
        if target is not None:
            self.size[target] += 1
        after = self._counts(before, [p for p in (source, target) if p is not None])
        for v in VALUES:
            if source is not None:
                self.model.add(after[source, v] == before[source, v] - card[v])
            if target is not None:
                self.model.add(after[target, v] == before[target, v] + card[v])
            if source is None:  # a card from a known place: the deck bounds what can arrive
                self.model.add(sum(after[p, v] for p in self.places) <= self.setup.copies[v])
        if step.value is not None:
            self.model.add(card[step.value] == 1).only_enforce_if(self._seen(step))
        return after

    def _moveall(self, step: MoveAll, before: Counts) -> Counts:
        """Every card of `source` goes to `target` (pure structure)."""
        source, target = step.source, step.target
        self.size[target] += self.size[source]
        self.size[source] = 0
        after = self._counts(before, [source, target])
        for v in VALUES:
            self.model.add(after[target, v] == before[target, v] + before[source, v])
            self.model.add(after[source, v] == 0)
        return after

    def _swap(self, step: Swap, before: Counts) -> Counts:
        """Card 0: each hand gives the other one card of the hand it held before (structure)."""
        first, second = step.first, step.second
        given = self._card(f"given_{len(self.n)}")  # first -> second
        returned = self._card(f"returned_{len(self.n)}")  # second -> first
        after = self._counts(before, [first, second])
        for v in VALUES:
            self.model.add(given[v] <= before[first, v])
            self.model.add(returned[v] <= before[second, v])
            self.model.add(after[first, v] == before[first, v] - given[v] + returned[v])
            self.model.add(after[second, v] == before[second, v] - returned[v] + given[v])
        return after

    def _middlelook(self, step: MiddleLook, before: Counts) -> Counts:
        """Action A: the slot's one card joins the hand and one card of the hand goes back
        (structure); observed: "exchanged" exactly when the value put back differs."""
        hand, slot = step.hand, step.slot
        if self.size[slot] != 1:
            raise ValueError(f"event {step.event}: a middle look needs one card in the slot")
        taken = {v: before[slot, v] for v in VALUES}  # 0/1: the slot holds one card
        back = self._card(f"put_back_{len(self.n)}")
        after = self._counts(before, [hand, slot])
        for v in VALUES:
            self.model.add(back[v] <= before[hand, v] + taken[v])
            self.model.add(after[hand, v] == before[hand, v] + taken[v] - back[v])
            self.model.add(after[slot, v] == back[v])
            if step.exchanged:
                self.model.add(back[v] + taken[v] <= 1).only_enforce_if(self._seen(step))
            else:
                self.model.add(back[v] == taken[v]).only_enforce_if(self._seen(step))
        return after

    def _putsmallest(self, step: PutSmallest | PutSmallestUnseen, before: Counts) -> Counts:
        """Card 6: a card of the smallest rank (the 10 ranks as a 0) leaves the hand (structure);
        observed: its value (unseen: `sleuth explain` left the event out)."""
        place = step.place
        card = self._card(f"face_up_{len(self.n)}")
        self.size[place] -= 1
        after = self._counts(before, [place])
        for v in VALUES:
            self.model.add(after[place, v] == before[place, v] - card[v])
            ten = self.setup.card6_ten_rank
            smaller = [before[place, u] for u in VALUES if rules.rank(u, ten) < rules.rank(v, ten)]
            if smaller:
                self.model.add(sum(smaller) == 0).only_enforce_if(card[v])
        if isinstance(step, PutSmallest):
            self.model.add(card[step.value] == 1).only_enforce_if(self._seen(step))
        return after

    _putsmallestunseen = _putsmallest

    # -- steps that only rule worlds out (observations) --------------------------------------------

    def _count(self, step: Count, before: Counts) -> Counts:
        """Cards 4, 5, 7, show and fact: how many of some values the place holds."""
        from ortools.sat.python import cp_model

        held = sum(before[step.place, v] for v in step.values)
        inside = cp_model.Domain(step.low, step.high)
        domain = inside.complement() if step.negated else inside
        self.model.add_linear_expression_in_domain(held, domain).only_enforce_if(self._seen(step))
        return before

    def _sumabove(self, step: SumAbove, before: Counts) -> Counts:
        """Card 2: whether the hand's points (the 10 adds 1) are above the limit."""
        total = sum(rules.points(v) * before[step.place, v] for v in VALUES)
        above = total > step.limit if step.above else total <= step.limit
        self.model.add(above).only_enforce_if(self._seen(step))
        return before

    def _hand(self, step: Hand, before: Counts) -> Counts:
        """A shown hand (or a hand known not to be this one)."""
        wanted = Counter(step.cards)
        pairs = [(before[step.place, v], wanted[v]) for v in VALUES]
        self._matches(pairs, step.equal, self._seen(step))
        return before

    def _guess(self, step: Guess, before: Counts) -> Counts:
        """A guess: the hand's numbers (the 10 named as a 0 and a 1) are the guessed ones, or not."""
        wanted = Counter(step.numbers)
        place = step.place
        numbers = [
            before[place, k] + (before[place, TEN] if k in (0, 1) else 0) for k in range(TEN)
        ]
        pairs = [(numbers[k], wanted[k]) for k in range(TEN)]
        self._matches(pairs, step.correct, self._seen(step))
        return before

    def _matches(self, pairs: list[tuple[Any, int]], equal: bool, seen: Any) -> None:
        """Under `seen`: every expression equals its number (`equal`), or at least one differs."""
        if equal:
            for expression, number in pairs:
                self.model.add(expression == number).only_enforce_if(seen)
            return
        differs = []
        for i, (expression, number) in enumerate(pairs):
            differ = self.model.new_bool_var(f"differs_{len(self.n)}_{i}")
            self.model.add(expression != number).only_enforce_if(differ)
            self.model.add(expression == number).only_enforce_if(differ.Not())
            differs.append(differ)
        self.model.add_bool_or(differs).only_enforce_if(seen)

    # -- query literals on the final world ---------------------------------------------------------

    def _exactly_literal(self, place: int, value: int, k: int) -> Any:
        """A literal: at the end, `place` holds exactly `k` cards `value`."""
        key = (place, value, k)
        if key not in self._exactly:
            literal = self.model.new_bool_var(f"{self.setup.places[place]}_has_{k}x{value}")
            self.model.add(self.final[place, value] == k).only_enforce_if(literal)
            self.model.add(self.final[place, value] != k).only_enforce_if(literal.Not())
            self._exactly[key] = literal
        return self._exactly[key]

    def _holds_literal(self, place: int, value: int) -> Any:
        """A literal: at the end, `place` holds at least one card `value`."""
        key = (place, value)
        if key not in self._holds:
            literal = self.model.new_bool_var(f"{self.setup.places[place]}_holds_{value}")
            self.model.add(self.final[place, value] >= 1).only_enforce_if(literal)
            self.model.add(self.final[place, value] == 0).only_enforce_if(literal.Not())
            self._holds[key] = literal
        return self._holds[key]

    def holds_literal(self, place: int, value: int) -> Any:
        """A literal: at the end, `place` holds at least one card `value` (`sleuth explain`)."""
        return self._holds_literal(place, value)

    def hand_literal(self, place: int, hand: tuple[int, ...]) -> Any:
        """A literal: at the end, `place` holds exactly `hand` (`sleuth explain`)."""
        wanted = Counter(hand)
        literal = self.model.new_bool_var(f"{self.setup.places[place]}_hand_{len(self._worlds)}")
        if any(wanted[v] > self._most(place, v) for v in VALUES):
            self.model.add(literal == 0)
            return literal
        parts = [self._exactly_literal(place, v, wanted[v]) for v in VALUES]
        self.model.add_bool_and(parts).only_enforce_if(literal)
        self.model.add_bool_or([part.Not() for part in parts]).only_enforce_if(literal.Not())
        return literal

    def _world_literal(self, world: World) -> Any:
        """A literal: at the end, the hidden places hold exactly `world`."""
        wanted = [Counter(hand) for hand in world]
        literal = self.model.new_bool_var(f"world_{len(self._worlds)}")
        if any(wanted[p][v] > self._most(p, v) for p in self.places for v in VALUES):
            self.model.add(literal == 0)
            return literal
        parts = [self._exactly_literal(p, v, wanted[p][v]) for p in self.places for v in VALUES]
        self.model.add_bool_and(parts).only_enforce_if(literal)
        self.model.add_bool_or([part.Not() for part in parts]).only_enforce_if(literal.Not())
        return literal

    def _most(self, place: int, value: int) -> int:
        """The most cards `value` that `place` can hold at the end."""
        return min(self.setup.copies[value], self.size[place])

    def _world(self, witness: dict[str, int]) -> dict[str, list[int]]:
        """A witness as the final world: place name -> its sorted values."""
        return {
            name: [v for v in VALUES for _ in range(witness[f"{name}/{v}"])]
            for name in self.setup.places
        }

    # -- queries -----------------------------------------------------------------------------------

    def consistent(self, active: Active = None) -> bool:
        """Whether the events (default: all; `active`: only these event numbers) can all be true."""
        return self.knowledge.consistent(active)

    def conflict(self, active: Active = None) -> list[int]:
        """A minimal set of event numbers that cannot all be true ([] if the log is consistent)."""
        return self.knowledge.conflict(active)

    def possible_world(self, world: World, active: Active = None) -> bool:
        """Whether the final hidden places can be `world` (per place, in setup order)."""
        if [len(hand) for hand in world] != self.size:
            return False
        if world not in self._worlds:
            self._worlds[world] = self._world_literal(world)
        return bool(self.knowledge.possible({world: self._worlds[world]}, active))

    def possible_worlds(self, limit: int | None = None) -> set[World]:
        """Possible final worlds: with a `limit`, up to that many (one solve each); without,
        every one, by enumerating every history (a cross-check for small states: the histories
        of a full deal can number hundreds of thousands)."""
        query = {
            (p, v, k): self._exactly_literal(p, v, k)
            for p in self.places
            for v in VALUES
            for k in range(1, self._most(p, v) + 1)
        }
        if limit is None:
            found = list(self.knowledge.enumerate(query))
        else:
            found = [answer for answer, _ in self.knowledge.answers(query, limit=limit)]
        return {
            tuple(
                tuple(v for q, v, k in sorted(answer) if q == p for _ in range(k))
                for p in self.places
            )
            for answer in found
        }

    def hand_answers(
        self, place: int, limit: int = 2, active: Active = None
    ) -> list[tuple[tuple[int, ...], dict[str, list[int]]]]:
        """Up to `limit` different possible final hands of `place`, each with a witness world
        (one answer: the hand is certain)."""
        query = {
            (v, k): self._exactly_literal(place, v, k)
            for v in VALUES
            for k in range(1, self._most(place, v) + 1)
        }
        return [
            (tuple(v for v, k in sorted(answer) for _ in range(k)), self._world(witness))
            for answer, witness in self.knowledge.answers(query, active, limit)
        ]

    def holder_answers(
        self, value: int, limit: int = 2, active: Active = None
    ) -> list[tuple[tuple[str, ...], dict[str, list[int]]]]:
        """Up to `limit` different final sets of hidden places holding `value`, with witnesses."""
        query = {p: self._holds_literal(p, value) for p in self.places}
        return [
            (tuple(self.setup.places[p] for p in sorted(answer)), self._world(witness))
            for answer, witness in self.knowledge.answers(query, active, limit)
        ]

    def final_hidden(self) -> Counter | None:
        """The values in the hidden places at the end: the same in every world, since a card
        leaves or enters the hidden places with its value known (None if a step breaks that)."""
        hidden = Counter(self.setup.hidden)
        for step in self.steps:
            if isinstance(step, PutSmallestUnseen):
                return None
            if isinstance(step, PutSmallest):
                hidden[step.value] -= 1
            elif isinstance(step, Move) and (step.source is None) != (step.target is None):
                if step.value is None:
                    return None
                hidden[step.value] += 1 if step.source is None else -1
        return hidden

    def certain_facts(self, active: Active = None) -> list[str]:
        """Certain facts about the final hidden places, e.g. "Ben holds a 9", "Cleo has no 7"
        (with every event assumed, a value no hidden place can hold is left out; nothing when
        the events are inconsistent)."""
        if not self.consistent(active):
            return []
        hidden = self.final_hidden() if active is None else None
        if hidden is None:  # every value may be hidden
            hidden = Counter(VALUES)
        query = {}
        for p in self.places:
            for v in VALUES:
                if hidden[v] and self._most(p, v):
                    query["holds", p, v] = self._holds_literal(p, v)
                    query["lacks", p, v] = self._holds_literal(p, v).Not()
        certain = self.knowledge.certain(query, active)
        facts = []
        for kind, p, v in query:
            if (kind, p, v) in certain:
                name = self.setup.places[p]
                facts.append(f"{name} holds a {v}" if kind == "holds" else f"{name} has no {v}")
        return facts
