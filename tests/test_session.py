"""`sleuth play`: the interactive session driven through a pipe, as a player would type it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SLEUTH = Path(sys.executable).with_name("sleuth")
COMMAND = [str(SLEUTH)] if SLEUTH.exists() else [sys.executable, "-m", "cli.app"]
ENV = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}  # long paths stay on one line

KC_PT_NNN = ["Kid Cassidy", "Pencil Top", "No Neck Nick"]
HB_JC_LSL = ["Humpty Bumpty", "Jonny Cortex", "Louie St. Louis"]


def play(*args: object, typed: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*COMMAND, "play", *map(str, args)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=ENV,
    )


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_typed_events_undo_and_save(tmp_path):
    log, copy = tmp_path / "x.yaml", tmp_path / "copy.yaml"
    typed = (
        "players Ana Ben Cleo\n"
        "round Ben\n"
        "card KC PT NNN 1\n"
        "card HB JC LEL 0\n"  # contradicts event 2: kept, reported, then undone
        "undo\n"
        "card HB JC LSL 1\n"
        f"save {copy}\n"
    )
    done = play("three-of-a-crime", "--log", log, typed=typed)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    out = done.stdout
    # the posterior after each event: 35 cards, then 18 after KC PT NNN = 1, then 9
    assert "Round 1: 35 candidate" in out
    assert "Round 1: 18 candidate" in out
    assert "Round 1: 9 candidate" in out
    assert out.index("35 candidate") < out.index("18 candidate") < out.index("9 candidate")
    assert "Loose-Eye Lenny is guilty" in out
    assert "events 2 and 3" in done.stderr  # the contradiction, named
    assert "removed event 3" in out
    assert f"saved a copy to {copy}" in out
    assert f"log saved to {log}" in out

    saved = load(log)
    assert saved["game"] == "three-of-a-crime"
    assert saved["players"] == ["Ana", "Ben", "Cleo"]
    assert saved["events"] == [
        {"round": {"eyewitness": "Ben"}},
        {"card": KC_PT_NNN, "token": 1},
        {"card": HB_JC_LSL, "token": 1},
    ]
    assert load(copy) == saved
    assert list(saved)[-1] == "events"


def test_bad_lines_are_rejected_and_the_session_goes_on(tmp_path):
    log = tmp_path / "x.yaml"
    typed = (
        "players Ana Ben Cleo\n"
        "card KC PT Zorro 1\n"  # unknown suspect
        "card HB JC Lenyy 1\n"  # a typo: did you mean
        "card HB JC KC 3\n"  # impossible token
        "dance HB\n"  # unknown command
        "accuse Zed HB JC KC wrong\n"  # unknown player
        "undo\n"  # nothing to undo yet
        "help\n"
        "card KC PT NNN 1\n"
    )
    done = play("three-of-a-crime", "--log", log, typed=typed)
    assert done.returncode == 0
    assert "Traceback" not in done.stdout + done.stderr
    errors = done.stderr
    assert "unknown suspect 'Zorro'" in errors
    assert "did you mean 'Loose-Eye Lenny'" in errors
    assert "token of 3" in errors
    assert "unknown event 'dance'" in errors
    assert "unknown player 'Zed'" in errors
    assert "nothing to undo" in errors
    assert errors.count("error:") == 6
    assert "card S1 S2 S3 TOKEN" in done.stdout  # help
    assert "event 1 saved" in done.stdout  # the good line after the bad ones
    assert load(log)["events"] == [{"card": KC_PT_NNN, "token": 1}]


def test_resume_appends_to_the_same_file(tmp_path):
    log = tmp_path / "x.yaml"
    first = play(
        "three-of-a-crime",
        "--log",
        log,
        typed="players Ana Ben Cleo\nround Ben\ncard KC PT NNN 1\ncard HB JC LSL 1\n",
    )
    assert first.returncode == 0, first.stderr
    before = load(log)
    assert len(before["events"]) == 3

    again = play(log, typed="card LEL NNN PT 1\n")
    assert again.returncode == 0, again.stderr
    assert "3 event(s)" in again.stdout
    assert "Round 1: 9 candidate" in again.stdout  # the posterior of the resumed log, first
    assert "event 4 saved" in again.stdout
    after = load(log)
    assert after["players"] == before["players"]
    assert after["events"][:3] == before["events"]
    assert after["events"][3] == {
        "card": ["Loose-Eye Lenny", "No Neck Nick", "Pencil Top"],
        "token": 1,
    }
    assert list(tmp_path.iterdir()) == [log]  # no stray temporary files


def test_new_session_refuses_to_overwrite_a_log(tmp_path):
    log = tmp_path / "x.yaml"
    log.write_text("game: three-of-a-crime\nevents: []\n", encoding="utf-8")
    done = play("three-of-a-crime", "--log", log, typed="card KC PT NNN 1\n")
    assert done.returncode == 2
    assert "exists" in done.stderr and f"sleuth play {log}" in done.stderr
    assert load(log)["events"] == []


def test_each_event_is_saved_before_the_session_ends(tmp_path):
    """Kill the session while it waits for input: every event typed so far is in the file."""
    log = tmp_path / "x.yaml"
    process = subprocess.Popen(
        [*COMMAND, "play", "three-of-a-crime", "--log", str(log)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    try:
        process.stdin.write("players Ana Ben Cleo\ncard KC PT NNN 1\ncard HB JC LSL 1\n")
        process.stdin.flush()
        deadline = time.monotonic() + 30
        events: list = []
        while time.monotonic() < deadline:
            if log.exists():
                events = (load(log) or {}).get("events") or []
                if len(events) == 2:
                    break
            time.sleep(0.05)
        process.kill()  # no quit, no end of input: the terminal just goes away
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
    assert process.returncode != 0  # it really was killed, not left normally
    saved = load(log)
    assert saved["players"] == ["Ana", "Ben", "Cleo"]
    assert saved["events"] == [{"card": KC_PT_NNN, "token": 1}, {"card": HB_JC_LSL, "token": 1}]


def test_end_of_input_mid_session_keeps_the_log(tmp_path):
    log = tmp_path / "x.yaml"
    done = play("three-of-a-crime", "--log", log, typed="card KC PT NNN 1\ncard HB JC")
    assert done.returncode == 0
    assert "usage: card" in done.stderr  # the cut-off last line is rejected, not half-kept
    assert f"log saved to {log}" in done.stdout
    assert load(log)["events"] == [{"card": KC_PT_NNN, "token": 1}]


def test_names_that_look_like_markup_are_printed_as_typed(tmp_path):
    log = tmp_path / "x.yaml"
    typed = "players [/a] Ben Cleo\nround Ben\naccuse [/a] HB JC KC wrong\nundo\n"
    done = play("three-of-a-crime", "--log", log, typed=typed)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "players: ['[/a]', 'Ben', 'Cleo']" in done.stdout
    assert "removed event 2: {'accuse': {'by': '[/a]'" in done.stdout
    assert load(log)["events"] == [{"round": {"eyewitness": "Ben"}}]
