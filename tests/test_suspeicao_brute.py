"""The Suspeição brute force itself (`suspeicao_brute`), before anything is checked against it:
hand-computed posteriors on reduced decks, the probability model's weights (the chances of every
possible outcome of an event add up to one), hand-written logs that use every action, random
games whose true hidden world must stay possible after every event, and the errors."""

from __future__ import annotations

import contextlib
import itertools
import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
import yaml
from suspeicao_brute import (
    BadLog,
    Brute,
    Contradiction,
    TooManyDeals,
    brute_force,
    holds,
    incriminating,
    places_of,
    whole,
)

from models.suspeicao.rules import load_deck

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "X1", "X2"]  # the small deck
ANA = {"game": "suspeicao", "players": ["Ana", "Ben", "Cleo"], "me": "Ana", "deck": SMALL}


@pytest.fixture(scope="module")
def hand3(tmp_path_factory) -> str:
    """The small deck with hands of 3 (a target keeps two cards after losing one)."""
    data = yaml.safe_load(Path(SMALL).read_text())
    data["hand_size"] = 3
    path = tmp_path_factory.mktemp("deck") / "suspeicao-hand3.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def log(*events: dict, **header) -> dict:
    return {**ANA, **header, "events": list(events)}


def deal(hand: list, incriminating: list, first: str = "Ana") -> dict:
    return {"deal": {"incriminating": incriminating, "hand": hand, "first": first}}


def only_world(post: dict) -> tuple:
    assert len(post) == 1, post
    ((world, p),) = post.items()
    assert p == 1
    return world


def world(*places: list) -> tuple:
    return tuple(frozenset(str(c) for c in cards) for cards in places)


# -- hand-computed posteriors -----------------------------------------------------------------------


def test_right_after_the_deal_every_unseen_card_is_anywhere_uniformly():
    post = brute_force(log(deal([2, 4], [1, 4, 7, 9])))
    assert len(post) == comb(10, 2) * comb(8, 2)  # every physical deal of the 10 unseen cards
    assert set(post.values()) == {Fraction(1, 1260)}
    assert post.places == ("Ben", "Cleo", "pile")
    assert incriminating(post) == {
        c: {"Ben": Fraction(2, 10), "Cleo": Fraction(2, 10), "pile": Fraction(6, 10)}
        for c in ("1", "7", "9")  # 4 is mine: not hidden
    }
    # five odd cards among the ten unseen: Ben holds none of them in C(5,2) of C(10,2) hands
    assert holds(post, "odd") == {"Ben": Fraction(7, 9), "Cleo": Fraction(7, 9)}
    some = 1 - Fraction(comb(5, 2), comb(10, 2))  # five of the unseen cards are 6-10 too
    assert holds(post, "6-10") == {"Ben": some, "Cleo": some}


def test_four_players_right_after_the_deal():
    data = log(deal([5, 4], [6, 7, 9, 10]), players=["Ana", "Ben", "Cleo", "Dan"])
    post = brute_force(data)
    den, weights = whole(post)  # (a sum of 18900 Fractions is slow)
    assert sum(weights.values()) == den and len(post) == 18900
    assert incriminating(post)["6"] == {
        "Ben": Fraction(1, 5),
        "Cleo": Fraction(1, 5),
        "Dan": Fraction(1, 5),
        "pile": Fraction(2, 5),
    }


def test_a_revealed_card_is_gone_and_the_rest_stay_exchangeable():
    # my REVEAL shows Ben's 3; Ben (one card left) draws first, then I draw the 8: the eight cards
    # never named are still spread uniformly over Ben's 2, Cleo's 2 and the pile's 4 places
    post = brute_force(
        log(
            deal([2, 6], [1, 4, 7, 9]),
            {"play": {"card": 2, "target": "Ben", "revealed": 3, "drew": [8]}},
        )
    )
    assert sum(post.values()) == 1
    assert all("3" not in place for w in post for place in w)
    assert "3" not in places_of(post) and "8" not in places_of(post)
    quarter, half = Fraction(1, 4), Fraction(1, 2)
    assert incriminating(post) == {
        c: {"Ben": quarter, "Cleo": quarter, "pile": half} for c in "1479"
    }


def test_an_incriminating_card_i_give_is_known_to_be_there():
    data = log(
        deal([3, 7], [2, 7, 9, 10]),
        {"play": {"card": 3, "target": "Ben", "took": 5, "gave": 7, "drew": [1]}},
    )
    post = brute_force(data)
    assert incriminating(post)["7"] == {"Ben": 1}
    assert "5" not in places_of(post)  # now mine
    # Ben's other card: any of the eight cards never named, uniformly
    assert places_of(post)["9"] == {
        "Ben": Fraction(1, 8),
        "Cleo": Fraction(2, 8),
        "pile": Fraction(5, 8),
    }


