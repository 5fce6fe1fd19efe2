"""Generated puzzles are ones a human would set (issue 30): `check` finds no clue in them that
could go. Game of Suspicion's clues are events other events depend on, so its generator strikes
them with check's own test, passing again until nothing goes; a clue whose telling is not needed
but whose cards are is counted apart, and said in the puzzle's notes."""

from __future__ import annotations

import json
import random

import pytest
import yaml
from typer.testing import CliRunner

from bench.puzzles import tally
from cli.app import app
from models import GAMES
from models.game_of_suspicion.puzzle import strike
from solver import puzzle as puzzles
from solver.logfile import Document
from solver.puzzle import checked

runner = CliRunner()

# Ben's hand is 9 and three of the eight hidden 0s and 1s (Ana's card 4 showed his 9 and Cleo's
# 8); the wrong guesses at Ben (clues 4, 6, 7) leave 1 1 1 9. Ben's look (2) and the guess at
# Cleo (5) can be struck; Cleo's card 1 (3) tells nothing needed, but the guess at Cleo names
# the three cards it left her, so it stays while that guess does.
STORY = {
    "game": "game-of-suspicion",
    "players": ["Ana", "Ben", "Cleo"],
    "me": "Ana",
    "puzzle": {
        "given": [
            {"deal": {"hand": [0, 1, 2, 4], "shadow": [3, 5, 6, 7]}},
            {"play": {"card": 4, "shown": {"Ben": [9], "Cleo": [8]}}},
            {"look": {"by": "Ben", "slot": "left", "exchanged": False}},
            {"play": {"by": "Cleo", "card": 1, "named": 7, "holder": "none"}},
            {"guess": {"by": "Ana", "target": "Ben", "cards": [0, 0, 1, 9], "correct": False}},
            {"guess": {"by": "Ben", "target": "Cleo", "cards": [0, 1, 8], "correct": False}},
            {"guess": {"by": "Cleo", "target": "Ben", "cards": [0, 1, 1, 9], "correct": False}},
            {"guess": {"by": "Ana", "target": "Ben", "cards": [0, 0, 0, 9], "correct": False}},
        ],
        "question": {"hand": "Ben"},
        "answer": [1, 1, 1, 9],
    },
}


def check_of(puzzle: dict) -> dict:
    game = GAMES[puzzle["game"]]
    return checked(game, Document(puzzle)).data


def test_check_sorts_clues_into_redundant_kept_and_needed():
    data = check_of(STORY)
    assert data["unique"] and data["answer"] == [1, 1, 1, 9]
    # struck, Ben's look is a look that never happened: the answer stands (though what the
    # look told matters if it did happen, so it is also in the minimal set of what is told)
    assert data["redundant"] == [2, 5]
    assert data["kept"] == [3]
    assert data["kept_because"] == [
        "clue 5 needs it: without it, guess.target: Cleo holds 4 card(s): a guess names 4 numbers"
    ]
    assert data["minimal"] == [1, 2, 4, 6, 7]


def test_a_puzzle_is_read_without_the_turn_order_unless_it_asks_for_it(tmp_path):
    # with clue 5 (Ben's guess) struck, Cleo acts after Ana; a puzzle's clues are a selection
    # of the round's events, not every turn, so that is still a puzzle with the same answer
    struck = {**STORY, "puzzle": {**STORY["puzzle"]}}
    struck["puzzle"]["given"] = [e for i, e in enumerate(STORY["puzzle"]["given"]) if i != 5]
    assert check_of(struck)["answer"] == [1, 1, 1, 9]
    path = tmp_path / "strict.yaml"
    path.write_text(json.dumps({**struck, "options": {"turn_order": "rulebook"}}), "utf-8")
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 2
    assert "it is Ben's turn" in json.loads(result.stdout)["error"]


