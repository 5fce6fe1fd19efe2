"""The variation for two in one log, and the exact counter over secrets that must differ.

Brute forces written here (over pairs of cards, and over every tuple of candidate cards) must
agree with the counter, CP-SAT and python-constraint; a simulated variation game keeps its truth.
Suspect indexes follow RULINGS.md §1: HB=0, JC=1, KC=2, LEL=3, LSL=4, NNN=5, PT=6.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
import yaml
from conftest import as_document
from hypothesis import given, settings
from hypothesis import strategies as st

from models.three_of_a_crime import advice, csp
from models.three_of_a_crime.counter import (
    ALL,
    BIT,
    FREE_LIMIT,
    Draw,
    TooManyUnknowns,
    cards_of,
    joint,
    posterior,
)
from models.three_of_a_crime.game import ThreeOfACrime
from models.three_of_a_crime.knowledge import CrimeKnowledge
from models.three_of_a_crime.log import Fact, Log, parse
from models.three_of_a_crime.rules import CARDS, Card, card_names, overlap
from models.three_of_a_crime.simulate import random_game, random_variation_game
from solver.errors import InputError

HB, JC, KC, LEL, LSL, NNN, PT = range(7)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "three-of-a-crime"
GAME = ThreeOfACrime()
FEW = settings(max_examples=max(5, settings.default.max_examples // 4))


def card(*suspects: int) -> Card:
    return tuple(sorted(suspects))  # type: ignore[return-value]


def variation(events: list[dict], me: str | None = "Ana") -> dict:
    data: dict = {"game": "three-of-a-crime", "players": ["Ana", "Ben"], "events": events}
    if me:
        data["me"] = me
    return data


def log_of(data: dict) -> Log:
    return parse(as_document(data))


def turned(c: Card, token: int, eyewitness: str) -> dict:
    return {"card": card_names(c), "token": token, "eyewitness": eyewitness}


def holds(world: tuple[Card, ...], fact: Fact) -> bool:
    """A fact checked directly with rules.overlap."""
    secret = world[fact.secret]
    if fact.kind == "token":
        return overlap(fact.card, secret) == fact.token
    if fact.kind == "not":
        return secret != fact.card
    return secret == fact.card


def differ_pairs(log: Log) -> set[tuple[int, int]]:
    """Pairs of secrets that must be different cards, read from the rounds (not from Draw):
    both out of the deck in one round; a card won earlier stays out of every later deck; the
    variation's unwon card went back."""
    pairs = set()
    secrets = [(r, s) for r in log.rounds for s in r.secrets]
    for (r1, s1), (r2, s2) in product(secrets, secrets):
        if s1 >= s2:
            continue
        same_round = r1.number == r2.number
        won_before = r1.number < r2.number and (
            r1.variation is None or s1 == r1.won_secret or r1 is log.rounds[-1]
        )
        if same_round or won_before:
            pairs.add((s1, s2))
    return pairs


def brute_joint(log: Log, limit: int = 300_000) -> Counter | None:
    """Counts of the current round's cards over every tuple of candidate cards (None if too many)."""
    secrets = len(log.draws)
    allowed = [
        [c for c in CARDS if all(holds((c,) * secrets, f) for f in log.facts if f.secret == s)]
        for s in range(secrets)
    ]
    size = 1
    for cards in allowed:
        size *= len(cards)
    if size > limit:
        return None
    differ = differ_pairs(log)
    found: Counter = Counter()
    for world in product(*allowed):
        if all(world[a] != world[b] for a, b in differ):
            found[tuple(world[s] for s in log.focus)] += 1
    return found


# --- the exact counter against brute force ----------------------------------------------------


