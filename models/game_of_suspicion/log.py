"""Reading a Game of Suspicion log: one event per rulebook action, checked, turned into steps.

The reader keeps everything public (hand sizes, cards face up, the shadow hand, the set-aside
card, who is out, scores) and everything `me` sees (my hand, the cards given to me, the hands
shown to me), and turns each event into the primitive steps of `steps.py` on the hidden places.
An event that cannot happen whatever the hidden cards are (a sixth 0, a card from an empty hand, a
guess of the wrong length) is an InputError naming the event; one that contradicts what `me`
knows is a Contradiction naming the events.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from models.game_of_suspicion import rules
from models.game_of_suspicion.rules import TEN, Deck
from models.game_of_suspicion.steps import (
    Count,
    Guess,
    Hand,
    MiddleLook,
    Move,
    MoveAll,
    PutSmallest,
    Setup,
    SumAbove,
    Swap,
)
from solver.errors import Contradiction, InputError
from solver.logfile import Document, as_flag, as_list, as_whole, known_fields, read_events
from solver.names import NameSet

GAME = "game-of-suspicion"
EVENT_KINDS = ("deal", "look", "play", "guess", "skip", "move", "show", "fact", "scores")
TURNS = ("look", "play", "guess", "skip")  # the events that are a player's turn (A, B, C, none)
HEADER = ("deck", "options", "advanced")  # beside every game's own (solver.logfile.HEADER_FIELDS)
SLOTS = ("left", "right")
TABLE = "table"  # a generic move's public place: face up in front of nobody in particular


def fmt(cards) -> str:
    return " ".join(str(v) for v in sorted(cards)) or "nothing"


@dataclass
class Round:
    """One round: its setup and steps, and the public state after the events read so far."""

    number: int
    deal_event: int
    setup: Setup
    players: list[str]
    hand_size: dict[str, int]
    my_hand: Counter[int] | None
    my_hand_event: int
    shadow: list[int]
    aside: int | None
    middle: dict[str, int]  # slot -> cards in it
    face_up: dict[str, list[int]] = field(default_factory=dict)  # in front of each player
    played: dict[str, list[int]] = field(default_factory=dict)  # played for their action
    out: dict[str, list[int]] = field(default_factory=dict)  # players out -> the hand shown
    table: list[int] = field(default_factory=list)  # cards a generic move put on the table
    turn: str | None = None  # whose turn is next (None: anyone's, at a round's first turn)
    last: str | None = None  # who took the last turn
    guessing_on: str | None = None  # who guessed right last and may guess again

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    @property
    def over(self) -> bool:
        return len(self.active) <= 1

    def public(self) -> Counter:
        """Values no hidden place can hold: face up, shadow, set aside, shown hands, table."""
        seen: Counter = Counter(self.shadow) + Counter(self.table)
        if self.aside is not None:
            seen[self.aside] += 1
        for cards in [*self.face_up.values(), *self.out.values()]:
            seen.update(cards)
        return seen


@dataclass
class Log:
    deck: Deck
    advanced: bool
    players: list[str]
    me: str | None
    events: int
    rounds: list[Round] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


class _Reader:
    def __init__(self, doc: Document, upto: int | None, key: str):
        doc.check_game(GAME)
        deck = rules.load_deck(doc.deck_path())
        if doc.data.get("options") is not None:
            deck = deck.with_options(doc.data["options"])
        if key == "given" and "turn_order" not in (doc.data.get("options") or {}):
            # a puzzle's clues are a selection of the round's events, not every turn of it
            deck = deck.with_options({"turn_order": "free"})
        advanced = doc.data.get("advanced")
        if advanced is None:  # left out: the advanced game exactly when a deal sets a card aside
            advanced = any(
                isinstance(e, dict) and isinstance(e.get("deal"), dict) and "aside" in e["deal"]
                for e in doc.events(key)
            )
        if not isinstance(advanced, bool):
            raise InputError("'advanced' is true or false (the 10 and a set-aside card)")
        players, me = doc.players()
        if players is None or len(players.names) not in (3, 4):
            raise InputError("Game of Suspicion needs 'players': a list of 3 or 4 names")
        self.names = players
        self.doc, self.key = doc, key
        self.raw = doc.events(key, upto)
        self.log = Log(deck, advanced, players.names, me, 0, scores=dict.fromkeys(players.names, 0))
        self.number = 0
        self.kind = ""  # the kind of the event being read
        self.acting = ""  # who takes the turn being read
        self.guessed_right = False  # whether this event is a right guess (action C)

    # -- reading values and names -------------------------------------------------------------

    def player(self, name: object) -> str:
        return self.names.resolve(name)

    def value(self, text: object) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise InputError(f"expected a card value 0-9 (or 10), got {text!r}") from None
        deck = self.log.deck.cards(self.log.advanced)
        if value not in deck:
            if value == self.log.deck.special:
                raise InputError(f"the {value} is only in the advanced game ('advanced: true')")
            raise InputError(f"there is no card {value}; cards are {fmt(deck.elements())}")
        return value

    def values(self, items: object, what: str) -> list[int]:
        if isinstance(items, int | str):
            items = [items]
        if not isinstance(items, list):
            raise InputError(f"{what} is a list of card values, e.g. [0, 1, 5]")
        return [self.value(v) for v in items]

    @property
    def round(self) -> Round:
        current = self.log.round
        if current is None:
            raise InputError("the first event of a round is 'deal: {hand: [...]}'")
        if current.over:
            raise InputError(
                f"the round is over ({fmt(current.active) or 'nobody'} is left); "
                "the next round starts with 'deal'"
            )
        return current

    @property
    def my_cards(self) -> Counter[int]:
        """My hand (only asked for when the log has a `me`)."""
        assert self.round.my_hand is not None
        return self.round.my_hand

    def hidden(self, player: str) -> int | None:
        """The hidden place of a player's hand (None: it is mine, so known)."""
        return None if player == self.log.me else self.round.setup.place(player)

    def slot(self, name: object) -> int:
        slot = NameSet("middle slot", SLOTS, {"l": "left", "r": "right"}).resolve(name)
        return self.round.setup.place(slot)

    def active_player(self, name: object, role: str = "player") -> str:
        player = self.player(name)
        if player in self.round.out:
            raise InputError(f"{player} is out of this round and cannot be a {role}")
        return player

    def actor(self, body: dict) -> str:
        """Who takes this turn (`by`, else me), checked against the turn order."""
        by = body.get("by", self.log.me)
        if by is None:
            raise InputError("say who acts: 'by: PLAYER' (the log has no 'me')")
        self.acting = self.active_player(by, "actor")
        self.check_turn(self.acting)
        return self.acting

    # -- the turn order -------------------------------------------------------------------------

    def check_turn(self, actor: str) -> None:
        """The rulebook's order: the turn passes to the left (the next player in seat order who
        is still in the round) after one action, except that a right guess lets the guesser
        guess again. Option `turn_order: free` turns the check off (a table's house rule)."""
        rnd = self.round
        if self.log.deck.option("turn_order") == "free" or actor == rnd.turn:
            return
        if actor == rnd.guessing_on:
            if self.kind == "guess":
                return
            raise InputError(
                f"after a right guess {actor} may only guess again; otherwise it is "
                f"{rnd.turn}'s turn"
            )
        if rnd.turn is None:
            return
        why = (
            f"{rnd.last} played last"
            if rnd.last is not None
            else f"{rnd.turn} survived the round before and starts this one"
        )
        besides = "" if actor == rnd.last else f", not {actor}'s"
        raise InputError(
            f"it is {rnd.turn}'s turn{besides}: {why} (a turn {rnd.turn} let pass is "
            f"'skip: {{by: {rnd.turn}}}'; a table that keeps no order sets "
            "'options: {turn_order: free}')"
        )

    def pass_turn(self, actor: str) -> None:
        """After `actor`'s turn: the next player to the left who is still in; a right guess
        (not one of card 3's) lets the guesser guess again."""
        rnd = self.log.round
        assert rnd is not None
        rnd.last = actor
        rnd.guessing_on = actor if self.guessed_right and not rnd.over else None
        rnd.turn = None if rnd.over else next_player(rnd.players, rnd.out, actor)

    def mine(self, body: dict, key: str, actor_or_target: str) -> None:
        """Refuse a private detail the log's `me` could not have seen."""
        if body.get(key) is not None and self.log.me != actor_or_target:
            seer = self.log.me or "nobody (no 'me')"
            raise InputError(f"'{key}' is seen by {actor_or_target} only, and this log is {seer}'s")

    # -- the public state -----------------------------------------------------------------------

    def step(self, step) -> None:
        self.round.setup.steps.append(step)

    def accounted(self, value: int) -> int:
        """Copies of `value` known not to be in any hidden place."""
        known = self.round.public()[value]
        return known + (self.round.my_hand or Counter())[value]

    def check_possible(self, player: str, value: int) -> None:
        """A hidden hand can give a `value` only if some copy may be hidden."""
        total = self.log.deck.cards(self.log.advanced)[value]
        if self.accounted(value) >= total:
            raise InputError(
                f"{player} cannot hold a {value}: all {total} cop{'y is' if total == 1 else 'ies are'} "
                "accounted for (face up, shown, or in your hand)"
            )

    def take(self, player: str, value: int | None, chosen: bool, target: int | None) -> None:
        """A card leaves `player`'s hand for hidden place `target` (None: a known place)."""
        rnd = self.round
        if rnd.hand_size[player] < 1:
            raise InputError(f"{player} has no card in hand")
        rnd.hand_size[player] -= 1
        if player == self.log.me:
            assert value is not None
            self.take_mine(value)
            if target is not None:
                self.step(Move(self.number, None, target, value))
            return
        if value is not None:
            self.check_possible(player, value)
        self.step(Move(self.number, self.hidden(player), target, value, chosen))

    def take_mine(self, value: int) -> None:
        rnd = self.round
        assert rnd.my_hand is not None
        if rnd.my_hand[value] < 1:
            raise Contradiction(
                sorted({rnd.my_hand_event, self.number}),
                detail=f"{self.log.me}'s hand is {fmt(rnd.my_hand.elements())}, without a {value}",
            )
        rnd.my_hand[value] -= 1
        rnd.my_hand_event = self.number

    def give_mine(self, value: int) -> None:
        rnd = self.round
        assert rnd.my_hand is not None
        rnd.my_hand[value] += 1
        rnd.my_hand_event = self.number

    def transfer(self, giver: str, receiver: str, value: int | None, chosen: bool = True) -> None:
        """A card goes from one hand to another (its value as `me` sees it)."""
        if self.log.me in (giver, receiver) and value is None:
            raise InputError(f"say which card {giver} gave {receiver}")
        target = self.hidden(receiver)
        self.take(giver, value, chosen, target)
        self.round.hand_size[receiver] += 1
        if receiver == self.log.me:
            assert value is not None
            self.give_mine(value)

    def my_check(self, holds: bool, what: str) -> None:
        """A public statement about my own hand must be true."""
        if not holds:
            rnd = self.round
            assert rnd.my_hand is not None
            raise Contradiction(
                sorted({rnd.my_hand_event, self.number}),
                detail=f"{self.log.me}'s hand {fmt(rnd.my_hand.elements())} {what}",
            )

    def count(
        self, player: str, values: frozenset[int], low: int, high: int, negated=False
    ) -> None:
        place = self.hidden(player)
        if place is None:
            mine = sum(n for v, n in self.my_cards.items() if v in values)
            inside = low <= mine <= high
            self.my_check(inside != negated, f"has {mine} of {fmt(values)}")
            return
        self.step(Count(self.number, place, values, low, high, negated))

    def shown_hand(self, player: str, cards: list[int], equal: bool = True) -> None:
        place = self.hidden(player)
        if place is None:
            mine = sorted(self.my_cards.elements())
            self.my_check(
                (mine == sorted(cards)) == equal, f"is{'' if equal else ' not'} {fmt(cards)}"
            )
            return
        if equal and len(cards) != self.round.hand_size[player]:
            raise InputError(
                f"{player} holds {self.round.hand_size[player]} cards, not {len(cards)} ({fmt(cards)})"
            )
        self.step(Hand(self.number, place, tuple(sorted(cards)), equal))

    def eliminate(self, player: str, hand: list[int]) -> int:
        """A player's hand is shown and they are out; returns the points it is worth."""
        rnd = self.round
        self.shown_hand(player, hand)
        place = self.hidden(player)
        for value in hand:
            if place is None:
                self.take_mine(value)
            else:
                self.step(Move(self.number, place, None, value))
        points = rnd.hand_size[player]
        rnd.hand_size[player] = 0
        rnd.out[player] = sorted(hand)
        return points

    # -- events ---------------------------------------------------------------------------------

    def read(self) -> Log:
        read_events(self.doc, self.key, self.raw, EVENT_KINDS, self.read_event, HEADER)
        self.log.events = len(self.raw)
        return self.log

    def read_event(self, number: int, kind: str, event: dict) -> None:
        self.number, self.kind, self.guessed_right = number, kind, False
        body = event[kind]
        if kind not in ("scores",) and not isinstance(body, dict):
            raise InputError(f"{kind} takes a mapping; see `sleuth new {GAME}`")
        getattr(self, f"on_{kind}")(body)
        if kind in TURNS:  # `actor` checked the turn; it passes on
            self.pass_turn(self.acting)

    def on_skip(self, body: dict) -> None:
        """A turn in which the player did nothing: a house rule that lets a player pass, or a
        turn the log makes explicit that no action was taken. No card moves."""
        self.actor(body)

    def on_deal(self, body: dict) -> None:
        log, deck = self.log, self.log.deck
        players = log.players
        cards = deck.cards(log.advanced)
        hand = self.values(body["hand"], "hand") if body.get("hand") is not None else None
        if (hand is None) != (log.me is None):
            raise InputError(
                "deal gives 'hand: [...]' (my hand) exactly when the log has 'me'"
                if log.me
                else "this log has no 'me', so a deal shows no hand"
            )
        shadow = self.values(body.get("shadow") or [], "shadow")
        if len(players) == 3 and len(shadow) != deck.hand_size:
            raise InputError(
                f"with 3 players, deal gives the face-up 'shadow: [{deck.hand_size} cards]'"
            )
        if len(players) == 4 and shadow:
            raise InputError("there is a shadow hand only with 3 players")
        aside = self.value(body["aside"]) if body.get("aside") is not None else None
        if log.advanced != (aside is not None):
            raise InputError(
                "the advanced game sets one card aside: 'aside: VALUE'"
                if log.advanced
                else "'aside' is only for the advanced game ('advanced: true')"
            )
        if hand is not None and len(hand) != deck.hand_size:
            raise InputError(f"a hand is dealt {deck.hand_size} cards, not {len(hand)}")
        known = (
            Counter(hand or []) + Counter(shadow) + Counter([aside] if aside is not None else [])
        )
        over = [v for v in known if known[v] > cards[v]]
        if over:
            raise InputError(f"the deck has only {cards[over[0]]} card(s) {over[0]}")
        hidden = cards - known
        places = [p for p in players if p != log.me] + list(SLOTS[: deck.middle])
        capacity = [deck.hand_size] * (len(places) - deck.middle) + [1] * deck.middle
        if sum(capacity) != sum(hidden.values()):
            raise InputError(
                f"this deck cannot be dealt: {sum(hidden.values())} unseen cards for {sum(capacity)} places"
            )
        setup = Setup(
            places,
            capacity,
            hidden,
            cards,
            deck.option("choice_unit"),
            deck.option("announce_model"),
            card6_ten_rank=deck.option("card6_ten_rank"),
            outside=log.me is None,
        )
        rnd = Round(
            number=self.round_number(body),
            deal_event=self.number,
            setup=setup,
            players=list(players),
            hand_size=dict.fromkeys(players, deck.hand_size),
            my_hand=Counter(hand) if hand is not None else None,
            my_hand_event=self.number,
            shadow=sorted(shadow),
            aside=aside,
            middle={s: 1 for s in SLOTS[: deck.middle]},
            face_up={p: [] for p in players},
            played={p: [] for p in players},
        )
        before = log.round
        if before is not None and before.over and before.active:
            rnd.turn = before.active[0]  # the player who survived the round before starts
        log.rounds.append(rnd)

    def round_number(self, body: dict) -> int:
        """The round a deal starts: the next one, or `round: N` (a log that starts mid-game)."""
        number = body.get("round", len(self.log.rounds) + 1)
        if not isinstance(number, int) or number < 1:
            raise InputError("a deal's 'round' is a whole number, 1 for the game's first round")
        return number

    def on_look(self, body: dict) -> None:
        actor = self.actor(body)
        rnd = self.round
        name = NameSet("middle slot", SLOTS, {"l": "left", "r": "right"}).resolve(
            body.get("slot", "left")
        )
        if rnd.middle.get(name, 0) < 1:
            raise InputError(
                f"the middle slot {name} is empty (after an 8 only 'left' holds a card)"
            )
        slot = rnd.setup.place(name)
        if actor == self.log.me:
            if body.get("saw") is None:
                raise InputError("my look says what I saw: {slot: left, saw: 3, put_back: 0}")
            saw = self.value(body["saw"])
            put_back = self.value(body.get("put_back", saw))
            self.step(Move(self.number, slot, None, saw))
            self.give_mine(saw)
            self.take_mine(put_back)
            self.step(Move(self.number, None, slot, put_back))
            exchanged = as_flag(
                body.get("exchanged", put_back != saw), "'exchanged': true or false"
            )
            if exchanged != (put_back != saw):
                raise InputError("'exchanged' is true exactly when the value put back differs")
            return
        for key in ("saw", "put_back"):
            self.mine(body, key, actor)
        if not isinstance(body.get("exchanged"), bool):
            raise InputError("another player's look says 'exchanged: true' or 'exchanged: false'")
        self.step(MiddleLook(self.number, rnd.setup.place(actor), slot, body["exchanged"]))

    def on_play(self, body: dict) -> None:
        actor = self.actor(body)
        if "card" not in body:
            raise InputError("play takes {by: PLAYER, card: VALUE, ...}")
        card = self.value(body["card"])
        rnd = self.round
        if card == 7 and rnd.number == 1:
            raise InputError("card 7 may not be played in the game's first round")
        if rnd.hand_size[actor] == 1 and card not in (8, 9):
            raise InputError(f"{actor} has one card in hand and may only play an 8 or a 9")
        self.take(actor, card, False, None)
        rnd.face_up[actor].append(card)
        rnd.played[actor].append(card)
        handler = getattr(self, f"action_{card}", None)
        if handler is not None:
            handler(actor, body)
        else:
            extra = sorted(str(key) for key in set(body) - {"by", "card"})
            if extra:
                raise InputError(f"play has no field {extra[0]!r} (card {card} has no action here)")

    def only_others(self, actor: str, named: dict, what: str) -> None:
        if actor in named:
            raise InputError(f"{what} acts on the other players, not on {actor} who plays it")

    def others(self, actor: str) -> list[str]:
        return [p for p in self.round.active if p != actor]

    def action_0(self, actor: str, body: dict) -> None:
        pair = body.get("between")
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError("card 0 takes 'between: [PLAYER, PLAYER]' (two other players)")
        first, second = (self.active_player(p, "card 0 player") for p in pair)
        if actor in (first, second) or first == second:
            raise InputError("card 0 names two different players other than the one who plays it")
        me = self.log.me
        if me not in (first, second):
            for key in ("gave", "got"):
                self.mine(body, key, f"{first} or {second}")
        rnd = self.round
        fewest = 2 if self.log.deck.option("card0_one_card") == "unaffected" else 1
        if rnd.hand_size[first] < fewest or rnd.hand_size[second] < fewest:
            known_fields(body, "gave", "got")
            return  # house ruling: a player with one card is not affected, so nothing changes hands
        if me in (first, second):
            for key in ("gave", "got"):
                if body.get(key) is None:
                    raise InputError("card 0 with me among the two: say what I 'gave' and 'got'")
            other = second if me == first else first
            got, gave = self.value(body["got"]), self.value(body["gave"])
            self.take(other, got, True, None)  # their choice, from the hand they held before
            self.take_mine(gave)
            self.step(Move(self.number, None, self.hidden(other), gave))
            self.give_mine(got)
            rnd.hand_size[other] += 1
            return
        self.step(Swap(self.number, self.hidden(first), self.hidden(second)))  # type: ignore[arg-type]

    def action_1(self, actor: str, body: dict) -> None:
        if "named" not in body or "holder" not in body:
            raise InputError("card 1 takes 'named: 2-9' and 'holder: PLAYER' (or 'holder: none')")
        named = self.value(body["named"])
        if named not in rules.NAMEABLE:
            raise InputError(f"card 1 names a card 2-9, not {named}")
        me = self.log.me
        if body["holder"] in (None, "none", "nobody", False):
            for player in self.others(actor):
                self.count(player, frozenset({named}), 0, 0)
            return
        holder = self.active_player(body["holder"], "holder")
        if holder == actor:
            raise InputError(
                "the holder of the named card is another player ('holder: none' if nobody)"
            )
        self.mine(body, "gave", actor)
        self.mine(body, "got", holder)
        if self.round.hand_size[holder] < 2:
            self.count(holder, frozenset({named}), 1, 1)  # house ruling: nothing moves
            return
        if holder != me:
            self.check_possible(holder, named)
        self.transfer(holder, actor, named, chosen=False)
        if me == actor and body.get("gave") is None:
            raise InputError("my card 1: say which card I 'gave' back")
        if me == holder and body.get("got") is None:
            raise InputError("my card was named: say which card I 'got' back")
        back = body.get("gave") if me == actor else body.get("got")
        self.transfer(actor, holder, self.value(back) if back is not None else None)

    def action_2(self, actor: str, body: dict) -> None:
        showed = [
            self.active_player(p)
            for p in as_list(body.get("showed"), "'showed': the players who showed, e.g. [Ben]")
        ]
        hands = body.get("hands") or {}
        self.mine(body, "hands", actor)
        if not isinstance(hands, dict):
            raise InputError("card 2's 'hands' maps each player who showed to their hand")
        for player in self.others(actor):
            self.step_sum(player, player in showed)
        for name, cards in hands.items():
            player = self.active_player(name)
            if player not in showed:
                raise InputError(f"{player} declined to show, so no hand of theirs was seen")
            self.shown_hand(player, self.values(cards, "a hand"))
        if actor == self.log.me and set(showed) - set(self.resolve_keys(hands)):
            raise InputError("my card 2: give the 'hands' of everyone who showed")

    def resolve_keys(self, mapping: dict) -> list[str]:
        return [self.player(p) for p in mapping]

    def step_sum(self, player: str, above: bool) -> None:
        limit = rules.SUM_SHOWN_ABOVE
        place = self.hidden(player)
        if place is None:
            total = sum(rules.points(v) for v in self.my_cards.elements())
            self.my_check((total > limit) == above, f"sums to {total}")
            return
        self.step(SumAbove(self.number, place, limit, above))

    def action_3(self, actor: str, body: dict) -> None:
        guesses = body.get("guesses")
        if "target" not in body or not isinstance(guesses, list) or not 1 <= len(guesses) <= 3:
            raise InputError(
                "card 3 takes 'target: PLAYER', 'guesses: [[...], ...]' (1-3) and 'correct'"
            )
        target = self.active_player(body["target"], "target")
        correct = as_flag(body.get("correct", False), "'correct': true or false")
        for i, numbers in enumerate(guesses):
            last = i == len(guesses) - 1
            self.guess(actor, target, numbers, correct and last)

    def ten_may_be_held(self) -> bool:
        """Whether a hand may hold the 10, from what every player sees: only in the advanced game,
        and not once it is face up (set aside, played, put up by a 6, or in a shown hand). The
        same from every seat, so a guess's length is judged alike whoever logs it."""
        return self.log.advanced and self.round.public()[TEN] == 0

    def guess(self, actor: str, target: str, numbers: object, correct: bool) -> None:
        if target == actor:
            raise InputError("a guess is at another player's hand")
        numbers = self.values(numbers, "a guess")
        if TEN in numbers:
            raise InputError("the 10 is guessed as the two numbers 0 and 1, never as 10")
        size = self.round.hand_size[target]
        ten_may_be_held = self.ten_may_be_held()
        allowed = (size, size + 1) if ten_may_be_held else (size,)
        if len(numbers) not in allowed:
            raise InputError(
                f"{target} holds {size} card(s): a guess names {size} numbers"
                + (f" ({size + 1} if it holds the 10)" if ten_may_be_held else "")
            )
        place = self.hidden(target)
        if place is None:
            mine = rules.guess_numbers(self.my_cards.elements())
            self.my_check(
                (mine == Counter(numbers)) == correct,
                f"was guessed {'right' if correct else 'wrong'}",
            )
        else:
            self.step(Guess(self.number, place, tuple(sorted(numbers)), correct))
        if correct and len(numbers) == size + 1 and not {0, 1} <= set(numbers):
            raise InputError(
                "a right guess naming one number more than the cards names 0 and 1 (the 10)"
            )
        if correct:
            hand = rules.hand_from_guess(numbers, size)
            self.log.scores[actor] += self.eliminate(target, hand)

    def action_4(self, actor: str, body: dict) -> None:
        self.show_some(actor, body, rules.GREATER_THAN_FOUR)

    def action_5(self, actor: str, body: dict) -> None:
        self.show_some(actor, body, rules.EVEN_NONZERO)

    def show_some(self, actor: str, body: dict, values: frozenset[int]) -> None:
        shown = body.get("shown")
        if not isinstance(shown, dict):
            raise InputError(
                "cards 4 and 5 take 'shown: {PLAYER: count}' (or the cards, if I played it)"
            )
        shown = {self.active_player(p): v for p, v in shown.items()}
        self.only_others(actor, shown, f"card {4 if values == rules.GREATER_THAN_FOUR else 5}")
        for player in self.others(actor):
            if player not in shown:
                raise InputError(f"say how many cards {player} showed ('shown: {{{player}: 0}}')")
            what = shown[player]
            if isinstance(what, list):
                if actor != self.log.me and player != self.log.me:
                    raise InputError(f"only {actor} saw {player}'s cards; give the count")
                cards = Counter(self.values(what, "shown cards"))
                if set(cards) - values:
                    raise InputError(
                        f"card {actor} only shows {fmt(values)}, not {fmt(set(cards) - values)}"
                    )
                for value in values:
                    self.count(player, frozenset({value}), cards[value], cards[value])
            elif type(what) is int and 0 <= what <= self.round.hand_size[player]:
                if actor == self.log.me and what > 0:
                    raise InputError(f"I saw {player}'s cards: list them, e.g. {player}: [5, 7]")
                self.count(player, values, what, what)
            else:
                raise InputError(
                    f"{player}'s shown cards: a count (0 to the {self.round.hand_size[player]} "
                    "cards they hold) or a list of values"
                )

    def action_6(self, actor: str, body: dict) -> None:
        face_up = body.get("face_up")
        if not isinstance(face_up, dict):
            raise InputError("card 6 takes 'face_up: {PLAYER: VALUE, ...}' (players with 2+ cards)")
        face_up = {self.active_player(p): self.value(v) for p, v in face_up.items()}
        self.only_others(actor, face_up, "card 6")
        rnd = self.round
        for player in self.others(actor):
            if rnd.hand_size[player] < 2:
                if player in face_up:
                    raise InputError(f"{player} has one card and is not affected by card 6")
                continue
            if player not in face_up:
                raise InputError(f"say which card {player} put face up")
            value = face_up[player]
            if player == self.log.me:
                mine = self.my_cards.elements()
                ten_rank = self.log.deck.option("card6_ten_rank")
                self.my_check(
                    value in rules.smallest(mine, ten_rank), f"has a smaller card than {value}"
                )
                self.take_mine(value)
            else:
                self.check_possible(player, value)
                self.step(PutSmallest(self.number, self.hidden(player), value))  # type: ignore[arg-type]
            rnd.hand_size[player] -= 1
            rnd.face_up[player].append(value)

    def action_7(self, actor: str, body: dict) -> None:
        out = body.get("out") or {}
        if not isinstance(out, dict):
            raise InputError("card 7 takes 'out: {PLAYER: [hand], ...}' ({} if nobody)")
        out = {self.active_player(p): self.values(h, "a hand") for p, h in out.items()}
        self.only_others(actor, out, "card 7")
        for player in self.others(actor):
            if player in out:
                if rules.zeros(out[player]) != 2:
                    raise InputError(f"{player}'s shown hand does not hold exactly two 0s")
                self.log.scores[actor] += self.eliminate(player, out[player])
            else:
                self.count(player, frozenset({0, TEN}), 2, 2, negated=True)

    def action_8(self, actor: str, body: dict) -> None:
        rnd = self.round
        back = list(rnd.played[actor])
        if body.get("took") is not None and sorted(self.values(body["took"], "took")) != sorted(
            back
        ):
            raise InputError(f"{actor} takes back every card they played: {fmt(back)}")
        for value in back:
            rnd.face_up[actor].remove(value)
        rnd.played[actor] = []
        place = self.hidden(actor)
        rnd.hand_size[actor] += len(back)
        if place is None:
            for value in back:
                self.give_mine(value)
        else:
            for value in back:
                self.step(Move(self.number, None, place, value))
        slots = [s for s in SLOTS if rnd.middle.get(s, 0)]
        if actor == self.log.me:
            saw = self.values(body.get("saw", []), "saw")
            if len(saw) != len(slots) or body.get("put") is None:
                raise InputError(
                    f"my card 8: say what I 'saw' in the middle ({len(slots)} cards) and the card I 'put' down"
                )
        else:
            self.mine(body, "saw", actor)
            self.mine(body, "put", actor)
        for i, name in enumerate(slots):
            slot = rnd.setup.place(name)
            if place is None:
                self.step(Move(self.number, slot, None, saw[i]))
                self.give_mine(saw[i])
            else:
                self.step(MoveAll(self.number, slot, place))
            rnd.middle[name] = 0
            rnd.hand_size[actor] += 1
        left = rnd.setup.place("left")
        if place is None:
            put = self.value(body["put"])
            self.take_mine(put)
            self.step(Move(self.number, None, left, put))
        else:
            self.step(Move(self.number, place, left, None, True))
        rnd.hand_size[actor] -= 1
        rnd.middle["left"] = 1

    def on_guess(self, body: dict) -> None:
        actor = self.actor(body)
        if "target" not in body or "cards" not in body:
            raise InputError(
                "guess takes {by: PLAYER, target: PLAYER, cards: [...], correct: false}"
            )
        target = self.active_player(body["target"], "target")
        correct = as_flag(body.get("correct", False), "'correct': true or false")
        self.guess(actor, target, body["cards"], correct)
        self.guessed_right = correct

    # -- generic events (DESIGN.md): move, show, fact ---------------------------------------------

    def place_name(self, text: object) -> str:
        options = [*self.round.active, *SLOTS, TABLE]
        return NameSet("place", options).resolve(text)

    def on_move(self, body: dict) -> None:
        if "from" not in body or "to" not in body:
            raise InputError(
                "move takes {from: PLACE, to: PLACE, card: VALUE} (card optional when hidden)"
            )
        source, target = self.place_name(body["from"]), self.place_name(body["to"])
        value = self.value(body["card"]) if body.get("card") is not None else None
        rnd, me = self.round, self.log.me
        if source == target:
            raise InputError("a move goes from one place to another")
        if value is None and (TABLE in (source, target) or me in (source, target)):
            raise InputError("a card that comes from or goes to a known place needs its 'card'")
        if source == TABLE:
            assert value is not None
            if value not in rnd.table:
                raise InputError(f"there is no {value} on the table")
            rnd.table.remove(value)
            source_place = None
        elif source in SLOTS:
            if rnd.middle.get(source, 0) < 1:
                raise InputError(f"the middle slot {source} is empty")
            rnd.middle[source] -= 1
            if value is not None:
                self.check_possible(source, value)
            source_place = rnd.setup.place(source)
        else:
            source_place = self.hidden(source)
        target_place = (
            None
            if target in (TABLE, me)
            else self.slot(target)
            if target in SLOTS
            else self.hidden(target)
        )
        if source in SLOTS:
            self.step(Move(self.number, source_place, target_place, value, target == me))
        elif source != TABLE:
            self.take(source, value, target == me, target_place)
        if source == TABLE and target_place is not None:
            self.step(Move(self.number, None, target_place, value))
        if target == TABLE:
            rnd.table.append(value)  # type: ignore[arg-type]
        elif target in SLOTS:
            rnd.middle[target] = rnd.middle.get(target, 0) + 1
        else:
            rnd.hand_size[target] += 1
            if target == me:
                self.give_mine(value)  # type: ignore[arg-type]

    def on_show(self, body: dict) -> None:
        if "player" not in body or "cards" not in body:
            raise InputError(
                "show takes {player: PLAYER, cards: [...], to: [PLAYER, ...] or all, whole: false}"
            )
        player = self.active_player(body["player"])
        cards = self.values(body["cards"], "cards")
        to = body.get("to", "all")
        seen_by = (
            None
            if to == "all"
            else {self.player(p) for p in (to if isinstance(to, list) else [to])}
        )
        if seen_by is not None and self.log.me not in seen_by:
            return  # shown to others only: nothing I can use
        if as_flag(body.get("whole", False), "'whole': true or false"):
            self.shown_hand(player, cards)
            return
        for value, n in Counter(cards).items():
            self.count(player, frozenset({value}), n, self.log.deck.hand_size * 4)

    def on_fact(self, body: dict) -> None:
        if "player" not in body:
            raise InputError(
                "fact takes {player: PLAYER, has: V | lacks: [V...] | sum_above: N | ...}"
            )
        player = self.active_player(body["player"])
        known = {"player", "has", "lacks", "sum_above", "sum_at_most", "hand", "count"}
        unknown = set(body) - known
        if unknown:
            hint = NameSet("fact", sorted(known - {"player"})).suggestion(str(sorted(unknown)[0]))
            raise InputError(f"unknown fact {sorted(unknown)[0]!r}{hint}")
        big = 99
        for value, n in Counter(self.values(body.get("has") or [], "has")).items():
            self.count(player, frozenset({value}), n, big)
        lacks = self.values(body.get("lacks") or [], "lacks")
        if lacks:
            self.count(player, frozenset(lacks), 0, 0)
        for key, above in (("sum_above", True), ("sum_at_most", False)):
            if body.get(key) is not None:
                limit = as_whole(body[key], f"'{key}': a whole number of points", 0, 999)
                place = self.hidden(player)
                if place is None:
                    total = sum(rules.points(v) for v in self.my_cards.elements())
                    self.my_check((total > limit) == above, f"sums to {total}")
                else:
                    self.step(SumAbove(self.number, place, limit, above))
        if body.get("hand") is not None:
            self.shown_hand(player, self.values(body["hand"], "hand"))
        if body.get("count") is not None:
            spec = body["count"]
            if not isinstance(spec, dict) or "of" not in spec or "is" not in spec:
                raise InputError("a count fact is {of: [values], is: N}")
            values = frozenset(self.values(spec["of"], "count of"))
            held = as_whole(spec["is"], "'is': how many of the cards the hand holds", 0, 99)
            self.count(player, values, held, held)

    def on_scores(self, body: object) -> None:
        if not isinstance(body, dict):
            raise InputError("scores takes {PLAYER: points, ...}")
        for name, points in body.items():
            if not isinstance(points, int) or points < 0:
                raise InputError(f"{name}'s score is a whole number of points")
            self.log.scores[self.player(name)] = points


def next_player(seats: list[str], out: dict | set, actor: str) -> str:
    """The next player to the left of `actor` (the next in seat order) who is still in."""
    at = seats.index(actor)
    later = seats[at + 1 :] + seats[: at + 1]
    return next(p for p in later if p not in out)


def parse(doc: Document, upto: int | None = None, key: str = "events") -> Log:
    """Validate a game-of-suspicion log (up to event `upto`)."""
    return _Reader(doc, upto, key).read()
