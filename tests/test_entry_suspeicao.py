"""Suspeição's tap forms (`Suspeicao.entry`, shown by `sleuth serve`): every form's line is a line
`parse_line` reads as the intended event; every event of a simulated round that the forms cover
can be tapped in (the line of its choices parses back to the event); the forms offer the log's
deck (a custom `deck:`, the 5-6 player cards); and the web app saves tapped events."""

from __future__ import annotations

import html
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from webclient import client

from models.suspeicao.game import GAME_OBJECT as SUSPEICAO
from models.suspeicao.game import parse_line
from models.suspeicao.log import parse
from models.suspeicao.rules import Deck, load_deck
from models.suspeicao.simulate import random_game
from solver.entry import EntryForm
from solver.errors import InputError
from solver.logfile import Document, load

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
PLAYERS = ["Ana", "Ben", "Cleo"]
DEAL = {"deal": {"incriminating": [7, 21, 33, 41], "hand": [2, 15, 40, "X1"], "first": "Ben"}}

DEAL_FORM = "The deal"
REVEAL = "A REVEAL"
FORCE_SHOWN = "A FORCE answered with a card"
FORCE_NONE = "A FORCE claimed none (polygraph)"
WITHOUT_ACTION = "An accused card, or an idle PASS"
SKIP = "A final turn skipped"
END = "The end of the round"
ACTION_FORMS = {
    "REVEAL": REVEAL,
    "EXCHANGE": "An EXCHANGE",
    "TAKE": "A TAKE",
    "BUY": "A BUY",
    "PASS": "A PASS",
}
SINGLE_KEYS = (
    "by", "card", "target", "revealed", "polygraph", "returned", "took", "gave", "bought",
    "evidence",
)  # fmt: skip


def document(events: list[dict] | None = None, **header: object) -> Document:
    data = {"game": "suspeicao", "players": PLAYERS, "me": "Ana", **header}
    return Document({**data, "events": [DEAL] if events is None else events})


def forms_of(doc: Document) -> dict[str, EntryForm]:
    forms = SUSPEICAO.entry(doc)
    assert len({f.label for f in forms}) == len(forms)  # labels tell the forms apart
    return {form.label: form for form in forms}


def tapped(label: str, doc: Document | None = None, **chosen: str | list[str]) -> dict:
    """The event the choices of form `label` become (one word for a single pick)."""
    form = forms_of(doc or document())[label]
    picked = {k: [v] if isinstance(v, str) else v for k, v in chosen.items()}
    return parse_line(form.line(picked))


HAND = {"card1": "2", "card2": "15", "card3": "40", "card4": "X1"}
BOARD = {"number1": "7", "number2": "21", "number3": "33", "number4": "41"}
CASES = [
    (DEAL_FORM, {**BOARD, **HAND, "first": "Ben"}, DEAL),
    (
        DEAL_FORM,
        {**BOARD, **HAND},
        {"deal": {"incriminating": [7, 21, 33, 41], "hand": [2, 15, 40, "X1"]}},
    ),
    (
        REVEAL,
        {"by": "Ben", "card": "9", "target": "Cleo", "revealed": "13"},
        {"play": {"by": "Ben", "card": 9, "target": "Cleo", "revealed": 13}},
    ),
    (
        FORCE_SHOWN,
        {"by": "Ben", "card": "8", "target": "Cleo", "revealed": "3"},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "revealed": 3}},
    ),
    (
        FORCE_NONE,
        {"by": "Ana", "card": "4", "target": "Cleo", "polygraph": "12", "returned": "27"}
        | {"drew": ["44"]},
        {
            "play": {"by": "Ana", "card": 4, "target": "Cleo", "none": True, "polygraph": 12}
            | {"returned": 27, "drew": [44]}
        },
    ),
    (
        FORCE_NONE,
        {"by": "Ben", "card": "8", "target": "Cleo", "polygraph": "X2"},
        {"play": {"by": "Ben", "card": 8, "target": "Cleo", "none": True, "polygraph": "X2"}},
    ),
    (
        "An EXCHANGE",
        {"by": "Ana", "card": "11", "target": "Ben", "took": "30", "gave": "15"}
        | {"drew": ["44", "9"]},
        {
            "play": {"by": "Ana", "card": 11, "target": "Ben", "took": 30, "gave": 15}
            | {"drew": [9, 44]}
        },
    ),
    (
        "An EXCHANGE",
        {"by": "Ben", "card": "3", "target": "Cleo"},
        {"play": {"by": "Ben", "card": 3, "target": "Cleo"}},
    ),
    (
        "A TAKE",
        {"by": "Ben", "card": "5", "target": "Ana", "took": "2"},
        {"play": {"by": "Ben", "card": 5, "target": "Ana", "took": 2}},
    ),
    ("A BUY", {"by": "Cleo", "card": "6"}, {"play": {"by": "Cleo", "card": 6}}),
    (
        "A BUY",
        {"by": "Ana", "card": "15", "bought": "30", "drew": ["1"]},
        {"play": {"by": "Ana", "card": 15, "bought": 30, "drew": [1]}},
    ),
    (
        "A PASS",
        {"by": "Ben", "card": "16", "target": "Cleo", "evidence": "21"},
        {"play": {"by": "Ben", "card": 16, "target": "Cleo", "evidence": 21}},
    ),
    (WITHOUT_ACTION, {"by": "Cleo", "card": "33"}, {"play": {"by": "Cleo", "card": 33}}),
    (SKIP, {"by": "Ben"}, {"skip": {"by": "Ben"}}),
    (END, {"kept0": "41", "kept2": ["33", "7"]}, {"end": {"Ana": [41], "Cleo": [7, 33]}}),
    (END, {}, {"end": {}}),
]


