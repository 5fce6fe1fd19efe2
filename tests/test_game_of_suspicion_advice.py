"""Game of Suspicion advice, checked by doing the move: for each outcome an action can have, the
event is written into the log and solved again; the advice's exact values must equal the
outcome-weighted results (Fractions), and the value of guessing now must equal a recursion
over the filter's listed worlds."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models import GAMES
from models.game_of_suspicion.advice import action_values, best_guesses, chain_value
from models.game_of_suspicion.simulate import random_game
from solver.errors import SleuthError
from solver.logfile import Document

GAME = GAMES["game-of-suspicion"]
BASE = {
    "game": "game-of-suspicion",
    "players": ["Ana", "Ben", "Cleo"],
    "me": "Ana",
    "events": [
        {"deal": {"hand": [1, 1, 4, 8], "shadow": [0, 2, 3, 6]}},
        {"look": {"by": "Ben", "slot": "left", "exchanged": True}},
        {"play": {"by": "Cleo", "card": 0, "between": ["Ana", "Ben"], "gave": 1, "got": 5}},
    ],
}


def posterior(doc: dict):
    return GAME.posterior(Document(doc))  # type: ignore[attr-defined]


def best_after(doc: dict) -> Fraction:
    """P(right) of the best single guess after the log `doc` (0 when the log is impossible)."""
    post = posterior(doc)
    return max(post.hands(p)[0][1] for p in post.opponents)


def worlds(post) -> dict[tuple, Fraction]:
    return post.belief.worlds_list()


def value_by_outcomes(doc: dict, outcome_of, event_for) -> Fraction:
    """Σ over outcomes o of P(o) × best guess after the log with the event for o."""
    post = posterior(doc)
    chance: dict = defaultdict(Fraction)
    for world, p in worlds(post).items():
        chance[outcome_of(post, world)] += p
    total = Fraction(0)
    for outcome, p in chance.items():
        after = {**doc, "events": [*doc["events"], event_for(outcome)]}
        total += p * best_after(after)
    return total


def advice_for(doc: dict, label: str):
    found = [a for a in action_values(posterior(doc)) if a.label == label]
    assert len(found) == 1, [a.label for a in action_values(posterior(doc))]
    return found[0]


def test_a_middle_look_is_valued_by_what_it_shows():
    slot = posterior(BASE).round.setup.place("left")
    expected = value_by_outcomes(
        BASE,
        lambda post, world: world[slot][0],
        lambda seen: {"look": {"slot": "left", "saw": seen, "put_back": seen}},
    )
    assert advice_for(BASE, "look at the left middle card").p_guess == expected


def test_card_1_is_valued_by_who_holds_the_named_card():
    def holder(post, world):
        return next(
            (p for p in post.opponents if 9 in world[post.place(p)]),
            "none",
        )

    def event(who):
        body = {"card": 1, "named": 9, "holder": who}
        return {"play": body if who == "none" else {**body, "gave": 9}}

    expected = value_by_outcomes(BASE, holder, event)
    assert advice_for(BASE, "play 1 naming 9").p_guess == expected


def test_card_4_is_valued_by_the_cards_it_shows_me():
    high = {5, 6, 7, 8, 9}

    def shown(post, world):
        return tuple(
            (p, tuple(v for v in world[post.place(p)] if v in high)) for p in post.opponents
        )

    def event(outcome):
        return {"play": {"card": 4, "shown": {p: list(cards) for p, cards in outcome}}}

    expected = value_by_outcomes(BASE, shown, event)
    assert advice_for(BASE, "play 4 (cards over 4 shown to me)").p_guess == expected


def chain_by_worlds(listed: dict[tuple, Fraction], places: dict[str, int], sizes) -> Fraction:
    """The value of guessing on, computed on an explicit list of worlds."""
    total = sum(listed.values(), Fraction(0))
    if not places or total == 0:
        return Fraction(0)
    best = Fraction(0)
    for name, place in places.items():
        hands: dict = defaultdict(Fraction)
        for world, p in listed.items():
            hands[world[place]] += p
        top = max(hands.values())
        rest = {n: q for n, q in places.items() if n != name}
        for hand in (h for h, q in hands.items() if q == top):  # ties: the best continuation
            kept = {w: p for w, p in listed.items() if w[place] == hand}
            value = top / total * (sizes[name] + chain_by_worlds(kept, rest, sizes))
            best = max(best, value)
    return best


@settings(deadline=None)
@given(seed=st.integers(0, 10**6), events=st.integers(2, 9))
@example(seed=236, events=3)  # two equally likely hands whose showing leaves different values
def test_guessing_now_equals_the_recursion_over_worlds(seed, events):
    doc, _ = random_game(random.Random(seed), players=3, me="P1", events=events)
    try:
        post = posterior(doc)
    except SleuthError:  # the round ended, or P1 is out: nothing to advise
        return
    places = {p: post.place(p) for p in post.opponents}
    sizes = {p: post.round.hand_size[p] for p in post.opponents}
    expected = chain_by_worlds(worlds(post), places, sizes)
    opponents = {p: (places[p], sizes[p]) for p in post.opponents}
    assert chain_value(post.belief, opponents) == expected
    guesses = best_guesses(post)
    for guess in guesses:
        assert guess.p == post.hands(guess.target)[0][1]


@pytest.mark.parametrize("card", [4, 5, 2])
def test_revealing_cards_never_lose_information(card):
    """Showing cards to me can only raise the expected best guess (a martingale argument): the
    value after card 4, 5 or 2 is at least the best guess now."""
    doc = {**BASE, "events": [{"deal": {"hand": [1, 2, 4, 5], "shadow": [0, 3, 7, 9]}}]}
    now = best_after(doc)
    found = [a for a in action_values(posterior(doc)) if a.label.startswith(f"play {card}")]
    assert found and found[0].p_guess >= now and found[0].bits > 0


def test_card_2_is_valued_by_the_hands_shown_to_me():
    doc = {**BASE, "events": [{"deal": {"hand": [1, 2, 4, 5], "shadow": [0, 3, 7, 9]}}]}

    def shown(post, world):
        return tuple(
            (p, world[post.place(p)])
            for p in post.opponents
            if sum(1 if v == 10 else v for v in world[post.place(p)]) > 10
        )

    def event(outcome):
        hands = {p: list(h) for p, h in outcome}
        return {"play": {"card": 2, "showed": list(hands), "hands": hands}}

    expected = value_by_outcomes(doc, shown, event)
    assert advice_for(doc, "play 2 (hands over 10 shown to me)").p_guess == expected


def test_card_5_is_valued_by_the_even_cards_it_shows_me():
    doc = {**BASE, "events": [{"deal": {"hand": [1, 2, 4, 5], "shadow": [0, 3, 7, 9]}}]}

    def shown(post, world):
        return tuple(
            (p, tuple(v for v in world[post.place(p)] if v in (2, 4, 6, 8))) for p in post.opponents
        )

    def event(outcome):
        return {"play": {"card": 5, "shown": {p: list(cards) for p, cards in outcome}}}

    expected = value_by_outcomes(doc, shown, event)
    assert advice_for(doc, "play 5 (cards 2 4 6 8 shown to me)").p_guess == expected


def test_card_8_is_valued_by_the_middle_cards_it_gives_me():
    doc = {**BASE, "events": [{"deal": {"hand": [1, 2, 4, 8], "shadow": [0, 3, 7, 9]}}]}
    post = posterior(doc)
    left, right = post.place("left"), post.place("right")

    def middle(post, world):
        return world[left][0], world[right][0]

    def event(seen):
        return {"play": {"card": 8, "saw": list(seen), "put": 8}}

    expected = value_by_outcomes(doc, middle, event)
    assert advice_for(doc, "play 8 (take back my cards and the middle)").p_guess == expected


def test_card_3_scores_the_three_most_likely_hands():
    doc = {**BASE, "events": [{"deal": {"hand": [1, 2, 3, 4], "shadow": [0, 5, 7, 9]}}]}
    post = posterior(doc)
    for action in action_values(post):
        if action.label.startswith("play 3 at "):
            target = action.label.split()[3]
            top = post.hands(target)[:3]
            assert action.p_guess == sum(q for _, q in top)
            assert action.intent["play"]["guesses"] == [list(h) for h, _ in top]
            assert 0 < action.bits <= 2  # four outcomes at most
