"""Suspeição self-play: a truth engine that deals the physical cards, plays one round by the rules
of docs/suspeicao.md and writes the log one seat (`me`) would record, with the true hidden state
after every event.

**Policies.** Public choices (the card played, its target, the evidence passed, whether a target
blocks and with which card, whether to skip a final turn) are made by a policy:

    Policy = Callable[[View, random.Random], Choice]

A `View` is what the deciding player knows when deciding: the decision (`PLAY` on their turn,
`TARGET` to name another target after a block, `BLOCK` when targeted in the blocking mode), every
legal answer (`choices`), their hand, the public state, and the log as they would write it so far
(`view.log()`). The policy returns one of `view.choices` (anything else is a ValueError). A
`PLAY` choice is `Choice(card, target, evidence)` (`Choice()`: skip a final turn); a `TARGET`
choice is `Choice(target=P)`; a `BLOCK` choice is `Choice(card=X)` (`Choice()`: no block).
`random_policy` plays for every player without one.

**Hidden choices** follow the probability model of RULINGS.md §4 with the deck's options, so a
simulated log is a draw from the model the exact filter computes: REVEAL, TAKE, the card an
EXCHANGE takes and the polygraph's pair are uniform over the target's cards; a FORCE target who
holds a qualifying card claims none with probability `bluff_rate`, else reveals a qualifying card
uniformly (`force_reveal: uniform`) or a non-incriminating one when they have one (`protect`); the
polygraph card revealed is one of the two, uniformly; the card an EXCHANGE gives is uniform over
the actor's cards before taking; draws come from the top of a shuffled pile.

**Choices this engine makes where docs/suspeicao.md is silent:**

- A REVEAL, FORCE, EXCHANGE or TAKE card is playable only with a legal target (and an EXCHANGE
  only when the actor holds another card to give), a BUY card only with a card in the pile (the
  rulebook: "you cannot perform this action"); only the final turns can leave no such target. A
  PASS card with nothing in front is a wasted play (the docs): a `play` with no `target`. A final
  turn with no playable card is a `skip` (the rulebook: "forced to pass your turn").
- An incriminating card played by its holder is always accused (no `accused: false`); its play has
  no target.
- The four incriminating numbers are four distinct numbered cards of the deck in use, uniformly.
- When every legal target blocks, the play has `blocked` and no `target`; the action is lost.
  `blocked` is in blocking order: dump with `sort_keys=False` to keep it.
- `by` is written on every `play` (also `me`'s); `end` lists every player (an empty list: none kept).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from models.suspeicao.rules import Card, Deck, load_deck

GAME = "suspeicao"
PLAY, TARGET, BLOCK = "play", "target", "block"  # the decisions a policy makes
HAND_ACTIONS = frozenset({"REVEAL", "FORCE", "EXCHANGE", "TAKE"})  # need a card in a target's hand
ONE_CARD = 1  # a player left with this many cards or fewer draws at the end of any turn
FINAL_TARGET = 3  # in final turns, a hand action needs a target with at least this many cards
INCRIMINATING = 4  # numbers on the board; all of them revealed calls the detective
POLYGRAPH = 2  # cards the polygraph takes
KEPT_POINTS = 2  # an incriminating card kept in hand to the end scores this many points
BLOCK_RATE = 0.5  # how often the random policy blocks when it can
MAX_TURNS = 10_000  # a safety net: every turn removes a card from the hands and pile for good
RESERVED = ("pile", "front")  # keys of a truth besides the players

Truth = dict[str, object]


@dataclass(frozen=True)
class Choice:
    """An answer to a decision: the card (played, or blocking), the target, the evidence passed,
    and for an EXCHANGE the card given (None: uniform over the actor's cards, the model's
    assumption for the other players)."""

    card: str | None = None
    target: str | None = None
    evidence: str | None = None
    give: str | None = None


@dataclass(frozen=True)
class View:
    """What `seat` knows when deciding (see the module docstring)."""

    seat: str
    decision: str  # PLAY, TARGET or BLOCK
    choices: tuple[Choice, ...]  # every legal answer
    hand: tuple[str, ...]  # the seat's cards
    actor: str  # whose turn it is
    card: str | None  # the card being played (TARGET, BLOCK)
    final: bool  # the final turns (no draws; a player may skip)
    incriminating: tuple[str, ...]
    sizes: Mapping[str, int]  # cards in each hand
    pile: int  # cards in the draw pile
    fronts: Mapping[str, tuple[str, ...]]  # incriminating cards revealed in front of each player
    scores: Mapping[str, int]  # points so far this round
    deck: Deck
    history: Callable[[], dict] = field(repr=False, compare=False)

    def log(self) -> dict:
        """The log as `seat` would write it so far (header and events)."""
        return self.history()


Policy = Callable[[View, random.Random], Choice]


def random_policy(view: View, rng: random.Random) -> Choice:
    """Uniform over the cards in hand (and skipping, in a final turn), then over that card's
    targets and evidence; blocks with probability 1/2 when able, with a uniform block card."""
    if view.decision == BLOCK:
        blocks = [c for c in view.choices if c.card is not None]
        return rng.choice(blocks) if rng.random() < BLOCK_RATE else Choice()
    if view.decision == PLAY:
        card = rng.choice(list(dict.fromkeys(c.card for c in view.choices)))
        return rng.choice([c for c in view.choices if c.card == card])
    return rng.choice(view.choices)


# -- the table -----------------------------------------------------------------------------------


@dataclass
class Event:
    """One log event: what everyone hears, and what single players see besides."""

    kind: str
    public: dict
    private: dict[str, dict] = field(default_factory=dict)

    def tell(self, players: list[str], **fields: object) -> None:
        for player in players:
            self.private.setdefault(player, {}).update(fields)

    def seen_by(self, seat: str) -> dict:
        return {self.kind: {**self.public, **self.private.get(seat, {})}}


@dataclass
class Table:
    """Everything physical about one round: the truth the log is written from."""

    players: list[str]
    deck: Deck
    cards: dict[str, Card]  # the cards in use, by name, in deck order
    incriminating: frozenset[str]
    hands: dict[str, list[str]]
    pile: list[str]  # the top is the end
    blocking: bool
    discard: list[str] = field(default_factory=list)
    fronts: dict[str, list[str]] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    final: bool = False
    rank: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.rank = {name: i for i, name in enumerate(self.cards)}

    def value(self, name: str) -> int | str:
        """A card as the log writes it: its number, or its name (X cards)."""
        number = self.cards[name].number
        return name if number is None else number

    def ordered(self, names: list[str]) -> list[str]:
        """Card names in deck order (as the deck file lists them: the bundled deck's numbers
        ascending, then X cards)."""
        return sorted(names, key=self.rank.__getitem__)

    def truth(self) -> Truth:
        state: Truth = {p: self.ordered(self.hands[p]) for p in self.players}
        state["pile"] = self.ordered(self.pile)
        state["front"] = {p: self.ordered(self.fronts[p]) for p in self.players}
        return state

    def kept(self, player: str) -> list[str]:
        """The incriminating cards in `player`'s hand (what they keep if the round ends now)."""
        return self.ordered([c for c in self.hands[player] if c in self.incriminating])

    def end_points(self, player: str) -> int:
        """What the end of the round adds to `player`'s score if it ends now: +KEPT_POINTS for
        each incriminating card kept in hand, -1 for each in front of them."""
        return KEPT_POINTS * len(self.kept(player)) - len(self.fronts[player])

    def left_of(self, actor: str) -> list[str]:
        """The other players in seat order from `actor`'s left."""
        seat = self.players.index(actor)
        return [self.players[(seat + k) % len(self.players)] for k in range(1, len(self.players))]

    def targets(self, actor: str, action: str) -> list[str]:
        """The players `action` may target now: another player (with evidence in front of the actor
        for PASS; with a card, or more than two in final turns, for the hand actions)."""
        if action == "PASS":
            return self.left_of(actor) if self.fronts[actor] else []
        if action not in HAND_ACTIONS:
            return []
        least = FINAL_TARGET if self.final else 1
        return [p for p in self.left_of(actor) if len(self.hands[p]) >= least]

    def play_choices(self, actor: str) -> tuple[Choice, ...]:
        """Every legal play of `actor` (a final turn may be skipped: `Choice()`)."""
        hand = self.ordered(self.hands[actor])
        choices = [Choice()] if self.final else []
        for name in hand:
            action = self.cards[name].action
            if name in self.incriminating or (action == "PASS" and not self.fronts[actor]):
                choices.append(Choice(name))  # accused, or a wasted PASS
            elif action == "BUY":
                choices.extend([Choice(name)] if self.pile else [])
            elif action != "EXCHANGE" or len(hand) > 1:  # an EXCHANGE needs a card to give
                evidence = self.ordered(self.fronts[actor]) if action == "PASS" else [None]
                targets = self.targets(actor, action)
                choices.extend(Choice(name, t, e) for t in targets for e in evidence)
        return tuple(choices)

    def draw(self, player: str, count: int) -> list[str]:
        """Up to `count` cards from the top of the pile into `player`'s hand."""
        drawn = [self.pile.pop() for _ in range(min(max(count, 0), len(self.pile)))]
        self.hands[player].extend(drawn)
        return drawn

    def expose(self, actor: str, target: str, name: str) -> None:
        """A card revealed from `target`'s hand: an incriminating one stays in front of them and
        scores +1 for the actor; any other is discarded."""
        if name in self.incriminating:
            self.fronts[target].append(name)
            self.scores[actor] += 1
        else:
            self.discard.append(name)

    def detective_called(self) -> bool:
        return not self.pile or sum(map(len, self.fronts.values())) >= INCRIMINATING


