"""Game of Suspicion end to end through the Typer app: solve, replay, suggest, check, generate, new,
bad input and contradictions, and the interactive session through a pipe. Probabilities are
checked against values worked out by hand (hypergeometric draws of identical 0s and 1s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "game-of-suspicion"
runner = CliRunner()

# Ana holds 0 1 2 4, the shadow 3 5 6 7; Ana's card 4 shows her Ben's 9 and Cleo's 8. The other
# six hidden cards are four 0s, four 1s less what Ben and Cleo hold: Ben's three others are a
# uniform 3-subset of the eight physical 0s and 1s, so P(two 0s and a 1) = C(4,2)·4 / C(8,3) = 3/7.
SHOWN = {
    "game": "game-of-suspicion",
    "players": ["Ana", "Ben", "Cleo"],
    "me": "Ana",
    "events": [
        {"deal": {"hand": [0, 1, 2, 4], "shadow": [3, 5, 6, 7]}},
        {"play": {"card": 4, "shown": {"Ben": [9], "Cleo": [8]}}},
    ],
}


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def invoke_json(*args: object, exit_code: int = 0):
    result = invoke(*args, "--json")
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return json.loads(result.stdout)


def write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def one_error_line(result, exit_code: int) -> str:
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_solve_gives_hypergeometric_hand_probabilities(tmp_path):
    data = invoke_json("solve", write(tmp_path / "log.yaml", SHOWN))
    assert data["game"] == "game-of-suspicion" and data["consistent"] and data["events"] == 2
    ben = {tuple(h["cards"]): h["p"] for h in data["hands"]["Ben"]}
    assert ben == {
        (0, 0, 1, 9): round(3 / 7, 6),
        (0, 1, 1, 9): round(3 / 7, 6),
        (0, 0, 0, 9): round(1 / 14, 6),
        (1, 1, 1, 9): round(1 / 14, 6),
    }
    assert data["card_holder"]["9"] == {"Ben": 1.0}
    assert data["card_holder"]["8"] == {"Cleo": 1.0}
    assert data["card_holder"]["4"] == {"face up (Ana)": 1.0}
    assert data["certain"]["Ben"]["holds"] == [9] and 8 in data["certain"]["Ben"]["lacks"]
    # P(left holds a 0) = 4/8: one of the 8 physical 0s and 1s, uniformly
    assert data["card_holder"]["0"]["left"] == 0.5
    # worlds: 0s held by Ben, Cleo (0-3 each) and the slots (0-1 each), four 0s in all: 14 ways
    assert data["worlds"] == 14


def test_solve_upto_and_replay_follow_the_log(tmp_path):
    log = write(tmp_path / "log.yaml", SHOWN)
    before = invoke_json("solve", log, "--upto", 1)
    assert before["card_holder"]["9"]["Ben"] == pytest.approx(4 / 10, abs=1e-6)
    replay = invoke_json("replay", log)
    assert [h["event"] for h in replay["history"]] == [1, 2]
    assert replay["history"][-1]["best_hands"]["Ben"]["p"] == round(3 / 7, 6)


def test_template_is_a_consistent_log_and_suggest_ranks_actions(tmp_path):
    result = invoke("new", "game-of-suspicion")
    assert result.exit_code == 0
    log = tmp_path / "new.yaml"
    log.write_text(result.stdout, encoding="utf-8")
    solved = invoke_json("solve", log)
    assert solved["consistent"] and solved["worlds"] > 0
    advice = invoke_json("suggest", log)
    assert advice["advice"] in ("guess", "act")
    points = [a["points"] for a in advice["actions"]]
    assert points == sorted(points, reverse=True)
    best = advice["guesses"][0]
    assert 0 < best["p"] <= 1 and best["target"] in ("Ben", "Cleo", "Dan")


def test_suggest_prefers_the_action_that_reveals(tmp_path):
    """With only card 1 (naming 9) and a look left, naming 9 tells who holds the 9; the advice
    values it by the exact guess probability it buys."""
    data = invoke_json("suggest", write(tmp_path / "log.yaml", SHOWN))
    named = [a for a in data["actions"] if a["action"].startswith("play 1 naming")]
    assert named and all(0 <= a["p_guess_next"] <= 1 for a in named)
    assert data["guesses"][0]["p"] == round(3 / 7, 6)


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        ({"play": {"by": "Ben", "card": 4, "shown": {"Ana": 0, "Cleo": 0}}}, "cannot hold a 4"),
        ({"guess": {"by": "Ben", "target": "Cleo", "cards": [0, 1]}}, "names 4 numbers"),
        ({"play": {"by": "Ben", "card": 11}}, "no card 11"),
        ({"look": {"by": "Bne", "slot": "left", "exchanged": True}}, "did you mean 'Ben'"),
        ({"play": {"by": "Ben", "card": 7, "out": {}}}, "first round"),
    ],
)
def test_bad_events_are_one_line_naming_the_event(tmp_path, event, fragment):
    data = {**SHOWN, "events": [*SHOWN["events"], event]}
    line = one_error_line(invoke("solve", write(tmp_path / "log.yaml", data)), 2)
    assert "event 3" in line and fragment in line


def test_contradiction_names_the_conflicting_events(tmp_path):
    """Ben showed Ana only the 9 of his cards over 4 (event 2), so he cannot be the holder of
    the 8 named with card 1 (event 4); Ben's look (event 3), kept, plays no part."""
    events = [*SHOWN["events"], {"look": {"by": "Ben", "slot": "left", "exchanged": False}}]
    events.append({"play": {"by": "Cleo", "card": 1, "named": 8, "holder": "Ben"}})
    result = invoke("solve", write(tmp_path / "log.yaml", {**SHOWN, "events": events}), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["conflicting_events"] == [2, 4]


def test_check_unique_and_not_unique(tmp_path):
    puzzle = {
        "game": "game-of-suspicion",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "options": {"turn_order": "free"},  # Cleo guesses three times running
        "puzzle": {
            "given": [
                *SHOWN["events"],
                {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 0, 1, 9], "correct": False}},
                {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 1, 1, 9], "correct": False}},
                {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 0, 0, 9], "correct": False}},
            ],
            "question": {"hand": "Ben"},
            "answer": [1, 1, 1, 9],
        },
    }
    data = invoke_json("check", write(tmp_path / "p.yaml", puzzle))
    assert data["unique"] and data["answer"] == [1, 1, 1, 9] and data["answer_matches"]
    assert data["minimal"] == [1, 2, 3, 4] and data["redundant"] == []  # the deal is not a clue
    puzzle["puzzle"]["given"] = puzzle["puzzle"]["given"][:4]
    del puzzle["puzzle"]["answer"]
    data = invoke_json("check", write(tmp_path / "p.yaml", puzzle), exit_code=1)
    assert not data["unique"] and len(data["witnesses"]) == 2
    hands = {tuple(w["answer"]) for w in data["witnesses"]}
    assert hands <= {(0, 0, 0, 9), (1, 1, 1, 9)} and len(hands) == 2