def test_a_take_from_me_is_in_the_takers_hand():
    data = log(
        deal([2, 9], [2, 4, 8, 10], first="Ben"),
        {"take": {"by": "Ben", "card": 5, "target": "Ana", "took": 2, "drew": [10]}},
    )
    post = brute_force(data)
    assert incriminating(post)["2"] == {"Ben": 1}
    assert "10" not in incriminating(post)  # I drew it
    assert all("5" not in place for w in post for place in w)  # Ben played it


def force_on_cleo(bluff: object, deck: str, polygraph: object = 7, returned: object = "X1") -> dict:
    """Hands of 3: I FORCE (1-5) Cleo, who claims none; the polygraph shows 7, X1 goes back; I
    draw the 8. Cleo's third card u is one of 1 3 5 9 10 X2 (three meet 1-5): each is equally
    likely a priori, and a claim by a holder of a 1-5 card has the chance `bluff`."""
    return log(
        deal([4, 6, 2], [7, 8, 9, 10]),
        {
            "force": {
                "card": 4,
                "target": "Cleo",
                "none": True,
                "polygraph": polygraph,
                "returned": returned,
                "drew": [8],
            }
        },
        deck=deck,
        options={"bluff_rate": bluff},
    )


@pytest.mark.parametrize(
    ("bluff", "cleo_holds"),
    [
        (0, Fraction(0)),  # a claim of none is the truth
        (1, Fraction(3, 6)),  # a claim says nothing: u is uniform over the six
        ("1/5", Fraction(3, 5) / (Fraction(3, 5) + 3)),  # odds 3b : 3 (b = 1/5): 1/6
    ],
)
def test_a_claim_of_none_weighs_by_the_bluff_rate(hand3, bluff, cleo_holds):
    post = brute_force(force_on_cleo(bluff, hand3))
    assert sum(post.values()) == 1
    assert holds(post, "1-5")["Cleo"] == cleo_holds
    assert all("X1" in w[1] and "7" not in w[1] for w in post)
    if bluff == 0:  # Ben's 3 cards and the pile's 2 are the other five: Ben must hold 1, 3 or 5
        assert holds(post, "1-5")["Ben"] == 1


def test_a_lie_caught_with_bluff_rate_zero_is_a_contradiction(hand3):
    with pytest.raises(Contradiction, match="event 2"):
        brute_force(force_on_cleo(0, hand3, polygraph=1, returned="X1"))
    with pytest.raises(Contradiction):  # the card that went back meets 1-5: Cleo held one
        brute_force(force_on_cleo(0, hand3, polygraph=7, returned=3))
    assert brute_force(force_on_cleo("1/5", hand3, polygraph=1, returned="X1"))  # a bluff


@pytest.mark.parametrize(
    ("bluff", "cleo_holds"),
    [(0, Fraction(0)), (1, Fraction(15, 21)), ("1/5", Fraction(3, 9))],
)
def test_a_bystander_sees_a_claim_and_one_polygraph_card(hand3, bluff, cleo_holds):
    # Ben FORCEs (1-5) Cleo, who claims none; the polygraph shows 7. Cleo's other two cards are a
    # pair of 1 3 5 8 10 X1 X2: 15 of the 21 pairs hold a 1-5 card, and a claim by such a holder
    # has the chance b (15b : 6); the polygraph shows each of Cleo's three cards with chance 1/3
    data = log(
        deal([2, 6, 9], [7, 8, 9, 10], first="Ben"),
        {"play": {"by": "Ben", "card": 4, "target": "Cleo", "none": True, "polygraph": 7}},
        deck=hand3,
        options={"bluff_rate": bluff},
    )
    post = brute_force(data)
    assert holds(post, "1-5")["Cleo"] == cleo_holds


@pytest.mark.parametrize(
    ("force_reveal", "holds_2_or_5", "holds_1"),
    [("uniform", Fraction(5, 13), None), ("protect", Fraction(0), Fraction(1, 4))],
)
def test_which_qualifying_card_a_target_shows(hand3, force_reveal, holds_2_or_5, holds_1):
    # Ben FORCEs (1-5) Cleo, who shows the 3 (incriminating). Cleo's other two cards are a pair of
    # 1 2 5 7 8 X1 X2 (1 2 5 meet 1-5; 1 is incriminating). uniform: a pair weighs 1/q, q the
    # qualifying cards of the hand (pairs: 6 with none, 12 with one, 3 with two: 6 + 6 + 1 = 13);
    # protect: a holder of 2 or 5 would have shown it, and the rest weigh 1/q again.
    data = log(
        deal([6, 9, 10], [1, 3, 7, 8], first="Ben"),
        {"play": {"by": "Ben", "card": 4, "target": "Cleo", "revealed": 3}},
        deck=hand3,
        options={"force_reveal": force_reveal},
    )
    post = brute_force(data)
    assert sum(p for w, p in post.items() if w[1] & {"2", "5"}) == holds_2_or_5
    if holds_1 is not None:
        assert sum(p for w, p in post.items() if "1" in w[1]) == holds_1
    assert "3" not in places_of(post)  # in front of Cleo