# -- the actions -----------------------------------------------------------------------------------


def reveal(t: Table, rng: random.Random, actor: str, target: str, card: Card, e: Event) -> None:
    hand = t.hands[target]
    shown = rng.choice(hand)
    hand.remove(shown)
    e.public["revealed"] = t.value(shown)
    t.expose(actor, target, shown)


def force(t: Table, rng: random.Random, actor: str, target: str, card: Card, e: Event) -> None:
    """The target reveals a qualifying card, or claims none (a bluff with probability bluff_rate
    when they hold one) and takes the polygraph."""
    assert card.requires is not None
    hand = t.hands[target]
    qualifying = [c for c in t.ordered(hand) if card.requires.met_by(t.cards[c])]
    if qualifying and not rng.random() < t.deck.bluff_rate:
        safe = [c for c in qualifying if c not in t.incriminating]
        shown = rng.choice(
            safe if safe and t.deck.options["force_reveal"] == "protect" else qualifying
        )
        hand.remove(shown)
        e.public["revealed"] = t.value(shown)
        t.expose(actor, target, shown)
        return
    pair = rng.sample(t.ordered(hand), min(POLYGRAPH, len(hand)))
    shown = rng.choice(pair)
    hand.remove(shown)
    e.public.update(none=True, polygraph=t.value(shown))
    if len(pair) == POLYGRAPH:
        back = next(c for c in pair if c != shown)
        e.tell([actor, target], returned=t.value(back))
    if card.requires.met_by(t.cards[shown]):
        t.scores[target] -= 1  # a lie caught
    t.expose(actor, target, shown)