def test_generated_puzzles_check_unique(tmp_path):
    result = invoke("generate", "game-of-suspicion", "--count", 2, "--seed", 3)
    assert result.exit_code == 0, result.stderr
    for puzzle in yaml.safe_load_all(result.stdout):
        path = write(tmp_path / "g.yaml", puzzle)
        data = invoke_json("check", path)
        assert data["unique"] and data["answer_matches"]


def test_session_through_a_pipe_saves_every_event(tmp_path):
    log = tmp_path / "session.yaml"
    lines = [
        "players Ana Ben Cleo",
        "me Ana",
        "deal 0 1 2 4 shadow 3 5 6 7",
        "play: {card: 4, shown: {Ben: [9], Cleo: [8]}}",
        "look Ben left sideways",  # refused: kept under rejected
        "look Ben left kept",
        "undo",
        "quit",
    ]
    env = {**os.environ, "COLUMNS": "120"}
    subprocess.run(
        [sys.executable, "-m", "cli.app", "play", "game-of-suspicion", "--log", str(log)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    saved = yaml.safe_load(log.read_text(encoding="utf-8"))
    assert saved["events"] == [
        {"deal": {"hand": [0, 1, 2, 4], "shadow": [3, 5, 6, 7]}},
        {"play": {"card": 4, "shown": {"Ben": [9], "Cleo": [8]}}},
    ]
    data = invoke_json("solve", log)
    assert Fraction(data["hands"]["Ben"][0]["p"]).limit_denominator(100) == Fraction(3, 7)


def test_example_logs_solve(tmp_path):
    for path in sorted(EXAMPLES.glob("*.yaml")):
        command = (
            "check" if "puzzle" in yaml.safe_load(path.read_text(encoding="utf-8")) else "solve"
        )
        result = invoke(command, path, "--json")
        assert result.exit_code == 0, (path, result.stdout, result.stderr)


def test_replay_covers_every_round(tmp_path):
    """A log of two rounds (the first ends when one player guesses every hand): replay shows
    every event, and the second round starts again from its deal."""
    import random

    from models.game_of_suspicion.simulate import random_game

    doc, _ = random_game(random.Random(4), players=3, me="P1", events=6, round_number=2)
    data = invoke_json("replay", write(tmp_path / "two.yaml", doc))
    assert [h["event"] for h in data["history"]] == list(range(1, len(doc["events"]) + 1))
    rounds = [h["round"] for h in data["history"]]
    assert rounds == sorted(rounds) and set(rounds) == {1, 2}
    second = next(i for i, h in enumerate(data["history"]) if h["round"] == 2)
    assert "deal" in doc["events"][second]
    solved = invoke_json("solve", tmp_path / "two.yaml")
    assert solved["round"] == 2 and solved["worlds"] == data["history"][-1]["worlds"]


def test_check_who_holds_a_value(tmp_path):
    """Ana's card 4 shows her Ben's 9: "who holds the 9?" is Ben, and the deal alone is not
    enough (the 9 could be anywhere hidden)."""
    puzzle = {
        "game": "game-of-suspicion",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "puzzle": {"given": SHOWN["events"], "question": "holder: 9", "answer": ["Ben"]},
    }
    data = invoke_json("check", write(tmp_path / "p.yaml", puzzle))
    assert data["unique"] and data["answer"] == ["Ben"] and data["minimal"] == [1]
    puzzle["puzzle"]["given"] = SHOWN["events"][:1]
    del puzzle["puzzle"]["answer"]
    data = invoke_json("check", write(tmp_path / "p.yaml", puzzle), exit_code=1)
    assert len({tuple(w["answer"]) for w in data["witnesses"]}) == 2


def test_a_sixth_zero_and_an_empty_hand_are_clear_errors(tmp_path):
    """All five 0s are in view (my hand and the shadow): nobody else can play one. A player who
    played their last card (a 9 may be played alone) has nothing left to play."""
    zeros = {
        **SHOWN,
        "events": [
            {"deal": {"hand": [0, 0, 1, 2], "shadow": [0, 0, 0, 3]}},
            {"play": {"by": "Ben", "card": 0, "between": ["Ana", "Cleo"], "gave": 1, "got": 5}},
        ],
    }
    line = one_error_line(invoke("solve", write(tmp_path / "zeros.yaml", zeros)), 2)
    assert "event 2" in line and "cannot hold a 0" in line and "all 5" in line
    empty = {
        **SHOWN,
        "options": {"turn_order": "free"},  # Ben plays every turn: the cards are tested here
        "events": [
            {"deal": {"hand": [0, 0, 1, 1], "shadow": [0, 1, 4, 5]}},
            {"play": {"by": "Ben", "card": 2, "showed": []}},
            {"play": {"by": "Ben", "card": 3, "target": "Cleo", "guesses": [[0, 0, 0, 0]]}},
            {"play": {"by": "Ben", "card": 6, "face_up": {"Ana": 0, "Cleo": 0}}},
            {"play": {"by": "Ben", "card": 9}},  # his last card: a 9 may be played alone
            {"play": {"by": "Ben", "card": 8}},
        ],
    }
    line = one_error_line(invoke("solve", write(tmp_path / "empty.yaml", empty)), 2)
    assert "event 6" in line and "Ben has no card in hand" in line


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("play Ben 0 Cleo Dan", {"by": "Ben", "card": 0, "between": ["Cleo", "Dan"]}),
        ("play Ben 1 9 none", {"by": "Ben", "card": 1, "named": 9, "holder": "none"}),
        ("play Ben 2 showed Cleo", {"by": "Ben", "card": 2, "showed": ["Cleo"]}),
        ("play Dan 4 shown Ana=2 Cleo=0", {"by": "Dan", "card": 4, "shown": {"Ana": 2, "Cleo": 0}}),
        (
            "play Ana 5 shown Ben=2, Cleo= Dan=6,8",
            {"by": "Ana", "card": 5, "shown": {"Ben": [2], "Cleo": [], "Dan": [6, 8]}},
        ),
        (
            "play Cleo 3 target Ben guesses 0,1,1 0,0,1 correct false",
            {
                "by": "Cleo",
                "card": 3,
                "target": "Ben",
                "guesses": [[0, 1, 1], [0, 0, 1]],
                "correct": False,
            },
        ),
        ("play Ana 8 saw 3 5 put 0", {"by": "Ana", "card": 8, "saw": [3, 5], "put": 0}),
        ("play Ben 7 out Cleo=0,0,3", {"by": "Ben", "card": 7, "out": {"Cleo": [0, 0, 3]}}),
    ],
)
def test_session_short_forms_are_log_events(line, event):
    from models.game_of_suspicion.game import parse_line

    assert parse_line(line) == {"play": event}