@st.composite
def interval_instances(draw):
    """Random secrets (one or two per round, won or not) and random small masks."""
    rounds = draw(st.integers(min_value=1, max_value=4))
    draws = []
    for r in range(rounds):
        for _ in range(draw(st.sampled_from([1, 2]))):
            draws.append(Draw(r, True if r == rounds - 1 else draw(st.booleans())))
    universe = draw(st.lists(st.integers(0, 34), min_size=2, max_size=7, unique=True))
    masks = [
        sum(1 << u for u in draw(st.lists(st.sampled_from(universe), min_size=1, unique=True)))
        for _ in draws
    ]
    focus = [i for i, d in enumerate(draws) if d.round == rounds - 1]
    return masks, draws, focus


@given(interval_instances())
def test_counter_matches_brute_force_over_every_tuple(instance):
    masks, draws, focus = instance
    from models.three_of_a_crime.counter import must_differ

    differ = [
        (i, j)
        for i in range(len(draws))
        for j in range(i + 1, len(draws))
        if must_differ(draws, i, j)
    ]
    want: Counter = Counter()
    for world in product(*(cards_of(m) for m in masks)):
        if all(world[i] != world[j] for i, j in differ):
            want[tuple(world[f] for f in focus)] += 1
    found = joint(masks, draws, focus)
    assert found.counts == dict(want)
    assert found.worlds == sum(want.values())
    assert joint(masks, draws, []).worlds == found.worlds


@st.composite
def one_variation_round(draw):
    """A single variation round from a true pair of cards: face-up cards in either space (with
    true tokens), wrong accusations, and perhaps Ana's own card logged."""
    mine, theirs = draw(st.lists(st.sampled_from(CARDS), min_size=2, max_size=2, unique=True))
    truth = {"Ana": mine, "Ben": theirs}
    pool = [c for c in CARDS if c not in (mine, theirs)]
    shown = draw(st.lists(st.sampled_from(pool), max_size=6, unique=True))
    events: list[dict] = [{"round": {"eyewitness": "both"}}]
    if draw(st.booleans()):
        events.append({"secret": card_names(mine)})
    for c in shown:
        space = draw(st.sampled_from(["Ana", "Ben"]))
        events.append(turned(c, overlap(c, truth[space]), space))
    for by in draw(st.lists(st.sampled_from(["Ana", "Ben"]), max_size=1)):  # both out: round over
        target = truth["Ben" if by == "Ana" else "Ana"]
        wrong = draw(st.sampled_from([c for c in CARDS if c != target]))
        events.append({"accuse": {"by": by, "suspects": card_names(wrong), "correct": False}})
    return events, (mine, theirs)


@given(one_variation_round())
def test_joint_posterior_of_a_variation_round_is_the_brute_force_over_pairs(case):
    events, truth = case
    log = log_of(variation(events))
    assert log.focus == [0, 1] and log.solving == 1  # Ana (me) solves Ben's card
    # brute force over all 35 x 35 pairs of different cards, every event read here
    pairs: Counter = Counter()
    for a, b in product(CARDS, CARDS):
        if a == b:
            continue
        ok = True
        for event in events:
            if "secret" in event:
                ok &= a == card(*[SUSPECT[n] for n in event["secret"]])
            elif "card" in event:
                shown = card(*[SUSPECT[n] for n in event["card"]])
                secret = a if event["eyewitness"] == "Ana" else b
                ok &= shown not in (a, b) and overlap(shown, secret) == event["token"]
            elif "accuse" in event:
                named = card(*[SUSPECT[n] for n in event["accuse"]["suspects"]])
                ok &= named != (b if event["accuse"]["by"] == "Ana" else a)
        if ok:
            pairs[a, b] += 1
    assert pairs[truth] == 1
    post = posterior(log.facts, log.draws, log.focus, log.solving)
    assert post.joint.counts == dict(pairs)
    assert post.worlds == len(pairs)
    marginal_b = Counter()
    for (_, b), n in pairs.items():
        marginal_b[b] += n
    assert post.card_counts == dict(marginal_b)
    # the joint is not a product: with A and B the cards each space allows alone, the worlds are
    # |A| |B| - |A & B| (the two cards are different), and P(b) is proportional to |A| - [b in A]
    alone_a = {a for a in CARDS if all(holds((a, a), f) for f in log.facts if f.secret == 0)}
    alone_b = {b for b in CARDS if all(holds((b, b), f) for f in log.facts if f.secret == 1)}
    assert post.worlds == len(alone_a) * len(alone_b) - len(alone_a & alone_b)
    for b, n in post.card_counts.items():
        assert n == len(alone_a) - (b in alone_a)
    if any("secret" in e for e in events):  # I know my card: Ben's is uniform over B minus it
        assert set(post.card_counts.values()) == {1}
        assert truth[0] not in post.card_counts


