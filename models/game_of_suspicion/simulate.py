"""Game of Suspicion self-play: a truth-level engine that deals physical cards, plays rounds by the
rules of RULINGS.md §3, and writes the log from one seat together with the true hidden world after
every event.

Tests and benchmarks use `random_game` for random game prefixes with a known truth; the CLI uses
`play_round` for self-play statistics. Each player acts through a policy: a function from the log as
seen from their seat to an *intent* (an event without outcomes); the default is a random bot. Every
hidden choice an intent leaves open (the card given with a 0 or a 1, put down with an 8, which of
equally small cards goes face up with a 6) is uniform over the physical cards, as the probability
model of RULINGS.md §3 assumes, so simulated logs are draws from the model the filter computes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from models.game_of_suspicion import rules
from models.game_of_suspicion.log import GAME, SLOTS
from models.game_of_suspicion.rules import TEN, Deck

Policy = Callable[[dict], dict | None]
World = dict[str, tuple[int, ...]]
MAX_GUESSES = 3  # card 3: up to three guesses at one hand
NOBODY = "none"  # card 1's holder when no other player holds the named card


# -- the table -----------------------------------------------------------------------------------


@dataclass
class Table:
    """Everything physical about one round: the truth the log is written from."""

    players: list[str]
    me: str | None
    advanced: bool
    deck: Deck
    round_number: int
    hands: dict[str, list[int]]
    middle: dict[str, list[int]]  # slot -> its face-down card (empty after an 8 for `right`)
    shadow: list[int]
    aside: int | None
    turn: str  # whose turn it is
    face_up: dict[str, list[int]] = field(default_factory=dict)  # in front of each player
    played: dict[str, list[int]] = field(default_factory=dict)  # face up for their action
    out: dict[str, list[int]] = field(default_factory=dict)  # players out -> the hand shown
    scores: dict[str, int] = field(default_factory=dict)

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.out]

    @property
    def over(self) -> bool:
        """A round ends when one player is left."""
        return len(self.active) <= 1

    def others(self, actor: str) -> list[str]:
        return [p for p in self.active if p != actor]

    def next_player(self, actor: str) -> str:
        """The next active player to the left (seat order) of `actor`."""
        n = len(self.players)
        start = self.players.index(actor)
        seats = (self.players[(start + k) % n] for k in range(1, n + 1))
        return next(p for p in seats if p not in self.out)

    def places(self) -> list[str]:
        """The hidden places, in the order of the log reader's Setup."""
        return [p for p in self.players if p != self.me] + list(self.middle)

    def truth(self) -> World:
        """The true hidden world: each hidden place's sorted values."""
        where = {**self.hands, **self.middle}
        return {place: tuple(sorted(where[place])) for place in self.places()}

    def public(self) -> Counter:
        """Cards everyone sees: the shadow hand, the set-aside card, face-up cards, shown hands."""
        seen = Counter(self.shadow) + Counter([] if self.aside is None else [self.aside])
        for cards in [*self.face_up.values(), *self.out.values()]:
            seen.update(cards)
        return seen

    def unseen_by(self, player: str) -> list[int]:
        """The physical cards `player` cannot see now (other hands and the middle)."""
        unseen = self.deck.cards(self.advanced) - Counter(self.hands[player]) - self.public()
        return sorted(unseen.elements())