def test_a_turn_let_pass_has_a_short_form():
    from models.game_of_suspicion.game import describe_event, parse_line

    assert parse_line("skip Ben") == {"skip": {"by": "Ben"}}
    assert parse_line("skip") == {"skip": {}}
    assert describe_event({"skip": {}}, "Ana") == "Ana lets the turn pass"


def test_a_misspelt_outcome_key_suggests_the_right_one():
    from models.game_of_suspicion.game import parse_line
    from solver.errors import InputError

    with pytest.raises(InputError, match="did you mean 'shown'"):
        parse_line("play Ben 4 shwn Ana=1")


def test_no_advice_once_i_am_out(tmp_path):
    events = [*SHOWN["events"]]
    events.append({"guess": {"by": "Ben", "target": "Ana", "cards": [0, 1, 2], "correct": True}})
    data = invoke_json("suggest", write(tmp_path / "out.yaml", {**SHOWN, "events": events}))
    assert data["advice"] == "out"
    assert invoke_json("solve", tmp_path / "out.yaml")["out"] == {"Ana": [0, 1, 2]}


def test_a_wrong_length_guess_mentions_the_10_only_while_it_may_be_held(tmp_path):
    """With the 10 set aside face up nobody can hold it: a five-number guess at a four-card hand
    is refused without suggesting that it could hold the 10. While the 10 is unseen, the
    message says a guess may name one number more."""
    header = {"game": "game-of-suspicion", "players": ["Ana", "Ben", "Cleo"], "me": "Ana"}
    guess = {"guess": {"by": "Ben", "target": "Cleo", "cards": [0, 0, 1, 1, 2]}}
    aside_ten = {"deal": {"hand": [0, 1, 2, 4], "shadow": [3, 5, 6, 7], "aside": 10}}
    data = {**header, "advanced": True, "events": [aside_ten, guess]}
    line = one_error_line(invoke("solve", write(tmp_path / "aside.yaml", data)), 2)
    assert "event 2" in line and "names 4 numbers" in line and "10" not in line
    hidden_ten = {"deal": {"hand": [0, 1, 2, 4], "shadow": [3, 5, 6, 7], "aside": 9}}
    short = {"guess": {"by": "Ben", "target": "Cleo", "cards": [0, 1]}}
    data = {**header, "advanced": True, "events": [hidden_ten, short]}
    line = one_error_line(invoke("solve", write(tmp_path / "hidden.yaml", data)), 2)
    assert "(5 if it holds the 10)" in line


