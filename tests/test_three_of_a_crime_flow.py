"""Three of a Crime at the table (issue 30): how a round ends and who its eyewitness is.

The rulebook ends a round when a detective names the card or when every detective has accused
wrongly (the eyewitness then claims the card); with two players, also after the sixth face-up
card. Sleuth refuses the next round's events until that round is closed (`won`) or the next one
is started (`round`), and `suggest` says the round is over. An eyewitness is never advised to
accuse, nor is a detective who is out; the round start is a form a player can tap.
"""

from __future__ import annotations

import html
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import as_document
from typer.testing import CliRunner
from webclient import client

from cli.app import app
from models.three_of_a_crime.game import ThreeOfACrime
from models.three_of_a_crime.log import parse, parse_card
from models.three_of_a_crime.rules import overlap
from models.three_of_a_crime.simulate import random_game
from solver.errors import InputError
from solver.logfile import load

GAME = ThreeOfACrime()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "three-of-a-crime"
TABLE = ["Ana", "Ben", "Cleo"]


def doc_of(events: list[dict], players: list[str] | None = None, me: str | None = None):
    data: dict = {"game": "three-of-a-crime", "events": events}
    if players is not None:
        data["players"] = players
    if me is not None:
        data["me"] = me
    return as_document(data)


def card(suspects: str, token: int, **extra: str) -> dict:
    return {"card": suspects.split(), "token": token, **extra}


def accuse(by: str, suspects: str, correct: bool = False) -> dict:
    return {"accuse": {"by": by, "suspects": suspects.split(), "correct": correct}}


# Ben's round at a table of three: Cleo and then Ana accuse wrongly (events 3 and 4), so every
# detective is out and Ben claims his card. The secret is LEL NNN PT.
EVERYONE_OUT = [
    {"round": {"eyewitness": "Ben"}},
    card("HB JC KC", 0),
    accuse("Cleo", "LEL LSL NNN"),
    accuse("Ana", "LEL LSL PT"),
]
NEXT_CARD = card("HB LEL PT", 2)  # the next round's first card, logged without a new round


def sleuth(*args: object):
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})
    return result


# --- the round ends when every detective is out --------------------------------------------


def test_a_card_after_every_detective_is_out_is_refused_in_one_line(tmp_path):
    with pytest.raises(InputError) as refused:
        GAME.solve(doc_of([*EVERYONE_OUT, NEXT_CARD], TABLE, "Ana"))
    message = str(refused.value)
    assert message.startswith("event 5: round 1 is over: every detective has accused wrongly")
    assert "(the last at event 4), so Ben, the eyewitness, claims the card" in message
    assert "start the next round with 'round Cleo'" in message  # to Ben's left
    assert "'won Ben'" in message
    # on the command line: exit 2, one line, no traceback
    path = tmp_path / "log.yaml"
    path.write_text(
        "game: three-of-a-crime\nplayers: [Ana, Ben, Cleo]\nme: Ana\nevents:\n"
        "  - round: {eyewitness: Ben}\n"
        "  - card: [HB, JC, KC]\n    token: 0\n"
        "  - accuse: {by: Cleo, suspects: [LEL, LSL, NNN], correct: false}\n"
        "  - accuse: {by: Ana, suspects: [LEL, LSL, PT], correct: false}\n"
        "  - card: [HB, LEL, PT]\n    token: 2\n"
    )
    for command in ("solve", "suggest", "replay"):
        result = sleuth(command, path)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.output
        assert "event 5 line 10: round 1 is over" in result.stderr


@pytest.mark.parametrize(
    "after",
    [
        {"accuse": {"suspects": ["HB", "JC", "PT"], "correct": True}},  # by nobody named
        {"secret": ["HB", "LEL", "PT"]},  # Cleo's own card: the next round's, as its eyewitness
    ],
)
def test_no_event_of_the_next_round_joins_a_round_that_is_over(after):
    with pytest.raises(InputError, match="round 1 is over: every detective"):
        parse(doc_of([*EVERYONE_OUT, after], TABLE, "Cleo"))


