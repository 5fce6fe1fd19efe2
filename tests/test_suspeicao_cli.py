"""Suspeição end to end through the Typer app: solve, replay, suggest, check, generate, new, bad
input and contradictions. Probabilities are checked against values worked out by hand
(hypergeometric draws from the unseen cards)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app
from models.suspeicao.rules import load_deck, requirement

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "suspeicao"
runner = CliRunner()
DECK = load_deck()
USED = DECK.for_players(3)  # 47 cards

DEAL = {"deal": {"incriminating": [7, 21, 33, 41], "hand": [2, 15, 40, "X1"], "first": "Ana"}}


def game(*events: dict, **header) -> dict:
    return {"game": "suspeicao", "players": ["Ana", "Ben", "Cleo"], "me": "Ana", **header,
            "events": [DEAL, *events]}  # fmt: skip


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def solve(tmp_path: Path, data: dict, command: str = "solve", exit_code: int = 0) -> dict:
    result = invoke(command, write(tmp_path / "log.yaml", data), "--json")
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return json.loads(result.stdout)


def error_line(tmp_path: Path, data: dict, exit_code: int) -> str:
    result = invoke("solve", write(tmp_path / "log.yaml", data))
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def p(value: Fraction) -> float:
    return round(float(value), 6)


def test_after_the_deal_each_hidden_card_is_a_uniform_draw(tmp_path):
    data = solve(tmp_path, game())
    # 43 unseen cards: Ben 4, Cleo 4, the pile 35
    for card in ("7", "21", "33", "41"):
        assert data["incriminating"][card] == {
            "Ben": p(Fraction(4, 43)),
            "Cleo": p(Fraction(4, 43)),
            "pile": p(Fraction(35, 43)),
        }
    mine = {"2", "15", "40", "X1"}
    for text in ("odd", "1-17", "CLUE", "35-50"):
        req = requirement(text)
        meeting = sum(1 for c in USED if c.name not in mine and req.met_by(c))
        expected = 1 - Fraction(math.comb(43 - meeting, 4), math.comb(43, 4))
        assert data["requirements"]["Ben"][text] == p(expected)
    assert data["worlds"] == 1 and data["turn"] == "Ana"


def test_a_claim_of_none_with_bluff_rate_zero_rules_the_requirement_out(tmp_path):
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "none": True, "polygraph": 22}},
        options={"bluff_rate": 0},
    )
    data = solve(tmp_path, log)
    assert data["requirements"]["Cleo"]["1-17"] == 0.0  # claimed none, and never a bluff
    assert "Cleo" not in data["incriminating"]["7"]  # 7 meets 1-17
    assert data["incriminating"]["33"]["Cleo"] > 0  # 33 does not


def test_the_template_is_a_consistent_log_and_scores_it(tmp_path):
    result = invoke("new", "suspeicao")
    assert result.exit_code == 0
    path = tmp_path / "new.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    out = invoke("solve", path, "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["scores"] == {"Ana": 1, "Ben": 0, "Cleo": 0}
    assert data["front"]["Cleo"] == ["21"]
    assert data["incriminating"]["21"] == {"front (Cleo)": 1.0}
    assert data["hand_size"] == {"Ana": 3, "Ben": 4, "Cleo": 3}
    assert abs(sum(data["incriminating"]["7"].values()) - 1) < 1e-5


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"play": {"card": 99}}, "did you mean"),
        ({"play": {"card": 45}}, "5-6 player icon"),
        ({"play": {"by": "Ben", "card": 9}}, "it is Ana's turn"),
        ({"play": {"card": 2, "target": "Bem", "revealed": 13}}, "did you mean 'Ben'"),
        ({"play": {"card": 2, "target": "Ben"}}, "revealed"),
        ({"play": {"card": 2, "target": "Ana", "revealed": 13}}, "cannot target themselves"),
        ({"reveal": {"card": 15}}, "not REVEAL"),
        ({"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5, 6]}}, "draws no more"),
        ({"play": {"card": 2, "target": "Ben", "revealed": 13}}, "drew"),
        ({"play": {"card": 15}}, "bought"),
        ({"play": {"card": 2, "target": "Ben", "revealed": 2}}, "face up"),
    ],
)
def test_bad_events_get_one_line_naming_the_event(tmp_path, event, message):
    line = error_line(tmp_path, game(event), 2)
    assert "event 2" in line and message in line, line


def test_a_card_in_my_hand_played_by_another_player_is_a_contradiction(tmp_path):
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 15}},
    )
    line = error_line(tmp_path, log, 1)
    assert "events 1 and 3" in line and "Ana's hand" in line


def test_force_with_a_card_that_does_not_qualify_is_refused(tmp_path):
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "revealed": 30}},
    )
    assert "does not meet the requirement 1-17" in error_line(tmp_path, log, 2)


def test_a_caught_lie_with_bluff_rate_zero_is_a_contradiction(tmp_path):
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "none": True, "polygraph": 3}},
        options={"bluff_rate": 0},
    )
    assert "bluff_rate is 0" in error_line(tmp_path, log, 1)


def test_suggest_values_each_play_exactly(tmp_path):
    log = game()
    data = solve(tmp_path, log, "suggest")
    by_play = {(d["card"], d["target"]): d for d in data["plays"]}
    # REVEAL on Ben: a random card of Ben's 4, each unseen incriminating card there w.p. 4/43
    reveal = by_play[("2", "Ben")]
    assert reveal["p_reveal_evidence"] == p(Fraction(4 * 4, 43 * 4))
    assert reveal["expected_points"] == reveal["p_reveal_evidence"]
    buy = by_play[("X1", None)]  # X1 is a BUY card: a random pile card
    assert buy["p_gain_evidence"] == p(Fraction(4 * 35, 43 * 35))
    assert data["plays"][0]["expected_points"] == max(d["expected_points"] for d in data["plays"])


def test_suggest_says_to_keep_the_least_exposed_incriminating_card(tmp_path):
    log = game()
    log["events"][0] = {"deal": {"incriminating": [7, 21, 33, 41], "hand": [7, 41, 40, "X1"]}}
    data = solve(tmp_path, log, "suggest")
    keep = [k["card"] for k in data["keep"]]
    assert sorted(keep) == ["41", "7"]
    incriminating = [d for d in data["plays"] if d["card"] in ("7", "41")]
    assert all(d["expected_points"] == -1.0 for d in incriminating)


def test_replay_has_one_row_per_event(tmp_path):
    result = invoke("new", "suspeicao")
    path = tmp_path / "new.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    data = json.loads(invoke("replay", path, "--json").stdout)
    assert [h["event"] for h in data["history"]] == list(range(1, 10))
    assert all(h["worlds"] >= 1 for h in data["history"])


def puzzle(*clues: dict, answer: str | None = None) -> dict:
    body: dict = {"given": [DEAL, *clues], "question": {"holder": 7}}
    if answer is not None:
        body["answer"] = answer
    return {"game": "suspeicao", "players": ["Ana", "Ben", "Cleo"], "me": "Ana", "puzzle": body}


def test_check_finds_the_unique_holder_and_the_redundant_clue(tmp_path):
    # 7 is odd, in 1-17 and a CLUE: Ben and Cleo both lacking odd cards puts it in the pile
    data = solve(
        tmp_path,
        puzzle(
            {"fact": {"player": "Ben", "lacks": "odd"}},
            {"fact": {"player": "Cleo", "lacks": "1-17"}},
            {"fact": {"player": "Cleo", "lacks": "odd"}},
            answer="pile",
        ),
        "check",
    )
    assert data["unique"] and data["answer"] == "pile" and data["answer_matches"]
    assert data["redundant"] == [2, 3] and len(data["minimal"]) == 2


def test_check_shows_two_answers_when_not_unique(tmp_path):
    data = solve(
        tmp_path, puzzle({"fact": {"player": "Ben", "lacks": "odd"}}), "check", exit_code=1
    )
    assert not data["unique"] and data["answers"] == ["Cleo", "pile"]


def test_the_session_takes_short_forms_undo_and_saves(tmp_path):
    import os
    import subprocess
    import sys

    sleuth = Path(sys.executable).with_name("sleuth")
    command = [str(sleuth)] if sleuth.exists() else [sys.executable, "-m", "cli.app"]
    log = tmp_path / "s.yaml"
    typed = (
        "players Ana Ben Cleo\nme Ana\ndeal 7 21 33 41 hand 2 15 40 X1\n"
        "play 2 target Ben revealed 13 drew 5\n"
        "play Ben 8 target Cleo none polygraph 22\nundo\n"
        "play Ben 8 target Cleo revealed 3\n"
        "play Cleo 1 target Ana none polygraph 40 returned 15\n"
    )
    done = subprocess.run(
        [*command, "play", "suspeicao", "--log", str(log)],
        input=typed, capture_output=True, text=True, timeout=60,
        env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "removed event 3" in done.stdout
    saved = yaml.safe_load(log.read_text())
    assert saved["events"][2] == {"play": {"by": "Ben", "card": 8, "target": "Cleo", "revealed": 3}}
    assert saved["events"][3]["play"]["returned"] == 15
    assert len(saved["events"]) == 4


# -- edge values of the probability model (issue 10) ----------------------------------------------


def test_a_card_shown_to_a_force_with_bluff_rate_one_is_a_contradiction(tmp_path):
    """With bluff_rate 1 a player holding a qualifying card always claims none, so a FORCE
    answered with a card has probability 0: the log is refused, naming that event."""
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "revealed": 3}},
        options={"bluff_rate": 1},
    )
    line = error_line(tmp_path, log, 1)
    assert "event 3" in line and "bluff_rate is 1" in line
    data = solve(tmp_path, log, exit_code=1)
    assert data["conflicting_events"] == [3]


def test_the_filter_alone_refuses_what_bluff_rate_one_forbids():
    """The same answer, as a primitive step, leaves the exact filter with no world, and CP-SAT
    names the same event: the two engines agree without the reader's check."""
    from models.suspeicao.belief import Belief, Impossible
    from models.suspeicao.knowledge import conflict
    from models.suspeicao.steps import Force, Setup

    deck = DECK.with_options({"bluff_rate": 1})
    hidden = [c.name for c in USED if c.name not in ("2", "15", "40", "X1")]
    setup = Setup(["Ben", "Cleo"], 4, len(hidden) - 8, hidden, ["7", "21", "33", "41"])
    step = Force(4, "Cleo", "1-17", "3")
    with pytest.raises(Impossible) as caught:
        Belief(setup, deck).apply(step)
    assert caught.value.event == 4
    assert conflict(setup, [step], deck) == [4]