@pytest.mark.parametrize("me", ["Ana", "Ben", "Cleo", None])
def test_a_guess_names_as_many_numbers_as_the_hand_holds_from_every_seat(tmp_path, me):
    """The rulebook's example: Blue holds 3 cards, so Red must guess 3 numbers. In the basic
    game there is no 10, so a four-number guess at a three-card hand is refused whoever logs
    it, the guessed player's own seat included (issue 30)."""
    hands = {"Ana": [0, 1, 1, 2], "Ben": [0, 0, 3, 9], "Cleo": [1, 4, 6, 7]}
    deal: dict = {"shadow": [0, 1, 5, 8]}
    if me is not None:
        deal["hand"] = hands[me]
    header = {"game": "game-of-suspicion", "players": ["Ana", "Ben", "Cleo"]}
    events = [
        {"deal": deal},
        {"play": {"by": "Ben", "card": 9}},  # Ben now holds 3 cards
        {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 0, 3, 9]}},
    ]
    data = {**header, **({"me": me} if me else {}), "events": events}
    line = one_error_line(invoke("solve", write(tmp_path / "log.yaml", data)), 2)
    assert "event 3" in line and "Ben holds 3 card(s): a guess names 3 numbers" in line
    assert "10" not in line


@pytest.mark.parametrize("me", ["Ana", "Cleo"])
def test_a_guess_names_one_number_more_only_while_the_10_may_be_held(tmp_path, me):
    """In the advanced game a guess may name one number more (0 and 1 for the 10), but not
    once the 10 is set aside face up: then nobody can hold it, whoever logs the guess, the
    guessed player included."""
    hands = {"Ana": [0, 1, 2, 4], "Cleo": [0, 1, 8, 9]}
    header = {"game": "game-of-suspicion", "players": ["Ana", "Ben", "Cleo"], "me": me}
    deal = {"hand": hands[me], "shadow": [3, 5, 6, 7], "aside": 10}
    guess = {"guess": {"by": "Ben", "target": "Cleo", "cards": [0, 0, 1, 1, 2]}}
    data = {**header, "advanced": True, "events": [{"deal": deal}, guess]}
    line = one_error_line(invoke("solve", write(tmp_path / "aside.yaml", data)), 2)
    assert "event 2" in line and "names 4 numbers" in line and "10" not in line
    deal["aside"] = 9 if me == "Ana" else 2  # the 10 may be in a hand again
    data = {**header, "advanced": True, "events": [{"deal": deal}, guess]}
    assert invoke_json("solve", write(tmp_path / "hidden.yaml", data))["consistent"]