# -- the chances of all the outcomes of an event add up to one ---------------------------------------


def outcomes_total(data: dict, outcomes: list[dict]) -> Fraction:
    """The probability of the log's events (given the public choices), summed over each outcome of
    one more event, divided by the probability without it."""
    base = Brute(data)
    base.run()
    total = Fraction(0)
    for event in outcomes:
        fork = base.fork()
        with contextlib.suppress(Contradiction):
            fork.read(event)
            total += fork.evidence()
    return total / base.evidence()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"bluff_rate": 0},
        {"bluff_rate": 1},
        {"force_reveal": "protect"},
        {"bluff_rate": "1/3", "force_reveal": "protect"},
    ],
)
def test_every_answer_to_a_force_between_others(options):
    # Ben plays the 4 (FORCE 1-5) on Cleo: he holds it with chance 2/10; Cleo shows a card or
    # claims none and the polygraph shows one; the refills after it are hidden
    data = log(deal([1, 6], [2, 3, 5, 7], first="Ben"), options=options)
    play = {"by": "Ben", "card": 4, "target": "Cleo"}
    outcomes = [{"play": {**play, "revealed": c}} for c in NAMES]
    outcomes += [{"play": {**play, "none": True, "polygraph": c}} for c in NAMES]
    assert outcomes_total(data, outcomes) == Fraction(2, 10)


def test_every_answer_to_my_force_in_a_final_turn(hand3):
    # hands of 3; Ben and Cleo swap unseen cards and the pile runs out at my BUY, then in my final
    # turn I FORCE (1-5) Cleo, who holds three cards: no one draws after it
    data = log(
        deal([6, 4, 2], [7, 8, 9, 10], first="Ben"),
        {"play": {"by": "Ben", "card": 3, "target": "Cleo"}},
        {"play": {"by": "Cleo", "card": "X1", "target": "Ben"}},
        {"play": {"card": 6, "bought": 5}},
        {"skip": {"by": "Ben"}},
        {"skip": {"by": "Cleo"}},
        deck=hand3,
    )
    play = {"card": 4, "target": "Cleo"}
    outcomes = [{"play": {**play, "revealed": c}} for c in NAMES]
    outcomes += [  # which of the two I reveal is my choice: one order each
        {"play": {**play, "none": True, "polygraph": a, "returned": b}}
        for a, b in itertools.combinations(NAMES, 2)
    ]
    assert outcomes_total(data, outcomes) == 1


def test_every_polygraph_on_me_and_my_draw():
    data = log(deal([1, 3], [2, 7, 8, 10], first="Cleo"))
    play = {"by": "Cleo", "card": 4, "target": "Ana", "none": True}  # my claim: my choice
    outcomes = [
        {"play": {**play, "polygraph": a, "returned": b, "drew": [d]}}
        for a, b in (("1", "3"), ("3", "1"))
        for d in NAMES
    ]
    assert outcomes_total(data, outcomes) == Fraction(2, 10)  # Cleo holds the 4


BEN = Fraction(2, 10)  # the chance that Ben holds a given card I do not


@pytest.mark.parametrize(
    ("hand", "play", "keys", "held"),
    [
        # hands of 3 (Ben keeps two cards: no one-card rule), else the small deck
        ([2, 3, 1], {"card": 2, "target": "Ben"}, ("revealed", "drew"), 1),
        ([3, 2, 1], {"card": 3, "target": "Ben", "gave": 2}, ("took", "drew"), 1),
        ([6, 1], {"card": 6}, ("bought",), 1),
        ([1, 2], {"by": "Ben", "card": 9, "target": "Cleo"}, ("revealed",), BEN),
        ([1, 2], {"by": "Ben", "card": 9, "target": "Ana"}, ("revealed", "drew"), BEN),
        ([1, 2], {"by": "Ben", "card": "X1", "target": "Ana"}, ("took", "gave"), BEN),
        ([1, 2], {"by": "Ben", "card": 5, "target": "Ana"}, ("took", "drew"), BEN),
        ([1, 2], {"by": "Ben", "card": 5, "target": "Cleo"}, (), BEN),
        ([1, 2], {"by": "Ben", "card": 3, "target": "Cleo"}, (), BEN),
        ([1, 2], {"by": "Ben", "card": 6}, (), BEN),
    ],
)
def test_every_outcome_of_the_other_actions(hand3, hand, play, keys, held):
    # an outcome gives a card for each key; `held`: the chance that the actor holds the card
    first = play.get("by", "Ana")
    deck = hand3 if len(hand) == 3 else SMALL
    data = log(deal(hand, [4, 7, 8, 10], first=first), deck=deck)
    outcomes = [
        {
            "play": {
                **play,
                **{k: ([c] if k == "drew" else c) for k, c in zip(keys, cards, strict=True)},
            }
        }
        for cards in itertools.product(NAMES, repeat=len(keys))
    ]
    assert outcomes_total(data, outcomes) == held


