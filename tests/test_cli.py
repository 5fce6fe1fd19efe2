"""The `sleuth` commands on the bundled examples: exit statuses, `--json` keys, and their values
checked against a brute-force reading of the same files (RULINGS.md §1, DESIGN.md)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "three-of-a-crime"
DATA = Path(__file__).resolve().parent / "data"
LOGS = ["multi-round.yaml", "two-player.yaml", "wrong-accusation.yaml"]

# RULINGS.md §1: the canonical order of the seven suspects, and their abbreviations.
SUSPECTS = [
    "Humpty Bumpty",
    "Jonny Cortex",
    "Kid Cassidy",
    "Loose-Eye Lenny",
    "Louie St. Louis",
    "No Neck Nick",
    "Pencil Top",
]
ABBREVIATIONS = dict(zip(["HB", "JC", "KC", "LEL", "LSL", "NNN", "PT"], SUSPECTS, strict=True))
ALL_CARDS = [frozenset(c) for c in combinations(SUSPECTS, 3)]
COMMANDS = ["games", "new", "solve", "suggest", "replay", "check", "generate", "simulate", "play"]

runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def invoke_json(*args: object, exit_code: int = 0) -> dict | list:
    """Run a command with --json; stdout must be exactly one JSON value."""
    result = invoke(*args, "--json")
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert "Traceback" not in result.output
    return json.loads(result.stdout)


def name(text: str) -> str:
    return ABBREVIATIONS.get(text, text)


def card(names: list[str]) -> frozenset[str]:
    return frozenset(name(n) for n in names)


def events_of(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["events"]


def brute_force(clues: list[dict], excluded: set[frozenset[str]] = frozenset()) -> set:
    """Secret cards allowed by face-up cards with tokens and wrong accusations (one round)."""
    allowed = set(ALL_CARDS) - set(excluded)
    for event in clues:
        if "card" in event:
            shown = card(event["card"])
            allowed = {s for s in allowed if len(s & shown) == event["token"]}
        elif "accuse" in event and not event["accuse"]["correct"]:
            allowed.discard(card(event["accuse"]["suspects"]))
    return allowed


def assert_canonical(cards: list[list[str]]) -> None:
    for c in cards:
        assert len(c) == 3
        assert c == sorted(c, key=SUSPECTS.index), c


# --- games and new -----------------------------------------------------------------------------


def test_games_lists_three_of_a_crime():
    data = invoke_json("games")
    (game,) = [g for g in data["games"] if g["game"] == "three-of-a-crime"]
    assert list(game["suspects"].values()) == SUSPECTS
    assert "35" in game["deck"]
    assert game["rulings"]


def test_games_text_output():
    result = invoke("games")
    assert result.exit_code == 0
    assert "three-of-a-crime" in result.stdout


def test_new_template_is_yaml_that_solves(tmp_path):
    result = invoke("new", "three-of-a-crime")
    assert result.exit_code == 0, result.stderr
    template = yaml.safe_load(result.stdout)
    assert template["game"] == "three-of-a-crime"
    assert template["events"], "the template shows some events"
    path = tmp_path / "game.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    data = invoke_json("solve", path)
    assert data["consistent"] is True
    assert data["events"] == len(template["events"])
    expected = brute_force(template["events"])
    assert {frozenset(c) for c in data["candidates"]} == expected


# --- solve -------------------------------------------------------------------------------------


@pytest.mark.parametrize("log", LOGS)
def test_solve_json_keys_and_probabilities(log):
    data = invoke_json("solve", EXAMPLES / log)
    for key in ("game", "consistent", "events", "worlds", "candidates", "suspect"):
        assert key in data
    assert data["game"] == "three-of-a-crime"
    assert data["consistent"] is True
    assert data["events"] == len(events_of(EXAMPLES / log))
    assert isinstance(data["worlds"], int)
    assert data["worlds"] >= len(data["candidates"]) >= 1
    assert_canonical(data["candidates"])
    assert len({frozenset(c) for c in data["candidates"]}) == len(data["candidates"])
    assert list(data["suspect"]) == SUSPECTS
    assert all(0 <= p <= 1 for p in data["suspect"].values())
    assert sum(data["suspect"].values()) == pytest.approx(3, abs=1e-6)
    # p(suspect) is the total probability of the candidate cards that carry the suspect
    probabilities = data["candidate_probability"]
    card_p = dict(zip(map(frozenset, data["candidates"]), probabilities, strict=True))
    assert sum(card_p.values()) == pytest.approx(1, abs=1e-5)
    for suspect, p in data["suspect"].items():
        assert p == pytest.approx(sum(q for c, q in card_p.items() if suspect in c), abs=1e-5)


@pytest.mark.parametrize("log", ["two-player.yaml", "wrong-accusation.yaml"])
def test_solve_single_round_matches_brute_force(log):
    events = events_of(EXAMPLES / log)
    data = invoke_json("solve", EXAMPLES / log)
    expected = brute_force(events)
    assert {frozenset(c) for c in data["candidates"]} == expected
    assert data["worlds"] == len(expected)  # one round: every candidate is one world


def test_solve_multi_round_reports_the_last_round_without_won_cards():
    events = events_of(EXAMPLES / "multi-round.yaml")
    data = invoke_json("solve", EXAMPLES / "multi-round.yaml")
    assert data["round"] == 3
    won = card(events[6]["won"]["card"])
    third_round = events[events.index({"round": {"eyewitness": "Ana"}}) + 1 :]
    expected = brute_force(third_round, excluded={won})
    assert {frozenset(c) for c in data["candidates"]} == expected
    assert won not in {frozenset(c) for c in data["candidates"]}


def test_solve_upto_follows_the_first_round_event_by_event():
    path = EXAMPLES / "multi-round.yaml"
    events = events_of(path)
    previous = None
    for upto in range(0, 6):  # events 1-5: the first round, before the correct accusation
        data = invoke_json("solve", path, "--upto", upto)
        assert data["events"] == upto
        expected = brute_force(events[:upto])
        assert {frozenset(c) for c in data["candidates"]} == expected
        assert data["worlds"] == len(expected)
        if previous is not None:
            assert data["worlds"] <= previous
        previous = data["worlds"]
    assert invoke_json("solve", path, "--upto", 0)["worlds"] == 35
    assert invoke_json("solve", path, "--upto", 5)["worlds"] == 2


def test_solve_upto_zero_is_uniform_and_upto_past_the_end_is_the_whole_log():
    path = EXAMPLES / "two-player.yaml"
    start = invoke_json("solve", path, "--upto", 0)
    assert start["worlds"] == 35 and len(start["candidates"]) == 35
    assert all(p == pytest.approx(3 / 7, abs=1e-6) for p in start["suspect"].values())
    whole = invoke_json("solve", path)
    assert invoke_json("solve", path, "--upto", 999) == whole
    assert whole["worlds"] < start["worlds"]


def test_solve_after_a_won_round_starts_a_fresh_deck_without_the_won_card():
    path = EXAMPLES / "multi-round.yaml"
    after_won = invoke_json("solve", path, "--upto", 7)
    assert after_won["round"] == 2
    assert after_won["worlds"] == 34
    assert ["Kid Cassidy", "Louie St. Louis", "Pencil Top"] not in after_won["candidates"]
    # an explicit `round` event naming the next eyewitness in seat order adds nothing
    after_round = invoke_json("solve", path, "--upto", 8)
    assert after_round["candidates"] == after_won["candidates"]


def test_solve_text_output():
    result = invoke("solve", EXAMPLES / "wrong-accusation.yaml")
    assert result.exit_code == 0, result.stderr
    assert "candidate secret card" in result.stdout
    assert "Loose-Eye Lenny" in result.stdout


# --- suggest -----------------------------------------------------------------------------------


@pytest.mark.parametrize("log", LOGS)
def test_suggest_best_accusation_is_a_most_likely_candidate(log):
    solved = invoke_json("solve", EXAMPLES / log)
    data = invoke_json("suggest", EXAMPLES / log)
    assert data["game"] == "three-of-a-crime"
    candidates = [frozenset(c) for c in solved["candidates"]]
    assert frozenset(data["best_accusation"]) in candidates
    assert_canonical([data["best_accusation"], *data["tied_accusations"]])
    assert data["best_accusation"] in data["tied_accusations"]
    assert all(frozenset(c) in candidates for c in data["tied_accusations"])
    assert data["p_correct"] == pytest.approx(max(solved["candidate_probability"]), abs=1e-6)
    assert isinstance(data["accuse_now"], bool)
    assert data["worlds"] == solved["worlds"]


def test_suggest_upto_and_text():
    path = EXAMPLES / "multi-round.yaml"
    data = invoke_json("suggest", path, "--upto", 5)
    assert data["events"] == 5
    assert frozenset(data["best_accusation"]) in brute_force(events_of(path)[:5])
    assert data["p_correct"] == pytest.approx(0.5)
    result = invoke("suggest", path)
    assert result.exit_code == 0
    assert "best accusation" in result.stdout


def test_suggest_counts_detectives_in_a_round_that_follows_a_won_one():
    """After a won round the eyewitness passes to the next seat (Ben -> Cleo): two detectives are
    left at a table of three, whether or not the log spells out the new round."""
    path = EXAMPLES / "multi-round.yaml"
    implicit = invoke_json("suggest", path, "--upto", 7)
    explicit = invoke_json("suggest", path, "--upto", 8)
    assert explicit["detectives_in"] == 2
    assert implicit["detectives_in"] == explicit["detectives_in"]
    assert implicit["accuse_now"] == explicit["accuse_now"]


# --- replay ------------------------------------------------------------------------------------


@pytest.mark.parametrize("log", ["two-player.yaml", "multi-round.yaml"])
def test_replay_history_agrees_with_solve_upto(log):
    path = EXAMPLES / log
    data = invoke_json("replay", path)
    total = len(events_of(path))
    assert data["events"] == total
    assert [h["event"] for h in data["history"]] == list(range(total + 1))
    for step in data["history"]:
        solved = invoke_json("solve", path, "--upto", step["event"])
        assert step["candidates"] == len(solved["candidates"])
        assert step["worlds"] == solved["worlds"]
        assert step["round"] == solved["round"]


def test_replay_text_output():
    result = invoke("replay", EXAMPLES / "multi-round.yaml")
    assert result.exit_code == 0, result.stderr
    assert "How the candidates evolved" in result.stdout


# --- check -------------------------------------------------------------------------------------


def puzzle_clues(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["puzzle"]["given"]


def test_check_unique_puzzle():
    path = DATA / "puzzle-unique.yaml"
    clues = puzzle_clues(path)
    data = invoke_json("check", path)
    assert data["unique"] is True
    assert data["answer"] == ["Loose-Eye Lenny", "No Neck Nick", "Pencil Top"]
    assert data["answers"] == [data["answer"]]
    assert data["witnesses"] == []
    assert data.get("answer_matches") is True
    # redundant: exactly the clues whose removal alone keeps the answer unique
    expected_redundant = [
        i for i in range(len(clues)) if len(brute_force(clues[:i] + clues[i + 1 :])) == 1
    ]
    assert data["redundant"] == expected_redundant
    assert expected_redundant, "the test puzzle has a redundant clue"
    # minimal: a subset that pins the same answer, and from which no clue can be dropped
    minimal = [clues[i] for i in data["minimal"]]
    assert brute_force(minimal) == {frozenset(data["answer"])}
    for i in range(len(minimal)):
        assert len(brute_force(minimal[:i] + minimal[i + 1 :])) > 1
    assert len(data["minimal"]) < len(clues)


def test_check_unique_puzzle_text_exit_zero():
    result = invoke("check", DATA / "puzzle-unique.yaml")
    assert result.exit_code == 0
    assert "unique" in result.stdout
    assert "NOT unique" not in result.stdout


def test_check_not_unique_puzzle_shows_two_witnesses_that_disagree():
    path = DATA / "puzzle-not-unique.yaml"
    clues = puzzle_clues(path)
    data = invoke_json("check", path, exit_code=1)
    assert data["unique"] is False
    assert not data.get("answer")
    assert len(data["witnesses"]) == 2
    answers = [frozenset(next(iter(w.values()))) for w in data["witnesses"]]
    assert answers[0] != answers[1]
    allowed = brute_force(clues)
    assert set(answers) <= allowed  # each witness really fits every clue
    assert len({frozenset(a) for a in data["answers"]}) >= 2
    assert {frozenset(a) for a in data["answers"]} <= allowed
    result = invoke("check", path)
    assert result.exit_code == 1
    assert "NOT unique" in result.stdout


def test_check_a_wrong_author_answer_exits_1():
    data = invoke_json("check", DATA / "puzzle-wrong-answer.yaml", exit_code=1)
    assert data["unique"] is True
    assert data["answer_matches"] is False
    assert data["answer"] == ["Loose-Eye Lenny", "No Neck Nick", "Pencil Top"]


# --- generate ----------------------------------------------------------------------------------


def test_generate_is_repeatable_and_every_puzzle_checks(tmp_path):
    args = ("generate", "three-of-a-crime", "--count", 3, "--seed", 11)
    first, second = invoke(*args), invoke(*args)
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    puzzles = list(yaml.safe_load_all(first.stdout))
    assert len(puzzles) == 3
    other = invoke("generate", "three-of-a-crime", "--count", 3, "--seed", 12)
    assert other.stdout != first.stdout
    for i, puzzle in enumerate(puzzles):
        path = tmp_path / f"p{i}.yaml"
        path.write_text(yaml.safe_dump(puzzle), encoding="utf-8")
        result = invoke("check", path, "--json")
        assert result.exit_code == 0, result.stdout
        checked = json.loads(result.stdout)
        assert checked["unique"] is True
        assert checked["answer"] == puzzle["puzzle"]["answer"]
        assert checked["answer_matches"] is True
        assert checked["difficulty"] == puzzle["puzzle"]["difficulty"]
        assert brute_force(puzzle["puzzle"]["given"]) == {frozenset(checked["answer"])}


def test_generate_json_matches_yaml_and_difficulty_is_honoured():
    as_json = invoke_json("generate", "three-of-a-crime", "--count", 2, "--seed", 5)
    as_yaml = list(
        yaml.safe_load_all(invoke("generate", "three-of-a-crime", "--count", 2, "--seed", 5).stdout)
    )
    assert as_json == as_yaml
    direct = invoke_json(
        "generate", "three-of-a-crime", "--count", 2, "--seed", 3, "--difficulty", 1
    )
    assert [p["puzzle"]["difficulty"] for p in direct] == ["direct", "direct"]


# --- simulate ----------------------------------------------------------------------------------


def test_simulate_distribution_sums_to_the_number_of_games():
    data = invoke_json("simulate", "three-of-a-crime", "--games", 200, "--seed", 1)
    assert data["games"] == 200
    distribution = {int(k): n for k, n in data["distribution"].items()}
    assert sum(distribution.values()) == 200
    assert all(k >= 0 for k in distribution)
    mean = sum(k * n for k, n in distribution.items()) / 200
    assert data["mean_cards_until_unique"] == pytest.approx(mean, abs=1e-3)
    by_sixth = sum(n for k, n in distribution.items() if k <= 6) / 200
    assert data["p_unique_by_sixth_card"] == pytest.approx(by_sixth, abs=1e-6)
    again = invoke_json("simulate", "three-of-a-crime", "--games", 200, "--seed", 1)
    assert again == data


# --- help --------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_an_example(command):
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"sleuth {command}" in result.stdout


def test_top_level_help_lists_every_command():
    result = invoke("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.stdout
