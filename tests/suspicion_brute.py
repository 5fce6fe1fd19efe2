"""Game of Suspicion by brute force, for tests only: every physical deal, every hidden choice.

Independent of the engine's reader and filter: it reads the raw log events of a 3- or 4-player
log, with or without `me`, straight from the rulebook and RULINGS.md §3 (a log's `deck` file, read
here with plain YAML, may make the deck small enough to list every deal). Every card of the deck is a distinct physical
card (five different 0s, ...). A state says which physical cards lie at each location: a player's
hand, a middle slot, face up in front of a player (played for its action, or put up by a 6), the
shadow hand, set aside, the shown hand of a player who is out, or the table. The deal gives every
physical deal of the unseen cards the same weight; each event maps every state to its successors,
one per hidden choice of another player (weighted by the choice model of RULINGS.md §3) and one per
public or own choice (weight 1: it carries no likelihood). A successor that disagrees with the
event is dropped. Identical states are merged by adding their weights, which is exact (the rest of
the game depends only on the state). The answer is the total weight of each hidden world (the
sorted values in each hidden place), normalised.

Every branch probability is 1/N for a whole N (a product of 1/(number of options) factors), so
successors carry N, and weights are exact integers: each event multiplies every weight by
lcm(all N of the event) / N, and the common factor cancels when normalising.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

TEN = 10
SLOTS = ("left", "right")
NONE_HOLDER = (None, "none", "nobody", False)
GREATER_THAN_FOUR = {5, 6, 7, 8, 9}
EVEN_NONZERO = {2, 4, 6, 8}

Cards = tuple[int, ...]  # physical card ids, sorted
State = tuple[Cards, ...]  # the cards at each location, by location index
Successors = Iterator[tuple[State, int]]  # (next state, N): the branch has probability 1/N
DEALS: dict[tuple, dict[State, int]] = {}  # deals enumerated lately (tests reuse a few)


def points(value: int) -> int:
    """What a card adds to a hand's sum (the 10 is a 0 and a 1)."""
    return 1 if value == TEN else value


def rank(value: int, ten_rank: str = "zero") -> int:
    """How small a card is for card 6 (the 10 ranks as a 0; with `ten`, as a 10)."""
    return 0 if value == TEN and ten_rank == "zero" else value


def named_numbers(values: Iterable[int]) -> Counter:
    """The numbers a correct guess names: the 10 is named as 0 and 1."""
    numbers: Counter = Counter()
    for v in values:
        numbers.update((0, 1) if v == TEN else (v,))
    return numbers