# -- hand-written logs that use every action ---------------------------------------------------------

# The true deal of each log is in its comment: every log is a game that could have happened.

# Ana 9 3 | Ben 1 10 | Cleo 5 2 | pile 4 6 7 8 X1 X2
REVEAL_FORCE_EXCHANGE_PASS = log(
    deal([9, 3], [2, 4, 8, 10]),
    {"play": {"card": 9, "target": "Ben", "revealed": 10, "drew": [8]}},  # Ben draws 6
    {"play": {"by": "Ben", "card": 1, "target": "Cleo", "revealed": 5}},  # Cleo 7, Ben X1
    {"play": {"by": "Cleo", "card": 2}},  # accused; Cleo draws 4
    {"play": {"card": 3, "target": "Ben", "took": "X1", "gave": 8, "drew": ["X2"]}},
    {"skip": {"by": "Ben"}},  # the pile is empty: final turns from Ben, Ana last
    {"pass": {"by": "Cleo", "card": 7, "target": "Ben", "evidence": 2}},
    {"skip": {"by": "Ana"}},
    {"end": {"Ben": [8], "Cleo": [4]}},
)

# Ana 1 6 | Ben X1 3 | Cleo 5 X2 | pile 2 4 7 8 9 10
BLOCK_BLUFF_TAKE_BUY = log(
    deal([1, 6], [2, 4, 8, 10]),
    {
        "force": {
            "card": 1,
            "blocked": {"Ben": "X1"},
            "target": "Cleo",
            "none": True,  # a bluff: Cleo holds the 5 (odd)
            "polygraph": "X2",
            "returned": 5,
            "drew": [7],  # Ben draws 9 and Cleo 2 first (one card each)
        }
    },
    {"exchange": {"by": "Ben", "card": 3, "target": "Cleo"}},  # takes 2, gives 9; draws 10
    {"take": {"by": "Cleo", "card": 5, "target": "Ana", "took": 7, "drew": [4]}},
    {"buy": {"card": 6, "bought": 8}},  # the last card: final turns
    {"skip": {"by": "Ben"}},
    {"pass": {"by": "Cleo", "card": 7}},  # nothing in front of Cleo: a wasted play
    {"skip": {}},
    {"end": {"Ana": [4, 8], "Ben": [2, 10]}},
    blocking=True,
)

# Ana 2 6 | Ben 3 1 | Cleo 5 4 | pile 7 8 9 10 X1 X2
EXCHANGE_ON_ME_UNNOTICED = log(
    deal([2, 6], [7, 8, 9, 10], first="Ben"),
    {"play": {"by": "Ben", "card": 3, "target": "Ana", "took": 6, "gave": 1}},  # Ben draws X1
    {"play": {"by": "Cleo", "card": 5, "target": "Ben"}},  # takes the 6; Ben draws 9
    {
        "play": {
            "card": 1,
            "target": "Cleo",
            "none": True,
            "polygraph": 4,
            "returned": 6,
            "drew": [10],
        }
    },
    {"play": {"by": "Ben", "card": 9, "accused": False, "target": "Cleo", "revealed": 6}},
    {"skip": {"by": "Cleo"}},  # Cleo drew 7 and 8, Ben X2: the pile is empty
    {"skip": {"by": "Ana"}},
    {"skip": {"by": "Ben"}},
    {"end": {"Cleo": [7, 8], "Ana": [10]}},
)

# Ana 2 8 | Ben 1 3 | Cleo 9 4 | pile 5 6 7 10 X1 X2
FORCES_AND_AN_EMPTY_PILE = log(
    deal([2, 8], [5, 6, 7, 10]),
    {"play": {"card": 2, "target": "Ben", "revealed": 1, "drew": [6]}},  # Ben draws 5
    {"play": {"by": "Ben", "card": 3, "target": "Cleo"}},  # takes 9, gives 5; draws 7
    {"play": {"by": "Cleo", "card": 4, "target": "Ben", "none": True, "polygraph": 9}},
    # Ben drew 10, Cleo X1; the pile holds X2 only: Cleo (one card) draws it, I draw nothing
    {"play": {"card": 8, "target": "Cleo", "none": True, "polygraph": 5, "returned": "X1"}},
    {"play": {"by": "Ben", "card": 7}},  # a final turn: accused
    {"skip": {"by": "Cleo"}},
    {"play": {"card": 6}},  # accused
    {"end": {"Ben": [10]}},
)

