"""The CP-SAT model of a Suspeição round must agree with the exact filter, and explain conflicts.

On the reduced deck (tests/data/suspeicao-small.yaml: 12 cards, hands of 2, 3 players, 6 cards in
the pile) the final hidden states CP-SAT finds by enumerating every history are exactly the
physical states the filter's worlds stand for (`support_of`), on hand-written logs covering every
kind of step and on every prefix of simulated rounds (whose true state must stay possible). A
contradictory log that only the hidden-card reasoning sees (the reader raises the others itself)
is explained by exactly the events that clash.

Ana is `me`; the incriminating cards are 4 7 9 10 unless a log says otherwise. The small deck:
1 FORCE odd, 2 REVEAL, 3 EXCHANGE, 4 FORCE 1-5, 5 TAKE, 6 BUY, 7 PASS, 8 FORCE CLUE, 9 REVEAL,
10 FORCE even, X1 EXCHANGE, X2 FORCE 6-10 (X cards meet no requirement).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from models.suspeicao.belief import Impossible, track
from models.suspeicao.knowledge import (
    RoundKnowledge,
    conflict,
    consistent,
    possible_worlds,
    support_of,
)
from models.suspeicao.log import parse
from models.suspeicao.rules import Deck
from models.suspeicao.simulate import random_game
from models.suspeicao.steps import PILE, Force, Setup
from solver.logfile import Document, parse_text

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
HEADER = "game: suspeicao\nplayers: [Ana, Ben, Cleo]\nme: Ana\n"
DEAL = "deal: {incriminating: [4, 7, 9, 10], hand: [%s], first: Ana}"
BLUFF_0 = "options: {bluff_rate: 0}\n"


def round_of(events: str, header: str = "") -> tuple[Setup, Deck]:
    """The setup (with its steps) and deck of a log on the small deck: `events` is the YAML list
    of events, `header` extra header lines."""
    doc = parse_text(HEADER + header + "events:\n" + events)
    doc.data["deck"] = SMALL
    log = parse(doc)
    assert log.round is not None
    return log.round.setup, log.deck


# -- the possible final states are the filter's support ---------------------------------------------

LOGS = {
    "reveal-take-buy": (
        "",
        f"""
  - {DEAL % "3, 6"}
  - play: {{card: 6, bought: 8}}                            # I BUY the 8
  - play: {{by: Ben, card: 5, target: Cleo}}                # TAKE between others, unseen
  - play: {{by: Cleo, card: 2, target: Ben, revealed: 1}}   # REVEAL between others
""",
    ),
    "exchange-with-me-force-revealed": (
        "",
        f"""
  - {DEAL % "1, 3"}
  - play: {{card: 3, target: Ben, took: 8, gave: 1, drew: [X1]}}
  - play: {{by: Ben, card: 1, target: Cleo, revealed: 5}}   # the 1 I gave; Cleo shows an odd
  - play: {{by: Cleo, card: 2, target: Ana, revealed: 8, drew: [10]}}
""",
    ),
    "claims-of-none-with-bluff-rate-0": (
        BLUFF_0,
        f"""
  - {DEAL % "1, 6"}
  - play: {{card: 1, target: Ben, none: true, polygraph: 2, returned: 8, drew: [X2]}}
  - play: {{by: Ben, card: 8, target: Cleo, none: true, polygraph: 3}}
  - fact: {{player: Cleo, has: even}}
""",
    ),
    "polygraph-catches-a-lie": (
        "",
        f"""
  - {DEAL % "1, 6"}
  - play: {{card: 1, target: Ben, none: true, polygraph: 5, returned: 2, drew: [X2]}}
  - play: {{by: Ben, card: 8, target: Cleo, none: true, polygraph: 3}}
""",
    ),
    "exchange-between-others-show-fact": (
        "",
        f"""
  - {DEAL % "2, 6"}
  - play: {{card: 6, bought: 5}}
  - play: {{by: Ben, card: 3, target: Cleo}}                # EXCHANGE between others
  - show: {{player: Cleo, card: 8}}
  - play: {{by: Cleo, card: X1, target: Ana, took: 2, gave: 8}}
  - fact: {{player: Ben, lacks: odd}}
""",
    ),
    "a-shown-card-moves-unseen": (
        "",
        f"""
  - {DEAL % "2, 6"}
  - play: {{card: 6, bought: 1}}
  - show: {{player: Cleo, card: 8}}
  - play: {{by: Ben, card: 5, target: Cleo}}                # Ben may take the 8
  - play: {{by: Cleo, card: 3, target: Ben}}
  - play: {{card: 2, target: Ben, revealed: 8, drew: [X1]}}