def exchange(
    t: Table,
    rng: random.Random,
    actor: str,
    target: str,
    card: Card,
    e: Event,
    give: str | None = None,
) -> None:
    """A random card of the target for the actor's card `give` (default: a uniform card of the
    actor's hand before taking)."""
    took = rng.choice(t.ordered(t.hands[target]))
    gave = rng.choice(t.ordered(t.hands[actor])) if give is None else give
    t.hands[target].remove(took)
    t.hands[actor].remove(gave)
    t.hands[actor].append(took)
    t.hands[target].append(gave)
    e.tell([actor, target], took=t.value(took), gave=t.value(gave))


def take(t: Table, rng: random.Random, actor: str, target: str, card: Card, e: Event) -> None:
    took = rng.choice(t.ordered(t.hands[target]))
    t.hands[target].remove(took)
    t.hands[actor].append(took)
    e.tell([actor, target], took=t.value(took))


Action = Callable[[Table, random.Random, str, str, Card, Event], None]
ACTIONS: dict[str, Action] = {"REVEAL": reveal, "FORCE": force, "EXCHANGE": exchange, "TAKE": take}


# -- a round -------------------------------------------------------------------------------------


@dataclass
class Game:
    """A played round: the log from `me`'s seat, the true state after every event, the scores."""

    header: dict
    events: list[Event]
    truths: list[Truth]
    scores: dict[str, int]
    cards: tuple[str, ...]  # the deck in use
    incriminating: tuple[str, ...]
    me: str
    doc: dict = field(init=False)

    def __post_init__(self) -> None:
        self.doc = self.log_for(self.me)

    def log_for(self, seat: str, upto: int | None = None) -> dict:
        """The log `seat` would write (of the first `upto` events: all by default)."""
        events = [e.seen_by(seat) for e in self.events[:upto]]
        return {**self.header, "me": seat, "events": events}