@pytest.mark.parametrize(("label", "chosen", "event"), CASES)
def test_each_forms_line_reads_as_the_event(label, chosen, event):
    assert tapped(label, **chosen) == event


def test_a_name_with_a_space_is_one_word_of_the_line():
    doc = document(players=["Ana Maria", "Ben", "Cleo"], me="Ana Maria")
    assert tapped(END, doc, kept0="41") == {"end": {"Ana Maria": [41]}}
    assert tapped(SKIP, doc, by="Ana Maria") == {"skip": {"by": "Ana Maria"}}
    event = tapped(REVEAL, doc, by="Ana Maria", card="9", target="Ben", revealed="13")
    assert event == {"play": {"by": "Ana Maria", "card": 9, "target": "Ben", "revealed": 13}}


def test_a_missing_choice_names_the_form_and_the_part():
    with pytest.raises(InputError, match=r"A FORCE claimed none \(polygraph\): choose one"):
        tapped(FORCE_NONE, by="Ben", card="8", target="Cleo")


def test_each_card_part_offers_only_its_actions_cards_of_the_deck_in_use():
    deck = load_deck()
    forms = forms_of(document())
    big = {c.name for c in deck.cards if c.big_game}
    for action, label in {**ACTION_FORMS, "FORCE": FORCE_SHOWN}.items():
        offered = forms[label].parts[1].choices
        assert offered == [c.name for c in deck.cards if c.action == action and not c.big_game]
    assert not big & set(forms[DEAL_FORM].parts[4].choices)  # 3 players: no 5-6 icon cards
    at_five = forms_of(document(players=[*PLAYERS, "Dan", "Eve"]))
    assert big <= set(at_five[DEAL_FORM].parts[4].choices)
    assert at_five[END].template == "end {kept0} {kept1} {kept2} {kept3} {kept4}"


def test_a_custom_deck_in_the_header_is_honoured():
    deal = {"deal": {"incriminating": [9, 1, 4, 7], "hand": [2, "X1"]}}
    forms = forms_of(document([deal], deck=SMALL))
    small = load_deck(SMALL)
    hands_of_two = [*BOARD, "card1", "card2", "first"]
    assert [p.name for p in forms[DEAL_FORM].parts] == hands_of_two
    assert forms[FORCE_SHOWN].parts[1].choices == [
        c.name for c in small.cards if c.action == "FORCE"
    ]
    assert forms["A REVEAL"].parts[-1].choices == [c.name for c in small.cards]
    assert forms["A PASS"].parts[3].choices == ["1", "4", "7", "9"]  # the last deal's board


def test_before_a_deal_there_is_no_end_and_without_me_no_deal():
    forms = forms_of(document([]))
    assert END not in forms and list(forms)[0] == DEAL_FORM  # the page opens the first form
    assert list(forms_of(document()))[-1] == DEAL_FORM  # once dealt: the next round's, last
    assert len(forms["A PASS"].parts[3].choices) == 44  # any number: the board is not known
    assert DEAL_FORM not in forms_of(Document({"game": "suspeicao", "players": PLAYERS}))
    assert SUSPEICAO.entry(Document({"game": "suspeicao", "players": ["Ana", "Ben"]})) == []


# -- every simulated event of a kind the forms cover can be tapped in -------------------------------