# Ana 6 5 | Ben 3 7 | Cleo 9 2 | pile 1 4 8 10 X1 X2
LEFT_DRAWS_FIRST = log(
    deal([6, 5], [1, 4, 8, 10], first="Ben"),
    {"play": {"by": "Ben", "card": 7}},  # PASS with nothing in front; Ben draws 1
    {"play": {"by": "Cleo", "card": 9, "target": "Ben", "revealed": 3}},  # Ben 4, Cleo X1
    {"play": {"card": 6, "bought": 8}},
    {"play": {"by": "Ben", "card": 1}},  # accused; Ben draws X2: the pile holds the 10
    {"play": {"by": "Cleo", "card": 2, "target": "Ana", "revealed": 5, "drew": [10]}},
    {"play": {"card": 8}},  # final turns: Ana first
    {"skip": {"by": "Ben"}},
    {"skip": {"by": "Cleo"}},
    {"end": {"Ana": [10], "Ben": [4]}},
)

# Ana 1 2 | the others never show a card: every split of 8 9 10 X1 X2 that fits is as likely
FOURTH_IN_FRONT = log(
    deal([1, 2], [1, 2, 3, 4]),
    {"play": {"card": 1, "drew": [5]}},
    {"play": {"by": "Ben", "card": 3}},
    {"play": {"by": "Cleo", "card": 4}},
    {"play": {"card": 2, "drew": [7]}},  # the fourth in front: my refill, then final turns
    {"buy": {"by": "Ben", "card": 6}},
    {"skip": {"by": "Cleo"}},
    {"pass": {"card": 7, "target": "Ben", "evidence": 1}},
    {"end": {}},
)

# Ana 1 6 | Ben X1 4 | Cleo X2 9 | pile 2 3 5 7 8 10
ALL_BLOCK = log(
    deal([1, 6], [2, 3, 5, 7]),
    {"play": {"card": 1, "blocked": {"Cleo": "X2", "Ben": "X1"}, "drew": [2]}},  # both draw
    blocking=True,
)

# Ana 2 1 | Ben 3 9 | Cleo 5 4 (me) | Dan 8 10 | pile 6 7 X1 X2
FOUR_PLAYERS = log(
    deal([5, 4], [6, 7, 9, 10]),
    {"play": {"by": "Ana", "card": 2, "target": "Ben", "revealed": 9}},  # Ben 6, Ana 7
    {"play": {"by": "Ben", "card": 3, "target": "Dan"}},  # takes 8, gives 6; draws X1
    {"play": {"card": 5, "target": "Dan", "took": 10}},  # Dan draws X2: the pile is empty
    {"play": {"by": "Dan", "card": 6}},  # final turns from Dan: accused
    {"skip": {"by": "Ana"}},
    {"skip": {"by": "Ben"}},
    {"skip": {}},  # I cannot FORCE: every hand holds two cards or fewer
    {"end": {"Ana": [7], "Cleo": [10]}},
    players=["Ana", "Ben", "Cleo", "Dan"],
    me="Cleo",
)

LOGS = {
    "reveal-force-exchange-pass": REVEAL_FORCE_EXCHANGE_PASS,
    "block-bluff-take-buy": BLOCK_BLUFF_TAKE_BUY,
    "exchange-on-me-unnoticed": EXCHANGE_ON_ME_UNNOTICED,
    "forces-and-an-empty-pile": FORCES_AND_AN_EMPTY_PILE,
    "left-draws-first": LEFT_DRAWS_FIRST,
    "fourth-in-front": FOURTH_IN_FRONT,
    "all-block": ALL_BLOCK,
    "four-players": FOUR_PLAYERS,
}


def replaced(data: dict, upto: int, *events: dict) -> dict:
    """The log's first `upto` events (the deal counts), then `events`."""
    return {**data, "events": [*data["events"][:upto], *events]}


@pytest.mark.parametrize("name", [name for name in LOGS if name != "four-players"])  # (speed)
def test_every_log_is_consistent_and_the_shortcuts_change_nothing(name):
    data = LOGS[name]
    fast, slow = Brute(data), Brute(data, shortcuts=False)
    for event in data["events"]:
        post = fast.apply(event)
        assert sum(post.values()) == 1
        assert slow.apply(event) == post and slow.evidence() == fast.evidence()


def test_reveal_force_accused_exchange_pass_and_the_pile_running_out():
    posts = list(Brute(REVEAL_FORCE_EXCHANGE_PASS).posteriors())
    assert len(posts) == 9
    assert "10" not in incriminating(posts[1])  # in front of Ben
    assert incriminating(posts[4])["8"] == {"Ben": 1}
    assert only_world(posts[-1]) == world([6, 8], [4], [])


def test_a_block_a_bluff_caught_by_me_an_exchange_between_others_take_and_buy():
    posts = list(Brute(BLOCK_BLUFF_TAKE_BUY).posteriors())
    after_force = posts[1]
    assert all("5" in w[1] for w in after_force)  # went back to Cleo
    assert all("X1" not in place for w in after_force for place in w)  # the block is discarded
    assert holds(posts[3], "odd")["Cleo"] == 1  # the 5 is still hers; she took my 7
    assert only_world(posts[-1]) == world([2, 10], [9], [])
    with pytest.raises(BadLog, match="blocking"):
        brute_force({**BLOCK_BLUFF_TAKE_BUY, "blocking": False})