# -- the turn order (issue 30) -------------------------------------------------------------------

FOUR = {"game": "game-of-suspicion", "players": ["Ana", "Ben", "Cleo", "Dan"], "me": "Ana"}
MY_DEAL = {"deal": {"hand": [0, 1, 5, 7]}}


def looks(*players: str) -> list[dict]:
    """Another player's middle look (kept) for each of `players`, in turn."""
    return [{"look": {"by": p, "slot": "left", "exchanged": False}} for p in players]


def solve_events(tmp_path, *events: dict, deal: dict = MY_DEAL, **header):
    data = {**FOUR, **header, "events": [deal, *events]}
    return invoke("solve", write(tmp_path / "log.yaml", data), "--json")


def test_a_player_who_plays_four_cards_in_a_row_is_refused(tmp_path):
    """The turn passes to the left after one action: Ana's second card in a row is refused,
    naming whose turn it is and who played last."""
    plays = [{"play": {"card": card}} for card in (5, 7, 1, 0)]
    plays[0]["play"]["shown"] = {"Ben": [], "Cleo": [], "Dan": []}
    line = one_error_line(solve_events(tmp_path, *plays), 2)
    assert "event 3" in line and "it is Ben's turn: Ana played last" in line
    assert "skip: {by: Ben}" in line and "turn_order: free" in line