""",
    ),
    "take-by-me-exchange-on-me-accused": (
        "",
        f"""
  - {DEAL % "5, 6"}
  - play: {{card: 5, target: Cleo, took: 8}}                # my TAKE; Cleo refills
  - play: {{by: Ben, card: X1, target: Ana, took: 6, gave: 2}}
  - play: {{by: Cleo, card: 9}}                             # incriminating: accused, no action
  - fact: {{player: Ben, has: CLUE}}
""",
    ),
    "buy-by-another-and-an-unseen-move": (
        "",
        f"""
  - {DEAL % "2, 3"}
  - play: {{card: 2, target: Ben, revealed: 8, drew: [X2]}}
  - play: {{by: Ben, card: 6}}                              # BUY, unseen
  - move: {{from: Cleo, to: Ben}}
  - play: {{by: Cleo, card: 1, target: Ana, revealed: 3, drew: [10]}}
""",
    ),
    "exchange-of-a-known-card-into-an-unknown-hand": (
        "",
        f"""
  - {DEAL % "2, 6"}
  - show: {{player: Ben, card: 8}}
  - play: {{card: 6, bought: 5}}
  - play: {{by: Ben, card: X1, target: Cleo}}               # Ben gives the 8 he has left
""",
    ),
    "exchange-between-known-hands": (
        "",
        f"""
  - {DEAL % "2, 6"}
  - show: {{player: Ben, card: 8}}
  - move: {{from: Ana, to: Ben, card: 2}}                   # Ben holds 3 cards
  - fact: {{player: Cleo, lacks: odd}}
  - play: {{card: 6, bought: 1, drew: [X1]}}
  - play: {{by: Ben, card: 3, target: Cleo}}                # Ben gives the 8 or the 2
  - fact: {{player: Cleo, has: CLUE}}
""",
    ),
    "protect-reveals-evidence-only-when-forced": (
        "options: {force_reveal: protect}\n",
        f"""
  - {DEAL % "3, 6"}
  - play: {{card: 6, bought: 2}}
  - play: {{by: Ben, card: 1, target: Cleo, revealed: 7}}   # Cleo holds no other odd but 9
""",
    ),
}


@pytest.mark.parametrize("name", list(LOGS))
def test_possible_worlds_are_the_filters_support(name: str):
    header, events = LOGS[name]
    setup, deck = round_of(events, header)
    worlds = possible_worlds(setup, setup.steps, deck)
    assert worlds, "a consistent log has a possible world"
    assert worlds == support_of(track(setup, deck))
    assert consistent(setup, setup.steps, deck)
    assert conflict(setup, setup.steps, deck) == []


def test_worlds_keep_the_public_sizes_and_only_hidden_cards():
    setup, deck = round_of(LOGS["exchange-with-me-force-revealed"][1])
    worlds = possible_worlds(setup, setup.steps, deck)
    for ben, cleo, pile in worlds:
        assert (len(ben), len(cleo), len(pile)) == (2, 2, 1)  # refills: Cleo twice, Ben once
        assert ben | cleo | pile == {"4", "6", "7", "9", "X2"}  # the rest is mine or face up


def test_a_limit_gives_that_many_possible_worlds():
    setup, deck = round_of(LOGS["reveal-take-buy"][1])
    every = possible_worlds(setup, setup.steps, deck)
    some = possible_worlds(setup, setup.steps, deck, limit=3)
    assert len(some) == 3 and some <= every


@pytest.mark.parametrize(
    ("header", "held"), [("options: {force_reveal: protect}\n", {"9"}), ("", {"5", "9"})]
)
def test_protect_shows_evidence_only_from_a_hand_without_a_safe_card(header: str, held: set):
    """Ben forces odd from Cleo, who shows the incriminating 7: with `protect`, Cleo held no
    other odd card but the incriminating 9 (the 5 would have been shown instead)."""
    events = LOGS["protect-reveals-evidence-only-when-forced"][1]
    setup, deck = round_of(events, header)
    model = RoundKnowledge(setup, deck)
    forced = next(i for i, step in enumerate(setup.steps) if isinstance(step, Force))
    before = model.x[forced]  # x[t] is after step t, x[0] the deal
    query = {card: before[card, "Cleo"] for card in ("5", "9")}
    assert model.knowledge.possible(query) == held


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"blocking": True},
        {"options": {"bluff_rate": "1/2", "force_reveal": "protect"}},
        {"options": {"bluff_rate": 0}},
    ],
    ids=["default", "blocking", "protect", "bluff-rate-0"],
)
def test_simulated_rounds_agree_after_every_event(options: dict | None):
    """Every prefix of a simulated round: the same support, and the true state stays possible."""
    game = random_game(random.Random(8), 3, SMALL, **(options or {}))  # claims, blocks, an end
    for upto in range(1, len(game.events) + 1):
        data = game.log_for("P1", upto)
        log = parse(Document(data=data))
        assert log.round is not None
        setup = log.round.setup
        worlds = possible_worlds(setup, setup.steps, log.deck)
        assert worlds == support_of(track(setup, log.deck)), f"after event {upto}"
        if "end" not in data["events"][-1]:  # `end` shows kept cards: they leave the hands
            truth = game.truths[upto - 1]
            true = tuple(frozenset(str(c) for c in truth[p]) for p in [*setup.opponents, PILE])
            assert true in worlds, f"after event {upto}"


# -- conflicts ----------------------------------------------------------------------------------


def conflict_of(events: str, header: str = "") -> list[int]:
    """The conflict CP-SAT names; the filter must fail at its last event (the reader raised
    nothing: only the hidden cards tell)."""
    setup, deck = round_of(events, header)
    found = conflict(setup, setup.steps, deck)
    assert consistent(setup, setup.steps, deck) == (found == [])
    if found:
        with pytest.raises(Impossible) as failed:
            track(setup, deck)
        assert failed.value.event == max(found)
    else:
        track(setup, deck)
    return found


def test_two_facts_about_the_same_hand_conflict():
    events = f"""
  - {DEAL % "3, 6"}
  - fact: {{player: Ben, has: odd}}
  - fact: {{player: Cleo, has: even}}
  - fact: {{player: Ben, lacks: odd}}