def test_an_exchange_on_me_a_take_between_others_and_an_unnoticed_card():
    posts = list(Brute(EXCHANGE_ON_ME_UNNOTICED).posteriors())
    assert places_of(posts[1])["6"] == {"Ben": 1}
    half = Fraction(1, 2)
    assert places_of(posts[2])["6"] == {"Ben": half, "Cleo": half}  # Ben held 6 and X1
    assert places_of(posts[3])["6"] == {"Cleo": 1}  # the polygraph showed it to me
    assert only_world(posts[-1]) == world(["X1", "X2"], [7, 8], [])


def test_a_force_between_others_and_the_pile_running_out_before_my_refill():
    data = FORCES_AND_AN_EMPTY_PILE
    assert only_world(brute_force(data)) == world([10], ["X1", "X2"], [])
    mine = data["events"][4]["play"]
    with pytest.raises(BadLog, match="draws nothing"):
        brute_force(replaced(data, 4, {"play": {**mine, "drew": ["X2"]}}))


def test_the_player_on_the_left_draws_the_last_card_first():
    data = LEFT_DRAWS_FIRST
    posts = list(Brute(data).posteriors())
    assert all(not w[2] for w in posts[5])  # I drew the last card
    assert set(posts[-1]) == {world([4, "X1"], ["X2"], []), world([4, "X2"], ["X1"], [])}
    cleo = {k: v for k, v in data["events"][5]["play"].items() if k != "drew"}
    with pytest.raises(BadLog, match="`drew` lists them"):
        brute_force(replaced(data, 5, {"play": cleo}))


def test_the_fourth_incriminating_card_in_front_starts_the_final_turns():
    data = FOURTH_IN_FRONT
    post = brute_force(data)
    assert len(post) == 30 and set(post.values()) == {Fraction(1, 30)}  # Ben 2, Cleo 2, pile 1
    assert places_of(post)["10"] == {
        "Ben": Fraction(2, 5),
        "Cleo": Fraction(2, 5),
        "pile": Fraction(1, 5),
    }
    brute_force(replaced(data, 5, {"skip": {"by": "Ben"}}))
    with pytest.raises(BadLog, match="final turns"):  # three in front: no final turn yet
        brute_force(replaced(data, 4, {"skip": {}}))
    with pytest.raises(BadLog, match="round is over"):
        brute_force(replaced(data, 8, {"skip": {"by": "Ben"}}))
    with pytest.raises(BadLog, match="after the last final turn"):
        brute_force(replaced(data, 7, {"end": {}}))


def test_when_every_target_blocks_the_action_is_lost():
    post = brute_force(ALL_BLOCK)
    assert all(not w[0] & {"X1", "X2"} and not w[1] & {"X1", "X2"} for w in post)
    assert {len(place) for w in post for place in w[:2]} == {2}  # both refilled
    play = ALL_BLOCK["events"][1]["play"]
    with pytest.raises(BadLog, match="target"):  # Cleo could still be named
        brute_force(replaced(ALL_BLOCK, 1, {"play": {**play, "blocked": {"Ben": "X1"}}}))


def test_four_players():
    data = FOUR_PLAYERS
    posts = list(Brute(data).posteriors())
    assert posts[-1].places == ("Ana", "Ben", "Dan", "pile")
    assert all(not w[3] for w in posts[3])  # the pile is empty
    assert incriminating(posts[3]).keys() == {"6", "7"}
    assert incriminating(posts[-1]) == {"7": {"Ana": 1}}
    with pytest.raises(BadLog, match="must skip"):
        brute_force(replaced(data, 7, {"play": {"card": 4}}))


# -- random games: the true hidden world stays possible -------------------------------------------