SUSPECT = {
    name: index
    for index, name in enumerate(
        [
            "Humpty Bumpty",
            "Jonny Cortex",
            "Kid Cassidy",
            "Loose-Eye Lenny",
            "Louie St. Louis",
            "No Neck Nick",
            "Pencil Top",
        ]
    )
}


variation_games = st.builds(
    lambda seed, rounds: (seed, *random_variation_game(random.Random(seed), rounds)),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=1, max_value=3),
)


@given(variation_games)
def test_simulated_variation_games_keep_the_truth_and_match_brute_force(game):
    _, doc, truths = game
    log = log_of(doc)
    assert all(holds(tuple(truths) + (CARDS[0],) * 4, f) for f in log.facts)
    post = posterior(log.facts, log.draws, log.focus, log.solving)
    assert post.worlds > 0
    if len(log.draws) == len(truths):  # the log stops inside its last round
        assert post.joint.counts.get(tuple(truths[s] for s in log.focus), 0) > 0
    brute = brute_joint(log)
    if brute is not None:
        assert post.joint.counts == dict(brute)
    if post.worlds <= 20_000:
        by_csp = Counter(
            tuple(w[s] for s in log.focus) for w in csp.solutions(log.facts, log.draws)
        )
        assert post.joint.counts == dict(by_csp)


@settings(max_examples=5)  # up to 35 CP-SAT solves each
@given(variation_games)
def test_cp_sat_possible_cards_match_the_counter_in_the_variation(game):
    _, doc, _ = game
    log = log_of(doc)
    post = posterior(log.facts, log.draws, log.focus, log.solving)
    knowledge = CrimeKnowledge(log.facts, log.draws)
    assert knowledge.possible(knowledge.secret_query(log.solving)) == set(post.card_counts)


classic_games = st.builds(
    lambda seed, rounds: (seed, *random_game(random.Random(seed), ["Ana", "Ben", "Cleo"], rounds)),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=1, max_value=3),
)


@given(st.one_of(variation_games, classic_games))
def test_replay_matches_solving_every_prefix(game):
    _, doc, _ = game
    history = GAME.replay(as_document(doc)).data["history"]
    assert len(history) == len(doc["events"]) + 1
    for step in history:
        solved = GAME.solve(as_document(doc), upto=step["event"]).data
        assert step["worlds"] == solved["worlds"]
        assert step["candidates"] == len(solved["candidates"])
        assert [r["candidates"] for r in step["rounds"]] == [
            len(r["candidates"]) for r in solved["rounds"]
        ]


# --- the next card in the variation ---------------------------------------------------------