def deal_round(
    rng: random.Random,
    players: list[str],
    me: str | None,
    advanced: bool = False,
    deck: Deck | None = None,
    round_number: int = 1,
) -> Table:
    """Shuffle and deal a round: hands, the shadow hand with 3 players, the middle, and in the
    advanced game one card set aside; a random player starts."""
    deck = deck or rules.load_deck()
    cards = list(deck.cards(advanced).elements())
    rng.shuffle(cards)
    aside = cards.pop() if advanced else None

    def take(n: int) -> list[int]:
        dealt = cards[:n]
        del cards[:n]
        return dealt

    hands = {p: take(deck.hand_size) for p in players}
    shadow = take(deck.hand_size) if len(players) == 3 else []
    middle = {slot: take(1) for slot in SLOTS[: deck.middle]}
    short = any(len(h) < deck.hand_size for h in hands.values()) or not all(middle.values())
    if cards or short or len(shadow) < (deck.hand_size if len(players) == 3 else 0):
        raise ValueError("this deck does not deal out exactly for this many players")
    return Table(
        players=list(players),
        me=me,
        advanced=advanced,
        deck=deck,
        round_number=round_number,
        hands=hands,
        middle=middle,
        shadow=shadow,
        aside=aside,
        turn=rng.choice(players),
        face_up={p: [] for p in players},
        played={p: [] for p in players},
        scores=dict.fromkeys(players, 0),
    )


# -- events and the log from every seat ----------------------------------------------------------


@dataclass
class Event:
    """One log event: what everyone hears, and what single players see besides."""

    kind: str
    public: dict
    private: dict[str, dict] = field(default_factory=dict)

    def seen_by(self, seat: str | None) -> dict:
        body = dict(self.public)
        if seat is not None:
            body.update(self.private.get(seat, {}))
        return {self.kind: body}


def deal_event(table: Table) -> Event:
    """The deal: the face-up shadow hand and set-aside card for all, each hand for its holder."""
    public: dict = {}
    if table.shadow:
        public["shadow"] = sorted(table.shadow)
    if table.aside is not None:
        public["aside"] = table.aside
    return Event("deal", public, {p: {"hand": sorted(h)} for p, h in table.hands.items()})


class Record:
    """The log as each seat writes it (the logged seat and every seat with a policy), and the true
    world after every event."""

    def __init__(self, players: list[str], me: str | None, advanced: bool, seats: list[str]):
        self.header = {"game": GAME, "players": list(players), "advanced": advanced}
        self.seats: dict[str | None, list[dict]] = {seat: [] for seat in [me, *seats]}
        self.truths: list[World] = []

    def add(self, event: Event, table: Table) -> None:
        for seat, events in self.seats.items():
            events.append(event.seen_by(seat))
        self.truths.append(table.truth())

    def doc(self, seat: str | None) -> dict:
        """The log written from `seat` (no `me` key: public information only)."""
        me = {} if seat is None else {"me": seat}
        return {**self.header, **me, "events": list(self.seats[seat])}


# -- checking intents ----------------------------------------------------------------------------


def other_player(table: Table, actor: str, name: object) -> str:
    if name not in table.others(actor):
        raise ValueError(f"{name!r} is not another active player than {actor}")
    return str(name)


def legal_guess(table: Table, target: str, cards: object) -> list[int]:
    """A legal guess at `target`'s hand: as many numbers as cards (one more while the 10 may be
    there, named as 0 and 1: in the advanced game, unless it is face up), each a value 0-9."""
    if not isinstance(cards, list) or not all(isinstance(v, int) for v in cards):
        raise ValueError(f"a guess is a list of numbers, not {cards!r}")
    size = len(table.hands[target])
    ten_may_be_held = table.advanced and table.public()[TEN] == 0
    sizes = (size, size + 1) if ten_may_be_held else (size,)
    if len(cards) not in sizes or any(v not in range(TEN) for v in cards):
        raise ValueError(f"{target} holds {size} cards: a guess names {size} numbers 0-9")
    return sorted(cards)


def playable(table: Table, actor: str) -> list[int]:
    """The physical cards `actor` may play: not with one card in hand (except an 8 or a 9), no 7
    in the game's first round, a 0 only with two other players to exchange."""
    hand = table.hands[actor]
    return [
        card
        for card in hand
        if (len(hand) > 1 or card in (8, 9))
        and (card != 7 or table.round_number > 1)
        and (card != 0 or len(table.others(actor)) >= 2)
    ]