def simulate(
    seed: int,
    players: tuple[str, ...] = ("Ana", "Ben", "Cleo"),
    deck: str = SMALL,
    blocking: bool = False,
    options: dict | None = None,
) -> tuple[dict, list[tuple]]:
    """A random game played by the rules and the probability model, logged as the first player
    sees it; also the true hidden world (as the brute force orders it) after each event."""
    rng = random.Random(seed)
    model = load_deck(deck).with_options(options)
    cards = {c.name: c for c in model.for_players(len(players))}
    size, n, me = model.hand_size, len(players), players[0]
    bluff, protect = float(model.bluff_rate), model.options["force_reveal"] == "protect"
    guilty = set(rng.sample(sorted(c for c in cards if cards[c].number is not None), 4))
    order = list(cards)
    rng.shuffle(order)
    hands = {p: set(order[i * size : (i + 1) * size]) for i, p in enumerate(players)}
    pile = set(order[n * size :])
    front: dict[str, list[str]] = {p: [] for p in players}
    seat = rng.randrange(n)
    deal = {"incriminating": sorted(guilty), "hand": sorted(hands[me]), "first": players[seat]}
    events: list[dict] = [{"deal": deal}]
    final: list[int] | None = None

    def hidden() -> tuple:
        return (*(frozenset(hands[p]) for p in players if p != me), frozenset(pile))

    def shown(card: str, holder: str) -> None:
        hands[holder].remove(card)
        if card in guilty:
            front[holder].append(card)

    def targets(action: str, actor: str) -> list[str]:
        need = 0 if action == "PASS" else (3 if final is not None else 1)
        return [q for q in players if q != actor and len(hands[q]) >= need]

    def possible(card: str, actor: str) -> bool:
        """Whether the card's action can be done (an incriminating card can always be accused)."""
        action = cards[card].action
        if action == "PASS":
            return True
        return bool(pile) if action == "BUY" else bool(targets(action, actor))

    def act(actor: str, card: str, body: dict) -> None:
        action = cards[card].action
        if action == "BUY":
            bought = rng.choice(sorted(pile))
            pile.remove(bought)
            hands[actor].add(bought)
            if actor == me:
                body["bought"] = bought
            return
        if action == "PASS" and not front[actor]:
            return  # a wasted play
        candidates, blocked, target = targets(action, actor), {}, None
        while candidates:
            who = rng.choice(candidates)
            blocks = sorted(x for x in hands[who] if cards[x].block)
            if not (blocking and blocks and rng.random() < 0.5):
                target = who
                break
            blocked[who] = rng.choice(blocks)
            hands[who].remove(blocked[who])
            candidates.remove(who)
        if blocked:
            body["blocked"] = blocked
        if target is None:
            return
        body["target"] = target
        sees = me in (actor, target)
        theirs = sorted(hands[target])
        if action == "REVEAL":
            body["revealed"] = rng.choice(theirs)
            shown(body["revealed"], target)
        elif action == "FORCE":
            requirement = cards[card].requires
            meets = [c for c in theirs if requirement.met_by(cards[c])]
            if meets and rng.random() >= bluff:
                innocent = [c for c in meets if c not in guilty]
                body["revealed"] = rng.choice(innocent if protect and innocent else meets)
                shown(body["revealed"], target)
            else:
                body["none"] = True
                pair = rng.sample(theirs, min(2, len(theirs)))  # in a random order: [shown, back]
                body["polygraph"] = pair[0]
                if len(pair) == 2 and sees:
                    body["returned"] = pair[1]
                shown(pair[0], target)
        elif action == "PASS":
            body["evidence"] = rng.choice(front[actor])
            front[actor].remove(body["evidence"])
            front[target].append(body["evidence"])
        else:  # EXCHANGE (give one of the cards held before taking) or TAKE
            took = rng.choice(theirs)
            gives = sorted(hands[actor]) if action == "EXCHANGE" else []
            gave = rng.choice(gives) if gives else None
            hands[target].remove(took)
            if gave is not None:
                hands[actor].remove(gave)
                hands[target].add(gave)
            hands[actor].add(took)
            if sees:
                body["took"] = took
                if gave is not None:
                    body["gave"] = gave

    truth = [hidden()]
    for _ in range(100):
        actor = players[final[0] if final is not None else seat]
        choices = [c for c in sorted(hands[actor]) if c in guilty or possible(c, actor)]
        if final is not None and (not choices or rng.random() < 0.25):
            events.append({"skip": {"by": actor}})
            truth.append(hidden())
            final.pop(0)
            if not final:
                break
            continue
        card = rng.choice(choices)
        body: dict = {"by": actor, "card": card}
        hands[actor].remove(card)
        if card in guilty and (rng.random() < 0.7 or not possible(card, actor)):
            front[actor].append(card)  # accused
        else:
            if card in guilty:
                body["accused"] = False
            act(actor, card, body)
        triggered = sum(len(f) for f in front.values()) >= 4 or not pile
        if final is None:
            left = [players[(players.index(actor) + k) % n] for k in range(1, n)]
            for p in [q for q in left if len(hands[q]) <= 1] + [actor]:
                k = min(size - len(hands[p]), len(pile))
                if k > 0:
                    drawn = rng.sample(sorted(pile), k)
                    pile.difference_update(drawn)
                    hands[p].update(drawn)
                    if p == me:
                        body["drew"] = sorted(drawn)
            triggered = triggered or not pile
        events.append({"play": body})
        truth.append(hidden())
        if final is not None:
            final.pop(0)
            if not final:
                break
        elif triggered:
            final = [(players.index(actor) + k) % n for k in range(1, n + 1)]
        else:
            seat = (players.index(actor) + 1) % n
    else:
        raise AssertionError("the random game does not end")
    events.append({"end": {p: sorted(c for c in hands[p] if c in guilty) for p in players}})
    truth.append(hidden())
    header = {"players": list(players), "me": me, "deck": deck, "blocking": blocking}
    return {"game": "suspeicao", **header, "options": options or {}, "events": events}, truth