def brute_next_card(log: Log) -> tuple[Fraction, Fraction, Fraction]:
    """Expected candidates, p(unique) and the wait value (D = 1) of the next card turned for the
    card being solved, over every (world, next card) pair: the card is any card still in the deck
    (not face up, and no secret out of the deck: both of this round's, every won card)."""
    focus = log.focus
    target = log.solving
    worlds = []
    allowed = [
        [
            c
            for c in CARDS
            if all(holds((c,) * len(log.draws), f) for f in log.facts if f.secret == s)
        ]
        for s in range(len(log.draws))
    ]
    differ = differ_pairs(log)
    out_now = {
        s for s in range(len(log.draws)) if s in focus or (min(s, target), max(s, target)) in differ
    }
    for world in product(*allowed):
        if all(world[a] != world[b] for a, b in differ):
            worlds.append(world)
    by_outcome: dict[tuple[Card, int], Counter] = defaultdict(Counter)
    pairs = 0
    for world in worlds:
        taken = {world[s] for s in out_now}
        for c in CARDS:
            if c in taken or c in log.current.face_up:
                continue
            by_outcome[c, overlap(c, world[target])][world[target]] += 1
            pairs += 1
    expected = unique = wait = Fraction(0)
    for secrets in by_outcome.values():
        p = Fraction(sum(secrets.values()), pairs)
        expected += p * len(secrets)
        if len(secrets) == 1:
            unique += p
            wait += p
        else:
            wait += Fraction(max(secrets.values()), pairs)
    return expected, unique, wait


@FEW
@given(variation_games)
def test_next_card_matches_brute_force_in_the_variation(game):
    _, doc, _ = game
    log = log_of(doc)
    if brute_joint(log, limit=3_000) is None:
        return
    post = posterior(log.facts, log.draws, log.focus, log.solving)
    upcoming = advice.next_card(log, post, advice.detectives_in(log))
    assert advice.detectives_in(log) == 1
    assert upcoming is not None
    expected, unique, wait = brute_next_card(log)
    assert (upcoming.expected_candidates, upcoming.p_unique, upcoming.wait_value) == (
        expected,
        unique,
        wait,
    )


# --- the bundled example, by hand -----------------------------------------------------------


def example() -> dict:
    return yaml.safe_load((EXAMPLE / "variation-for-two.yaml").read_text(encoding="utf-8"))


def test_the_bundled_example_by_hand():
    # Ben's space: HB JC KC -> 1, LEL LSL NNN -> 1, JC NNN PT -> 1 allow 4 cards for Ben's card:
    # HB LEL PT, HB LSL PT, KC LEL PT, KC LSL PT. Ana's space: JC KC NNN -> 0, HB LSL NNN -> 1
    # allow HB LEL PT and LEL LSL PT for Ana's. The cards differ: 2 * 4 - 1 = 7 pairs.
    data = example()
    hidden = {**data, "events": [e for e in data["events"] if "secret" not in e]}
    solved = GAME.solve(as_document(hidden)).data
    assert solved["variation"] and solved["secret_of"] == "Ben" and solved["worlds"] == 7
    ben = dict(zip(map(tuple, solved["candidates"]), solved["candidate_probability"], strict=True))
    assert ben[("Humpty Bumpty", "Loose-Eye Lenny", "Pencil Top")] == round(1 / 7, 6)
    assert ben[("Kid Cassidy", "Loose-Eye Lenny", "Pencil Top")] == round(2 / 7, 6)
    ana, ben_entry = solved["rounds"]
    assert (ana["eyewitness"], ana["solving"], ben_entry["solving"]) == ("Ana", False, True)
    # Ana's HB LEL PT goes with 3 of Ben's cards (not itself), LEL LSL PT with all 4
    assert len(ana["candidates"]) == 2 and ana["candidate_probability"] == [
        round(3 / 7, 6),
        round(4 / 7, 6),
    ]
    # with Ana's own card logged, it is not Ben's: 3 cards, 1/3 each
    solved = GAME.solve(as_document(data)).data
    assert solved["worlds"] == 3 and solved["candidate_probability"] == [round(1 / 3, 6)] * 3
    assert solved["rounds"][0]["known"] and solved["rounds"][0]["candidates"] == [
        ["Humpty Bumpty", "Loose-Eye Lenny", "Pencil Top"]
    ]
    # Ben knows his card, which is never Ana's: he sees 2 cards for hers, minus his own if it is
    # one of them (it never is here: HB LEL PT is Ana's)
    assert solved["opponent"] == {"player": "Ben", "expected_candidates": 2.0, "p_certain": 0.0}