def test_check_says_which_clues_are_kept_for_the_story(tmp_path):
    path = tmp_path / "story.yaml"
    path.write_text(yaml.safe_dump(STORY, sort_keys=False), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.replace("\n", " ")
    assert "redundant events (0-based in given): [2, 5]" in lines
    assert "kept for the story" in lines and "3: clue 5 needs it" in lines


@pytest.mark.parametrize("seed", range(6))
def test_striking_frees_a_play_once_the_guess_counting_its_cards_is_gone(seed):
    """Whichever order the clues are tried in, the play goes too: a second pass strikes it."""
    given = strike(random.Random(seed), STORY, (1, 1, 1, 9))
    events = STORY["puzzle"]["given"]
    assert given == [events[i] for i in (0, 1, 4, 6, 7)]
    struck = {**STORY, "puzzle": {**STORY["puzzle"], "given": given}}
    data = check_of(struck)
    assert data["unique"] and data["redundant"] == [] and data["kept"] == []


def test_dropping_passes_again_when_a_struck_clue_frees_another():
    """A guess needs the play before it; once the guess has gone the play can go as well."""

    def same_answer(kept: list) -> bool:
        return "play" in kept or "guess" not in kept

    one_pass = [
        puzzles.drop_clues(random.Random(s), ["play", "guess"], same_answer) for s in range(8)
    ]
    assert ["play"] in one_pass, "one pass keeps the play when it is tried first"
    for seed in range(8):
        kept = puzzles.drop_clues(
            random.Random(seed), ["play", "guess"], same_answer, until_none_goes=True
        )
        assert kept == []


def test_the_issues_puzzles_have_no_redundant_clue(tmp_path):
    """`generate game-of-suspicion --count 3 --seed 5` gave 8, 21 and 17 clues, with 2, 15 and
    10 of them redundant; now none is, and the notes name exactly the clues check keeps."""
    result = runner.invoke(app, ["generate", "game-of-suspicion", "--count", "3", "--seed", "5"])
    assert result.exit_code == 0, result.output
    made = list(yaml.safe_load_all(result.stdout))
    assert len(made) == 3
    for puzzle in made:
        path = tmp_path / "p.yaml"
        path.write_text(yaml.safe_dump(puzzle, sort_keys=False), encoding="utf-8")
        checked_ = runner.invoke(app, ["check", str(path), "--json"])
        assert checked_.exit_code == 0, checked_.output
        data = json.loads(checked_.stdout)
        assert data["unique"] and data["answer_matches"] and data["difficulty_matches"]
        assert data["redundant"] == []
        noted = [int(note.split()[1]) for note in puzzle.get("notes", [])]
        assert noted == data["kept"]
        for note, why in zip(puzzle.get("notes", []), data["kept_because"], strict=True):
            assert note.endswith(why)


def generated_redundancy(name: str, count: int, seed: int) -> list[tuple[list, list]]:
    game = GAMES[name]
    found = []
    for puzzle in game.generate(random.Random(seed), count):
        data = check_of(puzzle)
        assert data["unique"], puzzle
        found.append((data["redundant"], data.get("kept", [])))
    return found


COUNTS = {"three-of-a-crime": 10, "six-suspects": 5, "game-of-suspicion": 3, "suspeicao": 2}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_generated_puzzles_of_every_game_have_no_redundant_clue(name):
    for redundant, _ in generated_redundancy(name, COUNTS[name], seed=11):
        assert redundant == []


@pytest.mark.long
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_more_generated_puzzles_have_no_redundant_clue(name, seed):
    for redundant, _ in generated_redundancy(name, 5 * COUNTS[name], seed=100 + seed):
        assert redundant == []


def test_the_bench_counts_the_clues_before_striking():
    """The baseline is read where every generator strikes: one count per puzzle, never fewer
    than the clues left."""
    got = tally(GAMES["three-of-a-crime"], count=8, seed=3)
    assert got.puzzles == len(got.drawn) == 8
    assert sum(got.drawn) >= got.clues > 0
    assert got.redundant == 0 and got.with_redundant == 0