"""
    assert conflict_of(events) == [2, 4]


def test_a_consistent_log_has_no_conflict():
    events = f"""
  - {DEAL % "3, 6"}
  - fact: {{player: Ben, has: odd}}
  - play: {{card: 6, bought: 8}}
  - play: {{by: Ben, card: 1, target: Cleo, revealed: 5}}   # Ben refills after playing his odd
  - fact: {{player: Ben, lacks: odd}}
"""
    assert conflict_of(events) == []


def test_hands_without_odd_cards_cannot_make_one_by_exchanging():
    """Neither Ben nor Cleo holds an odd card; Ben plays X1 and swaps a card with Cleo; Cleo
    cannot then hold an odd card. Ben's play itself is not needed: whatever card he played, the
    other was not odd."""
    events = f"""
  - {DEAL % "3, 6"}
  - play: {{card: 6, bought: 5}}
  - fact: {{player: Ben, lacks: odd}}
  - fact: {{player: Cleo, lacks: odd}}
  - play: {{by: Ben, card: X1, target: Cleo}}
  - fact: {{player: Cleo, has: odd}}
"""
    assert conflict_of(events) == [3, 4, 6]


def test_a_claim_of_none_with_bluff_rate_0_is_true():
    events = f"""
  - {DEAL % "3, 6"}
  - play: {{card: 6, bought: 8}}
  - fact: {{player: Cleo, has: odd}}
  - play: {{by: Ben, card: 1, target: Cleo, none: true, polygraph: 2}}
"""
    assert conflict_of(events, BLUFF_0) == [3, 4]
    assert conflict_of(events) == []  # with bluff_rate 1/5 Cleo may have bluffed


def test_the_card_returned_after_a_polygraph_stays_in_the_hand():
    events = f"""
  - {DEAL % "1, 6"}
  - play: {{card: 1, target: Ben, none: true, polygraph: 2, returned: 8, drew: [X2]}}
  - fact: {{player: Ben, lacks: even}}
"""
    assert conflict_of(events, BLUFF_0) == [2, 3]


def test_the_card_i_gave_stays_with_ben_or_the_player_who_took_from_him():
    """I give Ben the 1; he plays another card; Cleo takes a card of his unseen; then neither
    holds an odd card. Every observation about the 1 is needed: that I gave it (2), that Ben
    played the 2 and not it (3), and both facts (5, 6); Cleo's TAKE (4) is structure."""
    events = f"""
  - {DEAL % "1, 3"}
  - play: {{card: 3, target: Ben, took: 8, gave: 1, drew: [X1]}}
  - play: {{by: Ben, card: 2, target: Cleo, revealed: 10}}
  - play: {{by: Cleo, card: 5, target: Ben}}
  - fact: {{player: Ben, lacks: odd}}
  - fact: {{player: Cleo, lacks: odd}}
"""
    assert conflict_of(events) == [2, 3, 5, 6]