def choices_of(event: dict, deck: Deck, players: list[str]) -> tuple[str, dict[str, list[str]]]:
    """The form an event is tapped in and its choices, read off the event."""
    kind, body = next(iter(event.items()))
    if kind == "deal":
        chosen = {f"number{i}": [str(c)] for i, c in enumerate(body["incriminating"], 1)}
        chosen |= {f"card{i}": [str(c)] for i, c in enumerate(body["hand"], 1)}
        return DEAL_FORM, chosen | ({"first": [body["first"]]} if "first" in body else {})
    if kind == "skip":
        return SKIP, {"by": [body["by"]]}
    if kind == "end":
        return END, {f"kept{i}": [str(c) for c in body.get(p, [])] for i, p in enumerate(players)}
    assert kind == "play" and set(body) <= {*SINGLE_KEYS, "none", "drew"}, event
    chosen = {key: [str(body[key])] for key in SINGLE_KEYS if key in body}
    chosen["drew"] = [str(c) for c in body.get("drew", [])]
    action = deck.card(str(body["card"])).action
    if "target" not in body and action != "BUY":
        return WITHOUT_ACTION, chosen
    if action == "FORCE":
        return (FORCE_NONE if body.get("none") else FORCE_SHOWN), chosen
    return ACTION_FORMS[action], chosen


def normalised(event: dict, deck: Deck) -> dict:
    """What a tapped line cannot keep: the order of the cards drawn (written in deck order; the
    cards all enter my hand at once), and players listed at the end as keeping nothing."""
    kind, body = next(iter(event.items()))
    order = [c.name for c in deck.cards]
    if "drew" in body:
        body = {**body, "drew": sorted(body["drew"], key=lambda c: order.index(str(c)))}
    if kind == "end":
        body = {player: cards for player, cards in body.items() if cards}
    return {kind: body}


ROUNDS: list[tuple[int, str | None, int]] = [
    (players, deck, seed)
    for players, deck in [(3, None), (4, None), (5, None), (6, None), (3, SMALL), (4, SMALL)]
    for seed in range(5)
]


def test_every_simulated_event_can_be_tapped_in():
    used = set()
    for players, deck_path, seed in ROUNDS:
        game = random_game(random.Random(seed), players, deck_path)
        deck = load_deck(deck_path)
        names = game.doc["players"]
        doc = Document(game.doc)
        forms = forms_of(doc)
        lines = []
        for event in game.doc["events"]:
            label, chosen = choices_of(event, deck, names)
            line = forms[label].line(chosen)
            assert parse_line(line) == normalised(event, deck), (players, seed, line)
            used.add(label)
            lines.append(line)
        tapped_log = parse(Document({**game.doc, "events": [parse_line(x) for x in lines]}))
        assert tapped_log.scores == game.scores
    assert used == set(forms), set(forms) - used  # every form was needed somewhere


# -- through the web app ---------------------------------------------------------------------------


def start(tmp_path: Path) -> tuple[TestClient, str, dict[str, int]]:
    """A new 3-player Suspeição game from Ana's seat, and its forms' indexes by label."""
    web = client(tmp_path)
    answer = web.post(
        "/new",
        data={"game": "suspeicao", "players": "Ana Ben Cleo", "me": "Ana", "name": "s.yaml"},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    return web, "s.yaml", index_of(tmp_path / "s.yaml")


def index_of(path: Path) -> dict[str, int]:
    return {form.label: i for i, form in enumerate(SUSPEICAO.entry(load(str(path))))}


def test_a_deal_and_a_force_claimed_none_are_tapped_in_and_saved(tmp_path):
    web, name, index = start(tmp_path)
    assert FORCE_NONE in web.get(f"/log/{name}").text
    deal = {"form": str(index[DEAL_FORM]), **BOARD, **HAND, "first": "Ben"}
    assert web.post(f"/tap/{name}", data=deal, follow_redirects=False).status_code == 303
    index = index_of(tmp_path / name)  # dealt: the deal's form moved last
    force = {"form": str(index[FORCE_NONE]), "by": "Ben", "card": "8", "target": "Ana"}
    force |= {"polygraph": "40", "returned": "X1", "drew": []}
    assert web.post(f"/tap/{name}", data=force, follow_redirects=False).status_code == 303
    claim = {"by": "Ben", "card": 8, "target": "Ana", "none": True, "polygraph": 40}
    assert load(str(tmp_path / name)).data["events"] == [DEAL, {"play": claim | {"returned": "X1"}}]
    assert web.get(f"/solve/{name}").json()["my_hand"] == ["2", "15", "X1"]  # X1 came back


def test_a_missing_choice_is_refused_with_the_forms_message_and_nothing_saved(tmp_path):
    web, name, index = start(tmp_path)
    deal = {"form": str(index[DEAL_FORM]), **BOARD, "card1": "2", "card2": "15"}
    answer = web.post(f"/tap/{name}", data=deal | {"card4": ""})  # a drop-down left at "—"
    assert answer.status_code == 422
    assert "The deal: choose one for 'my card 3'" in html.unescape(answer.text)
    force = {"form": str(index[FORCE_NONE]), "by": "Ben", "card": "8", "polygraph": "40"}
    answer = web.post(f"/tap/{name}", data=force)
    assert answer.status_code == 422
    assert f"{FORCE_NONE}: choose one for 'the target'" in html.unescape(answer.text)
    assert load(str(tmp_path / name)).data["events"] == []