class Round:
    """Plays a dealt table to the end, asking the policies, recording events and truths."""

    def __init__(
        self,
        table: Table,
        rng: random.Random,
        header: dict,
        policies: Mapping[str, Policy],
    ):
        self.table, self.rng, self.header, self.policies = table, rng, header, policies
        self.events: list[Event] = []
        self.truths: list[Truth] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.truths.append(self.table.truth())

    def ask(
        self, seat: str, decision: str, choices: tuple[Choice, ...], actor: str, card: str | None
    ) -> Choice:
        t = self.table
        upto = len(self.events)
        view = View(
            seat=seat,
            decision=decision,
            choices=choices,
            hand=tuple(t.ordered(t.hands[seat])),
            actor=actor,
            card=card,
            final=t.final,
            incriminating=tuple(t.ordered(list(t.incriminating))),
            sizes={p: len(t.hands[p]) for p in t.players},
            pile=len(t.pile),
            fronts={p: tuple(t.fronts[p]) for p in t.players},
            scores=dict(t.scores),
            deck=t.deck,
            history=lambda: {
                **self.header,
                "me": seat,
                "events": [e.seen_by(seat) for e in self.events[:upto]],
            },
        )
        answer = self.policies.get(seat, random_policy)(view, self.rng)
        if answer.give is not None and decision == PLAY and answer.card is not None:
            legal = t.cards[answer.card].action == "EXCHANGE" and answer.give in t.hands[seat]
            if not legal or answer.give == answer.card:
                raise ValueError(f"{seat} cannot give {answer.give!r} with {answer.card!r}")
            answer_checked = Choice(answer.card, answer.target, answer.evidence)
        else:
            answer_checked = answer
        if answer_checked not in choices:
            raise ValueError(f"{seat}'s policy answered {answer!r}: not a legal {decision} choice")
        return answer

    def block(self, actor: str, name: str, target: str, event: Event) -> str | None:
        """Blocking mode: targets holding a block card may block; the actor names another target
        each time. Returns the target the action reaches (None: every legal target blocked)."""
        t = self.table
        left = t.targets(actor, t.cards[name].action)
        blocked: dict[str, int | str] = {}
        reached: str | None = target
        while reached is not None:
            blocks = [c for c in t.ordered(t.hands[reached]) if t.cards[c].block]
            if not blocks:
                break
            options = (Choice(), *(Choice(card=b) for b in blocks))
            used = self.ask(reached, BLOCK, options, actor, name).card
            if used is None:
                break
            t.hands[reached].remove(used)
            t.discard.append(used)
            blocked[reached] = t.value(used)
            left.remove(reached)
            others = tuple(Choice(target=p) for p in left)
            reached = self.ask(actor, TARGET, others, actor, name).target if others else None
        if reached is not None:
            event.public["target"] = reached
        if blocked:
            event.public["blocked"] = blocked
        return reached

    def play(self, actor: str, choice: Choice) -> Event:
        t = self.table
        name = choice.card
        assert name is not None
        card = t.cards[name]
        t.hands[actor].remove(name)
        event = Event("play", {"by": actor, "card": t.value(name)})
        if name in t.incriminating:
            t.fronts[actor].append(name)  # accused: the action does not happen
            return event
        t.discard.append(name)
        target = choice.target
        if target is not None:
            if t.blocking:
                target = self.block(actor, name, target, event)
            else:
                event.public["target"] = target
        if card.action == "BUY":
            bought = t.draw(actor, 1)
            event.tell([actor], bought=t.value(bought[0]))
        elif target is None:
            pass  # a wasted PASS, or every legal target blocked
        elif card.action == "PASS":
            assert choice.evidence is not None
            t.fronts[actor].remove(choice.evidence)
            t.fronts[target].append(choice.evidence)
            event.public["evidence"] = t.value(choice.evidence)
        elif card.action == "EXCHANGE":
            exchange(t, self.rng, actor, target, card, event, choice.give)
        else:
            ACTIONS[card.action](t, self.rng, actor, target, card, event)
        return event

    def refill(self, actor: str, event: Event) -> None:
        """End of a turn: others left with one card or none draw up to the hand size (from the
        actor's left), then the actor does."""
        t = self.table
        for player in [*t.left_of(actor), actor]:
            if player == actor or len(t.hands[player]) <= ONE_CARD:
                drawn = t.draw(player, t.deck.hand_size - len(t.hands[player]))
                if drawn:
                    event.tell([player], drew=[t.value(c) for c in drawn])

    def turn(self, actor: str) -> None:
        t = self.table
        choices = t.play_choices(actor)
        if not choices:
            raise RuntimeError(f"{actor} has no legal play on a turn before the final turns")
        choice = self.ask(actor, PLAY, choices, actor, None)
        if choice.card is None:
            self.add(Event("skip", {"by": actor}))
            return
        event = self.play(actor, choice)
        if not t.final:
            self.refill(actor, event)
        self.add(event)

    def run(self, first: str) -> None:
        t = self.table
        actor = first
        for _ in range(MAX_TURNS):
            self.turn(actor)
            if t.detective_called():
                break
            actor = t.left_of(actor)[0]
        else:
            raise RuntimeError("the round did not end")
        t.final = True  # the detective card: one final turn each, `actor` last
        for player in [*t.left_of(actor), actor]:
            self.turn(player)
        kept = {p: t.kept(p) for p in t.players}
        for player in t.players:
            t.scores[player] += t.end_points(player)
        self.add(Event("end", {p: [t.value(c) for c in cards] for p, cards in kept.items()}))


