"""Suspeição by brute force, for tests only: every physical deal, every hidden random event and
every hidden choice of another player.

Independent of the engine's reader and filter (only `models/suspeicao/rules.py` is used, for the
deck): it reads a raw log dict (the YAML of docs/suspeicao.md) with the house rulings of that page
and the probability model of RULINGS.md §4. Every card is a distinct physical card. A state is
the cards in each player's hand (seat order, `me` included, as a bitmask) and in the draw pile;
what is public (fronts, discards, hand sizes, whose turn, the final turns) is the same in every
state and kept once, beside them. The deal gives every assignment of the unseen cards to the other
hands and the pile the same weight (refused above LIMIT deals); each step of an event maps every
state to its successors:

- random events: a draw is a uniform card of the pile (k draws: a uniform k-subset), REVEAL and
  TAKE a uniform card of the target, the polygraph a uniform pair of the target's cards;
- hidden choices of another player, uniform: the card an EXCHANGE gives (among the cards held
  before taking), which qualifying card a FORCE target shows (force_reveal: uniform, or protect),
  a claim of none (bluff_rate when the target holds a qualifying card, 1 when not), which of the
  two polygraph cards the actor reveals;
- public choices and my own (the card played, the target, a block, what I give, how I answer a
  FORCE, which polygraph card I reveal): weight 1, consistency only.

A successor that disagrees with the log is dropped. Identical states are merged by adding their
weights after every step (exact: the rest of the game depends only on the state). A branch has
probability num/den (whole numbers), so each step multiplies every weight by num × lcm(all den of
the step) / den and divides by the common factor: weights stay exact integers, and `unit` follows
what one unit of weight is worth, so the probability of the whole log (`evidence`) is exact too.
A move of cards the log names (`known`) skips the general step; `shortcuts=False` turns that off.

Readings where docs/suspeicao.md leaves room (each raises BadLog or is noted):
- an EXCHANGE actor left with no card (a last card played) only takes;
- the final turns start after a normal turn that ends with an empty pile (the BUY of the last
  card or a refill draw) or with the four incriminating cards in front;
- a card whose action has no possible target (final turns: hands of 3 or more) cannot be played
  (`skip`), not even unnoticed (`accused: false`); BUY needs a card in the pile;
- a lost action (every possible target blocked) has no `target` (or names the last blocker);
  who may block is decided before the first block;
- generic events take no turn and trigger nothing: `move` of a named card weighs 1, of an
  unseen card is uniform over the source's cards; `show` and `fact` rule worlds out.
"""

from __future__ import annotations

import copy
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction

from models.suspeicao.rules import Card, load_deck, requirement
from solver.errors import InputError

LIMIT = 2_000_000  # the most physical deals of the unseen cards the brute force accepts
PILE = "pile"
DISCARD = "discard"
ON_A_HAND = ("REVEAL", "FORCE", "EXCHANGE", "TAKE")  # actions that need a card in the target's hand
FINAL_TARGET = 3  # in the final turns, a hand needs this many cards to be a target of ON_A_HAND
EVENTS = ("play", "force", "reveal", "exchange", "take", "buy", "pass", "skip", "end")
GENERIC = ("move", "show", "fact")

State = tuple[int, ...]  # a bitmask of cards per player (seat order), then the pile's
Dist = dict[State, int]  # state -> integer weight
Branches = Iterable[tuple[State, int, int]]  # (next state, num, den): probability num/den
DEALS: dict[tuple, Dist] = {}  # deals enumerated lately (tests reuse a few); never mutated


class BadLog(ValueError):
    """The log breaks a rule whatever the hidden cards (or lacks a field it must give)."""


class Contradiction(ValueError):
    """No physical deal and history is consistent with the log."""


class TooManyDeals(ValueError):
    """The unseen cards have more physical deals than the brute force lists."""


class Posterior(dict):
    """{hidden world: Fraction}: a world is a tuple of frozensets of card names, one per opponent
    in seat order, then the pile. `places` names them; `incriminating` is the round's four cards;
    `cards` maps each card name of the game to its Card."""

    places: tuple[str, ...] = ()
    incriminating: frozenset[str] = frozenset()
    cards: dict[str, Card] = {}
    # the probability of all the log shows, the public choices given (they weigh 1): summed over
    # every possible outcome of one more event, it is the value before that event
    evidence: Fraction = Fraction(1)


