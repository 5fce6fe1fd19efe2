"""CP-SAT model of 6 Suspects: which card lies at each slot, and the whole resolution as constraints.

The hidden world is `slot_card[s, c]` (card `c` lies at slot `s`). The resolution of RULINGS.md §2
is written as constraints, one method per step, mirroring `rules.py`: after each copying step every
slot *acts as* one card of the deck (its own, or the one it copied) or as nothing (key None). Every
auxiliary variable is a function of the layout, so the solutions of the model are exactly the
completions of the seen cards and `enumerate` counts them as a brute force would. Values are
doubled ints, as in `rules.py` (the default Diamond total 9½ is 19).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from models.six_suspects.rules import COLUMNS, ROWS, SLOTS, Deck, neighbour, partner, slot_index
from solver.knowledge import Knowledge

Seen = tuple[int, int, str]  # (event number, slot index, card name)
Placed = dict[tuple[int, int], Any]  # (slot, card) -> literal "the card lies at the slot"
Acts = dict[tuple[int, int | None], Any]  # (slot, card or None) -> "the slot acts as the card"
TORCH_STEPS = {"torch-left": -1, "torch-right": +1}
VALUED = ("plain", "swap")  # kinds whose effect is their value (a copied Swap gives only its value)


class LayoutKnowledge(Knowledge):
    """The twelve cards in the twelve slots; the culprit columns follow from the layout."""

    def __init__(self, deck: Deck, seen: Iterable[Seen] = ()):
        super().__init__()
        self.deck = deck
        self.cards = range(len(deck.cards))
        self.slots = range(len(SLOTS))
        self.slot_card = self._layout()
        for event, slot, name in seen:
            self.see(event, slot, name)
        after_swap = self._apply_swap(self.slot_card)
        after_torches = self._apply_torches(after_swap)
        after_mirrors = self._apply_mirrors(after_torches)
        self.out, self.total = self._column_totals(after_mirrors)
        self.culprit = self._culprits(self.out, self.total)

    def culprit_query(self) -> dict[int, Any]:
        """One literal per column (0 = A): 'this suspect is a culprit'."""
        return dict(enumerate(self.culprit))

    # --- the hidden world --------------------------------------------------------------------

    def _layout(self) -> Placed:
        """slot_card[s, c]: each slot holds exactly one card, each card lies in exactly one slot.

        A witness names the card (its index in the deck) at every slot."""
        model = self.model
        slot_card = {
            (s, c): model.new_bool_var(f"{SLOTS[s]}_is_{self.deck.cards[c].name}")
            for s in self.slots
            for c in self.cards
        }
        for s in self.slots:
            model.add_exactly_one(slot_card[s, c] for c in self.cards)
            card_at = model.new_int_var(0, len(self.cards) - 1, f"card_at_{SLOTS[s]}")
            model.add(card_at == sum(c * slot_card[s, c] for c in self.cards))
            self.witness_vars[SLOTS[s]] = card_at
        for c in self.cards:
            model.add_exactly_one(slot_card[s, c] for s in self.slots)
        return slot_card

    def see(self, event: int, slot: int, name: str) -> None:
        """A look, under `event`'s literal: the card named `name` lies at `slot`."""
        card = self.deck.cards.index(self.deck.by_name(name))
        self.model.add(self.slot_card[slot, card] == 1).only_enforce_if(self.event(event))

    def _special(self, kind: str) -> int | None:
        """Index of the deck's card of a special `kind` (None if the deck has none)."""
        return next((c for c in self.cards if self.deck.cards[c].kind == kind), None)

    # --- resolution, one step per method (RULINGS.md §2) ---------------------------------------

    def _apply_swap(self, placed: Placed) -> Placed:
        """Step 1: the Swap's left and right row neighbours exchange places (rows wrap around).

        Slot s takes the card two columns to its right when the Swap is its right neighbour, the
        card two columns to its left when the Swap is its left neighbour, else keeps its own."""
        swap = self._special("swap")
        if swap is None:
            return placed
        model = self.model
        swapped = {(s, c): model.new_bool_var(f"swapped_{s}_{c}") for s, c in placed}
        for s in self.slots:
            swap_right, swap_left = placed[neighbour(s, +1), swap], placed[neighbour(s, -1), swap]
            cases = [
                ([swap_right], neighbour(s, +2)),
                ([swap_left], neighbour(s, -2)),
                ([swap_right.Not(), swap_left.Not()], s),
            ]
            for when, source in cases:
                for c in self.cards:
                    model.add(swapped[s, c] == placed[source, c]).only_enforce_if(when)
        return swapped

    def _apply_torches(self, placed: Placed) -> Acts:
        """Step 2: a Torch acts as its row neighbour (left or right, after the swap); a Torch
        whose neighbour is the other Torch (they face each other) acts as nothing."""
        torches = {}
        for kind, step in TORCH_STEPS.items():
            if (torch := self._special(kind)) is not None:
                torches[torch] = step
        others = [c for c in self.cards if c not in torches]
        model = self.model
        acts: Acts = {
            (s, c): model.new_bool_var(f"torched_{s}_{c}")
            for s in self.slots
            for c in [*others, None]
        }
        for s in self.slots:
            for torch, step in torches.items():
                source, here = neighbour(s, step), placed[s, torch]
                for c in others:
                    model.add(acts[s, c] == placed[source, c]).only_enforce_if(here)
                facing = sum(placed[source, t] for t in torches)
                model.add(acts[s, None] == facing).only_enforce_if(here)
            no_torch = [placed[s, t].Not() for t in torches]
            for c in others:
                model.add(acts[s, c] == placed[s, c]).only_enforce_if(no_torch)
            model.add(acts[s, None] == 0).only_enforce_if(no_torch)
        return acts

    def _apply_mirrors(self, acts: Acts) -> Acts:
        """Step 3: a Mirror effect (the Mirror, or a Torch that copied it) acts as the other card
        of its column as it stands after step 2; as nothing if that is a Mirror effect or nothing."""
        mirror = self._special("mirror")
        if mirror is None:
            return acts
        model = self.model
        others = [c for c in self.cards if (0, c) in acts and c != mirror]
        mirrored: Acts = {
            (s, c): model.new_bool_var(f"mirrored_{s}_{c}")
            for s in self.slots
            for c in [*others, None]
        }
        for s in self.slots:
            other, is_mirror = partner(s), acts[s, mirror]
            for c in others:
                model.add(mirrored[s, c] == acts[other, c]).only_enforce_if(is_mirror)
                model.add(mirrored[s, c] == acts[s, c]).only_enforce_if(is_mirror.Not())
            copies_nothing = acts[other, None] + acts[other, mirror]
            model.add(mirrored[s, None] == copies_nothing).only_enforce_if(is_mirror)
            model.add(mirrored[s, None] == acts[s, None]).only_enforce_if(is_mirror.Not())
        return mirrored

    def _column_totals(self, acts: Acts) -> tuple[list[Any], list[Any]]:
        """Step 4: a Police effect puts a column out; else a Diamond effect makes it diamond2;
        else it adds the doubled values of its two slots (nothing adds 0).

        An out column's total is pinned below every real total, so it never becomes the best
        while a column is in, and the total stays a function of the layout."""
        model = self.model
        police, diamond = self._special("police"), self._special("diamond")
        values = {c: card.value2 for c in self.cards if (card := self.deck.cards[c]).kind in VALUED}
        extremes = [0, self.deck.diamond2, *(2 * v for v in values.values())]
        self.out_total, self.highest = min(extremes) - 1, max(extremes)
        outs, totals = [], []
        for column, name in enumerate(COLUMNS):
            pair = [slot_index(column, row) for row in range(ROWS)]
            out = self._any_acts_as(police, pair, acts, f"out_{name}")
            shines = self._any_acts_as(diamond, pair, acts, f"diamond_{name}")
            total = model.new_int_var(self.out_total, self.highest, f"total_{name}")
            added = sum(v * acts[s, c] for s in pair for c, v in values.items())
            model.add(total == self.out_total).only_enforce_if(out)
            model.add(total == self.deck.diamond2).only_enforce_if([out.Not(), shines])
            model.add(total == added).only_enforce_if([out.Not(), shines.Not()])
            outs.append(out)
            totals.append(total)
        return outs, totals

    def _any_acts_as(self, card: int | None, pair: list[int], acts: Acts, name: str) -> Any:
        """A literal: some slot of `pair` acts as `card` (always false if the deck lacks it)."""
        literal = self.model.new_bool_var(name)
        if card is None:
            self.model.add(literal == 0)
        else:
            self.model.add_max_equality(literal, [acts[s, card] for s in pair])
        return literal

    def _culprits(self, outs: list[Any], totals: list[Any]) -> list[Any]:
        """Step 5: the culprits are the columns not out with the highest total (ties allowed)."""
        model = self.model
        self.best = model.new_int_var(self.out_total, self.highest, "best")
        model.add_max_equality(self.best, totals)
        culprits = []
        for column, name in enumerate(COLUMNS):
            at_best = model.new_bool_var(f"best_{name}")
            model.add(totals[column] == self.best).only_enforce_if(at_best)
            model.add(totals[column] < self.best).only_enforce_if(at_best.Not())
            culprit = model.new_bool_var(f"culprit_{name}")
            model.add_bool_and([at_best, outs[column].Not()]).only_enforce_if(culprit)
            model.add_bool_or([at_best.Not(), outs[column]]).only_enforce_if(culprit.Not())
            culprits.append(culprit)
        return culprits
