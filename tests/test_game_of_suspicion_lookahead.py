"""Game of Suspicion look-ahead (lookahead.py): the incremental posterior equals solving the longer
log again, a world dealt onto a table is that world, worlds are drawn by their exact weights,
candidates share their samples, and a look-ahead with nothing random in it is exact."""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from models import GAMES
from models.game_of_suspicion import lookahead
from models.game_of_suspicion.advice import chain_value
from models.game_of_suspicion.selfplay import head_to_head, policies
from models.game_of_suspicion.simulate import random_game
from solver.errors import InputError
from solver.logfile import Document

GAME = GAMES["game-of-suspicion"]


def posterior(doc: dict):
    return GAME.posterior(Document(doc))  # type: ignore[attr-defined]


def prefixes(players: int, seed: int, count: int, events: int = 8):
    """Logs of simulated rounds where P1 is still playing."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        doc, truths = random_game(rng, players=players, me="P1", events=events)
        if "P1" in posterior(doc).round.active and len(doc["events"]) == events:
            found.append((doc, truths))
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_the_extended_posterior_equals_solving_the_longer_log(players):
    for doc, _ in prefixes(players, seed=players, count=5 - players, events=9):
        short = {**doc, "events": doc["events"][:6]}
        post = posterior(short)
        after = lookahead.Extender(Document(short), post).after(doc["events"][6:])
        assert after.belief.worlds_list() == posterior(doc).belief.worlds_list()
        assert after.round.hand_size == posterior(doc).round.hand_size


def test_a_world_dealt_onto_a_table_is_that_world():
    for doc, truths in prefixes(3, seed=7, count=3):
        post = posterior(doc)
        belief = post.belief.resolved()
        places = post.round.setup.places
        true = tuple(tuple(truths[-1][p]) for p in places)
        for i in range(len(belief.weights)):
            table = lookahead.table_of(post, belief.counts[i])
            world = tuple(tuple(table.truth()[p]) for p in places)
            assert Counter(map(len, world)) == Counter(map(len, true))
            dealt = Counter(table.deck.cards(table.advanced)) - table.public()
            for hand in table.hands.values():
                dealt.subtract(hand)
            for cards in table.middle.values():
                dealt.subtract(cards)
            assert not +dealt and not -dealt  # every card of the deck exactly once
        assert any(
            tuple(tuple(lookahead.table_of(post, belief.counts[i]).truth()[p]) for p in places)
            == true
            for i in range(len(belief.weights))
        )


def test_worlds_are_drawn_by_their_exact_weights():
    doc, _ = prefixes(3, seed=3, count=1, events=4)[0]
    belief = posterior(doc).belief.resolved()
    total = sum(int(w) for w in belief.weights)
    assert len(belief.weights) > 6
    worlds = []
    for seed in range(400):  # 400 look-aheads of 10 draws: 4,000 worlds
        drawn, weights, enumerated = lookahead.draws(belief, random.Random(seed), 10)
        assert not enumerated and sum(weights) == 1
        worlds += drawn
    post = posterior(doc)
    keys = belief.hand_keys(post.place("P2"))  # one opponent's hand: a coarser, checkable view
    drawn = Counter(int(keys[i]) for i in worlds)
    for key, p in belief.distribution(keys).items():
        spread = float(p * (1 - p) / 4000) ** 0.5
        assert abs(drawn[key] / 4000 - float(p)) <= 5 * spread + 2 / 4000
    few, shares, enumerated = lookahead.draws(belief, random.Random(1), 2 * len(belief.weights))
    assert enumerated and sum(shares) == 1
    share: dict[int, Fraction] = {}
    for world, s in zip(few, shares, strict=True):
        share[world] = share.get(world, Fraction(0)) + s
    assert share == {i: Fraction(int(w), total) for i, w in enumerate(belief.weights)}


def test_identical_candidates_get_identical_values():
    """Common random numbers: the same worlds and streams for every candidate."""
    doc, _ = prefixes(3, seed=5, count=1)[0]
    post = posterior(doc)

    def twice(post):
        first = lookahead.candidates(post)[1]
        return [first, (first[0] + " again", first[1], first[2])]

    found = lookahead.look_ahead(Document(doc), post, samples=6, candidates_of=twice)
    assert found[0].points == found[1].points and found[0].se == found[1].se


def test_a_certain_guess_that_ends_the_round_is_exact():
    """One hidden world left: guessing both hands is certain, the round ends on my turn, and
    the look-ahead has nothing random in it: the value is the cards scored, error 0."""
    rng = random.Random(14)
    for _ in range(50):
        doc, _ = random_game(rng, players=3, me="P1", events=8)
        post = posterior(doc)
        if "P1" in post.round.active and post.belief.worlds == 1 and len(post.opponents) == 2:
            break
    else:
        pytest.fail("no state with one hidden world")
    cards = sum(post.round.hand_size[p] for p in post.opponents)
    places = {p: (post.place(p), post.round.hand_size[p]) for p in post.opponents}
    assert chain_value(post.belief, places) == cards
    found = lookahead.look_ahead(Document(doc), post, samples=4)
    guess = next(a for a in found if "guess" in a.intent)
    assert guess.points == cards and guess.se == 0.0
    assert found[0] is guess


def test_suggest_adds_the_look_ahead_and_horizon_1_leaves_it_out():
    doc, _ = prefixes(3, seed=11, count=1)[0]
    report = GAME.suggest(Document(doc))
    ahead = report.data["lookahead"]
    assert ahead["opponent_policy"] and ahead["opponent_turns"] == 2
    values = [c["points"] for c in ahead["candidates"]]
    assert (
        values == sorted(values, reverse=True) and ahead["best"] == ahead["candidates"][0]["event"]
    )
    assert all(c["standard_error"] >= 0 for c in ahead["candidates"])
    assert any("look-ahead: my move, 2 opponent turns, my next turn" in x for x in report.lines)
    one = GAME.suggest(Document(doc), horizon=1)
    assert "lookahead" not in one.data and one.data["actions"] == report.data["actions"]
    with pytest.raises(InputError, match="--horizon 2"):
        GAME.suggest(Document(doc), horizon=3)


def test_a_huge_belief_keeps_the_one_step_advice():
    doc = {
        "game": "game-of-suspicion",
        "players": ["Ana", "Ben", "Cleo", "Dan"],
        "me": "Ana",
        "events": [{"deal": {"hand": [0, 1, 5, 7]}}],
    }
    report = GAME.suggest(Document(doc))
    assert report.data["lookahead"] is None
    assert any("look-ahead skipped" in line for line in report.lines)


def test_head_to_head_plays_rounds_and_the_default_run_is_unchanged():
    assert policies(None) == ["advice", "random"]
    margins = head_to_head(random.Random(2), 1, "head-to-head-3")
    assert margins.games == 1
    mean, low, high = margins.interval()
    assert low <= mean <= high


# -- issue 30: only the moves the rules allow, and one valuation for every line ----------------

# I have just guessed Ben's hand right and may guess again (the log)
GUESSED_RIGHT = {
    "game": "game-of-suspicion",
    "players": ["Ana", "Ben", "Cleo", "Dan"],
    "me": "Ana",
    "events": [
        {"deal": {"hand": [0, 1, 5, 7]}},
        {"look": {"slot": "left", "saw": 0}},
        {"look": {"by": "Ben", "slot": "right", "exchanged": False}},
        {"play": {"by": "Cleo", "card": 2, "showed": ["Ana", "Ben", "Dan"]}},
        {"play": {"by": "Dan", "card": 4, "shown": {"Ana": 2, "Ben": 1, "Cleo": 1}}},
        {"play": {"by": "Ana", "card": 5, "shown": {"Ben": [8], "Cleo": [], "Dan": [6]}}},
        {
            "play": {
                "by": "Ben",
                "card": 3,
                "target": "Cleo",
                "guesses": [[0, 2, 9], [0, 0, 9]],
                "correct": True,
            }
        },
        {"guess": {"by": "Dan", "target": "Ben", "correct": False, "cards": [1, 1, 8]}},
        {"play": {"by": "Ana", "card": 1, "named": 8, "holder": "Ben", "gave": 0}},
        {"play": {"by": "Ben", "card": 0, "between": ["Ana", "Dan"], "gave": 7, "got": 1}},
        {"look": {"by": "Dan", "slot": "left", "exchanged": True}},
        {"guess": {"by": "Ana", "target": "Ben", "correct": True, "cards": [0, 1]}},
    ],
}


def every_text(report) -> list[str]:
    """Everything a player reads of a report: its lines and every cell of its tables."""
    cells = [cell for table in report.tables for row in table.rows for cell in row]
    return [*report.lines, *[t.title for t in report.tables], *cells]


def test_after_a_right_guess_only_another_guess_or_the_end_of_the_turn_is_offered():
    for horizon in (1, None):
        report = GAME.suggest(Document(GUESSED_RIGHT), horizon=horizon)
        assert report.data["after_right_guess"] is True
        assert report.data["actions"] == []  # no look, no card: the rules allow none now
        actions = [t for t in every_text(report) if re.search(r"look at the|play \d", t)]
        assert not actions, actions
        assert [t.title for t in report.tables][0] == "Best guess at each opponent"
        assert report.data["advice"] in ("guess", "end turn")
    ahead = GAME.suggest(Document(GUESSED_RIGHT)).data["lookahead"]
    events = [c["event"] for c in ahead["candidates"]]
    assert None in events and all(e is None or "guess" in e for e in events)


def test_the_one_step_summary_and_advice_after_a_right_guess_agree():
    report = GAME.suggest(Document(GUESSED_RIGHT), horizon=1)
    data = report.data
    summary, advice = report.lines[0], report.lines[1]
    assert "may guess again or end my turn" in summary
    assert f"{data['guess_now_points']:.2f}" in summary and f"{data['wait_points']:.2f}" in summary
    guess = data["guess_now_points"] >= data["wait_points"]
    assert data["advice"] == ("guess" if guess else "end turn")
    assert advice.startswith("advice: GUESS" if guess else "advice: end my turn")


def look_ahead_parts(report):
    table = next(t for t in report.tables if t.title.startswith("Look-ahead"))
    summary = next(line for line in report.lines if "expected points to my next turn" in line)
    advice = next(line for line in report.lines if line.startswith("advice:"))
    return table, summary, advice


@pytest.mark.parametrize("doc", [GUESSED_RIGHT, *[d for d, _ in prefixes(3, seed=30, count=4)]])
def test_the_summary_the_advice_and_the_table_come_from_the_look_ahead(doc):
    """Every line a player reads gives the look-ahead's values when it is on: the advice is the
    table's best row, the summary's numbers are the table's, and a line says so whenever the
    look-ahead's choice is not the one-step's best."""
    report = GAME.suggest(Document(doc))
    ahead = report.data["lookahead"]
    table, summary, advice = look_ahead_parts(report)
    best = ahead["candidates"][0]
    assert table.rows[0][0] == best["action"] and ahead["best"] == best["event"]
    assert f"({best['points']:.2f} ± {best['standard_error']:.2f} points" in advice
    guess = next(c for c in ahead["candidates"] if c["event"] and "guess" in c["event"])
    assert f"{guess['action']} now {guess['points']:.2f} ± " in summary
    assert not any(line.startswith("guess now:") for line in report.lines)  # the one-step line
    one_step_best = max(ahead["candidates"], key=lambda c: c["one_step_points"])
    overrides = [line for line in report.lines if "overrides the one-step values" in line]
    if one_step_best["one_step_points"] > best["one_step_points"]:
        assert overrides and one_step_best["action"] in overrides[0]
    else:
        assert not overrides
    word = "guess" if best["event"] and "guess" in best["event"] else None
    assert report.data["advice"] == (word or ("end turn" if best["event"] is None else "act"))


def test_a_player_reads_no_internal_names():
    for doc in (GUESSED_RIGHT, prefixes(3, seed=31, count=1)[0][0]):
        report = GAME.suggest(Document(doc))
        texts = [*every_text(report), report.data["lookahead"]["opponent_policy"]]
        assert not any(".py" in text or "bot" in text for text in texts), texts


def test_the_bots_after_a_right_guess_guess_again_or_end_the_turn():
    """Self-play's advice bot and the look-ahead bot choose among the same two moves."""
    data = GAME.suggest(Document(GUESSED_RIGHT), horizon=1).data
    intent = lookahead.one_step_intent(posterior(GUESSED_RIGHT))
    if data["guess_now_points"] >= data["wait_points"]:
        assert intent is not None and "guess" in intent
    else:
        assert intent is None
    chosen = lookahead.lookahead_intent(Document(GUESSED_RIGHT), posterior(GUESSED_RIGHT))
    assert chosen is None or "guess" in chosen