def test_an_analyst_without_me_solves_the_second_players_card():
    data = example()
    data.pop("me")
    data["events"] = [e for e in data["events"] if "secret" not in e]
    solved = GAME.solve(as_document(data)).data
    assert solved["secret_of"] == "Ben" and "opponent" not in solved


# --- the log form ------------------------------------------------------------------------------


def test_later_rounds_cards_and_won_cards_in_the_variation():
    # round 1: Ana names Ben's card HB JC KC (it leaves the deck); Ana's own, LEL LSL NNN, goes
    # back into it. Round 2, Ben's space: HB JC LEL -> 2 fits two of them and one of the other
    # four (12 cards), less the won card. LSL NNN PT -> 2 fits LEL LSL NNN: it is back.
    won, returned = card(HB, JC, KC), card(LEL, LSL, NNN)
    events = [
        {"round": {"eyewitness": "both"}},
        {"secret": card_names(returned)},
        {"accuse": {"by": "Ana", "suspects": card_names(won), "correct": True}},
        {"won": {"by": "Ana"}},
    ]
    first = log_of(variation([*events, turned(card(HB, JC, LEL), 2, "Ben")]))
    assert [r.variation for r in first.rounds] == [("Ana", "Ben"), ("Ana", "Ben")]
    assert first.draws == [Draw(0, False), Draw(0, True), Draw(1), Draw(1)]
    post = posterior(*_args(first))
    assert won not in post.card_counts and len(post.card_counts) == 11
    second = log_of(variation([*events, turned(card(LSL, NNN, PT), 2, "Ben")]))
    assert returned in posterior(*_args(second)).card_counts


def _args(log: Log):
    return log.facts, log.draws, log.focus, log.solving


def test_both_out_puts_both_cards_back():
    events = [
        {"round": {"eyewitness": "both"}},
        {"accuse": {"by": "Ana", "suspects": ["HB", "JC", "KC"], "correct": False}},
        {"accuse": {"by": "Ben", "suspects": ["HB", "JC", "LEL"], "correct": False}},
    ]
    log = log_of(variation(events))
    assert len(log.rounds) == 2 and log.draws[:2] == [Draw(0, False), Draw(0, False)]
    # round 1: 34 * 34 pairs minus the 33 equal ones; round 2: 35 * 34 (nothing left the deck)
    post = posterior(*_args(log))
    assert post.worlds == (34 * 34 - 33) * 35 * 34
    assert set(post.card_counts.values()) == {(34 * 34 - 33) * 34}


@pytest.mark.parametrize(
    ("events", "players", "message"),
    [
        ([{"round": {"eyewitness": "both"}}], ["Ana", "Ben", "Cleo"], "needs 'players:' with two"),
        (
            [{"round": {"eyewitness": "both"}}, {"card": ["HB", "JC", "KC"], "token": 1}],
            None,
            "say whose card it is: eyewitness: Ana or Ben",
        ),
        (
            [
                {"round": {"eyewitness": "both"}},
                {"accuse": {"suspects": ["HB", "JC", "KC"], "correct": False}},
            ],
            None,
            "say who accuses",
        ),
        (
            [
                {"round": {"eyewitness": "both"}},
                {"accuse": {"by": "Ana", "suspects": ["HB", "JC", "KC"], "correct": False}},
                {"accuse": {"by": "Ana", "suspects": ["HB", "JC", "LEL"], "correct": False}},
            ],
            None,
            "Ana made a wrong accusation at event 2",
        ),
        (
            [{"round": {"eyewitness": "both"}}, turned(card(HB, JC, KC), 1, "Cleo")],
            None,
            "unknown player 'Cleo'",
        ),
    ],
)
def test_variation_errors(events, players, message):
    data = variation(events)
    if players:
        data["players"] = players
    with pytest.raises(InputError, match=message):
        log_of(data)