def test_a_card_shown_by_protect_while_a_safe_one_is_known_to_be_there(tmp_path):
    """force_reveal: protect makes an incriminating card shown from a hand that also holds a
    safe qualifying card impossible: the safe card I gave (event 2), the card Ben played instead
    of it (event 3) and the FORCE that showed evidence anyway (event 4) are named together."""
    log = {
        "game": "suspeicao",
        "players": ["Ana", "Ben", "Cleo"],
        "me": "Ana",
        "options": {"force_reveal": "protect"},
        "events": [
            {"deal": {"incriminating": [7, 21, 33, 41], "hand": [11, 15, 40, "X1"]}},
            {"play": {"card": 11, "target": "Ben", "took": 30, "gave": 15, "drew": [5]}},
            {"play": {"by": "Ben", "card": 6}},  # BUY: Ben still holds the 15 (odd, safe)
            {"play": {"by": "Cleo", "card": 1, "target": "Ben", "revealed": 21}},  # FORCE odd
        ],
    }
    data = solve(tmp_path, log, exit_code=1)
    assert data["conflicting_events"] == [2, 3, 4]
    uniform = {**log, "options": {"force_reveal": "uniform"}}
    assert solve(tmp_path, uniform)["incriminating"]["21"] == {"front (Ben)": 1.0}