def test_the_eyewitness_may_claim_the_card_and_the_next_round_may_start():
    claimed = GAME.solve(doc_of([*EVERYONE_OUT, {"won": {"by": "Ben"}}], TABLE, "Ana")).data
    started = GAME.solve(
        doc_of([*EVERYONE_OUT, {"round": {"eyewitness": "Cleo"}}], TABLE, "Ana")
    ).data
    for data in (claimed, started):  # round 2, its deck without round 1's (unseen) card
        assert data["round"] == 2 and data["round_over"] is None
        assert data["rounds"][0]["eyewitness"] == "Cleo"
    assert claimed["worlds"] == started["worlds"]
    assert claimed["candidates"] == started["candidates"]
    # the card itself may be shown when it is claimed: it then leaves the deck, seen
    shown = {"won": {"by": "Ben", "card": ["LEL", "NNN", "PT"]}}
    seen = GAME.solve(doc_of([*EVERYONE_OUT, shown], TABLE, "Ana")).data
    assert ["Loose-Eye Lenny", "No Neck Nick", "Pencil Top"] not in seen["candidates"]
    assert len(seen["candidates"]) == 34
    # and the next round's first card is then accepted
    later = GAME.solve(doc_of([*EVERYONE_OUT, shown, NEXT_CARD], TABLE, "Ana")).data
    assert later["round"] == 2 and later["events"] == 6


def test_a_detective_who_accused_wrongly_cannot_win_the_round():
    with pytest.raises(InputError, match="Ana made a wrong accusation at event 4 and cannot win"):
        parse(doc_of([*EVERYONE_OUT, {"won": {"by": "Ana"}}], TABLE))
    with pytest.raises(InputError, match="Ben, the eyewitness, claims the card"):
        parse(doc_of([*EVERYONE_OUT, {"won": {"by": "Cleo"}}], TABLE))


def test_an_unnamed_eyewitness_is_the_one_player_who_did_not_accuse():
    events = EVERYONE_OUT[1:]  # no `round` event: Cleo and Ana accuse at events 2 and 3
    log = parse(doc_of(events, TABLE))
    assert log.current.eyewitness == "Ben" and log.current.eliminated == 3
    with pytest.raises(InputError, match="so Ben, the eyewitness, claims.*'round Cleo'"):
        parse(doc_of([*events, NEXT_CARD], TABLE))


def test_with_two_players_one_wrong_accusation_ends_the_round():
    events = [{"round": {"eyewitness": "Ana"}}, card("HB JC KC", 1), accuse("Ben", "HB LSL NNN")]
    with pytest.raises(InputError, match="so Ana, the eyewitness, claims.*'round Ben'"):
        parse(doc_of([*events, card("JC LEL PT", 1)], ["Ana", "Ben"], "Ben"))
    suggested = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ben")).data
    assert suggested["round_over"] == {
        "winner": "Ana",
        "event": 3,
        "how": "every detective accused wrongly",
        "next_eyewitness": "Ben",
    }
    assert suggested["accuse_now"] is False and suggested["best_accusation"] is None


def test_the_two_player_round_ends_after_the_sixth_card():
    secret = parse_card(["LEL", "NNN", "PT"], {})
    six = ["HB JC KC", "HB JC LEL", "HB JC LSL", "HB JC NNN", "HB JC PT", "HB KC LEL"]
    events = [{"round": {"eyewitness": "Ana"}}]
    events += [card(c, overlap(parse_card(c, {}), secret)) for c in six]
    with pytest.raises(InputError, match="after the sixth face-up card.*'round Ben'"):
        parse(doc_of([*events, card("LEL LSL NNN", 2)], ["Ana", "Ben"]))
    # at the sixth card the detective accuses with the best chance, the eyewitness does not
    detective = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ben")).data
    assert detective["accuse_now"] is True and detective["role"] == "detective"
    eyewitness = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ana")).data
    assert eyewitness["accuse_now"] is False and eyewitness["best_accusation"] is None