class Brute:
    def __init__(self, data: dict, split_public: bool = False):
        self.data = data
        self.split_public = split_public
        self.players = [str(p) for p in data["players"]]
        self.me = str(data["me"]) if data.get("me") is not None else None
        self.advanced = bool(data.get("advanced", False))
        deck: dict[str, Any] = {"cards": {0: 5, 1: 5, **dict.fromkeys(range(2, 10), 1)}}
        deck["special"] = TEN
        if data.get("deck") is not None:
            deck = yaml.safe_load(Path(data["deck"]).read_text())
        self.hand_size = int(deck.get("hand_size", 4))
        slots = SLOTS[: int(deck.get("middle", 2))]
        options = {**(deck.get("options") or {}), **(data.get("options") or {})}
        self.unit = options.get("choice_unit", "card")
        self.announce = options.get("announce_model", "restrict")
        self.one_card = options.get("card0_one_card", "unaffected")
        self.ten_rank = options.get("card6_ten_rank", "zero")
        assert self.unit in ("card", "value") and self.announce in ("restrict", "bayes")
        assert self.one_card in ("unaffected", "exchanges") and self.ten_rank in ("zero", "ten")
        # the physical deck: card id -> value (the special card only in the advanced game)
        cards = {int(v): int(n) for v, n in deck["cards"].items()}
        if self.advanced and deck.get("special") is not None:
            cards.setdefault(int(deck["special"]), 1)
        elif deck.get("special") is not None:
            cards.pop(int(deck["special"]), None)
        self.value = [v for v in sorted(cards) for _ in range(cards[v])]
        self.places = [p for p in self.players if p != self.me] + list(slots)  # the hidden ones
        kinds = ("played", "face_up", "out")
        locations = [*self.players, *SLOTS, "shadow", "aside", "table"]
        locations += [f"{kind}:{p}" for kind in kinds for p in self.players]
        self.location = {name: i for i, name in enumerate(locations)}
        self.out: set[str] = set()  # public: players out of the round
        self._hands: dict[Cards, tuple[int, ...]] = {}

    # -- the whole log ------------------------------------------------------------------------

    def run(self, events: list | None = None) -> dict[tuple, Fraction]:
        """The posterior over hidden worlds after `events` (default: the log's), {} if none."""
        *_, last = self.posteriors(events)
        return last

    def posteriors(self, events: list | None = None) -> Iterator[dict[tuple, Fraction]]:
        """The posterior after each event in turn (the deal first)."""
        events = self.data["events"] if events is None else events
        dist: dict[State, int] = {}
        for i, event in enumerate(events):
            ((kind, body),) = event.items()
            body = body or {}
            if kind == "deal":
                if i != 0:
                    raise NotImplementedError("one round only")
                dist = self.deal(body)
            else:
                handler = getattr(self, f"on_{kind}")
                dist = self.advance(dist, lambda s, h=handler, b=body: h(s, b))
                self.after(kind, body)
            yield self.normalised(dist)

    def normalised(self, dist: dict[State, int]) -> dict[tuple, Fraction]:
        """The weight of each hidden world (the values in each hidden place), normalised."""
        hidden = operator.itemgetter(*(self.location[p] for p in self.places))
        cards: dict[tuple, int] = {}  # first by the physical cards in the hidden places
        for state, weight in dist.items():
            key = hidden(state)
            cards[key] = cards.get(key, 0) + weight
        worlds: dict[tuple, int] = {}
        for key, weight in cards.items():
            world = tuple(self.hand_values(place) for place in key)
            worlds[world] = worlds.get(world, 0) + weight
        total = sum(worlds.values())
        return {w: Fraction(p, total) for w, p in worlds.items() if p} if total else {}

    @staticmethod
    def advance(dist: dict[State, int], successors) -> dict[State, int]:
        """Every state's successors, weighted: weight × (1/N) × lcm(N of this event)."""
        branches = [
            (weight, nxt, n) for state, weight in dist.items() for nxt, n in successors(state)
        ]
        scale = math.lcm(*{n for _, _, n in branches}) if branches else 1
        new: dict[State, int] = {}
        for weight, nxt, n in branches:
            new[nxt] = new.get(nxt, 0) + weight * (scale // n)
        common = math.gcd(*new.values()) if new else 1
        return {state: weight // common for state, weight in new.items()}

    def after(self, kind: str, body: dict) -> None:
        """Public bookkeeping: who is out after a correct guess."""
        if kind == "guess" and body.get("correct"):
            self.out.add(str(body["target"]))
        if kind == "play" and body.get("card") == 3 and body.get("correct"):
            self.out.add(str(body["target"]))
        if kind == "play" and body.get("card") == 7:
            raise NotImplementedError("card 7 is not playable in round 1")

    def hand_values(self, cards: Cards) -> tuple[int, ...]:
        """The sorted values of some cards (memoised: the same hands recur in many states)."""
        found = self._hands.get(cards)
        if found is None:
            found = self._hands[cards] = tuple(sorted(self.values(cards)))
        return found

    # -- small helpers --------------------------------------------------------------------------

    def at(self, state: State, where: str) -> Cards:
        return state[self.location[where]]

    def values(self, cards: Iterable[int]) -> list[int]:
        return [self.value[c] for c in cards]

    def moved(self, state: State, *moves: tuple[int, str, str]) -> State:
        """The state after each (card, from, to) move in turn."""
        places = list(state)
        location = self.location
        for card, source, target in moves:
            i, j = location[source], location[target]
            assert card in places[i], (card, source)
            places[i] = tuple([c for c in places[i] if c != card])
            places[j] = tuple(sorted([*places[j], card]))
        return tuple(places)

    def actor(self, body: dict) -> str:
        return str(body.get("by", self.me))

    def others(self, actor: str) -> list[str]:
        return [p for p in self.players if p != actor and p not in self.out]

    def choose(self, cards: Sequence[int]) -> list[tuple[int, int]]:
        """A hidden choice among `cards` (physical): (card, N), the card chosen with probability
        1/N under choice_unit. card: uniform over the cards; value: uniform over the distinct
        values, then over the copies of the value chosen (which copy never matters to a world)."""
        if not cards:
            return []
        if self.unit == "card":
            return [(c, len(cards)) for c in cards]
        copies = Counter(self.value[c] for c in cards)
        return [(c, len(copies) * copies[self.value[c]]) for c in cards]

    def public(self, cards: Sequence[int], value: int) -> list[tuple[int, int]]:
        """A known choice of `value` among `cards` (played, given by me, ...): no likelihood. The
        copies of a value are interchangeable, so the first copy stands for all of them (or, with
        `split_public`, weight 1 is split over the copies: slower, same answer, tested)."""
        copies = [c for c in cards if self.value[c] == value]
        if not self.split_public:
            return [(c, 1) for c in copies[:1]]
        return [(c, len(copies)) for c in copies]

    def hand_is(self, state: State, player: str, cards: Iterable[int]) -> bool:
        return sorted(self.values(self.at(state, player))) == sorted(int(v) for v in cards)

    # -- the deal -------------------------------------------------------------------------------

    def deal(self, body: dict) -> dict[State, int]:
        """Every physical deal of the unseen cards, equally likely (the same deal is remembered:
        states are immutable and `advance` makes new dicts)."""
        key = (
            tuple(self.value),
            self.hand_size,
            tuple(self.places),
            self.me,
            tuple(self.players),
            tuple(body.get("hand") or ()),
            tuple(body.get("shadow") or ()),
            body.get("aside"),
        )
        if key not in DEALS:
            if len(DEALS) >= 8:
                DEALS.clear()
            DEALS[key] = self.every_deal(body)
        return DEALS[key]

    def every_deal(self, body: dict) -> dict[State, int]:
        """Every physical deal of the unseen cards, equally likely. Which copies of a value are
        mine or the shadow's is immaterial (copies are interchangeable), so take the first."""
        seen: dict[str, list[int]] = {}
        free = list(range(len(self.value)))

        def put(values: Iterable[int], where: str) -> None:
            for v in values:
                card = next(c for c in free if self.value[c] == v)
                free.remove(card)
                seen.setdefault(where, []).append(card)

        if self.me is not None:
            put(body["hand"], self.me)
        put(body.get("shadow") or [], "shadow")
        if self.advanced:
            put([body["aside"]], "aside")
        sizes = [self.hand_size if p not in SLOTS else 1 for p in self.places]
        dist: dict[tuple[tuple[int, ...], ...], int] = {}
        for deal in self.deals(free, sizes):
            places: list[tuple[int, ...]] = [()] * len(self.location)
            for where, cards in [*seen.items(), *zip(self.places, deal, strict=True)]:
                places[self.location[where]] = tuple(sorted(cards))
            dist[tuple(places)] = 1  # every physical deal equally likely
        return dist

    @classmethod
    def deals(cls, cards: list[int], sizes: list[int]) -> Iterator[tuple[Cards, ...]]:
        """Every way to deal the physical `cards` into places of the given sizes."""
        if not sizes:
            assert not cards
            yield ()
            return
        for first in itertools.combinations(cards, sizes[0]):
            rest = [c for c in cards if c not in first]
            for deal in cls.deals(rest, sizes[1:]):
                yield (first, *deal)

    # -- A: a middle look -----------------------------------------------------------------------

    def on_look(self, state: State, body: dict) -> Successors:
        actor, slot = self.actor(body), str(body.get("slot", "left"))
        (taken,) = self.at(state, slot)
        holding = self.moved(state, (taken, slot, actor))
        if actor == self.me:
            saw = int(body["saw"])
            if self.value[taken] != saw:
                return
            put = int(body.get("put_back", saw))
            for card, n in self.public(self.at(holding, actor), put):
                yield self.moved(holding, (card, actor, slot)), n
            return
        exchanged = bool(body["exchanged"])
        pool = self.at(holding, actor)  # the hand and the card taken

        def agrees(card: int) -> bool:
            return (self.value[card] != self.value[taken]) == exchanged

        if self.announce == "restrict":  # uniform over the cards that fit the announcement
            options = self.choose([c for c in pool if agrees(c)])
        else:  # uniform over all cards, the announcement observed
            options = [(c, n) for c, n in self.choose(pool) if agrees(c)]
        for card, n in options:
            yield self.moved(holding, (card, actor, slot)), n

    # -- B: play a card -------------------------------------------------------------------------

    def on_play(self, state: State, body: dict) -> Successors:
        actor, card_value = self.actor(body), int(body["card"])
        hand = self.at(state, actor)
        if len(hand) < 2 and card_value not in (8, 9):
            return
        action = getattr(self, f"action_{card_value}", None)
        for card, n in self.public(hand, card_value):
            played = self.moved(state, (card, actor, f"played:{actor}"))
            if action is None:
                yield played, n
                continue
            for nxt, m in action(played, actor, body):
                yield nxt, n * m

    def action_0(self, state: State, actor: str, body: dict) -> Successors:
        first, second = (str(p) for p in body["between"])
        fewest = 2 if self.one_card == "unaffected" else 1
        if len(self.at(state, first)) < fewest or len(self.at(state, second)) < fewest:
            yield state, 1  # a player with one card is not affected: nothing changes hands
            return

        def gives(player: str) -> list[tuple[int, int]]:
            hand = self.at(state, player)  # both choose from the hands held before
            if player == self.me:
                return self.public(hand, int(body["gave"]))
            options = self.choose(hand)
            if self.me in (first, second):  # the card given to me: I see its value
                options = [(c, n) for c, n in options if self.value[c] == int(body["got"])]
            return options

        for a, n in gives(first):
            for b, m in gives(second):
                yield self.moved(state, (a, first, second), (b, second, first)), n * m

    def action_1(self, state: State, actor: str, body: dict) -> Successors:
        named, holder = int(body["named"]), body["holder"]
        if holder in NONE_HOLDER:
            if all(named not in self.values(self.at(state, p)) for p in self.others(actor)):
                yield state, 1
            return
        holder = str(holder)
        hand = self.at(state, holder)
        held = [c for c in hand if self.value[c] == named]
        if not held:
            return
        if len(hand) < 2:
            yield state, 1  # house ruling: nothing moves
            return
        (card,) = held  # 2-9: one copy each
        state = self.moved(state, (card, holder, actor))
        hand = self.at(state, actor)
        if actor == self.me:
            options = self.public(hand, int(body["gave"]))
        else:
            options = self.choose(hand)
            if holder == self.me:  # the card given back to me: I see its value
                options = [(c, n) for c, n in options if self.value[c] == int(body["got"])]
        for back, n in options:
            yield self.moved(state, (back, actor, holder)), n

    def action_2(self, state: State, actor: str, body: dict) -> Successors:
        showed = {str(p) for p in body.get("showed") or []}
        for player in self.others(actor):
            total = sum(points(v) for v in self.values(self.at(state, player)))
            if (total > 10) != (player in showed):
                return
        for player, cards in (body.get("hands") or {}).items():
            if not self.hand_is(state, str(player), cards):
                return
        yield state, 1

    def action_3(self, state: State, actor: str, body: dict) -> Successors:
        target, guesses = str(body["target"]), body["guesses"]
        correct = bool(body.get("correct"))
        for i, numbers in enumerate(guesses):
            if self.guessed(state, target, numbers) != (correct and i == len(guesses) - 1):
                return
        yield (self.eliminated(state, target) if correct else state), 1

    def action_4(self, state: State, actor: str, body: dict) -> Successors:
        return self.shows(state, actor, body, GREATER_THAN_FOUR)

    def action_5(self, state: State, actor: str, body: dict) -> Successors:
        return self.shows(state, actor, body, EVEN_NONZERO)

    def shows(self, state: State, actor: str, body: dict, kinds: set[int]) -> Successors:
        for player in self.others(actor):
            shown = sorted(v for v in self.values(self.at(state, player)) if v in kinds)
            said = body["shown"][player]
            if isinstance(said, list):
                if shown != sorted(int(v) for v in said):
                    return
            elif len(shown) != int(said):
                return
        yield state, 1

    def action_6(self, state: State, actor: str, body: dict) -> Successors:
        face_up = {str(p): int(v) for p, v in (body.get("face_up") or {}).items()}
        branches = [(state, 1)]  # each other player's choice in turn (they are independent)
        for player in self.others(actor):
            hand = self.at(state, player)
            if len(hand) < 2:
                if player in face_up:
                    return
                continue
            value = face_up[player]
            low = min(rank(self.value[c], self.ten_rank) for c in hand)
            tied = [c for c in hand if rank(self.value[c], self.ten_rank) == low]
            if player == self.me:
                options = self.public(tied, value)
            else:
                options = [(c, n) for c, n in self.choose(tied) if self.value[c] == value]
            branches = [
                (self.moved(s, (card, player, f"face_up:{player}")), n * m)
                for s, n in branches
                for card, m in options
            ]
        yield from branches

    def action_8(self, state: State, actor: str, body: dict) -> Successors:
        back = [(c, f"played:{actor}", actor) for c in self.at(state, f"played:{actor}")]
        middle = [(c, slot, actor) for slot in SLOTS for c in self.at(state, slot)]
        if actor == self.me and self.values(c for c, _, _ in middle) != [
            int(v) for v in body["saw"]
        ]:
            return
        state = self.moved(state, *back, *middle)  # the 8 itself is among the cards played
        hand = self.at(state, actor)
        options = self.public(hand, int(body["put"])) if actor == self.me else self.choose(hand)
        for card, n in options:
            yield self.moved(state, (card, actor, "left")), n

    def action_9(self, state: State, actor: str, body: dict) -> Successors:
        yield state, 1  # no action in the rulebook text; logs record its effects generically

    # -- C: guess a hand ------------------------------------------------------------------------

    def guessed(self, state: State, target: str, numbers: Iterable[int]) -> bool:
        hand = self.values(self.at(state, target))
        return named_numbers(hand) == Counter(int(v) for v in numbers)

    def eliminated(self, state: State, target: str) -> State:
        return self.moved(state, *[(c, target, f"out:{target}") for c in self.at(state, target)])

    def on_guess(self, state: State, body: dict) -> Successors:
        target = str(body["target"])
        correct = bool(body.get("correct", False))
        if self.guessed(state, target, body["cards"]) == correct:
            yield (self.eliminated(state, target) if correct else state), 1

    # -- generic events -------------------------------------------------------------------------

    def on_move(self, state: State, body: dict) -> Successors:
        source, target = str(body["from"]), str(body["to"])
        value = None if body.get("card") is None else int(body["card"])
        cards = self.at(state, source)
        if value is None:
            options = self.choose(cards)  # the holder's hidden choice
        elif target == self.me and source not in ("table", self.me):
            # the holder's choice, seen by me
            options = [(c, n) for c, n in self.choose(cards) if self.value[c] == value]
        else:
            options = self.public(cards, value)  # a public move of a known card
        for card, n in options:
            yield self.moved(state, (card, source, target)), n

    def on_show(self, state: State, body: dict) -> Successors:
        to = body.get("to", "all")
        if to != "all" and self.me not in ([to] if isinstance(to, str) else to):
            yield state, 1
            return
        player, cards = str(body["player"]), [int(v) for v in body["cards"]]
        hand = Counter(self.values(self.at(state, player)))
        if body.get("whole"):
            ok = hand == Counter(cards)
        else:
            ok = all(hand[v] >= n for v, n in Counter(cards).items())
        if ok:
            yield state, 1

    def on_fact(self, state: State, body: dict) -> Successors:
        hand = self.values(self.at(state, str(body["player"])))
        counts, total = Counter(hand), sum(points(v) for v in hand)
        checks = [counts[v] >= n for v, n in Counter(int(v) for v in body.get("has") or []).items()]
        checks += [counts[int(v)] == 0 for v in body.get("lacks") or []]
        if body.get("sum_above") is not None:
            checks.append(total > int(body["sum_above"]))
        if body.get("sum_at_most") is not None:
            checks.append(total <= int(body["sum_at_most"]))
        if body.get("hand") is not None:
            checks.append(counts == Counter(int(v) for v in body["hand"]))
        if body.get("count") is not None:
            of = {int(v) for v in body["count"]["of"]}
            checks.append(sum(1 for v in hand if v in of) == int(body["count"]["is"]))
        if all(checks):
            yield state, 1

    def on_skip(self, state: State, body: dict) -> Successors:
        """A turn let pass: nothing moves."""
        yield state, 1

    def on_scores(self, state: State, body: dict) -> Successors:
        yield state, 1


def brute_force(data: dict, split_public: bool = False) -> dict[tuple, Fraction]:
    """The exact posterior over hidden worlds of a log (a raw log dict)."""
    return Brute(data, split_public).run()