def check_play(table: Table, actor: str, body: dict) -> None:
    """Refuse a play intent the rules forbid, before anything moves."""
    card = body.get("card")
    if card not in playable(table, actor):
        raise ValueError(f"{actor} cannot play card {card!r} with hand {table.hands[actor]}")
    if card == 0:
        pair = body.get("between")
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError("card 0 takes 'between': two different other players")
        for name in pair:
            other_player(table, actor, name)
    if card == 1 and body.get("named") not in rules.NAMEABLE:
        raise ValueError("card 1 names a card 2-9")
    if card == 3:
        target = other_player(table, actor, body.get("target"))
        guesses = body.get("guesses")
        if not isinstance(guesses, list) or not 1 <= len(guesses) <= MAX_GUESSES:
            raise ValueError("card 3 takes 1-3 'guesses'")
        for numbers in guesses:
            legal_guess(table, target, numbers)


def in_hand(cards: list[int], wanted: object, what: str) -> int:
    """A card an intent names: it must be one of `cards`."""
    if not isinstance(wanted, int) or wanted not in cards:
        raise ValueError(f"cannot {what} a {wanted!r}: the hand is {sorted(cards)}")
    return wanted


def chosen(rng: random.Random, cards: list[int], wanted: object, what: str) -> int:
    """A player's hidden choice among physical `cards`: the intent's, else uniform."""
    return rng.choice(cards) if wanted is None else in_hand(cards, wanted, what)


# -- the actions -----------------------------------------------------------------------------------


def look(table: Table, actor: str, slot: object, put_back: object) -> Event:
    """Action A: take the slot's card, put back it or a hand card; "exchanged" exactly when the
    value put back differs from the value taken."""
    hand = table.hands[actor]
    if not isinstance(slot, str) or not table.middle.get(slot) or not hand:
        raise ValueError(f"{actor} cannot look at middle slot {slot!r}")
    taken = table.middle[slot][0]
    back = taken if put_back in (None, taken) else in_hand(hand, put_back, "put back")
    if back != taken:
        hand.remove(back)
        hand.append(taken)
        table.middle[slot] = [back]
    public = {"by": actor, "slot": slot, "exchanged": back != taken}
    return Event("look", public, {actor: {"saw": taken, "put_back": back}})


def play(table: Table, rng: random.Random, actor: str, body: dict) -> Event:
    """Action B: the card goes face up in front of the actor, then its action is done."""
    check_play(table, actor, body)
    card = body["card"]
    table.hands[actor].remove(card)
    table.face_up[actor].append(card)
    table.played[actor].append(card)
    event = Event("play", {"by": actor, "card": card})
    action = ACTIONS.get(card)
    if action is not None:
        action(table, rng, actor, body, event)
    return event


def eliminate(table: Table, player: str, scorer: str) -> None:
    """The player's hand is shown and they are out; the scorer gets a point per card."""
    table.out[player] = sorted(table.hands[player])
    table.scores[scorer] += len(table.hands[player])
    table.hands[player] = []


def is_right(table: Table, target: str, numbers: list[int]) -> bool:
    return Counter(numbers) == rules.guess_numbers(table.hands[target])


def guess(table: Table, actor: str, target: object, cards: object) -> Event:
    """Action C: a guess at another player's whole hand; a right one puts them out."""
    target = other_player(table, actor, target)
    numbers = legal_guess(table, target, cards)
    correct = is_right(table, target, numbers)
    if correct:
        eliminate(table, target, actor)
    public = {"by": actor, "target": target, "cards": numbers, "correct": correct}
    return Event("guess", public)