# --- what solve and suggest say once the round is over -------------------------------------


def test_solve_and_suggest_say_the_round_is_over_when_every_detective_is_out():
    doc = doc_of(EVERYONE_OUT, TABLE, "Ana")
    over = {
        "winner": "Ben",
        "event": 4,
        "how": "every detective accused wrongly",
        "next_eyewitness": "Cleo",
    }
    solved = GAME.solve(doc)
    assert solved.data["round_over"] == over and solved.data["round"] == 1
    assert solved.lines[0].startswith("Round 1 is over: every detective has accused wrongly")
    suggested = GAME.suggest(doc)
    assert suggested.data["round_over"] == over
    assert suggested.data["accuse_now"] is False and suggested.data["best_accusation"] is None
    assert suggested.data["tied_accusations"] == [] and suggested.data["next_card"] is None
    assert suggested.lines[0] == solved.lines[0]
    assert "ACCUSE NOW" not in " ".join(suggested.lines)
    assert "nothing to accuse" in suggested.lines[1]


def test_suggest_says_the_round_is_over_after_a_correct_accusation():
    events = [*EVERYONE_OUT[:3], accuse("Ana", "LEL NNN PT", correct=True)]
    suggested = GAME.suggest(doc_of(events, TABLE, "Ana"))
    assert suggested.data["round_over"] == {
        "winner": "Ana",
        "event": 4,
        "how": "correct accusation",
        "next_eyewitness": "Cleo",
    }
    assert suggested.data["accuse_now"] is False
    assert suggested.lines[0].startswith("Round 1 is over: Ana named the card at event 4")
    with pytest.raises(InputError, match="round 1 is over: Ana named the card.*'won Ana'"):
        parse(doc_of([*events, NEXT_CARD], TABLE))


# --- who is the eyewitness -----------------------------------------------------------------


def multi_round_as(me: str) -> dict:
    data = load(str(EXAMPLES / "multi-round.yaml")).data
    return {**data, "me": me}


@pytest.mark.parametrize(
    ("events", "me"),
    [
        pytest.param([{"round": {"eyewitness": "Ben"}}, card("HB JC KC", 1)], "Ben", id="named"),
        pytest.param(None, "Ana", id="a later round, by the seats"),
        pytest.param([{"secret": ["HB", "LEL", "PT"]}, card("HB JC KC", 1)], "Cleo", id="my card"),
    ],
)
def test_the_eyewitness_is_never_advised_to_accuse(events, me):
    # events None: multi-round.yaml's third round, whose eyewitness is Ana (Ben, Cleo, Ana)
    doc = as_document(multi_round_as(me)) if events is None else doc_of(events, TABLE, me)
    suggested = GAME.suggest(doc)
    assert suggested.data["role"] == "eyewitness"
    assert suggested.data["best_accusation"] is None and suggested.data["accuse_now"] is False
    assert suggested.lines[0].startswith("you are the eyewitness of round")
    # what the detectives know: the log without my own card, counted as solve counts it
    public = [e for e in doc.data["events"] if "secret" not in e]
    seen = GAME.solve(as_document({**doc.data, "events": public})).data
    assert suggested.data["detectives_view"]["candidates"] == len(seen["candidates"])
    assert suggested.data["detectives_view"]["p_best"] == max(seen["candidate_probability"])
    solved = GAME.solve(doc)
    assert solved.data["detectives_view"] == suggested.data["detectives_view"]
    assert any(line.startswith("you are the eyewitness:") for line in solved.lines)


