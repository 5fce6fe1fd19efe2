"""The Suspeição filter is exact: on the reduced deck (12 cards, hands of 2) its chances for every
hidden incriminating card's place and for each opponent meeting each requirement equal, as
Fractions, those of a brute force over every physical deal and hidden choice
(`suspeicao_brute`, written from the rules, not from the steps). Random games come from the
truth engine (`models/suspeicao/simulate.py`), cut at random points, under every option of the
probability model, in the blocking mode too; and the true hidden cards always stay possible,
also on the full deck and when tracking sets FORCE evidence aside."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from suspeicao_brute import brute_force, holds, incriminating

from models.suspeicao.belief import POOL, track
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.log import parse
from models.suspeicao.simulate import play_round, random_game
from solver.logfile import Document

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
OPTIONS = [
    {"bluff_rate": "1/5", "force_reveal": "uniform"},
    {"bluff_rate": "1/2", "force_reveal": "protect"},
    {"bluff_rate": "0", "force_reveal": "uniform"},
    {"bluff_rate": "1", "force_reveal": "protect"},
]


def document(data: dict) -> Document:
    return Document(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)))


def engine(data: dict, strict: bool = True):
    GAME_OBJECT.last.clear()
    post = GAME_OBJECT.posterior(document(data))
    if strict:  # small states: every piece of evidence is used
        assert not post.belief.set_aside
    return post


def compare(data: dict) -> None:
    post = engine(data)
    brute = brute_force(data)
    expected = incriminating(brute)
    for card in post.round.incriminating:
        if card in post.belief.class_of:
            got = {k: v for k, v in post.belief.where(card).items() if v}
            assert got == expected.get(card, {}), (card, got, expected.get(card))
    for requirement in post.requirements():
        want = holds(brute, requirement.text)
        for player in post.opponents:
            assert post.holds(player, requirement) == want[player], (player, requirement.text)


@given(
    seed=st.integers(0, 10**6),
    option=st.sampled_from(range(len(OPTIONS))),
    cut=st.floats(0, 1),
    blocking=st.booleans(),
    seat=st.integers(0, 2),
)
def test_the_filter_equals_the_brute_force_on_random_games(seed, option, cut, blocking, seat):
    rng = random.Random(seed)
    players = ["Ana", "Ben", "Cleo"]
    game = play_round(
        rng, players, players[seat], deck_path=SMALL, blocking=blocking, options=OPTIONS[option]
    )
    data = game.doc
    events = data["events"]
    keep = 1 + int(cut * (len(events) - 1))
    compare({**data, "events": events[:keep]})


@pytest.mark.parametrize("option", range(len(OPTIONS)))
def test_every_prefix_of_a_few_games_equals_the_brute_force(option):
    for seed in range(3):
        game = random_game(random.Random(100 + seed), 3, deck_path=SMALL, options=OPTIONS[option])
        events = game.doc["events"]
        for keep in range(1, len(events) + 1):
            compare({**game.doc, "events": events[:keep]})


def truth_is_possible(belief, truth: dict) -> bool:
    """Some world of positive weight matches the true explicit cards, and the true pooled cards
    are what that world's pool holds."""
    columns = {p: c for p, c in belief.column.items()}
    for world in range(belief.worlds):
        counts = belief.counts[world]
        pool = [0] * belief.classes
        fits = True
        for player, column in columns.items():
            have = [0] * belief.classes
            for card in truth[player]:
                have[belief.class_of[card]] += 1
            for k in range(belief.classes):
                explicit = int(counts[column, k])
                if have[k] < explicit:
                    fits = False
                pool[k] += have[k] - explicit
        for card in truth["pile"]:
            pool[belief.class_of[card]] += 1
        if fits and pool == [int(n) for n in counts[POOL]]:
            return True
    return False


@pytest.mark.parametrize(
    ("players", "cap"), [(3, 30_000), (4, 30_000), (6, 30_000), (4, 200), (6, 200)]
)
def test_the_truth_stays_possible_in_whole_simulated_rounds(players, cap):
    for seed in range(3):
        game = random_game(random.Random(seed), players)
        log = parse(document(game.doc))
        rnd = log.round
        assert rnd is not None
        belief = track(rnd.setup, log.deck, cap=cap)
        truth = {
            p: [str(c) for c in cards]
            for p, cards in game.truths[-1].items()
            if p not in ("front",)
        }
        assert truth_is_possible(belief, truth), (players, seed)
        if cap == 200:
            assert belief.worlds <= 200
        for card in rnd.incriminating:  # the chances of a card's places add up to one
            if card in belief.class_of:
                assert sum(belief.where(card).values(), Fraction(0)) == 1


@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), option=st.sampled_from(range(len(OPTIONS))))
def test_advice_on_a_focused_copy_equals_the_whole_belief(seed, cut, option):
    """The chance a FORCE reveals evidence, computed on a focused copy over four kinds of card,
    equals the model's formula summed over every world of the whole belief with the target's
    hand resolved, for every target and requirement (4 players on the small deck)."""
    from models.suspeicao.advice import force_reveal

    game = random_game(random.Random(seed), 4, deck_path=SMALL, options=OPTIONS[option])
    events = game.doc["events"]
    post = engine({**game.doc, "events": events[: 1 + int(cut * (len(events) - 1))]}, strict=False)
    belief = post.belief
    for target in post.opponents:
        if post.round.hand_size[target] == 0:
            continue
        for req in post.requirements()[:3]:
            focused = force_reveal(belief, target, req, True)
            whole = belief.copy()
            column, meets = whole._qualifying(target, req)
            # the same formula on the unfocused copy
            hand = whole.counts[:, column, :].astype(int)
            guilty = [bool(m & whole.incriminating) for m in whole.members]
            total = whole.total()
            expected = Fraction(0)
            for w in range(whole.worlds):
                q = sum(hand[w, k] for k in range(whole.classes) if meets[k])
                qg = sum(hand[w, k] for k in range(whole.classes) if meets[k] and guilty[k])
                g = sum(hand[w, k] for k in range(whole.classes) if guilty[k])
                h = int(hand[w].sum())
                poly = (
                    1 - Fraction(math.comb(h - g, 2), math.comb(h, 2)) if h >= 2 else Fraction(g, h)
                )
                if q == 0:
                    value: Fraction = poly
                elif whole.protect:
                    value = (1 - whole.bluff) * (1 if qg == q else 0) + whole.bluff * poly
                else:
                    value = (1 - whole.bluff) * Fraction(qg, q) + whole.bluff * poly
                expected += int(whole.weights[w]) * value
            assert focused == expected / total