def popcount(mask: int) -> int:
    return mask.bit_count()


def bits(mask: int) -> list[int]:
    """The single-bit masks of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def advance(
    dist: Dist, successors: Callable[[State], Branches], where: str
) -> tuple[Dist, Fraction]:
    """Every state's successors, weighted: weight × num × lcm(den of this step) / den, merged and
    divided by the common factor. Also returns what one unit of the new weights is worth in units
    of the old ones (so that the log's total probability can be followed exactly)."""
    branches = [
        (weight, nxt, num, den)
        for state, weight in dist.items()
        for nxt, num, den in successors(state)
        if num
    ]
    if not branches:
        raise Contradiction(f"{where}: no world is consistent with the log")
    scale = math.lcm(*{den for *_, den in branches})
    new: Dist = {}
    for weight, nxt, num, den in branches:
        new[nxt] = new.get(nxt, 0) + weight * num * (scale // den)
    common = math.gcd(*new.values())
    return {state: weight // common for state, weight in new.items()}, Fraction(common, scale)


class Brute:
    """One log, walked event by event. `posteriors()` yields the posterior after each event."""

    def __init__(self, data: dict, limit: int = LIMIT, shortcuts: bool = True):
        self.data = data
        self.limit = limit
        self.shortcuts = shortcuts  # False: every step through `advance` (slower, same answer)
        deck = load_deck(data.get("deck")).with_options(data.get("options"))
        self.deck = deck
        self.players = [str(p) for p in data["players"]]
        if len(set(self.players)) != len(self.players):
            raise BadLog("a player is listed twice")
        self.me = str(data["me"])
        if self.me not in self.players:
            raise BadLog(f"me: {self.me} is not a player")
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.i_me = self.seat[self.me]
        self.i_pile = self.n
        used = deck.for_players(self.n)
        self.card_of = {c.name: c for c in used}
        self.bit = {c.name: 1 << i for i, c in enumerate(used)}
        self.name = {b: name for name, b in self.bit.items()}
        self.hand_size = deck.hand_size
        self.bluff = Fraction(deck.bluff_rate)
        self.protect = deck.options.get("force_reveal", "uniform") == "protect"
        self.blocking = bool(data.get("blocking", False))
        self.opponents = [p for p in self.players if p != self.me]
        self._names: dict[int, frozenset[str]] = {}
        # public, the same in every state
        self.incriminating = 0  # mask
        self.front: dict[str, list[str]] = {p: [] for p in self.players}
        self.discard: set[str] = set()
        self.current = 0  # seat index of the player whose (normal) turn it is
        self.final: list[int] | None = None  # the seats still to take a final turn, in order
        self.over = False  # the last final turn is played
        self.ended = False  # the `end` event is read
        self.dealt = False
        self.where = "the log"
        self.unit = Fraction(1)  # the probability that one unit of weight stands for
        self.dist: Dist = {}  # the states after the events read so far
        self.count = 0  # events read

    # -- the whole log --------------------------------------------------------------------------

    def run(self, events: list | None = None) -> Posterior:
        """The posterior over hidden worlds after `events` (default: the log's)."""
        events = self.data["events"] if events is None else events
        if not events:
            raise BadLog("the log has no events")
        for event in events:
            self.read(event)
        return self.posterior(self.dist)

    def posteriors(self, events: list | None = None) -> Iterator[Posterior]:
        """The posterior after each event in turn (the deal first)."""
        events = self.data["events"] if events is None else events
        for event in events:
            yield self.apply(event)

    def apply(self, event: object) -> Posterior:
        """Read one more event; the posterior after it."""
        self.read(event)
        return self.posterior(self.dist)

    def read(self, event: object) -> None:
        """Read one more event."""
        self.count += 1
        if not isinstance(event, dict) or len(event) != 1:
            raise BadLog(f"event {self.count}: one key per event, e.g. {{play: {{...}}}}")
        ((kind, body),) = event.items()
        body = body or {}
        self.where = f"event {self.count} ({kind})"
        dist = self.dist
        if kind == "deal":
            if self.dealt:
                raise NotImplementedError("the brute force reads one round only")
            dist = self.deal(body)
        elif not self.dealt:
            raise BadLog(f"{self.where}: the log starts with a deal")
        elif self.ended:
            raise BadLog(f"{self.where}: nothing comes after `end`")
        elif kind in GENERIC:
            dist = getattr(self, f"on_{kind}")(dist, body)
        elif kind == "skip":
            dist = self.on_skip(dist, body)
        elif kind == "end":
            dist = self.on_end(dist, body)
        elif kind in EVENTS:
            dist = self.on_play(dist, body, kind)
        else:
            raise BadLog(f"{self.where}: unknown event {kind!r}")
        if kind != "deal":
            self.check_sizes(dist)
        self.dist = dist

    def evidence(self) -> Fraction:
        """The probability of all the log shows so far, given the public choices (see Posterior)."""
        return sum(self.dist.values()) * self.unit

    def fork(self) -> Brute:
        """A copy to read other events from here (the states are shared: they never change)."""
        other = copy.copy(self)
        other.front = {p: list(cards) for p, cards in self.front.items()}
        other.discard = set(self.discard)
        other.final = None if self.final is None else list(self.final)
        return other

    def posterior(self, dist: Dist) -> Posterior:
        """The normalised weight of each hidden world."""
        hidden = operator.itemgetter(*(self.seat[p] for p in self.opponents), self.i_pile)
        names = self.names
        worlds: dict[tuple, int] = {}
        for state, weight in dist.items():
            key = tuple(map(names, hidden(state)))
            worlds[key] = worlds.get(key, 0) + weight
        total = sum(worlds.values())
        post = Posterior({w: Fraction(p, total) for w, p in worlds.items()})
        post.places = (*self.opponents, PILE)
        post.incriminating = self.names(self.incriminating)
        post.cards = dict(self.card_of)
        post.evidence = total * self.unit
        return post

    def names(self, mask: int) -> frozenset[str]:
        found = self._names.get(mask)
        if found is None:
            found = self._names[mask] = frozenset(self.name[b] for b in bits(mask))
        return found

    def check_sizes(self, dist: Dist) -> None:
        """Hand sizes and the pile's size are public: the same in every state (self-check)."""
        sizes = {tuple(map(int.bit_count, state)) for state in dist}
        assert len(sizes) == 1, (self.where, sizes)

    # -- small helpers --------------------------------------------------------------------------

    def step(self, dist: Dist, successors: Callable[[State], Branches]) -> Dist:
        dist, unit = advance(dist, successors, self.where)
        self.unit *= unit
        return dist

    def keep(self, dist: Dist, test: Callable[[State], bool]) -> Dist:
        """The states that pass `test` (an observation with likelihood 0 or 1)."""
        kept = {state: weight for state, weight in dist.items() if test(state)}
        if not kept:
            raise Contradiction(f"{self.where}: no world is consistent with the log")
        return kept

    def known(self, dist: Dist, mask: int, source: int, target: int | None, den: int = 1) -> Dist:
        """The cards `mask` move from `source` to `target` (None: out of every hand and the pile):
        the states where `source` lacks one of them are ruled out; in the others this happens with
        the same chance 1/den (a shortcut for `step`: such a move never merges two states)."""
        if not self.shortcuts:
            moves = [(b, source, target) for b in bits(mask)]
            return self.step(
                dist,
                lambda s: [(self.moved(s, *moves), 1, den)] if s[source] & mask == mask else [],
            )
        moved = {}
        for state, weight in dist.items():
            if state[source] & mask == mask:
                places = list(state)
                places[source] ^= mask
                if target is not None:
                    places[target] |= mask
                moved[tuple(places)] = weight
        if not moved:
            raise Contradiction(f"{self.where}: no world is consistent with the log")
        self.unit /= den
        return moved

    def size(self, dist: Dist, index: int) -> int:
        """How many cards a place holds (public: read from any state)."""
        return popcount(next(iter(dist))[index])

    def card(self, value: object, what: str = "card") -> str:
        if value is None:
            raise BadLog(f"{self.where}: `{what}` is missing")
        try:
            name = self.deck.card(value).name
        except InputError as error:
            raise BadLog(f"{self.where}: {error.message}") from None
        if name not in self.bit:
            raise BadLog(f"{self.where}: card {name} is not used with {self.n} players")
        return name

    def player(self, value: object, what: str = "player") -> int:
        if value is None or str(value) not in self.seat:
            raise BadLog(f"{self.where}: `{what}` {value!r} is not a player")
        return self.seat[str(value)]

    def public(self, name: str, seat: int) -> None:
        """A card revealed from `seat`'s hand: an incriminating one stays in front, else discard."""
        if self.bit[name] & self.incriminating:
            self.front[self.players[seat]].append(name)
        else:
            self.discard.add(name)

    def observed(self, body: dict, key: str, sees: bool) -> int | None:
        """The bit of a card only some players see: given exactly when `me` sees it."""
        if not sees:
            if body.get(key) is not None:
                raise BadLog(f"{self.where}: `{key}` is given only when {self.me} sees it")
            return None
        return self.bit[self.card(body.get(key), key)]

    @staticmethod
    def moved(state: State, *moves: tuple[int, int, int | None]) -> State:
        """The state after each (card bit, from, to) move; to None: out of every hand and pile."""
        places = list(state)
        for b, source, target in moves:
            assert places[source] & b
            places[source] ^= b
            if target is not None:
                places[target] |= b
        return tuple(places)

    @staticmethod
    def added(state: State, b: int, target: int) -> State:
        """The state with card `b` (from outside every hand and the pile) put at `target`."""
        places = list(state)
        places[target] |= b
        return tuple(places)

    def front_count(self) -> int:
        return sum(len(cards) for cards in self.front.values())

    # -- the deal -------------------------------------------------------------------------------

    def deal(self, body: dict) -> Dist:
        incriminating = [self.card(v, "incriminating") for v in body.get("incriminating") or []]
        if len(set(incriminating)) != 4:
            raise BadLog(f"{self.where}: four different incriminating cards")
        hand = [self.card(v, "hand") for v in body.get("hand") or []]
        if len(set(hand)) != len(hand) or len(hand) != self.hand_size:
            raise BadLog(f"{self.where}: my hand is {self.hand_size} different cards")
        self.current = self.player(body.get("first", self.players[0]), "first")
        self.incriminating = sum(self.bit[c] for c in incriminating)
        mine = sum(self.bit[c] for c in hand)
        unseen = sum(self.bit.values()) & ~mine
        left = popcount(unseen) - self.hand_size * (self.n - 1)
        if left < 0:
            raise BadLog(f"{self.where}: not enough cards for {self.n} hands")
        count = math.factorial(popcount(unseen)) // (
            math.factorial(self.hand_size) ** (self.n - 1) * math.factorial(left)
        )
        if count > self.limit:
            raise TooManyDeals(
                f"{count} physical deals of the unseen cards: the brute force lists at most "
                f"{self.limit} (use a reduced deck)"
            )
        self.dealt = True
        self.unit = Fraction(1, count)
        key = (tuple(self.bit), self.hand_size, self.n, self.i_me, mine)
        if key not in DEALS:
            if len(DEALS) >= 8:
                DEALS.clear()
            DEALS[key] = self.every_deal(mine, unseen)
        return DEALS[key]

    def every_deal(self, mine: int, unseen: int) -> Dist:
        """Every assignment of the unseen cards to the other hands and the pile, weight 1."""
        partial: list[tuple[tuple[int, ...], int]] = [((), unseen)]  # (hands so far, rest)
        for seat in range(self.n):
            if seat == self.i_me:
                partial = [((*hands, mine), rest) for hands, rest in partial]
                continue
            partial = [
                ((*hands, sum(chosen)), rest & ~sum(chosen))
                for hands, rest in partial
                for chosen in itertools.combinations(bits(rest), self.hand_size)
            ]
        return {(*hands, rest): 1 for hands, rest in partial}

    # -- turns ----------------------------------------------------------------------------------

    def turn(self, body: dict) -> int:
        """The seat of the player whose turn it is (checked against `by`)."""
        if self.over:
            raise BadLog(f"{self.where}: the round is over (only `end` may follow)")
        seat = self.final[0] if self.final is not None else self.current
        by = body.get("by")
        if by is not None and str(by) != self.players[seat]:
            raise BadLog(f"{self.where}: it is {self.players[seat]}'s turn, not {by}'s")
        return seat

    def end_turn(self, seat: int, triggered: bool) -> None:
        if self.final is not None:
            self.final.pop(0)
            self.over = not self.final
        elif triggered:  # the detective card: one final turn each, from the left, `seat` last
            self.final = [(seat + k) % self.n for k in range(1, self.n + 1)]
        else:
            self.current = (seat + 1) % self.n

    def on_skip(self, dist: Dist, body: dict) -> Dist:
        seat = self.turn(body)
        if self.final is None:
            raise BadLog(f"{self.where}: a turn may be skipped only in the final turns")
        self.end_turn(seat, False)
        return dist

    def on_play(self, dist: Dist, body: dict, kind: str) -> Dist:
        seat = self.turn(body)
        actor = self.players[seat]
        name = self.card(body.get("card"))
        card = self.card_of[name]
        if kind != "play" and card.action != kind.upper():
            raise BadLog(f"{self.where}: card {name} is {card.action}, not {kind.upper()}")
        b = self.bit[name]
        dist = self.known(dist, b, seat, None)
        if b & self.incriminating and body.get("accused", True) is not False:
            if body.get("blocked"):
                raise BadLog(f"{self.where}: an accused card has no action to block")
            self.front[actor].append(name)  # accused: revealed in front, no action
        else:
            self.discard.add(name)
            dist = self.action(dist, seat, card, body)
        triggered = self.front_count() >= 4 or self.size(dist, self.i_pile) == 0
        if self.final is None:
            dist = self.refill(dist, seat, body)
            triggered = triggered or self.size(dist, self.i_pile) == 0
        elif body.get("drew"):
            raise BadLog(f"{self.where}: nobody draws in the final turns")
        self.end_turn(seat, triggered)
        return dist

    def refill(self, dist: Dist, seat: int, body: dict) -> Dist:
        """Every other player left with one card or none draws up to the hand size (seat order from
        the actor's left), then the actor; draws stop when the pile is empty."""
        others = [(seat + k) % self.n for k in range(1, self.n)]
        drawers = [p for p in others if self.size(dist, p) <= 1] + [seat]
        drew = [self.card(v, "drew") for v in body.get("drew") or []]
        i_drew = False
        for p in drawers:
            pile = self.size(dist, self.i_pile)
            k = min(self.hand_size - self.size(dist, p), pile)
            if k <= 0:
                continue
            den = math.comb(pile, k)
            if p == self.i_me:
                i_drew = True
                mask = sum(self.bit[c] for c in set(drew))
                if len(set(drew)) != k:
                    raise BadLog(f"{self.where}: {self.me} draws {k} card(s): `drew` lists them")
                dist = self.known(dist, mask, self.i_pile, self.i_me, den)
            else:
                dist = self.step(
                    dist,
                    lambda s, p=p, k=k, d=den: (
                        (self.draw(s, sum(c), p), 1, d)
                        for c in itertools.combinations(bits(s[self.i_pile]), k)
                    ),
                )
        if drew and not i_drew:
            raise BadLog(f"{self.where}: {self.me} draws nothing this turn")
        return dist

    def draw(self, state: State, mask: int, seat: int) -> State:
        places = list(state)
        places[self.i_pile] ^= mask
        places[seat] |= mask
        return tuple(places)

    # -- the action of a card played --------------------------------------------------------------

    def action(self, dist: Dist, seat: int, card: Card, body: dict) -> Dist:
        act, actor = card.action, self.players[seat]
        if act == "BUY":
            if body.get("target") is not None or body.get("blocked"):
                raise BadLog(f"{self.where}: BUY has no target")
            return self.buy(dist, seat, body)
        if act == "PASS" and not self.front[actor]:
            if body.get("evidence") is not None or body.get("blocked"):
                raise BadLog(f"{self.where}: nothing is in front of {actor} to pass")
            return dist  # a wasted play
        final = self.final is not None
        need = (FINAL_TARGET if final else 1) if act in ON_A_HAND else 0  # PASS: anyone
        eligible = [
            q for q in range(self.n) if q != seat and self.size(dist, q) >= need
        ]  # before any block
        blocked = body.get("blocked") or {}
        if blocked and not self.blocking:
            raise BadLog(f"{self.where}: blocks need `blocking: true` in the header")
        if not isinstance(blocked, dict):
            raise BadLog(f"{self.where}: blocked is a mapping {{player: block card}}")
        blockers = []
        for who, x in blocked.items():
            q = self.player(who, "blocked")
            if q not in eligible or q in blockers:
                raise BadLog(f"{self.where}: {who} cannot block (not a possible target)")
            x_name = self.card(x, "blocked")
            if not self.card_of[x_name].block:
                raise BadLog(f"{self.where}: card {x_name} has no block symbol")
            xb = self.bit[x_name]
            dist = self.known(dist, xb, q, None)
            self.discard.add(x_name)
            blockers.append(q)
        unblocked = [q for q in eligible if q not in blockers]
        given = body.get("target")
        target = None if given is None else self.player(given, "target")
        if target is None or target in blockers:
            if not eligible:
                raise BadLog(f"{self.where}: nobody can be targeted: {actor} must skip")
            if unblocked:
                raise BadLog(f"{self.where}: `target` is missing")
            return dist  # every possible target blocked: the action is lost
        if target not in unblocked:
            raise BadLog(f"{self.where}: {given} cannot be targeted")
        if act == "PASS":
            return self.pass_evidence(dist, seat, target, body)
        return getattr(self, act.lower())(dist, seat, target, card, body)

    def reveal(self, dist: Dist, seat: int, target: int, card: Card, body: dict) -> Dist:
        name = self.card(body.get("revealed"), "revealed")
        rb, n_t = self.bit[name], self.size(dist, target)
        dist = self.known(dist, rb, target, None, n_t)
        self.public(name, target)
        return dist

    def force(self, dist: Dist, seat: int, target: int, card: Card, body: dict) -> Dist:
        assert card.requires is not None
        qualifying = self.meeting(card.requires.text)
        stake = self.bluff  # a claim of none by a target holding a qualifying card
        if body.get("revealed") is not None:
            if body.get("none"):
                raise BadLog(f"{self.where}: a FORCE target reveals a card or claims none")
            name = self.card(body["revealed"], "revealed")
            rb = self.bit[name]
            honest = 1 - stake

            def shows(s: State) -> Branches:
                hand = s[target]
                if not hand & rb or not rb & qualifying:
                    return []
                if target == self.i_me:  # my own choice
                    return [(self.moved(s, (rb, target, None)), 1, 1)]
                pool = hand & qualifying
                if self.protect and pool & ~self.incriminating:
                    pool &= ~self.incriminating
                if not rb & pool:
                    return []
                den = honest.denominator * popcount(pool)
                return [(self.moved(s, (rb, target, None)), honest.numerator, den)]

            dist = self.step(dist, shows)
            self.public(name, target)
            return dist
        if not body.get("none"):
            raise BadLog(f"{self.where}: FORCE gives `revealed` or `none: true`")

        def claims(s: State) -> Branches:
            if target == self.i_me or not s[target] & qualifying:
                return [(s, 1, 1)]
            return [(s, stake.numerator, stake.denominator)]

        dist = self.step(dist, claims)
        return self.polygraph(dist, seat, target, body)

    def polygraph(self, dist: Dist, seat: int, target: int, body: dict) -> Dist:
        """Two random cards of the target (one if they hold one); the actor reveals one (uniform
        unless I am the actor) and returns the other (seen by the actor and the target)."""
        name = self.card(body.get("polygraph"), "polygraph")
        pb, n_t = self.bit[name], self.size(dist, target)
        sees = self.i_me in (seat, target)
        if n_t == 1:
            if body.get("returned") is not None:
                raise BadLog(f"{self.where}: the target held one card: nothing is returned")
            dist = self.known(dist, pb, target, None)
            self.public(name, target)
            return dist
        back = self.observed(body, "returned", sees)
        pairs = math.comb(n_t, 2)
        chooses = 1 if seat == self.i_me else 2  # which of the two the actor reveals

        def tested(s: State) -> Branches:
            for a, c in itertools.combinations(bits(s[target]), 2):
                for shown, kept in ((a, c), (c, a)):
                    if shown == pb and (back is None or kept == back):
                        yield self.moved(s, (pb, target, None)), 1, pairs * chooses

        dist = self.step(dist, tested)
        self.public(name, target)
        return dist

    def exchange(self, dist: Dist, seat: int, target: int, card: Card, body: dict) -> Dist:
        sees = self.i_me in (seat, target)
        took = self.observed(body, "took", sees)
        n_t, n_a = self.size(dist, target), self.size(dist, seat)
        if n_a == 0:  # nothing to give (a last card played): the actor only takes
            if body.get("gave") is not None:
                raise BadLog(f"{self.where}: {self.players[seat]} has no card to give")
            gave = None
        else:
            gave = self.observed(body, "gave", sees)

        if self.shortcuts and took is not None and (gave is not None or n_a == 0):  # me: seen
            if took == gave:  # one card cannot be in both hands before the swap
                raise Contradiction(f"{self.where}: no world is consistent with the log")
            dist = self.known(dist, took, target, seat, n_t)
            if gave is None:
                return dist
            return self.known(dist, gave, seat, target, 1 if seat == self.i_me else n_a)

        def swaps(s: State) -> Branches:
            for t in bits(s[target]):
                if took is not None and t != took:
                    continue
                if n_a == 0:
                    yield self.moved(s, (t, target, seat)), 1, n_t
                    continue
                if seat == self.i_me:  # my choice, among my cards before taking
                    gives = [(gave, 1)] if s[seat] & gave else []
                else:
                    gives = [(g, n_a) for g in bits(s[seat]) if gave is None or g == gave]
                for g, d in gives:
                    yield self.moved(s, (t, target, seat), (g, seat, target)), 1, n_t * d

        return self.step(dist, swaps)

    def take(self, dist: Dist, seat: int, target: int, card: Card, body: dict) -> Dist:
        took = self.observed(body, "took", self.i_me in (seat, target))
        n_t = self.size(dist, target)
        if self.shortcuts and took is not None:
            return self.known(dist, took, target, seat, n_t)
        return self.step(
            dist,
            lambda s: (
                (self.moved(s, (t, target, seat)), 1, n_t)
                for t in bits(s[target])
                if took is None or t == took
            ),
        )

    def buy(self, dist: Dist, seat: int, body: dict) -> Dist:
        pile = self.size(dist, self.i_pile)
        if pile == 0:
            raise BadLog(f"{self.where}: BUY needs a card in the pile")
        bought = self.observed(body, "bought", seat == self.i_me)
        if self.shortcuts and bought is not None:
            return self.known(dist, bought, self.i_pile, seat, pile)
        return self.step(
            dist,
            lambda s: (
                (self.moved(s, (c, self.i_pile, seat)), 1, pile)
                for c in bits(s[self.i_pile])
                if bought is None or c == bought
            ),
        )

    def pass_evidence(self, dist: Dist, seat: int, target: int, body: dict) -> Dist:
        mine = self.front[self.players[seat]]
        given = body.get("evidence")
        if given is None and len(mine) == 1:
            given = mine[0]
        name = self.card(given, "evidence")
        if name not in mine:
            raise BadLog(f"{self.where}: card {name} is not in front of {self.players[seat]}")
        mine.remove(name)
        self.front[self.players[target]].append(name)
        return dist

    def meeting(self, text: str) -> int:
        """The cards meeting a requirement, as a mask."""
        req = requirement(text)
        return sum(b for name, b in self.bit.items() if req.met_by(self.card_of[name]))

    # -- the end and the generic events ---------------------------------------------------------

    def on_end(self, dist: Dist, body: dict) -> Dist:
        if not self.over:
            raise BadLog(f"{self.where}: the round ends after the last final turn")
        kept = [0] * self.n
        for who, cards in body.items():
            q = self.player(who, "end")
            kept[q] = sum(self.bit[self.card(c, "end")] for c in cards or [])
            if kept[q] & ~self.incriminating:
                raise BadLog(f"{self.where}: `end` lists incriminating cards only")
        self.ended = True
        return self.keep(
            dist, lambda s: all(s[q] & self.incriminating == kept[q] for q in range(self.n))
        )

    def on_show(self, dist: Dist, body: dict) -> Dist:
        q = self.player(body.get("player"))
        shown = body.get("cards", [body.get("card")])
        mask = sum(self.bit[self.card(c, "card")] for c in shown)
        return self.keep(dist, lambda s: s[q] & mask == mask)

    def on_fact(self, dist: Dist, body: dict) -> Dist:
        q = self.player(body.get("player"))
        if (body.get("has") is None) == (body.get("lacks") is None):
            raise BadLog(f"{self.where}: a fact gives `has` or `lacks`")
        has = body.get("has") is not None
        mask = self.meeting(body["has"] if has else body["lacks"])
        return self.keep(dist, lambda s: bool(s[q] & mask) == has)

    def on_move(self, dist: Dist, body: dict) -> Dist:
        """A card between hands, the pile and the discard (no turn passes, nothing triggers)."""

        def place(value: object) -> int | None:
            if str(value) == DISCARD:
                return None
            if str(value) == PILE:
                return self.i_pile
            return self.player(value, "from/to")

        source, target = place(body.get("from")), place(body.get("to"))
        if body.get("card") is None:  # an unseen card, uniform over the source's cards
            if self.i_me in (source, target) or source is None or target is None:
                raise BadLog(f"{self.where}: only a move between others' hands may hide the card")
            n_s = self.size(dist, source)
            return self.step(
                dist,
                lambda s: ((self.moved(s, (c, source, target)), 1, n_s) for c in bits(s[source])),
            )
        name = self.card(body["card"])
        b = self.bit[name]
        if source is None:
            if name not in self.discard:
                raise BadLog(f"{self.where}: card {name} is not in the discard")
            self.discard.remove(name)
            if target is None:
                return dist
            return self.step(dist, lambda s: [(self.added(s, b, target), 1, 1)])
        if target is None:
            self.discard.add(name)
        return self.known(dist, b, source, target)


def brute_force(data: dict, limit: int = LIMIT) -> Posterior:
    """The exact posterior over hidden worlds of a log dict (see `Brute`)."""
    return Brute(data, limit).run()


# -- what tests read off a posterior ---------------------------------------------------------------


def whole(post: Posterior) -> tuple[int, dict[tuple, int]]:
    """The posterior as whole numbers over a common denominator (sums of Fractions are slow)."""
    den = math.lcm(*(p.denominator for p in post.values()))
    return den, {w: p.numerator * (den // p.denominator) for w, p in post.items()}


def places_of(post: Posterior) -> dict[str, dict[str, Fraction]]:
    """{card: {place: probability}} for every hidden card (zero entries left out)."""
    den, weights = whole(post)
    found: dict[str, dict[str, int]] = {}
    for world, p in weights.items():
        for place, cards in zip(post.places, world, strict=True):
            for name in cards:
                where = found.setdefault(name, {})
                where[place] = where.get(place, 0) + p
    return {c: {w: Fraction(p, den) for w, p in where.items()} for c, where in found.items()}


def incriminating(post: Posterior) -> dict[str, dict[str, Fraction]]:
    """{incriminating card: {place: probability}} over the opponents and 'pile', for the
    incriminating cards that are hidden (zero entries left out)."""
    return {c: w for c, w in places_of(post).items() if c in post.incriminating}


def holds(post: Posterior, requirement_text: str) -> dict[str, Fraction]:
    """{opponent: probability that they hold at least one card meeting the requirement}."""
    req = requirement(requirement_text)
    meets = {name for name, card in post.cards.items() if req.met_by(card)}
    opponents = post.places[:-1]
    den, weights = whole(post)
    chance = dict.fromkeys(opponents, 0)
    for world, p in weights.items():
        for who, cards in zip(opponents, world, strict=False):
            if cards & meets:
                chance[who] += p
    return {who: Fraction(p, den) for who, p in chance.items()}