def test_a_detective_who_is_out_is_not_advised_to_accuse():
    doc = load(str(EXAMPLES / "wrong-accusation.yaml"))  # Ben and Dan are out, Ana is not
    out = GAME.suggest(as_document({**doc.data, "me": "Ben"}))
    assert out.data["role"] == "out" and out.data["best_accusation"] is None
    assert out.lines == [
        "you accused wrongly at event 4 and are out for the rest of round 1: "
        "only the detectives still in accuse"
    ]
    still_in = GAME.suggest(as_document({**doc.data, "me": "Ana"})).data
    assert still_in["role"] == "detective" and still_in["best_accusation"] is not None


def test_out_of_the_race_in_the_variation():
    events = [
        {"round": {"eyewitness": "both"}},
        card("HB JC KC", 1, eyewitness="Ben"),
        accuse("Ana", "HB LEL PT"),
    ]
    suggested = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ana"))
    assert suggested.data["role"] == "out" and suggested.data["best_accusation"] is None
    assert "the other player may still name your card" in suggested.lines[0]
    still_in = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ben")).data  # Ben names Ana's card
    assert still_in["role"] == "detective" and still_in["best_accusation"] is not None


def test_an_unknown_eyewitness_is_named_as_the_thing_to_log():
    suggested = GAME.suggest(doc_of([card("HB JC KC", 1)], TABLE, "Ana"))
    assert suggested.data["role"] is None and suggested.data["best_accusation"] is not None
    assert suggested.lines[-1].startswith("the log does not say who is the eyewitness of round 1")
    assert "'round Ana'" in suggested.lines[-1]


# --- the round start, tapped and typed -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "choices"),
    [(TABLE, TABLE), (["Ana", "Ben"], ["Ana", "Ben", "both"]), (["Ana", "Both"], ["Ana", "Both"])],
)
def test_the_round_start_is_a_form_to_tap(players, choices):
    forms = GAME.entry(doc_of([], players, players[0]))
    (form,) = [f for f in forms if f.label == "A new round"]
    (part,) = form.parts
    assert part.choices == choices and not part.optional and form.instant
    line = form.line({"eyewitness": [choices[-1]]})
    assert line == f"round {choices[-1]}"
    event = GAME.parse_line(line)
    assert event == {"round": {"eyewitness": choices[-1]}}
    solved = GAME.solve(doc_of([event], players, players[0])).data
    if choices[-1] == "both":
        assert solved["variation"] is True
    else:
        assert solved["rounds"][0]["eyewitness"] == choices[-1]


def test_round_typed_with_more_than_one_name_is_refused():
    assert GAME.parse_line("round Ben") == {"round": {"eyewitness": "Ben"}}
    assert GAME.parse_line("round") == {"round": {}}
    with pytest.raises(InputError, match="usage: round EYEWITNESS or round both"):
        GAME.parse_line("round Ben Cleo")