def test_secret_needs_to_know_whose_card():
    events = [{"round": {"eyewitness": "both"}}, {"secret": ["HB", "JC", "KC"]}]
    with pytest.raises(InputError, match="whose card is it"):
        log_of(variation(events, me=None))
    named = [events[0], {"secret": {"eyewitness": "Ben", "card": ["HB", "JC", "KC"]}}]
    log = log_of(variation(named, me=None))
    assert posterior(*_args(log)).card_counts == {card(HB, JC, KC): 34}


def test_the_classic_two_player_log_still_works_and_accepts_eyewitness_on_cards():
    data = yaml.safe_load((EXAMPLE / "two-player.yaml").read_text(encoding="utf-8"))
    before = GAME.solve(as_document(data)).data
    assert not before["variation"] and len(before["rounds"]) == 1
    assert before["rounds"][0]["eyewitness"] == "Ana" and before["rounds"][0]["solving"]
    for event in data["events"]:
        if "card" in event:
            event["eyewitness"] = "Ana"
    assert GAME.solve(as_document(data)).data["candidates"] == before["candidates"]
    data["events"][1]["eyewitness"] = "Ben"
    with pytest.raises(InputError, match="Ben is not the eyewitness of round 1"):
        GAME.solve(as_document(data))


def test_my_own_secret_in_a_classic_round():
    events = [{"round": {"eyewitness": "Ana"}}, {"secret": ["HB", "JC", "KC"]}]
    data = {"game": "three-of-a-crime", "players": ["Ana", "Ben", "Cleo"], "me": "Ana"}
    solved = GAME.solve(as_document({**data, "events": events})).data
    assert solved["candidates"] == [["Humpty Bumpty", "Jonny Cortex", "Kid Cassidy"]]
    with pytest.raises(InputError, match="Ana is not an eyewitness of round 1"):
        GAME.solve(as_document({**data, "events": [{"round": {"eyewitness": "Ben"}}, events[1]]}))


def test_the_deck_runs_out():
    # 34 rounds won with known cards leave one card: a 35th round can only be that card, and a
    # 36th cannot start; a variation round needs two cards
    events: list[dict] = []
    for c in CARDS[:34]:
        events += [{"round": {}}, {"won": {"by": "Ana", "card": card_names(c)}}]
    doc = {"game": "three-of-a-crime", "players": ["Ana", "Ben", "Cleo"], "events": events}
    assert GAME.solve(as_document(doc)).data["candidates"] == [card_names(CARDS[34])]
    with pytest.raises(InputError, match="round 36 cannot start: 0 card"):
        log_of({**doc, "events": [*events, {"round": {}}, {"won": {"by": "Ana"}}, {"round": {}}]})
    turn = {"card": card_names(CARDS[34]), "token": 0}
    with pytest.raises(InputError, match="no card is left in the deck to turn"):
        log_of({**doc, "events": [*events, {"round": {}}, turn]})


def test_too_many_interacting_unknown_cards_are_refused_in_one_line():
    # rounds won unseen, each with one wrong accusation: wide, different sets of cards
    events: list[dict] = []
    for r in range(FREE_LIMIT + 1):
        events += [
            {"accuse": {"suspects": card_names(CARDS[r]), "correct": False}},
            {"won": {"by": "Ana"}},
        ]
    doc = {"game": "three-of-a-crime", "players": ["Ana", "Ben", "Cleo"], "events": events}
    with pytest.raises(TooManyUnknowns, match=f"at most {FREE_LIMIT}"):
        GAME.solve(as_document(doc))
    # within the limit it is counted exactly: rounds pairwise different, each avoiding its card
    shorter = {**doc, "events": events[: 2 * 4]}
    masks = [ALL & ~BIT[CARDS[r]] for r in range(4)] + [ALL]
    assert GAME.solve(as_document(shorter)).data["worlds"] == joint(masks, 5, []).worlds