def card_0(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """Two other players each give the other a card of their own choice, at once (a player with
    one card is not affected, so nothing changes hands, unless `card0_one_card: exchanges`)."""
    first, second = body["between"]
    event.public["between"] = [first, second]
    a, b = table.hands[first], table.hands[second]
    fewest = 2 if table.deck.option("card0_one_card") == "unaffected" else 1
    if len(a) < fewest or len(b) < fewest:
        return
    from_a, from_b = rng.choice(a), rng.choice(b)
    a.remove(from_a)
    b.remove(from_b)
    a.append(from_b)
    b.append(from_a)
    event.private[first] = {"gave": from_a, "got": from_b}
    event.private[second] = {"gave": from_b, "got": from_a}


def card_1(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """The holder of the named card gives it to the actor, who gives any card back (a holder
    with one card keeps it)."""
    named = body["named"]
    holder = next((p for p in table.others(actor) if named in table.hands[p]), None)
    event.public.update(named=named, holder=holder or NOBODY)
    if holder is None or len(table.hands[holder]) < 2:
        return
    table.hands[holder].remove(named)
    table.hands[actor].append(named)
    back = chosen(rng, table.hands[actor], body.get("gave"), "give back")
    table.hands[actor].remove(back)
    table.hands[holder].append(back)
    event.private[actor] = {"gave": back}
    event.private[holder] = {"got": back}


def card_2(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """Every other player whose hand sums to more than 10 shows it to the actor alone."""
    showed = [
        p
        for p in table.others(actor)
        if sum(rules.points(v) for v in table.hands[p]) > rules.SUM_SHOWN_ABOVE
    ]
    event.public["showed"] = showed
    if showed:
        event.private[actor] = {"hands": {p: sorted(table.hands[p]) for p in showed}}


def card_3(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """Up to three guesses at one hand, stopping at a right one."""
    target = body["target"]
    made: list[list[int]] = []
    for numbers in body["guesses"]:
        made.append(sorted(numbers))
        if is_right(table, target, made[-1]):
            break
    correct = is_right(table, target, made[-1])
    event.public.update(target=target, guesses=made, correct=correct)
    if correct:
        eliminate(table, target, actor)


def show_some(table: Table, actor: str, values: frozenset[int], event: Event) -> None:
    """Cards 4 and 5: everyone shows the actor their cards among `values`; the counts are public."""
    shown = {p: sorted(v for v in table.hands[p] if v in values) for p in table.others(actor)}
    event.public["shown"] = {p: len(cards) for p, cards in shown.items()}
    event.private[actor] = {"shown": shown}


def card_4(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    show_some(table, actor, rules.GREATER_THAN_FOUR, event)


def card_5(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    show_some(table, actor, rules.EVEN_NONZERO, event)


def card_6(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """Every other player with two or more cards puts a smallest card face up (the 10 ranks as a
    0; between equally small cards the holder chooses)."""
    face_up = {}
    for player in table.others(actor):
        hand = table.hands[player]
        if len(hand) < 2:
            continue
        ten_rank = table.deck.option("card6_ten_rank")
        low = min(rules.rank(v, ten_rank) for v in hand)
        card = rng.choice([v for v in hand if rules.rank(v, ten_rank) == low])
        hand.remove(card)
        table.face_up[player].append(card)
        face_up[player] = card
    event.public["face_up"] = face_up


def card_7(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """Every other player with exactly two 0s (the 10 counts as one) is out; the actor scores."""
    out = {
        p: sorted(table.hands[p]) for p in table.others(actor) if rules.zeros(table.hands[p]) == 2
    }
    for player in out:
        eliminate(table, player, actor)
    event.public["out"] = out


def card_8(table: Table, rng: random.Random, actor: str, body: dict, event: Event) -> None:
    """The actor takes back the cards they played (the 8 included) and the middle cards, then
    puts one card face down in the left slot."""
    hand = table.hands[actor]
    for card in table.played[actor]:
        table.face_up[actor].remove(card)
        hand.append(card)
    table.played[actor] = []
    saw = [cards[0] for cards in table.middle.values() if cards]
    hand.extend(saw)
    put = chosen(rng, hand, body.get("put"), "put down")
    hand.remove(put)
    table.middle = {slot: [] for slot in table.middle}
    table.middle[SLOTS[0]] = [put]
    event.private[actor] = {"saw": saw, "put": put}


Action = Callable[[Table, random.Random, str, dict, Event], None]
ACTIONS: dict[int, Action] = {
    0: card_0,
    1: card_1,
    2: card_2,
    3: card_3,
    4: card_4,
    5: card_5,
    6: card_6,
    7: card_7,
    8: card_8,
}  # 9 and 10: nothing


def execute(table: Table, rng: random.Random, actor: str, intent: object) -> Event:
    """Carry out an intent event by the rules; ValueError if the rules forbid it."""
    if not isinstance(intent, dict) or len(intent) != 1:
        raise ValueError(f"an intent is one event: look, play or guess, not {intent!r}")
    kind, body = next(iter(intent.items()))
    if not isinstance(body, dict):
        raise ValueError(f"the intent's {kind} takes a mapping")
    if kind == "look":
        return look(table, actor, body.get("slot"), body.get("put_back"))
    if kind == "play":
        return play(table, rng, actor, body)
    if kind == "guess":
        return guess(table, actor, body.get("target"), body.get("cards"))
    raise ValueError(f"unknown intent {kind!r}: look, play or guess")


# -- the random bot --------------------------------------------------------------------------------


def random_numbers(table: Table, rng: random.Random, actor: str, target: str) -> list[int]:
    """A guess drawn from the cards the guesser cannot see (a 10 drawn is named as 0 and 1)."""
    cards = rng.sample(table.unseen_by(actor), len(table.hands[target]))
    return sorted(rules.guess_numbers(cards).elements())


def random_look(table: Table, rng: random.Random, actor: str) -> dict:
    """Look at a random middle card; keep it or exchange it for a random hand card."""
    slot = rng.choice([s for s, cards in table.middle.items() if cards])
    put_back = rng.choice(table.hands[actor]) if rng.random() < 0.5 else None
    return {"look": {"slot": slot, "put_back": put_back}}


def random_play(table: Table, rng: random.Random, actor: str) -> dict:
    """Play a random playable card with random targets."""
    card = rng.choice(playable(table, actor))
    body: dict = {"card": card}
    others = table.others(actor)
    if card == 0:
        body["between"] = rng.sample(others, 2)
    elif card == 1:  # a value 2-9 of this deck
        deck = table.deck.cards(table.advanced)
        body["named"] = rng.choice([v for v in rules.NAMEABLE if v in deck])
    elif card == 3:
        body["target"] = target = rng.choice(others)
        tries = rng.randint(1, MAX_GUESSES)
        body["guesses"] = [random_numbers(table, rng, actor, target) for _ in range(tries)]
    return {"play": body}


def random_guess(table: Table, rng: random.Random, actor: str) -> dict:
    target = rng.choice(table.others(actor))
    return {"guess": {"target": target, "cards": random_numbers(table, rng, actor, target)}}


def random_intent(table: Table, rng: random.Random, actor: str) -> dict:
    """The random bot: a uniformly random legal kind of action (A look, B play, C guess)."""
    kinds = [random_guess]
    if table.hands[actor] and any(table.middle.values()):
        kinds.append(random_look)
    if playable(table, actor):
        kinds.append(random_play)
    return rng.choice(kinds)(table, rng, actor)


# -- turns, games and rounds -----------------------------------------------------------------------


def turn(
    table: Table, rng: random.Random, actor: str, ask: Callable[[], dict | None]
) -> Iterator[Event]:
    """One player's turn: an action; after a right guess (action C) more guesses while the
    player's policy asks for them (the random bot stops)."""
    event = execute(table, rng, actor, ask() or random_intent(table, rng, actor))
    yield event
    while event.kind == "guess" and event.public["correct"] and not table.over:
        intent = ask()
        if not intent or "guess" not in intent:
            return
        event = execute(table, rng, actor, intent)
        yield event


def play_turn(
    table: Table, rng: random.Random, record: Record, policies: Mapping[str, Policy], limit: int
) -> None:
    """Play the turn of whoever's turn it is, recording events up to `limit` in all."""
    actor = table.turn
    policy = policies.get(actor)

    def ask() -> dict | None:
        return policy(record.doc(actor)) if policy else None

    for event in turn(table, rng, actor, ask):
        record.add(event, table)
        if len(record.truths) >= limit:
            break
    if not table.over:
        table.turn = table.next_player(actor)


def lucky_round(
    rng: random.Random,
    players: list[str],
    record: Record,
    table_args: dict,
    scores: dict,
    starter: str | None = None,
) -> str:
    """An earlier round its starting player (`starter`, the survivor of the round before; at
    random in the first) wins at once by right guesses: a true history that makes the log's
    round count (card 7 is not playable in round 1) what the caller asks for. Returns the
    survivor, who starts the next round."""
    table = deal_round(rng, players, **table_args)
    table.scores = scores
    table.turn = starter or table.turn
    record.add(deal_event(table), table)
    winner = table.turn
    for target in table.others(winner):
        numbers = sorted(rules.guess_numbers(table.hands[target]).elements())
        record.add(guess(table, winner, target, numbers), table)
    return winner


def start_round(
    rng: random.Random,
    players: list[str],
    record: Record,
    me: str | None,
    advanced: bool,
    deck: Deck,
    round_number: int,
) -> Table:
    """Deal round `round_number`, after lucky earlier rounds in the log; the deal is recorded."""
    scores = dict.fromkeys(players, 0)
    starter = None
    for number in range(1, round_number):
        args = {"me": me, "advanced": advanced, "deck": deck, "round_number": number}
        starter = lucky_round(rng, players, record, args, scores, starter)
    table = deal_round(rng, players, me, advanced, deck, round_number)
    table.scores = scores
    table.turn = starter or table.turn
    record.add(deal_event(table), table)
    return table


def names(players: int) -> list[str]:
    if players not in (3, 4):
        raise ValueError("Game of Suspicion is for 3 or 4 players")
    return [f"P{i}" for i in range(1, players + 1)]


def random_game(
    rng: random.Random,
    players: int = 4,
    me: str | None = "P1",
    advanced: bool = False,
    events: int = 30,
    deck: Deck | None = None,
    policies: Mapping[str, Policy] | None = None,
    round_number: int = 1,
) -> tuple[dict, list[World]]:
    """A round played from its deal for up to `events` events (the deal included) or until one
    player is left, logged from `me`'s seat; with the true hidden world after each event.

    For `round_number` > 1 the log first holds lucky earlier rounds (`lucky_round`), so that its
    reader counts the rounds right; their events and truths come first and do not count in
    `events`."""
    seats, deck, policies = names(players), deck or rules.load_deck(), policies or {}
    record = Record(seats, me, advanced, list(policies))
    table = start_round(rng, seats, record, me, advanced, deck, round_number)
    limit = len(record.truths) - 1 + events
    while not table.over and len(record.truths) < limit:
        play_turn(table, rng, record, policies, limit)
    return record.doc(me), record.truths


@dataclass
class RoundResult:
    winner: str | None  # None: unfinished after max_turns
    scores: dict[str, int]  # points scored in this round
    turns: int


def play_round(
    rng: random.Random,
    players: int,
    policies: Mapping[str, Policy],
    advanced: bool = False,
    max_turns: int = 200,
    round_number: int = 2,
    deck: Deck | None = None,
) -> RoundResult:
    """Self-play of one round (random bots for players without a policy)."""
    seats, deck = names(players), deck or rules.load_deck()
    record = Record(seats, None, advanced, list(policies))
    table = start_round(rng, seats, record, None, advanced, deck, round_number)
    before = dict(table.scores)
    turns = 0
    while not table.over and turns < max_turns:
        play_turn(table, rng, record, policies, limit=10**9)
        turns += 1
    points = {p: table.scores[p] - before[p] for p in seats}
    return RoundResult(table.active[0] if table.over else None, points, turns)