def header_options(options: Mapping) -> dict:
    """The options as the log header writes them (fractions as text)."""
    return {k: str(v) if isinstance(v, Fraction) else v for k, v in options.items()}


def play_round(
    rng: random.Random,
    players: list[str],
    me: str,
    deck_path: str | Path | None = None,
    blocking: bool = False,
    options: dict | None = None,
    policies: Mapping[str, Policy] | None = None,
    first: str | None = None,
) -> Game:
    """Deal and play one round (random policies for players without one), logged from `me`.
    `first` plays first (default: the first listed)."""
    deck = load_deck(None if deck_path is None else str(deck_path))  # cached by path
    if options:
        deck = deck.with_options(options)
    used = deck.for_players(len(players))
    if len(set(players)) != len(players) or any(p in RESERVED for p in players):
        raise ValueError(f"players need distinct names other than {RESERVED}: {players}")
    if me not in players or (first is not None and first not in players):
        raise ValueError(f"me ({me}) and first ({first}) must be players: {players}")
    cards = {c.name: c for c in used}
    numbered = [c.name for c in used if c.number is not None]
    incriminating = rng.sample(numbered, INCRIMINATING)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    size = deck.hand_size
    hands = {p: shuffled[i * size : (i + 1) * size] for i, p in enumerate(players)}
    pile = shuffled[len(players) * size :]
    if not pile:
        raise ValueError(
            f"{len(cards)} cards leave no draw pile for {len(players)} hands of {size}"
        )
    table = Table(
        players=list(players),
        deck=deck,
        cards=cards,
        incriminating=frozenset(incriminating),
        hands=hands,
        pile=pile,
        blocking=blocking,
        fronts={p: [] for p in players},
        scores=dict.fromkeys(players, 0),
    )
    first = first or players[0]
    header: dict = {"game": GAME, "players": list(players), "me": me}
    if deck_path is not None:
        header["deck"] = str(deck_path)
    if options:
        header["options"] = header_options(options)
    if blocking:
        header["blocking"] = True
    game = Round(table, rng, header, policies or {})
    shown = [table.value(c) for c in table.ordered(incriminating)]
    deal = Event("deal", {"incriminating": shown, "first": first})
    for player in players:
        deal.tell([player], hand=[table.value(c) for c in table.ordered(hands[player])])
    game.add(deal)
    game.run(first)
    return Game(
        header=header,
        events=game.events,
        truths=game.truths,
        scores=dict(table.scores),
        cards=tuple(cards),
        incriminating=tuple(table.ordered(incriminating)),
        me=me,
    )


def random_game(
    rng: random.Random, players: int = 3, deck_path: str | Path | None = None, **kw: Any
) -> Game:
    """A round among P1..Pn logged from P1's seat, a random player first (keywords: those of
    `play_round`, e.g. blocking, options, policies)."""
    names = [f"P{i}" for i in range(1, players + 1)]
    first = rng.choice(names)
    return play_round(rng, names, "P1", deck_path, first=first, **kw)
