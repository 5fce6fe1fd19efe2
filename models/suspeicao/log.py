"""Reading a Suspeição log: one event per turn, checked against the rules, turned into steps.

The reader keeps the public state (whose turn it is, hand and pile sizes, the discard, the
evidence in front of each player, the detective card and the final turns, scores) and what `me`
knows (my hand, the cards I know the place of), and turns each event into the primitive steps of
`steps.py`. An event that cannot happen whatever the hidden cards are (a card already played, a
target with no card, a FORCE answered with a card that does not qualify) is an InputError naming
the event; one that contradicts what `me` knows is a Contradiction naming the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from models.suspeicao import rules
from models.suspeicao.rules import Card, Deck
from models.suspeicao.steps import (
    PILE,
    Enter,
    Fact,
    Force,
    Hidden,
    Isolate,
    Leave,
    Setup,
    Swap,
)
from solver.errors import Contradiction, InputError
from solver.logfile import Document, as_whole, read_events
from solver.names import NameSet

GAME = "suspeicao"
ACTION_EVENTS = tuple(a.lower() for a in rules.ACTIONS)
EVENT_KINDS = ("deal", "play", *ACTION_EVENTS, "skip", "end", "move", "show", "fact")
HEADER = ("deck", "options", "blocking")  # beside every game's own (solver.logfile.HEADER_FIELDS)
HAND_ACTIONS = ("REVEAL", "FORCE", "EXCHANGE", "TAKE")  # actions on the target's hand
DISCARD = "discard"
INCRIMINATING = 4  # the board shows four numbers
FINAL_TARGET_MIN = 3  # in the final turns, hands of 2 or fewer cannot be targeted
PRIVATE = ("took", "gave", "bought", "returned", "drew")


def fmt(cards) -> str:
    return " ".join(str(c) for c in cards) or "nothing"


@dataclass
class Round:
    """One round: its setup and steps, and the public state after the events read so far."""

    number: int
    deal_event: int
    setup: Setup
    players: list[str]
    incriminating: list[str]
    hand_size: dict[str, int]
    pile: int
    turn: str  # whose turn it is (when the round is not over)
    my_hand: set[str]
    my_hand_event: int  # the last event that changed my hand
    front: dict[str, list[str]]  # incriminating cards revealed in front of each player
    got: dict[str, int] = field(default_factory=dict)  # card in my hand -> the event it came in
    discard: list[str] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)  # card -> opponent I know holds it
    detective: str | None = None  # who took the detective card
    final: list[str] = field(default_factory=list)  # final turns still to play, in order
    over: bool = False
    ended: bool = False  # the `end` event was read
    left_in_pile: list[str] = field(default_factory=list)  # evidence nobody kept, at the end

    @property
    def final_turns(self) -> bool:
        return self.detective is not None

    def revealed(self) -> int:
        return sum(len(cards) for cards in self.front.values())


@dataclass
class Log:
    deck: Deck
    players: list[str]
    me: str
    blocking: bool
    events: int
    rounds: list[Round] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)

    @property
    def round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


class _Reader:
    def __init__(self, doc: Document, upto: int | None, key: str):
        doc.check_game(GAME)
        deck = rules.load_deck(doc.deck_path())
        if doc.data.get("options") is not None:
            deck = deck.with_options(doc.data["options"])
        players, me = doc.players()
        if players is None or len(players.names) not in rules.PLAYERS:
            raise InputError("Suspeição needs 'players': a list of 3 to 6 names")
        if me is None:
            raise InputError("say whose knowledge to compute: 'me: NAME' (one of the players)")
        blocking = doc.data.get("blocking", False)
        if not isinstance(blocking, bool):
            raise InputError("'blocking' is true or false (the blocking mode)")
        self.names = players
        self.doc, self.key = doc, key
        self.raw = doc.events(key, upto)
        self.used = deck.for_players(len(players.names))
        self.cards = NameSet("card", [c.name for c in self.used])
        self.log = Log(deck, players.names, me, blocking, 0, scores=dict.fromkeys(players.names, 0))
        self.number = 0
        self.drawn: list[str] = []  # the `drew` cards of the current event not yet used

    # -- names ---------------------------------------------------------------------------------

    def player(self, name: object) -> str:
        return self.names.resolve(name)

    def card(self, name: object) -> Card:
        if isinstance(name, float) and name.is_integer():
            name = int(name)
        text = str(name).strip()
        if text.upper() not in self.cards.names and any(
            c.name == text.upper() for c in self.log.deck.cards
        ):
            raise InputError(
                f"card {text} has the 5-6 player icon: it is not used with {len(self.log.players)} players"
            )
        return self.log.deck.card(self.cards.resolve(text))

    def card_list(self, items: object, what: str) -> list[str]:
        if isinstance(items, int | str):
            items = [items]
        if not isinstance(items, list):
            raise InputError(f"{what} is a list of cards, e.g. [13, 40, X1]")
        names = [self.card(c).name for c in items]
        twice = sorted({c for c in names if names.count(c) > 1})
        if twice:
            raise InputError(f"{what} names card {twice[0]} twice")
        return names

    @property
    def me(self) -> str:
        return self.log.me

    @property
    def round(self) -> Round:
        current = self.log.round
        if current is None:
            raise InputError(
                "the first event of a round is 'deal: {incriminating: [...], hand: [...]}'"
            )
        return current

    def playing(self) -> Round:
        rnd = self.round
        if rnd.over:
            raise InputError(
                "the round is over (the detective's final turn was played); "
                "'end' scores it and 'deal' starts the next"
            )
        return rnd

    def step(self, step) -> None:
        self.round.setup.steps.append(step)

    # -- where cards are -----------------------------------------------------------------------

    def public_place(self, card: str) -> str | None:
        rnd = self.round
        if card in rnd.discard:
            return "the discard"
        for player, cards in rnd.front.items():
            if card in cards:
                return f"in front of {player}"
        return None

    def check_hidden(self, holder: str, card: str) -> None:
        """`holder` (another player, or the pile) can hold `card` only if it is hidden from me and
        not known to be elsewhere."""
        rnd = self.round
        public = self.public_place(card)
        if public:
            raise InputError(f"card {card} is already face up ({public})")
        if card in rnd.my_hand:
            raise Contradiction(
                sorted({rnd.got.get(card, rnd.deal_event), self.number}),
                detail=f"card {card} is in {self.me}'s hand",
            )
        elsewhere = rnd.known.get(card)
        if elsewhere is not None and elsewhere != holder:
            raise Contradiction(
                [self.number], detail=f"{self.me} knows card {card} is in {elsewhere}'s hand"
            )

    def check_mine(self, card: str) -> None:
        """`card` must be in my hand."""
        rnd = self.round
        if card not in rnd.my_hand:
            raise Contradiction(
                sorted({rnd.my_hand_event, self.number}),
                detail=f"{self.me}'s hand is {fmt(sorted(rnd.my_hand, key=self.order))}, without {card}",
            )

    def take_mine(self, card: str) -> None:
        self.check_mine(card)
        rnd = self.round
        rnd.my_hand.discard(card)
        rnd.my_hand_event = self.number

    def give_mine(self, card: str) -> None:
        rnd = self.round
        rnd.my_hand.add(card)
        rnd.got[card] = self.number
        rnd.my_hand_event = self.number
        rnd.known.pop(card, None)

    def unsure(self, holder: str) -> None:
        """A random card of `holder` left unseen: the cards I knew there may have gone."""
        known = self.round.known
        for card in [c for c, place in known.items() if place == holder]:
            del known[card]

    def order(self, card: str) -> int:
        return self.cards.names.index(card)

    def leave(self, holder: str, card: str) -> None:
        """A known card leaves `holder`'s hand (or the pile) for a place I see."""
        rnd = self.round
        if holder == self.me:
            self.take_mine(card)
        else:
            self.check_hidden(holder, card)
            self.step(Leave(self.number, holder, card))
            rnd.known.pop(card, None)
        self.shrink(holder)

    def shrink(self, holder: str) -> None:
        rnd = self.round
        if holder == PILE:
            rnd.pile -= 1
        else:
            rnd.hand_size[holder] -= 1

    def to_public(self, owner: str, card: str, points_to: str | None) -> None:
        """A card shown face up from `owner`'s hand: incriminating evidence stays in front of the
        owner (and scores for `points_to`); anything else is discarded."""
        rnd = self.round
        if card in rnd.incriminating:
            rnd.front[owner].append(card)
            if points_to is not None:
                self.log.scores[points_to] += 1
        else:
            rnd.discard.append(card)

    def move_hidden(self, giver: str, receiver: str, card: str | None) -> None:
        """A card goes from `giver`'s hand (or the pile) to `receiver`'s hand; `card` is what I
        saw of it (None: I did not see it)."""
        rnd = self.round
        if card is None:
            self.step(Hidden(self.number, giver, receiver))
            self.unsure(giver)
            self.shrink(giver)
        elif giver == self.me:
            self.take_mine(card)
            self.shrink(giver)
            self.step(Enter(self.number, receiver, card))
            rnd.known[card] = receiver
        else:
            self.leave(giver, card)
            if receiver == self.me:
                self.give_mine(card)
            else:  # a generic move of a card I see between two other hands
                self.step(Enter(self.number, receiver, card))
                rnd.known[card] = receiver
        rnd.hand_size[receiver] += 1

    # -- turns -----------------------------------------------------------------------------------

    def left_of(self, player: str) -> list[str]:
        """Every player in seat order, starting on `player`'s left and ending with `player`."""
        seats = self.log.players
        at = seats.index(player)
        return seats[at + 1 :] + seats[: at + 1]

    def actor(self, body: dict) -> str:
        rnd = self.playing()
        if body.get("by") is None:
            return rnd.turn
        by = self.player(body["by"])
        if by != rnd.turn:
            raise InputError(f"it is {rnd.turn}'s turn, not {by}'s")
        return by

    def draw(self, player: str, count: int) -> None:
        """`player` draws up to `count` cards from the pile (fewer when it runs out)."""
        rnd = self.round
        for _ in range(count):
            if rnd.pile == 0:
                return
            if player == self.me:
                if not self.drawn:
                    raise InputError(f"{self.me} draws here: list the cards in 'drew: [...]'")
                card = self.drawn.pop(0)
                self.leave(PILE, card)
                self.give_mine(card)
            else:
                self.step(Hidden(self.number, PILE, player))
                rnd.pile -= 1
            rnd.hand_size[player] += 1

    def end_turn(self, actor: str, revealed_before: int) -> None:
        """Refills, the detective card, and whose turn is next."""
        rnd = self.round
        if not rnd.final_turns:
            for player in self.left_of(actor)[:-1]:
                if rnd.hand_size[player] <= 1:
                    self.draw(player, self.log.deck.hand_size - rnd.hand_size[player])
            self.draw(actor, self.log.deck.hand_size - rnd.hand_size[actor])
            fourth = rnd.revealed() >= INCRIMINATING > revealed_before
            if rnd.pile == 0 or fourth:
                rnd.detective = actor
                rnd.final = self.left_of(actor)
        if self.drawn:
            raise InputError(
                f"'drew' lists {fmt(self.drawn)} but {self.me} draws no more cards in this turn"
            )
        if rnd.final_turns:
            if not rnd.final:
                rnd.over = True
                return
            rnd.turn = rnd.final.pop(0)
        else:
            rnd.turn = self.left_of(actor)[0]

    def target(self, actor: str, body: dict, action: str) -> str:
        if body.get("target") is None:
            raise InputError(f"{action} needs a 'target' (another player)")
        target = self.player(body["target"])
        if target == actor:
            raise InputError(f"{actor} cannot target themselves")
        rnd = self.round
        if action in HAND_ACTIONS:
            least = FINAL_TARGET_MIN if rnd.final_turns else 1
            if rnd.hand_size[target] < least:
                why = (
                    "in the final turns, a hand of 2 or fewer"
                    if rnd.final_turns
                    else "a hand with no card"
                )
                raise InputError(
                    f"{target} holds {rnd.hand_size[target]} card(s): {why} cannot be targeted by {action}"
                )
        return target

    def private(self, body: dict, key: str, seers: tuple[str, ...]) -> object:
        """A detail seen only by `seers`: required when I am one of them, refused otherwise."""
        value = body.get(key)
        if self.me in seers and value is None:
            raise InputError(f"{self.me} sees it: give '{key}'")
        if self.me not in seers and value is not None:
            raise InputError(
                f"'{key}' is seen by {' and '.join(seers)} only, and this log is {self.me}'s"
            )
        return value

    # -- events ----------------------------------------------------------------------------------

    def read(self) -> Log:
        read_events(self.doc, self.key, self.raw, EVENT_KINDS, self.read_event, HEADER)
        self.log.events = len(self.raw)
        return self.log

    def read_event(self, number: int, kind: str, event: dict) -> None:
        self.number = number
        body = event[kind]
        if not isinstance(body, dict):
            raise InputError(f"{kind} takes a mapping; see `sleuth new {GAME}`")
        if kind in ACTION_EVENTS:
            self.on_play(body, kind.upper())
        else:
            getattr(self, f"on_{kind}")(body)

    def on_deal(self, body: dict) -> None:
        log, deck = self.log, self.log.deck
        previous = log.round
        if previous is not None and not previous.over:
            raise InputError("a new round starts after the last final turn of the round before")
        numbers = self.card_list(body.get("incriminating"), "incriminating")
        if len(numbers) != INCRIMINATING or any(deck.card(c).number is None for c in numbers):
            raise InputError(f"incriminating lists the {INCRIMINATING} numbers the board shows")
        hand = self.card_list(body.get("hand"), "hand")
        if len(hand) != deck.hand_size:
            raise InputError(
                f"hand lists the {deck.hand_size} cards {self.me} was dealt, not {len(hand)}"
            )
        first = self.player(body.get("first", log.players[0]))
        opponents = [p for p in log.players if p != self.me]
        hidden = [c.name for c in self.used if c.name not in hand]
        pile = len(self.used) - deck.hand_size * len(log.players)
        if pile < 0:
            raise InputError(
                f"the deck has {len(self.used)} cards: too few to deal {len(log.players)} hands"
            )
        setup = Setup(opponents, deck.hand_size, pile, hidden, numbers)
        number = as_whole(
            body.get("round", len(log.rounds) + 1),
            "a deal's 'round': a whole number, 1 for the game's first round",
            low=1,
        )
        log.rounds.append(
            Round(
                number,
                self.number,
                setup,
                list(log.players),
                numbers,
                dict.fromkeys(log.players, deck.hand_size),
                pile,
                first,
                set(hand),
                self.number,
                {p: [] for p in log.players},
            )
        )

    def on_play(self, body: dict, alias: str | None = None) -> None:
        rnd = self.playing()
        actor = self.actor(body)
        if body.get("card") is None:
            raise InputError("say which card was played: 'card: N'")
        card = self.card(body["card"])
        if alias is not None and card.action != alias:
            raise InputError(f"card {card.name} is a {card.action} card, not {alias}")
        drew = body.get("drew")
        self.drawn = self.card_list(drew, "drew") if drew is not None else []
        revealed_before = rnd.revealed()
        if rnd.hand_size[actor] < 1:
            raise InputError(f"{actor} has no card to play")
        self.leave(actor, card.name)
        accused = body.get("accused", True)
        if not isinstance(accused, bool):
            raise InputError("'accused' is true or false")
        if card.name in rnd.incriminating and accused:
            rnd.front[actor].append(card.name)
            self.refuse(
                body,
                ("target", "revealed", "none", "polygraph", "took", "gave", "bought", "evidence"),
                "an accused incriminating card has no action",
            )
        else:
            rnd.discard.append(card.name)
            self.act(actor, card, body)
        self.end_turn(actor, revealed_before)

    def refuse(self, body: dict, keys: tuple[str, ...], why: str) -> None:
        extra = [k for k in keys if body.get(k) is not None]
        if extra:
            raise InputError(f"'{extra[0]}' does not apply: {why}")

    def blocks(self, actor: str, body: dict) -> list[str]:
        """The players who blocked, in order; their block cards go to the discard."""
        given = body.get("blocked")
        if given is None:
            return []
        if not self.log.blocking:
            raise InputError("'blocked' needs the blocking mode ('blocking: true' in the header)")
        if not isinstance(given, dict):
            raise InputError("blocked is a mapping of player to block card, e.g. {Ben: X1}")
        blockers = []
        for name, card_name in given.items():
            player = self.player(name)
            card = self.card(card_name)
            if player == actor:
                raise InputError(f"{actor} cannot block their own action")
            if not card.block:
                raise InputError(f"card {card.name} has no block symbol")
            if self.round.hand_size[player] < 1:
                raise InputError(f"{player} has no card to block with")
            self.leave(player, card.name)
            self.round.discard.append(card.name)
            blockers.append(player)
        return blockers

    def act(self, actor: str, card: Card, body: dict) -> None:
        rnd = self.round
        action = card.action
        blockers = self.blocks(actor, body)
        if action == "BUY":
            self.refuse(
                body,
                ("target", "revealed", "none", "polygraph", "took", "gave", "evidence"),
                "BUY has no target",
            )
            if rnd.pile == 0:
                raise InputError("BUY needs a card in the draw pile, and it is empty")
            bought = self.private(body, "bought", (actor,))
            self.move_hidden(PILE, actor, self.card(bought).name if bought is not None else None)
            return
        if action == "PASS" and not rnd.front[actor]:
            self.refuse(body, ("target", "evidence"), f"{actor} has no evidence in front to pass")
            return
        if body.get("target") is None and blockers:
            return  # every possible target blocked: the action is lost
        target = self.target(actor, body, action)
        if target in blockers:
            raise InputError(f"{target} blocked, so cannot be the target")
        getattr(self, f"do_{action.lower()}")(actor, target, card, body)

    def do_pass(self, actor: str, target: str, card: Card, body: dict) -> None:
        rnd = self.round
        if body.get("evidence") is None:
            raise InputError(
                f"say which evidence {actor} passed: 'evidence: N' ({fmt(rnd.front[actor])})"
            )
        evidence = self.card(body["evidence"]).name
        if evidence not in rnd.front[actor]:
            raise InputError(
                f"card {evidence} is not in front of {actor} ({fmt(rnd.front[actor])})"
            )
        rnd.front[actor].remove(evidence)
        rnd.front[target].append(evidence)

    def do_reveal(self, actor: str, target: str, card: Card, body: dict) -> None:
        if body.get("revealed") is None:
            raise InputError("say which card REVEAL showed: 'revealed: N'")
        shown = self.card(body["revealed"]).name
        self.leave(target, shown)
        self.to_public(target, shown, actor)

    def do_force(self, actor: str, target: str, card: Card, body: dict) -> None:
        rnd, log = self.round, self.log
        requirement = card.requires
        assert requirement is not None
        if body.get("revealed") is not None:
            self.refuse(body, ("none", "polygraph", "returned"), "the target revealed a card")
            shown = self.log.deck.card(self.card(body["revealed"]).name)
            if not requirement.met_by(shown):
                raise InputError(
                    f"card {shown.name} does not meet the requirement {requirement.text}"
                )
            if target == self.me:
                self.take_mine(shown.name)
            else:
                if log.deck.bluff_rate == 1:
                    raise Contradiction(
                        [self.number],
                        detail=f"{target} revealed a card, but bluff_rate is 1 (a player "
                        "holding a qualifying card always claims none)",
                    )
                self.check_hidden(target, shown.name)
                self.step(Force(self.number, target, requirement.text, shown.name))
                rnd.known.pop(shown.name, None)
            self.shrink(target)
            self.to_public(target, shown.name, actor)
            return
        if body.get("none") is not True:
            raise InputError("FORCE: give 'revealed: N', or 'none: true' with 'polygraph: N'")
        if body.get("polygraph") is None:
            raise InputError(
                "after a claim of none, give the card the polygraph revealed: 'polygraph: N'"
            )
        tested = self.log.deck.card(self.card(body["polygraph"]).name)
        held = rnd.hand_size[target]
        returned = self.private(body, "returned", (actor, target)) if held >= 2 else None
        if held < 2 and body.get("returned") is not None:
            raise InputError(f"{target} held one card: the polygraph returns nothing")
        if target != self.me:
            self.step(Force(self.number, target, requirement.text, None))
        self.leave(target, tested.name)
        if returned is not None:
            back = self.card(returned).name
            if back == tested.name:
                raise InputError("the returned card is the other card, not the one revealed")
            if target == self.me:
                self.check_mine(back)
            else:
                self.check_hidden(target, back)
                self.step(Isolate(self.number, target, back))
                rnd.known[back] = target
        if requirement.met_by(tested):
            if log.deck.bluff_rate == 0 and target != self.me:
                raise Contradiction(
                    [self.number],
                    detail=f"the polygraph caught {target} lying, but bluff_rate is 0 (a claim of none is never a lie)",
                )
            log.scores[target] -= 1
        self.to_public(target, tested.name, actor)

    def do_exchange(self, actor: str, target: str, card: Card, body: dict) -> None:
        if self.round.hand_size[actor] == 0:  # nothing left to give: the actor only takes
            self.refuse(body, ("gave",), f"{actor} has no card left to give")
            self.do_take(actor, target, card, body)
            return
        took = self.private(body, "took", (actor, target))
        gave = self.private(body, "gave", (actor, target))
        if took is None or gave is None:
            self.step(Swap(self.number, actor, target))
            self.unsure(actor)
            self.unsure(target)
            return
        taken, given = self.card(took).name, self.card(gave).name
        if taken == given:
            raise InputError(
                "the card given is one the actor held before taking (not the one taken)"
            )
        # The actor gives from the hand held before taking: that card leaves first.
        self.move_hidden(actor, target, given)
        self.move_hidden(target, actor, taken)

    def do_take(self, actor: str, target: str, card: Card, body: dict) -> None:
        took = self.private(body, "took", (actor, target))
        self.move_hidden(target, actor, self.card(took).name if took is not None else None)

    def on_skip(self, body: dict) -> None:
        rnd = self.playing()
        actor = self.actor(body)
        if not rnd.final_turns:
            raise InputError("only a final turn (after the detective card is taken) can be skipped")
        self.end_turn(actor, rnd.revealed())

    def on_end(self, body: dict) -> None:
        rnd = self.round
        if not rnd.over:
            raise InputError(f"the round is not over: it is {rnd.turn}'s turn")
        if rnd.ended:
            raise InputError("this round is already scored")
        kept: dict[str, list[str]] = {}
        for name, cards in body.items():
            player = self.player(name)
            kept[player] = self.card_list(cards or [], f"{player}'s kept evidence")
            for c in kept[player]:
                if c not in rnd.incriminating:
                    raise InputError(f"card {c} is not incriminating this round")
        if self.me not in kept:
            kept[self.me] = sorted(c for c in rnd.my_hand if c in rnd.incriminating)
        # Kept evidence is shown but stays in hand; the rest not face up is in the pile.
        for player, cards in kept.items():
            for c in cards:
                if player == self.me:
                    self.check_mine(c)
                else:  # an observation even when I knew it: `explain` may leave out how
                    self.check_hidden(player, c)
                    self.step(Isolate(self.number, player, c))
                    rnd.known[c] = player
        shown = {c for cards in kept.values() for c in cards}
        for c in rnd.incriminating:
            if c not in shown and self.public_place(c) is None:
                if c in rnd.my_hand:
                    raise Contradiction(
                        [rnd.got.get(c, rnd.deal_event), self.number], detail=f"{self.me} holds {c}"
                    )
                self.check_hidden(PILE, c)
                self.step(Leave(self.number, PILE, c))
                rnd.left_in_pile.append(c)
        for player in self.log.players:
            self.log.scores[player] += 2 * len(kept.get(player, [])) - len(rnd.front[player])
        rnd.ended = True

    def on_move(self, body: dict) -> None:
        rnd = self.round
        places = NameSet("place", [*self.log.players, PILE, DISCARD])
        source = places.resolve(body.get("from", ""))
        target = places.resolve(body.get("to", ""))
        if source == target:
            raise InputError("a move goes from one place to another")
        card = self.card(body["card"]).name if body.get("card") is not None else None
        if target == PILE:
            raise InputError("Sleuth does not track cards put back into the draw pile")
        if card is None:
            if DISCARD in (source, target) or self.me in (source, target):
                raise InputError(f"say which card moved: 'card: N' ({self.me} sees it)")
            self.move_hidden(source, target, None)
            return
        if source == DISCARD:
            if card not in rnd.discard:
                raise InputError(f"card {card} is not in the discard")
            rnd.discard.remove(card)
            if target == self.me:
                self.give_mine(card)
            else:
                self.step(Enter(self.number, target, card))
                rnd.known[card] = target
            rnd.hand_size[target] += 1
        elif target == DISCARD:
            self.leave(source, card)
            rnd.discard.append(card)
        else:
            self.move_hidden(source, target, card)

    def on_show(self, body: dict) -> None:
        player = self.player(body.get("player", ""))
        card = self.card(body.get("card", "")).name
        if player == self.me:
            self.check_mine(card)
            return
        self.check_hidden(player, card)
        self.step(Isolate(self.number, player, card))  # even when I knew it (see on_end)
        self.round.known[card] = player

    def on_fact(self, body: dict) -> None:
        player = self.player(body.get("player", ""))
        has = body.get("has")
        lacks = body.get("lacks")
        if (has is None) == (lacks is None):
            raise InputError("a fact says 'has: REQUIREMENT' or 'lacks: REQUIREMENT'")
        requirement = rules.requirement(has if has is not None else lacks)
        if player == self.me:
            deck = self.log.deck
            holds = any(requirement.met_by(deck.card(c)) for c in self.round.my_hand)
            if holds != (has is not None):
                raise Contradiction(
                    [self.round.my_hand_event, self.number],
                    detail=f"{self.me}'s hand {'lacks' if has is not None else 'has'} a card meeting {requirement.text}",
                )
            return
        self.step(Fact(self.number, player, requirement.text, has is not None))


def parse(doc: Document, upto: int | None = None, key: str | None = None) -> Log:
    return _Reader(doc, upto, key or doc.events_key).read()