def test_two_variation_rounds_of_a_classic_game_mix():
    # a classic round, then the variation (players: two)
    doc, _ = random_game(random.Random(4), ["Ana", "Ben"], 1)
    doc["events"] += [{"round": {"eyewitness": "both"}}]
    log = log_of(doc)
    assert log.current.variation == ("Ana", "Ben") and len(log.focus) == 2


# --- session short forms and puzzles ---------------------------------------------------------


def test_session_short_forms():
    assert GAME.parse_line("round both") == {"round": {"eyewitness": "both"}}
    assert GAME.parse_line("card KC PT NNN 1 Ben") == {
        "card": ["Kid Cassidy", "Pencil Top", "No Neck Nick"],
        "token": 1,
        "eyewitness": "Ben",
    }
    assert GAME.parse_line("card KC PT NNN 1") == {
        "card": ["Kid Cassidy", "Pencil Top", "No Neck Nick"],
        "token": 1,
    }
    assert GAME.parse_line("secret HB LEL PT") == {
        "secret": ["Humpty Bumpty", "Loose-Eye Lenny", "Pencil Top"]
    }
    assert GAME.parse_line("secret Ben HB LEL PT") == {
        "secret": {"eyewitness": "Ben", "card": ["Humpty Bumpty", "Loose-Eye Lenny", "Pencil Top"]}
    }
    with pytest.raises(InputError, match="usage: card"):
        GAME.parse_line("card KC PT 1")


def test_a_variation_puzzle_is_checked_for_the_card_asked():
    data = example()
    puzzle = {
        "game": "three-of-a-crime",
        "players": ["Ana", "Ben"],
        "me": "Ana",
        "puzzle": {"given": data["events"], "question": "secret"},
    }
    report = GAME.check(as_document(puzzle))
    assert not report.data["unique"] and report.exit_code == 1  # 3 cards left for Ben's
    assert report.data["secret_of"] == "Ben"
    # Ana's own card is given: asking for it is unique, and only the `secret` clue is needed
    puzzle["puzzle"]["question"] = {"secret": "Ana"}
    report = GAME.check(as_document(puzzle))
    assert report.data["unique"] and report.data["secret_of"] == "Ana"
    assert report.data["answer"] == ["Humpty Bumpty", "Loose-Eye Lenny", "Pencil Top"]
    assert report.data["minimal"] == [1]


@settings(max_examples=10)
@given(st.sampled_from(["classic", "variation"]), st.integers(0, 2**32 - 1), st.data())
def test_the_counter_consistency_check_used_to_shrink_conflicts_is_cp_sats(kind, seed, data):
    # a simulated game with one token changed (often contradictory), and random sets of its events
    rng = random.Random(seed)
    if kind == "classic":
        doc, _ = random_game(rng, ["Ana", "Ben", "Cleo"], rng.randint(1, 3), reveal_won=0.5)
    else:
        doc, _ = random_variation_game(rng, rng.randint(1, 2))
    cards = [i for i, e in enumerate(doc["events"]) if "card" in e]
    if cards:
        i = data.draw(st.sampled_from(cards))
        doc["events"][i] = {**doc["events"][i], "token": (doc["events"][i]["token"] + 1) % 3}
    log = log_of(doc)
    knowledge = CrimeKnowledge(log.facts, log.draws)
    events = list(range(1, log.events + 1))
    for _ in range(5):
        subset = sorted(data.draw(st.sets(st.sampled_from(events))) if events else set())
        assert knowledge.consistent_by_count(subset) == knowledge.consistent(subset), subset
    core = knowledge.conflict()
    assert (core == []) == knowledge.consistent()
    for event in core:  # minimal: every event of the core is needed (checked by CP-SAT)
        assert knowledge.consistent([e for e in core if e != event])