def test_a_card_played_unnoticed_is_reported_in_the_discard(tmp_path):
    """An incriminating card played with accused: false leaves play: its place is the discard,
    with probability 1, in the table and in --json, and every card's chances add up to one."""
    log = game(
        {"play": {"card": 2, "target": "Ben", "revealed": 13, "drew": [5]}},
        {"play": {"by": "Ben", "card": 21, "accused": False, "target": "Cleo", "revealed": 3}},
    )
    data = solve(tmp_path, log)
    assert data["incriminating"]["21"] == {"discard": 1.0}
    for card, places in data["incriminating"].items():
        assert abs(sum(places.values()) - 1) < 1e-5, card
    result = invoke("solve", write(tmp_path / "log.yaml", log))
    row = next(line for line in result.stdout.splitlines() if line.startswith("│ 21"))
    assert "discard" in row


def test_a_state_over_the_memory_limits_is_one_clear_error(monkeypatch):
    """A sum that would look at more (state, row) pairs than the limit allows is refused with
    one line naming the event (never a crash for want of memory); an earlier event still
    solves."""
    import solver.card_tables as card_tables

    monkeypatch.setattr(card_tables, "PAIRS_LIMIT", 50)
    path = EXAMPLES / "round-6p.yaml"
    result = invoke("solve", path, "--json")
    assert result.exit_code == 2, result.stdout
    error = json.loads(result.stdout)
    assert "too entangled" in error["error"] and error["event"] is not None
    assert invoke("solve", path, "--upto", 2, "--json").exit_code == 0