def test_the_page_taps_a_round_start_and_refuses_the_next_rounds_card(tmp_path):
    web = client(tmp_path)
    answer = web.post(
        "/new",
        data={"game": "three-of-a-crime", "players": "Ana Ben Cleo", "me": "Ben", "name": "t.yaml"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    forms = GAME.entry(load(str(tmp_path / "t.yaml")))
    index = str([f.label for f in forms].index("A new round"))
    tapped = web.post(
        "/tap/t.yaml", data={"form": index, "eyewitness": "Ben"}, follow_redirects=False
    )
    assert tapped.status_code == 303
    for line in ("card HB JC KC 0", "accuse Cleo LEL LSL NNN wrong"):
        assert web.post("/event/t.yaml", data={"line": line}).status_code == 200
    assert load(str(tmp_path / "t.yaml")).data["events"][0] == {"round": {"eyewitness": "Ben"}}
    page = html.unescape(web.get("/log/t.yaml").text)  # me = Ben, the eyewitness
    assert "you are the eyewitness of round 1" in page
    assert web.get("/solve/t.yaml").json()["rounds"][0]["eyewitness"] == "Ben"
    web.post("/event/t.yaml", data={"line": "accuse Ana LEL LSL PT wrong"})
    page = html.unescape(web.get("/log/t.yaml").text)
    assert "Round 1 is over: every detective has accused wrongly" in page
    refused = web.post("/event/t.yaml", data={"line": "card HB LEL PT 2"})
    assert refused.status_code == 422
    assert "round 1 is over" in html.unescape(refused.text)
    assert len(load(str(tmp_path / "t.yaml")).data["events"]) == 4
    tapped = web.post(
        "/tap/t.yaml", data={"form": index, "eyewitness": "Cleo"}, follow_redirects=False
    )
    assert tapped.status_code == 303
    assert web.post("/event/t.yaml", data={"line": "card HB LEL PT 2"}).status_code == 200
    assert web.get("/solve/t.yaml").json()["round"] == 2


def test_a_session_at_the_table(tmp_path):
    """`sleuth play`: the last wrong accusation shows that the round is over; the next card is
    refused until `round` starts the next round."""
    log = tmp_path / "t.yaml"
    typed = (
        "players Ana Ben Cleo\nme Ana\nround Ben\ncard HB JC KC 0\n"
        "accuse Cleo LEL LSL NNN wrong\naccuse Ana LEL LSL PT wrong\n"
        "card HB LEL PT 2\nround Cleo\ncard HB LEL PT 2\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", "play", "three-of-a-crime", "--log", str(log)],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "Round 1 is over: every detective has accused wrongly" in done.stdout
    assert "round 1 is over" in done.stderr  # the refused card, one line
    events = load(str(log)).data["events"]
    assert events[-2:] == [{"round": {"eyewitness": "Cleo"}}, GAME.parse_line("card HB LEL PT 2")]


# --- the simulator plays by the same rule --------------------------------------------------


@pytest.mark.parametrize("players", [TABLE[:2], TABLE])
def test_simulated_rounds_stop_when_every_detective_is_out(players):
    ended = 0
    for seed in range(300):
        doc, _ = random_game(random.Random(seed), players, 3)
        log = parse(as_document(doc))  # refused if a card followed the last wrong accusation
        ended += sum(r.eliminated is not None for r in log.rounds)
    assert ended > 0  # the rule was met, not avoided


def test_the_variation_takes_no_card_after_a_correct_accusation():
    events = [
        {"round": {"eyewitness": "both"}},
        card("HB JC KC", 1, eyewitness="Ben"),
        accuse("Ana", "HB LEL PT", correct=True),
    ]
    doc = doc_of([*events, card("JC KC NNN", 0, eyewitness="Ana")], ["Ana", "Ben"], "Ana")
    with pytest.raises(InputError, match="round 1 is over: Ana named the card at event 3"):
        parse(doc)
    with pytest.raises(InputError, match="start the next round with 'round both'"):
        parse(doc)
    suggested = GAME.suggest(doc_of(events, ["Ana", "Ben"], "Ana")).data
    assert suggested["round_over"]["winner"] == "Ana" and suggested["accuse_now"] is False
    assert suggested["round_over"]["next_eyewitness"] == "both"
    solved = GAME.solve(doc_of(events, ["Ana", "Ben"], "Ana"))
    assert solved.lines[0].startswith("Round 1 is over: Ana named the card at event 3")
    # both out: the race is over and the next event starts the next round by itself
    both_out = [*events[:2], accuse("Ana", "HB LEL NNN"), accuse("Ben", "JC KC NNN")]
    assert len(parse(doc_of([*both_out, events[1]], ["Ana", "Ben"])).rounds) == 2


def test_a_table_of_one_has_no_eyewitness_to_accuse():
    doc = doc_of([accuse("Ana", "HB LEL PT")], ["Ana"])
    with pytest.raises(InputError, match="one of them is the eyewitness: list every player"):
        parse(doc)