@pytest.mark.parametrize(
    ("seed", "blocking", "options"),
    [
        *((seed, False, {}) for seed in range(4)),
        *((seed, True, {}) for seed in range(4, 8)),
        (8, True, {"bluff_rate": 0, "force_reveal": "protect"}),
        (9, False, {"bluff_rate": 1}),
        (10, True, {"bluff_rate": "1/2", "force_reveal": "protect"}),
    ],
)
def test_the_true_world_of_a_random_game_stays_possible(seed, blocking, options):
    data, truth = simulate(seed, blocking=blocking, options=options)
    brute = Brute(data)
    for event, hidden in zip(data["events"], truth, strict=True):
        post = brute.apply(event)
        assert post.get(hidden, 0) > 0, (event, hidden)


def test_the_true_world_of_random_games_with_four_players_or_hands_of_three(hand3):
    for data, truth in (
        simulate(11, players=("Ana", "Ben", "Cleo", "Dan"), blocking=True),
        simulate(12, deck=hand3),
        simulate(13, deck=hand3, blocking=True, options={"force_reveal": "protect"}),
    ):
        post = Brute(data).run()
        assert post.get(truth[-1], 0) > 0


# -- generic events and errors ---------------------------------------------------------------------


def test_facts_shows_and_moves():
    start = deal([2, 4], [1, 7, 9, 10])
    post = brute_force(log(start, {"fact": {"player": "Ben", "lacks": "odd"}}))
    assert holds(post, "odd")["Ben"] == 0
    assert holds(post, "odd")["Cleo"] == 1 - Fraction(comb(3, 2), comb(8, 2))  # 3 even of 8 left
    post = brute_force(log(start, {"show": {"player": "Cleo", "card": 9}}))
    assert incriminating(post)["9"] == {"Cleo": 1}
    post = brute_force(
        log(start, {"show": {"player": "Cleo", "card": 9}}, {"move": {"from": "Cleo", "to": "Ben"}})
    )
    half = Fraction(1, 2)
    assert incriminating(post)["9"] == {"Ben": half, "Cleo": half}  # an unseen card of her two
    post = brute_force(log(start, {"move": {"from": "Ana", "to": "Cleo", "card": 4}}))
    assert places_of(post)["4"] == {"Cleo": 1}
    with pytest.raises(Contradiction):
        brute_force(log(start, {"show": {"player": "Cleo", "card": 2}}))  # mine


def test_errors_in_a_log():
    start = deal([2, 4], [1, 7, 9, 10])
    with pytest.raises(BadLog, match="Ana's turn"):
        brute_force(log(start, {"play": {"by": "Ben", "card": 9, "target": "Cleo", "revealed": 1}}))
    with pytest.raises(Contradiction):  # not in my hand
        brute_force(log(start, {"play": {"card": 9, "target": "Ben", "revealed": 1, "drew": [3]}}))
    with pytest.raises(BadLog, match="`drew` is missing|lists them"):
        brute_force(log(start, {"play": {"card": 2, "target": "Ben", "revealed": 1}}))
    with pytest.raises(BadLog, match="not FORCE"):
        brute_force(log(start, {"force": {"card": 2, "target": "Ben", "revealed": 1}}))
    with pytest.raises(BadLog, match="returned"):  # I saw both polygraph cards
        brute_force(
            log(start, {"play": {"card": 4, "target": "Ben", "none": True, "polygraph": 1}})
        )
    took = {"by": "Cleo", "card": 5, "target": "Ben", "took": 1}
    with pytest.raises(BadLog, match="only when Ana sees it"):
        brute_force(log(deal([2, 4], [1, 7, 9, 10], first="Cleo"), {"play": took}))
    with pytest.raises(BadLog, match="unknown event"):
        brute_force(log(start, {"guess": {}}))
    with pytest.raises(NotImplementedError):
        brute_force(log(start, start))
    with pytest.raises(BadLog, match="my hand"):
        brute_force(log(deal([2, 4, 6], [1, 7, 9, 10])))
    with pytest.raises(BadLog, match="four different"):
        brute_force(log(deal([2, 4], [1, 7, 9, 9])))


def test_buy_needs_a_card_in_the_pile():
    # the pile runs out at my EXCHANGE: Ben's final turn cannot BUY
    events = REVEAL_FORCE_EXCHANGE_PASS["events"]
    with pytest.raises(BadLog, match="BUY needs a card"):
        brute_force(replaced(REVEAL_FORCE_EXCHANGE_PASS, 5, {"play": {"by": "Ben", "card": 6}}))
    assert events[5] == {"skip": {"by": "Ben"}}


def test_the_bundled_deck_is_refused_for_three_players():
    data = {
        "game": "suspeicao",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "events": [deal([2, 15, 40, "X1"], [7, 21, 33, 41])],
    }
    with pytest.raises(TooManyDeals, match="physical deals"):
        brute_force(data)
    with pytest.raises(BadLog, match="not used with 3 players"):  # a 5-6 player card
        brute_force({**data, "events": [deal([2, 15, 45, "X1"], [7, 21, 33, 41])]})