def test_turns_pass_to_the_left_and_wrap_around(tmp_path):
    """Any player may take a round's first turn (the rulebook draws the first player); then the
    seat order, wrapping from the last seat to the first."""
    assert solve_events(tmp_path, *looks("Cleo", "Dan"), {"look": {"saw": 0}}).exit_code == 0
    line = one_error_line(solve_events(tmp_path, *looks("Cleo", "Ben")), 2)
    assert "event 3" in line and "it is Dan's turn, not Ben's: Cleo played last" in line


def test_a_right_guess_lets_the_guesser_guess_again_and_only_guess(tmp_path):
    right = {"guess": {"target": "Ben", "cards": [0, 0, 1, 1], "correct": True}}
    wrong = {"guess": {"target": "Cleo", "cards": [0, 0, 1, 1], "correct": False}}
    assert solve_events(tmp_path, right, wrong, *looks("Cleo", "Dan")).exit_code == 0
    assert solve_events(tmp_path, right, *looks("Cleo", "Dan")).exit_code == 0  # ended there
    line = one_error_line(solve_events(tmp_path, right, {"look": {"saw": 0}}), 2)
    assert "event 3" in line and "after a right guess Ana may only guess again" in line
    line = one_error_line(solve_events(tmp_path, right, wrong, {"look": {"saw": 0}}), 2)
    assert "event 4" in line and "it is Cleo's turn: Ana played last" in line


def test_players_who_are_out_are_skipped(tmp_path):
    """Ben is out: after Ana comes Cleo."""
    right = {"guess": {"target": "Ben", "cards": [0, 0, 1, 1], "correct": True}}
    after = [*looks("Cleo", "Dan"), {"look": {"saw": 0}}, *looks("Cleo")]
    assert solve_events(tmp_path, right, *after).exit_code == 0
    line = one_error_line(solve_events(tmp_path, right, *looks("Cleo", "Dan"), *looks("Dan")), 2)
    assert "event 5" in line and "it is Ana's turn: Dan played last" in line


def test_a_right_guess_with_card_3_ends_the_turn(tmp_path):
    """Card 3's guesses are one action (B): a right one puts the player out, and the turn passes
    (house ruling: the extra guess belongs to action C)."""
    card_3 = {"play": {"card": 3, "target": "Ben", "guesses": [[0, 0, 1, 1]], "correct": True}}
    again = {"guess": {"target": "Cleo", "cards": [0, 0, 1, 1], "correct": False}}
    holding_3 = {"deal": {"hand": [0, 1, 3, 7]}}
    line = one_error_line(solve_events(tmp_path, card_3, again, deal=holding_3), 2)
    assert "event 3" in line and "it is Cleo's turn: Ana played last" in line


def test_the_survivor_of_a_round_starts_the_next(tmp_path):
    hands = [[0, 0, 1, 1], [0, 0, 1, 2], [1, 3, 4, 6]]
    wins = [
        {"guess": {"target": p, "cards": h, "correct": True}}
        for p, h in zip(["Ben", "Cleo", "Dan"], hands, strict=True)
    ]
    next_deal = {"deal": {"hand": [0, 1, 5, 7]}}
    assert solve_events(tmp_path, *wins, next_deal, {"look": {"saw": 0}}).exit_code == 0
    line = one_error_line(solve_events(tmp_path, *wins, next_deal, *looks("Ben")), 2)
    assert "event 6" in line and "Ana survived the round before and starts this one" in line


def test_a_turn_let_pass_is_a_skip_and_a_free_table_keeps_no_order(tmp_path):
    """Two ways for a log whose table did not keep the rulebook's order: `skip` records a turn
    in which the player did nothing (no card moves), and the house rule `turn_order: free`
    turns the check off."""
    skipped = solve_events(tmp_path, *looks("Ben"), {"skip": {"by": "Cleo"}}, *looks("Dan"))
    assert skipped.exit_code == 0
    plain = solve_events(tmp_path, *looks("Ben", "Dan"), options={"turn_order": "free"})
    assert plain.exit_code == 0
    assert json.loads(skipped.stdout)["hands"] == json.loads(plain.stdout)["hands"]
    line = one_error_line(solve_events(tmp_path, *looks("Ben"), {"skip": {"by": "Dan"}}), 2)
    assert "event 3" in line and "it is Cleo's turn, not Dan's" in line
